"""The concrete interpreter: runs events on explicit situations, clause by clause.

For the rule-defined events (`start-subgame`, `end-subgame`, `restart`, `bring-in`,
`affect`) it checks what the event needs, binds the event's game roles, then runs the steps
of every clause acting on that event, in rulebook order, recording each in the trace with
its clause and CR number. In-game actions follow the general rules directly. The input
situation is never changed: `run` works on a copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .choices import Chooser, SeededChooser, shuffle
from .errors import IllegalEvent
from .events import GENERAL_RULES, Event
from .language import Clause, Destination, Selector, Step
from .objects import (
    DECK_OF,
    NONCARD_ZONES,
    NONTRADITIONAL_KINDS,
    OUTSIDE,
    PLAYER_ZONES,
    GameObject,
    ZoneRef,
)
from .rulebook import Rulebook, official
from .state import EndedGame, Game, Result, Situation, Trigger
from .trace import Change, TraceStep

DEFAULT_ZONE = {"token": "battlefield", "copy": "stack", "emblem": "command",
                "ability": "stack", "effect": "effects"}


@dataclass
class Context:
    """What one event binds: its game roles and arguments."""

    event: Event
    index: int
    roles: dict[str, str | None]
    exempt: frozenset[str] = frozenset()
    controller: str | None = None
    creator: str | None = None
    brought: str | None = None
    brought_from: ZoneRef | None = None
    trace: list[TraceStep] = field(default_factory=list)


@dataclass(frozen=True)
class Bound:
    """What one event bound: its game roles and parameters (for invariant checks)."""

    roles: dict[str, str]
    controller: str | None
    exempt: frozenset[str]
    creator: str | None
    card: str | None
    then_battlefield: bool


@dataclass
class Outcome:
    """The situation after an event (or a run of events) and the trace that led there."""

    situation: Situation
    trace: list[TraceStep]
    bound: list[Bound] = field(default_factory=list)


class Interpreter:
    """Executes events under one rulebook, in one edition's numbering, with one chooser."""

    def __init__(self, rulebook: Rulebook | None = None, chooser: Chooser | None = None,
                 edition: str | None = None):
        self.rulebook = rulebook or official()
        self.chooser: Chooser = chooser or SeededChooser(0)
        self.edition = edition or self.rulebook.default_edition

    # ---- public -------------------------------------------------------------------------

    def run(self, situation: Situation, events: list[Event]) -> Outcome:
        """Apply events in order to a copy of `situation`."""
        state = situation.copy()
        outcome = Outcome(state, [])
        for index, event in enumerate(events, start=1):
            self._apply(state, event, index, outcome)
        return outcome

    def step(self, situation: Situation, event: Event, index: int = 1) -> Outcome:
        outcome = Outcome(situation.copy(), [])
        self._apply(outcome.situation, event, index, outcome)
        return outcome

    # ---- dispatch -----------------------------------------------------------------------

    def _apply(self, state: Situation, event: Event, index: int, outcome: Outcome) -> None:
        try:
            active = state.active_game()
        except ValueError as err:
            raise IllegalEvent(f"{event.kind}: the situation has no single active game ({err})",
                               rule="728.1a") from None
        handler = getattr(self, "_event_" + event.kind.replace("-", "_"))
        ctx = Context(event=event, index=index, roles={"active": active.id})
        handler(state, ctx, active)
        outcome.trace.extend(ctx.trace)
        outcome.bound.append(Bound(
            roles={k: v for k, v in ctx.roles.items() if v is not None},
            controller=ctx.controller, exempt=ctx.exempt, creator=ctx.creator,
            card=ctx.brought, then_battlefield=event.get("then") == "battlefield"))

    def _run_clauses(self, state: Situation, ctx: Context) -> None:
        for clause in self.rulebook.on(ctx.event.kind):
            for step in clause.steps:
                self._run_step(state, ctx, clause, step)

    def _note(self, ctx: Context, clause: Clause | None, rule: str, text: str,
              changes: list[Change] | None = None) -> None:
        ctx.trace.append(TraceStep(ctx.index, clause.name if clause else None, rule, text,
                                   tuple(changes or ())))

    def _cite(self, clause: Clause) -> str:
        return clause.cite(self.edition)

    # ---- rule-defined events ------------------------------------------------------------

    def _event_start_subgame(self, state: Situation, ctx: Context, active: Game) -> None:
        if active.parent is not None:
            nesting = self.rulebook.grants("start-subgame", "permit", "nested-subgame")
            if nesting is None:
                raise IllegalEvent(f"start-subgame: {active.id} is itself a subgame and no clause "
                                   "permits a subgame inside a subgame", rule="728.6")
            self._uses(ctx, nesting, f"{active.id} becomes the main game of the new subgame")
        by = self._player_in(ctx.event.get("by", active.players[0]), active, "by")
        via = ctx.event.get("via")
        if via is not None:
            self._object_in(state, via, active, "via")
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
            self._note(ctx, None, "728.1a", f"{by} casts {name}; its effect creates a subgame",
                       [Change(via, "created", after=str(ZoneRef(active.id, "stack")))])
        ctx.creator = via
        ctx.controller = by
        ctx.roles.update(main=active.id, subgame=None)
        self._run_clauses(state, ctx)

    def _event_end_subgame(self, state: Situation, ctx: Context, active: Game) -> None:
        if active.parent is None:
            raise IllegalEvent(f"end-subgame: no subgame is running ({active.id} is the "
                               "outermost game)", rule="728.1a")
        winners = ctx.event.get("winner") or []
        for player in winners:
            self._player_in(player, active, "winner")
        if winners and ctx.event.get("draw"):
            raise IllegalEvent("end-subgame: a game with a winner is not a draw")
        ctx.creator = active.created_by
        ctx.roles.update(subgame=active.id, main=active.parent)
        self._run_clauses(state, ctx)

    def _event_restart(self, state: Situation, ctx: Context, active: Game) -> None:
        controller = self._player_in(ctx.event.get("controller"), active, "controller")
        exempt = ctx.event.get("exempt") or []
        for card in exempt:
            obj = self._object_in(state, card, active, "exempt")
            if not obj.is_card:
                raise IllegalEvent(f"restart: exempt object {card!r} is not a card", rule="726.5")
        if ctx.event.get("via") is not None:
            self._object_in(state, ctx.event.get("via"), active, "via")
        then = ctx.event.get("then")
        if then not in (None, "battlefield"):
            raise IllegalEvent(f"restart: then={then!r}: the only further instruction known "
                               "is 'battlefield' (Karn Liberated)")
        ctx.controller = controller
        ctx.exempt = frozenset(exempt)
        ctx.roles.update(restarted=active.id, new=None, main=active.parent)
        self._run_clauses(state, ctx)

    def _event_bring_in(self, state: Situation, ctx: Context, active: Game) -> None:
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
            outside = self.rulebook.grants("bring-in", "permit", "bring-in-from-main-game")
            if outside is None:
                raise IllegalEvent(f"bring-in: {card_id} is in the game {where.game}; no clause "
                                   f"makes it outside the subgame {active.id}", rule="728.4")
            self._uses(ctx, outside, f"{card_id}, in the main game {where.game}, is outside "
                       f"the subgame {active.id}")
        if card.phased_out:
            raise IllegalEvent(f"bring-in: {card_id} is phased out and cannot be acquired")
        if card.owner not in active.players:
            raise IllegalEvent(f"bring-in: {card_id}'s owner {card.owner} is not a player in "
                               f"{active.id} (an effect brings in a card its player owns)",
                               rule="400.11b")
        kind = ctx.event.get("to", "hand" if card.traditional else "command")
        if not card.traditional and kind != "command":
            raise IllegalEvent(f"bring-in: {card_id} is a {card.card_type} card; a "
                               "nontraditional card can only come into the command zone")
        player = self._player_in(ctx.event.get("by", card.owner), active, "by")
        if kind in PLAYER_ZONES:
            dest = ZoneRef(active.id, kind, card.owner)  # the owner's zone (400.3)
        elif kind in ("battlefield", "exile", "command", "stack"):
            dest = ZoneRef(active.id, kind)
        else:
            raise IllegalEvent(f"bring-in: cannot bring a card into the zone {kind!r}")
        self._reset_on_move(card)
        state.move(card_id, dest)
        card.controller = player
        ctx.brought, ctx.brought_from = card_id, where
        ctx.roles.update(source=where.game)
        self._note(ctx, None, "400.11b", f"{card_id} is brought into {active.id}",
                   [Change(card_id, "moved", str(where), str(dest))])
        self._run_clauses(state, ctx)

    def _event_affect(self, state: Situation, ctx: Context, active: Game) -> None:
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
        forbidding = self.rulebook.grants("affect", "forbid", "cross-game-effects")
        target_game = (state.where[target_obj].game if target_obj is not None else None)
        player_games = [g.id for g in state.games.values() if target_player in g.players]
        same = (effect_game == active.id
                and (target_game == effect_game if target_obj is not None
                     else effect_game in player_games))
        if forbidding is not None and not same:
            raise IllegalEvent(f"affect: {effect.id} belongs to {effect_game}; it has no meaning "
                               f"for {target_obj or target_player} in game {target_game or active.id}",
                               rule=self._cite(forbidding))
        self._uses(ctx, forbidding, f"{effect.id} and {target_obj or target_player} are of one "
                   "game")
        target = target_obj or target_player
        assert target is not None
        if target_obj is not None:
            state.objects[target_obj].affected_by.append(effect.id)
        else:
            state.player_effects.setdefault(target_player, []).append(effect.id)
        self._note(ctx, None, "611.1", f"{effect.id} ({effect_game}) acts on {target}",
                   [Change(target, "affected", after=effect.id)])

    # ---- in-game actions ----------------------------------------------------------------

    def _event_move(self, state: Situation, ctx: Context, active: Game) -> None:
        obj = self._object_in(state, ctx.event.get("object"), active, "object")
        dest = self._zone_in(state, ctx.event.get("to"), active, obj)
        position = ctx.event.get("position", "top")
        if position not in ("top", "bottom"):
            raise IllegalEvent(f"move: position must be top or bottom, not {position!r}")
        if not obj.is_card and dest.kind not in NONCARD_ZONES[obj.kind]:
            if obj.kind in ("token", "copy"):
                before = state.cease(obj.id)
                self._note(ctx, None, "704.5d", f"{obj.id} leaves for {dest} and ceases to exist",
                           [Change(obj.id, "ceased", str(before))])
                return
            raise IllegalEvent(f"move: an {obj.kind} does not change zones")
        self._reset_on_move(obj)
        before = state.move(obj.id, dest, position)
        self._note(ctx, None, GENERAL_RULES["move"], f"{obj.id} moves",
                   [Change(obj.id, "moved", str(before), str(dest))])

    def _event_create(self, state: Situation, ctx: Context, active: Game) -> None:
        kind = ctx.event.get("kind")
        if kind not in DEFAULT_ZONE:
            raise IllegalEvent(f"create: kind must be one of {', '.join(DEFAULT_ZONE)}, "
                               f"not {kind!r}")
        controller = self._player_in(ctx.event.get("controller"), active, "controller")
        obj_id = ctx.event.get("id") or state.fresh_id(kind)
        if obj_id in state.objects:
            raise IllegalEvent(f"create: an object {obj_id!r} already exists")
        copy_of = ctx.event.get("copy-of")
        if copy_of is not None and copy_of not in state.objects:
            raise IllegalEvent(f"create: copy-of names no object {copy_of!r}")
        obj = GameObject(id=obj_id, kind=kind, owner=controller, controller=controller,
                         name=ctx.event.get("name", ""), game_of_origin=active.id,
                         triggers=list(ctx.event.get("triggers") or []))
        to = ctx.event.get("to")
        dest = (self._zone_in(state, to, active, obj) if to
                else ZoneRef(active.id, DEFAULT_ZONE[kind]))
        if dest.kind not in NONCARD_ZONES[kind]:
            raise IllegalEvent(f"create: an {kind} is created in "
                               f"{' or '.join(NONCARD_ZONES[kind])}, not in {dest.kind}")
        state.objects[obj_id] = obj
        state.place(obj_id, dest)
        rule = {"token": "111.1", "copy": "707.10", "emblem": "114.1", "ability": "113.3",
                "effect": "611.1"}[kind]
        self._note(ctx, None, rule, f"{controller} creates {kind} {obj_id}",
                   [Change(obj_id, "created", after=str(dest))])

    def _event_counter(self, state: Situation, ctx: Context, active: Game) -> None:
        kind, add = ctx.event.get("kind"), ctx.event.get("add")
        player, obj_id = ctx.event.get("player"), ctx.event.get("object")
        if (player is None) == (obj_id is None):
            raise IllegalEvent("counter: name exactly one of player or object")
        if player is not None:
            self._player_in(player, active, "player")
            counters = state.counters_of(active.id, player)
            target = player
        else:
            obj = self._object_in(state, obj_id, active, "object")
            counters, target = obj.counters, obj.id
        value = counters.get(kind, 0) + add
        if value < 0:
            raise IllegalEvent(f"counter: {target} has only {counters.get(kind, 0)} {kind} counters")
        if value:
            counters[kind] = value
        else:
            counters.pop(kind, None)
        self._note(ctx, None, GENERAL_RULES["counter"],
                   f"{target} {'gets' if add >= 0 else 'loses'} {abs(add)} {kind} counter(s) "
                   f"in {active.id}", [Change(target, "counters", after=f"{kind}={value}")])

    def _event_phase(self, state: Situation, ctx: Context, active: Game) -> None:
        obj = self._object_in(state, ctx.event.get("object"), active, "object")
        if state.where[obj.id].kind != "battlefield":
            raise IllegalEvent(f"phase: {obj.id} is not a permanent on the battlefield",
                               rule="702.26a")
        obj.phased_out = bool(ctx.event.get("out"))
        word = "out" if obj.phased_out else "in"
        self._note(ctx, None, GENERAL_RULES["phase"], f"{obj.id} phases {word}",
                   [Change(obj.id, f"phased {word}")])

    def _event_turn(self, state: Situation, ctx: Context, active: Game) -> None:
        obj = self._object_in(state, ctx.event.get("object"), active, "object")
        face = ctx.event.get("face")
        if face not in ("up", "down"):
            raise IllegalEvent(f"turn: face must be up or down, not {face!r}")
        obj.face_up = face == "up"
        self._note(ctx, None, GENERAL_RULES["turn"], f"{obj.id} is turned face {face}",
                   [Change(obj.id, f"face {face}")])

    def _event_leave(self, state: Situation, ctx: Context, active: Game) -> None:
        player = self._player_in(ctx.event.get("player"), active, "player")
        if len(active.players) == 1:
            raise IllegalEvent(f"leave: {player} is the last player in {active.id}; a game "
                               "whose players all leave is over (104.2a), which the model "
                               "shows as end-subgame")
        active.players.remove(player)
        active.left.append(player)
        state.player_effects.pop(player, None)  # no effect acts on a player who left
        changes: list[Change] = []
        for obj_id in self._objects_of_game(state, active.id):
            obj = state.objects[obj_id]
            if obj.owner == player:
                if obj.is_card:
                    self._reset_on_move(obj)
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
                self._reset_on_move(obj)
                before = state.move(obj_id, ZoneRef(active.id, "exile"))
                changes.append(Change(obj_id, "moved", str(before), str(ZoneRef(active.id, "exile"))))
        for zone in [z for z in state.zones if z.game == active.id and z.player == player]:
            if not state.zones[zone]:
                del state.zones[zone]
        self._note(ctx, None, GENERAL_RULES["leave"], f"{player} leaves {active.id}", changes)

    # ---- steps --------------------------------------------------------------------------

    def _run_step(self, state: Situation, ctx: Context, clause: Clause, step: Step) -> None:
        rule = self._cite(clause)
        if step.select is not None:
            self._object_step(state, ctx, clause, step, rule)
            return
        getattr(self, "_game_" + step.action.replace("-", "_"))(state, ctx, clause, step.args, rule)

    def _object_step(self, state: Situation, ctx: Context, clause: Clause, step: Step,
                     rule: str) -> None:
        assert step.select is not None
        chosen = [o for o in self._objects_of_game(state, ctx.roles.get(step.select.game))
                  if self._matches(state, ctx, step.select, state.objects[o])]
        changes: list[Change] = []
        for obj_id in chosen:
            obj = state.objects[obj_id]
            if step.action == "cease":
                changes.append(Change(obj_id, "ceased", str(state.cease(obj_id))))
            elif step.action == "set":
                for key, value in step.args.items():
                    if key == "face":
                        obj.face_up = value == "up"
                    elif key == "phased":
                        obj.phased_out = value == "out"
                    elif key == "commander":
                        obj.commander = bool(value)
                changes.append(Change(obj_id, "set", after=", ".join(
                    f"{k}={v}" for k, v in step.args.items())))
            else:
                assert step.to is not None
                changes.append(self._move_object(state, ctx, step.select, step.to, obj))
        self._note(ctx, clause, rule, step.describe() if chosen else
                   step.describe() + " (nothing selected)", changes)

    def _move_object(self, state: Situation, ctx: Context, sel: Selector, dest: Destination,
                     obj: GameObject) -> Change:
        here = state.where[obj.id]
        game_id = ctx.roles.get(dest.game)
        if game_id is None or game_id not in state.games:
            return Change(obj.id, "stays", str(here), f"the event has no {dest.game} game")
        game = state.games[game_id]
        player: str | None = None
        if dest.zone in (*PLAYER_ZONES, "deck"):
            player = {"owner": obj.owner, "same": here.player,
                      "controller": obj.controller or obj.owner}[dest.whose]
            if player not in game.players:
                return Change(obj.id, "stays", str(here),
                              f"no {dest.zone} of {player} in {game_id}: not a player there")
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
                return Change(obj.id, "stays", str(here), "no supplementary deck to go to")
        target = ZoneRef(game_id, dest.zone, player, deck)
        if target.kind != "deck" and target not in state.zones:
            return Change(obj.id, "stays", str(here), f"{target} does not exist")
        self._reset_on_move(obj)
        if dest.face != "keep":
            obj.face_up = dest.face == "up"
        if dest.mark == "began-in-deck" and deck is not None:
            game.began_in_deck[obj.id] = deck
        if dest.control == "event-controller" and ctx.controller:
            obj.controller = ctx.controller
        state.move(obj.id, target, dest.position)
        return Change(obj.id, "moved", str(here), str(target))

    def _matches(self, state: Situation, ctx: Context, sel: Selector, obj: GameObject) -> bool:
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
        if sel.phased != "any" and obj.phased_out != (sel.phased == "out"):
            return False
        if sel.face != "any" and obj.face_up != (sel.face == "up"):
            return False
        return True

    # ---- game steps ---------------------------------------------------------------------

    def _game_create_game(self, state: Situation, ctx: Context, clause: Clause,
                          args: dict[str, Any], rule: str) -> None:
        source = state.games[self._role(ctx, args["players"])]
        players = [p for p in source.players]
        if ctx.event.kind == "restart" and source.range_of_influence is not None:
            every = self.rulebook.grants("restart", "permit", "restart-ignores-range")
            if every is None:
                players = _in_range(source.players, ctx.controller or players[0],
                                    source.range_of_influence)
            else:
                self._uses(ctx, every, "every player is involved, whatever the range of "
                           "influence")
        parent_role = args["parent"]
        parent = (source.parent if parent_role == "parent-of-restarted"
                  else None if parent_role == "none" else self._role(ctx, parent_role))
        game_id = state.fresh_id("subgame" if ctx.event.kind == "start-subgame" else "game")
        game = Game(id=game_id, players=players, parent=parent, variants=list(source.variants),
                    range_of_influence=source.range_of_influence, status="active")
        if ctx.event.kind == "start-subgame":
            game.created_by = ctx.creator
        state.games[game_id] = game
        state.create_zones(game)
        ctx.roles[args["game"]] = game_id
        self._note(ctx, clause, rule, f"a new game {game_id} begins for "
                   f"{', '.join(players) or 'no player'}"
                   + (f", under {parent}" if parent else ", at the top of the tree"),
                   [Change(game_id, "game created", after=parent or "root")])

    def _game_suspend(self, state: Situation, ctx: Context, clause: Clause,
                      args: dict[str, Any], rule: str) -> None:
        game = state.games[self._role(ctx, args["_"])]
        game.status = "suspended"
        self._note(ctx, clause, rule, f"{game.id} is discontinued until its subgame ends",
                   [Change(game.id, "suspended")])

    def _game_resume(self, state: Situation, ctx: Context, clause: Clause,
                     args: dict[str, Any], rule: str) -> None:
        game = state.games[self._role(ctx, args["_"])]
        game.status = "active"
        self._note(ctx, clause, rule, f"{game.id} resumes", [Change(game.id, "resumed")])

    def _game_end_game(self, state: Situation, ctx: Context, clause: Clause,
                       args: dict[str, Any], rule: str) -> None:
        game = state.games[self._role(ctx, args["game"])]
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
        self._note(ctx, clause, rule, f"{game.id} ends: {result.describe()}",
                   [Change(game.id, "ended", after=result.describe())])

    def _game_destroy_zones(self, state: Situation, ctx: Context, clause: Clause,
                            args: dict[str, Any], rule: str) -> None:
        game_id = self._role(ctx, args["_"])
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
        self._note(ctx, clause, rule, f"the zones of {game_id} cease to exist", changes)

    def _game_shuffle(self, state: Situation, ctx: Context, clause: Clause,
                      args: dict[str, Any], rule: str) -> None:
        game_id = ctx.roles.get(args["game"])
        zones = [z for z in state.zones if z.game == game_id and z.kind == args["zone"]]
        for zone in sorted(zones, key=ZoneRef.sort_key):
            state.zones[zone] = shuffle(state.zones[zone], self.chooser, f"shuffle {zone}")
        self._note(ctx, clause, rule, f"shuffle each {args['zone']} of {game_id}",
                   [Change(str(z), "shuffled") for z in sorted(zones, key=ZoneRef.sort_key)
                    if len(state.zones[z]) > 1])

    def _game_starting_player(self, state: Situation, ctx: Context, clause: Clause,
                              args: dict[str, Any], rule: str) -> None:
        game = state.games[self._role(ctx, args["game"])]
        if args["choose"] == "random":
            if not game.players:
                return
            chosen = game.players[self.chooser.pick(len(game.players), "starting player")]
            how = "at random"
        else:
            chosen = ctx.controller or game.players[0]
            how = "as the controller of the restarting spell or ability"
        game.starting_player = chosen
        self._note(ctx, clause, rule, f"{chosen} is the starting player of {game.id}, {how}",
                   [Change(game.id, "starting player", after=chosen)])

    def _game_short_library(self, state: Situation, ctx: Context, clause: Clause,
                            args: dict[str, Any], rule: str) -> None:
        game = state.games[self._role(ctx, args["game"])]
        minimum = int(args["minimum"])
        game.doomed = [p for p in game.players
                       if len(state.zones.get(ZoneRef(game.id, "library", p), [])) < minimum]
        text = (f"{', '.join(game.doomed)} will lose {game.id} at the first upkeep "
                f"(fewer than {minimum} cards in library)" if game.doomed
                else f"every library of {game.id} has at least {minimum} cards")
        self._note(ctx, clause, rule, text, [Change(p, "will lose") for p in game.doomed])

    def _game_cease_player_counters(self, state: Situation, ctx: Context, clause: Clause,
                                    args: dict[str, Any], rule: str) -> None:
        game_id = self._role(ctx, args["_"])
        keys = [k for k in state.player_counters if k[0] == game_id]
        changes = [Change(k[1], "counters ceased", after=str(state.player_counters[k]))
                   for k in keys if state.player_counters[k]]
        for key in keys:
            del state.player_counters[key]
        self._note(ctx, clause, rule, f"the counters players got in {game_id} cease to exist",
                   changes)

    def _game_copy_player_counters(self, state: Situation, ctx: Context, clause: Clause,
                                   args: dict[str, Any], rule: str) -> None:
        source, target = self._role(ctx, args["from"]), self._role(ctx, args["to"])
        changes: list[Change] = []
        for player in state.games[target].players:
            counters = dict(state.player_counters.get((source, player), {}))
            state.player_counters[(target, player)] = counters
            if counters:
                changes.append(Change(player, "counters", after=str(counters)))
        self._note(ctx, clause, rule, f"players' counters of {source} are copied to {target}",
                   changes)

    def _game_finish_resolving(self, state: Situation, ctx: Context, clause: Clause,
                               args: dict[str, Any], rule: str) -> None:
        game = state.games[self._role(ctx, args["_"])]
        creator = ctx.creator
        if creator is None:
            self._note(ctx, clause, rule, "no spell or ability is known to have created it")
            return
        game.resolved.append(creator)
        changes: list[Change] = [Change(creator, "finishes resolving")]
        obj = state.objects.get(creator)
        if obj is not None and state.where[creator] == ZoneRef(game.id, "stack"):
            if obj.is_card:
                dest = ZoneRef(game.id, "graveyard", obj.owner)
                if dest in state.zones:
                    self._reset_on_move(obj)
                    changes.append(Change(creator, "moved", str(state.move(creator, dest)),
                                          str(dest)))
            else:
                changes.append(Change(creator, "ceased", str(state.cease(creator))))
        self._note(ctx, clause, rule, f"{creator} finishes resolving in {game.id}", changes)

    def _game_release_triggers(self, state: Situation, ctx: Context, clause: Clause,
                               args: dict[str, Any], rule: str) -> None:
        game = state.games[self._role(ctx, args["_"])]
        changes: list[Change] = []
        for trigger in game.pending_triggers:
            if trigger.id in state.objects:
                trigger = Trigger(state.fresh_id("trigger"), trigger.source, trigger.card,
                                  trigger.left, trigger.game, trigger.controller)
            ability = GameObject(id=trigger.id, kind="ability", owner=_owner(state, trigger),
                                 controller=_owner(state, trigger),
                                 name=f"leaves-zone trigger of {trigger.source} for {trigger.card}",
                                 game_of_origin=game.id)
            state.objects[trigger.id] = ability
            state.place(trigger.id, ZoneRef(game.id, "stack"))
            changes.append(Change(trigger.id, "put on the stack", after=str(ZoneRef(game.id,
                                                                                     "stack"))))
        game.pending_triggers = []
        self._note(ctx, clause, rule, f"the abilities that waited in {game.id} go on the stack",
                   changes)

    def _game_queue_leave_triggers(self, state: Situation, ctx: Context, clause: Clause,
                                   args: dict[str, Any], rule: str) -> None:
        game_id = ctx.roles.get(args["_"])
        if game_id is None or ctx.brought is None or ctx.brought_from is None:
            return  # the card came from outside every game: no game's ability sees it leave
        game = state.games[game_id]
        changes: list[Change] = []
        # The brought card looks back in time (603.10a): its own leaves-a-zone ability sees
        # it leave, as do the abilities of the objects still in the main game.
        for obj_id in [ctx.brought, *self._objects_of_game(state, game_id)]:
            watcher = state.objects[obj_id]
            if "leaves-zone" in watcher.triggers and not watcher.phased_out:
                trigger = Trigger(state.fresh_id("trigger"), watcher.id, ctx.brought,
                                  str(ctx.brought_from), game_id,
                                  watcher.controller or watcher.owner)
                game.pending_triggers.append(trigger)
                changes.append(Change(trigger.id, "triggered, waits",
                                      after=f"{watcher.id} saw {ctx.brought} leave "
                                            f"{ctx.brought_from}"))
        self._note(ctx, clause, rule, f"abilities of {game_id} that trigger on {ctx.brought} "
                   f"leaving wait until {game_id} resumes", changes)

    def _game_inherit(self, state: Situation, ctx: Context, clause: Clause,
                      args: dict[str, Any], rule: str) -> None:
        old_id, new_id = ctx.roles.get(args["from"]), ctx.roles.get(args["to"])
        if new_id is None or new_id not in state.games or old_id is None:
            self._note(ctx, clause, rule, "no new game to take the restarted game's place")
            return
        new = state.games[new_id]
        old = state.games.get(old_id)
        created_by = old.created_by if old else None
        new.created_by = created_by
        new.restarted_from = old_id
        where = f"as the subgame of {new.parent}" if new.parent else "as the outermost game"
        self._note(ctx, clause, rule, f"{new_id} takes the place of {old_id} {where}",
                   [Change(new_id, "replaces", old_id, new.parent or "root")])

    def _game_further_instructions(self, state: Situation, ctx: Context, clause: Clause,
                                   args: dict[str, Any], rule: str) -> None:
        game_id = self._role(ctx, args["_"])
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
        self._note(ctx, clause, rule, "just before the first untap step the restart effect "
                   "finishes (no player has priority; triggers wait for the next priority)",
                   changes)

    def _game_permit(self, state: Situation, ctx: Context, clause: Clause,
                     args: dict[str, Any], rule: str) -> None:
        """Permissions act through the events that consult them (`_uses`)."""

    def _game_forbid(self, state: Situation, ctx: Context, clause: Clause,
                     args: dict[str, Any], rule: str) -> None:
        """Prohibitions act through the events that consult them (`_uses`)."""

    def _uses(self, ctx: Context, clause: Clause | None, text: str) -> None:
        """Record in the trace that the event relied on a clause's permission."""
        if clause is not None:
            self._note(ctx, clause, self._cite(clause), text)

    # ---- helpers ------------------------------------------------------------------------

    def _role(self, ctx: Context, role: str) -> str:
        game_id = ctx.roles.get(role)
        if game_id is None:
            raise IllegalEvent(f"{ctx.event.kind}: the rulebook refers to the {role} game, "
                               "but no clause created it")
        return game_id

    @staticmethod
    def _objects_of_game(state: Situation, game_id: str | None) -> list[str]:
        if game_id is None:
            return []
        zones = sorted((z for z in state.zones if z.game == game_id), key=ZoneRef.sort_key)
        return [o for z in zones for o in state.zones[z]]

    @staticmethod
    def _reset_on_move(obj: GameObject) -> None:
        """A moved object is a new object (CR 400.7): counters, phasing, effects are gone."""
        obj.counters = {}
        obj.phased_out = False
        obj.affected_by = []
        obj.controller = obj.owner if obj.is_card else obj.controller
        obj.since_first_turn = False

    @staticmethod
    def _player_in(player: Any, game: Game, what: str) -> str:
        if player not in game.players:
            raise IllegalEvent(f"{what}: {player!r} is not a player in {game.id} "
                               f"({', '.join(game.players)})")
        return str(player)

    @staticmethod
    def _object_in(state: Situation, obj_id: Any, game: Game, what: str) -> GameObject:
        if obj_id not in state.objects:
            raise IllegalEvent(f"{what}: no object {obj_id!r}")
        if state.where[obj_id].game != game.id:
            raise IllegalEvent(f"{what}: {obj_id} is in {state.where[obj_id]}, not in the active "
                               f"game {game.id} (CR 728.4: only the active game acts)")
        return state.objects[obj_id]

    @staticmethod
    def _zone_in(state: Situation, path: Any, game: Game, obj: GameObject) -> ZoneRef:
        from .objects import parse_zone

        try:
            zone = parse_zone(str(path))
        except ValueError as err:
            raise IllegalEvent(str(err)) from None
        if zone.is_outside:
            if not obj.is_card or zone.player != obj.owner:
                raise IllegalEvent(f"only a card can go outside the game, and only its "
                                   f"owner's: {path}")
            state.outside(obj.owner)
            return zone
        if zone.game != game.id:
            raise IllegalEvent(f"{path} is not a zone of the active game {game.id}")
        if obj.is_card and zone.kind == "effects":
            raise IllegalEvent(f"{path}: a card is never among a game's effects")
        zone = Interpreter._card_zone(zone, game, obj)
        if zone.kind != "deck" and zone not in state.zones:
            raise IllegalEvent(f"{path} does not exist")
        return zone

    @staticmethod
    def _card_zone(zone: ZoneRef, game: Game, obj: GameObject) -> ZoneRef:
        """Where a card actually goes: its owner's library, hand or graveyard (400.3); a
        supplementary deck only for its own cards; a library never for a nontraditional one."""
        if obj.is_card and zone.kind in (*PLAYER_ZONES, "deck") and zone.player != obj.owner:
            zone = ZoneRef(zone.game, zone.kind, obj.owner, zone.deck)
        if zone.player is not None and zone.player not in game.players:
            raise IllegalEvent(f"{zone}: {zone.player} is not a player in {game.id}")
        if obj.is_card and zone.kind in (*PLAYER_ZONES, "stack") and not obj.traditional:
            raise IllegalEvent(f"{obj.id} is a {obj.card_type} card: never in a {zone.kind} "
                               "(108.2a)")
        if zone.kind == "deck" and (not obj.is_card or DECK_OF.get(obj.card_type) != zone.deck):
            raise IllegalEvent(f"{obj.id} does not belong in a {zone.deck} deck")
        return zone


def _zone_is(zone: ZoneRef, kind: str) -> bool:
    """A supplementary deck is in the command zone, so "command" matches decks too."""
    return zone.kind == kind or (kind == "command" and zone.kind == "deck")


def _in_range(players: list[str], controller: str, reach: int) -> list[str]:
    """Players within `reach` seats of `controller` (CR 801.2), in seat order."""
    if controller not in players:
        return list(players)
    n, here = len(players), players.index(controller)
    return [p for i, p in enumerate(players) if min((i - here) % n, (here - i) % n) <= reach]


def _owner(state: Situation, trigger: Trigger) -> str:
    """A triggered ability is controlled by the controller of its source (113.8)."""
    if trigger.controller is not None:
        return trigger.controller
    game = state.games.get(trigger.game)
    return game.players[0] if game is not None and game.players else state.players[0]
