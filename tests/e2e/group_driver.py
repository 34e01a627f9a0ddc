"""Playing from the group (issue 24) as people who never opened a private chat with the bot:
each sees his own hand in the group as an ephemeral message ("🂠 Mis cartas"), discards and
plays his cards on it, and bets on the table message. Shared by the e2e tests and
``bench/group_play.py``.
"""

from __future__ import annotations

import random
from typing import Any

from driver import LANG, MusTable, card_mentions, choose, doc_of, last_with_button
from envite_driver import EnviteTable, lively
from fake_telegram import Chat, FakeTelegram, Message, User

import engine.mus as mus
from bot.games.render import card_name
from locales import t

NAMES = ("Ana", "Bea", "Cris", "Dani")


async def seated_without_private_chats(
    tg: FakeTelegram,
    redis: Any,
    game: str = "mus",
    names: tuple[str, ...] = NAMES,
    *,
    private: bool = False,
) -> tuple[list[User], Chat, Message]:
    """People who never opened a private chat with the bot open a table, sit down (the third
    by command) and start it; with ``private`` each opened one first (as before issue 24)."""
    users = [tg.user(name, name.lower()) for name in names]
    if private:
        for user in users:
            user.start_private()
        await tg.wait_for(
            lambda: all(u.private.bot_messages() for u in users), what="the answers to /start"
        )
    group = tg.group(f"{game} sin privado", members=users, creator=users[0])
    users[0].send(group, f"/nueva {game}")
    join = t(LANG, "button.join")
    lobby: Message = await tg.wait_for(lambda: last_with_button(group, join), what="the lobby")

    async def seated() -> int:
        return len((await doc_of(redis, group))["players"])

    async def seated_are(n: int) -> bool:
        return await seated() == n

    await tg.wait_for(lambda: seated_are(1), what="the creator seated without a private chat")
    for n, user in enumerate(users[1:], start=2):
        if n == 3:
            user.send(group, "/unirme")
        else:
            user.press(lobby, join)
        await tg.wait_for(lambda n=n: seated_are(n), what=f"{user.first_name} seated")
    users[0].press(lobby, t(LANG, "button.start"))

    async def started() -> bool:
        doc = await doc_of(redis, group)
        return doc.get("status") == "playing" and doc.get("shown", {}).get("table_msg") is not None

    await tg.wait_for(started, what="the game started")
    return users, group, lobby


def own_hand(group: Chat, user: User) -> Message:
    """The ephemeral hand the user sees in the group (exactly one)."""
    shown = group.ephemeral_for(user)
    assert len(shown) == 1, f"{user.first_name} sees {len(shown)} ephemeral hands"
    return shown[0]


async def open_own_hand(tg: FakeTelegram, table: Any, user: User) -> Message:
    """ "🂠 Mis cartas" on the table message: the hand, in the group, for him alone."""

    async def posted() -> Message | None:
        wanted = (await table.doc()).get("shown", {}).get("table_msg")
        return next((m for m in table.group.bot_messages() if m.message_id == wanted), None)

    msg = await tg.wait_for(posted, what="the table message")  # a new one may be on its way
    answer = await tg.wait_answer(user.press(msg, t(LANG, "button.cards")))
    assert answer["text"] is None, answer  # no alert: it is in the group
    return own_hand(table.group, user)


async def read_own_hand(
    tg: FakeTelegram, table: Any, user: User, cards: list[str], *, toggles: bool = False
) -> Message:
    """What a player does before he moves: he reads his hand in the group, and presses "🂠 Mis
    cartas" only when his ephemeral hand does not show his cards as they are now (in a discard,
    with its toggles)."""
    await tg.settle(quiet=0.05)  # what the bot brings up to date after the last move is shown
    shown = table.group.ephemeral_for(user)
    if shown:
        current: Message = shown[-1]
        fits = sorted(card_mentions(current.text, cards)) == sorted(cards)
        if fits and (not toggles or any(b.startswith("▫️") for b in current.button_texts())):
            return current
    return await open_own_hand(tg, table, user)


async def discard_from_the_group(
    tg: FakeTelegram, table: MusTable, seat: int, cards: list[str]
) -> int:
    """Toggle ``cards`` on the seat's ephemeral hand (read first: opened only when it does not
    show them with their toggles), then "descarto"; returns the table's turn before it."""
    state = await table.state()
    user = table.seat_user(await table.doc(), seat)
    held = [str(c) for c in mus.view(state, seat).to_dict()["cards"]]
    mine = await read_own_hand(tg, table, user, held, toggles=True)
    for card in cards:
        name = card_name(LANG, card)
        await tg.wait_answer(user.press(mine, f"▫️ {name}"))
        await tg.wait_for(lambda m=mine, c=name: f"✅ {c}" in m.button_texts(), what="✅")
    before = int((await table.doc())["turn"])
    await tg.wait_answer(user.press(mine, t(LANG, "button.discard", n=len(cards))))
    return before


async def play_mus_hand_from_the_group(
    tg: FakeTelegram,
    table: MusTable,
    rng: random.Random,
    *,
    mus_rounds: int = 1,
    private: bool = False,
) -> Any:
    """One Mus hand: ``mus_rounds`` rounds of mus (the discards on the ephemeral hands, or with
    ``private`` on the private hand messages), then the mano cuts; the lances on the table
    message's buttons. Each player reads his hand before he moves (:func:`read_own_hand`; with
    ``private``, in the private chat). Returns the last state."""
    state = await table.state()
    hand, step, rounds = state.hand_number, 0, 0
    while state.hand_number == hand and not state.is_over:
        seat = state.to_act[0]
        if state.phase != "discard" and not private:
            user = table.seat_user(await table.doc(), seat)
            held = [str(c) for c in mus.view(state, seat).to_dict()["cards"]]
            await read_own_hand(tg, table, user, held)
        if state.phase == "mus":
            want = "mus" if rounds < mus_rounds else "corto"
            action = next(a for a in mus.legal_actions(state, seat) if a.kind == want)
            await table.act(seat, action, "button")
        elif state.phase == "discard":
            cards = list(mus.view(state, seat).to_dict()["cards"])
            chosen = rng.sample(cards, rng.choice([1, 2]))
            if private:
                turn = int((await table.doc())["turn"])
                await table.discard(seat, chosen)
            else:
                turn = await discard_from_the_group(tg, table, seat, chosen)
            if len(state.to_act) == 1:
                await table.wait_turn_after(turn)
                rounds += 1
            else:
                await tg.wait_for(lambda s=seat: _discarded(table, s), what="the discard")
        else:
            await table.act(seat, choose(state, seat, step), "button")
            step += 1
        state = await table.state()
        table.check.check(state)  # no hidden card in a group message
    return state


async def _discarded(table: MusTable, seat: int) -> bool:
    return seat not in (await table.state()).to_act


async def play_card_from_the_group(
    tg: FakeTelegram, table: EnviteTable, user: User, card: str
) -> None:
    """Press the card on his ephemeral hand (opened with "🂠 Mis cartas" when he has none, or
    when it does not offer that card now)."""
    from bot.games.envite.render import card_button

    label = card_button(LANG, card)
    group: Chat = table.group
    await tg.settle(quiet=0.05)  # what the bot brings up to date after the last move is shown
    shown = group.ephemeral_for(user)
    if not shown or label not in shown[-1].button_texts():
        await open_own_hand(tg, table, user)
    answer = await tg.wait_answer(user.press(own_hand(group, user), label))
    assert answer["text"] is None, answer  # played, nothing to tell him in an alert


async def play_envite_round_from_the_group(
    tg: FakeTelegram, table: EnviteTable, rng: random.Random
) -> tuple[Any, list[str]]:
    """One envite round: every card pressed on the player's ephemeral hand, the bets on the
    table message. Returns the last state and the cards played."""
    state = await table.state()
    number = state.round
    played: list[str] = []
    while state.round == number and not state.is_over:
        seat = state.to_act[0]
        action = lively(state, seat, rng)
        doc = await table.doc()
        if action.kind == "tiro":
            card = str(action.cards[0])
            await play_card_from_the_group(tg, table, table.user_at(doc, seat), card)
            played.append(card)
            await table.wait_turn_after(doc["turn"])
        else:
            await table.act(seat, action, "table")
        state = await table.state()
    return state, played
