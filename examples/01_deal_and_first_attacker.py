#!/usr/bin/env python3
"""Deal a game and see who attacks first, and why.

Teaches: the deal (DEAL-1, DEAL-4, DEAL-5, DEAL-6; DEAL-8 with six players), the lowest
trump leads (ORDER-1), the defender sits on the attacker's left (ORDER-3), and what
happens when nobody was dealt a trump (ORDER-2, a switch of the rule set).

Run:  python examples/01_deal_and_first_attacker.py [--players 2-6] [--seed N] [--out F.svg]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from durak_spec import DECK, NoTrumpLead, Suit, first_attacker, format_cards, new_game, profile
from durak_spec.game.svg import position_svg


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Deal a game; who attacks first and why.")
    parser.add_argument("--players", type=int, choices=range(2, 7), default=4)
    parser.add_argument("--seed", type=int, default=7, help="the shuffle (same seed, same deal)")
    parser.add_argument("--out", help="where to write the SVG picture of the deal")
    args = parser.parse_args(argv)

    # 1. A seeded deal: profile -> rule set -> new_game. The seed fixes the shuffle.
    rules = profile("classic-throw-in").rules(players=args.players)
    state = new_game(rules, seed=args.seed)
    print(f"== A deal for {args.players} players (classic-throw-in, seed {args.seed})")
    for seat, hand in enumerate(state.hands):
        trumps = [card for card in hand if card.suit == state.trump]
        print(f"  P{seat}: {format_cards(hand):<20} trumps: {format_cards(trumps) or 'none'}")
    if state.face_up is not None:  # the face-up card is the stock's last card
        print(f"Face-up card: {state.face_up}, so {state.trump.label} are trump; "
              f"the stock holds {len(state.stock)} cards (DEAL-5, DEAL-6)")
    else:  # six players: every card is dealt, the last one shows trump and stays in hand
        (last,) = state.known[5]
        print(f"All 36 cards are dealt; the last one, {last}, stays with P5 and makes "
              f"{state.trump.label} trump (DEAL-8)")
    # first_attacker gives the seat *and* the reason, with the rule ID.
    seat, why = first_attacker(state.hands, state.trump, rules, args.seed)
    print(f"P{seat} attacks first: {why}")
    print(f"P{state.defender} defends: the attacker's left-hand neighbour (ORDER-3)")

    # 2. A stacked deck (CLAR-10: cards leave the deck in list order, six per player).
    #    Two players get twelve non-hearts; the last card, A♥, is turned up: nobody
    #    holds a trump, and ORDER-2 decides.
    deck = [c for c in DECK if c.suit != Suit.HEARTS] + [c for c in DECK if c.suit == Suit.HEARTS]
    chance = profile("classic-throw-in").rules(players=2)
    first_seat = chance.replace(no_trump_lead=NoTrumpLead.FIRST_SEAT)
    stacked = new_game(chance, deck=deck)
    print(f"\n== Nobody holds a trump ({stacked.face_up} turned up)")
    for seat, hand in enumerate(stacked.hands):
        print(f"  P{seat}: {format_cards(hand)}")
    note = profile("classic-throw-in").origin("no_trump_lead").note
    print(f"classic-throw-in, no_trump_lead=chance ({note}):")
    for seed in (0, 1, 5, 7):  # four seeds; chance gives either seat
        print(f"  seed {seed}: " + first_attacker(stacked.hands, stacked.trump, chance, seed)[1])
    print("the same rules with no_trump_lead=first-seat:")
    print("  " + first_attacker(stacked.hands, stacked.trump, first_seat)[1])

    # 3. A picture of the seeded deal (never written into the project by default).
    out = Path(args.out) if args.out else \
        Path(tempfile.gettempdir()) / "durak-spec-examples" / "01_deal.svg"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(position_svg(state), encoding="utf-8")
    print(f"\nPicture of the deal: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
