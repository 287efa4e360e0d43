"""The command line: simulate, graph and rules, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from shahrazad.cli import main

SCENARIO = """\
title = "Shahrazad, a Living Wish, and the end of the subgame"
players = ["Ann", "Bob"]
seed = 1

[[game]]
id = "main"

[[card]]
id = "shahrazad"
name = "Shahrazad"
owner = "Ann"
at = "main/stack"

[[card]]
id = "a1"
owner = "Ann"
at = "main/library/Ann"

[[card]]
id = "wish-target"
owner = "Bob"
at = "outside/Bob"

[[event]]
do = "start-subgame"
by = "Ann"
via = "shahrazad"

[[event]]
do = "bring-in"
card = "wish-target"

[[event]]
do = "end-subgame"
winner = ["Bob"]
"""


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO)
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_text_cites_rules(capsys: pytest.CaptureFixture[str], scenario: Path) -> None:
    code, out, err = run(capsys, "simulate", str(scenario))
    assert code == 0, err
    assert "[728.5] subgame.end.return-cards" in out
    assert "wish-target: subgame1/hand/Bob -> main/library/Bob" in out
    assert "Resulting situation:" in out


def test_simulate_cites_the_chosen_edition(capsys: pytest.CaptureFixture[str],
                                           scenario: Path) -> None:
    code, out, _ = run(capsys, "simulate", str(scenario), "--edition", "2026-09-25")
    assert code == 0
    assert "[729.5] subgame.end.return-cards" in out
    assert "[728.5]" not in out


def test_simulate_json_has_schema_and_round_trips(capsys: pytest.CaptureFixture[str],
                                                  scenario: Path) -> None:
    code, out, _ = run(capsys, "simulate", str(scenario), "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["schema"] == "shahrazad.simulate/1"
    assert [e["event"]["do"] for e in doc["events"]] == ["start-subgame", "bring-in", "end-subgame"]
    clauses = {s["clause"] for e in doc["events"] for s in e["steps"]}
    assert "subgame.end.return-cards" in clauses
    cards = {c["id"]: c["at"] for c in doc["situation"]["card"]}
    assert cards["wish-target"] == "main/library/Bob"


def test_simulate_same_seed_same_result(capsys: pytest.CaptureFixture[str],
                                        scenario: Path) -> None:
    first = run(capsys, "simulate", str(scenario), "--seed", "7", "--format", "json")[1]
    second = run(capsys, "simulate", str(scenario), "--seed", "7", "--format", "json")[1]
    assert first == second


def test_simulate_counts_outcomes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "start.toml"
    path.write_text(SCENARIO.split("[[event]]\ndo = \"bring-in\"")[0])
    code, out, _ = run(capsys, "simulate", str(path), "--outcomes", "--format", "json")
    assert code == 0
    outcomes = json.loads(out)["outcomes"]
    # Either player can go first (728.2); one card per library leaves nothing else to chance.
    assert outcomes["distinct"] == 2


def test_outcomes_vanish_once_the_subgame_ends(capsys: pytest.CaptureFixture[str],
                                               scenario: Path) -> None:
    code, out, _ = run(capsys, "simulate", str(scenario), "--outcomes", "--format", "json")
    assert code == 0
    assert json.loads(out)["outcomes"]["distinct"] == 1


def test_rules_lists_every_clause(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    names = [c["name"] for c in doc["clause"]]
    assert "subgame.end.return-cards" in names and "restart.starting-player" in names
    assert all(set(c["cr"]) == {"2026-01-16", "2026-09-25"} for c in doc["clause"])


def test_graph_dot(capsys: pytest.CaptureFixture[str], scenario: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "g.dot"
    code, _, err = run(capsys, "graph", str(scenario), "--after", "2", "--format", "dot",
                       "-o", str(out_file))
    assert code == 0, err
    text = out_file.read_text()
    assert "digraph" in text and "subgame1" in text and "wish-target" in text


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
@pytest.mark.parametrize("fmt,magic", [("svg", b"<svg"), ("png", b"\x89PNG")])
def test_graph_pictures(capsys: pytest.CaptureFixture[str], scenario: Path, tmp_path: Path,
                        fmt: str, magic: bytes) -> None:
    out_file = tmp_path / f"g.{fmt}"
    code, _, err = run(capsys, "graph", str(scenario), "--after", "1", "--format", fmt,
                       "-o", str(out_file))
    assert code == 0, err
    assert magic in out_file.read_bytes()[:400]


BAD_SCENARIOS = [
    ("players = [\"Ann\"]\n[[game]]\nid = \"main\"\n[[card]]\nid = \"c\"\nowner = \"Zed\"\n"
     "at = \"main/hand/Ann\"\n", 6, "owner must be a player"),
    ("players = [\"Ann\"]\n[[game]]\nid = \"main\"\n[[card]]\nid = \"c\"\nowner = \"Ann\"\n"
     "at = \"main/graveyards/Ann\"\n", 7, "unknown zone"),
    ("players = [\"Ann\", \"Bob\"]\n[[game]]\nid = \"main\"\n[[event]]\ndo = \"end-subgame\"\n",
     4, "no subgame is running"),
    ("players = [\"Ann\"]\n[[game]]\nid = \"main\"\n[[event]]\ndo = \"dance\"\n", 4,
     "unknown event"),
    ("players = [\"Ann\"\n", 1, "not valid TOML"),
    ("players = [\"Ann\"]\n[[game]]\nid = \"main\"\ncolour = \"red\"\n", 4, "unknown key 'colour'"),
    ("players = [\"Ann\"]\n[[game]]\nid = \"main\"\n[[game]]\nid = \"sub\"\nparent = \"nowhere\"\n",
     6, "parent 'nowhere'"),
]


@pytest.mark.parametrize("text,line,words", BAD_SCENARIOS)
def test_bad_scenario_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         text: str, line: int, words: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    code, out, err = run(capsys, "simulate", str(path))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith(f"shahrazad: {path}:{line}: "), err
    assert words in err
    assert "Traceback" not in err


def test_bad_json_scenario_names_the_line(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "players": ["Ann"],\n  "game": [ {"id": "main"} ],\n}\n')
    code, _, err = run(capsys, "simulate", str(path))
    assert code == 2
    assert err.startswith(f"shahrazad: {path}:4: not valid JSON")


def test_bad_rulebook_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         scenario: Path) -> None:
    from importlib import resources

    text = resources.files("shahrazad.model").joinpath("rulebook.toml").read_text()
    broken = text.replace('zone = "library", whose = "owner"', 'zone = "libary", whose = "owner"', 1)
    assert broken != text
    path = tmp_path / "rules.toml"
    path.write_text(broken)
    line = next(i for i, text_line in enumerate(broken.splitlines(), 1) if '"libary"' in text_line)
    code, _, err = run(capsys, "simulate", str(scenario), "--rulebook", str(path))
    assert code == 2
    assert err.startswith(f"shahrazad: {path}:{line}: clause 'subgame.end.return-cards'"), err
    assert "'libary' is not one of" in err


@pytest.mark.parametrize("args", [["simulate"], ["simulate", "x.toml", "--nope"],
                                  ["frobnicate"], ["simulate", "missing.toml"],
                                  ["graph", "missing.toml", "--format", "gif"]])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert err.startswith("shahrazad: ")
    assert "Traceback" not in err


def test_bad_input_changes_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("players = [\"Ann\"]\n[[game]]\nid = \"main\"\n[[event]]\ndo = \"end-subgame\"\n")
    before = sorted(p.name for p in tmp_path.iterdir())
    out_file = tmp_path / "never.dot"
    code, _, _ = run(capsys, "graph", str(path), "--after", "1", "-o", str(out_file))
    assert code == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_docs_invariants_is_the_catalog(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/invariants.md is generated from the catalog: regenerate it when this fails, with
    `shahrazad invariants --format markdown > docs/invariants.md`."""
    code, out, _ = run(capsys, "invariants", "--format", "markdown")
    assert code == 0
    doc = Path(__file__).resolve().parent.parent / "docs" / "invariants.md"
    assert doc.read_text() == out


def test_simulate_runs_a_reaching_trace_under_the_amendment(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    amendment = str(Path(__file__).resolve().parent.parent / "examples" / "amendments"
                    / "728.5c-forgotten.toml")
    code, _, _ = run(capsys, "verify", "--amendment", amendment, "--only",
                     "end.commanders-return", "--explain-dir", str(tmp_path))
    assert code == 1
    trace = str(tmp_path / "end.commanders-return@end-subgame.trace.toml")
    recorded = Path(os.path.relpath(amendment, tmp_path)).as_posix()  # from the file's folder
    assert f"amendments = [\n    {json.dumps(recorded)},\n]" in Path(trace).read_text()
    code, out, _ = run(capsys, "simulate", trace)  # under the rules the file records
    assert code == 0 and f"amended by {amendment}" in out
    assert "start-subgame" in out and "ceases to exist" in out  # 728.5c is gone
    code, again, _ = run(capsys, "simulate", trace, "--amendment", amendment)
    assert code == 0 and again == out
    code, out, _ = run(capsys, "simulate", trace, "--official")  # 728.5c brings it back
    assert code == 0 and "subgame.end.commander" in out and "amended" not in out
