"""The package's metadata and the image's dependency lock: the licence the metadata names is
shipped, the version is reported, and requirements.lock pins every runtime dependency
within pyproject.toml's specifiers (a stale lock fails with the command that rebuilds it)."""

from __future__ import annotations

import os
import re
import runpy
import shutil
import subprocess
import sys
import tomllib
import zipfile
from importlib.metadata import requires, version
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

import cardavia
from cardavia.cli import main

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
COMPILE = (
    "uv pip compile pyproject.toml --generate-hashes --python-version 3.11 --universal -o requirements.lock"
)
"""How requirements.lock is made (uv comes with the dev extra)."""


def _project() -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return project


def _locked() -> dict[str, tuple[str, list[str]]]:
    """Each pinned package: its version and its hashes."""
    pins: dict[str, tuple[str, list[str]]] = {}
    for entry in re.split(r"\n(?=\S)", LOCK.read_text(encoding="utf-8")):
        if entry.startswith("#") or not entry.strip():
            continue
        requirement = Requirement(entry.split("\\")[0].split("#")[0].strip())
        (pin,) = requirement.specifier
        assert pin.operator == "==", entry
        hashes = re.findall(r"--hash=sha256:([0-9a-f]{64})", entry)
        pins[canonicalize_name(requirement.name)] = (pin.version, hashes)
    return pins


def test_the_licence_the_metadata_names_is_the_one_shipped() -> None:
    project = _project()
    assert project["project"]["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 The Cardavia developers" in text


def test_the_build_asks_for_a_setuptools_that_reads_an_spdx_licence() -> None:
    """`license = "MIT"` is an SPDX expression (PEP 639), which setuptools reads from 77 on;
    an older one rejects the table-less `license` outright, so the build must not accept it."""
    (setuptools,) = [
        Requirement(r)
        for r in _project()["build-system"]["requires"]
        if canonicalize_name(Requirement(r).name) == "setuptools"
    ]
    assert not any(setuptools.specifier.contains(old) for old in ("61.0", "76.0", "76.1.0", "76.99.99"))
    assert all(setuptools.specifier.contains(new) for new in ("77.0", "77.0.3", "80.9.0"))


def test_the_project_links_and_the_changelog() -> None:
    project = _project()["project"]
    assert set(project["urls"]) == {"Homepage", "Documentation", "Changelog", "Issues"}
    assert all(url.startswith("https://github.com/cardavia/cardavia") for url in project["urls"].values())
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog
    assert f"## [{project['version']}]" in changelog


def test_the_version_is_reported_the_same_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    project = _project()["project"]
    assert cardavia.__version__ == project["version"] == version("cardavia")
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"cardavia {cardavia.__version__}\n"


def test_the_command_reports_its_version_too() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "cardavia", "--version"], capture_output=True, text=True, check=False
    )
    assert (run.returncode, run.stdout) == (0, f"cardavia {cardavia.__version__}\n")


def test_the_terminal_client_is_an_extra_the_server_goes_without() -> None:
    project = _project()["project"]
    runtime = {canonicalize_name(Requirement(r).name) for r in project["dependencies"]}
    extras = project["optional-dependencies"]
    assert "textual" not in runtime
    assert [Requirement(r).name for r in extras["tui"]] == ["textual"]
    assert "cardavia[tui]" in extras["dev"]  # the terminal client's tests need it
    assert "textual" not in _locked()


def test_the_lock_pins_every_runtime_dependency_within_its_specifier_with_hashes() -> None:
    """Fails when pyproject.toml's dependencies change and requirements.lock is not rebuilt."""
    assert LOCK.exists(), f"requirements.lock is missing: run `{COMPILE}`"
    pins = _locked()
    stale = []
    for text in _project()["project"]["dependencies"]:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        if name not in pins:
            stale.append(f"{requirement.name} is not in the lock")
            continue
        pinned = pins[name][0]
        if not requirement.specifier.contains(pinned, prereleases=True):
            stale.append(f"{requirement.name}=={pinned} does not satisfy {requirement}")
        # what an extra brings (redis[hiredis] brings hiredis) must be pinned as well
        for extra in requirement.extras:
            for needed in map(Requirement, requires(requirement.name) or []):
                wanted = needed.marker is not None and needed.marker.evaluate({"extra": extra})
                if wanted and canonicalize_name(needed.name) not in pins:
                    stale.append(f"{needed.name} (from {requirement.name}[{extra}]) is not in the lock")
    assert not stale, (
        "requirements.lock is out of step with pyproject.toml: "
        + "; ".join(stale)
        + (f". Regenerate it with `{COMPILE}`")
    )
    unhashed = [name for name, (_, hashes) in pins.items() if not hashes]
    assert not unhashed, f"pinned without hashes: {unhashed}; regenerate with `{COMPILE}`"


_NOT_SOURCES = shutil.ignore_patterns(
    ".git",
    ".venv",
    "node_modules",
    "build",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    "records",
)
"""What a checkout holds besides the sources: the build would only copy it, or write into it."""

_SETUPTOOLS_WARNINGS = ("_Warning", "SetuptoolsDeprecationWarning", "SetuptoolsWarning", "would be ignored")


def test_the_wheel_builds_without_setuptools_warnings_and_ships_the_page_and_the_catalogues(
    tmp_path: Path,
) -> None:
    """Setuptools warns about data it will stop shipping (an importable folder missing from
    `packages`) long before it stops, and only in a build's verbose output; the built page and
    the catalogues are what the server serves, so the wheel is built here and read back.

    Built from a copy: the build writes build/ and an egg-info into the folder it builds."""
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=_NOT_SOURCES)
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--verbose", "-w", str(tmp_path / "wheel"), "."],
        cwd=source,
        capture_output=True,
        text=True,
        check=False,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-4000:]
    warned = [line for line in output.splitlines() if any(w in line for w in _SETUPTOOLS_WARNINGS)]
    assert not warned, "\n".join(warned)
    # the isolated build environment got a setuptools that reads `license = "MIT"`
    installed = re.search(r"Successfully installed .*\bsetuptools-(\S+)", output)
    assert installed is not None, output[-4000:]
    assert Version(installed.group(1)) >= Version("77")

    (wheel,) = (tmp_path / "wheel").glob("cardavia-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        assert "License-Expression: MIT" in archive.read(metadata).decode().splitlines()
    page = {n.removeprefix("cardavia/clients/web/dist/") for n in names if "/web/dist/" in n}
    assert {"index.html", "manifest.json"} <= page
    assert [n for n in page if re.fullmatch(r"app\.\w+\.js", n)]
    assert [n for n in page if re.fullmatch(r"app\.\w+\.css", n)]
    assert page == {p.name for p in (source / "clients/web/dist").iterdir()}
    catalogues = {p.name for p in (source / "protocol/catalogues").glob("*.json")}
    assert catalogues
    assert {f"cardavia/protocol/catalogues/{name}" for name in catalogues} <= names
    scripts = {p.name for p in (source / "server/lua").glob("*.lua")}  # the Redis lobby's Lua scripts
    assert scripts
    assert {f"cardavia/server/lua/{name}" for name in scripts} <= names
    assert {"cardavia/py.typed", "cardavia/cli.py", "cardavia/server/app.py"} <= names
    assert "cardavia/games/data/traditions.json" in names
    assert "cardavia/bots/data/ratings.json" in names  # the bots' fixed ratings
    assert not [n for n in names if n.startswith(("tests/", "cardavia/tests/", "clients/"))]

    # what mypy and import-linter are given (scripts/package_tree.py) is the package as shipped:
    # the same modules under the same names, and a link tree with the wheel's layout
    tree = runpy.run_path(str(source / "scripts" / "package_tree.py"))
    shipped = {n for n in names if n.endswith(".py")}
    assert {name for _, name in tree["modules"](source)} == {
        n.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for n in shipped
    }
    linked = tree["link_tree"](tmp_path / "tree", source)
    walked = os.walk(linked, followlinks=True)  # as import-linter's graph walks it
    assert {
        os.path.relpath(os.path.join(d, f), linked) for d, _, fs in walked for f in fs if f.endswith(".py")
    } == shipped
