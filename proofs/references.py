"""Cross-references in rule texts: does each point to a rule that exists, the right one?

The subgame rule and the restart rule cite each other ("If a Magic subgame (see rule 728) is
restarted ...") and themselves ("except as specified in rules 728.2a-c"); their numbers
drift from edition to edition. This check reads rule texts (the edition histories of
`shared/rules/history`, whole Comprehensive Rules, translations) and reports:

* a reference to the subgame rule, from the restart rule, that is not the subgame rule's
  number in that edition (and the other way round);
* a reference to the text's own sub-rules ("rules 728.2a-c") under another number, or to
  sub-rules that do not exist;
* a reference with a quoted title ("rule 103, “Starting the Game”") whose section, in a
  document that has it, bears another title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from shahrazad.model.inputs import read_text

# How each language names a rule, a subgame and a restart.
RULE_WORDS = r"(?:rules?|regol[ae]|règles?)"
SUBGAME_WORDS = ("subgame", "sottopartita", "sous-partie", "サブゲーム")
RESTART_WORDS = ("restart", "ricominci", "recommenc", "再開")
TOPIC_TITLES = {"Subgames": "subgames", "Restarting the Game": "restart"}
_SEE = re.compile(rf"\((?:see|vedi|voir)\s+{RULE_WORDS}\s+(\d{{3}})\)", re.IGNORECASE)
_SELF = re.compile(rf"{RULE_WORDS}\s+(\d{{3}})\.(\d+)([a-z])?\s*[–-]\s*([a-z])", re.IGNORECASE)
_TITLED = re.compile(rf"{RULE_WORDS}\s+(\d{{3}}),\s*[“\"]([^”\"]+?)[,.]?[”\"]", re.IGNORECASE)
_RULE_LINE = re.compile(r"^(\d{3})\.(\d+)([a-z]?)\.?\s")
_HEADING = re.compile(r"^(\d{3})\.\s+(\S.*)$")
_DATE = re.compile(r"(\d{8})")


@dataclass(frozen=True)
class RefFinding:
    file: str
    line: int
    problem: str
    text: str

    def describe(self) -> str:
        return f"{self.file}:{self.line}: {self.problem}\n    {self.text}"


@dataclass
class _Doc:
    path: str
    lines: list[str]
    topic: str | None
    number: str | None
    date: str | None
    headings: dict[str, str]


def _read(path: Path) -> _Doc:
    lines = read_text(path).splitlines()
    headings = {m.group(1): m.group(2).strip() for line in lines
                if (m := _HEADING.match(line.strip()))}
    topic = number = None
    header = next((line for line in lines[:6] if line.startswith("RULE:")), None)
    if header is not None:
        m = re.match(r"RULE:\s*(\d{3})\.\s*(.+)", header)
        if m:
            number, topic = m.group(1), TOPIC_TITLES.get(m.group(2).strip())
    else:
        numbers = [m.group(1) for line in lines if (m := _RULE_LINE.match(line.strip()))]
        if numbers and len(set(numbers)) == 1:
            number = numbers[0]
            text = " ".join(lines).lower()
            topic = "restart" if any(w in text for w in RESTART_WORDS[1:]) and not any(
                w in text[:400] for w in SUBGAME_WORDS[1:2]) else "subgames"
    m = _DATE.search(path.name)
    return _Doc(str(path), lines, topic, number, m.group(1) if m else None, headings)


def _index(docs: list[_Doc]) -> dict[str, dict[str, str]]:
    """Edition date -> topic -> rule number, from the edition histories."""
    out: dict[str, dict[str, str]] = {}
    for doc in docs:
        if doc.date and doc.topic and doc.number:
            out.setdefault(doc.date, {})[doc.topic] = doc.number
    return out


def _companions(doc: _Doc, index: dict[str, dict[str, str]], other: str) -> set[str]:
    """The numbers the other rule had in the document's edition (or, with no date, in every
    edition where this rule had this document's number)."""
    if doc.date and doc.date in index:
        found = index[doc.date].get(other)
        return {found} if found else set()
    return {entry[other] for entry in index.values()
            if doc.topic in entry and entry[doc.topic] == doc.number and other in entry}


def check_references(paths: list[str | Path]) -> list[RefFinding]:
    files: list[Path] = []
    for p in map(Path, paths):
        files += sorted(x for x in p.rglob("*.txt")) if p.is_dir() else [p]
    docs = [_read(f) for f in files]
    index = _index(docs)
    found: list[RefFinding] = []
    for doc in docs:
        found += _check_doc(doc, index)
    return found


def _check_doc(doc: _Doc, index: dict[str, dict[str, str]]) -> list[RefFinding]:
    out: list[RefFinding] = []
    whole = len(doc.headings) > 50  # a whole Comprehensive Rules document, with its headings
    current = doc.number
    topic = doc.topic
    for number, line in enumerate(doc.lines, start=1):
        text = line.strip()
        head = _HEADING.match(text)
        if whole and head and head.group(1) in doc.headings:
            current, topic = head.group(1), TOPIC_TITLES.get(head.group(2).strip())
        rule = _RULE_LINE.match(text)
        if not rule or topic is None or rule.group(1) != current:
            continue
        lowered = text.lower()
        for m in _SEE.finditer(text):
            before = lowered[max(0, m.start() - 60):m.start()]
            wanted = ("subgames" if any(w in before for w in SUBGAME_WORDS) else
                      "restart" if any(w in before for w in RESTART_WORDS) else None)
            if wanted is None or wanted == topic:
                continue
            if whole:
                expected = {k for k, v in doc.headings.items()
                            if TOPIC_TITLES.get(v.strip()) == wanted}
            else:
                expected = _companions(doc, index, wanted)
            if expected and m.group(1) not in expected:
                out.append(RefFinding(doc.path, number, f"rule {rule.group(1)}.{rule.group(2)}"
                                      f"{rule.group(3)} cites rule {m.group(1)} for the "
                                      f"{wanted} rule, which is rule "
                                      f"{' or '.join(sorted(expected))} in that edition", text))
        for m in _SELF.finditer(text):
            if m.group(1) != current:
                out.append(RefFinding(doc.path, number, f"rules {m.group(1)}.{m.group(2)}"
                                      f"{m.group(3) or ''}-{m.group(4)} are cited as this "
                                      f"rule's own, which is rule {current}", text))
                continue
            first = m.group(3) or "a"
            for letter in map(chr, range(ord(first), ord(m.group(4)) + 1)):
                wanted_rule = f"{current}.{m.group(2)}{letter}"
                if not any(x.strip().startswith(wanted_rule + " ") for x in doc.lines):
                    out.append(RefFinding(doc.path, number, f"cites rule {wanted_rule}, "
                                          "which this text does not have", text))
        if whole:
            for m in _TITLED.finditer(text):
                title = doc.headings.get(m.group(1))
                if title is not None and title.rstrip(".") != m.group(2).strip():
                    out.append(RefFinding(doc.path, number, f"cites rule {m.group(1)} as "
                                          f"“{m.group(2)}”; its title is “{title}”", text))
    return out
