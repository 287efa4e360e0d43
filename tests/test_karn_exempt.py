"""Characteristics (permanent card, Aura), "exiled with", and Karn Liberated's exempt cards
computed from them, in both readings.

Karn Liberated: "Restart the game, leaving in exile all non-Aura permanent cards exiled with
Karn Liberated." The interpreter computes those cards from the situation (the cards' types
and the record of what exiled them) and the encoder computes the same set; a card is exiled
with an object only while both stay where they are (400.7). Each step is checked as a
transition (conformance: every attribute of every element), and refusals too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shahrazad.invariants.catalog import by_id
from shahrazad.model.errors import IllegalEvent, InputError
from shahrazad.model.events import Event, check_event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.model.scenario import Scenario, parse_scenario
from shahrazad.proofs.evidence.conformance import conform, conform_refusal
from shahrazad.proofs.solving.obligations import Obligation, Status
from shahrazad.proofs.verdicts.prove import prove

from tests.situations import with_step

ROOT = Path(__file__).resolve().parent.parent

# Ann's Karn Liberated exiled five of Bob's cards: a creature, an Aura, an instant, a land;
# Bob's Swords to Plowshares exiled his own Forest; Bob's Bear is on the battlefield.
PACIFISM = ('{ id = "pacifism", owner = "Bob", at = "main/exile", exiled-with = "karn", '
            'types = ["enchantment"], subtypes = ["Aura"] }')
KARN = f'''
schema = "shahrazad.scenario/1"
players = ["Ann", "Bob"]
game = [{{ id = "main" }}]
card = [
 {{ id = "karn", name = "Karn Liberated", owner = "Ann", at = "main/battlefield", types = ["planeswalker"] }},
  {{ id = "goyf", owner = "Bob", at = "main/exile", exiled-with = "karn" }},
  {PACIFISM},
  {{ id = "bolt", owner = "Bob", at = "main/exile", exiled-with = "karn", types = ["instant"] }},
  {{ id = "island", owner = "Bob", at = "main/exile", exiled-with = "karn", types = ["land"] }},
  {{ id = "swords", owner = "Bob", at = "main/graveyard/Bob", types = ["instant"] }},
  {{ id = "forest", owner = "Bob", at = "main/exile", exiled-with = "bear", types = ["land"] }},
  {{ id = "bear", owner = "Bob", at = "main/battlefield" }},
  {{ id = "lib", owner = "Bob", at = "main/library/Bob", types = ["sorcery"] }},
]
object = [
  {{ id = "karn-ability", kind = "ability", controller = "Ann", at = "main/stack" }},
  {{ id = "tok", kind = "token", controller = "Bob", at = "main/battlefield" }},
]
'''
RESTART = Event("restart", {"controller": "Ann", "source": "karn", "via": "karn-ability",
                            "then": "battlefield"})


def _karn(text: str = KARN) -> Scenario:
    return parse_scenario(text, file="karn.toml")


def _after(event: Event, rulebook: Rulebook | None = None) -> object:
    return Interpreter(rulebook or official()).step(_karn().situation, event).situation


# ---- the interpreter ------------------------------------------------------------------------


def test_karn_leaves_in_exile_the_non_aura_permanent_cards_it_exiled() -> None:
    after = _after(RESTART)
    new = after.active_game().id  # type: ignore[attr-defined]
    where = {c: after.where[c].path() for c in ("goyf", "island", "pacifism", "bolt",  # type: ignore[attr-defined]
                                                 "forest")}
    assert where["goyf"] == f"{new}/battlefield" and where["island"] == f"{new}/battlefield"
    assert where["pacifism"] == f"{new}/library/Bob"  # an Aura: not exempt
    assert where["bolt"] == f"{new}/library/Bob"      # not a permanent card
    assert where["forest"] == f"{new}/library/Bob"    # exiled with another object


def test_without_a_source_nothing_is_exempt() -> None:
    after = _after(Event("restart", {"controller": "Ann"}))
    assert all(after.where[c].kind == "library" for c in ("goyf", "island"))  # type: ignore[attr-defined]


def test_karn_dying_before_its_ability_resolves_still_leaves_its_cards() -> None:
    """Karn at 14 loyalty activates -14 and dies (704.5i) before the ability resolves: the
    ability on the stack still refers to the cards Karn exiled (112.7a, 607.2a)."""
    state = _karn().situation
    dead = Interpreter().step(state, Event("move", {"object": "karn",
                                                    "to": "main/graveyard/Ann"})).situation
    assert dead.objects["goyf"].exiled_with == "karn"
    after = Interpreter().step(dead, RESTART).situation
    assert after.where["goyf"].kind == "battlefield"
    assert after.where["pacifism"].kind == "library"


def test_a_move_into_exile_records_what_exiled_the_card() -> None:
    after = _after(Event("move", {"object": "lib", "to": "main/exile", "exiled-with": "karn"}))
    assert after.objects["lib"].exiled_with == "karn"  # type: ignore[attr-defined]
    moved_out = Interpreter().step(after, Event("move", {"object": "goyf",  # type: ignore[arg-type]
                                                         "to": "main/graveyard/Bob"})).situation
    assert moved_out.objects["goyf"].exiled_with is None  # a new object (400.7)


@pytest.mark.parametrize(("event", "message"), [
    (Event("move", {"object": "swords", "to": "main/battlefield"}), "not a permanent card"),
    (Event("move", {"object": "swords", "to": "main/graveyard/Bob", "exiled-with": "karn"}),
     "into exile"),
    (Event("move", {"object": "swords", "to": "main/exile", "exiled-with": "nothing"}),
     "no object"),
    (Event("restart", {"controller": "Ann", "source": "main"}), "no object"),
    (Event("move", {"object": "swords", "to": "main/exile", "exiled-with": "lib"}),
     "neither a permanent nor on the stack"),
])
def test_refusals(event: Event, message: str) -> None:
    with pytest.raises(IllegalEvent, match=message):
        Interpreter().step(_karn().situation, event)


def test_the_exempt_argument_of_earlier_versions_is_refused_with_the_way_out() -> None:
    parsed, problem = check_event({"do": "restart", "controller": "Ann", "exempt": ["goyf"]})
    assert parsed is None and "computed" in problem and "exiled-with" in problem


# ---- both readings --------------------------------------------------------------------------


SLOW = pytest.mark.slow  # a restart's conformance takes 4 to 9 s: the first is quick


# The restarts take 4 s or more: behind `slow` (the exempt Contraption's restart is quick).
@pytest.mark.parametrize("event", [
    pytest.param(RESTART, marks=SLOW),
    pytest.param(Event("restart", {"controller": "Ann"}), marks=SLOW),
    Event("move", {"object": "lib", "to": "main/exile", "exiled-with": "karn"}),
    Event("move", {"object": "karn", "to": "main/graveyard/Ann"}),
    Event("move", {"object": "goyf", "to": "main/hand/Bob"}),
    pytest.param(Event("restart", {"controller": "Ann", "source": "gone-karn"}), marks=SLOW),
], ids=["karn", "no-source", "exile-with", "karn-moves", "exiled-card-moves", "gone-source"])
def test_both_readings_agree(event: Event) -> None:
    assert conform(official(), _karn().situation, event) == []


@pytest.mark.parametrize("event", [
    Event("move", {"object": "swords", "to": "main/battlefield"}),
    Event("move", {"object": "swords", "to": "main/graveyard/Bob", "exiled-with": "karn"}),
    Event("move", {"object": "swords", "to": "main/exile", "exiled-with": "lib"}),
    Event("move", {"object": "tok", "to": "main/exile", "exiled-with": "karn"}),
], ids=["instant-to-battlefield", "exiled-with-elsewhere", "exiler-in-a-library",
        "token-exiled-with"])
def test_both_readings_refuse(event: Event) -> None:
    assert conform_refusal(official(), _karn().situation, event) == []


@pytest.mark.slow
def test_both_readings_agree_on_the_selectors_and_a_step_onto_the_battlefield() -> None:
    """An amendment's step puts the restarted game's exiled Auras and non-permanent cards
    onto the new battlefield: the Aura goes, the instant stays (110.4b)."""
    onto = {"game": "new", "zone": "battlefield"}
    amended = with_step(
        "restart", "restart.cards-involved", "726.5",
        {"select": {"game": "restarted", "zone": "exile", "aura": True}, "move-to": onto},
        {"select": {"game": "restarted", "zone": "exile", "permanent-card": False},
         "move-to": onto})
    after = Interpreter(amended).step(_karn().situation, RESTART).situation
    assert after.where["pacifism"].kind == "battlefield"
    assert after.where["bolt"].kind == "library"  # stayed, then went with the rest (726.2)
    assert conform(amended, _karn().situation, RESTART) == []


# ---- the scenario format --------------------------------------------------------------------


@pytest.mark.parametrize(("change", "message"), [
    (('id = "bear", owner = "Bob", at = "main/battlefield"',
      'id = "bear", owner = "Bob", at = "main/battlefield", types = ["sorcery"]'),
     "only a permanent card is on the battlefield face up"),
    (('types = ["enchantment"], subtypes', 'types = ["creature"], subtypes'),
     "an Aura is an enchantment"),
    (('at = "main/graveyard/Bob", types', 'at = "main/graveyard/Bob", exiled-with = "karn", types'),
     "exiled-with names what exiled a card in exile"),
    (('exiled-with = "bear"', 'exiled-with = "forest"'), "another object"),
    (('types = ["land"] },\n  { id = "swords"', 'types = ["lands"] },\n  { id = "swords"'),
     "types must be card types"),
])
def test_a_scenario_must_be_possible(change: tuple[str, str], message: str) -> None:
    old, new = change
    assert old in KARN
    with pytest.raises(InputError, match=message):
        _karn(KARN.replace(old, new, 1))


# ---- proofs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("invariant", ["structure.characteristics", "structure.exiled-with"])
@pytest.mark.parametrize("event", ["restart", "move", "bring-in", "end-subgame"])
def test_the_structure_is_proved(invariant: str, event: str) -> None:
    assert prove(official(), Obligation(by_id(invariant), event)).status == Status.PROVED


def test_the_karn_examples_replay() -> None:
    """examples/restart.exempt.toml: Tarmogoyf stays in exile and enters the battlefield;
    Pacifism, an Aura Karn exiled, goes to Bob's library."""
    from shahrazad.model.scenario import load_scenario
    scenario = load_scenario(ROOT / "examples" / "restart.exempt.toml")
    after = Interpreter().run(scenario.situation, scenario.events).situation
    assert after.where["bob-tarmogoyf"].kind == "battlefield"
    assert after.where["bob-pacifism"].kind == "library"


def test_a_manifested_instant_stays_face_down() -> None:
    """A face-down permanent may be an instant card (manifest, 701.40): the scenario reader
    takes it; turning it face up is refused (701.40b), in both readings."""
    text = KARN.replace('{ id = "bear", owner = "Bob", at = "main/battlefield" }',
                        '{ id = "bear", owner = "Bob", at = "main/battlefield", face = "down", '
                        'types = ["instant"] }')
    scenario = _karn(text)
    turn = Event("turn", {"object": "bear", "face": "up"})
    with pytest.raises(IllegalEvent, match="cannot be turned face up"):
        Interpreter().step(scenario.situation, turn)
    assert conform_refusal(official(), scenario.situation, turn) == []
    down = Event("turn", {"object": "goyf", "face": "down"})
    assert conform(official(), scenario.situation, down) == []
