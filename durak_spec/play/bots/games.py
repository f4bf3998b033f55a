"""One seeded game between bots (:func:`play_game`, :class:`GameResult`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from durak_spec.core.errors import IllegalAction
from durak_spec.engine import apply, check, new_game
from durak_spec.game.history import Game
from durak_spec.game.view import view
from durak_spec.model.actions import Action
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState, Outcome
from durak_spec.play.bots.interface import Bot, BotError
from durak_spec.play.bots.turn_order import acting_seat

DEFAULT_MAX_ACTIONS = 10_000
"""A game that has not ended after this many actions is stopped (it never happens with
the bots here; the guard protects simulations from a bot that stalls)."""



@dataclass(frozen=True, slots=True)
class GameResult:
    """One simulated game: the seed, who played where, the outcome and the history."""

    seed: int
    rules: RuleSet
    players: tuple[str, ...]
    """The bot name at each seat."""
    outcome: Outcome | None
    """The end of the game, or ``None`` if it was stopped after ``max_actions``."""
    actions: int
    bouts: int
    history: tuple[Action, ...] = field(repr=False, compare=True)

    @property
    def durak(self) -> int | None:
        """The durak's seat (``None`` for a draw or an unfinished game)."""
        return None if self.outcome is None else self.outcome.durak

    def game(self) -> Game:
        """The game as a :class:`~durak_spec.game.history.Game` record (e.g. to save it)."""
        return Game.new(self.rules, seed=self.seed).play_all(self.history)


def _seat_rng(seed: int, seat: int) -> random.Random:
    return random.Random(f"durak-spec/bots/{seed}/{seat}")


def play_game(rules: RuleSet, bots: Sequence[Bot], seed: int, *,
              max_actions: int = DEFAULT_MAX_ACTIONS) -> GameResult:
    """Play one game with ``bots[s]`` in seat ``s``, dealt with ``seed``; deterministic.

    Every bot is reset first and observes every action played. Each seat draws its
    randomness from its own generator seeded by ``seed`` and the seat. A bot that
    returns anything but one of its legal actions raises :class:`BotError`.
    """
    if len(bots) != rules.players:
        raise ValueError(f"{len(bots)} bots for a game of {rules.players} players")
    if len({id(b) for b in bots}) != len(bots):
        raise ValueError("each seat needs its own bot object (bots keep a memory per game)")
    state = new_game(rules, seed=seed)
    rngs = [_seat_rng(seed, seat) for seat in range(rules.players)]
    for bot in bots:
        bot.reset()
    history: list[Action] = []
    while len(history) < max_actions:
        seat = acting_seat(state)
        if seat is None:
            break
        bot = bots[seat]
        seen = view(state, seat)
        action = bot.choose(seen, rngs[seat])
        if action not in seen.playable:
            raise BotError(_illegal_choice(bot, seat, state, action))
        state = apply(state, action)
        history.append(action)
        for watcher in bots:
            watcher.observe(action)
    return GameResult(seed=seed, rules=rules, players=tuple(b.name for b in bots),
                      outcome=state.outcome, actions=len(history), bouts=state.bout,
                      history=tuple(history))


def _illegal_choice(bot: Bot, seat: int, state: GameState, action: object) -> str:
    who = f"bot {bot.name!r} in seat P{seat}"
    if not isinstance(action, Action):
        return f"{who} returned {action!r}, which is not an action"
    if action.player != seat:
        return f"{who} chose {action}, an action of another seat"
    try:
        check(state, action)
    except IllegalAction as error:
        return f"{who} chose {action}, which is illegal: {error}"
    return f"{who} chose {action}, which is not its move now"
