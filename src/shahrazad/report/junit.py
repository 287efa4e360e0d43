"""The JUnit XML report of a verification, for CI: one test case per obligation; refuted
is a failure (with its explanation), fault an error, unknown skipped."""

from __future__ import annotations

from collections import Counter
from xml.etree import ElementTree as ET

from shahrazad.proofs.verify import Result, Status

from .explain import explain


def verify_junit(results: list[Result], rulebook: str, wall: float = 0.0) -> str:
    """The suite's time is the run's wall-clock time; a case's, its obligation's."""
    counts = Counter(r.status for r in results)
    suite = ET.Element("testsuite", name=f"shahrazad verify ({rulebook})", tests=str(len(results)),
                       failures=str(counts[Status.REFUTED]), errors=str(counts[Status.FAULT]),
                       skipped=str(counts[Status.UNKNOWN]),
                       time=f"{wall:.3f}")
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
