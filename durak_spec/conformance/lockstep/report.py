"""The text report of a run."""


from __future__ import annotations

from durak_spec.conformance.lockstep.results import LockstepResult
from durak_spec.conformance.lockstep.text import count_text


def format_lockstep(result: LockstepResult, *, verbose: bool = False) -> str:
    """The report: one line per configuration that diverged (all with ``verbose``), each
    divergence in full (one per rule; the others of the same rule by name), and the
    closing :meth:`LockstepResult.summary` line."""
    lines = [f"Lockstep: {result.engine} against the reference, "
             f"{result.games_per_configuration} random games per configuration, "
             f"seed {result.seed} ({result.games_per_second:.0f} games/s)", ""]
    unplayed: dict[str, int] = {}  # configurations not played, by why (each with verbose)
    for item in result.results:
        if item.divergence is None and not item.stopped and not verbose:
            continue
        if item.unplayed and not verbose:
            unplayed[item.stopped] = unplayed.get(item.stopped, 0) + 1
            continue
        if item.divergence is not None:
            d = item.divergence
            status = (f"{count_text(item.found, 'divergence')}, the first: "
                      f"{d.kind.upper()} in game {d.game + 1}"
                      + (f" ({d.rule})" if d.rule else "") + f", {d.length} steps")
            if item.stopped:
                status += f"; stopped: {item.stopped}"
        elif item.stopped:
            status = f"{'stopped' if item.games else 'not played'}: {item.stopped}"
        else:
            status = "agreed"
        if item.declined:
            status += (f"; the engine declined {count_text(item.declined, 'load')} of the "
                       "reference's position after a divergence, so those games ended there "
                       "and the next started")
        lines.append(f"  {item.label}: {count_text(item.games, 'game')}, "
                     f"{count_text(item.actions, 'action')}: {status}")
    lines.extend(f"  {count_text(n, 'configuration')} not played: {why}"
                 for why, n in unplayed.items())
    if verbose and result.skipped:
        lines.extend(f"  skipped {label}: {reason}" for label, reason in result.skipped)
    elif result.skipped:
        reasons: dict[str, int] = {}
        for _, reason in result.skipped:
            reasons[reason] = reasons.get(reason, 0) + 1
        lines.extend(f"  {n} configurations skipped: {reason}" for reason, n in reasons.items())
    if result.causes:
        lines.extend(["", f"{count_text(len(result.causes), 'distinct cause')} "
                      "(rule and kind of difference), the most frequent first:"])
        lines.extend(f"  {number}. {cause.heading}"
                     for number, cause in enumerate(result.causes, 1))
    for number, cause in enumerate(result.causes, 1):
        lines.extend(["", f"{number}. {cause.heading}; an example:"])
        if cause.rule is not None:
            lines.append(f"  read the rule: durak-spec rules {cause.rule}")
        lines.append(cause.example.describe())
        if len(cause.configurations) > 1:
            lines.append("  also in: " + "; ".join(cause.configurations[1:]))
    if lines[-1]:
        lines.append("")
    lines.append(result.summary())
    return "\n".join(lines)
