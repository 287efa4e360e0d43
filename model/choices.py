"""Randomness made explicit: every random choice of the rules goes through a `Chooser`.

Shuffling (CR 701.24) and the random starting player of a subgame (CR 728.2) are the only
random acts the model performs. `SeededChooser` makes them reproducible from a seed;
`ScriptedChooser` replays a fixed list of choices, and `enumerate_outcomes` walks every
branch of every choice to give the set of possible outcomes of an event.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Protocol, TypeVar

T = TypeVar("T")


class Chooser(Protocol):
    """Picks one of `n` options (0 <= pick < n); `why` says what is being chosen."""

    def pick(self, n: int, why: str) -> int:
        """The option chosen, from 0 to `n` - 1; `why` names the choice (a shuffle's begins
        with `SHUFFLE_WHY`)."""
        ...


class SeededChooser:
    """Pseudo-random choices from a seed: the same seed gives the same outcome."""

    def __init__(self, seed: int | None = 0):
        self.rng = random.Random(seed)

    def pick(self, n: int, why: str) -> int:
        """A pseudo-random option from the seeded generator (`why` plays no part)."""
        return self.rng.randrange(n)


class ScriptedChooser:
    """Replays a given list of picks, then picks 0; records how many options each had."""

    def __init__(self, script: list[int] | None = None):
        self.script = list(script or [])
        self.taken: list[tuple[int, int]] = []

    def pick(self, n: int, why: str) -> int:
        """The script's next pick, or 0 once it runs out; recorded in `taken` with its number
        of options `n`."""
        index = len(self.taken)
        value = self.script[index] if index < len(self.script) else 0
        self.taken.append((value, n))
        return value


SHUFFLE_WHY = "shuffle "  # how a shuffle's choices begin their `why`: "shuffle sub1/library/Ann"


def shuffle(items: list[T], chooser: Chooser, why: str) -> list[T]:
    """A uniform shuffle (Fisher-Yates) whose every swap is a choice of `chooser`."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = chooser.pick(i + 1, why)
        out[i], out[j] = out[j], out[i]
    return out


def enumerate_outcomes(run: Callable[[Chooser], T], limit: int = 10_000) -> Iterator[T]:
    """Run `run` once per combination of choices (depth-first), at most `limit` times.

    Raises OverflowError as soon as there are certainly more than `limit` branches (every
    branch not yet run holds at least one outcome), before the branches are allocated, so
    that a caller never mistakes a partial enumeration for the whole set and a big search
    costs neither time nor memory.
    """
    stack: list[list[int]] = [[]]
    runs = 0
    while stack:
        prefix = stack.pop()
        chooser = ScriptedChooser(prefix)
        result = run(chooser)
        runs += 1
        # Branch on every choice made past the prefix (each later position starts at 0).
        later = chooser.taken[len(prefix):]
        if runs + len(stack) + sum(options - 1 for _, options in later) > limit:
            raise OverflowError(f"more than {limit} possible outcomes")
        yield result
        for position in range(len(chooser.taken) - 1, len(prefix) - 1, -1):
            _, options = chooser.taken[position]
            base = [v for v, _ in chooser.taken[:position]]
            for alternative in range(options - 1, 0, -1):
                stack.append(base + [alternative])
