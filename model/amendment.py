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

from .errors import InputError, did_you_mean
from .inputs import parse_toml, read_text
from .rulebook import Rulebook, _clause_lines, official, parse_clause


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
    reads itself (a past wording's `wording` and `sentence`, `proofs.analyses.history`); with
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
        wording = load_wording(path)
        wording.rulebook()  # every clause a sentence names must exist
        return wording.amendment
    return parse_amendment(text, file=str(path))


# ---- past wordings -------------------------------------------------------------------
# The rules' past wordings (`examples/history/`), each read as an amendment of today's rules,
# with its dates, its text sentence by sentence, and for each sentence what expresses it.
#
# A wording file is an amendment file (`model.amendment`: `[[replace]]`, `[[remove]]`,
# `[[add]]`, relative to the official rules; none for the wording in force) with two more
# parts:
#
# ```toml
# [wording]
# rule = "restart"             # "subgames" or "restart"
# number = 1                   # its number in ../shared/rules/history/CHANGES_<rule>.txt
# cr = "713"                   # its rule number when first seen
# versions = ["2011-05-01"]    # the effective dates of the editions with this wording
# source = "restart_20110501.txt"   # the history file its text is quoted from
# intent = ""                  # optional: what it obviously meant, where a finding disagrees
#
# [[sentence]]                 # every sentence of its text, in order
# rule = "713.1"
# text = "A game that is restarted immediately ends."
# kind = "expressed"           # "expressed", "descriptive" or "not-expressible"
# clauses = ["restart.end-game"]   # expressed: the clauses (of the amended rules) that say it
# note = ""                    # descriptive or not-expressible: why, in words
# ```
#
# *descriptive* is a sentence that states no rule of play (a name, an example, a pointer to
# another rule); *not-expressible* is a rule of play that the step language cannot say yet,
# never skipped silently. `uncovered` checks that the sentences cover the wording's text.
#

KINDS = ("expressed", "descriptive", "not-expressible")
RULES = ("subgames", "restart")


@dataclass(frozen=True)
class Sentence:
    """One sentence of a past wording: its `rule` number ("713.1"), its `text`, its `kind`
    ("expressed", "descriptive" or "not-expressible"), the `clauses` of the amended rules that
    express it, and a `note` on why it is descriptive or not expressible."""

    rule: str
    text: str
    kind: str
    clauses: tuple[str, ...] = ()
    note: str = ""


@dataclass
class Wording:
    """One past wording of a rule: its amendment of today's rules and its sentences."""

    file: str
    title: str
    rule: str
    number: int
    cr: str
    versions: list[str]
    source: str
    amendment: Amendment
    sentences: list[Sentence] = field(default_factory=list)
    intent: str = ""

    @property
    def name(self) -> str:
        """Its rule and number, as the history names it: `restart 3`."""
        return f"{self.rule} {self.number}"

    @property
    def in_force(self) -> str:
        """The dates its editions took effect, first to last."""
        return self.versions[0] if len(self.versions) == 1 else \
            f"{self.versions[0]} to {self.versions[-1]}"

    def rulebook(self, base: Rulebook | None = None) -> Rulebook:
        """Today's rules (or `base`) as this wording has them; every clause a sentence names
        must be in it."""
        rulebook = self.amendment.apply(base or official())
        names = set(rulebook.names())
        for sentence in self.sentences:
            for clause in sentence.clauses:
                if clause not in names:
                    raise InputError(f"sentence of {sentence.rule} names clause {clause!r}, "
                                     "which the amended rules do not have", file=self.file)
        return rulebook

    def count(self, kind: str) -> int:
        """How many of its sentences are of `kind`."""
        return sum(s.kind == kind for s in self.sentences)


def load_wording(path: str | Path) -> Wording:
    """Read a wording file: its amendment, its `[wording]` table and its `[[sentence]]` tables;
    an InputError names the file (and the line, where known) of any fault."""
    text = read_text(path)
    file = str(path)
    amendment = parse_amendment(text, file=file, also=("wording", "sentence"),
                                may_be_empty=True)
    data = parse_toml(text, file=file)
    meta = data.get("wording")
    if not isinstance(meta, dict):
        raise InputError("a wording file needs a [wording] table", file=file)
    unknown = set(meta) - {"rule", "number", "cr", "versions", "source", "intent"}
    if unknown:
        raise InputError(f"[wording]: unknown key {sorted(unknown)[0]!r}", file=file,
                         line=_line(text, sorted(unknown)[0]))
    rule, number = meta.get("rule"), meta.get("number")
    versions = meta.get("versions")
    if rule not in RULES:
        raise InputError(f"[wording] rule must be one of {', '.join(RULES)}", file=file,
                         line=_line(text, "rule"))
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise InputError("[wording] number must be a positive integer", file=file,
                         line=_line(text, "number"))
    if not isinstance(versions, list) or not versions or not all(
            isinstance(v, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", v) for v in versions):
        raise InputError("[wording] versions must be a list of dates YYYY-MM-DD", file=file,
                         line=_line(text, "versions"))
    wording = Wording(file, amendment.title, str(rule), number, str(meta.get("cr", "")),
                      list(versions), str(meta.get("source", "")), amendment,
                      intent=str(meta.get("intent", "")))
    raw = data.get("sentence", [])
    if not isinstance(raw, list) or not raw:
        raise InputError("a wording file needs its [[sentence]] tables", file=file)
    for entry in raw:
        wording.sentences.append(_sentence(entry, file, text))
    return wording


def _sentence(entry: Any, file: str, text: str) -> Sentence:
    if not isinstance(entry, dict):
        raise InputError("a [[sentence]] must be a table", file=file)
    line = _line(text, str(entry.get("text", ""))[:40]) if entry.get("text") else None
    unknown = set(entry) - {"rule", "text", "kind", "clauses", "note"}
    if unknown:
        raise InputError(f"[[sentence]]: unknown key {sorted(unknown)[0]!r}", file=file,
                         line=line)
    kind, clauses, note = entry.get("kind"), entry.get("clauses", []), entry.get("note", "")
    if kind not in KINDS:
        raise InputError(f"[[sentence]] kind must be one of {', '.join(KINDS)}", file=file,
                         line=line)
    if not isinstance(entry.get("text"), str) or not isinstance(entry.get("rule"), str):
        raise InputError("a [[sentence]] needs rule and text", file=file, line=line)
    if not isinstance(clauses, list) or not all(isinstance(c, str) for c in clauses):
        raise InputError("[[sentence]] clauses must be a list of clause names", file=file,
                         line=line)
    if kind == "expressed" and not clauses:
        raise InputError("an expressed [[sentence]] names the clauses that say it", file=file,
                         line=line)
    if kind != "expressed" and not (isinstance(note, str) and note.strip()):
        raise InputError(f"a {kind} [[sentence]] says why in a note", file=file, line=line)
    return Sentence(entry["rule"], entry["text"], kind, tuple(clauses), str(note))


def _line(text: str, needle: str) -> int | None:
    for number, row in enumerate(text.splitlines(), start=1):
        if needle and needle in row:
            return number
    return None


def load_history(folder: str | Path) -> list[Wording]:
    """Every wording file in `folder`, subgames first, each rule's wordings in order."""
    wordings = [load_wording(p) for p in sorted(Path(folder).glob("*.toml"))]
    return sorted(wordings, key=lambda w: (RULES.index(w.rule), w.number))


def normalise(text: str) -> str:
    """Text as the history's CHANGES files compare it: straight quotes, hyphens, no italic
    markers, one space."""
    for curly, straight in (("\u201c", '"'), ("\u201d", '"'), ("\u2018", "'"), ("\u2019", "'"),
                            ("\u2013", "-"), ("\u2014", "-"), ("_", "")):
        text = text.replace(curly, straight)
    return re.sub(r"\s+", " ", text).strip()


def source_text(wording: Wording, history: str | Path) -> str:
    """The wording's rule text, from its history file: after the header's dashed line,
    normalised."""
    raw = read_text(Path(history) / wording.source)
    return normalise(raw.split("-" * 20, 1)[-1].lstrip("-"))


def uncovered(wording: Wording, history: str | Path) -> list[str]:
    """What of the wording's text no sentence quotes: each sentence must occur in the text,
    and once every sentence, rule number and heading is taken out, no word may be left.
    Returns the problems, empty when the sentences cover the text exactly."""
    text = source_text(wording, history)
    problems = []
    for sentence in wording.sentences:
        quoted = normalise(sentence.text)
        if quoted not in text:
            problems.append(f"not in {wording.source}: {sentence.text[:70]}")
        else:
            text = text.replace(quoted, " ", 1)
    text = re.sub(r"\b\d{3}\.(\d+[a-z]?\.?)?", " ", text)  # rule numbers
    text = re.sub(r"\b(Subgames|Restarting the Game)\b", " ", text)  # the heading
    left = re.findall(r"[A-Za-z][A-Za-z']+", text)
    if left:
        problems.append(f"text no sentence quotes: {' '.join(left)[:120]}")
    return problems


def archived(history: str | Path) -> dict[str, list[tuple[int, str, str]]]:
    """The wordings the archive's CHANGES files list, per rule: (number, rule number,
    first and last dates)."""
    out: dict[str, list[tuple[int, str, str]]] = {}
    for rule in RULES:
        path = Path(history) / f"CHANGES_{rule}.txt"
        if not path.is_file():
            continue
        for m in re.finditer(r"WORDING (\d+): first seen (\S+) as rule (\d+); versions: (.*)",
                             read_text(path)):
            dates = [d.strip() for d in m.group(4).split(",")]
            span = dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
            out.setdefault(rule, []).append((int(m.group(1)), m.group(3), span))
    return out
