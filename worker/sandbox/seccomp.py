"""The seccomp deny-list of docs/sandbox.md section 5, compiled to raw BPF on the host for ``bwrap --seccomp FD``.

Built with ctypes straight over the system ``libseccomp.so.2`` (Debian package
``libseccomp2``, present on every Debian 12 install) rather than ``pyseccomp``:
the four calls needed are stable C API, and this keeps the worker free of one
more dependency. The filter is a second layer under the namespaces, default
ALLOW: an allowlist would break CPython/numpy bots in subtle ways. Refused calls
get an errno (never a kill) so libraries that probe for a feature fall back;
a non-native ABI (i386 ``int 0x80``, x32) hits libseccomp's bad-arch action,
which kills. Nothing runs inside the sandbox to install it: bwrap loads it.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import os
import socket
import tempfile

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_CMP_NE = 1
SCMP_CMP_MASKED_EQ = 7


def scmp_act_errno(code: int) -> int:
    return 0x00050000 | (code & 0xFFFF)


class _ArgCmp(ctypes.Structure):
    _fields_ = [
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    ]


DENIED_ENOSYS = (
    # other processes' memory and kernel object comparison
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    # keyrings are not namespaced: a channel between sandboxes
    "keyctl", "add_key", "request_key",
    # kernel attack surface used by most container escapes
    "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    # mounts and namespaces
    "mount", "umount2", "fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree",
    "mount_setattr", "pivot_root", "chroot", "unshare", "setns", "clone3",
    # host administration
    "open_by_handle_at", "name_to_handle_at", "init_module", "finit_module", "delete_module",
    "kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff", "acct", "quotactl", "quotactl_fd",
    "syslog", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "personality",
    "lookup_dcookie", "vhangup", "uselib", "ustat", "sysfs", "iopl", "ioperm", "fanotify_init",
    # file locks on inodes shared by the read-only /usr bind: a channel between sandboxes
    "flock",
)
"""Refused outright with ENOSYS (clone3 too: glibc then falls back to clone, whose flags can be checked)."""

DENIED_EPERM = ("sched_setaffinity",)
"""Refused as an unprivileged caller is refused: a bot runs on the core its referee gives it (the other cores are
other matches', worker/referee/cores.py)."""
CLONE_NEW_FLAGS = (0x00000080, 0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000)
"""CLONE_NEWTIME, NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET."""
FCNTL_DENIED = (6, 7, 36, 37, 38, 1024, 1026)
"""F_SETLK, F_SETLKW, F_OFD_GETLK(36), F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE, F_NOTIFY (breaks on-disk SQLite)."""
IOCTL_DENIED = (0x5412, 0x541C)
"""TIOCSTI (terminal input injection), TIOCLINUX."""


class SeccompUnavailable(RuntimeError):
    """libseccomp is missing or refused the filter."""


@functools.cache
def _lib() -> ctypes.CDLL:
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name, use_errno=True)
    except OSError as error:
        raise SeccompUnavailable(f"libseccomp not found ({error}); install the libseccomp2 package") from None
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [
        ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint, ctypes.POINTER(_ArgCmp),
    ]
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return lib


def _rule(lib: ctypes.CDLL, ctx: int, action: int, name: str, *cmps: tuple[int, int, int, int]) -> None:
    number = lib.seccomp_syscall_resolve_name(name.encode())
    if number < 0:  # not a syscall of this architecture (or unknown to this libseccomp)
        return
    array = (_ArgCmp * max(1, len(cmps)))(*[_ArgCmp(*c) for c in cmps])
    result = lib.seccomp_rule_add_array(ctx, action, number, len(cmps), array)
    if result < 0:
        raise SeccompUnavailable(f"seccomp_rule_add({name}): {os.strerror(-result)}")


@functools.cache
def deny_list_bpf() -> bytes:
    """The filter as raw BPF (cached: it depends only on the host's architecture)."""
    lib = _lib()
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    if not ctx:
        raise SeccompUnavailable("seccomp_init failed")
    try:
        enosys, eperm = scmp_act_errno(errno.ENOSYS), scmp_act_errno(errno.EPERM)
        for name in DENIED_ENOSYS:
            _rule(lib, ctx, enosys, name)
        for name in DENIED_EPERM:
            _rule(lib, ctx, eperm, name)
        for flag in CLONE_NEW_FLAGS:
            _rule(lib, ctx, eperm, "clone", (0, SCMP_CMP_MASKED_EQ, flag, flag))
        for name in ("socket", "socketpair"):
            _rule(lib, ctx, eperm, name, (0, SCMP_CMP_NE, socket.AF_UNIX, 0))
        for command in FCNTL_DENIED:
            _rule(lib, ctx, enosys, "fcntl", (1, SCMP_CMP_MASKED_EQ, 0xFFFFFFFF, command))
        for request in IOCTL_DENIED:
            _rule(lib, ctx, eperm, "ioctl", (1, SCMP_CMP_MASKED_EQ, 0xFFFFFFFF, request))
        with tempfile.TemporaryFile() as out:
            result = lib.seccomp_export_bpf(ctx, out.fileno())
            if result < 0:
                raise SeccompUnavailable(f"seccomp_export_bpf: {os.strerror(-result)}")
            out.seek(0)
            return out.read()
    finally:
        lib.seccomp_release(ctx)


def bpf_fd() -> int:
    """A fresh readable fd holding the filter, positioned at the start (bwrap reads it to EOF)."""
    data = deny_list_bpf()
    fd = os.memfd_create("durak-seccomp", os.MFD_CLOEXEC)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
