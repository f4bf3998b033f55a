"""Audits of engine reports (:mod:`durak_spec.protocol.audit`) in every mode of the checker.

The reference's reports pass the audit in random games of every profile (a property test);
each kind of impossible report is named with its rule; and an engine that copies the
cards thrown in after a take instead of moving them (as the first third-party engine did)
is caught by the scenarios, by lockstep and by perft, with the cards it copied.
"""

from __future__ import annotations

import io
import random
from dataclasses import replace

import hypothesis
import pytest
from hypothesis import strategies as st

from durak_spec.conformance.checker import check_engine
from durak_spec.conformance.lockstep import play_lockstep
from durak_spec.core.cards import parse_card
from durak_spec.engine import apply, legal_actions, new_game
from durak_spec.model.actions import Action, Cover, Done, ThrowIn
from durak_spec.model.rules import PROFILES, profile
from durak_spec.model.state import sort_cards
from durak_spec.protocol import Accepted, Capabilities, ReferenceEngine, Rejected, Report, Verdict
from durak_spec.protocol.audit import DECK_SIZE, audit, change_problems, report_problems


class CopyingTakeEngine(ReferenceEngine):
    """Copies instead of moves: a card thrown in after a take stays in the thrower's hand."""

    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), name="copying take")

    def apply(self, action: Action) -> Verdict:
        taking = self.state.taking
        verdict = super().apply(action)
        if verdict.ok and taking and isinstance(action, ThrowIn):
            hands = list(self.state.hands)
            hands[action.player] = sort_cards(hands[action.player] + tuple(action.cards))
            self._state = self.state._replace(hands=tuple(hands))
        return verdict


def _start(players: int = 2, seed: int = 3) -> Report:
    return Report.of(new_game(profile("classic-throw-in").rules(players=players), seed=seed))


@hypothesis.settings(max_examples=40, deadline=None)
@hypothesis.given(st.sampled_from(sorted(PROFILES)), st.integers(2, 6), st.integers(0, 10**6))
def test_every_report_of_a_reference_game_passes_the_audit(name: str, players: int,
                                                           seed: int) -> None:
    try:
        rules = PROFILES[name].rules(players=players)
    except ValueError:
        hypothesis.assume(False)
        return
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    report = Report.of(state)
    assert report_problems(report, players, rules.goal) == ()
    while not state.is_over:
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
        after = Report.of(state)
        assert audit(after, players, report, Accepted(), action, rules.goal) == (), \
            (action, after)
        report = after


def test_a_card_in_two_places_and_a_37th_card_break_deal_1() -> None:
    report = _start()
    card = report.hands[0][0]
    twice = replace(report, hands=(report.hands[0], (*report.hands[1], card)))
    problems = report_problems(twice, 2)
    assert [p.rule for p in problems] == ["DEAL-1", "DEAL-1"]
    assert problems[0].text == f"{card} is in P0's hand and in P1's hand"
    assert f"make {DECK_SIZE + 1} cards, not {DECK_SIZE}" in problems[1].text


def test_a_card_missing_breaks_deal_1() -> None:
    report = _start()
    short = replace(report, hands=(report.hands[0][1:], report.hands[1]))
    assert [str(p) for p in report_problems(short, 2)] == [
        "11 cards in hands and on the table, 24 in the stock and 0 discarded make 35 cards, "
        "not 36 (DEAL-1)"]


def test_sizes_roles_and_outcomes_that_no_game_reaches_are_named() -> None:
    report = _start(players=3)
    c = parse_card
    seven_cards = (*report.hands[0], report.hands[1][0])
    cases = {
        "LIMIT-1": replace(report, hands=((), report.hands[1][1:], report.hands[2]),
                           table=tuple((card, None) for card in seven_cards)),
        "ORDER-3": replace(report, defender=report.attacker),
        "ORDER-6": replace(report, finished=((2,),), hands=(*report.hands[:2], ()),
                           stock=report.stock + 6, attacker=2, defender=0),
        "END-1": replace(report, finished=((1,),)),
        "END-3": replace(report, durak=1),
        "DEAL-3": replace(report, hands=report.hands[:2], stock=report.stock + 6),
        "DEAL-5": replace(report, face_up=c("6♥") if report.trump.name != "HEARTS"
                          else c("6♠")),
        "VIEW-2": replace(report, known=((report.hands[1][0],), (), ())),
    }
    for rule, bad in cases.items():
        rules = [p.rule for p in report_problems(bad, 3)]
        assert rule in rules, (rule, report_problems(bad, 3))


def test_changes_are_audited_by_the_verdict() -> None:
    report = _start()
    attacker = report.attacker
    card = report.hands[attacker][0]
    state = new_game(profile("classic-throw-in").rules(players=2), seed=3)
    opened = Report.of(apply(state, next(a for a in legal_actions(state))))
    assert change_problems(report, Rejected("no"), report) == ()
    assert "was rejected, but the position changed" in \
        change_problems(report, Rejected("no"), opened)[0].text
    assert "was accepted, but the position did not change" in \
        change_problems(report, Accepted(), report)[0].text
    assert change_problems(report, Accepted(), report, silent=True) == ()
    assert change_problems(report, Accepted(), opened) == ()
    grown = replace(opened, stock=opened.stock + 1, discard=0)
    assert [p.rule for p in change_problems(replace(report, discard=1, stock=report.stock - 1),
                                            Accepted(), grown)] == ["DEFEND-1", "DRAW-4"]
    assert card in report.hands[attacker]
    assert audit(report, 2, report, Accepted(), Done(attacker)) == ()
    assert audit(report, 2, report, Accepted(), Cover(1, card, card))[0].rule is None


def test_the_scenarios_catch_the_copying_engine_under_take_3() -> None:
    out = io.StringIO()
    code = check_engine(CopyingTakeEngine, rules=["TAKE-3"], out=out, err=io.StringIO())
    text = out.getvalue()
    assert code != 0
    assert "TAKE-3  Cards may still be added after a take is announced: 4 failed" in text
    assert "the engine's report is impossible after Anna's move \"throw 7♦\"" in text
    assert "7♦ is in Anna's hand and on the table (DEAL-1)" in text
    assert "make 37 cards, not 36 (DEAL-1)" in text


def test_lockstep_catches_the_copying_engine_as_an_impossible_report() -> None:
    outcome = play_lockstep(CopyingTakeEngine(), games=20, seed=0,
                            profiles=["classic-throw-in"], players=[2])
    assert not outcome.ok
    divergence = outcome.divergences[0]
    assert divergence.kind == "impossible report"
    assert divergence.rule == "DEAL-1"
    last = divergence.record.steps[-1]
    assert "throw" in str(last), last
    assert any("make 37 cards, not 36" in d.engine for d in divergence.differences)


def test_the_reference_is_never_reported_impossible_in_lockstep() -> None:
    outcome = play_lockstep(ReferenceEngine(), games=3, seed=1)
    assert outcome.ok, outcome.summary()


@pytest.mark.parametrize("players", [2, 4])
def test_a_report_with_one_player_left_must_be_over(players: int) -> None:
    report = _start(players=players)
    everyone = tuple((s,) for s in range(1, players))
    hands = (tuple(c for h in report.hands for c in h),) + ((),) * (players - 1)
    ended = replace(report, hands=hands, finished=everyone, over=False)
    assert "END-3" in [p.rule for p in report_problems(ended, players)]
    assert "END-3" not in [p.rule for p in report_problems(
        replace(ended, over=True, durak=0), players)]
