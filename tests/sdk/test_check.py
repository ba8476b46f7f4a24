"""``durak check`` on hostile and broken bots (tests/sdk/bots/): each violation is named, with its seed and step.

Every check is a real ``durak check`` subprocess that starts the bot as its own process over
gRPC under the arena's limits. The checks run side by side (one module fixture), since most of
their time is waiting: the slow bot overruns the whole clock (move limit plus bank, 11 s) and
the never-serving bot the start limit (10 s).
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bots_sdk.botdir import load_spec
from bots_sdk.cli.check_cmd import CHECK_GAMES
from bots_sdk.cli.main import main
from bots_sdk.engine import GameRecord, Reason
from bots_sdk.faults import BotFault
from bots_sdk.process import BotProcess
from bots_sdk.remote import ARENA_LIMITS, Limits

BOTS = Path(__file__).parent / "bots"
GAMES = len(CHECK_GAMES)

GAME_FAULTS: dict[str, tuple[Reason, str]] = {
    "slow": (Reason.TIMEOUT, "no answer within"),
    "crash": (Reason.CRASH, "RuntimeError: deliberate crash in choose_action"),
    "exits": (Reason.CRASH, "bot unreachable"),
    "illegal": (Reason.ILLEGAL, "does not hold"),
    "raw_kind99": (Reason.PROTOCOL, "malformed action: action.kind: 99 is not an ActionKind value"),
    "raw_empty": (Reason.PROTOCOL, "empty answer: ActResponse.action is not set"),
}
"""Bot folder -> the reason and words its first violation must show."""

ONCE = ("slow", "crash", "exits", "wrong_type")
"""Bots that fault once (a marker file in their folder): the check restarts them and plays on."""

VIOLATION = re.compile(
    r"^VIOLATION (?P<reason>[a-z_]+): (?P<detail>.*) \(preset (?P<preset>[\w-]+), (?P<players>\d) players,"
    r" seed '(?P<seed>[^']+)', seat (?P<seat>\d), trace step (?P<step>\d+);"
    r" replay: durak replay (?P<path>\S+) --trace\)$",
    re.MULTILINE,
)


@dataclasses.dataclass(frozen=True)
class CheckRun:
    status: int
    out: str
    err: str
    seconds: float

    def violations(self) -> list[re.Match[str]]:
        return list(VIOLATION.finditer(self.out))


@pytest.fixture(scope="module")
def checks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, CheckRun]:
    """``durak check`` of every test bot and of a fresh ``durak new`` scaffold, run in parallel."""
    root = tmp_path_factory.mktemp("check")
    names = [*GAME_FAULTS, "wrong_type", "never_serving"]
    for name in names:  # copies: the once-faulting bots leave marker files in their folder
        shutil.copytree(BOTS / name, root / name, ignore=shutil.ignore_patterns("__pycache__", "*.done"))
    assert main(["new", "good_bot", "--dir", str(root)]) == 0
    names.append("good_bot")
    running: dict[str, tuple[subprocess.Popen[bytes], Path, float]] = {}
    for name in names:
        log = root / f"{name}.out"
        argv = [sys.executable, "-m", "bots_sdk.cli.main", "check", str(root / name),
                "--records", str(root / "records" / name)]
        with open(log, "wb") as out, open(root / f"{name}.err", "wb") as err:
            running[name] = (subprocess.Popen(argv, cwd=root, stdout=out, stderr=err), log, time.perf_counter())
    results: dict[str, CheckRun] = {}
    deadline = time.perf_counter() + 150
    while running:  # each run's time is taken when it ends, not when the loop gets to it
        for name, (process, log, started) in list(running.items()):
            if process.poll() is None and time.perf_counter() < deadline:
                continue
            if process.poll() is None:
                process.kill()
            status = process.wait()
            results[name] = CheckRun(
                status, log.read_text(errors="replace"), (root / f"{name}.err").read_text(errors="replace"),
                time.perf_counter() - started,
            )
            del running[name]
        time.sleep(0.05)
    return results


def test_the_scaffold_of_durak_new_passes(checks: dict[str, CheckRun]) -> None:
    run = checks["good_bot"]
    assert run.status == 0, run.out + run.err
    assert "good_bot: SERVING after" in run.out
    assert "hello from 'good_bot' version '1' (bots_sdk" in run.out
    assert "good_bot: offers the Play stream: games alternate between the stream and the unary calls" in run.out
    assert f"good_bot: passed {GAMES} games with 0 violation(s)" in run.out
    assert "VIOLATION" not in run.out + run.err


@pytest.mark.parametrize("name", sorted(GAME_FAULTS))
def test_a_faulty_bot_fails_with_the_problem_seed_and_step(checks: dict[str, CheckRun], name: str) -> None:
    run = checks[name]
    reason, words = GAME_FAULTS[name]
    assert run.status == 1, run.out + run.err
    assert f"{name}: FAILED {GAMES} games" in run.out
    violations = run.violations()
    assert violations, run.out + run.err
    first = violations[0]
    assert first["reason"] == reason.value, first[0]
    assert words in first["detail"], first[0]
    assert first["seed"].startswith("check-")
    players = int(first["players"])
    check = next(c for c in CHECK_GAMES if c.seed == first["seed"] and len(c.opponents) + 1 == players)
    assert first["preset"] == check.preset
    assert int(first["seat"]) < players
    assert int(first["step"]) >= 0
    assert GameRecord.read(first["path"]).result.reason is reason


@pytest.mark.parametrize("name", ONCE)
def test_after_a_fault_the_check_restarts_the_bot_and_plays_on(checks: dict[str, CheckRun], name: str) -> None:
    """The fault comes in the first game, which is played on the Play stream: each fault over the stream."""
    run = checks[name]
    assert f"{name}: offers the Play stream" in run.out
    assert run.status == 1, run.out + run.err
    violations = run.violations()
    assert len(violations) == 1, run.out  # the bot faults once; the restarted process plays cleanly
    assert violations[0]["seed"] == CHECK_GAMES[0].seed
    assert "decisions: median" in run.out  # the other games were played and timed


@pytest.mark.parametrize("name", ["raw_empty", "raw_kind99"])
def test_a_bot_with_only_the_unary_calls_is_played_with_them(checks: dict[str, CheckRun], name: str) -> None:
    run = checks[name]
    assert f"{name}: does not offer the Play stream: every game with the unary calls" in run.out
    assert len(run.violations()) == GAMES  # every game reached the bot's (malformed) answers


def test_a_crash_shows_the_bots_own_traceback(checks: dict[str, CheckRun]) -> None:
    run = checks["crash"]
    assert "bot output before that fault:" in run.out
    assert "raise RuntimeError(\"deliberate crash in choose_action\")" in run.out


def test_a_wrong_return_type_is_reported(checks: dict[str, CheckRun]) -> None:
    run = checks["wrong_type"]
    assert run.status == 1, run.out + run.err
    (violation,) = run.violations()
    assert "choose_action returned 'attack" in violation["detail"]
    assert "not an Action" in violation["detail"]
    assert "Action.parse" in violation["detail"]  # tells the author how to build one


def test_the_timeout_is_the_move_limit_plus_the_bank(checks: dict[str, CheckRun]) -> None:
    (violation,) = checks["slow"].violations()
    limit = ARENA_LIMITS.move_s + ARENA_LIMITS.bank_s
    assert f"no answer within {limit:.1f} s" in violation["detail"]


def test_a_bot_that_never_serves_fails_the_start(checks: dict[str, CheckRun]) -> None:
    run = checks["never_serving"]
    assert run.status == 1, run.out + run.err
    assert "VIOLATION start: not SERVING within 10.0 s" in run.err
    assert run.seconds < ARENA_LIMITS.start_s + 8


def test_every_faulty_game_keeps_its_own_record(checks: dict[str, CheckRun]) -> None:
    """The illegal bot forfeits every game: each violation must point at the record of that very game."""
    violations = checks["illegal"].violations()
    assert len(violations) == GAMES
    wrong = []
    for violation in violations:
        record = GameRecord.read(violation["path"])
        step = int(violation["step"])
        if (
            record.rules.preset_name != violation["preset"] or record.rules.players != int(violation["players"])
            or record.result.offender != int(violation["seat"]) or len(record.actions) > step
        ):
            wrong.append(f"{violation['seed']} ({violation['players']} players, seat {violation['seat']})")
    paths = {v["path"] for v in violations}
    assert not wrong, f"{len(paths)} record files for {GAMES} faulty games; records of another game: {wrong}"


def test_the_check_deals_are_told_apart_by_their_seed() -> None:
    """A violation names the seed to reproduce it; two check games must not share one."""
    described = [(c.preset, len(c.opponents) + 1, c.seed) for c in CHECK_GAMES]
    assert len(set(described)) == len(described), sorted(d for d in described if described.count(d) > 1)


def test_the_start_limit_through_bot_process(tmp_path: Path) -> None:
    """The start fault with a short limit (``durak check`` has no option to shorten its 10 s)."""
    shutil.copytree(BOTS / "never_serving", tmp_path / "never_serving", ignore=shutil.ignore_patterns("__pycache__"))
    started = time.perf_counter()
    process = BotProcess(load_spec(str(tmp_path / "never_serving")), Limits(start_s=1.0))
    try:
        with pytest.raises(BotFault) as fault:
            process.wait_serving()
        assert process.alive()
    finally:
        process.stop()
    assert fault.value.reason is Reason.TIMEOUT
    assert "not SERVING within 1.0 s" in fault.value.detail
    assert time.perf_counter() - started < 6
    assert not process.alive()
