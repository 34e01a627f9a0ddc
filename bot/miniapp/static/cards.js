// The 40 cards of the Spanish deck, drawn here as SVG: oros, copas, espadas, bastos; 1-7,
// sota (10), caballo (11), rey (12). A card's code is its rank then its suit ("12o").
// Each picture is named for a screen reader by the caller (aria-label, as the chat writes it).
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const COLOURS = { o: "#d4a017", c: "#c0392b", e: "#2c6fb7", b: "#2e8b3e" };
  const FACE = { 10: "S", 11: "C", 12: "R" };
  // Where the pips of 1..7 sit on a 60 x 90 card.
  const PIPS = {
    1: [[30, 45]],
    2: [[30, 24], [30, 66]],
    3: [[30, 20], [30, 45], [30, 70]],
    4: [[18, 24], [42, 24], [18, 66], [42, 66]],
    5: [[18, 22], [42, 22], [30, 45], [18, 68], [42, 68]],
    6: [[18, 20], [42, 20], [18, 45], [42, 45], [18, 70], [42, 70]],
    7: [[18, 18], [42, 18], [30, 32], [18, 48], [42, 48], [18, 72], [42, 72]],
  };

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  // One suit sign centred at (x, y), about 2*r wide.
  function suit(g, s, x, y, r) {
    const c = COLOURS[s];
    if (s === "o") {
      el("circle", { cx: x, cy: y, r: r, fill: c, stroke: "#7a5a00", "stroke-width": 1 }, g);
      el("circle", { cx: x, cy: y, r: r * 0.45, fill: "none", stroke: "#7a5a00" }, g);
    } else if (s === "c") {
      const d = `M${x - r} ${y - r * 0.8} h${2 * r} q0 ${r} ${-r} ${r * 1.1} v${r * 0.5}` +
        ` h${r * 0.6} v${r * 0.3} h${-r * 1.2} v${-r * 0.3} h${r * 0.6} v${-r * 0.5}` +
        ` q${-r} ${-r * 0.1} ${-r} ${-r * 1.1}z`;
      el("path", { d: d, fill: c, stroke: "#5e1b13", "stroke-width": 1 }, g);
    } else if (s === "e") {
      el("path", {
        d: `M${x} ${y - r * 1.4} l${r * 0.25} ${r * 1.9} h${-r * 0.5}z`,
        fill: c, stroke: "#173a61", "stroke-width": 1,
      }, g);
      el("rect", { x: x - r * 0.7, y: y + r * 0.45, width: r * 1.4, height: r * 0.25, fill: "#173a61" }, g);
      el("rect", { x: x - r * 0.12, y: y + r * 0.7, width: r * 0.24, height: r * 0.6, fill: "#173a61" }, g);
    } else {
      el("path", {
        d: `M${x - r * 0.25} ${y + r * 1.3} l${-r * 0.1} ${-r * 2.2} q${r * 0.35} ${-r * 0.6}` +
          ` ${r * 0.7} 0 l${-r * 0.1} ${r * 2.2}z`,
        fill: c, stroke: "#17451f", "stroke-width": 1,
      }, g);
    }
  }

  // The card's picture, an <svg> with role="img" (its name is given by the caller).
  function card(code) {
    const rank = parseInt(code, 10);
    const s = code.slice(-1);
    const svg = el("svg", { viewBox: "0 0 60 90", role: "img", class: "card-face" });
    el("rect", { x: 1, y: 1, width: 58, height: 88, rx: 6, fill: "#fffdf6", stroke: "#555" }, svg);
    el("rect", { x: 4, y: 4, width: 52, height: 82, rx: 4, fill: "none", stroke: COLOURS[s], "stroke-width": 1.5 }, svg);
    const mark = el("text", { x: 7, y: 15, "font-size": 11, "font-weight": "bold", fill: COLOURS[s] }, svg);
    mark.textContent = String(rank);
    const g = el("g", {}, svg);
    if (PIPS[rank]) {
      const r = rank === 1 ? 13 : rank > 4 ? 6 : 7.5;
      for (const [x, y] of PIPS[rank]) suit(g, s, x, y, r);
    } else {
      // A figure: a robe in the suit's colour, a head, and the suit in hand.
      el("path", { d: "M18 80 L22 46 Q30 38 38 46 L42 80 Z", fill: COLOURS[s], opacity: 0.85 }, g);
      el("circle", { cx: 30, cy: 34, r: 8, fill: "#f1c9a5", stroke: "#6b4b2b" }, g);
      if (rank === 12) el("path", { d: "M22 27 l3 -8 l5 6 l5 -6 l3 8 z", fill: "#d4a017" }, g);
      if (rank === 11) el("path", { d: "M10 80 q5 -22 20 -18 q15 -4 20 18 z", fill: "#8b5a2b", opacity: 0.6 }, g);
      suit(g, s, 45, 56, 6);
      const letter = el("text", { x: 53, y: 86, "font-size": 10, "font-weight": "bold", "text-anchor": "end", fill: COLOURS[s] }, svg);
      letter.textContent = FACE[rank] || "";
    }
    return svg;
  }

  window.TapeteCards = { card: card };
})();
