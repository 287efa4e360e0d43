"""Two command lines timed alternately: their medians and the ratio, B over A.

Not a test: run it by hand, copy its line to docs/benchmarks.md.

    python3 benchmarks/ab.py [--capture] N "A's command line" "B's command line"

On a machine whose speed drifts (this one's did by up to 40% within an hour), two
commands timed one after the other compare the machine's two moods as much as the code;
alternated, each pair of runs shares the mood, and the ratio of the medians holds where
the seconds do not. Typically A is the code at some commit (a `git worktree` with its own
virtual environment) and B today's, the same arguments for both. Wall-clock seconds,
process start included; the commands' output is discarded, or with `--capture` read
through pipes to their end, as `benchmarks/verify.py` and a CI log read it (a process that
has exited is then timed until every process that holds its output has let go of it).
"""

from __future__ import annotations

import shlex
import statistics
import subprocess
import sys
import time


def timed(command: list[str], capture: bool) -> float:
    start = time.perf_counter()
    if capture:
        subprocess.run(command, capture_output=True, check=False)
    else:
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=False)
    return time.perf_counter() - start


def main() -> int:
    args = sys.argv[1:]
    capture = args[:1] == ["--capture"]
    args = args[1:] if capture else args
    if len(args) != 3 or not args[0].isdigit():
        print(__doc__.splitlines()[4].strip(), file=sys.stderr)
        return 2
    runs = int(args[0])
    commands = [shlex.split(args[1]), shlex.split(args[2])]
    seconds: list[list[float]] = [[], []]
    for _ in range(runs):
        for command, times in zip(commands, seconds, strict=True):
            times.append(timed(command, capture))
    a, b = (statistics.median(times) for times in seconds)
    print(f"A median {a:.3f} s ({min(seconds[0]):.2f}-{max(seconds[0]):.2f}); "
          f"B median {b:.3f} s ({min(seconds[1]):.2f}-{max(seconds[1]):.2f}); "
          f"B/A {b / a:.2f}; {runs} runs each, alternated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
