"""Rejections that mean something (issue 14): where a scenario expects a rejection, the
engine's legal actions there are compared with the reference's; an engine that allows
nothing passes only the scenarios in which nobody plays; a rejection without a rule is
reported apart; a wrong rule fails.
"""

from __future__ import annotations

from dataclasses import replace

from durak_spec.model.actions import Action, Cover, ThrowIn
from durak_spec.protocol import Capabilities, ReferenceEngine, Rejected, Verdict
from durak_spec.spec.runner import run


class RejectsEverything(ReferenceEngine):
    """Deals and reports as the reference does, but lists no action and rejects them all."""

    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), name="rejects everything")

    def legal_actions(self) -> tuple[Action, ...]:
        return ()

    def apply(self, action: Action) -> Verdict:
        return Rejected("no")


class NamesNoRule(ReferenceEngine):
    """The reference, but its rejections name no rule ID."""

    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), name="names no rule")

    def apply(self, action: Action) -> Verdict:
        verdict = super().apply(action)
        return Rejected(verdict.reason) if isinstance(verdict, Rejected) else verdict


class WrongRule(ReferenceEngine):
    """The reference, but every rejection of a cover is blamed on BEAT-1."""

    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), name="wrong rule")

    def apply(self, action: Action) -> Verdict:
        verdict = super().apply(action)
        if isinstance(verdict, Rejected) and isinstance(action, Cover):
            return Rejected(verdict.reason, "BEAT-1")
        return verdict


class ListsTooMuch(ReferenceEngine):
    """Rejects as the reference does, but lists a throw-in of every card the attacker
    holds as legal (while it rejects them)."""

    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), name="lists too much")

    def legal_actions(self) -> tuple[Action, ...]:
        legal = super().legal_actions()
        state = self.state
        if not state.table or state.taking:
            return legal
        extra = [ThrowIn(state.attacker, card) for card in state.hands[state.attacker]]
        return legal + tuple(a for a in extra if a not in legal)


def test_an_engine_that_rejects_everything_passes_only_scenarios_where_nobody_plays() -> None:
    result = run(RejectsEverything)
    passed = result.with_outcome("passed")
    assert len(passed) < 10, [p.cite for p in passed]
    # What it still passes are refused deals: nobody has a move in them.
    assert all(p.rule_ids and p.rule_ids[0] in {"DEAL-1", "DEAL-3", "CLAR-10"} for p in passed)
    messages = [s.message or "" for s in result.with_outcome("failed")]
    assert any("the engine lists no legal action, but the rules let" in m for m in messages)


def test_a_rejection_that_names_no_rule_passes_but_is_told_apart() -> None:
    result = run(NamesNoRule, rules=["BEAT-3"])
    assert result.ok
    unnamed = [s for s in result.scenarios if s.rule_not_named]
    named = [s for s in result.with_outcome("passed") if not s.rule_not_named]
    assert unnamed and named
    assert all("(expected " in u for s in unnamed for u in s.unnamed)
    assert unnamed[0].to_json()["rule_not_named"] == list(unnamed[0].unnamed)
    reference = run(rules=["BEAT-3"])
    assert not any(s.rule_not_named for s in reference.scenarios)


def test_a_wrong_rule_id_fails() -> None:
    result = run(WrongRule, rules=["BEAT-3"])
    failed = result.with_outcome("failed")
    assert failed
    assert all("was rejected by BEAT-1" in (s.message or "") and "not by BEAT-3"
               in (s.message or "") for s in failed)


def test_a_right_rejection_with_wrong_legal_actions_fails() -> None:
    result = run(ListsTooMuch, rules=["BEAT-3", "BEAT-5"])
    failed = result.with_outcome("failed")
    assert failed
    messages = " ".join(s.message or "" for s in failed)
    assert "legal actions" in messages and "which the rules do not allow" in messages
