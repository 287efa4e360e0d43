"""The semantic diff of an amendment in words and as JSON: for each event whose clauses it
changes, whether the event ends differently, with the situation, its reaching trace, and
the two outcomes side by side (`proofs.analyses.semantic`)."""

from __future__ import annotations

import difflib
from typing import Any

from shahrazad.model.scenario import dump_scenario, scenario_data, situation_data
from shahrazad.model.state import Situation
from shahrazad.proofs.analyses.semantic import EventDifference, unseen

from .simulate import situation_text

NO_DIFFERENCE = "no difference the model can see"


def unseen_line(diff: list[EventDifference]) -> str:
    """The one line that says the model cannot see the amendment, and why."""
    events = ", ".join(d.event for d in diff) or "no event"
    return (f"{NO_DIFFERENCE}: the amended clauses act on {events}, and every situation "
            "ends the same under both rulebooks, for every number of cards, players and "
            "games. The model does not see what this amendment changes (an order it does "
            "not keep, a procedure it does not have, or words alone): nothing is proved "
            "about it.")


def undecided_line(diff: list[EventDifference]) -> str:
    """The one line that says whether the amendments change what the model sees could not
    be decided: the proofs are no verdict on them either."""
    events = ", ".join(d.event for d in diff if d.status == "unknown")
    return (f"whether the amendments change what happens at {events} could not be decided "
            "(the solver gave up): the proofs are no verdict on the amendments.")


def diff_text(diff: list[EventDifference], against: str = "the official rules",
              verdicts_change: bool = False) -> list[str]:
    """The diff in words; the "no difference" line only when no verdict changes either."""
    lines = [f"What behaves differently from {against}, event by event:"]
    if not diff:
        lines.append(f"  no event's clauses change: {NO_DIFFERENCE}")
    for d in diff:
        changed = f" (changed: {', '.join(d.clauses)})" if d.clauses else ""
        if d.status == "same":
            lines.append(f"  {d.event}: the same, {d.detail}{changed}")
            continue
        if d.status == "unknown":
            lines.append(f"  {d.event}: UNKNOWN, {d.detail}{changed}")
            continue
        lines.append(f"  {d.event}: DIFFERS{changed}")
        if d.breaks:
            lines.append(f"    breaks here: {', '.join(d.breaks)}")
        if d.repairs:
            lines.append(f"    repairs here: {', '.join(d.repairs)}")
        if not d.breaks and not d.repairs:
            lines.append("    no invariant of the catalog tells the two outcomes apart")
        if d.scenario is not None:
            steps = len(d.trace.events) - 1 if d.trace is not None else 0
            lines.append(f"    situation (reached from a game's beginning in {steps} "
                         f"event{'' if steps == 1 else 's'}):")
            lines += situation_text(d.scenario.situation, "      ")
            lines.append(f"    event: {d.scenario.events[-1].describe()}")
        if d.official is not None and d.amended is not None:
            lines.append("    outcomes (a * marks a line that differs):")
            lines += side_by_side(_shown(d.official), _shown(d.amended),
                                  against, "the amendment", "      ")
        if d.trace is not None:
            lines.append("    reaching trace (shahrazad simulate runs it):")
            lines += ["      " + line for line in dump_scenario(d.trace).splitlines()]
    if diff and unseen(diff) and not verdicts_change:
        lines += ["", unseen_line(diff)]
    return lines


def _shown(outcome: Situation | str) -> list[str]:
    return [outcome] if isinstance(outcome, str) else situation_text(outcome, "")


def side_by_side(left: list[str], right: list[str], left_title: str, right_title: str,
                 indent: str) -> list[str]:
    """Two columns, aligned on the lines they share; a `*` marks the rows that differ."""
    width = max([len(left_title), *(len(line) for line in left)]) + 2
    rows = [(left_title, right_title, " "), ("-" * len(left_title), "-" * len(right_title), " ")]
    matcher = difflib.SequenceMatcher(a=left, b=right, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            rows += [(line, line, " ") for line in left[i1:i2]]
            continue
        a, b = left[i1:i2], right[j1:j2]
        for k in range(max(len(a), len(b))):
            rows.append((a[k] if k < len(a) else "", b[k] if k < len(b) else "", "*"))
    return [f"{indent}{mark} {a:<{width}}| {b}".rstrip() for a, b, mark in rows]


def diff_json(diff: list[EventDifference], verdicts_change: bool = False) -> dict[str, Any]:
    """The semantic diff as JSON: whether the model sees nothing of the amendment (`unseen`,
    never when verdicts change) and each changed event's verdict."""
    return {"unseen": unseen(diff) and not verdicts_change,
            "events": [_event_json(d) for d in diff]}


def _event_json(d: EventDifference) -> dict[str, Any]:
    out: dict[str, Any] = {"event": d.event, "status": d.status, "detail": d.detail,
                           "clauses": d.clauses}
    if d.status == "differs":
        out["breaks"] = d.breaks
        out["repairs"] = d.repairs
    if d.scenario is not None:
        out["scenario"] = scenario_data(d.scenario)
    if d.trace is not None:
        out["trace"] = scenario_data(d.trace)
    for name, outcome in (("official", d.official), ("amended", d.amended)):
        if outcome is not None:
            out[name] = outcome if isinstance(outcome, str) else situation_data(outcome)
    return out
