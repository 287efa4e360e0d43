"""Transition conformance: the encoding *is* the interpreter, one concrete step at a time.

The agreement of the two readings on the invariants (`agreement.check`) sees only what the
invariants look at; an encoder that drifts anywhere else goes unseen. Conformance looks at
everything: for a concrete step (the situation before, the event, the random choices, the
situation after), z3 is asked

1. whether the pair satisfies the event's transition relation: some symbolic run from the
   pinned pre-state, with the same parameters and choices, ends in exactly the concrete
   post-state, every attribute of every element (`invariants.lang.ATTRIBUTES`); and
2. whether any other post-state does: a run that ends elsewhere.

The names the event makes (a new game, a new trigger, a created token) take spare elements
of the universe; which spare takes which name does not matter, so "exactly the post-state"
means: for some assignment of the new names to spare elements. The one representation
difference allowed is order within a zone, which the symbolic state does not have.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import z3
from shahrazad.invariants.lang import ATTRIBUTES
from shahrazad.model.events import Event
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.state import Situation
from shahrazad.proofs.encoding.symbolic import RLIMIT_PER_SECOND, work_done

from .agreement import Pinned, _cells, _elements, concrete_value, pin, pin_refused


@dataclass(frozen=True)
class Mismatch:
    """Where the encoding and the interpreter part: `kind` is "no-run" (the concrete
    post-state is no symbolic run's), "other-run" (another post-state is one), with the
    first cells that differ, or "refused-run" (the interpreter refuses the event and a
    symbolic run takes it)."""

    event: str
    kind: str
    cells: tuple[str, ...]

    def __str__(self) -> str:
        what = {"no-run": "no symbolic run ends in the interpreter's situation",
                "other-run": "a symbolic run ends in another situation",
                "refused-run": "the interpreter refuses the event, and a symbolic run "
                               "takes it"}[self.kind]
        return f"{self.event}: {what}: {', '.join(self.cells) or '(no cell named)'}"


def conform(rulebook: Rulebook, situation: Situation, event: Event,
            timeout: float = 20.0) -> list[Mismatch]:
    """The ways the symbolic transition of `event` differs from the interpreter's step on
    `situation` (empty: they are the same relation on this step)."""
    pinned = pin(rulebook, situation, event, timeout)
    solver = pinned.solver
    options = [_equalities(pinned, assignment) for assignment in _assignments(pinned)]
    matches = z3.Or(*[z3.And(*[eq for _, eq in eqs]) for eqs in options])
    # One assignment of the new names at a time: the disjunction of them all is harder for
    # the solver than each on its own (it can answer "unknown" where each is "sat").
    # Where the solver gives up on the whole of an assignment at once, adding its cells one
    # by one (incrementally) decides it.
    answers, reason = [], ""
    for eqs in options:
        solver.push()
        solver.add(*[eq for _, eq in eqs])
        answers.append(str(solver.check()))
        reason = solver.reason_unknown()
        solver.pop()
        if answers[-1] == "sat":
            break
    # The fallback's budget, all assignments: z3's work, never the time it takes (under
    # load, a wall-clock deadline made a step undecided in one run and not in another).
    spend = _Spend(solver.ctx, timeout)
    for index, answer in enumerate(answers):
        if answer == "unknown" and "sat" not in answers:
            answers[index], _ = _incremental(solver, options[index], most=1, spend=spend)
    if "sat" not in answers:
        if "unknown" in answers:
            return [Mismatch(event.kind, "no-run", (f"undecided: {reason}",))]
        cells = _incremental(solver, options[0], spend=_Spend(solver.ctx, timeout))[1]
        return [Mismatch(event.kind, "no-run", tuple(cells))]
    solver.push()
    solver.add(z3.Not(matches))
    answer = str(solver.check())
    found: list[Mismatch] = []
    if answer == "sat":
        model = solver.model()
        cells = [name for name, eq in options[0]
                 if z3.is_false(model.eval(eq, model_completion=True))]
        found.append(Mismatch(event.kind, "other-run", tuple(cells[:8])))
    elif answer == "unknown":
        found.append(Mismatch(event.kind, "other-run",
                              (f"undecided: {solver.reason_unknown()}",)))
    solver.pop()
    return found


def conform_refusal(rulebook: Rulebook, situation: Situation, event: Event,
                    timeout: float = 20.0) -> list[Mismatch]:
    """The interpreter refuses `event` on `situation`; the transition relation must admit
    no run from it either, whatever the interpreter would have chosen. Empty when it
    admits none, or when the event names something the situation does not have (the
    encoding cannot name it; the reader refuses such an event before either reading)."""
    pinned = pin_refused(rulebook, situation, event, timeout)
    if pinned is None:
        return []
    answer = str(pinned.solver.check())
    if answer == "unsat":
        return []
    if answer == "unknown":
        return [Mismatch(event.kind, "refused-run",
                         (f"undecided: {pinned.solver.reason_unknown()}",))]
    return [Mismatch(event.kind, "refused-run", ())]


def _assignments(pinned: Pinned) -> list[dict[str, dict[str, Any]]]:
    """Every way of giving the new names spare elements, one name per element."""
    per_sort = []
    for sort, names in pinned.new_names.items():
        spares = pinned.spares[sort]
        per_sort.append([(sort, dict(zip(names, chosen, strict=True)))
                         for chosen in itertools.permutations(spares, len(names))])
    return [dict(combo) for combo in itertools.product(*per_sort)]


def _equalities(pinned: Pinned, assignment: dict[str, dict[str, Any]]) -> list[tuple[str, Any]]:
    """Each cell of the symbolic post-state equal to the concrete post-state's, under an
    assignment of the new names: (a readable name of the cell, the equality)."""
    element = {sort: dict(names) for sort, names in pinned.element.items()}
    for sort, mapping in assignment.items():
        # A spare element that a new name takes is that name's, no longer a spare.
        for name, e in list(element[sort].items()):
            if name.startswith("<spare") and any(e.eq(x) for x in mapping.values()):
                del element[sort][name]
        element[sort].update(mapping)
    post, t = pinned.post, pinned.transition
    out: list[tuple[str, Any]] = []
    for attribute, args, sort in _cells(element):
        if _dont_care(post, attribute, args):
            continue
        expected = concrete_value(post, attribute, args)
        if sort in ("obj", "player", "game"):
            z = element[sort].get(expected)
        else:
            z = pinned.value(sort, expected)
        if z is None:
            continue
        out.append((f"{attribute}({', '.join(args)}) = {expected}",
                    t.post.get(attribute, *_elements(element, attribute, args)) == z))
    return out


def _dont_care(post: Situation, attribute: str, args: list[str]) -> bool:
    """The attributes of an object that does not exist (it ceased, or never was) mean
    nothing: only that it does not exist is part of the state. Nor does the controller of
    a trigger that does not wait."""
    if attribute == "trigger_controller":  # means something only while a trigger waits
        game = post.games.get(args[0])
        return game is None or all(t.id != args[1] for t in game.pending_triggers)
    return (attribute != "exists" and ATTRIBUTES[attribute][0] == ("obj",)
            and args[0] not in post.objects)


class _Spend:
    """A budget of z3's work in one context, worth `seconds` (`symbolic.budget`), counted
    from now."""

    def __init__(self, ctx: z3.Context, seconds: float) -> None:
        self.ctx = ctx
        self.limit = work_done(ctx) + int(seconds * RLIMIT_PER_SECOND)

    def spent(self) -> bool:
        return work_done(self.ctx) > self.limit


def _incremental(solver: z3.Solver, eqs: list[tuple[str, Any]], most: int = 8,
                 spend: _Spend | None = None) -> tuple[str, list[str]]:
    """Add the cells one by one, checking each time: "sat" when all of them together have a
    run, else "unsat" with the first cells that, added, leave no run (at most `most`; a
    cell that leaves none is set aside and the rest are tried), or "unknown" (also when
    the work of `spend` is spent first)."""
    solver.push()
    blocking: list[str] = []
    answer = "sat"
    for name, eq in eqs:
        if spend is not None and spend.spent():
            answer = "unknown" if answer == "sat" else answer
            break
        solver.push()
        solver.add(eq)
        step = str(solver.check())
        if step == "sat":
            solver.pop()
            solver.add(eq)
            continue
        solver.pop()
        if step == "unknown":
            answer = "unknown" if answer == "sat" else answer
            continue
        answer = "unsat"
        blocking.append(name)
        if len(blocking) >= most:
            break
    solver.pop()
    return answer, blocking


def exhaustive(rulebook: Rulebook, players: int, cards: int, depth: int,
               timeout: float = 20.0) -> tuple[int, int, list[tuple[str, Mismatch]]]:
    """Every situation of this size (`proofs.evidence.explicit.situations`) and every event of
    `proofs.evidence.explicit.events`: the steps the interpreter takes must conform (`conform`), and
    those it refuses must admit no symbolic run (`conform_refusal`). Returns how many steps
    were taken and refused, and each mismatch with its situation (as scenario text)."""
    from shahrazad.model.scenario import Scenario, dump_scenario

    from .explicit import steps

    taken = refused = 0
    found: list[tuple[str, Mismatch]] = []
    for situation, event, allowed in steps(rulebook, players, cards, depth):
        taken += allowed
        refused += not allowed
        check = conform if allowed else conform_refusal
        for mismatch in check(rulebook, situation, event, timeout):
            found.append((dump_scenario(Scenario(situation, [event])), mismatch))
    return taken, refused, found
