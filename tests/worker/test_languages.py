"""The languages the arena builds: one table in the SDK, one recipe in the worker, one kit each; what an upload
of each must hold and may not; and the isolation of a build step (no network, nothing writable but the bot).

Only the last test needs root and a working bwrap (it skips otherwise); the others run anywhere.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots_sdk.botdir import LANGUAGES, BotSpecError, load_spec
from bots_sdk.cli.main import main as durak
from bots_sdk.cli.submit_cmd import SubmitError, pack
from tests.worker.evil.arena import own_cgroup_dirs
from worker.build import BuildError
from worker.builds import BuildLimits
from worker.builds.compile import run_steps, steps_argv
from worker.builds.languages import RECIPES, Recipe, check_npm_lock
from worker.sandbox import SandboxUnavailable, procs
from worker.sandbox.bwrap import BwrapSandbox
from worker.sandbox.slots import FIRST_UID

ROOT = Path(__file__).resolve().parents[2]
KITS = ROOT / "bots_sdk" / "examples"
STEP_FIRST_UID = FIRST_UID + 835
STEP_SLOTS = 2


def test_every_language_has_its_recipe_and_its_kit() -> None:
    assert set(LANGUAGES) == set(RECIPES)
    for language in LANGUAGES:
        spec = load_spec(str(KITS / language), built=False)
        assert (spec.language, spec.name) == (language, f"{language}-example")


def test_a_compiled_bot_is_checked_only_once_built_and_the_error_says_how(tmp_path: Path) -> None:
    assert durak(["new", "tsbot", "--lang", "typescript", "--dir", str(tmp_path)]) == 0
    folder = tmp_path / "tsbot"
    assert not (folder / "node_modules").exists() and not (folder / "dist").exists()
    assert load_spec(str(folder), built=False).entry == ("node", "dist/bot.js")
    with pytest.raises(BotSpecError, match=r"entry: 'dist/bot.js' does not exist .*build it first: `npm ci && "
                                           r"npm run build`, or as the arena does: `python -m worker.build"):
        load_spec(str(folder))


def lock(packages: dict[str, dict[str, object]]) -> str:
    return json.dumps({"name": "b", "lockfileVersion": 3, "packages": {"": {"name": "b"}, **packages}})


GOOD: dict[str, object] = {"version": "1.0.0", "resolved": "https://registry.npmjs.org/a/-/a-1.0.0.tgz",
                            "integrity": "sha512-AAAA"}


@pytest.mark.parametrize(("package", "said"), [
    ({**GOOD, "resolved": "git+ssh://git@github.com/x/a.git#abc"}, "from https://registry.npmjs.org/ only"),
    ({**GOOD, "resolved": "https://evil.example/a-1.0.0.tgz"}, "from https://registry.npmjs.org/ only"),
    ({"version": "file:../a", "integrity": "sha512-AAAA"}, "from https://registry.npmjs.org/ only"),
    ({"resolved": "../a", "link": True}, "from https://registry.npmjs.org/ only"),
    ({**GOOD, "integrity": None}, "no integrity hash"),
])
def test_a_lock_file_may_name_only_hashed_tarballs_of_the_npm_registry(
    tmp_path: Path, package: dict[str, object], said: str,
) -> None:
    (tmp_path / "package.json").write_text("{}")
    (tmp_path / "package-lock.json").write_text(lock({"node_modules/a": GOOD}))
    check_npm_lock(tmp_path)
    (tmp_path / "package-lock.json").write_text(lock({"node_modules/a": {"version": "1.0.0",
                                                                         "integrity": "sha512-AAAA"}}))
    check_npm_lock(tmp_path)  # npm's omit-lockfile-registry-resolved: the default registry
    (tmp_path / "package-lock.json").write_text(lock({"node_modules/a": package}))
    with pytest.raises(BuildError, match=f"package-lock.json: node_modules/a: .*{said}"):
        check_npm_lock(tmp_path)
    (tmp_path / "package-lock.json").unlink()
    with pytest.raises(BuildError, match=r"package-lock\.json: missing; run `npm install`"):
        check_npm_lock(tmp_path)


def test_submit_packs_sources_and_lock_never_outputs_and_explains_links(tmp_path: Path) -> None:
    assert durak(["new", "packed", "--lang", "typescript", "--dir", str(tmp_path)]) == 0
    folder = tmp_path / "packed"
    for output in ("node_modules/typescript/bin", "node_modules/.bin", "dist"):
        (folder / output).mkdir(parents=True)
    (folder / "dist" / "bot.js").write_text("built\n")
    (folder / "node_modules" / ".bin" / "tsc").symlink_to("../typescript/bin/tsc")
    with tarfile.open(fileobj=io.BytesIO(pack(folder))) as archive:
        names = set(archive.getnames())
    assert {"bot.toml", "package.json", "package-lock.json", "tsconfig.json", "src/bot.ts",
            "proto/durak/v1/bot.proto", "src/generated/durak/v1/Action.ts"} <= names
    assert not any(name.startswith(("node_modules", "dist")) for name in names), sorted(names)
    (folder / "src" / "shared").symlink_to("/etc")
    with pytest.raises(SubmitError, match=r"src/shared: a symbolic link; .* replace the link by a copy"):
        pack(folder)
    (folder / "src" / "shared").unlink()
    (folder / "package-lock.json").unlink()
    with pytest.raises(SubmitError, match=r"package-lock.json: missing; a typescript bot .*: `npm install` writes"):
        pack(folder)


def test_the_steps_run_offline_with_only_the_bot_and_its_deps_writable(tmp_path: Path) -> None:
    recipe = Recipe("probe", {}, (), steps=(("true",),))
    argv = steps_argv("/usr/bin/bwrap", recipe, tmp_path / "src", tmp_path / "deps", BuildLimits(), None)
    flags = argv[:argv.index("--")]
    assert "--unshare-net" in flags and "--unshare-all" in flags and "--share-net" not in flags
    binds = [(flags[i + 1], flags[i + 2]) for i, flag in enumerate(flags) if flag == "--bind"]
    assert binds == [(str(tmp_path / "src"), "/bot/src"), (str(tmp_path / "deps"), "/bot/deps")]
    assert argv[argv.index("--") + 1:argv.index("--") + 4] == ["/bin/sh", "-e", "-c"]


@pytest.fixture
def step_dirs() -> Iterator[Path]:
    """A scratch folder the build uids can reach; after the test, no process and no cgroup of a build uid."""
    base = Path(tempfile.mkdtemp(prefix="durak-step-test-", dir="/tmp"))
    base.chmod(0o711)
    (base / "src").mkdir(mode=0o755)
    (base / "deps").mkdir(mode=0o755)
    yield base
    uids = range(STEP_FIRST_UID, STEP_FIRST_UID + STEP_SLOTS)
    left = {uid: procs.live_pids_of_uid(uid) for uid in uids}
    groups = [parent / f"uid-{uid}" for parent in own_cgroup_dirs() for uid in uids if (parent / f"uid-{uid}").exists()]
    shutil.rmtree(base, ignore_errors=True)
    assert not any(left.values()), f"processes of build uids left: {left}"
    assert not groups, f"cgroups of build uids left: {groups}"


@pytest.fixture
def step_sandbox(step_dirs: Path) -> BwrapSandbox:
    """The sandbox of the build steps, on two slots of their own."""
    if os.geteuid() != 0:
        pytest.skip("the build sandbox switches to a slot uid: needs root")
    sandbox = BwrapSandbox(state_dir=step_dirs / "state", runtime_dir=step_dirs / "runtime",
                           first_uid=STEP_FIRST_UID, slots=STEP_SLOTS)
    try:
        sandbox.self_test()
    except SandboxUnavailable as error:
        pytest.skip(f"bwrap cannot sandbox here: {error}")
    return sandbox


def test_a_hostile_build_step_reaches_no_network_and_writes_only_the_bot_and_deps(
    step_sandbox: BwrapSandbox, step_dirs: Path
) -> None:
    sandbox = step_sandbox
    src, deps = step_dirs / "src", step_dirs / "deps"
    probe = ("import socket\n"
             "try:\n socket.create_connection(('1.1.1.1', 53), timeout=3); print('network: reached')\n"
             "except OSError as error: print('network:', error.strerror)\n"
             "for path in ('/usr/probe', '/bot/deps/probe', 'built'):\n"
             " try: open(path, 'w').write('x'); print(path, 'written')\n"
             " except OSError as error: print(path, error.strerror)\n")
    recipe = Recipe("probe", {}, (), steps=(("python3", "-c", probe),))
    run_steps(sandbox, recipe, src, deps, BuildLimits(), step_dirs / "build.log")
    log = (step_dirs / "build.log").read_text()
    assert "network:" in log and "network: reached" not in log, log  # unreachable, or refused by seccomp
    assert "/usr/probe Read-only file system" in log and "built written" in log, log
    assert (src / "built").read_text() == "x"
    failing = Recipe("probe", {}, (), steps=(("echo", "compiling"),
                                             ("sh", "-c", "echo the compiler said no >&2; exit 3")))
    with pytest.raises(BuildError, match=r"the probe build failed in the sandbox \(exit 3\):\n(.|\n)*the compiler "
                                         r"said no"):
        run_steps(sandbox, failing, src, deps, BuildLimits(), step_dirs / "failed.log")
    linking = Recipe("probe", {}, (), steps=(("ln", "-s", "/etc/shadow", "leak"),))
    with pytest.raises(BuildError, match="the build left a symbolic link at leak"):
        run_steps(sandbox, linking, src, deps, BuildLimits(), step_dirs / "linked.log")


HOGS = ("import subprocess, sys, time\n"
        "hog = 'import time; hog = b\"x\" * (40 << 20); print(\"holding 40 MiB\", flush=True); time.sleep(60)'\n"
        "kids = [subprocess.Popen([sys.executable, '-c', hog]) for _ in range(4)]\n"
        "while all(kid.poll() is None for kid in kids):\n"
        " time.sleep(0.02)\n"
        "print('a compiler died:', sorted(kid.poll() for kid in kids if kid.poll() is not None), flush=True)\n"
        "sys.exit(1)\n")
"""A build that allocates in four processes at once, 40 MiB each: each far under any per-process limit (RLIMIT_AS
is 2 GiB), together over the step's memory limit set low for the test (a ``make -j`` of template bombs)."""


def test_a_build_step_over_its_memory_limit_fails_saying_so_and_leaves_nothing(
    step_sandbox: BwrapSandbox, step_dirs: Path
) -> None:
    if not step_sandbox.capabilities().memory_cgroup:
        pytest.skip(f"no memory cgroup here: {step_sandbox.cgroups and step_sandbox.cgroups.problem}")
    hogs = Recipe("probe", {}, (), steps=(("python3", "-c", HOGS),))
    limits = BuildLimits(memory_mb=96, install_s=60)
    with pytest.raises(BuildError, match=r"^the probe build hit its memory limit of 96 MiB and was stopped:\n"
                                         r"(.|\n)*a compiler died: \[-9"):
        run_steps(step_sandbox, hogs, step_dirs / "src", step_dirs / "deps", limits, step_dirs / "hogs.log")
    # the step_dirs fixture: no process of the step's uid, no cgroup left
