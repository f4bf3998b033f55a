"""The rules website in a real browser: the reference engine running in the page (Pyodide).

Headless Chromium (Debian's package, driven by Playwright, never Playwright's own download)
opens the built book (``built_book``, with the packed engine) over a local HTTP server and:

* plays as a visitor does, with no URL parameters: "New game" under each rule set of the
  menu, a move in each, and one game to its end;
* tries an example: "Try it", a legal move changes the position, an illegal one is refused
  with the rule's ID linked to its section, "reset", the example's own move, the keyboard;
* plays a transfer from an example of the transfer chapter, by touch at phone width;
* plays a whole game against the heuristic player on "Play a game", saves it to a file
  midway and at the end, loads the files with ``durak-spec play --load``, loads one back
  into the page, and resumes the game the page kept in the browser;
* plays a game to its end as a visitor and asks the coach: "Review this game" shows its
  progress, then at most five marked moves with their reasons, pictures and tip links;
* measures every page of the book but the rule index at 1280 x 900: none is longer than
  ten screens;
* takes screenshots of live boards at desktop and phone width in light and dark mode
  (``book/_build/screenshots/live-*.png``) and checks their contrast and width.

No request may leave the local server, and any console error or uncaught exception fails
the test that saw it. Skipped, saying why, without Chromium, Playwright,
Node or npm; in CI (``CI=true``) a missing engine is a failure.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import pytest
from book_build import BOOK, IN_CI, NO_ENGINE

from durak_spec.book.site import PAGE_OF_CHAPTER
from durak_spec.game.persist import VERSION

sys.path.insert(0, str(BOOK))
import screenshots  # book/screenshots.py: the browser and its checks

sys.path.remove(str(BOOK))

SHOTS = BOOK / "_build" / "screenshots"
LOAD_MS = 120_000  # the first start of the engine on a busy two-core machine


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Python's file server, quiet, with the MIME types Pyodide needs spelled out."""

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm", ".mjs": "text/javascript"}

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site(built_book: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """The built book over HTTP on 127.0.0.1 (a free port); yields the base URL."""
    why = request.config.stash.get(NO_ENGINE, "the book was not built")
    if why is not None:
        if IN_CI:
            pytest.fail(f"the site has no engine in CI: {why}")
        pytest.skip(f"the site has no engine: {why}")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Handler, directory=str(built_book)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = screenshots.find_browser()
    if executable is None:
        if IN_CI:
            pytest.fail("no Chromium or no Playwright in CI")
        pytest.skip("no Chromium or no Playwright: install Debian's chromium package and "
                    "pip install playwright")
    with screenshots.browser_session(executable) as session:
        yield session


REQUESTS: dict[int, list[str]] = {}
"""Every URL each open page requested (by ``id(page)``), for the checks of :func:`tab`."""


@contextmanager
def tab(browser: Any, site: str, *, width: int = 1280, height: int = 900,
        mode: str = "light", touch: bool = False) -> Iterator[Any]:
    """A page in a fresh context (a fresh profile: nothing stored) that fails the test on
    any console error or uncaught exception and refuses to leave the site."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme=mode, accept_downloads=True, has_touch=touch,
                                  is_mobile=touch)
    page = context.new_page()
    page.set_default_timeout(LOAD_MS)  # a busy two-core machine: no wait of 30 s suffices
    errors: list[str] = []
    requests = REQUESTS.setdefault(id(page), [])
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    page.on("console", lambda message: errors.append(f"console {message.type}: {message.text}")
            if message.type in ("error", "assert") else None)
    page.on("response", lambda r: errors.append(f"HTTP {r.status}: {r.url}")
            if r.status >= 400 else None)
    page.on("request", lambda r: requests.append(r.url))
    try:
        yield page
        assert not errors, errors
        outside = [u for u in requests if not u.startswith((site, "data:", "blob:"))]
        assert not outside, f"requests outside the site: {outside}"
    finally:
        REQUESTS.pop(id(page), None)
        context.close()


def esc(ident: str) -> str:
    return ident.replace(".", "\\.")


def start_board(page: Any, ident: str) -> Any:
    figure = page.locator(f"figure#{esc(ident)}")
    figure.evaluate("f => { for (let e = f; e; e = e.parentElement) "
                    "if (e.tagName === 'DETAILS') e.open = true; }")  # "more examples"
    figure.scroll_into_view_if_needed()
    figure.locator("button.durak-try").click()
    page.wait_for_selector(f"figure#{esc(ident)}[data-live=ready]", state="attached",
                           timeout=LOAD_MS)
    return figure


def live(figure: Any, attribute: str) -> str | None:
    """An attribute of the live board in ``figure`` (data-history, data-message, ...)."""
    value = figure.locator(".durak-live-host").get_attribute(attribute)
    return None if value is None else str(value)


def label(figure: Any) -> str:
    return str(figure.locator(".durak-live-picture svg").get_attribute("aria-label"))


def anchor_exists(site_dir: Path, href: str, base: str) -> bool:
    page, _, fragment = href[len(base):].partition("#")
    return f'id="{fragment}"' in (site_dir / page).read_text(encoding="utf-8")


def new_game(page: Any) -> None:
    """Press New game and wait until the new game's board is drawn."""
    before = page.locator("#durak-game").get_attribute("data-game") or "0"
    page.click("#durak-new")
    page.wait_for_function("(before) => document.querySelector('#durak-game-status.error') || "
                           "((document.getElementById('durak-game').dataset.game || '0') !== "
                           "before && document.querySelector('#durak-game svg'))", arg=before)
    status = page.locator("#durak-game-status")
    assert "error" not in (status.get_attribute("class") or ""), status.inner_text()


def test_a_visitor_starts_a_game_under_each_rule_set_and_finishes_one(
        site: str, browser: Any) -> None:
    """A visitor's way: the site's address, How to play read to its end, then the link to
    the Play page (no ?seed=, no ?pace=, nothing stored), a game under each rule set."""
    with tab(browser, site) as page:
        page.goto(site)  # the address of the site: it opens How to play
        page.wait_for_url("**/intro.html")
        assert "How to play" in page.locator("h1").first.inner_text()
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.locator('a[href="play.html"]').filter(has_text="Play a game").first.click()
        page.wait_for_url("**/play.html")
        assert "?" not in page.url
        game = page.locator("#durak-game")
        page.select_option("#durak-pace", "300")  # "quick": the fastest pace offered
        profiles = page.locator("#durak-profile option").evaluate_all(
            "options => options.map(o => o.value)")
        assert len(profiles) >= 3
        for name in profiles:
            page.select_option("#durak-profile", name)
            page.select_option("#durak-players", "2")
            new_game(page)
            assert "Traceback" not in page.locator("body").inner_text()
            assert play_on(page, until_human_moves=1) == 1, name
            assert int(str(game.get_attribute("data-actions"))) >= 1
        page.select_option("#durak-profile", profiles[0])
        new_game(page)
        made = play_on(page)
        assert made > 0 and game.get_attribute("data-state") == "over"
        turn = game.locator(".durak-live-turn").inner_text()
        assert "is the durak" in turn or "a draw" in turn
        # The list of moves has room for three-digit numbers ("100."), not only for two.
        room = page.evaluate(_NUMBER_ROOM)
        assert room["indent"] >= room["needed"], room


_NUMBER_ROOM = r"""
() => {
  const log = document.querySelector("#durak-game .durak-live-log");
  const item = log.querySelector("li") || log;
  const probe = document.createElement("span");
  probe.textContent = "100. ";
  probe.style.font = getComputedStyle(item).font;
  probe.style.position = "absolute";
  document.body.append(probe);
  const needed = probe.getBoundingClientRect().width;
  probe.remove();
  return { indent: parseFloat(getComputedStyle(log).paddingLeft), needed };
}
"""


def test_an_example_is_tried_move_by_move(site: str, browser: Any, built_book: Path) -> None:
    with tab(browser, site) as page:
        page.goto(site + "beating.html")
        assert page.locator("figure.durak-position button.durak-try").count() >= 10
        page.wait_for_load_state("networkidle")
        assert not [u for u in REQUESTS[id(page)] if "/engine/" in u]  # loaded on Try it only
        assert page.evaluate("window.durakEngine === undefined")
        figure = start_board(page, "pos-BEAT-1.1")
        assert [u for u in REQUESTS[id(page)] if u.endswith("/engine/pyodide.asm.wasm")]
        start = label(figure)
        assert live(figure, "data-history") == "0"
        # A legal move: Boris's only playable card covers the seven; the bout ends.
        playable = figure.locator("g.hand g.card.live-playable")
        assert playable.count() == 1
        assert playable.get_attribute("data-card") == "9♣"
        playable.click()
        assert live(figure, "data-history") == "1"
        assert live(figure, "data-message") == "played"
        assert "Boris: cover 7♣ with 9♣" in figure.locator(".durak-live-message").inner_text()
        assert label(figure) != start and "discard: 2 cards" in label(figure)
        # Back, then an illegal move: a card of Anna's, refused with a linked rule.
        figure.locator("button.tool-reset").click()
        assert label(figure) == start and live(figure, "data-history") == "0"
        figure.locator('g.hand[data-seat="0"] g.card.live-blocked').first.click()
        assert live(figure, "data-message") == "refused"
        rule = live(figure, "data-rule")
        assert rule and re.fullmatch(r"[A-Z]+-\d+", rule)
        link = figure.locator(".durak-live-message a.rule-ref")
        assert link.inner_text() == rule
        href = str(link.evaluate("a => a.href"))
        assert href.endswith(f"#{rule}") and anchor_exists(built_book, href, site)
        assert label(figure) == start and live(figure, "data-history") == "0"
        # The example's own move, then the keyboard: Tab to the card, Enter plays it.
        figure.locator("button.tool-example").click()
        assert "Boris: cover 7♣ with 9♣" in figure.locator(".durak-live-message").inner_text()
        figure.locator("button.tool-undo").click()
        assert label(figure) == start
        card = figure.locator("g.hand g.card.live-playable")
        card.focus()
        page.keyboard.press("Enter")
        assert live(figure, "data-history") == "1"
        timings = page.evaluate("window.durakEngine.times")
        assert timings["total_ms"] > 0


def test_an_examples_refused_move_names_the_rule_it_breaks(site: str, browser: Any) -> None:
    with tab(browser, site) as page:
        page.goto(site + "beating.html")
        refused = page.locator("article.durak-example:has(.verdict.rejected)"
                               ":has(figure[data-moves])")
        article = refused.first
        ident = str(article.get_attribute("id"))
        verdict = str(article.locator(".verdict.rejected").first.text_content())
        expected = re.findall(r"\(([A-Z]+-\d+)\)", verdict)[-1]
        figure = start_board(page, f"pos-{ident}")
        moves = json.loads(str(figure.get_attribute("data-moves")))
        for _ in moves:
            figure.locator("button.tool-example").click()
            if live(figure, "data-message") == "refused":
                break
        assert live(figure, "data-rule") == expected, (ident, verdict)


def test_a_transfer_on_a_phone_by_touch(site: str, browser: Any) -> None:
    with tab(browser, site, width=390, height=844, touch=True) as page:
        page.goto(site + "transfer.html")
        figure = start_board(page, "pos-TRANSFER-1.1")
        # Boris passes the eight of spades on with the eight of hearts: a tap on it.
        figure.locator('g.hand[data-seat="1"] g.card[data-card="8♥"]').tap()
        message = figure.locator(".durak-live-message").inner_text()
        assert "Boris: transfer 8♥" in message and "Vera defends now" in message
        assert live(figure, "data-history") == "1"
        assert "Vera defends" in figure.locator(".durak-live-turn").inner_text()
        # The list of legal moves plays as well: Vera covers.
        figure.locator("details.durak-live-all > summary").tap()
        cover = figure.locator(".durak-live-moves button", has_text="Vera: cover").first
        text = cover.inner_text()
        cover.tap()
        assert text in figure.locator(".durak-live-message").inner_text()
        assert live(figure, "data-history") == "2"


LOOKED_UP = {"rule-index"}
"""Pages that are looked things up in rather than read through: the rule index, a table of
every ID (sixteen screens at 1280 px)."""


def test_no_chapter_is_longer_than_ten_screens_at_desktop_width(site: str,
                                                                  browser: Any) -> None:
    width, height = 1280, 900
    toc = re.findall(r"(?:root|file): (\S+)", (BOOK / "_toc.yml").read_text(encoding="utf-8"))
    assert set(PAGE_OF_CHAPTER.values()) <= set(toc)  # every chapter of the index is read
    heights: dict[str, int] = {}
    with tab(browser, site, width=width, height=height) as page:
        for name in sorted(set(toc) - LOOKED_UP):
            page.goto(f"{site}{name}.html")
            heights[name] = screenshots.page_height(page)
    assert len(heights) >= 25 and min(heights.values()) > height  # the pages were measured
    over = {name: f"{px / height:.1f} screens ({px} px)" for name, px in heights.items()
            if px > screenshots.MAX_SCREENS * height}
    assert not over, f"chapters longer than {screenshots.MAX_SCREENS} screens at " \
        f"{width}x{height}: {over}"


def play_on(page: Any, until_human_moves: int | None = None) -> int:
    """Play the reader's moves until the game is over or ``until_human_moves`` were made."""
    return int(screenshots.play_reader_moves(page, until_human_moves, LOAD_MS))


def download(page: Any, path: Path) -> dict[str, Any]:
    with page.expect_download() as saved:
        page.click("#durak-download")
    saved.value.save_as(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "durak-spec/game" and data["version"] == VERSION
    return dict(data)


def terminal(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "durak_spec", "play", "--load", str(path)],
                          input="", capture_output=True, text=True, timeout=120, check=False)


def test_a_whole_game_against_the_heuristic_player_saved_and_loaded(
        site: str, browser: Any, tmp_path: Path) -> None:
    with tab(browser, site) as page:
        page.goto(site + "play.html?pace=0&seed=7")
        assert page.locator("#durak-opponent").input_value() == "heuristic"
        page.select_option("#durak-players", "3")
        page.click("#durak-new")
        game = page.locator("#durak-game")
        assert play_on(page, until_human_moves=4) == 4
        midway = download(page, tmp_path / "midway.json")
        made = play_on(page)
        assert made > 0 and game.get_attribute("data-state") == "over"
        turn = game.locator(".durak-live-turn").inner_text()
        assert "is the durak" in turn or "a draw" in turn
        final = download(page, tmp_path / "final.json")
        assert len(final["history"]) > len(midway["history"])
        # The terminal game resumes both files.
        resumed = terminal(tmp_path / "midway.json")
        assert resumed.returncode == 0, resumed.stderr
        assert "Resuming" in resumed.stdout and "Your moves:" in resumed.stdout
        ended = terminal(tmp_path / "final.json")
        assert ended.returncode == 0 and "Game over" in ended.stdout
        # The midway file loads back into the page, and the page keeps it across a reload.
        page.set_input_files("#durak-load", str(tmp_path / "midway.json"))
        page.wait_for_function("document.getElementById('durak-game').dataset.state === 'live'"
                               " && document.getElementById('durak-game-status').textContent"
                               " !== ''")
        assert game.get_attribute("data-actions") == str(len(midway["history"]))
        page.reload()
        assert page.locator("#durak-resume").is_visible()
        page.click("#durak-resume")
        page.wait_for_selector("#durak-game[data-actions]", state="attached", timeout=LOAD_MS)
        assert int(str(game.get_attribute("data-actions"))) >= len(midway["history"])


def test_a_visitor_reviews_the_game_they_finished(site: str, browser: Any,
                                                  built_book: Path) -> None:
    """No URL parameters: a game played to its end, then "Review this game". The coach runs
    in the page a slice at a time (a "reviewing" state with a progress bar), then lists at
    most five marked moves, each with its reason, its picture and, where a tip is named,
    the links to the tip and its evidence. A game in which the coach finds no costly move
    says so; the visitor then plays another (at most three games)."""
    with tab(browser, site) as page:
        page.goto(site + "play.html")
        assert "?" not in page.url
        page.select_option("#durak-pace", "300")  # "quick"
        page.select_option("#durak-players", "2")
        game = page.locator("#durak-game")
        review = page.locator("#durak-review")
        moves = review.locator("li.durak-review-move")
        for _ in range(3):
            new_game(page)
            assert review.is_hidden()
            assert play_on(page) > 0 and game.get_attribute("data-state") == "over"
            page.wait_for_selector("#durak-review[data-state=offered]")
            page.click("#durak-review-start")
            assert review.get_attribute("data-state") == "reviewing"
            assert "Reviewing your moves" in page.locator("#durak-review-status").inner_text()
            assert page.locator("#durak-review-progress").is_visible()
            page.wait_for_selector("#durak-review[data-state=done]", state="attached",
                                   timeout=LOAD_MS)
            assert page.locator("#durak-review-progress").is_hidden()
            if moves.count():
                break
            assert "no move cost" in page.locator("#durak-review-status").inner_text()
        assert 1 <= moves.count() <= 5
        for move in moves.all():
            reason = move.locator(".durak-review-reason").inner_text()
            assert re.match(r"Move \d+ \(bout \d+\): Anna \(you\) played .+ was better",
                            reason), reason
            picture = move.locator(".durak-review-picture > svg")
            box = picture.bounding_box()
            assert picture.count() == 1 and box is not None and box["width"] > 200
            assert "better" in str(picture.get_attribute("aria-label"))
            for link in move.locator(".durak-review-tip a").all():
                href = str(link.evaluate("a => a.href"))
                assert re.search(r"/(tips\.html#TIP|tips-evidence\.html#evidence-TIP)-\d+$",
                                 href), href
                assert anchor_exists(built_book, href, site), href
            if move.locator(".durak-review-tip").count():
                evidence = move.locator(".durak-review-tip a", has_text="evidence")
                assert re.search(r"tips-evidence\.html#evidence-TIP-\d+$",
                                 str(evidence.evaluate("a => a.href")))
        assert "Traceback" not in page.locator("body").inner_text()
        # A new game puts the review away.
        new_game(page)
        assert review.is_hidden() and moves.count() == 0

_PANEL_CONTRAST = r"""
(selector) => {
  const rgb = (t) => (t.match(/[\d.]+/g) || []).map(Number);
  function under(el) {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  }
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  let worst = null, what = "";
  for (const el of document.querySelectorAll(selector)) {
    if (!el.offsetParent || !el.textContent.trim()) continue;
    const a = lum(rgb(getComputedStyle(el).color)), b = lum(under(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (worst === null || ratio < worst) {
      worst = ratio;
      what = el.textContent.trim().slice(0, 40);
    }
  }
  return { worst, what, scrollWidth: document.documentElement.scrollWidth,
           innerWidth: window.innerWidth };
}
"""
_PANEL_TEXT = (".durak-live-panel p, .durak-live-panel span, .durak-live-panel button, "
               ".durak-live-panel summary, .durak-live-panel a, .durak-play-form label")


def check_view(page: Any, where: Any, png: Path, width_name: str) -> None:
    where.scroll_into_view_if_needed()
    where.screenshot(path=str(png))
    assert png.stat().st_size > 20_000, f"{png.name} looks blank"
    measured = page.evaluate(_PANEL_CONTRAST, _PANEL_TEXT)
    assert measured["worst"] is not None, png.name
    assert measured["worst"] >= screenshots.MIN_CONTRAST, (png.name, measured)
    if width_name == "phone":
        assert measured["scrollWidth"] <= measured["innerWidth"], (png.name, measured)


@pytest.mark.parametrize("mode", screenshots.MODES)
@pytest.mark.parametrize(("width_name", "width", "height"), screenshots.WIDTHS)
def test_live_boards_are_readable_at_both_widths_in_both_modes(
        site: str, browser: Any, width_name: str, width: int, height: int, mode: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with tab(browser, site, width=width, height=height, mode=mode) as page:
        page.goto(site + "beating.html")
        figure = start_board(page, "pos-BEAT-1.1")
        figure.locator('g.hand[data-seat="0"] g.card.live-blocked').first.click()
        assert live(figure, "data-message") == "refused"
        check_view(page, figure, SHOTS / f"live-example-{width_name}-{mode}.png", width_name)
        figure.locator("g.hand g.card.live-playable").first.click()  # and a legal move
        assert live(figure, "data-message") == "played" and live(figure, "data-history") == "1"
        page.goto(site + "play.html?pace=0&seed=3")
        page.click("#durak-new")
        play_on(page, until_human_moves=2)
        check_view(page, page.locator("#durak-game"),
                   SHOTS / f"live-game-{width_name}-{mode}.png", width_name)


_ROWS = r"""
() => [...document.querySelectorAll("table.rule-index tbody tr")].map((row) => {
  const box = (sel) => { const r = row.querySelector(sel).getBoundingClientRect();
                         return { left: r.left, right: r.right, width: r.width,
                                  height: r.height }; };
  return { id: row.id, title: box("td.ri-title"), examples: box("td.ex-links"),
           sources: box("td.ri-sources") };
})
"""


def test_the_rule_index_is_one_card_per_rule_on_a_phone(site: str, browser: Any) -> None:
    """At 390 px every rule's title, sources and examples are on screen, nothing scrolls
    sideways, and a title is not squeezed into a narrow column."""
    with tab(browser, site, width=390, height=844, touch=True) as page:
        page.goto(site + "rule-index.html")
        width = page.evaluate("window.innerWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert not page.locator("table.rule-index thead").first.is_visible()
        rows = page.evaluate(_ROWS)
        assert len(rows) >= 90
        for row in rows:
            for part in ("title", "examples", "sources"):
                box = row[part]
                assert box["height"] > 0 and box["left"] >= 0 and box["right"] <= width, \
                    (row["id"], part, box)
        # The title runs beside its ID and wraps in the card's width, not in a column.
        first = page.locator("table.rule-index tbody tr").first.bounding_box()
        assert first is not None and first["width"] >= width * 0.8


def search(page: Any, site: str, query: str) -> list[str]:
    """The links the site's search lists for ``query``, best first."""
    page.goto(site + "search.html?q=" + query)
    page.wait_for_function("() => { const s = document.querySelector('#search-results "
                           "p.search-summary'); return s && !s.textContent.includes('Preparing')"
                           " && !document.querySelector('#search-progress')?.textContent; }")
    return [str(h) for h in page.locator("#search-results ul.search li > a").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))")]


def test_search_finds_a_rule_and_an_example_by_their_ids(site: str, browser: Any) -> None:
    with tab(browser, site) as page:
        assert search(page, site, "BEAT-3") == ["beating.html#BEAT-3"]
        assert search(page, site, "BEAT-3.2") == ["beating.html#BEAT-3.2"]
        assert search(page, site, "ATTACK-2.1a") == ["attacking.html#ATTACK-2.1a"]
        # The words a player would type reach the rule's section first.
        assert search(page, site, "ace of trumps")[0] == "beating.html#BEAT-4"
        assert search(page, site, "trump exchange")[0] == "variants.html#VAR-1"
        assert search(page, site, "transfer back")[0] == "transfer.html#CLAR-14"
        words = search(page, site, "trump")  # words still search every page
        assert len(words) > 3
        snippet = page.locator("#search-results ul.search li p.context").first.inner_text()
        assert "Contents" not in snippet and "import" not in snippet, snippet
        # One search box: the header's.
        page.goto(site + "beating.html")
        visible = [b for b in page.locator(".search-button__button, form.bd-search input").all()
                   if b.is_visible()]
        assert len(visible) == 1


_CHART = r"""
() => [...document.querySelectorAll("figure.tipsim-figure svg")]
  .filter((svg) => svg.getBoundingClientRect().width > 0)
  .map((svg) => { const box = svg.getBoundingClientRect();
                  return { right: box.right, scale: box.width / svg.viewBox.baseVal.width,
                           narrow: svg.classList.contains("tipsim-narrow") }; })
"""


@pytest.mark.parametrize(("width", "narrow"), [(390, True), (1280, False)])
def test_the_tips_chart_fits_the_screen_whole(site: str, browser: Any, width: int,
                                              narrow: bool) -> None:
    """Both bars of every tip and the difference are on screen, at a readable size: on a
    phone the narrow layout of the chart, not the wide one scrolled or shrunk."""
    with tab(browser, site, width=width, height=844) as page:
        page.goto(site + "tips-evidence.html")
        charts = page.evaluate(_CHART)
        assert len(charts) == 1, charts
        chart = charts[0]
        assert chart["narrow"] is narrow
        assert chart["right"] <= width and chart["scale"] >= 0.85, chart
