"""Rates, differences and intervals as the tip reports write them (per cent and points)."""

from __future__ import annotations

__all__ = ["interval_text", "percent_text", "points_interval_text", "points_text"]


def percent_text(rate: float) -> str:
    return f"{100 * rate:.1f} %"


def points_text(value: float, *, sign: bool = True) -> str:
    text = f"{100 * value:+.1f}" if sign else f"{100 * value:.1f}"
    return text.replace("-", "−")


def interval_text(bounds: tuple[float, float]) -> str:
    return f"{100 * bounds[0]:.1f}–{100 * bounds[1]:.1f} %"


def points_interval_text(bounds: tuple[float, float]) -> str:
    return f"{points_text(bounds[0])} to {points_text(bounds[1])}"
