"""The text report of a verification: one line per obligation, each refuted one explained
in words with its scenario (TOML, to replay with `shahrazad simulate`), and a summary line
that the Markdown report shares."""

from __future__ import annotations

from collections import Counter

from shahrazad.model.scenario import dump_scenario
from shahrazad.proofs.solving.obligations import Result, Status

from .explain import explain


def summary(results: list[Result], wall: float = 0.0) -> str:
    """One line: how many obligations, how many of each outcome, how many came from the
    cache of proofs (a warm run), and the time (see `timing`)."""
    counts = Counter(r.status.value for r in results)
    parts = [f"{counts.get(s.value, 0)} {s.value}" for s in Status if counts.get(s.value)]
    time = timing(results, wall)
    return (f"{len(results)} obligations: " + ", ".join(parts) + confirmed(results) +
            from_cache(results) +
            f" ({time['wall-seconds']:.1f} s wall; {time['solving-seconds']:.1f} s solving, "
            f"{time['encoding-seconds']:.1f} s encoding"
            + (f", {time['confirming-seconds']:.1f} s confirming" if "confirming-seconds" in time
               else "") + ")")


def confirmed(results: list[Result]) -> str:
    """", N confirmed by cvc5" when a second solver was asked (`--confirm`), else ""."""
    asked = [r.confirmation for r in results if r.confirmation is not None]
    if not asked:
        return ""
    return f"; {sum(c.confirmed for c in asked)} confirmed by {asked[0].solver}"


def from_cache(results: list[Result]) -> str:
    """"; N from the cache" when some results were answered from the cache of proofs
    (`--cache`: a warm run, whose times count only what was decided), else ""."""
    cached = cached_count(results)
    return f"; {cached} from the cache" if cached else ""


def cached_count(results: list[Result]) -> int:
    """How many results were answered from the cache of proofs, not decided."""
    return sum(r.cached for r in results)


def timing(results: list[Result], wall: float) -> dict[str, float]:
    """The run's wall-clock seconds (process start aside), and the seconds its workers spent
    inside z3's search and building z3 terms, summed over the workers (so either can exceed
    the wall time when workers run at once). Results from the cache of proofs count 0."""
    time = {"wall-seconds": round(wall, 3),
            "solving-seconds": round(sum(r.solving for r in results), 3),
            "encoding-seconds": round(sum(r.encoding for r in results), 3)}
    asked = [r.confirmation for r in results if r.confirmation is not None]
    if asked:
        time["confirming-seconds"] = round(sum(c.seconds for c in asked), 3)
    return time


def verify_text(results: list[Result], rulebook: str, amendments: list[str],
                wall: float = 0.0, unseen: str = "") -> str:
    """The report; `unseen` (the semantic diff's line, when the amendments make no
    difference the model can see) goes before the summary, which then says that the proofs
    are not a verdict on the amendments."""
    head = [f"Rulebook: {rulebook}" + (f" amended by {', '.join(amendments)}" if amendments else "")]
    body: list[str] = []
    for r in results:
        bound = f", up to {r.bound} of each" if r.bound and r.status == Status.PROVED else ""
        also = (f"; confirmed by {r.confirmation.solver}"
                if r.confirmation is not None and r.confirmation.confirmed else "")
        took = "from the cache" if r.cached else f"{r.seconds:.2f} s"
        body.append(f"{r.status.value.upper():8} {r.obligation.name}{bound}  ({took}{also})")
        if r.status in (Status.UNKNOWN, Status.FAULT):
            body.append(f"  {r.reason}")
        if r.lemmas:
            body.append(f"  {r.reason}:")
            body += [f"    lemma: {lemma}" for lemma in r.lemmas]
        if r.status in (Status.REFUTED, Status.FAULT):
            body += explain(r)
            if r.counterexample is not None:
                body.append("  scenario (replay it with shahrazad simulate):")
                body += ["    " + line for line in dump_scenario(r.counterexample).splitlines()]
            if r.trace is not None:
                body.append("  reaching trace, from a game's beginning (shahrazad simulate runs it):")
                body += ["    " + line for line in dump_scenario(r.trace).splitlines()]
    last = summary(results, wall)
    if unseen:
        body += ["", unseen]
        last += "; not a verdict on the amendments: " + unseen.split(":")[0]
    return "\n".join(head + [""] + body + ["", last]) + "\n"
