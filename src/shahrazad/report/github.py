"""GitHub Actions workflow commands for a verification (`--format github`): one annotation
per obligation not proved, at the clause that should keep the promise (`report.locate`):
`::error` for refuted and fault, `::warning` for unknown; then one `::notice` with the
totals (and how many came from the cache of proofs). Values are escaped as the runner
requires."""

from __future__ import annotations

from collections.abc import Sequence

from shahrazad.model.amendment import Amendment
from shahrazad.model.rulebook import Rulebook
from shahrazad.proofs.solving.obligations import Result, Status

from .locate import Location, citations, locations, rulebook_name, unseen_locations
from .text import from_cache

COMMANDS = {Status.REFUTED: "error", Status.FAULT: "error", Status.UNKNOWN: "warning"}


def escape_data(text: str) -> str:
    """A command's message: `%`, carriage return and line feed percent-encoded."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A command's property value (file, title): also `:` and `,`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, message: str, where: Location | None = None, title: str = "") -> str:
    """One workflow command line, `::kind file=F,line=L,title=T::message`."""
    properties = []
    if where is not None:
        properties.append(f"file={escape_property(where.file)}")
        if where.line is not None:
            properties.append(f"line={where.line}")
    if title:
        properties.append(f"title={escape_property(title)}")
    return f"::{kind}{' ' + ','.join(properties) if properties else ''}::{escape_data(message)}"


def verify_github(results: list[Result], rulebook: Rulebook, amendments: Sequence[Amendment],
                  unseen: str | None = None) -> str:
    """The lines, in the order of the results; the `::notice` summary last."""
    lines = []
    for r in results:
        if r.status == Status.PROVED:
            continue
        inv = r.obligation.invariant
        where = locations(r, rulebook, amendments)
        cr = ", ".join(citations(inv.clauses, rulebook, amendments, inv.rules))
        message = f"{inv.statement}\n{r.status.value} at {r.obligation.event} (CR {cr})"
        if r.reason:
            message += f": {r.reason}"
        message += "".join(f"\nat {w.describe()}" for w in where)
        lines.append(command(COMMANDS[r.status], message, where[0],
                             f"{inv.id} {r.status.value} at {r.obligation.event}"))
    if unseen is not None:
        at = unseen_locations(amendments)
        lines.append(command("warning", unseen, at[0] if at else None, "amendment.unseen"))
    counts = [f"{n} {s.value}" for s in Status if (n := sum(r.status == s for r in results))]
    summary = (f"shahrazad verify ({rulebook_name(rulebook, amendments)}): {len(results)} "
               f"obligations: {', '.join(counts) or 'none'}{from_cache(results)}")
    if unseen is not None:
        summary += "; the amendments change nothing the model can see"
    lines.append(command("notice", summary))
    return "\n".join(lines) + "\n"
