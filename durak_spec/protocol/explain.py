"""Which rule an engine breaks where its legal actions or its position differ from the
reference's, decided by the reference itself (layer 5).

A conformance report is read by an engine's author: one real deviation should be one
cause, named after the rule the engine breaks, not after the scenario or the count that
showed it. This module explains a difference found in one position:

* :func:`explain_legal`: the engine's legal actions against the reference's. The actions
  the engine lists and the rules forbid are grouped by the rule the reference names when
  it refuses them (:func:`~durak_spec.engine.broken_rule`). The actions it misses are
  grouped by what they have in common (the same seat, the same attack card, the same
  rank, every card that may still be added) and each group is charged to the rule that
  separates it from what the engine does list: covers of one attack card missing while
  another's are listed is BEAT-6 (where a cover goes); a missing cover of a card the
  engine otherwise covers is the beating rule that allows it (BEAT-2 .. BEAT-4); a missing
  rank is ATTACK-3; no card added at all is the limit the reference sets there (or the
  number the engine stopped at, if the reference sets it elsewhere: five is LIMIT-3) or,
  after a take, TAKE-3. A seat that acts in one and not in the other is one difference of
  turn order. An engine that lists nothing where the rules let somebody do several things
  is one difference (CLAR-2), however many actions that leaves out; where the rules allow
  one action only (a defender who can only take), the rule that allows it.
* :func:`explain_step`: the engine's report after a move both accepted against the
  reference's: a bout the engine ends where the reference goes on (TAKE-3 after a take,
  ATTACK-5 otherwise), a bout it keeps going, and what the reference's step did (drawing,
  going out, the game's end, the next roles), by the rule that decides it.

Every rule ID here comes from the engine's own functions (``broken_rule``,
``beating_rule``, ``attack_limit``, ``turn_rule``); nothing is decided twice.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from durak_spec.core.cards import format_cards
from durak_spec.core.errors import BadAction
from durak_spec.engine import (
    advance,
    attack_limit,
    beating_rule,
    broken_rule,
    deal_rule,
    first_attacker,
    grounds,
    thrown_in_lifts_dones,
    turn_rule,
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
)
from durak_spec.model.events import (
    BoutEnded,
    Drew,
    GameOver,
    NextBout,
    Transferred,
    WentOut,
)
from durak_spec.model.state import GameState, replace
from durak_spec.protocol import Rejected, Report, Verdict

__all__ = [
    "NOTHING_LISTED",
    "TURN_ORDER",
    "Difference",
    "explain_legal",
    "explain_loaded",
    "explain_refused",
    "explain_start",
    "explain_step",
    "judge_move",
    "plural",
    "same_report",
]

Side = Literal["extra", "missing", "state"]

NOTHING_LISTED = "lists no legal action where the rules let somebody act"
TURN_ORDER = "lets other players act than the bout protocol asks (turn order)"


def plural(count: int, noun: str) -> str:
    """``1 attack card``, ``2 attack cards``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


@dataclass(frozen=True, slots=True)
class Difference:
    """One difference between an engine and the reference, charged to one rule.

    ``kind`` says what the engine does (the heading of a cause: the same rule and kind
    are one cause); ``detail`` says what this instance has in common (``covers of 9♣``),
    ``actions`` are the actions concerned."""

    rule: str | None
    kind: str
    side: Side
    actions: tuple[Action, ...] = ()
    detail: str = ""
    alternative: str | None = None
    """Another rule the same thing breaks where the engine breaks it elsewhere: a bout
    ended at a take when it held as many attack cards as a limit elsewhere is TAKE-3's,
    or that limit's when the engine keeps the limit wrongly in other scenarios and TAKE-3
    nowhere else (:func:`durak_spec.conformance.check_report.causes`)."""

    def __str__(self) -> str:
        text = f"the engine {self.kind}"
        if self.detail:
            text += f": {self.detail}"
        return text + (f" ({self.rule})" if self.rule else "")


Probe = Callable[[Action], Verdict]
"""Asks the engine about one action it does not list (it may change the engine's game:
probe only where the game is not played on)."""


def _refused(state: GameState, action: Action) -> str | None:
    try:
        found = broken_rule(state, action)
    except BadAction:
        return None
    return None if found is None else found.rule


def _moves(actions: Iterable[Action], most: int = 4) -> str:
    listed = list(actions)
    shown = ", ".join(str(a) for a in listed[:most])
    return shown + (f" and {len(listed) - most} more" if len(listed) > most else "")


def explain_legal(state: GameState, listed: Sequence[Action],
                  probe: Probe | None = None, known: Iterable[str] = ()
                  ) -> list[Difference]:
    """The differences between ``listed`` (the engine's legal actions) and the
    reference's legal actions in ``state``, each charged to one rule; the most telling
    first; empty if they agree. ``probe``, if given, asks the engine about a missing
    action whose group nothing else explains: a rejection naming a rule of ``known``
    (the rule index) charges the group to that rule."""
    from durak_spec.engine import legal_actions

    theirs = legal_actions(state)
    mine = set(listed)
    ours = set(theirs)
    missing = [a for a in theirs if a not in mine]
    extra = sorted({a for a in listed if a not in ours}, key=Action.sort_key)
    if not missing and not extra:
        return []
    if not listed and len(missing) > 1:  # a single action missing is its own rule's
        return [Difference("CLAR-2", NOTHING_LISTED, "missing", tuple(missing),
                           f"the rules let {_moves(missing)}")]
    found: list[Difference] = []
    turn = _turn_order(state, listed, theirs, extra, missing)
    if turn is not None:
        found.append(turn)
        extra = [a for a in extra if a not in turn.actions]
        missing = [a for a in missing if a not in turn.actions]
    by_rule: dict[str | None, list[Action]] = {}
    for action in extra:
        by_rule.setdefault(_refused(state, action), []).append(action)
    for rule, actions in by_rule.items():
        found.append(Difference(rule, "lists moves the rules forbid", "extra", tuple(actions),
                                _moves(actions)))
    found.extend(_missing(state, listed, missing, probe, set(known)))
    return found


def _turn_order(state: GameState, listed: Sequence[Action], theirs: Sequence[Action],
                extra: Sequence[Action], missing: Sequence[Action]) -> Difference | None:
    """A difference in who may act: a seat the engine lets act that the reference refuses
    by a rule of the bout protocol, or a seat the reference asks that the engine lists
    nothing for while the defender acts in both (a seat with none of its actions listed,
    where the engine lists others' and no rule of cards explains it)."""
    seats_mine = {a.player for a in listed}
    seats_ours = {a.player for a in theirs}
    protocol = {turn_rule(state) or "CLAR-3", "CLAR-3", "ATTACK-5"}
    added = [a for a in extra if a.player not in seats_ours
             and _refused(state, a) in protocol]
    dropped = [a for a in missing if a.player not in seats_mine]
    attackers_mine = seats_mine - {state.defender}
    attackers_ours = seats_ours - {state.defender}
    if not added and dropped and len(attackers_mine) == 1 and len(attackers_ours) > 1 \
            and attackers_mine < attackers_ours:
        added = [a for a in listed if a.player in attackers_mine and a in extra]
        return Difference(turn_rule(state) or "CLAR-3", TURN_ORDER, "missing", tuple(dropped),
                          f"who acts: only P{min(attackers_mine)} of the attackers "
                          f"P{', P'.join(map(str, sorted(attackers_ours)))}")
    if added and (dropped or seats_mine - {a.player for a in added}):
        rule = turn_rule(state) or "CLAR-3"
        players = sorted({a.player for a in added} | {a.player for a in dropped})
        return Difference(rule, TURN_ORDER, "extra", (*added, *dropped),
                          "who acts: " + ", ".join(f"P{p}" for p in players))
    return None


def _missing(state: GameState, listed: Sequence[Action], missing: Sequence[Action],
             probe: Probe | None, known: set[str]) -> list[Difference]:
    if not missing:
        return []
    found: list[Difference] = []
    rest: list[Action] = []
    # Every card that might still be added is missing: the engine's bout stops here.
    throws = [a for a in missing if isinstance(a, ThrowIn)]
    if throws and not any(isinstance(a, ThrowIn) for a in listed):
        stopped, asked = _asked(state, listed, throws, probe, known)
        if asked:  # an engine that was asked may have moved on: it is asked no more
            probe = None
        stopped = stopped or _stopped(state, listed, throws)
        if stopped is not None:
            found.append(stopped)
            missing = [a for a in missing if not isinstance(a, ThrowIn)]
    covers = [a for a in missing if isinstance(a, Cover)]
    if covers:
        found.extend(_covers(state, listed, covers))
        missing = [a for a in missing if not isinstance(a, Cover)]
    for action in missing:
        rule = _allowing_rule(state, listed, action)
        if rule is None and probe is not None:
            verdict = probe(action)
            if isinstance(verdict, Rejected) and verdict.rule in known:
                rule = verdict.rule
        if rule is None:
            rest.append(action)
            continue
        found.append(Difference(rule, "does not list moves the rules allow", "missing",
                                (action,), str(action)))
    if rest:
        found.append(Difference(None, "does not list moves the rules allow", "missing",
                                tuple(rest), _moves(rest)))
    return _merged(found)


def _asked(state: GameState, listed: Sequence[Action], throws: Sequence[Action],
           probe: Probe | None, known: set[str]) -> tuple[Difference | None, bool]:
    """Probing the engine about the first missing throw-in, where the position cannot tell
    a limit or a rank from the order of the bout protocol (a card is uncovered and the
    engine lets the defender act): an engine that accepts the card it does not list asks
    the seats in another order (turn order); one that refuses it naming a rule breaks that
    rule; ``None`` otherwise (the position decides). With whether it asked."""
    uncovered = any(pair.cover is None for pair in state.table)
    if probe is None or not uncovered or state.taking \
            or not any(a.player == state.defender for a in listed):
        return None, False
    verdict = probe(throws[0])
    if not isinstance(verdict, Rejected):
        return Difference(turn_rule(state) or "CLAR-3", TURN_ORDER, "missing", tuple(throws),
                          f"who acts: it accepts {throws[0]}, which it does not list"), True
    if verdict.rule in known and verdict.rule not in (turn_rule(state), "CLAR-3"):
        return Difference(verdict.rule, "lets no card be added where the rules allow it",
                          "missing", tuple(throws), f"it refuses {throws[0]} "
                          f"({verdict.rule})"), True
    return None, True


def _stopped(state: GameState, listed: Sequence[Action], throws: Sequence[Action]
             ) -> Difference | None:
    """Missing throw-ins where the engine lists none at all: the engine's bout takes no
    more cards. After a take, TAKE-3; where the engine stopped at a limit's number, that
    limit (the reference's here, or the rule whose cap the number is in another bout:
    five is LIMIT-3's first bout); while a card is uncovered and the defender acts, the
    order of the bout protocol; else ``None`` (each throw-in is explained by itself)."""
    count = plural(len(state.table), "attack card")
    if state.taking:
        return Difference("TAKE-3", "lets no card be added after a take", "missing",
                          tuple(throws), f"none added after the take, with {count} on the "
                          "table")
    rule = _limit_at(state)
    if rule is not None:
        return Difference(rule, "lets no card be added where the limit allows more",
                          "missing", tuple(throws), f"none added to a bout of {count}")
    if all(_on_covers_only(state, a) for a in throws):
        return Difference("ATTACK-3", "does not let the ranks of covering cards be added",
                          "missing", tuple(throws), f"no throw-in of {_ranks(throws)}, ranks "
                          "that show on covering cards only")
    uncovered = any(pair.cover is None for pair in state.table)
    if uncovered and any(a.player == state.defender for a in listed):
        return Difference(turn_rule(state) or "CLAR-3", TURN_ORDER, "missing", tuple(throws),
                          "who acts: the engine lets only the defender act while a card is "
                          "uncovered")
    return None


def _on_covers_only(state: GameState, action: Action) -> bool:
    """Whether a throw-in's rank shows on the table only on a covering card."""
    ranks = {card.rank for card in action.cards}
    return not ranks & {pair.attack.rank for pair in state.table}


def _ranks(actions: Sequence[Action]) -> str:
    return ", ".join(sorted({str(card.rank) for a in actions for card in a.cards}))


def _limit_at(state: GameState) -> str | None:
    """The limit rule whose number of attack cards the table holds: the reference's limit
    here, or the cap of another bout (the first bout's five is LIMIT-3)."""
    held = len(state.table)
    here, rule = attack_limit(state)
    if held >= here:
        return rule
    for bout in (0, state.bout + 1):  # the reference's limit in the first bout, a later one
        cap, other = attack_limit(replace(state, bout=bout))
        if cap == held:
            return other
    return None


def _covers(state: GameState, listed: Sequence[Action], covers: Sequence[Cover]
            ) -> list[Difference]:
    """Missing covers: those of an attack card the engine covers with nothing while it
    lists covers of another (where a cover goes, BEAT-6), and the others by the beating
    rule that allows them."""
    covered = {a.attack for a in listed if isinstance(a, Cover)}
    found: list[Difference] = []
    unplaced: list[Cover] = []
    for cover in covers:
        if covered and cover.attack not in covered:
            unplaced.append(cover)
            continue
        found.append(Difference(beating_rule(cover.card, cover.attack, state.trump),
                                "does not list covers the rules allow", "missing", (cover,),
                                f"{cover.card} on {cover.attack}"))
    if unplaced:
        attacks = sorted({c.attack for c in unplaced})
        found.insert(0, Difference(
            "BEAT-6", "does not let the defender choose which attack card to cover",
            "missing", tuple(unplaced),
            f"no cover of {format_cards(attacks)}, while it lists covers of "
            f"{format_cards(sorted(covered))}"))
    return found


def _allowing_rule(state: GameState, listed: Sequence[Action], action: Action
                   ) -> str | None:
    """The rule that allows ``action`` and that separates it from what the engine lists."""
    if isinstance(action, ThrowIn):
        same_seat = [a for a in listed if isinstance(a, ThrowIn) and a.player == action.player]
        if same_seat or _on_covers_only(state, action):
            return "ATTACK-3"  # the ranks on the table, covers' included
        return "ATTACK-4" if action.player != state.attacker else "ATTACK-3"
    if isinstance(action, Open):
        return "ATTACK-2" if len(action.played) > 1 else "ATTACK-1"
    if isinstance(action, Transfer):
        return grounds(state, action)  # the engine's: TRANSFER-1, TRANSFER-7 or CLAR-23
    if isinstance(action, Take):
        return "TAKE-1"
    if isinstance(action, Done):
        return "CLAR-3"
    if isinstance(action, ExchangeTrump):
        return "VAR-1"
    return None


def _merged(found: list[Difference]) -> list[Difference]:
    """Differences of the same rule and kind as one, their actions together."""
    groups: dict[tuple[str | None, str], list[Difference]] = {}
    for item in found:
        groups.setdefault((item.rule, item.kind), []).append(item)
    merged = []
    for (rule, kind), items in groups.items():
        actions = tuple(a for item in items for a in item.actions)
        detail = items[0].detail if len(items) == 1 else _moves(actions)
        merged.append(Difference(rule, kind, items[0].side, actions, detail))
    return merged


def explain_step(before: GameState, action: Action, engine: Report) -> Difference | None:
    """What the engine's report after ``action`` (accepted by both) gets wrong, by the rule
    the reference's step decided it with; ``None`` if the reports agree."""
    step = advance(before, action)
    after = step.state
    ours = Report.of(after)
    if _same(ours, engine):
        return None
    ended = any(isinstance(e, BoutEnded) for e in step.events)
    if before.table and not ended and not engine.table and ours.table:
        return _ended_early(after, action)
    if ended and engine.table:
        if isinstance(action, Done):  # everyone asked has said done: the protocol
            return Difference(turn_rule(before) or "CLAR-3", TURN_ORDER, "state", (action,),
                              f"after {action} nobody is left to ask, but the engine asks "
                              "again")
        limit, rule = attack_limit(before)
        count = len(before.table) + isinstance(action, ThrowIn)  # the card just added counts
        if count >= limit:
            return Difference(rule, "lets cards be added beyond the limit", "state",
                              (action,), f"after {action}: the bout's "
                              f"{plural(count, 'attack card')} are its limit")
        # below the limit, the bout ends because nobody may add a card: the protocol
        return Difference(turn_rule(before) or "CLAR-3", TURN_ORDER, "state", (action,),
                          f"after {action} nobody may add a card, but the engine asks again")
    fields = _differing(ours, engine, ("table", "taking", "hands", "stock", "discard",
                                       "finished", "over", "durak", "attacker", "defender",
                                       "face_up", "trump"))
    decided = _event_rule(step.events, fields, before, action, after, engine)
    return Difference(decided, "plays a step otherwise than the rules", "state", (action,),
                      f"after {action}, its {', '.join(fields) or 'report'} differ")


def explain_refused(state: GameState, rule: str, reason: str) -> Difference:
    """A position the engine refuses to load, naming ``rule``, that the rules allow: where
    it says the bout in play is over (ATTACK-5) and the reference goes on with it, what
    lets the bout go on (as :func:`explain_step` charges a bout ended too soon); else the
    rule it named."""
    if rule == "ATTACK-5" and state.table and _legal(state):
        ended = _ended_early(state, None)
        return Difference(ended.rule, "refuses a position the rules allow", "state", (),
                          f"a bout it holds over: {ended.detail}")
    return Difference(rule, "refuses a position the rules allow", "state", (), reason)


def explain_loaded(state: GameState, engine: Report) -> Difference | None:
    """The engine's report of a position just loaded against the position: a bout in play
    that the engine settles at once (its table is empty while the rules let the bout go
    on) is charged as :func:`explain_step` charges a bout ended too soon; ``None``
    otherwise (the steps that follow compare the rest)."""
    if not state.table or engine.table or engine.over or not _legal(state):
        return None
    ended = _ended_early(state, None)
    return Difference(ended.rule, ended.kind, "state", (),
                      f"it settles the bout of the position at once: {ended.detail}")


def _ended_early(after: GameState, action: Action | None) -> Difference:
    """The engine ended a bout that the reference goes on with: charged to what lets the
    bout go on, the reference's next actions (after a take, TAKE-3; ranks that show on
    covering cards only, ATTACK-3; else the closing of ATTACK-5)."""
    from durak_spec.engine import legal_actions

    throws = [a for a in legal_actions(after) if isinstance(a, ThrowIn)]
    # a bout the take itself ended is TAKE-3's; one ended by a card added, at a number
    # that is a limit elsewhere, that limit's
    taken = isinstance(action, Take) or (action is None and after.taking)
    limit = _limit_at(after) if throws and not taken else None
    if limit is not None:  # it stopped at a number of attack cards that is another limit
        rule = limit
        why = f"a card may still be added to a bout of {plural(len(after.table), 'card')}"
    elif isinstance(action, ThrowIn) and thrown_in_lifts_dones(after):
        rule, why = "CLAR-21", "the card thrown in asks again the attackers who said done"
    elif after.taking:
        rule, why = "TAKE-3", "attackers may still add cards after the take"
    elif throws and all(_on_covers_only(after, a) for a in throws):
        rule, why = "ATTACK-3", f"{_ranks(throws)} may still be added (ranks of covering cards)"
    else:
        rule, why = "ATTACK-5", "attackers may still add cards or say done"
    # a take met at a number of attack cards that is a limit elsewhere: that limit, if
    # the engine breaks it elsewhere (the engine may cap the bout there, not the take)
    alternative = _limit_at(after) if throws and taken and limit is None else None
    return Difference(rule, "ends the bout where the rules let it go on", "state",
                      () if action is None else (action,),
                      why if action is None else f"after {action}: {why}",
                      alternative)


def explain_start(state: GameState, engine: Report, seed: int = 0, later: bool = False
                  ) -> Difference | None:
    """What the engine's report of a deal gets wrong against the reference's ``state``
    (dealt with ``seed``; ``later``: a later game of a match, whose first attacker the
    last game decides, ORDER-7)."""
    ours = Report.of(state)
    if _same(ours, engine):
        return None
    fields = _differing(ours, engine, ("attacker", "defender", "hands", "stock", "face_up",
                                       "trump", "table", "discard", "taking", "finished",
                                       "over", "durak"))
    players = len(state.hands)
    trump = [name for name in fields if name in ("trump", "face_up")]
    rule: str | None = deal_rule(fields[0], players) or "CLAR-10"
    if trump:  # the card turned up comes first: who holds the lowest trump follows from it
        rule = deal_rule(trump[0], players)
    elif fields[0] == "attacker":
        why = first_attacker(state.hands, state.trump, state.rules, seed)[1]
        named = re.search(r"\(([A-Z]+-[0-9]+)\)", why)
        rule = "ORDER-7" if later else named[1] if named else "ORDER-1"
    elif fields[0] == "defender":
        rule = "ORDER-3"
    return Difference(rule, "starts the game otherwise than the rules", "state", (),
                      f"its {', '.join(fields)} differ")


def _same_cards(after: GameState, engine: Report) -> bool:
    return sorted(c for h in after.hands for c in h) == \
        sorted(c for h in engine.hands for c in h)


def same_report(ours: Report, engine: Report) -> bool:
    """Whether two reports agree on everything the rules decide (``known``, which an
    engine need not report, aside)."""
    return _same(ours, engine)


_NO_ROLES = frozenset({"attacker", "defender", "taking"})


def _differing(ours: Report, engine: Report, names: Sequence[str]) -> list[str]:
    """The fields of ``names`` in which the reports differ, among those the rules decide:
    once the game is over on both sides, the roles and ``taking`` are not compared (the
    protocol's end-of-game convention: the rules decide no roles there)."""
    over = ours.over and engine.over
    return [name for name in names if not (over and name in _NO_ROLES)
            and getattr(ours, name) != getattr(engine, name)]


def _same(ours: Report, engine: Report) -> bool:
    return not _differing(ours, engine, ("hands", "table", "stock", "trump", "face_up",
                                         "discard", "attacker", "defender", "taking",
                                         "finished", "over", "durak"))


def _event_rule(events: Sequence[object], fields: Sequence[str], before: GameState,
                action: Action, after: GameState, engine: Report) -> str | None:
    """The rule of the first event of the reference's step that decided a field that
    differs (an event that names its rule, where events do, else the rule its kind is
    decided by)."""
    wanted: list[tuple[type, set[str], str]] = [
        (Transferred, {"attacker", "defender", "table"}, "TRANSFER-1"),
        (GameOver, {"over", "durak"}, "END-3"),
        (WentOut, {"finished", "over", "durak"}, "END-1"),
        (Drew, {"hands", "stock", "face_up"}, "DRAW-1"),
        (NextBout, {"attacker", "defender"}, "ORDER-4"),
        (BoutEnded, {"discard", "hands", "table", "taking"}, "DEFEND-1"),
    ]
    for kind, touched, fallback in wanted:
        if not touched & set(fields):
            continue
        for event in events:
            if isinstance(event, kind):
                rule = getattr(event, "rule", None)
                if isinstance(rule, str):
                    return rule
                taken = before.taking or isinstance(action, Take)
                if isinstance(event, BoutEnded) and taken:
                    return "TAKE-2"
                if isinstance(event, Drew) and _same_cards(after, engine):
                    return "DRAW-2"  # the right cards, drawn in another order
                if isinstance(event, NextBout):
                    out = len(after.finished) > len(before.finished)
                    return "ORDER-5" if taken else "ORDER-6" if out else "ORDER-4"
                if isinstance(event, GameOver) and getattr(event.outcome, "durak", 0) is None:
                    return "END-4"
                return fallback
    if {"finished", "over", "durak"} & set(fields):
        return "END-2" if before.stock else "END-1"
    return None


def judge_move(state: GameState, action: Action, verdict: Verdict | None,
               listed: Sequence[Action] = ()) -> Difference | None:
    """The engine's verdict on ``action`` in ``state`` against the reference's: a move the
    rules allow that it rejects, charged to the rule that allows it (the rule ID the
    engine named is told in the detail), or a move the rules forbid that it accepts,
    charged to the rule the reference refuses it by; ``None`` if they agree."""
    if verdict is None:
        return None
    refused = _refused(state, action)
    legal = refused is None and action in _legal(state)
    if legal and isinstance(verdict, Rejected):
        rule = beating_rule(action.card, action.attack, state.trump) \
            if isinstance(action, Cover) else _allowing_rule(state, listed, action)
        named = f" (the engine named {verdict.rule})" if verdict.rule else ""
        return Difference(rule, "rejects moves the rules allow", "missing", (action,),
                          f"{action}{named}")
    if not legal and not isinstance(verdict, Rejected):
        return Difference(refused, "accepts moves the rules forbid", "extra", (action,),
                          str(action))
    return None


def _legal(state: GameState) -> tuple[Action, ...]:
    from durak_spec.engine import legal_actions

    return legal_actions(state)
