"""Playing Mus a piedras through Telegram as 3 to 8 people would (e2e tests and bench/bot.py).

A :class:`PiedrasTable` knows the fake server, the group, the seated users and a Redis client on
the bot's Redis; it reads the stored table (only to choose legal moves and to know the hidden
cards, never to change it) and acts like a person: table buttons, commands in the group, the
private discard toggles or ``/descarto 12o`` in private.

For a benchmark: ``table = await open_piedras_table(tg, redis, players=4)`` then
``state = await play_hand_by_buttons(table, random.Random(1))`` plays one hand by buttons.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from driver import card_mentions, read_doc
from fake_telegram import Chat, FakeTelegram, Message, User, html_to_text

import engine.piedras as piedras
from engine.core import Action
from locales import t

NAMES = ["Ana", "Bea <b>", "Cris", "Dani", "Eva", "Fede", "Gus", "Hugo"]

#: Engine action kind -> the Spanish and English commands that play it.
COMMANDS = {
    "es": {
        "paso": "/paso",
        "envido": "/envido",
        "quiero": "/quiero",
        "no_quiero": "/noquiero",
        "ordago": "/ordago",
    },
    "en": {
        "paso": "/pass",
        "envido": "/bet",
        "quiero": "/accept",
        "no_quiero": "/fold",
        "ordago": "/allin",
    },
}

Policy = Callable[[Any, int, int, set[str]], Action]
"""``policy(state, seat, step, on_buttons)``: the action to play (``on_buttons``: the action
texts the table message offers now, for a player who uses the buttons)."""


def command_for(action: Action, lang: str = "es") -> str:
    """``Action("envido", 5)`` -> ``/envido 5`` (``/bet 5`` in English)."""
    base = COMMANDS[lang][action.kind]
    return f"{base} {action.amount}" if action.amount is not None else base


@dataclass
class HiddenCards:
    """No group text (sends, edits, button labels) shows a card still hidden in this hand."""

    group: Chat
    lang: str = "es"
    seen: int = 0
    checked: int = 0
    examples: set[str] = field(default_factory=set)

    def check(self, state: Any) -> None:
        held = {str(c) for h in state.hands for c in h}
        shown = {str(c) for s in state.revealed for c in state.hands[s]}
        hidden = sorted(held - shown)
        versions = [v for m in self.group.bot_messages(include_deleted=True) for v in m.history]
        versions.sort(key=lambda v: v.at)
        new = versions[self.seen :]
        self.seen = len(versions)
        texts = [v.text for v in new]
        for v in new:
            for row in (v.reply_markup or {}).get("inline_keyboard", []):
                texts += [str(b.get("text", "")) for b in row]
        for text in texts:
            if text in self.examples:
                continue
            found = card_mentions(text, hidden, self.lang)
            assert not found, f"group text shows hidden cards {found}: {text!r}"
            self.checked += 1


class PiedrasTable:
    """A group with 3 to 8 seated users playing Mus a piedras through the bot."""

    def __init__(
        self, tg: FakeTelegram, group: Chat, users: Sequence[User], redis: Any, lang: str = "es"
    ) -> None:
        self.tg = tg
        self.group = group
        self.users = list(users)
        self.redis = redis
        self.lang = lang
        examples = {"msg.help", "help.piedras", "help.mus", "error.discard_in_private"}
        self.check = HiddenCards(group, lang, examples={html_to_text(t(lang, k)) for k in examples})
        self.poll = 0.005

    # ---- reading ----------------------------------------------------------------------------
    async def doc(self) -> dict[str, Any]:
        found = await read_doc(self.redis, self.group.id)
        assert found is not None, f"no table stored for chat {self.group.id}"
        return found[1]

    async def state(self) -> Any:
        doc = await self.doc()
        assert doc.get("state"), f"the table has no game state: {doc.get('status')}"
        return piedras.from_json(doc["state"])

    def seat_user(self, doc: dict[str, Any], seat: int) -> User:
        user_id = doc["players"][seat]["user_id"]
        return next(u for u in self.users if u.id == user_id)

    def table_message(self, doc: dict[str, Any]) -> Message | None:
        msg_id = doc.get("shown", {}).get("table_msg")
        return next((m for m in self.group.bot_messages() if m.message_id == msg_id), None)

    def hand_message(self, user: User) -> Message:
        """The newest private message with this user's hand (title line of the game)."""
        title = t(self.lang, "game.piedras")
        for m in reversed(user.private.bot_messages()):
            if m.text.startswith(f"🃏 {title}"):
                return m
        raise AssertionError(f"{user.first_name} has no hand message")

    def buttons(self, doc: dict[str, Any]) -> dict[str, tuple[Message, str]]:
        """The current table buttons: action text -> (message, callback data)."""
        msg = self.table_message(doc)
        if msg is None:
            return {}
        turn = str(doc.get("turn", 0))
        out = {}
        for b in msg.buttons():
            parts = str(b.get("callback_data", "")).split(":")
            if parts[0] == "a" and parts[3:4] == [turn] and len(parts) > 4:
                out[parts[4]] = (msg, str(b["callback_data"]))
        return out

    async def assert_dms_show_hands(self, timeout: float = 3.0) -> None:
        """Each player in the hand sees exactly his cards in private, and no one else's."""
        state = await self.state()
        doc = await self.doc()
        hands = [[str(c) for c in h] for h in state.hands]
        wrong: list[Any] = []

        def shown() -> bool:
            wrong.clear()
            for seat in state.in_hand:
                user = self.seat_user(doc, seat)
                text = self.hand_message(user).text
                others = [c for s, h in enumerate(hands) if s != seat for c in h]
                mine = card_mentions(text, hands[seat], self.lang)
                if sorted(mine) != sorted(hands[seat]) or card_mentions(text, others, self.lang):
                    wrong.append((user, hands[seat], text))
            return not wrong

        try:
            await self.tg.wait_for(shown, timeout=timeout, what="private hands")
        except AssertionError:
            raise AssertionError(f"private hands do not show the cards: {wrong}") from None

    # ---- acting -----------------------------------------------------------------------------
    async def act(self, seat: int, action: Action, via: str) -> None:
        """Play ``action`` for ``seat`` by button or command and wait until it is applied."""
        doc = await self.doc()
        before = doc.get("turn", 0)
        user = self.seat_user(doc, seat)
        if action.kind == "descarto":
            await self.discard(seat, str(action.cards[0]), via)
        elif via == "button":

            async def find() -> tuple[Message, str] | None:
                return self.buttons(await self.doc()).get(str(action))

            msg, data = await self.tg.wait_for(
                find, timeout=3, what=f"a button for {action}", interval=self.poll
            )
            user.press(msg, data)
        else:
            user.send(self.group, command_for(action, self.lang))
        await self.wait_turn_after(before)

    async def discard(self, seat: int, card: str, via: str) -> None:
        """Throw one card: the private toggle then Descartar, or ``/descarto 12o`` in private."""
        doc = await self.doc()
        user = self.seat_user(doc, seat)
        if via != "button":
            user.send(user.private, f"/descarto {card}")
            return
        from bot.games.render import card_name

        name = card_name(self.lang, card).lower()

        def toggle() -> tuple[Message, str] | None:
            msg = self.hand_message(user)
            for b in msg.buttons():
                if b["text"].lower().endswith(name):
                    return msg, str(b["callback_data"])
            return None

        msg, data = await self.tg.wait_for(toggle, timeout=3, what=f"a toggle for {card}")
        user.press(msg, data)

        async def selected() -> bool:
            return (await self.doc()).get("discards", {}).get(str(seat)) == [card]

        await self.tg.wait_for(selected, what="the card selected", interval=self.poll)

        def confirm() -> tuple[Message, str] | None:
            msg = self.hand_message(user)
            for b in msg.buttons():
                if str(b.get("callback_data", "")).startswith("c:"):
                    return msg, str(b["callback_data"])
            return None

        msg, data = await self.tg.wait_for(confirm, timeout=3, what="the discard button")
        user.press(msg, data)

    async def wait_turn_after(self, turn: int, timeout: float = 5.0) -> dict[str, Any]:
        """Wait until the stored table moved past ``turn``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            doc = await self.doc()
            if doc.get("turn", 0) > turn:
                return doc
            if loop.time() > deadline:
                raise AssertionError(f"the table did not move past turn {turn}")
            await asyncio.sleep(self.poll)


async def open_piedras_table(
    tg: FakeTelegram,
    redis: Any,
    *,
    players: int = 3,
    words: str = "piedras=5",
    lang: str = "es",
    users: Sequence[User] | None = None,
) -> PiedrasTable:
    """The first user opens ``/nueva piedras <words>`` (seated by it); the others join (buttons and
    ``/unirme``), the first starts with the button."""
    if users is None:
        users = [tg.user(NAMES[i], f"u{i}", language_code=lang) for i in range(players)]
    group = tg.group("Piedras del viernes", members=users, creator=users[0])
    for user in users:
        user.start_private()
    await tg.settle()
    if lang != "es":
        users[0].send(group, f"/idioma {lang}")
        await tg.settle()
    users[0].send(group, f"/nueva piedras {words}".strip())
    join = t(lang, "button.join")
    lobby = await tg.wait_for(
        lambda: next((m for m in group.bot_messages() if join in m.button_texts()), None),
        what="the lobby",
    )
    for i, user in enumerate(users):
        if i == 0:
            continue  # the creator was seated by /nueva
        if i % 2:
            user.send(group, "/unirme" if lang == "es" else "/join")
        else:
            user.press(lobby, join)
        await tg.settle(quiet=0.05)
    found = await read_doc(redis, group.id)
    assert found is not None
    assert [p["user_id"] for p in found[1]["players"]] == [u.id for u in users]
    users[0].press(lobby, t(lang, "button.start"))
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None and found[1]["status"] == "playing"
    return PiedrasTable(tg, group, users, redis, lang)


def lively(state: Any, seat: int, step: int, on_buttons: set[str]) -> Action:
    """Bets, acceptances, raises and refusals in turn (stones move quickly), never above the cap;
    a player on the buttons picks among what the table message offers."""
    legal = piedras.legal_actions(state, seat)
    if on_buttons:
        legal = [a for a in legal if str(a) in on_buttons] or legal
    kinds = [["envido"], ["quiero"], ["quiero", "paso"], ["envido", "paso"], ["no_quiero"]]
    for kind in kinds[step % len(kinds)]:
        for action in legal:
            if action.kind == kind:
                return action
    return next((a for a in legal if a.kind in ("paso", "quiero")), legal[0])


def ordago_happy(state: Any, seat: int, step: int, on_buttons: set[str]) -> Action:
    """Órdago when it may, accept one: juegos end fast."""
    legal = {a.kind: a for a in piedras.legal_actions(state, seat)}
    for kind in ("ordago", "quiero", "paso"):
        if kind in legal:
            return legal[kind]
    return next(iter(legal.values()))


async def play_hand(
    table: PiedrasTable,
    rng: random.Random,
    *,
    first_via: str = "button",
    policy: Policy = lively,
    alternate: bool = True,
    check_dms: bool = True,
) -> Any:
    """Play until the hand number changes (or the match ends); returns the last state.

    Discards throw a random card; lances follow ``policy``. Buttons and commands alternate
    (starting with ``first_via``) unless ``alternate`` is False.
    """
    state = await table.state()
    hand = state.hand_number
    step = 0
    table.check.check(state)
    while state.hand_number == hand and not state.is_over:
        via = first_via
        if alternate and step % 2:
            via = "command" if first_via == "button" else "button"
        seat = state.to_act[0]
        if state.phase == "discard":
            action = Action("descarto", cards=(rng.choice(state.hands[seat]),))
        else:
            offered: set[str] = set()
            if via == "button":
                doc = await table.doc()
                offered = set(table.buttons(doc))
                if not offered:
                    await table.tg.settle(quiet=0.02)
                    offered = set(table.buttons(await table.doc()))
            action = policy(state, seat, step, offered)
            if via == "button" and str(action) not in offered:
                via = "command"
        await table.act(seat, action, via)
        state = await table.state()
        step += 1
        table.check.check(state)
        if check_dms and state.hand_number == hand and not state.is_over:
            await table.tg.settle(quiet=0.03)
            await table.assert_dms_show_hands()
    return state


async def play_hand_by_buttons(table: PiedrasTable, rng: random.Random) -> Any:
    """One hand played only by buttons (the private discard toggles, then the table buttons),
    for ``bench/bot.py --game piedras``; returns the engine state after the hand."""
    return await play_hand(
        table, rng, first_via="button", alternate=False, policy=lively, check_dms=False
    )
