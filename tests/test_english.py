"""The English catalogs speak English (issue 10, item 7 audit): a word of an English text that is
also a word of the Spanish catalog must be a game term kept on purpose, an option or command
word the player types, or a word both languages share."""

from __future__ import annotations

import re

from locales import catalog, tn


def texts(lang: str) -> dict[str, str]:
    """Every entry of a language, the forms of a plural one together."""
    return {k: v if isinstance(v, str) else "\n".join(v) for k, v in catalog(lang).items()}


MUS_TERMS = {
    "mano", "lance", "lances", "grande", "chica", "pares", "juego", "juegos", "punto", "órdago",
    "órdagos", "vaca", "vacas", "amarraco", "amarracos", "envido", "duples", "medias", "mus",
}  # fmt: skip
"""Mus words English players use as they are (issue 10's list, with plurals and pares kinds)."""
ENVITE_PIEDRAS_TERMS = {
    "envite", "canario", "piedras", "mandador", "malilla", "vira", "tumbo", "tumbos", "chico",
    "chicos", "fuera", "renuncio", "mocho", "siete", "nueve",
}  # fmt: skip
"""Envite canario and mus a piedras words kept on purpose: the game names, the mandador
(captain), the vira and malilla (trump card and its 2), tumbo, chico (and "chico fuera", with
the raises "siete" and "nueve", which are also command names), renuncio (renege) and the mocho
(the invisible hand)."""
OPTION_WORDS = {"real", "ampliado", "sinsenas", "senasvistas", "la"}
"""Words typed after /new (explained in the English help); "la real" is the option's name."""
SHARED = {
    "a", "as", "bot", "chat", "d", "h", "id", "min", "n", "s", "no", "normal", "has", "ranking",
    "openskill", "plackett", "luce", "en", "es", "tapete", "telegram",
}  # fmt: skip
"""Words that are English too, units, language codes and names."""
ALLOWED = MUS_TERMS | ENVITE_PIEDRAS_TERMS | OPTION_WORDS | SHARED


def words(text: str) -> set[str]:
    """The words of a text, without tags, placeholders, commands, ``word=value`` options, cards
    and numbers."""
    text = re.sub(r"<[^>]+>|\{[^}]*\}|/\w+|\b\w+=\S*|\b\d+\w*\b", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-zÁÉÍÓÚÑÜáéíóúñü]+", text)}


def test_english_texts_have_no_spanish_word_outside_the_kept_terms() -> None:
    spanish: set[str] = set()
    for text in texts("es").values():
        spanish |= words(text)
    found = {
        (key, word)
        for key, text in texts("en").items()
        for word in words(text)
        if word in spanish and word not in ALLOWED
    }
    assert not found, sorted(found)


def test_known_half_translations_are_gone() -> None:
    from bot.games.mus import worth
    from bot.games.render import worth_line

    english = "\n".join(texts("en").values())
    for bad in (", no juego", "la real on", "(refused)"):
        assert bad not in english, bad  # a refused bet is "folded" everywhere
    assert tn("en", "mus.opt.juegos", 1) == "1 juego per vaca"  # not "1 juegos"
    no_pares = worth_line("en", worth.hand_worth(["12o", "7c", "6e", "4b"], {}))
    assert no_pares == "You hold: no pair · punto 27", no_pares
    juego = worth_line("en", worth.hand_worth(["12o", "11c", "10e", "1b"], {}))
    assert juego == "You hold: no pair · juego 31", juego


def test_english_names_a_juego_juego_and_the_whole_match_game() -> None:
    """One vocabulary, as the README and docs/ write it: a Mus (or piedras) juego is "juego",
    the vaca "vaca", and "game" is only the whole game a table plays ("Game over.")."""
    english = texts("en")
    for key, text in english.items():
        if "juego" in key or "{juegos}" in text:
            assert not re.search(r"\bgames?\b", text, re.I), (key, text)
    assert "Juego to" in english["event.juego_won"] and "juegos" in english["table.score"]
    assert english["senas.mus.juego"] == "juego (not 31)"
    assert "number of juegos" in english["rules.mus"]


def test_the_check_finds_a_spanish_word() -> None:
    spanish = set().union(*(words(x) for x in texts("es").values()))
    assert {"sin", "querido"} <= spanish and "sin" not in ALLOWED
