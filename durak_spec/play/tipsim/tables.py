"""The evidence as text and HTML: the table of results, the summary, the design and the
tips that cannot be tested."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from durak_spec.core.ruleindex import load_rule_index
from durak_spec.play.bots import TIP_NOTES
from durak_spec.play.tipsim.experiments import (
    UNTESTABLE,
    VERDICT_COLOUR,
    Evidence,
    HtmlText,
    Verdict,
)
from durak_spec.play.tipsim.text import (
    interval_text,
    percent_text,
    points_interval_text,
    points_text,
)


def format_table(evidence: Evidence) -> str:
    """The results as a plain-text table (the command line prints it)."""
    head = ("tip", "game", "games", "follower durak (95% CI)", "other durak (95% CI)",
            "difference, points (95% CI)", "verdict")
    rows = [head]
    for r in evidence.results:
        e = r.experiment
        rows.append((
            e.id, e.game, str(r.games),
            f"{percent_text(r.follower_rate)} ({interval_text(r.follower_interval)})",
            f"{percent_text(r.other_rate)} ({interval_text(r.other_interval)})",
            f"{points_text(r.difference)} ({points_interval_text(r.difference_interval)})",
            r.verdict.value))
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
             for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append(f"{evidence.total_games} games in {evidence.seconds:.1f} s")
    return "\n".join(lines)


def _link(tip_id: str, tip_page: str | None) -> str:
    """A link to the tip's section: on ``tip_page`` if given, else on the page of the
    tip's chapter in the rule index (the book has a page per chapter, ``tips.html``)."""
    page = tip_page if tip_page is not None else f"{load_rule_index()[tip_id].chapter}.html"
    return f'<a href={quoteattr(f"{page}#{tip_id}")}>{escape(tip_id)}</a>'




def table_html(evidence: Evidence, *, tip_page: str | None = None) -> HtmlText:
    """The numbers beside the chart, one row per experiment; tip IDs link to their sections
    (on ``tip_page`` if given, else on their chapter's page).

    Each rate and the difference show their 95 % interval under them, in small print."""
    head = ("Tip and game", "Durak rate, follower", "Durak rate, other",
            "Difference, points", "Verdict")
    out = ['<table class="table tipsim-table">', "<thead><tr>",
           *(f'<th scope="col">{escape(h)}</th>' for h in head), "</tr></thead><tbody>"]

    def cell(value: str, interval: str) -> str:
        return (f'<td style="white-space:nowrap">{value}<br/>'
                f"<small>{escape(interval)}</small></td>")

    for r in evidence.results:
        e = r.experiment
        cells = (
            f'<th scope="row">{_link(e.id, tip_page)} {escape(e.title)}<br/>'
            f'<small style="font-weight:normal">{escape(e.game)}, {r.games} games</small></th>',
            cell(percent_text(r.follower_rate), interval_text(r.follower_interval)),
            cell(percent_text(r.other_rate), interval_text(r.other_interval)),
            cell(points_text(r.difference), points_interval_text(r.difference_interval)),
            f'<td class="tipsim-verdict"><strong style="color:{VERDICT_COLOUR[r.verdict]}">'
            f"{escape(r.verdict.value)}</strong></td>",
        )
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    out.append("<p><small>Under each number: its 95 % confidence interval (Wilson for the "
               "rates; paired over deals for the difference).</small></p>")
    return HtmlText("<div>" + "".join(out) + "</div>")


def summary_html(evidence: Evidence, *, tip_page: str | None = None) -> HtmlText:
    """Which tips the evidence supports, which not, which it leaves open: a list."""
    parts = ["<ul>"]
    for which in Verdict:
        found = evidence.by_verdict(which)
        if found:
            items = "; ".join(f"{_link(r.experiment.id, tip_page)} {escape(r.experiment.title)}"
                              for r in found)
        else:
            items = "none"
        parts.append(f"<li><strong>{escape(which.value.capitalize())}:</strong> {items}.</li>")
    parts.append("</ul>")
    return HtmlText("".join(parts))


def evidence_anchor(tip_id: str) -> str:
    """The element id of a tip's experiment in :func:`design_html` (``evidence-TIP-2``):
    the coach (``durak-spec review``) links a costly move's tip to it."""
    return f"evidence-{tip_id}"


def design_html(evidence: Evidence, *, tip_page: str | None = None) -> HtmlText:
    """Per experiment, folded under its tip and verdict: what is compared and why, how the
    bot follows the tip, and the verdict explained (open, they made the page three screens
    longer than the results they explain). Each fold has the id :func:`evidence_anchor`."""
    parts = ['<div class="tipsim-design">']
    for r in evidence.results:
        e = r.experiment
        parts.append(
            f'<details class="durak-fold" id={quoteattr(evidence_anchor(e.id))}>'
            f"<summary>{_link(e.id, tip_page)} {escape(e.title)} "
            f"<small>({escape(e.game)}, seed {e.seed}): {escape(r.verdict.value)}</small>"
            f"</summary>"
            f"<p><strong>Compared:</strong> {escape(e.why)}</p>"
            f"<p><strong>How the bot follows it:</strong> "
            f"{escape(TIP_NOTES[e.tip].replace('`', ''))}</p>"
            f"<p><strong>Result:</strong> {escape(r.verdict.value)}. {escape(r.explain())}</p>"
            f"</details>")
    parts.append("</div>")
    return HtmlText("".join(parts))


def untestable_html(*, tip_page: str | None = None) -> HtmlText:
    """What no simulation here can test (:data:`UNTESTABLE`)."""
    index = load_rule_index()
    parts = ["<ul>"]
    for key, text in UNTESTABLE.items():
        label = ("<strong>Every tip</strong>" if key == "all"
                 else f"<strong>{_link(key, tip_page)} {escape(index[key].title)}</strong>")
        parts.append(f"<li>{label}: {escape(text)}</li>")
    parts.append("</ul>")
    return HtmlText("".join(parts))
