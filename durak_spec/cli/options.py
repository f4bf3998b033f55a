"""Choosing a rule set on the command line: ``--profile``, ``--players``, ``--set``."""

from __future__ import annotations

import argparse

from durak_spec.cli.args import CommandError
from durak_spec.model.rules import Profile, RuleSet, profile

__all__ = ["DEFAULT_PROFILE", "add_rules_arguments", "rules_from_args"]

PROG = "durak-spec"
DEFAULT_PROFILE = "classic-throw-in"


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
