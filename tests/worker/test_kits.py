"""Every starter kit, as a new author meets it: ``durak new NAME --lang LANG``, the arena's own build (fetch on
the host, build in the sandbox without network), then ``durak check`` of the stored bot.

Needs root, a working bwrap and the kit's toolchain (skips, never passes, otherwise) and the kit's package
registry, if it has one (skips when the build says it is unreachable). Add a language's kit to ``KITS``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from worker.build import IndexUnreachable, build
from worker.builds.languages import RECIPES
from worker.sandbox import SandboxUnavailable, procs
from worker.sandbox.bwrap import BwrapSandbox
from worker.sandbox.runtime import RuntimeUnavailable
from worker.sandbox.slots import FIRST_UID

KITS = ["javascript", "typescript", "go", "cpp", "java"]
KIT_FIRST_UID = FIRST_UID + 820
"""A uid block of its own (test_build.py has FIRST_UID + 850.., the sandbox tests FIRST_UID + 900..)."""
KIT_SLOTS = 10


@pytest.fixture(scope="module")
def kit_dirs() -> Iterator[Path]:
    """Under /tmp and o+x: the build's slot uid must reach the store (pytest's tmp_path is 0700)."""
    base = Path(tempfile.mkdtemp(prefix="durak-kit-test-", dir="/tmp"))
    base.chmod(0o711)
    yield base
    left = {uid: procs.live_pids_of_uid(uid) for uid in range(KIT_FIRST_UID, KIT_FIRST_UID + KIT_SLOTS)}
    shutil.rmtree(base, ignore_errors=True)
    assert not any(left.values()), f"processes of build uids left: {left}"


@pytest.fixture(scope="module")
def sandbox(kit_dirs: Path) -> BwrapSandbox:
    if os.geteuid() != 0:
        pytest.skip("the build sandbox switches to a slot uid: needs root")
    bwrap = BwrapSandbox(state_dir=kit_dirs / "state", runtime_dir=kit_dirs / "runtime",
                         first_uid=KIT_FIRST_UID, slots=KIT_SLOTS)
    try:
        bwrap.self_test()
    except SandboxUnavailable as error:
        pytest.skip(f"bwrap cannot sandbox here: {error}")
    return bwrap


def durak(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bots_sdk.cli.main", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False)


@pytest.mark.parametrize("language", KITS)
def test_a_new_bot_of_each_kit_builds_in_the_arena_and_passes_check(
    language: str, sandbox: BwrapSandbox, kit_dirs: Path, tmp_path: Path,
) -> None:
    try:
        RECIPES[language].check_tools()
    except RuntimeUnavailable as error:
        pytest.skip(str(error))
    created = durak("new", "kit_bot", "--lang", language, "--dir", str(tmp_path), cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    folder = tmp_path / "kit_bot"
    store = kit_dirs / f"store-{language}"
    try:
        built = build(folder, store, sandbox)
    except IndexUnreachable as error:
        pytest.skip(f"the {language} registry is unreachable: {error}")
    assert built.name == "kit_bot" and built.spec.language == language and not built.cached
    assert (built.path / "build.log").is_file()
    assert [p for p in built.src.rglob("*") if p.is_symlink()] == []
    checked = durak("check", str(built.path), "--records", str(tmp_path / "records"), cwd=tmp_path)
    assert checked.returncode == 0, f"stdout:\n{checked.stdout}\nstderr:\n{checked.stderr}"
    assert "hello from 'kit_bot'" in checked.stdout and "passed" in checked.stdout, checked.stdout
