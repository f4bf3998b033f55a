"""HTML and SVG built with escaping by construction, and the one class Jupyter displays.

:class:`Markup` is text that is already markup: a ``str`` that Jupyter (and so the rules
book) displays as HTML, and that :func:`element` inserts as it is. Anything else given to
:func:`element` (a ``str``, a number) is text and is escaped, and so is every attribute
value; there is no way to put unescaped text into an element except by making it
:class:`Markup` on purpose. Pictures (:mod:`durak_spec.game.svg`), the rules book
(:mod:`durak_spec.book`) and the tip experiments' tables and charts all build with it::

    >>> element("a", "7♣ < 9♣", href="beating.html#BEAT-1", class_="rule-ref")
    '<a href="beating.html#BEAT-1" class="rule-ref">7♣ &lt; 9♣</a>'
    >>> element("rect", width=60, height=84)
    '<rect width="60" height="84"/>'

Attribute names: a trailing ``_`` is dropped (``class_``), other ``_`` become ``-``
(``data_card`` → ``data-card``, ``font_size`` → ``font-size``); ``True`` writes the bare
attribute, ``None`` and ``False`` leave it out. HTML void elements (``br``, ``img``, ...)
have no end tag; SVG elements without children close themselves.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

__all__ = ["Markup", "element", "escape", "join"]

_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "source", "track", "wbr"})
_SELF_CLOSING = frozenset({"rect", "path", "circle", "line", "polyline", "polygon", "ellipse",
                           "stop", "use"})



class Markup(str):
    """Markup text (HTML or SVG): a ``str`` that Jupyter displays as HTML."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)

    def __html__(self) -> str:
        return str(self)


def escape(text: object) -> Markup:
    """``text`` as markup: itself if it already is, else escaped (quotes included)."""
    if isinstance(text, Markup):
        return text
    return Markup(html.escape(str(text), quote=True))


def _attribute_name(name: str) -> str:
    return name[:-1] if name.endswith("_") else name.replace("_", "-")


def _children(items: Iterable[object]) -> Iterable[str]:
    for item in items:
        if item is None:
            continue
        if isinstance(item, str | int | float):
            yield escape(item)
        else:
            yield from _children(item)  # type: ignore[arg-type]


def join(items: Iterable[object]) -> Markup:
    """Several children as one piece of markup (text escaped, markup kept)."""
    return Markup("".join(_children(items)))


def element(tag: str, *children: object, **attributes: object) -> Markup:
    """``<tag attributes>children</tag>``, escaped by construction (see the module)."""
    parts = [tag]
    for name, value in attributes.items():
        if value is None or value is False:
            continue
        key = _attribute_name(name)
        parts.append(key if value is True else f'{key}="{escape(value)}"')
    head = " ".join(parts)
    body = "".join(_children(children))
    if not body and tag in _VOID:
        return Markup(f"<{head}>")
    if not body and tag in _SELF_CLOSING:
        return Markup(f"<{head}/>")
    return Markup(f"<{head}>{body}</{tag}>")
