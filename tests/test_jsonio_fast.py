"""read_json's fast path (the C scanner without hooks, then a proof by counts that no key
was given twice) reads exactly what the scanner that checks every object reads.

Every text with an object takes the fast path; the cases here have several, and the same
text is also read by the hooked scanner alone (the strict reader as it was) to compare the
value or the error, code and message.
"""

from __future__ import annotations

import json
from typing import Any

import hypothesis
import pytest
from hypothesis import strategies as st

from durak_spec.core import jsonio
from durak_spec.core.jsonio import JsonError, read_json

FILLER = ',"more":[{"a":1},{"b":2},{"c":3},{"d":4}]'
"""Four objects more, an array of objects only (counted at once by the proof)."""


def _strict(text: str) -> tuple[str, object]:
    """The outcome of the reader that checks every object with its hook."""
    try:
        value, end = jsonio._SCAN(text, 0)
    except jsonio._Refusal as refusal:
        return ("refused", refusal.code)
    except (StopIteration, ValueError):
        return ("refused", "json-syntax-or-number")
    if text[end:].strip():
        return ("refused", "json-syntax-or-number")
    return ("read", value)


def _outcome(text: str) -> tuple[str, object]:
    try:
        return ("read", read_json(text))
    except JsonError as error:
        code = "json-syntax-or-number" if error.code in ("json-syntax", "json-number") \
            else error.code
        return ("refused", code)


def _fast_taken(text: str) -> bool:
    return "{" in text


@pytest.mark.parametrize("text", [
    '{"a":1,"a":2' + FILLER + "}",
    '{"x":{"a":1,"b":2,"a":3}' + FILLER + "}",
    '[{"a":1},{"a":1,"a":1},{"b":2},{"c":3}]',
    '{"a":{"inner":{"k":1}},"a":2' + FILLER + "}",  # the dropped value held an object
    '{"a":{},"a":1' + FILLER + "}",
    '{"m":"a:b","a":1,"a":2' + FILLER + "}",  # a colon in a string as well
    '{"m":"{","a":1,"a":2' + FILLER + "}",  # a brace in a string as well
])
def test_a_key_given_twice_is_refused_on_the_fast_path(text: str) -> None:
    assert _fast_taken(text)
    with pytest.raises(JsonError, match="appears twice in one object") as error:
        read_json(text, what="the line")
    assert error.value.code == "json-duplicate-key"
    assert str(error.value).startswith("the line is not I-JSON: the key ")


@pytest.mark.parametrize("text", [
    '{"x":{"a":1,"a":2}' + FILLER + ',"b":}',  # the inner object ends before the fault
    '{"a":1,"a":2' + FILLER + ',"b":}',  # the outer object never ends: a syntax error
    '{"x":{"a":1,"a":2}' + FILLER + ',"b":NaN}',
    '{"x":[NaN,{"a":1,"a":2}]' + FILLER + "}",
])
def test_the_first_fault_is_named_as_the_hooked_scanner_names_it(text: str) -> None:
    assert _fast_taken(text)
    with pytest.raises(JsonError) as fast:
        read_json(text)
    with pytest.raises(JsonError) as strict:
        jsonio._scan_strictly(text, 0, "the document", jsonio._SCAN)
    assert (fast.value.code, str(fast.value)) == (strict.value.code, str(strict.value))


@pytest.mark.parametrize("text", [
    '{"m":"a: b {c}","n":"::"' + FILLER + "}",  # braces and colons in strings: read again
    '{"a":{"b":{"c":{"d":{}}}}}',
    '[{"k":[{"k":[{"k":{}}]}]}]',
    '{"a" : 1 , "b" :\n[{"x":1},{"y":2},{"z":3}]}',
])
def test_texts_without_a_repeated_key_are_read(text: str) -> None:
    assert _fast_taken(text)
    assert read_json(text) == json.loads(text)


@pytest.mark.parametrize(("text", "code"), [
    ('{"a":NaN' + FILLER + "}", "json-number"),
    ('{"a":1e999' + FILLER + "}", "json-number"),
    ('{"a":"\\ud800"' + FILLER + "}", "json-surrogate"),
    ('{"a":1' + FILLER + "} x", "json-syntax"),
    ('{"a":1' + FILLER, "json-syntax"),
])
def test_other_faults_on_the_fast_path_keep_their_codes(text: str, code: str) -> None:
    assert _fast_taken(text)
    with pytest.raises(JsonError) as error:
        read_json(text)
    assert error.value.code == code


def test_a_long_list_of_objects_with_one_repeat_deep_inside_is_refused() -> None:
    items = [{"player": i % 6, "type": "take"} for i in range(200)]
    text = json.dumps({"actions": items})
    assert read_json(text) == {"actions": items}
    broken = text.replace('{"player": 3, "type": "take"}',
                          '{"player": 3, "type": "take", "player": 4}', 1)
    with pytest.raises(JsonError, match='the key "player" appears twice'):
        read_json(broken)


_KEYS = st.sampled_from(["a", "b", "c", "a:", "{", "}"])
_SCALARS = st.one_of(st.integers(-5, 5), st.booleans(), st.none(),
                     st.sampled_from(["x", "a:b", "{", "}", "7♣", ""]))


def _object_text(pairs: list[tuple[str, str]]) -> str:
    return "{" + ",".join(f"{json.dumps(key)}:{value}" for key, value in pairs) + "}"


_VALUES: st.SearchStrategy[str] = st.recursive(
    _SCALARS.map(json.dumps),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda items: "[" + ",".join(items) + "]"),
        st.lists(st.tuples(_KEYS, inner), max_size=4).map(_object_text)),
    max_leaves=20)


@hypothesis.given(text=_VALUES)
@hypothesis.settings(max_examples=500, deadline=None)
def test_the_reader_reads_what_the_hooked_scanner_reads(text: str) -> None:
    """Random documents, with keys repeated by chance and braces and colons in strings."""
    assert _outcome(text) == _strict(text)


def test_the_hypothesis_documents_take_both_paths() -> None:
    """Guard: the property above reaches the fast path and texts with a repeated key."""
    samples: list[Any] = []

    @hypothesis.given(text=_VALUES)
    @hypothesis.settings(max_examples=300, deadline=None, database=None)
    def collect(text: str) -> None:
        samples.append(text)

    collect()
    fast = [t for t in samples if _fast_taken(t)]
    assert len(fast) > 20
    assert any(_strict(t) == ("refused", "json-duplicate-key") for t in fast)
    assert any(_strict(t)[0] == "read" for t in fast)
