"""Later games of a match (ORDER-7): who leads after the last game, the Match record, and
saved matches."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from durak_spec import (
    PROFILES,
    Game,
    InputError,
    InvalidState,
    LaterGameLead,
    Match,
    Outcome,
    RuleSet,
    new_game,
)
from durak_spec.engine.dealing import later_game_attacker
from durak_spec.game.persist import (
    SavedGameError,
    load_match,
    match_from_json,
    match_to_json,
    save_match,
)

LEADS = list(LaterGameLead)


def finish(match: Match, seed: int) -> Match:
    chooser = random.Random(seed)
    while not match.current.is_over:
        match = match.play(chooser.choice(match.current.legal_actions()))
    return match


def test_every_profile_leads_later_games_with_the_lowest_trump() -> None:  # ORDER-7
    for name, chosen in PROFILES.items():
        assert chosen.base.later_game_lead is LaterGameLead.LOWEST_TRUMP, name
        origin = chosen.origin("later_game_lead")
        assert (origin.source == "B") is name.startswith("source-b"), name


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_durak_leads_as_the_switch_says(players: int) -> None:  # ORDER-7
    durak = players - 1
    previous = Outcome(tuple((seat,) for seat in range(players - 1)), durak)
    for seed in range(5):
        lowest = new_game(RuleSet(players=players), seed=seed)
        same = new_game(RuleSet(players=players), seed=seed, previous=previous)
        assert same == lowest  # lowest-trump: the last result has no say
        left = new_game(RuleSet(players=players, later_game_lead=LaterGameLead.LEFT_OF_DURAK),
                        seed=seed, previous=previous)
        assert (left.attacker, left.defender) == (0, 1 % players)
        right = new_game(RuleSet(players=players,
                                 later_game_lead=LaterGameLead.RIGHT_OF_DURAK),
                         seed=seed, previous=previous)
        assert (right.attacker, right.defender) == (durak - 1, durak)
        assert left.hands == right.hands == lowest.hands


@pytest.mark.parametrize("lead", LEADS)
def test_after_a_draw_the_lowest_trump_leads(lead: LaterGameLead) -> None:  # ORDER-7
    rules = RuleSet(players=3, later_game_lead=lead)
    draw = Outcome(((0,), (1, 2)), None)
    assert later_game_attacker(rules, draw) is None
    assert new_game(rules, seed=3, previous=draw) == new_game(rules, seed=3)


def test_a_previous_outcome_of_another_table_is_refused() -> None:
    rules = RuleSet(players=2, later_game_lead=LaterGameLead.LEFT_OF_DURAK)
    with pytest.raises(InputError) as error:
        new_game(rules, seed=1, previous=Outcome(((0,), (1,)), 4))
    assert error.value.code == "previous-outcome"
    with pytest.raises(InputError):
        new_game(rules, seed=1, previous=(((0,),), 1))  # type: ignore[arg-type]


@pytest.mark.parametrize("lead", LEADS)
def test_a_match_of_three_games_keeps_score(lead: LaterGameLead) -> None:
    rules = RuleSet(players=3, later_game_lead=lead)
    match = finish(Match.new(rules, seed=10), 10)
    for game in range(2):
        previous = match.current.outcome
        assert previous is not None
        match = finish(match.next_game(seed=20 + game), game)
        later = later_game_attacker(rules, previous)
        if later is not None:
            assert match.current.initial.attacker == later[0]
        else:
            assert match.current.initial == new_game(rules, seed=20 + game)
    assert len(match.games) == len(match.outcomes) == 3
    durak_games = sum(1 for o in match.outcomes if o.durak is not None)
    assert sum(match.durak_counts()) == durak_games
    assert sum(match.first_out_counts()) >= 3
    match.check_leads()


def test_the_next_game_waits_for_the_current_one() -> None:
    match = Match.new(RuleSet(players=2), seed=1)
    with pytest.raises(InputError) as error:
        match.next_game()
    assert error.value.code == "game-not-over"
    with pytest.raises(InputError):
        Match(match.rules, (match.current, match.current))


def test_a_match_is_saved_and_loaded(tmp_path: Path) -> None:
    rules = RuleSet(players=3, later_game_lead=LaterGameLead.RIGHT_OF_DURAK)
    match = finish(Match.new(rules, seed=2), 2)
    match = match.next_game(seed=3).play(match.next_game(seed=3).current.legal_actions()[0])
    path = tmp_path / "match.json"
    save_match(match, path)
    assert load_match(path) == match
    assert match_from_json(json.loads(path.read_text(encoding="utf-8"))) == match


def test_a_saved_match_whose_later_game_was_led_wrongly_is_refused() -> None:
    rules = RuleSet(players=3, later_game_lead=LaterGameLead.LEFT_OF_DURAK)
    match = finish(Match.new(rules, seed=5), 5)
    outcome = match.current.outcome
    assert outcome is not None and outcome.durak is not None
    right = rules.replace(later_game_lead=LaterGameLead.RIGHT_OF_DURAK)
    wrong = Game.new(right, seed=6, previous=outcome)
    wrong_lead = Game(rules=rules, initial=wrong.initial._replace(rules=rules), actions=(),
                      state=wrong.initial._replace(rules=rules), seed=6, deck=wrong.deck)
    bad = Match(rules, (*match.games, wrong_lead))
    with pytest.raises(InvalidState) as error:
        bad.check_leads()
    assert error.value.rule == "ORDER-7"
    with pytest.raises(SavedGameError) as saved:
        match_from_json(match_to_json(bad))
    assert saved.value.rule == "ORDER-7"
