"""``durak-arena``: the whole arena on one machine with one command (the README's first command).

It sets up the database (SQLite in the data folder unless ``DATABASE_URL`` says
otherwise), registers the reference bots and the schedules, starts a Celery
worker, beat and the web server as child processes (the broker is a folder
in the data folder unless ``CELERY_BROKER_URL`` is set), runs a small round robin
among the reference bots with a progress bar, and serves the site until
Ctrl-C, which stops every process it started. A second run reuses the
database and the finished tournament. The data folder is ``--data-dir``, else
``$ARENA_VAR_DIR``, else ``var/`` of a source checkout, else the user's data
directory (``arena/datadir.py``); the launcher says which at start.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from arena.datadir import ENV
from worker.referee.cores import REFEREES_ENV

TABLE_WORKERS = 4
"""Games with people (/tables/) open at once; each waits on a person in its own worker process."""


STOP_GRACE_S = 1.5
"""How long Ctrl-C lets the children stop by themselves before they are killed (the whole stop stays under 5 s)."""


class LaunchError(Exception):
    """Something the person starting the arena must fix; the message says what and how."""


def worker_split(total: int, ladder: int | None) -> tuple[int, int]:
    """How many of ``total`` referee processes take every queue (tournament first, then the ladder's) and how
    many take only tournament matches: ``ladder`` (ARENA_LADDER_WORKERS; default all but one) for the first,
    at least one of each when there are two or more.

    >>> worker_split(2, None), worker_split(4, 3), worker_split(4, 9), worker_split(1, None)
    ((1, 1), (3, 1), (3, 1), (1, 0))
    """
    if total <= 1:
        return total, 0
    shared = min(max(ladder if ladder is not None else total - 1, 1), total - 1)
    return shared, total - shared


def _port_free(host: str, port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


class Children:
    """The processes the launcher started, each in its own process group so a stop reaches their children."""

    def __init__(self, logs: Path, cwd: Path) -> None:
        self.logs = logs
        self.cwd = cwd
        self.running: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str, argv: Sequence[str]) -> None:
        self.logs.mkdir(parents=True, exist_ok=True)
        log = (self.logs / f"{name}.log").open("ab")
        self.running[name] = subprocess.Popen(list(argv), cwd=self.cwd, stdout=log, stderr=subprocess.STDOUT,
                                              start_new_session=True)

    def check(self) -> None:
        for name, process in self.running.items():
            if process.poll() is not None:
                tail = (self.logs / f"{name}.log").read_text(errors="replace").strip().splitlines()[-5:]
                raise LaunchError(f"the {name} stopped (exit {process.returncode}); last lines of its log "
                                  f"{self.logs / (name + '.log')}:\n  " + "\n  ".join(tail))

    def stop(self) -> None:
        """SIGTERM to every child's group, SIGKILL to what is left after ``STOP_GRACE_S``.

        A Celery worker's warm shutdown waits for its running tasks (a table waits minutes on a person), and
        Ctrl-C on a laptop arena should not: a match cut short is claimed again on the next start."""
        # A second Ctrl-C must not cut the stopping short and leave orphans behind.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for process in self.running.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_S
        for process in self.running.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
        for process in self.running.values():  # the group too: a pool process or a bot may outlive its leader
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _compile_messages() -> None:
    """The Russian and German pages: compile the catalogs unless an installed package already ships them."""
    from arena.ops.messages import catalogs_compiled, compile_catalogs

    if catalogs_compiled():
        return
    if shutil.which("msgfmt") is None:
        print("note: GNU gettext (msgfmt) is not installed, so the site is in English only; install it\n"
              "      (apt-get install gettext) and run durak-arena again for Russian and German.")
        return
    compile_catalogs()


def _setup(quiet: bool = True) -> str:
    """Migrations, static files, reference bots and schedules; the sandbox the worker will use."""
    from django.core.management import call_command

    from arena.ops.checks import check_broker, check_database, check_sandbox

    for problem in (check_database(), check_broker()):
        if problem is not None:
            raise LaunchError(problem)
    verbosity = 0 if quiet else 1
    call_command("migrate", verbosity=verbosity, interactive=False)
    call_command("collectstatic", verbosity=verbosity, interactive=False)
    _compile_messages()
    call_command("setup_arena", verbosity=verbosity)
    if check_sandbox() is None:
        return os.environ.get("ARENA_SANDBOX", "bwrap")
    print("note: no working bubblewrap sandbox here (it needs root and user namespaces); this arena plays\n"
          "      bots WITHOUT a sandbox: upload only bots you trust. Production workers refuse to do this.")
    return "none"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="durak-arena", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=2, help="matches played at once (default 2)")
    parser.add_argument("--no-round-robin", dest="round_robin", action="store_false",
                        help="skip the first run's round robin among the reference bots")
    parser.add_argument("--data-dir", type=Path, metavar="DIR",
                        help="keep the database, broker, bots and logs in DIR (default: $ARENA_VAR_DIR, var/ of a "
                             "source checkout, else the user's data directory)")
    args = parser.parse_args(argv)
    if args.data_dir is not None:
        os.environ[ENV] = str(args.data_dir.expanduser().resolve())  # every child process inherits it
    # Ctrl-C and `kill` stop the children too; SIGINT explicitly, since a shell starting us in the background
    # hands it down ignored.
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    children: Children | None = None
    code = 1  # until the run ends by Ctrl-C
    try:
        if not _port_free(args.host, args.port):
            raise LaunchError(f"port {args.port} on {args.host} is already in use; stop what uses it or pass "
                              f"--port {args.port + 1}")
        import django

        django.setup()
        from django.conf import settings

        from arena.ops.first_run import first_tournament, follow

        data = Path(settings.VAR_DIR)
        data.mkdir(parents=True, exist_ok=True)
        os.environ[ENV] = str(data)
        print(f"durak-arena: data in {data}; setting up (database, reference bots, schedules) ...", flush=True)
        sandbox = _setup()
        os.environ["ARENA_SANDBOX"] = sandbox
        # The children run in the data folder: nothing they write by accident lands beside the code.
        children = Children(data / "logs", cwd=data)
        python = sys.executable
        shared, dedicated = worker_split(args.workers, settings.ARENA_LADDER_WORKERS)
        # The host's match referees, for every worker's `auto` rules (starts ahead, pooled sandboxes): each Celery
        # worker alone would count only its own concurrency, and all of them would take the same spare core.
        os.environ.setdefault(REFEREES_ENV, str(shared + dedicated))
        children.start("worker", [python, "-m", "celery", "-A", "worker.celery", "worker", "-Q",
                                  "tournament,referee,default", "--concurrency", str(shared), "--loglevel", "INFO"])
        if dedicated:
            children.start("tournaments", [python, "-m", "celery", "-A", "worker.celery", "worker", "-Q", "tournament",
                                           "--concurrency", str(dedicated), "--hostname", "tournaments@%h",
                                           "--loglevel", "INFO"])
        children.start("tables", [python, "-m", "celery", "-A", "worker.celery", "worker", "-Q", "tables",
                                  "--concurrency", str(TABLE_WORKERS), "--hostname", "tables@%h", "--loglevel", "INFO"])
        # Game analysis (queue `analysis`): CPU for minutes and no bots, so one process of its own.
        children.start("analysis", [python, "-m", "celery", "-A", "worker.celery", "worker", "-Q", "analysis",
                                    "--concurrency", "1", "--hostname", "analysis@%h", "--loglevel", "INFO"])
        children.start("beat", [python, "-m", "celery", "-A", "worker.celery", "beat", "--loglevel", "INFO",
                                "--schedule", str(Path(settings.VAR_DIR) / "beat-schedule")])
        children.start("web", [python, "-m", "gunicorn", "arena.wsgi", "--bind", f"{args.host}:{args.port}",
                               "--workers", "2", "--access-logfile", "-"])
        url = f"http://{args.host}:{args.port}"
        print(f"durak-arena: workers, beat and web started (logs in {children.logs}); site at {url}", flush=True)
        if args.round_robin:
            tournament = first_tournament()
            follow(tournament, children.check)
            print(f"durak-arena: the round robin is over: standings at {url}/tournaments/{tournament.pk}/ (every "
                  f"game opens in the replay viewer from there), the ladder at {url}/ladders/classic-2/", flush=True)
        print(f"durak-arena: serving {url} - press Ctrl-C to stop everything.", flush=True)
        _wait_for_ctrl_c(children)
    except LaunchError as error:
        print(f"durak-arena: {error}", file=sys.stderr)
        code = 1
    except KeyboardInterrupt:
        code = 0
    finally:
        if children is not None:
            if sys.exc_info()[0] is not None:  # an unexpected error: its traceback, then the same stop
                traceback.print_exc()
            print("\ndurak-arena: stopping the web server, the worker and beat ...", flush=True)
            children.stop()
            # Nothing is left but this interpreter, and its teardown (the gRPC core the checks imported) takes
            # seconds of C code: leave at once, so that Ctrl-C stops the arena within 5 s.
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    return code


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _wait_for_ctrl_c(children: Children) -> None:
    while True:
        children.check()
        time.sleep(1.0)


if __name__ == "__main__":
    sys.exit(main())
