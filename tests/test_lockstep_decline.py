"""Lockstep and a declined load (issue 14's resync rule): after a divergence the checker
loads the reference's position into an engine that can load; an engine that answers with
the standard decline (:class:`~durak_spec.protocol.LoadDeclined`) has that game ended
there, counted and said in the report, and the next game starts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from helpers import DoneBeforeOpening

from durak_spec.conformance.lockstep import format_lockstep, play_lockstep
from durak_spec.core.cards import Card
from durak_spec.model.actions import Action
from durak_spec.model.rules import RuleSet, profile
from durak_spec.model.state import GameState
from durak_spec.protocol import (
    Accepted,
    Capabilities,
    LoadDeclined,
    ReferenceEngine,
    Rejected,
    Report,
    Verdict,
)

GAMES = 6
RULES = profile("classic-throw-in").rules(2)


class NeverTakesNorLoads(ReferenceEngine):
    """Never lists nor accepts a take (TAKE-1); declines every load."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def legal_actions(self) -> tuple[Action, ...]:
        return tuple(a for a in super().legal_actions() if a.kind != "take")

    def apply(self, action: Action) -> Verdict:
        if action.kind == "take":
            return Rejected("takes are not played here")
        return super().apply(action)

    def load(self, state: GameState) -> Report:
        self.asked += 1
        raise LoadDeclined("positions from within a game cannot be represented here")


class MiscountsAfterATake(ReferenceEngine):
    """Reports one card too many in the discard right after a take (a wrong report that a
    load of the right position clears). It can load, or with ``declines`` declines."""

    def __init__(self, declines: bool = False) -> None:
        super().__init__()
        self.declines = declines
        self.last = ""
        self.asked = 0

    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), name="miscounts")

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        self.last = ""  # a new game: no take yet (else a game's first probe sees the last)
        return super().start(rules, deck, seed)

    def apply(self, action: Action) -> Verdict:
        verdict = super().apply(action)
        self.last = action.kind if isinstance(verdict, Accepted) else self.last
        return verdict

    def load(self, state: GameState) -> Report:
        self.asked += 1
        if self.declines:
            raise LoadDeclined("no positions, only deals")
        self.last = ""
        return super().load(state)

    def report(self) -> Report:
        report = super().report()
        return replace(report, discard=report.discard + 1) if self.last == "take" else report


def test_an_engine_that_loads_goes_on_after_the_divergence() -> None:
    declining = play_lockstep(MiscountsAfterATake(declines=True), RULES, games=GAMES, seed=3)
    loading = play_lockstep(MiscountsAfterATake(), RULES, games=GAMES, seed=3)
    (config,) = loading.results
    assert config.declined == 0 and "declined" not in format_lockstep(loading)
    assert declining.results[0].declined == GAMES
    # the same games, played on after each divergence: more of each game is checked
    assert config.actions > declining.results[0].actions
    assert config.found > declining.results[0].found == GAMES


def test_a_declined_load_ends_the_game_and_the_next_one_starts() -> None:
    engine = MiscountsAfterATake(declines=True)
    result = play_lockstep(engine, RULES, games=GAMES, seed=3)
    (config,) = result.results
    assert config.games == GAMES
    assert engine.asked == GAMES  # one resync tried per game, then the game ended
    assert config.declined == GAMES
    assert config.found == GAMES  # one divergence per game: none after the decline
    # the decline is no divergence of its own, and no engine error
    assert [(c.rule, c.kind, c.count) for c in result.causes] == \
        [("DEAL-1", "different result", GAMES)], format_lockstep(result)
    text = format_lockstep(result)
    assert f"the engine declined {GAMES} loads of the reference's position after a " \
        "divergence, so those games ended there and the next started" in text
    assert "engine error" not in text
    assert result.to_json()["configurations"][0]["loads_declined"] == GAMES  # type: ignore[index]


def test_a_difference_of_legal_actions_alone_needs_no_load() -> None:
    # The reports agree, so the game goes on in both without a load; the cause is counted
    # once per game.
    engine = NeverTakesNorLoads()
    result = play_lockstep(engine, RULES, games=GAMES, seed=3)
    (config,) = result.results
    assert engine.asked == 0 and config.declined == 0
    assert config.actions > 3 * GAMES  # games go on past the first difference
    assert [(c.rule, c.kind, c.count) for c in result.causes] == \
        [("TAKE-1", "action missing", GAMES)], format_lockstep(result)


def test_after_a_difference_the_game_goes_on_with_an_action_both_sides_allow() -> None:
    result = play_lockstep(DoneBeforeOpening(), RULES, games=GAMES, seed=3)
    (config,) = result.results
    # whole games: the extra done is counted once per game, and no move the engine does
    # not list is played (no rejection follows from the first difference)
    assert [(c.rule, c.kind, c.count) for c in result.causes] == \
        [("ATTACK-1", "action extra", GAMES)], format_lockstep(result)
    assert config.found == GAMES and config.unfinished == 0
    assert config.actions > 40 * GAMES
