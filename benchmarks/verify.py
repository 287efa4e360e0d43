"""Benchmark of the proofs, against an explicit-state search of the same rules.

Not a test: run it by hand, read the medians, copy the tables to docs/benchmarks.md.

    .venv/bin/python benchmarks/verify.py [--runs 5]

1. The whole official verification as a cold process (`shahrazad verify`), median of
   `--runs` runs, wall-clock seconds (process start included), and the run's own figures:
   its wall time, the seconds inside z3's search and building terms (summed over workers).
2. For each example amendment: one counterexample (a cold `shahrazad verify --amendment A
   --only I`, I the first invariant the example says it breaks), then every one it breaks
   (`--only` each of them), median seconds, each minimised, replayed and reached; and
   `shahrazad amend A`, median seconds. Each part ends with how many examples meet the
   issue's target (1 s for one counterexample, 3 s for `amend`).
3. Side by side: the explicit-state search (`proofs/evidence/explicit.py`) over every situation
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


def _refuted(report: str) -> list[str]:
    """The invariants a `verify --format json` report refutes."""
    return [o["invariant"] for o in json.loads(report)["obligations"] if o["status"] == "refuted"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--explicit", default="1,1,1;1,1,2;2,1,1;2,1,2;1,2,1;1,2,2;2,2,1;2,2,2")
    parser.add_argument("--skip", default="",
                        help="comma-separated parts to leave out: amendments,amend,explicit")
    args = parser.parse_args()
    skip = set(args.skip.split(","))

    times, solver = _official(args.runs)
    paths = sorted(glob.glob(str(ROOT / "examples/amendments/*.toml")))
    repeat = max(1, args.runs // 2)
    _counterexamples(paths if "amendments" not in skip else [], repeat)
    _amend(paths if "amend" not in skip else [], repeat)
    if "explicit" not in skip:
        _explicit(args.explicit, times, solver)


def _official(runs: int) -> tuple[list[float], list[float]]:
    """The official rulebook verified `runs` times, each in a cold process: the wall times,
    and each obligation's seconds in the last run."""
    times, out = [], ""
    for _ in range(runs):
        seconds, out = timed(["verify", "--format", "json"])
        times.append(seconds)
    doc = json.loads(out)
    solver = sorted(o["seconds"] for o in doc["obligations"])
    print("## Official rulebook, cold process")
    print(f"runs: {runs}; median wall-clock: {statistics.median(times):.2f} s "
          f"(min {min(times):.2f}, max {max(times):.2f}); obligations: {len(solver)}; "
          f"summary: {doc['summary']}; within 1.5 s: {sum(t <= 1.5 for t in times)} of "
          f"{len(times)} runs")
    print(f"the last run's own figures: {doc['time']}")
    print(f"time per obligation: median {statistics.median(solver) * 1000:.0f} ms, "
          f"90th percentile {solver[int(len(solver) * 0.9)] * 1000:.0f} ms, "
          f"max {solver[-1] * 1000:.0f} ms, total {sum(solver):.1f} s")
    slowest = sorted(doc["obligations"], key=lambda o: -o["seconds"])[:5]
    for o in slowest:
        print(f"  {o['seconds'] * 1000:7.0f} ms  {o['invariant']} @ {o['event']}")
    return times, solver


def _counterexamples(paths: list[str], repeat: int) -> None:
    """Each example amendment's first broken invariant refuted alone, and all it breaks."""
    print("\n## Counterexamples for the example amendments, cold process")
    print("| amendment | one: median s | all it breaks: median s | refuted |")
    print("| --- | --- | --- | --- |")
    from shahrazad.model.amendment import load_amendment

    ones: list[float] = []
    for path in paths:
        breaks = load_amendment(path).breaks
        first = [timed(["verify", "--amendment", path, "--only", breaks[0], "--format", "json"])
                 for _ in range(repeat)]
        if not all(_refuted(out) == [breaks[0]] for _, out in first):
            sys.exit(f"{Path(path).stem}: {breaks[0]} is not refuted alone")
        one = statistics.median(seconds for seconds, _ in first)
        ones.append(one)
        only = [a for b in breaks for a in ("--only", b)]
        # An example that breaks one invariant: "all it breaks" is the command just timed.
        every = first if len(breaks) == 1 else [
            timed(["verify", "--amendment", path, *only, "--format", "json"])
            for _ in range(repeat)]
        runs = [seconds for seconds, _ in every]
        refuted = _refuted(every[-1][1])
        print(f"| {Path(path).stem} | {one:.2f} | {statistics.median(runs):.2f} | "
              f"{', '.join(refuted)} |")
    if ones:
        print(f"one counterexample: median {statistics.median(ones):.2f} s, max {max(ones):.2f} s; "
              f"{sum(t <= 1.0 for t in ones)} of {len(ones)} within 1 s")


def _amend(paths: list[str], repeat: int) -> None:
    """`shahrazad amend` on each example amendment, cold."""
    print("\n## shahrazad amend, cold process")
    print("| amendment | median s |")
    print("| --- | --- |")
    amends: list[float] = []
    for path in paths:
        amends.append(statistics.median(timed(["amend", path])[0] for _ in range(repeat)))
        print(f"| {Path(path).stem} | {amends[-1]:.2f} |")
    if amends:
        print(f"amend: median {statistics.median(amends):.2f} s, max {max(amends):.2f} s; "
              f"{sum(t <= 3.0 for t in amends)} of {len(amends)} within 3 s")


def _explicit(triples: str, times: list[float], solver: list[float]) -> None:
    """The explicit-state search at each size of `triples`, beside the proof."""
    print("\n## Explicit-state search against the proof")
    print("| players | cards | games deep | situations | transitions | checks | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    from shahrazad.model.rulebook import official
    from shahrazad.proofs.evidence.explicit import search

    for triple in triples.split(";"):
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
