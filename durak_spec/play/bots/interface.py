"""The bot interface: what a computer player is (:class:`Bot`), a base to derive one
from (:class:`BaseBot`), the error a bad choice raises, and the simplest bot
(:class:`RandomBot`)."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from durak_spec.core.errors import DurakError
from durak_spec.game.view import PlayerView
from durak_spec.model.actions import Action


class BotError(DurakError):
    """A bot that did not return one of its legal actions."""


# -- the interface --------------------------------------------------------------------------


@runtime_checkable
class Bot(Protocol):
    """A computer player: decides from its seat's view only (see the module docstring)."""

    @property
    def name(self) -> str:
        """A short name for results and the terminal (``"heuristic"``)."""
        ...

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """One of ``view.playable``; called only when that is not empty."""
        ...

    def observe(self, action: Action) -> None:
        """See an action just played at the table, by any seat."""
        ...

    def reset(self) -> None:
        """Forget everything remembered from the game played so far."""
        ...


class BaseBot:
    """A convenient base: a ``name`` and no memory (``observe`` and ``reset`` do nothing)."""

    name: str = "bot"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        raise NotImplementedError

    def observe(self, action: Action) -> None:
        """Do nothing: this bot keeps no memory."""

    def reset(self) -> None:
        """Do nothing: this bot keeps no memory."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


class RandomBot(BaseBot):
    """Chooses uniformly at random among its legal actions."""

    def __init__(self, name: str = "random") -> None:
        self.name = name

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if not view.playable:
            raise BotError(f"P{view.seat} has no legal action to choose from")
        return rng.choice(view.playable)
