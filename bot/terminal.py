"""A game in the terminal against computer players: any of the three games, in Spanish or English.

Run ``tapete-terminal [juego] [opciones] [nivel=facil] [idioma=en] [jugadores=N] [semilla=N]
[nombre=Ana]`` (``make play``); the words are those of ``/nueva`` (``tapete-terminal envite
chicos=1``). Without a game word it asks which game. You sit at seat 1, named "Ana (tú)" (the
table's texts speak of every player in the third person: "Le toca a Ana (tú)"; without
``nombre=`` your login name); computer players fill the others.

The terminal is a table like the group's: it is a :class:`~bot.table.Table` played in memory,
its texts are the bot's own (the table message, your private hand, the hand results, from the
locale catalogs, without the HTML), the computer players move through the table's timer (with
no pause here), and your choices are the table's buttons, numbered. Type a number, the words of
an action (``envido 5``, ``descarto 12o 3c``, ``tiro 1o``), ``?`` for help, ``salir``/``quit``
(or end of input) to stop. Only your own cards are shown until they are shown on the table.
"""

from __future__ import annotations

import getpass
import html
import random
import re
import sys
from collections.abc import Sequence
from typing import TextIO

from bot import present
from bot.flow import moves
from bot.games import render
from bot.games.base import OptionError
from bot.games.registry import DEFAULT_GAME, GAMES, find_game
from bot.games.render import error_text
from bot.handlers.computers import LevelError, take_level
from bot.table import Table
from engine.core import IllegalAction
from locales import LANGUAGES, t, tn

ME = 0
QUIT_WORDS = frozenset({"salir", "quit", "exit", "q"})
HELP_WORDS = frozenset({"?", "ayuda", "help"})
NEVER = 10.0**9
"""Your turn never times out in the terminal."""
_TAG = re.compile(r"<[^>]+>")


def plain(text: str) -> str:
    """A Telegram HTML text for the terminal.

    >>> plain("<b>Ana</b> &amp; <i>Bea</i>")
    'Ana & Bea'
    """
    return html.unescape(_TAG.sub("", text))


def _button_hints(table: Table) -> frozenset[str]:
    """The lines of the table and hand texts that say how to act with Telegram's buttons (the
    game's :attr:`~bot.games.base.Features.button_hints` and the discard prompt): the terminal
    says how to act here instead (``terminal.discard_hint``, the numbered choices)."""
    lang = table.lang
    hints = [t(lang, key) for key in table.adapter.features.button_hints]
    hints += [tn(lang, "hand.discard_prompt", n) for n in (1, 2)]
    return frozenset(plain(hint) for hint in hints)


def shown(text: str, table: Table) -> str:
    """A table or hand text of ``table`` as the terminal shows it: plain, without the lines
    about Telegram's buttons."""
    hints = _button_hints(table)
    return "\n".join(line for line in plain(text).split("\n") if line not in hints)


class Setup:
    """What the words of the command line ask for."""

    def __init__(self, words: Sequence[str]) -> None:
        self.lang = "es"
        self.seed: int | None = None
        self.players: int | None = None
        self.name: str | None = None
        rest: list[str] = []
        for word in words:
            key, sep, value = word.partition("=")
            key = key.lower().lstrip("-")
            if sep and key in ("idioma", "lang", "language") and value in LANGUAGES:
                self.lang = value
            elif sep and key in ("semilla", "seed") and value.isdigit():
                self.seed = int(value)
            elif sep and key in ("jugadores", "players") and value.isdigit():
                self.players = int(value)
            elif sep and key in ("nombre", "name") and value.strip():
                self.name = value.strip()[:30]
            else:
                rest.append(word)
        self.level, self.words = take_level(rest)


def my_name(lang: str, name: str | None = None) -> str:
    """Your name at the table: ``name`` (else your login name) marked as you.

    >>> my_name("es", "ana"), my_name("en", "Bea")
    ('Ana (tú)', 'Bea (you)')
    """
    if not name:
        try:
            name = getpass.getuser()
        except Exception:  # no login name (some containers): a plain word
            name = t(lang, "terminal.player")
    return t(lang, "terminal.me", name=name[:1].upper() + name[1:])


def new_table(game: str, words: Sequence[str], setup: Setup, name: str) -> Table:
    """You at seat 1 and computer players in the other seats (``jugadores=N`` in all)."""
    adapter = GAMES[game]
    table = Table(
        chat_id=0,
        creator=1,
        tid="terminal",
        game=game,
        options=adapter.parse_options(list(words)),
        lang=setup.lang,
        level=setup.level or "normal",
        title="Tapete",
    )
    table.join(1, name)
    low, high = table.seats_range()
    wanted = min(max(setup.players or low, low), high)
    while len(table.players) < wanted:
        table.add_computer()
    table.fill_with_computers()
    return table


def _choices(table: Table) -> list[tuple[str, str]]:
    """(label, action) of the buttons you could press now: the table's and your hand's."""
    game = table.adapter
    rows = [*game.table_buttons(table), *game.hand_buttons(table, ME)]
    return [(plain(b.label), b.action) for row in rows for b in row if b.action is not None]


def _discard_cards(table: Table, line: str) -> str | None:
    """``1 3`` (positions in your hand) → ``descarto 12o 3c``; ``None`` if not numbers."""
    words = line.split()
    cards = table.adapter.seat_cards(table, ME)
    if not words or not all(w.isdigit() and 1 <= int(w) <= len(cards) for w in words):
        return None
    return "descarto " + " ".join(cards[int(w) - 1] for w in words)


def play(
    stdin: TextIO,
    stdout: TextIO,
    game: str = DEFAULT_GAME,
    words: Sequence[str] = (),
    *,
    seed: int = 0,
    lang: str = "es",
    level: str = "normal",
    players: int | None = None,
    name: str = "Ana",
) -> int:
    """Play one game reading your moves from ``stdin``; returns the exit status."""
    setup = Setup([f"idioma={lang}", f"nivel={level}"])
    setup.players = players
    table = new_table(game, words, setup, my_name(lang, name))
    return run(table, stdin, stdout, seed)


def run(table: Table, stdin: TextIO, stdout: TextIO, seed: int) -> int:
    lang = table.lang

    def say(text: str) -> None:
        stdout.write(text + "\n")

    clock = 0.0
    present.post(table, moves.start(table, seed, clock, NEVER, pause=(0.0, 0.0)))
    names = ", ".join(table.names()[1:])
    say(t(lang, "terminal.welcome", game=table.adapter.title(lang), others=names))
    say(t(lang, "terminal.how"))
    shown_turn = -1
    while True:
        for text in [*table.shown.closing.values(), *(u[1] for u in table.shown.unposted.values())]:
            say("\n" + plain(text))
        me = table.players[ME].user_id
        for notice in table.shown.outbox:
            if notice.to is None or notice.to == me:  # the table's, and your partners' señas
                say("\n" + plain(notice.text))
        table.shown.closing, table.shown.outbox, table.shown.unposted = {}, [], {}
        if table.status != "playing":
            if table.shown.final:  # the game's result, at the foot of its table message
                say("\n" + plain(table.shown.final))
            say(t(lang, "terminal.over"))
            return 0
        table.turn_seconds = 0  # no clock to show: you have all the time
        if ME not in table.to_act():
            clock = max(clock, table.deadline or clock)
            present.post(table, moves.fire_timer(table, clock, NEVER, (0.0, 0.0)))
            continue
        choices = _choices(table)
        if shown_turn != table.turn:
            shown_turn = table.turn
            say("\n" + shown(table.adapter.table_text(table), table))
            say("\n" + shown(table.adapter.hand_text(table, ME), table))
            if table.adapter.features.in_discard(table.engine_state()):
                cards = table.adapter.seat_cards(table, ME)
                say(" · ".join(f"{i}) {c}" for i, c in enumerate(cards, 1)))
                say(tn(lang, "terminal.discard_hint", table.adapter.features.discard_limit))
            for i, (label, _action) in enumerate(choices, 1):
                say(f"  {i}) {label}")
        stdout.write("> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            say("\n" + t(lang, "terminal.bye"))
            return 0
        text = line.strip()
        if text.lower() in QUIT_WORDS:
            say(t(lang, "terminal.bye"))
            return 0
        if not text or text.lower() in HELP_WORDS:
            if text:  # an empty line only shows the table again
                say(t(lang, "terminal.help"))
            shown_turn = -1
            continue
        action = text
        if table.adapter.features.in_discard(table.engine_state()):
            action = _discard_cards(table, text) or text
        elif text.isdigit() and 1 <= int(text) <= len(choices):
            action = choices[int(text) - 1][1]
        try:
            clock += 1.0
            present.post(table, moves.play(table, ME, action, clock, NEVER, (0.0, 0.0)))
        except IllegalAction as refusal:
            say(t(lang, "terminal.refused", why=plain(_refusal(table, refusal))))


def _refusal(table: Table, refusal: IllegalAction) -> str:
    return error_text(table.lang, render.refusal(table, refusal))


def _ask_game(stdin: TextIO, stdout: TextIO, lang: str) -> str | None:
    names = list(GAMES)
    stdout.write(t(lang, "terminal.which_game") + "\n")
    for i, name in enumerate(names, 1):
        stdout.write(f"  {i}) {GAMES[name].title(lang)}\n")
    stdout.write("> ")
    stdout.flush()
    line = stdin.readline()
    if not line:
        return None
    word = line.strip()
    if not word:
        return DEFAULT_GAME
    if word.isdigit() and 1 <= int(word) <= len(names):
        return names[int(word) - 1]
    found = find_game(word)
    return found.name if found is not None else DEFAULT_GAME


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    """Entry point of ``tapete-terminal``."""
    stdin = stdin or sys.stdin
    out = sys.stdout
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        setup = Setup(words)
    except LevelError as exc:
        out.write(t("es", "bots.bad_level", word=exc.word) + "\n")
        return 2
    lang = setup.lang
    rest = setup.words
    found = find_game(rest[0]) if rest else None
    if found is not None:
        game, options = found.name, rest[1:]
    elif rest:
        game, options = DEFAULT_GAME, rest
    else:
        asked = _ask_game(stdin, out, lang)
        if asked is None:
            out.write(t(lang, "terminal.bye") + "\n")
            return 0
        game, options = asked, []
    seed = setup.seed if setup.seed is not None else random.SystemRandom().randrange(2**31)
    try:
        table = new_table(game, options, setup, my_name(lang, setup.name))
    except OptionError as exc:
        texts = GAMES[game].texts
        out.write(plain(texts.say(lang, texts.bad_option, word=exc.word)) + "\n")
        return 2
    try:
        return run(table, stdin, out, seed)
    except KeyboardInterrupt:
        out.write("\n" + t(lang, "terminal.bye") + "\n")
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
