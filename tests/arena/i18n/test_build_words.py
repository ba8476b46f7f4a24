"""A bot author who reads Russian or German meets no English when an upload or a build is refused, nor when the
API refuses a request's fields (422): the worker's English build errors are worded at display, paths and what the
author wrote kept as they came."""

from __future__ import annotations

import ast
import io
import re
import tarfile
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from arena.bots.build_words import build_text
from arena.bots.models import Bot, BotVersion
from arena.notices import notice
from tests.arena.conftest import tar_of

pytestmark = pytest.mark.django_db

ENGLISH = re.compile(r"\b(?:the|is|are|not|no|only|allowed|links?|archive|folder|may|hold|letters|"
                     r"unknown|key|did|you|mean|build|valid|invalid|value|line|column|end|field|required)\b")
"""Words of the worker's and pydantic's English that a translated message must no longer hold."""


def _linked() -> bytes:
    """A tar.gz whose bot folder holds a symbolic link to the host's password file."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in {"bot.toml": b'name = "linked"\n', "bot.py": b""}.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("secrets.txt")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        archive.addfile(link)
    return buffer.getvalue()


def _english_left(text: str, *kept: str) -> list[str]:
    for part in kept:
        text = text.replace(part, "")
    return ENGLISH.findall(text)


def test_a_refused_upload_reads_in_the_authors_language_through_the_api_and_the_form(
    alice_token: str, alice_client: Client
) -> None:
    api = Client(headers={"authorization": f"Bearer {alice_token}", "accept-language": "ru"})
    linked = api.post("/api/versions", {"archive": SimpleUploadedFile("linked.tar.gz", _linked())})
    assert linked.status_code == 400
    assert linked.json()["detail"] == ("элемент архива 'secrets.txt': символическая ссылка (на '/etc/passwd'): "
                                       "ссылки не допускаются")
    named = api.post("/api/versions", {"archive": SimpleUploadedFile(
        "named.tar.gz", tar_of({"bot.toml": b'name = "no spaces"\n', "bot.py": b""}))})
    assert named.json()["detail"] == ("named.tar.gz/bot.toml: name: в 'no spaces' допустимы только буквы, цифры, "
                                      "- и _")
    page = alice_client.post("/submit/", {"archive": SimpleUploadedFile(
        "typo.tar.gz", tar_of({"bot.toml": b'name = "typo"\nrequirments = "r.txt"\n', "bot.py": b""}))},
        headers={"accept-language": "de"}).content.decode()
    assert ("typo.tar.gz/bot.toml: unbekannter Schlüssel &#x27;requirments&#x27;; meinten Sie "
            "&#x27;requirements&#x27;?") in page
    assert not Bot.objects.exists()


def test_a_rejected_builds_reason_reads_in_the_authors_language_on_the_version_page(
    alice: User, alice_client: Client
) -> None:
    version = BotVersion.objects.create(
        bot=Bot.objects.create(owner=alice, name="heavy"), number=1, label="1", language="python",
        status=BotVersion.Status.REJECTED,
        error=notice("version.build", error="pip install failed in the sandbox (exit 1):\nERROR: no space").stored())
    page = alice_client.get(f"/versions/{version.pk}/", headers={"accept-language": "ru"}).content.decode()
    assert "сборка: pip install завершился ошибкой в песочнице (код выхода 1):\nERROR: no space" in page


BROKEN = [
    b"not an archive",
    tar_of({"bot.py": b""}),
    tar_of({"/abs.py": b"", "bot.toml": b'name = "x"\n'}),
    tar_of({"bot.toml": b"name = [", "bot.py": b""}),
    tar_of({"bot.toml": b'name = "x"\nname = "y"\n', "bot.py": b""}),
    tar_of({"bot.toml": b'name = "x" y\n', "bot.py": b""}),
    tar_of({"bot.toml": b'name = "x"\nflavour = 1\n', "bot.py": b""}),
    tar_of({"bot.toml": b'name = "x"\nlanguage = "cobol"\n', "bot.py": b""}),
    tar_of({"bot.toml": b'name = "x"\nentry = "gone.py"\n'}),
    tar_of({"bot.toml": b'name = "x"\nrequirements = "nope.txt"\n', "bot.py": b""}),
    tar_of({"bot.toml": b'name = "x"\nlanguage = "command"\nentry = "run"\n'}),
]
"""Archives the real archive checks refuse, one per kind of refusal an author commonly meets."""


def test_the_archive_checks_own_errors_are_each_worded(alice_token: str) -> None:
    """Refusals the real archive checks write on the upload path, worded in both languages; the author's own
    text (quoted) kept."""
    clients = {language: Client(headers={"authorization": f"Bearer {alice_token}", "accept-language": language})
               for language in ("en", "ru", "de")}
    for archive in BROKEN:
        said = {language: client.post("/api/versions", {"archive": SimpleUploadedFile("b.tar.gz", archive)})
                .json()["detail"] for language, client in clients.items()}
        quoted = re.findall(r"'[^']*'|`[^`]*`", said["en"])
        for language in ("ru", "de"):
            assert said[language] != said["en"] and not _english_left(said[language], *quoted), said
    assert build_text("something new") == "something new"


def test_the_new_languages_build_errors_are_worded() -> None:
    """The JavaScript and TypeScript builds' messages (worker/builds/languages.py, compile.py), tool output kept."""
    with translation.override("de"):
        assert build_text("package-lock.json: no integrity hash (run `npm install` again to write one)") == \
            "package-lock.json: kein Integrity-Hash (führen Sie `npm install` erneut aus, um ihn zu schreiben)"
        assert build_text("the typescript build failed in the sandbox (exit 2):\nsrc/bot.ts(3,1): error TS1005") == \
            "der typescript-Build ist in der Sandbox fehlgeschlagen (Exit-Code 2):\nsrc/bot.ts(3,1): error TS1005"
    with translation.override("ru"):
        assert build_text("bot.zip/bot.toml: language: 'cobol' is not one of python, command, javascript") == \
            "bot.zip/bot.toml: language: 'cobol' — не из списка python, command, javascript"


def test_a_422_names_the_field_and_what_is_wrong_in_the_clients_language(alice_token: str) -> None:
    client = Client(headers={"authorization": f"Bearer {alice_token}", "accept-language": "ru"})
    response = client.post("/api/challenges", {"opponents": "random"}, content_type="application/json")
    assert response.status_code == 422
    errors = {tuple(error["loc"]): error for error in response.json()["detail"]}
    assert errors[("body", "body", "bot")]["msg"] == "Обязательное поле"
    assert errors[("body", "body", "bot")]["type"] == "missing"
    assert errors[("body", "body", "opponents")]["msg"] == "Должно быть списком"
    german = Client(headers={"authorization": f"Bearer {alice_token}", "accept-language": "de"}).post(
        "/api/challenges", {"bot": 5, "opponents": []}, content_type="application/json").json()["detail"]
    assert [error["msg"] for error in german] == ["Muss eine Zeichenkette sein"]


SOURCES = [*sorted(Path("worker/builds").glob("*.py")), Path("worker/build.py"), Path("bots_sdk/botdir.py")]
"""Where build errors are written: the arena's build step and bot.toml's checks."""
NOT_BUILDS = {"load_bot"}
"""Functions whose errors only the command line shows (it loads a bot in-process; the arena never does)."""
SAMPLES = {"_kind(mode)": "fifo", "_kind(info.st_mode)": "socket", "what": "a special file", "field": "name",
           "hint": "did you mean 'name'?", "MANIFEST": "bot.toml"}
"""Values for placeholders whose text a shape names (a kind of file, a bot.toml key, the close-key hint)."""
_NUMERIC = re.compile(r"len\(|size|limit|entries|depth|count|code|number|written|_bytes|_s\b|chars|lines|"
                      r"compress_type|/ MB")


def _sample(node: ast.FormattedValue) -> str:
    source = ast.unparse(node.value)
    if node.conversion == ord("r"):
        return "'x'"
    if source in SAMPLES:
        return SAMPLES[source]
    if source.startswith("_mb("):
        return "1.0 MB"
    if _NUMERIC.search(source) or node.format_spec is not None:
        return "1"
    return "x"


def _messages() -> list[str]:
    """Every build error the sources raise, its placeholders filled with sample values."""
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = {id(node) for function in ast.walk(tree) if isinstance(function, ast.FunctionDef)
                   and function.name in NOT_BUILDS for node in ast.walk(function)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and id(node) not in skipped
                    and node.func.id in ("BuildError", "BotSpecError") and node.args):
                message = node.args[0]
                if isinstance(message, ast.Constant) and isinstance(message.value, str):
                    found.append(message.value)
                elif isinstance(message, ast.JoinedStr):
                    found.append("".join(str(part.value) if isinstance(part, ast.Constant) else
                                         _sample(part) for part in message.values))  # type: ignore[arg-type]
    return found


def test_every_build_error_the_worker_writes_is_worded() -> None:
    """A new or reworded build error fails here until ``arena/bots/build_words.py`` and the catalogs word it."""
    messages = _messages()
    assert len(messages) > 50
    with translation.override("ru"):
        unworded = [message for message in messages if build_text(message) == message]
    assert not unworded, f"build errors not worded in arena/bots/build_words.py: {unworded}"
