"""Stress test: `shahrazad verify` and `shahrazad amend` many times in a row; does the tool
ever crash?

Not a test: run it by hand, copy its last lines to docs/benchmarks.md.

    .venv/bin/python benchmarks/stress.py [--runs 200] [--amendment FILE] [--jobs 2]

Each round runs, as a fresh process, `shahrazad verify` on the official rules and
`shahrazad amend` on one example amendment (`--amendment`, by default each example in
turn). A run is a crash when the process:

* ends with an exit code its command does not document (verify: 0 all proved, 1 refuted,
  3 unknown; amend: 0, 1, or 3 when undecided or unseen), or with a signal;
* reports an internal error (exit 3 with "internal error" on stderr); or
* answers "unknown" for an obligation because its worker process died, or says on standard
  error that a worker died (the pool survives that, running the work again, but it is a
  crash of z3 all the same, and is counted).

Prints one line per crash and, at the end, the counts and the median wall-clock seconds of
each command.
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
EXITS = {"verify": {0, 1, 3}, "amend": {0, 1, 3}}


def run(args: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    done = subprocess.run([EXE, *args], capture_output=True, text=True, check=False, cwd=ROOT)
    return time.perf_counter() - start, done


def crash(command: str, done: subprocess.CompletedProcess[str]) -> str | None:
    """Why this run counts as a crash, or None."""
    if done.returncode not in EXITS[command]:
        return f"exit {done.returncode}: {(done.stderr.strip().splitlines() or [''])[-1]}"
    if "internal error" in done.stderr:
        return done.stderr.strip().splitlines()[-1]
    if "worker process died" in done.stdout:
        return "a worker process died (its obligation came out unknown)"
    if "worker process died" in done.stderr:
        return "a worker process died (its work was run again)"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--jobs", default="2")
    parser.add_argument("--amendment", action="append", default=[])
    args = parser.parse_args()
    amendments = args.amendment or sorted(
        glob.glob(str(ROOT / "examples" / "amendments" / "*.toml")))
    seconds: dict[str, list[float]] = {"verify": [], "amend": []}
    crashes: dict[str, int] = {"verify": 0, "amend": 0}
    for index in range(args.runs):
        rounds = (("verify", ["verify", "--jobs", args.jobs, "--format", "json"]),
                  ("amend", ["amend", amendments[index % len(amendments)], "--jobs", args.jobs,
                             "--format", "json"]))
        for command, argv in rounds:
            took, done = run(argv)
            seconds[command].append(took)
            why = crash(command, done)
            if why is None and command == "verify":
                json.loads(done.stdout)  # a report that does not parse is a crash too
            if why is not None:
                crashes[command] += 1
                print(f"run {index + 1}: {' '.join(argv)}: {why}", flush=True)
        if (index + 1) % 10 == 0:
            print(f"{index + 1} rounds, crashes: {crashes}", flush=True)
    for command in seconds:
        print(f"{command}: {args.runs} runs, {crashes[command]} crashes, median "
              f"{statistics.median(seconds[command]):.2f} s wall-clock")
    return 1 if any(crashes.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
