"""What the deployment tests share: the checkout's root, the server's settings, the dev tools."""

from __future__ import annotations

import shutil
import sys
from dataclasses import fields
from pathlib import Path

import dockerfile

from cardavia.server.config import ENV_PREFIX, ServerConfig

ROOT = Path(__file__).resolve().parents[2]
SERVER_VARIABLES = frozenset(ENV_PREFIX + f.name.upper() for f in fields(ServerConfig))
"""Every variable ``ServerConfig.from_env`` reads."""


def tool(name: str, package: str) -> str:
    """A command-line tool installed by a dev dependency: the virtualenv's own first, then PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found is None:
        raise AssertionError(f"{name} is missing: it comes with the dev dependency {package}")
    return found


def cardavia_variables(environment: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in environment.items() if k.startswith(ENV_PREFIX)}


def dockerfile_stages() -> list[list[dockerfile.Command]]:
    """The Dockerfile's stages, each its list of instructions, as Docker's own parser reads them."""
    stages: list[list[dockerfile.Command]] = []
    for command in dockerfile.parse_file(str(ROOT / "Dockerfile")):
        if command.cmd == "FROM":
            stages.append([])
        if stages:
            stages[-1].append(command)
    return stages


def one(stage: list[dockerfile.Command], cmd: str) -> dockerfile.Command:
    found = [c for c in stage if c.cmd == cmd]
    assert len(found) == 1, f"the stage should have one {cmd}, has {len(found)}"
    return found[0]


def healthcheck_command() -> list[str]:
    """The HEALTHCHECK's command, without its CMD marker (docker-compose.yml repeats it)."""
    check = one(dockerfile_stages()[-1], "HEALTHCHECK")
    assert check.json
    assert check.value[0] == "CMD"
    return list(check.value[1:])
