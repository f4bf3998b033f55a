"""Running the examples for the book: every scenario once, with the positions it played.

:func:`play_all` runs the whole specification against the reference engine through the
runner (:func:`durak_spec.spec.runner.run`), with an engine that remembers every position
it was given or reached (the pictures need full game states, which only the reference
engine has). :func:`broken_examples` lists what did not pass, and :class:`ExampleFailed`
reports them in a few lines each: the example's number, file and the line of the failing
step, what the step expected and what the engine did.

:func:`python_of` writes, for an example, the Python that reproduces it with the public
API (the position built by keyword, the moves made, each refusal's rule checked), and
:func:`check_python` runs that code and compares what it got with what the run recorded,
so the code the book shows cannot drift from what the engine does.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from durak_spec.core.cards import Card, format_cards
from durak_spec.game.persist import state_to_json
from durak_spec.model.actions import Action
from durak_spec.model.rules import PROFILES, RuleSet
from durak_spec.model.state import GameState
from durak_spec.protocol import Engine, ReferenceEngine, Report, Verdict
from durak_spec.spec.gherkin import Example, Specification
from durak_spec.spec.runner import RunResult, ScenarioResult, run

from .site import BookError

__all__ = ["Event", "ExampleFailed", "Played", "Run", "broken_examples", "check_python",
           "play_all", "python_of"]

_MAX_EVENTS = 400


@dataclass(frozen=True, slots=True)
class Event:
    """A position the engine was given (``load``, ``start``) or reached (``apply``)."""

    kind: str
    after: GameState
    before: GameState | None = None
    action: Action | None = None
    accepted: bool = True
    rule: str | None = None
    """The rule a rejected action broke."""


class _Recorder(ReferenceEngine):
    """The reference engine, remembering every position it was given or reached."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[Event] = []

    def _note(self, event: Event) -> None:
        if len(self.events) < _MAX_EVENTS:
            self.events.append(event)

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        report = super().start(rules, deck, seed)
        self._note(Event("start", self.state))
        return report

    def load(self, state: GameState) -> Report:
        report = super().load(state)
        self._note(Event("load", self.state))
        return report

    def apply(self, action: Action) -> Verdict:
        before = self.state
        verdict = super().apply(action)
        self._note(Event("apply", self.state, before, action, verdict.ok,
                         getattr(verdict, "rule", None)))
        return verdict


@dataclass(frozen=True, slots=True)
class Played:
    """One example as the reference engine played it."""

    example: Example
    result: ScenarioResult
    events: tuple[Event, ...]

    @property
    def passed(self) -> bool:
        return self.result.outcome == "passed"

    @property
    def names(self) -> tuple[str, ...]:
        return self.result.players


@dataclass(frozen=True)
class Run:
    """Every example of a specification, played."""

    played: Mapping[str, Played]
    """Example number -> how it was played."""
    result: RunResult


def play_all(spec: Specification, *,
             progress: Callable[[int, int], None] | None = None) -> Run:
    """Run every example of ``spec`` against the reference engine, recording positions."""
    created: list[_Recorder] = []
    played: dict[str, Played] = {}
    by_number = {e.number: e for e in spec.examples()}

    def factory() -> Engine:
        engine = _Recorder()
        created.append(engine)
        return engine

    def step(done: int, total: int, result: ScenarioResult | None) -> None:
        engines = list(created)  # scenarios run one after the other
        created.clear()
        if result is not None and result.example in by_number:
            events = tuple(e for engine in engines for e in engine.events)
            played[result.example] = Played(by_number[result.example], result, events)
        if progress is not None:
            progress(done, total)

    files = [f.path for f in spec.features]
    outcome = run(factory, trace=True, features=files, progress=step)
    return Run(played=MappingProxyType(played), result=outcome)


# -- what did not pass ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Broken:
    """An example that did not pass, in the words of the build's report."""

    number: str
    file: str
    line: int
    """The line of the failing step (else of the example)."""
    name: str
    step: str | None
    message: str

    def lines(self) -> list[str]:
        head = f"{self.number} ({self.file}:{self.line}) {self.name}"
        out = [head]
        if self.step:
            out.append(f"    step: {self.step}")
        for number, line in enumerate(self.message.strip().splitlines() or ["(no message)"]):
            out.append(("    got:  " if number == 0 else "          ") + line)
        return out


class ExampleFailed(BookError):
    """Examples of the specification did not pass against the reference engine."""

    code = "example-failed"

    def __init__(self, broken: Sequence[Broken]) -> None:
        self.broken = tuple(broken)
        count = len(self.broken)
        lines = [f"{count} example{'s' if count != 1 else ''} of the specification did not "
                 "pass against the reference engine:"]
        for item in self.broken:
            lines.extend("  " + line for line in item.lines())
        super().__init__("\n".join(lines))

    @property
    def failures(self) -> tuple[str, ...]:
        return tuple(f"{b.number} ({b.file}:{b.line})" for b in self.broken)


def broken_examples(spec: Specification, outcome: Run) -> tuple[Broken, ...]:
    """Every example of ``spec`` that did not pass (or was not run), in file order."""
    broken: list[Broken] = []
    for example in spec.examples():
        played = outcome.played.get(example.number)
        if played is None:
            broken.append(Broken(example.number, example.path.name, example.line, example.name,
                                 None, "the example was not run"))
            continue
        result = played.result
        if result.outcome == "passed":
            continue
        message = result.message or result.outcome
        if result.outcome == "skipped":
            message = f"skipped by the reference engine: {result.skip_reason}"
        broken.append(Broken(example.number, example.path.name, result.step_line or example.line,
                             example.name, result.step, message))
    for result in outcome.result.with_outcome("failed", "errored"):
        if not result.example or result.example.endswith(".feature"):
            broken.append(Broken(result.feature, result.feature, result.line, result.name,
                                 result.step, result.message or result.outcome))
    return tuple(broken)


# -- the Python behind an example ---------------------------------------------------------------


def _start_state(played: Played) -> tuple[Event, tuple[Event, ...]] | None:
    """The first position given to the engine and the moves made from it."""
    events = played.events
    first = next((i for i, e in enumerate(events) if e.kind in ("load", "start")), None)
    if first is None:
        return None
    moves: list[Event] = []
    for event in events[first + 1:]:
        if event.kind != "apply":
            break  # a second game (a new deal): the code shows the first
        moves.append(event)
    return events[first], tuple(moves)


_WIDTH = 88
_API = ("GameState", "IllegalAction", "Pair", "RuleSet", "Suit", "apply", "check",
        "parse_action", "parse_card", "parse_cards", "profile")
"""The names of ``durak_spec`` the code of an example may use (it imports those it does)."""


def _cards_code(cards: Sequence[Card], indent: int = 0) -> str:
    """``parse_cards("7♣ 9♣")``; a long list goes on as adjacent strings, lined up under
    the first at column ``indent`` + 12."""
    if not cards:
        return "()"
    chunks = [format_cards(cards[i:i + 12]) for i in range(0, len(cards), 12)]
    pad = "\n" + " " * (indent + len("parse_cards("))
    return "parse_cards(" + pad.join(f'"{c}{" " if i < len(chunks) - 1 else ""}"'
                                     for i, c in enumerate(chunks)) + ")"


def _rules_code(rules: RuleSet) -> str:
    """The rule set in one expression: a profile's if it is one, else its differences."""
    for name, known in PROFILES.items():
        if known.rules(rules.players) == rules:
            return f'profile("{name}").rules({rules.players})'
    default = RuleSet().to_dict()
    changed = {k: v for k, v in rules.to_dict().items() if v != default[k] or k == "players"}
    axes = ", ".join(f'"{k}": {json.dumps(v) if isinstance(v, str) else repr(v)}'
                     for k, v in changed.items())
    return f"RuleSet.from_dict({{{axes}}})"


def _state_code(state: GameState) -> list[str]:
    """``GameState(...)`` with the fields that differ from their defaults, by keyword."""
    hands = [_cards_code(h, 11) for h in state.hands]
    one_line = "hands=(" + ", ".join(hands) + ("," if len(hands) == 1 else "") + ")"
    fields = [f"rules={_rules_code(state.rules)}",
              f'trump=Suit.parse("{state.trump.symbol}")',
              one_line if len(one_line) < _WIDTH - 6 and "\n" not in one_line else
              "hands=(" + ",\n           ".join(hands) + ("," if len(hands) == 1 else "") + ")",
              f"stock={_cards_code(state.stock, 10)}"]
    if state.table:
        pairs = [f'Pair(parse_card("{p.attack}"))' if p.cover is None else
                 f'Pair(parse_card("{p.attack}"), parse_card("{p.cover}"))' for p in state.table]
        fields.append("table=(" + ",\n           ".join(pairs) + ",)")
    if state.discard:
        fields.append(f"discard={_cards_code(state.discard, 12)}")
    defaults = GameState(rules=state.rules, hands=state.hands, stock=state.stock,
                         trump=state.trump)
    for name in ("attacker", "defender", "opener", "bout", "taking", "joined", "start_hands",
                 "finished", "thrower"):
        value = getattr(state, name)
        if value != getattr(defaults, name):
            fields.append(f"{name}={value!r}")
    if state.passed:
        fields.append(f"passed=frozenset({sorted(state.passed)!r})")
    if state.shown:
        fields.append(f"shown=frozenset({_cards_code(sorted(state.shown))})")
    if state.known != defaults.known:
        known = ", ".join(f"frozenset({_cards_code(sorted(k))})" if k else "frozenset()"
                          for k in state.known)
        fields.append(f"known=(frozenset(),) * {len(state.known)}" if not any(state.known)
                      else f"known=({known},)")
    return ["state = GameState(", *(f"    {field}," for field in fields), ")"]


def python_of(played: Played) -> str | None:
    """A few lines of Python that reproduce the example with the public API: the position
    built by keyword, the moves made (each refusal checked for its rule), the position
    printed; ``None`` if the example plays no position (it is about the rule set alone)."""
    found = _start_state(played)
    if found is None:
        return None
    start, moves = found
    names = played.names
    lines: list[str] = []
    if names:
        lines.append("# " + ", ".join(f"{n} is P{i}" for i, n in enumerate(names)))
    lines.extend(_state_code(start.after))
    for move in moves:
        if move.action is None:
            continue
        notation = str(move.action)
        who = names[move.action.player] if move.action.player < len(names) else ""
        if move.accepted:
            lines.append(f'state = apply(state, parse_action("{notation}"))'
                         + (f"  # {who}" if who else ""))
        else:
            lines.append("try:")
            lines.append(f'    check(state, parse_action("{notation}"))'
                         + (f"  # {who}" if who else ""))
            lines.append('    raise AssertionError("the rules forbid this move")')
            lines.append("except IllegalAction as error:")
            lines.append(f'    assert error.rule == "{move.rule}"')
    lines.append("print(state.describe())")
    body = "\n".join(lines)
    used = sorted(name for name in _API if re.search(rf"\b{name}\(|\b{name}\b(?=\.| as )",
                                                     body))
    one = "from durak_spec import " + ", ".join(used)
    if len(one) <= _WIDTH:
        return f"{one}\n\n{body}\n"
    head = ["from durak_spec import ("]
    line = "   "
    for name in used:
        if len(line) + len(name) + 2 > _WIDTH:
            head.append(line)
            line = "   "
        line += f" {name},"
    return "\n".join([*head, line, ")", "", body]) + "\n"


def check_python(played: Played, code: str) -> str | None:
    """Run the code of :func:`python_of` and compare its final position with the run's;
    ``None`` if they agree, else what went wrong (in one line)."""
    import contextlib
    import io

    found = _start_state(played)
    if found is None:
        return None
    start, moves = found
    accepted = [m for m in moves if m.accepted]
    expected = accepted[-1].after if accepted else start.after
    namespace: dict[str, object] = {"__name__": "durak_book_example"}
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, f"<example {played.example.number}>", "exec"), namespace)
    except Exception as error:  # the code of the book must run: say what broke
        return f"{type(error).__name__}: {error}"
    got = namespace.get("state")
    if not isinstance(got, GameState):
        return "the code did not leave a GameState in 'state'"
    if json.dumps(state_to_json(got)) != json.dumps(state_to_json(expected)):
        return "the code reaches another position than the example"
    return None


def position_json(state: GameState) -> str:
    """The saved-position JSON of ``state``, compact (for ``data-position``)."""
    return json.dumps(state_to_json(state), ensure_ascii=False, separators=(",", ":"))


def _stderr(text: str) -> None:
    print(text, file=sys.stderr)


def features_root(spec: Specification) -> Path:
    return spec.directory
