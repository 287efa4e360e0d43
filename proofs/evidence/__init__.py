"""What shows a verdict: counterexamples read from a solver's model, replayed on the
interpreter and minimised (`counterexample`), reaching traces from a game's beginning
(`reach`, and `search` where its recipe knows no way), the two readings of the rulebook
tested against each other on the invariants (`agreement`) and on every cell of the state
(`conformance`), and the plain explicit-state search the proofs are measured against
(`explicit`).

May import: `shahrazad.model`, `shahrazad.invariants`, `proofs.encoding`, `proofs.solving`.
"""
