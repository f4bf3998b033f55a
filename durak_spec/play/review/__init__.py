"""The coach (layer 7): replay a finished game and show where it turned.

:func:`review` weighs every decision of the chosen seats with an :class:`Evaluator` (by
default :class:`SamplingEvaluator`, determinized Monte Carlo with heuristic playouts) from
what the mover could know at that moment, and marks at most five moves whose estimated
chance of not being the durak dropped most, each with a one-line reason and, where one
applies, the tested tip it went against, linked to its evidence on the website.
:mod:`durak_spec.play.review.report` writes a review as text, JSON and SVG pictures of the
positions with the better move drawn; ``durak-spec review GAME.json`` is its command.

>>> from durak_spec import profile
>>> from durak_spec.play.bots import HeuristicBot, play_game
>>> game = play_game(profile("classic-throw-in").rules(players=2),
...                  [HeuristicBot(), HeuristicBot()], seed=1).game()
>>> result = review(game, seats=[0], evaluator=SamplingEvaluator(samples=2), seed=1)
>>> len(result.marked) <= 5 and all(m.drop > 0 for m in result.marked)
True
"""

from __future__ import annotations

from durak_spec.play.review.coach import (
    DEFAULT_LIMIT,
    DEFAULT_MIN_DROP,
    Candidate,
    MoveReview,
    Review,
    ReviewError,
    ReviewSteps,
    review,
    review_move,
    review_steps,
)
from durak_spec.play.review.evaluate import (
    DEFAULT_PLAYOUTS,
    DEFAULT_SAMPLES,
    Evaluator,
    IsmctsEvaluator,
    SamplingEvaluator,
)
from durak_spec.play.review.tips import TipNote, which_tip

__all__ = [
    "DEFAULT_LIMIT",
    "DEFAULT_MIN_DROP",
    "DEFAULT_PLAYOUTS",
    "DEFAULT_SAMPLES",
    "Candidate",
    "Evaluator",
    "IsmctsEvaluator",
    "MoveReview",
    "Review",
    "ReviewError",
    "ReviewSteps",
    "SamplingEvaluator",
    "TipNote",
    "review",
    "review_move",
    "review_steps",
    "which_tip",
]
