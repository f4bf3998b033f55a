"""The bots by name, for the command line and the web game (:func:`make_bot`)."""

from __future__ import annotations

from durak_spec.play.bots.heuristic import HeuristicBot
from durak_spec.play.bots.interface import Bot, RandomBot
from durak_spec.play.bots.search import SearchBot

BOT_KINDS: tuple[str, ...] = ("random", "heuristic", "search")
"""The names :func:`make_bot` knows."""


def make_bot(kind: str) -> Bot:
    """A new bot by name: ``"random"``, ``"heuristic"`` or ``"search"``."""
    if kind == "random":
        return RandomBot()
    if kind == "heuristic":
        return HeuristicBot()
    if kind == "search":
        return SearchBot()
    raise ValueError(f"unknown bot {kind!r}; bots are {', '.join(BOT_KINDS)}")
