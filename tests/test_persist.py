"""Saved games and positions (durak_spec.game.persist): round trips and strict loading.

Every kind of malformed document is rejected with a SavedGameError that names the place
and the problem (and the rule, where a rule of the game is broken); a fuzz test checks
that no mutation of a saved game escapes as any other exception.

Runtime: about 4 s.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import play, position, random_game

from durak_spec import (
    PROFILES,
    Action,
    DurakError,
    GameState,
    IllegalAction,
    RuleSet,
    Take,
    check,
    legal_actions,
    profile,
)
from durak_spec.engine import new_game, validate_state
from durak_spec.game import persist
from durak_spec.game.history import Game
from durak_spec.game.persist import (
    FORMAT,
    STATE_FORMAT,
    VERSION,
    SavedGameError,
    dumps,
    game_from_json,
    game_to_json,
    load,
    loads,
    save,
    state_from_json,
    state_to_json,
)
from durak_spec.model.rules import DoneInTake, Goal, TurnOrder

PLAYERS = range(2, 7)
Doc = dict[str, Any]



def every_option(rules: RuleSet) -> RuleSet:
    """``rules`` with the optional axes on, so that shown trumps, exchanges and a recorded
    last thrower (turn_order last-thrower) occur."""
    return rules.replace(transfer=True, transfer_by_showing_trump=True, trump_exchange=True,
                         multi_card_opening=True, turn_order=TurnOrder.LAST_THROWER)


CASES = [pytest.param(p.rules(players=n), id=f"{name}-{n}p")
         for name, p in PROFILES.items() for n in PLAYERS]
CASES += [pytest.param(every_option(RuleSet(players=n)), id=f"every-option-{n}p")
          for n in PLAYERS]


def plain(game: Game) -> Doc:
    """The saved game as plain JSON values (through text, as a file would hold it)."""
    data = json.loads(json.dumps(game_to_json(game), ensure_ascii=False))
    assert isinstance(data, dict)
    return data


# -- round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize("rules", CASES)
def test_round_trip_of_finished_and_unfinished_games(rules: RuleSet) -> None:
    finished = random_game(rules, seed=rules.players)
    partial = random_game(rules, seed=7, stop=random.Random(rules.players).randrange(1, 40))
    for game in (finished, partial):
        again = game_from_json(game_to_json(game))
        assert again == game
        assert (again.initial, again.actions, again.state) == \
            (game.initial, game.actions, game.state)
        assert loads(dumps(game)) == game


def test_round_trip_of_a_replayed_game_without_a_deal() -> None:
    game = random_game(profile("classic-transfer").rules(players=4), seed=3)
    middle = list(game.states())[20]
    tail = Game.replay(middle, game.actions[20:])
    data = plain(tail)
    assert data["seed"] is None and data["deck"] is None
    assert game_from_json(data) == tail


def test_save_and_load_a_file(tmp_path: Path) -> None:
    game = random_game(profile("source-d").rules(players=5), seed=9, stop=50)
    path = tmp_path / "game.json"
    save(game, path)
    assert load(path) == game
    assert load(str(path)) == game
    text = path.read_text(encoding="utf-8")
    assert "♣" in text or "♦" in text  # cards keep the notation's suit symbols
    assert json.loads(text)["format"] == FORMAT
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left


@pytest.mark.parametrize("rules", CASES)
def test_state_round_trip_along_a_game(rules: RuleSet) -> None:
    game = random_game(rules, seed=rules.players + 10)
    for state in list(game.states())[::3]:
        data = json.loads(json.dumps(state_to_json(state), ensure_ascii=False))
        assert state_from_json(data) == state


def test_the_round_trips_cover_every_field_of_a_position() -> None:
    """Guard for the tests above: the games they save reach every kind of position."""
    seen: dict[str, bool] = {}
    for n in PLAYERS:
        for seed in range(3):
            for state in random_game(every_option(RuleSet(players=n)), seed).states():
                data = state_to_json(state)
                for key, value in data.items():
                    if value not in ([], 0, False, None, [[]] * n):
                        seen[key] = True
                covers = [pair[1] for pair in data["table"]]
                seen["uncovered"] = seen.get("uncovered", False) or None in covers
                seen["covered"] = seen.get("covered", False) or any(covers)
                seen["known"] = seen.get("known", False) or any(data["known"])
    fields = [f for f in GameState._fields if f != "rules"]
    missing = [key for key in [*fields, "uncovered", "covered"] if not seen.get(key)]
    assert missing == []


def test_the_position_format_has_one_key_per_state_field() -> None:
    state = Game.new(profile("classic-throw-in").rules(players=2), seed=1).initial
    data = state_to_json(state)
    assert data["format"] == STATE_FORMAT and data["version"] == VERSION
    assert set(data) - {"format", "version"} == set(GameState._fields)
    game_data = game_to_json(Game.new(state.rules, seed=1))
    assert set(game_data["initial"]) == set(GameState._fields) - {"rules"}
    assert set(game_data) == {"format", "version", "rules", "seed", "deck", "initial",
                              "history", "state"}


def test_the_table_is_written_as_pairs_with_null_for_no_cover() -> None:
    rules = profile("classic-throw-in").rules(players=2)
    game = random_game(rules, seed=5)
    state = next(s for s in game.states()
                 if any(p.cover is None for p in s.table) and
                 any(p.cover is not None for p in s.table))
    table = state_to_json(state)["table"]
    assert table == [[str(p.attack), None if p.cover is None else str(p.cover)]
                     for p in state.table]


def test_loading_accepts_other_card_spellings_and_any_hand_order() -> None:
    game = random_game(profile("classic-throw-in").rules(players=3), seed=2, stop=10)
    data = plain(game)
    data["initial"]["hands"][0] = [c.replace("♣", "C").replace("♦", "D").replace("♥", "H")
                                   .replace("♠", "S") for c in reversed(data["initial"]
                                                                          ["hands"][0])]
    assert game_from_json(data) == game


# -- strict loading -----------------------------------------------------------------------


BASE_RULES = profile("classic-transfer").rules(players=3)
BASE = random_game(BASE_RULES, seed=5, stop=30)


def illegal_action_at(index: int) -> tuple[Action, str]:
    """An action illegal at step ``index`` of BASE's history, and the rule it breaks."""
    state = Game.replay(BASE.initial, BASE.actions[:index]).state
    listed = legal_actions(state)
    action = next(Take(p) for p in range(3) if Take(p) not in listed)
    with pytest.raises(IllegalAction) as error:
        check(state, action)
    return action, error.value.rule


def _set(path: str, value: object) -> Callable[[Doc], object]:
    """A mutation that sets the value at ``path`` (``"initial.hands.0.1"``)."""
    *parents, last = path.split(".")

    def mutate(data: Doc) -> object:
        node: Any = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
        return data
    return mutate


def _delete(path: str) -> Callable[[Doc], object]:
    *parents, last = path.split(".")

    def mutate(data: Doc) -> object:
        node: Any = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[int(last) if isinstance(node, list) else last]
        return data
    return mutate


def _with(change: Callable[[Doc], None]) -> Callable[[Doc], object]:
    def mutate(data: Doc) -> object:
        change(data)
        return data
    return mutate


def _swap_deck(data: Doc) -> None:
    deck = data["deck"]
    deck[0], deck[6] = deck[6], deck[0]


def _thirty_seven(data: Doc) -> None:
    data["initial"]["discard"].append(data["initial"]["stock"][0])


def _thirty_five(data: Doc) -> None:
    del data["initial"]["stock"][0]


def _roles(data: Doc) -> None:
    data["initial"]["defender"] = data["initial"]["attacker"]


def _illegal_step(data: Doc) -> None:
    action, _ = illegal_action_at(7)
    data["history"][7] = action.to_json()


def _short_history(data: Doc) -> None:
    data["history"].pop()


def _known_not_held(data: Doc) -> None:
    stock_card = data["initial"]["stock"][0]
    data["initial"]["known"][0] = [stock_card]


def _out_too_early(data: Doc) -> None:
    data["initial"]["finished"] = [[0]]


MALFORMED: list[Any] = [
    pytest.param(lambda d: [d], r"^a saved game must be a JSON object, not an array$", None,
                 id="not-an-object"),
    pytest.param(_set("format", "durak-spec/chess"), r"^format: unknown format "
                 r"'durak-spec/chess': expected 'durak-spec/game'$", None, id="format"),
    pytest.param(_delete("format"), r"lacks the key 'format'", None, id="no-format"),
    pytest.param(_set("format", STATE_FORMAT), r"saved position: read it with "
                 r"state_from_json", None, id="state-document"),
    pytest.param(_set("version", 4), r"^version: unknown version 4 of durak-spec/game: "
                 r"this durak-spec reads versions 1, 2, 3$", None, id="version"),
    pytest.param(_set("version", "1"), r"^version: the version must be a whole number, not "
                 r"the string '1'$", None, id="version-type"),
    pytest.param(_delete("history"), r"^a saved game lacks the key 'history'$", None,
                 id="missing-key"),
    pytest.param(_set("comment", "hi"), r"^a saved game has the unknown key 'comment'; the "
                 r"keys are format, version", None, id="extra-key"),
    pytest.param(_delete("rules.transfer"), r"^rules: the rule set lacks the key 'transfer'$",
                 None, id="rules-missing-axis"),
    pytest.param(_set("rules.speed", 3), r"^rules: the rule set has the unknown key 'speed'",
                 None, id="rules-extra-axis"),
    pytest.param(_set("rules.players", 7), r"^rules.players: Durak is played by 2 to 6 "
                 r"players, not 7 \(DEAL-3\)$", "DEAL-3", id="rules-players"),
    pytest.param(_set("rules.players", "3"), r"^rules.players: players must be a whole "
                 r"number, not the string '3'$", None, id="rules-players-type"),
    pytest.param(_set("rules.throw_in", "everyone"), r"^rules.throw_in: the string "
                 r"'everyone' is not a value of throw_in; choose one of attacker, neighbours, "
                 r"all$", None, id="rules-enum"),
    pytest.param(_set("rules.transfer", "yes"), r"^rules.transfer: transfer must be true or "
                 r"false, not the string 'yes'$", None, id="rules-bool"),
    pytest.param(_with(lambda d: d["rules"].update(transfer=False,
                                                    transfer_by_showing_trump=True)),
                 r"^rules: transfer_by_showing_trump needs the transfer game", None,
                 id="rules-inconsistent"),
    pytest.param(_set("seed", "abc"), r"^seed: the seed must be a whole number or null, not "
                 r"the string 'abc'$", None, id="seed-type"),
    pytest.param(_delete("deck.0"), r"^deck: a deck holds 36 cards, not 35; missing: ",
                 "DEAL-1", id="deck-35"),
    pytest.param(_with(lambda d: d["deck"].append(d["deck"][0])),
                 r"^deck\[36\]: .+ is listed twice in the deck \(DEAL-1\)$", "DEAL-1",
                 id="deck-repeat"),
    pytest.param(_set("deck.3", "5♣"), r"^deck\[3\]: '5' is not a rank of the Durak deck",
                 None, id="deck-bad-card"),
    pytest.param(_with(_swap_deck), r"^initial: the deck does not deal this position; the "
                 r"fields that differ from the deal: hands\b.* \(CLAR-10\)$", "CLAR-10",
                 id="deck-mismatch"),
    pytest.param(_with(lambda d: d.update(deck=None, seed=99)), r"^initial: the seed 99 "
                 r"does not deal this position", "CLAR-10", id="seed-mismatch"),
    pytest.param(_set("initial.hands.0.2", "1X"), r"^initial.hands\[0\]\[2\]: ", None,
                 id="bad-card-string"),
    pytest.param(_set("initial.hands.1.0", 7), r"^initial.hands\[1\]\[0\]: a card must be a "
                 r"string like '7♣', not the number 7$", None, id="card-type"),
    pytest.param(_set("initial.hands.1", "7♣ 8♣"), r"^initial.hands\[1\]: a hand must be a "
                 r"JSON array, not the string", None, id="hand-type"),
    pytest.param(_with(lambda d: d["initial"]["hands"].pop()), r"^initial.hands: hands must "
                 r"have one entry per seat: 2 entries for 3 players \(DEAL-3\)$", "DEAL-3",
                 id="hand-count"),
    pytest.param(_with(_thirty_seven), r"^initial: .+ is in two places at once \(DEAL-1\)$",
                 "DEAL-1", id="37-cards"),
    pytest.param(_with(_thirty_five), r"^initial: the game holds 35 cards, not 36; "
                 r"missing: ", "DEAL-1", id="35-cards"),
    pytest.param(_with(_roles), r"^initial: P(\d) cannot attack themselves \(ORDER-3\)$",
                 "ORDER-3", id="impossible-roles"),
    pytest.param(_set("initial.attacker", 9), r"^initial.attacker: P9 is not a seat of a "
                 r"3-player game \(seats are 0 to 2\)$", None, id="seat-range"),
    pytest.param(_set("initial.bout", -1), r"^initial.bout: bout must be a whole number "
                 r"\(0 or more\), not the number -1$", None, id="negative-count"),
    pytest.param(_set("initial.taking", "no"), r"^initial.taking: taking must be true or "
                 r"false, not the string 'no'$", None, id="bool-type"),
    pytest.param(_set("initial.trump", "X"), r"^initial.trump: 'X' is not a suit", None,
                 id="trump"),
    pytest.param(_set("initial.table", [["7♣", "8♣", "9♣"]]), r"^initial.table\[0\]: a table "
                 r"pair is \[attack card, cover card or null\], not 3 items$", None,
                 id="table-pair"),
    pytest.param(_with(_known_not_held), r"^initial: P0 is said to hold .+ publicly, but does "
                 r"not \(VIEW-2\)$", "VIEW-2", id="known-not-held"),
    pytest.param(_with(lambda d: d["initial"]["known"][0].extend(["7♣", "7♣"])),
                 r"^initial.known\[0\]\[1\]: 7♣ is listed twice in known cards$", None,
                 id="known-repeat"),
    pytest.param(_with(_out_too_early), r"^initial: ", "END-2", id="out-with-stock"),
    pytest.param(_set("initial.finished", [[]]), r"^initial.finished\[0\]: a group of "
                 r"finished seats is never empty \(END-1\)$", "END-1", id="empty-group"),
    pytest.param(_set("initial.passed", [1, 1]), r"^initial.passed\[1\]: P1 is listed twice in "
                 r"passed$", None, id="passed-repeat"),
    pytest.param(_delete("initial.shown"), r"^initial: the initial position lacks the key "
                 r"'shown'$", None, id="position-missing-key"),
    pytest.param(_set("initial.rules", {}), r"^initial: the initial position has the unknown "
                 r"key 'rules'", None, id="position-extra-key"),
    pytest.param(_set("history", {}), r"^history: the history must be a JSON array, not an "
                 r"object$", None, id="history-type"),
    pytest.param(_set("history.3", "P0 take"), r"^history\[3\]: an action must be a JSON "
                 r"object, not the string 'P0 take'$", None, id="action-type"),
    pytest.param(_set("history.3", {"player": 0, "type": "fly"}), r"^history\[3\]: .*unknown "
                 r"type 'fly'", None, id="action-kind"),
    pytest.param(_set("history.3", {"player": 0, "type": "take", "card": "7♣"}),
                 r"^history\[3\]: a take action has no key 'card'; its keys are player, type$",
                 None, id="action-extra-key"),
    pytest.param(_set("history.3", {"player": 0, "type": "throw", "card": "1♣"}),
                 r"^history\[3\]: ", None, id="action-bad-card"),
    pytest.param(_with(_illegal_step), r"^history\[7\]: action 7 \(P\d take\) is illegal at "
                 r"its step: ", illegal_action_at(7)[1], id="illegal-step"),
    pytest.param(_with(_short_history), r"^state: the 29 actions of the history do not "
                 r"lead to the stored position; the fields that differ: \w+", None,
                 id="history-short"),
    pytest.param(lambda d: {**d, "state": d["initial"]}, r"^state: the 30 actions of the "
                 r"history do not lead to the stored position; the fields that differ: hands, "
                 r"stock", None, id="state-replaced"),
    pytest.param(_set("state.attacker", "P1"), r"^state.attacker: a seat must be a whole "
                 r"number \(0 or more\), not the string 'P1'$", None, id="state-type"),
]


@pytest.mark.parametrize(("mutate", "match", "rule"), MALFORMED)
def test_malformed_games_are_rejected_with_a_specific_message(
        mutate: Callable[[Doc], object], match: str, rule: str | None) -> None:
    data = mutate(plain(BASE))
    with pytest.raises(SavedGameError, match=match) as error:
        game_from_json(data)
    assert error.value.rule == rule
    assert isinstance(error.value, DurakError)
    assert error.value.reason and error.value.reason in str(error.value)


def test_the_base_game_of_the_malformed_cases_loads() -> None:
    """Guard: each malformed case fails because of its one change."""
    assert game_from_json(plain(BASE)) == BASE
    assert len(BASE.actions) == 30
    assert BASE.initial.stock and BASE.outcome is None


@pytest.mark.parametrize(("text", "match", "code"), [
    ("{", r"^a saved game is not JSON: Expecting property name enclosed in double quotes at "
          r"line 1, column 2$", "json-syntax"),
    ('{"format": 1, "format": 2}', r"^a saved game is not I-JSON: the key \"format\" appears "
                                   r"twice in one object$", "json-duplicate-key"),
    ('{"version": NaN}', r"^a saved game is not I-JSON: NaN is not a JSON number$",
     "json-number"),
    ('{"version": 1e400}', r"too large for a double$", "json-number"),
    ('{"version": ' + "9" * 5000 + "}", r"more than 4300 digits", "json-number"),
    (b"\x80abc", r"^a saved game is not UTF-8 text \(invalid start byte at byte 0\)$",
     "json-encoding"),
    ('{"a": "x', r"^a saved game is not JSON: Unterminated string starting at line 1, "
                r"column 7$", "json-syntax"),
    ("[" * 100_000, r"^a saved game nests arrays and objects more than 64 levels deep$",
     "json-too-deep"),
    ('{"format": "\\ud800"}', r"^format: the string holds a lone surrogate", "json-surrogate"),
    ("[1, 2]", r"^a saved game must be a JSON object, not an array$", "saved-game"),
])
def test_text_that_is_not_a_json_game(text: str | bytes, match: str, code: str) -> None:
    with pytest.raises(SavedGameError, match=match) as error:
        loads(text)
    assert error.value.code == code


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32",
                                      "utf-32-le", "utf-8-sig"])
def test_a_saved_game_in_another_encoding_is_refused_and_named(tmp_path: Path,
                                                               encoding: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(dumps(BASE).encode(encoding))
    name = {"utf-8-sig": "UTF-8 with a byte-order mark"}.get(encoding, encoding[:6].upper())
    with pytest.raises(SavedGameError, match=f"^a saved game is {name}; write it as UTF-8") \
            as error:
        load(path)
    assert error.value.code == "json-encoding"


def test_no_mutation_escapes_as_another_exception() -> None:
    """Fuzz: delete, replace or duplicate random parts of a saved game, 300 times.

    Loading either fails with a SavedGameError or gives a game whose saved form loads
    again to the same game; never a KeyError, TypeError, IndexError or the like.
    """
    rng = random.Random(2024)
    base = plain(random_game(every_option(RuleSet(players=3)), seed=4, stop=40))
    pool: list[object] = [None, True, False, 0, 1, -1, 2, 7, 36, 1.5, "", "x", "7♣", "A♠",
                          "♥", "take", [], {}, ["7♣", None], [[]], {"player": 0}]
    outcomes = {"rejected": 0, "loaded": 0}
    for _ in range(300):
        data = copy.deepcopy(base)
        for _ in range(rng.randrange(1, 3)):
            nodes = _nodes(data)
            parent, key = rng.choice(nodes)
            kind = rng.randrange(3)
            if kind == 0:
                del parent[key]
            elif kind == 1:
                parent[key] = copy.deepcopy(rng.choice(pool))
            elif isinstance(parent, list):
                parent.insert(key, copy.deepcopy(parent[key]))
            else:
                parent["zz"] = copy.deepcopy(parent[key])
        try:
            game = game_from_json(data)
        except SavedGameError as error:
            assert str(error)
            outcomes["rejected"] += 1
        else:
            assert game_from_json(game_to_json(game)) == game
            outcomes["loaded"] += 1
    assert outcomes["rejected"] > 250


def _nodes(data: object) -> list[tuple[Any, Any]]:
    """Every (container, key) pair of a JSON value."""
    found: list[tuple[Any, Any]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            found.append((data, key))
            found.extend(_nodes(value))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found.append((data, index))
            found.extend(_nodes(value))
    return found


# -- single positions -----------------------------------------------------------------------


def test_state_documents_are_checked_like_games() -> None:
    state = BASE.state
    good = json.loads(json.dumps(state_to_json(state), ensure_ascii=False))
    assert state_from_json(good) == state
    with pytest.raises(SavedGameError, match=r"saved game: read it with game_from_json"):
        state_from_json(plain(BASE))
    with pytest.raises(SavedGameError, match=r"^version: unknown version 0 of "
                       r"durak-spec/state"):
        state_from_json({**good, "version": 0})
    with pytest.raises(SavedGameError, match=r"^a saved position lacks the key 'table'$"):
        state_from_json({k: v for k, v in good.items() if k != "table"})
    twice = copy.deepcopy(good)
    twice["discard"].append(twice["hands"][0][0])
    with pytest.raises(SavedGameError, match=r"^.+ is in two places at once \(DEAL-1\)$") \
            as error:
        state_from_json(twice)
    assert error.value.rule == "DEAL-1"
    assert error.value.path == ""


def _swap_cards(data: object, first: str, second: str) -> object:
    """The JSON value with two cards trading places wherever they occur."""
    if isinstance(data, dict):
        return {k: _swap_cards(v, first, second) for k, v in data.items()}
    if isinstance(data, list):
        return [_swap_cards(v, first, second) for v in data]
    return {first: second, second: first}.get(data, data) if isinstance(data, str) else data


def test_a_cover_that_does_not_beat_its_attack_card_is_rejected() -> None:
    rules = profile("classic-throw-in").rules(players=2)
    state = position(rules, trump="♥", hands={0: "8♣ 9♦ K♠ A♠", 1: "10♦ Q♦"}, table="7♣/9♣",
                     start_hands={0: 5}, bout=3)  # no stock: short hands, 28 discarded
    good = state_to_json(state)
    assert state_from_json(good) == state
    bad = _swap_cards(good, "9♣", "6♣")
    # The same rule function as for a cover that is played: BEAT-5 (a lower card of the suit).
    with pytest.raises(SavedGameError, match=r"^6♣ does not beat 7♣: a card of the same suit "
                       r"must be higher \(BEAT-5\)$") as error:
        state_from_json(bad)
    assert error.value.rule == "BEAT-5"


def test_saved_game_error_pickles_with_its_details() -> None:
    error = SavedGameError("history[3]", "action 3 (P0 take) is illegal", "TAKE-1")
    again = pickle.loads(pickle.dumps(error))
    assert (again.path, again.reason, again.rule, str(again)) == \
        ("history[3]", "action 3 (P0 take) is illegal", "TAKE-1",
         "history[3]: action 3 (P0 take) is illegal (TAKE-1)")


def test_a_shown_trump_that_is_later_thrown_in_saves_and_loads() -> None:
    """A reachable position must load again: after P1 shows Q♦ to transfer and then throws
    the same Q♦ in as an attacker, Q♦ stays recorded as shown while it lies on the table
    (regression test: ``validate_state`` once rejected this position, TRANSFER-7)."""
    rules = RuleSet(players=3, transfer=True, transfer_by_showing_trump=True)
    state = position(rules, trump="♦", hands={0: "Q♣ 7♠", 1: "Q♦ 8♠ 9♠", 2: "K♣ 10♠ J♠"},
                     attacker=0, bout=3)  # the stock is out: short hands, 28 discarded
    state = play(state, "P0 open Q♣", "P1 show Q♦", "P2 cover Q♣ with K♣", "P1 throw Q♦")
    assert [str(p) for p in state.table] == ["Q♣/K♣", "Q♦"]
    assert state_from_json(state_to_json(state)) == state


# -- version 1 documents (written before the turn_order, goal and later_game_lead axes) ------


def _as_version_1(document: dict[str, Any]) -> dict[str, Any]:
    """A version 3 document written as version 1 would have written it."""
    old = {**document, "version": 1}
    old["rules"] = {k: v for k, v in document["rules"].items()
                    if k not in persist.VERSION_1_DEFAULTS and k not in persist.VERSION_2_DEFAULTS}
    for key in ("initial", "state"):
        if key in old:
            old[key] = {k: v for k, v in old[key].items() if k != "thrower"}
    old.pop("thrower", None)
    return old


def test_a_version_1_saved_game_loads_with_the_rules_it_was_played_under() -> None:
    rules = profile("source-b-transfer").rules(players=3)
    game = Game.new(rules, seed=11)
    for _ in range(40):
        if game.state.outcome is not None:
            break
        game = game.play(legal_actions(game.state)[0])
    document = persist.game_to_json(game)
    assert document["version"] == persist.VERSION == 3
    old = _as_version_1(document)
    assert "goal" not in old["rules"] and "thrower" not in old["state"]
    loaded = persist.game_from_json(old)
    assert loaded.state == game.state
    assert loaded.state.rules.goal is Goal.LAST_HOLDER_LOSES
    assert persist.game_to_json(loaded)["version"] == 3


def test_a_version_1_saved_position_loads() -> None:
    state = new_game(profile("classic-throw-in").rules(players=2), seed=3)
    old = _as_version_1(persist.state_to_json(state))
    assert persist.state_from_json(old) == state


def test_a_version_3_document_must_name_every_axis() -> None:
    document = persist.state_to_json(new_game(profile("classic-throw-in").rules(players=2),
                                              seed=3))
    del document["rules"]["goal"]
    with pytest.raises(persist.SavedGameError, match="lacks the key 'goal'"):
        persist.state_from_json(document)
    document = persist.state_to_json(new_game(profile("classic-throw-in").rules(players=2),
                                              seed=3))
    del document["rules"]["done_in_take"]
    with pytest.raises(persist.SavedGameError, match="lacks the key 'done_in_take'"):
        persist.state_from_json(document)


# -- version 2 documents (written before draw_after_transfer, done_in_take, transfer_target)


def test_a_version_2_saved_game_loads_with_the_readings_it_was_played_under() -> None:
    rules = profile("classic-transfer").rules(players=4)
    game = Game.new(rules, seed=5)
    for _ in range(60):
        if game.state.outcome is not None:
            break
        game = game.play(legal_actions(game.state)[-1])
    document = persist.game_to_json(game)
    old = {**document, "version": 2,
           "rules": {k: v for k, v in document["rules"].items()
                     if k not in persist.VERSION_2_DEFAULTS}}
    assert "transfer_target" not in old["rules"] and "goal" in old["rules"]
    loaded = persist.game_from_json(old)
    assert loaded.state == game.state
    assert loaded.state.rules.done_in_take is DoneInTake.FINAL
    assert persist.game_to_json(loaded)["version"] == 3
    # a version 2 document is read as strictly as before: its own axes must all be there
    del old["rules"]["goal"]
    with pytest.raises(persist.SavedGameError, match="lacks the key 'goal'"):
        persist.game_from_json(old)


def test_a_version_1_document_is_still_read_strictly() -> None:
    document = _as_version_1(persist.state_to_json(
        new_game(profile("classic-throw-in").rules(players=2), seed=3)))
    del document["rules"]["transfer"]
    with pytest.raises(persist.SavedGameError, match="lacks the key 'transfer'"):
        persist.state_from_json(document)


# -- issue 21: every loader asks the strict check ------------------------------------------


def _unseeded(state: GameState) -> Doc:
    """A saved game that starts at ``state`` with no seed and no deck, and has no history."""
    data = plain(Game.new(state.rules, seed=1))
    position_json = json.loads(json.dumps(persist._position_to_json(state), ensure_ascii=False))
    data.update(seed=None, deck=None, initial=position_json, state=position_json, history=[])
    return data


def _first_bout_with_two_discarded() -> GameState:
    state = new_game(profile("classic-throw-in").rules(players=2), seed=3)
    hand = state.hands[1]
    return state._replace(hands=(state.hands[0], hand[2:]), discard=hand[:2],
                          start_hands=(6, 4))


def test_a_saved_game_without_a_deal_cannot_start_in_an_impossible_first_bout(
        tmp_path: Path) -> None:
    state = _first_bout_with_two_discarded()
    validate_state(state)  # the structural check lets it through; loading does not
    with pytest.raises(SavedGameError) as caught:
        game_from_json(_unseeded(state))
    assert caught.value.path == "initial" and caught.value.rule == "DEAL-4", caught.value
    path = tmp_path / "impossible.json"
    path.write_text(json.dumps(_unseeded(state), ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "durak_spec", "play", "--load", str(path)],
                          input="quit\n", capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "DEAL-4" in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr


def test_a_saved_position_is_checked_strictly() -> None:
    state = new_game(profile("classic-throw-in").rules(players=3), seed=11)
    good = state_to_json(state)
    assert state_from_json(good) == state
    other = (state.opener + 1) % 3  # the first bout opened by a player without the lowest trump
    wrong = state._replace(attacker=other, defender=(other + 1) % 3, opener=other)
    validate_state(wrong)
    with pytest.raises(SavedGameError) as caught:
        state_from_json(state_to_json(wrong))
    assert caught.value.rule == "ORDER-1", caught.value
