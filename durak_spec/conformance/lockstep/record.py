"""Records: replayable games (the rules, the deck in dealing order, the seed, the steps,
and optionally a position to begin from), and their JSON format."""


from __future__ import annotations

from dataclasses import dataclass, replace

from durak_spec.core.cards import Card, CardError, parse_card
from durak_spec.core.errors import DurakError, InputError
from durak_spec.core.jsonio import (
    JsonError,
    expect_bool,
    expect_int,
    expect_list,
    expect_object,
    expect_str,
    fail,
    members,
    path_text,
    read_json,
)
from durak_spec.core.jsonio import show as show_json
from durak_spec.engine import check_reachable
from durak_spec.game.persist import SavedGameError, state_from_json, state_to_json
from durak_spec.model.actions import Action, parse_action
from durak_spec.model.rules import AXES, RuleSet, RuleSetError
from durak_spec.model.state import GameState

RECORD_FORMAT = "durak-spec/lockstep-record"
RECORD_VERSION = 1

class RecordError(InputError):
    """A lockstep record (JSON) that cannot be read; the message names the field."""

    code = "lockstep-record"


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a record: an action to play, or an illegal action to try (a probe)."""

    action: Action
    probe: bool = False
    """A probe: the reference rejects the action; the engine must reject it and change
    nothing."""

    def to_json(self) -> str | dict[str, str]:
        return {"probe": str(self.action)} if self.probe else str(self.action)

    @classmethod
    def from_json(cls, value: object, where: str) -> Step:
        try:
            if isinstance(value, str):
                return cls(parse_action(value))
            if isinstance(value, dict) and set(value) == {"probe"} and \
                    isinstance(value["probe"], str):
                return cls(parse_action(value["probe"]), probe=True)
        except DurakError as error:
            raise RecordError(f"{where}: {error}") from None
        raise RecordError(f"{where}: a step is an action in notation (\"P0 open 7♣\") or "
                          f"{{\"probe\": \"P1 take\"}}, not {show_json(value)}")

    def __str__(self) -> str:
        return f"probe {self.action}" if self.probe else str(self.action)


@dataclass(frozen=True, slots=True)
class Record:
    """A game both engines can replay: the rules, the deck, the seed and the steps; or,
    with ``start``, a position of that game loaded into the engine and the steps after
    it."""

    rules: RuleSet
    deck: tuple[Card, ...]
    seed: int
    steps: tuple[Step, ...] = ()
    profile: str | None = None
    """The profile the rules come from (for the reader; replay uses ``rules``)."""
    start: GameState | None = None
    """Where the replay begins: ``None`` for the deal (``engine.start`` with the deck and
    the seed), else a position of the game (the reference's, ``engine.load``); the deck
    and the seed then say which game it comes from."""
    past_legal: bool = False
    """Whether the replay goes on past differences of legal actions before the last step,
    as lockstep does (both sides are still in the same position): for a divergence met
    later in a game, replayed from the deal in an engine that cannot load."""

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions played (probes left out)."""
        return tuple(step.action for step in self.steps if not step.probe)

    def prefix(self, length: int) -> Record:
        return replace(self, steps=self.steps[:length])

    def to_json(self) -> dict[str, object]:
        """The record as JSON: actions in the project's notation, cards as ``"7♣"``; a
        ``start`` position as a saved position (:func:`~durak_spec.game.persist.state_to_json`),
        left out for a record that begins at the deal."""
        out: dict[str, object] = {
            "format": RECORD_FORMAT, "version": RECORD_VERSION, "profile": self.profile,
            "rules": self.rules.to_dict(), "deck": [str(c) for c in self.deck],
            "seed": self.seed, "steps": [step.to_json() for step in self.steps]}
        if self.start is not None:
            out["start"] = state_to_json(self.start)
        if self.past_legal:
            out["past_legal"] = True
        return out

    @classmethod
    def from_json(cls, data: object) -> Record:
        """Read :meth:`to_json`'s document back, strictly; errors name the field."""
        try:
            return cls._read(data)
        except JsonError as error:
            raise RecordError(str(error), code=error.code) from None

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """A record from its JSON text (read by :func:`~durak_spec.core.jsonio.read_json`)."""
        try:
            return cls._read(read_json(text, what="a lockstep record"))
        except JsonError as error:
            raise RecordError(str(error), code=error.code) from None

    @classmethod
    def _read(cls, data: object) -> Record:
        document = expect_object(data, None, ("format", "version", "rules", "deck", "seed",
                                              "steps"), ("profile", "start", "past_legal"))
        if document["format"] != RECORD_FORMAT:
            fail("format", f"must be {RECORD_FORMAT!r}, not {show_json(document['format'])}: this "
                 "is not a lockstep record")
        if document["version"] != RECORD_VERSION:
            fail("version", f"must be {RECORD_VERSION}, not {show_json(document['version'])}")
        rules_data = document["rules"]
        if not isinstance(rules_data, dict):
            fail("rules", f"must be a JSON object of axes, not {show_json(rules_data)}")
        try:
            rules = RuleSet.from_dict(rules_data)
        except RuleSetError as error:
            fail("rules", str(error))
        deck = []
        for item, where in members(expect_list(document["deck"], "deck"), "deck"):
            try:
                deck.append(parse_card(expect_str(item, where)))
            except CardError as error:
                fail(where, str(error))
        seed = expect_int(document["seed"], "seed", -(2**63), 2**63)
        steps = tuple(Step.from_json(step, path_text(where)) for step, where
                      in members(expect_list(document["steps"], "steps"), "steps"))
        profile = document.get("profile")
        if profile is not None:
            expect_str(profile, "profile", empty=False)
        start = document.get("start")
        past_legal = expect_bool(document.get("past_legal", False), "past_legal")
        return cls(rules, tuple(deck), seed, steps, profile,
                   None if start is None else _start_position(start, rules), past_legal)


def _start_position(data: object, rules: RuleSet) -> GameState:
    """A record's ``start``: a saved position (read strictly, as every saved position is)
    of a game under the record's rules that play can reach."""
    try:
        state = state_from_json(data)
    except SavedGameError as error:  # (the strict check included: a rule says why)
        fail(f"start.{error.path}" if error.path else "start",
             error.reason + (f" ({error.rule})" if error.rule else ""), code=error.code)
    if state.rules != rules:
        differ = [a.name for a in AXES if getattr(state.rules, a.name) !=
                  getattr(rules, a.name)]
        fail("start.rules", f"must be the record's rules; they differ in {', '.join(differ)}")
    try:
        return check_reachable(state)
    except DurakError as error:  # a position well formed, but no game reaches it
        fail("start", error.message, code=error.code)
