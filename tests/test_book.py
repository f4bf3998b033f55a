"""The rules book: the site model, the run of every example, the HTML, and the built site.

The fast tests call the book's modules directly (a copy of one or two feature files is
played in a second or two). The build tests copy ``book/`` into a temporary folder and build
it with the documented command (``jupyter-book build --all -W -n --keep-going``), printing
what the build is doing through pytest's terminal reporter; they need the ``book`` extra
and are skipped, saying so, without it. The screenshot test needs Debian's ``chromium`` and
Playwright and is skipped without them.

Runtime: the fast tests about 15 s; the build of the whole book about 60-90 s (once per
session), the deliberately broken build about 20 s, the screenshots about 40 s.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from book_build import BOOK, HAS_JUPYTER_BOOK, build, copy_book
from book_build import say as _say

from durak_spec.book import ExampleFailed, broken_examples, build_site, play_all, python_of
from durak_spec.book.play import check_python
from durak_spec.book.render import (
    SOURCE_FACTS,
    example_html,
    glossary_html,
    rule_index_html,
    sources_html,
    variants_table_html,
)
from durak_spec.book.site import PAGE_OF_CHAPTER, BookError
from durak_spec.book.text import inline, speak
from durak_spec.core.ruleindex import CHAPTERS, SOURCES, load_rule_index
from durak_spec.game.markup import Markup, element
from durak_spec.game.persist import state_from_json
from durak_spec.model.rules import AXES, PROFILES, Axis
from durak_spec.spec.gherkin import GherkinError, read_specification
from durak_spec.spec.runner import features_dir

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = BOOK / "_build" / "screenshots"
INVENTORY_TOOL = ROOT.parent / "shared" / "tools" / "inventory_check.py"
needs_jupyter_book = pytest.mark.skipif(
    not HAS_JUPYTER_BOOK,
    reason="jupyter-book is not installed: install the book extra (pip install -e '.[book]')")
SETTING_NAMES = tuple(a.name for a in AXES if "_" in a.name)


# -- helpers --------------------------------------------------------------------------------------


def copy_features(target: Path, names: tuple[str, ...] = ()) -> Path:
    """A copy of the specification's feature files (or only ``names``) in ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(features_dir().glob("*.feature")):
        if not names or path.name in names:
            shutil.copy(path, target / path.name)
    return target


def break_two_examples(features: Path) -> list[int]:
    """In 03_beating.feature: one expected card wrong (a "may cover ... with exactly" step
    names the attack card itself) and one verdict turned ("Then it is accepted" after the
    ten of spades is covered becomes "rejected"). Returns the two changed lines."""
    path = features / "03_beating.feature"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    changed: list[int] = []
    pattern = re.compile(r"(may cover (\S+) with exactly )(\S+)")
    for number, line in enumerate(lines, start=1):
        match = pattern.search(line)
        if match and match.group(3) != match.group(2) and not changed:
            lines[number - 1] = pattern.sub(lambda m: m.group(1) + m.group(2), line, count=1)
            changed.append(number)
    for number, line in enumerate(lines, start=1):
        if "When Boris covers 10♠ with Q♠" in line:
            lines[number] = lines[number].replace("it is accepted", "it is rejected")
            changed.append(number + 1)
            break
    assert len(changed) == 2, "the beating chapter no longer has the steps this test breaks"
    path.write_text("".join(lines), encoding="utf-8")
    return changed


def reader_text(page: str) -> str:
    """The text a reader sees on a built page: no code blocks, scripts, styles, attributes,
    and not the theme's navigation."""
    main = page
    match = re.search(r"<main[^>]*>(.*)</main>", page, flags=re.DOTALL)
    if match:
        main = match.group(1)
    for tag in ("pre", "code", "script", "style", "details class=\"durak-fold durak-python\""):
        name = tag.split()[0]
        main = re.sub(rf"<{tag}[^>]*>.*?</{name}>", " ", main, flags=re.DOTALL)
    text = re.sub(r"<[^>]+>", " ", main)
    return " ".join(html.unescape(text).split())


@pytest.fixture(scope="module")
def beating() -> Iterator[tuple[Path, object, object]]:
    """The beating chapter alone, read and played."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        features = copy_features(Path(folder) / "features", ("03_beating.feature",))
        site = build_site(features)
        yield features, site, play_all(site.spec)


# -- the shared Gherkin model and example numbers ------------------------------------------------


def test_every_example_has_a_unique_number_and_outline_rows_are_filled_in() -> None:
    spec = read_specification(features_dir())
    examples = list(spec.examples())
    numbers = [e.number for e in examples]
    assert len(numbers) == len(set(numbers))
    for example in examples:
        assert re.fullmatch(r"[A-Z]+-\d+\.\d+[a-z]?", example.number), example.number
        assert not re.search(r"<[a-z][\w -]*>", example.name), example.name
        for step in example.steps:
            assert not re.search(r"<[a-z][\w -]*>", step.text), (example.number, step.text)
        assert spec.example(example.number.lower()) is example
        assert spec.at(example.path, example.scenario_line, example.row) is example
    rows = [e for e in examples if e.row is not None]
    assert rows and all(e.number[-1].isalpha() for e in rows)
    with pytest.raises(KeyError, match=r"no example 'BEAT-99\.1'"):
        spec.example("BEAT-99.1")


def test_numbers_follow_the_rule_and_the_order_of_its_examples() -> None:
    spec = read_specification(features_dir())
    for _feature, rule in spec.rules():
        scenarios = rule.scenarios
        assert rule.primary is not None
        for ordinal, scenario in enumerate(scenarios, start=1):
            for example in scenario.examples:
                base = example.number.rstrip("abcdefghijklmnopqrstuvwxyz")
                assert base.endswith(f".{ordinal}") or base.split(".")[0] == rule.primary


def test_an_unreadable_feature_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "03_beating.feature").write_text("Feature without a colon\n", encoding="utf-8")
    with pytest.raises(GherkinError, match=r"03_beating\.feature cannot be read as Gherkin"):
        read_specification(tmp_path)


# -- the site model -------------------------------------------------------------------------------


def test_every_rule_id_has_a_place_and_every_example_a_url() -> None:
    site = build_site(features_dir())
    for rule_id in load_rule_index():
        place = site.link(rule_id)
        assert place and re.fullmatch(r"[a-z-]+\.html#[A-Za-z0-9.-]+", place), rule_id
    for example in site.spec.examples():
        assert site.example_urls[example.number].endswith(f".html#{example.number}")
    sections = list(site.section_of.values())
    assert len(sections) == len(set(sections))
    assert set(PAGE_OF_CHAPTER) == set(CHAPTERS)


def test_every_rule_is_on_the_page_of_its_index_chapter() -> None:
    site = build_site(features_dir())
    index = load_rule_index()
    misplaced = [f"{rule.where}: {rule_id} is shown on {site.chapter_of_rule(rule)}, the "
                 f"index lists it under {index[rule_id].chapter}"
                 for _, rule in site.spec.rules() for rule_id in rule.ids
                 if index[rule_id].chapter != site.chapter_of_rule(rule)]
    assert not misplaced, "\n".join(misplaced)
    # One feature file fills two pages: the turns within a bout continue attacking.
    attacking = next(f for f in site.spec.features if f.chapter_stem == "attacking")
    assert site.features_of("turns") == (attacking,)
    assert [r.ids[0] for r in site.rules_of("turns", attacking)][:2] == ["ATTACK-5", "CLAR-16"]
    assert "ATTACK-5" not in [r.ids[0] for r in site.rules_of("attacking", attacking)]
    assert site.link("ATTACK-5") == "turns.html#ATTACK-5"
    assert site.example_urls["ATTACK-5.1"] == "turns.html#ATTACK-5.1"
    assert site.link("ATTACK-1") == "attacking.html#ATTACK-1"


def test_a_feature_without_a_chapter_name_goes_by_its_rule_ids(tmp_path: Path) -> None:
    shutil.copy(features_dir() / "03_beating.feature", tmp_path / "99_misc.feature")
    site = build_site(tmp_path)
    assert set(site.chapter_of.values()) == {"beating"}
    (tmp_path / "98_nothing.feature").write_text(
        "Feature: Nothing\n  Scenario: none\n    Given hearts are trump\n", encoding="utf-8")
    with pytest.raises(BookError, match=r"98_nothing\.feature: cannot tell which chapter"):
        build_site(tmp_path)


def test_every_chapter_has_a_page() -> None:
    toc = (BOOK / "_toc.yml").read_text(encoding="utf-8")
    for slug, page in PAGE_OF_CHAPTER.items():
        assert (BOOK / f"{page}.md").is_file(), f"no page for chapter {slug}"
        assert f"file: {page}" in toc or page == "intro"


# -- running the examples -------------------------------------------------------------------------


def test_every_example_of_a_chapter_is_played_and_passes(beating: tuple) -> None:  # type: ignore[type-arg]
    _, site, run = beating
    numbers = {e.number for e in site.spec.examples()}
    assert set(run.played) == numbers
    assert all(p.passed for p in run.played.values())
    assert broken_examples(site.spec, run) == ()


def test_broken_examples_are_reported_in_a_few_lines_each(tmp_path: Path) -> None:
    features = copy_features(tmp_path / "features", ("03_beating.feature",))
    lines = break_two_examples(features)
    site = build_site(features)
    broken = broken_examples(site.spec, play_all(site.spec))
    assert [b.line for b in broken] == lines  # the failing step's line, not the example's
    message = str(ExampleFailed(broken))
    assert message.startswith("2 examples of the specification did not pass")
    assert "expected exactly" in message and "was accepted, but the rules forbid it" in message
    for item in broken:
        assert f"{item.number} (03_beating.feature:{item.line})" in message
    assert "Traceback" not in message and len(message.splitlines()) <= 1 + 4 * len(broken)


def test_the_python_of_an_example_reproduces_it(beating: tuple) -> None:  # type: ignore[type-arg]
    _, _, run = beating
    checked = 0
    for played in run.played.values():
        code = python_of(played)
        if code is None:
            continue
        assert "state = GameState(" in code and "print(state.describe())" in code
        position = code.partition("\n)\n")[0]  # the imports and the position, before the moves
        assert len(position.splitlines()) <= 22, code  # a few lines, not a dump of JSON
        assert max(len(line) for line in code.splitlines()) <= 90, code
        assert check_python(played, code) is None, played.example.number
        checked += 1
        # The check can fail: a different move reaches another position, or raises.
        wrong = re.sub(r'parse_action\("P1 cover (\S+) with (\S+)"\)',
                       r'parse_action("P1 take")', code, count=1)
        if wrong != code:
            assert check_python(played, wrong) is not None
    assert checked >= 15


# -- HTML -----------------------------------------------------------------------------------------


def test_markup_escapes_text_by_construction() -> None:
    made = element("p", "<script>alert(1)</script> & 7♣", title='"quoted"', class_="x")
    assert made == ('<p title="&quot;quoted&quot;" class="x">&lt;script&gt;alert(1)'
                    "&lt;/script&gt; &amp; 7♣</p>")
    assert element("p", Markup("<b>kept</b>")) == "<p><b>kept</b></p>"
    assert element("br") == "<br>" and element("rect", width=1) == '<rect width="1"/>'
    assert "<script>" not in inline("<script> P1 plays 7♥", None, ("Anna", "Boris"))


def test_reader_language_names_settings_and_players() -> None:
    assert speak('the setting "throw_in" is "all"') == 'the setting “Who may throw in” is "all"'
    assert speak("P1 is the durak", ("Anna", "Boris")) == "Boris is the durak"
    assert "tests/" not in speak("a property test (tests/test_limit_readings.py) shows it")
    assert "@" not in speak("Rule tagged @tip")
    shown = inline("Boris covers 7♥ with 9♥ (BEAT-1)", lambda i: f"beating.html#{i}")
    assert '<span class="card-text red">7♥</span>' in shown
    assert '<a href="beating.html#BEAT-1" class="rule-ref"' in shown


def test_an_example_is_an_article_with_its_number_picture_and_python(beating: tuple) -> None:  # type: ignore[type-arg]
    _, site, run = beating
    example = next(e for e in site.spec.examples() if e.number == "BEAT-1.1")
    page = example_html(example, run.played[example.number], site)
    assert page.startswith('<article class="durak-example" id="BEAT-1.1">')
    assert '<figure class="durak-position" id="pos-BEAT-1.1" data-position="' in page
    position = re.search(r'data-position="([^"]+)"', page)
    assert position is not None
    state = state_from_json(json.loads(html.unescape(position.group(1))))
    assert state.players == 2
    assert "✓ allowed" in page and "The Python of this example" in page
    # The verdict is said once: no "Then it is accepted" after it, no line of a file.
    assert "it is accepted" not in reader_text(f"<main>{page}</main>")
    assert "Specification: " not in page and ", line " not in reader_text(f"<main>{page}</main>")
    assert 'href="_static/spec/features/03_beating.feature"' in page
    refused = next(e for e in site.spec.examples() if e.number == "BEAT-3.2")
    page = example_html(refused, run.played[refused.number], site)
    assert page.count("BEAT-3</a>") == 1, page  # in the refusal, not again in a Then step
    assert not re.search(r"\bP[0-9]\b", reader_text(f"<main>{page}</main>"))


def test_variants_table_has_profiles_as_rows_and_only_the_axes_that_differ() -> None:
    site = build_site(features_dir())
    table = variants_table_html(site)
    for name in PROFILES:
        assert f'<tr id="profile-{name}">' in table
    profiles = list(PROFILES.values())
    for axis in AXES:
        values = {Axis.format(getattr(p.base, axis.name)) for p in profiles}
        column = f'id="axis-{axis.name}"' in table
        if axis.name == "transfer":
            assert not column  # the choice of game has its own column
        else:
            assert column == (len(values) > 1), axis.name
    assert 'class="game-col"' in table and "transfer game" in table
    row = table[table.index('<tr id="profile-source-b">'):]
    row = row[:row.index("</tr>")]
    assert 'class="differs"' in row  # B opens with several cards of a rank
    assert "game-col differs" not in table


def test_reference_pages() -> None:
    site = build_site(features_dir())
    index = rule_index_html(site)
    for rule_id in load_rule_index():
        assert f'<tr id="{rule_id}">' in index
    sources = sources_html(site)
    for letter in SOURCES:
        facts = SOURCE_FACTS[letter]
        section = sources[sources.index(f'id="source-{letter}"'):][:3000]
        assert html.escape(facts.title) in section and facts.gloss in section
        assert facts.language in section
    glossary = glossary_html()
    for word in ("duraks", "дурак", "podkidnoy", "perevodnoy", "kozyr", "troef", "trumpis"):
        assert word in glossary


def test_implementer_pages_come_from_the_schema_and_a_live_engine() -> None:
    from durak_spec.book import pages

    reference = pages.protocol_reference()
    for cmd in ("hello", "start", "load", "legal", "apply", "state", "quit"):
        assert f"<td><code>{cmd}</code></td>" in reference
    actions = pages.action_reference()
    for kind in ("open", "throw", "cover", "transfer", "take", "done"):
        assert f"<td><code>{kind}</code></td>" in actions
    transcript = html.unescape(pages.protocol_transcript())
    assert transcript.count("→ ") == 7 and transcript.count("← ") == 7
    assert '"accepted":false' in transcript and '"accepted":true' in transcript
    assert "more)" not in transcript  # nothing cut short
    assert "<code>legal_actions(self" in pages.engine_protocol()
    options = pages.command_options("check")
    assert "<code>--engine CMD</code>" in options
    with pytest.raises(BookError, match="no command 'nonsense'"):
        pages.command_options("nonsense")


def test_the_narrated_game_asks_and_answers_from_the_engine() -> None:
    from durak_spec.book import pages

    names, bouts = pages.narrated_game()
    assert names == ("Anna", "Boris")
    assert len(bouts) >= 5
    assert "durak" in bouts[-1].ending or "draw" in bouts[-1].ending
    questions = [b.question for b in bouts if b.question is not None]
    assert questions
    assert all("What may Boris play here?" in q and "legal moves" in q for q in questions)


def test_how_to_play_pictures_are_real_positions() -> None:
    from durak_spec.book import pages

    for name in pages.PICTURES:
        figure = pages.picture(name)
        assert f'id="howto-{name}"' in figure
        # "Try it" (data-position) wherever a move can be made; the game-over picture has none
        assert ("data-position=" in figure) is (name != "end"), name
        assert not re.search(r"\bP[0-9]\b", reader_text(f"<main>{figure}</main>"))
    with pytest.raises(BookError, match="no picture 'nope'"):
        pages.picture("nope")


# -- the command line: durak-spec rules ----------------------------------------------------------


def test_rules_command_prints_a_rule_an_example_and_searches(capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    from durak_spec.cli import main

    assert main(["rules", "BEAT-3"]) == 0
    out = capsys.readouterr().out
    from durak_spec.core.ruleindex import load_rule_index

    assert out.startswith(f"BEAT-3  {load_rule_index()['BEAT-3'].title}\n")
    assert "Sources: A: Durak spielen" in out and "BEAT-3.2" in out and "Then it is" in out
    assert main(["rules", "beat-3.2"]) == 0
    assert capsys.readouterr().out.startswith("BEAT-3.2  ")
    assert main(["rules", "ace", "of", "trumps"]) == 0
    assert "BEAT-4" in capsys.readouterr().out
    assert main(["rules", "BEAT-33"]) == 2
    assert "did you mean" in capsys.readouterr().err
    assert main(["rules"]) == 0
    assert "Beating a card" in capsys.readouterr().out


# -- the whole book, built (slow) ---------------------------------------------------------------


def html_files(html_dir: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in html_dir.glob("*.html")}


@needs_jupyter_book
def test_every_id_of_the_rule_index_is_a_section_or_entry_on_the_site(built_book: Path) -> None:
    pages = html_files(built_book)
    text = "\n".join(pages.values())
    for rule_id in load_rule_index():
        assert f'id="{rule_id}"' in text, f"{rule_id} has no anchor on the site"
    beating = pages["beating.html"]
    for rule_id in ("BEAT-1", "BEAT-2", "BEAT-3"):
        assert re.search(rf'<section class="durak-rule" id="{rule_id}">\s*<h2>', beating) or \
            re.search(rf'<section id="{rule_id}" class="durak-rule">\s*<h2>', beating), rule_id
        assert f'href="#{rule_id}"' in beating  # in the page's contents
    if INVENTORY_TOOL.is_file():
        checked = subprocess.run(
            [sys.executable, str(INVENTORY_TOOL), str(features_dir()), "--html", str(built_book)],
            capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stdout


@needs_jupyter_book
def test_search_finds_a_rule_and_an_example_by_id(built_book: Path) -> None:
    index_text = (built_book / "searchindex.js").read_text(encoding="utf-8")
    data = json.loads(index_text[index_text.index("(") + 1:index_text.rindex(")")])
    entries = data["indexentries"]
    docnames = data["docnames"]
    for ident, page in (("beat-3", "beating"), ("beat-3.2", "beating"),
                        ("transfer-3", "transfer-limits")):
        assert ident in entries, ident
        assert any(docnames[doc] == page and anchor == ident.upper()
                   for doc, anchor, _ in entries[ident]), entries[ident]
    titles = data["alltitles"]
    assert any(t.startswith("BEAT-3 ") for t in titles)


@needs_jupyter_book
def test_examples_are_numbered_pictured_and_said_once(built_book: Path) -> None:
    pages = html_files(built_book)
    spec = read_specification(features_dir())
    text = "\n".join(pages.values())
    for example in spec.examples():
        assert f'<article class="durak-example" id="{example.number}">' in text, example.number
    for name, page in pages.items():
        assert page.count("was played by the reference engine") <= 1, name
        assert "engine: accepted" not in page and "verified during the build" not in page, name
        for position in re.findall(r'<figure class="durak-position" id="([^"]+)" '
                                   r'data-position="([^"]+)"', page)[:5]:
            state_from_json(json.loads(html.unescape(position[1])))


@needs_jupyter_book
def test_no_placeholder_setting_name_or_seat_code_reaches_reader_text(built_book: Path) -> None:
    problems = []
    for name, page in sorted(html_files(built_book).items()):
        if name in ("genindex.html", "search.html"):
            continue
        text = reader_text(page)
        checks = {
            "placeholder": r"<[a-z][\w -]*>",
            "setting name": r"(?<![\w-])(" + "|".join(SETTING_NAMES) + r")(?![\w-])",
            "seat code": r"\bP[0-9]\b",
            "test file": r"\btests?/\w+\.py\b|\btest_\w+\.py\b",
            "tag": r"(?<![\w.])@[a-z][\w-]+",
        }
        for what, pattern in checks.items():
            for match in list(re.finditer(pattern, text))[:3]:
                problems.append(f"{name}: {what} {match.group(0)!r} in "
                                f"…{text[max(0, match.start() - 40):match.end() + 40]}…")
    assert not problems, "\n".join(problems)


@needs_jupyter_book
def test_links_between_pages_resolve(built_book: Path) -> None:
    pages = html_files(built_book)
    ids = {name: set(re.findall(r'\sid="([^"]+)"', text)) for name, text in pages.items()}
    broken: list[str] = []
    for name, text in pages.items():
        for href in re.findall(r'href="([^"]+)"', text):
            href = html.unescape(href)
            if re.match(r"[a-z]+:", href) or href.startswith("_sources"):
                continue
            target, _, fragment = href.partition("#")
            target = target.split("?", 1)[0]
            if target.startswith("_static/"):
                if not (built_book / target).is_file():
                    broken.append(f"{name}: {href} (no such file)")
                continue
            target = target or name
            if target.endswith("/") or not target.endswith(".html"):
                continue
            if target not in pages:
                broken.append(f"{name}: {href} (no such page)")
            elif fragment and fragment not in ids[target]:
                broken.append(f"{name}: {href} (no such anchor)")
    assert not broken, "broken links:\n" + "\n".join(broken[:30])


@needs_jupyter_book
def test_the_site_ships_the_features_and_the_schema_and_loads_nothing_remote(
        built_book: Path) -> None:
    spec = built_book / "_static" / "spec"
    for path in features_dir().glob("*.feature"):
        assert (spec / "features" / path.name).read_bytes() == path.read_bytes()
    json.loads((spec / "protocol.schema.json").read_text(encoding="utf-8"))
    import zipfile

    with zipfile.ZipFile(spec / "durak-spec-features.zip") as archive:
        assert len(archive.namelist()) == len(list(features_dir().glob("*.feature")))
    for name, text in html_files(built_book).items():
        assert not re.search(r'<(script|link|img)[^>]+(src|href)="(https?:)?//', text), name


@needs_jupyter_book
def test_front_page_teaches_the_game_and_pictures_are_described(built_book: Path) -> None:
    pages = html_files(built_book)
    intro = pages["intro.html"]
    assert "How to play Durak" in intro
    prose = re.sub(r"<svg.*?</svg>", " ", intro, flags=re.DOTALL)
    words = len(reader_text(prose).split())
    assert 700 <= words <= 1600, words  # about five minutes of reading
    assert intro.count('<figure class="durak-position"') >= 4
    svgs = re.findall(r"<svg[^>]*>", pages["beating.html"])
    assert svgs and all('role="img"' in s and "aria-label=" in s for s in svgs)
    assert '<meta name="viewport"' in intro
    assert "search.html" in intro


@needs_jupyter_book
def test_a_broken_example_fails_the_build_with_a_short_report(
        tmp_path: Path, request: pytest.FixtureRequest) -> None:
    features = copy_features(tmp_path / "features")
    lines = break_two_examples(features)
    book_dir = copy_book(tmp_path / "book")
    _say(request, "building the book from a deliberately broken copy of a feature ...")
    code, output = build(book_dir, request, features)
    assert code != 0, output[-3000:]
    assert "2 examples of the specification did not pass" in output
    for line in lines:
        assert f"(03_beating.feature:{line})" in output
    assert "Traceback" not in output


@needs_jupyter_book
def test_screenshots_in_both_modes_and_widths_pass_the_checks(built_book: Path) -> None:
    sys.path.insert(0, str(BOOK))
    try:
        import screenshots
    finally:
        sys.path.remove(str(BOOK))
    browser = screenshots.find_browser()
    if browser is None:
        pytest.skip("no Chromium or no Playwright: install Debian's chromium package and "
                    "pip install playwright")
    views = screenshots.check_site(built_book, SCREENSHOTS, executable=browser)
    assert len(views) == len(screenshots.PAGES) * 4
    for view in views:
        assert view.png.stat().st_size > 20_000, f"{view.png.name} looks blank"
    problems = [view.line() for view in views if view.problems]
    assert not problems, "\n".join(problems)


def test_the_sites_address_opens_how_to_play_with_the_sites_icon(built_book: Path) -> None:
    # A bare refresh page makes a browser ask for /favicon.ico, which the site lacks: a 404
    # in a visitor's console whenever it answers before the page moves on.
    entrance = (built_book / "index.html").read_text(encoding="utf-8")
    assert 'url=intro.html' in entrance and 'href="intro.html"' in entrance
    icon = re.search(r'<link rel="icon" href="([^"]+)"', entrance)
    assert icon is not None and (built_book / icon.group(1)).is_file()
