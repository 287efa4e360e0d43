"""The finite universe's quantifiers, built through z3's C API (`proofs.encoding.symbolic.Universe`),
are the very terms that z3's Python API builds: the same instances, in the same order,
joined by the same connective; and so are the connectives and quantifiers of every formula
the encoder makes (`symbolic.conjunction`, ..., `symbolic.quantifier`). z3 makes each term
once per context, so "the same" is `eq`, and a proof or model over them is the one the
Python API's terms would give."""

from __future__ import annotations

import itertools
import types
from typing import Any

import pytest
import z3
from shahrazad.invariants.catalog import CATALOG, EVENTS, structure_terms
from shahrazad.invariants.lang import ATTRIBUTES, pre
from shahrazad.proofs.encoding import symbolic
from shahrazad.proofs.encoding.encoder import pre_state
from shahrazad.proofs.encoding.symbolic import SymBinding, SymState, TermEncoder, Universe, add, check

# Each of the encoder's C-API connectives, and the Python API's call it stands for.
PYTHON_API = {
    "conjunction": lambda ctx, formulas: z3.And(*formulas),
    "disjunction": lambda ctx, formulas: z3.Or(*formulas),
    "negation": z3.Not,
    "implication": z3.Implies,
    "equation": lambda a, b: a == b,
    "quantifier": lambda universal, consts, body: (z3.ForAll if universal else z3.Exists)(
        consts, body),
}


def _by_python_api(universe: Universe, connective: Any) -> Any:
    """A `forall` (connective z3.And) or `exists` (z3.Or) of a bounded universe as z3's
    Python API builds it: one `z3.substitute` per combination of elements."""
    def quantifier(self: Universe, consts: list[Any], body: Any) -> Any:
        combos = itertools.product(*(self._elements_of(c) for c in consts))
        return connective(*(z3.substitute(body, *zip(consts, combo, strict=True))
                            for combo in combos))
    return types.MethodType(quantifier, universe)


@pytest.mark.parametrize("sorts", [("obj",), ("player", "game"), ("game", "obj", "player")])
def test_quantifiers_are_the_python_apis_terms(sorts: tuple[str, ...]) -> None:
    u = Universe(2)
    consts = [u.const(f"x{i}", sort) for i, sort in enumerate(sorts)]
    owner = z3.Function("owner", u.sorts["obj"], u.sorts["player"])
    playing = z3.Function("playing", u.sorts["game"], u.sorts["player"], z3.BoolSort(u.ctx))
    # A body that tells each variable apart from the others, so that a swapped or missing
    # substitution, or another order of the instances, makes another term.
    facts = []
    for c in consts:
        if c.sort() == u.sorts["obj"]:
            facts.append(owner(c) == u.nobody)
        elif c.sort() == u.sorts["player"]:
            facts.append(playing(u.nogame, c))
        else:
            facts.append(z3.Not(playing(c, u.nobody)))
    body = z3.Or(*facts) if len(facts) > 1 else facts[0]
    fast = u.forall(consts, body), u.exists(consts, body)
    slow = (_by_python_api(u, z3.And)(consts, body), _by_python_api(u, z3.Or)(consts, body))
    assert fast[0].eq(slow[0]) and fast[1].eq(slow[1])
    assert len(fast[0].children()) == 3 ** len(consts)  # bound 2: three elements of a sort


def test_the_structure_hypotheses_are_the_python_apis_terms() -> None:
    u = Universe(3)
    state = pre_state(u)
    encoder = TermEncoder(u, state, state,
                          SymBinding({}, {}, u.nobody, None, u.noobj, u.noobj, None))
    terms = structure_terms(pre)
    fast = [encoder.encode(t) for t in terms]
    u.forall, u.exists = _by_python_api(u, z3.And), _by_python_api(u, z3.Or)  # type: ignore[method-assign]
    slow = [encoder.encode(t) for t in terms]
    assert len(fast) == len(slow) > 0
    assert all(f.eq(s) for f, s in zip(fast, slow, strict=True))


@pytest.mark.parametrize("name", sorted(PYTHON_API))
def test_each_connective_is_the_python_apis_term(name: str) -> None:
    """Each connective, on formulas of its arity (one to three for a conjunction or a
    disjunction), is the term the Python API makes: the same z3 term, of the same Python
    class."""
    ctx = z3.Context()
    p, q, r = z3.Bools("p q r", ctx)
    x, y = z3.Ints("x y", ctx)
    cases: list[tuple[Any, ...]] = {
        "conjunction": [(ctx, [p]), (ctx, [p, q]), (ctx, [p, q, r])],
        "disjunction": [(ctx, [p]), (ctx, [p, q]), (ctx, [p, q, r])],
        "negation": [(p,), (x == y,)],
        "implication": [(p, q), (q, p)],
        "equation": [(x, y), (p, q), (y, x), (x, z3.IntVal(0, ctx)), (z3.IntVal(0, ctx), x)],
        "quantifier": [(True, [x], x == y), (False, [x, y], x == y), (True, [y], p)],
    }[name]
    for args in cases:
        fast, slow = getattr(symbolic, name)(*args), PYTHON_API[name](*args)
        assert fast.eq(slow), (name, args)
        assert type(fast) is type(slow), (name, args)


@pytest.mark.parametrize("bound", [None, 2])
def test_every_invariant_is_the_python_apis_formula(bound: int | None,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Every invariant of the catalog, encoded over an event's states (its first event),
    and every structure invariant over one state: the same formulas as when each connective
    is the Python API's. A connective the encoder makes in another way (another order of
    arguments, a missing negation) makes another term for some invariant."""
    from shahrazad.model.rulebook import official
    from shahrazad.proofs.encoding.encode import encode_event

    u = Universe(bound)
    encoders: dict[str, TermEncoder] = {}
    for event in sorted({inv.events[0] for inv in CATALOG if inv.events[0] in EVENTS}):
        t = encode_event(official(), event, u)
        encoders[event] = TermEncoder(u, t.pre, t.post, t.binding)
    state = pre_state(u)
    one_state = TermEncoder(u, state, state,
                            SymBinding({}, {}, u.nobody, None, u.noobj, u.noobj, None))
    terms = [(encoders[inv.events[0]], inv.term) for inv in CATALOG
             if inv.events[0] in EVENTS]
    terms += [(one_state, term) for term in structure_terms(pre)]
    fast = [encoder.encode(term) for encoder, term in terms]
    _python_api(monkeypatch)
    slow = [encoder.encode(term) for encoder, term in terms]
    assert len(fast) == len(slow) > 100
    assert all(f.eq(s) for f, s in zip(fast, slow, strict=True))


def _python_api(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every module of the encoder that makes formulas with the C-API connectives makes them
    with the Python API's calls instead."""
    from shahrazad.proofs.encoding import encode, encoder
    from shahrazad.proofs.solving import queries
    from shahrazad.proofs.verdicts import prove

    for module in (symbolic, encoder, encode, queries, prove):
        for name, call in PYTHON_API.items():
            if hasattr(module, name):
                monkeypatch.setattr(module, name, call)


@pytest.mark.parametrize("bound", [None, 2])
def test_every_transition_is_the_python_apis(bound: int | None,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Each event's transition under the official rules (every array of every state it
    goes through, and its constraints), encoded again in the same universe with the Python
    API's connectives (the universe's counters of fresh names set back): the same terms."""
    from shahrazad.model.rulebook import official
    from shahrazad.proofs.encoding.encode import encode_event

    def encoded(u: Universe, event: str) -> list[Any]:
        u.serial = u.made = 0
        t = encode_event(official(), event, u)
        return [*(array for _, state in t.states for array in state.arrays.values()),
                *t.post.arrays.values(), *t.constraints]

    for event in sorted(EVENTS):
        u = Universe(bound)
        fast = encoded(u, event)
        with monkeypatch.context() as patched:
            _python_api(patched)
            slow = encoded(u, event)
        assert len(fast) == len(slow) > 0, event
        assert all(f.eq(s) for f, s in zip(fast, slow, strict=True)), event


@pytest.mark.parametrize("bound", [None, 2])
def test_reading_an_attribute_is_z3_select(bound: int | None) -> None:
    """Each attribute of a state, read at constants of its argument sorts: the term of
    `z3.Select`, and a Python object of the same class (arithmetic on a count, `==` on a
    player, ...)."""
    u = Universe(bound)
    state = SymState.declare(u, "s")
    for attribute, (arg_sorts, _) in ATTRIBUTES.items():
        args = [u.const(f"{attribute}!{i}", sort) for i, sort in enumerate(arg_sorts)]
        fast, slow = state.get(attribute, *args), z3.Select(state.arrays[attribute], *args)
        assert fast.eq(slow), attribute
        assert type(fast) is type(slow), attribute


def test_the_state_after_an_event_reads_its_simplified_terms() -> None:
    """The state after an event as the prover's formulas read it (`Simplified`): each read
    of an array the event changed is z3's simplification of the plain read, made once and
    shared by every formula that makes the same read; a read at other arguments is its own.
    Each equals the plain `z3.Select` of the array the steps made, for every situation."""
    from shahrazad.model.rulebook import official
    from shahrazad.proofs.encoding.encode import encode_event
    from shahrazad.proofs.encoding.symbolic import Simplified

    u = Universe(None)
    t = encode_event(official(), "restart", u)
    post = Simplified([t.pre, *(state for _, state in t.states), t.post])
    solver = z3.Solver(ctx=u.ctx)
    changed = 0
    for attribute, (arg_sorts, _) in ATTRIBUTES.items():
        if t.post.arrays[attribute].eq(t.pre.arrays[attribute]):
            continue
        changed += 1
        for name in ("x", "y"):
            args = [u.const(f"{name}{i}", sort) for i, sort in enumerate(arg_sorts)]
            read = post.get(attribute, *args)
            assert read.eq(post.get(attribute, *args)), attribute  # made once, shared
            assert z3.simplify(read).eq(read), attribute  # simplified already
            plain = z3.Select(t.post.arrays[attribute], *args)
            assert solver.check(read != plain) == z3.unsat, (attribute, name)
    assert changed >= 10  # a restart changes most of the objects' attributes


def test_adding_and_checking_are_the_python_apis() -> None:
    """`add` and `check` (z3's C API, without the Python API's casts) assert what
    `Solver.add` asserts and answer what `Solver.check` answers, under the same assumptions:
    sat, unsat, and unsat only because of an assumption."""
    ctx = z3.Context()
    x, y = z3.Ints("x y", ctx)
    a, b = z3.Bools("a b", ctx)
    formulas = [z3.Implies(a, x > y), z3.Implies(b, y > x), x + y == z3.IntVal(3, ctx)]
    mine, theirs = z3.Solver(ctx=ctx), z3.Solver(ctx=ctx)
    add(mine, *formulas)
    theirs.add(*formulas)
    assert [f.sexpr() for f in mine.assertions()] == [f.sexpr() for f in theirs.assertions()]
    for assumed in ((), (a,), (b,), (a, b)):
        assert check(mine, *assumed) == str(theirs.check(*assumed))
    assert check(mine, a, b) == "unsat" and check(mine, a) == "sat"
    check(mine, a, b)
    assert {str(c) for c in mine.unsat_core()} == {"a", "b"}  # the assumptions were passed
