"""The lances of a hand and the deposit betting (rules/piedras.md P3, P4).

Speaking order: seats go to the right (+1). The first envite goes to the right from the bettor;
re-envite rounds alternate direction, the first one to the left ending with the bettor, each
later one ending with the last raiser. Stones move at once: a bet or a quiero puts the difference
into the lance's deposit; a refused raise gives the whole deposit to the refuser.

An órdago moves no stone when it is called or accepted: when it is settled the worst hand takes
the lance's deposit and the whole piles of the other players in it (P4.4). So an órdago is not
bounded by the cap, which limits numbered bets only; but once a player still in the lance has
an empty pile (he bet all he had), nobody may raise any more, órdago included (P4 "caps the
others").
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol

from engine.core import Action, IllegalAction, RawEvent
from engine.piedras.settlement import end_hand, settle_ordago, settle_ordago_everyone, show
from engine.piedras.state import LAST_LANCES, SLOTS, Betting, Outcome, make_betting, make_record
from engine.piedras.table import Table

MIN_ENVIDO = 2
"""The smallest opening bet (P4.1); a raise (``N más``) may be 1."""

_PASO, _QUIERO, _NO_QUIERO, _ORDAGO = (Action(k) for k in ("paso", "quiero", "no_quiero", "ordago"))
_ENVIDOS: list[Action] = [Action("envido", n) for n in range(10 * 8 + 1)]
"""Shared (immutable) bet actions by amount; no bet can pass the stones of 8 players x 10."""
BETTING_ACTIONS = (_PASO, _QUIERO, _NO_QUIERO, _ORDAGO, *_ENVIDOS[1:])
"""Every shared action :func:`legal` hands out."""
_OPENINGS = [(_PASO, *_ENVIDOS[MIN_ENVIDO : top + 1], _ORDAGO) for top in range(len(_ENVIDOS))]
"""The legal actions when a lance opens, by the cap."""


def ordered(t: Table, start: int, direction: int, members: Collection[int]) -> list[int]:
    """``members`` in speaking order from the seat after ``start`` in ``direction``, ``start`` last.

    >>> class T: players = 5
    >>> ordered(T(), 2, -1, {0, 2, 3, 4})  # type: ignore[arg-type]
    [0, 4, 3, 2]
    """
    return sorted(members, key=_TURN[t.players][start][direction])


_TURN = tuple(
    tuple(
        {d: tuple((d * (seat - start) - 1) % n for seat in range(n)).__getitem__ for d in (1, -1)}
        for start in range(n)
    )
    for n in range(9)
)
"""``_TURN[players][start][direction](seat)``: the seat's place in speaking order from the seat
after ``start`` in ``direction`` (``start`` itself last), a C-level sort key."""


class Seen(Protocol):
    """What :func:`legal` reads: a :class:`Table` or a frozen state both have it."""

    @property
    def piles(self) -> Sequence[int]: ...

    @property
    def betting(self) -> Betting | None: ...


def cap(t: Seen, b: Betting, seats: tuple[int, ...] | list[int]) -> int:
    """P4: the highest level anyone may bet to: the smallest stake the players in can reach."""
    put, piles = b.put, t.piles
    top = -1
    for s in seats:  # a plain loop: no comprehension frame for these few seats
        stake = put[s] + piles[s]
        if stake < top or top < 0:
            top = stake
    return top


def all_in(t: Seen, b: Betting) -> bool:
    """P4: a player still in the lance has bet all he had: nobody may raise, not even an órdago.

    "A bet of all I have left caps the others": the seed's all-in "sin plantear un órdago"
    leaves the others nothing above it, so an empty pile in the lance blocks the órdago too
    (as it blocks every bet when a lance opens with such a player entitled).
    """
    return any(t.piles[s] == 0 for s in b.in_lance)


# -- lances -------------------------------------------------------------------------------------


def advance(t: Table) -> None:
    """Open the next lance until one needs a decision, or settle the hand after the last."""
    while t.phase == "lance" and t.betting is None:
        slot = len(t.lances)
        if slot == len(SLOTS):
            end_hand(t)
            return
        _open_lance(t, slot)


def _close(t: Table, lance: str, outcome: Outcome, players: list[int], winner: int | None) -> None:
    slot = len(t.lances)
    t.lances = (*t.lances, make_record(lance, outcome, tuple(players), winner))
    t.betting = None
    data = {
        "lance": lance,
        "outcome": outcome,
        "players": list(players),
        "winner": winner,
        "deposit": t.deposits[slot],
    }
    t.raw.append(("lance_closed", data, None))


def _open_lance(t: Table, slot: int) -> None:
    seats = t.from_mano(t.in_hand)
    lance = SLOTS[slot]
    entitled = seats
    if slot >= 2:
        values = t.values()
        # (every seat in the hand holds four cards: its value is not None)
        if slot == 2:
            holders = [s for s in seats if values[s].pares]  # type: ignore[union-attr]
        else:
            holders = [s for s in seats if values[s].juego]  # type: ignore[union-attr]
        t.emit("declared", lance=lance, holders=holders, players=seats)
        if slot == 2 and not holders:
            t.emit("lance_skipped", lance=lance, reason="nobody")
            _close(t, lance, "skipped", [], None)
            return
        if slot == 3 and not holders:
            lance = "punto"
        else:
            entitled = holders
    t.raw.append(("lance_started", {"lance": lance, "players": entitled}, None))
    if len(entitled) == 1:
        _close(t, lance, "en_paso", entitled, entitled[0])
        return
    piles = t.piles
    if min([piles[s] for s in entitled]) < 1:  # all in: nobody may bet, the lance is en paso (P4)
        _close(t, lance, "en_paso", entitled, None)
        return
    t.betting = make_betting(
        lance=lance,
        stage="open",
        entitled=tuple(entitled),
        in_lance=tuple(entitled),
        put=(0,) * t.players,
        queue=tuple(entitled),
    )


# -- actions ------------------------------------------------------------------------------------


def legal(t: Seen, seat: int) -> list[Action]:
    """Every action ``seat`` may take in the current lance (empty if it is not his turn)."""
    b = t.betting
    if b is None or not b.queue or b.queue[0] != seat:
        return []
    stage = b.stage
    if stage == "open":
        return list(_OPENINGS[cap(t, b, b.entitled)])
    if stage == "envite" or b.ordago is not None:
        return [_QUIERO, _NO_QUIERO]
    facing = b.level - b.put[seat]
    top = cap(t, b, b.in_lance)
    raises = _ENVIDOS[1 : top - b.level + 1]
    if not all_in(t, b):
        raises.append(_ORDAGO)
    if facing:
        return [_QUIERO, *raises, _NO_QUIERO]
    return [_PASO, *raises]


def act(t: Table, seat: int, action: Action) -> None:
    """Apply a betting action of ``seat`` (its turn already checked)."""
    b = t.betting
    assert b is not None
    if b.stage == "open":
        _act_open(t, seat, action, b)
    elif b.stage == "envite":
        _act_envite(t, seat, action, b)
    else:
        _act_reenvite(t, seat, action, b)
    advance(t)


def _spoke(t: Table, seat: int, text: str) -> None:
    b = t.betting
    assert b is not None
    t.spoken = (*t.spoken, (seat, b.lance, text))
    t.raw.append(spoke_event(b, seat, text))


def spoke_event(b: Betting, seat: int, text: str) -> RawEvent:
    """The public ``spoke`` event of ``seat`` saying ``text`` in betting ``b`` (its level and
    órdago as they stand before the word is applied)."""
    data = {
        "seat": seat,
        "lance": b.lance,
        "action": text,
        "level": b.level,
        "ordago": b.ordago is not None,
    }
    return ("spoke", data, None)


def _slot(t: Table) -> int:
    return len(t.lances)


def _act_open(t: Table, seat: int, action: Action, b: Betting) -> None:
    if action.kind == "paso":
        if len(b.queue) == 1:  # the last one passes: the lance closes (no new betting needed)
            _spoke(t, seat, "paso")
            _close(t, b.lance, "en_paso", list(b.entitled), None)
            return
        t.with_betting(queue=b.queue[1:])
        _spoke(t, seat, "paso")
        return
    if action.kind == "envido":
        amount = MIN_ENVIDO if action.amount is None else action.amount
        top = cap(t, b, b.entitled)
        if amount < MIN_ENVIDO:
            raise IllegalAction("bet_too_small", minimum=MIN_ENVIDO)
        if amount > top:
            raise IllegalAction("bet_above_cap", cap=top)
        t.to_deposit(seat, _slot(t), amount, b.lance)
        put = list(b.put)
        put[seat] = amount
        t.betting = _first_envite(t, b, seat, level=amount, put=tuple(put), ordago=None)
        _spoke(t, seat, f"envido {amount}")
        return
    if action.kind == "ordago":
        t.betting = _first_envite(t, b, seat, level=b.level, put=b.put, ordago=seat)
        _spoke(t, seat, "ordago")
        return
    if action.kind in ("quiero", "no_quiero"):
        raise IllegalAction("no_bet_to_answer")
    raise IllegalAction("wrong_phase", action=str(action))


def _first_envite(
    t: Table, b: Betting, seat: int, level: int, put: tuple[int, ...], ordago: int | None
) -> Betting:
    others = ordered(t, seat, 1, [s for s in b.entitled if s != seat])
    return make_betting(
        lance=b.lance,
        stage="envite",
        entitled=b.entitled,
        in_lance=(seat,),
        put=put,
        queue=tuple(others),
        level=level,
        bettor=seat,
        ordago=ordago,
    )


def _act_envite(t: Table, seat: int, action: Action, b: Betting) -> None:
    """P4.2: each other entitled player accepts or leaves, to the right, back to the bettor."""
    if action.kind == "quiero":
        put = list(b.put)
        if b.ordago is None:
            t.to_deposit(seat, _slot(t), b.level - put[seat], b.lance)
            put[seat] = b.level
        in_lance = tuple(sorted((*b.in_lance, seat)))
        accepted = (*b.accepted, seat) if b.ordago is not None else ()
        t.with_betting(in_lance=in_lance, put=tuple(put), queue=b.queue[1:], accepted=accepted)
        _spoke(t, seat, "quiero")
    elif action.kind == "no_quiero":
        t.with_betting(queue=b.queue[1:])
        _spoke(t, seat, "no quiero")
        t.emit("left_lance", seat=seat, lance=b.lance)
    elif action.kind in ("envido", "ordago"):
        raise IllegalAction("no_raise_now")
    elif action.kind == "paso":
        raise IllegalAction("must_answer")
    else:
        raise IllegalAction("wrong_phase", action=str(action))
    now = t.betting
    assert now is not None and now.bettor is not None
    _after_first_envite(t, now, now.bettor)


def _after_first_envite(t: Table, b: Betting, bettor: int) -> None:
    if b.queue:
        return
    if len(b.in_lance) == 1:
        _won_by_refusal(t, b, bettor)
    elif b.ordago is not None:
        _ordago_accepted(t, b)
    else:
        t.with_betting(
            stage="reenvite",
            direction=-1,
            queue=tuple(ordered(t, bettor, -1, b.in_lance)),
            raised=False,
        )


def _won_by_refusal(t: Table, b: Betting, winner: int) -> None:
    """Nobody left to answer: the bettor gets his stones back, puts 1 on the plate, wins (P4.2)."""
    slot = _slot(t)
    if t.deposits[slot]:
        t.take_deposit(winner, slot, b.lance, "returned")
    t.to_plate(winner, 1, b.lance, "refusal")
    _close(t, b.lance, "refused", [winner], winner)


def _ordago_accepted(t: Table, b: Betting) -> None:
    players = sorted(b.in_lance)
    slot = _slot(t)
    if set(players) == set(t.in_hand):
        _close(t, b.lance, "ordago", players, None)
        settle_ordago_everyone(t, slot, b.lance, players)
        return
    if b.lance in LAST_LANCES:  # waits for the end of the hand (P4.4)
        _close(t, b.lance, "ordago_pending", players, None)
        return
    _close(t, b.lance, "ordago", players, None)
    show(t, players)
    settle_ordago(t, slot, b.lance, players)


def _act_reenvite(t: Table, seat: int, action: Action, b: Betting) -> None:
    """P4.3: stay, raise, órdago or refuse a raise (taking the whole deposit)."""
    facing = b.level - b.put[seat]
    slot = _slot(t)
    queue = b.queue[1:]
    if b.ordago is not None:
        if action.kind == "quiero":
            t.with_betting(queue=queue, accepted=(*b.accepted, seat))
            _spoke(t, seat, "quiero")
        elif action.kind == "no_quiero":
            _refuse(t, seat, b, queue)
        elif action.kind in ("envido", "ordago"):
            raise IllegalAction("no_raise_now")
        elif action.kind == "paso":
            raise IllegalAction("must_answer")
        else:
            raise IllegalAction("wrong_phase", action=str(action))
    elif action.kind in ("quiero", "paso"):
        put = list(b.put)
        t.to_deposit(seat, slot, facing, b.lance)
        put[seat] = b.level
        t.with_betting(queue=queue, put=tuple(put))
        _spoke(t, seat, "quiero" if facing else "paso")
    elif action.kind == "envido":
        more = MIN_ENVIDO if action.amount is None else action.amount
        top = cap(t, b, b.in_lance)
        if b.level + more > top:
            raise IllegalAction("bet_above_cap", cap=top, more=max(0, top - b.level))
        level = b.level + more
        put = list(b.put)
        t.to_deposit(seat, slot, level - put[seat], b.lance)
        put[seat] = level
        t.with_betting(queue=queue, put=tuple(put), level=level, raised=True, last_raiser=seat)
        _spoke(t, seat, f"{more} más")
    elif action.kind == "ordago":
        if all_in(t, b):
            raise IllegalAction("bet_above_cap", cap=b.level, more=0)
        t.with_betting(queue=queue, ordago=seat, accepted=(), last_raiser=seat)
        _spoke(t, seat, "ordago")
    elif action.kind == "no_quiero":
        if not facing:
            raise IllegalAction("no_bet_to_answer")
        _refuse(t, seat, b, queue)
    else:
        raise IllegalAction("wrong_phase", action=str(action))
    _after_reenvite(t)


def _refuse(t: Table, seat: int, b: Betting, queue: tuple[int, ...]) -> None:
    """A refused raise: the refuser takes the whole deposit and leaves the lance (P4.3)."""
    _spoke(t, seat, "no quiero")
    t.take_deposit(seat, _slot(t), b.lance, "refused")
    in_lance = tuple(s for s in b.in_lance if s != seat)
    t.with_betting(queue=tuple(s for s in queue if s != seat), in_lance=in_lance)
    t.emit("left_lance", seat=seat, lance=b.lance)


def _after_reenvite(t: Table) -> None:
    b = t.betting
    assert b is not None and b.bettor is not None
    if len(b.in_lance) == 1:
        _won_by_refusal(t, b, b.in_lance[0])
        return
    if b.queue:
        return
    direction = -b.direction
    if b.ordago is not None:
        waiting = [s for s in b.in_lance if s != b.ordago and s not in b.accepted]
        if waiting:
            queue = ordered(t, b.ordago, direction, waiting)
            t.with_betting(direction=direction, queue=tuple(queue))
        else:
            _ordago_accepted(t, b)
        return
    if b.raised:
        assert b.last_raiser is not None
        queue = ordered(t, b.last_raiser, direction, b.in_lance)
        t.with_betting(direction=direction, queue=tuple(queue), raised=False)
        return
    _close(t, b.lance, "equal", sorted(b.in_lance), None)
