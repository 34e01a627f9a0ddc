"""A fourth game registered only here plays through the whole bot (issue 22's proof).

``tinygame`` ("la alta") lives in this folder and is added to the registry for this test alone:
nothing in ``bot/`` knows it (its texts are its own, declared by it), yet it is opened with
``/nueva alta``, joined, dealt, played with its buttons, its commands, by a computer player and
by the timer, scored, finished, and each player sees only his own card in private.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

import pytest
from driver import read_doc
from fake_telegram import Chat, FakeTelegram, Message
from tinygame import ALTA, from_json, text

from bot.games.registry import GAMES
from locales import t

FAST = {"computer_pause": 0.05, "timer_tick": 0.02}


def _with_button(chat: Chat, label: str) -> Message | None:
    return next((m for m in reversed(chat.bot_messages()) if label in m.button_texts()), None)


@pytest.mark.parametrize("lang", ["es", "en"])
async def test_a_game_registered_only_in_the_tests_plays_to_its_end(
    monkeypatch: pytest.MonkeyPatch, tg: FakeTelegram, apps: Any, redis_factory: Any, lang: str
) -> None:
    # monkeypatch first: the bot stops before the registry loses the game.
    monkeypatch.setitem(GAMES, ALTA.name, ALTA)
    redis = redis_factory.client()
    await apps.start(turn_timeout=1.0, **FAST)
    ana, bea = tg.user("Ana", "ana", language_code=lang), tg.user("Bea", "bea", language_code=lang)
    group = tg.group("La alta", members=[ana, bea], creator=ana)
    for user in (ana, bea):
        user.start_private()
    await tg.settle(quiet=0.05)
    ana.send(group, "/idioma en" if lang == "en" else "/idioma es")
    await tg.settle(quiet=0.05)
    # Its own texts, declared by it: its rules and the refusal of an option it does not know.
    ana.send(group, "/reglas alta")
    await tg.wait_for(lambda: _said(group, text(lang, "rules")), what="its rules")
    ana.send(group, "/nueva alta puntos=x")
    refused = text(lang, "bad_option", word="puntos=x")
    await tg.wait_for(lambda: _said(group, refused), what="its option refused")
    ana.send(group, "/nueva alta puntos=3")
    join = t(lang, "button.join")
    lobby = await tg.wait_for(lambda: _with_button(group, join), what="the lobby")
    assert ALTA.title(lang) in lobby.text
    bea.press(lobby, join)
    await tg.settle(quiet=0.05)
    bea.press(lobby, t(lang, "bots.add"))
    await tg.settle(quiet=0.05)
    ana.press(lobby, t(lang, "button.start"))

    async def doc() -> dict[str, Any]:
        found = await read_doc(redis, group.id)
        assert found is not None
        return found[1]

    playing = await tg.wait_for(
        lambda: _status(redis, group.id, "playing"), what="the game started"
    )
    people = {p["user_id"]: s for s, p in enumerate(playing["players"]) if p["user_id"] > 0}
    users = {ana.id: ana, bea.id: bea}
    stand, swap = text(lang, "planto"), text(lang, "cambio")
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 60
    moves, by_command, timed_out = 0, 0, 0
    while loop.time() < give_up:
        current = await doc()
        if current["status"] != "playing":
            break
        state = from_json(current["state"])
        seat = state.to_act[0]
        user = next((users[u] for u, s in people.items() if s == seat), None)
        if user is None:  # the computer's turn
            await tg.wait_for(partial(_turn_after, redis, group.id, current["turn"]), timeout=10)
            continue
        # Each person's private message shows his card and nobody else's.
        mine = state.cards[seat]
        shown = partial(_private_ends_with, user.private, text(lang, "yours", card=mine))
        await tg.wait_for(shown, what="his card in private")
        if moves % 4 == 3:
            timed_out += 1  # let the clock play for him (the timer's move: planto)
        elif moves % 2:
            by_command += 1
            user.send(group, "/cambio" if mine[:-1] in ("1", "2", "3") else "/planto")
        else:
            message = await tg.wait_for(lambda: _with_button(group, stand), what="the buttons")
            assert swap in message.button_texts()
            user.press(message, stand)
        moves += 1
        await tg.wait_for(partial(_turn_after, redis, group.id, current["turn"]), timeout=10)
    final = await doc()
    assert final["status"] == "over", "the game did not end"
    assert moves >= 3 and by_command and timed_out
    state = from_json(final["state"])
    assert state.winner is not None and max(state.score) == 3
    await tg.settle(quiet=0.1)
    group_texts = [m.text for m in group.bot_messages()]
    won = [
        x for x in group_texts if x.startswith(text(lang, "won", name="", card="", cards="")[:5])
    ]
    assert len(won) >= 3  # one result a hand, each with all the cards shown then
    assert any(t(lang, "msg.game_over") in x for x in group_texts)
    # A private hand message never went to the group, nor to the computer seat.
    assert not any(text(lang, "yours", card="")[:-1] in x for x in group_texts)
    assert all(
        int(c.params.get("chat_id", group.id)) in (group.id, ana.id, bea.id)
        for c in tg.calls
        if c.method.lower() in ("sendmessage", "editmessagetext")
    )


async def _status(redis: Any, chat_id: int, status: str) -> dict[str, Any] | None:
    found = await read_doc(redis, chat_id)
    if found is None or found[1].get("status") != status:
        return None
    return found[1]


async def _turn_after(redis: Any, chat_id: int, turn: int) -> bool:
    found = await read_doc(redis, chat_id)
    return found is not None and (found[1]["turn"] > turn or found[1]["status"] != "playing")


def _said(chat: Chat, wanted: str) -> bool:
    return any(m.text == wanted for m in chat.bot_messages())


def _private_ends_with(chat: Chat, wanted: str) -> bool:
    return any(m.text.endswith(wanted) for m in chat.bot_messages())
