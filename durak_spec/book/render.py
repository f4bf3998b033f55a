"""HTML pieces of the rules book, built with :func:`durak_spec.game.markup.element`.

Everything here is a function of its arguments and returns :class:`Markup`: an example
(its steps as played, with the engine's answers, a picture of its position, the position
after the last move and the Python that reproduces it, both folded away), a picture, the
variants table, the rule index, the sources and the glossary. The Sphinx extension
(:mod:`durak_spec.book.extension`) places them on the pages.

Every picture of an example is a ``<figure>`` with a stable id (``pos-BEAT-1.2``) and the
position it shows as ``data-position`` (the saved-position JSON of
:func:`durak_spec.game.persist.state_to_json`), so a later script can rebuild the position
in the browser without the page being drawn again.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from durak_spec.core.cards import Card
from durak_spec.core.ruleindex import CHAPTERS, SOURCES, RuleEntry, load_rule_index
from durak_spec.engine import legal_actions
from durak_spec.game.markup import Markup, element, join
from durak_spec.game.svg import position_svg
from durak_spec.model.actions import Action
from durak_spec.model.rules import AXES, PROFILES, Axis, Profile
from durak_spec.model.state import GameState
from durak_spec.spec.gherkin import Example, Step
from durak_spec.spec.runner import TraceStep

from .play import Played, position_json, python_of
from .site import PAGE_OF_CHAPTER, Site
from .text import inline, paragraphs, speak, speak_seats

__all__ = ["example_html", "figure_html", "glossary_html", "rule_index_html",
           "sources_html", "variants_table_html"]

KIND_WORDS: Mapping[str, str] = MappingProxyType({
    "rule": "rule", "variant": "variant", "clarification": "clarification",
    "example": "worked example", "fact": "fact", "tip": "tip", "glossary": "glossary",
})
FEATURES_URL = "_static/spec/features/"
"""Where the site ships the feature files (copied there by the extension)."""


# -- small pieces -------------------------------------------------------------------------


def source_links(sources: Iterable[str]) -> Markup:
    return join(element("a", s, class_="durak-badge source", href=f"sources.html#source-{s}",
                        title=f"source {s}") for s in sources)


def origin_html(entry: RuleEntry) -> Markup:
    """Where an index entry comes from: its sources, and the specification's decision."""
    parts: list[object] = []
    if entry.sources:
        parts += ["Sources ", source_links(entry.sources)]
    if entry.clarification:
        if parts:
            parts.append(" · ")
        parts.append(element("a", "decided by this specification", class_="durak-badge clar",
                             href=f"clarifications.html#{entry.id}",
                             title="the sources leave this open"))
    return join(parts)


def rule_meta_html(entry: RuleEntry) -> Markup:
    return element("p", element("span", KIND_WORDS[entry.kind],
                                class_=f"durak-badge kind kind-{entry.kind}"),
                   " ", origin_html(entry), class_="durak-rule-meta")


# -- pictures ------------------------------------------------------------------------------


def figure_html(state: GameState, names: Sequence[str], caption: str, *,
                playable_for: int | None = None, highlight: Iterable[Card] = (),
                figure_id: str | None = None, seat: int | None = None,
                show_all: bool = True, moves: Sequence[Action] = ()) -> Markup:
    """A picture of ``state`` with its caption, its id and its position as data.

    ``data-position`` is the saved-position JSON, ``data-players`` the players' names and
    ``data-moves`` (when ``moves`` are given) the example's moves from this position as a
    JSON list of actions: what the page's "Try it" board starts from and replays. A
    position in which nobody can move (the game is over) has no ``data-position``, so the
    page offers no "Try it" where nothing can be played."""
    live = bool(legal_actions(state))
    svg = position_svg(state, names=list(names) if len(names) == state.players else None,
                       playable_for=playable_for, highlight=tuple(highlight), seat=seat,
                       show_all=show_all)
    return element("figure", svg, element("figcaption", inline(caption, None, names)),
                   class_="durak-position", id=figure_id,
                   data_position=position_json(state) if live else None,
                   data_players=",".join(names) if names else None,
                   data_moves=json.dumps([m.to_json() for m in moves], ensure_ascii=False,
                                         separators=(",", ":")) if moves else None)


@dataclass(frozen=True, slots=True)
class _Picture:
    before: GameState
    after: GameState | None
    actor: int | None
    tried: tuple[Card, ...]
    played: tuple[Card, ...]
    dealt: bool
    moves: tuple[Action, ...] = ()
    """Every move the example makes from ``before``, accepted or refused, in order."""


_ACTOR_STEP = re.compile(r"^(?:only )?(?P<name>[A-Z][a-z]+)(?:'s legal moves| may )")
_SEES = re.compile(r"^(?P<name>[A-Z][a-z]+) sees$")


def _picture_of(played: Played) -> _Picture | None:
    """The position before the example's first move (and the one after its last)."""
    events = played.events
    first = next((i for i, e in enumerate(events) if e.kind in ("load", "start")), None)
    if first is None:
        return None
    start = events[first]
    moves = []
    for event in events[first + 1:]:
        if event.kind != "apply":
            break
        moves.append(event)
    dealt = start.kind == "start"
    if moves:
        accepted = [m for m in moves if m.accepted]
        action = moves[0].action
        last = accepted[-1].after if accepted else None
        return _Picture(before=moves[0].before or start.after,
                        after=last if last is not None and last != moves[0].before else None,
                        actor=action.player if action else None,
                        tried=action.cards if action else (),
                        played=accepted[-1].action.cards if accepted and accepted[-1].action
                        else (), dealt=dealt,
                        moves=tuple(m.action for m in moves if m.action is not None))
    actor: int | None = None
    names = played.names
    for step in played.result.trace:
        match = _ACTOR_STEP.match(step.text)
        if match and match.group("name") in names and step.keyword != "Given":
            actor = names.index(match.group("name"))
            break
    return _Picture(before=start.after, after=None, actor=actor, tried=(), played=(),
                    dealt=dealt)


def _caption(picture: _Picture, names: Sequence[str]) -> str:
    """A short caption: the pictures' marks are explained once, on the How to play page."""
    who = names[picture.actor] if picture.actor is not None and picture.actor < len(names) \
        else ""
    if picture.tried and who:
        many = len(picture.tried) > 1
        return (f"Before {who}'s move. Greyed out: what {who} cannot play now; ringed: the "
                f"card{'s' if many else ''} {who} plays.")
    when = "After the deal" if picture.dealt else "The position"
    if who:
        return f"{when}. Greyed out: what {who} cannot play now."
    return f"{when}."


def pictures_html(played: Played) -> Markup:
    picture = _picture_of(played)
    if picture is None:
        return Markup("")
    names = played.names
    number = played.example.number
    out: list[Markup] = [figure_html(picture.before, names, _caption(picture, names),
                                     playable_for=picture.actor, highlight=picture.tried,
                                     figure_id=f"pos-{number}", moves=picture.moves)]
    shown = 0
    for step in played.result.trace:  # VIEW-1, VIEW-2: "Anna sees"
        match = _SEES.match(step.text)
        if not match or match.group("name") not in names or step.report is None or shown >= 2:
            continue
        from durak_spec.protocol import Report

        state = next((e.after for e in reversed(played.events)
                      if Report.of(e.after) == step.report), None)
        if state is None:
            continue
        who = match.group("name")
        seat = names.index(who)
        shown += 1
        out.append(figure_html(
            state, names, f"What {who} sees here: {who}'s own cards face up, the other hands "
            "face down apart from the cards every player knows.", playable_for=seat,
            seat=seat, show_all=False, figure_id=f"view-{number}-{shown}"))
    if picture.after is not None:
        result = picture.after.outcome
        suffix = f" {speak_seats(str(result), names)}." if result is not None else ""
        out.append(element("details", element("summary", "The position after the last move"),
                           figure_html(picture.after, names,
                                       "After the last move; the card last played is ringed "
                                       "in blue." + suffix, highlight=picture.played,
                                       figure_id=f"after-{number}"),
                           class_="durak-fold durak-after"))
    return join(out)


# -- an example ----------------------------------------------------------------------------


def _verdict_html(trace: TraceStep, site: Site, names: Sequence[str]) -> Markup:
    verdict = trace.verdict
    if verdict is None:
        return Markup("")
    if verdict.ok:
        return element("span", "✓ allowed", class_="verdict accepted")
    reason = speak_seats(str(getattr(verdict, "reason", "") or ""), names)
    rule = getattr(verdict, "rule", None)
    text = f"{reason} ({rule})" if rule else reason
    return element("span", "✗ not allowed: ", inline(text, site.link, names),
                   class_="verdict rejected")


_SAID = re.compile(r"it is (accepted|rejected)(?: by ([A-Z]+-[0-9]+))?")


def _prose_steps(steps: Sequence[Step], trace: Mapping[int, TraceStep]
                 ) -> list[tuple[Step, str]]:
    """The steps to show, each with its keyword: a "Then it is accepted" or "Then it is
    rejected by BEAT-3" that repeats the verdict already printed after the move is left
    out (the verdict is said once), and an "And" after it takes its "Then"."""
    out: list[tuple[Step, str]] = []
    last: tuple[bool, str | None] | None = None  # the last verdict shown: (ok, rule)
    dropped = ""
    for step in steps:
        shown = trace.get(step.line)
        text = shown.text if shown is not None else step.text
        said = _SAID.fullmatch(text.strip())
        if said and last is not None and (said.group(1) == "accepted") == last[0] \
                and said.group(2) in (None, last[1]):
            dropped = dropped or step.keyword
            continue
        keyword = dropped if dropped and step.keyword.strip() in ("And", "But") else step.keyword
        dropped = ""
        out.append((step, keyword))
        verdict = shown.verdict if shown is not None else None
        if verdict is not None:
            last = (verdict.ok, getattr(verdict, "rule", None))
    return out


def _step_html(step: Step, trace: TraceStep | None, site: Site, names: Sequence[str],
               keyword: str | None = None) -> Markup:
    text = trace.text if trace is not None else step.text
    parts: list[object] = [element("span", keyword or step.keyword, class_="kw"), " ",
                           inline(text, site.link, names)]
    if trace is not None:
        verdict = _verdict_html(trace, site, names)
        if verdict:
            parts += [" ", verdict]
    if step.docstring is not None:
        parts.append(element("pre", speak(step.docstring, names), class_="docstring"))
    if step.table:
        parts.append(table_html(step.table, site, header=False, names=names))
    return element("li", parts, class_=f"step step-{step.type}")


def table_html(rows: Sequence[Sequence[str]], site: Site | None, *, header: bool,
               names: Sequence[str] = ()) -> Markup:
    link = site.link if site is not None else None
    body = []
    for i, row in enumerate(rows):
        cell = "th" if header and i == 0 else "td"
        body.append(element("tr", [element(cell, inline(c, link, names)) for c in row]))
    return element("div", element("table", body, class_="durak-table"), class_="durak-scroll")


def example_html(example: Example, played: Played | None, site: Site, *,
                 python: bool = True, heading: str = "h3") -> Markup:
    """One example as an ``<article>`` whose id is its number."""
    index = load_rule_index()
    names: Sequence[str] = played.names if played is not None else ()
    trace: dict[int, TraceStep] = {}
    if played is not None:
        for step in played.result.trace:
            trace.setdefault(step.line, step)
    worked = [index[t] for t in example.own_tags if t in index and index[t].kind == "example"]
    source = f"{FEATURES_URL}{example.path.name}"
    head = element(heading, element("a", example.number, href=f"#{example.number}",
                                    class_="ex-number", title="link to this example"),
                   " ", inline(example.name, site.link, names), " ",
                   element("a", "spec", href=source, class_="feature-link ex-source",
                           title=f"the example in the specification: {example.path.name}, "
                                 f"line {example.line}"),
                   class_="ex-title")
    body: list[object] = [head]
    for entry in worked:
        body.append(element("p", element("strong", f"Worked example {entry.id}"),
                            f" of source {', '.join(entry.sources)}: ",
                            inline(entry.summary, site.link, names), class_="worked-example"))
    body.append(paragraphs(example.description, site.link, names))
    steps: list[object] = [element("ol", [_step_html(s, trace.get(s.line), site, names, kw)
                                          for s, kw in _prose_steps(example.steps, trace)],
                                   class_="durak-steps")]
    figures: Markup = Markup("")
    if played is not None:
        figures = pictures_html(played)
        code = python_of(played) if python else None
        if code is not None:
            steps.append(element("details", element("summary", "The Python of this example"),
                                 element("pre", element("code", code,
                                                        class_="language-python")),
                                 class_="durak-fold durak-python"))
    body.append(element("div", element("div", steps, class_="ex-text"),
                        element("div", figures, class_="ex-pictures") if figures else None,
                        class_="ex-body" + (" with-pictures" if figures else "")))
    return element("article", body, class_="durak-example", id=example.number)


def examples_block(examples: Sequence[Example], site: Site,
                   played: Mapping[str, Played]) -> Markup:
    """A Rule's examples: the first shown, the others folded under "more examples"."""
    if not examples:
        return Markup("")
    first, rest = examples[0], examples[1:]
    out = [example_html(first, played.get(first.number), site)]
    if rest:
        out.append(element(
            "details",
            element("summary", f"{len(rest)} more example{'s' if len(rest) != 1 else ''}: ",
                    ", ".join(e.number for e in rest)),
            [example_html(e, played.get(e.number), site) for e in rest],
            class_="durak-fold durak-more"))
    return join(out)


def example_links(examples: Sequence[Example], site: Site) -> Markup:
    """Links to examples by number (the name as a tooltip), with the pages they are on."""
    by_page: dict[str, list[Example]] = {}
    for example in examples:
        page = site.example_urls[example.number].split(".html", 1)[0]
        by_page.setdefault(page, []).append(example)
    items = []
    for page, found in by_page.items():
        chapter = next((CHAPTERS[c] for c, p in PAGE_OF_CHAPTER.items() if p == page), page)
        items.append(element("li", element("a", chapter, href=f"{page}.html"), ": ",
                             example_numbers(found, site)))
    return element("ul", items, class_="durak-example-links")


def example_numbers(examples: Sequence[Example], site: Site) -> Markup:
    """Links to examples by number, separated by dots (the name as a tooltip)."""
    links: list[object] = []
    for example in examples:
        if links:
            links.append(" · ")
        links.append(element("a", example.number, href=site.example_urls[example.number],
                             class_="ex-number", title=speak(example.name)))
    return join(links)


# -- the variants table --------------------------------------------------------------------


def _value(profile: Profile, axis: Axis) -> str:
    return Axis.format(getattr(profile.base, axis.name))


def variants_table_html(site: Site) -> Markup:
    """Profiles as rows; as columns the choice of game, then only the axes on which some
    profiles differ. A value that differs from the most common one is marked; the choice of
    game is a column of its own, not marked as a disagreement."""
    profiles = list(PROFILES.values())
    game_axis = next(a for a in AXES if a.name == "transfer")
    differing = [a for a in AXES if a is not game_axis
                 and len({_value(p, a) for p in profiles}) > 1]
    readings = [a for a in AXES if a.readings and a not in differing]
    same = [a for a in AXES if a is not game_axis and a not in differing and a not in readings]
    head = element("tr", element("th", "Profile", scope="col"),
                   element("th", "Game", scope="col", class_="game-col"),
                   [element("th", a.title, " ", join(
                       element("a", r, href=site.link(r) or "#", class_="rule-ref")
                       for r in a.rules[:1]), scope="col", id=f"axis-{a.name}")
                    for a in differing])
    rows = []
    for p in profiles:
        game = "transfer game" if p.base.transfer else "throw-in game"
        cells = [element("th", element("span", p.title, class_="profile-title"), element("br"),
                         element("span", p.name, class_="profile-name"), scope="row"),
                 element("td", game, class_="game-col", data_label="Game")]
        for axis in differing:
            values = Counter(_value(q, axis) for q in profiles)
            common = values.most_common(1)[0][0]
            value = _value(p, axis)
            origin = p.origin(axis.name)
            mark = element("span", origin.source or "spec",
                           class_="origin src" if origin.source else "origin clar",
                           title=origin.note)
            differs = value != common and not axis.wording  # wordings play alike
            cells.append(element("td", element("span", value, class_="value"), " ", mark,
                                 class_="differs" if differs else "same",
                                 data_label=axis.title))
        rows.append(element("tr", cells, id=f"profile-{p.name}"))
    table = element("table", element("thead", head), element("tbody", rows),
                    class_="durak-table durak-matrix")
    legend = element(
        "p", "Each row is a named profile. ",
        element("span", "A", class_="origin src"), " to ",
        element("span", "D", class_="origin src"),
        ": the value is stated by that source; ", element("span", "spec", class_="origin clar"),
        ": the source is silent and this specification decides. A marked cell differs from "
        "most profiles. The game column is the choice between the throw-in and the transfer "
        "game, not a disagreement; neither is the hand-limit column, whose two values word "
        "one rule in the sources' ways and allow the same cards in every game.",
        class_="legend")
    same_list = element("p", "The same in every profile: ",
                        join(element("span", f"{a.title} ({_value(profiles[0], a)})",
                                     class_="same-axis") if i == 0 else
                             join(["; ", element("span", f"{a.title} ({_value(profiles[0], a)})",
                                                 class_="same-axis")])
                             for i, a in enumerate(same)), ".", class_="legend") if same \
        else Markup("")
    return join([element("div", table, class_="durak-scroll durak-matrix-wrap"), legend,
                 same_list, readings_html(site, readings)])


def readings_html(site: Site, axes: list[Axis]) -> Markup:
    """The readings on which computer games differ and no source decides (issue 24): per
    axis its title and each value with the clarification that states it; every profile
    plays the first value."""
    if not axes:
        return Markup("")
    items = []
    for axis in axes:
        values = [join([element("span", value, class_="value"), " (",
                        element("a", rule, href=site.link(rule) or "#", class_="rule-ref"),
                        ")"]) for value, rule in axis.reading_rules()]
        items.append(element("li", element("strong", axis.title), ": ",
                             join(v if i == 0 else join([" or ", v])
                                  for i, v in enumerate(values)),
                             id=f"reading-{axis.name}"))
    return join([element("p", "Readings on which computer games differ and no source "
                         "decides. Every profile plays the first; an engine says in its "
                         "handshake which it plays, and the checker plays that one:",
                         class_="legend"),
                 element("ul", items, class_="durak-readings")])


def profile_notes_html() -> Markup:
    out = []
    for p in PROFILES.values():
        items = [element("li", element("strong", a.title), ": ", _value(p, a), " (",
                         f"source {p.origin(a.name).source}" if p.origin(a.name).source
                         else "this specification's decision", ": ",
                         speak(p.origin(a.name).note), ")") for a in AXES]
        out.append(element("details", element("summary", p.title, " ",
                                              element("code", p.name)),
                           element("p", speak(p.description)), element("ul", items),
                           class_="durak-fold durak-notes", id=f"notes-{p.name}"))
    return join(out)


# -- the rule index, sources and glossary ----------------------------------------------------


def rule_index_html(site: Site) -> Markup:
    index = load_rule_index()
    out = []
    for slug, title in CHAPTERS.items():
        entries = index.by_chapter(slug)
        if not entries:
            continue
        rows = []
        for entry in entries:
            examples = site.examples_of.get(entry.id, ())
            links = join(element("a", e.number, href=site.example_urls[e.number],
                                 class_="ex-link", title=e.name) if i == 0 else
                         join([" ", element("a", e.number, href=site.example_urls[e.number],
                                            class_="ex-link", title=e.name)])
                         for i, e in enumerate(examples[:8]))
            if len(examples) > 8:
                links = join([links, f" and {len(examples) - 8} more"])
            if not examples:
                links = element("span", "shown in the book only" if entry.kind == "glossary"
                                else "no example yet", class_="muted")
            place = site.link(entry.id) or "#"
            rows.append(element(
                "tr", element("td", element("a", entry.id, href=place,
                                            class_=f"durak-badge rule-id kind-{entry.kind}"),
                              class_="ri-id"),
                element("td", element("a", entry.title, href=place), class_="ri-title"),
                element("td", KIND_WORDS[entry.kind], class_="ri-kind", data_label="Kind"),
                element("td", origin_html(entry), class_="ri-sources"),
                element("td", links, class_="ex-links", data_label="Examples"), id=entry.id))
        out.append(element("h2", element("a", title, href=f"{PAGE_OF_CHAPTER[slug]}.html"),
                           id=f"chapter-{slug}", class_="index-chapter"))
        out.append(element("div", element(
            "table", element("thead", element("tr", [element("th", h) for h in
                                                     ("ID", "Title", "Kind", "Sources",
                                                      "Examples")])),
            element("tbody", rows), class_="durak-table rule-index"), class_="durak-scroll"))
    return join(out)


@dataclass(frozen=True, slots=True)
class SourceFacts:
    title: str
    """The document's title as it gives it, in its language."""
    gloss: str
    """The title in English."""
    language: str
    covers: str
    """What it covers, in this project's words."""


SOURCE_FACTS: Mapping[str, SourceFacts] = MappingProxyType({
    "A": SourceFacts(
        "Durak spielen: Regeln, Beispiele und Tipps", "Playing Durak: rules, examples and tips",
        "German",
        "A web page with the complete rules of both games, the throw-in game and the transfer "
        "game, for two to six players. It works through a handful of drawn card examples, "
        "limits the first bout to five attack cards, explains the marks of its own playing "
        "screen, and closes with advice for players and a list of terms."),
    "B": SourceFacts(
        "Durak online mit einem Freund", "Durak online with a friend", "German",
        "The help page of a two-player web game. Its rules section is short and exact: a bout "
        "may open with several cards of one rank, the defender's hand at the start of the "
        "bout caps the attack, and the transfer may be sent straight back. It rejects two "
        "house rules by name (swapping the trump six, a special limit in the first bout). "
        "The rest of the page is about invitations and resuming a game."),
    "C": SourceFacts(
        "Leer Durak: Tutorial", "Learn Durak: tutorial", "Dutch",
        "A tutorial of the throw-in game in steps, with named cards in its examples (played "
        "by two), rules that also speak of more players, a cap of six attack cards or the "
        "defender's hand, whichever is smaller, how the game ends, and a few pieces of "
        "advice, one of them for tables of more than two."),
    "D": SourceFacts(
        "Noteikumi", "Rules", "Latvian",
        "A numbered rules list: setting up, the order of the cards, the plain game and the "
        "transfer game for two to six players. Players draw in the order they joined the "
        "attack, the cap is the defender's hand when the bout began, the ace of trumps "
        "cannot be beaten, and the aim is to be first to run out of cards."),
})


def sources_html(site: Site) -> Markup:
    index = load_rule_index()
    out = []
    for source in SOURCES:
        facts = SOURCE_FACTS[source]
        ids = [e for e in index.entries if source in e.sources]
        profiles = [p for p in PROFILES.values()
                    if any(p.origin(a.name).source == source for a in AXES)]
        counts = Counter(KIND_WORDS[e.kind] for e in ids)
        summary = ", ".join(f"{n} {k}{'s' if n != 1 else ''}" for k, n in counts.items())
        section = [
            element("h2", element("span", source, class_="durak-badge source big"), " ",
                    element("cite", facts.title, lang={"German": "de", "Dutch": "nl",
                                                        "Latvian": "lv"}[facts.language]),
                    " ", element("span", f"({facts.gloss})", class_="gloss")),
            element("p", element("strong", "Language: "), facts.language, ". ",
                    element("strong", "Cited as: "), f"source {source}."),
            element("p", facts.covers),
        ]
        if profiles:
            section.append(element("p", element("strong", "Profiles built from it: "),
                                   join(element("a", p.title,
                                                href=f"variants-matrix.html#profile-{p.name}")
                                        if i == 0 else join([", ", element(
                                            "a", p.title,
                                            href=f"variants-matrix.html#profile-{p.name}")])
                                        for i, p in enumerate(profiles)), "."))
        section.append(element("p", element("strong", "What it states"), f" ({summary}):"))
        section.append(element("ul", [element("li", element(
            "a", e.id, href=site.link(e.id) or "#", class_=f"durak-badge rule-id kind-{e.kind}"),
            " ", element("a", e.title, href=site.link(e.id) or "#")) for e in ids],
            class_="durak-id-list"))
        out.append(element("section", section, class_="durak-source", id=f"source-{source}"))
    return join(out)


GLOSSARY: tuple[tuple[str, str, str, str, str, str], ...] = (
    # English, German (A, B), Dutch (C), Latvian (D), Russian, note
    ("durak", "Durak", "durak", "duraks", "дурак (durak)",
     "the one player still holding cards when everyone else is out: the loser; also the "
     "name of the game (Russian for fool)"),
    ("throw-in game", "Podkidnoj", "—", "parastā spēle", "подкидной (podkidnoy)",
     "attackers may add cards of ranks already on the table"),
    ("transfer game", "Perewodnoj", "—", "pārnesamā spēle", "переводной (perevodnoy)",
     "the defender may also pass the attack on with a card of the same rank"),
    ("trump", "Trumpf", "troef", "trumpis", "козырь (kozyr)",
     "the suit of the card turned up after the deal"),
    ("bout", "Angriff", "ronde", "gājiens", "ход (khod)",
     "one round of play, from the opening card(s) to the discard or the take"),
    ("attacker", "Angreifer", "aanvaller", "uzbrucējs", "атакующий (atakuyushchiy)", ""),
    ("defender", "Verteidiger", "verdediger", "aizstāvis", "отбивающийся (otbivayushchiysya)",
     ""),
    ("beat, cover", "schlagen", "verslaan", "pārsist", "бить (bit')",
     "answer an attack card with a card that ranks above it"),
    ("throw in", "nachlegen", "—", "pievienot", "подкидывать (podkidyvat')",
     "add an attack card to the bout"),
    ("take", "aufnehmen", "pakken", "paņemt", "взять (vzyat')",
     "pick up every card of the bout"),
    ("transfer", "weitergeben", "—", "pārnest", "переводить (perevodit')",
     "transfer game only"),
    ("done", "fertig", "—", "—", "бито (bito)", "an attacker adds nothing more"),
    ("stock", "Stapel", "stapel", "kava", "колода (koloda)", "the cards still to be drawn"),
    ("discard pile", "Ablage", "aflegstapel", "atmestās kārtis", "отбой (otboy)",
     "cards of beaten bouts, out of the game"),
)


def glossary_html() -> Markup:
    head = element("tr", [element("th", h) for h in
                          ("English", "German (A, B)", "Dutch (C)", "Latvian (D)", "Russian",
                           "Note")])
    rows = [element("tr", [element("td", c, lang=lang) for c, lang in
                           zip(row, ("en", "de", "nl", "lv", "ru", "en"), strict=True)])
            for row in GLOSSARY]
    return element("div", element("table", element("thead", head), element("tbody", rows),
                                  class_="durak-table glossary"), class_="durak-scroll")
