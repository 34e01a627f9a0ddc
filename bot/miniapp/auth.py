"""Who is asking, and for which table: the ``startapp`` payload and Telegram's ``initData``.

The Mini App opens from the table message's URL button, the bot's Main Mini App link
``https://t.me/<bot>?startapp=<payload>``. Telegram does not tell the page from which chat it
was opened, so the payload names the table's chat, signed with a key derived from the bot
token: a payload made up (or copied from another group's link) names no table. Telegram allows
at most 512 characters of ``A-Za-z0-9_-`` there; ours are 32 to 40.

>>> p = sign_payload("123:abc", -1001234567890)
>>> read_payload("123:abc", p)
-1001234567890
>>> read_payload("123:other", p) is None, read_payload("123:abc", p[:-1] + "A") is None
(True, True)

``initData`` (``Telegram.WebApp.initData``, sent by the page with every request) is checked as
Telegram's Mini Apps reference says: the data-check-string is every field received but
``hash``, as ``key=value`` decoded from the raw query string, sorted by key and joined by line
feeds; its HMAC-SHA256 under the secret key ``HMAC-SHA256(key="WebAppData", bot_token)`` must
be ``hash`` (compared in constant time), and ``auth_date`` no older than the maximum age.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import struct
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote

__all__ = [
    "MAX_AGE",
    "PAYLOAD_CHARS",
    "InitData",
    "InitDataError",
    "check_init_data",
    "data_check_string",
    "read_payload",
    "sign_init_data",
    "sign_payload",
    "startapp_link",
]

MAX_AGE = 86_400.0
"""Seconds an ``initData`` is accepted after its ``auth_date`` (a page left open a day signs
in again by being opened again)."""
PAYLOAD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
"""What Telegram allows in a ``startapp`` parameter (at most 512 of them)."""
PAYLOAD_MAX = 512
_MAC_BYTES = 16
"""A payload's signature: 128 bits of HMAC-SHA256 (a forgery is a 2**-128 guess)."""
_VERSION = 1


def _payload_key(token: str) -> bytes:
    # Derived, not the token itself nor initData's key: a payload signature tells nothing of
    # either, and a leaked payload key would sign payloads only.
    return hmac.new(b"tapete-startapp-v1", token.encode(), hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def sign_payload(token: str, chat_id: int) -> str:
    """The ``startapp`` payload naming the table of ``chat_id`` (one table per chat)."""
    body = struct.pack(">Bq", _VERSION, chat_id)
    mac = hmac.new(_payload_key(token), body, hashlib.sha256).digest()[:_MAC_BYTES]
    return _b64(body + mac)


def read_payload(token: str, payload: str | None) -> int | None:
    """The chat a payload names, or ``None`` when it is not one the bot signed."""
    if not payload or len(payload) > PAYLOAD_MAX or not set(payload) <= PAYLOAD_CHARS:
        return None
    try:
        raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    except ValueError:
        return None
    body, mac = raw[:-_MAC_BYTES], raw[-_MAC_BYTES:]
    if len(body) != struct.calcsize(">Bq"):
        return None
    good = hmac.new(_payload_key(token), body, hashlib.sha256).digest()[:_MAC_BYTES]
    if not hmac.compare_digest(mac, good):
        return None
    version, chat_id = struct.unpack(">Bq", body)
    return int(chat_id) if version == _VERSION else None


def startapp_link(token: str, bot_username: str, chat_id: int) -> str:
    """The bot's Main Mini App link opening the table of ``chat_id``.

    >>> startapp_link("1:a", "TapeteBot", -5).startswith("https://t.me/TapeteBot?startapp=")
    True
    """
    return f"https://t.me/{bot_username}?startapp={sign_payload(token, chat_id)}"


class InitDataError(Exception):
    """``initData`` that does not prove who is asking (missing, forged, or too old)."""


@dataclass(frozen=True, slots=True)
class InitData:
    """What a checked ``initData`` says: the user, his language and the payload."""

    user_id: int
    first_name: str
    language_code: str
    auth_date: int
    start_param: str | None


def _secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def _pairs(raw: str) -> list[tuple[str, str]]:
    try:
        return parse_qsl(raw, keep_blank_values=True, strict_parsing=True, errors="strict")
    except (ValueError, UnicodeDecodeError) as exc:
        raise InitDataError("malformed") from exc


def data_check_string(pairs: list[tuple[str, str]]) -> str:
    """Every field but ``hash``, ``key=value``, sorted by key, one per line.

    >>> data_check_string([("b", "2"), ("hash", "x"), ("a", "1")])
    'a=1\\nb=2'
    """
    return "\n".join(f"{k}={v}" for k, v in sorted(pairs) if k != "hash")


def check_init_data(token: str, raw: str | None, now: float, max_age: float = MAX_AGE) -> InitData:
    """Check ``initData`` as Telegram passed it (the raw query string, never a re-encoded
    parse: its values are signed as they were sent); raises :class:`InitDataError`."""
    if not raw:
        raise InitDataError("missing")
    pairs = _pairs(raw)
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise InitDataError("malformed")  # a second copy of a field could hide the signed one
    fields = dict(pairs)
    sent = fields.get("hash", "")
    good = hmac.new(_secret_key(token), data_check_string(pairs).encode(), hashlib.sha256)
    if not hmac.compare_digest(sent.encode(), good.hexdigest().encode()):
        raise InitDataError("forged")
    try:
        auth_date = int(fields["auth_date"])
        user: Any = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError) as exc:
        raise InitDataError("malformed") from exc
    if not now - max_age <= auth_date <= now + 60:  # a minute of clock skew ahead
        raise InitDataError("expired")
    return InitData(
        user_id=user_id,
        first_name=str(user.get("first_name", "")),
        language_code=str(user.get("language_code", "")),
        auth_date=auth_date,
        start_param=fields.get("start_param"),
    )


def sign_init_data(token: str, fields: dict[str, str]) -> str:
    """``initData`` as Telegram would send it for ``fields`` (tests, local play): the fields
    URL-encoded in their order, then ``hash``.

    >>> raw = sign_init_data("1:a", {"auth_date": "100", "user": '{"id": 7}'})
    >>> check_init_data("1:a", raw, now=100).user_id
    7
    """
    pairs = list(fields.items())
    digest = hmac.new(_secret_key(token), data_check_string(pairs).encode(), hashlib.sha256)
    encoded = "&".join(f"{k}={quote(v, safe='')}" for k, v in pairs)
    return f"{encoded}&hash={digest.hexdigest()}"
