"""Mus and the discards (rules/mus.md M2): who asks for mus, the discards and the draw."""

from __future__ import annotations

from engine.cards import Card, shuffled
from engine.core import IllegalAction
from engine.mus.deal import dealt_events
from engine.mus.draft import NO_CARDS, ORDERS, PLAYERS, Events, draft, draft_said, update
from engine.mus.lances import next_lance
from engine.mus.state import Hand, MusState


def speak_mus(state: MusState, seat: int, kind: str, events: Events) -> MusState:
    """``seat`` says mus or corto (``kind``)."""
    new = draft_said(state, "mus", seat, kind, None, events)
    if kind == "corto":
        return next_lance(new, events)
    mano = state.mano
    fields = new.__dict__
    if (seat - mano) % PLAYERS == PLAYERS - 1:
        fields["phase"] = "discard"
        fields["to_act"] = ORDERS[mano]
        fields["discarding"] = NO_CARDS
    else:
        fields["to_act"] = ((seat + 1) % PLAYERS,)
    return new


def discard(state: MusState, seat: int, cards: tuple[Card, ...], events: Events) -> MusState:
    """``seat`` discards ``cards``; the last to discard has everybody served."""
    count = len(cards)
    # Cards compared by index (the same as by text, without Card.__eq__ and __hash__).
    out = {c.index for c in cards}
    if not 1 <= count <= 4 or len(out) != count:
        raise IllegalAction("bad_discard", count=count)
    held = [c.index for c in state.hands[seat]]
    for c in cards:
        if c.index not in held:
            raise IllegalAction("card_not_in_hand", card=str(c))
    if events is not None:
        events.append(("discarded", {"seat": seat, "count": count}, None))
    st = draft(state)
    st.__dict__["history"] = state.history + (("mus", seat, "descarto", count),)  # noqa: RUF005
    discarding = list(st.discarding)
    discarding[seat] = cards
    waiting = tuple(s for s in st.to_act if s != seat)
    if waiting:
        return update(st, to_act=waiting, discarding=tuple(discarding))
    return _draw(st, tuple(discarding), events)


def _draw(st: MusState, discarding: tuple[Hand | None, ...], events: Events) -> MusState:
    """Everybody has discarded: serve each player from the stock, starting with the mano."""
    order = ORDERS[st.mano]
    hands = list(st.hands)
    pile = list(st.pile)
    for s in order:
        out = discarding[s] or ()
        gone = {c.index for c in out}
        hands[s] = tuple([c for c in hands[s] if c.index not in gone])
        pile.extend(out)
    stock = list(reversed(st.stock))  # pop() serves the stock's first card
    reshuffles = st.reshuffles
    for i, s in enumerate(order):
        need = len(discarding[s] or ())
        got: list[Card] = []
        while len(got) < need:
            if not stock:
                # M2: nobody still to be served may get back what he just discarded.
                waiting = {c for w in order[i:] for c in discarding[w] or ()}
                others = [c for c in pile if c not in waiting] or pile
                reshuffles += 1
                others = shuffled(f"{st.seed}/{st.hand_number}/r{reshuffles}", others)
                taken = set(others)
                pile = [c for c in pile if c not in taken]
                stock = others
                if events is not None:
                    events.append(("stock_reshuffled", {}, None))
            got.append(stock.pop())
        hands[s] = hands[s] + tuple(got)
    update(
        st,
        phase="mus",
        to_act=(st.mano,),
        hands=tuple(hands),
        stock=tuple(reversed(stock)),
        pile=tuple(pile),
        reshuffles=reshuffles,
        mus_round=st.mus_round + 1,
        discarding=NO_CARDS,
    )
    if events is not None:
        dealt_events(st, events)
    return st
