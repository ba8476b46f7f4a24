"""Shared fixtures of the arena tests: named authors, scaffolded bot archives, tasks run in this process.

Personas (as in healthchecks' test base): Alice authors bots, Bob authors other
bots, and an anonymous visitor only reads.

Browser tests use Playwright driving Debian's chromium (Playwright cannot
download its own browsers here), one browser per session shared by every test
that asks for ``page`` or ``phone``; screenshots go to
``test-artifacts/screenshots/`` (or ``$DURAK_ARTIFACTS/screenshots``).
"""

from __future__ import annotations

import io
import os
import shutil
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation
from playwright.sync_api import Browser, Page, sync_playwright

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


@pytest.fixture(autouse=True)
def site_language() -> Iterator[None]:
    """Each test starts in the site's language: a request in another one leaves it active in the thread
    (``LocaleMiddleware`` activates the reader's language and never deactivates it), and a later test that words
    something outside a request would read it in German."""
    yield
    translation.deactivate()


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


# Playwright's sync API keeps an event loop running in this thread; the ORM calls of the tests themselves are
# still synchronous and safe (microsoft/playwright-pytest#29).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("DURAK_ARTIFACTS", ROOT / "test-artifacts")) / "screenshots"


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        pytest.fail("chromium is not installed (apt-get install -y chromium; .ci/run installs it)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def shoot(page: Page, name: str) -> Path:
    """Keep a full-page screenshot as a test artifact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
