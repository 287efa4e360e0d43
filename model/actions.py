"""The in-game actions: `move`, `create`, `counter`, `phase`, `turn`, `leave`, `control`.

No clause of the rulebook acts on them: they are the actions needed to reach any situation,
and they follow the general rules, which each cites (`events.GENERAL_RULES`): a moved object
is a new object (400.7), and a token or copy that leaves for a zone it cannot be in ceases to
exist (704.5d); tokens, copies, emblems, abilities and effects are created where they exist
(111.1, 707.10, 114.1, 113.3, 611.1; `DEFAULT_ZONE` when the event names no zone); counters
go on players or objects (122.1); permanents phase (702.26); objects turn face up or down
(708.2), only where an object can be face down, and a moved object is face up except in a
supplementary deck (400.7, 701.31b); a control-changing effect gives a permanent or a spell
to another player of the game (613.1b, 110.2); a player who leaves takes the cards they own
out of the game, the other objects they own or control cease to exist, the cards they
control are exiled and their counters there are gone (800.4a). Only the active game acts
(728.4). Each action is a function in `IN_GAME_ACTIONS`, keyed by event name, taking the
interpreter, the situation, the event's `Context` and the active game; it
raises `IllegalEvent` when the situation does not allow it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .errors import IllegalEvent
from .events import GENERAL_RULES
from .objects import FACE_DOWN_ZONES, NONCARD_ZONES, OUTSIDE, GameObject, ZoneRef
from .scenario import LARGEST as LARGEST_COUNT
from .state import Game, Situation
from .trace import Change

if TYPE_CHECKING:
    from .context import Context, StepKit

# Where `create` puts an object of each kind when the event names no zone.
DEFAULT_ZONE = {"token": "battlefield", "copy": "stack", "emblem": "command",
                "ability": "stack", "effect": "effects"}


def a_move(interp: StepKit, state: Situation, ctx: Context, active: Game) -> None:
    """`move`: an object of the active game moves to a zone of that game (a card also to its
    owner's place outside the game), on top or at the bottom.

    A moved object is a new object (400.7): its counters, phasing and the effects on it are
    gone, a card is under its owner's control again, and it is face up except in a supplementary
    deck. A card put into a library, hand or graveyard goes to its owner's (400.3). A token or
    copy moved where it cannot exist ceases to exist (704.5d, 704.5e); an emblem, ability or
    effect moved out of the one zone it can be in is refused, and so is a card that is not a
    permanent card moved onto the battlefield (110.4b). `exiled-with` names the object of the
    active game that exiles the card (Karn Liberated, say): the card is recorded as exiled
    with it (607.2a) while it stays in exile.
    """
    obj = interp._object_in(state, ctx.event.get("object"), active, "object")
    dest = interp._zone_in(state, ctx.event.get("to"), active, obj)
    position = ctx.event.get("position", "top")
    if position not in ("top", "bottom"):
        raise IllegalEvent(f"move: position must be top or bottom, not {position!r}")
    exiler = ctx.event.get("exiled-with")
    if exiler is not None:  # a permanent, or a spell or ability on the stack (607.2a)
        if not obj.is_card or dest.kind != "exile" or exiler == obj.id:
            raise IllegalEvent("move: exiled-with names what exiles a card into exile")
        source = interp._object_in(state, exiler, active, "exiled-with")
        if state.where[source.id].kind not in ("battlefield", "stack"):
            raise IllegalEvent(f"move: {exiler} is neither a permanent nor on the stack: it "
                               "exiles nothing", rule="607.2a")
    if not obj.is_card and dest.kind not in NONCARD_ZONES[obj.kind]:
        if obj.kind in ("token", "copy"):
            before = state.cease(obj.id)
            rule = "704.5d" if obj.kind == "token" else "704.5e"  # a token; a copy
            interp._note(ctx, None, rule, f"{obj.id} leaves for {dest} and ceases to exist",
                         [Change(obj.id, "ceased", str(before))])
            return
        raise IllegalEvent(f"move: an {obj.kind} does not change zones")
    if obj.is_card and dest.kind == "battlefield" and not obj.permanent_card:
        raise IllegalEvent(f"move: {obj.id} is not a permanent card and cannot be put onto "
                           "the battlefield", rule="110.4b")
    interp._reset_on_move(obj)
    obj.face_up = dest.kind != "deck"  # a new object (400.7); a deck is face down (701.31b)
    obj.exiled_with = exiler
    before = state.move(obj.id, dest, position)
    interp._note(ctx, None, GENERAL_RULES["move"], f"{obj.id} moves",
                 [Change(obj.id, "moved", str(before), str(dest))])


def a_create(interp: StepKit, state: Situation, ctx: Context, active: Game) -> None:
    """`create`: a token, copy, emblem, ability or effect of the active game comes into being under
    `controller`, who owns it, in the zone the event names or where that kind is created
    (`DEFAULT_ZONE`): 111.1, 707.10, 114.1, 113.3, 611.1.

    It is a new object with a name of its own (109.1): a name given that the situation already
    uses is refused, and so is a `copy-of` that names no object.
    """
    kind = ctx.event.get("kind")
    if kind not in DEFAULT_ZONE:
        raise IllegalEvent(f"create: kind must be one of {', '.join(DEFAULT_ZONE)}, "
                           f"not {kind!r}")
    controller = interp._player_in(ctx.event.get("controller"), active, "controller")
    named = ctx.event.get("id")
    obj_id = named or state.fresh_id(kind)  # a fresh id is outside names_in_use already
    if obj_id in state.objects:
        raise IllegalEvent(f"create: an object {obj_id!r} already exists")
    if named and obj_id in state.names_in_use():
        raise IllegalEvent(f"create: {obj_id!r} already names something of this situation (a "
                           "game, a waiting trigger, a mark, a creator or an effect's target); "
                           "a created object is a new object with a new name", rule="109.1")
    copy_of = ctx.event.get("copy-of")
    if copy_of is not None and copy_of not in state.objects:
        raise IllegalEvent(f"create: copy-of names no object {copy_of!r}")
    obj = GameObject(id=obj_id, kind=kind, owner=controller, controller=controller,
                     name=ctx.event.get("name", ""), game_of_origin=active.id,
                     triggers=list(ctx.event.get("triggers") or []))
    to = ctx.event.get("to")
    dest = (interp._zone_in(state, to, active, obj) if to
            else ZoneRef(active.id, DEFAULT_ZONE[kind]))
    if dest.kind not in NONCARD_ZONES[kind]:
        raise IllegalEvent(f"create: an {kind} is created in "
                           f"{' or '.join(NONCARD_ZONES[kind])}, not in {dest.kind}")
    state.objects[obj_id] = obj
    state.place(obj_id, dest)
    rule = {"token": "111.1", "copy": "707.10", "emblem": "114.1", "ability": "113.3",
            "effect": "611.1"}[kind]
    interp._note(ctx, None, rule, f"{controller} creates {kind} {obj_id}",
                 [Change(obj_id, "created", after=str(dest))])


def a_counter(interp: StepKit, state: Situation, ctx: Context, active: Game) -> None:
    """`counter`: a player of the active game, or an object in it, gets (`add` above 0) or loses
    (`add` below 0) counters of one kind (122.1). A player's counters are those of the active
    game (728.4b); losing more than there are is refused."""
    kind, add = ctx.event.get("kind"), ctx.event.get("add")
    player, obj_id = ctx.event.get("player"), ctx.event.get("object")
    if (player is None) == (obj_id is None):
        raise IllegalEvent("counter: name exactly one of player or object")
    if player is not None:
        interp._player_in(player, active, "player")
        counters = state.counters_of(active.id, player)
        target = player
    else:
        obj = interp._object_in(state, obj_id, active, "object")
        counters, target = obj.counters, obj.id
    value = counters.get(kind, 0) + add
    if value < 0:
        raise IllegalEvent(f"counter: {target} has only {counters.get(kind, 0)} {kind} counters")
    if value > LARGEST_COUNT:  # as a scenario refuses one: no count in a game is that large
        raise IllegalEvent(f"counter: {target} would have more than {LARGEST_COUNT} {kind} "
                           "counters, more than the model counts")
    if value:
        counters[kind] = value
    else:
        counters.pop(kind, None)
    interp._note(ctx, None, GENERAL_RULES["counter"],
                 f"{target} {'gets' if add >= 0 else 'loses'} {abs(add)} {kind} counter(s) "
                 f"in {active.id}", [Change(target, "counters", after=f"{kind}={value}")])


def a_phase(interp: StepKit, state: Situation, ctx: Context, active: Game) -> None:
    """`phase`: a permanent of the active game phases out (`out`) or in (702.26); only what is on
    the battlefield phases."""
    obj = interp._object_in(state, ctx.event.get("object"), active, "object")
    if state.where[obj.id].kind != "battlefield":
        raise IllegalEvent(f"phase: {obj.id} is not a permanent on the battlefield",
                           rule="702.26a")
    obj.phased_out = bool(ctx.event.get("out"))
    word = "out" if obj.phased_out else "in"
    interp._note(ctx, None, GENERAL_RULES["phase"], f"{obj.id} phases {word}",
                 [Change(obj.id, f"phased {word}")])


def a_turn(interp: StepKit, state: Situation, ctx: Context, active: Game) -> None:
    """`turn`: a card, token or copy of the active game is turned face up or face down (708.2), where
    an object can be face down: on the battlefield, on the stack, in exile or in the command
    zone. A supplementary deck stays face down."""
    obj = interp._object_in(state, ctx.event.get("object"), active, "object")
    face = ctx.event.get("face")
    if face not in ("up", "down"):
        raise IllegalEvent(f"turn: face must be up or down, not {face!r}")
    zone = state.where[obj.id]
    if obj.kind not in ("card", "token", "copy") or zone.kind not in FACE_DOWN_ZONES \
            or zone.kind == "deck":
        raise IllegalEvent(f"turn: {obj.id} ({obj.kind} in {zone}) cannot be turned over: only "
                           "a card, token or copy on the battlefield, on the stack, in exile or "
                           "in the command zone can (708.2, 406.3; a deck stays face down)",
                           rule="708.2")
    if face == "up" and zone.kind == "battlefield" and obj.is_card and not obj.permanent_card:
        raise IllegalEvent(f"turn: {obj.id} is a face-down permanent whose card is not a "
                           "permanent card (a manifested instant, say): it cannot be turned "
                           "face up", rule="701.40b")
    obj.face_up = face == "up"
    interp._note(ctx, None, GENERAL_RULES["turn"], f"{obj.id} is turned face {face}",
                 [Change(obj.id, f"face {face}")])


def a_control(interp: StepKit, state: Situation, ctx: Context, active: Game) -> None:
    """`control`: `player` gains control of a permanent, or of a spell or ability on the stack, of the
    active game (613.1b); nothing elsewhere has a controller to change (108.4)."""
    obj = interp._object_in(state, ctx.event.get("object"), active, "object")
    player = interp._player_in(ctx.event.get("player"), active, "player")
    zone = state.where[obj.id]
    if zone.kind not in ("battlefield", "stack"):
        raise IllegalEvent(f"control: {obj.id} is in {zone}; only a permanent or a spell or "
                           "ability on the stack has a controller to change (108.4, 110.2)",
                           rule="108.4")
    before = obj.controller
    obj.controller = player
    interp._note(ctx, None, GENERAL_RULES["control"], f"{player} gains control of {obj.id}",
                 [Change(obj.id, "controller", str(before), player)])


def a_leave(interp: StepKit, state: Situation, ctx: Context, active: Game) -> None:
    """`leave`: a player leaves the active game (800.4a).

    The cards they own go outside the game; the other objects they own cease to exist, and so
    do the tokens, copies, emblems, abilities and effects they control; the cards they control
    are exiled. Their counters in that game are gone, its effects stop acting on them (an effect
    of another game still does: 728.1b), and their empty zones there go. Refused in a game of
    two players: when a player's last opponent leaves, that player wins (104.2a), which the
    model shows as `end-subgame`.
    """
    player = interp._player_in(ctx.event.get("player"), active, "player")
    if len(active.players) <= 2:
        raise IllegalEvent(f"leave: {player} is one of the last two players in {active.id}; "
                           "when a player's last opponent leaves, that player wins and the "
                           "game is over (104.2a), which the model shows as end-subgame",
                           rule="104.2a")
    active.players.remove(player)
    active.left.append(player)
    state.player_counters.pop((active.id, player), None)  # no counters outside a game (122.1)
    # The effects of the game left stop acting on the player (800.4a); an effect of another
    # game, the main game say, still acts on them there (728.1b).
    acting = state.player_effects.pop(player, [])
    kept = [e for e in acting if e not in state.where or state.where[e].game != active.id]
    if kept:
        state.player_effects[player] = kept
    changes = [Change(player, "no longer affected", after=e) for e in acting if e not in kept]
    for obj_id in interp._objects_of_game(state, active.id):
        obj = state.objects[obj_id]
        if obj.owner == player:
            if obj.is_card:
                interp._reset_on_move(obj)
                obj.face_up = True
                before = state.move(obj_id, state.outside(player))
                changes.append(Change(obj_id, "moved", str(before), f"{OUTSIDE}/{player}"))
            else:
                changes.append(Change(obj_id, "ceased", str(state.cease(obj_id))))
        elif obj.controller == player and state.where[obj_id].kind == "stack" \
                and not obj.is_card:
            changes.append(Change(obj_id, "ceased", str(state.cease(obj_id))))
        elif obj.controller == player and not obj.is_card:
            # Exiled, a token or copy ceases to exist (704.5d-e); no other object moves.
            changes.append(Change(obj_id, "ceased", str(state.cease(obj_id))))
        elif obj.controller == player:
            interp._reset_on_move(obj)
            obj.face_up = True
            before = state.move(obj_id, ZoneRef(active.id, "exile"))
            changes.append(Change(obj_id, "moved", str(before), str(ZoneRef(active.id, "exile"))))
    for zone in [z for z in state.zones if z.game == active.id and z.player == player]:
        if not state.zones[zone]:
            del state.zones[zone]
    interp._note(ctx, None, GENERAL_RULES["leave"], f"{player} leaves {active.id}", changes)


# Each in-game action, by event name: a function of the interpreter, the situation, the
# event's context and the active game.
IN_GAME_ACTIONS: dict[str, Callable[[StepKit, Situation, Context, Game], None]] = {
    "move": a_move, "create": a_create, "counter": a_counter, "phase": a_phase,
    "turn": a_turn, "leave": a_leave, "control": a_control,
}
