"""The rulebook's steps read as z3 transition relations.

`encode_event(rulebook, event, universe)` gives the symbolic transition of one event: a
pre-state, the event's parameters and preconditions (the same checks the interpreter
makes), then each step of each clause acting on that event, in rulebook order, as a
functional update of the state arrays, and the resulting post-state. Every step reads as
in `model.interpreter`; `tests/test_agreement.py` checks the two readings against each
other on every small situation.

Order within zones (shuffles, top and bottom) is not part of the symbolic state: no
invariant speaks of it. Library sizes are: they are counted only in bounded universes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3
from shahrazad.model.language import Clause, Destination, Selector, Step
from shahrazad.model.objects import NONCARD_ZONES, PLAYER_ZONES
from shahrazad.model.rulebook import Rulebook

from .symbolic import SymBinding, SymState, Universe

BRING_IN_ZONES = ("library", "hand", "graveyard", "battlefield", "exile", "command", "stack")


@dataclass
class Transition:
    """One event, symbolically: pre, post, what it bound, and what must hold for it."""

    event: str
    pre: SymState
    post: SymState
    binding: SymBinding
    constraints: list[Any]
    params: dict[str, Any]
    states: list[tuple[str, SymState]] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    fires: dict[str, list[Any]] = field(default_factory=dict)


class _Encoder:
    def __init__(self, rulebook: Rulebook, universe: Universe, event: str):
        self.rb = rulebook
        self.u = universe
        self.event = event
        self.constraints: list[Any] = []
        self.params: dict[str, Any] = {}
        self.roles: dict[str, Any] = {}
        self.bound: dict[str, Any] = {}  # role -> z3 Bool: is it bound (statically True mostly)
        self.count = 0
        self.states: list[tuple[str, SymState]] = []
        self.unsupported: list[str] = []
        self.fires: dict[str, list[Any]] = {}
        nothing = z3.K(universe.sorts["obj"], z3.BoolVal(False, universe.ctx))
        self.touched: Any = nothing  # objects that moved or ceased (400.7)
        self.gone: Any = nothing  # effects that ceased

    # ---- helpers ------------------------------------------------------------------------

    def true(self) -> Any:
        return z3.BoolVal(True, self.u.ctx)

    def false(self) -> Any:
        return z3.BoolVal(False, self.u.ctx)

    def z(self, value: str) -> Any:
        return self.u.enum("zone", value)

    def next_state(self, state: SymState, label: str, **changes: Any) -> SymState:
        self.count += 1
        new = state.updated(f"s{self.count}", **changes)
        if self.u.bound is not None:
            new = new.updated(new.name, library_size=self.library_size(new))
        self.states.append((label, new))
        return new

    def library_size(self, s: SymState) -> Any:
        g = self.u.const("g!ls", "game")
        p = self.u.const("p!ls", "player")
        terms = [z3.If(z3.And(s.get("exists", o), s.get("zone", o) == self.z("library"),
                              s.get("game", o) == g, s.get("zone_player", o) == p),
                       z3.IntVal(1, self.u.ctx), z3.IntVal(0, self.u.ctx))
                 for o in self.u.elements["obj"][:-1]]
        return z3.Lambda([g, p], z3.Sum(*terms) if terms else z3.IntVal(0, self.u.ctx))

    def fresh_object(self, s: SymState, x: Any) -> Any:
        """`x` names no object yet: it does not exist and no game mentions it."""
        g = self.u.const("g!fresh", "game")
        return z3.And(x != self.u.noobj, z3.Not(s.get("exists", x)), self.u.forall([g], z3.And(
            z3.Not(s.get("waiting", g, x)), z3.Not(s.get("resolved", g, x)),
            s.get("began_in_deck", g, x) == self.u.enum("deck", "none"),
            z3.Or(z3.Not(s.get("has_creator", g)), s.get("created_by", g) != x))),
            self.no_effects(s, x))

    def no_effects(self, s: SymState, x: Any) -> Any:
        e = self.u.const("e!none", "obj")
        p = self.u.const("p!none", "player")
        return z3.And(self.u.forall([e], z3.Not(s.get("affects", e, x))),
                      self.u.forall([e], z3.Not(s.get("affects", x, e))),
                      self.u.forall([p], z3.Not(s.get("affects_player", x, p))))

    def forget(self, s: SymState, o: Any, target: Any, effect: Any) -> dict[str, Any]:
        """What effects act on: nothing acts on an object that moved or ceased (400.7), and
        an effect that ceased acts on nothing. `target` and `effect` are conditions on `o`.

        No step reads what effects act on, so instead of rewriting that relation at every
        step the encoder notes which objects were touched and which effects ceased, and
        applies both once, to the state after the event (`settle`): the same relation, in a
        form the solver handles far better."""
        x = self.u.const("o!touched", "obj")
        self.touched = z3.Lambda([x], z3.Or(z3.Select(self.touched, x),
                                            z3.substitute(target, (o, x))))
        self.gone = z3.Lambda([x], z3.Or(z3.Select(self.gone, x), z3.substitute(effect, (o, x))))
        return {}

    def settle(self, s: SymState) -> SymState:
        u = self.u
        e = u.const("e!settle", "obj")
        o = u.const("o!settle", "obj")
        p = u.const("p!settle", "player")
        alive = z3.Not(z3.Select(self.gone, e))
        return s.updated(
            s.name,
            affects=z3.Lambda([e, o], z3.And(s.get("affects", e, o), alive,
                                             z3.Not(z3.Select(self.touched, o)))),
            affects_player=z3.Lambda([e, p], z3.And(s.get("affects_player", e, p), alive)))

    def inside(self, s: SymState, o: Any) -> Any:
        return z3.And(s.get("exists", o), s.get("zone", o) != self.z("outside"))

    def role(self, name: str) -> tuple[Any, Any] | None:
        """The role's game and the condition that it is bound, or None if never bound."""
        if name not in self.roles:
            return None
        return self.roles[name], self.bound[name]

    def bind(self, name: str, game: Any, condition: Any | None = None) -> None:
        self.roles[name] = game
        self.bound[name] = condition if condition is not None else self.true()

    # ---- selection and movement ---------------------------------------------------------

    def selected(self, s: SymState, sel: Selector, o: Any) -> Any:
        r = self.role(sel.game)
        if r is None:
            return self.false()
        game, bound = r
        u = self.u
        tests = [bound, self.inside(s, o), s.get("game", o) == game]
        if sel.object:
            tests.append(z3.Or(*(s.get("kind", o) == u.enum("kind", k) for k in sel.object)))
        if sel.card_type:
            types = set(sel.card_type)
            if "nontraditional" in types:
                types.discard("nontraditional")
                types |= {t for t in u.values["ctype"] if t not in ("traditional", "none")}
            tests.append(s.get("kind", o) == u.enum("kind", "card"))
            tests.append(z3.Or(*(s.get("ctype", o) == u.enum("ctype", t) for t in sorted(types))))

        def zone_is(kind: str) -> Any:
            if kind == "command":
                return z3.Or(s.get("zone", o) == self.z("command"), s.get("zone", o) == self.z("deck"))
            return s.get("zone", o) == self.z(kind)

        if sel.zone:
            tests.append(z3.Or(*(zone_is(k) for k in sel.zone)))
        if sel.zone_not:
            tests.append(z3.Not(z3.Or(*(zone_is(k) for k in sel.zone_not))))
        if sel.commander is not None:
            # The concrete model: only cards carry the commander designation.
            is_commander = z3.And(s.get("kind", o) == u.enum("kind", "card"), s.get("commander", o))
            tests.append(is_commander if sel.commander else z3.Not(is_commander))
        if sel.exempt is not None:
            ex = z3.Select(self.params["exempt"], o) if "exempt" in self.params else self.false()
            tests.append(ex if sel.exempt else z3.Not(ex))
        if sel.began_in_deck is not None:
            marked = s.get("began_in_deck", game, o) != u.enum("deck", "none")
            marked = z3.And(s.get("present", game), marked)
            tests.append(marked if sel.began_in_deck else z3.Not(marked))
        if sel.phased != "any":
            out = s.get("phased_out", o)
            tests.append(out if sel.phased == "out" else z3.Not(out))
        if sel.face != "any":
            up = s.get("face_up", o)
            tests.append(up if sel.face == "up" else z3.Not(up))
        return z3.And(*tests)

    def firing(self, s: SymState, step: Step) -> Any:
        """When the step does something: an object step selects an object; permissions and
        prohibitions act through the events that consult them; other game steps always act
        once the event happens."""
        if step.select is not None:
            o = self.u.const("o!fires", "obj")
            return self.u.exists([o], self.selected(s, step.select, o))
        if step.action in ("permit", "forbid"):
            return self.false()
        if step.action == "queue-leave-triggers":
            r = self.role(step.args["_"])
            return r[1] if r is not None else self.false()
        return self.true()

    def object_step(self, s: SymState, step: Step, label: str) -> SymState:
        assert step.select is not None
        u = self.u
        o = u.const("o", "obj")
        sel = self.selected(s, step.select, o)
        if step.action == "cease":
            exists = z3.Lambda([o], z3.If(sel, self.false(), s.get("exists", o)))
            return self.next_state(s, label, exists=exists, **self.forget(s, o, sel, sel))
        if step.action == "set":
            changes: dict[str, Any] = {}
            for key, value in step.args.items():
                attribute = {"face": "face_up", "phased": "phased_out", "commander": "commander"}[key]
                new = {"face": value == "up", "phased": value == "out", "commander": bool(value)}[key]
                if key == "commander":
                    sel_here = z3.And(sel, s.get("kind", o) == u.enum("kind", "card"))
                else:
                    sel_here = sel
                changes[attribute] = z3.Lambda([o], z3.If(sel_here, z3.BoolVal(new, u.ctx),
                                                          s.get(attribute, o)))
            return self.next_state(s, label, **changes)
        assert step.to is not None
        return self.move(s, step.select, step.to, label)

    def move(self, s: SymState, sel_spec: Selector, dest: Destination, label: str) -> SymState:
        u = self.u
        o = u.const("o", "obj")
        sel = self.selected(s, sel_spec, o)
        r = self.role(dest.game)
        if r is None:
            return self.next_state(s, label)
        game, bound = r
        valid = [bound, s.get("present", game)]
        player = None
        if dest.zone in (*PLAYER_ZONES, "deck"):
            player = {"owner": s.get("owner", o), "same": s.get("zone_player", o),
                      "controller": s.get("controller", o)}[dest.whose]
            valid.append(s.get("plays", game, player))
        deck = None
        if dest.zone == "deck":
            if dest.deck == "same":
                deck = s.get("zone_deck", o)
            elif dest.deck == "own":
                deck = s.get("own_deck", o)
            else:
                src = self.role(sel_spec.game)
                deck = (z3.If(s.get("present", src[0]), s.get("began_in_deck", src[0], o),
                              u.enum("deck", "none")) if src else u.enum("deck", "none"))
            valid.append(deck != u.enum("deck", "none"))
        moved = z3.And(sel, *valid)
        is_card = s.get("kind", o) == u.enum("kind", "card")
        controller = z3.If(is_card, s.get("owner", o), s.get("controller", o))
        if dest.control == "event-controller" and "controller" in self.params:
            controller = self.params["controller"]
        changes: dict[str, Any] = {
            "zone": z3.Lambda([o], z3.If(moved, self.z(dest.zone), s.get("zone", o))),
            "game": z3.Lambda([o], z3.If(moved, game, s.get("game", o))),
            "zone_player": z3.Lambda([o], z3.If(moved, player if player is not None else u.nobody,
                                                s.get("zone_player", o))),
            "zone_deck": z3.Lambda([o], z3.If(moved, deck if deck is not None else
                                              u.enum("deck", "none"), s.get("zone_deck", o))),
            "has_counters": z3.Lambda([o], z3.If(moved, self.false(), s.get("has_counters", o))),
            "phased_out": z3.Lambda([o], z3.If(moved, self.false(), s.get("phased_out", o))),
            "controller": z3.Lambda([o], z3.If(moved, controller, s.get("controller", o))),
        }
        changes.update(self.forget(s, o, moved, self.false()))
        if dest.face != "keep":
            changes["face_up"] = z3.Lambda([o], z3.If(moved, z3.BoolVal(dest.face == "up", u.ctx),
                                                      s.get("face_up", o)))
        if dest.mark == "began-in-deck" and deck is not None:
            g = u.const("g", "game")
            changes["began_in_deck"] = z3.Lambda(
                [g, o], z3.If(z3.And(g == game, moved), deck, s.get("began_in_deck", g, o)))
        return self.next_state(s, label, **changes)

    # ---- game steps ---------------------------------------------------------------------

    def game_step(self, s: SymState, step: Step, label: str) -> SymState:
        handler = getattr(self, "g_" + step.action.replace("-", "_"))
        result: SymState = handler(s, step.args, label)
        return result

    def _set_game(self, s: SymState, attribute: str, game: Any, value: Any) -> Any:
        return z3.Store(s.arrays[attribute], game, value)

    def g_permit(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        return s

    g_forbid = g_permit

    def g_shuffle(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        return s  # order within zones is not part of the symbolic state

    def g_create_game(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        u = self.u
        src = self.role(args["players"])
        if src is None:
            self.unsupported.append(f"{label}: create-game from an unbound role")
            return s
        src_game, _ = src
        new = u.fresh("new-game", "game")
        o = u.const("o", "obj")
        g = u.const("g", "game")
        p = u.const("p", "player")
        self.constraints += [
            new != u.nogame, z3.Not(s.get("present", new)), z3.Not(s.get("live", new)),
            self.u.forall([o], z3.Implies(s.get("exists", o), z3.And(s.get("game", o) != new,
                                                                 s.get("origin", o) != new))),
            self.u.forall([g], z3.Implies(s.get("present", g), s.get("parent", g) != new)),
        ]
        parent_role = args["parent"]
        if parent_role == "parent-of-restarted":
            has_parent = s.get("has_parent", src_game)
            parent = s.get("parent", src_game)
        elif parent_role == "none":
            has_parent, parent = self.false(), u.nogame
        else:
            pr = self.role(parent_role)
            has_parent, parent = (self.true(), pr[0]) if pr else (self.false(), u.nogame)
        plays = s.get("plays", src_game, p)
        if self.event == "restart" and self.rb.grants("restart", "permit",
                                                      "restart-ignores-range") is None:
            in_range = z3.Function("in_range", u.sorts["game"], u.sorts["player"],
                                   u.sorts["player"], u.sorts["bool"])
            self.params["in_range"] = (in_range, src_game)
            ctrl = self.params["controller"]
            self.constraints.append(in_range(src_game, ctrl, ctrl))
            plays = z3.And(plays, z3.Or(z3.Not(s.get("limited_range", src_game)),
                                        in_range(src_game, ctrl, p)))
        zero = z3.IntVal(0, u.ctx)
        none_deck = u.enum("deck", "none")

        def row(attribute: str, value: Any) -> Any:
            return z3.Lambda([g, p], z3.If(g == new, value, s.get(attribute, g, p)))

        def obj_row(attribute: str, value: Any) -> Any:
            return z3.Lambda([g, o], z3.If(g == new, value, s.get(attribute, g, o)))

        creator = self.params.get("creator", u.noobj) if self.event == "start-subgame" else u.noobj
        changes = {
            "present": self._set_game(s, "present", new, self.true()),
            "live": self._set_game(s, "live", new, self.true()),
            "active": self._set_game(s, "active", new, self.true()),
            "suspended": self._set_game(s, "suspended", new, self.false()),
            "has_parent": self._set_game(s, "has_parent", new, has_parent),
            "parent": self._set_game(s, "parent", new, z3.If(has_parent, parent, u.nogame)),
            "depth": self._set_game(s, "depth", new, z3.If(has_parent,
                                                           s.get("depth", parent) + 1, zero)),
            "result": self._set_game(s, "result", new, u.enum("result", "running")),
            "has_creator": self._set_game(s, "has_creator", new,
                                          z3.BoolVal(self.event == "start-subgame", u.ctx)),
            "created_by": self._set_game(s, "created_by", new, creator),
            "limited_range": self._set_game(s, "limited_range", new,
                                            s.get("limited_range", src_game)),
            "plays": z3.Lambda([g, p], z3.If(g == new, plays, s.get("plays", g, p))),
            "counters": row("counters", zero),
            "starts": row("starts", self.false()),
            "doomed": row("doomed", self.false()),
            "began_in_deck": obj_row("began_in_deck", none_deck),
            "waiting": obj_row("waiting", self.false()),
            "resolved": obj_row("resolved", self.false()),
        }
        self.bind(args["game"], new)
        return self.next_state(s, label, **changes)

    def _status(self, s: SymState, game: Any, **values: bool) -> dict[str, Any]:
        return {k: self._set_game(s, k, game, z3.BoolVal(v, self.u.ctx)) for k, v in values.items()}

    def _game_of(self, name: str) -> Any:
        r = self.role(name)
        if r is None:
            raise _Unbound(name)
        return r[0]

    def g_suspend(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        game = self._game_of(args["_"])
        return self.next_state(s, label, **self._status(s, game, active=False, suspended=True))

    def g_resume(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        game = self._game_of(args["_"])
        return self.next_state(s, label, **self._status(s, game, active=True, suspended=False))

    def g_end_game(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        game = self._game_of(args["game"])
        value = (self.u.enum("result", "restarted") if args["result"] == "restarted"
                 else self.params["result"])
        changes = self._status(s, game, live=False, active=False, suspended=False)
        changes["result"] = self._set_game(s, "result", game, value)
        return self.next_state(s, label, **changes)

    def g_destroy_zones(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        """The game's record goes: what the concrete reading says of a game that is gone."""
        u = self.u
        game = self._game_of(args["_"])
        g = u.const("g", "game")
        p = u.const("p", "player")
        o = u.const("o", "obj")
        changes = self._status(s, game, present=False, live=False, active=False, suspended=False,
                               has_parent=False, has_creator=False, limited_range=False)
        changes["parent"] = self._set_game(s, "parent", game, u.nogame)
        changes["depth"] = self._set_game(s, "depth", game, z3.IntVal(0, u.ctx))
        changes["created_by"] = self._set_game(s, "created_by", game, u.noobj)
        for attribute in ("plays", "starts", "doomed"):
            changes[attribute] = z3.Lambda([g, p], z3.If(g == game, self.false(),
                                                         s.get(attribute, g, p)))
        for attribute in ("waiting", "resolved"):
            changes[attribute] = z3.Lambda([g, o], z3.If(g == game, self.false(),
                                                         s.get(attribute, g, o)))
        changes["began_in_deck"] = z3.Lambda([g, o], z3.If(g == game, u.enum("deck", "none"),
                                                           s.get("began_in_deck", g, o)))
        return self.next_state(s, label, **changes)

    def g_starting_player(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        u = self.u
        game = self._game_of(args["game"])
        g = u.const("g", "game")
        p = u.const("p", "player")
        if args["choose"] == "random":
            chosen = u.fresh("starting", "player")
            self.params.setdefault("random_starting", []).append(chosen)
            q = u.const("q", "player")
            self.constraints.append(z3.Or(s.get("plays", game, chosen),
                                          self.u.forall([q], z3.Not(s.get("plays", game, q)))))
            condition = s.get("plays", game, chosen)
        else:
            chosen = self.params["controller"]
            condition = self.true()
        starts = z3.Lambda([g, p], z3.If(z3.And(g == game, condition), p == chosen,
                                         s.get("starts", g, p)))
        return self.next_state(s, label, starts=starts)

    def g_short_library(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        u = self.u
        game = self._game_of(args["game"])
        g = u.const("g", "game")
        p = u.const("p", "player")
        doomed = z3.Lambda([g, p], z3.If(g == game, z3.And(
            s.get("plays", game, p),
            s.get("library_size", game, p) < z3.IntVal(int(args["minimum"]), u.ctx)),
            s.get("doomed", g, p)))
        return self.next_state(s, label, doomed=doomed)

    def g_cease_player_counters(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        u = self.u
        game = self._game_of(args["_"])
        g = u.const("g", "game")
        p = u.const("p", "player")
        counters = z3.Lambda([g, p], z3.If(g == game, z3.IntVal(0, u.ctx), s.get("counters", g, p)))
        return self.next_state(s, label, counters=counters)

    def g_copy_player_counters(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        u = self.u
        source, target = self._game_of(args["from"]), self._game_of(args["to"])
        g = u.const("g", "game")
        p = u.const("p", "player")
        counters = z3.Lambda([g, p], z3.If(z3.And(g == target, s.get("plays", target, p)),
                                           s.get("counters", source, p), s.get("counters", g, p)))
        return self.next_state(s, label, counters=counters)

    def g_finish_resolving(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        u = self.u
        game = self._game_of(args["_"])
        c = self.params.get("creator", u.noobj)
        has = c != u.noobj
        o = u.const("o", "obj")
        g = u.const("g", "game")
        on_stack = z3.And(has, self.inside(s, c), s.get("game", c) == game,
                          s.get("zone", c) == self.z("stack"))
        is_card = s.get("kind", c) == u.enum("kind", "card")
        to_grave = z3.And(on_stack, is_card, s.get("plays", game, s.get("owner", c)))
        ceases = z3.And(on_stack, z3.Not(is_card))
        this = o == c
        changes = {
            "resolved": z3.Lambda([g, o], z3.If(z3.And(has, g == game, this), self.true(),
                                                s.get("resolved", g, o))),
            "exists": z3.Lambda([o], z3.If(z3.And(this, ceases), self.false(), s.get("exists", o))),
            "zone": z3.Lambda([o], z3.If(z3.And(this, to_grave), self.z("graveyard"),
                                         s.get("zone", o))),
            "zone_player": z3.Lambda([o], z3.If(z3.And(this, to_grave), s.get("owner", o),
                                                s.get("zone_player", o))),
            "has_counters": z3.Lambda([o], z3.If(z3.And(this, to_grave), self.false(),
                                                 s.get("has_counters", o))),
            "phased_out": z3.Lambda([o], z3.If(z3.And(this, to_grave), self.false(),
                                               s.get("phased_out", o))),
            "controller": z3.Lambda([o], z3.If(z3.And(this, to_grave), s.get("owner", o),
                                               s.get("controller", o))),
        }
        changes.update(self.forget(s, o, z3.And(this, to_grave), z3.And(this, ceases)))
        return self.next_state(s, label, **changes)

    def g_release_triggers(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        u = self.u
        game = self._game_of(args["_"])
        o = u.const("o", "obj")
        g = u.const("g", "game")
        w = s.get("waiting", game, o)
        trigger_owner = z3.Array(f"trigger-owner!{self.count}", u.sorts["obj"], u.sorts["player"])
        changes = {
            "exists": z3.Lambda([o], z3.Or(w, s.get("exists", o))),
            "zone": z3.Lambda([o], z3.If(w, self.z("stack"), s.get("zone", o))),
            "game": z3.Lambda([o], z3.If(w, game, s.get("game", o))),
            "origin": z3.Lambda([o], z3.If(w, game, s.get("origin", o))),
            "zone_player": z3.Lambda([o], z3.If(w, u.nobody, s.get("zone_player", o))),
            "zone_deck": z3.Lambda([o], z3.If(w, u.enum("deck", "none"), s.get("zone_deck", o))),
            "kind": z3.Lambda([o], z3.If(w, u.enum("kind", "ability"), s.get("kind", o))),
            "ctype": z3.Lambda([o], z3.If(w, u.enum("ctype", "none"), s.get("ctype", o))),
            "own_deck": z3.Lambda([o], z3.If(w, u.enum("deck", "none"), s.get("own_deck", o))),
            "owner": z3.Lambda([o], z3.If(w, z3.Select(trigger_owner, o), s.get("owner", o))),
            "controller": z3.Lambda([o], z3.If(w, z3.Select(trigger_owner, o),
                                               s.get("controller", o))),
            "commander": z3.Lambda([o], z3.If(w, self.false(), s.get("commander", o))),
            "face_up": z3.Lambda([o], z3.If(w, self.true(), s.get("face_up", o))),
            "phased_out": z3.Lambda([o], z3.If(w, self.false(), s.get("phased_out", o))),
            "has_counters": z3.Lambda([o], z3.If(w, self.false(), s.get("has_counters", o))),
            "watcher": z3.Lambda([o], z3.If(w, self.false(), s.get("watcher", o))),
            "waiting": z3.Lambda([g, o], z3.If(g == game, self.false(), s.get("waiting", g, o))),
        }
        self.constraints.append(self.u.forall([o], z3.Implies(
            w, s.get("plays", game, z3.Select(trigger_owner, o)))))
        return self.next_state(s, label, **changes)

    def g_queue_leave_triggers(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        u = self.u
        r = self.role(args["_"])
        if r is None or "card" not in self.params:
            return self.next_state(s, label)
        game, bound = r
        card = self.params["card"]
        o = u.const("o", "obj")
        g = u.const("g", "game")
        trig = z3.Function(f"trigger-of!{self.count}", u.sorts["obj"], u.sorts["obj"])
        source = z3.Function(f"source-of!{self.count}", u.sorts["obj"], u.sorts["obj"])

        def watches(x: Any) -> Any:
            in_source = z3.And(self.inside(s, x), s.get("game", x) == game,
                               z3.Not(s.get("phased_out", x)))
            return z3.And(bound, s.get("watcher", x), z3.Or(x == card, in_source))

        self.constraints += [
            self.u.forall([o], z3.Implies(watches(o), z3.And(source(trig(o)) == o,
                                                         self.fresh_object(s, trig(o))))),
        ]
        fresh = z3.And(trig(source(o)) == o, watches(source(o)))
        waiting = z3.Lambda([g, o], z3.Or(s.get("waiting", g, o), z3.And(g == game, fresh)))
        return self.next_state(s, label, waiting=waiting)

    def g_inherit(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        old, new = self.role(args["from"]), self.role(args["to"])
        if old is None or new is None:
            return self.next_state(s, label)
        present = s.get("present", old[0])
        changes = {
            "has_creator": self._set_game(s, "has_creator", new[0],
                                          z3.And(present, s.get("has_creator", old[0]))),
            "created_by": self._set_game(s, "created_by", new[0],
                                         z3.If(present, s.get("created_by", old[0]), self.u.noobj)),
        }
        return self.next_state(s, label, **changes)

    def g_further_instructions(self, s: SymState, args: dict[str, Any], label: str) -> SymState:
        u = self.u
        game = self._game_of(args["_"])
        o = u.const("o", "obj")
        moves = z3.And(self.params["then"], z3.Select(self.params["exempt"], o),
                       self.inside(s, o), s.get("game", o) == game,
                       s.get("zone", o) == self.z("exile"))
        changes = {
            "zone": z3.Lambda([o], z3.If(moves, self.z("battlefield"), s.get("zone", o))),
            "controller": z3.Lambda([o], z3.If(moves, self.params["controller"],
                                               s.get("controller", o))),
        }
        return self.next_state(s, label, **changes)

    # ---- events -------------------------------------------------------------------------

    def run(self) -> Transition:
        u = self.u
        pre = SymState.declare(u, "pre")
        if u.bound is not None:
            pre = pre.updated("pre", library_size=self.library_size(pre))
        active = u.const("active", "game")
        self.constraints += [pre.get("active", active), pre.get("live", active)]
        self.bind("active", active)
        if self.event in IN_GAME_ACTIONS:
            state = IN_GAME_ACTIONS[self.event](self, pre, active)
        else:
            state = getattr(self, "e_" + self.event.replace("-", "_"))(pre, active)
        for clause in self.rb.on(self.event):
            for index, step in enumerate(clause.steps, start=1):
                state = self.run_step(state, clause, step, f"{clause.name}#{index}")
        post = self.settle(state).updated("post")
        binding = SymBinding(roles=dict(self.roles), has_roles=dict(self.bound),
                             controller=self.params.get("controller", u.nobody),
                             exempt=self.params.get("exempt", z3.K(u.sorts["obj"], self.false())),
                             creator=self.params.get("creator", u.noobj),
                             card=self.params.get("card", u.noobj),
                             then_battlefield=self.params.get("then", self.false()))
        return Transition(self.event, pre, post, binding, self.constraints, self.params,
                          self.states, self.unsupported, self.fires)

    def run_step(self, s: SymState, clause: Clause, step: Step, label: str) -> SymState:
        try:
            self.fires.setdefault(clause.name, []).append(self.firing(s, step))
            if step.select is not None:
                return self.object_step(s, step, label)
            return self.game_step(s, step, label)
        except _Unbound as err:
            # The interpreter refuses the event (IllegalEvent): no transition exists.
            self.constraints.append(self.false())
            self.unsupported.append(f"{label}: refers to the {err.role} game, which no clause "
                                    "created")
            return s

    def e_start_subgame(self, pre: SymState, active: Any) -> SymState:
        u = self.u
        if self.rb.grants("start-subgame", "permit", "nested-subgame") is None:
            self.constraints.append(z3.Not(pre.get("has_parent", active)))
        creator = u.const("via", "obj")
        by = u.const("by", "player")
        self.constraints += [creator != u.noobj, self.inside(pre, creator),
                             pre.get("game", creator) == active,
                             pre.get("zone", creator) == self.z("stack"),
                             pre.get("plays", active, by)]
        self.params.update(creator=creator, by=by, controller=by)
        self.bind("main", active)
        return pre

    def e_end_subgame(self, pre: SymState, active: Any) -> SymState:
        u = self.u
        result = u.const("result", "result")
        winners = z3.Array("winners", u.sorts["player"], u.sorts["bool"])
        p = u.const("p", "player")
        self.constraints += [
            pre.get("has_parent", active),
            z3.Or(result == u.enum("result", "win"), result == u.enum("result", "draw"),
                  result == u.enum("result", "none")),
            self.u.forall([p], z3.Implies(z3.Select(winners, p), pre.get("plays", active, p))),
            (result == u.enum("result", "win")) == self.u.exists([p], z3.Select(winners, p)),
        ]
        creator = z3.If(pre.get("has_creator", active), pre.get("created_by", active), u.noobj)
        self.params.update(result=result, winners=winners, creator=creator)
        self.bind("subgame", active)
        self.bind("main", pre.get("parent", active))
        return pre

    def e_restart(self, pre: SymState, active: Any) -> SymState:
        u = self.u
        controller = u.const("controller", "player")
        exempt = z3.Array("exempt", u.sorts["obj"], u.sorts["bool"])
        then = z3.Bool("then-battlefield", u.ctx)
        o = u.const("o", "obj")
        self.constraints += [
            pre.get("plays", active, controller),
            self.u.forall([o], z3.Implies(z3.Select(exempt, o), z3.And(
                self.inside(pre, o), pre.get("game", o) == active,
                pre.get("kind", o) == u.enum("kind", "card")))),
        ]
        self.params.update(controller=controller, exempt=exempt, then=then)
        self.bind("restarted", active)
        self.bind("main", pre.get("parent", active), pre.get("has_parent", active))
        return pre

    def e_bring_in(self, pre: SymState, active: Any) -> SymState:
        u = self.u
        card = u.const("card", "obj")
        to = u.const("to", "zone")
        by = u.const("by", "player")
        inside = self.inside(pre, card)
        source = pre.get("game", card)
        allowed_from = [z3.Not(inside)]
        if self.rb.grants("bring-in", "permit", "bring-in-from-main-game") is not None:
            allowed_from.append(z3.And(inside, source != active, pre.get("live", source)))
        self.constraints += [
            card != u.noobj, pre.get("exists", card), pre.get("kind", card) == u.enum("kind", "card"),
            z3.Or(*allowed_from), z3.Not(pre.get("phased_out", card)),
            z3.Or(*(to == self.z(k) for k in BRING_IN_ZONES)), pre.get("plays", active, by),
            z3.Or(pre.get("ctype", card) == u.enum("ctype", "traditional"),
                  to == self.z("command")),
            pre.get("plays", active, pre.get("owner", card)),
        ]
        self.params.update(card=card, to=to, by=by, controller=by)
        self.bind("source", source, inside)
        # The card moves (400.11b) before the clauses run, as in the interpreter.
        o = u.const("o", "obj")
        this = o == card
        player_zone = z3.Or(*(to == self.z(k) for k in PLAYER_ZONES))
        return self.next_state(
            pre, "bring-in: the card moves (400.11b)",
            zone=z3.Lambda([o], z3.If(this, to, pre.get("zone", o))),
            game=z3.Lambda([o], z3.If(this, active, pre.get("game", o))),
            zone_player=z3.Lambda([o], z3.If(this, z3.If(player_zone, pre.get("owner", card),
                                                         u.nobody),
                                             pre.get("zone_player", o))),
            zone_deck=z3.Lambda([o], z3.If(this, u.enum("deck", "none"), pre.get("zone_deck", o))),
            has_counters=z3.Lambda([o], z3.If(this, self.false(), pre.get("has_counters", o))),
            phased_out=z3.Lambda([o], z3.If(this, self.false(), pre.get("phased_out", o))),
            controller=z3.Lambda([o], z3.If(this, by, pre.get("controller", o))),
            **self.forget(pre, o, this, self.false()),
        )


    def e_affect(self, pre: SymState, active: Any) -> SymState:
        u = self.u
        effect = u.const("effect", "obj")
        target = u.const("target", "obj")
        target_player = u.const("target-player", "player")
        on_player = z3.Bool("on-player", u.ctx)
        e_game = pre.get("game", effect)
        self.constraints += [
            effect != u.noobj, pre.get("exists", effect),
            pre.get("kind", effect) == u.enum("kind", "effect"),
            z3.Or(on_player, z3.And(target != u.noobj, pre.get("exists", target))),
            z3.Or(z3.Not(on_player), target_player != u.nobody),
        ]
        if self.rb.grants("affect", "forbid", "cross-game-effects") is not None:
            self.constraints.append(z3.And(e_game == active, z3.If(
                on_player, pre.get("plays", e_game, target_player),
                z3.And(self.inside(pre, target), pre.get("game", target) == e_game))))
        self.params.update(effect=effect, target=target, target_player=target_player,
                           on_player=on_player)
        e = u.const("e", "obj")
        o = u.const("o", "obj")
        p = u.const("p", "player")
        return self.next_state(
            pre, "affect: the effect acts (611.1)",
            affects=z3.Lambda([e, o], z3.Or(pre.get("affects", e, o), z3.And(
                z3.Not(on_player), e == effect, o == target))),
            affects_player=z3.Lambda([e, p], z3.Or(pre.get("affects_player", e, p), z3.And(
                on_player, e == effect, p == target_player))))


class _Unbound(Exception):
    def __init__(self, role: str):
        self.role = role


def encode_event(rulebook: Rulebook, event: str, universe: Universe) -> Transition:
    """The symbolic transition of `event` under `rulebook`."""
    return _Encoder(rulebook, universe, event).run()


# ---- the in-game actions, read as the interpreter runs them (not rulebook clauses) -------

def _object_in_active(e: _Encoder, s: SymState, x: Any, active: Any) -> Any:
    return z3.And(x != e.u.noobj, e.inside(s, x), s.get("game", x) == active)


def a_move(self: _Encoder, pre: SymState, active: Any) -> SymState:
    """400.7: an object moves within the active game (or a card goes outside the game);
    a card bound for a library, hand or graveyard goes to its owner's (400.3)."""
    u = self.u
    x = u.const("object", "obj")
    to = u.const("to", "zone")
    to_player = u.const("to-player", "player")
    to_deck = u.const("to-deck", "deck")
    is_card = pre.get("kind", x) == u.enum("kind", "card")
    player_zone = z3.Or(*(to == self.z(k) for k in PLAYER_ZONES))
    player = z3.If(z3.And(is_card, z3.Or(player_zone, to == self.z("deck"))),
                   pre.get("owner", x), to_player)
    nontraditional = z3.And(is_card, pre.get("ctype", x) != u.enum("ctype", "traditional"))
    allowed_noncard = z3.Or(*(z3.And(pre.get("kind", x) == u.enum("kind", k),
                                     z3.Or(*(to == self.z(z) for z in zones)))
                              for k, zones in NONCARD_ZONES.items()))
    ceases = z3.And(z3.Not(is_card), z3.Not(allowed_noncard),
                    z3.Or(pre.get("kind", x) == u.enum("kind", "token"),
                          pre.get("kind", x) == u.enum("kind", "copy")))
    outside = to == self.z("outside")
    self.constraints += [
        _object_in_active(self, pre, x, active),
        z3.Implies(outside, is_card),
        z3.Implies(is_card, to != self.z("effects")),
        z3.Implies(z3.Or(player_zone, to == self.z("deck")),
                   z3.And(to_player != u.nobody, pre.get("plays", active, player))),
        z3.Implies(to == self.z("deck"), z3.And(is_card, to_deck == pre.get("own_deck", x),
                                                to_deck != u.enum("deck", "none"))),
        z3.Implies(nontraditional, z3.Not(z3.Or(player_zone, to == self.z("stack")))),
        z3.Or(is_card, allowed_noncard, ceases),
    ]
    self.params.update(object=x, to=to, to_player=to_player, to_deck=to_deck)
    o = u.const("o", "obj")
    moved = z3.And(o == x, z3.Not(ceases))
    gone = z3.And(o == x, ceases)
    self.forget(pre, o, o == x, gone)
    controller = z3.If(is_card, pre.get("owner", x), pre.get("controller", x))
    return self.next_state(
        pre, "move (400.7)",
        exists=z3.Lambda([o], z3.If(gone, self.false(), pre.get("exists", o))),
        zone=z3.Lambda([o], z3.If(moved, to, pre.get("zone", o))),
        game=z3.Lambda([o], z3.If(moved, z3.If(outside, u.nogame, active), pre.get("game", o))),
        zone_player=z3.Lambda([o], z3.If(moved, z3.If(z3.Or(player_zone, to == self.z("deck")),
                                                      player, u.nobody),
                                         pre.get("zone_player", o))),
        zone_deck=z3.Lambda([o], z3.If(moved, z3.If(to == self.z("deck"), to_deck,
                                                    u.enum("deck", "none")),
                                       pre.get("zone_deck", o))),
        has_counters=z3.Lambda([o], z3.If(moved, self.false(), pre.get("has_counters", o))),
        phased_out=z3.Lambda([o], z3.If(moved, self.false(), pre.get("phased_out", o))),
        controller=z3.Lambda([o], z3.If(moved, controller, pre.get("controller", o))),
    )


def a_create(self: _Encoder, pre: SymState, active: Any) -> SymState:
    """111.1, 707.10, 114.1, 113.3, 611.1: a new object in the active game."""
    u = self.u
    x = u.const("new-object", "obj")
    kind = u.const("kind", "kind")
    to = u.const("to", "zone")
    controller = u.const("controller", "player")
    watcher = z3.Bool("watches", u.ctx)
    self.constraints += [
        self.fresh_object(pre, x), kind != u.enum("kind", "card"),
        pre.get("plays", active, controller),
        z3.Or(*(z3.And(kind == u.enum("kind", k), z3.Or(*(to == self.z(z) for z in zones)))
                for k, zones in NONCARD_ZONES.items())),
    ]
    self.params.update(object=x, kind=kind, to=to, controller=controller, watcher=watcher)
    o = u.const("o", "obj")
    this = o == x

    def put(attribute: str, value: Any) -> Any:
        return z3.Lambda([o], z3.If(this, value, pre.get(attribute, o)))

    return self.next_state(
        pre, "create",
        exists=put("exists", self.true()), kind=put("kind", kind), zone=put("zone", to),
        game=put("game", active), origin=put("origin", active),
        zone_player=put("zone_player", u.nobody), zone_deck=put("zone_deck", u.enum("deck", "none")),
        owner=put("owner", controller), controller=put("controller", controller),
        ctype=put("ctype", u.enum("ctype", "none")), own_deck=put("own_deck", u.enum("deck", "none")),
        commander=put("commander", self.false()), face_up=put("face_up", self.true()),
        phased_out=put("phased_out", self.false()), has_counters=put("has_counters", self.false()),
        watcher=put("watcher", watcher))


def a_counter(self: _Encoder, pre: SymState, active: Any) -> SymState:
    """122.1: counters on a player (kept per game, 728.4b) or on an object change."""
    u = self.u
    on_player = z3.Bool("on-player", u.ctx)
    who = u.const("player", "player")
    x = u.const("object", "obj")
    add = z3.Int("add", u.ctx)
    left = z3.Bool("counters-left", u.ctx)
    total = pre.get("counters", active, who) + add
    self.constraints += [
        z3.If(on_player, z3.And(pre.get("plays", active, who), total >= 0),
              _object_in_active(self, pre, x, active)),
        z3.Implies(z3.And(z3.Not(on_player), add > 0), left),
        z3.Implies(z3.And(z3.Not(on_player), z3.Not(pre.get("has_counters", x))),
                   left == (add > 0)),
    ]
    self.params.update(on_player=on_player, player=who, object=x, add=add, left=left)
    g = u.const("g", "game")
    p = u.const("p", "player")
    o = u.const("o", "obj")
    return self.next_state(
        pre, "counters (122.1)",
        counters=z3.Lambda([g, p], z3.If(z3.And(on_player, g == active, p == who), total,
                                         pre.get("counters", g, p))),
        has_counters=z3.Lambda([o], z3.If(z3.And(z3.Not(on_player), o == x), left,
                                          pre.get("has_counters", o))))


def a_phase(self: _Encoder, pre: SymState, active: Any) -> SymState:
    """702.26: a permanent phases out or in."""
    u = self.u
    x = u.const("object", "obj")
    out = z3.Bool("out", u.ctx)
    self.constraints += [_object_in_active(self, pre, x, active),
                         pre.get("zone", x) == self.z("battlefield")]
    self.params.update(object=x, out=out)
    o = u.const("o", "obj")
    return self.next_state(pre, "phasing (702.26)", phased_out=z3.Lambda(
        [o], z3.If(o == x, out, pre.get("phased_out", o))))


def a_turn(self: _Encoder, pre: SymState, active: Any) -> SymState:
    u = self.u
    x = u.const("object", "obj")
    up = z3.Bool("face-up", u.ctx)
    self.constraints.append(_object_in_active(self, pre, x, active))
    self.params.update(object=x, up=up)
    o = u.const("o", "obj")
    return self.next_state(pre, "turned", face_up=z3.Lambda(
        [o], z3.If(o == x, up, pre.get("face_up", o))))


def a_leave(self: _Encoder, pre: SymState, active: Any) -> SymState:
    """800.4a: a player leaves the active game; what they own leaves with them, the
    abilities they control cease, the other objects they control are exiled."""
    u = self.u
    who = u.const("player", "player")
    other = u.const("another", "player")
    self.constraints += [pre.get("plays", active, who), pre.get("plays", active, other),
                         other != who]
    self.params.update(player=who)
    o = u.const("o", "obj")
    here = z3.And(self.inside(pre, o), pre.get("game", o) == active)
    is_card = pre.get("kind", o) == u.enum("kind", "card")
    owned = z3.And(here, pre.get("owner", o) == who)
    to_outside = z3.And(owned, is_card)
    controlled = z3.And(here, z3.Not(owned), pre.get("controller", o) == who)
    ceases = z3.Or(z3.And(owned, z3.Not(is_card)), z3.And(controlled, z3.Not(is_card)))
    exiled = z3.And(controlled, is_card)
    moved = z3.Or(to_outside, exiled)
    self.forget(pre, o, z3.Or(moved, ceases), ceases)
    g = u.const("g", "game")
    p = u.const("p", "player")
    e = u.const("e", "obj")
    state = self.next_state(
        pre, "leave (800.4a)",
        plays=z3.Lambda([g, p], z3.If(z3.And(g == active, p == who), self.false(),
                                      pre.get("plays", g, p))),
        exists=z3.Lambda([o], z3.If(ceases, self.false(), pre.get("exists", o))),
        zone=z3.Lambda([o], z3.If(to_outside, self.z("outside"),
                                  z3.If(exiled, self.z("exile"), pre.get("zone", o)))),
        game=z3.Lambda([o], z3.If(to_outside, u.nogame, pre.get("game", o))),
        zone_player=z3.Lambda([o], z3.If(moved, u.nobody, pre.get("zone_player", o))),
        zone_deck=z3.Lambda([o], z3.If(moved, u.enum("deck", "none"), pre.get("zone_deck", o))),
        has_counters=z3.Lambda([o], z3.If(moved, self.false(), pre.get("has_counters", o))),
        phased_out=z3.Lambda([o], z3.If(moved, self.false(), pre.get("phased_out", o))),
        controller=z3.Lambda([o], z3.If(moved, pre.get("owner", o), pre.get("controller", o))),
        affects_player=z3.Lambda([e, p], z3.And(pre.get("affects_player", e, p), p != who)),
    )
    return state


# Each in-game action, by event name: a function of the encoder, the pre-state and the
# active game, returning the state after the action.
IN_GAME_ACTIONS: dict[str, Callable[[_Encoder, SymState, Any], SymState]] = {
    "move": a_move, "create": a_create, "counter": a_counter, "phase": a_phase,
    "turn": a_turn, "leave": a_leave,
}
