"""What the chat is shown of a table: a record of its own beside the game session.

The ids of the messages the bot keeps editing, the final texts of earlier table messages still to
be shown, the notices still to post (the outbox) and the players the group was told cannot be
written to. The publisher (:mod:`bot.publisher`, :mod:`bot.sending`) reads and writes it; the
table flow (:mod:`bot.flow`) never does (a contract in ``pyproject.toml``), it only asks the
document (:class:`bot.table.Table`) to queue a notice or to close a finished hand's message.

It is stored inside the table document, under ``"shown"``: one value, so every write of both is
still one compare-and-set. A document stored before this record kept its fields at the top level;
:class:`~bot.table.Table` reads those too (its ``old_*`` fields).

>>> shown = Shown(table_msg=7)
>>> shown.notify("hola"); shown.notify("secreto", to=-2); [n.text for n in shown.outbox]
['hola']
>>> shown.hand_closed("fin"); shown.closing, shown.table_msg
({'7': 'fin'}, None)
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from bot.games.render import with_result


class Notice(BaseModel):
    """A new message to post (a hand's result, a notice): the outbox of the table document.

    Written in the same compare-and-set as the move that caused it, and posted by whichever
    process publishes the table next (:mod:`bot.publisher`), in ``seq`` order.
    """

    model_config = ConfigDict(extra="ignore")

    seq: int
    text: str
    to: int | None = None
    """A user's private chat, or ``None`` for the group."""
    claim: str | None = None
    """Set, in the store, by the publication about to post it, before the call (a fence: a
    publication that finds another's claim does not post it; see :mod:`bot.publisher`)."""


NO_MESSAGE = 0
"""The private hand "message" of a player who never opened the private chat: recorded, so it is
not tried again at this table (he sees his hand in the group), and never edited; ``/cartas``
tries again."""

MAX_OUTBOX = 20
"""Notices kept waiting at most (Telegram refusing for a long time drops the oldest)."""

MAX_UNPOSTED = 12
"""Ended hands kept waiting for a holder at most (see :attr:`Shown.unposted`): a burst of hands
ending while nobody can publish (a killed lock holder's lease, 10 s: a refused envite bet ends a
round in two moves) stays within it; only while nothing is published for long do older ones go
out as claimed notices (a document of that table grows meanwhile, a few KB)."""


class Shown(BaseModel):
    """What is shown of one table: message ids, closing texts, the outbox, who is unreachable."""

    model_config = ConfigDict(extra="ignore")

    lobby_msg: int | None = None
    table_msg: int | None = None
    hand_msgs: dict[str, int] = Field(default_factory=dict)
    """Seat (as text) to the message id of that player's private hand message."""
    closing: dict[str, str] = Field(default_factory=dict)
    """Message id (as text) of an earlier table message → its final text, still to be shown
    (a finished hand's table message, or the copy replaced by ``/mesa``: without buttons)."""
    outbox: list[Notice] = Field(default_factory=list)
    """New messages still to post, oldest first (see :class:`Notice`)."""
    notice_seq: int = 0
    unposted: dict[str, tuple[str, str]] = Field(default_factory=dict)
    """Hand (as text) → (final text, result) of the hands that ended before their table
    message was recorded: that message shows them if its post comes back (an edit); else the
    publisher posts a holder (the final text alone: a new message tried again shows no result
    twice) and, once it is recorded, shows the result in it by an edit (:meth:`holder_posted`)."""
    final: str | None = None
    """The game's result, shown at the foot of the finished game's table message."""
    ephemeral: list[int] = Field(default_factory=list)
    """Players shown their hand in the group as an ephemeral message at this table (where it
    is, what it shows: :mod:`bot.handlers.mine`): only theirs are looked up after a move."""
    unreachable: list[int] = Field(default_factory=list)
    """Players the group was told cannot get private messages (they blocked the bot): said
    once per table; the turn timer plays for them."""

    def notify(self, text: str, to: int | None = None) -> None:
        """Queue a new message for the group (or a user's private chat); a computer seat (a
        non-positive id) has no chat, so nothing is queued for it."""
        if to is not None and to <= 0:
            return
        self.notice_seq += 1
        self.outbox = [*self.outbox, Notice(seq=self.notice_seq, text=text, to=to)][-MAX_OUTBOX:]

    def close(self, text: str) -> None:
        """The table message loses its buttons (shows ``text``); the next one is posted anew."""
        if self.table_msg is not None:
            self.closing[str(self.table_msg)] = text
        self.table_msg = None

    def hand_closed(self, text: str | None) -> None:
        """A hand ended: its table message shows ``text`` (``None``: it was not posted; its
        result then goes out as a notice), and the next hand gets a new table message and new
        private hands."""
        if text is not None:
            self.close(text)
        self.table_msg = None
        self.hand_msgs = {seat: m for seat, m in self.hand_msgs.items() if m == NO_MESSAGE}

    def table_msg_posted(self, hand: int, msg: int) -> None:
        """The table message of ``hand`` was posted as ``msg``: it is the table message if that
        hand is still played, else (the hand ended meanwhile) it is to show that hand's end."""
        if self.table_msg is None and str(hand) not in self.unposted:
            self.table_msg = msg
        elif str(hand) in self.unposted:
            rest = dict(self.unposted)
            self.closing = {**self.closing, str(msg): with_result(*rest.pop(str(hand)))}
            self.unposted = rest

    def holder_posted(self, hand: int, msg: int) -> None:
        """The message ``msg`` was posted to show the end of ``hand``, an ended hand whose table
        message was never recorded (a holder: its final text, no result; see
        :attr:`unposted`): that message is to show the hand's end and result, by an edit. A
        holder of a hand already shown elsewhere changes nothing (it came second)."""
        if str(hand) not in self.unposted:
            return
        rest = dict(self.unposted)
        self.closing = {**self.closing, str(msg): with_result(*rest.pop(str(hand)))}
        self.unposted = rest

    def drop_unposted(self, hand: int) -> None:
        """The end of ``hand`` cannot be shown (the chat cannot be written, or it has no
        result to show): forgotten."""
        self.unposted = {h: u for h, u in self.unposted.items() if h != str(hand)}

    def hand_unposted(self, hand: int, text: str, result: str) -> None:
        """The hand ``hand`` ended before its table message was recorded (see :attr:`unposted`;
        earlier ones still waiting stay, up to :data:`MAX_UNPOSTED`: older ones, only while
        nothing is published for long, go out as notices, keeping the document small)."""
        kept = sorted({**self.unposted, str(hand): (text, result)}.items(), key=lambda u: int(u[0]))
        for _hand, (old_text, old_result) in kept[:-MAX_UNPOSTED]:
            if old_result:
                self.notify(with_result(old_text, old_result))
        self.unposted = dict(kept[-MAX_UNPOSTED:])

    def forget_chat(self) -> None:
        """The group's messages can no longer be reached (a new chat id): post them anew."""
        self.lobby_msg = self.table_msg = None
        self.closing = {}


FIELDS = frozenset(Shown.model_fields) - {"final", "ephemeral", "unposted"}
"""The record's fields that documents stored before it kept at the top level (those added since,
``final``, ``ephemeral`` and ``unposted``, were only ever stored in the record)."""
