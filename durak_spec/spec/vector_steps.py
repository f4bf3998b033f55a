"""The step translators of the test vectors (layer 6): how each ``When`` and ``Then`` step
of the step library becomes items of the vectors' closed vocabulary
(:mod:`durak_spec.spec.vector_format`), from the arguments its pattern parsed.

:data:`TRANSLATORS` maps each step definition (its function's name) to its translator;
:class:`Translation` is the vector while its example's steps are translated; the
``Given`` steps run their own definitions on a :class:`Describer`, which records the
position they describe. A step the vocabulary cannot say raises :class:`NotPortable`
(:data:`NOT_PORTABLE` lists them with why). :mod:`durak_spec.spec.vectors` drives it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, NoReturn, TypeVar

import msgspec

from durak_spec.core.cards import DECK, Card, Suit
from durak_spec.core.errors import InputError, NotationError
from durak_spec.core.ruleindex import load_rule_index
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
from durak_spec.model.rules import RuleSet
from durak_spec.spec import vector_format as vf
from durak_spec.spec.steps.then_outcome import CHANCE_SEEDS

__all__ = ["NOT_PORTABLE", "TRANSLATORS", "Describer", "NotPortable", "Translation",
           "VectorError"]

_T = TypeVar("_T")


class VectorError(InputError):
    """A feature's step cannot be turned into a vector (the message names the example)."""

    code = "vectors"


class NotPortable(InputError):
    """The step says what the vocabulary of the vectors cannot (the example is listed
    among the document's ``not_portable`` examples instead)."""

    code = "not-portable"


NOT_PORTABLE: Final[Mapping[str, str]] = MappingProxyType({})
"""The step definitions whose steps the vocabulary cannot say, with why: a translator of
one of them raises :class:`NotPortable` with its reason. None since specification 0.3.0,
when asking for a game of N players became the ``setup`` step (DEAL-3)."""


# -- the scenario being translated -------------------------------------------------------------


@dataclass
class Describer:
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

    game: Describer
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

    def setup(self, players: int) -> None:
        """Ask for a game of ``players`` players under the described rules (DEAL-3), dealt
        from the deck in its written order."""
        self._resolve()
        self.game.started = True
        self.moves = [len(self.steps)]
        self.steps.append(vf.Setup(text=self.text, players=players, deck=_cards(DECK),
                                   seed=0))

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
            self.steps.append(vf.Act(text=self.text, action=_wire(action)))

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
        if not isinstance(last, vf.Act | vf.Deal | vf.Setup):
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


def _wire(action: Action) -> vf.ActionMsg:
    """An action as the protocol writes it."""
    return msgspec.convert(action.to_json(), vf.ActionMsg)


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
def _players_set_up(t: Translation, count: str) -> None:
    t.setup(int(count))


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
    t.add(vf.LegalMoves(text=t.text, seat=seat, actions=[_wire(a) for a in actions]))


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
