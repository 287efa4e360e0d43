"""The SARIF 2.1.0 report of a verification, for code-scanning tools (GitHub code scanning
and others): one rule per invariant, with its clauses, their CR numbers, its events and a
link to the catalog; one result per obligation not proved (refuted and fault are errors,
unknown a warning), located at the clause that should keep the promise, at its line in the
rulebook or in the amendment that changed it (`report.locate`).

Written as plain data: sarif-om would need three more packages to serialise, and the tests
validate the output against OASIS's schema instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shahrazad.invariants.catalog import Invariant
from shahrazad.model.amendment import Amendment
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.proofs.solving.obligations import Result, Status, worst

from .locate import (
    Location,
    citations,
    fingerprint,
    identity,
    locations,
    rulebook_file,
    rulebook_name,
    shown,
    unseen_locations,
    uri,
)

SARIF_SCHEMA = ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                "sarif-schema-2.1.0.json")
PROJECT_URI = "https://github.com/shahrazad/shahrazad"
DOCS_URI = f"{PROJECT_URI}/blob/main/docs/"  # every helpUri starts here
# The heading of docs/invariants.md under which each kind of invariant is listed.
CATALOG_ANCHORS = {"structure": "structure", "event": "events", "possible": "possibility"}
UNSEEN_RULE = "amendment.unseen"
UNSEEN_HELP = "amendments.md#the-semantic-diff-what-behaves-differently"
FINGERPRINT = "shahrazadObligation/v1"  # the key of `partialFingerprints`
LEVELS = {Status.REFUTED: "error", Status.FAULT: "error", Status.UNKNOWN: "warning"}
_SEMVER = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")


def verify_sarif(results: list[Result], rulebook: Rulebook, amendments: Sequence[Amendment],
                 wall: float = 0.0, unseen: str | None = None) -> str:
    """The SARIF log of one run. `rulebook` is the rulebook the proofs ran on (amended);
    `unseen`, when given, is the line that says the amendments change nothing the model
    can see: one more warning, at the first line of each amendment file. The run's
    invocation carries its wall-clock time (`properties.wall-seconds`); apart from it, the
    same input gives the same log."""
    from shahrazad import __version__

    artifacts = _Artifacts()
    for file in [rulebook_file(rulebook), *(a.file for a in amendments)]:
        if file is not None:
            artifacts.index(shown(file))
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for r in results:
        inv = r.obligation.invariant
        if inv.id not in index:
            index[inv.id] = len(rules)
            rules.append(_rule(inv, rulebook, amendments))
    names = identity(rulebook, amendments)
    findings = []
    for r in results:
        if r.status == Status.PROVED:
            if r.lemmas:
                findings.append(_proof(r, index, rulebook, amendments, artifacts, names))
            continue
        inv = r.obligation.invariant
        cr = citations(inv.clauses, rulebook, amendments, inv.rules)
        text = (f"{inv.id} {r.status.value} at {r.obligation.event} (CR {', '.join(cr)}): "
                f"{inv.statement}" + (f" {r.status.value.capitalize()}: {r.reason.rstrip('.')}."
                                      if r.reason else ""))
        findings.append(_result(inv.id, index[inv.id], LEVELS[r.status], text,
                                locations(r, rulebook, amendments), artifacts,
                                fingerprint([inv.id, r.obligation.event, *names]),
                                {"event": r.obligation.event, "status": r.status.value,
                                 "cr": cr}))
    if unseen is not None:
        index[UNSEEN_RULE] = len(rules)
        rules.append({
            "id": UNSEEN_RULE, "name": "AmendmentUnseen",
            "shortDescription": {"text": "The amendment changes nothing the model can see."},
            "fullDescription": {"text": "Every situation ends the same under the official "
                                "and the amended rules, for every number of cards, players "
                                "and games: the proofs are no verdict on the amendment."},
            "helpUri": DOCS_URI + UNSEEN_HELP,
            "defaultConfiguration": {"level": "warning"},
            "properties": {"tags": ["amendment"]},
        })
        findings.append(_result(UNSEEN_RULE, index[UNSEEN_RULE], "warning", unseen,
                                unseen_locations(amendments), artifacts,
                                fingerprint([UNSEEN_RULE, "", *names]), {"status": "unseen"}))
    driver: dict[str, Any] = {"name": "shahrazad", "version": __version__}
    if _SEMVER.match(__version__):
        driver["semanticVersion"] = __version__
    driver |= {"informationUri": PROJECT_URI, "rules": rules}
    exit_code = worst(r.status for r in results).exit_code or (3 if unseen is not None else 0)
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "invocations": [{
                # A fault is a bug of this tool: the run did not do what it should.
                "executionSuccessful": not any(r.status == Status.FAULT for r in results),
                "exitCode": exit_code,
                "properties": {"wall-seconds": round(wall, 3)},
            }],
            "artifacts": artifacts.listed,
            **({"originalUriBaseIds": bases} if (bases := artifacts.bases()) else {}),
            "results": findings,
            "properties": {"rulebook": rulebook_name(rulebook, amendments),
                           "obligations": len(results),
                           "summary": {s.value: n for s in Status
                                       if (n := sum(r.status == s for r in results))}},
        }],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _rule(inv: Invariant, rulebook: Rulebook, amendments: Sequence[Amendment]) -> dict[str, Any]:
    """The metadata of an invariant as a SARIF rule (`reportingDescriptor`)."""
    cr = citations(inv.clauses, rulebook, amendments, inv.rules)
    bounded = (" It counts cards: it is proved up to a bound, never below the rules' own "
               "numbers." if inv.bounded else "")
    tags = ["shahrazad", inv.kind, *(["bounded"] if inv.bounded else []),
            *sorted({f"CR {number.split('.')[0]}" for number in cr if number != "?"})]
    return {
        "id": inv.id,
        "name": "".join(part.capitalize() for part in re.split(r"[.-]", inv.id)),
        "shortDescription": {"text": inv.statement},
        "fullDescription": {"text": f"{inv.statement} Kept by {', '.join(inv.clauses)} "
                                    f"(CR {', '.join(cr)}); checked at "
                                    f"{', '.join(inv.events)}.{bounded}"},
        "helpUri": DOCS_URI + "invariants.md#" + CATALOG_ANCHORS.get(inv.kind, ""),
        "help": {"text": f"{inv.statement}\n\nFormula: {inv.term}"},
        "defaultConfiguration": {"level": "error"},
        "properties": {"clauses": list(inv.clauses), "cr": cr, "events": list(inv.events),
                       "kind": inv.kind, "bounded": inv.bounded, "tags": tags},
    }


# The official rulebook lives in the installed package, wherever that is: it is named
# relative to this base, so that a log does not depend on where the package is installed.
RULEBOOK_BASE = "SHAHRAZAD_RULEBOOK"
RULEBOOK_BASE_TEXT = ("The folder of the official rulebook, rulebook.toml, in the installed "
                      "shahrazad package (shahrazad/model/; model/ in its repository).")


def _artifact(file: str) -> dict[str, str]:
    """The artifact location of `file`: relative to the official rulebook's base for the
    packaged rulebook, else `uri(file)`."""
    packaged = rulebook_file(official())
    if packaged is not None and Path(file).resolve() == Path(packaged).resolve():
        return {"uri": Path(packaged).name, "uriBaseId": RULEBOOK_BASE}
    return {"uri": uri(file)}


class _Artifacts:
    """The files the log names, each listed once (`run.artifacts`), in order of first use."""

    def __init__(self) -> None:
        self.listed: list[dict[str, Any]] = []
        self._at: dict[str, int] = {}

    def index(self, file: str) -> int:
        if file not in self._at:
            self._at[file] = len(self.listed)
            self.listed.append({"location": _artifact(file), "roles": ["analysisTarget"]})
        return self._at[file]

    def bases(self) -> dict[str, Any]:
        """`run.originalUriBaseIds` for the bases the listed files use."""
        used = any(a["location"].get("uriBaseId") == RULEBOOK_BASE for a in self.listed)
        return {RULEBOOK_BASE: {"description": {"text": RULEBOOK_BASE_TEXT}}} if used else {}


def _location(where: Location, artifacts: _Artifacts) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {**_artifact(where.file),
                                                     "index": artifacts.index(where.file)}}
    if where.line is not None:
        physical["region"] = {"startLine": where.line}
    out: dict[str, Any] = {"physicalLocation": physical}
    if where.clause:
        out["logicalLocations"] = [{"name": where.clause, "kind": "clause"}]
        out["message"] = {"text": f"clause {where.clause}"
                                  + (f", {where.change} by this amendment" if where.change
                                     else "")}
    return out


def _proof(r: Result, index: dict[str, int], rulebook: Rulebook,
           amendments: Sequence[Amendment], artifacts: _Artifacts, names: list[str],
           ) -> dict[str, Any]:
    """A proof that rests on lemmas, as a result of kind "pass" (no finding, SARIF 3.27.9):
    the lemmas, each itself an invariant, are part of the proof and shown with it."""
    inv = r.obligation.invariant
    cr = citations(inv.clauses, rulebook, amendments, inv.rules)
    text = (f"{inv.id} proved at {r.obligation.event} (CR {', '.join(cr)}): {inv.statement} "
            f"{r.reason.rstrip('.')}: " + "; ".join(r.lemmas) + ".")
    out = _result(inv.id, index[inv.id], "none", text, locations(r, rulebook, amendments),
                  artifacts, fingerprint([inv.id, r.obligation.event, *names]),
                  {"event": r.obligation.event, "status": r.status.value, "cr": cr,
                   "lemmas": list(r.lemmas)})
    return {"kind": "pass", **out}


def _result(rule: str, index: int, level: str, text: str, where: list[Location],
            artifacts: _Artifacts, hashed: str, properties: dict[str, Any]) -> dict[str, Any]:
    """One SARIF result: its first location is where it is shown; the others (more clauses
    that should keep the promise) are related locations."""
    out: dict[str, Any] = {
        "ruleId": rule, "ruleIndex": index, "level": level, "message": {"text": text},
        "locations": [_location(where[0], artifacts)] if where else [],
    }
    related = []
    for number, other in enumerate(where[1:], start=1):
        location = _location(other, artifacts)
        location["id"] = number
        related.append(location)
    if related:
        out["relatedLocations"] = related
    out["partialFingerprints"] = {FINGERPRINT: hashed}
    out["properties"] = properties
    return out
