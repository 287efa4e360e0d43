"""JSON Schemas (draft 2020-12) of the scenario format and of the documents that
`shahrazad simulate --format json` and `shahrazad verify --format json` print.

Engine authors generate their classes from them (Forge and XMage are written in Java), so
the schemas are built here from the tables that the reader and the writers use, never
copied from them: the keys of each scenario table and the kind of value each holds
(`model.scenario.SHAPES`), the events and their arguments (`model.events.EVENT_ARGS`, with
the general rule of each in-game action, `GENERAL_RULES`), zones, object kinds, card types,
supplementary decks and variants (`model.objects`), the statuses and exit codes of a proof
(`proofs.solving.obligations.Status`), the events obligations are about (`invariants.catalog.EVENTS`),
the second solvers (`proofs.solving.confirm.SOLVERS`) and the version strings of the documents.
Adding an event, a key or a zone to the code changes the schema.

Written here are what the code does not hold as data: the words of each description (those
of docs/scenario-format.md and docs/json-output.md), which keys each scenario table
requires (tests/test_schemas.py checks them against the reader), and the keys of the
output documents (checked against real output there). The copies shipped in the package
(`shahrazad/schemas/`) and published in `docs/schemas/` are kept equal to what this module
builds by that test; `python -m shahrazad.schemas DIR...` writes them again.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from shahrazad.invariants.catalog import EVENTS as OBLIGATION_EVENTS
from shahrazad.model.events import EVENT_ARGS, GENERAL_RULES
from shahrazad.model.language import CAME_FROM
from shahrazad.model.objects import (
    CARD_TYPE_NAMES,
    CARD_TYPES,
    DECK_OF,
    NONCARD_ZONES,
    OBJECT_KINDS,
    OUTSIDE,
    PLAYER_ZONES,
    SUPPLEMENTARY_DECKS,
    TRADITIONAL,
    VARIANTS,
    ZONE_KINDS,
)
from shahrazad.model.scenario import (
    BOOL,
    COUNT,
    FACES,
    INT,
    INT_MAP,
    LARGEST,
    NAME_PATTERN,
    NAMES,
    PHASINGS,
    RESULT_KINDS,
    SCHEMA,
    SHAPES,
    TABLE_MAP,
    TABLES,
    TEXT,
    TEXT_MAP,
    TRADITIONAL_ONLY_ZONES,
    TRIGGER_REQUIRED,
)
from shahrazad.proofs.solving.confirm import SOLVERS
from shahrazad.proofs.solving.obligations import Status

from .report.jsondoc import VERIFY_SCHEMA
from .report.simulate import SIMULATE_SCHEMA

Schema = dict[str, Any]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE = "https://shahrazad.dev/schemas/"
NAME = NAME_PATTERN.removeprefix("^").removesuffix("$")

# The words of docs/scenario-format.md for each key of each table of `SHAPES`.
KEY_WORDS: dict[str, dict[str, str]] = {
    "top": {
        "schema": "The format and its version; optional, and if given it must be this.",
        "title": "A title for the scenario.",
        "description": "What the scenario shows, citing the Comprehensive Rules.",
        "seed": "Seed for shuffles and random starting players.",
        "rulebook": "The rulebook file the scenario (a counterexample) was found under; "
                    "absent: the official rules.",
        "amendments": "The amendment files applied to the rulebook, in order.",
        "players": "The players, in seat order (clockwise), used by range of influence (CR 801).",
        "game": "The games, at least one. They form one chain: one outermost game, each subgame "
                "under its main game, and no game with two subgames at once (CR 728.6). The "
                "deepest game is the active one; every other game is suspended.",
        "card": "The cards, in every game and outside them; the cards of one zone are listed top "
                "first.",
        "object": "The objects that are not cards: tokens, copies, emblems, abilities on the stack "
                  "and continuous effects (CR 109.1).",
        "player-counter": "Counters on players, kept per game (CR 728.4b).",
        "ended": "Games that have ended.",
        "event": "The events to run on the situation, in order.",
        "player-effect": "Effects acting on players.",
        "id-serial": "Where the interpreter's numbering of the ids it makes stands "
                     "(trigger1, token2, ...).",
    },
    "game": {
        "id": "The game's id.",
        "players": "The players of this game (default: all the scenario's players).",
        "parent": "Its main game; omitted for the outermost game.",
        "variants": "The variants the game is played with (limited-range: a limited range of "
                    "influence, CR 801).",
        "created-by": "The object that created this subgame, in the parent game.",
        "starting-player": "The game's starting player.",
        "will-lose": "Players who will lose the game at its first upkeep (CR 728.3, 726.3).",
        "left": "Players who left the game (CR 800.4a).",
        "range-of-influence": "A limited range of influence: how many seats it reaches (CR 801).",
        "trigger": "Abilities that triggered in this game and wait while a subgame is played "
                   "(CR 728.4a).",
        "began-in-deck": "Card id to the supplementary deck it began this game in (CR 728.5a).",
        "came-from": "Card id to where it came from into this game: the kind of zone it began "
                     "the game in, or main-game / outside for a card brought in later "
                     "(CR 400.11b, 728.4a). main-game only in a subgame.",
        "subgame-results": "The results of this game's subgames, by the object that created each.",
        "resolved": "The spells and abilities that created a subgame and finished resolving in "
                    "this game (CR 728.5).",
        "restarted-from": "The game this one replaced when it restarted (CR 726).",
        "commander-tax": "Commander id to the tax paid for it in this game (CR 903.8).",
        "commander-damage": "Commander id to the combat damage it dealt in this game (CR 903.10a).",
        "designations": "Designation to the player who has it (the monarch, the initiative, ...).",
        "waiting-for-priority": "What waits for the next time a player would receive priority "
                                "(the triggers of a restart effect, CR 726.6).",
        "status": "Ignored: the reader works each game's status out from the chain of games.",
    },
    "trigger": {
        "id": "The waiting trigger's id; not the id of an object or game.",
        "source": "The object whose ability triggered.",
        "card": "The card whose leaving a zone triggered it.",
        "left": "The zone the card left.",
        "controller": "The trigger's controller, a player of the game.",
    },
    "card": {
        "id": "The card's id.",
        "name": "The card's name.",
        "owner": "Its owner, a player of the scenario; never changes (CR 108.3).",
        "type": "Traditional (the default) or a nontraditional card (CR 108.2).",
        "at": "Its zone path: GAME/KIND for a shared zone, GAME/KIND/PLAYER for a library, hand "
              "or graveyard, GAME/deck/PLAYER/DECK for a supplementary deck, outside/PLAYER for "
              "a player's cards outside every game (CR 400.11a).",
        "face": "Face up (the default) or face down (CR 708.2).",
        "phased": "Phased in (the default) or out (CR 702.26).",
        "commander": "true: its deck's commander (CR 903.3).",
        "deck": "Its supplementary deck (default: from its type).",
        "controller": "Its controller (default: its owner).",
        "counters": "Counter kind to number (CR 122.1).",
        "triggers": "The abilities it has that the model knows: leaves-zone, an ability that "
                    "triggers when a card leaves a zone of its game (CR 728.4a).",
        "affected-by": "The effects acting on it (CR 728.1b).",
        "since-first-turn": "true: a permanent under its controller's control continuously "
                            "since their most recent turn began (Karn's further instruction, "
                            "CR 726.6).",
        "types": "Its card types (CR 205.2a); default: creature for a traditional card, "
                 "artifact for an Attraction or Contraption. Only a permanent card (an "
                 "artifact, battle, creature, enchantment, land or planeswalker card) is on the "
                 "battlefield (CR 110.4b).",
        "subtypes": "Its subtypes; Aura is the one the model reads (an Aura is an "
                    "enchantment, CR 303.4).",
        "exiled-with": "The object that exiled it, while it is in exile (Karn Liberated's "
                       "exiled cards, CR 607.2a).",
        "same-card": "The card this one is a second place of: only an amended rule's copy-to "
                     "with as = \"card\" makes one, and no real game has one (a scenario "
                     "that gives it is refused: structure.one-place).",
    },
    "object": {
        "id": "The object's id.",
        "kind": "What the object is (CR 109.1; 111 tokens, 707 copies, 114 emblems, 113.1 "
                "abilities, 611 effects).",
        "name": "The object's name.",
        "owner": "Its owner (default: its controller).",
        "controller": "Its controller (default: its owner; one of the two is needed).",
        "at": "Its zone path, GAME/KIND; where its kind can be: a token on the battlefield, a "
              "copy on the stack or battlefield, an emblem in the command zone, an ability on "
              "the stack, an effect among its game's effects.",
        "made-in": "The game that made it (default: the game it is in).",
        "counters": "Counter kind to number (CR 122.1).",
        "triggers": "The abilities it has that the model knows (leaves-zone).",
        "affected-by": "The effects acting on it (CR 728.1b).",
        "face": "Face up (the default) or face down (CR 708.2).",
        "phased": "Phased in (the default) or out (CR 702.26).",
    },
    "player-counter": {
        "game": "The game the counters are in.",
        "player": "The player who has them.",
        "kind": "The kind of counter (poison, energy, ...).",
        "count": "How many.",
    },
    "ended": {
        "id": "The game's id.",
        "parent": "Its main game, for a subgame.",
        "result": "How it ended: won, a draw, no winner, or restarted.",
        "winners": "The players who won it.",
        "players": "The players it had.",
    },
    "player-effect": {
        "player": "The player it acts on.",
        "effect": "The effect.",
    },
}

# What each table is, in the words of docs/scenario-format.md.
TABLE_WORDS: dict[str, tuple[str, str]] = {
    "game": ("Game", "One game: the outermost game or a subgame (CR 728)."),
    "trigger": ("Waiting trigger", "An ability that triggered in a game and waits while a "
                "subgame is played (CR 728.4a)."),
    "result": ("Subgame result", "How a subgame ended (CR 728.1a)."),
    "card": ("Card", "A card: where it is, its owner, its type and its status."),
    "object": ("Object", "A token, a copy, an emblem, an ability on the "
               "stack or a continuous effect (CR 109.1)."),
    "player-counter": ("Player counter", "Counters on a player, kept per game (CR 728.4b)."),
    "ended": ("Ended game", "A game that has ended, kept so that its result can be asked "
              "about later."),
    "player-effect": ("Player effect", "An effect acting on a player (CR 728.1b)."),
}

# Which keys of each table the reader requires (its checks, one by one, name them).
REQUIRED: dict[str, tuple[str, ...]] = {
    "game": ("id",),
    "card": ("id", "owner", "at"),
    "object": ("id", "kind", "at"),
    "player-counter": ("game", "player", "kind", "count"),
    "ended": ("id", "result"),
    "player-effect": ("player", "effect"),
    "trigger": TRIGGER_REQUIRED,
}

# The words of docs/scenario-format.md for each event, and for each of its arguments.
EVENT_WORDS: dict[str, str] = {
    "start-subgame": "A subgame starts (CR 728.2).",
    "end-subgame": "The active subgame ends: with winners, as a draw, or with no winner "
                   "(CR 728.5).",
    "restart": "The active game restarts (CR 726).",
    "bring-in": "A card is brought into the active game from outside it or from a main game "
                "(CR 728.4, 400.11b); the one nontraditional card brought in is a dungeon, into "
                "the command zone (CR 701.49a).",
    "move": "An in-game move: the object is new, face up (face down in a supplementary deck), "
            "a card controlled by its owner; a nontraditional card only where its type can be.",
    "create": "An object is created in the active game.",
    "counter": "Counters on a player or an object change.",
    "phase": "An object phases out or in.",
    "turn": "A card, token or copy on the battlefield, on the stack, in exile or in the command "
            "zone (not in a supplementary deck) is turned face up or down.",
    "leave": "A player leaves the active game; what they own leaves with them, what they "
             "control is exiled or ceases, their counters there are gone; a game keeps two "
             "players at least: when the last opponent would leave, the game is over instead "
             "(CR 104.2a).",
    "control": "The player gains control of a permanent, or of a spell or ability on the stack.",
    "affect": "An effect acts on an object or a player (CR 728.1b).",
}
ARGUMENT_WORDS: dict[str, dict[str, str]] = {
    "start-subgame": {
        "by": "The player who starts it (default: the first player).",
        "via": "The spell or ability on the active game's stack that creates it (default: a "
               "new creating effect named after card).",
        "card": "The name of the card that creates it (default: Shahrazad).",
    },
    "end-subgame": {
        "winner": "The players who win it.",
        "draw": "true: the subgame is a draw.",
    },
    "restart": {
        "controller": "The controller of the effect that restarts the game.",
        "source": "The object whose ability restarts the game (Karn Liberated): the "
                  "non-Aura permanent cards exiled with it are left in exile (CR 726.5), "
                  "computed from the situation.",
        "then": "battlefield: Karn Liberated's further instruction (CR 726.6).",
        "via": "The spell or ability that restarts the game.",
    },
    "bring-in": {
        "card": "The card brought in.",
        "to": "The kind of zone it is brought into (default: hand).",
        "by": "The player who brings it in (default: its owner).",
    },
    "move": {
        "object": "The object that moves.",
        "to": "A zone path of the active game, or outside/OWNER for a card.",
        "position": "top or bottom of the zone.",
        "exiled-with": "For a card moved into exile: the object of the active game that "
                       "exiles it (CR 607.2a).",
    },
    "create": {
        "kind": "token, copy, emblem, ability or effect.",
        "id": "The new object's id (default: a fresh one).",
        "name": "The new object's name.",
        "controller": "Its controller.",
        "to": "Its zone path (default: by its kind).",
        "copy-of": "The object a copy copies.",
        "triggers": "The abilities it has that the model knows (leaves-zone).",
    },
    "counter": {
        "player": "The player the counters are on (or object).",
        "object": "The object the counters are on (or player).",
        "kind": "The kind of counter.",
        "add": "How many are put on; negative: removed.",
    },
    "phase": {
        "object": "The permanent that phases.",
        "out": "true: it phases out; false: it phases in.",
    },
    "turn": {
        "object": "The object turned.",
        "face": "up or down.",
    },
    "leave": {"player": "The player who leaves."},
    "control": {
        "object": "The permanent, spell or ability.",
        "player": "The player who gains control of it.",
    },
    "affect": {
        "effect": "The effect object that acts.",
        "object": "The object it acts on (or player).",
        "player": "The player it acts on (or object).",
    },
}


# ---- building blocks ----------------------------------------------------------------------


def _words(words: dict[str, dict[str, str]], table: str, key: str) -> str:
    """The description of a key (or event); a key the code has and no words describe is
    an error that says where to describe it."""
    found = words.get(table, {}).get(key)
    if found is None:
        raise LookupError(f"{table} has {key!r} in the code and no description: add it to "
                          "shahrazad.schemas")
    return found


def _ref(name: str) -> Schema:
    return {"$ref": f"#/$defs/{name}"}


def _integer(minimum: int = -LARGEST) -> Schema:
    return {"type": "integer", "minimum": minimum, "maximum": LARGEST}


def _strings(**more: Any) -> Schema:
    return {"type": "array", "items": {"type": "string", **more}}


def _shape(kind: str) -> Schema:
    """The schema of a kind of value of `SHAPES`, as `model.scenario.fits` checks it."""
    shapes: dict[str, Callable[[], Schema]] = {
        TEXT: lambda: {"type": "string"},
        INT: _integer,
        COUNT: lambda: _integer(0),
        BOOL: lambda: {"type": "boolean"},
        NAMES: _strings,
        TABLES: lambda: {"type": "array", "items": {"type": "object"}},
        INT_MAP: lambda: {"type": "object", "additionalProperties": _integer()},
        TEXT_MAP: lambda: {"type": "object", "additionalProperties": {"type": "string"}},
        TABLE_MAP: lambda: {"type": "object", "additionalProperties": {"type": "object"}},
    }
    return shapes[kind]()


def _alternatives(words: Iterable[str]) -> str:
    return "(" + "|".join(words) + ")"


def zone_pattern(kinds: Iterable[str], decks: Iterable[str] = SUPPLEMENTARY_DECKS,
                 outside: bool = False) -> str:
    """The zone paths (`model.objects.parse_zone`) of these kinds of zone, as a pattern:
    a game's shared zone, a player's zone, a supplementary deck of `decks`, and with
    `outside` a player's cards outside every game."""
    kinds = list(kinds)
    shared = [k for k in kinds if k not in PLAYER_ZONES and k != "deck"]
    paths = [f"{NAME}/{_alternatives(shared)}"] if shared else []
    owned = [k for k in kinds if k in PLAYER_ZONES]
    if owned:
        paths.append(f"{NAME}/{_alternatives(owned)}/{NAME}")
    decks = list(decks)
    if "deck" in kinds and decks:
        paths.append(f"{NAME}/deck/{NAME}/{_alternatives(decks)}")
    if outside:
        paths.append(f"{OUTSIDE}/{NAME}")
    return "^" + _alternatives(paths) + "$"


def _value(table: str, key: str) -> Schema:
    """The value of a key: its kind of value, narrowed where the reader checks more."""
    narrowed = _NARROWER.get((table, key)) or _NARROWER.get(("*", key))
    return {"description": _words(KEY_WORDS, table, key), **_shape(SHAPES[table][key]),
            **(narrowed() if narrowed else {})}


_NARROWER: dict[tuple[str, str], Callable[[], Schema]] = {
    ("top", "schema"): lambda: {"const": SCHEMA},
    ("top", "players"): lambda: {**_strings(pattern=NAME_PATTERN), "minItems": 1,
                                 "uniqueItems": True},
    ("top", "game"): lambda: {"items": _ref("game"), "minItems": 1},
    ("top", "card"): lambda: {"items": _ref("card")},
    ("top", "object"): lambda: {"items": _ref("object")},
    ("top", "player-counter"): lambda: {"items": _ref("player-counter")},
    ("top", "ended"): lambda: {"items": _ref("ended")},
    ("top", "player-effect"): lambda: {"items": _ref("player-effect")},
    ("top", "event"): lambda: {"items": _ref("event")},
    ("game", "id"): lambda: {"pattern": NAME_PATTERN},
    ("card", "id"): lambda: {"pattern": NAME_PATTERN},
    ("object", "id"): lambda: {"pattern": NAME_PATTERN},
    ("game", "variants"): lambda: {"items": {"enum": list(VARIANTS)}},
    ("game", "trigger"): lambda: {"items": _ref("trigger")},
    ("game", "began-in-deck"): lambda: {"additionalProperties": {"enum": list(SUPPLEMENTARY_DECKS)}},
    ("game", "came-from"): lambda: {"additionalProperties": {"enum": list(CAME_FROM)}},
    ("game", "subgame-results"): lambda: {"additionalProperties": _ref("result")},
    ("card", "type"): lambda: {"enum": list(CARD_TYPES), "default": TRADITIONAL},
    ("card", "types"): lambda: {"items": {"enum": list(CARD_TYPE_NAMES)}, "minItems": 1},
    ("card", "deck"): lambda: {"enum": [d for d in SUPPLEMENTARY_DECKS if d in DECK_OF.values()]},
    ("card", "at"): lambda: {"pattern": zone_pattern(ZONE_KINDS, outside=True)},
    ("object", "at"): lambda: {"pattern": zone_pattern(ZONE_KINDS)},
    ("object", "kind"): lambda: {"enum": [k for k in OBJECT_KINDS if k != "card"]},
    ("player-counter", "count"): lambda: _integer(1),
    ("ended", "result"): lambda: {"enum": list(RESULT_KINDS)},
    ("*", "face"): lambda: {"enum": list(FACES), "default": FACES[0]},
    ("*", "phased"): lambda: {"enum": list(PHASINGS), "default": PHASINGS[0]},
    ("*", "counters"): lambda: {"additionalProperties": _integer(1)},
}


def _table(table: str, *rules: Schema) -> Schema:
    """A scenario table: its keys (no others), those the reader requires, and its rules."""
    title, description = TABLE_WORDS[table]
    out: Schema = {"title": title, "description": description, "type": "object"}
    required = REQUIRED.get(table, ())
    if required:
        out["required"] = list(required)
    out["properties"] = {key: _value(table, key) for key in SHAPES[table]}
    out["additionalProperties"] = False
    if rules:
        out["allOf"] = list(rules)
    return out


def _card_type_rule(ctype: str) -> Schema:
    """Where a card of a type can be as the reader reads it: its own supplementary deck
    only, and no library, hand, graveyard or stack for a nontraditional card (CR 108.2a);
    the `deck` key names its type's deck, or is absent."""
    deck = DECK_OF.get(ctype)
    kinds = [k for k in ZONE_KINDS if ctype == TRADITIONAL or k not in TRADITIONAL_ONLY_ZONES]
    when: Schema = {"properties": {"type": {"const": ctype}}}
    if ctype != TRADITIONAL:
        when["required"] = ["type"]
    return {"if": when, "then": {"properties": {
        "at": {"pattern": zone_pattern(kinds, [deck] if deck else [], outside=True)},
        "deck": {"const": deck} if deck else False}}}


def _commander_rule() -> Schema:
    return {"if": {"properties": {"commander": {"const": True}}, "required": ["commander"]},
            "then": {"properties": {"type": {"const": TRADITIONAL}}}}


def _object_kind_rule(kind: str) -> Schema:
    return {"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
            "then": {"properties": {"at": {"pattern": zone_pattern(NONCARD_ZONES[kind])}}}}


def _argument(typ: str) -> Schema:
    """An event argument's type, as `model.events.check_event` checks it."""
    types: dict[str, Callable[[], Schema]] = {
        "str": lambda: {"type": "string", "minLength": 1},
        "int": _integer,
        "bool": lambda: {"type": "boolean"},
        "list[str]": _strings,
    }
    return types[typ]()


def _event(kind: str) -> Schema:
    words = _words({"event": EVENT_WORDS}, "event", kind)
    if kind in GENERAL_RULES:
        words = f"{words.removesuffix('.')} (CR {GENERAL_RULES[kind]})."
    spec = EVENT_ARGS[kind]
    return {
        "title": f"{kind} event",
        "description": words,
        "type": "object",
        "required": ["do", *(name for name, _, required in spec if required)],
        "properties": {
            "do": {"description": "The event.", "const": kind},
            **{name: {"description": _words(ARGUMENT_WORDS, kind, name), **_argument(typ)}
               for name, typ, _ in spec},
        },
        "additionalProperties": False,
    }


def scenario_defs() -> dict[str, Schema]:
    """Every table of a scenario, each event, and the scenario itself (`scenario`)."""
    defs: dict[str, Schema] = {
        "game": _table("game"),
        "trigger": _table("trigger"),
        "result": {
            "title": TABLE_WORDS["result"][0],
            "description": TABLE_WORDS["result"][1],
            "type": "object",
            "required": ["kind"],
            "properties": {
                "kind": {"description": "How it ended: won, a draw, no winner, or restarted.",
                         "enum": list(RESULT_KINDS)},
                "winners": {"description": "The players who won it.", "type": "array"},
            },
        },
        "card": _table("card", *(_card_type_rule(t) for t in CARD_TYPES), _commander_rule()),
        "object": _table("object", {"anyOf": [{"required": ["controller"]},
                                              {"required": ["owner"]}]},
                         *(_object_kind_rule(k) for k in OBJECT_KINDS if k != "card")),
        "player-counter": _table("player-counter"),
        "ended": _table("ended"),
        "player-effect": _table("player-effect"),
        "event": {
            "title": "Event",
            "description": "One event: `do` names it, the other keys are its arguments.",
            "oneOf": [_ref(f"event.{kind}") for kind in EVENT_ARGS],
        },
        **{f"event.{kind}": _event(kind) for kind in EVENT_ARGS},
    }
    defs["scenario"] = {
        "title": "Scenario",
        "description": "A situation (players, games, cards, other objects, counters) and the "
                       "events to run on it; `shahrazad simulate` runs it, and counterexamples "
                       "are written in it (docs/scenario-format.md).",
        "type": "object",
        "required": ["players", "game"],
        "properties": {key: _value("top", key) for key in SHAPES["top"]},
        "additionalProperties": False,
    }
    return defs


def _document(version: str, title: str, description: str, body: Schema,
              defs: dict[str, Schema]) -> Schema:
    kind, number = version.removeprefix("shahrazad.").split("/")
    document = {"$schema": DRAFT, "$id": f"{BASE}{kind}-{number}.json", "title": title,
                "description": description, **body, "$defs": defs}
    return _titled(document, title)


_CONDITIONS = ("if", "then", "allOf", "anyOf", "oneOf", "not")


def _titled(node: Schema, owner: str) -> Schema:
    """Every property titled after its owner (`Card type`, `Obligation status`), so that
    the classes generated from the schema get distinct names."""
    title = node.get("title", owner)
    out: Schema = {}
    for key, value in node.items():
        if key == "properties":
            value = {name: _titled(prop if "title" in prop else {"title": f"{title} {name}", **prop},
                                   title) for name, prop in value.items()}
        elif key == "$defs":
            value = {name: _titled(definition, definition.get("title", name))
                     for name, definition in value.items()}
        elif key not in _CONDITIONS and isinstance(value, dict):
            value = _titled(value, title)
        out[key] = value
    return out


def scenario_schema() -> Schema:
    """The scenario format, TOML or JSON (`model.scenario.parse_scenario`)."""
    defs = scenario_defs()
    root = defs.pop("scenario")
    return _document(SCHEMA, "Scenario", root["description"],
                     {k: v for k, v in root.items() if k not in ("title", "description")}, defs)


# ---- output documents ---------------------------------------------------------------------


_VERSION = "The document's kind and version: a new version when a key changes meaning or disappears."


def _described(description: str, schema: Schema) -> Schema:
    return {"description": description, **schema}


def _number(description: str) -> Schema:
    return _described(description, {"type": "number", "minimum": 0})


def _object(required: Iterable[str], properties: dict[str, Schema], **more: Any) -> Schema:
    return {"type": "object", **more, "required": list(required), "properties": properties}


def _trace_defs() -> dict[str, Schema]:
    """A step of a trace (`model.trace.TraceStep.as_data`) and its changes."""
    return {
        "step": _object(("event", "clause", "rule", "text", "changes"), {
            "event": _described("The event it belongs to, counted from 1.", _integer(1)),
            "clause": _described("The clause's stable name, or null for an in-game action "
                                 "following a general rule.", {"type": ["string", "null"]}),
            "rule": _described("The CR number of the edition cited.", {"type": "string"}),
            "text": _described("What the step does, in words.", {"type": "string"}),
            "changes": _described("What it changed.", {"type": "array", "items": _ref("change")}),
        }, title="Step", description="One step an event caused, citing its rule."),
        "change": _object(("object", "what"), {
            "object": _described("An object, game, zone or player id.", {"type": "string"}),
            "what": _described("moved, ceased, created, stays, set, suspended, resumed, "
                               "ended, zones ceased, left behind, shuffled, starting player, "
                               "will lose, counters, counters ceased, triggered, waits, put on "
                               "the stack, finishes resolving, copied, not copied, ...; stays: a "
                               "step selected the object but had no destination for it (a gap in "
                               "the rules for that situation); copied: a new object (`object`) "
                               "made by copy-to from the card in `from`, put in `to`; not "
                               "copied: why copy-to made no new object for the card.",
                               {"type": "string"}),
            "from": _described("Where it was, or what it was.", {"type": "string"}),
            "to": _described("Where it went, or what it became.", {"type": "string"}),
        }, title="Change", description="One object's change."),
    }


def simulate_schema() -> Schema:
    """`shahrazad simulate --format json` (`report.simulate.simulate_json`, and `outcomes`
    from the command)."""
    body = _object(("schema", "scenario", "rulebook", "edition", "seed", "events", "situation"), {
        "schema": _described(_VERSION, {"const": SIMULATE_SCHEMA}),
        "scenario": _described("The scenario file that was run.", {"type": "string"}),
        "rulebook": _described("official, or the rulebook file; followed by ' amended by ' and "
                               "the amendment files when there are.", {"type": "string"}),
        "edition": _described("The edition whose CR numbers are cited (YYYY-MM-DD).",
                              {"type": "string"}),
        "seed": _described("The seed of the random choices.", {"type": ["integer", "null"]}),
        "events": _described("One entry per event.", {"type": "array", "items": _ref("simulated-event")}),
        "situation": _described("The resulting situation, in the scenario format: it can be "
                                 "saved and simulated again.", _ref("scenario")),
        "outcomes": _described("Only with --outcomes.", _object(("branches", "distinct"), {
            "branches": _described("Runs over every combination of random choices.",
                                   _integer(1)),
            "distinct": _described("Distinct resulting situations.", _integer(1)),
        })),
    })
    run = _object(("index", "line", "event", "steps"), {
        "index": _described("The event's number, from 1.", _integer(1)),
        "line": _described("Its line in the scenario file, or null.",
                           {"type": ["integer", "null"], "minimum": 1}),
        "event": _described("The event as written in the file.", _ref("event")),
        "steps": _described("The steps it caused.", {"type": "array", "items": _ref("step")}),
    }, title="Simulated event", description="One event and the steps it caused.")
    return _document(SIMULATE_SCHEMA, "Simulation",
                     "What shahrazad simulate --format json prints: the trace of a scenario's "
                     "events, each step citing its rule, and the resulting situation "
                     "(docs/json-output.md).",
                     body, {"simulated-event": run, **_trace_defs(), **scenario_defs()})


def _statuses() -> list[str]:
    return [s.value for s in Status]


def _obligation() -> Schema:
    return _object(("invariant", "statement", "event", "status", "clauses", "seconds",
                    "solving-seconds", "encoding-seconds", "bounded", "reason", "cached"), {
        "invariant": _described("The invariant's id (shahrazad invariants).", {"type": "string"}),
        "statement": _described("The promise, in words.", {"type": "string"}),
        "event": _described("The event it is about.", {"enum": list(OBLIGATION_EVENTS)}),
        "status": _described(
            "proved (for every number of cards, players and games; or, when bounded is a "
            "number, up to that many), refuted (the counterexample and its reaching trace "
            "replay on the interpreter), unknown (the solver gave up: reason says why; never "
            "a proof), fault (a bug of this tool, never a finding).", {"enum": _statuses()}),
        "clauses": _described("The clauses that should keep it.", _strings()),
        "seconds": _number("The obligation's wall-clock time."),
        "solving-seconds": _number("The part of it inside z3's search."),
        "encoding-seconds": _number("The part of it building z3 terms (counted by the first "
                                    "obligation of its event)."),
        "bounded": _described("null for an unbounded result; otherwise the size of the finite "
                              "universe used.", {"type": ["integer", "null"], "minimum": 1}),
        "reason": _described("Why: the solver's reason for unknown, the replay's for the rest.",
                             {"type": "string"}),
        "cached": _described("true when the proof was answered from the cache of proofs "
                             "(--cache, docs/cache.md), not decided in this run: its seconds "
                             "are then 0. Only proofs are ever cached.", {"type": "boolean"}),
        "lemmas": _described("When proved with lemmas (docs/verdicts.md): each lemma, in "
                             "words; each is an invariant (it holds at every game's beginning "
                             "and every event keeps it), assumed before the event.",
                             _strings()),
        "confirmation": _described("Only with --confirm SOLVER, for each obligation z3 proved "
                                   "(docs/confirm.md).", _object(
            ("solver", "answer", "confirmed", "queries", "seconds", "reason"), {
                "solver": _described("The second solver.", {"enum": list(SOLVERS)}),
                "answer": _described("Its answer to the last query it was asked: unsat, sat "
                                     "for a possibility, unknown, or the opposite of z3's.",
                                     {"type": "string"}),
                "confirmed": _described("true only when it gave z3's answer to every query.",
                                        {"type": "boolean"}),
                "queries": _described("How many queries it decided.", _integer(0)),
                "seconds": _number("The second solver's time, translation included."),
                "reason": _described("Why not confirmed; empty when confirmed.",
                                     {"type": "string"}),
            })),
        "counterexample": _described("When refuted: the situation and its one event, in the "
                                     "scenario format; legal and reached.", _ref("scenario")),
        "trace": _described("When refuted: the reaching trace, from a game's beginning to the "
                            "situation and then the event.", _ref("scenario")),
        "witness": _described("The values of the invariant's variables that break it.",
                              {"type": "object", "additionalProperties": {"type": "string"}}),
        "steps": _described("The steps of the replay that changed something.",
                            {"type": "array", "items": _ref("step")}),
    }, title="Obligation", description="One invariant at one event it is about.")


def _amendment_effect() -> Schema:
    outcome: Schema = {"anyOf": [_ref("scenario"),
                                 _described("The interpreter's refusal.", {"type": "string"})]}
    difference = _object(("event", "status", "detail", "clauses"), {
        "event": _described("The event.", {"enum": list(OBLIGATION_EVENTS)}),
        "status": _described("differs, same (for every size, or up to a bound: detail), or "
                             "unknown.", {"enum": ["differs", "same", "unknown"]}),
        "detail": _described("Why, in words.", {"type": "string"}),
        "clauses": _described("The event's clauses the amendment changes.", _strings()),
        "breaks": _described("Invariants it breaks on this situation.", _strings()),
        "repairs": _described("Invariants it repairs on this situation.", _strings()),
        "scenario": _described("The reached situation and the event.", _ref("scenario")),
        "trace": _described("The reaching trace.", _ref("scenario")),
        "official": _described("One outcome under the rules the amendment applies to.", outcome),
        "amended": _described("The outcome under the amendment, made by the same random "
                              "choices.", outcome),
    }, title="Event difference")
    return _object(("unseen", "events"), {
        "unseen": _described("true when the model sees no difference at all (exit code 3).",
                             {"type": "boolean"}),
        "events": _described("One per event whose clauses the amendments change.",
                             {"type": "array", "items": difference}),
    })


def verify_schema() -> Schema:
    """`shahrazad verify --format json` (`report.jsondoc.verify_json`, and the
    `amendment-effect` the command adds: `report.semantic.diff_json`)."""
    body = _object(("schema", "rulebook", "amendments", "summary", "exit-code", "time",
                    "obligations"), {
        "schema": _described(_VERSION, {"const": VERIFY_SCHEMA}),
        "rulebook": _described("official, or the rulebook file.", {"type": "string"}),
        "amendments": _described("The amendment files applied, in order.", _strings()),
        "summary": _described("How many obligations ended in each status.", {
            "type": "object",
            "properties": {s: _described(f"How many obligations are {s}.", _integer(1))
                           for s in _statuses()}}),
        "exit-code": _described("What the process exits with: 0 all proved, 1 something "
                                "refuted, 3 something unknown or a fault and nothing refuted "
                                "(or, with amendments, no difference the model can see).",
                                {"enum": sorted({s.exit_code for s in Status})}),
        "time": _described("Seconds, and how many results came from the cache; with the "
                           "obligations' cached, the only part of the document that changes "
                           "between identical runs.", _object(
            ("wall-seconds", "solving-seconds", "encoding-seconds", "from-cache"), {
                "wall-seconds": _number("The run's wall-clock time, from the first obligation "
                                        "to the last."),
                "solving-seconds": _number("Inside z3's search, summed over the workers."),
                "encoding-seconds": _number("Building z3 terms, summed over the workers."),
                "confirming-seconds": _number("With --confirm: the second solver's time, "
                                              "translation included, summed the same way."),
                "from-cache": _described("How many obligations were answered from the cache "
                                         "of proofs (--cache): 0 for a cold run. The times "
                                         "above count only the rest.", _integer(0)),
            })),
        "obligations": _described("One per invariant and event it is about, in catalog order.",
                                  {"type": "array", "items": _ref("obligation")}),
        "amendment-effect": _described("With --amendment, when every obligation is proved: "
                                       "what the amendments change, event by event (the "
                                       "semantic diff of shahrazad amend).",
                                       _amendment_effect()),
    })
    return _document(VERIFY_SCHEMA, "Verification",
                     "What shahrazad verify --format json prints: the outcome of each proof "
                     "obligation, with its counterexample as scenario data, and the run's "
                     "exit code (docs/json-output.md).",
                     body, {"obligation": _obligation(), **_trace_defs(), **scenario_defs()})


# ---- files --------------------------------------------------------------------------------

SCHEMAS: dict[str, Callable[[], Schema]] = {
    "scenario.schema.json": scenario_schema,
    "simulate.schema.json": simulate_schema,
    "verify.schema.json": verify_schema,
}


def render(schema: Schema) -> str:
    """A schema as the text of its file."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write_all(folder: str | Path) -> list[Path]:
    """Write every schema into `folder` (made if need be); the files written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, build in SCHEMAS.items():
        path = out / name
        path.write_text(render(build()), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """`python -m shahrazad.schemas DIR...`: write the schemas into each folder."""
    folders = sys.argv[1:] if argv is None else argv
    if not folders:
        print("usage: python -m shahrazad.schemas DIR...  (the repository's: "
              "src/shahrazad/schemas docs/schemas)", file=sys.stderr)
        return 2
    for folder in folders:
        for path in write_all(folder):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
