"""Only the seat on move runs (worker/referee/turns.py), and it wakes once per call: ``OnMove`` writes each request
to the frozen seat and thaws it only then, through ``RemoteBot.on_sent``.

Played with the real ``OnMove`` against a served bot in a process of its own, paused with ``SIGSTOP`` (what the
sandbox does where there is no cgroup freezer): no sandbox needed, so the order is checked on any host.
"""

from __future__ import annotations

import fcntl
import os
import signal
import struct
import termios
import time
from pathlib import Path

import pytest

from bots_sdk.botdir import load_spec
from bots_sdk.bots import RandomBot
from bots_sdk.engine import Reason, Rules
from bots_sdk.local import play_game
from bots_sdk.process import BotProcess
from bots_sdk.remote import Limits, RemoteBot, _GameStream
from worker.referee.turns import OnMove


class Stopped:
    """A launched bot paused with ``SIGSTOP``; each thaw records the bytes of the request the bot had not read yet
    (``TIOCOUTQ`` of the referee's socket; -1 for a unary call on grpcio's channel, woken just before it)."""

    def __init__(self, process: BotProcess) -> None:
        self.process = process
        self.freezes = 0
        self.unread: list[int] = []
        self._stream: _GameStream | None = None

    @property
    def bot(self) -> RemoteBot:
        return self.process.bot

    def freeze(self) -> None:
        """Stop the bot, and wait until it is (a signal is delivered when the process next runs)."""
        self.freezes += 1
        os.kill(self.process.popen.pid, signal.SIGSTOP)
        while Path(f"/proc/{self.process.popen.pid}/stat").read_text().rpartition(")")[2].split()[0] != "T":
            time.sleep(0.0005)

    def thaw(self) -> None:
        self._stream = self.bot._stream or self._stream  # end_game has taken the game's stream off the bot
        if self.bot.stream:
            assert self._stream is not None
            queued = fcntl.ioctl(self._stream._call._sock.fileno(), termios.TIOCOUTQ, struct.pack("i", 0))
            self.unread.append(struct.unpack("i", queued)[0])
        else:
            self.unread.append(-1)
        os.kill(self.process.popen.pid, signal.SIGCONT)

    def kill(self) -> None:
        self.process.stop()

    def log_tail(self, lines: int = 20) -> str:
        return self.process.log_tail(lines)


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "unary"])
def test_a_frozen_seat_is_thawed_once_its_request_is_written(stream: bool) -> None:
    """On the stream every thaw finds the whole request unread in the socket, so the bot wakes once, to work; over
    the unary calls it is thawed just before each call. Either way every call is answered in time (a game of
    normal end) and the seat is thawed once per call and frozen again after it."""
    with BotProcess(load_spec("random"), Limits(move_s=2.0, bank_s=0.0, call_s=2.0)) as process:
        process.wait_serving()
        process.bot.hello()
        process.bot.stream = stream
        launched = Stopped(process)
        played = play_game(Rules.preset("classic"), [OnMove(launched), RandomBot(3)], seed=11)
        os.kill(process.popen.pid, signal.SIGCONT)
    assert played.game.outcome is not None and played.game.outcome.reason is Reason.NORMAL, played.game.outcome
    calls = launched.freezes - 1  # OnMove freezes the seat once as it takes it, then after every call
    assert calls > 2 and len(launched.unread) == calls
    if stream:
        assert min(launched.unread) > 5, launched.unread  # more than a message's five-byte prefix: a whole request
    else:
        assert set(launched.unread) == {-1}
