"""The example scenarios in examples/: every one runs, every clause has one, all round-trip.

Each file in examples/ is named after the rulebook clause it illustrates (the file stem is
the clause name, or the clause name followed by "." and a variant). Running it under the
official rulebook must raise nothing and must show that clause at work in the trace.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter, Outcome
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.model.scenario import Scenario, dump_scenario, load_scenario, parse_scenario, situation_data

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FILES = sorted(EXAMPLES.glob("*.toml"))
CLAUSES = official().names()


def _run(scenario: Scenario, rulebook: Rulebook | None = None) -> Outcome:
    return Interpreter(rulebook).run(scenario.situation, scenario.events)


def _files_for(clause: str) -> list[Path]:
    """The example files named after `clause`: `clause.toml` or `clause.<variant>.toml`."""
    return [f for f in FILES if f.stem == clause or f.stem.startswith(clause + ".")]


def _is_permission(clause: str) -> bool:
    """A clause whose steps only permit or forbid: it shows in the trace but changes nothing."""
    return all(step.action in ("permit", "forbid") for step in official().get(clause).steps)


def test_there_are_examples() -> None:
    assert len(FILES) >= len(CLAUSES) == 39


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_example_runs(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.title and scenario.description and scenario.events
    assert "CR " in scenario.description, "the description cites the Comprehensive Rules"
    assert 2 <= len(scenario.situation.players) <= 4
    assert len(scenario.situation.cards()) < 20
    outcome = _run(scenario)
    assert outcome.trace
    # the input situation is left as it was
    assert situation_data(scenario.situation) == situation_data(load_scenario(path).situation)


@pytest.mark.parametrize("clause", CLAUSES)
def test_every_clause_has_an_example(clause: str) -> None:
    """`clause.toml` exists and shows the clause at work; its variants show the clause too."""
    main = EXAMPLES / f"{clause}.toml"
    assert main.exists(), f"no example {main.name} in {EXAMPLES}"
    for path in _files_for(clause):
        steps = [t for t in _run(load_scenario(path)).trace if t.clause == clause]
        assert steps, f"{path.name}: no trace step of {clause}"
        if path == main and not _is_permission(clause):
            assert any(t.changes for t in steps), f"{path.name}: {clause} changed nothing"


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_example_round_trips(path: Path, fmt: str) -> None:
    scenario = load_scenario(path)
    text = dump_scenario(scenario, fmt)
    again = parse_scenario(text, file=f"x.{fmt}")
    assert situation_data(again.situation) == situation_data(scenario.situation)
    assert [e.as_data() for e in again.events] == [e.as_data() for e in scenario.events]
    assert (again.title, again.description, again.seed) == \
        (scenario.title, scenario.description, scenario.seed)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_outcome_round_trips(path: Path) -> None:
    """The situation after the events can be written and read back too (counterexamples are)."""
    scenario = load_scenario(path)
    after = Scenario(_run(scenario).situation, [], scenario.title, scenario.description)
    for fmt in ("toml", "json"):
        again = parse_scenario(dump_scenario(after, fmt), file=f"x.{fmt}")
        assert situation_data(again.situation) == situation_data(after.situation)


# ---- the permissions and prohibitions are exercised: without them the example changes -----


def _load(clause: str) -> Scenario:
    return load_scenario(EXAMPLES / f"{clause}.toml")


def test_nesting_needs_its_permission() -> None:
    scenario = _load("subgame.nesting")
    start = scenario.events[0]
    assert start.kind == "start-subgame"
    assert scenario.situation.active_game().parent is not None, "started inside a subgame"
    with pytest.raises(IllegalEvent):
        _run(scenario, official().remove("subgame.nesting"))


def test_bring_in_from_main_game_needs_its_permission() -> None:
    scenario = _load("subgame.outside")
    card = scenario.events[0].get("card")
    assert scenario.situation.where[card].game == "main"
    with pytest.raises(IllegalEvent):
        _run(scenario, official().remove("subgame.outside"))


def test_restart_under_limited_range_involves_everyone() -> None:
    scenario = _load("restart.range-of-influence")
    everyone = list(scenario.situation.players)
    assert scenario.situation.games["main"].range_of_influence == 1 and len(everyone) == 4
    new = [g for g in _run(scenario).situation.games.values()]
    assert [g.players for g in new] == [everyone]
    narrow = [g for g in _run(scenario, official().remove("restart.range-of-influence"))
              .situation.games.values()]
    assert len(narrow[0].players) < len(everyone)


@pytest.mark.parametrize("effect,target", [("crusade-effect", "bob-savannah-lions"),
                                           ("anthem-effect", "ann-white-knight")])
def test_effects_do_not_cross_games(effect: str, target: str) -> None:
    scenario = _load("subgame.separate-effects")
    crossing = [Event("affect", {"effect": effect, "object": target})]
    with pytest.raises(IllegalEvent):
        Interpreter().run(scenario.situation, crossing)
    Interpreter(official().remove("subgame.separate-effects")).run(scenario.situation, crossing)


# ---- what the named examples of the brief show ---------------------------------------------


def test_cr_728_5_example_brought_in_cards_end_in_owners_main_library() -> None:
    after = _run(_load("subgame.end.return-cards")).situation
    assert str(after.where["ann-llanowar-elves"]) == "main/library/Ann"  # from the main game
    assert str(after.where["bob-lava-axe"]) == "main/library/Bob"  # from outside the game
    assert str(after.where["bob-gravecrawler"]) == "main/library/Bob"  # was phased out
    assert not after.objects["bob-gravecrawler"].phased_out


def test_cr_726_2_example_living_wish_creature_in_new_library() -> None:
    after = _run(_load("restart.cards-involved")).situation
    (new,) = after.games
    assert str(after.where["ann-craterhoof"]) == f"{new}/library/Ann"
    assert str(after.where["bob-serra-angel"]) == f"{new}/library/Bob"
    assert str(after.where["bob-spectral-guardian"]) == f"{new}/library/Bob"
    assert str(after.where["tazeem"]) == f"{new}/deck/Ann/planar"
    assert not after.objects["tazeem"].face_up


def test_exempt_commander_goes_to_battlefield_and_stays_commander() -> None:
    after = _run(_load("restart.exempt-commander")).situation
    (new,) = after.games
    commander = after.objects["bob-commander"]
    assert str(after.where["bob-commander"]) == f"{new}/battlefield"
    assert commander.commander and commander.controller == "Ann" and commander.owner == "Bob"
    assert str(after.where["ann-commander"]) == f"{new}/command"


def test_player_who_left_is_not_in_new_game() -> None:
    after = _run(_load("restart.new-game")).situation
    (new,) = after.games.values()
    assert new.players == ["Ann", "Bob"]
    assert str(after.where["cid-goblin-guide"]) == "outside/Cid"


def test_no_counters_or_emblems_survive_restart() -> None:
    after = _run(_load("restart.nothing-else")).situation
    assert not any(after.player_counters.values())
    assert all(o.is_card for o in after.objects.values())
    assert not any(o.counters for o in after.objects.values())


def test_sub_subgame_returns_cards_to_the_subgame() -> None:
    after = _run(_load("subgame.nesting")).situation
    assert str(after.where["ann-bears"]) == "sub/library/Ann"
    assert str(after.where["enter-the-dungeon"]) == "sub/graveyard/Bob"
    assert after.games["sub"].status == "active" and after.games["main"].status == "suspended"


def test_leave_trigger_waits_then_goes_on_the_stack() -> None:
    waiting = _run(_load("subgame.bring-in.leave-triggers")).situation
    assert [t.source for t in waiting.games["main"].pending_triggers] == ["bob-syr-konrad"]
    released = _run(_load("subgame.end.release-triggers")).situation
    assert str(released.where["tomb-trigger"]) == "main/stack"
    assert released.games["main"].pending_triggers == []


# ---- model bugs the examples found, now fixed: they stay as regression tests ---------------


def test_no_player_effect_survives_restart() -> None:
    after = _run(_load("restart.nothing-else")).situation
    assert not any(after.player_effects.values())


def test_no_card_ceases_at_end_of_restarted_subgame() -> None:
    scenario = load_scenario(EXAMPLES / "subgame.end.supplementary-cards.after-restart.toml")
    after = _run(scenario).situation
    assert {c.id for c in scenario.situation.cards()} <= \
        set(after.objects)
    assert str(after.where["naya"]) == "main/deck/Ann/planar"


def test_brought_permanent_sees_itself_leave() -> None:
    scenario = load_scenario(EXAMPLES / "subgame.bring-in.leave-triggers.fiend-hunter.toml")
    steps = [t for t in _run(scenario).trace if t.clause == "subgame.bring-in.leave-triggers"]
    assert any(c.what == "triggered, waits" and "ann-fiend-hunter saw" in (c.after or "")
               for t in steps for c in t.changes)
