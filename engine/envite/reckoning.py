"""What envite bets are worth at a score: the computer player's reckoning (E5, E6).

Every value is a chance of winning the *chico*. :func:`chico_table` gives it for every score at
the start of a round; :class:`Stakes` values the ways a round can end from the current score:
refusing a bet pays the last accepted stake, accepting plays the round for the stake (chico
fuera: the round is the chico).

**Branches.** The seat's chance ``p`` of winning the round (from play-outs) averages over the
other team's unseen cards. It is spread into :data:`SPREAD` branches (their hand weaker or
stronger than average). In each branch the other team answers a bet by what it knows: its own
hand, not ours (it reckons our chance :data:`AVERAGE` moved by its hand): it refuses when its
hand is weak, accepts or raises when it is strong, whatever we hold. So a bet pays when the
branches where it is refused (2, 4, 7 or 9 stones at once) and those where it is played for
more outweigh playing the round for 2, and a raise to chico fuera only when the round is won in
most branches, or when the score makes the chico worth the risk (far behind).

**What their bets imply.** A bet or raise of the other team keeps only the branches where it
was their best move (the others count :data:`LOOSE`: people bluff and err); the answer to it
(quiero, no quiero or the next raise) is the best over the branches kept. Likewise, a team that
played a card without betting is unlikely to hold a hand that bets.

>>> st = Stakes(0, 0)
>>> st.bet_worth(0.5) > 0, st.bet_worth(0.9) > 0, Stakes(0, 8).bet_worth(0.6) > 0
(False, True, True)
>>> st.answer("envido", 0.95, [])[0], st.answer("nueve", 0.1, [("nueve", "siete")])[0]
('siete', 'no_quiero')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

TUMBO = 11
BETS = ("envido", "siete", "nueve", "chico_fuera")
STAKE = {"envido": 4, "siete": 7, "nueve": 9, "chico_fuera": 0}
"""What a round is worth once each bet is accepted (E5); 0: chico fuera, the round is the chico."""
REFUSED = {"envido": 2, "siete": 4, "nueve": 7, "chico_fuera": 9}
"""What refusing each bet pays the team that made it (E5)."""
NEXT = {"envido": "siete", "siete": "nueve", "nueve": "chico_fuera"}
EDGE = 0.6
"""The share of ordinary rounds the chico table assumes it wins (its own play being sound)."""
SPREAD = (-0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3)
"""How a round's chance spreads around its average from one hand of the other team to the next
(also the spread of a round's chance around :data:`EDGE` at tumbo)."""
LOOSE = 0.1
"""The weight kept for a branch where the other team's bet was not its best move."""


def chico_table(edge: float = EDGE) -> dict[tuple[int, int], float]:
    """Chance of winning the chico at the start of a round from each score ``(us, them)`` (E6).

    Each ordinary round is won with ``edge`` (worth 2); at tumbo the team at 11 sees its hand
    (a chance spread by :data:`SPREAD`) and plays or declines, whichever is better for it.

    >>> w = chico_table(0.5)
    >>> w[(11, 11)], w[(5, 5)], w[(11, 0)] > w[(9, 0)] > w[(0, 0)] > w[(0, 9)]
    (0.5, 0.5, True)
    """
    spread = [min(0.95, max(0.05, edge + d)) for d in SPREAD]
    w: dict[tuple[int, int], float] = {(TUMBO, TUMBO): edge}
    for total in range(2 * TUMBO - 1, -1, -1):
        for us in range(max(0, total - TUMBO), min(TUMBO, total) + 1):
            them = total - us
            if us == TUMBO:
                play = [p + (1 - p) * w[(TUMBO, min(TUMBO, them + 3))] for p in spread]
                wait = w[(TUMBO, them + 1)]
                w[(us, them)] = sum(max(x, wait) for x in play) / len(spread)
            elif them == TUMBO:
                play = [p * w[(min(TUMBO, us + 3), TUMBO)] for p in spread]
                wait = w[(us + 1, TUMBO)]
                w[(us, them)] = sum(min(x, wait) for x in play) / len(spread)
            else:
                win = w[(min(TUMBO, us + 2), them)]
                lose = w[(us, min(TUMBO, them + 2))]
                w[(us, them)] = edge * win + (1 - edge) * lose
    return w


CHICO = chico_table()


AVERAGE = 0.5
"""The round's chance the other team reckons with before seeing its own hand: it does not see
ours, so it answers by its own hand alone."""


def branches(p: float) -> list[tuple[float, float]]:
    """For each branch of the other team's hand (:data:`SPREAD`): the round's chance for us
    (``p`` moved by that hand, recentred after clipping so that they average about ``p``) and
    the chance the other team
    reckons we have (:data:`AVERAGE` moved the same way: it sees its hand, not ours).

    >>> [round(x, 2) for x, _ in branches(0.5)]
    [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    >>> round(sum(x for x, _ in branches(0.95)) / len(SPREAD), 2), branches(0.95)[0][1]
    (0.92, 0.2)
    """
    raw = [min(1.0, max(0.0, p + d)) for d in SPREAD]
    shift = p - sum(raw) / len(raw)
    return [
        (min(1.0, max(0.0, x + shift)), min(1.0, max(0.0, AVERAGE + d)))
        for x, d in zip(raw, SPREAD, strict=True)
    ]


class Stakes:
    """Chico chances of the round's outcomes from the score ``(us, them)`` (E5, E6)."""

    def __init__(self, us: int, them: int, table: Mapping[tuple[int, int], float] = CHICO) -> None:
        self.us, self.them, self.w = us, them, table
        self._after = cache(self._after_uncached)

    def win(self, points: int) -> float:
        return self.w[(min(TUMBO, self.us + points), self.them)]

    def lose(self, points: int) -> float:
        return self.w[(self.us, min(TUMBO, self.them + points))]

    def play(self, bet: str | None, p: float) -> float:
        """Play the round out at the stake ``bet`` accepted (None: the round's 2)."""
        if bet == "chico_fuera":
            return p
        stake = 2 if bet is None else STAKE[bet]
        return p * self.win(stake) + (1 - p) * self.lose(stake)

    def after(self, bet: str, ours: bool, p: float, q: float) -> float:
        """Our value once ``bet`` is made (by us if ``ours``) when the round's chance is ``p``
        and the other team reckons it ``q``: each team answers by what it knows (we by ``p``,
        they by ``q``), the value is what that answer gives at ``p``."""
        return self._after(bet, ours, round(p, 4), round(q, 4))

    def _after_uncached(self, bet: str, ours: bool, p: float, q: float) -> float:
        raise_to = NEXT.get(bet)
        if ours:  # they answer, by q: the least they reckon we get
            seen = [self.win(REFUSED[bet]), self.play(bet, q)]
            real = [seen[0], self.play(bet, p)]
            if raise_to is not None:
                seen.append(self.after(raise_to, False, q, q))
                real.append(self.after(raise_to, False, p, q))
            return real[seen.index(min(seen))]
        options = [self.lose(REFUSED[bet]), self.play(bet, p)]
        if raise_to is not None:
            options.append(self.after(raise_to, True, p, q))
        return max(options)

    def their_best(self, bet: str, before: str | None, q: float) -> bool:
        """Whether the other team's ``bet`` (over our ``before``, None: the opening bet) was its
        best move when it reckons our chance ``q``."""
        made = self.after(bet, False, q, q)
        if before is None:
            return made <= self.play(None, q) + 1e-9
        return made <= min(self.win(REFUSED[before]), self.play(before, q)) + 1e-9

    def weights(self, p: float, theirs: Sequence[tuple[str, str | None]]) -> list[float]:
        """Each branch's weight once the other team's bets ``theirs`` ((bet, our bet it
        raised or None), in order) are seen: :data:`LOOSE` for each one that was not its
        best move there."""
        out = []
        for _, q in branches(p):
            weight = 1.0
            for bet, before in theirs:
                if not self.their_best(bet, before, q):
                    weight *= LOOSE
            out.append(weight)
        return out

    def bet_worth(self, p: float, declined: bool = False) -> float:
        """What opening the betting (envido) gains over playing the round for 2; ``declined``:
        the other team has played a card this round without betting, so the branches where
        betting was its best move count :data:`LOOSE`."""
        xs = branches(p)
        ws = [LOOSE if declined and self.their_best("envido", None, q) else 1.0 for _, q in xs]
        gain = sum(
            w * (self.after("envido", True, x, q) - self.play(None, x))
            for w, (x, q) in zip(ws, xs, strict=True)
        )
        return gain / sum(ws)

    def answer(
        self, bet: str, p: float, theirs: Sequence[tuple[str, str | None]]
    ) -> tuple[str, float]:
        """Our best answer to their ``bet``: ("quiero" | "no_quiero" | the raise, its value),
        over the branches their bets ``theirs`` leave (:meth:`weights`)."""
        xs = branches(p)
        ws = self.weights(p, theirs)
        total = sum(ws)
        options = [("no_quiero", self.lose(REFUSED[bet]))]
        quiero = sum(w * self.play(bet, x) for w, (x, _) in zip(ws, xs, strict=True))
        options.append(("quiero", quiero / total))
        raise_to = NEXT.get(bet)
        if raise_to is not None:
            up = sum(w * self.after(raise_to, True, x, q) for w, (x, q) in zip(ws, xs, strict=True))
            options.append((raise_to, up / total))
        return max(options, key=lambda o: o[1])
