"""Lemmas (`proofs.verdicts.lemmas`): a lemma strengthens a proof only if it is an invariant.

Houdini keeps a lemma only where every event keeps it and it holds at every game's
beginning: "no attraction card in a subgame" is kept under subgames wording 9 (which takes
only the planar and scheme decks into a subgame) and dropped under today's rules (which take
every supplementary deck: `start-subgame` breaks it); a lemma that a game's beginning breaks
is dropped before any event is asked; and the generalisations of a shape drop only the facts
they say."""

from __future__ import annotations

from pathlib import Path

from shahrazad.invariants.concrete import Binding, Evaluator
from shahrazad.invariants.lang import pre
from shahrazad.model.amendment import load_amendment
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.proofs.verdicts import lemmas
from shahrazad.proofs.verdicts.lemmas import Lemma, Shape, candidates, inductive, initiated

HISTORY = Path(__file__).resolve().parent.parent / "examples" / "history"


def _in_a_subgame(ctype: str, deck: str) -> Shape:
    return Shape(((("exists", True), ("kind", "card"), ("ctype", ctype), ("own_deck", deck),
                   ("zone", "exile"), ("active", True), ("has_parent", True)),))


def _wording(name: str) -> Rulebook:
    return load_amendment(HISTORY / f"{name}.toml").apply(official())


def test_a_lemma_every_event_keeps_is_kept() -> None:
    lemma = Lemma(_in_a_subgame("attraction", "attraction").without(lemmas.PLACE | {"active"}))
    kept = inductive(_wording("subgames-09"), [lemma], 5.0)
    assert kept.lemmas == [lemma], kept.dropped
    assert "in a subgame" in lemma.text and "attraction" in lemma.text


def test_a_lemma_an_event_breaks_is_dropped_and_says_which() -> None:
    lemma = Lemma(_in_a_subgame("attraction", "attraction").without(lemmas.PLACE | {"active"}))
    kept = inductive(official(), [lemma], 5.0)
    assert kept.lemmas == []
    assert kept.dropped[lemma.text].startswith("start-subgame: ")


def test_a_lemma_a_game_beginning_breaks_is_dropped() -> None:
    """No traditional card in a library of the main game: every game begins with them."""
    shape = Shape(((("exists", True), ("kind", "card"), ("ctype", "traditional"),
                   ("zone", "library"), ("has_parent", False)),))
    lemma = Lemma(shape)
    assert not initiated(lemma)
    kept = inductive(_wording("subgames-09"), [lemma], 5.0)
    assert kept.lemmas == [] and kept.dropped[lemma.text] == "it fails at a game's beginning"
    assert initiated(Lemma(_in_a_subgame("attraction", "attraction")))


def test_generalisations_drop_only_their_facts_and_come_once() -> None:
    shape = _in_a_subgame("plane", "planar")
    made = candidates([shape, shape])
    assert len(made) == len(lemmas.GENERALISATIONS)
    general = shape.without(lemmas.PLACE | {"active"})
    assert {a for a, _ in general.objects[0]} == {"exists", "kind", "ctype", "own_deck",
                                                   "has_parent"}
    assert lemmas.simplest(made) == [Lemma(general)]


def test_a_shape_holds_of_the_situation_it_describes() -> None:
    """The shape's term, read concretely, holds of a situation with such a card and not of
    one without (the term is what z3 is told to avoid)."""
    from shahrazad.model.objects import GameObject, ZoneRef
    from shahrazad.model.state import Game, Situation

    def situation(game: str) -> Situation:
        s = Situation(players=["P1"])
        main = Game(id="main", players=["P1"], status="suspended" if game != "main" else "active")
        s.games["main"] = main
        s.create_zones(main)
        if game != "main":
            sub = Game(id=game, players=["P1"], parent="main")
            s.games[game] = sub
            s.create_zones(sub)
        s.objects["c"] = GameObject(id="c", kind="card", owner="P1", controller="P1",
                                    card_type="attraction", deck="attraction")
        s.place("c", ZoneRef(game, "exile"), "bottom")
        return s

    term = _in_a_subgame("attraction", "attraction").term(pre)
    inside, outside = situation("sub1"), situation("main")
    assert Evaluator(inside, inside, Binding()).holds(term)
    assert not Evaluator(outside, outside, Binding()).holds(term)
