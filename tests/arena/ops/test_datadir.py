"""Where an arena keeps its data, in the order docs/operations.md gives."""

from __future__ import annotations

from pathlib import Path

from arena.datadir import CODE_ROOT, data_dir, is_source_checkout


def test_an_explicit_folder_wins(tmp_path: Path) -> None:
    assert data_dir({"ARENA_VAR_DIR": str(tmp_path / "x" / ".." / "data")}) == tmp_path / "data"


def test_a_checkout_keeps_its_data_beside_the_code() -> None:
    assert is_source_checkout(CODE_ROOT)
    assert data_dir({}) == CODE_ROOT / "var"


def test_an_installed_package_uses_the_users_data_dir_never_its_own_folder(tmp_path: Path) -> None:
    site_packages = tmp_path / "site-packages"
    (site_packages / "arena").mkdir(parents=True)
    chosen = data_dir({}, root=site_packages)
    assert not is_source_checkout(site_packages)
    assert site_packages not in chosen.parents and chosen.name == "durak-arena"
