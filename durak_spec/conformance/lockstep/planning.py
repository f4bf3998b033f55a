"""Planning a game on the reference alone (so that an engine can be sent requests ahead),
the calls the plan expects, and bringing the random draws and the engine back to a step
of the plan."""


from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal, NamedTuple

from durak_spec.conformance.lockstep.attribution import why_illegal
from durak_spec.conformance.lockstep.driver import After, PairedGame
from durak_spec.conformance.lockstep.probes import pick_probe
from durak_spec.conformance.lockstep.record import Step
from durak_spec.engine import advance, legal_actions, play_listed
from durak_spec.model.actions import Action, Cover, Done, Take
from durak_spec.model.state import GameState
from durak_spec.protocol import Report
from durak_spec.protocol.subprocess_engine import Expected


class Planned(NamedTuple):
    step: Step
    after: After | None
    """For an action, the reference's position and legal actions after it."""
    asked: bool = True
    """For a probe, whether the engine is asked it (``PairedGame.probe``: only if illegal)."""
    shown: Report | None = None
    """The reference's report of the position after the step (for a probe: before it)."""


KEEN = 0.9
"""Once the stock is empty, how often a game goes on with an action other than a take or
a done, where there is one: so that random games often reach the end the rules decide
(who goes out when, a draw), which uniform choices almost never reach (a draw: none in
300 random games of each player count; about one in a hundred this way)."""


SEEK_CARDS = 6
"""Once the stock is empty and the players still in hold at most this many cards
together, a lockstep game plays towards a draw where the reference finds one within
:data:`SEEK_STEPS` steps (:func:`towards_draw`): keen choices alone make a draw about one
game in a hundred, none in 200 games of some configurations (the transfer game at six
players), so that an engine that ends a draw otherwise went unnoticed; this way one game in
4 to 20 is a draw (measured over 100 seeded games of each of 11 configurations), and a
broken END-4 is found within 30 games in every configuration where a draw can happen
(not in a race of three or more players, which ends at the first player out)."""

SEEK_STEPS = 40
"""How many steps the search for a draw (:func:`towards_draw`) tries at one position: 40
find draws as often as 100 did (a broken END-4 within 30 games of every configuration
where a draw can happen) at a third of the cost; lockstep in-process then takes about as
long as it did without the search (2.4 s of processor time for 200 games of two players,
against 3.2 s with 100 steps)."""


def towards_draw(state: GameState, legal: Sequence[Action]) -> Action | None:
    """The first action of a way to a draw from ``state`` among ``legal`` (first level) and
    the reference's legal actions after it, found depth first, playing cards before taking
    or passing, within :data:`SEEK_STEPS` steps; ``None`` if none is found. Whether a game
    is over, and drawn, is the reference's decision (its state's outcome)."""
    ways = _depth_first(state, legal, _keen_first, lambda after: after.outcome is None)
    for after, lead in itertools.islice(ways, SEEK_STEPS):
        if after.outcome is not None and after.outcome.is_draw:
            return lead
    return None


def _depth_first(state: GameState, legal: Sequence[Action],
                 order: Callable[[Sequence[Action]], list[Action]],
                 descend: Callable[[GameState], bool]) -> Iterator[tuple[GameState, Action]]:
    """Every position reached from ``state`` by the reference's listed moves, depth first,
    each with the first move of its way (one of ``legal``): the moves of a position in the
    ``order`` given, and the moves after a position only where ``descend`` holds for it."""
    stack: list[tuple[GameState, list[Action], Action | None]] = [(state, order(legal), None)]
    while stack:
        here, todo, first = stack[-1]
        if not todo:
            stack.pop()
            continue
        action = todo.pop(0)
        after = play_listed(here, action)  # listed just before: no need to check it
        lead = action if first is None else first
        yield after, lead
        if descend(after):
            stack.append((after, order(legal_actions(after)), lead))


def _keen_first(legal: Sequence[Action]) -> list[Action]:
    return sorted(legal, key=lambda action: isinstance(action, (Take, Done)))


Style = Literal["uniform", "eager", "short"]
"""How a lockstep game chooses while the stock lasts (:func:`game_style`, :func:`choose`):
uniformly among the legal actions; eagerly (:data:`EAGER_CARDS`); or with short bouts
(:data:`SHORT_BOUTS`). Eager and short games steer towards a hand emptied while the stock
lasts wherever the search finds one (:data:`EMPTY_STEPS`)."""


EAGER_CARDS = 5
"""In an eager game (every other game with fewer than five players, :func:`game_style`),
once somebody in the bout holds at most this many cards while the stock lasts, the players
play cards rather than take or pass, as keenly as once the stock is empty (:data:`KEEN`): so
that a hand emptied while the stock lasts (nobody goes out then, END-2), which uniform
choices almost never reach, is met within some tens of games wherever the stock outlasts the
deal (measured: not once in 200 games of the throw-in game at two players before, the first
at game 4 now)."""


EMPTY_STEPS = 150
"""In an eager or short game, while the stock lasts, how many steps the search for a hand
emptied in the bout in play tries at one position (:func:`towards_empty_hand`). A hand
emptied while the stock lasts (the player draws again and plays on, END-2) needs one player
to play six cards in one bout: the defender covering six attacks, or an attacker throwing in
six. Eager choices alone met it in 14 of the 45 configurations the reference claims within
the first 200 games of each (seed 0), so that an engine that takes that player out of the
game went unnoticed in the others; with the search, in 29: every configuration of two to
four players, two of the nine of five players (with five players the stock holds six cards
after the deal, and the first bout, capped at five cards in most rule sets, usually takes
them all), none of six (the stock is empty after the deal: no such hand can be); with the
short games of five players too (:data:`SHORT_BOUTS`), in 34 (seven of the nine of five
players, one to three games in 200 each); with those games ending their bouts towards one in
the next bout (:func:`towards_next_bout`), in 36: every configuration of two to five
players, the five-player ones in 8 to 18 games of 200 each, the first by game 33. More steps
(2,000 or 20,000 from the start of a bout) found no more in 40 games of the classic game.
Cost: lockstep's own processor time against an engine in another process about 1.4 x (10.9 s
against 15.7 s for 100 games of the transfer game), in-process against the reference 2.4 x
(34 s against 82 s for 1,600 games)."""


def towards_empty_hand(state: GameState, legal: Sequence[Action]) -> Action | None:
    """The first action of a way, within the bout in play, to a position where somebody
    still in the game holds no card while the stock lasts; ``None`` if none is found within
    :data:`EMPTY_STEPS` steps. Best first: the positions where the defender holds the fewest
    cards, then anyone, are tried first (the defender covering every attack is the usual
    way). Not a rule: what happens then (nobody goes out, END-2) is the reference's and the
    engine's decision, compared as ever."""
    count = itertools.count()  # a tie-break that never compares two states
    frontier: list[tuple[tuple[int, int], int, int, GameState, Action | None]] = []
    here, todo, first, depth, steps = state, legal, None, 0, 0
    while True:
        for action in todo:
            steps += 1
            if steps > EMPTY_STEPS:
                return None
            after = play_listed(here, action)  # listed just before: no need to check it
            lead = action if first is None else first
            if after.stock and any(not after.hands[seat] for seat in after.in_game()):
                return lead
            if after.outcome is None and (after.table or not here.table):
                # the bout goes on: a position to try from (its actions listed if it is)
                heapq.heappush(frontier, (_fewest(after), depth - 1, next(count), after, lead))
        if not frontier:
            return None
        _, depth, _, here, first = heapq.heappop(frontier)
        todo = legal_actions(here)


NEXT_BOUT_ENDS = 3
"""In a game with short bouts (:data:`SHORT_BOUTS`), how many ways to end the bout in play
(:func:`towards_next_bout`) are tried at one position, each followed by the search for a
hand emptied in the next bout (:func:`towards_empty_hand`, :data:`EMPTY_STEPS` steps; cut to
50 steps, it found a quarter as many). Measured over 50 short games of each of three
five-player configurations (seed 0, an earlier form that also tried the openings): such a
hand in 3 games without looking ahead, in 18 with 3 ways, in 22 with 8 at 1.6 x the time;
1,000 steps for the search within the bout instead (no looking ahead) found no more than 150
at nine times the time: the hands, not the search, were what was missing. Cost, with every
other five-player game short: in-process lockstep of the reference at five players 2.7 x the
processor time (79 s against 212 s for 100 games of each configuration)."""


def towards_next_bout(state: GameState, legal: Sequence[Action]) -> Action | None:
    """The first action of a short way to end the bout in play (from its cards on the table:
    each covered or taken, then done) after which the search for a hand emptied finds one in
    the next bout (:func:`towards_empty_hand`), the stock still lasting; ``None`` if none of
    the first :data:`NEXT_BOUT_ENDS` such ways leads to one. With five players a bout can
    empty a hand while the stock lasts only if one player plays six cards in it, and the
    stock holds six cards after the deal, a card or two gone with each bout: where the
    bout in play has no such way, the next one can be made to have one by how this one
    ends (who covers with which card, who draws which cards of the reference's stock).
    Not a rule: what happens then is the reference's and the engine's decision, compared as
    ever."""
    tried = 0
    ways = _depth_first(state, legal, _short_moves,
                        lambda after: after.outcome is None and bool(after.stock and after.table))
    for after, lead in ways:
        if after.outcome is not None or not after.stock or after.table:
            continue  # the game is over, the stock gone, or the bout goes on (descended)
        tried += 1
        if towards_empty_hand(after, legal_actions(after)) is not None:
            return lead
        if tried >= NEXT_BOUT_ENDS:
            return None
    return None


def _short_moves(legal: Sequence[Action]) -> list[Action]:
    """The moves of a short bout (:func:`towards_next_bout`) among ``legal``: cover or
    take; else the first attacker's done."""
    defend: list[Action] = [action for action in legal if isinstance(action, (Cover, Take))]
    done: list[Action] = [action for action in legal if isinstance(action, Done)]
    return defend or done[:1]


def _covered_so_far(state: GameState) -> bool:
    """Whether at most one attack card of the bout in play is uncovered: where the search
    for an emptied hand (:func:`towards_empty_hand`) finds one in an eager game, nearly
    always (measured over 100 seeded games of each of two to five players: it succeeded in 1
    of the 2,400 searches from positions with two or more attack cards uncovered, the
    defender's hand then too big for the attacks still allowed). A short game searches
    there too: its bouts are few, and a way found from an opening of several cards
    (multi_card_opening) goes on from two or more uncovered (not once in 200 games of
    source-b-transfer at five players without that, 11 times with it)."""
    uncovered = 0
    for _, cover in state.table:
        uncovered += cover is None
    return uncovered <= 1


def _fewest(state: GameState) -> tuple[int, int]:
    defender = len(state.hands[state.defender]) if state.defender is not None else 99
    return defender, min(len(state.hands[seat]) for seat in state.in_game())


def game_style(index: int, players: int) -> Style:
    """How game ``index`` of a configuration of ``players`` chooses while the stock lasts:
    every other game uniformly, so that half the games explore without a bias; the others
    eagerly (:data:`EAGER_CARDS`), or with :data:`SHORT_PLAYERS` or more players with short
    bouts (:data:`SHORT_BOUTS`)."""
    if index % 2 == 0:
        return "uniform"
    return "short" if players >= SHORT_PLAYERS else "eager"


SHORT_PLAYERS = 5
"""From how many players on the games that are not uniform have short bouts instead of eager
ones (:func:`game_style`): where the stock holds six cards or none after the deal (with six,
the styles play alike: they differ only while the stock lasts). With five players, short
games meet a hand emptied while the stock lasts far more often than eager ones
(:func:`towards_next_bout`; measured over the nine configurations, seed 0: 112 of the 900
short games, 3 of the 450 eager ones before, when one game in four was eager and one short);
one game in four short and one eager met one in 3 to 13 games of 200, the first as late as
game 71. With fewer players the eager games alone meet a hand emptied while the stock lasts
in every configuration within 200 games, and short bouts there cost much: the stock lasts
many bouts, each searched (in-process lockstep of the reference took 201 s of processor time
instead of 82 s for 1,600 games of two to five players with short games at every player
count)."""


SHORT_BOUTS = 0.9
"""In a game with short bouts (every other game with five or six players,
:func:`game_style`), while the stock lasts and no hand emptied in this bout or the next is
in sight (:func:`towards_empty_hand`, :func:`towards_next_bout`), how often the players end
the bout (take, or done) where they may: so that the stock outlasts the first bouts, each a
chance for a hand emptied while it lasts (END-2). With five players the stock holds six
cards after the deal and the first bout, capped at five cards in most rule sets, can empty
no hand; eager bouts take the stock with them. Measured over the first 200 games (seed 0) of
each configuration the reference claims: with short bouts (one game in four then), such a
hand in 7 of the 9 five-player configurations instead of 2."""


def choose(state: GameState, legal: Sequence[Action], rng: random.Random,
           style: Style = "uniform") -> Action:
    """The random action a lockstep game plays next among ``legal``: while the stock
    lasts, as the game's ``style`` says (:data:`Style`; an eager or short game first towards
    a hand emptied in the bout where the search finds one, :func:`towards_empty_hand`);
    after it, keen to play cards out (:data:`KEEN`), and towards a draw once few cards are
    left (:data:`SEEK_CARDS`). Not a rule: how the games explore; the same position and
    draws give the same action, so a game's course depends on its seed alone."""
    if style != "uniform" and state.stock and (style == "short" or _covered_so_far(state)):
        emptying = towards_empty_hand(state, legal)
        if emptying is not None:
            return emptying
    if not state.stock:
        if sum(len(state.hands[seat]) for seat in state.in_game()) <= SEEK_CARDS:
            drawn = towards_draw(state, legal)
            if drawn is not None:
                return drawn
    elif style == "short":
        ahead = towards_next_bout(state, legal) if state.table else None
        if ahead is not None:
            return ahead
        ends = [action for action in legal if isinstance(action, (Take, Done))]
        if ends and rng.random() < SHORT_BOUTS:
            return rng.choice(ends)
        return rng.choice(legal)
    elif not (style == "eager" and state.table and
              min(len(state.hands[seat]) for seat in state.in_game()) <= EAGER_CARDS):
        return rng.choice(legal)
    keen = [action for action in legal if not isinstance(action, (Take, Done))]
    if keen and rng.random() < KEEN:
        return rng.choice(keen)
    return rng.choice(legal)


def plan_game(game: PairedGame, rng: random.Random, *, max_actions: int, probe_rate: float,
              style: Style = "uniform") -> tuple[list[Planned], bool]:
    """The steps of one random game, chosen on the reference alone (the engine's answers
    never change its course); and whether the game is cut at ``max_actions``."""
    state, legal = game.state, game.legal
    shown = game.shown(state)
    plan: list[Planned] = []
    played = 0
    while legal:
        if played >= max_actions:
            return plan, True
        if probe_rate > 0 and rng.random() < probe_rate:
            probe = pick_probe(state, legal, rng)
            if probe is not None:
                plan.append(Planned(Step(probe, probe=True), None,
                                     why_illegal(state, probe) is not None, shown))
        action = choose(state, legal, rng, style)
        played += 1
        step = advance(state, action)
        state = step.state
        legal = legal_actions(state)
        shown = Report.of(state)
        plan.append(Planned(Step(action), (state, legal, shown, step.events), shown=shown))
    return plan, False


def expected_calls(plan: Sequence[Planned]) -> list[Expected]:
    """The engine's calls that play ``plan`` if the engine agrees all along: a probe is
    rejected, then its report asked; an action is accepted, its report and legal actions
    asked."""
    calls: list[Expected] = []
    for step, after, asked, shown in plan:
        if after is not None:
            legal = after[1]
            calls += (Expected("apply", step.action, report=shown, actions=legal,
                               events=after[3]),
                      Expected("report", report=shown), Expected("legal", actions=legal))
        elif asked:
            calls += (Expected("apply", step.action, accepted=False),
                      Expected("report", report=shown))
    return calls

def redraw(rng: random.Random, draws: Any, first: tuple[GameState, tuple[Action, ...]],
            played: Sequence[Planned], probe_rate: float, style: Style = "uniform") -> None:
    """Set ``rng`` to where one-step-at-a-time play would have it after the ``played``
    steps of a plan: from its state ``draws`` before the plan, the same draws again (the
    positions are the plan's, so no rule is asked again)."""
    rng.setstate(draws)
    state, legal = first
    for _, after, _, _ in played:
        if after is None:  # a probe: drawn with the action that follows it
            continue
        if probe_rate > 0 and rng.random() < probe_rate:
            pick_probe(state, legal, rng)
        choose(state, legal, rng, style)
        state, legal = after[0], after[1]


def restore(game: PairedGame, played: Sequence[Planned], loaded: tuple[GameState, int] | None
             ) -> None:
    """Bring the engine back to its position after the ``played`` steps of a plan, undoing
    the requests it was sent ahead: its game begun again as it was (the start, or the last
    load) and the steps it was asked since asked again, their answers already compared."""
    engine = game.engine
    if loaded is None:
        game.call("start", lambda: engine.start(game.rules, game.deck, game.seed))
        since = played
    else:
        state, before = loaded
        game.call("load", lambda: engine.load(state))
        since = played[before:]
    for step, _, asked, _ in since:
        if asked:
            action = step.action
            game.call("apply", lambda: engine.apply(action))  # noqa: B023 - called at once
