"""Recompute ``durak_spec/data/dependencies.json``: which axes each example's outcome
depends on, played on the reference (:func:`durak_spec.conformance.dependencies.compute`).

Run from a clone after changing features or rules (this folder is not part of the wheel)::

    python tools/dependencies_fixture.py --write

Without ``--write`` the document is printed. The whole specification is played once per
value of every axis: a few minutes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from durak_spec.conformance.dependencies import compute, document
from durak_spec.core.jsonio import write_json

TARGET = Path(__file__).resolve().parents[1] / "durak_spec" / "data" / "dependencies.json"
"""The data file of the clone this script lies in."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python tools/dependencies_fixture.py",
        description="Compute which axes each example's outcome depends on, on the reference.")
    parser.add_argument("--write", action="store_true",
                        help=f"write {TARGET} (else print the document)")
    args = parser.parse_args(argv)
    found = compute(progress=lambda text: print(text, file=sys.stderr, flush=True))
    text = write_json(document(found), indent=1) + "\n"
    if args.write:
        TARGET.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
