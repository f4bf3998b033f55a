"""``durak-spec play``: a game or a match in the terminal against computer players (the
game itself is :mod:`durak_spec.play.terminal`)."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from durak_spec.cli.args import CommandError, Subparsers, count
from durak_spec.cli.options import DEFAULT_PROFILE, add_rules_arguments, rules_from_args
from durak_spec.game import persist
from durak_spec.game.history import Game, Match
from durak_spec.play.bots import BOT_KINDS, Bot, make_bot
from durak_spec.play.terminal import LineReader, Session, colour_wanted, is_tty, save_record

__all__ = ["add_parser", "run"]

_DESCRIPTION = (
    "Play Durak in the terminal against computer players, 2 to 6 seats, any profile. "
    "Before each of your moves the game shows trump, stock, discard pile, the opponents' "
    "hand sizes and known cards, the table and your hand with the cards you may play in "
    "brackets, and your moves, numbered. Answer with a number or a move in card notation "
    "('cover 7♣ with 9♣', '7C 9C', 'take', 'done', 'transfer 8♥'); type 'help' in the "
    "game for the commands. Input may come from a script through standard input.")


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "play", help="play a game in the terminal against computer players",
        description=_DESCRIPTION)
    add_rules_arguments(parser)
    parser.set_defaults(profile=None)  # to tell an explicit --profile from the default
    parser.add_argument("--seat", metavar="S", type=count, default=0,
                        help="your seat, 0 to players-1 (default 0; P0 in the game)")
    parser.add_argument("--opponent", choices=BOT_KINDS, default="heuristic",
                        help="the computer players (default heuristic)")
    parser.add_argument("--seed", metavar="S", type=count, default=None,
                        help="seed of the deal and of the opponents' choices (default: "
                             "random, printed so the game can be dealt again)")
    parser.add_argument("--load", metavar="FILE", default=None,
                        help="resume a game saved with 'save' or --save-to (its rules apply)")
    parser.add_argument("--save-to", metavar="FILE", dest="save_to", default=None,
                        help="keep the game saved in FILE: after each of your moves and "
                             "when the game stops")
    parser.add_argument("--games", metavar="N", type=count, default=None,
                        help="play a match of N games with a running score (default 1; "
                             "with --load, the games of the saved match)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """The handler of ``durak-spec play``."""
    if args.load is not None:
        given = [name for name, value in (("--profile", args.profile),
                                          ("--players", args.players),
                                          ("--set", args.settings or None),
                                          ("--seed", args.seed)) if value is not None]
        if given:
            raise CommandError(f"--load resumes a saved game under its own rules, deal and "
                               f"seed; leave out {', '.join(given)}")
        match = _load(args.load)
        game = match.current
        seed = game.seed or 0
    else:
        if args.profile is None:
            args.profile = DEFAULT_PROFILE
        _, rules = rules_from_args(args)
        seed = args.seed if args.seed is not None else random.randrange(2**31)
        game = Game.new(rules, seed=seed)
        match = Match(rules, (game,))
    games = args.games if args.games is not None else len(match.games)
    if games < len(match.games) or games < 1:
        raise CommandError(f"--games must be at least {max(1, len(match.games))}"
                           + (f": the saved match has {len(match.games)} games"
                              if len(match.games) > 1 else ""))
    several = games > 1
    players = game.rules.players
    if not 0 <= args.seat < players:
        raise CommandError(f"--seat must be a seat of the {players} players, 0 to "
                           f"{players - 1}, not {args.seat}")
    if args.save_to is not None:  # find out now, not after the first move
        try:
            save_record(match if several or len(match.games) > 1 else game, args.save_to)
        except persist.SavedGameError as error:
            raise CommandError(f"--save-to: {error}") from None
    bots: dict[int, Bot] = {s: make_bot(args.opponent) for s in range(players) if s != args.seat}
    read_line = LineReader(sys.stdin).read
    resumed = args.load is not None
    while True:
        session = Session(
            match.current, args.seat, bots, seed=seed,
            save_to=None if args.save_to is None else Path(args.save_to),
            read_line=read_line, out=sys.stdout,
            colour=colour_wanted(sys.stdout), echo=not is_tty(sys.stdin),
            resumed=resumed, opponent=args.opponent,
            match=match if several or len(match.games) > 1 else None, games=games)
        status = session.run()
        match = session.current_match()
        if status != 0 or not match.current.is_over or len(match.games) >= games:
            return status
        seed = _next_seed(seed, len(match.games))
        match = match.next_game(seed=seed)
        resumed = False


def _next_seed(seed: int, played: int) -> int:
    """The seed of the next game of a match: derived from the first, so a match replays."""
    return random.Random(f"durak-spec/match/{seed}/{played}").randrange(2**31)


def _load(path: str) -> Match:
    """A saved match, or a saved game as a match of one game."""
    try:
        try:
            return persist.load_match(path)
        except persist.SavedGameError as error:
            if error.path != "format":
                raise
            game = persist.load(path)
            return Match(game.rules, (game,))
    except persist.SavedGameError as error:
        if error.code in ("file", "json-too-large"):
            raise CommandError(f"--load: {error}") from None
        raise CommandError(f"{path} is not a saved game that can be resumed: "
                           f"{error}") from None
