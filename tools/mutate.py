"""A mutation run of the project's own: small, meaningful changes to the encoder, the
interpreter, the concrete reader and the rulebook, each applied alone, and the checks that
should catch it. Not a test: run it by hand, on a clean work tree.

    .venv/bin/python tools/mutate.py [--only ID ...] [--list]

For each mutant it replaces one snippet of one file (which must occur exactly once), runs
the killers, and restores the file whatever happens:

1. `shahrazad verify --jobs 1` on the official rules: a proof that now fails (exit 1 or 3);
2. transition conformance on every step of every example (`tests/test_conformance.py`,
   slow tests included);
3. the regression tests of the audit (`tests/test_false_proofs.py`, `tests/test_bounds.py`).

A mutant is *killed* when any killer fails, and *survives* otherwise. The score and every
survivor, with the reason it survives, are in `docs/mutation.md`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str
    old: str
    new: str
    what: str


MUTANTS = [
    Mutant("enc.move-keeps-controller", "proofs/object_steps.py",
           '"controller": z3.Lambda([o], z3.If(moved, controller, s.get("controller", o))),',
           '"controller": z3.Lambda([o], s.get("controller", o)),',
           "encoder: a moved object keeps its controller"),
    Mutant("enc.move-keeps-phasing", "proofs/object_steps.py",
           '"phased_out": z3.Lambda([o], z3.If(moved, enc.false(), s.get("phased_out", o))),',
           '"phased_out": z3.Lambda([o], s.get("phased_out", o)),',
           "encoder: a moved object keeps its phasing"),
    Mutant("enc.move-keeps-counters", "proofs/object_steps.py",
           '"has_counters": z3.Lambda([o], z3.If(moved, enc.false(), s.get("has_counters", o))),',
           '"has_counters": z3.Lambda([o], s.get("has_counters", o)),',
           "encoder: a moved object keeps its counters"),
    Mutant("enc.bring-in-phased-out", "proofs/events.py",
           'z3.Or(*allowed_from), z3.Not(pre.get("phased_out", card)),',
           'z3.Or(*allowed_from),',
           "encoder: a phased-out card can be brought in"),
    Mutant("enc.no-began-in-deck-mark", "proofs/object_steps.py",
           'if dest.mark == "began-in-deck" and deck is not None:',
           'if False and deck is not None:',
           "encoder: the began-in-deck mark is not set"),
    Mutant("enc.face-ignored", "proofs/object_steps.py",
           'if dest.face != "keep":', 'if False:',
           "encoder: a destination's face is ignored"),
    Mutant("enc.destroyed-game-keeps-players", "proofs/game_steps.py",
           'for attribute in ("plays", "starts", "doomed"):',
           'for attribute in ("starts", "doomed"):',
           "encoder: a game whose zones cease keeps its players"),
    Mutant("int.leaver-keeps-effects", "model/actions.py",
           "    state.player_effects.pop(player, None)  # no effect acts on a player who left\n",
           "",
           "interpreter: effects keep acting on a player who left"),
    Mutant("conc.counters-count-kinds", "invariants/concrete.py",
           "return sum(state.player_counters.get((g, str(extra)), {}).values())",
           "return len(state.player_counters.get((g, str(extra)), {}))",
           "concrete reader: counters on a player counted by kind"),
    Mutant("rules.supplementary-to-top", "model/rulebook.toml",
           'deck = "began-in", position = "bottom", face = "down"',
           'deck = "began-in", position = "top", face = "down"',
           "rulebook: supplementary cards return to the top of their deck (728.5a says bottom)"),
    Mutant("rules.restart-keeps-faces", "model/rulebook.toml",
           'move-to = { game = "new", zone = "library", whose = "owner", face = "up" }',
           'move-to = { game = "new", zone = "library", whose = "owner" }',
           "rulebook: a restart keeps traditional cards' faces"),
]

KILLERS = [
    ("verify", [str(ROOT / ".venv/bin/shahrazad"), "verify", "--jobs", "1"]),
    ("conformance", [PYTHON, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-m",
                     "slow or not slow", "tests/test_conformance.py", "-k", "example"]),
    ("regressions", [PYTHON, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                     "tests/test_false_proofs.py", "tests/test_bounds.py"]),
]


def run(mutant: Mutant) -> tuple[str | None, float]:
    """Apply, run the killers until one fails, restore. Returns the killer that failed."""
    path = ROOT / mutant.file
    text = path.read_text()
    if text.count(mutant.old) != 1:
        raise SystemExit(f"{mutant.id}: the snippet occurs {text.count(mutant.old)} times "
                         f"in {mutant.file}")
    start = time.perf_counter()
    try:
        path.write_text(text.replace(mutant.old, mutant.new))
        for name, command in KILLERS:
            done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
            if done.returncode != 0:
                return name, time.perf_counter() - start
        return None, time.perf_counter() - start
    finally:
        path.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    chosen = [m for m in MUTANTS if not args.only or m.id in args.only]
    if args.list:
        for m in chosen:
            print(f"{m.id:34} {m.what}")
        return
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout
    if dirty.strip():
        raise SystemExit("the work tree has changes: commit or stash them first")
    killed = 0
    for mutant in chosen:
        killer, seconds = run(mutant)
        killed += killer is not None
        verdict = f"killed by {killer}" if killer else "SURVIVED"
        print(f"{mutant.id:34} {verdict:24} {seconds:6.1f} s  {mutant.what}", flush=True)
    print(f"\n{killed} of {len(chosen)} mutants killed")


if __name__ == "__main__":
    main()
