"""The sandboxed half of a language's build (worker/builds/languages.py): its steps, run without network.

The bot's folder is copied into a capped folder (worker/builds/space.py) bound writable at ``/bot/src``, the
fetched dependencies at ``/bot/deps``; both are handed to the step's slot uid, and the steps run in order by
``/bin/sh -e``. What the folder holds afterwards must be regular files and directories only (a symbolic link
left by a build could point the worker, which reads ``bot.toml`` back as root, anywhere on the host).
"""

from __future__ import annotations

import os
import shlex
import stat
from pathlib import Path

from worker.builds import MB, BuildError, BuildLimits
from worker.builds.languages import IN_DEPS, IN_SRC, Recipe
from worker.builds.sandboxed import read_tail, run_step, step_limits, tail
from worker.builds.space import NO_SPACE
from worker.sandbox.base import MIB
from worker.sandbox.bwrap import BwrapSandbox, base_args

STEP_ENV = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8"}


def steps_script(recipe: Recipe) -> str:
    """The shell script of the steps: one quoted argv a line, under ``sh -e`` (the first failure stops it)."""
    return "\n".join(shlex.join(argv) for argv in recipe.steps)


def steps_argv(bwrap: str, recipe: Recipe, src: Path, deps: Path, limits: BuildLimits,
               seccomp_fd: int | None) -> list[str]:
    """The bwrap of the steps: no network, ``src`` and ``deps`` the only writable host paths."""
    env = {**STEP_ENV, **recipe.env}
    args = base_args(bwrap, "durakbuild", env, limits.install_tmp_mb * MIB)
    args.insert(2, "--unshare-net")  # implied by --unshare-all; spelled out because it is the point here
    args += ["--bind", str(src), IN_SRC, "--bind", str(deps), IN_DEPS, "--chdir", IN_SRC]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    return [*args, "--remount-ro", "/", "--", "/bin/sh", "-e", "-c", steps_script(recipe)]


def _hand_over(uid: int, *trees: Path) -> None:
    for tree in trees:
        for root, dirs, files in os.walk(tree):
            for name in [*dirs, *files]:
                os.lchown(os.path.join(root, name), uid, uid)
        os.chown(tree, uid, uid)


def run_steps(sandbox: BwrapSandbox, recipe: Recipe, src: Path, deps: Path, limits: BuildLimits,
              log_path: Path) -> None:
    """Run ``recipe``'s steps on ``src`` in the sandbox; ``BuildError`` with the log's tail if one fails."""
    end = run_step(
        sandbox, lambda uid: _hand_over(uid, src, deps),
        lambda seccomp_fd: steps_argv(sandbox.bwrap, recipe, src, deps, limits, seccomp_fd),
        step_limits(limits, recipe.pids), limits.install_s, log_path,
    )
    output, code = read_tail(log_path), end.code
    if end.stopped_by_memory:
        raise BuildError(f"the {recipe.language} build hit its memory limit of {limits.memory_mb} MiB and was "
                         f"stopped:\n{tail(output)}")
    if code is None:
        raise BuildError(f"the {recipe.language} build took longer than {limits.install_s:.0f} s:\n{tail(output)}")
    if code != 0 and NO_SPACE in output:
        raise BuildError(f"the {recipe.language} build would weigh more than the {limits.venv_bytes / MB:g} MB "
                         f"limit; it stopped there:\n{tail(output, 3)}")
    if code != 0:
        raise BuildError(f"the {recipe.language} build failed in the sandbox (exit {code}):\n{tail(output)}")
    check_regular(src)


def check_regular(tree: Path) -> None:
    """Refuse a build that left anything but regular files and directories in the bot's folder."""
    for root, dirs, files in os.walk(tree, followlinks=False):
        for name in [*dirs, *files]:
            path = Path(root) / name
            mode = path.lstat().st_mode
            if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                what = "a symbolic link" if stat.S_ISLNK(mode) else "a special file"
                raise BuildError(f"the build left {what} at {path.relative_to(tree)}; a stored bot holds regular "
                                 "files and folders only")
