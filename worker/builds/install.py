"""The install phase of a bot with ``requirements`` (docs/sandbox.md section 6).

Two steps, so that no code of any package ever runs with the network on, nor on the host:

1. **Host, network on, nothing executed:** ``pip download --only-binary=:all:``
   (dependencies included, binary wheels only, so no ``setup.py`` or build
   backend runs) into a wheelhouse, with the worker's own pip and interpreter,
   whose minor version is the sandbox's (runtime.sandbox_python). The bot's
   requirements file is not handed to pip as is: ``sanitize_requirements``
   keeps only plain requirement lines (name, extras, version specifiers,
   markers, ``--hash``), since a requirements file may otherwise carry
   ``--index-url http://internal-host/``, a URL or a local path (which pip
   would *build* on the host), or ``-r /etc/...``.
2. **Sandbox, network off:** the venv starts as a copy of the worker's runtime
   (runtime.py: grpcio, protobuf, hpack, bots_sdk; the bot needs them to serve), then
   ``pip install --no-index --find-links /build/wheels`` runs in a dedicated
   bwrap invocation (``install_argv``): a slot uid of the sandbox's pool
   (setpriv, prlimit backstops as for bots), ``--unshare-all --unshare-net``
   (an empty network namespace; the second flag is redundant but says it),
   read-only ``/usr``, the wheelhouse, requirements and pip read-only, and
   the venv bound read-write at ``/bot/venv``, the path it has at play time,
   so ``pyvenv.cfg`` and script shebangs are right. The
   runtime's own distributions are pinned with a constraints file and their
   files stay root-owned, so a bot's requirements cannot replace the SDK.

Why not ``BwrapSandbox.start``: it is built around a served bot (socket dir,
read-only venv, status fd); the install needs the venv writable and no socket.
The flags below are the same profile, minus the socket and plus the binds.
"""

from __future__ import annotations

import compileall
import contextlib
import hashlib
import importlib.metadata
import importlib.util
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

from worker.builds import MB, BuildError, BuildLimits
from worker.builds.sandboxed import read_tail, run_step, step_limits, tail
from worker.builds.space import NO_SPACE
from worker.sandbox.base import MIB
from worker.sandbox.bwrap import BwrapSandbox, base_args
from worker.sandbox.runtime import IN_SANDBOX

IN_WHEELS = "/build/wheels"
IN_REQUIREMENTS = "/build/req"
IN_PIP = "/build/pip"
INSTALL_ENV = {
    "PATH": f"{IN_SANDBOX}/bin:/usr/bin:/bin",
    "HOME": "/tmp",
    "TMPDIR": "/tmp",
    "LANG": "C.UTF-8",
    "PYTHONNOUSERSITE": "1",
    "PIP_CONFIG_FILE": os.devnull,
    "PIP_NO_CACHE_DIR": "1",
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    "PIP_NO_INPUT": "1",
}
"""The whole environment inside the install sandbox: no host pip config (an index URL) leaks in."""

_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"
_SPEC = r"(?:===|==|!=|~=|<=|>=|<|>)\s*[A-Za-z0-9.*+!_-]+"
REQUIREMENT_LINE = re.compile(
    rf"(?P<name>{_NAME})\s*(?:\[\s*{_NAME}(?:\s*,\s*{_NAME})*\s*\])?\s*"
    rf"(?:\(?\s*{_SPEC}(?:\s*,\s*{_SPEC})*\s*\)?)?\s*"
    r"(?:;[A-Za-z0-9_.<>=!~ \"'()-]*)?"
)
"""A plain PEP 508 requirement without a URL: ``name[extra]>=1,<2; python_version < "3.12"``."""
ARCHIVE_NAME = re.compile(r"\.(whl|zip|tar|tgz|tbz|txz|tlz|gz|bz2|xz|lz|lzma)$", re.IGNORECASE)
"""A "name" pip would take for a local archive file (``pkg.whl``), which it would open or build."""
HASH_OPTION = re.compile(r"\s+--hash=sha256:[0-9a-fA-F]{64}")


def sanitize_requirements(text: str, limits: BuildLimits, label: str) -> list[str]:
    """The requirement lines of a requirements file, each checked against ``REQUIREMENT_LINE``.

    Comments, blank lines and ``\\`` continuations are handled as pip does; any option (``-r``, ``-e``,
    ``--index-url``...), URL or path is refused with its line number."""
    if len(text.encode()) > limits.requirements_bytes:
        raise BuildError(f"{label}: larger than {limits.requirements_bytes} bytes")
    joined: list[tuple[int, str]] = []
    pending = ""
    start = 0
    for number, line in enumerate(text.splitlines(), 1):
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1]
            continue
        joined.append((start, pending + line))
        pending = ""
    if pending:
        joined.append((start, pending))
    accepted = []
    for number, line in joined:
        line = re.sub(r"(^|\s)#.*", "", line).strip()
        if not line:
            continue
        body = line
        while found := HASH_OPTION.search(body):
            body = body[: found.start()] + body[found.end():]
        match = REQUIREMENT_LINE.fullmatch(body.strip())
        if not match or ARCHIVE_NAME.search(match["name"]):
            raise BuildError(
                f"{label} line {number}: {line[:80]!r}: only plain requirements (name, extras, version, "
                "markers, --hash=sha256:...) are allowed, not options, URLs or paths"
            )
        accepted.append(line)
    if len(accepted) > limits.requirement_lines:
        raise BuildError(f"{label}: more than {limits.requirement_lines} requirements")
    return accepted


def site_packages(venv: Path) -> Path:
    major, minor = sys.version_info[:2]
    return venv / "lib" / f"python{major}.{minor}" / "site-packages"


def runtime_constraints(runtime: Path) -> list[str]:
    """``name==version`` of every distribution in the runtime venv: the bot's venv keeps exactly these."""
    found = {
        dist.metadata["Name"]: dist.version
        for dist in importlib.metadata.distributions(path=[str(site_packages(runtime))])
    }
    return [f"{name}=={version}" for name, version in sorted(found.items())]


class IndexUnreachable(BuildError):
    """``pip download`` could not reach the package index (the worker's network, not the bot's fault)."""


def download_wheels(
    requirements: Path, constraints: Path, wheelhouse: Path, limits: BuildLimits, tmp: Path,
) -> list[str]:
    """Fill ``wheelhouse`` with binary wheels for ``requirements`` and their dependencies; returns the file names.

    Runs the worker's pip with the worker's environment (a deployer's index mirror in pip.conf applies), but
    without pip's cache (nothing of one build is kept for the next outside the store) and with its temporary
    files in ``tmp``, where pip streams each download before copying it to ``wheelhouse``: both folders are
    capped at ``limits.wheelhouse_bytes`` (worker/builds/space.py) when the host allows."""
    argv = [
        sys.executable, "-m", "pip", "download", "--only-binary=:all:", "--dest", str(wheelhouse),
        "--no-input", "--disable-pip-version-check", "--progress-bar", "off", "--no-cache-dir",
        "-r", str(requirements), "-c", str(constraints),
    ]
    env = {**os.environ, "TMPDIR": str(tmp), "PIP_NO_CACHE_DIR": "1"}
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=limits.download_s, check=False,
                                stdin=subprocess.DEVNULL, cwd=wheelhouse, env=env)
    except subprocess.TimeoutExpired:
        raise BuildError(f"downloading the requirements took longer than {limits.download_s:.0f} s") from None
    output = result.stdout + result.stderr
    if result.returncode != 0:
        if NO_SPACE in output:
            raise BuildError(f"requirements: the wheels weigh more than the {limits.wheelhouse_bytes / MB:g} MB "
                             f"download limit; the download stopped there:\n{tail(output, 3)}")
        if re.search(r"NewConnectionError|Max retries exceeded|Temporary failure in name resolution|"
                     r"Network is unreachable|ConnectTimeout|ReadTimeoutError", output):
            raise IndexUnreachable(f"pip download: the package index is unreachable:\n{tail(output)}")
        if "No matching distribution found" in output or "Could not find a version that satisfies" in output:
            raise BuildError(
                "requirements: no binary wheel for this Python and platform (only wheels are installed, "
                f"sdists are never built), or no such package or version:\n{tail(output)}"
            )
        raise BuildError(f"pip download failed (exit {result.returncode}):\n{tail(output)}")
    files = sorted(path.name for path in wheelhouse.iterdir())
    not_wheels = [name for name in files if not name.endswith(".whl")]
    if not_wheels:
        raise BuildError(f"pip download fetched something that is not a wheel: {', '.join(not_wheels)}")
    size = sum(path.stat().st_size for path in wheelhouse.iterdir())
    if size > limits.wheelhouse_bytes:
        raise BuildError(f"requirements: the wheels weigh {size / MB:.0f} MB, over the "
                         f"{limits.wheelhouse_bytes / MB:.0f} MB limit")
    return files


def ensure_pip(cache_dir: Path) -> Path:
    """A read-only copy of the worker's pip package, cached under ``cache_dir``; returns the folder holding ``pip/``.

    Bound read-only into the install sandbox and run as ``python /build/pip/pip``, so the bot's venv needs
    no pip of its own (15 MB less per bot, and no pip inside the play sandbox)."""
    found = importlib.util.find_spec("pip")
    if found is None or found.origin is None:
        raise BuildError("the worker has no pip to download and install requirements with")
    source = Path(found.origin).parent
    version = importlib.metadata.version("pip")
    tag = hashlib.sha256(f"{source}\0{version}\0{sys.version_info[:2]}".encode()).hexdigest()[:12]
    target = cache_dir / f"pip-{version}-{tag}"
    if (target / "pip" / "__main__.py").exists():
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    os.chmod(cache_dir, 0o755)
    building = Path(tempfile.mkdtemp(prefix=".pip-", dir=cache_dir))
    try:
        shutil.copytree(source, building / "pip", ignore=shutil.ignore_patterns("__pycache__"))
        compileall.compile_dir(building / "pip", quiet=2, workers=0)
        for path in [building, *building.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        with contextlib.suppress(OSError):  # another worker won the race: theirs is as good
            os.replace(building, target)
    finally:
        if building.exists():
            shutil.rmtree(building, ignore_errors=True)
    return target


def seed_venv(runtime: Path, venv: Path, uid: int) -> None:
    """Copy the runtime venv to ``venv``; only the venv root, ``bin`` and site-packages become ``uid``'s.

    The runtime's files stay root-owned, so the install can add packages but not alter the SDK's. The
    top-level ``__pycache__`` is handed over too, or pip could not byte-compile a top-level module
    (``six.py``), which the read-only venv would then recompile at every start."""
    shutil.copytree(runtime, venv, symlinks=True, dirs_exist_ok=True)  # ``venv`` may be a capped mount point
    site = site_packages(venv)
    (site / "__pycache__").mkdir(exist_ok=True)
    for path in (venv, venv / "bin", venv / "lib", site.parent, site, site / "__pycache__"):
        os.chown(path, uid, uid)
        path.chmod(0o755)


def install_command() -> list[str]:
    """The argv inside the install sandbox: the pip copy, run by the venv's python, offline, wheels only."""
    return [
        f"{IN_SANDBOX}/bin/python", f"{IN_PIP}/pip", "install", "--no-index", "--find-links", IN_WHEELS,
        "--only-binary=:all:", "--no-cache-dir", "--no-input", "--disable-pip-version-check",
        "--no-warn-script-location", "--progress-bar", "off",
        "-r", f"{IN_REQUIREMENTS}/requirements.txt", "-c", f"{IN_REQUIREMENTS}/constraints.txt",
    ]


def install_argv(
    bwrap: str, venv: Path, wheelhouse: Path, requirements_dir: Path, pip_dir: Path, limits: BuildLimits,
    seccomp_fd: int | None,
) -> list[str]:
    """The bwrap of the install, without network (sandboxed.run_step puts the cgroup join, setpriv and prlimit
    before it)."""
    sandbox_limits = step_limits(limits)
    args = base_args(bwrap, "durakbuild", INSTALL_ENV, sandbox_limits.tmp_mb * MIB)
    args.insert(2, "--unshare-net")  # implied by --unshare-all; spelled out because it is the point here
    args += [
        "--bind", str(venv), IN_SANDBOX,
        "--ro-bind", str(wheelhouse), IN_WHEELS,
        "--ro-bind", str(requirements_dir), IN_REQUIREMENTS,
        "--ro-bind", str(pip_dir), IN_PIP,
        "--chdir", "/tmp",
    ]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    args += ["--remount-ro", "/", "--", *install_command()]
    return args


def run_install(
    sandbox: BwrapSandbox, venv: Path, wheelhouse: Path, requirements_dir: Path, limits: BuildLimits,
    log_path: Path,
) -> str:
    """Seed ``venv`` from the runtime and pip-install the wheelhouse into it in the sandbox; returns pip's output."""
    pip_dir = ensure_pip(sandbox.runtime_dir)
    end = run_step(
        sandbox, lambda uid: seed_venv(sandbox.runtime, venv, uid),
        lambda seccomp_fd: install_argv(sandbox.bwrap, venv, wheelhouse, requirements_dir, pip_dir, limits,
                                        seccomp_fd),
        step_limits(limits), limits.install_s, log_path,
    )
    output, code = read_tail(log_path), end.code
    if end.stopped_by_memory:
        raise BuildError(f"installing the requirements hit the memory limit of {limits.memory_mb} MiB and was "
                         f"stopped:\n{tail(output)}")
    if code is None:
        raise BuildError(f"installing the requirements took longer than {limits.install_s:.0f} s:\n{tail(output)}")
    if code != 0 and NO_SPACE in output:
        raise BuildError(f"requirements: the installed venv would weigh more than the {limits.venv_bytes / MB:g} MB "
                         f"limit (the runtime's {_tree_mb(sandbox.runtime):.0f} MB included); the install stopped "
                         f"there:\n{tail(output, 3)}")
    if code != 0:
        raise BuildError(f"pip install failed in the sandbox (exit {code}):\n{tail(output)}")
    return output


def _tree_mb(tree: Path) -> float:
    return sum(path.lstat().st_size for path in tree.rglob("*")) / MB


def seal(tree: Path, limit_bytes: int | None = None, label: str = "venv") -> int:
    """Make ``tree`` root-owned (when we are root) and read-only for everyone (``chmod -R a-w``), never
    following a symlink.

    Returns its size; refuses fifos, sockets and devices (nothing a build should leave) and a tree over
    ``limit_bytes``."""
    total = 0
    chown = os.lchown if os.geteuid() == 0 else (lambda path, uid, gid: None)
    for root, dirs, files in os.walk(tree, followlinks=False):
        for name in [*dirs, *files]:
            path = Path(root) / name
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                chown(path, 0, 0)
                continue
            if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
                raise BuildError(f"{label}: unexpected special file {path.relative_to(tree)}")
            total += info.st_size
            chown(path, 0, 0)
            path.chmod(info.st_mode & 0o555)
    chown(tree, 0, 0)
    tree.chmod(tree.stat().st_mode & 0o555)
    if limit_bytes is not None and total > limit_bytes:
        raise BuildError(f"{label}: {total / MB:.0f} MB, over the {limit_bytes / MB:.0f} MB limit")
    return total
