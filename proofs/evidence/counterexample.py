"""From a z3 model to a concrete scenario, replayed by the interpreter.

A satisfying model of "structure before, the event, and the invariant broken after" is a
finite situation. `extract` reads it as a `Scenario` in the scenario format: every object
that exists before the event, every live game, the players, the event with its
parameters. `replay` runs the event with the concrete interpreter over every outcome of its
random choices and evaluates the invariant with the concrete reading: a counterexample is
shown only if some outcome breaks the invariant there too. One that does not replay is a
fault of the tool and is reported as such. `minimise` then drops players, objects and games
while the violation still replays.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import z3
from shahrazad.invariants.catalog import Invariant
from shahrazad.invariants.concrete import Binding, Evaluator
from shahrazad.invariants.structure import catalog_problems
from shahrazad.model.choices import enumerate_outcomes
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter, Outcome
from shahrazad.model.objects import DECK_OF, DEFAULT_TYPES, GameObject, ZoneRef
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.scenario import Scenario, parse_scenario, scenario_data
from shahrazad.model.state import Game, Situation, Trigger
from shahrazad.proofs.encoding.encoder import Transition
from shahrazad.proofs.encoding.symbolic import Universe
from shahrazad.proofs.solving.obligations import Replay

COUNTER_KIND = "counter"


class _Reader:
    def __init__(self, model: z3.ModelRef, universe: Universe, t: Transition):
        self.m, self.u, self.t = model, universe, t
        self.names: dict[str, dict[str, str]] = {"obj": {}, "player": {}, "game": {}}

    def ev(self, term: Any) -> Any:
        return self.m.eval(term, model_completion=True)

    def elements(self, sort: str) -> list[Any]:
        if self.u.bound is not None:
            return list(self.u.elements[sort])
        found = self.m.get_universe(self.u.sorts[sort])
        return list(found) if found is not None else []

    def same(self, a: Any, b: Any) -> bool:
        return bool(z3.is_true(self.ev(a == b)))

    def pre(self, attribute: str, *args: Any) -> Any:
        return self.ev(self.t.pre.get(attribute, *args))

    def true(self, attribute: str, *args: Any) -> bool:
        return bool(z3.is_true(self.pre(attribute, *args)))

    def name(self, sort: str, element: Any, prefix: str) -> str:
        key = str(self.ev(element))
        table = self.names[sort]
        if key not in table:
            table[key] = f"{prefix}{len(table) + 1}"
        return table[key]


def extract(model: z3.ModelRef, universe: Universe, t: Transition, event: str) -> Scenario:
    """The pre-state and the event of a model, as a scenario."""
    r = _Reader(model, universe, t)
    u = universe
    players = [p for p in r.elements("player") if not r.same(p, u.nobody)]
    games = [g for g in r.elements("game") if not r.same(g, u.nogame) and r.true("live", g)]
    objects = [o for o in r.elements("obj") if not r.same(o, u.noobj) and r.true("exists", o)]
    games.sort(key=lambda g: int(str(r.pre("depth", g))) if z3.is_int_value(r.pre("depth", g))
               else 0)
    game_id = {str(r.ev(g)): ("main" if i == 0 else f"sub{i}") for i, g in enumerate(games)}
    player_names = [r.name("player", p, "P") for p in players]

    def gid(element: Any) -> str | None:
        return game_id.get(str(r.ev(element)))

    def pid(element: Any) -> str:
        return r.name("player", element, "P")

    def oid(element: Any) -> str:
        return r.name("obj", element, "o")

    state = Situation(players=list(player_names))
    for name in player_names:
        state.outside(name)
    for g in games:
        game = _game(r, g, players, state, gid, pid, oid)
        state.games[game.id] = game
    for g in games:
        state.create_zones(state.games[gid(g) or ""])
    for o in objects:
        obj, zone = _object(r, o, gid, pid, oid)
        state.objects[obj.id] = obj
        state.place(obj.id, zone, "bottom")
    for e in objects:
        for o in objects:
            if r.true("affects", e, o):
                state.objects[oid(o)].affected_by.append(oid(e))
        for p in players:
            if r.true("affects_player", e, p):
                state.player_effects.setdefault(pid(p), []).append(oid(e))
    scenario = Scenario(state, [_event(r, event, t, pid, oid)], title="counterexample",
                        description="", seed=0)
    if "in_range" in t.params:
        _seat_for_range(scenario, r, t, players, pid, gid)
    return scenario


def _game(r: _Reader, g: Any, players: list[Any], state: Situation,
          gid: Callable[[Any], str | None], pid: Callable[[Any], str],
          oid: Callable[[Any], str]) -> Game:
    """One live game of the model: its players, parent, status and creator, its range of
    influence, starting and doomed players, its players' counters (written into `state`),
    and the marks it keeps of objects: the supplementary decks they began in, where they
    came from, the triggers waiting and what resolved."""
    this = gid(g)
    assert this is not None
    parent = gid(r.pre("parent", g)) if r.true("has_parent", g) else None
    game = Game(id=this, players=[pid(p) for p in players if r.true("plays", g, p)],
                parent=parent, status="active" if r.true("active", g) else "suspended")
    if r.true("has_creator", g):
        game.created_by = oid(r.pre("created_by", g))
    if r.true("limited_range", g):
        game.range_of_influence = 1
    for p in players:
        if r.true("starts", g, p):
            game.starting_player = pid(p)
        if r.true("doomed", g, p):
            game.doomed.append(pid(p))
        count = r.pre("counters", g, p)
        if z3.is_int_value(count) and count.as_long() > 0:
            state.counters_of(this, pid(p))[COUNTER_KIND] = count.as_long()
    for o in r.elements("obj"):
        if r.same(o, r.u.noobj):
            continue
        began = str(r.pre("began_in_deck", g, o))
        if began != "none" and r.true("exists", o):
            game.began_in_deck[oid(o)] = began
        came = str(r.pre("came_from", g, o))
        if came != "none" and r.true("exists", o) \
                and (came != "main-game" or parent is not None):
            game.came_from[oid(o)] = came
        if r.true("waiting", g, o):
            game.pending_triggers.append(Trigger(oid(o), "a watcher", "a card", "a zone", this))
        if r.true("resolved", g, o):
            game.resolved.append(oid(o))
    return game


def _object(r: _Reader, o: Any, gid: Callable[[Any], str | None],
            pid: Callable[[Any], str], oid: Callable[[Any], str]) -> tuple[GameObject, ZoneRef]:
    """One object of the model and its zone: kind, owner, controller, card type and deck,
    face, phasing, commander, counters, the game that made it, its triggers, a traditional
    card's characteristics (205.2a) and what exiled it."""
    kind = str(r.pre("kind", o))
    zone_kind = str(r.pre("zone", o))
    owner = pid(r.pre("owner", o))
    if zone_kind == "outside":
        zone = ZoneRef(None, "outside", owner)
    else:
        g = gid(r.pre("game", o))
        player = pid(r.pre("zone_player", o)) if zone_kind in ("library", "hand", "graveyard",
                                                               "deck") else None
        deck = str(r.pre("zone_deck", o)) if zone_kind == "deck" else None
        zone = ZoneRef(g, zone_kind, player, deck)
    ctype = str(r.pre("ctype", o)) if kind == "card" else "traditional"
    obj = GameObject(
        id=oid(o), kind=kind, owner=owner, controller=pid(r.pre("controller", o)),
        card_type=ctype, deck=DECK_OF.get(ctype) if kind == "card" else None,
        face_up=r.true("face_up", o), phased_out=r.true("phased_out", o),
        commander=r.true("commander", o) and kind == "card",
        counters={COUNTER_KIND: 1} if r.true("has_counters", o) else {},
        game_of_origin=None if kind == "card" else gid(r.pre("origin", o)),
        triggers=["leaves-zone"] if r.true("watcher", o) else [],
    )
    if kind == "card" and ctype == "traditional":  # its characteristics (205.2a)
        aura = r.true("aura", o)
        obj.types = (("enchantment",) if aura else ("creature",)) \
            if r.true("permanent_card", o) else ("instant",)
        obj.subtypes = ("aura",) if aura else ()
    if kind == "card" and not r.same(r.pre("exiled_with", o), r.u.noobj):
        obj.exiled_with = oid(r.pre("exiled_with", o))
    return obj, zone


def _seat_for_range(scenario: Scenario, r: _Reader, t: Transition, players: list[Any],
                    pid: Any, gid: Any) -> None:
    """Seat the players of a limited-range game so that the players the model puts within
    the controller's range of influence are within it and the others are not (CR 801.2):
    with a range of R seats, the controller reaches R seats on either side, so the `near`
    players sit half on each side, the others between them, beyond reach. Where the near
    players are an odd number, one side has a seat more than they fill: a player who owns
    nothing sits there, the only player the model did not name, and the one place where the
    seating says more than the model (no seating has an odd number of other players within
    a range that leaves some out). With no one near, the range is 0 seats: the controller
    alone (801.2b)."""
    in_range, source = t.params["in_range"]
    game_id = gid(source)
    state = scenario.situation
    if game_id is None or state.games[game_id].range_of_influence is None:
        return
    game = state.games[game_id]
    controller = pid(t.params["controller"])
    near = [pid(p) for p in players if pid(p) in game.players and pid(p) != controller
            and z3.is_true(r.ev(in_range(source, t.params["controller"], p)))]
    far = [p for p in game.players if p not in near and p != controller]
    if not far:
        return
    seats, reach, fillers = seating(controller, near, far)
    game.range_of_influence = reach
    game.players = seats
    for name in fillers:
        state.players.append(name)
        state.outside(name)
        for other in [game_id, *state.ancestors(game_id)]:
            if name not in state.games[other].players:
                state.games[other].players.append(name)
            state.create_zones(state.games[other])


def seating(controller: str, near: list[str], far: list[str]) -> tuple[list[str], int, list[str]]:
    """The seats of a game (in order, from the controller's), the range of influence and
    the players who own nothing added to it, that put the `near` players within the
    controller's range and the `far` ones (at least one) beyond it (`_seat_for_range`)."""
    reach = -(-len(near) // 2)
    fillers = ["F1"] if len(near) % 2 else []
    return [controller, *near[:reach], *far, *fillers, *near[reach:]], reach, fillers


def _event(r: _Reader, event: str, t: Transition, pid: Any, oid: Any) -> Event:
    params = t.params
    if event == "start-subgame":
        if z3.is_true(r.ev(params["made"])):
            return Event(event, {"by": pid(params["by"])})
        return Event(event, {"by": pid(params["by"]), "via": oid(params["creator"])})
    if event == "end-subgame":
        result = str(r.ev(params["result"]))
        if result == "win":
            winners = [pid(p) for p in r.elements("player")
                       if z3.is_true(r.ev(z3.Select(params["winners"], p)))]
            return Event(event, {"winner": winners})
        if result == "draw":
            return Event(event, {"draw": True})
        return Event(event, {})
    if event == "restart":
        args: dict[str, Any] = {"controller": pid(params["controller"])}
        if not r.same(params["source"], r.u.noobj):
            args["source"] = oid(params["source"])
        if z3.is_true(r.ev(params["then"])):
            args["then"] = "battlefield"
        return Event(event, args)
    if event == "bring-in":
        return Event(event, {"card": oid(params["card"]), "to": str(r.ev(params["to"])),
                             "by": pid(params["by"])})
    if event == "move":
        to = str(r.ev(params["to"]))
        if to == "outside":
            obj_owner = pid(r.ev(t.pre.get("owner", params["object"])))
            path = f"outside/{obj_owner}"
        else:
            game = _game_name(r, t)
            path = f"{game}/{to}"
            if to in ("library", "hand", "graveyard", "deck"):
                path += f"/{pid(params['to_player'])}"
            if to == "deck":
                path += f"/{r.ev(params['to_deck'])}"
        args = {"object": oid(params["object"]), "to": path}
        if not r.same(params["exiled_with"], r.u.noobj):
            args["exiled-with"] = oid(params["exiled_with"])
        return Event(event, args)
    if event == "create":
        kind = str(r.ev(params["kind"]))
        args = {"kind": kind, "controller": pid(params["controller"]),
                "to": f"{_game_name(r, t)}/{r.ev(params['to'])}"}
        if z3.is_true(r.ev(params["watcher"])):
            args["triggers"] = ["leaves-zone"]
        return Event(event, args)
    if event == "counter":
        add = r.ev(params["add"])
        amount = add.as_long() if z3.is_int_value(add) else 1
        if z3.is_true(r.ev(params["on_player"])):
            return Event(event, {"player": pid(params["player"]), "kind": COUNTER_KIND,
                                 "add": amount})
        return Event(event, {"object": oid(params["object"]), "kind": COUNTER_KIND,
                             "add": amount})
    if event == "phase":
        return Event(event, {"object": oid(params["object"]),
                             "out": bool(z3.is_true(r.ev(params["out"])))})
    if event == "turn":
        return Event(event, {"object": oid(params["object"]),
                             "face": "up" if z3.is_true(r.ev(params["up"])) else "down"})
    if event == "leave":
        return Event(event, {"player": pid(params["player"])})
    if event == "control":
        return Event(event, {"object": oid(params["object"]), "player": pid(params["player"])})
    if event == "affect":
        if z3.is_true(r.ev(params["on_player"])):
            return Event(event, {"effect": oid(params["effect"]),
                                 "player": pid(params["target_player"])})
        return Event(event, {"effect": oid(params["effect"]), "object": oid(params["target"])})
    raise ValueError(event)


def _game_name(r: _Reader, t: Transition) -> str:
    """The scenario id of the event's active game (games are named by depth)."""
    active = t.binding.roles["active"]
    depth = r.ev(t.pre.get("depth", active))
    level = depth.as_long() if z3.is_int_value(depth) else 0
    return "main" if level == 0 else f"sub{level}"


def binding_of(outcome: Outcome) -> Binding:
    """What the outcome's last event bound (its game roles and parameters), as the concrete
    reading of the invariants takes it."""
    b = outcome.bound[-1]
    return Binding(roles=dict(b.roles), controller=b.controller, exempt=b.exempt,
                   creator=b.creator, card=b.card, then_battlefield=b.then_battlefield)


def replay_refusal(scenario: Scenario, rulebook: Rulebook) -> str | None:
    """The interpreter's reason for refusing the scenario's event, or None if it allows it."""
    try:
        Interpreter(rulebook).run(scenario.situation, scenario.events)
    except IllegalEvent as err:
        return str(err)
    return None


def _outcomes(scenario: Scenario, rulebook: Rulebook, limit: int) -> Iterator[Outcome | str]:
    """The scenario's events under every random outcome (a refusal as its reason), at most
    `limit` of them (OverflowError past it, `enumerate_outcomes`)."""
    def run(chooser: Any) -> Outcome | str:
        try:
            return Interpreter(rulebook, chooser).run(scenario.situation, scenario.events)
        except IllegalEvent as err:
            return f"the interpreter refuses the event: {err}"

    return enumerate_outcomes(run, limit=limit)


def broken(scenario: Scenario, rulebook: Rulebook, invariants: list[Invariant],
           limit: int = 5000) -> set[str]:
    """The ids of `invariants` that some random outcome of the scenario's event breaks: for
    each, what `replay` finds, the event run once per outcome for all of them."""
    if catalog_problems(scenario.situation):
        return set()
    found: set[str] = set()
    try:
        for outcome in _outcomes(scenario, rulebook, limit):
            if isinstance(outcome, str):
                continue
            evaluator = Evaluator(scenario.situation, outcome.situation, binding_of(outcome))
            found |= {i.id for i in invariants
                      if i.id not in found and not evaluator.holds(i.term)}
    except OverflowError:
        pass  # as `replay`: what the outcomes within the limit break, and no more
    return found


def replay(scenario: Scenario, rulebook: Rulebook, invariant: Invariant,
           limit: int = 5000, expect: bool = False, reached: bool = False) -> Replay:
    """Run the scenario's event over every random outcome; does one break the invariant
    (or, with `expect`, does one make it true)? The situation must be legal by the structure
    invariants, unless it is `reached` (by a trace `reach.replay_reached` accepts: under a
    rulebook whose events break a structure invariant, games reach such situations)."""
    faults = [] if reached else catalog_problems(scenario.situation)
    if faults:
        return Replay(False, None, None, "the extracted situation is not well formed: "
                      + ", ".join(faults))
    refused = ""
    try:
        for outcome in _outcomes(scenario, rulebook, limit):
            if isinstance(outcome, str):
                refused = outcome
                continue
            evaluator = Evaluator(scenario.situation, outcome.situation, binding_of(outcome))
            if evaluator.holds(invariant.term) == expect:
                return Replay(True, outcome, evaluator.counterexample(invariant.term))
    except OverflowError:
        return Replay(False, None, None, f"more than {limit} random outcomes to replay")
    return Replay(False, None, None, refused or "every outcome keeps the invariant")


def minimise(scenario: Scenario, rulebook: Rulebook, invariant: Invariant) -> Scenario:
    """Drop objects, then players, then games, one at a time, while the violation replays."""
    return shrink(scenario, lambda s: replay(s, rulebook, invariant, limit=500).violated)


def shrink(scenario: Scenario, keeps: Callable[[Scenario], bool]) -> Scenario:
    """Drop objects, then players, then games, then details, one at a time, while `keeps`
    holds of the smaller scenario (a local minimum, not necessarily the smallest)."""
    current = scenario
    changed = True
    while changed:
        changed = False
        for candidate in _smaller(current):
            if not catalog_problems(candidate.situation) and keeps(candidate):
                current, changed = candidate, True
                break
    return current


# Keys of scenario data whose values are words of the format or free text, never names.
_NOT_NAMES = frozenset(("schema", "title", "description", "name", "do", "kind", "type", "face",
                        "phased", "position", "triggers", "variants", "result", "counters",
                        "then", "to-kind", "types", "subtypes"))


def canonical(scenario: Scenario) -> Scenario:
    """The scenario with canonical names, so that the same counterexample reads the same
    whatever names the solver's model gave: players P1, P2, ... in the order of the
    situation's players; objects o1, o2, ... in the order of their zones (games by depth,
    zones in CR order) and of their places in them, then the names only remembered (waiting
    triggers, resolved spells), in their order. Games keep their names."""
    s = scenario.situation
    players = {p: f"P{i}" for i, p in enumerate(s.players, start=1)}
    placed = [o for z in sorted(s.zones, key=ZoneRef.sort_key) for o in s.zones[z]]
    games = set(s.games) | {e.id for e in s.ended} | {z.game for z in s.zones if z.game}
    remembered = sorted(s.names_in_use() - set(placed) - games)
    objects = {o: f"o{i}" for i, o in enumerate([*placed, *remembered], start=1)}
    data = _renamed(scenario_data(scenario), {**players, **objects}, "")
    return parse_scenario(json.dumps(data), file=scenario.file, fmt="json")


def _renamed(value: Any, names: dict[str, str], key: str) -> Any:
    if key in _NOT_NAMES:
        return value
    if isinstance(value, dict):
        return {(names.get(k, k) if key in ("began-in-deck", "came-from") else k): _renamed(v, names, k)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names, key) for v in value]
    if isinstance(value, str):
        return "/".join(names.get(part, part) for part in value.split("/"))
    return value


def _variant(scenario: Scenario, situation: Situation,
             events: list[Event] | None = None) -> Scenario:
    """The scenario with another situation (and, given, other events)."""
    return replace(scenario, situation=situation,
                   events=scenario.events if events is None else events)


def _simpler(scenario: Scenario) -> list[Scenario]:
    """The same situation without one detail: counters, marks, waiting triggers, what
    exiled a card, a card's types (back to its kind's default)."""
    out: list[Scenario] = []
    s = scenario.situation
    for key in list(s.player_counters):
        if s.player_counters[key]:
            smaller = s.copy()
            del smaller.player_counters[key]
            out.append(_variant(scenario, smaller))
        if any(count > 1 for count in s.player_counters[key].values()):
            # The solver's model gives a player any number of counters (24,360, say): one,
            # where one does as well, is what a reader expects.
            smaller = s.copy()
            smaller.player_counters[key] = {kind: min(count, 1) for kind, count
                                            in s.player_counters[key].items()}
            out.append(_variant(scenario, smaller))
    for game in s.games.values():
        for attribute in ("began_in_deck", "came_from", "pending_triggers", "resolved",
                          "doomed"):
            if getattr(game, attribute):
                smaller = s.copy()
                value = getattr(smaller.games[game.id], attribute)
                setattr(smaller.games[game.id], attribute, type(value)())
                out.append(_variant(scenario, smaller))
        if game.created_by is not None:
            smaller = s.copy()
            smaller.games[game.id].created_by = None
            out.append(_variant(scenario, smaller))
        if game.starting_player is not None:
            smaller = s.copy()
            smaller.games[game.id].starting_player = None
            out.append(_variant(scenario, smaller))
    for obj in s.objects.values():
        if obj.counters or obj.triggers or not obj.face_up or obj.controller != obj.owner:
            smaller = s.copy()
            target = smaller.objects[obj.id]
            target.counters, target.triggers, target.face_up = {}, [], True
            target.controller = target.owner
            out.append(_variant(scenario, smaller))
        if obj.exiled_with is not None:  # a link to what exiled it that may not matter
            smaller = s.copy()
            smaller.objects[obj.id].exiled_with = None
            out.append(_variant(scenario, smaller))
        plain = DEFAULT_TYPES.get(obj.card_type, ())
        if obj.is_card and (obj.types != plain or obj.subtypes):  # types that may not matter
            smaller = s.copy()
            smaller.objects[obj.id].types, smaller.objects[obj.id].subtypes = plain, ()
            out.append(_variant(scenario, smaller))
    return out + _one_counter(scenario)


def _one_counter(scenario: Scenario) -> list[Scenario]:
    """The same scenario with an event that puts (or removes) many counters (the solver's
    model says any number: 24,360 poison counters, say) putting (removing) one: the number
    a reader expects when any number would do."""
    out: list[Scenario] = []
    for index, event in enumerate(scenario.events):
        add = event.get("add", 1)
        if event.kind == "counter" and abs(add) > 1:
            events = list(scenario.events)
            events[index] = Event(event.kind, {**event.args, "add": 1 if add > 0 else -1},
                                  event.line)
            out.append(_variant(scenario, scenario.situation, events))
    return out


def _without_game(s: Situation, game_id: str) -> Situation | None:
    """The situation without a suspended game that holds nothing: its subgame hangs under
    its main game instead (or becomes the outermost game)."""
    game = s.games[game_id]
    if game.status == "active" or any(z.game == game_id and s.zones[z] for z in s.zones):
        return None
    if game.pending_triggers or game.subgame_results or any(
            g == game_id and c for (g, _), c in s.player_counters.items()):
        return None
    smaller = s.copy()
    for child in smaller.children(game_id):
        smaller.games[child].parent = game.parent
        if game.parent is None:
            smaller.games[child].created_by = None
    del smaller.games[game_id]
    for zone in [z for z in smaller.zones if z.game == game_id]:
        del smaller.zones[zone]
    smaller.player_counters = {k: v for k, v in smaller.player_counters.items()
                               if k[0] != game_id}
    return smaller


def _remembered(s: Situation, player: str) -> bool:
    """Whether a record of the situation names `player`: a game that has ended or a
    subgame's result (its players, its winners), or a waiting trigger's controller. Such
    a player stays in a smaller variant: the record would name no player of it."""
    results = [e.result for e in s.ended] + [r for g in s.games.values()
                                            for r in g.subgame_results.values()]
    return (any(player in e.players for e in s.ended)
            or any(player in r.winners for r in results)
            or any(t.controller == player for g in s.games.values()
                   for t in g.pending_triggers))


def _smaller(scenario: Scenario) -> list[Scenario]:
    out: list[Scenario] = []
    s = scenario.situation
    for game_id in list(s.games):
        fewer = _without_game(s, game_id)
        if fewer is not None:
            out.append(_variant(scenario, fewer))
    referenced = {v for e in scenario.events for v in e.args.values() if isinstance(v, str)}
    referenced |= {x for e in scenario.events for v in e.args.values() if isinstance(v, list)
                   for x in v}
    for obj_id in list(s.objects):
        if obj_id in referenced:
            continue
        smaller = s.copy()
        smaller.cease(obj_id)
        for game in smaller.games.values():
            game.began_in_deck.pop(obj_id, None)
            game.came_from.pop(obj_id, None)
        out.append(_variant(scenario, smaller))
    for player in list(s.players):
        if player in referenced or any(o.owner == player or o.controller == player
                                       for o in s.objects.values()) or _remembered(s, player):
            continue
        smaller = s.copy()
        smaller.players.remove(player)
        for game in smaller.games.values():
            if player in game.players:
                game.players.remove(player)
            game.doomed = [p for p in game.doomed if p != player]
            if game.starting_player == player:
                game.starting_player = None
        for zone in [z for z in smaller.zones if z.player == player and not smaller.zones[z]]:
            del smaller.zones[zone]
        smaller.player_counters = {k: v for k, v in smaller.player_counters.items()
                                   if k[1] != player}
        smaller.player_effects.pop(player, None)  # what acted on the player goes with them
        if all(g.players for g in smaller.games.values()):
            out.append(_variant(scenario, smaller))
    return out + _simpler(scenario)
