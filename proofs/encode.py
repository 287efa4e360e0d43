"""The rulebook's steps read as z3 transition relations: the encoder's core.

`encode_event(rulebook, event, universe)` gives the symbolic transition of one event: a
pre-state, the event's parameters and preconditions (the same checks the interpreter
makes), then each step of each clause acting on that event, in rulebook order, as a
functional update of the state arrays, and the resulting post-state. Every step reads as
in `model.interpreter`; `proofs.agreement` checks the two readings against each other on
every small situation (run by `tests/test_proofs.py`).

This module holds what every step shares: `Encoder`, the bookkeeping of one event's
encoding (the states in order, constraints, parameters, the game roles bound so far, what
effects must forget), and its driver (`Encoder.run`, `Encoder.run_step`). The steps
themselves are cut along the rules' own seams: `events` (the rule-defined events'
parameters and preconditions), `actions` (the in-game actions), `object_steps` (steps
that select objects) and `game_steps` (steps on games, players and permissions). Their
functions take the encoder first; the encoder reaches them through the tables
`RULE_EVENTS`, `IN_GAME_ACTIONS` and `GAME_STEPS`. They import `Encoder` for type
checking only, so this module imports them without a cycle.

Order within zones (shuffles, top and bottom) is not part of the symbolic state: no
invariant speaks of it. Library sizes are: they are counted only in bounded universes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import z3
from shahrazad.model.language import Clause, Step, games_acted_on
from shahrazad.model.rulebook import Rulebook

from .actions import IN_GAME_ACTIONS
from .events import RULE_EVENTS
from .game_steps import GAME_STEPS
from .object_steps import firing, object_step
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
        impossible (`_Unbound`), and so does a role bound only in some situations (the main
        game of a restarted game that has one) in the others: the interpreter refuses a game
        step on a role the event did not bind (`model.game_steps._role`)."""
        r = self.role(name)
        if r is None:
            raise _Unbound(name)
        game, condition = r
        if not z3.is_true(condition):
            self.constraints.append(condition)
        return game

    # ---- one event, clause by clause ----------------------------------------------------

    def run(self) -> Transition:
        """Encode the event: declare the pre-state and its active, live game, the event's
        parameters and preconditions (`RULE_EVENTS`, `IN_GAME_ACTIONS`), then every step of every
        clause on the event in rulebook order, and settle the effects into the post-state."""
        u = self.u
        self.pre = pre = pre_state(u)
        active = u.const("active", "game")
        self.constraints += [pre.get("active", active), pre.get("live", active)]
        self.bind("active", active)
        if self.event in IN_GAME_ACTIONS:
            state = IN_GAME_ACTIONS[self.event](self, pre, active)
        else:
            state = RULE_EVENTS[self.event](self, pre, active)
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
        """Encode one step of a clause, after noting when it fires (`fires`). A game step on a
        game whose zones an earlier step of the event destroyed does nothing once that game is
        gone; a step that names a game role no clause bound leaves no transition at all (the
        interpreter refuses the event), and says so in `unsupported`."""
        try:
            self.fires.setdefault(clause.name, []).append(firing(self, s, step))
            if step.select is not None:
                return object_step(self, s, step, label)
            after = GAME_STEPS[step.action](self, s, step.args, label)
            if step.action == "destroy-zones":
                self.destroyed.add(step.args["_"])
            if step.action == "end-game":
                self.ended_a_game = True
            gone = [role for role in games_acted_on(step) if role in self.destroyed]
            if not gone:
                return after
            # A game whose zones ceased earlier in the event is gone: the step does nothing.
            present = z3.And(*(s.get("present", self.game_of(role)) for role in gone))
            return after.updated(after.name, **{
                a: z3.If(present, after.arrays[a], s.arrays[a])
                for a in after.arrays if after.arrays[a] is not s.arrays.get(a)})
        except _Unbound as err:
            # The interpreter refuses the event (IllegalEvent): no transition exists.
            self.constraints.append(self.false())
            self.unsupported.append(f"{label}: refers to the {err.role} game, which no clause "
                                    "created")
            return s


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


class _Unbound(Exception):
    """A step names a game role that no clause bound (see `Encoder.game_of`)."""

    def __init__(self, role: str) -> None:
        self.role = role


def encode_event(rulebook: Rulebook, event: str, universe: Universe) -> Transition:
    """The symbolic transition of `event` under `rulebook`."""
    return Encoder(rulebook, universe, event).run()

