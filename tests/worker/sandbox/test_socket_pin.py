"""The referee links the very socket it checked: a bot that swaps its socket between the check and the link
(a symlink to a host socket, another socket, a plain file) gets no link at all, and ``SocketSwapped``."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from worker.sandbox.base import SocketSwapped, check_socket_path
from worker.sandbox.layout import SeatDir


def bound(path: Path | str) -> socket.socket:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(1)
    return listener


@pytest.fixture
def seat(tmp_path: Path) -> Iterator[SeatDir]:
    """A seat dir of our own uid (no slot uid, no tmpfs) with the bot's socket bound in it."""
    seat = SeatDir(tmp_path / "state", 0, os.getuid()).create(None)
    bot = bound(seat.socket)
    yield seat
    bot.close()
    seat.remove()


def test_the_checked_socket_is_linked(seat: SeatDir) -> None:
    checked = check_socket_path(seat.socket)
    linked = os.lstat(seat.link_socket(checked))
    assert (linked.st_dev, linked.st_ino) == (checked.st_dev, checked.st_ino)


def symlink_to_host(seat: SeatDir, tmp_path: Path) -> socket.socket:
    host = bound(tmp_path / "host.sock")
    os.rename(seat.socket, seat.socket + ".moved")
    os.symlink(tmp_path / "host.sock", seat.socket)
    return host


def another_socket(seat: SeatDir, tmp_path: Path) -> socket.socket:
    os.rename(seat.socket, seat.socket + ".moved")
    return bound(seat.socket)


def plain_file(seat: SeatDir, tmp_path: Path) -> None:
    os.unlink(seat.socket)
    Path(seat.socket).write_text("not a socket")


@pytest.mark.parametrize("swap", [symlink_to_host, another_socket, plain_file])
def test_a_socket_swapped_after_the_check_is_not_linked(
    seat: SeatDir, tmp_path: Path, swap: Callable[[SeatDir, Path], socket.socket | None]
) -> None:
    """Attack: between the referee's ``lstat`` and its ``link``, replace the socket (the race a bot flipping
    its socket path in a loop hopes to win). Must happen: ``SocketSwapped``, and no referee link is left."""
    checked = check_socket_path(seat.socket)
    other = swap(seat, tmp_path)
    try:
        with pytest.raises(SocketSwapped, match="replaced between the check and the link"):
            seat.link_socket(checked)
        assert not os.path.lexists(seat.referee_socket)
    finally:
        if other is not None:
            other.close()


def test_a_socket_gone_after_the_check_is_swapped(seat: SeatDir) -> None:
    checked = check_socket_path(seat.socket)
    os.unlink(seat.socket)
    with pytest.raises(SocketSwapped, match="gone"):
        seat.link_socket(checked)
