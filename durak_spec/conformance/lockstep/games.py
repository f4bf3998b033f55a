"""One random game in lockstep: planned, played, every divergence met recorded, the
engine resynchronised where it can load."""


from __future__ import annotations

import random
from typing import Any

from durak_spec.conformance.lockstep.differences import Found
from durak_spec.conformance.lockstep.driver import Broke, PairedGame
from durak_spec.conformance.lockstep.planning import (
    Style,
    choose,
    expected_calls,
    plan_game,
    redraw,
    restore,
)
from durak_spec.conformance.lockstep.probes import pick_probe
from durak_spec.conformance.lockstep.record import Record, Step
from durak_spec.conformance.lockstep.results import cause_key
from durak_spec.model.state import GameState
from durak_spec.protocol import Engine

DEFAULT_MAX_ACTIONS = 2000
DEFAULT_PROBE_RATE = 0.2
MAX_RESYNCS = 20

def play_game(engine: Engine, record: Record, rng: random.Random, *, max_actions: int,
               probe_rate: float, resync: bool = False, style: Style = "uniform"
               ) -> tuple[Record, list[Found], bool, str]:
    """Play one random game; return its record so far, the divergences met, whether
    the game was cut at ``max_actions``, and the engine's reason if it declined a load.
    ``style``: how the game's players choose while the stock lasts
    (:data:`~durak_spec.conformance.lockstep.planning.Style`).
    With ``resync``, a divergence is followed by loading the reference's position into
    the engine, and the game goes on (at most :data:`MAX_RESYNCS` times); else, or where
    the engine declines that load (:class:`~durak_spec.protocol.LoadDeclined`), the game
    ends at the divergence. A difference of legal actions alone needs no load: the reports
    agreed, so both sides are in the same position and the game goes on (a cause met
    again in the same game is not counted again). An engine that breaks (fails or raises)
    ends the game.

    The steps are chosen on the reference alone (:func:`plan_game`) as long as nothing but a
    load follows a divergence, so that an engine that can write requests ahead
    (``SubprocessEngine.expect``) works while this side checks. After a difference of
    legal actions the course depends on the engine's answers (the game goes on with an
    action both sides list): from there the game is played one step at a time, the same
    seeded draws as ever, once the engine is brought back to where it was (its game
    begun again by the same start or load and its steps since played again, since it has
    been sent the requests of steps that will not be played)."""
    game = PairedGame(engine, record.rules, record.deck, record.seed)
    steps: list[Step] = []
    founds: list[Found] = []
    listed: set[tuple[Any, ...]] = set()  # the causes of legal-action differences met
    loaded: list[tuple[GameState, int]] = []  # the last load: the position, the steps before

    def done(cut: bool = False) -> tuple[Record, list[Found], bool, str]:
        return Record(record.rules, record.deck, record.seed, tuple(steps),
                      record.profile), founds, cut, game.declined

    def met(found: Found, step: int) -> bool:
        """Record a divergence; whether the game goes on (resynchronised)."""
        if found.kind == "legal actions":  # the same position on both sides: go on
            if cause_key(found) not in listed:
                listed.add(cause_key(found))
                founds.append(Found(found.kind, found.differences, step, found.failure))
            return True
        founds.append(Found(found.kind, found.differences, step, found.failure))
        if not resync or len(founds) > MAX_RESYNCS:
            return False
        again = game.resync()
        if game.declined:
            return False
        if again is not None:
            founds.append(Found(again.kind, again.differences, step, again.failure,
                                 loaded=True))
            return False
        loaded[:] = [(game.state, len(steps))]
        return True

    # The game's course is the reference's alone until a difference of legal actions:
    # planned first, so that an engine that can write requests ahead works meanwhile.
    draws = rng.getstate()
    first = (game.state, game.legal)
    plan, cut = plan_game(game, rng, max_actions=max_actions, probe_rate=probe_rate,
                          style=style)
    expect = getattr(engine, "expect", None)
    try:
        found = game.start()
        if found is not None and not met(found, -1):
            return done()
        played = position = 0
        if game.common is None:
            if expect is not None:
                expect(expected_calls(plan))
            while position < len(plan):
                step, after, _, _ = plan[position]
                position += 1
                steps.append(step)
                played += not step.probe
                found = game.probe(step.action) if step.probe else game.play(step.action,
                                                                               after)
                if found is not None:
                    if not met(found, len(steps) - 1):
                        return done()
                    if game.common is not None:  # the course now depends on the engine
                        break
                    if expect is not None:  # resynchronised: the rest of the plan
                        expect(expected_calls(plan[position:]))
            else:
                return done(cut=cut)
            if expect is not None:
                restore(game, plan[:position], loaded[0] if loaded else None)
        redraw(rng, draws, first, plan[:position], probe_rate, style)
        while game.legal:
            if played >= max_actions:
                return done(cut=True)
            if probe_rate > 0 and rng.random() < probe_rate:
                probe = pick_probe(game.state, game.legal, rng)
                if probe is not None and probe not in game.extra:  # not a known difference
                    steps.append(Step(probe, probe=True))
                    found = game.probe(probe)
                    if found is not None and not met(found, len(steps) - 1):
                        return done()
            # after a difference of legal actions, an action both sides allow (else the
            # game cannot go on)
            choices = game.legal if game.common is None else game.common
            if not choices:
                return done()
            action = choose(game.state, choices, rng, style)
            steps.append(Step(action))
            played += 1
            found = game.play(action)
            if found is not None and not met(found, len(steps) - 1):
                return done()
    except Broke as broke:
        found = broke.found
        founds.append(Found(found.kind, found.differences, len(steps) - 1, found.failure))
    return done()
