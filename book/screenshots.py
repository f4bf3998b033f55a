"""Screenshots of the built rules book in headless Chromium, as a reader would see it.

Usage (from the project's root, after building the book)::

    python book/screenshots.py [BUILT_HTML_DIR] [OUTPUT_DIR]

BUILT_HTML_DIR defaults to ``book/_build/html``, OUTPUT_DIR to ``book/_build/screenshots``.
It renders the front page and one example page (``beating.html``: its first rule with
examples and pictures) at a desktop and a phone width and saves one PNG for each. (Headless
Chromium paints a blank page when the address has a fragment, so pages are shot from the
top.) Chromium is
Debian's ``chromium`` package; the run uses no network and a throw-away profile.
Exit status: 0 if every screenshot was written, 1 otherwise, 2 without Chromium.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
PAGES: tuple[tuple[str, str], ...] = (
    ("index", "intro.html"),
    ("example", "beating.html"),
)
WIDTHS: tuple[tuple[str, int, int], ...] = (
    ("desktop", 1280, 1600),
    ("phone", 390, 2400),
)
BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def find_browser() -> str | None:
    """The path of a Chromium executable, or ``None``."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def screenshot(browser: str, url: str, target: Path, width: int, height: int,
               timeout: float = 90.0) -> None:
    """Save a screenshot of ``url`` at ``width`` x ``height`` to ``target``."""
    with tempfile.TemporaryDirectory(prefix="durak-chromium-") as profile:
        command = [
            browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-default-apps", "--disable-extensions", "--hide-scrollbars",
            "--mute-audio", f"--user-data-dir={profile}", f"--window-size={width},{height}",
            "--virtual-time-budget=5000", f"--screenshot={target}", url,
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              check=False)
    if not target.is_file() or target.stat().st_size == 0:
        raise RuntimeError(f"Chromium wrote no screenshot of {url} (exit {done.returncode}): "
                           f"{done.stderr.strip()[-500:]}")


def take_all(html_dir: Path, out_dir: Path, browser: str) -> list[Path]:
    """Every page at every width; returns the PNG files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for page_name, page in PAGES:
        file_part, _, fragment = page.partition("#")
        source = html_dir / file_part
        if not source.is_file():
            raise FileNotFoundError(f"{source} does not exist: build the book first")
        url = source.resolve().as_uri() + (f"#{fragment}" if fragment else "")
        for width_name, width, height in WIDTHS:
            target = out_dir / f"{page_name}-{width_name}.png"
            screenshot(browser, url, target, width, height)
            written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html", nargs="?", default=str(ROOT / "_build" / "html"))
    parser.add_argument("out", nargs="?", default=str(ROOT / "_build" / "screenshots"))
    args = parser.parse_args(argv)
    browser = find_browser()
    if browser is None:
        print("no Chromium found: install Debian's chromium package", file=sys.stderr)
        return 2
    try:
        written = take_all(Path(args.html), Path(args.out), browser)
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as error:
        print(f"screenshots failed: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
