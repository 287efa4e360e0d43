"""Cross-references in rule texts: does each point to a rule that exists, the right one?

The subgame rule and the restart rule cite each other ("If a Magic subgame (see rule 728) is
restarted ...") and themselves ("except as specified in rules 728.2a-c"); their numbers
drift from edition to edition. This check reads rule texts: the edition histories of
`shared/rules/history` (excerpts, one rule each), whole Comprehensive Rules (every edition of
an archive) and translations, and reports:

* a reference to the subgame rule, from the restart rule, that is not the subgame rule's
  number in that edition (and the other way round), such as the restart rule citing itself;
* a reference to the text's own sub-rules ("rules 728.2a-c") under another number, or to
  sub-rules that do not exist;
* a range of the text's own sub-rules that stops short ("rules 713.2a-c" where 713.2d
  exists). Only the subgame and restart rules are held to this: elsewhere in the CR ranges
  stop short on purpose (601.2f–h, the steps of paying costs, leave out 601.2i);
* in a whole CR, any citation, in any rule or its examples ("rule 103", "see rule 704.5a",
  "728.2a–c"), of a rule the document does not have (the letters l and o, which later
  editions skip, are not missing); and in its subgame and restart rules, a quoted title
  ("rule 103, “Starting the Game”") that is not the cited section's title.

Excerpts (one rule's history file, a translation) are checked for the first three only.

What it reads: `.txt` files in the encodings the CR was published in (UTF-8 with or without
a BOM, UTF-16 with a BOM, else Windows-1252), any line ends; and `.json` files in the format
of xremming/rulesraker's `data/MagicCompRules.json`, turned into the lines of a whole CR
text, one line per entry of "Rules" (so a finding's line is the entry's index, 1-based).
Folders are searched recursively. A file with no numbered rule, or a JSON file of another
shape, is counted as not recognised. Files are data: only decoded and matched, never run.
"""

from __future__ import annotations

import codecs
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from string import ascii_lowercase
from typing import Any

from shahrazad.model.errors import InputError

# How each language names a rule, a subgame and a restart.
RULE_WORDS = r"(?<!\w)(?:rules?|regol[ae]|règles?)"
SUBGAME_WORDS = ("subgame", "sottopartita", "sous-partie", "サブゲーム")
RESTART_WORDS = ("restart", "ricominci", "recommenc", "再開")
TOPIC_TITLES = {"Subgames": "subgames", "Restarting the Game": "restart"}
_SEE = re.compile(rf"\((?:see|vedi|voir)\s+{RULE_WORDS}\s+(\d{{3}})\)", re.IGNORECASE)
_SELF = re.compile(rf"{RULE_WORDS}\s+(\d{{3}})\.(\d+)([a-z])?\s*[–-]\s*([a-z])", re.IGNORECASE)
_TITLED = re.compile(rf"{RULE_WORDS}\s+(\d{{3}}),\s*[“\"]([^”\"]+?)[,.]?[”\"]", re.IGNORECASE)
# A cited rule: a section (103), a rule (704.5), a sub-rule (704.5a) or a range (728.2a–c).
_CITED = re.compile(r"(?<![\w.])(\d{3})(?:\.(\d+)([a-z]?))?(?:\s*[–-]\s*([a-z])(?!\w))?(?!\w)")
_BEFORE_BARE = re.compile(rf"{RULE_WORDS}\s+$", re.IGNORECASE)  # "rule 103": a bare section
_RULE_LINE = re.compile(r"^(\d{3})\.(\d+)([a-z]?)\.?(?:\s|$)")
_HEADING = re.compile(r"^(\d{3})\.\s+(\S.*)$")
_DATE = re.compile(r"(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)")
_RULESRAKER_TYPES = {"Part", "Chapter", "Rule", "SubRule"}


@dataclass(frozen=True)
class RefFinding:
    """One faulty reference: the `file`, the `line` (1-based; in a rulesraker JSON file, the
    index of the entry), what the `problem` is, and the line's `text`."""

    file: str
    line: int
    problem: str
    text: str

    def describe(self) -> str:
        """The finding as `file:line: problem`, with the line's text quoted below it."""
        return f"{self.file}:{self.line}: {self.problem}\n    {self.text}"


@dataclass
class References:
    """What a scan found, and how much it read: `files` read, of which `unrecognised` held
    no rule text; `rules` numbered rules (and sub-rules) in the others."""

    findings: list[RefFinding] = field(default_factory=list)
    files: int = 0
    rules: int = 0
    unrecognised: int = 0


@dataclass
class _Doc:
    path: str
    lines: list[str]
    topic: str | None
    number: str | None
    date: str | None
    headings: dict[str, str]
    whole: bool  # a whole CR: every citation in it must name a rule it has
    rules: set[str]  # every section, rule and sub-rule number it has: "728", "728.2", "728.2a"


def decode(data: bytes) -> str:
    """Text of a published rules file: UTF-16 with a BOM, UTF-8 (BOM or not), else
    Windows-1252; line ends made "\\n"."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = data.decode("utf-16")  # the BOM tells the byte order
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def _rulesraker(text: str) -> tuple[list[str], str] | None:
    """The lines of a whole CR text and its date (YYYYMMDD) from a rulesraker JSON document,
    or None if the text is not one: {"EffectiveDate": "2024-02-02T...", "Rules": [{"Number":
    "728.2a", "Type": "SubRule", "Body": [...], "Examples": [...]}, ...]}."""
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("Rules"), list):
        return None
    date = _DATE.match(str(data.get("EffectiveDate")))
    lines = []
    for rule in data["Rules"]:
        if not (isinstance(rule, dict) and rule.get("Type") in _RULESRAKER_TYPES
                and isinstance(rule.get("Number"), str) and _strings(rule.get("Body"))
                and _strings(rule.get("Examples", []))):
            return None
        lines.append(" ".join([rule["Number"], *rule["Body"],
                               *(f"Example: {x}" for x in rule.get("Examples", []))]))
    return (lines, "".join(date.groups())) if date else None


def _read(path: Path) -> _Doc | None:
    """The document in the file, or None if it holds no rule text."""
    try:
        text = decode(path.read_bytes())
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", file=str(path)) from None
    except UnicodeDecodeError:  # UTF-16 of an odd length
        return None
    m = _DATE.search(path.name)
    date = "".join(m.groups()) if m else None
    whole = path.suffix.lower() == ".json"
    if whole:
        if (parsed := _rulesraker(text)) is None:
            return None
        lines, date = parsed
    else:  # a bullet before a rule's number ("- 724.1 ...", a rules viewer's copy) is dropped
        lines = [re.sub(r"^\s*- (?=\d{3}\.)", "", line) for line in text.split("\n")]
    headings = {m.group(1): m.group(2).strip() for line in lines
                if (m := _HEADING.match(line.strip()))}
    numbered = [m for line in lines if (m := _RULE_LINE.match(line.strip()))]
    if not numbered and not whole:
        return None
    rules = set(headings) | {m.group(1) for m in numbered} | {
        f"{m.group(1)}.{m.group(2)}{m.group(3)}" for m in numbered}
    topic = number = None
    header = next((line for line in lines[:6] if line.startswith("RULE:")), None)
    if header is not None:
        h = re.match(r"RULE:\s*(\d{3})\.\s*(.+)", header)
        if h:
            number, topic = h.group(1), TOPIC_TITLES.get(h.group(2).strip())
    elif len({m.group(1) for m in numbered}) == 1:
        number = numbered[0].group(1)
        lowered = " ".join(lines).lower()
        topic = "restart" if any(w in lowered for w in RESTART_WORDS[1:]) and not any(
            w in lowered[:400] for w in SUBGAME_WORDS[1:2]) else "subgames"
    return _Doc(str(path), lines, topic, number, date, headings,
                whole or len(headings) > 50, rules)


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


def _files(paths: list[str | Path]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        files += sorted(x for x in p.rglob("*") if x.suffix.lower() in (".txt", ".json")
                        and x.is_file()) if p.is_dir() else [p]
    return files


def scan(paths: list[str | Path]) -> References:
    """Read every rule text in `paths` (files, or folders searched recursively) and check
    its cross-references."""
    files = _files(paths)
    docs = [doc for f in files if (doc := _read(f)) is not None]
    index = _index(docs)
    found = [f for doc in docs for f in dict.fromkeys(_check_doc(doc, index))]
    rules = sum(1 for doc in docs for line in doc.lines if _RULE_LINE.match(line.strip()))
    return References(found, len(files), rules, len(files) - len(docs))


def check_references(paths: list[str | Path]) -> list[RefFinding]:
    """The findings of `scan(paths)`."""
    return scan(paths).findings


def _cited(text: str) -> list[tuple[str, str, str]]:
    """The rules a line cites, each (section, rule, last letter of a range): "103" -> ("103",
    "103", ""), "704.5a" -> ("704", "704.5a", ""), "728.2a–c" -> ("728", "728.2a", "c"). A
    bare section counts only right after the word "rule" (elsewhere it may be a number)."""
    own = _RULE_LINE.match(text)
    out: list[tuple[str, str, str]] = []
    for m in _CITED.finditer(text, own.end() if own else 0):
        if m.group(2) is not None:
            out.append((m.group(1), f"{m.group(1)}.{m.group(2)}{m.group(3)}", m.group(4) or ""))
        elif _BEFORE_BARE.search(text, 0, m.start()):
            out.append((m.group(1), m.group(1), ""))
    return out


def _check_cited(doc: _Doc, number: int, text: str, rule: str, last: str,
                 whole_range: bool) -> list[RefFinding]:
    """A cited rule, or each sub-rule of a cited range, must exist (but for the letters l and
    o, which later editions skip: they look like 1 and 0). With `whole_range`, a range must
    also reach the last sub-rule."""
    out: list[RefFinding] = []
    wanted = [rule]
    if last:
        stem, first = (rule[:-1], rule[-1]) if rule[-1].isalpha() else (rule, "a")
        wanted = [stem + c for c in ascii_lowercase
                  if first <= c <= last and (c not in "lo" or stem + c in doc.rules)]
        after = [stem + c for c in ascii_lowercase if c > last and stem + c in doc.rules]
        if whole_range and after:
            out.append(RefFinding(doc.path, number, f"range {stem}{first}-{last} stops short: "
                                  f"{after[0]} exists in this edition", text))
    return out + [RefFinding(doc.path, number, f"cites rule {x}, which this text does not have",
                             text) for x in wanted if x not in doc.rules]


def _check_doc(doc: _Doc, index: dict[str, dict[str, str]]) -> list[RefFinding]:
    out: list[RefFinding] = []
    current, topic = doc.number, doc.topic
    owner: str | None = None  # the rule the line belongs to (its own, or the one above)
    for number, line in enumerate(doc.lines, start=1):
        text = line.strip()
        head = _HEADING.match(text)
        if doc.whole and head:
            current, topic = head.group(1), TOPIC_TITLES.get(head.group(2).strip())
        rule = _RULE_LINE.match(text)
        owner = (f"{rule.group(1)}.{rule.group(2)}{rule.group(3)}" if rule else
                 owner if text and not head else None)
        if owner is None:
            continue
        in_topic = topic is not None and owner.split(".")[0] == current
        for section, cited, last in _cited(text):  # ranges must be whole in_topic only
            if doc.whole or (in_topic and section == current):
                out += _check_cited(doc, number, text, cited, last, in_topic)
        if not in_topic:
            continue
        lowered = text.lower()
        for m in _SEE.finditer(text):
            before = lowered[max(0, m.start() - 60):m.start()]
            wanted = ("subgames" if any(w in before for w in SUBGAME_WORDS) else
                      "restart" if any(w in before for w in RESTART_WORDS) else None)
            if wanted is None or wanted == topic:
                continue
            if doc.whole:
                expected = {k for k, v in doc.headings.items()
                            if TOPIC_TITLES.get(v.strip()) == wanted}
            else:
                expected = _companions(doc, index, wanted)
            if expected and m.group(1) not in expected:
                out.append(RefFinding(doc.path, number, f"rule {owner} cites rule {m.group(1)} "
                                      f"for the {wanted} rule, which is rule "
                                      f"{' or '.join(sorted(expected))} in that edition", text))
        for m in _SELF.finditer(text):
            if m.group(1) != current:
                out.append(RefFinding(doc.path, number, f"rules {m.group(1)}.{m.group(2)}"
                                      f"{m.group(3) or ''}-{m.group(4)} are cited as this "
                                      f"rule's own, which is rule {current}", text))
        if doc.whole:
            for m in _TITLED.finditer(text):
                title = doc.headings.get(m.group(1))
                if title is not None and title.rstrip(".") != m.group(2).strip():
                    out.append(RefFinding(doc.path, number, f"cites rule {m.group(1)} as "
                                          f"“{m.group(2)}”; its title is “{title}”", text))
    return out
