"""``advance`` reports what happened: the events of every step agree with the states
around it, in random games of every profile (and a rule set with every switch on).

Checked for every step: the first event is the action played; a transfer names the new
defender; a trump exchange the two cards; at a bout end the table's cards, who took them,
every draw in drawing order (DRAW-2) and from the top of the stock, who went out, and the
next roles or the outcome; and nothing else. Every event names the rule that decided it
(the action's grounds, what settled the bout, the drawing order, the rule that chose the
next attacker, the end of the game). ``apply`` is ``advance(...).state``.
"""

from __future__ import annotations

import json
import random

import pytest
from helpers import play, position

from durak_spec import (
    PROFILES,
    BoutEnded,
    Card,
    Drew,
    Event,
    ExchangeTrump,
    GameOver,
    GameState,
    NextBout,
    NoTrumpLead,
    Played,
    RuleSet,
    Step,
    Take,
    ThrowIn,
    Transfer,
    Transferred,
    TrumpExchanged,
    WentOut,
    advance,
    apply,
    draw_order,
    legal_actions,
    new_game,
    parse_action,
    parse_card,
)
from durak_spec.engine import grounds
from durak_spec.model.events import bout_end_text
from durak_spec.model.rules import DrawOrder, Goal
from durak_spec.model.rules import ThrowIn as ThrowInRule

SWITCHES = PROFILES["classic-transfer"].rules().replace(
    transfer_by_showing_trump=True, trump_exchange=True, multi_card_opening=True,
    throw_in=ThrowInRule.NEIGHBOURS, no_trump_lead=NoTrumpLead.FIRST_SEAT)
RULE_SETS = {f"{name}-{n}p": PROFILES[name].rules(players=n) for name in PROFILES
             for n in (2, 4, 6)}
RULE_SETS.update({f"switches-{n}p": SWITCHES.with_players(n) for n in (2, 3, 5)})


def expected_events(before: GameState, step: Step) -> None:
    """Assert that ``step``'s events are what happened between ``before`` and its state."""
    events = list(step.events)
    after = step.state
    played = events.pop(0)
    assert isinstance(played, Played)
    action = played.action
    assert played.rule == grounds(before, action) and played.rule
    if isinstance(action, Transfer):
        # A transfer leaves the new defender with uncovered cards: it never ends the bout.
        assert events.pop(0) == Transferred(action.player, action.card, action.show,
                                            after.defender,
                                            "TRANSFER-7" if action.show else "TRANSFER-1")
        assert after.defender != action.player and after.bout == before.bout
    if isinstance(action, ExchangeTrump):
        exchanged = events.pop(0)
        assert isinstance(exchanged, TrumpExchanged)
        assert (exchanged.took, exchanged.gave) == (before.stock[-1], after.stock[-1])
        assert exchanged.took in after.hands[action.player]
        assert exchanged.rule == "VAR-1"
    if after.bout == before.bout:
        assert not events, events
        return
    ended = events.pop(0)
    assert isinstance(ended, BoutEnded)
    assert ended.bout == before.bout + 1
    table = before.table_cards() + (() if isinstance(action, Transfer) and action.show
                                    else action.cards)
    assert sorted(ended.cards) == sorted(table)
    taken = before.taking or isinstance(action, Take)
    assert ended.taker == (before.defender if taken else None)
    assert ended.rule in ("ATTACK-5", "LIMIT-1", "LIMIT-2", "LIMIT-3", "CLAR-13")
    assert ended.rule != "LIMIT-3" or before.bout == 0  # five cards: the first bout only
    assert len(after.discard) == len(before.discard) + (0 if taken else len(table))
    # The draws: from the top of the stock, in the rules' drawing order, up to six.
    draws = []
    while events and isinstance(events[0], Drew):
        draws.append(events.pop(0))
    assert [card for draw in draws for card in draw.cards] == \
        list(before.stock[:len(before.stock) - len(after.stock)])
    joined = before.joined
    if isinstance(action, ThrowIn) and action.player not in joined:  # its card joins it
        joined = (*joined, action.player)
    order = draw_order(before.rules, before.opener, before.defender, joined)
    seats = [draw.player for draw in draws]
    assert seats == sorted(seats, key=order.index), (seats, order)
    transferred = before.attacker != before.opener or isinstance(action, Transfer)
    for draw in draws:
        assert draw.rule == ("CLAR-8" if before.rules.draw_order is DrawOrder.JOIN_ORDER
                             else "CLAR-7" if transferred else "DRAW-2")
        assert draw.cards and set(draw.cards) <= set(after.hands[draw.player])
        assert len(after.hands[draw.player]) <= 6
    # Who went out, then the next bout or the end of the game.
    gone = tuple(seat for group in after.finished[len(before.finished):] for seat in group)
    if gone:
        assert events.pop(0) == WentOut(gone, "END-1")
    last = events.pop(0)
    assert not events, events
    if after.outcome is not None:
        assert isinstance(last, GameOver) and last.outcome == after.outcome
        assert last.rule == ("END-5" if before.rules.goal is Goal.FIRST_OUT_WINS else
                             "END-3" if after.outcome.durak is not None else "END-4")
    else:
        assert isinstance(last, NextBout)
        assert last[:3] == (after.bout + 1, after.attacker, after.defender)
        assert last.rule == ("ORDER-5" if taken else "ORDER-6" if before.defender in gone
                             else "ORDER-4")


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_the_events_of_every_step_say_what_happened(rules: RuleSet) -> None:
    seen: set[type[Event]] = set()
    for seed in range(3):
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        while actions := legal_actions(state):
            action = rng.choice(actions)
            step = advance(state, action)
            assert step.state == apply(state, action)
            expected_events(state, step)
            json.dumps(step.to_json(), ensure_ascii=False)  # plain JSON
            seen.update(type(event) for event in step.events)
            state = step.state
    assert {Played, BoutEnded, NextBout, GameOver} <= seen


C = parse_card


def test_a_bout_end_in_events_and_in_words() -> None:  # DEFEND-1, DRAW-1, DRAW-2
    rules = RuleSet(players=3)
    start = position(rules, hands={0: "7♣ 8♠", 1: "9♣ 6♦", 2: "6♣ 6♠ 8♦ 10♦ J♦ Q♦"},
                     stock="7♥ 8♥ 9♥ 10♥ J♥")
    before = play(start, "P0 open 7♣")
    step = advance(before, parse_action("P1 cover 7♣ with 9♣"))
    assert step.events == (
        Played(parse_action("P1 cover 7♣ with 9♣"), "BEAT-1"),
        BoutEnded(2, None, (C("7♣"), C("9♣")), "ATTACK-5"),  # nobody can add a 7 or a 9
        Drew(0, (C("7♥"), C("8♥"), C("9♥"), C("10♥"), C("J♥")), "DRAW-2"),
        NextBout(3, 1, 2, "ORDER-4"),  # the defender beat it off and attacks next
    )
    assert step.bout_ended == BoutEnded(2, None, (C("7♣"), C("9♣")), "ATTACK-5")
    assert step.of(Drew) == (Drew(0, (C("7♥"), C("8♥"), C("9♥"), C("10♥"), C("J♥")),
                                  "DRAW-2"),)
    assert bout_end_text(step.events, len(step.state.stock)) == \
        "Beaten off: 2 cards to the discard pile; P0 draws 5 (stock 0)."
    assert [event.to_json()["type"] for event in step.events] == \
        ["action", "bout-ended", "draw", "next-bout"]


def test_the_last_players_out_and_the_end_of_the_game() -> None:  # END-1, END-4
    rules = RuleSet(players=2)
    start = position(rules, hands={0: "7♣", 1: "9♣"}, stock=0)
    before = play(start, "P0 open 7♣")
    step = advance(before, parse_action("P1 cover 7♣ with 9♣"))
    outcome = step.state.outcome
    assert outcome is not None and outcome.durak is None
    # the defender has no card left (CLAR-13); both out together make a draw (END-4)
    assert step.events[1:] == (BoutEnded(2, None, (C("7♣"), C("9♣")), "CLAR-13"),
                               WentOut((0, 1), "END-1"), GameOver(outcome, "END-4"))
    assert bout_end_text(step.events, 0) == \
        "Beaten off: 2 cards to the discard pile; P0 and P1 are out."
    assert step.events[-1].to_json() == {"type": "game-over", "durak": None,
                                         "finishing_order": [[0, 1]],
                                         "text": str(outcome), "rule": "END-4"}


def test_events_are_frozen_values() -> None:
    drew = Drew(1, (Card.parse("6♥"),))
    with pytest.raises(AttributeError):
        drew.player = 2  # type: ignore[misc]
    assert drew == Drew(1, (Card.parse("6♥"),)) and hash(drew) == hash(Drew(1, (C("6♥"),)))
    assert str(WentOut((2,))) == "P2 is out"
