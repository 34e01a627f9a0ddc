"""End to end: a hand's result says why (issue 10, item 5), is shown (at the foot of its hand's
closed table message) before the next hand's private cards, and the next hand's first turn leaves
time to read it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from driver import LANG, open_table, ordago_policy, play_hand, t
from fake_telegram import FakeTelegram

from bot.flow.clock import READ_PAUSE

pytestmark = pytest.mark.e2e

SCORED = re.compile(r"^(Grande|Chica|Pares|Juego|Punto): \+(\d+) para (.+?) \((.+)\)$")


def result_of(group: Any, hand: int) -> tuple[Any, str]:
    """The message that shows the result of ``hand`` (the closing edit of that hand's table
    message) and the result's own text (from its title on)."""
    title = t(LANG, "event.hand_over", hand=hand, a="", b="").split(".")[0]
    found = [m for m in group.bot_messages() if f"\n\n{title}" in m.text]
    assert len(found) == 1, [m.text[:40] for m in group.bot_messages()]
    return found[0], found[0].text[found[0].text.index(title) :]


async def test_result_lines_say_whose_hands_scored_and_come_before_the_next_cards(
    tg: FakeTelegram, apps: Any, redis_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import secrets

    monkeypatch.setattr(secrets, "randbits", lambda bits: 4242)  # the bot's deal seed
    redis = redis_factory.client()
    await apps.start()
    table, _users, group = await open_table(tg, redis)
    state = await play_hand(table, random.Random(3), mus_rounds_wanted=0)
    await tg.settle()
    assert state.hand_number == 2
    result, text = result_of(group, 1)
    assert result.text.startswith("🃏 Mus · ")  # the closed table message of hand 1
    lines = text.splitlines()
    scored = [m for m in map(SCORED.match, lines) if m]
    assert scored, lines
    by_holder = [m for m in scored if m.group(1) in ("Pares", "Juego", "Punto")]
    assert by_holder, lines
    for m in scored:  # every line says why: a refusal, or whose hand(s) made the points
        why = m.group(4)
        assert why == "no querido" or any(n in why for n in ["Ana", "Bea", "Cris", "Dani"]), m
    for m in by_holder:
        if m.group(4) == "no querido":
            continue
        parts = m.group(4).split(": ")[-1].split(" + ")
        if m.group(1) == "Pares":
            assert all(re.match(r"^(par|medias|duples) de \S", p) for p in parts), parts
        else:  # "40 de Carmen": the total the showdown line of that player shows
            for part in parts:
                total, name = re.match(r"^(\d+) de (.+?)(?: \d)?$", part).groups()  # type: ignore[union-attr]
                shown = next(x for x in lines if x.startswith(f"{name}:"))
                assert total in shown, (part, shown)

    # The result was shown (the closing edit of hand 1's table message) before any private
    # card of hand 2.
    result_call = next(
        c for c in tg.calls if c.method == "editMessageText" and c.ok
        and c.params.get("message_id") == result.message_id
        and isinstance(c.result, dict) and text in str(c.result.get("text", ""))
    )  # fmt: skip
    hand2 = t(LANG, "hand.title", game="Mus", title=group.title, hand=2)
    private = [
        c for c in tg.calls
        if c.method == "sendMessage" and str(c.params.get("text", "")).startswith(hand2)
    ]  # fmt: skip
    assert private and all(c.seq > result_call.seq for c in private)

    # The next hand's first turn gives time to read the result.
    doc = await table.doc()
    assert doc["turn_deadline"] >= doc["moved_at"] + 60 + READ_PAUSE - 0.01


async def test_an_accepted_ordago_says_it_decided_the_juego(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, _users, group = await open_table(tg, redis)
    await play_hand(table, random.Random(1), mus_rounds_wanted=0, lance_policy=ordago_policy)
    await tg.settle()
    _message, text = result_of(group, 1)
    line = next(x for x in text.splitlines() if "órdago" in x)
    said = r"^Grande: ¡órdago querido! Lo gana (Ana|Bea <b>|Cris|Dani): juego para .+\.$"
    assert re.match(said, line), line
    assert not SCORED.search(line) and "+" not in line
