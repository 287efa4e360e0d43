"""The past wordings (`examples/history/`, `proofs.analyses.history`): each file quotes its whole text,
sentence by sentence, each sentence expressed by clauses that exist or marked with a reason;
bad files are refused with the line; and docs/history.md is what `shahrazad history`
prints."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from shahrazad.model.amendment import KINDS, load_amendment, load_history, load_wording, uncovered
from shahrazad.model.errors import InputError

from shahrazad.cli import main

ROOT = Path(__file__).resolve().parent.parent
HISTORY = ROOT / "examples" / "history"
SHARED = ROOT.parent / "shared" / "rules" / "history"
WORDINGS = sorted(HISTORY.glob("*.toml"))
needs_shared = pytest.mark.skipif(not SHARED.is_dir(),
                                  reason="../shared/rules is not beside the checkout")


@pytest.mark.parametrize("path", WORDINGS, ids=[p.stem for p in WORDINGS])
def test_each_wording_loads_and_names_real_clauses(path: Path) -> None:
    wording = load_wording(path)
    wording.rulebook()  # raises when a sentence names a clause the amended rules lack
    assert {s.kind for s in wording.sentences} <= set(KINDS)
    assert load_amendment(path).title == wording.title


@needs_shared
@pytest.mark.parametrize("path", WORDINGS, ids=[p.stem for p in WORDINGS])
def test_each_wording_quotes_its_whole_text(path: Path) -> None:
    wording = load_wording(path)
    assert uncovered(wording, SHARED) == []
    first = wording.versions[0].replace("-", "")
    assert wording.source == f"{wording.rule}_{first}.txt"


@needs_shared
def test_a_sentence_left_out_is_found() -> None:
    wording = load_wording(HISTORY / "restart-02.toml")
    dropped = dataclasses.replace(wording, sentences=wording.sentences[1:])
    assert any("no sentence quotes" in p and "Karn Liberated restarts" in p
               for p in uncovered(dropped, SHARED))
    changed = dataclasses.replace(wording, sentences=[
        dataclasses.replace(wording.sentences[0], text="One card restarts every game."),
        *wording.sentences[1:]])
    assert any(p.startswith("not in restart_20110617.txt") for p in uncovered(changed, SHARED))


def test_the_wordings_in_order() -> None:
    """Every wording of both CHANGES files, subgames first, each rule's in number order."""
    names = [w.name for w in load_history(HISTORY)]
    assert names == [f"subgames {n}" for n in range(1, 24)] + [f"restart {n}"
                                                             for n in range(1, 6)]


@pytest.mark.parametrize("change, words", [
    (('kind = "descriptive"', 'kind = "vague"'), "kind must be one of"),
    (('kind = "expressed"\nclauses = ["restart.end-game"]', 'kind = "expressed"'),
     "names the clauses that say it"),
    (('rule = "restart"', 'rule = "karn"'), "rule must be one of"),
    (('number = 2', 'number = "two"'), "number must be a positive integer"),
])
def test_bad_wording_files(tmp_path: Path, change: tuple[str, str], words: str) -> None:
    text = (HISTORY / "restart-02.toml").read_text()
    assert change[0] in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(change[0], change[1], 1))
    with pytest.raises(InputError) as caught:
        load_wording(bad)
    assert words in str(caught.value) and "bad.toml" in str(caught.value)


def test_a_clause_that_does_not_exist(tmp_path: Path) -> None:
    text = (HISTORY / "restart-02.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('clauses = ["restart.end-game"]', 'clauses = ["restart.gone"]', 1))
    with pytest.raises(InputError, match="restart.gone"):
        load_wording(bad).rulebook()


def test_a_wording_is_an_amendment_for_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", "--amendment", str(HISTORY / "subgames-19.toml"),
                 "--only", "start.decks-move"])
    assert code == 1 and "REFUTED  start.decks-move @ start-subgame" in capsys.readouterr().out


@pytest.mark.slow
@needs_shared
def test_docs_history_is_the_generated_table(tmp_path: Path) -> None:
    """docs/history.md, and the counterexample files it links, are what `shahrazad history`
    writes now (to regenerate: `shahrazad history examples/history -o docs/history.md
    --archive ../shared/rules/history`)."""
    copy = tmp_path / "examples" / "history"
    shutil.copytree(HISTORY, copy)
    shutil.rmtree(copy / "counterexamples", ignore_errors=True)
    docs = tmp_path / "docs"
    docs.mkdir()
    code = main(["history", str(copy), "--format", "markdown", "-o", str(docs / "history.md"),
                 "--counterexamples", str(copy / "counterexamples"), "--archive", str(SHARED)])
    assert code in (0, 1)
    assert (docs / "history.md").read_text() == (ROOT / "docs" / "history.md").read_text()
    made = sorted(p.name for p in (copy / "counterexamples").glob("*.toml"))
    kept = sorted(p.name for p in (HISTORY / "counterexamples").glob("*.toml"))
    assert made == kept
    for name in made:
        assert (copy / "counterexamples" / name).read_text() == \
            (HISTORY / "counterexamples" / name).read_text()
