"""The pytest plugin for engine authors: check a Python engine's step function against the
rules, on legal situations that Hypothesis makes and shrinks.

Installed with shahrazad and registered as the `pytest11` entry point `shahrazad`, so any
test suite where shahrazad is installed has the fixture `shahrazad_engine` (it gives
`check_engine`) with nothing to configure::

    def test_my_engine(shahrazad_engine):
        shahrazad_engine(my_engine.step, max_examples=200)

A step function takes a situation and an event as scenario data (`docs/scenario-format.md`:
plain dicts and lists, as JSON would give them) and returns the situation after the event,
as scenario data. `check_engine` draws legal situations and events
(`shahrazad.model.strategies`), asks the interpreter for every outcome the rules allow
(`shahrazad.model.outcomes`), and fails with the first divergence, its clause and CR number,
and the situation and event as a scenario that `shahrazad simulate` replays; Hypothesis
shrinks it first. `docs/engines.md` works through an example.

pytest loads this module into every run where shahrazad is installed, so it imports
nothing of shahrazad (and never z3) until a check runs.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from hypothesis import settings as Settings
    from hypothesis.strategies import DataObject

    from shahrazad.model.events import Event
    from shahrazad.model.rulebook import Rulebook
    from shahrazad.model.state import Situation

__all__ = ["EngineStep", "check_engine", "shahrazad_engine"]

EngineStep = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]
"""An engine's step function: (situation data, event data) -> situation data after it."""

_ATTEMPTS = 30  # events drawn for one situation to find one of the kinds asked for


def check_engine(step: EngineStep, *, max_examples: int = 100,
                 events: Sequence[str] | None = None,
                 rulebook: Rulebook | str | Path | None = None,
                 amendments: Iterable[str | Path] = (), max_cards: int = 4,
                 max_players: int = 3, max_depth: int = 2, max_branches: int = 2000,
                 settings: Settings | None = None) -> None:
    """Check `step` against the rules on `max_examples` legal situations and events.

    `events` limits the events to these kinds (`restart`, `end-subgame`, ...; default all);
    `rulebook` is a `Rulebook` or a rulebook file (default the official rules), amended by
    `amendments` (files, in order). `max_cards`, `max_players` and `max_depth` (subgames
    below the outermost game) bound the situations; an event whose random choices have more
    than `max_branches` branches, or that the rules refuse, is not asked of the engine.
    `settings` are the Hypothesis settings to start from (default: the current profile's);
    `max_examples` and no deadline are set on top of them. Shrinking a failure runs the
    engine a few hundred times more (seconds); `settings=hypothesis.settings(phases=
    [Phase.generate])` reports the first failure found as it is.

    Raises AssertionError with the first divergence (event, what differs, the clause and CR
    number of the step that decides it) and the situation, shrunk by Hypothesis, as a
    scenario; also when `step` raises on an event the rules allow, or returns what is not a
    situation in the scenario format. The input data given to `step` is a copy: the engine
    may change it.
    """
    from hypothesis import HealthCheck, given, reject
    from hypothesis import settings as Settings
    from hypothesis import strategies as st

    from shahrazad.model.errors import IllegalEvent, InputError
    from shahrazad.model.events import EVENT_ARGS
    from shahrazad.model.outcomes import TooManyOutcomes, allowed_outcomes, match
    from shahrazad.model.scenario import read_scenario_data, situation_data
    from shahrazad.model.strategies import scenario_tables

    kinds = list(events) if events is not None else None
    unknown = [k for k in kinds or () if k not in EVENT_ARGS]
    if unknown or kinds == []:
        raise ValueError(f"events: {unknown[0] if unknown else 'none'} is not an event kind "
                         f"(one of {', '.join(EVENT_ARGS)})")
    book = _rulebook(rulebook, amendments)
    base = settings if settings is not None else Settings()
    suppressed = [*base.suppress_health_check, HealthCheck.too_slow,
                  HealthCheck.filter_too_much, HealthCheck.data_too_large]

    @Settings(base, max_examples=max_examples, deadline=None, suppress_health_check=suppressed)
    @given(st.data())
    def engine_follows_the_rules(data: DataObject) -> None:
        tables = data.draw(scenario_tables(max_players, max_cards, max_depth), label="situation")
        situation = read_scenario_data(tables, file="<generated>", fmt="json").situation
        event = _draw_event(data, situation, kinds)
        try:
            outcomes = allowed_outcomes(situation, event, book, limit=max_branches)
        except (IllegalEvent, TooManyOutcomes):
            reject()
        before = situation_data(situation)
        try:
            result = step(copy.deepcopy(before), dict(event.as_data()))
        except Exception as err:
            raise AssertionError(
                f"the engine raised {type(err).__name__} ({err}) on an event the rules allow "
                f"({len(outcomes.allowed)} outcome(s)):\n{_scenario(situation, event)}") from err
        try:
            after = read_scenario_data(json.loads(json.dumps(result)), file="<engine>",
                                       fmt="json").situation
        except (InputError, TypeError, ValueError) as err:
            raise AssertionError(f"the engine's situation after {event.describe()} is not a "
                                 f"situation in the scenario format: {err}\n"
                                 f"{_scenario(situation, event)}") from None
        found = match(situation, after, outcomes, book)
        divergence = found.divergence
        if divergence is not None:
            raise AssertionError(
                f"the engine diverges from the rules at {divergence.summary()}\n"
                f"{divergence.describe()}\n{_scenario(situation, event)}")

    engine_follows_the_rules()


def _draw_event(data: DataObject, situation: Situation, kinds: list[str] | None) -> Event:
    from hypothesis import reject

    from shahrazad.model.strategies import events

    for _ in range(1 if kinds is None else _ATTEMPTS):
        event = data.draw(events(situation), label="event")
        if kinds is None or event.kind in kinds:
            return event
    reject()


def _rulebook(rulebook: Rulebook | str | Path | None,
              amendments: Iterable[str | Path]) -> Rulebook:
    from shahrazad.model.rulebook import Rulebook, load_rulebook

    book = rulebook if isinstance(rulebook, Rulebook) else load_rulebook(rulebook)
    for amendment in amendments:
        from shahrazad.model.amendment import load_amendment

        book = load_amendment(amendment).apply(book)
    return book


def _scenario(situation: Situation, event: Event) -> str:
    """The situation and event as a scenario file, for the failure message."""
    from shahrazad.model.scenario import Scenario, dump_scenario

    text = dump_scenario(Scenario(situation, [event], title="a divergence of the engine"))
    return "the situation and event, as a scenario (shahrazad simulate runs it):\n" + text


@pytest.fixture
def shahrazad_engine() -> Callable[..., None]:
    """`check_engine`: call it with your engine's step function (and its options)."""
    return check_engine
