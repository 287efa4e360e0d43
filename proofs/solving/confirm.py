"""A second opinion: z3's answers decided again by cvc5 (`shahrazad verify --confirm cvc5`).

z3 proves an obligation by finding each of its queries unsatisfiable: the structure
hypotheses, the event's constraints, the invariant broken afterwards. The prover keeps, for
each query, the hypotheses that z3's unsat core names (`verify.Evidence`); cvc5 is given the
same query, re-read term by term (`proofs.solving.cvc5_backend`), with those hypotheses. Fewer
hypotheses make a stronger claim, so cvc5's "unsat" confirms z3's proof as it stands.

* cvc5 says what z3 said, for every query: **confirmed**.
* cvc5 gives up, or cannot be given the query: **unconfirmed**; with `--confirm`, the
  obligation is then unknown, never proved.
* cvc5 says the opposite: a **disagreement**, a fault of one of the two solvers or of the
  translation, shown with both answers.

A possibility (`kind = "possible"`) is proved by a witness that the interpreter replays;
cvc5 is asked whether the same query is satisfiable, and "unsat" is a disagreement.
"""

from __future__ import annotations

import time

from .obligations import Confirmation, Result, Status
from .queries import Evidence

SOLVERS = ("cvc5",)  # the second solvers `--confirm` knows


def confirm(result: Result, evidence: list[Evidence], seconds: float,
            solver: str = "cvc5") -> Result:
    """`result` (a proof by z3) with the second solver's decision of `evidence`, each query
    with a budget worth `seconds`: still proved when confirmed, unknown when unconfirmed, a
    fault when the solvers disagree."""
    if solver not in SOLVERS:
        raise ValueError(f"no second solver named {solver!r}")
    from shahrazad.proofs.solving import cvc5_backend

    start = time.perf_counter()
    answer, reason = "", ""
    for number, ev in enumerate(evidence, start=1):
        if ev.encoded.second is None:
            ev.encoded.second = cvc5_backend.Translator()
        query = [*(ev.encoded.hypotheses[i][2] for i in ev.hypotheses), *ev.encoded.extra,
                 ev.goal]
        answer, why = cvc5_backend.check(ev.encoded.second, query, seconds)
        where = f"query {number} of {len(evidence)}" if len(evidence) > 1 else "the query"
        if answer == "unknown":
            reason = f"{where}: {why}"
            break
        if answer != ev.expect:
            reason = f"z3 answered {ev.expect} and cvc5 answered {answer} ({where})"
            break
    if not evidence:
        answer, reason = "unknown", "z3 kept no query to confirm"
    result.confirmation = Confirmation(solver, answer, time.perf_counter() - start,
                                       len(evidence), reason)
    result.seconds += result.confirmation.seconds
    if result.confirmation.confirmed:
        return result
    if answer == "unknown":
        result.status = Status.UNKNOWN
        result.reason = f"z3 proved it; {solver} could not confirm it: {reason}"
    else:
        result.status = Status.FAULT
        result.reason = f"the solvers disagree: {reason}"
    return result
