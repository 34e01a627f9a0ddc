"""Settings: environment variable names, defaults, validation, keyword construction."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import ENV_NAMES, Settings, describe_error


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import os

    for name in list(os.environ):
        if name.startswith(("TAPETE_", "TELEGRAM_")) or name in ("REDIS_URL", "LANGUAGE"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_defaults() -> None:
    s = Settings(telegram_bot_token="1:x")
    assert s.redis_url is None and s.telegram_api_url is None
    assert s.redis_prefix == "tapete"
    assert s.language == "es"
    assert s.turn_timeout == 120 and s.timer_tick == 1.0
    assert s.table_ttl > 0
    assert s.webhook_url is None and s.webhook_secret is None
    assert (s.webhook_listen, s.webhook_port) == ("0.0.0.0", 8443)
    assert s.log_level == "INFO"


def test_environment_names(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {
        "TELEGRAM_BOT_TOKEN": " 123:abc ",
        "REDIS_URL": "redis://r:6379/1",
        "TAPETE_REDIS_PREFIX": "tapete-2",
        "TAPETE_REDIS_CLUSTER": "1",
        "TELEGRAM_API_URL": "http://127.0.0.1:8081/bot",
        "TAPETE_LANGUAGE": "EN",
        "TAPETE_TURN_TIMEOUT": "2.5",
        "TAPETE_NUDGE_AFTER": "20",
        "TAPETE_TIMER_TICK": "0.2",
        "TAPETE_SWEEP_BATCH": "7",
        "TAPETE_CONCURRENT_UPDATES": "8",
        "TAPETE_ANSWER_QUIET": "5",
        "TAPETE_PUBLISH_HOLD": "0.5",
        "TAPETE_API_TIMEOUT": "2.5",
        "TAPETE_TABLE_TTL": "3600",
        "TAPETE_RECORDS_KEEP": "50",
        "TAPETE_WEBHOOK_URL": "https://x.org/hook",
        "TAPETE_WEBHOOK_LISTEN": "127.0.0.1",
        "TAPETE_WEBHOOK_PORT": "8080",
        "TAPETE_WEBHOOK_SECRET": "abc-DEF_1",
        "TAPETE_WEBAPP_URL": "https://x.org/mesa/",
        "TAPETE_WEBAPP_LISTEN": "127.0.0.1",
        "TAPETE_WEBAPP_PORT": "8091",
        "TAPETE_LOG_LEVEL": "debug",
        "TAPETE_COMPUTER_PAUSE": "0.5",
        "TAPETE_METRICS_PORT": "9090",
        "TAPETE_METRICS_LISTEN": "127.0.0.1",
        "TAPETE_LOG_FORMAT": "JSON",
        "TAPETE_SQLITE_PATH": "data/t.sqlite3",
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    s = Settings()  # type: ignore[call-arg]
    assert s.model_dump() == {
        "telegram_bot_token": "123:abc",
        "redis_url": "redis://r:6379/1",
        "redis_prefix": "tapete-2",
        "redis_cluster": True,
        "sqlite_path": "data/t.sqlite3",
        "telegram_api_url": "http://127.0.0.1:8081/bot",
        "language": "en",
        "turn_timeout": 2.5,
        "nudge_after": 20.0,
        "computer_pause": 0.5,
        "timer_tick": 0.2,
        "sweep_batch": 7,
        "concurrent_updates": 8,
        "api_timeout": 2.5,
        "publish_hold": 0.5,
        "answer_quiet": 5.0,
        "table_ttl": 3600,
        "records_keep": 50,
        "webhook_url": "https://x.org/hook",
        "webhook_listen": "127.0.0.1",
        "webhook_port": 8080,
        "webhook_secret": "abc-DEF_1",
        "webapp_url": "https://x.org/mesa/",
        "webapp_listen": "127.0.0.1",
        "webapp_port": 8091,
        "metrics_port": 9090,
        "metrics_listen": "127.0.0.1",
        "log_format": "json",
        "log_level": "DEBUG",
    }
    assert set(ENV_NAMES.values()) == set(env)
    assert s.webhook_path == "hook"
    assert s.webapp_path == "/mesa"


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://tapete.example.org/mesa/", True),
        ("http://127.0.0.1:8090/", True),
        ("http://localhost/mesa", True),
        ("http://[::1]:8090/", True),
        ("http://tapete.example.org/", False),  # plain http over a network
        ("http://10.0.0.5/", False),
        ("ftp://x.org/", False),
        ("https:///mesa", False),
    ],
)
def test_the_mini_app_url_is_https_or_loopback(url: str, ok: bool) -> None:
    if ok:
        assert Settings(telegram_bot_token="t", webapp_url=url).webapp_url == url
    else:
        with pytest.raises(ValidationError, match="https"):
            Settings(telegram_bot_token="t", webapp_url=url)
    assert Settings(telegram_bot_token="t", webapp_url=" ").webapp_url is None


def test_dot_env_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("TELEGRAM_BOT_TOKEN=from-file\nTAPETE_LANGUAGE=en\n")
    s = Settings()  # type: ignore[call-arg]
    assert (s.telegram_bot_token, s.language) == ("from-file", "en")


def test_unrelated_variables_are_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "fr_FR:fr")
    monkeypatch.setenv("TURN_TIMEOUT", "-1")
    s = Settings(telegram_bot_token="1:x")
    assert (s.language, s.turn_timeout) == ("es", 120)


def test_blank_optional_values_mean_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", "")
    monkeypatch.setenv("TELEGRAM_API_URL", " ")
    s = Settings(telegram_bot_token="1:x")
    assert s.redis_url is None and s.telegram_api_url is None


def test_token_is_required_and_not_blank() -> None:
    with pytest.raises(ValidationError) as missing:
        Settings()  # type: ignore[call-arg]
    assert describe_error(missing.value).startswith("TELEGRAM_BOT_TOKEN is not set")
    with pytest.raises(ValidationError):
        Settings(telegram_bot_token="  ")


@pytest.mark.parametrize(
    ("field", "value", "env"),
    [
        ("turn_timeout", 0, "TAPETE_TURN_TIMEOUT"),
        ("turn_timeout", -5, "TAPETE_TURN_TIMEOUT"),
        ("timer_tick", 0, "TAPETE_TIMER_TICK"),
        ("table_ttl", 0, "TAPETE_TABLE_TTL"),
        ("language", "fr", "TAPETE_LANGUAGE"),
        ("webhook_port", 70000, "TAPETE_WEBHOOK_PORT"),
        ("webhook_secret", "has space", "TAPETE_WEBHOOK_SECRET"),
        ("log_level", "LOUD", "TAPETE_LOG_LEVEL"),
        ("redis_prefix", "has space", "TAPETE_REDIS_PREFIX"),
        ("redis_prefix", "", "TAPETE_REDIS_PREFIX"),
    ],
)
def test_bad_values_are_refused_with_the_variable_name(field: str, value: object, env: str) -> None:
    with pytest.raises(ValidationError) as error:
        Settings(telegram_bot_token="1:x", **{field: value})
    line = describe_error(error.value)
    assert line.startswith(f"{env}: ") and "\n" not in line


def test_secrets_stay_out_of_repr() -> None:
    s = Settings(telegram_bot_token="123:very-secret", webhook_secret="hush")
    assert "very-secret" not in repr(s) and "hush" not in repr(s)
    assert "very-secret" not in str(s)


def test_settings_are_frozen() -> None:
    s = Settings(telegram_bot_token="1:x")
    with pytest.raises(ValidationError):
        s.language = "en"  # type: ignore[misc]


def test_docstring_examples() -> None:
    import doctest

    import bot.settings
    import bot.store.budget
    import bot.store.keys
    import bot.store.rules
    import bot.store.scripts

    store = bot.store
    for module in (
        bot.settings,
        store.rules,
        store.keys,
        store.scripts,
        store.budget,
    ):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__
