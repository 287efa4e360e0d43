"""The rule-defined events: their parameters and preconditions, before any clause runs.

Each event whose behaviour the rulebook defines (`model.language.EVENT_ROLES`: starting
and ending a subgame, restarting the game, bringing a card in from outside the game, an
effect acting) has parameters (the card, the player, the result, ...) and preconditions,
the same checks the interpreter makes before it runs the clauses; the rulebook's
permissions and prohibitions widen or narrow them. Each function here declares them on
the encoder (`encoder.Encoder`: constraints, parameters, the game roles it binds) and
returns the state the clauses start from; bringing a card in and an effect acting also
change the state themselves (400.11b, 611.1). `RULE_EVENTS` maps each event's name to
its function; the in-game actions, which no clause acts on, are in `actions`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import z3
from shahrazad.model.objects import PLAYER_ZONES

from .symbolic import SymState

if TYPE_CHECKING:
    from .encoder import Encoder

BRING_IN_ZONES = ("library", "hand", "graveyard", "battlefield", "exile", "command", "stack")


def e_start_subgame(enc: Encoder, pre: SymState, active: Any) -> SymState:
    """`start-subgame`: a player of the active game (`by`) creates a subgame with a spell or
    ability on its stack (728.1a), within a subgame only where a clause permits it (728.6).
    With none named (`made`), the event makes its creating effect, a new ability of `by` on the
    stack, as the interpreter does. Binds `main` to the active game."""
    u = enc.u
    if enc.rb.grants("start-subgame", "permit", "nested-subgame") is None:
        enc.constraints.append(z3.Not(pre.get("has_parent", active)))
    creator = u.const("via", "obj")
    by = u.const("by", "player")
    # With no spell or ability named, the event makes its own creating effect: a new
    # ability of `by` on the active game's stack, as the interpreter does.
    made = z3.Bool("creator-made", u.ctx)
    enc.constraints += [creator != u.noobj, pre.get("plays", active, by),
                        z3.If(made, enc.fresh_object(pre, creator), z3.And(
                            enc.inside(pre, creator), pre.get("game", creator) == active,
                            pre.get("zone", creator) == enc.z("stack")))]
    enc.params.update(creator=creator, by=by, controller=by, made=made)
    enc.bind("main", active)
    o = u.const("o", "obj")
    this = z3.And(made, o == creator)

    def put(attribute: str, value: Any) -> Any:
        return z3.Lambda([o], z3.If(this, value, pre.get(attribute, o)))

    return enc.next_state(
        pre, "the creating effect",
        exists=put("exists", enc.true()), kind=put("kind", u.enum("kind", "ability")),
        zone=put("zone", enc.z("stack")), game=put("game", active),
        origin=put("origin", active), zone_player=put("zone_player", u.nobody),
        zone_deck=put("zone_deck", u.enum("deck", "none")), owner=put("owner", by),
        controller=put("controller", by), ctype=put("ctype", u.enum("ctype", "none")),
        own_deck=put("own_deck", u.enum("deck", "none")), commander=put("commander", enc.false()),
        face_up=put("face_up", enc.true()), phased_out=put("phased_out", enc.false()),
        has_counters=put("has_counters", enc.false()), watcher=put("watcher", enc.false()),
        permanent_card=put("permanent_card", enc.false()), aura=put("aura", enc.false()),
        exiled_with=put("exiled_with", u.noobj), same_card=put("same_card", u.noobj))


def e_end_subgame(enc: Encoder, pre: SymState, active: Any) -> SymState:
    """`end-subgame`: the active game, which has a main game, ends (728.1a) with a result: a win
    for the players of it in `winners` (some exactly when the result is a win), a draw, or none.
    Binds `subgame` to it and `main` to its main game; `creator` is the spell or ability that
    created it, if it has one."""
    u = enc.u
    result = u.const("result", "result")
    winners = z3.Array("winners", u.sorts["player"], u.sorts["bool"])
    p = u.const("p", "player")
    enc.constraints += [
        pre.get("has_parent", active),
        z3.Or(result == u.enum("result", "win"), result == u.enum("result", "draw"),
              result == u.enum("result", "none")),
        enc.u.forall([p], z3.Implies(z3.Select(winners, p), pre.get("plays", active, p))),
        (result == u.enum("result", "win")) == enc.u.exists([p], z3.Select(winners, p)),
    ]
    creator = z3.If(pre.get("has_creator", active), pre.get("created_by", active), u.noobj)
    enc.params.update(result=result, winners=winners, creator=creator)
    enc.bind("subgame", active)
    enc.bind("main", pre.get("parent", active))
    return pre


def e_restart(enc: Encoder, pre: SymState, active: Any) -> SymState:
    """`restart`: a player of the active game (`controller`) restarts it (726.1) with the
    ability of `source` (none, or an object of the game), with Karn Liberated's further
    instruction or without it (`then`, 726.4). The cards exempt (726.5) are computed, as
    `model.event_steps.exempt_cards` computes them: the traditional, non-Aura permanent cards
    in the game's exile exiled with `source`. Binds `restarted`, and `main` where the game has
    a main game (726.6)."""
    u = enc.u
    controller = u.const("controller", "player")
    source = u.const("source", "obj")
    then = z3.Bool("then-battlefield", u.ctx)
    o = u.const("o", "obj")
    exempt = z3.Lambda([o], z3.And(
        source != u.noobj, enc.inside(pre, o), pre.get("game", o) == active,
        pre.get("kind", o) == u.enum("kind", "card"), pre.get("zone", o) == enc.z("exile"),
        pre.get("ctype", o) == u.enum("ctype", "traditional"),
        pre.get("exiled_with", o) == source, pre.get("permanent_card", o),
        z3.Not(pre.get("aura", o))))
    enc.constraints += [
        pre.get("plays", active, controller),
        # An object of the game, or one no longer there (its ability still resolves, 112.7a).
        z3.Or(source == u.noobj, z3.Not(pre.get("exists", source)),
              z3.And(enc.inside(pre, source), pre.get("game", source) == active)),
    ]
    enc.params.update(controller=controller, exempt=exempt, then=then, source=source)
    enc.bind("restarted", active)
    enc.bind("main", pre.get("parent", active), pre.get("has_parent", active))
    return pre


def e_bring_in(enc: Encoder, pre: SymState, active: Any) -> SymState:
    """`bring-in`: a card comes into the active game from outside the game (400.11b) or, where a
    clause permits it, from a main game (728.4), for a player of the game (`by`). Its owner
    plays there, it is not phased out, and it is traditional, or a dungeon put into the command
    zone (701.49a).

    The card moves before the clauses run, as a new object (400.7): face up, in its owner's
    zone if the zone is a player's (400.3), controlled by `by` on the battlefield or the stack
    and by its owner elsewhere (108.4); the active game records that it came in from a main
    game or from outside (`came_from`). Binds `source` to the game it came from, if any.
    """
    u = enc.u
    card = u.const("card", "obj")
    to = u.const("to", "zone")
    by = u.const("by", "player")
    inside = enc.inside(pre, card)
    source = pre.get("game", card)
    allowed_from = [z3.Not(inside)]
    if enc.rb.grants("bring-in", "permit", "bring-in-from-main-game") is not None:
        # From a main game of the active game (728.4): a live game above it, so the active
        # game is a subgame (the interpreter asks for an ancestor).
        allowed_from.append(z3.And(inside, source != active, pre.get("live", source),
                                   pre.get("has_parent", active)))
    enc.constraints += [
        card != u.noobj, pre.get("exists", card), pre.get("kind", card) == u.enum("kind", "card"),
        z3.Or(*allowed_from), z3.Not(pre.get("phased_out", card)),
        z3.Or(*(to == enc.z(k) for k in BRING_IN_ZONES)), pre.get("plays", active, by),
        z3.Or(pre.get("ctype", card) == u.enum("ctype", "traditional"),
              z3.And(pre.get("ctype", card) == u.enum("ctype", "dungeon"),
                     to == enc.z("command"))),
        pre.get("plays", active, pre.get("owner", card)),
        # Only a permanent card goes onto the battlefield (110.4b).
        z3.Implies(to == enc.z("battlefield"), pre.get("permanent_card", card)),
    ]
    enc.params.update(card=card, to=to, by=by, controller=by)
    enc.bind("source", source, inside)
    # The card moves (400.11b) before the clauses run, as in the interpreter.
    o = u.const("o", "obj")
    g = u.const("g", "game")
    this = o == card
    player_zone = z3.Or(*(to == enc.z(k) for k in PLAYER_ZONES))
    return enc.next_state(
        pre, "bring-in: the card moves (400.11b)",
        zone=z3.Lambda([o], z3.If(this, to, pre.get("zone", o))),
        game=z3.Lambda([o], z3.If(this, active, pre.get("game", o))),
        zone_player=z3.Lambda([o], z3.If(this, z3.If(player_zone, pre.get("owner", card),
                                                     u.nobody),
                                         pre.get("zone_player", o))),
        zone_deck=z3.Lambda([o], z3.If(this, u.enum("deck", "none"), pre.get("zone_deck", o))),
        has_counters=z3.Lambda([o], z3.If(this, enc.false(), pre.get("has_counters", o))),
        phased_out=z3.Lambda([o], z3.If(this, enc.false(), pre.get("phased_out", o))),
        face_up=z3.Lambda([o], z3.If(this, enc.true(), pre.get("face_up", o))),
        # A permanent or a spell has a controller; any other card is its owner's (108.4).
        controller=z3.Lambda([o], z3.If(this, z3.If(z3.Or(to == enc.z("battlefield"),
                                                          to == enc.z("stack")),
                                                    by, pre.get("owner", card)),
                                        pre.get("controller", o))),
        # The active game records how the card came in: from a main game, or from outside.
        came_from=z3.Lambda([g, o], z3.If(z3.And(g == active, this),
                                          z3.If(inside, u.enum("came", "main-game"),
                                                u.enum("came", "outside")),
                                          pre.get("came_from", g, o))),
        **enc.forget(pre, o, this, enc.false()),
    )


def e_affect(enc: Encoder, pre: SymState, active: Any) -> SymState:
    """`affect`: an effect starts acting on an object or a player (611.1). Where a clause forbids
    cross-game effects, the effect is of the active game and acts only on an object in that
    game or a player who plays there (728.1b)."""
    u = enc.u
    effect = u.const("effect", "obj")
    target = u.const("target", "obj")
    target_player = u.const("target-player", "player")
    on_player = z3.Bool("on-player", u.ctx)
    e_game = pre.get("game", effect)
    enc.constraints += [
        effect != u.noobj, pre.get("exists", effect),
        pre.get("kind", effect) == u.enum("kind", "effect"),
        z3.Or(on_player, z3.And(target != u.noobj, pre.get("exists", target))),
        z3.Or(z3.Not(on_player), target_player != u.nobody),
    ]
    if enc.rb.grants("affect", "forbid", "cross-game-effects") is not None:
        enc.constraints.append(z3.And(e_game == active, z3.If(
            on_player, pre.get("plays", e_game, target_player),
            z3.And(enc.inside(pre, target), pre.get("game", target) == e_game))))
    enc.params.update(effect=effect, target=target, target_player=target_player,
                      on_player=on_player)
    e = u.const("e", "obj")
    o = u.const("o", "obj")
    p = u.const("p", "player")
    return enc.next_state(
        pre, "affect: the effect acts (611.1)",
        affects=z3.Lambda([e, o], z3.Or(pre.get("affects", e, o), z3.And(
            z3.Not(on_player), e == effect, o == target))),
        affects_player=z3.Lambda([e, p], z3.Or(pre.get("affects_player", e, p), z3.And(
            on_player, e == effect, p == target_player))))


# Each rule-defined event, by name: a function of the encoder, the pre-state and the
# active game, returning the state the event's clauses start from.
RULE_EVENTS: dict[str, Callable[[Encoder, SymState, Any], SymState]] = {
    "start-subgame": e_start_subgame,
    "end-subgame": e_end_subgame,
    "restart": e_restart,
    "bring-in": e_bring_in,
    "affect": e_affect,
}
