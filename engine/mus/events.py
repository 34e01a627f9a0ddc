"""The events a Mus transition emits, for the bot to render (one locale string per ``kind``).

Every event is public (``to`` is ``None``) unless noted; ``data`` holds plain JSON values and
cards as text. The only public event that carries cards is ``showdown``.

- ``hand_started`` {hand, mano, postre, score: [a, b], juegos: [a, b]}: a new hand was dealt.
- ``dealt`` {seat, cards: [...]}, to={seat}: the seat's whole current hand (after the deal and
  after every draw).
- ``spoke`` {seat, action, bet}: ``action`` is the canonical text ("mus", "corto", "paso",
  "envido", "envido 5", "quiero", "no quiero", "ordago"); ``bet`` is the total at stake after
  a bet or a quiero, else null (null for an órdago too). A "paso" facing a bet is a refusal and
  is reported as "no quiero".
- ``discarded`` {seat, count}: a seat discarded ``count`` cards (which ones stays private).
- ``stock_reshuffled`` {}: the stock ran out and the discards became the new stock.
- ``declared`` {lance: "pares" | "juego", has: [bool x 4]}: the automatic, truthful declarations.
- ``lance_started`` {lance, players: [seats entitled to speak, in speaking order]}.
- ``lance_skipped`` {lance, reason: "nobody" | "one_pair", pair: int | null}: pares/juego not
  played (only ``pair`` holds them, or nobody; nobody with juego means punto is played).
- ``lance_closed`` {lance, outcome: "en_paso" | "querido" | "no_querido" | "ordago",
  bet: int | null, pair: int | null}: ``bet`` is the accepted amount (querido) or what the
  refusal pays (no_querido); ``pair`` collected the refusal or won the órdago.
- ``showdown`` {hands: [[...] x 4], pares: [null | "par" | "medias" | "duples" x 4],
  points: [int x 4]}: every hand shown (end of the hand, or an órdago accepted), with what
  each is worth: its pares kind and its juego/punto total (M3).
- ``scored`` {pair, points, lance, why[, parts]}: ``why`` is "no_querido", "en_paso", "envite",
  "pares", "juego", "punto" or "ordago" (an accepted órdago: ``points`` brings the pair to the
  target). After an órdago and at the end of a hand ``parts`` says whose hands make the
  points: ``[[seat, points], ...]``, each holder of pares or juego of the pair with what he
  brings (M5), else the seat whose hand won the lance.
- ``not_counted`` {pair, items: [{pair, points, lance, why} ...]}: ``pair`` reached the target
  at the end of the hand before these were collected, so they are not counted (M5), in the
  order they would have been.
- ``hand_over`` {hand, score: [a, b], juegos: [a, b]}: the hand is scored (score as reached).
- ``juego_won`` {pair, juegos: [a, b]} and ``vaca_won`` {pair}.

After ``hand_over`` (and ``juego_won``) the same transition deals the next hand unless the vaca
is over: ``... hand_over, [juego_won,] hand_started, dealt x 4``.

>>> EVENT_KINDS[0], len(EVENT_KINDS)
('hand_started', 15)
"""

from __future__ import annotations

EVENT_KINDS: tuple[str, ...] = (
    "hand_started", "dealt", "spoke", "discarded", "stock_reshuffled", "declared",
    "lance_started", "lance_skipped", "lance_closed", "showdown", "scored", "not_counted",
    "hand_over", "juego_won", "vaca_won",
)  # fmt: skip
