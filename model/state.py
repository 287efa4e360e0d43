"""A situation: the live games, their zones, every object's place, counters on players.

The nesting of live games is a tree (CR 728.1a, 728.6): each subgame hangs under its main
game, the deepest game is the only active one and every ancestor is suspended. Every zone
belongs to exactly one game, except the "outside the game" zones of the players (CR 400.11).
Zone contents are ordered, top first, so that "bottom of the deck" and shuffles mean
something. `model.graph` draws the same data as a networkx graph.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .objects import OUTSIDE, PLAYER_ZONES, SHARED_ZONES, GameObject, ZoneRef


class Pile:
    """The contents of one zone, top first: putting an object on top or at the bottom and
    taking one out are constant-time, so a step that moves every card of a zone is linear
    in the zone's size (a list would shift the whole zone for each card).

    Objects put on top are kept in `_top` in the order they came (the last is the top);
    those put at the bottom in `_bottom` (the last is the bottom). Dicts keep order and
    delete in constant time."""

    __slots__ = ("_top", "_bottom")

    def __init__(self, items: Iterable[str] = ()) -> None:
        self._top: dict[str, None] = {}
        self._bottom: dict[str, None] = dict.fromkeys(items)

    def __iter__(self) -> Iterator[str]:
        yield from reversed(self._top)
        yield from self._bottom

    def __len__(self) -> int:
        return len(self._top) + len(self._bottom)

    def __contains__(self, item: object) -> bool:
        return item in self._top or item in self._bottom

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Pile, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def __repr__(self) -> str:
        return f"Pile({list(self)!r})"

    def put_on_top(self, item: str) -> None:
        self._top[item] = None

    def append(self, item: str) -> None:
        """Put `item` at the bottom."""
        self._bottom[item] = None

    def remove(self, item: str) -> None:
        if item in self._top:
            del self._top[item]
        else:
            del self._bottom[item]


@dataclass
class Result:
    """How a game ended: "win" (with winners), "draw", "none" (no winner), or "restarted"
    (CR 726.1: nobody wins, loses or draws)."""

    kind: str
    winners: list[str] = field(default_factory=list)

    def describe(self) -> str:
        if self.kind == "win":
            return "won by " + ", ".join(self.winners)
        return {"draw": "a draw", "none": "no winner", "restarted": "restarted: no result"}.get(
            self.kind, self.kind
        )


@dataclass
class Trigger:
    """A main-game ability that triggered while a subgame ran and waits (CR 728.4a)."""

    id: str
    source: str
    card: str
    left: str
    game: str
    controller: str | None = None


@dataclass
class Game:
    """One game. `parent` is its main game; `created_by` the object that created it there."""

    id: str
    players: list[str]
    parent: str | None = None
    variants: list[str] = field(default_factory=list)
    status: str = "active"
    created_by: str | None = None
    starting_player: str | None = None
    doomed: list[str] = field(default_factory=list)
    pending_triggers: list[Trigger] = field(default_factory=list)
    began_in_deck: dict[str, str] = field(default_factory=dict)
    # Where each card came from into this game: the kind of zone it began the game in (put
    # there before the first turn), or "main-game" / "outside" for one brought in later.
    came_from: dict[str, str] = field(default_factory=dict)
    left: list[str] = field(default_factory=list)
    subgame_results: dict[str, Result] = field(default_factory=dict)
    resolved: list[str] = field(default_factory=list)
    restarted_from: str | None = None
    range_of_influence: int | None = None
    commander_tax: dict[str, int] = field(default_factory=dict)
    commander_damage: dict[str, int] = field(default_factory=dict)
    designations: dict[str, str] = field(default_factory=dict)
    waiting_for_priority: list[str] = field(default_factory=list)
    # The start procedure (rule 103; `language.PROCEDURE_STAGES`): the stage the game last
    # reached, whether some stage was reached out of order, and the stage at which a
    # restarting effect's further instructions were followed in it (726.4), if they were.
    # A game read from a scenario is past its start: at its first turn, in order.
    stage: str = "first-turn"
    out_of_order: bool = False
    instructions_at: str | None = None


@dataclass
class EndedGame:
    """A game that has ended, kept so that its result can be asked about later."""

    id: str
    parent: str | None
    result: Result
    players: list[str]


@dataclass
class Situation:
    """Everything the model knows at one moment."""

    players: list[str]
    games: dict[str, Game] = field(default_factory=dict)
    objects: dict[str, GameObject] = field(default_factory=dict)
    zones: dict[ZoneRef, Pile] = field(default_factory=dict)
    player_counters: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict)
    ended: list[EndedGame] = field(default_factory=list)
    player_effects: dict[str, list[str]] = field(default_factory=dict)
    where: dict[str, ZoneRef] = field(default_factory=dict)
    serial: int = 0

    # ---- places -------------------------------------------------------------------------

    def place(self, obj_id: str, zone: ZoneRef, position: str = "top") -> None:
        """Put an object (already in `objects`, in no zone) into `zone` at top or bottom."""
        contents = self.zones.get(zone)
        if contents is None:
            contents = self.zones[zone] = Pile()
        if position == "bottom":
            contents.append(obj_id)
        else:
            contents.put_on_top(obj_id)
        self.where[obj_id] = zone

    def lift(self, obj_id: str) -> ZoneRef:
        """Take an object out of its zone; return where it was."""
        zone = self.where.pop(obj_id)
        self.zones[zone].remove(obj_id)
        return zone

    def move(self, obj_id: str, zone: ZoneRef, position: str = "top") -> ZoneRef:
        before = self.lift(obj_id)
        self.place(obj_id, zone, position)
        return before

    def cease(self, obj_id: str) -> ZoneRef:
        """The object ceases to exist (CR 111.7, 728.5); an effect stops acting with it."""
        before = self.lift(obj_id)
        gone = self.objects.pop(obj_id)
        if gone.kind == "effect":
            for player in list(self.player_effects):
                self.player_effects[player] = [e for e in self.player_effects[player]
                                               if e != obj_id]
                if not self.player_effects[player]:
                    del self.player_effects[player]
            for other in self.objects.values():
                if obj_id in other.affected_by:
                    other.affected_by = [e for e in other.affected_by if e != obj_id]
        return before

    def trigger_controller(self, trigger: Trigger) -> str:
        """Who controls a waiting triggered ability once it is put on the stack: the
        controller of its source when it triggered (CR 113.8), recorded with it; for a
        trigger read without one, the first player of its game."""
        if trigger.controller is not None:
            return trigger.controller
        game = self.games.get(trigger.game)
        return game.players[0] if game is not None and game.players else self.players[0]

    def names_in_use(self) -> set[str]:
        """Every name the situation uses for something: objects, games (live, ended, or named
        by a zone or a counter record), and every name a game or an object remembers (waiting
        triggers, resolved spells, began-in-deck and came-from marks, creators, subgame
        results, the effects acting on an object or a player, what exiled a card, the card a
        second place of a card is), whether or
        not it is an object now.

        This is the one notion of "a new object" (CR 109.1, 400.7: an object that comes into
        being is a new object, with no history): a name outside this set, and only such a
        name, may be given to an object that is created, as the z3 encoding assumes too
        (`proofs.encoding.encoder.Encoder.fresh_object`)."""
        used = set(self.objects) | set(self.games) | {e.id for e in self.ended}
        used |= {z.game for z in self.zones if z.game is not None}
        used |= {g for g, _ in self.player_counters}
        for game in self.games.values():
            used |= {t.id for t in game.pending_triggers}
            used |= set(game.resolved) | set(game.began_in_deck) | set(game.subgame_results)
            used |= set(game.came_from)
            if game.created_by is not None:
                used.add(game.created_by)
        for obj in self.objects.values():
            used |= set(obj.affected_by)
            if obj.exiled_with is not None:
                used.add(obj.exiled_with)
            if obj.same_card is not None:
                used.add(obj.same_card)
        for effects in self.player_effects.values():
            used |= set(effects)
        return used

    def fresh_id(self, prefix: str) -> str:
        """A new name `PREFIXn`, outside `names_in_use`."""
        return self.fresh_ids(prefix, 1)[0]

    def fresh_ids(self, prefix: str, count: int) -> list[str]:
        """`count` new names `PREFIXn`, outside `names_in_use` and each other (the names in
        use are gathered once, so naming many new objects is linear; not at all for none)."""
        if count <= 0:
            return []
        used = self.names_in_use()
        out: list[str] = []
        while len(out) < count:
            self.serial += 1
            candidate = f"{prefix}{self.serial}"
            if candidate not in used:
                out.append(candidate)
        return out

    # ---- games --------------------------------------------------------------------------

    def active_game(self) -> Game:
        actives = [g for g in self.games.values() if g.status == "active"]
        if len(actives) != 1:
            raise ValueError(f"expected exactly one active game, found {len(actives)}")
        return actives[0]

    def root_game(self) -> Game:
        return next(g for g in self.games.values() if g.parent is None)

    def ancestors(self, game_id: str) -> list[str]:
        """The games above `game_id`, nearest first."""
        out: list[str] = []
        parent = self.games[game_id].parent
        while parent is not None:
            out.append(parent)
            parent = self.games[parent].parent
        return out

    def children(self, game_id: str) -> list[str]:
        return [g.id for g in self.games.values() if g.parent == game_id]

    def create_zones(self, game: Game) -> None:
        """An entirely new set of zones for a game (CR 400.1, 728.2)."""
        for player in game.players:
            for kind in PLAYER_ZONES:
                self.zones.setdefault(ZoneRef(game.id, kind, player), Pile())
        for kind in SHARED_ZONES:
            self.zones.setdefault(ZoneRef(game.id, kind), Pile())

    def zones_of(self, game_id: str) -> list[ZoneRef]:
        return [z for z in self.zones if z.game == game_id]

    def zones_in_order(self, game_id: str) -> list[ZoneRef]:
        """The game's zones in their order (`ZoneRef.sort_key`): the order in which a step
        meets the game's objects, zone by zone."""
        return sorted(self.zones_of(game_id), key=ZoneRef.sort_key)

    def outside(self, player: str) -> ZoneRef:
        zone = ZoneRef(None, OUTSIDE, player)
        if zone not in self.zones:
            self.zones[zone] = Pile()
        return zone

    def counters_of(self, game_id: str, player: str) -> dict[str, int]:
        return self.player_counters.setdefault((game_id, player), {})

    # ---- queries ------------------------------------------------------------------------

    def in_zone(self, zone: ZoneRef) -> list[GameObject]:
        return [self.objects[i] for i in self.zones.get(zone, ())]

    def game_of(self, obj_id: str) -> str | None:
        return self.where[obj_id].game

    def cards(self) -> list[GameObject]:
        return [o for o in self.objects.values() if o.is_card]

    def copy(self) -> Situation:
        """An independent copy (faster than deepcopy: only the mutable parts are copied)."""
        objects = {key: obj.clone() for key, obj in self.objects.items()}
        return Situation(
            players=list(self.players),
            games={k: copy.deepcopy(g) for k, g in self.games.items()},
            objects=objects,
            zones={z: Pile(c) for z, c in self.zones.items()},
            player_counters={k: dict(v) for k, v in self.player_counters.items()},
            ended=copy.deepcopy(self.ended),
            player_effects={k: list(v) for k, v in self.player_effects.items()},
            where=dict(self.where),
            serial=self.serial,
        )
