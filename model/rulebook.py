"""The rulebook: the clauses of the subgame and restart rules, keyed by stable names.

The official rulebook ships as `model/rulebook.toml`. A rulebook can be changed clause by
clause (`replace`, `remove`, `add`), which is what an amendment does; every change gives a
new `Rulebook` and leaves the old one as it was.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import InputError
from .inputs import parse_toml, read_text
from .language import EVENT_ROLES, Clause, LanguageError, Step, parse_step

OFFICIAL_NAME = "rulebook.toml"
_NAME = re.compile(r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$")
_CR = re.compile(r"^\d{3}(\.\d+[a-z]?)?$")
_EDITION = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class Rulebook:
    """An ordered set of clauses; on an event, its clauses run in this order."""

    title: str
    clauses: tuple[Clause, ...]
    editions: tuple[str, ...] = ("2026-01-16", "2026-09-25")
    default_edition: str = "2026-01-16"
    source: str = "<official>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a call of `official` where it is the official rulebook, which a worker
        process reads itself (once), and whole otherwise."""
        if self is _OFFICIAL:
            return official, ()
        return Rulebook, (self.title, self.clauses, self.editions, self.default_edition,
                          self.source)

    # ---- reading ------------------------------------------------------------------------

    def __iter__(self) -> Iterator[Clause]:
        return iter(self.clauses)

    def __len__(self) -> int:
        return len(self.clauses)

    def names(self) -> list[str]:
        """The clauses' names, in rulebook order."""
        return [c.name for c in self.clauses]

    def get(self, name: str) -> Clause:
        """The clause named `name`; KeyError if the rulebook has none."""
        for clause in self.clauses:
            if clause.name == name:
                return clause
        raise KeyError(name)

    def on(self, event: str) -> list[Clause]:
        """The clauses acting on `event`, in order."""
        return [c for c in self.clauses if c.on == event]

    def grants(self, event: str, action: str, what: str) -> Clause | None:
        """The first clause on `event` with a step `{action = what}` (permit or forbid).

        A permission that some clause on the event also forbids is not granted: when a rule
        allows something and another says it can't happen, "can't" wins (CR 101.2). Both
        readings ask here, so they agree on it."""
        if action == "permit" and self._with(event, "forbid", what) is not None:
            return None
        return self._with(event, action, what)

    def _with(self, event: str, action: str, what: str) -> Clause | None:
        for clause in self.on(event):
            for step in clause.steps:
                if step.action == action and step.args.get("_") == what:
                    return clause
        return None

    def contradictions(self) -> list[tuple[Clause, Clause, str]]:
        """Each (permitting clause, forbidding clause, what) on one event: the permission
        never applies (CR 101.2)."""
        out = []
        for clause in self.clauses:
            for step in clause.steps:
                if step.action == "permit":
                    what = step.args.get("_")
                    forbidding = self._with(clause.on, "forbid", str(what))
                    if forbidding is not None:
                        out.append((clause, forbidding, str(what)))
        return out

    def cite(self, name: str, edition: str | None = None) -> str:
        """The named clause's CR number in `edition` (by default this rulebook's), or in the newest
        edition that gives it one; KeyError for an unknown clause."""
        return self.get(name).cite(edition or self.default_edition)

    # ---- changing (amendments) ----------------------------------------------------------

    def replace(self, clause: Clause) -> Rulebook:
        """The rulebook with the clause of the same name replaced, in its place."""
        self.get(clause.name)
        return replace(self, clauses=tuple(clause if c.name == clause.name else c
                                           for c in self.clauses))

    def remove(self, name: str) -> Rulebook:
        """The rulebook without the named clause (KeyError if it has none)."""
        self.get(name)
        return replace(self, clauses=tuple(c for c in self.clauses if c.name != name))

    def add(self, clause: Clause, *, after: str | None = None, before: str | None = None) -> Rulebook:
        """The rulebook with a new clause, at the end or next to a named clause."""
        if clause.name in self.names():
            raise ValueError(f"clause {clause.name!r} already exists")
        items = list(self.clauses)
        if after is not None:
            items.insert(self.names().index(self.get(after).name) + 1, clause)
        elif before is not None:
            items.insert(self.names().index(self.get(before).name), clause)
        else:
            items.append(clause)
        return replace(self, clauses=tuple(items))

    def as_data(self) -> dict[str, Any]:
        """The rulebook as TOML data that `parse_rulebook` reads back: title, editions, default
        edition and clauses (not its `source`)."""
        return {
            "title": self.title,
            "editions": list(self.editions),
            "default-edition": self.default_edition,
            "clause": [c.as_data() for c in self.clauses],
        }


# ---- loading ------------------------------------------------------------------------------


def _clause_lines(text: str) -> dict[str, int]:
    """The line of each `name = "..."` in a TOML text, to point errors at a clause."""
    out: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        m = re.match(r'\s*name\s*=\s*"([^"]*)"', line)
        if m and m.group(1) not in out:
            out[m.group(1)] = number
    return out


def _line_of_key(text: str, start: int | None, key: str) -> int | None:
    """The first line at or after `start` that mentions the last part of a dotted key."""
    if start is None:
        return None
    last = key.split(".")[-1].split("[")[0]
    lines = text.splitlines()
    for number in range(start, len(lines) + 1):
        if re.search(rf"(^|[\s{{,]){re.escape(last)}\s*=", lines[number - 1]):
            return number
        if number > start and re.match(r"\s*\[\[clause\]\]", lines[number - 1]):
            break
    return start


def parse_clause(data: Any, *, file: str, text: str = "", index: int = 0,
                 line: int | None = None) -> Clause:
    """Read one clause table; InputError names the file, the line and what is wrong."""
    where = f"clause {index + 1}"
    if not isinstance(data, dict):
        raise InputError(f"{where}: a clause is a table", file=file, line=line)
    name = data.get("name")
    if isinstance(name, str):
        where = f"clause {name!r}"
        line = line or _clause_lines(text).get(name)
    allowed = ("name", "cr", "summary", "on", "step")
    for key in data:
        if key not in allowed:
            raise InputError(f"{where}: unknown key {key!r} (allowed: {', '.join(allowed)})",
                             file=file, line=_line_of_key(text, line, key))
    if not isinstance(name, str) or not _NAME.match(name):
        raise InputError(f"{where}: 'name' must be a dotted lower-case name like "
                         "'subgame.end.return-cards'", file=file, line=line)
    cr = data.get("cr")
    if not isinstance(cr, dict) or not cr:
        raise InputError(f"{where}: 'cr' must map editions to rule numbers, "
                         "like cr = {{ \"2026-01-16\" = \"728.5\" }}", file=file, line=line)
    for edition, number in cr.items():
        if not (isinstance(edition, str) and _EDITION.match(edition)
                and isinstance(number, str) and _CR.match(number)):
            raise InputError(f"{where}: cr entry {edition!r} = {number!r} is not "
                             "YYYY-MM-DD = \"NNN.Nx\"", file=file, line=_line_of_key(text, line, "cr"))
    summary = data.get("summary")
    if not isinstance(summary, str) or not summary.strip():
        raise InputError(f"{where}: 'summary' must be a sentence", file=file, line=line)
    on = data.get("on")
    if not isinstance(on, str) or on not in EVENT_ROLES:
        raise InputError(f"{where}: 'on' must be one of {', '.join(EVENT_ROLES)}, not {on!r}",
                         file=file, line=_line_of_key(text, line, "on"))
    raw_steps = data.get("step")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise InputError(f"{where}: 'step' must be a non-empty list of steps",
                         file=file, line=line)
    steps: list[Step] = []
    for number, raw in enumerate(raw_steps, start=1):
        try:
            steps.append(parse_step(f"step {number}", raw, on))
        except LanguageError as err:
            raise InputError(f"{where}: {err}", file=file,
                             line=_line_of_key(text, line, err.key)) from None
    return Clause(name=name, cr=dict(cr), summary=summary.strip(), on=on, steps=tuple(steps),
                  line=line, file=file)


def parse_rulebook(text: str, *, file: str) -> Rulebook:
    """Read a rulebook TOML text; InputError on any fault."""
    data = parse_toml(text, file=file)
    allowed = ("title", "editions", "default-edition", "clause")
    for key in data:
        if key not in allowed:
            raise InputError(f"unknown top-level key {key!r} (allowed: {', '.join(allowed)})",
                             file=file, line=_line_of_key(text, 1, key))
    raw = data.get("clause")
    if not isinstance(raw, list) or not raw:
        raise InputError("a rulebook needs at least one [[clause]]", file=file)
    # Each clause's line, found in one pass over the text (`parse_clause` alone scans it).
    lines = _clause_lines(text)
    clauses = [parse_clause(c, file=file, text=text, index=i,
                            line=lines.get(c["name"]) if isinstance(c, dict)
                            and isinstance(c.get("name"), str) else None)
               for i, c in enumerate(raw)]
    seen: set[str] = set()
    for clause in clauses:
        if clause.name in seen:
            raise InputError(f"clause {clause.name!r} is defined twice", file=file,
                             line=clause.line)
        seen.add(clause.name)
    editions = data.get("editions", ["2026-01-16", "2026-09-25"])
    if not isinstance(editions, list) or not all(
            isinstance(e, str) and _EDITION.match(e) for e in editions):
        raise InputError("editions must be a list of dates YYYY-MM-DD", file=file,
                         line=_line_of_key(text, 1, "editions"))
    default = data.get("default-edition", editions[0] if editions else "2026-01-16")
    if not isinstance(default, str) or not _EDITION.match(default):
        raise InputError("default-edition must be a date YYYY-MM-DD", file=file,
                         line=_line_of_key(text, 1, "default-edition"))
    return Rulebook(title=str(data.get("title", file)), clauses=tuple(clauses),
                    editions=tuple(editions), default_edition=str(default), source=file)


def load_rulebook(path: str | Path | None = None) -> Rulebook:
    """The rulebook at `path`, or the official one shipped in the package (its `source`
    is `<official>`; its clauses' `file` is the packaged `rulebook.toml`'s real path, for
    reports that point at a clause)."""
    if path is None:
        packaged = resources.files(__package__).joinpath(OFFICIAL_NAME)
        rulebook = parse_rulebook(packaged.read_text(encoding="utf-8"), file=OFFICIAL_NAME)
        real = str(packaged) if isinstance(packaged, Path) else None  # None: inside a zip
        return replace(rulebook, source="<official>",
                       clauses=tuple(replace(c, file=real) for c in rulebook.clauses))
    return parse_rulebook(read_text(path), file=str(path))


_OFFICIAL: Rulebook | None = None


def official() -> Rulebook:
    """The official rulebook (read once per process)."""
    global _OFFICIAL
    if _OFFICIAL is None:
        _OFFICIAL = load_rulebook()
    return _OFFICIAL
