"""The report of `shahrazad protection`: per clause, its removal and each change of one of
its parameters, with the invariant that catches it, or why nothing does."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import Any

from shahrazad.model.rulebook import Rulebook
from shahrazad.model.scenario import dump_scenario, scenario_data
from shahrazad.proofs.analyses.protection import Protection

SCHEMA = "shahrazad.protection/3"

# How each status reads in the text report.
WORDS = {"gap": "GAP", "no-effect": "no effect", "unseen": "unseen", "unknown": "UNKNOWN"}


def _what(p: Protection) -> str:
    if p.status == "protected":
        return f"caught by {p.caught_by}"
    return f"{WORDS[p.status]}: {p.detail}"


def protection_text(found: list[Protection], rulebook: Rulebook, every: bool = False) -> str:
    """Each clause on one line (its removal and how many of its changes are caught), then
    each change that is not caught, or every change with `every`."""
    lines: list[str] = []
    for name in rulebook.names():
        mine = [p for p in found if p.clause == name]
        if not mine:
            continue
        removal, rest = mine[0], mine[1:]
        caught = sum(p.status == "protected" for p in rest)
        tail = f"; {caught} of {len(rest)} changes caught" if rest else ""
        lines.append(f"{name} [{rulebook.cite(name)}]: removed: {_what(removal)}{tail}")
        for p in rest:
            if every or p.status != "protected":
                assert p.change is not None
                lines.append(f"    {p.change.describe()}: {_what(p)}")
            if p.scenario is not None and p.status != "protected":
                lines.append("      a situation where it shows (shahrazad simulate):")
                lines.append(textwrap.indent(dump_scenario(p.scenario).rstrip(), " " * 8))
    counts = {status: sum(p.status == status for p in found)
              for status in ("protected", "gap", "no-effect", "unseen", "unknown")}
    removed = [p for p in found if p.change is None or p.change.parameter == "removed"]
    lines.append("")
    lines.append(f"{sum(p.status == 'protected' for p in removed)} of {len(removed)} clauses "
                 f"protected against removal; {len(found)} removals and changes: "
                 + ", ".join(f"{n} {s}" for s, n in counts.items() if n))
    return "\n".join(lines) + "\n"


def protection_json(found: Iterable[Protection]) -> dict[str, Any]:
    """The protection report as JSON (schema `shahrazad.protection/3`): each removal of a clause
    and each change of one of its parameters, with its status, the invariant that catches it,
    the detail, and the situation and reaching trace where it shows."""
    out = []
    for p in found:
        item: dict[str, Any] = {"clause": p.clause, "event": p.event, "status": p.status,
                                "caught-by": p.caught_by, "detail": p.detail}
        if p.change is not None:
            item["change"] = {"parameter": p.change.parameter, "from": p.change.old,
                              "to": p.change.new}
        if p.scenario is not None:
            item["scenario"] = scenario_data(p.scenario)
        if p.trace is not None:
            item["trace"] = scenario_data(p.trace)
        out.append(item)
    return {"schema": SCHEMA, "changes": out}


def exit_code(found: Iterable[Protection]) -> int:
    """1 when a removal or change is a gap, else 3 when one is unknown, else 0."""
    statuses = {p.status for p in found}
    return 1 if "gap" in statuses else 3 if "unknown" in statuses else 0
