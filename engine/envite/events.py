"""Every event the envite engine emits (rules/envite.md), for the bot to render.

Events are :class:`engine.core.Event` objects; ``data`` holds plain JSON values, cards as text.
All events are public (``to is None``) except ``dealt``. Seats are table seats; teams are 0/1
(team = seat % 2).

- ``dealer_drawn`` {draws: [[card of mandador 0, card of mandador 1], ...], mandadores: [a, b],
  dealer} -- E1: each mandador draws a card, the higher (rey high, 2 low) deals first; equal
  ranks draw again, so ``draws`` lists every attempt. Only at the start of the game, and only when
  the first dealer was drawn (not given).
- ``round_started`` {round, dealer, mano, vira, score: [a, b], chicos: [a, b],
  en_tumbo: [bool, bool], tumbo: bool} -- E2: a new deal. ``vira`` is public. ``tumbo`` is true
  when both teams are at 11 (they must play, E6).
- ``dealt`` {seat, cards: [...]} to={the seat's controller} -- E2: the three cards of one seat.
  For the mocho, ``seat`` is the mocho's seat and ``to`` its team's mandador.
- ``tumbo_decided`` {seat, team, play: bool} -- E6: the mandador of the team at 11 says
  ``tumbo`` (play) or ``no tumbo``.
- ``bet`` {seat, team, action: "envido"|"siete"|"nueve"|"chico fuera", step: 4|7|9|"chico fuera",
  for_seat} -- E5: a bet or raise; ``for_seat`` is the seat whose turn it was (the mocho when the
  mandador bets for it), ``seat`` who spoke.
- ``bet_accepted`` {seat, team, stake: 4|7|9|"chico fuera"} -- E5: quiero; betting is closed
  for the round.
- ``bet_refused`` {seat, team, paid, to_team} -- E5: no quiero; ``to_team`` scores ``paid``
  (followed by ``round_scored``).
- ``card_played`` {seat, card, trick: 1..3, by} -- E4: ``seat`` is the seat the card belonged
  to, ``by`` who played it (the mandador for the mocho). In modo renuncio an illegal play is not
  flagged here (nobody at a real table knows yet): the engine keeps it until someone calls it.
- ``trick_won`` {trick: 1..3, seat, team, card, tricks: [a, b], cards: [[seat, card], ...]} --
  E4: ``tricks`` = tricks won by each team so far this round; ``cards`` = the whole trick in
  the order played (``seat`` the seat each card belonged to, the mocho's included).
- ``renuncio_called`` {seat, team, offender: seat|null, valid: bool} -- E4 modo renuncio:
  ``seat`` (of ``team``) called renuncio after an opponent was seen not to follow suit (or not
  to trump an arrastre). ``valid``: an opponent really had played illegally (``offender``, the
  first one); else the call was false (``offender`` null) and the caller's team loses the round.
  The round ends either way; no card is revealed.
- ``round_scored`` {round, team, points, why, score: [a, b]} -- E5/E6: ``team`` scores
  ``points`` (already capped at 11); ``why`` is "tricks" (won the round), "no_quiero" (a bet
  refused), "no_tumbo" (the team at 11 declined to play), "tumbo" (the team at 11 played and
  lost: +3), "renuncio" (a true call: stake + 2), "false_renuncio" (the other team called it
  falsely: stake + 2). ``points`` may be 0 when the team was already capped. Not emitted when
  the round decides the chico (``chico_won`` instead).
- ``chico_won`` {team, chicos: [a, b], why: "tumbo"|"both_at_11"|"chico_fuera"|"renuncio"|
  "false_renuncio"} -- a round that decides the chico won by its tricks or by a renuncio call;
  E6: the scores go back to 0.
- ``game_won`` {team, chicos: [a, b]} -- E6: ``team`` reached the chicos option.

After a round ends the same ``apply`` call deals the next one: ``... round_scored,
round_started, dealt x players`` (unless the game is over).
"""

from __future__ import annotations

EVENT_KINDS: tuple[str, ...] = (
    "dealer_drawn",
    "round_started",
    "dealt",
    "tumbo_decided",
    "bet",
    "bet_accepted",
    "bet_refused",
    "card_played",
    "trick_won",
    "renuncio_called",
    "round_scored",
    "chico_won",
    "game_won",
)
"""Every event kind, in the order documented above."""
