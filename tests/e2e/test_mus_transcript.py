"""One Mus hand played by four people in Spanish and English: every version of the table
message is printed (run with -s), and the table keeps the lance's talk as players say it.

The hand: everyone says mus and discards, then Ana says mus and Bea cuts; in grande Ana bets 5,
Bea says "no quiero" and Dani, her partner, "quiero"; in chica Ana bets, Bea raises 2 and both
Ana and Cris refuse; every other lance is passed.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from driver import command_for, open_table, t
from fake_telegram import FakeTelegram, html_to_text

import engine.mus as mus
from engine.core import Action

pytestmark = pytest.mark.e2e

ENGLISH = {"/mus": "/mus", "/corto": "/cut", "/paso": "/pass", "/envido": "/bet"}
ENGLISH |= {"/quiero": "/accept", "/noquiero": "/fold", "/ordago": "/allin"}


def _policy(state: Any, seat: int, said: dict[str, int]) -> Action:
    """The scripted hand (see the module's docstring), from what was said in each lance."""
    legal = mus.legal_actions(state, seat)
    kinds = {a.kind: a for a in legal}
    lance = str(state.lance)
    said[lance] = said.get(lance, 0) + 1
    n = said[lance]
    facing = state.bet is not None
    if lance == "grande":
        if not facing:
            return next(a for a in legal if a.kind == "envido" and a.amount == 5)
        return kinds["no_quiero"] if n == 2 else kinds["quiero"]
    if lance == "chica":
        if not facing:
            return kinds["envido"] if "envido" in kinds and n == 1 else kinds["paso"]
        raise_two = [a for a in legal if a.kind == "envido" and a.amount == 2]
        return raise_two[0] if n == 2 and raise_two else kinds["no_quiero"]
    return kinds["paso"] if "paso" in kinds else kinds["quiero"]


@pytest.mark.parametrize("lang", ["es", "en"])
async def test_mus_hand_transcript(
    tg: FakeTelegram, apps: Any, redis_factory: Any, lang: str
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, users, group = await open_table(tg, redis)
    if lang != "es":
        users[0].send(group, "/idioma en")
        await tg.settle()
    start = len(group.bot_messages())
    since = time.monotonic()
    state = await table.state()
    said: dict[str, int] = {}
    mus_rounds = 0
    while state.hand_number == 1 and not state.is_over:
        seat = state.to_act[0]
        doc = await table.doc()
        user = table.seat_user(doc, seat)
        before = doc.get("turn", 0)
        if state.phase == "discard":
            card = str(mus.view(state, seat).to_dict()["cards"][0])
            user.send(user.private, f"/descarto {card}" if lang == "es" else f"/discard {card}")
        else:
            if state.phase == "mus":
                want = "mus" if mus_rounds == 0 or seat == state.mano else "corto"
                action = next(a for a in mus.legal_actions(state, seat) if a.kind == want)
            else:
                action = _policy(state, seat, said)
            command = command_for(action)
            if lang == "en":
                word, _, rest = command.partition(" ")
                command = f"{ENGLISH[word]} {rest}".strip()
            user.send(group, command)
        await table.wait_turn_after(before)
        previous, state = state, await table.state()
        if previous.phase == "discard" and state.phase != "discard":
            mus_rounds += 1
        await tg.settle(quiet=0.05)
    await tg.settle()
    msgs = [m for m in group.bot_messages() if any(v.at >= since for v in m.history)]
    versions = [html_to_text(v.raw) for m in msgs for v in m.history if v.at >= since]
    print(f"\n===== {lang}: {len(group.bot_messages()) - start} new group messages in the hand")
    for m in msgs:
        print("---", m.message_id, f"({len(m.history)} versions)")
        for v in (v for v in m.history if v.at >= since):
            print(html_to_text(v.raw))
            print("~~")
    assert len(group.bot_messages()) - start <= 2  # the result and the next hand's table
    names = ["Ana", "Bea <b>", "Cris", "Dani"]
    expect = [
        t(lang, "event.spoke", name=names[0], action=t(lang, "said.mus")),
        t(lang, "event.spoke", name=names[1], action=t(lang, "said.corto")),
        t(lang, "event.spoke", name=names[1], action=t(lang, "said.no_quiero")),
        t(lang, "event.spoke", name=names[3], action=t(lang, "said.quiero")),
    ]
    for line in expect:
        assert any(line in v for v in versions), line
