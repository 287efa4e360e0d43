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

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    """`__version__`, read from the installed package's metadata the first time it is asked
    for: reading it (and importing `importlib.metadata`) took about 30 ms of every process
    that imports the package, a proof worker's start among them."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import metadata

    try:
        version = metadata.version("shahrazad")
    except metadata.PackageNotFoundError:  # pragma: no cover - only when run from a bare tree
        version = "0+unknown"
    globals()["__version__"] = version
    return version
