"""What a rules manager asks of a rulebook: an amendment's semantic diff, event by event
(`semantic`, with `difference`: does a change alter what happens), the rules' past wordings
checked (`history`), what would notice a changed clause (`protection`), and checks on the
rules themselves: permissions, dead clauses, gaps and conflicts (`rules_check`).

May import every room before it: `proofs.encoding`, `proofs.solving`, `proofs.evidence`,
`proofs.verdicts` (and `shahrazad.model`, `shahrazad.invariants`).
"""
