"""Where a card came from into a game (`came-from`) and the destination outside the game
(`move-to = { zone = "outside" }`), in both readings.

The interpreter records the zone a card began a game in (a move before the game's first
turn) and how an effect brought it in later (from a main game, from outside); the selector
reads the record and the outside destination puts cards in their owners' places outside
the game. The encoder's transition is the same relation on each of these steps
(conformance, every attribute of every element), the structure invariants about the record
are proofs, and the amendment that uses both refutes 728.5's promise with a reached trace.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from shahrazad.invariants.catalog import by_id
from shahrazad.model.amendment import load_amendment
from shahrazad.model.errors import InputError
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.language import LanguageError, parse_step
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.model.scenario import Scenario, parse_scenario
from shahrazad.model.state import Situation
from shahrazad.model.strategies import situations
from shahrazad.proofs.evidence.conformance import conform
from shahrazad.proofs.evidence.reach import is_beginning
from shahrazad.proofs.solving.obligations import Obligation, Status
from shahrazad.proofs.verdicts.prove import prove

from tests.situations import with_step

ROOT = Path(__file__).resolve().parent.parent
AMENDMENT = ROOT / "examples" / "amendments" / "brought-in-cards-go-back-outside.toml"

# A subgame under way: Ann's library went into it (728.2), her planar deck too (728.2a);
# her Bear was brought in from the main game's graveyard and her Wish card from outside.
SUBGAME = '''
schema = "shahrazad.scenario/1"
players = ["Ann", "Bob"]

[[game]]
id = "main"
variants = ["planechase"]

[[game]]
id = "sub"
parent = "main"
created-by = "shahrazad"
came-from = { lib = "library", plane = "deck", bear = "main-game", wish = "outside" }
began-in-deck = { plane = "planar" }

[[card]]
id = "lib"
owner = "Ann"
at = "sub/battlefield"

[[card]]
id = "plane"
owner = "Ann"
type = "plane"
at = "sub/command"

[[card]]
id = "bear"
owner = "Ann"
at = "sub/hand/Ann"

[[card]]
id = "wish"
owner = "Ann"
at = "sub/graveyard/Ann"

[[card]]
id = "bob-card"
owner = "Bob"
at = "sub/exile"

[[object]]
id = "shahrazad"
kind = "ability"
controller = "Ann"
at = "main/stack"

[[object]]
id = "goblin"
kind = "token"
controller = "Ann"
at = "sub/battlefield"
'''


def _subgame() -> Scenario:
    return parse_scenario(SUBGAME, file="came-from.toml")


def _amended() -> Rulebook:
    return load_amendment(AMENDMENT).apply(official())


def _step(select: dict[str, object], move_to: dict[str, object]) -> Rulebook:
    """The official rules with one more clause on end-subgame, its first."""
    return with_step("end-subgame", "subgame.end.result", "728.5",
                     {"select": select, "move-to": move_to})


# ---- the interpreter ------------------------------------------------------------------------


def test_a_subgame_records_where_its_cards_began_it() -> None:
    """728.2: the libraries go into the subgame's libraries, the decks into its command zone
    (728.2a); both before its first turn, so each card began the subgame there."""
    state = parse_scenario('''
schema = "shahrazad.scenario/1"
players = ["Ann", "Bob"]
game = [{ id = "main", variants = ["planechase", "commander"] }]
card = [
  { id = "a", owner = "Ann", at = "main/library/Ann" },
  { id = "p", owner = "Ann", type = "plane", at = "main/deck/Ann/planar", face = "down" },
  { id = "c", owner = "Bob", at = "main/command", commander = true },
  { id = "g", owner = "Bob", at = "main/graveyard/Bob" },
]
''', file="start.toml").situation
    after = Interpreter(official()).step(state, Event("start-subgame", {"by": "Ann"})).situation
    sub = after.active_game()
    assert sub.came_from == {"a": "library", "p": "deck", "c": "command"}
    assert after.games["main"].came_from == {}  # the main game began long before


def test_bring_in_records_main_game_or_outside() -> None:
    scenario = _subgame()
    state = scenario.situation
    moved = Interpreter(official()).step(state, Event("move", {
        "object": "lib", "to": "sub/graveyard/Ann"})).situation
    assert moved.games["sub"].came_from["lib"] == "library"  # kept: the game had begun
    outside = parse_scenario(SUBGAME.replace('at = "sub/graveyard/Ann"', 'at = "outside/Ann"'),
                             file="x.toml").situation
    outside.games["sub"].came_from.pop("wish")
    after = Interpreter(official()).step(outside, Event("bring-in", {"card": "wish"})).situation
    assert after.games["sub"].came_from["wish"] == "outside"
    in_main = parse_scenario(SUBGAME.replace('at = "sub/hand/Ann"', 'at = "main/graveyard/Ann"'),
                             file="y.toml").situation
    in_main.games["sub"].came_from.pop("bear")
    after = Interpreter(official()).step(in_main, Event("bring-in", {"card": "bear"})).situation
    assert after.games["sub"].came_from["bear"] == "main-game"


@pytest.mark.parametrize(("came", "chosen"), [
    ("outside", {"wish"}),
    ("main-game", {"bear"}),
    ("library", {"lib"}),
    ("deck", {"plane"}),
    ("command", {"plane"}),  # a supplementary deck lies in the command zone
    (["main-game", "outside"], {"bear", "wish"}),
])
def test_the_selector_reads_the_record(came: object, chosen: set[str]) -> None:
    rulebook = _step({"game": "subgame", "came-from": came}, {"zone": "outside"})
    after = Interpreter(rulebook).step(_subgame().situation, Event("end-subgame", {})).situation
    gone = {o for o, where in after.where.items() if where.is_outside}
    assert gone == chosen


def test_only_cards_go_outside() -> None:
    rulebook = _step({"game": "subgame", "object": ["card", "token"]}, {"zone": "outside"})
    result = Interpreter(rulebook).step(_subgame().situation, Event("end-subgame", {}))
    after = result.situation
    assert {o for o, w in after.where.items() if w.is_outside} == {
        "lib", "plane", "bear", "wish", "bob-card"}
    assert after.where["bob-card"].player == "Bob"  # to its owner (400.11)
    assert "goblin" not in after.objects  # stayed, then ceased with the subgame (728.5)
    said = [c for step in result.trace for c in step.changes if c.object == "goblin"]
    assert any(c.what == "stays" and "only a card can be outside the game" in str(c.after)
               for c in said)


# ---- both readings --------------------------------------------------------------------------


# Each takes 2 to 12 s: behind `slow` (issue 9's quick suite); `.ci/run` runs them.
@pytest.mark.slow
@pytest.mark.parametrize("came", ["outside", "main-game", "library", "command", "hand"])
def test_both_readings_agree_on_the_selector_and_the_outside_destination(came: str) -> None:
    rulebook = _step({"game": "subgame", "came-from": came}, {"zone": "outside"})
    assert conform(rulebook, _subgame().situation, Event("end-subgame", {})) == []


@pytest.mark.slow  # 3 to 6 s: behind `slow` (issue 9's quick suite), like every example's steps
def test_both_readings_agree_on_the_records_at_a_start_and_a_restart() -> None:
    scenario = parse_scenario((ROOT / "examples" / "subgame.start.supplementary-decks.toml")
                              .read_text(), file="decks.toml")
    assert conform(official(), scenario.situation, scenario.events[0]) == []
    scenario = parse_scenario((ROOT / "examples" / "restart.cards-involved.toml").read_text(),
                              file="restart.toml")
    assert conform(official(), scenario.situation, scenario.events[0]) == []


@pytest.mark.parametrize("card", ["wish", "bear"])
def test_both_readings_agree_on_bring_in(card: str) -> None:
    text = (SUBGAME.replace('at = "sub/graveyard/Ann"', 'at = "outside/Ann"')
            .replace('at = "sub/hand/Ann"', 'at = "main/graveyard/Ann"'))
    state = parse_scenario(text, file="z.toml").situation
    state.games["sub"].came_from.pop(card)
    assert conform(official(), state, Event("bring-in", {"card": card})) == []


@pytest.mark.slow
@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(situations(max_players=3, max_cards=6, max_depth=2))
def test_both_readings_agree_on_the_amendment_on_generated_situations(state: Situation) -> None:
    if state.active_game().parent is None:
        return
    assert conform(_amended(), state, Event("end-subgame", {})) == []


# ---- the language and the scenario format ---------------------------------------------------


@pytest.mark.parametrize(("move_to", "key"), [
    ({"zone": "outside", "game": "main"}, "move-to.game"),
    ({"zone": "outside", "face": "up"}, "move-to.face"),
    ({"game": "main"}, "move-to.zone"),
])
def test_outside_is_written_alone(move_to: dict[str, object], key: str) -> None:
    with pytest.raises(LanguageError, match=key.replace(".", r"\.")):
        parse_step("step[0]", {"select": {"game": "subgame"}, "move-to": move_to},
                   "end-subgame")


def test_came_from_takes_only_known_origins() -> None:
    with pytest.raises(LanguageError, match="came-from"):
        parse_step("step[0]", {"select": {"game": "subgame", "came-from": "sideboard"},
                               "cease": True}, "end-subgame")


def test_the_outside_destination_reads_back() -> None:
    step = parse_step("s", {"select": {"game": "subgame", "came-from": ["outside"]},
                            "move-to": {"zone": "outside"}}, "end-subgame")
    assert step.as_data() == {"select": {"game": "subgame", "came-from": ["outside"]},
                              "move-to": {"zone": "outside"}}
    assert step.describe() == "each object in subgame (came from outside) -> outside the game"


@pytest.mark.parametrize(("mark", "message"), [
    ('{ x = "sideboard" }', "is not one of"),
    ('{ x = "main-game" }', "is not a subgame"),
])
def test_a_scenario_record_must_be_possible(mark: str, message: str) -> None:
    text = f'players = ["Ann", "Bob"]\ngame = [{{ id = "main", came-from = {mark} }}]\n'
    with pytest.raises(InputError, match=message):
        parse_scenario(text, file="bad.toml")


# ---- proofs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("invariant", ["structure.came-in-from-a-main-game",
                                       "structure.games-begun"])
@pytest.mark.parametrize("event", ["start-subgame", "restart", "bring-in", "end-subgame"])
def test_the_records_structure_is_proved(invariant: str, event: str) -> None:
    assert prove(official(), Obligation(by_id(invariant), event)).status == Status.PROVED


@pytest.mark.slow  # moved behind slow to keep the quick suite quick (issue 9)
def test_the_amendment_is_refuted_with_a_reached_trace() -> None:
    ob = Obligation(by_id("end.traditional-to-owner-library"), "end-subgame")
    assert prove(official(), ob).status == Status.PROVED
    result = prove(_amended(), ob)
    assert result.status == Status.REFUTED, result.reason
    assert result.trace is not None and is_beginning(result.trace.situation) == []
    assert any(e.kind == "bring-in" for e in result.trace.events)
    before = result.counterexample
    assert before is not None
    assert "outside" in {came for g in before.situation.games.values()
                         for came in g.came_from.values()}
