"""The two readings checked against each other on explicit situations.

For a concrete situation and one event, the interpreter gives the situation after it and
the concrete reading of each invariant gives a truth value. The SMT reading is asked the
same question: a finite universe with one element per object, player and game of the
situation (and spare ones for what the event creates), the symbolic pre-state fixed to the
concrete one, the event's parameters fixed to the concrete ones. The two agree on an
invariant when z3 finds that no symbolic run gives it the other truth value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3
from shahrazad.invariants.catalog import CATALOG, Invariant
from shahrazad.invariants.concrete import (
    NOBODY,
    NOGAME,
    NOOBJ,
    Binding,
    Evaluator,
    _affects,
    _game_value,
    _object_value,
)
from shahrazad.invariants.lang import ATTRIBUTES
from shahrazad.model.events import Event
from shahrazad.model.interpreter import DEFAULT_ZONE, Interpreter, in_range
from shahrazad.model.objects import ZONE_KINDS, parse_zone
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.state import Situation
from shahrazad.proofs.encoding.encode import encode_event
from shahrazad.proofs.encoding.symbolic import TermEncoder, Universe, budget

from .counterexample import binding_of

SPARE = 3


@dataclass
class Disagreement:
    """Where the two readings part on one event (`check`): `invariant` is the invariant's id
    ("*" when the symbolic transition admits no run from the situation at all), `event` the
    event's name, `concrete` the concrete reading's truth value, and `detail` what z3 answered
    for the other one."""

    invariant: str
    event: str
    concrete: bool
    detail: str


def _names(pre: Situation, post: Situation) -> dict[str, list[str]]:
    objs: set[str] = set()
    games: set[str] = set()
    for s in (pre, post):
        objs |= set(s.objects) | {o.exiled_with for o in s.objects.values() if o.exiled_with}
        objs |= {o.same_card for o in s.objects.values() if o.same_card}
        games |= set(s.games) | {e.id for e in s.ended}
        for g in s.games.values():
            objs |= {t.id for t in g.pending_triggers} | set(g.resolved)
            objs |= set(g.began_in_deck) | set(g.came_from)
            if g.created_by:
                objs.add(g.created_by)
    return {"obj": sorted(objs), "player": sorted(set(pre.players)), "game": sorted(games)}


@dataclass
class Pinned:
    """One concrete step set up for z3: the event's symbolic transition in a finite universe
    with an element per name of the situation (and spare ones for what the event makes),
    the pre-state and the event's parameters fixed to the concrete ones."""

    situation: Situation
    event: Event
    post: Situation
    binding: Binding
    universe: Universe
    transition: Any
    solver: z3.Solver
    element: dict[str, dict[str, Any]]  # sort -> name -> element (pre names, sentinels, spares)
    pre_names: dict[str, list[str]]
    new_names: dict[str, list[str]]  # names of the post that the pre-state does not have
    spares: dict[str, list[Any]]  # elements no pre name takes

    def value(self, sort: str, v: Any) -> Any:
        """The z3 value of a concrete value of `sort` (None: a name with no element)."""
        ctx = self.universe.ctx
        if sort == "bool":
            return z3.BoolVal(bool(v), ctx)
        if sort == "int":
            return z3.IntVal(int(v), ctx)
        if sort in ("obj", "player", "game"):
            return self.element[sort].get(v)
        return self.universe.enum(sort, str(v))


def pin(rulebook: Rulebook, situation: Situation, event: Event,
        timeout: float = 10.0) -> Pinned:
    """Run the event concretely, then set up its symbolic transition pinned to it."""
    outcome = Interpreter(rulebook).run(situation, [event])
    return _pinned(rulebook, situation, event, outcome, binding_of(outcome), timeout)


def pin_refused(rulebook: Rulebook, situation: Situation, event: Event,
                timeout: float = 10.0) -> Pinned | None:
    """An event the interpreter refuses, set up for z3 the same way: the pre-state and the
    parameters the event itself names are pinned; what the interpreter would have chosen
    (where a brought card goes, who controls it) is left free. None when the event names
    something the situation does not have: the encoding has no element to give it."""
    names = _names(situation, situation)
    named = _named(event)
    if any(name not in names[sort] for sort, name in named):
        return None
    binding = Binding(controller=event.get("controller"), creator=event.get("via"),
                      card=event.get("card") if event.kind == "bring-in" else None,
                      then_battlefield=event.get("then") == "battlefield")
    return _pinned(rulebook, situation, event, None, binding, timeout)


def _named(event: Event) -> list[tuple[str, str]]:
    """The (sort, name) of each player, object or game the event's arguments name."""
    out: list[tuple[str, str]] = []
    for key, sort in (("by", "player"), ("controller", "player"), ("player", "player"),
                      ("via", "obj"), ("card", "obj"), ("object", "obj"), ("effect", "obj"),
                      ("exiled-with", "obj"), ("source", "obj"), ("copy-of", "obj")):
        value = event.get(key)
        if key == "card" and event.kind != "bring-in":
            continue
        if value is not None:
            out.append((sort, str(value)))
    for value in event.get("winner") or []:
        out.append(("player", str(value)))
    if event.kind == "move" and event.get("to"):
        try:
            target = parse_zone(str(event.get("to")))
        except ValueError:
            return [("obj", "<an unreadable zone>")]
        if target.player is not None:
            out.append(("player", target.player))
    return out


def _pinned(rulebook: Rulebook, situation: Situation, event: Event, outcome: Any,
            binding: Binding, timeout: float) -> Pinned:
    post = outcome.situation if outcome is not None else situation
    names = _names(situation, post)
    # A name the event gives that is no object (a restart's source that is gone, 112.7a) is
    # an element of the pre-state too, where nothing exists by that name.
    named = {name for sort, name in _named(event) if sort == "obj"}
    names["obj"] = sorted({*names["obj"], *named})
    # Only the pre-state is pinned: what the event creates takes spare elements.
    pre_objs = sorted({*_names(situation, situation)["obj"], *named})
    pre_names = {k: [n for n in v if k != "obj" or n in pre_objs] for k, v in names.items()}
    pre_names["game"] = [g for g in names["game"] if g in situation.games
                         or any(e.id == g for e in situation.ended)]
    new_names = {k: [n for n in v if n not in pre_names[k]] for k, v in names.items()}
    size = max(len(pre_names[k]) + len(new_names[k]) for k in names) + SPARE
    universe = Universe(size)
    u = universe
    t = encode_event(rulebook, event.kind, universe)
    element: dict[str, dict[str, Any]] = {}
    for sort, sentinel in (("obj", NOOBJ), ("player", NOBODY), ("game", NOGAME)):
        element[sort] = {name: u.elements[sort][i] for i, name in enumerate(pre_names[sort])}
        element[sort][sentinel] = u.sentinel(sort)
    spare = {sort: [e for e in u.elements[sort][:-1] if all(
        not e.eq(x) for x in element[sort].values())] for sort in element}
    ghost = {sort: [f"<spare {sort} {i}>" for i in range(len(spare[sort]))] for sort in spare}
    for sort in spare:
        for name, e in zip(ghost[sort], spare[sort], strict=True):
            element[sort][name] = e
    solver = z3.Solver(ctx=u.ctx)
    # A budget of work, not of time (`symbolic.budget`): the same answer under any load.
    budget(solver, timeout)
    solver.add(*t.constraints)
    pinned = Pinned(situation, event, post, binding, u, t, solver, element, pre_names,
                    new_names, spare)
    for attribute, args, sort in _cells(element):
        z = pinned.value(sort, concrete_value(situation, attribute, args))
        if z is not None:
            solver.add(t.pre.get(attribute, *_elements(element, attribute, args)) == z)
    _pin_params(solver, t.params, event, binding, element, u,
                post if outcome is not None else None, situation.games)
    return pinned


def concrete_value(state: Situation, attribute: str, args: list[str]) -> Any:
    """The concrete reading of one state attribute (`invariants.lang.ATTRIBUTES`)."""
    arg_sorts, _ = ATTRIBUTES[attribute]
    if arg_sorts == ("obj",):
        return _object_value(state, attribute, args[0])
    if attribute in ("affects", "affects_player"):
        return _affects(state, attribute, args[0], args[1])
    return _game_value(state, attribute, args[0], args[1] if len(args) > 1 else None)


def _cells(element: dict[str, dict[str, Any]]) -> list[tuple[str, list[str], str]]:
    """Every attribute at every tuple of names: the cells of a state in this universe."""
    out: list[tuple[str, list[str], str]] = []
    for attribute, (arg_sorts, sort) in ATTRIBUTES.items():
        if attribute == "library_size":
            continue  # counted from the objects in a finite universe
        combos: list[list[str]] = [[]]
        for a in arg_sorts:
            combos = [c + [x] for c in combos for x in element[a]]
        out += [(attribute, args, sort) for args in combos]
    return out


def _elements(element: dict[str, dict[str, Any]], attribute: str, args: list[str]) -> list[Any]:
    arg_sorts, _ = ATTRIBUTES[attribute]
    return [element[a][x] for a, x in zip(arg_sorts, args, strict=True)]


def check(rulebook: Rulebook, situation: Situation, event: Event,
          invariants: list[Invariant] | None = None, timeout: float = 10.0) -> list[Disagreement]:
    """Where the concrete and the SMT readings of the invariants disagree on this event."""
    pinned = pin(rulebook, situation, event, timeout)
    solver, t = pinned.solver, pinned.transition
    enc = TermEncoder(pinned.universe, t.pre, t.post, t.binding)
    evaluator = Evaluator(pinned.situation, pinned.post, pinned.binding)
    out: list[Disagreement] = []
    if str(solver.check()) != "sat":
        return [Disagreement("*", event.kind, True, "the symbolic transition admits no run for "
                             f"this situation ({solver.reason_unknown() or 'unsat'})")]
    for inv in invariants if invariants is not None else CATALOG:
        if event.kind not in inv.events:
            continue
        truth = evaluator.holds(inv.term)
        solver.push()
        encoded = enc.encode(inv.term)
        solver.add(encoded if not truth else z3.Not(encoded))
        answer = str(solver.check())
        solver.pop()
        if answer != "unsat":
            out.append(Disagreement(inv.id, event.kind, truth,
                                    f"z3 says {answer} for the other truth value"))
    return out


@dataclass
class _Pins:
    """Pins a transition's parameters to an event's, in a solver: one method per kind of
    event (`PIN`). With `post` None (a refused event), only those the event itself names."""

    solver: z3.Solver
    params: dict[str, Any]
    event: Event
    binding: Binding
    element: dict[str, dict[str, Any]]
    u: Universe
    post: Situation | None
    pre_games: dict[str, Any]

    def el(self, sort: str, name: str | None) -> Any:
        """The universe's element named `name` (None for no name)."""
        return self.element[sort].get(name) if name is not None else None

    def start_subgame(self) -> None:
        made = self.event.get("via") is None  # the event makes its creating effect
        self.solver.add(self.params["made"] == z3.BoolVal(made, self.u.ctx))
        if not made:
            self.solver.add(self.params["creator"] == self.el("obj", self.binding.creator))
        if "by" in self.params and self.event.get("by"):
            self.solver.add(self.params["by"] == self.el("player", self.event.get("by")))
        new_id = self.binding.roles.get("subgame")
        starting = (self.post.games[new_id].starting_player
                    if self.post is not None and new_id in self.post.games else None)
        for chosen in self.params.get("random_starting", []):
            if starting is not None:
                self.solver.add(chosen == self.el("player", starting))

    def end_subgame(self) -> None:
        result = "win" if self.event.get("winner") else "draw" if self.event.get("draw") else "none"
        self.solver.add(self.params["result"] == self.u.enum("result", result))
        for name, e in self.element["player"].items():
            self.solver.add(z3.Select(self.params["winners"], e) == z3.BoolVal(
                name in (self.event.get("winner") or []), self.u.ctx))

    def restart(self) -> None:
        self.solver.add(self.params["controller"] == self.el("player", self.binding.controller))
        source = self.event.get("source")
        self.solver.add(self.params["source"] == (self.el("obj", source) if source is not None
                                                  else self.u.noobj))
        if self.post is not None:  # the exempt cards the interpreter computed, the encoder's too
            for name, e in self.element["obj"].items():
                self.solver.add(z3.Select(self.params["exempt"], e)
                                == z3.BoolVal(name in self.binding.exempt, self.u.ctx))
        self.solver.add(self.params["then"] == z3.BoolVal(self.binding.then_battlefield, self.u.ctx))
        restarted = self.binding.roles.get("restarted")
        if "in_range" in self.params and self.binding.controller is not None and restarted is not None:
            reach, game = self.params["in_range"]
            source = self.pre_games.get(restarted)
            if source is not None and source.range_of_influence is not None:
                near = in_range(source.players, self.binding.controller, source.range_of_influence)
                for name, e in self.element["player"].items():
                    self.solver.add(reach(game, self.el("player", self.binding.controller), e)
                                    == z3.BoolVal(name in near, self.u.ctx))

    def affect(self) -> None:
        self.solver.add(self.params["effect"] == self.el("obj", self.event.get("effect")))
        on_player = self.event.get("player") is not None
        self.solver.add(self.params["on_player"] == z3.BoolVal(on_player, self.u.ctx))
        if on_player:
            self.solver.add(self.params["target_player"] == self.el("player", self.event.get("player")))
        else:
            self.solver.add(self.params["target"] == self.el("obj", self.event.get("object")))

    def move(self) -> None:
        target = parse_zone(str(self.event.get("to")))
        self.solver.add(self.params["object"] == self.el("obj", self.event.get("object")))
        self.solver.add(self.params["to"] == self.u.enum("zone", target.kind))
        if target.player is not None and not target.is_outside:
            self.solver.add(self.params["to_player"] == self.el("player", target.player))
        if target.deck is not None:
            self.solver.add(self.params["to_deck"] == self.u.enum("deck", target.deck))
        exiler = self.event.get("exiled-with")
        self.solver.add(self.params["exiled_with"] == (self.el("obj", exiler) if exiler is not None
                                             else self.u.noobj))

    def create(self) -> None:
        kind = str(self.event.get("kind"))
        self.solver.add(self.params["kind"] == self.u.enum("kind", kind))
        to = parse_zone(str(self.event.get("to"))).kind if self.event.get("to") else DEFAULT_ZONE[kind]
        self.solver.add(self.params["to"] == self.u.enum("zone", to))
        self.solver.add(self.params["controller"] == self.el("player", self.event.get("controller")))
        watches = "leaves-zone" in (self.event.get("triggers") or [])
        self.solver.add(self.params["watcher"] == z3.BoolVal(watches, self.u.ctx))

    def counter(self) -> None:
        player, obj = self.event.get("player"), self.event.get("object")
        on_player = player is not None
        self.solver.add(self.params["on_player"] == z3.BoolVal(on_player, self.u.ctx))
        self.solver.add(self.params["add"] == z3.IntVal(int(self.event.get("add")), self.u.ctx))
        # Both as named, or named by no one: an event naming both is refused by both readings.
        self.solver.add(self.params["player"] == (self.el("player", player) if on_player
                                                  else self.u.nobody))
        self.solver.add(self.params["object"] == (self.el("obj", obj) if obj is not None
                                                  else self.u.noobj))
        if not on_player:
            if self.post is not None:
                after = self.post.objects.get(self.event.get("object"))
                self.solver.add(self.params["left"] == z3.BoolVal(bool(after and after.counters), self.u.ctx))

    def phase_or_turn(self) -> None:
        self.solver.add(self.params["object"] == self.el("obj", self.event.get("object")))
        if self.event.kind == "phase":
            self.solver.add(self.params["out"] == z3.BoolVal(bool(self.event.get("out")), self.u.ctx))
        else:
            self.solver.add(self.params["up"] == z3.BoolVal(self.event.get("face") == "up", self.u.ctx))

    def leave(self) -> None:
        self.solver.add(self.params["player"] == self.el("player", self.event.get("player")))

    def control(self) -> None:
        self.solver.add(self.params["object"] == self.el("obj", self.event.get("object")))
        self.solver.add(self.params["player"] == self.el("player", self.event.get("player")))

    def bring_in(self) -> None:
        self.solver.add(self.params["card"] == self.el("obj", self.binding.card))
        if self.post is None:
            # Refused: where it was to go and for whom, as the event names them.
            to, by = self.event.get("to"), self.event.get("by")
            if to is not None and str(to) in ZONE_KINDS:
                self.solver.add(self.params["to"] == self.u.enum("zone", str(to)))
            if by is not None:
                self.solver.add(self.params["by"] == self.el("player", by))
        else:
            where = self.post.where[self.binding.card] if self.binding.card else None
            if where is not None:
                self.solver.add(self.params["to"] == self.u.enum("zone", where.kind))
            by = self.post.objects[self.binding.card].controller if self.binding.card else None
            self.solver.add(self.params["by"] == self.el("player", by))


# Each kind of event whose parameters `_Pins` pins, and the method that pins them.
PIN: dict[str, Callable[[_Pins], None]] = {
    "start-subgame": _Pins.start_subgame,
    "end-subgame": _Pins.end_subgame,
    "restart": _Pins.restart,
    "affect": _Pins.affect,
    "move": _Pins.move,
    "create": _Pins.create,
    "counter": _Pins.counter,
    "phase": _Pins.phase_or_turn,
    "turn": _Pins.phase_or_turn,
    "leave": _Pins.leave,
    "control": _Pins.control,
    "bring-in": _Pins.bring_in,
}


def _pin_params(solver: z3.Solver, params: dict[str, Any], event: Event, binding: Binding,
                element: dict[str, dict[str, Any]], u: Universe, post: Situation | None,
                pre_games: dict[str, Any]) -> None:
    """Pin the transition's parameters to the event's; with `post` None (a refused event)
    only those the event itself names."""
    pin = PIN.get(event.kind)
    if pin is not None:
        pin(_Pins(solver, params, event, binding, element, u, post, pre_games))


def _check_case(rulebook: Rulebook, situation: Situation, event: Event) -> list[Disagreement]:
    return check(rulebook, situation, event)


def exhaustive(rulebook: Rulebook, players: int, cards: int, depth: int,
               jobs: int = 1) -> tuple[int, list[Disagreement]]:
    """Every situation of this size (`proofs.evidence.explicit`), every event it allows: the two
    readings must agree on every invariant. Returns how many transitions were compared and
    the disagreements."""
    from shahrazad.proofs.solving.pool import spawned

    from .explicit import allowed_steps

    cases = list(allowed_steps(rulebook, players, cards, depth))
    found: list[Disagreement] = []
    if jobs <= 1:
        for situation, event in cases:
            found += check(rulebook, situation, event)
    else:
        with spawned(jobs) as pool:
            for result in pool.map(_check_case, [rulebook] * len(cases),
                                   [c[0] for c in cases], [c[1] for c in cases], chunksize=8):
                found += result
    return len(cases), found
