"""The compiled languages build with Debian's toolchains and gRPC libraries (worker/builds/languages.py): every
package a recipe needs is installed by CI (``.ci/run``) and by the workers' image (``docker/Dockerfile``), so a
worker never lacks one the tests had."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from worker.build import BuildError
from worker.builds.languages import RECIPES

ROOT = Path(__file__).resolve().parents[2]
COMPILED = ("go", "cpp", "java")


@pytest.mark.parametrize("installer", [".ci/run", "docker/Dockerfile"])
def test_every_package_the_compiled_recipes_need_is_installed(installer: str) -> None:
    needed = {package for language in COMPILED for package in RECIPES[language].tools.values()}
    installed = set(re.findall(r"[a-z0-9][a-z0-9.+-]+", (ROOT / installer).read_text()))
    assert needed - installed == set(), f"{installer} does not install them"


@pytest.mark.parametrize("language", COMPILED)
def test_the_version_of_every_package_is_hashed_into_the_build(language: str) -> None:
    """So a Debian upgrade of the compiler or of the gRPC library rebuilds the bot rather than reuse a build."""
    recipe = RECIPES[language]
    try:
        recipe.check_tools()
    except BuildError as error:
        pytest.skip(str(error))
    versions = dict(line.split("\t") for line in recipe.toolchain_tag().splitlines())
    assert set(versions) == set(recipe.tools.values()) and all(versions.values())
