"""The scenario's game (:class:`GameContext`): the position the ``Given`` steps describe,
the engine it is loaded into, the last move and its verdict, the reference engine kept
in step to judge a rejection, and the audit of every report. The steps
(:mod:`durak_spec.spec.steps`) speak to the engine only through it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn, TypeVar

import pytest

from durak_spec.core.cards import DECK, Card
from durak_spec.core.errors import DurakError, NotationError
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.game.positions import Position, PositionError, speak_seats
from durak_spec.model.actions import Action, Open, Transfer
from durak_spec.model.rules import (
    AXES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Goal,
    LaterGameLead,
    RuleSet,
    TurnOrder,
)
from durak_spec.model.state import GameState, Outcome
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
from durak_spec.protocol.explain import (
    Difference,
    explain_loaded,
    explain_refused,
    explain_start,
    explain_step,
)
from durak_spec.protocol.subprocess_engine import EngineFailure
from durak_spec.spec.ordering import next_move

__all__ = ["IMPOSSIBLE", "Claims", "EndedBout", "GameContext", "action_key", "actions_text",
           "impossible_message"]

Claims = Callable[[RuleSet], "str | None"]
"""Whether an engine claims a rule set: ``None`` if it does, else the reason it does not."""

_T = TypeVar("_T")


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
        self.written: RuleSet | None = None
        """The rules as the scenario writes them, before ``adapt`` chose the ones played."""
        self.queue: list[Action] = []
        """Moves of the ``When`` steps not played yet: under a turn-based bout protocol,
        a scenario written for the free one has its moves played as the protocol asks for
        them (:mod:`durak_spec.spec.ordering`); before any other step they are played out."""
        self.named: list[str] = []
        """The rejections the scenario expected by a rule, that the engine gave naming that
        rule (what "rejected by the right rule" counts)."""
        self.action: Action | None = None
        """The last move made, whatever the verdict."""
        self.before: GameState | None = None
        """The reference's position before the last move (``None`` once they part)."""
        self.parted: Difference | None = None
        """The move the engine accepted and the reference refuses, with the reference's rule."""
        self.diverged: Difference | None = None
        """The first deal or move after which the engine's report differs from the
        reference's, kept only if it comes before :attr:`parted`."""
        self.answer: Verdict | None = None
        """The engine's verdict on the last move, before any step looked at it."""

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
        self.written = rules
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
        except DurakError as refused:  # refused by a rule: a difference about that rule
            rule = getattr(refused, "rule", None)
            if not isinstance(rule, str) or rule not in load_rule_index():
                raise
            self.diverged = explain_refused(state, rule, self.speak(str(refused)))
            self.fail(f"the engine refuses the position described by the Given steps, "
                      f"naming {rule}: {self.speak(str(refused))}")
        self.started = True
        self.reference = ReferenceEngine()
        self.reference.load(state)
        self.diverged = explain_loaded(state, loaded)
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
            if self.reference is not None and self.diverged is None and self.parted is None:
                self.diverged = explain_start(self.reference.state, dealt, seed,
                                              later=bool(later))
            self.audit(dealt, "after the deal")
            self._anyone_acts(self.engine.legal_actions())

    def set_up(self, players: int) -> None:
        """Ask the engine for a game of ``players`` players under the scenario's rules
        otherwise (DEAL-3), as a test vector's ``setup`` step does: a count the engine
        plays through ``start``; any other count through the engine's optional
        ``start_for``, whose refusal (naming the rule) becomes the verdict. An engine that
        does not claim the count, or has no ``start_for`` for a count no rule set holds,
        skips the scenario: its answer cannot be asked for."""
        self.settle()
        rules, names = self._resolve()
        move = f"a game for {players} player{'' if players == 1 else 's'}"
        playable = MIN_PLAYERS <= players <= MAX_PLAYERS
        start_for = getattr(self.engine, "start_for", None)
        if playable:
            self._claim(rules.with_players(players))
        elif start_for is None:
            pytest.skip(f"the engine cannot be asked for a game of {players} players (no "
                        "start_for), a count the rules forbid (DEAL-3)")
        self.names, self.deck, self.seed = names, DECK, 0
        try:
            if start_for is not None:
                start_for(players, rules, DECK, 0)
            else:
                self.engine.start(rules.with_players(players), DECK, 0)
        except EngineFailure:  # a broken engine is an error of the scenario, not a verdict
            raise
        except ValueError as error:
            rule = getattr(error, "rule", None)
            self.judge(Rejected(str(error), rule if isinstance(rule, str) else None), move)
        else:
            self.judge(Accepted(), move)
            self.started, self.ended = True, None
            if playable:  # else the Then step fails the scenario: the engine dealt it
                self.rules = rules.with_players(players)

    def judge(self, verdict: Verdict, move: str) -> None:
        self.verdict, self.move, self.verdict_checked = verdict, move, False

    def settle(self) -> None:
        """Play out the queued moves; fail if the last move was rejected and no step has
        said so yet."""
        self._play_out()
        self._checked()

    def _checked(self) -> None:
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
                      f"{actions_text(theirs, self.name)} (CLAR-2: only a game that is over "
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
        """Play moves in turn; stop at the first the engine rejects. A scenario written
        for the free bout protocol but played under a turn-based one queues them and
        plays them as that protocol asks for them (:mod:`durak_spec.spec.ordering`)."""
        self.begin()
        self._checked()
        if not self._reordered():
            self._play(actions)
            return
        self.queue.extend(actions)
        self._drain()

    def _reordered(self) -> bool:
        """Whether the moves are played as a turn-based protocol asks for them: the
        scenario does not name a protocol and is played under a turn-based one."""
        written = self.written or self.rules
        return written is not None and self.rules is not None and \
            written.turn_order is TurnOrder.FREE and \
            self.rules.turn_order is not TurnOrder.FREE

    def _drain(self) -> None:
        """Play the queued moves the protocol lets be played now."""
        while self.queue and self.reference is not None:
            chosen = next_move(self.reference.state, self.queue)
            if chosen is None:
                return
            move = self.queue.pop(chosen) if isinstance(chosen, int) else chosen
            if not self._play((move,)):
                self.queue.clear()
                return

    def _play_out(self) -> None:
        """Play every queued move: as the protocol asks while it can, else as written."""
        while self.queue:
            self._drain()
            if self.queue and not self._play((self.queue.pop(0),)):
                self.queue.clear()

    def _play(self, actions: Sequence[Action]) -> bool:
        """Play moves in the order given; whether the engine accepted every one."""
        for action in actions:
            legal = self.engine.legal_actions()
            before = self.engine.report()
            self.action, self.legal_before = action, legal
            self.before = self.reference.state if self.reference is not None else None
            verdict = self.engine.apply(action)
            self.answer = verdict
            after = self.engine.report()
            move = f'{self.name(action.player)}\'s move "{action.move}"'
            listed = action_key(action) in {action_key(a) for a in legal}
            if verdict.ok and not listed:
                self.fail(f"the engine accepted {move}, but it is not among its legal actions")
            if not verdict.ok and listed:
                self.fail(f"the engine rejected {move}, but lists it among its legal actions")
            self.audit(after, f"after {move}", before, verdict, action)
            self.judge(verdict, move)
            if not verdict.ok:
                return False
            self._follow(action, after)
            self._track(before, action, after)
        return True

    def _follow(self, action: Action, after: Report) -> None:
        """Play an accepted move on the reference too; keep what first sets them apart."""
        if self.reference is None:
            return
        state = self.reference.state
        verdict = self.reference.apply(action)
        if isinstance(verdict, Rejected):  # the engine accepted what the reference does not
            self.reference = None
            if self.parted is None:
                self.parted = Difference(verdict.rule, "accepts moves the rules forbid",
                                         "extra", (action,), str(action))
        elif self.diverged is None:
            self.diverged = explain_step(state, action, after)

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
        self._play_out()
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
            elif rule:
                self.named.append(f"{self.move} ({rule})")

    def _same_legal_actions(self) -> None:
        """A rejection proves something only if the engine allows what the rules allow:
        its legal actions where the move was rejected must be the reference's."""
        if self.reference is None:
            return
        mine = {action_key(a): a for a in self.legal_before}
        theirs = {action_key(a): a for a in self.reference.legal_actions()}
        missing = [a for k, a in theirs.items() if k not in mine]
        extra = [a for k, a in mine.items() if k not in theirs]
        if not missing and not extra:
            return
        parts = []
        if missing:
            parts.append("it does not list " + actions_text(missing, self.name))
        if extra:
            why = self.reference.apply(extra[0])  # illegal there: the state stays as it is
            rule = f" ({why.rule}: {self.speak(why.reason)})" \
                if isinstance(why, Rejected) and why.rule else ""
            parts.append("it lists " + actions_text(extra, self.name)
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


def action_key(action: Action) -> object:
    """An action for comparison; an opening's cards in any order are the same move."""
    if isinstance(action, Open):
        return (Open, action.player, frozenset(action.played))
    return action


def actions_text(actions: Sequence[Action], name: Callable[[int | None], str],
                  most: int = 6) -> str:
    shown = [f'{name(a.player)}\'s "{a.move}"' for a in actions[:most]]
    more = f" and {len(actions) - most} more" if len(actions) > most else ""
    return ", ".join(shown) + more


