"""The rules' past wordings (`examples/history/`), each read as an amendment of today's rules,
with its dates, its text sentence by sentence, and for each sentence what expresses it.

A wording file is an amendment file (`proofs.amendment`: `[[replace]]`, `[[remove]]`,
`[[add]]`, relative to the official rules; none for the wording in force) with two more
parts:

```toml
[wording]
rule = "restart"             # "subgames" or "restart"
number = 1                   # its number in ../shared/rules/history/CHANGES_<rule>.txt
cr = "713"                   # its rule number when first seen
versions = ["2011-05-01"]    # the effective dates of the editions with this wording
source = "restart_20110501.txt"   # the history file its text is quoted from
intent = ""                  # optional: what it obviously meant, where a finding disagrees

[[sentence]]                 # every sentence of its text, in order
rule = "713.1"
text = "A game that is restarted immediately ends."
kind = "expressed"           # "expressed", "descriptive" or "not-expressible"
clauses = ["restart.end-game"]   # expressed: the clauses (of the amended rules) that say it
note = ""                    # descriptive or not-expressible: why, in words
```

*descriptive* is a sentence that states no rule of play (a name, an example, a pointer to
another rule); *not-expressible* is a rule of play that the step language cannot say yet,
never skipped silently. `uncovered` checks that the sentences cover the wording's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shahrazad.model.errors import InputError
from shahrazad.model.inputs import parse_toml, read_text
from shahrazad.model.rulebook import Rulebook, official

from .amendment import Amendment, parse_amendment

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


@dataclass
class Checked:
    """A wording checked: the promises it breaks (each with its counterexample's reaching
    trace), the obligations left unknown, and how it differs from the wording before."""

    wording: Wording
    broken: dict[str, Any] = field(default_factory=dict)  # invariant id -> Result (refuted)
    unknown: list[str] = field(default_factory=list)      # obligation names
    faults: list[str] = field(default_factory=list)       # obligation: the tool's fault
    kept: int = 0                                         # invariants proved at every event
    diff: list[Any] | None = None  # `semantic.EventDifference`s from the wording before


def check_history(wordings: list[Wording], timeout: float = 5.0, jobs: int = 1,
                  progress: Any = None) -> list[Checked]:
    """Verify every wording (all in one pool) and diff each against the one before it."""
    from .obligations import Status, decide, obligations
    from .semantic import semantic_diff

    todo = list(obligations())
    rulebooks = [w.rulebook() for w in wordings]
    decided = decide([(rb, todo) for rb in rulebooks], timeout=timeout, jobs=jobs,
                     progress=progress)
    out = []
    for index, (wording, results) in enumerate(zip(wordings, decided, strict=True)):
        checked = Checked(wording)
        for result in results:
            inv = result.obligation.invariant.id
            if result.status == Status.REFUTED and inv not in checked.broken:
                checked.broken[inv] = result
            elif result.status == Status.UNKNOWN:
                checked.unknown.append(result.obligation.name)
            elif result.status == Status.FAULT:
                checked.faults.append(f"{result.obligation.name}: {result.reason}")
        checked.kept = len({r.obligation.invariant.id for r in results}
                           - set(checked.broken)
                           - {r.obligation.invariant.id for r in results
                              if r.status != Status.PROVED})
        if index and wordings[index - 1].rule == wording.rule:
            checked.diff = semantic_diff(rulebooks[index - 1], rulebooks[index],
                                         timeout=timeout, jobs=jobs)
        out.append(checked)
    return out


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
