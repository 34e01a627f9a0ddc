"""End to end: Mus a piedras through the fake Bot API (real PTB Application, Redis).

A whole juego with 3 players by buttons and commands, a hand with 8 players, every bad input
answered clearly with nothing changed, and a restart mid-hand.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from driver import read_raw
from fake_telegram import Chat, FakeTelegram, User
from piedras_driver import (
    PiedrasTable,
    command_for,
    open_piedras_table,
    ordago_happy,
    play_hand,
    play_hand_by_buttons,
)

import engine.piedras as piedras
from engine.core import Action
from locales import t

pytestmark = pytest.mark.e2e


async def reply_to(tg: FakeTelegram, user: User, chat: Chat, text: str) -> str:
    """Send ``text`` and return the bot's one reply in that chat."""
    before = len(chat.bot_messages())
    user.send(chat, text)
    await tg.settle()
    new = chat.bot_messages()[before:]
    assert len(new) == 1, f"{text!r}: expected one reply, got {[m.text for m in new]}"
    return new[0].text


async def unchanged(table: PiedrasTable, before: tuple[Any, Any]) -> None:
    assert await read_raw(table.redis, table.group.id) == before, "the stored table changed"


async def to_grande(table: PiedrasTable) -> Any:
    """Everyone discards (by /descarto in private): the hand goes to grande."""
    state = await table.state()
    rng = random.Random(0)
    while state.phase == "discard":
        seat = state.to_act[0]
        await table.act(seat, Action("descarto", cards=(rng.choice(state.hands[seat]),)), "cmd")
        state = await table.state()
    assert state.lance == "grande"
    return state


async def test_three_players_play_a_whole_juego(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table = await open_piedras_table(tg, redis, players=3, words="piedras=5")
    await table.assert_dms_show_hands()
    doc = await table.doc()
    msg = table.table_message(doc)
    assert msg is not None and "Bea &lt;b&gt;" in msg.raw
    state = await table.state()
    hands = 0
    per_hand: list[int] = []
    while state.juego == 1 and not state.is_over:
        hands += 1
        assert hands <= 12, "a juego of 5 stones with lively betting ends sooner"
        before = len(tg.group_calls(chat=table.group))
        state = await play_hand(
            table, random.Random(hands), first_via="button" if hands % 2 else "command"
        )
        await tg.settle()
        per_hand.append(len(tg.group_calls(chat=table.group)) - before)
        table.check.check(state)
    assert max(per_hand) <= 3, per_hand
    texts = [m.text for m in table.group.bot_messages()]
    results = [x for x in texts if "🏁 Fin de la mano" in x]  # in its closed table message
    assert len(results) == hands
    lost = [x for x in results if "pierde el juego 1" in x]
    assert len(lost) == 1 and "Cartas:" in lost[0] and "Piedras:" in lost[0]
    # Each player's hand lived in one private message per hand, edited after his discard.
    title = t("es", "hand.title", game="Mus a piedras", title=table.group.title, hand=1)
    for user in table.users:
        assert len([m for m in user.private.bot_messages() if m.text.startswith(title)]) == 1
    assert table.check.checked > 20


async def test_eight_players_one_hand(tg: FakeTelegram, apps: Any, redis_factory: Any) -> None:
    redis = redis_factory.client()
    await apps.start()
    table = await open_piedras_table(tg, redis, players=8, words="")
    state = await table.state()
    assert len(state.in_hand) == 8
    doc = await table.doc()
    msg = table.table_message(doc)
    assert msg is not None
    for name in ("Ana", "Hugo"):
        assert f"{name}: 8" in msg.text
    before = len(tg.group_calls(chat=table.group))
    state = await play_hand(table, random.Random(8))
    await tg.settle()
    assert state.hand_number == 2 or state.juego == 2
    assert len(tg.group_calls(chat=table.group)) - before <= 3
    result = [m.text for m in table.group.bot_messages() if "🏁" in m.text][-1]
    assert "Cartas:" in result and "Piedras:" in result
    await table.assert_dms_show_hands()


async def test_english_hand_by_buttons_only(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table = await open_piedras_table(tg, redis, players=4, words="piedras=8 4reyes", lang="en")
    state = await play_hand_by_buttons(table, random.Random(3))
    await tg.settle()
    assert state.hand_number == 2 or state.juego == 2
    texts = [m.text for m in table.group.bot_messages()]
    assert any("\n\n🏁 End of hand 1" in x for x in texts), texts[-2:]
    doc = await table.doc()
    msg = table.table_message(doc)
    assert msg is not None and "Mus a piedras" in msg.text and "hand 2" in msg.text


async def test_english_commands(tg: FakeTelegram, apps: Any, redis_factory: Any) -> None:
    redis = redis_factory.client()
    await apps.start()
    table = await open_piedras_table(tg, redis, players=3, lang="en")
    state = await to_grande(table)
    doc = await table.doc()
    mano = state.to_act[0]
    table.seat_user(doc, mano).send(table.group, command_for(Action("envido", 3), "en"))
    doc = await table.wait_turn_after(doc["turn"])
    state = await table.state()
    assert state.betting.level == 3
    # The bettor's private hand shows his pile after the bet.
    bettor = table.seat_user(doc, mano)
    pile = t("en", "piedras.hand.pile", n=state.piles[mano], plate=state.plate)
    await tg.wait_for(lambda: pile in table.hand_message(bettor).text, what="the pile updated")
    table.seat_user(doc, state.to_act[0]).send(table.group, "/fold")
    await table.wait_turn_after(doc["turn"])


@pytest.fixture
async def grande(tg: FakeTelegram, apps: Any, redis_factory: Any) -> PiedrasTable:
    redis = redis_factory.client()
    await apps.start()
    table = await open_piedras_table(tg, redis, players=3, words="piedras=5")
    return table


async def test_bad_discards_are_refused_privately(tg: FakeTelegram, grande: PiedrasTable) -> None:
    table = grande
    state = await table.state()
    doc = await table.doc()
    user = table.seat_user(doc, 0)
    other = str(state.hands[1][0])
    before = await read_raw(table.redis, table.group.id)
    assert await reply_to(tg, user, user.private, f"/descarto {other}") == t(
        "es", "error.card_not_in_hand"
    )
    mine = [str(c) for c in state.hands[0]]
    assert await reply_to(tg, user, user.private, f"/descarto {mine[0]} {mine[1]}") == t(
        "es", "piedras.error.one_card"
    )
    await unchanged(table, before)
    # In the group a discard is refused without saying which card.
    reply = await reply_to(tg, user, table.group, f"/descarto {mine[0]}")
    assert reply == t("es", "error.discard_in_private")
    await unchanged(table, before)
    # The discard itself, then a second discard is refused.
    await table.act(0, Action("descarto", cards=(state.hands[0][0],)), "cmd")
    before = await read_raw(table.redis, table.group.id)
    assert await reply_to(tg, user, user.private, f"/descarto {mine[1]}") == t(
        "es", "error.already_discarded"
    )
    await unchanged(table, before)


async def test_bad_bets_and_turns(tg: FakeTelegram, grande: PiedrasTable) -> None:
    table = grande
    state = await to_grande(table)
    doc = await table.doc()
    mano, second, third = state.to_act[0], (state.to_act[0] + 1) % 3, (state.to_act[0] + 2) % 3
    cap = max(a.amount or 0 for a in piedras.legal_actions(state, mano) if a.kind == "envido")
    before = await read_raw(table.redis, table.group.id)
    speaker = table.seat_user(doc, mano)
    assert await reply_to(tg, speaker, table.group, "/envido 50") == t(
        "es", "error.bet_above_cap", cap=cap
    )
    assert await reply_to(tg, speaker, table.group, "/envido abc") == t(
        "es", "error.bad_amount", text="abc"
    )
    assert await reply_to(tg, speaker, table.group, "/quiero") == t("es", "error.no_bet_to_answer")
    waiting = table.seat_user(doc, second)
    assert await reply_to(tg, waiting, table.group, "/envido 2") == t("es", "error.not_your_turn")
    outsider = tg.user("Zoe", "zoe")
    table.group.members.add(outsider.id)
    assert await reply_to(tg, outsider, table.group, "/paso") == t("es", "error.not_seated")
    await unchanged(table, before)

    # A player who refused the first envite is no longer in the lance.
    await table.act(mano, Action("envido", 2), "button")
    await table.act(second, Action("no_quiero"), "command")
    await table.act(third, Action("quiero"), "button")
    doc = await table.doc()
    before = await read_raw(table.redis, table.group.id)
    assert await reply_to(tg, table.seat_user(doc, second), table.group, "/envido 2") == t(
        "es", "error.not_in_lance"
    )
    await unchanged(table, before)


async def test_stale_and_repeated_buttons(tg: FakeTelegram, grande: PiedrasTable) -> None:
    table = grande
    state = await to_grande(table)
    await tg.settle()
    doc = await table.doc()
    mano = state.to_act[0]
    buttons = table.buttons(doc)
    msg, data = buttons["paso"]
    user = table.seat_user(doc, mano)
    first = user.press_data(msg, data)
    second = user.press_data(msg, data)  # the same press twice, before the first is answered
    answers = [await tg.wait_answer(first), await tg.wait_answer(second)]
    await tg.settle()
    stale = [a for a in answers if a.get("text") == t("es", "error.stale")]
    assert len(stale) == 1 and stale[0]["show_alert"], answers
    after = await table.state()
    assert after.to_act != state.to_act
    before = await read_raw(table.redis, table.group.id)
    again = await tg.wait_answer(user.press_data(msg, data))
    assert again["text"] == t("es", "error.stale")
    await unchanged(table, before)

    # Out of turn by button: a private alert, nothing changes.
    doc = await table.doc()
    waiting = next(s for s in range(3) if s not in after.to_act and s in after.in_hand)
    current = table.buttons(doc)
    msg, data = next(iter(current.values()))
    answer = await tg.wait_answer(table.seat_user(doc, waiting).press_data(msg, data))
    assert answer["text"] == t("es", "error.not_your_turn") and answer["show_alert"]
    await unchanged(table, before)


async def test_button_of_an_older_table(tg: FakeTelegram, grande: PiedrasTable) -> None:
    table = grande
    state = await to_grande(table)
    await tg.settle()
    doc = await table.doc()
    old_msg, old_data = table.buttons(doc)["paso"]
    creator = table.users[0]
    creator.send(table.group, "/cancelar")
    await tg.settle()
    creator.send(table.group, "/nueva piedras piedras=5")
    await tg.settle()
    before = await read_raw(table.redis, table.group.id)
    answer = await tg.wait_answer(
        table.seat_user(doc, state.to_act[0]).press_data(old_msg, old_data)
    )
    assert answer["text"] == t("es", "error.stale") and answer["show_alert"]
    await unchanged(table, before)


async def test_unknown_option(tg: FakeTelegram, apps: Any, redis_factory: Any) -> None:
    await apps.start()
    ana = tg.user("Ana", "ana")
    ana.start_private()
    group = tg.group("Opciones", members=[ana], creator=ana)
    reply = await reply_to(tg, ana, group, "/nueva piedras piedras=7")
    assert reply.startswith("Opción desconocida: piedras=7.") and "perdidas=1..5" in reply
    assert await read_raw(redis_factory.client(), group.id) == (None, None)


async def test_help_and_rules_of_the_game_at_the_table(
    tg: FakeTelegram, grande: PiedrasTable
) -> None:
    table = grande
    ana = table.users[0]
    rules = await reply_to(tg, ana, table.group, "/reglas")
    assert rules.startswith("Mus a piedras (de 3 a 8") and "plato" in rules
    helps = await reply_to(tg, ana, table.group, "/ayuda")
    assert "/nueva piedras [piedras=5|8|10]" in helps


async def test_restart_mid_hand_continues(tg: FakeTelegram, apps: Any, redis_factory: Any) -> None:
    redis = redis_factory.client()
    first = await apps.start()
    table = await open_piedras_table(tg, redis, players=4, words="piedras=5")
    state = await to_grande(table)
    await table.act(state.to_act[0], Action("envido", 2), "button")
    await tg.settle()
    await apps.stop(first)
    await apps.start()
    state = await table.state()
    assert state.betting is not None and state.betting.level == 2
    state = await play_hand(table, random.Random(4), first_via="command")
    await tg.settle()
    assert state.hand_number == 2 or state.juego == 2
    texts = [m.text for m in table.group.bot_messages()]
    assert any("\n\n🏁 Fin de la mano 1" in x for x in texts)


async def test_ordagos_end_the_match(tg: FakeTelegram, apps: Any, redis_factory: Any) -> None:
    """Órdagos every lance: juegos end at once; the match ends and the table says so."""
    redis = redis_factory.client()
    await apps.start()
    table = await open_piedras_table(tg, redis, players=3, words="piedras=5")
    state = await table.state()
    hands = 0
    while not state.is_over:
        hands += 1
        assert hands <= 20
        state = await play_hand(table, random.Random(hands), policy=ordago_happy)
    await tg.settle()
    texts = [m.text for m in table.group.bot_messages()]
    assert any("gana la partida" in x for x in texts)
    doc = await table.doc()
    assert doc["status"] == "over"
