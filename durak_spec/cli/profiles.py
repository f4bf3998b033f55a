"""``durak-spec profiles``: the named rule sets and where each axis comes from."""

from __future__ import annotations

import argparse
import json
import textwrap

from durak_spec.cli.args import Subparsers
from durak_spec.model.rules import AXES, PROFILES, Axis, Profile, profile

__all__ = ["add_parser"]

PROG = "durak-spec"


def add_parser(subparsers: Subparsers) -> None:
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
