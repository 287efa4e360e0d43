"""Where a result of a verification points, for the reports that CI shows next to a file
(SARIF, JUnit XML, GitHub workflow commands): the clauses of the rules that should keep the
broken promise, at their file and line.

An amendment's own changes come first, at the line of the amendment file that made them:
the clauses of the invariant that it replaced, added or removed, then the clauses it
changed on the obligation's event (a promise often breaks through a clause it does not
name); then the invariant's clauses as they stand in the rulebook. Paths are shown
relative to the current directory when the file is under it, else absolute.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from urllib.parse import quote

from shahrazad.model.amendment import Amendment
from shahrazad.model.errors import ShahrazadError
from shahrazad.model.inputs import STDIN, STDIN_NAME, file_name
from shahrazad.model.language import Clause
from shahrazad.model.rulebook import OFFICIAL_NAME, Rulebook, load_rulebook, official
from shahrazad.proofs.solving.obligations import Result

OFFICIAL = "<official>"  # the `source` of the official rulebook (`model.rulebook`)


@dataclass(frozen=True)
class Location:
    """A clause at a place in a file: `file` relative to the current directory when under
    it, else absolute; `line` None when unknown (the file as a whole); `change` what the
    amendment in `file` did to the clause (`replaced`, `removed`, `added`), or "" for a
    clause as the rulebook has it."""

    file: str
    line: int | None
    clause: str
    change: str = ""

    def describe(self) -> str:
        """`FILE:LINE (clause NAME, removed)`, for people."""
        place = self.file + (f":{self.line}" if self.line is not None else "")
        what = ", ".join(part for part in (f"clause {self.clause}" if self.clause else "",
                                           self.change) if part)
        return f"{place} ({what})" if what else place


def shown(path: str) -> str:
    """`path` relative to the current directory when the file is under it (POSIX
    separators), else absolute; standard input (`-`) is `<stdin>`."""
    if path in (STDIN, STDIN_NAME):
        return STDIN_NAME
    full = Path(os.path.abspath(path))
    try:
        return full.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return full.as_posix()


def uri(path: str) -> str:
    """A SARIF artifact URI for `path`: a relative URI (percent-encoded) when the file is
    under the current directory, else an absolute `file://` URI."""
    relative = shown(path)
    if PurePath(relative).is_absolute():
        return Path(relative).as_uri()
    return quote(relative, safe="/")


def stable(path: str) -> str:
    """A name for `path` that does not depend on where the project is checked out: its
    path relative to the current directory when the file is under it, else its file name."""
    relative = shown(path)
    return PurePath(relative).name if PurePath(relative).is_absolute() else relative


def is_official(rulebook: Rulebook) -> bool:
    """Whether the rulebook is the official one shipped in the package (its `source` is `<official>`)."""
    return rulebook.source == OFFICIAL


def rulebook_file(rulebook: Rulebook) -> str | None:
    """The file the rulebook was read from (for the official one, the packaged
    `rulebook.toml`); None when it has no file (the package is inside a zip)."""
    if not is_official(rulebook):
        return rulebook.source
    return next((c.file for c in official() if c.file), None)


def rulebook_name(rulebook: Rulebook, amendments: Sequence[Amendment]) -> str:
    """`official` (or the rulebook's file), `amended by` the amendment files as given."""
    name = "official" if is_official(rulebook) else file_name(rulebook.source)
    if amendments:
        name += " amended by " + ", ".join(file_name(a.file) for a in amendments)
    return name


def identity(rulebook: Rulebook, amendments: Sequence[Amendment]) -> list[str]:
    """The rulebook and the amendment files, by names that are the same on every checkout
    (`stable`): what a fingerprint of a result is made of, with the obligation."""
    return [OFFICIAL if is_official(rulebook) else stable(rulebook.source),
            *(stable(a.file) for a in amendments)]


def fingerprint(parts: Iterable[str]) -> str:
    """A stable hash (SHA-256, hex) of `parts`."""
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def find_clause(name: str, rulebook: Rulebook, amendments: Sequence[Amendment]) -> Clause | None:
    """The clause `name` as it stands in `rulebook`; else (an amendment removed it) as an
    amendment wrote it, or as the rulebook the amendments changed had it."""
    if name in rulebook.names():
        return rulebook.get(name)
    for amendment in reversed(amendments):
        written: list[Clause] = [*amendment.replace, *(c for c, _, _ in amendment.add)]
        for clause in written:
            if clause.name == name:
                return clause
    base = _base(rulebook)
    return base.get(name) if base is not None and name in base.names() else None


def _base(rulebook: Rulebook) -> Rulebook | None:
    if is_official(rulebook):
        return official()
    if rulebook.source in (STDIN, STDIN_NAME):
        return None  # read once, already applied
    try:
        return load_rulebook(rulebook.source)
    except (ShahrazadError, OSError):
        return None


def citations(names: Iterable[str], rulebook: Rulebook, amendments: Sequence[Amendment],
              also: Iterable[str] = ()) -> list[str]:
    """The CR numbers of the clauses `names` (in the rulebook's default edition), then those
    of `also`, each once."""
    out: list[str] = []
    for name in names:
        clause = find_clause(name, rulebook, amendments)
        cited = clause.cite(rulebook.default_edition) if clause is not None else "?"
        if cited not in out:
            out.append(cited)
    out += [rule for rule in also if rule not in out]
    return out


def changes(amendments: Sequence[Amendment]) -> dict[str, Location]:
    """Each clause an amendment replaced, removed or added, at the line of the amendment
    file that did it; where several did, the last (as `Amendment.apply` runs them: each
    file in turn, replace, remove, add)."""
    out: dict[str, Location] = {}
    for amendment in amendments:
        where = shown(amendment.file)
        for clause in amendment.replace:
            out[clause.name] = Location(where, clause.line, clause.name, "replaced")
        for name in amendment.remove:
            out[name] = Location(where, amendment.remove_lines.get(name), name, "removed")
        for clause, _, _ in amendment.add:
            out[clause.name] = Location(where, clause.line, clause.name, "added")
    return out


def locations(result: Result, rulebook: Rulebook,
              amendments: Sequence[Amendment]) -> list[Location]:
    """Where `result` points, most telling first: the invariant's clauses that an amendment
    replaced, added or removed; the other clauses the amendments changed on the
    obligation's event; the invariant's clauses as they stand in the rulebook. Never empty:
    with nothing else, the rulebook's file as a whole."""
    inv = result.obligation.invariant
    changed = changes(amendments)
    out = [changed[name] for name in inv.clauses if name in changed]
    for name, where in changed.items():
        clause = find_clause(name, rulebook, amendments)
        if clause is not None and clause.on == result.obligation.event and where not in out:
            out.append(where)
    for name in inv.clauses:
        if name in changed or name not in rulebook.names():
            continue
        clause = rulebook.get(name)
        file = clause.file or rulebook_file(rulebook)
        if file is not None:
            out.append(Location(shown(file), clause.line, name))
    if not out:
        file = rulebook_file(rulebook)
        out.append(Location(shown(file) if file else OFFICIAL_NAME, None, ""))
    return out


def unseen_locations(amendments: Sequence[Amendment]) -> list[Location]:
    """Where the finding "the amendment changes nothing the model can see" points: each
    amendment file's first line."""
    return [Location(shown(a.file), 1, "") for a in amendments]
