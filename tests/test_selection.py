"""The objects a step selects (`model.object_steps.selected`) are those of the step's game
that match its selector, in the order they stand in that game's zones: the skipped zones
and the exempt-only shortcut change which objects are looked at, never which are chosen or
in what order. Checked against the plain reading (every object of the game, each tested
by `matches`) for every selector of the official rules and of the example amendments, and
for one of each zone and of exemption alone, on generated situations, with each of their
games in the selector's role and with exempt objects or none."""

from __future__ import annotations

import glob
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from shahrazad.model.amendment import load_amendment
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Context, Interpreter
from shahrazad.model.language import Selector
from shahrazad.model.object_steps import matches, selected
from shahrazad.model.objects import ZONE_KINDS
from shahrazad.model.rulebook import official
from shahrazad.model.state import Situation
from shahrazad.model.strategies import situations

ROOT = Path(__file__).resolve().parent.parent


def _selectors() -> list[Selector]:
    rulebooks = [official()] + [load_amendment(path).apply(official()) for path in
                                sorted(glob.glob(str(ROOT / "examples/amendments/*.toml")))]
    found: dict[str, Selector] = {}
    for rulebook in rulebooks:
        for clause in rulebook:
            for step in clause.steps:
                if step.select is not None:
                    found.setdefault(repr(step.select), step.select)
    # And one selector of each zone, kept or ruled out, and of exempt objects or others,
    # alone: "command" takes in the supplementary decks (`_zone_is`), which no selector of
    # the rules above meets with a deck's card.
    for kind in ZONE_KINDS:
        found.setdefault(f"zone {kind}", Selector("main", zone=(kind,)))
        found.setdefault(f"not {kind}", Selector("main", zone_not=(kind,)))
    for flag in (True, False):
        found.setdefault(f"exempt {flag}", Selector("main", exempt=flag))
    return list(found.values())


SELECTORS = _selectors()


def _plain(state: Situation, ctx: Context, sel: Selector) -> list[str]:
    return [o for o in Interpreter._objects_of_game(state, ctx.roles.get(sel.game))
            if matches(state, ctx, sel, state.objects[o])]


def test_the_selectors_test_zones_and_exemption() -> None:
    """The shortcuts have something to skip: selectors by zone, by zones ruled out, and of
    exempt objects are among those checked."""
    assert any(s.zone for s in SELECTORS) and any(s.zone_not for s in SELECTORS)
    assert any(s.exempt for s in SELECTORS) and any(s.exempt is False for s in SELECTORS)


@settings(max_examples=60, deadline=None)
@given(state=situations(max_cards=10), data=st.data())
def test_selected_is_every_matching_object_in_zone_order(state: Situation,
                                                         data: st.DataObject) -> None:
    games = sorted(state.games)
    exempt = frozenset(data.draw(st.sets(st.sampled_from(sorted(state.objects)))
                                 if state.objects else st.just(set())))
    for sel in SELECTORS:
        for game in [*games, None]:
            ctx = Context(Event("restart", {}), 0, {sel.game: game}, exempt=exempt)
            assert selected(state, ctx, sel) == _plain(state, ctx, sel), (sel, game)
