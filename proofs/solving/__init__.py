"""Asking the solvers: proof obligations and their results (`obligations`, without z3, for
the command's own process), one event's encoding asked many goals up a ladder of attempts
(`queries`), the second opinion (`confirm`, `cvc5_backend`), the cache of proofs (`cache`)
and the worker processes that survive a crash (`pool`).

May import: `shahrazad.model`, `shahrazad.invariants`, `proofs.encoding`. What a solver's
model means is `proofs.evidence`'s; the verdict is `proofs.verdicts`'.
"""
