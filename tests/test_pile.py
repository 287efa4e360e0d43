"""A zone's contents (`model.state.Pile`): top first, like the list it replaced, with
constant-time puts and removals; and a zone's written path (`ZoneRef.path`), made once."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from shahrazad.model.state import Pile


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
