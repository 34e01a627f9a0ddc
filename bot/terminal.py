"""A Mus game in the terminal: you are seat 0, three computer players take random legal actions.

Run ``tapete-terminal`` (or ``python -m bot.terminal``). Type actions as in rules/mus.md M6
(``mus``, ``corto``, ``descarto 12o 3c``, ``paso``, ``envido 5``, ``quiero``, ``no quiero``,
``órdago``, or the English aliases); an empty line plays the default action, ``?`` lists what you
may do, ``salir``/``quit`` (or end of input) stops. Only your own cards are shown until the
cards are shown on the table.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine import mus
from engine.core import Action, Event, IllegalAction

ME = 0
NAMES = ("Tú", "Oeste", "Compañero", "Este")
PAIRS = ("nosotros", "ellos")
QUIT_WORDS = frozenset({"salir", "quit", "exit", "q"})
HELP_WORDS = frozenset({"?", "ayuda", "help"})


def _pair(pair: int | None) -> str:
    return "-" if pair is None else PAIRS[pair]


def _amarracos(points: int) -> str:
    """M1: 5 points are one amarraco."""
    a, p = divmod(points, 5)
    return f"{points} ({a} amarracos y {p})" if a else str(points)


def render(event: Event, me: int = ME) -> str | None:
    """One line for an event ``me`` may see (``None`` if there is nothing to say)."""
    if not event.visible_to(me):
        return None
    d: dict[str, Any] = dict(event.data)
    kind = event.kind
    if kind == "hand_started":
        return (
            f"\n=== Mano {d['hand']}: es mano {NAMES[d['mano']]}, postre {NAMES[d['postre']]}"
            f" · tanteo {d['score'][0]}-{d['score'][1]} · juegos {d['juegos'][0]}-{d['juegos'][1]}"
        )
    if kind == "dealt":
        return f"Tus cartas: {' '.join(d['cards'])}"
    if kind == "spoke":
        bet = f" (en juego: {d['bet']})" if d["bet"] is not None else ""
        return f"{NAMES[d['seat']]}: {d['action']}{bet}"
    if kind == "discarded":
        return f"{NAMES[d['seat']]} se descarta de {d['count']}"
    if kind == "stock_reshuffled":
        return "Se acabó el mazo: se barajan los descartes."
    if kind == "declared":
        has = ", ".join(f"{NAMES[s]} {'sí' if h else 'no'}" for s, h in enumerate(d["has"]))
        return f"{d['lance'].capitalize()}: {has}"
    if kind == "lance_started":
        players = ", ".join(NAMES[s] for s in d["players"])
        return f"-- {d['lance'].upper()} (hablan: {players})"
    if kind == "lance_skipped":
        if d["reason"] == "nobody":
            return f"-- {d['lance'].upper()}: nadie tiene"
        return f"-- {d['lance'].upper()}: solo tienen {_pair(d['pair'])}, se cobra al final"
    if kind == "lance_closed":
        outcome = {
            "en_paso": "en paso",
            "querido": f"querido por {d['bet']}",
            "no_querido": f"no querido: {_pair(d['pair'])} cobran {d['bet']}",
            "ordago": f"órdago: lo ganan {_pair(d['pair'])}",
        }.get(d["outcome"], d["outcome"])
        return f"   {d['lance']}: {outcome}"
    if kind == "showdown":
        lines = ["Se enseñan las cartas:"]
        lines += [f"   {NAMES[s]:<10} {' '.join(h)}" for s, h in enumerate(d["hands"])]
        return "\n".join(lines)
    if kind == "scored":
        return f"   +{d['points']} {_pair(d['pair'])} ({d['lance']}, {d['why'].replace('_', ' ')})"
    if kind == "hand_over":
        s = d["score"]
        return f"Fin de la mano {d['hand']}: {_amarracos(s[0])} - {_amarracos(s[1])}"
    if kind == "juego_won":
        return f"*** Juego para {_pair(d['pair'])} (juegos {d['juegos'][0]}-{d['juegos'][1]})"
    if kind == "vaca_won":
        return f"*** ¡La vaca es para {_pair(d['pair'])}!"
    return f"{kind}: {d}"


def _prompt(state: mus.MusState) -> str:
    actions = mus.legal_actions(state, ME)
    if state.phase == "discard":
        hint = "descarto <cartas> (1 a 4)"
    else:
        hint = " | ".join(str(a) for a in actions)
    where = state.lance or state.phase
    bet = ""
    if state.phase == "lance" and state.bet_pair is not None:
        bet = " · órdago sobre la mesa" if state.ordago else f" · envite de {state.bet}"
    cards = " ".join(str(c) for c in state.hands[ME])
    return f"[{where}{bet}] tus cartas {cards} · {hint}\n> "


def play(
    stdin: TextIO,
    stdout: TextIO,
    seed: int = 0,
    options: mus.Options | None = None,
) -> int:
    """Play one vaca reading your actions from ``stdin``; returns the exit status."""
    rng = random.Random(f"terminal/{seed}")
    state = mus.new_game(options=options or mus.Options(), seed=seed)

    def say(text: str) -> None:
        stdout.write(text + "\n")

    say(f"Tapete · Mus. Eres {NAMES[ME]} (asiento {ME}), tu compañero enfrente (asiento 2).")
    say("Escribe ? para ver tus jugadas; una línea vacía juega la jugada por defecto.")
    say(f"\n=== Mano 1: es mano {NAMES[state.mano]}")
    say(f"Tus cartas: {' '.join(str(c) for c in state.hands[ME])}")
    while not state.is_over:
        if ME in state.to_act:
            stdout.write(_prompt(state))
            stdout.flush()
            line = stdin.readline()
            if not line:
                say("\n(fin de la entrada) Hasta luego.")
                return 0
            text = line.strip()
            if text.lower() in QUIT_WORDS:
                say("Hasta luego.")
                return 0
            if text in HELP_WORDS:
                actions = mus.legal_actions(state, ME)
                say("Puedes: " + ", ".join(str(a) for a in actions[:15]))
                continue
            action: Action | str = text or mus.default_action(state, ME)
            seat = ME
        else:
            seat = rng.choice(state.to_act)
            action = rng.choice(mus.legal_actions(state, seat))
        try:
            transition = mus.apply(state, seat, action)
        except IllegalAction as refusal:
            params = ", ".join(f"{k}={v}" for k, v in refusal.params.items())
            say(f"No vale: {refusal.reason}" + (f" ({params})" if params else ""))
            continue
        state = transition.state
        for event in transition.events:
            line_out = render(event)
            if line_out is not None:
                say(line_out)
    winner = state.winner
    say(f"Fin de la vaca: ganan {_pair(winner)}.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``tapete-terminal``."""
    parser = argparse.ArgumentParser(description="Mus en la terminal: tú y tres jugadores.")
    parser.add_argument("--seed", type=int, default=None, help="semilla (partida repetible)")
    parser.add_argument("--puntos", type=int, choices=(30, 40), default=40)
    parser.add_argument("--reyes", type=int, choices=(4, 8), default=8)
    parser.add_argument("--juegos", type=int, default=2)
    parser.add_argument("--real", action="store_true", help="la real (31 de 7-7-7-figura)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    options = mus.Options(
        target=args.puntos, reyes=args.reyes, juegos=max(1, args.juegos), real=args.real
    )
    try:
        return play(sys.stdin, sys.stdout, seed=seed, options=options)
    except KeyboardInterrupt:
        sys.stdout.write("\nHasta luego.\n")
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
