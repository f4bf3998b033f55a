// "Try it" on every picture of a position: the picture becomes a live board where the reader
// plays the cards of every player, and the reference engine (durak-engine.mjs) answers.
// The page stays light: this script only adds the buttons; the engine loads on the first
// click. Each picture carries its position (data-position, the saved-position JSON), the
// players' names (data-players) and, for an example, the example's moves (data-moves).

// The board and the engine's loader are imported on the first click, not with the page.
function make(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.textContent = text;
  return node;
}

function exampleOf(figure) {
  const article = figure.closest("article.durak-example");
  return article ? article.id : null;
}

async function tryIt(figure, button) {
  button.disabled = true;
  figure.querySelector(":scope > .durak-try-status")?.remove();  // a failed try before
  const status = make("p", { class: "durak-try-status", role: "status", "aria-live": "polite" });
  button.after(status);
  let engine, LiveBoard, loader = null;
  // One short line for the reader (the details go to the console).
  const shortError = (error) => loader ? loader.shortError(error)
    : (console.error(error), String(error?.message ?? error).split("\n")[0]);
  try {
    status.textContent = "Loading…";
    let boards;
    [loader, boards] = await Promise.all([import("./durak-engine.mjs"),
                                                import("./durak-board.mjs")]);
    LiveBoard = boards.LiveBoard;
    engine = await loader.loadEngine((text) => { status.textContent = text; });
  } catch (error) {
    status.textContent = `The engine could not start: ${shortError(error)}. ` +
      "Press Try it to try again.";
    status.classList.add("error");
    button.disabled = false;
    return;
  }
  let session;
  try {
    session = engine.web.Board.from_page(figure.dataset.position, figure.dataset.players || "",
                                         figure.dataset.moves || "");
  } catch (error) {
    status.textContent = `This position cannot be loaded: ${shortError(error)}`;
    status.classList.add("error");
    return;
  }
  status.remove();
  button.remove();
  const host = make("div", { class: "durak-live-host" });
  const svg = figure.querySelector(":scope > svg");
  if (svg) svg.replaceWith(host); else figure.prepend(host);
  const caption = figure.querySelector(":scope > figcaption");
  if (caption) caption.hidden = true;
  const tools = [
    { op: "undo", label: "Undo", title: "take the last move back" },
    { op: "reset", label: "Reset", title: "back to the example's position" },
  ];
  const moves = JSON.parse(figure.dataset.moves || "[]");
  if (moves.length) {
    tools.push({ op: "example", label: moves.length > 1 ? "Show the example's next move"
                                                        : "Show the example's move",
                 title: "play the move the example makes, as the engine answered it" });
  }
  const board = new LiveBoard(host, session, {
    engine, tools,
    onDraw: (state) => {
      const next = tools.find((t) => t.op === "example");
      if (next && state.example) {
        next.button.textContent = state.example.next
          ? `Show the example's move: ${state.example.next}` : "Show the example's move again";
      }
    },
  });
  board.send({ op: "board" });
  const example = exampleOf(figure);
  board.say("info", example
    ? `Example ${example} is live: tap a card to play it, or use the buttons.`
    : "This position is live: tap a card to play it, or use the buttons.");
  figure.dataset.live = "ready";
  host.querySelector(".durak-live-picture g.card[tabindex]")?.focus({ preventScroll: true });
}

let warming = null;
function warmUp() {
  if (warming) return;
  warming = import("./durak-engine.mjs").then((loader) => loader.loadEngine())
    .catch((error) => { warming = null; console.warn("the engine did not start ahead:", error); });
}

function addButtons() {
  for (const figure of document.querySelectorAll("figure.durak-position[data-position]")) {
    if (figure.querySelector(":scope > .durak-try")) continue;
    const button = make("button", { type: "button", class: "durak-try" }, "▶ Try it");
    button.setAttribute("aria-label", "Try this position: play the cards yourself");
    button.addEventListener("click", () => tryIt(figure, button));
    // A pointer on the button or the focus on it starts the engine before the click.
    button.addEventListener("pointerenter", warmUp, { once: true });
    button.addEventListener("focus", warmUp, { once: true });
    const caption = figure.querySelector(":scope > figcaption");
    if (caption) caption.before(button); else figure.append(button);
  }
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", addButtons);
} else {
  addButtons();
}
