"""The tree search player: information-set Monte Carlo tree search (:class:`IsmctsBot`).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2), 2012): one tree per decision, grown over many iterations. Each
iteration

1. **determinizes**: deals the cards the bot cannot see at random into the hidden parts of
   the other hands and the stock, consistently with its view and its memory of the cards
   played (:func:`~durak_spec.play.bots.worlds.sample_world`);
2. **selects** down the tree by UCB1 among the actions legal in that deal, each child's
   exploration term counted over the iterations in which it was *available* (legal), not
   over its parent's visits, since a deal may not allow every action;
3. **expands** one action not yet tried, **plays out** the rest of the game with a cheap
   policy (:data:`PLAYOUT_POLICIES`), and
4. **backs up** the result: every node scores the game for the seat that chose its
   action, 1 if that seat was not the durak, 0 if it was.

Every action of Durak is public (cards put on the table, take, done), so a node is a
sequence of actions, whoever played them; what differs between deals, the hidden cards,
is never in the tree. The bot plays the action tried most often at the root. It sees only
its :class:`~durak_spec.game.view.PlayerView` and its memory of the cards played.

It searches once the stock is nearly gone (``search_from_stock``, 6 cards by default);
before, it plays as :class:`~durak_spec.play.bots.heuristic.HeuristicBot`, as the
sampling search player does: with most cards hidden the playouts of a guessed deal say
little, and measured over seeded games the search from the first move lost more often
and took several times as long per move (``docs/players.md``).

The budget is ``playouts`` iterations, ``seconds`` of wall time, or both (whichever ends
first). A playout budget makes a seeded game the same game on any machine; a time budget
does not.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from durak_spec.core.cards import DECK, Card, Suit
from durak_spec.engine import play_listed
from durak_spec.game.view import PlayerView, view
from durak_spec.model.actions import (
    Action,
    Done,
    ExchangeTrump,
    Open,
    Take,
    Transfer,
)
from durak_spec.model.state import GameState
from durak_spec.play.bots.heuristic import HeuristicBot
from durak_spec.play.bots.interface import BaseBot, BotError
from durak_spec.play.bots.knowledge import Memory, strength
from durak_spec.play.bots.turn_order import acting_moves
from durak_spec.play.bots.worlds import moves_of, sample_world

__all__ = ["OPPONENT_MODELS", "PLAYOUT_POLICIES", "IsmctsBot", "SearchStats", "greedy_move"]

Policy = Callable[[Sequence[Action], Suit, int, random.Random], Action]


# -- playout policies -------------------------------------------------------------------------

_TAKE_SCORE = 100.0
_DONE_WHILE_STOCK = 4.5  # throw in up to a ten (strength 4) while the stock lasts
_DONE_AT_END = 8.5  # with the stock gone, throw in any card but a trump
_STRENGTH: Mapping[Suit, Mapping[Card, float]] = MappingProxyType({
    trump: MappingProxyType({card: float(strength(card, trump)) for card in DECK})
    for trump in Suit})
"""Every card's :func:`strength` under each trump: a table of values, made at import."""


def greedy_move(moves: Sequence[Action], trump: Suit, stock: int,
                rng: random.Random) -> Action:
    """A light rule among ``moves``: exchange the trump six when allowed; open with the
    weakest card (several of a rank preferred); cover or transfer with the weakest card
    that does it, and take only when nothing covers; throw in a card no stronger than a
    ten while the stock lasts (any non-trump after), else say done. Ties: the first in
    ``moves``. ``rng`` is unused; it keeps the signature of a policy."""
    del rng
    strengths = _STRENGTH[trump]
    best = moves[0]
    best_score = math.inf
    for action in moves:
        kind = type(action)
        if kind is Take:
            score = _TAKE_SCORE
        elif kind is Done:
            score = _DONE_WHILE_STOCK if stock else _DONE_AT_END
        elif kind is Open:
            played = action.cards
            score = max(strengths[c] for c in played) - 0.5 * (len(played) - 1)
        elif kind is ExchangeTrump:
            return action
        elif kind is Transfer and isinstance(action, Transfer) and action.show:
            score = -1.0  # the trump stays in hand
        else:  # cover, throw in, transfer: the card played is the last
            score = strengths[action.cards[-1]]
        if score < best_score:
            best, best_score = action, score
    return best


def _random_move(moves: Sequence[Action], trump: Suit, stock: int,
                 rng: random.Random) -> Action:
    return rng.choice(moves)


PLAYOUT_POLICIES: Mapping[str, Policy] = MappingProxyType(
    {"greedy": greedy_move, "random": _random_move})
"""The playout policies by name: ``"greedy"`` (:func:`greedy_move`) and ``"random"``
(uniform among the legal actions)."""

OPPONENT_MODELS: tuple[str, ...] = ("tree", "policy", "heuristic")
"""How the tree treats the other seats' decisions (``IsmctsBot(opponents=...)``):
``"tree"``, each its own node chosen by UCB1 for that seat's score; ``"policy"``, played
by the playout policy; ``"heuristic"``, played by :class:`HeuristicBot` from that seat's
view of the sampled deal. With a model only the bot's own decisions are searched."""


# -- the tree ---------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class _Node:
    """The position after a sequence of actions; ``seat`` chose the last of them."""

    seat: int
    visits: int = 0
    score: float = 0.0
    """Sum of the results for ``seat`` (1: not the durak) over the visits."""
    available: int = 0
    """In how many iterations the action leading here was legal at the parent."""
    children: dict[Action, _Node] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What the last decision of an :class:`IsmctsBot` cost and found."""

    iterations: int
    """Iterations run (each one deal, one path down the tree, one playout)."""
    rejected: int
    """Deals drawn but not searched: inconsistent with the view (the memory and the counts
    disagree, or the deal gives the seat other moves than its view)."""
    seconds: float
    visits: tuple[tuple[Action, int, float], ...]
    """Per root action: visits and mean result (chance of not being the durak)."""


class IsmctsBot(BaseBot):
    """Information-set Monte Carlo tree search from the seat's view (module docstring).

    ``playouts`` (iterations per decision) and ``seconds`` (wall time per decision) are the
    budget; give one or both. ``exploration`` is the UCB1 constant, ``policy`` the playout
    policy (a name of :data:`PLAYOUT_POLICIES`), ``epsilon`` the share of playout moves
    chosen at random instead of by the policy, ``horizon`` the most actions a playout
    plays before it scores the position by hand sizes. ``clock`` measures the time budget.
    ``prior`` (0: none) is a progressive bias toward :class:`HeuristicBot`'s move at the
    root: that move is tried first and its UCB1 value gets ``prior / (visits + 1)``.
    ``place`` (0: none) mixes, with three or more players, the finishing place into a
    playout's score: ``(1 - place) * [not the durak] + place * (1 - out_before / (n - 1))``,
    the durak scoring 0. Both are off by default (measured in ``docs/players.md``).
    ``opponents`` (:data:`OPPONENT_MODELS`) is how the other seats decide inside the tree:
    by UCB1 in nodes of their own (``"tree"``, the default), or by a model that sees only
    that seat's cards of the sampled deal (``"policy"``, ``"heuristic"``). In the shared
    tree of single-observer ISMCTS an opponent's node gathers results over deals that all
    hold this seat's real hand, so its choices are fitted to a hand that seat cannot see;
    and with four players most of an opponent's moves score alike for it (three seats in
    four are not the durak), so UCB1 spreads its visits nearly evenly, as if it played at
    random. A model has neither fault; it spends the iterations on the bot's own choices.

    While the stock holds more than ``search_from_stock`` cards the bot plays as
    :class:`HeuristicBot` (``None``: it searches from the first move). So much is hidden
    then that the playouts of a sampled deal say little: measured in
    ``docs/players.md``, searching from the first move with the same budget loses more
    games and takes several times as long. A decision with one legal action is played
    without search. ``last_search`` holds the :class:`SearchStats` of the last search
    (``None`` if the last decision was not searched).
    """

    def __init__(self, *, playouts: int | None = 800, seconds: float | None = None,
                 search_from_stock: int | None = 6, exploration: float = 0.7,
                 policy: str = "greedy", epsilon: float = 0.1, horizon: int = 400,
                 prior: float = 0.0, place: float = 0.0, opponents: str = "tree",
                 clock: Callable[[], float] = time.perf_counter,
                 name: str = "ismcts") -> None:
        if playouts is None and seconds is None:
            raise ValueError("an ismcts player needs a budget: playouts, seconds or both")
        if playouts is not None and (isinstance(playouts, bool) or playouts < 1):
            raise ValueError(f"playouts must be 1 or more, not {playouts!r}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be more than 0, not {seconds!r}")
        if policy not in PLAYOUT_POLICIES:
            raise ValueError(f"unknown playout policy {policy!r}; policies are "
                             f"{', '.join(PLAYOUT_POLICIES)}")
        if search_from_stock is not None and (isinstance(search_from_stock, bool)
                                              or search_from_stock < 0):
            raise ValueError(f"search_from_stock must be a number of cards or None, not "
                             f"{search_from_stock!r}")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, not {epsilon!r}")
        if not prior >= 0.0:
            raise ValueError(f"prior must be 0 or more, not {prior!r}")
        if not 0.0 <= place <= 1.0:
            raise ValueError(f"place must be between 0 and 1, not {place!r}")
        if opponents not in OPPONENT_MODELS:
            raise ValueError(f"unknown opponent model {opponents!r}; models are "
                             f"{', '.join(OPPONENT_MODELS)}")
        self.name = name
        self.playouts = playouts
        self.seconds = seconds
        self.search_from_stock = search_from_stock
        self.exploration = exploration
        self.policy = policy
        self.epsilon = epsilon
        self.horizon = horizon
        self.prior = prior
        self.place = place
        self.opponents = opponents
        self.clock = clock
        self.last_search: SearchStats | None = None
        self._guide = HeuristicBot()

    def __repr__(self) -> str:
        return (f"IsmctsBot(playouts={self.playouts!r}, seconds={self.seconds!r}, "
                f"search_from_stock={self.search_from_stock!r}, policy={self.policy!r}, "
                f"name={self.name!r})")

    @property
    def memory(self) -> Memory:
        """The cards this bot has seen on the table in the game so far."""
        return self._guide.memory

    def reset(self) -> None:
        self._guide.reset()
        self.last_search = None

    def observe(self, action: Action) -> None:
        self._guide.observe(action)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if not view.playable:
            raise BotError(f"P{view.seat} has no legal action to choose from")
        self.last_search = None
        if self.search_from_stock is not None and view.stock > self.search_from_stock:
            return self._guide.choose(view, rng)
        memory = self._guide.memory
        memory.update(view)
        if len(view.playable) == 1:
            return view.playable[0]
        hint = self._guide.choose(view, rng) if self.prior else None
        root = _Node(seat=view.seat)
        start = self.clock()
        deadline = math.inf if self.seconds is None else start + self.seconds
        limit = self.playouts if self.playouts is not None else math.inf
        iterations = rejected = 0
        while iterations < limit and self.clock() < deadline:
            world = sample_world(view, memory, rng)
            if world is None or moves_of(world, view.seat) != view.playable:
                rejected += 1
                if rejected > max(100, 2 * iterations):
                    break  # the view cannot be dealt out: play as the heuristic below
                continue
            self._iterate(root, world, rng, hint)
            iterations += 1
            if iterations % 8 == 0 and _decided(root, limit - iterations):
                break  # no iteration left could change the most tried action
        visits = tuple((a, root.children[a].visits,
                        root.children[a].score / root.children[a].visits)
                       for a in view.playable
                       if a in root.children and root.children[a].visits)
        self.last_search = SearchStats(iterations=iterations, rejected=rejected,
                                       seconds=self.clock() - start, visits=visits)
        if not visits:
            return self._guide.choose(view, rng)
        return max(visits, key=lambda entry: entry[1])[0]  # the first of equals

    # -- one iteration ---------------------------------------------------------------------

    def _iterate(self, root: _Node, state: GameState, rng: random.Random,
                 hint: Action | None) -> None:
        path: list[_Node] = []
        node = root
        steps = 0
        me = root.seat
        modelled = self.opponents != "tree"
        while steps < self.horizon:
            turn = acting_moves(state)
            if turn is None:
                break
            seat, moves = turn
            if modelled and seat != me:  # another seat: its model decides, no search
                action = self._model(state, seat, moves, rng)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Node(seat=seat)
                node = child
                state = play_listed(state, action)
                steps += 1
                continue
            untried = [a for a in moves if a not in node.children]
            for action in moves:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                action = hint if node is root and hint in untried else rng.choice(untried)
                child = _Node(seat=seat, available=1)
                node.children[action] = child
                path.append(child)
                state = play_listed(state, action)
                break
            action = self._select(node, moves, hint if node is root else None)
            node = node.children[action]
            path.append(node)
            state = play_listed(state, action)
            steps += 1
        result = self._playout(state, rng, steps)
        for visited in path:
            visited.visits += 1
            visited.score += result[visited.seat]

    def _model(self, state: GameState, seat: int, moves: Sequence[Action],
               rng: random.Random) -> Action:
        """The move of another seat under the opponent model (``opponents``)."""
        if len(moves) == 1:
            return moves[0]
        if self.opponents == "heuristic":
            model = HeuristicBot()
            model.memory.seen.update(state.discard)  # every discarded card was on the table
            return model.choose(view(state, seat), rng)
        return PLAYOUT_POLICIES[self.policy](moves, state.trump, len(state.stock), rng)

    def _select(self, node: _Node, moves: Sequence[Action], hint: Action | None) -> Action:
        best = moves[0]
        best_value = -math.inf
        c = self.exploration
        for action in moves:
            child = node.children[action]
            value = child.score / child.visits + \
                c * math.sqrt(math.log(child.available) / child.visits)
            if action == hint:  # progressive bias, fading as the visits grow
                value += self.prior / (child.visits + 1)
            if value > best_value:
                best, best_value = action, value
        return best

    def _playout(self, state: GameState, rng: random.Random, steps: int) -> list[float]:
        """Each seat's result: 1 if not the durak, 0 if the durak (a game stopped at the
        horizon: the share of the cards held by the others)."""
        policy = PLAYOUT_POLICIES[self.policy]
        epsilon = self.epsilon
        while steps < self.horizon:
            turn = acting_moves(state)
            if turn is None:
                break
            _, moves = turn
            if len(moves) == 1:
                action = moves[0]
            elif epsilon and rng.random() < epsilon:
                action = rng.choice(moves)
            else:
                action = policy(moves, state.trump, len(state.stock), rng)
            state = play_listed(state, action)
            steps += 1
        players = len(state.hands)
        outcome = state.outcome
        if outcome is None:
            sizes = [len(h) for h in state.hands]
            total = max(1, sum(sizes))
            return [1.0 - size / total for size in sizes]
        results = [0.0 if outcome.durak == seat else 1.0 for seat in range(players)]
        if self.place and players > 2:  # going out early scores a little more
            w, out = self.place, 0
            for group in outcome.finishing_order:
                for seat in group:
                    results[seat] = (1.0 - w) * results[seat] + w * (1.0 - out / (players - 1))
                out += len(group)
            for seat in outcome.holding:
                results[seat] *= 1.0 - w
            if outcome.durak is not None:
                results[outcome.durak] = 0.0
        return results


def _decided(root: _Node, remaining: float) -> bool:
    """Whether the most visited root action stays the most visited after ``remaining``
    more iterations, whatever they try."""
    first = second = 0
    for child in root.children.values():
        if child.visits > first:
            first, second = child.visits, first
        elif child.visits > second:
            second = child.visits
    return first - second > remaining
