"""Reports of a verification run: text, JSON, JUnit XML, SARIF and Markdown.

Every refuted obligation comes with its counterexample explained: the invariant, the
witness that breaks it, the clause steps that acted, and the situation before and after,
in words; the scenario itself (TOML) can be replayed with `shahrazad simulate`.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from shahrazad.model.scenario import dump_scenario, scenario_data
from shahrazad.proofs.verify import Result, Status

from .simulate import situation_text

VERIFY_SCHEMA = "shahrazad.verify/1"


def exit_code(results: list[Result]) -> int:
    """0 all proved; 1 something refuted; 3 something unknown (or a tool fault), none refuted."""
    statuses = {r.status for r in results}
    if Status.REFUTED in statuses:
        return 1
    if statuses & {Status.UNKNOWN, Status.FAULT}:
        return 3
    return 0


def summary(results: list[Result]) -> str:
    counts = Counter(r.status.value for r in results)
    parts = [f"{counts.get(s.value, 0)} {s.value}" for s in Status if counts.get(s.value)]
    seconds = sum(r.seconds for r in results)
    return f"{len(results)} obligations: " + ", ".join(parts) + f" ({seconds:.1f} s of solving)"


def explain(result: Result) -> list[str]:
    """A refuted obligation in words: what broke, which steps acted, before and after."""
    inv = result.obligation.invariant
    lines = [f"  broken: {inv.statement}", f"  clauses that should keep it: {', '.join(inv.clauses)}"]
    replay = result.replay
    if replay is not None and replay.witness:
        lines.append("  witness: " + ", ".join(f"{k} = {v}" for k, v in replay.witness.items()))
    if result.counterexample is not None:
        lines.append("  before:")
        lines += ["  " + line for line in situation_text(result.counterexample.situation)]
        lines.append(f"  event: {result.counterexample.events[0].describe()}")
    if replay is not None and replay.outcome is not None:
        lines.append("  steps that acted:")
        for step in replay.outcome.trace:
            if step.changes:
                lines.append("    " + step.describe().replace("\n", "\n    "))
        lines.append("  after:")
        lines += ["  " + line for line in situation_text(replay.outcome.situation)]
    return lines


def write_explanations(results: list[Result], folder: Path) -> list[Path]:
    """For each counterexample: the scenario, and pictures before and after the event."""
    from shahrazad.model.graph import render, to_dot
    from shahrazad.model.scenario import write_scenario

    written: list[Path] = []
    folder.mkdir(parents=True, exist_ok=True)
    for r in results:
        if r.counterexample is None or r.status not in (Status.REFUTED, Status.FAULT):
            continue
        stem = f"{r.obligation.invariant.id}@{r.obligation.event}"
        path = folder / f"{stem}.toml"
        write_scenario(r.counterexample, path)
        written.append(path)
        states = [("before", r.counterexample.situation)]
        if r.replay is not None and r.replay.outcome is not None:
            states.append(("after", r.replay.outcome.situation))
        for when, situation in states:
            dot = to_dot(situation, f"{stem}: {when} {r.counterexample.events[0].describe()}")
            for fmt in ("dot", "svg"):
                try:
                    data = render(dot, fmt)
                except RuntimeError:
                    continue  # no Graphviz: the .dot file is there
                target = folder / f"{stem}.{when}.{fmt}"
                target.write_bytes(data)
                written.append(target)
    return written


def text(results: list[Result], rulebook: str, amendments: list[str]) -> str:
    head = [f"Rulebook: {rulebook}" + (f" amended by {', '.join(amendments)}" if amendments else "")]
    body: list[str] = []
    for r in results:
        bound = f", up to {r.bound} of each" if r.bound and r.status == Status.PROVED else ""
        body.append(f"{r.status.value.upper():8} {r.obligation.name}{bound}  ({r.seconds:.2f} s)")
        if r.status in (Status.UNKNOWN, Status.FAULT):
            body.append(f"  {r.reason}")
        if r.status in (Status.REFUTED, Status.FAULT):
            body += explain(r)
            if r.counterexample is not None:
                body.append("  scenario (replay it with shahrazad simulate):")
                body += ["    " + line for line in dump_scenario(r.counterexample).splitlines()]
    return "\n".join(head + [""] + body + ["", summary(results)]) + "\n"


def as_json(results: list[Result], rulebook: str, amendments: list[str]) -> dict[str, Any]:
    return {
        "schema": VERIFY_SCHEMA,
        "rulebook": rulebook,
        "amendments": amendments,
        "summary": dict(Counter(r.status.value for r in results)),
        "exit-code": exit_code(results),
        "obligations": [_result_json(r) for r in results],
    }


def _result_json(r: Result) -> dict[str, Any]:
    inv = r.obligation.invariant
    out: dict[str, Any] = {
        "invariant": inv.id,
        "statement": inv.statement,
        "event": r.obligation.event,
        "status": r.status.value,
        "clauses": list(inv.clauses),
        "seconds": round(r.seconds, 4),
        "bounded": r.bound,
        "reason": r.reason,
    }
    if r.counterexample is not None:
        out["counterexample"] = scenario_data(r.counterexample)
        if r.replay is not None and r.replay.witness:
            out["witness"] = r.replay.witness
        if r.replay is not None and r.replay.outcome is not None:
            out["steps"] = [s.as_data() for s in r.replay.outcome.trace if s.changes]
    return out


def junit(results: list[Result], rulebook: str) -> str:
    counts = Counter(r.status for r in results)
    suite = ET.Element("testsuite", name=f"shahrazad verify ({rulebook})", tests=str(len(results)),
                       failures=str(counts[Status.REFUTED]), errors=str(counts[Status.FAULT]),
                       skipped=str(counts[Status.UNKNOWN]),
                       time=f"{sum(r.seconds for r in results):.3f}")
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=r.obligation.event,
                             name=r.obligation.invariant.id, time=f"{r.seconds:.3f}")
        if r.status == Status.REFUTED:
            failure = ET.SubElement(case, "failure", message=r.obligation.invariant.statement)
            failure.text = "\n".join(explain(r))
        elif r.status == Status.FAULT:
            ET.SubElement(case, "error", message=r.reason)
        elif r.status == Status.UNKNOWN:
            ET.SubElement(case, "skipped", message=r.reason)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"


def markdown(results: list[Result], rulebook: str, amendments: list[str]) -> str:
    lines = [f"# shahrazad verify: {rulebook}" + (f" + {', '.join(amendments)}" if amendments else ""),
             "", summary(results), "", "| status | invariant | event | clauses | seconds |",
             "| --- | --- | --- | --- | --- |"]
    for r in results:
        lines.append(f"| {r.status.value} | `{r.obligation.invariant.id}` | {r.obligation.event} | "
                     f"{', '.join(r.obligation.invariant.clauses)} | {r.seconds:.2f} |")
    for r in results:
        if r.status in (Status.REFUTED, Status.FAULT) and r.counterexample is not None:
            lines += ["", f"## {r.status.value}: {r.obligation.name}", "", "```"]
            lines += explain(r)
            lines += ["```", "", "```toml", dump_scenario(r.counterexample).rstrip(), "```"]
    return "\n".join(lines) + "\n"


def sarif(results: list[Result], rulebook: str) -> str:
    rules = {}
    findings = []
    for r in results:
        inv = r.obligation.invariant
        rules[inv.id] = {"id": inv.id, "shortDescription": {"text": inv.statement}}
        if r.status in (Status.PROVED,):
            continue
        level = {"refuted": "error", "unknown": "warning", "fault": "error"}[r.status.value]
        findings.append({
            "ruleId": inv.id, "level": level,
            "message": {"text": f"{r.status.value} at {r.obligation.event}: "
                                + (r.reason or inv.statement)},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": rulebook}}}],
        })
    doc = {"version": "2.1.0",
           "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
           "runs": [{"tool": {"driver": {"name": "shahrazad", "rules": list(rules.values())}},
                     "results": findings}]}
    return json.dumps(doc, indent=2) + "\n"
