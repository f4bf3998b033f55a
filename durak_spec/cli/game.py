"""``durak-spec game``: one seeded game between random players, printed move by move."""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable
from dataclasses import dataclass

from durak_spec.cli.args import Subparsers, count
from durak_spec.cli.options import add_rules_arguments, rules_from_args
from durak_spec.core.cards import format_cards
from durak_spec.engine import advance, first_attacker, legal_actions, new_game
from durak_spec.model.events import Drew, Step, Transferred, WentOut, bout_end_text
from durak_spec.model.rules import Axis, Profile, RuleSet
from durak_spec.model.state import GameState

__all__ = ["Deal", "add_parser"]

DEFAULT_MAX_ACTIONS = 10_000


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "game", help="play one seeded game between random players and print it",
        description="Play one game in which every move is a seeded random choice among the "
                    "legal actions, and print it move by move in card notation. The same "
                    "seed gives the same deal and the same game.")
    add_rules_arguments(parser)
    parser.add_argument("--seed", metavar="S", type=count, default=None,
                        help="seed of the deal and of the players' choices, 0 or more "
                             "(default: random, printed so the game can be replayed; with "
                             "--quiet after the outcome)")
    parser.add_argument("--max-actions", type=count, default=DEFAULT_MAX_ACTIONS,
                        metavar="K", help="stop after K actions (default %(default)s)")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the outcome")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=_run_game)


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
        step = advance(state, action)
        actions += 1
        say(str(action))
        events.append(step.events[0].to_json())
        for transfer in step.of(Transferred):
            say(f"  P{transfer.defender} defends now")
        if step.bout_ended is not None:
            say(f"  {bout_end_text(step.events, len(step.state.stock))}")
            events.append(_bout_end_json(step))
        state = step.state

    outcome = state.outcome
    if not args.json:
        chosen_seed = f" (seed {seed})" if args.quiet and args.seed is None else ""
        print((f"Stopped after {actions} actions (--max-actions): the game is not over"
               if outcome is None else
               f"Outcome: {outcome} after {actions} actions in {state.bout} bouts")
              + (chosen_seed or ("." if outcome is None else "")))
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


def _bout_end_json(step: Step) -> dict[str, object]:
    """The end of a bout in the log's JSON: the engine's events of it in one object."""
    ended = step.bout_ended
    assert ended is not None
    return {
        "type": "bout-end", "bout": ended.bout, "result": ended.result, "taker": ended.taker,
        "cards": [str(c) for c in ended.cards],
        "draws": [{"player": d.player, "cards": [str(c) for c in d.cards]}
                  for d in step.of(Drew)],
        "stock": len(step.state.stock),
        "out": [seat for out in step.of(WentOut) for seat in out.players],
    }


def _silent(_: str) -> None:
    pass
