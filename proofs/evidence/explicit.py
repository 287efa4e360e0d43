"""An explicit-state search of the same rules: every small situation, every event.

The plain alternative to the proofs, kept for comparison and as a cross-check: enumerate
every situation up to a number of players, cards and nested games (the cards' owners,
kinds and places), run every event the situation allows with the concrete interpreter, and
evaluate every invariant with the concrete reading. It covers only the sizes it reaches, and
its cost grows exponentially with them (see `benchmarks/verify.py`); the proofs cover every
size.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from shahrazad.invariants.catalog import CATALOG, STRUCTURE, Invariant
from shahrazad.invariants.concrete import Binding, Evaluator
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.objects import GameObject, ZoneRef
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.state import Game, Situation

from .counterexample import binding_of

# What a card can be, and where: (card type, commander?) and zone kinds.
CARD_KINDS = (("traditional", False), ("traditional", True), ("plane", False),
              ("vanguard", False))
PLACES = ("library", "hand", "battlefield", "phased-out", "exile", "command", "deck",
          "outside")


@dataclass
class Violation:
    """An invariant (`invariant`, its id) that `event` breaks from `situation`, the situation before it."""

    invariant: str
    event: Event
    situation: Situation


@dataclass
class Search:
    """How much a search covered: the `situations` enumerated (ill-formed ones included), the
    `transitions` (events the interpreter allowed from well-formed ones) and the invariant
    `checks` made on them."""

    situations: int = 0
    transitions: int = 0
    checks: int = 0


def _legal_place(ctype: str, commander: bool, place: str) -> bool:
    if place == "deck":
        return ctype == "plane"
    if place in ("library", "phased-out"):
        return ctype == "traditional"
    if ctype == "vanguard":
        return place in ("command", "outside")
    return True


def situations(players: int, cards: int, depth: int) -> Iterator[Situation]:
    """Every situation with exactly these many players, cards and nested games (up to
    the symmetry of naming)."""
    names = [f"P{i + 1}" for i in range(players)]
    games = ["main"] + [f"sub{i}" for i in range(1, depth)]
    card_options = []
    for owner in names:
        for ctype, commander in CARD_KINDS:
            for game in games:
                for place in PLACES:
                    if not _legal_place(ctype, commander, place):
                        continue
                    if place == "outside" and game != "main":
                        continue
                    card_options.append((owner, ctype, commander, game, place))
    for combo in itertools.combinations_with_replacement(card_options, cards):
        state = Situation(players=list(names))
        for i, game in enumerate(games):
            g = Game(id=game, players=list(names), parent=games[i - 1] if i else None,
                     status="active" if i == len(games) - 1 else "suspended",
                     created_by="creator" if i else None)
            state.games[game] = g
            state.create_zones(g)
        for name in names:
            state.outside(name)
        for index, (owner, ctype, commander, game, place) in enumerate(combo):
            card = GameObject(id=f"c{index + 1}", kind="card", owner=owner, controller=owner,
                              card_type=ctype, commander=commander,
                              deck="planar" if ctype == "plane" else None)
            if place == "outside":
                zone = ZoneRef(None, "outside", owner)
            elif place in ("library", "hand"):
                zone = ZoneRef(game, place, owner)
            elif place == "deck":
                zone = ZoneRef(game, "deck", owner, "planar")
            elif place == "phased-out":  # a phased-out permanent (702.26b)
                zone = ZoneRef(game, "battlefield")
                card.phased_out = True
            else:
                zone = ZoneRef(game, place)
            state.objects[card.id] = card
            state.place(card.id, zone, "bottom")
        yield state


def events(state: Situation) -> Iterator[Event]:
    """The events tried from a situation: each player of the active game starts a subgame,
    restarts the game and leaves it; a subgame ends with no result and with a winner; every card
    outside the active game is brought in; every object in it phases and changes control to
    each other player; each card in its exile is exiled again with its first permanent or
    object on the stack; and that object restarts the game as Karn Liberated does, with the
    further instruction (no card of these situations is recorded as exiled with anything, so
    none is left in exile: that takes the exile one step before). Many are refused (`steps`
    says which)."""
    active = state.active_game()
    for player in active.players:
        yield Event("start-subgame", {"by": player})
        yield Event("restart", {"controller": player})
    if active.parent is not None:
        yield Event("end-subgame", {})
        yield Event("end-subgame", {"winner": [active.players[0]]})
    for player in active.players:
        yield Event("leave", {"player": player})
    for obj in state.objects.values():
        if state.where[obj.id].game != active.id and obj.is_card:
            yield Event("bring-in", {"card": obj.id})
        elif state.where[obj.id].game == active.id:
            yield Event("phase", {"object": obj.id, "out": not obj.phased_out})
            for player in active.players:
                if player != obj.controller:
                    yield Event("control", {"object": obj.id, "player": player})
    # Karn Liberated restarting the game: the situations here record no card as exiled with
    # anything, so the cards left in exile (computed, 726.5) are none; the exile with a
    # source is each such move, one step before.
    sources = [o.id for o in state.objects.values() if state.where[o.id].game == active.id
               and state.where[o.id].kind in ("battlefield", "stack")]
    for obj in state.objects.values():
        if obj.is_card and state.where[obj.id] == ZoneRef(active.id, "exile"):
            for source in sources[:1]:
                yield Event("move", {"object": obj.id, "to": f"{active.id}/exile",
                                     "exiled-with": source})
    if sources:
        yield Event("restart", {"controller": active.players[0], "then": "battlefield",
                                "source": sources[0]})


def steps(rulebook: Rulebook, players: int, cards: int,
          depth: int) -> Iterator[tuple[Situation, Event, bool]]:
    """Every situation of this size and every event of `events`, with whether the rulebook
    allows it there (the interpreter does not refuse it)."""
    for situation in situations(players, cards, depth):
        for event in events(situation):
            try:
                Interpreter(rulebook).run(situation, [event])
            except IllegalEvent:
                yield situation, event, False
                continue
            yield situation, event, True


def allowed_steps(rulebook: Rulebook, players: int, cards: int,
                  depth: int) -> Iterator[tuple[Situation, Event]]:
    """Every situation of this size and every event of `events` that the rulebook allows
    on it."""
    for situation, event, allowed in steps(rulebook, players, cards, depth):
        if allowed:
            yield situation, event


def search(rulebook: Rulebook, players: int, cards: int, depth: int,
           invariants: list[Invariant] | None = None,
           stop_at_first: bool = False) -> tuple[Search, list[Violation]]:
    """Check every invariant on every transition from every situation of this size."""
    todo = invariants if invariants is not None else CATALOG
    todo = [inv for inv in todo if inv.kind != "possible"]
    stats, found = Search(), []
    interpreter = Interpreter(rulebook)
    for state in situations(players, cards, depth):
        stats.situations += 1
        if any(not Evaluator(state, state, Binding()).holds(s.term) for s in STRUCTURE):
            continue
        for event in events(state):
            try:
                outcome = interpreter.run(state, [event])
            except IllegalEvent:
                continue
            stats.transitions += 1
            evaluator = Evaluator(state, outcome.situation, binding_of(outcome))
            for inv in todo:
                if event.kind not in inv.events:
                    continue
                stats.checks += 1
                if not evaluator.holds(inv.term):
                    found.append(Violation(inv.id, event, state))
                    if stop_at_first:
                        return stats, found
    return stats, found
