"""The Mini App's proofs: the signed ``startapp`` payload and Telegram's ``initData`` check.

The reference is Telegram's "Validating data received via the Mini App": the data-check-string
is every received field but ``hash`` as ``key=<value>``, sorted alphabetically and joined by
``\\n``; ``secret_key = HMAC_SHA256(<bot_token>, "WebAppData")`` (key "WebAppData"); the
``hash`` is the hex of ``HMAC_SHA256(data_check_string, secret_key)``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import quote, unquote

import pytest

from bot.miniapp.auth import (
    MAX_AGE,
    PAYLOAD_CHARS,
    InitDataError,
    check_init_data,
    read_payload,
    sign_init_data,
    sign_payload,
    startapp_link,
)

TOKEN = "123456:TEST-token_for-the-mini-app"
NOW = 1_800_000_000


def reference_hash(token: str, raw_pairs: list[tuple[str, str]]) -> str:
    """The reference's algorithm, written out apart from the code under test: pairs as they
    stand in the raw query string, values URL-decoded once."""
    fields = {k: unquote(v) for k, v in raw_pairs if k != "hash"}
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    secret = hmac.new(key=b"WebAppData", msg=token.encode(), digestmod=hashlib.sha256).digest()
    return hmac.new(key=secret, msg=check.encode(), digestmod=hashlib.sha256).hexdigest()


# A user as Telegram's clients write him: slashes escaped, a name outside ASCII as is.
USER = '{"id":279058397,"first_name":"Begoña","username":"bego","language_code":"es",' \
    '"photo_url":"https:\\/\\/t.me\\/i\\/userpic\\/320\\/x.svg"}'  # fmt: skip


def telegram_raw(token: str = TOKEN, *, auth_date: int = NOW, user: str = USER) -> str:
    pairs = [
        ("query_id", "AAHdF6IQAAAAAN0XohDhrOrc"),
        ("user", quote(user, safe="")),
        ("auth_date", str(auth_date)),
        ("start_param", sign_payload(token, -1001234567890)),
        ("signature", "6fbdaba8-Ed25519-signature_kept_as_is"),
    ]
    digest = reference_hash(token, pairs)
    return "&".join(f"{k}={v}" for k, v in pairs) + f"&hash={digest}"


def test_reference_algorithm_accepts_what_telegram_signs() -> None:
    data = check_init_data(TOKEN, telegram_raw(), now=NOW + 5)
    assert data.user_id == 279058397
    assert data.first_name == "Begoña"
    assert data.language_code == "es"
    assert read_payload(TOKEN, data.start_param) == -1001234567890


def test_our_signer_agrees_with_the_reference() -> None:
    raw = sign_init_data(TOKEN, {"user": USER, "auth_date": str(NOW), "query_id": "q"})
    pairs = [tuple(p.split("=", 1)) for p in raw.split("&")]
    sent = dict(pairs)["hash"]
    assert sent == reference_hash(TOKEN, [(k, v) for k, v in pairs])
    assert check_init_data(TOKEN, raw, now=NOW).user_id == 279058397


@pytest.mark.parametrize("age", [MAX_AGE + 1, 10 * MAX_AGE])
def test_expired(age: float) -> None:
    raw = telegram_raw(auth_date=NOW)
    with pytest.raises(InitDataError, match="expired"):
        check_init_data(TOKEN, raw, now=NOW + age)


def test_at_its_maximum_age_it_still_counts_and_a_date_far_ahead_does_not() -> None:
    assert check_init_data(TOKEN, telegram_raw(auth_date=NOW), now=NOW + MAX_AGE).user_id
    with pytest.raises(InitDataError, match="expired"):
        check_init_data(TOKEN, telegram_raw(auth_date=NOW + 3600), now=NOW)


def test_max_age_is_a_parameter() -> None:
    with pytest.raises(InitDataError, match="expired"):
        check_init_data(TOKEN, telegram_raw(auth_date=NOW), now=NOW + 61, max_age=60)


@pytest.mark.parametrize(
    "tamper",
    [
        lambda raw: raw.replace("279058397", "279058398"),  # another user
        lambda raw: raw.replace(f"auth_date={NOW}", f"auth_date={NOW + 1}"),  # a newer date
        lambda raw: raw.replace("query_id=", "query_iD="),  # a renamed field
        lambda raw: raw + "&chat_type=group",  # a field added
        lambda raw: raw.replace("&signature=6fbdaba8-Ed25519-signature_kept_as_is", ""),
        lambda raw: raw[:-1] + ("0" if raw[-1] != "0" else "1"),  # the hash itself
        lambda raw: raw.rpartition("&hash=")[0],  # no hash at all
        lambda raw: raw.rpartition("&hash=")[0] + "&hash=" + "0" * 64,
        lambda raw: raw.upper(),
    ],
)
def test_tampered(tamper: object) -> None:
    raw = tamper(telegram_raw())  # type: ignore[operator]
    with pytest.raises(InitDataError):
        check_init_data(TOKEN, raw, now=NOW)


def test_signed_with_another_bots_token() -> None:
    with pytest.raises(InitDataError, match="forged"):
        check_init_data(TOKEN, telegram_raw("654321:another-bot"), now=NOW)


def test_re_encoded_parse_is_refused_and_the_raw_string_counts() -> None:
    """A server that parses initData and writes it again (JSON re-serialised: spaces, "/"
    unescaped, ñ as \\u00f1) checks another string than the one Telegram signed."""
    raw = telegram_raw()
    user = json.loads(unquote(dict(p.split("=", 1) for p in raw.split("&"))["user"]))
    for again in (json.dumps(user), json.dumps(user, ensure_ascii=False)):
        re_encoded = raw.replace(quote(USER, safe=""), quote(again, safe=""))
        assert re_encoded != raw
        with pytest.raises(InitDataError, match="forged"):
            check_init_data(TOKEN, re_encoded, now=NOW)
    # Percent-encoding the same characters otherwise is the same value: still Telegram's.
    spelled = raw.replace("%7B", "%7b").replace("%22id%22", "%22%69d%22")
    assert spelled != raw
    assert check_init_data(TOKEN, spelled, now=NOW).user_id == 279058397


@pytest.mark.parametrize(
    "raw",
    [
        None,
        "",
        "hash=" + "0" * 64,
        "&&&",
        "user=%ZZ&hash=00",  # not URL-encoding
        "user=%FF&auth_date=1&hash=00",  # not UTF-8
    ],
)
def test_missing_or_malformed(raw: str | None) -> None:
    with pytest.raises(InitDataError):
        check_init_data(TOKEN, raw, now=NOW)


@pytest.mark.parametrize("drop", ["user", "auth_date"])
def test_a_signed_init_data_without_user_or_date_proves_nobody(drop: str) -> None:
    fields = {"user": USER, "auth_date": str(NOW), "query_id": "q"}
    del fields[drop]
    with pytest.raises(InitDataError, match="malformed"):
        check_init_data(TOKEN, sign_init_data(TOKEN, fields), now=NOW)


def test_a_field_twice_is_refused() -> None:
    """``user`` twice: a parser that kept the last copy would read a user nobody signed."""
    raw = telegram_raw()
    other = quote('{"id":1,"first_name":"X"}', safe="")
    with pytest.raises(InitDataError, match="malformed"):
        check_init_data(TOKEN, f"{raw}&user={other}", now=NOW)


@pytest.mark.parametrize("chat_id", [-1001234567890, -1, 1, 2**63 - 1, -(2**63)])
def test_payload_names_its_chat_within_telegrams_limits(chat_id: int) -> None:
    payload = sign_payload(TOKEN, chat_id)
    assert len(payload) <= 512 and set(payload) <= PAYLOAD_CHARS
    assert read_payload(TOKEN, payload) == chat_id
    assert startapp_link(TOKEN, "TapeteBot", chat_id) == (
        f"https://t.me/TapeteBot?startapp={payload}"
    )


def test_payload_of_another_bot_or_altered_names_no_table() -> None:
    payload = sign_payload(TOKEN, -100)
    assert read_payload("654321:another-bot", payload) is None
    for i in range(len(payload)):
        for c in "A_-":
            if payload[i] != c:
                altered = payload[:i] + c + payload[i + 1 :]
                assert read_payload(TOKEN, altered) != -100 or altered == payload
    assert read_payload(TOKEN, sign_payload(TOKEN, -101)) == -101
    # Nor made-up ones, too long ones, or ones with characters Telegram never sends.
    for bad in (None, "", "A", "x" * 513, payload + "=", payload + "!", payload[:-2]):
        assert read_payload(TOKEN, bad) is None


def test_payload_says_nothing_readable_of_the_token() -> None:
    payload = sign_payload(TOKEN, -100)
    assert "TEST" not in payload and "123456" not in payload


def test_doctests() -> None:
    import doctest

    import bot.miniapp.auth

    assert doctest.testmod(bot.miniapp.auth).failed == 0
