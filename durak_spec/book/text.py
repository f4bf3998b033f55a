"""Reader language: the specification's text as the book shows it, escaped by construction.

The feature files and the engine speak to programs as well as people: settings by their
code names (``throw_in``), players by seat (``P1``), the odd test file. :func:`speak`
turns such text into what a reader of the book should see (setting titles, player
names), and :func:`inline` and :func:`paragraphs` make HTML of it (cards coloured, rule
IDs linked, ```code``` as code) with :func:`durak_spec.game.markup.element`, so that
nothing reaches the page unescaped.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence

from durak_spec.core.ruleindex import load_rule_index
from durak_spec.game.markup import Markup, element, join
from durak_spec.model.rules import AXES, PROFILES

__all__ = ["inline", "paragraphs", "speak", "speak_seats"]

_AXIS_TITLES = tuple((axis.name, axis.title) for axis in AXES if "_" in axis.name)
_AXIS = re.compile(r'"?(?<![\w-])(' + "|".join(re.escape(name) for name, _ in _AXIS_TITLES)
                   + r')(?![\w-])"?')
_PROFILE_TITLES = tuple((p.name, p.title) for p in PROFILES.values())
_PROFILE = re.compile(r'"?(?<![\w-])(' + "|".join(
    re.escape(name) for name, _ in sorted(_PROFILE_TITLES, key=lambda n: -len(n[0])))
    + r')(?![\w-])"?')
_TEST_FILE = re.compile(r"\s*\(?\b(?:tests|benchmarks)/[\w/]+\.py\)?")
_SEAT = re.compile(r"\bP([0-9])\b")
_TAG = re.compile(r"(?:tagged\s+)?@([a-z][\w-]*)")
_TOKENS = re.compile(
    r"(?P<code>``[^`]+``|`[^`]+`)"
    r"|(?P<card>(?<![\w-])(?:10|[6-9JQKA])[♣♦♥♠])"
    r"|(?P<id>\b[A-Z]+-[1-9][0-9]*(?:\.[0-9]+[a-z]?)?\b)")


def speak_seats(text: str, names: Sequence[str]) -> str:
    """Seat codes (``P1``) replaced by the players' names (seats without a name stay)."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else f"player {seat + 1}"

    return _SEAT.sub(name, text)


def speak(text: str, names: Sequence[str] = ()) -> str:
    """Text for readers: setting and profile names as their titles, seats as names, no
    test files, no tags."""
    titles = dict(_AXIS_TITLES)
    text = _AXIS.sub(lambda m: f"“{titles[m.group(1)]}”", text)
    profiles = dict(_PROFILE_TITLES)
    text = _PROFILE.sub(lambda m: f"“{profiles[m.group(1)]}”", text)
    text = _TEST_FILE.sub("", text)
    text = _TAG.sub(lambda m: m.group(1), text)
    return speak_seats(text, names)


Linker = Callable[[str], str | None]
"""Rule ID (or example number) -> the URL to link it to, or ``None`` for no link."""


def inline(text: str, link: Linker | None = None, names: Sequence[str] = ()) -> Markup:
    """One line of reader text as HTML: cards coloured, code as code, IDs linked."""
    text = speak(text, names)
    index = load_rule_index()
    parts: list[object] = []
    at = 0
    for match in _TOKENS.finditer(text):
        parts.append(text[at:match.start()])
        at = match.end()
        if match.group("code"):
            parts.append(element("code", match.group("code").strip("`")))
        elif match.group("card"):
            card = match.group("card")
            red = card[-1] in "♥♦"
            parts.append(element("span", card, class_="card-text red" if red else "card-text"))
        else:
            ident = match.group("id")
            base = ident.split(".", 1)[0]
            url = link(ident) if link is not None and base in index else None
            if url is None:
                parts.append(ident)
            else:
                title = index[base].title if ident == base else f"example {ident}"
                parts.append(element("a", ident, href=url, class_="rule-ref", title=title))
    parts.append(text[at:])
    return join(parts)


def paragraphs(text: str, link: Linker | None = None, names: Sequence[str] = ()) -> Markup:
    """A Gherkin description as HTML: paragraphs, lists and indented (preformatted) blocks."""
    body = textwrap.dedent(text.strip("\n"))
    if not body.strip():
        return Markup("")
    out: list[Markup] = []
    for block in re.split(r"\n\s*\n", body):
        lines = block.splitlines()
        if all(line.startswith((" ", "\t")) for line in lines if line.strip()):
            out.append(element("pre", speak(textwrap.dedent(block), names), class_="durak-pre"))
        elif re.match(r"\s*[-*] ", lines[0]):
            items: list[str] = []
            for line in lines:
                if re.match(r"\s*[-*] ", line):
                    items.append(re.sub(r"^\s*[-*] ", "", line))
                elif items:
                    items[-1] += " " + line.strip()
            out.append(element("ul", [element("li", inline(i, link, names)) for i in items]))
        else:
            joined = " ".join(line.strip() for line in lines)
            out.append(element("p", inline(joined, link, names)))
    return join(out)


def plain_paragraphs(text: str, names: Sequence[str] = ()) -> list[str]:
    """A description as plain paragraphs of reader text (for docutils nodes)."""
    body = textwrap.dedent(text.strip("\n"))
    return [speak(" ".join(line.strip() for line in block.splitlines()), names)
            for block in re.split(r"\n\s*\n", body) if block.strip()]
