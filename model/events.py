"""Events: what happens to a situation, one at a time.

Four events are defined by the rulebook's clauses: `start-subgame`, `end-subgame`,
`restart` and `bring-in` (plus `affect`, an effect acting on an object or player, which
728.1b constrains). The others are the in-game actions needed to reach any situation
(move, create, counter, phase, turn, leave, control); they follow the general rules and cite them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

# For each event: its arguments, as (name, type, required). Types: "str", "int", "bool",
# "list[str]". `docs/scenario-format.md` documents them.
EVENT_ARGS: Final[dict[str, tuple[tuple[str, str, bool], ...]]] = {
    "start-subgame": (("by", "str", False), ("via", "str", False), ("card", "str", False)),
    "end-subgame": (("winner", "list[str]", False), ("draw", "bool", False)),
    "restart": (("controller", "str", True), ("source", "str", False),
                ("then", "str", False), ("via", "str", False)),
    "bring-in": (("card", "str", True), ("to", "str", False), ("by", "str", False)),
    "move": (("object", "str", True), ("to", "str", True), ("position", "str", False),
             ("exiled-with", "str", False)),
    "create": (("kind", "str", True), ("id", "str", False), ("name", "str", False),
               ("controller", "str", True), ("to", "str", False),
               ("copy-of", "str", False), ("triggers", "list[str]", False)),
    "counter": (("player", "str", False), ("object", "str", False), ("kind", "str", True),
                ("add", "int", True)),
    "phase": (("object", "str", True), ("out", "bool", True)),
    "turn": (("object", "str", True), ("face", "str", True)),
    "leave": (("player", "str", True),),
    "control": (("object", "str", True), ("player", "str", True)),
    "affect": (("effect", "str", True), ("object", "str", False), ("player", "str", False)),
}

# The general rule each in-game action follows, cited in traces.
GENERAL_RULES: Final[dict[str, str]] = {
    "move": "400.7",
    "create": "111.1",
    "counter": "122.1",
    "phase": "702.26",
    "turn": "708.2",
    "leave": "800.4a",
    "control": "613.1b",
}


@dataclass(frozen=True)
class Event:
    """One event with its arguments; `line` is where it stands in its scenario file."""

    kind: str
    args: dict[str, Any] = field(default_factory=dict)
    line: int | None = None

    def get(self, name: str, default: Any = None) -> Any:
        """The argument `name`, or `default` when the event does not give it."""
        return self.args.get(name, default)

    def describe(self) -> str:
        """The event in one line, as traces show it: `kind(name=value, ...)`."""
        shown = ", ".join(f"{k}={v}" for k, v in self.args.items())
        return f"{self.kind}({shown})"

    def as_data(self) -> dict[str, Any]:
        """The event as an event table of a scenario file, `do` and its arguments (`check_event`
        reads it back)."""
        return {"do": self.kind, **self.args}


def check_event(data: Any) -> tuple[Event | None, str | None]:
    """Read an event table; return the event, or None and what is wrong with it."""
    if not isinstance(data, dict):
        return None, "an event is a table with a 'do' key"
    kind = data.get("do")
    if not isinstance(kind, str) or kind not in EVENT_ARGS:
        return None, f"unknown event {kind!r} (one of {', '.join(EVENT_ARGS)})"
    spec = {name: (typ, required) for name, typ, required in EVENT_ARGS[kind]}
    args: dict[str, Any] = {}
    for key, value in data.items():
        if key == "do":
            continue
        if key not in spec:
            if kind == "restart" and key == "exempt":  # the argument of earlier versions
                return None, ("restart: exempt is no argument: the cards left in exile are "
                              "computed (726.5); name the restarting object with source = ID "
                              "and record each card it exiled with exiled-with = ID")
            return None, f"{kind}: unknown argument {key!r} (allowed: {', '.join(spec) or 'none'})"
        typ = spec[key][0]
        if not _is(value, typ):
            return None, f"{kind}: {key} must be {typ.replace('list[str]', 'a list of names')}"
        args[key] = list(value) if isinstance(value, list) else value
    missing = [name for name, (_, required) in spec.items() if required and name not in args]
    if missing:
        return None, f"{kind}: missing {', '.join(missing)}"
    return Event(kind, args), None


def _is(value: Any, typ: str) -> bool:
    if typ == "str":
        return isinstance(value, str) and value != ""
    if typ == "int":
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**63
    if typ == "bool":
        return isinstance(value, bool)
    return isinstance(value, list) and all(isinstance(v, str) for v in value)
