"""The search for reaching runs (`proofs.evidence.search`): shortest first, legal, renaming.

Breadth first from a game's beginning, the first run found is a shortest one; situations
that differ only in the names the interpreter made up are one; every situation on the way
is legal under the rulebook checked (`structure.still_legal`: what its own events leave,
never a new breach made by an in-game action); and the run replays from its beginning
with the scenario's seed.
"""

from __future__ import annotations

from pathlib import Path

from shahrazad.invariants.structure import catalog_problems, still_legal, violations
from shahrazad.model.amendment import load_amendment
from shahrazad.model.choices import SeededChooser
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.objects import GameObject, ZoneRef
from shahrazad.model.rulebook import official
from shahrazad.model.state import Game, Situation
from shahrazad.proofs.evidence import search
from shahrazad.proofs.evidence.reach import breaks_invariant, replay_reached
from shahrazad.proofs.solving.obligations import obligations
from shahrazad.proofs.verdicts.prove import Status, prove

ROOT = Path(__file__).resolve().parent.parent
# Subgame wording 1 (2003): libraries go into the subgame face down, which today's
# structure invariant `structure.face-down-places` calls illegal.
WORDING_1 = ROOT / "examples" / "history" / "subgames-01.toml"


def _beginning() -> Situation:
    state = Situation(players=["P1", "P2"])
    main = Game(id="main", players=["P1", "P2"], status="active")
    state.games["main"] = main
    state.create_zones(main)
    for player in state.players:
        state.outside(player)
    state.objects["c1"] = GameObject(id="c1", kind="card", owner="P1", controller="P1")
    state.place("c1", ZoneRef("main", "library", "P1"), "bottom")
    return state


def test_names_made_up_by_the_interpreter_do_not_tell_situations_apart() -> None:
    start = _beginning()
    later = start.copy()
    later.serial += 5  # the next game the interpreter makes gets another name
    step = Event("start-subgame", {"by": "P1"})
    one = Interpreter(official(), SeededChooser(0)).step(start, step).situation
    other = Interpreter(official(), SeededChooser(0)).step(later, step).situation
    assert set(one.games) != set(other.games)
    known = frozenset(start.objects) | frozenset(start.games)
    assert search.key(one, known) == search.key(other, known)


def test_the_first_run_found_is_a_shortest_and_replays() -> None:
    """The card on the battlefield of a subgame: a subgame starts (its libraries go with
    it, 728.2) and the card is moved there: two events, found before any longer run."""
    start = _beginning()

    def on_a_subgame_battlefield(interp: Interpreter, state: Situation, event: Event) -> bool:
        where = state.where["c1"]
        game = state.games.get(where.game or "")
        return game is not None and game.parent is not None and where.kind == "battlefield"

    run = search.search(start, official(), lambda state: [Event("end-subgame", {})],
                        on_a_subgame_battlefield, search.Vocabulary(frozenset({"battlefield"})))
    assert run is not None
    assert [e.kind for e in run.events] == ["start-subgame", "move", "end-subgame"]
    interp = Interpreter(official(), SeededChooser(0))
    state = start
    for index, event in enumerate(run.events[:-1], start=1):
        assert catalog_problems(state) == []
        state = interp.step(state, event, index).situation
    assert search.key(state, frozenset()) == search.key(run.before, frozenset())


def test_a_bound_reached_finds_nothing() -> None:
    start = _beginning()
    never = search.search(start, official(), lambda state: [Event("end-subgame", {})],
                          lambda interp, state, event: False,
                          search.Vocabulary(frozenset({"battlefield"})))
    assert never is None


def test_what_the_rules_own_event_leaves_is_legal_an_in_game_action_makes_no_new_breach(
        ) -> None:
    wording_1 = load_amendment(str(WORDING_1)).apply(official())
    start = _beginning()
    started = Interpreter(wording_1, SeededChooser(0)).step(
        start, Event("start-subgame", {"by": "P1"})).situation
    breaches = violations(started)
    assert [b.split(" ")[0] for b in breaches] == ["structure.face-down-places#0"]
    assert still_legal(frozenset(), started, by_the_rules=True) == breaches
    assert still_legal(frozenset(), started, by_the_rules=False) is None
    # An in-game action may keep a breach the rules made, and may mend it ...
    assert still_legal(breaches, started.copy(), by_the_rules=False) == breaches
    subgame = next(g for g in started.games if g != "main")
    moved = Interpreter(wording_1, SeededChooser(0)).step(
        started, Event("move", {"object": "c1", "to": f"{subgame}/hand/P1"})).situation
    assert still_legal(breaches, moved, by_the_rules=False) == frozenset()
    # ... but what it does to a card in breach is a new breach.
    changed = started.copy()
    changed.objects["c1"].controller = "P2"
    assert catalog_problems(changed) != []
    assert still_legal(breaches, changed, by_the_rules=False) is None


def test_every_breach_is_listed_not_only_the_first() -> None:
    state = _beginning()
    state.objects["c2"] = GameObject(id="c2", kind="card", owner="P1", controller="P1")
    state.place("c2", ZoneRef("main", "library", "P1"), "bottom")
    for card in ("c1", "c2"):
        state.objects[card].face_up = False
    breaches = violations(state)
    assert {b.split("'")[1] for b in breaches} == {"c1", "c2"}
    assert catalog_problems(state)[0].startswith("structure.face-down-places [o = c1]")


def test_a_wording_whose_events_break_the_structure_is_refuted_through_them() -> None:
    """Wording 1 sends each card home to its controller's library: a card whose control
    changed in the subgame ends in another player's library. The way there passes through
    the face-down libraries that wording makes."""
    wording_1 = load_amendment(str(WORDING_1)).apply(official())
    (ob,) = [o for o in obligations(["structure.owners-zones"]) if o.event == "end-subgame"]
    result = prove(wording_1, ob)
    assert result.status is Status.REFUTED, result.reason
    assert result.trace is not None
    kinds = [e.kind for e in result.trace.events]
    assert kinds[0] == "start-subgame" and kinds[-1] == "end-subgame" and "control" in kinds
    assert replay_reached(result.trace, wording_1, breaks_invariant(ob.invariant)) is None
    assert replay_reached(result.trace, official(), breaks_invariant(ob.invariant)) is not None
