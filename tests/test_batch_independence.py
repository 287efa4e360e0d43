"""An obligation's verdict does not depend on its batch (`proofs.verdicts.prove`).

In a run, the obligations of one event are decided one after another against one shared
encoding (`prove_batch`); alone (`--only`), an obligation has an encoding of its own. The
searches for reaching traces and the lemmas' Houdini queries each use fresh solvers, so
neither the obligations before an obligation nor their searches and lemmas change its
verdict or its lemmas. Checked on the end of a subgame under
two past wordings, whose verdicts include refutations reached by search and proofs with
lemmas, and on today's rules. What is not yet independent: z3's model, and so the
counterexample and trace a refutation shows, may differ between a batch and `--only`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shahrazad.model.amendment import load_amendment
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.proofs.evidence import reach
from shahrazad.proofs.solving.obligations import DEFAULT_BOUND, DEFAULT_TIMEOUT, Result, obligations
from shahrazad.proofs.verdicts import lemmas
from shahrazad.proofs.verdicts.prove import prove, prove_batch

HISTORY = Path(__file__).resolve().parent.parent / "examples" / "history"


def _seen(result: Result) -> tuple[object, ...]:
    """What a verdict is: its status, bound and lemmas. (Not its counterexample: z3's model,
    and so the trace shown, may differ with the batch; each is checked to replay.)"""
    if result.trace is not None:
        from shahrazad.proofs.evidence.reach import breaks_invariant, replay_reached

        assert replay_reached(result.trace, RULEBOOK[0],
                              breaks_invariant(result.obligation.invariant)) is None
    return (result.status, result.bound, tuple(result.lemmas))


RULEBOOK: list[Rulebook] = []  # the rulebook of the test running


def _rulebook(name: str) -> Rulebook:
    return official() if name == "official" else \
        load_amendment(HISTORY / f"{name}.toml").apply(official())


def _forget() -> None:
    """The process's memory of searches and Houdini runs (each answer the same as the one
    it stands for) forgotten, so that each run below decides everything itself."""
    reach._FOUND_NOTHING.clear()
    lemmas._DONE.clear()


# Under subgames wording 1, the obligations whose first counterexamples no recipe reaches:
# refuted by search, or proved with lemmas.
WORDING_1 = ("end.commanders-return", "end.vanguards-return", "end.decks-return",
             "end.supplementary-face-down", "end.counters", "structure.counters-of-players")


@pytest.mark.slow
@pytest.mark.parametrize("wording", ["subgames-01", "subgames-09", "official"])
def test_each_verdict_is_the_same_alone_as_in_its_batch(wording: str) -> None:
    rulebook = _rulebook(wording)
    RULEBOOK[:] = [rulebook]
    batch = [ob for ob in obligations() if ob.event == "end-subgame"
             and (wording != "subgames-01" or ob.invariant.id in WORDING_1)]
    _forget()
    together = prove_batch((rulebook, batch, DEFAULT_TIMEOUT, DEFAULT_BOUND, True, None))
    for ob, in_batch in zip(batch, together, strict=True):
        _forget()
        alone = prove(rulebook, ob)
        assert _seen(alone) == _seen(in_batch), ob.name
    # The reversed batch: what came before each obligation is now what came after it.
    _forget()
    backwards = prove_batch((rulebook, batch[::-1], DEFAULT_TIMEOUT, DEFAULT_BOUND, True, None))
    for in_batch, reversed_ in zip(together, backwards[::-1], strict=True):
        assert _seen(in_batch) == _seen(reversed_), in_batch.obligation.name
