"""What one envite seat knows, decoded once per decision for the computer player (``ai``).

:class:`_Table` reads a seat's view (DESIGN.md: its own cards, the mocho's for its mandador,
the vira, the tricks, the bets, the señas its partners made it): the unseen cards, the
partners' cards known from señas (rules/senas.md S3), and quick card values (E3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from engine.cards import DECK, Card
from engine.envite.ranking import TRUMP, Ranker, ranker

_ALL_TEXT = tuple(str(c) for c in DECK)
CARD_SENAS = {
    "3 de bastos": "3b",
    "caballo de bastos": "11b",
    "sota de oros": "10o",
    "5 de oros": "5o",
    "2 de oros": "2o",
    "as de oros": "1o",
}
VIRA_SENAS = {"malilla": 2, "rey": 12, "caballo": 11}
SMALL_TRUMPS = "triunfos pequeños"


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
        self.won_by_team = (won[0], won[1])
        self.us, self.them = won[self.seat_team], won[1 - self.seat_team]
        seen = {str(self.vira), *(str(c) for c in mine), *(str(c) for c in mocho)}
        for t in self.tricks:
            seen.update(t["cards"])
        seen.update(str(c) for _, c in self.trick)
        told: dict[int, list[Card]] = {}  # partners' cards known from their señas
        self.envido_signal = False
        self.blind: set[int] = set()  # partners who signalled "ciego"
        self.small: set[int] = set()  # ... "triunfos pequeños"
        for who, name in v.get("senas_received") or ():
            if name == "envido":
                self.envido_signal = True
                continue
            if name == SMALL_TRUMPS:
                self.small.add(who)
                continue
            card = _signalled(name, self.vira)
            if name == "ciego":
                self.blind.add(who)
            if name == "ciego" or (card is not None and str(card) not in seen):
                told.setdefault(who, [])
                if card is not None:
                    told[who].append(card)
                    seen.add(str(card))
        self.told = list(told.values())
        self.told_by = told
        self.mine = mine
        self.mocho_hand = mocho
        self.mano: int = v["mano"]
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
        known = [*self.known_hands, *self.told]
        unknown_partners = max(0, k - len(known))
        unknown_players = max(0, 2 * k - len(known))
        partner = unknown_partners / unknown_players if unknown_players else 0.0
        sorted_hands = [sorted(h, key=self.power, reverse=True) for h in known]
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


def _signalled(name: str, vira: Card) -> Card | None:
    """The card a seña names (S3), if it names one."""
    if name in CARD_SENAS:
        return Card.parse(CARD_SENAS[name])
    rank = VIRA_SENAS.get(name)
    return None if rank is None else Card(rank, vira.suit)


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
