"""One error root: every error the package raises for bad input is a DurakError with a code.

Input errors (a mistyped card, a malformed file, a bad option) name no rule of the game;
an error that names a rule names one the rule index knows.
"""

from __future__ import annotations

import importlib
import pickle
import pkgutil

import pytest

import durak_spec
from durak_spec.core.cards import CardError, parse_card
from durak_spec.core.cliargs import CommandError
from durak_spec.core.errors import DurakError, IllegalAction, InputError, InvalidState
from durak_spec.core.jsonio import JsonError
from durak_spec.core.ruleindex import RuleIndexError, load_rule_index
from durak_spec.game.persist import SavedGameError
from durak_spec.model.rules import RuleSet, RuleSetError, profile
from durak_spec.protocol.subprocess_engine import FAILURE_KINDS, EngineError, EngineFailure
from durak_spec.protocol.wire import MalformedMessage, ProtocolError


def _error_classes() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(durak_spec.__path__, "durak_spec."):
        if info.name.startswith("durak_spec.features"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (isinstance(value, type) and issubclass(value, Exception)
                    and value.__module__ == info.name and not name.startswith("_")):
                found[f"{info.name}.{name}"] = value
    return [found[name] for name in sorted(found)]


ERRORS = _error_classes()
NOT_FOR_INPUT = {
    # lockstep's signal, inside the package, that the engine broke mid-game: caught where a
    # game is played or replayed and turned into a divergence, never raised to a caller
    "durak_spec.conformance.lockstep.driver.Broke",
}


@pytest.mark.parametrize("cls", ERRORS, ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_every_public_error_class_is_a_durak_error_with_a_code(cls: type[BaseException]
                                                               ) -> None:
    if f"{cls.__module__}.{cls.__name__}" in NOT_FOR_INPUT:
        assert not issubclass(cls, DurakError)
        return
    assert issubclass(cls, DurakError), f"{cls.__name__} is not a DurakError"
    code = cls.code  # type: ignore[attr-defined]
    assert isinstance(code, str) and code and code == code.lower()


def test_the_error_classes_are_found() -> None:
    names = {cls.__name__ for cls in ERRORS}
    assert {"CardError", "RuleSetError", "RuleIndexError", "PerftFileError", "RecordError",
            "FilterError", "ProtocolError", "EngineError", "EngineFailure",
            "SavedGameError", "CommandError", "JsonError"} <= names


def test_input_errors_carry_codes_and_no_rule() -> None:
    errors: list[InputError] = [CommandError("bad option"), RuleIndexError("bad index"),
                                JsonError("bad", path="a.b")]
    with pytest.raises(CardError) as card:
        parse_card("1♣")
    errors.append(card.value)
    codes = [error.code for error in errors]
    assert codes == ["command", "rule-index", "json", "card"]
    assert all(error.rule is None for error in errors)


def test_rule_set_errors_name_a_rule_only_where_one_is_broken() -> None:
    with pytest.raises(RuleSetError) as players:
        RuleSet(players=7)
    assert (players.value.code, players.value.rule) == ("rule-set", "DEAL-3")
    with pytest.raises(RuleSetError) as unknown:
        profile("nothing")
    assert unknown.value.rule is None
    assert isinstance(unknown.value, DurakError) and isinstance(unknown.value, ValueError)


def test_an_engine_failure_has_its_kind_as_its_code() -> None:
    for kind in FAILURE_KINDS:
        failure = EngineFailure(kind, "what happened", line="{", stderr="trace")
        assert failure.code == kind and failure.rule is None
        again = pickle.loads(pickle.dumps(failure))
        assert (again.kind, again.detail, again.line, str(again)) == \
            (kind, "what happened", "{", str(failure))


def test_errors_that_name_rules_name_known_ones_and_survive_pickling() -> None:
    index = load_rule_index()
    errors: list[DurakError] = [
        IllegalAction("BEAT-3", "7♣ does not beat 9♣"), InvalidState("DEAL-1", "twice"),
        SavedGameError("history[3]", "illegal", "BEAT-1"), EngineError("start", "no", "DEAL-3"),
        ProtocolError("bad", field="state", rule="END-1"), RuleSetError("x", "TRANSFER-7"),
    ]
    for error in errors:
        assert error.rule in index
        again = pickle.loads(pickle.dumps(error))
        assert (type(again), str(again), again.rule, again.code) == \
            (type(error), str(error), error.rule, error.code)
    assert MalformedMessage("x").code == "malformed-message"
    assert SavedGameError("", "x").code == "saved-game"
