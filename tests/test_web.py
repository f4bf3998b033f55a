"""The live boards of the website (durak_spec.play.web), in CPython: what the page asks and
what it is told. The same module runs in the browser (tests/test_browser.py drives it there);
here every answer is compared with the engine's own ``legal_actions`` / ``check`` / ``apply``.
"""

from __future__ import annotations

import html
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import hypothesis
import hypothesis.strategies as st
import pytest
from helpers import position

from durak_spec import (
    Cover,
    IllegalAction,
    ThrowIn,
    apply,
    check,
    legal_actions,
    new_game,
    parse_action,
    parse_card,
    profile,
)
from durak_spec.game import persist
from durak_spec.game.history import Game
from durak_spec.game.view import view
from durak_spec.play import web
from durak_spec.play.web import OPPONENTS, Board, Match, RequestError

NAMES = ["Anna", "Boris", "Vera"]


def ask(session: Board | Match, **request: Any) -> dict[str, Any]:
    answer = json.loads(session.request(json.dumps(request, ensure_ascii=False)))
    assert isinstance(answer, dict)
    return answer


def covering_position() -> Board:
    """Anna attacks Boris with 7♣ and 8♣ uncovered; hearts are trump; Boris holds 9♣ (which
    covers both), 6♥ (a trump: covers both) and 10♠ (covers neither)."""
    rules = profile("classic-throw-in").rules(players=2)
    state = position(rules, trump="♥", hands={0: "8♦ K♠", 1: "9♣ 6♥ 10♠"}, table="7♣ 8♣",
                     stock=4, bout=2)
    return Board(state, NAMES[:2])


def test_the_board_lists_exactly_the_engines_moves_and_the_cards_they_use() -> None:
    state = new_game(profile("classic-transfer").rules(players=3), seed=4)
    board = Board(state, NAMES)
    shown = ask(board, op="board")["board"]
    assert [m["action"] for m in shown["moves"]] == [a.to_json() for a in legal_actions(state)]
    first = legal_actions(state)[0]
    assert shown["moves"][0]["text"] == f"{NAMES[first.player]}: {first.move}"
    for entry in shown["cards"]:
        card = parse_card(entry["card"])
        assert card in state.hands[entry["seat"]]
        using = [a for a in legal_actions(state) if a.player == entry["seat"] and card in a.cards]
        assert [shown["moves"][n]["action"] for n in entry["moves"]] == [a.to_json() for a in using]
    assert shown["position"] == persist.state_to_json(state)
    assert shown["svg"].startswith("<svg") and 'data-card="' in shown["svg"]
    assert shown["buttons"] == []  # between bouts: no take, no done


def test_a_tap_plays_the_one_move_a_card_makes_and_the_position_follows_the_engine() -> None:
    board = covering_position()
    start = board.state
    answer = ask(board, op="tap", seat=1, card="9♣")
    assert answer["result"] == "choose"  # 9♣ covers 7♣ or 8♣
    moves = answer["moves"]
    texts = {ask(board, op="board")["board"]["moves"][n]["text"] for n in moves}
    assert texts == {"Boris: cover 7♣ with 9♣", "Boris: cover 8♣ with 9♣"}
    played = ask(board, op="tap", seat=1, card="9♣", target="8♣")
    assert played["result"] == "played"
    assert board.state == apply(start, Cover(1, parse_card("8♣"), parse_card("9♣")))
    assert played["board"]["position"] == persist.state_to_json(board.state)
    assert played["board"]["history"] == ["Boris: cover 8♣ with 9♣"]


def test_an_illegal_tap_is_refused_with_the_rule_and_changes_nothing() -> None:
    board = covering_position()
    start = board.state
    # 10♠ covers neither attack card: refused at once, not a choice of two refusals
    refused = ask(board, op="tap", seat=1, card="10♠")
    with pytest.raises(IllegalAction) as expected:
        check(start, Cover(1, parse_card("7♣"), parse_card("10♠")))
    assert refused["result"] == "refused"
    assert refused["rule"] == expected.value.rule == "BEAT-5"
    assert refused["reason"] == expected.value.reason.replace("P1", "Boris")
    assert refused["rule_title"]
    assert board.state == start
    # Anna may throw in 8♦ (an eight lies on the table), not K♠: tapping it asks the engine
    assert ask(board, op="tap", seat=0, card="8♦")["result"] == "played"
    board.reset()
    answer = ask(board, op="tap", seat=0, card="K♠")
    assert answer["result"] == "refused" and answer["rule"] == "ATTACK-3"
    assert board.state == start


def test_the_examples_next_move_follows_the_reader_who_plays_it() -> None:
    """"Show the example's move" goes on to the example's next move once the reader has
    made this one by hand, and starts over after any other move."""
    board = covering_position()
    cover = Cover(1, parse_card("7♣"), parse_card("9♣"))
    throw = ThrowIn(0, parse_card("8♦"))
    board = Board(board.state, NAMES[:2], [cover, throw])
    assert ask(board, op="board")["board"]["example"]["next"] == "Boris: cover 7♣ with 9♣"
    played = ask(board, op="tap", seat=1, card="9♣", target="7♣")
    assert played["result"] == "played"
    assert played["board"]["example"] == {"moves": 2, "shown": 1,
                                          "next": "Anna: throw 8♦"}
    shown = ask(board, op="example")  # the example's second move, not its first again
    assert shown["result"] == "played" and shown["board"]["history"] == [
        "Boris: cover 7♣ with 9♣", "Anna: throw 8♦"]
    assert shown["board"]["example"]["next"] is None
    board.reset()
    other = ask(board, op="tap", seat=1, card="9♣", target="8♣")  # not the example's move
    assert other["board"]["example"]["shown"] == 0
    assert ask(board, op="example")["board"]["history"] == ["Boris: cover 7♣ with 9♣"]


def test_take_and_done_buttons_are_marked_by_the_engine() -> None:
    board = covering_position()
    buttons = ask(board, op="board")["board"]["buttons"]
    assert [(b["text"], b["legal"]) for b in buttons] == [("Boris takes", True),
                                                          ("Anna says done", False)]
    refused = ask(board, op="action", action=buttons[1]["action"])
    assert refused["result"] == "refused" and refused["rule"]
    taken = ask(board, op="action", action=buttons[0]["action"])
    assert taken["result"] == "played" and board.state.taking


def test_reset_undo_and_the_examples_own_moves() -> None:
    board = covering_position()
    start = board.state
    moves = [parse_action("P1 cover 7♣ with 10♠"), parse_action("P1 cover 7♣ with 9♣")]
    board = Board(start, NAMES[:2], moves)
    first = ask(board, op="example")
    assert first["result"] == "refused" and first["rule"] == "BEAT-5"
    assert first["board"]["example"] == {"moves": 2, "shown": 1,
                                         "next": "Boris: cover 7♣ with 9♣"}
    second = ask(board, op="example")
    assert second["result"] == "played" and board.state == apply(start, moves[1])
    again = ask(board, op="example")  # after the last move: from the start again
    assert again["result"] == "refused" and board.state == start
    ask(board, op="move", id=0)
    assert ask(board, op="undo")["board"]["position"] == persist.state_to_json(start)
    assert ask(board, op="undo")["result"] == "refused"
    ask(board, op="move", id=0)
    ask(board, op="move", id=0)
    assert ask(board, op="reset")["board"]["history"] == []
    assert board.state == start


def test_a_board_from_a_pictures_data() -> None:
    state = new_game(profile("classic-throw-in").rules(players=3), seed=2)
    action = legal_actions(state)[0]
    board = Board.from_page(json.dumps(persist.state_to_json(state)), "Anna,Boris,Vera",
                            json.dumps([action.to_json()]))
    assert board.state == state and board.names == tuple(NAMES) and board.example == (action,)
    with pytest.raises(persist.SavedGameError):
        Board.from_page(json.dumps({"format": "durak-spec/state"}))


def test_malformed_requests_get_a_clear_error_never_an_exception() -> None:
    board = covering_position()
    start = board.state
    for text, words in (("", "not JSON"), ("[1]", "'op'"), ('{"op": "fly"}', "unknown request"),
                        ('{"op": "tap", "seat": 7, "card": "9♣"}', "no seat 7"),
                        ('{"op": "tap", "seat": 1, "card": "A♠"}', "not in Boris's hand"),
                        ('{"op": "tap", "seat": 1, "card": "1X"}', "card"),
                        ('{"op": "move", "id": 99}', "no move 99"),
                        ('{"op": "move", "id": true}', "whole number"),
                        ('{"op": "action", "action": {"type": "cover"}}', "player"),
                        ('{"op": "example"}', "makes no move")):
        answer = json.loads(board.request(text))
        assert answer["result"] == "error", text
        assert words in answer["message"], (text, answer)
        assert answer["code"]
    assert board.state == start


@hypothesis.settings(max_examples=25, deadline=None)
@hypothesis.given(seed=st.integers(0, 10_000), taps=st.lists(st.integers(0, 10_000), max_size=40))
def test_any_taps_follow_the_engine_and_refusals_change_nothing(seed: int, taps: list[int]
                                                                ) -> None:
    state = new_game(profile("classic-transfer").rules(players=3), seed=seed)
    board = Board(state, NAMES)
    for tap in taps:
        shown = ask(board, op="board")["board"]
        if shown["over"]:
            break
        entry = shown["cards"][tap % len(shown["cards"])]
        before = board.state
        answer = ask(board, op="tap", seat=entry["seat"], card=entry["card"])
        if answer["result"] == "target":
            answer = ask(board, op="tap", seat=entry["seat"], card=entry["card"],
                         target=answer["targets"][tap % len(answer["targets"])])
        if answer["result"] == "choose":
            answer = ask(board, op="move", id=answer["moves"][tap % len(answer["moves"])])
        assert answer["result"] in ("played", "refused"), answer
        if answer["result"] == "refused":
            assert board.state == before and answer["rule"]
        else:
            assert board.state in {apply(before, a) for a in legal_actions(before)}


def play_to_the_end(match: Match, pick: random.Random) -> int:
    human = 0
    for _ in range(2000):
        answer = ask(match, op="computer")
        if answer["result"] == "played":
            continue
        assert answer["result"] == "wait"
        board = answer["board"]
        if board["over"]:
            return human
        assert board["yours"] and board["moves"], board["turn"]
        move = pick.choice(board["moves"])
        assert ask(match, op="move", id=move["id"])["result"] == "played"
        human += 1
    raise AssertionError("the game did not end")



def test_the_coach_reviews_the_readers_moves_of_a_finished_game_a_slice_at_a_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """{"op": "review"}: progress while it runs, then at most five of the reader's moves,
    each with a reason in the players' names, its tip's links and a picture that shows no
    card the reader could not see; the same review as review_game() at once."""
    monkeypatch.setattr(web, "REVIEW_SAMPLES", 2)  # a fast test; the page samples more
    names = ["Anna (you)", "Boris"]
    match = Match.new("classic-throw-in", 2, seed=4, names=names)
    unfinished = ask(match, op="review")
    assert unfinished["result"] == "error" and unfinished["code"] == "review"
    assert "not finished" in unfinished["message"] and "\n" not in unfinished["message"]
    assert play_to_the_end(match, random.Random(1)) > 0  # random moves: some cost dearly
    progress = []
    for _ in range(500):
        answer = ask(match, op="review", budget_ms=0)  # one decision a request
        if answer["result"] != "reviewing":
            break
        progress.append((answer["done"], answer["total"], answer["checking"]))
    assert answer["result"] == "review", answer
    total = progress[0][1]
    assert [d for d, _, checking in progress if not checking] == list(range(1, total))
    assert progress[-1][:2] == (total, total) and progress[-1][2]  # the marks weighed again
    assert answer["decisions"] == total and answer["samples"] == 2
    marked = answer["marked"]
    assert 1 <= len(marked) <= 5
    states = list(match.game.states())
    for move in marked:
        assert move["reason"].startswith("Anna (you) played ") and "P0" not in move["reason"]
        assert match.game.actions[move["number"] - 1].player == 0
        svg = move["svg"]
        assert svg.startswith("<svg") and f"Move {move['number']}: Anna (you) played" in svg
        before = states[move["number"] - 1]
        hidden = set(before.hands[1]) - set(view(before, 0).known[1])
        drawn = {c for c in before.hands[0] + before.hands[1] if f'data-card="{c}"' in svg}
        assert set(before.hands[0]) <= drawn  # the reader's own cards are drawn face up
        assert hidden and not hidden & drawn  # the other hand's unknown cards are not
        if move["tip"] is not None:
            assert re.fullmatch(r"tips-evidence\.html#evidence-TIP-\d+", move["tip"]["evidence"])
            assert move["tip"]["id"] in move["reason"]
    assert [m["drop"] for m in marked] == sorted((m["drop"] for m in marked), reverse=True)
    assert answer == web.review_game(match.game, 0, names=names, seed=match.seed)


def test_a_review_request_with_a_bad_budget_says_so() -> None:
    match = Match.new("classic-throw-in", 2, seed=4)
    answer = ask(match, op="review", budget_ms="soon")
    assert answer["result"] == "error" and "'budget_ms'" in answer["message"]

# The tree search player thinks up to a second a move: its game on the page is in
# test_ismcts.py, a few moves long.
@pytest.mark.parametrize("opponent", [k for k in OPPONENTS if k != "ismcts"])
def test_a_whole_game_against_the_computer_saved_in_the_terminals_format(
        opponent: str, tmp_path: Path) -> None:
    match = Match.new("classic-throw-in", 3, opponent=opponent, seed=11,
                      names=["Anna (you)", "Boris", "Vera"])
    first = ask(match, op="board")["board"]
    assert "position" not in first  # the other hands stay hidden
    assert first["view"]["hand_sizes"] == [6, 6, 6] and first["view"]["seat"] == 0
    assert all(c["seat"] == 0 for c in first["cards"])
    assert play_to_the_end(match, random.Random(3)) > 0
    assert match.state.outcome is not None
    saved = ask(match, op="save")
    game = persist.loads(saved["text"])
    assert game.state == match.state and game.seed == 11
    assert game == Game.replay(game.initial, game.actions, seed=game.seed, deck=game.deck)
    path = tmp_path / "game.json"
    path.write_text(saved["text"], encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "durak_spec", "play", "--load", str(path)],
                          input="", capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "Game over" in done.stdout


def test_a_game_saved_midway_resumes_alike_in_the_browser_and_is_never_rewound() -> None:
    match = Match.new("classic-transfer", 2, seed=5)
    for _ in range(6):
        answer = ask(match, op="computer")
        if answer["result"] == "wait":
            ask(match, op="move", id=0)
    text = ask(match, op="save")["text"]
    again = Match.load(text)
    assert again.state == match.state and again.game.actions == match.game.actions
    assert ask(again, op="board")["board"]["view"] == ask(match, op="board")["board"]["view"]
    assert ask(again, op="undo")["result"] == "refused"
    assert ask(again, op="reset")["result"] == "refused"
    answer = ask(again, op="action", action={"player": 1, "type": "take"})
    assert answer["result"] == "refused" and "computer" in answer["reason"]
    with pytest.raises(persist.SavedGameError):
        Match.load('{"format": "durak-spec/game", "version": 9}')


def test_the_page_starts_a_game_with_no_seed_as_json_null() -> None:
    """The Play page's New game without ?seed=: JavaScript's null reaches Python as JSON
    null (Pyodide would hand a proxy, not None), and the deal is random."""
    names = ["Anna (you)", "Boris"]
    match = Match.from_page(json.dumps({"op": "new", "profile": "classic-throw-in",
                                        "players": 2, "opponent": "heuristic", "seed": None,
                                        "names": names}))
    assert isinstance(match.seed, int) and match.names == tuple(names)
    assert ask(match, op="board")["board"]["view"]["hand_sizes"] == [6, 6]
    seeded = Match.from_page(json.dumps({"op": "new", "profile": "classic-throw-in",
                                         "players": 2, "seed": 7}))
    assert seeded.game == Match.new("classic-throw-in", 2, seed=7).game
    text = ask(seeded, op="save")["text"]
    loaded = Match.from_page(json.dumps({"op": "load", "text": text, "names": names}))
    assert loaded.game == seeded.game and loaded.names == tuple(names)


@pytest.mark.parametrize(("request_", "words"), [
    ({"op": "new", "profile": "classic-throw-in", "players": 2, "seed": "7"}, "'seed'"),
    ({"op": "new", "profile": "classic-throw-in", "players": 2, "seed": -1}, "'seed'"),
    ({"op": "new", "profile": "classic-throw-in", "players": "2"}, "'players'"),
    ({"op": "new", "profile": None, "players": 2}, "'profile'"),
    ({"op": "new", "profile": "nope", "players": 2}, "unknown profile"),
    ({"op": "new", "profile": "classic-throw-in", "players": 2, "names": [1]}, "'names'"),
    ({"op": "new", "profile": "classic-throw-in", "players": 2, "opponent": 3}, "opponent"),
    ({"op": "load"}, "'text'"),
    ({"op": "deal"}, "'new' or 'load'"),
])
def test_a_malformed_game_request_of_the_page_says_what_is_wrong(
        request_: dict[str, object], words: str) -> None:
    with pytest.raises(RequestError, match=re.escape(words)):
        Match.from_page(json.dumps(request_))


def test_a_game_against_the_computer_asks_the_engine_for_the_humans_moves() -> None:
    match = Match.new("classic-throw-in", 2, seed=1, names=["Anna (you)", "Boris"])
    for _ in range(200):  # until a position in which some card of Anna's is not playable
        answer = ask(match, op="computer")
        if answer["result"] == "played":
            continue
        mine = [a for a in legal_actions(match.state) if a.player == 0]
        assert [m["action"] for m in answer["board"]["moves"]] == [a.to_json() for a in mine]
        idle = [c for c in match.state.hands[0] if not any(c in a.cards for a in mine)]
        if idle and match.state.table:
            before = match.state
            refused = ask(match, op="tap", seat=0, card=str(idle[0]))
            if refused["result"] == "target":
                refused = ask(match, op="tap", seat=0, card=str(idle[0]),
                              target=refused["targets"][0])
            assert refused["result"] == "refused" and refused["rule"]
            assert match.state == before
            return
        ask(match, op="move", id=0)
    raise AssertionError("no position with a card Anna cannot play")


def test_every_picture_of_the_built_site_can_be_tried(built_book: Path) -> None:
    """Every picture of a position on the site loads as a board, and each example's moves
    replay with the verdicts the page prints for them (accepted or refused, with the rule)."""
    figure = re.compile(r'<figure class="durak-position" id="([^"]+)" data-position="([^"]+)"'
                        r'(?: data-players="([^"]*)")?(?: data-moves="([^"]*)")?')
    verdicts = re.compile(r'class="verdict (accepted|rejected)">.*?(?:\(<a [^>]*>([A-Z]+-\d+)'
                          r'</a>\))?</span>', re.S)
    articles = re.compile(r'<article class="durak-example" id="([^"]+)">(.*?)</article>', re.S)
    boards = replayed = 0
    for page in sorted(built_book.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        steps = {number: verdicts.findall(body) for number, body in articles.findall(text)}
        for ident, data, players, moves in figure.findall(text):
            board = Board.from_page(html.unescape(data), html.unescape(players or ""),
                                    html.unescape(moves or ""))
            shown = ask(board, op="board")["board"]
            assert shown["svg"].startswith("<svg"), ident
            boards += 1
            number = ident.removeprefix("pos-")
            if not moves or not ident.startswith("pos-") or \
                    len(steps.get(number, ())) != len(board.example):
                continue
            for accepted, rule in steps[number]:
                answer = ask(board, op="example")
                if accepted == "accepted":
                    assert answer["result"] == "played", (number, answer)
                else:
                    assert answer["result"] == "refused", (number, answer)
                    assert not rule or answer["rule"] == rule, (number, answer, rule)
            replayed += 1
    assert boards >= 600 and replayed >= 280, (boards, replayed)  # 672 and 305 at writing
