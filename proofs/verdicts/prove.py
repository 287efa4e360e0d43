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
from dataclasses import dataclass

import z3
from shahrazad.invariants.catalog import Invariant
from shahrazad.invariants.structure import catalog_problems, still_legal, violations
from shahrazad.model.actions import IN_GAME_ACTIONS
from shahrazad.model.choices import SeededChooser
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.model.scenario import Scenario
from shahrazad.model.state import Situation
from shahrazad.proofs.encoding.encoder import Transition
from shahrazad.proofs.encoding.symbolic import RLIMIT_PER_SECOND, Universe, work_done
from shahrazad.proofs.evidence.counterexample import (
    canonical,
    extract,
    minimise,
    replay,
    replay_refusal,
    shrink,
)
from shahrazad.proofs.evidence.reach import (
    Goal,
    Reached,
    Unreachable,
    breaks_invariant,
    impossible,
    reach,
    replay_reached,
    search_way,
)
from shahrazad.proofs.evidence.search import DEPTH
from shahrazad.proofs.solving.obligations import (
    DEFAULT_BOUND,
    DEFAULT_TIMEOUT,
    Case,
    Obligation,
    Replay,
    Result,
    Status,
    changed_behind,
)
from shahrazad.proofs.solving.queries import Encodings, solve

from .lemmas import RECORDS, Lemma, Shape, candidates, inductive, shape_of, simplest

QUICK = 0.4  # seconds for the first, unbounded attempt
SEEDS = 5  # random seeds tried, each with a share of the timeout, before "unknown"
GROWTH = 2  # where the unbounded query gives up, universes this much larger are searched


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
            # No search here: its goal, "the event is refused or its condition false",
            # holds wherever the condition does not apply (a subgame started in no subgame).
            reached = _reached(rulebook, scenario, impossible(ob.invariant), searching=False)
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
    found = _search(rulebook, ob, timeout, bound, encodings, start)
    if isinstance(found, Result):
        return found
    alone = Encodings()
    return _refute(rulebook, ob, timeout, minimise_cex, alone, start,
                   _asked_alone(rulebook, ob, timeout, bound, alone, found))


def _asked_alone(rulebook: Rulebook, ob: Obligation, timeout: float, bound: int,
                 alone: Encodings, found: _Query) -> _Query:
    """The query that gave a model, asked again in encodings of its own (`alone`), in the
    bounded universe first: z3's model depends on every query its solver answered before,
    and those depend on the obligations before this one in its batch. Asked alone, the
    counterexample, its trace and the retries after it are the same in a batch as with
    `--only`, and in any order. (Where the fresh query is not sat within the budget, the
    first model stays.)"""
    for size, seed in dict.fromkeys(((bound, 0), (found.size, found.seed))):
        answer, universe, solver, t, _ = solve(rulebook, ob, size, timeout, seed,
                                               encodings=alone)
        if answer == "sat":
            return _Query(universe, solver, t, size, seed, found.tried_bound, found.notes)
    return found


@dataclass
class _Query:
    """The query that gave a model: its universe, solver (holding the model) and transition,
    the universe's bound and the seed it was asked with (a retry asks the same), the bound
    last tried, and the notes so far. A retry puts its own universe, solver and transition in
    their place: this is their only holder, so that the ones before are freed as they were
    when one function held them all (z3's answers depend on which of its terms are alive)."""

    universe: Universe
    solver: z3.Solver
    transition: Transition
    size: int | None
    seed: int
    tried_bound: int | None
    notes: list[str]


def _search(rulebook: Rulebook, ob: Obligation, timeout: float, bound: int,
            encodings: Encodings, start: float) -> Result | _Query:
    """Look for a violation: proved where there is none (for every size, or up to the bound
    for an invariant that counts cards), unknown where the solver gives up, else the query
    that gave a model."""
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
    if not ob.invariant.bounded and not changed_behind(rulebook, ob):
        # The ladder only: on the official rules no goal needed its last rung here, and where
        # a refutation was found later, the rung spent up to QUICK of fruitless search.
        answer, universe, solver, t, why = solve(rulebook, ob, None, min(QUICK, timeout),
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
        answer, universe, solver, t, why = solve(rulebook, ob, bound, timeout,
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
            answer, universe, solver, t, why = solve(rulebook, ob, None,
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
        # The universe grows: a counterexample may need one more game, card or player than
        # the bound gives (three nested games and the one a restart makes, say).
        grown = bound
        while answer == "unknown" and none_small and grown < bound + GROWTH:
            grown += 1
            tried_bound = size = grown
            seed_of_sat = 0
            answer, universe, solver, t, why = solve(rulebook, ob, grown, timeout,
                                                      encodings=encodings)
            notes.append(f"bounded ({grown}): {why or answer}")
            none_small = answer == "unsat"
            if none_small:
                answer = "unknown"
    if answer != "sat":
        return Result(ob, Status.UNKNOWN, time.perf_counter() - start, bound=tried_bound,
                      reason="; ".join(notes), notes=notes)
    return _Query(universe, solver, t, size, seed_of_sat, tried_bound, notes)


def _refute(rulebook: Rulebook, ob: Obligation, timeout: float, minimise_cex: bool,
            encodings: Encodings, start: float, q: _Query) -> Result:
    """The model read, replayed, minimised and reached: a refutation. One that no trace
    reaches is excluded by its shape (`lemmas.shape_of`) and the same query (same universe,
    same seed) asked again, at most COUNTEREXAMPLES times in all; when none is reached,
    proved with lemmas that are invariants (`_with_lemmas`), or unknown. A model that does
    not replay is a fault, unless it is a state no scenario writes (`_with_records`)."""
    size, seed_of_sat, tried_bound, notes = q.size, q.seed, q.tried_bound, q.notes
    tries: list[str] = []    # why each counterexample so far was not shown
    blocked: list[Shape] = []  # the shapes of those counterexamples, excluded from the next
    assumed: list[Lemma] = []  # lemmas on records (`lemmas.RECORDS`), once one is needed
    left = timeout           # the retries' budget: one timeout in all, each retry charged
    #                          the work z3 did for it (`symbolic.work_done`)
    while True:
        scenario = extract(q.solver.model(), q.universe, q.transition, ob.event)
        replayed = replay(scenario, rulebook, ob.invariant)
        if not replayed.violated and not assumed:
            # A state no scenario can write (a record of an object that does not exist):
            # asked again with the lemmas on records assumed, where they are invariants.
            assumed, answer = _with_records(rulebook, ob, q, blocked, timeout, encodings)
            size = q.size
            if answer == "sat":
                continue
            if answer == "unsat":
                return _proved_with(ob, assumed, time.perf_counter() - start, size, notes)
        if not replayed.violated:
            # The two readings disagree: a fault whatever the next model would be.
            return Result(ob, Status.FAULT, time.perf_counter() - start, bound=tried_bound,
                          reason=f"the solver's counterexample does not replay: "
                          f"{replayed.reason}" + (f"; before it, {_tried(tries)}" if tries else ""),
                          counterexample=scenario, replay=replayed, notes=notes)
        shown = _show(rulebook, ob, scenario, minimise_cex, timeout)
        if isinstance(shown, Result):
            shown.seconds = time.perf_counter() - start
            shown.bound = tried_bound
            shown.notes = notes + ([f"{len(tries)} counterexample(s) before it could not be "
                                    f"reached: {'; '.join(tries)}"] if tries else [])
            if tries:
                shown.reason += (f" (the solver's first {len(tries)} counterexample(s) could "
                                 "not be reached and were excluded)")
            return shown
        why, scenario, replayed, shape = shown
        tries.append(why)
        fault = Result(ob, Status.FAULT, time.perf_counter() - start, bound=tried_bound,
                       counterexample=scenario, replay=replayed, notes=notes)
        if len(tries) >= COUNTEREXAMPLES or shape is None:
            fault.reason = (tries[0] if len(tries) == 1 and shape is not None else
                            f"none of the first {len(tries)} counterexamples is reached: "
                            f"{_tried(tries)}" if shape is not None else
                            "no counterexample is reached, and its situation has no object to "
                            f"exclude: {_tried(tries)}")
            blocked += [shape] if shape is not None else []
            proof = _with_lemmas(rulebook, ob, blocked, assumed, timeout, encodings, fault,
                                 tries)
            return proof or _not_reached(fault, start)
        blocked.append(shape)
        if left <= 0:
            fault.reason = ("no counterexample is reached, and the retries' budget is spent: "
                            + _tried(tries))
            proof = _with_lemmas(rulebook, ob, blocked, assumed, timeout, encodings, fault,
                                 tries)
            return proof or _not_reached(fault, start)
        before = work_done(q.universe.ctx)
        answer, q.universe, q.solver, q.transition, why = solve(
            rulebook, ob, size, left, seed_of_sat, encodings,
            [b.term() for b in blocked] + [a.excluded() for a in assumed])
        left -= (work_done(q.universe.ctx) - before) / RLIMIT_PER_SECOND
        if answer != "sat":
            fault.reason = ("no counterexample is reached, and the solver finds no other "
                            "outside their shapes" if answer == "unsat" else
                            "no counterexample is reached, and the solver gave up looking for "
                            f"another ({why})") + f": {_tried(tries)}"
            proof = _with_lemmas(rulebook, ob, blocked, assumed, timeout, encodings, fault,
                                 tries)
            return proof or _not_reached(fault, start)


def _with_records(rulebook: Rulebook, ob: Obligation, q: _Query, blocked: list[Shape],
                  timeout: float, encodings: Encodings) -> tuple[list[Lemma], str]:
    """The lemmas on records that are invariants (`lemmas.RECORDS`), and the answer to the
    query asked again with them assumed: "sat" (`q` then holds the model), "unsat" only
    where that is a proof (no shape blocked, and in an unbounded universe unless the
    invariant counts cards), else what it was ("unsat-blocked" where shapes were)."""
    assumed = simplest(inductive(rulebook, list(RECORDS), timeout).lemmas)
    if not assumed:
        return [], "none"
    avoid = [b.term() for b in blocked] + [a.excluded() for a in assumed]
    answer, q.universe, q.solver, q.transition, _ = solve(rulebook, ob, q.size, timeout,
                                                          q.seed, encodings, avoid)
    if answer == "unsat" and q.size is not None and not ob.invariant.bounded:
        q.size = None
        answer, q.universe, q.solver, q.transition, _ = solve(rulebook, ob, None, timeout,
                                                              q.seed, encodings, avoid)
    return assumed, ("unsat-blocked" if answer == "unsat" and blocked else answer)


def _proved_with(ob: Obligation, assumed: list[Lemma], seconds: float, size: int | None,
                 notes: list[str]) -> Result:
    """Proved with the lemmas on records (`lemmas.RECORDS`) assumed."""
    return Result(ob, Status.PROVED, seconds, bound=size if ob.invariant.bounded else None,
                  reason=f"proved with {len(assumed)} lemma(s), each an invariant: the "
                  "solver's counterexample to plain induction is a state that no scenario has",
                  notes=notes, lemmas=[a.text for a in assumed])


def _with_lemmas(rulebook: Rulebook, ob: Obligation, shapes: list[Shape], assumed: list[Lemma],
                 timeout: float, encodings: Encodings, fault: Result,
                 tries: list[str]) -> Result | None:
    """The obligation proved with lemmas (`lemmas`): those of the unreached
    counterexamples' shapes and their generalisations, and those `assumed` already, that
    are invariants, assumed before the event; None when none is, or when the query with
    them assumed is not unsat."""
    if not shapes:
        return None
    began = time.perf_counter()
    kept = sorted(simplest(inductive(rulebook, candidates(shapes) + assumed, timeout).lemmas),
                  key=lambda lemma: lemma.text)  # in an order of their own, not z3's
    if not kept:
        fault.reason += "; no lemma that excludes their shapes is an invariant"
        return None
    size = fault.bound if ob.invariant.bounded else None
    answer, *_, why = solve(rulebook, ob, size, timeout, 0, encodings,
                            [lemma.excluded() for lemma in kept])
    if answer != "unsat":
        fault.reason += (f"; with the {len(kept)} lemma(s) that are invariants assumed, the "
                         + ("solver still finds a counterexample" if answer == "sat" else
                            f"solver gives up ({why})"))
        return None
    return Result(ob, Status.PROVED, fault.seconds + time.perf_counter() - began, bound=size,
                  reason=f"proved with {len(kept)} lemma(s), each an invariant (it holds at "
                  "every game's beginning and every event keeps it); the solver's "
                  f"{len(tries)} counterexample(s) to plain induction are situations that no "
                  "game reaches", notes=fault.notes, lemmas=[lemma.text for lemma in kept])


def _not_reached(fault: Result, start: float) -> Result:
    """No counterexample of `prove` was reached, and no lemma proves it: unknown, with what
    was tried."""
    fault.seconds = time.perf_counter() - start
    fault.status = Status.UNKNOWN
    return fault


# The second solver's budget, in timeouts, for an invariant that counts cards: z3 proves it
# in a finite universe with tactics of its own (`symbolic.solver_for`), and cvc5, given the
# same one timeout, ran out of it on the official rules' `restart.short-library-loses` (a
# universe of 9, the restart carrying the procedure's stages); with two, it confirms it.
CONFIRM_COUNTING = 2

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
          timeout: float,
          ) -> Result | tuple[str, Scenario, Replay, Shape | None]:
    """A counterexample that replays, minimised and reached: a refutation; or why it cannot
    be shown, the scenario tried and its replay, and the shape to exclude from the next
    (`_block`)."""
    if minimise_cex:
        scenario = minimise(scenario, rulebook, ob.invariant)
    scenario = _named(canonical(scenario), ob)
    found = _reached(rulebook, scenario, breaks_invariant(ob.invariant), timeout)
    if isinstance(found, Failure) and not minimise_cex:
        # A situation with less in it is easier to reach.
        scenario = _named(canonical(minimise(scenario, rulebook, ob.invariant)), ob)
        found = _reached(rulebook, scenario, breaks_invariant(ob.invariant), timeout)
    replayed = replay(scenario, rulebook, ob.invariant)
    if isinstance(found, Failure):
        return (found.reason, scenario, replayed,
                found.excluded or shape_of(scenario, found.objects, found.step))
    shown, trace = found
    replayed = replay(shown, rulebook, ob.invariant, reached=True)
    if not replayed.violated:
        why = f"the reached situation does not replay: {replayed.reason}"
        return why, shown, replayed, shape_of(scenario, (), "")
    return Result(ob, Status.REFUTED, 0.0,
                  reason="the counterexample replays on the concrete interpreter, reached "
                  f"from a game's beginning in {len(trace.events) - 1} events",
                  counterexample=shown, replay=replayed, trace=trace)


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
    excluded: Shape | None = None  # the most general shape a lemma excludes, if one does


def _reached(rulebook: Rulebook, scenario: Scenario, goal: Goal, timeout: float | None = None,
             searching: bool = True) -> tuple[Scenario, Scenario] | Failure:
    """The counterexample as the situation a reaching trace leads to (legal, reached) with
    its event, and the trace; or why there is none. Where the recipe knows no way to the
    very situation (or its way does not replay), and a lemma that excludes its shape is an
    invariant (given `timeout`, `lemmas.inductive`), no game reaches it and none is searched
    for; else the search (`reach.search_way`) looks for another situation that breaks it."""
    failure: Failure | None = None
    try:
        found: Reached | None = reach(scenario, rulebook, goal, searching=False)
    except Unreachable as err:
        found, failure = None, Failure("the counterexample replays, but no reaching trace "
                                       f"leads to it from a game's beginning: {err}",
                                       err.objects, err.step)
    if found is not None:
        problem = replay_reached(found.scenario, rulebook, goal)
        if problem is not None:
            found, failure = None, Failure(f"the reaching trace does not replay: {problem}")
    if found is None and failure is not None and searching:
        # No way by the recipe: a lemma may show that no game gets there; else, a search.
        shape = shape_of(scenario, failure.objects, failure.step)
        if timeout is not None and shape is not None:
            excluded = inductive(rulebook, candidates([shape]), timeout).lemmas
            if excluded:
                failure.reason += f"; a lemma excludes it ({excluded[-1].text})"
                failure.excluded = excluded[-1].shape
                return failure
        found = search_way(scenario, rulebook, goal)
        if found is None:
            failure.reason += (f"; and no run of up to {DEPTH} events from the game's "
                               f"beginning reaches a situation where it breaks")
            return failure
        if replay_reached(found.scenario, rulebook, goal) is not None:
            return failure
    if found is None:
        assert failure is not None
        return failure
    reached = found
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
    state, last, allowed = way.situation, len(way.events), frozenset[str]()
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
        kept = still_legal(allowed, after, event.kind not in IN_GAME_ACTIONS)
        if kept is None:
            goal, stopped = _stops, f"{on_the_way} leaves a situation that is not legal: " \
                f"{catalog_problems(after)[0]}"
            break
        state, allowed = after, kept
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
    return bool(catalog_problems(after)) and \
        still_legal(violations(before), after, event.kind not in IN_GAME_ACTIONS) is None


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
            from shahrazad.proofs.solving.confirm import confirm
            budget = timeout * (CONFIRM_COUNTING if ob.invariant.bounded else 1)
            result = confirm(result, list(encodings.evidence or []), budget, second)
        results.append(result)
    return results
