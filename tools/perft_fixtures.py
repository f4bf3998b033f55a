"""Regenerate the perft data files (``durak_spec/data/perft/*.json``) from the reference.

Run from a clone (this folder is not part of the wheel)::

    python tools/perft_fixtures.py [--dir DIR] [--budget N]

Deals are stacked from the definitions below; positions from within games are the
first of each kind of :data:`~durak_spec.conformance.perft.games.GAME_POSITIONS` that a
seeded random game reaches. Every count is the reference's, to the depth whose tree
visits at most ``budget`` positions.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from durak_spec.conformance.perft.counting import DEFAULT_BUDGET, deepest
from durak_spec.conformance.perft.games import GAME_POSITIONS, reach
from durak_spec.conformance.perft.positions import PerftPosition, dump_positions
from durak_spec.core.cards import DECK, Card, parse_card, parse_cards
from durak_spec.core.cliargs import CommandError
from durak_spec.core.outfiles import OutputFile, check_output_folder
from durak_spec.engine import deck_order, new_game
from durak_spec.model.rules import RuleSet, ThrowIn, profile

CLONE_DATA = Path(__file__).resolve().parents[1] / "durak_spec" / "data" / "perft"
"""The data folder of the clone this script lies in."""


def stacked_deck(players: int, hands: Sequence[str] = (), face_up: str | None = None,
                 seed: int = 0) -> tuple[Card, ...]:
    """A deck order (CLAR-10) that deals ``hands`` (six cards each, for the first seats)
    and shows trump with ``face_up``; the other cards follow in a seeded shuffle. With six
    players every card is dealt and ``face_up`` must be in the sixth hand: it is dealt last."""
    dealt = [list(parse_cards(hand)) for hand in hands]
    if len(dealt) > players or any(len(hand) != 6 for hand in dealt):
        raise ValueError(f"give at most {players} hands of six cards each")
    last = parse_card(face_up) if face_up is not None else None
    used = [c for hand in dealt for c in hand]
    if len(set(used)) != len(used):
        raise ValueError("a card is dealt twice")
    rest = [c for c in DECK if c not in used and c != last]
    random.Random(seed).shuffle(rest)
    for _ in range(players - len(dealt)):
        dealt.append([rest.pop() for _ in range(6)])
    if players == 6:
        return deck_order(dealt, trump_card=last)
    return deck_order(dealt, rest[:-1] if last is None else rest,
                      trump_card=rest[-1] if last is None else last)


_CLASSIC = profile("classic-throw-in")
_TRANSFER = profile("classic-transfer")

# The positions of the data files: (file, id, rules, hands, face-up card, note). Seats
# without a hand get cards from a seeded shuffle; the seed of every position is 0.
DEFINITIONS: tuple[tuple[str, str, RuleSet, tuple[str, ...], str | None, str], ...] = (
    ("throw-in", "throw-in-2p", _CLASSIC.rules(2),
     ("6♥ 7♣ 7♦ 9♠ 9♦ K♣", "8♣ 8♦ 7♠ 10♠ J♥ A♣"), "Q♥",
     "P0 leads with the lowest trump; sevens and nines to throw in"),
    ("throw-in", "throw-in-3p", _CLASSIC.rules(3),
     ("8♠ 9♠ 10♣ J♣ Q♦ A♦", "6♠ 7♥ 8♣ 8♦ J♦ K♠", "6♣ 6♦ 8♥ 9♣ 10♦ Q♣"), "A♥",
     "P1 leads (7♥); both others may throw in"),
    ("throw-in", "throw-in-4p", _CLASSIC.rules(4),
     ("6♣ 7♣ 7♠ 10♦ Q♣ K♦", "6♦ 8♣ 9♣ J♠ Q♠ A♣", "6♠ 7♦ 8♦ 9♥ 10♣ J♦",
      "6♥ 8♠ 9♦ 10♠ K♣ A♠"), "K♥",
     "P3 leads against P0; sixes are spread over three hands"),
    ("throw-in", "throw-in-6p", _CLASSIC.rules(6),
     ("6♣ 6♦ 9♠ J♣ Q♦ A♣", "7♣ 7♦ 8♠ 10♣ K♦ A♠", "6♠ 7♠ 9♣ 10♦ Q♣ K♠",
      "8♣ 8♦ 9♦ 10♠ J♦ Q♠", "7♥ 9♥ J♠ K♣ A♦ 6♥", "8♥ 10♥ J♥ Q♥ K♥ A♥"), "A♥",
     "six players, no stock: the ace of trumps dealt last shows trump (DEAL-8)"),
    ("transfer", "transfer-2p", _TRANSFER.rules(2),
     ("6♥ 7♣ 7♦ 9♠ 10♦ K♣", "7♠ 7♥ 8♣ 9♦ J♠ A♣"), "Q♥",
     "sevens can be transferred back and forth between the two players"),
    ("transfer", "transfer-3p", _TRANSFER.rules(3),
     ("8♠ 8♦ 10♣ J♣ Q♦ A♦", "6♠ 7♥ 8♣ 9♠ J♦ K♠", "6♣ 6♦ 8♥ 9♣ 10♦ Q♣"), "A♥",
     "P1 leads; sixes and eights can go round the table"),
    ("transfer", "transfer-4p", _TRANSFER.rules(4),
     ("7♣ 8♣ 9♣ Q♣ K♦ 10♦", "7♦ 8♦ 9♦ J♠ Q♠ A♣", "7♥ 8♥ 9♥ 6♠ 10♣ J♦",
      "6♥ 7♠ 8♠ 10♠ K♣ A♠"), "K♥",
     "every player holds a seven, an eight and (but P3) a nine: long transfer chains"),
    ("transfer", "transfer-6p", _TRANSFER.rules(6),
     ("6♣ 6♦ 9♠ J♣ Q♦ A♣", "7♣ 7♦ 8♠ 10♣ K♦ A♠", "6♠ 7♠ 9♣ 10♦ Q♣ K♠",
      "8♣ 8♦ 9♦ 10♠ J♦ Q♠", "7♥ 9♥ J♠ K♣ A♦ 6♥", "8♥ 10♥ J♥ Q♥ K♥ A♥"), "A♥",
     "six players with transfers; TRANSFER-3 limits who can be passed to"),
    ("variants", "source-b-multi-open-2p", profile("source-b").rules(2),
     ("6♥ 8♣ 8♦ 8♠ 10♣ 10♦", "7♣ 9♣ 9♦ J♠ Q♣ A♦"), "J♥",
     "source B: open with one card or several of a rank (ATTACK-2), start-hand limit"),
    ("variants", "trump-exchange-2p", _CLASSIC.rules(2).replace(trump_exchange=True),
     ("6♥ 7♣ 8♦ 9♠ J♣ K♦", "7♦ 8♣ 10♠ J♠ Q♣ A♣"), "A♥",
     "the six of trumps may be swapped for the face-up ace (VAR-1) before opening"),
    ("variants", "source-d-transfer-3p", profile("source-d-transfer").rules(3),
     ("8♠ 8♦ 10♣ J♣ Q♦ A♦", "6♠ 7♥ 8♣ 9♠ J♦ K♠", "6♣ 6♦ 8♥ 9♣ 10♦ Q♣"), "A♥",
     "source D: start-hand limit, drawing in the order of joining the attack"),
    ("variants", "show-trump-3p", _TRANSFER.rules(3).replace(transfer_by_showing_trump=True),
     ("8♠ 8♦ 10♣ J♣ Q♦ A♦", "6♠ 7♥ 8♣ 9♠ J♦ K♠", "6♣ 6♦ 8♥ 9♣ 10♦ Q♣"), "A♥",
     "transfer by showing a trump of the rank (TRANSFER-7): P2 may show 8♥"),
    ("variants", "neighbours-4p", _CLASSIC.rules(4).replace(throw_in=ThrowIn.NEIGHBOURS),
     ("6♣ 7♣ 7♠ 10♦ Q♣ K♦", "6♦ 8♣ 9♣ J♠ Q♠ A♣", "6♠ 7♦ 8♦ 9♥ 10♣ J♦",
      "6♥ 8♠ 9♦ 10♠ K♣ A♠"), "K♥",
     "only the attacker and the defender's left-hand neighbour throw in (ATTACK-4)"),
)


def _file_names() -> list[str]:
    """The names of the data files :func:`generate` writes, in order."""
    names = dict.fromkeys(definition[0] for definition in DEFINITIONS)
    if GAME_POSITIONS:
        names["whole-game"] = None
    return list(names)


def generate(directory: Path | None = None, *, budget: int = DEFAULT_BUDGET) -> list[Path]:
    """Write the data files from :data:`DEFINITIONS` and the kinds of positions from games,
    counted by the reference, into ``directory`` (default: the clone's data folder); the
    paths written.

    The folder and every file are checked and opened before the counting starts: a
    ``CommandError`` names what cannot be written (a file in place of the folder, a FIFO
    or a device in place of a file), so a long count never ends in a file it cannot write.
    """
    directory = check_output_folder(directory or CLONE_DATA, "--dir")
    with contextlib.ExitStack() as stack:
        outputs = {name: stack.enter_context(OutputFile(directory / f"{name}.json", "--dir"))
                   for name in _file_names()}
        files: dict[str, list[PerftPosition]] = {name: [] for name in outputs}
        for name, ident, rules, hands, face_up, note in DEFINITIONS:
            deck = stacked_deck(rules.players, hands, face_up)
            state = new_game(rules, deck=deck, seed=0)
            counts = deepest(state, budget)
            files[name].append(PerftPosition(ident, rules, deck, 0, counts, note))
        for ident, rules, wanted, note in GAME_POSITIONS:
            deck, moves = reach(rules, wanted)
            position = PerftPosition(ident, rules, deck, 0, (), note, moves)
            files["whole-game"].append(
                replace(position, counts=deepest(position.start(), budget)))
        for name, positions in files.items():
            outputs[name].write(dump_positions(positions))
    return [output.path for output in outputs.values()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python tools/perft_fixtures.py",
        description="Rewrite the perft data files from the reference implementation.")
    parser.add_argument("--dir", type=Path, default=None,
                        help=f"write here instead of {CLONE_DATA}")
    parser.add_argument("--budget", metavar="N", type=int, default=DEFAULT_BUDGET,
                        help=f"the most positions visited per deal (default {DEFAULT_BUDGET})")
    args = parser.parse_args(argv)
    if args.budget < 1:
        parser.error(f"--budget must be a positive whole number, not {args.budget}")
    try:
        written = generate(args.dir, budget=args.budget)
    except CommandError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return error.status
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
