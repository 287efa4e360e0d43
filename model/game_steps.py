"""The rulebook's game steps: each a function in `GAME_STEPS`, keyed by its action name.

A step without `select` (docs/rule-language.md) acts on whole games named by the event's
roles: `create-game` (728.2, 726.1), `suspend` and `resume` (728.1a), `end-game` (728.1a,
726.1), `destroy-zones` (728.5, 726.1), `shuffle` (728.2, 728.2a, 728.5, 728.5a, 726.2),
`starting-player` (728.2, 726.1a), `short-library` (728.3, 726.3), `procedure` (rule 103's
order, by way of 728.2 and 726.1), `cease-player-counters`
(728.4b, 726.1), `finish-resolving` and `release-triggers` (728.5), `queue-leave-triggers`
(728.4a, looking back in time: 603.10a), `inherit` (726.6), `further-instructions` (726.4),
and `copy-player-counters`, which no official clause uses (amendments can). `permit` (728.4,
728.6, 726.7) and `forbid` (728.1b) do nothing here: the events consult them
(`StepKit._uses`). Numbers are those of the 2026-01-16 edition; the trace cites the
clause in the interpreter's edition. Each function takes the interpreter, the situation,
the event's `Context`, the clause, the step's arguments and the clause's citation, changes
the situation in place and records in the trace what it did.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .choices import SHUFFLE_WHY, shuffle
from .errors import IllegalEvent
from .language import PROCEDURE_STAGES, Clause
from .objects import GameObject, ZoneRef
from .state import EndedGame, Game, Pile, Result, Situation, Trigger
from .trace import Change

if TYPE_CHECKING:
    from .context import Context, StepKit


def g_create_game(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
                  args: dict[str, Any], rule: str) -> None:
    source = state.games[_role(ctx, args["players"])]
    players = [p for p in source.players]
    if ctx.event.kind == "restart" and source.range_of_influence is not None:
        every = interp.rulebook.grants("restart", "permit", "restart-ignores-range")
        if every is None:
            players = in_range(source.players, ctx.controller or players[0],
                               source.range_of_influence)
        else:
            interp._uses(ctx, every, "every player is involved, whatever the range of "
                         "influence")
    parent_role = args["parent"]
    parent = (source.parent if parent_role == "parent-of-restarted"
              else None if parent_role == "none" else _role(ctx, parent_role))
    game_id = state.fresh_id("subgame" if ctx.event.kind == "start-subgame" else "game")
    game = Game(id=game_id, players=players, parent=parent, variants=list(source.variants),
                range_of_influence=source.range_of_influence, status="active", stage="new")
    if ctx.event.kind == "start-subgame":
        game.created_by = ctx.creator
    state.games[game_id] = game
    state.create_zones(game)
    ctx.roles[args["game"]] = game_id
    interp._note(ctx, clause, rule, f"a new game {game_id} begins for "
                 f"{', '.join(players) or 'no player'}"
                 + (f", under {parent}" if parent else ", at the top of the tree"),
                 [Change(game_id, "game created", after=parent or "root")])


def g_suspend(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
              args: dict[str, Any], rule: str) -> None:
    """The game is discontinued (728.1a); a game that has ended is not (`g_resume`)."""
    game = state.games[_role(ctx, args["_"])]
    if game.status == "ended":
        interp._note(ctx, clause, rule, f"{game.id} has ended: it is not discontinued")
        return
    game.status = "suspended"
    interp._note(ctx, clause, rule, f"{game.id} is discontinued until its subgame ends",
                 [Change(game.id, "suspended")])


def g_resume(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
             args: dict[str, Any], rule: str) -> None:
    """The game resumes (728.1a). A game that has ended does not: no official clause asks it,
    but an amendment may end the main game as a subgame ends, and then resume it; the
    encoder reads the step the same way (`proofs.encoding.game_steps.g_resume`)."""
    game = state.games[_role(ctx, args["_"])]
    if game.status == "ended":
        interp._note(ctx, clause, rule, f"{game.id} has ended: it does not resume")
        return
    game.status = "active"
    interp._note(ctx, clause, rule, f"{game.id} resumes", [Change(game.id, "resumed")])


def g_end_game(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
               args: dict[str, Any], rule: str) -> None:
    game = state.games[_role(ctx, args["game"])]
    if args["result"] == "restarted":
        result = Result("restarted")
    elif ctx.event.get("winner"):
        result = Result("win", list(ctx.event.get("winner")))
    elif ctx.event.get("draw"):
        result = Result("draw")
    else:
        result = Result("none")
    game.status = "ended"
    state.ended.append(EndedGame(game.id, game.parent, result, list(game.players)))
    if args["result"] != "restarted" and game.parent in state.games and game.created_by:
        state.games[game.parent].subgame_results[game.created_by] = result
    interp._note(ctx, clause, rule, f"{game.id} ends: {result.describe()}",
                 [Change(game.id, "ended", after=result.describe())])


def g_destroy_zones(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
                    args: dict[str, Any], rule: str) -> None:
    game_id = _role(ctx, args["_"])
    changes: list[Change] = []
    ceased = 0
    for zone in state.zones_of(game_id):
        if state.zones[zone]:
            changes.append(Change(str(zone), "left behind",
                                  after=f"still holds {', '.join(state.zones[zone])}"))
        else:
            del state.zones[zone]
            ceased += 1
    changes.insert(0, Change(game_id, "zones ceased", after=f"{ceased} zones"))
    del state.games[game_id]
    interp._note(ctx, clause, rule, f"the zones of {game_id} cease to exist", changes)


def g_shuffle(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
              args: dict[str, Any], rule: str) -> None:
    game_id = ctx.roles.get(args["game"])
    zones = [z for z in state.zones if z.game == game_id and z.kind == args["zone"]]
    for zone in sorted(zones, key=ZoneRef.sort_key):
        state.zones[zone] = Pile(shuffle(list(state.zones[zone]), interp.chooser,
                                          f"{SHUFFLE_WHY}{zone}"))
    interp._note(ctx, clause, rule, f"shuffle each {args['zone']} of {game_id}",
                 [Change(str(z), "shuffled") for z in sorted(zones, key=ZoneRef.sort_key)
                  if len(state.zones[z]) > 1])


def advance(game: Game, stage: str) -> Change:
    """The game's start reaches `stage` (rule 103): in order only from the stage just
    before it; from any other, the game records that its start went out of order."""
    before = game.stage
    game.stage = stage
    if before != PROCEDURE_STAGES[PROCEDURE_STAGES.index(stage) - 1]:
        game.out_of_order = True
        return Change(game.id, "stage out of order", before, stage)
    return Change(game.id, "stage", before, stage)


def g_starting_player(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
                      args: dict[str, Any], rule: str) -> None:
    game = state.games[_role(ctx, args["game"])]
    reached = advance(game, "starting-player")  # 103.1: the first stage of a game's start
    if args["choose"] == "random":
        if not game.players:
            interp._note(ctx, clause, rule, f"{game.id} has no player to go first", [reached])
            return
        chosen = game.players[interp.chooser.pick(len(game.players), "starting player")]
        how = "at random"
    else:
        chosen = ctx.controller or game.players[0]
        how = "as the controller of the restarting spell or ability"
    game.starting_player = chosen
    interp._note(ctx, clause, rule, f"{chosen} is the starting player of {game.id}, {how}",
                 [Change(game.id, "starting player", after=chosen), reached])


_STAGE_TEXT = {
    "starting-player": "its starting player is to be determined",
    "opening-hands": "each player draws an opening hand (which cards, the model does not say)",
    "mulligans": "the players take their mulligans (how, the model does not say)",
    "first-turn": "the starting player takes the first turn",
}


def g_procedure(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
                args: dict[str, Any], rule: str) -> None:
    game = state.games[_role(ctx, args["game"])]
    before = game.stage
    reached = advance(game, args["stage"])
    text = f"{game.id}: {_STAGE_TEXT[args['stage']]}"
    if reached.what == "stage out of order":
        text += f", out of rule 103's order (after {before})"
    interp._note(ctx, clause, rule, text, [reached])


def g_short_library(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
                    args: dict[str, Any], rule: str) -> None:
    game = state.games[_role(ctx, args["game"])]
    minimum = int(args["minimum"])
    game.doomed = [p for p in game.players
                   if len(state.zones.get(ZoneRef(game.id, "library", p), [])) < minimum]
    text = (f"{', '.join(game.doomed)} will lose {game.id} at the first upkeep "
            f"(fewer than {minimum} cards in library)" if game.doomed
            else f"every library of {game.id} has at least {minimum} cards")
    interp._note(ctx, clause, rule, text, [Change(p, "will lose") for p in game.doomed])


def g_cease_player_counters(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
                            args: dict[str, Any], rule: str) -> None:
    game_id = _role(ctx, args["_"])
    keys = [k for k in state.player_counters if k[0] == game_id]
    changes = [Change(k[1], "counters ceased", after=str(state.player_counters[k]))
               for k in keys if state.player_counters[k]]
    for key in keys:
        del state.player_counters[key]
    interp._note(ctx, clause, rule, f"the counters players got in {game_id} cease to exist",
                 changes)


def g_copy_player_counters(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
                           args: dict[str, Any], rule: str) -> None:
    source, target = _role(ctx, args["from"]), _role(ctx, args["to"])
    changes: list[Change] = []
    for player in state.games[target].players:
        counters = dict(state.player_counters.get((source, player), {}))
        state.player_counters[(target, player)] = counters
        if counters:
            changes.append(Change(player, "counters", after=str(counters)))
    interp._note(ctx, clause, rule, f"players' counters of {source} are copied to {target}",
                 changes)


def g_finish_resolving(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
                       args: dict[str, Any], rule: str) -> None:
    game = state.games[_role(ctx, args["_"])]
    creator = ctx.creator
    if creator is None:
        interp._note(ctx, clause, rule, "no spell or ability is known to have created it")
        return
    game.resolved.append(creator)
    changes: list[Change] = [Change(creator, "finishes resolving")]
    obj = state.objects.get(creator)
    if obj is not None and state.where[creator] == ZoneRef(game.id, "stack"):
        if obj.is_card:
            dest = ZoneRef(game.id, "graveyard", obj.owner)
            if dest in state.zones:
                interp._reset_on_move(obj)
                obj.face_up = True  # a new object in a graveyard (400.7)
                changes.append(Change(creator, "moved", str(state.move(creator, dest)),
                                      str(dest)))
        else:
            changes.append(Change(creator, "ceased", str(state.cease(creator))))
    interp._note(ctx, clause, rule, f"{creator} finishes resolving in {game.id}", changes)


def g_release_triggers(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
                       args: dict[str, Any], rule: str) -> None:
    game = state.games[_role(ctx, args["_"])]
    changes: list[Change] = []
    for trigger in game.pending_triggers:
        if trigger.id in state.objects:
            trigger = Trigger(state.fresh_id("trigger"), trigger.source, trigger.card,
                              trigger.left, trigger.game, trigger.controller)
        controller = state.trigger_controller(trigger)
        ability = GameObject(id=trigger.id, kind="ability", owner=controller,
                             controller=controller,
                             name=f"leaves-zone trigger of {trigger.source} for {trigger.card}",
                             game_of_origin=game.id)
        state.objects[trigger.id] = ability
        state.place(trigger.id, ZoneRef(game.id, "stack"))
        changes.append(Change(trigger.id, "put on the stack", after=str(ZoneRef(game.id,
                                                                                 "stack"))))
    game.pending_triggers = []
    interp._note(ctx, clause, rule, f"the abilities that waited in {game.id} go on the stack",
                 changes)


def g_queue_leave_triggers(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
                           args: dict[str, Any], rule: str) -> None:
    game_id = ctx.roles.get(args["_"])
    if game_id is None or ctx.brought is None or ctx.brought_from is None:
        return  # the card came from outside every game: no game's ability sees it leave
    game = state.games[game_id]
    changes: list[Change] = []
    # The brought card looks back in time (603.10a): its own leaves-a-zone ability sees
    # it leave, as do the abilities of the objects still in the main game.
    watchers = [state.objects[obj_id]
                for obj_id in [ctx.brought, *interp._objects_of_game(state, game_id)]]
    watchers = [w for w in watchers if "leaves-zone" in w.triggers and not w.phased_out]
    # Named at once: gathering the names in use is linear in the situation, once for all
    # the abilities that trigger (once for each, many watchers made the step quadratic).
    for watcher, trigger_id in zip(watchers, state.fresh_ids("trigger", len(watchers)),
                                   strict=True):
        # Its controller is its source's (113.8), the brought card's as it last was in the
        # game it left (603.10a).
        controller = (ctx.brought_controller if watcher.id == ctx.brought
                      else watcher.controller) or watcher.owner
        trigger = Trigger(trigger_id, watcher.id, ctx.brought, str(ctx.brought_from), game_id,
                          controller)
        game.pending_triggers.append(trigger)
        changes.append(Change(trigger.id, "triggered, waits",
                              after=f"{watcher.id} saw {ctx.brought} leave {ctx.brought_from}"))
    interp._note(ctx, clause, rule, f"abilities of {game_id} that trigger on {ctx.brought} "
                 f"leaving wait until {game_id} resumes", changes)


def g_inherit(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
              args: dict[str, Any], rule: str) -> None:
    old_id, new_id = ctx.roles.get(args["from"]), ctx.roles.get(args["to"])
    if new_id is None or new_id not in state.games or old_id is None:
        interp._note(ctx, clause, rule, "no new game to take the restarted game's place")
        return
    new = state.games[new_id]
    old = state.games.get(old_id)
    created_by = old.created_by if old else None
    new.created_by = created_by
    new.restarted_from = old_id
    where = f"as the subgame of {new.parent}" if new.parent else "as the outermost game"
    interp._note(ctx, clause, rule, f"{new_id} takes the place of {old_id} {where}",
                 [Change(new_id, "replaces", old_id, new.parent or "root")])


def g_further_instructions(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
                           args: dict[str, Any], rule: str) -> None:
    game_id = _role(ctx, args["_"])
    changes: list[Change] = []
    if ctx.event.get("then") == "battlefield":
        for card_id in sorted(ctx.exempt):
            here = state.where.get(card_id)
            if here is None or here != ZoneRef(game_id, "exile"):
                changes.append(Change(card_id, "stays", str(here),
                                      "not among the cards left in exile"))
                continue
            obj = state.objects[card_id]
            dest = ZoneRef(game_id, "battlefield")
            state.move(card_id, dest)
            obj.controller = ctx.controller
            obj.since_first_turn = True
            changes.append(Change(card_id, "moved", str(here), str(dest)))
    game = state.games.get(game_id)
    if game is not None:
        game.waiting_for_priority.append("triggers of the restart effect")
        game.instructions_at = game.stage
        changes.append(Change(game_id, "restart effect finished", after=f"at {game.stage}"))
    interp._note(ctx, clause, rule, "just before the first untap step the restart effect "
                 "finishes (no player has priority; triggers wait for the next priority)",
                 changes)


def g_permit(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
             args: dict[str, Any], rule: str) -> None:
    """Permissions act through the events that consult them (`_uses`)."""


def g_forbid(interp: StepKit, state: Situation, ctx: Context, clause: Clause,
             args: dict[str, Any], rule: str) -> None:
    """Prohibitions act through the events that consult them (`_uses`)."""


# Each game step, by the rulebook's action name (`language.GAME_ACTIONS`): a function of
# the interpreter, the situation, the event's context, the clause, the step's arguments
# and the clause's citation.
GAME_STEPS: dict[str, Callable[[StepKit, Situation, Context, Clause, dict[str, Any], str],
                               None]] = {
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


def _role(ctx: Context, role: str) -> str:
    game_id = ctx.roles.get(role)
    if game_id is None:
        raise IllegalEvent(f"{ctx.event.kind}: the rulebook refers to the {role} game, "
                           "but no clause created it")
    return game_id


def in_range(players: list[str], controller: str, reach: int) -> list[str]:
    """Players within `reach` seats of `controller` (CR 801.2), in seat order; a player is
    always within their own range of influence (CR 801.2b), whatever `reach` says."""
    if controller not in players:
        return list(players)
    n, here = len(players), players.index(controller)
    return [p for i, p in enumerate(players)
            if p == controller or min((i - here) % n, (here - i) % n) <= reach]
