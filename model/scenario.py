"""Scenario files: a situation (players, games, cards, objects, counters) and its events.

A scenario is TOML or JSON (by file extension); `docs/scenario-format.md` documents it.
Files are data: they are parsed, never executed. `dump_scenario` writes any situation back
in the same format so that `load_scenario(dump_scenario(s))` gives the same situation;
counterexamples are written this way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from .errors import InputError
from .events import Event, check_event
from .inputs import STDIN, file_name, parse_json, parse_toml, read_text
from .language import CAME_FROM
from .objects import (
    CARD_TYPE_NAMES,
    CARD_TYPES,
    DECK_OF,
    DEFAULT_TYPES,
    NONCARD_ZONES,
    OBJECT_KINDS,
    SUPPLEMENTARY_DECKS,
    TRADITIONAL,
    VARIANTS,
    GameObject,
    ZoneRef,
    parse_zone,
)
from .state import EndedGame, Game, Result, Situation, Trigger

SCHEMA = "shahrazad.scenario/1"
NAME_PATTERN = r"^[A-Za-z0-9_.+-]+$"  # ids and player names
_NAME = re.compile(NAME_PATTERN.removesuffix("$") + r"\Z")  # Python's $ allows a final newline


@dataclass
class Scenario:
    """A situation with the events to run on it, as read from a file."""

    situation: Situation
    events: list[Event] = field(default_factory=list)
    title: str = ""
    description: str = ""
    seed: int | None = None
    file: str = "<scenario>"
    # The rules it was found under, when not the official ones (a counterexample records
    # them, and `simulate` replays it under them): a rulebook file, amendment files in order.
    rulebook: str | None = None
    amendments: list[str] = field(default_factory=list)


class _Where:
    """Finds the line of a table or key in the source text, for error messages.

    The text is indexed once, lazily (the headers of `[[section]]` tables and the lines of
    each quoted string), so that finding a line costs no more than a look-up: reading a
    scenario stays linear in its size."""

    def __init__(self, text: str, is_json: bool):
        self.lines = text.splitlines()
        self.is_json = is_json
        self._headers: dict[str, list[int]] | None = None
        self._quoted: dict[str, list[int]] | None = None

    def table(self, section: str, index: int) -> int | None:
        if self.is_json:
            return None
        if self._headers is None:
            self._headers = {}
            for number, line in enumerate(self.lines, start=1):
                m = re.match(r"\s*\[\[\s*([^\]\s]+)\s*\]\]\s*(#.*)?$", line)
                if m:
                    self._headers.setdefault(m.group(1), []).append(number)
        found = self._headers.get(section, [])
        return found[index] if 0 <= index < len(found) else None

    def mention(self, value: str, after: int | None = None) -> int | None:
        if self._quoted is None:
            self._quoted = {}
            for number, line in enumerate(self.lines, start=1):
                for token in set(re.findall(r'"([^"\\]*)"', line)):
                    self._quoted.setdefault(token, []).append(number)
        for number in self._quoted.get(value, []):
            if after is None or number >= after:
                return number
        return None

    def key(self, section: str, index: int, key: str, value: Any = None) -> int | None:
        start = self.table(section, index)
        if start is not None:
            for number in range(start, len(self.lines) + 1):
                line = self.lines[number - 1]
                if number > start and re.match(r"\s*\[", line):
                    break
                if re.match(rf"\s*\"?{re.escape(key)}\"?\s*=", line):
                    return number
            return start
        if isinstance(value, str):
            return self.mention(value)
        return None


def _fail(file: str, line: int | None, message: str) -> InputError:
    return InputError(message, file=file, line=line)


StructureCheck = Callable[[Situation], list[str]]
"""Lists the structural faults of a situation, one line each (none: the rules allow it).
The structure is stated once, in the invariant catalog, above this package:
`shahrazad.invariants.structure.problems` is the one to pass."""


def parse_scenario(text: str, *, file: str, fmt: str | None = None,
                   check: StructureCheck | None = None) -> Scenario:
    """Read a scenario from text; InputError names the file, the line and what is wrong.

    With `check`, a situation that the check faults is refused too, at the line of the
    first object or game its first fault names."""
    is_json = (fmt or Path(file).suffix.lstrip(".").lower()) == "json"
    data = parse_json(text, file=file) if is_json else parse_toml(text, file=file)
    if not isinstance(data, dict):
        raise _fail(file, 1, "a scenario is a table (a JSON object)")
    return read_scenario_data(data, file=file, text=text, fmt="json" if is_json else "toml",
                              check=check)


def load_scenario(path: str | Path, check: StructureCheck | None = None) -> Scenario:
    """Read the scenario file at `path` (TOML, or JSON by its suffix; `-` is standard input,
    JSON when it starts with `{`); see `parse_scenario`."""
    text = read_text(path)
    fmt = ("json" if text.lstrip().startswith("{") else "toml") if str(path) == STDIN else None
    return parse_scenario(text, file=file_name(path), fmt=fmt, check=check)


def _line_of_fault(where: _Where, state: Situation, fault: str) -> int | None:
    """The line that mentions the first object or game named in `fault`, if any."""
    for name in re.findall(r"[\w.-]+", fault):
        if name in state.objects or name in state.games:
            line = where.mention(name)
            if line is not None:
                return line
    return None


# The shape of a scenario file: every key of every table, with the kind of value it holds.
# The reader checks a table's shape before it reads a value, so that no malformed value
# (a number where a list belongs, a list where a name belongs, an integer too large for any
# game) goes further than one line of error.
TEXT, INT, COUNT, BOOL = "text", "a whole number", "a whole number, 0 or more", "true or false"
NAMES, TABLES = "a list of names", "a list of tables"
INT_MAP, TEXT_MAP, TABLE_MAP = ("a table of whole numbers", "a table of names",
                                "a table of tables")
SHAPES: dict[str, dict[str, str]] = {
    "top": {"schema": TEXT, "title": TEXT, "description": TEXT, "seed": INT,
            "rulebook": TEXT, "amendments": NAMES, "players": NAMES,
            "game": TABLES, "card": TABLES, "object": TABLES, "player-counter": TABLES,
            "ended": TABLES, "event": TABLES, "player-effect": TABLES, "id-serial": COUNT},
    "game": {"id": TEXT, "players": NAMES, "parent": TEXT, "variants": NAMES,
             "created-by": TEXT, "starting-player": TEXT, "will-lose": NAMES, "left": NAMES,
             "range-of-influence": COUNT, "trigger": TABLES, "began-in-deck": TEXT_MAP,
             "came-from": TEXT_MAP,
             "subgame-results": TABLE_MAP, "resolved": NAMES, "restarted-from": TEXT,
             "commander-tax": INT_MAP, "commander-damage": INT_MAP, "designations": TEXT_MAP,
             "waiting-for-priority": NAMES, "status": TEXT},
    "trigger": {"id": TEXT, "source": TEXT, "card": TEXT, "left": TEXT, "controller": TEXT},
    "card": {"id": TEXT, "name": TEXT, "owner": TEXT, "type": TEXT, "at": TEXT, "face": TEXT,
             "phased": TEXT, "commander": BOOL, "deck": TEXT, "controller": TEXT,
             "counters": INT_MAP, "triggers": NAMES, "affected-by": NAMES,
             "since-first-turn": BOOL, "types": NAMES, "subtypes": NAMES,
             "exiled-with": TEXT, "same-card": TEXT},
    "object": {"id": TEXT, "kind": TEXT, "name": TEXT, "owner": TEXT, "controller": TEXT,
               "at": TEXT, "made-in": TEXT, "counters": INT_MAP, "triggers": NAMES,
               "affected-by": NAMES, "face": TEXT, "phased": TEXT},
    "player-counter": {"game": TEXT, "player": TEXT, "kind": TEXT, "count": INT},
    "ended": {"id": TEXT, "parent": TEXT, "result": TEXT, "winners": NAMES, "players": NAMES},
    "player-effect": {"player": TEXT, "effect": TEXT},
}
LARGEST = 2**63 - 1  # no count, seed or number in a game is larger
# The values a few keys allow, the keys a waiting trigger needs, and the zones no
# nontraditional card is in (CR 108.2a).
FACES, PHASINGS = ("up", "down"), ("in", "out")
RESULT_KINDS = ("win", "draw", "none", "restarted")
TRIGGER_REQUIRED = ("id", "source", "card", "left")
TRADITIONAL_ONLY_ZONES = ("library", "hand", "graveyard", "stack")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -LARGEST <= value <= LARGEST


def fits(value: Any, kind: str) -> bool:
    """Whether `value` is of the kind a shape names."""
    if kind == TEXT:
        return isinstance(value, str)
    if kind == INT:
        return _is_int(value)
    if kind == COUNT:
        return _is_int(value) and value >= 0
    if kind == BOOL:
        return isinstance(value, bool)
    if kind == NAMES:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == TABLES:
        return isinstance(value, list) and all(isinstance(v, dict) for v in value)
    members: dict[str, Callable[[Any], bool]] = {
        INT_MAP: _is_int, TEXT_MAP: lambda v: isinstance(v, str),
        TABLE_MAP: lambda v: isinstance(v, dict)}
    return isinstance(value, dict) and all(members[kind](v) for v in value.values())


class _Fields:
    """What the scenario reader of every section shares: the data, the file and its lines,
    an error naming the file and line, and the checks of a table's keys and values, of a new
    id, of a zone, a face, a flag and counters."""

    TOP = tuple(SHAPES["top"])
    GAME = tuple(SHAPES["game"])
    CARD = tuple(SHAPES["card"])
    OBJECT = tuple(SHAPES["object"])

    def __init__(self, data: dict[str, Any], file: str, where: _Where):
        self.data, self.file, self.where = data, file, where

    def err(self, line: int | None, message: str) -> InputError:
        return _fail(self.file, line, message)

    def keys(self, table: Any, allowed: tuple[str, ...], section: str, index: int) -> dict[str, Any]:
        """The table, once its keys are known ones and each value fits its shape."""
        if not isinstance(table, dict):
            raise self.err(self.where.table(section, index), f"{section} {index + 1}: expected a table")
        shape = SHAPES.get(section, {})
        for key, value in table.items():
            if key not in allowed:
                raise self.err(self.where.key(section, index, key),
                               f"{section} {index + 1}: unknown key {key!r} "
                               f"(allowed: {', '.join(allowed)})")
            if key in shape and not fits(value, shape[key]):
                raise self.err(self.where.key(section, index, key, table.get("id")),
                               f"{section} {index + 1}: {key} must be {shape[key]}")
        return table

    def typed(self, table: dict[str, Any], key: str, typ: type | tuple[type, ...], section: str,
              index: int, what: str) -> Any:
        value = table[key]
        ok = isinstance(value, typ) and not (isinstance(value, bool) and typ is int)
        if isinstance(value, list):
            ok = ok and all(isinstance(v, str) for v in value)
        if not ok:
            raise self.err(self.where.key(section, index, key, table.get("id")),
                           f"{section} {index + 1}: {key} must be {what}")
        return value

    def new_id(self, value: Any, ids: set[str], section: str, index: int) -> str:
        if not isinstance(value, str) or not _NAME.match(value):
            raise self.err(self.where.key(section, index, "id"),
                           f"{section} {index + 1}: id must be a name (letters, digits, _ . + -)")
        if value in ids:
            raise self.err(self.where.key(section, index, "id", value),
                           f"{section} {index + 1}: id {value!r} is used twice")
        ids.add(value)
        return value

    def zone(self, value: Any, state: Situation, section: str, index: int, obj_id: str) -> ZoneRef:
        line = self.where.key(section, index, "at", obj_id)
        if not isinstance(value, str):
            raise self.err(line, f"{section} {obj_id}: 'at' must be a zone path like main/library/Ann")
        try:
            zone = parse_zone(value)
        except ValueError as err:
            raise self.err(line, f"{section} {obj_id}: {err}") from None
        if zone.is_outside:
            if zone.player not in state.players:
                raise self.err(line, f"{section} {obj_id}: {zone.player!r} is not a player")
            return zone
        if zone.game not in state.games:
            raise self.err(line, f"{section} {obj_id}: {zone.game!r} is not a game here")
        if zone.player is not None and zone.player not in state.games[zone.game].players:
            raise self.err(line, f"{section} {obj_id}: {zone.player} is not a player in {zone.game}")
        return zone

    def face(self, t: dict[str, Any], section: str, index: int, oid: str) -> bool:
        return self.flag(t, "face", FACES, section, index) != "down"

    def flag(self, t: dict[str, Any], key: str, allowed: tuple[str, ...], section: str,
             index: int) -> str | None:
        if key not in t:
            return None
        if t[key] not in allowed:
            raise self.err(self.where.key(section, index, key, t.get("id")),
                           f"{section} {index + 1}: {key} must be {' or '.join(allowed)}")
        return str(t[key])

    def counters(self, t: dict[str, Any], section: str, index: int) -> dict[str, int]:
        value = t.get("counters", {})
        if not isinstance(value, dict) or not all(
                isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in value.values()):
            raise self.err(self.where.key(section, index, "counters", t.get("id")),
                           f"{section} {index + 1}: counters must map kinds to positive numbers")
        return dict(value)


class _Games(_Fields):
    """The [[game]] tables: each game, its players, parent, status and marks; then the
    games as a tree (728.1a, 728.6)."""

    def read_games(self, state: Situation, ids: set[str]) -> None:
        games = self.data.get("game")
        if not isinstance(games, list) or not games:
            raise self.err(None, "a scenario needs at least one [[game]]")
        for i, raw in enumerate(games):
            t = self.keys(raw, self.GAME, "game", i)
            line = self.where.table("game", i)
            gid = self.new_id(t.get("id"), ids, "game", i)
            gplayers = t.get("players", list(state.players))
            if not isinstance(gplayers, list) or not all(p in state.players for p in gplayers):
                raise self.err(self.where.key("game", i, "players", gid),
                               f"game {gid}: players must name players of the scenario")
            variants = t.get("variants", [])
            if not isinstance(variants, list) or any(v not in VARIANTS for v in variants):
                raise self.err(self.where.key("game", i, "variants", gid),
                               f"game {gid}: variants must be among {', '.join(VARIANTS)}")
            game = Game(id=gid, players=list(gplayers), parent=t.get("parent"),
                        variants=list(variants))
            for key, attr in (("created-by", "created_by"), ("starting-player", "starting_player"),
                              ("restarted-from", "restarted_from")):
                if key in t:
                    setattr(game, attr, self.typed(t, key, str, "game", i, "a name"))
            for key, attr in (("will-lose", "doomed"), ("left", "left"), ("resolved", "resolved"),
                              ("waiting-for-priority", "waiting_for_priority")):
                if key in t:
                    setattr(game, attr, list(self.typed(t, key, list, "game", i, "a list of names")))
            if "range-of-influence" in t:
                game.range_of_influence = self.typed(t, "range-of-influence", int, "game", i,
                                                     "a whole number")
            for key, attr in (("commander-tax", "commander_tax"),
                              ("commander-damage", "commander_damage"),
                              ("designations", "designations"),
                              ("began-in-deck", "began_in_deck"),
                              ("came-from", "came_from")):
                if key in t:
                    value = self.typed(t, key, dict, "game", i, "a table")
                    setattr(game, attr, dict(value))
            for deck in game.began_in_deck.values():
                if deck not in SUPPLEMENTARY_DECKS:
                    raise self.err(self.where.key("game", i, "began-in-deck"),
                                   f"game {gid}: began-in-deck names unknown deck {deck!r}")
            for card, came in game.came_from.items():
                if came not in CAME_FROM:
                    raise self.err(self.where.key("game", i, "came-from"),
                                   f"game {gid}: came-from of {card}: {came!r} is not one of "
                                   f"{', '.join(CAME_FROM)}")
                if came == "main-game" and game.parent is None:
                    raise self.err(self.where.key("game", i, "came-from"),
                                   f"game {gid}: {card} cannot have come in from a main game: "
                                   f"{gid} is not a subgame (728.4a)")
            for card, res in self.typed(t, "subgame-results", dict, "game", i, "a table").items() \
                    if "subgame-results" in t else ():
                game.subgame_results[card] = _result(res, self, line)
            for j, trig in enumerate(t.get("trigger", [])):
                if not isinstance(trig, dict) \
                        or set(trig) - set(SHAPES["trigger"]) \
                        or not all(isinstance(trig.get(k), str) for k in TRIGGER_REQUIRED):
                    raise self.err(line, f"game {gid}: trigger {j + 1} needs id, source, card "
                                   "and left (text), and may name its controller")
                controller = trig.get("controller")
                if controller is not None and controller not in gplayers:
                    raise self.err(line, f"game {gid}: trigger {j + 1}: controller must be a "
                                   "player of the game")
                game.pending_triggers.append(Trigger(trig["id"], trig["source"], trig["card"],
                                                     trig["left"], gid, controller))
            state.games[gid] = game
        self.check_tree(state)
        for game in state.games.values():
            state.create_zones(game)

    def check_tree(self, state: Situation) -> None:
        roots = [g for g in state.games.values() if g.parent is None]
        if len(roots) != 1:
            raise self.err(None, f"the games must form one tree with one outermost game; "
                           f"found {len(roots)} games without a parent")
        for i, game in enumerate(state.games.values()):
            if game.parent is not None and game.parent not in state.games:
                raise self.err(self.where.key("game", i, "parent", game.parent),
                               f"game {game.id}: parent {game.parent!r} is not a game here")
            if game.parent is not None and len(state.children(game.parent)) > 1:
                raise self.err(self.where.key("game", i, "parent", game.parent),
                               f"game {game.parent} has two subgames at once; only the active "
                               "game can start a subgame (CR 728.6)")
        chain = [roots[0].id]
        while state.children(chain[-1]):
            chain.append(state.children(chain[-1])[0])
        if len(chain) != len(state.games):
            raise self.err(None, "the games' parents form a cycle")
        for gid in chain:
            state.games[gid].status = "suspended"
        state.games[chain[-1]].status = "active"


class _Objects(_Fields):
    """The [[card]] and [[object]] tables: each card with its zone and characteristics,
    each token, copy, emblem, ability or effect."""

    def read_cards(self, state: Situation, ids: set[str]) -> None:
        for i, raw in enumerate(self.data.get("card", [])):
            t = self.keys(raw, self.CARD, "card", i)
            cid = self.new_id(t.get("id"), ids, "card", i)
            owner = t.get("owner")
            if owner not in state.players:
                raise self.err(self.where.key("card", i, "owner", cid),
                               f"card {cid}: owner must be a player of the scenario")
            ctype = t.get("type", TRADITIONAL)
            if ctype not in CARD_TYPES:
                raise self.err(self.where.key("card", i, "type", cid),
                               f"card {cid}: type must be one of {', '.join(CARD_TYPES)}")
            zone = self.zone(t.get("at"), state, "card", i, cid)
            deck = DECK_OF.get(ctype)
            if "deck" in t and t["deck"] != deck:
                raise self.err(self.where.key("card", i, "deck", cid),
                               f"card {cid}: a {ctype} card belongs to "
                               + (f"the {deck} deck" if deck else "no supplementary deck"))
            if zone.kind == "deck" and zone.deck != deck:
                raise self.err(self.where.key("card", i, "at", cid),
                               f"card {cid}: a {ctype} card cannot be in a {zone.deck} deck")
            if zone.kind in TRADITIONAL_ONLY_ZONES and ctype != TRADITIONAL:
                raise self.err(self.where.key("card", i, "at", cid),
                               f"card {cid}: a nontraditional card is never in a {zone.kind} "
                               "(CR 108.2a)")
            if zone.kind in ("library", "hand", "graveyard", "deck") and zone.player != owner:
                raise self.err(self.where.key("card", i, "at", cid),
                               f"card {cid}: a card in a {zone.kind} is in its owner's "
                               f"({owner}'s), not {zone.player}'s (CR 400.3)")
            if t.get("commander") is True and ctype != TRADITIONAL:
                raise self.err(self.where.key("card", i, "commander", cid),
                               f"card {cid}: a commander is a traditional card")
            card = GameObject(id=cid, kind="card", owner=owner, name=str(t.get("name", "")),
                              controller=t.get("controller", owner), card_type=ctype, deck=deck,
                              face_up=self.face(t, "card", i, cid),
                              phased_out=self.flag(t, "phased", PHASINGS, "card", i) == "out",
                              commander=self.typed(t, "commander", bool, "card", i, "true or false")
                              if "commander" in t else False,
                              counters=self.counters(t, "card", i),
                              triggers=list(self.typed(t, "triggers", list, "card", i, "a list of names"))
                              if "triggers" in t else [],
                              affected_by=list(t.get("affected-by", [])),
                              since_first_turn=bool(t.get("since-first-turn", False)))
            self.characteristics(t, card, zone, i)
            if card.controller not in state.players:
                raise self.err(self.where.key("card", i, "controller", cid),
                               f"card {cid}: controller must be a player")
            state.objects[cid] = card
            state.place(cid, zone, "bottom")

    def characteristics(self, t: dict[str, Any], card: GameObject, zone: ZoneRef,
                        i: int) -> None:
        """A card's types and subtypes (205.2a; a traditional card without them is a creature
        card: `DEFAULT_TYPES`) and the object that exiled it (`exiled-with`): only a
        permanent card is on the battlefield (110.4b, 304.4, 307.4), an Aura is an
        enchantment (303.4), a link to what exiled a card holds while it is in exile."""
        cid = card.id
        if "types" in t:
            types = self.typed(t, "types", list, "card", i, "a list of card types")
            bad = [x for x in types if x not in CARD_TYPE_NAMES]
            if bad or not types:
                raise self.err(self.where.key("card", i, "types", cid),
                               f"card {cid}: types must be card types, one or more of "
                               f"{', '.join(CARD_TYPE_NAMES)}")
            if card.card_type != TRADITIONAL \
                    and tuple(types) != DEFAULT_TYPES.get(card.card_type, ()):
                raise self.err(self.where.key("card", i, "types", cid),
                               f"card {cid}: a {card.card_type} card has the types "
                               f"{list(DEFAULT_TYPES.get(card.card_type, ()))}")
            card.types = tuple(types)
        if "subtypes" in t:
            subtypes = self.typed(t, "subtypes", list, "card", i, "a list of subtypes")
            card.subtypes = tuple(str(x).lower() for x in subtypes)
            if card.aura and "enchantment" not in card.types:
                raise self.err(self.where.key("card", i, "subtypes", cid),
                               f"card {cid}: an Aura is an enchantment (CR 303.4): give "
                               "types = [\"enchantment\"]")
        if card.commander and (not card.permanent_card or card.aura):
            raise self.err(self.where.key("card", i, "types", cid),
                           f"card {cid}: a commander is a creature or planeswalker card "
                           "(CR 903.3)")
        if zone.kind == "battlefield" and not card.permanent_card and card.face_up:
            raise self.err(self.where.key("card", i, "at", cid),
                           f"card {cid}: only a permanent card is on the battlefield face up "
                           "(CR 110.4b, 304.4, 307.4; a manifested instant is face down)")
        if "exiled-with" in t:
            if zone.kind != "exile":
                raise self.err(self.where.key("card", i, "exiled-with", cid),
                               f"card {cid}: exiled-with names what exiled a card in exile; "
                               f"{cid} is in {zone.path()}")
            card.exiled_with = str(t["exiled-with"])
        if "same-card" in t:  # refused by the structure check: no real game has one
            card.same_card = str(t["same-card"])

    def read_objects(self, state: Situation, ids: set[str]) -> None:
        for i, raw in enumerate(self.data.get("object", [])):
            t = self.keys(raw, self.OBJECT, "object", i)
            oid = self.new_id(t.get("id"), ids, "object", i)
            kind = t.get("kind")
            if kind not in OBJECT_KINDS or kind == "card":
                raise self.err(self.where.key("object", i, "kind", oid),
                               f"object {oid}: kind must be one of "
                               f"{', '.join(k for k in OBJECT_KINDS if k != 'card')} "
                               "(cards go in [[card]])")
            zone = self.zone(t.get("at"), state, "object", i, oid)
            if zone.is_outside:
                raise self.err(self.where.key("object", i, "at", oid),
                               f"object {oid}: only cards can be outside the game")
            if zone.kind not in NONCARD_ZONES[kind]:
                raise self.err(self.where.key("object", i, "at", oid),
                               f"object {oid}: an {kind} can be only in "
                               f"{' or '.join(NONCARD_ZONES[kind])}")
            controller = t.get("controller", t.get("owner"))
            if controller not in state.players:
                raise self.err(self.where.key("object", i, "controller", oid),
                               f"object {oid}: controller must be a player of the scenario")
            owner = t.get("owner", controller)
            if owner not in state.players:
                raise self.err(self.where.key("object", i, "owner", oid),
                               f"object {oid}: owner must be a player of the scenario")
            made_in = t.get("made-in", zone.game)
            if not isinstance(made_in, str):
                raise self.err(self.where.key("object", i, "made-in", oid),
                               f"object {oid}: made-in must name a game")
            state.objects[oid] = GameObject(
                id=oid, kind=kind, owner=owner, controller=controller,
                name=str(t.get("name", "")), game_of_origin=made_in,
                counters=self.counters(t, "object", i),
                triggers=list(t.get("triggers", [])), affected_by=list(t.get("affected-by", [])),
                face_up=self.face(t, "object", i, oid),
                phased_out=self.flag(t, "phased", PHASINGS, "object", i) == "out")
            state.place(oid, zone, "bottom")


class _Records(_Fields):
    """The tables of what a situation records beside its objects: players' counters,
    the games that ended, effects on players, the references between them; and the
    [[event]] tables."""

    def read_counters(self, state: Situation) -> None:
        for i, raw in enumerate(self.data.get("player-counter", [])):
            t = self.keys(raw, ("game", "player", "kind", "count"), "player-counter", i)
            line = self.where.table("player-counter", i)
            if t.get("game") not in state.games or t.get("player") not in state.players:
                raise self.err(line, f"player-counter {i + 1}: game and player must exist")
            count = t.get("count")
            if not isinstance(count, int) or isinstance(count, bool) or count <= 0 \
                    or not isinstance(t.get("kind"), str):
                raise self.err(line, f"player-counter {i + 1}: needs kind (text) and count (> 0)")
            state.counters_of(t["game"], t["player"])[t["kind"]] = count

    def read_ended(self, state: Situation) -> None:
        for i, raw in enumerate(self.data.get("ended", [])):
            t = self.keys(raw, ("id", "parent", "result", "winners", "players"), "ended", i)
            line = self.where.table("ended", i)
            if not isinstance(t.get("id"), str):
                raise self.err(line, f"ended {i + 1}: needs an id")
            result = _result({"kind": t.get("result"), "winners": t.get("winners", [])},
                             self, line)
            state.ended.append(EndedGame(t["id"], t.get("parent"), result,
                                         list(t.get("players", []))))

    def read_player_effects(self, state: Situation) -> None:
        for i, raw in enumerate(self.data.get("player-effect", [])):
            t = self.keys(raw, ("player", "effect"), "player-effect", i)
            if t.get("player") not in state.players or not isinstance(t.get("effect"), str):
                raise self.err(self.where.table("player-effect", i),
                               f"player-effect {i + 1}: needs a player and an effect")
            state.player_effects.setdefault(t["player"], []).append(t["effect"])

    def check_references(self, state: Situation) -> None:
        for i, game in enumerate(state.games.values()):
            for player in (*game.doomed, *([game.starting_player] if game.starting_player else [])):
                if player not in state.players:
                    raise self.err(self.where.table("game", i),
                                   f"game {game.id}: {player!r} is not a player")

    def read_events(self) -> list[Event]:
        raw = self.data.get("event", [])
        if not isinstance(raw, list):
            raise self.err(_top_line(self.where, "event"), "event must be a list of tables")
        events: list[Event] = []
        for i, item in enumerate(raw):
            event, problem = check_event(item)
            line = self.where.table("event", i)
            if event is None:
                raise self.err(line, f"event {i + 1}: {problem}")
            events.append(Event(event.kind, event.args, line))
        return events


class _Reader(_Games, _Objects, _Records):
    """A scenario file's data read section by section into a scenario, every fault an
    InputError naming the file and the line."""

    def read(self) -> Scenario:
        d = self.data
        for key, value in d.items():
            if key not in self.TOP:
                raise self.err(self.where.mention(key) or _top_line(self.where, key),
                               f"unknown top-level key {key!r} (allowed: {', '.join(self.TOP)})")
            if not fits(value, SHAPES["top"][key]):
                raise self.err(_top_line(self.where, key) or self.where.table(key, 0),
                               f"{key} must be {SHAPES['top'][key]}")
        schema = d.get("schema", SCHEMA)
        if schema != SCHEMA:
            raise self.err(_top_line(self.where, "schema"),
                           f"schema {schema!r} is not {SCHEMA!r}")
        players = d.get("players")
        if (not isinstance(players, list) or not players
                or not all(isinstance(p, str) and _NAME.match(p) for p in players)):
            raise self.err(_top_line(self.where, "players"),
                           "players must be a non-empty list of names (letters, digits, _ . + -)")
        if len(set(players)) != len(players):
            raise self.err(_top_line(self.where, "players"), "a player is named twice")
        state = Situation(players=list(players))
        for player in players:
            state.outside(player)
        ids: set[str] = set()
        self.read_games(state, ids)
        self.read_cards(state, ids)
        self.read_objects(state, ids)
        self.read_counters(state)
        self.read_ended(state)
        self.read_player_effects(state)
        serial = d.get("id-serial", 0)
        state.serial = serial if isinstance(serial, int) and not isinstance(serial, bool) else 0
        self.check_references(state)
        for i, raw in enumerate(d.get("card", [])):
            card = state.objects.get(str(raw.get("id"))) if isinstance(raw, dict) else None
            source = card.exiled_with if card is not None else None
            if card is not None and source is not None and (
                    source == card.id or source in state.games):
                raise self.err(self.where.key("card", i, "exiled-with", card.id),
                               f"card {card.id}: exiled-with names the object that exiled it "
                               "(CR 607.2a): another object, or one that is no longer there")
        for i, game in enumerate(state.games.values()):
            for trigger in game.pending_triggers:
                if trigger.id in state.objects or trigger.id in state.games:
                    raise self.err(self.where.table("game", i),
                                   f"game {game.id}: waiting trigger {trigger.id!r} has the id of "
                                   "an object or game; a trigger is not an object yet")
        events = self.read_events()
        seed = d.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise self.err(_top_line(self.where, "seed"), "seed must be a whole number")
        for key in ("title", "description"):
            if key in d and not isinstance(d[key], str):
                raise self.err(_top_line(self.where, key), f"{key} must be text")
        rulebook = d.get("rulebook")
        return Scenario(state, events, str(d.get("title", "")), str(d.get("description", "")),
                        seed, self.file, rulebook if isinstance(rulebook, str) else None,
                        list(d.get("amendments", [])))


def _top_line(where: _Where, key: str) -> int | None:
    for number, line in enumerate(where.lines, start=1):
        if re.match(rf'\s*"?{re.escape(key)}"?\s*[=:]', line):
            return number
    return None


def _result(raw: Any, reader: _Fields, line: int | None) -> Result:
    if not isinstance(raw, dict) or raw.get("kind") not in RESULT_KINDS:
        raise reader.err(line, "a result is {kind = win|draw|none|restarted, winners = [...]}")
    winners = raw.get("winners", [])
    if not isinstance(winners, list):
        raise reader.err(line, "winners must be a list of players")
    return Result(str(raw["kind"]), list(winners))


# ---- writing ------------------------------------------------------------------------------


def situation_data(state: Situation) -> dict[str, Any]:
    """The situation as scenario data (no events): the inverse of reading."""
    out: dict[str, Any] = {"schema": SCHEMA, "players": list(state.players)}
    games: list[dict[str, Any]] = []
    for game in _tree_order(state):
        g: dict[str, Any] = {"id": game.id}
        if game.players != state.players:
            g["players"] = list(game.players)
        if game.parent is not None:
            g["parent"] = game.parent
        optional: dict[str, Any] = {
            "variants": game.variants, "created-by": game.created_by,
            "starting-player": game.starting_player, "will-lose": game.doomed,
            "left": game.left, "range-of-influence": game.range_of_influence,
            "began-in-deck": game.began_in_deck, "came-from": game.came_from,
            "resolved": game.resolved,
            "restarted-from": game.restarted_from, "commander-tax": game.commander_tax,
            "commander-damage": game.commander_damage, "designations": game.designations,
            "waiting-for-priority": game.waiting_for_priority,
            "subgame-results": {k: _result_data(r) for k, r in game.subgame_results.items()},
            "trigger": [{"id": t.id, "source": t.source, "card": t.card, "left": t.left,
                         **({"controller": t.controller} if t.controller else {})}
                        for t in game.pending_triggers],
        }
        g.update({k: v for k, v in optional.items() if v not in (None, [], {})})
        games.append(g)
    out["game"] = games
    cards: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    for zone in sorted(state.zones, key=ZoneRef.sort_key):
        for obj_id in state.zones[zone]:
            obj = state.objects[obj_id]
            (cards if obj.is_card else others).append(_object_data(obj, zone))
    if cards:
        out["card"] = cards
    if others:
        out["object"] = others
    counters = [{"game": g, "player": p, "kind": k, "count": n}
                for (g, p), table in sorted(state.player_counters.items())
                for k, n in sorted(table.items())]
    if counters:
        out["player-counter"] = counters
    if state.ended:
        out["ended"] = [{"id": e.id, **({"parent": e.parent} if e.parent else {}),
                         "result": e.result.kind, "winners": e.result.winners,
                         "players": e.players} for e in state.ended]
    effects = [{"player": p, "effect": e} for p, es in state.player_effects.items() for e in es]
    if effects:
        out["player-effect"] = effects
    if state.serial:
        out["id-serial"] = state.serial
    return out


def _result_data(result: Result) -> dict[str, Any]:
    return {"kind": result.kind, "winners": list(result.winners)}


def _object_data(obj: GameObject, zone: ZoneRef) -> dict[str, Any]:
    d: dict[str, Any] = {"id": obj.id}
    if obj.is_card:
        if obj.name:
            d["name"] = obj.name
        d["owner"] = obj.owner
        if obj.card_type != TRADITIONAL:
            d["type"] = obj.card_type
        d["at"] = zone.path()
        if obj.commander:
            d["commander"] = True
        if obj.controller != obj.owner:
            d["controller"] = obj.controller
        if obj.since_first_turn:
            d["since-first-turn"] = True
        if obj.types != DEFAULT_TYPES.get(obj.card_type, ()):
            d["types"] = list(obj.types)
        if obj.subtypes:
            d["subtypes"] = list(obj.subtypes)
        if obj.exiled_with is not None:
            d["exiled-with"] = obj.exiled_with
        if obj.same_card is not None:
            d["same-card"] = obj.same_card
    else:
        d["kind"] = obj.kind
        if obj.name:
            d["name"] = obj.name
        d["controller"] = obj.controller
        if obj.owner != obj.controller:
            d["owner"] = obj.owner
        d["at"] = zone.path()
        if obj.game_of_origin != zone.game:
            d["made-in"] = obj.game_of_origin
    if not obj.face_up:
        d["face"] = "down"
    if obj.phased_out:
        d["phased"] = "out"
    if obj.counters:
        d["counters"] = dict(obj.counters)
    if obj.triggers:
        d["triggers"] = list(obj.triggers)
    if obj.affected_by:
        d["affected-by"] = list(obj.affected_by)
    return d


def _tree_order(state: Situation) -> list[Game]:
    order = [state.root_game()] if any(g.parent is None for g in state.games.values()) else []
    while order and state.children(order[-1].id):
        order.append(state.games[state.children(order[-1].id)[0]])
    rest = [g for g in state.games.values() if g not in order]
    return order + rest


def scenario_data(scenario: Scenario) -> dict[str, Any]:
    """The scenario as data in the scenario format, the inverse of reading: schema, title,
    description, seed, rulebook and amendments where given, the situation, then the events."""
    data: dict[str, Any] = {"schema": SCHEMA}
    if scenario.title:
        data["title"] = scenario.title
    if scenario.description:
        data["description"] = scenario.description
    if scenario.seed is not None:
        data["seed"] = scenario.seed
    if scenario.rulebook is not None:
        data["rulebook"] = scenario.rulebook
    if scenario.amendments:
        data["amendments"] = list(scenario.amendments)
    data.update({k: v for k, v in situation_data(scenario.situation).items() if k != "schema"})
    if scenario.events:
        data["event"] = [e.as_data() for e in scenario.events]
    return data


def dump_scenario(scenario: Scenario, fmt: str = "toml") -> str:
    """The scenario as TOML or JSON text, readable by `parse_scenario`."""
    data = scenario_data(scenario)
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return tomli_w.dumps(data)


def write_scenario(scenario: Scenario, path: str | Path) -> None:
    """Write the scenario to `path`: JSON if its name ends in `.json`, else TOML."""
    p = Path(path)
    p.write_text(dump_scenario(scenario, "json" if p.suffix == ".json" else "toml"),
                 encoding="utf-8")


def read_scenario_data(data: Any, *, file: str, text: str = "", fmt: str = "toml",
                       check: StructureCheck | None = None) -> Scenario:
    """Read scenario data that is already parsed: a scenario that is part of a larger file
    (a recorded trace of `shahrazad conform`, whose situations are scenario tables).

    Errors name `file` and the line found in `text`, the text the data was read from
    (`fmt` "toml" or "json"), where lines belonging to other parts may be blanked out so
    that none of them is named; see `parse_scenario` for `check`."""
    if not isinstance(data, dict):
        raise _fail(file, None, "a scenario is a table (a JSON object)")
    where = _Where(text, fmt == "json")
    scenario = _Reader(data, file, where).read()
    if check is not None:
        faults = check(scenario.situation)
        if faults:
            more = f" (and {len(faults) - 1} more)" if len(faults) > 1 else ""
            raise _fail(file, _line_of_fault(where, scenario.situation, faults[0]),
                        f"the situation is not one the rules allow: {faults[0]}{more}")
    return scenario
