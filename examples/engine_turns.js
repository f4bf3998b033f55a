#!/usr/bin/env node
// A small Durak engine in JavaScript (node 20), written from the rules, not from the
// reference implementation: the classic throw-in game (podkidnoy) for 2 to 4 players,
// played one seat at a time under the bout protocol "opener-first" (CLAR-17).
//
// It speaks the JSON-lines protocol of durak-spec (durak_spec/data/protocol.schema.json):
// one request per line on standard input, one response per line on standard output.
// Try it:
//
//     durak-spec check --engine "node examples/engine_turns.js"
//     durak-spec check --engine "node examples/engine_turns.js" --random 20
//
// What it plays (the hello answer says the same, axis by axis):
//   * the 36-card deck; six cards each; the last card of the stock is the face-up trump;
//     a start for a number of players no game has (one, or more than six) is refused
//     naming DEAL-3; five or six players it does not play (no rule named);
//   * the lowest trump opens the first game; if nobody holds a trump, the first seat does
//     (no_trump_lead = first-seat: this engine has no way to share the reference's chance);
//   * the attacker opens with one card; everybody but the defender may throw in cards of a
//     rank on the table; at most six attack cards (five in the first bout), and never more
//     uncovered cards than the defender holds;
//   * one seat acts at a time: the defender answers each card (covers one, or takes);
//     then the attackers are asked in turn, clockwise from the attacker, to add one card
//     or say done; after each answer the asking starts again from the attacker;
//   * after the bout everyone draws back to six, the attacker first, the defender last;
//   * players without cards once the stock is empty are out; the last one holding cards
//     is the durak.
"use strict";

const readline = require("readline");

const RANKS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = ["♣", "♦", "♥", "♠"];
const ASCII = { C: "♣", D: "♦", H: "♥", S: "♠" };
const HAND = 6;

// -- cards -------------------------------------------------------------------------------

function parseCard(text) {
  if (typeof text !== "string") throw new Error(`not a card: ${JSON.stringify(text)}`);
  let suit = text.slice(-1);
  suit = ASCII[suit.toUpperCase()] || suit;
  let rank = text.slice(0, -1).toUpperCase();
  if (rank === "T") rank = "10";
  const r = RANKS.indexOf(rank);
  const s = SUITS.indexOf(suit);
  if (r < 0 || s < 0) throw new Error(`not a card: ${JSON.stringify(text)}`);
  return { rank: r, suit: s };
}

const cardText = (c) => RANKS[c.rank] + SUITS[c.suit];
const same = (a, b) => a.rank === b.rank && a.suit === b.suit;
const byRank = (a, b) => a.rank - b.rank || a.suit - b.suit;

function beats(cover, attack, trump) {
  if (cover.suit === attack.suit) return cover.rank > attack.rank;
  return cover.suit === trump;
}

// -- the game ----------------------------------------------------------------------------

let game = null;

function outSeats(g) {
  return new Set(g.finished.flat());
}

function nextInGame(g, seat, out) {
  const n = g.hands.length;
  for (let step = 1; step < n; step++) {
    const candidate = (seat + step) % n;
    if (!out.has(candidate)) return candidate;
  }
  return seat;
}

function isOver(g) {
  return g.hands.length - outSeats(g).size <= 1 && g.finished.length > 0;
}

function start(rules, deck) {
  const n = rules.players;
  const cards = deck.map(parseCard);
  const hands = [];
  for (let p = 0; p < n; p++) hands.push(cards.slice(p * HAND, (p + 1) * HAND).sort(byRank));
  const stock = cards.slice(n * HAND);
  const trump = stock[stock.length - 1].suit;
  let attacker = 0;
  let lowest = null;
  hands.forEach((hand, seat) => {
    for (const c of hand) {
      if (c.suit === trump && (lowest === null || c.rank < lowest)) {
        lowest = c.rank;
        attacker = seat;
      }
    }
  });
  return {
    hands, stock, trump, table: [], discard: [], attacker,
    defender: (attacker + 1) % n, opener: attacker, bout: 0, taking: false,
    passed: new Set(), joined: [], finished: [],
  };
}

function load(state) {
  const cards = (list) => list.map(parseCard);
  return {
    hands: state.hands.map((h) => cards(h).sort(byRank)),
    stock: cards(state.stock),
    trump: SUITS.indexOf(ASCII[state.trump] || state.trump),
    table: state.table.map(([a, c]) => ({ attack: parseCard(a), cover: c === null ? null : parseCard(c) })),
    discard: cards(state.discard),
    attacker: state.attacker, defender: state.defender, opener: state.opener,
    bout: state.bout, taking: state.taking, passed: new Set(state.passed),
    joined: [...state.joined], finished: state.finished.map((group) => [...group]),
  };
}

function defenderToMove(g) {
  return !g.taking && g.table.some((pair) => pair.cover === null);
}

function attackLimit(g) {
  const hand = g.hands[g.defender].length;
  if (hand === 0) return g.table.length;
  const cap = g.bout === 0 ? 5 : 6;
  const covered = g.table.filter((pair) => pair.cover !== null).length;
  return Math.min(cap, covered + hand);
}

function ranksOnTable(g) {
  const ranks = new Set();
  for (const pair of g.table) {
    ranks.add(pair.attack.rank);
    if (pair.cover !== null) ranks.add(pair.cover.rank);
  }
  return ranks;
}

// The attacker asked now: the first seat clockwise from the attacker (never the defender,
// never a player who is out) who has not said done and holds a card of a rank on the
// table, while the bout has room for another card; null if nobody.
function toAct(g) {
  if (g.table.length === 0 || defenderToMove(g) || g.table.length >= attackLimit(g)) return null;
  const n = g.hands.length;
  const out = outSeats(g);
  const ranks = ranksOnTable(g);
  for (let step = 0; step < n; step++) {
    const seat = (g.attacker + step) % n;
    if (seat === g.defender || out.has(seat) || g.passed.has(seat)) continue;
    if (g.hands[seat].some((c) => ranks.has(c.rank))) return seat;
  }
  return null;
}

function legal(g) {
  if (isOver(g)) return [];
  if (g.table.length === 0) {
    return g.hands[g.attacker].map((c) => ({ player: g.attacker, type: "open", cards: [cardText(c)] }));
  }
  const actions = [];
  if (defenderToMove(g)) {
    const d = g.defender;
    for (const pair of g.table) {
      if (pair.cover !== null) continue;
      for (const c of g.hands[d]) {
        if (beats(c, pair.attack, g.trump)) {
          actions.push({ player: d, type: "cover", attack: cardText(pair.attack), card: cardText(c) });
        }
      }
    }
    actions.push({ player: d, type: "take" });
    return actions;
  }
  const seat = toAct(g);
  if (seat === null) return [];
  const ranks = ranksOnTable(g);
  for (const c of g.hands[seat]) {
    if (ranks.has(c.rank)) actions.push({ player: seat, type: "throw", card: cardText(c) });
  }
  actions.push({ player: seat, type: "done" });
  return actions;
}

function removeCard(hand, card) {
  const i = hand.findIndex((c) => same(c, card));
  hand.splice(i, 1);
}

function play(g, action) {
  const seat = action.player;
  switch (action.type) {
    case "open": {
      const card = parseCard(action.cards[0]);
      removeCard(g.hands[seat], card);
      g.table.push({ attack: card, cover: null });
      g.opener = seat;
      g.joined = [seat];
      break;
    }
    case "throw": {
      const card = parseCard(action.card);
      removeCard(g.hands[seat], card);
      g.table.push({ attack: card, cover: null });
      if (!g.joined.includes(seat)) g.joined.push(seat);
      break;
    }
    case "cover": {
      const attack = parseCard(action.attack);
      const card = parseCard(action.card);
      removeCard(g.hands[seat], card);
      g.table.find((pair) => same(pair.attack, attack) && pair.cover === null).cover = card;
      g.passed = new Set();
      break;
    }
    case "take":
      g.taking = true;
      g.passed = new Set();
      break;
    case "done":
      g.passed.add(seat);
      break;
    default:
      throw new Error(`unknown action type ${action.type}`);
  }
  if (g.table.length > 0 && !defenderToMove(g) && toAct(g) === null) endBout(g);
}

function endBout(g) {
  const n = g.hands.length;
  const tableCards = g.table.flatMap((pair) => (pair.cover === null ? [pair.attack] : [pair.attack, pair.cover]));
  const taken = g.taking;
  if (taken) g.hands[g.defender].push(...tableCards);
  else g.discard.push(...tableCards);
  g.hands[g.defender].sort(byRank);
  // Drawing: the opener first, then clockwise, the defender last.
  const order = [];
  for (let step = 0; step < n; step++) {
    const seat = (g.opener + step) % n;
    if (seat !== g.defender) order.push(seat);
  }
  order.push(g.defender);
  for (const seat of order) {
    if (g.stock.length === 0) break;
    const need = HAND - g.hands[seat].length;
    if (need > 0) {
      g.hands[seat].push(...g.stock.splice(0, need));
      g.hands[seat].sort(byRank);
    }
  }
  let out = outSeats(g);
  if (g.stock.length === 0) {
    const gone = [];
    for (let seat = 0; seat < n; seat++) if (!out.has(seat) && g.hands[seat].length === 0) gone.push(seat);
    if (gone.length > 0) {
      g.finished.push(gone);
      out = outSeats(g);
    }
  }
  const rest = [];
  for (let seat = 0; seat < n; seat++) if (!out.has(seat)) rest.push(seat);
  let attacker;
  let defender;
  if (rest.length <= 1) {
    attacker = defender = rest.length ? rest[0] : g.attacker;
  } else {
    // The defender attacks next, unless they took or went out: then the next player in.
    attacker = taken || out.has(g.defender) ? nextInGame(g, g.defender, out) : g.defender;
    defender = nextInGame(g, attacker, out);
  }
  Object.assign(g, {
    table: [], attacker, defender, opener: attacker, bout: g.bout + 1, taking: false,
    passed: new Set(), joined: [],
  });
}

function report(g) {
  const out = outSeats(g);
  const over = isOver(g);
  const rest = g.hands.map((_, seat) => seat).filter((seat) => !out.has(seat));
  return {
    hands: g.hands.map((hand) => hand.map(cardText)),
    table: g.table.map((pair) => [cardText(pair.attack), pair.cover === null ? null : cardText(pair.cover)]),
    stock: g.stock.length,
    trump: SUITS[g.trump],
    face_up: g.stock.length ? cardText(g.stock[g.stock.length - 1]) : null,
    discard: g.discard.length,
    attacker: g.attacker,
    defender: g.defender,
    taking: g.taking,
    finished: g.finished,
    over,
    durak: over && rest.length === 1 ? rest[0] : null,
  };
}

// -- the protocol ------------------------------------------------------------------------

const CLAIM = {
  transfer: ["off"], transfer_by_showing_trump: ["off"], multi_card_opening: ["off"],
  throw_in: ["all"], first_bout_limit_five: ["on"], limit_reading: ["current-hand"],
  draw_order: ["attacker-first"], no_trump_lead: ["first-seat"], trump_exchange: ["off"],
  turn_order: ["opener-first"],
};

// A rule set no game has: six cards each must come out of 36, for at least two (DEAL-3).
function impossible(rules) {
  const n = rules.players;
  if (!Number.isInteger(n) || (n >= 2 && n * HAND <= 36)) return null;
  return `Durak is played by 2 to 6 players (DEAL-3), not ${n}`;
}

function claims(rules) {
  if (![2, 3, 4].includes(rules.players)) return `plays 2 to 4 players, not ${rules.players}`;
  for (const [axis, values] of Object.entries(CLAIM)) {
    let value = rules[axis];
    if (typeof value === "boolean") value = value ? "on" : "off";
    if (!values.includes(value)) return `does not play ${axis}=${value}`;
  }
  return null;
}

const key = (action) => JSON.stringify([action.player, action.type, action.cards, action.attack, action.card]);

function handle(request) {
  switch (request.cmd) {
    case "hello":
      return {
        protocol: 1, name: "engine_turns.js", version: "1", profiles: [], players: [2, 3, 4],
        axes: CLAIM, capabilities: { load: true, turn_order: ["opener-first"] },
      };
    case "start": {
      const never = impossible(request.rules);
      if (never !== null) return { ok: false, error: never, rule: "DEAL-3" };
      const why = claims(request.rules);
      if (why !== null) return { ok: false, error: `engine_turns.js ${why}` };
      const seen = new Set(request.deck.map((text) => cardText(parseCard(text))));
      if (request.deck.length !== 36 || seen.size !== 36) {
        return { ok: false, error: `a deck order holds each of the 36 cards once, not ${request.deck.length} cards (${seen.size} different)`, rule: "DEAL-1" };
      }
      game = start(request.rules, request.deck);
      return { report: report(game) };
    }
    case "load": {
      const why = claims(request.state.rules);
      if (why !== null) return { ok: false, error: `engine_turns.js ${why}` };
      game = load(request.state);
      return { report: report(game) };
    }
    case "quit":
      return null;
    default:
      break;
  }
  if (game === null) return { ok: false, error: "no game yet: send start or load first" };
  switch (request.cmd) {
    case "legal":
      return { actions: legal(game) };
    case "state":
      return { report: report(game) };
    case "apply": {
      const wanted = key(request.action);
      if (!legal(game).some((action) => key(action) === wanted)) {
        return { accepted: false, reason: "not among the legal actions now", rule: null };
      }
      play(game, request.action);
      return { accepted: true };
    }
    default:
      return { ok: false, error: `unknown command ${JSON.stringify(request.cmd)}` };
  }
}

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    process.stdout.write(JSON.stringify({ id: null, ok: false, error: `not JSON: ${error.message}` }) + "\n");
    return;
  }
  let answer;
  try {
    answer = handle(request);
  } catch (error) {
    answer = { ok: false, error: String(error.message || error) };
  }
  if (answer === null) {
    input.close();
    return;
  }
  process.stdout.write(JSON.stringify({ id: request.id ?? null, ok: true, ...answer }) + "\n");
});
