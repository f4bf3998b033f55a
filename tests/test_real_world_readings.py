"""The three readings on which real engines differ and no source decides (issue 24, item 6),
each an axis of the rule set decided by one engine function that names its clarification:

* ``draw_after_transfer``: the attacker-first drawing order starts from the opener
  (CLAR-7) or from the last transferrer (CLAR-19); the join order (CLAR-8) reads neither;
* ``done_in_take``: a done said during a take is final (CLAR-20), or each card thrown in
  during the take asks every attacker again (CLAR-21);
* ``transfer_target``: a player who has just played out their hand, the stock empty, is
  still the transfer's target (CLAR-22) or is passed over (CLAR-23).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Sequence

import pytest
from helpers import actions_of, assert_illegal, cards, play, position

from durak_spec import (
    Card,
    GameState,
    Outcome,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    parse_action,
)
from durak_spec.conformance.dependencies import playing_rules
from durak_spec.engine.draw import draw_order, draw_start, draw_start_rule
from durak_spec.engine.seats import passed_over, roles_breach, transfer_target_rule
from durak_spec.engine.transfer import new_defender
from durak_spec.engine.turns import done_in_take_rule, thrown_in_lifts_dones
from durak_spec.model.rules import (
    PROFILES,
    Axis,
    DoneInTake,
    DrawOrder,
    TransferDraw,
    TransferTarget,
    TurnOrder,
    profile,
)
from durak_spec.protocol import Capabilities, ReferenceEngine, Report
from durak_spec.protocol.claims import axis_named
from durak_spec.protocol.wire import HelloReply, ProtocolError, decode_reply
from durak_spec.spec.runner import run

LAST = TransferDraw.LAST_TRANSFERRER
AGAIN = DoneInTake.ASKED_AGAIN
SKIP = TransferTarget.NEXT_WITH_CARDS


def test_every_profile_keeps_the_first_reading_of_each_axis() -> None:
    for p in PROFILES.values():
        assert p.base.draw_after_transfer is TransferDraw.OPENER, p.name
        assert p.base.done_in_take is DoneInTake.FINAL, p.name
        assert p.base.transfer_target is TransferTarget.NEXT_IN_GAME, p.name
        for axis in ("draw_after_transfer", "done_in_take", "transfer_target"):
            assert p.origin(axis).is_clarification, (p.name, axis)


@pytest.mark.parametrize(("axis", "value"), [("draw_after_transfer", "last-transferrer"),
                                             ("done_in_take", "asked-again"),
                                             ("transfer_target", "next-with-cards")])
def test_each_reading_round_trips_and_a_wrong_value_names_the_choices(axis: str,
                                                                     value: str) -> None:
    rules = RuleSet.from_dict({"players": 3, axis: value})
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert rules.to_dict()[axis] == value
    with pytest.raises(ValueError, match=f"not a value of {axis}; choose one of"):
        RuleSet.from_dict({axis: "sometimes"})


# -- drawing after a transfer: CLAR-7, CLAR-19 ---------------------------------------------


def test_the_draw_starts_from_the_opener_or_the_last_transferrer() -> None:
    four = RuleSet(players=4, transfer=True)
    assert (draw_start(four, opener=0, attacker=2), draw_start_rule(four)) == (0, "CLAR-7")
    last = four.replace(draw_after_transfer=LAST)
    assert (draw_start(last, opener=0, attacker=2), draw_start_rule(last)) == (2, "CLAR-19")
    # P0 opened, P1 and P2 passed the attack on, P3 defends it last
    assert draw_order(four, 0, 3, (0, 1, 2), attacker=2) == (0, 1, 2, 3)
    assert draw_order(last, 0, 3, (0, 1, 2), attacker=2) == (2, 0, 1, 3)
    # the join order goes by who joined when, whatever the reading
    join = last.replace(draw_order=DrawOrder.JOIN_ORDER)
    assert draw_start(join, opener=0, attacker=2) == 0
    assert draw_order(join, 0, 3, (0, 1, 2), attacker=2) == (0, 1, 2, 3)


def test_with_two_players_both_readings_draw_alike() -> None:
    # Source B's "current attacker": after a transfer back the opener defends, so both
    # readings have the transferrer draw first.
    two = RuleSet(players=2, transfer=True)
    assert draw_order(two, 0, 0, (0, 1), attacker=1) == (1, 0)
    assert draw_order(two.replace(draw_after_transfer=LAST), 0, 0, (0, 1), attacker=1) == (1, 0)


@pytest.mark.parametrize(("reading", "first"), [(TransferDraw.OPENER, 1),
                                                (LAST, 2)])
def test_after_a_transfer_round_the_table_the_reading_decides_who_gets_the_ace(
        reading: TransferDraw, first: int) -> None:
    # P0 opened 8♠ against P1, P1 passed it to P2, P2 back to P0, who beats all three.
    # P1 and P2 need one card each, P0 four: the first of P1 and P2 gets the ace.
    rules = RuleSet(players=3, transfer=True, draw_after_transfer=reading)
    start = position(rules, trump="♣", hands={0: "9♠ 9♥ 9♦ 7♣ 7♦", 1: "8♥ 6♣ 7♠ K♦ Q♦ A♦",
                                              2: "8♦ 6♠ 7♥ 10♦ J♦ 6♦"},
                     table="8♠", stock="A♠ K♠ Q♠ J♠ 10♠ 6♥ 8♣")
    after = play(start, "P1 transfer 8♥", "P2 transfer 8♦", "P0 cover 8♠ with 9♠",
                 "P0 cover 8♥ with 9♥", "P0 cover 8♦ with 9♦")
    assert after.table == ()
    second = 3 - first
    assert cards("A♠")[0] in after.hands[first]
    assert cards("K♠")[0] in after.hands[second]
    assert after.hands[0] == tuple(sorted(cards("Q♠ J♠ 10♠ 6♥ 7♣ 7♦")))


# -- a done during a take: CLAR-20, CLAR-21 --------------------------------------------------


def _taken(reading: DoneInTake, order: TurnOrder = TurnOrder.FREE) -> GameState:
    rules = RuleSet(players=3, done_in_take=reading, turn_order=order)
    start = position(rules, hands={0: "7♣ 7♦ 10♠ J♠ Q♠ K♠", 1: "6♠ 8♠ 9♠ A♠ 6♦ 8♦",
                                   2: "7♠ 7♥ 10♣ J♣ Q♣ K♣"}, stock=10)
    return play(start, "P0 open 7♣", "P1 take", "P0 done", "P2 throw 7♠")


@pytest.mark.parametrize("order", list(TurnOrder))
def test_a_done_during_a_take_is_final_unless_every_attacker_is_asked_again(
        order: TurnOrder) -> None:
    final = _taken(DoneInTake.FINAL, order)
    assert done_in_take_rule(final) == "CLAR-20" and not thrown_in_lifts_dones(final)
    assert final.passed == frozenset({0})
    assert parse_action("P0 throw 7♦") not in actions_of(final)
    assert_illegal(final, "P0 throw 7♦", "CLAR-20")
    again = _taken(AGAIN, order)
    assert done_in_take_rule(again) == "CLAR-21"
    assert again.passed == frozenset()
    if order is TurnOrder.LAST_THROWER:  # P2 threw last and is asked first again
        assert parse_action("P0 throw 7♦") not in actions_of(again)
        again = play(again, "P2 done")
    assert parse_action("P0 throw 7♦") in actions_of(again)
    assert cards("7♦")[0] in play(again, "P0 throw 7♦").table_cards()


def test_asked_again_lifts_dones_only_during_a_take() -> None:
    rules = RuleSet(players=3, done_in_take=AGAIN)
    # outside a take the defender's answer lifts the dones, not the card thrown in
    start = position(rules, hands={0: "7♦ 10♠ J♠ Q♠ K♠", 1: "6♠ 8♠ 9♠ A♠ 6♦ 8♦",
                                   2: "9♣ 7♥ 10♣ J♣ Q♣ K♣"}, table="7♣/9♥", stock=10)
    assert not thrown_in_lifts_dones(start)
    after = play(start, "P0 done", "P2 throw 9♣")
    assert after.passed == frozenset({0})
    # and a done said during a take still holds until someone adds a card
    said = play(_taken(AGAIN), "P0 done")
    assert said.passed == frozenset({0})
    assert_illegal(said, "P0 throw 7♦", "CLAR-21")


# -- passing over a player who has just gone out: CLAR-22, CLAR-23 ------------------------


def _opened_with_last_card(reading: TransferTarget) -> GameState:
    rules = RuleSet(players=3, transfer=True, transfer_target=reading)
    start = position(rules, hands={0: "8♠", 1: "8♦ 10♣ J♣ Q♣ K♣", 2: "8♣ 9♠ 9♦ J♠"},
                     stock=0, bout=5)
    return play(start, "P0 open 8♠", "P1 transfer 8♦")


def test_a_player_out_of_cards_stays_the_target_and_the_transfer_is_refused() -> None:
    state = _opened_with_last_card(TransferTarget.NEXT_IN_GAME)
    assert transfer_target_rule(state) == "CLAR-22"
    assert passed_over(state) == frozenset()
    assert new_defender(state) == 0
    assert_illegal(state, "P2 transfer 8♣", "TRANSFER-3")


def test_a_player_out_of_cards_is_passed_over_under_next_with_cards() -> None:
    state = _opened_with_last_card(SKIP)
    assert transfer_target_rule(state) == "CLAR-23"
    assert passed_over(state) == frozenset({0})
    assert new_defender(state) == 1
    after = play(state, "P2 transfer 8♣")
    assert (after.attacker, after.defender) == (2, 1)
    assert roles_breach(after) is None
    # the same position with the stock not yet empty (END-2): nobody is passed over
    assert passed_over(state.replace(stock=cards("6♥"))) == frozenset()


def test_with_nobody_else_holding_cards_there_is_no_transfer() -> None:
    rules = RuleSet(players=3, transfer=True, transfer_target=SKIP)
    start = position(rules, hands={0: "8♠", 1: "8♦ 10♣ J♣", 2: "8♣"}, stock=0, bout=5)
    state = play(start, "P0 open 8♠", "P2 throw 8♣")
    assert passed_over(state) == frozenset({0, 2})
    assert new_defender(state) == 1
    assert_illegal(state, "P1 transfer 8♦", "CLAR-23")
    assert not any(a.kind == "transfer" for a in legal_actions(state))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_under_every_reading_keep_the_listing_and_the_rules_agreeing(
        players: int) -> None:
    # Every listed action is accepted and the game ends, under the non-default readings.
    rules = profile("classic-transfer").rules(players).replace(
        draw_after_transfer=LAST, done_in_take=AGAIN, transfer_target=SKIP)
    for seed in range(4):
        state, rng = new_game(rules, seed=seed), random.Random(seed)
        for _ in range(3000):
            if state.is_over:
                break
            actions = legal_actions(state)
            assert actions
            state = apply(state, rng.choice(actions))
        assert state.is_over
        assert not legal_actions(state)


# -- declared in the handshake, played by the checker ---------------------------------------


def test_an_engine_declares_a_reading_in_the_handshake() -> None:
    hello = {"id": 1, "ok": True, "protocol": 1, "name": "x", "version": "1",
             "profiles": [], "players": [3],
             "axes": {"done_in_take": ["asked-again"], "transfer_target": ["next-with-cards"],
                      "draw_after_transfer": ["opener", "last-transferrer"]},
             "capabilities": {"load": False}}
    reply = decode_reply(json.dumps(hello), "hello")
    assert isinstance(reply, HelloReply)
    caps = reply.capabilities
    assert caps.axes["done_in_take"] == ("asked-again",)
    rules = RuleSet(players=3)
    assert caps.supports(rules) == "x does not play done_in_take=final"
    assert caps.supports(rules.replace(done_in_take=AGAIN, transfer_target=SKIP)) is None
    hello["axes"] = {"done_in_take": ["sometimes"]}
    with pytest.raises(ProtocolError) as caught:
        decode_reply(json.dumps(hello), "hello")
    assert caught.value.field == "axes.done_in_take[0]"


class _OneReading(ReferenceEngine):
    """A third-party engine in miniature: it plays one reading whatever rules it is
    given, and claims every axis with that reading (``declared``) or with the
    specification's default in its place (an engine that does not say)."""

    def __init__(self, axis: str, value: str, declared: bool) -> None:
        super().__init__()
        self._change = {axis: axis_named(axis).convert(value)}
        default = Axis.format(getattr(RuleSet(), axis))
        self._claim = dataclasses.replace(
            super().capabilities(), name=f"plays {axis}={value}", profiles=(),
            axes={**Capabilities.every_axis(), axis: (value if declared else default,)})

    def capabilities(self) -> Capabilities:
        return self._claim

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        return super().start(rules.replace(**self._change), deck, seed)

    def start_later(self, rules: RuleSet, deck: Sequence[Card], seed: int,
                    previous: Outcome) -> Report:
        return super().start_later(rules.replace(**self._change), deck, seed, previous)

    def load(self, state: GameState) -> Report:
        return super().load(state.replace(rules=state.rules.replace(**self._change)))


@pytest.mark.parametrize(("axis", "value", "rules"), [
    ("draw_after_transfer", "last-transferrer", {"CLAR-7", "CLAR-8"}),
    # TAKE-3.3: Anna's done during the take, then nines thrown in (asked again, she adds)
    ("done_in_take", "asked-again", {"CLAR-20", "TAKE-3"}),
    ("transfer_target", "next-with-cards", {"CLAR-22"}),
])
def test_an_engine_playing_a_reading_passes_once_it_declares_it(axis: str, value: str,
                                                                rules: set[str]) -> None:
    def outcomes(declared: bool) -> dict[str, set[str]]:
        result = run(lambda: _OneReading(axis, value, declared), adapt=playing_rules())
        found: dict[str, set[str]] = {}
        for scenario in result.scenarios:
            found.setdefault(scenario.outcome, set()).add(scenario.example.split(".")[0])
        return found

    silent = outcomes(declared=False)
    assert silent.get("failed", set()) == rules  # the other reading's scenarios fail
    declared = outcomes(declared=True)
    assert not declared.get("failed") and not declared.get("errored")
    assert len(declared["passed"]) > 60


def test_the_variants_table_shows_each_reading_with_its_clarifications() -> None:
    from durak_spec.book.render import variants_table_html
    from durak_spec.book.site import build_site
    from durak_spec.spec.runner import features_dir

    table = str(variants_table_html(build_site(features_dir())))
    readings = table[table.index('class="durak-readings"'):]
    for name, values in (("draw_after_transfer", ("opener", "CLAR-7", "last-transferrer",
                                                  "CLAR-19")),
                         ("done_in_take", ("final", "CLAR-20", "asked-again", "CLAR-21")),
                         ("transfer_target", ("next-in-game", "CLAR-22", "next-with-cards",
                                              "CLAR-23")),
                         ("turn_order", ("free", "CLAR-3", "last-thrower", "CLAR-18"))):
        item = readings[readings.index(f'id="reading-{name}"'):]
        item = item[:item.index("</li>")]
        assert all(v in item for v in values), item
        assert f'id="axis-{name}"' not in table[:table.index('class="durak-readings"')]


@pytest.mark.parametrize(("ident", "other"), [
    ("take-asked-again-3p", {"done_in_take": DoneInTake.FINAL}),
    ("just-out-passed-over-4p", {"transfer_target": TransferTarget.NEXT_IN_GAME}),
])
def test_the_perft_positions_of_the_readings_count_otherwise_under_the_other_reading(
        ident: str, other: dict[str, object]) -> None:
    # An engine that plays the other reading is told so by perft, not only by scenarios.
    # (The drawing order has no such position: who draws which cards seldom changes how
    # many moves there are, and no stored depth told the two readings apart.)
    from durak_spec.conformance.perft.counting import perft
    from durak_spec.conformance.perft.positions import load_positions

    stored = next(p for p in load_positions() if p.id == ident)

    def counts(rules: RuleSet) -> tuple[int, ...]:
        state = new_game(rules, deck=stored.deck, seed=stored.seed)
        for move in stored.moves:
            state = apply(state, move)
        return perft(state, len(stored.counts))

    assert counts(stored.rules) == stored.counts
    assert counts(stored.rules.replace(**other)) != stored.counts
