"""The wire's hot messages declared as typed msgspec structs (layer 5).

:mod:`durak_spec.protocol.wire` decodes a line with these declarations first: msgspec reads
it in C, in linear time, into the struct of the message the line should be, and refuses a
key no struct declares and a value of another JSON type. The struct is then turned into
the protocol's values (cards, actions, a report) by the wire, which checks what a type
cannot say (a card's spelling, a seat's range, which fields an action type has).

A struct's fields are in the order the encoder writes them, and a field a message may leave
out defaults to ``UNSET`` (left out when encoded). So a line the encoder wrote is exactly
the struct encoded again; the wire takes a decoded struct only when that holds, which also
proves that no key of the line was given twice (msgspec keeps the last of two). Any other
line - a fault, another spelling, spaces, a key given twice - is read by the strict reader,
which names what is wrong as the tests pin it.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeAlias

from msgspec import UNSET, Meta, Struct, UnsetType

from durak_spec.core.cards import DECK
from durak_spec.model.rules import MAX_PLAYERS, MIN_PLAYERS

MAX_ID = 2**53 - 1
"""The largest id: the largest integer every JSON reader holds exactly."""

Id: TypeAlias = Annotated[int, Meta(ge=0, le=MAX_ID)]
Seat: TypeAlias = Annotated[int, Meta(ge=0, le=MAX_PLAYERS - 1)]
Count: TypeAlias = Annotated[int, Meta(ge=0, le=len(DECK))]
"""A number of cards (the stock, the discard)."""

__all__ = [
    "MAX_ID",
    "ActionMsg",
    "Count",
    "Id",
    "LegalReplyMsg",
    "OkReplyMsg",
    "ReportMsg",
    "ReportReplyMsg",
    "RequestMsg",
    "Seat",
    "VerdictReplyMsg",
]


class ActionMsg(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """An action object: ``player`` and ``type``, then the fields of its type (``attack``
    and ``card`` of a cover, ``card`` of a throw-in or a transfer, ``cards`` of an
    opening)."""

    player: Seat
    type: str
    attack: str | UnsetType = UNSET
    card: str | UnsetType = UNSET
    cards: list[str] | UnsetType = UNSET


class ReportMsg(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """What lies where, as an engine reports it (``known`` optional)."""

    hands: Annotated[list[list[str]], Meta(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]
    table: list[tuple[str, str | None]]
    stock: Count
    trump: str
    face_up: str | None
    discard: Count
    attacker: Seat
    defender: Seat
    taking: bool
    finished: list[list[Seat]]
    over: bool
    durak: Seat | None
    known: list[list[str]] | UnsetType = UNSET


class RequestMsg(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A request without a payload (``hello``, ``legal``, ``state``, ``quit``) or an
    ``apply``; ``start`` and ``load`` (one per game) are read by the strict reader."""

    id: Id
    cmd: str
    action: ActionMsg | UnsetType = UNSET
    then: bool | UnsetType = UNSET


class ReportReplyMsg(Struct, forbid_unknown_fields=True):
    """The answer to ``start``, ``load`` and ``state``."""

    id: Id
    ok: bool
    report: ReportMsg


class LegalReplyMsg(Struct, forbid_unknown_fields=True):
    """The answer to ``legal``."""

    id: Id
    ok: bool
    actions: list[ActionMsg]


class VerdictReplyMsg(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The answer to ``apply``: accepted (with ``report`` and ``actions`` after it, to a
    ``then``; with ``events``, from an engine that tells them), or rejected with
    ``reason`` and ``rule``."""

    id: Id
    ok: bool
    accepted: bool
    reason: str | UnsetType = UNSET
    rule: str | UnsetType | None = UNSET
    report: ReportMsg | UnsetType = UNSET
    actions: list[ActionMsg] | UnsetType = UNSET
    events: list[dict[str, Any]] | UnsetType = UNSET
    """With capability ``events``: what happened, read by the wire's strict event reader."""


class OkReplyMsg(Struct, forbid_unknown_fields=True):
    """The answer to ``quit``."""

    id: Id
    ok: bool
