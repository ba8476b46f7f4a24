"""Shared fixtures of the arena tests: named authors, scaffolded bot archives, tasks run in this process.

Personas (as in healthchecks' test base): Alice authors bots, Bob authors other
bots, and an anonymous visitor only reads.
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from arena.accounts.services import token_create
from arena.bots.models import BotVersion
from arena.bots.services import reference_versions_ensure
from bots_sdk.cli.main import main as durak
from bots_sdk.cli.submit_cmd import pack
from worker.celery import app as celery_app

CRASHING_BOT = '''
from bots_sdk import Bot, serve

class Crasher(Bot):
    def choose_action(self, observation):
        raise RuntimeError("boom")

if __name__ == "__main__":
    serve(Crasher())
'''


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password="alice-password-123")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password="bob-password-123")


@pytest.fixture
def alice_client(alice: User) -> Client:
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def alice_token(alice: User) -> str:
    return token_create(user=alice, name="laptop")[1]


@pytest.fixture
def references(db: None) -> dict[str, BotVersion]:
    return reference_versions_ensure()


def scaffold(where: Path, name: str, bot_py: str | None = None, requirements: str | None = None) -> Path:
    """A bot folder exactly as ``durak new NAME`` makes it (optionally another bot.py, or requirements)."""
    where.mkdir(parents=True, exist_ok=True)
    assert durak(["new", name, "--dir", str(where)]) == 0
    folder = where / name
    if bot_py is not None:
        (folder / "bot.py").write_text(bot_py)
    if requirements is not None:
        (folder / "requirements.txt").write_text(requirements)
        manifest = folder / "bot.toml"
        manifest.write_text(manifest.read_text().replace("# requirements", "requirements"))
    return folder


@pytest.fixture
def make_archive(tmp_path: Path) -> Callable[..., bytes]:
    """``make_archive(name, bot_py=None, kind="tar", requirements=None)``: a scaffolded bot, packed as
    ``durak submit`` packs it (``kind="zip"``: zipped inside a top-level folder, as a file manager does)."""
    uploads = iter(range(1_000_000))

    def make(name: str, bot_py: str | None = None, kind: str = "tar", requirements: str | None = None) -> bytes:
        folder = scaffold(tmp_path / f"upload-{next(uploads)}", name, bot_py, requirements)
        if kind == "tar":
            return pack(folder)
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for path in sorted(folder.rglob("*")):
                archive.write(path, f"{name}/{path.relative_to(folder)}")
        return buffer.getvalue()

    return make


def tar_of(files: dict[str, bytes]) -> bytes:
    """A tar.gz holding exactly ``files`` (for broken uploads)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.fixture
def run_tasks() -> Iterator[None]:
    """Celery tasks run in this process when enqueued (after commit), through the real task code."""
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_eager_propagates = False


@pytest.fixture
def admitted(
    alice: User, references: dict[str, BotVersion], make_archive: Callable[..., bytes], run_tasks: None
) -> BotVersion:
    """Alice's bot ``mybot``, submitted and admitted for real (built, and played against random in bubblewrap)."""
    from arena.bots.services import version_submit

    with_description = "Plays <script>alert('x')</script> & wins"
    version = version_submit(owner=alice, filename="mybot.tar.gz", data=make_archive("mybot"),
                             description=with_description)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE, version.error
    return version
