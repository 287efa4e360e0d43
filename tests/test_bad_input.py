"""Malformed files found by an audit (`tests/regressions/r1`-`r6`, copied from the
project's reproducers): each is refused with one line naming the file, the line and the
fault, and exit code 2, never an internal error."""

from __future__ import annotations

from pathlib import Path

import pytest

from shahrazad.cli import main

REGRESSIONS = Path(__file__).resolve().parent / "regressions"

CASES = [
    ("r1-card-not-a-list.toml", 2, "card must be a list of tables"),
    ("r2-parent-is-a-list.toml", 6, "parent must be text"),
    ("r3-huge-seed.toml", 2, "more than 30 digits"),
    ("r4-deep-nesting.json", 1, "nested more than 64 levels deep"),
    ("r4b-deep-nesting.toml", 2, "nested more than 64 levels deep"),
    ("r5-affected-by-not-a-list.json", 1, "affected-by must be a list of names"),
    ("r6-player-counter-game-list.toml", 5, "game must be text"),
]


@pytest.mark.parametrize("name,line,words", CASES, ids=[c[0].split("-")[0] for c in CASES])
def test_malformed_file_is_one_line_and_exit_2(name: str, line: int, words: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = REGRESSIONS / name
    assert main(["simulate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"shahrazad: {path}:{line}: ") and words in err, err


@pytest.mark.parametrize("args", [["--bound", "0"], ["--bound", "-1"], ["--timeout", "nan"],
                                  ["--timeout", "inf"], ["--timeout", "-1"], ["--timeout", "0"],
                                  ["--timeout", "abc"]])
def test_bad_option_values_are_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--only", "structure.one-active-game", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and args[0] in err, err


@pytest.mark.slow  # moved out of the quick suite (issue 9); `.ci/run` runs it
def test_outcomes_refuses_a_big_search_before_it_allocates_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    """r9: 200 cards to shuffle have 200! orders; the first run already shows more than the
    limit, so the refusal comes at once (it used to grow to 1.4 GB first)."""
    import tracemalloc

    tracemalloc.start()
    code = main(["simulate", str(REGRESSIONS / "r9-outcomes-200.toml"), "--outcomes"])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert code == 2
    assert "more than 20000 possible outcomes" in capsys.readouterr().err
    assert peak < 200 * 2**20  # bytes: far below what allocating the branches would take


def test_enumeration_is_exact_below_the_limit() -> None:
    from shahrazad.model.choices import enumerate_outcomes, shuffle

    orders = list(enumerate_outcomes(lambda c: tuple(shuffle([1, 2, 3, 4], c, "t")), limit=24))
    assert len(orders) == 24 == len(set(orders))
    with pytest.raises(OverflowError):
        list(enumerate_outcomes(lambda c: tuple(shuffle([1, 2, 3, 4], c, "t")), limit=23))


def test_simulate_refuses_a_situation_the_model_calls_invalid(
        capsys: pytest.CaptureFixture[str]) -> None:
    """r8: the reader applies the structure the model states (invariants.structure)."""
    path = REGRESSIONS / "r8-card-outside-among-other-players-cards.toml"
    assert main(["simulate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"shahrazad: {path}:7: the situation is not one the rules allow: ")
    assert "400.11" in err and err.count("\n") == 1


def test_a_name_ending_in_a_newline_is_refused(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Python's `$` matches before a final newline; a name must not end in one (the JSON
    Schema's pattern refuses it too)."""
    path = tmp_path / "s.json"
    path.write_text('{"players": ["Ann\\n", "Bob"], "game": [{"id": "main"}]}')
    assert main(["simulate", str(path)]) == 2
    assert "players must be a non-empty list of names" in capsys.readouterr().err


@pytest.mark.parametrize(("event", "words"), [
    (("restart", {"controller": "Ann", "exempt": ["c1"]}), "exempt is no argument"),
    (("move", {"object": "c1", "to": "main/hand/Ann", "postion": "top"}),
     "unknown argument 'postion'"),
    (("counter", {"player": "Ann", "kind": "poison"}), "missing add"),
    (("shuffle", {}), "unknown event 'shuffle'"),
])
def test_the_interpreter_refuses_an_event_the_reader_would(
        event: tuple[str, dict[str, object]], words: str) -> None:
    """An event built by a caller, not read from a file, is checked as the reader checks one:
    an argument the interpreter does not know is refused, never silently ignored."""
    from shahrazad.model.errors import IllegalEvent
    from shahrazad.model.events import Event
    from shahrazad.model.interpreter import Interpreter

    from tests.situations import build, card

    state = build(["Ann", "Bob"], cards=[card("c1", "Ann", "main/library/Ann")])
    with pytest.raises(IllegalEvent, match=words):
        Interpreter().step(state, Event(*event))


def test_no_count_grows_past_what_a_scenario_holds() -> None:
    """A counter event that would make a count larger than a scenario may hold (2**63 - 1)
    is refused, so every situation the interpreter makes can be written and read back."""
    from shahrazad.model.errors import IllegalEvent
    from shahrazad.model.events import Event
    from shahrazad.model.interpreter import Interpreter
    from shahrazad.model.scenario import LARGEST

    from tests.situations import build, counter

    state = build(["Ann", "Bob"], counters=[counter("main", "Ann", "poison", LARGEST)])
    with pytest.raises(IllegalEvent, match="more than the model counts"):
        Interpreter().step(state, Event("counter", {"player": "Ann", "kind": "poison",
                                                    "add": 1}))
