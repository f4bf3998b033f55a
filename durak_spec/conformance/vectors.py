"""The test vectors: the shipped document, its generation, and a runner that plays them
against any engine through the engine protocol (layer 7).

:func:`generate` writes the document of :mod:`durak_spec.spec.vector_format` from the
features (:mod:`durak_spec.spec.vectors`), the example dependencies
(:mod:`durak_spec.conformance.dependencies`) and the perft tables
(``durak_spec/data/perft/*.json``, inline under ``perft``: one download holds the whole
suite). The package ships it as ``durak_spec/data/vectors.json`` and its JSON Schema as
``durak_spec/data/vectors.schema.json``; a test holds both to a regeneration.

:func:`run_vectors` is the vectors' runner in Python, as a runner in another language
would be written (``examples/vectors.test.js`` is the one in JavaScript): it knows
nothing of Gherkin or of the reference engine, only the document and
:class:`durak_spec.protocol.Engine`. It returns the scenario runner's
:class:`~durak_spec.spec.runner.RunResult`, so ``durak-spec check --vectors FILE`` reports
as the scenario run does. A vector whose rules the engine does not claim is played under
the nearest claimed rules that differ only where its outcome does not depend on them
(``depends_on``), else skipped with the reason; one that needs a capability the engine
lacks (``load``, the ``known`` cards of a report) is skipped too.
"""

from __future__ import annotations

import importlib.resources
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NoReturn

import msgspec
import pytest

from durak_spec.conformance.dependencies import load_dependencies, playing_rules
from durak_spec.core.cards import Card, parse_card
from durak_spec.core.errors import InputError
from durak_spec.core.jsonio import read_json, write_json
from durak_spec.game.persist import SavedGameError, state_from_json
from durak_spec.model.actions import Action, Done, Open, Transfer, action_from_json
from durak_spec.model.rules import MAX_PLAYERS, MIN_PLAYERS, LaterGameLead, RuleSet, TurnOrder
from durak_spec.model.state import Outcome
from durak_spec.protocol import (
    Accepted,
    Capabilities,
    Engine,
    LoadDeclined,
    ReferenceEngine,
    Rejected,
    Report,
    Verdict,
)
from durak_spec.protocol.subprocess_engine import EngineFailure
from durak_spec.spec import vector_format as vf
from durak_spec.spec.runner import Outcome as ResultOutcome
from durak_spec.spec.runner import Progress, RunResult, ScenarioResult
from durak_spec.spec.vectors import build_document, digest

__all__ = [
    "SCHEMA_RESOURCE",
    "VECTORS_RESOURCE",
    "VectorsFileError",
    "document_text",
    "generate",
    "read_vectors",
    "run_vectors",
    "schema_text",
    "shipped_vectors",
]

VECTORS_RESOURCE: Final = "data/vectors.json"
SCHEMA_RESOURCE: Final = "data/vectors.schema.json"


class VectorsFileError(InputError):
    """A vectors file that cannot be read (the message says where and why)."""

    code = "vectors-file"


# -- the document ---------------------------------------------------------------------------


def _perft_tables() -> dict[str, Any]:
    folder = importlib.resources.files("durak_spec") / "data" / "perft"
    tables = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            tables[entry.name.removesuffix(".json")] = read_json(
                entry.read_text(encoding="utf-8"))
    return tables


def generate(features: Path | None = None) -> vf.Document:
    """The vectors of the features (default: the specification's), with the shipped
    dependencies and perft tables, and the bout protocols under which a vector's moves,
    taken in the order written, cannot be played (:func:`_literal_turn_orders`)."""
    document = build_document(load_dependencies(), _perft_tables(), features)
    vectors = [_literal_turn_orders(vector) for vector in document.vectors]
    return msgspec.structs.replace(document, vectors=vectors, digest=digest(vectors))


_TURN_BASED: Final = tuple(str(order.value) for order in TurnOrder
                           if order is not TurnOrder.FREE)


def _literal_turn_orders(vector: vf.Vector) -> vf.Vector:
    """``vector`` with ``depends_on.turn_order`` completed: a vector lists its moves in
    the order the scenario writes them, for the free bout protocol (CLAR-3); the checker's
    step library reorders them for a turn-based protocol (CLAR-17, CLAR-18), a runner of
    the vectors does not. So where the reference, playing the written order under a
    turn-based protocol, does not pass the vector, its outcome depends on that protocol
    for a runner: the vector says so, and a turn-based engine skips it."""
    if vector.rules.get("turn_order") != TurnOrder.FREE.value:
        return vector
    listed = set(vector.depends_on.get("turn_order", ()))
    broken = []
    for order in _TURN_BASED:
        if order in listed:
            continue
        trial = msgspec.structs.replace(vector, rules={**vector.rules, "turn_order": order},
                                        depends_on={})
        if _play_one(ReferenceEngine, trial).outcome != "passed":
            broken.append(order)
    if not broken:
        return vector
    depends = dict(vector.depends_on)
    depends["turn_order"] = sorted(listed | set(broken))
    return msgspec.structs.replace(vector, depends_on=dict(sorted(depends.items())))


def document_text(document: vf.Document) -> str:
    """The document as the package ships it: UTF-8 JSON with one line per vector (and per
    perft table), so that a change of the specification shows as a change of its lines."""
    data = msgspec.to_builtins(document)
    lines = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        value = data[key]
        end = "," if i < len(keys) - 1 else ""
        if isinstance(value, list) and value:
            items = [f"  {write_json(item)}" for item in value]
            lines.append(f" {write_json(key)}: [\n" + ",\n".join(items) + f"\n ]{end}")
        elif isinstance(value, dict) and value:
            items = [f"  {write_json(k)}: {write_json(v)}" for k, v in value.items()]
            lines.append(f" {write_json(key)}: {{\n" + ",\n".join(items) + f"\n }}{end}")
        else:
            lines.append(f" {write_json(key)}: {write_json(value)}{end}")
    return "\n".join(lines) + "\n}\n"


def schema_text() -> str:
    """The JSON Schema of the document, as the package ships it."""
    return write_json(vf.vectors_schema(), indent=1)


def read_vectors(source: str | Path | bytes) -> vf.Document:
    """A vectors document from a file path or its bytes, checked against the format."""
    where = "the vectors"
    if isinstance(source, str | Path):
        where = str(source)
        try:
            data = Path(source).read_bytes()
        except OSError as error:
            raise VectorsFileError(f"{where}: cannot be read: {error.strerror}") from None
    else:
        data = source
    try:
        document = msgspec.json.decode(data, type=vf.Document)
    except msgspec.DecodeError as error:
        raise VectorsFileError(f"{where}: not a durak-spec/vectors document: {error}") from None
    if document.version != vf.FORMAT_VERSION:
        raise VectorsFileError(f"{where}: format version {document.version}; this durak-spec "
                               f"reads version {vf.FORMAT_VERSION}")
    return document


def shipped_vectors() -> vf.Document:
    """The vectors shipped with the package."""
    resource = importlib.resources.files("durak_spec") / VECTORS_RESOURCE
    return read_vectors(resource.read_bytes())


# -- running one vector -----------------------------------------------------------------------


class _Failed(Exception):
    def __init__(self, step: str, message: str) -> None:
        super().__init__(message)
        self.step = step


class _Skipped(Exception):
    pass


def _key(action: Action) -> object:
    if isinstance(action, Open):
        return (Open, action.player, frozenset(action.played))
    return action


def _cards(texts: Iterable[str]) -> set[Card]:
    return {parse_card(t) for t in texts}


def _show(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in sorted(cards)) or "no cards"


@dataclass
class _Ended:
    cards: tuple[Card, ...]
    defender: int
    discard_before: int


class _Play:
    """One vector played on one engine."""

    def __init__(self, engine: Engine, vector: vf.Vector, rules: RuleSet) -> None:
        self.engine = engine
        self.vector = vector
        self.rules = rules
        self.step = ""
        self.started = False
        self.deck: tuple[Card, ...] = ()
        self.seed = 0
        self.ended: _Ended | None = None
        self.unnamed: list[str] = []

    def fail(self, message: str) -> NoReturn:
        raise _Failed(self.step, message)

    def name(self, seat: int | None) -> str:
        players = self.vector.players
        return "nobody" if seat is None else players[seat] if seat < len(players) else f"P{seat}"

    def run(self) -> None:
        for step in self.vector.steps:
            self.step = step.text
            self.do(step)

    def do(self, step: vf.Step) -> None:
        if isinstance(step, vf.Load):
            self.load(step)
        elif isinstance(step, vf.Deal):
            self.deal(step)
        elif isinstance(step, vf.Setup):
            self.setup(step)
        elif isinstance(step, vf.Act):
            self.act(step)
        elif isinstance(step, vf.AllDone):
            for _ in range(64):
                dones = [a for a in self.engine.legal_actions() if isinstance(a, Done)]
                if not dones:
                    return
                self.apply(dones[0], "accepted", None)
            self.fail("attackers kept being asked to say done")
        else:
            self.expect(step)

    # -- moves --------------------------------------------------------------------------

    def load(self, step: vf.Load) -> None:
        capabilities = self.engine.capabilities()
        if not capabilities.load:
            raise _Skipped(f"{capabilities.name} cannot start from a described position "
                           "(no 'load' capability)")
        state_doc = {**step.state, "rules": self.rules.to_dict()}
        try:
            state = state_from_json(state_doc)
        except SavedGameError as error:
            self.fail(f"the vector's position cannot be read under the rules played: {error}")
        try:
            self.engine.load(state)
        except LoadDeclined as declined:
            raise _Skipped(f"{capabilities.name} declined to load the position: "
                           f"{declined.message}") from None
        self.started = True

    def deal(self, step: vf.Deal) -> None:
        deck = tuple(parse_card(c) for c in step.deck)
        previous = None
        if step.after_game and self.started:
            report = self.engine.report()
            if report.over:
                previous = Outcome(report.finished, report.durak)
        later = previous is not None and self.rules.later_game_lead \
            is not LaterGameLead.LOWEST_TRUMP
        start_later = getattr(self.engine, "start_later", None)
        if later and start_later is None:
            raise _Skipped("the engine cannot be told the last game's outcome (no "
                           "start_later), which these rules need to deal the next game")
        self.deck, self.seed, self.ended = deck, step.seed, None
        verdict: Verdict
        try:
            if later and start_later is not None:
                start_later(self.rules, deck, step.seed, previous)
            else:
                self.engine.start(self.rules, deck, step.seed)
        except EngineFailure:  # a broken engine errs the vector; it is no verdict
            raise
        except ValueError as error:
            rule = getattr(error, "rule", None)
            verdict = Rejected(str(error), rule if isinstance(rule, str) else None)
        else:
            verdict = Accepted()
        self.started = True
        self.verdict(verdict, step.verdict, step.rule, "the deal")

    def setup(self, step: vf.Setup) -> None:
        """Ask for a game of ``step.players`` players as the protocol asks for any game
        (``start``); a count no rule set holds goes through the engine's ``start_for``."""
        capabilities = self.engine.capabilities()
        players = step.players
        if step.verdict == "accepted" and players not in capabilities.players:
            raise _Skipped(f"{capabilities.name} does not play with {players} players")
        start_for = getattr(self.engine, "start_for", None)
        if start_for is None and not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise _Skipped(f"the engine cannot be asked for a game of {players} players (no "
                           "start_for), which these rules forbid (DEAL-3)")
        deck = tuple(parse_card(c) for c in step.deck)
        self.deck, self.seed, self.ended = deck, step.seed, None
        verdict: Verdict
        try:
            if start_for is not None:
                start_for(players, self.rules, deck, step.seed)
            else:
                self.engine.start(self.rules.with_players(players), deck, step.seed)
        except EngineFailure:  # a broken engine errs the vector; it is no verdict
            raise
        except ValueError as error:
            rule = getattr(error, "rule", None)
            verdict = Rejected(str(error), rule if isinstance(rule, str) else None)
        else:
            verdict = Accepted()
            self.started = True
            if MIN_PLAYERS <= players <= MAX_PLAYERS:  # else the verdict below fails
                self.rules = self.rules.with_players(players)
        self.verdict(verdict, step.verdict, step.rule,
                     f"a game for {players} player{'' if players == 1 else 's'}")

    def act(self, step: vf.Act) -> None:
        try:
            action = action_from_json(msgspec.to_builtins(step.action))
        except (ValueError, KeyError, TypeError) as error:
            self.fail(f"the vector's action {step.action} cannot be read: {error}")
        self.apply(action, step.verdict, step.rule)

    def apply(self, action: Action, expected: str, rule: str | None) -> None:
        legal = {_key(a) for a in self.engine.legal_actions()}
        before = self.engine.report()
        verdict = self.engine.apply(action)
        move = f'{self.name(action.player)}\'s move "{action.move}"'
        listed = _key(action) in legal
        if verdict.ok and not listed:
            self.fail(f"the engine accepted {move}, but it is not among its legal actions")
        if not verdict.ok and listed:
            self.fail(f"the engine rejected {move}, but lists it among its legal actions")
        self.verdict(verdict, expected, rule, move)
        if verdict.ok:
            after = self.engine.report()
            self.ended = None
            if before.table and not after.table:
                on_table = [c for pair in before.table for c in pair if c is not None]
                if not (isinstance(action, Transfer) and action.show):
                    on_table += [c for c in action.cards if c not in on_table]
                self.ended = _Ended(tuple(on_table), before.defender, before.discard)

    def verdict(self, verdict: Verdict, expected: str, rule: str | None, move: str) -> None:
        if expected == "accepted" and isinstance(verdict, Rejected):
            because = f"{verdict.rule}: " if verdict.rule else ""
            self.fail(f"{move} was rejected ({because}{verdict.reason}), but the rules allow it")
        if expected == "rejected" and isinstance(verdict, Accepted):
            self.fail(f"{move} was accepted, but the rules forbid it"
                      + (f" ({rule})" if rule else ""))
        if isinstance(verdict, Rejected) and rule:
            if verdict.rule and verdict.rule != rule:
                self.fail(f"{move} was rejected by {verdict.rule} ({verdict.reason}), "
                          f"not by {rule}")
            if not verdict.rule:
                self.unnamed.append(f"{move} (expected {rule})")

    # -- expectations ---------------------------------------------------------------------

    def legal_of(self, seat: int) -> list[Action]:
        return [a for a in self.engine.legal_actions() if a.player == seat]

    def compare(self, what: str, have: Iterable[Card], texts: Sequence[str], mode: str) -> None:
        held, want = set(have), _cards(texts)
        if mode == "exactly" and held != want:
            self.fail(f"{what} {_show(held)}; expected exactly {_show(want)}")
        if mode == "each" and not want <= held:
            self.fail(f"{what} {_show(held)}; expected {_show(want - held)} among them")
        if mode == "none" and held & want:
            self.fail(f"{what} {_show(held)}; expected none of {_show(held & want)}")

    def known(self, report: Report, seat: int) -> tuple[Card, ...]:
        if len(report.known) != len(report.hands):
            raise _Skipped("the engine does not report which cards every player knows "
                           "(VIEW-2)")
        return report.known[seat]

    def expect(self, step: vf.Step) -> None:
        name = self.name
        if isinstance(step, vf.MayOpen):
            openings = {frozenset(a.cards) for a in self.legal_of(step.seat)
                        if isinstance(a, Open)}
            cards = _cards(step.cards)
            groups = [frozenset(cards)] if step.together else [frozenset((c,)) for c in cards]
            for group in groups:
                if (group in openings) != step.allowed:
                    self.fail(f"{name(step.seat)} {'may not' if step.allowed else 'may'} "
                              f"open with {_show(group)}")
        elif isinstance(step, vf.MayOpenAny):
            singles = {a.cards[0] for a in self.legal_of(step.seat)
                       if isinstance(a, Open) and len(a.cards) == 1}
            hand = self.engine.report().hands[step.seat]
            self.compare(f"{name(step.seat)} may open with", singles,
                         [str(c) for c in hand], "exactly")
        elif isinstance(step, vf.MayThrowIn):
            throws = [a.cards[0] for a in self.legal_of(step.seat) if a.kind == "throw"]
            self.compare(f"{name(step.seat)} may throw in", throws, step.cards, step.mode)
        elif isinstance(step, vf.MayCover):
            attack = parse_card(step.attack)
            covers = [a.cards[0] for a in self.legal_of(step.seat)
                      if a.kind == "cover" and getattr(a, "attack", None) == attack]
            self.compare(f"{name(step.seat)} may cover {attack} with", covers, step.cards,
                         step.mode)
        elif isinstance(step, vf.MayTransfer):
            transfers = [a.cards[0] for a in self.legal_of(step.seat) if isinstance(a, Transfer)
                         and (step.by == "any" or a.show == (step.by == "showing"))]
            self.compare(f"{name(step.seat)} may transfer with", transfers, step.cards,
                         step.mode)
        elif isinstance(step, vf.May):
            kinds = {"take": "take", "done": "done", "exchange": "exchange"}
            allowed = any(a.kind == kinds[step.move] for a in self.legal_of(step.seat))
            if allowed != step.allowed:
                self.fail(f"{name(step.seat)} {'may' if allowed else 'may not'} {step.move}")
        elif isinstance(step, vf.LegalMoves):
            want = {_key(action_from_json(msgspec.to_builtins(a))) for a in step.actions}
            have = {_key(a): a.move for a in self.legal_of(step.seat)}
            if set(have) != want:
                self.fail(f"{name(step.seat)}'s legal moves are: "
                          f"{', '.join(sorted(have.values())) or 'none'}")
        elif isinstance(step, vf.OnlyActs):
            legal = self.engine.legal_actions()
            others = sorted({name(a.player) for a in legal if a.player != step.seat})
            if not legal or others:
                self.fail(f"{name(step.seat)} has {'no' if not legal else 'not the only'} "
                          f"legal moves; others who may act: {', '.join(others) or 'nobody'}")
        elif isinstance(step, vf.NobodyActs):
            legal = self.engine.legal_actions()
            if legal:
                self.fail(f"{len(legal)} legal moves remain, among them {legal[0]}")
        elif isinstance(step, vf.Playable):
            playable = {c for a in self.legal_of(step.seat) for c in a.cards}
            self.compare(f"the cards {name(step.seat)} may play are", playable, step.cards,
                         "exactly")
        elif isinstance(step, vf.FirstAttackerBySeed):
            self.first_attackers(step)
        else:
            self.position(step, self.engine.report())

    def position(self, step: vf.Step, report: Report) -> None:
        name = self.name
        out = {seat for group in report.finished for seat in group}
        if isinstance(step, vf.Hand):
            self.compare(f"{name(step.seat)} holds", report.hands[step.seat], step.cards,
                         step.mode)
        elif isinstance(step, vf.HandSize):
            if len(report.hands[step.seat]) != step.count:
                self.fail(f"{name(step.seat)} holds {len(report.hands[step.seat])} cards: "
                          f"{_show(report.hands[step.seat])}")
        elif isinstance(step, vf.EachHandSize):
            wrong = [f"{name(s)} holds {len(h)}" for s, h in enumerate(report.hands)
                     if s not in out and len(h) != step.count]
            if wrong:
                self.fail("; ".join(wrong))
        elif isinstance(step, vf.TrumpsHeld):
            trumps = [c for h in report.hands for c in h if c.suit == report.trump]
            if len(trumps) != step.count:
                self.fail(f"the players hold {len(trumps)} trumps: {_show(trumps)}")
        elif isinstance(step, vf.Table):
            want = {(parse_card(a), None if c is None else parse_card(c)) for a, c in step.pairs}
            if set(report.table) != want:
                self.fail(f"the table shows {sorted(map(str, report.table))}")
        elif isinstance(step, vf.Stock):
            if report.stock != step.count:
                self.fail(f"the stock holds {report.stock} cards")
        elif isinstance(step, vf.Discard):
            if report.discard != step.count:
                self.fail(f"the discard pile holds {report.discard} cards")
        elif isinstance(step, vf.Trump):
            if report.trump.symbol != step.suit:
                self.fail(f"{report.trump.label} are trump")
        elif isinstance(step, vf.FaceUp):
            want_card = None if step.card is None else parse_card(step.card)
            if report.face_up != want_card:
                self.fail(f"the face-up trump is {report.face_up or 'missing'}")
        elif isinstance(step, vf.Roles):
            if step.bout_over and report.table:
                self.fail("the bout is still going on")
            if (report.attacker, report.defender) != (step.attacker, step.defender):
                self.fail(f"{name(report.attacker)} attacks {name(report.defender)}")
        elif isinstance(step, vf.Known):
            self.compare(f"everyone knows that {name(step.seat)} holds",
                         self.known(report, step.seat), step.cards, step.mode)
        else:
            self.outcome(step, report, out)

    def outcome(self, step: vf.Step, report: Report, out: set[int]) -> None:
        name = self.name
        if isinstance(step, vf.BeatenOff | vf.Taken):
            ended = self.ended
            if ended is None:
                self.fail("the last move did not end a bout")
            if isinstance(step, vf.Taken):
                if ended.defender != step.seat:
                    self.fail(f"{name(ended.defender)} defended the bout, not {name(step.seat)}")
                self.compare(f"{name(step.seat)} holds", report.hands[step.seat],
                             [str(c) for c in ended.cards], "each")
                return
            kept = set(ended.cards) & set(report.hands[ended.defender])
            grew = report.discard - ended.discard_before
            if kept or grew != len(ended.cards):
                self.fail(f"the bout's {len(ended.cards)} cards did not go to the discard "
                          f"pile: it grew by {grew}")
        elif isinstance(step, vf.BoutGoesOn):
            if not report.table:
                self.fail("the bout has ended: the table is empty")
        elif isinstance(step, vf.Durak):
            if not report.over or report.durak != step.seat:
                self.fail("the game goes on" if not report.over
                          else f"the durak is {name(report.durak)}")
        elif isinstance(step, vf.DrawGame | vf.NoDurak):
            if not report.over:
                self.fail("the game goes on")
            if report.durak is not None:
                self.fail(f"{name(report.durak)} is the durak")
            holding = [name(s) for s, h in enumerate(report.hands) if h]
            if isinstance(step, vf.DrawGame) and holding:
                self.fail(f"the game is over, but {' and '.join(holding)} still hold cards")
        elif isinstance(step, vf.GameGoesOn):
            if report.over:
                self.fail("the game is over")
        elif isinstance(step, vf.Out):
            for seat in step.seats:
                if seat not in out:
                    self.fail(f"{name(seat)} is still in the game")
        elif isinstance(step, vf.InGame):
            if step.seat in out:
                self.fail(f"{name(step.seat)} is out")
        elif isinstance(step, vf.FinishingOrder):
            if [set(g) for g in report.finished] != [set(g) for g in step.groups]:
                self.fail(f"the finishing order is {[list(g) for g in report.finished]}")
        elif isinstance(step, vf.FirstOut):
            if step.over and not report.over:
                self.fail("the game goes on")
            first = set(report.finished[0]) if report.finished else set()
            if first != set(step.seats):
                self.fail(f"{' and '.join(name(s) for s in sorted(first)) or 'nobody'} "
                          "went out first")
        else:  # pragma: no cover - the vocabulary is closed
            self.fail(f"unknown kind of step: {type(step).__name__}")

    def first_attackers(self, step: vf.FirstAttackerBySeed) -> None:
        report = self.engine.report()
        held = [c for h in report.hands for c in h if c.suit == report.trump]
        try:
            firsts = {seed: self.engine.start(self.rules, self.deck, seed).attacker
                      for seed in range(step.seeds)}
            again = {seed: self.engine.start(self.rules, self.deck, seed).attacker
                     for seed in range(min(5, step.seeds))}
        finally:
            self.engine.start(self.rules, self.deck, self.seed)
        if any(firsts[s] != again[s] for s in again):
            self.fail("dealing the same deck with the same seed picked different first "
                      "attackers")
        if step.seat is None:
            if held:
                self.fail(f"{_show(held)} are trumps in the hands, so the lowest trump leads "
                          "(ORDER-1) and chance is not asked")
            missing = [self.name(s) for s in range(len(report.hands))
                       if s not in firsts.values()]
            if missing:
                self.fail(f"over {step.seeds} seeds, {', '.join(missing)} never attacked first")
        else:
            wrong = {s: self.name(a) for s, a in firsts.items() if a != step.seat}
            if wrong:
                self.fail(f"with some seeds another player attacks first: {wrong}")


# -- running every vector ---------------------------------------------------------------------


def _rules_for(vector: vf.Vector, capabilities: Capabilities) -> RuleSet | str:
    rules = RuleSet.from_dict(vector.rules)
    adapt = playing_rules({vector.example: {a: tuple(v) for a, v in vector.depends_on.items()}})
    return adapt(vector.example, capabilities, rules)


def _play_one(factory: Callable[[], Engine], vector: vf.Vector) -> ScenarioResult:
    started = time.perf_counter()
    outcome: ResultOutcome = "passed"
    step: str | None = None
    message: str | None = None
    skip: str | None = None
    unnamed: tuple[str, ...] = ()
    try:
        engine = factory()
    except pytest.skip.Exception as skipped:  # a kept engine that timed out too often
        outcome, skip = "skipped", str(skipped.msg)
    except Exception as error:
        outcome, message = "errored", f"while setting up the vector: {error}"
    else:
        try:
            chosen = _rules_for(vector, engine.capabilities())
            if isinstance(chosen, str):
                outcome, skip = "skipped", f"the engine does not claim these rules: {chosen}"
            else:
                play = _Play(engine, vector, chosen)
                try:
                    play.run()
                except _Failed as failed:
                    outcome, step, message = "failed", failed.step, str(failed)
                except _Skipped as skipped:
                    outcome, skip = "skipped", str(skipped)
                except Exception as error:
                    outcome, step = "errored", play.step
                    message = f"{type(error).__name__}: {error}"
                unnamed = tuple(play.unnamed)
        except Exception as error:
            outcome, message = "errored", f"{type(error).__name__}: {error}"
        finally:
            try:
                engine.close()
            except Exception as error:
                if outcome == "passed":
                    outcome, message = "errored", f"closing the engine: {error}"
    return ScenarioResult(
        feature=vector.feature, line=vector.line, name=vector.title,
        rule_ids=tuple(vector.rule_ids), tags=tuple(vector.rule_ids), outcome=outcome,
        step=step, message=message, skip_reason=skip, profile=None,
        players=tuple(vector.players), seconds=time.perf_counter() - started,
        nodeid=f"{vector.feature}::{vector.example}", example=vector.example,
        unnamed=unnamed if outcome == "passed" else ())


def run_vectors(document: vf.Document, factory: Callable[[], Engine] | None = None, *,
                rules: Iterable[str] = (), keyword: str | None = None,
                progress: Progress | None = None, source: Path | str = "vectors.json"
                ) -> RunResult:
    """Play every vector on a fresh engine each (default: the reference engine), as
    :func:`durak_spec.spec.runner.run` plays the scenarios: those of any of ``rules`` (rule
    IDs) whose number, place or title contains ``keyword`` (case-insensitive). ``source``
    names the vectors' file in the result (its ``features``)."""
    make = factory or ReferenceEngine
    wanted = {r.strip().upper() for r in rules}
    word = (keyword or "").strip().lower()

    def keeps(vector: vf.Vector) -> bool:
        if wanted and not wanted & set(vector.rule_ids):
            return False
        return not word or word in (f"{vector.example} {vector.feature}:{vector.line} "
                                    f"{vector.title}").lower()

    chosen = [v for v in document.vectors if keeps(v)]
    started = time.perf_counter()
    results: list[ScenarioResult] = []
    name = ""
    for done, vector in enumerate(chosen, 1):
        result = _play_one(make, vector)
        results.append(result)
        if progress is not None:
            progress(done, len(chosen), result)
    if chosen:
        try:
            probe = make()
            name = probe.capabilities().name
            probe.close()
        except Exception:  # the results already say what went wrong
            name = ""
    return RunResult(scenarios=tuple(results), features=Path(source), engine=name,
                     seconds=time.perf_counter() - started,
                     deselected=len(document.vectors) - len(chosen))
