"""Game steps: the rulebook's steps that act on games, players and permissions.

A step without a `select` names one action of `model.language.GAME_ACTIONS` and its
arguments: create a game, suspend or resume one, end it, destroy its zones, choose its
starting player, queue and release triggers, copy counters, and so on. Each is a
function of the encoder (`encoder.Encoder`), the state before the step, the step's
arguments and its label, returning the state after it. `GAME_STEPS` maps each action,
spelt as in the rulebook ("create-game", "finish-resolving", ...), to its function; the
encoder dispatches through it. A step naming a game role that no clause bound raises
`encoder.Unbound` (through `Encoder.game_of`): the interpreter refuses such an event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import z3
from shahrazad.model.language import PROCEDURE_STAGES

from .symbolic import SymState

if TYPE_CHECKING:
    from .encoder import Encoder


def _set_game(s: SymState, attribute: str, game: Any, value: Any) -> Any:
    return z3.Store(s.arrays[attribute], game, value)


def g_permit(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    return s


g_forbid = g_permit  # a prohibition, like a permission, acts through the events that consult it


def g_shuffle(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    return s  # order within zones is not part of the symbolic state


def g_create_game(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    u = enc.u
    if enc.role(args["players"]) is None:
        enc.unsupported.append(f"{label}: create-game from an unbound role")
        return s
    # A role bound only in some situations (the main game of a restarted game that has
    # one) makes the event impossible in the others, as the interpreter refuses it there.
    src_game = enc.game_of(args["players"])
    new = u.fresh("new-game", "game")
    o = u.const("o", "obj")
    g = u.const("g", "game")
    p = u.const("p", "player")
    enc.constraints += [
        new != u.nogame, z3.Not(s.get("present", new)), z3.Not(s.get("live", new)),
        # A game that ended keeps its result: a new game is one that never was.
        s.get("result", new) == u.enum("result", "running"),
        enc.u.forall([o], z3.Implies(s.get("exists", o), z3.And(s.get("game", o) != new,
                                                             s.get("origin", o) != new))),
        enc.u.forall([g], z3.Implies(s.get("present", g), s.get("parent", g) != new)),
    ]
    parent_role = args["parent"]
    if parent_role == "parent-of-restarted":
        has_parent = s.get("has_parent", src_game)
        parent = s.get("parent", src_game)
    elif parent_role == "none":
        has_parent, parent = enc.false(), u.nogame
    else:
        # As for any game step, a parent role the event has not bound makes it impossible.
        has_parent, parent = enc.true(), enc.game_of(parent_role)
    enc.new_parents.append(parent)
    plays = s.get("plays", src_game, p)
    if enc.event == "restart" and enc.rb.grants("restart", "permit",
                                                "restart-ignores-range") is None:
        in_range = z3.Function("in_range", u.sorts["game"], u.sorts["player"],
                               u.sorts["player"], u.sorts["bool"])
        enc.params["in_range"] = (in_range, src_game)
        ctrl = enc.params["controller"]
        enc.constraints.append(in_range(src_game, ctrl, ctrl))
        plays = z3.And(plays, z3.Or(z3.Not(s.get("limited_range", src_game)),
                                    in_range(src_game, ctrl, p)))
    zero = z3.IntVal(0, u.ctx)
    none_deck = u.enum("deck", "none")

    def row(attribute: str, value: Any) -> Any:
        return z3.Lambda([g, p], z3.If(g == new, value, s.get(attribute, g, p)))

    def obj_row(attribute: str, value: Any) -> Any:
        return z3.Lambda([g, o], z3.If(g == new, value, s.get(attribute, g, o)))

    creator = enc.params.get("creator", u.noobj) if enc.event == "start-subgame" else u.noobj
    changes = {
        "present": _set_game(s, "present", new, enc.true()),
        "live": _set_game(s, "live", new, enc.true()),
        "active": _set_game(s, "active", new, enc.true()),
        "suspended": _set_game(s, "suspended", new, enc.false()),
        "has_parent": _set_game(s, "has_parent", new, has_parent),
        "parent": _set_game(s, "parent", new, z3.If(has_parent, parent, u.nogame)),
        "depth": _set_game(s, "depth", new, z3.If(has_parent,
                                                  s.get("depth", parent) + 1, zero)),
        "result": _set_game(s, "result", new, u.enum("result", "running")),
        "stage": _set_game(s, "stage", new, u.enum("stage", "new")),
        "out_of_order": _set_game(s, "out_of_order", new, enc.false()),
        "instructions_at": _set_game(s, "instructions_at", new, u.enum("stage", "none")),
        "has_creator": _set_game(s, "has_creator", new,
                                 z3.BoolVal(enc.event == "start-subgame", u.ctx)),
        "created_by": _set_game(s, "created_by", new, creator),
        "limited_range": _set_game(s, "limited_range", new,
                                   s.get("limited_range", src_game)),
        "plays": z3.Lambda([g, p], z3.If(g == new, plays, s.get("plays", g, p))),
        "counters": row("counters", zero),
        "starts": row("starts", enc.false()),
        "doomed": row("doomed", enc.false()),
        "began_in_deck": obj_row("began_in_deck", none_deck),
        "came_from": obj_row("came_from", u.enum("came", "none")),
        "waiting": obj_row("waiting", enc.false()),
        "resolved": obj_row("resolved", enc.false()),
    }
    enc.bind(args["game"], new)
    return enc.next_state(s, label, **changes)


def _status(enc: Encoder, s: SymState, game: Any, **values: bool) -> dict[str, Any]:
    return {k: _set_game(s, k, game, z3.BoolVal(v, enc.u.ctx)) for k, v in values.items()}


def _status_if_live(enc: Encoder, s: SymState, game: Any, **values: bool) -> dict[str, Any]:
    """`_status`, for a game that is live; a game that has ended keeps its status. Before any
    end-game step of the event, the game of every role is live (the active game and its
    main games, 728.1a, or a game the event made), and the status is set as it is: the
    terms of the official rules' start of a subgame are as they were (a guard there made z3
    work 18% longer on that event's goals, for nothing)."""
    if not enc.ended_a_game:
        return _status(enc, s, game, **values)
    live = s.get("live", game)
    return {k: _set_game(s, k, game, z3.If(live, z3.BoolVal(v, enc.u.ctx),
                                             s.get(k, game)))
            for k, v in values.items()}


def g_suspend(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    """The game is discontinued (728.1a), unless it has ended (`g_resume`)."""
    game = enc.game_of(args["_"])
    return enc.next_state(s, label, **_status_if_live(enc, s, game, active=False,
                                                      suspended=True))


def g_resume(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    """The game resumes (728.1a), unless it has ended, as the interpreter reads the step
    (`model.game_steps.g_resume`): an amendment that ends the main game as a subgame ends
    and then resumes it had the encoder make a game active that is no longer live."""
    game = enc.game_of(args["_"])
    return enc.next_state(s, label, **_status_if_live(enc, s, game, active=True,
                                                      suspended=False))


def g_end_game(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    game = enc.game_of(args["game"])
    value = (enc.u.enum("result", "restarted") if args["result"] == "restarted"
             else enc.params["result"])
    changes = _status(enc, s, game, live=False, active=False, suspended=False)
    changes["result"] = _set_game(s, "result", game, value)
    return enc.next_state(s, label, **changes)


def g_destroy_zones(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    """The game's record goes: what the concrete reading says of a game that is gone."""
    u = enc.u
    game = enc.game_of(args["_"])
    g = u.const("g", "game")
    p = u.const("p", "player")
    o = u.const("o", "obj")
    changes = _status(enc, s, game, present=False, live=False, active=False, suspended=False,
                      has_parent=False, has_creator=False, limited_range=False,
                      out_of_order=False)
    changes["parent"] = _set_game(s, "parent", game, u.nogame)
    changes["stage"] = _set_game(s, "stage", game, u.enum("stage", "none"))
    changes["instructions_at"] = _set_game(s, "instructions_at", game, u.enum("stage", "none"))
    # A game's depth is the number of its ancestors still present (the concrete reading
    # walks up its parents until one is gone): below the destroyed game, the games that
    # hang under it (in a situation whose live games form a chain, those deeper than it)
    # count only the ancestors between them and it. The active game, under which this
    # event created no game, has none below it (structure.active-is-deepest).
    changes["depth"] = _set_game(s, "depth", game, z3.IntVal(0, u.ctx))
    active = enc.role("active")
    if active is None or not game.eq(active[0]) or any(game.eq(p) for p in enc.new_parents):
        gone_depth = s.get("depth", game)
        changes["depth"] = z3.Lambda([g], z3.If(
            g == game, z3.IntVal(0, u.ctx),
            z3.If(z3.And(s.get("present", g), s.get("depth", g) > gone_depth),
                  s.get("depth", g) - gone_depth - 1, s.get("depth", g))))
    changes["created_by"] = _set_game(s, "created_by", game, u.noobj)
    for attribute in ("plays", "starts", "doomed"):
        changes[attribute] = z3.Lambda([g, p], z3.If(g == game, enc.false(),
                                                     s.get(attribute, g, p)))
    for attribute in ("waiting", "resolved"):
        changes[attribute] = z3.Lambda([g, o], z3.If(g == game, enc.false(),
                                                     s.get(attribute, g, o)))
    changes["began_in_deck"] = z3.Lambda([g, o], z3.If(g == game, u.enum("deck", "none"),
                                                       s.get("began_in_deck", g, o)))
    changes["came_from"] = z3.Lambda([g, o], z3.If(g == game, u.enum("came", "none"),
                                                   s.get("came_from", g, o)))
    return enc.next_state(s, label, **changes)


def _advance(enc: Encoder, s: SymState, game: Any, stage: str) -> dict[str, Any]:
    """The game's start reaches `stage` (rule 103): out of order unless it was at the stage
    just before (`model.game_steps.advance`)."""
    u = enc.u
    previous = u.enum("stage", PROCEDURE_STAGES[PROCEDURE_STAGES.index(stage) - 1])
    in_order = s.get("stage", game) == previous
    return {"stage": _set_game(s, "stage", game, u.enum("stage", stage)),
            "out_of_order": _set_game(s, "out_of_order", game,
                                      z3.Or(s.get("out_of_order", game), z3.Not(in_order)))}


def g_procedure(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    game = enc.game_of(args["game"])
    return enc.next_state(s, label, **_advance(enc, s, game, args["stage"]))


def g_starting_player(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    u = enc.u
    game = enc.game_of(args["game"])
    g = u.const("g", "game")
    p = u.const("p", "player")
    if args["choose"] == "random":
        chosen = u.fresh("starting", "player")
        enc.params.setdefault("random_starting", []).append(chosen)
        q = u.const("q", "player")
        enc.constraints.append(z3.Or(s.get("plays", game, chosen),
                                     enc.u.forall([q], z3.Not(s.get("plays", game, q)))))
        condition = s.get("plays", game, chosen)
    else:
        chosen = enc.params["controller"]
        condition = enc.true()
    starts = z3.Lambda([g, p], z3.If(z3.And(g == game, condition), p == chosen,
                                     s.get("starts", g, p)))
    return enc.next_state(s, label, starts=starts, **_advance(enc, s, game, "starting-player"))


def g_short_library(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    u = enc.u
    game = enc.game_of(args["game"])
    g = u.const("g", "game")
    p = u.const("p", "player")
    doomed = z3.Lambda([g, p], z3.If(g == game, z3.And(
        s.get("plays", game, p),
        s.get("library_size", game, p) < z3.IntVal(int(args["minimum"]), u.ctx)),
        s.get("doomed", g, p)))
    return enc.next_state(s, label, doomed=doomed)


def g_cease_player_counters(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    u = enc.u
    game = enc.game_of(args["_"])
    g = u.const("g", "game")
    p = u.const("p", "player")
    counters = z3.Lambda([g, p], z3.If(g == game, z3.IntVal(0, u.ctx), s.get("counters", g, p)))
    return enc.next_state(s, label, counters=counters)


def g_copy_player_counters(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    u = enc.u
    source, target = enc.game_of(args["from"]), enc.game_of(args["to"])
    g = u.const("g", "game")
    p = u.const("p", "player")
    counters = z3.Lambda([g, p], z3.If(z3.And(g == target, s.get("plays", target, p)),
                                       s.get("counters", source, p), s.get("counters", g, p)))
    return enc.next_state(s, label, counters=counters)


def g_finish_resolving(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    u = enc.u
    game = enc.game_of(args["_"])
    c = enc.params.get("creator", u.noobj)
    has = c != u.noobj
    o = u.const("o", "obj")
    g = u.const("g", "game")
    on_stack = z3.And(has, enc.inside(s, c), s.get("game", c) == game,
                      s.get("zone", c) == enc.z("stack"))
    is_card = s.get("kind", c) == u.enum("kind", "card")
    to_grave = z3.And(on_stack, is_card, s.get("plays", game, s.get("owner", c)))
    ceases = z3.And(on_stack, z3.Not(is_card))
    this = o == c
    changes = {
        "resolved": z3.Lambda([g, o], z3.If(z3.And(has, g == game, this), enc.true(),
                                            s.get("resolved", g, o))),
        "exists": z3.Lambda([o], z3.If(z3.And(this, ceases), enc.false(), s.get("exists", o))),
        "zone": z3.Lambda([o], z3.If(z3.And(this, to_grave), enc.z("graveyard"),
                                     s.get("zone", o))),
        "zone_player": z3.Lambda([o], z3.If(z3.And(this, to_grave), s.get("owner", o),
                                            s.get("zone_player", o))),
        "has_counters": z3.Lambda([o], z3.If(z3.And(this, to_grave), enc.false(),
                                             s.get("has_counters", o))),
        "phased_out": z3.Lambda([o], z3.If(z3.And(this, to_grave), enc.false(),
                                           s.get("phased_out", o))),
        "controller": z3.Lambda([o], z3.If(z3.And(this, to_grave), s.get("owner", o),
                                           s.get("controller", o))),
        "face_up": z3.Lambda([o], z3.If(z3.And(this, to_grave), enc.true(),
                                        s.get("face_up", o))),
    }
    # Nothing acts on the spell card that moved or on the ability that ceased (400.7).
    changes.update(enc.forget(s, o, z3.And(this, z3.Or(to_grave, ceases)),
                              z3.And(this, ceases)))
    return enc.next_state(s, label, **changes)


def g_release_triggers(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    u = enc.u
    game = enc.game_of(args["_"])
    o = u.const("o", "obj")
    g = u.const("g", "game")
    w = s.get("waiting", game, o)
    controller = s.get("trigger_controller", game, o)
    changes = {
        "exists": z3.Lambda([o], z3.Or(w, s.get("exists", o))),
        "zone": z3.Lambda([o], z3.If(w, enc.z("stack"), s.get("zone", o))),
        "game": z3.Lambda([o], z3.If(w, game, s.get("game", o))),
        "origin": z3.Lambda([o], z3.If(w, game, s.get("origin", o))),
        "zone_player": z3.Lambda([o], z3.If(w, u.nobody, s.get("zone_player", o))),
        "zone_deck": z3.Lambda([o], z3.If(w, u.enum("deck", "none"), s.get("zone_deck", o))),
        "kind": z3.Lambda([o], z3.If(w, u.enum("kind", "ability"), s.get("kind", o))),
        "ctype": z3.Lambda([o], z3.If(w, u.enum("ctype", "none"), s.get("ctype", o))),
        "own_deck": z3.Lambda([o], z3.If(w, u.enum("deck", "none"), s.get("own_deck", o))),
        "owner": z3.Lambda([o], z3.If(w, controller, s.get("owner", o))),
        "controller": z3.Lambda([o], z3.If(w, controller, s.get("controller", o))),
        "commander": z3.Lambda([o], z3.If(w, enc.false(), s.get("commander", o))),
        "face_up": z3.Lambda([o], z3.If(w, enc.true(), s.get("face_up", o))),
        "phased_out": z3.Lambda([o], z3.If(w, enc.false(), s.get("phased_out", o))),
        "has_counters": z3.Lambda([o], z3.If(w, enc.false(), s.get("has_counters", o))),
        "watcher": z3.Lambda([o], z3.If(w, enc.false(), s.get("watcher", o))),
        "permanent_card": z3.Lambda([o], z3.If(w, enc.false(), s.get("permanent_card", o))),
        "aura": z3.Lambda([o], z3.If(w, enc.false(), s.get("aura", o))),
        "exiled_with": z3.Lambda([o], z3.If(w, u.noobj, s.get("exiled_with", o))),
        "same_card": z3.Lambda([o], z3.If(w, u.noobj, s.get("same_card", o))),
        "waiting": z3.Lambda([g, o], z3.If(g == game, enc.false(), s.get("waiting", g, o))),
    }
    return enc.next_state(s, label, **changes)


def g_queue_leave_triggers(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    u = enc.u
    r = enc.role(args["_"])
    if r is None or "card" not in enc.params:
        return enc.next_state(s, label)
    game, bound = r
    card = enc.params["card"]
    o = u.const("o", "obj")
    g = u.const("g", "game")
    trig = z3.Function(f"trigger-of!{enc.count}", u.sorts["obj"], u.sorts["obj"])
    source = z3.Function(f"source-of!{enc.count}", u.sorts["obj"], u.sorts["obj"])

    def watches(x: Any) -> Any:
        in_source = z3.And(enc.inside(s, x), s.get("game", x) == game,
                           z3.Not(s.get("phased_out", x)))
        return z3.And(bound, s.get("watcher", x), z3.Or(x == card, in_source))

    enc.constraints += [
        enc.u.forall([o], z3.Implies(watches(o), z3.And(source(trig(o)) == o,
                                                     enc.fresh_object(s, trig(o))))),
    ]
    fresh = z3.And(trig(source(o)) == o, watches(source(o)))
    waiting = z3.Lambda([g, o], z3.Or(s.get("waiting", g, o), z3.And(g == game, fresh)))
    # The trigger's controller is its source's (CR 113.8), recorded as it triggers: the
    # brought card's as it last was in the game it left (603.10a).
    watcher_controller = z3.If(source(o) == card, enc.pre.get("controller", card),
                               s.get("controller", source(o)))
    controller = z3.Lambda([g, o], z3.If(z3.And(g == game, fresh), watcher_controller,
                                         s.get("trigger_controller", g, o)))
    return enc.next_state(s, label, waiting=waiting, trigger_controller=controller)


def g_inherit(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    old, new = enc.role(args["from"]), enc.role(args["to"])
    if old is None or new is None:
        return enc.next_state(s, label)
    present = s.get("present", old[0])
    changes = {
        "has_creator": _set_game(s, "has_creator", new[0],
                                 z3.And(present, s.get("has_creator", old[0]))),
        "created_by": _set_game(s, "created_by", new[0],
                                z3.If(present, s.get("created_by", old[0]), enc.u.noobj)),
    }
    return enc.next_state(s, label, **changes)


def g_further_instructions(enc: Encoder, s: SymState, args: dict[str, Any], label: str) -> SymState:
    u = enc.u
    game = enc.game_of(args["_"])
    o = u.const("o", "obj")
    moves = z3.And(enc.params["then"], z3.Select(enc.params["exempt"], o),
                   enc.inside(s, o), s.get("game", o) == game,
                   s.get("zone", o) == enc.z("exile"))
    changes = {
        "zone": z3.Lambda([o], z3.If(moves, enc.z("battlefield"), s.get("zone", o))),
        "controller": z3.Lambda([o], z3.If(moves, enc.params["controller"],
                                           s.get("controller", o))),
        # The stage of the game's start at which the effect finished (726.4).
        "instructions_at": _set_game(s, "instructions_at", game, s.get("stage", game)),
    }
    return enc.next_state(s, label, **changes)


# Each game step, by its action as the rulebook spells it (`model.language.GAME_ACTIONS`): a
# function of the encoder, the state before the step, the step's arguments and its label,
# returning the state after the step.
GAME_STEPS: dict[str, Callable[[Encoder, SymState, dict[str, Any], str], SymState]] = {
    "create-game": g_create_game,
    "suspend": g_suspend,
    "resume": g_resume,
    "end-game": g_end_game,
    "destroy-zones": g_destroy_zones,
    "shuffle": g_shuffle,
    "starting-player": g_starting_player,
    "short-library": g_short_library,
    "procedure": g_procedure,
    "cease-player-counters": g_cease_player_counters,
    "copy-player-counters": g_copy_player_counters,
    "finish-resolving": g_finish_resolving,
    "release-triggers": g_release_triggers,
    "queue-leave-triggers": g_queue_leave_triggers,
    "inherit": g_inherit,
    "further-instructions": g_further_instructions,
    "permit": g_permit,
    "forbid": g_forbid,
}
