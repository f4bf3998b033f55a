"""The specification as portable test vectors (issue 22): the shipped document is the
features' translation, valid under its shipped schema, pinned to the specification's
version, and every vector passes on the reference engine through the protocol, while a
wrong engine or a wrong expectation fails."""

from __future__ import annotations

import copy
import importlib
import importlib.resources
import json
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from durak_spec.cli import main
from durak_spec.conformance.vectors import (
    SCHEMA_RESOURCE,
    VECTORS_RESOURCE,
    VectorsFileError,
    document_text,
    generate,
    read_vectors,
    run_vectors,
    schema_text,
    shipped_vectors,
)
from durak_spec.core.version import __version__
from durak_spec.spec import vector_format as vf
from durak_spec.spec.gherkin import read_specification
from durak_spec.spec.runner import features_dir
from durak_spec.spec.vectors import NOT_PORTABLE, PINNED, TRANSLATORS, _definitions, digest

jsonschema: Any = importlib.import_module("jsonschema")  # a dev dependency, without stubs

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _resource(name: str) -> str:
    return (importlib.resources.files("durak_spec") / name).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def shipped() -> vf.Document:
    return shipped_vectors()


def test_the_shipped_files_are_a_regeneration() -> None:
    # A change of the features (or the rules' axes) must come with a regenerated file:
    #   durak-spec vectors --out durak_spec/data/vectors.json
    #   durak-spec vectors --schema --out durak_spec/data/vectors.schema.json
    assert _resource(VECTORS_RESOURCE) == document_text(generate()), \
        "durak_spec/data/vectors.json is stale: regenerate it with durak-spec vectors --out"
    assert _resource(SCHEMA_RESOURCE) == schema_text()


def test_the_version_pins_what_the_vectors_expect(shipped: vf.Document) -> None:
    assert shipped.specification == __version__
    assert shipped.digest == digest(shipped.vectors)
    assert PINNED.get(__version__) == shipped.digest, (
        "an expected outcome changed: raise durak_spec/core/version.py and add the new "
        f"digest {shipped.digest} to durak_spec.spec.vectors.PINNED")


def test_the_digest_ignores_wording_but_not_outcomes(shipped: vf.Document) -> None:
    vectors = copy.deepcopy(shipped.vectors[:20])
    before = digest(vectors)
    vectors[0].title += " (reworded)"
    vectors[0].steps[0].text += " (reworded)"
    assert digest(vectors) == before
    act = next(s for v in vectors for s in v.steps if isinstance(s, vf.Act))
    act.verdict = "rejected" if act.verdict == "accepted" else "accepted"
    assert digest(vectors) != before


def test_the_document_is_valid_under_its_schema() -> None:
    schema = json.loads(_resource(SCHEMA_RESOURCE))
    document = json.loads(_resource(VECTORS_RESOURCE))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    assert list(validator.iter_errors(document)) == []
    # the vocabulary is closed: a kind of step the schema does not list is refused
    # (the first error is enough: the validator stops there instead of walking the rest)
    document["vectors"][0]["steps"][0]["kind"] = "looks-fine"
    assert next(validator.iter_errors(document), None) is not None


def test_every_example_is_a_vector_once_or_listed_as_not_portable(shipped: vf.Document
                                                                 ) -> None:
    numbers = [e.number for e in read_specification(features_dir()).examples()]
    vectors = [v.example for v in shipped.vectors]
    left = [n.example for n in shipped.not_portable]
    assert sorted(vectors + left) == sorted(numbers)
    assert len(set(vectors)) == len(vectors)
    # Every step is portable since 0.3.0 (asking for a game of N players became the
    # setup step, DEAL-3). The bound, now 0, keeps new steps portable.
    assert left == []
    assert NOT_PORTABLE == {}


def test_a_step_the_vocabulary_cannot_say_leaves_its_example_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The mechanism stays for a step some day written that no vector can say.
    from durak_spec.spec import vector_steps, vectors

    def cannot(t: vector_steps.Translation, **_: object) -> None:
        raise vector_steps.NotPortable("no protocol request answers it")

    monkeypatch.setattr(vectors, "TRANSLATORS",
                        {**TRANSLATORS, "when_players_set_up": cannot})
    example = next(e for e in read_specification(features_dir()).examples()
                   if e.number == "DEAL-3.2")
    left = vectors.translate(example, features_dir())
    assert isinstance(left, vf.NotPortable)
    assert (left.example, left.step) == ("DEAL-3.2", "When a game for 7 players is set up")
    assert left.reason == "no protocol request answers it"


def test_every_when_and_then_step_has_a_translator() -> None:
    names = {str(getattr(d.function, "__name__", "?")) for d in _definitions()
             if d.type in ("when", "then")}
    assert names - set(TRANSLATORS) == set()
    assert set(NOT_PORTABLE) <= set(TRANSLATORS)


def test_a_rejection_becomes_the_verdict_of_the_move_before_it(shipped: vf.Document) -> None:
    vector = next(v for v in shipped.vectors if v.example == "BEAT-3.2")
    acts = [s for s in vector.steps if isinstance(s, vf.Act)]
    assert acts and acts[-1].verdict == "rejected" and acts[-1].rule == "BEAT-3"
    assert vector.rule_ids == ["BEAT-3"] and vector.sources["BEAT-3"]
    assert isinstance(vector.steps[0], vf.Load)


def test_the_perft_tables_are_in_the_same_download(shipped: vf.Document) -> None:
    folder = importlib.resources.files("durak_spec") / "data" / "perft"
    names = {e.name.removesuffix(".json") for e in folder.iterdir() if e.name.endswith(".json")}
    assert set(shipped.perft) == names
    assert all(t["format"] == "durak-spec/perft" for t in shipped.perft.values())


def test_the_reference_engine_passes_every_vector(shipped: vf.Document) -> None:
    result = run_vectors(shipped)
    bad = [f"{s.example}: {s.step}: {s.message or s.skip_reason}"
           for s in result.scenarios if s.outcome != "passed"]
    assert bad == []
    assert result.counts.passed == len(shipped.vectors)


def test_a_wrong_expectation_fails_on_the_reference(shipped: vf.Document) -> None:
    vector = copy.deepcopy(next(v for v in shipped.vectors if v.example == "BEAT-3.2"))
    act = [s for s in vector.steps if isinstance(s, vf.Act)][-1]
    act.verdict, act.rule = "accepted", None
    hand = copy.deepcopy(next(v for v in shipped.vectors
                              if any(isinstance(s, vf.Hand) for s in v.steps)))
    step = next(s for s in hand.steps if isinstance(s, vf.Hand))
    step.cards = step.cards[1:] if step.mode == "exactly" else ["6♣", "7♣", "8♣", "9♣"]
    step.mode = "exactly"
    wrong = msgspec.structs.replace(shipped, vectors=[vector, hand])
    result = run_vectors(wrong)
    assert [s.outcome for s in result.scenarios] == ["failed", "failed"]
    assert "was rejected" in (result.scenarios[0].message or "")
    assert result.scenarios[1].step == step.text


def test_a_wrong_engine_fails_the_vectors_of_the_rule_it_breaks(shipped: vf.Document) -> None:
    sys.path.insert(0, str(EXAMPLES))
    try:
        from engine_wrong import WrongEngine  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(EXAMPLES))
    transfer = [v for v in shipped.vectors if "TRANSFER-3" in v.rule_ids]
    result = run_vectors(msgspec.structs.replace(shipped, vectors=transfer), WrongEngine)
    failed = result.with_outcome("failed")
    assert failed, "the engine that forgets TRANSFER-3 passed every TRANSFER-3 vector"


def test_a_file_that_is_not_vectors_is_refused_clearly(tmp_path: Path) -> None:
    bad = tmp_path / "v.json"
    bad.write_text('{"format": "durak-spec/vectors", "version": 1}', encoding="utf-8")
    with pytest.raises(VectorsFileError, match="not a durak-spec/vectors document"):
        read_vectors(bad)
    with pytest.raises(VectorsFileError, match="cannot be read"):
        read_vectors(tmp_path / "missing.json")


def test_the_command_writes_the_shipped_document(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "vectors.json"
    assert main(["vectors", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == _resource(VECTORS_RESOURCE)
    assert main(["vectors", "--schema"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "durak-spec test vectors"


def test_check_runs_a_vectors_file_with_the_scenario_report(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    vectors = str(importlib.resources.files("durak_spec") / VECTORS_RESOURCE)
    out = tmp_path / "check.json"
    assert main(["check", "--vectors", vectors, "--rule", "BEAT-3", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    examples = [s["example"] for s in report["scenarios"]]
    assert examples and all(e.startswith("BEAT-3.") for e in examples)
    assert {s["outcome"] for s in report["scenarios"]} == {"passed"}
    assert "BEAT-3" in capsys.readouterr().out
    # the wrong engine of the examples fails the vectors of the rule it forgets
    wrong = f"{sys.executable} {EXAMPLES / 'engine_wrong.py'}"
    assert main(["check", "--vectors", vectors, "--engine", wrong, "--rule", "TRANSFER-3"]) == 1
    assert "FAILED TRANSFER-3." in capsys.readouterr().out


def test_check_refuses_vectors_with_options_that_choose_scenarios(
        capsys: pytest.CaptureFixture[str]) -> None:
    vectors = str(importlib.resources.files("durak_spec") / VECTORS_RESOURCE)
    assert main(["check", "--vectors", vectors, "--tag", "variant"]) == 2
    assert "--vectors runs a vectors file" in capsys.readouterr().err
    assert main(["check", "--vectors", "no-such-file.json"]) == 2
    assert "cannot be read" in capsys.readouterr().err


def test_the_website_offers_the_vectors_and_their_schema(tmp_path: Path) -> None:
    pytest.importorskip("sphinx")  # the book's extension runs inside Sphinx
    from types import SimpleNamespace

    from durak_spec.book.extension import _downloads

    _downloads(SimpleNamespace(features=features_dir()), tmp_path)  # type: ignore[arg-type]
    spec = tmp_path / "_static" / "spec"
    for name in (VECTORS_RESOURCE, SCHEMA_RESOURCE):
        assert (spec / Path(name).name).read_text(encoding="utf-8") == _resource(name)
    page = (Path(__file__).resolve().parents[1] / "book" / "implementers.md").read_text(
        encoding="utf-8")
    assert 'href="_static/spec/vectors.json"' in page
    assert 'href="_static/spec/vectors.schema.json"' in page


def _setup_vector(shipped: vf.Document, number: str) -> vf.Vector:
    return copy.deepcopy(next(v for v in shipped.vectors if v.example == number))


def test_asking_for_a_game_of_n_players_is_a_setup_step(shipped: vf.Document) -> None:
    for number, players in (("DEAL-3.2", 7), ("DEAL-3.3", 1)):
        steps = _setup_vector(shipped, number).steps
        assert len(steps) == 1 and isinstance(steps[0], vf.Setup)
        assert (steps[0].players, steps[0].verdict, steps[0].rule) == (players, "rejected",
                                                                       "DEAL-3")
        assert len(steps[0].deck) == 36


class _AnyCount:
    """The reference, but a game of any number of players is dealt (it forgets DEAL-3)."""

    def __init__(self) -> None:
        from durak_spec.protocol import ReferenceEngine

        self.inner = ReferenceEngine()
        self.asked: list[int] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def start_for(self, players: int, rules: Any, deck: Any, seed: int = 0) -> Any:
        self.asked.append(players)
        return self.inner.start(rules, deck, seed)


def test_the_setup_verdict_is_the_engines_and_is_checked(shipped: vf.Document) -> None:
    seven = _setup_vector(shipped, "DEAL-3.2")
    engines: list[_AnyCount] = []

    def forgetful() -> _AnyCount:
        engines.append(_AnyCount())
        return engines[-1]

    result = run_vectors(msgspec.structs.replace(shipped, vectors=[seven]), forgetful)  # type: ignore[arg-type]
    assert [s.outcome for s in result.scenarios] == ["failed"]
    assert "a game for 7 players was accepted, but the rules forbid it (DEAL-3)" in (
        result.scenarios[0].message or "")
    assert engines[0].asked == [7]  # the engine was asked, not the runner's own rule set
    # a count the rules allow is accepted, and the game is then played with that many
    four = copy.deepcopy(seven)
    setup = four.steps[0]
    assert isinstance(setup, vf.Setup)
    setup.players, setup.verdict, setup.rule = 4, "accepted", None
    four.steps.append(vf.EachHandSize(text="Then each player holds 6 cards", count=6))
    four.steps.append(vf.Stock(text="And the stock holds 12 cards", count=12))
    result = run_vectors(msgspec.structs.replace(shipped, vectors=[four]))
    assert [s.outcome for s in result.scenarios] == ["passed"]
    four.steps[-1] = vf.Stock(text="And the stock holds 24 cards", count=24)
    result = run_vectors(msgspec.structs.replace(shipped, vectors=[four]))
    assert [s.outcome for s in result.scenarios] == ["failed"]


def test_a_served_engine_is_asked_over_the_wire_and_names_deal_3(shipped: vf.Document
                                                                  ) -> None:
    from durak_spec.conformance.kept_engine import KeptEngine
    from durak_spec.protocol.subprocess_engine import SubprocessEngine

    deal3 = [v for v in shipped.vectors if v.example in ("DEAL-3.2", "DEAL-3.3")]
    kept = KeptEngine(SubprocessEngine([sys.executable, "-m", "durak_spec.serve"], timeout=30))
    try:
        result = run_vectors(msgspec.structs.replace(shipped, vectors=deal3), kept.fresh)
    finally:
        kept.shutdown()
    assert [s.outcome for s in result.scenarios] == ["passed", "passed"]
    assert all(not s.unnamed for s in result.scenarios)  # the answer named DEAL-3


def test_the_regeneration_tool_pins_the_version_in_place() -> None:
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "tools" / "regenerate_vectors.py"
    spec = importlib.util.spec_from_file_location("regenerate_vectors", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    source = tool.PINS.read_text(encoding="utf-8")
    added = tool.pinned_source(source, "9.9.9", "ab" * 32)
    assert f'    "9.9.9": "{"ab" * 32}",\n}})' in added
    assert added.replace(f'    "9.9.9": "{"ab" * 32}",\n', "") == source
    again = tool.pinned_source(added, "9.9.9", "cd" * 32)
    assert "ab" * 32 not in again and again.count('"9.9.9"') == 1
    assert tool.pinned_source(source, __version__, PINNED[__version__]) == source
