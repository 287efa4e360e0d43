"""The structure of a concrete situation, stated once: the catalog's structure invariants,
read on explicit situations, behind the few representation checks they take for granted.

`problems(situation)` lists every structural fault of a situation, one line each. It reads
the situation in two layers:

* **representation** (what a term of the catalog cannot say, because the terms read the
  situation through it): the `where` index and the zones' contents agree, no object is
  listed twice and every listed id is an object (CR 109.1, 400.1); ids are filed under
  themselves; kinds, card types and zone kinds are known ones; zone records name a live
  game and players of it (CR 400.1, 400.11); main-game links name live games and form no
  cycle (CR 728.6); a player is named once (CR 102.1); counts of counters are positive
  numbers (CR 122.1). A few rules that the catalog does not state yet are checked here too,
  each with its CR number: a phased-out object is on the battlefield (CR 702.26b), a card
  outside the game is among its owner's cards (CR 400.11), only cards are commanders
  (CR 903.3), a player has counters only in a game they play or left (CR 122.1, 728.4b).
* **structure** (`catalog_problems`): every structure invariant of the catalog
  (`invariants.catalog.STRUCTURE`), the very terms the prover assumes before an event and
  proves after it, with the values that break it. One game active, the others suspended
  in a chain; zones of live games only; tokens, copies, emblems, abilities and effects in
  their own game; cards in their owners' zones (CR 400.3); no nontraditional card in a
  library (CR 108.2a); supplementary decks; counters; and the rest.

The catalog is read only on a situation whose representation is sound (its terms assume
it). `card_census(situation)` maps every card to its owner: two censuses are equal exactly
when no card was lost, none was created and no owner changed (CR 108.3, 726.2, 728.5).

The scenario reader and the interpreter live below this package; they take this check as
a parameter (`model.scenario.parse_scenario(..., check=problems)`), so that the structure
is stated here once and the model never imports its catalog.
"""

from __future__ import annotations

from collections import Counter

from shahrazad.model.objects import (
    CARD_TYPES,
    OBJECT_KINDS,
    PLAYER_ZONES,
    SHARED_ZONES,
    SUPPLEMENTARY_DECKS,
    ZoneRef,
)
from shahrazad.model.state import Situation

from .catalog import STRUCTURE
from .concrete import Binding, Evaluator
from .lang import Term

__all__ = ["card_census", "catalog_problems", "is_wellformed", "problems",
           "representation_problems", "still_legal", "violations"]


def card_census(situation: Situation) -> dict[str, str]:
    """Every card of the situation (in a game or outside every game) mapped to its owner."""
    return {obj.id: obj.owner for obj in situation.objects.values() if obj.is_card}


def is_wellformed(situation: Situation) -> bool:
    """True when `problems(situation)` is empty."""
    return not problems(situation)


def problems(situation: Situation) -> list[str]:
    """Every structural fault of `situation`, one line each: the representation's faults,
    or, when it has none, the catalog's structure invariants that the situation breaks."""
    return representation_problems(situation) or catalog_problems(situation)


def representation_problems(situation: Situation) -> list[str]:
    """What the catalog's terms take for granted, and the rules it does not state yet."""
    out: list[str] = []
    out.extend(_game_problems(situation))
    out.extend(_zone_problems(situation))
    out.extend(_place_problems(situation))
    out.extend(_object_problems(situation))
    out.extend(_counter_problems(situation))
    return out


def catalog_problems(situation: Situation) -> list[str]:
    """The catalog's structure invariants that `situation` breaks, each with the values of
    its variables that break it (`o = tok1`), its statement and the clauses behind it."""
    evaluator = Evaluator(situation, situation, Binding())
    out: list[str] = []
    for inv in STRUCTURE:
        if evaluator.holds(inv.term):
            continue
        env = _witness(evaluator, inv.term)
        where = f" [{', '.join(f'{k} = {v}' for k, v in env.items())}]" if env else ""
        rules = f"CR {', '.join(inv.rules)}; " if inv.rules else ""
        kept_by = f"clauses {', '.join(inv.clauses)}" if inv.clauses else ""
        cited = f"{rules}{kept_by}".removesuffix("; ")
        out.append(f"{inv.id}{where}: {inv.statement} ({cited})")
    return out


def violations(situation: Situation) -> frozenset[str]:
    """Every way `situation` breaks a structure invariant of the catalog: the invariant's id
    with each binding of its variables that breaks it and what each bound object is (its
    whole record), so that an event that changes an object in breach makes a new breach."""
    evaluator = Evaluator(situation, situation, Binding())
    out: set[str] = set()
    for inv in STRUCTURE:
        parts = inv.term.args if inv.term.op == "and" else (inv.term,)
        for index, part in enumerate(parts):
            if part.op != "forall":
                if not evaluator.holds(part):
                    out.add(f"{inv.id}#{index}")
                continue
            for env in evaluator.counterexamples(part):
                bound = ", ".join(f"{k} = {situation.objects.get(v, v)!r}"
                                  for k, v in sorted(env.items()))
                out.add(f"{inv.id}#{index} [{bound}]")
    return frozenset(out)


def still_legal(allowed: frozenset[str], after: Situation, by_the_rules: bool,
                ) -> frozenset[str] | None:
    """The breaches of structure invariants that `after`, the situation an event leaves, may
    have and still be one a game reaches, where the situation before it could have
    `allowed`; None if it cannot. "Legal" is "reached under the rulebook checked": what an
    event of the rules themselves leaves (`by_the_rules`: a subgame's start or end, a card
    brought in, a restart) is, whatever it breaks, since a rulebook whose wording breaks a
    structure invariant makes such games; an in-game action (a move, a counter, control
    gained, ...) stands for what some card can do, which never makes a new breach: it may
    only keep or mend those there were."""
    if not catalog_problems(after):
        return frozenset()
    found = violations(after)
    return found if by_the_rules or found <= allowed else None


def _witness(evaluator: Evaluator, term: Term) -> dict[str, str]:
    """Values of the variables of the first false ∀ in a false conjunction of them."""
    if term.op == "and":
        for part in term.args:
            if not evaluator.holds(part):
                return _witness(evaluator, part)
    return evaluator.counterexample(term) or {}


# ---- games ------------------------------------------------------------------------------


def _game_problems(s: Situation) -> list[str]:
    out: list[str] = []
    if len(set(s.players)) != len(s.players):
        out.append(f"a player is named twice among {', '.join(s.players)} (CR 102.1)")
    if not s.games:
        return [*out, "there is no live game (CR 728.1a: exactly one game is active)"]
    for key, game in s.games.items():
        if key != game.id:
            out.append(f"game {game.id} is filed under the id {key!r}")
        strangers = [p for p in game.players if p not in s.players]
        if strangers:
            out.append(f"game {game.id} has players who are not players of the situation: "
                       f"{', '.join(strangers)} (CR 102.1)")
        if len(set(game.players)) != len(game.players):
            out.append(f"game {game.id} lists a player twice (CR 102.1)")
        if game.status not in ("active", "suspended"):
            out.append(f"game {game.id} has status {game.status!r}; a live game is active or "
                       "suspended, an ended game is no longer live (CR 728.1a, 726.1)")
        if game.parent is not None and game.parent not in s.games:
            out.append(f"game {game.id} has main game {game.parent!r}, which is not a live "
                       "game (CR 728.1a)")
        if game.parent == game.id:
            out.append(f"game {game.id} is its own main game (CR 728.1a)")
        if game.range_of_influence is not None and game.range_of_influence < 0:
            out.append(f"game {game.id} has a range of influence of {game.range_of_influence}; "
                       "a range is a number of seats, 0 or more (CR 801.2)")
    cyclic = _in_cycle(s)
    if cyclic:
        out.append(f"the main-game links form a cycle through {', '.join(cyclic)} (CR 728.6)")
    return out


def _in_cycle(s: Situation) -> list[str]:
    cyclic: set[str] = set()
    for start in s.games:
        seen: list[str] = []
        here: str | None = start
        while here is not None and here in s.games and here not in seen:
            seen.append(here)
            here = s.games[here].parent
        if here is not None and here in seen:
            cyclic.update(seen[seen.index(here):])
    return sorted(cyclic)


# ---- zones ------------------------------------------------------------------------------


def _zone_problems(s: Situation) -> list[str]:
    out: list[str] = []
    for zone in s.zones:
        if zone.is_outside:
            if zone.game is not None or zone.deck is not None:
                out.append(f"outside zone {zone} names a game or a deck; outside the game is no "
                           "game's zone (CR 400.11)")
            if zone.player not in s.players:
                out.append(f"outside zone {zone} belongs to {zone.player!r}, who is not a player "
                           "(CR 400.11)")
            continue
        if zone.game is None:
            out.append(f"zone {zone} belongs to no game (CR 400.1)")
            continue
        if zone.game not in s.games:
            out.append(f"zone {zone} belongs to {zone.game}, which is not a live game (CR 728.5, "
                       "726.1: the zones of an ended game cease to exist)")
            continue
        game = s.games[zone.game]
        if zone.kind in PLAYER_ZONES or zone.kind == "deck":
            if zone.player is None:
                out.append(f"zone {zone} is a {zone.kind} without a player (CR 400.1)")
            elif zone.player not in game.players:
                out.append(f"zone {zone} belongs to {zone.player}, who is not a player in "
                           f"{game.id} (CR 400.1, 800.4a)")
            if zone.kind == "deck" and zone.deck not in SUPPLEMENTARY_DECKS:
                out.append(f"zone {zone} names no supplementary deck (CR 100.2d)")
            if zone.kind != "deck" and zone.deck is not None:
                out.append(f"zone {zone} names a deck but is a {zone.kind} (CR 400.1)")
        elif zone.kind in SHARED_ZONES:
            if zone.player is not None or zone.deck is not None:
                out.append(f"zone {zone} is shared by all players and names no player "
                           "(CR 400.1)")
        else:
            out.append(f"zone {zone} is of no known kind {zone.kind!r} (CR 400.1)")
    return out


# ---- places: the where index against the zones' contents ---------------------------------


def _place_problems(s: Situation) -> list[str]:
    out: list[str] = []
    listed: dict[str, list[ZoneRef]] = {}
    for zone, contents in s.zones.items():
        counts = Counter(contents)
        for obj_id, n in counts.items():
            if n > 1:
                out.append(f"{zone} lists {obj_id} {n} times (CR 400.1: an object is in one "
                           "place)")
            listed.setdefault(obj_id, []).append(zone)
            if obj_id not in s.objects:
                out.append(f"{zone} lists {obj_id}, which is no object of the situation "
                           "(CR 109.1)")
    for obj_id, zones in listed.items():
        if len(zones) > 1:
            shown = " and ".join(str(z) for z in sorted(zones, key=ZoneRef.sort_key))
            out.append(f"{obj_id} is in {len(zones)} zones at once: {shown} (CR 400.1)")
    for obj_id in s.objects:
        here = s.where.get(obj_id)
        zones = listed.get(obj_id, [])
        if here is None:
            if not zones:
                out.append(f"{obj_id} is in no zone and not outside the game (CR 400.1, "
                           "400.11)")
            else:
                out.append(f"{obj_id} is listed in {zones[0]} but the where-index has no entry "
                           "for it")
        elif here not in s.zones:
            out.append(f"{obj_id} is said to be in {here}, which does not exist (CR 400.1)")
        elif here not in zones:
            out.append(f"{obj_id} is said to be in {here} but is not listed there (CR 400.1)")
    for obj_id in s.where:
        if obj_id not in s.objects:
            out.append(f"the where-index places {obj_id}, which is no object of the situation "
                       "(CR 109.1)")
    return out


# ---- objects ----------------------------------------------------------------------------


def _object_problems(s: Situation) -> list[str]:
    out: list[str] = []
    for key, obj in s.objects.items():
        if key != obj.id:
            out.append(f"object {obj.id} is filed under the id {key!r}")
        if obj.kind not in OBJECT_KINDS:
            out.append(f"{obj.id} is of no known kind {obj.kind!r} (CR 109.1)")
        if obj.owner not in s.players:
            out.append(f"{obj.id} is owned by {obj.owner!r}, who is not a player (CR 108.3)")
        here = s.where.get(obj.id)
        if obj.is_card:
            if obj.card_type not in CARD_TYPES:
                out.append(f"card {obj.id} is of no known type {obj.card_type!r} (CR 108.2a)")
            if here is None:
                continue
            if here.is_outside and here.player != obj.owner:
                out.append(f"card {obj.id} of {obj.owner} is outside the game among "
                           f"{here.player}'s cards (CR 108.3, 400.11)")
        else:
            if obj.commander:
                out.append(f"{obj.kind} {obj.id} is marked as a commander; a commander is a card "
                           "(CR 903.3)")
            if here is None:
                continue
            if obj.game_of_origin is None and not here.is_outside:
                out.append(f"{obj.kind} {obj.id} in {here} does not say which game made it "
                           "(CR 728.1b)")
        if obj.phased_out and here is not None and here.kind != "battlefield":
            out.append(f"{obj.id} is phased out in {here}; only permanents phase (CR 702.26b)")
    return out


# ---- counters on players ------------------------------------------------------------------


def _counter_problems(s: Situation) -> list[str]:
    out: list[str] = []
    for (game_id, player), counters in s.player_counters.items():
        if game_id not in s.games:
            if counters:
                out.append(f"{player}'s counters are kept for {game_id}, which is not a live "
                           "game (CR 728.4b: counters of a subgame cease to exist at its end)")
            else:
                out.append(f"{player} has an (empty) counter record for {game_id}, which is not "
                           "a live game (CR 728.4b)")
            continue
        game = s.games[game_id]
        if player not in game.players and player not in game.left:
            out.append(f"{player} has counters in {game_id} without being a player there "
                       "(CR 122.1, 728.4b)")
        for kind, n in counters.items():
            if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
                out.append(f"{player} has {n!r} {kind} counters in {game_id}; a count is a "
                           "positive number (CR 122.1)")
    return out
