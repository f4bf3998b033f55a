"""The stored perft positions: the position value, and the data files' format, read and
written (``durak_spec/data/perft/*.json``)."""

from __future__ import annotations

import importlib.resources
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from durak_spec.core.cards import DECK, Card, CardError, parse_card
from durak_spec.core.errors import InputError, NotationError
from durak_spec.core.jsonio import (
    JsonError,
    expect_int,
    expect_list,
    expect_object,
    expect_str,
    fail,
    members,
    read_file,
    read_json,
    show,
)
from durak_spec.core.jsonio import Path as Path_
from durak_spec.engine import apply, new_game
from durak_spec.model.actions import Action, parse_action
from durak_spec.model.rules import PROFILES, RuleSet, RuleSetError, TurnOrder
from durak_spec.model.state import GameState

PERFT_FORMAT = "durak-spec/perft"
PERFT_VERSION = 1


class PerftFileError(InputError):
    """A perft data file that cannot be read; the message names the file and the field."""

    code = "perft-file"



@dataclass(frozen=True, slots=True)
class PerftPosition:
    """A stacked deal and its counts at depth 1, 2, ..., ``len(counts)``."""

    id: str
    rules: RuleSet
    deck: tuple[Card, ...]
    seed: int
    counts: tuple[int, ...]
    note: str = ""
    moves: tuple[Action, ...] = ()
    """The actions played from the deal to the counted position: none for a deal, a whole
    bout or more for a position from the middle or the end of a game."""

    @property
    def depth(self) -> int:
        return len(self.counts)

    def start(self) -> GameState:
        """The counted position: the deal, then :attr:`moves`."""
        state = new_game(self.rules, deck=self.deck, seed=self.seed)
        for action in self.moves:
            state = apply(state, action)
        return state

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"id": self.id}
        if self.note:
            data["note"] = self.note
        data.update({"rules": self.rules.to_dict(), "deck": [str(c) for c in self.deck],
                     "seed": self.seed})
        if self.moves:
            data["moves"] = [str(a) for a in self.moves]
        data["counts"] = list(self.counts)
        return data



def data_dir() -> Path:
    """The directory of the perft data files shipped with the package."""
    return Path(str(importlib.resources.files("durak_spec") / "data" / "perft"))


def position_files(directory: Path | None = None) -> list[Path]:
    return sorted((directory or data_dir()).glob("*.json"))


MAX_FILE_BYTES = 1 << 20
"""The largest perft file read."""

_POSITION_FIELDS = ("id", "rules", "deck", "seed", "counts")


def _read_position(value: object, path: Path_) -> PerftPosition:
    data = expect_object(value, path, _POSITION_FIELDS, ("note", "moves"))
    ident = expect_str(data["id"], (path, "id"), empty=False)
    note = expect_str(data.get("note", ""), (path, "note"))
    rules_data = data["rules"]
    if not isinstance(rules_data, dict):
        fail((path, "rules"), f"must be a JSON object of axes, not {show(rules_data)}")
    try:
        rules = RuleSet.from_dict(rules_data)
    except RuleSetError as error:
        fail((path, "rules"), str(error))
    deck_data = expect_list(data["deck"], (path, "deck"))
    deck = []
    for item, where in members(deck_data, (path, "deck")):
        try:
            deck.append(parse_card(expect_str(item, where)))
        except CardError as error:
            fail(where, str(error))
    if sorted(deck) != sorted(DECK):
        fail((path, "deck"), "must hold each of the 36 cards once (DEAL-1)")
    seed = expect_int(data["seed"], (path, "seed"), -(2**63), 2**63)
    counts = [expect_int(n, where, 0, 2**63)
              for n, where in members(expect_list(data["counts"], (path, "counts")),
                                      (path, "counts"))]
    if not counts:
        fail((path, "counts"), "must list the count of at least depth 1")
    moves = []
    for item, where in members(expect_list(data.get("moves", []), (path, "moves")),
                               (path, "moves")):
        try:
            moves.append(parse_action(expect_str(item, where)))
        except NotationError as error:
            fail(where, str(error))
    return PerftPosition(ident, rules, tuple(deck), seed, tuple(counts), note, tuple(moves))


def load_positions(paths: Iterable[Path | str] | None = None) -> list[PerftPosition]:
    """The positions of the given files (default: every file shipped with the package).

    Raises :class:`PerftFileError` naming the file and the place in it.
    """
    files = [Path(p) for p in paths] if paths is not None else position_files()
    positions: list[PerftPosition] = []
    seen: dict[str, str] = {}
    for path in files:
        try:
            data = read_json(read_file(path, what="the perft file", max_bytes=MAX_FILE_BYTES),
                             what="a perft file", max_bytes=MAX_FILE_BYTES)
            document = expect_object(data, None, ("format", "version", "positions"))
            if document["format"] != PERFT_FORMAT:
                fail("format", f"must be {PERFT_FORMAT!r}: this is not a perft file")
            if document["version"] != PERFT_VERSION:
                fail("version", f"{show(document['version'])} is not {PERFT_VERSION}")
            items = expect_list(document["positions"], "positions")
            for item, where in members(items, "positions"):
                position = _read_position(item, where)
                if position.id in seen:
                    fail((where, "id"), f"{position.id!r} is used twice (also in "
                         f"{seen[position.id]})")
                seen[position.id] = path.name
                positions.append(position)
        except JsonError as error:
            raise PerftFileError(f"{path}: {error}", code=error.code) from None
    return positions


def dump_positions(positions: Sequence[PerftPosition]) -> str:
    """A perft file: one position per block, its lists on single lines."""
    def line(key: str, value: Any) -> str:
        return f"   {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"

    blocks = []
    for position in positions:
        fields = [line(key, value) for key, value in position.to_json().items()]
        blocks.append("  {\n" + ",\n".join(fields) + "\n  }")
    return (f'{{"format": "{PERFT_FORMAT}", "version": {PERFT_VERSION}, "positions": [\n'
            + ",\n".join(blocks) + "\n]}\n")


def label(position: PerftPosition) -> str:
    rules = position.rules
    name = next((p.name for p in PROFILES.values()
                 if p.rules(players=rules.players).replace(turn_order=rules.turn_order)
                 == rules), "custom rules")
    order = f", turn_order={rules.turn_order.value}" \
        if name != "custom rules" and rules.turn_order is not TurnOrder.FREE else ""
    return f"{name}, {rules.players} players{order}"
