"""``Then`` steps on moves: the verdict of the last move, and what each player may do."""

from __future__ import annotations

from pytest_bdd import then

from durak_spec.game.positions import parse_card_list, parse_one_card
from durak_spec.model.actions import (
    Action,
    Cover,
    Done,
    ExchangeTrump,
    Open,
    Take,
    ThrowIn,
    Transfer,
    parse_action,
)

# ==========================================================================================
# Then: the verdict
# ==========================================================================================
from durak_spec.spec.context import GameContext, action_key
from durak_spec.spec.steps.vocabulary import CARD, CARDS, NAME, RULE, cards_text, compare, rx


@then("it is accepted")
def then_accepted(game: GameContext) -> None:
    """The last move (or deal) was accepted.

    Example: Then it is accepted
    """
    game.expect(accepted=True)


@then(rx(rf"it is rejected(?: by (?P<rule>{RULE}))?"))
def then_rejected(game: GameContext, rule: str | None) -> None:
    """The last move (or deal) was rejected; by this rule, if the engine names rules.

    Example: Then it is rejected by BEAT-3
    Example: Then it is rejected
    """
    game.expect(accepted=False, rule=rule)


# ==========================================================================================
# Then: what a player may do
# ==========================================================================================


def _mode(game: GameContext, negative: str | None, exactly: str | None) -> str:
    if negative and exactly:
        game.fail("'may not ... exactly' says nothing clear: drop 'exactly'")
    return "none" if negative else "exactly" if exactly else "each"


@then(rx(rf"(?P<name>{NAME}) may (?P<neg>not )?open with (?P<cards>{CARDS})"
          r"(?P<together> together)?"))
def then_may_open(game: GameContext, name: str, neg: str | None, cards: str,
                  together: str | None) -> None:
    """Whether the player may open with each card alone, or with the cards together.

    Example: Then Anna may open with 7♣
    Example: Then Anna may open with 7♣ and 7♦ together
    Example: Then Anna may not open with 7♣ and 9♣ together
    """
    wanted = game.read(parse_card_list, cards)
    openings = {frozenset(a.cards) for a in game.moves_of(name, Open)}
    groups = [frozenset(wanted)] if together else [frozenset((c,)) for c in wanted]
    for group in groups:
        if (group in openings) == bool(neg):
            game.fail(f"{name} {'may' if neg else 'may not'} open with "
                      f"{cards_text(group)}{' together' if together else ''}")


@then(rx(rf"(?P<name>{NAME}) may open with any of (?:his|her|their) cards"))
def then_may_open_any(game: GameContext, name: str) -> None:
    """Every card in the player's hand is a legal opening.

    Example: Then Anna may open with any of her cards
    """
    hand = game.report().hands[game.seat(name)]
    singles = {a.cards[0] for a in game.moves_of(name, Open) if len(a.cards) == 1}
    compare(game, f"{name} may open with", singles, hand, "exactly")


@then(rx(rf"(?P<name>{NAME}) may (?P<neg>not )?throw in (?P<exactly>exactly )?(?P<cards>{CARDS})"))
def then_may_throw_in(game: GameContext, name: str, neg: str | None, exactly: str | None,
                      cards: str) -> None:
    """Which cards the player may throw in now: exactly these, these among others, or none.

    Example: Then Anna may throw in exactly 7♦ and 9♠
    Example: Then Vera may throw in 9♦
    Example: Then Anna may not throw in 8♣
    """
    mode = _mode(game, neg, exactly)
    wanted = game.read(parse_card_list, cards)
    have = [a.cards[0] for a in game.moves_of(name, ThrowIn)]
    compare(game, f"{name} may throw in", have, wanted, mode)


@then(rx(rf"(?P<name>{NAME}) may not throw in any card"))
def then_may_not_throw_in(game: GameContext, name: str) -> None:
    """The player may add no attack card now.

    Example: Then Vera may not throw in any card
    """
    have = [a.cards[0] for a in game.moves_of(name, ThrowIn)]
    compare(game, f"{name} may throw in", have, (), "exactly")


@then(rx(rf"(?P<name>{NAME}) may (?P<neg>not )?cover (?P<attack>{CARD}) with "
          rf"(?P<exactly>exactly )?(?P<cards>{CARDS})"))
def then_may_cover(game: GameContext, name: str, neg: str | None, attack: str,
                   exactly: str | None, cards: str) -> None:
    """Which cards may cover an attack card: exactly these, these among others, or none.

    Example: Then Boris may cover 9♣ with exactly 10♣ J♣ Q♣ K♣ A♣ 6♥ and Q♥
    Example: Then Boris may cover 9♣ with K♣
    Example: Then Boris may not cover 9♣ with 8♣ and 9♠
    """
    mode = _mode(game, neg, exactly)
    target = game.read(parse_one_card, attack)
    wanted = game.read(parse_card_list, cards)
    have = [a.card for a in game.moves_of(name, Cover) if isinstance(a, Cover)
            and a.attack == target]
    compare(game, f"{name} may cover {target} with", have, wanted, mode)


@then(rx(rf"(?P<name>{NAME}) may not cover (?P<attack>{CARD}) with any card"))
def then_may_not_cover(game: GameContext, name: str, attack: str) -> None:
    """No card of the player's may cover this attack card.

    Example: Then Boris may not cover A♥ with any card
    """
    target = game.read(parse_one_card, attack)
    have = [a.card for a in game.moves_of(name, Cover) if isinstance(a, Cover)
            and a.attack == target]
    compare(game, f"{name} may cover {target} with", have, (), "exactly")


@then(rx(rf"(?P<name>{NAME}) may (?P<neg>not )?transfer with (?P<cards>{CARDS})"))
def then_may_transfer(game: GameContext, name: str, neg: str | None, cards: str) -> None:
    """Whether the player may transfer by playing each of these cards.

    Example: Then Boris may transfer with 8♥
    Example: Then Boris may not transfer with 8♦
    """
    wanted = game.read(parse_card_list, cards)
    have = [a.cards[0] for a in game.moves_of(name, Transfer)
            if isinstance(a, Transfer) and not a.show]
    compare(game, f"{name} may transfer with", have, wanted, "none" if neg else "each")


@then(rx(rf"(?P<name>{NAME}) may not transfer"))
def then_may_not_transfer(game: GameContext, name: str) -> None:
    """The player may not transfer in any way, by playing or by showing a card.

    Example: Then Boris may not transfer
    """
    have = [a.cards[0] for a in game.moves_of(name, Transfer)]
    compare(game, f"{name} may transfer with", have, (), "exactly")


@then(rx(rf"(?P<name>{NAME}) may (?P<neg>not )?show (?P<card>{CARD}) to transfer"))
def then_may_show(game: GameContext, name: str, neg: str | None, card: str) -> None:
    """Whether the player may transfer by showing this trump (TRANSFER-7).

    Example: Then Boris may show 8♦ to transfer
    Example: Then Boris may not show 8♦ to transfer
    """
    wanted = game.read(parse_one_card, card)
    have = [a.cards[0] for a in game.moves_of(name, Transfer)
            if isinstance(a, Transfer) and a.show]
    compare(game, f"{name} may show to transfer", have, (wanted,), "none" if neg else "each")


def _may(game: GameContext, name: str, kind: type[Action], neg: str | None, what: str) -> None:
    allowed = bool(game.moves_of(name, kind))
    if allowed == bool(neg):
        game.fail(f"{name} {'may' if allowed else 'may not'} {what}")


@then(rx(rf"(?P<name>{NAME}) may (?P<neg>not )?take"))
def then_may_take(game: GameContext, name: str, neg: str | None) -> None:
    """Whether the player may take the cards now.

    Example: Then Boris may take
    Example: Then Boris may not take
    """
    _may(game, name, Take, neg, "take")


@then(rx(rf"(?P<name>{NAME}) may (?P<neg>not )?say done"))
def then_may_say_done(game: GameContext, name: str, neg: str | None) -> None:
    """Whether the player may say done now.

    Example: Then Anna may say done
    Example: Then Anna may not say done
    """
    _may(game, name, Done, neg, "say done")


@then(rx(rf"(?P<name>{NAME}) may (?P<neg>not )?exchange the trump six"))
def then_may_exchange(game: GameContext, name: str, neg: str | None) -> None:
    """Whether the player may swap the six of trumps for the face-up trump (VAR-1).

    Example: Then Anna may exchange the trump six
    Example: Then Anna may not exchange the trump six
    """
    _may(game, name, ExchangeTrump, neg, "exchange the trump six")


@then(rx(rf"(?P<name>{NAME})'s legal moves are"))
def then_legal_moves(game: GameContext, name: str, datatable: list[list[str]]) -> None:
    """Exactly these moves, in the move notation, one per row of a data table (VIEW-3).

    Example: Then Boris's legal moves are
    """
    seat = game.seat(name)
    wanted = {action_key(game.read(parse_action, row[0], seat))
              for row in datatable if row and row[0]}
    have = {action_key(a): a.move for a in game.legal() if a.player == seat}
    if set(have) != wanted:
        listed = ", ".join(sorted(have.values())) or "none"
        game.fail(f"{name}'s legal moves are: {listed}")


@then(rx(rf"only (?P<name>{NAME}) may act"))
def then_only_player_acts(game: GameContext, name: str) -> None:
    """Every legal action now is this player's.

    Example: Then only Anna may act
    """
    seat = game.seat(name)
    legal = game.legal()
    others = sorted({game.name(a.player) for a in legal if a.player != seat})
    if not legal or others:
        game.fail(f"{name} has {'no' if not legal else 'not the only'} legal moves; "
                  f"others who may act: {', '.join(others) or 'nobody'}")


@then("nobody may act")
def then_nobody_acts(game: GameContext) -> None:
    """No player has a legal action (the game is over).

    Example: Then nobody may act
    """
    legal = game.legal()
    if legal:
        game.fail(f"{len(legal)} legal moves remain, among them "
                  f"{game.speak(str(legal[0]))}")
