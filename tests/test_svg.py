"""Tests of durak_spec.game.svg: the pictures parse, say what they show, and dim exactly
the cards that cannot be played (VIEW-3). Runtime: about one second."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from durak_spec import (
    DECK,
    Card,
    CardError,
    Cover,
    DurakError,
    GameState,
    Open,
    Suit,
    Take,
    apply,
    legal_actions,
    new_game,
    parse_card,
    parse_cards,
    profile,
)
from durak_spec.game.svg import (
    SvgText,
    card_back_svg,
    card_svg,
    describe_position,
    hand_svg,
    playable_cards,
    position_svg,
    table_svg,
)
from durak_spec.model.rules import PROFILES

NS = "{http://www.w3.org/2000/svg}"


# -- helpers --------------------------------------------------------------------------------


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def card_groups(root: ET.Element) -> list[ET.Element]:
    """Every face-up card group in the picture."""
    return [g for g in root.iter(f"{NS}g") if "card" in classes(g)]


def back_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if "card-back" in classes(g)]


def hand_group(root: ET.Element, seat: int) -> ET.Element:
    found = [g for g in root.iter(f"{NS}g")
             if "hand" in classes(g) and g.get("data-seat") == str(seat)]
    assert len(found) == 1
    return found[0]


def title_of(element: ET.Element) -> str:
    title = element.find(f"{NS}title")
    assert title is not None and title.text
    return title.text


def notations(groups: list[ET.Element]) -> list[str]:
    return [g.get("data-card", "") for g in groups]


def assert_accessible(root: ET.Element) -> None:
    """The document-level promises: role, title, aria-label, scaling; card titles."""
    assert root.get("role") == "img"
    assert root.get("aria-label")
    assert root.get("viewBox") and root.get("width") == "100%"
    assert title_of(root)
    for group in card_groups(root):
        assert title_of(group).startswith(group.get("data-card", "?"))
    for group in back_groups(root):
        assert title_of(group)
    assert not [e for e in root.iter() if e.get("id")], "ids would clash on a shared page"


def deck_for(hands: list[str], stock: str) -> list[Card]:
    """A full deck order: the given hands, then the given stock start, then the rest,
    with the stock's own last card (the face-up trump) kept last."""
    dealt = [c for h in hands for c in parse_cards(h)]
    stock_cards = list(parse_cards(stock))
    face_up = stock_cards[-1]
    rest = [c for c in DECK if c not in dealt and c not in stock_cards]
    return dealt + stock_cards[:-1] + rest + [face_up]


# A known two-player position: hearts are trump (9♥ face up), Anna holds the lowest
# trump 6♥ and attacks, and opens with 7♣.
ANNA = "6H 7C 8S 10D JC KD"
BORIS = "9C 10C 7D 8D AS QH"


def opened() -> GameState:
    rules = profile("classic-throw-in").rules(players=2)
    state = new_game(rules, deck=deck_for([ANNA, BORIS], "9H"))
    assert state.attacker == 0 and state.trump is Suit.HEARTS
    return apply(state, Open(0, (parse_card("7C"),)))


def random_game_states(name: str, players: int, seed: int, steps: int) -> list[GameState]:
    rng = random.Random(seed)
    state = new_game(profile(name).rules(players=players), seed=seed)
    states = [state]
    for _ in range(steps):
        actions = legal_actions(state)
        if not actions:
            break
        state = apply(state, rng.choice(actions))
        states.append(state)
    return states


# -- single cards -------------------------------------------------------------------------------


def test_card_svg_parses_and_names_the_card() -> None:
    svg = card_svg(parse_card("7C"))
    root = parse(svg)
    assert_accessible(root)
    assert title_of(root) == "7♣"
    assert "seven of clubs" in root.get("aria-label", "")
    (group,) = card_groups(root)
    assert group.get("data-card") == "7♣"
    assert classes(group) == {"card"}


def test_card_svg_flags_dim_trump_highlight() -> None:
    root = parse(card_svg("10H", dim=True, trump=True, highlight=True))
    (group,) = card_groups(root)
    assert classes(group) == {"card", "dim", "trump", "highlight"}
    label = root.get("aria-label", "")
    assert "ten of hearts" in label and "trump" in label and "cannot be played" in label


def test_card_colours_follow_the_suit() -> None:
    red = card_svg("QD")
    black = card_svg("QS")
    assert "#c62828" in red and "#c62828" not in black


def test_card_back_is_a_picture_without_a_card() -> None:
    root = parse(card_back_svg())
    assert_accessible(root)
    assert card_groups(root) == [] and len(back_groups(root)) == 1
    assert "face-down" in root.get("aria-label", "")


def test_bad_cards_are_refused_clearly() -> None:
    with pytest.raises(CardError, match="not a rank"):
        card_svg("5H")
    with pytest.raises(DurakError, match="needs a card"):
        card_svg(7)  # type: ignore[arg-type]


def test_svg_text_displays_in_jupyter() -> None:
    # One display class for the package: pictures are Markup, shown as (inline SVG) HTML.
    from durak_spec.game.markup import Markup

    svg = card_svg("AS")
    assert SvgText is Markup
    assert isinstance(svg, Markup) and isinstance(svg, str)
    assert svg._repr_html_() == str(svg)
    assert str(svg).startswith("<svg ")


def test_position_text_stays_legible_when_the_picture_fits_a_phone() -> None:
    # A phone shows about 358 CSS pixels of picture: every text must still be drawn at
    # nine pixels or more (the book's screenshots check the same in a browser).
    rules = profile("classic-throw-in").rules(players=4)
    state = new_game(rules, seed=4)
    svg = position_svg(state, names=["Anna", "Boris", "Vera", "Gleb"], playable_for=0)
    root = ET.fromstring(svg)
    width = float(root.get("viewBox", "").split()[2])
    scale = 358 / width
    sizes = [float(t.get("font-size", "0")) for t in root.iter(f"{NS}text")]
    assert sizes and min(sizes) * scale >= 9, (min(sizes), width)
    # No seat codes: the players are named.
    assert not re.search(r"\bP[0-9]\b", " ".join(root.itertext()))


# -- rows and table -------------------------------------------------------------------------------


def test_hand_svg_dims_what_is_not_playable_and_marks_trumps() -> None:
    root = parse(hand_svg("6H 7C 10D QS AH", trump="hearts", playable="7C AH"))
    assert_accessible(root)
    groups = card_groups(root)
    assert notations(groups) == ["6♥", "7♣", "10♦", "Q♠", "A♥"]
    assert {g.get("data-card") for g in groups if "dim" in classes(g)} == {"6♥", "10♦", "Q♠"}
    assert {g.get("data-card") for g in groups if "trump" in classes(g)} == {"6♥", "A♥"}
    assert "playable: 7♣, A♥" in root.get("aria-label", "")


def test_hand_svg_without_playable_dims_nothing_and_draws_empty_hands() -> None:
    root = parse(hand_svg([parse_card("KS"), "KH"]))
    assert not [g for g in card_groups(root) if "dim" in classes(g)]
    empty = parse(hand_svg([]))
    assert card_groups(empty) == [] and "no cards" in empty.get("aria-label", "")


def test_table_svg_shows_pairs_with_covers() -> None:
    # Boris covers 7♣ with 10♣; Anna holds 10♦, so the bout goes on with a covered pair.
    state = apply(opened(), Cover(1, parse_card("7C"), parse_card("10C")))
    assert len(state.table) == 1
    root = parse(table_svg(state, names=["Anna", "Boris"]))
    assert_accessible(root)
    pairs = [g for g in root.iter(f"{NS}g") if "pair" in classes(g)]
    assert len(pairs) == 1 and title_of(pairs[0]) == "7♣ covered by 10♣"
    assert notations(card_groups(root)) == ["7♣", "10♣"]
    assert "7♣ covered by 10♣" in root.get("aria-label", "")


# -- positions --------------------------------------------------------------------------------


def test_playable_for_dims_exactly_the_unplayable_cards() -> None:
    state = opened()
    # Boris defends 7♣ with hearts trump: 9♣, 10♣ (higher clubs) and Q♥ (a trump) cover it;
    # 7♦, 8♦ and A♠ cannot be played; his other move is to take.
    root = parse(position_svg(state, names=["Anna", "Boris"], playable_for=1))
    assert_accessible(root)
    dimmed = [g for g in card_groups(root) if "dim" in classes(g)]
    assert len(dimmed) == 3
    assert sorted(notations(dimmed)) == sorted(["7♦", "8♦", "A♠"])
    boris = card_groups(hand_group(root, 1))
    assert {g.get("data-card") for g in boris if "dim" not in classes(g)} == {"9♣", "10♣", "Q♥"}
    label = root.get("aria-label", "")
    assert "Boris can play 9♣, 10♣, Q♥" in label
    assert "Boris may also take" in label
    assert playable_cards(state, 1) == frozenset(parse_cards("9C 10C QH"))


def test_playable_for_the_attacker_with_nothing_to_add_dims_every_card() -> None:
    state = opened()
    root = parse(position_svg(state, playable_for=0))
    anna = card_groups(hand_group(root, 0))
    assert len(anna) == 5 and all("dim" in classes(g) for g in anna)
    assert "P0 has nothing to do now" in root.get("aria-label", "")


def test_position_words_name_players_roles_and_trump() -> None:
    state = opened()
    root = parse(position_svg(state, names=["Anna", "Boris"]))
    label = root.get("aria-label", "")
    assert "Anna (attacker) holds 6♥, 8♠, 10♦, J♣, K♦" in label
    assert "Boris (defender) holds" in label
    assert "trump is hearts" in label and "9♥" in label
    assert "table: 7♣ uncovered" in label
    assert title_of(root) == "Durak position: Anna attacks Boris, trump hearts"
    assert label == describe_position(state, names=["Anna", "Boris"])
    assert not [g for g in card_groups(root) if "dim" in classes(g)]


def test_show_all_false_hides_other_hands_but_not_cards_known_to_all() -> None:
    state = apply(opened(), Take(1))  # Boris takes 7♣: everyone knows he holds it (VIEW-2)
    assert state.attacker == 0 and parse_card("7C") in state.hands[1]
    root = parse(position_svg(state, seat=0, show_all=False, names=["Anna", "Boris"]))
    boris = hand_group(root, 1)
    assert notations(card_groups(boris)) == ["7♣"]
    assert len(back_groups(boris)) == len(state.hands[1]) - 1
    assert "known to all" in title_of(card_groups(boris)[0])
    anna = hand_group(root, 0)
    assert notations(card_groups(anna)) == [str(c) for c in state.hands[0]]
    # Nothing of Boris's hidden cards leaks into the picture.
    svg = position_svg(state, seat=0, show_all=False)
    for card in state.hands[1]:
        if card != parse_card("7C"):
            assert str(card) not in svg
    # The viewer's hand is drawn last, nearest the reader.
    hands = [g.get("data-seat") for g in root.iter(f"{NS}g") if "hand" in classes(g)]
    assert hands == ["1", "0"]


def test_show_all_false_without_a_seat_hides_every_hand() -> None:
    state = opened()
    root = parse(position_svg(state, show_all=False))
    for seat in (0, 1):
        assert card_groups(hand_group(root, seat)) == []
        assert len(back_groups(hand_group(root, seat))) == len(state.hands[seat])


def test_text_is_escaped() -> None:
    state = opened()
    names = ['<Anna & "Co">', "Boris'"]
    svg = position_svg(state, names=names)
    root = parse(svg)
    assert '<Anna & "Co"> (attacker)' in root.get("aria-label", "")
    assert "<Anna" not in svg and "&lt;Anna &amp;" in svg
    assert title_of(parse(hand_svg("7C", title="a & b <c>"))) == "a & b <c>"


def test_highlight_outlines_the_named_cards() -> None:
    state = opened()
    root = parse(position_svg(state, highlight=["7C"]))
    lit = [g for g in card_groups(root) if "highlight" in classes(g)]
    assert notations(lit) == ["7♣"]


def test_game_over_names_the_durak() -> None:
    for seed in range(20):
        state = random_game_states("classic-throw-in", 3, seed, 400)[-1]
        outcome = state.outcome
        if outcome is not None and outcome.durak is not None:
            break
    else:  # pragma: no cover - the random games above always end
        pytest.fail("no finished game")
    root = parse(position_svg(state))
    label = root.get("aria-label", "")
    assert f"P{outcome.durak} is the durak" in label
    assert f"P{outcome.durak} (durak) holds" in label
    assert "out (1st)" in label


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": 2}, "seat=2 is not a seat"),
        ({"playable_for": -1}, "playable_for=-1 is not a seat"),
        ({"names": ["Anna"]}, "one name per seat"),
        ({"names": {5: "Eve"}}, "not a seat"),
        ({"names": ["Anna", ""]}, "non-empty text"),
        ({"show_all": "no"}, "show_all must be True or False"),
    ],
)
def test_bad_arguments_are_refused_clearly(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(DurakError, match=message):
        position_svg(opened(), **kwargs)  # type: ignore[arg-type]


def test_position_svg_needs_a_state() -> None:
    with pytest.raises(DurakError, match="draws a GameState"):
        position_svg("7C 9C")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(PROFILES))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_profile_deal_renders(name: str, players: int) -> None:
    rules = profile(name).rules(players=players)
    state = new_game(rules, seed=players)
    root = parse(position_svg(state, playable_for=state.attacker))
    assert_accessible(root)
    drawn = notations(card_groups(root))
    expected = [str(c) for hand in state.hands for c in hand]
    if state.face_up is not None:
        expected.append(str(state.face_up))
    assert sorted(drawn) == sorted(expected)
    assert len(drawn) == len(set(drawn))
    assert f"trump is {state.trump.label}" in root.get("aria-label", "")
    # Between bouts the attacker may open with any card: nothing is dimmed.
    assert not [g for g in card_groups(root) if "dim" in classes(g)]


@pytest.mark.parametrize(("name", "players"), [("classic-transfer", 3), ("source-b", 2),
                                               ("source-d-transfer", 4),
                                               ("classic-throw-in", 6)])
def test_dimming_follows_legal_actions_through_random_games(name: str, players: int) -> None:
    """Whoever may act, the bright cards of their hand are those their legal actions use."""
    dims = 0
    for state in random_game_states(name, players, seed=11, steps=60)[::3]:
        acting = sorted({a.player for a in legal_actions(state)})
        for seat in acting:
            used = {c for a in legal_actions(state) if a.player == seat for c in a.cards}
            root = parse(position_svg(state, playable_for=seat))
            mine = card_groups(hand_group(root, seat))
            bright = {g.get("data-card") for g in mine if "dim" not in classes(g)}
            assert bright == {str(c) for c in used if c in state.hands[seat]}
            dims += len(mine) - len(bright)
            for other in range(players):
                if other != seat:
                    others = card_groups(hand_group(root, other))
                    assert not [g for g in others if "dim" in classes(g)]
    assert dims > 0, "the sampled positions never dimmed a card"


def test_six_players_the_trump_dealt_last_stays_face_up_in_hidden_view() -> None:
    """With six players the last card dealt shows trump and stays in P5's hand (DEAL-8),
    so everyone knows it (VIEW-2): a hidden P5 still shows that one card."""
    state = new_game(profile("classic-throw-in").rules(players=6), seed=1)
    (last,) = state.known[5]
    root = parse(position_svg(state, seat=0, show_all=False))
    assert notations(card_groups(hand_group(root, 5))) == [str(last)]
    assert [g for g in root.iter(f"{NS}g") if "trump-indicator" in classes(g)]
    assert [g for g in root.iter(f"{NS}g") if "stock" in classes(g)] == []
    for seat in (1, 2, 3, 4):
        assert card_groups(hand_group(root, seat)) == []
