"""The mutants that `docs/mutation.md` lists as equivalent, and the reason, checked.

A mutant is equivalent when no run of the project can tell it from the original. The claim
is checked here on the smallest situation where it could fail, by enumerating every random
outcome under both rulebooks and comparing the sets of situations reached, the order of
every zone included. Each test also shows the check is not vacuous: without the step the
reason rests on, the two rulebooks part.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
import z3
from shahrazad.invariants.catalog import structure_terms
from shahrazad.invariants.lang import pre
from shahrazad.model.choices import Chooser, enumerate_outcomes
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.rulebook import OFFICIAL_NAME, Rulebook, official, parse_rulebook
from shahrazad.model.scenario import parse_scenario, situation_data
from shahrazad.model.state import Situation
from shahrazad.proofs.encoding.encode import encode_event
from shahrazad.proofs.encoding.encoder import Transition
from shahrazad.proofs.encoding.symbolic import TermEncoder, Universe

OFFICIAL_TEXT = resources.files("shahrazad.model").joinpath(OFFICIAL_NAME).read_text(
    encoding="utf-8")

TO_BOTTOM = 'deck = "began-in", position = "bottom", face = "down"'
DECK_SHUFFLE = '  { shuffle = { game = "main", zone = "deck" } },\n'

# Ann's planar deck has two planes; a third, which began the subgame in it, is face up in
# the subgame command zone as the subgame ends.
SITUATION = """
players = ["Ann", "Bob"]
[[game]]
id = "main"
variants = ["planechase"]
[[game]]
id = "sub"
parent = "main"
created-by = "shahrazad"
variants = ["planechase"]
began-in-deck = { naya = "planar" }
[[card]]
id = "shahrazad"
owner = "Ann"
at = "main/stack"
[[card]]
id = "naya"
owner = "Ann"
type = "plane"
at = "sub/command"
[[card]]
id = "tazeem"
owner = "Ann"
type = "plane"
at = "sub/deck/Ann/planar"
face = "down"
[[card]]
id = "llanowar"
owner = "Ann"
type = "plane"
at = "sub/deck/Ann/planar"
face = "down"
"""


def _rulebook(text: str) -> Rulebook:
    return parse_rulebook(text, file="<mutant>")


def _reached(rulebook: Rulebook, situation: Situation) -> set[str]:
    """Every situation the end of the subgame can reach, as canonical text with zone order."""
    def run(chooser: Chooser) -> Any:
        return Interpreter(rulebook, chooser).run(situation, [Event("end-subgame", {})])

    out = set()
    for outcome in enumerate_outcomes(run, limit=1000):
        data = situation_data(outcome.situation)
        out.add(json.dumps(data, sort_keys=True))
    return out


def _situation() -> Situation:
    return parse_scenario(SITUATION, file="<situation>").situation


def test_the_situation_reads_and_ends() -> None:
    reached = _reached(official(), _situation())
    assert len(reached) >= 6  # the three planes of the deck, in every order


def test_supplementary_cards_to_the_top_is_equivalent() -> None:
    """`rules.supplementary-to-top`: 728.5a puts the card on the bottom of its deck, and
    then shuffles the deck in the main-game command zone; which end the card went to cannot
    be seen once the deck is shuffled."""
    assert OFFICIAL_TEXT.count(TO_BOTTOM) == 1
    top = OFFICIAL_TEXT.replace(TO_BOTTOM, TO_BOTTOM.replace("bottom", "top"))
    assert _reached(_rulebook(top), _situation()) == _reached(official(), _situation())


def test_without_the_shuffle_the_end_it_goes_to_shows() -> None:
    """The check can fail: with no shuffle after it, top and bottom part."""
    assert OFFICIAL_TEXT.count(DECK_SHUFFLE) == 1
    unshuffled = OFFICIAL_TEXT.replace(DECK_SHUFFLE, "")
    top = unshuffled.replace(TO_BOTTOM, TO_BOTTOM.replace("bottom", "top"))
    assert _reached(_rulebook(top), _situation()) != _reached(_rulebook(unshuffled),
                                                              _situation())


def _only_the_structure_rules_out(u: Universe, t: Transition, condition: z3.ExprRef) -> None:
    """`condition` can hold during the event when nothing is assumed of the situation before
    it (so the check is not vacuous), and cannot once the structure invariants hold."""
    solver = z3.Solver(ctx=u.ctx)
    solver.set(timeout=20000)
    solver.add(*t.constraints, condition)
    assert str(solver.check()) == "sat"
    enc = TermEncoder(u, t.pre, t.post, t.binding)
    solver.add(*(enc.encode(h) for h in structure_terms(pre)))
    assert str(solver.check()) == "unsat"


@pytest.mark.parametrize("event,clause,role", [("restart", "restart.nothing-else", "restarted"),
                                               ("end-subgame", "subgame.end.cease", "subgame")])
def test_a_game_whose_zones_cease_has_no_waiting_trigger(event: str, clause: str,
                                                         role: str) -> None:
    """`enc.destroyed-game-keeps-triggers`: clearing the waiting triggers of a game whose
    zones cease changes nothing, because there are none. Triggers wait only in a suspended
    game (728.4a, `structure.triggers`), and the games whose zones cease are the restarted
    game and the ending subgame, both active. z3 proves it for every size: in no situation
    that keeps the structure invariants does the game have a waiting trigger as its zones
    cease, under the official rules."""
    u = Universe(None)
    t = encode_event(official(), event, u)
    index = next(i for i, (label, _) in enumerate(t.states)
                 if label.startswith(clause) and t.states[i][1] is not t.states[i - 1][1]
                 and "present" in t.states[i][1].arrays
                 and t.states[i][1].arrays["present"] is not t.states[i - 1][1].arrays["present"])
    before = t.states[index - 1][1]
    game = t.binding.roles[role]
    o = u.const("o!waits", "obj")
    _only_the_structure_rules_out(u, t, z3.Exists([o], before.get("waiting", game, o)))


def test_a_creating_card_finishes_in_a_game_its_owner_plays() -> None:
    """`enc.finish-creator-unchecked`: the creating card goes to its owner's graveyard only
    if its owner plays the game; dropping that test changes nothing, because an object in a
    game is always owned by one of its players (`structure.owners-play`, 108.3, 728.4) and
    ending a subgame removes no player from the main game. z3 proves it for every size."""
    u = Universe(None)
    t = encode_event(official(), "end-subgame", u)
    index = next(i for i, (label, _) in enumerate(t.states)
                 if label.startswith("subgame.end.finish-creator"))
    before = t.states[index - 1][1]
    game = t.binding.roles["main"]
    c = t.params["creator"]
    _only_the_structure_rules_out(u, t, z3.And(
        c != u.noobj, before.get("exists", c),
        before.get("zone", c) == u.enum("zone", "stack"), before.get("game", c) == game,
        before.get("kind", c) == u.enum("kind", "card"),
        z3.Not(before.get("plays", game, before.get("owner", c)))))
