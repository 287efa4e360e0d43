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

from shahrazad.model.errors import InputError
from shahrazad.model.inputs import parse_toml, read_text
from shahrazad.model.rulebook import Rulebook, _clause_lines, parse_clause


@dataclass
class Amendment:
    title: str
    description: str
    file: str
    replace: list[Any] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)
    add: list[tuple[Any, str | None, str | None]] = field(default_factory=list)
    breaks: list[str] = field(default_factory=list)

    def apply(self, rulebook: Rulebook) -> Rulebook:
        names = set(rulebook.names())
        for clause in self.replace:
            if clause.name not in names:
                raise InputError(f"replace: no clause {clause.name!r} in the rulebook",
                                 file=self.file, line=clause.line)
            rulebook = rulebook.replace(clause)
        for name in self.remove:
            if name not in rulebook.names():
                raise InputError(f"remove: no clause {name!r} in the rulebook", file=self.file,
                                 line=_line_of(self.file, name))
            rulebook = rulebook.remove(name)
        for clause, after, before in self.add:
            if clause.name in rulebook.names():
                raise InputError(f"add: a clause {clause.name!r} already exists (use replace)",
                                 file=self.file, line=clause.line)
            for anchor in (after, before):
                if anchor is not None and anchor not in rulebook.names():
                    raise InputError(f"add: no clause {anchor!r} to place {clause.name!r} next to",
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
    for i, raw in enumerate(_tables(data, "replace", file)):
        amendment.replace.append(parse_clause(raw, file=file, text=text, index=i,
                                              line=lines.get(str(raw.get("name")))))
    for raw in _tables(data, "remove", file):
        name = raw.get("name")
        if set(raw) != {"name"} or not isinstance(name, str):
            raise InputError("a [[remove]] has exactly one key, name", file=file,
                             line=lines.get(str(name)))
        amendment.remove.append(name)
    for i, raw in enumerate(_tables(data, "add", file)):
        raw = dict(raw)
        after, before = raw.pop("after", None), raw.pop("before", None)
        if after is not None and before is not None:
            raise InputError("an [[add]] takes after or before, not both", file=file,
                             line=lines.get(str(raw.get("name"))))
        clause = parse_clause(raw, file=file, text=text, index=i,
                              line=lines.get(str(raw.get("name"))))
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
