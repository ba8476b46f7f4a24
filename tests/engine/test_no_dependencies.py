"""The engine, the reference bots and the ``durak`` command import nothing outside the standard library.

The probe runs with ``-S`` (no site-packages at all), so a third-party import would fail outright.

Bot authors install the SDK into all sorts of environments, and the engine must run
wherever Python does; a stray import of a third-party package would break that.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import bots_sdk.engine, bots_sdk.bots, bots_sdk.local, bots_sdk.match, bots_sdk.cli.main
from bots_sdk.engine import determinize, replay
foreign = sorted({name.split(".")[0] for name in sys.modules}
                 - set(sys.stdlib_module_names) - {"bots_sdk", "__main__"})
print(json.dumps(foreign))
"""


def test_engine_and_cli_import_only_the_standard_library() -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r})\n{PROBE}"],
        capture_output=True, text=True, check=True,
    )
    assert json.loads(done.stdout) == []
