"""Where the arena keeps its data: the database, the broker folder, built bots, logs and static files.

Data must outlive the code. A source checkout keeps it in ``var/`` beside the code, as developers
expect; an installed package must never write into ``site-packages`` (an upgrade or uninstall would throw
the data away, and a system-wide install cannot even write there), so it uses the user's data directory.
Every process of one arena (web, workers, beat, ``django-admin``) resolves the same folder in the same
order, so a second run from anywhere finds the same arena.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

ENV = "ARENA_VAR_DIR"
"""Set it (or pass ``durak-arena --data-dir``) to keep an arena's data anywhere else."""
APP = "durak-arena"
CODE_ROOT = Path(__file__).resolve().parent.parent
"""The folder that holds the ``arena`` package: a checkout's root, or ``site-packages`` when installed."""


def is_source_checkout(root: Path = CODE_ROOT) -> bool:
    """True when the code runs from a clone of the repository (editable installs included)."""
    return (root / "pyproject.toml").is_file() and (root / "manage.py").is_file()


def data_dir(environ: dict[str, str] | os._Environ[str] = os.environ, root: Path = CODE_ROOT) -> Path:
    """The data folder: ``$ARENA_VAR_DIR``, else ``var/`` of a source checkout, else the user's data dir."""
    explicit = environ.get(ENV, "")
    if explicit:
        return Path(explicit).expanduser().resolve()
    if is_source_checkout(root):
        return root / "var"
    return Path(platformdirs.user_data_dir(APP, appauthor=False))
