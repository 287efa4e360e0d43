"""The step that changes an owner (`set = { owner = "controller" }`), in both readings: the
interpreter gives a controlled card to its controller and leaves the others; the encoder's
transition is the same relation on that step (conformance); and "no card changes owner"
(restart.owners) is now a proof about the steps, refuted by the amendment that uses it."""

from __future__ import annotations

from pathlib import Path

import pytest
from shahrazad.invariants.catalog import by_id
from shahrazad.model.amendment import load_amendment
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.language import LanguageError, parse_step
from shahrazad.model.rulebook import official
from shahrazad.model.scenario import Scenario, parse_scenario
from shahrazad.proofs.evidence.conformance import conform
from shahrazad.proofs.solving.obligations import Obligation, Status
from shahrazad.proofs.verdicts.prove import prove

ROOT = Path(__file__).resolve().parent.parent
AMENDMENT = ROOT / "examples" / "amendments" / "2011-713.2-controller-takes-ownership.toml"
SCENARIO = '''
schema = "shahrazad.scenario/1"
players = ["P1", "P2"]
game = [{ id = "main" }]
event = [{ do = "restart", controller = "P1", via = "karn1" }]

[[card]]
id = "stolen"
owner = "P1"
at = "main/battlefield"
controller = "P2"

[[card]]
id = "mine"
owner = "P1"
at = "main/battlefield"

[[card]]
id = "drawn"
owner = "P2"
at = "main/hand/P2"

[[object]]
id = "karn1"
kind = "ability"
name = "Karn Liberated (restart ability)"
controller = "P1"
at = "main/stack"
'''


def _scenario() -> Scenario:
    return parse_scenario(SCENARIO, file="owners.toml")


def test_the_interpreter_gives_a_controlled_card_to_its_controller() -> None:
    scenario = _scenario()
    amended = load_amendment(AMENDMENT).apply(official())
    after = Interpreter(amended).run(scenario.situation, scenario.events).situation
    owners = {o: after.objects[o].owner for o in ("stolen", "mine", "drawn")}
    assert owners == {"stolen": "P2", "mine": "P1", "drawn": "P2"}
    assert after.where["stolen"].player == "P2"  # in its new owner's library
    official_after = Interpreter(official()).run(scenario.situation, scenario.events).situation
    assert official_after.objects["stolen"].owner == "P1"


@pytest.mark.parametrize("amended", [  # the official rules' step behind `slow` (issue 9)
    pytest.param(False, marks=pytest.mark.slow), True])
def test_both_readings_agree_on_the_step(amended: bool) -> None:
    rulebook = load_amendment(AMENDMENT).apply(official()) if amended else official()
    scenario = _scenario()
    assert conform(rulebook, scenario.situation, scenario.events[0]) == []


@pytest.mark.slow  # moved behind slow to keep the quick suite quick (issue 9)
def test_no_owner_changes_is_a_proof_about_the_steps() -> None:
    ob = Obligation(by_id("restart.owners"), "restart")
    assert prove(official(), ob).status == Status.PROVED
    amended = load_amendment(AMENDMENT).apply(official())
    refuted = prove(amended, ob)
    assert refuted.status == Status.REFUTED and refuted.trace is not None


@pytest.mark.parametrize("value", ["opponent", True, "owner"])
def test_only_the_controller_can_become_the_owner(value: object) -> None:
    with pytest.raises(LanguageError, match="set.owner"):
        parse_step("step[0]", {"select": {"game": "restarted"}, "set": {"owner": value}},
                   "restart")
