"""The codec's fast paths read exactly what the strict reader reads.

A codec remembers the hands of the reports it has read (by their cards as written), the
table's pairs come from the engine's shared pairs by spelling, the finishing order is read
in a plain loop, and a line's id is found once per message: each is checked here against
the reader without a codec (and the id against the regular expression's own definition), on
good and bad input, after the codec has been warmed with good input that looks alike.
"""

from __future__ import annotations

import re
from typing import Any

import hypothesis
import pytest
from hypothesis import strategies as st

from durak_spec.core.cards import DECK, parse_card
from durak_spec.core.jsonio import write_json
from durak_spec.model.state import Pair
from durak_spec.protocol.wire import (
    Codec,
    ProtocolError,
    ReportReply,
    _id_and_rest,
    decode_reply,
    report_from_json,
)

CARDS = [str(card) for card in DECK]
_ITEMS = st.one_of(st.sampled_from(CARDS), st.sampled_from(["7C", "TH", "10H"]),
                   st.sampled_from([7, 1, True, 1.0, None, "", "7", "11♣", "7♣ ", ["7♣"],
                                    {"7♣": 1}]))
_HANDS = st.lists(st.one_of(st.lists(_ITEMS, max_size=6),
                            st.sampled_from(["7♣", {"7♣": 0}, None, 3])), min_size=2,
                  max_size=6)


def _report(hands: object, **changes: object) -> dict[str, Any]:
    return {"hands": hands, "table": [], "stock": 0, "trump": "♣", "face_up": None,
            "discard": 0, "attacker": 0, "defender": 1, "taking": False, "finished": [],
            "over": False, "durak": None, "known": [[] for _ in range(2)], **changes}


def _outcome(call: Any) -> tuple[str, object]:
    try:
        return ("read", call())
    except ProtocolError as error:
        return ("refused", str(error))


def _line(report: dict[str, Any]) -> bytes:
    return write_json({"id": 3, "ok": True, "report": report}).encode("utf-8")


def _like(value: object) -> object:
    """Every card string of ``value`` as a card; anything else as a card too (warm-up)."""
    if isinstance(value, list):
        return [_like(item) for item in value]
    return value if isinstance(value, str) and value in CARDS else "7♣"


@hypothesis.given(hands=_HANDS)
@hypothesis.settings(max_examples=300, deadline=None)
def test_a_report_read_through_a_warm_codec_reads_as_without_one(hands: list[Any]) -> None:
    codec = Codec()
    warm = [_like(hand) if isinstance(hand, list) else ["7♣"] for hand in hands]
    for tried in (warm, [[str(c) for c in hand] if isinstance(hand, list) else hand
                         for hand in hands]):
        _outcome(lambda tried=tried: decode_reply(_line(_report(tried)), "state", codec))
    line = _line(_report(hands, known=hands))
    assert _outcome(lambda: decode_reply(line, "state", codec)) == \
        _outcome(lambda: decode_reply(line, "state"))


def test_a_remembered_hand_is_not_taken_for_an_object_or_numbers() -> None:
    codec = Codec()
    good = decode_reply(_line(_report([["7♣", "6♣"], ["A♠"]])), "state", codec)
    assert isinstance(good, ReportReply)
    assert good.report.hands == ((parse_card("6♣"), parse_card("7♣")), (parse_card("A♠"),))
    for hands, field in (([{"7♣": 1, "6♣": 2}, ["A♠"]], "report.hands[0]"),
                         ([["7♣", "6♣"], [True]], "report.hands[1][0]"),
                         ([["7♣", "6♣"], "A♠"], "report.hands[1]")):
        with pytest.raises(ProtocolError) as caught:
            decode_reply(_line(_report(hands)), "state", codec)
        assert caught.value.field == field


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


_OLD_ID = re.compile(r'\{"id":(0|[1-9][0-9]{0,15}),')
_HEADS = st.one_of(
    st.builds(lambda digits, rest: '{"id":' + digits + rest,
              st.one_of(st.integers(0, 10**18).map(str),
                        st.text("0123456789-+.e٣ ", max_size=20)),
              st.sampled_from([",", ',"ok":true}', "}", "", ' ,"ok":true'])),
    st.text(max_size=30))


@hypothesis.given(line=_HEADS)
@hypothesis.example('{"id":007,"ok":true}')
@hypothesis.example('{"id":00,')
@hypothesis.example('{"id":0,')
@hypothesis.example('{"id":9007199254740991,')
@hypothesis.example('{"id":9007199254740992,')
@hypothesis.example('{"id":1234567890123456,')
@hypothesis.example('{"id":12345678901234567,')
@hypothesis.example('{"id":٣,')
@hypothesis.example('{"id":-1,')
@hypothesis.example('{"id":,')
@hypothesis.example('{"id":7')
@hypothesis.settings(max_examples=500, deadline=None)
def test_the_id_is_found_as_the_pattern_says(line: str) -> None:
    found = _OLD_ID.match(line)
    expected = None if found is None or int(found.group(1)) > 2**53 - 1 else (
        int(found.group(1)), line[found.end(1):])
    assert _id_and_rest(line) == expected
    encoded = line.encode("utf-8", errors="surrogatepass")
    assert _id_and_rest(encoded) == (None if expected is None else (
        expected[0], expected[1].encode("utf-8", errors="surrogatepass")))
