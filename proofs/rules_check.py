"""Checks on the rules themselves, each finding with a replayed scenario.

* **dead clauses**: every clause must act in some valid situation (a step that selects
  something, or a game step of an event that can happen). A permission or prohibition acts
  through the event that consults it: the `possible.*` and structure obligations of
  `shahrazad verify` check those.
* **vacuous invariants**: an invariant `∀x. premise → conclusion` proves nothing if the
  premise can never hold; each premise must hold in some transition.
* **fates**: at the end of a subgame and at a restart, every card of the game that ends
  must have a destination (no gap). The state of the model is functional, so no object can
  have two places at once (no conflict) by construction; what can happen is a card with no
  destination, which then ceases to exist.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from invariants.catalog import EVENT, Invariant, structure_terms
from invariants.concrete import Evaluator
from invariants.lang import Term, exists, forall, implies, obj, post, pre
from model.errors import IllegalEvent
from model.interpreter import Interpreter
from model.rulebook import Rulebook
from model.scenario import Scenario

from .counterexample import binding_of, extract
from .encode import Transition, encode_event
from .symbolic import TermEncoder, Universe
from .verify import Obligation, Status, prove

o = obj("o")

FATE: list[Invariant] = [
    Invariant("fate.end-subgame", "Every card in the ending subgame has a destination: none "
              "ceases to exist.", ("subgame.end.return-cards", "subgame.end.supplementary-cards",
                                   "subgame.end.vanguard", "subgame.end.commander"),
              ("end-subgame",), forall(o, implies(pre.is_card(o), post.is_card(o)))),
    Invariant("fate.restart", "Every card of the restarted game has a destination in the new "
              "game: none ceases to exist.", ("restart.cards-involved",), ("restart",),
              forall(o, implies(pre.is_card(o), post.is_card(o)))),
]


@dataclass
class Finding:
    check: str        # "dead clause", "vacuous invariant", "fate"
    subject: str      # the clause or invariant
    status: str       # "ok", "finding", "unknown", "fault"
    detail: str
    scenario: Scenario | None = None


def _background(universe: Universe, rulebook: Rulebook,
                event: str) -> tuple[z3.Solver, Transition, TermEncoder]:
    t = encode_event(rulebook, event, universe)
    enc = TermEncoder(universe, t.pre, t.post, t.binding)
    solver = z3.Solver(ctx=universe.ctx)
    solver.add(*(enc.encode(h) for h in structure_terms(pre)), *t.constraints)
    return solver, t, enc


def dead_clauses(rulebook: Rulebook, timeout: float = 5.0, bound: int = 3) -> list[Finding]:
    out: list[Finding] = []
    for clause in rulebook:
        universe = Universe(bound)
        solver, t, _ = _background(universe, rulebook, clause.on)
        solver.set(timeout=int(timeout * 1000))
        fires = t.fires.get(clause.name, [])
        if all(z3.is_false(z3.simplify(f)) for f in fires):
            out.append(Finding("dead clause", clause.name, "ok",
                               "acts through the events that consult it (see possible.*)"))
            continue
        solver.add(z3.Or(*fires))
        answer = str(solver.check())
        if answer != "sat":
            out.append(Finding("dead clause", clause.name,
                               "finding" if answer == "unsat" else "unknown",
                               f"no situation up to {bound} of each makes it act ({answer})"))
            continue
        witness = extract(solver.model(), universe, t, clause.on)
        try:
            outcome = Interpreter(rulebook).run(witness.situation, witness.events)
        except IllegalEvent as err:
            out.append(Finding("dead clause", clause.name, "fault",
                               f"the witness does not replay: {err}", witness))
            continue
        acted = any(step.clause == clause.name for step in outcome.trace)
        out.append(Finding("dead clause", clause.name, "ok" if acted else "fault",
                           "acts in a witness situation" if acted else
                           "the witness does not show the clause acting", witness))
    return out


def _premise(term: Term) -> Term | None:
    if term.op == "forall" and term.args[1].op == "implies":
        return exists(term.args[0], term.args[1].args[0])
    if term.op == "implies":
        premise: Term = term.args[0]
        return premise
    return None


def vacuity(rulebook: Rulebook, timeout: float = 5.0, bound: int = 3) -> list[Finding]:
    out: list[Finding] = []
    for inv in EVENT:
        premise = _premise(inv.term)
        if premise is None:
            out.append(Finding("vacuous invariant", inv.id, "ok", "no premise"))
            continue
        event = inv.events[0]
        universe = Universe(bound)
        solver, t, enc = _background(universe, rulebook, event)
        solver.set(timeout=int(timeout * 1000))
        solver.add(enc.encode(premise))
        answer = str(solver.check())
        if answer != "sat":
            out.append(Finding("vacuous invariant", inv.id,
                               "finding" if answer == "unsat" else "unknown",
                               f"its premise holds in no situation up to {bound} of each"))
            continue
        witness = extract(solver.model(), universe, t, event)
        try:
            outcome = Interpreter(rulebook).run(witness.situation, witness.events)
        except IllegalEvent as err:
            out.append(Finding("vacuous invariant", inv.id, "fault",
                               f"the witness does not replay: {err}", witness))
            continue
        holds = Evaluator(witness.situation, outcome.situation, binding_of(outcome)).holds(premise)
        out.append(Finding("vacuous invariant", inv.id, "ok" if holds else "fault",
                           "its premise holds in a witness situation" if holds else
                           "the witness does not make the premise true", witness))
    return out


def fates(rulebook: Rulebook, timeout: float = 5.0) -> list[Finding]:
    out: list[Finding] = []
    for inv in FATE:
        result = prove(rulebook, Obligation(inv, inv.events[0]), timeout=timeout)
        status = {Status.PROVED: "ok", Status.REFUTED: "finding", Status.UNKNOWN: "unknown",
                  Status.FAULT: "fault"}[result.status]
        detail = ("every card has a destination" if status == "ok" else
                  "a card has no destination and ceases to exist" if status == "finding"
                  else result.reason)
        out.append(Finding("fate", inv.id, status, detail, result.counterexample))
    return out


def check_rules(rulebook: Rulebook, timeout: float = 5.0) -> list[Finding]:
    return dead_clauses(rulebook, timeout) + vacuity(rulebook, timeout) + fates(rulebook, timeout)
