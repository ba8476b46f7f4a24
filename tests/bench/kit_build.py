"""The starter kits on the worker: the arena's build of each, and its start in the bwrap sandbox.

    sudo .venv/bin/python tests/bench/kit_build.py [LANG ...] [--starts N] [--json] [--smoke]

For each language (default: every kit, and python's ``durak new`` bot for comparison), a fresh bot of its
kit (``durak new``) is built by ``worker.build.build`` into an empty store, as the arena builds an upload:
dependencies fetched from the registry on the host, the build steps in the sandbox without network.

- ``build_s``: that build, end to end (the fetch included: its network is part of what an author waits for);
- ``start_ms``: from the sandbox's start of the stored bot (seat copy, bwrap, the language's runtime) to
  the health service's SERVING, as the referee waits for it (median of ``--starts``);
- ``stored_mb``: the stored bot's size, which every start copies into its seat.

The decision round trip of a built bot is ``tests/bench/grpc_latency.py STORE_ENTRY``. Needs root and a
working bwrap; ``--smoke`` (the JavaScript kit, one start) says so and exits 0 where it cannot run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bots_sdk.botdir import LANGUAGES
from bots_sdk.cli.main import main as durak
from bots_sdk.remote import Limits
from worker.build import build
from worker.sandbox import SandboxUnavailable
from worker.sandbox.bwrap import BwrapSandbox
from worker.sandbox.slots import FIRST_UID


def measure(language: str, base: Path, sandbox: BwrapSandbox, starts: int) -> dict[str, float]:
    where = base / language
    where.mkdir()
    assert durak(["new", "bench_bot", "--lang", language, "--dir", str(where)]) == 0
    started = time.perf_counter()
    built = build(where / "bench_bot", base / f"store-{language}", sandbox)
    build_s = time.perf_counter() - started
    waits = []
    for _ in range(starts):
        started = time.perf_counter()
        served = sandbox.launch(built.spec, Limits())
        try:
            served.bot.wait_serving()
            waits.append((time.perf_counter() - started) * 1000)
        finally:
            served.kill()
    size = sum(path.stat().st_size for path in built.path.rglob("*") if path.is_file())
    return {"build_s": round(build_s, 1), "start_ms": round(statistics.median(waits)),
            "stored_mb": round(size / 1e6, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("languages", nargs="*", metavar="LANG", help="default: python and every kit")
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="the JavaScript kit, one start")
    args = parser.parse_args()
    languages = args.languages or ["python", *LANGUAGES]
    if args.smoke:
        languages, args.starts = ["javascript"], 1
    base = Path(tempfile.mkdtemp(prefix="durak-kit-bench-", dir="/tmp"))
    base.chmod(0o711)  # the build's and the bots' slot uids must reach the store
    try:
        if os.geteuid() != 0:
            raise SandboxUnavailable("the bwrap sandbox needs root")
        sandbox = BwrapSandbox(state_dir=base / "state", runtime_dir=base / "runtime", first_uid=FIRST_UID + 800,
                               slots=4)
        sandbox.self_test()
        results = {language: measure(language, base, sandbox, args.starts) for language in languages}
    except SandboxUnavailable as error:
        print(f"kit_build: cannot run here: {error}", file=sys.stderr)
        return 0 if args.smoke else 2
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"{'language':<12} {'build (s)':>10} {'start to SERVING (ms)':>22} {'stored (MB)':>12}")
    for language, row in results.items():
        print(f"{language:<12} {row['build_s']:>10.1f} {row['start_ms']:>22.0f} {row['stored_mb']:>12.1f}")
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
