"""What keeping idle seats frozen costs the referee: one thaw before and one freeze after every call to a bot.

    .venv/bin/python tests/bench/freeze_cost.py [--pairs N] [--deals D] [--smoke]

Must run as root with the bwrap sandbox (cgroup freezer v1 or v2). Rows:

- ``idle bot``: thaw+freeze of a served bot waiting for its next request (the case of every decision), on its
  sandbox handle, ``--pairs`` times: mean, median and 99th percentile in microseconds, of wall time and of
  the referee's CPU time;
- ``spinning bot``: the same for a bot whose two processes spin all the time (the freeze has to stop
  running tasks, maybe throttled by the cpu quota);
- ``until FROZEN``: after a freeze, how long until the kernel reports every task parked (the referee does not
  wait for it: see worker/sandbox/cgroups.py), by polling the state;
- ``match``: ``gentle`` against ``gentle`` through the referee (``play_spec``): the time spent in thaw and
  freeze per decision, all calls counted (start and end of game included).

Target: at most 0.1 ms of freeze+thaw per decision. On cgroup v1 the cost depends on a frozen group existing
somewhere (the ``frozen-anchor`` of worker/sandbox/cgroups.py); without one, each freeze and thaw patches the
kernel (0.4 to 1 ms per pair measured on the CI host before the anchor existed).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

from bots_sdk.botdir import BotSpec, load_spec
from bots_sdk.remote import ARENA_LIMITS, Limits, RemoteBot
from worker.referee.launch import LaunchedBot, Launcher, launcher_for
from worker.referee.match import MatchSpec, play_spec
from worker.sandbox import make_sandbox
from worker.sandbox.base import ServedBot
from worker.sandbox.handle import LaunchedBot as SandboxHandle

SPINNER = textwrap.dedent("""\
    import os
    for _ in range(2):
        if os.fork() == 0:
            while True:
                pass
    from bots_sdk import serve
    from bots_sdk.bots import RandomBot
    serve(RandomBot())
""")


def pairs_us(handle: SandboxHandle, pairs: int) -> tuple[list[float], list[float], list[float]]:
    """Microseconds of each thaw+freeze pair on ``handle``, in wall time (a thawed busy bot competes with the
    referee for the CPU) and in the referee's CPU time, and from each freeze until its state says FROZEN."""
    cgroup = handle.cgroup
    assert cgroup is not None, "no cgroup freezer here"
    handle.freeze()
    took, cpu, parked = [], [], []
    for _ in range(pairs):
        began, began_cpu = time.perf_counter(), time.thread_time()
        handle.thaw()
        handle.freeze()
        frozen = time.perf_counter()
        took.append((frozen - began) * 1e6)
        cpu.append((time.thread_time() - began_cpu) * 1e6)
        while not cgroup.is_frozen():
            pass
        parked.append((time.perf_counter() - frozen) * 1e6)
    return took, cpu, parked


def on_bot(spec: BotSpec, pairs: int) -> tuple[list[float], list[float], list[float]]:
    """``pairs_us`` on a started, serving ``spec``."""
    served = make_sandbox("bwrap").launch(spec, ARENA_LIMITS)
    try:
        served.bot.wait_serving()
        assert isinstance(served.handle, SandboxHandle)
        return pairs_us(served.handle, pairs)
    finally:
        served.kill()


class Timed:
    """A launched bot whose freeze and thaw are timed (into ``seconds``)."""

    def __init__(self, launched: ServedBot, seconds: list[float]) -> None:
        self._launched = launched
        self._seconds = seconds

    @property
    def bot(self) -> RemoteBot:
        return self._launched.bot

    def kill(self) -> None:
        self._launched.kill()

    def log_tail(self, lines: int = 20) -> str:
        return self._launched.log_tail(lines)

    def freeze(self) -> None:
        began = time.perf_counter()
        self._launched.freeze()
        self._seconds.append(time.perf_counter() - began)

    def thaw(self) -> None:
        began = time.perf_counter()
        self._launched.thaw()
        self._seconds.append(time.perf_counter() - began)


def match(deals: int, seconds: list[float]) -> int:
    """Decisions of a ``gentle`` x2 match; the seconds of each freeze and thaw go to ``seconds``."""
    base = launcher_for("bwrap")

    def launcher(spec: BotSpec, limits: Limits) -> LaunchedBot:
        launched = base(spec, limits)
        assert isinstance(launched, ServedBot)
        return Timed(launched, seconds)

    timed: Launcher = launcher
    results = play_spec(MatchSpec(("gentle", "gentle"), deals=deals, seed="freeze"), timed)
    return sum(len(r.record["actions"]) for r in results)


def summary(values: list[float]) -> str:
    """Mean / median / 99th percentile."""
    ordered = sorted(values)
    median, p99 = ordered[len(ordered) // 2], ordered[int(len(ordered) * 0.99)]
    return f"{statistics.fmean(ordered):.1f} / {median:.1f} / {p99:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=3000, help="thaw+freeze pairs per bot")
    parser.add_argument("--deals", type=int, default=4, help="deals per match (both seatings)")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: 200 pairs, one deal")
    args = parser.parse_args()
    pairs, deals = (200, 1) if args.smoke else (args.pairs, args.deals)
    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="durak-freeze-bench-") as folder:
        Path(folder, "bot.toml").write_text('name = "spinner"\nlanguage = "python"\nentry = "bot.py"\n')
        Path(folder, "bot.py").write_text(SPINNER)
        bots: list[tuple[str, Callable[[], BotSpec]]] = [
            ("idle bot", lambda: load_spec("random")), ("spinning bot", lambda: load_spec(folder))]
        for name, spec in bots:
            took, cpu, parked = on_bot(spec(), pairs)
            rows.append((f"{name}: thaw+freeze, wall (us)", summary(took)))
            rows.append((f"{name}: thaw+freeze, referee CPU (us)", summary(cpu)))
            rows.append((f"{name}: until FROZEN (us)", summary(parked)))
    seconds: list[float] = []
    decisions = match(deals, seconds)
    per_decision_us = sum(seconds) / decisions * 1e6
    rows.append((f"match: thaw+freeze per decision (us, {decisions} decisions)", f"{per_decision_us:.1f}"))
    width = max(len(name) for name, _ in rows)
    print(f"{'':<{width}}  {'mean / median / p99':>24}")
    for name, value in rows:
        print(f"{name:<{width}}  {value:>24}")
    target_met = per_decision_us <= 100
    print(f"target (<= 100 us of thaw+freeze per decision): {'met' if target_met else 'NOT met'}")


if __name__ == "__main__":
    main()
