"""Which processes a test started: every one carries a marker in its environment, and so do their children."""

from __future__ import annotations

from pathlib import Path


def marked(marker: str) -> set[int]:
    """Pids whose environment holds ``marker`` (an env var's value that only this run uses)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    found.add(int(entry.name))
            except OSError:
                continue
    return found


def environment(pid: int) -> dict[str, str]:
    """The environment ``pid`` was started with (empty if it is gone)."""
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return {}
    return dict(entry.split("=", 1) for entry in raw.decode(errors="replace").split("\0") if "=" in entry)


def command_line(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []
