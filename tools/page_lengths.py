"""How long each page of a built rules website is, in screens, measured in a browser.

Serves a site built before (``durak-spec book --out DIR``, or ``book/_build/html``) on
127.0.0.1, opens every page in Debian's Chromium (headless, through Playwright, as
``book/screenshots.py`` does) at a desktop width (1280 x 900) and a phone width (390 x 844),
and prints each page's height (``scrollHeight``) in pixels and in screens (height / window
height). Nothing is built here. Issue 20 asks that no chapter be longer than ten screens at
desktop width (``screenshots.MAX_SCREENS``, which ``tests/test_browser.py`` holds every page
but the rule index to); ``--limit`` marks the pages over a limit and makes the command exit 1
when one is.

``--sections`` also prints, for each page, the height of every section at desktop width:
where a long page could be split.

    python tools/page_lengths.py [SITE] [--json] [--limit 10] [--sections] [--page NAME ...]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import importlib
import json
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book"))
screenshots = importlib.import_module("screenshots")  # book/screenshots.py: Chromium, flags

sys.path.pop(0)

WIDTHS: tuple[tuple[str, int, int], ...] = screenshots.WIDTHS
"""(name, width, height) of the windows measured: desktop 1280 x 900, phone 390 x 844."""

_SECTIONS = """
() => Array.from(document.querySelectorAll('main section.durak-rule, main section[id]'))
  .filter(s => s.parentElement.closest('section.durak-rule') === null)
  .map(s => [s.id, Math.round(s.getBoundingClientRect().height)])
"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the base class declares it a dict it reads
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm", ".mjs": "text/javascript"}

    def log_message(self, format: str, *args: Any) -> None:
        pass


def pages_of(site: Path) -> list[str]:
    """Every page of the site that a reader reads (not search, the general index, 404)."""
    skip = {"search", "genindex", "404"}
    return sorted(p.stem for p in site.glob("*.html") if p.stem not in skip)


def measure(site: Path, pages: Sequence[str], *, sections: bool = False
            ) -> dict[str, dict[str, Any]]:
    """Page -> {width name: {"px": height, "screens": height / window height}} (and
    "sections": [[id, px], ...] at desktop width when asked)."""
    from playwright.sync_api import sync_playwright

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    result: dict[str, dict[str, Any]] = {page: {} for page in pages}
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=screenshots.find_browser(),
                                             args=list(screenshots.CHROMIUM_ARGS),
                                             headless=True)
            try:
                for name, width, height in WIDTHS:
                    context = browser.new_context(viewport={"width": width, "height": height})
                    page = context.new_page()
                    for slug in pages:
                        page.goto(f"{base}{slug}.html", wait_until="networkidle")
                        px = screenshots.page_height(page)
                        result[slug][name] = {"px": px, "screens": round(px / height, 2)}
                        if sections and name == "desktop":
                            result[slug]["sections"] = page.evaluate(_SECTIONS)
                    context.close()
            finally:
                browser.close()
    finally:
        server.shutdown()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("site", nargs="?", default=str(ROOT / "book" / "_build" / "html"),
                        help="the built site (default: book/_build/html)")
    parser.add_argument("--page", action="append", default=[],
                        help="measure only this page (its file name without .html)")
    parser.add_argument("--limit", type=float, default=None,
                        help="exit 1 if a page is longer than this many desktop screens")
    parser.add_argument("--sections", action="store_true",
                        help="also print each rule section's height at desktop width")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    site = Path(args.site).resolve()
    if not (site / "index.html").is_file():
        print(f"{site} is not a built site (no index.html): build it with "
              "durak-spec book --out DIR", file=sys.stderr)
        return 2
    if screenshots.find_browser() is None:
        print("no browser: install Debian's chromium package and pip install playwright",
              file=sys.stderr)
        return 2
    known = pages_of(site)
    unknown = [p for p in args.page if p not in known]
    if unknown:
        print(f"no page {', '.join(unknown)} in {site}; pages are {', '.join(known)}",
              file=sys.stderr)
        return 2
    result = measure(site, args.page or known, sections=args.sections)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print("| page | desktop px | desktop screens | phone px | phone screens |")
        print("|---|--:|--:|--:|--:|")
        for slug, sizes in sorted(result.items(), key=lambda kv: -kv[1]["desktop"]["px"]):
            d, p = sizes["desktop"], sizes["phone"]
            over = " (over)" if args.limit is not None and d["screens"] > args.limit else ""
            print(f"| {slug}{over} | {d['px']:,} | {d['screens']:.1f} | {p['px']:,} | "
                  f"{p['screens']:.1f} |")
            for ident, px in sizes.get("sections", []):
                print(f"|   {ident} | {px:,} | {px / 900:.1f} | | |")
    if args.limit is not None and any(s["desktop"]["screens"] > args.limit
                                      for s in result.values()):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
