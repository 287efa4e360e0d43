"""Report writers: they read the records that the model and the prover return (traces,
`proofs.verify.Result`) and write them for people and tools. One module per report:
`simulate` (text and JSON of a simulation), `verify` (text, JSON, JUnit, SARIF, Markdown
of a verification, and counterexample explanations).
"""
