"""The rules manager's loop on the command line (issue 11): one proof run writing several
reports, `--amendment` on every command that reads a rulebook, `amend --only`, "did you
mean", `-o FILE` and `-` for standard input, and progress only on a terminal."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from shahrazad import cli
from shahrazad.cli import main

ROOT = Path(__file__).resolve().parent.parent
BREAKS_COMMANDERS = str(ROOT / "examples" / "amendments" / "728.5c-forgotten.toml")
SCENARIO = ROOT / "examples" / "subgame.end.commander.toml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_one_proof_run_writes_every_report(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from shahrazad.proofs.verdicts import run as proofs

    runs: list[int] = []
    real = proofs.verify

    def counted(*args: Any, **kwargs: Any) -> Any:
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(proofs, "verify", counted)
    files = {kind: tmp_path / f"report.{kind}" for kind in ("json", "xml", "sarif", "md")}
    code, out, _ = run(capsys, "verify", "--amendment", BREAKS_COMMANDERS, "--only",
                       "end.commanders-return", "--json", str(files["json"]), "--junit-xml",
                       str(files["xml"]), "--sarif", str(files["sarif"]), "--markdown",
                       str(files["md"]))
    assert code == 1 and len(runs) == 1
    assert "refuted" in out and "end.commanders-return" in out  # the text report, on stdout
    document = json.loads(files["json"].read_text())
    assert document["summary"] == {"refuted": 1} and document["exit-code"] == 1
    suite = ET.parse(files["xml"]).getroot().iter("testsuite").__next__()
    assert suite.get("failures") == "1" and suite.get("tests") == "1"
    sarif = json.loads(files["sarif"].read_text())
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["end.commanders-return"]
    assert "# shahrazad verify" in files["md"].read_text()


def test_format_and_output_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    code, out, _ = run(capsys, "verify", "--only", "end.cards-conserved", "--format", "json",
                       "-o", str(target))
    assert code == 0 and out == ""
    assert json.loads(target.read_text())["summary"] == {"proved": 1}


def test_two_reports_on_standard_output_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "verify", "--only", "end.cards-conserved", "--format", "json",
                         "--sarif", "-")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "only one report can go to standard output" in err


def test_a_report_file_alone_on_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--only", "end.cards-conserved", "--sarif", "-")
    assert code == 0 and json.loads(out)["version"] == "2.1.0"  # the text report stands aside


@pytest.mark.parametrize("bad", [["--sarif", "{missing}/x.sarif"], ["--json", "{folder}"],
                                 ["-o", "{same}", "--json", "{same}"],
                                 ["--explain-dir", "{file}/sub"]])
def test_bad_report_targets_are_refused_before_any_work(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, bad: list[str]) -> None:
    (tmp_path / "a-file").write_text("x")
    places = {"missing": str(tmp_path / "no" / "such"), "folder": str(tmp_path),
              "same": str(tmp_path / "same.out"), "file": str(tmp_path / "a-file")}
    args = [a.format(**places) for a in bad]
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = run(capsys, "verify", "--only", "end.commanders-return", "--markdown",
                         str(tmp_path / "report.md"), *args)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written


def test_explain_dir_needs_the_rules_as_files(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(
        Path(BREAKS_COMMANDERS).read_bytes())))
    code, _, err = run(capsys, "verify", "--amendment", "-", "--explain-dir", str(tmp_path / "x"))
    assert code == 2 and "give the rulebook and amendments as files" in err


@pytest.mark.slow  # about 3 s (a comparison of restarts): behind `slow` (issue 9's quick suite)
def test_an_unseen_amendment_is_flagged_under_only_too(capsys: pytest.CaptureFixture[str]) -> None:
    unseen = str(ROOT / "examples" / "unseen" / "726.3-after-the-opening-hands.toml")
    code, out, _ = run(capsys, "verify", "--amendment", unseen, "--only",
                       "restart.procedure-order")
    assert code == 3 and "no difference the model can see" in out


def test_github_annotations(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--amendment", BREAKS_COMMANDERS, "--only",
                       "end.commanders-return", "--format", "github")
    assert code == 1
    errors = [line for line in out.splitlines() if line.startswith("::error ")]
    assert len(errors) == 1 and "728.5c-forgotten.toml" in errors[0]


@pytest.mark.parametrize(("args", "guess"), [
    (["verify", "--only", "end.commander-return"], "did you mean 'end.commanders-return'?"),
    (["amend", BREAKS_COMMANDERS, "--only", "end.cards-conserve"],
     "did you mean 'end.cards-conserved'?"),
    (["protection", "--clause", "subgame.end.comander"], "did you mean 'subgame.end.commander'?"),
])
def test_did_you_mean(capsys: pytest.CaptureFixture[str], args: list[str], guess: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert guess in err


def test_nothing_close_names_where_to_look(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "verify", "--only", "zzz")
    assert code == 2 and "no invariant 'zzz' (see shahrazad invariants)" in err


@pytest.mark.slow  # moved behind slow to keep the quick suite quick (issue 9)
def test_amend_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "amend", BREAKS_COMMANDERS, "--only", "end.commanders-return",
                       "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert document["only"] == ["end.commanders-return"]
    assert {c["invariant"] for c in document["changes"]} == {"end.commanders-return"}
    assert document["semantic-diff"]  # the diff still covers the changed events


def test_rules_with_an_amendment(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, official, _ = run(capsys, "rules")
    assert code == 0 and "subgame.end.commander " in official
    target = tmp_path / "rules.txt"
    code, out, _ = run(capsys, "rules", "--amendment", BREAKS_COMMANDERS, "-o", str(target))
    amended = target.read_text()
    assert code == 0 and out == ""
    assert "subgame.end.commander " not in amended and "amended by" in amended


def test_graph_with_an_amendment(capsys: pytest.CaptureFixture[str]) -> None:
    last = "1"  # examples/subgame.end.commander.toml: the subgame ends
    code, official, _ = run(capsys, "graph", str(SCENARIO), "--after", last)
    assert code == 0
    code, amended, _ = run(capsys, "graph", str(SCENARIO), "--after", last, "--amendment",
                           BREAKS_COMMANDERS)
    assert code == 0 and amended != official  # the commander went elsewhere


def test_simulate_reads_standard_input(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    code, expected, _ = run(capsys, "simulate", str(SCENARIO), "--format", "json")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SCENARIO.read_bytes())))
    code, out, _ = run(capsys, "simulate", "-", "--format", "json")
    assert code == 0
    assert json.loads(out)["scenario"] == "<stdin>"
    assert {k: v for k, v in json.loads(out).items() if k != "scenario"} == \
        {k: v for k, v in json.loads(expected).items() if k != "scenario"}


def test_bad_standard_input_names_it(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"players = [\n")))
    code, out, err = run(capsys, "simulate", "-")
    assert code == 2 and out == "" and err.startswith("shahrazad: <stdin>:")


def test_unwritable_output_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "invariants", "-o", str(tmp_path / "no" / "such" / "file"))
    assert code == 2 and err.count("\n") == 1 and "cannot write" in err


class _Result:
    class obligation:  # noqa: N801 - the shape of proofs.solving.obligations.Result
        name = "end.cards-conserved@end-subgame"

    class status:  # noqa: N801
        value = "proved"


def test_progress_shows_only_on_a_terminal() -> None:
    from rich.console import Console

    quiet = cli._Progress("proving")
    quiet.console = Console(file=io.StringIO(), force_terminal=False)
    with quiet as progress:
        progress(1, 2, _Result())
    assert quiet.bar is None and quiet.console.file.getvalue() == ""  # type: ignore[attr-defined]
    shown = cli._Progress("proving")
    shown.console = Console(file=io.StringIO(), force_terminal=True, width=120)
    with shown as progress:
        progress(1, 2, _Result())
        assert shown.bar.tasks[0].completed == 1 and shown.bar.tasks[0].total == 2
        assert shown.bar.tasks[0].fields["item"] == "proved end.cards-conserved@end-subgame"


def test_did_you_mean_in_an_amendment(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    amendment = tmp_path / "typo.toml"
    amendment.write_text('title = "a typo"\n\n[[remove]]\nname = "subgame.end.comander"\n')
    code, out, err = run(capsys, "rules", "--amendment", str(amendment))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{amendment}:4: remove: no clause 'subgame.end.comander' in the rulebook; " \
        "did you mean 'subgame.end.commander'?" in err


@pytest.mark.slow  # moved behind slow to keep the quick suite quick (issue 9)
def test_check_rules_reports_progress() -> None:
    from shahrazad.model.rulebook import official
    from shahrazad.proofs.analyses.rules_check import FATE, fates

    ticks: list[Any] = []
    found = fates(official(), tick=ticks.append)
    assert ticks == found and len(found) == len(FATE)
    assert cli._label(found[0]) == found[0].subject


def test_recorded_rules_replay_through_a_symbolic_link(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere" / "deep"
    project.mkdir()
    elsewhere.mkdir(parents=True)
    (project / "forgotten.toml").write_bytes(Path(BREAKS_COMMANDERS).read_bytes())
    (project / "out").symlink_to(elsewhere, target_is_directory=True)
    monkeypatch.chdir(project)
    code, _, _ = run(capsys, "verify", "--amendment", "forgotten.toml", "--only",
                     "end.commanders-return", "--explain-dir", "out")
    assert code == 1
    code, out, err = run(capsys, "simulate", "out/end.commanders-return@end-subgame.trace.toml")
    assert code == 0, err
    assert "amended by forgotten.toml" in out


def test_amend_decides_both_rulebooks_only_where_the_amendment_changes_them(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from shahrazad.proofs.analyses import semantic
    from shahrazad.proofs.verdicts import run as proofs

    asked: list[list[tuple[str, str]]] = []

    def decide(requests: Any, **_: Any) -> list[list[Any]]:
        asked.extend([(ob.event, ob.invariant.id) for ob in todo] for _, todo in requests)
        return [[proofs.Result(ob, proofs.Status.PROVED, 0.0) for ob in todo]
                for _, todo in requests]

    monkeypatch.setattr(proofs, "decide", decide)
    monkeypatch.setattr(semantic, "semantic_diff", lambda *_, **__: [])
    code, _, _ = run(capsys, "amend", BREAKS_COMMANDERS, "--format", "json")
    assert len(asked) == 2 and asked[0] == asked[1]  # the same obligations of both
    assert {event for event, _ in asked[0]} == {"end-subgame"}  # 728.5c is about the end
    assert len(asked[0]) == len([ob for ob in proofs.obligations() if ob.event == "end-subgame"])
    assert code == 3  # every verdict the same, and the stand-in comparison saw no difference
