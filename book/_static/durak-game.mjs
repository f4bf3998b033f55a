// "Play a game": a whole game against the computer, with the reference engine running in
// the page (durak-engine.mjs) as a durak_spec.play.web Match. The reader plays seat 0; the
// computer's moves are played one at a time at the chosen pace. After every move the game
// is saved in the browser (localStorage) in the durak-spec/game v1 format, which
// `durak-spec play --load FILE` reads as well; "Save to a file" and "Load a saved game"
// carry a game between the browser and the terminal.
//
// When the game is over, "Review this game" runs the coach on the reader's moves in the
// page (the Match's {"op": "review"}, a slice of about REVIEW_SLICE_MS at a time so that
// the page stays responsive and shows its progress) and lists the marked moves it returns.
//
// For tests: ?pace=MS sets the computer's pace in milliseconds (0 plays at once).

import { loadEngine, shortError } from "./durak-engine.mjs";
import { LiveBoard, make } from "./durak-board.mjs";

const STORE = "durak-spec/game";
const NAMES = ["Anna (you)", "Boris", "Vera", "Gleb", "Dasha", "Egor"];
const $ = (id) => document.getElementById(id);
const form = $("durak-play-form");
const status = $("durak-game-status");
const host = $("durak-game");
const params = new URLSearchParams(location.search);

let engine = null;
let match = null;
let board = null;
let running = 0;   // a counter: a new game stops the computer's loop of the old one
const REVIEW_SLICE_MS = 150;
const reviewBox = $("durak-review");
const reviewStatus = $("durak-review-status");
const reviewBar = $("durak-review-progress");
const reviewResult = $("durak-review-result");
const reviewButton = $("durak-review-start");
const reviewIntro = reviewStatus ? reviewStatus.textContent : "";

function tell(text, error = false) {
  status.textContent = text;
  status.classList.toggle("error", error);
}

function pace() {
  if (params.has("pace")) return Math.max(0, Number(params.get("pace")) || 0);
  return Number($("durak-pace").value);
}

function stored() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE) || "null");
    return data && typeof data.text === "string" ? data : null;
  } catch {
    return null;
  }
}

function remember(answer) {
  try {
    const saved = JSON.parse(match.request(JSON.stringify({ op: "save" })));
    localStorage.setItem(STORE, JSON.stringify({ text: saved.text, opponent: saved.opponent,
                                                 seat: saved.seat, over: answer?.board?.over }));
  } catch (error) {
    tell(`The game could not be saved in the browser: ${shortError(error)}`, true);
  }
}

async function ready() {
  if (engine) return engine;
  engine = await loadEngine((text) => tell(text));
  return engine;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The computer's moves, one at a time, until it is the reader's turn or the game is over.
async function computerMoves(run) {
  board.busy = true;
  host.dataset.thinking = "yes";
  try {
    for (;;) {
      if (run !== running) return;
      const state = board.board;
      if (state.over || state.yours || state.to_act === null) break;
      tell(`${state.names[state.to_act]} is thinking…`);
      await sleep(pace());
      if (run !== running) return;
      const answer = board.send({ op: "computer", internal: true });
      if (!answer || answer.result !== "played") break;
      remember(answer);
    }
  } finally {
    if (run === running) {
      board.busy = false;
      host.dataset.thinking = "no";
      const state = board.board;
      tell(state.over ? state.turn + " Start a new game with New game." : "Your turn.");
      if (state.over && reviewBox && reviewBox.hidden) offerReview();
    }
  }
}

// -- the coach ---------------------------------------------------------------------------

function reviewTell(text, error = false) {
  reviewStatus.textContent = text;
  reviewStatus.classList.toggle("error", error);
}

function clearReview() {
  if (!reviewBox) return;
  reviewBox.hidden = true;
  reviewBox.dataset.state = "";
  reviewResult.replaceChildren();
  reviewBar.hidden = true;
  reviewButton.hidden = false;
  reviewButton.disabled = false;
  reviewTell(reviewIntro);
}

function offerReview() {
  clearReview();
  reviewBox.hidden = false;
  reviewBox.dataset.state = "offered";
}

function tipLine(tip) {
  const link = (href, text) => make("a", { href: new URL(href, engine.root).href,
                                           class: "durak-review-link", text });
  return make("p", { class: "durak-review-tip" }, `${tip.id}: ${tip.title}. `,
              link(tip.link, "The tip"), " and ", link(tip.evidence, "its evidence"), ".");
}

function showReview(review) {
  const marked = review.marked;
  reviewTell(marked.length
    ? `The coach weighed ${review.decisions} of your decisions. ` +
      (marked.length === 1 ? "The move that cost you most" :
        `The ${marked.length} moves that cost you most, the costliest first`) +
      " (your chance of not being the durak, from what you knew then):"
    : `The coach weighed ${review.decisions} of your decisions: no move cost a clear ` +
      "chance of escaping; each was as good as the others it found.");
  const list = make("ol", { class: "durak-review-moves" });
  for (const move of marked) {
    const picture = make("div", { class: "durak-review-picture" });
    picture.innerHTML = move.svg;  // drawn by the engine (report.move_svg)
    list.append(make("li", { class: "durak-review-move", "data-move": String(move.number) },
                     make("p", { class: "durak-review-reason" },
                          make("strong", { text: `Move ${move.number} (bout ${move.bout}): ` }),
                          move.reason),
                     move.tip ? tipLine(move.tip) : null, picture));
  }
  reviewResult.replaceChildren(list);
  reviewBox.dataset.state = "done";
  reviewButton.hidden = true;
}

async function reviewGame() {
  if (!match || !board?.board?.over || reviewBox.dataset.state === "reviewing") return;
  const run = running;
  reviewBox.dataset.state = "reviewing";
  reviewButton.disabled = true;
  reviewResult.replaceChildren();
  reviewBar.hidden = false;
  reviewBar.removeAttribute("value");  // indeterminate until the first answer
  reviewTell("Reviewing your moves…");
  try {
    for (;;) {
      await sleep(20);  // let the page draw the progress between two slices
      if (run !== running) return;
      const answer = JSON.parse(match.request(JSON.stringify({ op: "review",
                                                               budget_ms: REVIEW_SLICE_MS })));
      if (answer.result === "review") {
        showReview(answer);
        break;
      }
      if (answer.result !== "reviewing") throw new Error(answer.message || answer.result);
      reviewBar.max = answer.total;
      reviewBar.value = answer.done;
      reviewTell(answer.checking ? "Reviewing your moves… weighing the costliest again."
                 : `Reviewing your moves… ${answer.done} of ${answer.total} decisions weighed.`);
    }
  } catch (error) {
    if (run !== running) return;
    reviewBox.dataset.state = "failed";
    reviewButton.disabled = false;
    reviewTell(`The review could not be made: ${shortError(error)}. Press Review this game ` +
               "to try again.", true);
  } finally {
    if (run === running) reviewBar.hidden = true;
  }
}

function begin(session, how) {
  running += 1;
  const run = running;
  if (match) match.destroy();
  match = session;
  clearReview();
  board = new LiveBoard(host, match, {
    engine,
    logOpen: true,
    onDraw: (state) => { host.dataset.actions = String(state.actions); },
    onAnswer: (answer, request) => {
      if (request.internal || answer.result !== "played") return;
      remember(answer);
      computerMoves(run);
    },
  });
  board.send({ op: "board" });
  board.say("info", how);
  $("durak-download").disabled = false;
  host.dataset.game = String(run);
  remember(null);
  computerMoves(run);
  host.scrollIntoView({ behavior: "smooth", block: "start" });
}

async function newGame() {
  try {
    await ready();
    const players = Number($("durak-players").value);
    // ?seed=N deals a chosen deck (for tests); without it the engine deals at random.
    const seed = params.has("seed") ? Number(params.get("seed")) : null;
    // JSON across the boundary: a JavaScript null would reach Python as a proxy, not None.
    const session = engine.web.Match.from_page(JSON.stringify({
      op: "new", profile: $("durak-profile").value, players, seed,
      opponent: $("durak-opponent").value, names: NAMES.slice(0, players),
    }));
    const rules = $("durak-profile").selectedOptions[0].textContent;
    begin(session, `New game: ${rules}, ${players} players. You are Anna, at the bottom.`);
  } catch (error) {
    tell(`The game could not start: ${shortError(error)}. Press New game to try again.`,
         true);
  }
}

function loadText(text, how, opponent = null) {
  const data = JSON.parse(text);
  const players = data?.rules?.players;
  const session = engine.web.Match.from_page(JSON.stringify({
    op: "load", text, opponent: opponent || $("durak-opponent").value, seat: 0,
    names: NAMES.slice(0, typeof players === "number" ? players : 2),
  }));
  begin(session, how);
}

async function resume() {
  const saved = stored();
  if (!saved) return;
  try {
    await ready();
    loadText(saved.text, "The saved game goes on.", saved.opponent);
  } catch (error) {
    tell(`The saved game could not be resumed: ${shortError(error)}. Press "Resume the ` +
         "saved game\" to try again, or New game.", true);
  }
}

async function loadFile(event) {
  const file = event.target.files[0];
  if (!file) return;
  try {
    const text = await file.text();
    await ready();
    loadText(text, `Loaded ${file.name}: the game goes on.`);
  } catch (error) {
    tell(`${file.name} is not a saved game that can be resumed: ${shortError(error)}`, true);
  } finally {
    event.target.value = "";
  }
}

function download() {
  if (!match) return;
  const saved = JSON.parse(match.request(JSON.stringify({ op: "save" })));
  const blob = new Blob([saved.text + "\n"], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "durak-game.json";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  tell("Saved to durak-game.json: resume it here with Load a saved game, or in a terminal " +
       "with durak-spec play --load durak-game.json.");
}

if (form) {
  form.addEventListener("submit", (event) => event.preventDefault());
  $("durak-new").addEventListener("click", newGame);
  $("durak-resume").addEventListener("click", resume);
  $("durak-download").addEventListener("click", download);
  $("durak-load").addEventListener("change", loadFile);
  if (reviewButton) reviewButton.addEventListener("click", reviewGame);
  const saved = stored();
  if (saved && !saved.over) $("durak-resume").hidden = false;
  $("durak-new").disabled = false;
  tell(status.dataset.ready || "");
  // Start the engine while the reader looks at the form, so that New game answers at once.
  const warm = () => ready().then(
    () => { if (!match) tell("The engine is ready: press New game."); },
    (error) => { engine = null; console.warn("the engine did not start ahead:", error); });
  if ("requestIdleCallback" in window) requestIdleCallback(warm, { timeout: 2000 });
  else setTimeout(warm, 500);
}
