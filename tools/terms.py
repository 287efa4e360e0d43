"""A digest of every z3 term the prover builds for the official rules, to show that a change
to how terms are made (z3's C API instead of its Python API, say) makes the very same terms.

Not a test: run it at two commits and compare the lines.

    .venv/bin/python tools/terms.py

z3's search depends on the terms a context holds, their order and their arguments' order
included (`a == b` and `b == a` are two terms), so a change meant to make terms faster must
make the same ones: then every answer, unit count and model is what it was. It prints one
line, the count of terms and a digest of their printed forms (`sexpr`), over every event in
an unbounded universe and in the bounded ones of the prover (3, the default bound; 8, the
seven-card rules'): every array of every state the transition goes through, its
constraints and hints, the structure hypotheses each behind its switch as the incremental
solver holds them, and each conjunct of each invariant at that event with its negation, in
the order the prover builds them. It reads only what earlier commits have too (the
negation is z3's own `Not`, the same term), so that it runs unchanged at either commit.
"""

from __future__ import annotations

import hashlib

import z3
from shahrazad.invariants.catalog import CATALOG, EVENTS
from shahrazad.model.rulebook import official
from shahrazad.proofs.solving import obligations, queries

BOUNDS = (None, 3, 8)


def main() -> None:
    digest = hashlib.sha1()
    count = 0
    for bound in BOUNDS:
        encodings = queries.Encodings()
        for event in sorted(EVENTS):
            encoded = encodings.get(official(), event, bound)
            t = encoded.transition
            terms = [*(array for _, state in t.states for array in state.arrays.values()),
                     *t.post.arrays.values(), *t.constraints, *encoded.extra,
                     *encoded._guarded]
            for invariant in CATALOG:
                if event in invariant.events:
                    for part in obligations.conjuncts(invariant.term):
                        formula = encodings.encode(encoded, part)
                        terms += [formula, z3.Not(formula)]
            for term in terms:
                digest.update(term.sexpr().encode())
            count += len(terms)
    print(f"{count} terms, sha1 {digest.hexdigest()}")


if __name__ == "__main__":
    main()
