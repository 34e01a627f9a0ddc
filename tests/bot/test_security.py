"""Security of the bot's own flow (unit level, StubBot + in-memory store): webhook start-up,
deep-link tokens and membership, shared identities, echoed text, private commands with two
tables, preferences."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from test_main import run_bot


def test_webhook_without_secret_refuses_to_start(tmp_path: Path) -> None:
    done = run_bot(
        tmp_path, "--webhook", TELEGRAM_BOT_TOKEN="1:x", TAPETE_WEBHOOK_URL="https://x.org/hook"
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("tapete: --webhook needs TAPETE_WEBHOOK_SECRET")
