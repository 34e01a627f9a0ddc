"""What the hands are worth and what the end of a hand collects (rules/mus.md M3, M5), then the
juego, the vaca and the next hand."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import RawEvent
from engine.mus.deal import deal, hand_events
from engine.mus.draft import PLAYERS, Events, card_texts, update
from engine.mus.evaluation import LANCES, HandValue, card_tables, hand_value, lance_winners
from engine.mus.state import MusState

PARES_VALUE = {"par": 1, "medias": 2, "duples": 3}
"""M5: what each player of the pair winning pares collects."""


def values(state: MusState) -> tuple[HandValue, ...]:
    """The evaluation of every seat's current hand (M3), in seat order."""
    opts = state.options
    hands = state.hands
    try:
        (a, b, c, d), (e, f, g, h), (i, j, k, m), (n, o, p, q) = hands
    except ValueError:  # not four hands of four cards: hand_value says what is wrong
        return tuple(hand_value(h, opts) for h in hands)
    # hand_value of each hand, spelt out: a hand class is the sum of its cards' weights.
    weights, table = card_tables(opts.reyes, opts.real)
    return (
        table[weights[a.index] + weights[b.index] + weights[c.index] + weights[d.index]],
        table[weights[e.index] + weights[f.index] + weights[g.index] + weights[h.index]],
        table[weights[i.index] + weights[j.index] + weights[k.index] + weights[m.index]],
        table[weights[n.index] + weights[o.index] + weights[p.index] + weights[q.index]],
    )


# --------------------------------------------------------------------------- scoring (M5)


def add_points(score: tuple[int, int], pair: int, points: int) -> tuple[int, int]:
    """``score`` with ``points`` more for ``pair``."""
    return (score[0] + points, score[1]) if pair == 0 else (score[0], score[1] + points)


def hand_scores(state: MusState) -> list[tuple[int, int, str, str]]:
    """What the end of the hand collects, in lance order: ``(pair, points, lance, why)`` (M5).

    Refusals are not listed (they were collected at once).
    """
    vals = values(state)
    return _hand_scores(state, vals, lance_winners(vals, state.mano))


Winners = tuple[int | None, ...]
"""The winner of each lance (:func:`lance_winners`), in :data:`LANCES` order."""


def _hand_scores(
    state: MusState, vals: tuple[HandValue, ...], winners: Winners
) -> list[tuple[int, int, str, str]]:
    mano = state.mano
    items: list[tuple[int, int, str, str]] = []
    for r in state.results:
        lance = r.lance
        if r.outcome in ("nobody", "no_querido") and lance in ("grande", "chica"):
            continue
        if r.outcome == "nobody" or r.outcome == "ordago":
            continue
        if r.pair is not None:
            pair = r.pair
        else:
            winner = winners[LANCES.index(lance)]
            pair = (winner if winner is not None else mano) % 2
        if lance in ("grande", "chica"):
            if r.outcome == "en_paso":
                items.append((pair, 1, lance, "en_paso"))
            elif r.bet:
                items.append((pair, r.bet, lance, "envite"))
            continue
        if r.outcome == "querido" and r.bet:
            items.append((pair, r.bet, lance, "envite"))
        if lance in ("pares", "juego"):
            pts = sum(points for _seat, points in _pair_parts(vals, pair, lance))
            items.append((pair, pts, lance, lance))
        else:
            items.append((pair, 1, lance, "punto"))
    return items


def _pair_parts(vals: Sequence[HandValue], pair: int, lance: str) -> list[tuple[int, int]]:
    """M5: what each player of ``pair`` brings to its pares or juego: ``(seat, points)``."""
    seats = (pair, pair + 2)
    if lance == "pares":
        return [(s, PARES_VALUE[vals[s].pares or ""]) for s in seats if vals[s].pares]
    return [(s, 3 if vals[s].points == 31 else 2) for s in seats if vals[s].juego]


def score_parts(state: MusState, pair: int, points: int, lance: str, why: str) -> list[list[int]]:
    """Whose hands make an end-of-hand score, as ``[[seat, points], ...]`` (the ``parts`` of
    a ``scored`` event): each holder of pares or juego of ``pair`` with what he brings, else the
    seat whose hand won the lance (with the whole ``points``)."""
    vals = values(state)
    return _score_parts(vals, lance_winners(vals, state.mano), pair, points, lance, why)


def _score_parts(
    vals: tuple[HandValue, ...],
    winners: Winners,
    pair: int,
    points: int,
    lance: str,
    why: str,
) -> list[list[int]]:
    if why in ("pares", "juego"):
        return [[s, p] for s, p in _pair_parts(vals, pair, lance)]
    winner = winners[LANCES.index(lance)]
    return [[winner, points]] if winner is not None else []


def showdown(st: MusState, vals: tuple[HandValue, ...]) -> RawEvent:
    """Every hand shown, with what each is worth (pares kind and juego/punto total)."""
    data = {
        "hands": [card_texts(h) for h in st.hands],
        "pares": [v.pares for v in vals],
        "points": [v.points for v in vals],
    }
    return ("showdown", data, None)


def end_hand(st: MusState, events: Events, vals: tuple[HandValue, ...] | None) -> MusState:
    """Show the hands, collect what they score (M5), then the next hand or the juego."""
    if vals is None:
        vals = values(st)
    if events is not None:
        events.append(showdown(st, vals))
    score = st.score
    target = st.options.target
    winners = lance_winners(vals, st.mano)
    fields = st.__dict__
    items = _hand_scores(st, vals, winners)
    for k, (pair, points, lance, why) in enumerate(items):
        score = add_points(score, pair, points)
        if events is not None:
            parts = _score_parts(vals, winners, pair, points, lance, why)
            data = {"pair": pair, "points": points, "lance": lance, "why": why, "parts": parts}
            events.append(("scored", data, None))
        if score[pair] >= target:  # M5: nothing more is counted
            if events is not None and items[k + 1 :]:
                rest = [
                    {"pair": p, "points": n, "lance": ln, "why": w}
                    for p, n, ln, w in items[k + 1 :]
                ]
                events.append(("not_counted", {"pair": pair, "items": rest}, None))
            fields["score"] = score
            fields["shown"] = True
            return win_juego(st, pair, events)
    fields["score"] = score
    fields["shown"] = True
    if events is not None:
        data = {"hand": st.hand_number, "score": list(score), "juegos": list(st.juegos)}
        events.append(("hand_over", data, None))
    return _next_hand(st, st.score, events)


def win_juego(st: MusState, pair: int, events: Events) -> MusState:
    """``pair`` wins the juego: the vaca if it has enough juegos, else the next hand."""
    juegos = add_points(st.juegos, pair, 1)
    if events is not None:
        data = {"hand": st.hand_number, "score": list(st.score), "juegos": list(juegos)}
        events.append(("hand_over", data, None))
        events.append(("juego_won", {"pair": pair, "juegos": list(juegos)}, None))
    if juegos[pair] >= st.options.juegos:
        if events is not None:
            events.append(("vaca_won", {"pair": pair}, None))
        return update(
            st, juegos=juegos, phase="over", is_over=True, to_act=(), winner=pair, lance=None
        )
    st.__dict__["juegos"] = juegos
    return _next_hand(st, (0, 0), events)


def _next_hand(st: MusState, score: tuple[int, int], events: Events) -> MusState:
    new = deal(st.options, st.seed, st.hand_number + 1, (st.mano + 1) % PLAYERS, score, st.juegos)
    if events is not None:
        hand_events(new, events)
    return new
