"""Symbolic situations for z3: the same attributes as the concrete model, as z3 arrays.

Objects, players and games are uninterpreted sorts, so a formula that is unsatisfiable
here is unsatisfiable for every number of cards, players and nested games. The finite
sorts of the model (zone kinds, object kinds, card types, decks, results) are enumerations.
`NOBODY`, `NOGAME` and `NOOBJ` are the sentinels of the concrete reading: the player of a
shared zone, the game of a card outside the game, the creator of the outermost game.

`Universe(bound=None)` is unbounded. `Universe(bound=n)` makes the three sorts finite (n
objects, n players, n games) for the few obligations that count (libraries of fewer than
seven cards): those results are bounded and say so.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import z3
from shahrazad.invariants.lang import ATTRIBUTES, ENUMS, Term
from z3 import z3core

# A solver's budget is work, not time: z3's resource count (`rlimit`) is the same on every
# run of the same query, where a wall-clock timeout depends on the machine's load, and an
# answer that depends on the load is not the same every time. A second of `--timeout` buys
# RLIMIT_PER_SECOND units (about a second's work on the CI machine under load; the median
# measured is 10 million); the wall clock only guards against a solver that does not count
# its work, at WALL_CLOCK_GUARD times the budget's seconds. Some queries count only a few
# hundred thousand units a second, and the census of three runs at once on two cores
# tripped a guard of 10x on one of them (`structure.subgame-decks-marked @ restart` under
# the restart amendments): 60x keeps the answer the budget's. And never less than
# WALL_CLOCK_FLOOR seconds: the prover's first attempts have budgets of a few thousandths of
# a second (`proofs.solving.queries.LADDER`), whose 60x (0.24 s) a query of a slow-counting kind can
# pass on a busy machine, where a process waits its turn for a core.
RLIMIT_PER_SECOND = 10_000_000
WALL_CLOCK_GUARD = 60
WALL_CLOCK_FLOOR = 10.0


def budget(solver: z3.Solver, seconds: float) -> None:
    """Give `solver` a deterministic budget worth `seconds` of work (see RLIMIT_PER_SECOND)."""
    solver.set("rlimit", max(1, int(seconds * RLIMIT_PER_SECOND)))
    solver.set(timeout=int(max(WALL_CLOCK_FLOOR, seconds * WALL_CLOCK_GUARD) * 1000))


def add(solver: z3.Solver, *formulas: Any) -> None:
    """`solver.add(*formulas)` for Boolean z3 formulas, made by z3's C API directly:
    `Solver.add` checks each formula's sort in Python, and the prover adds some 7,000 of them
    in a verification, each hypothesis again in every new incremental solver."""
    ctx, handle = solver.ctx.ref(), solver.solver
    for formula in formulas:
        z3core.Z3_solver_assert(ctx, handle, formula.as_ast())


# The connectives of formulas, made by z3's C API directly: `z3.And`, `z3.Or`, `z3.Not`,
# `z3.Implies`, `==` and `z3.ForAll` find the context and cast each argument to its sort in
# Python (the sorts of every argument of a conjunction, each a new Python object), which was
# about half of the time the prover spent building its goals. The terms are the very ones
# the Python API makes, each made once per context (`tests/test_symbolic.py` compares them
# over the whole catalog and every transition, and `tools/terms.py` every term the prover
# builds with those of an earlier commit); the arguments must already be formulas (or, for
# `equation`, terms of one sort), as the encoder's always are.

def conjunction(ctx: z3.Context, formulas: list[Any]) -> Any:
    """`z3.And(*formulas)` (of at least one formula)."""
    count = len(formulas)
    return z3.BoolRef(z3core.Z3_mk_and(ctx.ref(), count,
                                       (z3.Ast * count)(*(f.as_ast() for f in formulas))), ctx)


def disjunction(ctx: z3.Context, formulas: list[Any]) -> Any:
    """`z3.Or(*formulas)` (of at least one formula)."""
    count = len(formulas)
    return z3.BoolRef(z3core.Z3_mk_or(ctx.ref(), count,
                                      (z3.Ast * count)(*(f.as_ast() for f in formulas))), ctx)


def negation(formula: Any) -> Any:
    """`z3.Not(formula)`."""
    ctx = formula.ctx
    return z3.BoolRef(z3core.Z3_mk_not(ctx.ref(), formula.as_ast()), ctx)


def implication(a: Any, b: Any) -> Any:
    """`z3.Implies(a, b)`."""
    ctx = a.ctx
    return z3.BoolRef(z3core.Z3_mk_implies(ctx.ref(), a.as_ast(), b.as_ast()), ctx)


def equation(a: Any, b: Any) -> Any:
    """`a == b`, for two terms of one sort. As Python evaluates `a == b`: where `b`'s class
    is a subclass of `a`'s (a number, `IntNumRef`, beside a count, `ArithRef`), `b`'s own
    `__eq__` comes first, and the term is `b == a`."""
    if type(b) is not type(a) and isinstance(b, type(a)):
        a, b = b, a
    ctx = a.ctx
    return z3.BoolRef(z3core.Z3_mk_eq(ctx.ref(), a.as_ast(), b.as_ast()), ctx)


def quantifier(universal: bool, consts: list[Any], body: Any) -> Any:
    """`z3.ForAll(consts, body)` (`universal`) or `z3.Exists(consts, body)`, of at least one
    constant (as the Python API asks): weight 1, no name, no patterns."""
    ctx, count = body.ctx, len(consts)
    nameless = z3core.Z3_mk_string_symbol(ctx.ref(), "")
    made = z3core.Z3_mk_quantifier_const_ex(
        ctx.ref(), universal, 1, nameless, nameless, count,
        (z3.Ast * count)(*(c.as_ast() for c in consts)), 0, (z3.Pattern * 0)(), 0,
        (z3.Ast * 0)(), body.as_ast())
    return z3.QuantifierRef(made, ctx)


def check(solver: z3.Solver, *assumptions: Any) -> str:
    """`str(solver.check(*assumptions))` for Boolean assumptions, by z3's C API directly:
    `Solver.check` casts each assumption in Python, and an incremental query assumes up to
    63 switches, some 10,000 casts in a verification."""
    made = (z3.Ast * len(assumptions))(*(a.as_ast() for a in assumptions))
    return str(z3.CheckSatResult(z3core.Z3_solver_check_assumptions(
        solver.ctx.ref(), solver.solver, len(assumptions), made)))


# The tactics a fresh solver of a finite universe applies before its SMT core (`solver_for`).
FINITE_TACTICS = ("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "simplify", "smt")
# For a query of an invariant that counts cards (the seven-card rules: sums of 0 or 1 over
# the universe's objects, `encode.library_size`), the same, and then z3's rewriting of such
# sums into cardinality constraints and one more simplification (`solver_for`). The official
# rules' `restart.short-library-loses` in its universe of 8: 0.73 against 1.88 million units
# under the relevant hypotheses (`start.short-library-loses`: 0.22 against 0.20). Only for
# those: under every other query the models z3 finds change (12 of the 25 example
# amendments' reports had other counterexamples, 2026-12-02).
COUNTING_TACTICS = FINITE_TACTICS[:-1] + ("lia2card", "simplify", "smt")


def solver_for(universe: Universe, counts: bool = False) -> z3.Solver:
    """A fresh solver for one query of `universe`. In a finite universe, every quantifier
    expanded into its instances, the query is a large quantifier-free formula over arrays,
    enumerations and integers; there z3's simplifier, value propagation, equation solving and
    the elimination of unconstrained terms (FINITE_TACTICS), each with a model converter,
    come before its SMT core. z3's default solver does not choose them for such a query,
    and searched up to ten times longer: a model breaking `restart.owners` under
    `2011-713.2-controller-takes-ownership`, 5.5 million units of z3's work against 0.4
    million; the official rules' `restart.short-library-loses`, in a universe of 8, 6.7
    million against 2.8 million (issue 9). An unbounded universe's
    queries keep the default solver (no clear gain there). A query that `counts` cards gets
    COUNTING_TACTICS."""
    if universe.bound is None:
        return z3.Solver(ctx=universe.ctx)
    tactics = COUNTING_TACTICS if counts else FINITE_TACTICS
    return z3.Then(*(z3.Tactic(name, ctx=universe.ctx) for name in tactics)).solver()


def work_done(ctx: z3.Context) -> int:
    """The work z3 has done in the context so far, in resource units (`budget`): the same
    on every run, so that a budget charged with it keeps an answer deterministic where the
    time the work took would not."""
    probe = z3.Solver(ctx=ctx)
    probe.check()
    statistics = probe.statistics()
    return int(statistics.get_key_value("rlimit count")) if "rlimit count" in \
        statistics.keys() else 0


SORT_OF_DOMAIN = ("obj", "player", "game")


class Universe:
    """The sorts and constants shared by every state of one proof obligation."""

    def __init__(self, bound: int | None = None, ctx: z3.Context | None = None):
        self.ctx = ctx or z3.Context()
        self.bound = bound
        self.sorts: dict[str, Any] = {}
        self.values: dict[str, dict[str, Any]] = {}
        self.elements: dict[str, list[Any]] = {}
        for name in SORT_OF_DOMAIN:
            title = name.capitalize()
            if bound is None:
                self.sorts[name] = z3.DeclareSort(title, self.ctx)
            else:
                sort, items = z3.EnumSort(title, [f"{name}{i}" for i in range(bound + 1)],
                                          ctx=self.ctx)
                self.sorts[name] = sort
                self.elements[name] = list(items)
        for name, values in ENUMS.items():
            sort, consts = z3.EnumSort(name.capitalize() + "Kind", list(values), ctx=self.ctx)
            self.sorts[name] = sort
            self.values[name] = dict(zip(values, consts, strict=True))
        self.sorts["bool"] = z3.BoolSort(self.ctx)
        self.sorts["int"] = z3.IntSort(self.ctx)
        if bound is None:
            self.nobody = z3.Const("NOBODY", self.sorts["player"])
            self.nogame = z3.Const("NOGAME", self.sorts["game"])
            self.noobj = z3.Const("NOOBJ", self.sorts["obj"])
        else:
            self.nobody = self.elements["player"][-1]
            self.nogame = self.elements["game"][-1]
            self.noobj = self.elements["obj"][-1]
        self.serial = 0
        self.made = 0

    def _elements_of(self, const: Any) -> list[Any]:
        for name in SORT_OF_DOMAIN:
            if const.sort() == self.sorts[name]:
                return self.elements[name]
        raise ValueError(f"cannot expand a quantifier over {const.sort()}")

    def forall(self, consts: list[Any], body: Any) -> Any:
        """A universal: a z3 quantifier, or in a finite universe the conjunction of its
        instances (so that the solver is complete there)."""
        if self.bound is None:
            return quantifier(True, consts, body)
        return conjunction(self.ctx, self._instances(consts, body))

    def exists(self, consts: list[Any], body: Any) -> Any:
        if self.bound is None:
            return quantifier(False, consts, body)
        return disjunction(self.ctx, self._instances(consts, body))

    # In a finite universe a quantifier becomes one instance of its body per combination of
    # elements (9 x 9 x 9 for three variables at the seven-card rules' bound of 8), each
    # made by z3's C API directly: `z3.substitute` and `z3.And` check the sorts of every
    # pair and argument in Python, which made the structure hypotheses of that universe
    # take 0.48 s to build instead of 0.15 s. The terms are the same ones, z3 making each
    # term once per context (`tests/test_symbolic.py` compares them).

    def _instances(self, consts: list[Any], body: Any) -> list[Any]:
        """The instances of a Boolean `body` over every combination of elements of the
        sorts of `consts`, in the order of `itertools.product`."""
        count, ref, template = len(consts), self.ctx.ref(), body.as_ast()
        variables = (z3.Ast * count)(*(c.as_ast() for c in consts))
        return [z3.BoolRef(z3core.Z3_substitute(ref, template, count, variables,
                                                (z3.Ast * count)(*(e.as_ast() for e in combo))),
                           self.ctx)
                for combo in itertools.product(*(self._elements_of(c) for c in consts))]

    def const(self, name: str, sort: str) -> Any:
        return z3.Const(name, self.sorts[sort])

    def fresh(self, prefix: str, sort: str) -> Any:
        self.serial += 1
        return z3.Const(f"{prefix}!{self.serial}", self.sorts[sort])

    def maker(self, prefix: str, *domain: Any) -> Any:
        """A function for what a step makes (`proofs.encoding.object_steps.copy`), named by a count
        kept apart from `serial`: two rulebooks' transitions in one universe share the names of
        their random choices, given by `serial` (`proofs.analyses.difference`), and a step that only
        one of them has must not shift those; the k-th such function of each transition is
        shared, as their k-th random choices are."""
        self.made += 1
        return z3.Function(f"{prefix}!made{self.made}", *domain)

    def enum(self, sort: str, value: str) -> Any:
        return self.values[sort][value]

    def sentinel(self, sort: str) -> Any:
        return {"player": self.nobody, "game": self.nogame, "obj": self.noobj}[sort]

    def domain(self, sort: str) -> Any:
        if sort == "bool":
            return z3.BoolVal(True, self.ctx).sort()
        return self.sorts[sort]


@dataclass
class SymState:
    """One symbolic situation: an array per attribute of `invariants.lang.ATTRIBUTES`."""

    name: str
    arrays: dict[str, Any]

    @staticmethod
    def declare(universe: Universe, name: str) -> SymState:
        arrays: dict[str, Any] = {}
        for attribute, (arg_sorts, sort) in ATTRIBUTES.items():
            domains = [universe.sorts[a] for a in arg_sorts]
            arrays[attribute] = z3.Array(f"{name}.{attribute}", *domains, universe.sorts[sort])
        return SymState(name, arrays)

    def get(self, attribute: str, *args: Any) -> Any:
        """The attribute's value at `args` (z3 terms of its argument sorts): the term
        `z3.Select` makes, made by z3's C API directly. Every formula reads the state
        through here, and `z3.Select` checks each argument's sort in Python: 15-25% of the
        time the encoder takes (`tests/test_symbolic.py` compares the terms)."""
        array = self.arrays[attribute]
        ctx, count = array.ctx, len(args)
        if count == 1:
            made = z3core.Z3_mk_select(ctx.ref(), array.as_ast(), args[0].as_ast())
        else:
            made = z3core.Z3_mk_select_n(ctx.ref(), array.as_ast(), count,
                                         (z3.Ast * count)(*(a.as_ast() for a in args)))
        return z3.z3._to_expr_ref(made, ctx)

    def updated(self, name: str, **changes: Any) -> SymState:
        arrays = dict(self.arrays)
        arrays.update(changes)
        return SymState(name, arrays)


class Simplified(SymState):
    """The state after an event as formulas read it: each of its arrays that two or more of
    the event's steps updated (a chain of stores and lambdas over the state before)
    simplified by z3 once, the first time a formula reads it; and each read of an array the
    event changed (an attribute at some arguments) simplified by z3 once, the first time a
    formula makes it, and that simplified term given to every formula that reads the same.

    A formula asserted in a solver is simplified as it is asserted, the arrays it reads
    included, and that work is done again for every formula: on the official rules' three
    big events, asserting the goals took about 1.7 s of 8 before their arrays were simplified
    once, 0.2 s after. An array one step updated is left as it is: simplified, it made some
    goals of the one-step events harder for the solver, costing more than it saved (issue 9).

    The reads: one object's attribute after a restart simplifies to a term of some 500
    nodes (where the object came from, step by step), and z3 spent 3-9 ms on each such read
    of each goal as it asserted it, 3 times as long where an amendment adds a step
    (`2011-713.2-controller-takes-ownership`: 0.46 s of asserting in two of restart's three
    batches, 0.02 s with the reads simplified once; simplifying a simplified term again is
    some 60 times cheaper). Formulas share reads because the encoder names a quantified
    variable by the invariant's own name for it (`TermEncoder`), and a read is kept with its
    arguments, so that their z3 ids, which key it, are never reused for another term.

    The arrays and reads are equal to what they replace: every formula means what it did."""

    def __init__(self, states: list[SymState]) -> None:
        """`states`: the state before the event, after each of its steps, and after it (the
        one read, the last)."""
        super().__init__(states[-1].name, dict(states[-1].arrays))
        self._states = states
        self._changed: dict[str, bool] = {}  # attribute -> did the event change its array
        # (attribute, the arguments' z3 ids) -> the simplified read, and the arguments
        self._reads: dict[tuple[object, ...], tuple[Any, tuple[Any, ...]]] = {}

    def get(self, attribute: str, *args: Any) -> Any:
        changed = self._changed.get(attribute)
        if changed is None:
            versions = [s.arrays[attribute] for s in self._states]
            updates = sum(not a.eq(b) for a, b in itertools.pairwise(versions))
            if updates > 1:
                self.arrays[attribute] = z3.simplify(self.arrays[attribute])
            changed = self._changed[attribute] = updates > 0
        if not changed:
            return super().get(attribute, *args)
        key = (attribute, *(a.get_id() for a in args))
        kept = self._reads.get(key)
        if kept is None:
            kept = self._reads[key] = (z3.simplify(super().get(attribute, *args)), args)
        return kept[0]


@dataclass
class SymBinding:
    """The symbolic counterpart of `invariants.concrete.Binding`."""

    roles: dict[str, Any]
    has_roles: dict[str, Any]
    controller: Any
    exempt: Any  # array Obj -> Bool
    creator: Any
    card: Any
    then_battlefield: Any


class TermEncoder:
    """Turns invariant terms into z3 formulas over (pre, post, binding)."""

    def __init__(self, universe: Universe, pre: SymState, post: SymState, binding: SymBinding):
        self.u = universe
        self.states = {"pre": pre, "post": post}
        self.binding = binding

    def encode(self, term: Term, env: dict[str, Any] | None = None) -> Any:
        env = env or {}
        op, args = term.op, term.args
        u = self.u
        if op == "var":
            return env[args[0]]
        if op == "const":
            return u.enum(args[0], args[1])
        if op == "int":
            return z3.IntVal(args[0], u.ctx)
        if op == "bool":
            return z3.BoolVal(args[0], u.ctx)
        if op == "role":
            return self.binding.roles.get(args[0], u.nogame)
        if op == "has_role":
            return self.binding.has_roles.get(args[0], z3.BoolVal(False, u.ctx))
        if op == "event_controller":
            return self.binding.controller
        if op == "creator":
            return self.binding.creator
        if op == "nobody":
            return u.nobody
        if op == "nogame":
            return u.nogame
        if op == "noobj":
            return u.noobj
        if op == "brought":
            return self.binding.card
        if op == "then_battlefield":
            return self.binding.then_battlefield
        if op == "exempt":
            return z3.Select(self.binding.exempt, self.encode(args[0], env))
        if op == "attr":
            state = self.states[args[0]]
            return state.get(args[1], *(self.encode(a, env) for a in args[2]))
        if op == "eq":
            return equation(self.encode(args[0], env), self.encode(args[1], env))
        if op == "not":
            return negation(self.encode(args[0], env))
        if op == "and":
            return conjunction(u.ctx, [self.encode(a, env) for a in args]) if args else \
                z3.BoolVal(True, u.ctx)
        if op == "or":
            return disjunction(u.ctx, [self.encode(a, env) for a in args]) if args else \
                z3.BoolVal(False, u.ctx)
        if op == "implies":
            return implication(self.encode(args[0], env), self.encode(args[1], env))
        if op == "add":
            return self.encode(args[0], env) + self.encode(args[1], env)
        if op == "le":
            return self.encode(args[0], env) <= self.encode(args[1], env)
        if op == "lt":
            return self.encode(args[0], env) < self.encode(args[1], env)
        if op in ("forall", "exists"):
            variables, body = args
            consts = [u.const(v.args[0], v.args[1]) for v in variables]
            inner = dict(env)
            inner.update({v.args[0]: c for v, c in zip(variables, consts, strict=True)})
            encoded = self.encode(body, inner)
            return u.forall(consts, encoded) if op == "forall" else u.exists(consts, encoded)
        raise ValueError(f"unknown term {op}")
