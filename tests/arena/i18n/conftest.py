"""The catalogs compiled once before the translation tests, as ``durak-arena`` and CI compile them."""

from __future__ import annotations

import pytest

from arena.ops.messages import catalogs_compiled, compile_catalogs


@pytest.fixture(autouse=True, scope="session")
def compiled_catalogs() -> None:
    if not catalogs_compiled():
        compile_catalogs()
