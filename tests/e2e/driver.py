"""Playing Tapete through Telegram as four people would: shared by the e2e tests and bench/bot.py.

A :class:`MusTable` knows the fake server, the group, the seated users and a Redis client on the
bot's Redis; it reads the stored table document (only to choose legal moves and to know the
hidden cards, never to change it) and acts through commands and buttons like a person.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fake_telegram import Chat, FakeTelegram, Message, User

import engine.mus as mus
import locales
from engine.core import Action

PREFIX = f"tapete-test-{secrets.token_hex(4)}"
"""This process's Redis key prefix: the tests' bots never sweep another suite's (or a running
bot's) tables, and a test may delete everything under it when it ends."""
LANG = "es"

#: Engine action kind -> the bot command that plays it (Spanish names; see issue 5).
COMMANDS = {
    "mus": "/mus",
    "corto": "/corto",
    "paso": "/paso",
    "envido": "/envido",
    "quiero": "/quiero",
    "no_quiero": "/noquiero",
    "ordago": "/ordago",
}


def t(lang: str, key: str, **params: Any) -> str:
    """A locale text as the bot writes it; strict: a missing key or placeholder raises (a plural
    entry takes the form of ``n``)."""
    entry = locales.catalog(lang)[key]
    forms = (entry,) if isinstance(entry, str) else entry
    missing = set().union(*(locales.placeholders(form) for form in forms)) - set(params)
    if missing:
        raise KeyError(f"{key}: no value for {sorted(missing)}")
    return locales.t(lang, key, **params)


def card_name(card: str, lang: str = LANG) -> str:
    """How the bot writes a card (``12o`` -> ``rey de oros``), from the locale catalog."""
    rank, suit = card[:-1], card[-1]
    return t(lang, "card", rank=t(lang, f"rank.{rank}"), suit=t(lang, f"suit.{suit}"))


def card_mentions(text: str, cards: Sequence[str], lang: str = LANG) -> list[str]:
    """The cards of ``cards`` that ``text`` shows (canonical ``12o`` or ``rey de oros``)."""
    low = text.lower()
    found = []
    for card in cards:
        name = card_name(card, lang).lower()
        canonical = re.search(rf"(?<![0-9a-z]){re.escape(card)}(?![0-9a-z])", low)
        if canonical or re.search(rf"(?<![a-záéíóúñ]){re.escape(name)}(?![a-záéíóúñ])", low):
            found.append(card)
    return found


def deep_link_payload(message: Message, bot_username: str) -> str | None:
    """The ``start`` payload of a ``t.me/<bot>?start=...`` link in a message text or button."""
    pattern = rf"t\.me/{re.escape(bot_username)}\?start=([A-Za-z0-9_-]+)"
    for source in [message.text, message.raw] + [str(b.get("url", "")) for b in message.buttons()]:
        m = re.search(pattern, source)
        if m:
            return m.group(1)
    return None


def table_key(redis: Any, chat_id: int) -> str:
    """The key of a chat's table (on a cluster, with its bucket's hash tag)."""
    from redis.asyncio.cluster import RedisCluster

    from bot.store.cluster import BUCKETS
    from bot.store.keys import Keys

    return Keys(PREFIX, BUCKETS if isinstance(redis, RedisCluster) else 0).table(chat_id)


async def read_doc(redis: Any, chat_id: int) -> tuple[int, dict[str, Any]] | None:
    """The stored table document of a chat: ``(version, document)`` or ``None``."""
    version, doc = await redis.hmget(table_key(redis, chat_id), ["v", "d"])
    if version is None or doc is None:
        return None
    text = doc.decode() if isinstance(doc, bytes) else doc
    return int(version), json.loads(text)


async def doc_of(redis: Any, group: Chat) -> dict[str, Any]:
    """The stored table document of a group that has one."""
    found = await read_doc(redis, group.id)
    assert found is not None
    return found[1]


def last_with_button(chat: Chat, label: str) -> Message | None:
    """The newest bot message of a chat with a button whose text holds ``label``."""
    return next((m for m in reversed(chat.bot_messages()) if label in m.button_texts()), None)


async def read_raw(redis: Any, chat_id: int) -> tuple[Any, Any]:
    """The stored table exactly as bytes (to assert that something changed nothing)."""
    return tuple(await redis.hmget(table_key(redis, chat_id), ["v", "d"]))


#: Locale texts with example cards in them (the same for everybody, so they reveal nothing).
EXAMPLE_TEXTS = ("error.discard_in_private", "msg.help", "help.mus", "help.envite", "help.piedras")


@dataclass
class HiddenCardCheck:
    """Asserts that no group text shows a card that is still hidden.

    Call :meth:`check` after every step: it reads the group texts created since the last call
    (sends and edits, and button labels) and the cards every seat has held this hand (from the
    stored state). Only the result message of the previous hand (and its closed table message)
    may show that hand's cards: they were revealed at its showdown.
    """

    group: Chat
    seen: int = 0
    hand: int = 0
    held: set[str] = field(default_factory=set)
    previous: set[str] = field(default_factory=set)
    checked_texts: int = 0

    def check(self, state: Any) -> None:
        hand = state.hand_number
        current: set[str] = set()
        for seat in range(4):
            current |= set(mus.view(state, seat).to_dict().get("cards") or [])
        if hand != self.hand:
            self.previous = set(self.held)
            self.held = set()
            self.hand = hand
        self.held |= current
        revealed = mus.view(state, None).to_dict().get("revealed") or []
        hidden = self.held - {c for h in revealed for c in h}
        result_marks = [
            t(LANG, "event.hand_over", hand=hand - 1, a="", b="").split(".")[0],
            t(LANG, "table.closed_title", game="").split("·")[-1].strip(),
        ]
        examples = {t(LANG, key) for key in EXAMPLE_TEXTS}
        for text in self._new_texts():
            if text in examples:
                continue  # fixed help texts whose example cards ("12o 3c") reveal nothing
            allowed = self.previous if any(m in text for m in result_marks) else set()
            shown = card_mentions(text, sorted(hidden - allowed))
            assert not shown, f"group message shows hidden cards {shown}: {text!r}"
            self.checked_texts += 1

    def _new_texts(self) -> list[str]:
        """Texts and button labels of the group message versions since the last call."""
        versions = [v for m in self.group.bot_messages(include_deleted=True) for v in m.history]
        versions.sort(key=lambda v: v.at)
        new = versions[self.seen :]
        self.seen = len(versions)
        out = [v.text for v in new]
        for v in new:
            for row in (v.reply_markup or {}).get("inline_keyboard", []):
                out += [str(b.get("text", "")) for b in row]
        return out


class MusTable:
    """A group with four seated users, driven through the bot."""

    def __init__(self, tg: FakeTelegram, group: Chat, users: Sequence[User], redis: Any) -> None:
        self.tg = tg
        self.group = group
        self.users = list(users)
        self.redis = redis
        self.check = HiddenCardCheck(group)
        self.poll = 0.005  # seconds between two reads of the stored table while waiting

    # ---- reading ----------------------------------------------------------------------------
    async def doc(self) -> dict[str, Any]:
        found = await read_doc(self.redis, self.group.id)
        assert found is not None, f"no table stored for chat {self.group.id}"
        return found[1]

    async def state(self) -> Any:
        doc = await self.doc()
        assert doc.get("state"), f"the table has no game state: {doc.get('status')}"
        return mus.from_json(doc["state"])

    def seat_user(self, doc: dict[str, Any], seat: int) -> User:
        user_id = doc["players"][seat]["user_id"]
        return next(u for u in self.users if u.id == user_id)

    def table_message(self, doc: dict[str, Any]) -> Message:
        msg_id = doc.get("shown", {}).get("table_msg")
        for m in self.group.bot_messages():
            if m.message_id == msg_id:
                return m
        raise AssertionError(f"table message {msg_id} not found in the group")

    def hand_message(self, user: User) -> Message:
        """The newest private message showing this user's cards."""
        prefix = t(LANG, "hand.cards", cards="").strip()
        for m in reversed(user.private.bot_messages()):
            if prefix in m.text:
                return m
        raise AssertionError(f"{user.first_name} has no hand message")

    async def assert_dms_show_hands(self, timeout: float = 3.0) -> None:
        """Every seat's private hand message shows exactly that seat's current cards and no card
        of another seat (waits for the bot to finish publishing, up to ``timeout``)."""
        state = await self.state()
        doc = await self.doc()
        wrong: list[Any] = []
        hands = [mus.view(state, s).to_dict()["cards"] for s in range(4)]

        def shown() -> bool:
            wrong.clear()
            for seat in range(4):
                cards = mus.view(state, seat).to_dict()["cards"]
                user = self.seat_user(doc, seat)
                text = self.hand_message(user).text
                others = [c for s in range(4) if s != seat for c in hands[s]]
                if sorted(card_mentions(text, cards)) != sorted(cards) or card_mentions(
                    text, others
                ):
                    wrong.append((user, cards, text))
            return not wrong

        try:
            await self.tg.wait_for(shown, timeout=timeout, what="private hands")
        except AssertionError:
            raise AssertionError(f"private hand messages do not show the hands: {wrong}") from None

    async def assert_messages_current(self, timeout: float = 3.0) -> None:
        """The lobby and table messages show the stored table as it is now (the last edit was
        not made from an older copy of the table by a slower process)."""
        from bot.games import render
        from bot.table import Table

        diff: list[tuple[str, str | None]] = []

        async def current() -> bool:
            found = await read_doc(self.redis, self.group.id)
            assert found is not None
            table = Table.model_validate(found[1])
            diff.clear()
            pairs = []
            if table.shown.lobby_msg is not None:
                pairs.append((self._message(table.shown.lobby_msg), render.lobby_text(table)))
            if table.shown.table_msg is not None and table.state is not None:
                pairs.append(
                    (self._message(table.shown.table_msg), table.adapter.table_text(table))
                )
            for msg, expected in pairs:
                if msg is None or msg.raw != expected:
                    diff.append((expected, msg.raw if msg else None))
            return not diff

        try:
            await self.tg.wait_for(current, timeout=timeout, what="messages showing the table")
        except AssertionError:
            raise AssertionError(
                f"a message shows an older table: (expected, shown) {diff}"
            ) from None

    def _message(self, message_id: int) -> Message | None:
        return next((m for m in self.group.bot_messages() if m.message_id == message_id), None)

    # ---- acting -----------------------------------------------------------------------------
    async def act(
        self, seat: int, action: Action, via: str, *, deliver_to: str | None = None
    ) -> None:
        """Play ``action`` for ``seat`` by command or table button and wait for it to apply."""
        doc = await self.doc()
        before = doc.get("turn", 0)
        user = self.seat_user(doc, seat)
        if action.kind == "descarto":
            await self.discard(seat, [str(c) for c in action.cards], deliver_to=deliver_to)
        elif via == "button":

            async def find() -> tuple[Message, str] | None:
                return self.button_for(await self.doc(), action)

            msg, data = await self.tg.wait_for(
                find, timeout=3, what=f"a button for {action}", interval=self.poll
            )
            user.press(msg, data, deliver_to=deliver_to)
        else:
            user.send(self.group, command_for(action), deliver_to=deliver_to)
        await self.wait_turn_after(before)

    def button_for(self, doc: dict[str, Any], action: Action) -> tuple[Message, str] | None:
        """The table message and callback data of the current button for ``action``."""
        if doc.get("shown", {}).get("table_msg") is None:
            return None  # a new hand's table message is being posted
        msg = self.table_message(doc)
        labels = [action_label(action), action_label(action, raising=True)]
        turn = str(doc.get("turn", 0))
        for b in msg.buttons():
            data = str(b.get("callback_data", ""))
            if b["text"] in labels and data.split(":")[3:4] == [turn]:
                return msg, data
        return None

    async def discard(
        self, seat: int, cards: Sequence[str], *, deliver_to: str | None = None
    ) -> None:
        """Toggle the cards in the private hand message, then confirm."""
        doc = await self.doc()
        user = self.seat_user(doc, seat)
        for card in cards:
            selected = len(await self._selection(seat))
            name = card_name(card).lower()

            def toggle(name: str = name) -> tuple[Message, str] | None:
                msg = self.hand_message(user)
                for b in msg.buttons():
                    if b["text"].lower().endswith(name):
                        return msg, str(b["text"])
                return None

            msg, label = await self.tg.wait_for(toggle, timeout=3, what=f"a toggle for {card}")
            user.press(msg, label, deliver_to=deliver_to)
            await self.tg.wait_for(
                lambda s=selected: self._selection_len_is(seat, s + 1),
                what="toggle applied",
                interval=self.poll,
            )
        confirm = next(
            b["text"]
            for b in msg.buttons()
            if b["text"].startswith(t(LANG, "button.discard", n="").split("(")[0])
        )
        user.press(msg, confirm, deliver_to=deliver_to)

    async def _selection(self, seat: int) -> list[str]:
        return list((await self.doc()).get("discards", {}).get(str(seat), []))

    async def _selection_len_is(self, seat: int, n: int) -> bool:
        return len(await self._selection(seat)) == n

    async def wait_turn_after(self, turn: int, timeout: float = 5.0) -> dict[str, Any]:
        """Wait until the stored table moved past ``turn`` (an engine transition was saved)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            doc = await self.doc()
            if doc.get("turn", 0) > turn:
                return doc
            if loop.time() > deadline:
                raise AssertionError(f"the table did not move past turn {turn}")
            await asyncio.sleep(self.poll)


def command_for(action: Action) -> str:
    """``Action("envido", 5)`` -> ``/envido 5``."""
    base = COMMANDS[action.kind]
    return f"{base} {action.amount}" if action.amount is not None else base


def action_label(action: Action, *, raising: bool = False) -> str:
    """The label the bot gives the button of an action (the bot's own renderer)."""
    from bot.games.mus import render

    return str(render.action_label(LANG, action, raising=raising))


def random_action(state: Any, rng: random.Random) -> tuple[int, Action]:
    """A random seat to act and one of its legal actions (a discard of a random subset)."""
    seat = rng.choice(list(state.to_act))
    actions = mus.legal_actions(state, seat)
    return seat, rng.choice(actions)


#: Action kinds in the order the scripted players like them (cycled), so that one hand sees
#: bets, raises, acceptances and refusals.
TASTES = [
    ["envido"],
    ["quiero"],
    ["envido", "paso"],
    ["envido"],
    ["no_quiero"],
    ["paso"],
    ["quiero"],
]


async def open_table(
    tg: FakeTelegram,
    redis: Any,
    *,
    dm_less: int = 3,
    before_start: Callable[[], None] | None = None,
) -> tuple[MusTable, list[User], Chat]:
    """Ana opens a table (which seats her); Bea and Cris join with a button and a command;
    Dani (who never opened a private chat with the bot) joins through the deep link; Ana
    starts."""
    ana, bea, cris, dani = (
        tg.user("Ana", "ana"),
        tg.user("Bea <b>", "bea"),  # a name that must be escaped
        tg.user("Cris", None),
        tg.user("Dani", "dani"),
    )
    users = [ana, bea, cris, dani]
    group = tg.group("Mus del jueves", members=users, creator=ana)
    for i, user in enumerate(users):
        if i != dm_less:
            user.start_private()
    # Each step waits for what the next one needs (not for a quiet period: the bots may run in
    # other processes, where settle() can only wait for one).
    await tg.wait_for(
        lambda: all(u.private.bot_messages() for i, u in enumerate(users) if i != dm_less),
        what="the answers to /start",
    )

    async def seated() -> list[int]:
        found = await read_doc(redis, group.id)
        return [] if found is None else [p["user_id"] for p in found[1]["players"]]

    async def seated_are(ids: list[int]) -> bool:
        return await seated() == ids

    ana.send(group, "/nueva mus")
    lobby = await tg.wait_for(
        lambda: next(
            (m for m in group.bot_messages() if t(LANG, "button.join") in m.button_texts()), None
        ),
        what="the lobby",
    )
    assert await seated() == [ana.id], "the creator is seated"
    bea.press(lobby, t(LANG, "button.join"))
    await tg.wait_for(lambda: seated_are([ana.id, bea.id]), what="Bea seated")
    cris.send(group, f"/unirme@{tg.bot_username}")
    await tg.wait_for(lambda: seated_are([ana.id, bea.id, cris.id]), what="Cris seated")

    if tg.ephemeral_supported:
        # Dani never opened a private chat: he sits down all the same (he can see his hand in
        # the group); he opens it then, so that the tests read his hand there too.
        dani.press(lobby, t(LANG, "button.join"))
        await tg.wait_for(lambda: seated_are([u.id for u in users]), what="Dani seated")
        dani.start_private()
        await tg.wait_for(lambda: dani.private.bot_messages(), what="Dani's /start answered")
        return await _start(tg, redis, group, users, lobby, before_start)
    # Dani cannot be written to in private: the bot answers with a deep link instead.
    mark = tg.mark()
    query = dani.press(lobby, t(LANG, "button.join"))
    answer = await tg.wait_answer(query)

    def link() -> str | None:
        link_msgs = [m for m in group.bot_messages() if deep_link_payload(m, tg.bot_username)]
        if link_msgs:
            return deep_link_payload(link_msgs[-1], tg.bot_username)
        if answer.get("url"):
            return str(answer["url"]).split("start=")[-1]
        return None

    try:
        payload = await tg.wait_for(link, what="a deep link")
    except AssertionError:
        raise AssertionError(
            f"no deep link offered: answer={answer}, calls={tg.calls[mark:]}"
        ) from None
    assert len(await seated()) == 3, "seated without a private chat"
    dani.start_private(payload)
    await tg.wait_for(lambda: seated_are([u.id for u in users]), what="Dani seated")
    await tg.wait_for(
        lambda: dani.private.bot_messages(), what="Dani's private answer after the deep link"
    )
    return await _start(tg, redis, group, users, lobby, before_start)


async def _start(
    tg: FakeTelegram,
    redis: Any,
    group: Chat,
    users: list[User],
    lobby: Message,
    before_start: Callable[[], None] | None,
) -> tuple[MusTable, list[User], Chat]:
    """Ana starts the table; returns once its start is published."""
    ana = users[0]
    await tg.settle()
    if before_start is not None:
        before_start()
    ana.press(lobby, t(LANG, "button.start"))
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None and found[1]["status"] == "playing"
    table = MusTable(tg, group, users, redis)
    # The start is published in a task after the press is answered: on a loaded machine it may
    # still be going when the bot has been quiet for settle()'s 0.2 s. Tests begin once what the
    # start publishes is there: every private hand and the table message, showing the table.

    async def table_posted() -> bool:
        found = await read_doc(redis, group.id)
        return found is not None and found[1].get("shown", {}).get("table_msg") is not None

    await tg.wait_for(table_posted, what="the first table message")
    await table.assert_dms_show_hands()
    await table.assert_messages_current()
    await tg.settle()
    return table, users, group


async def play_hand(
    table: MusTable,
    rng: random.Random,
    *,
    first_via: str = "button",
    mus_rounds_wanted: int = 1,
    lance_policy: Callable[[Any, int, int], Action] | None = None,
    deliver_to: str | None = None,
) -> Any:
    """Play until the hand number changes (or the game ends); returns the last state.

    ``mus_rounds_wanted`` rounds of mus (with private discards) come first, then the mano cuts;
    lances follow ``lance_policy(state, seat, step)`` (default: :func:`choose`). Commands and
    buttons alternate, starting with ``first_via``.
    """
    policy = lance_policy or choose
    state = await table.state()
    hand = state.hand_number
    mus_rounds = 0
    step = 0
    table.check.check(state)
    while state.hand_number == hand and not state.is_over:
        if state.phase == "mus":
            seat = state.to_act[0]
            want = "mus" if mus_rounds < mus_rounds_wanted else "corto"
            action = next(a for a in mus.legal_actions(state, seat) if a.kind == want)
        elif state.phase == "discard":
            seat = state.to_act[0]
            size = rng.choice([1, 2])
            action = next(a for a in mus.legal_actions(state, seat) if len(a.cards) == size)
        else:
            seat = state.to_act[0]
            action = policy(state, seat, step)
        via = first_via if step % 2 == 0 else ("command" if first_via == "button" else "button")
        previous = state
        await table.act(seat, action, via, deliver_to=deliver_to)
        state = await table.state()
        if previous.phase == "discard" and state.phase != "discard":
            mus_rounds += 1
        step += 1
        table.check.check(state)
        if state.hand_number == hand and not state.is_over:
            await table.tg.settle(quiet=0.03)
            await table.assert_dms_show_hands()
    return state


def choose(state: Any, seat: int, step: int) -> Action:
    legal = mus.legal_actions(state, seat)
    for kind in TASTES[step % len(TASTES)]:
        for action in legal:
            if action.kind == kind and (kind != "envido" or action.amount in (None, 5)):
                return action
    return next(a for a in legal if a.kind != "ordago")


def ordago_policy(state: Any, seat: int, step: int) -> Action:
    """Órdago when nobody bet, accept it when facing one: one lance decides the juego."""
    legal = {a.kind: a for a in mus.legal_actions(state, seat)}
    for kind in ("ordago", "quiero", "paso"):
        if kind in legal and (kind != "ordago" or state.bet_pair is None):
            return legal[kind]
    return next(iter(legal.values()))
