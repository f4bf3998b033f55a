"""The specification's scenarios as portable test vectors (layer 6).

Every example of the feature files (:mod:`durak_spec.spec.gherkin`, each outline row once)
becomes a :class:`~durak_spec.spec.vector_format.Vector`: its number, title, rule IDs and
sources, its rules, its players and its steps in the closed vocabulary of
:mod:`durak_spec.spec.vector_format`. Nothing is recorded from an engine: each step is
matched to its one definition in the step library, exactly as the scenario runner does,
and

* a ``Given`` step is *run*: its definition describes the position, here on a
  :class:`_Describer` instead of a game, so the vectors start from the very position the
  scenarios load (:meth:`~durak_spec.game.positions.Position.build`);
* a ``When`` or ``Then`` step is *translated* by the translator registered for its
  definition (:data:`TRANSLATORS`, keyed by the definition's function name), from the
  arguments its pattern parsed: the moves become ``act`` or ``deal`` items, a
  ``Then it is rejected by R`` the verdict of the move before it, every other ``Then`` an
  expectation.

A step definition without a translator is a failure of :func:`translate` (a test holds the
translators to the step library); a step the vocabulary cannot say is listed in
:data:`NOT_PORTABLE` with why, and its example is left out of the vectors and listed in the
document's ``not_portable``.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, NoReturn, TypeVar

import msgspec

from durak_spec.core.cards import DECK, Card, Suit
from durak_spec.core.errors import InputError, NotationError
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.core.version import __version__
from durak_spec.game.persist import state_to_json
from durak_spec.game.positions import (
    Position,
    PositionError,
    parse_card_list,
    parse_names,
    parse_one_card,
    parse_table,
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
from durak_spec.model.rules import AXES, PROFILES, Axis, RuleSet
from durak_spec.spec import vector_format as vf
from durak_spec.spec.gherkin import Example, read_specification
from durak_spec.spec.gherkin import Step as ExampleStep
from durak_spec.spec.plugin import StepDefinition, step_definitions
from durak_spec.spec.steps import STEP_MODULES
from durak_spec.spec.steps.then_outcome import CHANCE_SEEDS

__all__ = [
    "NOT_PORTABLE",
    "PINNED",
    "TRANSLATORS",
    "Translation",
    "VectorError",
    "build_document",
    "digest",
    "translate",
    "translate_all",
]

_T = TypeVar("_T")


class VectorError(InputError):
    """A feature's step cannot be turned into a vector (the message names the example)."""

    code = "vectors"


class _NotPortable(Exception):
    """The step says what the vocabulary cannot."""


NOT_PORTABLE: Final = MappingProxyType({
    "when_players_set_up": "it asks whether a rule set for that many players may exist "
                           "(DEAL-3), a question of the rule set, not of an engine: no "
                           "protocol request answers it",
})
"""The step definitions whose steps the vocabulary cannot say, with why."""


# -- the scenario being translated -------------------------------------------------------------


@dataclass
class _Describer:
    """What a ``Given`` step definition needs of a game (``describe``, ``read``, ``fail``,
    ``started``), recording the position instead of loading it anywhere."""

    number: str
    position: Position = field(default_factory=Position)
    started: bool = False
    step: str = ""

    def fail(self, message: str) -> NoReturn:
        raise VectorError(f"{self.number}: step \"{self.step}\": {message}")

    def read(self, parse: Callable[..., _T], *args: object) -> _T:
        try:
            return parse(*args)
        except (PositionError, NotationError) as error:
            self.fail(str(error))

    def describe(self, change: Callable[[Position], Position]) -> None:
        if self.started:
            self.fail("Given steps come before When and Then")
        self.position = self.read(change, self.position)


@dataclass
class Translation:
    """The vector of one example, while its steps are translated."""

    game: _Describer
    steps: list[vf.Step] = field(default_factory=list)
    rules: RuleSet | None = None
    names: tuple[str, ...] = ()
    text: str = ""
    moves: list[int] = field(default_factory=list)
    """The indices in ``steps`` of the moves of the last When step (or deal)."""

    def fail(self, message: str) -> NoReturn:
        self.game.step = self.text
        self.game.fail(message)

    def read(self, parse: Callable[..., _T], *args: object) -> _T:
        self.game.step = self.text
        return self.game.read(parse, *args)

    def begin(self) -> None:
        """At the first When or Then: the described position is where the game starts."""
        if self.game.started:
            return
        self._resolve()
        try:
            state = self.game.position.build()
        except PositionError as error:
            self.fail(f"the position described by the Given steps is impossible: {error}")
        self.game.started = True
        self.steps.append(vf.Load(text=self.text, state=state_to_json(state)))

    def _resolve(self) -> None:
        try:
            rules, names = self.game.position.rule_set(), self.game.position.names()
        except PositionError as error:
            self.fail(str(error))
        if self.rules is None:
            self.rules, self.names = rules, names

    def deal(self, deck: Sequence[Card], after_game: bool = False) -> None:
        self._resolve()
        self.game.started = True
        self.moves = [len(self.steps)]
        self.steps.append(vf.Deal(text=self.text, deck=[str(c) for c in deck], seed=0,
                                  after_game=after_game))

    def seat(self, name: str) -> int:
        self.begin()
        if name not in self.names:
            self.fail(f"{name} is not a player: the players are {', '.join(self.names)}")
        return self.names.index(name)

    def act(self, *actions: Action) -> None:
        self.begin()
        self.moves = []
        for action in actions:
            self.moves.append(len(self.steps))
            self.steps.append(vf.Act(text=self.text, action=action.to_json()))

    def add(self, step: vf.Step) -> None:
        self.begin()
        self.steps.append(step)

    def verdict(self, accepted: bool, rule: str | None) -> None:
        """``Then it is accepted / rejected``: the verdict of the last move made."""
        if not self.moves:
            self.fail("no move has been made yet")
        if rule is not None and rule not in load_rule_index():
            self.fail(f"{rule} is not a rule of the rule index")
        last = self.steps[self.moves[-1]]
        if not isinstance(last, vf.Act | vf.Deal):
            self.fail("the last move cannot be rejected")
        if not accepted:
            last.verdict, last.rule = "rejected", rule


Translator = Callable[..., None]
_STEPS: Final = "_vector_steps"


def _translates(*names: str) -> Callable[[Translator], Translator]:
    """Mark a function as the translator of these step definitions (collected below into
    :data:`TRANSLATORS`)."""

    def mark(function: Translator) -> Translator:
        setattr(function, _STEPS, names)
        return function
    return mark


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _mode(t: Translation, neg: str | None, exactly: str | None) -> vf.Mode:
    if neg and exactly:
        t.fail("'may not ... exactly' says nothing clear: drop 'exactly'")
    return "none" if neg else "exactly" if exactly else "each"


# -- When --------------------------------------------------------------------------------------


@_translates("when_dealt_stacked")
def _dealt_stacked(t: Translation, again: str | None, docstring: str) -> None:
    after = bool(again) and t.game.started
    position = t.game.position.rules_only() if again else t.game.position
    deck = t.read(position.stacked_deck, docstring)
    t.deal(deck, after_game=after)


@_translates("when_dealt_in_order")
def _dealt_in_order(t: Translation, docstring: str) -> None:
    t.deal(t.read(parse_card_list, docstring))


@_translates("when_dealt_bad_deck")
def _dealt_bad_deck(t: Translation, missing: str | None, twice: str | None) -> None:
    card = t.read(parse_one_card, missing or twice)
    t.deal([c for c in DECK if c != card] if missing else [*DECK, card])


@_translates("when_players_set_up")
def _players_set_up(t: Translation, **_: object) -> None:
    raise _NotPortable(NOT_PORTABLE["when_players_set_up"])


@_translates("when_open")
def _open(t: Translation, name: str, cards: str) -> None:
    t.act(Open(t.seat(name), t.read(parse_card_list, cards)))


@_translates("when_throw_in")
def _throw_in(t: Translation, name: str, cards: str) -> None:
    seat = t.seat(name)
    t.act(*(ThrowIn(seat, card) for card in t.read(parse_card_list, cards)))


@_translates("when_cover")
def _cover(t: Translation, name: str, pairs: str) -> None:
    seat = t.seat(name)
    moves: list[Action] = []
    for pair in pairs.replace(",", " and ").split(" and "):
        if pair.strip():
            attack, card = pair.strip().split(" with ")
            moves.append(Cover(seat, t.read(parse_one_card, attack),
                               t.read(parse_one_card, card)))
    t.act(*moves)


@_translates("when_transfer")
def _transfer(t: Translation, name: str, card: str) -> None:
    t.act(Transfer(t.seat(name), t.read(parse_one_card, card)))


@_translates("when_show")
def _show(t: Translation, name: str, card: str) -> None:
    t.act(Transfer(t.seat(name), t.read(parse_one_card, card), show=True))


@_translates("when_take")
def _take(t: Translation, name: str) -> None:
    t.act(Take(t.seat(name)))


@_translates("when_done")
def _done(t: Translation, names: str) -> None:
    t.act(*(Done(t.seat(name)) for name in t.read(parse_names, names)))


@_translates("when_all_done")
def _all_done(t: Translation) -> None:
    t.begin()
    t.moves = [len(t.steps)]
    t.steps.append(vf.AllDone(text=t.text))


@_translates("when_exchange")
def _exchange(t: Translation, name: str) -> None:
    t.act(ExchangeTrump(t.seat(name)))


# -- Then: verdicts and what a player may do ---------------------------------------------------


@_translates("then_accepted")
def _accepted(t: Translation) -> None:
    t.begin()
    t.verdict(True, None)


@_translates("then_rejected")
def _rejected(t: Translation, rule: str | None) -> None:
    t.begin()
    t.verdict(False, rule)


@_translates("then_may_open")
def _may_open(t: Translation, name: str, neg: str | None, cards: str,
              together: str | None) -> None:
    t.add(vf.MayOpen(text=t.text, seat=t.seat(name),
                     cards=_cards(t.read(parse_card_list, cards)),
                     together=bool(together), allowed=not neg))


@_translates("then_may_open_any")
def _may_open_any(t: Translation, name: str) -> None:
    t.add(vf.MayOpenAny(text=t.text, seat=t.seat(name)))


@_translates("then_may_throw_in")
def _may_throw_in(t: Translation, name: str, neg: str | None, exactly: str | None,
                  cards: str) -> None:
    t.add(vf.MayThrowIn(text=t.text, seat=t.seat(name), mode=_mode(t, neg, exactly),
                        cards=_cards(t.read(parse_card_list, cards))))


@_translates("then_may_not_throw_in")
def _may_not_throw_in(t: Translation, name: str) -> None:
    t.add(vf.MayThrowIn(text=t.text, seat=t.seat(name), mode="exactly", cards=[]))


@_translates("then_may_cover")
def _may_cover(t: Translation, name: str, neg: str | None, attack: str, exactly: str | None,
               cards: str) -> None:
    t.add(vf.MayCover(text=t.text, seat=t.seat(name), mode=_mode(t, neg, exactly),
                      attack=str(t.read(parse_one_card, attack)),
                      cards=_cards(t.read(parse_card_list, cards))))


@_translates("then_may_not_cover")
def _may_not_cover(t: Translation, name: str, attack: str) -> None:
    t.add(vf.MayCover(text=t.text, seat=t.seat(name), mode="exactly", cards=[],
                      attack=str(t.read(parse_one_card, attack))))


@_translates("then_may_transfer")
def _may_transfer(t: Translation, name: str, neg: str | None, cards: str) -> None:
    t.add(vf.MayTransfer(text=t.text, seat=t.seat(name), mode="none" if neg else "each",
                         cards=_cards(t.read(parse_card_list, cards)), by="playing"))


@_translates("then_may_not_transfer")
def _may_not_transfer(t: Translation, name: str) -> None:
    t.add(vf.MayTransfer(text=t.text, seat=t.seat(name), mode="exactly", cards=[], by="any"))


@_translates("then_may_show")
def _may_show(t: Translation, name: str, neg: str | None, card: str) -> None:
    t.add(vf.MayTransfer(text=t.text, seat=t.seat(name), mode="none" if neg else "each",
                         cards=[str(t.read(parse_one_card, card))], by="showing"))


@_translates("then_may_take")
def _may_take(t: Translation, name: str, neg: str | None) -> None:
    t.add(vf.May(text=t.text, seat=t.seat(name), move="take", allowed=not neg))


@_translates("then_may_say_done")
def _may_say_done(t: Translation, name: str, neg: str | None) -> None:
    t.add(vf.May(text=t.text, seat=t.seat(name), move="done", allowed=not neg))


@_translates("then_may_exchange")
def _may_exchange(t: Translation, name: str, neg: str | None) -> None:
    t.add(vf.May(text=t.text, seat=t.seat(name), move="exchange", allowed=not neg))


@_translates("then_legal_moves")
def _legal_moves(t: Translation, name: str, datatable: list[list[str]]) -> None:
    seat = t.seat(name)
    actions = [t.read(parse_action, row[0], seat) for row in datatable if row and row[0]]
    t.add(vf.LegalMoves(text=t.text, seat=seat, actions=[a.to_json() for a in actions]))


@_translates("then_only_player_acts")
def _only_acts(t: Translation, name: str) -> None:
    t.add(vf.OnlyActs(text=t.text, seat=t.seat(name)))


@_translates("then_nobody_acts")
def _nobody_acts(t: Translation) -> None:
    t.add(vf.NobodyActs(text=t.text))


@_translates("then_playable")
def _playable(t: Translation, name: str, cards: str) -> None:
    t.add(vf.Playable(text=t.text, seat=t.seat(name),
                      cards=_cards(t.read(parse_card_list, cards))))


@_translates("then_plays_no_card")
def _plays_no_card(t: Translation, name: str) -> None:
    t.add(vf.Playable(text=t.text, seat=t.seat(name), cards=[]))


# -- Then: the position ------------------------------------------------------------------------


@_translates("then_hand")
def _hand(t: Translation, name: str, cards: str) -> None:
    t.add(vf.Hand(text=t.text, seat=t.seat(name), mode="exactly",
                  cards=_cards(t.read(parse_card_list, cards))))


@_translates("then_hand_has")
def _hand_has(t: Translation, name: str, cards: str) -> None:
    t.add(vf.Hand(text=t.text, seat=t.seat(name), mode="each",
                  cards=_cards(t.read(parse_card_list, cards))))


@_translates("then_hand_lacks")
def _hand_lacks(t: Translation, name: str, cards: str) -> None:
    t.add(vf.Hand(text=t.text, seat=t.seat(name), mode="none",
                  cards=_cards(t.read(parse_card_list, cards))))


@_translates("then_hand_size")
def _hand_size(t: Translation, name: str, count: str) -> None:
    t.add(vf.HandSize(text=t.text, seat=t.seat(name), count=int(count)))


@_translates("then_hand_empty")
def _hand_empty(t: Translation, name: str) -> None:
    t.add(vf.HandSize(text=t.text, seat=t.seat(name), count=0))


@_translates("then_each_hand_size")
def _each_hand_size(t: Translation, count: str) -> None:
    t.add(vf.EachHandSize(text=t.text, count=int(count)))


@_translates("then_trump_count")
def _trump_count(t: Translation, count: str) -> None:
    t.add(vf.TrumpsHeld(text=t.text, count=int(count)))


@_translates("then_table")
def _table(t: Translation, pairs: str) -> None:
    table = t.read(parse_table, pairs)
    t.add(vf.Table(text=t.text, pairs=[(str(p.attack), None if p.cover is None
                                         else str(p.cover)) for p in table]))


@_translates("then_table_empty")
def _table_empty(t: Translation) -> None:
    t.add(vf.Table(text=t.text, pairs=[]))


@_translates("then_stock_size")
def _stock_size(t: Translation, count: str) -> None:
    t.add(vf.Stock(text=t.text, count=int(count)))


@_translates("then_stock_empty")
def _stock_empty(t: Translation) -> None:
    t.add(vf.Stock(text=t.text, count=0))


@_translates("then_discard_size")
def _discard_size(t: Translation, count: str) -> None:
    t.add(vf.Discard(text=t.text, count=int(count)))


@_translates("then_trump")
def _trump(t: Translation, suit: str) -> None:
    t.add(vf.Trump(text=t.text, suit=Suit.parse(suit).symbol))


@_translates("then_face_up")
def _face_up(t: Translation, card: str) -> None:
    t.add(vf.FaceUp(text=t.text, card=str(t.read(parse_one_card, card))))


@_translates("then_no_face_up")
def _no_face_up(t: Translation) -> None:
    t.add(vf.FaceUp(text=t.text, card=None))


@_translates("then_roles")
def _roles(t: Translation, attacker: str, defender: str, later: str | None) -> None:
    t.add(vf.Roles(text=t.text, attacker=t.seat(attacker), defender=t.seat(defender),
                   bout_over=bool(later)))


# -- Then: how bouts and games end -------------------------------------------------------------


@_translates("then_beaten_off")
def _beaten_off(t: Translation) -> None:
    t.add(vf.BeatenOff(text=t.text))


@_translates("then_taken")
def _taken(t: Translation, name: str) -> None:
    t.add(vf.Taken(text=t.text, seat=t.seat(name)))


@_translates("then_bout_goes_on")
def _bout_goes_on(t: Translation) -> None:
    t.add(vf.BoutGoesOn(text=t.text))


@_translates("then_durak")
def _durak(t: Translation, name: str) -> None:
    t.add(vf.Durak(text=t.text, seat=t.seat(name)))


@_translates("then_draw")
def _draw(t: Translation) -> None:
    t.add(vf.DrawGame(text=t.text))


@_translates("then_no_durak")
def _no_durak(t: Translation) -> None:
    t.add(vf.NoDurak(text=t.text))


@_translates("then_game_goes_on")
def _game_goes_on(t: Translation) -> None:
    t.add(vf.GameGoesOn(text=t.text))


@_translates("then_out")
def _out(t: Translation, names: str) -> None:
    t.add(vf.Out(text=t.text, seats=[t.seat(n) for n in t.read(parse_names, names)]))


@_translates("then_in_game")
def _in_game(t: Translation, name: str) -> None:
    t.add(vf.InGame(text=t.text, seat=t.seat(name)))


@_translates("then_finishing_order")
def _finishing_order(t: Translation, order: str) -> None:
    groups = [[t.seat(n) for n in t.read(parse_names, group.removesuffix(" together"))]
              for group in order.replace(", then ", " then ").split(" then ") if group]
    t.add(vf.FinishingOrder(text=t.text, groups=groups))


@_translates("then_won_race")
def _won_race(t: Translation, names: str) -> None:
    t.add(vf.FirstOut(text=t.text, over=True,
                      seats=[t.seat(n) for n in t.read(parse_names, names)]))


@_translates("then_first_out")
def _first_out(t: Translation, names: str) -> None:
    t.add(vf.FirstOut(text=t.text, seats=[t.seat(n) for n in t.read(parse_names, names)]))


@_translates("then_chance_picks")
def _chance_picks(t: Translation) -> None:
    t.add(vf.FirstAttackerBySeed(text=t.text, seeds=len(CHANCE_SEEDS), seat=None))


@_translates("then_first_whatever_seed")
def _first_whatever_seed(t: Translation, name: str) -> None:
    t.add(vf.FirstAttackerBySeed(text=t.text, seeds=len(CHANCE_SEEDS), seat=t.seat(name)))


# -- Then: what the players see ----------------------------------------------------------------


@_translates("then_known_to_everyone")
def _known(t: Translation, name: str, exactly: str | None, cards: str) -> None:
    t.add(vf.Known(text=t.text, seat=t.seat(name), mode="exactly" if exactly else "each",
                   cards=_cards(t.read(parse_card_list, cards))))


@_translates("then_known_to_nobody")
def _known_to_nobody(t: Translation, name: str) -> None:
    t.add(vf.Known(text=t.text, seat=t.seat(name), mode="exactly", cards=[]))


def _count(t: Translation, text: str) -> int | None:
    if text.lower() in ("empty", "no cards"):
        return 0
    words = text.split()
    if len(words) == 2 and words[0].isdigit() and words[1] in ("card", "cards"):
        return int(words[0])
    return None


@_translates("then_sees")
def _sees(t: Translation, name: str, datatable: list[list[str]]) -> None:
    """A view, row by row, as the expectations on the report it is made of (VIEW-1, 2)."""
    viewer = t.seat(name)
    for row in datatable:
        if len(row) != 2 or not row[0].strip():
            t.fail(f"a row of {name}'s view has two cells, not {row}")
        key, value = row[0].strip(), row[1].strip()
        lowered = key.lower()
        count = _count(t, value)
        if lowered in ("stock", "discard pile"):
            if count is None:
                t.fail(f"the {key} row says {value!r}: write 'empty' or a number of cards")
            t.add(vf.Stock(text=t.text, count=count) if lowered == "stock"
                  else vf.Discard(text=t.text, count=count))
        elif lowered == "face-up":
            t.add(vf.FaceUp(text=t.text, card=None if value.lower() == "none"
                            else str(t.read(parse_one_card, value))))
        elif lowered == "trump":
            t.add(vf.Trump(text=t.text, suit=Suit.parse(value).symbol))
        elif lowered == "table":
            pairs = [] if value.lower() == "empty" else t.read(parse_table, value)
            t.add(vf.Table(text=t.text, pairs=[(str(p.attack), None if p.cover is None
                                                 else str(p.cover)) for p in pairs]))
        else:
            _sees_hand(t, viewer, key, value)


def _sees_hand(t: Translation, viewer: int, key: str, value: str) -> None:
    seat = t.seat(key)
    if value.lower() == "out":
        t.add(vf.Out(text=t.text, seats=[seat]))
        return
    size, _, known = value.partition(",")
    count = _count(t, size.strip())
    known = known.strip()
    if count is not None:
        t.add(vf.InGame(text=t.text, seat=seat))
        t.add(vf.HandSize(text=t.text, seat=seat, count=count))
        if seat != viewer and count:
            cards = (t.read(parse_card_list, known.removesuffix(" known"))
                     if known.endswith(" known") else ())
            t.add(vf.Known(text=t.text, seat=seat, mode="exactly", cards=_cards(cards)))
        elif known:
            t.fail(f"{key}'s row says {value!r}: a player's own cards are all known to them")
    elif seat == viewer:
        t.add(vf.InGame(text=t.text, seat=seat))
        t.add(vf.Hand(text=t.text, seat=seat, mode="exactly",
                      cards=_cards(t.read(parse_card_list, value))))
    else:
        t.fail(f"{key}'s row says {value!r}: write a number of cards, with the cards "
               "everyone knows ('6 cards, 9♦ known'), or 'out'")


TRANSLATORS: Final[Mapping[str, Translator]] = MappingProxyType({
    name: function for function in tuple(globals().values())
    for name in getattr(function, _STEPS, ())})
"""Per step definition (its function's name), how its step becomes vector items."""


# -- examples ----------------------------------------------------------------------------------


def _definitions() -> list[StepDefinition]:
    for name in STEP_MODULES:
        importlib.import_module(name)
    return step_definitions(*STEP_MODULES)


def _function_name(definition: StepDefinition) -> str:
    return str(getattr(definition.function, "__name__", "?"))


def translate(example: Example, features: Path,
              dependencies: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
              definitions: Sequence[StepDefinition] | None = None
              ) -> vf.Vector | vf.NotPortable:
    """One example as a vector, or why it cannot be one. Raises :class:`VectorError` for a
    step no definition matches or one the position refuses."""
    defs = list(definitions) if definitions is not None else _definitions()
    t = Translation(_Describer(example.number))
    for step in example.steps:
        t.text = f"{step.keyword} {step.text}"
        t.game.step = t.text
        definition = next((d for d in defs if d.matches(step.type, step.text)), None)
        if definition is None:
            t.fail("no step definition matches this step")
        arguments = _arguments(definition, step)
        if step.type == "given":
            definition.function(game=t.game, **arguments)
            continue
        translator = TRANSLATORS.get(_function_name(definition))
        if translator is None:
            t.fail(f"the step definition {definition.name} has no vector translator")
        try:
            translator(t, **arguments)
        except _NotPortable as why:
            return vf.NotPortable(example=example.number, title=example.name, step=t.text,
                                  reason=str(why))
    if not t.steps:
        t.text = "(end of the scenario)"
        t.begin()
    index = load_rule_index()
    rules = t.rules or t.game.position.rule_set()
    depends = (dependencies or {}).get(example.number, {})
    try:
        feature = example.path.relative_to(features).as_posix()
    except ValueError:
        feature = example.path.name
    return vf.Vector(
        example=example.number, title=example.name, feature=feature, line=example.line,
        rule_ids=list(example.rule_ids),
        sources={rule: list(index[rule].sources) for rule in example.rule_ids},
        rules=rules.to_dict(), depends_on={a: list(v) for a, v in sorted(depends.items())},
        players=list(t.names), steps=t.steps)


def _arguments(definition: StepDefinition, step: ExampleStep) -> dict[str, Any]:
    import inspect

    parsed = definition.parser.parse_arguments(step.text) or {}
    given: dict[str, Any] = {"docstring": step.docstring,
                             "datatable": [list(row) for row in step.table], **parsed}
    names = inspect.signature(definition.function).parameters
    return {name: given[name] for name in names if name in given}


def translate_all(features: Path | None = None,
                  dependencies: Mapping[str, Mapping[str, Sequence[str]]] | None = None
                  ) -> tuple[list[vf.Vector], list[vf.NotPortable]]:
    """Every example of the features (default: the specification's) translated."""
    from durak_spec.spec.runner import features_dir

    directory = features or features_dir()
    spec = read_specification(directory)
    defs = _definitions()
    vectors: list[vf.Vector] = []
    left: list[vf.NotPortable] = []
    for example in spec.examples():
        done = translate(example, directory, dependencies, defs)
        (vectors if isinstance(done, vf.Vector) else left).append(done)  # type: ignore[arg-type]
    return vectors, left


PINNED: Final = MappingProxyType({
    "0.1.0": "134459a0149fe7da4a8a06b870068481f9230c7e806f443826271afc958abb85",
})
"""Per version of the specification (:data:`durak_spec.core.version.__version__`), the
:func:`digest` of its vectors. A change of an expected outcome changes the digest; a test
then fails until the version is raised and its digest added here: a pinned version of the
suite means the same expectations everywhere."""

_WORDING: Final = ("title", "feature", "line", "text")
"""What a vector says only for readers: its digest leaves them out."""


def digest(vectors: Sequence[vf.Vector]) -> str:
    """SHA-256 of what the vectors expect (their compact JSON without titles, places and
    step texts): a change of it is a change of an expected outcome, which
    :data:`PINNED` ties to a new version of the specification."""

    def meaning(value: object) -> object:
        if isinstance(value, dict):
            return {k: meaning(v) for k, v in value.items() if k not in _WORDING}
        if isinstance(value, list):
            return [meaning(v) for v in value]
        return value

    return hashlib.sha256(msgspec.json.encode(meaning(msgspec.to_builtins(vectors)))
                          ).hexdigest()


def build_document(dependencies: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
                   perft: Mapping[str, Any] | None = None, features: Path | None = None
                   ) -> vf.Document:
    """The whole document: the vectors of every example, the examples left out, and the
    perft tables (given by the caller, who reads them)."""
    vectors, left = translate_all(features, dependencies)
    default = RuleSet()
    axes = {axis.name: vf.AxisValues(
        values=[str(m.value) for m in axis.enum] if axis.enum is not None else ["on", "off"],
        default=Axis.format(getattr(default, axis.name))) for axis in AXES
        if axis.name != "players"}
    profiles = {name: known.base.to_dict() for name, known in PROFILES.items()}
    return vf.Document(format=vf.FORMAT, version=vf.FORMAT_VERSION,
                       specification=__version__, digest=digest(vectors), axes=axes,
                       profiles=profiles, vectors=vectors, not_portable=left,
                       perft=dict(perft or {}))
