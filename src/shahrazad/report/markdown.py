"""The Markdown report of a verification: the summary, a table of every obligation, each
proof that needed lemmas with them, and each refuted one explained with its scenario
(TOML)."""

from __future__ import annotations

from shahrazad.model.scenario import dump_scenario
from shahrazad.proofs.solving.obligations import Result, Status

from .explain import explain
from .text import summary


def verify_markdown(results: list[Result], rulebook: str, amendments: list[str],
                    wall: float = 0.0) -> str:
    """The Markdown report: a heading with the rulebook and amendments, the summary, a table of
    every obligation (its seconds, or "from the cache"), each proof that rests on lemmas
    with them (each itself an invariant, docs/verdicts.md), then each one refuted (or a
    fault) with a counterexample: explained, as TOML, and with its reaching trace."""
    lines = [f"# shahrazad verify: {rulebook}" + (f" + {', '.join(amendments)}" if amendments else ""),
             "", summary(results, wall), "", "| status | invariant | event | clauses | seconds |",
             "| --- | --- | --- | --- | --- |"]
    for r in results:
        lines.append(f"| {r.status.value} | `{r.obligation.invariant.id}` | {r.obligation.event} | "
                     f"{', '.join(r.obligation.invariant.clauses)} | "
                     f"{'from the cache' if r.cached else f'{r.seconds:.2f}'} |")
    for r in results:
        if r.lemmas:
            lines += ["", f"## proved with lemmas: {r.obligation.name}", "", r.reason, ""]
            lines += [f"* {lemma}" for lemma in r.lemmas]
    for r in results:
        if r.status in (Status.REFUTED, Status.FAULT) and r.counterexample is not None:
            lines += ["", f"## {r.status.value}: {r.obligation.name}", "", "```"]
            lines += explain(r)
            lines += ["```", "", "```toml", dump_scenario(r.counterexample).rstrip(), "```"]
            if r.trace is not None:
                lines += ["", "Reaching trace, from a game's beginning:", "", "```toml",
                          dump_scenario(r.trace).rstrip(), "```"]
    return "\n".join(lines) + "\n"
