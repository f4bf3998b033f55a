"""``durak-spec review GAME.json``: the coach (:mod:`durak_spec.play.review`) on a game
saved by ``durak-spec play`` (``save FILE`` or ``--save-to FILE``)."""

from __future__ import annotations

import argparse
import contextlib
import sys

from durak_spec.cli.args import (
    Subparsers,
    add_progress_arguments,
    count,
    positive_count,
    progress_shown,
)
from durak_spec.core.cliargs import CommandError
from durak_spec.core.outfiles import OutputFile, check_output_folder
from durak_spec.core.progressbar import progress_bar
from durak_spec.game import persist
from durak_spec.game.history import Game
from durak_spec.play.review import (
    DEFAULT_PLAYOUTS,
    DEFAULT_SAMPLES,
    Evaluator,
    IsmctsEvaluator,
    ReviewError,
    SamplingEvaluator,
    review,
)
from durak_spec.play.review.report import move_svg, svg_name, to_json_text, to_text

__all__ = ["add_parser", "run"]

_DESCRIPTION = (
    "Review a finished game saved by 'durak-spec play' (save FILE, --save-to FILE): "
    "replay it and, for every decision of the chosen seats, estimate the mover's chance of "
    "not being the durak after the move played and after the alternatives, from what the "
    "mover knew at that moment only (its view and its memory of the cards played), by "
    "playing each move out in deals of the unseen cards sampled at random. Prints at most "
    "the five costliest moves, each with a one-line reason, the position as the mover saw "
    "it, the better move and, where one applies, the tested tip it went against with its "
    "pages on the rules website. The same seed gives the same review. A saved match is "
    "reviewed by its last game.")

_EPILOG = ("Exit status: 0 when the game was reviewed; 2 when the file is not a saved game, "
           "the game is not finished, or an option is wrong; 74 when an output cannot be "
           "written.")


def add_parser(subparsers: Subparsers) -> None:
    """Register ``durak-spec review``."""
    parser = subparsers.add_parser(
        "review", help="the coach: show the costliest moves of a saved, finished game",
        description=_DESCRIPTION, epilog=_EPILOG)
    parser.add_argument("file", metavar="GAME.json", help="a game saved by 'durak-spec play'")
    parser.add_argument("--seat", metavar="S", type=count, action="append", default=None,
                        help="review the moves of this seat (repeatable; default: every "
                             "seat, since a saved game does not say which one was yours)")
    parser.add_argument("--seed", metavar="S", type=count, default=0,
                        help="seed of the sampled deals (default 0): the same seed, the same "
                             "review")
    parser.add_argument("--samples", metavar="N", type=positive_count, default=DEFAULT_SAMPLES,
                        help="deals sampled per decision (default %(default)s; more is slower "
                             "and steadier)")
    parser.add_argument("--evaluator", choices=("sampling", "ismcts"), default="sampling",
                        help="who weighs the moves: 'sampling' (default: each move played out "
                             "by heuristic players in --samples sampled deals) or 'ismcts' "
                             "(the tree search player's own estimate, --playouts iterations "
                             "a decision: about four times slower)")
    parser.add_argument("--playouts", metavar="N", type=positive_count, default=DEFAULT_PLAYOUTS,
                        help="tree search iterations per decision with --evaluator ismcts "
                             "(default %(default)s)")
    parser.add_argument("--svg", metavar="DIR", default=None,
                        help="also draw each marked move's position with the better move "
                             "in DIR (move-007.svg, ...)")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    add_progress_arguments(parser)
    parser.set_defaults(handler=run)


def _load(path: str) -> Game:
    """The saved game, or the last game of a saved match."""
    try:
        try:
            return persist.load(path)
        except persist.SavedGameError as error:
            if error.path != "format":
                raise
            try:
                return persist.load_match(path).current
            except persist.SavedGameError:
                raise error from None
    except persist.SavedGameError as error:
        if error.code in ("file", "json-too-large"):
            raise CommandError(str(error)) from None
        raise CommandError(f"{path} is not a saved game: {error}") from None


class _Bar:
    """The decisions weighed, as a bar on standard error."""

    def __init__(self, shown: bool | None) -> None:
        self.bar = progress_bar(None, unit="move", shown=shown)
        self.done = 0

    def __call__(self, done: int, total: int) -> None:
        if self.bar.total != total:
            self.bar.total = total
        self.bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        self.bar.close()


def _evaluator(args: argparse.Namespace) -> Evaluator:
    if args.evaluator == "ismcts":
        return IsmctsEvaluator(args.playouts)
    return SamplingEvaluator(args.samples)


def run(args: argparse.Namespace) -> int:
    """The handler of ``durak-spec review``."""
    game = _load(args.file)
    folder = None if args.svg is None else check_output_folder(args.svg, "--svg")
    shown = progress_shown(args)
    with contextlib.closing(_Bar(shown)) as bar:
        try:
            result = review(game, seats=args.seat, seed=args.seed,
                            evaluator=_evaluator(args), progress=bar)
        except ReviewError as error:
            raise CommandError(f"{args.file}: {error}") from None
    pictures: dict[int, str] = {}
    if folder is not None:
        for move in result.marked:
            path = folder / svg_name(move)
            with OutputFile(path, "--svg") as out:
                out.write(move_svg(move))
            pictures[move.index] = str(path)
    if args.json:
        print(to_json_text(result))
    else:
        print(to_text(result, pictures=pictures))
    sys.stdout.flush()
    return 0
