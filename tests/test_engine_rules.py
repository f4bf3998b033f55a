"""One rule, one function: every rule the engine decides is decided in one place, and the
listing of legal actions and ``check`` agree on what that place says.

* Every rule ID the engine package names in a ``Breach(...)``, ``IllegalAction(...)`` or
  ``InvalidState(...)`` is a literal, and all the places that name one ID lie in one
  function, whose name or docstring carries the ID (found with ``ast``).
* ``legal_actions`` and ``check`` agree: every listed action passes ``check``, and over
  random reachable states and random candidate actions ``check`` raises exactly for the
  actions that are not listed (hypothesis).
* ``acting_seats`` names exactly the seats that have a legal action.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import random
import textwrap
from collections import defaultdict
from pathlib import Path

import hypothesis
import hypothesis.strategies as st
import pytest

from durak_spec import (
    DECK,
    PROFILES,
    Action,
    BadAction,
    Cover,
    Done,
    ExchangeTrump,
    GameState,
    IllegalAction,
    NoTrumpLead,
    Open,
    RuleSet,
    Take,
    ThrowIn,
    Transfer,
    acting_seats,
    apply,
    check,
    is_legal,
    legal_actions,
    new_game,
)
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.model.rules import ThrowIn as ThrowInRule

ENGINE = Path(__file__).resolve().parent.parent / "durak_spec" / "engine"
RULE_ERRORS = frozenset({"Breach", "IllegalAction", "InvalidState"})
CONVERTERS = frozenset({"durak_spec/engine/breach.py"})
"""The one module allowed to build a rule error from a variable: ``Breach`` turns itself
into ``IllegalAction`` or ``InvalidState`` there."""
INVARIANT_MODULES = frozenset({"durak_spec/engine/reachable.py"})
"""Modules of invariants of play (what a history of legal moves guarantees): each function
cites the rule its invariant follows from, which is decided elsewhere, so it does not
count as a second function deciding that rule."""


# -- one function per rule ------------------------------------------------------------------


def rule_sites(source: str, where: str) -> tuple[dict[str, set[str]], dict[str, str], list[str]]:
    """For the source of one module: rule ID -> the functions that name it; function ->
    its name and docstring; and the places that build a rule error from a non-literal."""
    tree = ast.parse(source, where)
    sites: dict[str, set[str]] = defaultdict(set)
    texts: dict[str, str] = {}
    loose: list[str] = []

    def visit(node: ast.AST, function: str | None) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = f"{where}:{node.name}"
            texts[function] = f"{node.name}\n{ast.get_docstring(node) or ''}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in RULE_ERRORS:
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                sites[first.value].add(function or f"{where}:<module>")
            else:
                loose.append(f"{where}:{node.lineno}: {node.func.id}(...) without a literal "
                             "rule ID")
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, None)
    return sites, texts, loose


def problems_of(modules: dict[str, str]) -> list[str]:
    """What breaks "one rule, one function" in ``modules`` (path -> source)."""
    sites: dict[str, set[str]] = defaultdict(set)
    texts: dict[str, str] = {}
    problems: list[str] = []
    for where, source in modules.items():
        found, named, loose = rule_sites(source, where)
        for rule, functions in found.items():
            if where in INVARIANT_MODULES:
                problems += [f"{function} cites {rule}, but neither its name nor its "
                             "docstring carries the ID" for function in functions
                             if rule not in named.get(function, "").replace("_", "-").upper()]
                continue
            sites[rule] |= functions
        texts.update(named)
        if where not in CONVERTERS:
            problems += loose
    for rule, functions in sorted(sites.items()):
        if len(functions) > 1:
            problems.append(f"{rule} is decided in {len(functions)} functions: "
                            + ", ".join(sorted(functions)))
        for function in functions:
            if rule not in texts.get(function, "").replace("_", "-").upper():
                problems.append(f"{function} names {rule}, but neither its name nor its "
                                "docstring carries the ID")
    return problems


def engine_modules() -> dict[str, str]:
    return {f"durak_spec/engine/{path.name}": path.read_text(encoding="utf-8")
            for path in sorted(ENGINE.glob("*.py"))}


def test_every_rule_the_engine_decides_is_decided_in_one_function() -> None:
    problems = problems_of(engine_modules())
    assert not problems, "\n".join(problems)


def test_the_rules_named_are_rules_of_the_index() -> None:
    index = load_rule_index()
    named = set()
    for where, source in engine_modules().items():
        named |= set(rule_sites(source, where)[0])
    assert named, "the engine names no rule at all"
    assert not named - set(index), sorted(named - set(index))
    # The engine decides rules of every chapter, not just a few.
    assert {rule.split("-")[0] for rule in named} >= {
        "DEAL", "BEAT", "ATTACK", "LIMIT", "TAKE", "TRANSFER", "END", "ORDER", "CLAR", "VAR"}


def test_the_check_sees_a_rule_decided_twice_and_a_rule_without_its_id() -> None:
    # The check above can fail: a rule decided in two functions, one of which does not
    # carry its ID, and a rule error built from a variable are all found.
    source = textwrap.dedent('''
        def transfer_capacity(state, count):
            """TRANSFER-3: the new defender holds enough cards."""
            if count > 3:
                return Breach("TRANSFER-3", "too few")

        def _transfers(state):
            if len(state) < 2:
                return Breach("TRANSFER-3", "too few again")

        def explain(rule):
            return IllegalAction(rule, "because")
    ''')
    problems = problems_of({"durak_spec/engine/fake.py": source})
    assert any("TRANSFER-3 is decided in 2 functions" in p for p in problems), problems
    assert any("_transfers names TRANSFER-3" in p for p in problems), problems
    assert any("without a literal rule ID" in p for p in problems), problems
    assert not any("transfer_capacity names" in p for p in problems), problems


# -- legal_actions and check agree -------------------------------------------------------------

SWITCHES = PROFILES["classic-transfer"].rules().replace(
    transfer_by_showing_trump=True, trump_exchange=True, multi_card_opening=True,
    throw_in=ThrowInRule.NEIGHBOURS, no_trump_lead=NoTrumpLead.FIRST_SEAT)
RULE_SETS = [PROFILES[name].rules(players=n) for name in PROFILES for n in range(2, 7)]
RULE_SETS += [SWITCHES.with_players(n) for n in range(2, 7)]


def reachable(rules: RuleSet, seed: int, steps: int) -> GameState:
    """The state after up to ``steps`` random legal actions from the deal of ``seed``."""
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        actions = legal_actions(state)
        if not actions:
            break
        state = apply(state, rng.choice(actions))
    return state


cards = st.sampled_from(DECK)


def candidate(players: int) -> st.SearchStrategy[Action]:
    """Any action of any seat (and one seat too many), with any cards."""
    seats = st.integers(min_value=0, max_value=players)
    return st.one_of(
        st.builds(lambda p, cs: Open(p, tuple(cs)), seats,
                  st.lists(cards, min_size=1, max_size=3, unique=True)),
        st.builds(ThrowIn, seats, cards),
        st.builds(Cover, seats, cards, cards),
        st.builds(Transfer, seats, cards, st.booleans()),
        st.builds(Take, seats),
        st.builds(Done, seats),
        st.builds(ExchangeTrump, seats),
    )


@hypothesis.settings(max_examples=60, deadline=None, derandomize=True, database=None,
                     suppress_health_check=[hypothesis.HealthCheck.too_slow])
@hypothesis.given(data=st.data(), rules=st.sampled_from(RULE_SETS),
                  seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 250))
def test_check_raises_exactly_for_the_actions_not_listed(
        data: st.DataObject, rules: RuleSet, seed: int, steps: int) -> None:
    state = reachable(rules, seed, steps)
    listed = legal_actions(state)
    for action in listed:
        check(state, action)  # every listed action passes
    # Candidates near the listed ones (same seat and cards, other kinds) and anywhere.
    for action in data.draw(st.lists(candidate(rules.players), min_size=20, max_size=40)):
        try:
            check(state, action)
        except IllegalAction as error:
            assert action not in listed, f"{action} is listed but check says {error}"
            assert not is_legal(state, action)
        except BadAction as error:
            assert action.player >= rules.players, f"{action}: {error}"
            assert not is_legal(state, action)
        else:
            assert action in listed or (
                isinstance(action, Open) and Open(action.player, action.played) in listed
            ), f"check accepts {action}, which legal_actions does not list"
            assert is_legal(state, action)


@pytest.mark.parametrize("rules", RULE_SETS[::3], ids=str)
def test_the_acting_seats_are_the_seats_with_a_legal_action(rules: RuleSet) -> None:
    for seed in range(3):
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        while True:
            actions = legal_actions(state)
            assert acting_seats(state) == tuple(sorted({a.player for a in actions}))
            if not actions:
                break
            state = apply(state, rng.choice(actions))


# -- the examples in the engine's docstrings ----------------------------------------------------

DOCTESTED = [f"durak_spec.engine.{path.stem}" for path in sorted(ENGINE.glob("*.py"))
             if path.stem != "__init__"] + ["durak_spec.model.events", "durak_spec.game.history"]


@pytest.mark.parametrize("name", DOCTESTED)
def test_the_examples_in_the_docstrings_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} fail"
