"""Does a change of the rules change what happens? Two rulebooks, one event, one question.

Both rulebooks' transitions of the event are encoded in one universe, sharing the situation
before the event, the event's parameters and its random choices. z3 is asked for a
situation (every structure invariant holding) where the two situations after the event
differ in some attribute of some element (`invariants.lang.ATTRIBUTES`; what a thing that
does not exist would have means nothing, as in `conformance`).

* **differs**: the situation found, extracted as a scenario and replayed: under every
  random outcome, the interpreter reaches different situations under the two rulebooks.
* **same**: no situation tells them apart, up to the bound or, when the unbounded query is
  decided too, for every size. The order within a zone is not part of the model's state,
  so a change of order alone is "same" here; `protection` says so where it matters.
* **unknown**: the solver could not decide, or its situation did not replay.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import z3
from shahrazad.invariants.catalog import structure_terms
from shahrazad.invariants.lang import ATTRIBUTES, pre
from shahrazad.model.choices import Chooser, enumerate_outcomes
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.scenario import Scenario, situation_data
from shahrazad.model.state import Situation

from .counterexample import extract, shrink
from .encode import Transition, encode_event
from .symbolic import SymState, TermEncoder, Universe, budget

BOUND = 4


@dataclass
class Difference:
    """`status` is "differs", "same" or "unknown"; `scenario` is the replayed situation
    where they differ; `detail` says how far "same" goes, or why it is unknown."""

    status: str
    detail: str = ""
    scenario: Scenario | None = None


def _cells_differ(u: Universe, a: SymState, b: SymState) -> Any:
    """Some attribute of some element differs between two situations after the event."""
    o = u.const("o!diff", "obj")
    parts = [u.exists([o], a.get("exists", o) != b.get("exists", o))]
    for attribute, (arg_sorts, _) in ATTRIBUTES.items():
        if attribute in ("exists", "library_size"):  # library_size: a count of the objects
            continue
        args = [u.const(f"{s}!diff{i}", s) for i, s in enumerate(arg_sorts)]
        differ = a.get(attribute, *args) != b.get(attribute, *args)
        if arg_sorts == ("obj",):
            differ = z3.And(z3.Or(a.get("exists", args[0]), b.get("exists", args[0])), differ)
        elif attribute == "trigger_controller":
            differ = z3.And(a.get("waiting", *args), differ)
        parts.append(u.exists(args, differ))
    return z3.Or(*parts)


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
           timeout: float) -> tuple[str, z3.Solver, Universe, Transition]:
    u = Universe(bound)
    ta, tb = _transitions(u, a, b, event)
    enc = TermEncoder(u, ta.pre, ta.post, ta.binding)
    solver = z3.Solver(ctx=u.ctx)
    budget(solver, timeout)
    solver.add(*(enc.encode(h) for h in structure_terms(pre)), *ta.constraints,
               *tb.constraints, _cells_differ(u, ta.post, tb.post))
    return str(solver.check()), solver, u, ta


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
    answer, solver, u, ta = _query(a, b, event, bound, timeout)
    if answer == "sat":
        scenario = extract(solver.model(), u, ta, event)
        if _differs(a, b, scenario):
            scenario = shrink(scenario, lambda s: _differs(a, b, s))
            scenario.title = f"{event} ends differently under the two rulebooks"
            return Difference("differs", "a situation where the event ends differently",
                              scenario)
        return Difference("unknown", "the solver's situation does not replay as a difference")
    if answer == "unknown":
        return Difference("unknown", f"bounded: {solver.reason_unknown()}")
    answer, solver, _, _ = _query(a, b, event, None, timeout)
    if answer == "unsat":
        return Difference("same", "for every number of cards, players and games")
    return Difference("same", f"up to {bound} of each (unbounded: {answer})")
