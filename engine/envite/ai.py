"""The computer player of Envite canario: a pure function of one seat's view (DESIGN.md).

``choose(view, legal_actions, rng, level)`` takes what ``engine.envite.view(state, seat)``
returns (the :class:`~engine.envite.view.EnviteView` or its ``to_dict()``: both are accepted),
the seat's legal actions and a ``random.Random``; it returns one of those actions. It reads
nothing else: its own cards (and the mocho's, for the mocho's mandador), the vira, the cards on
the table and in finished tricks, the bets of the round and the score.

How it plays (level ``"normal"``):

- **Cards** (E3, E4). It never plays an unlawful card, even in modo renuncio. Following: when a
  partner is winning the trick it does not overtake him and throws its lowest card (unless the
  partner's card may still be beaten and it holds a card nobody can beat); when an opponent is
  winning it plays the cheapest card that wins (a card no unseen card can beat when opponents
  still play after it, the highest winner when the trick decides the round), else it throws its
  lowest. Leading: a card nobody can beat if it has one, else its highest plain card (trumps
  are kept for later tricks). "Lowest" spends plain cards before trumps.
- **Strength.** Each card is worth the share of unseen cards it beats (``_Table.power``); from
  that the chance of the team taking each remaining trick (partners' unknown cards counted as
  average), and then the round given the tricks already won (``_round_chance``).
- **Bets** (E5, E6). It bets when the round looks likely won (:data:`BET_AT`), answers a bet by
  comparing the chance of winning the chico after accepting and after refusing (a rough chance
  from the score, ``_chico``; a chico fuera is the chico), and raises with a strong hand
  (:data:`RAISE_AT`). At tumbo it plays when that beats declining, by a small table of what
  each score at 11 is worth (``_tumbo_values``).
- **Renuncio** (modo renuncio): it calls only a proven one (an opponent who did not follow a suit
  and later showed a card of it).

Level ``"facil"`` plays the cheapest winning card or its lowest, overtakes partners, sometimes
throws a random lawful card, and bets and answers on cruder thresholds.

:func:`baseline` is the fixed rule player the strength benchmark compares with: bet with two or
more trumps, accept with one or more, play the highest lawful card.

>>> import random
>>> from engine.envite import legal_actions, new_game, view
>>> s = new_game(players=4, dealer=3, hands=[["3b", "4o", "1c"], ["5e", "6e", "7e"],
...     ["10b", "11b", "12b"], ["1e", "2e", "3e"]], vira="7o")
>>> str(choose(view(s, 0), legal_actions(s, 0), random.Random(1)))
'envido'
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from engine.cards import DECK, Card
from engine.core import Action
from engine.envite.ranking import TRUMP, Ranker, ranker

LEVELS = ("facil", "normal")
_ALL_TEXT = tuple(str(c) for c in DECK)
_BETS = ("envido", "siete", "nueve", "chico_fuera")
_LADDER = {"envido": 4, "siete": 7, "nueve": 9, "chico_fuera": 11}
_PAID = {"envido": 2, "siete": 4, "nueve": 7, "chico_fuera": 9}
_TUMBO = 11
BET_AT = 0.5
"""Bet (envido) when the round looks at least this likely won (a few bluffs a bit below)."""
RAISE_AT = 0.65
"""Raise a bet when the round looks at least this likely won."""
BET_SIGNAL = 0.02
"""How much less likely the round is taken to be when the other team has bet."""


class _HasDict(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


ViewLike = _HasDict | Mapping[str, Any]


def _data(view: ViewLike) -> Mapping[str, Any]:
    return view if isinstance(view, Mapping) else view.to_dict()


class _Table:
    """What the seat knows, decoded once per decision."""

    def __init__(self, v: Mapping[str, Any]) -> None:
        self.k: int = v["k"]
        self.n: int = v["players"]
        self.vira = Card.parse(v["vira"])
        self.r: Ranker = ranker(self.vira, self.k)
        self.turn: int | None = v["turn"]
        mine = [Card.parse(c) for c in v["cards"] or ()]
        mocho = [Card.parse(c) for c in v["mocho_cards"] or ()]
        self.mocho: int | None = v["mocho"]
        playing_mocho = self.turn is not None and self.turn == self.mocho
        self.hand = mocho if playing_mocho else mine
        self.known_hands = [h for h in (mine, mocho) if h]
        self.seat: int = v["seat"]
        self.seat_team = self.seat % 2
        self.trick: list[tuple[int, Card]] = [(s, Card.parse(c)) for s, c in v["trick"]]
        self.tricks: list[Mapping[str, Any]] = v["tricks"]
        won = v["tricks_won"]
        self.us, self.them = won[self.seat_team], won[1 - self.seat_team]
        seen = {str(self.vira), *(str(c) for c in mine), *(str(c) for c in mocho)}
        for t in self.tricks:
            seen.update(t["cards"])
        seen.update(str(c) for _, c in self.trick)
        self.unseen = [Card.parse(t) for t in _ALL_TEXT if t not in seen]
        self._power: dict[Card, float] = {}

    # -- card values ------------------------------------------------------------------------

    def key(self, card: Card, led: str) -> int:
        return self.r.key(card, led)

    def led(self) -> str | None:
        return self.r.suits[self.trick[0][1]._text] if self.trick else None

    def power(self, card: Card) -> float:
        """Share of the unseen cards that ``card`` beats when it leads (E3)."""
        found = self._power.get(card)
        if found is None:
            found = self._powers(card)
            self._power[card] = found
        return found

    def _powers(self, card: Card) -> float:
        if not self.unseen:
            return 1.0
        suit = self.r.suits[card._text]
        mine = self.r.key(card, suit)
        beaten = sum(1 for c in self.unseen if self.r.key(c, suit) < mine)
        share = beaten / len(self.unseen)
        return share if suit == TRUMP else share * 0.5

    def master(self, card: Card, led: str) -> bool:
        """No unseen card can beat ``card`` in a trick led in ``led``."""
        mine = self.r.key(card, led)
        return all(self.r.key(c, led) < mine for c in self.unseen)

    def throw_key(self, card: Card) -> tuple[int, int]:
        """Order for throwing away: plain low cards first, trumps last (lowest trump first)."""
        trump = self.r.trumps.get(card._text)
        if trump is not None:
            return (1, trump)
        return (0, self.r.key(card, card.suit))

    # -- the round --------------------------------------------------------------------------

    def trick_chances(self) -> list[float]:
        """Chance that the team takes each trick still to be finished (current one first)."""
        remaining = 3 - len(self.tricks)
        k = self.k
        unknown_partners = k - len(self.known_hands)
        unknown_players = 2 * k - len(self.known_hands)
        partner = unknown_partners / unknown_players if unknown_players else 0.0
        sorted_hands = [sorted(h, key=self.power, reverse=True) for h in self.known_hands]
        chances: list[float] = []
        for j in range(remaining):
            lose = 1.0 - partner
            for h in sorted_hands:
                if j < len(h):
                    lose *= 1.0 - self.power(h[j]) ** k
            chances.append(1.0 - lose)
        if self.trick and chances:
            chances[0] = self.current_trick_chance(chances[0])
        return chances

    def current_trick_chance(self, fallback: float) -> float:
        led = self.led()
        assert led is not None
        best_seat, best = max(self.trick, key=lambda sc: self.key(sc[1], led))
        if best_seat % 2 == self.seat_team:
            return max(fallback, 0.85 if self.master(best, led) else 0.6)
        beat = [c for c in self.hand if self.key(c, led) > self.key(best, led)]
        if not beat:
            return fallback * 0.5
        return max(fallback, 0.7)

    def round_chance(self) -> float:
        return _round_chance(self.us, self.them, self.trick_chances())

    def trumps_held(self) -> int:
        return sum(1 for h in self.known_hands for c in h if self.r.suits[c._text] == TRUMP)


def _round_chance(us: int, them: int, chances: Sequence[float]) -> float:
    """Chance of reaching two tricks first with independent per-trick chances.

    >>> round(_round_chance(0, 0, [0.5, 0.5, 0.5]), 3), _round_chance(1, 1, [0.7])
    (0.5, 0.7)
    """
    if us >= 2:
        return 1.0
    if them >= 2 or not chances:
        return 0.0
    t = chances[0]
    rest = chances[1:]
    return t * _round_chance(us + 1, them, rest) + (1 - t) * _round_chance(us, them + 1, rest)


# --------------------------------------------------------------------------- card play


def _lawful(t: _Table, actions: Sequence[Action]) -> list[Action]:
    """The card plays that follow E4 (in modo renuncio every card is listed: keep lawful ones)."""
    plays = [a for a in actions if a.kind == "tiro"]
    led = t.led()
    if led is None or not plays:
        return plays
    hand = [a.cards[0] for a in plays]
    same = [c for c in hand if t.r.suits[c._text] == led]
    lawful = same or hand
    if led == TRUMP and not any(c != t.r.top for c in same):
        lawful = hand  # only the top card (never forced out) or no trump: anything goes
    return [a for a in plays if a.cards[0] in lawful]


def _play(t: _Table, plays: list[Action], level: str, rng: random.Random) -> Action:
    by_card = {a.cards[0]: a for a in plays}
    cards = list(by_card)
    lowest = min(cards, key=t.throw_key)
    led = t.led()
    if level == "facil" and rng.random() < 0.2:
        return rng.choice(plays)
    if led is None:  # leading
        masters = [c for c in cards if t.master(c, t.r.suits[c._text])]
        if masters and level != "facil":
            return by_card[min(masters, key=t.throw_key)]
        plain = [c for c in cards if t.r.suits[c._text] != TRUMP]
        if plain and level != "facil":  # the highest plain card: keep trumps for later tricks
            return by_card[max(plain, key=t.throw_key)]
        return by_card[lowest]
    best_index = max(range(len(t.trick)), key=lambda i: t.key(t.trick[i][1], led))
    best_seat, best = t.trick[best_index]
    best_key = t.key(best, led)
    winners = sorted((c for c in cards if t.key(c, led) > best_key), key=lambda c: t.key(c, led))
    assert t.turn is not None
    after = t.n - len(t.trick) - 1
    opponents_after = sum(1 for i in range(1, after + 1) if (t.turn + i) % 2 != t.seat_team)
    if best_seat % 2 == t.seat_team and level != "facil":
        # A partner is winning: never overtake a card that holds; over a weak one that
        # opponents may still beat, put a card nobody can beat if there is one.
        if opponents_after and not t.master(best, led):
            masters = [c for c in winners if t.master(c, led)]
            if masters:
                return by_card[masters[0]]
        return by_card[lowest]
    if not winners:
        return by_card[lowest]
    if opponents_after == 0 or level == "facil":
        return by_card[winners[0]]
    masters = [c for c in winners if t.master(c, led)]
    if masters:
        return by_card[masters[0]]
    decisive = t.us == 1 or t.them == 1
    return by_card[winners[-1] if decisive else winners[0]]


# --------------------------------------------------------------------------- renuncio


def _proven_renuncio(t: _Table, v: Mapping[str, Any]) -> bool:
    """An opponent did not follow a suit and later showed a card of that suit (E4)."""
    tricks = [(tr["leader"], [Card.parse(c) for c in tr["cards"]]) for tr in t.tricks]
    if t.trick:
        tricks.append((t.trick[0][0], [c for _, c in t.trick]))
    n = t.n
    void: dict[int, set[str]] = {}
    me = t.seat_team
    for leader, cards in tricks:
        led = t.r.suits[cards[0]._text]
        for i, card in enumerate(cards):
            seat = (leader + i) % n
            suit = t.r.suits[card._text]
            if seat % 2 == me:
                continue
            if suit in void.get(seat, set()) and not (suit == TRUMP and card == t.r.top):
                return True
            if i and suit != led:
                void.setdefault(seat, set()).add(led)
    return False


# --------------------------------------------------------------------------- bets


def _chico(us: int, them: int) -> float:
    """A rough chance of winning the chico from a score, between equal teams (11: en tumbo).

    >>> _chico(5, 5), round(_chico(11, 3), 2) > 0.8
    (0.5, True)
    """
    return 1.0 / (1.0 + math.exp(-(min(us, _TUMBO) - min(them, _TUMBO)) / 4.0))


def _answer(
    t: _Table, v: Mapping[str, Any], actions: Sequence[Action], level: str, rng: random.Random
) -> Action:
    bet = v["bet"]
    kinds = {a.kind: a for a in actions}
    raised = {4: "envido", 7: "siete", 9: "nueve"}.get(bet["step"], "chico_fuera")
    p = t.round_chance()
    if level == "facil":
        if p > 0.7 and rng.random() < 0.5:
            for kind in _BETS:
                if kind in kinds:
                    return kinds[kind]
        return kinds["quiero"] if p >= 0.4 else kinds["no_quiero"]
    p = max(0.0, p - BET_SIGNAL)  # they bet: they are likely to hold something
    us, them = v["score"][t.seat_team], v["score"][1 - t.seat_team]
    if raised == "chico_fuera":
        accept = p
    else:
        stake = _LADDER[raised]
        accept = p * _chico(us + stake, them) + (1 - p) * _chico(us, them + stake)
    refuse = _chico(us, them + _PAID[raised])
    nxt = next((kinds[k] for k in _BETS if k in kinds), None)
    if nxt is not None and p >= RAISE_AT and us < _TUMBO:
        return nxt
    if accept >= refuse:
        return kinds["quiero"]
    return kinds["no_quiero"]


def _should_bet(t: _Table, v: Mapping[str, Any], level: str, rng: random.Random) -> bool:
    p = t.round_chance()
    us = v["score"][t.seat_team]
    if us + 2 >= _TUMBO:  # a bet would win us nothing more than the round's 2
        return False
    if level == "facil":
        return p >= 0.8
    return p >= BET_AT or (p >= BET_AT - 0.1 and rng.random() < 0.15)


def _tumbo_values() -> dict[int, float]:
    """Chance of winning the chico when we are at 11 and they have ``x`` (E6), playing well.

    Each deal we see a hand worth ``p`` (spread evenly over 0.2..0.9, as the estimate is) and
    choose the better of playing (``p``, else they score 3) and declining (they score 1); at
    11 each both must play an even round.

    >>> v = _tumbo_values()
    >>> v[11], v[0] > v[5] > v[10]
    (0.5, True)
    """
    spread = [0.2 + 0.05 * i for i in range(15)]
    values = {_TUMBO: 0.5}
    for x in range(_TUMBO - 1, -1, -1):
        lose, wait = values[min(_TUMBO, x + 3)], values[x + 1]
        values[x] = sum(max(p + (1 - p) * lose, wait) for p in spread) / len(spread)
    return values


_TUMBO_VALUES = _tumbo_values()


def _tumbo(t: _Table, v: Mapping[str, Any], actions: Sequence[Action], level: str) -> Action:
    """E6: play at tumbo (win: the chico; lose: they score 3) or not (they score 1)."""
    kinds = {a.kind: a for a in actions}
    p = t.round_chance()
    if level == "facil":
        return kinds["tumbo"] if p >= 0.35 else kinds["no_tumbo"]
    them = min(_TUMBO, v["score"][1 - t.seat_team])
    play = p + (1 - p) * _TUMBO_VALUES[min(_TUMBO, them + 3)]
    wait = _TUMBO_VALUES[min(_TUMBO, them + 1)]
    return kinds["tumbo"] if play >= wait else kinds["no_tumbo"]


# --------------------------------------------------------------------------- entry points


def choose(
    view: ViewLike,
    legal_actions: Sequence[Action],
    rng: random.Random,
    level: str = "normal",
) -> Action:
    """One of ``legal_actions`` for the seat whose ``view`` this is (see the module docstring).

    >>> import random
    >>> from engine.envite import legal_actions, new_game, view
    >>> s = new_game(players=4, seed=5)
    >>> seat = s.to_act[0]
    >>> choose(view(s, seat), legal_actions(s, seat), random.Random(0)) in legal_actions(s, seat)
    True
    """
    if not legal_actions:
        raise ValueError("no legal action to choose from")
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    v = _data(view)
    t = _Table(v)
    kinds = {a.kind for a in legal_actions}
    if "renuncio" in kinds and level == "normal" and _proven_renuncio(t, v):
        return next(a for a in legal_actions if a.kind == "renuncio")
    if "tumbo" in kinds:
        return _tumbo(t, v, legal_actions, level)
    if "quiero" in kinds:
        return _answer(t, v, legal_actions, level, rng)
    plays = _lawful(t, legal_actions)
    if not plays:  # only a renuncio call is offered (out of turn): nothing else to return
        return legal_actions[0]
    if "envido" in kinds and _should_bet(t, v, level, rng):
        return next(a for a in legal_actions if a.kind == "envido")
    return _play(t, plays, level, rng)


def baseline(view: ViewLike, legal_actions: Sequence[Action], rng: random.Random) -> Action:
    """The fixed rule player: bet with 2+ trumps, accept (and play tumbo) with 1+, never raise,
    play the highest lawful card.

    >>> import random
    >>> from engine.envite import legal_actions, new_game, view
    >>> s = new_game(players=4, dealer=3, hands=[["3b", "4o", "1c"], ["5e", "6e", "7e"],
    ...     ["10b", "11b", "12b"], ["1e", "2e", "3e"]], vira="7o")
    >>> str(baseline(view(s, 0), legal_actions(s, 0), random.Random(0)))
    'tiro 4o'
    """
    v = _data(view)
    t = _Table(v)
    by_kind = {a.kind: a for a in legal_actions}
    trumps = t.trumps_held()
    if "tumbo" in by_kind:
        return by_kind["tumbo" if trumps >= 1 else "no_tumbo"]
    if "quiero" in by_kind:
        return by_kind["quiero" if trumps >= 1 else "no_quiero"]
    if "envido" in by_kind and trumps >= 2 and not v["bet_closed"]:
        return by_kind["envido"]
    plays = _lawful(t, legal_actions)
    if not plays:  # only a renuncio call is offered (out of turn)
        return legal_actions[0]
    led = t.led()
    return max(plays, key=lambda a: t.key(a.cards[0], led or t.r.suits[a.cards[0]._text]))


__all__ = ["LEVELS", "baseline", "choose"]
