"""Each proof obligation decided: proved (for every size), refuted (with a counterexample
replayed and reached) or unknown (with the solver's reason), by the solvers' answers and
the evidence (`prove`), with lemmas where plain induction fails (`lemmas`); and a run of
obligations cut into batches, handed to worker processes and gathered (`run`, which never
imports z3 in the command's own process).

May import: `shahrazad.model`, `shahrazad.invariants`, `proofs.encoding`, `proofs.solving`,
`proofs.evidence`.
"""
