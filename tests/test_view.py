"""Player views (durak_spec.game.view): what one seat sees, and that hidden cards stay hidden.

Runtime: about 4 s (every other position of a random game of every profile, 2 to 6
players, seen from every seat).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Iterator

import pytest
from helpers import play, position, random_game

from durak_spec import (
    PROFILES,
    Card,
    DurakError,
    GameState,
    RuleSet,
    action_from_json,
    legal_actions,
    parse_cards,
    profile,
)
from durak_spec.game.history import Game
from durak_spec.game.view import PlayerView, view

PLAYERS = range(2, 7)
CASES = [pytest.param(p.rules(players=n), id=f"{name}-{n}p")
         for name, p in PROFILES.items() for n in PLAYERS]



def cards_in(value: object) -> Iterator[Card]:
    """Every card anywhere inside a view (fields, tuples, pairs, actions, outcome)."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from cards_in(getattr(value, f.name))
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from cards_in(item)


def hidden_from(state: GameState, seat: int) -> set[Card]:
    """The cards in other players' hands that are not publicly known."""
    return {c for other, hand in enumerate(state.hands) if other != seat
            for c in hand if c not in state.known[other]}


# -- what a view shows ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", CASES)
def test_views_show_public_facts_and_hide_every_unknown_card(rules: RuleSet) -> None:
    game = random_game(rules, seed=rules.players * 3)
    for state in list(game.states())[::2]:
        listed = legal_actions(state)
        for seat in range(rules.players):
            mine = view(state, seat)
            assert mine.seat == seat and mine.players == rules.players
            assert mine.hand == state.hands[seat]
            assert mine.hand_sizes == tuple(len(h) for h in state.hands)
            assert mine.table == state.table
            assert mine.stock == len(state.stock)
            assert mine.trump == state.trump
            assert mine.face_up == (state.stock[-1] if state.stock and rules.players < 6
                                    else None)
            assert mine.discard == len(state.discard)
            assert [set(k) for k in mine.known] == [set(k) for k in state.known]
            assert (mine.attacker, mine.defender) == (state.attacker, state.defender)
            assert mine.finished == state.finished and mine.outcome == state.outcome
            assert mine.playable == tuple(a for a in listed if a.player == seat)
            hidden = hidden_from(state, seat)
            assert not hidden & set(cards_in(mine)), "a view shows another player's card"
            text = json.dumps(mine.to_json(), ensure_ascii=False)
            assert not [c for c in hidden if f'"{c}"' in text]
        # VIEW-3: together, the seats' playable actions are exactly the legal actions.
        together = [a for seat in range(rules.players) for a in view(state, seat).playable]
        assert sorted(together, key=lambda a: a.sort_key()) == \
            sorted(listed, key=lambda a: a.sort_key())


def test_a_view_is_frozen() -> None:
    state = Game.new(profile("classic-throw-in").rules(players=2), seed=1).state
    mine = view(state, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        mine.hand = ()  # type: ignore[misc]


def test_only_the_discard_size_is_shown() -> None:
    rules = profile("classic-throw-in").rules(players=2)
    state = position(rules, trump="♥", hands={0: "7♣ 8♣", 1: "9♣ 10♦"}, stock=6)
    assert len(state.discard) == 36 - 4 - 6
    mine = view(state, 0)
    assert mine.discard == 26
    assert not set(state.discard) & set(cards_in(mine))


# -- publicly known cards (VIEW-2) ---------------------------------------------------------


def test_taken_cards_are_known_to_everyone_until_played() -> None:
    rules = profile("classic-throw-in").rules(players=3)
    state = position(rules, trump="♠", hands={0: "7♣ 9♦ K♥", 1: "8♣ 10♠ 6♦", 2: "J♣ Q♦ A♥"},
                     attacker=0)
    state = play(state, "P0 open 7♣", "P1 cover 7♣ with 8♣")
    # Nobody holds a seven or an eight to add: the defence held, P1 attacks P2 (ORDER-4).
    assert (state.attacker, state.defender, state.table) == (1, 2, ())
    state = play(state, "P1 open 10♠", "P2 take")
    assert not state.table  # nobody can add a ten: P2 takes the 10♠ at once
    ten = parse_cards("10♠")[0]
    for seat in range(3):
        seen = view(state, seat)
        assert seen.known[2] == (ten,)
        assert ten in set(cards_in(seen))
    assert set(parse_cards("J♣ Q♦ A♥")).isdisjoint(cards_in(view(state, 0)))
    assert set(parse_cards("J♣ Q♦ A♥")).isdisjoint(cards_in(view(state, 1)))
    # The taker lost the attack (ORDER-5): P0 attacks P1, who must take the 9♦ too.
    assert (state.attacker, state.defender) == (0, 1)
    state = play(state, "P0 open 9♦", "P1 take")
    assert [set(view(state, 0).known[p]) for p in (1, 2)] == [set(parse_cards("9♦")), {ten}]
    # P2 attacks with the ten: now it lies on the table, no longer a known card in hand.
    assert state.attacker == 2
    state = play(state, "P2 open 10♠")
    for seat in range(3):
        seen = view(state, seat)
        assert seen.known[2] == ()
        assert seen.table[0].attack == ten


@pytest.mark.parametrize("rules", CASES)
def test_after_a_take_every_taken_card_is_known_in_every_view(rules: RuleSet) -> None:
    takes = 0
    for seed in (1, 2):
        game = random_game(rules, seed)
        states = list(game.states())
        for before, after in itertools.pairwise(states):
            if not (before.taking and before.table and not after.table):
                continue
            taker = before.defender
            taken = set(before.table_cards())
            assert taken <= set(after.hands[taker])
            for seat in range(rules.players):
                assert taken <= set(view(after, seat).known[taker])
                assert taken <= set(cards_in(view(after, seat)))
            takes += 1
    assert takes > 0, "no take happened in these games"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_face_up_trump_is_seen_until_drawn_then_known_in_the_drawers_hand(
        players: int) -> None:
    rules = profile("classic-throw-in").rules(players=players)
    drawn = 0
    for seed in range(1, 4):
        game = random_game(rules, seed)
        states = list(game.states())
        face_up = states[0].stock[-1]
        for before, after in itertools.pairwise(states):
            if before.stock:
                assert all(view(before, s).face_up == face_up for s in range(players))
            if before.stock and not after.stock:
                holder = next(s for s, hand in enumerate(after.hands) if face_up in hand)
                for seat in range(players):
                    seen = view(after, seat)
                    assert seen.face_up is None and seen.stock == 0
                    assert face_up in seen.known[holder]
                drawn += 1
    assert drawn > 0


def test_with_six_players_the_trump_card_of_the_deal_is_known() -> None:
    rules = profile("classic-throw-in").rules(players=6)
    game = Game.new(rules, seed=4)
    assert game.deck is not None
    trump_card = game.deck[-1]
    for seat in range(6):
        seen = view(game.state, seat)
        assert seen.face_up is None and seen.stock == 0
        assert seen.known[5] == (trump_card,)
        assert trump_card in set(cards_in(seen))
        assert seen.trump == trump_card.suit


def test_a_shown_trump_is_public() -> None:
    rules = RuleSet(players=3, transfer=True, transfer_by_showing_trump=True)
    state = position(rules, trump="♦", hands={0: "Q♣ 7♠", 1: "Q♦ 8♠ 9♠", 2: "K♣ 10♠ J♠"},
                     stock=4, attacker=0)
    assert "Q♦" not in json.dumps(view(state, 0).to_json(), ensure_ascii=False)
    state = play(state, "P0 open Q♣", "P1 show Q♦")
    for seat in (0, 2):
        seen = view(state, seat)
        assert seen.shown == parse_cards("Q♦")
        assert parse_cards("Q♦")[0] in seen.known[1]
        assert seen.hand_sizes[1] == 3  # the shown trump stays in P1's hand
        assert (seen.attacker, seen.defender) == (1, 2)
    assert set(parse_cards("8♠ 9♠")).isdisjoint(cards_in(view(state, 2)))


# -- playable actions (VIEW-3) ---------------------------------------------------------------


def test_playable_lists_only_the_seats_own_actions() -> None:
    rules = profile("classic-throw-in").rules(players=3)
    state = position(rules, trump="♥", hands={0: "7♣ 7♦ K♠", 1: "8♣ 10♠ 6♦", 2: "7♠ Q♦ A♠"},
                     stock=9, attacker=0)
    assert {str(a) for a in view(state, 0).playable} == {"P0 open 7♣", "P0 open 7♦",
                                                          "P0 open K♠"}
    assert view(state, 1).playable == () and view(state, 2).playable == ()
    state = play(state, "P0 open 7♣")
    assert {str(a) for a in view(state, 1).playable} == {"P1 cover 7♣ with 8♣", "P1 take"}
    assert {str(a) for a in view(state, 2).playable} == {"P2 throw 7♠"}
    assert {str(a) for a in view(state, 0).playable} == {"P0 throw 7♦"}
    assert view(state, 1).to_act and view(state, 0).to_act


def test_a_finished_game_has_an_outcome_and_nothing_playable() -> None:
    game = random_game(profile("classic-transfer").rules(players=4), seed=2)
    assert game.outcome is not None
    for seat in range(4):
        seen = view(game.state, seat)
        assert seen.outcome == game.outcome
        assert seen.playable == () and not seen.to_act
        assert seen.out == frozenset(p for g in game.outcome.finishing_order for p in g)


# -- JSON ------------------------------------------------------------------------------------


def test_to_json_is_plain_json_in_the_notation() -> None:
    rules = profile("classic-throw-in").rules(players=3)
    state = position(rules, trump="♥", hands={0: "9♦ K♠", 1: "8♣ 10♠ 6♦ 6♠", 2: "J♣ Q♦ A♠"},
                     table="7♣/9♣ 7♦", stock=9, attacker=0, known={1: "6♠"})
    seen = view(state, 1)
    data = json.loads(json.dumps(seen.to_json(), ensure_ascii=False))
    assert data["format"] == "durak-spec/view" and data["version"] == 1
    assert data["table"] == [["7♣", "9♣"], ["7♦", None]]
    assert data["hand"] == [str(c) for c in state.hands[1]]
    assert data["hand_sizes"] == [2, 4, 3]
    assert data["known"] == [[], ["6♠"], []]
    assert data["trump"] == "♥" and data["stock"] == 9
    assert data["face_up"] == str(state.stock[-1])
    assert data["outcome"] is None
    assert [action_from_json(a) for a in data["playable"]] == list(seen.playable)
    assert set(data) == {f.name for f in dataclasses.fields(PlayerView)} | {"format",
                                                                              "version"}


def test_outcome_in_json() -> None:
    game = random_game(profile("classic-throw-in").rules(players=3), seed=5)
    assert game.outcome is not None
    data = view(game.state, 0).to_json()["outcome"]
    assert data == {"finishing_order": [list(g) for g in game.outcome.finishing_order],
                    "durak": game.outcome.durak}


@pytest.mark.parametrize("seat", [-1, 3, True, "0"])
def test_a_seat_that_is_not_in_the_game(seat: object) -> None:
    state = Game.new(profile("classic-throw-in").rules(players=3), seed=1).state
    with pytest.raises(DurakError, match=r"there is no seat .+ in a game of 3 players"):
        view(state, seat)  # type: ignore[arg-type]
