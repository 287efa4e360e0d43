"""Benchmark of the concrete interpreter: how long subgame and restart events take as the
situation grows. Not a test: run it by hand and read the medians.

    .venv/bin/python benchmarks/simulate.py [--sizes 100,1000,10000] [--repeat 5]

For each size N it builds a situation of 4 players with N cards spread over every zone
(libraries, hands, graveyards, battlefield, exile, outside the game) and N/10 tokens, then
times, over `--repeat` runs, the sequence: start a subgame, start a sub-subgame, bring a
card in from the main game, end both subgames, restart the game. It prints the median
seconds per sequence, the ratio to the previous size, and cards per second (the same
figure at every size means linear).

It also prints, as `bare/s`, the cards per second of a bare Python loop over as many cards
(`bare`): copy each object, then move each from its zone to another, three times, with
nothing of the rules. Its rate falls with the size as well, the cost of a process whose
objects no longer fit in the processor's caches; `of bare` is the interpreter's rate as a
share of it, which stays level where the interpreter adds no cost of its own that grows
faster than the cards.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from dataclasses import dataclass, field

from shahrazad.model.choices import SeededChooser
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.objects import GameObject, ZoneRef
from shahrazad.model.state import Game, Situation

PLAYERS = ["Ann", "Bob", "Cat", "Dan"]


def build(n: int) -> Situation:
    state = Situation(players=list(PLAYERS))
    game = Game(id="main", players=list(PLAYERS))
    state.games["main"] = game
    state.create_zones(game)
    for p in PLAYERS:
        state.outside(p)
    places = ["library", "library", "library", "hand", "graveyard", "battlefield", "exile",
              "outside"]
    for i in range(n):
        owner = PLAYERS[i % len(PLAYERS)]
        kind = places[i % len(places)]
        if kind in ("library", "hand", "graveyard"):
            zone = ZoneRef("main", kind, owner)
        elif kind == "outside":
            zone = ZoneRef(None, "outside", owner)
        else:
            zone = ZoneRef("main", kind)
        card = GameObject(id=f"c{i}", kind="card", owner=owner, controller=owner,
                          triggers=["leaves-zone"] if i == 5 else [])
        state.objects[card.id] = card
        state.place(card.id, zone, "bottom")
    for i in range(n // 10):
        token = GameObject(id=f"t{i}", kind="token", owner=PLAYERS[0], controller=PLAYERS[0],
                           game_of_origin="main")
        state.objects[token.id] = token
        state.place(token.id, ZoneRef("main", "battlefield"))
    return state


def events(n: int) -> list[Event]:
    graveyard_card = next(f"c{i}" for i in range(n) if i % 8 == 4)
    return [
        Event("start-subgame", {"by": "Ann"}),
        Event("start-subgame", {"by": "Bob", "card": "Enter the Dungeon"}),
        Event("end-subgame", {"winner": ["Bob"]}),
        Event("bring-in", {"card": graveyard_card}),
        Event("end-subgame", {"draw": True}),
        Event("restart", {"controller": "Cat"}),
    ]


@dataclass(slots=True)
class _Card:
    id: str
    zone: str
    owner: str
    counters: dict[str, int] = field(default_factory=dict)
    triggers: list[str] = field(default_factory=list)


def bare(n: int) -> float:
    """Cards per second of the bare loop (module docstring) over `n` cards, the cycle
    collector off as the interpreter has it."""
    cards = {f"c{i}": _Card(f"c{i}", f"z{i % 8}", PLAYERS[i % 4]) for i in range(n)}
    zones: dict[str, dict[str, None]] = {}
    for key, card in cards.items():
        zones.setdefault(card.zone, {})[key] = None
    was_on = gc.isenabled()
    gc.disable()
    start = time.perf_counter()
    for _ in range(3):
        copied = {key: _Card(c.id, c.zone, c.owner, dict(c.counters), list(c.triggers))
                  for key, c in cards.items()}
        moved: dict[str, dict[str, None]] = {}
        for zone, members in zones.items():
            for key in members:
                card = copied[key]
                card.zone = "next " + zone
                moved.setdefault(card.zone, {})[key] = None
        cards, zones = copied, moved
    seconds = time.perf_counter() - start
    if was_on:
        gc.enable()
    return n / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000,50000")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    previous: float | None = None
    print(f"{'cards':>8} {'objects':>8} {'median s':>10} {'ratio':>7} {'cards/s':>9} "
          f"{'bare/s':>9} {'of bare':>8}")
    for n in (int(s) for s in args.sizes.split(",")):
        state, evs = build(n), events(n)
        times = []
        for run in range(args.repeat):
            interpreter = Interpreter(chooser=SeededChooser(run))
            start = time.perf_counter()
            interpreter.run(state, evs)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        ratio = f"{median / previous:7.1f}" if previous else "       "
        loop = statistics.median(bare(n) for _ in range(args.repeat))
        print(f"{n:>8} {len(state.objects):>8} {median:>10.4f} {ratio} {n / median:>9.0f} "
              f"{loop:>9.0f} {n / median / loop:>8.1%}")
        previous = median


if __name__ == "__main__":
    main()
