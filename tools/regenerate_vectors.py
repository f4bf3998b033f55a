"""Regenerate the shipped test vectors in one command, after the features changed::

    python tools/regenerate_vectors.py

writes ``durak_spec/data/vectors.json`` and ``durak_spec/data/vectors.schema.json`` (what
``durak-spec vectors --out`` and ``durak-spec vectors --schema --out`` write) and pins the
new digest to the current version of the specification in
:data:`durak_spec.spec.vectors.PINNED`. A version that was pinned to another digest is
re-pinned only with ``--repin`` (for a version not yet released: a released version's
vectors never change; raise ``durak_spec/core/version.py`` and ``pyproject.toml``
instead). ``--check`` changes nothing and fails when a file or the pin is stale.

The vectors' ``depends_on`` come from ``durak_spec/data/dependencies.json``: after adding
or changing examples, run ``python tools/dependencies_fixture.py --write`` first (minutes).
This folder is not part of the wheel.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from durak_spec.conformance.vectors import document_text, generate, schema_text
from durak_spec.core.version import __version__
from durak_spec.spec.vectors import PINNED

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "durak_spec" / "data" / "vectors.json"
SCHEMA = ROOT / "durak_spec" / "data" / "vectors.schema.json"
PINS = ROOT / "durak_spec" / "spec" / "vectors.py"

_PINNED_BLOCK = re.compile(r"^PINNED: Final = MappingProxyType\(\{\n(?P<body>.*?)^\}\)",
                           re.M | re.S)


def pinned_source(source: str, version: str, digest: str) -> str:
    """The source of ``durak_spec/spec/vectors.py`` with ``version`` pinned to ``digest``
    in its ``PINNED`` block (the line replaced, or added last)."""
    block = _PINNED_BLOCK.search(source)
    if block is None:
        raise SystemExit(f"{PINS}: no 'PINNED: Final = MappingProxyType({{' block found")
    line = f'    "{version}": "{digest}",\n'
    lines = [entry for entry in block["body"].splitlines(keepends=True)
             if not entry.lstrip().startswith(f'"{version}"')]
    body = "".join([*lines, line])
    return source[:block.start("body")] + body + source[block.end("body"):]


def name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python tools/regenerate_vectors.py",
        description="Write the shipped vectors and their schema; pin the new digest.")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 when a file or the pin is stale")
    parser.add_argument("--repin", action="store_true",
                        help=f"re-pin {__version__} although it was pinned to another digest")
    args = parser.parse_args(argv)
    document = generate()
    wanted = {VECTORS: document_text(document), SCHEMA: schema_text()}
    stale = [path for path, text in wanted.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    old = PINNED.get(__version__)
    if args.check:
        for path in stale:
            print(f"{name(path)} is stale", file=sys.stderr)
        if old != document.digest:
            print(f"{__version__} is pinned to {old}, the vectors' digest is "
                  f"{document.digest}", file=sys.stderr)
        return 1 if stale or old != document.digest else 0
    if old is not None and old != document.digest and not args.repin:
        print(f"an expected outcome changed: {__version__} is pinned to {old}, the vectors' "
              f"digest is now {document.digest}. Raise the version (durak_spec/core/version.py "
              "and pyproject.toml) and run this again, or pass --repin if "
              f"{__version__} is not released yet.", file=sys.stderr)
        return 1
    for path in stale:
        path.write_text(wanted[path], encoding="utf-8")
        print(f"wrote {name(path)}")
    if old != document.digest:
        PINS.write_text(pinned_source(PINS.read_text(encoding="utf-8"), __version__,
                                      document.digest), encoding="utf-8")
        print(f"pinned {__version__} to {document.digest} in {name(PINS)}")
    if not stale and old == document.digest:
        print(f"the vectors of {__version__} are up to date ({document.digest})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
