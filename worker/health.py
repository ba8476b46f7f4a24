"""Is this host ready to referee? ``python -m worker.health [--sandbox NAME] [--prepare]`` says ok or not ok.

A referee worker builds the sandbox runtime (``worker.sandbox.runtime``) in its
main process before it takes any work (``prepare``, called from the Celery
start-up signal in ``worker.celery``) and removes the old ones no process uses
(``prune_runtimes``), then forbids builds in every process that runs tasks.
A worker that cannot build it refuses to start; a runtime that goes
stale later (the SDK upgraded under a running worker) makes its matches go back
to the queue and this check fail, so the deployer's probe restarts the worker.

Exit status: 0 ok, 1 not ok (the line says why).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from worker.sandbox.runtime import RuntimeUnavailable, build_runtime, prune_runtimes, runtime_current, runtime_path

log = logging.getLogger(__name__)

SANDBOX_ENV = "ARENA_SANDBOX"
"""The backend a worker plays with (the arena's setting of the same name); ``bwrap`` when unset."""


def runtime_dir(sandbox: str) -> Path | None:
    """Where ``sandbox`` keeps its bots' runtime, or None if it runs bots on the worker's own interpreter."""
    if sandbox == "none" or (sandbox == "process" and os.geteuid() != 0):
        return None
    from worker.sandbox.bwrap import DEFAULT_RUNTIME_DIR

    return DEFAULT_RUNTIME_DIR


def prepare(sandbox: str) -> str | None:
    """Build the runtime ``sandbox`` needs if it is missing or stale (main process only) and remove the ones no
    process uses; None, or the problem."""
    where = runtime_dir(sandbox)
    if where is None:
        return None
    try:
        build_runtime(where)
    except (RuntimeUnavailable, OSError) as error:
        return f"cannot build the sandbox runtime under {where}: {error}"
    try:
        removed = prune_runtimes(where)
    except OSError as error:  # a full or read-only cache costs disk, not matches
        log.warning("could not remove unused sandbox runtimes under %s: %s", where, error)
    else:
        if removed:
            log.info("removed what no process uses under %s: %s", where, ", ".join(removed))
    return None


def check(sandbox: str) -> str | None:
    """None if the runtime of the code installed now is built, else why the worker cannot play."""
    where = runtime_dir(sandbox)
    if where is None:
        return None
    try:
        if not runtime_current(where):
            return (f"the sandbox runtime {runtime_path(where).name} under {where} is missing or stale (the SDK "
                    "or its packages changed since it was built); restart the worker, or run this with --prepare")
    except (RuntimeUnavailable, OSError) as error:
        return f"no sandbox runtime: {error}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m worker.health", description=__doc__.splitlines()[0])
    parser.add_argument("--sandbox", default=os.environ.get(SANDBOX_ENV, "bwrap"),
                        help=f"the backend (default: ${SANDBOX_ENV}, else bwrap)")
    parser.add_argument("--prepare", action="store_true",
                        help="build the runtime first if it is missing or stale, and remove those no process uses")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    problem = prepare(args.sandbox) if args.prepare else None
    problem = problem or check(args.sandbox)
    if problem is not None:
        print(f"not ok: {problem}")
        return 1
    where = runtime_dir(args.sandbox)
    print(f"ok: sandbox {args.sandbox}" + (f", runtime {runtime_path(where)}" if where is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
