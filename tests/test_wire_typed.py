"""The typed decoding (msgspec structs) reads exactly what the strict reader reads.

A line as compact as the encoder writes it is decoded by msgspec into the structs of
:mod:`durak_spec.protocol.messages` and turned into protocol values; anything else goes to
the strict reader, which walks the same declarations. Each is checked here against the
strict reader alone, on good and bad input: reports with hands of every kind, every line
of played games, and lines that differ from the encoder's only by a key given twice.
"""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any

import hypothesis
import msgspec
import pytest
from hypothesis import strategies as st

from durak_spec.core.cards import DECK, parse_card
from durak_spec.core.jsonio import write_json
from durak_spec.engine import deal
from durak_spec.model.rules import profile
from durak_spec.model.state import Pair
from durak_spec.protocol import ReferenceEngine, messages, wire
from durak_spec.protocol.serve import Server
from durak_spec.protocol.wire import (
    ApplyRequest,
    Command,
    LegalReply,
    LegalRequest,
    MalformedMessage,
    ProtocolError,
    StartRequest,
    StateRequest,
    decode_reply,
    decode_request,
    encode_request,
    report_from_json,
)

CARDS = [str(card) for card in DECK]
_ITEMS = st.one_of(st.sampled_from(CARDS), st.sampled_from(["7C", "TH", "10H"]),
                   st.sampled_from([7, 1, True, 1.0, None, "", "7", "11♣", "7♣ ", ["7♣"],
                                    {"7♣": 1}]))
_HANDS = st.lists(st.one_of(st.lists(_ITEMS, max_size=6),
                            st.sampled_from(["7♣", {"7♣": 0}, None, 3])), min_size=1,
                  max_size=7)


def _report(hands: object, **changes: object) -> dict[str, Any]:
    return {"hands": hands, "table": [], "stock": 0, "trump": "♣", "face_up": None,
            "discard": 0, "attacker": 0, "defender": 1, "taking": False, "finished": [],
            "over": False, "durak": None, "known": [[] for _ in range(2)], **changes}


def _outcome(call: Any) -> tuple[str, object]:
    try:
        return ("read", call())
    except ProtocolError as error:
        return ("refused", str(error))


def _strictly(line: str | bytes, cmd: Command) -> tuple[str, object]:
    """The outcome of the strict reader alone."""
    return _outcome(lambda: wire._strict_reply(line, cmd))


def _line(report: dict[str, Any]) -> bytes:
    return write_json({"id": 3, "ok": True, "report": report}).encode("utf-8")


@hypothesis.given(hands=_HANDS, known=st.booleans())
@hypothesis.settings(max_examples=300, deadline=None)
def test_a_report_reads_as_the_strict_reader_reads_it(hands: list[Any], known: bool) -> None:
    line = _line(_report(hands, known=hands) if known else _report(hands))
    assert _outcome(lambda: decode_reply(line, "state")) == _strictly(line, "state")


def test_every_line_of_played_games_reads_as_the_strict_reader_reads_it() -> None:
    server = Server(ReferenceEngine())
    rules = profile("classic-transfer").rules(players=3)
    typed = 0
    for game in range(3):
        rng = random.Random(game)
        exchanges: list[tuple[str, str, Command]] = []
        start = encode_request(StartRequest(1, rules, deal(rules, game), game))
        exchanges.append((start, server.handle(start) or "", "start"))
        for ident in range(2, 400, 3):
            legal = encode_request(LegalRequest(ident))
            answer = server.handle(legal) or ""
            exchanges.append((legal, answer, "legal"))
            listed = decode_reply(answer, "legal")
            assert isinstance(listed, LegalReply)
            if not listed.actions:
                break
            apply = encode_request(ApplyRequest(ident + 1, rng.choice(listed.actions),
                                                then=ident % 2 == 0))
            exchanges.append((apply, server.handle(apply) or "", "apply"))
            state = encode_request(StateRequest(ident + 2))
            exchanges.append((state, server.handle(state) or "", "state"))
        for request, answer, cmd in exchanges:
            assert wire._typed_request(request) \
                == decode_request(request) == wire._strict_request(request)
            assert _outcome(lambda answer=answer, cmd=cmd: decode_reply(answer, cmd)) == \
                _strictly(answer, cmd)
            typed += wire._typed_reply(answer, cmd) is not None
    assert typed > 100  # the encoder's lines take the typed path


@pytest.mark.parametrize(("line", "cmd"), [
    ('{"id":3,"ok":true,"actions":[{"player":1,"type":"take","type":"done"}]}', "legal"),
    ('{"id":3,"id":4,"ok":true,"accepted":true}', "apply"),
    ('{"id":3,"ok":true,"report":{"hands":[[],[]],"hands":[[],[]],"table":[],"stock":0,'
     '"trump":"♣","face_up":null,"discard":0,"attacker":0,"defender":1,"taking":false,'
     '"finished":[],"over":false,"durak":null,"known":[]}}', "state"),
])
def test_a_key_given_twice_is_refused_even_where_the_structs_decode_it(
        line: str, cmd: Command) -> None:
    with pytest.raises(MalformedMessage, match="appears twice in one object"):
        decode_reply(line, cmd)
    with pytest.raises(MalformedMessage, match="appears twice in one object"):
        decode_reply(line.encode(), cmd)


def test_a_request_with_a_key_given_twice_is_refused() -> None:
    with pytest.raises(MalformedMessage, match="appears twice in one object"):
        decode_request('{"id":1,"cmd":"apply","action":{"player":0,"type":"take",'
                       '"player":1}}')


def test_the_table_holds_the_engines_shared_pairs() -> None:
    report = report_from_json(_report([["7♣"], ["8♣"]], table=[["9♣", None], ["10H", "J♥"]]))
    assert report.table == (Pair(parse_card("9♣")), Pair(parse_card("10♥"), parse_card("J♥")))
    assert all(type(pair) is Pair for pair in report.table)


@pytest.mark.parametrize(("table", "field", "reason"), [
    ([["9♣"]], "report.table[0]", "must be a pair"),
    ([["9♣", "9x"]], "report.table[0][1]", "is not a suit"),
    ([["9♣", ["J♥"]]], "report.table[0][1]", "must be a card"),
    ([[None, "J♥"]], "report.table[0][0]", "must be a card"),
    ([[9, None]], "report.table[0][0]", "must be a card"),
])
def test_a_wrong_pair_is_still_named(table: object, field: str, reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason) as caught:
        decode_reply(_line(_report([["7♣"], ["8♣"]], table=table)), "state")
    assert caught.value.field == field


@pytest.mark.parametrize(("finished", "expected"), [
    ([], ()), ([[3]], ((3,),)), ([[0, 2], [1]], ((0, 2), (1,))), ([[]], ((),)),
])
def test_the_finishing_order_is_read(finished: object, expected: object) -> None:
    report = report_from_json(_report([["7♣"], ["8♣"]], finished=finished))
    assert report.finished == expected


@pytest.mark.parametrize(("finished", "field"), [
    ([[True]], "report.finished[0][0]"), ([[1.5]], "report.finished[0][0]"),
    ([[6]], "report.finished[0][0]"), ([[-1]], "report.finished[0][0]"),
    ([[0], ["1"]], "report.finished[1][0]"), ([3], "report.finished[0]"),
    ("none", "report.finished"),
])
def test_a_wrong_finishing_order_is_still_named(finished: object, field: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_reply(_line(_report([["7♣"], ["8♣"]], finished=finished)), "state")
    assert caught.value.field == field


def _properties(*names: str) -> set[str]:
    schema = json.loads(resources.files("durak_spec").joinpath("data/protocol.schema.json")
                        .read_text("utf-8"))
    defs = schema["$defs"]
    found: set[str] = set()
    for name in names:
        for variant in defs[name].get("oneOf", [defs[name]]):
            found |= set(variant["properties"])
    return found


@pytest.mark.parametrize(("struct", "definitions"), [
    (messages.ReportMsg, ("report",)),
    (messages.ReportReplyMsg, ("reportResponse",)),
    (messages.LegalResponseMsg, ("legalResponse",)),
    (messages.OkReplyMsg, ("okResponse",)),
])
def test_each_struct_declares_the_fields_of_its_messages_in_the_schema(
        struct: type[msgspec.Struct], definitions: tuple[str, ...]) -> None:
    assert set(struct.__struct_fields__) == _properties(*definitions)


def test_the_report_fields_are_the_reports_declaration() -> None:
    schema = json.loads(resources.files("durak_spec").joinpath("data/protocol.schema.json")
                        .read_text("utf-8"))
    required = [f.name for f in msgspec.structs.fields(messages.ReportMsg) if f.required]
    assert required == schema["$defs"]["report"]["required"]
    assert [*required, "known"] == list(messages.ReportMsg.__struct_fields__)


def test_msgspec_writes_each_character_as_many_bytes_as_a_line_without_escapes_takes() -> None:
    """What the typed path's proof that no key was given twice rests on (wire._typed)."""
    text = "".join(chr(c) for c in range(0x20, 0x110000)
                   if chr(c) not in '"\\' and not 0xD800 <= c < 0xE000)
    assert len(msgspec.json.encode(text)) == len(text.encode("utf-8")) + 2
    assert len(msgspec.json.encode([0, 7, -12, 2**53 - 1, True, False, None])) == \
        len("[0,7,-12,9007199254740991,true,false,null]")


@pytest.mark.parametrize(("line", "cmd"), [
    ('{"id":3,"ok":true,"accepted":true,"accepted":true}', "apply"),
    ('{"id":3,"ok":true,"accepted":false,"reason":"no","rule":null,"rule":null}', "apply"),
    ('{"id":3,"ok":true,"ok":true}', "quit"),
])
def test_a_key_given_twice_in_any_answer_is_refused(line: str, cmd: Command) -> None:
    assert wire._typed_reply(line, cmd) is None
    with pytest.raises(MalformedMessage, match="appears twice in one object"):
        decode_reply(line, cmd)


def test_a_request_as_the_encoder_writes_it_takes_the_typed_path() -> None:
    line = '{"id":7,"cmd":"apply","action":{"player":1,"type":"cover","attack":"7♣",' \
        '"card":"9♣"},"then":true}'
    assert wire._typed_request(line) == decode_request(line)
    assert wire._typed_request(line.replace(":1,", ": 1,")) is None
    assert wire._typed_request(line[:-1] + ',"id":7}') is None


def _structs() -> list[type[msgspec.Struct]]:
    return [value for value in vars(messages).values()
            if isinstance(value, type) and issubclass(value, msgspec.Struct)
            and value.__module__ == messages.__name__]


def test_a_struct_encoded_again_is_the_shortest_line_of_its_message() -> None:
    # wire._compact takes a line from msgspec only when it is as long as its struct encoded
    # again: that proves no key was given twice only if the encoding is the shortest line of
    # the message. A default that is written (not UNSET, or omitted as a default) would let a
    # line that leaves it out carry a repeated key of the same length; a float field would
    # let a number be written shorter than msgspec writes it.
    assert _structs()
    for struct in _structs():
        if not struct.__struct_config__.omit_defaults:
            written = [field for field, default in zip(
                struct.__struct_fields__[len(struct.__struct_fields__)
                                         - len(struct.__struct_defaults__):],
                struct.__struct_defaults__, strict=True) if default is not msgspec.UNSET]
            assert not written, f"{struct.__name__}: defaults written out: {written}"
        for info in msgspec.structs.fields(struct):
            assert "float" not in repr(info.type), f"{struct.__name__}.{info.name}"
