"""A deferred module (bots_sdk/deferred_imports.py) is the same module, run at its first use, once, whole.

Each case runs in a new interpreter: a deferral applies only to a module's first import in a process,
and this one has long imported them all.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any


def run_python(code: str, cwd: Path, **env: str) -> dict[str, Any]:
    """Run ``code`` in a new interpreter and return the JSON it prints last."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout.splitlines()[-1]))


def test_threads_that_touch_a_deferred_module_at_once_all_find_it_whole(tmp_path: Path) -> None:
    # The module takes a while to run, so that every thread touches it while it runs.
    (tmp_path / "slow_module.py").write_text("import time\ntime.sleep(0.3)\nVALUE = 42\n")
    found = run_python("""
        import json, sys, threading
        sys.path.insert(0, ".")
        from bots_sdk import deferred_imports
        deferred_imports.defer(frozenset({"slow_module"}))
        import slow_module
        deferred = deferred_imports.not_run()
        start, seen = threading.Barrier(8), []

        def touch():
            start.wait()
            try:
                seen.append(slow_module.VALUE)
            except AttributeError as error:
                seen.append(str(error))

        threads = [threading.Thread(target=touch) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(json.dumps({"deferred": deferred, "seen": seen, "after": deferred_imports.not_run()}))
    """, tmp_path)
    assert "slow_module" in found["deferred"]
    assert found["seen"] == [42] * 8
    assert "slow_module" not in found["after"]


def test_a_bots_start_defers_its_unused_imports_and_each_works_at_its_first_use(tmp_path: Path) -> None:
    found = run_python("""
        import json, sys
        import bots_sdk.server, bots_sdk.bots.random_bot
        from bots_sdk import deferred_imports
        deferred = deferred_imports.not_run()
        heavy = sorted(name for name in ("ast", "dis", "locale", "tokenize", "google.protobuf.text_format")
                       if name in sys.modules)
        import calendar, inspect, traceback

        def seat(number, players=2):
            pass

        print(json.dumps({"deferred": deferred, "heavy": heavy, "after": deferred_imports.not_run(),
                          "signature": str(inspect.signature(seat)),
                          "timegm": calendar.timegm((1970, 1, 2, 0, 0, 0)),
                          "traceback": traceback.format_stack(limit=1)}))
    """, tmp_path)
    assert found["deferred"] == ["calendar", "google.protobuf.internal.python_message", "inspect", "linecache",
                                 "textwrap"]
    assert found["heavy"] == [], "what the deferred modules import was imported anyway"
    assert found["after"] == ["google.protobuf.internal.python_message", "textwrap"]
    assert found["signature"] == "(number, players=2)"
    assert found["timegm"] == 86400
    assert found["traceback"][0].startswith('  File "<string>", line '), found["traceback"]


def test_protobufs_pure_python_backend_still_runs_its_deferred_module(tmp_path: Path) -> None:
    found = run_python("""
        import json
        from bots_sdk import deferred_imports
        from bots_sdk._proto.durak.v1 import bot_pb2
        from google.protobuf.internal import api_implementation
        hello = bot_pb2.HelloRequest(protocol="durak.v1")
        again = bot_pb2.HelloRequest.FromString(hello.SerializeToString())
        print(json.dumps({"backend": api_implementation.Type(), "protocol": again.protocol,
                          "not_run": deferred_imports.not_run()}))
    """, tmp_path, PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION="python")
    assert found["backend"] == "python"
    assert found["protocol"] == "durak.v1"
    assert "google.protobuf.internal.python_message" not in found["not_run"]
