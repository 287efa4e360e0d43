"""The search for reaching runs (`proofs.evidence.search`): shortest first, legal, renaming.

Breadth first from a game's beginning, the first run found is a shortest one; situations
that differ only in the names the interpreter made up are one; every situation on the way
is legal; and the run replays from its beginning with the scenario's seed.
"""

from __future__ import annotations

from shahrazad.invariants.structure import catalog_problems
from shahrazad.model.choices import SeededChooser
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.objects import GameObject, ZoneRef
from shahrazad.model.rulebook import official
from shahrazad.model.state import Game, Situation
from shahrazad.proofs.evidence import search


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
