"""Lemmas: what strengthens an induction that fails only on situations no game reaches.

A proof assumes the structure invariants before the event. Where z3's counterexample to an
obligation replays but no legal run reaches it (`evidence.reach`), it is a counterexample to
induction, and the promise may still hold in every game. Each such counterexample has a
shape (`Shape`: distinct objects, each with the facts that put it where no run brought it),
and "no situation has this shape" is a candidate lemma; so are its generalisations, which
drop the facts of the object's place or of its game's status (as Ivy generalises a
counterexample to induction). The candidates are pruned Houdini-style (`inductive`): each
event of the rules is asked, in a fresh solver, for a situation where the structure
invariants and every candidate hold before it and some candidate is broken after it; the
candidates broken there go, until no event breaks any. What is left holds after every event
from any situation where it all holds, and it holds at every game's beginning
(`initiated`): invariants for every number of cards, players and games. The obligation is
then asked again with them assumed before the event; unsat is a proof, which names its
lemmas (`Result.lemmas`). A lemma that an event breaks, or that the solver cannot decide
for an event, is never used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3
from shahrazad.invariants import lang
from shahrazad.invariants.catalog import Invariant
from shahrazad.invariants.concrete import Binding, Evaluator
from shahrazad.invariants.lang import State, Term, post, pre
from shahrazad.model.objects import DECK_OF, GameObject, ZoneRef
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.scenario import Scenario
from shahrazad.model.state import Game, Situation
from shahrazad.proofs.evidence.agreement import concrete_value
from shahrazad.proofs.evidence.reach import beginning
from shahrazad.proofs.solving.cache import rulebook_digest
from shahrazad.proofs.solving.obligations import Obligation
from shahrazad.proofs.solving.queries import Encodings, solve

BLOCKED_OBJECTS = 4  # at most this many objects in a shape (the first, in order)

# The facts of an object that a shape always says: what the trace builder starts it from
# (its kind, card type, own deck, whether a commander) and where it must bring it (the
# kind of zone, the deck, whether the zone's player is the owner, whether the game is
# active and a subgame). The facts the builder sets by a step of its own are said only when
# that step was refused, or when the failure names no step.
BY_STEP = {"turn": ("face_up",), "phase": ("phased_out",), "control": ("controller",),
           "counter": ("has_counters",)}
ALL_FACTS = ("face_up", "phased_out", "controller", "has_counters")
# The generalisations tried of each shape: the facts dropped.
PLACE = frozenset({"zone", "zone_deck", "zone_player"})
GENERALISATIONS: tuple[frozenset[str], ...] = (frozenset(), frozenset({"active"}), PLACE, PLACE | {"active"})
# z3's budget for each of Houdini's queries (seconds of work, `queries.budget`): a lemma it
# cannot decide in that for some event is dropped, which is sound; most are decided in
# hundredths of a second.
QUERY = 1.0
EVENTS = ("affect", "bring-in", "control", "counter", "create", "end-subgame", "leave", "move",
          "phase", "restart", "start-subgame", "turn")
# Card kinds a game can begin with, for `initiated`: (card type, commander?).
BEGINNING_CARDS = (("traditional", False), ("traditional", True), *(
    (ctype, False) for ctype in sorted({*DECK_OF, "vanguard", "conspiracy", "dungeon"})))


@dataclass(frozen=True)
class Shape:
    """Distinct objects, each with facts (attribute, value) read from a situation: a
    counterexample's shape, or one generalised by dropping facts."""

    objects: tuple[tuple[tuple[str, Any], ...], ...]

    def term(self, st: State = pre) -> Term:
        """"There are distinct objects x1, ..., xn, each with its facts", over `st`."""
        variables = tuple(lang.obj(f"blocked{n}") for n in range(1, len(self.objects) + 1))
        facts: list[Term] = [lang.ne(a, b) for i, a in enumerate(variables)
                             for b in variables[i + 1:]]
        for o, said in zip(variables, self.objects, strict=True):
            facts += [_fact(st, o, attribute, value) for attribute, value in said]
        return lang.exists(variables, lang.and_(*facts))

    def without(self, dropped: frozenset[str]) -> Shape:
        """The shape with the facts of `dropped` left out (a generalisation)."""
        return Shape(tuple(tuple(f for f in said if f[0] not in dropped)
                           for said in self.objects))

    def words(self) -> str:
        """The lemma that excludes it, in words: "no card of type attraction, from the
        attraction deck, in a subgame"."""
        return "no " + "; and at once no other ".join(
            ", ".join([_noun(dict(said)), *(_said(a, v) for a, v in said
                                            if a not in ("exists", "kind"))])
            for said in self.objects)


def _fact(st: State, o: Term, attribute: str, value: Any) -> Term:
    if attribute in ("active", "has_parent"):  # said only of an object inside a game
        term = getattr(st, attribute)(st.game(o))
        return lang.and_(st.inside(o), term if value else lang.not_(term))
    if attribute == "zone_player":
        term = lang.eq(st.zone_player(o), st.owner(o))
    elif attribute == "controller":
        term = lang.eq(st.controller(o), st.owner(o))
    elif attribute in ("kind", "ctype", "zone"):
        return lang.eq(getattr(st, attribute)(o), lang.const(attribute, str(value)))
    elif attribute in ("own_deck", "zone_deck"):
        return lang.eq(getattr(st, attribute)(o), lang.deck(str(value)))
    else:
        term = getattr(st, attribute)(o)
    return term if value else lang.not_(term)


def _noun(said: dict[str, Any]) -> str:
    return str(said.get("kind", "object"))


def _said(attribute: str, value: Any) -> str:
    if attribute == "ctype":
        return f"of type {value}"
    if attribute in ("own_deck", "zone_deck"):
        whose = "from" if attribute == "own_deck" else "in"
        return f"{whose} no supplementary deck" if value == "none" else \
            f"{whose} the {value} deck"
    if attribute == "zone":
        return f"in zone {value}"
    if isinstance(value, bool):
        words = {"active": "in the active game", "has_parent": "in a subgame",
                 "zone_player": "in its owner's zone", "controller": "controlled by its owner",
                 "has_counters": "with counters", "face_up": "face up",
                 "phased_out": "phased out", "commander": "a commander", "exists": "existing"}
        said = words.get(attribute, attribute)
        return said if value else f"not {said}"
    return f"{attribute.replace('_', ' ')} {value}"


def shape_of(scenario: Scenario, objects: tuple[str, ...], step: str) -> Shape | None:
    """The shape of a counterexample's situation that no trace reached: the objects the
    refused step of the trace acted on (`objects`, with the facts that decide where the
    trace builder starts it and must bring it, plus the one that step sets, `BY_STEP`); when
    the failure names no object, every object of the situation, at most BLOCKED_OBJECTS,
    with all their facts. Names and numbers are left out, so that renaming the elements
    (which z3 does at will) does not dodge it; None if there is no object to name."""
    s = scenario.situation
    placed = [o for z in sorted(s.zones, key=ZoneRef.sort_key) for o in s.zones[z]]
    named = [o for o in placed if o in objects]
    chosen = (named or placed)[:BLOCKED_OBJECTS]
    if not chosen:
        return None
    extra = BY_STEP.get(step, ()) if named else ALL_FACTS
    return Shape(tuple(_facts_of(s, name, extra) for name in chosen))


def _facts_of(s: Situation, name: str, extra: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    def value(attribute: str, of: str = name) -> Any:
        return concrete_value(s, attribute, [of])

    facts: list[tuple[str, Any]] = [("exists", True), ("commander", bool(value("commander")))]
    facts += [(a, value(a)) for a in ("kind", "ctype", "own_deck", "zone")]
    if value("zone") != "outside":
        facts.append(("zone_deck", value("zone_deck")))
        game = str(value("game"))
        facts.append(("active", bool(value("active", game))))
        facts.append(("has_parent", bool(value("has_parent", game))))
        if value("zone_player") in s.players:
            facts.append(("zone_player", value("zone_player") == value("owner")))
    for attribute in extra:
        if attribute == "controller":
            facts.append(("controller", value("controller") == value("owner")))
        else:
            facts.append((attribute, bool(value(attribute))))
    return tuple(facts)


@dataclass(frozen=True)
class Lemma:
    """A candidate invariant: no situation has `shape`; or, for one of `RECORDS`, the
    formula `build` makes of a state, with its words `said`."""

    shape: Shape
    said: str = ""
    build: Callable[[State], Term] | None = None

    @property
    def text(self) -> str:
        return self.said or self.shape.words()

    def holds(self, st: State) -> Term:
        return self.build(st) if self.build is not None else lang.not_(self.shape.term(st))

    def excluded(self, st: State = pre) -> Term:
        """What the lemma excludes: the situations where it is false (a `blocked` shape of
        `queries.solve`)."""
        return self.shape.term(st) if self.build is None else lang.not_(self.build(st))


def _records(st: State) -> Term:
    g, o = lang.game("g"), lang.obj("o")
    return lang.forall((g, o), lang.implies(
        lang.ne(st.began_in_deck(g, o), lang.deck("none")),
        lang.and_(st.is_card(o), lang.eq(st.began_in_deck(g, o), st.own_deck(o)))))


# Lemmas about the records games keep, which the scenario format has no way to break (a
# record names a card of the situation): the states z3 may choose beyond them have no
# scenario, and a counterexample among them does not replay (`prove` then assumes these).
# No game's beginning has a record: each holds there.
RECORDS = (Lemma(Shape(()), said="a game marks only cards as having begun it in a "
                 "supplementary deck, each with its own deck (728.2a)", build=_records),)


def candidates(shapes: list[Shape]) -> list[Lemma]:
    """The lemmas that exclude each shape and its generalisations, each once, in order."""
    seen: dict[Shape, Lemma] = {}
    for shape in shapes:
        for dropped in GENERALISATIONS:
            general = shape.without(dropped)
            seen.setdefault(general, Lemma(general))
    return list(seen.values())


def simplest(lemmas: list[Lemma]) -> list[Lemma]:
    """The lemmas that no other of them implies: a lemma about one object with some facts
    implies every lemma about one object with more (it excludes more)."""
    def implies(a: Lemma, b: Lemma) -> bool:
        return (a != b and len(a.shape.objects) == len(b.shape.objects) == 1
                and set(a.shape.objects[0]) < set(b.shape.objects[0]))
    return [b for b in lemmas if not any(implies(a, b) for a in lemmas)]


def initiated(lemma: Lemma) -> bool:
    """Whether the lemma holds at every game's beginning. A beginning has one game, and
    each card in the one place its kind begins (`reach.beginning`); a shape's objects are
    distinct and each has facts of its own, so a beginning has the shape exactly when each
    object's facts fit some card of it, and a beginning may have any number of cards of each
    kind. So it suffices that some object of the shape fits no card of any one-card
    beginning (its owner is the first player of two)."""
    if lemma.build is not None:
        return lemma in RECORDS  # no record at a beginning (`RECORDS`)
    for said in lemma.shape.objects:
        alone = Lemma(Shape((said,)))
        if all(_holds_at_beginning(alone, ctype, commander)
               for ctype, commander in BEGINNING_CARDS):
            return True
    return False


def _holds_at_beginning(lemma: Lemma, ctype: str, commander: bool) -> bool:
    target = Situation(players=["P1", "P2"])
    game = Game(id="main", players=["P1", "P2"], status="active")
    target.games["main"] = game
    target.create_zones(game)
    card = GameObject(id="c1", kind="card", owner="P1", controller="P1", card_type=ctype,
                      commander=commander, deck=DECK_OF.get(ctype))
    target.objects["c1"] = card
    target.place("c1", ZoneRef("main", "library", "P1"), "bottom")
    start = beginning(target)
    return Evaluator(start, start, Binding()).holds(lemma.holds(pre))


@dataclass
class Strengthening:
    """What `inductive` kept: the lemmas, and for those it dropped, why (event, reason)."""

    lemmas: list[Lemma]
    dropped: dict[str, str] = field(default_factory=dict)


_DONE: dict[tuple[str, tuple[Lemma, ...], float], Strengthening] = {}


def inductive(rulebook: Rulebook, lemmas: list[Lemma], timeout: float) -> Strengthening:
    """Houdini: the largest subset of `lemmas` that holds at every beginning and that every
    event keeps from a situation where the structure invariants and the whole subset hold.
    Each event's queries go to a fresh `Encodings` of their own (so that no other
    obligation's answers depend on them); remembered per rulebook (by its content),
    candidate set and timeout."""
    timeout = min(timeout, QUERY)
    memo = (rulebook_digest(rulebook), tuple(lemmas), timeout)
    if memo in _DONE:
        return _DONE[memo]
    kept = [lemma for lemma in lemmas if initiated(lemma)]
    dropped = {lemma.text: "it fails at a game's beginning" for lemma in lemmas
               if lemma not in kept}
    changed = True
    while changed and kept:
        changed = False
        for event in EVENTS:
            broken, why = _broken(rulebook, kept, event, timeout)
            if broken:
                for lemma in broken:
                    dropped[lemma.text] = f"{event}: {why}"
                kept = [lemma for lemma in kept if lemma not in broken]
                changed = True
                if not kept:
                    break
    result = Strengthening(kept, dropped)
    _DONE[memo] = result
    return result


def _broken(rulebook: Rulebook, kept: list[Lemma], event: str,
            timeout: float) -> tuple[list[Lemma], str]:
    """The lemmas of `kept` that `event` breaks in a situation where all of them and the
    structure invariants hold before it (read from z3's model), and why; all of them when z3
    cannot decide; none when it keeps them all."""
    invariant = Invariant("lemmas", "the lemmas", (), (event,),
                          lang.and_(*(lemma.holds(post) for lemma in kept)))
    assumed = [lemma.excluded(pre) for lemma in kept]
    encodings = Encodings()
    answer, _, solver, _, why = solve(rulebook, Obligation(invariant, event), None, timeout,
                                      encodings=encodings, blocked=assumed)
    if answer == "unsat":
        return [], ""
    if answer != "sat":
        return list(kept), f"the solver gave up ({why})"
    model = solver.model()
    encoded = encodings.get(rulebook, event, None)
    broken = [lemma for lemma in kept
              if not z3.is_true(model.eval(encodings.encode(encoded, lemma.holds(post)),
                                           model_completion=True))]
    return (broken or list(kept)), "a situation where the lemmas hold before it and not after"
