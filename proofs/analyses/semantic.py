"""The semantic diff of an amendment: where do the amended rules behave differently?

An amendment is compared with the rules it amends event by event. Only the events whose
clauses it changes can behave differently (an event's transition depends on its own clauses
alone); for each, `proofs.analyses.difference` asks z3 for a situation where the event ends
differently under the two rulebooks. Each difference found is:

* replayed by the interpreter under both rulebooks, over every random outcome; the first
  pair of outcomes (same choices) that differ is kept, to be shown side by side;
* reached: a trace of legal events from a game's beginning, under the amended rules, leads
  to the situation (`proofs.evidence.reach`), and replays;
* judged by the catalog: the invariants the amended outcome breaks that the official one
  keeps (**breaks**), and the reverse (**repairs**).

An amendment where no changed event ends differently, for every size, makes **no
difference the model can see**: verifying it proves nothing about it (the model cannot see
what it changes: an order the model does not keep, a procedure it does not have, words
alone). `shahrazad amend` says so, and `shahrazad verify --amendment` flags it; neither
says "all proved" (exit 3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from shahrazad.invariants.catalog import CATALOG, EVENTS
from shahrazad.model.choices import enumerate_outcomes
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter, Outcome
from shahrazad.model.language import PERMISSIONS, PROHIBITIONS
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.scenario import Scenario
from shahrazad.model.state import Situation
from shahrazad.proofs.evidence.counterexample import broken
from shahrazad.proofs.evidence.reach import Unreachable, reach, replay_reached
from shahrazad.proofs.solving.pool import run_all

from .difference import difference, outcome_key

LIMIT = 2000  # random outcomes enumerated per rulebook before a difference is not shown


@dataclass
class EventDifference:
    """One event's verdict in the semantic diff."""

    event: str
    status: str  # "differs", "same" (for every size, or up to a bound: `detail`), "unknown"
    detail: str = ""
    clauses: list[str] = field(default_factory=list)  # the event's clauses the amendment changes
    scenario: Scenario | None = None  # the situation, reached, and the event
    trace: Scenario | None = None     # the reaching trace, from a game's beginning
    official: Situation | str | None = None  # one outcome under the rules amended (or
    amended: Situation | str | None = None   # the refusal), and under the amendment
    breaks: list[str] = field(default_factory=list)   # invariant ids
    repairs: list[str] = field(default_factory=list)


def changed_clauses(base: Rulebook, amended: Rulebook, event: str) -> list[str]:
    """The names of the event's clauses that the amendment replaces, removes, adds or
    moves."""
    mine = {c.name: c for c in amended.on(event)}
    theirs = {c.name: c for c in base.on(event)}
    names = [n for n in [*theirs, *mine] if mine.get(n) != theirs.get(n)]
    if not names and [c.name for c in base.on(event)] != [c.name for c in amended.on(event)]:
        names = [c.name for c in amended.on(event)]  # the same clauses in another order
    return list(dict.fromkeys(names))


def changed_events(base: Rulebook, amended: Rulebook) -> list[str]:
    """The events, in the order of `EVENTS`, whose clauses differ between the two rulebooks (a
    clause changed, added, removed or moved): the only ones that can behave differently."""
    return [event for event in EVENTS if base.on(event) != amended.on(event)]


def unseen(diff: list[EventDifference]) -> bool:
    """No difference the model can see: no changed event ends differently (for every size:
    a "same" only up to a bound is "unknown" here), and none is undecided."""
    return all(d.status == "same" for d in diff)


def semantic_diff(base: Rulebook, amended: Rulebook, timeout: float = 5.0, jobs: int = 1,
                  progress: Callable[[int, int, EventDifference], None] | None = None
                  ) -> list[EventDifference]:
    """Each event whose clauses the amendment changes, in the order of `EVENTS`, decided in
    `jobs` spawned workers; `progress(done, total, difference)` as each is decided."""
    cases = [(base, amended, event, timeout) for event in changed_events(base, amended)]
    return run_all(_case, cases, max(1, jobs), _died,
                   None if progress is None else lambda done, found: progress(done, len(cases),
                                                                                found))


def _case(case: tuple[Rulebook, Rulebook, str, float]) -> EventDifference:
    return event_difference(*case)


def _died(case: tuple[Rulebook, Rulebook, str, float], why: str) -> EventDifference:
    return EventDifference(case[2], "unknown", f"the solver could not decide: {why}",
                           changed_clauses(case[0], case[1], case[2]))


def event_difference(base: Rulebook, amended: Rulebook, event: str,
                     timeout: float = 5.0) -> EventDifference:
    """Does `event` end differently under `amended` than under `base`? With a reached
    scenario and both outcomes when it does."""
    clauses = changed_clauses(base, amended, event)
    legality = _legality(base, amended, event)
    if legality:
        # The transition relation holds only where an event is allowed; which situations
        # allow it is decided by the permissions and prohibitions the event consults.
        return EventDifference(event, "differs", "the event is allowed in other situations: "
                               + "; ".join(legality), clauses)
    found = difference(base, amended, event, timeout=2 * timeout)
    if found.status == "same" and not found.detail.startswith("for every"):
        return EventDifference(event, "unknown", f"the same {found.detail}, not decided for "
                               "every size", clauses)
    if found.status != "differs" or found.scenario is None:
        return EventDifference(event, found.status, found.detail, clauses)

    def differs_here(interp: Any, state: Situation, last: Event) -> bool:
        return _pair(base, amended, Scenario(state, [last])) is not None

    try:
        reached = reach(found.scenario, amended, differs_here)
    except Unreachable as err:
        return EventDifference(event, "unknown", "a situation where the event ends "
                               f"differently, but no reaching trace leads to it: {err}",
                               clauses, found.scenario)
    problem = replay_reached(reached.scenario, amended, differs_here)
    if problem is not None:
        return EventDifference(event, "unknown", f"the reaching trace does not replay: {problem}",
                               clauses, found.scenario)
    shown = Scenario(reached.before, reached.scenario.events[-1:],
                     f"{event} ends differently under the amendment",
                     "The same situation and event; the two rulebooks' outcomes differ.",
                     reached.scenario.seed)
    pair = _pair(base, amended, shown)
    if pair is None:  # cannot happen: the goal held on this very situation
        return EventDifference(event, "unknown", "the difference does not replay", clauses,
                               shown)
    breaks, repairs = _verdicts(base, amended, shown)
    return EventDifference(event, "differs", "a situation where the event ends differently",
                           clauses, shown, reached.scenario, pair[0], pair[1], breaks, repairs)


def _legality(base: Rulebook, amended: Rulebook, event: str) -> list[str]:
    """The permissions and prohibitions the event consults that one rulebook grants and the
    other does not (a refusal the transitions alone cannot show)."""
    out = []
    for action, names in (("permit", PERMISSIONS), ("forbid", PROHIBITIONS)):
        for name in names:
            before = base.grants(event, action, name) is not None
            after = amended.grants(event, action, name) is not None
            if before != after:
                verb = "permitted" if action == "permit" else "forbidden"
                out.append(f"{name} ({names[name]}) {verb} {'before' if before else 'now'}, "
                           f"not {'now' if before else 'before'}")
    return out


def _outcomes(rulebook: Rulebook, scenario: Scenario) -> list[Situation | str] | None:
    """Every outcome of the scenario's events (or the interpreter's refusal), in the order
    of the choices made; None when there are more than LIMIT."""
    def run(chooser: Any) -> Outcome | str:
        try:
            return Interpreter(rulebook, chooser).run(scenario.situation, scenario.events)
        except IllegalEvent as err:
            return f"refused: {err}"

    try:
        return [o if isinstance(o, str) else o.situation
                for o in enumerate_outcomes(run, limit=LIMIT)]
    except OverflowError:
        return None


def _key(outcome: Situation | str) -> str:
    return outcome if isinstance(outcome, str) else outcome_key(outcome)


def _pair(base: Rulebook, amended: Rulebook, scenario: Scenario
          ) -> tuple[Situation | str, Situation | str] | None:
    """Outcomes under `base` and `amended` that show the difference: the first pair made
    by the same choices that differ (when the sets of outcomes differ), else None."""
    a, b = _outcomes(base, scenario), _outcomes(amended, scenario)
    if a is None or b is None:
        return None
    keys_a, keys_b = [_key(o) for o in a], [_key(o) for o in b]
    if set(keys_a) == set(keys_b):
        return None
    for index in range(max(len(a), len(b))):
        left, right = a[min(index, len(a) - 1)], b[min(index, len(b) - 1)]
        if _key(left) != _key(right) and (_key(left) not in keys_b or _key(right) not in keys_a):
            return left, right
    return a[0], b[0]


def _verdicts(base: Rulebook, amended: Rulebook, scenario: Scenario
              ) -> tuple[list[str], list[str]]:
    """The invariants at the scenario's event that some outcome breaks under `amended` and
    none under `base`, and the reverse."""
    event = scenario.events[-1].kind
    invariants = [i for i in CATALOG if event in i.events and i.kind != "possible"]
    before, after = broken(scenario, base, invariants), broken(scenario, amended, invariants)
    return ([i.id for i in invariants if i.id in after and i.id not in before],
            [i.id for i in invariants if i.id in before and i.id not in after])
