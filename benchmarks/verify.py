"""Benchmark of the proofs, against an explicit-state search of the same rules.

Not a test: run it by hand, read the medians, copy the tables to docs/benchmarks.md.

    .venv/bin/python benchmarks/verify.py [--runs 5]

1. The whole official verification as a cold process (`shahrazad verify`), median of
   `--runs` runs, wall-clock seconds (process start included), and the run's own figures:
   its wall time, the seconds inside z3's search and building terms (summed over workers).
2. A counterexample for each example amendment (a cold `shahrazad verify --amendment A
   --only <what it breaks>`), median seconds; and `shahrazad amend A`, median seconds.
3. Side by side: the explicit-state search (`proofs/explicit.py`) over every situation
   with P players, C cards and D nested games, which covers only that size, and the proof,
   which covers every size and does not grow.
"""

from __future__ import annotations

import argparse
import glob
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXE = str(Path(sys.executable).parent / "shahrazad")


def timed(args: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([EXE, *args], capture_output=True, text=True, check=False)
    return time.perf_counter() - start, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--explicit", default="1,1,1;1,1,2;2,1,1;2,1,2;1,2,1;1,2,2;2,2,1;2,2,2")
    parser.add_argument("--skip", default="",
                        help="comma-separated parts to leave out: amendments,amend,explicit")
    args = parser.parse_args()
    skip = set(args.skip.split(","))

    times, out = [], ""
    for _ in range(args.runs):
        seconds, out = timed(["verify", "--format", "json"])
        times.append(seconds)
    doc = json.loads(out)
    solver = sorted(o["seconds"] for o in doc["obligations"])
    print("## Official rulebook, cold process")
    print(f"runs: {args.runs}; median wall-clock: {statistics.median(times):.2f} s "
          f"(min {min(times):.2f}, max {max(times):.2f}); obligations: {len(solver)}; "
          f"summary: {doc['summary']}")
    print(f"the last run's own figures: {doc['time']}")
    print(f"time per obligation: median {statistics.median(solver) * 1000:.0f} ms, "
          f"90th percentile {solver[int(len(solver) * 0.9)] * 1000:.0f} ms, "
          f"max {solver[-1] * 1000:.0f} ms, total {sum(solver):.1f} s")
    slowest = sorted(doc["obligations"], key=lambda o: -o["seconds"])[:5]
    for o in slowest:
        print(f"  {o['seconds'] * 1000:7.0f} ms  {o['invariant']} @ {o['event']}")

    print("\n## Counterexamples for the example amendments, cold process")
    print("| amendment | median s | refuted |")
    print("| --- | --- | --- |")
    from shahrazad.proofs.amendment import load_amendment

    paths = sorted(glob.glob(str(ROOT / "examples/amendments/*.toml")))
    for path in paths if "amendments" not in skip else []:
        breaks = load_amendment(path).breaks
        only = [a for b in breaks for a in ("--only", b)]
        runs = []
        for _ in range(max(1, args.runs // 2)):
            seconds, out = timed(["verify", "--amendment", path, *only, "--format", "json"])
            runs.append(seconds)
        refuted = [o["invariant"] for o in json.loads(out)["obligations"]
                   if o["status"] == "refuted"]
        print(f"| {Path(path).stem} | {statistics.median(runs):.2f} | {', '.join(refuted)} |")

    print("\n## shahrazad amend, cold process")
    print("| amendment | median s |")
    print("| --- | --- |")
    for path in paths if "amend" not in skip else []:
        runs = [timed(["amend", path])[0] for _ in range(max(1, args.runs // 2))]
        print(f"| {Path(path).stem} | {statistics.median(runs):.2f} |")

    if "explicit" in skip:
        return
    print("\n## Explicit-state search against the proof")
    print("| players | cards | games deep | situations | transitions | checks | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    from shahrazad.model.rulebook import official
    from shahrazad.proofs.explicit import search

    for triple in args.explicit.split(";"):
        players, cards, depth = (int(x) for x in triple.split(","))
        start = time.perf_counter()
        stats, found = search(official(), players, cards, depth)
        seconds = time.perf_counter() - start
        assert not found, found[:3]
        print(f"| {players} | {cards} | {depth} | {stats.situations} | {stats.transitions} | "
              f"{stats.checks} | {seconds:.2f} |")
    print(f"| any | any | any | (proof) | | {len(solver)} obligations | "
          f"{statistics.median(times):.2f} |")


if __name__ == "__main__":
    main()
