"""Benchmark of the reference engine in the browser: the first "Try it" and every move.

Serves a built site (``book/_build/html`` by default, built with the packed engine) on
127.0.0.1 and drives Debian's Chromium (headless, through Playwright) with a persistent
profile, as a reader's browser keeps its cache:

* **first Try it**, cold (a new profile: nothing cached) and warm (the same profile again,
  files and compiled WebAssembly from the cache): from the click on "Try it" of an example
  of the beating chapter until its live board is drawn, with the engine's own split
  (starting the runtime, importing the package);
* **the download** of the first Try it: every file the page fetched after the click;
* **each move**: a whole game against the heuristic player on "Play a game" at pace 0,
  every request timed in the page from the click (or the computer's turn) until the board
  is drawn again: the engine's answer (Python) and the drawing (the page);
* **the review** of that game: from the click on "Review this game" until the coach's
  marked moves are drawn (the reader's seat, the page's small sample of deals).

Each configuration runs ``--runs`` times (a fresh profile each); medians and ranges are
printed as Markdown for the README, or JSON with ``--json``. Timings on this shared
two-core machine vary with the load; the output names the load average.

    python benchmarks/bench_browser.py [--site book/_build/html] [--runs 3] [--json]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book"))
import screenshots  # noqa: E402  (book/screenshots.py: Debian's Chromium and its flags)

sys.path.pop(0)


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm", ".mjs": "text/javascript"}

    def log_message(self, format: str, *args: Any) -> None:
        pass


def first_try(context: Any, base: str, site: Path) -> dict[str, Any]:
    page = context.new_page()
    fetched: list[str] = []
    page.goto(base + "beating.html", wait_until="networkidle")
    page.on("request", lambda r: fetched.append(r.url))
    button = page.locator("figure#pos-BEAT-1\\.1 button.durak-try")
    button.scroll_into_view_if_needed()
    started = time.perf_counter()
    button.click()
    page.wait_for_selector("figure#pos-BEAT-1\\.1[data-live=ready]", state="attached",
                           timeout=180_000)
    seconds = time.perf_counter() - started
    engine = page.evaluate("window.durakEngine.times")
    files = {u[len(base):].split("?", 1)[0] for u in fetched if u.startswith(base)}
    size = sum((site / f).stat().st_size for f in files if (site / f).is_file())
    page.close()
    return {"click_to_board_ms": seconds * 1000, "runtime_ms": engine["runtime_ms"],
            "import_ms": engine["import_ms"], "download_bytes": size, "files": len(files)}


def hovered_try(context: Any, base: str) -> float:
    """Click to live board of a first Try it whose reader pointed at it for a second
    before clicking (the page starts the engine when the pointer reaches the button)."""
    page = context.new_page()
    page.goto(base + "beating.html", wait_until="networkidle")
    button = page.locator("figure#pos-BEAT-1\\.1 button.durak-try")
    button.scroll_into_view_if_needed()
    button.hover()
    page.wait_for_timeout(1000)
    started = time.perf_counter()
    button.click()
    page.wait_for_selector("figure#pos-BEAT-1\\.1[data-live=ready]", state="attached",
                           timeout=180_000)
    seconds = time.perf_counter() - started
    page.close()
    return seconds * 1000


def new_game_board(context: Any, base: str) -> float:
    """Opening the Play page as a visitor does (no parameters) to the board of a New game
    pressed as soon as the button can be pressed."""
    page = context.new_page()
    started = time.perf_counter()
    page.goto(base + "play.html")
    page.click("#durak-new", timeout=180_000)
    page.wait_for_function("document.querySelector('#durak-game-status.error') || "
                           "document.querySelector('#durak-game svg')", timeout=180_000)
    seconds = time.perf_counter() - started
    page.close()
    return seconds * 1000


def a_game(context: Any, base: str) -> tuple[list[dict[str, Any]], float]:
    """The timed requests of a whole game, and the review of the game in ms."""
    page = context.new_page()
    page.goto(base + "play.html?pace=0&seed=7")
    page.select_option("#durak-players", "3")
    page.click("#durak-new")
    screenshots.play_reader_moves(page, timeout_ms=180_000)
    timings = page.evaluate("window.durakTimings")
    page.wait_for_selector("#durak-review[data-state=offered]", timeout=180_000)
    started = time.perf_counter()
    page.click("#durak-review-start")
    page.wait_for_selector("#durak-review[data-state=done]", state="attached",
                           timeout=180_000)
    review_ms = (time.perf_counter() - started) * 1000
    page.close()
    return [t for t in timings if t["op"] in ("tap", "move", "action", "computer")
            and t["result"] in ("played", "refused", "choose", "target")], review_ms


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median": statistics.median(ordered), "min": ordered[0], "max": ordered[-1],
            "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--site", default=str(ROOT / "book" / "_build" / "html"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    site = Path(args.site).resolve()
    if not (site / "engine" / "manifest.json").is_file():
        print(f"{site} has no engine: pack it (python book/web/pack.py), then build the book",
              file=sys.stderr)
        return 2
    executable = screenshots.find_browser()
    if executable is None:
        print("no browser: install Debian's chromium package and pip install playwright",
              file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    cold: list[dict[str, Any]] = []
    warm: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    hovered: list[float] = []
    boards: list[float] = []
    reviews: list[float] = []
    try:
        with sync_playwright() as driver:
            for run in range(args.runs):
                with tempfile.TemporaryDirectory(prefix="durak-bench-") as profile:
                    for visit in (cold, warm):
                        context = driver.chromium.launch_persistent_context(
                            profile, executable_path=executable, headless=True,
                            args=list(screenshots.CHROMIUM_ARGS),
                            viewport={"width": 1280, "height": 900})
                        try:
                            if visit is cold:
                                boards.append(new_game_board(context, base))
                            visit.append(first_try(context, base, site))
                            if visit is warm:
                                played, review_ms = a_game(context, base)
                                moves.extend(played)
                                reviews.append(review_ms)
                                hovered.append(hovered_try(context, base))
                        finally:
                            context.close()
                print(f"run {run + 1}: cold {cold[-1]['click_to_board_ms']:.0f} ms, warm "
                      f"{warm[-1]['click_to_board_ms']:.0f} ms", file=sys.stderr)
    finally:
        server.shutdown()
    result = {
        "load_average": os.getloadavg()[0],
        "cold": {k: summary([r[k] for r in cold]) for k in cold[0]},
        "warm": {k: summary([r[k] for r in warm]) for k in warm[0]},
        "new_game_board_ms": summary(boards),
        "hovered_try_ms": summary(hovered),
        "review_ms": summary(reviews),
        "moves": {"count": len(moves),
                  "engine_ms": summary([m["engine_ms"] for m in moves]),
                  "drawn_ms": summary([m["drawn_ms"] for m in moves])},
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"Load average {result['load_average']:.1f}; {args.runs} runs.\n")
    print("| First Try it | click to live board, ms | runtime ms | import ms | files |")
    print("|---|--:|--:|--:|--:|")
    for name in ("cold", "warm"):
        r = result[name]
        c = r["click_to_board_ms"]
        size = r["download_bytes"]["median"] / 2**20
        where = "downloaded" if name == "cold" else "from the cache"
        print(f"| {name} | {c['median']:,.0f} ({c['min']:,.0f}–{c['max']:,.0f}) | "
              f"{r['runtime_ms']['median']:,.0f} | {r['import_ms']['median']:,.0f} | "
              f"{size:.1f} MiB {where} |")
    b, h = result["new_game_board_ms"], result["hovered_try_ms"]
    print(f"\nPlay page opened (no parameters) to the board of a New game, nothing cached: "
          f"{b['median']:,.0f} ms ({b['min']:,.0f}–{b['max']:,.0f}).")
    print(f"First Try it after a second's pointing at it: {h['median']:,.0f} ms "
          f"({h['min']:,.0f}–{h['max']:,.0f}) from the click.")
    r = result["review_ms"]
    print(f"Review this game (the coach on the reader's moves of the 3-player game): "
          f"{r['median']:,.0f} ms ({r['min']:,.0f}–{r['max']:,.0f}) from the click.")
    m = result["moves"]
    print(f"\nMoves ({m['count']} requests over {args.runs} games, heuristic opponents):\n")
    print("| per move, ms | median | p95 | max |")
    print("|---|--:|--:|--:|")
    for key, words in (("engine_ms", "the engine's answer"), ("drawn_ms", "answer and drawing")):
        s = m[key]
        print(f"| {words} | {s['median']:.1f} | {s['p95']:.1f} | {s['max']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
