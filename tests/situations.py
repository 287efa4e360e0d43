"""Small situations for the clause and ruling tests, built as scenario data.

Every situation is written as the same data a scenario file holds, dumped to TOML and read
back with `parse_scenario`, so the tests go through the documented format and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import tomli_w
from shahrazad.model.amendment import parse_amendment
from shahrazad.model.choices import Chooser
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter, Outcome
from shahrazad.model.objects import parse_zone
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.model.scenario import parse_scenario, situation_data
from shahrazad.model.state import Game, Situation


def _keys(kw: dict[str, Any]) -> dict[str, Any]:
    """Python keyword names to scenario keys (`since_first_turn` -> `since-first-turn`)."""
    return {k.replace("_", "-"): v for k, v in kw.items()}


def card(id: str, owner: str, at: str, **kw: Any) -> dict[str, Any]:
    """A [[card]] table."""
    return {"id": id, "owner": owner, "at": at, **_keys(kw)}


def obj(id: str, kind: str, controller: str, at: str, **kw: Any) -> dict[str, Any]:
    """An [[object]] table (token, copy, emblem, ability, effect)."""
    return {"id": id, "kind": kind, "controller": controller, "at": at, **_keys(kw)}


def game(id: str, **kw: Any) -> dict[str, Any]:
    """A [[game]] table."""
    return {"id": id, **_keys(kw)}


def library(owner: str, n: int, game: str = "main", prefix: str | None = None) -> list[dict[str, Any]]:
    """`n` traditional cards in `owner`'s library of `game`, ids like a1, a2, ..."""
    stem = prefix if prefix is not None else owner.lower()
    return [card(f"{stem}{i}", owner, f"{game}/library/{owner}") for i in range(1, n + 1)]


def counter(game: str, player: str, kind: str, count: int) -> dict[str, Any]:
    return {"game": game, "player": player, "kind": kind, "count": count}


def build(players: Sequence[str], *, games: Sequence[dict[str, Any]] | None = None,
          cards: Iterable[dict[str, Any]] = (), objects: Iterable[dict[str, Any]] = (),
          counters: Iterable[dict[str, Any]] = (), **top: Any) -> Situation:
    """A situation from scenario tables (one game `main` unless `games` is given)."""
    data: dict[str, Any] = {"players": list(players),
                            "game": [dict(g) for g in (games or [game("main")])]}
    cards, objects, counters = list(cards), list(objects), list(counters)
    if cards:
        data["card"] = cards
    if objects:
        data["object"] = objects
    if counters:
        data["player-counter"] = counters
    data.update(_keys(top))
    return parse_scenario(tomli_w.dumps(data), file="<test situation>").situation


def ev(kind: str, /, **args: Any) -> Event:
    """An event; keyword names become scenario argument names (`copy_of` -> `copy-of`)."""
    return Event(kind, _keys(args))


def run(situation: Situation, events: Sequence[Event], rulebook: Rulebook | None = None,
        chooser: Chooser | None = None) -> Outcome:
    return Interpreter(rulebook or official(), chooser).run(situation, list(events))


# ---- reading a situation ------------------------------------------------------------------


def at(state: Situation, obj_id: str) -> str | None:
    """Where an object is, as a zone path; None if it does not exist (any more)."""
    zone = state.where.get(obj_id)
    return None if zone is None else zone.path()


def ids(state: Situation, path: str) -> list[str]:
    """The objects in a zone, top first ([] if the zone does not exist)."""
    return list(state.zones.get(parse_zone(path), []))


def active(state: Situation) -> Game:
    return state.active_game()


def only_child(state: Situation, parent: str) -> Game:
    children = state.children(parent)
    assert len(children) == 1, f"{parent} has subgames {children}"
    return state.games[children[0]]


def new_games(before: Situation, after: Situation) -> list[Game]:
    """The games of `after` that were not in `before`."""
    return [g for gid, g in after.games.items() if gid not in before.games]



def exiled_with_karn(state: Situation, cards: Iterable[str], controller: str,
                     karn: str = "karn") -> tuple[Situation, str]:
    """The situation with `cards` (in the active game's exile) recorded as exiled with a Karn
    Liberated on the active game's battlefield, put there for `controller` if the situation
    has none (through the scenario format, as every situation here); and Karn's id, the
    `source` of the restart that leaves them in exile (726.5)."""
    data = situation_data(state)
    if karn not in state.objects:
        data.setdefault("card", []).append({
            "id": karn, "name": "Karn Liberated", "owner": controller,
            "types": ["planeswalker"], "at": f"{state.active_game().id}/battlefield"})
    wanted = set(cards)
    for table in data.get("card", []):
        if table["id"] in wanted:
            table["exiled-with"] = karn
    return parse_scenario(tomli_w.dumps(data), file="<test situation>").situation, karn


def with_step(on: str, before: str, rule: str, *steps: dict[str, Any]) -> Rulebook:
    """The official rules with one more clause, `test.step`, on the event `on`, just before
    the clause `before`: an amendment written as data and read as a file is."""
    text = tomli_w.dumps({"add": [{"before": before, "name": "test.step",
                                   "cr": {"2026-01-16": rule}, "summary": "A step under test.",
                                   "on": on, "step": list(steps)}]})
    return parse_amendment(text, file="step.toml").apply(official())
