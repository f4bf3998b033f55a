"""The step library: Gherkin steps that speak the way Durak players speak.

``Given`` steps describe a position (or a deal), ``When`` steps make moves, ``Then`` steps
check what the engine says. Every step talks to the engine only through
:class:`durak_spec.protocol.Engine`; the ``game`` fixture (a :class:`GameContext`) holds
the scenario's names, rules and the verdict of the last move.

How a scenario runs:

* The ``Given`` steps build up a :class:`~durak_spec.game.positions.Position`. The first
  ``When`` or ``Then`` step builds it into a game state and loads it into the engine, or
  a ``When ... dealt ...`` step starts a game from a deck order.
* If the engine does not claim the scenario's rules, or cannot load a position, the
  scenario is skipped with the reason (a conformance checker reports it as such).
* Every move is cross-checked: an accepted move must be among the engine's legal
  actions, a rejected one must not be, and a rejected move must leave the position as it
  was. A rejected move must be followed by ``Then it is rejected ...``; otherwise the next
  step (or the end of the scenario) fails and shows the engine's reason.
* A mistyped card, an unknown player or an impossible position fails the step with a
  message that quotes the step.

The vocabulary, with one example per step, is in ``STEPS.md``; every step function's
docstring carries its examples on lines that start with ``Example:``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NoReturn, TypeVar

import pytest
from pytest_bdd import given, parsers, then, when

from durak_spec.core.cards import DECK, Card, Suit, format_cards
from durak_spec.core.errors import NotationError
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.game.positions import (
    Position,
    PositionError,
    parse_card_list,
    parse_names,
    parse_one_card,
    parse_table,
    speak_seats,
)
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
from durak_spec.model.rules import AXES, Goal, LaterGameLead, RuleSet, RuleSetError
from durak_spec.model.state import Outcome, sort_cards
from durak_spec.protocol import (
    Accepted,
    Engine,
    LoadDeclined,
    ReferenceEngine,
    Rejected,
    Report,
    Verdict,
)
from durak_spec.protocol.audit import Impossible, audit
from durak_spec.protocol.subprocess_engine import EngineFailure

__all__ = ["CARD", "CARDS", "IMPOSSIBLE", "NAME", "NAMES", "Claims", "GameContext",
           "impossible_message"]

Claims = Callable[[RuleSet], "str | None"]
"""Whether an engine claims a rule set: ``None`` if it does, else the reason it does not."""

NAME = r"[A-Z][a-z]+"
NAMES = rf"{NAME}(?:(?:, | and ){NAME})*"
CARD = r"(?:[0-9]+|[TJQKA])[^\s,]*"
CARDS = rf"{CARD}(?:(?:\s*,\s*|\s+and\s+|\s+){CARD})*"
RULE = r"[A-Z]+-[0-9]+"
SUIT = r"clubs|diamonds|hearts|spades"
_T = TypeVar("_T")
CHANCE_SEEDS = range(30)
"""The seeds dealt to see whether chance picks the first attacker (ORDER-2)."""


def _re(pattern: str) -> parsers.re:
    return parsers.re(pattern)


@dataclass(frozen=True)
class EndedBout:
    """The bout that the last move ended: its cards, its defender, the discard before."""

    cards: tuple[Card, ...]
    defender: int
    discard_before: int


class GameContext:
    """One scenario's game: the description, the engine, the last move and its verdict."""

    def __init__(self, engine: Engine, claims: Claims | None = None) -> None:
        self.engine = engine
        self.claims: Claims = claims if claims is not None else engine.capabilities().supports
        self.position = Position()
        self.step = "(before the first step)"
        self.givens: list[str] = []
        self.names: tuple[str, ...] = ()
        self.rules: RuleSet | None = None
        self.started = False
        self.deck: tuple[Card, ...] | None = None
        self.seed = 0
        self.verdict: Verdict | None = None
        self.move = ""
        self.verdict_checked = True
        self.failed = False
        self.ended: EndedBout | None = None
        self.reference: ReferenceEngine | None = None
        """The reference engine, kept in the same position as the engine (``None`` once
        they part): where a move is rejected, its legal actions are the yardstick."""
        self.legal_before: tuple[Action, ...] = ()
        """The engine's legal actions in the position of the last move."""
        self.unnamed: list[str] = []
        """The rejections the scenario expected by a rule, that the engine gave without
        naming a rule (reported apart from those rejected by the right rule)."""
        self.adapt: Callable[[RuleSet], RuleSet | str] | None = None
        """The checker's choice of the rules to play (see ``runner.run``'s ``adapt``): the
        scenario's rule set with the axes its outcome does not depend on set to values the
        engine plays, or the reason the scenario cannot be played (it is skipped)."""
        self.adapted = False
        """Whether ``adapt`` has chosen the rules yet (it chooses once per scenario)."""

    # -- failing clearly -------------------------------------------------------------------

    def fail(self, message: str) -> NoReturn:
        """Fail the scenario with ``message``, quoting the step that failed."""
        self.failed = True
        pytest.fail(f'Step "{self.step}":\n  {message}', pytrace=False)

    def read(self, parse: Callable[..., _T], *args: object) -> _T:
        """Run a parser on step text; its :class:`PositionError` fails the step clearly."""
        try:
            return parse(*args)
        except (PositionError, NotationError) as error:
            self.fail(str(error))

    def speak(self, text: str) -> str:
        """Engine text with seats (``P1``) replaced by the players' names."""
        return speak_seats(text, self.names)

    # -- describing and starting -------------------------------------------------------------

    def describe(self, change: Callable[[Position], Position]) -> None:
        """Apply one ``Given`` fact to the position being described."""
        if self.started:
            self.fail("the game is already under way: Given steps come before When and Then")
        self.position = self.read(change, self.position)
        self.givens.append(self.step)

    def _resolve(self) -> tuple[RuleSet, tuple[str, ...]]:
        try:
            if self.adapt is not None and not self.adapted:
                self._adapt(self.adapt)  # once: a later game of a match keeps the rules
                self.adapted = True
            return self.position.rule_set(), self.position.names()
        except PositionError as error:
            self.fail(str(error))

    def _adapt(self, adapt: Callable[[RuleSet], RuleSet | str]) -> None:
        rules = self.position.rule_set()
        chosen = adapt(rules)
        if isinstance(chosen, str):
            pytest.skip(chosen)
        for axis in AXES:
            value = getattr(chosen, axis.name)
            if axis.name != "players" and value != getattr(rules, axis.name):
                self.position = self.position.with_rule(axis.name, value)

    def _claim(self, rules: RuleSet) -> None:
        reason = self.claims(rules)
        if reason is not None:
            pytest.skip(f"the engine does not claim these rules: {reason}")

    def begin(self) -> None:
        """Load the described position into the engine, once, at the first When or Then."""
        if self.started:
            return
        rules, names = self._resolve()
        self._claim(rules)
        capabilities = self.engine.capabilities()
        if not capabilities.load:
            pytest.skip(f"{capabilities.name} cannot start from a described position "
                        "(no 'load' capability)")
        try:
            state = self.position.build()
        except PositionError as error:
            given = "\n    ".join(self.givens) or "(no Given steps)"
            self.fail(f"the position described by the Given steps is impossible: {error}\n"
                      f"  The Given steps were:\n    {given}")
        self.rules, self.names = rules, names
        try:
            loaded = self.engine.load(state)
        except LoadDeclined as declined:
            pytest.skip(f"{capabilities.name} declined to load the position: "
                        f"{declined.message}")
        self.started = True
        self.reference = ReferenceEngine()
        self.reference.load(state)
        self._anyone_acts(self.engine.legal_actions())
        self.audit(loaded, "after loading the position")

    def deal(self, deck: Sequence[Card], seed: int = 0, previous: Outcome | None = None
             ) -> None:
        """Start a game from a deck order (CLAR-10); a refused deck becomes the verdict.

        ``previous`` is the outcome of the game just played, for the next game of a match
        (ORDER-7); an engine receives it through ``start_later`` (the reference, and a
        subprocess engine in the ``start`` request's ``previous``)."""
        self.settle()
        rules, names = self._resolve()
        self._claim(rules)
        later = previous is not None and rules.later_game_lead is not LaterGameLead.LOWEST_TRUMP
        start_later = getattr(self.engine, "start_later", None)
        if later and start_later is None:
            pytest.skip("the engine cannot be told the last game's outcome (no "
                        "start_later), which these rules need to deal the next game (ORDER-7)")
        self.rules, self.names, self.deck, self.seed = rules, names, tuple(deck), seed
        self.started = True
        self.ended = None
        self.reference = ReferenceEngine()
        try:
            if later and previous is not None:
                self.reference.start_later(rules, self.deck, seed, previous)
            else:
                self.reference.start(rules, self.deck, seed)
        except ValueError:  # a deck the rules refuse: there is no reference position
            self.reference = None
        try:
            if later and start_later is not None and previous is not None:
                dealt = start_later(rules, self.deck, seed, previous)
            else:
                dealt = self.engine.start(rules, self.deck, seed)
        except EngineFailure:  # a broken engine is an error of the scenario, not a verdict
            raise
        except ValueError as error:
            rule = getattr(error, "rule", None)
            self.judge(Rejected(str(error), rule if isinstance(rule, str) else None),
                        "the deal")
        else:
            self.judge(Accepted(), "the deal")
            self.audit(dealt, "after the deal")
            self._anyone_acts(self.engine.legal_actions())

    def judge(self, verdict: Verdict, move: str) -> None:
        self.verdict, self.move, self.verdict_checked = verdict, move, False

    def settle(self) -> None:
        """Fail if the last move was rejected and no step has said so yet."""
        verdict = self.verdict
        if isinstance(verdict, Rejected) and not self.verdict_checked:
            self.verdict_checked = True
            rule = f"{verdict.rule}: " if verdict.rule else ""
            self.fail(f"{self.move} was rejected ({rule}{self.speak(verdict.reason)}), "
                      "but no 'Then it is rejected' step says so")

    def report(self) -> Report:
        """The engine's report of the position now (audited: an impossible report fails
        the step, whatever the step checks)."""
        self.begin()
        self.settle()
        report = self.engine.report()
        self.audit(report, "now")
        return report

    def audit(self, report: Report, when: str, before: Report | None = None,
              verdict: Verdict | None = None, action: Action | None = None) -> None:
        """Fail if ``report`` (or its change from ``before``) is impossible in any game
        (:mod:`durak_spec.protocol.audit`)."""
        players = self.rules.players if self.rules is not None else len(report.hands)
        goal = self.rules.goal if self.rules is not None else Goal.LAST_HOLDER_LOSES
        problems = audit(report, players, before, verdict, action, goal)
        if problems:
            self.fail(impossible_message(problems, when, self.speak))

    def legal(self) -> tuple[Action, ...]:
        """The engine's legal actions now."""
        self.begin()
        self.settle()
        legal = self.engine.legal_actions()
        self._anyone_acts(legal)
        return legal

    def _anyone_acts(self, legal: Sequence[Action]) -> None:
        """Fail if the engine lists no legal action where the rules let somebody act: an
        engine that allows nothing would pass every step that says "may not"."""
        if legal or self.reference is None:
            return
        theirs = self.reference.legal_actions()
        if theirs:
            self.fail(f"the engine lists no legal action, but the rules let "
                      f"{_actions_text(theirs, self.name)} (CLAR-2: only a game that is over "
                      "leaves nobody an action)")

    # -- names and seats -------------------------------------------------------------------

    def seat(self, name: str) -> int:
        if not self.started:
            self.begin()
        if name not in self.names:
            self.fail(f"{name} is not a player: the players are {', '.join(self.names)}")
        return self.names.index(name)

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return self.names[seat] if 0 <= seat < len(self.names) else f"P{seat}"

    # -- moves -------------------------------------------------------------------------------

    def play(self, *actions: Action) -> None:
        """Play moves in turn; stop at the first the engine rejects."""
        self.begin()
        self.settle()
        for action in actions:
            legal = self.engine.legal_actions()
            before = self.engine.report()
            verdict = self.engine.apply(action)
            after = self.engine.report()
            move = f'{self.name(action.player)}\'s move "{action.move}"'
            listed = _key(action) in {_key(a) for a in legal}
            if verdict.ok and not listed:
                self.fail(f"the engine accepted {move}, but it is not among its legal actions")
            if not verdict.ok and listed:
                self.fail(f"the engine rejected {move}, but lists it among its legal actions")
            self.audit(after, f"after {move}", before, verdict, action)
            self.judge(verdict, move)
            self.legal_before = legal
            if not verdict.ok:
                return
            if self.reference is not None and not self.reference.apply(action).ok:
                self.reference = None  # the engine accepted what the reference does not
            self._track(before, action, after)

    def _track(self, before: Report, action: Action, after: Report) -> None:
        if after.table or not before.table:
            self.ended = None
            return
        on_table = [card for pair in before.table for card in pair if card is not None]
        if not (isinstance(action, Transfer) and action.show):
            on_table += [card for card in action.cards if card not in on_table]
        self.ended = EndedBout(tuple(on_table), before.defender, before.discard)

    def expect(self, accepted: bool, rule: str | None = None) -> None:
        """Check the verdict of the last move."""
        verdict = self.verdict
        if verdict is None:
            self.fail("no move has been made yet")
        self.verdict_checked = True
        if rule is not None and rule not in load_rule_index():
            self.fail(f"{rule} is not a rule of the rule index")
        if accepted and isinstance(verdict, Rejected):
            because = f"{verdict.rule}: " if verdict.rule else ""
            self.fail(f"{self.move} was rejected ({because}{self.speak(verdict.reason)})")
        if not accepted and isinstance(verdict, Accepted):
            self.fail(f"{self.move} was accepted, but the rules forbid it"
                      + (f" ({rule})" if rule else ""))
        if isinstance(verdict, Rejected) and rule and verdict.rule and verdict.rule != rule:
            self.fail(f"{self.move} was rejected by {verdict.rule} "
                      f"({self.speak(verdict.reason)}), not by {rule}")
        if isinstance(verdict, Rejected) and self.move != "the deal":
            self._same_legal_actions()
            if rule and not verdict.rule:
                self.unnamed.append(f"{self.move} (expected {rule})")

    def _same_legal_actions(self) -> None:
        """A rejection proves something only if the engine allows what the rules allow:
        its legal actions where the move was rejected must be the reference's."""
        if self.reference is None:
            return
        mine = {_key(a): a for a in self.legal_before}
        theirs = {_key(a): a for a in self.reference.legal_actions()}
        missing = [a for k, a in theirs.items() if k not in mine]
        extra = [a for k, a in mine.items() if k not in theirs]
        if not missing and not extra:
            return
        parts = []
        if missing:
            parts.append("it does not list " + _actions_text(missing, self.name))
        if extra:
            why = self.reference.apply(extra[0])  # illegal there: the state stays as it is
            rule = f" ({why.rule}: {self.speak(why.reason)})" \
                if isinstance(why, Rejected) and why.rule else ""
            parts.append("it lists " + _actions_text(extra, self.name)
                         + f", which the rules do not allow{rule}")
        self.fail(f"{self.move} was rejected, but the engine's legal actions in that position "
                  f"are not the rules': {'; '.join(parts)}")

    def moves_of(self, name: str, kind: type[Action]) -> list[Action]:
        seat = self.seat(name)
        return [a for a in self.legal() if a.player == seat and isinstance(a, kind)]


IMPOSSIBLE = "the engine's report is impossible"
"""How a failure of the audit begins (reports tell it apart from a wrong answer)."""


def impossible_message(problems: Sequence[Impossible], when: str,
                       speak: Callable[[str], str] = str) -> str:
    """The failure of an audit: each impossible thing, with the rule it breaks."""
    lines = [f"{speak(p.text)}" + (f" ({p.rule})" if p.rule else "") for p in problems]
    return f"{IMPOSSIBLE} {when}:\n    " + "\n    ".join(lines)


def _key(action: Action) -> object:
    """An action for comparison; an opening's cards in any order are the same move."""
    if isinstance(action, Open):
        return (Open, action.player, frozenset(action.played))
    return action


def _actions_text(actions: Sequence[Action], name: Callable[[int | None], str],
                  most: int = 6) -> str:
    shown = [f'{name(a.player)}\'s "{a.move}"' for a in actions[:most]]
    more = f" and {len(actions) - most} more" if len(actions) > most else ""
    return ", ".join(shown) + more


def _cards(cards: Iterable[Card]) -> str:
    text = format_cards(sort_cards(list(cards)))
    return text or "no cards"


def _compare(game: GameContext, what: str, actual: Iterable[Card], expected: Iterable[Card],
             mode: str) -> None:
    """Compare card sets: ``exactly`` these, ``each`` of these, or ``none`` of these."""
    have, want = set(actual), set(expected)
    if mode == "exactly" and have != want:
        game.fail(f"{what} {_cards(have)}; expected exactly {_cards(want)} "
                  f"(missing: {_cards(want - have)}; unexpected: {_cards(have - want)})")
    if mode == "each" and not want <= have:
        game.fail(f"{what} {_cards(have)}; expected {_cards(want - have)} among them")
    if mode == "none" and have & want:
        game.fail(f"{what} {_cards(have)}; expected none of {_cards(have & want)}")


# ==========================================================================================
# Given: the rules and the players
# ==========================================================================================


@given(_re(r"the classic (?P<kind>throw-in|transfer) game"))
def given_classic_game(game: GameContext, kind: str) -> None:
    """The classic throw-in (podkidnoy) or transfer (perevodnoy) game.

    Example: Given the classic throw-in game
    Example: Given the classic transfer game
    """
    game.describe(lambda p: p.with_profile(f"classic-{kind}"))


@given(_re(r'the rules of "(?P<name>[^"]+)"(?: with (?P<count>[0-9]+) players)?'))
def given_profile(game: GameContext, name: str, count: str | None) -> None:
    """A named rule profile (see ``durak_spec.model.rules.PROFILES``), maybe with a player count.

    Example: Given the rules of "source-b"
    Example: Given the rules of "source-a" with 4 players
    """
    game.describe(lambda p: p.with_profile(name, int(count) if count else None))


@given(_re(r'the switch "(?P<axis>\w+)" is (?P<state>on|off)'))
def given_switch(game: GameContext, axis: str, state: str) -> None:
    """Turn an on/off axis of the rule set on or off.

    Example: Given the switch "trump_exchange" is on
    """
    kinds = {a.name: a for a in AXES}
    if axis in kinds and (kinds[axis].enum is not None or kinds[axis].kind is not bool):
        game.fail(f'"{axis}" is not an on/off switch: write the setting "{axis}" is '
                  f'"<value>" with one of {kinds[axis].choices()}')
    game.describe(lambda p: p.with_rule(axis, state == "on"))


@given(_re(r'the setting "(?P<axis>\w+)" is "(?P<value>[^"]+)"'))
def given_setting(game: GameContext, axis: str, value: str) -> None:
    """Set an axis of the rule set that has named values.

    Example: Given the setting "throw_in" is "neighbours"
    Example: Given the setting "no_trump_lead" is "first-seat"
    """
    game.describe(lambda p: p.with_rule(axis, value))


@given(_re(rf"the players (?P<names>{NAMES})"))
def given_players(game: GameContext, names: str) -> None:
    """The players by name; they sit clockwise in this order (the first is seat P0).

    Example: Given the players Anna, Boris and Vera
    """
    players = game.read(parse_names, names)
    game.describe(lambda p: p.with_players(players))


# ==========================================================================================
# Given: the position
# ==========================================================================================


@given(_re(rf"(?P<suit>{SUIT}) are trump"))
def given_trump(game: GameContext, suit: str) -> None:
    """The trump suit.

    Example: Given hearts are trump
    """
    game.describe(lambda p: p.with_trump(Suit.parse(suit)))


@given(_re(rf"the face-up trump is (?P<card>{CARD})"))
def given_face_up(game: GameContext, card: str) -> None:
    """The card lying face up under the stock; its suit is trump.

    Example: Given the face-up trump is 6♥
    """
    face_up = game.read(parse_one_card, card)
    game.describe(lambda p: p.with_face_up(face_up))


@given(_re(rf"(?P<name>{NAME}) holds (?P<cards>{CARDS})"))
def given_hand(game: GameContext, name: str, cards: str) -> None:
    """Exactly these cards are in the player's hand.

    Example: Given Anna holds 7♣ 9♣ K♦
    """
    hand = game.read(parse_card_list, cards)
    game.describe(lambda p: p.with_hand(name, hand))


@given(_re(rf"(?P<name>{NAME}) holds (?P<count>[0-9]+) cards?"))
def given_hand_size(game: GameContext, name: str, count: str) -> None:
    """The player holds this many cards, none of them named in the scenario.

    Example: Given Boris holds 6 cards
    """
    game.describe(lambda p: p.with_hand(name, (), int(count)))


@given(_re(rf"(?P<name>{NAME}) holds (?P<cards>{CARDS}) and (?P<count>[0-9]+) other cards?"))
def given_hand_and_more(game: GameContext, name: str, cards: str, count: str) -> None:
    """These cards and some more that the scenario does not name.

    Example: Given Boris holds 9♣ and 5 other cards
    """
    hand = game.read(parse_card_list, cards)
    game.describe(lambda p: p.with_hand(name, hand, len(hand) + int(count)))


@given(_re(rf"(?P<name>{NAME}) holds no cards"))
def given_empty_hand(game: GameContext, name: str) -> None:
    """The player's hand is empty (while the stock lasts they are still in the game).

    Example: Given Anna holds no cards
    """
    game.describe(lambda p: p.with_hand(name, (), 0))


@given(_re(rf"(?P<attacker>{NAME}) attacks (?P<defender>{NAME})"))
def given_attack(game: GameContext, attacker: str, defender: str) -> None:
    """Who attacks whom now; the defender must be the next player still in the game.

    Example: Given Anna attacks Boris
    """
    game.describe(lambda p: p.with_attack(attacker, defender))


@given(_re(rf"(?P<name>{NAME}) opened the bout"))
def given_opener(game: GameContext, name: str) -> None:
    """Who opened the bout in play, when the attack has since been transferred.

    Example: Given Anna opened the bout
    """
    game.describe(lambda p: p.with_opener(name))


@given(_re(rf"(?P<name>{NAME}) has announced a take"))
def given_take_announced(game: GameContext, name: str) -> None:
    """The defender has said they will take the cards (attackers may still add some).

    Example: Given Boris has announced a take
    """
    game.describe(lambda p: p.with_take_announced(name))


@given(_re(rf"the table shows (?P<pairs>{CARD}.*)"))
def given_table(game: GameContext, pairs: str) -> None:
    """The attack cards of the bout in play, each covered by a card or uncovered.

    Example: Given the table shows 7♣ covered by 9♣ and 8♦ uncovered
    """
    table = game.read(parse_table, pairs)
    game.describe(lambda p: p.with_table(table))


@given(_re(r"(?P<count>[0-9]+) cards? (?:are|is) left in the stock"))
def given_stock_size(game: GameContext, count: str) -> None:
    """How many cards are left in the stock, the face-up trump included.

    Example: Given 10 cards are left in the stock
    Example: Given 1 card is left in the stock
    """
    game.describe(lambda p: p.with_stock(int(count)))


@given("the stock is empty")
def given_stock_empty(game: GameContext) -> None:
    """Nothing is left to draw.

    Example: Given the stock is empty
    """
    game.describe(lambda p: p.with_stock(0))


@given(_re(rf"the next cards? to draw (?:is|are) (?P<cards>{CARDS})"))
def given_stock_top(game: GameContext, cards: str) -> None:
    """The cards on top of the stock, the first to be drawn first.

    Example: Given the next cards to draw are 8♠ and 9♠
    Example: Given the next card to draw is 8♠
    """
    top = game.read(parse_card_list, cards)
    game.describe(lambda p: p.with_stock_top(top))


@given(_re(r"(?P<count>[0-9]+) cards? (?:are|is) in the discard pile"))
def given_discard_size(game: GameContext, count: str) -> None:
    """How many cards have been discarded (the rest of the deck goes to the stock).

    Example: Given 12 cards are in the discard pile
    """
    game.describe(lambda p: p.with_discard(size=int(count)))


@given(_re(rf"(?P<cards>{CARDS}) (?:are|is) in the discard pile"))
def given_discard_cards(game: GameContext, cards: str) -> None:
    """Cards known to have been discarded.

    Example: Given A♠ and A♥ are in the discard pile
    """
    pile = game.read(parse_card_list, cards)
    game.describe(lambda p: p.with_discard(pile))


@given("it is the first bout")
def given_first_bout(game: GameContext) -> None:
    """The bout in play is the game's first: nobody has drawn or discarded yet (LIMIT-3).

    Without this step a position is a later bout of the game.

    Example: Given it is the first bout
    """
    game.describe(lambda p: p.with_first_bout())


@given(_re(r"it is bout (?P<number>[0-9]+)"))
def given_bout(game: GameContext, number: str) -> None:
    """The bout in play is the game's bout ``number`` (1 is the first bout); without it, a
    later bout is numbered as low as the discard pile, the cards drawn, the hands over six
    and the players out allow.

    Example: Given it is bout 4
    """
    game.describe(lambda p: p.with_bout(int(number)))


@given(_re(rf"(?P<names>{NAMES}) (?:is|are) out"))
def given_out(game: GameContext, names: str) -> None:
    """Players who have got rid of their cards, one after the other in the order named.

    Example: Given Vera is out
    Example: Given Vera and Gleb are out
    """
    players = game.read(parse_names, names)
    game.describe(lambda p: p.with_out(players))


# ==========================================================================================
# When: the deal
# ==========================================================================================


@when(_re(r"the (?P<again>next )?game is dealt from a stacked deck"))
def when_dealt_stacked(game: GameContext, again: str | None, docstring: str) -> None:
    """Deal a game whose hands (and stock) are listed in the step's docstring.

    One line per listed hand (``Anna: 6♥ 7♣ 8♣ 9♣ 10♣ J♣``, six cards), optionally
    ``stock: ...`` (the next cards to draw) and ``face-up: 9♦``; unlisted hands and the
    rest of the stock get filler cards. "The next game" deals a new game with the same
    players and rules after one has been played from a described position.

    Example: When the game is dealt from a stacked deck
    Example: When the next game is dealt from a stacked deck
    """
    previous = None
    if again and game.started:
        report = game.report()
        if report.over:
            previous = Outcome(report.finished, report.durak)
    position = game.position.rules_only() if again else game.position
    deck = game.read(position.stacked_deck, docstring)
    game.deal(deck, previous=previous)


@when("the game is dealt from this deck order")
def when_dealt_in_order(game: GameContext, docstring: str) -> None:
    """Deal from a deck order given card by card in the docstring (CLAR-10).

    Example: When the game is dealt from this deck order
    """
    deck = game.read(parse_card_list, docstring)
    game.deal(deck)


@when(_re(rf"the game is dealt from a deck (?:without (?P<missing>{CARD})|"
          rf"with (?P<twice>{CARD}) twice)"))
def when_dealt_bad_deck(game: GameContext, missing: str | None, twice: str | None) -> None:
    """Try to deal from a deck that lacks a card, or holds one twice (DEAL-1).

    Example: When the game is dealt from a deck without 7♣
    Example: When the game is dealt from a deck with 7♣ twice
    """
    card = game.read(parse_one_card, missing or twice)
    deck = [c for c in DECK if c != card] if missing else [*DECK, card]
    game.deal(deck)


@when(_re(r"a game for (?P<count>[0-9]+) players? is set up"))
def when_players_set_up(game: GameContext, count: str) -> None:
    """Try to set up the scenario's rules for this many players (DEAL-3).

    Example: When a game for 7 players is set up
    """
    game.settle()
    rules = game.read(game.position.rule_set)
    try:
        rules.with_players(int(count))
    except RuleSetError as error:
        game.judge(Rejected(str(error), error.rule), f"a game for {count} players")
    else:
        game.judge(Accepted(), f"a game for {count} players")


# ==========================================================================================
# When: moves
# ==========================================================================================


@when(_re(rf"(?P<name>{NAME}) opens with (?P<cards>{CARDS})"))
def when_open(game: GameContext, name: str, cards: str) -> None:
    """The attacker opens the bout; several cards make one opening (where ATTACK-2 allows).

    Example: When Anna opens with 7♣
    Example: When Anna opens with 7♣ and 7♦
    """
    played = game.read(parse_card_list, cards)
    game.play(Open(game.seat(name), played))


@when(_re(rf"(?P<name>{NAME}) throws in (?P<cards>{CARDS})"))
def when_throw_in(game: GameContext, name: str, cards: str) -> None:
    """Add attack cards, one after the other.

    Example: When Vera throws in 9♦
    Example: When Anna throws in 7♦ and 9♠
    """
    added = game.read(parse_card_list, cards)
    seat = game.seat(name)
    game.play(*(ThrowIn(seat, card) for card in added))


@when(_re(rf"(?P<name>{NAME}) covers (?P<pairs>{CARD} with {CARD}"
          rf"(?:(?:,| and) {CARD} with {CARD})*)"))
def when_cover(game: GameContext, name: str, pairs: str) -> None:
    """The defender covers attack cards, one after the other.

    Example: When Boris covers 7♣ with 9♣
    Example: When Boris covers 7♣ with 9♣ and 8♦ with 10♦
    """
    seat = game.seat(name)
    moves: list[Action] = []
    for pair in pairs.replace(",", " and ").split(" and "):
        if pair.strip():
            attack, card = pair.strip().split(" with ")
            moves.append(Cover(seat, game.read(parse_one_card, attack),
                               game.read(parse_one_card, card)))
    game.play(*moves)


@when(_re(rf"(?P<name>{NAME}) transfers with (?P<card>{CARD})"))
def when_transfer(game: GameContext, name: str, card: str) -> None:
    """The defender passes the attack on by adding a card of its rank (transfer game).

    Example: When Boris transfers with 8♥
    """
    game.play(Transfer(game.seat(name), game.read(parse_one_card, card)))


@when(_re(rf"(?P<name>{NAME}) shows (?P<card>{CARD}) to transfer"))
def when_show(game: GameContext, name: str, card: str) -> None:
    """The defender passes the attack on by showing a trump of its rank (TRANSFER-7).

    Example: When Boris shows 8♦ to transfer
    """
    game.play(Transfer(game.seat(name), game.read(parse_one_card, card), show=True))


@when(_re(rf"(?P<name>{NAME}) takes"))
def when_take(game: GameContext, name: str) -> None:
    """The defender announces a take; attackers may still add cards before it ends.

    Example: When Boris takes
    """
    game.play(Take(game.seat(name)))


@when(_re(rf"(?P<names>{NAMES}) says? done"))
def when_done(game: GameContext, names: str) -> None:
    """Attackers say they add nothing more, one after the other.

    Example: When Anna says done
    Example: When Anna and Vera say done
    """
    players = game.read(parse_names, names)
    game.play(*(Done(game.seat(name)) for name in players))


@when("every attacker says done")
def when_all_done(game: GameContext) -> None:
    """Everyone who may still say done says it, until nobody is asked any more.

    Example: When every attacker says done
    """
    for _ in range(len(DECK)):
        dones = [a for a in game.legal() if isinstance(a, Done)]
        if not dones:
            return
        game.play(dones[0])
    game.fail("attackers kept being asked to say done")  # pragma: no cover - engine loop


@when(_re(rf"(?P<name>{NAME}) exchanges the trump six"))
def when_exchange(game: GameContext, name: str) -> None:
    """Swap the six of trumps for the face-up trump (VAR-1).

    Example: When Anna exchanges the trump six
    """
    game.play(ExchangeTrump(game.seat(name)))


# ==========================================================================================
# Then: the verdict
# ==========================================================================================


@then("it is accepted")
def then_accepted(game: GameContext) -> None:
    """The last move (or deal) was accepted.

    Example: Then it is accepted
    """
    game.expect(accepted=True)


@then(_re(rf"it is rejected(?: by (?P<rule>{RULE}))?"))
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


@then(_re(rf"(?P<name>{NAME}) may (?P<neg>not )?open with (?P<cards>{CARDS})"
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
                      f"{_cards(group)}{' together' if together else ''}")


@then(_re(rf"(?P<name>{NAME}) may open with any of (?:his|her|their) cards"))
def then_may_open_any(game: GameContext, name: str) -> None:
    """Every card in the player's hand is a legal opening.

    Example: Then Anna may open with any of her cards
    """
    hand = game.report().hands[game.seat(name)]
    singles = {a.cards[0] for a in game.moves_of(name, Open) if len(a.cards) == 1}
    _compare(game, f"{name} may open with", singles, hand, "exactly")


@then(_re(rf"(?P<name>{NAME}) may (?P<neg>not )?throw in (?P<exactly>exactly )?(?P<cards>{CARDS})"))
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
    _compare(game, f"{name} may throw in", have, wanted, mode)


@then(_re(rf"(?P<name>{NAME}) may not throw in any card"))
def then_may_not_throw_in(game: GameContext, name: str) -> None:
    """The player may add no attack card now.

    Example: Then Vera may not throw in any card
    """
    have = [a.cards[0] for a in game.moves_of(name, ThrowIn)]
    _compare(game, f"{name} may throw in", have, (), "exactly")


@then(_re(rf"(?P<name>{NAME}) may (?P<neg>not )?cover (?P<attack>{CARD}) with "
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
    _compare(game, f"{name} may cover {target} with", have, wanted, mode)


@then(_re(rf"(?P<name>{NAME}) may not cover (?P<attack>{CARD}) with any card"))
def then_may_not_cover(game: GameContext, name: str, attack: str) -> None:
    """No card of the player's may cover this attack card.

    Example: Then Boris may not cover A♥ with any card
    """
    target = game.read(parse_one_card, attack)
    have = [a.card for a in game.moves_of(name, Cover) if isinstance(a, Cover)
            and a.attack == target]
    _compare(game, f"{name} may cover {target} with", have, (), "exactly")


@then(_re(rf"(?P<name>{NAME}) may (?P<neg>not )?transfer with (?P<cards>{CARDS})"))
def then_may_transfer(game: GameContext, name: str, neg: str | None, cards: str) -> None:
    """Whether the player may transfer by playing each of these cards.

    Example: Then Boris may transfer with 8♥
    Example: Then Boris may not transfer with 8♦
    """
    wanted = game.read(parse_card_list, cards)
    have = [a.cards[0] for a in game.moves_of(name, Transfer)
            if isinstance(a, Transfer) and not a.show]
    _compare(game, f"{name} may transfer with", have, wanted, "none" if neg else "each")


@then(_re(rf"(?P<name>{NAME}) may not transfer"))
def then_may_not_transfer(game: GameContext, name: str) -> None:
    """The player may not transfer in any way, by playing or by showing a card.

    Example: Then Boris may not transfer
    """
    have = [a.cards[0] for a in game.moves_of(name, Transfer)]
    _compare(game, f"{name} may transfer with", have, (), "exactly")


@then(_re(rf"(?P<name>{NAME}) may (?P<neg>not )?show (?P<card>{CARD}) to transfer"))
def then_may_show(game: GameContext, name: str, neg: str | None, card: str) -> None:
    """Whether the player may transfer by showing this trump (TRANSFER-7).

    Example: Then Boris may show 8♦ to transfer
    Example: Then Boris may not show 8♦ to transfer
    """
    wanted = game.read(parse_one_card, card)
    have = [a.cards[0] for a in game.moves_of(name, Transfer)
            if isinstance(a, Transfer) and a.show]
    _compare(game, f"{name} may show to transfer", have, (wanted,), "none" if neg else "each")


def _may(game: GameContext, name: str, kind: type[Action], neg: str | None, what: str) -> None:
    allowed = bool(game.moves_of(name, kind))
    if allowed == bool(neg):
        game.fail(f"{name} {'may' if allowed else 'may not'} {what}")


@then(_re(rf"(?P<name>{NAME}) may (?P<neg>not )?take"))
def then_may_take(game: GameContext, name: str, neg: str | None) -> None:
    """Whether the player may take the cards now.

    Example: Then Boris may take
    Example: Then Boris may not take
    """
    _may(game, name, Take, neg, "take")


@then(_re(rf"(?P<name>{NAME}) may (?P<neg>not )?say done"))
def then_may_say_done(game: GameContext, name: str, neg: str | None) -> None:
    """Whether the player may say done now.

    Example: Then Anna may say done
    Example: Then Anna may not say done
    """
    _may(game, name, Done, neg, "say done")


@then(_re(rf"(?P<name>{NAME}) may (?P<neg>not )?exchange the trump six"))
def then_may_exchange(game: GameContext, name: str, neg: str | None) -> None:
    """Whether the player may swap the six of trumps for the face-up trump (VAR-1).

    Example: Then Anna may exchange the trump six
    Example: Then Anna may not exchange the trump six
    """
    _may(game, name, ExchangeTrump, neg, "exchange the trump six")


@then(_re(rf"(?P<name>{NAME})'s legal moves are"))
def then_legal_moves(game: GameContext, name: str, datatable: list[list[str]]) -> None:
    """Exactly these moves, in the move notation, one per row of a data table (VIEW-3).

    Example: Then Boris's legal moves are
    """
    seat = game.seat(name)
    wanted = {_key(game.read(parse_action, row[0], seat)) for row in datatable if row and row[0]}
    have = {_key(a): a.move for a in game.legal() if a.player == seat}
    if set(have) != wanted:
        listed = ", ".join(sorted(have.values())) or "none"
        game.fail(f"{name}'s legal moves are: {listed}")


@then(_re(rf"only (?P<name>{NAME}) may act"))
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


# ==========================================================================================
# Then: the position
# ==========================================================================================


@then(_re(rf"(?P<name>{NAME}) holds (?P<cards>{CARDS})"))
def then_hand(game: GameContext, name: str, cards: str) -> None:
    """The player holds exactly these cards.

    Example: Then Boris holds 7♣ 9♣ K♦
    """
    wanted = game.read(parse_card_list, cards)
    _compare(game, f"{name} holds", game.report().hands[game.seat(name)], wanted, "exactly")


@then(_re(rf"(?P<name>{NAME}) holds (?P<count>[0-9]+) cards?"))
def then_hand_size(game: GameContext, name: str, count: str) -> None:
    """The player holds this many cards.

    Example: Then Boris holds 8 cards
    """
    hand = game.report().hands[game.seat(name)]
    if len(hand) != int(count):
        game.fail(f"{name} holds {len(hand)} cards: {_cards(hand)}")


@then(_re(rf"(?P<name>{NAME}) holds no cards"))
def then_hand_empty(game: GameContext, name: str) -> None:
    """The player's hand is empty.

    Example: Then Anna holds no cards
    """
    hand = game.report().hands[game.seat(name)]
    if hand:
        game.fail(f"{name} holds {_cards(hand)}")


@then(_re(rf"(?P<name>{NAME}) has (?P<cards>{CARDS}) in hand"))
def then_hand_has(game: GameContext, name: str, cards: str) -> None:
    """These cards are among the player's cards.

    Example: Then Anna has 8♠ in hand
    """
    wanted = game.read(parse_card_list, cards)
    _compare(game, f"{name} holds", game.report().hands[game.seat(name)], wanted, "each")


@then(_re(rf"(?P<name>{NAME}) does not hold (?P<cards>{CARDS})"))
def then_hand_lacks(game: GameContext, name: str, cards: str) -> None:
    """None of these cards is in the player's hand.

    Example: Then Boris does not hold 9♥
    """
    wanted = game.read(parse_card_list, cards)
    _compare(game, f"{name} holds", game.report().hands[game.seat(name)], wanted, "none")


@then(_re(r"each player holds (?P<count>[0-9]+) cards"))
def then_each_hand_size(game: GameContext, count: str) -> None:
    """Every player still in the game holds this many cards.

    Example: Then each player holds 6 cards
    """
    report = game.report()
    out = {seat for group in report.finished for seat in group}
    wrong = [f"{game.name(seat)} holds {len(hand)}" for seat, hand in enumerate(report.hands)
             if seat not in out and len(hand) != int(count)]
    if wrong:
        game.fail("; ".join(wrong))


@then(_re(r"the players hold (?P<count>[0-9]+) trumps between them"))
def then_trump_count(game: GameContext, count: str) -> None:
    """How many trumps are in all hands together.

    Example: Then the players hold 9 trumps between them
    """
    report = game.report()
    trumps = [c for hand in report.hands for c in hand if c.suit == report.trump]
    if len(trumps) != int(count):
        game.fail(f"the players hold {len(trumps)} trumps: {_cards(trumps)}")


@then(_re(rf"the table shows (?P<pairs>{CARD}.*)"))
def then_table(game: GameContext, pairs: str) -> None:
    """The table holds exactly these attack cards with these covers (in any order).

    Example: Then the table shows 7♣ covered by 9♣ and 8♦ uncovered
    """
    wanted = {(p.attack, p.cover) for p in game.read(parse_table, pairs)}
    have = set(game.report().table)
    if have != wanted:
        game.fail(f"the table shows {_table_text(have)}, not {_table_text(wanted)}")


def _table_text(pairs: Iterable[tuple[Card, Card | None]]) -> str:
    items = [f"{a} covered by {c}" if c else f"{a} uncovered" for a, c in sorted(
        pairs, key=lambda p: (p[0].rank, p[0].suit))]
    return ", ".join(items) or "nothing"


@then("the table is empty")
def then_table_empty(game: GameContext) -> None:
    """No card lies on the table.

    Example: Then the table is empty
    """
    table = game.report().table
    if table:
        game.fail(f"the table shows {_table_text(table)}")


@then(_re(r"the stock holds (?P<count>[0-9]+) cards?"))
def then_stock_size(game: GameContext, count: str) -> None:
    """How many cards are left to draw, the face-up trump included.

    Example: Then the stock holds 24 cards
    """
    stock = game.report().stock
    if stock != int(count):
        game.fail(f"the stock holds {stock} cards")


@then("the stock is empty")
def then_stock_empty(game: GameContext) -> None:
    """Nothing is left to draw.

    Example: Then the stock is empty
    """
    stock = game.report().stock
    if stock:
        game.fail(f"the stock still holds {stock} cards")


@then(_re(r"the discard pile holds (?P<count>[0-9]+) cards?"))
def then_discard_size(game: GameContext, count: str) -> None:
    """How many cards are out of play.

    Example: Then the discard pile holds 4 cards
    """
    discard = game.report().discard
    if discard != int(count):
        game.fail(f"the discard pile holds {discard} cards")


@then(_re(rf"(?P<suit>{SUIT}) are trump"))
def then_trump(game: GameContext, suit: str) -> None:
    """The trump suit.

    Example: Then diamonds are trump
    """
    trump = game.report().trump
    if trump != Suit.parse(suit):
        game.fail(f"{trump.label} are trump")


@then(_re(rf"the face-up trump is (?P<card>{CARD})"))
def then_face_up(game: GameContext, card: str) -> None:
    """The card lying face up under the stock.

    Example: Then the face-up trump is 9♦
    """
    wanted = game.read(parse_one_card, card)
    face_up = game.report().face_up
    if face_up != wanted:
        game.fail(f"the face-up trump is {face_up or 'missing'}")


@then("there is no face-up trump")
def then_no_face_up(game: GameContext) -> None:
    """No card lies face up under a stock.

    Example: Then there is no face-up trump
    """
    face_up = game.report().face_up
    if face_up is not None:
        game.fail(f"{face_up} lies face up")


@then(_re(rf"(?P<attacker>{NAME}) attacks (?P<defender>{NAME})(?P<later> next)?"))
def then_roles(game: GameContext, attacker: str, defender: str, later: str | None) -> None:
    """Who attacks whom now; with "next", the bout is over and the next one is theirs.

    Example: Then Vera attacks Anna
    Example: Then Boris attacks Vera next
    """
    report = game.report()
    if later and report.table:
        game.fail(f"the bout is still going on: the table shows {_table_text(report.table)}")
    if (report.attacker, report.defender) != (game.seat(attacker), game.seat(defender)):
        game.fail(f"{game.name(report.attacker)} attacks {game.name(report.defender)}")


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
        game.fail(f"the bout's {len(ended.cards)} cards ({_cards(ended.cards)}) did not go to "
                  f"the discard pile: it grew by {grew}"
                  + (f"; {game.name(ended.defender)} holds {_cards(kept)}" if kept else ""))


@then(_re(rf"(?P<name>{NAME}) has taken the cards"))
def then_taken(game: GameContext, name: str) -> None:
    """The last move ended the bout with this defender taking every card of it.

    Example: Then Boris has taken the cards
    """
    ended = _ended(game)
    if ended.defender != game.seat(name):
        game.fail(f"{game.name(ended.defender)} defended the bout, not {name}")
    hand = game.report().hands[ended.defender]
    _compare(game, f"{name} holds", hand, ended.cards, "each")


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


@then(_re(rf"(?P<name>{NAME}) is the durak"))
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


@then(_re(rf"the game is over and (?P<names>{NAMES}) (?:wins|win together)"))
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


@then(_re(rf"(?P<names>{NAMES}) (?:is|are) out"))
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


@then(_re(rf"(?P<name>{NAME}) is still in the game"))
def then_in_game(game: GameContext, name: str) -> None:
    """The player has not gone out.

    Example: Then Anna is still in the game
    """
    report = game.report()
    if any(game.seat(name) in group for group in report.finished):
        game.fail(f"{name} is out")


@then(_re(r"the finishing order is (?P<order>.+)"))
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


@then(_re(rf"(?P<name>{NAME}) attacks first whatever the seed"))
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
# Chapter 13, tips (features/13_tips.feature): the cards every player knows (TIP-7, VIEW-2)
# ==========================================================================================


def _known_cards(game: GameContext, name: str) -> tuple[Card, ...]:
    """The cards of ``name``'s hand that every player knows, as the engine reports them."""
    report = game.report()
    seat = game.seat(name)
    if len(report.known) != len(report.hands):
        pytest.skip("the engine does not report which cards every player knows (VIEW-2)")
    return report.known[seat]


@then(_re(rf"everyone knows that (?P<name>{NAME}) holds (?P<exactly>exactly )?(?P<cards>{CARDS})"))
def then_known_to_everyone(game: GameContext, name: str, exactly: str | None, cards: str
                           ) -> None:
    """Cards in the player's hand that every player knows: picked up from the table or
    drawn face up (VIEW-2); with "exactly", these and no others.

    Example: Then everyone knows that Boris holds exactly 7♣ 8♦ and 9♣
    Example: Then everyone knows that Anna holds 9♥
    """
    wanted = game.read(parse_card_list, cards)
    _compare(game, f"everyone knows that {name} holds", _known_cards(game, name), wanted,
             "exactly" if exactly else "each")


@then(_re(rf"none of (?P<name>{NAME})'s cards is known to everyone"))
def then_known_to_nobody(game: GameContext, name: str) -> None:
    """No card in the player's hand is known to the other players (VIEW-2).

    Example: Then none of Anna's cards is known to everyone
    """
    _compare(game, f"everyone knows that {name} holds", _known_cards(game, name), (),
             "exactly")


# ==========================================================================================
# Chapter 10, the end of the game (features/10_end_of_game.feature): the first out (END-5)
# ==========================================================================================


@then(_re(rf"(?P<names>{NAMES}) went out first"))
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


# ==========================================================================================
# Chapter 12, what the players see (features/12_views.feature): views, playable cards
# ==========================================================================================

_VIEW_ROWS = "stock, face-up, trump, table, discard pile, or a player's name"


def _count_text(count: int) -> str:
    """A pile's size as a view shows it: ``empty``, ``1 card``, ``10 cards``."""
    return "empty" if count == 0 else f"{count} card{'' if count == 1 else 's'}"


def _hand_text(count: int, known: Iterable[Card] = ()) -> str:
    """Another player's hand as a view shows it: ``6 cards, 7♣ 9♣ known``."""
    if count == 0:
        return "no cards"
    shown = list(known)
    return _count_text(count) + (f", {_cards(shown)} known" if shown else "")


def _read_count(text: str) -> int | None:
    """``empty``, ``no cards`` or ``N cards`` as a number; ``None`` if the text is neither."""
    if text.lower() in ("empty", "no cards"):
        return 0
    words = text.split()
    if len(words) == 2 and words[0].isdigit() and words[1] in ("card", "cards"):
        return int(words[0])
    return None


def _reported_known(report: Report, seat: int) -> tuple[Card, ...]:
    return report.known[seat] if len(report.known) == len(report.hands) else ()


def _view_row(game: GameContext, report: Report, viewer: int, key: str, text: str
              ) -> tuple[str, str]:
    """One row of ``viewer``'s view: what the scenario expects and what the engine reports,
    both in the view's own wording, so that they compare as text."""
    lowered = key.lower()
    if lowered in ("stock", "discard pile"):
        count = _read_count(text)
        if count is None:
            game.fail(f"the {key} row says {text!r}: write 'empty' or a number of cards")
        return _count_text(count), _count_text(report.stock if lowered == "stock"
                                               else report.discard)
    if lowered == "face-up":
        wanted = "none" if text.lower() == "none" else str(game.read(parse_one_card, text))
        return wanted, "none" if report.face_up is None else str(report.face_up)
    if lowered == "trump":
        suits = {suit.label: suit for suit in Suit}
        if text.lower() not in suits:
            game.fail(f"the trump row says {text!r}: write clubs, diamonds, hearts or spades")
        return suits[text.lower()].label, report.trump.label
    if lowered == "table":
        wanted = "empty" if text.lower() == "empty" else _table_text(
            (pair.attack, pair.cover) for pair in game.read(parse_table, text))
        return wanted, _table_text(report.table) if report.table else "empty"
    if key not in game.names:
        game.fail(f"{key!r} is not a row of a view: a row is {_VIEW_ROWS}")
    seat = game.names.index(key)
    own = seat == viewer
    size, _, known = text.partition(",")
    count = _read_count(size.strip())
    known = known.strip()
    if text.lower() == "out":
        wanted = "out"
    elif count is not None and not known:
        wanted = _hand_text(count)
    elif count is not None and not own and known.endswith(" known"):
        wanted = _hand_text(count, game.read(parse_card_list, known.removesuffix(" known")))
    elif count is None and own:
        wanted = _cards(game.read(parse_card_list, text))
    else:
        game.fail(f"{key}'s row of {game.names[viewer]}'s view says {text!r}: write "
                  + ("the cards in hand ('7♣ 9♣'), their number, or 'out'" if own else
                     "a number of cards with the cards everyone knows ('6 cards' or "
                     "'6 cards, 9♦ known'), or 'out'"))
    hand = report.hands[seat]
    if any(seat in group for group in report.finished):
        actual = "out"
    elif own:
        actual = _hand_text(len(hand)) if count is not None else _cards(hand)
    else:
        actual = _hand_text(len(hand), _known_cards(game, key))
    return wanted, actual


def _whole_view(game: GameContext, report: Report, viewer: int) -> list[tuple[str, str]]:
    """Every row of what ``viewer`` sees, as the engine reports it (for failure messages)."""
    rows = [("stock", _count_text(report.stock)),
            ("face-up", "none" if report.face_up is None else str(report.face_up)),
            ("trump", report.trump.label),
            ("table", _table_text(report.table) if report.table else "empty"),
            ("discard pile", _count_text(report.discard))]
    for seat, name in enumerate(game.names):
        hand = report.hands[seat]
        rows.append((name, "out" if any(seat in group for group in report.finished) else
                     (_cards(hand) if hand else "no cards") if seat == viewer else
                     _hand_text(len(hand), _reported_known(report, seat))))
    return rows


@then(_re(rf"(?P<name>{NAME}) sees"))
def then_sees(game: GameContext, name: str, datatable: list[list[str]]) -> None:
    """What one player sees (VIEW-1, VIEW-2), one fact per row of a data table.

    Rows: ``stock`` (``10 cards`` or ``empty``), ``face-up`` (a card or ``none``),
    ``trump`` (``diamonds``), ``table`` (``7♣ covered by 9♣ and 8♦ uncovered`` or
    ``empty``), ``discard pile``, and a row per player: the player's own cards (or their
    number), another player's number of cards with the cards everyone knows
    (``6 cards, 9♦ known``), or ``out``. Rows not listed are not checked.

    Example: Then Vera sees
    """
    viewer = game.seat(name)
    report = game.report()
    wrong = []
    for row in datatable:
        if len(row) != 2 or not row[0].strip():
            game.fail(f"a row of {name}'s view has two cells, the fact and what "
                      f"{name} sees: | stock | 10 cards |, not {row}")
        wanted, actual = _view_row(game, report, viewer, row[0].strip(), row[1].strip())
        if wanted != actual:
            wrong.append(f"{row[0].strip()}: {actual}, not {wanted}")
    if wrong:
        seen = "\n".join(f"    | {key} | {value} |" for key, value in
                         _whole_view(game, report, viewer))
        game.fail(f"{name} sees {'; '.join(wrong)}\n  {name} sees:\n{seen}")


def _playable(game: GameContext, name: str) -> set[Card]:
    """The cards that take part in the player's legal moves now (VIEW-3)."""
    seat = game.seat(name)
    return {card for action in game.legal() if action.player == seat for card in action.cards}


@then(_re(rf"the cards (?P<name>{NAME}) may play are (?P<cards>{CARDS})"))
def then_playable(game: GameContext, name: str, cards: str) -> None:
    """Exactly these of the player's cards make a legal move now (VIEW-3).

    Example: Then the cards Boris may play are 8♥ and 10♠
    """
    wanted = game.read(parse_card_list, cards)
    _compare(game, f"the cards {name} may play are", _playable(game, name), wanted, "exactly")


@then(_re(rf"(?P<name>{NAME}) may play no card"))
def then_plays_no_card(game: GameContext, name: str) -> None:
    """None of the player's cards makes a legal move now (VIEW-3).

    Example: Then Boris may play no card
    """
    _compare(game, f"the cards {name} may play are", _playable(game, name), (), "exactly")
