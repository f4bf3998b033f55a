"""Whether a game can reach a position: the strict check, ``check_reachable``.

:func:`~durak_spec.engine.validation.validate_state` is the structural check: all 36
cards once, hands in order, roles, the table and the record of the bout each allowed by
the rule that governs them, one at a time. A position can pass it and still be one that
no game reaches: a player short of six cards between bouts while the stock lasts, an odd
discard pile, a discard pile in the first bout. This module asks what play itself
guarantees, the history behind a position, as invariants that follow from the rules. Each
invariant is a function named after it that cites, with its ID, the rule it follows from
(the rule itself is decided elsewhere, for actions):

=====================  ===========  =================================================
invariant              rule         what play guarantees
=====================  ===========  =================================================
``first_bout``         DEAL-4       in the first bout nobody has drawn yet: the stock
                                    is whole and every hand started the bout at six
``first_lead``         ORDER-1      in the first bout the opener is the player dealt
                                    the lowest trump (under ORDER-2's first-seat lead,
                                    the first seat when nobody was dealt one); a later
                                    game of a match led by its last durak (ORDER-7) is
                                    not bound
``drawn``              DRAW-1       after the first bout the opener, who laid a card,
                                    drew: the stock is no longer whole
``bouts``              DRAW-1       a bout's end refills only what the bout took from
                                    the hands (at most its attack cards after a take,
                                    its table after a beat-off), and a hand grows over
                                    six only by a take (TAKE-2): the bouts ended, each
                                    taken or beaten off, account for the discard pile,
                                    the cards drawn and the hands over six
``discard``            DEFEND-1     the discard pile grows only by beaten-off tables,
                                    pairs of cards, at most one table per bout ended
                                    (five pairs in a first bout under LIMIT-3)
``gone_out``           END-1        players go out at the end of a bout, so there are
                                    no more groups of players out than bouts ended
``refilled``           DRAW-1       while the stock lasts, everyone in the game started
                                    the bout with six cards or more
``bout_record``        LIMIT-2      the start hands are the hands when the bout began
                                    (the defender's when they became the defender):
                                    equal to them between bouts; during a bout no hand
                                    grew, and the cards missing are the table's, but
                                    for the defender's own cards laid before a transfer
``table_ranks``        ATTACK-3     every attack card after the opening shares a rank
                                    with a card laid before it in the bout
``throw_in_roles``     TRANSFER-8   without transfers the attacker is the opener and
                                    the defender never joined the attack
``joined``             ATTACK-1     the seats that joined the attack are distinct
                                    seats in the game, the attacker among them
``said_done``          CLAR-3       only players who may add cards to the bout have
                                    said done (ATTACK-4)
``game_over``          CLAR-2       a game that is over records no bout in play: no
                                    take, no done, no join, no shown trump
=====================  ===========  =================================================

What is not bounded: the bout number. Taking moves cards between hands without any
leaving play, so once the stock is empty two players can take from each other for as
long as they like; a game at bout 10^100 is reachable if its discard pile and its
finishing order are (they bound the bout number from below). Nor does the strict check
follow single cards through the game (who drew the face-up trump, which cards a take
made public): the known cards are checked as a subset of the hand (VIEW-2), no more.
Nor does it follow who attacks from bout to bout after the first: ORDER-1 binds only
the first bout, and once it is over the position no longer says who opened it or who
took since, so the attacker of a later bout can be any seat still in the game that some
sequence of takes and beat-offs leads to; the check accepts every seat there.

``check_reachable`` raises :class:`~durak_spec.core.errors.InvalidState` with the rule
ID of the first invariant broken (after every check of ``validate_state``). It is the one
notion of a legal position: every loader goes through it (saved games and positions in
:mod:`durak_spec.game.persist`, the wire ``load``, ``ReferenceEngine.load``,
``Position.build`` and so the step library's ``Given`` positions). Every state reached
in play passes it (``tests/test_reachable.py`` plays random games of every profile with
2 to 6 players).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from durak_spec.core.cards import DECK, Card, Rank
from durak_spec.engine.attack import throwers
from durak_spec.engine.breach import Breach
from durak_spec.engine.transfer import transfer_game
from durak_spec.engine.validation import validate_state
from durak_spec.model.rules import (
    FIRST_BOUT_MAX_ATTACK_CARDS,
    HAND_SIZE,
    MAX_ATTACK_CARDS,
    MAX_PLAYERS,
    LaterGameLead,
    NoTrumpLead,
    RuleSet,
)
from durak_spec.model.state import GameState

__all__ = ["INVARIANTS", "bouts_allow", "check_reachable", "reachable_breach", "whole_stock"]


def whole_stock(players: int) -> int:
    """The stock right after the deal: what six cards per player leave of 36 (DEAL-4,
    DEAL-8)."""
    return 0 if players == MAX_PLAYERS else len(DECK) - HAND_SIZE * players


def _bouts(count: int) -> str:
    return f"{count} bout" if count == 1 else f"{count} bouts"


def first_bout_breach(state: GameState) -> Breach | None:
    """DEAL-4: in the first bout nobody has drawn yet, so the stock is as the deal left
    it and every player began the bout with six cards (nothing is discarded either: see
    :func:`discard_breach`)."""
    if state.bout != 0:
        return None
    full = whole_stock(state.players)
    if len(state.stock) != full:
        return Breach("DEAL-4", f"in the first bout nobody has drawn yet, so the stock holds "
                      f"{full} cards, not {len(state.stock)}")
    # A player's start is counted again when a transfer makes them the defender (LIMIT-2).
    again = _laid_before_defending(state) if state.table and state.rules.transfer else 0
    if any(not size <= HAND_SIZE <= size + again for size in state.start_hands):
        return Breach("DEAL-4", f"every player began the first bout with six cards, not "
                      f"{state.start_hands}")
    return None


def first_lead_breach(state: GameState) -> Breach | None:
    """ORDER-1: the first bout is opened by whoever was dealt the lowest trump. In the
    first bout no card enters a hand (draws and takes come at a bout's end), so a hand
    that holds the lowest trump dealt held it at the deal; in a game without transfers
    the covers are the defender's, who is never the opener, so it cannot be a cover.
    ORDER-2: when nobody was dealt a trump and the first seat leads then, the opener is
    the first seat. Under a ``later_game_lead`` other than the lowest trump (ORDER-7) the
    position may be a later game of a match, led by the last durak's neighbour: not
    bound. Under the trump exchange (VAR-1) a six of trumps face up may have been dealt
    to the opener and exchanged: not bound either."""
    rules = state.rules
    if state.bout != 0 or state.is_over or \
            rules.later_game_lead is not LaterGameLead.LOWEST_TRUMP:
        return None
    if rules.trump_exchange and state.face_up == Card(Rank.SIX, state.trump):
        return None  # the opener may have been dealt it and exchanged it (VAR-1, CLAR-5)
    in_stock = set(state.stock)
    dealt = [card for card in DECK if card.suit == state.trump and card not in in_stock]
    if not dealt:
        if rules.no_trump_lead is NoTrumpLead.FIRST_SEAT and state.opener != 0:
            return Breach("ORDER-2", f"nobody was dealt a trump, so the first seat opens the "
                          f"first bout, not P{state.opener}")
        return None
    lowest = min(dealt, key=lambda card: card.rank)
    for seat, hand in enumerate(state.hands):
        if lowest in hand and seat != state.opener:
            return Breach("ORDER-1", f"P{seat} was dealt the lowest trump, {lowest}, so P{seat} "
                          f"opens the first bout, not P{state.opener}")
    if not transfer_game(rules) and any(pair.cover == lowest for pair in state.table):
        return Breach("ORDER-1", f"the lowest trump dealt, {lowest}, covers an attack card, "
                      "so the defender held it and would have opened the first bout")
    return None


def bouts_allow(bouts: int, rules: RuleSet, discard: int, drawn: int,
                excess: Sequence[int] = ()) -> bool:
    """Whether ``bouts`` ended bouts can have discarded ``discard`` cards, let ``drawn``
    cards be drawn from the stock and put ``excess`` cards over six into the hands (one
    count per player: each player's own takes put them there).

    Each bout ends taken or beaten off. A beaten-off bout discards its table, a pair at
    least and twice its attack cards at most (DEFEND-1), and its end refills at most what
    it discarded (DRAW-1). A taken bout discards nothing; its end refills at most the
    attack cards, which the players who laid them miss (DRAW-1), and the taker's hand
    grows by at most as many (TAKE-2): no other move puts a hand over six (DRAW-3), so a
    player ``e`` cards over six took at least ``e / 6`` times. A bout holds at most six
    attack cards, five in the first under LIMIT-3."""
    over = sum(excess)
    takes = sum(-(-extra // MAX_ATTACK_CARDS) for extra in excess if extra > 0)
    if bouts == 0:
        return discard == drawn == over == 0
    first = FIRST_BOUT_MAX_ATTACK_CARDS if rules.first_bout_limit_five else MAX_ATTACK_CARDS
    for taken in range(max(takes, bouts - discard // 2), bouts + 1):  # a pair a beat-off
        beaten = bouts - taken
        for first_taken in (True, False):
            if (taken if first_taken else beaten) == 0:
                continue
            room_taken = MAX_ATTACK_CARDS * taken - (MAX_ATTACK_CARDS - first) * first_taken
            room_beaten = MAX_ATTACK_CARDS * beaten - \
                (MAX_ATTACK_CARDS - first) * (not first_taken)
            if discard <= 2 * room_beaten and drawn <= discard + room_taken and \
                    over <= room_taken:
                return True
    return False


def _excess(state: GameState) -> tuple[int, ...]:
    """The cards over six that each player in the game held as the bout began."""
    return tuple(max(0, state.start_hands[seat] - HAND_SIZE) for seat in state.in_game())


def bouts_breach(state: GameState) -> Breach | None:
    """DRAW-1: the bouts ended account for the cards drawn and for the hands over six
    (see :func:`bouts_allow`): a bout's end refills only what the bout took from the
    hands, and a hand grows over six only by taking a table of at most six attack cards
    (TAKE-2)."""
    if state.bout == 0:
        return None  # the first bout: first_bout_breach and discard_breach say it all
    drawn = whole_stock(state.players) - len(state.stock)
    discard = len(state.discard)
    if bouts_allow(state.bout, state.rules, discard, drawn, _excess(state)):
        return None
    if not bouts_allow(state.bout, state.rules, discard, drawn):
        return Breach("DRAW-1", f"after {_bouts(state.bout)} with {discard} cards discarded, "
                      f"{drawn} cards cannot have been drawn: a bout's end refills only what "
                      "the bout took from the hands")
    over = ", ".join(f"P{seat} {extra}" for seat, extra in
                     zip(state.in_game(), _excess(state), strict=True) if extra)
    return Breach("TAKE-2", f"after {_bouts(state.bout)} with {discard} cards discarded, the "
                  f"hands cannot hold these cards over six: {over}; a hand grows over six only "
                  "by its player's takes, at most six attack cards a bout")


def drawn_breach(state: GameState) -> Breach | None:
    """DRAW-1: the opener of a bout lays at least one card and refills at its end, so
    after the first bout the stock of the deal is no longer whole. Not so where a
    transfer may be made by showing a trump (TRANSFER-7): the attack can come round to
    the opener by shows alone, and the opener who takes gets the cards back."""
    full = whole_stock(state.players)
    if transfer_game(state.rules) and state.rules.transfer_by_showing_trump:
        return None
    if state.bout >= 1 and full and len(state.stock) >= full:
        return Breach("DRAW-1", f"after {_bouts(state.bout)} somebody has drawn, so the stock "
                      f"holds fewer than {full} cards, not {len(state.stock)}")
    return None


def discard_breach(state: GameState) -> Breach | None:
    """DEFEND-1: the discard pile grows only when a bout is beaten off, by its whole table
    of attack cards and covers, so it holds an even number of cards, at most six pairs
    for every bout ended (five pairs in the first bout where LIMIT-3 is on)."""
    size = len(state.discard)
    if size % 2:
        return Breach("DEFEND-1", f"the discard pile holds {size} cards; beaten-off tables "
                      "are pairs of cards, so it holds an even number")
    first = FIRST_BOUT_MAX_ATTACK_CARDS if state.rules.first_bout_limit_five else \
        MAX_ATTACK_CARDS
    most = 0 if state.bout == 0 else 2 * (first + MAX_ATTACK_CARDS * (state.bout - 1))
    if size > most:
        return Breach("DEFEND-1", f"after {_bouts(state.bout)} at most {most} cards can have "
                      f"been discarded, not {size}")
    return None


def gone_out_breach(state: GameState) -> Breach | None:
    """END-1: players go out at the end of a bout, so the groups of players out are no
    more than the bouts ended."""
    if len(state.finished) > state.bout:
        return Breach("END-1", f"{len(state.finished)} groups of players went out, but only "
                      f"{_bouts(state.bout)} ended")
    return None


def refilled_breach(state: GameState) -> Breach | None:
    """DRAW-1: while the stock lasts, every bout end refills each hand to six, so every
    player in the game began the bout in play (or holds, between bouts) six cards or
    more."""
    if not state.stock:
        return None
    for seat in state.in_game():
        began = state.start_hands[seat]
        if state.table and state.rules.transfer:  # counted again at a transfer (LIMIT-2)
            began += _laid_before_defending(state)
        if began < HAND_SIZE:
            when = "holds" if not state.table else "began the bout with"
            held = len(state.hands[seat]) if not state.table else began
            return Breach("DRAW-1", f"P{seat} {when} {held} card{'' if held == 1 else 's'} "
                          f"while the stock still has {len(state.stock)}; everyone refills "
                          "to six after each bout")
    return None


def _laid_before_defending(state: GameState) -> int:
    """How many cards players laid into the bout before a transfer made them the defender:
    a defender's start hand is counted at that moment (LIMIT-2), so the hands are that
    many cards fewer short of the start hands than the table holds."""
    laid = sum(state.start_hands) - sum(len(hand) for hand in state.hands)
    return len(state.table_cards()) - laid


def bout_record_breach(state: GameState) -> Breach | None:
    """LIMIT-2: the start hands record every hand as the bout began, the defender's as
    they became the defender (at the opening, or at a transfer). Between bouts they are
    the hands; during a bout no hand has grown (cards are taken only at its end) and the
    cards missing from the hands are exactly the cards on the table, but for the attack
    cards the defender laid before a transfer passed the attack to them."""
    sizes = tuple(len(hand) for hand in state.hands)
    if not state.table:
        if state.start_hands != sizes:
            return Breach("LIMIT-2", f"between bouts the start hands are the hands, "
                          f"{sizes}, not {state.start_hands}")
        return None
    for seat, (began, held) in enumerate(zip(state.start_hands, sizes, strict=True)):
        if held > began:
            return Breach("LIMIT-2", f"P{seat} holds {held} cards but began the bout with "
                          f"{began}; no hand grows during a bout")
    laid = sum(state.start_hands) - sum(sizes)
    on_table = len(state.table_cards())
    own = on_table - laid
    if own == 0:
        return None
    if state.rules.transfer and 0 < own <= len(state.table):
        return None  # attack cards laid by players before a transfer made them defend
    return Breach("LIMIT-2", f"the hands are {laid} cards short of how the bout began, "
                  f"but {on_table} cards lie on the table")


def table_ranks_breach(state: GameState) -> Breach | None:
    """ATTACK-3: every attack card after the opening matches the rank of a card laid
    before it in the bout (an earlier attack card or its cover)."""
    ranks: set[object] = set()
    for index, pair in enumerate(state.table):
        if index and pair.attack.rank not in ranks:
            return Breach("ATTACK-3", f"{pair.attack} matches the rank of no card laid before "
                          "it in the bout")
        ranks.add(pair.attack.rank)
        if pair.cover is not None:
            ranks.add(pair.cover.rank)
    return None


def throw_in_roles_breach(state: GameState) -> Breach | None:
    """TRANSFER-8: without transfers the attack never changes hands, so the attacker is
    the opener and the defender never laid an attack card."""
    if not state.table or transfer_game(state.rules):
        return None
    if state.attacker != state.opener:
        return Breach("TRANSFER-8", f"without transfers the opener P{state.opener} attacks "
                      f"the whole bout, not P{state.attacker}")
    if state.defender in state.joined:
        return Breach("TRANSFER-8", f"the defender P{state.defender} is recorded as having "
                      "joined the attack, which only a transfer does")
    return None


def joined_breach(state: GameState) -> Breach | None:
    """ATTACK-1: the seats that joined the bout's attack are distinct seats still in the
    game, and the attacker is among them (the opener first, a transferer by transferring)."""
    if not state.table:
        return None
    joined = state.joined
    if len(set(joined)) != len(joined) or any(seat in state.out for seat in joined):
        return Breach("ATTACK-1", f"the join order {joined} repeats a seat or names a "
                      "player who is out")
    if state.attacker not in joined:
        return Breach("ATTACK-1", f"the attacker P{state.attacker} has not joined the attack")
    return None


def said_done_breach(state: GameState) -> Breach | None:
    """CLAR-3: only a player who may add cards to the bout says done, so every seat
    recorded as done is one of the bout's throwers (ATTACK-4), still in the game."""
    allowed = throwers(state)
    for seat in sorted(state.passed):
        if seat not in allowed:
            return Breach("CLAR-3", f"P{seat} is recorded as having said done, but may not add "
                          "cards to this bout")
    return None


def game_over_breach(state: GameState) -> Breach | None:
    """CLAR-2: a game that is over has no bout in play, so nothing of one is recorded."""
    if not state.is_over:
        return None
    if state.taking or state.passed or state.joined or state.shown:
        return Breach("CLAR-2", "the game is over, yet a take, a done, a join or a shown "
                      "trump is recorded")
    return None


INVARIANTS: tuple[Callable[[GameState], Breach | None], ...] = (
    first_bout_breach,
    first_lead_breach,
    drawn_breach,
    discard_breach,
    gone_out_breach,
    game_over_breach,
    bout_record_breach,
    refilled_breach,
    bouts_breach,
    table_ranks_breach,
    throw_in_roles_breach,
    joined_breach,
    said_done_breach,
)
"""The invariants of play, in the order ``check_reachable`` asks them."""


def reachable_breach(state: GameState) -> Breach | None:
    """The first invariant of play that ``state`` breaks, or ``None``; ``state`` must
    already pass :func:`validate_state`."""
    for invariant in INVARIANTS:
        breach = invariant(state)
        if breach is not None:
            return breach
    return None


def check_reachable(state: GameState) -> GameState:
    """Check that play can reach ``state``: everything :func:`validate_state` checks, and
    the invariants of play (see the module docstring). Returns ``state`` unchanged, or
    raises :class:`~durak_spec.core.errors.InvalidState` naming the rule broken
    (:class:`~durak_spec.core.errors.InputError` for what is not a position at all)."""
    validate_state(state)
    breach = reachable_breach(state)
    if breach is not None:
        raise breach.invalid()
    return state
