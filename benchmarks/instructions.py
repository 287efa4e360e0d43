"""Benchmark of the concrete interpreter in instructions, not seconds: is its work linear?

Not a test: run it by hand and read the table. Needs valgrind (on this project's machines).

    .venv/bin/python benchmarks/instructions.py [--sizes 10000,200000] [--cache]

`benchmarks/simulate.py` times the interpreter, and on a shared machine its cards per
second move by a third from one run to the next, and fall with the size as the objects
outgrow the processor's caches. This script counts what the interpreter does instead:
for each size N it runs the same situation and six events as `simulate.py` under
valgrind's callgrind, twice (the situation built; the situation built and the events
run), and prints the difference, the instructions that the events (and the freeing of
their outcome) executed, per card. Those counts are the same on every run of the same
Python and the same code, whatever the load. The same figure at every size means the
interpreter's work is linear in the cards; what then remains of a lower rate at a larger
size is the memory: with `--cache`, valgrind's cachegrind also simulates the caches, and
the table gives the misses of the last level per card (data reads and writes), which
grow with the size where the instructions do not.

Each run under valgrind takes 30 to 60 times as long as without it: at 200,000 cards,
several minutes.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The last-level cache that cachegrind simulates: size in bytes, ways, line size. This
# machine's (`lscpu`: 32 MiB of L3, 64-byte lines; 16 ways on its EPYC kind). Left to
# itself, cachegrind took the size the virtual machine reports, 320 MiB in one way.
LAST_LEVEL = "33554432,16,64"


def child(n: int, mode: str) -> None:
    """In the process under valgrind: build the situation, and in mode "run" run the
    events and free what they made."""
    sys.path.insert(0, str(HERE))
    import simulate  # the benchmark next to this one
    from shahrazad.model.choices import SeededChooser
    from shahrazad.model.interpreter import Interpreter

    state, events = simulate.build(n), simulate.events(n)
    if mode == "run":
        outcome = Interpreter(chooser=SeededChooser(0)).run(state, events)
        del outcome


def counted(n: int, mode: str, cache: bool) -> dict[str, int]:
    """valgrind's totals for one child: instructions ("I"), and with `cache` the
    last-level misses of data reads ("DLmr") and writes ("DLmw")."""
    with tempfile.TemporaryDirectory() as scratch:
        tool = ["--tool=cachegrind", "--cache-sim=yes", f"--LL={LAST_LEVEL}",
                f"--cachegrind-out-file={scratch}/out"] if cache else \
            ["--tool=callgrind", f"--callgrind-out-file={scratch}/out"]
        done = subprocess.run(["valgrind", *tool, sys.executable, __file__, "--child",
                               str(n), mode], capture_output=True, text=True, check=True)
    totals: dict[str, int] = {}
    for key, pattern in (("I", r"I\s+refs:\s+([\d,]+)"), ("DLmr", r"LLd misses:.*?\(\s*([\d,]+) rd"),
                         ("DLmw", r"LLd misses:.*?rd\s*\+\s*([\d,]+) wr")):
        found = re.search(pattern, done.stderr)
        if found:
            totals[key] = int(found.group(1).replace(",", ""))
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,200000")
    parser.add_argument("--cache", action="store_true",
                        help="simulate the caches (cachegrind) and give the misses too")
    parser.add_argument("--child", nargs=2, metavar=("N", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(int(args.child[0]), args.child[1])
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    header = f"{'cards':>8} {'instructions/card':>18} {'ratio':>7}"
    if args.cache:
        header += f" {'LL data misses/card':>20} {'ratio':>7}"
    print(header)
    first: dict[str, float] = {}
    for n in sizes:
        built, ran = counted(n, "build", args.cache), counted(n, "run", args.cache)
        per = {key: (ran[key] - built[key]) / n for key in ran}
        misses = per.get("DLmr", 0.0) + per.get("DLmw", 0.0)
        first.setdefault("I", per["I"])
        first.setdefault("misses", misses)
        line = f"{n:>8} {per['I']:>18,.0f} {per['I'] / first['I']:>7.3f}"
        if args.cache:
            ratio = misses / first["misses"] if first["misses"] else float("nan")
            line += f" {misses:>20,.1f} {ratio:>7.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
