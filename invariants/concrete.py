"""The concrete reading of invariant terms: evaluate them on two explicit situations.

`Binding` says which games the event bound to which roles, and the event's parameters
(its controller, the exempt cards, the creating object). Quantifiers range over every
object, player and game that appears in either situation. Absent values (the game of an
object outside the game, the parent of the outermost game) are the sentinels `NOBODY` and
`NOGAME`, which the SMT reading also has, so that both readings agree.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from shahrazad.model.objects import DECK_OF
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


def _object_value(state: Situation, attribute: str, o: str) -> Any:
    item = state.objects.get(o)
    where = state.where.get(o)
    if attribute == "exists":
        return item is not None
    if item is None or where is None:
        return _absent(attribute)
    if attribute == "zone":
        return where.kind
    if attribute == "game":
        return where.game if where.game is not None else NOGAME
    if attribute == "zone_player":
        return where.player if where.player is not None and not where.is_outside else NOBODY
    if attribute == "zone_deck":
        return where.deck or "none"
    if attribute == "owner":
        return item.owner
    if attribute == "controller":
        return item.controller or item.owner
    if attribute == "kind":
        return item.kind
    if attribute == "ctype":
        return item.card_type if item.is_card else "none"
    if attribute == "own_deck":
        return item.deck or DECK_OF.get(item.card_type) or "none"
    if attribute == "commander":
        return item.commander
    if attribute == "face_up":
        return item.face_up
    if attribute == "phased_out":
        return item.phased_out
    if attribute == "origin":
        return item.game_of_origin or NOGAME
    if attribute == "has_counters":
        return bool(item.counters)
    if attribute == "watcher":
        return "leaves-zone" in item.triggers
    raise KeyError(attribute)


def _affects(state: Situation, attribute: str, effect: str, target: str) -> bool:
    if attribute == "affects":
        item = state.objects.get(target)
        return item is not None and effect in item.affected_by
    return effect in state.player_effects.get(target, [])


def _absent(attribute: str) -> Any:
    return {"zone": "outside", "game": NOGAME, "zone_player": NOBODY, "zone_deck": "none",
            "owner": NOBODY, "controller": NOBODY, "kind": "card", "ctype": "none",
            "own_deck": "none", "origin": NOGAME}.get(attribute, False)


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
    if game is None:
        return "none" if attribute == "began_in_deck" else False
    if attribute == "plays":
        return extra in game.players
    if attribute == "starts":
        return game.starting_player == extra
    if attribute == "doomed":
        return extra in game.doomed
    if attribute == "began_in_deck":
        return game.began_in_deck.get(str(extra), "none")
    if attribute == "waiting":
        return any(t.id == extra for t in game.pending_triggers)
    if attribute == "trigger_controller":
        return next((state.trigger_controller(t) for t in game.pending_triggers
                     if t.id == extra), NOBODY)
    if attribute == "resolved":
        return extra in game.resolved
    raise KeyError(attribute)


class Evaluator:
    """Evaluates terms on one transition (pre, post, binding)."""

    def __init__(self, pre: Situation, post: Situation, binding: Binding):
        self.states = {"pre": pre, "post": post}
        self.binding = binding
        self._cache: dict[str, frozenset[str]] = {}
        self.domains: dict[str, list[str]] = {
            "obj": sorted(_objects(pre, post)),
            "player": sorted(set(pre.players) | set(post.players)),
            "game": sorted(_games(pre, post) | set(binding.roles.values())),
        }

    def holds(self, term: Term) -> bool:
        return bool(self.value(term, {}))

    def counterexample(self, term: Term) -> dict[str, str] | None:
        """For a false ∀-term, values of its variables that make the body false."""
        if term.op != "forall" or self.holds(term):
            return None
        variables, body = term.args
        for env in self._envs(variables, {}):
            if not self.value(body, env):
                return env
        return None

    def _envs(self, variables: tuple[Term, ...], env: dict[str, str]) -> Iterable[dict[str, str]]:
        if not variables:
            yield env
            return
        head, rest = variables[0], variables[1:]
        name, sort = head.args
        for value in self.domains[sort]:
            yield from self._envs(rest, {**env, name: value})

    def value(self, term: Term, env: dict[str, str]) -> Any:
        op, args = term.op, term.args
        # The common operators first: this is the inner loop of every concrete check.
        if op == "var":
            return env[args[0]]
        if op == "attr":
            state = self.states[args[0]]
            values = [self.value(a, env) for a in args[2]]
            if len(values) == 1 and args[2][0].sort == "obj":
                return _object_value(state, args[1], values[0])
            if args[1] in ("affects", "affects_player"):
                return _affects(state, args[1], values[0], values[1])
            return _game_value(state, args[1], values[0], values[1] if len(values) > 1 else None)
        if op == "eq":
            return self.value(args[0], env) == self.value(args[1], env)
        if op == "and":
            return all(self.value(a, env) for a in args)
        if op == "implies":
            return (not self.value(args[0], env)) or bool(self.value(args[1], env))
        if op == "not":
            return not self.value(args[0], env)
        if op == "const":
            return args[1]
        if op == "or":
            return any(self.value(a, env) for a in args)
        if op in ("forall", "exists"):
            variables, body = args
            return self._quantify(op == "forall", variables, body, _guards(term), env)
        if op in ("int", "bool"):
            return args[0]
        if op == "role":
            return self.binding.roles.get(args[0], NOGAME)
        if op == "has_role":
            return args[0] in self.binding.roles
        if op == "event_controller":
            return self.binding.controller or NOBODY
        if op == "creator":
            return self.binding.creator or NOOBJ
        if op == "nobody":
            return NOBODY
        if op == "nogame":
            return NOGAME
        if op == "noobj":
            return NOOBJ
        if op == "brought":
            return self.binding.card or NOOBJ
        if op == "then_battlefield":
            return self.binding.then_battlefield
        if op == "exempt":
            return self.value(args[0], env) in self.binding.exempt
        if op == "add":
            return self.value(args[0], env) + self.value(args[1], env)
        if op == "le":
            return self.value(args[0], env) <= self.value(args[1], env)
        if op == "lt":
            return self.value(args[0], env) < self.value(args[1], env)
        raise ValueError(f"unknown term {op}")

    def _quantify(self, forall: bool, variables: tuple[Term, ...], body: Term,
                  guards: tuple[tuple[Term, frozenset[str]], ...], env: dict[str, str]) -> bool:
        """∀ or ∃ over `variables`, binding one variable at a time. A guard (a conjunct of
        the premise of a ∀'s implication, or of an ∃'s conjunction) is read as soon as its
        variables are bound: where it is false, no extension of the binding can matter, and
        the rest of the enumeration is skipped. The same truth value as enumerating every
        combination, at a cost that follows the situation's relations, not its size
        raised to the number of variables."""
        if not variables:
            return bool(self.value(body, env))
        name, sort = variables[0].args
        ready = [g for g, free in guards if name in free and free <= {name, *env}]
        pending = [(g, free) for g, free in guards if name in free and not free <= {name, *env}]
        for value in self._candidates(sort, name, pending, env):
            bound = {**env, name: value}
            if not all(self.value(g, bound) for g in ready):
                continue
            if self._quantify(forall, variables[1:], body, guards, bound) != forall:
                return not forall
        return forall

    def _candidates(self, sort: str, name: str, pending: list[tuple[Term, frozenset[str]]],
                    env: dict[str, str]) -> list[str]:
        """The values worth trying for `name`: where a pending guard is a relation between
        objects (what effects act on) and `name` is its effect, only the effects that act on
        something can satisfy it."""
        for guard, _ in pending:
            if (guard.op == "attr" and guard.args[1] == "affects"
                    and guard.args[2][0] == Term("var", (name, sort), sort)):
                return [v for v in self.domains[sort]
                        if v in self._acting(guard.args[0])]
        return self.domains[sort]

    def _acting(self, when: str) -> frozenset[str]:
        key = f"acting:{when}"
        if key not in self._cache:
            state = self.states[when]
            self._cache[key] = frozenset(e for item in state.objects.values()
                                         for e in item.affected_by)
        return self._cache[key]


@functools.lru_cache(maxsize=4096)
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
