"""docker-compose.yml: valid by the Compose Specification's schema, and in agreement with the
server's settings, the image and the local cluster (which sets the same variables)."""

from __future__ import annotations

import copy
import re
import shlex
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import pytest
import yaml
from check_jsonschema.builtin_schemas import get_builtin_schema

from cardavia.cli import build_parser
from cardavia.launcher import LocalCluster
from cardavia.server.config import ServerConfig
from tests.deploy.tools import ROOT, SERVER_VARIABLES, cardavia_variables, healthcheck_command

CONTAINER_RECORDS = "/var/lib/cardavia/records"
VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def _raw() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    return loaded


def _interpolated(value: Any, variables: dict[str, str]) -> Any:
    """Compose's ${NAME:-default} interpolation, with ``variables`` as the environment."""
    if isinstance(value, dict):
        return {k: _interpolated(v, variables) for k, v in value.items()}
    if isinstance(value, list):
        return [_interpolated(v, variables) for v in value]
    if isinstance(value, str):
        return VARIABLE.sub(lambda m: variables.get(m[1]) or m[2] or "", value)
    return value


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    """The file as `docker compose` reads it with no variable set: every default in place."""
    loaded: dict[str, Any] = _interpolated(_raw(), {})
    return loaded


def _validator() -> jsonschema.protocols.Validator:
    """The Compose Specification's schema as check-jsonschema ships it (compose-spec/compose-spec)."""
    schema = get_builtin_schema("vendor.compose-spec")
    kind = jsonschema.validators.validator_for(schema)
    return kind(schema, format_checker=kind.FORMAT_CHECKER)


def _nodes(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: s for name, s in compose["services"].items() if _command(s)[:1] == ["serve"]}


def _command(service: dict[str, Any]) -> list[str]:
    """A cardavia service's arguments: its command, or the image's CMD (serve)."""
    if "build" not in service:
        return []
    command = service.get("command", ["serve"])
    return shlex.split(command) if isinstance(command, str) else list(command)


def _environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment", {})
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {k: str(v) for k, v in env.items()}


def _published(service: dict[str, Any]) -> dict[int, int]:
    """Container port → host port."""
    ports = {}
    for item in service.get("ports", []):
        host, container = str(item).rsplit(":", 1)
        ports[int(container)] = int(host.rsplit(":", 1)[-1])
    return ports


def _option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_the_compose_file_is_valid_by_the_compose_specification(compose: dict[str, Any]) -> None:
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in _validator().iter_errors(compose)
    ]
    assert errors == []


def test_the_schema_check_catches_a_mistake(compose: dict[str, Any]) -> None:
    broken = copy.deepcopy(compose)
    broken["services"]["node-1"]["helthcheck"] = broken["services"]["node-1"].pop("healthcheck")
    assert not _validator().is_valid(broken)


def test_two_nodes_with_their_own_ids_public_urls_and_host_ports(compose: dict[str, Any]) -> None:
    nodes = _nodes(compose)
    assert len(nodes) == 2
    configs = {}
    for name, service in nodes.items():
        env = _environment(service)
        assert set(cardavia_variables(env)) == set(env)
        assert set(env) <= SERVER_VARIABLES
        config = configs[name] = ServerConfig.from_env(env)
        assert config.host == "0.0.0.0"
        published = _published(service)
        assert list(published) == [config.port]  # the port the node listens on is the one published
        url = urlsplit(config.public_url)
        assert (url.scheme, url.hostname, url.port) == ("ws", "localhost", published[config.port])
    assert len({c.node_id for c in configs.values()}) == 2
    assert len({c.public_url for c in configs.values()}) == 2
    assert len({c.redis_url for c in configs.values()}) == 1  # one shared lobby


def test_the_nodes_share_a_persistent_redis_and_wait_for_it(compose: dict[str, Any]) -> None:
    services = compose["services"]
    for service in _nodes(compose).values():
        lobby = urlsplit(ServerConfig.from_env(_environment(service)).redis_url)
        redis = services[lobby.hostname]
        assert redis["image"].startswith("redis:")
        assert lobby.port in (None, 6379)
        assert service["depends_on"][lobby.hostname]["condition"] == "service_healthy"
        assert redis["healthcheck"]["test"][1:] == ["redis-cli", "ping"]
        command = redis["command"]
        assert command[command.index("--appendonly") + 1] == "yes"
        (volume,) = redis["volumes"]
        name, path = volume.split(":")
        assert path == "/data"
        assert name in compose["volumes"]


def test_nodes_check_health_as_the_image_does_and_drain_on_sigterm(compose: dict[str, Any]) -> None:
    for service in _nodes(compose).values():
        assert service["healthcheck"]["test"] == ["CMD", *healthcheck_command()]
        assert service["stop_signal"] == "SIGTERM"
        assert int(service["stop_grace_period"].removesuffix("s")) > 10  # a client's close handshake
        records = ServerConfig.from_env(_environment(service)).records_dir
        assert records == CONTAINER_RECORDS
        assert f"records:{records}" in service["volumes"]


def test_the_bots_play_quick_matches_on_a_node_once_both_are_healthy(compose: dict[str, Any]) -> None:
    nodes = _nodes(compose)
    (bots,) = [s for s in compose["services"].values() if _command(s)[:1] == ["bot"]]
    args = build_parser().parse_args(_command(bots))
    assert args.quick
    assert args.count >= 2
    assert args.server in {ServerConfig.from_env(_environment(s)).public_url for s in nodes.values()}
    # redirects name the nodes' public URLs on this machine's localhost, which only the host network reaches
    assert bots["network_mode"] == "host"
    assert {name: d["condition"] for name, d in bots["depends_on"].items()} == dict.fromkeys(
        nodes, "service_healthy"
    )
    assert bots["healthcheck"] == {"disable": True}  # no /healthz of its own


def test_the_local_cluster_sets_the_same_variables_as_the_compose_nodes(compose: dict[str, Any]) -> None:
    cluster = LocalCluster(2)
    for index, service in enumerate(_nodes(compose).values()):
        # the local cluster keeps its lobby under a prefix of its own; compose's Redis is its own
        variables = set(cluster.node_environment(index)) - {"CARDAVIA_REDIS_PREFIX"}
        assert variables == set(_environment(service))


def test_every_variable_has_a_default_and_every_setting_a_value(compose: dict[str, Any]) -> None:
    text = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    variables = {m[1]: m[2] for m in VARIABLE.finditer(text)}
    assert variables == {"REDIS_PASSWORD": "cardavia-local"}  # documented at the top and in deploy/README.md
    assert "${" not in yaml.safe_dump(compose)


def test_redis_asks_for_the_password_the_nodes_give(compose: dict[str, Any]) -> None:
    for environment in ({}, {"REDIS_PASSWORD": "s3cret-from-the-environment"}):
        services = _interpolated(_raw(), environment)["services"]
        redis = services["redis"]
        password = _option(redis["command"], "--requirepass")
        assert password == environment.get("REDIS_PASSWORD", "cardavia-local")
        assert redis["environment"]["REDISCLI_AUTH"] == password  # the health check's redis-cli
        for service in _nodes({"services": services}).values():
            assert urlsplit(ServerConfig.from_env(_environment(service)).redis_url).password == password


def test_redis_refuses_writes_when_full_instead_of_evicting_the_lobby(compose: dict[str, Any]) -> None:
    redis = compose["services"]["redis"]
    command = redis["command"]
    assert _option(command, "--maxmemory-policy") == "noeviction"
    assert _option(command, "--appendfsync") == "everysec"
    maxmemory = _bytes(_option(command, "--maxmemory"))
    limit = _bytes(redis["deploy"]["resources"]["limits"]["memory"])
    assert maxmemory <= limit * 0.6  # room for the append-only file's rewrite and client buffers


def _bytes(size: str) -> int:
    found = re.fullmatch(r"(\d+)\s*([kmg]?)b?", size.lower())
    assert found, size
    return int(found[1]) * int(1024 ** " kmg".index(found[2] or " "))


def test_every_service_has_resource_reservations_and_limits(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        resources = service["deploy"]["resources"]
        for need in ("reservations", "limits"):
            assert set(resources[need]) == {"cpus", "memory"}, (name, need)
        assert _bytes(resources["reservations"]["memory"]) <= _bytes(resources["limits"]["memory"])
        assert float(resources["reservations"]["cpus"]) <= float(resources["limits"]["cpus"])


def test_ports_are_published_on_loopback_only(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        for item in service.get("ports", []):
            assert str(item).startswith("127.0.0.1:"), (name, item)
