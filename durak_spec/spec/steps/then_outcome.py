"""``Then`` steps on how bouts and games end: beaten off, taken, the durak, a draw, who
is out, the finishing order and who attacks first."""

from __future__ import annotations

from pytest_bdd import then

from durak_spec.game.positions import parse_names
from durak_spec.spec.context import EndedBout, GameContext
from durak_spec.spec.steps.vocabulary import NAME, NAMES, cards_text, compare, rx

CHANCE_SEEDS = range(30)
"""The seeds dealt to see whether chance picks the first attacker (ORDER-2)."""


@then("the bout is beaten off")
def then_beaten_off(game: GameContext) -> None:
    """The last move ended the bout as a successful defence: its cards are discarded.

    Example: Then the bout is beaten off
    """
    ended = _ended(game)
    report = game.report()
    kept = set(ended.cards) & set(report.hands[ended.defender])
    grew = report.discard - ended.discard_before
    if kept or grew != len(ended.cards):
        game.fail(f"the bout's {len(ended.cards)} cards ({cards_text(ended.cards)}) did not go to "
                  f"the discard pile: it grew by {grew}"
                  + (f"; {game.name(ended.defender)} holds {cards_text(kept)}" if kept else ""))


@then(rx(rf"(?P<name>{NAME}) has taken the cards"))
def then_taken(game: GameContext, name: str) -> None:
    """The last move ended the bout with this defender taking every card of it.

    Example: Then Boris has taken the cards
    """
    ended = _ended(game)
    if ended.defender != game.seat(name):
        game.fail(f"{game.name(ended.defender)} defended the bout, not {name}")
    hand = game.report().hands[ended.defender]
    compare(game, f"{name} holds", hand, ended.cards, "each")


def _ended(game: GameContext) -> EndedBout:
    game.report()
    if game.ended is None:
        game.fail("the last move did not end a bout")
    return game.ended


@then("the bout goes on")
def then_bout_goes_on(game: GameContext) -> None:
    """Cards still lie on the table: the bout has not ended.

    Example: Then the bout goes on
    """
    if not game.report().table:
        game.fail("the bout has ended: the table is empty")


@then(rx(rf"(?P<name>{NAME}) is the durak"))
def then_durak(game: GameContext, name: str) -> None:
    """The game is over and this player is the durak.

    Example: Then Boris is the durak
    """
    report = game.report()
    if not report.over or report.durak != game.seat(name):
        game.fail("the game goes on" if not report.over else
                  f"the durak is {game.name(report.durak)}")


@then("the game is a draw")
def then_draw(game: GameContext) -> None:
    """The game is over and nobody is the durak.

    Example: Then the game is a draw
    """
    report = game.report()
    if not report.over or report.durak is not None:
        game.fail("the game goes on" if not report.over else
                  f"{game.name(report.durak)} is the durak")
    holding = [game.name(seat) for seat, hand in enumerate(report.hands) if hand]
    if holding:  # a race won while others hold cards is no draw (END-5)
        game.fail(f"the game is over, but {' and '.join(holding)} still hold cards")


@then(rx(rf"the game is over and (?P<names>{NAMES}) (?:wins|win together)"))
def then_won_race(game: GameContext, names: str) -> None:
    """The game is over, and these players were the first out: the winners of source D's
    race (goal first-out-wins, END-5).

    Example: Then the game is over and Anna wins
    Example: Then the game is over and Anna and Boris win together
    """
    report = game.report()
    if not report.over:
        game.fail("the game goes on")
    wanted = {game.seat(name) for name in game.read(parse_names, names)}
    first = set(report.finished[0]) if report.finished else set()
    if first != wanted:
        game.fail(f"{' and '.join(game.name(s) for s in sorted(first)) or 'nobody'} "
                  "went out first")


@then("nobody is the durak")
def then_no_durak(game: GameContext) -> None:
    """The game is over and names no durak (a draw, or a race won while several players
    still hold cards, END-5).

    Example: Then nobody is the durak
    """
    report = game.report()
    if not report.over:
        game.fail("the game goes on")
    if report.durak is not None:
        game.fail(f"{game.name(report.durak)} is the durak")


@then("the game goes on")
def then_game_goes_on(game: GameContext) -> None:
    """The game is not over.

    Example: Then the game goes on
    """
    report = game.report()
    if report.over:
        game.fail("the game is over")


@then(rx(rf"(?P<names>{NAMES}) (?:is|are) out"))
def then_out(game: GameContext, names: str) -> None:
    """These players have gone out.

    Example: Then Vera is out
    Example: Then Vera and Gleb are out
    """
    report = game.report()
    out = {seat for group in report.finished for seat in group}
    for name in game.read(parse_names, names):
        if game.seat(name) not in out:
            game.fail(f"{name} is still in the game")


@then(rx(rf"(?P<name>{NAME}) is still in the game"))
def then_in_game(game: GameContext, name: str) -> None:
    """The player has not gone out.

    Example: Then Anna is still in the game
    """
    report = game.report()
    if any(game.seat(name) in group for group in report.finished):
        game.fail(f"{name} is out")


@then(rx(r"the finishing order is (?P<order>.+)"))
def then_finishing_order(game: GameContext, order: str) -> None:
    """Who went out when; players who went out at the same bout end are "together".

    Example: Then the finishing order is Vera, then Anna
    Example: Then the finishing order is Vera and Gleb together, then Anna
    """
    wanted = []
    for group in (g for g in order.replace(", then ", " then ").split(" then ") if g):
        wanted.append(frozenset(game.seat(n) for n in game.read(
            parse_names, group.removesuffix(" together"))))
    have = [frozenset(group) for group in game.report().finished]
    if have != wanted:
        text = ", then ".join(" and ".join(game.name(s) for s in sorted(g)) for g in have)
        game.fail(f"the finishing order is {text or 'empty: nobody is out'}")


@then("chance picks the first attacker")
def then_chance_picks(game: GameContext) -> None:
    """Dealt with different seeds, this deck gives every player the first attack (ORDER-2).

    The same seed always picks the same player. Nobody may hold a trump in this deal.

    Example: Then chance picks the first attacker
    """
    firsts = _first_attackers(game, no_trump_dealt=True)
    missing = [game.name(s) for s in range(len(game.names)) if s not in firsts.values()]
    if missing:
        game.fail(f"over {len(firsts)} seeds, {', '.join(missing)} never attacked first")


@then(rx(rf"(?P<name>{NAME}) attacks first whatever the seed"))
def then_first_whatever_seed(game: GameContext, name: str) -> None:
    """Dealt with any seed, this deck gives the first attack to this player.

    Example: Then Anna attacks first whatever the seed
    """
    seat = game.seat(name)
    wrong = {s: game.name(a) for s, a in _first_attackers(game).items() if a != seat}
    if wrong:
        game.fail(f"with some seeds another player attacks first: {wrong}")


def _first_attackers(game: GameContext, no_trump_dealt: bool = False) -> dict[int, int]:
    """The first attacker for each seed of :data:`CHANCE_SEEDS`, dealing the same deck.

    With ``no_trump_dealt`` the step fails if anyone holds a trump (then ORDER-1 decides).
    """
    report = game.report()
    if game.deck is None or game.rules is None:
        game.fail("this step needs a dealt game (When the game is dealt ...)")
    held = [c for hand in report.hands for c in hand if c.suit == report.trump]
    firsts: dict[int, int] = {}
    try:
        for seed in CHANCE_SEEDS:
            firsts[seed] = game.engine.start(game.rules, game.deck, seed).attacker
        again = {seed: game.engine.start(game.rules, game.deck, seed).attacker
                 for seed in CHANCE_SEEDS[:5]}
    finally:
        game.engine.start(game.rules, game.deck, game.seed)
    if any(firsts[seed] != again[seed] for seed in again):
        game.fail("dealing the same deck with the same seed picked different first attackers")
    if held and no_trump_dealt:
        lowest = min(held)
        owner = next(s for s, hand in enumerate(report.hands) if lowest in hand)
        game.fail(f"{game.name(owner)} holds the trump {lowest}, so the lowest trump leads "
                  "(ORDER-1) and chance is not asked")
    return firsts




# ==========================================================================================
# Chapter 10, the end of the game (features/10_end_of_game.feature): the first out (END-5)
# ==========================================================================================


@then(rx(rf"(?P<names>{NAMES}) went out first"))
def then_first_out(game: GameContext, names: str) -> None:
    """These players, together, were the first to go out: source D's winners (END-5).

    Example: Then Anna went out first
    Example: Then Anna and Boris went out first
    """
    wanted = {game.seat(name) for name in game.read(parse_names, names)}
    finished = game.report().finished
    first = set(finished[0]) if finished else set()
    if first != wanted:
        game.fail("nobody has gone out yet" if not first else
                  f"{' and '.join(game.name(s) for s in sorted(first))} went out first")
