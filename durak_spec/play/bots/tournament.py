"""Many seeded games between bots, rotated through the seats (:func:`tournament`), and
how often each was the durak, with Wilson confidence intervals."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from durak_spec.model.rules import RuleSet
from durak_spec.play.bots.games import DEFAULT_MAX_ACTIONS, GameResult, play_game
from durak_spec.play.bots.interface import Bot


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate (95 % for ``z=1.96``); (0, 1) for no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """How often each bot of a tournament was the durak.

    Bots are numbered as in the ``bots`` argument of :func:`tournament`; ``durak[i]`` is
    how many games bot ``i`` lost.
    """

    names: tuple[str, ...]
    games: int
    durak: tuple[int, ...]
    draws: int
    unfinished: int
    actions: int
    """Actions played in all games together."""
    results: tuple[GameResult, ...] = field(repr=False)

    def durak_rate(self, bot: int) -> float:
        """The share of games in which bot ``bot`` was the durak."""
        return self.durak[bot] / self.games if self.games else 0.0

    def interval(self, bot: int, z: float = 1.96) -> tuple[float, float]:
        """The Wilson confidence interval of :meth:`durak_rate`."""
        return wilson_interval(self.durak[bot], self.games, z)

    def summary(self) -> str:
        """One line per bot: durak count, rate and 95 % interval."""
        lines = []
        for i, name in enumerate(self.names):
            low, high = self.interval(i)
            lines.append(f"{name}: durak in {self.durak[i]} of {self.games} games "
                         f"({self.durak_rate(i):.1%}, 95% CI {low:.1%}–{high:.1%})")
        if self.draws or self.unfinished:
            lines.append(f"draws {self.draws}, unfinished {self.unfinished}")
        return "\n".join(lines)


Progress = Callable[[int, int, GameResult], None]
"""``progress(games_done, games_total, last_result)``, called after every game."""


def rotation(game: int, players: int, *, seed: int = 0, rotate: bool = True
             ) -> tuple[int, int]:
    """Where game ``game`` of a :func:`tournament` seats its bots and how it deals:
    ``(shift, deal_seed)``, bot ``i`` sitting in seat ``(i + shift) % players``. With
    ``rotate`` every deal is played once with each rotation of the bots; without it every
    game has its own deal and no bot moves."""
    if rotate:
        return game % players, seed + game // players
    return 0, seed + game


def tournament(rules: RuleSet, bots: Sequence[Bot], games: int, *, seed: int = 0,
               rotate: bool = True, progress: Progress | None = None,
               max_actions: int = DEFAULT_MAX_ACTIONS) -> TournamentResult:
    """Play ``games`` seeded games between ``bots`` (one per seat) and count the duraks.

    With ``rotate`` (the default) every deal is played once with each rotation of the
    bots around the table, so that no bot profits from a lucky seat or deal: game ``k``
    deals with seed ``seed + k // players`` and seats bot ``i`` at ``(i + k) % players``.
    Without it, game ``k`` uses seed ``seed + k`` and bot ``i`` sits in seat ``i``
    (:func:`rotation`). ``progress`` is called after every game. Deterministic for ``seed``.
    """
    n = rules.players
    if len(bots) != n:
        raise ValueError(f"{len(bots)} bots for a game of {n} players")
    if games < 0:
        raise ValueError(f"games must be 0 or more, not {games}")
    durak = [0] * n
    draws = unfinished = actions = 0
    results: list[GameResult] = []
    for k in range(games):
        shift, deal_seed = rotation(k, n, seed=seed, rotate=rotate)
        seated: list[Bot] = [bots[0]] * n
        for i, bot in enumerate(bots):
            seated[(i + shift) % n] = bot
        result = play_game(rules, seated, deal_seed, max_actions=max_actions)
        results.append(result)
        actions += result.actions
        if result.outcome is None:
            unfinished += 1
        elif result.outcome.durak is None:
            draws += 1
        else:
            durak[(result.outcome.durak - shift) % n] += 1
        if progress is not None:
            progress(k + 1, games, result)
    return TournamentResult(names=tuple(b.name for b in bots), games=games, durak=tuple(durak),
                            draws=draws, unfinished=unfinished, actions=actions,
                            results=tuple(results))
