"""What every step of the concrete interpreter is handed: the event's `Context` (its game
roles and arguments, and the trace so far), what the event bound (`Bound`), and `StepKit`:
the interpreter's rulebook, chooser and edition, its trace and citations, and the checks the
steps share (a player of the game, an object of the active game, a zone it may go to).

The steps (`event_steps`, `actions`, `game_steps`, `object_steps`) take a `StepKit` first;
`interpreter.Interpreter` is one, and adds the dispatch that reaches the steps. So the steps
import this module and never the interpreter, and the imports run one way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .choices import Chooser
from .errors import IllegalEvent
from .events import Event
from .language import Clause
from .objects import DECK_OF, NONTRADITIONAL_ZONES, PLAYER_ZONES, GameObject, ZoneRef, parse_zone
from .rulebook import Rulebook
from .state import Game, Situation
from .trace import Change, TraceStep


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
    brought_controller: str | None = None  # its controller in the game it came from
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


class StepKit:
    """What the interpreter lends every step: its rulebook, chooser and edition (the CR
    numbering its trace cites), the trace, and the checks the steps share. The clauses of an
    event are run by the interpreter's dispatch (`_run_clauses`)."""

    rulebook: Rulebook
    chooser: Chooser
    edition: str

    def _run_clauses(self, state: Situation, ctx: Context) -> None:
        """Run every step of every clause acting on `ctx`'s event (the interpreter's)."""
        raise NotImplementedError

    # ---- trace --------------------------------------------------------------------------

    def _note(self, ctx: Context, clause: Clause | None, rule: str, text: str,
              changes: list[Change] | None = None) -> None:
        ctx.trace.append(TraceStep(ctx.index, clause.name if clause else None, rule, text,
                                   tuple(changes or ())))

    def _cite(self, clause: Clause) -> str:
        return clause.cite(self.edition)

    def _uses(self, ctx: Context, clause: Clause | None, text: str) -> None:
        """Record in the trace that the event relied on a clause's permission."""
        if clause is not None:
            self._note(ctx, clause, self._cite(clause), text)

    # ---- helpers shared by the steps ----------------------------------------------------

    @staticmethod
    def _objects_of_game(state: Situation, game_id: str | None) -> list[str]:
        if game_id is None:
            return []
        return [o for z in state.zones_in_order(game_id) for o in state.zones[z]]

    @staticmethod
    def _reset_on_move(obj: GameObject) -> None:
        """A moved object is a new object (CR 400.7): counters, phasing, effects are gone, and
        so is the record of what exiled it. (The cards it exiled stay exiled with it: an
        ability of it already on the stack still refers to them, 112.7a, 607.2a.)"""
        if obj.counters:  # an empty one is its own already (`clone`): kept, not remade
            obj.counters = {}
        obj.phased_out = False
        if obj.affected_by:
            obj.affected_by = []
        obj.controller = obj.owner if obj.is_card else obj.controller
        obj.since_first_turn = False
        obj.exiled_with = None

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
        zone = StepKit._card_zone(zone, game, obj)
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
        if obj.is_card and zone.kind not in NONTRADITIONAL_ZONES.get(obj.card_type, (zone.kind,)):
            raise IllegalEvent(f"{obj.id} is a {obj.card_type} card: never in a {zone.kind} "
                               "(309.2c, 311.2, 312.2, 313.2, 314.2, 315.3, 717.6)")
        return zone
