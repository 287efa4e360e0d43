"""Object steps: the rulebook's steps that select objects and act on each of them.

A step with a `select` (a conjunction of tests on one object, `model.language.Selector`)
ceases the objects it selects, sets an attribute of each, moves each to a destination, or
makes a new object from each (`copy-to`).
`selected` reads the selector as a condition on one object of a state, and `firing` says
when a step does something at all (the clause fires). These are the only steps that read
one object at a time, so they sit apart from the game steps (`game_steps`) that act on
games, players and permissions. Every function takes the encoder (`encoder.Encoder`) first
and returns a z3 term or the state after the step, as `model.interpreter` reads the step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import z3
from shahrazad.model.language import BEGUN, CAME_FROM, Destination, Selector, Step
from shahrazad.model.objects import OUTSIDE, PLAYER_ZONES

from .symbolic import SymState

if TYPE_CHECKING:
    from .encoder import Encoder


def selected(enc: Encoder, s: SymState, sel: Selector, o: Any) -> Any:
    """The selector as a condition on object `o` of state `s`: `o` is in the selector's game
    (bound as the role says) and passes each of its tests, as `model.object_steps.matches`
    reads them (only a card is a commander); false when no clause bound the game."""
    r = enc.role(sel.game)
    if r is None:
        return enc.false()
    game, bound = r
    u = enc.u
    tests = [bound, enc.inside(s, o), s.get("game", o) == game]
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
            return z3.Or(s.get("zone", o) == enc.z("command"), s.get("zone", o) == enc.z("deck"))
        return s.get("zone", o) == enc.z(kind)

    if sel.zone:
        tests.append(z3.Or(*(zone_is(k) for k in sel.zone)))
    if sel.zone_not:
        tests.append(z3.Not(z3.Or(*(zone_is(k) for k in sel.zone_not))))
    if sel.commander is not None:
        # The concrete model: only cards carry the commander designation.
        is_commander = z3.And(s.get("kind", o) == u.enum("kind", "card"), s.get("commander", o))
        tests.append(is_commander if sel.commander else z3.Not(is_commander))
    if sel.exempt is not None:
        ex = z3.Select(enc.params["exempt"], o) if "exempt" in enc.params else enc.false()
        tests.append(ex if sel.exempt else z3.Not(ex))
    if sel.began_in_deck is not None:
        marked = s.get("began_in_deck", game, o) != u.enum("deck", "none")
        marked = z3.And(s.get("present", game), marked)
        tests.append(marked if sel.began_in_deck else z3.Not(marked))
    for flag in ("permanent_card", "aura"):
        wanted = getattr(sel, flag)
        if wanted is not None:
            tests.append(s.get(flag, o) if wanted else z3.Not(s.get(flag, o)))
    if sel.came_from:
        came = s.get("came_from", game, o)
        kinds = set(sel.came_from) | ({"deck"} if "command" in sel.came_from else set())
        tests.append(s.get("present", game))
        tests.append(z3.Or(*(came == u.enum("came", k) for k in sorted(kinds))))
    if sel.phased != "any":
        out = s.get("phased_out", o)
        tests.append(out if sel.phased == "out" else z3.Not(out))
    if sel.face != "any":
        up = s.get("face_up", o)
        tests.append(up if sel.face == "up" else z3.Not(up))
    return z3.And(*tests)


def firing(enc: Encoder, s: SymState, step: Step) -> Any:
    """When the step does something: an object step selects an object; permissions and
    prohibitions act through the events that consult them; other game steps always act
    once the event happens."""
    if step.select is not None:
        o = enc.u.const("o!fires", "obj")
        return enc.u.exists([o], selected(enc, s, step.select, o))
    if step.action in ("permit", "forbid"):
        return enc.false()
    if step.action == "queue-leave-triggers":
        r = enc.role(step.args["_"])
        return r[1] if r is not None else enc.false()
    return enc.true()


def object_step(enc: Encoder, s: SymState, step: Step, label: str) -> SymState:
    """Encode an object step: the selected objects cease to exist, have an attribute set (the
    commander designation only on a card; ownership, given to the controller, only for an
    object that has one), or move (`move`)."""
    assert step.select is not None
    u = enc.u
    o = u.const("o", "obj")
    sel = selected(enc, s, step.select, o)
    if step.action == "cease":
        exists = z3.Lambda([o], z3.If(sel, enc.false(), s.get("exists", o)))
        return enc.next_state(s, label, exists=exists, **enc.forget(s, o, sel, sel))
    if step.action == "set":
        changes: dict[str, Any] = {}
        for key, value in step.args.items():
            if key == "owner":  # value "controller": the object's controller owns it now
                # Only an object with a controller (a permanent, a spell: 108.4) changes hands.
                controlled = z3.And(sel, s.get("controller", o) != u.nobody)
                changes["owner"] = z3.Lambda([o], z3.If(controlled, s.get("controller", o),
                                                        s.get("owner", o)))
                continue
            attribute = {"face": "face_up", "phased": "phased_out", "commander": "commander"}[key]
            new = {"face": value == "up", "phased": value == "out", "commander": bool(value)}[key]
            if key == "commander":
                sel_here = z3.And(sel, s.get("kind", o) == u.enum("kind", "card"))
            else:
                sel_here = sel
            changes[attribute] = z3.Lambda([o], z3.If(sel_here, z3.BoolVal(new, u.ctx),
                                                      s.get(attribute, o)))
        return enc.next_state(s, label, **changes)
    assert step.to is not None
    if step.action == "copy-to":
        return copy(enc, s, step.select, step.to, label)
    return move(enc, s, step.select, step.to, label)


def _destination(enc: Encoder, s: SymState, sel_spec: Selector, dest: Destination, o: Any,
                 game: Any, bound: Any) -> tuple[list[Any], Any, Any]:
    """Where a move or copy of object `o` goes, as `model.object_steps.destination` reads it:
    the conditions for the destination to exist (its game bound and present, the zone's player
    in it, a deck to go to, a permanent card for the battlefield), the zone's player and its
    deck (NOBODY and "none" where the zone has none)."""
    u = enc.u
    valid = [bound, s.get("present", game)]
    player = u.nobody
    if dest.zone in (*PLAYER_ZONES, "deck"):
        player = {"owner": s.get("owner", o), "same": s.get("zone_player", o),
                  "controller": s.get("controller", o)}[dest.whose]
        valid.append(s.get("plays", game, player))
    deck = u.enum("deck", "none")
    if dest.zone == "deck":
        if dest.deck == "same":
            deck = s.get("zone_deck", o)
        elif dest.deck == "own":
            deck = s.get("own_deck", o)
        else:
            src = enc.role(sel_spec.game)
            deck = (z3.If(s.get("present", src[0]), s.get("began_in_deck", src[0], o),
                          u.enum("deck", "none")) if src else u.enum("deck", "none"))
        valid.append(deck != u.enum("deck", "none"))
    if dest.zone == "battlefield":  # only a permanent card (110.4b)
        valid.append(z3.Or(s.get("kind", o) != u.enum("kind", "card"),
                           s.get("permanent_card", o)))
    return valid, player, deck


def move(enc: Encoder, s: SymState, sel_spec: Selector, dest: Destination, label: str) -> SymState:
    """Encode a move-to step: each selected object whose destination exists (`_destination`)
    moves there as a new object (400.7): without counters or phasing, a card under its owner's
    control (or the event's controller's, if the step says so), face up or down as the step
    says, marked as having begun in that deck if it says so; put into a game before its first
    turn, it began that game there (`came_from`). The others stay. A card moved outside the
    game goes to its owner (`_outside`)."""
    u = enc.u
    o = u.const("o", "obj")
    sel = selected(enc, s, sel_spec, o)
    if dest.zone == OUTSIDE:
        return _outside(enc, s, o, z3.And(sel, s.get("kind", o) == u.enum("kind", "card")),
                        label)
    r = enc.role(dest.game)
    if r is None:
        return enc.next_state(s, label)
    game, bound = r
    valid, player, deck = _destination(enc, s, sel_spec, dest, o, game, bound)
    moved = z3.And(sel, *valid)
    is_card = s.get("kind", o) == u.enum("kind", "card")
    controller = z3.If(is_card, s.get("owner", o), s.get("controller", o))
    if dest.control == "event-controller" and "controller" in enc.params:
        controller = enc.params["controller"]
    changes = _arrive(enc, s, o, moved, enc.z(dest.zone), game, player, deck, controller)
    if dest.face != "keep":
        changes["face_up"] = z3.Lambda([o], z3.If(moved, z3.BoolVal(dest.face == "up", u.ctx),
                                                  s.get("face_up", o)))
    changes.update(_marks(enc, s, dest, o, moved, game, deck))
    return enc.next_state(s, label, **changes)


def _marks(enc: Encoder, s: SymState, dest: Destination, o: Any, arrived: Any, game: Any,
           deck: Any) -> dict[str, Any]:
    """The records a game keeps of each object `o` for which `arrived` holds: the mark of
    having begun in `deck` (if the destination gives it), and, put there before the game's
    first turn, where it came from (`came_from`)."""
    u = enc.u
    g = u.const("g", "game")
    changes: dict[str, Any] = {}
    if dest.mark == "began-in-deck" and dest.zone == "deck":
        changes["began_in_deck"] = z3.Lambda(
            [g, o], z3.If(z3.And(g == game, arrived), deck, s.get("began_in_deck", g, o)))
    if dest.zone in CAME_FROM:  # put there before the game's first turn: it began there
        began = z3.And(g == game, arrived, s.get("stage", game) != u.enum("stage", BEGUN))
        changes["came_from"] = z3.Lambda(
            [g, o], z3.If(began, u.enum("came", dest.zone), s.get("came_from", g, o)))
    return changes


def copy(enc: Encoder, s: SymState, sel_spec: Selector, dest: Destination, label: str) -> SymState:
    """Encode a copy-to step: each selected card whose destination exists (`_destination`)
    gets a new object there and stays where it is, as `model.object_steps.copy_card` reads it.

    Which objects are new is not known in advance, so the step introduces two functions
    (`Universe.maker`): `twin`, the new object made from each copied card, and `source`, its
    inverse, so that the new objects are one per copied card, each fresh
    (`Encoder.fresh_object`); an object is made (`made`) when it is the twin of its source
    and that source is copied. A new object takes the destination, no counters, phased in,
    nothing acting on it, its card's owner as owner and controller (or the event's controller,
    if the step says so), face up or down as the step says (else as its card), its card's
    abilities; a copy (`as = "copy"`) is no card and remembers the game it was made in, the
    card again (`as = "card"`) keeps the card's kind, characteristics, commander designation
    and deck and records the card it is a second place of (`same_card`)."""
    u = enc.u
    o = u.const("o", "obj")
    r = enc.role(dest.game)
    if r is None:
        return enc.next_state(s, label)
    game, bound = r
    valid, player, deck = _destination(enc, s, sel_spec, dest, o, game, bound)
    copied = z3.And(selected(enc, s, sel_spec, o), s.get("kind", o) == u.enum("kind", "card"),
                    *valid)
    obj = u.sorts["obj"]
    twin = u.maker("twin", obj, obj)
    source = u.maker("source", obj, obj)
    x = u.const("x!copy", "obj")
    src = source(x)
    enc.constraints.append(u.forall([o], z3.Implies(copied, z3.And(
        source(twin(o)) == o, enc.fresh_object(s, twin(o))))))

    def of_card(value: Any) -> Any:  # a value of the card each new object was made from
        return z3.substitute(value, (o, src))

    made = z3.And(of_card(copied), twin(src) == x)  # `x` is new, made from its source card

    def put(attribute: str, value: Any) -> Any:
        return z3.Lambda([x], z3.If(made, value, s.get(attribute, x)))

    as_card = dest.as_ == "card"

    def kept(attribute: str, otherwise: Any) -> Any:  # the card's value, or a copy's
        return put(attribute, s.get(attribute, src) if as_card else otherwise)

    owner = s.get("owner", src)
    controller = owner
    if dest.control == "event-controller" and "controller" in enc.params:
        controller = enc.params["controller"]
    face = (s.get("face_up", src) if dest.face == "keep"
            else z3.BoolVal(dest.face == "up", u.ctx))
    first = s.get("same_card", src)
    changes: dict[str, Any] = {
        "exists": put("exists", enc.true()),
        "kind": put("kind", u.enum("kind", "card" if as_card else "copy")),
        "zone": put("zone", enc.z(dest.zone)), "game": put("game", game),
        "zone_player": put("zone_player", of_card(player)),
        "zone_deck": put("zone_deck", of_card(deck)),
        "owner": put("owner", owner), "controller": put("controller", controller),
        "ctype": kept("ctype", u.enum("ctype", "none")),
        "own_deck": kept("own_deck", u.enum("deck", "none")),
        "commander": kept("commander", enc.false()),
        "permanent_card": kept("permanent_card", enc.false()),
        "aura": kept("aura", enc.false()),
        "origin": kept("origin", game),
        "face_up": put("face_up", face),
        "phased_out": put("phased_out", enc.false()),
        "has_counters": put("has_counters", enc.false()),
        "watcher": put("watcher", s.get("watcher", src)),
        "exiled_with": put("exiled_with", u.noobj),
        "same_card": put("same_card", z3.If(first == u.noobj, src, first) if as_card
                         else u.noobj),
    }
    changes.update(_marks(enc, s, dest, x, made, game, of_card(deck)))
    return enc.next_state(s, label, **changes)


def _outside(enc: Encoder, s: SymState, o: Any, leaving: Any, label: str) -> SymState:
    """Encode `move-to = { zone = "outside" }`: each selected card goes to its owner's place
    outside the game (400.11) as a new object (400.7), face up, under its owner's control;
    any other object stays."""
    u = enc.u
    changes = _arrive(enc, s, o, leaving, enc.z(OUTSIDE), u.nogame, u.nobody,
                      u.enum("deck", "none"), s.get("owner", o))
    changes["face_up"] = z3.Lambda([o], z3.If(leaving, enc.true(), s.get("face_up", o)))
    return enc.next_state(s, label, **changes)


def _arrive(enc: Encoder, s: SymState, o: Any, moved: Any, zone: Any, game: Any, player: Any,
            deck: Any, controller: Any) -> dict[str, Any]:
    """Where each object `o` for which `moved` holds is after it moves (to `zone` of `game`, of
    `player`, in `deck`), as a new object (400.7): no counters, phased in, under `controller`,
    nothing acting on it; the others as they were. The face and the marks are the caller's."""
    changes: dict[str, Any] = {
        "zone": z3.Lambda([o], z3.If(moved, zone, s.get("zone", o))),
        "game": z3.Lambda([o], z3.If(moved, game, s.get("game", o))),
        "zone_player": z3.Lambda([o], z3.If(moved, player, s.get("zone_player", o))),
        "zone_deck": z3.Lambda([o], z3.If(moved, deck, s.get("zone_deck", o))),
        "has_counters": z3.Lambda([o], z3.If(moved, enc.false(), s.get("has_counters", o))),
        "phased_out": z3.Lambda([o], z3.If(moved, enc.false(), s.get("phased_out", o))),
        "controller": z3.Lambda([o], z3.If(moved, controller, s.get("controller", o))),
    }
    changes.update(enc.forget(s, o, moved, enc.false()))
    return changes
