// Tapete's table in a Telegram Mini App: the view the bot sends for this player (his seat's, or
// the public one), his legal moves as big buttons, and every change pushed as it happens.
// Every request carries Telegram's initData; the bot checks it and finds the table in it.
"use strict";
(function () {
  const tg = window.Telegram && window.Telegram.WebApp;
  const init = (tg && tg.initData) || "";
  const base = location.pathname.endsWith("/") ? location.pathname : location.pathname + "/";
  const root = document.getElementById("app");
  let view = null;
  let chosen = new Set();
  let chosenFor = "";
  let note = "";
  let busy = false;
  let myTurn = false;
  let offline = false;

  function make(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v === null || v === undefined) continue;
      node.setAttribute(k, v === true ? "" : String(v));
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function headers(extra) {
    return Object.assign({ "X-Telegram-Init-Data": init }, extra || {});
  }

  function fail(text) {
    root.replaceChildren(make("p", { class: "fatal", role: "alert" }, text));
  }

  async function load() {
    const r = await fetch(base + "api/view", { headers: headers() });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) {
      fail(body.error || String(r.status));
      return false;
    }
    show(body);
    return true;
  }

  // The pushes: Server-Sent Events read from a streamed fetch (an EventSource cannot send the
  // initData header). On a lost connection the page reconnects and gets the stored table first.
  async function listen() {
    let wait = 500;
    for (;;) {
      try {
        const r = await fetch(base + "api/events", { headers: headers() });
        if (r.status === 401 || r.status === 403) {
          const body = await r.json().catch(() => ({}));
          fail(body.error || String(r.status));
          return;
        }
        const reader = r.body.getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        setOffline(false);
        wait = 500;
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split("\n").filter((l) => l.startsWith("data: "));
            if (data.length) show(JSON.parse(data.map((l) => l.slice(6)).join("\n")));
          }
        }
      } catch (e) {
        /* a lost connection: try again below */
      }
      setOffline(true);
      await new Promise((done) => setTimeout(done, wait));
      wait = Math.min(wait * 2, 8000);
    }
  }

  function setOffline(value) {
    if (offline !== value) {
      offline = value;
      render();
    }
  }

  function show(next) {
    if (view && next.version < view.version) return; // an older copy arrived late
    const key = `${next.tid}:${next.hand}:${next.discard ? "d" : ""}`;
    if (key !== chosenFor) {
      chosen = new Set((next.discard && next.discard.chosen) || []);
      chosenFor = key;
    }
    // A refusal or a seña's confirmation stays until the next move (not the next write).
    if (view && (next.turn !== view.turn || next.hand !== view.hand)) note = "";
    view = next;
    const turn = isMyTurn();
    if (turn && !myTurn && tg && tg.HapticFeedback) tg.HapticFeedback.notificationOccurred("success");
    myTurn = turn;
    render();
  }

  function isMyTurn() {
    return !!(view && view.seat !== null && view.players && view.players[view.seat] &&
      view.players[view.seat].to_act);
  }

  async function act(body) {
    if (busy || !view) return;
    busy = true;
    render();
    try {
      const r = await fetch(base + "api/action", {
        method: "POST",
        headers: headers({ "Content-Type": "application/json" }),
        body: JSON.stringify(Object.assign({ tid: view.tid, turn: view.turn, hand: view.hand }, body)),
      });
      const answer = await r.json().catch(() => ({}));
      if (r.ok) {
        show(answer);
        if (answer.said) note = answer.said;
        if (tg && tg.HapticFeedback) tg.HapticFeedback.impactOccurred("light");
      } else {
        note = answer.error || String(r.status);
        if (tg && tg.HapticFeedback) tg.HapticFeedback.notificationOccurred("error");
      }
    } catch (e) {
      note = view.texts.offline;
    } finally {
      busy = false;
      render();
    }
  }

  function cardButton(c) {
    const discarding = !!view.discard;
    const pressable = discarding || !!c.action;
    const b = make("button", {
      class: "card" + (chosen.has(c.card) ? " chosen" : "") + (c.action ? " playable" : ""),
      "aria-label": c.label,
      "aria-pressed": discarding ? String(chosen.has(c.card)) : null,
      "data-card": c.card,
      disabled: !pressable || busy,
    });
    b.appendChild(window.TapeteCards.card(c.card));
    b.addEventListener("click", () => {
      if (discarding) {
        if (chosen.has(c.card)) chosen.delete(c.card);
        else chosen.add(c.card);
        render();
      } else if (c.action) {
        act({ action: c.action });
      }
    });
    return b;
  }

  function render() {
    if (!view) return;
    const T = view.texts;
    document.documentElement.lang = view.lang;
    const out = [];
    out.push(make("h1", {}, view.title || T.title));
    if (offline) out.push(make("p", { class: "offline", role: "status" }, T.offline));
    if (view.status === "none") {
      out.push(make("p", { class: "info" }, T.no_table || ""));
      root.replaceChildren(...out);
      return;
    }
    const seats = make("ul", { class: "players" });
    view.players.forEach((p, i) => {
      const li = make("li", { class: (p.to_act ? "to-act" : "") + (i === view.seat ? " me" : "") },
        (p.to_act ? "▶ " : "") + p.name);
      seats.appendChild(li);
    });
    out.push(seats);
    if (view.text) out.push(make("pre", { class: "table-text" }, view.text));
    if (view.table_cards && view.table_cards.length) {
      const played = make("section", { class: "table-cards", "aria-label": T.trick });
      for (const c of view.table_cards) {
        const fig = make("figure", { class: "played" });
        const pic = window.TapeteCards.card(c.card);
        pic.setAttribute("aria-label", c.label);
        fig.appendChild(pic);
        fig.appendChild(make("figcaption", {}, c.by));
        played.appendChild(fig);
      }
      out.push(played);
    }
    if (view.status === "lobby") out.push(make("p", { class: "info" }, T.lobby));
    if (view.status === "over") out.push(make("p", { class: "info" }, T.over));
    if (view.seat === null) {
      out.push(make("p", { class: "info" }, T.public));
    } else if (view.status === "playing") {
      out.push(make("p", { class: "turn" + (myTurn ? " mine" : ""), role: "status" },
        myTurn ? T.your_turn : T.waiting));
    }
    if (view.cards.length) {
      const hand = make("section", { class: "hand", "aria-label": T.seat });
      view.cards.forEach((c) => hand.appendChild(cardButton(c)));
      out.push(hand);
    }
    if (note) out.push(make("p", { class: "note", role: "alert" }, note));
    const moves = make("section", { class: "actions" });
    if (view.discard) {
      moves.appendChild(make("p", { class: "hint" }, T.discard_hint));
      const b = make("button", { class: "move", disabled: busy || chosen.size === 0 },
        `${view.discard.label} (${chosen.size})`);
      b.addEventListener("click", () => act({ discard: Array.from(chosen) }));
      moves.appendChild(b);
    }
    for (const row of view.actions) {
      const keypad = row.every((b) => b.amount) && row.length > 1;
      const div = make("div", { class: keypad ? "row keypad" : "row", role: keypad ? "group" : null,
        "aria-label": keypad ? T.bets : null });
      for (const a of row) {
        const b = make("button", { class: "move", disabled: busy, "data-action": a.action }, a.label);
        b.addEventListener("click", () => act({ action: a.action }));
        div.appendChild(b);
      }
      moves.appendChild(div);
    }
    out.push(moves);
    if (view.senas.length) {
      const senas = make("section", { class: "senas", "aria-label": T.senas });
      senas.appendChild(make("h2", {}, T.senas));
      for (const s of view.senas) {
        const b = make("button", { class: "sena", disabled: busy }, s.label);
        b.addEventListener("click", () => act({ sena: s.name }));
        senas.appendChild(b);
      }
      out.push(senas);
    }
    root.replaceChildren(...out);
    // What the page shows now, for the browser tests and for a look in the inspector.
    root.dataset.version = String(view.version);
    root.dataset.turn = String(view.turn);
    root.dataset.hand = String(view.hand);
  }

  if (tg) {
    tg.ready();
    if (tg.expand) tg.expand();
  }
  if (!init) {
    fail(document.body.dataset.signedOut || "Telegram");
    return;
  }
  load().then((ok) => { if (ok) listen(); });
})();
