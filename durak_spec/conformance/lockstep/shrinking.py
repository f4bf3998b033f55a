"""Replaying records, and shrinking a divergence to the shortest record that shows it
again: from the deal, or from a position of its game loaded into the engine."""


from __future__ import annotations

from dataclasses import replace

from durak_spec.conformance.lockstep.attribution import why_illegal
from durak_spec.conformance.lockstep.configurations import Configuration
from durak_spec.conformance.lockstep.differences import Divergence, Found
from durak_spec.conformance.lockstep.driver import Broke, PairedGame
from durak_spec.conformance.lockstep.record import Record, RecordError
from durak_spec.core.errors import DurakError
from durak_spec.engine import apply, new_game
from durak_spec.model.state import GameState
from durak_spec.protocol import Engine, LoadDeclined
from durak_spec.protocol.subprocess_engine import EngineFailure


def replay_found(engine: Engine, record: Record) -> Found | None:
    """Replay ``record`` from the start (the deal, or its ``start`` position loaded),
    comparing after every step (going on past differences of legal actions before the
    last step where the record says so, ``past_legal``). An engine that declines to load
    the position raises :class:`~durak_spec.protocol.LoadDeclined`."""
    try:
        game = PairedGame(engine, record.rules, record.deck, record.seed, record.start)
    except DurakError as error:
        raise RecordError(f"the record cannot be replayed: {error}") from None
    index = -1
    last = len(record.steps) - 1

    def goes_on(found: Found) -> bool:
        return record.past_legal and found.kind == "legal actions" and index < last

    try:
        found = game.begin()
        if found is not None and not goes_on(found):
            return found
        for index, step in enumerate(record.steps):
            if step.probe:
                found = game.probe(step.action)
            else:
                if step.action not in game.legal:
                    why = why_illegal(game.state, step.action)
                    raise RecordError(f"step {index + 1}, {step.action}, is not legal in the "
                                      f"reference" + (f": {why}" if why else ""))
                found = game.play(step.action)
            if found is not None and not goes_on(found):
                return Found(found.kind, found.differences, index, found.failure)
    except Broke as broke:
        found = broke.found
        return Found(found.kind, found.differences, index, found.failure)
    return None


def recover(engine: Engine) -> bool:
    """Restart an engine after a failure, if it can be; whether it runs again."""
    restart = getattr(engine, "restart", None)
    if not callable(restart):
        return False
    try:
        restart()
    except EngineFailure:
        return False
    return True


def same_divergence(first: Found, second: Found) -> bool:
    return first.kind == second.kind and first.rule == second.rule


def replay(engine: Engine, record: Record) -> Divergence | None:
    """Replay ``record`` from the start in ``engine`` and the reference; the divergence met
    (its record cut after the diverging step), or ``None`` if they agree throughout.

    Raises :class:`RecordError` if the record is not a game of the reference (an action
    that is not legal there).
    """
    found = replay_found(engine, record)
    if found is None:
        return None
    if found.failure is not None:
        recover(engine)
    return Divergence(found.kind, record.prefix(found.step + 1), found.differences,
                      found.rule, found_after=len(record.steps), shrunk=False)


def shrink(engine: Engine, record: Record) -> Divergence | None:
    """The shortest prefix of ``record`` that still diverges, with needless probes left out,
    as a :class:`Divergence`; ``None`` if a replay of ``record`` agrees with the reference.

    Every candidate is replayed from the start (``engine.start``). The shortest diverging
    prefix is what a binary search over prefix lengths converges to; since a replay compares
    after every step, the replay of the whole record already shows the first step that
    diverges, so one replay finds it. The linear pass then leaves out the probes before the
    last step, all at once and else one by one, keeping a removal only when the same
    divergence (kind and rule) remains.
    """
    found = replay_safely(engine, record)
    if found is None:
        return None
    best, best_found = shrink_found(engine, record, found)
    return Divergence(best_found.kind, best, best_found.differences, best_found.rule,
                      found_after=len(record.steps))


def shrink_found(engine: Engine, record: Record, found: Found) -> tuple[Record, Found]:
    """:func:`shrink`, given the divergence the replay of ``record`` met."""
    best = record.prefix(found.step + 1)
    best_found = found
    probes = [i for i, step in enumerate(best.steps[:-1]) if step.probe]
    if not probes:
        return best, best_found
    candidate = replace(best, steps=tuple(s for i, s in enumerate(best.steps)
                                          if i not in probes))
    again = replay_safely(engine, candidate)
    if again is not None and same_divergence(again, best_found):
        return candidate.prefix(again.step + 1), again
    for index in reversed(probes):  # later removals leave earlier indices in place
        if index >= len(best.steps) - 1 or not best.steps[index].probe:
            continue
        candidate = replace(best, steps=best.steps[:index] + best.steps[index + 1:])
        again = replay_safely(engine, candidate)
        if again is not None and same_divergence(again, best_found):
            best, best_found = candidate.prefix(again.step + 1), again
    return best, best_found


def replay_safely(engine: Engine, record: Record) -> Found | None:
    """:func:`replay_found`, the engine restarted after a failure; a declined load replays
    nothing (``None``)."""
    try:
        found = replay_found(engine, record)
    except LoadDeclined:
        return None
    if found is not None and found.failure is not None:
        recover(engine)
    return found

def first_divergence(engine: Engine, configuration: Configuration, game: int, record: Record,
                found: Found, shrink_records: bool) -> Divergence:
    """Shrink what one game found into a :class:`Divergence`."""
    original = record.prefix(found.step + 1)
    failure = found.failure
    if failure is not None:
        recover(engine)
    if not shrink_records or (failure is not None and failure.kind == "timeout"):
        note = "not shrunk: every replay would wait for the time limit again" \
            if shrink_records else ""
        return Divergence(found.kind, original, found.differences, found.rule,
                          configuration.label, game, len(original.steps), shrunk=False,
                          reproducible=True, note=note)
    again = replay_safely(engine, original)
    if again is None or not same_divergence(again, found):
        note = "a replay from the start " + ("agrees with the reference" if again is None
                                             else f"diverges differently ({again.kind})")
        return Divergence(found.kind, original, found.differences, found.rule,
                          configuration.label, game, len(original.steps), shrunk=False,
                          reproducible=False, note=note)
    shrunk, last = shrink_found(engine, original, again)
    return Divergence(last.kind, shrunk, last.differences, last.rule, configuration.label,
                      game, len(original.steps))


_LATER = ("found later in a game that had diverged before (after loading the reference's "
          "position into the engine, or going on where only the legal actions differed)")


def later_divergence(engine: Engine, configuration: Configuration, game: int,
                      record: Record, found: Found, before: Found, shrink_records: bool,
                      can_load: bool) -> Divergence:
    """A divergence met after another in the same game (``before``, the one just before
    it), shrunk into a record that replays it on its own, with needless probes left out.

    Where the engine can load, the record begins from a position of the game loaded into
    the engine (:attr:`Record.start`) with the fewest steps after it that still diverge
    the same way (kind and rule): see :func:`_from_a_position`. Else (or where no such
    replay diverges the same way), the record begins at the deal and its replay goes on
    past the differences of legal actions before its last step, as lockstep did
    (:attr:`Record.past_legal`; the divergences before were of legal actions alone where
    the engine cannot load, since any other ends its game). Where neither shows it again,
    the record of the whole game is kept, not replayed on its own."""
    whole = record.prefix(found.step + 1)

    def unshrunk(note: str) -> Divergence:
        return Divergence(found.kind, whole, found.differences, found.rule,
                          configuration.label, game, found.step + 1, shrunk=False,
                          reproducible=False, note=note)

    if found.failure is not None:
        recover(engine)
    if not shrink_records:
        return unshrunk(_LATER)
    if found.failure is not None and found.failure.kind == "timeout":
        return unshrunk(_LATER + "; not shrunk: every replay would wait for the time limit "
                        "again")
    shown, declined = _from_a_position(engine, record, found, before) if can_load else \
        (None, "")
    how = "from the reference's position loaded into the engine"
    if shown is None:
        candidate = replace(whole, past_legal=True)
        again = replay_safely(engine, candidate)
        if again is not None and same_divergence(again, found):
            shown, how = (candidate, again), ("from the deal, going on past the differences "
                                              "of legal actions before its last step")
    if shown is None:
        why = "the engine cannot load a position" if not can_load else \
            f"the engine declines to load its positions ({declined})" if declined else \
            "no replay from a loaded position of this game diverges the same way"
        return unshrunk(f"{_LATER}; not replayed on its own: {why}, and a replay from the "
                        "deal does not diverge the same way")
    candidate, again = shown
    shrunk, last = shrink_found(engine, candidate, again)
    return Divergence(last.kind, shrunk, last.differences, last.rule, configuration.label,
                      game, found.step + 1,
                      note=f"found later in a game that had diverged before; replayed {how}"
                           + ("" if shrunk.steps or shrunk.start is None else
                              ", which diverges at once"))


def _from_a_position(engine: Engine, record: Record, found: Found, before: Found
                     ) -> tuple[tuple[Record, Found] | None, str]:
    """The shortest replay of ``found`` from a position of ``record``'s game loaded into
    the engine (and what it met), or ``None`` with the engine's reason if it declined.

    The positions tried are the reference's, which alone decides the game's course: the
    one right before the divergent step first (a record of that one step; or of none where
    the engine diverged at a load), then positions 1, 2, 4, 8 ... steps further back, to the
    one after the divergence before (where the engine was resynchronised, or went on);
    between the nearest that diverges the same way and the next that does not, a binary
    search finds the latest."""
    floor = before.step + 1  # the position where play went on after the one before
    end = found.step + 1 if found.loaded else found.step
    # the reference's positions before each step from the floor to the divergent one
    state = record.start if record.start is not None else \
        new_game(record.rules, deck=record.deck, seed=record.seed)
    positions: dict[int, GameState] = {}
    for index, step in enumerate(record.steps[:end]):
        if index >= floor:
            positions[index] = state
        if not step.probe:
            state = apply(state, step.action)
    positions[end] = state

    def attempt(at: int) -> tuple[Record, Found] | None:
        candidate = replace(record, steps=record.steps[at:found.step + 1],
                            start=positions[at])
        again = replay_safely(engine, candidate)
        return (candidate, again) if again is not None and same_divergence(again, found) else None

    latest, missed = end, None
    shown = attempt(end)
    back = 1
    while shown is None and latest > floor:
        missed, latest = latest, max(floor, end - back)
        back *= 2
        shown = attempt(latest)
    if shown is None:
        return None, _replay_declined(engine, replace(record, steps=(), start=positions[end]))
    while missed is not None and missed - latest > 1:  # the latest start that still shows it
        middle = (latest + missed) // 2
        nearer = attempt(middle)
        if nearer is None:
            missed = middle
        else:
            latest, shown = middle, nearer
    return shown, ""


def _replay_declined(engine: Engine, record: Record) -> str:
    """The engine's reason if it declines to load ``record``'s start position, else
    ``""``."""
    try:
        replay_found(engine, record)
    except LoadDeclined as declined:
        return str(declined) or "declined"
    except (RecordError, Broke):  # pragma: no cover - replay_found reports what breaks
        return ""
    return ""
