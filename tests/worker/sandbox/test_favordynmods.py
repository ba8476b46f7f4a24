"""The worker turns on the kernel's ``favordynmods`` for its cgroups, and leaves the host alone when told to."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from worker.sandbox import cgroups
from worker.sandbox.bwrap import BwrapSandbox

MOUNTINFO = "41 31 0:38 / /sys/fs/cgroup/unified rw,nosuid,relatime - cgroup2 cgroup2 rw,nsdelegate\n"


def cgroup2_options() -> list[str] | None:
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        if " - cgroup2 " in line:
            return line.split()[-1].split(",")
    return None


def test_a_sandbox_leaves_the_hosts_cgroup2_with_favordynmods(bwrap: BwrapSandbox) -> None:
    """What a worker's first sandbox does on this host: the option is on afterwards, every other option kept."""
    features = cgroups.FEATURES.read_text().split() if cgroups.FEATURES.exists() else []
    if "favordynmods" not in features or cgroup2_options() is None:
        pytest.skip("this kernel has no favordynmods or the host no cgroup2 mount")
    if os.environ.get(cgroups.FAVOR_DYNMODS_ENV, "on") == "off":
        pytest.skip(f"{cgroups.FAVOR_DYNMODS_ENV}=off")
    assert bwrap.cgroups is not None and bwrap.cgroups.available
    assert "favordynmods" in (cgroup2_options() or [])
    assert cgroups.favor_dynamic_changes().startswith(("on", "turned on"))


def test_off_leaves_the_mount_alone(tmp_path: Path) -> None:
    mountinfo, features = tmp_path / "mountinfo", tmp_path / "features"
    mountinfo.write_text(MOUNTINFO)
    features.write_text("nsdelegate\nfavordynmods\n")
    assert cgroups._favor("off", mountinfo, features) == f"off ({cgroups.FAVOR_DYNMODS_ENV}=off)"


def test_an_old_kernel_or_no_cgroup2_is_reported_not_raised(tmp_path: Path) -> None:
    mountinfo, features = tmp_path / "mountinfo", tmp_path / "features"
    mountinfo.write_text(MOUNTINFO)
    features.write_text("nsdelegate\nmemory_localevents\n")
    assert "unsupported" in cgroups._favor("on", mountinfo, features)
    mountinfo.write_text("22 1 0:21 / /proc rw - proc proc rw\n")
    assert cgroups._favor("on", mountinfo, features) == "no cgroup2 hierarchy is mounted"


def test_a_failed_remount_says_why(tmp_path: Path) -> None:
    """A mount point that is not one (a container without the host's cgroup2): the worker goes on without."""
    mountinfo, features = tmp_path / "mountinfo", tmp_path / "features"
    mountinfo.write_text(MOUNTINFO.replace("/sys/fs/cgroup/unified", str(tmp_path / "not-a-mount")))
    features.write_text("favordynmods\n")
    result = cgroups._favor("on", mountinfo, features)
    assert result.startswith(f"off: remounting {tmp_path / 'not-a-mount'} failed:"), result


def test_a_wrong_setting_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cgroups, "_favoring", None)
    monkeypatch.setenv(cgroups.FAVOR_DYNMODS_ENV, "sometimes")
    with pytest.raises(ValueError, match="DURAK_FAVORDYNMODS: 'sometimes' is not one of on, off"):
        cgroups.favor_dynamic_changes()
