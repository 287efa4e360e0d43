"""One event's encoding under way: what every step of the z3 reading shares.

`Encoder` holds the states in order, the constraints and parameters, the game roles bound
so far and what the effects must forget; `pre_state` declares the state before an event.
The steps (`events`, `actions`, `game_steps`, `object_steps`) take an `Encoder` first;
`encode` drives them, clause by clause. Nothing here knows the steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import z3
from shahrazad.model.rulebook import Rulebook

from .symbolic import SymBinding, SymState, Universe, conjunction, equation


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


class Encoder:
    """One event's encoding under way: the states so far, the constraints and parameters,
    the game roles bound, and what the effects must forget once the event is over."""

    def __init__(self, rulebook: Rulebook, universe: Universe, event: str) -> None:
        self.rb = rulebook
        self.u = universe
        self.event = event
        self.constraints: list[Any] = []
        self.params: dict[str, Any] = {}
        self.roles: dict[str, Any] = {}
        self.bound: dict[str, Any] = {}  # role -> z3 Bool: is it bound (statically True mostly)
        self.count = 0
        self.states: list[tuple[str, SymState]] = []
        self.pre: SymState  # the state before the event, once `run` has declared it
        self.unsupported: list[str] = []
        self.fires: dict[str, list[Any]] = {}
        self.destroyed: set[str] = set()  # the roles whose games a destroy-zones step ended
        self.ended_a_game = False  # whether an end-game step came earlier in the event
        self.new_parents: list[Any] = []  # the parents of the games created so far
        nothing = z3.K(universe.sorts["obj"], z3.BoolVal(False, universe.ctx))
        self.touched: Any = nothing  # objects that moved or ceased (400.7)
        self.gone: Any = nothing  # effects that ceased
        # What exiled each touched object, once the event is over: nothing (a new object,
        # 400.7) unless the step that moved it records what exiled it (`settle`).
        self.exiled_by: Any = z3.K(universe.sorts["obj"], universe.noobj)

    # ---- helpers ------------------------------------------------------------------------

    def true(self) -> Any:
        """z3's true, in this universe's context."""
        return z3.BoolVal(True, self.u.ctx)

    def false(self) -> Any:
        """z3's false, in this universe's context."""
        return z3.BoolVal(False, self.u.ctx)

    def z(self, value: str) -> Any:
        """The z3 value of a kind of zone (`library`, ..., `deck`, `outside`)."""
        return self.u.enum("zone", value)

    def next_state(self, state: SymState, label: str, **changes: Any) -> SymState:
        """A new state: `state` with `changes` (attribute -> its new array), kept under `label`
        in the order of the event's states; in a bounded universe its library sizes are counted
        anew."""
        self.count += 1
        new = state.updated(f"s{self.count}", **changes)
        if self.u.bound is not None:
            new = new.updated(new.name, library_size=self.library_size(new))
        self.states.append((label, new))
        return new

    def library_size(self, s: SymState) -> Any:
        return library_size(self.u, s)

    def fresh_object(self, s: SymState, x: Any) -> Any:
        """`x` names no object yet: it does not exist and no game mentions it."""
        g = self.u.const("g!fresh", "game")
        return z3.And(x != self.u.noobj, z3.Not(s.get("exists", x)), self.u.forall([g], z3.And(
            z3.Not(s.get("waiting", g, x)), z3.Not(s.get("resolved", g, x)),
            s.get("began_in_deck", g, x) == self.u.enum("deck", "none"),
            s.get("came_from", g, x) == self.u.enum("came", "none"),
            z3.Or(z3.Not(s.get("has_creator", g)), s.get("created_by", g) != x))),
            self.no_effects(s, x), self.exiled_nothing(s, x))

    def exiled_nothing(self, s: SymState, x: Any) -> Any:
        """No card is recorded as exiled with `x`, and no object as a second place of `x`."""
        c = self.u.const("c!exiled", "obj")
        return self.u.forall([c], z3.And(s.get("exiled_with", c) != x,
                                         s.get("same_card", c) != x))

    def no_effects(self, s: SymState, x: Any) -> Any:
        """`x` takes part in no effect: no effect acts on it, it acts on no object and on no
        player."""
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
        """The state after the event with what effects act on brought up to date once (see
        `forget`): an effect that ceased acts on nothing, and nothing acts on an object that moved
        or ceased (400.7); an object that moved or ceased was exiled by nothing, unless the
        step that moved it says what exiled it (`exiled_by`, `_exiled_with`)."""
        u = self.u
        e = u.const("e!settle", "obj")
        o = u.const("o!settle", "obj")
        p = u.const("p!settle", "player")
        alive = z3.Not(z3.Select(self.gone, e))
        return s.updated(
            s.name,
            exiled_with=z3.Lambda([o], self._exiled_with(s, o)),
            affects=z3.Lambda([e, o], z3.And(s.get("affects", e, o), alive,
                                             z3.Not(z3.Select(self.touched, o)))),
            affects_player=z3.Lambda([e, p], z3.And(s.get("affects_player", e, p), alive)))

    def _exiled_with(self, s: SymState, o: Any) -> Any:
        """What exiled `o` after the event: for an object that moved, what the step that moved
        it says (nothing, mostly: a new object, 400.7); otherwise what exiled it before. The
        record stays when the object that exiled it moves: an ability of it on the stack still
        refers to the cards it exiled (112.7a, 607.2a)."""
        return z3.If(z3.Select(self.touched, o), z3.Select(self.exiled_by, o),
                     s.get("exiled_with", o))

    def inside(self, s: SymState, o: Any) -> Any:
        """`o` exists in a zone of some game, not outside the game (400.11)."""
        return z3.And(s.get("exists", o), s.get("zone", o) != self.z("outside"))

    def role(self, name: str) -> tuple[Any, Any] | None:
        """The role's game and the condition that it is bound, or None if never bound."""
        if name not in self.roles:
            return None
        return self.roles[name], self.bound[name]

    def bind(self, name: str, game: Any, condition: Any | None = None) -> None:
        """Bind a game role to `game`, bound where `condition` holds (always, by default)."""
        self.roles[name] = game
        self.bound[name] = condition if condition is not None else self.true()

    def game_of(self, name: str) -> Any:
        """The role's game, for a game step; a role no clause bound makes the event
        impossible (`Unbound`), and so does a role bound only in some situations (the main
        game of a restarted game that has one) in the others: the interpreter refuses a game
        step on a role the event did not bind (`model.game_steps._role`)."""
        r = self.role(name)
        if r is None:
            raise Unbound(name)
        game, condition = r
        if not z3.is_true(condition):
            self.constraints.append(condition)
        return game


def library_size(u: Universe, s: SymState) -> Any:
    """How many objects each player has in their library in each game of state `s`, as a
    function of (game, player): a sum over the universe's elements (its sentinel left out), so
    only in a bounded universe, for the seven-card rules (728.3, 726.3)."""
    g = u.const("g!ls", "game")
    p = u.const("p!ls", "player")
    library = u.enum("zone", "library")
    terms = [z3.If(conjunction(u.ctx, [s.get("exists", o), equation(s.get("zone", o), library),
                                       equation(s.get("game", o), g),
                                       equation(s.get("zone_player", o), p)]),
                   z3.IntVal(1, u.ctx), z3.IntVal(0, u.ctx))
             for o in u.elements["obj"][:-1]]
    return z3.Lambda([g, p], z3.Sum(*terms) if terms else z3.IntVal(0, u.ctx))


def pre_state(u: Universe) -> SymState:
    """The state before an event: an array per attribute (in a bounded universe, the sizes
    of libraries counted from the other arrays)."""
    pre = SymState.declare(u, "pre")
    if u.bound is not None:
        pre = pre.updated("pre", library_size=library_size(u, pre))
    return pre


class Unbound(Exception):
    """A step names a game role that no clause bound (see `Encoder.game_of`)."""

    def __init__(self, role: str) -> None:
        self.role = role
