"""The host-side directory of one seat: a snapshot of the bot's code, the socket dir and the log.

``<state>/seat-<slot>/``, root-owned, group = the slot's gid, mode 0750, so only
that slot uid (and root) can even traverse it on the host:

* ``src/``: a copy of the bot folder (regular files and directories only;
  symlinks, devices and fifos are dropped), root-owned and read-only for the
  bot. Copying rather than binding the author's folder means the bot sees a
  fixed snapshot, cannot follow a planted symlink, and the source path may sit
  where a slot uid could not reach it (pytest's tmp dirs are 0700 under /tmp).
* ``run/``: the socket dir, the one host path the bot can write (pitfall 6),
  owned by the slot uid, mode 0700; bound at ``/run/bot``.
* ``bot.log``: stdout and stderr, opened by the worker (root, 0600), so the bot
  writes it only through its inherited fd, capped by RLIMIT_FSIZE.

The whole seat dir is deleted by the kill sequence.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import stat
from pathlib import Path

from worker.sandbox.base import SocketSwapped

SOCKET_NAME = "bot.sock"


def copy_tree(source: Path, target: Path) -> list[str]:
    """Copy regular files and directories of ``source`` into ``target`` (made, or kept: a pooled sandbox has it
    bound already, warm.py); returns what was skipped."""
    skipped = []
    target.mkdir(mode=0o755, exist_ok=True)
    for root, dirs, files in os.walk(source, followlinks=False):
        relative = Path(root).relative_to(source)
        for name in list(dirs):
            path = Path(root) / name
            if path.is_symlink():
                dirs.remove(name)
                skipped.append(str(relative / name))
            else:
                (target / relative / name).mkdir(mode=0o755)
        for name in files:
            path = Path(root) / name
            info = path.lstat()
            if not stat.S_ISREG(info.st_mode):
                skipped.append(str(relative / name))
                continue
            destination = target / relative / name
            shutil.copyfile(path, destination, follow_symlinks=False)
            destination.chmod(0o755 if info.st_mode & 0o111 else 0o644)
    return skipped


RUN_DIR_BYTES = 1024 * 1024
"""The socket dir holds a socket and nothing more: 1 MiB is room enough."""
_LIBC = ctypes.CDLL(None, use_errno=True)
MS_NOSUID, MS_NODEV, MS_NOEXEC = 2, 4, 8
MNT_DETACH = 2


def mount_tmpfs(target: Path, size: int) -> None:
    """Mount a ``size``-byte tmpfs (nosuid, nodev, noexec, mode 0711) at ``target``.

    The system calls rather than mount(8) and umount(8): two processes fewer per bot start, about 5 ms of CPU
    and 8 ms of the referee's wall time at each start (measured here)."""
    options = f"size={size},mode=0711".encode()
    if _LIBC.mount(b"durak-seat", os.fsencode(target), b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, options) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"mount tmpfs: {os.strerror(error)}", str(target))


def unmount_lazily(target: Path) -> None:
    """Detach the mount at ``target`` (``umount -l``): gone from the tree now, freed once nothing uses it."""
    _LIBC.umount2(os.fsencode(target), MNT_DETACH)


class SeatDir:
    """The seat directory of ``slot`` for a bot running as ``uid`` (when ``uid`` is ours: no chown)."""

    def __init__(self, state_dir: Path, slot: int, uid: int) -> None:
        self.path = state_dir / f"seat-{slot}"
        self.src = self.path / "src"
        self.mount = self.path / "run"
        """A small tmpfs of its own (as root): a bot cannot fill the worker's disk through its socket dir."""
        self.run = self.mount / "bot"
        """The bot's socket dir, bound at /run/bot; the bot owns it."""
        self.log = self.path / "bot.log"
        self.socket = str(self.run / SOCKET_NAME)
        self.referee_socket = str(self.mount / "referee.sock")
        """A hard link to the checked socket, in a dir the bot cannot write: the referee connects here, so a
        bot that swaps /run/bot/bot.sock for a link to a host socket never redirects the referee."""
        self.uid = uid
        self.skipped: list[str] = []

    def create(self, folder: Path | None) -> SeatDir:
        state_dir = self.path.parent
        state_dir.mkdir(parents=True, exist_ok=True)
        foreign = self.uid != os.getuid()
        if foreign:
            os.chmod(state_dir, 0o711)  # slot uids may traverse, not list
        if self.path.exists():  # left by a crashed worker
            self.remove()
        self.path.mkdir(mode=0o750)
        self.mount.mkdir(mode=0o711)
        if foreign:
            mount_tmpfs(self.mount, RUN_DIR_BYTES)
        self.run.mkdir(mode=0o700)
        if foreign:
            os.chown(self.path, 0, self.uid)
            os.chown(self.run, self.uid, self.uid)
        self.log.touch(mode=0o600)
        if folder is not None:
            self.fill(folder)
        return self

    def fill(self, folder: Path) -> None:
        """Copy the bot's ``folder`` into ``src`` (see ``copy_tree``)."""
        self.skipped = copy_tree(folder, self.src)

    def link_socket(self, checked: os.stat_result) -> str:
        """Hard-link the socket that was ``checked`` (its ``lstat``) for the referee; returns the path to connect to.

        The bot may replace its socket between the check and the link (a symlink to a host socket, a file):
        the link is made of the path itself, never followed, and must be the very inode that was checked, or
        it is removed again and ``SocketSwapped`` raised."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.referee_socket)
        try:
            os.link(self.socket, self.referee_socket, follow_symlinks=False)
        except FileNotFoundError:
            raise SocketSwapped(self.socket, "gone between the check and the link") from None
        linked = os.lstat(self.referee_socket)
        if (linked.st_dev, linked.st_ino) != (checked.st_dev, checked.st_ino) or not stat.S_ISSOCK(linked.st_mode):
            os.unlink(self.referee_socket)
            raise SocketSwapped(self.socket, "replaced between the check and the link")
        return self.referee_socket

    def remove(self) -> None:
        if os.path.ismount(self.mount):
            unmount_lazily(self.mount)
        with contextlib.suppress(FileNotFoundError):
            shutil.rmtree(self.path)
