"""The tree search player (durak_spec.play.bots.ismcts) and its tournament tool.

It plays only legal actions under several rule sets, keeps to its budget of playouts or of
time (the time read from a clock the test controls, so nothing here is timed), is made by
name for the terminal and the page, beats the random player in a small seeded match, and
``tools/tournament.py`` gives the same counts in one process or two. That it decides from
the view alone is held with the other bots in ``test_bots.py``.

Runtime: about 30 s on one core.
"""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import durak_spec.play.bots.ismcts as ismcts
from durak_spec import apply, legal_actions, new_game, profile
from durak_spec.cli import build_parser
from durak_spec.game.view import view
from durak_spec.model.actions import Cover, Done, Open, Take, ThrowIn
from durak_spec.model.rules import RuleSet
from durak_spec.play.bots import (
    BOT_KINDS,
    Bot,
    HeuristicBot,
    IsmctsBot,
    RandomBot,
    acting_seat,
    make_bot,
    play_game,
    tournament,
)
from durak_spec.play.bots.ismcts import OPPONENT_MODELS, PLAYOUT_POLICIES, greedy_move
from durak_spec.play.bots.turn_order import acting_moves
from durak_spec.play.web import OPPONENTS, Match

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "tournament.py"
THROW_IN_2 = profile("classic-throw-in").rules(players=2)


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("tournament_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


class Clock:
    """A clock that advances ``tick`` seconds each time it is read."""

    def __init__(self, tick: float) -> None:
        self.now = 0.0
        self.tick = tick
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.tick
        self.reads += 1
        return self.now


def _searched_position(rules: RuleSet = THROW_IN_2, seed: int = 3) -> tuple[Any, int]:
    """The first position of a seeded game where the seat to act has several moves."""
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    while True:
        seat = acting_seat(state)
        assert seat is not None
        moves = [a for a in legal_actions(state) if a.player == seat]
        if len(moves) > 2 and state.table:
            return state, seat
        state = apply(state, rng.choice(moves))


# -- legal play -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [
    profile("classic-throw-in").rules(players=2),
    profile("classic-transfer").rules(players=2),
    profile("classic-transfer").rules(players=4),
    profile("source-b-transfer").rules(),  # multi-card openings, start-hand limit
    profile("classic-transfer").rules(players=3).replace(transfer_by_showing_trump=True,
                                                         trump_exchange=True),
], ids=lambda r: f"{r.players}p-transfer-{r.transfer}")
@pytest.mark.parametrize("policy", sorted(PLAYOUT_POLICIES))
def test_it_plays_whole_games_with_legal_actions_only(rules: RuleSet, policy: str) -> None:
    bots: list[Bot] = [IsmctsBot(playouts=6, policy=policy, search_from_stock=None)] + [
        HeuristicBot() if seat % 2 else RandomBot() for seat in range(1, rules.players)]
    result = play_game(rules, bots, seed=2)  # raises BotError on any illegal choice
    assert result.outcome is not None
    assert result.game().state.outcome == result.outcome


def test_its_decisions_are_deterministic_for_a_seed_with_a_playout_budget() -> None:
    state, seat = _searched_position()
    seen = view(state, seat)
    picks = {IsmctsBot(playouts=40, search_from_stock=None).choose(seen, random.Random(7))
             for _ in range(3)}
    assert len(picks) == 1 and picks <= set(seen.playable)


# -- the budget -------------------------------------------------------------------------------


def test_a_playout_budget_is_kept() -> None:
    state, seat = _searched_position()
    bot = IsmctsBot(playouts=37, policy="random", search_from_stock=None)
    bot.choose(view(state, seat), random.Random(1))
    stats = bot.last_search
    assert stats is not None
    # early stop: once no remaining iteration can change the most tried action
    assert 0 < stats.iterations <= 37
    assert sum(visits for _, visits, _ in stats.visits) == stats.iterations
    assert {action for action, _, _ in stats.visits} <= set(view(state, seat).playable)
    assert all(0.0 <= mean <= 1.0 for _, _, mean in stats.visits)


def test_a_time_budget_is_kept_on_the_bots_clock() -> None:
    state, seat = _searched_position()
    clock = Clock(tick=0.125)  # exact in binary: no rounding at the deadline
    bot = IsmctsBot(playouts=None, seconds=1.0, clock=clock, search_from_stock=None)
    action = bot.choose(view(state, seat), random.Random(1))
    assert action in view(state, seat).playable
    stats = bot.last_search
    assert stats is not None
    # the clock is read once before the first iteration, once before each, once at the end
    assert stats.iterations == 7 == clock.reads - 3
    assert stats.seconds == 1.125


def test_the_earlier_of_two_budgets_ends_the_search() -> None:
    state, seat = _searched_position()
    bot = IsmctsBot(playouts=5, seconds=100.0, clock=Clock(tick=0.125),
                    search_from_stock=None)
    bot.choose(view(state, seat), random.Random(1))
    assert bot.last_search is not None and bot.last_search.iterations <= 5


def test_it_plays_as_the_heuristic_until_the_stock_is_low_and_then_searches() -> None:
    searched = heuristic = 0
    for seed in range(3):
        state = new_game(THROW_IN_2, seed=seed)
        bot, guide = IsmctsBot(playouts=10), HeuristicBot()
        while not state.is_over:
            turn = acting_moves(state)
            assert turn is not None
            seat, moves = turn
            seen = view(state, seat)
            action = bot.choose(seen, random.Random(seed))
            if len(moves) > 1 and len(state.stock) > 6:
                assert action == guide.choose(seen, random.Random(seed))
                assert bot.last_search is None
                heuristic += 1
            elif len(moves) > 1:
                assert bot.last_search is not None and bot.last_search.iterations > 0
                searched += 1
            state = apply(state, action)
            for watcher in (bot, guide):
                watcher.observe(action)
    assert searched > 10 and heuristic > 10


def test_a_strong_root_bias_plays_the_heuristics_move_and_none_leaves_it_free() -> None:
    """``prior``: the heuristic's move is tried first and, with a bias no playout can
    outweigh, tried most; without the bias the search picks otherwise in some position."""
    differs = 0
    for seed in range(3, 9):
        state, seat = _searched_position(seed=seed)
        seen = view(state, seat)
        hint = HeuristicBot().choose(seen, random.Random(0))
        biased = IsmctsBot(playouts=30, search_from_stock=None, prior=1000.0)
        assert biased.choose(seen, random.Random(0)) == hint
        stats = biased.last_search
        assert stats is not None and max(stats.visits, key=lambda v: v[1])[0] == hint
        free = IsmctsBot(playouts=30, search_from_stock=None)
        differs += free.choose(seen, random.Random(0)) != hint
    assert differs > 0


def test_the_place_score_counts_only_with_three_players_or_more() -> None:
    """``place``: two players have no places but first and durak, so the same search;
    with four, going out early changes the scores the search reports."""
    state, seat = _searched_position()
    seen = view(state, seat)
    two = [IsmctsBot(playouts=40, search_from_stock=None, place=w) for w in (0.0, 0.5)]
    assert len({bot.choose(seen, random.Random(2)) for bot in two}) == 1
    assert two[0].last_search is not None and two[1].last_search is not None
    assert two[0].last_search.visits == two[1].last_search.visits
    state, seat = _searched_position(profile("classic-throw-in").rules(players=4), seed=4)
    seen = view(state, seat)
    four = [IsmctsBot(playouts=40, search_from_stock=None, place=w) for w in (0.0, 0.5)]
    scores = []
    for bot in four:
        bot.choose(seen, random.Random(2))
        assert bot.last_search is not None
        scores.append([mean for _, _, mean in bot.last_search.visits])
    assert scores[0] != scores[1]


@pytest.mark.parametrize("model", OPPONENT_MODELS)
def test_it_plays_four_player_games_legally_under_every_opponent_model(model: str) -> None:
    rules = profile("classic-throw-in").rules(players=4)
    bots: list[Bot] = [IsmctsBot(playouts=8, search_from_stock=12, opponents=model),
                       HeuristicBot(), RandomBot(), HeuristicBot()]
    result = play_game(rules, bots, seed=6)  # raises BotError on any illegal choice
    assert result.outcome is not None


def test_the_heuristic_model_decides_for_the_other_seats_from_their_views(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``opponents="heuristic"``: inside the tree the other seats' moves are the heuristic
    player's, asked from that seat's view of the sampled deal, never from the bot's; with
    ``"tree"`` (UCB1 for every seat) the heuristic is not asked at all."""
    asked: list[tuple[int, int]] = []

    class Recording(HeuristicBot):
        def choose(self, view: Any, rng: random.Random) -> Any:
            action = super().choose(view, rng)
            assert action in view.playable
            asked.append((view.seat, len(view.playable)))
            return action

    state, seat = _searched_position(profile("classic-throw-in").rules(players=4), seed=4)
    seen = view(state, seat)
    for model in ("tree", "heuristic"):
        bot = IsmctsBot(playouts=40, search_from_stock=None, opponents=model)
        asked.clear()
        monkeypatch.setattr(ismcts, "HeuristicBot", Recording)
        bot.choose(seen, random.Random(2))
        monkeypatch.undo()
        if model == "tree":
            assert asked == []
        else:
            assert asked and all(s != seat and moves > 1 for s, moves in asked)


def test_a_forced_move_is_played_without_search() -> None:
    state = new_game(THROW_IN_2, seed=1)
    state = apply(state, next(a for a in legal_actions(state) if isinstance(a, Open)))
    bot = IsmctsBot(playouts=50, search_from_stock=None)
    # the attacker, with the card uncovered, has nothing to do; find a single-move seat
    for _ in range(200):
        turn = acting_moves(state)
        assert turn is not None
        seat, moves = turn
        if len(moves) == 1:
            assert bot.choose(view(state, seat), random.Random(0)) == moves[0]
            assert bot.last_search is None
            return
        state = apply(state, moves[0])
    pytest.fail("no forced move found")


@pytest.mark.parametrize(("arguments", "message"), [
    ({"playouts": None}, "needs a budget"),
    ({"playouts": 0}, "playouts must be 1 or more"),
    ({"seconds": 0.0}, "seconds must be more than 0"),
    ({"policy": "clever"}, "unknown playout policy 'clever'; policies are greedy, random"),
    ({"epsilon": 2.0}, "epsilon must be between 0 and 1"),
    ({"search_from_stock": -1}, "search_from_stock must be a number of cards or None"),
    ({"prior": -1.0}, "prior must be 0 or more"),
    ({"place": 1.5}, "place must be between 0 and 1"),
    ({"opponents": "psychic"},
     "unknown opponent model 'psychic'; models are tree, policy, heuristic"),
])
def test_a_bad_setting_is_refused_in_one_line(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        IsmctsBot(**arguments)
    assert "\n" not in str(error.value)


# -- the playout policy -----------------------------------------------------------------------


def test_the_greedy_policy_covers_cheaply_and_takes_only_when_it_must() -> None:
    for state, seat in _positions_with(Cover):
        moves = tuple(a for a in legal_actions(state) if a.player == seat)
        choice = greedy_move(moves, state.trump, len(state.stock), random.Random(0))
        assert not isinstance(choice, Take), "a cover was possible"
        covers = [a for a in moves if isinstance(a, Cover)]
        if isinstance(choice, Cover):
            weakest = min(covers, key=lambda a: (a.card.suit == state.trump, a.card.rank))
            assert (choice.card.suit == state.trump) == (weakest.card.suit == state.trump)
            assert choice.card.rank == weakest.card.rank


def test_the_greedy_policy_throws_in_low_cards_only_while_the_stock_lasts() -> None:
    seen = 0
    for state, seat in _positions_with(ThrowIn):
        moves = tuple(a for a in legal_actions(state) if a.player == seat)
        if not any(isinstance(a, Done) for a in moves):
            continue
        choice = greedy_move(moves, state.trump, len(state.stock), random.Random(0))
        if isinstance(choice, ThrowIn):
            assert choice.card.suit != state.trump
            assert not state.stock or choice.card.rank <= 10
            seen += 1
        else:
            assert isinstance(choice, Done)
            low = [a for a in moves if isinstance(a, ThrowIn) and a.card.suit != state.trump
                   and a.card.rank <= 10]
            assert not low
    assert seen > 0


def _positions_with(kind: type) -> list[tuple[Any, int]]:
    found = []
    for seed in range(6):
        state = new_game(THROW_IN_2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            turn = acting_moves(state)
            assert turn is not None
            seat, moves = turn
            if any(isinstance(a, kind) for a in moves):
                found.append((state, seat))
            state = apply(state, rng.choice(moves))
    assert found
    return found


def test_acting_moves_names_the_acting_seat_and_its_legal_actions() -> None:
    for rules in (THROW_IN_2, profile("classic-transfer").rules(players=4)):
        state = new_game(rules, seed=4)
        rng = random.Random(4)
        while True:
            turn = acting_moves(state)
            seat = acting_seat(state)
            if turn is None:
                assert seat is None and state.is_over
                break
            assert turn[0] == seat
            assert turn[1] == tuple(a for a in legal_actions(state) if a.player == seat)
            state = apply(state, rng.choice(turn[1]))


# -- by name, and its strength ----------------------------------------------------------------


def test_the_kind_is_made_by_name_for_the_terminal_and_offered_on_the_page() -> None:
    assert "ismcts" in BOT_KINDS and "ismcts" in OPPONENTS
    bot = make_bot("ismcts")
    assert isinstance(bot, IsmctsBot) and bot.name == "ismcts"
    assert bot.seconds is not None and bot.seconds <= 1.0  # about a second at most
    args = build_parser(["play"]).parse_args(["play", "--opponent", "ismcts"])
    assert args.opponent == "ismcts"


def test_the_page_plays_the_tree_search_player() -> None:
    match = Match.new("classic-throw-in", 2, opponent="ismcts", seed=4)
    played = 0
    for _ in range(12):
        answer = json.loads(match.request(json.dumps({"op": "computer"})))
        if answer["result"] == "wait":
            answer = json.loads(match.request(json.dumps({"op": "move", "id": 0})))
        else:
            played += 1
        assert answer["result"] == "played", answer
    assert played > 0
    assert json.loads(match.request(json.dumps({"op": "save"})))["opponent"] == "ismcts"


def test_it_beats_the_random_player_in_a_seeded_match() -> None:
    # the search from the first move, so that the heuristic's play does not win it
    bot = IsmctsBot(playouts=25, search_from_stock=None)
    result = tournament(THROW_IN_2, [bot, RandomBot()], 16, seed=40)
    # measured: durak in 0 of 16 games; the random player in most of them
    assert result.durak[0] <= 3 < 10 <= result.durak[1]


# -- the tournament tool ----------------------------------------------------------------------


def test_the_tournament_tool_prints_the_table_and_counts_alike_in_one_or_two_processes(
) -> None:
    tool = _tool()
    part = tool.Part("2p-throw-in", "heuristic", 0, 4, 1, 8, "greedy")
    one = tool.play_part(part)
    halves = [tool.play_part(tool.Part("2p-throw-in", "heuristic", a, b, 1, 8, "greedy"))
              for a, b in ((0, 2), (2, 4))]
    assert one.games == 4 == sum(h.games for h in halves)
    assert one.durak == sum(h.durak for h in halves)
    assert one.opponents_durak == sum(h.opponents_durak for h in halves)
    done = subprocess.run(
        [sys.executable, str(TOOL), "--games", "2", "--playouts", "4", "--jobs", "2",
         "--setting", "2p-transfer", "--opponent", "heuristic", "--quiet"],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ismcts with greedy playouts, exploration 0.7, prior 0.0, "
                                  "place 0.0, opponents tree, searching from 6 cards in the stock, "
                                  "2 games per pairing")
    assert "| 2p-transfer | 4 | heuristic | 2 |" in done.stdout


def test_the_tournament_tool_refuses_a_bad_count_in_one_line() -> None:
    done = subprocess.run([sys.executable, str(TOOL), "--games", "0"], capture_output=True,
                          text=True, timeout=60, check=False, cwd=ROOT)
    assert done.returncode == 2
    assert "--games must be 1 or more, not 0" in done.stderr
    assert "Traceback" not in done.stderr
