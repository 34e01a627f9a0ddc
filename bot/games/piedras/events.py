"""Public Mus a piedras events (``engine/piedras/events.py``) as lines of text.

Only public events and their public fields are read, so a line never shows a hidden card; the
cards of a ``showdown`` were shown to everyone by the engine.

>>> event_line("es", "spoke", {"seat": 0, "action": "3 más", "level": 7}, ["Ana"], {})
'<b>Ana</b>: 3 más (van 7)'
>>> event_line("en", "to_plate", {"seat": 0, "count": 1, "lance": "grande", "why": "refusal"},
...            ["Ana"], {})
'<b>Ana</b> wins Grande unanswered: 1 stone to the plate.'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.games.mus import worth
from bot.games.render import join_words, seat_name
from engine.core import Action
from locales import t, tn


def lance_name(lang: str, lance: object) -> str:
    return t(lang, f"lance.{lance}") if lance else ""


def spoken(lang: str, text: str, level: object) -> str:
    """A canonical spoken action (``envido 4``, ``3 más``, ``ordago``) as players say it.

    >>> spoken("es", "envido 4", 4), spoken("en", "2 más", 6), spoken("es", "ordago", 0)
    ('envido 4 (van 4)', '2 more (6 on the table)', '<b>¡ÓRDAGO!</b>')
    """
    words = text.split()
    if len(words) == 2 and words[1] == "más" and words[0].isdigit():
        return t(lang, "said.raise", n=int(words[0]), total=level)
    try:
        action = Action.parse_text(text)
    except Exception:
        return t(lang, "error.generic")
    if action.kind == "envido":
        n = action.amount if action.amount is not None else 2
        if isinstance(level, int) and level:
            return t(lang, "said.envido_total", n=n, total=level)
        return t(lang, "said.envido_n", n=n)
    return t(lang, f"said.{action.kind}")


def action_words(lang: str, text: str) -> str:
    """An action the clock played for a seat (``paso``, ``no quiero``, a discard)."""
    try:
        action = Action.parse_text(text)
    except Exception:
        return t(lang, "error.generic")
    if action.kind == "descarto":
        return t(lang, "piedras.said.discard")
    if action.kind == "envido":
        return t(lang, "said.envido_n", n=action.amount or 2)
    return t(lang, f"said.{action.kind}")


def showdown_lines(
    lang: str, data: Mapping[str, Any], names: Sequence[str], rules: Mapping[str, Any]
) -> list[str]:
    """The hands shown (ranks high to low as Mus orders them) with what each is worth."""
    lines = [t(lang, "event.showdown_title")]
    for seat, hand in enumerate(data.get("hands") or []):
        if not hand:
            continue
        cards = worth.display_order([str(c) for c in hand], rules)
        ranks = ", ".join(t(lang, f"rank.{c[:-1]}") for c in cards)
        line = t(lang, "event.showdown", name=seat_name(names, seat), cards=ranks)
        values = worth.hand_worth(cards, rules)
        if values:
            line += " · " + " · ".join(t(lang, k, **p) for k, p in values)
        lines.append(line)
    return lines


def event_line(
    lang: str,
    kind: str,
    data: Mapping[str, Any],
    names: Sequence[str],
    rules: Mapping[str, Any],
    out: Iterable[int] = (),
    what: str | None = None,
) -> str | None:
    """One public event (or the bot's ``timeout`` note) as text; ``None`` when not shown.
    ``out``: seats out of the match, left out of the piles; ``what``: what the hand of a seat
    putting a lance's value on the plate is worth (``duples``), from the showdown."""
    d = data
    name = seat_name(names, d.get("seat"))
    lance = lance_name(lang, d.get("lance"))
    n = d.get("count")
    if kind == "spoke":
        return t(
            lang,
            "event.spoke",
            name=name,
            action=spoken(lang, str(d.get("action")), d.get("level")),
        )
    if kind == "lance_started":
        return t(lang, "event.lance_started", lance=lance)
    if kind == "deposit_taken":
        if not n:
            return None  # an órdago's deposit may be empty: the piles taken say it all
        return t(lang, f"piedras.event.taken.{d.get('why')}", name=name, lance=lance, n=n)
    if kind == "to_plate":
        why = d.get("why")
        if why == "abandoned":
            return t(lang, "piedras.event.plate.abandoned", lance=lance, n=n)
        key = "piedras.event.plate.stones"  # plural: t() picks the form of n
        if why == "refusal":
            key = "piedras.event.plate.refusal"
        if what and why in ("value", "en_paso"):
            return t(
                lang,
                key,
                name=name,
                lance=lance,
                n=n,
                why=t(lang, f"piedras.why.{why}_of", what=what),
            )
        return t(lang, key, name=name, lance=lance, n=n, why=t(lang, f"piedras.why.{why}"))
    if kind == "ordago_settled":
        others = [seat_name(names, s) for s in d.get("players") or [] if s != d.get("worst")]
        return t(
            lang,
            "piedras.event.ordago_settled",
            lance=lance,
            name=seat_name(names, d.get("worst")),
            others=join_words(lang, others),
        )
    if kind == "freed":
        return t(lang, "piedras.event.freed", name=name)
    if kind == "juego_lost":
        losses = int(d.get("losses") or 1)
        return tn(lang, "piedras.event.juego_lost", losses, name=name, juego=d.get("juego"))
    if kind == "player_out":
        return t(lang, "piedras.event.player_out", name=name)
    if kind == "match_won":
        return t(lang, "piedras.event.match_won", name=name)
    if kind == "juego_started":
        stones = int(d.get("stones") or 0)
        return tn(lang, "piedras.event.juego_started", stones, juego=d.get("juego"))
    if kind == "hand_over":
        return piles_line(lang, names, d.get("piles") or [], d.get("plate"), set(out))
    if kind == "showdown":
        return "\n".join(showdown_lines(lang, d, names, rules))
    if kind == "timeout":
        return t(
            lang,
            "event.timeout",
            name=name,
            action=action_words(lang, str(d.get("action", ""))),
        )
    return None


def _settles(items: Sequence[Any], i: int) -> object | None:
    """The lance of the órdago whose cards the showdown at ``i`` shows, if one is settled right
    after it (before any other showdown), else ``None``: its cards are titled apart from the
    end of the hand's."""
    for item in items[i + 1 :]:
        if item.kind == "showdown":
            return None
        if item.kind == "ordago_settled":
            return item.data.get("lance") or ""
    return None


def piles_line(
    lang: str, names: Sequence[str], piles: Sequence[int], plate: object, skip: set[int]
) -> str:
    """``Piedras: Ana 3 · Bea 0 · plato 12`` (seats in ``skip`` left out)."""
    parts = [
        t(lang, "piedras.pile", name=seat_name(names, s), n=n)
        for s, n in enumerate(piles)
        if s not in skip
    ]
    return t(lang, "piedras.piles", piles=" · ".join(parts), plate=plate)


def _worth_in(
    lang: str, data: Mapping[str, Any], shown: Mapping[int, list[str]], rules: Mapping[str, Any]
) -> str | None:
    """What a shown hand is worth in the lance of a ``to_plate`` event (pares: its kind; juego
    or punto: its total), from the engine's evaluation; ``None`` for grande and chica."""
    seat, lance = data.get("seat"), data.get("lance")
    if not isinstance(seat, int) or seat not in shown or lance not in ("pares", "juego", "punto"):
        return None
    values = worth.hand_worth(shown[seat], rules)
    if len(values) < 2:
        return None
    key, params = values[0] if lance == "pares" else values[1]
    return t(lang, key, **params)


def event_lines(
    lang: str,
    entries: Iterable[Any],
    names: Sequence[str],
    rules: Mapping[str, Any],
    out: Iterable[int] = (),
) -> list[str]:
    """Events (or log entries) as lines; a timeout note and the move it made are one line."""
    items = list(entries)
    skip = set(out)
    lines: list[str] = []
    shown: dict[int, list[str]] = {}
    i = 0
    while i < len(items):
        kind, data = items[i].kind, items[i].data
        if kind == "showdown":
            hands = data.get("hands") or []
            shown = {s: [str(c) for c in h] for s, h in enumerate(hands) if h}
        what = _worth_in(lang, data, shown, rules) if kind == "to_plate" else None
        line = event_line(lang, kind, data, names, rules, skip, what)
        settled = _settles(items, i) if kind == "showdown" else None
        if settled is not None and line:  # the cards of an órdago settled at once (P4.4)
            title = t(lang, "piedras.event.showdown_ordago", lance=lance_name(lang, settled))
            line = "\n".join([title, *line.splitlines()[1:]])
        if kind == "timeout" and i + 1 < len(items):
            nxt = items[i + 1]
            if nxt.kind in ("spoke", "discarded") and nxt.data.get("seat") == data.get("seat"):
                i += 1
        if line:
            lines.append(line)
        i += 1
    return lines
