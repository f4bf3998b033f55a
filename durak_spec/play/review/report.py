"""A review as a learner reads it (layer 7): text, JSON, and one SVG picture per marked
move showing the position as the mover saw it with the better move drawn.

The text names each marked move, its one-line reason, the tip it went against with the
pages of the rules website that state and test the tip (relative to the site's root:
``tips.html#TIP-2``, ``tips-evidence.html#evidence-TIP-2``), and the position as a text
board from the mover's side. :func:`move_svg` draws the same position with
:func:`~durak_spec.game.svg.position_svg` (the other hands face down, the mover's
unplayable cards veiled, the better move's cards outlined in blue) under a caption that
names the move played and the better one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from durak_spec.core.cards import format_cards
from durak_spec.game.markup import element
from durak_spec.game.svg import SvgText, position_svg, svg_document, svg_number
from durak_spec.game.view import PlayerView
from durak_spec.play.review.coach import MoveReview, Review

__all__ = ["board_lines", "move_svg", "named", "svg_name", "to_json_text", "to_text"]

_CAPTION = 46
_SEAT = re.compile(r"\bP([0-9])\b")
_VIEWBOX = re.compile(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"')


def _seats(seats: tuple[int, ...]) -> str:
    return ", ".join(f"P{s}" for s in seats)


def board_lines(seen: PlayerView) -> list[str]:
    """The position as ``seen.seat`` saw it, as a few lines of text."""
    face_up = f", face-up {seen.face_up}" if seen.face_up is not None else ""
    lines = [f"trump {seen.trump.symbol}{face_up}; stock {seen.stock}; "
             f"discard {seen.discard}; bout {seen.bout + 1}"]
    table = "  ".join(f"{p.attack}/{p.cover}" if p.cover is not None else f"{p.attack}/-"
                      for p in seen.table)
    lines.append("table: " + (table or "empty") + ("  (taking)" if seen.taking else ""))
    for seat in range(seen.players):
        role = ("attacker" if seat == seen.attacker else
                "defender" if seat == seen.defender else "")
        if seat in seen.out:
            role = "out"
        who = f"P{seat}" + (f" ({role})" if role else "")
        if seat == seen.seat:
            lines.append(f"{who}, the mover: {format_cards(seen.hand) or 'no cards'}")
        else:
            known = seen.known[seat]
            lines.append(f"{who}: {seen.hand_sizes[seat]} cards"
                         + (f", known {format_cards(known)}" if known else ""))
    return lines


def _move_lines(number: int, move: MoveReview, svg: str | None) -> list[str]:
    lines = [f"{number}. Move {move.index + 1} (bout {move.seen.bout + 1}), P{move.seat}: "
             f"{round(100 * move.drop)} points lost",
             f"   {move.reason}"]
    if move.tip is not None:
        lines.append(f"   Tip {move.tip.id}, {move.tip.title}: read {move.tip.link}, "
                     f"evidence {move.tip.evidence}")
    lines.extend(f"   | {line}" for line in board_lines(move.seen))
    lines.append(f"   better: {move.better.action.move}"
                 + (f"  (picture: {svg})" if svg is not None else ""))
    return lines


def to_text(result: Review, *, pictures: dict[int, str] | None = None) -> str:
    """The review for a reader; ``pictures`` maps a marked move's index to its SVG file."""
    durak = result.outcome.durak
    head = [f"Review of a game of {result.players} players: "
            + (f"P{durak} was the durak" if durak is not None else str(result.outcome)),
            f"Seats reviewed: {_seats(result.seats)}; {len(result.moves)} decisions weighed "
            f"by the {result.evaluator} evaluator (seed {result.seed})"
            + (f"; {result.skipped} could not be weighed" if result.skipped else "")]
    if not result.marked:
        return "\n".join([*head, "", "No move cost a clear chance of escaping: "
                          "every move played was as good as the alternatives found."])
    lines = [*head, "", f"The {len(result.marked)} costliest moves (chance of not being "
             "the durak, from what the mover knew):"]
    for number, move in enumerate(result.marked, start=1):
        lines.append("")
        lines.extend(_move_lines(number, move, (pictures or {}).get(move.index)))
    lines.append("")
    lines.append("Tip pages are on the rules website (durak-spec book builds it).")
    return "\n".join(lines)


def to_json_text(result: Review) -> str:
    """The review as a JSON document (``"format": "durak-spec/review"``)."""
    return json.dumps(result.to_json(), ensure_ascii=False, indent=1)


def named(text: str, names: Sequence[str] | None) -> str:
    """``text`` with the seat codes (``P0``) of the coach's reasons as the players'
    ``names`` (unchanged without names, or for a seat without one)."""
    if not names:
        return text
    return _SEAT.sub(lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names)
                     else m.group(0), text)


def svg_name(move: MoveReview) -> str:
    """The file name of a marked move's picture (``move-007.svg``)."""
    return f"move-{move.index + 1:03d}.svg"


def move_svg(move: MoveReview, names: Sequence[str] | None = None) -> SvgText:
    """The position before ``move`` as the mover saw it, the better move's cards
    outlined, under a caption naming the move played and the better one; ``names`` (one per
    seat) name the players instead of their seat codes (``P0``)."""
    seat = move.seat
    inner = str(position_svg(move.state, seat=seat, names=names, playable_for=seat,
                             show_all=False, highlight=move.better.action.cards))
    size = _VIEWBOX.search(inner)
    if size is None:  # position_svg always writes one
        raise AssertionError("position_svg wrote no viewBox")
    width, height = float(size.group(1)), float(size.group(2))
    who = named(f"P{seat}", names)
    body = inner[inner.index(">") + 1:inner.rindex("</svg>")]
    nested = (f'<svg x="0" y="{svg_number(_CAPTION)}" width="{svg_number(width)}" '
              f'height="{svg_number(height)}" viewBox="0 0 {size.group(1)} {size.group(2)}">'
              f"{body}</svg>")
    caption = [
        element("text", f"Move {move.index + 1}: {who} played {move.played.action.move} "
                f"({round(100 * move.played.chance)} %)", x="12", y="18", font_size="13"),
        element("text", f"Better: {move.better.action.move} "
                f"({round(100 * move.better.chance)} %)"
                + (f", {move.tip.id}" if move.tip is not None else ""),
                x="12", y="37", font_size="13", font_weight="bold", fill="#1e88e5"),
    ]
    title = f"Move {move.index + 1}: better {move.better.action.move}"
    return svg_document(width, height + _CAPTION, title, named(move.reason, names),
                        [*caption, nested],
                        max_width=width * 1.2, background="#ffffff", cls="durak-review-svg")
