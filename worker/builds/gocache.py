"""A warm Go build cache of Debian's gRPC libraries, so that a Go bot's build compiles only the bot.

Without it every Go build compiles grpc-go, protobuf-go and golang.org/x/net from Debian's sources
(``/usr/share/gocode``) again: tens of seconds of CPU for a few hundred lines of bot. The worker compiles those
libraries once per toolchain (the packages' versions name the cache, ``seed_dir``) into a cache of its own, on
the host: only Debian's code is compiled (nothing of a bot's), and nothing compiled runs. Each build then gets a
copy (``fetch``, the recipe's host half) in its ``deps`` folder as ``GOCACHE``: Go trusts what its cache holds, so
no build ever writes to the seed, and what one bot's build adds to its copy is thrown away with the build.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from worker.builds import BuildError, BuildLimits
from worker.builds.sandboxed import tail
from worker.sandbox.bwrap import DEFAULT_RUNTIME_DIR

IN_CACHE = "/bot/deps/go-cache"
"""``GOCACHE`` of the sandboxed build: the copy of the seed."""
GO_ENV = {"GO111MODULE": "off", "GOPATH": "/usr/share/gocode", "GOFLAGS": "", "CGO_ENABLED": "0"}
"""What the kits' Makefile exports: the seed is compiled under the same settings, or Go would not reuse it."""
SEED_PACKAGES = (
    "os/signal", "google.golang.org/grpc", "google.golang.org/grpc/codes", "google.golang.org/grpc/health",
    "google.golang.org/grpc/health/grpc_health_v1", "google.golang.org/grpc/status",
    "google.golang.org/protobuf/reflect/protoreflect", "google.golang.org/protobuf/runtime/protoimpl",
)
"""What the Go kit and its generated code import (their dependencies come along)."""
SEED_S = 600.0


def seed_dir(toolchain_tag: str, cache_dir: Path = DEFAULT_RUNTIME_DIR) -> Path:
    digest = hashlib.sha256(toolchain_tag.encode()).hexdigest()[:16]
    return cache_dir / f"go-cache-{digest}"


def ensure_seed(toolchain_tag: str, cache_dir: Path = DEFAULT_RUNTIME_DIR) -> Path:
    """The warm cache of this toolchain, compiled first if need be (once per worker and toolchain)."""
    target = seed_dir(toolchain_tag, cache_dir)
    if target.is_dir():
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=".go-cache-", dir=cache_dir))
    try:
        env = {"PATH": "/usr/bin:/bin", "HOME": str(building), "LANG": "C.UTF-8", "GOCACHE": str(building / "cache"),
               **GO_ENV}
        argv = ["/usr/bin/go", "build", "-trimpath", *SEED_PACKAGES]
        try:
            result = subprocess.run(argv, capture_output=True, text=True, timeout=SEED_S, check=False,
                                    stdin=subprocess.DEVNULL, cwd=building, env=env)
        except subprocess.TimeoutExpired:
            raise BuildError(f"compiling Debian's Go gRPC libraries took longer than {SEED_S:.0f} s") from None
        if result.returncode != 0:
            raise BuildError("this worker cannot compile Debian's Go gRPC libraries (a package of the go recipe is "
                             f"missing or broken):\n{tail(result.stdout + result.stderr)}")
        for path in [building, *building.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        with contextlib.suppress(OSError):  # another worker won the race: theirs is as good
            os.replace(building / "cache", target)
    finally:
        shutil.rmtree(building, ignore_errors=True)
    for stale in cache_dir.glob("go-cache-*"):  # the caches of toolchains this worker no longer has
        if stale != target:
            shutil.rmtree(stale, ignore_errors=True)
    return target


def fetch(toolchain_tag: str, deps: Path, limits: BuildLimits, cache_dir: Path = DEFAULT_RUNTIME_DIR) -> None:
    """Copy the warm cache into ``deps/go-cache``, the sandboxed build's ``GOCACHE`` (``IN_CACHE``)."""
    del limits  # the copy is the seed's size (about 100 MB), far under the deps folder's cap
    shutil.copytree(ensure_seed(toolchain_tag, cache_dir), deps / "go-cache")
