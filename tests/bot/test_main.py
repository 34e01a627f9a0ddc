"""``python -m bot``: configuration errors, logging set-up, polling and webhook wiring."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

import bot.__main__ as entry

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bot`` in an empty directory (no ``.env``) with only ``env`` set."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TAPETE_", "TELEGRAM_"))}
    clean.pop("REDIS_URL", None)
    clean["PYTHONPATH"] = str(ROOT)
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_missing_token_is_one_clear_line(tmp_path: Path) -> None:
    done = run_bot(tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("tapete: TELEGRAM_BOT_TOKEN is not set")
    assert "Traceback" not in done.stderr


def test_unreachable_bot_api_is_one_clear_line(tmp_path: Path) -> None:
    done = run_bot(
        tmp_path, TELEGRAM_BOT_TOKEN="1:SECRET", TAPETE_TELEGRAM_API_URL="http://127.0.0.1:9/bot"
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("tapete: cannot reach the Telegram Bot API at http://127.0.0.1:9")
    assert "Traceback" not in done.stderr and "SECRET" not in done.stderr


def test_bad_values_are_named_on_one_line(tmp_path: Path) -> None:
    done = run_bot(
        tmp_path, TELEGRAM_BOT_TOKEN="1:x", TAPETE_TURN_TIMEOUT="0", TAPETE_LANGUAGE="fr"
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "TAPETE_TURN_TIMEOUT" in lines[0] and "TAPETE_LANGUAGE" in lines[0]


def test_webhook_needs_its_url(tmp_path: Path) -> None:
    done = run_bot(tmp_path, "--webhook", TELEGRAM_BOT_TOKEN="1:x")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "tapete: --webhook needs TAPETE_WEBHOOK_URL (the public HTTPS URL of this bot)"
    ]


def test_unreachable_redis_is_one_line_without_the_password(tmp_path: Path) -> None:
    done = run_bot(tmp_path, TELEGRAM_BOT_TOKEN="1:x", REDIS_URL="redis://:hunter2@127.0.0.1:1/0")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("tapete: cannot reach Redis at redis://***@127.0.0.1:1/0")
    assert "hunter2" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set")
def test_reachable_redis_passes_the_check() -> None:
    assert entry.redis_problem(os.environ["REDIS_URL"]) is None


def test_safe_url() -> None:
    assert entry.safe_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
    assert entry.safe_url("rediss://user:pw@h:1/2") == "rediss://***@h:1/2"


# --- in-process: wiring with a stand-in for bot.app -------------------------------------------


class FakeApplication:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def run_polling(self, **kwargs: Any) -> None:
        self.calls.append(("polling", kwargs))

    def run_webhook(self, **kwargs: Any) -> None:
        self.calls.append(("webhook", kwargs))


@pytest.fixture
def fake_app(monkeypatch: pytest.MonkeyPatch) -> FakeApplication:
    app = FakeApplication()
    module = types.ModuleType("bot.app")
    built: list[Any] = []

    def build_application(settings: Any, **kwargs: Any) -> FakeApplication:
        built.append(settings)
        return app

    module.build_application = build_application  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.app", module)
    for name in list(os.environ):
        if name.startswith(("TAPETE_", "TELEGRAM_")) or name == "REDIS_URL":
            monkeypatch.delenv(name)
    monkeypatch.chdir(ROOT / "tests")  # no .env here
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123456:SECRET-token")
    monkeypatch.setattr(entry, "bot_api_problem", lambda settings: None)  # no network here
    # main() reconfigures the root logger: restore it afterwards.
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", list(root.handlers))
    monkeypatch.setattr(root, "level", root.level)
    return app


def test_polling_by_default_and_warns_about_the_temporary_store(
    fake_app: FakeApplication, capsys: pytest.CaptureFixture[str]
) -> None:
    assert entry.main([]) == 0
    assert fake_app.calls == [("polling", {"bootstrap_retries": -1})]  # Telegram may refuse
    err = capsys.readouterr().err
    assert "storage: a temporary SQLite file" in err and "tables are lost on restart" in err
    assert logging.getLogger("httpx").level == logging.WARNING


def test_webhook_mode(fake_app: FakeApplication, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAPETE_WEBHOOK_URL", "https://bot.example.org/tg/hook")
    monkeypatch.setenv("TAPETE_WEBHOOK_PORT", "8080")
    monkeypatch.setenv("TAPETE_WEBHOOK_SECRET", "s3cret_X")
    monkeypatch.setenv("REDIS_URL", "redis://redis.example:6379/0")
    monkeypatch.setattr(entry, "redis_problem", lambda url, cluster: None)
    assert entry.main(["--webhook"]) == 0
    assert fake_app.calls == [
        (
            "webhook",
            {
                "listen": "0.0.0.0",
                "port": 8080,
                "url_path": "tg/hook",
                "secret_token": "s3cret_X",
                "webhook_url": "https://bot.example.org/tg/hook",
                "bootstrap_retries": -1,
            },
        )
    ]


def test_logs_never_show_the_token(
    fake_app: FakeApplication, capsys: pytest.CaptureFixture[str]
) -> None:
    entry.main([])
    capsys.readouterr()
    logging.getLogger("telegram.ext").warning(
        "POST https://api.telegram.org/bot123456:SECRET-token/getMe failed"
    )
    try:
        raise RuntimeError("url was /bot123456:SECRET-token/sendMessage")
    except RuntimeError:
        logging.getLogger("bot").exception("boom")
    err = capsys.readouterr().err
    assert "SECRET-token" not in err
    assert "/bot***/getMe" in err and "/bot***/sendMessage" in err
