"""Amendment files: changes to a rulebook, clause by clause, by stable name.

```toml
title = "728.5 without its command-zone exception"
description = "Cards in the subgame command zone go to the main-game library too."
breaks = ["end.commanders-return"]   # optional: the invariants the author expects to break

[[replace]]                          # a whole new clause under an existing name
name = "subgame.end.return-cards"
cr = { "2026-01-16" = "728.5" }
summary = "..."
on = "end-subgame"
step = [ ... ]

[[remove]]
name = "subgame.end.commander"

[[add]]                              # a new clause, placed after (or before) a named one
after = "subgame.end.cease"
name = "..."
...
```

Changes apply in the order replace, remove, add. Every fault is an InputError naming the
file and the line. See docs/amendments.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shahrazad.model.errors import InputError, did_you_mean
from shahrazad.model.inputs import parse_toml, read_text
from shahrazad.model.rulebook import Rulebook, _clause_lines, parse_clause


@dataclass
class Amendment:
    """An amendment file, read (`parse_amendment`): its title and description, the `file` it
    came from, its changes, and `breaks`, the invariants its author expects it to break.

    `replace` holds the clauses that take the place of the clauses of the same name, `remove`
    the names of the clauses removed, and `add` each new clause with the clause it goes after
    or before (both None: at the end).
    """

    title: str
    description: str
    file: str
    replace: list[Any] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)
    add: list[tuple[Any, str | None, str | None]] = field(default_factory=list)
    breaks: list[str] = field(default_factory=list)
    # The line of each [[remove]]'s name in the file, so that a report can point at it
    # (replaced and added clauses carry their own `line` and `file`).
    remove_lines: dict[str, int] = field(default_factory=dict)

    def apply(self, rulebook: Rulebook) -> Rulebook:
        """The rulebook as this amendment changes it (the one given is left as it was): its
        replacements, then its removals, then its additions. An InputError names the amendment's
        file and line where a change names a clause the rulebook does not have (to replace, to
        remove, to place an addition next to) or adds one it already has."""
        names = set(rulebook.names())
        for clause in self.replace:
            if clause.name not in names:
                raise InputError(f"replace: no clause {clause.name!r} in the rulebook"
                                 + did_you_mean(clause.name, names),
                                 file=self.file, line=clause.line)
            rulebook = rulebook.replace(clause)
        for name in self.remove:
            if name not in rulebook.names():
                raise InputError(f"remove: no clause {name!r} in the rulebook"
                                 + did_you_mean(name, rulebook.names()), file=self.file,
                                 line=self.remove_lines.get(name) or _line_of(self.file, name))
            rulebook = rulebook.remove(name)
        for clause, after, before in self.add:
            if clause.name in rulebook.names():
                raise InputError(f"add: a clause {clause.name!r} already exists (use replace)",
                                 file=self.file, line=clause.line)
            for anchor in (after, before):
                if anchor is not None and anchor not in rulebook.names():
                    raise InputError(f"add: no clause {anchor!r} to place {clause.name!r} next to"
                                     + did_you_mean(anchor, rulebook.names()),
                                     file=self.file, line=clause.line)
            rulebook = rulebook.add(clause, after=after, before=before)
        return rulebook


def _line_of(file: str, name: str) -> int | None:
    try:
        lines = Path(file).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for number, line in enumerate(lines, start=1):
        if f'"{name}"' in line:
            return number
    return None


def _name_lines(text: str, key: str, names: list[object]) -> list[int | None]:
    """The line of each `[[key]]` table's `name = "..."`, in the order of `names` (the
    tables' names as read), so that a name that two tables share (a clause removed, then
    added again) points at each table's own line. None where it cannot be found."""
    rows = text.splitlines()
    heads = [n for n, row in enumerate(rows, 1)
             if re.match(rf"\s*\[\[\s*{re.escape(key)}\s*\]\]", row)]
    out: list[int | None] = []
    for index, name in enumerate(names):
        found = None
        if isinstance(name, str) and index < len(heads):
            end = heads[index + 1] if index + 1 < len(heads) else len(rows) + 1
            pattern = re.compile(rf'\s*name\s*=\s*"{re.escape(name)}"')
            for number in range(heads[index], end):
                if number > heads[index] and re.match(r"\s*\[", rows[number - 1]):
                    break  # the next table, of another kind
                if pattern.match(rows[number - 1]):
                    found = number
                    break
        out.append(found)
    return out


def _quoted(text: str, name: object) -> int | None:
    """The first line where `name` is written as a string (a table written inline)."""
    if not isinstance(name, str):
        return None
    return next((n for n, row in enumerate(text.splitlines(), 1) if f'"{name}"' in row), None)


def parse_amendment(text: str, *, file: str, also: tuple[str, ...] = (),
                    may_be_empty: bool = False) -> Amendment:
    """The amendment in `text`. `also` names further top-level keys that a richer format
    reads itself (a past wording's `wording` and `sentence`, `proofs.history`); with
    `may_be_empty`, a file that changes no clause is allowed (the wording in force)."""
    data = parse_toml(text, file=file)
    allowed = ("title", "description", "breaks", "replace", "remove", "add", *also)
    for key in data:
        if key not in allowed:
            line = next((n for n, row in enumerate(text.splitlines(), 1)
                         if re.match(rf"\s*\[*\s*{re.escape(key)}\b", row)), None)
            raise InputError(f"unknown key {key!r} (allowed: {', '.join(allowed)})",
                             file=file, line=line)
    lines = _clause_lines(text)
    amendment = Amendment(title=str(data.get("title", Path(file).stem)),
                          description=str(data.get("description", "")), file=file)
    breaks = data.get("breaks", [])
    if not isinstance(breaks, list) or not all(isinstance(b, str) for b in breaks):
        raise InputError("breaks must be a list of invariant ids", file=file)
    amendment.breaks = list(breaks)
    def line_of(key: str, tables: list[dict[str, Any]]) -> list[int | None]:
        own = _name_lines(text, key, [t.get("name") for t in tables])
        return [at or lines.get(str(t.get("name"))) or _quoted(text, t.get("name"))
                for at, t in zip(own, tables, strict=True)]

    replaced = _tables(data, "replace", file)
    for i, (raw, line) in enumerate(zip(replaced, line_of("replace", replaced), strict=True)):
        amendment.replace.append(parse_clause(raw, file=file, text=text, index=i, line=line))
    removed = _tables(data, "remove", file)
    for raw, line in zip(removed, line_of("remove", removed), strict=True):
        name = raw.get("name")
        if set(raw) != {"name"} or not isinstance(name, str):
            raise InputError("a [[remove]] has exactly one key, name", file=file, line=line)
        amendment.remove.append(name)
        if line is not None:
            amendment.remove_lines.setdefault(name, line)
    added = _tables(data, "add", file)
    for i, (raw, line) in enumerate(zip(added, line_of("add", added), strict=True)):
        raw = dict(raw)
        after, before = raw.pop("after", None), raw.pop("before", None)
        if after is not None and before is not None:
            raise InputError("an [[add]] takes after or before, not both", file=file, line=line)
        clause = parse_clause(raw, file=file, text=text, index=i, line=line)
        amendment.add.append((clause, after, before))
    if not (amendment.replace or amendment.remove or amendment.add or may_be_empty):
        raise InputError("an amendment needs at least one [[replace]], [[remove]] or [[add]]",
                         file=file)
    return amendment


def _tables(data: dict[str, Any], key: str, file: str) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise InputError(f"{key} must be written as [[{key}]] tables", file=file)
    return value


def load_amendment(path: str | Path) -> Amendment:
    """The amendment in the file; a past wording's file (`examples/history/`, with a
    `[wording]` table) is read whole, its sentences checked, and gives its amendment."""
    text = read_text(path)
    if "wording" in parse_toml(text, file=str(path)):
        from .history import load_wording

        wording = load_wording(path)
        wording.rulebook()  # every clause a sentence names must exist
        return wording.amendment
    return parse_amendment(text, file=str(path))
