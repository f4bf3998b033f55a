// A live board: the engine's picture of a position, its cards made playable, the moves
// without a card as buttons, every answer of the engine in words. Used by the "Try it"
// boards of the examples (durak-try.mjs) and by the game against the computer
// (durak-game.mjs). The board asks the engine (a durak_spec.play.web Board or Match) for
// everything: which cards a move uses, whether a move is legal, why not, what follows.

import { ruleLink, shortError } from "./durak-engine.mjs";

function make(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function activate(node, handler) {
  node.addEventListener("click", handler);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      handler(event);
    }
  });
}

export const timings = [];  // milliseconds per request, for the benchmark
window.durakTimings = timings;

export class LiveBoard {
  // host: the element to fill; session: a PyProxy with request(text) -> text;
  // options: { engine, tools: [{label, op, title}], onAnswer(answer), idPrefix }
  constructor(host, session, options) {
    this.host = host;
    this.session = session;
    this.engine = options.engine;
    this.options = options;
    this.selected = null;   // {seat, card} waiting for a choice or a target
    this.busy = false;
    this.picture = make("div", { class: "durak-live-picture" });
    this.turn = make("p", { class: "durak-live-turn" });
    this.message = make("div", { class: "durak-live-message", role: "status",
                                 "aria-live": "polite" });
    this.choices = make("div", { class: "durak-live-choices" });
    this.buttons = make("div", { class: "durak-live-buttons" });
    this.tools = make("div", { class: "durak-live-tools" });
    this.movesList = make("ul", { class: "durak-live-moves" });
    this.movesSummary = make("summary", { text: "All legal moves" });
    this.moves = make("details", { class: "durak-live-all" }, this.movesSummary,
                      this.movesList);
    this.log = make("ol", { class: "durak-live-log", "aria-label": "moves played" });
    for (const tool of options.tools || []) {
      const button = make("button", { type: "button", class: `durak-tool tool-${tool.op}`,
                                      title: tool.title || null, text: tool.label });
      activate(button, () => this.send({ op: tool.op }));
      this.tools.append(button);
      tool.button = button;
    }
    this.panel = make("div", { class: "durak-live-panel" }, this.turn, this.message,
                      this.choices, this.buttons, this.tools, this.moves,
                      make("details", { class: "durak-live-history", open: !!options.logOpen },
                           make("summary", { text: "Moves played" }), this.log));
    host.replaceChildren(this.picture, this.panel);
    host.classList.add("durak-live");
  }

  ask(request) {
    const t0 = performance.now();
    let answer;
    try {
      answer = JSON.parse(this.session.request(JSON.stringify(request)));
    } catch (error) {  // never a Python traceback on the page: one line, details in the console
      answer = { result: "error", message: `${shortError(error)}. Undo, reset or reload the ` +
                 "page to go on" };
    }
    this.engineMs = performance.now() - t0;
    return answer;
  }

  // Send a request, draw the answer; returns the answer.
  send(request) {
    if (this.busy && !request.internal) return null;
    const t0 = performance.now();
    const answer = this.ask(request);
    this.show(answer, request);
    const ms = performance.now() - t0;
    timings.push({ op: request.op, engine_ms: this.engineMs, drawn_ms: ms, result: answer.result });
    this.host.dataset.lastMs = String(Math.round(ms * 10) / 10);
    if (this.options.onAnswer) this.options.onAnswer(answer, request);
    return answer;
  }

  show(answer, request = {}) {
    if (answer.result === "error") {
      this.say("error", `Something went wrong: ${answer.message}`);
      return;
    }
    if (answer.board) this.draw(answer.board);
    if (answer.result === "played") {
      this.selected = null;
      this.choices.replaceChildren();
      if (!["reset", "undo"].includes(answer.action)) {
        const events = (answer.events || []).join(" ");
        this.say("played", `${answer.action}${events ? ". " + events : ""}`);
        this.log.append(make("li", { text: answer.action + (events ? ` — ${events}` : "") }));
        this.log.scrollTop = this.log.scrollHeight;
      } else {
        this.say("info", answer.action === "reset" ? "Back to the example's position."
                                                   : "The last move was taken back.");
        this.log.replaceChildren(...(answer.board.history || []).map(
          (h) => make("li", { text: h })));
      }
    } else if (answer.result === "refused") {
      this.refused(answer);
    } else if (answer.result === "choose") {
      this.choose(answer);
    }
  }

  say(kind, text, ...extra) {
    this.message.className = `durak-live-message ${kind}`;
    this.message.replaceChildren(make("span", { text }), ...extra);
    this.host.dataset.message = kind;
  }

  refused(answer) {
    const parts = [];
    if (answer.rule) {
      const href = ruleLink(this.engine, answer.rule);
      const id = href ? make("a", { href, class: "rule-ref", text: answer.rule,
                                    title: answer.rule_title })
                      : make("strong", { text: answer.rule });
      parts.push(" Rule ", id, answer.rule_title ? ` (${answer.rule_title}).` : ".");
    }
    this.say("refused", `Not allowed: ${answer.action}. ${capital(answer.reason)}.`, ...parts);
    this.host.dataset.rule = answer.rule || "";
  }

  choose(answer) {
    this.selected = { seat: answer.seat, card: answer.card };
    this.markSelected();
    const items = answer.moves.map((id) => {
      const move = this.board.moves[id];
      const button = make("button", { type: "button", class: "durak-choice", text: move.text });
      activate(button, () => this.send({ op: "move", id }));
      return button;
    });
    const cancel = make("button", { type: "button", class: "durak-choice cancel",
                                    text: "Cancel" });
    activate(cancel, () => this.cancel());
    this.choices.replaceChildren(...items, cancel);
    const covers = answer.moves.map((id) => this.board.moves[id])
      .filter((m) => m.kind === "cover").map((m) => m.action.attack);
    this.say("info", `${answer.card} can make several moves: ` +
             (covers.length ? "tap the attack card it should cover, or choose below."
                            : "choose one below."));
    this.markTargets(covers);
    items[0].focus();
  }

  cancel() {
    this.selected = null;
    this.choices.replaceChildren();
    this.draw(this.board);
  }

  draw(board) {
    this.board = board;
    this.picture.innerHTML = board.svg;
    const svg = this.picture.querySelector("svg");
    if (svg) svg.setAttribute("role", "group");
    this.turn.textContent = board.turn;
    const byCard = new Map(board.cards.map((c) => [`${c.seat} ${c.card}`, c]));
    const names = (seat) => (board.names ? board.names[seat] : null);
    for (const hand of this.picture.querySelectorAll("g.hand[data-seat]")) {
      const seat = Number(hand.dataset.seat);
      for (const card of hand.querySelectorAll("g.card[data-card]")) {
        const entry = byCard.get(`${seat} ${card.dataset.card}`);
        if (!entry) continue;  // a card the reader does not play (a computer's known card)
        const playable = entry.moves.length > 0;
        card.classList.add(playable ? "live-playable" : "live-blocked");
        card.setAttribute("tabindex", "0");
        card.setAttribute("role", "button");
        const who = names(seat) || hand.querySelector("tspan")?.textContent || "";
        card.setAttribute("aria-label", `${who}: ${card.dataset.card}` +
                          (playable ? " (playable)" : " (cannot be played now)"));
        activate(card, () => this.send({ op: "tap", seat, card: card.dataset.card }));
      }
    }
    this.buttons.replaceChildren(...board.buttons.map((b) => {
      const button = make("button", { type: "button", text: b.text,
                                      class: `durak-move ${b.legal ? "legal" : "illegal"}`,
                                      "aria-label": b.text + (b.legal ? "" : " (not allowed now)"),
                                      "data-kind": b.kind, "data-seat": String(b.seat) });
      activate(button, () => this.send({ op: "action", action: b.action }));
      return button;
    }));
    this.movesSummary.textContent = board.moves.length
      ? `All legal moves (${board.moves.length})` : "No legal move now";
    this.movesList.replaceChildren(...board.moves.map((m) => {
      const button = make("button", { type: "button", class: "durak-choice", text: m.text });
      activate(button, () => this.send({ op: "move", id: m.id }));
      return make("li", {}, button);
    }));
    if (this.options.onDraw) this.options.onDraw(board);
    this.host.dataset.state = board.over ? "over" : "live";
    this.host.dataset.history = String(board.history.length);
  }

  markSelected() {
    if (!this.selected) return;
    for (const card of this.picture.querySelectorAll(
      `g.hand[data-seat="${this.selected.seat}"] g.card[data-card]`)) {
      card.classList.toggle("live-selected", card.dataset.card === this.selected.card);
    }
  }

  markTargets(attacks) {
    const wanted = new Set(attacks);
    for (const card of this.picture.querySelectorAll("g.table g.pair g.card[data-card]")) {
      if (!wanted.has(card.dataset.card) || card.classList.contains("live-target")) continue;
      card.classList.add("live-target");
      card.setAttribute("tabindex", "0");
      card.setAttribute("role", "button");
      card.setAttribute("aria-label", `cover ${card.dataset.card} with ${this.selected.card}`);
      const { seat, card: mine } = this.selected;
      activate(card, () => this.send({ op: "tap", seat, card: mine,
                                       target: card.dataset.card }));
    }
  }
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

export { make, activate };
