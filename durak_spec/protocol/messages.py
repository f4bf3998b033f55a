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

from msgspec import UNSET, Struct, UnsetType

__all__ = ["ActionMsg", "LegalReplyMsg", "OkReplyMsg", "ReportMsg", "ReportReplyMsg",
           "RequestMsg", "VerdictReplyMsg"]


class ActionMsg(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """An action object: ``player`` and ``type``, then the fields of its type (``attack``
    and ``card`` of a cover, ``card`` of a throw-in or a transfer, ``cards`` of an
    opening)."""

    player: int
    type: str
    attack: str | UnsetType = UNSET
    card: str | UnsetType = UNSET
    cards: list[str] | UnsetType = UNSET


class ReportMsg(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """What lies where, as an engine reports it (``known`` optional)."""

    hands: list[list[str]]
    table: list[tuple[str, str | None]]
    stock: int
    trump: str
    face_up: str | None
    discard: int
    attacker: int
    defender: int
    taking: bool
    finished: list[list[int]]
    over: bool
    durak: int | None
    known: list[list[str]] | UnsetType = UNSET


class RequestMsg(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A request without a payload (``hello``, ``legal``, ``state``, ``quit``) or an
    ``apply``; ``start`` and ``load`` (one per game) are read by the strict reader."""

    id: int
    cmd: str
    action: ActionMsg | UnsetType = UNSET
    then: bool | UnsetType = UNSET


class ReportReplyMsg(Struct, forbid_unknown_fields=True):
    """The answer to ``start``, ``load`` and ``state``."""

    id: int
    ok: bool
    report: ReportMsg


class LegalReplyMsg(Struct, forbid_unknown_fields=True):
    """The answer to ``legal``."""

    id: int
    ok: bool
    actions: list[ActionMsg]


class VerdictReplyMsg(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The answer to ``apply``: accepted (with ``report`` and ``actions`` after it, to a
    ``then``), or rejected with ``reason`` and ``rule``."""

    id: int
    ok: bool
    accepted: bool
    reason: str | UnsetType = UNSET
    rule: str | UnsetType | None = UNSET
    report: ReportMsg | UnsetType = UNSET
    actions: list[ActionMsg] | UnsetType = UNSET


class OkReplyMsg(Struct, forbid_unknown_fields=True):
    """The answer to ``quit``."""

    id: int
    ok: bool
