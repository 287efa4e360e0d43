"""Cross-references in rule texts (src/shahrazad/references.py)."""

from __future__ import annotations

import codecs
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from shahrazad.cli import main
from shahrazad.references import _read, check_references, scan

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "rules"


def _stale(rule: str, line: int, *dates: str) -> list[tuple[str, int, str]]:
    return [(f"subgames_{date}.txt", line, f"range {rule}a-c stops short: {rule}d exists in "
             "this edition") for date in dates]


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/rules is not beside the checkout")
def test_the_wrong_references_of_the_real_rules() -> None:
    """From February 2024 to February 2025 the English CR's restart rule cited itself (724)
    for subgames; the Italian translation of September 2025 cites 727 instead of 728. When
    Archenemy got its sub-rule (713.2d in July 2010, 715.5d in May 2012), the ranges "rules
    713.2a-c" (until February 2011) and "rules 715.5a-c" (until August 2018, through three
    renumberings) were not extended."""
    found = check_references([SHARED])
    where = sorted((Path(f.file).name, f.line, f.problem) for f in found
                   if "stops short" in f.problem)
    assert where == sorted(
        _stale("713.2", 14, "20100716", "20101001")
        + _stale("715.5", 30, "20120501", "20120601", "20120701", "20121001", "20130201",
                 "20130501", "20130713", "20130927", "20131101")
        + _stale("715.5", 31, "20140501", "20140601", "20140718", "20160116", "20160408")
        + _stale("715.5", 32, "20140201", "20140925", "20150123", "20150327", "20150717",
                 "20150926", "20151113")
        + _stale("717.5", 32, "20160722")
        + _stale("718.5", 32, "20160826", "20160930", "20161111", "20170120", "20170428",
                 "20170605", "20170708", "20170825", "20170929")
        + _stale("718.5", 31, "20180119")
        + _stale("719.5", 31, "20180427", "20180608") + _stale("719.5", 32, "20180713"))
    others = [f for f in found if "stops short" not in f.problem]
    assert sorted((Path(f.file).name, f.line) for f in others) == [
        ("004_c966f68ad3819fd4.txt", 15),
        ("restart_20240202.txt", 22), ("restart_20240308.txt", 22), ("restart_20240607.txt", 22),
        ("restart_20240730.txt", 22), ("restart_20241108.txt", 22), ("restart_20250207.txt", 22),
    ]
    assert all("for the subgames rule" in f.problem for f in others)


def _history(folder: Path, date: str, subgames: str, restart_cites: str) -> None:
    (folder / f"subgames_{date}.txt").write_text(
        f"RULE: {subgames}. Subgames\n\n{subgames}. Subgames\n\n"
        f"{subgames}.2. No other cards move, except as specified in rules {subgames}.2a–c.\n"
        f"{subgames}.2a One.\n{subgames}.2b Two.\n")
    (folder / f"restart_{date}.txt").write_text(
        "RULE: 700. Restarting the Game\n\n700.6. If a Magic subgame (see rule "
        f"{restart_cites}) is restarted, the main game is unaffected.\n")


def test_a_wrong_companion_and_a_missing_sub_rule(tmp_path: Path) -> None:
    _history(tmp_path, "20300101", "729", "728")
    found = check_references([tmp_path])
    problems = sorted(f.problem for f in found)
    assert problems == ["cites rule 729.2c, which this text does not have",
                        "rule 700.6 cites rule 728 for the subgames rule, which is rule 729 "
                        "in that edition"]


def test_right_references_are_quiet(tmp_path: Path) -> None:
    _history(tmp_path, "20300101", "729", "729")
    (tmp_path / "subgames_20300101.txt").write_text(
        "RULE: 729. Subgames\n\n729.2. Except as specified in rules 729.2a–b.\n729.2a A.\n"
        "729.2b B.\n")
    assert check_references([tmp_path]) == []


# An excerpt as the CR's text files have it: a curly apostrophe and an en dash, which
# Windows-1252 writes as the bytes 0x92 and 0x96 (neither valid UTF-8).
EXCERPT = ("RULE: 713. Subgames\n\n713. Subgames\n\n713.2. Each player’s other cards stay, "
           "except as specified in rules 713.2a–c.\n713.2a A.\n713.2b B.\n713.2c C.\n"
           "713.2d Archenemy.\n")


@pytest.mark.parametrize("encode", [
    lambda t: t.encode("utf-8"),
    lambda t: codecs.BOM_UTF8 + t.replace("\n", "\r\n").encode("utf-8"),
    lambda t: codecs.BOM_UTF16_LE + t.replace("\n", "\r\n").encode("utf-16-le"),
    lambda t: codecs.BOM_UTF16_BE + t.replace("\n", "\r").encode("utf-16-be"),
    lambda t: t.replace("\n", "\r\n").encode("cp1252"),
], ids=["utf-8", "utf-8-bom-crlf", "utf-16-le-crlf", "utf-16-be-cr", "cp1252-crlf"])
def test_each_encoding_is_read(tmp_path: Path, encode: Callable[[str], bytes]) -> None:
    (tmp_path / "subgames_20100716.txt").write_bytes(encode(EXCERPT))
    refs = scan([tmp_path])
    assert (refs.files, refs.rules, refs.unrecognised) == (1, 5, 0)
    [f] = refs.findings
    assert (f.line, f.problem) == (5, "range 713.2a-c stops short: 713.2d exists in this edition")
    assert f.text.startswith("713.2. Each player’s") and f.text.endswith("rules 713.2a–c.")


def _rulesraker(path: Path) -> Path:
    """A small rulesraker document: line = the rule's index in "Rules", 1-based."""
    rules = [
        ("1.", "Part", "Game Concepts"),                                       # 1
        ("103.", "Chapter", "Starting the Game"),                              # 2
        ("103.1.", "Rule", "See rule 104 for how to end it."),                 # 3: no rule 104
        ("726.", "Chapter", "Restarting the Game"),                            # 4
        ("726.6.", "Rule", "If a Magic subgame (see rule 728) is restarted."),  # 5: right
        ("728.", "Chapter", "Subgames"),                                       # 6
        ("728.1.", "Rule", "One card (Shahrazad) allows players to play a Magic subgame."),
        ("728.2.", "Rule", "Nothing moves, except as specified in rules 728.2a–b. Follow "
                           "rule 103, “Starting the Game.”"),                 # 8: stops short
        ("728.2a", "SubRule", "A."), ("728.2b", "SubRule", "B."), ("728.2c", "SubRule", "C."),
        ("728.3.", "Rule", "Too few cards lose (see rule 704.5a)."),           # 12: no 704.5a
    ]
    document = {"EffectiveDate": "2030-02-03T00:00:00Z", "Rules": [
        {"ID": number, "Number": number, "Type": kind, "Body": [body]}
        for number, kind, body in rules]}
    document["Rules"][-1]["Examples"] = ["A player with six cards (see rule 903.6) loses."]
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


def test_a_rulesraker_json_document(tmp_path: Path) -> None:
    path = _rulesraker(tmp_path / "MagicCompRules.json")
    refs = scan([path])
    assert (refs.files, refs.rules, refs.unrecognised) == (1, 8, 0)
    assert sorted((f.line, f.problem) for f in refs.findings) == [
        (3, "cites rule 104, which this text does not have"),
        (8, "range 728.2a-b stops short: 728.2c exists in this edition"),
        (12, "cites rule 704.5a, which this text does not have"),
        (12, "cites rule 903.6, which this text does not have"),
    ]
    doc = _read(path)
    assert doc is not None and doc.date == "20300203" and doc.whole
    assert doc.lines[5:7] == ["728. Subgames", "728.1. One card (Shahrazad) allows players to "
                              "play a Magic subgame."]
    assert doc.lines[11] == ("728.3. Too few cards lose (see rule 704.5a). Example: A player "
                             "with six cards (see rule 903.6) loses.")


def test_the_restart_rule_citing_itself_in_a_rulesraker_document(tmp_path: Path) -> None:
    path = _rulesraker(tmp_path / "cr.json")
    path.write_text(path.read_text(encoding="utf-8").replace("see rule 728", "see rule 726"),
                    encoding="utf-8")
    [wrong] = [f for f in check_references([path]) if f.line == 5]
    assert wrong.problem == ("rule 726.6 cites rule 726 for the subgames rule, which is rule "
                             "728 in that edition")


def test_json_of_another_shape_is_not_recognised(tmp_path: Path) -> None:
    _rulesraker(tmp_path / "cr.json")
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "broken.json").write_text('{"Rules": [')
    (tmp_path / "other.json").write_text('{"EffectiveDate": "2030-01-01", "Rules": [{"N": 1}]}')
    (tmp_path / "nodate.json").write_text('{"Rules": []}')
    (tmp_path / "notes.txt").write_text("Nothing numbered here.\n")
    refs = scan([tmp_path])
    assert (refs.files, refs.rules, refs.unrecognised) == (6, 8, 5)


def test_the_counts_line_and_the_exit_code(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sub").mkdir()
    _rulesraker(tmp_path / "sub" / "cr.json")
    (tmp_path / "notes.txt").write_text("Nothing numbered here.\n")
    assert main(["check-references", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "checked 8 rules in 2 files (1 file not recognised); 4 findings"
    assert main(["check-references", "--format", "json", str(tmp_path)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["files"], data["rules"], data["unrecognised"], len(data["findings"])) == (
        2, 8, 1, 4)
    right = tmp_path / "right"
    right.mkdir()
    _history(right, "20300101", "729", "729")
    (right / "subgames_20300101.txt").write_text("RULE: 729. Subgames\n\n729.1. One card.\n")
    assert main(["check-references", str(right)]) == 0
    assert capsys.readouterr().out == "checked 2 rules in 2 files; 0 findings\n"


@pytest.mark.parametrize("contents", [{}, {"notes.txt": "hello\n", "data.json": '{"a": 1}',
                                           "empty.txt": ""}])
def test_no_rule_text_at_all_exits_2(tmp_path: Path, contents: dict[str, str],
                                     capsys: pytest.CaptureFixture[str]) -> None:
    for name, text in contents.items():
        (tmp_path / name).write_text(text)
    assert main(["check-references", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = captured.err.splitlines()
    assert line == (f"shahrazad: {tmp_path}: no rule text found ({len(contents)} .txt or .json "
                    f"file{'' if len(contents) == 1 else 's'} read, none with a numbered rule)")


def test_an_empty_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert main(["check-references", str(empty)]) == 2
    assert capsys.readouterr().err == (f"shahrazad: {empty}: no rule text found (1 .txt or "
                                       ".json file read, none with a numbered rule)\n")


def test_the_skipped_letters_l_and_o_are_not_missing(tmp_path: Path) -> None:
    """Later editions skip the letters l and o (they look like 1 and 0): 608.2k, 608.2m."""
    (tmp_path / "subgames_20300101.txt").write_text(
        "RULE: 729. Subgames\n\n729.2. As in rules 729.2j–p.\n729.2j J.\n729.2k K.\n"
        "729.2m M.\n729.2n N.\n729.2p P.\n")
    assert check_references([tmp_path]) == []
    (tmp_path / "subgames_20300101.txt").write_text(
        "RULE: 729. Subgames\n\n729.2. As in rules 729.2j–m.\n729.2j J.\n729.2m M.\n")
    assert [f.problem for f in check_references([tmp_path])] == [
        "cites rule 729.2k, which this text does not have"]
