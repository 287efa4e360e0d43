"""The invariant language: terms written once, read twice.

An invariant is a term over one event's transition: the situation before (`pre`), the
situation after (`post`) and the games the event binds by role (`main`, `subgame`, ...).
`invariants.concrete` evaluates a term on two explicit situations; `proofs.encoding.encode` turns
the same term into a z3 formula over symbolic states whose objects, players and games are
uninterpreted sorts, so that a proof holds for any number of them.

Terms are immutable trees. Build them with the functions below, never by hand:

    o = obj("o")
    forall(o, implies(pre.is_card(o) & pre.in_game(o), post.exists(o)))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final

from shahrazad.model.language import CAME_FROM, PROCEDURE_STAGES

# Sorts of values: three uninterpreted sorts (obj, player, game), bool and int, and the
# finite sorts of the model (zone kinds, object kinds, card types, decks, results).
ENUMS: Final[dict[str, tuple[str, ...]]] = {
    "zone": ("library", "hand", "graveyard", "battlefield", "stack", "exile", "command",
             "effects", "deck", "outside"),
    "kind": ("card", "token", "copy", "emblem", "ability", "effect"),
    "ctype": ("traditional", "plane", "phenomenon", "scheme", "vanguard", "conspiracy",
              "attraction", "contraption", "dungeon", "none"),
    "deck": ("planar", "scheme", "attraction", "contraption", "none"),
    "result": ("running", "win", "draw", "none", "restarted"),
    # The stages of a game's start (rule 103), in order; "none" for a game that is not
    # there, or where no restarting effect's further instructions were followed.
    "stage": (*PROCEDURE_STAGES, "none"),
    # Where a card came from into a game: the kind of zone it began the game in (put there
    # before the game's first turn), or how an effect brought it in later: from a main game,
    # or from outside the game (400.11b, 728.4); "none" if neither is recorded.
    "came": (*CAME_FROM, "none"),
}
DOMAINS: Final = ("obj", "player", "game")

# State attributes: name -> (argument sorts, value sort). Each is read in `pre` or `post`.
ATTRIBUTES: Final[dict[str, tuple[tuple[str, ...], str]]] = {
    "exists": (("obj",), "bool"),          # the object exists (in a zone or outside)
    "zone": (("obj",), "zone"),            # the kind of zone it is in ("outside" if outside)
    "game": (("obj",), "game"),            # the game of its zone (meaningless when outside)
    "zone_player": (("obj",), "player"),   # the player of its zone (library, hand, ..., deck)
    "zone_deck": (("obj",), "deck"),       # the deck of its zone ("none" if not a deck)
    "owner": (("obj",), "player"),
    "controller": (("obj",), "player"),
    "kind": (("obj",), "kind"),
    "ctype": (("obj",), "ctype"),          # "none" for objects that are not cards
    "own_deck": (("obj",), "deck"),        # the supplementary deck a card belongs to
    "commander": (("obj",), "bool"),
    "face_up": (("obj",), "bool"),
    "phased_out": (("obj",), "bool"),
    "origin": (("obj",), "game"),          # the game that made a non-card object
    "permanent_card": (("obj",), "bool"),  # a card with a permanent type (110.4b)
    "aura": (("obj",), "bool"),            # an Aura card (303.4)
    "exiled_with": (("obj",), "obj"),      # what exiled the card, while it is in exile
    "same_card": (("obj",), "obj"),        # the card it is a second place of (`copy-to`)
    "has_counters": (("obj",), "bool"),
    "present": (("game",), "bool"),        # the game's record and zones exist (until destroyed)
    "live": (("game",), "bool"),           # the game exists and has not ended
    "active": (("game",), "bool"),
    "suspended": (("game",), "bool"),
    "has_parent": (("game",), "bool"),
    "parent": (("game",), "game"),
    "plays": (("game", "player"), "bool"),  # the player is in the game
    "counters": (("game", "player"), "int"),  # how many counters the player has there
    "starts": (("game", "player"), "bool"),  # the player is the game's starting player
    "doomed": (("game", "player"), "bool"),  # will lose at the first upkeep (728.3, 726.3)
    "library_size": (("game", "player"), "int"),
    "result": (("game",), "result"),       # the result it ended with ("running" if live)
    "depth": (("game",), "int"),           # how many main games are above it
    "limited_range": (("game",), "bool"),  # the game uses limited range of influence (801)
    "has_creator": (("game",), "bool"),
    "created_by": (("game",), "obj"),      # the spell or ability that created a subgame
    "watcher": (("obj",), "bool"),         # it has an ability that triggers on leaving a zone
    "affects": (("obj", "obj"), "bool"),   # an effect acts on an object (728.1b)
    "affects_player": (("obj", "player"), "bool"),  # an effect acts on a player
    "began_in_deck": (("game", "obj"), "deck"),
    "came_from": (("game", "obj"), "came"),  # where a card came from into a game (`came`)
    "waiting": (("game", "obj"), "bool"),  # a trigger of the game waits for it to resume
    "trigger_controller": (("game", "obj"), "player"),  # who controls a waiting trigger (113.8)
    "resolved": (("game", "obj"), "bool"),  # the object finished resolving in the game
    "stage": (("game",), "stage"),         # the stage of its start it last reached (rule 103)
    "out_of_order": (("game",), "bool"),   # some stage of its start was reached out of order
    "instructions_at": (("game",), "stage"),  # where a restart's further instructions ran (726.4)
}


@dataclass(frozen=True)
class Term:
    """A node: `op` with `args`; `sort` is the sort of its value."""

    op: str
    args: tuple[Any, ...]
    sort: str

    # Boolean connectives as operators: a & b, a | b, ~a.
    def __and__(self, other: Term) -> Term:
        return and_(self, other)

    def __or__(self, other: Term) -> Term:
        return or_(self, other)

    def __invert__(self) -> Term:
        return not_(self)

    def __str__(self) -> str:
        return show(self)

    def walk(self) -> Iterator[Term]:
        yield self
        for arg in self.args:
            if isinstance(arg, Term):
                yield from arg.walk()
            elif isinstance(arg, tuple):
                for item in arg:
                    if isinstance(item, Term):
                        yield from item.walk()


def _check(term: Term, sort: str, where: str) -> None:
    if term.sort != sort:
        raise TypeError(f"{where}: expected {sort}, got {term.sort} ({show(term)})")


def var(name: str, sort: str) -> Term:
    if sort not in DOMAINS:
        raise TypeError(f"a variable ranges over {', '.join(DOMAINS)}, not {sort}")
    return Term("var", (name, sort), sort)


def obj(name: str) -> Term:
    return var(name, "obj")


def player(name: str) -> Term:
    return var(name, "player")


def game(name: str) -> Term:
    return var(name, "game")


def const(sort: str, value: str) -> Term:
    if value not in ENUMS[sort]:
        raise ValueError(f"{value!r} is not a {sort} ({', '.join(ENUMS[sort])})")
    return Term("const", (sort, value), sort)


def zone(value: str) -> Term:
    return const("zone", value)


def kind(value: str) -> Term:
    return const("kind", value)


def ctype(value: str) -> Term:
    return const("ctype", value)


def deck(value: str) -> Term:
    return const("deck", value)


def result(value: str) -> Term:
    return const("result", value)


def came(value: str) -> Term:
    """Where a card came from into a game: a zone kind it began the game in, main-game,
    outside; or none."""
    return const("came", value)


def stage(value: str) -> Term:
    """A stage of a game's start (rule 103): new, starting-player, opening-hands, mulligans,
    first-turn; or none."""
    return const("stage", value)


def num(value: int) -> Term:
    return Term("int", (value,), "int")


TRUE: Final = Term("bool", (True,), "bool")
FALSE: Final = Term("bool", (False,), "bool")


def role(name: str) -> Term:
    """The game the event binds to `name` (main, subgame, restarted, new)."""
    return Term("role", (name,), "game")


def has_role(name: str) -> Term:
    """The event binds a game to `name` (a restarted game has a main game only if nested)."""
    return Term("has_role", (name,), "bool")


def controller_of_event() -> Term:
    """The player who controls the event's spell or ability (the restart's controller)."""
    return Term("event_controller", (), "player")


def exempt(o: Term) -> Term:
    """The restart event exempts this card (726.5)."""
    _check(o, "obj", "exempt")
    return Term("exempt", (o,), "bool")


def nobody() -> Term:
    """The player of no zone: the player of a shared zone's or an outside card's place."""
    return Term("nobody", (), "player")


def nogame() -> Term:
    """No game: the game of a card outside the game, the parent of the outermost game."""
    return Term("nogame", (), "game")


def noobj() -> Term:
    """No object: the creator of a game no spell created."""
    return Term("noobj", (), "obj")


def brought() -> Term:
    """The card a bring-in event brings into the game."""
    return Term("brought", (), "obj")


def then_battlefield() -> Term:
    """The restart has Karn Liberated's further instruction (put the exempt cards onto the
    battlefield)."""
    return Term("then_battlefield", (), "bool")


def creator() -> Term:
    """The object that created the event's subgame."""
    return Term("creator", (), "obj")


def eq(a: Term, b: Term) -> Term:
    if a.sort != b.sort:
        raise TypeError(f"cannot compare {a.sort} with {b.sort}: {show(a)} = {show(b)}")
    return Term("eq", (a, b), "bool")


def ne(a: Term, b: Term) -> Term:
    return not_(eq(a, b))


def not_(a: Term) -> Term:
    _check(a, "bool", "not")
    return Term("not", (a,), "bool")


def and_(*items: Term) -> Term:
    for item in items:
        _check(item, "bool", "and")
    return Term("and", tuple(items), "bool")


def or_(*items: Term) -> Term:
    for item in items:
        _check(item, "bool", "or")
    return Term("or", tuple(items), "bool")


def implies(a: Term, b: Term) -> Term:
    _check(a, "bool", "implies")
    _check(b, "bool", "implies")
    return Term("implies", (a, b), "bool")


def iff(a: Term, b: Term) -> Term:
    return and_(implies(a, b), implies(b, a))


def in_(a: Term, values: tuple[Term, ...]) -> Term:
    return or_(*(eq(a, v) for v in values))


def le(a: Term, b: Term) -> Term:
    _check(a, "int", "<=")
    _check(b, "int", "<=")
    return Term("le", (a, b), "bool")


def lt(a: Term, b: Term) -> Term:
    _check(a, "int", "<")
    _check(b, "int", "<")
    return Term("lt", (a, b), "bool")


def add(a: Term, b: Term) -> Term:
    _check(a, "int", "+")
    _check(b, "int", "+")
    return Term("add", (a, b), "int")


def forall(variables: Term | tuple[Term, ...], body: Term) -> Term:
    vs = variables if isinstance(variables, tuple) else (variables,)
    _check(body, "bool", "forall")
    return Term("forall", (vs, body), "bool")


def exists(variables: Term | tuple[Term, ...], body: Term) -> Term:
    vs = variables if isinstance(variables, tuple) else (variables,)
    _check(body, "bool", "exists")
    return Term("exists", (vs, body), "bool")


class State:
    """`pre` or `post`: attribute access builds terms, `pre.zone(o)` say."""

    def __init__(self, name: str):
        self.name = name

    def __getattr__(self, attribute: str) -> Callable[..., Term]:
        if attribute not in ATTRIBUTES:
            raise AttributeError(f"no state attribute {attribute!r}")
        arg_sorts, sort = ATTRIBUTES[attribute]

        def build(*args: Term) -> Term:
            if len(args) != len(arg_sorts):
                raise TypeError(f"{attribute} takes {len(arg_sorts)} arguments")
            for arg, expected in zip(args, arg_sorts, strict=True):
                _check(arg, expected, f"{self.name}.{attribute}")
            return Term("attr", (self.name, attribute, args), sort)

        return build

    # Derived readings, written once here in terms of the attributes.
    def is_card(self, o: Term) -> Term:
        return and_(self.exists(o), eq(self.kind(o), kind("card")))

    def traditional(self, o: Term) -> Term:
        return and_(self.is_card(o), eq(self.ctype(o), ctype("traditional")))

    def inside(self, o: Term) -> Term:
        """The object exists in a zone of some game (not outside the game)."""
        return and_(self.exists(o), ne(self.zone(o), zone("outside")))

    def in_game(self, o: Term, g: Term) -> Term:
        return and_(self.inside(o), eq(self.game(o), g))

    def in_zone(self, o: Term, g: Term, z: str) -> Term:
        return and_(self.in_game(o, g), eq(self.zone(o), zone(z)))

    def in_command(self, o: Term, g: Term) -> Term:
        """In the command zone, a supplementary deck included."""
        return and_(self.in_game(o, g), in_(self.zone(o), (zone("command"), zone("deck"))))


pre = State("pre")
post = State("post")


def show(term: Term) -> str:
    """The term in a readable notation, for reports."""
    op, args = term.op, term.args
    if op == "var":
        return str(args[0])
    if op == "const":
        return str(args[1])
    if op in ("int", "bool"):
        return str(args[0]).lower()
    if op == "role":
        return str(args[0])
    if op == "has_role":
        return f"has {args[0]}"
    if op == "event_controller":
        return "controller"
    if op in ("creator", "nobody", "nogame", "noobj", "brought", "then_battlefield"):
        return op
    if op == "exempt":
        return f"exempt({show(args[0])})"
    if op == "attr":
        return f"{args[0]}.{args[1]}({', '.join(show(a) for a in args[2])})"
    if op == "eq":
        return f"{show(args[0])} = {show(args[1])}"
    if op == "not":
        inner = args[0]
        if inner.op == "eq":
            return f"{show(inner.args[0])} ≠ {show(inner.args[1])}"
        return f"¬({show(inner)})"
    if op in ("and", "or"):
        joiner = " ∧ " if op == "and" else " ∨ "
        return "(" + joiner.join(show(a) for a in args) + ")" if args else (
            "true" if op == "and" else "false")
    if op == "implies":
        return f"({show(args[0])} → {show(args[1])})"
    if op == "add":
        return f"{show(args[0])} + {show(args[1])}"
    if op in ("le", "lt"):
        return f"{show(args[0])} {'≤' if op == 'le' else '<'} {show(args[1])}"
    if op in ("forall", "exists"):
        q = "∀" if op == "forall" else "∃"
        return f"{q}{', '.join(show(v) for v in args[0])}. {show(args[1])}"
    return f"{op}{args}"
