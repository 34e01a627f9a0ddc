"""The cards (rules/envite.md E3, E4): which may be played, a card played and the trick it
completes, and the renuncio calls."""

from __future__ import annotations

from engine.cards import SUIT_NAMES, Card
from engine.core import Action, IllegalAction, RawEvent, transition
from engine.envite.ranking import TRUMP, Ranker, ranker, suit_of, trick_winner
from engine.envite.scoring import EnviteTransition, round_won
from engine.envite.state import EnviteState, copy_state, make_trick


def playable(state: EnviteState, seat: int) -> list[Card]:
    """The cards ``seat`` may lawfully play now (E4: follow suit, arrastre, top-card exemption).

    >>> from engine.envite.deal import new_game
    >>> s = new_game(players=4, dealer=3, hands=[["3b", "4o", "1c"], ["5e", "6e", "7e"],
    ...     ["10b", "11b", "12b"], ["1e", "2e", "3e"]], vira="7o")
    >>> [str(c) for c in playable(s, 0)]
    ['3b', '4o', '1c']
    """
    hand = state.hands[seat]
    if not state.trick:
        return list(hand)
    return follow(ranker(state.vira, state.players // 2), hand, state.trick[0])


def follow(r: Ranker, hand: tuple[Card, ...], led_card: Card) -> list[Card]:
    """The cards of ``hand`` that may answer a trick led with ``led_card`` (E4)."""
    # Plain loops: on the hottest path, and a comprehension is a call of its own in CPython 3.11.
    suits = r.suits
    led = suits[led_card._text]
    same = []
    for card in hand:
        if suits[card._text] == led:
            same.append(card)
    if not same:
        return list(hand)
    if led == TRUMP and len(same) == 1 and same[0]._text == r.top._text:
        return list(hand)  # only the top card: never forced out by an arrastre
    return same


def _play_refusal(state: EnviteState) -> IllegalAction:
    led = suit_of(state.trick[0], state.vira, state.k)
    if led == TRUMP:
        return IllegalAction("must_play_trump")
    return IllegalAction("must_follow_suit", suit=led, name=SUIT_NAMES[led])


def _seen_not_following(state: EnviteState, team: int) -> bool:
    """Whether a seat of ``team`` was seen not to follow this round (E4): public, whatever
    their hands were.

    A card not of the suit led (or not a trump at an arrastre) may be a renuncio or lawful (no
    card of that suit, the top card kept); the table only learns which when someone calls it.
    """
    suits = ranker(state.vira, state.players // 2).suits
    seen = [(state.leader, state.trick)] if state.trick else []
    for trick in state.tricks:
        seen.append((trick.leader, trick.cards))
    for leader, cards in seen:
        led = suits[cards[0]._text]
        # The cards after the lead played by ``team`` (seats alternate teams; players is even).
        for card in cards[1 if (leader + 1) % 2 == team else 2 :: 2]:
            if suits[card._text] != led:
                return True
    return False


def may_call_renuncio(state: EnviteState, seat: int) -> bool:
    """E4 modo renuncio: any player, in or out of turn, once an opponent was seen not to follow.

    Decided only from what the whole table saw, so the offer never tells whether a renuncio
    really happened.
    """
    return (
        state.options.renuncio
        and state.phase in ("play", "bet")
        and seat != state.ghost
        and _seen_not_following(state, 1 - seat % 2)
    )


def play_cards(state: EnviteState, seat: int, action: Action) -> EnviteTransition:
    """A ``tiro`` action: exactly one card."""
    if len(action.cards) != 1:
        raise IllegalAction("play_one_card", count=len(action.cards))
    return play_card(state, seat, action.cards[0])


def play_card(state: EnviteState, seat: int, card: Card) -> EnviteTransition:
    """E4: ``seat`` (the player, or the mandador for the mocho) plays ``card`` for
    ``state.turn``."""
    who = state.turn
    hand = state.hands[who]
    try:
        i = hand.index(card)
    except ValueError:
        raise IllegalAction("card_not_in_hand", card=str(card)) from None
    players = state.players
    trick = state.trick
    renuncios = state.renuncios
    if trick:
        r = ranker(state.vira, players // 2)
        suits = r.suits
        if suits[card._text] != suits[trick[0]._text] and card not in follow(r, hand, trick[0]):
            if not state.options.renuncio:
                raise _play_refusal(state)
            renuncios = (*renuncios, who)
    hands = list(state.hands)
    hands[who] = hand[:i] + hand[i + 1 :]
    trick = (*trick, card)
    number = len(state.tricks) + 1
    events: list[RawEvent] = [
        ("card_played", {"seat": who, "card": card._text, "trick": number, "by": seat}, None)
    ]
    new, attrs = copy_state(state)
    attrs["hands"] = tuple(hands)
    attrs["renuncios"] = renuncios
    if len(trick) < players:
        attrs["trick"] = trick
        attrs["turn"] = (who + 1) % players
        return transition(new, events)
    index = trick_winner(trick, state.vira, players // 2)
    leader = state.leader
    winner = (leader + index) % players
    tricks = (*state.tricks, make_trick(leader, trick, winner))
    attrs["trick"] = ()
    attrs["tricks"] = tricks
    attrs["leader"] = attrs["turn"] = winner
    won = [0, 0]
    for t in tricks:
        won[t.winner % 2] += 1
    data = {
        "trick": number,
        "seat": winner,
        "team": winner % 2,
        "card": trick[index]._text,
        "tricks": won,
        # The whole baza, so that its last card is shown with the others (it is never in a
        # view of the trick being played: the trick is over in the same step).
        "cards": [[(leader + i) % players, c._text] for i, c in enumerate(trick)],
    }
    events.append(("trick_won", data, None))
    if won[0] < 2 and won[1] < 2:
        return transition(new, events)
    return round_won(new, winner % 2, "tricks", events)


def call_renuncio(state: EnviteState, seat: int) -> EnviteTransition:
    """E4 modo renuncio: ``seat`` says an opponent broke follow-suit or arrastre this round.

    A true call wins the round for the caller's team (stake + 2). A false one (every suspected
    play was lawful) is the caller's foul: the accused team wins the round with stake + 2. The
    rules are silent on false calls; this keeps a call from being a free look at the hands.
    """
    if not state.options.renuncio:
        raise IllegalAction("renuncio_off")
    if not may_call_renuncio(state, seat):
        raise IllegalAction("no_renuncio")
    team = seat % 2
    offender = next((s for s in state.renuncios if s % 2 != team), None)
    data = {"seat": seat, "team": team, "offender": offender, "valid": offender is not None}
    events: list[RawEvent] = [("renuncio_called", data, None)]
    if offender is None:
        return round_won(state, 1 - team, "false_renuncio", events)
    return round_won(state, team, "renuncio", events)
