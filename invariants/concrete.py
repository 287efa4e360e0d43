"""The concrete reading of invariant terms: evaluate them on two explicit situations.

`Binding` says which games the event bound to which roles, and the event's parameters
(its controller, the exempt cards, the creating object). Quantifiers range over every
object, player and game that appears in either situation. Absent values (the game of an
object outside the game, the parent of the outermost game) are the sentinels `NOBODY` and
`NOGAME`, which the SMT reading also has, so that both readings agree.

A term is read many times: once per binding of the quantifiers around it, and a structure
invariant is read on every situation the reader loads. So each term is turned once into a
`Reader`, a Python function of the evaluator and the environment that does what the term
says without looking at its operator again (cached per term and per set of bound names).
An evaluator reads each attribute of its situations once: an object attribute for every
object at its first use (a column), a game attribute for each game at its first use. The
situations must not change while an evaluator reads them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, TypeAlias, TypeVar

from shahrazad.model.objects import DECK_OF, GameObject, ZoneRef
from shahrazad.model.state import Situation

from .lang import Term

NOBODY = "<nobody>"
NOGAME = "<no game>"
NOOBJ = "<no object>"


@dataclass(frozen=True)
class Binding:
    """What an event bound: role -> game id, and its parameters."""

    roles: dict[str, str] = field(default_factory=dict)
    controller: str | None = None
    exempt: frozenset[str] = frozenset()
    creator: str | None = None
    card: str | None = None
    then_battlefield: bool = False


# ---- the attributes of a situation, cell by cell ------------------------------------------

# The attributes of an object that is somewhere, read from its record or from its zone.
_OF_RECORD: dict[str, Callable[[GameObject], Any]] = {
    "owner": attrgetter("owner"),
    "controller": lambda item: item.controller or item.owner,
    "kind": attrgetter("kind"),
    "ctype": lambda item: item.card_type if item.is_card else "none",
    "own_deck": lambda item: (item.deck or DECK_OF.get(item.card_type) or "none")
    if item.is_card else "none",
    "commander": attrgetter("commander"),
    "face_up": attrgetter("face_up"),
    "phased_out": attrgetter("phased_out"),
    "origin": lambda item: item.game_of_origin or NOGAME,
    "permanent_card": attrgetter("permanent_card"),
    "aura": attrgetter("aura"),
    "exiled_with": lambda item: item.exiled_with or NOOBJ,
    "same_card": lambda item: item.same_card or NOOBJ,
    "has_counters": lambda item: bool(item.counters),
    "watcher": lambda item: "leaves-zone" in item.triggers,
}
_OF_ZONE: dict[str, Callable[[ZoneRef], Any]] = {
    "zone": attrgetter("kind"),
    "game": lambda where: where.game if where.game is not None else NOGAME,
    "zone_player": lambda where: (
        where.player if where.player is not None and not where.is_outside else NOBODY),
    "zone_deck": lambda where: where.deck or "none",
}
_OBJECT_ATTRIBUTES = frozenset(("exists", *_OF_RECORD, *_OF_ZONE))


def _object_value(state: Situation, attribute: str, o: str) -> Any:
    """One object's attribute in `state`; an object that is not there, or is nowhere, has
    the attribute's absent value."""
    item = state.objects.get(o)
    where = state.where.get(o)
    if attribute == "exists":
        return item is not None
    if item is None or where is None:
        return _absent(attribute)
    if attribute in _OF_ZONE:
        return _OF_ZONE[attribute](where)
    return _OF_RECORD[attribute](item)


def _affects(state: Situation, attribute: str, effect: str, target: str) -> bool:
    if attribute == "affects":
        item = state.objects.get(target)
        return item is not None and effect in item.affected_by
    return effect in state.player_effects.get(target, [])


def _absent(attribute: str) -> Any:
    return {"zone": "outside", "game": NOGAME, "zone_player": NOBODY, "zone_deck": "none",
            "owner": NOBODY, "controller": NOBODY, "kind": "card", "ctype": "none",
            "own_deck": "none", "origin": NOGAME, "exiled_with": NOOBJ,
            "same_card": NOOBJ}.get(attribute, False)


def _game_value(state: Situation, attribute: str, g: str, extra: str | None) -> Any:
    game = state.games.get(g)
    live = game is not None and game.status != "ended"
    if attribute == "present":
        return game is not None
    if attribute == "live":
        return live
    if attribute == "active":
        return game is not None and game.status == "active"
    if attribute == "suspended":
        return game is not None and game.status == "suspended"
    if attribute == "has_parent":
        return game is not None and game.parent is not None
    if attribute == "parent":
        return game.parent if game is not None and game.parent is not None else NOGAME
    if attribute == "result":
        if live:
            return "running"
        for ended in reversed(state.ended):
            if ended.id == g:
                return ended.result.kind
        return "running"
    if attribute == "counters":
        return sum(state.player_counters.get((g, str(extra)), {}).values())
    if attribute == "library_size":
        from shahrazad.model.objects import ZoneRef

        return len(state.zones.get(ZoneRef(g, "library", extra), []))
    if attribute == "depth":
        depth, parent = 0, game.parent if game is not None else None
        while parent is not None and parent in state.games and depth <= len(state.games):
            depth, parent = depth + 1, state.games[parent].parent
        return depth
    if attribute == "limited_range":
        return game is not None and game.range_of_influence is not None
    if attribute == "has_creator":
        return game is not None and game.created_by is not None
    if attribute == "created_by":
        return game.created_by if game is not None and game.created_by else NOOBJ
    if attribute == "stage":
        return game.stage if game is not None else "none"
    if attribute == "instructions_at":
        return (game.instructions_at if game is not None else None) or "none"
    if attribute == "out_of_order":
        return game is not None and game.out_of_order
    if game is None:
        return "none" if attribute in ("began_in_deck", "came_from") else False
    if attribute == "plays":
        return extra in game.players
    if attribute == "starts":
        return game.starting_player == extra
    if attribute == "doomed":
        return extra in game.doomed
    if attribute == "began_in_deck":
        return game.began_in_deck.get(str(extra), "none")
    if attribute == "came_from":
        return game.came_from.get(str(extra), "none")
    if attribute == "waiting":
        return any(t.id == extra for t in game.pending_triggers)
    if attribute == "trigger_controller":
        return next((state.trigger_controller(t) for t in game.pending_triggers
                     if t.id == extra), NOBODY)
    if attribute == "resolved":
        return extra in game.resolved
    raise KeyError(attribute)


def _attribute_value(state: Situation, attribute: str, values: Sequence[Any], of_object: bool) -> Any:
    """One attribute's value at `values` in `state`, read cell by cell."""
    if len(values) == 1 and of_object:
        return _object_value(state, attribute, values[0])
    if attribute in ("affects", "affects_player"):
        return _affects(state, attribute, values[0], values[1])
    return _game_value(state, attribute, values[0], values[1] if len(values) > 1 else None)


# ---- what an evaluator keeps of its situations --------------------------------------------


class _Column(dict[str, Any]):
    """One object attribute of one situation for every object there; any other name (an
    object of the other situation, a sentinel) has the attribute's absent value."""

    def __init__(self, values: Iterable[tuple[str, Any]], absent: Any):
        super().__init__(values)
        self.absent = absent

    def __missing__(self, o: str) -> Any:
        return self.absent


@dataclass(frozen=True)
class _Placed:
    """The objects of a situation that are somewhere: their ids, records and zones, in step."""

    names: list[str]
    records: list[GameObject]
    zones: list[ZoneRef]


def _placed(state: Situation) -> _Placed:
    """The objects of `state` that are somewhere, once for every column."""
    placed = _Placed([], [], [])
    for o, item in state.objects.items():
        where = state.where.get(o)
        if where is not None:
            placed.names.append(o)
            placed.records.append(item)
            placed.zones.append(where)
    return placed


def _column(state: Situation, attribute: str, placed: Callable[[], _Placed]) -> _Column:
    """`_object_value(state, attribute, o)` for every object `o` at once."""
    if attribute == "exists":
        return _Column(zip(state.objects, itertools.repeat(True)), False)
    somewhere = placed()
    values = (map(_OF_ZONE[attribute], somewhere.zones) if attribute in _OF_ZONE
              else map(_OF_RECORD[attribute], somewhere.records))
    return _Column(zip(somewhere.names, values, strict=True), _absent(attribute))


class _Memo(dict[Any, Any]):
    """Values worked out on first demand and kept."""

    def __init__(self, work_out: Callable[[Any], Any]):
        super().__init__()
        self.work_out = work_out

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.work_out(key)
        return value


@dataclass(frozen=True, eq=False)
class _Table:
    """What an evaluator keeps of one attribute of one of its situations (`when`): a column
    of an object attribute, or a game attribute's values per game (and per player or
    object, for `arity` 2). One per attribute (`_table`), so that every term reading it
    shares it; compared by identity, the cheapest key."""

    when: str
    attribute: str
    arity: int  # 0: an object attribute

    def build(self, state: Situation, placed: Callable[[], _Placed]) -> dict[Any, Any]:
        attribute = self.attribute
        if self.arity == 0:
            return _column(state, attribute, placed)
        if self.arity == 1:
            return _Memo(lambda g: _game_value(state, attribute, g, None))
        return _Memo(lambda g: _Memo(lambda extra: _game_value(state, attribute, g, extra)))


_TABLES: dict[tuple[str, str, int], _Table] = {}


def _table(when: str, attribute: str, arity: int) -> _Table:
    """The one `_Table` of an attribute in `when`."""
    key = (when, attribute, arity)
    if key not in _TABLES:
        _TABLES[key] = _Table(when, attribute, arity)
    return _TABLES[key]


# ---- the evaluator ------------------------------------------------------------------------


class Evaluator:
    """Evaluates terms on one transition (pre, post, binding)."""

    def __init__(self, pre: Situation, post: Situation, binding: Binding):
        self.states = {"pre": pre, "post": post}
        self.binding = binding
        self._tables = _Memo(self._tabulate)
        self._cache: dict[str, list[str]] = {}
        self._placed: dict[str, _Placed] = {}
        self.domains: dict[str, list[str]] = {
            "obj": sorted(_objects(pre, post)),
            "player": sorted(set(pre.players) | set(post.players)),
            "game": sorted(_games(pre, post) | set(binding.roles.values())),
        }

    def holds(self, term: Term) -> bool:
        return bool(self.value(term, {}))

    def value(self, term: Term, env: dict[str, str]) -> Any:
        """The value of `term` where `env` gives its free variables."""
        return _cached(_READERS, term, frozenset(env), _reader)(self, env)

    def counterexample(self, term: Term) -> dict[str, str] | None:
        """For a false ∀-term, values of its variables that make the body false: the first
        such values in the order of the domains."""
        if term.op != "forall":
            return None
        return _cached(_SEARCHES, term, frozenset(), _search)(self, {})

    def counterexamples(self, term: Term) -> Iterator[dict[str, str]]:
        """For a ∀-term, every binding of its variables that makes the body false, in the
        order of the domains (none for any other term)."""
        if term.op != "forall":
            return iter(())
        return _cached(_EVERY, term, frozenset(), _every)(self, {})

    def _tabulate(self, table: _Table) -> dict[Any, Any]:
        when = table.when
        return table.build(self.states[when], lambda: self._placed_in(when))

    def _placed_in(self, when: str) -> _Placed:
        if when not in self._placed:
            self._placed[when] = _placed(self.states[when])
        return self._placed[when]

    def _candidates(self, sort: str, acting: str) -> list[str]:
        """The values worth trying for a variable of `sort` that a guard says is an effect
        acting on an object in `acting` (see `_Level`): the effects that act on something
        there."""
        key = f"candidates:{sort}:{acting}"
        if key not in self._cache:
            effects = self._acting(acting)
            self._cache[key] = [v for v in self.domains[sort] if v in effects]
        return self._cache[key]

    def _acting(self, when: str) -> frozenset[str]:
        state = self.states[when]
        return frozenset(e for item in state.objects.values() for e in item.affected_by)


# ---- terms made ready to read -------------------------------------------------------------

# A term made ready to read: its value on an evaluator's transition in an environment.
Reader: TypeAlias = "Callable[[Evaluator, dict[str, str]], Any]"
# The first binding of a quantifier's variables that settles it, or None (see `_search`).
Search: TypeAlias = "Callable[[Evaluator, dict[str, str]], dict[str, str] | None]"
# Every binding of a quantifier's variables that settles it (see `_every`).
Every: TypeAlias = "Callable[[Evaluator, dict[str, str]], Iterator[dict[str, str]]]"

_Made = TypeVar("_Made")
_CACHE_LIMIT = 8192
_READERS: dict[tuple[int, frozenset[str]], tuple[Term, Reader]] = {}
_SEARCHES: dict[tuple[int, frozenset[str]], tuple[Term, Search]] = {}
_EVERY: dict[tuple[int, frozenset[str]], tuple[Term, Every]] = {}


def _cached(cache: dict[tuple[int, frozenset[str]], tuple[Term, _Made]], term: Term,
            bound: frozenset[str], make: Callable[[Term, frozenset[str]], _Made]) -> _Made:
    """`make(term, bound)`, made once for each term the evaluator is asked about (its
    parts are made with it). Keyed by the term's identity (hashing a term hashes its whole
    tree); the entry keeps the term alive, so that its id is not reused."""
    key = (id(term), bound)
    entry = cache.get(key)
    if entry is None:
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        entry = cache[key] = (term, make(term, bound))
    return entry[1]


def _reader(term: Term, bound: frozenset[str]) -> Reader:
    """`term` made ready to read in environments that bind exactly the names `bound`."""
    if term.op in _CONSTANTS:
        value = _CONSTANTS[term.op](term.args)
        return lambda ev, env: value
    return _MAKERS.get(term.op, _unknown_reader)(term, bound)


def _unknown_reader(term: Term, bound: frozenset[str]) -> Reader:
    """An operator that no reading knows: an error where, and only where, it is read."""
    def unknown(ev: Evaluator, env: dict[str, str]) -> Any:
        raise ValueError(f"unknown term {term.op}")
    return unknown


def _binding_reader(term: Term, bound: frozenset[str]) -> Reader:
    """What the event bound: its roles and parameters."""
    op = term.op
    if op in ("role", "has_role"):
        return _role_reader(term)
    if op == "event_controller":
        return lambda ev, env: ev.binding.controller or NOBODY
    if op == "creator":
        return lambda ev, env: ev.binding.creator or NOOBJ
    if op == "brought":
        return lambda ev, env: ev.binding.card or NOOBJ
    if op == "then_battlefield":
        return lambda ev, env: ev.binding.then_battlefield
    card = _reader(term.args[0], bound)  # exempt
    return lambda ev, env: card(ev, env) in ev.binding.exempt


def _role_reader(term: Term) -> Reader:
    """The game the event bound to a role, or whether it bound one."""
    role: str = term.args[0]
    if term.op == "role":
        return lambda ev, env: ev.binding.roles.get(role, NOGAME)
    return lambda ev, env: role in ev.binding.roles


def _variable_reader(term: Term, bound: frozenset[str]) -> Reader:
    name = term.args[0]
    return lambda ev, env: env[name]


def _attribute_reader(term: Term, bound: frozenset[str]) -> Reader:
    """A state attribute, read from the evaluator's table of it where there is one."""
    when, attribute, arg_terms = term.args
    args = [_reader(a, bound) for a in arg_terms]
    of_object = len(arg_terms) == 1 and arg_terms[0].sort == "obj"
    if of_object and attribute in _OBJECT_ATTRIBUTES:
        return _lookup_reader(_table(when, attribute, 0), arg_terms[0], args[0])
    if attribute in ("affects", "affects_player") and len(args) == 2:
        first, second = args
        return lambda ev, env: _affects(ev.states[when], attribute, first(ev, env), second(ev, env))
    if not of_object and len(args) == 1:
        return _lookup_reader(_table(when, attribute, 1), arg_terms[0], args[0])
    if not of_object and len(args) == 2:
        return _pair_reader(_table(when, attribute, 2), arg_terms, args)
    return lambda ev, env: _attribute_value(ev.states[when], attribute,
                                            [a(ev, env) for a in args], of_object)


def _lookup_reader(table: _Table, arg_term: Term, arg: Reader) -> Reader:
    """An attribute of one argument: one look-up in the evaluator's table of it (of the
    variable's value, for the common case of a variable)."""
    if arg_term.op == "var":
        name = arg_term.args[0]
        return lambda ev, env: ev._tables[table][env[name]]
    return lambda ev, env: ev._tables[table][arg(ev, env)]


def _pair_reader(table: _Table, arg_terms: Sequence[Term], args: Sequence[Reader]) -> Reader:
    """A game attribute of a player or an object: one look-up in the evaluator's table."""
    game, extra = args
    if all(a.op == "var" for a in arg_terms):
        g, x = (a.args[0] for a in arg_terms)
        return lambda ev, env: ev._tables[table][env[g]][env[x]]

    def read_pair(ev: Evaluator, env: dict[str, str]) -> Any:
        g, x = game(ev, env), extra(ev, env)
        return ev._tables[table][g][x]
    return read_pair


def _comparison_reader(term: Term, bound: frozenset[str]) -> Reader:
    """=, ≤, < and +."""
    op, (left_term, right_term) = term.op, term.args
    if op == "eq" and right_term.op == "const":
        return _equality_reader(left_term, right_term.args[1], bound, negated=False)
    left, right = _reader(left_term, bound), _reader(right_term, bound)
    if op == "eq":
        return lambda ev, env: left(ev, env) == right(ev, env)
    if op == "le":
        return lambda ev, env: left(ev, env) <= right(ev, env)
    if op == "lt":
        return lambda ev, env: left(ev, env) < right(ev, env)
    return lambda ev, env: left(ev, env) + right(ev, env)


def _equality_reader(left_term: Term, value: Any, bound: frozenset[str], negated: bool) -> Reader:
    """`left = value` (or ≠) for a constant `value`: the common `zone(o) = library`, with
    the column look-up done in place where `left` is an object attribute of a variable."""
    column = _column_of_variable(left_term)
    if column is not None:
        table, name = column
        if negated:
            return lambda ev, env: not (ev._tables[table][env[name]] == value)
        return lambda ev, env: ev._tables[table][env[name]] == value
    left = _reader(left_term, bound)
    if negated:
        return lambda ev, env: not (left(ev, env) == value)
    return lambda ev, env: left(ev, env) == value


def _column_of_variable(term: Term) -> tuple[_Table, str] | None:
    """The column and the variable of an object attribute of a variable, `zone(o)`."""
    if term.op != "attr" or len(term.args[2]) != 1:
        return None
    when, attribute, (arg,) = term.args
    if arg.op != "var" or arg.sort != "obj" or attribute not in _OBJECT_ATTRIBUTES:
        return None
    return _table(when, attribute, 0), arg.args[0]


def _negation_reader(term: Term, bound: frozenset[str]) -> Reader:
    inner = term.args[0]
    if inner.op == "eq" and inner.args[1].op == "const":
        return _equality_reader(inner.args[0], inner.args[1].args[1], bound, negated=True)
    negated = _reader(inner, bound)
    return lambda ev, env: not negated(ev, env)


def _conjunction_reader(term: Term, bound: frozenset[str]) -> Reader:
    return _all_of([_reader(a, bound) for a in _conjuncts(term)])


def _conjuncts(term: Term) -> list[Term]:
    """The parts of a conjunction, those of a conjunction inside it spliced in (`iff` and
    the derived readings nest them): the same parts in the same order, one reader."""
    if term.op != "and":
        return [term]
    return [part for a in term.args for part in _conjuncts(a)]


def _all_of(parts: Sequence[Reader]) -> Reader:
    """True when every part is, read in order up to the first false one."""
    if len(parts) == 2:
        first, second = parts
        return lambda ev, env: True if first(ev, env) and second(ev, env) else False

    def conjunction(ev: Evaluator, env: dict[str, str]) -> bool:
        for part in parts:
            if not part(ev, env):
                return False
        return True
    return conjunction


def _disjunction_reader(term: Term, bound: frozenset[str]) -> Reader:
    if _is_membership(term):
        # `zone(o) ∈ {library, hand, ...}`: read the left side once.
        left, values = _reader(term.args[0].args[0], bound), tuple(a.args[1].args[1] for a in term.args)
        return lambda ev, env: left(ev, env) in values
    parts = [_reader(a, bound) for a in term.args]
    if len(parts) == 2:
        first, second = parts
        return lambda ev, env: True if first(ev, env) or second(ev, env) else False

    def disjunction(ev: Evaluator, env: dict[str, str]) -> bool:
        for part in parts:
            if part(ev, env):
                return True
        return False
    return disjunction


def _is_membership(term: Term) -> bool:
    """`term` is `in_(x, constants)`: equalities of one term to constants."""
    return bool(term.args) and all(
        a.op == "eq" and a.args[1].op == "const" and a.args[0] == term.args[0].args[0]
        for a in term.args)


def _implication_reader(term: Term, bound: frozenset[str]) -> Reader:
    premise, conclusion = (_reader(a, bound) for a in term.args)
    return lambda ev, env: (not premise(ev, env)) or bool(conclusion(ev, env))


def _quantifier_reader(term: Term, bound: frozenset[str]) -> Reader:
    """∀ holds when no binding settles it (makes its body false), ∃ when one does (makes
    its body true)."""
    search = _search(term, bound)
    if term.op == "forall":
        return lambda ev, env: search(ev, env) is None
    return lambda ev, env: search(ev, env) is not None


_CONSTANTS: dict[str, Callable[[tuple[Any, ...]], Any]] = {
    "const": lambda args: args[1],
    "int": lambda args: args[0],
    "bool": lambda args: args[0],
    "nobody": lambda args: NOBODY,
    "nogame": lambda args: NOGAME,
    "noobj": lambda args: NOOBJ,
}

_MAKERS: dict[str, Callable[[Term, frozenset[str]], Reader]] = {
    "var": _variable_reader,
    "attr": _attribute_reader,
    "eq": _comparison_reader,
    "le": _comparison_reader,
    "lt": _comparison_reader,
    "add": _comparison_reader,
    "not": _negation_reader,
    "and": _conjunction_reader,
    "or": _disjunction_reader,
    "implies": _implication_reader,
    "forall": _quantifier_reader,
    "exists": _quantifier_reader,
    **dict.fromkeys(("role", "has_role", "event_controller", "creator", "brought",
                     "then_battlefield", "exempt"), _binding_reader),
}


# ---- quantifiers --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Level:
    """One variable of a quantifier, bound after those before it. `guards`: the guards
    (see `_guards`) that name it and whose variables are all bound once it is; where one
    is false, no extension of the binding can matter. `acting`: where a guard still
    waiting for a variable after it says that this variable is an effect acting on an
    object (in that state), only the effects that act on something can satisfy it."""

    name: str
    sort: str
    guards: tuple[Reader, ...]
    acting: str | None


def _search(term: Term, bound: frozenset[str]) -> Search:
    """The search for the first binding (in the order of the domains) that settles the
    quantifier `term`: for ∀ one that makes its body false, for ∃ one that makes it true.
    It binds one variable at a time and skips a binding as soon as a guard is false: the
    same answer as enumerating every combination, at a cost that follows the situation's
    relations, not its size raised to the number of variables."""
    plan = _plan(term, bound)
    if not isinstance(plan, tuple):
        return _unquantified(plan, term.op == "forall")
    levels, conclusion = plan
    search = _innermost(levels[-1], conclusion, term.op == "forall")
    for level in reversed(levels[:-1]):
        search = _outer(level, search)
    return search


def _every(term: Term, bound: frozenset[str]) -> Every:
    """As `_search`, every binding that settles the quantifier `term`, in the order of the
    domains, not only the first."""
    forall, plan = term.op == "forall", _plan(term, bound)
    if not isinstance(plan, tuple):
        body = plan
        return lambda ev, env: iter([dict(env)] if (not body(ev, env)) is forall else [])
    levels, conclusion = plan

    def every(ev: Evaluator, env: dict[str, str], depth: int = 0) -> Iterator[dict[str, str]]:
        level = levels[depth]
        bound = dict(env)
        for value in (ev.domains[level.sort] if level.acting is None
                      else ev._candidates(level.sort, level.acting)):
            bound[level.name] = value
            if not all(guard(ev, bound) for guard in level.guards):
                continue
            if depth + 1 < len(levels):
                yield from every(ev, bound, depth + 1)
            elif conclusion is None or (not conclusion(ev, bound)) is forall:
                yield dict(bound)
    return every


def _plan(term: Term, bound: frozenset[str]) -> tuple[list[_Level], Reader | None] | Reader:
    """How `_search` and `_every` bind the variables of the quantifier `term` (its levels,
    and what is left of its body once every guard has been read), or, for a quantifier
    over no variables, its body read."""
    forall, (variables, body) = term.op == "forall", term.args
    if not variables:
        return _reader(body, bound)
    guards = _guards(term)
    levels: list[_Level] = []
    read: set[int] = set()
    scope = bound
    for variable in variables:
        name, sort = variable.args
        scope = scope | {name}
        ready = [i for i, (_, free) in enumerate(guards) if name in free and free <= scope]
        pending = [g for g, free in guards if name in free and not free <= scope]
        levels.append(_Level(name, sort, tuple(_reader(guards[i][0], scope) for i in ready),
                             _acting_state(pending, name, sort)))
        read.update(ready)
    if guards and len(read) == len(guards):
        # Every guard holds of a binding that gets this far: only the rest of the body is left.
        conclusion = _reader(body.args[1], scope) if forall else None
    else:
        conclusion = _reader(body, scope)
    return levels, conclusion


def _acting_state(pending: list[Term], name: str, sort: str) -> str | None:
    """The state in which a pending guard says that `name` is an effect acting on an
    object, if one does (see `_Level`)."""
    for guard in pending:
        if (guard.op == "attr" and guard.args[1] == "affects"
                and guard.args[2][0] == Term("var", (name, sort), sort)):
            return str(guard.args[0])
    return None


def _innermost(level: _Level, conclusion: Reader | None, forall: bool) -> Search:
    """The last variable: a binding that passes the guards settles a ∀ where the rest of
    the body is false, an ∃ where it is true (or where nothing is left of it)."""
    name, sort, guards, acting = level.name, level.sort, level.guards, level.acting

    def search(ev: Evaluator, env: dict[str, str]) -> dict[str, str] | None:
        bound = dict(env)
        for value in ev.domains[sort] if acting is None else ev._candidates(sort, acting):
            bound[name] = value
            for guard in guards:
                if not guard(ev, bound):
                    break
            else:
                if conclusion is None or (not conclusion(ev, bound)) is forall:
                    return bound
        return None
    return search


def _outer(level: _Level, inner: Search) -> Search:
    """A variable before the last: each binding that passes the guards is extended by the
    search of the variables after it."""
    name, sort, guards, acting = level.name, level.sort, level.guards, level.acting

    def search(ev: Evaluator, env: dict[str, str]) -> dict[str, str] | None:
        bound = dict(env)
        for value in ev.domains[sort] if acting is None else ev._candidates(sort, acting):
            bound[name] = value
            for guard in guards:
                if not guard(ev, bound):
                    break
            else:
                found = inner(ev, bound)
                if found is not None:
                    return found
        return None
    return search


def _unquantified(body: Reader, forall: bool) -> Search:
    """A quantifier over no variables: its body alone settles it."""
    return lambda ev, env: dict(env) if (not body(ev, env)) is forall else None


def _guards(term: Term) -> tuple[tuple[Term, frozenset[str]], ...]:
    """The conjuncts that must hold for a binding to matter in the quantifier `term`, each
    with its free variables: the premise of a ∀'s implication, the conjuncts of an ∃."""
    body = term.args[1]
    if term.op == "forall":
        if body.op != "implies":
            return ()
        body = body.args[0]
    conjuncts = body.args if body.op == "and" else (body,)
    return tuple((c, _free(c)) for c in conjuncts if isinstance(c, Term))


def _free(term: Term) -> frozenset[str]:
    """The variables of `term` that no quantifier inside it binds."""
    if term.op == "var":
        return frozenset((term.args[0],))
    if term.op in ("forall", "exists"):
        variables, body = term.args
        return _free(body) - {v.args[0] for v in variables}
    out: frozenset[str] = frozenset()
    for arg in term.args:
        if isinstance(arg, Term):
            out |= _free(arg)
        elif isinstance(arg, tuple):
            for item in arg:
                if isinstance(item, Term):
                    out |= _free(item)
    return out


def _objects(*states: Situation) -> set[str]:
    out: set[str] = set()
    for s in states:
        out |= set(s.objects)
        for g in s.games.values():
            out |= {t.id for t in g.pending_triggers}
            out |= set(g.resolved)
            if g.created_by:
                out.add(g.created_by)
    return out


def _games(*states: Situation) -> set[str]:
    out: set[str] = set()
    for s in states:
        out |= set(s.games)
        out |= {e.id for e in s.ended}
        out |= {z.game for z in s.zones if z.game is not None}
    return out
