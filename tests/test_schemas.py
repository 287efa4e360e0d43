"""The JSON Schemas of the scenario, simulate and verify documents (`shahrazad.schemas`).

The copies shipped in the package and published in docs/ are what the code builds now;
each is a valid draft 2020-12 schema; real documents validate: every example scenario,
generated scenarios, `simulate` and `verify` output (the output with the schema closed, so
that a key the writers add and the schema does not declare is caught here); and the
scenario schema refuses what the reader refuses for a structural reason, and only that.
"""

from __future__ import annotations

import copy
import json
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from jsonschema import Draft202012Validator
from shahrazad.model.amendment import load_amendment
from shahrazad.model.errors import InputError
from shahrazad.model.events import EVENT_ARGS
from shahrazad.model.rulebook import official
from shahrazad.model.scenario import SHAPES, Scenario, load_scenario, parse_scenario, scenario_data
from shahrazad.model.strategies import scenario_tables, scenarios
from shahrazad.proofs.analyses.semantic import changed_events, event_difference

from shahrazad import schemas
from shahrazad.cli import main
from shahrazad.report.semantic import diff_json

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"package": ROOT / "src" / "shahrazad" / "schemas", "docs": ROOT / "docs" / "schemas"}
REGENERATE = "python -m shahrazad.schemas src/shahrazad/schemas docs/schemas"
EXAMPLES = ROOT / "examples"
REGRESSIONS = ROOT / "tests" / "regressions"


def _data(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else tomllib.loads(text)


def _reader_accepts(path: Path) -> bool:
    try:
        load_scenario(path)
    except InputError:
        return False
    return True


def _closed(schema: Any) -> Any:
    """The schema with every object that declares its keys refusing any other key (the
    conditions of `if`/`then` left as they are: they declare no object)."""
    if isinstance(schema, list):
        return [_closed(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: value if key in ("if", "then") else _closed(value) for key, value in schema.items()}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


@cache
def _validator(name: str, closed: bool = False) -> Draft202012Validator:
    schema = schemas.SCHEMAS[f"{name}.schema.json"]()
    return Draft202012Validator(_closed(schema) if closed else schema)


def _errors(name: str, document: Any, closed: bool = False) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:300]}"
            for e in _validator(name, closed).iter_errors(document)]


# ---- the files ----------------------------------------------------------------------------


@pytest.mark.parametrize("where", sorted(FOLDERS))
def test_files_are_what_the_code_builds(where: str) -> None:
    folder = FOLDERS[where]
    stale = [name for name, build in schemas.SCHEMAS.items()
             if not (folder / name).exists()
             or (folder / name).read_text(encoding="utf-8") != schemas.render(build())]
    extra = sorted(p.name for p in folder.glob("*.json") if p.name not in schemas.SCHEMAS)
    assert not stale and not extra, (
        f"{folder.relative_to(ROOT)}: {', '.join(stale + extra)} differ from what "
        f"shahrazad.schemas builds; regenerate them with `{REGENERATE}`")


def test_the_package_ships_them() -> None:
    shipped = resources.files("shahrazad") / "schemas"
    for name, build in schemas.SCHEMAS.items():
        assert (shipped / name).read_text(encoding="utf-8") == schemas.render(build()), (
            f"the installed package's schemas/{name} is not what shahrazad.schemas builds")


@pytest.mark.parametrize("name", sorted(schemas.SCHEMAS))
def test_each_is_a_valid_draft_2020_12_schema(name: str) -> None:
    schema = schemas.SCHEMAS[name]()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    version = schema["properties"]["schema"]["const"]
    assert schema["$id"].endswith(version.removeprefix("shahrazad.").replace("/", "-") + ".json")


def test_every_property_is_described() -> None:
    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            for key, value in node.get("properties", {}).items():
                assert isinstance(value, dict) and value.get("description"), f"{where}/{key}"
            for key, value in node.items():
                if key not in ("if", "then"):  # conditions, not declarations
                    walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    for name, build in schemas.SCHEMAS.items():
        walk(build(), name)


def test_the_schema_follows_the_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new event or key in the code is a new branch or property of the schema; a key the
    code has and no words describe stops the build, saying where to describe it."""
    monkeypatch.setitem(EVENT_ARGS, "shuffle", (("zone", "str", True),))
    monkeypatch.setitem(schemas.EVENT_WORDS, "shuffle", "A zone is shuffled.")
    monkeypatch.setitem(schemas.ARGUMENT_WORDS, "shuffle", {"zone": "The zone."})
    built = schemas.scenario_schema()
    assert {"$ref": "#/$defs/event.shuffle"} in built["$defs"]["event"]["oneOf"]
    assert built["$defs"]["event.shuffle"]["required"] == ["do", "zone"]
    monkeypatch.setitem(SHAPES["card"], "foil", "true or false")
    with pytest.raises(LookupError, match="foil"):
        schemas.scenario_schema()


def test_main_writes_every_schema(tmp_path: Path) -> None:
    assert schemas.main([str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    for folder in ("a", "b"):
        assert sorted(p.name for p in (tmp_path / folder).iterdir()) == sorted(schemas.SCHEMAS)
    assert schemas.main([]) == 2


# ---- scenarios ----------------------------------------------------------------------------

CANDIDATES = sorted([*EXAMPLES.glob("*.toml"), *(EXAMPLES / "findings").glob("*.toml"),
                     *(EXAMPLES / "history" / "counterexamples").glob("*.toml"),
                     *REGRESSIONS.glob("*.toml"), *REGRESSIONS.glob("*.json")])
SCENARIO_FILES = [p for p in CANDIDATES if _reader_accepts(p)]
# Files the reader refuses for a structural reason (unknown keys, a value of the wrong kind).
REFUSED_FILES = sorted([
    *(REGRESSIONS / name for name in ("r1-card-not-a-list.toml", "r2-parent-is-a-list.toml",
                                      "r5-affected-by-not-a-list.json",
                                      "r6-player-counter-game-list.toml",
                                      "s6-negative-range-restart.toml")),
    *REGRESSIONS.glob("*.amendment.toml"), *(EXAMPLES / "amendments").glob("*.toml"),
    *(EXAMPLES / "history").glob("*.toml"), *(EXAMPLES / "unseen").glob("*.toml")])


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=_rel)
def test_scenario_files_validate(path: Path) -> None:
    assert len(SCENARIO_FILES) > 150
    assert not _errors("scenario", _data(path))


@pytest.mark.parametrize("path", REFUSED_FILES, ids=_rel)
def test_what_the_reader_refuses_the_schema_refuses(path: Path) -> None:
    assert not _reader_accepts(path)
    assert _errors("scenario", _data(path))


@settings(max_examples=50, deadline=None)
@given(scenario_tables())
def test_generated_situations_validate(data: dict[str, Any]) -> None:
    assert not _errors("scenario", data)


@settings(max_examples=25, deadline=None)
@given(scenarios(max_cards=6))
def test_generated_scenarios_with_events_validate(scenario: Scenario) -> None:
    assert not _errors("scenario", json.loads(json.dumps(scenario_data(scenario))))


# One scenario with every table, each holding only the keys the reader requires.
MINIMAL: dict[str, Any] = {
    "players": ["Ann", "Bob"],
    "game": [{"id": "main", "trigger": [{"id": "t1", "source": "c1", "card": "c1",
                                         "left": "main/battlefield"}]}],
    "card": [{"id": "c1", "owner": "Ann", "at": "main/battlefield"}],
    "object": [{"id": "o1", "kind": "token", "controller": "Ann", "at": "main/battlefield"}],
    "player-counter": [{"game": "main", "player": "Ann", "kind": "poison", "count": 1}],
    "ended": [{"id": "old", "result": "draw"}],
    "player-effect": [{"player": "Ann", "effect": "e1"}],
    "event": [{"do": "restart", "controller": "Ann"}],
}


def _set(path: str, value: Any) -> Any:
    """A change of MINIMAL: `path` is `table/index/key` (or `key` at the top level);
    `value` None removes the key."""
    def change(data: dict[str, Any]) -> None:
        *outer, last = path.split("/")
        node: Any = data
        for step in outer:
            node = node[int(step)] if step.isdigit() else node[step]
        if value is None:
            del node[last]
        else:
            node[last] = value
    return change


# (change, whether the reader accepts the result); the schema must give the same answer.
CHANGES: dict[str, tuple[Any, bool]] = {
    "as it is": (lambda d: None, True),
    **{f"without {table} {key}": (_set(f"{table}/0/{key}" if table != "top" else key, None), False)
       for table, keys in {**schemas.REQUIRED, "object": ("id", "kind", "at", "controller"),
                           "top": ("players", "game")}.items()
       if table != "trigger" for key in keys},
    **{f"without trigger {key}": (_set(f"game/0/trigger/0/{key}", None), False)
       for key in schemas.REQUIRED["trigger"]},
    "object with an owner and no controller": (lambda d: d["object"][0].update(
        owner=d["object"][0].pop("controller")), True),
    "restart without its controller": (_set("event/0/controller", None), False),
    "a misspelled event": (_set("event/0/do", "restrat"), False),
    "an event argument it does not have": (_set("event/0/card", "c1"), False),
    "an event argument of the wrong type": (_set("event/0/exempt", "c1"), False),
    "an empty name as an event argument": (_set("event/0/via", ""), False),
    "an unknown top-level key": (_set("breaks", ["x"]), False),
    "an unknown key in a card": (_set("card/0/colour", "red"), False),
    "an unknown key in a waiting trigger": (_set("game/0/trigger/0/when", "now"), False),
    "another version": (_set("schema", "shahrazad.scenario/2"), False),
    "this version": (_set("schema", "shahrazad.scenario/1"), True),
    "no players": (_set("players", []), False),
    "a player named twice": (_set("players", ["Ann", "Ann"]), False),
    "a player name with a space": (_set("players", ["Ann", "Bob Smith"]), False),
    "no game": (_set("game", []), False),
    "an id with a slash": (_set("card/0/id", "c/1"), False),
    "face sideways": (_set("card/0/face", "sideways"), False),
    "face down": (_set("card/0/face", "down"), True),
    "phased maybe": (_set("object/0/phased", "maybe"), False),
    "phased out": (_set("object/0/phased", "out"), True),
    "an unknown card type": (_set("card/0/type", "sticker"), False),
    "a plane in the command zone": (lambda d: d["card"][0].update(type="plane",
                                                                  at="main/command"), True),
    "a plane in a library": (lambda d: d["card"][0].update(type="plane",
                                                           at="main/library/Ann"), False),
    "a plane in its planar deck": (lambda d: d["card"][0].update(
        type="plane", at="main/deck/Ann/planar", deck="planar"), True),
    "a plane in a scheme deck": (lambda d: d["card"][0].update(
        type="plane", at="main/deck/Ann/scheme"), False),
    "a plane of the scheme deck": (lambda d: d["card"][0].update(type="plane", deck="scheme"),
                                   False),
    "a traditional card with a deck": (_set("card/0/deck", "planar"), False),
    "a traditional card in a deck": (_set("card/0/at", "main/deck/Ann/planar"), False),
    "a card outside the game": (_set("card/0/at", "outside/Ann"), True),
    "a zone that does not exist": (_set("card/0/at", "main/sideboard"), False),
    "a library without its player": (_set("card/0/at", "main/library"), False),
    "a commander": (_set("card/0/commander", True), True),
    "a vanguard commander": (lambda d: d["card"][0].update(type="vanguard", at="main/command",
                                                           commander=True), False),
    "a token on the stack": (_set("object/0/at", "main/stack"), False),
    "a token outside the game": (_set("object/0/at", "outside/Ann"), False),
    "an object of kind card": (_set("object/0/kind", "card"), False),
    "a copy on the stack": (lambda d: d["object"][0].update(kind="copy", at="main/stack"), True),
    "no counters of a kind": (_set("card/0/counters", {"+1/+1": 0}), False),
    "two counters": (_set("card/0/counters", {"+1/+1": 2}), True),
    "a counter count of 0": (_set("player-counter/0/count", 0), False),
    "a negative range of influence": (_set("game/0/range-of-influence", -1), False),
    "a range of influence of 0": (_set("game/0/range-of-influence", 0), True),
    "an unknown variant": (_set("game/0/variants", ["two-headed-giant"]), False),
    "a known variant": (_set("game/0/variants", ["commander"]), True),
    "a mark of an unknown deck": (_set("game/0/began-in-deck", {"c1": "sideboard"}), False),
    "a mark of a planar deck": (_set("game/0/began-in-deck", {"c1": "planar"}), True),
    "an unknown subgame result": (_set("game/0/subgame-results", {"s": {"kind": "lost"}}), False),
    "a subgame result with more keys": (_set("game/0/subgame-results",
                                             {"s": {"kind": "win", "winners": ["Ann"],
                                                    "note": "x"}}), True),
    "an unknown ended result": (_set("ended/0/result", "lost"), False),
    "a negative id serial": (_set("id-serial", -1), False),
    "a seed too large for 64 bits": (_set("seed", 2**63), False),
    "the largest seed": (_set("seed", 2**63 - 1), True),
    "a seed that is true": (_set("seed", True), False),
    "a rulebook": (_set("rulebook", "my-rules.toml"), True),
    "amendments": (_set("amendments", ["a.toml", "b.toml"]), True),
    "amendments as text": (_set("amendments", "a.toml"), False),
}


@pytest.mark.parametrize("case", sorted(CHANGES))
def test_the_schema_refuses_what_the_reader_refuses(case: str) -> None:
    change, accepted = CHANGES[case]
    data = copy.deepcopy(MINIMAL)
    change(data)
    try:
        parse_scenario(json.dumps(data), file="case.json")
        reader = True
    except InputError:
        reader = False
    assert reader == accepted, f"the reader {'accepts' if reader else 'refuses'} it"
    errors = _errors("scenario", data)
    assert (not errors) == accepted, errors or "the schema accepts it"


# ---- output documents ---------------------------------------------------------------------

SIMULATED = sorted([*EXAMPLES.glob("*.toml"), *(EXAMPLES / "findings").glob("*.toml")])


def _json_of(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert out, err
    return code, json.loads(out)


@pytest.mark.parametrize("path", SIMULATED, ids=_rel)
def test_simulate_output_validates(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    outcomes = ["--outcomes"] if path.stem == "subgame.start.starting-player" else []
    code, document = _json_of(capsys, "simulate", str(path), "--format", "json", *outcomes)
    assert code == 0
    assert not _errors("simulate", document, closed=True)
    assert ("outcomes" in document) == bool(outcomes)


def test_a_misspelled_simulate_document_fails(capsys: pytest.CaptureFixture[str]) -> None:
    _, document = _json_of(capsys, "simulate", str(SIMULATED[0]), "--format", "json")
    document["events"][0]["event"]["do"] = "restrat"
    assert _errors("simulate", document)


@cache
def _effect() -> dict[str, Any]:
    """`amendment-effect` as `verify` adds it: the semantic diff of an amendment that makes
    the restart keep emblems (a difference, with its situation and both outcomes)."""
    base = official()
    amended = load_amendment(EXAMPLES / "amendments" / "restart-keeps-emblems.toml").apply(base)
    return diff_json([event_difference(base, amended, event)
                      for event in changed_events(base, amended)])


@pytest.mark.parametrize("amendment", [None, "728.5c-forgotten.toml"])
def test_verify_output_validates(capsys: pytest.CaptureFixture[str], amendment: str | None) -> None:
    amend = ["--amendment", str(EXAMPLES / "amendments" / amendment)] if amendment else []
    code, document = _json_of(capsys, "verify", "--format", "json", "--jobs", "1",
                              "--only", "end.cards-conserved", *amend)
    assert code == (1 if amendment else 0)
    if amendment:
        assert any("counterexample" in o and "trace" in o for o in document["obligations"])
    else:
        document["amendment-effect"] = _effect()
        assert document["amendment-effect"]["events"][0]["status"] == "differs"
    assert not _errors("verify", document, closed=True)
    document["obligations"][0]["status"] = "proven"
    assert _errors("verify", document)
