"""The JSON document of a verification (schema `shahrazad.verify/1`): the outcome of each
obligation, with its counterexample as scenario data, the witness and the steps that
acted, and the run's exit code."""

from __future__ import annotations

from collections import Counter
from typing import Any

from shahrazad.model.scenario import scenario_data
from shahrazad.proofs.solving.obligations import Result, worst

from .text import cached_count, timing

VERIFY_SCHEMA = "shahrazad.verify/1"


def verify_json(results: list[Result], rulebook: str, amendments: list[str],
                wall: float = 0.0) -> dict[str, Any]:
    """The JSON document of a verification (schema `shahrazad.verify/1`): the rulebook and
    amendments, a count per status, the exit code, the times (`wall`: the run's wall-clock
    seconds) with how many results came from the cache of proofs, and each obligation's
    outcome, marked `cached` when it came from there."""
    return {
        "schema": VERIFY_SCHEMA,
        "rulebook": rulebook,
        "amendments": amendments,
        "summary": dict(Counter(r.status.value for r in results)),
        "exit-code": worst(r.status for r in results).exit_code,
        "time": {**timing(results, wall), "from-cache": cached_count(results)},
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
        "solving-seconds": round(r.solving, 4),
        "encoding-seconds": round(r.encoding, 4),
        "bounded": r.bound,
        "reason": r.reason,
        "cached": r.cached,
    }
    if r.lemmas:
        out["lemmas"] = list(r.lemmas)
    if r.confirmation is not None:
        out["confirmation"] = {"solver": r.confirmation.solver,
                               "answer": r.confirmation.answer,
                               "confirmed": r.confirmation.confirmed,
                               "queries": r.confirmation.queries,
                               "seconds": round(r.confirmation.seconds, 4),
                               "reason": r.confirmation.reason}
    if r.counterexample is not None:
        out["counterexample"] = scenario_data(r.counterexample)
        if r.trace is not None:
            out["trace"] = scenario_data(r.trace)
        if r.replay is not None and r.replay.witness:
            out["witness"] = r.replay.witness
        if r.replay is not None and r.replay.outcome is not None:
            out["steps"] = [s.as_data() for s in r.replay.outcome.trace if s.changes]
    return out
