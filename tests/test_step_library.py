"""The step library and the feature files are sound: every step has exactly one definition,
every tag is known and agrees with the rule index, every step is documented, and positions
that cannot occur are refused with a message that names the problem."""

from __future__ import annotations

import dataclasses
import re
import textwrap
from pathlib import Path

import pytest
from pytest_bdd import parsers

from durak_spec.core.cards import DECK, Suit, parse_card, parse_cards
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.engine import new_game
from durak_spec.game.positions import (
    Position,
    PositionError,
    parse_card_list,
    parse_names,
    parse_table,
)
from durak_spec.model.rules import profile
from durak_spec.protocol import Capabilities, ReferenceEngine
from durak_spec.spec.plugin import (
    KNOWN_TAGS,
    StepDefinition,
    ambiguous_steps,
    claims_of,
    duplicate_scenarios,
    feature_files,
    make_engine,
    rule_shape_problems,
    shared_rule_ids,
    step_definitions,
    step_examples,
    tag_problems,
    undefined_steps,
    unknown_tags,
    untagged_rule_ids,
)
from durak_spec.spec.steps import STEP_MODULES

ROOT = Path(__file__).resolve().parents[1]
FEATURES = feature_files(ROOT / "features")
STEPS_MD = ROOT / "durak_spec" / "spec" / "STEPS.md"
DEFINITIONS = step_definitions()


def _problems(found: list[str]) -> str:
    return "\n".join(found)


# -- the feature files ---------------------------------------------------------------------


def test_there_are_features() -> None:
    assert FEATURES, f"no feature files under {ROOT / 'features'}"


def test_no_step_is_matched_by_two_definitions() -> None:
    found = ambiguous_steps(FEATURES, DEFINITIONS)
    assert not found, "ambiguous steps:\n" + _problems(found)


def test_every_step_has_a_definition() -> None:
    found = undefined_steps(FEATURES, DEFINITIONS)
    assert not found, "undefined steps:\n" + _problems(found)


def test_scenario_names_are_unique_within_a_feature() -> None:
    found = duplicate_scenarios(FEATURES)
    assert not found, _problems(found)


def test_every_tag_is_a_rule_id_or_a_known_tag() -> None:
    found = unknown_tags(FEATURES)
    assert not found, _problems(found)


def test_tags_agree_with_the_rule_index() -> None:
    found = tag_problems(FEATURES)
    assert not found, _problems(found)


def test_every_rule_has_an_id_and_two_to_four_examples() -> None:
    found = rule_shape_problems(FEATURES)
    assert not found, _problems(found)


def test_no_two_rules_carry_the_same_rule_id() -> None:
    found = shared_rule_ids(FEATURES)
    assert not found, _problems(found)


def test_every_rule_id_is_tagged_by_a_scenario() -> None:
    missing = untagged_rule_ids(FEATURES)
    assert not missing, (f"{len(missing)} rule IDs of the index are tagged by no scenario: "
                         f"{' '.join(missing)}")


def test_every_rule_id_and_tag_is_a_registered_marker(pytestconfig: pytest.Config) -> None:
    registered = {line.split(":", 1)[0] for line in pytestconfig.getini("markers")}
    wanted = set(load_rule_index()) | set(KNOWN_TAGS)
    assert wanted <= registered, sorted(wanted - registered)


def test_a_rule_marker_selects_exactly_that_rules_examples(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(
        str(ROOT / "tests" / "test_features.py"), "-m", "BEAT-4", "--collect-only", "-q",
        "-p", "no:cacheprovider", f"--rootdir={ROOT}")
    collected = [line for line in result.outlines if "::test_" in line]
    assert len(collected) == 2, result.outlines
    assert all("ace_of_trumps" in line for line in collected), collected


# -- the checks find what they are for -----------------------------------------------------


def _feature(tmp_path: Path, body: str, name: str = "check.feature") -> list[Path]:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return [path]


def test_the_ambiguity_check_names_both_definitions(tmp_path: Path) -> None:
    def one() -> None: ...

    def two() -> None: ...

    definitions = [StepDefinition("given", parsers.re(r"Anna holds (?P<cards>.+)"), one),
                   StepDefinition("given", parsers.re(r"(?P<name>\w+) holds 7♣"), two)]
    paths = _feature(tmp_path, """\
        Feature: F
          Scenario: S
            Given Anna holds 7♣
            And Anna holds 8♣
        """)
    found = ambiguous_steps(paths, definitions)
    assert len(found) == 1
    assert "check.feature:3" in found[0] and "one" in found[0] and "two" in found[0]


def test_the_undefined_check_finds_steps_and_unfilled_outline_parameters(tmp_path: Path) -> None:
    paths = _feature(tmp_path, """\
        Feature: F
          Scenario Outline: S
            Given the rules of "<profile>"
            And Anna juggles 7♣
            Then <verdict>

            Examples:
              | verdict        |
              | it is accepted |
        """)
    found = undefined_steps(paths, DEFINITIONS)
    assert len(found) == 2, found
    assert "outline parameter" in found[0] and "juggles" in found[1]


def test_the_tag_checks_find_unknown_tags_and_wrong_sources(tmp_path: Path) -> None:
    paths = _feature(tmp_path, """\
        Feature: F
          @BEAT-4 @source-A @BEAT-99
          Rule: R
            @EX-1 @source-A
            Example: One
              Given hearts are trump
            Example: One
              Given hearts are trump
        """)
    assert any("@BEAT-99" in p for p in unknown_tags(paths))
    problems = tag_problems(paths)
    assert any("BEAT-4 is stated by D, but the tags cite A" in p for p in problems), problems
    assert any("needs @example" in p for p in problems), problems
    assert any("'One' has the name" in p for p in duplicate_scenarios(paths))


def test_the_shape_check_wants_two_to_four_examples_and_a_rule_id(tmp_path: Path) -> None:
    paths = _feature(tmp_path, """\
        Feature: F
          @clarification
          Rule: R
            Example: Alone
              Given hearts are trump
        """)
    shape = rule_shape_problems(paths)
    assert any("no rule ID" in p for p in shape) and any("1 examples" in p for p in shape)
    assert any("specification's decision" in p for p in tag_problems(paths))


def test_an_id_on_two_rules_or_on_a_rule_and_an_example_is_reported(tmp_path: Path) -> None:
    paths = _feature(tmp_path, """\
        Feature: F
          @BEAT-4 @source-D
          Rule: One
            Example: A
              Given hearts are trump
          @BEAT-4 @BEAT-3 @source-A @source-B @source-C @source-D
          Rule: Two
            @BEAT-3 @source-A @source-B @source-C @source-D
            Example: B
              Given hearts are trump
            @EX-1 @example @source-A
            Example: C
              Given hearts are trump
        """)
    found = shared_rule_ids(paths)
    assert len(found) == 2, found
    assert found[0].startswith("@BEAT-4 is on 2 places") and "Rule 'Two'" in found[0]
    assert found[1].startswith("@BEAT-3 is on 2 places") and "Example 'B'" in found[1]


def test_untagged_ids_are_reported(tmp_path: Path) -> None:
    paths = _feature(tmp_path, """\
        Feature: F
          @BEAT-4 @source-D
          Scenario: S
            Given hearts are trump
        """)
    missing = untagged_rule_ids(paths)
    assert "BEAT-4" not in missing and "BEAT-3" in missing and "TERM-1" not in missing


# -- the vocabulary is documented ------------------------------------------------------------


def test_every_step_definition_documents_an_example() -> None:
    ours = [d for d in DEFINITIONS if d.function.__module__ in STEP_MODULES]
    documented = {d.name for d, _, _ in step_examples(ours)}
    assert len(ours) > 50
    assert not [d.name for d in ours if d.name not in documented]


@pytest.mark.parametrize(("keyword", "text"),
                         [(k, t) for _, k, t in step_examples(DEFINITIONS)])
def test_each_documented_example_matches_exactly_one_definition(keyword: str, text: str) -> None:
    matching = [d.name for d in DEFINITIONS if d.matches(keyword.lower(), text)]
    assert len(matching) == 1, f"{keyword} {text}: matched by {matching}"


def test_steps_md_shows_every_documented_example() -> None:
    reference = STEPS_MD.read_text(encoding="utf-8")
    missing = [f"{k} {t}" for _, k, t in step_examples(DEFINITIONS)
               if f"{k} {t}" not in reference]
    assert not missing, "STEPS.md lacks:\n" + "\n".join(missing)


# -- positions ----------------------------------------------------------------------------


def _two_players() -> Position:
    return Position().with_players(["Anna", "Boris"]).with_trump(Suit.HEARTS)


def test_a_described_position_is_built_with_every_card_once() -> None:
    position = (_two_players()
                .with_hand("Anna", parse_card_list("7♣ 9♦"), 6)
                .with_table(parse_table("8♠ covered by 10♠ and 8♦ uncovered"))
                .with_attack("Anna", "Boris")
                .with_stock(9))
    state = position.build()
    assert {parse_card("7♣"), parse_card("9♦")} <= set(state.hands[0])
    assert len(state.hands[0]) == 6 and len(state.hands[1]) == 6
    assert len(state.stock) == 9 and state.stock[-1] == parse_card("6♥")
    assert len(state.discard) == 36 - 12 - 3 - 9
    # 12 cards discarded: a beaten-off bout, not the first (five pairs at most, LIMIT-3);
    # Anna began the bout with 8 cards and Boris with 7, so each took once: three bouts
    assert (state.attacker, state.defender, state.bout) == (0, 1, 3)
    assert position.build() == state  # deterministic


def test_defaults_name_the_players_and_pick_a_trump_nobody_named() -> None:
    position = Position().with_profile("source-a", 3).with_hand("Vera", parse_cards("6♥ 7♠"),
                                                                  6)
    state = position.build()
    assert position.names() == ("Anna", "Boris", "Vera")
    assert state.trump == Suit.DIAMONDS  # hearts and spades are named
    assert state.face_up == parse_card("6♦")


def test_filler_cards_stay_out_of_the_way() -> None:
    state = (_two_players().with_table(parse_table("7♣ uncovered"))
             .with_hand("Boris", (), 6).build())
    for card in state.hands[1]:
        assert card.suit != Suit.HEARTS and card.rank != parse_card("7♣").rank
        assert not (card.suit == Suit.CLUBS and card.rank > parse_card("7♣").rank)


@pytest.mark.parametrize(("build", "message"), [
    (lambda: _two_players().with_hand("Anna", parse_cards("7♣")).with_table(
        parse_table("7♣ uncovered")), "7♣ is dealt twice: in Anna's hand and on the table"),
    (lambda: _two_players().with_stock(25).build(), "needs 37 cards"),
    (lambda: _two_players().with_stock(5).with_discard(size=5).build(),
     "places only 22 of the 36 cards"),
    (lambda: _two_players().with_hand("Olga", parse_cards("7♣")).build(),
     "Olga is given cards, but Olga is not a player: the players are Anna and Boris"),
    (lambda: parse_card_list("7♣ 9X"), "'9X': 'X' is not a suit"),
    (lambda: parse_card_list("5♣"), "2 to 5 are not in the deck"),
    (lambda: parse_table("7♣ beaten by 9♣"), "is not a table entry"),
    (lambda: parse_names("Anna and boris"), "'boris' is not a player's name"),
    (lambda: Position().with_players(["Anna", "Boris", "Vera"]).with_attack("Anna", "Vera")
     .build(), "Vera cannot defend against Anna: the defender is the next player"),
    (lambda: Position().with_players(["Anna", "Boris", "Vera"]).with_out(["Vera"])
     .with_stock(4).build(), "cannot be out while the stock still holds 4 cards"),
    (lambda: Position().with_profile("source-a", 6).with_stock(3).build(),
     "with six players every card is dealt"),
    (lambda: _two_players().with_first_bout().with_hand("Anna", (), 3).build(),
     "in the first bout the 2 players hold or have played 12 cards"),
    (lambda: _two_players().with_first_bout().with_stock(20).build(),
     "the stock holds 24 cards, not 20"),
    (lambda: _two_players().with_face_up(parse_card("9♦")),
     "9♦ cannot be the face-up trump: hearts are trump"),
    (lambda: _two_players().with_table(parse_table("7♣ covered by 6♣")).build(),
     "6♣ does not beat 7♣"),
    (lambda: _two_players().with_take_announced("Anna").with_table(
        parse_table("7♣ uncovered")).build(), "Anna cannot take: Boris defends"),
    (lambda: Position().with_profile("no-such-profile"), "unknown profile"),
    (lambda: Position().with_rule("trump_swap", True), "'trump_swap' is not a rule switch"),
    (lambda: Position().with_players(["Anna"] * 2), "named twice"),
])
def test_impossible_descriptions_are_refused_clearly(build: object, message: str) -> None:
    assert callable(build)
    with pytest.raises(PositionError, match=re.escape(message)):
        build()


def test_position_errors_carry_the_rule_they_break() -> None:
    with pytest.raises(PositionError) as caught:
        _two_players().with_stock(25).build()
    assert caught.value.rule == "DEAL-1" and "the deck has 36" in caught.value.reason


@pytest.mark.parametrize(("text", "message"), [
    ("Anna: 6♣ 7♣ 8♣ 9♣ 10♣", "Anna is dealt 5 cards; every player is dealt six"),
    ("Olga: 6♣ 7♣ 8♣ 9♣ 10♣ J♣", "'Olga' is not a player of this game"),
    ("Anna: 6♣ 7♣ 8♣ 9♣ 10♣ J♣\nstock: 6♣", "6♣ is dealt twice"),
    ("Anna 6♣", "cannot read the deal line"),
])
def test_a_stacked_deck_that_cannot_be_read_is_refused(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=re.escape(message)):
        _two_players().rules_only().stacked_deck(text)


def test_a_stacked_deck_is_a_deck_order_the_engine_deals_as_described() -> None:
    deck = Position().stacked_deck("Boris: 6♦ 7♦ 8♦ 9♦ 10♦ J♦\nstock: A♠\nface-up: 9♥")
    assert sorted(deck) == sorted(DECK)
    state = new_game(profile("classic-throw-in").rules(), deck=deck)
    assert state.hands[1] == parse_cards("6♦ 7♦ 8♦ 9♦ 10♦ J♦")
    assert state.stock[0] == parse_card("A♠") and state.face_up == parse_card("9♥")


def test_a_deal_turns_up_the_trump_it_is_told_or_a_free_card() -> None:
    told = Position().with_face_up(parse_card("9♦")).stacked_deck("Anna: 6♣ 7♣ 8♣ 9♣ 10♣ J♣")
    assert told[-1] == parse_card("9♦")
    hearts = "Anna: 6♥ 7♥ 8♥ 9♥ 10♥ J♥\nBoris: Q♥ K♥ A♥ 6♣ 7♣ 8♣"
    assert Position().stacked_deck(hearts)[-1] == parse_card("6♠")
    with pytest.raises(PositionError, match="every trump is dealt"):
        Position().with_trump(Suit.HEARTS).stacked_deck(hearts)


def test_six_players_need_the_last_hand_listed() -> None:
    with pytest.raises(PositionError, match="list Egor's hand"):
        Position().with_profile("source-a", 6).stacked_deck("Anna: 6♣ 7♣ 8♣ 9♣ 10♣ J♣")


# -- how steps fail, skip and get their engine ------------------------------------------------

_STEP_FEATURE = """\
Feature: How steps fail
  Scenario: A mistyped card
    Given Anna holds 7♣ 9X
    Then Anna holds 7♣

  Scenario: A card dealt twice
    Given Anna holds 7♣
    And Boris holds 7♣
    Then Anna holds 7♣

  Scenario: Too many cards
    Given 30 cards are left in the stock
    Then the stock holds 30 cards

  Scenario: A rejection nobody checks
    Given hearts are trump
    And the table shows 7♣ uncovered
    And Boris holds 6♣ and 5 other cards
    When Boris covers 7♣ with 6♣

  Scenario: A rejection that is expected
    Given hearts are trump
    And the table shows 7♣ uncovered
    And Boris holds 6♣ and 5 other cards
    When Boris covers 7♣ with 6♣
    Then it is rejected by BEAT-5

  Scenario: Rules the engine does not claim
    Given the switch "trump_exchange" is on
    Then the stock holds 24 cards
"""

_STEP_TESTS = """\
from pytest_bdd import scenarios

scenarios("steps.feature")
"""

_FAKE_ENGINE = """\
from dataclasses import replace

from durak_spec.protocol import Capabilities, ReferenceEngine


class OtherEngine(ReferenceEngine):
    \"\"\"The reference, claiming whole profiles only (no free combination of axes).\"\"\"

    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), axes={})
"""


def test_steps_fail_clearly_and_skip_unclaimed_rules(pytester: pytest.Pytester) -> None:
    pytester.makefile(".feature", steps=_STEP_FEATURE)
    pytester.makepyfile(test_steps=_STEP_TESTS, other_engine=_FAKE_ENGINE)
    pytester.syspathinsert()
    result = pytester.runpytest("-p", "durak_spec.spec.plugin", "-p",
                                           "no:cacheprovider", "-rs",
                                           "--durak-engine", "other_engine:OtherEngine")
    result.assert_outcomes(passed=1, failed=4, skipped=1)
    result.stdout.fnmatch_lines([
        '*Step "Given Anna holds 7♣ 9X":*',
        "*'9X': 'X' is not a suit*",
    ])
    result.stdout.fnmatch_lines(['*Step "And Boris holds 7♣":*',
                                 "*7♣ is dealt twice: in Anna's hand and in Boris's hand*"])
    result.stdout.fnmatch_lines(["*the position needs 42 cards*the deck has 36 (DEAL-1)*",
                                 "*Given 30 cards are left in the stock*"])
    result.stdout.fnmatch_lines(['*Step "(end of the scenario)":*',
                                 "*Boris's move \"cover 7♣ with 6♣\" was rejected (BEAT-5:*"])
    result.stdout.fnmatch_lines(["*SKIPPED*claims no profile with these rules*"])


def test_the_reference_engine_is_the_default_and_claims_every_rule_set(
        pytestconfig: pytest.Config) -> None:
    engine = make_engine(pytestconfig)
    switched = profile("classic-throw-in").rules().replace(trump_exchange=True)
    assert type(engine) is ReferenceEngine
    assert claims_of(engine)(switched) is None
    assert "claims no profile" in str(claims_of(_Other())(switched))
    assert claims_of(_Other())(profile("source-b").rules()) is None


class _Other(ReferenceEngine):
    """Another engine: it claims whole profiles only, no free combination of axes."""

    def capabilities(self) -> Capabilities:
        return dataclasses.replace(super().capabilities(), axes={})


def test_an_engine_can_be_injected_by_a_hook(pytester: pytest.Pytester) -> None:
    pytester.makefile(".feature", steps=_STEP_FEATURE)
    pytester.makepyfile(test_steps=_STEP_TESTS)
    pytester.makeconftest("""\
        from durak_spec.protocol import Capabilities, ReferenceEngine


        class Blind(ReferenceEngine):
            def capabilities(self):
                return Capabilities(name="blind", profiles=("classic-throw-in",), load=False)


        def pytest_durak_make_engine(config):
            return Blind()
        """)
    result = pytester.runpytest("-p", "durak_spec.spec.plugin", "-p",
                                           "no:cacheprovider", "-rs", "-k", "expected")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*blind cannot start from a described position*"])

