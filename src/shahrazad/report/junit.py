"""The JUnit XML report of a verification, for CI: one test case per obligation. Refuted is
a failure (with its explanation); unknown and fault are errors (nothing was decided: never
a pass, never skipped); proved passes. A case not proved names the file and line of the
clause that should keep the promise (`report.locate`). Apart from the times, the same
input gives the same report (no timestamp, no host name)."""

from __future__ import annotations

from collections.abc import Sequence
from xml.etree import ElementTree as ET

from shahrazad.model.amendment import Amendment
from shahrazad.model.rulebook import Rulebook
from shahrazad.proofs.solving.obligations import Result, Status

from .explain import explain
from .locate import Location, citations, locations, rulebook_name, unseen_locations

UNSEEN_CASE = "amendment.unseen"


def verify_junit(results: list[Result], rulebook: Rulebook, amendments: Sequence[Amendment],
                 wall: float = 0.0, unseen: str | None = None) -> str:
    """`<testsuites>` around one `<testsuite>` named after the rulebook and the amendment
    files, with the same totals; the suite's time is the run's wall-clock time, a case's its
    obligation's. `unseen` (the amendments change nothing the model can see) is one more
    error, `amendment.unseen`."""
    name = f"shahrazad verify ({rulebook_name(rulebook, amendments)})"
    failures = sum(r.status == Status.REFUTED for r in results)
    errors = sum(r.status in (Status.UNKNOWN, Status.FAULT) for r in results) + (unseen is not None)
    totals = {"tests": str(len(results) + (unseen is not None)), "failures": str(failures),
              "errors": str(errors), "skipped": "0", "time": f"{wall:.3f}"}
    suites = ET.Element("testsuites", {"name": "shahrazad verify", **totals})
    suite = ET.SubElement(suites, "testsuite", {"name": name, **totals})
    for r in results:
        inv = r.obligation.invariant
        case = ET.SubElement(suite, "testcase", classname=r.obligation.event, name=inv.id,
                             time=f"{r.seconds:.3f}")
        if r.status == Status.PROVED:
            continue
        where = locations(r, rulebook, amendments)
        _point(case, where[0])
        cr = ", ".join(citations(inv.clauses, rulebook, amendments, inv.rules))
        if r.status == Status.REFUTED:
            failure = ET.SubElement(case, "failure", type="refuted",
                                    message=f"refuted at {r.obligation.event} (CR {cr}): "
                                            f"{inv.statement}")
            failure.text = "\n".join([*explain(r), *_where(where)]) + "\n"
        else:
            error = ET.SubElement(case, "error", type=r.status.value,
                                  message=r.reason or f"{r.status.value}, no reason given")
            error.text = "\n".join([f"{r.status.value} at {r.obligation.event} (CR {cr}): "
                                    f"{inv.statement}", *_where(where)]) + "\n"
    if unseen is not None:
        case = ET.SubElement(suite, "testcase", classname="amendment", name=UNSEEN_CASE,
                             time="0.000")
        where = unseen_locations(amendments)
        if where:
            _point(case, where[0])
        error = ET.SubElement(case, "error", type="unseen", message=unseen)
        error.text = "\n".join([unseen, *_where(where)]) + "\n"
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def _point(case: ET.Element, where: Location) -> None:
    """The file and line a CI annotates (the attributes that JUnit readers take)."""
    case.set("file", where.file)
    if where.line is not None:
        case.set("line", str(where.line))


def _where(where: list[Location]) -> list[str]:
    return [f"  at {w.describe()}" for w in where]
