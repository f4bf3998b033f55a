"""Pack the reference engine for the rules website (run before building the book).

Usage (from the project's root)::

    python book/web/pack.py [OUT]        # OUT defaults to book/_pyodide_site

Installs the pinned ``pyodide`` from the npm registry when it is missing (``npm ci`` here),
compiles its standard library once per version with Node, and zips and compiles the
package every time; see :mod:`durak_spec.book.bundle`. The book's build serves ``OUT``'s
contents with the site when they are there and up to date, and fails when they are stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

from durak_spec.book.bundle import pack_engine
from durak_spec.book.site import BookError

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE.parent / "_pyodide_site"


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else DEFAULT_OUT
    try:
        pack_engine(HERE, out)
    except BookError as error:
        print(f"pack: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
