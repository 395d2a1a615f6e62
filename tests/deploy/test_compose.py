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
ESCAPED_OR_VARIABLE = re.compile(r"\$\$|" + VARIABLE.pattern)
PROFILE = "redis-cluster"
"""The profile that puts the lobby on a Redis Cluster of its own."""


def _raw() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    return loaded


def _interpolated(value: Any, variables: dict[str, str]) -> Any:
    """Compose's ${NAME:-default} interpolation, with ``variables`` as the environment ($$ is a $)."""
    if isinstance(value, dict):
        return {k: _interpolated(v, variables) for k, v in value.items()}
    if isinstance(value, list):
        return [_interpolated(v, variables) for v in value]
    if isinstance(value, str):
        return ESCAPED_OR_VARIABLE.sub(
            lambda m: "$" if m[0] == "$$" else variables.get(m[1]) or m[2] or "", value
        )
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


def _nodes(compose: dict[str, Any], profile: str | None = None) -> dict[str, dict[str, Any]]:
    """The server nodes ``docker compose up`` starts (no profile), or those of ``profile``."""
    return {name: s for name, s in _in_profile(compose, profile).items() if _command(s)[:1] == ["serve"]}


def _in_profile(compose: dict[str, Any], profile: str | None) -> dict[str, dict[str, Any]]:
    """The services with no profile (``profile`` None: always started), or those of ``profile``."""
    return {
        name: s
        for name, s in compose["services"].items()
        if (profile in s["profiles"] if "profiles" in s else profile is None)
    }


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


@pytest.mark.parametrize("profile", [None, PROFILE])
def test_two_nodes_with_their_own_ids_public_urls_and_host_ports(
    compose: dict[str, Any], profile: str | None
) -> None:
    nodes = _nodes(compose, profile)
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


@pytest.mark.parametrize("profile", [None, PROFILE])
def test_nodes_check_health_as_the_image_does_and_drain_on_sigterm(
    compose: dict[str, Any], profile: str | None
) -> None:
    for service in _nodes(compose, profile).values():
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


@pytest.mark.parametrize("profile", [None, PROFILE])
def test_the_local_cluster_sets_the_same_variables_as_the_compose_nodes(
    compose: dict[str, Any], profile: str | None
) -> None:
    cluster = LocalCluster(2)
    for index, service in enumerate(_nodes(compose, profile).values()):
        # the local cluster keeps its lobby under a prefix of its own; compose's Redis is its own
        variables = set(cluster.node_environment(index)) - {"CARDAVIA_REDIS_PREFIX"}
        assert variables == set(_environment(service))


def test_every_variable_has_a_default_and_every_setting_a_value(compose: dict[str, Any]) -> None:
    text = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    variables = {m[1]: m[2] for m in VARIABLE.finditer(text)}
    # documented at the top and in deploy/README.md
    assert variables == {"REDIS_PASSWORD": "cardavia-local", "POSTGRES_PASSWORD": "cardavia-local"}
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


def test_every_node_shares_the_postgresql_that_asks_for_the_password_they_give(
    compose: dict[str, Any],
) -> None:
    for environment in ({}, {"POSTGRES_PASSWORD": "s3cret-from-the-environment"}):
        services = _interpolated(_raw(), environment)["services"]
        postgres = services["postgres"]
        password = environment.get("POSTGRES_PASSWORD", "cardavia-local")
        assert postgres["environment"]["POSTGRES_PASSWORD"] == password
        for profile in (None, PROFILE):
            for service in _nodes({"services": services}, profile).values():
                url = urlsplit(ServerConfig.from_env(_environment(service)).database_url)
                assert url.scheme == "postgresql"
                assert url.hostname == "postgres"
                assert url.password == password
                assert url.path == "/" + postgres["environment"]["POSTGRES_DB"]
                assert service["depends_on"]["postgres"] == {"condition": "service_healthy"}
    assert any(v.endswith(":/var/lib/postgresql/data") for v in compose["services"]["postgres"]["volumes"])


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


# ------------------------------------------------------------ profile redis-cluster
def _cluster_redis(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The profile's Redis nodes: Redis's image, serving (the one-shot that forms them runs and exits)."""
    return {
        name: s
        for name, s in _in_profile(compose, PROFILE).items()
        if s.get("image", "").startswith("redis:") and "--cluster create" not in _shell(s)
    }


def _shell(service: dict[str, Any]) -> str:
    """The script of a ``sh -c SCRIPT`` command (empty for any other command)."""
    command = service.get("command", [])
    return str(command[2]) if command[:2] == ["sh", "-c"] else ""


def _redis_server_options(service: dict[str, Any]) -> dict[str, str]:
    words = shlex.split(_shell(service))
    assert words[:2] == ["exec", "redis-server"], words
    options = words[2:]
    assert all(o.startswith("--") for o in options[::2]), options
    return dict(zip(options[::2], options[1::2], strict=True))


def test_the_profile_runs_beside_the_default_services_and_they_never_need_it(compose: dict[str, Any]) -> None:
    default, cluster = _in_profile(compose, None), _in_profile(compose, PROFILE)
    assert set(default).isdisjoint(cluster)
    assert set(default) | set(cluster) == set(compose["services"])
    for service in default.values():  # `docker compose up` without the profile starts all it needs
        assert set(service.get("depends_on", {})) <= set(default)
    ours = [ServerConfig.from_env(_environment(s)) for s in _nodes(compose, None).values()]
    theirs = [ServerConfig.from_env(_environment(s)) for s in _nodes(compose, PROFILE).values()]
    assert {c.node_id for c in ours}.isdisjoint(c.node_id for c in theirs)
    assert {c.public_url for c in ours}.isdisjoint(c.public_url for c in theirs)
    host_ports = [p for s in compose["services"].values() for p in _published(s).values()]
    assert len(host_ports) == len(set(host_ports))


def test_six_cluster_nodes_of_the_single_redis_image_persist_and_ask_for_the_password(
    compose: dict[str, Any],
) -> None:
    nodes = _cluster_redis(compose)
    assert len(nodes) == 6  # three masters, a replica each
    for name, service in nodes.items():
        assert service["image"] == compose["services"]["redis"]["image"]
        options = _redis_server_options(service)
        assert options["--cluster-enabled"] == "yes"
        assert options["--appendonly"] == "yes"
        assert options["--appendfsync"] == "everysec"
        assert options["--maxmemory-policy"] == "noeviction"
        limit = _bytes(service["deploy"]["resources"]["limits"]["memory"])
        assert _bytes(options["--maxmemory"]) <= limit * 0.6
        # the password is the one the health check's redis-cli logs in with, and a replica
        # gives its master the same
        assert options["--requirepass"] == options["--masterauth"] == "$REDISCLI_AUTH"
        assert service["environment"]["REDISCLI_AUTH"] == "cardavia-local"
        # it announces its name, which is its service's: a MOVED reply leads the client there
        assert (service["hostname"], options["--cluster-announce-hostname"]) == (name, "$(hostname)")
        assert options["--cluster-preferred-endpoint-type"] == "hostname"
        assert service["healthcheck"]["test"][1:] == ["redis-cli", "ping"]
        (volume,) = service["volumes"]
        volume_name, path = volume.split(":")
        assert path == "/data"
        assert volume_name in compose["volumes"]
    assert len({v for s in nodes.values() for v in s["volumes"]}) == 6  # a volume each


def test_a_one_shot_forms_the_cluster_from_all_six_once_they_are_healthy(compose: dict[str, Any]) -> None:
    nodes = _cluster_redis(compose)
    (create,) = [s for s in _in_profile(compose, PROFILE).values() if "--cluster create" in _shell(s)]
    assert create["image"] == compose["services"]["redis"]["image"]
    assert create["restart"] == "no"
    assert {name: d["condition"] for name, d in create["depends_on"].items()} == dict.fromkeys(
        nodes, "service_healthy"
    )
    script = _shell(create)
    assert "--cluster-replicas 1" in script
    assert "--cluster-yes" in script
    # CLUSTER MEET takes addresses: each node is looked up by its name, and every node is named
    looked_up = re.search(r"for n in ([\d ]+); do .*getent hosts (\S+)\$n ", script)
    assert looked_up, script
    assert {looked_up[2] + n for n in looked_up[1].split()} == set(nodes)
    # a cluster formed on an earlier run is left as it is, and it ends once every slot is served
    assert script.startswith("redis-cli -h redis-cluster-1 cluster info | grep -q cluster_state:ok ||")
    assert script.endswith("do sleep 1; done")
    assert create["environment"]["REDISCLI_AUTH"] == "cardavia-local"


def test_the_clusters_nodes_share_a_lobby_on_it_once_it_is_formed(compose: dict[str, Any]) -> None:
    redis_nodes = _cluster_redis(compose)
    (create,) = set(_in_profile(compose, PROFILE)) - set(redis_nodes) - set(_nodes(compose, PROFILE))
    for environment in ({}, {"REDIS_PASSWORD": "s3cret-from-the-environment"}):
        services = _interpolated(_raw(), environment)["services"]
        password = environment.get("REDIS_PASSWORD", "cardavia-local")
        for service in _nodes({"services": services}, PROFILE).values():
            lobby = urlsplit(ServerConfig.from_env(_environment(service)).redis_url)
            assert lobby.scheme == "redis+cluster"
            assert lobby.hostname in redis_nodes
            assert lobby.port == 6379
            assert lobby.password == password
            assert {
                name: services[name]["environment"]["REDISCLI_AUTH"] for name in redis_nodes
            } == dict.fromkeys(redis_nodes, password)
            assert service["depends_on"] == {
                create: {"condition": "service_completed_successfully"},
                "postgres": {"condition": "service_healthy"},
            }
