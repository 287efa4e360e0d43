"""Does a change of the rules change what happens? Two rulebooks, one event, one question.

Both rulebooks' transitions of the event are encoded in one universe, sharing the situation
before the event, the event's parameters and its random choices. z3 is asked for a
situation (every structure invariant holding) where the two situations after the event
differ in some attribute of some element (`invariants.lang.ATTRIBUTES`, one attribute at a
time, those whose arrays the two transitions made alike left out; what a thing that does
not exist would have means nothing, as in `conformance`).

* **differs**: the situation found, extracted as a scenario and replayed: under every
  random outcome, the interpreter reaches different situations under the two rulebooks.
* **same**: no situation tells them apart, up to the bound or, when the unbounded query is
  decided too, for every size. The order within a zone is not part of the model's state,
  so a change of order alone is "same" here; `protection` says so where it matters.
* **unknown**: the solver could not decide, or its situation did not replay.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import z3
from shahrazad.invariants.lang import ATTRIBUTES
from shahrazad.model.choices import Chooser, enumerate_outcomes
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.scenario import Scenario, situation_data
from shahrazad.model.state import Situation
from shahrazad.proofs.encoding.encode import encode_event
from shahrazad.proofs.encoding.encoder import Transition
from shahrazad.proofs.encoding.symbolic import RLIMIT_PER_SECOND, SymState, Universe, budget, work_done
from shahrazad.proofs.evidence.counterexample import extract, shrink
from shahrazad.proofs.solving.queries import structure_hypotheses

BOUND = 4


@dataclass
class Difference:
    """`status` is "differs", "same" or "unknown"; `scenario` is the replayed situation
    where they differ; `detail` says how far "same" goes, or why it is unknown."""

    status: str
    detail: str = ""
    scenario: Scenario | None = None


def _cells_differ(u: Universe, a: SymState, b: SymState) -> Iterator[tuple[str, Any]]:
    """For each attribute, "some element's value of it differs between two situations after
    the event", made as it is asked for, and none where both transitions made the same array
    (its values cannot differ): the situations differ iff one of these holds."""
    for attribute, (arg_sorts, _) in ATTRIBUTES.items():
        if attribute == "library_size" or a.arrays[attribute].eq(b.arrays[attribute]):
            continue  # library_size: a count of the objects, whose other attributes are asked
        args = [u.const(f"{s}!diff{i}", s) for i, s in enumerate(arg_sorts)]
        differ = a.get(attribute, *args) != b.get(attribute, *args)
        if arg_sorts == ("obj",) and attribute != "exists":
            differ = z3.And(z3.Or(a.get("exists", args[0]), b.get("exists", args[0])), differ)
        elif attribute == "trigger_controller":
            differ = z3.And(a.get("waiting", *args), differ)
        yield attribute, u.exists(args, differ)


def _transitions(u: Universe, a: Rulebook, b: Rulebook, event: str) -> tuple[Transition,
                                                                             Transition]:
    """Both transitions in `u`; the second reuses the first's names for its random choices
    (a fresh name is a serial number of the universe), so that both share them, and for the
    new objects its steps make (`Universe.maker`)."""
    serial, made = u.serial, u.made
    ta = encode_event(a, event, u)
    u.serial, u.made = serial, made
    tb = encode_event(b, event, u)
    return ta, tb


def _query(a: Rulebook, b: Rulebook, event: str, bound: int | None,
           timeout: float) -> tuple[str, z3.Solver, Universe, Transition, str]:
    """Is there a situation where the event ends differently? Asked attribute by attribute
    (`_cells_differ`), each behind its literal in one solver holding the structure
    hypotheses and both transitions, until one differs: "sat" (the solver holding the
    model), "unsat" (none can), or "unknown" with the solver's reason. The attributes share
    one `timeout` of z3's work (`symbolic.work_done`), so that the answer is the same on
    every run.

    One question per attribute, not their disjunction: of `2011-713.2-controller-takes-
    ownership`'s restart, the disjunction took z3 13 million units (0.78 s) and asserting it
    0.27 s; the attributes one by one, 0.1 s of checks (0.37 s with the encoding) until the
    fourth, `zone_player`, differs."""
    u = Universe(bound)
    ta, tb = _transitions(u, a, b, event)
    solver = z3.Solver(ctx=u.ctx)
    solver.add(*(formula for _, _, formula in structure_hypotheses(u)), *ta.constraints,
               *tb.constraints)
    answer, reason, left = "unsat", "", timeout
    for attribute, differ in _cells_differ(u, ta.post, tb.post):
        if left <= 0:
            return "unknown", solver, u, ta, reason or "the budget is spent"
        literal = z3.Bool(f"differs!{attribute}", u.ctx)
        solver.add(z3.Implies(literal, differ))
        budget(solver, left)
        before = work_done(u.ctx)
        found = str(solver.check(literal))
        left -= (work_done(u.ctx) - before) / RLIMIT_PER_SECOND
        if found == "sat":
            return "sat", solver, u, ta, ""
        if found == "unknown":
            answer, reason = "unknown", f"{attribute}: {solver.reason_unknown()}"
    return answer, solver, u, ta, reason


def _reached(rulebook: Rulebook, scenario: Scenario, limit: int = 2000) -> set[str] | None:
    """Every situation the scenario's event can reach (a zone's order aside), or None when
    there are more than `limit` outcomes."""
    def run(chooser: Chooser) -> Any:
        try:
            return Interpreter(rulebook, chooser).run(scenario.situation, scenario.events)
        except IllegalEvent:
            return "refused"

    out: set[str] = set()
    try:
        for outcome in enumerate_outcomes(run, limit=limit):
            if isinstance(outcome, str):
                out.add(outcome)
                continue
            out.add(outcome_key(outcome.situation))
    except OverflowError:
        return None
    return out


def outcome_key(situation: Situation) -> str:
    """The situation as a string that two outcomes share exactly when the model sees them
    as the same: the order within a zone aside, and how many names were made (no rule's
    business)."""
    data = situation_data(situation)
    data.pop("id-serial", None)
    # Where each game's start (rule 103) stands, for a game not simply past it: a scenario
    # has no place for it (every game it holds is past its start), the model's state does.
    procedure = {g.id: [g.stage, g.out_of_order, g.instructions_at]
                 for g in situation.games.values()
                 if (g.stage, g.out_of_order, g.instructions_at) != ("first-turn", False, None)}
    if procedure:
        data["procedure"] = procedure
    return json.dumps(_unordered(data), sort_keys=True)


def _unordered(data: Any) -> Any:
    """The situation's data with every list sorted: the order within a zone aside."""
    if isinstance(data, dict):
        return {k: _unordered(v) for k, v in data.items()}
    if isinstance(data, list):
        items = [_unordered(v) for v in data]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    return data


def _differs(a: Rulebook, b: Rulebook, scenario: Scenario) -> bool:
    seen_a, seen_b = _reached(a, scenario), _reached(b, scenario)
    return seen_a is not None and seen_b is not None and seen_a != seen_b


def difference(a: Rulebook, b: Rulebook, event: str, timeout: float = 10.0,
               bound: int = BOUND) -> Difference:
    """Does `event` ever end differently under `a` and under `b`?"""
    answer, solver, u, ta, reason = _query(a, b, event, bound, timeout)
    if answer == "sat":
        scenario = extract(solver.model(), u, ta, event)
        if _differs(a, b, scenario):
            scenario = shrink(scenario, lambda s: _differs(a, b, s))
            scenario.title = f"{event} ends differently under the two rulebooks"
            return Difference("differs", "a situation where the event ends differently",
                              scenario)
        return Difference("unknown", "the solver's situation does not replay as a difference")
    if answer == "unknown":
        return Difference("unknown", f"bounded: {reason}")
    answer, _, _, _, _ = _query(a, b, event, None, timeout)
    if answer == "unsat":
        return Difference("same", "for every number of cards, players and games")
    return Difference("same", f"up to {bound} of each (unbounded: {answer})")
