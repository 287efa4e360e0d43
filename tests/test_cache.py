"""The cache of proofs (`proofs.solving.cache`, `verify --cache`): the key changes with each thing
a proof depends on and with nothing else; a warm run answers each cached proof from the
cache with the answers and order of the cold run, and says so; refutations are never
kept; a file that is not a proof is a miss, and is written again."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from shahrazad.invariants import lang
from shahrazad.model.amendment import load_amendment
from shahrazad.model.rulebook import official
from shahrazad.proofs.solving import cache as cache_module
from shahrazad.proofs.solving.cache import ResultCache, key
from shahrazad.proofs.solving.obligations import Confirmation, Obligation, Result, Status, obligations
from shahrazad.proofs.verdicts.run import verify

from shahrazad import schemas
from shahrazad.cli import main
from shahrazad.report.github import verify_github
from shahrazad.report.jsondoc import verify_json
from shahrazad.report.markdown import verify_markdown
from shahrazad.report.text import verify_text

ROOT = Path(__file__).resolve().parent.parent
TOKENS = ROOT / "examples" / "amendments" / "restart-tokens-survive.toml"

# Quick proofs at three events (each its own batch), one of them a possibility.
ONLY = ["end.cards-conserved", "restart.nothing-else", "possible.start-subgame"]


@pytest.fixture(autouse=True)
def no_cache_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    """A SHAHRAZAD_CACHE of the shell running the tests plays no part in them."""
    monkeypatch.delenv("SHAHRAZAD_CACHE", raising=False)


def _options(**changed: object) -> cache_module.Options:
    return dataclasses.replace(cache_module.Options(5.0, 3, True, None), **changed)


def _obligation(invariant: str = "end.cards-conserved") -> Obligation:
    return next(ob for ob in obligations([invariant]))


def _files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


# ---- the key ------------------------------------------------------------------------------


def test_the_key_is_stable_and_changes_with_each_input(monkeypatch: pytest.MonkeyPatch) -> None:
    rules, ob, options = official(), _obligation(), _options()
    first = key(rules, ob, options)
    assert first == key(official(), _obligation(), _options())  # computed again: the same
    assert len(first) == 64 and int(first, 16) >= 0
    # Where the rules came from is not their content.
    assert key(dataclasses.replace(rules, source="elsewhere.toml"), ob, options) == first

    clause = rules.on(ob.event)[0]
    edited = rules.replace(dataclasses.replace(clause, summary=clause.summary + " Edited."))
    other = _obligation("end.cards-conserved")
    redefined = dataclasses.replace(other, invariant=dataclasses.replace(
        other.invariant, term=lang.and_(other.invariant.term, other.invariant.term)))
    changed = {
        "a clause edited": key(edited, ob, options),
        "a clause removed": key(rules.remove(clause.name), ob, options),
        "another invariant": key(rules, _obligation("restart.nothing-else"), options),
        "the invariant redefined": key(rules, redefined, options),
        "the timeout": key(rules, ob, _options(timeout=10.0)),
        "the bound": key(rules, ob, _options(bound=4)),
        "minimising": key(rules, ob, _options(minimise=False)),
        "a second solver": key(rules, ob, _options(confirm="cvc5")),
    }
    with monkeypatch.context() as patch:
        patch.setattr(cache_module.z3, "get_full_version", lambda: "0.0.0.0")
        changed["z3's version"] = key(rules, ob, options)
    with monkeypatch.context() as patch:
        patch.setattr(cache_module, "prover_digest", lambda: "0" * 64)
        changed["the prover's code"] = key(rules, ob, options)
    with monkeypatch.context() as patch:
        with_cvc5 = key(rules, ob, _options(confirm="cvc5"))
        patch.setattr(cache_module.metadata, "version", lambda name: "0.0.0")
        changed["cvc5's version"] = key(rules, ob, _options(confirm="cvc5"))
        assert changed["cvc5's version"] != with_cvc5
    with monkeypatch.context() as patch:
        patch.setattr(cache_module, "FORMAT", cache_module.FORMAT + 1)
        changed["the format"] = key(rules, ob, options)
    same = [what for what, other_key in changed.items() if other_key == first]
    assert same == [], f"the key does not change with {same}"
    assert len(set(changed.values())) == len(changed)


def test_the_prover_digest_reads_the_installed_code(monkeypatch: pytest.MonkeyPatch) -> None:
    digest = cache_module.read_prover()
    assert len(digest) == 64
    names = [name for package in cache_module.PROVER_PACKAGES for name, _ in
             cache_module._files(cache_module.resources.files(package), package)]
    assert "shahrazad.proofs/verdicts/prove.py" in names and "shahrazad.model/rulebook.toml" in names
    assert "shahrazad.invariants/catalog.py" in names
    assert not any("__pycache__" in name for name in names)
    monkeypatch.setattr(cache_module, "PROVER_SUFFIXES", (".py",))
    assert cache_module.read_prover() != digest  # the official rulebook counts


def test_keys_of_a_run_are_those_of_key(tmp_path: Path) -> None:
    obs = [_obligation(i) for i in ONLY]
    assert ResultCache(tmp_path).keys(official(), obs, _options()) == \
        [key(official(), ob, _options()) for ob in obs]


# ---- files --------------------------------------------------------------------------------


def _proof(ob: Obligation, **more: object) -> Result:
    return Result(ob, Status.PROVED, 1.5, solving=1.0, encoding=0.25, reason="why",
                  notes=["a note"], **more)


def test_a_kept_proof_comes_back_marked_and_without_times(tmp_path: Path) -> None:
    store = ResultCache(tmp_path)
    ob = _obligation()
    name = store.keys(official(), [ob], _options())[0]
    assert store.load(name, ob) is None
    confirmed = Confirmation("cvc5", "unsat", 2.0, 3)
    assert store.store(name, _proof(ob, bound=8, confirmation=confirmed))
    back = store.load(name, ob)
    assert back is not None and back.cached and back.status == Status.PROVED
    assert (back.bound, back.reason, back.notes) == (8, "why", ["a note"])
    assert (back.seconds, back.solving, back.encoding) == (0.0, 0.0, 0.0)
    assert back.confirmation is not None and back.confirmation.confirmed
    assert back.confirmation.seconds == 0.0 and back.confirmation.queries == 3
    data = json.loads(store.path(name).read_text())
    assert data["result"]["seconds"] == 1.5  # the cold run's time stays in the file
    assert data["inputs"]["invariant"] == ob.invariant.id
    # Kept for one obligation, it answers no other.
    assert store.load(name, _obligation("restart.nothing-else")) is None
    assert (tmp_path / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172")
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize("status", [Status.REFUTED, Status.UNKNOWN, Status.FAULT])
def test_only_proofs_are_kept(tmp_path: Path, status: Status) -> None:
    store = ResultCache(tmp_path)
    ob = _obligation()
    name = store.keys(official(), [ob], _options())[0]
    assert not store.store(name, Result(ob, status, 1.0))
    assert _files(tmp_path) == []


CORRUPT: dict[str, str | Callable[[dict[str, Any]], Any]] = {
    "empty": "",
    "truncated": '{"format": 1, "key": ',
    "not an object": "[1, 2]",
    "not utf-8": b"\xff\xfe{".decode("latin-1"),
    "another format": lambda d: {**d, "format": 0},
    "another key": lambda d: {**d, "key": "0" * 64},
    "not a proof": lambda d: {**d, "result": {**d["result"], "status": "refuted"}},
    "a bound that is no number": lambda d: {**d, "result": {**d["result"], "bound": "3"}},
    "no notes": lambda d: {**d, "result": {k: v for k, v in d["result"].items() if k != "notes"}},
    "an unconfirmed confirmation": lambda d: {**d, "result": {**d["result"], "confirmation": {
        "solver": "cvc5", "answer": "unknown", "seconds": 1, "queries": 1, "reason": "gave up"}}},
}


@pytest.mark.parametrize("how", sorted(CORRUPT))
def test_a_file_that_is_not_a_proof_is_a_miss(tmp_path: Path, how: str) -> None:
    store = ResultCache(tmp_path)
    ob = _obligation()
    name = store.keys(official(), [ob], _options())[0]
    assert store.store(name, _proof(ob))
    spoil = CORRUPT[how]
    if isinstance(spoil, str):
        store.path(name).write_bytes(spoil.encode("latin-1"))
    else:
        store.path(name).write_text(json.dumps(spoil(json.loads(store.path(name).read_text()))))
    assert store.load(name, ob) is None
    assert store.store(name, _proof(ob))  # written again, whole
    assert store.load(name, ob) is not None


def test_a_folder_where_the_file_should_be_is_a_miss(tmp_path: Path) -> None:
    store = ResultCache(tmp_path)
    ob = _obligation()
    name = store.keys(official(), [ob], _options())[0]
    store.path(name).mkdir()
    assert store.load(name, ob) is None
    assert not store.store(name, _proof(ob))  # cannot be written there: no error either


def test_a_folder_that_cannot_hold_the_cache(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    for bad in (tmp_path / "file", tmp_path / "file" / "below"):
        with pytest.raises(cache_module.CacheError):
            ResultCache(bad)
    ResultCache(tmp_path / "made" / "with" / "parents")
    assert (tmp_path / "made" / "with" / "parents").is_dir()


# ---- runs ---------------------------------------------------------------------------------


def _answers(results: list[Result]) -> list[tuple[str, Status, int | None, str]]:
    return [(r.obligation.name, r.status, r.bound, r.reason) for r in results]


def test_a_warm_run_answers_from_the_cache_as_the_cold_run_did(tmp_path: Path) -> None:
    cold = verify(official(), only=ONLY, cache=ResultCache(tmp_path))
    assert [r.status for r in cold] == [Status.PROVED] * len(cold) and len(cold) >= 3
    assert not any(r.cached for r in cold)
    assert len(_files(tmp_path)) == len(cold)
    warm = verify(official(), only=ONLY, cache=ResultCache(tmp_path))
    assert _answers(warm) == _answers(cold)
    assert all(r.cached and r.seconds == r.solving == r.encoding == 0.0 for r in warm)
    # Other options: other keys, a cold run again.
    other = verify(official(), only=ONLY, timeout=6.0, cache=ResultCache(tmp_path))
    assert not any(r.cached for r in other) and _answers(other) == _answers(cold)
    assert len(_files(tmp_path)) == 2 * len(cold)

    # The reports tell a warm run apart.
    text = verify_text(warm, "official", [], 0.1)
    assert f"; {len(warm)} from the cache (" in text.splitlines()[-1]
    assert "(from the cache)" in text and "from the cache" not in verify_text(cold, "official", [])
    assert "| from the cache |" in verify_markdown(warm, "official", [])
    assert verify_github(warm, official(), []).splitlines()[-1].endswith(
        f"; {len(warm)} from the cache")
    document = verify_json(warm, "official", [], 0.1)
    assert document["time"]["from-cache"] == len(warm)
    assert [o["cached"] for o in document["obligations"]] == [True] * len(warm)
    assert verify_json(cold, "official", [])["time"]["from-cache"] == 0
    validator = Draft202012Validator(schemas.verify_schema())
    assert [e.message for e in validator.iter_errors(document)] == []


@pytest.mark.slow  # moved behind slow to keep the quick suite quick (issue 9)
def test_a_refutation_is_never_kept(tmp_path: Path) -> None:
    rules = load_amendment(TOKENS).apply(official())
    only = ["restart.nothing-else", "restart.players"]  # one batch: one refuted, one proved
    cold = verify(rules, only=only, events=["restart"], cache=ResultCache(tmp_path))
    status = {r.obligation.invariant.id: r.status for r in cold}
    assert status == {"restart.nothing-else": Status.REFUTED, "restart.players": Status.PROVED}
    store = ResultCache(tmp_path)
    names = dict(zip([r.obligation.invariant.id for r in cold],
                     store.keys(rules, [r.obligation for r in cold], _options()), strict=True))
    assert not store.path(names["restart.nothing-else"]).exists()
    assert [p.name for p in _files(tmp_path)] == [f"{names['restart.players']}.json"]
    # The batch holds a miss: decided whole again, as in the cold run.
    warm = verify(rules, only=only, events=["restart"], cache=store)
    assert _answers(warm) == _answers(cold) and not any(r.cached for r in warm)
    refuted = next(r for r in warm if r.status == Status.REFUTED)
    assert refuted.counterexample is not None and refuted.trace is not None


def test_a_corrupt_file_is_decided_again_and_written_again(tmp_path: Path) -> None:
    cold = verify(official(), only=ONLY, cache=ResultCache(tmp_path))
    store = ResultCache(tmp_path)
    names = store.keys(official(), [r.obligation for r in cold], _options())
    store.path(names[0]).write_text("{ not json")
    warm = verify(official(), only=ONLY, cache=store)
    assert _answers(warm) == _answers(cold)
    assert [r.cached for r in warm] == [False] + [True] * (len(warm) - 1)
    assert store.load(names[0], cold[0].obligation) is not None


def test_nothing_is_kept_when_the_code_changed_during_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache_module, "prover_changed", lambda: True)
    verify(official(), only=ONLY[:1], cache=ResultCache(tmp_path))
    assert _files(tmp_path) == []


# ---- the command line ---------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_cache_option_and_variable(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache"
    args = ["verify", "--only", ONLY[0], "--jobs", "1"]
    code, out, err = _run(capsys, *args, "--cache", str(folder))
    assert code == 0, err
    assert "from the cache" not in out and len(_files(folder)) == 1
    code, out, err = _run(capsys, *args, "--cache", str(folder))
    assert code == 0, err
    assert "(from the cache)" in out
    assert out.splitlines()[-1].startswith("1 obligations: 1 proved; 1 from the cache (")
    monkeypatch.setenv("SHAHRAZAD_CACHE", str(folder))
    code, out, err = _run(capsys, *args, "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    assert document["time"]["from-cache"] == 1 and document["obligations"][0]["cached"]
    code, out, err = _run(capsys, *args, "--no-cache")
    assert code == 0, err
    assert "from the cache" not in out
    monkeypatch.setenv("SHAHRAZAD_CACHE", "")
    code, out, err = _run(capsys, *args)
    assert code == 0 and "from the cache" not in out


@pytest.mark.parametrize("where", ["file", "below a file"])
def test_a_bad_cache_folder_is_one_line_and_exit_2(tmp_path: Path, where: str,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("")
    bad = str(tmp_path / "file" if where == "file" else tmp_path / "file" / "below")
    for command in (["verify", "--only", ONLY[0]], ["amend", str(TOKENS)]):
        code, out, err = _run(capsys, *command, "--cache", bad)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and err.startswith("shahrazad: ") and "--cache" in err
        assert bad in err
    monkeypatch.setenv("SHAHRAZAD_CACHE", bad)
    code, out, err = _run(capsys, "verify", "--only", ONLY[0])
    assert code == 2 and err.count("\n") == 1 and "SHAHRAZAD_CACHE" in err
    code, out, err = _run(capsys, "verify", "--only", ONLY[0], "--jobs", "1", "--no-cache")
    assert code == 0, err


@pytest.mark.slow  # two rulebooks decided twice: about 8 s
def test_amend_keeps_the_proofs_of_both_rulebooks(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    args = ["amend", str(TOKENS), "--only", "restart.nothing-else", "--only", "restart.players",
            "--jobs", "1", "--cache", str(tmp_path)]
    cold = _run(capsys, *args)
    assert cold[0] == 1, cold[2]
    kept = [json.loads(p.read_text())["inputs"] for p in _files(tmp_path)]
    rulebooks = {cache_module.rulebook_digest(official()),
                 cache_module.rulebook_digest(load_amendment(TOKENS).apply(official()))}
    # Proved under the official rules: both; under the amended ones: restart.players.
    assert sorted((k["rulebook"], k["invariant"]) for k in kept) == sorted(
        [(cache_module.rulebook_digest(official()), "restart.nothing-else"),
         (cache_module.rulebook_digest(official()), "restart.players"),
         (cache_module.rulebook_digest(load_amendment(TOKENS).apply(official())),
          "restart.players")])
    assert {k["rulebook"] for k in kept} == rulebooks
    assert _run(capsys, *args) == cold  # warm, the same report


def test_the_rulebook_is_read_as_json_data() -> None:
    """The key reads the rulebook's data form, which must be JSON all the way down (a value
    JSON cannot hold would stop every cached run)."""
    data = official().as_data()
    assert json.loads(cache_module.canonical(data)) == data
