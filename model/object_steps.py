"""Selection of objects and the object steps: `cease`, `set`, `move-to`, `copy-to`.

A step with `select` (docs/rule-language.md) picks the objects of one of the event's games
that match its selector (`matches`: kind, card type, zone, commander, exemption, a mark of
having begun in a supplementary deck, phasing, face), then, in the order they stand in that
game's zones, makes each cease to exist, sets its status, or moves it to a destination
(`move_object`: a zone of one of the event's games, the owner's, the same player's or the
controller's, 400.3, or a supplementary deck; face and control as the step says). A moved
object is a new object (400.7); an object with nowhere to go stays, and the trace says why.
Such steps carry the cards into a subgame and back (728.2-728.2c, 728.5-728.5c) and the
cards of a restarted game into the new one (726.2, 726.5, 726.5a, 103.2c); others make what
is left of an ending game cease to exist (728.5, 726.1). `copy-to`, which no official clause
uses, makes a new object for each selected card (`copy_card`): a copy of it (707.10a), or,
for amendments that read a rule so (an engine copying the libraries into a subgame), the
card itself again, in a second place.
"""

from __future__ import annotations

from collections.abc import Container, Iterator
from typing import TYPE_CHECKING

from .language import BEGUN, CAME_FROM, Clause, Destination, Selector, Step
from .objects import DECK_OF, NONTRADITIONAL_KINDS, OUTSIDE, PLAYER_ZONES, GameObject, ZoneRef
from .state import Situation
from .trace import Change

if TYPE_CHECKING:
    from .context import Context, StepKit


def object_step(interp: StepKit, state: Situation, ctx: Context, clause: Clause, step: Step,
                rule: str) -> None:
    """Run an object step: select the objects of the step's game that match its selector, in the
    order they stand in that game's zones, and make each cease to exist, set its status or
    move it (`move_object`); one trace entry for the step, with each object's change.

    `set` turns an object face up or down, phases it in or out, or makes it a commander or not;
    `owner = "controller"` gives an object that has a controller to that player to own (an old
    reading of 726.2, for amendments only: cards keep their owner, 108.3).
    """
    assert step.select is not None
    chosen = selected(state, ctx, step.select)
    if step.action == "copy-to":
        assert step.to is not None
        prefix = "card" if step.to.as_ == "card" else "copy"
        names = iter(state.fresh_ids(prefix, len(chosen)))
        changes = [copy_card(interp, state, ctx, step.select, step.to, state.objects[o], names)
                   for o in chosen]
    else:
        changes = [_act(interp, state, ctx, step, state.objects[o]) for o in chosen]
    interp._note(ctx, clause, rule, step.describe() if chosen else
                 step.describe() + " (nothing selected)", changes)


def _act(interp: StepKit, state: Situation, ctx: Context, step: Step,
         obj: GameObject) -> Change:
    """`cease`, `set` or `move-to` on one selected object: the change it makes."""
    if step.action == "cease":
        return Change(obj.id, "ceased", str(state.cease(obj.id)))
    if step.action == "set":
        for key, value in step.args.items():
            if key == "face":
                obj.face_up = value == "up"
            elif key == "phased":
                obj.phased_out = value == "out"
            elif key == "commander" and obj.is_card:  # only a card is a commander (903.3)
                obj.commander = bool(value)
            elif key == "owner" and obj.controller is not None:
                obj.owner = obj.controller
        return Change(obj.id, "set", after=", ".join(f"{k}={v}" for k, v in step.args.items()))
    assert step.select is not None and step.to is not None
    return move_object(interp, state, ctx, step.select, step.to, obj)


def move_object(interp: StepKit, state: Situation, ctx: Context, sel: Selector,
                dest: Destination, obj: GameObject) -> Change:
    """Move one selected object to the step's destination (`destination`).

    The object becomes a new object (400.7), face up or down and controlled as the destination
    says, and is marked as having begun in that deck if the destination says so. Put into a
    game before its first turn, it began that game there: the game records where it came from
    (`came-from`). A card moved outside the game goes to its owner's place there (400.11),
    face up, as a new object; any other object stays. Returns the
    change: the move, or why the object stays (no such game, its player not in it, no deck to
    go to, no such zone).
    """
    here = state.where[obj.id]
    if dest.zone == OUTSIDE:
        if not obj.is_card:
            return Change(obj.id, "stays", str(here), "only a card can be outside the game "
                          "(400.11)")
        interp._reset_on_move(obj)
        obj.face_up = True
        outside = state.outside(obj.owner)
        state.move(obj.id, outside)
        return Change(obj.id, "moved", str(here), str(outside))
    target = destination(state, ctx, sel, dest, obj)
    if isinstance(target, str):
        return Change(obj.id, "stays", str(here), target)
    interp._reset_on_move(obj)
    _arrive(state, ctx, dest, obj, target)
    state.move(obj.id, target, dest.position)
    return Change(obj.id, "moved", str(here), str(target))


def copy_card(interp: StepKit, state: Situation, ctx: Context, sel: Selector,
              dest: Destination, card: GameObject, names: Iterator[str]) -> Change:
    """`copy-to` for one selected object: a card gets a new object, named by `names`, at the
    step's destination (`destination`), and stays where it is.

    With `as = "copy"` the new object is a copy of the card (707.10a: on the stack or the
    battlefield), owned by the card's owner (112.2a), with the card's name and abilities; with
    `as = "card"` it is the card itself again (its kind, types, owner, commander designation,
    supplementary deck), a second place of one card, recorded as `same_card`. Either is a
    new object (400.7): no counters, phased in, nothing acting on it, under its owner's
    control unless the destination gives it to the event's controller, face up or down as
    the destination says (else as the card), with the marks the destination gives. Returns
    the change: the copy made, or why none is (not a card, no such destination).
    """
    here = state.where[card.id]
    if not card.is_card:
        return Change(card.id, "not copied", str(here), "copy-to copies cards only")
    target = destination(state, ctx, sel, dest, card)
    if isinstance(target, str):
        return Change(card.id, "not copied", str(here), target)
    new = card.clone()
    new.id = next(names)
    if dest.as_ == "card":
        new.same_card = card.same_card or card.id
    else:
        new = GameObject(id=new.id, kind="copy", owner=card.owner, name=card.name,
                         face_up=card.face_up, triggers=list(card.triggers),
                         game_of_origin=target.game)
    interp._reset_on_move(new)
    new.controller = card.owner
    state.objects[new.id] = new
    _arrive(state, ctx, dest, new, target)
    state.place(new.id, target, dest.position)
    return Change(new.id, "copied", card.id, str(target))


def destination(state: Situation, ctx: Context, sel: Selector, dest: Destination,
                obj: GameObject) -> ZoneRef | str:
    """The zone that a move or copy of `obj` goes to: a zone of one of the event's games; for
    a library, hand, graveyard or supplementary deck that of the object's owner, of the
    player whose zone it is in, or of its controller (400.3); a deck is the one it is in, the
    one its kind belongs in, or the one it began the game in (728.5a). A string says why
    there is none (no such game, its player not in it, no deck to go to, no such zone, not a
    permanent card for the battlefield)."""
    here = state.where[obj.id]
    game_id = ctx.roles.get(dest.game)
    if game_id is None or game_id not in state.games:
        return f"the event has no {dest.game} game"
    game = state.games[game_id]
    player: str | None = None
    if dest.zone in (*PLAYER_ZONES, "deck"):
        player = {"owner": obj.owner, "same": here.player,
                  "controller": obj.controller or obj.owner}[dest.whose]
        if player not in game.players:
            return f"no {dest.zone} of {player} in {game_id}: not a player there"
    deck: str | None = None
    if dest.zone == "deck":
        if dest.deck == "same":
            deck = here.deck
        elif dest.deck == "own":
            deck = obj.deck or DECK_OF.get(obj.card_type)
        else:
            source = ctx.roles.get(sel.game)
            deck = state.games[source].began_in_deck.get(obj.id) if source in state.games \
                else None
        if deck is None:
            return "no supplementary deck to go to"
    target = _zone(game_id, dest.zone, player, deck)
    if target.kind != "deck" and target not in state.zones:
        return f"{target} does not exist"
    if target.kind == "battlefield" and obj.is_card and not obj.permanent_card:
        return "not a permanent card: it cannot be put onto the battlefield (110.4b)"
    return target


# Every destination zone made so far, by its fields: one object for each zone (a zone is
# immutable), so that the situation's dicts find it as the very key they hold, with no
# comparison of its fields. A new ZoneRef for each move was a dict key compared field by
# field at each of the move's lookups, and an object more per card for `state.where` to
# hold: moving 200,000 cards, 26,600 -> 29,400 cards/s (`benchmarks/simulate.py`).
_ZONES: dict[tuple[str, str, str | None, str | None], ZoneRef] = {}


def _zone(game: str, kind: str, player: str | None, deck: str | None) -> ZoneRef:
    """`ZoneRef(game, kind, player, deck)`, the same object each time (`_ZONES`)."""
    key = (game, kind, player, deck)
    zone = _ZONES.get(key)
    if zone is None:
        zone = _ZONES[key] = ZoneRef(game, kind, player, deck)
    return zone


def _arrive(state: Situation, ctx: Context, dest: Destination, obj: GameObject,
            target: ZoneRef) -> None:
    """What the destination says of an object arriving at `target`: its face, the mark of
    having begun in a deck, its controller; and where it came from, if it is put into a game
    before the game's first turn."""
    game = state.games[str(target.game)]
    if dest.face != "keep":
        obj.face_up = dest.face == "up"
    if dest.mark == "began-in-deck" and target.deck is not None:
        game.began_in_deck[obj.id] = target.deck
    if dest.control == "event-controller" and ctx.controller:
        obj.controller = ctx.controller
    if game.stage != BEGUN and target.kind in CAME_FROM:  # put there before the first turn
        game.came_from[obj.id] = target.kind


def selected(state: Situation, ctx: Context, sel: Selector) -> list[str]:
    """The objects of the selector's game that match it (`matches`), in the order they
    stand in that game's zones (`StepKit._objects_of_game`'s order).

    Only what can match is looked at: a zone that the selector's zones rule out is skipped
    whole (each object is in the zone that `state.where` names, 400.1), and where the
    selector wants the event's exempt objects, or the cards marked as having begun the game
    in a supplementary deck, an object that is not one is passed over by its name. A step
    of the official rules that moves nothing otherwise looked at every object of its game:
    of the interpreter's benchmark at 200,000 cards, 11 such looks of 75,000 to 195,000
    objects each, about 2 s of 10 (`benchmarks/simulate.py`)."""
    game_id = ctx.roles.get(sel.game)
    if game_id is None:
        return []
    zones = state.zones_in_order(game_id)
    if sel.zone:
        zones = [z for z in zones if any(_zone_is(z, k) for k in sel.zone)]
    if sel.zone_not:
        zones = [z for z in zones if not any(_zone_is(z, k) for k in sel.zone_not)]
    objects = state.objects
    # The tests by name that an object must pass, if any: the event's exempt objects, or
    # the cards marked as having begun the game in a supplementary deck of this game.
    names: list[Container[str]] = []
    if sel.exempt:
        names.append(ctx.exempt)
    if sel.began_in_deck and game_id in state.games:
        names.append(state.games[game_id].began_in_deck)
    if names:
        return [o for z in zones for o in state.zones[z]
                if all(o in n for n in names) and matches(state, ctx, sel, objects[o])]
    return [o for z in zones for o in state.zones[z] if matches(state, ctx, sel, objects[o])]


def matches(state: Situation, ctx: Context, sel: Selector, obj: GameObject) -> bool:
    """Whether the object passes every test of the selector: its kind; its card type
    ("nontraditional": any of them); its zone (a supplementary deck is in the command zone) and
    the zones it must not be in; the commander designation; the event's exemption; the mark of
    having begun in a supplementary deck of the selector's game; where it came from into that
    game (`came-from`); phasing and face."""
    zone = state.where[obj.id]
    if sel.object and obj.kind not in sel.object:
        return False
    if sel.card_type:
        if not obj.is_card:
            return False
        kinds = set(sel.card_type)
        if "nontraditional" in kinds:
            kinds |= set(NONTRADITIONAL_KINDS)
        if obj.card_type not in kinds:
            return False
    if sel.zone and not any(_zone_is(zone, k) for k in sel.zone):
        return False
    if sel.zone_not and any(_zone_is(zone, k) for k in sel.zone_not):
        return False
    if sel.commander is not None and obj.commander != sel.commander:
        return False
    if sel.exempt is not None and (obj.id in ctx.exempt) != sel.exempt:
        return False
    if sel.began_in_deck is not None:
        game = state.games.get(ctx.roles.get(sel.game) or "")
        marked = game is not None and obj.id in game.began_in_deck
        if marked != sel.began_in_deck:
            return False
    if sel.permanent_card is not None and obj.permanent_card != sel.permanent_card:
        return False
    if sel.aura is not None and obj.aura != sel.aura:
        return False
    if sel.came_from:
        game = state.games.get(ctx.roles.get(sel.game) or "")
        came = game.came_from.get(obj.id) if game is not None else None
        if not any(came == k or (k == "command" and came == "deck") for k in sel.came_from):
            return False
    if sel.phased != "any" and obj.phased_out != (sel.phased == "out"):
        return False
    if sel.face != "any" and obj.face_up != (sel.face == "up"):
        return False
    return True


def _zone_is(zone: ZoneRef, kind: str) -> bool:
    """A supplementary deck is in the command zone, so "command" matches decks too."""
    return zone.kind == kind or (kind == "command" and zone.kind == "deck")
