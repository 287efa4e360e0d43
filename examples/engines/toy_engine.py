"""A deliberately wrong toy engine, for the worked example of `docs/engines.md`.

It is not a real engine, and says so: for every event it asks shahrazad's own interpreter
what happens (with its shuffles seeded by `seed`), then brings in one bug, small and
visible. **On a restart (CR 726) it forgets that the counters players had in the restarted
game cease to exist** (726.1: the game "ends immediately... nothing else carries over"):
each player keeps them in the new game. Everything else it does right.

Its step function works on scenario data (`docs/scenario-format.md`), as an engine in any
language would: a situation and an event as plain dicts and lists, and the situation after
the event back. `record.py` records its trace on a scenario, `shahrazad conform` finds the
divergence in that trace, and `check_engine` (the pytest plugin) finds it on situations
that Hypothesis makes.
"""

from __future__ import annotations

import json
from typing import Any

from shahrazad.model.choices import SeededChooser
from shahrazad.model.events import check_event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.scenario import parse_scenario, situation_data


def step(situation: dict[str, Any], event: dict[str, Any], seed: int = 0) -> dict[str, Any]:
    """The situation after `event`, as scenario data; raises ValueError for an event the
    engine refuses (one the rules refuse, since the interpreter decides)."""
    state = parse_scenario(json.dumps(situation), file="<toy>", fmt="json").situation
    parsed, problem = check_event(event)
    if parsed is None:
        raise ValueError(problem)
    restarted = state.active_game().id
    after = Interpreter(chooser=SeededChooser(seed)).step(state, parsed).situation
    if parsed.kind == "restart":
        # The bug: the counters of the restarted game follow their players into the new one.
        new = after.active_game()
        for (game, player), counters in state.player_counters.items():
            if game == restarted and player in new.players and counters:
                after.counters_of(new.id, player).update(counters)
    return situation_data(after)
