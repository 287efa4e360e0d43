"""The rule-defined events: `start-subgame`, `end-subgame`, `restart`, `bring-in`, `affect`.

Each is a function in `EVENT_STEPS`, keyed by event name, taking the interpreter, the
situation (changed in place: the interpreter hands over its copy), the event's `Context` and
the active game. It checks what the event needs, raising `IllegalEvent` with the rule it
breaks, binds the event's game roles and parameters into the context, then runs the steps of
every clause acting on the event (`StepKit._run_clauses`). The checks are the rules'
own (numbers of the 2026-01-16 edition): a subgame is created by a resolving spell or ability
(728.1a), inside a subgame only if a clause permits it (728.6); a subgame ends only where one
runs (728.1a); a restart exempts only traditional cards in exile, as Karn Liberated does
(726.5), and knows one further instruction, Karn Liberated's (726.4); a card is brought in
from outside the game (400.11b), from a main game only if a clause permits it (728.4), and
the one nontraditional card brought in is a dungeon (701.49a); an effect acts within its
own game (611.1, 728.1b).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .errors import IllegalEvent
from .objects import PLAYER_ZONES, GameObject, ZoneRef
from .state import Game, Situation
from .trace import Change

if TYPE_CHECKING:
    from .context import Context, StepKit


def e_start_subgame(interp: StepKit, state: Situation, ctx: Context, active: Game) -> None:
    """`start-subgame`: a resolving spell or ability of the active game (`via`, on its stack)
    creates a subgame (728.1a); the active game becomes its main game, and the clauses on the
    event create the subgame and carry the cards in (728.2).

    With no `via`, the event makes the creating effect itself: an ability of `by` (by default
    the game's first player) named after `card` (Shahrazad), put on the stack. In a subgame, a
    subgame is created only if a clause permits it (728.6) and none forbids it (101.2).
    """
    if active.parent is not None:
        nesting = interp.rulebook.grants("start-subgame", "permit", "nested-subgame")
        if nesting is None:
            forbidding = interp.rulebook.grants("start-subgame", "forbid", "nested-subgame")
            if forbidding is not None:
                raise IllegalEvent(f"start-subgame: {active.id} is itself a subgame, and "
                                   f"{forbidding.name} forbids a subgame inside a subgame",
                                   rule=interp._cite(forbidding))
            raise IllegalEvent(f"start-subgame: {active.id} is itself a subgame and no clause "
                               "permits a subgame inside a subgame", rule="728.6")
        interp._uses(ctx, nesting, f"{active.id} becomes the main game of the new subgame")
    by = interp._player_in(ctx.event.get("by", active.players[0]), active, "by")
    via = ctx.event.get("via")
    if via is not None:
        interp._object_in(state, via, active, "via")
        if state.where[via].kind != "stack":
            raise IllegalEvent(f"start-subgame: {via} is not on the stack of {active.id}; the "
                               "spell or ability that creates a subgame is resolving",
                               rule="728.1a")
    else:
        via = state.fresh_id("spell")
        name = ctx.event.get("card", "Shahrazad")
        state.objects[via] = GameObject(id=via, kind="ability", owner=by, controller=by,
                                        name=f"{name} (creating effect)",
                                        game_of_origin=active.id)
        state.place(via, ZoneRef(active.id, "stack"))
        interp._note(ctx, None, "728.1a", f"{by} casts {name}; its effect creates a subgame",
                     [Change(via, "created", after=str(ZoneRef(active.id, "stack")))])
    ctx.creator = via
    ctx.controller = by
    ctx.roles.update(main=active.id, subgame=None)
    interp._run_clauses(state, ctx)


def e_end_subgame(interp: StepKit, state: Situation, ctx: Context, active: Game) -> None:
    """`end-subgame`: the active game, a subgame, ends (728.1a), won by `winner` (players of it),
    drawn, or with no result given; a game with a winner is not a draw. The clauses on the
    event return the cards to the main game and make the rest cease to exist (728.5)."""
    if active.parent is None:
        raise IllegalEvent(f"end-subgame: no subgame is running ({active.id} is the "
                           "outermost game)", rule="728.1a")
    winners = ctx.event.get("winner") or []
    for player in winners:
        interp._player_in(player, active, "winner")
    if winners and ctx.event.get("draw"):
        raise IllegalEvent("end-subgame: a game with a winner is not a draw")
    ctx.creator = active.created_by
    ctx.roles.update(subgame=active.id, main=active.parent)
    interp._run_clauses(state, ctx)


def e_restart(interp: StepKit, state: Situation, ctx: Context, active: Game) -> None:
    """`restart`: `controller`'s spell or ability restarts the active game (726.1); the clauses on
    the event end it and begin the new game.

    `source` names the object whose ability restarts the game, Karn Liberated: the cards the
    effect leaves out of the new game (726.5) are computed from the situation (`exempt_cards`),
    never given. `then = "battlefield"` is Karn Liberated's further instruction, followed as
    the effect finishes resolving (726.4). A restarted subgame's main game is bound as `main`
    (726.6).
    """
    controller = interp._player_in(ctx.event.get("controller"), active, "controller")
    source = ctx.event.get("source")
    if source is not None and (source in state.objects or source in state.games):
        # An object of the game; or one no longer there: its ability on the stack still
        # resolves (112.7a) and refers to the cards it exiled (607.2a).
        interp._object_in(state, source, active, "source")
    exempt = exempt_cards(state, active, source)
    if ctx.event.get("via") is not None:
        interp._object_in(state, ctx.event.get("via"), active, "via")
    then = ctx.event.get("then")
    if then not in (None, "battlefield"):
        raise IllegalEvent(f"restart: then={then!r}: the only further instruction known "
                           "is 'battlefield' (Karn Liberated)")
    ctx.controller = controller
    ctx.exempt = frozenset(exempt)
    ctx.roles.update(restarted=active.id, new=None, main=active.parent)
    interp._run_clauses(state, ctx)


def exempt_cards(state: Situation, game: Game, source: str | None) -> list[str]:
    """The cards a restart by `source`'s ability leaves in exile (726.5): Karn Liberated's
    "all non-Aura permanent cards exiled with Karn Liberated", the traditional cards in the
    game's exile recorded as exiled with `source` that are permanent cards and not Auras
    (110.4b, 303.4, 607.2a). None without a source. (An Attraction or Contraption is an
    artifact card too; that Karn exiles one is a corner the model leaves out.)"""
    if source is None:
        return []
    return [c for c in state.zones.get(ZoneRef(game.id, "exile"), ())
            if state.objects[c].traditional and state.objects[c].exiled_with == source
            and state.objects[c].permanent_card and not state.objects[c].aura]


def e_bring_in(interp: StepKit, state: Situation, ctx: Context, active: Game) -> None:
    """`bring-in`: an effect brings a card from outside the game into the active game (400.11b),
    into `to` (by default its owner's hand, or the command zone for a nontraditional card), for
    `by` (by default its owner).

    The card's owner must play in the game, and the card must not be phased out. A card in a
    main game is outside its subgames (728.4), but comes in from there only if a clause permits
    it. The one nontraditional card brought in is a dungeon, into the command zone (701.49a).
    The card becomes a new object (400.7), face up, in its owner's zone if the zone is a
    player's (400.3), controlled by `by` on the battlefield or the stack (108.4), and the game
    records that it came in from a main game or from outside (`came-from`); then the
    clauses on the event run (a card from a main game fires its leaves-a-zone triggers: 728.4a).
    """
    card_id = ctx.event.get("card")
    card = state.objects.get(card_id)
    if card is None or not card.is_card:
        raise IllegalEvent(f"bring-in: {card_id!r} is not a card of this situation")
    where = state.where[card_id]
    if where.game == active.id:
        raise IllegalEvent(f"bring-in: {card_id} is already in the game {active.id}")
    if where.game is not None:
        if where.game not in state.ancestors(active.id):
            raise IllegalEvent(f"bring-in: {card_id} is in {where.game}, which is neither "
                               f"outside nor a main game of {active.id}", rule="728.4")
        outside = interp.rulebook.grants("bring-in", "permit", "bring-in-from-main-game")
        if outside is None:
            raise IllegalEvent(f"bring-in: {card_id} is in the game {where.game}; no clause "
                               f"makes it outside the subgame {active.id}", rule="728.4")
        interp._uses(ctx, outside, f"{card_id}, in the main game {where.game}, is outside "
                     f"the subgame {active.id}")
    if card.phased_out:
        raise IllegalEvent(f"bring-in: {card_id} is phased out and cannot be acquired")
    if card.owner not in active.players:
        raise IllegalEvent(f"bring-in: {card_id}'s owner {card.owner} is not a player in "
                           f"{active.id} (an effect brings in a card its player owns)",
                           rule="400.11b")
    kind = ctx.event.get("to", "hand" if card.traditional else "command")
    if not card.traditional and (kind != "command" or card.card_type != "dungeon"):
        raise IllegalEvent(f"bring-in: {card_id} is a {card.card_type} card; the one "
                           "nontraditional card an effect brings in from outside the game "
                           "is a dungeon, into the command zone (701.49a, 309.4)")
    if kind == "battlefield" and not card.permanent_card:
        raise IllegalEvent(f"bring-in: {card_id} is not a permanent card and cannot be put "
                           "onto the battlefield", rule="110.4b")
    player = interp._player_in(ctx.event.get("by", card.owner), active, "by")
    ctx.controller = player  # the player who brings it in controls the event's effect
    if kind in PLAYER_ZONES:
        dest = ZoneRef(active.id, kind, card.owner)  # the owner's zone (400.3)
    elif kind in ("battlefield", "exile", "command", "stack"):
        dest = ZoneRef(active.id, kind)
    else:
        raise IllegalEvent(f"bring-in: cannot bring a card into the zone {kind!r}")
    ctx.brought_controller = card.controller or card.owner
    interp._reset_on_move(card)
    card.face_up = True  # a new object (400.7), never into a supplementary deck
    state.move(card_id, dest)
    if kind in ("battlefield", "stack"):  # a permanent or a spell has a controller (108.4)
        card.controller = player
    active.came_from[card_id] = "main-game" if where.game is not None else "outside"
    ctx.brought, ctx.brought_from = card_id, where
    ctx.roles.update(source=where.game)
    interp._note(ctx, None, "400.11b", f"{card_id} is brought into {active.id}",
                 [Change(card_id, "moved", str(where), str(dest))])
    interp._run_clauses(state, ctx)


def e_affect(interp: StepKit, state: Situation, ctx: Context, active: Game) -> None:
    """`affect`: an effect starts acting on an object or a player (611.1). Where a clause forbids
    cross-game effects, the effect must be of the active game and its target of the same game
    (an object there, or a player of it): no effect of one game has meaning in another (728.1b)."""
    effect = state.objects.get(ctx.event.get("effect"))
    if effect is None or effect.kind != "effect":
        raise IllegalEvent(f"affect: {ctx.event.get('effect')!r} is not an effect")
    effect_game = state.where[effect.id].game
    target_obj, target_player = ctx.event.get("object"), ctx.event.get("player")
    if (target_obj is None) == (target_player is None):
        raise IllegalEvent("affect: name exactly one of object or player")
    if target_obj is not None and target_obj not in state.objects:
        raise IllegalEvent(f"affect: no object {target_obj!r}")
    if target_player is not None and target_player not in state.players:
        raise IllegalEvent(f"affect: no player {target_player!r}")
    forbidding = interp.rulebook.grants("affect", "forbid", "cross-game-effects")
    target_game = (state.where[target_obj].game if target_obj is not None else None)
    player_games = [g.id for g in state.games.values() if target_player in g.players]
    same = (effect_game == active.id
            and (target_game == effect_game if target_obj is not None
                 else effect_game in player_games))
    if forbidding is not None and not same:
        raise IllegalEvent(f"affect: {effect.id} belongs to {effect_game}; it has no meaning "
                           f"for {target_obj or target_player} in game {target_game or active.id}",
                           rule=interp._cite(forbidding))
    interp._uses(ctx, forbidding, f"{effect.id} and {target_obj or target_player} are of one "
                 "game")
    target = target_obj or target_player
    assert target is not None
    if target_obj is not None:
        state.objects[target_obj].affected_by.append(effect.id)
    else:
        state.player_effects.setdefault(target_player, []).append(effect.id)
    interp._note(ctx, None, "611.1", f"{effect.id} ({effect_game}) acts on {target}",
                 [Change(target, "affected", after=effect.id)])


# Each rule-defined event, by event name: a function of the interpreter, the situation, the
# event's context and the active game.
EVENT_STEPS: dict[str, Callable[[StepKit, Situation, Context, Game], None]] = {
    "start-subgame": e_start_subgame, "end-subgame": e_end_subgame, "restart": e_restart,
    "bring-in": e_bring_in, "affect": e_affect,
}
