"""The arena's build recipe of each language it builds besides Python (docs/authors.md, "Languages").

A recipe has two halves, so that no code from a registry ever runs with the network on, nor on the host:

1. ``fetch`` (host, network on, nothing of the bot's or its dependencies' executed): the dependencies the
   bot's lock file names, from the registries this project may use (npm for JavaScript and TypeScript;
   nothing for the languages whose toolchain and libraries are Debian packages on the worker), every install
   script disabled, into ``deps``: a folder capped at the download limit.
2. ``steps`` (sandbox, network off): the argvs run in order by ``/bin/sh -e`` in a bwrap sandbox as a slot
   uid (worker/builds/sandboxed.py), with the bot's folder writable at ``/bot/src`` (its working directory),
   the fetched ``deps`` writable at ``/bot/deps``, ``HOME=/tmp``, under the install limits. What the folder
   holds afterwards is the stored bot, played by the argv of ``bots_sdk.botdir.LANGUAGES``.

``tools`` are the host programs the recipe needs; a worker without one refuses the build saying which Debian
package to install (as a fault of the worker, so the arena retries the build on another), and
``toolchain_tag`` (their versions) is part of the build's hash, so a toolchain upgrade rebuilds the bot
instead of reusing a build made with the old one.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path

from worker.builds import MB, BuildError, BuildLimits, gocache
from worker.builds.install import IndexUnreachable
from worker.builds.sandboxed import tail
from worker.builds.space import NO_SPACE
from worker.sandbox.runtime import RuntimeUnavailable

IN_SRC = "/bot/src"
IN_DEPS = "/bot/deps"
Fetch = Callable[[Path, Path, BuildLimits], None]
"""``fetch(src, deps, limits)``: fill ``deps`` for the bot in ``src``; ``BuildError`` naming the file at fault."""


@dataclasses.dataclass(frozen=True)
class Recipe:
    """How the arena builds a bot of one language; see the module docstring."""

    language: str
    tools: Mapping[str, str]
    """Host program (absolute path) -> the Debian package that provides it."""
    version_argvs: tuple[tuple[str, ...], ...]
    """Commands whose output names the toolchain's version (hashed into the build)."""
    fetch: Fetch | None = None
    steps: tuple[tuple[str, ...], ...] = ()
    """The in-sandbox argvs, run in order in ``/bot/src``; the first failure fails the build."""
    env: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Environment of the steps, on top of PATH, HOME, TMPDIR and LANG."""
    pids: int = 256
    """Tasks of the build's uid (compilers and package managers start threads)."""

    def check_tools(self) -> None:
        """``RuntimeUnavailable`` (the worker's trouble, not the bot's: the arena retries elsewhere) for a
        missing tool."""
        for tool, package in self.tools.items():
            if not os.access(tool, os.X_OK):
                raise RuntimeUnavailable(f"this worker cannot build {self.language} bots: {tool} is missing "
                                         f"(apt-get install -y {package})")

    def toolchain_tag(self) -> str:
        return _versions(self.version_argvs)


@functools.cache
def _versions(argvs: tuple[tuple[str, ...], ...]) -> str:
    outputs = []
    for argv in argvs:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False, env=_HOST_ENV)
        outputs.append((result.stdout + result.stderr).strip())
    return "\n".join(outputs)


_HOST_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/nonexistent"}

# ---------------------------------------------------------------- npm (JavaScript, TypeScript)

NPM_REGISTRY = "https://registry.npmjs.org/"
NPM_LOCK = "package-lock.json"
NPM_CACHE = "npm-cache"
SEMVER = re.compile(r"\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?")
NPM_FLAGS = ("--ignore-scripts", "--no-audit", "--no-fund", "--no-bin-links", "--no-update-notifier",
             "--loglevel=warn")
"""Every npm run of a build: no lifecycle script of any package (nor of the bot) runs, no symlinks are made."""


def check_npm_lock(src: Path) -> dict[str, object]:
    """The bot's ``package-lock.json``, checked to name only tarballs of the npm registry, each with its hash.

    The lock is what the arena installs (``npm ci``), so it must exist, match ``package.json`` (npm checks)
    and fetch nothing from elsewhere: a git URL, a local path or another host would run or read what the
    arena does not vouch for."""
    if not (src / "package.json").is_file():
        raise BuildError("package.json: missing (a JavaScript or TypeScript bot declares its dependencies there)")
    lock_path = src / NPM_LOCK
    if not lock_path.is_file():
        raise BuildError(f"{NPM_LOCK}: missing; run `npm install` and upload the lock file it writes "
                         "(the arena installs exactly the versions it names, with `npm ci`)")
    try:
        lock = json.loads(lock_path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BuildError(f"{NPM_LOCK}: not valid JSON: {error}") from None
    if not isinstance(lock, dict) or not isinstance(lock.get("lockfileVersion"), int) or lock["lockfileVersion"] < 2:
        raise BuildError(f"{NPM_LOCK}: lockfileVersion 2 or 3 needed (npm 7 or later writes it)")
    packages = lock.get("packages")
    if not isinstance(packages, dict):
        raise BuildError(f"{NPM_LOCK}: no \"packages\" map")
    for where, package in packages.items():
        if where == "" or not isinstance(package, dict) or package.get("inBundle"):
            continue
        resolved, version, integrity = package.get("resolved"), package.get("version"), package.get("integrity")
        # npm leaves ``resolved`` out for the default registry when omit-lockfile-registry-resolved is set
        from_registry = resolved.startswith(NPM_REGISTRY) if isinstance(resolved, str) else (
            resolved is None and isinstance(version, str) and SEMVER.fullmatch(version) is not None)
        if package.get("link") or not from_registry:
            raise BuildError(f"{NPM_LOCK}: {where}: {resolved or version!r}: the arena installs packages from "
                             f"{NPM_REGISTRY} only (no git, file, link or other registry dependencies)")
        if not isinstance(integrity, str) or not re.fullmatch(r"sha(512|384|256)-[A-Za-z0-9+/=]+", integrity):
            raise BuildError(f"{NPM_LOCK}: {where}: no integrity hash (run `npm install` again to write one)")
    return lock


def npm_fetch(src: Path, deps: Path, limits: BuildLimits) -> None:
    """``npm ci`` on the host in a scratch folder holding only ``package.json`` and the lock, every script off,
    into the npm cache ``deps/npm-cache``; the scratch ``node_modules`` is thrown away (the sandbox installs
    from the cache, and npm checks every tarball against the lock's integrity hash)."""
    check_npm_lock(src)
    scratch = deps / "fetch"
    scratch.mkdir()
    for name in ("package.json", NPM_LOCK):
        shutil.copyfile(src / name, scratch / name)
    argv = ["/usr/bin/npm", "ci", *NPM_FLAGS, "--cache", str(deps / NPM_CACHE), "--prefer-online"]
    # the worker's own npm configuration applies (a deployer's proxy or CA), as the worker's pip.conf does
    env = {**os.environ, "npm_config_logs_dir": str(scratch / "logs")}
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=limits.download_s, check=False,
                                stdin=subprocess.DEVNULL, cwd=scratch, env=env)
    except subprocess.TimeoutExpired:
        raise BuildError(f"npm: fetching the dependencies took longer than {limits.download_s:.0f} s") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    output = result.stdout + result.stderr
    if result.returncode == 0:
        return
    if NO_SPACE in output:
        raise BuildError(f"npm: the dependencies weigh more than the {limits.wheelhouse_bytes / MB:g} MB download "
                         f"limit:\n{tail(output, 3)}")
    if re.search(r"ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH", output):
        raise IndexUnreachable(f"npm: the registry is unreachable:\n{tail(output)}")
    raise BuildError(f"npm ci failed fetching the dependencies of {NPM_LOCK} (exit {result.returncode}):\n"
                     f"{tail(output)}")


def _npm(*args: str) -> tuple[str, ...]:
    """An npm command of the sandboxed steps: offline, from the fetched cache only."""
    return ("npm", *args, *NPM_FLAGS, "--offline", "--cache", f"{IN_DEPS}/{NPM_CACHE}")


NODE_TOOLS = {"/usr/bin/node": "nodejs", "/usr/bin/npm": "npm"}
NODE_VERSIONS = (("/usr/bin/node", "--version"),)

# ---------------------------------------------------------------- make (Go, C++, Java)

MAKE_STEPS = (("make", "-j2"),)
"""The compiled kits' build: their Makefile makes ``build/durak-bot`` (bots_sdk/botdir.py) from the sources."""


def debian_recipe(language: str, needs: Mapping[str, str], fetch: Fetch | None = None,
                  env: Mapping[str, str] | None = None) -> Recipe:
    """A language whose toolchain and gRPC library are Debian packages on the worker: nothing is downloaded, and
    the packages' versions are the toolchain tag, so a Debian upgrade of any of them rebuilds the bot.

    ``needs`` maps a program, or a folder of a library package, to the package; a missing one refuses the build
    saying what to install."""
    needs = {"/usr/bin/make": "make", "/usr/bin/protoc": "protobuf-compiler", **needs}
    packages = sorted(set(needs.values()))
    versions = ("/usr/bin/dpkg-query", "-W", "-f", "${Package}\t${Version}\n", *packages)
    return Recipe(language, needs, (versions,), fetch, steps=MAKE_STEPS, env=env or {})


def go_fetch(src: Path, deps: Path, limits: BuildLimits) -> None:
    """The warm Go build cache of Debian's libraries for this toolchain (worker/builds/gocache.py)."""
    gocache.fetch(RECIPES["go"].toolchain_tag(), deps, limits)


GOCODE = "/usr/share/gocode/src"
MAVEN = "/usr/share/maven-repo"
GO = debian_recipe("go", {
    "/usr/bin/go": "golang-go", "/usr/bin/protoc-gen-go": "protoc-gen-go",
    "/usr/bin/protoc-gen-go-grpc": "protoc-gen-go-grpc", f"{GOCODE}/google.golang.org/grpc": "golang-google-grpc-dev",
    f"{GOCODE}/google.golang.org/protobuf": "golang-google-protobuf-dev",
    # grpc-go's protobuf codec needs the 1.5 API of github.com/golang/protobuf (1.3 decodes nothing generated now)
    f"{GOCODE}/github.com/golang/protobuf/internal/gengogrpc": "golang-github-golang-protobuf-1-5-dev",
}, go_fetch, {"GOCACHE": gocache.IN_CACHE})
CPP = debian_recipe("cpp", {
    "/usr/bin/g++": "g++", "/usr/bin/pkg-config": "pkgconf", "/usr/bin/grpc_cpp_plugin": "protobuf-compiler-grpc",
    "/usr/include/grpcpp": "libgrpc++-dev", "/usr/include/google/protobuf": "libprotobuf-dev",
})
JAVA = debian_recipe("java", {
    "/usr/lib/jvm/default-java/bin/javac": "default-jdk-headless",
    "/usr/bin/grpc_java_plugin": "protobuf-compiler-grpc-java-plugin",
    f"{MAVEN}/io/grpc/grpc-netty": "libgrpc-java", f"{MAVEN}/com/google/protobuf/protobuf-java": "libprotobuf-java",
    # what libgrpc-java needs but does not depend on
    f"{MAVEN}/io/netty/netty-codec-http2": "libnetty-java", f"{MAVEN}/com/google/guava/guava": "libguava-java",
    f"{MAVEN}/io/perfmark/perfmark-api": "libperfmark-java",
    f"{MAVEN}/com/google/code/gson/gson": "libgoogle-gson-java",
    f"{MAVEN}/org/apache/geronimo/specs/geronimo-annotation_1.3_spec": "libgeronimo-annotation-1.3-spec-java",
})

RECIPES: dict[str, Recipe] = {
    recipe.language: recipe for recipe in (
        Recipe("javascript", NODE_TOOLS, NODE_VERSIONS, npm_fetch, steps=(_npm("ci", "--omit=dev"),)),
        Recipe("typescript", NODE_TOOLS, NODE_VERSIONS, npm_fetch, steps=(
            _npm("ci"),
            ("node", "node_modules/typescript/bin/tsc", "--project", "tsconfig.json"),
            _npm("prune", "--omit=dev"),  # the compiler is not part of the stored bot
        )),
        GO, CPP, JAVA,
    )
}
"""Every language of ``bots_sdk.botdir.LANGUAGES`` has its recipe here (tests/worker/test_languages.py)."""
