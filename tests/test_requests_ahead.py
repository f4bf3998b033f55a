"""Requests written ahead (``SubprocessEngine.expect``): the answers are the ones the calls
would get one request at a time; a call off the plan discards what is under way; a failure
belongs to the call that waits for it.

Each engine here is a small script around the reference's server that misbehaves in one
way: it will not answer a request before the next one has arrived (so only requests written
ahead keep it going), or it dies at a given request.
"""

from __future__ import annotations

import random
import sys
import textwrap
from pathlib import Path

import hypothesis
import pytest
from helpers import SLOW_START
from hypothesis import strategies as st

from durak_spec.engine import apply, deal, legal_actions, new_game
from durak_spec.model.actions import Action
from durak_spec.model.rules import profile
from durak_spec.model.state import GameState
from durak_spec.protocol import Accepted, Report
from durak_spec.protocol.subprocess_engine import (
    WINDOW,
    EngineFailure,
    Expected,
    SubprocessEngine,
)

PYTHON = sys.executable
RULES = profile("classic-throw-in").rules(players=2)
DECK = deal(RULES, 5)

SCRIPT = """\
import sys
from durak_spec.protocol import ReferenceEngine
from durak_spec.protocol.serve import Server
server = Server(ReferenceEngine())
n = 0
held = None
for line in sys.stdin:
    n += 1
{body}
    reply = server.handle(line)
    sys.stdout.write(reply + "\\n")
    sys.stdout.flush()
"""


def _engine(tmp_path: Path, name: str, body: str, timeout: float = SLOW_START
            ) -> SubprocessEngine:
    path = tmp_path / f"{name}.py"
    path.write_text(SCRIPT.format(body=textwrap.indent(textwrap.dedent(body), "    ")))
    engine = SubprocessEngine([PYTHON, str(path)], timeout=SLOW_START)
    engine.capabilities()  # hello is request 1; start-up has all the time it needs
    engine.timeout = timeout
    return engine


def _game(moves: int) -> list[tuple[Action, GameState]]:
    """The first ``moves`` actions of a seeded game, each with the position after it."""
    state = new_game(RULES, deck=DECK)
    rng = random.Random(2)
    out = []
    for _ in range(moves):
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
        out.append((action, state))
    return out


def _calls(game: list[tuple[Action, GameState]]) -> list[Expected]:
    return [call for action, _ in game
            for call in (Expected("apply", action), Expected("report"), Expected("legal"))]


def _play(engine: SubprocessEngine, game: list[tuple[Action, GameState]]) -> None:
    for action, state in game:
        assert engine.apply(action) == Accepted()
        assert engine.report() == Report.of(state)
        assert set(engine.legal_actions()) == set(legal_actions(state))


def test_the_answers_are_those_of_one_request_at_a_time(tmp_path: Path) -> None:
    engine = _engine(tmp_path, "plain", "")
    try:
        game = _game(40)
        engine.start(RULES, DECK)
        before = engine.stats.requests
        engine.expect(_calls(game))
        _play(engine, game)
        assert engine.stats.requests - before == 40  # one round trip per action (step)
        engine.start(RULES, DECK)  # and the engine is in step again afterwards
        _play(engine, game[:3])
    finally:
        engine.close()


LATE = """\
if n == 5:  # answer request 5 only once request 6 has arrived
    held = line
    continue
if n == 6:
    sys.stdout.write(server.handle(held) + "\\n")
"""


def test_requests_are_written_before_their_answers_are_needed(tmp_path: Path) -> None:
    game = _game(10)
    engine = _engine(tmp_path, "late", LATE, timeout=1.0)
    try:
        engine.start(RULES, DECK)  # request 2; the applies are 3, 4, 5, 6, ...
        engine.expect(_calls(game))
        _play(engine, game)
    finally:
        engine.close()
    engine = _engine(tmp_path, "late", LATE, timeout=1.0)
    try:  # one request at a time, the same engine never answers request 5
        engine.start(RULES, DECK)
        with pytest.raises(EngineFailure) as caught:
            _play(engine, game)
        assert caught.value.kind == "timeout" and "no answer to apply" in caught.value.detail
    finally:
        engine.close()


def test_a_new_game_off_the_plan_discards_the_answers_under_way(tmp_path: Path) -> None:
    game = _game(30)
    engine = _engine(tmp_path, "plain", "")
    try:
        engine.start(RULES, DECK)
        engine.expect(_calls(game))
        _play(engine, game[:2])
        # a new game where the next action was expected: the answers under way are read
        # and discarded, and the requests are in step again
        assert engine.start(RULES, DECK) == Report.of(new_game(RULES, deck=DECK))
        _play(engine, game[:5])
        # as after an answer that was not expected: the probe was expected to be rejected
        engine.start(RULES, DECK)
        engine.expect([Expected("apply", game[0][0], accepted=False), Expected("report"),
                       *_calls(game[1:])])
        assert engine.apply(game[0][0]) == Accepted()
        assert engine.load(game[0][1]) == Report.of(game[0][1])
        _play(engine, game[1:4])
    finally:
        engine.close()


def test_any_other_call_off_the_plan_is_refused(tmp_path: Path) -> None:
    game = _game(10)
    engine = _engine(tmp_path, "plain", "")
    try:
        engine.start(RULES, DECK)
        engine.expect(_calls(game))
        _play(engine, game[:2])
        with pytest.raises(RuntimeError, match="legal is not the call expected next"):
            engine.legal_actions()  # the engine has already been sent the next actions
        assert engine.start(RULES, DECK) == Report.of(new_game(RULES, deck=DECK))
        _play(engine, game[:3])
    finally:
        engine.close()


def test_a_failure_belongs_to_the_call_that_waits_for_it(tmp_path: Path) -> None:
    game = _game(20)
    engine = _engine(tmp_path, "dies", "if n == 7: sys.exit(3)")
    try:
        engine.start(RULES, DECK)  # request 2; the applies are 3 to 6, then 7 dies
        engine.expect(_calls(game))
        _play(engine, game[:4])
        with pytest.raises(EngineFailure) as caught:
            engine.apply(game[4][0])
        assert caught.value.kind == "crashed" and "exit status 3" in caught.value.detail
        assert "instead of answering apply" in caught.value.detail
        assert not engine.running
    finally:
        engine.close()


def test_an_engine_that_dies_on_a_discarded_request_is_restarted_for_a_new_game(
        tmp_path: Path) -> None:
    game = _game(2 * WINDOW)
    engine = _engine(tmp_path, "dies", "if n == 6: sys.exit(3)")
    try:
        engine.start(RULES, DECK)
        engine.expect(_calls(game))
        _play(engine, game[:2])  # requests 3 and 4; 5 to 18 are under way, 6 kills it
        first = engine.pid
        # a new game: what was under way is discarded, and the engine that died reading
        # it is started again (a new game needs nothing of the old process)
        assert engine.start(RULES, DECK) == Report.of(new_game(RULES, deck=DECK))
        assert engine.running and engine.pid != first
        _play(engine, game[:3])
    finally:
        engine.close()


def _positions(games: int) -> list[GameState]:
    out = []
    for seed in range(games):
        for rules in (RULES, profile("classic-transfer").rules(players=4)):
            state = new_game(rules, deck=deal(rules, seed))
            rng = random.Random(seed)
            while legal_actions(state):
                out.append(state)
                state = apply(state, rng.choice(legal_actions(state)))
            out.append(state)
    return out


def test_an_expected_answer_written_by_the_encoder_reads_back_as_itself() -> None:
    """What lets a line equal to the expected answer skip the strict reading: the strict
    reader gives back exactly the value the encoder wrote, for every position of real
    games (hands, table, known cards, the end of a game)."""
    from durak_spec.protocol.wire import (
        LegalReply,
        ReportReply,
        VerdictReply,
        decode_reply,
        encode_reply,
    )

    for ident, state in enumerate(_positions(6)):
        report, actions = Report.of(state), legal_actions(state)
        for reply, cmd in ((VerdictReply(ident, Accepted(), report, actions), "apply"),
                           (ReportReply(ident, report), "state"),
                           (LegalReply(ident, actions), "legal"),
                           (VerdictReply(ident, Accepted()), "apply")):
            assert decode_reply(encode_reply(reply).encode("utf-8"), cmd) == reply  # type: ignore[arg-type]


def test_an_answer_that_differs_from_the_expected_one_is_read_strictly(tmp_path: Path) -> None:
    """An engine whose answers are right but written otherwise (hands in another order,
    extra spaces) agrees all the same; one whose answer breaks the protocol fails."""
    reorder = """\
    if n >= 3:
        import json
        data = json.loads(server.handle(line))
        if "report" in data:
            for hand in data["report"]["hands"]:
                hand.reverse()
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\\n")
        sys.stdout.flush()
        continue
    """
    game = _game(12)
    engine = _engine(tmp_path, "reorder", reorder)
    try:
        engine.start(RULES, DECK)
        engine.expect(_calls(game))
        _play(engine, game)
    finally:
        engine.close()
    extra = """\
    if n == 5:  # the answer to the third action carries a field of no message
        sys.stdout.write(server.handle(line)[:-1] + ',"mood":"great"}\\n')
        sys.stdout.flush()
        continue
    """
    engine = _engine(tmp_path, "extra", extra)
    try:
        engine.start(RULES, DECK)
        engine.expect(_calls(game))
        _play(engine, game[:2])
        with pytest.raises(EngineFailure) as caught:
            _play(engine, game[2:])
        assert caught.value.kind == "protocol" and "mood: is not a field" in str(caught.value)
    finally:
        engine.close()


# -- the typed decoder reads a line as the strict reader does ---------------------------------

_TAILS = [
    ',"cmd":"apply","action":{"player":1,"type":"cover","attack":"7♣","card":"9♣"},"then":true}',
    ',"cmd":"legal"}', ',"cmd":"state"}\n',
    ',"cmd":"apply","action":{"player":0,"type":"take"}}',
    ',"cmd":"apply","action":{"player":0,"type":"take"},"then":false}',
    ',"cmd":"apply","action":{"player":6,"type":"take"}}',
    ',"cmd":"apply","action":{"player":0,"type":"take","card":"7♣"}}',
    ',"cmd":"legal","cmd":"legal"}',
]
_REPLY_TAILS = [
    (',"ok":true,"accepted":true}', "apply"),
    (',"ok":true,"accepted":false,"reason":"no","rule":"BEAT-1"}', "apply"),
    (',"ok":true,"accepted":false,"reason":" ","rule":"BEAT-1"}', "apply"),
    (',"ok":true,"accepted":false,"reason":"no","rule":"beat"}', "apply"),
    (',"ok":true,"actions":[{"player":1,"type":"take"}]}', "legal"),
    (',"ok":true,"actions":[{"player":1,"type":"open","cards":[]}]}', "legal"),
    (',"ok":true,"actions":[{"player":1,"type":"take"}],"ok":true}', "legal"),
    (',"ok":false,"error":"no"}', "legal"),
    (',"ok":true}', "quit"),
]


def _outcome(call: object) -> object:
    from durak_spec.protocol.wire import ProtocolError

    try:
        return call()  # type: ignore[operator]
    except ProtocolError as error:
        return ("refused", str(error))


def _strictly(line: str | bytes, cmd: str | None = None) -> object:
    """The outcome of the strict reader alone (no typed decoding first)."""
    from durak_spec.protocol import wire

    return _outcome(lambda: wire._strict_request(line) if cmd is None
                    else wire._strict_reply(line, cmd))  # type: ignore[arg-type]


_IDS = st.one_of(st.integers(0, 2**60).map(str),
                 st.sampled_from(["-1", "007", "00", "1e3", "1.0", "true", "null", '"5"',
                                  "9007199254740991", "9007199254740992", "1,\"id\":2"]))


@hypothesis.given(ident=_IDS, tail=st.sampled_from(_TAILS))
@hypothesis.settings(max_examples=300, deadline=None)
def test_a_request_line_reads_as_the_strict_reader_reads_it(ident: str, tail: str) -> None:
    from durak_spec.protocol.wire import decode_request

    line = '{"id":' + ident + tail
    assert _outcome(lambda: decode_request(line)) == _strictly(line)


@hypothesis.given(ident=_IDS, reply=st.sampled_from(_REPLY_TAILS))
@hypothesis.settings(max_examples=300, deadline=None)
def test_an_answer_line_reads_as_the_strict_reader_reads_it(
        ident: str, reply: tuple[str, str]) -> None:
    from durak_spec.protocol.wire import decode_reply

    tail, cmd = reply
    line = ('{"id":' + ident + tail).encode()
    assert _outcome(lambda: decode_reply(line, cmd)) == _strictly(line, cmd)  # type: ignore[arg-type]


# -- lockstep with requests ahead finds what it finds one request at a time ------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


class _OneAtATime(SubprocessEngine):
    expect = None  # type: ignore[assignment]  # lockstep then asks one request at a time


def _lockstep_json(engine: object, games: int) -> dict[str, object]:
    from durak_spec.conformance.lockstep import play_lockstep

    result = play_lockstep(engine, [profile("classic-transfer").rules(players=3),  # type: ignore[arg-type]
                                    profile("classic-throw-in").rules(players=2)],
                           games=games, seed=7)
    document = result.to_json()
    document.pop("seconds")
    document.pop("summary")  # it gives the time too
    return document


@pytest.mark.parametrize("example", ["engine_wrong.py", "engine_reference.py"])
def test_lockstep_finds_the_same_with_requests_ahead(example: str) -> None:
    """The same games, divergences, causes and records whether the engine is sent
    requests ahead or one at a time: the wrong engine's extra transfers are differences
    of legal actions, after which the game goes on with an action both list (the engine
    brought back first), and its other differences are loaded over."""
    command = [PYTHON, str(EXAMPLES / example)]
    with SubprocessEngine(command, timeout=SLOW_START) as ahead:
        first = _lockstep_json(ahead, 12)
    with _OneAtATime(command, timeout=SLOW_START) as alone:
        second = _lockstep_json(alone, 12)
    assert first == second
    if example == "engine_wrong.py":
        assert first["causes"], "the wrong engine diverges"
