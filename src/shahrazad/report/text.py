"""The text report of a verification: one line per obligation, each refuted one explained
in words with its scenario (TOML, to replay with `shahrazad simulate`), and a summary line
that the Markdown report shares."""

from __future__ import annotations

from collections import Counter

from shahrazad.model.scenario import dump_scenario
from shahrazad.proofs.verify import Result, Status

from .explain import explain


def summary(results: list[Result]) -> str:
    """One line: how many obligations, how many of each outcome, the seconds of solving."""
    counts = Counter(r.status.value for r in results)
    parts = [f"{counts.get(s.value, 0)} {s.value}" for s in Status if counts.get(s.value)]
    seconds = sum(r.seconds for r in results)
    return f"{len(results)} obligations: " + ", ".join(parts) + f" ({seconds:.1f} s of solving)"


def verify_text(results: list[Result], rulebook: str, amendments: list[str]) -> str:
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
            if r.trace is not None:
                body.append("  reaching trace, from a game's beginning (shahrazad simulate runs it):")
                body += ["    " + line for line in dump_scenario(r.trace).splitlines()]
    return "\n".join(head + [""] + body + ["", summary(results)]) + "\n"
