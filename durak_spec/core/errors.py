"""The errors of durak-spec (layer 1): one root, rule IDs for rules, codes for input.

Every error the package raises for bad input is a :class:`DurakError`, which is a
``ValueError``. Each one carries two machine-readable facts besides its message:

* ``code``: a stable name of the kind of error (``"illegal-action"``, ``"card"``,
  ``"saved-game"``, ...), the same for every instance of a class unless the raiser names
  a finer one (``"no-such-player"``);
* ``rule``: the rule-index ID of the rule of the game that the input breaks
  (``"BEAT-3"``), or ``None`` when the input is not a question of the rules at all (a
  mistyped card, a malformed file, a seat that does not exist).

Two kinds are about the rules, and always name one: :class:`IllegalAction` (a move the
rules forbid now) and :class:`InvalidState` (a position no game can reach). Everything
else is an :class:`InputError`: text, data or a request that is not well-formed, which no
rule of the game is asked about, so its ``rule`` is ``None`` and its ``code`` says what
is wrong.
"""

from __future__ import annotations

__all__ = [
    "BadAction",
    "DurakError",
    "IllegalAction",
    "InputError",
    "InvalidState",
    "NotationError",
]


class DurakError(ValueError):
    """Base class of every error raised for bad input to durak-spec.

    ``str(error)`` is the message; ``error.code`` the kind; ``error.rule`` the rule ID
    the input breaks, or ``None``.
    """

    code: str = "durak-error"
    """What kind of error this is; subclasses set their own."""
    rule: str | None = None
    """The rule-index ID of the rule of the game that is broken, if one is."""

    def __init__(self, message: str, *, rule: str | None = None,
                 code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if rule is not None:
            self.rule = rule
        if code is not None:
            self.code = code


class IllegalAction(DurakError):
    """An action that the rules forbid in this state.

    ``rule`` is the rule-index ID of the rule that forbids it (for example ``"BEAT-3"``),
    ``reason`` a plain-language explanation. ``str(error)`` is ``"<reason> (<rule>)"``.
    """

    code = "illegal-action"
    rule: str

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{reason} ({rule})", rule=rule)
        self.reason = reason

    def __reduce__(self) -> tuple[type[IllegalAction], tuple[str, str]]:
        return (type(self), (self.rule, self.reason))


class InvalidState(DurakError):
    """A game state (or saved game) that no legal game could reach, naming the broken rule."""

    code = "invalid-state"
    rule: str

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{reason} ({rule})", rule=rule)
        self.reason = reason

    def __reduce__(self) -> tuple[type[InvalidState], tuple[str, str]]:
        return (type(self), (self.rule, self.reason))


class InputError(DurakError):
    """Input that is not well-formed: no rule of the game is asked, so ``rule`` is ``None``.

    Subclasses name the kind of input (cards, actions, rule sets, saved games, protocol
    messages, ...) in their ``code``; a raiser may give a finer ``code``.
    """

    code = "input"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message, code=code)

    def __reduce__(self) -> tuple[type[InputError], tuple[str]]:
        return (type(self), (self.message,))


class NotationError(InputError):
    """Text that is not an action (or position) in the project's notation."""

    code = "notation"


class BadAction(InputError):
    """Something offered as an action that is not an action of this game at all.

    Not a rule question: the object is not an :class:`~durak_spec.model.actions.Action`,
    or it names a seat the game does not have. ``code`` says which
    (``"not-an-action"``, ``"no-such-player"``).
    """

    code = "bad-action"
