"""The coach (issue 23): ``durak-spec review GAME.json`` and :mod:`durak_spec.play.review`.

The game under review is a real one: bots play it to the end and it is saved as
``durak-spec play`` saves it, but one seat, otherwise the heuristic player, spends a
high trump on a cover that a plain card would do (:class:`Squanderer`). The coach must
find that move among at most five, name the tip (TIP-2) and link its evidence, and use
only what the mover could know.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import pytest
from helpers import position

import durak_spec.play.review as coach
from durak_spec import profile
from durak_spec.cli import main
from durak_spec.core.cards import Rank
from durak_spec.game import persist
from durak_spec.game.history import Game
from durak_spec.game.view import PlayerView, view
from durak_spec.model.actions import Action, Cover, Take
from durak_spec.model.state import replace
from durak_spec.play.bots import BaseBot, HeuristicBot, play_game
from durak_spec.play.bots.knowledge import Memory
from durak_spec.play.review import (
    Evaluator,
    IsmctsEvaluator,
    SamplingEvaluator,
    review,
    review_move,
    which_tip,
)
from durak_spec.play.terminal import save_record

SEED = 18
"""A deal in which the squanderer's bad cover comes late enough to decide the game."""
BAD_INDEX = 28
"""Where in that game's history the squanderer spends the trump (move 29)."""


class Squanderer(BaseBot):
    """The heuristic player, except that at its first plain cover for which it also holds
    a trump of queen or higher, it covers with its highest such trump instead."""

    name = "squanderer"

    def __init__(self) -> None:
        self.inner = HeuristicBot()
        self.bad: Action | None = None

    def reset(self) -> None:
        self.inner.reset()
        self.bad = None

    def observe(self, action: Action) -> None:
        self.inner.observe(action)

    def choose(self, seen: PlayerView, rng: random.Random) -> Action:
        good = self.inner.choose(seen, rng)
        if self.bad is None and isinstance(good, Cover) and good.card.suit != seen.trump:
            high = [a for a in seen.playable if isinstance(a, Cover) and a.attack == good.attack
                    and a.card.suit == seen.trump and a.card.rank >= Rank.QUEEN]
            if high:
                self.bad = max(high, key=lambda a: a.cards[0].rank)
                return self.bad
        return good


@pytest.fixture(scope="module")
def squandered() -> tuple[Game, Action]:
    squanderer = Squanderer()
    result = play_game(profile("classic-throw-in").rules(players=2),
                       [squanderer, HeuristicBot()], seed=SEED)
    assert squanderer.bad is not None and result.outcome is not None
    return result.game(), squanderer.bad


@pytest.fixture()
def saved(squandered: tuple[Game, Action], tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    save_record(squandered[0], path)  # what 'durak-spec play --save-to' and 'save' do
    return path


def test_the_game_under_review_holds_the_bad_move(squandered: tuple[Game, Action]) -> None:
    game, bad = squandered
    assert game.actions[BAD_INDEX] == bad
    assert str(bad) == "P0 cover 7♠ with Q♦"  # a trump, where 10♠ covers as well


def test_a_trump_spent_needlessly_is_among_the_marked_moves(saved: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "durak_spec", "review", str(saved),
                           "--seat", "0", "--samples", "8"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "Review of a game of 2 players: P0 was the durak" in text
    marked = [line for line in text.splitlines() if line[:1].isdigit()]
    assert 1 <= len(marked) <= 5
    bad = next(line for line in marked if f"Move {BAD_INDEX + 1} " in line)
    assert "P0" in bad
    assert "P0 played cover 7♠ with Q♦" in text
    assert "TIP-2: a trump spent where cover 7♠ with 10♠ keeps it" in text
    assert "evidence tips-evidence.html#evidence-TIP-2" in text
    assert "read tips.html#TIP-2" in text
    assert "Traceback" not in done.stderr


def test_the_tree_search_players_estimate_marks_the_trump_spent_first(
        saved: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With ``--evaluator ismcts`` the strongest player weighs the moves: the needless trump
    is the costliest move of the game, named TIP-2."""
    data = _review_json(capsys, str(saved), "--seat", "0", "--evaluator", "ismcts",
                        "--playouts", "200")
    assert data["evaluator"] == "ismcts"
    marked = data["marked"]
    assert isinstance(marked, list) and 1 <= len(marked) <= 5
    first = marked[0]
    assert first["index"] == BAD_INDEX and first["played"]["move"] == "cover 7♠ with Q♦"
    assert first["better"]["move"] == "cover 7♠ with 10♠"
    assert first["tip"]["id"] == "TIP-2"


def _review_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code = main(["review", *argv, "--json", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    data: dict[str, object] = json.loads(out)
    return data


def test_json_and_pictures_of_the_marked_moves(saved: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    pictures = tmp_path / "pictures"
    data = _review_json(capsys, str(saved), "--seat", "0", "--samples", "8",
                        "--svg", str(pictures))
    assert data["format"] == "durak-spec/review" and data["seats"] == [0]
    marked = data["marked"]
    assert isinstance(marked, list) and 1 <= len(marked) <= 5
    drops = [m["drop"] for m in marked]
    assert drops == sorted(drops, reverse=True) and all(d > 0 for d in drops)
    bad = next(m for m in marked if m["index"] == BAD_INDEX)
    assert bad["played"]["move"] == "cover 7♠ with Q♦"
    assert bad["better"]["move"] == "cover 7♠ with 10♠"
    assert bad["better"]["chance"] > bad["played"]["chance"]
    assert bad["tip"]["id"] == "TIP-2"
    assert bad["tip"]["evidence"] == "tips-evidence.html#evidence-TIP-2"
    assert bad["view"]["seat"] == 0  # the position as the mover saw it
    files = sorted(p.name for p in pictures.iterdir())
    assert files == sorted(f"move-{m['index'] + 1:03d}.svg" for m in marked)
    svg = ET.parse(pictures / f"move-{BAD_INDEX + 1:03d}.svg").getroot()
    words = "".join(svg.itertext())
    assert "Move 29: P0 played cover 7♠ with Q♦" in words
    assert "Better: cover 7♠ with 10♠" in words
    outlined = {g.get("data-card") for g in svg.iter("{http://www.w3.org/2000/svg}g")
                if "highlight" in (g.get("class") or "").split()}
    assert outlined == {"10♠"}  # the better move drawn
    game = persist.load(saved)
    state = list(game.states())[BAD_INDEX]
    face_up = {str(c) for c in state.hands[0]} | {str(c) for p in state.table
                                                   for c in p if c is not None}
    shown = {g.get("data-card") for g in svg.iter("{http://www.w3.org/2000/svg}g")
             if g.get("data-card")}
    hidden = {str(c) for c in state.hands[1]} - {str(c) for c in state.known[1]}
    assert not shown & hidden, "the picture shows the opponent's hidden cards"
    assert face_up <= shown


def _other_deal(game: Game, index: int) -> tuple[PlayerView, Memory]:
    states = list(game.states())
    memory = Memory()
    for action in game.actions[:index]:
        memory.saw(action)
    seen = view(states[index], game.actions[index].player)
    memory.update(seen)
    return seen, memory


@pytest.mark.parametrize("evaluator", [SamplingEvaluator(4), IsmctsEvaluator(60)],
                         ids=["sampling", "ismcts"])
def test_the_hidden_cards_do_not_change_the_estimate(squandered: tuple[Game, Action],
                                                     evaluator: Evaluator) -> None:
    game, bad = squandered
    state = list(game.states())[BAD_INDEX]
    mover, other = 0, 1
    hidden = [c for c in state.hands[other] if c not in state.known[other]]
    stock = list(state.stock)
    assert hidden and len(stock) >= 2
    # Swap a hidden card of the opponent with a hidden card of the stock (not the face-up
    # trump): another world, the same view for the mover.
    swapped_out, swapped_in = hidden[0], stock[0]
    hands = list(state.hands)
    hands[other] = tuple(sorted([*[c for c in state.hands[other] if c != swapped_out],
                                 swapped_in]))
    stock[0] = swapped_out
    other_state = replace(state, hands=tuple(hands), stock=tuple(stock))
    assert other_state != state
    assert view(other_state, mover) == view(state, mover)
    seen, memory = _other_deal(game, BAD_INDEX)
    first = review_move(view(state, mover), memory, bad, index=BAD_INDEX, state=state,
                        evaluator=evaluator, seed=3)
    second = review_move(view(other_state, mover), memory, bad, index=BAD_INDEX,
                         state=other_state, evaluator=evaluator, seed=3)
    assert first is not None and second is not None
    assert first.candidates == second.candidates
    assert seen == view(state, mover)


def test_at_most_five_moves_the_costliest_first(squandered: tuple[Game, Action]) -> None:
    game, _ = squandered
    result = review(game, evaluator=SamplingEvaluator(2), seed=1, min_drop=0.0, confirm=0)
    costly = [m for m in result.moves if m.drop > 0]
    assert len(costly) > 5
    assert len(result.marked) == 5
    assert [m.drop for m in result.marked] == sorted((m.drop for m in costly),
                                                      reverse=True)[:5]
    assert all(m.reason.startswith(f"P{m.seat} played ") for m in result.marked)


def test_the_same_seed_gives_the_same_review(squandered: tuple[Game, Action]) -> None:
    game, _ = squandered
    both = review(game, evaluator=SamplingEvaluator(2), seed=5)
    again = review(game, evaluator=SamplingEvaluator(2), seed=5)
    one = review(game, seats=[1], evaluator=SamplingEvaluator(2), seed=5)
    assert both.to_json() == again.to_json()
    assert {m.seat for m in both.moves} == {0, 1} and {m.seat for m in one.moves} == {1}
    assert [m.candidates for m in both.moves if m.seat == 1] == [m.candidates
                                                                  for m in one.moves]
    other = review(game, evaluator=SamplingEvaluator(2), seed=6)
    assert [m.candidates for m in other.moves] != [m.candidates for m in both.moves]


class TakeLover:
    """An evaluator that believes in taking: 1 for a take, 0 for anything else."""

    name = "take-lover"

    def estimate(self, seen: PlayerView, memory: Memory, candidates: Sequence[Action],
                 rng: random.Random) -> tuple[float, ...] | None:
        return tuple(1.0 if isinstance(a, Take) else 0.0 for a in candidates)


def test_another_evaluator_plugs_in(squandered: tuple[Game, Action]) -> None:
    game, _ = squandered
    lover = TakeLover()
    assert isinstance(lover, Evaluator)
    result = review(game, evaluator=lover, seed=0)
    assert result.evaluator == "take-lover"
    assert result.marked and len(result.marked) <= 5
    for move in result.marked:
        assert move.drop == 1.0 and isinstance(move.better.action, Take)
        assert not isinstance(move.played.action, Take)
    covers = [m for m in result.moves if any(isinstance(c.action, Take) for c in m.candidates)
              and not isinstance(m.played.action, Take)]
    assert len(result.marked) == min(5, len(covers))



def test_a_review_runs_step_by_step_for_the_web_page(squandered: tuple[Game, Action]) -> None:
    """review_steps: a step per decision, then a step per move weighed again, and the same
    review as review(), whose progress hears the decisions only."""
    game, _ = squandered
    heard: list[tuple[int, int]] = []
    whole = review(game, evaluator=TakeLover(), seed=0,
                   progress=lambda done, total: heard.append((done, total)))
    steps = coach.review_steps(game, evaluator=TakeLover(), seed=0)
    seen: list[tuple[int, int]] = []
    with pytest.raises(StopIteration) as finished:
        while True:
            seen.append(next(steps))
    assert finished.value.value.to_json() == whole.to_json()
    total = len(whole.moves)
    assert heard == [(n, total) for n in range(1, total + 1)]
    assert seen[:total] == heard
    assert len(seen) > total and [d for d, _ in seen] == list(range(1, len(seen) + 1))
    unfinished = Game.replay(game.initial, game.actions[:10], seed=game.seed)
    with pytest.raises(coach.ReviewError, match="not finished"):
        coach.review_steps(unfinished)  # at once, before any step

def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["review", *argv])
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Traceback" not in captured.err and captured.err.count("\n") == 1, captured.err
    return code, captured.err


def test_bad_input_is_one_line_and_exit_code_2(squandered: tuple[Game, Action], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    game, _ = squandered
    unfinished = tmp_path / "unfinished.json"
    save_record(Game.replay(game.initial, game.actions[:10], seed=game.seed), unfinished)
    code, err = _error(capsys, str(unfinished))
    assert code == 2 and "the game is not finished (10 moves played" in err
    other = tmp_path / "other.json"
    other.write_text('{"format": "something-else"}', encoding="utf-8")
    code, err = _error(capsys, str(other))
    assert code == 2 and f"{other} is not a saved game" in err
    text = tmp_path / "notes.txt"
    text.write_text("not json at all", encoding="utf-8")
    assert _error(capsys, str(text))[0] == 2
    assert _error(capsys, str(tmp_path / "missing.json"))[0] == 2
    finished = tmp_path / "finished.json"
    save_record(game, finished)
    code, err = _error(capsys, str(finished), "--seat", "2")
    assert code == 2 and "seats 0 to 1; 2 cannot be reviewed" in err
    code, err = _error(capsys, str(finished), "--samples", "0")
    assert code == 2 and "--samples" in err
    code, err = _error(capsys, str(finished), "--svg", str(other))
    assert code == 2 and "--svg" in err and "not a folder" in err


def test_the_help_documents_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "0 when the game was reviewed; 2 when the file is not a saved game" in out
    assert "74 when an output cannot be written" in out


# -- which tip a costly move went against -------------------------------------------------


def _seen(rules_name: str, seat: int, **where: object) -> PlayerView:
    state = position(profile(rules_name).rules(players=2), **where)  # type: ignore[arg-type]
    return view(state, seat)


def _move(seen: PlayerView, text: str) -> Action:
    found = [a for a in seen.playable if a.move == text]
    assert found, f"{text} is not among {[a.move for a in seen.playable]}"
    return found[0]


def test_the_tip_is_the_one_the_difference_is_about() -> None:
    seen = _seen("classic-throw-in", 1, trump="♥", hands={0: "6♠ 8♦", 1: "7♣ 9♣ 9♠ K♥ A♥"},
                 table="7♠", stock=20)
    trump = which_tip(seen, _move(seen, "cover 7♠ with A♥"), _move(seen, "cover 7♠ with 9♠"))
    assert trump is not None and trump.id == "TIP-2" and "early" in trump.why
    assert trump.evidence == "tips-evidence.html#evidence-TIP-2"
    assert trump.link == "tips.html#TIP-2"
    pair = which_tip(seen, _move(seen, "cover 7♠ with 9♠"), _move(seen, "take"))
    assert pair is not None and pair.id == "TIP-4"
    assert which_tip(seen, _move(seen, "take"), _move(seen, "cover 7♠ with 9♠")) is None
    seen = _seen("classic-throw-in", 0, trump="♥", hands={0: "6♠ 8♦ Q♣", 1: "7♣ 9♣"},
                 stock=20)
    low = which_tip(seen, _move(seen, "open Q♣"), _move(seen, "open 6♠"))
    assert low is not None and low.id == "TIP-1" and "Q♣ played where 6♠ would do" in low.why
    seen = _seen("classic-transfer", 1, trump="♥", hands={0: "6♠ 8♦", 1: "7♣ 7♦ 9♣"},
                 table="7♠", stock=0)
    passed_on = which_tip(seen, _move(seen, "transfer 7♣"), _move(seen, "take"))
    assert passed_on is not None and passed_on.id == "TIP-8"
    assert passed_on.link == "tips-counting.html#TIP-8"
