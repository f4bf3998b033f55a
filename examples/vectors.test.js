// The durak-spec test vectors, run against an engine with node's built-in test runner
// (node 20, no npm package, no Python):
//
//     node --test examples/vectors.test.js
//
// It plays every vector of durak_spec/data/vectors.json (or the file DURAK_VECTORS names)
// against examples/engine_turns.js (or the command DURAK_ENGINE names, split on spaces),
// speaking only the engine protocol: JSON lines on the engine's standard input and output
// (durak_spec/data/protocol.schema.json). What each step means is written in the vectors'
// schema (durak_spec/data/vectors.schema.json); this file is one reading of it.
//
// Claims: the engine's hello answer says which rules it plays (profiles, player counts,
// axis values, bout protocols). A vector whose rules it does not claim is played under
// the engine's own value of each axis where it differs, if the vector's outcome does not
// depend on that value (the vector's depends_on); otherwise the vector is skipped with
// the reason, as a test262 runner skips by feature.
"use strict";

const { test, after } = require("node:test");
const assert = require("node:assert/strict");
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const readline = require("node:readline");

const ROOT = path.resolve(__dirname, "..");
const VECTORS = process.env.DURAK_VECTORS || path.join(ROOT, "durak_spec", "data", "vectors.json");
const ENGINE = process.env.DURAK_ENGINE
  ? process.env.DURAK_ENGINE.split(" ").filter(Boolean)
  : [process.execPath, path.join(__dirname, "engine_turns.js")];
const TIMEOUT_MS = 10000;

// -- cards -------------------------------------------------------------------------------

const SUITS = { "♣": "♣", "♦": "♦", "♥": "♥", "♠": "♠", C: "♣", D: "♦", H: "♥", S: "♠" };
const RANKS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"];

function card(text) {
  const suit = SUITS[text.slice(-1).toUpperCase()] || SUITS[text.slice(-1)];
  let rank = text.slice(0, -1).toUpperCase();
  if (rank === "T") rank = "10";
  if (!suit || !RANKS.includes(rank)) throw new Error(`not a card: ${JSON.stringify(text)}`);
  return rank + suit;
}

const cardSet = (texts) => new Set(texts.map(card));
const show = (cards) => [...cards].sort().join(" ") || "no cards";

// -- the engine, over JSON lines ------------------------------------------------------------

class Engine {
  constructor(argv) {
    this.child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
    this.nextId = 1;
    this.waiting = new Map();
    this.exited = false;
    this.child.on("exit", () => {
      this.exited = true;
      for (const { reject } of this.waiting.values()) reject(new Error("the engine exited"));
      this.waiting.clear();
    });
    readline.createInterface({ input: this.child.stdout }).on("line", (line) => {
      let answer;
      try {
        answer = JSON.parse(line);
      } catch {
        return;
      }
      const entry = this.waiting.get(answer.id);
      if (entry) {
        this.waiting.delete(answer.id);
        clearTimeout(entry.timer);
        entry.resolve(answer);
      }
    });
  }

  request(cmd, fields = {}) {
    if (this.exited) return Promise.reject(new Error("the engine exited"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`no answer to ${cmd} within ${TIMEOUT_MS} ms`));
      }, TIMEOUT_MS);
      this.waiting.set(id, { resolve, reject, timer });
      this.child.stdin.write(JSON.stringify({ id, cmd, ...fields }) + "\n");
    });
  }

  async ok(cmd, fields) {
    const answer = await this.request(cmd, fields);
    if (answer.ok === false) throw new Error(`${cmd}: ${answer.error}`);
    return answer;
  }

  async report() {
    return (await this.ok("state")).report;
  }

  async legal() {
    return (await this.ok("legal")).actions;
  }

  async close() {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.request("quit").catch(() => {}); // an engine may exit without answering quit
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill(), 1000);
    await exited;
    clearTimeout(timer);
  }
}

// -- claims ------------------------------------------------------------------------------

const format = (value) => (typeof value === "boolean" ? (value ? "on" : "off") : String(value));

function claimedValues(hello, axes) {
  const own = hello.axes || {};
  if (Object.keys(own).length === 0) return null;
  const orders = own.turn_order || (hello.capabilities || {}).turn_order || ["free"];
  const out = {};
  for (const [axis, info] of Object.entries(axes)) {
    out[axis] = axis === "turn_order" ? orders : own[axis] || [info.default];
  }
  return out;
}

function supports(hello, doc, rules) {
  const players = hello.players || [2, 3, 4, 5, 6];
  if (!players.includes(rules.players)) return `it does not play with ${rules.players} players`;
  const orders = (hello.axes || {}).turn_order || (hello.capabilities || {}).turn_order || ["free"];
  if (!orders.includes(rules.turn_order)) return `it does not play turn_order=${rules.turn_order}`;
  for (const name of hello.profiles || []) {
    const base = doc.profiles[name];
    if (base && Object.keys(doc.axes).every((a) => a === "turn_order" || base[a] === rules[a])) {
      return null;
    }
  }
  const claimed = claimedValues(hello, doc.axes);
  if (claimed === null) return "it claims no profile with these rules";
  for (const [axis, values] of Object.entries(claimed)) {
    if (!values.includes(format(rules[axis]))) return `it does not play ${axis}=${format(rules[axis])}`;
  }
  return null;
}

// The vector's rules, or the engine's own values where the outcome does not depend on them.
function rulesFor(hello, doc, vector) {
  const why = supports(hello, doc, vector.rules);
  if (why === null) return vector.rules;
  const claimed = claimedValues(hello, doc.axes);
  if (claimed === null) return why;
  const rules = { ...vector.rules };
  const blocked = [];
  for (const [axis, values] of Object.entries(claimed)) {
    if (values.includes(format(rules[axis]))) continue;
    const depends = vector.depends_on[axis] || [];
    const own = values.find((value) => !depends.includes(value));
    if (own === undefined) {
      blocked.push(`${axis}=${values.join("|")}`);
      continue;
    }
    rules[axis] = typeof rules[axis] === "boolean" ? own === "on" : own;
  }
  if (blocked.length) return `${why}; the outcome depends on ${blocked.join(", ")}`;
  return supports(hello, doc, rules) || rules;
}

// -- playing one vector --------------------------------------------------------------------

class Skip extends Error {}

function actionKey(action) {
  if (action.type === "open") return JSON.stringify([action.player, "open", action.cards.map(card).sort()]);
  return JSON.stringify([action.player, action.type, action.attack && card(action.attack),
    action.card && card(action.card)]);
}

const actionText = (a) => `P${a.player} ${a.type} ${a.cards ? a.cards.join(" ") : ""}${a.attack ? a.attack + " with " : ""}${a.card || ""}`.trim();

function compare(what, have, want, mode) {
  const held = new Set([...have].map(card));
  const wanted = cardSet(want);
  if (mode === "exactly") {
    const same = held.size === wanted.size && [...held].every((c) => wanted.has(c));
    assert.ok(same, `${what} ${show(held)}; expected exactly ${show(wanted)}`);
  } else if (mode === "each") {
    const missing = [...wanted].filter((c) => !held.has(c));
    assert.ok(missing.length === 0, `${what} ${show(held)}; expected ${show(missing)} among them`);
  } else {
    const both = [...wanted].filter((c) => held.has(c));
    assert.ok(both.length === 0, `${what} ${show(held)}; expected none of ${show(both)}`);
  }
}

const sameGroups = (a, b) => a.length === b.length &&
  a.every((g, i) => g.length === b[i].length && g.every((s) => b[i].includes(s)));

async function play(engine, hello, vector, rules) {
  let deck = null;
  let seed = 0;
  let ended = null;
  let started = false;

  async function verdict(accepted, rule, answerRule, reason, expected, move) {
    if (expected.verdict === "accepted") {
      assert.ok(accepted, `${move} was rejected (${answerRule || ""} ${reason || ""}), but the rules allow it`);
    } else {
      assert.ok(!accepted, `${move} was accepted, but the rules forbid it (${expected.rule || "rejected"})`);
      if (expected.rule && answerRule) {
        assert.equal(answerRule, expected.rule, `${move} was rejected by ${answerRule}, not ${expected.rule}`);
      }
    }
  }

  async function apply(action, expected) {
    const legal = new Set((await engine.legal()).map(actionKey));
    const before = await engine.report();
    const answer = await engine.ok("apply", { action });
    const move = JSON.stringify(action);
    const listed = legal.has(actionKey(action));
    if (answer.accepted) assert.ok(listed, `the engine accepted ${move}, but it is not among its legal actions`);
    else assert.ok(!listed, `the engine rejected ${move}, but lists it among its legal actions`);
    await verdict(answer.accepted, expected.rule, answer.rule, answer.reason, expected, move);
    if (answer.accepted) {
      const afterReport = await engine.report();
      ended = null;
      if (before.table.length && !afterReport.table.length) {
        const cards = before.table.flat().filter((c) => c !== null).map(card);
        if (action.type !== "show") {
          for (const c of [action.card, ...(action.cards || [])]) {
            if (c && !cards.includes(card(c))) cards.push(card(c));
          }
        }
        ended = { cards, defender: before.defender, discard: before.discard };
      }
    }
  }

  const ofSeat = async (seat) => (await engine.legal()).filter((a) => a.player === seat);

  for (const step of vector.steps) {
    const where = `${vector.example}: "${step.text}": `;
    try {
      await run(step);
    } catch (error) {
      if (error instanceof Skip) throw error;
      error.message = where + error.message;
      throw error;
    }
  }

  async function run(step) {
    switch (step.kind) {
      case "load": {
        if (!(hello.capabilities || {}).load) throw new Skip("the engine cannot load a position");
        const answer = await engine.request("load", { state: { ...step.state, rules } });
        if (answer.ok === false) {
          if (answer.declined) throw new Skip(`the engine declined the position: ${answer.error}`);
          throw new Error(`load: ${answer.error}`);
        }
        started = true;
        return;
      }
      case "deal": {
        const fields = { rules, deck: step.deck, seed: step.seed };
        if (step.after_game && started) {
          const last = await engine.report();
          if (last.over && rules.later_game_lead !== "lowest-trump") {
            fields.previous = { durak: last.durak, finishing_order: last.finished };
          }
        }
        deck = step.deck;
        seed = step.seed;
        ended = null;
        const answer = await engine.request("start", fields);
        started = true;
        await verdict(answer.ok !== false, step.rule, answer.rule, answer.error, step, "the deal");
        return;
      }
      case "setup": {
        // A game of step.players players under the vector's rules otherwise: a start like
        // any other. The count may be one no game has (DEAL-3): then it must be refused.
        const players = hello.players || [2, 3, 4, 5, 6];
        if (step.verdict === "accepted" && !players.includes(step.players)) {
          throw new Skip(`the engine does not play with ${step.players} players`);
        }
        deck = step.deck;
        seed = step.seed;
        ended = null;
        const answer = await engine.request("start", { rules: { ...rules, players: step.players }, deck, seed });
        started = answer.ok !== false;
        if (started) rules = { ...rules, players: step.players };
        await verdict(answer.ok !== false, step.rule, answer.rule, answer.error, step,
          `a game for ${step.players} player${step.players === 1 ? "" : "s"}`);
        return;
      }
      case "act":
        return apply(step.action, step);
      case "all-done": {
        for (let i = 0; i < 64; i++) {
          const done = (await engine.legal()).find((a) => a.type === "done");
          if (!done) return;
          await apply(done, { verdict: "accepted", rule: null });
        }
        assert.fail("attackers kept being asked to say done");
        return;
      }
      case "may-open": {
        const openings = new Set((await ofSeat(step.seat)).filter((a) => a.type === "open")
          .map((a) => a.cards.map(card).sort().join(" ")));
        const groups = step.together ? [step.cards] : step.cards.map((c) => [c]);
        for (const group of groups) {
          const key = group.map(card).sort().join(" ");
          assert.equal(openings.has(key), step.allowed, `P${step.seat} ${step.allowed ? "may not" : "may"} open with ${key}`);
        }
        return;
      }
      case "may-open-any": {
        const singles = (await ofSeat(step.seat)).filter((a) => a.type === "open" && a.cards.length === 1).map((a) => a.cards[0]);
        const hand = (await engine.report()).hands[step.seat];
        return compare(`P${step.seat} may open with`, singles, hand, "exactly");
      }
      case "may-throw-in":
        return compare(`P${step.seat} may throw in`, (await ofSeat(step.seat)).filter((a) => a.type === "throw").map((a) => a.card), step.cards, step.mode);
      case "may-cover":
        return compare(`P${step.seat} may cover ${step.attack} with`, (await ofSeat(step.seat))
          .filter((a) => a.type === "cover" && card(a.attack) === card(step.attack)).map((a) => a.card), step.cards, step.mode);
      case "may-transfer": {
        const types = step.by === "playing" ? ["transfer"] : step.by === "showing" ? ["show"] : ["transfer", "show"];
        return compare(`P${step.seat} may transfer with`, (await ofSeat(step.seat)).filter((a) => types.includes(a.type)).map((a) => a.card), step.cards, step.mode);
      }
      case "may": {
        const allowed = (await ofSeat(step.seat)).some((a) => a.type === step.move);
        assert.equal(allowed, step.allowed, `P${step.seat} ${allowed ? "may" : "may not"} ${step.move}`);
        return;
      }
      case "legal-moves": {
        const have = (await ofSeat(step.seat)).map(actionKey).sort();
        const want = step.actions.map(actionKey).sort();
        assert.deepEqual(have, want, `P${step.seat}'s legal moves differ`);
        return;
      }
      case "only-acts": {
        const legal = await engine.legal();
        assert.ok(legal.length > 0 && legal.every((a) => a.player === step.seat), `P${step.seat} is not the only one who may act: ${legal.map(actionText).join(", ") || "nobody may"}`);
        return;
      }
      case "nobody-acts": {
        const legal = await engine.legal();
        assert.equal(legal.length, 0, `${legal.length} legal moves remain`);
        return;
      }
      case "playable": {
        const cards = [];
        for (const a of await ofSeat(step.seat)) cards.push(...(a.cards || []), ...(a.card ? [a.card] : []));
        return compare(`the cards P${step.seat} may play are`, cards, step.cards, "exactly");
      }
      case "first-attacker-by-seed":
        return firstAttackers(step);
      default:
        return position(step, await engine.report());
    }
  }

  function position(step, report) {
    const out = new Set(report.finished.flat());
    switch (step.kind) {
      case "hand":
        return compare(`P${step.seat} holds`, report.hands[step.seat], step.cards, step.mode);
      case "hand-size":
        return assert.equal(report.hands[step.seat].length, step.count, `P${step.seat} holds ${report.hands[step.seat].length} cards`);
      case "each-hand-size":
        report.hands.forEach((hand, seat) => {
          if (!out.has(seat)) assert.equal(hand.length, step.count, `P${seat} holds ${hand.length} cards`);
        });
        return;
      case "trumps-held": {
        const trumps = report.hands.flat().filter((c) => card(c).slice(-1) === SUITS[report.trump]);
        return assert.equal(trumps.length, step.count, `the players hold ${trumps.length} trumps`);
      }
      case "table": {
        const have = report.table.map(([a, c]) => `${card(a)}/${c === null ? "" : card(c)}`).sort();
        const want = step.pairs.map(([a, c]) => `${card(a)}/${c === null ? "" : card(c)}`).sort();
        return assert.deepEqual(have, want, "the table differs");
      }
      case "stock":
        return assert.equal(report.stock, step.count, `the stock holds ${report.stock} cards`);
      case "discard":
        return assert.equal(report.discard, step.count, `the discard pile holds ${report.discard} cards`);
      case "trump":
        return assert.equal(SUITS[report.trump], step.suit, `${report.trump} is trump`);
      case "face-up":
        return assert.equal(report.face_up === null ? null : card(report.face_up), step.card === null ? null : card(step.card), "the face-up trump differs");
      case "roles":
        if (step.bout_over) assert.equal(report.table.length, 0, "the bout is still going on");
        return assert.deepEqual([report.attacker, report.defender], [step.attacker, step.defender], `P${report.attacker} attacks P${report.defender}`);
      case "known":
        if (!Array.isArray(report.known)) throw new Skip("the engine does not report which cards everyone knows (VIEW-2)");
        return compare(`everyone knows that P${step.seat} holds`, report.known[step.seat], step.cards, step.mode);
      case "beaten-off": {
        assert.ok(ended, "the last move did not end a bout");
        const kept = ended.cards.filter((c) => report.hands[ended.defender].map(card).includes(c));
        assert.ok(kept.length === 0 && report.discard - ended.discard === ended.cards.length,
          `the bout's ${ended.cards.length} cards did not go to the discard pile`);
        return;
      }
      case "taken":
        assert.ok(ended, "the last move did not end a bout");
        assert.equal(ended.defender, step.seat, `P${ended.defender} defended the bout`);
        return compare(`P${step.seat} holds`, report.hands[step.seat], ended.cards, "each");
      case "bout-goes-on":
        return assert.ok(report.table.length > 0, "the bout has ended: the table is empty");
      case "durak":
        return assert.ok(report.over && report.durak === step.seat, report.over ? `the durak is ${report.durak}` : "the game goes on");
      case "draw":
      case "no-durak":
        assert.ok(report.over, "the game goes on");
        assert.equal(report.durak, null, `P${report.durak} is the durak`);
        if (step.kind === "draw") assert.ok(report.hands.every((h) => h.length === 0), "somebody still holds cards");
        return;
      case "game-goes-on":
        return assert.ok(!report.over, "the game is over");
      case "out":
        for (const seat of step.seats) assert.ok(out.has(seat), `P${seat} is still in the game`);
        return;
      case "in-game":
        return assert.ok(!out.has(step.seat), `P${step.seat} is out`);
      case "finishing-order":
        return assert.ok(sameGroups(report.finished, step.groups), `the finishing order is ${JSON.stringify(report.finished)}`);
      case "first-out":
        if (step.over) assert.ok(report.over, "the game goes on");
        return assert.ok(sameGroups(report.finished.slice(0, 1), [step.seats]), `the first out are ${JSON.stringify(report.finished[0] || [])}`);
      default:
        throw new Error(`unknown kind of step ${JSON.stringify(step.kind)}`);
    }
  }

  async function firstAttackers(step) {
    const report = await engine.report();
    const trump = SUITS[report.trump];
    const held = report.hands.flat().filter((c) => card(c).slice(-1) === trump);
    const firsts = [];
    const deal = async (s) => (await engine.ok("start", { rules, deck, seed: s })).report.attacker;
    try {
      for (let s = 0; s < step.seeds; s++) firsts.push(await deal(s));
      for (let s = 0; s < Math.min(5, step.seeds); s++) {
        assert.equal(await deal(s), firsts[s], "the same seed picked different first attackers");
      }
    } finally {
      await engine.ok("start", { rules, deck, seed });
    }
    if (step.seat === null) {
      assert.equal(held.length, 0, "a hand holds a trump: the lowest trump leads (ORDER-1)");
      report.hands.forEach((_, seat) => assert.ok(firsts.includes(seat), `P${seat} never attacked first`));
    } else {
      assert.ok(firsts.every((s) => s === step.seat), `with some seeds another player attacks first: ${firsts}`);
    }
  }
}

// -- the tests ------------------------------------------------------------------------------

const doc = JSON.parse(fs.readFileSync(VECTORS, "utf8"));
assert.equal(doc.format, "durak-spec/vectors");
assert.equal(doc.version, 1, `this runner reads version 1 of the vectors, not ${doc.version}`);

let engine = null;
let hello = null;

async function ready() {
  if (engine === null || engine.exited) {
    engine = new Engine(ENGINE);
    hello = await engine.ok("hello");
  }
  return engine;
}

after(async () => {
  if (engine !== null) await engine.close();
});

for (const vector of doc.vectors) {
  test(`${vector.example} ${vector.title}`, async (t) => {
    await ready();
    const rules = rulesFor(hello, doc, vector);
    if (typeof rules === "string") {
      t.skip(rules);
      return;
    }
    try {
      await play(engine, hello, vector, rules);
    } catch (error) {
      if (error instanceof Skip) {
        t.skip(error.message);
        return;
      }
      throw error;
    }
  });
}
