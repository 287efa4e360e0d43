"""The concrete interpreter: runs events on explicit situations, clause by clause.

For the rule-defined events (`start-subgame`, `end-subgame`, `restart`, `bring-in`,
`affect`) it checks what the event needs, binds the event's game roles, then runs the steps
of every clause acting on that event, in rulebook order, recording each in the trace with
its clause and CR number. In-game actions follow the general rules directly. The input
situation is never changed: `run` works on a copy.

This module holds the interpreter itself: what an event leads to (`Outcome`) and the
dispatch. What every step is handed (the event's `Context`, and the trace, citations and
checks of `StepKit`, which `Interpreter` extends) is `model.context`'s. The steps stand
beside it, cut along the rules' seams as the encoder in `proofs/encoding/` is: `event_steps`
(the rule-defined events), `actions` (the in-game actions), `game_steps` (the rulebook's
game steps, by action name) and `object_steps` (selection and the object steps). They know
`StepKit`, never this module: the imports run one way.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from .actions import DEFAULT_ZONE, IN_GAME_ACTIONS
from .choices import Chooser, SeededChooser
from .context import Bound, Context, StepKit
from .errors import IllegalEvent
from .event_steps import EVENT_STEPS
from .events import Event, check_event
from .game_steps import GAME_STEPS, in_range
from .language import Clause, Step, games_acted_on
from .object_steps import object_step
from .rulebook import Rulebook, official
from .state import Situation
from .trace import TraceStep

# `DEFAULT_ZONE` (actions) and `in_range` (game_steps) are imported from here elsewhere.
__all__ = ["DEFAULT_ZONE", "Bound", "Context", "Interpreter", "Outcome", "in_range"]

# Every event the interpreter runs, by event name: the rule-defined events, then the
# in-game actions.
_EVENTS = {**EVENT_STEPS, **IN_GAME_ACTIONS}


@dataclass
class Outcome:
    """The situation after an event (or a run of events) and the trace that led there."""

    situation: Situation
    trace: list[TraceStep]
    bound: list[Bound] = field(default_factory=list)


@contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """Python's cycle collector off while an event runs, as it was before afterwards.

    An event allocates an object or two per card (a copy of the situation, a trace entry
    per move), and each collection of the old generation walks every object alive, so
    with it on, a situation of 200,000 cards ran at a fraction of the cards per second of
    10,000. Reference counting still frees what an event drops; anything caught in a
    cycle waits for the collector's next run, once it is back on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


class Interpreter(StepKit):
    """Executes events under one rulebook, in one edition's numbering, with one chooser."""

    def __init__(self, rulebook: Rulebook | None = None, chooser: Chooser | None = None,
                 edition: str | None = None):
        self.rulebook = rulebook or official()
        self.chooser: Chooser = chooser or SeededChooser(0)
        self.edition = edition or self.rulebook.default_edition

    # ---- public -------------------------------------------------------------------------

    def run(self, situation: Situation, events: list[Event]) -> Outcome:
        """Apply events in order to a copy of `situation`."""
        with _without_cycle_collection():
            state = situation.copy()
            outcome = Outcome(state, [])
            for index, event in enumerate(events, start=1):
                self._apply(state, event, index, outcome)
        return outcome

    def step(self, situation: Situation, event: Event, index: int = 1) -> Outcome:
        """Apply one event to a copy of `situation` and return what it leads to.

        `event` is a rule-defined event or an in-game action; `index` is its place in a run
        of events, which numbers its steps in the trace. Returns an `Outcome`: the situation
        after the event, the trace of the steps that led there (each with its clause and CR
        number in this interpreter's edition) and what the event bound (one `Bound`).
        `situation` is copied first and never mutated, so one situation can be stepped from
        many times. Raises `IllegalEvent`, citing the rule where one applies, when the
        situation does not allow the event: no single active game, an argument that names
        no player or object of the active game, or a rulebook that does not permit it.

        Random acts (shuffles, CR 701.24; a subgame's random starting player, CR 728.2) are
        picked by this interpreter's chooser, so the result is one of the outcomes the rules
        allow: the same for the same seed of a `SeededChooser`. To compare an engine's
        result with the rules, ask for all of them (`model.outcomes.allowed_outcomes`, or
        `first_divergence` for the first difference and the clause behind it).

        >>> from shahrazad.model.events import Event
        >>> from shahrazad.model.scenario import parse_scenario
        >>> s = parse_scenario('players = ["Ann", "Bob"]\\n[[game]]\\nid = "main"\\n',
        ...                    file="s.toml").situation
        >>> after = Interpreter().step(s, Event("counter", {"player": "Ann", "kind": "poison",
        ...                                                 "add": 2})).situation
        >>> after.counters_of("main", "Ann")
        {'poison': 2}
        """
        with _without_cycle_collection():
            outcome = Outcome(situation.copy(), [])
            self._apply(outcome.situation, event, index, outcome)
        return outcome

    # ---- dispatch -----------------------------------------------------------------------

    def _apply(self, state: Situation, event: Event, index: int, outcome: Outcome) -> None:
        _, wrong = check_event(event.as_data())  # what the scenario reader checks, for callers
        if wrong is not None:                    # that build events themselves
            raise IllegalEvent(wrong)
        try:
            active = state.active_game()
        except ValueError as err:
            raise IllegalEvent(f"{event.kind}: the situation has no single active game ({err})",
                               rule="728.1a") from None
        handler = _EVENTS[event.kind]
        ctx = Context(event=event, index=index, roles={"active": active.id})
        handler(self, state, ctx, active)
        outcome.trace.extend(ctx.trace)
        outcome.bound.append(Bound(
            roles={k: v for k, v in ctx.roles.items() if v is not None},
            controller=ctx.controller, exempt=ctx.exempt, creator=ctx.creator,
            card=ctx.brought, then_battlefield=event.get("then") == "battlefield"))

    def _run_clauses(self, state: Situation, ctx: Context) -> None:
        for clause in self.rulebook.on(ctx.event.kind):
            for step in clause.steps:
                self._run_step(state, ctx, clause, step)

    def _run_step(self, state: Situation, ctx: Context, clause: Clause, step: Step) -> None:
        rule = self._cite(clause)
        if step.select is not None:
            object_step(self, state, ctx, clause, step, rule)
            return
        gone = [role for role in games_acted_on(step)
                if ctx.roles.get(role) is not None and ctx.roles[role] not in state.games]
        if gone:
            self._note(ctx, clause, rule, f"the {gone[0]} game {ctx.roles[gone[0]]} no longer "
                       f"exists: {step.action} does nothing")
            return
        GAME_STEPS[step.action](self, state, ctx, clause, step.args, rule)
