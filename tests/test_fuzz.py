"""Bounded fuzz tests of the edges (issue 12): they stay in the suite so the classes stay closed.

* the wire server answers any line, any bytes, with one line of valid JSON (a protocol
  error if the line is not a request) and keeps serving;
* the saved-game loader lets only SavedGameError out, for any bytes and for mutated
  valid games, and a game it accepts saves and loads again to itself;
* card and action notation raise only CardError / NotationError, and what is printed
  parses back to the same value.

Each test has its own example budget (:func:`fuzz`; about 25 s for the whole file on
this machine); ``DURAK_SPEC_FUZZ=N`` multiplies the budgets for a longer hunt.
"""

from __future__ import annotations

import copy
import json
import os
import random
from typing import Any

import hypothesis
import pytest
from hypothesis import strategies as st

from durak_spec.core.cards import DECK, Card, CardError, parse_card, parse_cards
from durak_spec.core.errors import NotationError
from durak_spec.core.jsonio import JsonError, read_json, write_json
from durak_spec.engine import apply, legal_actions
from durak_spec.game import persist
from durak_spec.game.history import Game
from durak_spec.game.persist import SavedGameError
from durak_spec.model.actions import Action, action_from_json, parse_action
from durak_spec.model.rules import profile
from durak_spec.protocol import ReferenceEngine
from durak_spec.protocol.serve import Server
from durak_spec.protocol.wire import ProtocolError, action_from_wire

SCALE = max(1, int(os.environ.get("DURAK_SPEC_FUZZ", "1")))


def fuzz(examples: int) -> hypothesis.settings:
    """The settings of one fuzz test: ``examples`` times the scale; whether it is
    derandomized comes from the hypothesis profile (``ci`` under CI, see conftest.py)."""
    return hypothesis.settings(max_examples=examples * SCALE, deadline=None,
                               suppress_health_check=[hypothesis.HealthCheck.too_slow,
                                                      hypothesis.HealthCheck.data_too_large])


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**60, 2**60) | st.floats(allow_nan=False,
                                                                       allow_infinity=False)
    | st.text(max_size=20) | st.sampled_from(["7♣", "10H", "TH", "take", "cover", "open"]),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.sampled_from(["id", "cmd", "action", "player", "type", "card",
                                       "cards", "attack", "rules", "deck", "seed", "state",
                                       "x"]), inner, max_size=6),
    max_leaves=30)

REQUESTS = [
    {"id": 1, "cmd": "hello"}, {"id": 2, "cmd": "legal"}, {"id": 3, "cmd": "state"},
    {"id": 4, "cmd": "apply", "action": {"player": 0, "type": "cover", "attack": "7♣",
                                         "card": "9♣"}},
    {"id": 5, "cmd": "apply", "action": {"player": 1, "type": "open", "cards": ["7♣", "7♦"]}},
    {"id": 6, "cmd": "start", "rules": profile("classic-transfer").rules(players=3).to_dict(),
     "deck": [str(c) for c in DECK], "seed": 3},
]


def _started_server() -> Server:
    server = Server(ReferenceEngine())
    reply = server.handle(json.dumps(REQUESTS[-1], ensure_ascii=False))
    assert reply is not None and json.loads(reply)["ok"] is True
    return server


def _check_answer(server: Server, line: str) -> None:
    reply = server.handle(line)
    if reply is None:  # only a blank line goes unanswered
        assert not line.strip()
        return
    assert "\n" not in reply
    reply.encode("utf-8")  # it can always be written
    data = read_json(reply)  # the strict reader accepts every answer
    assert isinstance(data, dict) and isinstance(data["ok"], bool)
    if data["ok"] is False:
        assert isinstance(data["error"], str) and len(data["error"]) < 1100
    # and the server goes on serving
    again = server.handle('{"id": 77, "cmd": "hello"}')
    assert again is not None and json.loads(again)["id"] == 77


@fuzz(300)
@hypothesis.given(st.text(max_size=300))
def test_the_server_answers_any_text(line: str) -> None:
    _check_answer(_started_server(), line)


@fuzz(200)
@hypothesis.given(st.binary(max_size=300))
def test_the_server_answers_any_bytes(data: bytes) -> None:
    # what serve() reads from its standard input: UTF-8 with replacement characters
    _check_answer(_started_server(), data.decode("utf-8", errors="replace"))


@fuzz(300)
@hypothesis.given(JSON_VALUES, st.booleans())
def test_the_server_answers_any_json_value(value: Any, ascii_only: bool) -> None:
    _check_answer(_started_server(), json.dumps(value, ensure_ascii=ascii_only))


@fuzz(300)
@hypothesis.given(st.sampled_from(REQUESTS), st.lists(st.tuples(
    st.integers(0, 10**4), st.sampled_from(["delete", "replace", "add"]), JSON_VALUES),
    min_size=1, max_size=3))
def test_the_server_answers_mutated_requests(request: dict[str, Any],
                                             changes: list[tuple[int, str, Any]]) -> None:
    _check_answer(_started_server(), json.dumps(_mutate(request, changes), ensure_ascii=False))


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_places(item, (*path, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(_places(item, (*path, index)))
    return found


def _mutate(document: Any, changes: list[tuple[int, str, Any]]) -> Any:
    data = copy.deepcopy(document)
    for place, change, value in changes:
        places = _places(data)[1:]
        if not places:
            return value
        path = places[place % len(places)]
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        if change == "delete":
            del parent[last]
        elif change == "replace":
            parent[last] = copy.deepcopy(value)
        elif isinstance(parent, dict):
            parent["extra"] = copy.deepcopy(value)
        else:
            parent.insert(last, copy.deepcopy(value))
    return data


# -- the saved-game loader ------------------------------------------------------------------------


def _a_game() -> Game:
    game = Game.new(profile("classic-transfer").rules(players=3), seed=11)
    rng = random.Random(11)
    for _ in range(25):
        actions = legal_actions(game.state)
        if not actions:
            break
        game = game.play(rng.choice(actions))
    return game


GAME = _a_game()
GAME_DOCUMENT = persist.game_to_json(GAME)


def _load_only_saved_game_errors(data: bytes | str) -> None:
    try:
        game = persist.loads(data)
    except SavedGameError as error:
        assert str(error) and error.code
        write_json({"error": str(error)}).encode("utf-8")  # it can always be reported
        return
    assert persist.loads(persist.dumps(game)) == game


@fuzz(200)
@hypothesis.given(st.binary(max_size=400))
def test_the_loader_lets_only_saved_game_errors_out_of_any_bytes(data: bytes) -> None:
    _load_only_saved_game_errors(data)


@fuzz(150)
@hypothesis.given(st.lists(st.tuples(st.integers(0, 10**5),
                                     st.sampled_from(["delete", "replace", "add"]),
                                     JSON_VALUES), min_size=1, max_size=3))
def test_the_loader_lets_only_saved_game_errors_out_of_mutated_games(
        changes: list[tuple[int, str, Any]]) -> None:
    _load_only_saved_game_errors(json.dumps(_mutate(GAME_DOCUMENT, changes),
                                            ensure_ascii=False))


@fuzz(100)
@hypothesis.given(st.integers(0, 3000), st.binary(min_size=1, max_size=8))
def test_the_loader_survives_cut_and_spliced_files(cut: int, junk: bytes) -> None:
    text = persist.dumps(GAME).encode("utf-8")
    cut %= len(text)
    _load_only_saved_game_errors(text[:cut] + junk + text[cut + len(junk):])


# -- notation --------------------------------------------------------------------------------------

CARD_TEXT = st.text(alphabet=st.sampled_from(list("0123456789TJQKAtjqkaCDHScdhs♣♦♥♠♧♢♡♤ \t\n"
                                                  "xX٣\u3000,;")), max_size=8) | st.text(
    max_size=8)


@fuzz(400)
@hypothesis.given(CARD_TEXT)
def test_card_text_is_a_card_or_a_card_error(text: str) -> None:
    try:
        card = parse_card(text)
    except CardError as error:
        assert str(error) and error.rule is None and len(str(error)) < 300
        return
    assert isinstance(card, Card) and parse_card(str(card)) is card
    assert parse_card(card.ascii) is card


@fuzz(200)
@hypothesis.given(st.lists(st.sampled_from(DECK), max_size=6))
def test_cards_round_trip_through_their_notation(cards: list[Card]) -> None:
    text = " ".join(str(c) for c in cards)
    assert parse_cards(text) == tuple(cards)
    assert parse_cards(",".join(c.ascii for c in cards)) == tuple(cards)


ACTION_WORDS = st.sampled_from(["P0", "P1", "p2:", "3:", "P9", "P", "open", "throw", "in",
                                "cover", "with", "by", "transfer", "show", "take", "done",
                                "beaten", "exchange", "pick", "up", "7♣", "9C", "10h", "TH",
                                "1♣", "x", "٣", "", ","])


@fuzz(400)
@hypothesis.given(st.lists(ACTION_WORDS, max_size=6).map(" ".join) | st.text(max_size=30),
                  st.none() | st.integers(0, 5))
def test_action_text_is_an_action_or_a_notation_error(text: str, player: int | None) -> None:
    try:
        action = parse_action(text, player=player)
    except NotationError as error:  # CardError is a NotationError too
        assert str(error) and len(str(error)) < 400
        return
    assert isinstance(action, Action)
    assert parse_action(str(action)) == action


def _all_actions() -> list[Action]:
    found: dict[str, Action] = {}
    rng = random.Random(3)
    for name in ("classic-transfer", "source-b-transfer", "source-d"):
        for players in (2, 4):
            game = Game.new(profile(name).rules(players=players), seed=players)
            state = game.state
            while not state.is_over:
                actions = legal_actions(state)
                for action in actions:
                    found.setdefault(str(action), action)
                state = apply(state, rng.choice(actions))
    return list(found.values())


ACTIONS = _all_actions()


@fuzz(200)
@hypothesis.given(st.sampled_from(ACTIONS))
def test_actions_round_trip_through_text_and_json(action: Action) -> None:
    assert parse_action(str(action)) == action
    assert action_from_json(action.to_json()) == action
    assert action_from_wire(read_json(write_json(action.to_json()))) == action


@fuzz(300)
@hypothesis.given(JSON_VALUES)
def test_any_json_is_an_action_or_a_clear_error(value: Any) -> None:
    try:
        action_from_json(value)
    except NotationError:
        pass
    else:
        assert isinstance(action_from_json(value), Action)
    try:
        action = action_from_wire(value)
    except JsonError as error:  # the wire's reader names the field
        assert error.reason
    else:
        assert isinstance(action, Action)
        assert action_from_wire(action.to_json()) == action


def test_the_fuzz_inputs_reach_both_outcomes() -> None:
    """Guard: the strategies above produce both good and bad input for each target."""
    outcomes = {"card": set(), "action": set(), "server": set()}
    rng = random.Random(8)
    for text in ["7♣", "7 ♣", "x", "10h", "", "٣H"]:
        try:
            parse_card(text)
            outcomes["card"].add(True)
        except CardError:
            outcomes["card"].add(False)
    for text in ["P1 take", "take", "P0 cover 7♣ with 9♣", "P9 fly"]:
        try:
            parse_action(text)
            outcomes["action"].add(True)
        except NotationError:
            outcomes["action"].add(False)
    server = _started_server()
    for request in [*REQUESTS[:3], rng.choice(REQUESTS)]:
        outcomes["server"].add(json.loads(server.handle(json.dumps(request)) or "{}")["ok"])
    outcomes["server"].add(json.loads(server.handle("{") or "{}")["ok"])
    assert all(found == {True, False} for found in outcomes.values()), outcomes


@pytest.mark.parametrize("text", ["\ud800", "a\udfffb"])
def test_the_server_survives_raw_surrogates_in_a_text_line(text: str) -> None:
    _check_answer(_started_server(), '{"id": 1, "cmd": "' + text + '"}')
    with pytest.raises(ProtocolError):
        from durak_spec.protocol.wire import decode_request

        decode_request('{"id": 1, "cmd": "' + text + '"}')
