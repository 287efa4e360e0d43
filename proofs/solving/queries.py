"""Asking the solvers: one event's encoding asked many goals, up a ladder of attempts.

`Encodings` encodes each (rulebook, event, bound) once; `Encoded` holds its structure
hypotheses, each behind a switch, in an incremental solver; `solve` asks the goals of one
obligation, conjunct by conjunct, up the `ladder` (incremental, then fresh solvers), and
answers unsat (a proof), sat (with the solver holding the model) or unknown (with z3's
reason). `Evidence` keeps the queries behind an answer for a second solver (`confirm`).
What a model means (a counterexample, replayed and reached) is `proofs.evidence`'s, and
the verdict `proofs.verdicts`'.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import z3
from shahrazad.invariants.catalog import structure_terms
from shahrazad.invariants.lang import ATTRIBUTES, Term, pre
from shahrazad.model.rulebook import Rulebook
from shahrazad.proofs.encoding.encode import encode_event
from shahrazad.proofs.encoding.encoder import Transition, pre_state
from shahrazad.proofs.encoding.symbolic import (
    Simplified,
    SymBinding,
    SymState,
    TermEncoder,
    Universe,
    add,
    budget,
    check,
    implication,
    negation,
    solver_for,
)

from .obligations import (
    Obligation,
    attributes,
    conjuncts,
)

BASIC = frozenset({"exists", "zone", "game", "kind", "waiting", "live", "present", "active",
                   "suspended"})


# How many obligations one incremental solver is asked before a new one takes its place
# (`Encoded.ask`). A goal stays in the solver once decided (behind its literal, as the
# hypotheses are), and every later query pays for it: with one solver for 32 obligations,
# the official rules took z3 38 million units, with a new one every 8, 33 million (and 4:
# about the same). Popping each goal instead was faster still, but z3 crashed (a segfault,
# the same query every time) when the goals of one obligation shared a scope: without
# push and pop the solver never meets that path (issue 9).
OBLIGATIONS_PER_SOLVER = 8


@dataclass
class Encoded:
    """One event's transition under one rulebook in one universe, with the structure
    hypotheses and the event's constraints, each encoded once and asked many goals.

    `incremental` holds them all, each hypothesis behind a literal of `switches`, so that a
    goal is asked under all the hypotheses or only some, without building anything again;
    a new one takes its place every OBLIGATIONS_PER_SOLVER obligations (`ask`). A bounded
    universe has none: there every goal goes to a fresh solver (BOUNDED_LADDER)."""

    universe: Universe
    transition: Transition
    encoder: TermEncoder
    hypotheses: list[tuple[Term, frozenset[str], Any]]  # conjunct, its attributes, its z3 formula
    extra: list[Any]  # the event's constraints and the hints
    switches: list[Any]  # one Boolean per hypothesis: assumed, it holds
    incremental: z3.Solver | None = field(init=False, default=None)
    obligations: int = 0  # the obligations `incremental` has been asked (each `solve` counts)
    goals: int = 0  # the goals asked of this encoding, for their literals' names
    second: Any = None  # this encoding re-read by a second solver (`proofs.solving.confirm`)

    def __post_init__(self) -> None:
        # Each hypothesis behind its switch, made once: every new incremental solver holds
        # the same terms (z3 makes each term once per context, so nothing changes but the
        # Python work of making them again, 62 implications at each `renew`).
        self._guarded = [implication(switch, formula) for switch, (_, _, formula)
                         in zip(self.switches, self.hypotheses, strict=True)]
        if self.universe.bound is None:
            self.renew()
        self._hypothesis = {formula.get_id(): i
                            for i, (_, _, formula) in enumerate(self.hypotheses)}

    def hypothesis_of(self, formula: Any) -> int | None:
        """The hypothesis (by index) that is `formula` itself, the same z3 term (z3 makes
        each term once per context), if one is."""
        return self._hypothesis.get(formula.get_id())

    def renew(self) -> None:
        """A new incremental solver holding the hypotheses, each behind its switch, and the
        event's constraints; asked no obligation yet."""
        self.incremental = z3.Solver(ctx=self.universe.ctx)
        add(self.incremental, *self._guarded, *self.extra)
        self.obligations = 0

    def relevant(self, goal: Term) -> list[int]:
        """The hypotheses (by index) that speak only of what the goal speaks of, and of the
        basic facts of places and games: assuming fewer facts, a proof still holds, and the
        solver, spared the rest, usually finds it at once."""
        wanted = attributes(goal) | BASIC
        return [i for i, (_, names, _) in enumerate(self.hypotheses) if names <= wanted]

    def fresh(self, chosen: list[int], goal: Any, seconds: float, seed: int = 0,
              counts: bool = False) -> z3.Solver:
        """A fresh solver holding the `chosen` hypotheses, the event's constraints and
        `goal`, with a budget worth `seconds` (z3 simplifies such a query as a whole before
        searching, which the incremental solver does not; in a finite universe with the
        tactics of `symbolic.solver_for`, those for counting where the query `counts` cards)."""
        solver = solver_for(self.universe, counts)
        budget(solver, seconds)
        solver.set("random_seed", seed)
        add(solver, *(self.hypotheses[i][2] for i in chosen), *self.extra, goal)
        return solver

    def ask(self, goal: Any, first: bool) -> Any:
        """A fresh literal that, assumed, asserts `goal` in the incremental solver. The
        `first` goal of an obligation counts it, and goes to a new solver once the solver
        has been asked OBLIGATIONS_PER_SOLVER obligations."""
        if first:
            if self.obligations == OBLIGATIONS_PER_SOLVER:
                self.renew()
            self.obligations += 1
        self.goals += 1
        literal = z3.Bool(f"goal!{self.goals}", self.universe.ctx)
        add(self.solver(), implication(literal, goal))
        return literal

    def solver(self) -> z3.Solver:
        """The incremental solver (an unbounded universe's only)."""
        assert self.incremental is not None, "a bounded universe has no incremental solver"
        return self.incremental


@dataclass
class Evidence:
    """One query that z3 decided in the last answer, kept for a second solver: the
    hypotheses it rested on (z3's unsat core where it gave one), the event's constraints and
    the goal."""

    encoded: Encoded
    hypotheses: list[int]  # by index into `encoded.hypotheses`
    goal: Any              # z3 formula
    expect: str            # z3's answer: "unsat" (a proof) or "sat" (a possibility)


class Encodings:
    """Each (rulebook, event, bound) encoded once. A set of obligations decided one after
    another shares one `Encodings`; the set, and its order, never depend on `--jobs`, so
    neither do the answers (z3's search depends on the terms its context made before).

    With `keep_evidence`, the queries behind the last answer are kept in `evidence`, for a
    second solver to decide again (`proofs.solving.confirm`)."""

    def __init__(self, keep_evidence: bool = False) -> None:
        # Keyed by the rulebook's identity (a rulebook is not hashable); kept alive with it.
        self._made: dict[tuple[int, str, int | None], tuple[Rulebook, Encoded]] = {}
        self.solving = 0.0   # seconds spent in z3's `check`, in all
        self.encoding = 0.0  # seconds spent building z3 terms, in all
        self.evidence: list[Evidence] | None = [] if keep_evidence else None

    def forget(self) -> None:
        """A new answer begins: the evidence of the last one no longer counts."""
        if self.evidence is not None:
            self.evidence.clear()

    def keep(self, encoded: Encoded, hypotheses: list[int], goal: Any, expect: str) -> None:
        """Keep one query z3 decided, for a second solver (only when keeping evidence)."""
        if self.evidence is not None:
            self.evidence.append(Evidence(encoded, hypotheses, goal, expect))

    def core(self, encoded: Encoded, goal: Any, chosen: list[int]) -> list[int]:
        """The hypotheses of `chosen` that z3's unsat core names for `goal`, when only
        evidence needs it: asked of a throw-away solver (so that z3's own answers to the
        later goals are those of a run without `--confirm`) with a second's budget; all of
        `chosen` if it gives no core."""
        if self.evidence is None:
            return chosen
        solver = z3.Solver(ctx=encoded.universe.ctx)
        budget(solver, 1.0)
        solver.add(*(z3.Implies(encoded.switches[i], encoded.hypotheses[i][2]) for i in chosen),
                   *encoded.extra, goal)
        if self.check(solver, *(encoded.switches[i] for i in chosen)) != "unsat":
            return chosen
        named = {str(literal) for literal in solver.unsat_core()}
        return [i for i in chosen if str(encoded.switches[i]) in named]

    def check(self, solver: z3.Solver, *assumptions: Any) -> str:
        """`solver.check`, timed as solving."""
        start = time.perf_counter()
        try:
            return check(solver, *assumptions)
        finally:
            self.solving += time.perf_counter() - start

    def encode(self, encoded: Encoded, term: Term) -> Any:
        """A term as a z3 formula over the event's states, timed as encoding."""
        start = time.perf_counter()
        try:
            return encoded.encoder.encode(term)
        finally:
            self.encoding += time.perf_counter() - start

    def get(self, rulebook: Rulebook, event: str, bound: int | None) -> Encoded:
        """The encoding of `event` under `rulebook`, in a universe bounded by `bound` (None:
        unbounded), made on first use: the transition, the structure hypotheses conjunct by
        conjunct, the event's constraints and hints, and an incremental solver holding them, each
        hypothesis behind its switch."""
        key = (id(rulebook), event, bound)
        if key not in self._made:
            start = time.perf_counter()
            universe = Universe(bound)
            t = encode_event(rulebook, event, universe)
            # In a bounded universe the arrays are left as they are: simplified, they sent
            # the search for 728.5c-forgotten's counterexample on to fresh solvers (0.67 s
            # -> 1.07 s for the whole command).
            post = (Simplified([t.pre, *(state for _, state in t.states), t.post])
                    if bound is None else t.post)
            enc = TermEncoder(universe, t.pre, post, t.binding)
            hypotheses = structure_hypotheses(universe)
            extra = list(t.constraints) + _hints(universe, t.binding, post)
            switches = [z3.Bool(f"hypothesis!{i}", universe.ctx)
                        for i in range(len(hypotheses))]
            self._made[key] = rulebook, Encoded(universe, t, enc, hypotheses, extra, switches)
            self.encoding += time.perf_counter() - start
        return self._made[key][1]


# The structure hypotheses over `pre`, conjunct by conjunct, encoded once per process and
# bound (`structure_hypotheses`): each conjunct, the attributes it reads, its z3 formula in
# the template's own context.
_TEMPLATES: dict[int | None, tuple[list[tuple[Term, frozenset[str]]], z3.AstVector]] = {}


def structure_hypotheses(universe: Universe) -> list[tuple[Term, frozenset[str], Any]]:
    """The structure invariants over the state before the event, conjunct by conjunct, as
    formulas of `universe`'s context (each with the attributes it reads).

    They are the same for every event: the encoder builds them once per process (for each
    bound) in a context of their own, and each universe gets a copy made by z3
    (`translate`), several times cheaper than building them again (on the official rules:
    the encoding of a run 9.1 s -> 5.5 s in one process, and z3's work 49.5 -> 44.2 million
    units). Every universe gets them the same way, so the terms of its context, and z3's
    answers there, never depend on what the process decided before."""
    if universe.bound not in _TEMPLATES:
        u = Universe(universe.bound)
        state = pre_state(u)
        # The structure speaks of one state and of no role of an event: nothing is bound.
        enc = TermEncoder(u, state, state, SymBinding({}, {}, u.nobody, None, u.noobj,
                                                      u.noobj, None))
        conjuncts_ = [c for h in structure_terms(pre) for c in conjuncts(h)]
        formulas = z3.AstVector(ctx=u.ctx)
        for c in conjuncts_:
            formulas.push(enc.encode(c))
        _TEMPLATES[universe.bound] = [(c, attributes(c)) for c in conjuncts_], formulas
    terms, formulas = _TEMPLATES[universe.bound]
    copied = formulas.translate(universe.ctx)
    return [(c, names, copied[i]) for i, (c, names) in enumerate(terms)]


# The ladder of attempts for one goal, cheapest first (seconds of budget, see `budget`):
# the incremental solver under the relevant hypotheses, then under all; then fresh solvers,
# which simplify the whole query before searching (the relevant hypotheses; all); then a
# fresh solver under all hypotheses with the whole timeout. Measured on the official
# rules, most goals are proved by one of the first two for a fraction of a fresh solver's
# cost; a few need a fresh solver's simplification. The incremental attempts' budgets are
# small because a goal they cannot prove costs far more time per unit of budget there than in
# a fresh solver: of the official rules' goals, 99% of those the first rung proves take under
# 30,000 units (the most 166,000), and every one the second proves under 220,000; with budgets
# of 200,000 and 500,000 units, the attempts that failed took 40% of z3's time; with 40,000
# and 250,000, z3's time in a run fell by about a third (issue 9). Of the
# nine goals that reach a fresh solver, the three costliest are proved under the relevant
# hypotheses with 40,000 to 270,000 units, under all with 14 to over 50 million: the
# relevant ones come first (the run's z3 work 33.9 -> 31.1 million units). The fresh
# solvers' budgets are 300,000 units: where an amendment breaks the invariant they search in
# vain before the bounded search finds the model (`restart-tokens-survive`: a million units
# each, for nothing, when they had a million; its run's work 33.4 -> 32.0 million units with
# half a million). On the official rules and the changed events of the 25 example
# amendments (2026-12-02), every answer a fresh solver of a short attempt gave took at most
# 243,633 units (the most for a proof 238,026, for a model 243,633), and 19 searches for
# nothing took the whole half million; with 300,000, every report is as it was and those
# amendments took 0.88-0.98 times as long as before, the console
# script's quick exit (`launch.end`, about 25 ms) included.
LADDER = (("incremental", "relevant", 0.004), ("incremental", "all", 0.025),
          ("fresh", "relevant", 0.03), ("fresh", "all", 0.03))
# In a bounded universe the query is mostly a search for a counterexample, and there the
# fresh solver with the whole timeout comes first and alone (`symbolic.solver_for`: its
# tactics find `restart.owners`' model under `2011-713.2-controller-takes-ownership` with
# 0.4 million units, where the incremental solver gave up after the 0.54 million of its two
# attempts): no incremental attempt, and no fresh solver under the relevant hypotheses only
# (a model there is no counterexample). With the default solver the incremental attempts had
# paid: it took 5 million units where the incremental one found `728.5c-forgotten`'s
# `end.commanders-return` with 450,000; the tactics find it with fewer.
BOUNDED_LADDER: tuple[tuple[str, str, float], ...] = ()
# An invariant that counts cards is proved in a bounded universe, and there its query is a
# proof more often than a search: a fresh solver under the relevant hypotheses comes first,
# with this budget (seconds, see `budget`). The official rules' `restart.short-library-loses`
# in its universe of 8 (`symbolic.COUNTING_TACTICS`): 0.73 million units under the relevant
# hypotheses, 1.48 million under all; `start.short-library-loses`: 0.22 against 0.63 million.
COUNTING_RELEVANT = 0.3


# Where a fresh solver finds a model under the relevant hypotheses only, a short attempt
# (`solve`) ends unknown, and the bounded search for a counterexample comes next: the
# model is no violation yet (the other hypotheses may exclude it), but in an unbounded
# universe the fresh solver under all of them, next on the ladder, did not find one
# either. On the official rules and the events that each of the 25 example amendments
# changes (2026-12-02), this happened to 15 goals, each of an obligation then refuted,
# and the fresh solver under all the hypotheses gave up on every one of them (0.08-0.52 s
# of an amendment's search for nothing; the critical path of
# `2011-713.2-controller-takes-ownership`, 0.24 s). A proof that needs that rung
# still comes, after the bounded search, from the whole ladder (`_prove`).
SAT_UNDER_RELEVANT = ("a model under the relevant hypotheses: a counterexample is sought "
                      "in a bounded universe")

Attempt = tuple[str, list[int], float]  # how ("incremental", "fresh"), the hypotheses, budget


def ladder(bound: int | None, few: list[int], everything: list[int], timeout: float,
           short: bool, counts: bool = False) -> list[Attempt]:
    """The attempts for one goal, in order: the rungs of LADDER (BOUNDED_LADDER in a bounded
    universe, led by a fresh solver under `few` with COUNTING_RELEVANT for an invariant that
    `counts` cards), those under the relevant hypotheses `few` only where they are fewer than
    `everything`, each with at most `timeout`; then, unless `short`, a fresh solver under
    every hypothesis with the whole `timeout`, and no fresh solver under every hypothesis
    with less before it: a new solver on the same query with the same seed, it would search
    much as the whole timeout's does, only for less long (of the official rules' bounded
    `restart.short-library-loses`, a million units for nothing before the 6.9 million that
    prove it; of each refutation, as many before its model). Not exactly as it does: the
    terms its simplification leaves in the context change the next solver's search, and
    so, without it, some models."""
    rungs = LADDER if bound is None else (
        (("fresh", "relevant", COUNTING_RELEVANT),) if counts else ()) + BOUNDED_LADDER
    attempts = [(how, few if which == "relevant" else everything, min(seconds, timeout))
                for how, which, seconds in rungs
                if which == "all" or len(few) < len(everything)]
    if short:
        return attempts
    return [a for a in attempts if a[0] == "incremental" or a[1] is not everything] + \
        [("fresh", everything, timeout)]


def solve(rulebook: Rulebook, ob: Obligation, bound: int | None,
           timeout: float, seed: int = 0, encodings: Encodings | None = None,
           blocked: Iterable[Term] = (), short: bool = False,
           ) -> tuple[str, Universe, z3.Solver, Transition, str]:
    """Look for a violation of each conjunct in turn, up the ladder of attempts, and then
    (unless `short`) with the whole `timeout`.

    Unsat under some of the hypotheses is a proof; sat is a violation only under all of
    them. Returns "unsat" when no conjunct can be violated, "sat" with the solver holding
    the model of the first violation found, or "unknown" (with the solver's reason).
    A `short` attempt also ends, unknown, where a fresh solver finds a model under the
    relevant hypotheses (`SAT_UNDER_RELEVANT`).
    `blocked` are shapes of situations (terms over `pre`) that the violation must not have
    (`_block`): with any, "unsat" is no proof, only "no violation beyond those shapes"."""
    encodings = encodings or Encodings()
    encodings.forget()
    encoded = encodings.get(rulebook, ob.event, bound)
    universe, t = encoded.universe, encoded.transition
    everything = list(range(len(encoded.hypotheses)))
    verdict, reason = "unsat", ""
    solver: Any = encoded.incremental
    avoid = [z3.Not(encodings.encode(encoded, shape)) for shape in blocked]
    first = True  # no goal of this obligation asked yet
    for part in conjuncts(ob.invariant.term):
        formula = encodings.encode(encoded, part)
        goal = negation(formula)
        same = encoded.hypothesis_of(formula)
        if same is not None and not avoid:
            # The event leaves every array the conjunct reads as it was: after the event it
            # is, term for term, a hypothesis, and the query holds both that hypothesis and
            # its negation. Unsat without a search.
            encodings.keep(encoded, [same], goal, "unsat")
            continue
        if avoid:
            goal = z3.And(goal, *avoid)
        few = encoded.relevant(part)
        attempts = ladder(bound, few, everything, timeout, short, ob.invariant.bounded)
        if any(how == "incremental" for how, _, _ in attempts):
            literal = encoded.ask(goal, first=first)
            first = False
        answer = "unknown"
        for how, chosen, seconds in attempts:
            if how == "incremental":
                solver = encoded.solver()
                budget(solver, seconds)
                solver.set("random_seed", seed)
                answer = encodings.check(solver, literal,
                                         *(encoded.switches[i] for i in chosen))
            else:
                solver = encoded.fresh(chosen, goal, seconds, seed, ob.invariant.bounded)
                answer = encodings.check(solver)
            if answer == "unsat" or (answer == "sat" and chosen is everything):
                break
            if seconds >= timeout and chosen is everything:
                break  # the whole timeout spent: nothing further up the ladder
            if short and answer == "sat" and how == "fresh":
                break  # left to the bounded search (SAT_UNDER_RELEVANT)
        if answer == "sat" and chosen is not everything:
            verdict, reason = "unknown", SAT_UNDER_RELEVANT
            continue
        if answer == "sat":
            return "sat", universe, solver, t, ""
        if answer == "unknown":
            verdict, reason = "unknown", solver.reason_unknown()
        elif encodings.evidence is not None:
            # Only a second solver needs what the proof rested on: reading the unsat core
            # (each switch printed by z3's Python printer) cost about 1.2 s of CPU in all.
            encodings.keep(encoded, _core(encoded) if how == "incremental"
                           else encodings.core(encoded, goal, chosen), goal, "unsat")
    return verdict, universe, solver, t, reason


def _core(encoded: Encoded) -> list[int]:
    """The hypotheses (by index) named by the incremental solver's last unsat core."""
    named = {str(literal) for literal in encoded.solver().unsat_core()}
    return [i for i, switch in enumerate(encoded.switches) if str(switch) in named]


def _hints(universe: Universe, binding: SymBinding, post: SymState) -> list[object]:
    """Ground terms naming each attribute of each game the event binds, after the event.

    They say nothing (each equates a fresh constant with a value) but give the solver the
    instances it needs for goals like "some game is active"."""
    hints: list[object] = []
    for index, game in enumerate(binding.roles.values()):
        for attribute, (arg_sorts, sort) in ATTRIBUTES.items():
            if arg_sorts == ("game",):
                name = f"hint!{index}!{attribute}"
                hints.append(universe.const(name, sort) == post.get(attribute, game))
    return hints


def event_solver(universe: Universe, rulebook: Rulebook, event: str,
                 timeout: float) -> tuple[z3.Solver, Transition, TermEncoder]:
    """A solver holding "the structure holds before, and the event happens", with a timeout."""
    t = encode_event(rulebook, event, universe)
    enc = TermEncoder(universe, t.pre, t.post, t.binding)
    solver = z3.Solver(ctx=universe.ctx)
    budget(solver, timeout)
    solver.add(*(enc.encode(h) for h in structure_terms(pre)), *t.constraints)
    return solver, t, enc
