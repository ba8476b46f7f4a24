"""Browser tests: Playwright driving Debian's chromium against a live test server.

Playwright cannot download its own browsers here, so the session launches the
system ``chromium`` through ``executable_path``. Screenshots go to
``test-artifacts/screenshots/`` (or ``$DURAK_ARTIFACTS/screenshots``) so a run
leaves pictures of what the browser saw.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

# Playwright's sync API keeps an event loop running in this thread; the ORM calls of the test itself are still
# synchronous and safe (microsoft/playwright-pytest#29).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parents[3]
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
