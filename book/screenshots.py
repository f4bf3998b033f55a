"""Screenshots of the built rules book in headless Chromium, with objective checks.

Usage (from the project's root, after building the book)::

    python book/screenshots.py [BUILT_HTML_DIR] [OUTPUT_DIR] [--page NAME ...]

BUILT_HTML_DIR defaults to ``book/_build/html``, OUTPUT_DIR to ``book/_build/screenshots``.
Every page of :data:`PAGES` is opened at a desktop width (1280 px) and a phone width
(390 px), in light and in dark mode (the browser's colour scheme, which the theme follows),
and for each of the four views:

* a PNG of the top of the page is saved for people to look at (``beating-phone-dark.png``);
* the contrast ratio (WCAG 2) of rule statements, example steps and body text against the
  background they are drawn on is measured: at least 4.5 (:data:`MIN_CONTRAST`);
* at 390 px the page must not scroll sideways (``scrollWidth`` no wider than the window);
* at 1280 px no table may be wider than the text column (scroll inside its box);
* at 390 px every text of every picture must be drawn at least :data:`MIN_LABEL_PX` CSS
  pixels high (font size times the picture's scale).

The browser is Debian's ``chromium`` driven by Playwright (``pip install playwright``;
``playwright install`` is never needed: the system browser is used). The run loads nothing
from the network. :func:`check_site` is what the test suite calls; the command prints one
line per view and exits 1 if any check failed, 2 without a browser or Playwright.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
PAGES: tuple[str, ...] = ("intro", "a-game", "beating", "transfer", "variants-matrix",
                          "tips-evidence", "implementers", "rule-index", "play")
WIDTHS: tuple[tuple[str, int, int], ...] = (("desktop", 1280, 900), ("phone", 390, 844))
MODES: tuple[str, ...] = ("light", "dark")
MIN_CONTRAST = 4.5
MIN_LABEL_PX = 9.0
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS: tuple[str, ...] = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)

# What is measured in the page: rule statements, example steps, body paragraphs.
_MEASURE = r"""
() => {
  function rgba(text) {
    const m = text.match(/rgba?\(([^)]+)\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  }
  function background(el) {
    let colour = [255, 255, 255, 0];
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let base = [255, 255, 255];
    const root = rgba(getComputedStyle(document.documentElement).backgroundColor);
    if (root[3] > 0) base = root.slice(0, 3);
    for (let i = layers.length - 1; i >= 0; i--) {
      const [r, g, b, a] = layers[i];
      base = [r * a + base[0] * (1 - a), g * a + base[1] * (1 - a), b * a + base[2] * (1 - a)];
    }
    return base;
  }
  function lum(c) {
    const f = v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  }
  function contrast(el) {
    const fg = rgba(getComputedStyle(el).color).slice(0, 3);
    const bg = background(el);
    const a = lum(fg), b = lum(bg);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  }
  const groups = {
    statement: '.durak-statement p, .durak-statement li',
    step: '.durak-steps li',
    text: 'main p',
  };
  const worst = {};
  for (const [name, selector] of Object.entries(groups)) {
    const found = Array.from(document.querySelectorAll(selector)).slice(0, 60)
      .filter(e => e.offsetParent !== null && e.textContent.trim());
    worst[name] = found.length ? Math.min(...found.map(contrast)) : null;
  }
  let smallest = null;
  for (const svg of document.querySelectorAll('figure svg')) {
    const box = svg.viewBox && svg.viewBox.baseVal;
    const width = svg.getBoundingClientRect().width;
    if (!box || !box.width || !width) continue;
    const scale = width / box.width;
    for (const t of svg.querySelectorAll('text')) {
      const px = parseFloat(t.getAttribute('font-size') || '12') * scale;
      if (smallest === null || px < smallest) smallest = px;
    }
  }
  // Tables in their scroll boxes: at desktop width none may need to scroll sideways.
  const wideTables = Array.from(document.querySelectorAll('.durak-scroll'))
    .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
    .map(e => `${e.scrollWidth - e.clientWidth} px`);
  return {
    contrast: worst,
    wideTables,
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    smallestLabel: smallest,
  };
}
"""


@dataclass
class View:
    """One page at one width in one mode, with what was measured and what failed."""

    page: str
    width: str
    mode: str
    png: Path
    measured: dict[str, Any]
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        contrast = self.measured["contrast"]
        shown = ", ".join(f"{k} {v:.1f}" for k, v in contrast.items() if v is not None)
        label = self.measured["smallestLabel"]
        label_text = f", smallest picture text {label:.1f} px" if label is not None else ""
        verdict = "ok" if not self.problems else "FAILED: " + "; ".join(self.problems)
        return (f"{self.page} {self.width} {self.mode}: contrast {shown or 'n/a'}, "
                f"page {self.measured['scrollWidth']}/{self.measured['innerWidth']} px"
                f"{label_text} — {verdict}")


def find_browser() -> str | None:
    """Debian's Chromium, if it and Playwright are installed; else ``None``."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return None
    if Path(CHROMIUM).is_file():
        return CHROMIUM
    return shutil.which("chromium")


@contextmanager
def browser_session(executable: str | None = None) -> Iterator[Any]:
    """A headless Chromium under Playwright (yields the browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable or find_browser(),
                                         args=list(CHROMIUM_ARGS), headless=True)
        try:
            yield browser
        finally:
            browser.close()


def play_reader_moves(page: Any, until: int | None = None, timeout_ms: int = 120_000) -> int:
    """On the game page (``play.html``), play the reader's moves until the game is over or
    ``until`` moves were made: the first playable card (and its first choice, if the board
    asks which attack card to cover), else the first legal button; after each move wait
    until the computer has answered. Returns how many moves were made. The test suite and
    ``benchmarks/bench_browser.py`` both play games this way."""
    game = page.locator("#durak-game")
    for made in range(400):
        page.wait_for_selector("#durak-game[data-thinking=no]", state="attached",
                               timeout=timeout_ms)
        if game.get_attribute("data-state") == "over" or made == until:
            return made
        history = int(game.get_attribute("data-history") or 0)
        cards = game.locator("g.hand g.card.live-playable")
        if cards.count():
            # a fanned hand covers each card's middle with the next card: a reader taps
            # the strip of it that shows, its top-left corner
            cards.first.click(position={"x": 6, "y": 12})
            choices = game.locator(".durak-live-choices button.durak-choice:not(.cancel)")
            if choices.count():
                choices.first.click()
        else:
            game.locator("button.durak-move.legal").first.click()
        page.wait_for_function(f"Number(document.getElementById('durak-game')"
                               f".dataset.history) > {history}")
    raise AssertionError("the game did not end within 400 of the reader's moves")


MAX_SCREENS = 10
"""No chapter page may be longer than this many windows at desktop width (1280 x 900):
a chapter is read in one sitting (issue 20)."""

_SETTLED_HEIGHT = """
async () => {
  // The height once the fonts are in and the page's scripts have stopped changing it
  // (the "Try it" buttons are added after the load): the same figure three times running.
  await document.fonts.ready;
  let last = -1, same = 0;
  for (let i = 0; i < 40 && same < 3; i++) {
    await new Promise(r => setTimeout(r, 150));
    const now = document.documentElement.scrollHeight;
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return last;
}
"""


def page_height(page: Any) -> int:
    """The height of the open page in CSS pixels (``scrollHeight``), once it has settled."""
    return int(page.evaluate(_SETTLED_HEIGHT))


def judge(view: View) -> None:
    """Fill ``view.problems`` from what was measured."""
    for name, value in view.measured["contrast"].items():
        if value is not None and value < MIN_CONTRAST:
            view.problems.append(f"{name} contrast {value:.2f} < {MIN_CONTRAST}")
    if view.width == "desktop" and view.measured["wideTables"]:
        view.problems.append("a table is wider than the text column by "
                             + ", ".join(view.measured["wideTables"]))
    if view.width == "phone":
        if view.measured["scrollWidth"] > view.measured["innerWidth"]:
            view.problems.append(f"the page scrolls sideways ({view.measured['scrollWidth']} px "
                                 f"wide in a {view.measured['innerWidth']} px window)")
        label = view.measured["smallestLabel"]
        if label is not None and label < MIN_LABEL_PX:
            view.problems.append(f"picture text {label:.1f} px < {MIN_LABEL_PX} px")


def check_site(html_dir: Path, out_dir: Path, pages: Sequence[str] = PAGES,
               executable: str | None = None) -> list[View]:
    """Every page at both widths in both modes: screenshots written, checks judged.

    Each of the four views (a width in a mode) has a fresh browser context of its own, in
    which one tab opens the pages one after the other, as a reader goes from page to page;
    a context per page would start a browser profile 36 times for the same pictures."""
    out_dir.mkdir(parents=True, exist_ok=True)
    sources = [html_dir / f"{page}.html" for page in pages]
    for source in sources:
        if not source.is_file():
            raise FileNotFoundError(f"{source} does not exist: build the book first")
    views: dict[tuple[str, str, str], View] = {}
    with browser_session(executable) as browser:
        for width_name, width, height in WIDTHS:
            for mode in MODES:
                context = browser.new_context(viewport={"width": width, "height": height},
                                              color_scheme=mode, offline=True)
                try:
                    tab = context.new_page()
                    for page, source in zip(pages, sources, strict=True):
                        tab.goto(source.resolve().as_uri(), wait_until="load")
                        tab.wait_for_timeout(150)
                        png = out_dir / f"{page}-{width_name}-{mode}.png"
                        tab.screenshot(path=str(png))
                        view = View(page, width_name, mode, png, tab.evaluate(_MEASURE))
                        judge(view)
                        views[page, width_name, mode] = view
                finally:
                    context.close()
    # in the order of the pages, each page's four views together, as before
    return [views[page, width_name, mode] for page in pages
            for width_name, _, _ in WIDTHS for mode in MODES]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("html", nargs="?", default=str(ROOT / "_build" / "html"))
    parser.add_argument("out", nargs="?", default=str(ROOT / "_build" / "screenshots"))
    parser.add_argument("--page", action="append", default=None,
                        help="a page to check (without .html); default: " + ", ".join(PAGES))
    args = parser.parse_args(argv)
    executable = find_browser()
    if executable is None:
        print("no browser: install Debian's chromium package and pip install playwright",
              file=sys.stderr)
        return 2
    try:
        views = check_site(Path(args.html), Path(args.out), args.page or PAGES, executable)
    except (OSError, RuntimeError) as error:
        print(f"screenshots failed: {error}", file=sys.stderr)
        return 1
    for view in views:
        print(view.line())
    print(f"screenshots in {args.out}")
    return 1 if any(v.problems for v in views) else 0


if __name__ == "__main__":
    sys.exit(main())
