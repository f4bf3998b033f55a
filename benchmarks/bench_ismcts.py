"""What a search of the tree search player costs, with its playout moves applied unchecked
(as it plays) and checked by the referee (as before): processor time per search.

Run from the root of a clone::

    python benchmarks/bench_ismcts.py [--games N] [--players P] [--playouts K]

One :class:`~durak_spec.play.bots.ismcts.IsmctsBot` plays ``N`` seeded classic throw-in
games against heuristic players, once each way; both ways must choose the same moves (the
moves it applies come from ``legal_actions``, so the check can only say "legal"), and the
script says so, then prints the mean processor time per search of each and their ratio.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

import durak_spec.play.bots.ismcts as ismcts
from durak_spec.engine import apply, play_listed
from durak_spec.game.view import PlayerView
from durak_spec.model.actions import Action
from durak_spec.model.rules import profile
from durak_spec.model.state import GameState
from durak_spec.play.bots import Bot, play_game
from durak_spec.play.bots.heuristic import HeuristicBot
from durak_spec.play.bots.ismcts import IsmctsBot


class Recorded:
    """The tree search player, its moves and the processor time of its searches kept."""

    def __init__(self, bot: IsmctsBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.moves: list[Action] = []
        self.cpu: list[float] = []

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        start = time.process_time()
        action = self.bot.choose(view, rng)
        if self.bot.last_search is not None:
            self.cpu.append(time.process_time() - start)
        self.moves.append(action)
        return action

    def observe(self, action: Action) -> None:
        self.bot.observe(action)

    def reset(self) -> None:
        self.bot.reset()


def _checked(state: GameState, action: Action, events: None = None) -> GameState:
    return apply(state, action)  # always asks the rules first


def run(games: int, players: int, playouts: int, *, checked: bool) -> tuple[list[Action], float]:
    """The moves of the tree search player over the games, and its mean time per search."""
    setattr(ismcts, "play_listed", _checked if checked else play_listed)  # noqa: B010
    try:
        rules = profile("classic-throw-in").rules(players=players)
        me = Recorded(IsmctsBot(playouts=playouts))
        for seed in range(games):
            bots: list[Bot] = [me, *(HeuristicBot() for _ in range(players - 1))]
            play_game(rules, bots, 1000 + seed)
    finally:
        setattr(ismcts, "play_listed", play_listed)  # noqa: B010
    return me.moves, sum(me.cpu) / max(1, len(me.cpu))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_ismcts.py",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, metavar="N")
    parser.add_argument("--players", type=int, default=4, metavar="P")
    parser.add_argument("--playouts", type=int, default=400, metavar="K")
    args = parser.parse_args(argv)
    if args.games < 1 or args.playouts < 1 or not 2 <= args.players <= 6:
        parser.error("--games and --playouts must be 1 or more, --players 2 to 6")
    fast_moves, fast = run(args.games, args.players, args.playouts, checked=False)
    slow_moves, slow = run(args.games, args.players, args.playouts, checked=True)
    print(f"same moves: {'yes' if fast_moves == slow_moves else 'NO'}")
    print(f"processor time per search: unchecked {fast:.3f} s, checked {slow:.3f} s, "
          f"ratio {fast / slow:.2f}")
    return 0 if fast_moves == slow_moves else 1


if __name__ == "__main__":
    sys.exit(main())
