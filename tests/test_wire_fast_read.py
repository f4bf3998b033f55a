"""The codec's reading of lines as the encoder writes them is exactly the strict reader's.

:meth:`Codec.listing` cuts a ``legal`` answer's array at every ``},{`` and reads each piece
on its own (by a regular expression where the encoder wrote it, else by the strict JSON
reader), remembering each piece's action. ``_encoders_answer`` reads a report answer
written as the encoder writes it by a regular expression and cuts of its arrays. These
tests hold both against the reader without a codec, which reads the line whole: on the
lines of real games, and on lines made to fool them (for lists: ``},{`` inside a string,
nested arrays of objects, a key given twice, escapes, spaces, lone surrogates, bytes that
are not UTF-8; for reports: every kind of one-character change of real lines, and fields
out of range), through a codec warmed with lines that look alike. It also pins
:func:`new_report` to the constructor.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

import hypothesis
import pytest
from hypothesis import strategies as st

from durak_spec.engine import advance, deal, legal_actions, new_game
from durak_spec.model.actions import Take
from durak_spec.model.rules import profile
from durak_spec.protocol import Accepted, Report, new_report
from durak_spec.protocol.wire import (
    Codec,
    Command,
    LegalReply,
    ProtocolError,
    ReportReply,
    VerdictReply,
    _encoders_answer,
    _id_and_rest,
    decode_reply,
    encode_reply,
)


def _outcome(line: str | bytes, codec: Codec | None) -> tuple[str, object]:
    try:
        return ("read", decode_reply(line, "legal", codec))
    except ProtocolError as error:
        return ("refused", (str(error), error.field, error.message_id))


def _game_lines(seed: int, players: int) -> list[str]:
    """The server's answer line to ``legal`` after every step of one random game."""
    rules = profile("classic-transfer").rules(players=players)
    state = new_game(rules, deck=deal(rules, seed), seed=seed)
    rng = random.Random(seed)
    lines = []
    for ident in range(1, 10_000):
        actions = legal_actions(state)
        lines.append(encode_reply(LegalReply(ident, actions)))
        if not actions:
            return lines
        state = advance(state, rng.choice(actions)).state
    raise AssertionError("a game of more than 10,000 steps")


def test_a_games_lists_read_through_one_codec_as_without_one() -> None:
    codec = Codec()
    for seed, players in ((1, 2), (2, 4), (3, 6)):
        for line in _game_lines(seed, players):
            for form in (line, line.encode("utf-8")):
                assert _outcome(form, codec) == _outcome(form, None)
    assert len(codec._pieces) > 100  # the pieces were read, and remembered


def test_a_piece_is_read_once_and_then_found() -> None:
    codec = Codec()
    line = '{"id":4,"ok":true,"actions":[{"player":1,"type":"take"},' \
           '{"player":0,"type":"throw","card":"7♣"}]}'
    first = decode_reply(line, "legal", codec)
    assert set(codec._pieces) == {'"player":1,"type":"take"',
                                  '"player":0,"type":"throw","card":"7♣"'}
    again = decode_reply(line.replace('"id":4', '"id":5'), "legal", codec)
    assert isinstance(first, LegalReply) and isinstance(again, LegalReply)
    assert (again.id, again.actions) == (5, first.actions)


_GOOD = [
    '"player":0,"type":"take"', '"player":5,"type":"done"', '"player":1,"type":"exchange"',
    '"player":0,"type":"throw","card":"7♣"', '"player":2,"type":"throw","card":"TH"',
    '"player":1,"type":"cover","attack":"7♣","card":"10♣"',
    '"player":1,"type":"transfer","card":"7♦"', '"player":1,"type":"show","card":"7♦"',
    '"player":0,"type":"open","cards":["7♣"]', '"player":0,"type":"open","cards":["7♣","7H"]',
    '"type":"take","player":3',  # another order: read by the JSON reader
    '"player": 0, "type": "take"',  # spaces inside an object
    '"player":0,"type":"throw","card":"7\\u2663"',  # an escape: a card all the same
]
_BAD = [
    '"player":6,"type":"take"', '"player":-1,"type":"take"', '"player":01,"type":"take"',
    '"player":true,"type":"take"', '"player":0,"type":"jump"', '"player":0',
    '"player":0,"type":"take","extra":1', '"player":0,"player":1,"type":"take"',
    '"player":0,"type":"take","type":"done"', '"player":0,"type":"throw","card":"7♣ "',
    '"player":0,"type":"throw","card":"},{"', '"player":0,"type":"throw","card":"7♣"},{',
    '"player":0,"type":"open","cards":[]', '"player":0,"type":"open","cards":["7♣","x"]',
    '"player":0,"type":"take","x":[{"a":1},{"b":2}]', '"player":0,"type":"take","x":{"y":{}}',
    '"player":0,"type":"throw","card":"\\ud800"', '"player":0,"type":"throw","card":"\ud800"',
    '"player":0,"type":"throw","card":"7\x01"', '"player":0,"type":"throw","card":"7♣\\"',
    '', '"player":0,', '"player":0,"type":"take"}', '}', '{', '"a":"', '"', '],[',
]
_PIECES = st.sampled_from(_GOOD + _BAD)


@hypothesis.given(warm=st.lists(_PIECES, max_size=4), pieces=st.lists(_PIECES, max_size=5),
                  joints=st.lists(st.sampled_from(["},{", "},{", "},{", "}, {", "},\n{"]),
                                  min_size=4, max_size=4),
                  ident=st.sampled_from(["7", "07", "0", "9007199254740992"]),
                  end=st.sampled_from(["]}", "]}", "]}", "}]", "]]}", "]} ", "]}\n", "]", "",
                                       "]},", '],"x":1}']),
                  as_bytes=st.booleans(), spoil=st.booleans())
@hypothesis.settings(max_examples=600, deadline=None)
def test_a_list_of_any_pieces_reads_as_without_a_codec(
        warm: list[str], pieces: list[str], joints: list[str], ident: str, end: str,
        as_bytes: bool, spoil: bool) -> None:
    codec = Codec()
    for piece in warm:  # a codec that has read look-alike lists before
        _outcome('{"id":1,"ok":true,"actions":[{' + piece + '}]}', codec)
    body = "".join(["{" + pieces[0]] + [joint + piece for joint, piece in
                                        zip(joints, pieces[1:], strict=False)]) + "}" \
        if pieces else ""
    line: Any = '{"id":' + ident + ',"ok":true,"actions":[' + body + end
    if as_bytes:
        line = line.encode("utf-8", errors="surrogatepass")
        if spoil:  # a byte that is not UTF-8, inside the first piece's text
            line = line.replace(b'"player"', b'"pl\xffayer"', 1)
    assert _outcome(line, codec) == _outcome(line, None)


def test_a_cut_inside_a_string_reads_the_line_whole() -> None:
    line = '{"id":2,"ok":true,"actions":[{"player":0,"type":"throw","card":"},{"}]}'
    codec = Codec()
    try:
        decode_reply(line, "legal", codec)
    except ProtocolError as error:
        assert error.field == "actions[0].card"
    else:
        raise AssertionError("a card named '},{' was read")
    assert codec._pieces == {}


def _answer_lines(seed: int, players: int, name: str) -> list[tuple[Command, str]]:
    """The server's answer lines to ``state`` at every step of one random game, and to
    each ``apply`` that asks for the position after it (capability ``step``)."""
    rules = profile(name).rules(players=players)
    state = new_game(rules, deck=deal(rules, seed), seed=seed)
    rng = random.Random(seed)
    lines: list[tuple[Command, str]] = []
    for ident in range(1, 10_000):
        lines.append(("state", encode_reply(ReportReply(ident, Report.of(state)))))
        actions = legal_actions(state)
        if not actions:
            return lines
        state = advance(state, rng.choice(actions)).state
        lines.append(("apply", encode_reply(VerdictReply(ident, Accepted(), Report.of(state),
                                                         legal_actions(state)))))
    raise AssertionError("a game of more than 10,000 steps")


def _report_outcome(line: str | bytes, codec: Codec | None, cmd: Command = "state"
                    ) -> tuple[str, object]:
    try:
        return ("read", decode_reply(line, cmd, codec))
    except ProtocolError as error:
        return ("refused", (str(error), error.field, error.message_id))


_ANSWER_LINES = [answer for seed, players, name in ((1, 2, "classic-throw-in"),
                                                    (2, 4, "classic-transfer"),
                                                    (3, 6, "source-d-transfer"))
                 for answer in _answer_lines(seed, players, name)]
_REPORT_LINES = [line for cmd, line in _ANSWER_LINES if cmd == "state"]


def test_a_games_reports_are_read_by_the_pattern_as_without_a_codec() -> None:
    codec = Codec()
    for cmd, line in _ANSWER_LINES:
        head = _id_and_rest(line)
        assert head is not None and _encoders_answer(head, len(line), cmd, codec), line
        for form in (line, line.encode("utf-8")):
            assert _report_outcome(form, codec, cmd) == _report_outcome(form, None, cmd)
    assert codec._hand_texts  # the hands were read by their texts, and remembered


_CHANGES = st.sampled_from([*'"",,[]]{}:\\0123456789n7♣♥CHTxe -', "\u2028", "\ud800", "null",
                            "10", "],["])


@hypothesis.given(index=st.integers(0, len(_ANSWER_LINES) - 1), data=st.data())
@hypothesis.settings(max_examples=2000, deadline=None)
def test_a_changed_report_line_reads_as_without_a_codec(index: int,
                                                        data: st.DataObject) -> None:
    cmd, line = _ANSWER_LINES[index]
    codec = Codec()
    _report_outcome(line, codec, cmd)  # a codec that knows the hands of the line as it was
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        at = data.draw(st.integers(0, len(line)), label="at")
        kind = data.draw(st.sampled_from(["replace", "insert", "delete"]), label="kind")
        text = data.draw(_CHANGES, label="text")
        line = (line[:at] + text + line[at + 1:] if kind == "replace"
                else line[:at] + text + line[at:] if kind == "insert"
                else line[:at] + line[at + 1:])
    assert _report_outcome(line, codec, cmd) == _report_outcome(line, None, cmd)
    encoded = line.encode("utf-8", errors="surrogatepass")
    assert _report_outcome(encoded, codec, cmd) == _report_outcome(encoded, None, cmd)


@pytest.mark.parametrize(("field", "value"), [
    ("stock", "36"), ("stock", "37"), ("stock", "99"), ("discard", "37"), ("attacker", "5"),
    ("attacker", "6"), ("defender", "9"), ("durak", "6"), ("durak", "5"), ("durak", "0"),
    ("face_up", '"7S"'), ("face_up", '"7x"'), ("face_up", '"\\u0037S"'), ("trump", '"S"'),
    ("trump", '"X"'), ("finished", "[[0],[6]]"), ("finished", "[[0,1],[]]"),
    ("finished", "[[0],[1,]]"), ("finished", "[0]"), ("table", '[["7S",null],["8S","9S"]]'),
    ("table", '[["7S"]]'), ("table", '[["7S","8S","9S"]]'), ("table", '[[null,"7S"]]'),
    ("table", '[["7S",nul]]'), ("table", "[[x7Sx,null]]"), ("table", '[["7S",x8Sx]]'),
    ("table", '[["7S","8S"],[]]'), ("table", '[["7S","8S"]'), ("hands", '[["7S"]]'),
    ("hands", "[[],[],[],[],[],[],[]]"),
    ("hands", "[[],[]]"), ("hands", '[["7S","7S"],[]]'), ("hands", '[["TH","10♥"],[]]'),
    ("hands", '[["7S"],["x7Sx"]]'), ("hands", '[[7],[]]'), ("known", '[["7S"],["x"]]'),
    ("known", "[]"), ("taking", "null"), ("over", "1"),
])
def test_a_field_as_the_pattern_allows_reads_as_without_a_codec(field: str,
                                                                  value: str) -> None:
    line = _REPORT_LINES[3]
    start = line.index(f'"{field}":') + len(field) + 3
    end = line.index(',"', start) if field not in ("hands", "known", "table", "finished") \
        else _end_of_array(line, start)
    changed = line[:start] + value + line[end:]
    assert _report_outcome(changed, Codec()) == _report_outcome(changed, None)


def _end_of_array(line: str, start: int) -> int:
    depth = 0
    for at in range(start, len(line)):
        depth += {"[": 1, "]": -1}.get(line[at], 0)
        if depth == 0:
            return at + 1
    raise AssertionError(line)


def test_new_report_is_the_constructors_report() -> None:
    rules = profile("classic-throw-in").rules(players=3)
    state = new_game(rules, deck=deal(rules, 5), seed=5)
    report = Report.of(state)
    fields = {f.name: getattr(report, f.name) for f in dataclasses.fields(Report)}
    built = Report(**fields)
    assert report == built and hash(report) == hash(built) and repr(report) == repr(built)
    assert new_report(*fields.values()) == built
    assert pickle.loads(pickle.dumps(report)) == built
    assert dataclasses.replace(report, stock=0) == dataclasses.replace(built, stock=0)
    try:
        report.stock = 1  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a report built by new_report could be changed")
    assert new_report(*list(fields.values())[:-1]).known == ()


def test_a_bytearray_line_reads_through_a_codec_as_without_one() -> None:
    answers: list[tuple[Command, str]] = [
        ("legal", '{"id":3,"ok":true,"actions":[{"player":1,"type":"take"}]}'),
        ("apply", '{"id":3,"ok":true,"accepted":true}'), ("state", _REPORT_LINES[2])]
    for cmd, line in answers:
        codec = Codec()
        for _ in range(2):  # read, then remembered
            data = bytearray(line.encode("utf-8"))  # as read_json takes it
            assert decode_reply(data, cmd, codec) == decode_reply(line, cmd)  # type: ignore[arg-type]


def test_long_texts_are_read_but_not_remembered() -> None:
    codec = Codec()
    padded = '{"player":1' + " " * 5000 + ',"type":"take"}'
    hand = '["7♣"' + ',"7♣"' * 2000 + "]"
    report = _REPORT_LINES[0]
    start = report.index('"hands":[') + len('"hands":[')
    report = report[:start] + hand + "," + report[start:]
    listed = decode_reply('{"id":4,"ok":true,"actions":[' + padded + "]}", "legal", codec)
    assert isinstance(listed, LegalReply) and listed.actions == (Take(1),)
    reported = decode_reply(report, "state", codec)
    assert isinstance(reported, ReportReply) and len(reported.report.hands[0]) == 2001
    assert all(len(text) <= 400 for text in (*codec._pieces, *codec._hand_texts))
    assert all(len(cards) <= 36 for cards in codec._hands)


def test_a_codec_writes_every_answer_as_without_one() -> None:
    codec = Codec()  # remembers the hands' texts as it writes them
    for cmd, line in _ANSWER_LINES:
        reply = decode_reply(line, cmd)
        assert encode_reply(reply, codec) == encode_reply(reply) == line
    assert codec._hand_json
