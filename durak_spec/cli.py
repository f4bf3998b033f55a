"""The ``durak-spec`` command line (layer 7): a dispatcher over subcommands.

Subcommands::

    durak-spec profiles [NAME] [--json]
    durak-spec game [--profile NAME] [--players N] [--seed S] [--set AXIS=VALUE ...]
                    [--max-actions K] [--quiet] [--json]
    durak-spec check [--engine CMD] [--rule ID ...] [--tag T ...] [--profile NAME ...]
                     [--json FILE|-] [--junit-xml FILE] [--timeout S] [-v]
    durak-spec play [--profile NAME] [--players N] [--seat S] [--opponent KIND] ...

Adding a subcommand
-------------------
A subcommand lives in its own module as a function ``add_parser(subparsers)`` that adds
its parser and registers the function that runs it::

    def add_parser(subparsers: Subparsers) -> None:
        parser = subparsers.add_parser("check", help="...", description="...")
        parser.add_argument(...)
        parser.set_defaults(handler=run)        # run(args: argparse.Namespace) -> int

and one ``"module:function"`` line in :data:`SUBCOMMANDS`. Modules are imported only
when the command line is built. A handler returns the exit code; for bad input it raises
:class:`CommandError` (or lets an error of the package through: :class:`DurakError`,
:class:`RuleSetError`, :class:`CardError`), which the dispatcher prints as one line on
stderr with exit code 2. :func:`add_rules_arguments` and :func:`rules_from_args` give
every subcommand the same ``--profile``/``--players``/``--set`` options.

This module decides no rule: it asks the engine (``legal_actions``, ``apply``,
``first_attacker``) and only reports what changed between two states.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn, TypeAlias

from . import __version__
from .actions import Action, Transfer
from .cards import Card, CardError, format_cards
from .engine import apply, first_attacker, legal_actions, new_game
from .errors import DurakError
from .rules import AXES, PROFILES, Axis, Profile, RuleSet, RuleSetError, profile
from .state import GameState

__all__ = [
    "SUBCOMMANDS",
    "BoutEnd",
    "CommandError",
    "Deal",
    "Subparsers",
    "add_game_parser",
    "add_profiles_parser",
    "add_rules_arguments",
    "bout_end",
    "build_parser",
    "main",
    "rules_from_args",
]

PROG = "durak-spec"

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
Handler: TypeAlias = Callable[[argparse.Namespace], int]

SUBCOMMANDS: tuple[str, ...] = (
    "durak_spec.cli:add_profiles_parser",
    "durak_spec.cli:add_game_parser",
    "durak_spec.checker:add_parser",
    "durak_spec.play:add_parser",
)
"""Every subcommand as ``"module:add_parser_function"``, in the order ``--help`` lists them."""

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE

DEFAULT_PROFILE = "classic-throw-in"
DEFAULT_MAX_ACTIONS = 10_000


class CommandError(Exception):
    """Bad input to a subcommand: printed as ``PROG: error: message``, exit code ``status``."""

    def __init__(self, message: str, *, prog: str | None = None,
                 status: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.prog = prog
        self.status = status


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, raised instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise CommandError(f"{message} (see '{self.prog} --help')", prog=self.prog)


# -- the dispatcher ---------------------------------------------------------------------


def _load(entry: str) -> Callable[[Subparsers], None]:
    module_name, _, function = entry.partition(":")
    add_parser: Callable[[Subparsers], None] = getattr(
        importlib.import_module(module_name), function)
    return add_parser


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand of :data:`SUBCOMMANDS`."""
    # Typed as the base class so that the subparsers are too; at run time every
    # subparser is a _Parser (argparse makes them of the parent's class).
    parser: argparse.ArgumentParser = _Parser(
        prog=PROG,
        description="The executable rules specification of the card game Durak.",
        epilog=f"Run '{PROG} COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for entry in SUBCOMMANDS:
        _load(entry)(subparsers)
    parser.set_defaults(commands=tuple(subparsers.choices))
    return parser


def _say_error(prog: str, message: str) -> None:
    print(f"{prog}: error: {message}", file=sys.stderr)


def _quiet_stdout() -> None:
    """After a broken pipe, send what is still buffered for stdout to nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    prog = PROG
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as done:  # --help and --version
            return done.code if isinstance(done.code, int) else 0
        if args.command is None:
            raise CommandError(f"choose a command ({', '.join(args.commands)}); "
                               f"see '{PROG} --help'")
        prog = f"{PROG} {args.command}"
        handler: Handler = args.handler
        status = handler(args)
        sys.stdout.flush()  # here, so that a closed pipe is noticed inside this try
        return status
    except CommandError as error:
        _say_error(error.prog or prog, error.message)
        return error.status
    except (DurakError, RuleSetError, CardError) as error:
        _say_error(prog, str(error))
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_BROKEN_PIPE


# -- options shared by subcommands ----------------------------------------------------------


def _setting(text: str) -> tuple[str, str]:
    """One ``--set AXIS=VALUE``; the axis may be written with ``-`` for ``_``."""
    name, equals, value = text.partition("=")
    name, value = name.strip().replace("-", "_"), value.strip()
    if not equals or not name or not value:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not AXIS=VALUE; write it like --set throw_in=attacker")
    return name, value


def add_rules_arguments(parser: argparse.ArgumentParser, *,
                        default_profile: str | None = DEFAULT_PROFILE) -> None:
    """Add ``--profile``, ``--players`` and ``--set`` (read them with :func:`rules_from_args`)."""
    parser.add_argument(
        "--profile", metavar="NAME", default=default_profile,
        required=default_profile is None,
        help="the named rule set to play" + (
            f" (default {default_profile}; see '{PROG} profiles')" if default_profile else ""))
    parser.add_argument("--players", metavar="N", type=int, default=None,
                        help="number of players, 2 to 6 (default: the profile's)")
    parser.add_argument(
        "--set", metavar="AXIS=VALUE", dest="settings", type=_setting, action="append",
        default=[], help="change one axis of the profile's rules (repeatable), "
                         "e.g. --set throw_in=attacker")


def rules_from_args(args: argparse.Namespace) -> tuple[Profile, RuleSet]:
    """The profile and the rule set chosen by :func:`add_rules_arguments`' options."""
    chosen = profile(args.profile)
    rules = chosen.rules(players=args.players)
    changes: dict[str, str] = dict(args.settings)
    if "players" in changes:
        raise CommandError("set the number of players with --players, not --set")
    if changes:
        rules = RuleSet.from_dict({**rules.to_dict(), **changes})
    return chosen, rules


# -- durak-spec profiles ------------------------------------------------------------------


def add_profiles_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "profiles", help="list the named rule sets and where each axis comes from",
        description="List the profiles (named rule sets) with every axis value. A value is "
                    "either stated by the profile's source (A-D) or a clarification of the "
                    "specification where the source is silent.")
    parser.add_argument("name", nargs="?", metavar="NAME",
                        help="show one profile with the origin note of every axis")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=_run_profiles)


def _axis_json(chosen: Profile, axis: Axis) -> dict[str, object]:
    origin = chosen.origin(axis.name)
    return {
        "axis": axis.name,
        "title": axis.title,
        "rules": list(axis.rules),
        "value": chosen.base.to_dict()[axis.name],
        "source": origin.source,
        "clarification": origin.is_clarification,
        "note": origin.note,
    }


def _profile_json(chosen: Profile) -> dict[str, object]:
    return {
        "name": chosen.name,
        "title": chosen.title,
        "description": chosen.description,
        "rules": chosen.base.to_dict(),
        "axes": [_axis_json(chosen, axis) for axis in AXES],
    }


def _sources(chosen: Profile) -> list[str]:
    found = {chosen.origin(a).source for a in chosen.from_source()}
    return sorted(s for s in found if s is not None)


def _origin_label(chosen: Profile, axis: str) -> str:
    origin = chosen.origin(axis)
    return "clarification" if origin.source is None else f"source {origin.source}"


def _run_profiles(args: argparse.Namespace) -> int:
    if args.name is not None:
        chosen = profile(args.name)
        if args.json:
            print(json.dumps(_profile_json(chosen), ensure_ascii=False, indent=2))
        else:
            print(_describe_profile(chosen))
        return 0
    if args.json:
        data = {"profiles": [_profile_json(p) for p in PROFILES.values()]}
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(textwrap.fill(
        "Every profile with its axes as AXIS=VALUE. A * marks a clarification: the source is "
        "silent and the specification decides; unmarked values are stated by the profile's "
        f"source. '{PROG} profiles NAME' shows the notes.", width=96))
    for chosen in PROFILES.values():
        sources = _sources(chosen)
        origin = (f"values from source {', '.join(sources)}" if sources
                  else "no source: every value is a clarification")
        print(f"\n{chosen.name}: {chosen.title} — {origin}")
        tokens = [f"{axis.name}={Axis.format(getattr(chosen.base, axis.name))}"
                  + ("*" if chosen.origin(axis.name).is_clarification else "")
                  for axis in AXES]
        print(textwrap.fill("  ".join(tokens), width=96, initial_indent="    ",
                            subsequent_indent="    ", break_on_hyphens=False,
                            break_long_words=False))
    return 0


def _describe_profile(chosen: Profile) -> str:
    rows = [("AXIS", "VALUE", "RULES", "ORIGIN", "NOTE")]
    for axis in AXES:
        origin = chosen.origin(axis.name)
        rows.append((axis.name, Axis.format(getattr(chosen.base, axis.name)),
                     " ".join(axis.rules), _origin_label(chosen, axis.name), origin.note))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [f"{chosen.name}: {chosen.title}", chosen.description, ""]
    lines.extend("  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True))
                 + "  " + row[4] for row in rows)
    return "\n".join(line.rstrip() for line in lines)


# -- durak-spec game ------------------------------------------------------------------------


def add_game_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "game", help="play one seeded game between random players and print it",
        description="Play one game in which every move is a seeded random choice among the "
                    "legal actions, and print it move by move in card notation. The same "
                    "seed gives the same deal and the same game.")
    add_rules_arguments(parser)
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the deal and of the players' choices (default: random, "
                             "printed so the game can be replayed)")
    parser.add_argument("--max-actions", type=_count, default=DEFAULT_MAX_ACTIONS,
                        metavar="K", help="stop after K actions (default %(default)s)")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the outcome")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=_run_game)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count (0, 1, 2, ...)")
    return value


def positive_count(text: str) -> int:
    """An argparse type for a whole number of at least 1 (games, depths, ...)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number")
    return value


@dataclass(frozen=True, slots=True)
class BoutEnd:
    """What happened when a bout ended, read off the states before and after it."""

    bout: int
    """The number of the bout that ended, from 1."""
    taker: int | None
    """The defender who took the table, or ``None`` when the table was beaten off."""
    cards: tuple[Card, ...]
    """The cards that were on the table."""
    draws: tuple[tuple[int, tuple[Card, ...]], ...]
    """Who drew which cards, in the order they drew."""
    stock: int
    """Cards left in the stock after drawing."""
    out: tuple[int, ...]
    """The seats that went out at this bout end."""

    def text(self) -> str:
        if self.taker is None:
            parts = [f"Beaten off: {_cards(len(self.cards))} to the discard pile"]
        else:
            parts = [f"P{self.taker} takes {_cards(len(self.cards))}"]
        if self.draws:
            draws = ", ".join(f"P{seat} draws {len(cards)}" for seat, cards in self.draws)
            parts.append(f"{draws} (stock {self.stock})")
        if self.out:
            names = " and ".join(f"P{seat}" for seat in self.out)
            parts.append(f"{names} {'is' if len(self.out) == 1 else 'are'} out")
        return "; ".join(parts) + "."

    def to_json(self) -> dict[str, object]:
        return {
            "type": "bout-end", "bout": self.bout,
            "result": "beaten-off" if self.taker is None else "taken", "taker": self.taker,
            "cards": [str(c) for c in self.cards],
            "draws": [{"player": seat, "cards": [str(c) for c in cards]}
                      for seat, cards in self.draws],
            "stock": self.stock, "out": list(self.out),
        }


def bout_end(before: GameState, action: Action, after: GameState) -> BoutEnd:
    """Describe the bout end that ``action`` caused, from the states around it."""
    shown = isinstance(action, Transfer) and action.show
    table = before.table_cards() + (() if shown else action.cards)
    taken = bool(table) and table[0] not in after.discard
    stock_place = {card: i for i, card in enumerate(before.stock)}
    draws: list[tuple[int, tuple[Card, ...]]] = []
    for seat, hand in enumerate(after.hands):
        new = set(hand).difference(before.hands[seat], table)
        if new:
            draws.append((seat, tuple(sorted(new, key=stock_place.__getitem__))))
    draws.sort(key=lambda draw: stock_place[draw[1][0]])
    out = tuple(seat for group in after.finished[len(before.finished):] for seat in group)
    return BoutEnd(bout=after.bout, taker=before.defender if taken else None, cards=table,
                   draws=tuple(draws), stock=len(after.stock), out=out)


@dataclass(frozen=True, slots=True)
class Deal:
    """The position after the deal, as the game log shows it."""

    state: GameState
    first: int
    reason: str

    @classmethod
    def of(cls, state: GameState, seed: int) -> Deal:
        first, reason = first_attacker(state.hands, state.trump, state.rules, seed)
        return cls(state, first, reason)

    def lines(self) -> list[str]:
        state = self.state
        lines = ["Deal:"]
        lines.extend(f"  P{seat}  {format_cards(hand)}" for seat, hand in enumerate(state.hands))
        face_up = state.face_up
        lines.append(f"  Trump {state.trump.symbol}" + (
            f", face-up card {face_up}, {len(state.stock)} cards in the stock"
            if face_up is not None else ", no stock: every card is dealt"))
        lines.append(f"  P{self.first} attacks first: {self.reason}")
        return lines

    def to_json(self) -> dict[str, object]:
        state = self.state
        return {
            "hands": [[str(c) for c in hand] for hand in state.hands],
            "trump": state.trump.symbol,
            "face_up": None if state.face_up is None else str(state.face_up),
            "stock": len(state.stock),
            "first_attacker": self.first, "reason": self.reason,
        }


def _rules_line(chosen: Profile, rules: RuleSet, seed: int) -> str:
    base = chosen.rules(players=rules.players).to_dict()
    changed = [f"{name}={Axis.format(getattr(rules, name))}"
               for name, value in rules.to_dict().items() if base[name] != value]
    line = f"Game: {chosen.name}, {rules.players} players, seed {seed}"
    return line + (f", with {' '.join(changed)}" if changed else "")


def _run_game(args: argparse.Namespace) -> int:
    chosen, rules = rules_from_args(args)
    seed: int = args.seed if args.seed is not None else random.randrange(2**31)
    state = new_game(rules, seed=seed)
    deal = Deal.of(state, seed)
    chooser = random.Random(seed)
    events: list[dict[str, object]] = []
    log = not args.json and not args.quiet
    say: Callable[[str], None] = print if log else _silent

    say(_rules_line(chosen, rules, seed))
    for line in deal.lines():
        say(line)
    actions = 0
    announced = -1
    while not state.is_over and actions < args.max_actions:
        if state.bout != announced:
            say(f"Bout {state.bout + 1}: P{state.attacker} attacks P{state.defender}")
            announced = state.bout
        action = chooser.choice(legal_actions(state))
        after = apply(state, action)
        actions += 1
        say(str(action))
        events.append({"type": "action", "action": action.to_json(), "text": str(action)})
        if isinstance(action, Transfer):
            say(f"  P{after.defender} defends now")
        if after.bout > state.bout:
            end = bout_end(state, action, after)
            say(f"  {end.text()}")
            events.append(end.to_json())
        state = after

    outcome = state.outcome
    if not args.json:
        print(f"Stopped after {actions} actions (--max-actions): the game is not over."
              if outcome is None else
              f"Outcome: {outcome} after {actions} actions in {state.bout} bouts")
        return 0
    data: dict[str, object] = {
        "profile": chosen.name, "players": rules.players, "seed": seed,
        "rules": rules.to_dict(), "actions": actions, "bouts": state.bout,
        "over": outcome is not None,
        "outcome": None if outcome is None else {
            "durak": outcome.durak,
            "finishing_order": [list(group) for group in outcome.finishing_order],
            "text": str(outcome),
        },
    }
    if not args.quiet:
        data["deal"] = deal.to_json()
        data["events"] = events
    print(json.dumps(data, ensure_ascii=False, indent=2))
    return 0


def _silent(_: str) -> None:
    pass


def _cards(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'}"
