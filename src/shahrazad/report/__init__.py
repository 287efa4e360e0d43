"""Report writers: they read the records that the model and the prover return (traces,
`proofs.solving.obligations.Result`) and write them for people and tools. One module per format:
`simulate` (text and JSON of a simulation); for a verification, `text`, `jsondoc`, `junit`,
`sarif` and `markdown`, with `explain` (counterexamples in words, and as files); `catalog`
(the invariant catalog in Markdown). Which outcome decides a run, and its exit code, is
the prover's (`proofs.solving.obligations.worst`, `Status.exit_code`).
"""
