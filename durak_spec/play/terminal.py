"""``durak-spec play``: a game of Durak in the terminal against computer players (layer 7).

::

    durak-spec play [--profile NAME] [--players N] [--set AXIS=VALUE] [--seat S]
                    [--opponent random|heuristic|search|ismcts] [--seed S]
                    [--load FILE] [--save-to FILE] [--games N]

The screen is plain text, so the game works in any terminal, through a pipe and under a
script: before each of your moves it shows the trump and the face-up card, the stock and
the discard pile, every opponent's hand size and the cards everyone knows they hold
(VIEW-2), the table as attack/cover pairs, and your hand with the cards you may play in
brackets (``[7♣]``; in colour as well when standard output is a terminal and
``NO_COLOR`` is not set), followed by your moves, numbered.

You answer with a number, or a move in the card notation: ``cover 7♣ with 9♣`` (or
``cover 7C 9C``, or just ``7C 9C``), ``open 8♦``, ``throw 9♦``, ``transfer 8♥``,
``take``, ``done``; a single card (``9C``) plays the one move that uses it. Commands:
``hint`` (your moves, and what the heuristic player would do), ``board``, ``help``,
``save FILE``, ``quit``. A move the rules forbid is refused with the reason, the rule's
ID and where the rules book explains it; nothing you type ends the game by accident, and
the end of input or Ctrl-C stops it cleanly (with ``--save-to``, the game is saved
first, and after each of your moves).

With ``--games N`` you play a match of N games at the same table: after each game the
running score is shown (how often each player was the durak, and in source D's race how
often each went out first), and the next game is dealt knowing the last one's result, so
the rule set's ``later_game_lead`` can give its first attack by the last durak (ORDER-7).
A match saves and resumes like a single game (the file then holds every game so far).

Who acts when: the defender answers first, then the players who may throw in, from the
attacker clockwise (:func:`durak_spec.play.bots.acting_seat`, the table protocol of the
simulations). Opponents' moves are printed as they happen.

This module decides no rule: the engine says what is legal and why not.
"""

from __future__ import annotations

import os
import random
import re
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import BinaryIO, Final, TextIO

from durak_spec.core.cards import Card, CardError, Rank, Suit, parse_cards
from durak_spec.core.errors import DurakError, IllegalAction
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.engine import check, first_attacker, later_game_attacker
from durak_spec.game import persist
from durak_spec.game.history import Game, Match
from durak_spec.game.view import PlayerView, view
from durak_spec.model.actions import (
    Action,
    Cover,
    ExchangeTrump,
    Open,
    ThrowIn,
    Transfer,
    parse_action,
)
from durak_spec.model.events import Drew, Transferred, bout_end_text
from durak_spec.model.rules import Goal
from durak_spec.model.state import GameState
from durak_spec.play.bots import Bot, HeuristicBot, acting_seat

__all__ = ["MAX_LINE", "LineReader", "Session", "book_pointer", "colour_wanted", "is_tty",
           "save_record"]

MAX_LINE = 4096
"""The longest input line read as a command; a longer one is skipped whole."""

_EXIT_INTERRUPTED = 130

def save_record(record: Game | Match, path: str | Path) -> None:
    if isinstance(record, Match):
        persist.save_match(record, path)
    else:
        persist.save(record, path)


# -- input and output ---------------------------------------------------------------------------


def is_tty(stream: object) -> bool:
    try:
        return bool(getattr(stream, "isatty", lambda: False)())
    except (OSError, ValueError):
        return False


def colour_wanted(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return is_tty(stream)


def _can_write_suits(stream: TextIO) -> bool:
    encoding = getattr(stream, "encoding", None)
    if encoding is None:  # a text buffer such as io.StringIO holds any character
        return True
    try:
        "♣♦♥♠".encode(encoding)
    except (UnicodeError, LookupError):
        return False
    return True


class LineReader:
    """Reads lines of at most :data:`MAX_LINE` characters from a stream, never failing.

    Bytes that are not UTF-8 become replacement characters, a longer line is skipped
    whole (``read`` returns :data:`TOO_LONG`), and the end of input is ``None``.
    """

    TOO_LONG = "\x00too-long"

    def __init__(self, stream: TextIO) -> None:
        self._binary: BinaryIO | None = getattr(stream, "buffer", None)
        self._text = stream

    def read(self) -> str | None:
        try:
            if self._binary is not None:
                raw = self._binary.readline(MAX_LINE + 1)
                if not raw:
                    return None
                if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                    self._drain_binary(self._binary)
                    return self.TOO_LONG
                return raw.decode("utf-8", errors="replace")
            text = self._text.readline(MAX_LINE + 1)
            if not text:
                return None
            if len(text) > MAX_LINE and not text.endswith("\n"):
                while True:
                    rest = self._text.readline(65536)
                    if not rest or rest.endswith("\n"):
                        break
                return self.TOO_LONG
            return text
        except (OSError, ValueError):
            return None

    @staticmethod
    def _drain_binary(stream: BinaryIO) -> None:
        while True:
            rest = stream.readline(65536)
            if not rest or rest.endswith(b"\n"):
                return


_ASCII_SUITS: Final = MappingProxyType(str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S"}))
_RED: Final = frozenset({Suit.HEARTS, Suit.DIAMONDS})
_BOLD, _DIM, _RED_ON, _RESET = "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[0m"

def book_pointer(rule_id: str) -> str:
    """Where the player can read ``rule_id``: a command that works wherever the package
    is installed, and the chapter of the rules book.

    >>> book_pointer("BEAT-3")
    "'durak-spec rules BEAT-3' (chapter Beating a card of the rules book)"
    """
    index = load_rule_index()
    if rule_id not in index:
        return f"'durak-spec rules {rule_id}'"
    return f"'durak-spec rules {rule_id}' (chapter {index[rule_id].chapter_title} of the " \
           "rules book)"


def explain(error: IllegalAction) -> str:
    """An illegal move in words: the reason, the rule's ID and title, and where to read it."""
    index = load_rule_index()
    title = f" ({index[error.rule].title})" if error.rule in index else ""
    return _wrapped(f"Not allowed: {error.reason}.") + (
        f"\n  Rule {error.rule}{title}.\n  Read it with {book_pointer(error.rule)}.")


_HELP = """\
Answer with the number of a move, or type a move:
  cover 7♣ with 9♣   cover an attack card (also: cover 7C 9C, or just 7C 9C)
  open 8♦            open a bout (open 8♦ 8♣ where several cards of a rank may open)
  throw 9♦           throw in a card of a rank on the table
  transfer 8♥        pass the attack on with a card of its rank (transfer game)
  show 8♥            transfer by showing a trump of the rank (where the rules allow)
  take               pick up the table        done    you add nothing more
  exchange           swap the six of trumps for the face-up trump (where the rules allow)
  9C                 a single card plays the one move that uses it
Cards: rank 6-10, J, Q, K, A (T for ten) and suit ♣ ♦ ♥ ♠ or C D H S.
Commands: hint (your moves and a suggestion), board or show (the table again),
  save FILE, quit, help."""


class _Stop(Exception):
    """The player stops the game (quit, end of input); ``status`` is the exit code."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True, slots=True)
class _Reply:
    """What to tell the player instead of playing a move."""

    text: str


class Session:
    """One game in the terminal: the record, the human's seat and the computer players."""

    def __init__(self, game: Game, seat: int, bots: dict[int, Bot], *, seed: int,
                 read_line: Callable[[], str | None], out: TextIO,
                 save_to: Path | None = None, colour: bool = False, echo: bool = False,
                 resumed: bool = False, opponent: str = "heuristic",
                 match: Match | None = None, games: int = 1) -> None:
        self.game = game
        self.match = match
        """The match this game belongs to (its last game is this one), if any."""
        self.games = games
        self.seat = seat
        self.bots = bots
        self.seed = seed
        self.read_line = read_line
        self.out = out
        self.save_to = save_to
        self.colour = colour
        self.echo = echo
        self.resumed = resumed
        self.opponent = opponent
        self.ascii = not _can_write_suits(out)
        self.rngs = {s: random.Random(f"durak-spec/play/{seed}/{s}/{len(game.actions)}")
                     for s in bots}
        self.adviser = HeuristicBot(name="hint")
        for bot in bots.values():
            bot.reset()
        for action in game.actions:  # a resumed game: let the bots remember it
            for bot in bots.values():
                bot.observe(action)
            self.adviser.observe(action)

    # -- output ---------------------------------------------------------------------------

    def current_match(self) -> Match:
        """The match with this game as it stands now (a match of one without ``match``)."""
        if self.match is None:
            return Match(self.game.rules, (self.game,))
        return Match(self.match.rules, (*self.match.games[:-1], self.game))

    def record(self) -> Game | Match:
        """What a save writes: the match, or the game alone."""
        return self.game if self.match is None else self.current_match()

    def say(self, text: str = "") -> None:
        """Print ``text`` (the game keeps its own lines within :data:`WIDTH` columns)."""
        if self.ascii:
            text = text.translate(_ASCII_SUITS)
        self.out.write(text + "\n")
        self.out.flush()

    def name(self, seat: int) -> str:
        return f"P{seat} (you)" if seat == self.seat else f"P{seat}"

    def card(self, card: Card, playable: bool = False) -> str:
        text = str(card)
        if playable:
            text = f"[{text}]"
        if not self.colour:
            return text
        if card.suit in _RED:
            text = f"{_RED_ON}{text}{_RESET}"
        return f"{_BOLD}{text}{_RESET}" if playable else f"{_DIM}{text}{_RESET}"

    # -- the game -------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the player stops; return the exit code."""
        try:
            self.intro()
            while True:
                state = self.game.state
                if state.is_over:
                    self.finish()
                    return 0
                seat = acting_seat(state)
                if seat is None:  # pragma: no cover - only when the game is over
                    self.finish()
                    return 0
                if seat == self.seat:
                    self.autosave()
                    self.board()
                    action = self.ask()
                else:
                    bot = self.bots[seat]
                    action = bot.choose(view(state, seat), self.rngs[seat])
                self.play(action)
        except _Stop as stop:
            self.say(stop.message)
            self.autosave(final=True)
            return stop.status
        except KeyboardInterrupt:
            self.say("\nInterrupted: the game stops.")
            self.autosave(final=True)
            return _EXIT_INTERRUPTED

    def intro(self) -> None:
        rules = self.game.rules
        state = self.game.state
        word = "Resuming" if self.resumed else "New game"
        if self.match is not None:
            word += f" {len(self.match.games)} of {self.games}"
        others = len(self.bots)
        who = (f"the other is a {self.opponent} player" if others == 1
               else f"the {others} others are {self.opponent} players")
        self.say(f"{word}: {rules.players} players, "
                 f"{'transfer' if rules.transfer else 'throw-in'} game, seed {self.seed}.")
        self.say(f"You are P{self.seat}; {who}.")
        self.say("Type 'help' for the commands, 'hint' for your moves.")
        if not self.resumed:
            face_up = state.face_up
            self.say(f"Trump is {state.trump.symbol}"
                     + (f" (the face-up {face_up} lies under the stock)." if face_up else "."))
            for seat, cards in enumerate(state.known):
                if cards:  # six players: the last card dealt is the trump card, face up
                    self.say(f"Every card is dealt; the last one, {_listing(cards)}, was "
                             f"turned face up to show the trump, so everyone knows "
                             f"{'you hold' if seat == self.seat else f'P{seat} holds'} it.")
            first, reason = first_attacker(state.hands, state.trump, rules, self.seed)
            later = None
            if self.match is not None and len(self.match.games) > 1:
                later = later_game_attacker(rules, self.match.games[-2].outcome)
            if later is not None:
                first, reason = later
                reason = reason.replace(" (ORDER-7)", "").replace(
                    f"P{self.seat} was", "you were")
            if first == state.attacker:
                reason = reason.replace(f"P{self.seat} holds", "you hold")
                self.say(self.subject(state.attacker, "attacks", "attack")
                         + f" first: {reason}.")
            else:
                self.say(self.subject(state.attacker, "attacks", "attack") + " first.")

    def play(self, action: Action) -> None:
        before = self.game.state
        self.game, step = self.game.advance(action)
        after = step.state
        for bot in self.bots.values():
            bot.observe(action)
        self.adviser.observe(action)
        who = "You" if action.player == self.seat else f"P{action.player}"
        self.say(f"{who}: {self.describe(action, before)}")
        for transfer in step.of(Transferred):
            self.say(f"  {self.name(transfer.defender)} defends now.")
        if step.bout_ended is not None:
            end = bout_end_text(step.events, len(after.stock))
            self.say("  " + end.replace(f"P{self.seat} ", f"P{self.seat} (you) "))
            for draw in step.of(Drew):
                if draw.player == self.seat:
                    self.say(f"  You drew {' '.join(str(c) for c in draw.cards)}.")
            if not after.is_over:
                self.say(f"Bout {after.bout + 1}: {self.name(after.attacker)} attacks "
                         f"{self.name(after.defender)}.")

    def finish(self) -> None:
        outcome = self.game.state.outcome
        self.autosave(final=True)
        if outcome is None:  # pragma: no cover - finish is called only at the end
            return
        self.say(f"Game over: {outcome}.")
        if outcome.durak == self.seat:
            self.say("You are the durak.")
        elif outcome.durak is None:
            self.say("A draw: nobody is the durak.")
        else:
            self.say("You are not the durak. Well played!")
        if self.match is not None:
            self.score()

    def score(self) -> None:
        """The running score of the match."""
        match = self.current_match()
        durak = match.durak_counts()
        line = ", ".join(f"{self.name(s)} {n}" for s, n in enumerate(durak))
        self.say(f"Score after game {len(match.games)} of {self.games}, times the durak: "
                 f"{line}.")
        if self.game.rules.goal is Goal.FIRST_OUT_WINS:
            first = match.first_out_counts()
            self.say("Times out first: " + ", ".join(
                f"{self.name(s)} {n}" for s, n in enumerate(first)) + ".")

    def autosave(self, final: bool = False) -> None:
        if self.save_to is None:
            return
        try:
            save_record(self.record(), self.save_to)
        except OSError as error:
            self.say(f"Could not save to {self.save_to}: {error.strerror or error}")
            return
        if final:
            self.say(f"The game is saved in {self.save_to}.")
            self.say(f"Resume it with: durak-spec play --load {self.save_to}")

    # -- the screen ---------------------------------------------------------------------------

    def board(self) -> None:
        v = view(self.game.state, self.seat)
        self.say("")
        roles = (f"{self.subject(v.attacker, 'attacks', 'attack')}, "
                 f"{self.subject(v.defender, 'defends', 'defend', start=False)}")
        self.say(f"-- {roles} --")
        stock = (f"face-up {v.face_up} under the stock, stock {v.stock}"
                 if v.face_up is not None else f"stock {v.stock}")
        self.say(f"Trump {v.trump.symbol} | {stock} | discard {v.discard}")
        for seat in range(v.players):
            if seat == self.seat:
                continue
            if seat in v.out:
                self.say(f"  P{seat}: out")
                continue
            known = f", known: {_listing(v.known[seat])}" if v.known[seat] else ""
            said = " (said done)" if seat in v.passed else ""
            self.say(f"  P{seat}: {_count(v.hand_sizes[seat], 'card')}{known}{said}")
        self.say_wrapped("Table: ", self.table_text(v).split(" | "), " | ")
        marked = {c for a in v.playable for c in _cards_of(a)}
        self.say_wrapped("Your hand: ", [self.card(c, c in marked) for c in v.hand])
        self.moves(v)

    def table_text(self, v: PlayerView) -> str:
        if not v.table:
            return "empty"
        parts = [f"{p.attack} covered by {p.cover}" if p.cover is not None
                 else f"{p.attack} uncovered" for p in v.table]
        text = " | ".join(parts)
        if v.taking:
            text += f"  ({self.subject(v.defender, 'takes', 'take')})"
        return text

    def describe(self, action: Action, state: GameState | None = None) -> str:
        """A move as the player reads it; an exchange says which cards swap (in ``state``,
        by default the position now)."""
        if isinstance(action, ExchangeTrump):
            state = state if state is not None else self.game.state
            face_up = state.face_up
            if face_up is not None:
                return f"exchange {Card(Rank.SIX, state.trump)} for the face-up {face_up}"
        return action.move

    def moves(self, v: PlayerView) -> None:
        self.say("Your moves:")
        for number, action in enumerate(v.playable, start=1):
            self.say(f"  {number}. {self.describe(action)}")

    def subject(self, seat: int, verb: str, plain: str, *, start: bool = True) -> str:
        """``P1 attacks``, or ``You attack`` for the player at the terminal."""
        if seat == self.seat:
            return f"{'You' if start else 'you'} {plain}"
        return f"P{seat} {verb}"

    def say_wrapped(self, head: str, items: Sequence[str], joint: str = " ") -> None:
        """``head`` and the items on lines of at most :data:`WIDTH` visible characters,
        broken only between items (never inside a card)."""
        line, width = head, len(head)
        for item in items:
            size = len(_ANSI.sub("", item))
            if width > len(head) and width + len(joint) + size > WIDTH:
                self.say(line.rstrip())
                line, width = " " * len(head) + item, len(head) + size
            else:
                sep = joint if width > len(head) else ""
                line, width = line + sep + item, width + len(sep) + size
        self.say(line)

    # -- reading the player's move --------------------------------------------------------------

    def ask(self) -> Action:
        while True:
            self.out.write(f"P{self.seat}> ")
            self.out.flush()
            line = self.read_line()
            if line is None:
                raise _Stop(0, "\nEnd of input: the game stops"
                            + (" (it is not over)." if not self.game.is_over else "."))
            if line == LineReader.TOO_LONG:
                if self.echo:
                    self.say("(a very long line)")
                self.say(f"That line is longer than {MAX_LINE} characters; it is ignored.")
                continue
            text = line.strip()
            if self.echo:
                self.say(_printable(text))
            if not text:
                continue
            answer = self.interpret(text)
            if isinstance(answer, _Reply):
                self.say(answer.text if "\n" in answer.text else _wrapped(answer.text))
                continue
            return answer

    def interpret(self, text: str) -> Action | _Reply:
        """The player's line as a move to play, or what to answer instead."""
        state = self.game.state
        v = view(state, self.seat)
        words = text.split()
        command = words[0].lower()
        if command in ("help", "?", "h"):
            return _Reply(_HELP)
        if command in ("quit", "exit", "q"):
            raise _Stop(0, "You quit the game.")
        if command in ("board", "look", "table") or (command == "show" and len(words) == 1):
            self.board()
            return _Reply("")
        if command in ("hint", "moves", "hints"):
            return _Reply(self.hint(v))
        if command == "save":
            return _Reply(self.save_command(text[len(words[0]):].strip()))
        if text.isdigit() or (text.startswith("#") and text[1:].isdigit()):
            number = int(text.lstrip("#"))
            if 1 <= number <= len(v.playable):
                return v.playable[number - 1]
            return _Reply(f"There is no move {number}: choose 1 to {len(v.playable)}, "
                          "or type 'hint' to list them.")
        try:
            action = self.parse(text, v)
        except _Refused as refused:
            return _Reply(refused.text)
        try:
            check(state, action)
        except IllegalAction as error:
            return _Reply(explain(error))
        return action

    def parse(self, text: str, v: PlayerView) -> Action:
        try:
            return parse_action(text, player=self.seat)
        except DurakError as notation_error:
            try:
                cards = parse_cards(text)
            except (CardError, DurakError) as card_error:
                looks_like_cards = text[:1].isdigit() or len(text.split()[0]) <= 3
                reason = card_error if looks_like_cards else notation_error
                raise _Refused(f"Not understood: {_printable(_clip(str(reason), 200))}. Type "
                               "a move's number, a move like 'cover 7♣ with 9♣', or "
                               "'help'.") from None
        return self.shortcut(cards, v)

    def shortcut(self, cards: Sequence[Card], v: PlayerView) -> Action:
        """A move written as its cards only: ``9C`` or ``7C 9C``."""
        if len(cards) == 2 and v.seat == v.defender and cards[0] in _uncovered(v):
            return Cover(self.seat, cards[0], cards[1])
        uses = [a for a in v.playable if set(cards) == set(_cards_of(a))]
        if len(uses) == 1:
            return uses[0]
        if len(uses) > 1:
            options = "; ".join(f"{v.playable.index(a) + 1}. {a.move}" for a in uses)
            raise _Refused(f"{' '.join(str(c) for c in cards)} can make several moves: "
                           f"{options}. Type the number or the whole move.")
        return self.natural_move(cards, v)

    def natural_move(self, cards: Sequence[Card], v: PlayerView) -> Action:
        """The move the cards would most likely mean, for the engine to explain why not."""
        first = cards[0]
        if len(cards) == 1:
            if not v.table:
                return Open(self.seat, (first,))
            if v.seat == v.defender:
                uncovered = _uncovered(v)
                if uncovered:
                    return Cover(self.seat, uncovered[0], first)
                return Transfer(self.seat, first)
            return ThrowIn(self.seat, first)
        if not v.table:
            return Open(self.seat, tuple(cards))
        if len(cards) == 2:
            return Cover(self.seat, cards[0], cards[1])
        raise _Refused(f"{' '.join(str(c) for c in cards)}: write one card, two cards "
                       "(attack card, then your cover), or a whole move.")

    def hint(self, v: PlayerView) -> str:
        lines = ["Your moves:"]
        lines.extend(f"  {n}. {self.describe(a)}" for n, a in enumerate(v.playable, start=1))
        suggestion = self.adviser.choose(v, random.Random(len(self.game.actions)))
        number = v.playable.index(suggestion) + 1
        lines.append(f"The heuristic player would play {number}. {self.describe(suggestion)}")
        return "\n".join(lines)

    def save_command(self, path: str) -> str:
        if not path:
            return "Save where? Type 'save FILE'."
        try:
            save_record(self.record(), path)
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            return f"Could not save to {_printable(_clip(path))}: {reason}"
        return f"Saved to {path}.\nResume it with: durak-spec play --load {path}"


class _Refused(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


WIDTH = 80
"""The widest line the game prints (a hand or a table is broken between cards)."""

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _wrapped(text: str) -> str:
    """One long line of words broken at :data:`WIDTH` columns (cards never broken)."""
    return "\n".join(textwrap.wrap(text, WIDTH, subsequent_indent="  ", break_long_words=False,
                                   break_on_hyphens=False)) or text


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _listing(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _cards_of(action: Action) -> tuple[Card, ...]:
    return action.cards


def _uncovered(v: PlayerView) -> list[Card]:
    return [p.attack for p in v.table if p.cover is None]


def _clip(text: str, size: int = 60) -> str:
    return text if len(text) <= size else text[:size] + "…"


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else "?" for c in text)
