"""The wire protocol: every message survives a round trip, decoding is strict and names the
offending field, and the JSON Schema accepts exactly what the decoder accepts."""

from __future__ import annotations

import copy
import dataclasses
import functools
import importlib
import json
import pickle
import random
import re
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from durak_spec import (
    AXES,
    DECK,
    PROFILES,
    Cover,
    Done,
    GameState,
    Open,
    Suit,
    Take,
    apply,
    legal_actions,
    new_game,
    profile,
)
from durak_spec.engine import deal
from durak_spec.game.persist import state_to_json
from durak_spec.protocol import Accepted, Capabilities, ReferenceEngine, Rejected, Report
from durak_spec.protocol.wire import (
    COMMANDS,
    QUOTE_LIMIT,
    REPLY_TYPES,
    ApplyRequest,
    Command,
    ErrorReply,
    HelloReply,
    HelloRequest,
    LegalReply,
    LegalRequest,
    LoadRequest,
    MalformedMessage,
    OkReply,
    ProtocolError,
    QuitRequest,
    Reply,
    ReportReply,
    Request,
    StartRequest,
    StateRequest,
    VerdictReply,
    action_from_wire,
    card_from_wire,
    decode_reply,
    decode_request,
    encode_reply,
    encode_request,
    quote,
    report_from_json,
    report_to_json,
)

# -- material: positions from random games ----------------------------------------------------


def positions(seed: int, games: int = 6) -> Iterator[GameState]:
    """Every position of a few random games, over several profiles and player counts."""
    rng = random.Random(seed)
    names = sorted(PROFILES)
    for g in range(games):
        rules = profile(names[g % len(names)]).rules(players=2 + (g % 5))
        state = new_game(rules, seed=seed * 100 + g)
        yield state
        while True:
            actions = legal_actions(state)
            if not actions:
                break
            state = apply(state, rng.choice(actions))
            yield state


POSITIONS = list(positions(1))
SAMPLE = [*POSITIONS[::max(1, len(POSITIONS) // 60)], POSITIONS[-1]]


def requests() -> Iterator[Request]:
    yield HelloRequest(1)
    for i, state in enumerate(SAMPLE[:12]):
        yield StartRequest(10 + i, state.rules, deal(state.rules, i), seed=i - 3)
        yield LoadRequest(100 + i, state)
    yield LegalRequest(2)
    yield StateRequest(3)
    yield QuitRequest(2**53 - 1)
    for state in SAMPLE:
        for action in legal_actions(state):
            yield ApplyRequest(7, action)


def replies() -> Iterator[tuple[Command, Reply]]:
    yield "hello", HelloReply(1, ReferenceEngine().capabilities())
    yield "hello", HelloReply(2, Capabilities(name="tiny", profiles=("source-b",),
                                              players=(2,), load=False))
    for i, state in enumerate(SAMPLE):
        yield "state", ReportReply(i, Report.of(state))
        yield "legal", LegalReply(i, legal_actions(state))
    yield "start", ReportReply(0, Report.of(POSITIONS[0]))
    yield "load", ReportReply(0, Report.of(POSITIONS[5]))
    yield "apply", VerdictReply(4, Accepted())
    yield "apply", VerdictReply(5, Rejected("only the defender P1 can take", "TAKE-1"))
    yield "apply", VerdictReply(6, Rejected("not your turn", None))
    yield "quit", OkReply(9)
    for cmd in COMMANDS:
        yield cmd, ErrorReply(11, "no game: call start first")
        yield cmd, ErrorReply(None, "not valid JSON")
        yield cmd, ErrorReply(12, "P1 holds 7♣ twice", "DEAL-1")


# -- round trips --------------------------------------------------------------------------------


def test_material_covers_every_kind_of_action_and_message() -> None:
    kinds = {type(a).__name__ for s in SAMPLE for a in legal_actions(s)}
    assert {"Open", "ThrowIn", "Cover", "Take", "Done"} <= kinds
    assert {type(r) for r in requests()} == {HelloRequest, StartRequest, LoadRequest,
                                             LegalRequest, ApplyRequest, StateRequest,
                                             QuitRequest}
    assert {type(r) for _, r in replies()} == {HelloReply, ReportReply, LegalReply,
                                               VerdictReply, OkReply, ErrorReply}
    assert any(s.table and any(p.cover for p in s.table) for s in SAMPLE)
    assert any(s.outcome is not None for s in SAMPLE)
    assert any(any(k) for s in SAMPLE for k in s.known)


def test_every_request_round_trips_as_one_line() -> None:
    for request in requests():
        line = encode_request(request)
        assert "\n" not in line
        assert json.loads(line)["cmd"] == request.cmd
        assert decode_request(line) == request
        assert decode_request(line.encode("utf-8")) == request


def test_every_reply_round_trips_as_one_line() -> None:
    for cmd, reply in replies():
        line = encode_reply(reply)
        assert "\n" not in line
        assert decode_reply(line, cmd) == reply
        assert decode_reply(line.encode("utf-8"), cmd) == reply


def test_replies_look_as_the_protocol_says() -> None:
    state = POSITIONS[3]
    assert json.loads(encode_reply(VerdictReply(4, Accepted()))) == \
        {"id": 4, "ok": True, "accepted": True}
    assert json.loads(encode_reply(VerdictReply(4, Rejected("no", "TAKE-1")))) == \
        {"id": 4, "ok": True, "accepted": False, "reason": "no", "rule": "TAKE-1"}
    assert json.loads(encode_reply(ErrorReply(None, "bad"))) == \
        {"id": None, "ok": False, "error": "bad"}
    hello = json.loads(encode_reply(HelloReply(1, ReferenceEngine().capabilities())))
    assert hello["protocol"] == 1 and hello["capabilities"] == {
        "load": True, "turn_order": ["free", "opener-first", "last-thrower"],
        "events": True}
    assert hello["players"] == [2, 3, 4, 5, 6] and "classic-transfer" in hello["profiles"]
    legal = json.loads(encode_reply(LegalReply(2, legal_actions(state))))
    assert legal["actions"] == [a.to_json() for a in legal_actions(state)]


def test_the_fast_report_text_is_the_report_json() -> None:
    for state in POSITIONS[::7]:
        report = Report.of(state)
        data = json.loads(encode_reply(ReportReply(3, report)))
        assert data == {"id": 3, "ok": True, "report": report_to_json(report)}
        assert report_from_json(report_to_json(report)) == report


def test_report_json_fields() -> None:
    state = next(s for s in POSITIONS if s.table and s.table[0].cover is None)
    data = report_to_json(Report.of(state))
    assert list(data) == ["hands", "table", "stock", "trump", "face_up", "discard", "attacker",
                          "defender", "taking", "finished", "over", "durak", "known"]
    assert data["table"][0] == [str(state.table[0].attack), None]
    assert data["hands"] == [[str(c) for c in hand] for hand in state.hands]
    assert data["stock"] == len(state.stock) and data["trump"] == state.trump.symbol


def test_load_carries_the_full_position_in_the_saved_position_format() -> None:
    state = next(s for s in POSITIONS if s.table and s.stock)
    data = json.loads(encode_request(LoadRequest(5, state)))
    assert data["state"] == json.loads(json.dumps(state_to_json(state)))
    assert data["state"]["format"] == "durak-spec/state"
    assert set(GameState._fields) <= set(data["state"])


def test_known_cards_are_optional_in_a_report() -> None:
    state = next(s for s in POSITIONS if any(s.known))
    report = Report.of(state)
    data = report_to_json(report)
    assert data["known"] == [[str(c) for c in sorted(k)] for k in state.known]
    data["known"] = [list(reversed(k)) for k in data["known"]]
    assert report_from_json(data) == report
    del data["known"]
    assert report_from_json(data) == dataclasses.replace(report, known=())
    data["known"] = "none"
    with pytest.raises(ProtocolError) as caught:
        decode_reply(json.dumps({"id": 1, "ok": True, "report": data}), "state")
    assert caught.value.field == "report.known"


def test_axes_are_optional_in_the_handshake() -> None:
    everything = ReferenceEngine().capabilities()
    assert everything.axes and decode_reply(encode_reply(HelloReply(1, everything)),
                                            "hello") == HelloReply(1, everything)
    data = json.loads(encode_reply(HelloReply(1, everything)))
    assert data["axes"]["throw_in"] == ["attacker", "neighbours", "all"]
    assert data["axes"]["transfer"] == ["on", "off"]
    del data["axes"]
    reply = decode_reply(json.dumps(data), "hello")
    assert isinstance(reply, HelloReply) and reply.capabilities.axes == {}


def test_report_hands_may_come_in_any_order_and_in_ascii() -> None:
    report = Report.of(POSITIONS[0])
    data = report_to_json(report)
    data["hands"] = [[card_from_wire(c).ascii for c in reversed(hand)] for hand in data["hands"]]
    data["trump"] = report.trump.letter
    assert report_from_json(data) == report


# -- cards and actions ---------------------------------------------------------------------------


def test_cards_in_wire_notation() -> None:
    for card in DECK:
        assert card_from_wire(str(card)) is card
        assert card_from_wire(card.ascii) is card
    assert card_from_wire("TH") == card_from_wire("10♥")


@pytest.mark.parametrize(("text", "hint"), [
    ("7c", "write \"7♣\" (or \"7C\")"),
    ("7 ♣", "write \"7♣\""),
    ("10 hearts", "write \"10♥\""),
    ("5♣", "not a rank of the Durak deck"),
    ("7X", "not a suit"),
    ("", "empty card"),
])
def test_cards_outside_the_wire_notation_are_refused_with_a_hint(text: str, hint: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_request(json.dumps({"id": 1, "cmd": "apply",
                                   "action": {"player": 0, "type": "throw", "card": text}}))
    assert caught.value.field == "action.card"
    assert hint in caught.value.reason


def test_actions_decode_to_the_engines_actions() -> None:
    for state in SAMPLE:
        for action in legal_actions(state):
            assert action_from_wire(action.to_json()) == action
    assert action_from_wire({"player": 1.0, "type": "take"}) == Take(1)
    first, second = DECK[0], DECK[9]
    assert action_from_wire({"player": 0, "type": "open", "cards": [str(first), str(second)]}) \
        == Open(0, (first, second))
    assert action_from_wire({"type": "cover", "card": "9C", "attack": "7C", "player": 1}) == \
        Cover(1, card_from_wire("7♣"), card_from_wire("9♣"))


# -- strict decoding ------------------------------------------------------------------------------

GOOD_ACTION = {"player": 0, "type": "done"}
BAD_REQUESTS: list[tuple[dict[str, Any], str, str]] = [
    ({"cmd": "hello"}, "id", "is missing"),
    ({"id": "1", "cmd": "hello"}, "id", "whole number"),
    ({"id": True, "cmd": "hello"}, "id", "whole number"),
    ({"id": -1, "cmd": "hello"}, "id", "from 0"),
    ({"id": 1}, "cmd", "must be one of hello, start"),
    ({"id": 1, "cmd": "play"}, "cmd", "not \"play\""),
    ({"id": 1, "cmd": "hello", "extra": 1}, "extra", "not a field of this message"),
    ({"id": 1, "cmd": "apply"}, "action", "is missing"),
    ({"id": 1, "cmd": "apply", "action": []}, "action", "action object"),
    ({"id": 1, "cmd": "apply", "action": {"player": 0, "type": "pass"}}, "action.type",
     "one of open, throw"),
    ({"id": 1, "cmd": "apply", "action": {"player": 6, "type": "take"}}, "action.player",
     "from 0 to 5"),
    ({"id": 1, "cmd": "apply", "action": {"player": 0, "type": "take", "card": "7♣"}},
     "action.card", "not a field"),
    ({"id": 1, "cmd": "apply", "action": {"player": 0, "type": "cover", "card": "7♣"}},
     "action.attack", "is missing"),
    ({"id": 1, "cmd": "apply", "action": {"player": 0, "type": "open", "cards": []}},
     "action.cards", "at least one card"),
    ({"id": 1, "cmd": "apply", "action": {"player": 0, "type": "open", "cards": ["7♣", 7]}},
     "action.cards[1]", "must be a card"),
    ({"id": 1, "cmd": "start", "rules": {}, "deck": [], "seed": 0}, "rules.players",
     "is missing"),
    ({"id": 1, "cmd": "start", "deck": [], "seed": 0}, "rules", "is missing"),
]


def _start(**rules: object) -> dict[str, Any]:
    base = profile("classic-throw-in").rules(players=3).to_dict()
    base.update(rules)
    return {"id": 4, "cmd": "start", "rules": base, "deck": [str(c) for c in DECK], "seed": 0}


BAD_REQUESTS += [
    (_start(players=7), "rules.players", "from 2 to 6"),
    (_start(players="3"), "rules.players", "whole number"),
    (_start(transfer="yes"), "rules.transfer", "true or false"),
    (_start(throw_in="everyone"), "rules.throw_in", "attacker, neighbours, all"),
    (_start(transfer_by_showing_trump=True), "rules", "needs the transfer game"),
    ({**_start(), "deck": "7♣ 8♣"}, "deck", "array of cards"),
    ({**_start(), "deck": ["7♣", "8♣", "1♣"]}, "deck[2]", "not a rank"),
    ({**_start(), "seed": 1.5}, "seed", "whole number"),
    ({"id": 1, "cmd": "load", "state": []}, "state", "must be a JSON object"),
    ({"id": 1, "cmd": "load", "state": {"format": "durak-spec/game", "version": 1}},
     "state.format", "unknown format"),
]


@pytest.mark.parametrize(("message", "field", "reason"), BAD_REQUESTS)
def test_bad_requests_name_the_field(message: dict[str, Any], field: str, reason: str) -> None:
    line = json.dumps(message, ensure_ascii=False)
    with pytest.raises(ProtocolError) as caught:
        decode_request(line)
    error = caught.value
    assert not isinstance(error, MalformedMessage)
    assert error.field == field
    assert reason in error.reason
    assert str(error).startswith(f"{field}: ")
    assert f"(in line: {quote(line)})" in str(error)
    expected_id = message.get("id")
    if isinstance(expected_id, int) and not isinstance(expected_id, bool) and expected_id >= 0:
        assert error.message_id == expected_id


def test_a_load_of_an_impossible_position_names_the_rule() -> None:
    state = POSITIONS[10]
    data = json.loads(encode_request(LoadRequest(8, state)))
    data["state"]["hands"][0].append(data["state"]["hands"][1][0])  # one card in two hands
    with pytest.raises(ProtocolError) as caught:
        decode_request(json.dumps(data, ensure_ascii=False))
    assert caught.value.rule == "DEAL-1"
    assert caught.value.message_id == 8
    assert "two places" in caught.value.reason


def _report_reply(**changes: object) -> dict[str, Any]:
    data: dict[str, Any] = {"id": 2, "ok": True,
                            "report": report_to_json(Report.of(POSITIONS[4]))}
    data["report"].update(changes)
    return data


BAD_REPLIES: list[tuple[Command, dict[str, Any], str, str]] = [
    ("legal", {"id": 2, "ok": True}, "actions", "is missing"),
    ("legal", {"id": 2, "actions": []}, "ok", "is missing"),
    ("legal", {"id": 2, "ok": "yes", "actions": []}, "ok", "true or false"),
    ("legal", {"id": 2, "ok": True, "actions": {}}, "actions", "JSON array"),
    ("legal", {"id": 2, "ok": True, "actions": [GOOD_ACTION, {"player": 0}]}, "actions[1].type",
     "one of open"),
    ("legal", {"id": 2, "ok": True, "actions": [], "note": "hi"}, "note", "not a field"),
    ("apply", {"id": 2, "ok": True}, "accepted", "is missing"),
    ("apply", {"id": 2, "ok": True, "accepted": False, "reason": "no"}, "rule", "is missing"),
    ("apply", {"id": 2, "ok": True, "accepted": False, "reason": " ", "rule": None}, "reason",
     "must not be empty"),
    ("apply", {"id": 2, "ok": True, "accepted": False, "reason": "x", "rule": "beat 3"}, "rule",
     "rule ID"),
    ("apply", {"id": 2, "ok": True, "accepted": True, "rule": None}, "rule", "not a field"),
    ("state", {"id": 2, "ok": True, "report": None}, "report", "JSON object"),
    ("state", _report_reply(hands=[[]]), "report.hands", "2 to 6 players"),
    ("state", _report_reply(hands=[["7♣"], ["8♣", "Z♣"]]), "report.hands[1][1]", "not"),
    ("state", _report_reply(table=[["7♣"]]), "report.table[0]", "pair"),
    ("state", _report_reply(table=[["7♣", "9Q"]]), "report.table[0][1]", "not a suit"),
    ("state", _report_reply(stock=37), "report.stock", "from 0 to 36"),
    ("state", _report_reply(trump="hearts"), "report.trump", "must be a suit"),
    ("state", _report_reply(face_up=""), "report.face_up", "empty card"),
    ("state", _report_reply(attacker=None), "report.attacker", "whole number"),
    ("state", _report_reply(taking=0), "report.taking", "true or false"),
    ("state", _report_reply(finished=[[0, "1"]]), "report.finished[0][1]", "whole number"),
    ("state", _report_reply(durak=-1), "report.durak", "from 0 to 5"),
    ("state", _report_reply(known=[["7♣"], [None]]), "report.known[1][0]", "must be a card"),
    ("start", {"id": 2, "ok": True, "report": {"hands": []}}, "report.table", "is missing"),
    ("hello", {"id": 1, "ok": True, "protocol": 1, "name": "", "version": "", "profiles": [],
               "players": [2], "capabilities": {"load": False}}, "name", "not be empty"),
    ("hello", {"id": 1, "ok": True, "protocol": 1, "name": "x", "version": "", "profiles": [],
               "players": [7], "capabilities": {"load": False}}, "players[0]", "from 2 to 6"),
    ("hello", {"id": 1, "ok": True, "protocol": 1, "name": "x", "version": "", "profiles": [],
               "players": [2], "capabilities": {}}, "capabilities.load", "is missing"),
    ("hello", {"id": 1, "ok": True, "protocol": 1, "name": "x", "version": "", "profiles": [],
               "players": [2], "axes": {"players": ["2"]}, "capabilities": {"load": False}},
     "axes.players", "is not a field of this object (its fields are transfer, "),
    ("hello", {"id": 1, "ok": True, "protocol": 1, "name": "x", "version": "", "profiles": [],
               "players": [2], "axes": {"transfer": ["on", True]},
               "capabilities": {"load": False}}, "axes.transfer[1]", "one of on, off"),
    ("hello", {"id": 1, "ok": True, "protocol": 1, "name": "x", "version": "", "profiles": [],
               "players": [2], "axes": [], "capabilities": {"load": False}}, "axes",
     "JSON object of axes"),
    ("hello", {"id": 1, "ok": True, "protocol": 1, "name": "x", "version": "", "profiles": [],
               "players": [2], "capabilities": {"load": False, "undo": True}},
     "capabilities.undo", "not a field"),
    ("quit", {"id": 1, "ok": False}, "error", "is missing"),
    ("quit", {"id": 1, "ok": False, "error": "x", "why": "y"}, "why", "not a field"),
    ("quit", {"id": "1", "ok": True}, "id", "whole number"),
]


@pytest.mark.parametrize(("cmd", "message", "field", "reason"), BAD_REPLIES)
def test_bad_replies_name_the_field(cmd: Command, message: dict[str, Any], field: str,
                                    reason: str) -> None:
    line = json.dumps(message, ensure_ascii=False)
    with pytest.raises(ProtocolError) as caught:
        decode_reply(line, cmd)
    assert not isinstance(caught.value, MalformedMessage)
    assert caught.value.field == field
    assert reason in caught.value.reason
    assert str(caught.value).startswith(f"{field}: ")


@pytest.mark.parametrize("line", [
    "", "   ", "{", "{\"id\": 1,}", "[1, 2]", "\"hello\"", "17", "null",
    "{\"id\": NaN, \"cmd\": \"hello\"}", "{\"id\": 1, \"cmd\": \"hello\"} {}",
    b"{\"id\": 1, \"cmd\": \"\xff\"}",
])
def test_lines_that_are_not_json_objects_are_malformed(line: str | bytes) -> None:
    with pytest.raises(MalformedMessage):
        decode_request(line)
    with pytest.raises(MalformedMessage):
        decode_reply(line, "legal")


def test_errors_quote_the_line_cut_to_200_characters() -> None:
    junk = "x" * 5000
    line = json.dumps({"id": 1, "cmd": "legal", "junk": junk})
    with pytest.raises(ProtocolError) as caught:
        decode_request(line)
    text = str(caught.value)
    assert line[:QUOTE_LIMIT] in text
    assert line[:QUOTE_LIMIT + 1] not in text
    assert f"({len(line) - QUOTE_LIMIT} more characters)" in text
    assert len(text) < QUOTE_LIMIT + 200
    assert caught.value.line == line  # the whole line stays available


def test_quote() -> None:
    assert quote("short\n") == "short"
    assert quote(b"\xffab") == "\ufffdab"
    assert quote("a" * 250, 10) == "aaaaaaaaaa… (240 more characters)"


def test_protocol_errors_pickle() -> None:
    error = ProtocolError("bad", field="x.y", line="{}", message_id=3, rule="DEAL-1")
    copy_ = pickle.loads(pickle.dumps(error))
    assert (copy_.reason, copy_.field, copy_.line, copy_.message_id, copy_.rule) == \
        ("bad", "x.y", "{}", 3, "DEAL-1")
    assert str(copy_) == str(error)


def test_decode_reply_needs_a_known_command() -> None:
    with pytest.raises(ValueError, match="unknown command 'move'"):
        decode_reply("{}", "move")  # type: ignore[arg-type]


def test_an_error_reply_may_answer_any_command() -> None:
    for cmd in COMMANDS:
        assert decode_reply('{"id": 3, "ok": false, "error": "no"}', cmd) == ErrorReply(3, "no")
        assert isinstance(decode_reply(encode_reply(ErrorReply(3, "x")), cmd), ErrorReply)
    assert REPLY_TYPES["apply"] is VerdictReply


def test_a_wrong_reply_kind_is_out_of_protocol() -> None:
    legal = encode_reply(LegalReply(1, legal_actions(POSITIONS[0])))
    with pytest.raises(ProtocolError) as caught:
        decode_reply(legal, "state")
    assert caught.value.field in ("report", "actions")


# -- the JSON Schema ----------------------------------------------------------------------

try:
    jsonschema: Any = importlib.import_module("jsonschema")
except ImportError:  # pragma: no cover - a test dependency; the tests below say so
    jsonschema = None
needs_jsonschema = pytest.mark.skipif(
    jsonschema is None, reason="validating against the JSON Schema needs jsonschema installed")

SCHEMA: dict[str, Any] = json.loads(
    resources.files("durak_spec").joinpath("data/protocol.schema.json").read_text("utf-8"))
RESPONSES: dict[str, tuple[str, ...]] = {
    "hello": ("helloResponse",), "start": ("reportResponse",), "load": ("reportResponse",),
    "legal": ("legalResponse",), "apply": ("acceptedResponse", "rejectedResponse"),
    "state": ("reportResponse",), "quit": ("okResponse",),
}


@functools.cache
def _validator(*names: str) -> Any:
    """A validator for the schema's definitions ``names`` (any of them)."""
    schema = {key: value for key, value in SCHEMA.items() if key != "oneOf"}
    schema["anyOf"] = [{"$ref": f"#/$defs/{name}"} for name in names]
    return jsonschema.Draft202012Validator(schema)


def _validator_for(kind: str) -> Any:
    """The validator of requests, or of the responses to the command ``kind``."""
    if kind == "request":
        return _validator("request")
    return _validator(*RESPONSES[kind], "errorResponse")


@needs_jsonschema
def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@needs_jsonschema
def test_every_encoded_message_is_valid_under_the_schema() -> None:
    whole = jsonschema.Draft202012Validator(SCHEMA)
    for request in requests():
        data = json.loads(encode_request(request))
        _validator_for("request").validate(data)
        whole.validate(data)
    for cmd, reply in replies():
        data = json.loads(encode_reply(reply))
        _validator_for(cmd).validate(data)
        whole.validate(data)


def test_the_schema_knows_every_rule_set_axis() -> None:
    rules = SCHEMA["$defs"]["rules"]
    assert set(rules["properties"]) == {axis.name for axis in AXES}
    assert rules["required"] == [axis.name for axis in AXES]
    for axis in AXES:
        prop = rules["properties"][axis.name]
        if axis.enum is not None:
            assert prop["enum"] == [m.value for m in axis.enum]
        else:
            assert prop["type"] == ("integer" if axis.kind is int else "boolean")


def test_the_schema_card_pattern_is_the_wire_notation() -> None:
    pattern = re.compile(SCHEMA["$defs"]["card"]["pattern"])
    suits = SCHEMA["$defs"]["suit"]["enum"]
    spellings = {str(c) for c in DECK} | {c.ascii for c in DECK} | {"T" + s for s in suits}
    assert len(spellings) == 36 * 2 + 8
    for text in spellings:
        assert pattern.search(text), text
        card_from_wire(text)
    for text in ("7c", "7 ♣", "5♣", "1♣", "10", "♣", "", "7♣ ", "07♣", "10♥♥", "t♥", "7♧"):
        assert not pattern.search(text), text
        with pytest.raises(ProtocolError):
            decode_reply(json.dumps(_report_reply(face_up=text)), "state")
    assert sorted(suits) == sorted([s.symbol for s in Suit] + [s.letter for s in Suit])


# The schema and the decoder must agree: mutate valid messages at random places and check
# that the decoder accepts a message exactly when the schema does. (load requests are left
# out: their position is checked against the rules as well, which no schema can do.)

REQUEST_MESSAGES: list[tuple[str, dict[str, Any]]] = [
    ("request", json.loads(encode_request(r))) for r in requests()
    if not isinstance(r, LoadRequest)
]
REPLY_MESSAGES: list[tuple[str, dict[str, Any]]] = [
    (cmd, json.loads(encode_reply(r))) for cmd, r in replies()
]
MESSAGES = REQUEST_MESSAGES[::5] + REPLY_MESSAGES[::3]
POOL: list[Any] = [None, True, False, 0, 1, -1, 2, 3, 7, 36, 37, 2.0, 2.5, "", " ", "7♣", "7C",
                   "TH", "7c", "x", "♦", "D", "BEAT-3", "all", "current-hand", "take", "hello",
                   [], ["7♣"], [["7♣", None]], [0], {}, {"player": 0, "type": "take"},
                   {"load": True}, {"transfer": ["on"]}, ["off"], [[]]]


def _places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*path, index))


Mutation = tuple[int, int, int]  # (which place, which change, which value from POOL)


def _mutate(message: Any, mutations: list[Mutation]) -> Any:
    data = copy.deepcopy(message)
    for place, op, value in mutations:
        places = list(_places(data))[1:]
        if not places:
            continue
        path = places[place % len(places)]
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        if op == 0:
            del parent[last]
        elif op == 1:
            parent[last] = copy.deepcopy(POOL[value % len(POOL)])
        elif isinstance(parent, dict):
            parent["extra"] = 1
        else:
            parent.append(copy.deepcopy(POOL[value % len(POOL)]))
    return data


def _decoder_accepts(kind: str, data: Any) -> bool:
    line = json.dumps(data, ensure_ascii=False)
    try:
        if kind == "request":
            decode_request(line)
        else:
            reply = decode_reply(line, kind)  # type: ignore[arg-type]
            if isinstance(reply, HelloReply) and reply.capabilities.protocol != 1:
                return False  # another protocol version: well formed, but not version 1
    except ProtocolError:
        return False
    return True


MUTATIONS = st.lists(st.tuples(st.integers(0, 10**4), st.integers(0, 2),
                                st.integers(0, len(POOL) - 1)), min_size=1, max_size=3)


@needs_jsonschema
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(MESSAGES) - 1), MUTATIONS)
def test_the_decoder_accepts_exactly_what_the_schema_accepts(index: int,
                                                             mutations: list[Mutation]) -> None:
    kind, message = MESSAGES[index]
    data = _mutate(message, mutations)
    assert _decoder_accepts(kind, data) == _validator_for(kind).is_valid(data), \
        (kind, json.dumps(data, ensure_ascii=False)[:300])


def test_the_mutations_find_both_valid_and_invalid_messages() -> None:
    rng = random.Random(5)
    verdicts = set()
    for _ in range(200):
        kind, message = rng.choice(MESSAGES)
        data = _mutate(message, [(rng.randrange(10**4), rng.randrange(3),
                                  rng.randrange(len(POOL)))])
        verdicts.add(_decoder_accepts(kind, data))
    assert verdicts == {True, False}


@needs_jsonschema
def test_done_is_a_valid_action_object() -> None:
    assert _validator("action").is_valid(Done(2).to_json())


def test_the_shipped_schema_is_the_generated_one() -> None:
    from durak_spec.protocol.schema import schema_text

    shipped = resources.files("durak_spec").joinpath("data/protocol.schema.json")
    assert shipped.read_text("utf-8") == schema_text(), (
        "the protocol changed: regenerate the schema with "
        "'durak-spec serve --schema > durak_spec/data/protocol.schema.json'")


def test_serve_schema_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    from durak_spec.cli import main
    from durak_spec.protocol.schema import schema_text

    assert main(["serve", "--schema"]) == 0
    assert capsys.readouterr().out == schema_text()
