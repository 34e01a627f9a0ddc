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
- **Bets** (E5, E6) are reckoned in chances of winning the *chico* (``reckoning``): the
  round's chance is spread over the other team's possible hands; in each, the other team
  answers by its own hand (it cannot see ours), and a bet, raise or answer is worth what those
  answers give at this score. It bets (envido) when that beats playing the round for 2 (a
  little sooner, :data:`BET_LIFT`: teams refuse more often than that answer says), raises up
  to chico fuera only when the round is won in most branches or the score makes the risk
  worth it, and answers a bet of theirs over the hands that bet implies (a team that bets
  holds something; one that played a card without betting likely does not). At tumbo it
  plays when winning now, or losing and conceding 3, is worth more than conceding 1.
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

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card
from engine.core import Action
from engine.envite.knowledge import (
    CARD_SENAS,
    SMALL_TRUMPS,
    VIRA_SENAS,
    ViewLike,
    _data,
    _Table,
)
from engine.envite.playouts import SAMPLES, _cards_of, _deals, _sampled_decision
from engine.envite.ranking import TRUMP
from engine.envite.reckoning import BETS, CHICO, STAKE, TUMBO, Stakes, chico_table

LEVELS = ("facil", "normal")
BET_AT = 0.5
"""Señas: signal "envido" when the round looks at least this likely won."""
ENVIDO_SIGNAL = 0.08
"""How much sooner it bets when a partner signalled "envido"."""
BET_LIFT = 0.08
"""How much sooner than the reckoning it opens the betting: the reckoning's other team answers
by its own hand alone, while teams refuse more often (the independent rule team refuses four
bets in five, paying 2 at once); measured: 4 players, 800 games, against the rule team
79.2 % -> 82.1 %, against random 93.4 % -> 92.5 % (bench/ai_envite.py)."""


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


def _stakes(t: _Table, v: Mapping[str, Any]) -> Stakes:
    score = v["score"]
    return Stakes(score[t.seat_team], score[1 - t.seat_team])


def their_bets(v: Mapping[str, Any], team: int) -> list[tuple[str, str | None]]:
    """The other team's bets this round, each with our bet it raised (None: it opened)."""
    theirs: list[tuple[str, str | None]] = []
    ours: str | None = None
    for said in v["bets"]:
        kind = said["action"].replace(" ", "_")
        if kind not in STAKE:
            continue  # quiero
        if said["team"] == team:
            ours = kind
        else:
            theirs.append((kind, ours))
    return theirs


def _answer(
    t: _Table, v: Mapping[str, Any], actions: Sequence[Action], level: str, rng: random.Random
) -> Action:
    kinds = {a.kind: a for a in actions}
    raised = {4: "envido", 7: "siete", 9: "nueve"}.get(v["bet"]["step"], "chico_fuera")
    if level == "facil":
        p = t.round_chance()
        if p > 0.7 and rng.random() < 0.5:
            for kind in BETS:
                if kind in kinds:
                    return kinds[kind]
        return kinds["quiero"] if p >= 0.4 else kinds["no_quiero"]
    st = _stakes(t, v)
    theirs = their_bets(v, t.seat_team)
    if theirs and theirs[0][1] is None and _late_bet(t, v):
        theirs = theirs[1:]  # their opening bet says little of their hands

    def best(p: float) -> str:  # over the branches their bets leave (reckoning)
        return st.answer(raised, p, theirs)[0]

    return kinds.get(_sampled_decision(t, rng, best)) or kinds["quiero"]


def _should_bet(t: _Table, v: Mapping[str, Any], level: str, rng: random.Random) -> bool:
    if level == "facil":
        return t.round_chance() >= 0.8 and v["score"][t.seat_team] + 2 < TUMBO
    st = _stakes(t, v)
    declined = _declined(t, v)
    lift = (ENVIDO_SIGNAL if t.envido_signal else 0.0) + BET_LIFT

    def bet(p: float) -> bool:
        if t.envido_signal:  # he saw his cards win the round (BET_AT), ours count as average
            p = max(p, BET_AT)
        p = min(1.0, p + lift)
        return st.bet_worth(p, declined) > 0.0

    return _sampled_decision(t, rng, bet)


def _declined(t: _Table, v: Mapping[str, Any]) -> bool:
    """Whether a seat of the other team has played a card this round with no bet made: it
    could have bet before it (E5) and chose not to."""
    if v["bets"]:
        return False
    played = [seat for tr in t.tricks for seat in _trick_seats(tr, t.n)]
    played += [seat for seat, _ in t.trick]
    return any(seat % 2 != t.seat_team for seat in played)


def _late_bet(t: _Table, v: Mapping[str, Any]) -> bool:
    """Whether the other team opened the betting from a seat that had already played a card
    this round without betting (E5: it could have bet before it) while its team is not ahead
    in tricks: a hand that bets by its strength bets at once, so this bet is read as no
    sign of strength (a player betting at random bets late as often as early)."""
    opener = v["bets"][0]["seat"] if v["bets"] else None
    if opener is None or opener % 2 == t.seat_team:
        return False
    played = [seat for tr in t.tricks for seat in _trick_seats(tr, t.n)]
    played += [seat for seat, _ in t.trick]
    return opener in played and t.them <= t.us


def _trick_seats(trick: Mapping[str, Any], n: int) -> list[int]:
    return [(trick["leader"] + i) % n for i in range(len(trick["cards"]))]


def _tumbo(
    t: _Table, v: Mapping[str, Any], actions: Sequence[Action], level: str, rng: random.Random
) -> Action:
    """E6: play at tumbo (win: the chico; lose: they score 3) or not (they score 1)."""
    kinds = {a.kind: a for a in actions}
    if level == "facil":
        return kinds["tumbo"] if t.round_chance() >= 0.35 else kinds["no_tumbo"]
    them = min(TUMBO, v["score"][1 - t.seat_team])
    lose, wait = CHICO[(TUMBO, min(TUMBO, them + 3))], CHICO[(TUMBO, them + 1)]
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


__all__ = [
    "CARD_SENAS",
    "LEVELS",
    "SAMPLES",
    "VIRA_SENAS",
    "_Table",
    "_cards_of",
    "_deals",
    "baseline",
    "chico_table",
    "choose",
    "choose_senas",
]
