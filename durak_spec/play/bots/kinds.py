"""The bots by name, for the command line and the web game (:func:`make_bot`)."""

from __future__ import annotations

from durak_spec.play.bots.heuristic import HeuristicBot
from durak_spec.play.bots.interface import Bot, RandomBot
from durak_spec.play.bots.ismcts import IsmctsBot
from durak_spec.play.bots.search import SearchBot

BOT_KINDS: tuple[str, ...] = ("random", "heuristic", "search", "ismcts")
"""The names :func:`make_bot` knows."""

ISMCTS_PLAYOUTS = 800
"""The tree search player's playouts per decision (``make_bot("ismcts")``)."""
ISMCTS_SECONDS = 0.9
"""The most time it thinks about one decision: it stops at whichever comes first, so that
a move never takes more than about a second on a slow machine or in a browser."""


def make_bot(kind: str) -> Bot:
    """A new bot by name: ``"random"``, ``"heuristic"``, ``"search"`` or ``"ismcts"``
    (:data:`ISMCTS_PLAYOUTS` playouts or :data:`ISMCTS_SECONDS` per decision)."""
    if kind == "random":
        return RandomBot()
    if kind == "heuristic":
        return HeuristicBot()
    if kind == "search":
        return SearchBot()
    if kind == "ismcts":
        return IsmctsBot(playouts=ISMCTS_PLAYOUTS, seconds=ISMCTS_SECONDS)
    raise ValueError(f"unknown bot {kind!r}; bots are {', '.join(BOT_KINDS)}")
