"""Only the seat on move runs: a bot that spins while its opponent thinks gets no CPU for it, and a bot never
gets more than one CPU. Played through the referee and the worker's bwrap launcher."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from bots_sdk.botdir import BotSpec
from bots_sdk.engine import Action, Observation
from bots_sdk.remote import Limits
from tests.worker.evil.arena import evil_bot, wait_until
from worker.referee.launch import LaunchedBot, Launcher
from worker.referee.match import MatchSpec, play_spec
from worker.sandbox.base import ServedBot
from worker.sandbox.cgroups import SandboxCgroup
from worker.sandbox.handle import LaunchedBot as SandboxHandle

SPINNER = """
    for _ in range(2):  # two spinning processes: the bot asks for two CPUs, all the time
        if os.fork() == 0:
            while True:
                pass
    class Spinner(RandomBot):
        def choose_action(self, observation):
            time.sleep(0.01)  # its own turn: the spinners run
            return super().choose_action(observation)
"""
THINKER = """
    class Thinker(RandomBot):
        def choose_action(self, observation):
            end = time.perf_counter() + 0.02
            while time.perf_counter() < end:
                pass
            return super().choose_action(observation)
"""


@dataclasses.dataclass
class Turns:
    """CPU the spinner's sandbox used, and wall time, summed over its own turns and over the thinker's."""

    own_cpu_s: float = 0.0
    own_wall_s: float = 0.0
    others_cpu_s: float = 0.0
    others_wall_s: float = 0.0
    others: int = 0


class CpuWatch:
    """A launcher that reads the spinner's cgroup CPU time before and after every decision of either bot (from
    inside the referee's thaw and freeze, so a decision's window is exactly the time its bot runs).

    The kernel charges a running task's CPU lazily (at its next tick, 4 ms here, or when it is switched out), so
    what the spinner ran just before the freeze after its decision may be charged only once it parks, and on a
    loaded machine that can come after the thinker's window opened. So the thinker's window opens once the
    spinner's cgroup reports frozen (every task parked, its time charged), and the time from the end of the
    spinner's decision to there counts as the rest of that turn: every CPU second of a decision of the spinner
    is in its own turns, and what the thinker's turns hold was run while the spinner was frozen."""

    def __init__(self, launcher: Launcher) -> None:
        self.launcher = launcher
        self.spinner: SandboxCgroup | None = None
        self.turns = Turns()
        self._turn_ended: tuple[int, float] | None = None
        """The spinner's CPU and the wall clock at the end of its last decision, until the freeze has landed."""

    def _frozen(self, spinner: SandboxCgroup) -> None:
        """Wait (off every clock: the thinker's starts when it is asked) until the spinner's freeze has landed,
        and charge what its last decision ran until then to its own turns. A freeze that never lands gives up
        after a second, and the thinker's window then holds the spinner's running."""
        wait_until(spinner.is_frozen, 1.0, poll_s=0.001)
        if self._turn_ended is not None:
            cpu, wall = self._turn_ended
            self.turns.own_cpu_s += (spinner.cpu_ns() - cpu) / 1e9
            self.turns.own_wall_s += time.perf_counter() - wall
            self._turn_ended = None

    def __call__(self, spec: BotSpec, limits: Limits) -> LaunchedBot:
        launched = self.launcher(spec, limits)
        assert isinstance(launched, ServedBot) and isinstance(launched.handle, SandboxHandle)
        own = spec.name == "spinner"
        if own:
            self.spinner = launched.handle.cgroup
        choose = launched.bot.choose_action

        def watched(observation: Observation) -> Action:
            assert self.spinner is not None
            if not own:
                self._frozen(self.spinner)
            cpu, wall = self.spinner.cpu_ns(), time.perf_counter()
            try:
                return choose(observation)
            finally:
                end_cpu, end_wall = self.spinner.cpu_ns(), time.perf_counter()
                cpu_s, wall_s = (end_cpu - cpu) / 1e9, end_wall - wall
                if own:
                    self.turns.own_cpu_s += cpu_s
                    self.turns.own_wall_s += wall_s
                    self._turn_ended = end_cpu, end_wall
                else:
                    self.turns.others_cpu_s += cpu_s
                    self.turns.others_wall_s += wall_s
                    self.turns.others += 1

        setattr(launched.bot, "choose_action", watched)  # noqa: B010  (an instance attribute over the method)
        return launched


def test_a_spinning_bot_takes_no_cpu_on_its_opponents_turns(arena: Launcher, tmp_path: Path) -> None:
    """Attack: two processes of the bot spin all the time, while the opponent computes
    20 ms per decision. Must happen: during the opponent's decisions the spinner's cgroup uses (almost) no
    CPU; during its own turns it spins, but on one CPU at most (the cpu quota), though it asks for two."""
    spinner = evil_bot(tmp_path, "spinner", body=SPINNER, bot="Spinner()")
    thinker = evil_bot(tmp_path, "thinker", body=THINKER, bot="Thinker()")
    watch = CpuWatch(arena)
    spec = MatchSpec((spinner, thinker), deals=1, seed="spin", duplicate=False, move_s=1.0, bank_s=5.0, start_s=5.0)
    results = play_spec(spec, watch)
    assert all(r.reason == "normal" for r in results), [(r.reason, r.detail) for r in results]
    turns = watch.turns
    assert watch.spinner is not None and watch.spinner.has_cpu and watch.spinner.has_freezer, turns
    assert turns.others >= 10, turns
    # frozen: a few milliseconds at most over all the opponent's decisions
    assert turns.others_cpu_s <= 0.005 + 0.01 * turns.others_wall_s, turns
    # thawed, it does spin (it is not merely idle), on one CPU at most: the quota holds two spinners to one
    assert turns.own_cpu_s >= 0.1 * turns.own_wall_s, turns
    # The quota is enforced per 10 ms period, so a turn's window (its turns alternate with the opponent's, one
    # more at most) may hold one period of a second spinner's time before the throttle lands.
    assert turns.own_cpu_s <= turns.own_wall_s + 0.01 * (turns.others + 1), turns
