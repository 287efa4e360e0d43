"""Bounded proofs see the rules' own numbers. The invariants that count cards in a library
(728.3, 726.3: fewer than seven) are decided in finite universes; the bound is never below
one more than the largest number the invariant or the event's clauses use, so that a
threshold of 4 or 8 in place of 7 is refuted, whatever `--bound` says."""

from __future__ import annotations

from pathlib import Path

import pytest
from shahrazad.invariants.catalog import by_id
from shahrazad.model.amendment import load_amendment
from shahrazad.model.rulebook import official
from shahrazad.proofs.solving.obligations import Obligation, Status
from shahrazad.proofs.verdicts.prove import prove, rules_bound

REGRESSIONS = Path(__file__).resolve().parent / "regressions"
SHORT = Obligation(by_id("start.short-library-loses"), "start-subgame")


def test_the_rules_bound_is_one_more_than_seven() -> None:
    assert rules_bound(official(), SHORT) == 8
    assert rules_bound(official(), Obligation(by_id("restart.short-library-loses"), "restart")) == 8


def test_official_proof_is_up_to_the_rules_bound_even_when_asked_for_less() -> None:
    result = prove(official(), SHORT, timeout=30, bound=1)
    assert result.status is Status.PROVED and result.bound == 8


@pytest.mark.slow  # moved behind slow to keep the quick suite quick (issue 9)
def test_a_threshold_of_four_is_refuted() -> None:
    rulebook = load_amendment(REGRESSIONS / "short-library-at-four.amendment.toml").apply(official())
    assert prove(rulebook, SHORT, timeout=30, bound=1).status is Status.REFUTED


@pytest.mark.slow
def test_a_threshold_of_eight_is_refuted() -> None:
    rulebook = load_amendment(REGRESSIONS / "short-library-at-eight.amendment.toml").apply(official())
    assert rules_bound(rulebook, SHORT) == 9
    assert prove(rulebook, SHORT, timeout=60, bound=1).status is Status.REFUTED
