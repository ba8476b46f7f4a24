"""Collection rules for the whole repository (pytest's ``--doctest-modules`` over ``bots_sdk/`` and ``tests/``).

Where the native engine is built (setup.py), a compiled module is imported from its extension, and pytest refuses
to collect doctests from a source file whose module came from elsewhere. Those sources are left out here; the
pure-Python pass of ``.ci/run`` (``DURAK_PURE_PYTHON=1``) runs their doctests, on the engine they describe.
"""

from __future__ import annotations

import os
from pathlib import Path

from bots_sdk.native import compiled_sources

collect_ignore = [str(Path(source).relative_to(Path(__file__).parent)) for source in compiled_sources()]

# Pooled sandboxes (worker/sandbox/warm.py) outlive a test by design, which the suites' "nothing left running"
# checks would count: the tests that pool make their pools themselves (tests/worker/sandbox/test_warm.py).
os.environ.setdefault("DURAK_WARM_POOL", "off")
