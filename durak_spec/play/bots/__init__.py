"""Computer players and seeded simulations (layer 7).

A bot decides from a :class:`~durak_spec.game.view.PlayerView` only: its own hand, the hand
sizes, the table, the stock count and the face-up trump, the cards every player knows
(VIEW-2) and its own legal actions (``view.playable``, VIEW-3). It never sees a
:class:`~durak_spec.model.state.GameState`, so it cannot look at hidden cards.

The bot interface
-----------------

Any object with these members is a :class:`Bot`::

    name: str                                         # shown in results and the terminal
    choose(view: PlayerView, rng: random.Random) -> Action   # one of view.playable
    observe(action: Action) -> None                   # every action played at the table
    reset() -> None                                   # forget the last game

``choose`` is asked only when the seat has something to do, and must return one of
``view.playable``. ``observe`` is called by :func:`play_game` with every action played,
by any seat, as every player at a real table sees it; an action shows only cards put on
the table (or a trump shown to transfer), which are public. So a bot can remember cards
that were played while it was not asked, such as the last cover of a bout, which no view
shows because the bout ends with it. A bot that keeps no memory makes ``observe`` a
no-op, and ``choose`` must work without any ``observe`` call before it (with less
memory). Randomness comes only
from ``rng``, so a seeded game is the same game every time. Derive new bots from
:class:`BaseBot`, which supplies ``name``, ``observe`` and ``reset``::

    class LowestCardBot(BaseBot):
        name = "lowest"

        def choose(self, view, rng):
            return min(view.playable, key=lambda a: [c.rank for c in a.cards] or [99])

The bots here
-------------

* :class:`RandomBot` picks uniformly among its legal actions.
* :class:`HeuristicBot` follows the sources' tips (TIP-1 … TIP-11); every tip is a
  switch, ``HeuristicBot(tips=ALL_TIPS - {Tip.SAVE_TRUMPS})``, so that the tips can be
  tested one at a time (:data:`TIP_NOTES` says how each is put into play).
* :class:`SearchBot` plays each candidate action out in a few sampled deals of the cards
  it cannot see (determinized Monte Carlo) and keeps the one that makes it the durak
  least often.
* :class:`IsmctsBot` grows a search tree over many sampled deals (information-set Monte
  Carlo tree search), one playout per deal, and plays the action it tried most; its
  budget is a number of playouts, a time, or both. The strongest of them
  (``docs/players.md``).

Who acts when (the table protocol of the simulations)
-----------------------------------------------------

The engine lets the defender and the throwers act in any order (first come, first
served). A simulation needs one order, and :func:`acting_seat` fixes it: between bouts
the attacker opens; during a bout the **defender acts first** whenever they have a move
(cover, transfer, take), and only then the players who may throw in, starting with the
attacker and going clockwise. So throwers add cards once everything on the table is
covered or a take is announced, and they may then always say done. The terminal game
(:mod:`durak_spec.play.terminal`) uses the same order.

Simulations
-----------

:func:`play_game` plays one seeded game (``GameResult``: outcome, actions, history);
:func:`tournament` plays many, rotating the bots through the seats over each deal, and
counts how often each bot is the durak (``TournamentResult``, with Wilson confidence
intervals). Both are deterministic for a seed.

>>> from durak_spec import profile
>>> rules = profile("classic-throw-in").rules(players=2)
>>> result = play_game(rules, [HeuristicBot(), RandomBot()], seed=3)
>>> result.outcome is not None and result.actions > 0
True
>>> play_game(rules, [HeuristicBot(), RandomBot()], seed=3) == result
True
"""

from __future__ import annotations

from durak_spec.play.bots.games import GameResult, play_game
from durak_spec.play.bots.heuristic import HeuristicBot
from durak_spec.play.bots.interface import BaseBot, Bot, BotError, RandomBot
from durak_spec.play.bots.ismcts import IsmctsBot
from durak_spec.play.bots.kinds import BOT_KINDS, make_bot
from durak_spec.play.bots.knowledge import strength
from durak_spec.play.bots.search import SearchBot
from durak_spec.play.bots.tips import ALL_TIPS, TIP_NOTES, Tip
from durak_spec.play.bots.tournament import (
    TournamentResult,
    rotation,
    tournament,
    wilson_interval,
)
from durak_spec.play.bots.turn_order import acting_seat

__all__ = [
    "ALL_TIPS",
    "BOT_KINDS",
    "TIP_NOTES",
    "BaseBot",
    "Bot",
    "BotError",
    "GameResult",
    "HeuristicBot",
    "IsmctsBot",
    "RandomBot",
    "SearchBot",
    "Tip",
    "TournamentResult",
    "acting_seat",
    "make_bot",
    "play_game",
    "rotation",
    "strength",
    "tournament",
    "wilson_interval",
]
