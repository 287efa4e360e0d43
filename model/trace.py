"""The trace: every step an event caused, with the clause and CR number behind it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Change:
    """One object's change: moved (with from/to), ceased, or set (with what); `copied` names
    the new object, the card it was made from (`before`) and where it is; `not copied` the
    card, where it is and why no copy was made."""

    object: str
    what: str
    before: str | None = None
    after: str | None = None

    def describe(self) -> str:
        """The change in words, as a line of a trace: `c1: main/hand/Ann -> sub1/library/Ann`."""
        if self.what == "moved":
            return f"{self.object}: {self.before} -> {self.after}"
        if self.what == "ceased":
            return f"{self.object} ceases to exist (was in {self.before})"
        if self.what == "stays":
            return f"{self.object} stays in {self.before}: {self.after}"
        if self.what == "copied":
            return f"{self.object}: made from {self.before} in {self.after}"
        if self.what == "not copied":
            return f"{self.object} in {self.before} is not copied: {self.after}"
        return f"{self.object}: {self.what}" + (f" ({self.after})" if self.after else "")

    def as_data(self) -> dict[str, Any]:
        """The change as JSON data: `object`, `what`, and `from` and `to` where given."""
        out: dict[str, Any] = {"object": self.object, "what": self.what}
        if self.before is not None:
            out["from"] = self.before
        if self.after is not None:
            out["to"] = self.after
        return out


@dataclass(frozen=True)
class TraceStep:
    """What one step did; `clause` is None for an in-game action (then `rule` is general)."""

    event: int
    clause: str | None
    rule: str
    text: str
    changes: tuple[Change, ...] = field(default_factory=tuple)

    def describe(self) -> str:
        """The step as `simulate` prints it: `[rule] clause: text`, then each change on a line of
        its own."""
        head = f"[{self.rule}] " + (f"{self.clause}: " if self.clause else "") + self.text
        if not self.changes:
            return head
        return head + "".join(f"\n      {c.describe()}" for c in self.changes)

    def as_data(self) -> dict[str, Any]:
        """The step as JSON data (`simulate --format json`): its event's index, clause, rule, text
        and changes."""
        return {
            "event": self.event,
            "clause": self.clause,
            "rule": self.rule,
            "text": self.text,
            "changes": [c.as_data() for c in self.changes],
        }
