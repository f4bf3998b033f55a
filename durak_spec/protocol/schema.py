"""The JSON Schema of the wire protocol, generated from the messages' declarations (layer 5).

The package ships the schema as ``durak_spec/data/protocol.schema.json`` for engine authors
(validate your messages with any JSON Schema library). It is not written by hand: every
message is declared once as a msgspec struct in :mod:`durak_spec.protocol.messages` (its
docstring the description, its fields' types and ranges the constraints), and
``msgspec.json.schema_components`` writes their schemas. This module only names the
definitions as the protocol's pages cite them (``report``, ``helloRequest``, ...), shares
the scalars (``card``, ``seat``, ...) by reference and adds what no type states: a rule set
that transfers by showing a trump transfers (TRANSFER-7). A test checks that the shipped
file is what :func:`schema_text` gives; after a change of the protocol, regenerate it
with::

    durak-spec serve --schema > durak_spec/data/protocol.schema.json
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final

import msgspec

from durak_spec.core.jsonio import write_json
from durak_spec.protocol.claims import PROTOCOL_VERSION
from durak_spec.protocol.messages import (
    ACTION_TYPES,
    EVENT_TYPES,
    REQUEST_TYPES,
    RESPONSE_TYPES,
    Action,
    Card,
    Event,
    Id,
    ReportMsg,
    RuleId,
    RulesMsg,
    Seat,
    StateMsg,
    SuitText,
)

__all__ = ["protocol_schema", "schema_text"]

_REF: Final = "#/$defs/"
_SCALARS: Final = MappingProxyType(
    {"id": Id, "seat": Seat, "card": Card, "suit": SuitText, "ruleId": RuleId})
"""The scalars every message shares, each one definition."""
_UNIONS: Final = MappingProxyType({
    "action": (ACTION_TYPES, Action, "An action in the project's notation, as an object."),
    "event": (EVENT_TYPES, Event, "One event of a step (durak_spec.model.events), with the "
                                  "rule that decided it."),
})
"""The tagged unions whose variants are written inside their definition."""


def _name(struct: str) -> str:
    """A definition's name: ``ReportReplyMsg`` is ``reportResponse``."""
    name = struct.removesuffix("Msg").replace("Reply", "Response")
    return name[:1].lower() + name[1:]


def _tidy(node: Any, shared: dict[str, str]) -> Any:
    """``node`` with references renamed, a tag's one value as ``const``, descriptions on
    one line, no titles, and each shared scalar or union (``shared``: its schema's text
    to its name) as a reference."""
    if isinstance(node, list):
        return [_tidy(item, shared) for item in node]
    if not isinstance(node, dict):
        return node
    scalar = shared.get(write_json(node))
    if scalar is not None:
        return {"$ref": _REF + scalar}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref":
            out[key] = _REF + _name(value.removeprefix(_REF))
        elif key == "enum" and len(value) == 1:
            out["const"] = value[0]
        elif key == "description":
            out[key] = " ".join(value.split())
        elif key not in ("title", "discriminator"):
            out[key] = _tidy(value, shared)
    return out


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every message of the protocol."""
    types = [*REQUEST_TYPES, *RESPONSE_TYPES, ReportMsg, RulesMsg, StateMsg,
             *ACTION_TYPES, *EVENT_TYPES]
    _, components = msgspec.json.schema_components(types, ref_template=_REF + "{name}")
    scalars = {name: msgspec.json.schema(kind) for name, kind in _SCALARS.items()}
    shared = {write_json(node): name for name, node in scalars.items()}
    for union, (_, kind, _) in _UNIONS.items():  # where a message holds one
        (node,), _ = msgspec.json.schema_components([kind], ref_template=_REF + "{name}")
        shared[write_json(node)] = union
    defs: dict[str, Any] = {name: _tidy(node, {}) for name, node in scalars.items()}
    defs["seat"] = {"description": "A seat, 0-based and clockwise (P0, P1, ...).",
                    **defs["seat"]}
    tidy = {_name(name): _tidy(node, shared) for name, node in components.items()}
    for union, (variants, _, description) in _UNIONS.items():
        defs[union] = {"description": description,
                       "oneOf": [tidy.pop(_name(kind.__name__)) for kind in variants]}
    # TRANSFER-7: showing a trump is a way to transfer
    tidy["rules"].update({"if": {"properties": {"transfer_by_showing_trump": {"const": True}}},
                          "then": {"properties": {"transfer": {"const": True}}}})
    requests = [_name(kind.__name__) for kind in REQUEST_TYPES]
    responses = [_name(kind.__name__) for kind in RESPONSE_TYPES]
    defs.update({"report": tidy.pop("report"), "rules": tidy.pop("rules"),
                 "state": tidy.pop("state"),
                 "request": {"oneOf": [{"$ref": _REF + name} for name in requests]},
                 **{name: tidy.pop(name) for name in requests},
                 "response": {"oneOf": [{"$ref": _REF + name} for name in responses]},
                 **{name: tidy.pop(name) for name in responses}, **tidy})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:durak-spec:engine-protocol:{PROTOCOL_VERSION}",
        "title": f"durak-spec engine protocol, version {PROTOCOL_VERSION}",
        "description": "Every message of the wire protocol between the durak-spec checker "
                       "and an external Durak engine. Each message is one line of JSON "
                       "(UTF-8). The checker sends requests on the engine's standard input; "
                       "the engine writes exactly one response per request on its standard "
                       "output, repeating the request's id. Responses carry no cmd: which "
                       "response shape applies follows from the request it answers.",
        "oneOf": [{"$ref": _REF + "request"}, {"$ref": _REF + "response"}],
        "$defs": defs,
    }


def schema_text() -> str:
    """The schema as the package ships it: indented JSON, ending with a newline."""
    return write_json(protocol_schema(), indent=2) + "\n"
