"""Protection by change, not only by removal (`proofs.analyses.protection`), and the question under
it: does a change of the rules change what happens (`proofs.analyses.difference`)?"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from shahrazad.model.language import parse_step
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.proofs.analyses import difference as difference_module
from shahrazad.proofs.analyses.difference import _differs, difference
from shahrazad.proofs.analyses.protection import changes, protect, protection

from shahrazad.cli import main


def _changed(name: str, index: int, data: dict[str, object]) -> Rulebook:
    clause = official().get(name)
    steps = list(clause.steps)
    steps[index] = parse_step("step", data, clause.on)
    return official().replace(replace(clause, steps=tuple(steps)))


def test_a_rulebook_does_not_differ_from_itself() -> None:
    found = difference(official(), official(), "restart")
    assert found.status == "same" and "every number" in found.detail


def test_a_change_that_matters_differs_with_a_situation_that_replays() -> None:
    """Commanders that begin the new game under the restart's controller: a situation where
    it shows, found by z3, shrunk, and replayed by the interpreter under both rulebooks."""
    changed = _changed("restart.commanders", 0, {
        "select": {"game": "restarted", "object": "card", "card-type": "traditional",
                   "commander": True},
        "move-to": {"game": "new", "zone": "command", "face": "up",
                    "control": "event-controller"}})
    found = difference(official(), changed, "restart")
    assert found.status == "differs" and found.scenario is not None
    assert _differs(official(), changed, found.scenario)
    assert any(c.commander for c in found.scenario.situation.cards())


def test_a_redundant_test_has_no_effect() -> None:
    """Only cards have a card type: dropping `object = "card"` beside `card-type` changes
    nothing, for every size."""
    clause = official().get("restart.commanders")
    data = clause.steps[0].as_data()
    del data["select"]["object"]
    found = difference(official(), _changed("restart.commanders", 0, data), "restart")
    assert found.status == "same"


def test_changes_cover_every_parameter_kind() -> None:
    described = {c.describe() for name in official().names()
                 for c, _ in changes(official(), name)}
    for fragment in ("removed", "move-to.zone", "move-to.whose", "move-to.position",
                     "move-to.face", "move-to.mark", "move-to.deck", "move-to.game",
                     "move-to.control", "select.commander", "select.game", "select.phased",
                     "short-library.minimum: 7 -> 8", "starting-player.choose",
                     "procedure.stage: mulligans -> first-turn"):
        assert any(fragment in d for d in described), fragment


def test_every_change_is_a_rule_the_language_accepts_and_differs_from_the_original() -> None:
    for name in official().names():
        for change, rulebook in changes(official(), name)[1:]:
            assert rulebook.get(name) != official().get(name), change


@pytest.mark.slow  # moved out of the quick suite (issue 9); `.ci/run` runs it
def test_protection_reports_changes_as_well_as_removals() -> None:
    found = protection(official(), only=["restart.starting-player", "restart.short-library"],
                       jobs=1)
    described = {(p.clause, p.change.describe() if p.change else "", p.status) for p in found}
    assert ("restart.starting-player", "removed", "protected") in described
    assert ("restart.starting-player",
            "step 1 starting-player.choose: event-controller -> random", "protected") in described
    assert ("restart.short-library", "step 1 short-library.minimum: 7 -> 6",
            "protected") in described
    assert ("restart.short-library", "step 1 short-library.minimum: 7 -> 8",
            "protected") in described
    assert all(p.caught_by for p in found if p.status == "protected")


@pytest.mark.slow  # moved out of the quick suite (issue 9); `.ci/run` runs it
def test_a_gap_is_reported_with_its_situation(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["protection", "--clause", "restart.exempt", "--format", "json",
                 "--jobs", "1"])
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "shahrazad.protection/3"
    gaps = [c for c in data["changes"] if c["status"] == "gap"]
    assert code == 1 and gaps
    assert all(c["scenario"]["event"] for c in gaps)
    kinds = {c["status"] for c in data["changes"]}
    assert {"protected", "no-effect", "unseen"} <= kinds


def test_an_unknown_clause_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["protection", "--clause", "no.such.clause"]) == 2
    assert "no.such.clause" in capsys.readouterr().err


def test_a_difference_the_interpreter_does_not_show_is_unknown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A situation z3 finds is replayed before it is believed."""
    changed = _changed("restart.commanders", 0, {
        "select": {"game": "restarted", "object": "card", "card-type": "traditional",
                   "commander": True},
        "move-to": {"game": "new", "zone": "command", "face": "up",
                    "control": "event-controller"}})
    monkeypatch.setattr(difference_module, "_differs", lambda a, b, s: False)
    assert difference(official(), changed, "restart").status == "unknown"


@pytest.mark.parametrize(("clause", "parameter", "to"), [
    ("restart.starting-player", "step 1 starting-player.game", "main"),
    pytest.param("restart.short-library", "step 1 short-library.game", "main",
                 marks=pytest.mark.slow),  # 4 s: behind slow (issue 9's quick suite)
    ("subgame.start.new-game", "step 1 create-game.parent", "subgame")])
def test_a_game_step_on_a_role_the_event_has_not_bound_is_impossible_in_both_readings(
        clause: str, parameter: str, to: str) -> None:
    """The census of `protection` found these changes reported as faults: the encoder let
    a game step act on the main game of a restarted game that has none (a role bound only
    in some situations), or made a new game's parent "none" for a role not yet bound, where
    the interpreter refuses the event. Both readings now refuse it, and the change is
    caught with a counterexample that replays."""
    ((change, changed),) = [(c, rb) for c, rb in changes(official(), clause)
                            if c.parameter == parameter and c.new == to]
    found = protect(official(), clause, change=change, changed=changed)
    assert found.status == "protected", found.detail
    assert found.trace is not None
