"""The evidence as an SVG chart: per tip, the durak rates of both players and their
difference with 95 % intervals."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from xml.sax.saxutils import escape, quoteattr

from durak_spec.game.svg import SvgText, svg_document, svg_line, svg_number, svg_text
from durak_spec.play.tipsim.experiments import MARGIN, VERDICT_COLOUR, Evidence, ExperimentResult
from durak_spec.play.tipsim.text import (
    interval_text,
    percent_text,
    points_interval_text,
    points_text,
)

_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
_FOLLOWER = "#1565c0"
_OTHER = "#ef6c00"
_INK = "#1b1b1b"
_MUTED = "#5f6b66"
_GRID = "#d9dedb"
_BAND = "#eef1ef"

_W = 760  # about the width of the book's text column, so the text keeps its size
_LABEL_X = 12
_LABEL_CHARS = 27
_RATE_X = 210
_RATE_W = 236
_DIFF_X = 500
_DIFF_W = 140
_VERDICT_X = _DIFF_X + _DIFF_W + 16
_TOP = 100
_ROW = 58
_BAR_H = 13
_RANGES = (0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)


_n = svg_number
_line = svg_line


def _t(x: float, y: float, content: str, *, size: float = 12, fill: str = _INK,
       weight: str | None = None, anchor: str | None = None, halo: bool = False) -> str:
    return svg_text(x, y, content, size=size, fill=fill, weight=weight,
                    anchor=anchor or "start", halo=halo)


def _diff_range(results: Sequence[ExperimentResult]) -> float:
    """The half-width of the difference axis: wide enough for most intervals; the few
    that do not fit are drawn to the edge with an arrow (their numbers are written)."""
    ends = sorted(max(abs(b) for b in r.difference_interval) for r in results)
    if not ends:
        return _RANGES[1]
    covered = ends[max(0, math.ceil(0.75 * len(ends)) - 1)]
    covered = max(covered, MARGIN * 1.5)
    return next((r for r in _RANGES if r >= covered), 1.0)


def _whisker(x1: float, x2: float, y: float, colour: str, cap: float = 4) -> list[str]:
    return [_line(x1, y, x2, y, colour, 1.6), _line(x1, y - cap, x1, y + cap, colour, 1.6),
            _line(x2, y - cap, x2, y + cap, colour, 1.6)]


def _describe(evidence: Evidence) -> str:
    sentences = [
        f"Durak rate of a player who follows each tip and of the same player without it, "
        f"{evidence.games} games per tip, with 95 % confidence intervals, and the difference."]
    for r in evidence.results:
        e = r.experiment
        sentences.append(
            f"{e.id} {e.title} ({e.game}): follower {percent_text(r.follower_rate)} "
            f"({interval_text(r.follower_interval)}), other {percent_text(r.other_rate)} "
            f"({interval_text(r.other_interval)}); difference {points_text(r.difference)} points "
            f"({points_interval_text(r.difference_interval)}): {r.verdict.value}.")
    return " ".join(sentences)


def plot(evidence: Evidence) -> SvgText:
    """The evidence as a chart (standalone SVG text, drawn here, no plotting library).

    Left: per tip, the durak rate of the follower (blue) and of the other player (orange)
    as horizontal bars with 95 % interval whiskers, and a dashed mark at the even share
    (one in as many games as there are players). Right: the difference (other minus
    follower, in points) with its 95 % interval, coloured and labelled by verdict, on
    a scale that fits most intervals; an interval beyond it ends in an arrow. Accessible:
    ``role="img"``, ``<title>``, ``<desc>`` and ``aria-label`` say every number in words.
    """
    results = evidence.results
    height = _TOP + _ROW * len(results) + 56
    span = _diff_range(results)
    bottom = _TOP + _ROW * len(results)

    def rate_x(rate: float) -> float:
        return _RATE_X + _RATE_W * min(1.0, max(0.0, rate))

    def diff_x(value: float) -> float:
        return _DIFF_X + _DIFF_W * (min(span, max(-span, value)) + span) / (2 * span)

    title = "The sources' tips put to the test: durak rate with and without each tip"
    description = _describe(evidence)
    body: list[str] = [f'<rect width="{_W}" height="{height}" fill="#ffffff"/>']
    body.append(_t(_LABEL_X, 24, "Durak rate with and without each tip", size=17,
                   weight="bold"))
    body.append(_t(_LABEL_X, 43, f"{evidence.games} seeded games per tip, every deal played "
                   "from every seat; whiskers: 95 % confidence intervals", size=12,
                   fill=_MUTED))
    # Legend.
    legend_y = 68
    body.append(f'<rect x="{_LABEL_X}" y="{legend_y - 10}" width="14" height="11" '
                f'fill="{_FOLLOWER}"/>')
    body.append(_t(_LABEL_X + 20, legend_y, "follows the tip", size=12))
    body.append(f'<rect x="{_LABEL_X + 130}" y="{legend_y - 10}" width="14" height="11" '
                f'fill="{_OTHER}"/>')
    body.append(_t(_LABEL_X + 150, legend_y, "the same player without it", size=12))
    body.append(_line(_LABEL_X + 330, legend_y - 11, _LABEL_X + 330, legend_y + 2, _MUTED, 1.4,
                      "3 2"))
    body.append(_t(_LABEL_X + 337, legend_y, "even share (1 ÷ players)", size=12))
    # Panel headings.
    body.append(_t(_RATE_X, _TOP - 10, "durak rate (share of games lost)", size=12,
                   weight="bold"))
    body.append(_t(_DIFF_X, _TOP - 10, "difference, points", size=12, weight="bold"))
    body.append(_t(_VERDICT_X, _TOP - 10, "verdict", size=12, weight="bold"))
    # Grids and the margin band.
    body.append(f'<rect x="{_n(diff_x(-MARGIN))}" y="{_TOP}" '
                f'width="{_n(diff_x(MARGIN) - diff_x(-MARGIN))}" height="{bottom - _TOP}" '
                f'fill="{_BAND}"/>')
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        x = rate_x(tick)
        body.append(_line(x, _TOP, x, bottom, _GRID))
        body.append(_t(x, bottom + 16, f"{round(100 * tick)} %", size=11, fill=_MUTED,
                       anchor="middle"))
    for tick in (-span, -span / 2, 0.0, span / 2, span):
        x = diff_x(tick)
        body.append(_line(x, _TOP, x, bottom, _MUTED if tick == 0 else _GRID,
                          1.2 if tick == 0 else 1))
        label = f"{100 * tick:+g}".replace("-", "−") if tick else "0"
        body.append(_t(x, bottom + 16, label, size=11, fill=_MUTED, anchor="middle"))
    body.append(_t(_RATE_X + _RATE_W / 2, bottom + 34, "lower is better for that player",
                   size=11, fill=_MUTED, anchor="middle"))
    body.append(_t(_DIFF_X + _DIFF_W / 2, bottom + 34, "other − follower; right of 0: the tip "
                   "helps", size=11, fill=_MUTED, anchor="middle"))
    band = points_text(MARGIN, sign=False)
    body.append(_t(_DIFF_X + _DIFF_W / 2, bottom + 48, f"shaded: within ±{band} points",
                   size=11, fill=_MUTED, anchor="middle"))
    # One row per experiment.
    for i, r in enumerate(results):
        e = r.experiment
        top = _TOP + _ROW * i
        if i:
            body.append(_line(_LABEL_X, top, _W - 10, top, _GRID))
        body.append(f"<g class=\"tip-row\" data-tip={quoteattr(e.id)}>"
                    f"<title>{escape(e.id)}: {escape(r.verdict.value)}</title>")
        body.extend(_row_title(r, top + 18, _LABEL_CHARS, game_gap=2))
        even = rate_x(1 / e.players)
        body.append(_line(even, top + 5, even, top + _ROW - 5, _MUTED, 1.4, "3 2"))
        body.extend(_rate_bars(r, rate_x, _RATE_X, top + 10, label_gap=6))
        colour = VERDICT_COLOUR[r.verdict]
        y = top + _ROW / 2
        body.extend(_difference(r, diff_x, span, y, arrow=(8, 6)))
        if abs(r.difference) > span:
            side = 1 if r.difference > 0 else -1
            body.append(_t(diff_x(side * span) - side * 6, y - 8, "off the scale", size=10,
                           fill=colour, anchor="end" if side > 0 else "start", halo=True))
        body.append(_t(_VERDICT_X, y - 2, r.verdict.value, size=11.5, weight="bold",
                       fill=colour))
        body.append(_t(_VERDICT_X, y + 13, f"{points_text(r.difference)} points", size=11,
                       fill=_MUTED))
        body.append("</g>")
    return svg_document(_W, height, title, description, body, max_width=_W,
                        cls="tipsim-chart")


def _row_title(r: ExperimentResult, y: float, chars: int, game_gap: float) -> list[str]:
    """A row's heading: the tip's ID in bold and its title (wrapped to ``chars``), then
    the game it is tested in."""
    e = r.experiment
    lines = _wrap(f"{e.id} {e.title}", chars)
    parts = [f'<text x="{_LABEL_X}" y="{y}" font-size="12" fill="{_INK}">'
             f'<tspan font-weight="bold">{escape(e.id)}</tspan>'
             f"{escape(lines[0][len(e.id):])}</text>"]
    parts.extend(_t(_LABEL_X, y + 15 * k, part, size=12)
                 for k, part in enumerate(lines[1:], start=1))
    parts.append(_t(_LABEL_X, y + game_gap + 15 * len(lines), e.game, size=11, fill=_MUTED))
    return parts


def _rate_bars(r: ExperimentResult, rate_x: Callable[[float], float], left: float,
               top: float, label_gap: float) -> list[str]:
    """The follower's and the other's durak rates as two bars with their intervals."""
    parts: list[str] = []
    for row, (rate, bounds, colour) in enumerate((
            (r.follower_rate, r.follower_interval, _FOLLOWER),
            (r.other_rate, r.other_interval, _OTHER))):
        bar_y = top + row * (_BAR_H + 8)
        parts.append(f'<rect x="{left}" y="{bar_y}" width="{_n(rate_x(rate) - left)}" '
                     f'height="{_BAR_H}" fill="{colour}" fill-opacity="0.85"/>')
        parts.extend(_whisker(rate_x(bounds[0]), rate_x(bounds[1]), bar_y + _BAR_H / 2, _INK))
        parts.append(_t(rate_x(max(bounds[1], rate)) + label_gap, bar_y + _BAR_H - 2,
                        percent_text(rate), size=10.5, fill=_MUTED, halo=True))
    return parts


def _difference(r: ExperimentResult, diff_x: Callable[[float], float], span: float, y: float,
                arrow: tuple[float, float]) -> list[str]:
    """The difference with its interval in the verdict's colour: an arrow at the edge
    for an end beyond the scale (``arrow``: its length and half height), a dot for the
    difference itself where it is on the scale."""
    colour = VERDICT_COLOUR[r.verdict]
    low, high = r.difference_interval
    length, half = arrow
    parts = _whisker(diff_x(low), diff_x(high), y, colour, cap=5)
    for end, direction in ((low, -1), (high, 1)):
        if direction * end > span:
            back = diff_x(end)
            tip_x = back + direction * length
            parts.append(f'<path d="M{_n(tip_x)} {_n(y)} L{_n(back)} {_n(y - half)} '
                         f'L{_n(back)} {_n(y + half)} Z" fill="{colour}"/>')
    if abs(r.difference) <= span:
        parts.append(f'<circle cx="{_n(diff_x(r.difference))}" cy="{_n(y)}" r="5" '
                     f'fill="{colour}"/>')
    return parts


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in at most two lines of about ``width`` characters (the second shortened)."""
    if len(text) <= width:
        return [text]
    cut = text.rfind(" ", 0, width + 1)
    cut = cut if cut > 0 else width
    first, rest = text[:cut].rstrip(), text[cut:].strip()
    if len(rest) > width:
        rest = rest[:width - 1].rstrip() + "…"
    return [first, rest]


_NARROW_W = 380  # a phone's width: the same numbers, each tip's title above its bars
_NARROW_RATE_W = 180
_NARROW_DIFF_X = 262
_NARROW_DIFF_W = 104
_NARROW_TOP = 128
_NARROW_ROW = 116


def plot_narrow(evidence: Evidence) -> SvgText:
    """The chart of :func:`plot` laid out for a phone's width (380 units, so its text keeps
    its size on a 390 px screen): each tip's title on a line of its own, its two bars under
    it, and the difference with its verdict beside the bars."""
    results = evidence.results
    span = _diff_range(results)
    bottom = _NARROW_TOP + _NARROW_ROW * len(results)
    height = bottom + 76
    rate_left, diff_left = _LABEL_X, _NARROW_DIFF_X

    def rate_x(rate: float) -> float:
        return rate_left + _NARROW_RATE_W * min(1.0, max(0.0, rate))

    def diff_x(value: float) -> float:
        return diff_left + _NARROW_DIFF_W * (min(span, max(-span, value)) + span) / (2 * span)

    title = "The sources' tips put to the test: durak rate with and without each tip"
    body: list[str] = [f'<rect width="{_NARROW_W}" height="{height}" fill="#ffffff"/>']
    body.append(_t(_LABEL_X, 22, "Durak rate with and without each tip", size=15,
                   weight="bold"))
    body.append(_t(_LABEL_X, 40, f"{evidence.games} seeded games per tip, every deal played "
                   "from every seat;", size=11, fill=_MUTED))
    body.append(_t(_LABEL_X, 54, "whiskers: 95 % confidence intervals", size=11, fill=_MUTED))
    for x, y, colour, words in ((_LABEL_X, 76, _FOLLOWER, "follows the tip"),
                                (_LABEL_X + 120, 76, _OTHER, "the same player without it")):
        body.append(f'<rect x="{x}" y="{y - 10}" width="14" height="11" fill="{colour}"/>')
        body.append(_t(x + 20, y, words, size=12))
    body.append(_line(_LABEL_X + 6, 83, _LABEL_X + 6, 96, _MUTED, 1.4, "3 2"))
    body.append(_t(_LABEL_X + 20, 94, "even share (1 ÷ players)", size=12))
    body.append(_t(rate_left, _NARROW_TOP - 10, "durak rate", size=12, weight="bold"))
    body.append(_t(diff_left, _NARROW_TOP - 10, "difference", size=12, weight="bold"))
    for i, r in enumerate(results):
        e = r.experiment
        top = _NARROW_TOP + _NARROW_ROW * i
        if i:
            body.append(_line(_LABEL_X, top, _NARROW_W - 10, top, _GRID))
        body.append(f"<g class=\"tip-row\" data-tip={quoteattr(e.id)}>"
                    f"<title>{escape(e.id)}: {escape(r.verdict.value)}</title>")
        body.extend(_row_title(r, top + 16, 50, game_gap=0))
        bars = top + 58
        # The scales, drawn in this row's band only (the titles above stay clear).
        body.append(f'<rect x="{svg_number(diff_x(-MARGIN))}" y="{bars - 4}" '
                    f'width="{svg_number(diff_x(MARGIN) - diff_x(-MARGIN))}" height="42" '
                    f'fill="{_BAND}"/>')
        for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
            body.append(_line(rate_x(tick), bars - 4, rate_x(tick), bars + 38, _GRID))
        body.append(_line(diff_x(0.0), bars - 4, diff_x(0.0), bars + 38, _MUTED, 1.2))
        even = rate_x(1 / e.players)
        body.append(_line(even, bars - 4, even, bars + 38, _MUTED, 1.4, "3 2"))
        body.extend(_rate_bars(r, rate_x, rate_left, bars, label_gap=5))
        colour = VERDICT_COLOUR[r.verdict]
        body.extend(_difference(r, diff_x, span, bars + 10, arrow=(7, 5)))
        scale = " (off the scale)" if abs(r.difference) > span else ""
        centre = diff_left + _NARROW_DIFF_W / 2
        body.append(_t(centre, bars + 30, r.verdict.value, size=11, weight="bold",
                       fill=colour, anchor="middle"))
        body.append(_t(centre, bars + 44, f"{points_text(r.difference)} points{scale}",
                       size=10.5, fill=_MUTED, anchor="middle"))
        body.append("</g>")
    for tick in (0.0, 0.5, 1.0):
        body.append(_t(rate_x(tick), bottom + 14, f"{round(100 * tick)} %", size=11,
                       fill=_MUTED, anchor="middle" if tick else "start"))
    for tick in (-span, 0.0, span):
        label = f"{100 * tick:+g}".replace("-", "−") if tick else "0"
        body.append(_t(diff_x(tick), bottom + 14, label, size=11, fill=_MUTED,
                       anchor="middle" if tick == 0 else ("start" if tick < 0 else "end")))
    band = points_text(MARGIN, sign=False)
    for k, words in enumerate(("durak rate: lower is better for that player",
                               "difference: other − follower; right of 0: the tip helps",
                               f"shaded: within ±{band} points")):
        body.append(_t(_LABEL_X, bottom + 34 + 15 * k, words, size=11, fill=_MUTED))
    return svg_document(_NARROW_W, height, title, _describe(evidence), body,
                        max_width=_NARROW_W, cls="tipsim-chart tipsim-narrow")
