"""Every event kind a Mus a piedras transition emits, with its ``data`` fields.

Events are public (``to=None``) unless noted; a hand's cards travel only in ``dealt`` (to its
seat) until ``showdown`` reveals them. Seats are ints, cards their text (``"12o"``), lances one of
``grande``, ``chica``, ``pares``, ``juego``, ``punto``.

Match and hands
- ``juego_started`` {juego, stones, players: [seats in this juego]}
- ``hand_started`` {hand, juego, mano, dealer (the player to the mano's left), players: [seats
  dealt in, from the mano], piles: [..], plate}
- ``dealt`` {seat, cards: [..]} to={seat}: the seat's whole hand (five cards, then his four after
  the discard)
- ``discarded`` {seat}: the seat has discarded (which card stays private)
- ``showdown`` {hands: [cards or null, one per seat]}: hands shown to everyone (an órdago, or the
  end of the hand for everyone still in it)
- ``hand_over`` {hand, piles: [..], plate}: after the settlement (or the órdago that ended the
  juego), before any ``juego_lost``
- ``freed`` {seat}: the seat got rid of his stones (or lost them in an órdago) and sits out the
  rest of the juego
- ``juego_lost`` {seat, juego, losses}: the last player with stones lost the juego
- ``player_out`` {seat}: he has lost ``options.losses`` juegos
- ``match_won`` {seat}

Lances
- ``declared`` {lance: "pares"|"juego", holders: [seats that have them], players: [seats in hand]}
- ``lance_started`` {lance, players: [seats entitled to speak, from the mano]}
- ``lance_skipped`` {lance, reason: "nobody"} (nobody has pares)
- ``spoke`` {seat, lance, action, level, ordago}: ``action`` is the canonical text ("paso",
  "envido 4", "3 más", "quiero", "no quiero", "ordago"); ``level`` = stones each player in the
  lance has bet after it; ``ordago`` = an órdago is on the table
- ``left_lance`` {seat, lance}: he said no quiero and can no longer win or bet in this lance
- ``lance_closed`` {lance, outcome, players, winner, deposit}: ``outcome`` is ``en_paso``,
  ``refused`` (``winner`` won by refusal), ``equal`` (bets equal, waits for the end of the hand),
  ``ordago`` (settled at once), ``ordago_pending`` (last lance, waits), ``skipped``;
  ``winner`` is also set for en paso when a single player had pares/juego
- ``lance_won`` {lance, seat, outcome, worst?}: at the end of the hand, who won a lance en paso or
  with equal bets (``worst`` takes the deposit)

Stones (each moves stones; piles + deposits + plate stay equal to the stones handed out)
- ``deposited`` {seat, lance, count, deposit}: from his pile into the lance's deposit
- ``deposit_taken`` {seat, lance, count, why}: the whole deposit into his pile; ``why`` is
  ``returned`` (nobody accepted his bet), ``refused`` (he refused a raise), ``worst`` (worst
  hand with equal bets) or ``ordago``
- ``pile_taken`` {seat, frm, lance, count}: the worst hand of an órdago takes ``frm``'s pile
- ``to_plate`` {seat, count, lance, why}: onto the plate; ``why`` is ``refusal`` (the 1 stone of a
  bet nobody accepted), ``en_paso``, ``value`` (lance value after a refusal or equal bets) or
  ``abandoned`` (``seat`` null: a deposit whose players were all freed)
- ``ordago_settled`` {lance, worst, players}

>>> sorted(KINDS)[:3]
['dealt', 'declared', 'deposit_taken']
"""

KINDS = frozenset(
    {
        "juego_started", "hand_started", "dealt", "discarded", "showdown", "hand_over", "freed",
        "juego_lost", "player_out", "match_won", "declared", "lance_started", "lance_skipped",
        "spoke", "left_lance", "lance_closed", "lance_won", "deposited", "deposit_taken",
        "pile_taken", "to_plate", "ordago_settled",
    }
)  # fmt: skip
"""Every event kind above (tests check that transitions emit nothing else)."""
