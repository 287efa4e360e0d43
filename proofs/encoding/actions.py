"""The in-game actions: what happens inside a game between the rule-defined events.

Moving an object (400.7), creating one (111.1), putting or removing counters (122.1),
phasing (702.26), turning a card face up or down (708.2), a control-changing effect
(613.1b) and a player leaving the game (800.4a)
are not rulebook clauses: they are read here as the interpreter runs them, so that the
promises made of every event are proved of ordinary play too. Each is a function of the
encoder (`encoder.Encoder`), the pre-state and the active game, returning the state after
the action; `IN_GAME_ACTIONS` maps each action's event name to its function. An effect
acting ("affect") is defined by the rulebook and is in `events` instead (the catalog
counts it among the in-game actions, `invariants.catalog.IN_GAME_ACTIONS`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import z3
from shahrazad.model.objects import FACE_DOWN_ZONES, NONCARD_ZONES, NONTRADITIONAL_ZONES, PLAYER_ZONES

from .symbolic import SymState

if TYPE_CHECKING:
    from .encoder import Encoder


def _object_in_active(enc: Encoder, s: SymState, x: Any, active: Any) -> Any:
    return z3.And(x != enc.u.noobj, enc.inside(s, x), s.get("game", x) == active)


def a_move(enc: Encoder, pre: SymState, active: Any) -> SymState:
    """400.7: an object moves within the active game (or a card goes outside the game);
    a card bound for a library, hand or graveyard goes to its owner's (400.3)."""
    u = enc.u
    x = u.const("object", "obj")
    to = u.const("to", "zone")
    to_player = u.const("to-player", "player")
    to_deck = u.const("to-deck", "deck")
    is_card = pre.get("kind", x) == u.enum("kind", "card")
    player_zone = z3.Or(*(to == enc.z(k) for k in PLAYER_ZONES))
    player = z3.If(z3.And(is_card, z3.Or(player_zone, to == enc.z("deck"))),
                   pre.get("owner", x), to_player)
    nontraditional = z3.And(is_card, pre.get("ctype", x) != u.enum("ctype", "traditional"))
    allowed_noncard = z3.Or(*(z3.And(pre.get("kind", x) == u.enum("kind", k),
                                     z3.Or(*(to == enc.z(z) for z in zones)))
                              for k, zones in NONCARD_ZONES.items()))
    ceases = z3.And(z3.Not(is_card), z3.Not(allowed_noncard),
                    z3.Or(pre.get("kind", x) == u.enum("kind", "token"),
                          pre.get("kind", x) == u.enum("kind", "copy")))
    outside = to == enc.z("outside")
    exiler = u.const("exiled-with", "obj")
    enc.constraints += [
        _object_in_active(enc, pre, x, active),
        z3.Implies(outside, is_card),
        # Only a permanent card goes onto the battlefield (110.4b, 304.4, 307.4).
        z3.Implies(z3.And(is_card, to == enc.z("battlefield")), pre.get("permanent_card", x)),
        # What exiles a card is another object of the active game, a permanent or on the
        # stack (607.2a), and only into exile.
        z3.Implies(exiler != u.noobj, z3.And(
            is_card, to == enc.z("exile"), exiler != x,
            _object_in_active(enc, pre, exiler, active),
            z3.Or(pre.get("zone", exiler) == enc.z("battlefield"),
                  pre.get("zone", exiler) == enc.z("stack")))),
        z3.Implies(is_card, to != enc.z("effects")),
        z3.Implies(z3.Or(player_zone, to == enc.z("deck")),
                   z3.And(to_player != u.nobody, pre.get("plays", active, player))),
        z3.Implies(to == enc.z("deck"), z3.And(is_card, to_deck == pre.get("own_deck", x),
                                               to_deck != u.enum("deck", "none"))),
        z3.Implies(nontraditional, z3.Or(to == enc.z("outside"), *(
            z3.And(pre.get("ctype", x) == u.enum("ctype", ctype),
                   z3.Or(*(to == enc.z(k) for k in zones)))
            for ctype, zones in NONTRADITIONAL_ZONES.items()))),
        z3.Or(is_card, allowed_noncard, ceases),
    ]
    enc.params.update(object=x, to=to, to_player=to_player, to_deck=to_deck,
                      exiled_with=exiler)
    o = u.const("o", "obj")
    moved = z3.And(o == x, z3.Not(ceases))
    gone = z3.And(o == x, ceases)
    enc.forget(pre, o, o == x, gone)
    enc.exiled_by = z3.Lambda([o], z3.If(o == x, exiler, u.noobj))
    controller = z3.If(is_card, pre.get("owner", x), pre.get("controller", x))
    return enc.next_state(
        pre, "move (400.7)",
        exists=z3.Lambda([o], z3.If(gone, enc.false(), pre.get("exists", o))),
        zone=z3.Lambda([o], z3.If(moved, to, pre.get("zone", o))),
        game=z3.Lambda([o], z3.If(moved, z3.If(outside, u.nogame, active), pre.get("game", o))),
        zone_player=z3.Lambda([o], z3.If(moved, z3.If(z3.Or(player_zone, to == enc.z("deck")),
                                                      player, u.nobody),
                                         pre.get("zone_player", o))),
        zone_deck=z3.Lambda([o], z3.If(moved, z3.If(to == enc.z("deck"), to_deck,
                                                    u.enum("deck", "none")),
                                       pre.get("zone_deck", o))),
        has_counters=z3.Lambda([o], z3.If(moved, enc.false(), pre.get("has_counters", o))),
        phased_out=z3.Lambda([o], z3.If(moved, enc.false(), pre.get("phased_out", o))),
        controller=z3.Lambda([o], z3.If(moved, controller, pre.get("controller", o))),
        # A new object (400.7): face up, except in a supplementary deck (701.31b).
        face_up=z3.Lambda([o], z3.If(moved, to != enc.z("deck"), pre.get("face_up", o))),
    )


def a_create(enc: Encoder, pre: SymState, active: Any) -> SymState:
    """111.1, 707.10, 114.1, 113.3, 611.1: a new object in the active game."""
    u = enc.u
    x = u.const("new-object", "obj")
    kind = u.const("kind", "kind")
    to = u.const("to", "zone")
    controller = u.const("controller", "player")
    watcher = z3.Bool("watches", u.ctx)
    enc.constraints += [
        enc.fresh_object(pre, x), kind != u.enum("kind", "card"),
        pre.get("plays", active, controller),
        z3.Or(*(z3.And(kind == u.enum("kind", k), z3.Or(*(to == enc.z(z) for z in zones)))
                for k, zones in NONCARD_ZONES.items())),
    ]
    enc.params.update(object=x, kind=kind, to=to, controller=controller, watcher=watcher)
    o = u.const("o", "obj")
    this = o == x

    def put(attribute: str, value: Any) -> Any:
        return z3.Lambda([o], z3.If(this, value, pre.get(attribute, o)))

    return enc.next_state(
        pre, "create",
        exists=put("exists", enc.true()), kind=put("kind", kind), zone=put("zone", to),
        game=put("game", active), origin=put("origin", active),
        zone_player=put("zone_player", u.nobody), zone_deck=put("zone_deck", u.enum("deck", "none")),
        owner=put("owner", controller), controller=put("controller", controller),
        ctype=put("ctype", u.enum("ctype", "none")), own_deck=put("own_deck", u.enum("deck", "none")),
        commander=put("commander", enc.false()), face_up=put("face_up", enc.true()),
        phased_out=put("phased_out", enc.false()), has_counters=put("has_counters", enc.false()),
        permanent_card=put("permanent_card", enc.false()), aura=put("aura", enc.false()),
        exiled_with=put("exiled_with", u.noobj), same_card=put("same_card", u.noobj),
        watcher=put("watcher", watcher))


def a_counter(enc: Encoder, pre: SymState, active: Any) -> SymState:
    """122.1: counters on a player (kept per game, 728.4b) or on an object change. An object's
    counters are kept as whether it has any: losing some needs some, and may leave none."""
    u = enc.u
    on_player = z3.Bool("on-player", u.ctx)
    who = u.const("player", "player")
    x = u.const("object", "obj")
    add = z3.Int("add", u.ctx)
    left = z3.Bool("counters-left", u.ctx)
    total = pre.get("counters", active, who) + add
    enc.constraints += [
        # Exactly one of a player and an object gets them: the other is named by no one.
        z3.If(on_player, z3.And(pre.get("plays", active, who), total >= 0, x == u.noobj),
              z3.And(_object_in_active(enc, pre, x, active), who == u.nobody)),
        z3.Implies(z3.And(z3.Not(on_player), add > 0), left),
        # An object loses counters only if it has some (their number is not kept).
        z3.Implies(z3.And(z3.Not(on_player), add < 0), pre.get("has_counters", x)),
        z3.Implies(z3.And(z3.Not(on_player), z3.Not(pre.get("has_counters", x))),
                   left == (add > 0)),
    ]
    enc.params.update(on_player=on_player, player=who, object=x, add=add, left=left)
    g = u.const("g", "game")
    p = u.const("p", "player")
    o = u.const("o", "obj")
    return enc.next_state(
        pre, "counters (122.1)",
        counters=z3.Lambda([g, p], z3.If(z3.And(on_player, g == active, p == who), total,
                                         pre.get("counters", g, p))),
        has_counters=z3.Lambda([o], z3.If(z3.And(z3.Not(on_player), o == x), left,
                                          pre.get("has_counters", o))))


def a_phase(enc: Encoder, pre: SymState, active: Any) -> SymState:
    """702.26: a permanent phases out or in."""
    u = enc.u
    x = u.const("object", "obj")
    out = z3.Bool("out", u.ctx)
    enc.constraints += [_object_in_active(enc, pre, x, active),
                        pre.get("zone", x) == enc.z("battlefield")]
    enc.params.update(object=x, out=out)
    o = u.const("o", "obj")
    return enc.next_state(pre, "phasing (702.26)", phased_out=z3.Lambda(
        [o], z3.If(o == x, out, pre.get("phased_out", o))))


def a_turn(enc: Encoder, pre: SymState, active: Any) -> SymState:
    """708.2, 406.3: a card, token or copy on the battlefield, on the stack, in exile or in
    the command zone turns face up or down."""
    u = enc.u
    x = u.const("object", "obj")
    up = z3.Bool("face-up", u.ctx)
    enc.constraints += [
        _object_in_active(enc, pre, x, active),
        z3.Or(*(pre.get("kind", x) == u.enum("kind", k) for k in ("card", "token", "copy"))),
        z3.Or(*(pre.get("zone", x) == enc.z(k) for k in FACE_DOWN_ZONES if k != "deck")),
        # A face-down permanent whose card is no permanent card stays face down (701.40b).
        z3.Implies(z3.And(up, pre.get("zone", x) == enc.z("battlefield"),
                          pre.get("kind", x) == u.enum("kind", "card")),
                   pre.get("permanent_card", x)),
    ]
    enc.params.update(object=x, up=up)
    o = u.const("o", "obj")
    return enc.next_state(pre, "turned", face_up=z3.Lambda(
        [o], z3.If(o == x, up, pre.get("face_up", o))))


def a_leave(enc: Encoder, pre: SymState, active: Any) -> SymState:
    """800.4a: a player leaves the active game; what they own leaves with them, the
    abilities they control cease, the other objects they control are exiled."""
    u = enc.u
    who = u.const("player", "player")
    other = u.const("another", "player")
    third = u.const("a-third", "player")
    # Two others stay: a player whose last opponent leaves wins, and the game is over
    # (104.2a).
    enc.constraints += [pre.get("plays", active, who), pre.get("plays", active, other),
                        pre.get("plays", active, third), other != who, third != who,
                        third != other]
    enc.params.update(player=who)
    o = u.const("o", "obj")
    here = z3.And(enc.inside(pre, o), pre.get("game", o) == active)
    is_card = pre.get("kind", o) == u.enum("kind", "card")
    owned = z3.And(here, pre.get("owner", o) == who)
    to_outside = z3.And(owned, is_card)
    controlled = z3.And(here, z3.Not(owned), pre.get("controller", o) == who)
    ceases = z3.Or(z3.And(owned, z3.Not(is_card)), z3.And(controlled, z3.Not(is_card)))
    exiled = z3.And(controlled, is_card)
    moved = z3.Or(to_outside, exiled)
    enc.forget(pre, o, z3.Or(moved, ceases), ceases)
    g = u.const("g", "game")
    p = u.const("p", "player")
    e = u.const("e", "obj")
    state = enc.next_state(
        pre, "leave (800.4a)",
        plays=z3.Lambda([g, p], z3.If(z3.And(g == active, p == who), enc.false(),
                                      pre.get("plays", g, p))),
        counters=z3.Lambda([g, p], z3.If(z3.And(g == active, p == who), z3.IntVal(0, u.ctx),
                                         pre.get("counters", g, p))),
        exists=z3.Lambda([o], z3.If(ceases, enc.false(), pre.get("exists", o))),
        zone=z3.Lambda([o], z3.If(to_outside, enc.z("outside"),
                                  z3.If(exiled, enc.z("exile"), pre.get("zone", o)))),
        game=z3.Lambda([o], z3.If(to_outside, u.nogame, pre.get("game", o))),
        zone_player=z3.Lambda([o], z3.If(moved, u.nobody, pre.get("zone_player", o))),
        zone_deck=z3.Lambda([o], z3.If(moved, u.enum("deck", "none"), pre.get("zone_deck", o))),
        has_counters=z3.Lambda([o], z3.If(moved, enc.false(), pre.get("has_counters", o))),
        phased_out=z3.Lambda([o], z3.If(moved, enc.false(), pre.get("phased_out", o))),
        face_up=z3.Lambda([o], z3.If(moved, enc.true(), pre.get("face_up", o))),
        controller=z3.Lambda([o], z3.If(moved, pre.get("owner", o), pre.get("controller", o))),
        # The effects of the game left stop acting on the player (800.4a); an effect of
        # another game still acts on them there (728.1b).
        affects_player=z3.Lambda([e, p], z3.And(pre.get("affects_player", e, p), z3.Or(
            p != who, z3.Not(z3.And(enc.inside(pre, e), pre.get("game", e) == active))))),
    )
    return state


def a_control(enc: Encoder, pre: SymState, active: Any) -> SymState:
    """613.1b, 110.2: a player of the active game gains control of a permanent, or of a
    spell or ability on the stack."""
    u = enc.u
    x = u.const("object", "obj")
    who = u.const("player", "player")
    enc.constraints += [
        _object_in_active(enc, pre, x, active), pre.get("plays", active, who),
        z3.Or(pre.get("zone", x) == enc.z("battlefield"), pre.get("zone", x) == enc.z("stack")),
    ]
    enc.params.update(object=x, player=who)
    o = u.const("o", "obj")
    return enc.next_state(pre, "control (613.1b)", controller=z3.Lambda(
        [o], z3.If(o == x, who, pre.get("controller", o))))


# Each in-game action, by event name: a function of the encoder, the pre-state and the
# active game, returning the state after the action.
IN_GAME_ACTIONS: dict[str, Callable[[Encoder, SymState, Any], SymState]] = {
    "move": a_move, "create": a_create, "counter": a_counter, "phase": a_phase,
    "turn": a_turn, "leave": a_leave, "control": a_control,
}
