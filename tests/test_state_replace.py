"""GameState.replace: the engine's typed keyword builder changes exactly the fields named."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from durak_spec import apply, legal_actions, new_game, profile
from durak_spec.model.state import GameState


def _positions() -> list[GameState]:
    rules = profile("classic-transfer").rules(players=4)
    state = new_game(rules, seed=3)
    choose = random.Random(3).choice
    found = [state]
    while not state.is_over:
        state = apply(state, choose(legal_actions(state)))
        found.append(state)
    return found


POSITIONS = _positions()


@pytest.mark.parametrize("field", GameState._fields)
def test_replace_changes_only_the_named_field(field: str) -> None:
    for state, other in zip(POSITIONS, POSITIONS[7:], strict=False):
        value = getattr(other, field)
        changed = state.replace(**{field: value})
        assert changed == state._replace(**{field: value})
        assert type(changed) is GameState
        for name in GameState._fields:
            expected = value if name == field else getattr(state, name)
            assert getattr(changed, name) == expected, (field, name)


def test_replace_with_nothing_is_the_same_state() -> None:
    for state in POSITIONS:
        assert state.replace() == state


def test_replace_keeps_falsy_values() -> None:
    state = next(s for s in POSITIONS if s.attacker and s.bout and s.table)
    changed = state.replace(attacker=0, bout=0, taking=False, table=(), passed=frozenset())
    assert (changed.attacker, changed.bout, changed.taking, changed.table, changed.passed) == (
        0, 0, False, (), frozenset())


def test_every_caller_gives_the_fields_by_keyword() -> None:
    # GameState.replace takes its fields as plain parameters, not keyword-only ones (those
    # cost CPython a dict look-up per default: a third of a build), so nothing but this
    # scan keeps callers to keywords: a call of ``.replace`` that names a field of the
    # state passes no positional argument, and a positional call has the two or three
    # arguments of ``str.replace`` or ``os.replace`` (a state's replace takes no more than
    # a field or two by position, which mypy would also check against the fields' types).
    fields = set(GameState._fields)
    root = Path(__file__).resolve().parent.parent
    found: list[str] = []
    calls = 0
    for folder in ("durak_spec", "tests", "examples", "benchmarks"):
        for path in sorted((root / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "replace"):
                    continue
                if ast.unparse(node.func.value) == "dataclasses":  # (instance, **changes)
                    continue
                named = {keyword.arg for keyword in node.keywords}
                where = f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)[:80]}"
                if named & fields:
                    calls += 1
                    if node.args:
                        found.append(where)
                elif node.args and not (2 <= len(node.args) <= 3 and not node.keywords):
                    found.append(where)
    assert not found, "give a state's fields to replace by keyword:\n" + "\n".join(found)
    assert calls > 10  # the engine's own builds are among them
