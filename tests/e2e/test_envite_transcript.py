"""Prints the group transcript of one envite round in Spanish and English (run with -s)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from envite_driver import open_envite, play_round

import engine.envite as envite
from engine.core import Action

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("lang", ["es", "en"])
async def test_transcript(tg: Any, apps: Any, redis_factory: Any, lang: str) -> None:
    redis = redis_factory.client()
    await apps.start(redis=redis)
    table = await open_envite(tg, redis, players=4, lang=lang)
    await tg.settle(quiet=0.3)  # the lobby and first table message published (background)
    start = len(table.group.bot_messages())
    await play_round(table, random.Random(4), vias=("button", "command"))
    await tg.settle(quiet=0.3)
    msgs = table.group.bot_messages()
    print(f"\n===== {lang}: {len(msgs) - start} new group messages in the round")
    assert len(msgs) - start <= 2  # the round's result and the next round's table message
    for m in msgs[start - 1 :]:
        print("---", m.message_id)
        print(m.text)
        print("[buttons]", m.button_texts())


def _bets_then_accepts(state: Any, seat: int, rng: random.Random) -> Action:
    """Bets at the first chance, raises once (to siete), then accepts; plays cards otherwise."""
    legal = {a.kind: a for a in envite.legal_actions(state, seat)}
    if state.phase == "bet":
        return legal.get("siete") if state.raised == 1 and "siete" in legal else legal["quiero"]
    if "envido" in legal and not state.bet_closed:
        return legal["envido"]
    return rng.choice([a for a in envite.legal_actions(state, seat) if a.kind == "tiro"])


@pytest.mark.parametrize("lang", ["es", "en"])
async def test_bets_read_as_table_talk(tg: Any, apps: Any, redis_factory: Any, lang: str) -> None:
    """Every version of the group's table message says a bet as Mus does ("Bea: envido (van 4)."),
    the raise and the answer the same way, through the fake Bot API."""
    redis = redis_factory.client()
    await apps.start(redis=redis)
    table = await open_envite(tg, redis, players=4, lang=lang)
    await tg.settle(quiet=0.3)
    await play_round(table, random.Random(2), vias=("button",), policy=_bets_then_accepts)
    await tg.settle(quiet=0.3)
    seen = [v.text for m in table.group.bot_messages() for v in m.history]
    print(f"\n===== {lang}: table talk")
    for line in dict.fromkeys(ln for text in seen for ln in text.splitlines()):
        if ": " in line and "(" in line:
            print(line)
    said = ("envido (van 4).", "siete (van 7).", "quiero (7).")
    if lang == "en":
        said = ("bet (4 on the table).", "seven (7 on the table).", "accept (7).")
    for words in said:
        assert any(f": {words}" in text for text in seen), words
    assert not any("envida:" in text or " bets:" in text for text in seen)
    # said as Mus's table talk says it ("Bea: accept", "Cris: fold"), not told about
    assert not any(": accepted" in text or ": folds" in text for text in seen)


def _up_to_chico_fuera(state: Any, seat: int, rng: random.Random) -> Action:
    """Bets and raises to chico fuera, then accepts; plays cards otherwise."""
    legal = {a.kind: a for a in envite.legal_actions(state, seat)}
    for kind in ("chico_fuera", "nueve", "siete"):
        if state.phase == "bet" and kind in legal:
            return legal[kind]
    if state.phase == "bet":
        return legal["quiero"]
    if "envido" in legal and not state.bet_closed:
        return legal["envido"]
    return rng.choice([a for a in envite.legal_actions(state, seat) if a.kind == "tiro"])


@pytest.mark.parametrize(("lang", "seconds"), [("es", 45), ("en", 90)])
async def test_chico_fuera_and_the_turn_time_in_minutes(
    tg: Any, apps: Any, redis_factory: Any, lang: str, seconds: int
) -> None:
    """Through the fake Bot API: chico fuera reads "Bea: ¡chico fuera! (va el chico)." and a turn
    time that is not whole minutes reads in minutes in the lobby and every version of the table
    message, as its clock does; no version counts seconds."""
    redis = redis_factory.client()
    await apps.start(redis=redis)
    word = "tiempo" if lang == "es" else "time"
    table = await open_envite(tg, redis, players=4, lang=lang, options=f"{word}={seconds}")
    await tg.settle(quiet=0.3)
    await play_round(table, random.Random(3), vias=("button",), policy=_up_to_chico_fuera)
    await tg.settle(quiet=0.3)
    seen = [v.text for m in table.group.bot_messages() for v in m.history]
    header = "¾ min por turno" if lang == "es" else "1½ min a turn"
    shout = "¡chico fuera! (va el chico)." if lang == "es" else "chico fuera! (the whole chico"
    print(f"\n===== {lang}, {word}={seconds}")
    for line in dict.fromkeys(ln for text in seen for ln in text.splitlines()):
        if "⏱" in line or "chico fuera" in line:
            print(line)
    assert any(header in text for text in seen)
    assert any(f": {shout}" in text for text in seen)
    assert not any(re.search(r"\b\d+ ?(s|seg|sec)\b", text) for text in seen)
