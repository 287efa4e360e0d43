"""Hypothesis strategies for valid situations and events, for engine authors' property tests.

Every situation these strategies make is written as scenario data (the documented format of
`docs/scenario-format.md`) and read back with `model.scenario.parse_scenario`, so it is
exactly what a scenario file can say, and `shahrazad.invariants.structure.problems` finds nothing wrong
with it. What they make:

* `scenario_tables(...)`: scenario data (plain dicts and lists, ready for `tomli_w` or
  `json`): 2-4 players; a chain of nested games (the outermost game `main`, subgames
  `sub1`, `sub2`, ... each under the previous one, created by a Shahrazad card or a
  creating ability on its main game's stack; only the deepest is active, the others
  suspended); some players may have left a game, and their cards are then outside it;
  cards of every type in every zone where the rules let them be: libraries (of the active
  game only), hands, graveyards, battlefield (possibly phased out or face down), stack and
  exile (possibly face down), outside the game, commanders (one or two per player) on the
  battlefield, in a graveyard, in exile or in the active game's command zone,
  supplementary decks `GAME/deck/PLAYER/DECK` (of the active game only, their cards always
  face down), face-up planes, phenomena and schemes in a command zone, Attractions and
  Contraptions also on the battlefield or in exile, vanguards in the active game's command
  zone, conspiracies (possibly face down) and dungeons in a command zone; tokens (possibly
  phased out or face down), copies, emblems (their owner's), abilities and continuous
  effects, each in the game that made it; counters on players of a game, per game;
  waiting 728.4a triggers and other per-game records.
* `situations(...)`: the same, read into a `model.state.Situation`.
* `events(situation)`: one event that is legal, or nearly so, in that situation (the
  interpreter may still refuse a few with `IllegalEvent`, which is part of what is tested).
* `event_sequences(situation)`: a run of events, each drawn for the situation that the
  events before it produced (the official interpreter is run as they are drawn).
* `scenarios(...)`: a `Scenario`: a situation, a run of events and a seed.

Ids: games `main`, `sub1`, `sub2`, ...; cards `c<n>`; creating cards or abilities
`creator<n>`; other objects `tok<n>`, `cop<n>`, `emb<n>`, `abi<n>`, `eff<n>`; waiting
triggers `waiting<n>`; players `Ann`, `Bob`, `Cid`, `Dee` in seat order.

Only legal situations are made (the structure invariants of `invariants/catalog.py`
hold), so what the Comprehensive Rules forbid is never generated: a suspended game has no
card in a library or supplementary deck and no commander or vanguard in its command zone,
which went to its subgame as it started (CR 728.2a-c); a supplementary card in a subgame
is marked as having begun it, and every subgame above it, in its deck (728.2a, 728.5a); a
plane, phenomenon, scheme, vanguard, conspiracy or dungeon is in a game only in the
command zone or its supplementary deck, an Attraction or Contraption also on the
battlefield or in exile (309.2c, 311.2, 312.2, 313.2, 314.2, 315.3, 717.6); only a
permanent is phased out (702.26); only a card, token or copy on the battlefield, the
stack, in exile or in the command zone is face down, and every card in a supplementary
deck is (708.2, 406.3, 701.31b); no player owns more than two commanders (903.3c).

Realism over variety where the two disagree: cards in a library, hand or graveyard are
their owner's (CR 400.3); nontraditional cards are never put into a library (CR 108.2a)
and only into their own kind of supplementary deck (CR 100.2d); tokens stay on the
battlefield, copies and abilities on the stack (CR 111.7); a card is brought into a game
only by its owner (as every "outside the game" card of the rulings says: "a card you
own"), and the one nontraditional card brought in is a dungeon, into the command zone
(701.49a, 309.4); a move sends a nontraditional card only where it may be; a restart
names its source, Karn Liberated, whose exiled cards it leaves in exile (726.5); only a
card, token or copy that may be face down is turned over (708.2); control changes only of
a permanent or an object on the stack (108.4). Events that go against these are left to
dedicated tests.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from hypothesis import strategies as st

from .choices import SeededChooser
from .errors import IllegalEvent
from .events import Event, check_event
from .interpreter import Interpreter
from .objects import DECK_OF, FACE_DOWN_ZONES, PLAYER_ZONES, ZoneRef
from .scenario import SCHEMA, Scenario, parse_scenario
from .state import Game, Situation

__all__ = [
    "PLAYER_NAMES",
    "event_sequences",
    "events",
    "scenario_tables",
    "scenarios",
    "situations",
]

PLAYER_NAMES: Final = ("Ann", "Bob", "Cid", "Dee")
_NAMED_VARIANTS: Final = ("commander", "vanguard", "planechase", "archenemy", "limited-range")
_COUNTER_KINDS: Final = ("poison", "energy", "experience", "rad")
_CREATORS: Final = ("Shahrazad", "Enter the Dungeon", "The Countdown Is at One")
_CARD_NAMES: Final = ("Grizzly Bears", "Island", "Living Wish", "Karn Liberated", "Swamp",
                      "Gravecrawler", "Burning Wish", "Shahrazad", "Llanowar Elves")
_SUPPLEMENTARY_KINDS: Final = tuple(DECK_OF)


def _coin(draw: st.DrawFn) -> bool:
    """A fair coin (typed as bool, for conditions that mix lists and draws)."""
    return bool(draw(st.booleans()))


def _types_for(variants: list[str], nontraditional: bool) -> list[str]:
    """The card types a game with these variants can hold (traditional first)."""
    types = ["traditional"]
    if not nontraditional:
        return types
    if "planechase" in variants:
        types += ["plane", "phenomenon"]
    if "archenemy" in variants:
        types.append("scheme")
    if "vanguard" in variants:
        types.append("vanguard")
    types += ["attraction", "contraption", "conspiracy", "dungeon"]
    return types


def _places(draw: st.DrawFn, ctype: str, owner: str, games: list[dict[str, Any]]) -> str:
    """A zone path where a card of this type and owner may be (CR 400.3, 108.2a).

    Only the deepest game, the active one, has libraries and supplementary decks with cards
    in them and a vanguard in its command zone: those of a suspended game went to its
    subgame as it started (728.2a-c). A plane, phenomenon, scheme, vanguard, conspiracy or
    dungeon is in a game only in the command zone or its deck; an Attraction or Contraption
    also on the battlefield or in exile (309.2c, 311.2, 312.2, 313.2, 314.2, 315.3, 717.6).
    A conspiracy is only in the outermost game: a subgame takes none.
    """
    homes = [g for g in games if owner in g["players"]]
    deepest = games[-1]["id"]
    if ctype == "vanguard":  # in no deck, so only in the active game's command zone
        homes = [g for g in homes if g["id"] == deepest]
    if ctype == "conspiracy":  # a subgame never takes one (728.2)
        homes = [g for g in homes if g["id"] == games[0]["id"]]
    if not homes or draw(st.integers(0, 9)) == 0:
        return f"outside/{owner}"
    game = draw(st.sampled_from(homes))["id"]
    active = game == deepest
    if ctype == "traditional":
        kinds = ("library", "library", "library") if active else ()
        kind = draw(st.sampled_from((*kinds, "hand", "graveyard", "battlefield", "battlefield",
                                     "stack", "exile")))
        return f"{game}/{kind}/{owner}" if kind in PLAYER_ZONES else f"{game}/{kind}"
    options = [f"{game}/command"]
    if ctype in _SUPPLEMENTARY_KINDS and active:
        options += [f"{game}/deck/{owner}/{DECK_OF[ctype]}"] * 2
    if ctype in ("attraction", "contraption"):
        options += [f"{game}/battlefield", f"{game}/exile"]
    return draw(st.sampled_from(options))


# The prefixes of the interpreter's own fresh names, by the prefix used here.
_OWN_PREFIXES = {"waiting": "trigger", "creator": "spell", "tok": "token", "eff": "effect",
                 "cop": "copy", "emb": "emblem", "abi": "ability"}

# Where a token, copy, emblem, ability or effect is put as it is made (CR 111.7, 114.1).
_HOME_OF: Final = {"token": "battlefield", "copy": "stack", "emblem": "command",
                   "ability": "stack", "effect": "effects"}


class _Names:
    """The ids given so far in one scenario being drawn, and the next one to give."""

    def __init__(self, draw: st.DrawFn) -> None:
        self._draw = draw
        self._serial = 0
        self.taken: set[str] = set()

    def new(self, prefix: str) -> str:
        """A new name; often one the interpreter would give to what it makes next (its
        own prefixes: trigger1, spell1, token2, ...), so that a generated situation can
        hold every name an event might want for a new object."""
        own = _OWN_PREFIXES.get(prefix)
        if own is not None and self._draw(st.integers(0, 2)) == 0:
            name = f"{own}{self._draw(st.integers(1, 3))}"
            if name not in self.taken:
                self.taken.add(name)
                return name
        self._serial += 1
        self.taken.add(f"{prefix}{self._serial}")
        return f"{prefix}{self._serial}"


@st.composite
def scenario_tables(draw: st.DrawFn, max_players: int = 4, max_cards: int = 12,
                    max_depth: int = 3, variants: bool = True) -> dict[str, Any]:
    """Scenario data for a valid situation (no events).

    `max_players` (2-4) bounds the players; `max_cards` the cards (besides the cards that
    created the subgames); `max_depth` the number of nested subgames below the outermost
    game (0: a single game); `variants` allows Commander, Vanguard, Planechase, Archenemy,
    limited range of influence and nontraditional cards.
    """
    # Each part draws in turn, in this order: the same seed makes the same scenario.
    n = draw(st.integers(2, max(2, min(max_players, len(PLAYER_NAMES)))))
    players = list(PLAYER_NAMES[:n])
    chosen = (draw(st.lists(st.sampled_from(_NAMED_VARIANTS), unique=True, max_size=3))
              if variants else [])
    depth = draw(st.integers(0, max(0, max_depth)))
    names = _Names(draw)
    cards: list[dict[str, Any]] = []
    objects: list[dict[str, Any]] = []
    games = _games(draw, players, chosen, depth, names, cards, objects)
    commanders = _cards(draw, players, chosen, variants, max_cards, games, names, cards)
    effects_by_game = _noncard_objects(draw, games, names, objects)

    data: dict[str, Any] = {"schema": SCHEMA, "players": players, "game": games}
    if cards:
        data["card"] = cards
    if objects:
        data["object"] = objects
    player_effects = _effects_acting(draw, games, cards, objects, effects_by_game)
    if player_effects:
        data["player-effect"] = player_effects
    counters = _player_counters(draw, games)
    if counters:
        data["player-counter"] = counters
    _waiting_triggers(draw, games, cards, objects, names)
    _game_records(draw, games, commanders)
    if draw(st.integers(0, 4)) == 0:
        data["ended"] = [{"id": "earlier", "result": "win",
                          "winners": [draw(st.sampled_from(players))], "players": players}]
    _remembered_names(draw, games, cards, names.taken)
    # Extreme numbers the format allows.
    if counters and draw(st.integers(0, 5)) == 0:
        counters[0]["count"] = draw(st.sampled_from((2**31, 2**62, 2**63 - 1)))
    return data


def _games(draw: st.DrawFn, players: list[str], chosen: list[str], depth: int, names: _Names,
           cards: list[dict[str, Any]], objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chain of games: `main`, then `depth` subgames, each under the previous one.

    A player who left a game is in no game below it (CR 800.4a); every game has the chosen
    variants; each subgame's creating spell or ability is added to `cards` or `objects`.
    """
    games: list[dict[str, Any]] = []
    in_game = list(players)
    for level in range(depth + 1):
        gid = "main" if level == 0 else f"sub{level}"
        left: list[str] = []
        if len(in_game) > 2 and draw(st.integers(0, 5)) == 0:
            leaver = draw(st.sampled_from(in_game))
            in_game = [p for p in in_game if p != leaver]
            left.append(leaver)
        g: dict[str, Any] = {"id": gid}
        if in_game != players:
            g["players"] = list(in_game)
        if left:
            g["left"] = left
        if chosen:
            g["variants"] = list(chosen)
        if "limited-range" in chosen:
            g["range-of-influence"] = draw(st.integers(0, 3))
        if draw(st.booleans()):
            g["starting-player"] = draw(st.sampled_from(in_game))
        if level > 0:
            parent = games[-1]
            g["parent"] = parent["id"]
            g["created-by"] = _creator(draw, parent, players, names, cards, objects)
        games.append(g)
    for g in games:
        g.setdefault("players", list(players))
    return games


def _creator(draw: st.DrawFn, main_game: dict[str, Any], players: list[str], names: _Names,
             cards: list[dict[str, Any]], objects: list[dict[str, Any]]) -> str:
    """The id of a subgame's creating spell (a card) or ability, which waits on its main
    game's stack (CR 728.5), cast by a player of the main game."""
    caster = draw(st.sampled_from(main_game.get("players", players)))
    creator = names.new("creator")
    if draw(st.booleans()):
        cards.append({"id": creator, "name": draw(st.sampled_from(_CREATORS)),
                      "owner": caster, "at": f"{main_game['id']}/stack"})
    else:
        objects.append({"id": creator, "kind": "ability", "controller": caster,
                        "name": "Shahrazad (creating effect)",
                        "at": f"{main_game['id']}/stack"})
    return creator


def _cards(draw: st.DrawFn, players: list[str], chosen: list[str], variants: bool,
           max_cards: int, games: list[dict[str, Any]], names: _Names,
           cards: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Up to `max_cards` cards, added to `cards`; the commanders' ids by owner (CR 903.3)."""
    types = _types_for(chosen, variants)
    commanders: dict[str, list[str]] = {}
    for _ in range(draw(st.integers(0, max(0, max_cards)))):
        cards.append(_card(draw, players, chosen, types, games, names, cards, commanders))
    return commanders


def _card(draw: st.DrawFn, players: list[str], chosen: list[str], types: list[str],
          games: list[dict[str, Any]], names: _Names, cards: list[dict[str, Any]],
          commanders: dict[str, list[str]]) -> dict[str, Any]:
    """One card of one of `types`: its owner, name, place and status, and what the games
    record of it (CR 400.3, 108.2a, 728.2)."""
    owner = draw(st.sampled_from(players))
    ctype = draw(st.sampled_from(types)) if draw(st.integers(0, 2)) == 0 else "traditional"
    card: dict[str, Any] = {"id": names.new("c"), "owner": owner}
    if draw(st.integers(0, 2)) == 0:
        card["name"] = draw(st.sampled_from(_CARD_NAMES))
    if ctype != "traditional":
        card["type"] = ctype
    at = _card_place(draw, card, ctype, chosen, games, commanders)
    card["at"] = at
    zone_game = at.split("/")[0]
    zone_kind = at.split("/")[1]
    _card_types(draw, card, ctype, zone_kind)
    _exiled_with(draw, card, zone_game, zone_kind, cards)
    game_table = next((g for g in games if g["id"] == zone_game), None)
    _face_down(draw, card, ctype, zone_kind)
    if at.endswith("/battlefield"):
        _permanent_status(draw, card, game_table)
    if game_table is not None:
        _began_in_deck(card, ctype, games, game_table)
        _came_from(draw, card, ctype, games, game_table)
    return card


def _card_place(draw: st.DrawFn, card: dict[str, Any], ctype: str, chosen: list[str],
                games: list[dict[str, Any]], commanders: dict[str, list[str]]) -> str:
    """Where a card is: sometimes, in a Commander game, it is its owner's commander.

    A player has one commander, or two with partner (CR 903.3, 702.124); in a suspended
    game a commander is not in the command zone, which it left for the subgame (728.2c).
    A card that is no commander is wherever its type lets it be (`_places`).
    """
    owner = card["owner"]
    homes = [g for g in games if owner in g["players"]]
    mine = commanders.get(owner, [])
    if ("commander" in chosen and ctype == "traditional" and homes
            and (not mine or (len(mine) == 1 and draw(st.integers(0, 3)) == 0))
            and _coin(draw)):
        mine.append(card["id"])
        commanders[owner] = mine
        card["commander"] = True
        game = draw(st.sampled_from(homes))["id"]
        places = [f"{game}/battlefield", f"{game}/graveyard/{owner}", f"{game}/exile"]
        if game == games[-1]["id"]:
            places += [f"{game}/command", f"{game}/command"]
        return draw(st.sampled_from(places))
    return _places(draw, ctype, owner, games)


def _card_types(draw: st.DrawFn, card: dict[str, Any], ctype: str, zone_kind: str) -> None:
    """A traditional card's types (CR 205.2a): a creature card by default; sometimes an
    Aura, or, off the battlefield, an instant or sorcery card, which is no permanent card
    (110.4b). A commander stays a creature card (903.3)."""
    if ctype == "traditional" and not card.get("commander"):
        shape = draw(st.integers(0, 5))
        if shape == 0:
            card["types"], card["subtypes"] = ["enchantment"], ["aura"]
        elif shape == 1 and zone_kind != "battlefield":
            card["types"] = [draw(st.sampled_from(("instant", "sorcery")))]


def _exiled_with(draw: st.DrawFn, card: dict[str, Any], zone_game: str, zone_kind: str,
                 cards: list[dict[str, Any]]) -> None:
    """A card in exile, sometimes exiled with a card already on its game's battlefield
    (Karn Liberated, CR 607.2a)."""
    if zone_kind == "exile" and draw(st.integers(0, 2)) == 0:
        sources = [c["id"] for c in cards if c["at"] == f"{zone_game}/battlefield"]
        if sources:
            card["exiled-with"] = draw(st.sampled_from(sources))


def _face_down(draw: st.DrawFn, card: dict[str, Any], ctype: str, zone_kind: str) -> None:
    """Face down off the battlefield: always in a supplementary deck (CR 701.31b);
    sometimes on the stack (a face-down spell), in exile (foretold, hidden away) or, for a
    hidden conspiracy, in the command zone (702.106a); never elsewhere (708.2, 406.3)."""
    if zone_kind == "deck":
        card["face"] = "down"
    elif ((zone_kind in ("stack", "exile") and draw(st.integers(0, 4)) == 0)
          or (zone_kind == "command" and ctype == "conspiracy" and _coin(draw))):
        card["face"] = "down"


def _permanent_status(draw: st.DrawFn, card: dict[str, Any],
                      game_table: dict[str, Any] | None) -> None:
    """A card on the battlefield: its controller, a player of its game (CR 108.4), and
    sometimes phased out (702.26), face down (708.2), with +1/+1 counters (122.1) or an
    ability that triggers as it leaves (603.10a)."""
    owner = card["owner"]
    controller = draw(st.sampled_from(game_table["players"])) if game_table else owner
    if controller != owner:
        card["controller"] = controller
    if draw(st.integers(0, 3)) == 0:
        card["phased"] = "out"
    if draw(st.integers(0, 5)) == 0:
        card["face"] = "down"
    if draw(st.integers(0, 2)) == 0:
        card["counters"] = {"+1/+1": draw(st.integers(1, 3))}
    if draw(st.integers(0, 2)) == 0:
        card["triggers"] = ["leaves-zone"]


def _began_in_deck(card: dict[str, Any], ctype: str, games: list[dict[str, Any]],
                   game_table: dict[str, Any]) -> None:
    """A supplementary card in a subgame began it, and every subgame above it, in its deck
    (CR 728.2a), and is marked so in each, so that 728.5a sends it back at each end."""
    if ctype in _SUPPLEMENTARY_KINDS:
        for upper in games[1:games.index(game_table) + 1]:
            upper.setdefault("began-in-deck", {})[card["id"]] = DECK_OF[ctype]


def _came_from(draw: st.DrawFn, card: dict[str, Any], ctype: str, games: list[dict[str, Any]],
               game_table: dict[str, Any]) -> None:
    """Sometimes, where a card in a subgame came from into it: a zone it began the subgame
    in, or brought in later from a main game or from outside (CR 728.2, 728.4a, 400.11b)."""
    if game_table is not games[0] and draw(st.integers(0, 2)):
        came = ("deck" if ctype in _SUPPLEMENTARY_KINDS
                else "command" if card.get("commander") or ctype != "traditional"
                else draw(st.sampled_from(("library", "main-game", "outside"))))
        game_table.setdefault("came-from", {})[card["id"]] = came


def _noncard_objects(draw: st.DrawFn, games: list[dict[str, Any]], names: _Names,
                     objects: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Up to four tokens, copies, emblems, abilities and effects, added to `objects`, each
    in the game that made it (CR 728.1b); the effects' ids by game."""
    effects_by_game: dict[str, list[str]] = {}
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(tuple(_HOME_OF)))
        game = draw(st.sampled_from(games))
        oid = names.new(kind[:3])
        o: dict[str, Any] = {"id": oid, "kind": kind,
                             "controller": draw(st.sampled_from(game["players"])),
                             "at": f"{game['id']}/{_HOME_OF[kind]}"}
        if kind == "token":
            _token_status(draw, o)
        if kind == "effect":
            effects_by_game.setdefault(game["id"], []).append(oid)
        objects.append(o)
    return effects_by_game


def _token_status(draw: st.DrawFn, token: dict[str, Any]) -> None:
    """A token on the battlefield, sometimes phased out (CR 702.26), face down (708.2),
    with an ability that triggers as it leaves (603.10a) or with +1/+1 counters (122.1)."""
    if draw(st.integers(0, 3)) == 0:
        token["phased"] = "out"
    if draw(st.integers(0, 5)) == 0:
        token["face"] = "down"
    if draw(st.integers(0, 2)) == 0:
        token["triggers"] = ["leaves-zone"]
    if draw(st.integers(0, 2)) == 0:
        token["counters"] = {"+1/+1": draw(st.integers(1, 2))}


def _effects_acting(draw: st.DrawFn, games: list[dict[str, Any]], cards: list[dict[str, Any]],
                    objects: list[dict[str, Any]],
                    effects_by_game: dict[str, list[str]]) -> list[dict[str, str]]:
    """Effects already acting on things of their own game (CR 728.1b): some cards and
    objects are marked `affected-by` them; the players they act on are returned."""
    player_effects: list[dict[str, str]] = []
    for gid, effect_ids in effects_by_game.items():
        targets = [t for t in [*cards, *objects] if t["at"].split("/")[0] == gid
                   and t.get("kind") != "effect"]
        for eid in effect_ids:
            if targets and _coin(draw):
                target = draw(st.sampled_from(targets))
                target.setdefault("affected-by", []).append(eid)
            game_players = next(g["players"] for g in games if g["id"] == gid)
            if draw(st.integers(0, 2)) == 0:
                player_effects.append({"player": draw(st.sampled_from(game_players)),
                                       "effect": eid})
    return player_effects


def _player_counters(draw: st.DrawFn, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Counters on players, kept per game (CR 122.1, 728.4b)."""
    counters: list[dict[str, Any]] = []
    for g in games:
        for p in g["players"]:
            if draw(st.integers(0, 2)) == 0:
                counters.append({"game": g["id"], "player": p,
                                 "kind": draw(st.sampled_from(_COUNTER_KINDS)),
                                 "count": draw(st.integers(1, 9))})
    return counters


def _waiting_triggers(draw: st.DrawFn, games: list[dict[str, Any]], cards: list[dict[str, Any]],
                      objects: list[dict[str, Any]], names: _Names) -> None:
    """Abilities of a main game that triggered on a card brought into its subgame, waiting
    in the main game (CR 728.4a): sometimes one per main game with a watcher."""
    for upper, lower in zip(games, games[1:], strict=False):
        watchers = [t["id"] for t in [*cards, *objects] if t["at"] == f"{upper['id']}/battlefield"
                    and t.get("triggers")]
        brought = [c["id"] for c in cards if c["at"].split("/")[0] == lower["id"]]
        if watchers and brought and _coin(draw):
            card_id = draw(st.sampled_from(brought))
            owner = next(c["owner"] for c in cards if c["id"] == card_id)
            upper["trigger"] = [{"id": names.new("waiting"), "source": draw(st.sampled_from(watchers)),
                                 "card": card_id, "left": f"{upper['id']}/graveyard/{owner}"}]


def _game_records(draw: st.DrawFn, games: list[dict[str, Any]],
                  commanders: dict[str, list[str]]) -> None:
    """Other per-game records that a restart must not carry over (CR 726.1): commander tax
    and commander damage (903.8, 903.10a), the monarch (724)."""
    for g in games:
        if commanders and draw(st.integers(0, 2)) == 0:
            g["commander-tax"] = {draw(st.sampled_from(sorted(
                c for ids in commanders.values() for c in ids))): 2}
            g["commander-damage"] = {draw(st.sampled_from(g["players"])): draw(st.integers(1, 20))}
        if draw(st.integers(0, 4)) == 0:
            g["designations"] = {"monarch": draw(st.sampled_from(g["players"]))}


def _remembered_names(draw: st.DrawFn, games: list[dict[str, Any]], cards: list[dict[str, Any]],
                      taken: set[str]) -> None:
    """Names that are remembered but are no object now (dangling, as the rules allow): an
    effect that acted on a card and ceased, a mark of a card that began a game in a deck
    and left it (CR 728.5a); often with the interpreter's own names."""
    if cards and draw(st.integers(0, 3)) == 0:
        gone = draw(st.sampled_from(("effect1", "effect2", "gone-effect")))
        if gone not in taken:  # a name no object has now
            draw(st.sampled_from(cards)).setdefault("affected-by", []).append(gone)
    if len(games) > 1 and draw(st.integers(0, 3)) == 0:
        mark = draw(st.sampled_from(("token1", "card1", "gone-plane")))
        if mark not in taken:
            games[-1].setdefault("began-in-deck", {})[mark] = "planar"


def _read(data: dict[str, Any]) -> Situation:
    return parse_scenario(json.dumps(data), file="generated.json").situation


def situations(max_players: int = 4, max_cards: int = 12, max_depth: int = 3,
               variants: bool = True) -> st.SearchStrategy[Situation]:
    """Valid situations (`shahrazad.invariants.structure.problems` is empty), read from `scenario_tables`."""
    return scenario_tables(max_players, max_cards, max_depth, variants).map(_read)


# ---- events -------------------------------------------------------------------------------


def _event(data: dict[str, Any]) -> Event:
    event, problem = check_event(data)
    if event is None:  # pragma: no cover - a bug of this module
        raise AssertionError(f"strategies made a malformed event {data}: {problem}")
    return event


def _in_game(s: Situation, game_id: str) -> list[str]:
    return [o for z, ids in s.zones.items() if z.game == game_id for o in ids]


def _card_destinations(s: Situation, game: Game, card_id: str) -> list[str]:
    """Zones of the active game where a card may be moved (CR 400.3, 108.2a)."""
    card = s.objects[card_id]
    gid, owner = game.id, card.owner
    mine = owner in game.players
    if card.traditional:
        out = [f"{gid}/battlefield", f"{gid}/stack", f"{gid}/exile"]
        if mine:
            out += [f"{gid}/library/{owner}", f"{gid}/hand/{owner}", f"{gid}/graveyard/{owner}"]
        if card.commander:
            out.append(f"{gid}/command")
    else:
        out = [f"{gid}/command"]
        if card.card_type in ("attraction", "contraption"):
            out += [f"{gid}/battlefield", f"{gid}/exile"]
        if card.card_type in DECK_OF and mine:
            out.append(f"{gid}/deck/{owner}/{DECK_OF[card.card_type]}")
    return out


@dataclass(frozen=True)
class _ActiveGame:
    """The active game of a situation, and what an event there may name."""

    situation: Situation
    game: Game
    # The players an event may name: the game's, or the situation's if it has none.
    players: list[str]
    here: list[str]
    cards: list[str]
    permanents: list[str]
    # What a player can gain control of: a permanent, or a spell or ability on the stack.
    controllable: list[str]
    # What can be turned over: a card, token or copy where it may be face down (708.2),
    # not in a supplementary deck, which stays face down.
    turnable: list[str]
    effects: list[str]
    # A card its owner brings in from outside the game (or a main game): a traditional
    # card, or a dungeon, the one nontraditional card an effect brings in (701.49a, 309.4).
    bringable: list[str]


def _active_game(s: Situation) -> _ActiveGame:
    """The objects of the active game that events may name, by what an event does with
    them (CR 108.4 control, 702.26 phasing, 708.2 face down, 400.11b bringing in)."""
    active = s.active_game()
    gid = active.id
    here = _in_game(s, gid)
    ancestors = s.ancestors(gid)
    return _ActiveGame(
        situation=s, game=active, players=list(active.players) or list(s.players), here=here,
        cards=[o for o in here if s.objects[o].is_card],
        permanents=[o for o in here if s.where[o].kind == "battlefield"],
        controllable=[o for o in here if s.where[o].kind in ("battlefield", "stack")],
        turnable=[o for o in here if s.objects[o].kind in ("card", "token", "copy")
                  and s.where[o].kind in FACE_DOWN_ZONES and s.where[o].kind != "deck"],
        effects=[o for o in here if s.objects[o].kind == "effect"],
        bringable=[c.id for c in s.cards()
                   if c.owner in active.players and not c.phased_out
                   and (c.traditional or c.card_type == "dungeon")
                   and (s.where[c.id].is_outside or s.where[c.id].game in ancestors)])


def _event_kinds(active: _ActiveGame) -> list[str]:
    """The kinds of event to draw from, some twice to draw them more often: the
    rule-defined events always, an in-game action only where it has something to act on
    (leaving only where more than two players remain, CR 800.4a)."""
    kinds = ["start-subgame", "end-subgame", "end-subgame", "restart", "counter", "create"]
    if active.bringable:
        kinds += ["bring-in", "bring-in"]
    if active.cards:
        kinds += ["move", "move"]
    if active.turnable:
        kinds += ["turn"]
    if active.permanents:
        kinds += ["phase"]
    if active.controllable:
        kinds += ["control"]
    if active.effects:
        kinds += ["affect"]
    if len(active.game.players) > 2:
        kinds += ["leave"]
    return kinds


@st.composite
def events(draw: st.DrawFn, situation: Situation) -> Event:
    """One event for `situation`, legal or nearly so.

    Rule-defined events (start-subgame, end-subgame, restart, bring-in, affect) come about
    half the time, in-game actions (move, create, counter, phase, turn, leave, control)
    the rest.
    An end-subgame is also drawn when the outermost game is active, where it is illegal.
    """
    active = _active_game(situation)
    kind = draw(st.sampled_from(_event_kinds(active)))
    return _event({"do": kind, **_EVENT_FIELDS[kind](draw, active)})


def _start_subgame(draw: st.DrawFn, active: _ActiveGame) -> dict[str, Any]:
    """A player starts a subgame (CR 728.1): by a Shahrazad-like spell on the stack, or a
    card named without one."""
    s = active.situation
    d: dict[str, Any] = {"by": draw(st.sampled_from(active.players))}
    spells = [o for o in s.zones.get(ZoneRef(active.game.id, "stack"), []) if s.objects[o].is_card]
    if spells and _coin(draw):
        d["via"] = draw(st.sampled_from(spells))
    else:
        d["card"] = draw(st.sampled_from(_CREATORS))
    return d


def _end_subgame(draw: st.DrawFn, active: _ActiveGame) -> dict[str, Any]:
    """The active subgame ends (CR 728.5): with a winner, a draw, or no result given."""
    d: dict[str, Any] = {}
    how = draw(st.sampled_from(("winner", "winner", "draw", "none")))
    if how == "winner":
        d["winner"] = [draw(st.sampled_from(active.players))]
    elif how == "draw":
        d["draw"] = True
    return d


def _restart(draw: st.DrawFn, active: _ActiveGame) -> dict[str, Any]:
    """A player's effect restarts the game (CR 726): sometimes Karn Liberated's ability,
    whose source's exiled cards stay in exile (726.5), then perhaps put onto the
    battlefield."""
    s = active.situation
    d: dict[str, Any] = {"controller": draw(st.sampled_from(active.players))}
    sources = sorted({o for c in active.cards if (o := s.objects[c].exiled_with) is not None
                      and o in s.objects and s.where[o].game == active.game.id})
    if sources and _coin(draw):
        d["source"] = draw(st.sampled_from(sources))
        if draw(st.booleans()):
            d["then"] = "battlefield"
    return d


def _bring_in(draw: st.DrawFn, active: _ActiveGame) -> dict[str, Any]:
    """A card is brought into the active game from outside it or from a main game
    (CR 400.11b, 728.4): a traditional card to one of its zones, a dungeon only to the
    command zone (309.4); sometimes by its owner, named."""
    card_id = draw(st.sampled_from(active.bringable))
    card = active.situation.objects[card_id]
    d: dict[str, Any] = {"card": card_id}
    if card.traditional:
        d["to"] = draw(st.sampled_from(("hand", "hand", "battlefield", "graveyard",
                                        "library", "exile")))
    elif draw(st.booleans()):
        d["to"] = "command"
    if draw(st.booleans()):
        d["by"] = card.owner
    return d


def _move(draw: st.DrawFn, active: _ActiveGame) -> dict[str, Any]:
    """A card moves to a zone of the active game where it may be (CR 400.3, 108.2a), or,
    sometimes, out of the game; into exile sometimes with another object (Karn
    Liberated's +4 or -3, 607.2a)."""
    s = active.situation
    card_id = draw(st.sampled_from(active.cards))
    d: dict[str, Any] = {"object": card_id}
    options = _card_destinations(s, active.game, card_id)
    if draw(st.integers(0, 9)) == 0:
        options = [f"outside/{s.objects[card_id].owner}"]
    d["to"] = draw(st.sampled_from(options))
    if draw(st.integers(0, 2)) == 0:
        d["position"] = "bottom"
    others = [o for o in active.here if o != card_id]
    if d["to"].endswith("/exile") and others and _coin(draw):
        d["exiled-with"] = draw(st.sampled_from(others))
    return d


def _create(draw: st.DrawFn, active: _ActiveGame) -> dict[str, Any]:
    """A player's effect makes a token, emblem, effect, ability or copy (CR 111.1, 114.1,
    707.10), in the active game."""
    what = draw(st.sampled_from(("token", "token", "emblem", "effect", "ability", "copy")))
    d: dict[str, Any] = {"kind": what, "controller": draw(st.sampled_from(active.players))}
    if what == "token" and _coin(draw):
        d["triggers"] = ["leaves-zone"]
    if what == "copy":
        spells = list(active.situation.zones.get(ZoneRef(active.game.id, "stack"), ()))
        if spells and _coin(draw):
            d["copy-of"] = draw(st.sampled_from(spells))
    return d


def _counter(draw: st.DrawFn, active: _ActiveGame) -> dict[str, Any]:
    """Counters put on or removed from a permanent or a player (CR 122.1, 122.6)."""
    d: dict[str, Any] = {}
    permanents = active.permanents
    targets_obj = permanents if permanents and draw(st.integers(0, 2)) == 0 else []
    if targets_obj:
        d["object"] = draw(st.sampled_from(targets_obj))
        d["kind"] = "+1/+1"
    else:
        d["player"] = draw(st.sampled_from(active.players))
        d["kind"] = draw(st.sampled_from(_COUNTER_KINDS))
    d["add"] = draw(st.integers(-2, 3))
    return d


def _phase(draw: st.DrawFn, active: _ActiveGame) -> dict[str, Any]:
    """A permanent phases out or in (CR 702.26)."""
    return {"object": draw(st.sampled_from(active.permanents)), "out": draw(st.booleans())}


def _turn(draw: st.DrawFn, active: _ActiveGame) -> dict[str, Any]:
    """A card, token or copy is turned face up or face down (CR 708.2, 708.7)."""
    return {"object": draw(st.sampled_from(active.turnable)),
            "face": draw(st.sampled_from(("up", "down")))}


def _leave(draw: st.DrawFn, active: _ActiveGame) -> dict[str, Any]:
    """A player leaves the game (CR 800.4a)."""
    return {"player": draw(st.sampled_from(active.players))}


def _control(draw: st.DrawFn, active: _ActiveGame) -> dict[str, Any]:
    """A player gains control of a permanent, spell or ability (CR 108.4)."""
    return {"object": draw(st.sampled_from(active.controllable)),
            "player": draw(st.sampled_from(active.players))}


def _affect(draw: st.DrawFn, active: _ActiveGame) -> dict[str, Any]:
    """An effect of the active game comes to act on an object or a player of it
    (CR 728.1b)."""
    d: dict[str, Any] = {"effect": draw(st.sampled_from(active.effects))}
    others = [o for o in active.here if o not in active.effects]
    if others and _coin(draw):
        d["object"] = draw(st.sampled_from(others))
    else:
        d["player"] = draw(st.sampled_from(active.players))
    return d


# The fields of an event of each kind, drawn for the active game.
_EVENT_FIELDS: Final[dict[str, Callable[[st.DrawFn, _ActiveGame], dict[str, Any]]]] = {
    "start-subgame": _start_subgame, "end-subgame": _end_subgame, "restart": _restart,
    "bring-in": _bring_in, "move": _move, "create": _create, "counter": _counter,
    "phase": _phase, "turn": _turn, "leave": _leave, "control": _control, "affect": _affect,
}


@st.composite
def event_sequences(draw: st.DrawFn, situation: Situation, min_size: int = 1,
                    max_size: int = 6) -> list[Event]:
    """A run of events, each drawn from `events` for the situation the run has reached.

    The official interpreter (seed 0) runs each event as it is drawn; an event it refuses
    with `IllegalEvent` stays in the run (a replay must refuse it too) and changes nothing.
    """
    interpreter = Interpreter(chooser=SeededChooser(0))
    state = situation
    out: list[Event] = []
    for _ in range(draw(st.integers(min_size, max_size))):
        event = draw(events(state))
        out.append(event)
        try:
            state = interpreter.step(state, event).situation
        except IllegalEvent:
            pass
    return out


@st.composite
def scenarios(draw: st.DrawFn, max_players: int = 4, max_cards: int = 12, max_depth: int = 3,
              variants: bool = True, max_events: int = 6) -> Scenario:
    """A scenario: a valid situation, a run of events for it and a seed."""
    data = draw(scenario_tables(max_players, max_cards, max_depth, variants))
    situation = _read(data)
    run = draw(event_sequences(situation, 0, max_events))
    seed = draw(st.integers(0, 2**16))
    return Scenario(situation, run, title="generated", seed=seed, file="generated.toml")
