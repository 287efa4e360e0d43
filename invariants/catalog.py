"""The invariant catalog: each promise of the rules, stated once as a term.

Two kinds of invariant:

* **structure** invariants speak of one situation. They are assumed of the situation
  before every event and proved of the situation after it (induction: if they held
  before, every event keeps them), and checked on every concrete situation.
* **event** invariants speak of one event's transition (`pre`, `post`, the games the event
  bound): what starting a subgame, ending one, restarting or bringing a card in promises.

`CATALOG` lists them all with a stable id, a one-line statement, the clauses that
guarantee them and the events they are about. `proofs` proves each for every number of
cards, players and games; `invariants.concrete` checks each on explicit situations.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from shahrazad.model.objects import FACE_DOWN_ZONES, NONCARD_ZONES, NONTRADITIONAL_ZONES

from .lang import (
    TRUE,
    State,
    Term,
    add,
    and_,
    brought,
    came,
    controller_of_event,
    creator,
    ctype,
    deck,
    eq,
    exempt,
    exists,
    forall,
    game,
    has_role,
    iff,
    implies,
    in_,
    kind,
    le,
    lt,
    ne,
    nobody,
    nogame,
    noobj,
    not_,
    num,
    obj,
    player,
    post,
    pre,
    result,
    role,
    stage,
    then_battlefield,
    zone,
)

EVENTS = ("start-subgame", "end-subgame", "restart", "bring-in", "affect", "move", "create",
          "counter", "phase", "turn", "leave", "control")


@dataclass(frozen=True)
class Invariant:
    """One promise: `term` must hold; `events` are the events it is about."""

    id: str
    statement: str
    clauses: tuple[str, ...]
    events: tuple[str, ...]
    term: Term
    kind: str = "event"
    rules: tuple[str, ...] = ()  # the CR rules, beyond the clauses, that state it (structure)

    @cached_property
    def bounded(self) -> bool:
        """It counts cards (libraries of fewer than seven): provable only up to a bound."""
        return any(t.op == "attr" and t.args[1] in ("library_size", "doomed")
                   for t in self.term.walk())

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by its id where it is the catalog's own, whole otherwise: a worker
        process has the catalog, and each obligation a command hands it, or gets back with
        its answer, need not carry the invariant's term (some hundreds of nodes)."""
        if _BY_ID.get(self.id) is self:
            return by_id, (self.id,)
        return Invariant, (self.id, self.statement, self.clauses, self.events, self.term,
                           self.kind, self.rules)


o, o2, o3 = obj("o"), obj("o2"), obj("o3")
p, p2 = player("p"), player("p2")
g, g2 = game("g"), game("g2")
MAIN, SUB, OLD, NEW, SOURCE = role("main"), role("subgame"), role("restarted"), role("new"), \
    role("source")
PERMANENT_KINDS = (kind("card"), kind("token"), kind("copy"))
PLAYER_ZONES = (zone("library"), zone("hand"), zone("graveyard"), zone("deck"))


# ---- structure: one situation, written once and read for `pre` and for `post` -----------

# A structure invariant as stated: its id, statement, clauses and term.
_Stated = tuple[str, str, tuple[str, ...], Term]

# The catalog's order of the structure invariants, which every output keeps.
_STRUCTURE_ORDER: tuple[str, ...] = (
    "structure.one-active-game", "structure.status", "structure.main-games-live",
    "structure.one-outermost-game", "structure.chain", "structure.active-is-deepest",
    "structure.objects-in-live-games", "structure.only-cards-outside",
    "structure.objects-stay-in-their-game", "structure.noncard-zones",
    "structure.games-have-players", "structure.controllers-play", "structure.effects-in-own-game",
    "structure.player-zones", "structure.owners-play", "structure.subgame-players",
    "structure.no-nontraditional-in-library", "structure.owners-zones", "structure.card-types",
    "structure.decks", "structure.counters-in-live-games", "structure.real-owners",
    "structure.sentinels", "structure.waiting-triggers", "structure.trigger-controllers",
    "structure.nontraditional-places", "structure.phased-out-permanents",
    "structure.face-down-places", "structure.suspended-games-emptied",
    "structure.subgame-decks-marked", "structure.no-conspiracy-in-subgames",
    "structure.counters-of-players", "structure.emblems", "structure.commanders",
    "structure.creators", "structure.games-begun", "structure.came-in-from-a-main-game",
    "structure.characteristics", "structure.exiled-with", "structure.one-place",
    "structure.card-controllers",
)


def _structure(s: State) -> list[_Stated]:
    """The structure invariants of the situation `s`, topic by topic, in catalog order."""
    stated = [*_games(s), *_players(s), *_zones(s), *_ownership_and_control(s), *_card_types(s),
              *_phasing_and_face_down(s), *_subgame_contents(s), *_waiting_triggers(s),
              *_commanders(s), *_counters(s)]
    by_id = {entry[0]: entry for entry in stated}
    if len(by_id) != len(stated) or set(by_id) != set(_STRUCTURE_ORDER):
        raise AssertionError("the structure topics and _STRUCTURE_ORDER list different invariants")
    return [by_id[i] for i in _STRUCTURE_ORDER]


def _games(s: State) -> list[_Stated]:
    """Games and their nesting (CR 728.1a, 728.6, 726.1, 103.8).

    One game is active and the others are suspended, each the main game of the one below it,
    one live game per level of nesting; a subgame records the spell or ability that created
    it; every live game has begun; and the model's sentinels are no game, player or object.
    """
    return [
        ("structure.one-active-game", "Exactly one game is active.",
         ("subgame.start.suspend-main", "subgame.end.resume-main"),
         forall((g, g2), implies(s.active(g) & s.active(g2), eq(g, g2)))
         & exists(g, s.active(g))),
        ("structure.status", "A game is live exactly when it is active or suspended, never both, "
         "and a live game's zones exist.",
         ("subgame.start.suspend-main", "subgame.end.result", "restart.end-game"),
         forall(g, iff(s.live(g), s.active(g) | s.suspended(g))
                & not_(s.active(g) & s.suspended(g)) & implies(s.live(g), s.present(g)))),
        ("structure.main-games-live", "The main game of a live subgame is live, one level up.",
         ("subgame.start.new-game", "restart.subgame"),
         forall(g, implies(s.live(g) & s.has_parent(g), s.live(s.parent(g))
                           & eq(s.depth(g), _plus1(s.depth(s.parent(g))))))),
        ("structure.one-outermost-game", "Exactly one live game has no main game, at depth 0.",
         ("subgame.start.new-game", "restart.new-game"),
         forall((g, g2), implies(s.live(g) & s.live(g2) & ~s.has_parent(g) & ~s.has_parent(g2),
                                 eq(g, g2)))
         & forall(g, implies(s.live(g) & ~s.has_parent(g), eq(s.depth(g), num(0))))),
        ("structure.chain", "A game has at most one live subgame at a time: one live game "
         "per level of nesting.", ("subgame.start.new-game", "subgame.nesting"),
         forall((g, g2), implies(s.live(g) & s.live(g2) & s.has_parent(g) & s.has_parent(g2)
                                 & eq(s.parent(g), s.parent(g2)), eq(g, g2)))
         & forall((g, g2), implies(s.live(g) & s.live(g2) & eq(s.depth(g), s.depth(g2)),
                                   eq(g, g2)))),
        ("structure.active-is-deepest", "The active game has no live subgame; every suspended "
         "game waits for one.",
         ("subgame.start.suspend-main", "subgame.end.resume-main"),
         forall(g, implies(s.live(g) & s.has_parent(g), ~s.active(s.parent(g))))
         & forall((g, g2), implies(s.live(g) & s.active(g2),
                                   le(s.depth(g), s.depth(g2))
                                   & implies(s.suspended(g), lt(s.depth(g), s.depth(g2)))))),
        ("structure.sentinels", "The sentinels are no game, no player and no object.",
         ("subgame.start.new-game",),
         forall(g, not_(s.plays(g, nobody()))) & ~s.present(nogame()) & ~s.live(nogame())
         & ~s.exists(noobj())),
        ("structure.creators", "A game records a creating object exactly when it has one.",
         ("subgame.start.new-game", "restart.subgame"),
         forall(g, iff(s.has_creator(g), ne(s.created_by(g), noobj())))
         & forall((g, g2), implies(s.has_creator(g), ~s.waiting(g2, s.created_by(g))))),
        ("structure.games-begun", "Every live game has begun: its start (rule 103) went as "
         "far as the first turn.",
         ("subgame.start.first-turn", "restart.first-turn"),
         forall(g, implies(s.live(g), eq(s.stage(g), stage("first-turn"))))),
    ]


def _players(s: State) -> list[_Stated]:
    """The players of games (CR 100.1, 104.2a, 728.1a, 728.2, 728.4).

    A game is for two or more players, and a subgame's players are players of its main
    game.
    """
    return [
        ("structure.games-have-players", "Every live game has at least two players: a game "
         "is for two or more, and one whose last opponent leaves is over.",
         ("subgame.start.new-game", "restart.new-game"),
         forall(g, implies(s.live(g), exists((p, p2), ne(p, p2) & s.plays(g, p)
                                             & s.plays(g, p2))))),
        ("structure.subgame-players", "Every player of a subgame is a player of its main game.",
         ("subgame.start.new-game",),
         forall((g, p), implies(s.live(g) & s.has_parent(g) & s.plays(g, p),
                                s.plays(s.parent(g), p)))),
    ]


def _zones(s: State) -> list[_Stated]:
    """Zones, and the games objects are in (CR 400.1, 400.7, 400.11, 111.7, 114.1, 728.1b).

    Every object is in a zone of a live game or, a card only, outside the game; objects
    other than cards stay in the game that made them, each in its kind of zone, and effects
    act only within their own game; player zones belong to a player of their game; a card
    is in one place, and is exiled with an object only while it stays in exile (607.2a).
    """
    return [
        ("structure.objects-in-live-games", "Every object in a zone is in a zone of a live game "
         "(no zone outlives its game).",
         ("subgame.end.cease", "restart.nothing-else"),
         forall(o, implies(s.inside(o), s.live(s.game(o))))),
        ("structure.only-cards-outside", "Only cards are outside the game.",
         ("subgame.end.cease", "restart.nothing-else"),
         forall(o, implies(s.exists(o) & eq(s.zone(o), zone("outside")),
                           eq(s.kind(o), kind("card")) & eq(s.game(o), nogame())))),
        ("structure.objects-stay-in-their-game", "Tokens, copies, emblems, abilities and effects "
         "exist only in the game that made them.",
         ("subgame.end.cease", "restart.nothing-else"),
         forall(o, implies(s.exists(o) & ne(s.kind(o), kind("card")),
                           s.inside(o) & eq(s.origin(o), s.game(o))))),
        ("structure.noncard-zones", "A token is on the battlefield, a copy on the stack or "
         "battlefield, an emblem in the command zone, an ability on the stack, an effect with "
         "its game.", ("subgame.end.cease", "restart.nothing-else"),
         forall(o, implies(s.exists(o), and_(*(
             implies(eq(s.kind(o), kind(k)), in_(s.zone(o), tuple(zone(z) for z in zs)))
             for k, zs in NONCARD_ZONES.items()))))),
        ("structure.effects-in-own-game", "An effect acts only on objects and players of its "
         "own game.", ("subgame.separate-effects",),
         forall((o, o2), implies(s.exists(o) & s.exists(o2) & s.affects(o, o2),
                                 eq(s.kind(o), kind("effect")) & s.inside(o2)
                                 & eq(s.game(o2), s.game(o))))
         & forall((o, p), implies(s.exists(o) & s.affects_player(o, p),
                                  eq(s.kind(o), kind("effect")) & s.plays(s.game(o), p)))),
        ("structure.player-zones", "A library, hand, graveyard or supplementary deck belongs to a "
         "player of its game; shared zones to no player.",
         ("subgame.start.new-game", "restart.new-game"),
         forall(o, implies(s.inside(o) & in_(s.zone(o), PLAYER_ZONES),
                           s.plays(s.game(o), s.zone_player(o))))
         & forall(o, implies(s.exists(o) & not_(in_(s.zone(o), PLAYER_ZONES)),
                             eq(s.zone_player(o), nobody())))
         & forall(o, implies(s.exists(o), iff(eq(s.zone(o), zone("deck")),
                                              ne(s.zone_deck(o), deck("none")))))),
        ("structure.exiled-with", "A card is recorded as exiled with another object only "
         "while it stays in exile: a card that moves is a new object.", (),
         forall(o, implies(s.exists(o) & ne(s.exiled_with(o), noobj()),
                           s.is_card(o) & s.inside(o) & eq(s.zone(o), zone("exile"))
                           & ne(s.exiled_with(o), o)))),
        ("structure.one-place", "Every card is in exactly one place: no object is a second "
         "place of another card (a new object is a new object, not a card again).", (),
         forall(o, implies(s.exists(o), eq(s.same_card(o), noobj())))),
    ]


def _ownership_and_control(s: State) -> list[_Stated]:
    """Owners and controllers (CR 108.3, 108.4, 110.2, 400.3, 114.2).

    Every object has a real owner and controller, players of its game; a card in a player
    zone is in its owner's; an emblem, and a card that is neither a permanent nor a spell,
    is its owner's to control.
    """
    return [
        ("structure.controllers-play", "Every object in a game is controlled by a player of "
         "that game.", ("subgame.end.return-cards", "restart.cards-involved"),
         forall(o, implies(s.inside(o), s.plays(s.game(o), s.controller(o))))),
        ("structure.owners-play", "Every object in a game is owned by a player of that game.",
         ("subgame.end.return-cards", "restart.cards-involved"),
         forall(o, implies(s.inside(o), s.plays(s.game(o), s.owner(o))))),
        ("structure.owners-zones", "A card in a library, hand, graveyard or supplementary deck "
         "is in its owner's (400.3).", ("subgame.end.return-cards", "restart.cards-involved"),
         forall(o, implies(s.inside(o) & eq(s.kind(o), kind("card")) & in_(s.zone(o), PLAYER_ZONES),
                           eq(s.zone_player(o), s.owner(o))))),
        ("structure.real-owners", "Every object has a real owner and controller.",
         ("restart.cards-involved",),
         forall(o, implies(s.exists(o), ne(s.owner(o), nobody()) & ne(s.controller(o), nobody())))),
        ("structure.emblems", "An emblem is controlled by its owner.",
         ("restart.nothing-else",),
         forall(o, implies(s.exists(o) & eq(s.kind(o), kind("emblem")),
                           eq(s.controller(o), s.owner(o))))),
        ("structure.card-controllers", "A card that is neither a permanent nor a spell (on "
         "neither the battlefield nor the stack) is its owner's to control.",
         ("restart.cards-involved", "subgame.end.return-cards"),
         forall(o, implies(s.is_card(o) & ~(s.inside(o) & in_(s.zone(o), (
             zone("battlefield"), zone("stack")))), eq(s.controller(o), s.owner(o))))),
    ]


def _card_types(s: State) -> list[_Stated]:
    """Card types and nontraditional cards (CR 108.2a, 109.1, 100.2d, 205.2a, 110.4b, 717.6).

    Only cards have card types; a nontraditional card is never in a library, hand,
    graveyard or on the stack, only in its own supplementary deck and the places its type
    allows (309.2c, 311.2-315.3); which cards are permanent cards and Auras.
    """
    return [
        ("structure.no-nontraditional-in-library", "No nontraditional card is ever in a library, "
         "a hand, a graveyard or on the stack.",
         ("subgame.end.supplementary-cards", "restart.cards-involved"),
         forall(o, implies(s.inside(o) & in_(s.zone(o), (zone("library"), zone("hand"),
                                                        zone("graveyard"), zone("stack")))
                           & eq(s.kind(o), kind("card")),
                           eq(s.ctype(o), ctype("traditional"))))),
        ("structure.card-types", "Cards, and only cards, have a card type.",
         ("restart.cards-involved",),
         forall(o, implies(s.exists(o), iff(eq(s.kind(o), kind("card")),
                                            ne(s.ctype(o), ctype("none")))))),
        ("structure.decks", "A card's supplementary deck is the one of its type (no object "
         "but a card belongs to one), and a supplementary deck holds only its own cards; "
         "only traditional cards are commanders.",
         ("subgame.start.supplementary-decks", "restart.cards-involved"), _decks(s)),
        ("structure.nontraditional-places", "A plane, phenomenon, scheme, vanguard, conspiracy "
         "or dungeon card in a game is in the command zone, in its supplementary deck or out of "
         "it; an Attraction or a Contraption may also be on the battlefield or in exile.",
         ("subgame.end.supplementary-cards", "restart.cards-involved"),
         forall(o, implies(s.inside(o) & s.is_card(o), and_(*(
             implies(eq(s.ctype(o), ctype(t)), in_(s.zone(o), tuple(zone(z) for z in zs)))
             for t, zs in NONTRADITIONAL_ZONES.items()))))),
        ("structure.characteristics", "Only cards have card types: a nontraditional card is "
         "a permanent card only if it is an Attraction or a Contraption (an artifact), an Aura "
         "is a traditional permanent card, a commander is a permanent card and no Aura, and only a "
         "permanent card is on the battlefield face up.",
         ("restart.finish-effect",),
         forall(o, implies(s.exists(o) & ~s.is_card(o), ~s.permanent_card(o) & ~s.aura(o)))
         & forall(o, implies(s.is_card(o) & ne(s.ctype(o), ctype("traditional")),
                             iff(s.permanent_card(o), in_(s.ctype(o), (
                                 ctype("attraction"), ctype("contraption"))))))
         & forall(o, implies(s.is_card(o) & s.aura(o),
                             s.permanent_card(o) & eq(s.ctype(o), ctype("traditional"))))
         & forall(o, implies(s.is_card(o) & s.inside(o) & eq(s.zone(o), zone("battlefield"))
                             & s.face_up(o), s.permanent_card(o)))
         & forall(o, implies(s.is_card(o) & s.commander(o),
                             s.permanent_card(o) & ~s.aura(o)))),
    ]


def _phasing_and_face_down(s: State) -> list[_Stated]:
    """Phased-out and face-down objects (CR 702.26b, 708.2, 406.3, 701.31b).

    Only a permanent is phased out; only a card, token or copy where a face-down object can
    be is face down, and every card in a supplementary deck is.
    """
    return [
        ("structure.phased-out-permanents", "Only a permanent is phased out: a phased-out "
         "object is a card, token or copy on the battlefield.",
         ("subgame.end.return-cards", "restart.nothing-else"),
         forall(o, implies(s.exists(o) & s.phased_out(o),
                           s.inside(o) & eq(s.zone(o), zone("battlefield"))
                           & in_(s.kind(o), PERMANENT_KINDS)))),
        ("structure.face-down-places", "Only a card, token or copy on the battlefield, on the "
         "stack, in exile or in the command zone is face down, and every card in a "
         "supplementary deck is.",
         ("subgame.end.return-cards", "subgame.end.supplementary-cards", "restart.cards-involved"),
         forall(o, implies(s.exists(o) & ~s.face_up(o),
                           s.inside(o) & in_(s.zone(o), tuple(zone(z) for z in FACE_DOWN_ZONES))
                           & in_(s.kind(o), PERMANENT_KINDS)))
         & forall(o, implies(s.inside(o) & eq(s.zone(o), zone("deck")), ~s.face_up(o)))),
    ]


def _subgame_contents(s: State) -> list[_Stated]:
    """What a subgame took from its main game (CR 728.2, 728.2a-c, 728.4, 728.5a).

    A suspended game's libraries, supplementary decks, commanders and vanguards went to its
    subgame as it started, no conspiracy did; a supplementary card in a subgame is marked as
    having begun it in its deck; a card came in from a main game only into a subgame.
    """
    return [
        ("structure.suspended-games-emptied", "A suspended game has no card in a library or a "
         "supplementary deck, and no commander or vanguard in its command zone: they went to "
         "its subgame as it started.",
         ("subgame.start.libraries", "subgame.start.supplementary-decks",
          "subgame.start.vanguard", "subgame.start.commander"),
         forall(o, implies(s.inside(o) & s.suspended(s.game(o)),
                           not_(in_(s.zone(o), (zone("library"), zone("deck"))))
                           & not_(eq(s.zone(o), zone("command"))
                                  & (s.commander(o) | eq(s.ctype(o), ctype("vanguard"))))))),
        ("structure.subgame-decks-marked", "A card of a supplementary deck is in a subgame "
         "only if it began that subgame, and each subgame above it, in its deck (so 728.5a "
         "sends it back at each end).",
         ("subgame.start.supplementary-decks", "restart.cards-involved"),
         forall((o, g), implies(s.inside(o) & ne(s.own_deck(o), deck("none")) & s.live(g)
                                & s.has_parent(g) & le(s.depth(g), s.depth(s.game(o))),
                                eq(s.began_in_deck(g, o), s.own_deck(o))))),
        ("structure.no-conspiracy-in-subgames", "No conspiracy card is in a subgame: a subgame "
         "takes only the libraries, supplementary decks, vanguards and commanders.",
         ("subgame.start.new-game",),
         forall(o, implies(s.inside(o) & s.has_parent(s.game(o)),
                           ne(s.ctype(o), ctype("conspiracy"))))),
        ("structure.came-in-from-a-main-game", "A card came into a game from a main game only "
         "if the game is a subgame.",
         ("subgame.outside",),
         forall((g, o), implies(s.live(g) & eq(s.came_from(g, o), came("main-game")),
                                s.has_parent(g)))),
    ]


def _waiting_triggers(s: State) -> list[_Stated]:
    """Abilities of a main game waiting for its subgame to end (CR 728.4a, 603.10a, 113.8).

    A waiting trigger is not yet an object, waits in one suspended game, and will be
    controlled by a player of that game.
    """
    return [
        ("structure.waiting-triggers", "A waiting trigger is not yet an object and waits in one "
         "suspended game only.",
         ("subgame.bring-in.leave-triggers", "subgame.end.release-triggers"),
         forall((g, o), implies(s.waiting(g, o), ~s.exists(o) & s.suspended(g)
                                & ne(o, noobj())))
         & forall((g, o, o2), implies(s.waiting(g, o), ~s.affects(o2, o) & ~s.affects(o, o2)))
         & forall((g, o, p), implies(s.waiting(g, o), ~s.affects_player(o, p)))
         & forall((g, g2, o), implies(s.waiting(g, o) & s.waiting(g2, o), eq(g, g2)))
         & forall((g, g2, o), implies(s.waiting(g, o), eq(s.began_in_deck(g2, o), deck("none"))
                                      & ~s.resolved(g2, o)))),
        ("structure.trigger-controllers", "A waiting trigger will be controlled by a player of "
         "the game it waits in, the controller of its source when it triggered.",
         ("subgame.bring-in.leave-triggers", "subgame.end.release-triggers"),
         forall((g, o), implies(s.waiting(g, o), s.plays(g, s.trigger_controller(g, o))))),
    ]


def _commanders(s: State) -> list[_Stated]:
    """Commanders (CR 903.3, 702.124g).

    A commander is a card, and no player owns more than two (one, or two with partner).
    """
    return [
        ("structure.commanders", "A commander is a card, and no player owns more than two.",
         ("restart.cards-involved", "subgame.end.commander"),
         forall((o, o2, o3), implies(s.exists(o) & s.exists(o2) & s.exists(o3) & s.commander(o)
                                     & s.commander(o2) & s.commander(o3)
                                     & eq(s.owner(o2), s.owner(o)) & eq(s.owner(o3), s.owner(o)),
                                     eq(o, o2) | eq(o, o3) | eq(o2, o3)))
         & forall(o, implies(s.exists(o) & s.commander(o), s.is_card(o)))),
    ]


def _counters(s: State) -> list[_Stated]:
    """Counters on players (CR 122.1, 728.4b, 800.4a).

    Counters on players are kept per game, never below zero, only in live games and only
    for players of the game.
    """
    return [
        ("structure.counters-in-live-games", "Counters on players exist only in live games, "
         "never below zero.",
         ("subgame.end.player-counters", "restart.nothing-else"),
         forall((g, p), le(num(0), s.counters(g, p)) & implies(~s.live(g),
                                                               eq(s.counters(g, p), num(0))))),
        ("structure.counters-of-players", "A player has counters in a game only while they play "
         "in it.", ("subgame.end.player-counters", "restart.nothing-else"),
         forall((g, p), implies(lt(num(0), s.counters(g, p)), s.plays(g, p)))),
    ]


DECK_TYPES = (("planar", ("plane", "phenomenon")), ("scheme", ("scheme",)),
              ("attraction", ("attraction",)), ("contraption", ("contraption",)))


def _decks(s: State) -> Term:
    own = and_(*(iff(in_(s.ctype(o), tuple(ctype(t) for t in types)), eq(s.own_deck(o), deck(d)))
                 for d, types in DECK_TYPES))
    in_own = implies(s.inside(o) & eq(s.zone(o), zone("deck")), eq(s.zone_deck(o), s.own_deck(o)))
    commander = implies(s.commander(o), eq(s.ctype(o), ctype("traditional")))
    began = forall(g, implies(ne(s.began_in_deck(g, o), deck("none")) & s.exists(o),
                              s.is_card(o) & eq(s.began_in_deck(g, o), s.own_deck(o))))
    return forall(o, implies(s.exists(o), own) & implies(s.is_card(o), in_own & commander)
                  & began)


def _plus1(t: Term) -> Term:
    return add(t, num(1))


def structure_terms(s: State) -> list[Term]:
    return [t for _, _, _, t in _structure(s)]


# The rules of the CR that each structure invariant states, beside the rulebook's clauses
# that keep it: a structural fault cites the rule that makes the situation impossible.
STRUCTURE_RULES: dict[str, tuple[str, ...]] = {
    "structure.one-active-game": ("728.1a",),
    "structure.status": ("728.1a", "726.1"),
    "structure.main-games-live": ("728.1a", "728.6"),
    "structure.one-outermost-game": ("728.1a", "728.6"),
    "structure.chain": ("728.1a", "728.6"),
    "structure.active-is-deepest": ("728.1a",),
    "structure.objects-in-live-games": ("400.1", "728.5", "726.1"),
    "structure.only-cards-outside": ("400.11", "111.7", "704.5d"),
    "structure.objects-stay-in-their-game": ("728.1b", "728.5", "726.1"),
    "structure.noncard-zones": ("111.7", "114.1", "704.5d", "704.5e"),
    "structure.games-have-players": ("100.1", "104.2a", "728.2"),
    "structure.controllers-play": ("108.4", "110.2"),
    "structure.effects-in-own-game": ("728.1b",),
    "structure.player-zones": ("400.1",),
    "structure.owners-play": ("108.3", "728.4"),
    "structure.subgame-players": ("728.1a", "728.4"),
    "structure.no-nontraditional-in-library": ("108.2a",),
    "structure.owners-zones": ("400.3",),
    "structure.card-types": ("108.2a", "109.1"),
    "structure.decks": ("100.2d", "108.2a", "903.3"),
    "structure.counters-in-live-games": ("122.1", "728.4b"),
    "structure.real-owners": ("108.3", "108.4"),
    "structure.waiting-triggers": ("728.4a", "603.10a"),
    "structure.trigger-controllers": ("113.8", "728.4a"),
    "structure.card-controllers": ("108.4", "108.4a", "110.2"),
    "structure.creators": ("728.1a",),
    "structure.nontraditional-places": ("309.2c", "311.2", "312.2", "313.2", "314.2", "315.3",
                                        "400.4b", "717.6"),
    "structure.phased-out-permanents": ("702.26b", "702.26d", "110.5"),
    "structure.face-down-places": ("708.2", "406.3", "110.5", "701.31b", "728.5a"),
    "structure.suspended-games-emptied": ("728.2", "728.2a", "728.2b", "728.2c", "728.4"),
    "structure.counters-of-players": ("122.1", "800.4a"),
    "structure.subgame-decks-marked": ("728.2a", "728.5a"),
    "structure.no-conspiracy-in-subgames": ("728.2", "728.4"),
    "structure.emblems": ("114.2",),
    "structure.commanders": ("903.3", "702.124g"),
    "structure.games-begun": ("103.8", "728.2", "726.1"),
    "structure.characteristics": ("205.2a", "110.4b", "303.4", "304.4", "307.4", "717.1",
                                  "903.3", "701.40b"),
    "structure.exiled-with": ("607.2a", "400.7"),
    "structure.one-place": ("108.2", "400.1", "400.7", "707.10a"),
    "structure.came-in-from-a-main-game": ("728.4", "728.4a"),
}

STRUCTURE: list[Invariant] = [
    Invariant(i, st, cl, EVENTS, t, "structure", STRUCTURE_RULES.get(i, ()))
    for i, st, cl, t in _structure(post)
]


# ---- events -------------------------------------------------------------------------------

def _moves_unchanged(o: Term) -> Term:
    return (post.exists(o) & eq(post.zone(o), pre.zone(o)) & eq(post.game(o), pre.game(o))
            & eq(post.zone_player(o), pre.zone_player(o)))


def _in_deck_or_command_special(o: Term) -> Term:
    """What 728.2a-c move out of the main command zone."""
    return pre.in_command(o, MAIN) & (
        eq(pre.zone(o), zone("deck")) | eq(pre.ctype(o), ctype("vanguard"))
        | (eq(pre.kind(o), kind("card")) & pre.commander(o)))


def _left_out_at_end(o: Term) -> Term:
    """Cards of the ending subgame that 728.5 and 728.5a-c give no destination: a
    nontraditional card that did not begin the subgame in a supplementary deck and is not in
    one (other than a vanguard in the command zone), and a traditional card in the subgame
    command zone that is not a commander."""
    in_sub = pre.in_game(o, SUB)
    deck_card = eq(pre.zone(o), zone("deck")) | ne(pre.began_in_deck(SUB, o), deck("none"))
    vanguard = pre.in_command(o, SUB) & eq(pre.ctype(o), ctype("vanguard"))
    nontraditional = ne(pre.ctype(o), ctype("traditional")) & ~deck_card & ~vanguard
    stuck = pre.in_command(o, SUB) & eq(pre.ctype(o), ctype("traditional")) & ~pre.commander(o)
    return in_sub & (nontraditional | stuck)


START = "start-subgame"
END = "end-subgame"
RESTART = "restart"
BRING = "bring-in"

_EVENT: list[tuple[str, str, tuple[str, ...], str, Callable[[], Term]]] = [
    # -- starting a subgame
    ("start.tree", "The subgame hangs under the game where it was created, which is suspended "
     "while the subgame is active.", ("subgame.start.new-game", "subgame.start.suspend-main"),
     START, lambda: post.active(SUB) & post.suspended(MAIN) & post.has_parent(SUB)
     & eq(post.parent(SUB), MAIN)),
    ("start.players", "The subgame's players are exactly the main game's players.",
     ("subgame.start.new-game",), START,
     lambda: forall(p, iff(post.plays(SUB, p), pre.plays(MAIN, p)))),
    ("start.library-moves", "Each player's whole main-game library becomes their subgame "
     "library.", ("subgame.start.libraries",), START,
     lambda: forall(o, implies(pre.in_zone(o, MAIN, "library"),
                               post.in_zone(o, SUB, "library")
                               & eq(post.zone_player(o), pre.zone_player(o))))),
    ("start.library-exactly", "A subgame library holds only cards of the same player's main-game "
     "library.", ("subgame.start.libraries",), START,
     lambda: forall(o, implies(post.in_zone(o, SUB, "library"),
                               pre.in_zone(o, MAIN, "library")
                               & eq(pre.zone_player(o), post.zone_player(o))))),
    ("start.main-library-empty", "The main-game libraries are empty while the subgame runs.",
     ("subgame.start.libraries",), START,
     lambda: forall(o, ~post.in_zone(o, MAIN, "library"))),
    ("start.nothing-else-moves", "No other main-game object moves (728.2a-c aside).",
     ("subgame.start.libraries", "subgame.start.supplementary-decks", "subgame.start.vanguard",
      "subgame.start.commander"), START,
     lambda: forall(o, implies(pre.in_game(o, MAIN) & ne(pre.zone(o), zone("library"))
                               & ~_in_deck_or_command_special(o), _moves_unchanged(o)))),
    ("start.decks-move", "Each supplementary deck moves whole to the subgame command zone.",
     ("subgame.start.supplementary-decks",), START,
     lambda: forall(o, implies(pre.in_zone(o, MAIN, "deck") & eq(pre.kind(o), kind("card")),
                               post.in_zone(o, SUB, "deck")
                               & eq(post.zone_deck(o), pre.zone_deck(o))
                               & eq(post.zone_player(o), pre.zone_player(o))))),
    ("start.deck-marks", "Each card of a supplementary deck is marked as having begun the "
     "subgame in that deck, which 728.5a reads as the subgame ends.",
     ("subgame.start.supplementary-decks",), START,
     lambda: forall(o, implies(pre.in_zone(o, MAIN, "deck") & pre.is_card(o),
                               eq(post.began_in_deck(SUB, o), pre.zone_deck(o))))),
    ("start.faces-kept", "Starting a subgame turns no card over: what moves keeps its face "
     "(728.2, 728.2a-c).", ("subgame.start.libraries", "subgame.start.supplementary-decks",
                           "subgame.start.vanguard", "subgame.start.commander"), START,
     lambda: forall(o, implies(pre.is_card(o) & post.exists(o),
                               eq(post.face_up(o), pre.face_up(o))))),
    ("start.face-up-nontraditional-stay", "Face-up nontraditional cards stay in the main-game "
     "command zone.", ("subgame.start.supplementary-decks",), START,
     lambda: forall(o, implies(pre.in_zone(o, MAIN, "command") & pre.is_card(o)
                               & not_(in_(pre.ctype(o), (ctype("traditional"), ctype("vanguard"))))
                               & ~pre.commander(o), _moves_unchanged(o)))),
    ("start.vanguard-moves", "Each vanguard moves to the subgame command zone.",
     ("subgame.start.vanguard",), START,
     lambda: forall(o, implies(pre.in_zone(o, MAIN, "command") & pre.is_card(o)
                               & eq(pre.ctype(o), ctype("vanguard")),
                               post.in_zone(o, SUB, "command")))),
    ("start.commander-moves", "Each commander in the main-game command zone moves to the "
     "subgame command zone.", ("subgame.start.commander",), START,
     lambda: forall(o, implies(pre.in_zone(o, MAIN, "command") & pre.is_card(o)
                               & pre.commander(o), post.in_zone(o, SUB, "command")))),
    ("start.no-counters", "Players start the subgame with no counters; their main-game counters "
     "are kept.", ("subgame.start.new-game", "subgame.end.player-counters"), START,
     lambda: forall(p, eq(post.counters(SUB, p), num(0))
                    & eq(post.counters(MAIN, p), pre.counters(MAIN, p)))),
    ("start.starting-player", "The subgame's starting player is one of its players.",
     ("subgame.start.starting-player",), START,
     lambda: exists(p, post.starts(SUB, p)) & forall(p, implies(post.starts(SUB, p),
                                                                post.plays(SUB, p)))),
    ("start.short-library-loses", "A player with fewer than seven cards in their subgame "
     "library, and only such a player, will lose at the first upkeep.",
     ("subgame.start.short-library",), START,
     lambda: forall(p, implies(post.plays(SUB, p),
                               iff(post.doomed(SUB, p),
                                   lt(post.library_size(SUB, p), num(7)))))),
    ("start.procedure-order", "The subgame starts as a normal game does, in rule 103's order "
     "(728.2): its starting player is determined, then each player draws an opening hand and "
     "the mulligans are taken, and it is at its first turn once it has started.",
     ("subgame.start.starting-player", "subgame.start.opening-hands",
      "subgame.start.first-turn"), START,
     lambda: eq(post.stage(SUB), stage("first-turn")) & ~post.out_of_order(SUB)),
    ("start.creator-recorded", "The subgame remembers the spell or ability that created it.",
     ("subgame.start.new-game",), START,
     lambda: post.has_creator(SUB) & eq(post.created_by(SUB), creator())),
    ("start.cards-conserved", "Starting a subgame neither loses nor makes a card.",
     ("subgame.start.libraries",), START,
     lambda: forall(o, iff(pre.is_card(o), post.is_card(o)))),
    # -- ending a subgame
    ("end.cards-conserved", "No card is lost when a subgame ends, of those 728.5 and 728.5a-c "
     "return: traditional cards outside the subgame command zone, supplementary-deck cards, "
     "vanguards and commanders (see docs/findings.md for the cards the rule leaves out).",
     ("subgame.end.return-cards", "subgame.end.supplementary-cards",
      "subgame.end.supplementary-decks", "subgame.end.vanguard", "subgame.end.commander"), END,
     lambda: forall(o, implies(pre.is_card(o) & ~_left_out_at_end(o), post.is_card(o)))),
    ("end.no-new-cards", "No card is made or duplicated when a subgame ends.",
     ("subgame.end.return-cards",), END,
     lambda: forall(o, implies(post.is_card(o), pre.is_card(o)))),
    ("end.traditional-to-owner-library", "Each traditional card in the subgame outside its "
     "command zone ends in its owner's main-game library.", ("subgame.end.return-cards",), END,
     lambda: forall(o, implies(pre.traditional(o) & pre.in_game(o, SUB)
                               & ~pre.in_command(o, SUB),
                               post.in_zone(o, MAIN, "library")
                               & eq(post.zone_player(o), pre.owner(o))))),
    ("end.commanders-return", "A commander in the subgame command zone returns to the main-game "
     "command zone.", ("subgame.end.commander",), END,
     lambda: forall(o, implies(pre.in_zone(o, SUB, "command") & pre.is_card(o)
                               & pre.commander(o), post.in_zone(o, MAIN, "command")))),
    ("end.vanguards-return", "A vanguard in the subgame command zone returns to the main-game "
     "command zone.", ("subgame.end.vanguard",), END,
     lambda: forall(o, implies(pre.in_zone(o, SUB, "command") & pre.is_card(o)
                               & eq(pre.ctype(o), ctype("vanguard")),
                               post.in_zone(o, MAIN, "command")))),
    ("end.decks-return", "Supplementary decks return whole to the main-game command zone, with "
     "every card that began the subgame in them.",
     ("subgame.end.supplementary-cards", "subgame.end.supplementary-decks"), END,
     lambda: forall(o, implies(pre.is_card(o) & pre.in_game(o, SUB)
                               & (eq(pre.zone(o), zone("deck"))
                                  | ne(pre.began_in_deck(SUB, o), deck("none"))),
                               post.in_zone(o, MAIN, "deck")))),
    ("end.returned-face-up", "Each traditional card that the end of a subgame returns to a "
     "main-game library is face up there: no face-down status outlives the subgame (a new "
     "object, 400.7; 708.9).", ("subgame.end.return-cards",), END,
     lambda: forall(o, implies(pre.traditional(o) & pre.in_game(o, SUB)
                               & ~pre.in_command(o, SUB) & post.exists(o), post.face_up(o)))),
    ("end.supplementary-face-down", "Each card that goes back to its supplementary deck as a "
     "subgame ends is face down in it (728.5a).", ("subgame.end.supplementary-cards",), END,
     lambda: forall(o, implies(pre.is_card(o) & pre.in_game(o, SUB)
                               & ne(pre.began_in_deck(SUB, o), deck("none"))
                               & ne(pre.zone(o), zone("deck")) & post.exists(o),
                               ~post.face_up(o)))),
    ("end.others-cease", "Every other card of the subgame ceases to exist with it: 728.5 "
     "returns only the cards it and 728.5a-c name.", ("subgame.end.cease",), END,
     lambda: forall(o, implies(pre.is_card(o) & _left_out_at_end(o), ~post.exists(o)))),
    ("end.faces-kept", "A card the end of a subgame returns keeps its face, except that a "
     "traditional card goes into a library face up and a supplementary card that left its "
     "deck goes back face down (728.5, 728.5a).",
     ("subgame.end.supplementary-decks", "subgame.end.vanguard", "subgame.end.commander"), END,
     lambda: forall(o, implies(pre.is_card(o) & pre.in_game(o, SUB) & post.exists(o)
                               & ne(pre.ctype(o), ctype("traditional"))
                               & ~(ne(pre.began_in_deck(SUB, o), deck("none"))
                                   & ne(pre.zone(o), zone("deck"))),
                               eq(post.face_up(o), pre.face_up(o))))
     & forall(o, implies(pre.is_card(o) & pre.in_command(o, SUB) & post.exists(o)
                         & eq(pre.ctype(o), ctype("traditional")),
                         eq(post.face_up(o), pre.face_up(o))))),
    ("end.main-marks-kept", "The marks of the main game (the cards that began it in a "
     "supplementary deck) are as they were: returning decks begin nothing.",
     ("subgame.end.supplementary-decks",), END,
     lambda: forall(o, eq(post.began_in_deck(MAIN, o), pre.began_in_deck(MAIN, o)))),
    ("end.nothing-survives", "No object or zone of the subgame survives it.",
     ("subgame.end.cease",), END,
     lambda: forall(o, ~post.in_game(o, SUB)) & ~post.present(SUB) & ~post.live(SUB)),
    ("end.no-token-survives", "No token, copy, emblem, ability or effect leaves the subgame.",
     ("subgame.end.cease",), END,
     lambda: forall(o, implies(pre.in_game(o, SUB) & ne(pre.kind(o), kind("card")),
                               ~post.exists(o)))),
    ("end.counters", "Counters players got in the subgame cease; their main-game counters are "
     "as they were.", ("subgame.end.player-counters",), END,
     lambda: forall(p, eq(post.counters(SUB, p), num(0))
                    & eq(post.counters(MAIN, p), pre.counters(MAIN, p)))),
    ("end.main-resumes", "The main game, and no other, resumes.", ("subgame.end.resume-main",),
     END, lambda: post.active(MAIN) & forall(g, implies(post.active(g), eq(g, MAIN)))),
    ("end.creator-finishes", "The spell or ability that created the subgame finishes resolving "
     "in the main game.", ("subgame.end.finish-creator",), END,
     lambda: implies(pre.has_creator(SUB), post.resolved(MAIN, creator()))),
    ("end.triggers-released", "Each main-game trigger that waited is put on the main-game stack, "
     "once.", ("subgame.end.release-triggers",), END,
     lambda: forall(o, implies(pre.waiting(MAIN, o), post.in_zone(o, MAIN, "stack")
                               & ~post.waiting(MAIN, o)))),
    ("end.result-recorded", "The subgame ends with the event's result: a win, a draw or none.",
     ("subgame.end.result",), END,
     lambda: in_(post.result(SUB), (result("win"), result("draw"), result("none")))),
    ("end.main-objects-stay", "Main-game objects not in the subgame stay where they are.",
     ("subgame.end.cease",), END,
     lambda: forall(o, implies(pre.in_game(o, MAIN) & ne(pre.zone(o), zone("stack")),
                               _moves_unchanged(o)))),
    # -- restarting
    ("restart.no-result", "No one wins, loses or draws a restarted game.",
     ("restart.end-game",), RESTART, lambda: eq(post.result(OLD), result("restarted"))),
    ("restart.players", "The new game's players are exactly the players in the game when it "
     "ended.", ("restart.new-game", "restart.range-of-influence"), RESTART,
     lambda: forall(p, iff(post.plays(NEW, p), pre.plays(OLD, p)))),
    ("restart.controller-starts", "The controller of the restarting effect is the starting "
     "player.", ("restart.starting-player",), RESTART,
     lambda: forall(p, iff(post.starts(NEW, p), eq(p, controller_of_event())))),
    ("restart.cards-conserved", "Every card of the restarted game is in the new game.",
     ("restart.cards-involved", "restart.commanders", "restart.exempt",
      "restart.exempt-commander"), RESTART,
     lambda: forall(o, implies(pre.is_card(o) & pre.in_game(o, OLD),
                               post.is_card(o) & post.in_game(o, NEW)))),
    ("restart.outside-cards-stay", "Cards outside the game stay outside.", ("restart.cards-involved",),
     RESTART, lambda: forall(o, implies(pre.is_card(o) & ~pre.inside(o), _moves_unchanged(o)))),
    ("restart.owners", "No card changes owner.", ("restart.cards-involved",), RESTART,
     lambda: forall(o, implies(pre.exists(o) & post.exists(o), eq(post.owner(o), pre.owner(o))))),
    ("restart.library", "Each traditional card that is neither exempt nor a commander begins the "
     "new game in its owner's library.", ("restart.cards-involved",), RESTART,
     lambda: forall(o, implies(pre.traditional(o) & pre.in_game(o, OLD) & ~exempt(o)
                               & ~pre.commander(o),
                               post.in_zone(o, NEW, "library")
                               & eq(post.zone_player(o), pre.owner(o))))),
    ("restart.commanders", "Each commander not exempted begins the new game in the command zone.",
     ("restart.commanders",), RESTART,
     lambda: forall(o, implies(pre.traditional(o) & pre.in_game(o, OLD) & ~exempt(o)
                               & pre.commander(o), post.in_zone(o, NEW, "command")))),
    ("restart.nontraditional-in-command", "Each vanguard, conspiracy and dungeon not "
     "exempted begins the new game in the command zone.", ("restart.cards-involved",), RESTART,
     lambda: forall(o, implies(pre.is_card(o) & pre.in_game(o, OLD) & ~exempt(o)
                               & in_(pre.ctype(o), (ctype("vanguard"), ctype("conspiracy"),
                                                    ctype("dungeon"))),
                               post.in_zone(o, NEW, "command")))),
    ("restart.deck-marks", "Each supplementary card not exempted begins the new game in its "
     "deck, marked as having begun the game there (726.2, 728.5a).",
     ("restart.cards-involved",), RESTART,
     lambda: forall(o, implies(pre.is_card(o) & pre.in_game(o, OLD) & ~exempt(o)
                               & ne(pre.own_deck(o), deck("none")),
                               post.in_zone(o, NEW, "deck")
                               & eq(post.began_in_deck(NEW, o), pre.own_deck(o))))),
    ("restart.exempt-outside-deck", "Exempt cards are in neither library nor command zone as the "
     "new game begins.", ("restart.exempt", "restart.exempt-commander"), RESTART,
     lambda: forall(o, implies(exempt(o), post.in_game(o, NEW)
                               & ~post.in_zone(o, NEW, "library")
                               & ~post.in_command(o, NEW)))),
    ("restart.exempt-commander-stays-commander", "An exempt commander is still its deck's "
     "commander.", ("restart.exempt-commander",), RESTART,
     lambda: forall(o, implies(exempt(o) & pre.commander(o), post.commander(o)))),
    ("restart.karn", "With Karn Liberated's instruction, the exempt cards enter the battlefield "
     "under the restart's controller.", ("restart.finish-effect", "restart.exempt"), RESTART,
     lambda: implies(then_battlefield(), forall(o, implies(
         exempt(o), post.in_zone(o, NEW, "battlefield")
         & eq(post.controller(o), controller_of_event()))))),
    ("restart.faces", "No card keeps its face into the new game: each card not exempted "
     "begins it face down if it is in a supplementary deck, face up anywhere else (a new "
     "object, 400.7; 726.2).", ("restart.cards-involved", "restart.commanders"), RESTART,
     lambda: forall(o, implies(pre.is_card(o) & pre.in_game(o, OLD) & ~exempt(o)
                               & post.exists(o),
                               iff(post.face_up(o), ne(post.zone(o), zone("deck")))))),
    ("restart.nothing-else", "No token, copy, emblem, ability or effect survives a restart.",
     ("restart.nothing-else",), RESTART,
     lambda: forall(o, implies(pre.in_game(o, OLD) & ne(pre.kind(o), kind("card")),
                               ~post.exists(o)))),
    ("restart.no-counters", "No player has counters in the new game, and the old game's are "
     "gone.", ("restart.nothing-else",), RESTART,
     lambda: forall(p, eq(post.counters(NEW, p), num(0)) & eq(post.counters(OLD, p), num(0)))),
    ("restart.old-game-gone", "The restarted game and its zones are gone.",
     ("restart.nothing-else", "restart.end-game"), RESTART,
     lambda: forall(o, ~post.in_game(o, OLD)) & ~post.present(OLD) & post.active(NEW)),
    ("restart.main-unaffected", "Restarting a subgame leaves its main game unaffected.",
     ("restart.subgame",), RESTART,
     lambda: implies(has_role("main"), forall(o, implies(pre.in_game(o, MAIN),
                                                         _moves_unchanged(o)))
                     & forall(p, eq(post.counters(MAIN, p), pre.counters(MAIN, p)))
                     & post.suspended(MAIN))),
    ("restart.subgame-keeps-its-place", "A restarted subgame is still its main game's subgame, "
     "created by the same spell or ability.", ("restart.subgame", "restart.new-game"), RESTART,
     lambda: implies(has_role("main"), post.has_parent(NEW) & eq(post.parent(NEW), MAIN)
                     & eq(post.has_creator(NEW), pre.has_creator(OLD))
                     & implies(pre.has_creator(OLD),
                               eq(post.created_by(NEW), pre.created_by(OLD))))),
    ("restart.short-library-loses", "A player with fewer than seven cards in their new library, "
     "and only such a player, will lose at the first upkeep.", ("restart.short-library",),
     RESTART, lambda: forall(p, implies(post.plays(NEW, p), iff(
         post.doomed(NEW, p), lt(post.library_size(NEW, p), num(7)))))),
    ("restart.procedure-order", "The new game starts following rule 103, in its order "
     "(726.1): its starting player is determined, then each player draws an opening hand and "
     "the mulligans are taken, and it is at its first turn when the restart is done.",
     ("restart.starting-player", "restart.opening-hands", "restart.first-turn"), RESTART,
     lambda: eq(post.stage(NEW), stage("first-turn")) & ~post.out_of_order(NEW)),
    ("restart.instructions-before-untap", "The restarting effect finishes, following its "
     "further instructions (Karn Liberated's), after the mulligans, just before the first "
     "turn's untap step (726.4): not as the new game is set up.",
     ("restart.finish-effect",), RESTART,
     lambda: eq(post.instructions_at(NEW), stage("mulligans"))),
    # -- bringing a card in
    ("bring.nothing-else-moves", "Bringing a card in moves that card and nothing else.",
     ("subgame.outside",), BRING,
     lambda: forall(o, implies(pre.exists(o) & ne(o, brought()), _moves_unchanged(o)))),
    ("bring.leave-triggers-wait", "A main-game ability that triggers on the card leaving waits "
     "for the main game to resume.", ("subgame.bring-in.leave-triggers",), BRING,
     lambda: forall(o, implies(has_role("source") & pre.watcher(o) & ~pre.phased_out(o)
                               & (pre.in_game(o, SOURCE) | eq(o, brought())),
                               exists(o2, post.waiting(SOURCE, o2) & ~pre.waiting(SOURCE, o2))))),
]

EVENT: list[Invariant] = [
    Invariant(i, st, cl, (ev,), f()) for i, st, cl, ev, f in _EVENT
]

# Promises about every event, or every in-game action.
IN_GAME_ACTIONS = ("affect", "move", "create", "counter", "phase", "turn", "leave", "control")

EVENT += [
    Invariant("every.owners-unchanged", "No object ever changes owner.",
              ("restart.cards-involved", "subgame.end.return-cards"), EVENTS,
              forall(o, implies(pre.exists(o) & post.exists(o),
                                eq(post.owner(o), pre.owner(o))))),
    Invariant("every.suspended-games-untouched", "While a subgame runs, nothing happens in its "
              "main games: their objects stay where they are, their counters as they were.",
              ("subgame.start.suspend-main",), IN_GAME_ACTIONS,
              forall((o, g), implies(pre.suspended(g) & pre.in_game(o, g), _moves_unchanged(o)))
              & forall((g, p), implies(pre.suspended(g),
                                       eq(post.counters(g, p), pre.counters(g, p))))),
]

# ---- possibility: what the rules must allow (no clause may make an event impossible) ------

ACTIVE = role("active")

_POSSIBLE: list[tuple[str, str, tuple[str, ...], str, Term]] = [
    ("possible.start-subgame", "A subgame can start.", ("subgame.start.new-game",), START,
     TRUE),
    ("possible.nested-subgame", "A subgame can start inside a subgame.", ("subgame.nesting",),
     START, pre.has_parent(ACTIVE)),
    ("possible.random-starting-player", "The subgame's starting player can be another player "
     "than the one whose spell created it: it is chosen at random.",
     ("subgame.start.starting-player",), START,
     exists(p, post.starts(SUB, p) & ne(p, controller_of_event()))),
    ("possible.end-subgame", "A subgame can end.", ("subgame.end.result",), END, TRUE),
    ("possible.restart", "A game can be restarted.", ("restart.new-game",), RESTART, TRUE),
    ("possible.restart-subgame", "A subgame can be restarted.", ("restart.subgame",), RESTART,
     pre.has_parent(ACTIVE)),
    ("possible.restart-limited-range", "A game with limited range of influence can be "
     "restarted.", ("restart.range-of-influence",), RESTART, pre.limited_range(ACTIVE)),
    ("possible.bring-in-from-outside", "A card can be brought into a game from outside it.",
     ("subgame.outside",), BRING, ~pre.inside(brought())),
    ("possible.bring-in-from-main-game", "A card of the main game can be brought into the "
     "subgame.", ("subgame.outside",), BRING, pre.inside(brought())),
    ("possible.affect", "An effect can act on an object of its own game.",
     ("subgame.separate-effects",), "affect", TRUE),
]

POSSIBLE: list[Invariant] = [
    Invariant(i, st, cl, (ev,), t, "possible") for i, st, cl, ev, t in _POSSIBLE
]

CATALOG: list[Invariant] = STRUCTURE + EVENT + POSSIBLE


_BY_ID: dict[str, Invariant] = {inv.id: inv for inv in CATALOG}


def by_id(invariant_id: str) -> Invariant:
    """The catalog's invariant of this id (KeyError if none)."""
    return _BY_ID[invariant_id]


__all__ = ["CATALOG", "EVENT", "EVENTS", "Invariant", "STRUCTURE", "by_id", "structure_terms"]
