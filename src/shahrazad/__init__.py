"""shahrazad: the Magic: The Gathering rules on subgames (CR 728) and restarting the game
(CR 726), as a model that runs and as proofs.

The package has four layers, each importing only those below it:

* `shahrazad.model`: objects, zones and games in the rules' own words; the rulebook (every
  clause as data) and its concrete interpreter; scenario files; Hypothesis strategies.
* `shahrazad.invariants`: the invariant catalog, written once as terms, with its concrete
  reading; the structure of a legal situation (`invariants.structure`).
* `shahrazad.proofs`: the prover: the z3 encoding of the rulebook's steps, proof
  obligations and their results, counterexamples, amendments.
* `shahrazad.report` and `shahrazad.cli`: the report writers and the command line.
"""

from __future__ import annotations

from importlib import metadata

__all__ = ["__version__"]

try:
    __version__ = metadata.version("shahrazad")
except metadata.PackageNotFoundError:  # pragma: no cover - only when run from a bare tree
    __version__ = "0+unknown"
