"""The JSON Schema of the wire protocol, generated from the decoder's own tables (layer 5).

The package ships the schema as ``durak_spec/data/protocol.schema.json`` for engine authors
(validate your messages with any JSON Schema library). It is not written by hand: this
module builds it from the tables the decoder of :mod:`durak_spec.protocol.wire` reads
messages with (the fields of each request, reply, action and report, the seat and id
ranges, the card spellings) and from the rule set's axes, so the schema and the decoder
cannot drift apart. Only the descriptions are written here. A test checks that the
shipped file is what :func:`schema_text` gives; after a change of the protocol,
regenerate it with::

    durak-spec serve --schema > durak_spec/data/protocol.schema.json
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final

from durak_spec.core.cards import Rank, Suit
from durak_spec.core.jsonio import write_json
from durak_spec.game.persist import POSITION_KEYS, STATE_FORMAT, VERSION
from durak_spec.model.rules import AXES, MAX_PLAYERS, MIN_PLAYERS
from durak_spec.protocol import PROTOCOL_VERSION
from durak_spec.protocol.messages import MAX_ID
from durak_spec.protocol.wire import (
    ACTION_FIELDS,
    AXIS_VALUES,
    COMMANDS,
    EVENT_FIELDS,
    MAX_SEAT,
    OPTIONAL_FIELDS,
    REPORT_FIELDS,
    REQUEST_FIELDS,
)

__all__ = ["protocol_schema", "schema_text"]

_REF = "#/$defs/"

_REQUESTS: Final = MappingProxyType({
    "hello": "The handshake: who is the engine, which profiles and player counts it claims, "
             "which optional capabilities it has.",
    "start": "Begin a game. The deck lists all 36 cards in dealing and drawing order: six to "
             "each seat in turn, then the stock in drawing order, its last card the face-up "
             "trump (CLAR-10). The seed settles chance where the rules leave the first "
             "attacker to chance (ORDER-2).",
    "load": "Begin from a full position (only for engines that declare capabilities.load).",
    "legal": "List every legal action of every player who may act now.",
    "apply": "Play an action if it is legal; a rejected action changes nothing.",
    "state": "Report the position.",
    "quit": "Answer, then exit.",
})

_ACTIONS: Final = MappingProxyType({
    "open": "Open a bout with one card, or several of one rank where the rules allow "
            "(P0 open 7♣).",
    "throw": "Throw in an attack card (P2 throw 7♦).",
    "cover": "Cover the attack card attack with card (P1 cover 7♣ with 9♣).",
    "transfer": "Transfer the attack by playing a card of its rank (P1 transfer 7♥).",
    "show": "Transfer by showing a trump of the rank (P1 show 7♦).",
    "take": "The defender takes the table.",
    "done": "An attacker adds nothing more.",
    "exchange": "Swap the six of trumps for the face-up trump.",
})

_REPORT: Final = MappingProxyType({
    "hands": "Each seat's cards (in any order within a hand).",
    "table": "The attack cards in the order played, each with its cover.",
    "stock": "Cards left to draw, the face-up trump included.",
    "face_up": "The face-up trump under the stock, while it is there.",
    "discard": "Cards out of play.",
    "attacker": "The attacker of the bout in play (or of the next). Once the game is over "
                "(over true) the rules decide no roles: any seat may stand here, and a "
                "checker does not compare it.",
    "defender": "The defender of the bout in play (or of the next). Once the game is over "
                "the rules decide no roles: any seat may stand here, and a checker does not "
                "compare it.",
    "taking": "The defender has announced a take. Once the game is over: false (no bout is "
              "in play, END-6), though a checker does not compare it.",
    "over": "The game is over (END-3, END-4, END-5): then table is empty, finished and "
            "durak hold the outcome, and attacker, defender and taking carry nothing the "
            "rules decide.",
    "finished": "Seats that are out, in groups by the bout end at which they went out.",
    "durak": "The loser once the game is over; null while it goes on and for a draw.",
    "known": "Optional: per seat, the cards in that hand that every player knows (VIEW-2). "
             "Leave it out if the engine does not track it.",
})

_POSITION: Final = MappingProxyType({
    "hands": "Each seat's cards in canonical order.",
    "stock": "The cards to draw, in drawing order; while fewer than six play, the last is "
             "the face-up trump.",
    "discard": "Cards out of play, in canonical order.",
    "opener": "The seat that opened the bout in play (or opens the next).",
    "bout": "How many bouts have ended.",
    "passed": "Attackers who said done since the defender last moved.",
    "joined": "Seats in the order they joined the bout's attack.",
    "start_hands": "Each seat's hand size when the bout in play started.",
    "shown": "Trumps shown this bout to transfer.",
    "known": "For each seat, the cards in its hand that every player knows.",
    "finished": "Seats that are out, in groups by the bout end at which they went out.",
    "thrower": "Under turn_order last-thrower, the seat that played the bout's last attack "
               "card; null otherwise.",
})


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": _REF + name}


def _described(node: dict[str, Any], text: str | None) -> dict[str, Any]:
    return {**node, "description": text} if text else node


def _array(items: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": items, **extra}


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    return {"oneOf": [node, {"type": "null"}]}


def _object(properties: dict[str, Any], required: list[str], description: str | None = None
            ) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "object"}
    if description:
        node["description"] = description
    node.update({"properties": properties, "required": required,
                 "additionalProperties": False})
    return node


def _card_pattern() -> str:
    ranks = "|".join(["[6-9]", Rank.TEN.symbol, "T",
                      *[rank.symbol for rank in Rank if rank > Rank.TEN]])
    suits = "".join([s.symbol for s in Suit] + [s.letter for s in Suit])
    return f"^(?:{ranks})[{suits}]$"


def _scalars() -> dict[str, Any]:
    return {
        "id": {"type": "integer", "minimum": 0, "maximum": MAX_ID,
               "description": "Chosen by the checker; the response repeats it."},
        "seat": {"type": "integer", "minimum": 0, "maximum": MAX_SEAT,
                 "description": "A seat, 0-based and clockwise (P0, P1, ...)."},
        "card": {"type": "string", "pattern": _card_pattern(),
                 "description": "Rank then suit: 7♣, 10♥, Q♠, A♦; engines may write ASCII "
                                "suit letters (7C, 10H) and T for ten. The checker always "
                                "writes the suit symbols."},
        "suit": {"enum": [s.symbol for s in Suit] + [s.letter for s in Suit]},
        "ruleId": {"type": "string", "pattern": "^[A-Z]+-[0-9]+$",
                   "description": "A rule ID of the specification's rule index, such as "
                                  "BEAT-3."},
    }


def _rules() -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for axis in AXES:
        node: dict[str, Any] = {"description": f"{axis.title} ({', '.join(axis.rules)})"}
        if axis.enum is not None:
            node["enum"] = [m.value for m in axis.enum]
        elif axis.kind is int:
            node.update({"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS})
        else:
            node["type"] = "boolean"
        properties[axis.name] = node
    rules = _object(properties, [axis.name for axis in AXES],
                    "A complete rule set: every variant axis, by name.")
    # TRANSFER-7: showing a trump is a way to transfer
    rules["if"] = {"properties": {"transfer_by_showing_trump": {"const": True}}}
    rules["then"] = {"properties": {"transfer": {"const": True}}}
    return rules


_ACTION_FIELD_SCHEMAS: Final = MappingProxyType({
    "player": _ref("seat"),
    "card": _ref("card"),
    "attack": _ref("card"),
    "cards": _array(_ref("card"), minItems=1),
})


def _action() -> dict[str, Any]:
    variants = []
    for kind, names in ACTION_FIELDS.items():
        properties = {name: {"const": kind} if name == "type" else _ACTION_FIELD_SCHEMAS[name]
                      for name in names}
        variants.append(_object(properties, list(names), _ACTIONS[kind]))
    return {"description": "An action in the project's notation, as an object.",
            "oneOf": variants}


_EVENTS: Final = MappingProxyType({
    "action": "The action played; rule: the rule that allows it (ATTACK-1, BEAT-2, ...).",
    "transfer": "The attack passed on; defender: who defends now (TRANSFER-1, TRANSFER-7).",
    "trump-exchange": "The six of trumps swapped for the face-up trump (VAR-1).",
    "bout-ended": "The bout is over, taken by taker or beaten off (taker null); rule: what "
                  "settled it (ATTACK-5, LIMIT-1 .. LIMIT-3, TAKE-3, CLAR-13).",
    "draw": "One player's draw from the stock, in drawing order; rule: the rule of the "
            "order (DRAW-2, CLAR-7, CLAR-8).",
    "out": "Players who went out together at this bout end (END-1).",
    "next-bout": "The roles of the next bout; rule: what chose the attacker (ORDER-4, "
                 "ORDER-5, ORDER-6).",
    "game-over": "The end of the game; rule: END-3 (a durak), END-4 (a draw), END-5 (a "
                 "race).",
})

_EVENT_FIELD_SCHEMAS: Final = MappingProxyType({
    "action": _ref("action"), "text": {"type": "string"}, "player": _ref("seat"),
    "card": _ref("card"), "shown": {"type": "boolean"}, "defender": _ref("seat"),
    "gave": _ref("card"), "took": _ref("card"), "bout": {"type": "integer", "minimum": 1},
    "result": {"enum": ["beaten-off", "taken"]}, "taker": _nullable(_ref("seat")),
    "cards": _array(_ref("card")), "players": _array(_ref("seat")),
    "attacker": _ref("seat"), "durak": _nullable(_ref("seat")),
    "finishing_order": _array(_array(_ref("seat"))), "rule": _ref("ruleId"),
})


def _event() -> dict[str, Any]:
    variants = []
    for kind, (names, optional) in EVENT_FIELDS.items():
        properties = {name: {"const": kind} if name == "type" else _EVENT_FIELD_SCHEMAS[name]
                      for name in (*names, *optional, "rule")}
        variants.append(_object(properties, list(names), _EVENTS[kind]))
    return {"description": "One event of a step (durak_spec.model.events), with the rule "
                           "that decided it.", "oneOf": variants}


def _pair() -> dict[str, Any]:
    return {"type": "array",
            "description": "An attack card and the card covering it (null while uncovered).",
            "prefixItems": [_ref("card"), _nullable(_ref("card"))],
            "minItems": 2, "maxItems": 2, "items": False}


def _report() -> dict[str, Any]:
    cards = _array(_ref("card"))
    fields: dict[str, dict[str, Any]] = {
        "hands": {"type": "array", "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS,
                  "items": cards},
        "table": _array(_ref("pair")),
        "stock": {"type": "integer", "minimum": 0, "maximum": 36},
        "trump": _ref("suit"),
        "face_up": _nullable(_ref("card")),
        "discard": {"type": "integer", "minimum": 0, "maximum": 36},
        "attacker": _ref("seat"),
        "defender": _ref("seat"),
        "taking": {"type": "boolean"},
        "finished": _array(_array(_ref("seat"))),
        "over": {"type": "boolean"},
        "durak": _nullable(_ref("seat")),
        "known": _array(cards),
    }
    properties = {name: _described(fields[name], _REPORT.get(name))
                  for name in (*REPORT_FIELDS, "known")}
    return _object(properties, list(REPORT_FIELDS),
                   "What lies where: the facts the specification checks.")


def _state() -> dict[str, Any]:
    cards = _array(_ref("card"))
    fields: dict[str, dict[str, Any]] = {
        "hands": _array(cards), "stock": cards, "trump": _ref("suit"),
        "table": _array(_ref("pair")), "discard": cards, "attacker": _ref("seat"),
        "defender": _ref("seat"), "opener": _ref("seat"),
        "bout": {"type": "integer", "minimum": 0}, "taking": {"type": "boolean"},
        "passed": _array(_ref("seat")), "joined": _array(_ref("seat")),
        "start_hands": _array({"type": "integer", "minimum": 0, "maximum": 36}),
        "shown": cards, "known": _array(cards),
        "finished": _array(_array(_ref("seat"), minItems=1)),
        "thrower": {"oneOf": [_ref("seat"), {"type": "null"}]},
    }
    properties: dict[str, Any] = {"format": {"const": STATE_FORMAT},
                                  "version": {"const": VERSION}, "rules": _ref("rules")}
    properties.update({name: _described(fields[name], _POSITION.get(name))
                       for name in POSITION_KEYS})
    return _object(properties, list(properties),
                   "A full position, for load: a saved-position document of "
                   "durak_spec.game.persist (state_to_json), one key per field of the game "
                   "state.")


_REQUEST_FIELD_SCHEMAS: Final = MappingProxyType({
    "id": _ref("id"), "rules": _ref("rules"), "deck": _array(_ref("card")),
    "seed": {"type": "integer", "minimum": -MAX_ID, "maximum": MAX_ID},
    "state": _ref("state"), "action": _ref("action"),
    "then": {"type": "boolean", "description": "Optional, only to an engine that declares "
             "capabilities.step: answer an accepted action with the report and the legal "
             "actions after it (one round trip per action)."},
    "previous": {"type": "object", "description": "The last game's outcome, for a later "
                 "game of a match (ORDER-7).",
                 "properties": {"durak": {"type": ["integer", "null"], "minimum": 0},
                                "finishing_order": _array(_array({"type": "integer",
                                                                  "minimum": 0}))},
                 "required": ["durak", "finishing_order"], "additionalProperties": False},
})


def _requests() -> dict[str, Any]:
    defs: dict[str, Any] = {"request": {"oneOf": [_ref(f"{cmd}Request") for cmd in COMMANDS]}}
    for cmd in COMMANDS:
        names = REQUEST_FIELDS[cmd]
        properties = {name: {"const": cmd} if name == "cmd" else _REQUEST_FIELD_SCHEMAS[name]
                      for name in (*names, *OPTIONAL_FIELDS.get(cmd, ()))}
        defs[f"{cmd}Request"] = _object(properties, list(names), _REQUESTS[cmd])
    return defs


def _responses() -> dict[str, Any]:
    ok = {"id": _ref("id"), "ok": {"const": True}}
    nonempty = {"type": "string", "pattern": "\\S"}
    axes = {"type": "object",
            "description": "Optional: per rule-set axis, the values the engine plays in any "
                           "combination, beyond its whole profiles (booleans as on/off).",
            "properties": {name: _array({"enum": list(values)})
                           for name, values in AXIS_VALUES.items()},
            "required": [], "additionalProperties": False}
    hello = _object({
        **ok, "protocol": {"const": PROTOCOL_VERSION}, "name": nonempty,
        "version": {"type": "string"},
        "profiles": _array(nonempty, description="Names of the specification's profiles "
                                                 "whose rules the engine plays."),
        "players": _array({"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS},
                          description="The player counts the engine plays."),
        "axes": axes,
        "capabilities": _object({"load": {"type": "boolean",
                                          "description": "Whether the engine answers load."},
                                 "turn_order": {
                                     "type": "array", "minItems": 1,
                                     "items": {"enum": ["free", "opener-first",
                                                        "last-thrower"]},
                                     "description": "The bout protocols the engine plays, "
                                                    "its own first (CLAR-3, CLAR-17, "
                                                    "CLAR-18); default [\"free\"]."},
                                 "step": {"type": "boolean",
                                          "description": "Whether the engine answers an "
                                                         "apply with then by the report and "
                                                         "legal actions after it too."},
                                 "events": {"type": "boolean",
                                            "description": "Whether the engine's accepted "
                                                           "answers to apply carry the events "
                                                           "of the step (each with its "
                                                           "rule), compared event by event."}},
                                ["load"]),
    }, ["id", "ok", "protocol", "name", "version", "profiles", "players", "capabilities"],
        "The answer to hello.")
    names = ("hello", "report", "legal", "accepted", "rejected", "ok", "error")
    return {
        "response": {"oneOf": [_ref(f"{name}Response") for name in names]},
        "helloResponse": hello,
        "reportResponse": _object({**ok, "report": _ref("report")}, ["id", "ok", "report"],
                                  "The answer to start, load and state."),
        "legalResponse": _object({**ok, "actions": _array(_ref("action"))},
                                 ["id", "ok", "actions"],
                                 "The answer to legal; an empty list means the game is over."),
        "acceptedResponse": _object({**ok, "accepted": {"const": True},
                                     "report": _described(_ref("report"), "With then: the "
                                                          "report after the action."),
                                     "actions": _described(_array(_ref("action")), "With "
                                                           "then: the legal actions after "
                                                           "the action."),
                                     "events": _described(_array(_ref("event")), "Optional, "
                                                          "from an engine that declares "
                                                          "capabilities.events: what "
                                                          "happened in the step, in order, "
                                                          "the action played first, each "
                                                          "with the rule that decided it.")},
                                    ["id", "ok", "accepted"],
                                    "The answer to apply when the action was legal and is "
                                    "played."),
        "rejectedResponse": _object({
            **ok, "accepted": {"const": False}, "reason": nonempty,
            "rule": _described(_nullable(_ref("ruleId")), "The rule the action breaks, if "
                               "the engine knows the specification's IDs.")},
            ["id", "ok", "accepted", "reason", "rule"],
            "The answer to apply when the action is illegal."),
        "okResponse": _object(ok, ["id", "ok"], "The answer to quit."),
        "errorResponse": _object({
            "id": _described(_nullable(_ref("id")),
                             "null when the request's id could not be read."),
            "ok": {"const": False}, "error": {"type": "string"},
            "rule": _nullable(_ref("ruleId")),
            "declined": _described({"type": "boolean"},
                                   "Only in answer to load: true when the engine cannot "
                                   "represent this position (the standard way to decline "
                                   "it). The checker counts what needed the position as "
                                   "skipped, with error as the reason.")},
            ["id", "ok", "error"],
            "The engine cannot serve the request (a malformed request, no game yet, an "
            "invalid position, rules it does not play). Not for illegal actions: those are "
            "rejected."),
    }


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every message of the protocol."""
    defs: dict[str, Any] = {**_scalars(), "rules": _rules(), "action": _action(),
                            "pair": _pair(), "event": _event(), "report": _report(),
                            "state": _state(),
                            **_requests(), **_responses()}
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
        "oneOf": [_ref("request"), _ref("response")],
        "$defs": defs,
    }


def schema_text() -> str:
    """The schema as the package ships it: indented JSON, ending with a newline."""
    return write_json(protocol_schema(), indent=2) + "\n"
