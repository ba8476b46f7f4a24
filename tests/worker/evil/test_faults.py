"""Bots that break the contract: the referee must forfeit them for the right reason, on time, and clean up.

Every match is ``(evil, random)``, one deal in both seatings, so the evil bot
faults twice: the referee kills it after each timeout, crash or protocol fault
and starts it afresh for the next game. Research note 2.8, 4.5, 4.6 rows 18-23.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.worker.evil.arena import EVIL, evil_bot, play
from worker.referee.launch import Launcher

SLACK_S = 0.5
"""What the referee may take beyond a deadline before it has decided."""
KILL_SLACK_S = 1.0
"""What a faulted bot may keep running beyond its deadline before it is dead."""


@pytest.mark.parametrize("attack", ["spin", "sleep"])
def test_hung_move_times_out_and_is_killed(arena: Launcher, tmp_path: Path, attack: str) -> None:
    """Attack: ``choose_action`` never returns (``spin``: a CPU loop; ``sleep``: blocked). Must happen: a
    timeout forfeit in both games; the referee's decision returns within move_s + bank_s + 0.5 s; the bot is
    killed within its deadline + 1 s (it must not keep burning CPU while the referee goes on); nothing left."""
    hang = "while True:\n                    pass" if attack == "spin" else "time.sleep(1000)"
    folder = evil_bot(tmp_path, attack, body=f"""
        class Hung(RandomBot):
            def choose_action(self, observation):
                {hang}
    """, bot="Hung()")
    move_s, bank_s = 0.5, 0.2
    played = play(arena, folder, move_s=move_s, bank_s=bank_s)
    assert played.evil_offended("timeout"), played.describe()
    launches = played.launches
    assert len(launches) == 2, "not one start per seat rotation"
    for launch in launches:
        decision = launch.decisions[-1]
        assert decision.fault is not None and decision.fault.reason == "timeout"
        assert decision.elapsed <= move_s + bank_s + SLACK_S, f"the referee waited {decision.elapsed:.2f} s"
        assert launch.kill_started is not None and launch.kill_s is not None
        dead_after = launch.kill_started + launch.kill_s - decision.started
        assert dead_after <= move_s + bank_s + KILL_SLACK_S, (
            f"the hung bot was killed {dead_after:.2f} s after its move began (deadline {move_s + bank_s:.1f} s)")


HANG_AT_START = {
    "never_binds": "time.sleep(1000)",
    "binds_no_grpc": """
        import socket
        time.sleep(1.0)  # most of start_s goes by before the socket appears
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(os.environ['DURAK_BOT_ADDRESS'])
        listener.listen(8)
        time.sleep(1000)
    """,
    "never_serving": """
        from bots_sdk.bots import RandomBot
        from bots_sdk.server import BotServer
        time.sleep(1.0)
        server = BotServer(RandomBot(), os.environ['DURAK_BOT_ADDRESS'])
        server.server.start()  # listening and answering, but health never says SERVING
        time.sleep(1000)
    """,
}


@pytest.mark.parametrize("attack", list(HANG_AT_START))
def test_hang_at_start_is_a_start_timeout(arena: Launcher, tmp_path: Path, attack: str) -> None:
    """Attack: never become SERVING: never bind the socket, bind it but never speak gRPC, or serve gRPC with
    health NOT_SERVING; the last two only after 1 s, so the socket wait and the SERVING wait together exceed
    start_s if each gets a fresh budget. Must happen: a timeout forfeit in both games, each start given up
    within start_s (+0.5 s) of the launch (``Limits.start_s``: from process start to SERVING); nothing left."""
    start_s = 1.5
    folder = evil_bot(tmp_path, attack, prelude=HANG_AT_START[attack])
    played = play(arena, folder, start_s=start_s)
    assert played.evil_offended("timeout"), played.describe()
    assert len(played.launches) == 2
    for launch in played.launches:
        if launch.start_fault is not None:  # the launcher itself gave up (no socket)
            given_up = launch.launch_s
        else:  # the launcher returned; the referee gave up waiting for SERVING, then killed it
            assert launch.kill_started is not None
            given_up = launch.kill_started - launch.started
        assert given_up <= start_s + SLACK_S, f"the start was given up after {given_up:.2f} s (start_s {start_s})"


def test_slow_start_within_budget_plays(arena: Launcher, tmp_path: Path) -> None:
    """Attack (benign): take 1.2 s to start, under a 3 s start budget. Must happen: both games play normally;
    start time is not move time (the second rotation's start, ahead of its game, neither)."""
    folder = evil_bot(tmp_path, "slow", prelude="time.sleep(1.2)")
    played = play(arena, folder, start_s=3.0, move_s=0.5)
    assert played.normal, played.describe()
    assert len(played.launches) == 2 and all(launch.launch_s >= 1.0 for launch in played.launches)


CRASH_AT_START = {
    "exit": "sys.exit(3)",
    "exception": "raise RuntimeError('boom at import')",
    "syntax_error": "def (:",
    "sigkill_self": "import signal; os.kill(os.getpid(), signal.SIGKILL)",
    "exit_zero": "os._exit(0)",
}


@pytest.mark.parametrize("attack", list(CRASH_AT_START))
def test_crash_on_start_is_a_crash(arena: Launcher, tmp_path: Path, attack: str) -> None:
    """Attack: exit before serving (an exit code, an exception or a syntax error at import, SIGKILL, a clean
    exit). Must happen: a crash forfeit in both games, noticed at once (well under start_s = 3 s); nothing
    left."""
    folder = evil_bot(tmp_path, attack, prelude=CRASH_AT_START[attack])
    played = play(arena, folder, start_s=3.0)
    assert played.evil_offended("crash"), played.describe()
    for launch in played.launches:
        assert launch.start_fault is not None and launch.launch_s < 1.5, (launch.start_fault, launch.launch_s)


CRASH_MID_GAME = {
    "os_exit": "os._exit(1)",
    "sigkill_self": "import signal; os.kill(os.getpid(), signal.SIGKILL)",
    "abort": "os.abort()",
    "exception": "raise ValueError('bug on move 3')",
    "system_exit": "sys.exit(0)",
}


@pytest.mark.parametrize("attack", list(CRASH_MID_GAME))
def test_crash_mid_game_is_a_crash(arena: Launcher, tmp_path: Path, attack: str) -> None:
    """Attack: die (or raise) on the third move: ``os._exit``, SIGKILL itself, abort, an exception, SystemExit
    in the handler. Must happen: a crash forfeit by the evil bot in every game (two deals, both seatings),
    decided within the move deadline; the bot is started afresh for the next game of its rotation; nothing
    left."""
    folder = evil_bot(tmp_path, attack, body=f"""
        class Crasher(RandomBot):
            moves = 0
            def choose_action(self, observation):
                self.moves += 1
                if self.moves == 3:
                    {CRASH_MID_GAME[attack]}
                return super().choose_action(observation)
    """, bot="Crasher()")
    played = play(arena, folder, move_s=1.0, deals=2)
    assert played.evil_offended("crash"), played.describe()
    assert len(played.launches) == 4  # one per game: two per rotation, the second a restart after the crash
    for launch in played.launches:
        assert len(launch.decisions) == 3 and launch.decisions[-1].fault is not None
        assert launch.decisions[-1].elapsed < 1.0 + SLACK_S


def test_killing_the_sandbox_init_is_ignored(arena: Launcher, tmp_path: Path) -> None:
    """Attack: SIGKILL (and SIGTERM) pid 1, the sandbox's init (bwrap's reaper), on the third move, hoping to take
    the sandbox down or orphan itself. Must happen: the kernel ignores signals to a pid namespace's init from
    inside it; the bot plays on and both games end normally; nothing left."""
    folder = evil_bot(tmp_path, "killinit", probes=True, body="""
        import signal
        class KillInit(RandomBot):
            moves = 0
            def choose_action(self, observation):
                self.moves += 1
                if self.moves == 3:
                    attempt('sigterm', lambda: os.kill(1, signal.SIGTERM))
                    attempt('sigkill', lambda: os.kill(1, signal.SIGKILL))
                    attempt('pid1_alive', lambda: os.kill(1, 0))
                    report()
                return super().choose_action(observation)
    """, bot="KillInit()")
    played = play(arena, folder)
    assert played.probe() == {"sigterm": "ok", "sigkill": "ok", "pid1_alive": "ok"}
    assert played.normal, played.describe()


GARBAGE = {
    "string": "return 'attack 6S'",
    "none": "return None",
    "number": "return 42",
    "observation": "return observation",
}


@pytest.mark.parametrize("attack", list(GARBAGE))
def test_garbage_answer_is_a_protocol_fault(arena: Launcher, tmp_path: Path, attack: str) -> None:
    """Attack: ``choose_action`` returns something that is not an ``Action`` (text, None, a number, the
    observation). Must happen: a protocol forfeit in both games (the SDK refuses with FAILED_PRECONDITION)."""
    folder = evil_bot(tmp_path, attack, body=f"""
        class Garbage(RandomBot):
            def choose_action(self, observation):
                {GARBAGE[attack]}
    """, bot="Garbage()")
    played = play(arena, folder)
    assert played.evil_offended("protocol"), played.describe()


RAW_ANSWERS = {
    "empty": "pb.ActResponse()",
    "unknown_kind": "pb.ActResponse(action=pb.Action(kind=99))",
    "attack_without_card": "pb.ActResponse(action=pb.Action(kind=1))",
    "unparsable_text": "pb.ActResponse(action=pb.Action(text='win the game please'))",
    "oversized": "pb.ActResponse(action=pb.Action(text='x' * (8 << 20)))",
}


@pytest.mark.parametrize("attack", list(RAW_ANSWERS))
def test_malformed_wire_answer_is_a_protocol_fault(arena: Launcher, tmp_path: Path, attack: str) -> None:
    """Attack: bypass the SDK's checks and answer Act with a malformed message (no action, an unknown kind, an
    attack without a card, unparsable text, an 8 MiB answer over gRPC's 4 MiB limit). Must happen: a protocol
    forfeit in both games; the referee does not crash."""
    folder = evil_bot(tmp_path, attack, body=f"""
        from bots_sdk import server
        from bots_sdk._proto.durak.v1 import bot_pb2 as pb
        server.BotServicer.Act = lambda self, request, context: {RAW_ANSWERS[attack]}
    """)
    played = play(arena, folder)
    assert played.evil_offended("protocol"), played.describe()


def test_illegal_action_is_an_illegal_forfeit(arena: Launcher, tmp_path: Path) -> None:
    """Attack: answer with a well-formed action the rules forbid (one not among the legal actions). Must
    happen: an illegal forfeit by the evil bot in both games; the bot is not restarted (not a process fault):
    one start per seat rotation."""
    folder = evil_bot(tmp_path, "illegal", body="""
        from bots_sdk import Action
        class Cheat(RandomBot):
            def choose_action(self, observation):
                for text in ('take', 'pass', 'attack 6S', 'attack AH', 'transfer 9C'):
                    action = Action.parse(text)
                    if action not in observation.legal_actions:
                        return action
                raise AssertionError('every candidate was legal')
    """, bot="Cheat()")
    played = play(arena, folder)
    assert played.evil_offended("illegal"), played.describe()
    assert len(played.launches) == 2


@pytest.mark.parametrize("then", ["exit", "serve_on"])
def test_socket_swap_mid_match(arena: Launcher, tmp_path: Path, then: str) -> None:
    """Attack: on its second move the bot replaces its socket with a symlink to a host unix socket (which the
    referee, resolving the path on the host, could be lured into), then either exits (so the referee's next
    RPC has to reconnect) or serves on from the renamed socket. Must happen: the referee never connects to the
    host socket (its listener sees nothing): the next RPC fails (crash forfeit) or the open connection carries
    on (normal play); nothing left."""
    host_path = tmp_path / "host.sock"
    host = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    host.bind(str(host_path))
    host.listen(8)
    host.setblocking(False)
    after = "os._exit(1)" if then == "exit" else "pass"
    folder = evil_bot(tmp_path, f"swap-{then}", body=f"""
        class Swapper(RandomBot):
            moves = 0
            def choose_action(self, observation):
                self.moves += 1
                if self.moves == 2:
                    os.rename('/run/bot/bot.sock', '/run/bot/moved.sock')
                    os.symlink({str(host_path)!r}, '/run/bot/bot.sock')
                    {after}
                return super().choose_action(observation)
    """, bot="Swapper()")
    try:
        played = play(arena, folder)
        with pytest.raises(BlockingIOError):
            host.accept()  # the referee never followed the symlink
    finally:
        host.close()
    if then == "exit":
        assert played.evil_offended("crash"), played.describe()
    else:
        assert played.normal, played.describe()
    assert all(r.offender is None or r.seats[r.offender] == EVIL for r in played.results), played.describe()
