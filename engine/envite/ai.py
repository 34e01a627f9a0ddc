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
- **Strength.** For card play, each card is worth the share of unseen cards it beats
  (``_Table.power``), from which a quick chance of the team taking each remaining trick.
  For bets and tumbo it estimates the chance of winning the round by playouts
  (:data:`SAMPLES` of them): the unseen cards are dealt at random to the seats that hold them
  (none of a suit to a seat seen not to follow it, E4), then every seat plays a quick policy
  to the end of the round, the trick winner given by the engine's own ranking (E3); the other
  team plays a random lawful card now and then (:data:`NOISE`).
- **Bets** (E5, E6) are judged by the chance of winning the *chico*: :func:`chico_table`
  gives it for every score at the start of a round (a small DP over rounds and tumbo
  decisions), and each choice is valued by where the round can end: refusing pays the last
  accepted stake, accepting plays the round for the stake (chico fuera: the round is the
  chico), raising lets the other team refuse, accept or raise again (:data:`ANSWERS`; their
  bets and acceptances make the round a little less likely won, :data:`BET_SIGNAL`). It
  answers with the best of quiero, no quiero and the raise, and bets (envido) when the bet is
  worth more than playing the round for 2. A strong hand therefore raises, up to chico fuera
  when the round is likelier won than the chico from this score; a lost cause refuses. At
  tumbo it plays when winning now, or losing and conceding 3, is worth more than conceding 1.
- **Renuncio** (modo renuncio): it calls only a proven one (an opponent who did not follow a suit
  and later showed a card of it).

Level ``"facil"`` plays the cheapest winning card or its lowest, overtakes partners, sometimes
throws a random lawful card, and bets, answers and decides tumbo on fixed thresholds of the
quick estimate (no playouts, no score).

Señas (rules/senas.md): :func:`choose_senas` sends the señas that name a card (malilla, the
fixed trumps, rey, caballo), "triunfos pequeños", "flus", "ciego", and "envido" when the round
looks won; a partner's signalled cards then count as known partner cards (no longer a threat
among the unseen ones), a partner's "ciego" as a partner without trumps, his "triunfos
pequeños" as one small trump the playouts deal him, and his "envido" makes it bet sooner
("flus" is sent for people; it does not change its own play).

:func:`baseline` is the fixed rule player the strength benchmark compares with: bet with two or
more trumps, accept with one or more, play the highest lawful card.

>>> import random
>>> from engine.envite import legal_actions, new_game, view
>>> s = new_game(players=4, dealer=3, hands=[["2o", "12o", "4b"], ["5e", "6e", "7e"],
...     ["10b", "11b", "12b"], ["1e", "2e", "3e"]], vira="7o")
>>> str(choose(view(s, 0), legal_actions(s, 0), random.Random(1)))
'envido'
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from engine.cards import DECK, Card
from engine.core import Action
from engine.envite.ranking import TRUMP, Ranker, ranker
from engine.envite.senas import card_sena

LEVELS = ("facil", "normal")
T = TypeVar("T")
_ALL_TEXT = tuple(str(c) for c in DECK)
_BETS = ("envido", "siete", "nueve", "chico_fuera")
_TUMBO = 11
BET_AT = 0.5
"""Señas: signal "envido" when the round looks at least this likely won."""
SAMPLES = 64
"""Deals of the unseen cards played out, at most, to judge a bet, an answer or a tumbo."""
BATCH = 16
"""Playouts between two looks at whether the decision is already clear."""
NOISE = 0.3
"""In those playouts, the share of the other team's cards that are a random lawful card (people
err; a playout where both teams play alike undervalues a good hand against a weak team)."""
ENVIDO_SIGNAL = 0.08
"""How much sooner it bets when a partner signalled "envido"."""
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
TRIES = 48
"""Deals drawn at most for one playout until it fits a partner's "triunfos pequeños" (about
one deal in two does); the last one is kept when none fits."""
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


# --------------------------------------------------------------------------- playouts

_SUIT_INDEX = {"o": 0, "c": 1, "e": 2, "b": 3, TRUMP: 4}
_LED_LETTERS = ("o", "c", "e", "b", TRUMP)
_TRUMP_INDEX = 4


class _Cards:
    """One vira and team size as integer tables (a card is its index in ``DECK``).

    Built from the engine's own :class:`~engine.envite.ranking.Ranker`: ``suit[c]`` is the suit
    a card counts as (4: trumps, E3), ``key[c][led]`` its strength in a trick led in ``led``
    (higher wins, E3), ``throw[c]`` the order for throwing away (plain low cards first),
    ``small[c]`` whether it gives the seña "triunfos pequeños" (S3).
    """

    def __init__(self, r: Ranker, vira: Card, k: int) -> None:
        self.suit = [_SUIT_INDEX[r.suits[c._text]] for c in DECK]
        self.key = [[r.key(c, led) for led in _LED_LETTERS] for c in DECK]
        self.throw = [
            1000 + k[_TRUMP_INDEX] if s == _TRUMP_INDEX else k[s]
            for s, k in zip(self.suit, self.key, strict=True)
        ]
        self.lead = [k[s] for s, k in zip(self.suit, self.key, strict=True)]
        self.top = r.top.index
        self.small = [card_sena(c, vira, k) == SMALL_TRUMPS for c in DECK]

    def lawful(self, hand: list[int], led: int) -> list[int]:
        """E4: follow the suit led; at an arrastre the top card is never forced out."""
        suit = self.suit
        same = [x for x in hand if suit[x] == led]
        if led == _TRUMP_INDEX:
            top = self.top
            return same if any(x != top for x in same) else hand
        return same or hand

    def playout(
        self,
        hands: list[list[int]],
        leader: int,
        trick: list[int],
        won: list[int],
        erring: int,
        noise: float,
        rng: random.Random,
    ) -> int:
        """Play the round out with a quick policy for every seat; the team that wins it (E4).

        Leading: the strongest card. Following: the lowest lawful card when a partner holds
        the trick or nothing wins, else the lowest card that wins. ``hands`` is used up.
        """
        key, suit, throw, lead, top = self.key, self.suit, self.throw, self.lead, self.top
        n = len(hands)
        led = best_key = best_seat = 0
        if trick:
            led = suit[trick[0]]
            for i, card in enumerate(trick):
                if key[card][led] > best_key or i == 0:
                    best_key, best_seat = key[card][led], (leader + i) % n
        count = len(trick)
        while True:
            if count == 0:
                h = hands[leader]
                card = max(h, key=lead.__getitem__)
                h.remove(card)
                led, best_key, best_seat, count = suit[card], lead[card], leader, 1
            while count < n:
                seat = (leader + count) % n
                h = hands[seat]
                same = [x for x in h if suit[x] == led]  # E4, as in lawful()
                if led == _TRUMP_INDEX:
                    lawful = same if any(x != top for x in same) else h
                else:
                    lawful = same or h
                if seat % 2 == erring and noise and rng.random() < noise:
                    card = lawful[int(rng.random() * len(lawful))]
                elif (best_seat - seat) % 2 == 0:
                    card = min(lawful, key=throw.__getitem__)
                else:
                    card = -1
                    for x in lawful:
                        kx = key[x][led]
                        if kx > best_key and (card < 0 or kx < key[card][led]):
                            card = x
                    if card < 0:
                        card = min(lawful, key=throw.__getitem__)
                h.remove(card)
                kc = key[card][led]
                if kc > best_key:
                    best_key, best_seat = kc, seat
                count += 1
            team = best_seat % 2
            won[team] += 1
            if won[team] >= 2 or won[0] + won[1] >= 3:
                return team
            leader, count = best_seat, 0


_CARD_TABLES: dict[tuple[str, int], _Cards] = {}


def _cards_of(t: _Table) -> _Cards:
    found = _CARD_TABLES.get((t.vira._text, t.k))
    if found is None:
        found = _CARD_TABLES[(t.vira._text, t.k)] = _Cards(t.r, t.vira, t.k)
    return found


def _deals(t: _Table, c: _Cards) -> tuple[list[int], Any]:
    """What is known of the round for playouts, and a function dealing one sample of the rest.

    Returns (the current trick's cards, ``deal(rng) -> hands``): the unseen cards dealt at
    random to the seats that hold them, a seat seen not to follow a suit getting none of it
    (E4) and a partner who signalled "ciego" no trump (S3); the seat's own cards, the
    mocho's for its mandador and cards a partner signalled stay where they are known to be.
    A partner who signalled "triunfos pequeños" and has not played one yet is dealt one (the
    deal is drawn again, up to :data:`TRIES` times).
    """
    n = t.n
    played = [0] * n
    shown: list[list[int]] = [[] for _ in range(n)]  # cards each seat played this round
    void: list[set[int]] = [set() for _ in range(n)]
    rounds = [(tr["leader"], [Card.parse(x).index for x in tr["cards"]]) for tr in t.tricks]
    current = [card.index for _, card in t.trick]
    if t.trick:
        rounds.append((t.trick[0][0], current))
    for lead_seat, cards in rounds:
        led = c.suit[cards[0]]
        for i, card in enumerate(cards):
            seat = (lead_seat + i) % n
            played[seat] += 1
            shown[seat].append(card)
            if c.suit[card] != led:
                void[seat].add(led)
    for who in t.blind:  # S3 "ciego": no trump at all, the top one included
        void[who].add(_TRUMP_INDEX)
    fixed: dict[int, list[int]] = {t.seat: [x.index for x in t.mine]}
    if t.mocho is not None and t.mocho_hand:
        fixed[t.mocho] = [x.index for x in t.mocho_hand]
    for who, told in t.told_by.items():
        if who not in fixed:
            fixed[who] = [x.index for x in told]
    unseen = [x.index for x in t.unseen]
    open_seats = sorted(
        (s for s in range(n) if 3 - played[s] > len(fixed.get(s, ()))),
        key=lambda s: -len(void[s]),
    )
    top, suit = c.top, c.suit
    blind = t.blind

    size = len(unseen)
    small = c.small
    small_from = [s for s in t.small if not any(small[x] for x in shown[s])]

    def deal(rng: random.Random) -> list[list[int]]:
        hands = one_deal(rng)
        for _ in range(TRIES - 1 if small_from else 0):
            if all(any(small[x] for x in hands[s]) for s in small_from):
                break
            hands = one_deal(rng)
        return hands

    def one_deal(rng: random.Random) -> list[list[int]]:
        pool = list(unseen)
        rnd = rng.random
        for i in range(size - 1):  # a shuffle drawing floats: far quicker than rng.shuffle
            j = i + int(rnd() * (size - i))
            pool[i], pool[j] = pool[j], pool[i]
        hands = [list(fixed.get(s, ())) for s in range(n)]
        for s in open_seats:
            need = 3 - played[s] - len(hands[s])
            banned = void[s]
            if banned:
                keeps_top = s not in blind
                took = [x for x in pool if suit[x] not in banned or (x == top and keeps_top)]
                took = took[:need]
                if len(took) < need:
                    took += [x for x in pool if x not in took][: need - len(took)]
                for x in took:
                    pool.remove(x)
            else:
                took, pool = pool[:need], pool[need:]
            hands[s].extend(took)
        return hands

    return current, deal


def _leader(t: _Table) -> int:
    if t.trick:
        return t.trick[0][0]
    return int(t.tricks[-1]["winner"]) if t.tricks else t.mano


def _sampled_chance(t: _Table, rng: random.Random, samples: int) -> float:
    """Chance of winning the round: the unseen cards dealt at random (:func:`_deals`), then
    the round played out (:meth:`_Cards.playout`)."""
    c = _cards_of(t)
    current, deal = _deals(t, c)
    leader, team = _leader(t), t.seat_team
    wins = 0
    for _ in range(samples):
        won = list(t.won_by_team)
        if c.playout(deal(rng), leader, list(current), won, 1 - team, NOISE, rng) == team:
            wins += 1
    return wins / samples


def _sampled_decision(t: _Table, rng: random.Random, decide: Callable[[float], T]) -> T:
    """``decide(p)`` at the chance ``p`` of winning the round, estimated by playouts in
    batches of :data:`BATCH` (up to :data:`SAMPLES`, fewer from 8 players up): it stops as
    soon as the decision is the same at both ends of the estimate's margin (two standard
    errors), most decisions being clear long before the last batch."""
    low = decide(0.0)
    if low == decide(1.0):  # the same whatever the cards: no playout needed
        return low
    c = _cards_of(t)
    current, deal = _deals(t, c)
    leader, team = _leader(t), t.seat_team
    # From 8 players up a playout is longer: fewer and smaller batches.
    batch = BATCH if t.n <= 6 else BATCH // 2
    most = SAMPLES if t.n <= 6 else SAMPLES * 4 // t.n
    wins = count = 0
    while True:
        for _ in range(batch):
            won = list(t.won_by_team)
            if c.playout(deal(rng), leader, list(current), won, 1 - team, NOISE, rng) == team:
                wins += 1
        count += batch
        p = wins / count
        if count >= most:
            return decide(p)
        margin = 2.0 * math.sqrt(max(p * (1 - p), 0.05) / count)
        low = decide(max(0.0, p - margin))
        if low == decide(min(1.0, p + margin)):
            return low


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


_STAKE = {"envido": 4, "siete": 7, "nueve": 9, "chico_fuera": 0}
"""What a round is worth once each bet is accepted (E5); 0: chico fuera, the round is the chico."""
_REFUSED = {"envido": 2, "siete": 4, "nueve": 7, "chico_fuera": 9}
"""What refusing each bet pays the team that made it (E5)."""
_NEXT = {"envido": "siete", "siete": "nueve", "nueve": "chico_fuera"}
EDGE = 0.6
"""The share of ordinary rounds the chico table assumes it wins (its own play being sound)."""
SPREAD = (-0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3)
"""How a round's chance spreads around :data:`EDGE` from one deal to the next."""
ANSWERS = (1 / 3, 1 / 3, 1 / 3)
"""The chance it gives the other team of refusing, accepting and raising a bet of ours."""


def chico_table(edge: float = EDGE) -> dict[tuple[int, int], float]:
    """Chance of winning the chico at the start of a round from each score ``(us, them)`` (E6).

    Each ordinary round is won with ``edge`` (worth 2); at tumbo the team at 11 sees its hand
    (a chance spread by :data:`SPREAD`) and plays or declines, whichever is better for it.

    >>> w = chico_table(0.5)
    >>> w[(11, 11)], w[(5, 5)], w[(11, 0)] > w[(9, 0)] > w[(0, 0)] > w[(0, 9)]
    (0.5, 0.5, True)
    """
    spread = [min(0.95, max(0.05, edge + d)) for d in SPREAD]
    w: dict[tuple[int, int], float] = {(_TUMBO, _TUMBO): edge}
    for total in range(2 * _TUMBO - 1, -1, -1):
        for us in range(max(0, total - _TUMBO), min(_TUMBO, total) + 1):
            them = total - us
            if us == _TUMBO:
                play = [p + (1 - p) * w[(_TUMBO, min(_TUMBO, them + 3))] for p in spread]
                wait = w[(_TUMBO, them + 1)]
                w[(us, them)] = sum(max(x, wait) for x in play) / len(spread)
            elif them == _TUMBO:
                play = [p * w[(min(_TUMBO, us + 3), _TUMBO)] for p in spread]
                wait = w[(us + 1, _TUMBO)]
                w[(us, them)] = sum(min(x, wait) for x in play) / len(spread)
            else:
                win = w[(min(_TUMBO, us + 2), them)]
                lose = w[(us, min(_TUMBO, them + 2))]
                w[(us, them)] = edge * win + (1 - edge) * lose
    return w


_CHICO = chico_table()


class _Stakes:
    """Chico chances of the round's outcomes from the current score (E5, E6)."""

    def __init__(self, us: int, them: int, table: Mapping[tuple[int, int], float]) -> None:
        self.us, self.them, self.w = us, them, table

    def win(self, points: int) -> float:
        return self.w[(min(_TUMBO, self.us + points), self.them)]

    def lose(self, points: int) -> float:
        return self.w[(self.us, min(_TUMBO, self.them + points))]

    def play(self, bet: str | None, p: float) -> float:
        """Play the round out at the stake ``bet`` accepted (None: the round's 2)."""
        if bet == "chico_fuera":
            return p
        stake = 2 if bet is None else _STAKE[bet]
        return p * self.win(stake) + (1 - p) * self.lose(stake)

    def answer(self, bet: str, p: float, signal: float) -> tuple[str, float]:
        """Our best answer to their ``bet``: ("quiero" | "no_quiero" | the raise, its value)."""
        options = [("no_quiero", self.lose(_REFUSED[bet])), ("quiero", self.play(bet, p))]
        raise_to = _NEXT.get(bet)
        if raise_to is not None:
            options.append((raise_to, self.raised(raise_to, p, signal)))
        return max(options, key=lambda o: o[1])

    def raised(self, bet: str, p: float, signal: float) -> float:
        """The value of making ``bet``, the other team answering as :data:`ANSWERS` says."""
        refuse, accept, up = ANSWERS
        q = max(0.0, p - signal)
        value = refuse * self.win(_REFUSED[bet]) + accept * self.play(bet, q)
        raise_to = _NEXT.get(bet)
        if raise_to is None:
            return value / (refuse + accept)
        return value + up * self.answer(raise_to, max(0.0, q - signal), signal)[1]


def _stakes(t: _Table, v: Mapping[str, Any]) -> _Stakes:
    score = v["score"]
    return _Stakes(score[t.seat_team], score[1 - t.seat_team], _CHICO)


def _answer(
    t: _Table, v: Mapping[str, Any], actions: Sequence[Action], level: str, rng: random.Random
) -> Action:
    kinds = {a.kind: a for a in actions}
    raised = {4: "envido", 7: "siete", 9: "nueve"}.get(v["bet"]["step"], "chico_fuera")
    if level == "facil":
        p = t.round_chance()
        if p > 0.7 and rng.random() < 0.5:
            for kind in _BETS:
                if kind in kinds:
                    return kinds[kind]
        return kinds["quiero"] if p >= 0.4 else kinds["no_quiero"]
    st = _stakes(t, v)

    def best(p: float) -> str:  # they bet: they may hold something (BET_SIGNAL)
        return st.answer(raised, max(0.0, p - BET_SIGNAL), BET_SIGNAL)[0]

    return kinds.get(_sampled_decision(t, rng, best)) or kinds["quiero"]


def _should_bet(t: _Table, v: Mapping[str, Any], level: str, rng: random.Random) -> bool:
    if level == "facil":
        return t.round_chance() >= 0.8 and v["score"][t.seat_team] + 2 < _TUMBO
    st = _stakes(t, v)
    lift = ENVIDO_SIGNAL if t.envido_signal else 0.0

    def bet(p: float) -> bool:
        if t.envido_signal:  # he saw his cards win the round (BET_AT), ours count as average
            p = max(p, BET_AT)
        p = min(1.0, p + lift)
        return st.raised("envido", p, BET_SIGNAL) > st.play(None, p)

    return _sampled_decision(t, rng, bet)


def _tumbo(
    t: _Table, v: Mapping[str, Any], actions: Sequence[Action], level: str, rng: random.Random
) -> Action:
    """E6: play at tumbo (win: the chico; lose: they score 3) or not (they score 1)."""
    kinds = {a.kind: a for a in actions}
    if level == "facil":
        return kinds["tumbo"] if t.round_chance() >= 0.35 else kinds["no_tumbo"]
    them = min(_TUMBO, v["score"][1 - t.seat_team])
    lose, wait = _CHICO[(_TUMBO, min(_TUMBO, them + 3))], _CHICO[(_TUMBO, them + 1)]
    play = _sampled_decision(t, rng, lambda p: p + (1 - p) * lose >= wait)
    return kinds["tumbo"] if play else kinds["no_tumbo"]


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
        return _tumbo(t, v, legal_actions, level, rng)
    if "quiero" in kinds:
        return _answer(t, v, legal_actions, level, rng)
    plays = _lawful(t, legal_actions)
    if not plays:  # only a renuncio call is offered (out of turn): nothing else to return
        return legal_actions[0]
    if "envido" in kinds and _should_bet(t, v, level, rng):
        return next(a for a in legal_actions if a.kind == "envido")
    return _play(t, plays, level, rng)


def choose_senas(
    view: ViewLike, offered: Sequence[Action], rng: random.Random, level: str = "normal"
) -> list[Action]:
    """The señas to send now among ``offered`` (``engine.envite.legal_senas``): those naming a
    card, "triunfos pequeños", "flus", "ciego", and "envido" when the round looks won and a bet
    may still be made (``facil``: the first one only).

    >>> from engine.envite import legal_senas, new_game, view
    >>> s = new_game(players=4, dealer=3, hands=[["2c", "12c", "4o"], ["3e", "7o", "12b"],
    ...     ["4e", "5o", "6o"], ["4b", "5b", "6b"]], vira="5c")
    >>> [str(a) for a in choose_senas(view(s, 0), legal_senas(s, 0), random.Random(1))]
    ['seña malilla', 'seña rey', 'seña envido']
    """
    wanted = {*CARD_SENAS, *VIRA_SENAS, SMALL_TRUMPS, "flus", "ciego"}
    picked = [a for a in offered if a.name in wanted]
    v = _data(view)
    envido = next((a for a in offered if a.name == "envido"), None)
    if envido is not None and _betting_open(v) and _Table(v).round_chance() >= BET_AT:
        picked.append(envido)
    return picked[:1] if level == "facil" else picked


def _betting_open(v: Mapping[str, Any]) -> bool:
    """Whether a bet may still be made or answered this round (E5: one betting sequence, none
    while a team is en tumbo): "let's bet" means nothing once it is over."""
    return not v["bet_closed"] and not any(v["en_tumbo"])


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
