"""Pictures of cards and positions as standalone SVG text (layer 4, like python-chess's chess.svg).

Everything is drawn here: the suit symbols are paths, not font glyphs, so a picture needs
no external asset, no network and nothing beyond the standard library. Every function
returns :class:`SvgText`, a ``str`` that Jupyter displays as a picture (``_repr_svg_``),
so the rules book shows a position by evaluating ``position_svg(state)`` in a cell.

* :func:`card_svg` draws one card, :func:`card_back_svg` a face-down card.
* :func:`hand_svg` draws a row of cards, :func:`table_svg` the attack cards of a bout
  with their covers.
* :func:`position_svg` draws a whole position: every player's hand labelled with name
  and role, the table, the stock with the face-up trump under it, and the discard.

Playable cards follow VIEW-3: with ``playable_for=seat``, a grey veil (class ``dim``)
covers every card of that seat that none of its legal actions uses
(:func:`playable_cards`, straight from :func:`~durak_spec.engine.legal_actions`), so
the unveiled cards are exactly the ones it may play. Every card of the trump suit is
framed with a thick gold line (class ``trump``). Marking playable cards and trumps
follows the interface that source A describes. Hidden hands (``show_all=False``) show
card backs, except the cards every player knows (VIEW-2), which stay face up.

Accessibility: every picture has ``role="img"``, a ``<title>``, a ``<desc>`` and an
``aria-label`` that says in words what it shows ("Anna (attacker) holds 7♣, 9♣; ...");
every card group has a ``<title>`` that starts with the card's notation and carries the
card in ``data-card``. Pictures use a ``viewBox`` with ``width="100%"``, so they scale to
their container; no element has an ``id``, so many pictures can share one HTML page.

Classes that tests and style sheets can rely on: ``card`` (a face-up card, with ``dim``,
``trump``, ``highlight`` added as they apply), ``card-back``, ``hand`` (with
``data-seat``), ``table``, ``pair``, ``stock``, ``trump-indicator``, ``discard``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from types import MappingProxyType
from xml.sax.saxutils import escape, quoteattr

from durak_spec.core.cards import Card, Rank, Suit, parse_card
from durak_spec.core.errors import DurakError
from durak_spec.engine import legal_actions
from durak_spec.game.markup import Markup, element
from durak_spec.model.actions import Action, Done, ExchangeTrump, Take
from durak_spec.model.state import GameState, Pair

__all__ = [
    "SvgText",
    "card_back_svg",
    "card_svg",
    "describe_position",
    "hand_svg",
    "playable_cards",
    "position_svg",
    "svg_document",
    "svg_line",
    "svg_number",
    "svg_text",
    "table_svg",
]


SvgText = Markup
"""SVG source text: the package's one display class (:class:`~durak_spec.game.markup.Markup`),
which Jupyter shows as HTML, and inline SVG in HTML is a picture."""


# -- geometry and colours -------------------------------------------------------------------

CARD_W = 60
CARD_H = 84
_RADIUS = 6
_GAP = 8
_MARGIN = 12
_COVER_DX = 16  # a cover lies on its attack card, shifted right and down
_COVER_DY = 22
_PAIR_STEP = CARD_W + _COVER_DX + 16
_HAND_STEP = CARD_W + 6
_HAND_FULL = 8  # up to this many cards a hand is laid out without overlap
_MIN_STEP = 24  # the narrowest overlap that still shows a card's corner index
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

_RED = "#c62828"
_BLACK = "#1b1b1b"
_FACE = "#ffffff"
_EDGE = "#6b6b6b"
_GOLD = "#d4a017"
_HIGHLIGHT = "#1e88e5"
_DIM = "#4a4a4a"
_BACK = "#2c4a86"
_BACK_EDGE = "#1a2d52"
_FELT = "#e8f1ea"
_MUTED = "#5f6b66"

# Suit symbols as paths in a 100 x 100 box (no font needed).
_HEART = ("M50 92 C38 80 4 58 4 32 C4 15 16 6 29 6 C39 6 46 12 50 21 "
          "C54 12 61 6 71 6 C84 6 96 15 96 32 C96 58 62 80 50 92 Z")
_DIAMOND = "M50 2 L86 50 L50 98 L14 50 Z"
_SPADE = ("M50 4 C62 22 96 40 96 64 C96 78 86 86 74 86 C65 86 58 81 54 74 "
          "C55 84 59 92 66 98 L34 98 C41 92 45 84 46 74 C42 81 35 86 26 86 "
          "C14 86 4 78 4 64 C4 40 38 22 50 4 Z")


def _circle_path(cx: float, cy: float, r: float) -> str:
    return (f"M{cx - r:g} {cy:g} a{r:g} {r:g} 0 1 0 {2 * r:g} 0 "
            f"a{r:g} {r:g} 0 1 0 {-2 * r:g} 0 Z")


_CLUB = " ".join((
    _circle_path(50, 27, 21), _circle_path(27, 60, 21), _circle_path(73, 60, 21),
    _circle_path(50, 52, 11), "M46 60 C46 80 42 90 32 98 L68 98 C58 90 54 80 54 60 Z",
))
_SUIT_PATHS: Mapping[Suit, str] = MappingProxyType({
    Suit.CLUBS: _CLUB, Suit.DIAMONDS: _DIAMOND, Suit.HEARTS: _HEART, Suit.SPADES: _SPADE})
_RANK_WORDS: Mapping[Rank, str] = MappingProxyType({
    Rank.SIX: "six", Rank.SEVEN: "seven", Rank.EIGHT: "eight", Rank.NINE: "nine",
    Rank.TEN: "ten", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king",
    Rank.ACE: "ace"})


def _colour(suit: Suit) -> str:
    return _RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK


def _words(card: Card) -> str:
    """The card in words: ``"seven of clubs"``."""
    return f"{_RANK_WORDS[card.rank]} of {card.suit.label}"


def svg_number(value: float) -> str:
    """A coordinate as short text: ``12.5``, ``12``."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


_num = svg_number


def _attr(value: object) -> str:
    return quoteattr(str(value))


def svg_text(x: float, y: float, content: str, *, size: float = 13, fill: str = _BLACK,
             weight: str | None = None, anchor: str = "start", cls: str | None = None,
             halo: bool = False) -> Markup:
    """A ``<text>`` at (x, y); ``halo`` draws a white outline behind it (over lines)."""
    return element("text", content, x=svg_number(x), y=svg_number(y),
                   font_size=svg_number(size), fill=fill, font_weight=weight,
                   text_anchor=None if anchor == "start" else anchor, class_=cls,
                   stroke="#ffffff" if halo else None, stroke_width="3" if halo else None,
                   paint_order="stroke" if halo else None)


_text = svg_text


def svg_line(x1: float, y1: float, x2: float, y2: float, stroke: str, width: float = 1,
             dash: str | None = None, opacity: float | None = None) -> Markup:
    """A ``<line>`` from (x1, y1) to (x2, y2)."""
    return element("line", x1=svg_number(x1), y1=svg_number(y1), x2=svg_number(x2),
                   y2=svg_number(y2), stroke=stroke, stroke_width=svg_number(width),
                   stroke_dasharray=dash,
                   stroke_opacity=None if opacity is None else svg_number(opacity))


def _suit_shape(suit: Suit, x: float, y: float, size: float, fill: str | None = None) -> str:
    """The suit symbol as a path filling a ``size`` x ``size`` box at (x, y)."""
    return (f'<path transform="translate({_num(x)} {_num(y)}) scale({_num(size / 100)})" '
            f'd="{_SUIT_PATHS[suit]}" fill="{fill or _colour(suit)}"/>')


# -- checking arguments ---------------------------------------------------------------------


def _as_card(value: object, where: str) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return parse_card(value)
    raise DurakError(f"{where} needs a card such as parse_card('7♣') or the text '7♣', "
                     f"not {value!r}")


def _as_cards(values: Iterable[object], where: str) -> tuple[Card, ...]:
    if isinstance(values, str):
        from durak_spec.core.cards import parse_cards

        return parse_cards(values)
    if not isinstance(values, Iterable):
        raise DurakError(f"{where} needs cards, such as '7♣ 9♣' or [parse_card('7♣')], "
                         f"not {values!r}")
    return tuple(_as_card(v, where) for v in values)


def _check_state(state: object, where: str) -> GameState:
    if not isinstance(state, GameState):
        raise DurakError(f"{where} draws a GameState (from new_game or apply), "
                         f"not {type(state).__name__}")
    return state


def _check_seat(state: GameState, seat: object, what: str) -> int | None:
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise DurakError(f"{what}={seat!r} is not a seat of this {state.players}-player game; "
                         f"seats are 0 to {state.players - 1}")
    return seat


def _check_names(state: GameState, names: Sequence[str] | Mapping[int, str] | None
                 ) -> tuple[str, ...]:
    default = [f"P{p}" for p in range(state.players)]
    if names is None:
        return tuple(default)
    if isinstance(names, Mapping):
        for key, value in names.items():
            _check_seat(state, key, "a key of names")
            if not isinstance(value, str) or not value.strip():
                raise DurakError(f"the name of P{key} must be non-empty text, not {value!r}")
            default[key] = value
        return tuple(default)
    if isinstance(names, str) or len(names) != state.players:
        raise DurakError(f"names must list one name per seat ({state.players} names), "
                         f"not {names!r}")
    for seat, value in enumerate(names):
        if not isinstance(value, str) or not value.strip():
            raise DurakError(f"the name of P{seat} must be non-empty text, not {value!r}")
    return tuple(names)


# -- VIEW-3: what a seat may play --------------------------------------------------------------


def _seat_actions(state: GameState, seat: int) -> tuple[Action, ...]:
    return tuple(a for a in legal_actions(state) if a.player == seat)


def playable_cards(state: GameState, seat: int) -> frozenset[Card]:
    """The cards used by ``seat``'s legal actions now (VIEW-3): the cards it may play.

    A cover uses its covering card, a transfer (played or shown) its card, an opening
    every card it opens with, a trump exchange the six of trumps.
    """
    state = _check_state(state, "playable_cards")
    checked = _check_seat(state, seat, "seat")
    assert checked is not None
    return _cards_of(_seat_actions(state, checked), state.trump)


def _cards_of(actions: Iterable[Action], trump: Suit) -> frozenset[Card]:
    cards: set[Card] = set()
    for action in actions:
        cards.update(action.cards)
        if isinstance(action, ExchangeTrump):
            cards.add(Card(Rank.SIX, trump))
    return frozenset(cards)


_MOVE_WORDS: Mapping[str, str] = MappingProxyType(
    {"take": "take", "done": "say done", "exchange": "exchange the trump six"})


def _other_moves(actions: Iterable[Action]) -> tuple[str, ...]:
    """The seat's legal moves that need no choice of card, in words (take, say done, ...)."""
    names: list[str] = []
    for action in actions:
        if isinstance(action, Take | Done | ExchangeTrump):
            words = _MOVE_WORDS[action.kind]
            if words not in names:
                names.append(words)
    return tuple(names)


# -- one card ----------------------------------------------------------------------------------


def _card_group(card: Card, x: float, y: float, *, dim: bool = False, highlight: bool = False,
                trump: bool = False, rotate: float = 0, note: str = "") -> str:
    """One face-up card as a ``<g class="card">`` whose top-left corner is at (x, y)."""
    classes = ["card"] + [c for c, on in (("dim", dim), ("trump", trump),
                                          ("highlight", highlight)) if on]
    remarks = [r for r, on in (("trump", trump), ("cannot be played now", dim),
                               ("highlighted", highlight)) if on]
    if note:
        remarks.append(note)
    title = str(card) + (f" ({', '.join(remarks)})" if remarks else "")
    ink = _colour(card.suit)
    rank = card.rank.symbol
    transform = f"translate({_num(x)} {_num(y)})"
    if rotate:
        transform += f" rotate({_num(rotate)} {CARD_W / 2:g} {CARD_H / 2:g})"
    if card.rank == Rank.TEN:  # two digits: narrower, so the index stays in its corner
        index = (f'<text x="11.5" y="17" font-size="13.5" fill="{ink}" font-weight="bold" '
                 f'text-anchor="middle" letter-spacing="-1.5">10</text>')
    else:
        index = _text(11.5, 17, rank, size=15, fill=ink, weight="bold", anchor="middle")
    corner = index + _suit_shape(card.suit, 6, 21, 11)
    parts = [
        f'<g class={_attr(" ".join(classes))} data-card={_attr(card)} transform="{transform}">',
        f"<title>{escape(title)}</title>",
    ]
    if highlight:
        parts.append(f'<rect x="-3.5" y="-3.5" width="{CARD_W + 7}" height="{CARD_H + 7}" '
                     f'rx="{_RADIUS + 3}" fill="none" stroke="{_HIGHLIGHT}" stroke-width="3"/>')
    if trump:
        parts.append(f'<rect x="1.5" y="1.5" width="{CARD_W - 3}" height="{CARD_H - 3}" '
                     f'rx="{_RADIUS - 1}" fill="{_FACE}" stroke="{_GOLD}" stroke-width="3"/>')
    else:
        parts.append(f'<rect x="0.5" y="0.5" width="{CARD_W - 1}" height="{CARD_H - 1}" '
                     f'rx="{_RADIUS}" fill="{_FACE}" stroke="{_EDGE}" stroke-width="1"/>')
    parts.append(corner)
    parts.append(f'<g transform="rotate(180 {CARD_W / 2:g} {CARD_H / 2:g})">{corner}</g>')
    parts.append(_suit_shape(card.suit, CARD_W / 2 - 15, CARD_H / 2 - 15, 30))
    if dim:
        parts.append(f'<rect x="0" y="0" width="{CARD_W}" height="{CARD_H}" rx="{_RADIUS}" '
                     f'fill="{_DIM}" fill-opacity="0.55"/>')
    parts.append("</g>")
    return "".join(parts)


def _back_group(x: float, y: float, *, rotate: float = 0, title: str = "a face-down card",
                count: int | None = None) -> str:
    """A face-down card; with ``count``, the number is written on it (a pile)."""
    transform = f"translate({_num(x)} {_num(y)})"
    if rotate:
        transform += f" rotate({_num(rotate)} {CARD_W / 2:g} {CARD_H / 2:g})"
    parts = [
        f'<g class="card-back" transform="{transform}"><title>{escape(title)}</title>',
        f'<rect x="0.5" y="0.5" width="{CARD_W - 1}" height="{CARD_H - 1}" rx="{_RADIUS}" '
        f'fill="{_BACK}" stroke="{_BACK_EDGE}" stroke-width="1"/>',
        f'<rect x="5" y="5" width="{CARD_W - 10}" height="{CARD_H - 10}" rx="3" fill="none" '
        f'stroke="#ffffff" stroke-opacity="0.55" stroke-width="1.5"/>',
        f'<path d="M{CARD_W / 2:g} 14 L{CARD_W - 12} {CARD_H / 2:g} L{CARD_W / 2:g} '
        f'{CARD_H - 14} L12 {CARD_H / 2:g} Z" fill="none" stroke="#ffffff" '
        f'stroke-opacity="0.45" stroke-width="1.5"/>',
    ]
    if count is not None:
        parts.append(f'<circle cx="{CARD_W / 2:g}" cy="{CARD_H / 2:g}" r="15" fill="#ffffff" '
                     f'fill-opacity="0.92"/>')
        parts.append(_text(CARD_W / 2, CARD_H / 2 + 5.5, str(count), size=16, fill=_BACK_EDGE,
                           weight="bold", anchor="middle"))
    parts.append("</g>")
    return "".join(parts)


def svg_document(width: float, height: float, title: str, label: str, body: Iterable[str],
                 *, max_width: float, background: str | None = None,
                 cls: str | None = None) -> SvgText:
    """A standalone SVG document around ``body`` (markup), scaling to its container up to
    ``max_width`` pixels, with a title, a description and an ``aria-label``."""
    backdrop = (element("rect", width=svg_number(width), height=svg_number(height), rx="10",
                        fill=background) if background else "")
    return Markup(element(
        "svg", element("title", title), element("desc", label), backdrop,
        Markup("".join(body)), xmlns="http://www.w3.org/2000/svg", version="1.1",
        viewBox=f"0 0 {svg_number(width)} {svg_number(height)}", width="100%",
        style=f"max-width:{svg_number(max_width)}px;height:auto", role="img",
        aria_label=label, font_family=_FONT, class_=cls))


_document = svg_document


def card_svg(card: Card | str, *, dim: bool = False, highlight: bool = False,
             trump: bool = False) -> SvgText:
    """One playing card (``card`` as a :class:`Card` or text like ``"7♣"``).

    ``dim`` veils the card in grey (it cannot be played now), ``trump`` frames it with
    the gold line of the trump suit, ``highlight`` adds a blue outline (for a card just
    played or chosen).
    """
    the_card = _as_card(card, "card_svg")
    remarks = [r for r, on in (("trump", trump), ("cannot be played now", dim),
                               ("highlighted", highlight)) if on]
    label = f"{the_card}: the {_words(the_card)}" + (f", {', '.join(remarks)}" if remarks else "")
    pad = 4
    body = [_card_group(the_card, pad, pad, dim=dim, highlight=highlight, trump=trump)]
    return _document(CARD_W + 2 * pad, CARD_H + 2 * pad, str(the_card), label, body,
                     max_width=(CARD_W + 2 * pad) * 2)


def card_back_svg() -> SvgText:
    """A face-down card."""
    pad = 4
    return _document(CARD_W + 2 * pad, CARD_H + 2 * pad, "a face-down card",
                     "a face-down card: its rank and suit are hidden", [_back_group(pad, pad)],
                     max_width=(CARD_W + 2 * pad) * 2)


# -- rows of cards ---------------------------------------------------------------------------


def _hand_step(count: int) -> float:
    """The distance between cards of a hand: no overlap for small hands, then squeezed."""
    if count <= _HAND_FULL:
        return _HAND_STEP
    room = (_HAND_FULL - 1) * _HAND_STEP
    return max(_MIN_STEP, room / (count - 1))


def _hand_width(count: int) -> float:
    return CARD_W + (count - 1) * _hand_step(count) if count else CARD_W


def _row(cards: Sequence[Card | None], x: float, y: float, *, trump: Suit | None,
         dimmed: Collection[Card] = (), highlighted: Collection[Card] = (),
         notes: Mapping[Card, str] | None = None, step: float | None = None) -> list[str]:
    """Cards side by side from (x, y); ``None`` stands for a face-down card."""
    step = _hand_step(len(cards)) if step is None else step
    out: list[str] = []
    for i, card in enumerate(cards):
        cx = x + i * step
        if card is None:
            out.append(_back_group(cx, y))
        else:
            out.append(_card_group(card, cx, y, dim=card in dimmed,
                                   highlight=card in highlighted,
                                   trump=trump is not None and card.suit == trump,
                                   note=(notes or {}).get(card, "")))
    return out


def _empty_slot(x: float, y: float, words: str) -> str:
    return (f'<rect x="{_num(x + 0.5)}" y="{_num(y + 0.5)}" width="{CARD_W - 1}" '
            f'height="{CARD_H - 1}" rx="{_RADIUS}" fill="none" stroke="{_MUTED}" '
            f'stroke-dasharray="4 3"/>'
            + _text(x + CARD_W / 2, y + CARD_H / 2 + 4, words, size=12.5, fill=_MUTED,
                    anchor="middle"))


def hand_svg(cards: Iterable[Card | str] | str, *, trump: Suit | str | None = None,
             playable: Collection[Card | str] | None = None,
             highlight: Iterable[Card | str] = (), title: str | None = None) -> SvgText:
    """A row of face-up cards (``"7♣ 9♣"`` or cards).

    Cards of the ``trump`` suit get a gold frame. With ``playable``, every card not in
    it is veiled in grey. ``title`` names the picture (default: ``"a hand: 7♣, 9♣"``).
    """
    hand = _as_cards(cards, "hand_svg")
    if isinstance(trump, str):
        trump = Suit.parse(trump)
    elif trump is not None and not isinstance(trump, Suit):
        raise DurakError(f"hand_svg: trump must be a suit such as Suit.HEARTS or 'hearts', "
                         f"not {trump!r}")
    bright = None if playable is None else frozenset(_as_cards(playable, "hand_svg"))
    lit = frozenset(_as_cards(highlight, "hand_svg"))
    dimmed = frozenset(c for c in hand if bright is not None and c not in bright)
    shown = ", ".join(str(c) for c in hand) if hand else "no cards"
    name = title if title is not None else f"a hand: {shown}"
    words = [f"{name}" if title is None else f"{title}: {shown}"]
    if trump is not None:
        words.append(f"trump is {trump.label}")
    if bright is not None:
        can = [str(c) for c in hand if c not in dimmed]
        words.append(f"playable: {', '.join(can) if can else 'none'}")
        if dimmed:
            words.append(f"dimmed: {', '.join(str(c) for c in hand if c in dimmed)}")
    width = _hand_width(len(hand)) + 2 * _MARGIN
    height = CARD_H + 2 * _MARGIN
    body = (_row(hand, _MARGIN, _MARGIN, trump=trump, dimmed=dimmed, highlighted=lit)
            if hand else [_empty_slot(_MARGIN, _MARGIN, "no cards")])
    return _document(width, height, name, "; ".join(words), body, max_width=width * 1.5)


# -- the table ---------------------------------------------------------------------------------


def _pair_words(pair: Pair) -> str:
    if pair.cover is None:
        return f"{pair.attack} uncovered"
    return f"{pair.attack} covered by {pair.cover}"


def _table_words(state: GameState, names: Sequence[str]) -> str:
    if not state.table:
        return "the table is empty"
    words = "table: " + ", ".join(_pair_words(p) for p in state.table)
    if state.taking:
        words += f" ({names[state.defender]} takes)"
    return words


_PAIRS_PER_ROW = 4
_PAIRS_BESIDE = 2  # up to this many pairs, the table shares its band with the stock
_PAIR_ROW_H = CARD_H + _COVER_DY + 10


def _table_rows(state: GameState, per_row: int) -> int:
    return max(1, -(-len(state.table) // per_row))


def _table_width(state: GameState, per_row: int = 6) -> float:
    shown = min(max(len(state.table), 1), per_row)
    return (shown - 1) * _PAIR_STEP + CARD_W + _COVER_DX


def _table_height(state: GameState, per_row: int = 6) -> float:
    return _table_rows(state, per_row) * _PAIR_ROW_H - 10 + (22 if state.taking else 0)


def _table_parts(state: GameState, x: float, y: float, *, highlighted: Collection[Card],
                 names: Sequence[str], per_row: int = 6) -> list[str]:
    out = [f'<g class="table"><title>{escape(_table_words(state, names))}</title>']
    if not state.table:
        out.append(_empty_slot(x, y, "empty"))
    for i, pair in enumerate(state.table):
        px = x + (i % per_row) * _PAIR_STEP
        py = y + (i // per_row) * _PAIR_ROW_H
        out.append(f'<g class="pair"><title>{escape(_pair_words(pair))}</title>')
        out.append(_card_group(pair.attack, px, py, trump=pair.attack.suit == state.trump,
                               highlight=pair.attack in highlighted, note="attack"))
        if pair.cover is not None:
            out.append(_card_group(pair.cover, px + _COVER_DX, py + _COVER_DY,
                                   trump=pair.cover.suit == state.trump,
                                   highlight=pair.cover in highlighted,
                                   note=f"covers {pair.attack}"))
        out.append("</g>")
    if state.taking:
        below = y + _table_height(state, per_row) - 6
        out.append(_text(x, below, f"{names[state.defender]} takes", size=13, fill=_RED,
                         weight="bold"))
    out.append("</g>")
    return out


def table_svg(state: GameState, *, names: Sequence[str] | Mapping[int, str] | None = None,
              highlight: Iterable[Card | str] = ()) -> SvgText:
    """The attack cards of the bout in play, each with its cover lying on it."""
    state = _check_state(state, "table_svg")
    who = _check_names(state, names)
    lit = frozenset(_as_cards(highlight, "table_svg"))
    width = _table_width(state) + 2 * _MARGIN
    height = _table_height(state) + 2 * _MARGIN
    words = _table_words(state, who)
    label = words[0].upper() + words[1:] + f"; trump is {state.trump.label}"
    body = _table_parts(state, _MARGIN, _MARGIN, highlighted=lit, names=who)
    return _document(width, height, "The table", label, body, max_width=width * 1.5,
                     background=_FELT)


# -- a whole position ------------------------------------------------------------------------


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _roles(state: GameState) -> list[str]:
    """Each seat's role in words: attacker, defender, out (and durak at the end)."""
    roles = [""] * state.players
    outcome = state.outcome
    for place, group in enumerate(state.finished, start=1):
        for seat in group:
            roles[seat] = f"out ({_ordinal(place)})"
    if outcome is not None:
        if outcome.durak is not None:
            roles[outcome.durak] = "durak"
        return roles
    roles[state.attacker] = "attacker"
    roles[state.defender] = "defender, takes" if state.taking else "defender"
    for seat in state.passed:
        if not roles[seat]:
            roles[seat] = "done"
        elif roles[seat] == "attacker":
            roles[seat] = "attacker, done"
    return roles


def _result_words(state: GameState, names: Sequence[str]) -> str | None:
    outcome = state.outcome
    if outcome is None:
        return None
    if outcome.durak is None:
        return "the game is over: a draw, nobody is the durak"
    return f"the game is over: {names[outcome.durak]} is the durak"


class _Position:
    """Everything :func:`position_svg` and :func:`describe_position` decide before drawing."""

    def __init__(self, state: GameState, seat: int | None,
                 names: Sequence[str] | Mapping[int, str] | None, playable_for: int | None,
                 show_all: bool, highlight: Iterable[Card | str]) -> None:
        self.state = _check_state(state, "position_svg")
        self.seat = _check_seat(self.state, seat, "seat")
        self.names = _check_names(self.state, names)
        self.playable_for = _check_seat(self.state, playable_for, "playable_for")
        if not isinstance(show_all, bool):
            raise DurakError(f"show_all must be True or False, not {show_all!r}")
        self.show_all = show_all
        self.highlight = frozenset(_as_cards(highlight, "position_svg"))
        self.roles = _roles(self.state)
        self.actions: tuple[Action, ...] = ()
        self.bright: frozenset[Card] = frozenset()
        if self.playable_for is not None:
            self.actions = _seat_actions(self.state, self.playable_for)
            self.bright = _cards_of(self.actions, self.state.trump)

    def hidden(self, seat: int) -> bool:
        """Whether ``seat``'s hand is drawn face down (apart from cards known to all)."""
        return not self.show_all and seat != self.seat

    def visible_hand(self, seat: int) -> list[Card | None]:
        hand = self.state.hands[seat]
        if not self.hidden(seat):
            return list(hand)
        known = self.known(seat)
        # Known cards first, then backs: the backs' places reveal nothing of the hand.
        return [c for c in hand if c in known] + [None] * (len(hand) - len(known))

    def known(self, seat: int) -> frozenset[Card]:
        state = self.state
        known = state.known[seat] if seat < len(state.known) else frozenset()
        return frozenset(c for c in state.hands[seat] if c in known)

    def dimmed(self, seat: int) -> frozenset[Card]:
        """The face-up cards of ``seat`` drawn dimmed: not used by a legal action (VIEW-3)."""
        if seat != self.playable_for or self.hidden(seat):
            return frozenset()
        return frozenset(c for c in self.state.hands[seat] if c not in self.bright)

    def order(self) -> list[int]:
        """Seats top to bottom: the viewer's own hand comes last, nearest the reader."""
        n = self.state.players
        if self.seat is None:
            return list(range(n))
        return [(self.seat + k) % n for k in range(1, n)] + [self.seat]

    # -- words ---------------------------------------------------------------------------

    def trump_words(self) -> str:
        state = self.state
        face_up = state.face_up
        words = f"trump is {state.trump.label}"
        if face_up is not None:
            words += f" (the face-up {face_up} lies under the stock)"
        return words

    def hand_words(self, seat: int) -> str:
        state = self.state
        hand = state.hands[seat]
        name = self.names[seat]
        role = self.roles[seat]
        who = f"{name} ({role})" if role else name
        if not hand:
            return f"{who} holds no cards"
        if self.hidden(seat):
            known = [c for c in hand if c in self.known(seat)]
            words = f"{who} holds {len(hand)} card{'s' if len(hand) != 1 else ''} face down"
            if known:
                words += f", of which {', '.join(str(c) for c in known)} known to all"
        else:
            words = f"{who} holds {', '.join(str(c) for c in hand)}"
        if seat == self.playable_for:
            if not self.hidden(seat):
                can = [str(c) for c in hand if c in self.bright]
                words += f"; {name} can play {', '.join(can) if can else 'no card'}"
                if len(can) < len(hand):
                    words += " (the other cards are dimmed)"
            moves = _other_moves(self.actions)
            if moves:
                words += f"; {name} may also {' or '.join(moves)}"
            elif not self.actions:
                words += f"; {name} has nothing to do now"
        return words

    def describe(self) -> str:
        state = self.state
        parts = [f"Durak, {state.players} players, bout {state.bout + 1}"]
        result = _result_words(state, self.names)
        if result:
            parts.append(result)
        parts.append(self.trump_words())
        parts.append(f"stock: {len(state.stock)} card{'s' if len(state.stock) != 1 else ''}")
        parts.append(f"discard: {len(state.discard)} card"
                     f"{'s' if len(state.discard) != 1 else ''}")
        parts.append(_table_words(state, self.names))
        parts.extend(self.hand_words(seat) for seat in self.order())
        return "; ".join(parts)

    def title(self) -> str:
        state = self.state
        result = _result_words(state, self.names)
        if result:
            return "Durak position: " + result
        attack = (f"{self.names[state.attacker]} attacks {self.names[state.defender]}")
        return f"Durak position: {attack}, trump {state.trump.label}"


def describe_position(state: GameState, *, seat: int | None = None,
                      names: Sequence[str] | Mapping[int, str] | None = None,
                      playable_for: int | None = None, show_all: bool = True) -> str:
    """The words that :func:`position_svg` uses as its ``aria-label``."""
    return _Position(state, seat, names, playable_for, show_all, ()).describe()


def _stock_parts(pos: _Position, x: float, y: float) -> tuple[list[str], float]:
    """The stock with the face-up trump under it, or the trump suit; returns the width."""
    state = pos.state
    face_up = state.face_up
    out: list[str] = [_text(x, y - 7, f"Stock: {len(state.stock)}", size=12.5, fill=_MUTED),
           _text(x, y + CARD_H + 17, f"Trump: {state.trump.label}", size=12.5, fill=_MUTED)]
    if face_up is not None:
        # The face-up card lies across, under the pile, sticking out to the right.
        out.append('<g class="stock">')
        out.append(f"<title>{escape(f'stock of {len(state.stock)} cards; ' + pos.trump_words())}"
                   "</title>")
        out.append(_card_group(face_up, x + 38, y, rotate=90, trump=True,
                               highlight=face_up in pos.highlight, note="face-up trump"))
        if len(state.stock) > 1:
            out.append(_back_group(x, y, title=f"the stock: {len(state.stock)} cards, the "
                                   "face-up trump included", count=len(state.stock)))
        out.append("</g>")
        width = 38 + CARD_W / 2 + CARD_H / 2
    else:
        out.append('<g class="trump-indicator">')
        gone = "the stock is empty" if not state.stock else "no face-up card"
        if state.players == 6:
            gone = "six players: every card was dealt, the last one showed trump"
        out.append(f"<title>{escape(f'trump is {state.trump.label}; {gone}')}</title>")
        out.append(f'<rect x="{_num(x + 0.5)}" y="{_num(y + 0.5)}" width="{CARD_W - 1}" '
                   f'height="{CARD_H - 1}" rx="{_RADIUS}" fill="none" stroke="{_GOLD}" '
                   f'stroke-width="2" stroke-dasharray="5 3"/>')
        out.append(_suit_shape(state.trump, x + CARD_W / 2 - 17, y + 14, 34))
        out.append(_text(x + CARD_W / 2, y + CARD_H - 12, "trump", size=12.5, fill=_MUTED,
                         anchor="middle"))
        out.append("</g>")
        width = CARD_W
    return out, width


def _discard_parts(state: GameState, x: float, y: float) -> list[str]:
    count = len(state.discard)
    out: list[str] = ['<g class="discard">', _text(x, y - 7, f"Discard: {count}", size=12.5,
                                                     fill=_MUTED)]
    if count:
        out.append(_back_group(x, y, rotate=8, title=f"the discard pile: {count} cards",
                               count=count))
    else:
        out.append(_empty_slot(x, y, "none"))
    out.append("</g>")
    return out


def _label_parts(pos: _Position, seat: int, x: float, y: float) -> list[str]:
    """One line above a hand: the name in bold, then role, card count and the moves
    without a card (for the player whose playable cards are shown)."""
    state = pos.state
    name = pos.names[seat]
    role = pos.roles[seat]
    count = len(state.hands[seat])
    details = [part for part in (role, f"{count} card{'s' if count != 1 else ''}") if part]
    if seat == pos.playable_for:
        moves = tuple(m.replace(" the trump six", "") for m in _other_moves(pos.actions))
        note = ("may " + ", ".join(moves)) if moves else \
            ("nothing to do now" if not pos.actions else "")
        if note:
            details.append(note)
    active = seat in (state.attacker, state.defender) and state.outcome is None
    return [element(
        "text",
        element("tspan", name, font_weight="bold", font_size="15",
                fill=_RED if role == "durak" else _BLACK),
        element("tspan", "  ·  " + "  ·  ".join(details), fill=_BLACK if active else _MUTED),
        x=_num(x), y=_num(y), font_size="13", class_="label")]


_POSITION_W = 432
"""The width of a position picture: narrow enough to stay legible on a phone (text of
12 units or more is drawn at 10 CSS pixels or more on a 390-pixel screen)."""
_LABEL_LINE = 22


def position_svg(state: GameState, *, seat: int | None = None,
                 names: Sequence[str] | Mapping[int, str] | None = None,
                 playable_for: int | None = None, show_all: bool = True,
                 highlight: Iterable[Card | str] = ()) -> SvgText:
    """A whole position: hands, table, stock with the face-up trump, discard.

    ``seat`` is the viewer: their hand is drawn last, nearest the reader, and with
    ``show_all=False`` every other hand shows card backs (cards known to all stay face
    up, VIEW-2); without ``seat``, ``show_all=False`` hides every hand (a spectator's
    view). ``names`` gives players' names (a list with one per seat, or a mapping from
    seat). With ``playable_for=seat``, that seat's cards that no legal action uses are
    veiled in grey (VIEW-3); its moves without a card (take, done, exchange) are
    written beside its name. ``highlight`` outlines cards in blue, e.g.
    the card just played.

    The layout is upright: the table with the stock and discard beside it (above it when
    more than two attack cards lie there, four pairs to a row), then one row per hand with
    its label above it.
    """
    pos = _Position(state, seat, names, playable_for, show_all, highlight)
    state = pos.state
    order = pos.order()
    inner = _POSITION_W - 2 * _MARGIN
    widest = max((len(state.hands[who]) for who in order), default=0)
    step = _HAND_STEP if widest <= 1 else min(_HAND_STEP, (inner - CARD_W) / (widest - 1))
    step = max(step, _MIN_STEP)
    width = max(_POSITION_W, 2 * _MARGIN + CARD_W + (widest - 1) * step)

    body: list[str] = []
    top = _MARGIN + 18
    discard_x = width - _MARGIN - CARD_W - 10
    if len(state.table) <= _PAIRS_BESIDE:
        # One band: the table on the left, the stock and the discard on the right.
        stock, _ = _stock_parts(pos, discard_x - 22 - (38 + CARD_W / 2 + CARD_H / 2), top)
        table_y = top
        per_row = _PAIRS_BESIDE
    else:
        # The stock and the discard above, the table under them, four pairs to a row.
        stock, _ = _stock_parts(pos, _MARGIN, top)
        table_y = top + CARD_H + 24 + 26
        per_row = _PAIRS_PER_ROW
    body.extend(stock)
    body.extend(_discard_parts(state, discard_x, top))
    body.append(_text(_MARGIN, table_y - 7, "Table", size=12.5, fill=_MUTED))
    body.extend(_table_parts(state, _MARGIN, table_y, highlighted=pos.highlight,
                             names=pos.names, per_row=per_row))
    bottom = table_y + _table_height(state, per_row)
    if table_y == top:
        bottom = max(bottom, top + CARD_H + 20)
    y = bottom + 14
    result = _result_words(state, pos.names)
    if result:
        body.append(_text(_MARGIN, y + 10, result[0].upper() + result[1:], size=13,
                          fill=_RED, weight="bold"))
        y += 22
    for index, who in enumerate(order):
        if pos.seat is not None and index == len(order) - 1 and len(order) > 1:
            body.append(svg_line(_MARGIN, y + 2, width - _MARGIN, y + 2, _MUTED,
                                 opacity=0.35))
            y += 10
        cards = pos.visible_hand(who)
        notes = {c: "known to all" for c in pos.known(who)} if pos.hidden(who) else None
        body.append(f'<g class="hand" data-seat="{who}"><title>'
                    f"{escape(pos.hand_words(who))}</title>")
        body.extend(_label_parts(pos, who, _MARGIN, y + 16))
        hand_y = y + _LABEL_LINE + 4
        if cards:
            body.extend(_row(cards, _MARGIN, hand_y, trump=state.trump,
                             dimmed=pos.dimmed(who), highlighted=pos.highlight, notes=notes,
                             step=step if len(cards) > 1 else None))
        else:
            body.append(_empty_slot(_MARGIN, hand_y, "no cards"))
        body.append("</g>")
        y = hand_y + CARD_H + 12
    height = y + _MARGIN - 8
    return _document(width, height, pos.title(), pos.describe(), body,
                     max_width=width * 1.2, background=_FELT, cls="durak-position-svg")
