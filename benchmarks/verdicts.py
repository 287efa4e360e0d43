"""Every obligation decided: faults and unknowns, and `history`'s cost against `verify`'s.

For contributors who change the prover. In one run, side by side on the same machine:

* a cold official `shahrazad verify` (`--runs` times; the median is the baseline);
* `shahrazad history examples/history` (`--history-runs` times, JSON): its wall time, and
  the faults and unknown obligations over the 28 past wordings;
* `shahrazad verify --amendment A` for each example amendment (`examples/amendments/`):
  their faults and unknowns.

It prints one table: the ratio of `history`'s median to `verify`'s (the target of issue 38:
at most 40), and the counts (the target: 0 and 0). Each command runs in a fresh process
with `--no-cache` where it has one, so every figure is cold.

    python benchmarks/verdicts.py [--runs 3] [--history-runs 1] [--skip amendments]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHAHRAZAD = [sys.executable, "-m", "shahrazad"]


def _timed(args: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)
    return time.perf_counter() - start, done


def _history(runs: int) -> tuple[list[float], int, int]:
    """`history`'s wall times, and its faults and unknowns (of the last run)."""
    times: list[float] = []
    faults = unknown = 0
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "history.json"
            took, done = _timed([*SHAHRAZAD, "history", "examples/history", "--format", "json",
                                 "-o", str(out), "--counterexamples", folder])
            if done.returncode not in (0, 1, 3):
                raise SystemExit(f"history failed: {done.stderr.strip()[-400:]}")
            times.append(took)
            wordings = json.loads(out.read_text(encoding="utf-8"))["wordings"]
            faults = sum(len(w["faults"]) for w in wordings)
            unknown = sum(len(w["unknown"]) for w in wordings)
    return times, faults, unknown


def _amendments() -> tuple[int, int, int]:
    """Over the example amendments: how many, and their faults and unknowns."""
    faults = unknown = 0
    files = sorted((ROOT / "examples" / "amendments").glob("*.toml"))
    for path in files:
        _, done = _timed([*SHAHRAZAD, "verify", "--no-cache", "--format", "json",
                          "--amendment", str(path)])
        summary = json.loads(done.stdout)["summary"]
        faults += summary.get("fault", 0)
        unknown += summary.get("unknown", 0)
    return len(files), faults, unknown


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="cold official verify runs")
    parser.add_argument("--history-runs", type=int, default=1, help="history runs")
    parser.add_argument("--skip", action="append", default=[], choices=["amendments"],
                        help="leave a part out")
    args = parser.parse_args(argv)
    verify = [_timed([*SHAHRAZAD, "verify", "--no-cache"])[0] for _ in range(args.runs)]
    history, faults, unknown = _history(args.history_runs)
    base, cost = statistics.median(verify), statistics.median(history)
    print("| measure | figure |")
    print("| --- | --- |")
    print(f"| official `verify`, cold (median of {args.runs}) | {base:.2f} s |")
    print(f"| `history` (median of {args.history_runs}) | {cost:.1f} s |")
    print(f"| `history` / `verify` (target at most 40) | **{cost / base:.0f}x** |")
    print(f"| 28 past wordings: faults, unknown (target 0, 0) | {faults}, {unknown} |")
    if "amendments" not in args.skip:
        count, a_faults, a_unknown = _amendments()
        print(f"| {count} example amendments: faults, unknown | {a_faults}, {a_unknown} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
