"""Faults of the tool found by verifying rulebooks changed in two or three places at once
(435 of them, each change one that `shahrazad protection` makes, 2026-12-03). Each made
`verify` report a fault of its own, or end the whole run, under one of the amendments in
`tests/regressions/f*.amendment.toml`:

* f1: the main game ends as a subgame ends, then the main game "resumes". The interpreter
  made the ended game active again, the encoder left it active but not live: three
  counterexamples that did not replay. Now an ended game neither resumes nor is suspended,
  in both readings.
* f3: a restart's new game takes the players of the main game. An outermost game has none,
  and the interpreter refuses its restart; the encoder ignored that the role was bound only
  where the restarted game has a main game: twelve faults. Now both refuse it.
* f4: the reaching trace of one counterexample met two active games, and the error ended
  the run ("internal error"). Now the trace builder says why it cannot go on, and any error
  of the tool in one obligation costs that obligation, a fault, not the run.
* f5 (2026-12-04, a single change): no clause creates the subgame; f6 (a pair): no nesting,
  and a subgame's start that stops before its first turn. A subgame inside a subgame is
  then impossible, but the situation that shows it cannot be reached under that rulebook
  (f5: no subgame starts; f6: the first Shahrazad leaves a game that has not begun): a
  fault. Now f5's impossibility is shown on the way there, at the first event of the
  official rules' trace that the changed rulebook refuses; f6's in the subgame that has
  not begun, which games under that rulebook reach (a situation is legal when the
  rulebook's own events lead to it, `structure.still_legal`), where the second Shahrazad
  is refused.
* f7: a subgame's first turn taken in the main game, and commanders returned face down:
  every subgame's start leaves a game that has not begun. That was a fault of this tool,
  then unknown (no way to a counterexample at a subgame's end through a game that has not
  begun was taken as legal); it is refuted by the shortest game that reaches it.
* Once f1 was mended, another changed rulebook's counterexample came out otherwise, and
  minimising it removed a player on whom an effect acted but left the effect naming them:
  the tool's own scenario reader refused the result (caught by the guard of f4). A smaller
  variant now takes what acted on a removed player with them, and keeps a player that a
  record of the situation names.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shahrazad.invariants.catalog import by_id
from shahrazad.model.amendment import load_amendment
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.model.scenario import load_scenario, parse_scenario
from shahrazad.proofs.evidence import conformance
from shahrazad.proofs.solving.obligations import Obligation, Status

HERE = Path(__file__).resolve().parent
REGRESSIONS = HERE / "regressions"


def _amended(name: str) -> Rulebook:
    rulebook = load_amendment(REGRESSIONS / name).apply(official())
    assert rulebook is not None
    return rulebook


# Three games deep: the subgame sub2 of sub1 of main, as z3's counterexample under f1 had it.
THREE_DEEP = """
players = ["P1", "P2"]
[[game]]
id = "main"
[[game]]
id = "sub1"
parent = "main"
[[game]]
id = "sub2"
parent = "sub1"
[[event]]
do = "end-subgame"
"""


def test_an_ended_main_game_does_not_resume_in_either_reading() -> None:
    rulebook = _amended("f1-end-main-as-subgame-ends.amendment.toml")
    scenario = parse_scenario(THREE_DEEP, file="<three deep>")
    event = scenario.events[0]
    after = Interpreter(rulebook).run(scenario.situation, [event])
    assert after.situation.games["sub1"].status == "ended"
    assert any(step.text == "sub1 has ended: it does not resume" for step in after.trace)
    # The official rules end sub2 and resume sub1, as before.
    official_after = Interpreter(official()).run(scenario.situation, [event])
    assert official_after.situation.games["sub1"].status == "active"


@pytest.mark.slow  # about 5 s (a universe of three games); `.ci/run` runs it
def test_an_ended_main_game_that_does_not_resume_conforms() -> None:
    rulebook = _amended("f1-end-main-as-subgame-ends.amendment.toml")
    scenario = parse_scenario(THREE_DEEP, file="<three deep>")
    assert conformance.conform(rulebook, scenario.situation, scenario.events[0]) == []


def test_f1_no_longer_faults_and_refutes_what_it_breaks() -> None:
    from shahrazad.proofs.verdicts.prove import prove

    rulebook = _amended("f1-end-main-as-subgame-ends.amendment.toml")
    status = prove(rulebook, Obligation(by_id("structure.status"), "end-subgame"))
    assert status.status == Status.PROVED, status.reason
    refuted = prove(rulebook, Obligation(by_id("structure.one-active-game"), "end-subgame"))
    assert refuted.status == Status.REFUTED, refuted.reason
    assert refuted.trace is not None


def test_a_restart_of_an_outermost_game_that_names_its_main_game_is_refused_by_both() -> None:
    rulebook = _amended("f3-new-game-of-main-players.amendment.toml")
    situation = load_scenario(HERE.parent / "examples" / "restart.new-game.toml").situation
    (root,) = [g for g in situation.games.values() if g.parent is None]
    assert root.status == "active"  # the restarted game is outermost: it has no main game
    event = Event("restart", {"controller": root.players[0]})
    with pytest.raises(IllegalEvent, match="refers to the main game"):
        Interpreter(rulebook).run(situation, [event])
    assert conformance.conform_refusal(rulebook, situation, event) == []


def test_f3_a_restart_stays_possible_where_there_is_a_main_game() -> None:
    from shahrazad.proofs.verdicts.prove import prove

    rulebook = _amended("f3-new-game-of-main-players.amendment.toml")
    result = prove(rulebook, Obligation(by_id("possible.restart"), "restart"))
    assert result.status == Status.PROVED, result.reason


def test_the_trace_builder_says_why_two_active_games_stop_it() -> None:
    from shahrazad.proofs.evidence.reach import Unreachable, _Builder

    situation = parse_scenario(THREE_DEEP, file="<three deep>").situation
    builder = _Builder(situation, official(), 0)
    both = situation.copy()
    both.games["sub1"].status = "active"
    builder.state = both
    with pytest.raises(Unreachable, match="no single active game"):
        builder.restarting_ability(Event("restart", {"controller": "P1"}))


def test_an_error_of_the_tool_costs_one_obligation(monkeypatch: pytest.MonkeyPatch) -> None:
    from shahrazad.proofs.verdicts import prove as verify

    obligations = [Obligation(by_id("structure.one-active-game"), "turn"),
                   Obligation(by_id("structure.status"), "turn")]
    real = verify.prove

    def prove(rulebook: Rulebook, ob: Obligation, *args: object) -> object:
        if ob is obligations[0]:
            raise ValueError("a bug")
        return real(rulebook, ob, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(verify, "prove", prove)
    monkeypatch.delenv("SHAHRAZAD_DEBUG", raising=False)
    case = (official(), obligations, 5.0, 3, True, None)
    first, second = verify.prove_batch(case)
    assert first.status == Status.FAULT
    assert "internal error of this tool" in first.reason and "ValueError: a bug" in first.reason
    assert second.status == Status.PROVED
    monkeypatch.setenv("SHAHRAZAD_DEBUG", "1")
    with pytest.raises(ValueError, match="a bug"):
        verify.prove_batch(case)


@pytest.mark.slow  # about a minute (20 counterexamples tried); `.ci/run` runs it
def test_f4_the_run_ends_undecided_not_in_an_internal_error() -> None:
    """No counterexample is reached (the way there leaves two active games), and no lemma
    proves it: unknown, saying why, never an internal error."""
    from shahrazad.proofs.verdicts.prove import prove

    rulebook = _amended("f4-main-cards-restarted-no-suspend.amendment.toml")
    result = prove(rulebook, Obligation(by_id("restart.main-unaffected"), "restart"))
    assert result.status == Status.UNKNOWN
    assert "no single active game" in result.reason


# Three players; an effect of sub1 acts on each of them, and Cat owns nothing: the
# minimiser may leave Cat out, with what acted on her. Dan owns nothing either, but the
# record of an ended game names him.
EFFECT_ON_EVERYONE = """
players = ["Ann", "Bob", "Cat", "Dan"]
[[game]]
id = "main"
players = ["Ann", "Bob", "Cat", "Dan"]
[[object]]
id = "e1"
kind = "effect"
controller = "Ann"
at = "main/effects"
[[card]]
id = "c1"
owner = "Bob"
at = "main/hand/Bob"
[[player-effect]]
player = "Ann"
effect = "e1"
[[player-effect]]
player = "Cat"
effect = "e1"
[[ended]]
id = "old"
result = "win"
winners = ["Dan"]
players = ["Ann", "Dan"]
[[event]]
do = "start-subgame"
by = "Ann"
"""


def test_a_smaller_counterexample_takes_what_acted_on_a_removed_player_with_them() -> None:
    from shahrazad.proofs.evidence.counterexample import _smaller, canonical

    scenario = parse_scenario(EFFECT_ON_EVERYONE, file="<effects>")
    variants = _smaller(scenario)
    without = [v for v in variants if v.situation.players == ["Ann", "Bob", "Dan"]]
    assert len(without) == 1
    assert without[0].situation.player_effects == {"Ann": ["e1"]}
    assert not any("Dan" not in v.situation.players for v in variants)
    for variant in variants:
        canonical(variant)  # each reads back as a scenario


def test_f5_an_impossibility_is_shown_on_the_way_when_its_situation_cannot_be_reached() -> None:
    """Where no clause creates the subgame, a subgame inside a subgame is impossible, and so
    is the first subgame: the situation where the official rules allow a second one cannot
    be reached. The refutation shows the first event on the official rules' way there that
    this rulebook refuses, reached and replayed, instead of a fault."""
    from shahrazad.proofs.evidence.counterexample import replay_refusal
    from shahrazad.proofs.evidence.reach import impossible, replay_reached
    from shahrazad.proofs.verdicts.prove import prove

    rulebook = _amended("f5-no-clause-creates-the-subgame.amendment.toml")
    invariant = by_id("possible.nested-subgame")
    result = prove(rulebook, Obligation(invariant, "start-subgame"))
    assert result.status == Status.REFUTED, result.reason
    assert result.counterexample is not None and result.trace is not None
    assert [e.kind for e in result.counterexample.events] == ["start-subgame"]
    assert "is refused: start-subgame: the rulebook refers to the subgame game, but no " \
           "clause created it" in result.counterexample.description
    assert replay_reached(result.trace, rulebook, impossible(invariant)) is None
    # The official rules allow the event refused here: their way leads on, to the subgame.
    assert replay_refusal(result.counterexample, official()) is None
    assert replay_refusal(result.counterexample, rulebook) is not None


def test_f6_an_impossibility_is_shown_in_the_games_the_rulebook_makes() -> None:
    """No nesting, and a subgame's start that stops before its first turn: the first
    Shahrazad leaves a subgame that has not begun (structure.games-begun), a situation that
    games under this rulebook reach. The refutation of the nested subgame shows the second
    Shahrazad refused there, for the reason the rulebook gives: no nesting."""
    from shahrazad.invariants.structure import catalog_problems
    from shahrazad.proofs.evidence.counterexample import replay_refusal
    from shahrazad.proofs.evidence.reach import impossible, replay_reached
    from shahrazad.proofs.verdicts.prove import prove

    rulebook = _amended("f6-no-nesting-no-first-turn.amendment.toml")
    invariant = by_id("possible.nested-subgame")
    result = prove(rulebook, Obligation(invariant, "start-subgame"))
    assert result.status == Status.REFUTED, result.reason
    assert result.counterexample is not None and result.trace is not None
    assert "no clause permits a subgame inside a subgame" in result.counterexample.description
    assert [e.kind for e in result.trace.events] == ["start-subgame", "start-subgame"]
    shown = result.counterexample
    assert any(p.startswith("structure.games-begun") for p in catalog_problems(shown.situation))
    assert replay_reached(result.trace, rulebook, impossible(invariant)) is None
    assert replay_refusal(shown, official()) is None


def test_f7_a_way_through_what_the_rulebook_itself_makes_is_a_refutation() -> None:
    """A subgame's first turn taken in the main game: every subgame's start leaves a game
    that has not begun (structure.games-begun, refuted at start-subgame), a situation games
    under this rulebook reach. Its end then sends a commander home face down, and
    end.faces-kept is refuted by the shortest such game: a Shahrazad, and the subgame's end."""
    from shahrazad.invariants.structure import catalog_problems
    from shahrazad.proofs.evidence.reach import breaks_invariant, replay_reached
    from shahrazad.proofs.verdicts.prove import prove

    rulebook = _amended("f7-first-turn-in-the-main-game.amendment.toml")
    begun = prove(rulebook, Obligation(by_id("structure.games-begun"), "start-subgame"))
    assert begun.status == Status.REFUTED, begun.reason
    invariant = by_id("end.faces-kept")
    result = prove(rulebook, Obligation(invariant, "end-subgame"))
    assert result.status == Status.REFUTED, result.reason
    assert result.trace is not None and result.counterexample is not None
    assert [e.kind for e in result.trace.events] == ["start-subgame", "end-subgame"]
    assert any(p.startswith("structure.games-begun")
               for p in catalog_problems(result.counterexample.situation))
    assert replay_reached(result.trace, rulebook, breaks_invariant(invariant)) is None
    assert replay_reached(result.trace, official(), breaks_invariant(invariant)) is not None
