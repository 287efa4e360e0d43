"""The ladder of attempts (`proofs.verify.LADDER`, `BOUNDED_LADDER`): which attempt decides a
goal. z3's budgets are counted in its deterministic work, so which attempt answers is the
same on every run; these tests pin the budgets' purpose, never a time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from shahrazad.invariants.catalog import CATALOG, by_id
from shahrazad.model.rulebook import official
from shahrazad.proofs import verify
from shahrazad.proofs.amendment import load_amendment
from shahrazad.proofs.verify import Encodings, Obligation, Status, prove

AMENDMENTS = Path(__file__).resolve().parent.parent / "examples" / "amendments"


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Each query z3 answers, in order: ("incremental" or "fresh", its answer)."""
    answers: list[tuple[str, str]] = []
    check = Encodings.check

    def recorded(self: Encodings, solver: Any, *assumptions: Any) -> str:
        answer = check(self, solver, *assumptions)
        answers.append(("incremental" if assumptions else "fresh", answer))
        return answer

    monkeypatch.setattr(Encodings, "check", recorded)
    return answers


def test_a_counterexample_in_a_bounded_universe_is_the_incremental_solvers(
        asked: list[tuple[str, str]]) -> None:
    """Where an amendment changed the clauses behind an invariant, the bounded search comes
    first, and its model is found by the incremental solver under every hypothesis: a
    budget too small for it (250,000 units; it takes about 450,000) sends the query on to
    fresh solvers, which take about ten times the work."""
    rulebook = load_amendment(AMENDMENTS / "728.5c-forgotten.toml").apply(official())
    result = prove(rulebook, Obligation(by_id("end.commanders-return"), "end-subgame"))
    assert result.status == Status.REFUTED
    assert ("incremental", "sat") in asked
    assert "fresh" not in [how for how, _ in asked[:asked.index(("incremental", "sat"))]]


def test_the_goals_of_bringing_a_card_in_are_proved_by_the_incremental_solver(
        asked: list[tuple[str, str]]) -> None:
    """On the official rules, the goals of bringing a card in (46 obligations) are proved by
    an incremental attempt, all but one (`structure.subgame-decks-marked`, which a fresh
    solver under every hypothesis proves at once): with budgets ten times smaller, eight of
    them are proved by fresh solvers, at many times the cost."""
    todo = [Obligation(inv, "bring-in") for inv in CATALOG
            if "bring-in" in inv.events and inv.kind != "possible"]
    for batch in verify.batches(list(range(len(todo))), ["bring-in"] * len(todo)):
        encodings = Encodings()  # one per batch, as the workers decide them
        for index in batch:
            assert prove(official(), todo[index], encodings=encodings).status == Status.PROVED
    assert len(asked) >= len(todo) // 2  # some goals need no query (a hypothesis, as is)
    assert asked.count(("fresh", "unsat")) <= 1


def test_a_proof_that_needs_only_some_hypotheses_asks_a_fresh_solver_for_those_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`structure.games-have-players` at a restart is beyond the incremental attempts, and a
    fresh solver proves it under the hypotheses of players and games at once (about 40,000
    units), where one under every hypothesis gives up after a million (and takes 40 million
    to prove it): in an unbounded universe the fresh solver under the relevant hypotheses
    comes first."""
    fresh: list[tuple[str, str]] = []
    make, check = verify.Encoded.fresh, Encodings.check

    def made(self: verify.Encoded, chosen: list[int], *args: Any, **kwargs: Any) -> Any:
        solver = make(self, chosen, *args, **kwargs)
        solver.which = "all" if len(chosen) == len(self.hypotheses) else "relevant"
        return solver

    def recorded(self: Encodings, solver: Any, *assumptions: Any) -> str:
        answer = check(self, solver, *assumptions)
        if not assumptions:
            fresh.append((solver.which, answer))
        return answer

    monkeypatch.setattr(verify.Encoded, "fresh", made)
    monkeypatch.setattr(Encodings, "check", recorded)
    result = prove(official(), Obligation(by_id("structure.games-have-players"), "restart"))
    assert result.status == Status.PROVED
    assert fresh == [("relevant", "unsat")]


def test_the_bounded_ladder_asks_no_fresh_solver_under_some_hypotheses() -> None:
    """In a bounded universe a model is what the query mostly looks for, and a model under
    the relevant hypotheses only is no counterexample: there, fresh solvers are asked under
    every hypothesis only, with the whole timeout, and the incremental one with a larger
    budget (`test_a_counterexample_in_a_bounded_universe_...`)."""
    assert [rung[:2] for rung in verify.BOUNDED_LADDER] == [
        ("incremental", "relevant"), ("incremental", "all")]
    assert verify.BOUNDED_LADDER[1][2] > verify.LADDER[1][2]


def test_no_fresh_solver_under_every_hypothesis_comes_before_the_whole_timeouts() -> None:
    """A fresh solver under every hypothesis with less than the whole timeout would search
    much as the whole timeout's does, only for less long: where the whole timeout's comes last, it is
    the only one; the short attempt, which has no such last rung, keeps the ladder's."""
    few, everything = [0], [0, 1]
    for bound in (None, 3):
        full = verify.ladder(bound, few, everything, 5.0, short=False)
        under_all = [a for a in full if a[0] == "fresh" and a[1] is everything]
        assert under_all == [("fresh", everything, 5.0)] and full[-1] is under_all[0]
        assert [a[0] for a in full].count("incremental") == 2
    assert ("fresh", few, verify.LADDER[2][2]) in verify.ladder(None, few, everything, 5.0,
                                                                 short=False)
    short = verify.ladder(None, few, everything, 5.0, short=True)
    assert short[-1] == ("fresh", everything, verify.LADDER[3][2])
    # Under the relevant hypotheses only where they are fewer; never more than the timeout.
    assert verify.ladder(None, everything, everything, 0.01, short=True) == [
        ("incremental", everything, 0.01), ("fresh", everything, 0.01)]


def test_a_refutation_the_bounded_search_finds_costs_no_long_unbounded_attempt(
        asked: list[tuple[str, str]]) -> None:
    """`restart-tokens-survive` breaks `structure.objects-stay-in-their-game`, whose clauses
    it leaves alone: the short unbounded attempt goes up the ladder, without the whole
    timeout's last rung, whose fresh solver under every hypothesis gives up, and the
    bounded search's first fresh solver, with the whole timeout, finds the model. Each fresh
    attempt that gives up is one too many: with the last rung (QUICK's 4 million units), a
    bounded fresh solver under the relevant hypotheses (4 million more) or one under all with
    less than the whole timeout (a million units, searching much as the whole timeout's does),
    two or three give up."""
    rulebook = load_amendment(AMENDMENTS / "restart-tokens-survive.toml").apply(official())
    result = prove(rulebook, Obligation(by_id("structure.objects-stay-in-their-game"),
                                        "restart"))
    assert result.status == Status.REFUTED
    assert asked.count(("fresh", "unknown")) == 1
    assert asked[-1] == ("fresh", "sat")


def test_a_goal_that_is_a_hypothesis_is_proved_without_a_search(
        asked: list[tuple[str, str]]) -> None:
    """Phasing (702.26) changes which permanents are phased out and nothing else: after it,
    the counters of players are, term for term, as the hypotheses say before it, and that
    obligation is proved with no query (369 of the official rules' 844 goals are such);
    the phased-out permanents are not, and are asked."""
    for invariant in ("structure.counters-of-players", "structure.counters-in-live-games"):
        result = prove(official(), Obligation(by_id(invariant), "phase"))
        assert result.status == Status.PROVED
    assert asked == []
    result = prove(official(), Obligation(by_id("structure.phased-out-permanents"), "phase"))
    assert result.status == Status.PROVED
    assert asked and asked[-1][1] == "unsat"
