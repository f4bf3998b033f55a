"""The rules book: durak_spec.book renders the features and the rule index, runs every
example, and a failing example fails the page and the build.

The build tests copy ``book/`` into a temporary folder and build it there with the
documented command (``jupyter-book build --all -W -n --keep-going``); they need the
``book`` extra (jupyter-book, jupytext, ipykernel) and are skipped, saying so, without it.
The screenshot test needs Debian's ``chromium`` and is skipped without it.

Runtime: the unit tests about 10 s; the build of the whole book about 70-90 s (once per
session), the deliberately broken build about 15 s, the screenshots about 10 s.
"""

from __future__ import annotations

import html
import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from durak_spec import book
from durak_spec.core.ruleindex import CHAPTERS, load_rule_index
from durak_spec.model.rules import AXES, PROFILES
from durak_spec.spec.runner import features_dir

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
INVENTORY_TOOL = ROOT.parent / "shared" / "tools" / "inventory_check.py"
HAS_JUPYTER_BOOK = importlib.util.find_spec("jupyter_book") is not None
needs_jupyter_book = pytest.mark.skipif(
    not HAS_JUPYTER_BOOK,
    reason="jupyter-book is not installed: install the book extra (pip install -e '.[book]')")


# -- helpers --------------------------------------------------------------------------------------


def copy_features(target: Path) -> Path:
    """A copy of the specification's feature files in ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(features_dir().glob("*.feature")):
        shutil.copy(path, target / path.name)
    return target


def break_an_expected_card(features: Path) -> tuple[Path, int]:
    """Change one expected card of the beating chapter: in the first step
    "Then X may cover <attack> with exactly <cards>", the first expected card becomes the
    attack card itself, which no hand holds. Returns the file and the changed line."""
    path = features / "03_beating.feature"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    pattern = re.compile(r"(may cover (\S+) with exactly )(\S+)")
    for number, line in enumerate(lines, start=1):
        match = pattern.search(line)
        if match and match.group(3) != match.group(2):
            lines[number - 1] = pattern.sub(lambda m: m.group(1) + m.group(2), line, count=1)
            path.write_text("".join(lines), encoding="utf-8")
            return path, number
    raise AssertionError(f"{path.name} has no 'may cover ... with exactly' step to break")


def build(book_dir: Path, features: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Build the book in ``book_dir`` with the documented command."""
    env = dict(os.environ)
    env.pop(book.ENV_SHARED, None)
    if features is not None:
        env[book.ENV_FEATURES] = str(features)
    command = [sys.executable, "-c", "from jupyter_book.cli.main import main; main()",
               "build", "--all", "-W", "-n", "--keep-going", str(book_dir)]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=900,
                          check=False)


def copy_book(target: Path) -> Path:
    shutil.copytree(BOOK, target, ignore=shutil.ignore_patterns("_build", "__pycache__"))
    return target


def html_files(html_dir: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in html_dir.glob("*.html")}


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# -- the book's functions (fast) ----------------------------------------------------------------


def test_unknown_chapter_names_the_chapters() -> None:
    with pytest.raises(book.BookError, match=r"unknown chapter 'beatings'; chapters are .*beating"):
        book.chapter("beatings")


def test_html_is_displayed_as_html() -> None:
    text = book.Html("<p>x</p>")
    assert text._repr_html_() == "<p>x</p>"


def test_chapter_shows_every_rule_and_example_of_its_feature_with_pictures() -> None:
    page = book.chapter("beating")
    feature = (features_dir() / "03_beating.feature").read_text(encoding="utf-8")
    rule_ids = re.findall(r"^\s*@((?:BEAT|EX)-\d+)", feature, flags=re.MULTILINE)
    assert rule_ids
    for rule_id in rule_ids:
        assert f'id="{rule_id}"' in page, f"no anchor for {rule_id}"
    scenario_lines = [n for n, line in enumerate(feature.splitlines(), start=1)
                      if re.match(r"\s*(Example|Scenario|Scenario Outline):", line)]
    for line in scenario_lines:
        assert f'id="ex-03-beating-{line}"' in page, f"example at line {line} is not shown"
    # The statement of a rule is its description in the feature file.
    first_rule = re.search(r"Rule: (.*)\n((?:    \S.*\n)+)", feature)
    assert first_rule is not None
    statement = " ".join(first_rule.group(2).split())
    assert statement in " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())
    assert page.count("verified during the build") >= len(scenario_lines)
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page
    assert 'role="img"' in page and "aria-label=" in page
    # VIEW-3: the defender's unplayable cards are dimmed, the playable bright.
    assert 'class="card dim' in page
    assert re.search(r'class="card( trump)?( highlight)?" data-card=', page)
    # Sources link to the sources page, IDs to the rule index.
    assert 'href="sources.html#source-A"' in page
    assert 'href="rule-index.html#BEAT-1"' in page


def test_a_changed_expected_card_makes_the_chapter_raise(tmp_path: Path) -> None:
    features = copy_features(tmp_path / "features")
    path, _ = break_an_expected_card(features)
    with pytest.raises(book.ExampleFailed) as caught:
        book.chapter("beating", features=features)
    assert len(caught.value.failures) == 1
    assert f"{path.name}:" in str(caught.value)
    assert "expected exactly" in str(caught.value)
    assert "did not pass against the reference engine" in str(caught.value)
    # The unbroken copy renders.
    intact = copy_features(tmp_path / "intact")
    assert "verified during the build" in book.chapter("beating", features=intact)


def test_a_feature_without_a_chapter_name_goes_by_its_rule_ids(tmp_path: Path) -> None:
    features = tmp_path / "features"
    features.mkdir()
    shutil.copy(features_dir() / "03_beating.feature", features / "99_misc.feature")
    page = book.chapter("beating", features=features)
    assert 'id="BEAT-1"' in page
    (features / "98_nothing.feature").write_text(
        "Feature: Nothing\n  Scenario: none\n    Given hearts are trump\n", encoding="utf-8")
    with pytest.raises(book.BookError, match=r"98_nothing\.feature: cannot tell which chapter"):
        book.chapter("beating", features=features)


def test_an_unreadable_feature_file_is_named(tmp_path: Path) -> None:
    features = tmp_path / "features"
    features.mkdir()
    (features / "03_beating.feature").write_text("Feature without a colon\n",
                                                 encoding="utf-8")
    with pytest.raises(book.BookError, match=r"03_beating\.feature cannot be read as Gherkin"):
        book.chapter("beating", features=features)


def test_a_chapter_without_features_lists_its_index_entries(tmp_path: Path) -> None:
    features = tmp_path / "features"
    features.mkdir()
    shutil.copy(features_dir() / "03_beating.feature", features / "03_beating.feature")
    page = book.chapter("limits", features=features)
    for entry in load_rule_index().by_chapter("limits"):
        assert f'id="{entry.id}"' in page
    assert "no executable example yet" in page


def test_variants_matrix_has_every_axis_against_every_profile() -> None:
    page = book.variants_matrix()
    for axis in AXES:
        assert f'id="axis-{axis.name}"' in page
    for name in PROFILES:
        assert f'id="profile-{name}"' in page
    cells = re.findall(r'<td class="(differs|same)">', page)
    assert len(cells) == len(AXES) * len(PROFILES)
    marks = re.findall(r'<span class="origin (src|clar)"', page)
    assert len(marks) == len(AXES) * len(PROFILES) + 2  # and the two in the legend
    # Source B opens with several cards; most profiles do not: that cell differs.
    row = page[page.index('id="axis-multi_card_opening"'):]
    row = row[:row.index("</tr>")]
    b_column = list(PROFILES).index("source-b")
    assert re.findall(r'<td class="(differs|same)">', row)[b_column] == "differs"


def test_glossary_and_sources() -> None:
    glossary = book.glossary()
    assert 'id="TERM-1"' in glossary
    for word in ("Dummkopf", "dwaas", "duraks", "дурак", "podkidnoy", "perevodnoy", "kozyr",
                 "troef", "trumpis", "козырь", "Angriff"):
        assert word in glossary
    sources = book.sources_index()
    for letter, language in (("A", "German"), ("B", "German"), ("C", "Dutch"),
                             ("D", "Latvian")):
        section = sources[sources.index(f'id="source-{letter}"'):]
        assert language in section[:2000]


def test_rule_index_has_every_id() -> None:
    page = book.rule_index()
    for rule_id in load_rule_index():
        assert f'<tr id="{rule_id}">' in page


def test_protocol_pages_come_from_the_schema_and_a_live_engine() -> None:
    reference = book.protocol_reference()
    for cmd in ("hello", "start", "load", "legal", "apply", "state", "quit"):
        assert f"<td><code>{cmd}</code></td>" in reference
    transcript = book.protocol_transcript()
    assert transcript.count("→") == 6 and transcript.count("←") == 6
    assert "&quot;accepted&quot;:false" in transcript and "&quot;accepted&quot;:true" in transcript
    protocol = book.engine_protocol()
    for method in ("start", "load", "legal_actions", "apply", "report", "close"):
        assert f"<code>{method}(self" in protocol
    options = book.command_options("check")
    assert "<code>--engine CMD</code>" in options and "<code>--rule ID</code>" in options
    with pytest.raises(book.BookError, match="no command 'nonsense'"):
        book.command_options("nonsense")


def test_every_chapter_has_a_page() -> None:
    toc = (BOOK / "_toc.yml").read_text(encoding="utf-8")
    for slug, page in book.PAGE_OF_CHAPTER.items():
        assert (BOOK / f"{page}.md").is_file(), f"no page for chapter {slug}"
        assert f"file: {page}" in toc
    assert set(book.PAGE_OF_CHAPTER) == set(CHAPTERS)


# -- the whole book, built (slow) ---------------------------------------------------------------


@pytest.fixture(scope="session")
def built_book(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The book, built once from a temporary copy; yields its HTML folder."""
    if not HAS_JUPYTER_BOOK:
        pytest.skip("jupyter-book is not installed: install the book extra "
                    "(pip install -e '.[book]')")
    book_dir = copy_book(tmp_path_factory.mktemp("built") / "book")
    done = build(book_dir)
    assert done.returncode == 0, (
        f"the book did not build:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    yield book_dir / "_build" / "html"


@needs_jupyter_book
def test_every_id_of_the_rule_index_is_on_the_site(built_book: Path) -> None:
    pages = html_files(built_book)
    text = "\n".join(pages.values())
    for rule_id in load_rule_index():
        assert re.search(rf"\b{re.escape(rule_id)}\b", text), f"{rule_id} is not on the site"
        assert f'id="{rule_id}"' in text, f"{rule_id} has no anchor on the site"
    if INVENTORY_TOOL.is_file():
        checked = subprocess.run(
            [sys.executable, str(INVENTORY_TOOL), str(features_dir()), "--html", str(built_book)],
            capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stdout


@needs_jupyter_book
def test_every_chapter_page_shows_verified_examples(built_book: Path) -> None:
    pages = html_files(built_book)
    for slug in CHAPTERS:
        page = pages[f"{book.PAGE_OF_CHAPTER[slug]}.html"]
        if 'class="durak-example"' in page:
            assert "verified during the build" in page, slug


@needs_jupyter_book
def test_links_between_pages_resolve(built_book: Path) -> None:
    pages = html_files(built_book)
    ids = {name: set(re.findall(r'\sid="([^"]+)"', text)) for name, text in pages.items()}
    broken: list[str] = []
    for name, text in pages.items():
        for href in re.findall(r'href="([^"]+)"', text):
            href = html.unescape(href)
            if re.match(r"[a-z]+:", href) or href.startswith(("_static", "_sources")):
                continue
            target, _, fragment = href.partition("#")
            target = target or name
            if target.endswith("/") or not target.endswith(".html"):
                continue
            if target not in pages:
                broken.append(f"{name}: {href} (no such page)")
            elif fragment and fragment not in ids[target]:
                broken.append(f"{name}: {href} (no such anchor)")
    assert not broken, "broken links:\n" + "\n".join(broken[:30])


@needs_jupyter_book
def test_the_site_loads_nothing_from_the_network(built_book: Path) -> None:
    for name, text in html_files(built_book).items():
        assert not re.search(r'<(script|link|img)[^>]+(src|href)="(https?:)?//', text), name
        assert "unpkg.com" not in text and "cdn." not in text, name


@needs_jupyter_book
def test_footer_search_and_text_alternatives(built_book: Path) -> None:
    pages = html_files(built_book)
    intro = pages["intro.html"]
    footer = intro[intro.index('class="bd-footer'):] if 'class="bd-footer' in intro else intro
    assert "2026" in footer and "durak-spec" in footer
    assert "search.html" in intro
    index = (built_book / "searchindex.js").read_text(encoding="utf-8")
    for word in ("kozyr", "beat", "transfer"):
        assert word in index.lower(), f"{word} is not searchable"
    svgs = re.findall(r"<svg[^>]*>", pages["beating.html"])
    assert svgs and all('role="img"' in s and "aria-label=" in s for s in svgs)
    assert '<meta name="viewport"' in intro


@needs_jupyter_book
def test_a_broken_example_fails_the_build(tmp_path: Path) -> None:
    features = copy_features(tmp_path / "features")
    path, line = break_an_expected_card(features)
    book_dir = copy_book(tmp_path / "book")
    # Only the front page and the broken chapter: the build must stop at the chapter.
    (book_dir / "_toc.yml").write_text(
        "format: jb-book\nroot: intro\nchapters:\n  - file: beating\n", encoding="utf-8")
    done = build(book_dir, features)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output[-3000:]
    assert "ExampleFailed" in output
    assert f"{path.name}:{line}" in output or f"{path.name}:" in output


@needs_jupyter_book
def test_screenshots_of_the_index_and_an_example_page(built_book: Path, tmp_path: Path) -> None:
    sys.path.insert(0, str(BOOK))
    try:
        import screenshots
    finally:
        sys.path.remove(str(BOOK))
    if screenshots.find_browser() is None:
        pytest.skip("no Chromium: install Debian's chromium package to take screenshots")
    written = screenshots.take_all(built_book, tmp_path, screenshots.find_browser() or "")
    assert [p.name for p in written] == ["index-desktop.png", "index-phone.png",
                                         "example-desktop.png", "example-phone.png"]
    for path in written:
        width, _ = png_size(path)
        expected = 390 if "phone" in path.name else 1280
        assert width == expected, path.name
        assert path.stat().st_size > 30_000, f"{path.name} looks blank"
