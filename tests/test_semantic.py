"""The semantic diff of an amendment (`proofs.analyses.semantic`, `shahrazad amend`): a difference
comes with a reached situation and two outcomes that really differ; an amendment the model
cannot see is said to be so, by `amend` and by `verify --amendment`, never "all proved"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shahrazad.invariants.catalog import CATALOG
from shahrazad.model.amendment import load_amendment, parse_amendment
from shahrazad.model.rulebook import official
from shahrazad.model.scenario import load_scenario
from shahrazad.proofs.analyses.semantic import _key, changed_clauses, changed_events, semantic_diff, unseen
from shahrazad.proofs.evidence.counterexample import broken, replay
from shahrazad.proofs.evidence.reach import is_beginning

from shahrazad.cli import main
from shahrazad.report.semantic import NO_DIFFERENCE, side_by_side

ROOT = Path(__file__).resolve().parent.parent
UNSEEN = ROOT / "examples" / "unseen" / "726.3-after-the-opening-hands.toml"
REORDERED = ROOT / "examples" / "amendments" / "726.4-before-opening-hands.toml"
FORGOTTEN = ROOT / "examples" / "amendments" / "728.5c-forgotten.toml"


def test_an_order_the_model_does_not_keep_is_unseen() -> None:
    """726.3's seven-card check moved after the opening hands: the model has the opening
    hands' place in rule 103's order, not the draw itself (no card leaves a library), so
    nothing it sees changes. The diff says "same" for every size."""
    amended = load_amendment(UNSEEN).apply(official())
    assert changed_events(official(), amended) == ["restart"]
    assert changed_clauses(official(), amended, "restart") == ["restart.short-library"]
    diff = semantic_diff(official(), amended, jobs=1)
    assert [(d.event, d.status) for d in diff] == [("restart", "same")]
    assert "for every number" in diff[0].detail
    assert unseen(diff)


def test_an_order_the_model_keeps_is_a_difference() -> None:
    """Karn's further instructions moved before the opening hands, which the model once could
    not see: the stage of rule 103's procedure at which the restarting effect finished is
    part of its state now, so the diff finds the difference and replays it."""
    amended = load_amendment(REORDERED).apply(official())
    diff = semantic_diff(official(), amended, jobs=1)
    assert [(d.event, d.status) for d in diff] == [("restart", "differs")]
    assert not unseen(diff)
    assert diff[0].breaks == ["restart.instructions-before-untap"]
    assert diff[0].official is not None and diff[0].amended is not None
    assert _key(diff[0].official) != _key(diff[0].amended)


def test_a_difference_is_reached_and_shown() -> None:
    amended = load_amendment(FORGOTTEN).apply(official())
    diff = semantic_diff(official(), amended, jobs=1)
    assert not unseen(diff)
    (d,) = diff
    assert (d.event, d.status, d.clauses) == ("end-subgame", "differs", ["subgame.end.commander"])
    assert "end.commanders-return" in d.breaks and not d.repairs
    assert d.official is not None and d.amended is not None
    assert _key(d.official) != _key(d.amended)
    assert d.trace is not None and not is_beginning(d.trace.situation)
    assert d.scenario is not None and d.scenario.events[-1].kind == "end-subgame"


def test_a_prohibition_is_a_difference() -> None:
    """An amendment that only makes an event illegal somewhere: the transitions alone are
    the same where both allow it, yet the rules differ (a subgame inside a subgame)."""
    amended = load_amendment(ROOT / "examples" / "amendments" /
                             "fr-506.6-no-subgame-within-a-subgame.toml").apply(official())
    diff = semantic_diff(official(), amended, jobs=1)
    assert [(d.event, d.status) for d in diff] == [("start-subgame", "differs")]
    assert "nested-subgame" in diff[0].detail and not unseen(diff)


def test_words_alone_are_unseen() -> None:
    """A clause whose summary changes and whose steps do not: an amendment the model cannot
    see, whatever it says."""
    text = '''title = "words"
[[replace]]
name = "subgame.end.commander"
cr = { "2026-01-16" = "728.5c" }
summary = "Commanders go home, said differently."
on = "end-subgame"
step = ''' + _steps_of("subgame.end.commander")
    amended = parse_amendment(text, file="words.toml").apply(official())
    diff = semantic_diff(official(), amended, jobs=1)
    assert unseen(diff)


def _steps_of(name: str) -> str:
    """The clause's `step = [...]` value as written in the rulebook file."""
    rulebook = (ROOT / "model" / "rulebook.toml").read_text()
    block = rulebook.split(f'name = "{name}"', 1)[1]
    return block.split("step = ", 1)[1].split("\n\n", 1)[0].strip()


def test_reordered_clauses_are_named() -> None:
    base = official()
    reordered = parse_amendment('''title = "moved"
[[remove]]
name = "restart.starting-player"
[[add]]
after = "restart.short-library"
name = "restart.starting-player"
cr = { "2026-01-16" = "726.1a" }
summary = "The starting player of the new game is the controller of the restarting effect."
on = "restart"
step = [ { starting-player = { game = "new", choose = "event-controller" } } ]
''', file="moved.toml").apply(base)
    assert "restart.starting-player" in changed_clauses(base, reordered, "restart")


def test_side_by_side_marks_the_rows_that_differ() -> None:
    rows = side_by_side(["a", "b", "c"], ["a", "x", "c"], "left", "right", "")
    assert rows[0].startswith("  left") and rows[0].endswith("| right")
    assert [r[0] for r in rows[2:]] == [" ", "*", " "]
    assert rows[3].split("|")[0].strip(" *") == "b" and rows[3].split("|")[1].strip() == "x"


@pytest.mark.slow  # decides the whole catalog, twice
def test_amend_says_when_it_sees_no_difference(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["amend", str(UNSEEN), "--jobs", "1"])
    out = capsys.readouterr().out
    assert code == 3
    assert NO_DIFFERENCE in out and "all proved" not in out and "PROVED" not in out
    code = main(["amend", str(UNSEEN), "--jobs", "1", "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    assert code == 3 and document["semantic-diff"]["unseen"] is True


@pytest.mark.slow  # decides the whole catalog, twice
def test_amend_shows_the_difference(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["amend", str(FORGOTTEN), "--jobs", "2"])
    out = capsys.readouterr().out
    assert code == 1
    assert "end-subgame: DIFFERS (changed: subgame.end.commander)" in out
    assert "breaks here: end.cards-conserved, end.commanders-return" in out
    assert "the official rules" in out and "| the amendment" in out
    assert NO_DIFFERENCE not in out


@pytest.mark.slow  # decides the whole catalog, twice
def test_verify_flags_an_amendment_it_cannot_see(capsys: pytest.CaptureFixture[str]) -> None:
    """Every obligation proved, yet the run is not "all proved": exit 3, and the summary
    says the proofs are no verdict on the amendment."""
    code = main(["verify", "--amendment", str(UNSEEN), "--format", "json"])
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert code == 3 and document["exit-code"] == 3
    assert document["amendment-effect"]["unseen"] is True
    assert set(document["summary"]) == {"proved"}
    assert NO_DIFFERENCE in captured.err
    code = main(["verify", "--amendment", str(UNSEEN)])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert code == 3 and "not a verdict on the amendments" in last


# Amendments of three events: the clause examples whose last event they change are replayed
# (the quick suite has one of them; each of the others takes 8-15 s).
BREAKING = ("728.2-moves-hands",
            *(pytest.param(a, marks=pytest.mark.slow) for a in (
                "728.5c-forgotten", "2011-713.2-controller-takes-ownership",
                "restart-tokens-survive")))


@pytest.mark.parametrize("amendment", BREAKING)
def test_the_invariants_an_outcome_breaks_are_those_each_replay_finds(amendment: str) -> None:
    """`counterexample.broken`, which the semantic diff's breaks and repairs read (the event
    run once per outcome for every invariant), says of each invariant what `replay` of that
    invariant alone says, on each clause example of an event the amendment changes, under
    it and under the official rules; and some invariant is broken there, so that the
    comparison is not of empty sets."""
    amended = load_amendment(ROOT / "examples" / "amendments" / f"{amendment}.toml"
                             ).apply(official())
    seen_broken = False
    for path in sorted((ROOT / "examples").glob("*.toml")):
        if "short-library" in path.name:  # thousands of outcomes (the libraries' orders)
            continue
        scenario = load_scenario(path)
        event = scenario.events[-1].kind
        if amended.on(event) == official().on(event):
            continue
        invariants = [i for i in CATALOG if event in i.events and i.kind != "possible"]
        for rulebook in (official(), amended):
            found = broken(scenario, rulebook, invariants)
            assert found == {i.id for i in invariants
                             if replay(scenario, rulebook, i).violated}, path.name
            seen_broken |= bool(found)
    assert seen_broken
