#!/usr/bin/env python3
"""Load a position and ask, for every player, what they see and what they may do.

Teaches: durak_spec.player_view (VIEW-1, VIEW-2: what one player sees; VIEW-3: their
playable moves are exactly their legal actions), the moves in words (open, throw in,
cover, transfer, take, done), and positions as files: --save writes the position as a
``durak-spec/state`` document, --position loads one (your own, too), checked on loading.

Run:  python examples/07_what_may_each_player_do.py [--save pos.json | --position pos.json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from durak_spec import GameState, Suit, apply, format_cards, parse_action, player_view, throwers
from durak_spec.game.persist import state_from_json, state_to_json
from durak_spec.game.positions import Position, parse_card_list, parse_table

WORDS = {  # a move's first word: what it means at the table, and the rule that allows it
    "open": "open the bout (ATTACK-1)", "throw": "add a card of a rank on the table (ATTACK-3)",
    "cover": "beat an attack card (BEAT-1..3)", "take": "take every card on the table (TAKE-1)",
    "transfer": "pass the attack on to the next player (TRANSFER-1)",
    "show": "transfer by showing a trump (TRANSFER-7)", "exchange": "swap the trump six (VAR-1)",
    "done": "add nothing more; \"beaten\" (ATTACK-5)"}


def describe(state: GameState) -> None:
    """Print every seat's view of the position and its legal moves, grouped by kind."""
    if state.outcome is not None:
        print(f"The game is over: {state.outcome}")
    for seat in range(state.players):
        v = player_view(state, seat)  # only what this seat may know, plus its own moves
        role = ("out" if seat in v.out else "durak" if v.outcome else
                "attacker" if seat == v.attacker else "defender" if seat == v.defender else
                "may throw in" if seat in throwers(state) else "waits")
        others = []  # of another hand one sees its size, and the cards known to all (VIEW-2)
        for other, size in enumerate(v.hand_sizes):
            if other != seat:
                known = f" (known: {format_cards(v.known[other])})" if v.known[other] else ""
                others.append(f"P{other}: {size} cards{known}")
        hand = format_cards(v.hand) or "no cards"
        print(f"P{seat} ({role}) holds {hand}; sees {'; '.join(others)}")
        print(f"  table {'  '.join(map(str, v.table)) or '(empty)'}, trump {v.trump.symbol}"
              f" (face-up {v.face_up or 'drawn'}), stock {v.stock}, discard {v.discard}")
        moves: dict[str, list[str]] = {}
        for action in v.playable:
            moves.setdefault(action.move.split()[0], []).append(action.move)
        print("  may:" if moves else "  may do nothing now")
        for word, listed in moves.items():
            print(f"    {', '.join(listed)}  -- {WORDS[word]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="What may each player do?")
    parser.add_argument("--position", help="load a durak-spec/state JSON file instead")
    parser.add_argument("--save", help="write the example position to this JSON file")
    args = parser.parse_args(argv)
    if args.position:
        try:
            state = state_from_json(json.loads(Path(args.position).read_text(encoding="utf-8")))
        except (OSError, ValueError) as error:  # unreadable, not JSON, or a SavedGameError
            # (a SavedGameError names the place in the file and the rule it breaks)
            print(f"cannot load {args.position}: {error}")
            return 2
    else:  # the transfer game: Anna (P0) attacks Boris (P1) with 8♠; Vera (P2) sits next
        state = (Position().with_profile("classic-transfer").with_players(["Anna", "Boris", "Vera"])
                 .with_trump(Suit.HEARTS).with_table(parse_table("8♠ uncovered"))
                 .with_hand("Anna", parse_card_list("8♣"), size=5)
                 .with_hand("Boris", parse_card_list("8♥ 10♠"), size=6)
                 .with_hand("Vera", parse_card_list("8♦"), size=6).build())
    if args.save:
        Path(args.save).write_text(json.dumps(state_to_json(state), ensure_ascii=False),
                                   encoding="utf-8")
        print(f"position saved to {args.save}")
    print("== The position")
    describe(state)
    if not args.position:  # once Boris has beaten 8♠, the others may add or say done
        print("\n== After P1 cover 8♠ with 10♠")
        describe(apply(state, parse_action("P1 cover 8♠ with 10♠")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
