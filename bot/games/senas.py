"""Señas at the table (rules/senas.md): what each seat may send, the private notices that
deliver them, their options and their inline results. Game-agnostic: a game has señas when its
engine exposes ``legal_senas`` (Mus and envite; Mus a piedras has none).

A seña never reaches the group: its button sits in the sender's private hand message (callback
``s:<chat>:<tid>:<hand>:<name>``, refused once the hand or round is over), the engine's ``sena``
event becomes a private notice to each partner, and a ``sena_caught`` one to the opponent who
caught it (S4). The table message only offers a "Señas" button that opens the presser's own
señas as inline results (personal, never cached); choosing one posts a neutral "🤫" as his
message, nothing of the seña.

>>> slug("triunfos pequeños")
'triunfos_pequenos'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.games import render
from bot.games.base import InlineChoice, OptionError, TableView
from engine.core import Action, Event, normalize
from locales import t

INLINE_WORD = "senas"
"""Second word of the inline query that lists one's señas (``@bot <tid> senas``)."""
BUTTONS_PER_ROW = 3
OPTION_WORDS = ("sinsenas", "senasvistas", "pillar=")


def slug(name: str) -> str:
    """A seña's name as a locale key part (no accents, underscores)."""
    return normalize(name).replace(" ", "_")


def label(table: TableView, name: str) -> str:
    """A seña's name in the table's language (the game declares its key)."""
    return table.adapter.texts.sena(table.lang, name)


def offered(table: TableView, seat: int) -> list[Action]:
    """The señas ``seat``'s hand message offers (empty when the game has none, or they are
    off): those he may send now, and those his cards will allow once their window opens."""
    if table.status != "playing" or table.state is None:
        return []
    return table.adapter.coming_senas(table.engine_state(), seat)


def enabled(table: TableView) -> bool:
    """Señas are played at this table (the game has them and ``sinsenas`` is off)."""
    return table.adapter.features.senas and not table.options.get("sinsenas", False)


def inline_choices(table: TableView, seat: int) -> list[InlineChoice]:
    """The seat's señas as inline results; the text posted in the group reveals nothing."""
    partners = sum(1 for i in range(len(table.players)) if table.team_of(i) == table.team_of(seat))
    to = "senas.inline.partner" if partners <= 2 else "senas.inline.team"
    return [
        InlineChoice(
            action=str(a),
            title=t(table.lang, "senas.button", sena=label(table, a.name or "")),
            description=t(table.lang, to),
            text=t(table.lang, "senas.inline.text"),
        )
        for a in table.adapter.legal_senas(table.engine_state(), seat)
        if table.status == "playing" and table.state is not None
    ]


def sent_text(table: TableView, name: str) -> str:
    """The sender's private confirmation ("🤫 Seña hecha: dos reyes")."""
    return t(table.lang, "senas.sent", sena=label(table, name))


# ---- notices ---------------------------------------------------------------------------------


def notices(table: TableView, events: Sequence[Event]) -> list[tuple[int, str]]:
    """``(user_id, text)`` for every private seña event: "Ana te hace la seña: dos reyes 😬"
    to each partner (several señas in a row from one player: one message, "Ana te hace las
    señas: dos reyes, 31"), "👀 Pillas a Ana..." to an opponent who caught it."""
    names = table.names()
    out: list[tuple[int, str]] = []
    run: list[Event] = []  # señas in a row from one seat to the same partners
    for event in events:
        if event.kind not in ("sena", "sena_caught") or event.to is None:
            continue
        if event.kind == "sena":
            if run and (event.data["seat"], event.to) != (run[0].data["seat"], run[0].to):
                out.extend(_told(table, names, run))
                run = []
            run.append(event)
            continue
        data = event.data
        sena = label(table, str(data["name"]))
        who = render.esc(_name(names, data["seat"]))
        to = ", ".join(render.esc(_name(names, s)) for s in data.get("to", ()))
        text = t(table.lang, "senas.caught", name=who, to=to, sena=sena)
        out.extend(_to_seats(table, event.to, text))
    if run:
        out.extend(_told(table, names, run))
    return out


def _told(table: TableView, names: Sequence[str], run: Sequence[Event]) -> list[tuple[int, str]]:
    """The partners' notice of one player's señas in a row."""
    who = render.esc(_name(names, run[0].data["seat"]))
    said = [label(table, str(e.data["name"])) for e in run]
    if len(said) == 1:
        text = t(table.lang, "senas.notice", name=who, sena=said[0])
    else:
        text = t(table.lang, "senas.notice_many", name=who, senas=", ".join(said))
    return _to_seats(table, run[0].to, text)


def _to_seats(table: TableView, seats: Iterable[int] | None, text: str) -> list[tuple[int, str]]:
    return [
        (table.players[seat].user_id, text)
        for seat in sorted(seats or ())
        if 0 <= seat < len(table.players)
    ]


def _name(names: Sequence[str], seat: object) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


# ---- options ---------------------------------------------------------------------------------


def parse_option(word: str, values: dict[str, Any]) -> bool:
    """Read one ``/nueva`` word about señas into ``values``: ``sinsenas``, ``senasvistas``,
    ``pillar=0.15`` (0..1, or a percentage ``pillar=15%``). False when the word is not one.

    >>> v: dict[str, Any] = {}
    >>> parse_option("pillar=20%", v), parse_option("sinsenas", v), parse_option("30", v), v
    (True, True, False, {'pillar': 0.2, 'sinsenas': True})
    """
    if word in ("sinsenas", "nosenas"):
        values["sinsenas"] = True
        return True
    if word in ("senasvistas", "vistas"):
        values["senasvistas"] = True
        return True
    if word.startswith("pillar="):
        raw = word[len("pillar=") :]
        try:
            value = float(raw.rstrip("%")) / (100 if raw.endswith("%") else 1)
        except ValueError:
            raise OptionError(word[:30]) from None
        if not 0 <= value <= 1:
            raise OptionError(word[:30])
        values["pillar"] = round(value, 4)
        return True
    return False


def option_labels(options: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Locale keys for the lobby and table header: "sin señas", "señas vistas (15 %)"."""
    if options.get("sinsenas"):
        return [("senas.opt.off", {})]
    if options.get("senasvistas"):
        return [("senas.opt.vistas", {"p": round(100 * float(options.get("pillar", 0.15)))})]
    return []
