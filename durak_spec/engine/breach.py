"""A broken rule, as a value: its ID and why it is broken.

Every rule the engine decides is one function that returns a :class:`Breach` when the
rule is broken and ``None`` when it holds. ``check`` turns a breach into
:class:`~durak_spec.core.errors.IllegalAction`, ``validate_state`` into
:class:`~durak_spec.core.errors.InvalidState`; the listing of legal actions only asks
whether there is one.
"""

from __future__ import annotations

from typing import NamedTuple

from durak_spec.core.errors import IllegalAction, InvalidState

__all__ = ["Breach"]


class Breach(NamedTuple):
    """The rule ``rule`` (a rule-index ID) is broken, for ``reason`` (plain words)."""

    rule: str
    reason: str

    def illegal(self) -> IllegalAction:
        """The error for an action that breaks the rule."""
        return IllegalAction(self.rule, self.reason)

    def invalid(self) -> InvalidState:
        """The error for a position that breaks the rule."""
        return InvalidState(self.rule, self.reason)

    def __str__(self) -> str:
        return f"{self.reason} ({self.rule})"
