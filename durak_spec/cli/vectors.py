"""``durak-spec vectors``: the specification as portable test vectors (one JSON document
with every example, its rules, its start, its moves with their verdicts and its
expectations; the work is :mod:`durak_spec.conformance.vectors`)."""

from __future__ import annotations

import argparse
import sys

from durak_spec.cli.args import Subparsers
from durak_spec.core.outfiles import OutputFile

__all__ = ["add_parser"]


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "vectors", help="write the specification as portable test vectors (JSON)",
        description="Write every example of the specification (each outline row once) as "
                    "one versioned JSON document (format durak-spec/vectors): its number, "
                    "rule IDs and sources, its rules, the axes its outcome depends on, "
                    "the position or deal it starts from, and its steps: moves with their "
                    "expected verdicts and expectations in a closed vocabulary, translated "
                    "from the Gherkin. The perft tables are included. Run the vectors "
                    "against an engine with 'durak-spec check --vectors FILE'.")
    parser.add_argument("--out", metavar="FILE",
                        help="write the document to FILE instead of standard output")
    parser.add_argument("--schema", action="store_true",
                        help="write the document's JSON Schema instead")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    # imported here: building the command line of another command must not import the
    # step library (and pytest with it)
    from durak_spec.conformance.vectors import document_text, generate, schema_text

    out = OutputFile(args.out, "--out") if args.out else None
    try:
        text = schema_text() if args.schema else document_text(generate())
    except BaseException:
        if out is not None:
            out.close()
        raise
    if out is not None:
        out.write(text)
    else:
        sys.stdout.write(text)
    return 0
