"""The engine authors' kit (docs/engines.md): `shahrazad generate` writes legal situations
with every outcome the rules allow, the same for the same seed; `shahrazad conform` checks a
recorded trace and finds the toy engine's divergence, with its clause and CR number; the
pytest plugin's `shahrazad_engine` passes a correct engine and fails the toy engine."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from shahrazad.invariants.structure import problems
from shahrazad.model.choices import SeededChooser
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.events import check_event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.outcomes import (
    TooManyOutcomes,
    allowed_outcomes,
    canonical,
    canonical_key,
    first_divergence,
)
from shahrazad.model.rulebook import official as official_rulebook
from shahrazad.model.scenario import (
    load_scenario,
    read_scenario_data,
    scenario_data,
    situation_data,
)
from shahrazad.model.state import Pile

from shahrazad.cli import main
from shahrazad.engine_kit import load_trace, record_trace

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ROOT / "examples" / "engines"
TOY_TRACE = ENGINES / "toy-trace.toml"


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def toy_step(situation: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    step: Any = _module(ENGINES / "toy_engine.py").step
    return dict(step(situation, event))


def interpreter_step(situation: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    """A correct engine: the interpreter itself, on scenario data (its own seed)."""
    state = read_scenario_data(situation, file="<engine>", fmt="json").situation
    parsed, problem = check_event(event)
    assert parsed is not None, problem
    return situation_data(Interpreter(chooser=SeededChooser(7)).step(state, parsed).situation)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ---- generate -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("generated")
    assert main(["generate", "--count", "8", "--seed", "3", "--out", str(out)]) == 0
    return out


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.json"))}


def test_generate_is_the_same_for_the_same_seed_in_another_process(generated: Path,
                                                                   tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONHASHSEED": "4242"}
    done = subprocess.run([sys.executable, "-m", "shahrazad", "generate", "--count", "8",
                           "--seed", "3", "--out", str(tmp_path / "again")],
                          capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Wrote 8 situation(s) to {tmp_path / 'again'} (seed 3;")
    first = _files(generated)
    assert len(first) == 8
    assert _files(tmp_path / "again") == first
    assert main(["generate", "--count", "8", "--seed", "4", "--out", str(tmp_path / "other")]) == 0
    assert _files(tmp_path / "other") != first


def test_generated_situations_are_legal_with_the_interpreters_outcomes(generated: Path) -> None:
    for path in sorted(generated.glob("*.json")):
        case = json.loads(path.read_text())
        assert set(case) == {"schema", "rulebook", "amendments", "situation", "event",
                             "outcomes", "branches", "shuffled"}
        assert case["schema"] == "shahrazad.generated/1"
        assert (case["rulebook"], case["amendments"]) == ("official", [])
        situation = read_scenario_data(case["situation"], file=path.name, fmt="json",
                                       check=problems).situation
        event, problem = check_event(case["event"])
        assert event is not None, problem
        keys = [canonical_key(o) for o in case["outcomes"]]
        assert len(set(keys)) == len(keys) >= 1
        assert case["branches"] >= len(keys)
        for seed in range(4):  # the interpreter's own runs are among the outcomes
            after = Interpreter(chooser=SeededChooser(seed)).step(situation, event).situation
            shuffled = frozenset(case["shuffled"])
            assert canonical_key(canonical(after, shuffled)) in keys, (path.name, seed)
        for outcome in case["outcomes"]:  # each outcome is itself a legal situation
            read_scenario_data(outcome, file=path.name, fmt="json", check=problems)


@pytest.mark.parametrize("args, says", [
    (["--count", "0", "--seed", "1"], "--count"),
    (["--count", "2"], "--seed"),
    (["--count", "2", "--seed", "-1"], "--seed"),
])
def test_generate_refuses_bad_options(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                      args: list[str], says: str) -> None:
    code, _, err = run(capsys, "generate", *args, "--out", str(tmp_path / "out"))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and says in err


def test_generate_refuses_a_file_as_its_folder(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("")
    code, _, err = run(capsys, "generate", "--count", "1", "--seed", "1", "--out",
                       str(tmp_path / "taken"))
    assert code == 2 and "--out" in err and len(err.strip().splitlines()) == 1


# ---- the outcomes and the first divergence --------------------------------------------------


def test_a_shuffled_zone_is_a_set_and_other_choices_are_branches() -> None:
    scenario = load_scenario(ROOT / "examples" / "restart.cards-involved.toml")
    state = scenario.situation
    for event in scenario.events[:-1]:
        state = Interpreter().step(state, event).situation
    restart = scenario.events[-1]
    outcomes = allowed_outcomes(state, restart)
    # The restart shuffles the new game's libraries and planar deck: any order is allowed,
    # one outcome stands for them all; its starting player is no random choice (726.1a).
    assert outcomes.shuffled == {"game1/library/Ann", "game1/library/Bob",
                                 "game1/deck/Ann/planar"}
    assert (outcomes.branches, len(outcomes.allowed)) == (1, 1)
    for seed in range(5):
        after = Interpreter(chooser=SeededChooser(seed)).step(state, restart).situation
        assert outcomes.find(after) is not None  # any seed's order is the same outcome
    reordered = Interpreter().step(state, restart).situation
    library = next(z for z in reordered.zones if str(z) == "game1/library/Ann")
    reordered.zones[library] = Pile(list(reversed(list(reordered.zones[library]))))
    assert outcomes.find(reordered) is not None
    # A subgame's random starting player is a branch: one outcome per player.
    start = load_scenario(ROOT / "examples" / "subgame.start.starting-player.toml")
    found = allowed_outcomes(start.situation, start.events[0])
    assert found.branches == len(found.allowed) == len(start.situation.players)
    with pytest.raises(TooManyOutcomes, match=r"more than 1 branches .*CR 728\.2"):
        allowed_outcomes(start.situation, start.events[0], limit=1)


def test_a_library_of_sixty_cards_is_checked() -> None:
    """A real deck: its subgame's library has 60! orders, all of them allowed."""
    start = load_scenario(ROOT / "examples" / "subgame.start.libraries.toml")
    data = scenario_data(start)
    player = data["players"][0]
    data["card"] += [{"id": f"deck{n}", "owner": player, "at": f"main/library/{player}"}
                     for n in range(60)]
    big = read_scenario_data(data, file="sixty", check=problems)
    outcomes = allowed_outcomes(big.situation, big.events[0])
    assert outcomes.branches == len(outcomes.allowed) == len(big.situation.players)
    assert any(zone.endswith(f"/library/{player}") for zone in outcomes.shuffled)
    after = Interpreter(chooser=SeededChooser(3)).step(big.situation, big.events[0]).situation
    assert outcomes.find(after) is not None


def test_first_divergence_names_the_step_and_its_rule() -> None:
    scenario = load_scenario(ROOT / "examples" / "restart.nothing-else.toml")
    state = scenario.situation
    for event in scenario.events[:-1]:
        state = Interpreter().step(state, event).situation
    restart = scenario.events[-1]
    right = Interpreter().step(state, restart).situation
    assert first_divergence(state, restart, right) is None
    wrong = right.copy()
    exile = next(z for z in wrong.zones if z.game == "game1" and z.kind == "exile")
    wrong.move("karn", exile)
    found = first_divergence(state, restart, wrong, index=3)
    assert found is not None and found == first_divergence(state, restart, wrong, index=3)
    assert (found.event, found.subject, found.clause, found.rule) == (
        3, "card karn", "restart.cards-involved", "726.2")
    assert found.expected == "it is at game1/library/Ann (1st from the top)"
    assert found.engine == "it is at game1/exile" and not found.left_alone
    # An in-game action that the engine makes do more than the rules: they leave it alone.
    counter = scenario.events[0]
    extra = Interpreter().step(scenario.situation, counter).situation
    extra.counters_of("main", "Bob")["poison"] = 1
    found = first_divergence(scenario.situation, counter, extra)
    assert found is not None and found.left_alone
    assert (found.subject, found.clause, found.rule) == ("the counters of Bob in main", None,
                                                         "122.1")


# ---- conform --------------------------------------------------------------------------------


def test_conform_finds_the_toy_engines_divergence(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "conform", str(TOY_TRACE))
    assert code == 1, err
    assert "Event 1 (line 68): counter(player=Ann, kind=energy, add=3): ok" in out
    assert "Event 3 (line 79): restart(controller=Ann, via=karn-ability): DIVERGES" in out
    assert "first difference: the counters of Ann in game1" in out
    assert "by [726.1] restart.nothing-else: the counters players got in main cease" in out
    assert out.rstrip().endswith("The engine diverges at event 3 (restart; CR 726.1: "
                                 "restart.nothing-else).")
    code, out, _ = run(capsys, "conform", str(TOY_TRACE), "--format", "json")
    doc = json.loads(out)
    assert code == 1 and doc["schema"] == "shahrazad.conform/1" and not doc["conforms"]
    assert [e["result"] for e in doc["events"]] == ["ok", "ok", "diverges"]
    divergence = doc["divergence"]
    assert (divergence["event"], divergence["clause"], divergence["rule"]) == (
        3, "restart.nothing-else", "726.1")
    assert (divergence["expected"], divergence["engine"]) == ("none", "{energy=3, poison=4}")


def test_the_toy_trace_is_what_record_writes(tmp_path: Path) -> None:
    record = _module(ENGINES / "record.py")
    assert record.main([str(ROOT / "examples" / "restart.nothing-else.toml"),
                        "-o", str(tmp_path / "trace.toml")]) == 0
    assert (tmp_path / "trace.toml").read_text() == TOY_TRACE.read_text()


@pytest.mark.parametrize("example", ["subgame.end.return-cards.toml", "restart.subgame.toml",
                                     "subgame.start.libraries.toml"])
def test_conform_accepts_the_interpreters_own_trace(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path, example: str) -> None:
    scenario = load_scenario(ROOT / "examples" / example)
    for fmt in ("toml", "json"):
        trace = tmp_path / f"trace.{fmt}"
        trace.write_text(record_trace(interpreter_step, scenario, fmt))
        code, out, err = run(capsys, "conform", str(trace))
        assert code == 0, out + err
        assert out.rstrip().endswith(f"The engine conforms: {len(scenario.events)} event(s), "
                                     "each an outcome the rules allow.")


def test_conform_accepts_a_refusal_the_rules_share(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    scenario = load_scenario(ROOT / "examples" / "restart.end-game.toml")
    end = check_event({"do": "end-subgame"})[0]  # no subgame runs: the rules refuse it
    assert end is not None
    scenario.events = [end, *scenario.events]

    def refusing(situation: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
        if event["do"] == "end-subgame":
            raise IllegalEvent("no subgame")
        return interpreter_step(situation, event)

    trace = tmp_path / "trace.toml"
    trace.write_text(record_trace(refusing, scenario))
    assert load_trace(trace).after[0] is None
    code, out, _ = run(capsys, "conform", str(trace))
    assert code == 0 and "end-subgame(): ok, refused by the rules and by the engine" in out
    # An engine that refuses what the rules allow diverges.
    trace.write_text(record_trace(toy_refusing_restart, load_scenario(
        ROOT / "examples" / "restart.end-game.toml")))
    code, out, _ = run(capsys, "conform", str(trace))
    assert code == 1 and "first difference: the event" in out and "refuses it" in out


def toy_refusing_restart(situation: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    raise ValueError("restarts are not implemented")


def _break(text: str, how: str) -> str:
    if how == "last after missing":
        return text[:text.rfind("[[after]]")]
    if how == "unknown key in after 2":
        head, first, second, third = text.split("[[after]]\n")
        return "[[after]]\n".join([head, first, 'colour = "blue"\n' + second, third])
    if how == "unknown game in after 3":
        return text.replace('at = "game1/library/Bob"', 'at = "game9/library/Bob"', 1)
    if how == "not TOML":
        return text.replace("[[after]]", "[[after]", 1)
    assert how == "no after"
    return text[:text.find("[[after]]")]


@pytest.mark.parametrize("how, line, says", [
    ("last after missing", 79, "the trace has 3 event(s) and 2 `after` situation(s)"),
    ("unknown key in after 2", 150, "after 2 (the engine's situation after event 2): unknown "
                                    "top-level key 'colour'"),
    ("unknown game in after 3", None, "after 3 (the engine's situation after event 3): card "
                                      "bob-walking-ballista: 'game9' is not a game here"),
    ("not TOML", 84, "not valid TOML"),
    ("no after", None, "a trace needs `after`"),
])
def test_conform_refuses_a_malformed_trace_at_its_line(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path, how: str,
                                                       line: int | None, says: str) -> None:
    trace = tmp_path / "bad.toml"
    text = _break(TOY_TRACE.read_text(), how)
    trace.write_text(text)
    code, out, err = run(capsys, "conform", str(trace))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err
    where = err.split(": ")[1]
    assert where.startswith(f"{trace}:")
    number = int(where.rsplit(":", 1)[1])
    if line is not None:
        assert number == line
    elif how.startswith("unknown game"):  # the line of that card, in the third [[after]]
        third = text[:text.rfind("[[after]]")].count("\n") + 1
        assert number > third and "bob-walking-ballista" in text.splitlines()[number - 1]


# ---- the pytest plugin ----------------------------------------------------------------------


def test_the_plugin_passes_a_correct_engine(shahrazad_engine: Any) -> None:
    shahrazad_engine(interpreter_step, max_examples=25)


def test_the_plugin_refuses_an_unknown_event_kind(shahrazad_engine: Any) -> None:
    with pytest.raises(ValueError, match="rstart is not an event kind"):
        shahrazad_engine(interpreter_step, events=["rstart"])


def test_the_plugin_finds_the_toy_engines_divergence(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_toy=f"""
        import importlib.util

        from hypothesis import Phase, settings

        spec = importlib.util.spec_from_file_location("toy_engine", {str(ENGINES / "toy_engine.py")!r})
        toy = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(toy)


        def test_toy_engine(shahrazad_engine):
            # Not shrunk, to keep this test quick: docs/engines.md shows a shrunk failure.
            shahrazad_engine(toy.step, max_examples=20, events=["restart"],
                             settings=settings(phases=[Phase.generate]))
    """)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*the engine diverges from the rules at event 1 (restart; CR 726.1: restart.nothing-else)*",
        "*event 1 (restart): first difference: the counters of * in *",
        "*the rules: none*",
        "*by [[]726.1] restart.nothing-else: the counters players got in * cease to exist*",
        "*the situation and event, as a scenario (shahrazad simulate runs it):*",
    ])


def test_the_plugin_imports_nothing_heavy() -> None:
    code = ("import sys, shahrazad.pytest_plugin; "
            "print(sorted(m for m in sys.modules if m == 'z3' or m.startswith('shahrazad.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "['shahrazad.pytest_plugin']"


# ---- docs/engines.md ------------------------------------------------------------------------


def _block_after(text: str, command: str) -> str:
    """The text of the fenced block that starts with `$ COMMAND`, without that line."""
    start = text.index(f"$ {command}\n") + len(f"$ {command}\n")
    return text[start:text.index("```", start)]


def test_the_docs_show_what_conform_prints(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    docs = (ROOT / "docs" / "engines.md").read_text()
    for args in (["conform", "examples/engines/toy-trace.toml"],
                 ["conform", "examples/engines/toy-trace.toml", "--format", "json"]):
        code, out, _ = run(capsys, *args)
        assert code == 1
        assert _block_after(docs, "shahrazad " + " ".join(args)) == out


def test_the_docs_trace_format_example_conforms(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    docs = (ROOT / "docs" / "engines.md").read_text()
    start = docs.index('```toml\nschema = "shahrazad.trace/1"') + len("```toml\n")
    trace = tmp_path / "trace.toml"
    trace.write_text(docs[start:docs.index("```", start)])
    code, out, err = run(capsys, "conform", str(trace))
    assert code == 0, out + err
    assert "end-subgame(): ok, refused by the rules and by the engine" in out


def test_the_docstring_example_of_step_runs() -> None:
    import doctest

    from shahrazad.model import interpreter

    failed, attempted = doctest.testmod(interpreter)
    assert (failed, attempted > 0) == (0, True)


TWO_CARDS = '''
players = ["Ann", "Bob"]
game = [{ id = "main" }]
event = [{ do = "restart", controller = "Ann", via = "karn-ability" }]
card = [
  { id = "karn", owner = "Ann", at = "main/battlefield" },
  { id = "a1", owner = "Ann", at = "main/library/Ann" },
  { id = "b1", owner = "Bob", at = "main/library/Bob" },
]
object = [{ id = "karn-ability", kind = "ability", controller = "Ann", at = "main/stack" }]
'''


def test_a_difference_in_a_game_is_cited_to_the_clause_that_writes_it() -> None:
    from shahrazad.model.scenario import parse_scenario

    scenario = parse_scenario(TWO_CARDS, file="two.toml")
    before, restart = scenario.situation, scenario.events[0]
    allowed = allowed_outcomes(before, restart).allowed[0].situation
    doomed = allowed.copy()
    doomed.games["game1"].doomed = ["Ann"]
    found = first_divergence(before, restart, doomed)
    assert found is not None and (found.clause, found.rule) == ("restart.short-library", "726.3")
    starts = allowed.copy()
    starts.games["game1"].starting_player = "Bob"
    found = first_divergence(before, restart, starts)
    assert found is not None and (found.clause, found.rule) == ("restart.starting-player",
                                                                "726.1a")
    reordered = allowed.copy()  # the order of will-lose is read by no rule
    reordered.games["game1"].doomed = list(reversed(reordered.games["game1"].doomed))
    assert first_divergence(before, restart, reordered) is None


def test_a_zone_filled_after_its_shuffle_keeps_its_order() -> None:
    """Under an amendment that puts exempt cards at the bottom of the new library after the
    shuffle, the library is no set: a card on top instead is a divergence."""
    from shahrazad.model.amendment import parse_amendment

    amendment = parse_amendment('''
title = "exempt cards go to the bottom of the new library, after the shuffle"

[[add]]
after = "restart.cards-involved"
name = "test.restart.exempt-bottom"
cr = { "2026-01-16" = "726.5" }
summary = "Test only: exempt cards go to the bottom of their owner's new library."
on = "restart"

[[add.step]]
select = { game = "new", object = "card", zone = "exile" }
move-to = { game = "new", zone = "library", whose = "owner", position = "bottom" }
''', file="bottom.toml")
    book = amendment.apply(official_rulebook())
    scenario = load_scenario(ROOT / "examples" / "restart.exempt.toml")
    before, restart = scenario.situation, scenario.events[0]
    outcomes = allowed_outcomes(before, restart, book)
    library = next(z for z in outcomes.allowed[0].situation.zones
                   if str(z) == "game1/library/Bob")
    assert str(library) not in outcomes.shuffled
    engine = outcomes.allowed[0].situation.copy()
    pile = list(engine.zones[library])
    assert pile[-1] == "bob-tarmogoyf"  # the rules: at the bottom
    engine.zones[library] = Pile([pile[-1], *pile[:-1]])
    assert first_divergence(before, restart, engine, book) is not None


def test_conform_reads_a_json_trace_on_standard_input_and_writes_o(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    from shahrazad.engine_kit import dump_trace

    toy = load_trace(ROOT / "examples" / "engines" / "toy-trace.toml")
    text = dump_trace(toy.scenario, [a if a is not None else r for a, r in
                                     zip(toy.after, toy.refusals, strict=True)], "json")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    target = tmp_path / "conform.json"
    assert main(["conform", "-", "--format", "json", "-o", str(target)]) == 1
    assert capsys.readouterr().out == ""
    document = json.loads(target.read_text())
    assert document["trace"] == "<stdin>" and document["divergence"]["event"] == 3
