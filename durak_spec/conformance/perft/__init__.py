"""Perft-style counts: how many action sequences a deal allows, depth by depth (layer 7).

As chess programmers count the move sequences of a position to find move-generator bugs
(``perft``), this module counts, for a stacked deal, the sequences of 1, 2, ..., N
actions. ``legal_actions`` lists the actions of every player who may act at once (after
an opening the defender and every player allowed to throw in), so a sequence is a chain
of single actions, each taken from the full list; a sequence stops when the game ends
(a finished game has no legal actions, so it adds nothing at greater depths). The count at
depth ``d`` is the number of sequences of exactly ``d`` actions.

The counts of a set of positions are stored with the package, in
``durak_spec/data/perft/*.json``::

    {"format": "durak-spec/perft", "version": 1, "positions": [
      {"id": "transfer-3p", "note": "...", "rules": {every axis}, "deck": [36 cards],
       "seed": 0, "counts": [6, 21, ...]}]}

``deck`` is the deal in dealing and drawing order (CLAR-10) and ``seed`` settles ORDER-2's
chance, exactly as the protocol's ``start`` takes them; ``note`` is optional.

* :func:`perft` counts with the reference implementation (fast: pure functions);
* :func:`perft_engine` counts with any :class:`~durak_spec.protocol.Engine`, through
  ``start``, ``legal_actions`` and ``apply`` only: engines have no undo, so it walks the
  tree depth first and, to step back, starts the game again and replays the path (the
  counts at the last depth come from the lengths of the legal-action lists, so the
  leaves are never visited);
* :func:`check_positions` compares an engine's counts (the reference's by default) with
  the stored ones, and :func:`locate` finds, for a count that differs, the first position
  whose legal actions (or report) differ, with the rule the engine breaks there as the
  reference decides it (:mod:`durak_spec.protocol.explain`): the report names that rule,
  not only the counts;
* :func:`claimed_position` turns a stored position into one an engine can be counted on
  where it does not claim the stored rules: the same deal, or a position of the same kind
  reached in a game, under the rule set it claims that is nearest (its own bout protocol
  included), with counts the reference computes at run time. The stored counts stay the
  fixtures, checked against the reference in CI.

The modules: :mod:`~durak_spec.conformance.perft.positions` (the position value and the
data files), :mod:`~durak_spec.conformance.perft.counting` (the counts and ``locate``),
:mod:`~durak_spec.conformance.perft.games` (positions from within games) and
:mod:`~durak_spec.conformance.perft.check` (comparing an engine, and the report).
``durak-spec perft [--engine CMD]`` (:mod:`durak_spec.cli.perft`) checks the stored
counts and ``--list`` lists them; ``durak-spec check --perft`` is the same check beside
the checker's other modes. ``python tools/perft_fixtures.py``, in a clone, rewrites the
files from the position definitions.
"""

from durak_spec.conformance.perft.check import (
    PerftCheck,
    check_positions,
    claimed_position,
    format_check,
)
from durak_spec.conformance.perft.counting import (
    Located,
    PerftError,
    PerftImpossible,
    PerftUnreachable,
    locate,
    perft,
    perft_engine,
)
from durak_spec.conformance.perft.positions import (
    PERFT_FORMAT,
    PerftFileError,
    PerftPosition,
    data_dir,
    dump_positions,
    label,
    load_positions,
    position_files,
)

__all__ = [
    "PERFT_FORMAT",
    "Located",
    "PerftCheck",
    "PerftError",
    "PerftFileError",
    "PerftImpossible",
    "PerftPosition",
    "PerftUnreachable",
    "check_positions",
    "claimed_position",
    "data_dir",
    "dump_positions",
    "format_check",
    "label",
    "load_positions",
    "locate",
    "perft",
    "perft_engine",
    "position_files",
]
