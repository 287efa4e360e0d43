"""Reaching by search: the shortest legal run from a game's beginning to a broken promise.

A counterexample of a proof is a situation and one event. The recipe of `reach` builds a
way to that very situation; where the rules give it none (a card the recipe would move
into a subgame from its main game, which only the active game may do: CR 728.4), the
promise may still break in a game that gets somewhere else. `search` looks for such a game:
breadth first from the counterexample's game's beginning (its players and cards, each
where a game starts it: `reach.beginning`), it tries every event the active game allows
(the rules' events: subgames started and ended, restarts, cards brought in; and every
in-game action: moves to every zone, control, phasing, turning, counters, tokens, abilities
and effects created, players leaving), runs each on the interpreter under the rulebook
checked, keeps only legal situations (`structure.still_legal`: what the rulebook's own
events leave, and no new breach of a structure invariant by an in-game action), and after
each asks whether the obligation's event breaks the promise there. Situations that differ only in
the names the interpreter made up (games, tokens) are one (symmetry reduction by
renaming). Breadth first, the first run found is a shortest in events.

Every random choice on the way (shuffles, a subgame's starting player) is made by the
chooser of the scenario's seed, carried along each run, so `shahrazad simulate` replays the
very run. The search is bounded by `DEPTH` events and `STATES` situations, both fixed, so
its answer is the same on every run.
"""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from shahrazad.invariants.structure import catalog_problems, still_legal
from shahrazad.model.actions import IN_GAME_ACTIONS
from shahrazad.model.choices import SeededChooser
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.objects import DECK_OF, PLAYER_ZONES, GameObject, ZoneRef
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.state import Situation

DEPTH = 6  # events before the last one, at most
STATES = 300  # legal situations expanded per vocabulary, at most
CREATED = 2  # objects the run may create, at most (tokens, abilities, effects)

# Where `move` and `bring-in` take an object; a player's zone is its owner's (400.3).
SHARED = ("battlefield", "exile", "stack", "command")
# Created objects, with the zone each exists in (111.1, 113.3, 114.1, 611.1).
CREATE = (("ability", "stack"), ("token", "battlefield"), ("effect", "effects"),
          ("emblem", "command"))
PLAYER_COUNTER, OBJECT_COUNTER = "poison", "+1/+1"  # the counters the search adds


@dataclass
class Run:
    """A run found: the events from the beginning (the last one the obligation's), and the
    situation just before the last."""

    events: list[Event]
    before: Situation


@dataclass
class _Node:
    state: Situation
    events: list[Event]
    rng: tuple[Any, ...]  # the chooser's state after these events (`Random.getstate`)
    created: int
    allowed: frozenset[str]  # the structure's breaches the rules' events left (`still_legal`)


@dataclass(frozen=True)
class Vocabulary:
    """The events a search tries. `zones`, when given, are the only kinds of zone that
    `move` and `bring-in` take a card to (else every zone); `actions` says whether the
    other in-game actions (control, phasing, turning, counters, affecting, leaving) are
    tried, and `created` how many objects the run may create."""

    zones: frozenset[str] | None = None
    actions: bool = False
    created: int = 0


WIDEST = Vocabulary(None, True, CREATED)


def events(state: Situation, created: int = 0,
           vocabulary: Vocabulary = WIDEST) -> Iterator[Event]:
    """Every event of `vocabulary` tried from `state` (`created`: objects the run created so
    far): the rules' events and the in-game actions, on the active game (728.4: only it
    acts), in a fixed order."""
    try:
        active = state.active_game()
    except ValueError:
        return
    players = list(active.players)
    zones = vocabulary.zones
    for player in players:
        yield Event("start-subgame", {"by": player})
    if active.parent is not None:
        yield Event("end-subgame", {})
        for player in players if vocabulary.actions else ():
            yield Event("end-subgame", {"winner": [player]})
    for player in players:
        yield Event("restart", {"controller": player})
    here = [o for o in state.objects.values() if state.where[o.id].game == active.id]
    for obj in state.objects.values():
        if obj.is_card and state.where[obj.id].game != active.id:
            yield Event("bring-in", {"card": obj.id})
            for kind in ("battlefield", "exile", "graveyard", "library"):
                if zones is None or kind in zones:
                    yield Event("bring-in", {"card": obj.id, "to": kind})
    for obj in here:
        for dest in _destinations(state, active.id, obj.id):
            if dest != state.where[obj.id] and (zones is None or dest.kind in zones):
                yield Event("move", {"object": obj.id, "to": dest.path()})
    if vocabulary.actions:
        yield from _actions(state, active.id, here, players)
    if created < vocabulary.created:
        for kind, zone in CREATE:
            for player in players:
                yield Event("create", {"kind": kind, "controller": player,
                                       "to": f"{active.id}/{zone}"})
    for player in players if vocabulary.actions else ():
        yield Event("leave", {"player": player})


def _actions(state: Situation, active: str, here: list[GameObject],
             players: list[str]) -> Iterator[Event]:
    """The in-game actions other than moving and creating, on the objects `here`."""
    for obj in here:
        yield Event("phase", {"object": obj.id, "out": not obj.phased_out})
        yield Event("turn", {"object": obj.id, "face": "up" if not obj.face_up else "down"})
        for player in players:
            if player != obj.controller:
                yield Event("control", {"object": obj.id, "player": player})
        yield Event("counter", {"object": obj.id, "kind": OBJECT_COUNTER, "add": 1})
        if obj.counters:
            kind = sorted(obj.counters)[0]
            yield Event("counter", {"object": obj.id, "kind": kind, "add": -1})
    for obj in here:
        if state.where[obj.id].kind == "exile" and obj.is_card:
            for source in here:
                if state.where[source.id].kind in ("battlefield", "stack") and source is not obj:
                    yield Event("move", {"object": obj.id, "to": f"{active}/exile",
                                         "exiled-with": source.id})
    for effect in here:
        if effect.kind == "effect":
            for obj in here:
                if obj is not effect:
                    yield Event("affect", {"effect": effect.id, "object": obj.id})
            for player in players:
                yield Event("affect", {"effect": effect.id, "player": player})
    for player in players:
        yield Event("counter", {"player": player, "kind": PLAYER_COUNTER, "add": 1})
        if state.player_counters.get((active, player), {}).get(PLAYER_COUNTER):
            yield Event("counter", {"player": player, "kind": PLAYER_COUNTER, "add": -1})


def _destinations(state: Situation, game: str, obj_id: str) -> Iterator[ZoneRef]:
    """The zones of `game` an object may be moved to, and its owner's place outside."""
    obj = state.objects[obj_id]
    for kind in PLAYER_ZONES:
        yield ZoneRef(game, kind, obj.owner)
    for kind in SHARED:
        yield ZoneRef(game, kind)
    deck = DECK_OF.get(obj.card_type)
    if deck is not None:
        yield ZoneRef(game, "deck", obj.owner, deck)
    if obj.is_card:
        yield ZoneRef(None, "outside", obj.owner)


def key(state: Situation, known: frozenset[str]) -> str:
    """The situation written so that two situations differing only in the names the
    interpreter made up (games, created objects, triggers) are written alike."""
    made = [g for g in state.games] + [e.id for e in state.ended]
    made += [o for o in state.objects if o not in known]
    for game in state.games.values():
        made += [t.id for t in game.pending_triggers]
        made += [r for r in game.resolved if r not in known]
    names = {name: f"#{index}" for index, name in enumerate(dict.fromkeys(made))}
    text = repr((sorted((repr(o) for o in state.objects.values())),
                 sorted((z.path(), list(p)) for z, p in state.zones.items() if len(p)),
                 list(state.games.values()), state.ended,
                 sorted(state.player_counters.items()), sorted(state.player_effects.items())))
    if not names:
        return text
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in
                                          sorted(names, key=len, reverse=True)) + r")\b")
    return pattern.sub(lambda m: names[m.group(1)], text)


# What a run must lead to: given the interpreter that ran it (its chooser where the run
# left it), the situation reached and the last event, does the event do there what is
# sought? (`reach.breaks_invariant`, `reach.impossible`.)
Goal = Callable[[Interpreter, Situation, Event], bool]


def search(start: Situation, rulebook: Rulebook, finals: Callable[[Situation], list[Event]],
           goal: Goal, vocabulary: Vocabulary = WIDEST, seed: int = 0, depth: int = DEPTH,
           states: int = STATES) -> Run | None:
    """The shortest run (in events) from `start` whose situations are all legal and whose
    last event, one of `finals(situation)`, meets `goal`; None if there is none within
    `depth` events and `states` situations."""
    known = frozenset(start.objects) | frozenset(start.games)
    interp = Interpreter(rulebook, SeededChooser(seed))
    rng: random.Random = interp.chooser.rng  # type: ignore[attr-defined]
    if catalog_problems(start):
        return None
    queue = deque([_Node(start, [], rng.getstate(), 0, frozenset())])
    seen = {key(start, known)}
    expanded = 0
    while queue and expanded < states:
        node = queue.popleft()
        expanded += 1
        for final in finals(node.state):
            rng.setstate(node.rng)
            if goal(interp, node.state, final):
                return Run([*node.events, final], node.state)
        if len(node.events) >= depth:
            continue
        for event in events(node.state, node.created, vocabulary):
            rng.setstate(node.rng)
            try:
                after = interp.step(node.state, event, len(node.events) + 1).situation
            except IllegalEvent:
                continue
            written = key(after, known)
            if written in seen:
                continue
            allowed = still_legal(node.allowed, after, event.kind not in IN_GAME_ACTIONS)
            if allowed is None:
                continue
            seen.add(written)
            queue.append(_Node(after, [*node.events, event], rng.getstate(),
                               node.created + (event.kind == "create"), allowed))
    return None
