"""The rule set (VAR-2): validation, copies, serialisation, and the named profiles' origins."""

from __future__ import annotations

from typing import Any

import pytest

from durak_spec import (
    AXES,
    PROFILES,
    DrawOrder,
    LimitReading,
    NoTrumpLead,
    RuleSet,
    RuleSetError,
    profile,
)
from durak_spec.model.rules import ThrowIn

AXIS_NAMES = [axis.name for axis in AXES]


@pytest.mark.parametrize("players", [1, 7, 0, -2, "2", True, False, 2.0, None])
def test_players_must_be_a_whole_number_from_2_to_6(players: Any) -> None:
    with pytest.raises(RuleSetError) as excinfo:
        RuleSet(players=players)
    assert "players" in str(excinfo.value)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players_are_a_game(players: int) -> None:
    assert RuleSet(players=players).players == players


@pytest.mark.parametrize(("axis", "value"), [
    ("transfer", 1),
    ("multi_card_opening", "yes"),
    ("first_bout_limit_five", None),
    ("trump_exchange", 0),
    ("throw_in", "all"),
    ("limit_reading", "start-hand"),
    ("draw_order", 3),
    ("no_trump_lead", "chance"),
])
def test_axes_need_values_of_their_type(axis: str, value: Any) -> None:
    with pytest.raises(RuleSetError) as excinfo:
        RuleSet(**{axis: value})
    assert axis in str(excinfo.value)


def test_showing_a_trump_needs_the_transfer_game() -> None:
    with pytest.raises(RuleSetError, match="TRANSFER-7"):
        RuleSet(transfer_by_showing_trump=True)
    assert RuleSet(transfer=True, transfer_by_showing_trump=True).transfer_by_showing_trump


def test_rule_sets_are_frozen_and_compare_by_value() -> None:
    rules = RuleSet(players=3)
    with pytest.raises(AttributeError):
        rules.players = 4  # type: ignore[misc]
    assert rules == RuleSet(players=3)
    assert hash(rules) == hash(RuleSet(players=3))
    assert rules != RuleSet(players=4)


def test_replace_and_with_players_make_checked_copies() -> None:
    rules = profile("classic-transfer").rules()
    four = rules.with_players(4)
    assert four.players == 4
    assert rules.players == 2
    assert four.replace(players=2) == rules
    changed = rules.replace(throw_in=ThrowIn.NEIGHBOURS, trump_exchange=True)
    assert (changed.throw_in, changed.trump_exchange) == (ThrowIn.NEIGHBOURS, True)
    assert changed.transfer is True
    with pytest.raises(RuleSetError, match="DEAL-3"):
        rules.with_players(7)
    with pytest.raises(RuleSetError, match="TRANSFER-7"):
        rules.replace(transfer=False, transfer_by_showing_trump=True)


def test_replace_rejects_an_unknown_axis_naming_it() -> None:
    with pytest.raises(RuleSetError) as excinfo:
        RuleSet().replace(trumps_exchange=True)
    assert "'trumps_exchange'" in str(excinfo.value)
    assert "trump_exchange" in str(excinfo.value)


@pytest.mark.parametrize("name", list(PROFILES))
@pytest.mark.parametrize("players", [2, 3, 6])
def test_to_dict_and_from_dict_round_trip(name: str, players: int) -> None:
    rules = profile(name).rules(players=players)
    data = rules.to_dict()
    assert list(data) == AXIS_NAMES
    assert all(isinstance(v, bool | int | str) for v in data.values())
    assert RuleSet.from_dict(data) == rules


def test_from_dict_reads_plain_values_and_fills_defaults() -> None:
    rules = RuleSet.from_dict({"players": "4", "transfer": "on", "throw_in": "neighbours",
                               "limit_reading": "start-hand", "draw_order": "join-order",
                               "no_trump_lead": "first-seat", "trump_exchange": "no"})
    assert rules == RuleSet(players=4, transfer=True, throw_in=ThrowIn.NEIGHBOURS,
                            limit_reading=LimitReading.START_HAND,
                            draw_order=DrawOrder.JOIN_ORDER,
                            no_trump_lead=NoTrumpLead.FIRST_SEAT)
    assert RuleSet.from_dict({}) == RuleSet()


@pytest.mark.parametrize(("data", "fragment"), [
    ({"colour": "red"}, "'colour'"),
    ({"throw_in": "everyone"}, "throw_in"),
    ({"players": True}, "players"),
    ({"players": "seven"}, "players"),
    ({"transfer": "maybe"}, "transfer"),
    ({"players": 9}, "DEAL-3"),
])
def test_from_dict_rejects_bad_data(data: dict[str, object], fragment: str) -> None:
    with pytest.raises(RuleSetError) as excinfo:
        RuleSet.from_dict(data)
    assert fragment in str(excinfo.value)


def test_from_dict_needs_a_mapping() -> None:
    with pytest.raises(RuleSetError, match="list"):
        RuleSet.from_dict([("players", 2)])  # type: ignore[arg-type]


def test_unknown_profile_lists_the_known_ones() -> None:
    with pytest.raises(RuleSetError) as excinfo:
        profile("source-e")
    assert "'source-e'" in str(excinfo.value)
    assert "classic-transfer" in str(excinfo.value)


def test_an_unknown_axis_has_no_origin() -> None:
    with pytest.raises(RuleSetError, match="'colour'"):
        profile("source-a").origin("colour")


def test_the_profiles_are_the_sources_and_the_classic_games() -> None:
    assert set(PROFILES) == {
        "classic-throw-in", "classic-transfer", "source-a", "source-a-transfer", "source-b",
        "source-b-transfer", "source-c", "source-d", "source-d-transfer",
    }


@pytest.mark.parametrize("name", list(PROFILES))
def test_from_source_and_clarified_partition_the_axes(name: str) -> None:
    p = PROFILES[name]
    from_source, clarified = p.from_source(), p.clarified()
    assert set(from_source).isdisjoint(clarified)
    assert sorted(from_source + clarified) == sorted(AXIS_NAMES)
    for axis in AXIS_NAMES:
        origin = p.origin(axis)
        assert origin.note
        assert (axis in clarified) == origin.is_clarification == (origin.source is None)


@pytest.mark.parametrize("name", list(PROFILES))
def test_every_profile_cites_only_its_own_source(name: str) -> None:
    p = PROFILES[name]
    sources = {p.origin(a).source for a in p.from_source()}
    if name.startswith("source-"):
        assert sources == {name.split("-")[1].upper()}
    else:
        assert p.from_source() == ()


# (profile, axis, value, source or None for a clarification)
ORIGINS: list[tuple[str, str, object, str | None]] = [
    ("source-a", "first_bout_limit_five", True, "A"),
    ("source-a", "transfer", False, "A"),
    ("source-a", "transfer_by_showing_trump", False, None),
    ("source-a", "throw_in", ThrowIn.ALL, "A"),
    ("source-a", "limit_reading", LimitReading.CURRENT_HAND, "A"),
    ("source-a", "draw_order", DrawOrder.ATTACKER_FIRST, "A"),
    ("source-a", "no_trump_lead", NoTrumpLead.CHANCE, None),
    ("source-a", "trump_exchange", False, None),
    ("source-a-transfer", "transfer", True, "A"),
    ("source-a-transfer", "transfer_by_showing_trump", False, None),
    ("source-b", "multi_card_opening", True, "B"),
    ("source-b", "first_bout_limit_five", False, "B"),
    ("source-b", "throw_in", ThrowIn.ATTACKER, "B"),
    ("source-b", "limit_reading", LimitReading.START_HAND, "B"),
    ("source-b", "no_trump_lead", NoTrumpLead.CHANCE, "B"),
    ("source-b", "trump_exchange", False, "B"),
    ("source-b", "players", 2, "B"),
    ("source-b-transfer", "transfer", True, "B"),
    ("source-b-transfer", "transfer_by_showing_trump", False, "B"),
    ("source-c", "transfer", False, None),
    ("source-c", "first_bout_limit_five", False, None),
    ("source-c", "limit_reading", LimitReading.CURRENT_HAND, "C"),
    ("source-c", "multi_card_opening", False, "C"),
    ("source-c", "throw_in", ThrowIn.ALL, None),
    ("source-d", "draw_order", DrawOrder.JOIN_ORDER, "D"),
    ("source-d", "limit_reading", LimitReading.START_HAND, "D"),
    ("source-d", "first_bout_limit_five", False, None),
    ("source-d", "throw_in", ThrowIn.ALL, "D"),
    ("source-d-transfer", "transfer", True, "D"),
    ("classic-throw-in", "transfer", False, None),
    ("classic-throw-in", "first_bout_limit_five", True, None),
    ("classic-transfer", "transfer", True, None),
]


@pytest.mark.parametrize(("name", "axis", "value", "source"), ORIGINS)
def test_profile_axis_value_and_origin(name: str, axis: str, value: object,
                                       source: str | None) -> None:
    p = profile(name)
    assert getattr(p.rules(), axis) == value
    assert p.origin(axis).source == source
    assert p.origin(axis).is_clarification == (source is None)


@pytest.mark.parametrize("name", list(PROFILES))
def test_no_source_profile_turns_on_the_unused_variants(name: str) -> None:
    rules = profile(name).rules()
    assert rules.trump_exchange is False  # VAR-1
    assert rules.transfer_by_showing_trump is False  # TRANSFER-7


def test_profile_rules_for_another_number_of_players() -> None:
    p = profile("source-d")
    assert p.rules().players == 2
    six = p.rules(players=6)
    assert six.players == 6
    assert six.replace(players=2) == p.rules()
    assert p.rules(players=6) is not p.base
    assert p.rules() is p.base


def test_describe_lists_every_axis() -> None:
    lines = profile("source-b").rules().describe().splitlines()
    assert [line.split(" = ")[0] for line in lines] == AXIS_NAMES
    assert "multi_card_opening = on" in lines
    assert "limit_reading = start-hand" in lines
