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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3
from shahrazad.invariants.catalog import EVENT, Invariant
from shahrazad.invariants.concrete import Evaluator
from shahrazad.invariants.lang import Term, exists, forall, implies, obj, post, pre
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.interpreter import Interpreter, Outcome
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.scenario import Scenario
from shahrazad.proofs.encoding.encode import encode_event
from shahrazad.proofs.encoding.encoder import Transition
from shahrazad.proofs.encoding.symbolic import TermEncoder, Universe
from shahrazad.proofs.evidence.counterexample import binding_of, extract
from shahrazad.proofs.solving.obligations import Obligation, Status
from shahrazad.proofs.solving.queries import event_solver
from shahrazad.proofs.verdicts.prove import prove

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
    """What one check found on one subject: `check` is "contradiction", "dead clause", "vacuous
    invariant" or "fate"; `subject` names the clause or invariant; `status` is "ok",
    "finding", "unknown" or "fault" (a witness that does not replay); `detail` says it in
    words; `scenario` is the witness situation or the counterexample, where there is one."""

    check: str        # "contradiction", "dead clause", "vacuous invariant", "fate"
    subject: str      # the clause or invariant
    status: str       # "ok", "finding", "unknown", "fault"
    detail: str
    scenario: Scenario | None = None


Condition = Callable[[Transition, TermEncoder], Any]


def _witness(rulebook: Rulebook, event: str, condition: Condition, timeout: float,
             bound: int) -> tuple[str, Scenario | None, Outcome | str | None]:
    """A situation (structure holding) where the event happens with `condition` true: the
    solver's answer, the witness as a scenario, and its replay (or why it was refused)."""
    universe = Universe(bound)
    solver, t, enc = event_solver(universe, rulebook, event, timeout)
    solver.add(condition(t, enc))
    answer = str(solver.check())
    if answer != "sat":
        return answer, None, None
    witness = extract(solver.model(), universe, t, event)
    try:
        return answer, witness, Interpreter(rulebook).run(witness.situation, witness.events)
    except IllegalEvent as err:
        return answer, witness, str(err)


def _judge(check: str, subject: str, answer: str, witness: Scenario | None,
           replayed: Outcome | str | None, shows: Callable[[Outcome], bool], bound: int,
           none: str, good: str, bad: str) -> Finding:
    if answer != "sat":
        return Finding(check, subject, "finding" if answer == "unsat" else "unknown",
                       f"{none} up to {bound} of each ({answer})")
    if isinstance(replayed, str) or replayed is None:
        return Finding(check, subject, "fault", f"the witness does not replay: {replayed}",
                       witness)
    ok = shows(replayed)
    return Finding(check, subject, "ok" if ok else "fault", good if ok else bad, witness)


def _fires(name: str) -> Condition:
    return lambda t, enc: z3.Or(*t.fires.get(name, []))


def _acted(name: str) -> Callable[[Outcome], bool]:
    return lambda outcome: any(step.clause == name for step in outcome.trace)


def _holds_term(term: Term) -> Condition:
    return lambda t, enc: enc.encode(term)


def _shows(term: Term, witness: Scenario | None) -> Callable[[Outcome], bool]:
    def holds(outcome: Outcome) -> bool:
        assert witness is not None
        return Evaluator(witness.situation, outcome.situation, binding_of(outcome)).holds(term)
    return holds


Tick = Callable[[Finding], None]  # called with each finding as it is made (progress)


def _silent(_: Finding) -> None:
    return None


def dead_clauses(rulebook: Rulebook, timeout: float = 5.0, bound: int = 3,
                 tick: Tick = _silent) -> list[Finding]:
    """Each clause must act in some valid situation (up to `bound` of each sort): a witness
    where one of its steps fires, replayed by the interpreter with the clause in its trace. A
    clause whose steps never fire by themselves (a permission or prohibition) is ok here: it
    acts through the events that consult it."""
    out: list[Finding] = []
    for clause in rulebook:
        probe = encode_event(rulebook, clause.on, Universe(bound))
        if all(z3.is_false(z3.simplify(f)) for f in probe.fires.get(clause.name, [])):
            out.append(Finding("dead clause", clause.name, "ok",
                               "acts through the events that consult it (see possible.*)"))
            tick(out[-1])
            continue
        name = clause.name
        answer, witness, replayed = _witness(rulebook, clause.on, _fires(name), timeout, bound)
        out.append(_judge("dead clause", name, answer, witness, replayed, _acted(name), bound,
                          "no situation makes it act", "acts in a witness situation",
                          "the witness does not show the clause acting"))
        tick(out[-1])
    return out


def _premise(term: Term) -> Term | None:
    if term.op == "forall" and term.args[1].op == "implies":
        return exists(term.args[0], term.args[1].args[0])
    if term.op == "implies":
        premise: Term = term.args[0]
        return premise
    return None


def vacuity(rulebook: Rulebook, timeout: float = 5.0, bound: int = 3,
            tick: Tick = _silent) -> list[Finding]:
    """Each event invariant's premise (the `premise` of `∀x. premise → conclusion`, or of an
    implication) must hold in some transition of its first event (up to `bound` of each sort),
    in a witness where the concrete reading finds it true; an invariant with no premise is ok."""
    out: list[Finding] = []
    for inv in EVENT:
        premise = _premise(inv.term)
        if premise is None:
            out.append(Finding("vacuous invariant", inv.id, "ok", "no premise"))
            tick(out[-1])
            continue
        answer, witness, replayed = _witness(rulebook, inv.events[0], _holds_term(premise),
                                             timeout, bound)
        out.append(_judge("vacuous invariant", inv.id, answer, witness, replayed,
                          _shows(premise, witness), bound,
                          "its premise holds in no situation",
                          "its premise holds in a witness situation",
                          "the witness does not make the premise true"))
        tick(out[-1])
    return out


def fates(rulebook: Rulebook, timeout: float = 5.0, tick: Tick = _silent) -> list[Finding]:
    """At the end of a subgame (728.5) and at a restart (726.2), no card may cease to exist:
    every card before the event is a card after it, proved for every size or refuted with a
    counterexample."""
    out: list[Finding] = []
    for inv in FATE:
        result = prove(rulebook, Obligation(inv, inv.events[0]), timeout=timeout)
        status = {Status.PROVED: "ok", Status.REFUTED: "finding", Status.UNKNOWN: "unknown",
                  Status.FAULT: "fault"}[result.status]
        detail = ("every card has a destination" if status == "ok" else
                  "a card has no destination and ceases to exist" if status == "finding"
                  else result.reason)
        out.append(Finding("fate", inv.id, status, detail, result.counterexample))
        tick(out[-1])
    return out


def contradictions(rulebook: Rulebook) -> list[Finding]:
    """A permission that a prohibition on the same event withholds: the permitting clause
    can never apply (CR 101.2, "can't" beats "can"), and the rules contradict themselves."""
    return [Finding("contradiction", permit.name, "finding",
                    f"{permit.name} permits {what!r} and {forbid.name} forbids it on "
                    f"{permit.on}: the prohibition wins (CR 101.2), so {permit.name} never "
                    "applies") for permit, forbid, what in rulebook.contradictions()]


def check_rules(rulebook: Rulebook, timeout: float = 5.0,
                progress: Callable[[int, int, Finding], None] | None = None) -> list[Finding]:
    """Every check on the rules: contradictions, dead clauses, vacuous invariants and fates,
    in that order; `progress(done, total, finding)` as each of the last three is made."""
    total = len(rulebook) + len(EVENT) + len(FATE)
    done: list[Finding] = []

    def tick(finding: Finding) -> None:
        done.append(finding)
        if progress is not None:
            progress(len(done), total, finding)

    return (contradictions(rulebook) + dead_clauses(rulebook, timeout, tick=tick) +
            vacuity(rulebook, timeout, tick=tick) + fates(rulebook, timeout, tick=tick))
