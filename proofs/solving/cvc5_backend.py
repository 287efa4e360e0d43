"""A second solver: z3 formulas re-read as cvc5 terms, so that cvc5 can decide them too.

The encoding is built once, with z3 (`proofs.encoding.encode`, `proofs.encoding.symbolic`); this module walks
the z3 terms and builds the same formula with cvc5's API. The arrays of the symbolic
situations become functions, which cvc5 reasons about best:

* an array variable becomes an uninterpreted function of its indices;
* reading an array (`select`) applies it: a `store` becomes an if-then-else on the index,
  a constant array its value, a `lambda` its body with the indices put in;
* an equation between arrays becomes "equal at every index" (extensionality).

Uninterpreted sorts stay uninterpreted, so a cvc5 "unsat" holds for every number of
objects, players and games, as z3's does; the enumerations become datatypes. A term the
walker does not know raises `Untranslatable`, which the caller reports as unconfirmed,
never as confirmed.

Budgets are cvc5's deterministic resource count (`rlimit-per`), so that the same query gets
the same answer on every run, like z3's (`proofs.encoding.symbolic.budget`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from typing import Any

import cvc5
import z3
from cvc5 import Kind

# cvc5 resource units per second of `--timeout` (measured on the CI machine: a second's
# work is about this many units; the budget is counted, not timed).
RLIMIT_PER_SECOND = 200_000


# Array equations over at most this many indices of finite enumerations are spelled out.
SPELLED_OUT = 256


class Untranslatable(Exception):
    """A z3 term this walker has no cvc5 reading for."""


_OPS = {z3.Z3_OP_AND: Kind.AND, z3.Z3_OP_OR: Kind.OR, z3.Z3_OP_NOT: Kind.NOT,
             z3.Z3_OP_IMPLIES: Kind.IMPLIES, z3.Z3_OP_ITE: Kind.ITE,
             z3.Z3_OP_ADD: Kind.ADD, z3.Z3_OP_SUB: Kind.SUB, z3.Z3_OP_LE: Kind.LEQ,
             z3.Z3_OP_LT: Kind.LT, z3.Z3_OP_GE: Kind.GEQ, z3.Z3_OP_GT: Kind.GT}


class Translator:
    """z3 terms of one context, as cvc5 terms of one `TermManager`."""

    def __init__(self) -> None:
        self.tm = cvc5.TermManager()
        self._sorts: dict[int, tuple[Any, Any]] = {}
        # (name, sort ids) -> (cvc5 term, the z3 sorts, kept alive for their ids)
        self._symbols: dict[tuple[str, tuple[int, ...]], tuple[Any, Any]] = {}
        # Keyed by z3's term ids; each entry keeps its z3 term alive, since z3 gives the id
        # of a deleted term to the next new one.
        self._memo: dict[tuple[int, tuple[int, ...]], tuple[Any, Any]] = {}
        self._free: dict[int, tuple[int, Any]] = {}

    # ---- sorts --------------------------------------------------------------------------

    def sort(self, sort: Any) -> Any:
        """The cvc5 sort of a z3 sort; an array sort becomes a function sort."""
        key = sort.get_id()
        if key in self._sorts:
            return self._sorts[key][0]
        kind = sort.kind()
        if kind == z3.Z3_BOOL_SORT:
            made = self.tm.getBooleanSort()
        elif kind == z3.Z3_INT_SORT:
            made = self.tm.getIntegerSort()
        elif kind == z3.Z3_UNINTERPRETED_SORT:
            made = self.tm.mkUninterpretedSort(sort.name())
        elif kind == z3.Z3_DATATYPE_SORT:
            decl = self.tm.mkDatatypeDecl(sort.name())
            for i in range(sort.num_constructors()):
                if sort.constructor(i).arity():
                    raise Untranslatable(f"datatype {sort.name()} with fields")
                decl.addConstructor(self.tm.mkDatatypeConstructorDecl(sort.constructor(i).name()))
            made = self.tm.mkDatatypeSort(decl)
        elif kind == z3.Z3_ARRAY_SORT:
            made = self.tm.mkFunctionSort([self.sort(d) for d in _domains(sort)],
                                          self.sort(sort.range()))
        else:
            raise Untranslatable(f"sort {sort}")
        self._sorts[key] = made, sort
        return made

    # ---- terms --------------------------------------------------------------------------

    def term(self, e: Any, env: tuple[Any, ...] = ()) -> Any:
        """The cvc5 term of a z3 term whose de Bruijn variables are bound to `env` (the
        innermost binding last)."""
        free = self.free(e)
        used = env[len(env) - free:] if free else ()
        key = (e.get_id(), tuple(t.getId() for t in used))
        if key in self._memo:
            return self._memo[key][0]
        made = self._term(e, env)
        self._memo[key] = made, e
        return made

    def free(self, e: Any) -> int:
        """How many of the innermost bindings the z3 term `e` reads (1 + its largest free de
        Bruijn index; 0 for a closed term): the translation of `e` depends only on those,
        so it is made once for each of their values, not once per whole environment."""
        key = e.get_id()
        if key not in self._free:
            if z3.is_var(e):
                found = z3.get_var_index(e) + 1
            elif z3.is_quantifier(e):
                found = max(0, self.free(e.body()) - e.num_vars())
            else:
                found = max((self.free(c) for c in e.children()), default=0)
            self._free[key] = found, e
        return self._free[key][0]

    def _term(self, e: Any, env: tuple[Any, ...]) -> Any:
        tm = self.tm
        if z3.is_var(e):
            return env[len(env) - 1 - z3.get_var_index(e)]
        if z3.is_quantifier(e):
            if e.is_lambda():
                raise Untranslatable("a lambda outside an array read")
            variables = [tm.mkVar(self.sort(e.var_sort(i)), e.var_name(i))
                         for i in range(e.num_vars())]
            body = self.term(e.body(), env + tuple(variables))
            return tm.mkTerm(Kind.FORALL if e.is_forall() else Kind.EXISTS,
                             tm.mkTerm(Kind.VARIABLE_LIST, *variables), body)
        if z3.is_array(e):
            raise Untranslatable(f"an array outside a read or an equation: {e}")
        op = e.decl().kind()
        if op == z3.Z3_OP_TRUE:
            return tm.mkTrue()
        if op == z3.Z3_OP_FALSE:
            return tm.mkFalse()
        if op == z3.Z3_OP_ANUM:
            return tm.mkInteger(e.as_long())
        if op == z3.Z3_OP_DT_CONSTRUCTOR:
            datatype = self.sort(e.sort()).getDatatype()
            return tm.mkTerm(Kind.APPLY_CONSTRUCTOR,
                             datatype.getConstructor(e.decl().name()).getTerm())
        if op == z3.Z3_OP_UNINTERPRETED and e.num_args() == 0:
            return self.symbol(e.decl().name(), e.sort())
        if op == z3.Z3_OP_UNINTERPRETED:
            return tm.mkTerm(Kind.APPLY_UF, self.function(e.decl()),
                             *(self.term(a, env) for a in e.children()))
        if op == z3.Z3_OP_SELECT:
            return self.read(e.arg(0), [self.term(a, env) for a in e.children()[1:]], env)
        if op in (z3.Z3_OP_EQ, z3.Z3_OP_DISTINCT):
            args = e.children()
            if z3.is_array(args[0]):
                if op == z3.Z3_OP_DISTINCT and len(args) != 2:
                    raise Untranslatable("distinct arrays")
                same = self._extensional(args[0], args[1], env)
                return same if op == z3.Z3_OP_EQ else tm.mkTerm(Kind.NOT, same)
            return tm.mkTerm(Kind.EQUAL if op == z3.Z3_OP_EQ else Kind.DISTINCT,
                             *(self.term(a, env) for a in args))
        if op in (z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_ADD, z3.Z3_OP_DISTINCT) \
                and e.num_args() < 2:
            # z3 allows a conjunction, disjunction, sum or distinctness of one term (or none);
            # cvc5 does not.
            if op == z3.Z3_OP_DISTINCT:
                return tm.mkTrue()
            if e.num_args() == 1:
                return self.term(e.arg(0), env)
            if op == z3.Z3_OP_ADD:
                return tm.mkInteger(0)
            return tm.mkTrue() if op == z3.Z3_OP_AND else tm.mkFalse()
        if op in _OPS:
            return tm.mkTerm(_OPS[op], *(self.term(a, env) for a in e.children()))
        raise Untranslatable(f"operator {e.decl().name()}")

    def symbol(self, name: str, sort: Any) -> Any:
        """The one cvc5 constant (or function, for an array) of this name and sort (z3 keeps
        two constants of one name apart when their sorts differ; so does this)."""
        key = (name, (sort.get_id(),))
        if key not in self._symbols:
            self._symbols[key] = self.tm.mkConst(self.sort(sort), name), sort
        return self._symbols[key][0]

    def function(self, decl: Any) -> Any:
        """The one cvc5 function of this z3 function declaration (its name, domain and
        range)."""
        sorts = [decl.domain(i) for i in range(decl.arity())] + [decl.range()]
        key = (decl.name(), tuple(s.get_id() for s in sorts))
        if key not in self._symbols:
            sort = self.tm.mkFunctionSort([self.sort(s) for s in sorts[:-1]],
                                          self.sort(sorts[-1]))
            self._symbols[key] = self.tm.mkConst(sort, decl.name()), sorts
        return self._symbols[key][0]

    def read(self, array: Any, index: list[Any], env: tuple[Any, ...]) -> Any:
        """The cvc5 term of `array` read at `index` (cvc5 terms)."""
        tm = self.tm
        if z3.is_quantifier(array) and array.is_lambda():
            return self.term(array.body(), env + tuple(index))
        if z3.is_var(array):
            raise Untranslatable("a bound array variable")
        op = array.decl().kind()
        if op == z3.Z3_OP_UNINTERPRETED and array.num_args() == 0:
            return tm.mkTerm(Kind.APPLY_UF, self.symbol(array.decl().name(), array.sort()),
                             *index)
        if op == z3.Z3_OP_STORE:
            args = array.children()
            at = [self.term(a, env) for a in args[1:-1]]
            hit = tm.mkTerm(Kind.AND, *(tm.mkTerm(Kind.EQUAL, i, j)
                                        for i, j in zip(index, at, strict=True))) \
                if len(at) > 1 else tm.mkTerm(Kind.EQUAL, index[0], at[0])
            return tm.mkTerm(Kind.ITE, hit, self.term(args[-1], env),
                             self.read(args[0], index, env))
        if op == z3.Z3_OP_CONST_ARRAY:
            return self.term(array.arg(0), env)
        if op == z3.Z3_OP_ITE:
            return tm.mkTerm(Kind.ITE, self.term(array.arg(0), env),
                             self.read(array.arg(1), index, env),
                             self.read(array.arg(2), index, env))
        raise Untranslatable(f"an array made by {array.decl().name()}")

    def _extensional(self, a: Any, b: Any, env: tuple[Any, ...]) -> Any:
        """`a = b` for arrays: equal at every index. Over finite enumerations (a bounded
        universe) "every index" is spelled out, index by index; otherwise it is a `forall`."""
        tm = self.tm
        domains = _domains(a.sort())
        if all(d.kind() == z3.Z3_DATATYPE_SORT for d in domains):
            values = [[self.term(d.constructor(i)()) for i in range(d.num_constructors())]
                      for d in domains]
            if math.prod(len(v) for v in values) <= SPELLED_OUT:
                return tm.mkTerm(Kind.AND, tm.mkTrue(), *(
                    tm.mkTerm(Kind.EQUAL, self.read(a, list(index), env),
                              self.read(b, list(index), env))
                    for index in itertools.product(*values)))
        variables = [tm.mkVar(self.sort(d), f"i{n}") for n, d in enumerate(_domains(a.sort()))]
        return tm.mkTerm(Kind.FORALL, tm.mkTerm(Kind.VARIABLE_LIST, *variables),
                         tm.mkTerm(Kind.EQUAL, self.read(a, variables, env),
                                   self.read(b, variables, env)))


def _domains(sort: Any) -> list[Any]:
    arity = z3.Z3_get_array_arity(sort.ctx.ref(), sort.ast)
    return [sort.domain_n(i) for i in range(arity)]


def check(translator: Translator, assertions: Iterable[Any], seconds: float) -> tuple[str, str]:
    """Whether cvc5 finds the z3 `assertions` satisfiable: ("sat" | "unsat" | "unknown",
    the reason when unknown), within a budget worth `seconds`."""
    solver = cvc5.Solver(translator.tm)
    solver.setLogic("ALL")
    solver.setOption("rlimit-per", str(max(1, int(seconds * RLIMIT_PER_SECOND))))
    # Instantiate quantifiers exhaustively when the cheaper strategies give up: without it
    # cvc5 answers "incomplete" on the bring-in queries that z3 proves.
    solver.setOption("full-saturate-quant", "true")
    try:
        for assertion in assertions:
            solver.assertFormula(translator.term(assertion))
    except Untranslatable as err:
        return "unknown", f"cvc5 cannot be given this query: {err}"
    except RuntimeError as err:  # cvc5 refused a term: the query is not confirmed
        return "unknown", f"cvc5 cannot be given this query: {err}"
    try:
        result = solver.checkSat()
    except RuntimeError as err:
        return "unknown", f"cvc5 failed: {err}"
    if result.isUnsat():
        return "unsat", ""
    if result.isSat():
        return "sat", ""
    return "unknown", f"cvc5: {result.getUnknownExplanation()}"
