"""The test vectors' document, declared once as msgspec structs (layer 6).

``durak-spec vectors`` writes the specification's scenarios as one JSON document that any
engine author runs in their own language (as CommonMark's ``spec.json`` or toml-test's
files are run): every example of the feature files (each row of an outline once), with
its rules, its start and its steps. Its JSON Schema is generated from these declarations
(:func:`vectors_schema`) and shipped as ``durak_spec/data/vectors.schema.json``.

The document
------------

::

    {
      "format": "durak-spec/vectors",
      "version": 1,                   // of this format (FORMAT_VERSION)
      "specification": "0.3.0",       // durak_spec.core.version: the rules' version
      "digest": "…",                  // SHA-256 of what the vectors expect
      "axes": {"throw_in": {"values": [...], "default": "all"}, ...},
      "profiles": {"classic-throw-in": {rules}, ...},
      "vectors": [ vector, ... ],     // one per example, in the order of the features
      "not_portable": [ {...}, ... ], // examples whose steps the vocabulary cannot say
                                      // (none since specification 0.3.0)
      "perft": {"throw-in": {...}, ...}  // the perft tables (durak_spec/data/perft)
    }

A vector::

    {
      "example": "BEAT-3.2", "title": "...", "feature": "03_beating.feature", "line": 103,
      "rule_ids": ["BEAT-3"], "sources": {"BEAT-3": ["A", "B"]},
      "rules": {every axis of the rule set, as a saved game writes it},
      "depends_on": {"turn_order": ["opener-first"]},
      "players": ["Anna", "Boris"],   // by seat: the names the steps speak of
      "steps": [ step, ... ]
    }

``depends_on`` lists, per axis, the values under which the example's outcome is not the
one written (computed on the reference by ``tools/dependencies_fixture.py``). A runner
plays a vector under its engine's own value of an axis when the engine does not play the
written value and its own value is not listed there; otherwise it skips the vector,
saying which axis stands in the way (as test262's runners skip by feature). The bout
protocol is the axis ``turn_order``.

The steps
---------

A closed vocabulary, each step an object whose ``kind`` says what it is; the first step
starts the game (``load``, ``deal`` or ``setup``). Seats are numbers from 0; cards are written in
the project's notation (``"10♥"``); ``text`` is the Gherkin step the item comes from.

Moves (each with its expected ``verdict``, ``"accepted"`` or ``"rejected"``, and for a
rejection the ``rule`` that forbids it, or ``null``):

* ``load``: start from ``state``, a saved position (``durak-spec/state``, the format of
  ``load`` in the protocol schema);
* ``deal``: start a game from ``deck`` (the cards in dealing order, CLAR-10) and
  ``seed``; with ``after_game``, when the game played so far is over, its outcome is the
  ``previous`` of the new game (ORDER-7);
* ``setup``: ask for a game of ``players`` players under the vector's rules otherwise, as
  the protocol asks for any game: a ``start`` whose ``rules.players`` is that count, with
  ``deck`` and ``seed``. The count may be one no game has (DEAL-3): the question is whether
  the engine refuses it, naming the rule. A runner skips a setup expected to be accepted
  for a count its engine does not claim (the handshake's ``players``);
* ``act``: apply ``action`` (an action object of the protocol);
* ``all-done``: while the engine lists a ``done`` action, apply the first it lists.

After an accepted action, the action must have been among the legal actions before it;
after a rejected one, it must not have been. A rejection by another rule than ``rule``
fails; a rejection that names no rule passes as "rule not named".

Expectations (checked against the engine's report and legal actions at that point):
see the ``kind`` values of :data:`EXPECTATIONS`. A card-set comparison has a ``mode``:
``exactly`` these cards, ``each`` of these (others may be there too), or ``none`` of
these.

Versioning
----------

``version`` changes when the document's shape changes. ``specification`` is the version of
durak-spec whose features the vectors were written from; a change of any expected outcome
is a change of the specification, so it comes with a new version (a test holds the shipped
file to the features, and :data:`durak_spec.spec.vectors.PINNED` to the version).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, TypeAlias

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from durak_spec.model.rules import MAX_PLAYERS

__all__ = [
    "EXPECTATIONS",
    "FORMAT",
    "FORMAT_VERSION",
    "MOVES",
    "AxisValues",
    "Document",
    "NotPortable",
    "Setup",
    "Step",
    "Vector",
    "vectors_schema",
]

FORMAT: Final = "durak-spec/vectors"
FORMAT_VERSION: Final = 1

Verdict: TypeAlias = Literal["accepted", "rejected"]
Mode: TypeAlias = Literal["exactly", "each", "none"]
Card: TypeAlias = Annotated[str, Meta(pattern="^(6|7|8|9|10|J|Q|K|A)[♣♦♥♠]$")]
"""A card in the project's notation: its rank, then its suit's symbol (``"10♥"``)."""
Seat: TypeAlias = Annotated[int, Meta(ge=0, le=MAX_PLAYERS - 1)]
"""A seat, from 0 (the first player named)."""
Count: TypeAlias = Annotated[int, Meta(ge=0)]


class ActionMsg(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """An action object: ``player`` and ``type``, then the fields of its type (``attack``
    and ``card`` of a cover, ``card`` of a throw-in or a transfer, ``cards`` of an
    opening)."""
    # the protocol's actions as the vectors write them, player first (the wire reads the
    # variants of durak_spec.protocol.messages.Action)

    player: Seat
    type: str
    attack: str | UnsetType = UNSET
    card: str | UnsetType = UNSET
    cards: list[str] | UnsetType = UNSET


class _Step(Struct, kw_only=True, forbid_unknown_fields=True, tag_field="kind"):
    text: str
    """The Gherkin step this item comes from (``When Boris covers 7♣ with 9♣``)."""


# -- moves ---------------------------------------------------------------------------------


class Load(_Step, tag="load"):
    """Start from a saved position: ``state`` is a ``durak-spec/state`` document."""

    state: dict[str, Any]


class Deal(_Step, tag="deal"):
    """Start a game from a deck order (CLAR-10) and a seed; the deal's expected verdict."""

    deck: list[Card]
    seed: Annotated[int, Meta(ge=0)] = 0
    after_game: bool = False
    verdict: Verdict = "accepted"
    rule: str | None = None


class Setup(_Step, tag="setup"):
    """Ask for a game of ``players`` players under the vector's rules otherwise: the
    protocol's ``start`` with ``rules.players`` set to this count, ``deck`` and ``seed``;
    the expected verdict (a count no game has is refused by DEAL-3)."""

    players: Annotated[int, Meta(ge=0)]
    """The number of players asked for: any whole number, also one no game has."""
    deck: list[Card]
    seed: Annotated[int, Meta(ge=0)] = 0
    verdict: Verdict = "accepted"
    rule: str | None = None


class Act(_Step, tag="act"):
    """Apply an action; its expected verdict."""

    action: ActionMsg
    """An action object of the protocol (``{"player": 1, "type": "cover", "attack": "7♣",
    "card": "9♣"}``)."""
    verdict: Verdict = "accepted"
    rule: str | None = None


class AllDone(_Step, tag="all-done"):
    """While the engine lists a ``done`` action, apply the first one listed."""


MOVES: Final = (Load, Deal, Setup, Act, AllDone)

# -- expectations: what a player may do -----------------------------------------------------


class MayOpen(_Step, tag="may-open"):
    """Whether ``seat`` may open with each of ``cards`` alone, or (``together``) with all
    of them as one opening."""

    seat: Seat
    cards: list[Card]
    together: bool = False
    allowed: bool = True


class MayOpenAny(_Step, tag="may-open-any"):
    """The single-card openings of ``seat`` are exactly the cards in its hand."""

    seat: Seat


class MayThrowIn(_Step, tag="may-throw-in"):
    """The cards ``seat`` may throw in now, compared by ``mode``."""

    seat: Seat
    cards: list[Card]
    mode: Mode


class MayCover(_Step, tag="may-cover"):
    """The cards ``seat`` may cover ``attack`` with, compared by ``mode``."""

    seat: Seat
    attack: Card
    cards: list[Card]
    mode: Mode


class MayTransfer(_Step, tag="may-transfer"):
    """The cards ``seat`` may transfer with, compared by ``mode``: by playing a card
    (``transfer`` actions), by showing a trump (``show``) or either (``any``)."""

    seat: Seat
    cards: list[Card]
    mode: Mode
    by: Literal["playing", "showing", "any"] = "playing"


class May(_Step, tag="may"):
    """Whether ``seat`` has a legal ``take``, ``done`` or ``exchange`` action."""

    seat: Seat
    move: Literal["take", "done", "exchange"]
    allowed: bool = True


class LegalMoves(_Step, tag="legal-moves"):
    """``seat``'s legal actions are exactly these (an opening's cards in any order)."""

    seat: Seat
    actions: list[ActionMsg]


class OnlyActs(_Step, tag="only-acts"):
    """There are legal actions, and every one is ``seat``'s."""

    seat: Seat


class NobodyActs(_Step, tag="nobody-acts"):
    """No legal action at all."""


class Playable(_Step, tag="playable"):
    """The cards that take part in ``seat``'s legal actions are exactly these (VIEW-3)."""

    seat: Seat
    cards: list[Card]


# -- expectations: the position ---------------------------------------------------------------


class Hand(_Step, tag="hand"):
    """``seat``'s hand compared with ``cards`` by ``mode``."""

    seat: Seat
    cards: list[Card]
    mode: Mode


class HandSize(_Step, tag="hand-size"):
    seat: Seat
    count: Count


class EachHandSize(_Step, tag="each-hand-size"):
    """Every seat not out holds ``count`` cards."""

    count: Count


class TrumpsHeld(_Step, tag="trumps-held"):
    """All hands together hold ``count`` cards of the trump suit."""

    count: Count


class Table(_Step, tag="table"):
    """The table holds exactly these pairs (attack card, cover or null), in any order."""

    pairs: list[tuple[Card, Card | None]]


class Stock(_Step, tag="stock"):
    """The stock holds ``count`` cards, the face-up trump included."""

    count: Count


class Discard(_Step, tag="discard"):
    count: Count


class Trump(_Step, tag="trump"):
    """The trump suit, as a symbol (``"♦"``)."""

    suit: Annotated[str, Meta(pattern="^[♣♦♥♠]$")]


class FaceUp(_Step, tag="face-up"):
    """The face-up trump, or null when there is none."""

    card: Card | None


class Roles(_Step, tag="roles"):
    """Who attacks whom; with ``bout_over`` the table must also be empty."""

    attacker: Seat
    defender: Seat
    bout_over: bool = False


class Known(_Step, tag="known"):
    """The cards of ``seat``'s hand every player knows (VIEW-2), compared by ``mode``. An
    engine whose report has no ``known`` skips the vector."""

    seat: Seat
    cards: list[Card]
    mode: Mode


# -- expectations: how bouts and games end ------------------------------------------------------


class BeatenOff(_Step, tag="beaten-off"):
    """The last move ended the bout and its cards went to the discard pile: none of them is
    in the defender's hand, and the discard pile grew by their number. The bout's cards are
    those on the table before the move plus the move's own cards (a shown trump is not put
    down)."""


class Taken(_Step, tag="taken"):
    """The last move ended the bout, ``seat`` defended it and holds all its cards."""

    seat: Seat


class BoutGoesOn(_Step, tag="bout-goes-on"):
    """The table is not empty."""


class Durak(_Step, tag="durak"):
    """The game is over and ``seat`` is the durak."""

    seat: Seat


class DrawGame(_Step, tag="draw"):
    """The game is over, nobody is the durak and nobody holds cards."""


class NoDurak(_Step, tag="no-durak"):
    """The game is over and nobody is the durak."""


class GameGoesOn(_Step, tag="game-goes-on"):
    """The game is not over."""


class Out(_Step, tag="out"):
    """Each of ``seats`` is in the finishing order."""

    seats: list[Seat]


class InGame(_Step, tag="in-game"):
    """``seat`` is not in the finishing order."""

    seat: Seat


class FinishingOrder(_Step, tag="finishing-order"):
    """The finishing order is exactly these groups (a group's seats in any order)."""

    groups: list[list[Seat]]


class FirstOut(_Step, tag="first-out"):
    """The first group of the finishing order is exactly ``seats``; with ``over``, the game
    is also over (a race won, END-5)."""

    seats: list[Seat]
    over: bool = False


class FirstAttackerBySeed(_Step, tag="first-attacker-by-seed"):
    """Deal the game's deck again under the same rules with each seed from 0 to
    ``seeds - 1`` (and the first five seeds twice: the same seed must pick the same first
    attacker), then deal it once more with the game's own seed. With ``seat`` a number,
    that seat attacks first under every seed; with null, every seat attacks first under
    some seed and no hand holds a trump (ORDER-2)."""

    seeds: Annotated[int, Meta(ge=1)]
    seat: Seat | None


EXPECTATIONS: Final = (
    MayOpen, MayOpenAny, MayThrowIn, MayCover, MayTransfer, May, LegalMoves, OnlyActs,
    NobodyActs, Playable, Hand, HandSize, EachHandSize, TrumpsHeld, Table, Stock, Discard,
    Trump, FaceUp, Roles, Known, BeatenOff, Taken, BoutGoesOn, Durak, DrawGame, NoDurak,
    GameGoesOn, Out, InGame, FinishingOrder, FirstOut, FirstAttackerBySeed,
)

Step: TypeAlias = (
    Load | Deal | Setup | Act | AllDone
    | MayOpen | MayOpenAny | MayThrowIn | MayCover | MayTransfer | May | LegalMoves | OnlyActs
    | NobodyActs | Playable | Hand | HandSize | EachHandSize | TrumpsHeld | Table | Stock
    | Discard | Trump | FaceUp | Roles | Known | BeatenOff | Taken | BoutGoesOn | Durak
    | DrawGame | NoDurak | GameGoesOn | Out | InGame | FinishingOrder | FirstOut
    | FirstAttackerBySeed
)


# -- the document -------------------------------------------------------------------------------


class Vector(Struct, kw_only=True, forbid_unknown_fields=True):
    """One example of the specification (one row of an outline)."""

    example: str
    """Its stable number (``BEAT-3.2``, ``VAR-1.2c``)."""
    title: str
    feature: str
    line: int
    rule_ids: list[str]
    sources: dict[str, list[str]]
    """Per rule ID, the short names of the sources (A-D) that state it."""
    rules: dict[str, Any]
    """Every axis of the rule set, as a saved game writes it."""
    depends_on: dict[str, list[str]]
    """Per axis, the values under which the outcome is not the one written."""
    players: list[str]
    steps: list[Step]


class NotPortable(Struct, kw_only=True, forbid_unknown_fields=True):
    """An example left out of ``vectors``: one of its steps says what the vocabulary
    cannot."""

    example: str
    title: str
    step: str
    reason: str


class AxisValues(Struct, kw_only=True, forbid_unknown_fields=True):
    """An axis of the rule set: its values (booleans as ``on``/``off``) and its default,
    the value an engine that does not list the axis in its claim plays."""

    values: list[str]
    default: str


class Document(Struct, kw_only=True, forbid_unknown_fields=True):
    """The test vectors of one version of the specification."""

    format: Literal["durak-spec/vectors"]
    version: int
    specification: str
    digest: str
    """SHA-256 of the vectors (their JSON, compact, keys in order): what a version pins."""
    axes: dict[str, AxisValues]
    """Every axis of the rule set but ``players``: what a runner needs to read an engine's
    claim (the handshake's ``axes``)."""
    profiles: dict[str, dict[str, Any]]
    """The named profiles' rules (for two players), for engines that claim profiles."""
    vectors: list[Vector]
    not_portable: list[NotPortable]
    perft: dict[str, Any]
    """The perft tables by name (``durak_spec/data/perft/<name>.json``), as shipped."""


def vectors_schema() -> dict[str, Any]:
    """The JSON Schema of the document, generated from the structs above."""
    schema: dict[str, Any] = msgspec.json.schema(Document)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$id": "https://durak-spec.invalid/vectors.schema.json",
              "title": "durak-spec test vectors",
              "description": (__doc__ or "").strip(), **schema}
    return schema
