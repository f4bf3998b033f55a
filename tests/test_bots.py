"""Computer players and simulations (durak_spec.play.bots).

The bots choose only legal actions under every profile and player count, decide from the
player's view alone (two positions that differ only in hidden cards get the same
choice), work without memory, follow each tip as a separate switch, and the heuristic
player beats the random one by a wide, measured margin over 200 seeded games.

Runtime: about 6 s (the 200-game match takes about 2 s).
"""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest
from helpers import position

from durak_spec import (
    Action,
    Cover,
    Done,
    Open,
    RuleSet,
    Take,
    ThrowIn,
    Transfer,
    apply,
    legal_actions,
    new_game,
    parse_card,
    parse_cards,
    profile,
    validate_state,
)
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.game import persist
from durak_spec.game.view import PlayerView, view
from durak_spec.model.rules import ThrowIn as ThrowInRule
from durak_spec.model.rules import TurnOrder
from durak_spec.model.state import GameState
from durak_spec.play.bots import (
    ALL_TIPS,
    TIP_NOTES,
    BaseBot,
    Bot,
    BotError,
    HeuristicBot,
    IsmctsBot,
    RandomBot,
    SearchBot,
    Tip,
    acting_seat,
    make_bot,
    play_game,
    strength,
    tournament,
    wilson_interval,
)

THROW_IN_2 = profile("classic-throw-in").rules(players=2)
TRANSFER_2 = profile("classic-transfer").rules(players=2)


def choose(bot: Bot, state: GameState, seat: int | None = None, seed: int = 0) -> Action:
    seat = state.defender if seat is None else seat
    return bot.choose(view(state, seat), random.Random(seed))


# -- legal choices under every rule set -------------------------------------------------------

RULE_SETS = [
    profile("classic-throw-in").rules(players=2),
    profile("classic-throw-in").rules(players=3),
    profile("classic-transfer").rules(players=2),
    profile("classic-transfer").rules(players=4),
    profile("classic-transfer").rules(players=6),
    profile("source-b-transfer").rules(),  # multi-card openings, start-hand limit
    profile("source-d-transfer").rules(players=5),  # join-order drawing
    profile("classic-transfer").rules(players=3).replace(transfer_by_showing_trump=True,
                                                         trump_exchange=True),
    profile("classic-throw-in").rules(players=4).replace(throw_in=ThrowInRule.NEIGHBOURS),
    profile("classic-throw-in").rules(players=4).replace(turn_order=TurnOrder.OPENER_FIRST),
    profile("classic-transfer").rules(players=4).replace(turn_order=TurnOrder.LAST_THROWER),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.players}p-transfer-{r.transfer}")
def test_bots_play_whole_games_with_legal_actions_only(rules: RuleSet) -> None:
    kinds = [HeuristicBot(), RandomBot(), HeuristicBot(tips=()),
             HeuristicBot(tips={"TIP-2", "TIP-6", "TIP-8"})]
    for seed in range(3):
        bots: list[Bot] = [kinds[(seat + seed) % len(kinds)] if seat < len(kinds) else
                           HeuristicBot() for seat in range(rules.players)]
        result = play_game(rules, bots, seed)  # raises BotError on any illegal choice
        assert result.outcome is not None, "every game ends"
        assert result.actions == len(result.history) > 0
        assert result.game().state.outcome == result.outcome


def test_search_bot_plays_a_legal_game() -> None:
    result = play_game(TRANSFER_2, [SearchBot(samples=2, max_candidates=3), HeuristicBot()],
                       seed=4)
    assert result.outcome is not None


@pytest.mark.parametrize("order", list(TurnOrder))
def test_search_bot_samples_worlds_under_each_turn_order(order: TurnOrder) -> None:
    # The sampled worlds carry what the view shows of the bout protocol (the last thrower
    # of CLAR-18), so every candidate the bot tries there is legal there too.
    rules = profile("classic-throw-in").rules(players=4).replace(turn_order=order)
    bots: list[Bot] = [SearchBot(samples=2, max_candidates=3, search_from_stock=36),
                       HeuristicBot(), HeuristicBot(), RandomBot()]
    result = play_game(rules, bots, seed=6)
    assert result.outcome is not None


def test_a_bot_that_breaks_the_rules_is_stopped_with_the_rule() -> None:
    class Cheat(BaseBot):
        name = "cheat"

        def choose(self, view: PlayerView, rng: random.Random) -> Action:
            return Take(view.seat)  # even when no bout is open

    state = new_game(THROW_IN_2, seed=1)
    bots: list[Bot] = [Cheat(), Cheat()]
    with pytest.raises(BotError, match=rf"cheat.*P{state.attacker} take.*ATTACK-1"):
        play_game(THROW_IN_2, bots, seed=1)


def test_each_seat_needs_its_own_bot_and_the_right_number() -> None:
    bot = HeuristicBot()
    with pytest.raises(ValueError, match="own bot"):
        play_game(THROW_IN_2, [bot, bot], seed=1)
    with pytest.raises(ValueError, match="3 bots for a game of 2"):
        play_game(THROW_IN_2, [RandomBot(), RandomBot(), RandomBot()], seed=1)


# -- the view only ----------------------------------------------------------------------------


def _hide_differently(state: GameState, seat: int) -> GameState:
    """The same position for ``seat``, with the other hands' hidden cards and the hidden
    stock shuffled among themselves."""
    cards = [card for other, hand in enumerate(state.hands) if other != seat
             for card in hand if card not in state.known[other]]
    stock_hidden = list(state.stock[:-1]) if state.face_up is not None else list(state.stock)
    cards.extend(stock_hidden)
    rng = random.Random(99)
    rng.shuffle(cards)
    hands = []
    pos = 0
    for other, hand in enumerate(state.hands):
        if other == seat:
            hands.append(hand)
            continue
        keep = [c for c in hand if c in state.known[other]]
        fresh = cards[pos:pos + len(hand) - len(keep)]
        pos += len(fresh)
        hands.append(tuple(sorted(keep + fresh)))
    stock = tuple(cards[pos:pos + len(stock_hidden)]) + (
        (state.face_up,) if state.face_up is not None else ())
    return validate_state(state._replace(hands=tuple(hands), stock=stock))


@functools.cache
def _midgame_positions() -> list[tuple[GameState, int]]:
    """Positions of seeded random games, every seventh step, with the seat to act."""
    found = []
    for rules in (THROW_IN_2, TRANSFER_2, profile("classic-transfer").rules(players=4)):
        for seed in range(4):
            state = new_game(rules, seed=seed)
            rng = random.Random(seed)
            steps = 0
            while not state.is_over and steps < 200:
                seat = acting_seat(state)
                assert seat is not None
                if steps % 7 == 3:
                    found.append((state, seat))
                state = apply(state, rng.choice([a for a in legal_actions(state)
                                                 if a.player == seat]))
                steps += 1
    return found


def test_bots_decide_from_the_view_alone() -> None:
    positions = _midgame_positions()
    assert len(positions) > 60
    changed = 0
    for state, seat in positions:
        other = _hide_differently(state, seat)
        changed += other.hands != state.hands or other.stock != state.stock
        assert view(other, seat) == view(state, seat)
        for make in (HeuristicBot, RandomBot, lambda: SearchBot(samples=1, max_candidates=2),
                     lambda: IsmctsBot(playouts=6, search_from_stock=None),
                     lambda: IsmctsBot(playouts=6, search_from_stock=None,
                                       opponents="heuristic")):
            first = choose(make(), state, seat, seed=5)
            second = choose(make(), other, seat, seed=5)
            assert first == second, f"{first} vs {second}: the bot saw a hidden card"
    assert changed > len(positions) // 2, "the test must really move hidden cards"


def test_fresh_bots_without_memory_choose_legal_actions_from_a_view() -> None:
    for state, seat in _midgame_positions():
        seen = view(state, seat)
        for bot in (HeuristicBot(), HeuristicBot(tips=()), RandomBot(), make_bot("random"),
                    SearchBot(samples=1, max_candidates=2),
                    IsmctsBot(playouts=4, search_from_stock=None)):
            assert bot.choose(seen, random.Random(1)) in seen.playable


def test_a_bot_asked_without_moves_says_so() -> None:
    state = new_game(THROW_IN_2, seed=2)
    idle = 1 - state.attacker
    for bot in (HeuristicBot(), RandomBot()):
        with pytest.raises(BotError, match="no legal action"):
            choose(bot, state, idle)


# -- determinism and simulations ------------------------------------------------------------


def test_games_are_deterministic_for_a_seed() -> None:
    rules = profile("classic-transfer").rules(players=3)

    def once(seed: int) -> tuple[Action, ...]:
        return play_game(rules, [HeuristicBot(), RandomBot(), HeuristicBot(tips=())],
                         seed).history

    assert once(5) == once(5)
    assert once(5) != once(6)


def test_tournament_rotates_seats_counts_and_reports_progress() -> None:
    calls: list[tuple[int, int]] = []
    bots: list[Bot] = [HeuristicBot(), RandomBot()]
    result = tournament(THROW_IN_2, bots, 10, seed=3,
                        progress=lambda done, total, _: calls.append((done, total)))
    assert calls == [(k, 10) for k in range(1, 11)]
    assert sum(result.durak) + result.draws + result.unfinished == 10
    assert [r.seed for r in result.results] == [3, 3, 4, 4, 5, 5, 6, 6, 7, 7]
    assert [r.players for r in result.results[:2]] == [("heuristic", "random"),
                                                      ("random", "heuristic")]
    again = tournament(THROW_IN_2, [HeuristicBot(), RandomBot()], 10, seed=3)
    assert again.durak == result.durak and again.actions == result.actions
    assert "heuristic: durak in" in result.summary()


def test_wilson_interval() -> None:
    low, high = wilson_interval(10, 100)
    assert low == pytest.approx(0.0552, abs=1e-3) and high == pytest.approx(0.1744, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_heuristic_beats_random_clearly_over_200_games() -> None:
    result = tournament(THROW_IN_2, [HeuristicBot(), RandomBot()], 200, seed=2024)
    heuristic, random_bot = result.durak_rate(0), result.durak_rate(1)
    # Measured: heuristic about 0.02, random about 0.97 (draws make up the rest).
    assert heuristic + 0.5 < random_bot
    assert result.interval(0)[1] < result.interval(1)[0]


def test_heuristic_beats_random_in_the_transfer_game_with_three() -> None:
    rules = profile("classic-transfer").rules(players=3)
    result = tournament(rules, [HeuristicBot(), RandomBot(), RandomBot()], 60, seed=7)
    assert result.durak_rate(0) + 0.25 < min(result.durak_rate(1), result.durak_rate(2))


# -- the tips, one at a time ---------------------------------------------------------------------


def test_tips_parse_and_are_documented() -> None:
    assert {t.value for t in Tip} == set(load_rule_index().ids("tip"))
    assert set(TIP_NOTES) == set(Tip)
    assert HeuristicBot(tips={"TIP-2", "save_trumps", Tip.SAVE_TRUMPS}).tips == {Tip.SAVE_TRUMPS}
    assert HeuristicBot(tips={"TIP-10", "TIP-2"}).name == "heuristic[TIP-2,TIP-10]"
    assert HeuristicBot().follows("TIP-7") and not HeuristicBot(tips=()).follows("TIP-7")
    with pytest.raises(ValueError, match="not a tip"):
        HeuristicBot(tips={"TIP-12"})


def test_strength_puts_every_trump_above_every_other_card() -> None:
    trump = parse_card("6♥").suit
    assert strength(parse_card("6♣"), trump) == 0
    assert strength(parse_card("A♣"), trump) == 8
    assert strength(parse_card("6♥"), trump) == 9
    assert strength(parse_card("A♥"), trump) == 17


def without(tip: Tip) -> frozenset[Tip]:
    return ALL_TIPS - {tip}


def test_tip_1_opens_with_the_lowest_card() -> None:
    state = position(THROW_IN_2, hands={0: "9♦ 6♣ K♠ 7♥ J♣", 1: "8♣ 9♣ 10♣"}, stock=10)
    for seed in range(10):
        assert choose(HeuristicBot(tips={Tip.LOW_CARDS_FIRST}), state, 0, seed) == \
            Open(0, parse_cards("6♣"))
    chosen = {choose(HeuristicBot(tips=()), state, 0, seed) for seed in range(10)}
    assert len(chosen) > 1, "without TIP-1 the card is left to chance"


def test_tip_2_takes_a_cheap_card_early_rather_than_spend_a_trump() -> None:
    hands = {0: "6♦ 7♦ 8♦ 9♠ J♦", 1: "10♥ 9♦ J♠ Q♦ K♠ A♠"}
    early = position(THROW_IN_2, hands=hands, table="7♣", stock=18, face_up="6♥")
    assert choose(HeuristicBot(), early, 1) == Take(1)
    assert choose(HeuristicBot(tips=without(Tip.SAVE_TRUMPS)), early, 1) == \
        Cover(1, parse_card("7♣"), parse_card("10♥"))
    late = position(THROW_IN_2, hands=hands, table="7♣", stock=4, face_up="6♥")
    assert choose(HeuristicBot(), late, 1) == Cover(1, parse_card("7♣"), parse_card("10♥"))


def test_tip_4_opens_with_a_pair() -> None:
    state = position(THROW_IN_2, hands={0: "7♣ 7♦ 6♠ K♠ A♦ 9♣", 1: "8♣ 9♦ 10♣"}, stock=10)
    assert choose(HeuristicBot(), state, 0).cards[0].rank == parse_card("7♣").rank
    assert choose(HeuristicBot(tips=without(Tip.KEEP_PAIRS)), state, 0) == \
        Open(0, parse_cards("6♠"))


def test_tip_5_throws_in_to_draw_the_face_up_trump() -> None:
    # Stock of 2: after the throw Anna needs two cards and, drawing first, gets the
    # face-up trump; if she says done she needs one and Boris draws it.
    state = position(THROW_IN_2, hands={0: "K♦ 6♠ 8♠ 10♠ J♠", 1: "6♣ 7♣ 8♣ 9♣ 10♦"},
                     table="Q♣/K♣", stock=2)
    assert choose(HeuristicBot(), state, 0) == ThrowIn(0, parse_card("K♦"))
    assert choose(HeuristicBot(tips=without(Tip.WATCH_STOCK)), state, 0) == Done(0)


def _endgame(known: bool) -> GameState:
    return position(THROW_IN_2, trump="♠", hands={0: "6♣ Q♦", 1: "7♣ 8♣ 9♥"},
                    known={1: "7♣ 8♣ 9♥"} if known else None)


def test_tip_6_attacks_with_what_the_defender_cannot_beat() -> None:
    state = _endgame(known=True)  # Boris holds no diamond and no trump: Q♦ is safe
    assert choose(HeuristicBot(), state, 0) == Open(0, parse_cards("Q♦"))
    assert choose(HeuristicBot(tips=without(Tip.UNBEATABLE_ENDGAME)), state, 0) == \
        Open(0, parse_cards("6♣"))


def test_tip_7_remembers_played_cards_and_reset_forgets_them() -> None:
    state = _endgame(known=False)  # Boris's cards are hidden; everything else was played
    bot = HeuristicBot()
    assert choose(bot, state, 0) == Open(0, parse_cards("6♣"))  # K♦, A♦, trumps may be his
    for card in state.discard:
        bot.observe(ThrowIn(0, card))
    assert choose(bot, state, 0) == Open(0, parse_cards("Q♦"))  # only 7♣ 8♣ 9♥ are left
    trumps_only = HeuristicBot(tips=without(Tip.REMEMBER_CARDS))
    for card in state.discard:
        trumps_only.observe(ThrowIn(0, card))
    assert choose(trumps_only, state, 0) == Open(0, parse_cards("6♣"))  # K♦ A♦ forgotten
    bot.reset()
    assert choose(bot, state, 0) == Open(0, parse_cards("6♣"))


def test_tip_3_does_not_save_a_trump_when_holding_most_of_them() -> None:
    hands = {0: "6♦ 7♦ 8♦ 9♠ J♦", 1: "10♥ J♥ Q♥ K♥ A♥ 6♠"}
    stock = "6♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣ 9♦ 10♦ Q♦ K♦ A♦ 7♠ 8♠ 10♠ J♠ 9♥"
    state = position(THROW_IN_2, hands=hands, table="7♣", stock=stock)
    assert set(parse_cards("6♥ 7♥ 8♥")) <= set(state.discard)
    bot = HeuristicBot()
    for card in parse_cards("6♥ 7♥ 8♥"):  # Boris saw the other trumps played
        bot.observe(ThrowIn(0, card))
    assert choose(bot, state, 1) == Cover(1, parse_card("7♣"), parse_card("10♥"))
    assert choose(HeuristicBot(tips=without(Tip.COUNT_TRUMPS)), state, 1) == Take(1)


def test_tip_8_does_not_transfer_to_a_player_about_to_go_out() -> None:
    state = position(TRANSFER_2, hands={0: "K♠ A♠", 1: "8♦ J♣ 6♠ 7♠"}, table="8♣")
    assert choose(HeuristicBot(tips=without(Tip.CHECK_TRANSFER_TARGET)), state, 1) == \
        Transfer(1, parse_card("8♦"))
    assert choose(HeuristicBot(), state, 1) == Cover(1, parse_card("8♣"), parse_card("J♣"))


def test_tip_9_other_players_throw_in_too() -> None:
    rules = profile("classic-throw-in").rules(players=3)
    state = position(rules, hands={0: "K♠ Q♠ A♣", 1: "8♦ 10♦ 6♣ 8♣ J♣", 2: "7♦ 6♠ 10♠ Q♦"},
                     table="7♣/9♣", stock=8)
    assert acting_seat(state) == 2
    assert choose(HeuristicBot(), state, 2) == ThrowIn(2, parse_card("7♦"))
    assert choose(HeuristicBot(tips=without(Tip.THROW_IN_TOGETHER)), state, 2) == Done(2)


def test_tip_10_covers_with_a_rank_already_on_the_table() -> None:
    state = position(THROW_IN_2, hands={0: "A♠ K♦", 1: "9♣ 10♣ 6♦ Q♠"}, table="6♠/10♠ 8♣",
                     stock=6)
    assert choose(HeuristicBot(), state, 1) == Cover(1, parse_card("8♣"), parse_card("10♣"))
    assert choose(HeuristicBot(tips=without(Tip.WATCH_TABLE_RANKS)), state, 1) == \
        Cover(1, parse_card("8♣"), parse_card("9♣"))


def test_a_game_of_bots_can_be_saved_and_loaded() -> None:
    result = play_game(TRANSFER_2, [HeuristicBot(), RandomBot()], seed=8)
    text = persist.dumps(result.game())
    assert persist.loads(text).state.outcome == result.outcome


def test_game_result_is_a_value() -> None:
    first = play_game(THROW_IN_2, [HeuristicBot(), RandomBot()], seed=1)
    assert replace(first, actions=first.actions) == first
    assert first.durak in (0, 1, None)
