"""The order of a game's start (rule 103), in both readings: a game that starts (a subgame,
728.2; the new game of a restart, 726.1) goes through rule 103's stages, starting player,
opening hands, mulligans, first turn, each reached by a step of the rulebook
(`starting-player`, `procedure`); a stage reached from any other than the one before it
leaves its mark on the game, and the restarting effect's further instructions record the
stage at which they were followed (726.4). The interpreter does it; the encoder's
transition is the same relation on those steps (conformance, agreement); and the order's
invariants are proved on the official rules and refuted, with a counterexample that
replays, under an amendment that reorders the clauses."""

from __future__ import annotations

from pathlib import Path

import pytest
from shahrazad.invariants.catalog import by_id
from shahrazad.model.amendment import load_amendment
from shahrazad.model.game_steps import advance
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.language import PROCEDURE_STAGES, LanguageError, parse_step
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.model.scenario import Scenario, dump_scenario, load_scenario, parse_scenario
from shahrazad.model.state import Game, Situation
from shahrazad.proofs.evidence.agreement import check
from shahrazad.proofs.evidence.conformance import conform
from shahrazad.proofs.evidence.counterexample import replay
from shahrazad.proofs.solving.obligations import Obligation, Status
from shahrazad.proofs.verdicts.prove import prove

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
REORDERED = EXAMPLES / "amendments" / "726.4-before-opening-hands.toml"
ORDER_INVARIANTS = [("start.procedure-order", "start-subgame"),
                    ("restart.procedure-order", "restart"),
                    ("restart.instructions-before-untap", "restart")]


def _moved(rulebook: Rulebook, name: str, *, after: str) -> Rulebook:
    """`rulebook` with the clause `name` moved to just after the clause `after`."""
    return rulebook.remove(name).add(rulebook.get(name), after=after)


def _run(rulebook: Rulebook, example: str) -> tuple[Scenario, Situation]:
    scenario = load_scenario(EXAMPLES / f"{example}.toml")
    outcome = Interpreter(rulebook).run(scenario.situation, scenario.events)
    return scenario, outcome.situation


def _new_game(situation: Situation, before: Situation) -> Game:
    (game,) = [g for g in situation.games.values() if g.id not in before.games]
    return game


# ---- the step in the language -----------------------------------------------------------


def test_the_step_reads_and_describes_itself() -> None:
    step = parse_step("step[0]", {"procedure": {"game": "new", "stage": "mulligans"}},
                      "restart")
    assert step.action == "procedure" and not step.is_object_step
    assert step.args == {"game": "new", "stage": "mulligans"}
    assert step.as_data() == {"procedure": {"game": "new", "stage": "mulligans"}}
    assert step.describe() == "procedure game=new stage=mulligans"


@pytest.mark.parametrize("table, key", [
    ({"game": "new", "stage": "new"}, "procedure.stage"),  # a game is new as it is made
    ({"game": "new", "stage": "upkeep"}, "procedure.stage"),
    ({"game": "subgame", "stage": "mulligans"}, "procedure.game"),  # not a role of a restart
    ({"game": "new", "stage": "mulligans", "hand": 7}, "procedure.hand"),
])
def test_the_language_refuses_what_it_does_not_have(table: dict[str, object], key: str) -> None:
    with pytest.raises(LanguageError, match=key):
        parse_step("step[0]", {"procedure": table}, "restart")


# ---- the interpreter --------------------------------------------------------------------


def test_a_game_read_from_a_scenario_is_past_its_start() -> None:
    scenario = load_scenario(EXAMPLES / "restart.first-turn.toml")
    for game in scenario.situation.games.values():
        assert (game.stage, game.out_of_order, game.instructions_at) == ("first-turn", False,
                                                                         None)


def test_advance_keeps_the_order_and_marks_a_stage_out_of_it() -> None:
    game = Game(id="g", players=["A", "B"], stage="new")
    for stage in PROCEDURE_STAGES[1:]:
        assert advance(game, stage).what == "stage"
    assert (game.stage, game.out_of_order) == ("first-turn", False)
    late = Game(id="h", players=["A", "B"], stage="new")
    assert advance(late, "opening-hands").what == "stage out of order"  # no starting player
    assert advance(late, "mulligans").what == "stage"
    assert (late.stage, late.out_of_order) == ("mulligans", True)  # the mark stays


def test_a_subgame_starts_in_rule_103s_order() -> None:
    scenario, after = _run(official(), "subgame.start.first-turn")
    sub = _new_game(after, scenario.situation)
    assert (sub.stage, sub.out_of_order, sub.instructions_at) == ("first-turn", False, None)
    assert after.games["main"].stage == "first-turn"  # the main game is past its start


def test_a_restart_follows_rule_103_and_karn_finishes_after_the_mulligans() -> None:
    scenario = load_scenario(EXAMPLES / "restart.first-turn.toml")
    outcome = Interpreter(official()).run(scenario.situation, scenario.events)
    new = _new_game(outcome.situation, scenario.situation)
    assert (new.stage, new.out_of_order, new.instructions_at) == ("first-turn", False,
                                                                  "mulligans")
    stages = [c.after for step in outcome.trace for c in step.changes if c.what == "stage"]
    assert stages == ["starting-player", "opening-hands", "mulligans", "first-turn"]
    assert outcome.situation.where["ann-sol-ring"].kind == "battlefield"


def test_a_stage_out_of_order_is_visible() -> None:
    # Karn's instructions before the starting player: they ran while the game was new.
    scenario, after = _run(load_amendment(REORDERED).apply(official()), "restart.first-turn")
    new = _new_game(after, scenario.situation)
    assert (new.stage, new.out_of_order, new.instructions_at) == ("first-turn", False, "new")
    # No opening hands: the first turn comes straight after the starting player.
    scenario, after = _run(official().remove("restart.opening-hands"), "restart.first-turn")
    new = _new_game(after, scenario.situation)
    assert (new.stage, new.out_of_order, new.instructions_at) == ("first-turn", True,
                                                                  "starting-player")
    # The starting player determined after the mulligans.
    late = _moved(official(), "subgame.start.starting-player", after="subgame.start.opening-hands")
    scenario, after = _run(late, "subgame.start.first-turn")
    sub = _new_game(after, scenario.situation)
    assert (sub.stage, sub.out_of_order) == ("first-turn", True)


def test_the_situation_in_words_says_how_the_start_went() -> None:
    from shahrazad.report.simulate import situation_text

    scenario, after = _run(official(), "restart.first-turn")
    words = "\n".join(situation_text(after))
    assert "further instructions followed at mulligans (726.4)" in words
    assert "start (rule 103)" not in words  # in order, at the first turn: nothing to say
    scenario, after = _run(official().remove("restart.opening-hands"), "restart.first-turn")
    words = "\n".join(situation_text(after))
    assert "start (rule 103): at first-turn, its stages out of order" in words
    assert "start (rule 103)" not in "\n".join(situation_text(scenario.situation))


# ---- both readings, and their agreement ---------------------------------------------------


RULEBOOKS = {
    "official": official,
    "reordered": lambda: load_amendment(REORDERED).apply(official()),
    "no-opening-hands": lambda: official().remove("restart.opening-hands")
    .remove("subgame.start.opening-hands"),
    "starting-player-late": lambda: _moved(
        _moved(official(), "subgame.start.starting-player", after="subgame.start.opening-hands"),
        "restart.starting-player", after="restart.finish-effect"),
}


# Two in the quick suite (a subgame's start, in order and out of it), all under `.ci/run`
# (a restart takes 3 to 5 s: behind `slow`, issue 9's quick suite).
@pytest.mark.parametrize("example, rulebook", [
    pytest.param(example, name, marks=() if name in ("official", "reordered")
                 and example == "subgame.start.first-turn" else pytest.mark.slow)
    for name in RULEBOOKS for example in ("subgame.start.first-turn", "restart.first-turn")])
def test_the_encoding_is_the_interpreter_on_the_procedure(rulebook: str, example: str) -> None:
    """Every attribute of every element after the event (the stage, the mark of disorder and
    the stage of Karn's instructions among them), in order and out of it."""
    book = RULEBOOKS[rulebook]()
    scenario = load_scenario(EXAMPLES / f"{example}.toml")
    assert conform(book, scenario.situation, scenario.events[0]) == []
    assert check(book, scenario.situation, scenario.events[0]) == []


# ---- the invariants -----------------------------------------------------------------------


@pytest.mark.parametrize("invariant, event", ORDER_INVARIANTS)
def test_the_order_is_proved_on_the_official_rules(invariant: str, event: str) -> None:
    result = prove(official(), Obligation(by_id(invariant), event))
    assert result.status == Status.PROVED, result.reason
    assert result.bound is None  # for every number of cards, players and games


@pytest.mark.parametrize("rulebook, invariant, event", [
    ("reordered", "restart.instructions-before-untap", "restart"),
    pytest.param("starting-player-late", "start.procedure-order", "start-subgame",
                 marks=pytest.mark.slow),  # 2-3 s: behind slow (issue 9's quick suite)
    pytest.param("starting-player-late", "restart.procedure-order", "restart",
                 marks=pytest.mark.slow),  # 4 s: behind slow (issue 9's quick suite)
])
def test_a_reordering_is_refuted_with_a_counterexample_that_replays(
        rulebook: str, invariant: str, event: str) -> None:
    book = RULEBOOKS[rulebook]()
    inv = by_id(invariant)
    result = prove(book, Obligation(inv, event))
    assert result.status == Status.REFUTED, result.reason
    assert result.counterexample is not None and result.trace is not None
    again = parse_scenario(dump_scenario(result.counterexample), file="cex.toml")
    assert replay(again, book, inv).violated
    assert not replay(again, official(), inv).violated


@pytest.mark.parametrize("clause, invariant, event", [
    ("subgame.start.opening-hands", "start.procedure-order", "start-subgame"),
    ("subgame.start.first-turn", "start.procedure-order", "start-subgame"),
    ("restart.opening-hands", "restart.procedure-order", "restart"),
    ("restart.first-turn", "restart.procedure-order", "restart"),
    ("restart.finish-effect", "restart.instructions-before-untap", "restart"),
])
def test_each_procedure_clause_is_protected(clause: str, invariant: str, event: str) -> None:
    result = prove(official().remove(clause), Obligation(by_id(invariant), event),
                   minimise_cex=False)
    assert result.status == Status.REFUTED, result.reason
