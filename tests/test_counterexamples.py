"""Every refutation is a game that can happen, and the same one every time.

For every example amendment (slow: one `shahrazad verify` per amendment and per run):

* each refutation starts from a legal situation and carries a reaching trace that
  replays from a game's beginning under the amended rules;
* three runs, with different `--jobs` and `PYTHONHASHSEED`, give the same JSON report
  (time figures aside) and byte-identical `--explain-dir` scenario files; for four of
  them, the text, JUnit and SARIF reports too;
* on small sizes, the explicit-state search finds no counterexample smaller than the one
  shown (fewest games, then players, then cards: the search has cards only, and the
  spell or ability that created a subgame is implicit in it).

The same for `shahrazad protection --removals-only` on clauses of every event: each removal
is caught by a refutation that is legal, reached, and the same in three runs.

The default run checks legality and the trace of every amendment in
`tests/test_proofs.py::test_each_amendment_breaks_what_it_says`, and of every removal in
`test_every_clause_is_protected`; this file adds the rest.
"""

from __future__ import annotations

import glob
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from shahrazad.invariants.catalog import by_id
from shahrazad.invariants.structure import catalog_problems
from shahrazad.model.amendment import load_amendment
from shahrazad.model.rulebook import official
from shahrazad.model.scenario import Scenario, load_scenario, parse_scenario
from shahrazad.proofs.evidence.explicit import search
from shahrazad.proofs.evidence.reach import is_beginning, refuted, replay_reached

ROOT = Path(__file__).resolve().parent.parent
AMENDMENTS = sorted(glob.glob(str(ROOT / "examples" / "amendments" / "*.toml")))
# Three runs: (--jobs, PYTHONHASHSEED).
RUNS = (("1", "0"), ("2", "1"), ("1", "4242"))
# Time figures: "(0.31 s)", "(4.2 s wall; 3.1 s solving, 1.2 s encoding)", JSON's
# "seconds", "wall-seconds", ... and JUnit's time="...".
TIMES = re.compile(r"\(\d+(\.\d+)? s( wall; [0-9.]+ s solving, [0-9.]+ s encoding)?\)"
                   r"|\"([a-z]+-)?seconds\": [0-9.e-]+|time=\"[0-9.]+\"")


# Amendments whose counterexamples are small enough to compare with every smaller
# situation of the explicit-state search (which has cards only, no tokens or effects), and
# whose every report format is compared across runs.
SMALL = ("728.5c-forgotten", "728.5-without-command-exception", "726.6-forgotten",
         "restart-random-starting-player")


def _run(args: list[str], jobs: str, hashseed: str) -> tuple[int, str]:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    done = subprocess.run([sys.executable, "-m", "shahrazad", *args, "--jobs", jobs],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=1200)
    return done.returncode, TIMES.sub(
        lambda m: m.group(0).split(":")[0] + ": 0" if m.group(0).startswith('"') else "<time>",
        done.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("path", AMENDMENTS, ids=lambda p: Path(p).stem)
def test_every_refutation_is_legal_reached_and_the_same_every_time(
        path: str, tmp_path: Path) -> None:
    amendment = load_amendment(path)
    rulebook = amendment.apply(official())
    only = [arg for inv in amendment.breaks for arg in ("--only", inv)]
    seen: dict[str, set[str]] = {}
    files: set[tuple[tuple[str, bytes], ...]] = set()
    # Every report format for a few amendments; JSON and the scenario files for all.
    formats = ("json", "text", "junit", "sarif") if Path(path).stem in SMALL else ("json",)
    for index, (jobs, hashseed) in enumerate(RUNS):
        folder = tmp_path / f"run{index}"
        for fmt in formats:
            extra = ["--explain-dir", str(folder)] if fmt == "json" else []
            code, out = _run(["verify", "--amendment", path, *only, "--format", fmt, *extra],
                             jobs, hashseed)
            assert code == 1, out
            seen.setdefault(fmt, set()).add(out)
        files.add(tuple(sorted((p.name, p.read_bytes()) for p in folder.glob("*.toml"))))
    assert all(len(outputs) == 1 for outputs in seen.values()), \
        [fmt for fmt, outputs in seen.items() if len(outputs) > 1]
    assert len(files) == 1
    report = json.loads(seen["json"].pop())
    refutations = [ob for ob in report["obligations"] if ob["status"] == "refuted"]
    assert refutations and not [ob for ob in report["obligations"] if ob["status"] == "fault"]
    written = {p.name for p in (tmp_path / "run0").glob("*.toml")}
    for ob in refutations:
        stem = f"{ob['invariant']}@{ob['event']}"
        assert f"{stem}.toml" in written and f"{stem}.trace.toml" in written
        before = load_scenario(tmp_path / "run0" / f"{stem}.toml")
        assert catalog_problems(before.situation) == []
        trace = load_scenario(tmp_path / "run0" / f"{stem}.trace.toml")
        assert is_beginning(trace.situation) == []
        goal = refuted(by_id(ob["invariant"]))
        assert replay_reached(trace, rulebook, goal) is None


@pytest.mark.slow
@pytest.mark.parametrize("name", SMALL)
def test_no_smaller_counterexample_exists(name: str) -> None:
    from shahrazad.proofs.solving.obligations import Status
    from shahrazad.proofs.verdicts.run import verify

    amendment = load_amendment(ROOT / "examples" / "amendments" / f"{name}.toml")
    rulebook = amendment.apply(official())
    for r in verify(rulebook, only=amendment.breaks):
        if r.status != Status.REFUTED or r.counterexample is None:
            continue
        s = r.counterexample.situation
        size = (len(s.games), len(s.players), len(s.cards()))
        smaller = [(g, p, c) for g in (1, 2) for p in (1, 2) for c in (0, 1, 2)
                   if (g, p, c) < size]
        for games, players, cards in smaller:
            _, found = search(rulebook, players, cards, games, [r.obligation.invariant])
            assert [v for v in found if v.event.kind == r.obligation.event] == [], \
                (r.obligation.name, size, (games, players, cards))


# Clauses of every event, whose removals `shahrazad protection` catches.
PROTECTED = ("subgame.start.libraries", "subgame.bring-in.leave-triggers",
             "subgame.end.return-cards", "subgame.end.release-triggers",
             "subgame.separate-effects", "restart.cards-involved", "restart.nothing-else")


@pytest.mark.slow
def test_protection_refutations_are_legal_reached_and_the_same_every_time() -> None:
    clauses = [arg for name in PROTECTED for arg in ("--clause", name)]
    outputs = {_run(["protection", "--removals-only", *clauses, "--format", "json"],
                    jobs, hashseed)[1] for jobs, hashseed in RUNS}
    assert len(outputs) == 1
    report = json.loads(outputs.pop())
    assert [c["clause"] for c in report["changes"]] == list(PROTECTED)
    for change in report["changes"]:
        assert change["status"] == "protected", change
        situation = load_data(change["scenario"]).situation
        assert catalog_problems(situation) == []
        trace = load_data(change["trace"])
        assert is_beginning(trace.situation) == []
        goal = refuted(by_id(change["caught-by"]))
        assert replay_reached(trace, official().remove(change["clause"]), goal) is None


def load_data(data: dict[str, object]) -> Scenario:
    return parse_scenario(json.dumps(data), file="protection.json", fmt="json")


def test_the_minimiser_drops_links_and_types_that_do_not_matter() -> None:
    """What exiled a card and a card's types are details like counters: a counterexample
    keeps them only where they matter."""
    from shahrazad.proofs.evidence.counterexample import shrink

    from tests.situations import build, card

    scenario = Scenario(build(["Ann", "Bob"], cards=[
        card("karn", "Ann", "main/battlefield", types=["planeswalker"]),
        card("aura", "Bob", "main/exile", types=["enchantment"], subtypes=["Aura"],
             exiled_with="karn")]), [])
    kept = shrink(scenario, lambda s: "aura" in s.situation.objects)
    aura = kept.situation.objects["aura"]
    assert (aura.exiled_with, aura.types, aura.subtypes) == (None, ("creature",), ())

    def linked(s: Scenario) -> bool:
        card = s.situation.objects.get("aura")
        return card is not None and card.exiled_with == "karn"

    assert shrink(scenario, linked).situation.objects["aura"].exiled_with == "karn"


def test_the_minimiser_counts_counters_by_one_where_one_does() -> None:
    """The solver's model gives a player, or an event, any number of counters (24,360
    poison counters, say): a counterexample keeps one (or removes one) where one does as
    well, and keeps the number where it matters."""
    from shahrazad.model.events import Event
    from shahrazad.proofs.evidence.counterexample import shrink

    from tests.situations import build

    situation = build(["Ann", "Bob"], counters=[
        {"game": "main", "player": "Bob", "kind": "poison", "count": 24360}])
    events = [Event("counter", {"player": "Ann", "kind": "poison", "add": 5082}),
              Event("counter", {"player": "Bob", "kind": "poison", "add": -14684})]
    scenario = Scenario(situation, events)

    def poisoned(s: Scenario) -> bool:
        return s.situation.player_counters.get(("main", "Bob"), {}).get("poison", 0) > 0

    kept = shrink(scenario, poisoned)
    assert kept.situation.player_counters[("main", "Bob")] == {"poison": 1}
    assert [e.args["add"] for e in kept.events] == [1, -1]

    def many(s: Scenario) -> bool:
        return s.situation.player_counters.get(("main", "Bob"), {}).get("poison", 0) > 100

    assert shrink(scenario, many).situation.player_counters[("main", "Bob")] == \
        {"poison": 24360}
