"""The ladder of attempts (`proofs.queries.LADDER`, `BOUNDED_LADDER`): which attempt decides a
goal. z3's budgets are counted in its deterministic work, so which attempt answers is the
same on every run; these tests pin the budgets' purpose, never a time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import z3
from shahrazad.invariants.catalog import CATALOG, by_id
from shahrazad.model.amendment import load_amendment
from shahrazad.model.rulebook import official
from shahrazad.proofs.encoding.symbolic import Universe, budget, solver_for, work_done
from shahrazad.proofs.solving import obligations, queries
from shahrazad.proofs.solving.obligations import Obligation, Status
from shahrazad.proofs.solving.queries import Encodings
from shahrazad.proofs.verdicts import prove as prove_module
from shahrazad.proofs.verdicts import run
from shahrazad.proofs.verdicts.prove import prove

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


def test_a_counterexample_in_a_bounded_universe_is_found_by_one_fresh_solver(
        asked: list[tuple[str, str]]) -> None:
    """Where an amendment changed the clauses behind an invariant, the bounded search comes
    first, and its one attempt, a fresh solver with a finite universe's tactics
    (`symbolic.solver_for`), finds the model: no incremental attempt before it. The same
    query is then asked once more in encodings of its own, so that the model does not
    depend on the batch (`prove._asked_alone`)."""
    rulebook = load_amendment(AMENDMENTS / "728.5c-forgotten.toml").apply(official())
    result = prove(rulebook, Obligation(by_id("end.commanders-return"), "end-subgame"))
    assert result.status == Status.REFUTED
    assert asked == [("fresh", "sat"), ("fresh", "sat")]


def test_a_finite_universes_solver_finds_a_model_with_a_fraction_of_the_work() -> None:
    """The tactics of `symbolic.solver_for` (simplifying, propagating values, solving
    equations, eliminating unconstrained terms) before z3's SMT core: the model breaking
    `restart.owners` under `2011-713.2-controller-takes-ownership`, in a universe of 3, takes
    them a tenth of the work z3's default solver does (0.4 against 5.5 million units);
    an unbounded universe keeps the default solver."""
    rulebook = load_amendment(AMENDMENTS / "2011-713.2-controller-takes-ownership.toml"
                              ).apply(official())
    invariant = by_id("restart.owners")
    work = {}
    for kind in ("finite", "default"):
        encodings = Encodings()  # a fresh context for each, as alike as can be
        encoded = encodings.get(rulebook, "restart", 3)
        goal = z3.Not(encodings.encode(encoded, invariant.term))
        solver = (solver_for(encoded.universe) if kind == "finite"
                  else z3.Solver(ctx=encoded.universe.ctx))
        budget(solver, 5.0)
        solver.add(*(formula for _, _, formula in encoded.hypotheses), *encoded.extra, goal)
        before = work_done(encoded.universe.ctx)
        assert solver.check() == z3.sat
        work[kind] = work_done(encoded.universe.ctx) - before
    assert work["finite"] * 4 < work["default"]
    assert type(solver_for(Universe())) is z3.Solver


def test_a_query_that_counts_cards_is_proved_with_less_work_by_the_counting_tactics() -> None:
    """`symbolic.COUNTING_TACTICS` (the sums of 0 or 1 that count a library rewritten into
    cardinality constraints, then simplified) for an invariant that counts cards: the
    official rules' `restart.short-library-loses`, in its universe of 8 under the relevant
    hypotheses, is proved with well under two thirds of the work the finite universe's
    tactics take (0.73 against 1.88 million units)."""
    ob = Obligation(by_id("restart.short-library-loses"), "restart")
    work = {}
    for counts in (True, False):
        encodings = Encodings()
        encoded = encodings.get(official(), "restart", prove_module.rules_bound(official(), ob))
        part = obligations.conjuncts(ob.invariant.term)[0]
        solver = encoded.fresh(encoded.relevant(part),
                               z3.Not(encodings.encode(encoded, part)), 5.0, counts=counts)
        before = work_done(encoded.universe.ctx)
        assert solver.check() == z3.unsat
        work[counts] = work_done(encoded.universe.ctx) - before
    assert work[True] * 3 < work[False] * 2


def test_only_an_invariant_that_counts_cards_gets_the_counting_tactics(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each fresh solver of a counting invariant's proof asks for the counting tactics, and
    each of another invariant's (here a refutation in a bounded universe) for the finite
    universe's: the tactics for counting change the models z3 finds elsewhere."""
    asked: list[tuple[int | None, bool]] = []
    made = queries.solver_for

    def recorded(universe: Universe, counts: bool = False) -> Any:
        asked.append((universe.bound, counts))
        return made(universe, counts)

    monkeypatch.setattr(queries, "solver_for", recorded)
    counting = prove(official(), Obligation(by_id("restart.short-library-loses"), "restart"))
    assert counting.status == Status.PROVED
    assert asked and all(counts for _, counts in asked)
    asked.clear()
    rulebook = load_amendment(AMENDMENTS / "728.5c-forgotten.toml").apply(official())
    other = prove(rulebook, Obligation(by_id("end.commanders-return"), "end-subgame"))
    assert other.status == Status.REFUTED
    assert any(bound is not None for bound, _ in asked)
    assert not any(counts for _, counts in asked)


def test_the_goals_of_bringing_a_card_in_are_proved_by_the_incremental_solver(
        asked: list[tuple[str, str]]) -> None:
    """On the official rules, the goals of bringing a card in (46 obligations) are proved by
    an incremental attempt, all but one (`structure.subgame-decks-marked`, which a fresh
    solver under every hypothesis proves at once): with budgets ten times smaller, eight of
    them are proved by fresh solvers, at many times the cost."""
    todo = [Obligation(inv, "bring-in") for inv in CATALOG
            if "bring-in" in inv.events and inv.kind != "possible"]
    for batch in run.batches(list(range(len(todo))), ["bring-in"] * len(todo)):
        encodings = Encodings()  # one per batch, as the workers decide them
        for index in batch:
            assert prove(official(), todo[index], encodings=encodings).status == Status.PROVED
    assert len(asked) >= len(todo) // 2  # some goals need no query (a hypothesis, as is)
    assert asked.count(("fresh", "unsat")) <= 1


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Each query a fresh solver answers, in order: ("relevant" or "all", its answer)."""
    answers: list[tuple[str, str]] = []
    make, check = queries.Encoded.fresh, Encodings.check

    def made(self: queries.Encoded, chosen: list[int], *args: Any, **kwargs: Any) -> Any:
        solver = make(self, chosen, *args, **kwargs)
        solver.which = "all" if len(chosen) == len(self.hypotheses) else "relevant"
        return solver

    def recorded(self: Encodings, solver: Any, *assumptions: Any) -> str:
        answer = check(self, solver, *assumptions)
        if not assumptions:
            answers.append((solver.which, answer))
        return answer

    monkeypatch.setattr(queries.Encoded, "fresh", made)
    monkeypatch.setattr(Encodings, "check", recorded)
    return answers


def test_a_proof_that_needs_only_some_hypotheses_asks_a_fresh_solver_for_those_first(
        fresh: list[tuple[str, str]]) -> None:
    """`structure.games-have-players` at a restart is beyond the incremental attempts, and a
    fresh solver proves it under the hypotheses of players and games at once (about 40,000
    units), where one under every hypothesis gives up after a million (and takes 40 million
    to prove it): in an unbounded universe the fresh solver under the relevant hypotheses
    comes first."""
    result = prove(official(), Obligation(by_id("structure.games-have-players"), "restart"))
    assert result.status == Status.PROVED
    assert fresh == [("relevant", "unsat")]


def test_an_invariant_that_counts_cards_is_proved_under_the_relevant_hypotheses_first(
        fresh: list[tuple[str, str]]) -> None:
    """An invariant that counts cards is decided in a bounded universe, where its query is
    its proof: a fresh solver under the relevant hypotheses proves the official rules'
    `restart.short-library-loses` in a universe of 8 (1.9 million units, against 2.8
    million under every hypothesis), before any under all."""
    result = prove(official(), Obligation(by_id("restart.short-library-loses"), "restart"))
    assert result.status == Status.PROVED and result.bound == 8
    assert fresh == [("relevant", "unsat")]
    assert queries.ladder(8, [0], [0, 1], 5.0, short=False, counts=True) == [
        ("fresh", [0], queries.COUNTING_RELEVANT), ("fresh", [0, 1], 5.0)]


def test_the_bounded_ladder_is_one_fresh_solver_under_every_hypothesis() -> None:
    """In a bounded universe a model is what the query mostly looks for, and a model under
    the relevant hypotheses only is no counterexample: there the one attempt is a fresh
    solver under every hypothesis with the whole timeout, no incremental one
    (`test_a_counterexample_in_a_bounded_universe_...`)."""
    assert queries.BOUNDED_LADDER == ()
    few, everything = [0], [0, 1]
    assert queries.ladder(3, few, everything, 5.0, short=False) == [("fresh", everything, 5.0)]


def test_no_fresh_solver_under_every_hypothesis_comes_before_the_whole_timeouts() -> None:
    """A fresh solver under every hypothesis with less than the whole timeout would search
    much as the whole timeout's does, only for less long: where the whole timeout's comes last, it is
    the only one; the short attempt, which has no such last rung, keeps the ladder's."""
    few, everything = [0], [0, 1]
    full = queries.ladder(None, few, everything, 5.0, short=False)
    under_all = [a for a in full if a[0] == "fresh" and a[1] is everything]
    assert under_all == [("fresh", everything, 5.0)] and full[-1] is under_all[0]
    assert [a[0] for a in full].count("incremental") == 2
    assert ("fresh", few, queries.LADDER[2][2]) in full
    short = queries.ladder(None, few, everything, 5.0, short=True)
    assert short[-1] == ("fresh", everything, queries.LADDER[3][2])
    # Under the relevant hypotheses only where they are fewer; never more than the timeout.
    assert queries.ladder(None, everything, everything, 0.01, short=True) == [
        ("incremental", everything, 0.01), ("fresh", everything, 0.01)]


def test_a_refutation_the_bounded_search_finds_costs_no_long_unbounded_attempt(
        fresh: list[tuple[str, str]]) -> None:
    """`restart-tokens-survive` breaks `structure.objects-stay-in-their-game`, whose clauses
    it leaves alone: the short unbounded attempt goes up the ladder until a fresh solver
    under the relevant hypotheses finds a model, and ends there (`SAT_UNDER_RELEVANT`); the
    bounded search's first fresh solver, with the whole timeout, finds the counterexample.
    Each fresh attempt that gives up is one too many: with the short attempt's last rung (a
    fresh solver under every hypothesis, which gave up after half a million units), the
    whole timeout's (QUICK's 4 million units), a bounded fresh solver under the relevant
    hypotheses (4 million more) or one under all with less than the whole timeout (a million
    units, searching much as the whole timeout's does), one to three give up. The bounded
    query is asked once more, alone (`prove._asked_alone`)."""
    rulebook = load_amendment(AMENDMENTS / "restart-tokens-survive.toml").apply(official())
    result = prove(rulebook, Obligation(by_id("structure.objects-stay-in-their-game"),
                                        "restart"))
    assert result.status == Status.REFUTED
    assert fresh == [("relevant", "sat"), ("all", "sat"), ("all", "sat")]


def test_a_model_under_the_relevant_hypotheses_ends_the_short_attempt_unknown() -> None:
    """A short unbounded attempt whose fresh solver finds a model under the relevant
    hypotheses only is undecided, with that reason, never a violation (the other hypotheses
    may exclude the model); the whole ladder, with the whole timeout, still goes on to the
    fresh solver under every hypothesis."""
    rulebook = load_amendment(AMENDMENTS / "restart-tokens-survive.toml").apply(official())
    ob = Obligation(by_id("structure.objects-stay-in-their-game"), "restart")
    answer, *_, why = queries.solve(rulebook, ob, None, prove_module.QUICK, short=True)
    assert (answer, why) == ("unknown", queries.SAT_UNDER_RELEVANT)
    answer, *_, why = queries.solve(rulebook, ob, None, prove_module.QUICK, short=False)
    assert answer == "unknown" and why != queries.SAT_UNDER_RELEVANT


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
