"""A campaign against false proofs: games played by the interpreter, every step checked
against the verdicts.

A proof says that no game reaches a situation where the event breaks the promise. The
campaign plays games and looks: from each beginning, breadth first over every event the
active game allows (`proofs.evidence.search`, legal under the rulebook checked:
`structure.still_legal`), it steps every event from every situation and evaluates every
promise about that event on the step (`Evaluator`, the concrete reading of the catalog).
Each promise some game breaks is then proved (`prove`, the symbolic reading): a proof of a
promise a game breaks is a **false proof**, shown with the shortest game that breaks it
(searched again with that promise as the goal) and replayed from its beginning
(`reach.replay_reached`).

The two readings are tested against each other on whole games, not on one step: what the
conformance tests (one step) and the proofs' own replays (their counterexamples) cannot
see, a campaign can. It is bounded (`depth` events, `states` situations from each
beginning) and finds breaks, never proves their absence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from shahrazad.invariants.catalog import CATALOG, Invariant
from shahrazad.invariants.concrete import Evaluator
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter, Outcome
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.scenario import Scenario
from shahrazad.model.state import Situation
from shahrazad.proofs.evidence import search
from shahrazad.proofs.evidence.counterexample import binding_of
from shahrazad.proofs.evidence.reach import replay_reached
from shahrazad.proofs.evidence.search import Goal
from shahrazad.proofs.solving.obligations import Obligation, Result, Status
from shahrazad.proofs.verdicts.prove import prove

DEPTH = 3  # events before the step checked, at most
STATES = 60  # situations expanded from each beginning, at most

# The promises about each event; a possibility is decided another way (a witness).
_PROMISES: dict[str, list[Invariant]] = {}
for _inv in CATALOG:
    if _inv.kind != "possible":
        for _event in _inv.events:
            _PROMISES.setdefault(_event, []).append(_inv)


@dataclass(frozen=True)
class FalseProof:
    """A promise proved at an event, and a game that breaks it there: its beginning and
    events, the last one the step that breaks it."""

    result: Result
    trace: Scenario


def breaks(invariant: Invariant, before: Situation, outcome: Outcome) -> bool:
    """Does the step from `before` to `outcome` break `invariant`? A structure invariant is
    kept by an event when it holds after it wherever it held before: one broken already
    (by the rulebook's own event, under a changed rulebook) is not broken again."""
    binding = binding_of(outcome)
    if Evaluator(before, outcome.situation, binding).holds(invariant.term):
        return False
    return invariant.kind != "structure" or Evaluator(before, before, binding).holds(
        invariant.term)


def broken(rulebook: Rulebook, start: Situation, depth: int = DEPTH,
           states: int = STATES, kinds: frozenset[str] | None = None) -> set[tuple[str, str]]:
    """The (promise, event) pairs that some step of a legal game from `start` breaks, for
    events of `kinds` (all, if None)."""
    found: set[tuple[str, str]] = set()

    def finals(state: Situation) -> list[Event]:
        return [e for e in search.events(state) if kinds is None or e.kind in kinds]

    def records(interp: Interpreter, before: Situation, event: Event) -> bool:
        try:
            outcome = interp.step(before, event)
        except IllegalEvent:
            return False
        found.update((inv.id, event.kind) for inv in _PROMISES.get(event.kind, [])
                     if (inv.id, event.kind) not in found and breaks(inv, before, outcome))
        return False

    search.search(start, rulebook, finals, records, search.WIDEST, depth=depth, states=states)
    return found


def _of_kind(kind: str) -> Callable[[Situation], list[Event]]:
    """The events of `kind` that the search tries from a situation."""
    return lambda state: [e for e in search.events(state) if e.kind == kind]


def _breaking(invariant: Invariant) -> Goal:
    """The goal of a game that breaks `invariant` (`breaks`)."""
    def goal(interp: Interpreter, before: Situation, event: Event) -> bool:
        try:
            return breaks(invariant, before, interp.step(before, event))
        except IllegalEvent:
            return False
    return goal


def false_proofs(rulebook: Rulebook, starts: list[Situation], depth: int = DEPTH,
                 states: int = STATES, timeout: float = 5.0,
                 kinds: frozenset[str] | None = None) -> list[FalseProof]:
    """Every promise that a game from one of `starts` breaks at an event of `kinds` (any,
    if None) and that `prove` proves, each with the shortest such game, replayed; in the
    catalog's order."""
    by_id = {inv.id: inv for inv in CATALOG}
    pairs: dict[tuple[str, str], Situation] = {}
    for start in starts:
        for pair in broken(rulebook, start, depth, states, kinds):
            pairs.setdefault(pair, start)
    order = {inv.id: n for n, inv in enumerate(CATALOG)}
    out = []
    for (inv_id, event), start in sorted(pairs.items(), key=lambda p: (order[p[0][0]], p[0][1])):
        invariant = by_id[inv_id]
        result = prove(rulebook, Obligation(invariant, event), timeout=timeout)
        if result.status != Status.PROVED:
            continue
        goal = _breaking(invariant)
        run = search.search(start, rulebook, _of_kind(event), goal, search.WIDEST,
                            depth=depth, states=states)
        assert run is not None, f"{inv_id} @ {event}: the break found is not found again"
        trace = Scenario(start, run.events, title=f"{inv_id} broken at {event}",
                         description=invariant.statement)
        assert replay_reached(trace, rulebook, goal) is None
        out.append(FalseProof(result, trace))
    return out


__all__ = ["FalseProof", "broken", "breaks", "false_proofs"]
