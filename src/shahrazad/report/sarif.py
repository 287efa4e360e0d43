"""The SARIF 2.1.0 report of a verification, for code-scanning tools: one rule per
invariant, one result per obligation not proved (refuted and fault are errors, unknown a
warning)."""

from __future__ import annotations

import json

from shahrazad.proofs.verify import Result, Status


def verify_sarif(results: list[Result], rulebook: str, wall: float = 0.0) -> str:
    """The run's invocation carries its wall-clock time (`properties.wall-seconds`)."""
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
                     "results": findings,
                     "invocations": [{"executionSuccessful": True,
                                      "properties": {"wall-seconds": round(wall, 3)}}]}]}
    return json.dumps(doc, indent=2) + "\n"
