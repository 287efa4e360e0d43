"""The prover: the rulebook's steps and the catalog's terms read as z3 constraints.

`symbolic` holds symbolic situations and reads catalog terms in z3; `encode` turns each
event's clauses into a transition relation, cut along the rules' seams like the
interpreter: the events' preconditions (`events`), the rulebook's game steps
(`game_steps`), object steps (`object_steps`) and in-game actions (`actions`); `obligations`
holds the proof obligations and their results and hands them to the workers (`pool`), where
`verify` decides them (proved, refuted, unknown); `counterexample`
extracts, replays and minimises witnesses; `agreement` tests the two readings against each
other on the invariants, and `conformance` on every cell of the state, step by step; `amendment`,
`protection`, `rules_check` and `references` check changes to the rules and the rules
themselves; `explicit` is the plain explicit-state search the proofs are measured against.
The command line and the report writers sit above this package (`shahrazad.cli`,
`shahrazad.report`) and are never imported by it.
"""
