"""Benchmark of the scenario reader: how long reading a scenario file takes as it grows.
Not a test: run it by hand and read the medians.

    .venv/bin/python benchmarks/read.py [--sizes 2000,10000,50000] [--repeat 3]

For each size N it writes a scenario of N cards (every card of one player in exile, as
the audit's generator did), in TOML and in JSON, and times `load_scenario` on each, with
the structural check that `simulate` applies (`invariants.structure.problems`). It
prints the median seconds, the cards read per second and the ratio of each size's time to
the previous one's: a linear reader keeps the rate flat and the ratio near the ratio of
the sizes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from shahrazad.invariants.structure import problems
from shahrazad.model.scenario import load_scenario


def scenario_text(n: int) -> str:
    lines = ['players = ["Ann"]', "[[game]]", 'id = "main"']
    for i in range(n):
        lines += ["[[card]]", f'id = "c{i}"', 'owner = "Ann"', 'at = "main/exile"']
    return "\n".join(lines) + "\n"


def scenario_json(n: int) -> str:
    return json.dumps({"players": ["Ann"], "game": [{"id": "main"}],
                       "card": [{"id": f"c{i}", "owner": "Ann", "at": "main/exile"}
                                for i in range(n)]}, indent=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2000,10000,50000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        for fmt, write in (("toml", scenario_text), ("json", scenario_json)):
            previous: float | None = None
            for n in sizes:
                path = Path(tmp) / f"s{n}.{fmt}"
                path.write_text(write(n))
                times = []
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    load_scenario(path, check=problems)
                    times.append(time.perf_counter() - start)
                median = statistics.median(times)
                ratio = f"  x{median / previous:.1f}" if previous else ""
                print(f"{fmt:4} {n:>7} cards: {median:7.3f} s  ({n / median:,.0f} cards/s){ratio}")
                previous = median


if __name__ == "__main__":
    main()
