"""The prover: the rulebook's steps and the catalog's terms read as z3 constraints, and
what is decided from them. Five rooms, each importing only from the rooms before it (and
from `shahrazad.model` and `shahrazad.invariants`, below them all):

1. `encoding`: the rules as z3 transitions. Symbolic situations and the z3 reading of the
   catalog's terms (`symbolic`), one event's encoding (`encoder`, driven by `encode`) cut
   along the rules' seams like the interpreter: `events`, `actions`, `game_steps`,
   `object_steps`.
2. `solving`: asking the solvers. Proof obligations and their results (`obligations`), one
   event's encoding asked many goals up a ladder of attempts (`queries`), the second
   opinion of cvc5 (`confirm`, `cvc5_backend`), the cache of proofs (`cache`) and the
   worker processes that survive a crash (`pool`).
3. `evidence`: what shows a verdict. Counterexamples read from a model, replayed and
   minimised (`counterexample`), reaching traces from a game's beginning (`reach`), the
   two readings tested against each other (`agreement`, `conformance`) and the plain
   explicit-state search the proofs are measured against (`explicit`).
4. `verdicts`: each obligation decided, proved, refuted or unknown (`prove`), and a run of
   them cut into batches for the workers (`run`).
5. `analyses`: what a rules manager asks of a rulebook. An amendment's semantic diff
   (`semantic`, with `difference`), the rules' past wordings (`history`), clause
   protection (`protection`) and checks on the rules themselves (`rules_check`).

The command line and the report writers sit above this package (`shahrazad.cli`,
`shahrazad.report`) and are never imported by it; amendment files are read by
`shahrazad.model.amendment`, and rule texts linted by `shahrazad.references`.
`tests/test_layers.py` holds every import to this order.
"""
