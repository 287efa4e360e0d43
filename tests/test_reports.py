"""The CI reports of `shahrazad verify` point at the clause: SARIF (valid against OASIS's
schema, with rules metadata, regions at the line of the clause in the rulebook or in the
amendment that changed it, stable fingerprints), JUnit XML (unknown and fault are errors,
never skipped) and GitHub workflow commands (escaped, one line per finding).

Two real proof runs, shared by the module: 728.5c forgotten, which breaks two promises
(`end.cards-conserved`, `end.commanders-return`) and keeps a third (`end.no-new-cards`).
Other statuses are built by hand.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from shahrazad.invariants.catalog import CATALOG
from shahrazad.model.amendment import Amendment, load_amendment, parse_amendment
from shahrazad.model.rulebook import Rulebook, load_rulebook, official
from shahrazad.proofs.solving.obligations import Obligation, Result, Status
from shahrazad.proofs.verdicts.run import verify

from shahrazad import __version__
from shahrazad.report.github import escape_data, escape_property, verify_github
from shahrazad.report.junit import verify_junit
from shahrazad.report.locate import Location, locations, rulebook_file, shown, uri
from shahrazad.report.markdown import verify_markdown
from shahrazad.report.sarif import DOCS_URI, FINGERPRINT, verify_sarif

ROOT = Path(__file__).resolve().parent.parent
FORGOTTEN = "examples/amendments/728.5c-forgotten.toml"
COMMANDER = "subgame.end.commander"  # the clause 728.5c forgotten removes
# The official rulebook as the package has it: model/rulebook.toml in an editable install
# run from the repository, inside site-packages when the tests run from the sdist.
PACKAGED = str(rulebook_file(official()))
OFFICIAL_SHOWN = shown(PACKAGED)
BROKEN = ["end.cards-conserved", "end.commanders-return"]
KEPT = "end.no-new-cards"
INVARIANTS = {inv.id: inv for inv in CATALOG}


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reports name files relative to the current directory: run from the repository."""
    monkeypatch.chdir(ROOT)


@pytest.fixture(scope="module")
def forgotten() -> tuple[Rulebook, list[Amendment]]:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        amendments = [load_amendment(FORGOTTEN)]
    return amendments[0].apply(official()), amendments


@pytest.fixture(scope="module")
def runs(forgotten: tuple[Rulebook, list[Amendment]]) -> tuple[list[Result], list[Result]]:
    """The same verification twice (`verify --amendment 728.5c-forgotten.toml --only ...`)."""
    rulebook, _ = forgotten
    found = tuple(verify(rulebook, [*BROKEN, KEPT], timeout=30.0, jobs=1) for _ in range(2))
    for results in found:
        statuses = {r.obligation.invariant.id: r.status for r in results}
        assert statuses == {BROKEN[0]: Status.REFUTED, BROKEN[1]: Status.REFUTED,
                            KEPT: Status.PROVED}, "the solver did not decide (a slow machine?)"
    return found[0], found[1]


@pytest.fixture
def unseen_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """An amendment that removes 728.5c's clause and adds it back as it was, in the
    current directory: the model can see no difference. Returns its name."""
    rows = (ROOT / "model" / "rulebook.toml").read_text(encoding="utf-8").splitlines()
    start = name_line("model/rulebook.toml", COMMANDER) - 1
    end = next((i for i in range(start, len(rows)) if rows[i].startswith("[[")), len(rows))
    names = official().names()
    text = "\n".join(['title = "728.5c removed and added back"', "", "[[remove]]",
                      f'name = "{COMMANDER}"', "", "[[add]]",
                      f'after = "{names[names.index(COMMANDER) - 1]}"', *rows[start:end]])
    (tmp_path / "unseen.toml").write_text(text + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return "unseen.toml"


@pytest.fixture(scope="module")
def sarif_schema() -> Any:
    """OASIS's SARIF 2.1.0 schema (not in the repository: `tools/sarif-schema` fetches it
    once into .cache/). Without it, fail on CI and skip elsewhere."""
    try:
        done = subprocess.run([str(ROOT / "tools" / "sarif-schema")], capture_output=True,
                              text=True, timeout=300, check=True)
        return json.loads(Path(done.stdout.strip()).read_text(encoding="utf-8"))
    except (OSError, subprocess.SubprocessError, ValueError) as err:
        why = f"OASIS's SARIF schema is not available (tools/sarif-schema: {err})"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


def validate(schema: Any, text: str) -> dict[str, Any]:
    from jsonschema import Draft202012Validator

    doc: dict[str, Any] = json.loads(text)
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert errors == [], "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    return doc


def by_hand(invariant: str, status: Status, reason: str = "", seconds: float = 0.5) -> Result:
    inv = INVARIANTS[invariant]
    return Result(Obligation(inv, inv.events[0]), status, seconds, reason=reason)


def name_line(path: str, name: str) -> int:
    """The line of `name = "NAME"` in a file (the repository's, or any by absolute path)."""
    rows = (ROOT / path).read_text(encoding="utf-8").splitlines()
    return next(n for n, row in enumerate(rows, 1)
                if re.match(rf'\s*name\s*=\s*"{re.escape(name)}"', row))


def results_of(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return list(doc["runs"][0]["results"])


def primary(result: dict[str, Any]) -> tuple[str, int | None, str]:
    location = result["locations"][0]
    physical = location["physicalLocation"]
    return (physical["artifactLocation"]["uri"], physical.get("region", {}).get("startLine"),
            location["logicalLocations"][0]["name"])


# ---- where a result points -----------------------------------------------------------------


def test_clauses_know_their_file_and_rulebooks_still_compare_equal() -> None:
    rulebook = official()
    from importlib import resources

    packaged = resources.files("shahrazad.model") / "rulebook.toml"  # wherever installed
    assert rulebook.source == "<official>"
    assert {c.file for c in rulebook} == {str(packaged)}
    from_file = load_rulebook("model/rulebook.toml")
    assert {c.file for c in from_file} == {"model/rulebook.toml"}
    assert from_file.clauses == rulebook.clauses  # the file is not part of a clause's meaning


def test_an_amendment_records_the_line_of_each_change(unseen_file: str) -> None:
    """A clause removed and added back: each table's own line, not the first line that
    names the clause; a [[remove]] written inline too."""
    amendment = load_amendment(unseen_file)
    assert amendment.remove_lines == {COMMANDER: 4}
    [(added, _, _)] = amendment.add
    assert (added.file, added.line) == (unseen_file, 8)
    amended = amendment.apply(official())
    assert amended.names() == official().names()
    assert amended.get(COMMANDER).steps == official().get(COMMANDER).steps
    inline = parse_amendment(f'remove = [\n  {{ name = "{COMMANDER}" }},\n]\n', file="x.toml")
    assert inline.remove_lines == {COMMANDER: 2}


def test_locations_put_the_amendment_first(forgotten: tuple[Rulebook, list[Amendment]]) -> None:
    rulebook, amendments = forgotten
    where = locations(by_hand("end.cards-conserved", Status.UNKNOWN), rulebook, amendments)
    assert where[0] == Location(FORGOTTEN, name_line(FORGOTTEN, COMMANDER),
                                COMMANDER, "removed")
    rest = [w.clause for w in where[1:]]
    assert rest == [c for c in INVARIANTS["end.cards-conserved"].clauses
                    if c != COMMANDER]
    assert {w.file for w in where[1:]} == {OFFICIAL_SHOWN}
    assert all(w.line == name_line(PACKAGED, w.clause) for w in where[1:])
    # Under the official rules the same obligation points at the rulebook alone.
    plain = locations(by_hand("end.commanders-return", Status.UNKNOWN), official(), [])
    assert plain == [Location(OFFICIAL_SHOWN, name_line(PACKAGED, COMMANDER), COMMANDER)]


def test_the_invariants_own_changed_clauses_come_first(
        forgotten: tuple[Rulebook, list[Amendment]]) -> None:
    """An amendment's change to a clause the invariant names comes first, at any event;
    the amendment's other changes on the obligation's event come next, then the rulebook."""
    rulebook, amendments = forgotten
    commander = Location(FORGOTTEN, name_line(FORGOTTEN, COMMANDER),
                         COMMANDER, "removed")
    # structure.commanders at start-subgame: the removed clause acts on another event.
    where = locations(by_hand("structure.commanders", Status.UNKNOWN), rulebook, amendments)
    assert where[0] == commander
    assert [w.clause for w in where[1:]] == ["restart.cards-involved"]
    # 2009: three start clauses removed, subgame.start.supplementary-decks first in the file.
    path = "examples/amendments/2009-712.2-without-712.2a-c.toml"
    older = load_amendment(path)
    where = locations(by_hand("start.vanguard-moves", Status.UNKNOWN), older.apply(official()),
                      [older])
    assert [(w.clause, w.line) for w in where] == [
        (name, name_line(path, name)) for name in
        ("subgame.start.vanguard", "subgame.start.supplementary-decks", "subgame.start.commander")]
    assert {(w.file, w.change) for w in where} == {(path, "removed")}


def test_an_added_clause_points_at_its_add(unseen_file: str) -> None:
    amendment = load_amendment(unseen_file)
    where = locations(by_hand("end.commanders-return", Status.UNKNOWN),
                      amendment.apply(official()), [amendment])
    assert where == [Location(unseen_file, 8, COMMANDER, "added")]


def test_uri_is_relative_under_the_current_directory_else_a_file_uri(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    assert uri(str(ROOT / FORGOTTEN)) == FORGOTTEN
    assert uri("examples/a b.toml") == "examples/a%20b.toml"
    monkeypatch.chdir(tmp_path)
    assert uri(str(ROOT / FORGOTTEN)) == (ROOT / FORGOTTEN).as_uri()
    where = locations(by_hand("end.commanders-return", Status.UNKNOWN), official(), [])
    assert where[0].file == Path(PACKAGED).as_posix()


# ---- SARIF ----------------------------------------------------------------------------------


def test_sarif_is_valid_and_points_at_the_amendment_line(
        runs: tuple[list[Result], list[Result]], forgotten: tuple[Rulebook, list[Amendment]],
        sarif_schema: Any) -> None:
    rulebook, amendments = forgotten
    doc = validate(sarif_schema, verify_sarif(runs[0], rulebook, amendments, wall=2.5))
    run = doc["runs"][0]
    found = results_of(doc)
    assert [r["ruleId"] for r in found] == BROKEN  # the proved one gives no result
    line = name_line(FORGOTTEN, COMMANDER)
    for result in found:
        assert primary(result) == (FORGOTTEN, line, COMMANDER)
        assert result["level"] == "error"
        text = result["message"]["text"]
        assert "refuted" in text and "end-subgame" in text and "728.5c" in text
        assert "counterexample replays" in text  # the reason
        index = result["locations"][0]["physicalLocation"]["artifactLocation"]["index"]
        assert run["artifacts"][index]["location"]["uri"] == FORGOTTEN
    # end.cards-conserved names four more clauses, in the rulebook, as related locations.
    related = found[0]["relatedLocations"]
    assert [r["logicalLocations"][0]["name"] for r in related] == [
        "subgame.end.return-cards", "subgame.end.supplementary-cards",
        "subgame.end.supplementary-decks", "subgame.end.vanguard"]
    for r in related:
        physical = r["physicalLocation"]
        assert physical["artifactLocation"] | {"index": 0} == {
            "uri": "rulebook.toml", "uriBaseId": "SHAHRAZAD_RULEBOOK", "index": 0}
        assert physical["region"]["startLine"] == name_line(
            PACKAGED, r["logicalLocations"][0]["name"])
    assert {a["location"]["uri"] for a in run["artifacts"]} == {"rulebook.toml", FORGOTTEN}
    assert "SHAHRAZAD_RULEBOOK" in run["originalUriBaseIds"]
    assert run["invocations"][0]["properties"]["wall-seconds"] == 2.5
    assert run["invocations"][0]["executionSuccessful"] is True
    assert run["invocations"][0]["exitCode"] == 1


def anchors(markdown: Path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings."""
    out = set()
    for row in markdown.read_text(encoding="utf-8").splitlines():
        if row.startswith("#"):
            title = row.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


def test_sarif_rules_carry_the_catalog(runs: tuple[list[Result], list[Result]],
                                      forgotten: tuple[Rulebook, list[Amendment]]) -> None:
    rulebook, amendments = forgotten
    doc = json.loads(verify_sarif(runs[0], rulebook, amendments))
    driver = doc["runs"][0]["tool"]["driver"]
    assert driver["name"] == "shahrazad" and driver["version"] == __version__
    assert driver["informationUri"].startswith("https://")
    rules = driver["rules"]
    assert [r["id"] for r in rules] == [r.obligation.invariant.id for r in runs[0]]
    for result in results_of(doc):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    for rule in rules:
        inv = INVARIANTS[rule["id"]]
        assert rule["shortDescription"]["text"] == inv.statement
        assert inv.statement in rule["fullDescription"]["text"]
        assert rule["properties"]["clauses"] == list(inv.clauses)
        assert rule["properties"]["events"] == list(inv.events)
        assert inv.kind in rule["properties"]["tags"]
        page, anchor = rule["helpUri"].removeprefix(DOCS_URI).split("#")
        assert (ROOT / "docs" / page).exists() and anchor in anchors(ROOT / "docs" / page)
    conserved = next(r for r in rules if r["id"] == "end.cards-conserved")
    # 728.5c's clause is removed by the amendment: its number comes from the rules it changed.
    assert conserved["properties"]["cr"] == ["728.5", "728.5a", "728.5b", "728.5c"]


def test_sarif_is_the_same_every_run_but_for_the_time(
        runs: tuple[list[Result], list[Result]],
        forgotten: tuple[Rulebook, list[Amendment]]) -> None:
    rulebook, amendments = forgotten
    first = json.loads(verify_sarif(runs[0], rulebook, amendments, wall=1.0))
    second = json.loads(verify_sarif(runs[1], rulebook, amendments, wall=7.0))
    assert first["runs"][0]["invocations"] != second["runs"][0]["invocations"]
    for doc in (first, second):
        del doc["runs"][0]["invocations"][0]["properties"]["wall-seconds"]
    assert first == second
    prints = [r["partialFingerprints"][FINGERPRINT] for r in results_of(first)]
    assert len(set(prints)) == len(prints) == 2
    assert all(re.fullmatch(r"[0-9a-f]{64}", p) for p in prints)
    # The fingerprint is of the rules checked, not of where or how long: another
    # amendment list gives others, another checkout folder the same.
    alone = json.loads(verify_sarif(runs[0], rulebook, []))
    assert {r["partialFingerprints"][FINGERPRINT] for r in results_of(alone)}.isdisjoint(prints)


def test_sarif_fingerprints_do_not_depend_on_the_checkout_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    results = [by_hand("end.commanders-return", Status.UNKNOWN, "gave up")]
    text = (ROOT / FORGOTTEN).read_text(encoding="utf-8")
    prints = []
    for folder in ("one", "two"):
        (tmp_path / folder / "examples" / "amendments").mkdir(parents=True)
        (tmp_path / folder / FORGOTTEN).write_text(text, encoding="utf-8")
        monkeypatch.chdir(tmp_path / folder)
        amendments = [load_amendment(str(tmp_path / folder / FORGOTTEN))]
        doc = json.loads(verify_sarif(results, amendments[0].apply(official()), amendments))
        assert primary(results_of(doc)[0])[0] == FORGOTTEN
        prints.append(results_of(doc)[0]["partialFingerprints"][FINGERPRINT])
    assert prints[0] == prints[1]


def test_sarif_levels(sarif_schema: Any) -> None:
    results = [by_hand("end.commanders-return", Status.UNKNOWN, "the solver gave up: timeout"),
               by_hand("end.cards-conserved", Status.FAULT, "z3 and the interpreter disagree"),
               by_hand("end.no-new-cards", Status.PROVED)]
    doc = validate(sarif_schema, verify_sarif(results, official(), []))
    found = results_of(doc)
    assert [(r["ruleId"], r["level"]) for r in found] == [
        ("end.commanders-return", "warning"), ("end.cards-conserved", "error")]
    assert "unknown" in found[0]["message"]["text"]
    assert "the solver gave up: timeout" in found[0]["message"]["text"]
    assert "fault" in found[1]["message"]["text"]
    assert primary(found[0]) == ("rulebook.toml", name_line(PACKAGED, COMMANDER), COMMANDER)
    invocation = doc["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False  # a fault is a bug of this tool
    assert invocation["exitCode"] == 3


def test_a_proof_with_lemmas_shows_them_in_sarif_and_markdown(sarif_schema: Any) -> None:
    lemmas = ["no attraction card is in a subgame", "no contraption card is in a subgame"]
    proof = by_hand("structure.no-nontraditional-in-library", Status.PROVED,
                    "proved with 2 lemma(s), each an invariant")
    proof.lemmas = list(lemmas)
    plain = by_hand("end.no-new-cards", Status.PROVED)
    doc = validate(sarif_schema, verify_sarif([proof, plain], official(), []))
    (found,) = results_of(doc)
    assert (found["ruleId"], found["kind"], found["level"]) == \
        ("structure.no-nontraditional-in-library", "pass", "none")
    assert found["properties"]["lemmas"] == lemmas
    assert all(lemma in found["message"]["text"] for lemma in lemmas)
    assert doc["runs"][0]["invocations"][0]["exitCode"] == 0
    page = verify_markdown([proof, plain], "official", [])
    section = page[page.index("## proved with lemmas: structure.no-nontraditional-in-library"):]
    assert [f"* {lemma}" for lemma in lemmas] == \
        [line for line in section.splitlines() if line.startswith("* ")]
    assert "## proved with lemmas: end.no-new-cards" not in page


def test_sarif_unseen_is_a_warning_at_the_amendment(sarif_schema: Any, unseen_file: str) -> None:
    amendment = load_amendment(unseen_file)
    rulebook = amendment.apply(official())
    results = [by_hand("end.commanders-return", Status.PROVED)]
    line = "no difference the model can see: the amended clauses act on end-subgame"
    doc = validate(sarif_schema, verify_sarif(results, rulebook, [amendment], unseen=line))
    [found] = results_of(doc)
    assert (found["ruleId"], found["level"], found["message"]["text"]) == (
        "amendment.unseen", "warning", line)
    physical = found["locations"][0]["physicalLocation"]
    assert (physical["artifactLocation"]["uri"], physical["region"]["startLine"]) == (
        unseen_file, 1)
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert rules[found["ruleIndex"]]["id"] == "amendment.unseen"
    assert doc["runs"][0]["invocations"][0]["exitCode"] == 3
    assert results_of(json.loads(verify_sarif(results, rulebook, [amendment]))) == []


# ---- JUnit XML ------------------------------------------------------------------------------


def junit(text: str) -> ET.Element:
    assert text.startswith("<?xml")
    return ET.fromstring(text.split("?>", 1)[1])


def test_junit_unknown_and_fault_are_errors_never_skipped() -> None:
    results = [by_hand("end.commanders-return", Status.UNKNOWN, "the solver gave up: timeout"),
               by_hand("end.cards-conserved", Status.FAULT, "z3 and the interpreter disagree"),
               by_hand("end.no-new-cards", Status.PROVED)]
    root = junit(verify_junit(results, official(), [], wall=4.25))
    assert root.tag == "testsuites"
    [suite] = root
    assert suite.get("name") == "shahrazad verify (official)"
    for element in (root, suite):
        assert (element.get("tests"), element.get("failures"), element.get("errors"),
                element.get("skipped"), element.get("time")) == ("3", "0", "2", "0", "4.250")
    assert root.find(".//skipped") is None
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    unknown, fault, proved = (cases[r.obligation.invariant.id] for r in results)
    assert unknown[0].tag == "error" and unknown[0].get("message") == "the solver gave up: timeout"
    assert fault[0].tag == "error" and fault[0].get("message") == "z3 and the interpreter disagree"
    assert list(proved) == []
    assert unknown.get("file") == OFFICIAL_SHOWN
    assert unknown.get("line") == str(name_line(PACKAGED, COMMANDER))
    assert unknown.get("time") == "0.500"


def test_junit_of_a_real_run(runs: tuple[list[Result], list[Result]],
                             forgotten: tuple[Rulebook, list[Amendment]]) -> None:
    rulebook, amendments = forgotten
    text = verify_junit(runs[0], rulebook, amendments, wall=3.0)
    root = junit(text)
    [suite] = root
    assert suite.get("name") == f"shahrazad verify (official amended by {FORGOTTEN})"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "2", "0")
    assert "timestamp" not in text and "hostname" not in text
    failures = {c.get("name"): c for c in suite.iter("testcase") if c.find("failure") is not None}
    assert set(failures) == set(BROKEN)
    for case in failures.values():
        failure = case.find("failure")
        assert failure is not None and failure.text is not None
        assert "broken:" in failure.text and "steps that acted:" in failure.text  # explain()
        assert case.get("file") == FORGOTTEN
        assert case.get("line") == str(name_line(FORGOTTEN, COMMANDER))
    # The same every run, apart from the times.
    again = verify_junit(runs[1], rulebook, amendments, wall=9.0)
    assert again != text
    untimed = re.compile(r' time="[0-9.]+"')
    assert untimed.sub("", again) == untimed.sub("", text)


def test_junit_unseen_is_one_more_error(unseen_file: str) -> None:
    amendment = load_amendment(unseen_file)
    results = [by_hand("end.commanders-return", Status.PROVED)]
    root = junit(verify_junit(results, amendment.apply(official()), [amendment], wall=1.0,
                              unseen="no difference the model can see"))
    [suite] = root
    assert (root.get("tests"), root.get("errors"), root.get("failures")) == ("2", "1", "0")
    case = suite.find("testcase[@name='amendment.unseen']")
    assert case is not None and case.get("file") == unseen_file and case.get("line") == "1"
    error = case.find("error")
    assert error is not None and error.get("message") == "no difference the model can see"


# ---- GitHub workflow commands ---------------------------------------------------------------


def test_github_escaping() -> None:
    assert escape_data("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext: a, b"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


COMMAND = re.compile(r"^::(error|warning|notice)(?: ([^:]*))?::(.*)$")


def unescape(text: str) -> str:
    for code, char in (("%0A", "\n"), ("%0D", "\r"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, char)
    return text


def test_github_one_line_per_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file whose name has `,` and `:`, a reason with `%` and a line break: each finding
    is one line whose properties split cleanly."""
    odd = tmp_path / "a,b:c.toml"
    odd.write_text((ROOT / FORGOTTEN).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    amendment = load_amendment(str(odd))
    results = [by_hand("end.commanders-return", Status.REFUTED, "replays 100%\nreached"),
               by_hand("end.cards-conserved", Status.UNKNOWN, "gave up"),
               by_hand("end.no-new-cards", Status.PROVED),
               by_hand("restart.owners", Status.FAULT, "disagree")]
    lines = verify_github(results, amendment.apply(official()), [amendment]).splitlines()
    assert len(lines) == 4  # three findings and the summary
    parsed = [COMMAND.match(line) for line in lines]
    assert all(parsed), lines
    kinds = [m.group(1) for m in parsed if m]
    assert kinds == ["error", "warning", "error", "notice"]
    first = parsed[0]
    assert first is not None
    properties = dict(p.split("=", 1) for p in (first.group(2) or "").split(","))
    assert properties["file"] == "a%2Cb%3Ac.toml"
    assert unescape(properties["file"]) == "a,b:c.toml"
    assert properties["line"] == str(name_line(str(odd), COMMANDER))
    assert unescape(properties["title"]) == "end.commanders-return refuted at end-subgame"
    assert "replays 100%\nreached" in unescape(first.group(3))
    fault = parsed[2]
    assert fault is not None
    assert "file=model/rulebook.toml" not in fault.group(2)  # outside the current directory
    assert unescape(dict(p.split("=", 1) for p in fault.group(2).split(","))["file"]) == \
        Path(PACKAGED).as_posix()
    summary = parsed[-1]
    assert summary is not None and summary.group(2) is None
    assert "4 obligations: 1 proved, 1 refuted, 1 unknown, 1 fault" in unescape(summary.group(3))


def test_github_unseen_and_all_proved(unseen_file: str) -> None:
    amendment = load_amendment(unseen_file)
    rulebook = amendment.apply(official())
    results = [by_hand("end.commanders-return", Status.PROVED)]
    assert verify_github(results, rulebook, [amendment]).splitlines() == [
        f"::notice::shahrazad verify (official amended by {unseen_file}): 1 obligations: 1 proved"]
    lines = verify_github(results, rulebook, [amendment], unseen="no difference").splitlines()
    assert lines[0] == f"::warning file={unseen_file},line=1,title=amendment.unseen::no difference"
    assert lines[-1].startswith("::notice::") and len(lines) == 2


EXAMPLE_AMENDMENTS = sorted((ROOT / "examples" / "amendments").glob("*.toml"))


@pytest.mark.slow  # every example amendment proved again: minutes
@pytest.mark.parametrize("path", EXAMPLE_AMENDMENTS, ids=[p.stem for p in EXAMPLE_AMENDMENTS])
def test_sarif_of_each_example_amendment_points_at_its_line(path: Path, sarif_schema: Any) -> None:
    """What each example amendment breaks is a SARIF error at a line of that amendment."""
    amendment = load_amendment(str(path.relative_to(ROOT)))
    assert amendment.breaks, f"{path.name} names what it breaks"
    results = verify(amendment.apply(official()), amendment.breaks, timeout=30.0, jobs=1)
    run = validate(sarif_schema, verify_sarif(results, amendment.apply(official()),
                                              [amendment]))["runs"][0]
    errors = [r for r in run["results"] if r["level"] == "error"]
    assert {r["ruleId"] for r in errors} == set(amendment.breaks)
    rows = path.read_text(encoding="utf-8").splitlines()
    for result in errors:
        physical = result["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"]["uri"] == path.relative_to(ROOT).as_posix()
        line = physical["region"]["startLine"]
        assert 1 <= line <= len(rows) and "name" in rows[line - 1], (result["ruleId"], line)
