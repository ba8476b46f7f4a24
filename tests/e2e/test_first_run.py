"""The README's first command as a newcomer runs it: ``durak-arena`` on the embedded defaults (SQLite, a folder
as the broker) sets everything up, plays the reference bots' round robin, serves the ladder and the replays;
Ctrl-C stops every process it started; a second run reuses what exists."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

from tests.e2e.processes import command_line, environment, marked

ROOT = Path(__file__).resolve().parents[2]




def run_until_serving(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen([str(Path(sys.executable).parent / "durak-arena"), "--port", str(port)], cwd=ROOT,
                               env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 240
    while "press Ctrl-C" not in log.read_text():
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.5)
    return process


def stop(process: subprocess.Popen[str], marker: str) -> None:
    """Ctrl-C: the launcher and every process it started are gone within 5 s."""
    began = time.monotonic()
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=60) == 0
    took = time.monotonic() - began
    assert took <= 5, f"Ctrl-C took {took:.1f} s to stop the arena"
    time.sleep(0.5)
    assert not marked(marker), "processes of the arena outlived its Ctrl-C"


def test_one_command_gives_a_working_arena_and_ctrl_c_stops_it(tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "ARENA_", "CELERY_", "DATABASE_"))}
    # The analysis worker starts (a child that died would stop the launcher), but the round robin's games are
    # not analysed: minutes of CPU beside the referee, which tests/arena/browser covers with a real worker.
    # One deal a pairing, not two: the same three matches through the same processes, each half as long (strong
    # thinks 200 ms of wall time a move), and what is checked below needs only that every match ends.
    env.update(ARENA_VAR_DIR=str(tmp_path / "var"), DURAK_FIRST_RUN_TEST=marker, ARENA_ANALYSIS="false",
               ARENA_FIRST_RUN_DEALS="1")
    started = time.monotonic()
    first = run_until_serving(env, port, tmp_path / "first.log")
    elapsed = time.monotonic() - started
    try:
        output = (tmp_path / "first.log").read_text()
        assert "tournament matches [" in output and "3/3" in output
        site = f"http://127.0.0.1:{port}"
        ladder = urllib.request.urlopen(f"{site}/ladders/classic-2/").read().decode()
        assert all(f"/bots/{name}/" in ladder for name in ("random", "gentle", "strong"))
        standings = urllib.request.urlopen(f"{site}/tournaments/1/").read().decode()
        assert "finished" in standings
        game = standings.split('href="/games/')[1].split("/")[0]
        assert b"replay-frames" in urllib.request.urlopen(f"{site}/games/{game}/").read()
        # Every Celery worker counts the host's referees, not its own concurrency: the `auto` rules (starts ahead,
        # pooled sandboxes) then leave the cores to the games, instead of each worker claiming the same spare one.
        workers = [pid for pid in marked(marker) if {"celery", "worker"} <= set(command_line(pid))]
        referees = {environment(pid).get("DURAK_REFEREES") for pid in workers}
        assert workers and len(referees) == 1 and None not in referees, referees
    finally:
        stop(first, marker)
    print(f"first run until serving a finished tournament: {elapsed:.1f} s")
    again = run_until_serving(env, port, tmp_path / "second.log")
    stop(again, marker)
    assert "the tournament of an earlier run is finished" in (tmp_path / "second.log").read_text()


def test_a_port_in_use_is_named(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run([str(Path(sys.executable).parent / "durak-arena"), "--port", str(port)], cwd=ROOT,
                                env={**os.environ, "ARENA_VAR_DIR": str(tmp_path)}, capture_output=True, text=True,
                                timeout=60)
    assert result.returncode == 1
    assert f"port {port} on 127.0.0.1 is already in use" in result.stderr and "Traceback" not in result.stderr
