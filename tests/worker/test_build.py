"""The build step: safe unpacking of uploads (every classic archive attack), and the sandboxed install phase.

The unpack tests need nothing special. The install tests need root and a working bwrap (they skip, never
pass, otherwise) and the package index: they skip when ``pip download`` cannot connect.
"""

from __future__ import annotations

import io
import os
import shutil
import stat
import struct
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from bots_sdk.bots import RandomBot
from bots_sdk.engine import Rules
from bots_sdk.local import play_game
from bots_sdk.remote import Limits
from worker import build as build_module
from worker.build import BuildError, BuildLimits, IndexUnreachable, build, unpack
from worker.builds import install, space
from worker.builds.install import install_argv, sanitize_requirements
from worker.builds.sandboxed import step_limits
from worker.sandbox import SandboxUnavailable, procs
from worker.sandbox.bwrap import JOIN_CGROUPS, BwrapSandbox
from worker.sandbox.slots import FIRST_UID

BUILD_FIRST_UID = FIRST_UID + 850
"""A uid block of its own: the sandbox tests sweep FIRST_UID + 900.. after each test."""
BUILD_SLOTS = 20
MANIFEST = 'name = "mybot"\nversion = "1.0"\nlanguage = "python"\nentry = "bot.py"\n'
BOT_FILES = {"bot.toml": MANIFEST, "bot.py": "print('hi')\n", "lib/helper.py": "X = 1\n"}

# ------------------------------------------------------------------ archive writers


def make_zip(path: Path, files: Mapping[str, str | bytes], prefix: str = "") -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(prefix + name, data)
    return path


def make_tar(path: Path, members: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            archive.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def tar_file(name: str, data: str | bytes, mode: int = 0o644) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.mode = mode
    return info, data.encode() if isinstance(data, str) else data


def tar_special(name: str, kind: bytes, linkname: str = "") -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    return info, None


def good_tar(path: Path, prefix: str = "", extra: list[tuple[tarfile.TarInfo, bytes | None]] | None = None) -> Path:
    members: list[tuple[tarfile.TarInfo, bytes | None]] = [
        tar_file(prefix + name, data, 0o755 if name == "bot.py" else 0o644) for name, data in BOT_FILES.items()
    ]
    return make_tar(path, members + (extra or []))


@pytest.fixture
def area(tmp_path: Path) -> Path:
    """A dir holding the upload and ``out/`` where the bot is unpacked; ``out`` must stay empty on failure."""
    (tmp_path / "out").mkdir()
    return tmp_path


def assert_nothing_left(out: Path) -> None:
    assert list(out.iterdir()) == [], f"left behind: {list(out.iterdir())}"


def assert_refused(archive: Path, out: Path, *fragments: str, limits: BuildLimits | None = None) -> BuildError:
    with pytest.raises(BuildError) as caught:
        unpack(archive, out / "bot", limits)
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, message
    assert_nothing_left(out)
    return caught.value


# ------------------------------------------------------------------ good archives


@pytest.mark.parametrize("prefix", ["", "mybot/", "./"])
def test_good_zip_unpacks(area: Path, prefix: str) -> None:
    archive = make_zip(area / "up.zip", BOT_FILES, prefix)
    dest = unpack(archive, area / "out" / "bot")
    assert (dest / "bot.toml").read_text() == MANIFEST
    assert (dest / "lib" / "helper.py").read_text() == "X = 1\n"
    assert sorted(p.name for p in (area / "out").iterdir()) == ["bot"]


@pytest.mark.parametrize("prefix", ["", "mybot/"])
def test_good_tar_gz_unpacks_keeping_only_the_exec_bit(area: Path, prefix: str) -> None:
    archive = good_tar(area / "up.tgz", prefix)
    dest = unpack(archive, area / "out" / "bot")
    assert stat.S_IMODE((dest / "bot.py").stat().st_mode) == 0o755
    assert stat.S_IMODE((dest / "bot.toml").stat().st_mode) == 0o644
    assert sorted(p.name for p in (area / "out").iterdir()) == ["bot"]


def test_format_is_detected_by_content_and_macos_junk_is_ignored(area: Path) -> None:
    files: dict[str, str | bytes] = {**BOT_FILES, "__MACOSX/._bot.py": b"\x00\x05junk"}
    archive = make_zip(area / "upload.tar.gz", files)  # a zip, misnamed
    dest = unpack(archive, area / "out" / "bot")
    assert not (dest / "__MACOSX").exists() and (dest / "bot.py").is_file()


# ------------------------------------------------------------------ bad archives


def test_not_an_archive(area: Path) -> None:
    upload = area / "bot.zip"
    upload.write_text("hello, I am not a zip")
    assert_refused(upload, area / "out", "not a zip or tar.gz archive")


def test_corrupt_gzip(area: Path) -> None:
    upload = area / "bot.tgz"
    upload.write_bytes(b"\x1f\x8b\x08\x00" + b"garbage" * 10)
    assert_refused(upload, area / "out", "corrupt archive")


@pytest.mark.parametrize("name", ["/etc/cron.d/x", "/bot.toml"])
def test_absolute_path_zip(area: Path, name: str) -> None:
    archive = make_zip(area / "up.zip", {**BOT_FILES, name: "x"})
    assert_refused(archive, area / "out", repr(name), "absolute path")


def test_absolute_path_tar(area: Path) -> None:
    archive = good_tar(area / "up.tgz", extra=[tar_file("/tmp/evil", "x")])
    assert_refused(archive, area / "out", "'/tmp/evil'", "absolute path")


def test_dotdot_traversal(area: Path) -> None:
    archive = good_tar(area / "up.tgz", extra=[tar_file("a/../../etc/x", "x")])
    assert_refused(archive, area / "out", "archive entry 'a/../../etc/x': path leaves the bot folder")
    archive = make_zip(area / "up.zip", {**BOT_FILES, "../x.py": "x"})
    assert_refused(archive, area / "out", "'../x.py'", "path leaves the bot folder")
    archive = make_zip(area / "up.zip", {**BOT_FILES, "lib/../x.py": "x"})
    assert_refused(archive, area / "out", "'..' is not allowed")


def test_symlink_out(area: Path) -> None:
    archive = good_tar(area / "up.tgz", extra=[tar_special("passwd", tarfile.SYMTYPE, "/etc/passwd")])
    assert_refused(archive, area / "out", "'passwd'", "symbolic link", "/etc/passwd")
    # a zip symlink: unix mode S_IFLNK in the external attributes, the target as the data
    info = zipfile.ZipInfo("lib/escape")
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    archive = make_zip(area / "up.zip", BOT_FILES)
    with zipfile.ZipFile(archive, "a") as zipped:
        zipped.writestr(info, "../../../../etc")
    assert_refused(archive, area / "out", "'lib/escape'", "symbolic link")


def test_hardlink(area: Path) -> None:
    archive = good_tar(area / "up.tgz", extra=[tar_special("shadow", tarfile.LNKTYPE, "/etc/shadow")])
    assert_refused(archive, area / "out", "'shadow'", "hard link")
    archive = good_tar(area / "up.tgz", extra=[tar_special("copy.py", tarfile.LNKTYPE, "bot.py")])
    assert_refused(archive, area / "out", "'copy.py'", "hard link")


@pytest.mark.parametrize(("kind", "word"), [(tarfile.CHRTYPE, "device file"), (tarfile.BLKTYPE, "device file"),
                                            (tarfile.FIFOTYPE, "fifo")])
def test_device_files_and_fifos(area: Path, kind: bytes, word: str) -> None:
    archive = good_tar(area / "up.tgz", extra=[tar_special("dev/null", kind)])
    assert_refused(archive, area / "out", "'dev/null'", word)


def test_too_many_files(area: Path) -> None:
    files: dict[str, str | bytes] = {**BOT_FILES, **{f"data/{i}.txt": "" for i in range(2000)}}
    archive = make_zip(area / "up.zip", files)
    assert_refused(archive, area / "out", "more than 2000 entries")


def test_zip_bomb_is_refused_from_its_headers(area: Path) -> None:
    archive = make_zip(area / "up.zip", {**BOT_FILES, "bomb.bin": bytes(60_000_000)})
    assert archive.stat().st_size < 1_000_000
    assert_refused(archive, area / "out", "'bomb.bin'", "60.0 MB uncompressed", "limit for one file")


def test_total_size_limit(area: Path) -> None:
    files: dict[str, str | bytes] = {**BOT_FILES, **{f"blob{i}.bin": bytes(15_000_000) for i in range(4)}}
    archive = make_zip(area / "up.zip", files)
    assert_refused(archive, area / "out", "unpacks to more than 50.0 MB")


def test_tar_bomb_stops_early(area: Path) -> None:
    archive = good_tar(area / "up.tgz", extra=[tar_file(f"blob{i}", bytes(15_000_000)) for i in range(4)])
    started = time.perf_counter()
    assert_refused(archive, area / "out", "unpacks to more than 50.0 MB")
    assert time.perf_counter() - started < 10


def test_lying_zip_header_is_caught_while_writing(area: Path) -> None:
    """A zip whose headers declare 100 bytes for a member holding 5 MB: never more than declared is written."""
    archive = make_zip(area / "up.zip", {**BOT_FILES, "liar.bin": bytes(5_000_000)})
    data = bytearray(archive.read_bytes())
    with zipfile.ZipFile(archive) as zipped:
        info = zipped.getinfo("liar.bin")
    local = info.header_offset
    struct.pack_into("<I", data, local + 22, 100)  # local header: uncompressed size
    central = data.rfind(b"PK\x01\x02" + data[local + 4: local + 8])  # central entry of the same member
    while data[central + 46: central + 46 + len(b"liar.bin")] != b"liar.bin":
        central = data.rfind(b"PK\x01\x02", 0, central)
    struct.pack_into("<I", data, central + 24, 100)  # central directory: uncompressed size
    archive.write_bytes(bytes(data))
    assert_refused(archive, area / "out", "liar.bin")


def test_too_deep(area: Path) -> None:
    deep = "/".join(f"d{i}" for i in range(16)) + "/f.py"
    archive = make_zip(area / "up.zip", {**BOT_FILES, deep: "x"})
    assert_refused(archive, area / "out", "17 levels deep (limit 16)")


def test_duplicate_entries(area: Path) -> None:
    archive = good_tar(area / "up.tgz", extra=[tar_file("bot.py", "print('second')")])
    assert_refused(archive, area / "out", "'bot.py'", "appears twice")


def test_missing_bot_toml(area: Path) -> None:
    archive = make_zip(area / "up.zip", {"bot.py": "x", "README": "x"})
    assert_refused(archive, area / "out", "no bot.toml", "bot.py")
    archive = make_zip(area / "up.zip", {"a/bot.toml": MANIFEST, "b/bot.py": "x"})
    assert_refused(archive, area / "out", "no bot.toml", "a/, b/")


def test_bad_bot_toml(area: Path) -> None:
    files = {**BOT_FILES, "bot.toml": MANIFEST.replace('"mybot"', '"my bot"')}
    error = assert_refused(make_zip(area / "up.zip", files), area / "out", "name", "'my bot'")
    assert ".bot.unpack-" not in str(error), "the message names the upload, not our temp dir"
    files = {**BOT_FILES, "bot.toml": "name = "}
    assert_refused(make_zip(area / "up.zip", files), area / "out", "not valid TOML")
    files = {**BOT_FILES, "bot.toml": MANIFEST.replace('"bot.py"', '"../../../etc/hostname"')}
    assert_refused(make_zip(area / "up.zip", files), area / "out", "entry")
    files = {**BOT_FILES, "bot.toml": MANIFEST + 'requirements = "reqs.txt"\n'}
    assert_refused(make_zip(area / "up.zip", files), area / "out", "requirements", "does not exist")


def test_archive_size_limit(area: Path) -> None:
    archive = make_zip(area / "up.zip", BOT_FILES)
    assert_refused(archive, area / "out", "over the", limits=BuildLimits(archive_bytes=100))


def test_dest_must_not_exist(area: Path) -> None:
    (area / "out" / "bot").mkdir()
    with pytest.raises(BuildError, match="already exists"):
        unpack(make_zip(area / "up.zip", BOT_FILES), area / "out" / "bot")


# ------------------------------------------------------------------ folders and requirements files


def test_folder_with_symlink_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "mybot"
    for name, data in BOT_FILES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(data)
    (folder / "passwd").symlink_to("/etc/passwd")
    store = tmp_path / "store"
    with pytest.raises(BuildError, match="'passwd': symbolic link"):
        build(folder, store)
    assert list(store.iterdir()) == []


def test_requirements_lines() -> None:
    limits = BuildLimits()
    text = ('# pinned\nsix==1.16.0  # comment\nrequests[socks] >=2.0, <3 ; python_version >= "3.8"\n\n'
            'numpy\\\n>=1.26\n')
    assert sanitize_requirements(text, limits, "r.txt") == [
        "six==1.16.0", 'requests[socks] >=2.0, <3 ; python_version >= "3.8"', "numpy>=1.26",
    ]
    hashed = "six==1.16.0 --hash=sha256:" + "a" * 64
    assert sanitize_requirements(hashed, limits, "r.txt") == [hashed]
    for bad in ["--index-url http://10.0.0.1/simple", "-e .", "./pkg", "-r /etc/passwd", "foo @ https://x/y.whl",
                "git+https://github.com/x/y", "--extra-index-url=http://x", "/abs/path.whl", "pkg.whl"]:
        with pytest.raises(BuildError, match=r"line 2: .*only plain requirements"):
            sanitize_requirements(f"six\n{bad}\n", limits, "r.txt")


def test_install_argv_is_offline_unprivileged_and_binds_the_venv_at_its_play_path(tmp_path: Path) -> None:
    limits = step_limits(BuildLimits(install_memory_mb=1500, memory_mb=3000))
    assert limits.as_mb == 1500 and limits.pids == 64  # the rlimits run_step puts before bwrap
    assert limits.memory_mb == 3000  # its memory cgroup's, for the whole step
    argv = install_argv("/usr/bin/bwrap", tmp_path / "venv", tmp_path / "wheels", tmp_path / "req",
                        tmp_path / "pip", BuildLimits(), None)
    bwrap = argv.index("/usr/bin/bwrap")
    flags, command = argv[bwrap:argv.index("--", bwrap)], argv[argv.index("--", bwrap) + 1:]
    assert "--unshare-net" in flags and "--unshare-all" in flags and "--share-net" not in flags
    assert "--clearenv" in flags and "--cap-drop" in flags and "--die-with-parent" in flags

    def bound(kind: str, source: Path) -> str:
        i = next(i for i, a in enumerate(flags) if a == kind and flags[i + 1] == str(source))
        return flags[i + 2]

    assert bound("--bind", tmp_path / "venv") == "/bot/venv"
    assert bound("--ro-bind", tmp_path / "wheels") == "/build/wheels"
    assert bound("--ro-bind", tmp_path / "pip") == "/build/pip"
    assert sum(a == "--bind" for a in flags) == 1, "the venv is the only writable host path"
    assert "/etc" not in flags and "--share-net" not in flags
    assert command[:3] == ["/bot/venv/bin/python", "/build/pip/pip", "install"]
    assert "--no-index" in command and "--only-binary=:all:" in command


# ------------------------------------------------------------------ the install phase (root, bwrap, PyPI)


@pytest.fixture(scope="module")
def build_dirs() -> Iterator[Path]:
    """Under /tmp and o+x: the slot uid must reach the build dir (pytest's tmp_path is 0700)."""
    base = Path(tempfile.mkdtemp(prefix="durak-build-test-", dir="/tmp"))
    base.chmod(0o711)
    yield base
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def sandbox(build_dirs: Path) -> BwrapSandbox:
    if os.geteuid() != 0:
        pytest.skip("the install sandbox switches to a slot uid: needs root")
    bwrap = BwrapSandbox(state_dir=build_dirs / "state", runtime_dir=build_dirs / "runtime",
                         first_uid=BUILD_FIRST_UID, slots=BUILD_SLOTS)
    try:
        bwrap.self_test()
    except SandboxUnavailable as error:
        pytest.skip(f"bwrap cannot sandbox here: {error}")
    return bwrap


@pytest.fixture(scope="module")
def pypi(build_dirs: Path) -> None:
    """Skip when the package index cannot be reached (a connection error), never on another pip failure."""
    probe = build_dirs / "probe"
    probe.mkdir()
    result = subprocess.run([sys.executable, "-m", "pip", "download", "--only-binary=:all:", "--no-deps", "-q",
                             "-d", str(probe), "six==1.16.0"], capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        pytest.skip(f"PyPI unreachable: {result.stderr.strip().splitlines()[-1:]}")


@pytest.fixture
def store(build_dirs: Path) -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="store-", dir=build_dirs))
    path.chmod(0o711)
    yield path
    left = {uid: procs.live_pids_of_uid(uid) for uid in range(BUILD_FIRST_UID, BUILD_FIRST_UID + BUILD_SLOTS)}
    assert not any(left.values()), f"processes of build uids left: {left}"
    shutil.rmtree(path, ignore_errors=True)


def bot_zip(tmp_path: Path, requirements: str | None, entry: str = "import six\n") -> Path:
    files: dict[str, str | bytes] = {"bot.toml": MANIFEST, "bot.py": entry}
    if requirements is not None:
        files["bot.toml"] = MANIFEST + 'requirements = "requirements.txt"\n'
        files["requirements.txt"] = requirements
    return make_zip(tmp_path / "up.zip", files, "mybot/")


def run_in_sandbox(venv: Path, src: Path, code: str, uid: int) -> subprocess.CompletedProcess[str]:
    """``python -c code`` as ``uid`` in a bwrap like the play sandbox: the venv at /bot/venv, no network."""
    argv = ["/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--inh-caps=-all", "--",
            "/usr/bin/bwrap", "--unshare-all", "--die-with-parent", "--clearenv", "--ro-bind", "/usr", "/usr",
            "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--ro-bind", str(venv), "/bot/venv",
            "--ro-bind", str(src), "/bot/src", "--chdir", "/bot/src", "--", "/bot/venv/bin/python", "-c", code]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)


def writable_by_anyone(tree: Path) -> list[Path]:
    return [p for p in [tree, *tree.rglob("*")] if not p.is_symlink() and p.stat().st_mode & 0o222]


def test_bot_without_requirements_gets_no_venv(store: Path, tmp_path: Path) -> None:
    built = build(bot_zip(tmp_path, None, "print(1)\n"), store)
    assert built.venv is None and built.name == "mybot" and built.version == "1.0"
    assert built.path.parent == store / "mybot" and built.path.name.startswith("1.0-")
    assert (built.src / "bot.toml").is_file() and built.spec.folder == built.src
    assert writable_by_anyone(built.path) == []
    again = build(bot_zip(tmp_path, None, "print(1)\n"), store)
    assert again.cached and again.path == built.path
    assert [p.name for p in store.iterdir()] == ["mybot"]


def test_requirements_build_a_venv_offline_in_the_sandbox(
    sandbox: BwrapSandbox, pypi: None, store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    launched: list[list[str]] = []
    real_popen = subprocess.Popen

    def spy(argv: list[str], *args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        launched.append(list(argv))
        return real_popen(argv, *args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", spy)  # install.py calls subprocess.Popen
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # where the worker's pip would cache wheels
    started = time.perf_counter()
    built = build(bot_zip(tmp_path, "six==1.16.0\n"), store, sandbox)
    elapsed = time.perf_counter() - started
    assert built.venv is not None and built.wheels == ("six-1.16.0-py2.py3-none-any.whl",)
    assert built.requirements == ("six==1.16.0",)
    (argv,) = [argv for argv in launched if sandbox.bwrap in argv]
    assert argv[:3] == ["/bin/sh", "-c", JOIN_CGROUPS] and "/usr/bin/setpriv" in argv and "--unshare-net" in argv
    assert int(argv[4]) > 0 or not sandbox.capabilities().memory_cgroup, "the install runs in its cgroups"
    assert "Successfully installed six-1.16.0" in (built.path / "install.log").read_text()
    assert writable_by_anyone(built.path) == [], "the stored bot is read-only"
    assert all(p.lstat().st_uid == 0 for p in [built.path, *built.path.rglob("*")]), "and root-owned"
    assert not (built.path / "wheels").exists() and not any(store.glob(".building-*"))
    assert not (tmp_path / "cache").exists(), "pip cached nothing for later builds outside the store"
    assert build_mounts() == []
    result = run_in_sandbox(built.venv, built.src, "import six, grpc, bots_sdk, sys; print(six.__file__, sys.prefix)",
                            BUILD_FIRST_UID + BUILD_SLOTS - 1)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["/bot/venv/lib/python3.11/site-packages/six.py", "/bot/venv"]
    assert list((built.venv / "lib/python3.11/site-packages/__pycache__").glob("six.*.pyc")), "six byte-compiled"
    launched.clear()
    again = build(bot_zip(tmp_path, "six==1.16.0\n"), store, sandbox)
    assert again.cached and again.path == built.path
    assert launched == [], "a cache hit neither downloads nor installs"
    print(f"build with six: {elapsed:.1f} s")


def build_mounts() -> list[str]:
    """The capped build folders (worker/builds/space.py) mounted now: none may outlive its build."""
    with open("/proc/self/mountinfo") as mounts:
        return [line for line in mounts if " durak-build " in line]


def test_a_requirement_over_the_download_limit_stops_while_streaming(
    sandbox: BwrapSandbox, pypi: None, store: Path, tmp_path: Path
) -> None:
    """six's wheel is 11 kB: with an 8 kB limit the kernel refuses the write that crosses it, mid-download."""
    with pytest.raises(BuildError) as caught:
        build(bot_zip(tmp_path, "six==1.16.0\n"), store, sandbox, BuildLimits(wheelhouse_bytes=8_000))
    message = str(caught.value)
    assert "the wheels weigh more than the 0.008 MB download limit; the download stopped there" in message
    assert "No space left on device" in message
    assert list(store.iterdir()) == [] and build_mounts() == []


def test_an_install_over_the_venv_limit_stops_while_writing(
    sandbox: BwrapSandbox, pypi: None, store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wheel that unpacks far more than it weighs (played by a writer in pip's place) fills its capped venv
    folder, never the store's disk: the write that crosses the limit fails and the build says which limit."""
    runtime = sum(p.lstat().st_size for p in sandbox.runtime.rglob("*"))
    limit = runtime + 2_000_000
    writer = "open('/bot/venv/blob', 'wb').write(bytes(8_000_000))"
    monkeypatch.setattr(install, "install_command", lambda: ["/bot/venv/bin/python", "-c", writer])
    with pytest.raises(BuildError) as caught:
        build(bot_zip(tmp_path, "six==1.16.0\n"), store, sandbox, BuildLimits(venv_bytes=limit))
    message = str(caught.value)
    assert f"the installed venv would weigh more than the {limit / 1e6:g} MB limit" in message
    assert "No space left on device" in message
    assert list(store.iterdir()) == [] and build_mounts() == []


def test_a_build_clears_the_capped_folders_of_an_abandoned_build(store: Path, tmp_path: Path) -> None:
    """A worker killed mid-build leaves its build folder and a mounted tmpfs: the next build removes both,
    and leaves a recent build folder (another worker's, in progress) alone."""
    if os.geteuid() != 0:
        pytest.skip("mounting the capped folders needs root")
    abandoned = store / ".building-killed"
    abandoned.mkdir()
    (abandoned / "wheels").mkdir()
    assert space._mount(abandoned / "wheels", 1_000_000) is None
    (abandoned / "wheels" / "half.whl").write_bytes(bytes(1000))
    long_ago = time.time() - 3600
    os.utime(abandoned, (long_ago, long_ago))
    in_progress = store / ".building-running"
    in_progress.mkdir()
    build(bot_zip(tmp_path, None, "print(1)\n"), store)
    assert not abandoned.exists() and build_mounts() == []
    assert in_progress.is_dir()


def test_the_install_sandbox_has_no_network(
    sandbox: BwrapSandbox, pypi: None, store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The very launch chain of the install, with a probe instead of pip: no interface but lo, no route out."""
    probe = ("import socket; lines = open('/proc/net/dev').read().splitlines()[2:];"
             "print(sorted(line.split(':')[0].strip() for line in lines));"
             "socket.create_connection(('151.101.0.223', 443), timeout=3)")
    monkeypatch.setattr(install, "install_command", lambda: ["/bot/venv/bin/python", "-c", probe])
    with pytest.raises(BuildError) as caught:
        build(bot_zip(tmp_path, "six==1.16.0\n"), store, sandbox)
    assert "['lo']" in str(caught.value), "only the loopback interface: an empty network namespace"
    assert "Errno" in str(caught.value), "the connection failed"
    assert list(store.iterdir()) == []


def test_sdist_only_requirement_is_refused(sandbox: BwrapSandbox, pypi: None, store: Path, tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="no binary wheel") as caught:
        build(bot_zip(tmp_path, "docopt==0.6.2\n"), store, sandbox)
    assert "docopt" in str(caught.value), "pip's last lines are in the message"
    assert not isinstance(caught.value, IndexUnreachable)
    assert list(store.iterdir()) == []


def test_bad_requirements_file_is_refused_before_pip(store: Path, tmp_path: Path) -> None:
    with pytest.raises(BuildError, match=r"requirements\.txt line 1: '--index-url"):
        build(bot_zip(tmp_path, "--index-url http://169.254.169.254/\nsix\n"), store)
    assert list(store.iterdir()) == []


def test_install_time_limit(
    sandbox: BwrapSandbox, pypi: None, store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(install, "install_command", lambda: ["/bot/venv/bin/python", "-c", "while True: pass"])
    with pytest.raises(BuildError, match="longer than 1 s"):
        build(bot_zip(tmp_path, "six==1.16.0\n"), store, sandbox, BuildLimits(install_s=1))
    assert list(store.iterdir()) == []


def test_pip_failure_in_the_sandbox_reports_its_last_lines(
    sandbox: BwrapSandbox, pypi: None, store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    real: Callable[[], list[str]] = install.install_command
    monkeypatch.setattr(install, "install_command", lambda: [*real(), "no-such-package-xyz"])
    with pytest.raises(BuildError, match=r"(?s)pip install failed in the sandbox.*no-such-package-xyz"):
        build(bot_zip(tmp_path, "six==1.16.0\n"), store, sandbox)
    assert list(store.iterdir()) == []


def test_build_module_exports() -> None:
    assert build_module.BuildError is BuildError


SERVING_BOT = """import random

import six  # the bot's own requirement: it must import inside the play sandbox

from bots_sdk import Bot, serve


class SixBot(Bot):
    name = "mybot"

    def choose_action(self, observation):
        return random.choice(observation.legal_actions)


if __name__ == "__main__":
    serve(SixBot())
"""


def test_a_built_bot_plays_in_the_sandbox_on_its_own_venv(
    sandbox: BwrapSandbox, pypi: None, store: Path, tmp_path: Path
) -> None:
    """The built venv replaces the shared runtime at /bot/venv: the bot imports its requirement and plays."""
    built = build(bot_zip(tmp_path, "six==1.16.0\n", SERVING_BOT), store, sandbox)
    assert built.spec.venv == built.venv
    served = sandbox.launch(built.spec, Limits(start_s=10.0))
    try:
        served.bot.wait_serving()
        assert served.bot.hello().name == "mybot"
        played = play_game(Rules.preset("classic", players=2), [served.bot, RandomBot(1)], seed=3)
        assert played.game.outcome is not None and played.game.outcome.offender is None
    finally:
        served.kill()
