"""Playing envite through Telegram as 4 to 12 people would (e2e tests and ``bench/bot.py``).

An :class:`EnviteTable` knows the fake server, the group, the seated users and a Redis client on
the bot's Redis; it reads the stored table (to choose legal moves, never to change it) and acts
like a person: table buttons, typed commands, the private hand's card buttons, or inline mode
(the table's "play a card" button, then one of the inline results).

For a benchmark: ``table = await open_envite(tg, redis, players=4)`` then
``await play_round(table, random.Random(1))`` (one round by buttons) or
``await play_chico(table, random.Random(1))`` (until a chico is won).
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable, Sequence
from typing import Any

from driver import LANG, card_mentions, read_doc
from fake_telegram import Chat, FakeTelegram, Message, User

import engine.envite as envite
from engine.core import Action
from locales import t

NAMES = ["Ana", "Bea", "Cris", "Dani", "Eva", "Fer", "Gus", "Hugo", "Iris", "Juan", "Kim", "Luz"]

#: Engine action kind -> the command that plays it (Spanish; English aliases work too).
COMMANDS = {
    "tiro": "/tiro",
    "envido": "/envido",
    "siete": "/siete",
    "nueve": "/nueve",
    "chico_fuera": "/chicofuera",
    "quiero": "/quiero",
    "no_quiero": "/noquiero",
    "tumbo": "/tumbo",
    "no_tumbo": "/notumbo",
    "renuncio": "/renuncio",
}

Policy = Callable[[Any, int, random.Random], Action]


def command_for(action: Action) -> str:
    base = COMMANDS[action.kind]
    return f"{base} {action.cards[0]}" if action.cards else base


def label_for(action: Action, lang: str = LANG) -> str:
    """The label the bot gives an action's button (the bot's own renderer)."""
    from bot.games.envite import render

    if action.cards:
        return render.card_button(lang, str(action.cards[0]))
    return render.action_label(lang, action)


class EnviteTable:
    """A group with seated users playing envite, driven through the bot."""

    def __init__(self, tg: FakeTelegram, group: Chat, users: Sequence[User], redis: Any) -> None:
        self.tg, self.group, self.users, self.redis = tg, group, list(users), redis
        self.poll = 0.005
        self.lang = LANG

    async def doc(self) -> dict[str, Any]:
        found = await read_doc(self.redis, self.group.id)
        assert found is not None, "no table stored"
        return found[1]

    async def state(self) -> envite.EnviteState:
        doc = await self.doc()
        assert doc.get("state"), f"no game state: {doc.get('status')}"
        return envite.from_json(doc["state"])

    def user_at(self, doc: dict[str, Any], seat: int) -> User:
        uid = doc["players"][seat]["user_id"]
        return next(u for u in self.users if u.id == uid)

    def message(self, message_id: object) -> Message | None:
        return next((m for m in self.group.bot_messages() if m.message_id == message_id), None)

    def hand_message(self, user: User) -> Message | None:
        prefix = t(self.lang, "hand.cards", cards="").strip()
        for m in reversed(user.private.bot_messages()):
            if prefix in m.text:
                return m
        return None

    async def wait_turn_after(self, turn: int, timeout: float = 5.0) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            doc = await self.doc()
            if doc.get("turn", 0) > turn:
                return doc
            if loop.time() > deadline:
                raise AssertionError(f"the table did not move past turn {turn}")
            await asyncio.sleep(self.poll)

    async def act(self, seat: int, action: Action, via: str) -> None:
        """Play ``action`` for ``seat`` (``button``, ``command`` or ``inline``) and wait for it.

        ``button`` plays a card with the private hand's card button, anything else with the
        table message's button; ``inline`` plays a card through inline mode."""
        doc = await self.doc()
        before = doc.get("turn", 0)
        user = self.user_at(doc, seat)
        if via == "command":
            user.send(self.group, command_for(action))
        elif via == "inline" and action.cards:
            await self.play_inline(user, action)
        elif action.cards:
            msg, data = await self.tg.wait_for(
                lambda: self._hand_button(user, action, before),
                timeout=3,
                what=f"a hand button for {action}",
                interval=self.poll,
            )
            user.press(msg, data)
        else:

            async def find() -> tuple[Message, str] | None:
                return self._table_button(await self.doc(), action)

            msg, data = await self.tg.wait_for(
                find, timeout=3, what=f"a button for {action}", interval=self.poll
            )
            user.press(msg, data)
        await self.wait_turn_after(before)

    def _hand_button(self, user: User, action: Action, turn: int) -> tuple[Message, str] | None:
        msg = self.hand_message(user)
        if msg is None:
            return None
        for b in msg.buttons():
            data = str(b.get("callback_data", ""))
            if data.endswith(f":{turn}:{action}"):
                return msg, data
        return None

    def _table_button(self, doc: dict[str, Any], action: Action) -> tuple[Message, str] | None:
        msg = self.message(doc.get("shown", {}).get("table_msg"))
        if msg is None:
            return None
        for b in msg.buttons():
            data = str(b.get("callback_data", ""))
            current = data.split(":")[3:4] == [str(doc["turn"])]
            if b["text"] == label_for(action, self.lang) and current:
                return msg, data
        return None

    async def play_inline(self, user: User, action: Action) -> Message:
        """Press "play a card" on the table message, then choose the card among the results."""
        doc = await self.doc()

        def table_msg() -> Message | None:
            msg = self.message(doc.get("shown", {}).get("table_msg"))
            if msg and t(self.lang, "envite.button.play") in msg.button_texts():
                return msg
            return None

        msg = await self.tg.wait_for(table_msg, timeout=3, what="the play button")
        query = user.press(msg, t(self.lang, "envite.button.play"))
        answer = await self.tg.wait_inline_answer(query)
        assert answer.is_personal and answer.cache_time == 0
        wanted = f"{self.group.id}:{doc['tid']}:{doc['turn']}:{action}"
        assert wanted in answer.ids(), (wanted, answer.ids())
        return user.choose_inline_result(query, wanted)


async def open_envite(
    tg: FakeTelegram, redis: Any, *, players: int = 4, options: str = "", lang: str = LANG
) -> EnviteTable:
    """``players`` users open a private chat with the bot, Ana opens ``/nueva envite <options>``,
    which seats her; the others join with the button (teams by join order) and Ana starts."""
    users = [tg.user(NAMES[i], NAMES[i].lower()) for i in range(players)]
    group = tg.group("Envite del sábado", members=users, creator=users[0])
    for user in users:
        user.start_private()
    await tg.settle()
    if lang != "es":
        users[0].send(group, f"/idioma {lang}")
        await tg.settle()
    users[0].send(group, f"/nueva envite {options}".strip())
    join = t(lang, "button.join")
    lobby = await tg.wait_for(
        lambda: next((m for m in group.bot_messages() if join in m.button_texts()), None),
        what="the lobby",
    )
    for user in users[1:]:  # the creator was seated by /nueva
        user.press(lobby, join)
        await tg.settle(quiet=0.05)
    start = [b for b in lobby.buttons() if str(b.get("callback_data", "")).startswith("g:")]
    users[0].press(lobby, str(start[0]["callback_data"]))
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None and found[1]["status"] == "playing", found
    table = EnviteTable(tg, group, users, redis)
    table.lang = lang
    return table


def lively(state: Any, seat: int, rng: random.Random) -> Action:
    """A player who bets, raises, answers and goes to the tumbo now and then."""
    legal = envite.legal_actions(state, seat)
    kinds = {a.kind: a for a in legal}
    if "tumbo" in kinds:
        return kinds["tumbo" if rng.random() < 0.5 else "no_tumbo"]
    if state.phase == "bet":
        pick = rng.choice(["quiero", "quiero", "no_quiero", "raise"])
        raises = [a for a in legal if a.kind not in ("quiero", "no_quiero", "renuncio")]
        if pick == "raise" and raises:
            return raises[0]
        return kinds.get(pick, kinds["quiero"])
    if "envido" in kinds and rng.random() < 0.3:
        return kinds["envido"]
    return rng.choice([a for a in legal if a.kind == "tiro"])


async def play_round(
    table: EnviteTable,
    rng: random.Random,
    *,
    vias: Sequence[str] = ("button",),
    policy: Policy = lively,
    check: Callable[[EnviteTable], Any] | None = None,
) -> Any:
    """Play until the round number changes (or the game ends), cycling the ways of acting in
    ``vias``; returns the last state. ``check`` runs after every move."""
    state = await table.state()
    number = state.round
    step = 0
    while state.round == number and not state.is_over:
        seat = state.to_act[0]
        action = policy(state, seat, rng)
        await table.act(seat, action, vias[step % len(vias)])
        step += 1
        state = await table.state()
        if check is not None:
            await check(table)
    return state


async def play_chico(
    table: EnviteTable, rng: random.Random, *, vias: Sequence[str] = ("button",)
) -> Any:
    """Play rounds until a team wins a chico (or the game); returns the last state."""
    first = await table.state()
    while True:
        state = await play_round(table, rng, vias=vias)
        if state.is_over or state.chicos != first.chicos:
            return state


async def no_held_card_in_group(table: EnviteTable) -> None:
    """The table message (minus the E3 trumps line, a rule) shows no card still held."""
    from bot.games.envite.render import trumps_text

    doc = await table.doc()
    state = envite.from_json(doc["state"])
    held = sorted({str(c) for hand in state.hands for c in hand})
    msg = table.message(doc.get("shown", {}).get("table_msg"))
    if msg is None or state.is_over:
        return
    rule = re.sub(r"<[^>]+>", "", trumps_text(LANG, str(state.vira), state.k))
    text = msg.text.replace(rule, "")
    labels = " ".join(msg.button_texts())
    shown = card_mentions(text + " " + labels, held)
    assert not shown, f"the table message shows held cards {shown}: {msg.text!r}"
