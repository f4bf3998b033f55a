"""Pages of the rules book that are not chapters: pictures for "How to play", a narrated
game, and the reference for implementers (protocol, options, a full transcript).

Every picture and every answer here comes from the engine, played while the book is
built: the "How to play" positions are real deals (found by seed), the narrated game is a
seeded game of two heuristic players, and the transcript is a real conversation with the
reference engine over the wire protocol.
"""

from __future__ import annotations

import inspect
import io
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any, cast

from durak_spec.core.cards import Card
from durak_spec.engine import apply, legal_actions, new_game
from durak_spec.game.markup import Markup, element, join
from durak_spec.game.view import view
from durak_spec.model.actions import Action, Cover, Done, Open, Take, ThrowIn, Transfer
from durak_spec.model.rules import profile
from durak_spec.model.state import GameState
from durak_spec.play.bots import HeuristicBot, acting_seat
from durak_spec.protocol import Engine, ReferenceEngine

from .render import figure_html
from .site import BookError
from .text import inline, speak_seats

__all__ = [
    "PICTURES",
    "Bout",
    "action_reference",
    "command_options",
    "engine_protocol",
    "narrated_game",
    "picture",
    "protocol_reference",
    "protocol_transcript",
]

NAMES: tuple[str, ...] = ("Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor")


# -- "How to play": pictures of real positions ------------------------------------------------


def _seeded(players: int, game: str = "classic-throw-in",
            wanted: Callable[[GameState], GameState | None] | None = None,
            start: int = 1) -> tuple[GameState, int]:
    rules = profile(game).rules(players=players)
    for seed in range(start, start + 400):
        state = new_game(rules, seed=seed)
        found = wanted(state) if wanted is not None else state
        if found is not None:
            return found, seed
    raise BookError(f"no seed from {start} gave the position a picture needs")


def _lowest_open(state: GameState) -> Action | None:
    opens = [a for a in legal_actions(state) if isinstance(a, Open) and len(a.cards) == 1]
    if not opens:
        return None
    return min(opens, key=lambda a: (a.cards[0].suit == state.trump, a.cards[0].rank))


def _picture_deal() -> Markup:
    state, seed = _seeded(3)
    names = NAMES[:3]
    return figure_html(state, names, f"A three-player deal (seed {seed}): six cards each, the "
                       "trump turned up under the stock, and the attacker and defender of "
                       "the first bout named beside their hands.", figure_id="howto-deal")


def _after_open(state: GameState) -> GameState | None:
    opening = _lowest_open(state)
    if opening is None:
        return None
    after = apply(state, opening)
    covers = {c for a in legal_actions(after) if isinstance(a, Cover)
              and a.player == after.defender for c in a.cards}
    if covers and len(covers) < len(after.hands[after.defender]) - 1:
        return after
    return None


def _picture_attack() -> Markup:
    state, _ = _seeded(2, wanted=_after_open)
    names = NAMES[:2]
    card = state.table[0].attack
    return figure_html(state, names, f"{names[state.attacker]} has opened with {card}. "
                       f"Cards {names[state.defender]} cannot use in any legal move are "
                       "greyed out: the others beat it (a higher card of its suit, or any "
                       "trump).", playable_for=state.defender, highlight=(card,),
                       figure_id="howto-attack")


def _after_cover_with_throw(state: GameState) -> GameState | None:
    after = _after_open(state)
    if after is None:
        return None
    covers = [a for a in legal_actions(after) if isinstance(a, Cover)]
    for cover in covers:
        covered = apply(after, cover)
        if any(isinstance(a, ThrowIn) for a in legal_actions(covered)):
            return covered
    return None


def _picture_throw_in() -> Markup:
    state, _ = _seeded(2, wanted=_after_cover_with_throw, start=20)
    names = NAMES[:2]
    return figure_html(state, names, f"{names[state.defender]} has beaten the first card. "
                       f"{names[state.attacker]} may now add a card of a rank already on the "
                       "table, or say done; the usable cards are the ones not greyed out.",
                       playable_for=state.attacker, figure_id="howto-throw-in")


def _after_transfer_chance(state: GameState) -> GameState | None:
    for action in legal_actions(state):
        if isinstance(action, Open) and len(action.cards) == 1:
            after = apply(state, action)
            if any(isinstance(a, Transfer) for a in legal_actions(after)):
                return after
    return None


def _picture_transfer() -> Markup:
    state, _ = _seeded(3, game="classic-transfer", wanted=_after_transfer_chance)
    names = NAMES[:3]
    return figure_html(state, names, f"The transfer game: {names[state.defender]} holds a "
                       "card of the attacked rank and may lay it beside the attack card, "
                       "which passes the whole attack on to the next player.",
                       playable_for=state.defender, figure_id="howto-transfer")


def _end_state() -> tuple[GameState, Sequence[str]]:
    rules = profile("classic-throw-in").rules(players=3)
    bots = [HeuristicBot() for _ in range(3)]
    from durak_spec.play.bots import play_game

    for seed in range(1, 50):
        result = play_game(rules, list(bots), seed)
        if result.durak is not None:
            state = new_game(rules, seed=seed)
            for action in result.history:
                state = apply(state, action)
            return state, NAMES[:3]
    raise BookError("no seeded game ended with a durak")


def _picture_end() -> Markup:
    state, names = _end_state()
    outcome = speak_seats(str(state.outcome), names)
    return figure_html(state, names, f"The end of a three-player game: {outcome}.",
                       figure_id="howto-end")


PICTURES: Mapping[str, Callable[[], Markup]] = MappingProxyType({
    "deal": _picture_deal, "attack": _picture_attack, "throw-in": _picture_throw_in,
    "transfer": _picture_transfer, "end": _picture_end,
})
"""The pictures of the "How to play" page by name."""


def picture(name: str) -> Markup:
    if name not in PICTURES:
        raise BookError(f"no picture {name!r}; pictures are {', '.join(PICTURES)}")
    return PICTURES[name]()


# -- a narrated game ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bout:
    """One bout of the narrated game: what happened, and a question about it."""

    number: int
    title: str
    moves: tuple[str, ...]
    ending: str
    question: Markup | None
    asked_after: int = 0
    """How many of the moves come before the question."""


def _move_words(action: Action, names: Sequence[str]) -> str:
    who = names[action.player]
    cards = " and ".join(str(c) for c in action.cards)
    if isinstance(action, Open):
        return f"{who} opens with {cards}."
    if isinstance(action, ThrowIn):
        return f"{who} throws in {cards}."
    if isinstance(action, Cover):
        return f"{who} covers {action.attack} with {action.card}."
    if isinstance(action, Transfer):
        return f"{who} passes the attack on with {cards}."
    if isinstance(action, Take):
        return f"{who} gives up and will take the cards."
    if isinstance(action, Done):
        return f"{who} adds nothing more."
    return speak_seats(str(action), names) + "."


def _choice_words(actions: Sequence[Action], names: Sequence[str]) -> list[str]:
    return [_move_words(a, names).rstrip(".").replace(" will take", " take")
            for a in actions]


def narrated_game(seed: int = 11, *, question_for: int = 1) -> tuple[Sequence[str],
                                                                       tuple[Bout, ...]]:
    """A whole two-player game of two heuristic players, bout by bout, with a question
    "what may Boris play here?" in each bout where Boris has a real choice."""
    rules = profile("classic-throw-in").rules(players=2)
    names = NAMES[:2]
    state = new_game(rules, seed=seed)
    bots = [HeuristicBot(), HeuristicBot()]
    rngs = [random.Random(seed * 10 + s) for s in range(2)]
    bouts: list[Bout] = []
    moves: list[str] = []
    question: Markup | None = None
    asked_after = 0
    number = state.bout
    title = f"{names[state.attacker]} attacks {names[state.defender]}"
    for _ in range(400):
        seat = acting_seat(state)
        if seat is None:
            break
        choices = [a for a in legal_actions(state) if a.player == seat]
        if question is None and seat == question_for and len(choices) >= 2:
            question = _question(state, names, choices, len(bouts) + 1)
            asked_after = len(moves)
        action = bots[seat].choose(view(state, seat), rngs[seat])
        for bot in bots:
            bot.observe(action)
        moves.append(_move_words(action, names))
        before = state
        state = apply(state, action)
        if state.bout != number or state.outcome is not None:
            took = before.taking or isinstance(action, Take)
            who = names[before.defender]
            ending = (f"{who} takes the cards of the bout." if took else
                      "Everything is beaten: the cards go to the discard pile.")
            sizes = ", ".join(f"{names[s]} {len(state.hands[s])}" for s in range(2))
            ending += f" After drawing: {sizes} cards; {len(state.stock)} left in the stock."
            if state.outcome is not None:
                ending += " " + speak_seats(str(state.outcome), names) + "."
            bouts.append(Bout(len(bouts) + 1, title, tuple(moves), ending, question,
                              asked_after))
            moves, question, asked_after, number = [], None, 0, state.bout
            if state.outcome is None:
                title = f"{names[state.attacker]} attacks {names[state.defender]}"
    return names, tuple(bouts)


def _question(state: GameState, names: Sequence[str], choices: Sequence[Action],
              bout: int) -> Markup:
    who = names[1]
    # The question is the picture's caption: said once per bout, under the position it asks
    # about (a paragraph of its own above every picture made the page a screen longer).
    picture = figure_html(state, names, f"What may {who} play here?",
                          figure_id=f"game-q{bout}")
    answer_picture = figure_html(state, names, f"The same position: cards {who} cannot use "
                                 "are greyed out.", playable_for=1,
                                 figure_id=f"game-a{bout}")
    items = element("ul", [element("li", inline(w, None, names))
                           for w in _choice_words(choices, names)])
    return join([picture,
                 element("details", element("summary", "The engine's answer"),
                         element("p", f"{who} has {len(choices)} legal moves:"), items,
                         answer_picture, class_="durak-fold durak-answer")])


# -- for implementers --------------------------------------------------------------------------


def _schema() -> dict[str, Any]:
    text = resources.files("durak_spec").joinpath("data", "protocol.schema.json") \
        .read_text(encoding="utf-8")
    return cast(dict[str, Any], json.loads(text))


def engine_protocol() -> Markup:
    """The methods of :class:`durak_spec.protocol.Engine`, read from the class itself."""
    items = []
    for name in ("capabilities", "start", "load", "legal_actions", "apply", "report", "close"):
        member = getattr(Engine, name)
        signature = str(inspect.signature(member)).replace("'", "")
        items.append(element("dt", element("code", f"{name}{signature}")))
        items.append(element("dd", element("p", inspect.getdoc(member) or "")))
    return element("dl", items, class_="durak-api")


def command_options(command: str = "check") -> Markup:
    """The options of a ``durak-spec`` command, from the table its parser writes
    (``durak_spec/data/check_options.json``: the parsers live in the CLI, above the book)."""
    faces = {"check": "check_options.json"}
    if command not in faces:
        raise BookError(f"durak-spec has no command {command!r} that the book describes; "
                        f"it describes {', '.join(faces)}")
    text = resources.files("durak_spec").joinpath("data", faces[command]) \
        .read_text(encoding="utf-8")
    rows = [element("tr", element("td", element("code", names)), element("td", inline(help_text)))
            for names, help_text in json.loads(text)]
    return element("div", element("table", element("thead", element("tr", element(
        "th", "option"), element("th", "what it does"))), element("tbody", rows),
        class_="durak-table"), class_="durak-scroll")


def protocol_reference() -> Markup:
    """Every request of the wire protocol with its fields and its successful answer, from
    the JSON Schema shipped with the package."""
    schema = _schema()
    defs = cast(dict[str, Any], schema["$defs"])
    answers = {"hello": "helloResponse", "start": "reportResponse", "load": "reportResponse",
               "legal": "legalResponse", "apply": "acceptedResponse",
               "state": "reportResponse", "quit": "okResponse"}
    rows = []
    for name, definition in defs.items():
        if not name.endswith("Request") or "properties" not in definition:
            continue
        cmd = cast(dict[str, Any], definition["properties"]).get("cmd", {}).get("const")
        if not isinstance(cmd, str):
            continue
        required = set(definition.get("required", ()))
        fields = [element("code", f) if f in required else join([element("code", f),
                                                                  " (optional)"])
                  for f in definition["properties"] if f not in ("id", "cmd")]
        answer = defs.get(answers.get(cmd, ""), {})
        answer_fields: list[object] = [element("code", f) for f in answer.get("properties", {})
                                       if f != "id"]
        if cmd == "apply":
            rejected = defs.get("rejectedResponse", {}).get("properties", {})
            answer_fields += [" — or, for an illegal action, ",
                              *[element("code", f) for f in rejected if f != "id"]]
        rows.append(element("tr", element("td", element("code", cmd)),
                            element("td", _commas(fields) or "—"),
                            element("td", inline(str(definition.get("description", "")))),
                            element("td", _commas(answer_fields))))
    error = defs.get("errorResponse", {})
    return join([
        element("p", str(schema.get("description", ""))),
        element("div", element("table", element("thead", element("tr", [
            element("th", h) for h in ("cmd", "request fields", "what it does",
                                       "successful answer")])), element("tbody", rows),
            class_="durak-table protocol"), class_="durak-scroll"),
        element("p", element("strong", "Errors. "), inline(str(error.get("description", ""))),
                " Fields: ", _commas([element("code", f) for f in error.get("properties", {})]),
                "."),
    ])


def action_reference() -> Markup:
    """Every kind of action on the wire with its fields, from the JSON Schema."""
    schema = _schema()
    kinds = cast(dict[str, Any], schema["$defs"]["action"]).get("oneOf", [])
    rows = []
    for kind in kinds:
        properties = cast(dict[str, Any], kind.get("properties", {}))
        name = properties.get("type", {}).get("const", "?")
        fields = [element("code", f) for f in properties if f not in ("player", "type")]
        rows.append(element("tr", element("td", element("code", str(name))),
                            element("td", _commas(fields) or "—"),
                            element("td", inline(str(kind.get("description", ""))))))
    return element("div", element("table", element("thead", element("tr", [
        element("th", h) for h in ("type", "fields besides player", "meaning")])),
        element("tbody", rows), class_="durak-table"), class_="durak-scroll")


def _commas(items: Sequence[object]) -> Markup:
    out: list[object] = []
    for item in items:
        if out and not (isinstance(item, str) and item.startswith(" ")):
            out.append(", ")
        out.append(item)
    return join(out)


def protocol_transcript() -> Markup:
    """A complete conversation with the reference engine over the wire, made while the page
    is built: handshake, a deal from a deck order, the legal actions, an illegal and a legal
    move, the state, and the end. Every line is shown in full."""
    from durak_spec.protocol.serve import serve
    from durak_spec.protocol.wire import (
        ApplyRequest,
        HelloRequest,
        LegalRequest,
        QuitRequest,
        Request,
        StartRequest,
        StateRequest,
        encode_request,
    )

    rules = profile("classic-throw-in").rules(players=2)
    state = new_game(rules, seed=3)
    deck: list[Card] = []
    for hand in state.hands:
        deck.extend(hand)
    deck.extend(state.stock)
    opens = [a for a in legal_actions(state) if isinstance(a, Open)]
    opening = min(opens, key=lambda a: a.cards[0].rank)
    requests: list[Request] = [HelloRequest(1), StartRequest(2, rules, tuple(deck), 3),
                               LegalRequest(3), ApplyRequest(4, Take(player=opening.player)),
                               ApplyRequest(5, opening), StateRequest(6), QuitRequest(7)]
    lines = [encode_request(r) for r in requests]
    out = io.StringIO()
    serve(ReferenceEngine(), io.StringIO("\n".join(lines) + "\n"), out)
    answers = out.getvalue().splitlines()
    body: list[object] = []
    for request, answer in zip(lines, answers, strict=False):
        body.append(element("span", "→ " + request, class_="to"))
        body.append("\n")
        body.append(element("span", "← " + answer, class_="from"))
        body.append("\n")
    return element("pre", body, class_="durak-pre durak-transcript")


# -- "Play a game": the form of the game against the computer ----------------------------------


def play_form(engine_bytes: int | None) -> Markup:
    """The form of the "Play a game" page: profile, players, opponents, pace; the game
    itself is drawn by the page's script with the engine running in the browser.
    ``engine_bytes`` is the size of the engine served with the site (``None``: this build
    of the site has no engine, and the page says so)."""
    if engine_bytes is None:
        return element("p", "This build of the site does not include the engine, so the game "
                       "cannot be played here: build the site after packing the engine "
                       "(python book/web/pack.py), or play in a terminal with durak-spec play.",
                       class_="durak-game-status error")
    from durak_spec.model.rules import PROFILES
    from durak_spec.play.review import DEFAULT_SAMPLES
    from durak_spec.play.web import OPPONENTS, REVIEW_SAMPLES

    profiles = element("select", [element("option", p.title, value=p.name,
                                          selected=p.name == "classic-throw-in")
                                  for p in PROFILES.values()], id="durak-profile",
                       name="profile")
    players = element("select", [element("option", str(n), value=str(n), selected=n == 3)
                                 for n in range(2, 7)], id="durak-players", name="players")
    words = {"random": "random player (any legal move)",
             "heuristic": "heuristic player (the sources' tips)",
             "ismcts": "tree search player (the strongest; about a second a move)"}
    opponents = element("select", [element("option", words.get(k, k), value=k,
                                           selected=k == "heuristic") for k in OPPONENTS],
                        id="durak-opponent", name="opponent")
    paces = element("select", [element("option", text, value=str(ms), selected=ms == 800)
                               for text, ms in (("slow", 1400), ("readable", 800),
                                                ("quick", 300))],
                    id="durak-pace", name="pace")
    buttons = element(
        "div",
        element("button", "New game", type="button", id="durak-new", disabled=True),
        element("button", "Resume the saved game", type="button", id="durak-resume",
                hidden=True),
        element("button", "Save to a file", type="button", id="durak-download",
                disabled=True),
        element("label", "Load a saved game", element("input", type="file", id="durak-load",
                                                      accept=".json,application/json"),
                class_="durak-load"),
        class_="durak-play-actions")
    form = element("form", element("label", "Rules", profiles),
                   element("label", "Players", players),
                   element("label", "The computer plays", opponents),
                   element("label", "Pace of the computer's moves", paces), buttons,
                   class_="durak-play-form", id="durak-play-form",
                   aria_label="a new game against the computer")
    return join([form,
                 element("p", "The game needs JavaScript, and the site served over HTTP "
                         "(a page opened as a file cannot start the engine: serve the site's "
                         "folder, for example with python -m http.server).",
                         class_="durak-game-status", id="durak-game-status", role="status",
                         aria_live="polite", data_ready="The game is played by the reference "
                         "engine in your browser; it starts when you press New game (the "
                         f"first start loads {engine_bytes / 1e6:.0f} MB, once)."),
                 element("div", "", id="durak-game"),
                 _review_box(REVIEW_SAMPLES, DEFAULT_SAMPLES),
                 element("script", "", type="module", src="_static/durak-game.mjs")])


def _review_box(samples: int, terminal_samples: int) -> Markup:
    """The coach of the "Play a game" page: shown when a game is over, the button runs
    ``{"op": "review"}`` of the page's Match a piece at a time (durak-game.mjs)."""
    return element(
        "section",
        element("button", "Review this game", type="button", id="durak-review-start"),
        element("p", f"The coach replays your moves and weighs each against the others from "
                f"what you knew then, playing it out in {samples} sampled deals of the cards "
                f"you could not see (a few seconds here; durak-spec review samples "
                f"{terminal_samples} and is steadier).", id="durak-review-status",
                class_="durak-game-status", role="status", aria_live="polite"),
        element("progress", "", id="durak-review-progress", hidden=True),
        element("div", "", id="durak-review-result"),
        id="durak-review", class_="durak-review", hidden=True,
        aria_label="the coach's review of the game")
