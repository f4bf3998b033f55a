"""Errors that name the rule they enforce (layer 3)."""

from __future__ import annotations

__all__ = ["DurakError", "IllegalAction", "InvalidState", "NotationError"]


class DurakError(ValueError):
    """Base class of every error raised for bad input to durak-spec."""


class IllegalAction(DurakError):
    """An action that the rules forbid in this state.

    ``rule`` is the rule-index ID of the rule that forbids it (for example ``"BEAT-3"``),
    ``reason`` a plain-language explanation. ``str(error)`` is ``"<reason> (<rule>)"``.
    """

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{reason} ({rule})")
        self.rule = rule
        self.reason = reason

    def __reduce__(self) -> tuple[type[IllegalAction], tuple[str, str]]:
        return (type(self), (self.rule, self.reason))


class InvalidState(DurakError):
    """A game state (or saved game) that no legal game could reach, naming the broken rule."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{reason} ({rule})")
        self.rule = rule
        self.reason = reason

    def __reduce__(self) -> tuple[type[InvalidState], tuple[str, str]]:
        return (type(self), (self.rule, self.reason))


class NotationError(DurakError):
    """Text that is not an action (or position) in the project's notation."""
