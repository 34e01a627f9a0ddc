"""The end of a hand (P5), the end of a juego and of the match (P1), and órdago settlements (P4.4).

Settlement runs lance by lance (grande, chica, pares, juego/punto). After every stone movement
the juego ends as soon as only one seated player "still has stones": stones in his pile, or a
place among the players still in a lance whose deposit (or pending órdago) is not settled yet,
since that deposit may still come to him.
"""

from __future__ import annotations

from engine.mus.evaluation import LANCES
from engine.piedras.deal import next_mano, start_hand, start_juego
from engine.piedras.state import LAST_LANCES, SLOTS, LanceRecord
from engine.piedras.table import Table, card_text
from engine.piedras.values import lance_value

_KEY_INDEX: dict[str, int] = {lance: i for i, lance in enumerate(LANCES)}
"""Place of each lance's key in ``HandValue.keys``."""


def worst_of(t: Table, lance: str, seats: list[int]) -> int:
    """The seat that loses ``lance`` to every other of ``seats`` (ties: farthest from the mano),
    as ``engine.mus.evaluation.worst_seat`` decides it."""
    i = _KEY_INDEX[lance]
    values = t.values()
    worst, worst_key = -1, 0
    for s in t.from_mano(seats):
        v = values[s]
        key = v.keys[i] if v is not None else 0
        if worst < 0 or key <= worst_key:
            worst, worst_key = s, key
    assert worst >= 0
    return worst


def best_of(t: Table, lance: str, seats: list[int]) -> int:
    """The seat that wins ``lance`` among ``seats`` (ties: nearest the mano), as
    ``engine.mus.evaluation.best_seat`` decides it."""
    i = _KEY_INDEX[lance]
    values = t.values()
    order = t.from_mano(seats)
    best, best_key = order[0], 0  # every key 0 cannot happen among holders; the mano's order
    for s in order:
        v = values[s]
        key = v.keys[i] if v is not None else 0
        if key > best_key:
            best, best_key = s, key
    return best


def show(t: Table, seats: list[int]) -> None:
    """Reveal the hands of ``seats`` to everyone."""
    hands: list[list[str] | None] = [None] * t.players
    for s in seats:
        hands[s] = list(map(card_text, t.hands[s]))
    if seats:
        t.revealed = tuple(sorted({*t.revealed, *seats}))
    t.emit("showdown", hands=hands)


def free_seat(t: Table, seat: int) -> None:
    if seat not in t.free:
        t.free = tuple(sorted((*t.free, seat)))
    if seat in t.in_hand:
        t.in_hand = tuple([s for s in t.in_hand if s != seat])
    t.emit("freed", seat=seat)


def settle_ordago(t: Table, slot: int, lance: str, players: list[int]) -> int:
    """P4.4 partial órdago: the worst hand takes the deposit and the piles of the others."""
    worst = worst_of(t, lance, players)
    t.take_deposit(worst, slot, lance, "ordago")
    for s in players:
        if s != worst:
            t.take_pile(worst, s, lance)
    t.emit("ordago_settled", lance=lance, worst=worst, players=list(players))
    for s in t.from_mano([s for s in players if s != worst]):
        free_seat(t, s)
    return worst


def settle_ordago_everyone(t: Table, slot: int, lance: str, players: list[int]) -> None:
    """P4.4: an órdago with every player in the hand: the worst takes every stone, loses."""
    show(t, players)
    worst = worst_of(t, lance, players)
    for i in range(4):
        if t.deposits[i]:
            t.take_deposit(worst, i, SLOTS[i] if i < 3 else lance, "ordago")
    for s in t.seated:
        if s != worst:
            t.take_pile(worst, s, lance)
    t.emit("ordago_settled", lance=lance, worst=worst, players=list(players))
    end_juego(t, worst)


def _still_has_stones(t: Table, seat: int, pending: list[int]) -> bool:
    if t.piles[seat] > 0:
        return True
    for i in pending:
        rec = t.lances[i]
        if seat not in rec.players or seat not in t.in_hand:
            continue
        if rec.outcome == "equal" and t.deposits[i] > 0:
            return True
        if rec.outcome == "ordago_pending" and (
            t.deposits[i] + sum(t.piles[s] for s in rec.players if s in t.in_hand) > 0
        ):
            return True
    return False


def _juego_decided(t: Table, pending: list[int]) -> bool:
    """P5: end the juego as soon as only one player still has stones."""
    piles, free, piled = t.piles, t.free, 0
    for s in t.seated:  # quick answer: two players with stones in their piles
        if piles[s] > 0 and s not in free:
            piled += 1
            if piled > 1:
                return False
    holders = [s for s in t.seated if s not in t.free and _still_has_stones(t, s, pending)]
    if len(holders) > 1:
        return False
    if holders:
        loser = holders[0]
    else:  # unreachable in play (see module docstring); the nearest the mano loses
        loser = t.from_mano([s for s in t.seated if s not in t.free] or t.seated)[0]
    end_juego(t, loser)
    return True


def end_hand(t: Table) -> None:
    """Settle the closed lances in order (P5), free players at 0, then continue the match."""
    show(t, list(t.in_hand))
    pending = list(range(len(t.lances)))
    if _juego_decided(t, pending):
        return
    for i, rec in enumerate(t.lances):
        if _settle_lance(t, i, rec, pending):
            return
        pending.remove(i)
        if _juego_decided(t, pending):
            return
    for s in t.from_mano(list(t.in_hand)):
        if t.piles[s] == 0:
            free_seat(t, s)
    if _juego_decided(t, []):
        return
    t.emit("hand_over", hand=t.hand_number, piles=list(t.piles), plate=t.plate)
    start_hand(t, next_mano(t, t.mano))


def _settle_lance(t: Table, slot: int, rec: LanceRecord, pending: list[int]) -> bool:
    """Settle one lance; ``True`` when the juego ended meanwhile."""
    name = rec.lance
    players = [s for s in rec.players if s in t.in_hand]
    if rec.outcome == "en_paso":
        if not players:
            return False
        winner = rec.winner if rec.winner in players else best_of(t, name, players)
        t.emit("lance_won", lance=name, seat=winner, outcome="en_paso")
        t.to_plate(winner, lance_value(name, t.value(winner), t.options), name, "en_paso")
    elif rec.outcome == "refused":
        assert rec.winner is not None
        if name in ("pares", *LAST_LANCES):
            t.to_plate(rec.winner, lance_value(name, t.value(rec.winner), t.options), name, "value")
    elif rec.outcome == "equal":
        if not players:  # every player of this lance was freed by an órdago
            if t.deposits[slot]:
                count = t.deposits[slot]
                t.deposits[slot] = 0
                t.plate += count
                t.emit("to_plate", seat=None, count=count, lance=name, why="abandoned")
            return False
        best = best_of(t, name, players)
        worst = worst_of(t, name, players)
        t.emit("lance_won", lance=name, seat=best, outcome="equal", worst=worst)
        if name in ("pares", *LAST_LANCES):
            t.to_plate(best, lance_value(name, t.value(best), t.options), name, "value")
            if _juego_decided(t, pending):
                return True
        t.take_deposit(worst, slot, name, "worst")
    elif rec.outcome == "ordago_pending":
        settle_ordago(t, slot, name, players)
    return False


def end_juego(t: Table, loser: int) -> None:
    """The last player with stones loses the juego (P1); maybe the match is over."""
    t.emit("hand_over", hand=t.hand_number, piles=list(t.piles), plate=t.plate)
    losses = list(t.losses)
    losses[loser] += 1
    t.losses = tuple(losses)
    t.emit("juego_lost", seat=loser, juego=t.juego, losses=t.losses[loser])
    if t.losses[loser] >= t.options.losses:
        t.emit("player_out", seat=loser)
    remaining = [s for s in range(t.players) if t.losses[s] < t.options.losses]
    if len(remaining) <= 1:
        t.phase = "over"
        t.betting = None
        t.winner = remaining[0] if remaining else None
        t.emit("match_won", seat=t.winner)
        return
    mano = t.mano
    start_juego(t)
    start_hand(t, next_mano(t, mano))
