"""Text and JSON reports of a simulation: the trace, each step citing its rule, and the
resulting situation."""

from __future__ import annotations

from typing import Any

from shahrazad.model.events import Event
from shahrazad.model.objects import ZoneRef
from shahrazad.model.scenario import situation_data
from shahrazad.model.state import Game, Situation
from shahrazad.model.trace import TraceStep

SIMULATE_SCHEMA = "shahrazad.simulate/1"


def situation_text(state: Situation, indent: str = "  ") -> list[str]:
    """The situation in words: each live game, its non-empty zones, counters, results."""
    lines: list[str] = []
    order: list[str] = []
    roots = [g.id for g in state.games.values() if g.parent is None]
    while roots:
        order.append(roots[0])
        roots = state.children(roots[0])
    for depth, game_id in enumerate(order):
        game = state.games[game_id]
        pad = indent + "  " * depth
        head = f"{pad}{game_id} ({game.status}; players {', '.join(game.players) or 'none'}"
        if game.variants:
            head += f"; {', '.join(game.variants)}"
        if game.starting_player:
            head += f"; starting player {game.starting_player}"
        lines.append(head + ")")
        if game.doomed:
            lines.append(f"{pad}  will lose at the first upkeep: {', '.join(game.doomed)}")
        lines += _start(game, pad)
        for zone in state.zones_in_order(game_id):
            if state.zones[zone]:
                lines.append(f"{pad}  {zone.path()}: {_objects(state, zone)}")
        for (g, player), counters in sorted(state.player_counters.items()):
            if g == game_id and counters:
                shown = ", ".join(f"{k}={v}" for k, v in sorted(counters.items()))
                lines.append(f"{pad}  counters of {player}: {shown}")
        for creator, result in game.subgame_results.items():
            lines.append(f"{pad}  subgame created by {creator}: {result.describe()}")
        brought = [f"{card} from {'a main game' if came == 'main-game' else 'outside'}"
                   for card, came in game.came_from.items() if came in ("main-game", "outside")]
        if brought:  # where a card came from (`came-from`), when an effect brought it in
            lines.append(f"{pad}  brought in: {', '.join(brought)}")
        if game.pending_triggers:
            lines.append(f"{pad}  waiting triggers: "
                         + ", ".join(t.id for t in game.pending_triggers))
    for zone in sorted((z for z in state.zones if z.is_outside and state.zones[z]),
                       key=ZoneRef.sort_key):
        lines.append(f"{indent}{zone.path()}: {_objects(state, zone)}")
    stranded = [z for z in state.zones if not z.is_outside and z.game not in state.games]
    for zone in stranded:
        lines.append(f"{indent}STRANDED in a game that no longer exists: {zone.path()}: "
                     f"{_objects(state, zone)}")
    for ended in state.ended:
        lines.append(f"{indent}ended: {ended.id}, {ended.result.describe()}")
    return lines


def _start(game: Game, pad: str) -> list[str]:
    """How the game's start went (rule 103), where it is news: a stage short of the first
    turn, a stage reached out of order, the stage at which a restarting effect's further
    instructions were followed (726.4)."""
    out = []
    if game.stage != "first-turn" or game.out_of_order:
        out.append(f"{pad}  start (rule 103): at {game.stage}"
                   + (", its stages out of order" if game.out_of_order else ""))
    if game.instructions_at is not None:
        out.append(f"{pad}  the restarting effect's further instructions followed at "
                   f"{game.instructions_at} (726.4)")
    return out


def _objects(state: Situation, zone: ZoneRef) -> str:
    out = []
    for obj in state.in_zone(zone):
        marks = obj.marks()
        out.append(obj.id + (f" [{', '.join(marks)}]" if marks else ""))
    return ", ".join(out)


def simulate_text(file: str, title: str, rulebook: str, edition: str, seed: int | None,
                  events: list[Event], trace: list[TraceStep], final: Situation) -> str:
    """The text report of `simulate`: a header (scenario, rulebook, the edition of its CR
    numbers, seed), each event with the steps it caused and their rules, then the resulting
    situation."""
    lines = [f"Scenario: {file}" + (f" — {title}" if title else ""),
             f"Rulebook: {rulebook} (CR numbers of {edition}); seed {seed}", ""]
    for index, event in enumerate(events, start=1):
        where = f" (line {event.line})" if event.line else ""
        lines.append(f"Event {index}{where}: {event.describe()}")
        for step in (s for s in trace if s.event == index):
            lines.append("  " + step.describe().replace("\n", "\n  "))
        lines.append("")
    lines.append("Resulting situation:")
    lines.extend(situation_text(final))
    return "\n".join(lines) + "\n"


def simulate_json(file: str, rulebook: str, edition: str, seed: int | None,
                  events: list[Event], trace: list[TraceStep], final: Situation) -> dict[str, Any]:
    """The JSON report of `simulate` (schema `shahrazad.simulate/1`): each event with its steps,
    and the resulting situation as scenario data."""
    return {
        "schema": SIMULATE_SCHEMA,
        "scenario": file,
        "rulebook": rulebook,
        "edition": edition,
        "seed": seed,
        "events": [
            {"index": i, "line": e.line, "event": e.as_data(),
             "steps": [s.as_data() for s in trace if s.event == i]}
            for i, e in enumerate(events, start=1)
        ],
        "situation": situation_data(final),
    }
