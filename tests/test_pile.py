"""A zone's contents (`model.state.Pile`): top first, like the list it replaced, with
constant-time puts and removals."""

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
