"""A zone's contents (`model.state.Pile`): top first, like the list it replaced, with
constant-time puts and removals; a zone's written path (`ZoneRef.path`), made once; and new
names gathered once for a step that names many objects."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from shahrazad.model.state import Pile, Situation

from tests.situations import build, card, ev, library, run


def test_top_and_bottom() -> None:
    pile = Pile(["b", "c"])
    pile.put_on_top("a")
    pile.append("d")
    pile.put_on_top("z")
    assert list(pile) == ["z", "a", "b", "c", "d"]
    pile.remove("a")
    pile.remove("c")
    assert list(pile) == ["z", "b", "d"] and pile == ["z", "b", "d"]
    assert "b" in pile and "a" not in pile and len(pile) == 3
    assert Pile() == [] and not Pile()


@given(st.lists(st.tuples(st.sampled_from(["top", "bottom", "remove"]),
                          st.integers(0, 9))))
def test_a_pile_is_a_list_with_cheap_ends(operations: list[tuple[str, int]]) -> None:
    """The same operations on a list (insert(0), append, remove) give the same order."""
    pile, model = Pile(), []
    for what, n in operations:
        item = f"o{n}"
        if what == "remove":
            if item in model:
                model.remove(item)
                pile.remove(item)
        elif item not in model:
            if what == "top":
                model.insert(0, item)
                pile.put_on_top(item)
            else:
                model.append(item)
                pile.append(item)
        assert list(pile) == model and len(pile) == len(model)


def test_a_zone_path_is_made_once() -> None:
    """A trace names the zones each moved card leaves and enters: one string per zone, not
    per move (a restart of 200,000 cards made 400,000 of them), equal to the written path."""
    import pickle

    from shahrazad.model.objects import ZoneRef, parse_zone

    zone = ZoneRef("main", "library", "Ann")
    assert zone.path() == "main/library/Ann"
    assert zone.path() is zone.path() is ZoneRef("main", "library", "Ann").path()
    assert str(ZoneRef(None, "outside", "Bob")) == "outside/Bob"
    assert parse_zone(zone.path()) == zone and hash(parse_zone(zone.path())) == hash(zone)
    again = pickle.loads(pickle.dumps(zone))
    assert again == zone and again.path() == zone.path()


def test_many_abilities_that_trigger_are_named_at_once(monkeypatch) -> None:
    """A card brought into a subgame (728.4a) that many main-game abilities see leave: each
    waiting trigger gets a new name (109.1), and the names in use are gathered once for the
    step, not once for each ability (which made the step quadratic in the situation)."""
    watchers = [card(f"w{i}", "A", "main/battlefield", triggers=["leaves-zone"])
                for i in range(6)]
    before = build(["A", "B"], cards=[*library("A", 3), *library("B", 3),
                                      card("ah", "A", "main/hand/A"), *watchers])
    subgame = run(before, [ev("start-subgame", by="A")]).situation
    gathered = []
    names_in_use = Situation.names_in_use

    def counted(self: Situation) -> set[str]:
        gathered.append(1)
        return names_in_use(self)

    monkeypatch.setattr(Situation, "names_in_use", counted)
    after = run(subgame, [ev("bring-in", card="ah")]).situation
    waiting = after.games["main"].pending_triggers
    assert sorted(t.source for t in waiting) == [f"w{i}" for i in range(6)]
    assert len(gathered) == 1
    assert len({t.id for t in waiting}) == 6
    assert not {t.id for t in waiting} & subgame.names_in_use()
