"""The tips put to the test (durak_spec.play.tipsim): experiment design, statistics, verdicts,
the chart and the command line.

The experiments are deterministic for their seeds, each deal is played from every seat,
the verdicts follow from the intervals (checked on synthetic numbers), the chart is
well-formed SVG with its text alternatives, and every experiment runs (a few games each).

Runtime: about 1 s.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from durak_spec.cli import main
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.play.bots import ALL_TIPS, HeuristicBot, Tip
from durak_spec.play.tipsim import (
    EXPERIMENTS,
    MARGIN,
    UNTESTABLE,
    Design,
    Evidence,
    Experiment,
    ExperimentResult,
    Verdict,
    design_html,
    experiments,
    format_table,
    plot,
    plot_narrow,
    run_experiment,
    run_experiments,
    summary_html,
    table_html,
    untestable_html,
    verdict,
)

ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"


def experiment_of(tip: str) -> Experiment:
    return next(e for e in EXPERIMENTS if e.id == tip)


def synthetic(tip: str, differences: list[float], *, follower: int, other: int,
              draws: int = 0) -> ExperimentResult:
    e = experiment_of(tip)
    return ExperimentResult(experiment=e, games=len(differences) * e.players,
                            follower_durak=follower, other_durak=other, draws=draws,
                            unfinished=0, deal_differences=tuple(differences))


# -- the design ---------------------------------------------------------------------------------


def test_one_experiment_per_tip_with_its_own_seed() -> None:
    assert [e.tip for e in EXPERIMENTS] == list(Tip)
    tip_ids = load_rule_index().ids("tip")
    assert [e.id for e in EXPERIMENTS] == list(tip_ids)
    seeds = sorted(e.seed for e in EXPERIMENTS)
    # Deals of one tip (seed, seed + 1, ...) never reach the next tip's seed in any run
    # of up to a million deals.
    assert all(b - a >= 1_000_000 for a, b in itertools.pairwise(seeds))


def test_leave_one_out_differs_in_exactly_the_tip_under_test() -> None:
    for e in EXPERIMENTS:
        assert e.design is Design.LEAVE_ONE_OUT
        assert e.follower_tips == ALL_TIPS
        assert e.follower_tips - e.other_tips == {e.tip}
        assert e.other_tips < e.follower_tips
        bots = e.lineup()
        assert len(bots) == e.players and len({id(b) for b in bots}) == e.players
        assert all(isinstance(b, HeuristicBot) for b in bots)
        kinds = [b.follows(e.tip) for b in bots if isinstance(b, HeuristicBot)]
        assert kinds.count(True) == e.followers and kinds.count(False) == e.others


def test_the_alone_design_adds_only_the_tip_to_a_player_without_tips() -> None:
    for e in experiments(Design.ALONE):
        assert e.follower_tips == {e.tip} and e.other_tips == frozenset()
    assert [e.id for e in experiments("alone", ["TIP-9", "tip-2"])] == ["TIP-2", "TIP-9"]


def test_each_tip_is_played_in_the_game_it_needs() -> None:
    for tip in ("TIP-4", "TIP-8"):  # pairs to transfer with; checking a transfer's target
        assert experiment_of(tip).rules.transfer
    nine = experiment_of("TIP-9")  # joining the attacker needs a third player
    assert nine.players >= 3 and nine.followers >= 2
    for e in EXPERIMENTS:
        if e.id not in ("TIP-4", "TIP-8"):
            assert not e.rules.transfer, e.id
        assert e.rules.players == e.players
        assert e.title == load_rule_index()[e.id].title
        assert str(e.players) in e.game and e.why


def test_an_experiment_needs_both_kinds_of_player() -> None:
    e = experiment_of("TIP-1")
    for followers in (0, 2):
        with pytest.raises(ValueError, match="both kinds of player"):
            Experiment(tip=e.tip, profile=e.profile, players=2, followers=followers,
                       seed=1, why="x")


# -- running ------------------------------------------------------------------------------------


def test_an_experiment_is_the_same_for_its_seed() -> None:
    e = experiment_of("TIP-7")
    first = run_experiment(e, 16)
    assert run_experiment(e, 16) == first
    assert first.games == 16 and first.deals == 8
    moved = run_experiment(Experiment(tip=e.tip, profile=e.profile, players=2, followers=1,
                                      seed=e.seed + 500, why=e.why), 16)
    assert moved.deal_differences != first.deal_differences


def test_every_deal_is_played_from_every_seat_and_counted() -> None:
    e = experiment_of("TIP-9")
    calls: list[tuple[str, int, int]] = []
    result = run_experiment(e, 4, progress=lambda ex, done, total: calls.append(
        (ex.id, done, total)))
    assert result.games == 6  # rounded up to whole deals of three rotations
    assert calls == [("TIP-9", 3, 6), ("TIP-9", 6, 6)]
    assert result.follower_durak + result.other_durak + result.draws + result.unfinished == 6
    assert result.difference == pytest.approx(result.other_rate - result.follower_rate)


def test_a_tip_that_decides_games_shows_in_the_numbers() -> None:
    # TIP-1 is the one tip whose effect is large enough to show in a few dozen games.
    result = run_experiment(experiment_of("TIP-1"), 60)
    assert result.follower_rate < result.other_rate
    assert result.verdict is Verdict.SUPPORTED


def test_every_experiment_runs_in_both_designs() -> None:
    for design in Design:
        evidence = run_experiments(1, design=design)
        assert [r.experiment.id for r in evidence.results] == [e.id for e in EXPERIMENTS]
        for r in evidence.results:
            assert r.games == r.experiment.players and r.deals == 1
            assert r.unfinished == 0
            assert r.experiment.design is design
        assert evidence.total_games == sum(e.players for e in EXPERIMENTS)


def test_bad_arguments_are_refused_with_a_reason() -> None:
    for games in (0, -3, True, 2.5):
        with pytest.raises(ValueError, match="number of games"):
            run_experiments(games)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="jobs must be a whole number"):
        run_experiments(2, jobs=0)
    with pytest.raises(ValueError, match="is not a tip"):
        run_experiments(2, tips=["TIP-12"])
    with pytest.raises(ValueError):
        experiments("sideways")
    with pytest.raises(KeyError, match="TIP-3 was not part"):
        run_experiments(2, tips=["TIP-1"])["TIP-3"]


# -- statistics and verdicts --------------------------------------------------------------------


@pytest.mark.parametrize(("low", "high", "expected"), [
    (0.01, 0.05, Verdict.SUPPORTED),
    (0.001, 0.004, Verdict.SUPPORTED),          # small but sure: still supported
    (-0.05, MARGIN - 0.001, Verdict.NOT_SUPPORTED),
    (-0.09, -0.02, Verdict.NOT_SUPPORTED),      # the tip costs games
    (0.0, 0.01, Verdict.NOT_SUPPORTED),         # zero is not above zero
    (-0.01, MARGIN, Verdict.INCONCLUSIVE),      # a gain of the margin is not ruled out
    (-0.04, 0.08, Verdict.INCONCLUSIVE),
])
def test_the_verdict_follows_from_the_interval(low: float, high: float,
                                               expected: Verdict) -> None:
    assert verdict(low, high) is expected


def test_the_verdict_refuses_what_is_not_an_interval() -> None:
    for low, high in ((0.1, -0.1), (float("nan"), 0.1), (0.0, float("inf"))):
        with pytest.raises(ValueError, match="not an interval"):
            verdict(low, high)
    with pytest.raises(ValueError, match="margin"):
        verdict(0.0, 0.1, margin=-0.01)
    assert verdict(-0.01, 0.01, margin=0.0) is Verdict.INCONCLUSIVE


def test_the_difference_interval_is_paired_over_deals() -> None:
    # 200 deals, the other lost 30 more of 400 games: the follower is clearly better.
    gains = [0.5] * 30 + [0.0] * 170
    result = synthetic("TIP-5", gains, follower=185, other=215)
    assert result.difference == pytest.approx(0.075)
    assert result.other_rate - result.follower_rate == pytest.approx(0.075)
    low, high = result.difference_interval
    assert 0 < low < 0.075 < high
    assert result.verdict is Verdict.SUPPORTED and "less often" in result.explain()
    # The same gains and losses mixed in equal numbers: centred on zero.
    mixed = synthetic("TIP-5", [0.5] * 30 + [-0.5] * 30 + [0.0] * 140, follower=200,
                      other=200)
    assert mixed.difference == 0 and mixed.verdict is Verdict.INCONCLUSIVE
    assert "more games would tell" in mixed.explain()
    costly = synthetic("TIP-8", [-0.5] * 40 + [0.0] * 160, follower=220, other=180)
    assert costly.verdict is Verdict.NOT_SUPPORTED and "costs games" in costly.explain()


def test_a_tip_that_changed_no_deal_is_not_proved_useless_by_few_deals() -> None:
    few = synthetic("TIP-6", [0.0] * 20, follower=20, other=20)
    assert few.difference_interval == pytest.approx((-0.15, 0.15))  # the rule of three
    assert few.verdict is Verdict.INCONCLUSIVE
    many = synthetic("TIP-6", [0.0] * 2000, follower=2000, other=2000)
    assert many.verdict is Verdict.NOT_SUPPORTED and "smaller than" in many.explain()
    one = synthetic("TIP-6", [0.5], follower=0, other=1)
    assert one.difference_interval == (-1.0, 1.0)


def test_rates_count_each_player_of_a_kind() -> None:
    # TIP-9: two followers and one other per game; 10 deals of 3 games = 30 games.
    result = synthetic("TIP-9", [0.0] * 10, follower=12, other=15, draws=3)
    assert result.follower_rate == pytest.approx(12 / 60)
    assert result.other_rate == pytest.approx(15 / 30)
    low, high = result.other_interval
    assert low < 0.5 < high


# -- the chart and the numbers ------------------------------------------------------------------


def sample_evidence() -> Evidence:
    return Evidence(games=400, results=(
        synthetic("TIP-1", [0.75] * 200, follower=25, other=325),  # off the scale
        synthetic("TIP-2", [0.5] * 20 + [-0.5] * 22 + [0.0] * 158, follower=200, other=198,
                  draws=2),
        synthetic("TIP-8", [-0.5] * 40 + [0.0] * 160, follower=220, other=180),
        synthetic("TIP-9", [1 / 6] * 50 + [0.0] * 100, follower=200, other=125),
        synthetic("TIP-6", [0.0] * 200, follower=200, other=200),
    ))


@pytest.mark.parametrize("draw", [plot, plot_narrow])
def test_the_chart_is_well_formed_svg_with_text_alternatives(draw: Any) -> None:
    evidence = sample_evidence()
    svg = draw(evidence)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and root.get("viewBox")
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert title is not None and "tip" in (title.text or "")
    assert desc is not None and desc.text == root.get("aria-label")
    label = root.get("aria-label") or ""
    for r in evidence.results:
        assert r.experiment.id in label and r.verdict.value in label
    assert "400 games per tip" in label
    rows = [g for g in root.iter(f"{SVG}g") if g.get("class") == "tip-row"]
    assert [g.get("data-tip") for g in rows] == ["TIP-1", "TIP-2", "TIP-8", "TIP-9", "TIP-6"]
    for g, r in zip(rows, evidence.results, strict=True):
        texts = " ".join(t.text or "" for t in g.iter(f"{SVG}text"))
        assert r.verdict.value in texts
    assert not any(e.get("id") for e in root.iter())  # many charts can share a page
    # TIP-1's difference is off the scale, so its row says so and has no dot.
    first = " ".join(t.text or "" for t in rows[0].iter(f"{SVG}text"))
    assert "off the scale" in first and "+75.0 points" in first
    assert not list(rows[0].iter(f"{SVG}circle"))


@pytest.mark.parametrize("draw", [plot, plot_narrow])
def test_the_chart_draws_a_real_run(draw: Any) -> None:
    evidence = run_experiments(2)
    root = ET.fromstring(draw(evidence))
    rows = [g for g in root.iter(f"{SVG}g") if g.get("class") == "tip-row"]
    assert len(rows) == len(EXPERIMENTS)
    # Every coordinate is a finite number inside the picture.
    width, height = (float(v) for v in (root.get("viewBox") or "").split()[2:])
    for element in root.iter():
        for name in ("x", "x1", "x2", "cx"):
            if element.get(name) is not None:
                assert 0 <= float(element.get(name) or "nan") <= width, element.attrib
        for name in ("y", "y1", "y2", "cy"):
            if element.get(name) is not None:
                assert 0 <= float(element.get(name) or "nan") <= height, element.attrib


def test_the_tables_and_lists_show_every_number_and_link_the_tips() -> None:
    evidence = sample_evidence()
    table = table_html(evidence)
    root = ET.fromstring(table)
    rows = root.findall("./table/tbody/tr")
    assert len(rows) == len(evidence.results)
    for row, r in zip(rows, evidence.results, strict=True):
        text = "".join(row.itertext())
        assert r.verdict.value in text and str(r.games) in text and r.experiment.game in text
        assert f"{100 * r.follower_rate:.1f} %" in text
        link = row.find("./th/a")
        # each tip's section is on the page of its chapter: TIP-8 is a tip on counting cards
        page = "tips-counting" if r.experiment.id in ("TIP-3", "TIP-5", "TIP-7", "TIP-8") \
            else "tips"
        assert link is not None and link.get("href") == f"{page}.html#{r.experiment.id}"
    plain = format_table(evidence)
    assert plain.count("\n") == len(evidence.results) + 2
    assert "−10.0 (" in plain and "not supported" in plain
    summary = "".join(ET.fromstring(summary_html(evidence)).itertext())
    assert re.search(r"Supported: TIP-1 .*; TIP-9 ", summary)
    assert re.search(r"Not supported: TIP-8 .*; TIP-6 ", summary)
    assert re.search(r"Inconclusive: TIP-2 ", summary)
    folds = ET.fromstring(design_html(evidence))
    design = "".join(folds.itertext())
    for r in evidence.results:
        assert r.experiment.why in design and f"seed {r.experiment.seed}" in design
    # the coach (durak-spec review) links a tip to its experiment by this id
    assert [d.get("id") for d in folds.iter("details")] == [
        f"evidence-{r.experiment.id}" for r in evidence.results]


def test_what_cannot_be_tested_is_said_for_the_tips_it_concerns() -> None:
    assert {"TIP-3", "TIP-8", "TIP-10", "all"} <= set(UNTESTABLE)
    text = untestable_html(tip_page="tips.html")
    root = ET.fromstring(text)
    links = [a.get("href") for a in root.iter("a")]
    assert links == [f"tips.html#{key}" for key in UNTESTABLE if key != "all"]
    by_chapter = [a.get("href") for a in ET.fromstring(untestable_html()).iter("a")]
    assert "tips-counting.html#TIP-3" in by_chapter and "tips.html#TIP-10" in by_chapter


def test_the_page_is_in_the_book_next_to_the_tips() -> None:
    toc = (ROOT / "book" / "_toc.yml").read_text(encoding="utf-8")
    assert "- file: tips\n      - file: tips-counting\n      - file: tips-evidence\n" in toc
    page = (ROOT / "book" / "tips-evidence.md").read_text(encoding="utf-8")
    assert "tipsim.run_experiments(GAMES)" in page
    assert re.search(r"^GAMES = \d+", page, re.MULTILINE)


# -- the command line ---------------------------------------------------------------------------


def test_the_command_prints_the_table_and_shows_progress_when_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chart = tmp_path / "tips.svg"
    assert main(["tips", "--games", "4", "--tips", "TIP-1,TIP-6", "--svg", str(chart),
                 "--progress"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].startswith("tip ")
    assert "TIP-1 " in out and "TIP-6 " in out and "TIP-2 " not in out
    assert "8 games in" in out
    # the bar (tqdm) counts the games of both experiments, named as they are played
    assert re.search(r"\r +0%.* 0/8 ", err) and re.search(r"TIP-6: 100%.* 8/8 ", err), err
    ET.fromstring(chart.read_text(encoding="utf-8"))
    # standard error is not a terminal here: no bar unless asked
    assert main(["tips", "--games", "2", "--tips", "TIP-1"]) == 0
    assert capsys.readouterr().err == ""


def test_the_command_refuses_bad_input_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no" / "such" / "dir" / "tips.svg"
    for argv, message in ((["--games", "0"], "is not a positive whole number"),
                          (["--tips", "TIP-42"], "is not a tip"),
                          (["--jobs", "0"], "is not a positive whole number"),
                          (["--jobs", "2", "--scheduler", "tcp://x:1"],
                           "with --scheduler the cluster's workers play"),
                          (["--design", "sideways"], "invalid choice"),
                          (["--svg", str(missing)], "does not exist"),
                          (["--svg", str(tmp_path)], "it is a directory")):
        assert main(["tips", *argv]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
        assert err.startswith("durak-spec tips: error: ")
