"""Audits of an engine's reports: what no position of any game can show (layer 5).

An engine's report is checked on its own, without the reference: whatever the rules, a
position of Durak holds 36 distinct cards, each in one place; a table of at most six
attack cards; an attacker and a defender who are players still in the game; players who
are out with empty hands. Between two reports, an action the engine rejected changes
nothing, and one it accepted changes something. The scenarios (:mod:`durak_spec.spec.steps`),
the lockstep games (:mod:`durak_spec.conformance.lockstep`) and the perft walks
(:mod:`durak_spec.conformance.perft`) audit every report they receive, so an engine that
copies cards instead of moving them fails even where no step looks at the copied card.

Each finding is an :class:`Impossible`: the rule whose guarantee the report breaks (the
36-card deck of DEAL-1, the six-card table of LIMIT-1, ...) and what is impossible, in
plain words with seats as ``P0``, ``P1``. Nothing here decides a rule of play: the checks
hold under every rule set, and whether a game is over is the engine's decision
(:func:`~durak_spec.engine.bout_end.game_ends`, named by
:func:`~durak_spec.engine.bout_end.outcome_rule`).

Example::

    >>> from durak_spec.core.cards import parse_cards
    >>> from durak_spec.engine import new_game
    >>> from durak_spec.model.rules import profile
    >>> from durak_spec.protocol import Report
    >>> report = Report.of(new_game(profile("classic-throw-in").rules(players=2), seed=1))
    >>> report_problems(report, players=2)
    ()
    >>> from dataclasses import replace
    >>> copied = report.hands[0][0]
    >>> twice = replace(report, hands=(report.hands[0], report.hands[1] + (copied,)))
    >>> problems = report_problems(twice, players=2)
    >>> problems[0].text == f"{copied} is in P0's hand and in P1's hand"
    True
    >>> print(problems[1].text)
    13 cards in hands and on the table, 24 in the stock and 0 discarded make 37 cards, not 36
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from durak_spec.core.cards import DECK, Card
from durak_spec.engine import game_ends, outcome_rule
from durak_spec.model.actions import Action, Done
from durak_spec.model.rules import MAX_ATTACK_CARDS, Goal
from durak_spec.protocol import Report, Verdict

__all__ = ["DECK_SIZE", "Impossible", "audit", "change_problems", "report_problems"]

DECK_SIZE = len(DECK)
_FIELDS = tuple(f.name for f in fields(Report))


@dataclass(frozen=True, slots=True)
class Impossible:
    """One thing a report shows that no game can reach."""

    rule: str | None
    """The rule whose guarantee it breaks (``DEAL-1``), or ``None`` for the protocol."""
    text: str

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})" if self.rule else self.text


def _places(report: Report) -> dict[Card, list[str]]:
    where: dict[Card, list[str]] = {}
    for seat, hand in enumerate(report.hands):
        for card in hand:
            where.setdefault(card, []).append(f"in P{seat}'s hand")
    for attack, cover in report.table:
        where.setdefault(attack, []).append("on the table")
        if cover is not None:
            where.setdefault(cover, []).append("on the table")
    return where


def report_problems(report: Report, players: int,
                    goal: Goal = Goal.LAST_HOLDER_LOSES) -> tuple[Impossible, ...]:
    """What is impossible in ``report`` as a position of a game of ``players`` players
    played for ``goal`` (END-5: a race is over as soon as somebody is out, with several
    players possibly left in it and a durak only where one alone is left)."""
    found: list[Impossible] = []

    def bad(rule: str | None, text: str) -> None:
        found.append(Impossible(rule, text))

    if len(report.hands) != players:
        bad("DEAL-3", f"the report has {len(report.hands)} hands in a game of {players} "
                      "players")
    # The cards shown, counted without naming their places: the places are written out
    # only for a report that shows a card twice or the face-up card in play.
    shown = [card for hand in report.hands for card in hand]
    shown += [card for pair in report.table for card in pair if card is not None]
    distinct = set(shown)
    twice = len(distinct) != len(shown)
    if twice:
        for card, places in _places(report).items():
            if len(places) > 1:
                bad("DEAL-1", f"{card} is {' and '.join(places)}")
    if report.face_up is not None and report.face_up in distinct:
        bad("DEAL-6", f"the face-up trump {report.face_up} lies under the stock and is also "
                      f"{_places(report)[report.face_up][0]}")
    if report.face_up is not None and report.face_up.suit != report.trump:
        bad("DEAL-5", f"the face-up card {report.face_up} is not of the trump suit "
                      f"{report.trump.name.lower()}")
    if report.face_up is not None and report.stock < 1:
        bad("DEAL-6", f"the face-up trump {report.face_up} is shown but the stock is empty")
    if report.stock < 0 or report.discard < 0:
        bad(None, f"a negative count: stock {report.stock}, discard {report.discard}")
    if twice or len(distinct) + report.stock + report.discard != DECK_SIZE:
        bad("DEAL-1", f"{len(shown)} cards in hands and on the table, {report.stock} in the "
                      f"stock and {report.discard} discarded make "
                      f"{len(shown) + report.stock + report.discard} cards, not {DECK_SIZE}")
    if len(report.table) > MAX_ATTACK_CARDS:
        bad("LIMIT-1", f"{len(report.table)} attack cards on the table: at most "
                       f"{MAX_ATTACK_CARDS} fit in a bout")
    seats = range(len(report.hands))
    out: list[int] = [seat for group in report.finished for seat in group] \
        if report.finished else []
    for seat in out:
        if seat not in seats:
            bad("END-1", f"P{seat} is reported out, but there is no such seat")
        elif report.hands[seat]:
            bad("END-1", f"P{seat} is reported out while holding {len(report.hands[seat])} "
                         "cards")
    if out and report.stock > 0:
        bad("END-2", f"P{out[0]} is out while the stock still holds {report.stock} cards")
    if out and len(set(out)) != len(out):
        bad("END-1", "a player is out twice in the finishing order")
    left = [seat for seat in seats if seat not in out] if out else list(seats)
    over = game_ends(goal, set(out), len(report.hands))  # the engine's decision
    if report.over != over:
        bad(outcome_rule(goal, 0, set(out), len(report.hands)),
            f"the game is reported {'over' if report.over else 'under way'} with "
            f"{len(left)} player{'s' if len(left) != 1 else ''} left in it")
    if report.durak is not None:
        if report.durak not in left or not report.over:
            bad("END-3", f"P{report.durak} is named the durak, but is not the one player left")
        elif report.durak in seats and not report.hands[report.durak]:
            bad("END-4", f"P{report.durak} is named the durak holding no cards: the last "
                         "players went out together, a draw")
    elif report.over and len(left) == 1:
        bad("END-3", f"the game is over with P{left[0]} left in it, but nobody is the durak")
    if not over:
        for role, seat in (("attacker", report.attacker), ("defender", report.defender)):
            if seat not in seats:
                bad("ORDER-3", f"the {role} is P{seat}, but there is no such seat")
            elif seat in out:
                bad("ORDER-6", f"the {role} is P{seat}, who is out of the game")
        if report.attacker == report.defender:
            bad("ORDER-3", f"P{report.attacker} is both attacker and defender")
    elif report.table:
        bad("END-6", "the game is over with cards still on the table")
    for seat, known in enumerate(report.known):
        if known and seat < len(report.hands):
            unheld = [c for c in known if c not in report.hands[seat]]
            if unheld:
                bad("VIEW-2", f"P{seat}'s hand is said to hold the known cards "
                              f"{' '.join(map(str, unheld))}, which it does not hold")
    return tuple(found)


def change_problems(before: Report, verdict: Verdict, after: Report,
                    move: str = "the action", *, silent: bool = False
                    ) -> tuple[Impossible, ...]:
    """What is impossible in the change from ``before`` to ``after`` under ``verdict``.

    ``silent`` says the action may change nothing a report shows (one attacker's "done"
    while others may still throw in: who has passed is not part of a report)."""
    if not verdict.ok:
        if after != before:
            return (Impossible(None, f"{move} was rejected, but the position changed: "
                                     f"{_difference(before, after)}"),)
        return ()
    found: list[Impossible] = []
    if after == before and not silent:
        found.append(Impossible(None, f"{move} was accepted, but the position did not change"))
    if before.over:
        found.append(Impossible("CLAR-2", f"{move} was accepted after the game was over"))
    if after.discard < before.discard:
        found.append(Impossible("DEFEND-1", f"the discard pile shrank from {before.discard} "
                                            f"to {after.discard} cards"))
    if after.stock > before.stock:
        found.append(Impossible("DRAW-4", f"the stock grew from {before.stock} to "
                                          f"{after.stock} cards"))
    gone = [s for group in before.finished for s in group
            if s not in {t for g in after.finished for t in g}] if before.finished else []
    if gone:
        found.append(Impossible("END-1", f"P{gone[0]}, who was out, is back in the game"))
    return tuple(found)


def _difference(before: Report, after: Report) -> str:
    changed = [name for name in _FIELDS if getattr(before, name) != getattr(after, name)]
    return "changed " + ", ".join(changed)


def audit(report: Report, players: int, before: Report | None = None,
          verdict: Verdict | None = None, action: Action | None = None,
          goal: Goal = Goal.LAST_HOLDER_LOSES) -> tuple[Impossible, ...]:
    """Both audits: ``report`` alone (in a game played for ``goal``), and the change from
    ``before`` that ``action`` (under ``verdict``) made, if they are given."""
    found = report_problems(report, players, goal)
    if before is not None and verdict is not None:
        silent = isinstance(action, Done)
        changes = change_problems(before, verdict, report, silent=silent)
        if changes and action is not None:  # the move is written out only for a finding
            changes = change_problems(before, verdict, report,
                                      f'P{action.player}\'s move "{action.move}"',
                                      silent=silent)
        found += changes
    return found


def describe(problems: Sequence[Impossible]) -> str:
    """The findings as one text, one per line."""
    return "\n".join(str(p) for p in problems)
