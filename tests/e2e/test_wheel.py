"""The package as users get it: the sdist and the wheel built from this tree, checked as a package index
would check them, and the wheel installed into fresh virtualenvs outside the checkout.

Two installs, because users come two ways: a bot author takes the SDK alone (grpcio, protobuf and hpack
only), an organiser takes ``[arena]``. Each runs its commands in an empty folder with its own
``$HOME``, so nothing of this checkout (its ``var/``, its sources) can stand in for what the wheel lacks.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots_sdk import __version__
from bots_sdk.native import engine_build
from tests.e2e.processes import marked

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_DATA = (
    "bots_sdk/py.typed",
    "bots_sdk/templates/newbot/bot.py.txt",
    "bots_sdk/examples/typescript/src/bot.ts",  # durak new --lang copies the starter kits
    "bots_sdk/examples/typescript/package-lock.json",
    "bots_sdk/examples/javascript/proto/durak/v1/bot.proto",
    "bots_sdk/examples/go/Makefile",
    "bots_sdk/examples/java/UnixDomainServerChannel.java",
    "bots_sdk/_proto/durak/v1/bot_pb2.pyi",
    "arena/matches/migrations/0001_initial.py",
    "arena/web/templates/web/base.html",
    "arena/web/static/web/site.css",
    "durak_arena-{version}.dist-info/licenses/LICENSE",
)


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = 300) -> str:
    result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{' '.join(argv)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    # --no-isolation: the build backend of this environment, so the test needs no download of its own.
    _run([sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", str(out), str(ROOT)],
         cwd=ROOT, env=dict(os.environ))
    return out


def _user_env(home: Path) -> dict[str, str]:
    """A user's environment: a home of their own and none of this test run's arena settings."""
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_", "ARENA_", "CELERY_", "DATABASE_", "VIRTUAL_ENV", "PYTHON"))}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local" / "share"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


@pytest.fixture
def user_env(tmp_path: Path) -> dict[str, str]:
    return _user_env(tmp_path / "home")


def _wheel(dist: Path) -> Path:
    (wheel,) = dist.glob("durak_arena-*.whl")
    return wheel


def _venv(path: Path, requirement: str, env: dict[str, str]) -> Path:
    _run([sys.executable, "-m", "venv", str(path)], cwd=path.parent, env=env)
    _run([str(path / "bin" / "pip"), "install", "-q", requirement], cwd=path.parent, env=env, timeout=600)
    return path / "bin"


def _site_packages(bin_dir: Path) -> Path:
    (site,) = (bin_dir.parent / "lib").glob("python3*/site-packages")
    return site


def test_sdist_and_wheel_pass_twine_and_hold_the_package_data(dist: Path) -> None:
    output = _run([sys.executable, "-m", "twine", "check", "--strict", *map(str, sorted(dist.iterdir()))],
                  cwd=dist, env=dict(os.environ))
    assert output.count("PASSED") == 2, output
    names = set(zipfile.ZipFile(_wheel(dist)).namelist())
    for wanted in PACKAGE_DATA:
        assert wanted.format(version=__version__) in names, f"{wanted} is missing from the wheel"
    assert not any(name.startswith(("tests/", "var/")) or "node_modules" in name or "/dist/" in name
                   or (name.startswith("bots_sdk/examples/") and "/build/" in name) for name in names)


def test_the_sdk_alone_serves_plays_and_checks_a_new_bot(dist: Path, tmp_path: Path,
                                                          user_env: dict[str, str]) -> None:
    bin_dir = _venv(tmp_path / "sdk", str(_wheel(dist)), user_env)
    listed = json.loads(_run([str(bin_dir / "pip"), "list", "--format", "json"], cwd=tmp_path, env=user_env))
    installed = {entry["name"].lower().replace("_", "-") for entry in listed} - {"pip", "setuptools"}
    sdk_alone = {"durak-arena", "grpcio", "protobuf", "hpack", "typing-extensions"}
    assert installed <= sdk_alone, installed
    work = tmp_path / "work"
    work.mkdir()
    durak = str(bin_dir / "durak")
    # The wheel is built here, with this environment's compiler, so it has the engine build this checkout has.
    version = _run([durak, "--version"], cwd=work, env=user_env).strip()
    assert version == f"durak {__version__} ({engine_build()} engine)"
    _run([durak, "new", "mybot"], cwd=work, env=user_env)
    played = _run([durak, "play", "mybot", "random", "--games", "4"], cwd=work, env=user_env)
    assert "durak" in played
    checked = _run([durak, "check", "mybot"], cwd=work, env=user_env)
    assert "passed" in checked.lower() or "ok" in checked.lower(), checked
    assert not (_site_packages(bin_dir) / "var").exists()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _until_serving(argv: list[str], cwd: Path, env: dict[str, str], log: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 300
    while "press Ctrl-C" not in log.read_text():
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.5)
    return process


@pytest.fixture(scope="module")
def arena_bin(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One ``[arena]`` install for the tests below (the slowest step of this file)."""
    where = tmp_path_factory.mktemp("arena-install")
    return _venv(where / "venv", f"{_wheel(dist)}[arena]", _user_env(where / "home"))


@pytest.fixture
def marked_env(user_env: dict[str, str]) -> Iterator[dict[str, str]]:
    """``user_env`` with a marker: whatever a test started and left running is killed after it."""
    marker = uuid.uuid4().hex
    user_env["DURAK_WHEEL_TEST"] = marker
    yield user_env
    for pid in marked(marker):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def test_durak_arena_from_the_wheel_keeps_its_data_in_the_users_data_dir(
        dist: Path, arena_bin: Path, tmp_path: Path, marked_env: dict[str, str]) -> None:
    # The first round robin with one deal a pairing (its three matches still played and stored): what is
    # checked here is where the arena keeps them, and tests/e2e/test_first_run.py checks the round robin itself.
    user_env = {**marked_env, "ARENA_FIRST_RUN_DEALS": "1"}
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    port = _free_port()
    argv = [str(arena_bin / "durak-arena"), "--port", str(port), "--workers", "1"]
    arena = _until_serving(argv, first, user_env, tmp_path / "first.log")
    try:
        output = (tmp_path / "first.log").read_text()
        data = Path(user_env["XDG_DATA_HOME"]) / "durak-arena"
        assert f"data in {data}" in output, output
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/tournaments/1/").read().decode()
        assert "finished" in page and f"Durak Arena {__version__}" in page
        about = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/about").read())
        assert about["version"] == __version__
    finally:
        arena.send_signal(signal.SIGINT)
        assert arena.wait(timeout=60) == 0
    assert (data / "arena.sqlite3").is_file()
    site = _site_packages(arena_bin)
    assert not (site / "var").exists() and not list(site.glob("*.sqlite3"))
    assert not any(first.iterdir()), "durak-arena wrote into the folder it was started from"

    # An upgrade or a reinstall of the package leaves the arena's data alone, and the arena's commands run
    # from anywhere else find the same arena (its finished matches).
    _run([str(arena_bin / "pip"), "install", "-q", "--force-reinstall", "--no-deps", str(_wheel(dist))],
         cwd=tmp_path, env=user_env)
    count = "import django; django.setup(); from arena.matches.models import Match; print(Match.objects.count())"
    finished = _run([str(arena_bin / "python"), "-c", count], cwd=second,
                    env={**user_env, "DJANGO_SETTINGS_MODULE": "arena.settings"})
    assert int(finished) >= 3, finished


def test_the_referee_plays_from_the_wheel(arena_bin: Path, tmp_path: Path, user_env: dict[str, str]) -> None:
    output = _run([str(arena_bin / "python"), "-m", "worker.referee", "random", "gentle", "--sandbox", "none",
                   "--games", "2", "--json"], cwd=tmp_path, env=user_env)
    games = json.loads(output)["games"]
    assert len(games) == 4 and all(game["reason"] for game in games)
