#!/usr/bin/env python3
"""Four players, several attackers: who may act when, "done", and who draws first after.

Teaches: ATTACK-4 (everyone but the defender may throw in), the bout protocol (CLAR-16:
legal_actions lists every player who may act now, first come first served; CLAR-3:
attackers say done once every card is covered, and the bout ends when no one who could
add a card is left),
ORDER-4 (a defender who beats everything attacks next) and DRAW-2 (the attacker draws
first and the defender last; source D draws in the order players joined the attack).

Run:  python examples/06_four_players_several_attackers.py [--out picture.svg]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from durak_spec import Suit, apply, format_cards, legal_actions, parse_action
from durak_spec.game.positions import Position, parse_card_list
from durak_spec.game.svg import position_svg

NAMES = ("Anna", "Boris", "Vera", "Gleb")  # seats P0..P3, clockwise; Anna attacks Boris
HANDS = {"Anna": "7♣ 10♦ 6♣ 8♣ Q♣ 6♥", "Boris": "9♣ 10♠ J♠ 6♦ 8♦ Q♦",
         "Vera": "9♠ 6♠ 8♠ Q♠ K♣ 8♥", "Gleb": "7♠ J♦ K♦ K♠ Q♥ A♣"}
STOCK_TOP = "A♦ A♠ K♥ J♣ 10♣ 9♦"  # the next six cards of the stock, first drawn first
MOVES = ("P0 open 7♣", "P3 throw 7♠", "P1 cover 7♣ with 9♣", "P2 throw 9♠",
         "P1 cover 7♠ with 10♠", "P1 cover 9♠ with J♠", "P0 done", "P3 done")


def play(profile_name: str, picture: Path | None = None) -> None:
    """Play MOVES under the profile; print who may act after each, then who drew what."""
    position = Position().with_profile(profile_name).with_players(NAMES).with_trump(Suit.HEARTS)
    for name, cards in HANDS.items():
        position = position.with_hand(name, parse_card_list(cards))
    state = position.with_stock_top(parse_card_list(STOCK_TOP)).with_attack("Anna").build()
    print(f"== {profile_name} (draw_order={state.rules.draw_order.value}): hearts are trump, "
          "Anna (P0) attacks Boris (P1)")
    for move in MOVES:
        before, state = state, apply(state, parse_action(move))
        kinds: dict[int, list[str]] = {}  # seat -> the kinds of move it may make now
        for action in legal_actions(state):
            kinds.setdefault(action.player, []).append(action.kind)
        acting = ", ".join(f"P{s} {'/'.join(dict.fromkeys(k))}" for s, k in kinds.items())
        table = "  ".join(map(str, state.table)) or "(cleared)"
        print(f"  {move:<21} table: {table:<20} may act now: {acting}")
        if picture is not None and move == "P2 throw 9♠":  # two players have thrown in
            picture.write_text(position_svg(state, names=NAMES), encoding="utf-8")
    # The last "done" ended the bout: the table went to the discard pile and everyone drew
    # up to six (DRAW-1). The stacked stock shows the order in which they drew.
    drawn = {seat: sorted(set(state.hands[seat]) - set(before.hands[seat]),
                          key=before.stock.index) for seat in range(len(NAMES))}
    order = sorted((s for s in drawn if drawn[s]), key=lambda s: before.stock.index(drawn[s][0]))
    print("  drawing order: " + ", ".join(f"P{s} {format_cards(drawn[s])}" for s in order))
    print(f"  next: P{state.attacker} attacks P{state.defender} (ORDER-4)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A four-player bout with several attackers.")
    parser.add_argument("--out", help="where to write the SVG picture of the bout")
    args = parser.parse_args(argv)
    out = Path(args.out) if args.out else \
        Path(tempfile.gettempdir()) / "durak-spec-examples" / "06_four_players.svg"
    out.parent.mkdir(parents=True, exist_ok=True)
    play("classic-throw-in", out)  # draw_order = attacker-first (sources A, B, C)
    print(f"  (picture after two throw-ins: {out})\n")
    play("source-d")  # draw_order = join-order: Gleb joined the attack before Vera
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
