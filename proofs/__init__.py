"""Verification and reporting: the command-line interface, reports, and (next) the z3 proofs.

This issue's part is the CLI (`cli`) and the text and JSON reports (`report`) of the
reference model. The SMT encoding of the rulebook's steps, proof obligations, counterexample
extraction and amendment checking belong here too and are not written yet.
"""
