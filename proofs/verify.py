"""Proof obligations: each invariant at each event, in a fresh solver with a timeout.

An obligation asks z3 for a situation where the structure invariants hold, the event
happens, and the invariant is broken afterwards. Unsatisfiable: **proved** for every
number of cards, players and games. Satisfiable: the model is read back as a scenario and
replayed by the interpreter; if the violation replays it is **refuted** with that
counterexample, minimised and reached from a game's beginning; if it does not replay, it is
a **fault** of the tool, never a finding. One that replays but that no trace reaches is
excluded by its shape and z3 asked for another, a few times (`COUNTEREXAMPLES`, `_block`),
before it too is a fault; a proof is only ever the unsat of the query itself. The
solver giving up is **unknown**, with its reason, never proved. Invariants that count cards
are proved only up to a bound, and say so.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import z3
from shahrazad.invariants import lang
from shahrazad.invariants.catalog import Invariant, structure_terms
from shahrazad.invariants.lang import ATTRIBUTES, Term, pre
from shahrazad.invariants.structure import catalog_problems
from shahrazad.model.choices import SeededChooser
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.objects import ZoneRef
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.model.scenario import Scenario
from shahrazad.model.state import Situation

from .agreement import concrete_value
from .counterexample import canonical, extract, minimise, replay, replay_refusal, shrink
from .encode import Transition, encode_event, pre_state

# The obligations, their results and a run's batches live in `proofs.obligations`, which
# the command's own process imports without z3; re-exported here, where they began.
from .obligations import BATCH as BATCH
from .obligations import DEFAULT_BOUND as DEFAULT_BOUND
from .obligations import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
from .obligations import LIKELY_REFUTED as LIKELY_REFUTED
from .obligations import Case, attributes
from .obligations import Confirmation as Confirmation
from .obligations import Obligation as Obligation
from .obligations import Replay as Replay
from .obligations import Result as Result
from .obligations import Status as Status
from .obligations import _changed_behind as _changed_behind
from .obligations import batches as batches
from .obligations import conjuncts as conjuncts
from .obligations import decide as decide
from .obligations import group_of as group_of
from .obligations import obligations as obligations
from .obligations import verify as verify
from .obligations import weight as weight
from .obligations import worst as worst
from .reach import (
    Goal,
    Unreachable,
    breaks_invariant,
    impossible,
    reach,
    replay_reached,
    replay_way,
)
from .symbolic import (
    RLIMIT_PER_SECOND,
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
    work_done,
)

QUICK = 0.4  # seconds for the first, unbounded attempt
SEEDS = 5  # random seeds tried, each with a share of the timeout, before "unknown"


BASIC = frozenset({"exists", "zone", "game", "kind", "waiting", "live", "present", "active",
                   "suspended"})


# How many obligations one incremental solver is asked before a new one takes its place
# (`Encoded.ask`). A goal stays in the solver once decided (behind its literal, as the
# hypotheses are), and every later query pays for it: with one solver for 32 obligations,
# the official rules took z3 38 million units, with a new one every 8, 33 million (and 4:
# about the same). Popping each goal instead was faster still, but z3 crashed (a segfault,
# the same query every time) when the goals of one obligation shared a scope: without
# push and pop the solver never meets that path (issue 9, docs/benchmarks.md).
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
    obligations: int = 0  # the obligations `incremental` has been asked (each `_solve` counts)
    goals: int = 0  # the goals asked of this encoding, for their literals' names
    second: Any = None  # this encoding re-read by a second solver (`proofs.confirm`)

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
    second solver to decide again (`proofs.confirm`)."""

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
# and 250,000, z3's time in a run fell by about a third (issue 9; docs/benchmarks.md). Of the
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
# script's quick exit (`launch.end`, about 25 ms) included (docs/benchmarks.md).
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
# (`_solve`) ends unknown, and the bounded search for a counterexample comes next: the
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


def _solve(rulebook: Rulebook, ob: Obligation, bound: int | None,
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


def _possible(rulebook: Rulebook, ob: Obligation, timeout: float, bound: int,
              encodings: Encodings | None = None, minimise_cex: bool = True) -> Result:
    """A possibility: some situation (structure holding) lets the event happen with the
    condition true. Proved with a witness the interpreter replays; refuted with a situation
    where the condition holds and the interpreter refuses the event."""
    start = time.perf_counter()
    notes: list[str] = []
    encodings = encodings or Encodings()
    for size in (bound, None):
        encodings.forget()
        encoded = encodings.get(rulebook, ob.event, size)
        universe, t = encoded.universe, encoded.transition
        everything = list(range(len(encoded.hypotheses)))
        condition = encodings.encode(encoded, ob.invariant.term)
        solver = encoded.fresh(everything, condition, timeout)
        answer = encodings.check(solver)
        if answer == "sat":
            encodings.keep(encoded, everything, condition, "sat")
            witness = extract(solver.model(), universe, t, ob.event)
            replayed = replay(witness, rulebook, ob.invariant, expect=True)
            status = Status.PROVED if replayed.violated else Status.FAULT
            reason = ("a witness situation replays" if replayed.violated else
                      f"the solver's witness does not replay: {replayed.reason}")
            witness.title = f"witness for {ob.invariant.id}"
            return Result(ob, status, time.perf_counter() - start, reason=reason,
                          counterexample=witness if status == Status.FAULT else None,
                          witness=witness, replay=replayed)
        if answer == "unsat" and size is None:
            break
        notes.append(f"{'bounded' if size else 'unbounded'}: {answer} "
                     f"{solver.reason_unknown() if answer == 'unknown' else ''}".strip())
    if answer == "unknown":
        return Result(ob, Status.UNKNOWN, time.perf_counter() - start, reason="; ".join(notes))
    # Impossible: show a situation where the official rules allow the event with the
    # condition true and this rulebook's interpreter refuses it.
    scenario = None
    if rulebook != official():
        found = _possible(official(), ob, timeout, bound, encodings)
        if found.witness is not None and found.status == Status.PROVED:
            refused = replay_refusal(found.witness, rulebook)
            if refused is None:
                if replay(found.witness, rulebook, ob.invariant, expect=True).violated:
                    return Result(ob, Status.FAULT, time.perf_counter() - start,
                                  reason="z3 finds it impossible, the interpreter shows it",
                                  counterexample=found.witness)
                refused = "the event happens, but no outcome of it makes the condition true"
            scenario = canonical(_smallest_impossibility(found.witness, rulebook,
                                                         ob.invariant)
                                 if minimise_cex else found.witness)
            refused = replay_refusal(scenario, rulebook) or refused
            scenario.title = f"{ob.invariant.id}: impossible under this rulebook"
            scenario.description = f"{ob.invariant.statement} Here: {refused}"
            reached = _reached(rulebook, scenario, impossible(ob.invariant))
            if isinstance(reached, Failure):
                # This rulebook may not even reach the situation: then what shows the
                # impossibility is the first event on the official rules' way there that
                # it refuses.
                on_the_way = _refused_on_the_way(rulebook, scenario, ob.invariant)
                if on_the_way is None:
                    return Result(ob, Status.FAULT, time.perf_counter() - start,
                                  reason=reached.reason, counterexample=scenario)
                reached, refused = on_the_way
            else:
                # In the names of the reached situation (the trace names its games anew).
                refused = replay_refusal(reached[0], rulebook) or refused
            for shown in reached:
                shown.description = f"{ob.invariant.statement} Here: {refused}"
            scenario, trace = reached
            return Result(ob, Status.REFUTED, time.perf_counter() - start,
                          reason="no situation allows it under this rulebook",
                          counterexample=scenario, trace=trace)
    return Result(ob, Status.REFUTED, time.perf_counter() - start,
                  reason="no situation allows it under this rulebook", counterexample=scenario)


def _smallest_impossibility(witness: Scenario, rulebook: Rulebook,
                            invariant: Invariant) -> Scenario:
    """The official rules' witness of a possibility made smaller (`shrink`: objects,
    players, games, details) while it still shows the impossibility: the official rules
    allow the event there with the condition true, and `rulebook` refuses it or no outcome
    of it makes the condition true. z3's witness holds what its model happened to hold (a
    player in no game, counters of 27961, a spell on the stack), none of which the reader
    of the refutation needs."""
    def keeps(smaller: Scenario) -> bool:
        if not replay(smaller, official(), invariant, expect=True, limit=500).violated:
            return False
        return replay_refusal(smaller, rulebook) is not None or not replay(
            smaller, rulebook, invariant, expect=True, limit=500).violated
    return shrink(witness, keeps)


def rules_bound(rulebook: Rulebook, ob: Obligation) -> int:
    """The smallest bound that sees the rules' own numbers: one more than the largest number
    that the invariant or the steps of the event's clauses use (8 for the seven-card rules
    of 728.3 and 726.3), so that a library of exactly that many cards fits in the universe."""
    numbers = [t.args[0] for t in ob.invariant.term.walk()
               if t.op == "int" and isinstance(t.args[0], int)]
    for clause in rulebook.on(ob.event):
        for step in clause.steps:
            numbers += _numbers(step.args)
    return max(numbers, default=0) + 1


def _numbers(value: object) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in _numbers(v)]
    return []


def prove(rulebook: Rulebook, ob: Obligation, timeout: float = DEFAULT_TIMEOUT,
          bound: int = DEFAULT_BOUND, minimise_cex: bool = True,
          encodings: Encodings | None = None) -> Result:
    """Decide one obligation: proved, refuted (with a replayed counterexample) or unknown.

    A counterexample that replays but that no reaching trace leads to (or whose reached
    situation does not replay) is excluded by its shape (`_block`) and the same query asked
    again, up to COUNTEREXAMPLES counterexamples in all, the retries sharing one `timeout`
    of budget; the first that is reached refutes, and if none is, the obligation is a fault
    whose reason lists each counterexample tried and why it failed. Never proved by a retry.

    An invariant that counts cards is decided up to a bound, never below `rules_bound`.
    `encodings` shares the event's encoding with the obligations decided before and after
    this one (by default, a fresh one for this obligation alone)."""
    encodings = encodings or Encodings()
    solving, encoding = encodings.solving, encodings.encoding
    result = _prove(rulebook, ob, timeout, bound, minimise_cex, encodings)
    result.solving = encodings.solving - solving
    result.encoding = encodings.encoding - encoding
    return result


def _prove(rulebook: Rulebook, ob: Obligation, timeout: float, bound: int,
           minimise_cex: bool, encodings: Encodings) -> Result:
    if ob.invariant.kind == "possible":
        return _possible(rulebook, ob, timeout, bound, encodings, minimise_cex)
    if ob.invariant.bounded:
        bound = max(bound, rules_bound(rulebook, ob))
    start = time.perf_counter()
    notes: list[str] = []
    tried_bound: int | None = None
    # Proofs of what holds are quick; models of what does not are quicker to find in a
    # finite universe. So: a short unbounded attempt, then a bounded search for a
    # counterexample, then the unbounded attempt again with the whole timeout.
    # Where the rulebook changed the event's clauses that the invariant names, a refutation
    # is likely: the bounded search comes first.
    answer = "unknown"
    size: int | None = None  # the universe and seed of the query that gives a model
    seed_of_sat = 0
    if not ob.invariant.bounded and not _changed_behind(rulebook, ob):
        # The ladder only: on the official rules no goal needed its last rung here, and where
        # a refutation was found later, the rung spent up to QUICK of fruitless search.
        answer, universe, solver, t, why = _solve(rulebook, ob, None, min(QUICK, timeout),
                                                  encodings=encodings, short=True)
        if answer == "unsat":
            return Result(ob, Status.PROVED, time.perf_counter() - start)
    elif ob.invariant.bounded:
        notes.append("counts cards (fewer than seven in a library): checked up to a bound")
    else:
        notes.append("the rulebook changed a clause the invariant names: a counterexample "
                     "sought in a bounded universe first")
    if answer != "sat":
        tried_bound = size = bound
        answer, universe, solver, t, why = _solve(rulebook, ob, bound, timeout,
                                                  encodings=encodings)
        if answer == "unknown":
            notes.append(f"bounded ({bound}): {why}")
        if answer == "unsat" and ob.invariant.bounded:
            return Result(ob, Status.PROVED, time.perf_counter() - start, bound=bound,
                          reason=f"no counterexample with up to {bound} objects, players and "
                          "games", notes=notes)
    if answer != "sat" and not ob.invariant.bounded:
        # The solver's luck varies with its random seed: a small portfolio of seeds shares
        # the timeout.
        none_small = answer == "unsat"
        share = max(QUICK, timeout / SEEDS)
        spent = 0.0
        seed = 1
        while spent < timeout and answer != "sat":
            size, seed_of_sat = None, seed
            answer, universe, solver, t, why = _solve(rulebook, ob, None,
                                                      min(share, timeout - spent), seed,
                                                      encodings)
            if answer == "unsat":
                return Result(ob, Status.PROVED, time.perf_counter() - start)
            spent += share
            seed += 1
        if answer == "unknown":
            notes.append(f"unbounded: {why} ({seed - 1} seeds)")
            if none_small:
                notes.append(f"no counterexample with up to {bound} objects, players and games")
    if answer != "sat":
        return Result(ob, Status.UNKNOWN, time.perf_counter() - start, bound=tried_bound,
                      reason="; ".join(notes), notes=notes)
    # A counterexample that no trace reaches is excluded by its shape and the same query
    # (same universe, same seed) asked again, at most COUNTEREXAMPLES times in all (`_block`).
    tries: list[str] = []    # why each counterexample so far was not shown
    illegal_way = ""         # the first way that the rulebook's own event made illegal
    blocked: list[Term] = []  # the shapes of those counterexamples, excluded from the next
    left = timeout           # the retries' budget: one timeout in all, each retry charged
    #                          the work z3 did for it (`symbolic.work_done`)
    while True:
        scenario = extract(solver.model(), universe, t, ob.event)
        replayed = replay(scenario, rulebook, ob.invariant)
        if not replayed.violated:
            # The two readings disagree: a fault whatever the next model would be.
            return Result(ob, Status.FAULT, time.perf_counter() - start, bound=tried_bound,
                          reason=f"the solver's counterexample does not replay: "
                          f"{replayed.reason}" + (f"; before it, {_tried(tries)}" if tries else ""),
                          counterexample=scenario, replay=replayed, notes=notes)
        shown = _show(rulebook, ob, scenario, minimise_cex)
        if isinstance(shown, Result):
            shown.seconds = time.perf_counter() - start
            shown.bound = tried_bound
            shown.notes = notes + ([f"{len(tries)} counterexample(s) before it could not be "
                                    f"reached: {'; '.join(tries)}"] if tries else [])
            if tries:
                shown.reason += (f" (the solver's first {len(tries)} counterexample(s) could "
                                 "not be reached and were excluded)")
            return shown
        why, scenario, replayed, shape, left_legal = shown
        tries.append(why)
        illegal_way = illegal_way or left_legal
        fault = Result(ob, Status.FAULT, time.perf_counter() - start, bound=tried_bound,
                       counterexample=scenario, replay=replayed, notes=notes)
        if len(tries) >= COUNTEREXAMPLES or shape is None:
            fault.reason = (tries[0] if len(tries) == 1 and shape is not None else
                            f"none of the first {len(tries)} counterexamples is reached: "
                            f"{_tried(tries)}" if shape is not None else
                            "no counterexample is reached, and its situation has no object to "
                            f"exclude: {_tried(tries)}")
            return _not_reached(fault, illegal_way, tries, start)
        blocked.append(shape)
        if left <= 0:
            fault.reason = ("no counterexample is reached, and the retries' budget is spent: "
                            + _tried(tries))
            return _not_reached(fault, illegal_way, tries, start)
        before = work_done(universe.ctx)
        answer, universe, solver, t, why = _solve(rulebook, ob, size, left, seed_of_sat,
                                                  encodings, blocked)
        left -= (work_done(universe.ctx) - before) / RLIMIT_PER_SECOND
        if answer != "sat":
            fault.reason = ("no counterexample is reached, and the solver finds no other "
                            "outside their shapes" if answer == "unsat" else
                            "no counterexample is reached, and the solver gave up looking for "
                            f"another ({why})") + f": {_tried(tries)}"
            return _not_reached(fault, illegal_way, tries, start)


def _not_reached(fault: Result, illegal_way: str, tries: list[str], start: float) -> Result:
    """No counterexample of `prove` was reached: a fault of this tool; or, where the way to
    one of them passed through a situation that the rulebook's own event made illegal
    (`illegal_way`, `reach.rulebook_leaves_legal`), unknown: the situations the proof
    assumes before the event are then not all reachable under this rulebook, through no
    fault of this tool, and its counterexamples may be among those."""
    fault.seconds = time.perf_counter() - start
    if not illegal_way:
        return fault
    fault.status = Status.UNKNOWN
    fault.reason = ("a counterexample replays, but no legal way leads to it: "
                    f"{illegal_way} (the structure invariants, which this proof assumes "
                    "before the event, do not all hold after every event of this rulebook); "
                    + _tried(tries))
    return fault


# How many counterexamples `prove` tries, each excluded (`_block`) before the next is asked,
# before it gives up with a fault. A first model that no trace reaches often has a reachable
# sibling (the past wordings: a contraption deck in a subgame, which those rules never make,
# where a plane in the subgame command zone breaks the promise as well), but z3 offers the
# unreachable ones one card type, zone and game at a time: of the 128 faults of
# `shahrazad history` before retries, 26 became refutations with 5 tries, 35 with 10, 47
# with 20 (up to 14 tries needed), in about the same time, since most of the rest end
# sooner with no other counterexample. The retries share one timeout of z3's work in all.
COUNTEREXAMPLES = 20


def _tried(tries: list[str]) -> str:
    """The end of a fault's reason: each counterexample tried and why it was not shown. (The
    reason begins with what ended the tries, and a report that groups faults by the reason
    up to its first colon, as `shahrazad history` does, groups them by that.)"""
    return f"tried {len(tries)}: " + "; ".join(f"({n}) {why}"
                                              for n, why in enumerate(tries, start=1))


def _show(rulebook: Rulebook, ob: Obligation, scenario: Scenario, minimise_cex: bool,
          ) -> Result | tuple[str, Scenario, Replay, Term | None, str]:
    """A counterexample that replays, minimised and reached: a refutation; or why it cannot
    be shown, the scenario tried and its replay, the shape to exclude from the next
    (`_block`), and where the rulebook's own event on the way left the legal situations
    (`Failure.left_legal`), if it did."""
    if minimise_cex:
        scenario = minimise(scenario, rulebook, ob.invariant)
    scenario = _named(canonical(scenario), ob)
    found = _reached(rulebook, scenario, breaks_invariant(ob.invariant))
    if isinstance(found, Failure) and not minimise_cex:
        # A situation with less in it is easier to reach.
        scenario = _named(canonical(minimise(scenario, rulebook, ob.invariant)), ob)
        found = _reached(rulebook, scenario, breaks_invariant(ob.invariant))
    replayed = replay(scenario, rulebook, ob.invariant)
    if isinstance(found, Failure):
        return found.reason, scenario, replayed, _block(scenario, found), found.left_legal
    shown, trace = found
    replayed = replay(shown, rulebook, ob.invariant)
    if not replayed.violated:
        why = f"the reached situation does not replay: {replayed.reason}"
        return why, shown, replayed, _block(scenario, Failure(why)), ""
    return Result(ob, Status.REFUTED, 0.0,
                  reason="the counterexample replays on the concrete interpreter, reached "
                  f"from a game's beginning in {len(trace.events) - 1} events",
                  counterexample=shown, replay=replayed, trace=trace)


BLOCKED_OBJECTS = 4  # at most this many objects in a blocked shape (the first, in order)

# The facts of an object that a shape always says (`_facts`): what the trace builder starts
# it from (its kind, card type, own deck, whether a commander) and where it must bring it
# (the kind of zone, the deck, whether the zone's player is the owner, whether the game is
# active and a subgame). The facts the builder sets by a step of its own are said only when
# that step was refused, or when the failure names no step.
BY_STEP = {"turn": ("face_up",), "phase": ("phased_out",), "control": ("controller",),
           "counter": ("has_counters",)}
ALL_FACTS = ("face_up", "phased_out", "controller", "has_counters")


def _block(scenario: Scenario, failure: Failure) -> Term | None:
    """The shape of a counterexample's situation that the next query must avoid: "there are
    distinct objects x1, ..., xn, each with these facts". The objects are those the refused
    step of the reaching trace acted on, with the facts that decide where the trace builder
    starts it and must bring it, plus the one that step sets (`BY_STEP`); when the failure
    names no step (no seed gives the choices needed, the reached situation does not
    replay), every object of the (minimised) situation, at most BLOCKED_OBJECTS of them,
    with all their facts. Names and numbers are left out, so that renaming the elements
    (which z3 does at will) does not dodge the block; None if there is no object to name.

    Sound: a query with shapes blocked is only ever asked for another model. A model of it
    is a model of the original query (so a counterexample found under blocks is one of the
    original obligation, shown only once replayed and reached), and its unsat proves
    nothing: the obligation then stays a fault, never proved. A block that excludes more
    than the unreachable situations (a reachable situation of the same shape, or containing
    it) can only lose a finding, which leaves the fault a fault."""
    s = scenario.situation
    placed = [o for z in sorted(s.zones, key=ZoneRef.sort_key) for o in s.zones[z]]
    named = [o for o in placed if o in failure.objects]
    chosen = (named or placed)[:BLOCKED_OBJECTS]
    if not chosen:
        return None
    extra = BY_STEP.get(failure.step, ()) if named else ALL_FACTS
    variables = tuple(lang.obj(f"blocked{n}") for n in range(1, len(chosen) + 1))
    facts: list[Term] = [lang.ne(a, b) for i, a in enumerate(variables)
                         for b in variables[i + 1:]]
    for name, o in zip(chosen, variables, strict=True):
        facts += _facts(s, name, o, extra)
    return lang.exists(variables, lang.and_(*facts))


def _facts(s: Situation, name: str, o: Term, extra: tuple[str, ...]) -> list[Term]:
    """What `_block` says of one object `name` of situation `s`, over the variable `o`: the
    facts it always says, and those of `extra`."""
    def value(attribute: str) -> Any:
        return concrete_value(s, attribute, [name])

    def holds(attribute: str, term: Term) -> Term:
        return term if value(attribute) else lang.not_(term)

    def same(a: Term, b: Term, yes: bool) -> Term:
        return lang.eq(a, b) if yes else lang.ne(a, b)

    facts = [pre.exists(o), holds("commander", pre.commander(o))]
    facts += [lang.eq(getattr(pre, a)(o), lang.const(a if a != "own_deck" else "deck",
                                                     str(value(a))))
              for a in ("kind", "ctype", "own_deck", "zone")]
    if value("zone") != "outside":
        facts.append(lang.eq(pre.zone_deck(o), lang.deck(str(value("zone_deck")))))
        game = value("game")
        facts.append(_holds_game(s, game, "active", pre.active(pre.game(o))))
        facts.append(_holds_game(s, game, "has_parent", pre.has_parent(pre.game(o))))
        if value("zone_player") in s.players:
            facts.append(same(pre.zone_player(o), pre.owner(o),
                              value("zone_player") == value("owner")))
    for attribute in extra:
        if attribute == "controller":
            facts.append(same(pre.controller(o), pre.owner(o),
                              value("controller") == value("owner")))
        else:
            facts.append(holds(attribute, getattr(pre, attribute)(o)))
    return facts


def _holds_game(s: Situation, game: str, attribute: str, term: Term) -> Term:
    """`term` (a game's Boolean `attribute`) or its negation, as the game has it in `s`."""
    return term if concrete_value(s, attribute, [game]) else lang.not_(term)


def _named(scenario: Scenario, ob: Obligation) -> Scenario:
    scenario.title = f"counterexample to {ob.invariant.id} at {ob.event}"
    scenario.description = ob.invariant.statement
    return scenario


@dataclass
class Failure:
    """Why a counterexample is not shown: no reaching trace, or one that does not replay;
    `objects` names those a refused step of the trace acted on, `step` its kind
    (`reach.Unreachable`)."""

    reason: str
    objects: tuple[str, ...] = ()
    step: str = ""
    # Where the rulebook's own event on the way left the legal situations
    # (`reach.replay_way`): which, and what is wrong after it.
    left_legal: str = ""


def _reached(rulebook: Rulebook, scenario: Scenario, goal: Goal,
             ) -> tuple[Scenario, Scenario] | Failure:
    """The counterexample as the situation a reaching trace leads to (legal, reached) with
    its event, and the trace; or why there is none (a fault of this tool)."""
    try:
        reached = reach(scenario, rulebook, goal)
    except Unreachable as err:
        return Failure("the counterexample replays, but no reaching trace leads to it from a "
                       f"game's beginning: {err}", err.objects, err.step)
    problem, left_legal = replay_way(reached.scenario, rulebook, goal)
    if problem is not None:
        return Failure(f"the reaching trace does not replay: {problem}", left_legal=left_legal)
    shown = Scenario(reached.before, reached.scenario.events[-1:], scenario.title,
                     scenario.description, reached.scenario.seed)
    return shown, reached.scenario


def _refused_on_the_way(rulebook: Rulebook, witness: Scenario, invariant: Invariant,
                        ) -> tuple[tuple[Scenario, Scenario], str] | None:
    """An impossibility shown on the way to its situation, where `rulebook` cannot reach the
    official rules' `witness` (a situation where they allow the event with the condition
    true): the official rules' reaching trace to it, replayed under `rulebook` up to the
    first event that `rulebook` refuses or that leaves a situation that is not legal, every
    situation before it legal (a rulebook whose subgames cannot start at all shows so at
    the first Shahrazad, not at a second one). As `_reached`: that event with the situation
    before it, and the trace; and what stopped it. None when the official rules' trace
    shows nothing of the kind."""
    try:
        way = reach(witness, official(), breaks_invariant(invariant, expect=True)).scenario
    except Unreachable:
        return None
    interp = Interpreter(rulebook, SeededChooser(way.seed))
    state, last = way.situation, len(way.events)
    goal, stopped = impossible(invariant), ""
    for index, event in enumerate(way.events, start=1):
        if index == last:
            why = replay_refusal(Scenario(state, [event]), rulebook) or \
                "no outcome of the event makes the condition true"
            stopped = f"at the end of the official rules' way to it: {why}"
            break
        on_the_way = (f"on the way to a situation where the official rules allow it, event "
                      f"{index} ({event.describe()})")
        try:
            after = interp.step(state, event, index).situation
        except IllegalEvent as err:
            goal, stopped = _stops, f"{on_the_way} is refused: {err}"
            break
        problems = catalog_problems(after)
        if problems:
            goal, stopped = _stops, f"{on_the_way} leaves a situation that is not legal: " \
                f"{problems[0]}"
            break
        state = after
    trace = Scenario(way.situation, way.events[:index], witness.title, witness.description,
                     way.seed)
    if replay_reached(trace, rulebook, goal) is not None:
        return None
    shown = Scenario(state, [way.events[index - 1]], witness.title, witness.description,
                     way.seed)
    return (shown, trace), stopped


def _stops(interp: Interpreter, before: Situation, event: Event) -> bool:
    """The goal of a way stopped short (`_refused_on_the_way`): the event is refused, or
    leaves a situation that is not legal."""
    try:
        after = interp.step(before, event).situation
    except IllegalEvent:
        return True
    return bool(catalog_problems(after))


def prove_batch(case: Case) -> list[Result]:
    """In a worker process: each obligation of a batch (`obligations.batches`) decided in
    turn against one `Encodings`, and confirmed by the second solver the case names, if any."""
    rulebook, batch, timeout, bound, minimise_cex, second = case
    encodings = Encodings(keep_evidence=second is not None)
    results = []
    for ob in batch:
        try:
            result = prove(rulebook, ob, timeout, bound, minimise_cex, encodings)
        except Exception as err:  # a bug of this tool costs one obligation, not the run
            if os.environ.get("SHAHRAZAD_DEBUG"):
                raise
            results.append(Result(ob, Status.FAULT, 0.0, reason=(
                f"an internal error of this tool decided nothing: {type(err).__name__}: "
                f"{err} (set SHAHRAZAD_DEBUG=1 for the traceback)")))
            # What the error left half-built is not asked again: the batch's next
            # obligations get encodings of their own, the same on every run.
            encodings = Encodings(keep_evidence=second is not None)
            continue
        if second is not None and result.status == Status.PROVED:
            from .confirm import confirm
            result = confirm(result, list(encodings.evidence or []), timeout, second)
        results.append(result)
    return results
