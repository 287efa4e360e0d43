"""An obligation's verdict does not depend on its batch (`proofs.verdicts.prove`).

In a run, the obligations of one event are decided one after another against one shared
encoding (`prove_batch`); alone (`--only`), an obligation has an encoding of its own. The
searches for reaching traces and the lemmas' Houdini queries each use fresh solvers, and a
query that gives a model is asked again in encodings of its own (`prove._asked_alone`), so
neither the obligations before an obligation nor their searches and lemmas change its
verdict, its lemmas, its counterexample or its reaching trace. Checked on the end of a
subgame under two past wordings, alone and in a batch in both orders; on every obligation
of today's rules and of five past wordings in both orders; and on the whole command across
`--jobs` and hash seeds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from shahrazad.model.amendment import load_amendment
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.model.scenario import dump_scenario
from shahrazad.proofs.evidence import reach
from shahrazad.proofs.evidence.reach import breaks_invariant, replay_reached
from shahrazad.proofs.solving.obligations import DEFAULT_BOUND, DEFAULT_TIMEOUT, Result, obligations
from shahrazad.proofs.verdicts import lemmas
from shahrazad.proofs.verdicts.prove import prove, prove_batch

HISTORY = Path(__file__).resolve().parent.parent / "examples" / "history"


def _seen(result: Result) -> tuple[object, ...]:
    """What a verdict shows: its status, bound and lemmas, its counterexample and its
    reaching trace (checked to replay)."""
    if result.trace is not None and result.obligation.invariant.kind != "possible":
        assert replay_reached(result.trace, RULEBOOK[0],
                              breaks_invariant(result.obligation.invariant)) is None
    shown = [dump_scenario(s) if s is not None else None
             for s in (result.counterexample, result.trace)]
    return (result.status, result.bound, tuple(result.lemmas), *shown)


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


@pytest.mark.slow
@pytest.mark.parametrize("wording", ["official", "subgames-01", "subgames-05", "subgames-09",
                                     "subgames-18", "restart-01"])
def test_every_verdict_is_the_same_in_either_order(wording: str) -> None:
    """Every obligation, in its event's batch forwards and backwards."""
    rulebook = _rulebook(wording)
    RULEBOOK[:] = [rulebook]
    every = list(obligations())
    assert len(every) > 500
    for event in sorted({ob.event for ob in every}):
        batch = [ob for ob in every if ob.event == event]
        _forget()
        forwards = prove_batch((rulebook, batch, DEFAULT_TIMEOUT, DEFAULT_BOUND, True, None))
        _forget()
        backwards = prove_batch((rulebook, batch[::-1], DEFAULT_TIMEOUT, DEFAULT_BOUND, True,
                                 None))[::-1]
        for one, other in zip(forwards, backwards, strict=True):
            assert _seen(one) == _seen(other), one.obligation.name


@pytest.mark.slow
def test_the_report_is_the_same_across_jobs_and_hash_seeds(tmp_path: Path) -> None:
    """The whole command under subgames wording 1, in one process and in two, with two
    hash seeds: the same verdicts, counterexamples and traces."""
    reports = []
    for jobs, seed in (("1", "0"), ("2", "1")):
        out = tmp_path / f"{jobs}-{seed}.json"
        subprocess.run([sys.executable, "-m", "shahrazad", "verify", "--amendment",
                        str(HISTORY / "subgames-01.toml"), "--jobs", jobs, "--no-cache",
                        "--json", str(out)], check=False, capture_output=True,
                       env={**os.environ, "PYTHONHASHSEED": seed})
        document = json.loads(out.read_text(encoding="utf-8"))
        reports.append([{k: v for k, v in ob.items() if "seconds" not in k}
                        for ob in document["obligations"]])
    assert reports[0] == reports[1]
