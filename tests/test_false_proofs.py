"""The audit's seven false proofs (`tests/regressions/s1`-`s7`, copied from the project's
reproducers): `verify` proved an obligation that the interpreter broke on a situation
every structure invariant accepted. The root cause was two notions of "a new object" (and,
for s6, a range of influence that left out the player whose range it is). Each is now a
regression test: the interpreter either refuses the event, or keeps the invariant that
was falsely proved. Under s6's amendment (a1) a fault remained, in how a counterexample's
limited-range game was seated; its tests close the file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shahrazad.invariants.catalog import by_id
from shahrazad.invariants.concrete import Evaluator
from shahrazad.invariants.structure import problems
from shahrazad.model.amendment import load_amendment
from shahrazad.model.choices import SeededChooser
from shahrazad.model.errors import IllegalEvent, InputError
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.rulebook import official
from shahrazad.model.scenario import load_scenario
from shahrazad.model.state import Situation
from shahrazad.proofs.evidence.counterexample import binding_of

REGRESSIONS = Path(__file__).resolve().parent / "regressions"

# file, the obligation verify proved, and what the interpreter now does with the event.
CASES = [
    ("s1-create-id-of-waiting-trigger.toml", "structure.waiting-triggers", "refused"),
    ("s2-start-subgame-fresh-id-collides.toml", "structure.waiting-triggers", "kept"),
    ("s3-bring-in-trigger-id-collides.toml", "structure.waiting-triggers", "kept"),
    ("s4-create-id-with-began-in-deck-mark.toml", "structure.decks", "refused"),
    ("s5-create-effect-id-already-acting.toml", "structure.effects-in-own-game", "refused"),
    ("s7-bring-in-trigger-not-new.toml", "bring.leave-triggers-wait", "kept"),
]


@pytest.mark.parametrize("name,invariant,fate", CASES, ids=[c[0][:2] for c in CASES])
def test_no_false_proof(name: str, invariant: str, fate: str) -> None:
    scenario = load_scenario(REGRESSIONS / name, check=problems)
    interpreter = Interpreter(official(), SeededChooser(scenario.seed or 0))
    (event,) = scenario.events
    if fate == "refused":
        with pytest.raises(IllegalEvent, match="a new object with a new name"):
            interpreter.step(scenario.situation, event)
        return
    outcome = interpreter.step(scenario.situation, event)
    evaluator = Evaluator(scenario.situation, outcome.situation, binding_of(outcome))
    assert evaluator.holds(by_id(invariant).term)
    assert problems(outcome.situation) == []


def test_s7_the_new_trigger_waits_beside_the_old_one() -> None:
    scenario = load_scenario(REGRESSIONS / "s7-bring-in-trigger-not-new.toml")
    outcome = Interpreter(official()).step(scenario.situation, scenario.events[0])
    waiting = [t.id for t in outcome.situation.games["main"].pending_triggers]
    assert len(waiting) == len(set(waiting)) == 2


def test_s6_a_negative_range_is_refused_and_the_controller_is_always_in_range() -> None:
    with pytest.raises(InputError, match="range-of-influence must be a whole number, 0 or more"):
        load_scenario(REGRESSIONS / "s6-negative-range-restart.toml")
    from shahrazad.model.game_steps import in_range

    assert in_range(["Ann", "Bob", "Cat"], "Bob", -1) == ["Bob"]  # CR 801.2b
    assert in_range(["Ann", "Bob", "Cat", "Dan", "Eve"], "Ann", 1) == ["Ann", "Bob", "Eve"]
    rulebook = load_amendment(REGRESSIONS / "a1-no-range.amendment.toml").apply(official())
    assert rulebook is not None


def test_a_range_below_zero_is_a_structural_fault() -> None:
    scenario = load_scenario(REGRESSIONS / "s2-start-subgame-fresh-id-collides.toml")
    situation: Situation = scenario.situation
    next(iter(situation.games.values())).range_of_influence = -1
    assert any("range of influence of -1" in p for p in problems(situation))


def test_every_name_in_use_is_refused_to_a_created_object() -> None:
    scenario = load_scenario(REGRESSIONS / "s5-create-effect-id-already-acting.toml")
    situation = scenario.situation
    fresh = situation.copy().fresh_id("effect")
    assert fresh not in situation.names_in_use()
    assert "eff9" in situation.names_in_use()


@pytest.mark.parametrize("near", range(6))
@pytest.mark.parametrize("far", range(1, 4))
def test_the_seating_of_a_counterexample_puts_exactly_the_near_players_in_range(
        near: int, far: int) -> None:
    """A counterexample's limited-range game is seated so that the players the model puts
    within the controller's range are within it and the others beyond it (CR 801.2); only
    an odd number of near players needs one more in range, a player who owns nothing."""
    from shahrazad.model.game_steps import in_range
    from shahrazad.proofs.evidence.counterexample import seating

    close = [f"N{i}" for i in range(near)]
    away = [f"A{i}" for i in range(far)]
    seats, reach, fillers = seating("C", close, away)
    assert sorted(seats) == sorted(["C", *close, *away, *fillers])
    assert fillers == (["F1"] if near % 2 else [])
    assert sorted(in_range(seats, "C", reach)) == sorted(["C", *close, *fillers])


def test_a1_the_restart_of_a_range_0_game_is_refuted_not_a_fault() -> None:
    """Under the amendment a1 (a restart respects range of influence), the restart of a
    game where no one else is within the controller's range makes a game of one player.
    The model's counterexample was once seated with two players in range who owned
    nothing, so it did not replay (a fault, "the solver's counterexample does not
    replay"); seated with a range of 0 seats, it replays and is reached."""
    from shahrazad.proofs.evidence.reach import is_beginning
    from shahrazad.proofs.solving.obligations import Obligation, Status
    from shahrazad.proofs.verdicts.prove import prove

    rulebook = load_amendment(REGRESSIONS / "a1-no-range.amendment.toml").apply(official())
    result = prove(rulebook, Obligation(by_id("structure.games-have-players"), "restart"))
    assert result.status == Status.REFUTED, result.reason
    assert result.counterexample is not None and result.trace is not None
    assert is_beginning(result.trace.situation) == []
    (game,) = result.counterexample.situation.games.values()
    assert game.range_of_influence == 0


def test_s8_the_two_readings_agree_on_a_restart_that_destroys_its_main_game() -> None:
    """s8: under a change `shahrazad protection` makes (the restart destroys the main
    game's zones, not the restarted game's), the interpreter leaves the new game hanging
    under a game that is gone, which breaks structure.chain and structure.active-is-deepest
    (its depth counts only the ancestors still there). The encoding kept the old depth and
    proved both; now it counts the same, and the step conforms."""
    from shahrazad.proofs.evidence.conformance import conform

    rulebook = load_amendment(REGRESSIONS / "s8-restart-destroys-main.amendment.toml").apply(
        official())
    scenario = load_scenario(REGRESSIONS / "s8-three-levels.toml", check=problems)
    (event,) = scenario.events
    outcome = Interpreter(rulebook, SeededChooser(scenario.seed or 0)).step(
        scenario.situation, event)
    evaluator = Evaluator(scenario.situation, outcome.situation, binding_of(outcome))
    for broken in ("structure.chain", "structure.active-is-deepest"):
        assert not evaluator.holds(by_id(broken).term)
    assert conform(rulebook, scenario.situation, event) == []


@pytest.mark.slow
@pytest.mark.parametrize("invariant", ["structure.chain", "structure.active-is-deepest"])
def test_s8_refuted_with_a_reaching_trace(invariant: str) -> None:
    """s8's two false proofs are refutations, each reached from a game's beginning (the
    counterexample needs four games: the universe grows past the bound of three)."""
    from shahrazad.proofs.evidence.reach import breaks_invariant, replay_reached
    from shahrazad.proofs.solving.obligations import Obligation, Status
    from shahrazad.proofs.verdicts.prove import prove

    rulebook = load_amendment(REGRESSIONS / "s8-restart-destroys-main.amendment.toml").apply(
        official())
    ob = Obligation(by_id(invariant), "restart")
    result = prove(rulebook, ob)
    assert result.status == Status.REFUTED, result.reason
    assert result.trace is not None
    assert replay_reached(result.trace, rulebook, breaks_invariant(ob.invariant)) is None


@pytest.mark.slow
def test_f1_a_counterexample_no_scenario_writes_is_not_a_fault() -> None:
    """f1: under another change `protection` makes (the end of a subgame destroys the main
    game's zones), z3's counterexample to end.main-marks-kept was a mark on an object that
    does not exist, which no scenario can write: it did not replay, a fault of the tool.
    With the lemma on records (`lemmas.RECORDS`, an invariant) assumed, z3's next
    counterexample replays and is reached."""
    from shahrazad.proofs.evidence.reach import breaks_invariant, replay_reached
    from shahrazad.proofs.solving.obligations import Obligation, Status
    from shahrazad.proofs.verdicts.prove import prove

    rulebook = load_amendment(REGRESSIONS / "f1-end-destroys-main.amendment.toml").apply(
        official())
    ob = Obligation(by_id("end.main-marks-kept"), "end-subgame")
    result = prove(rulebook, ob)
    assert result.status == Status.REFUTED, result.reason
    assert result.trace is not None
    assert replay_reached(result.trace, rulebook, breaks_invariant(ob.invariant)) is None
