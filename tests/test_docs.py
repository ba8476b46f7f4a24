"""Every document the project cites is in the repository, and the README stays a front page.

A newcomer who clones the project must find each ``*.md`` file and ``docs/`` path that a comment, a
docstring, a template or a page names, and each numbered section cited as ``docs/rules.md section 9``.
The pages' own examples run as written, as the README's do (tests/test_readme.py). The links between
the pages and their anchors are checked by ``mkdocs build --strict`` in CI.
"""

from __future__ import annotations

import doctest
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README_MAX_LINES = 200

TEXT_SUFFIXES = frozenset({
    ".py", ".pyi", ".proto", ".md", ".html", ".js", ".css", ".toml", ".yaml", ".yml", ".txt", ".cfg", ".sh",
})
TEXT_NAMES = frozenset({"run", "Dockerfile"})
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "vendor", "var", "site", "records", "test-artifacts", "build",
                          "dist"})
"""Besides hidden folders (``.ci`` is read): installed packages, caches, vendored third-party files, local state,
build outputs (a wheel build copies the docs' citers into ``build/``)."""

UPSTREAM = frozenset({"doc/health-checking.md"})
"""Documents of other projects cited as the origin of a vendored file (the grpc/grpc repository's health
checking protocol, vendored in proto/grpc/health/v1/health.proto): not ours to carry."""

MD_FILE = re.compile(r"(?<![\w/.-])[\w./-]*\w\.md\b")
DOCS_PATH = re.compile(r"(?<![\w/.-])docs/[\w./-]*\w")
SECTION = re.compile(r"(?<![\w/.-])(docs/\w+\.md),? sections? (\d+(?:(?:\s*-\s*|,\s*|\s+and\s+)\d+)*)")
HEADING_NUMBER = re.compile(r"^#{2,3} (\d+)\. ", re.MULTILINE)


def project_files() -> Iterator[Path]:
    """The project's own text files: code, templates, pages, configuration."""
    stack = [ROOT]
    while stack:
        folder = stack.pop()
        for path in sorted(folder.iterdir()):
            if path.is_dir():
                hidden = path.name.startswith(".") and path.name != ".ci"
                if not hidden and path.name not in SKIPPED_DIRS and not path.name.endswith(".egg-info"):
                    stack.append(path)
            elif path.suffix in TEXT_SUFFIXES or path.name in TEXT_NAMES:
                yield path


@cache
def citing_files() -> tuple[tuple[Path, str], ...]:
    """Every project file but this one, whose self-test cites missing files on purpose."""
    here = Path(__file__).resolve()
    return tuple((path, path.read_text(encoding="utf-8", errors="replace")) for path in project_files() if path != here)


@cache
def numbered_sections(page: Path) -> frozenset[int]:
    return frozenset(int(n) for n in HEADING_NUMBER.findall(page.read_text(encoding="utf-8")))


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def cited_numbers(spec: str) -> list[int]:
    """``"4 and 7"`` -> [4, 7]; ``"2-7"`` -> [2, 7] (the ends of a range are what a reader looks up)."""
    return [int(n) for n in re.findall(r"\d+", spec)]


def resolves(citing: Path, cited: str) -> bool:
    """A path cited in ``citing`` exists beside it (a relative link), from the repository's root, or in
    ``docs/`` (mkdocs.yml names its pages from there)."""
    return any((base / cited).exists() for base in (citing.parent, ROOT, DOCS))


def test_every_cited_document_is_in_the_repository() -> None:
    missing = []
    for path, text in citing_files():
        for pattern in (MD_FILE, DOCS_PATH):
            for match in pattern.finditer(text):
                cited = match.group().rstrip(".")
                if cited not in UPSTREAM and not resolves(path, cited):
                    missing.append(f"{path.relative_to(ROOT)}:{line_of(text, match.start())}: {cited}")
    assert not missing, "cited but not in the repository:\n" + "\n".join(missing)


def test_every_cited_section_exists() -> None:
    missing = []
    for path, text in citing_files():
        for match in SECTION.finditer(text):
            page = ROOT / match.group(1)
            if not page.is_file():
                continue  # reported by the test above
            for number in cited_numbers(match.group(2)):
                if number not in numbered_sections(page):
                    where = f"{path.relative_to(ROOT)}:{line_of(text, match.start())}"
                    missing.append(f"{where}: {match.group(1)} has no section {number}")
    assert not missing, "\n".join(missing)


def test_the_numbered_pages_number_their_sections_in_order() -> None:
    """Code cites these pages by section number, so each must run 1, 2, 3... with no gap or repeat."""
    for name in ("rules.md", "protocol.md", "ratings.md", "sandbox.md"):
        numbers = HEADING_NUMBER.findall((DOCS / name).read_text(encoding="utf-8"))
        assert [int(n) for n in numbers] == list(range(1, len(numbers) + 1)), name


def test_the_checks_catch_a_missing_file_and_a_missing_section(tmp_path: Path) -> None:
    """The patterns above find what they must (so the tests above cannot pass by matching nothing)."""
    text = "see docs/rules.md section 9 and docs/nowhere.md, RULES.md section 4, docs/ratings.md sections 2-99"
    assert [m.group() for m in MD_FILE.finditer(text)] == ["docs/rules.md", "docs/nowhere.md", "RULES.md",
                                                           "docs/ratings.md"]
    assert not resolves(tmp_path / "x.py", "docs/nowhere.md")
    assert not resolves(tmp_path / "x.py", "RULES.md")
    sections = [(m.group(1), cited_numbers(m.group(2))) for m in SECTION.finditer(text)]
    assert sections == [("docs/rules.md", [9]), ("docs/ratings.md", [2, 99])]
    assert 9 in numbered_sections(DOCS / "rules.md")
    assert 99 not in numbered_sections(DOCS / "ratings.md")


def test_the_readme_is_a_front_page() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; move the details into docs/"


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda page: page.name)
def test_the_pages_examples_run(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
