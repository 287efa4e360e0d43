"""Reaching traces (`proofs.evidence.reach`): from a game's beginning to a counterexample's situation.

Each test builds a trace for a hand-written legal situation and one event, then checks
that it starts at a game's beginning, replays under the rulebook and reaches what the
situation has; and that a trace that is tampered with is caught.
"""

from __future__ import annotations

from shahrazad.invariants.catalog import by_id
from shahrazad.invariants.structure import catalog_problems
from shahrazad.model.amendment import parse_amendment
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.rulebook import official
from shahrazad.model.scenario import Scenario, dump_scenario, parse_scenario
from shahrazad.model.state import Situation
from shahrazad.proofs.evidence.reach import (
    Unreachable,
    beginning,
    breaks_invariant,
    is_beginning,
    reach,
    replay_reached,
)

NESTED = """
players = ["Ann", "Bob"]
[[game]]
id = "main"
variants = ["planechase"]
[[game]]
id = "sub1"
parent = "main"
created-by = "shahrazad"
began-in-deck = { plane = "planar" }
[[card]]
id = "shahrazad"
owner = "Ann"
at = "main/stack"
[[card]]
id = "forest"
owner = "Ann"
at = "main/battlefield"
controller = "Bob"
[[card]]
id = "bears"
owner = "Bob"
at = "sub1/battlefield"
face = "down"
[[card]]
id = "plane"
owner = "Bob"
type = "plane"
at = "sub1/command"
[[object]]
id = "tok"
kind = "token"
controller = "Ann"
at = "sub1/battlefield"
[[player-counter]]
game = "sub1"
player = "Bob"
kind = "poison"
count = 2
"""


def _scenario(text: str, *events: Event) -> Scenario:
    scenario = parse_scenario(text, file="s.toml")
    assert catalog_problems(scenario.situation) == []
    return Scenario(scenario.situation, list(events), "t", "", 0)


def _same_places(a: Situation, b: Situation, games: dict[str, str]) -> None:
    for obj_id, zone in a.where.items():
        there = b.where[obj_id]
        assert there.kind == zone.kind and there.player == zone.player, obj_id
        assert (zone.game is None and there.game is None) or there.game == games.get(
            str(zone.game), zone.game), obj_id
        assert b.objects[obj_id].face_up == a.objects[obj_id].face_up, obj_id
        assert b.objects[obj_id].controller == a.objects[obj_id].controller, obj_id


def test_the_beginning_has_every_card_where_it_starts() -> None:
    start = beginning(_scenario(NESTED).situation)
    assert is_beginning(start) == []
    assert [g.id for g in start.games.values()] == ["main"]
    assert str(start.where["plane"]) == "main/deck/Bob/planar"
    assert not start.objects["plane"].face_up
    assert {str(start.where[c]) for c in ("shahrazad", "forest")} == {"main/library/Ann"}
    assert "tok" not in start.objects


def test_a_nested_situation_is_reached_and_replays() -> None:
    cex = _scenario(NESTED, Event("end-subgame", {}))
    inv = by_id("end.cards-conserved")
    always = lambda interp, before, event: True  # noqa: E731 - reach the situation only
    reached = reach(cex, official(), always)
    assert is_beginning(reached.scenario.situation) == []
    assert replay_reached(reached.scenario, official(), always) is None
    kinds = [e.kind for e in reached.scenario.events]
    assert kinds.count("start-subgame") == 1 and "control" in kinds and "turn" in kinds
    sub = next(g.id for g in reached.before.games.values() if g.parent == "main")
    _same_places(cex.situation, reached.before, {"sub1": sub})
    assert reached.before.player_counters[(sub, "Bob")] == {"poison": 2}
    # The reached situation keeps the invariant under the official rules ...
    assert not breaks_invariant(inv)(Interpreter(official()), reached.before,
                                     reached.scenario.events[-1])
    # ... and a round trip through the scenario format replays the same way.
    again = parse_scenario(dump_scenario(reached.scenario), file="t.toml")
    assert replay_reached(again, official(), always) is None


def test_waiting_triggers_are_reached_by_bringing_cards_in() -> None:
    text = NESTED.replace('variants = ["planechase"]', 'variants = ["planechase"]\n'
                          'trigger = [{ id = "w1", source = "x", card = "y", left = "z" }]')
    cex = _scenario(text, Event("end-subgame", {}))
    reached = reach(cex, official(), lambda interp, before, event: True)
    assert len(reached.before.games["main"].pending_triggers) == 1
    assert [e.kind for e in reached.scenario.events].count("bring-in") == 1


def test_a_tampered_trace_is_caught() -> None:
    amendment = parse_amendment('title = "t"\n[[remove]]\nname = "subgame.end.commander"\n',
                                file="a.toml")
    rulebook = amendment.apply(official())
    text = NESTED.replace('at = "sub1/command"', 'at = "sub1/command"\n[[card]]\nid = "cmd"\n'
                          'owner = "Ann"\ncommander = true\nat = "sub1/command"', 1)
    cex = _scenario(text, Event("end-subgame", {}))
    goal = breaks_invariant(by_id("end.commanders-return"))
    reached = reach(cex, rulebook, goal)
    assert replay_reached(reached.scenario, rulebook, goal) is None
    # Under the official rules the same trace does not break the invariant.
    assert replay_reached(reached.scenario, official(), goal) is not None
    # Without its subgame start, the trace no longer gets there.
    events = [e for e in reached.scenario.events if e.kind != "start-subgame"]
    cut = Scenario(reached.scenario.situation, events, seed=reached.scenario.seed)
    assert replay_reached(cut, rulebook, goal) is not None
    # A trace that does not start at a game's beginning is refused.
    moved = Scenario(reached.before, reached.scenario.events[-1:], seed=0)
    assert "beginning" in str(replay_reached(moved, rulebook, goal))


def test_an_unreachable_situation_says_why() -> None:
    cex = _scenario(NESTED, Event("end-subgame", {}))
    try:
        reach(cex, official(), lambda interp, before, event: False)
    except Unreachable as err:
        assert "does not break" in str(err)
    else:
        raise AssertionError("a goal never met is unreachable")
