"""The engine authors' kit: legal situations with the outcomes the rules allow, as JSON for
engines in any language (`shahrazad generate`), and a check of an engine's recorded trace
against those outcomes (`shahrazad conform`). `docs/engines.md` works through both.

**Generated cases.** `generate_cases` draws legal situations and events with the
Hypothesis strategies of `shahrazad.model.strategies`, keeps those whose event the rules
allow and whose random choices can be enumerated, and gives each with every outcome the
rules allow (`shahrazad.model.outcomes.allowed_outcomes`). The draws are made by
Hypothesis' engine seeded with the seed (`@seed`), with no example database, no shrinking
and nothing that depends on time, so the same seed gives the same cases, byte for byte, in
every process (the integers the strategies draw all lie within -99..99, where Hypothesis
mixes in no constants of the source code it finds loaded). A different Hypothesis version may
draw differently.

**Recorded traces.** A trace is a scenario file (TOML or JSON, `docs/scenario-format.md`)
whose events an engine ran, with one more top-level key, `after`: a list of tables, one per
event, each the engine's situation after that event in the scenario format (`players`,
`game`, `card`, ...), or `{ refused = "why" }` when the engine refused the event. `schema`,
if given, is `shahrazad.trace/1`. `conform` checks each event, from the scenario's
situation, then from the engine's own situation after the event before it.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import click

from shahrazad import options
from shahrazad.model.errors import IllegalEvent, InputError
from shahrazad.model.events import Event
from shahrazad.model.inputs import STDIN, file_name, parse_json, parse_toml, read_text
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.scenario import Scenario, read_scenario_data, scenario_data, situation_data
from shahrazad.model.state import Situation

__all__ = [
    "COMMANDS",
    "GENERATED_SCHEMA",
    "TRACE_SCHEMA",
    "Trace",
    "dump_trace",
    "generate_cases",
    "load_trace",
    "parse_trace",
    "record_trace",
]

GENERATED_SCHEMA: Final = "shahrazad.generated/1"
TRACE_SCHEMA: Final = "shahrazad.trace/1"
CONFORM_SCHEMA: Final = "shahrazad.conform/1"
EXIT_DIVERGES: Final = 1

Step = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]
"""An engine's step function on scenario data: (situation, event) -> situation after it."""


# ---- generated cases ------------------------------------------------------------------------


def generate_cases(count: int, seed: int, rulebook: Rulebook, *, max_cards: int = 6,
                   max_players: int = 3, max_depth: int = 2, max_branches: int = 1000,
                   source: str = "official",
                   amendments: Iterable[str] = ()) -> tuple[list[dict[str, Any]], Counter[str]]:
    """Up to `count` generated cases (`docs/engines.md`: the generated format) for `seed`,
    and how many drawn cases were left out and why ("refused": the rules refuse the event;
    "branches": more than `max_branches` branches of random choices; "duplicate": a case
    drawn twice is written once).

    Every situation is legal (`shahrazad.invariants.structure.problems` finds nothing: the
    strategies make only such, and each is checked again), every event one the rules allow.
    """
    from hypothesis import HealthCheck, Phase, Verbosity, given, reject, settings
    from hypothesis import seed as seeded
    from hypothesis import strategies as st

    from shahrazad.invariants.structure import problems
    from shahrazad.model.outcomes import TooManyOutcomes, allowed_outcomes
    from shahrazad.model.strategies import events, scenario_tables

    cases: list[dict[str, Any]] = []
    skipped: Counter[str] = Counter()
    amended = list(amendments)
    written: set[str] = set()

    @settings(max_examples=count, database=None, deadline=None, derandomize=False,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck),
              verbosity=Verbosity.quiet, report_multiple_bugs=False, print_blob=False,
              backend="hypothesis")
    @seeded(seed)
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        tables = data.draw(scenario_tables(max_players, max_cards, max_depth))
        situation = _situation(tables)
        if problems(situation):  # never, by construction; checked all the same
            skipped["illegal"] += 1
            reject()
        event = data.draw(events(situation))
        try:
            outcomes = allowed_outcomes(situation, event, rulebook, limit=max_branches)
        except IllegalEvent:
            skipped["refused"] += 1
            reject()
        except TooManyOutcomes:
            skipped["branches"] += 1
            reject()
        case = {"schema": GENERATED_SCHEMA, "rulebook": source, "amendments": amended,
                "situation": situation_data(situation), "event": event.as_data(),
                "outcomes": outcomes.data(), "branches": outcomes.branches,
                "shuffled": sorted(outcomes.shuffled)}
        key = json.dumps([case["situation"], case["event"]], sort_keys=True)
        if key in written:  # two draws may make the same case: it is written once
            skipped["duplicate"] += 1
            reject()
        written.add(key)
        cases.append(case)

    from hypothesis.errors import Unsatisfiable

    try:
        draw()
    except Unsatisfiable:
        pass
    return cases, skipped


def _situation(tables: dict[str, Any]) -> Situation:
    return read_scenario_data(tables, file="<generated>", fmt="json").situation


def write_cases(cases: list[dict[str, Any]], out: Path) -> list[Path]:
    """Each case as `out/situation-NNNN.json` (numbered from 1); the paths written."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(f"cannot make the folder: {err.strerror}", file=str(out)) from None
    paths = []
    for number, case in enumerate(cases, start=1):
        path = out / f"situation-{number:04d}.json"
        try:
            path.write_text(json.dumps(case, indent=2, ensure_ascii=False) + "\n",
                            encoding="utf-8")
        except OSError as err:
            raise InputError(f"cannot write: {err.strerror}", file=str(path)) from None
        paths.append(path)
    return paths


# ---- recorded traces ------------------------------------------------------------------------


@dataclass
class Trace:
    """A recorded trace: the scenario the engine ran, and the engine's situation after
    each event (None where it refused the event, with its reason in `refusals`)."""

    scenario: Scenario
    after: list[Situation | None]
    refusals: list[str | None]
    lines: list[int | None]
    file: str


_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\"-]+)\s*\]\]?\s*(#.*)?$")


def _after_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """The 0-based line ranges [start, end) of the `[[after]]` tables of a TOML trace."""
    blocks: list[tuple[int, int]] = []
    start: int | None = None
    for number, line in enumerate(lines):
        header = _HEADER.match(line)
        if header is None:
            continue
        name = header.group(1).replace('"', "")
        if line.strip().startswith("[[") and name == "after":
            if start is not None:
                blocks.append((start, number))
            start = number
        elif start is not None and not name.startswith("after."):
            blocks.append((start, number))
            start = None
    if start is not None:
        blocks.append((start, len(lines)))
    return blocks


def _json_after_blocks(text: str) -> list[tuple[int, int]]:
    """The 0-based line ranges [start, end) of the elements of the top-level `after` array
    of a JSON trace (a scan that follows strings and brackets; the text is valid JSON)."""
    blocks: list[tuple[int, int]] = []
    depth, line, index = 0, 0, 0
    last: str | None = None  # the last string read at depth 1: a key, if ':' follows
    in_after, start = False, 0
    while index < len(text):
        char = text[index]
        if char == "\n":
            line += 1
        elif char == '"':
            end = index + 1
            while text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            if depth == 1:
                last = text[index + 1:end]
            index = end
        elif char in "[{":
            depth += 1
            if depth == 2 and char == "[" and last == "after":
                in_after = True
            elif depth == 3 and in_after:
                start = line
        elif char in "]}":
            if depth == 3 and in_after:
                blocks.append((start, line + 1))
            elif depth == 2:
                in_after = False
            depth -= 1
        elif char == "," and depth == 1:
            last = None
        index += 1
    return blocks


def _keep(lines: list[str], ranges: Iterable[tuple[int, int]], *, inside: bool) -> str:
    """The text with the lines inside (or outside) `ranges` kept and the others blanked,
    so that line numbers stay those of the file."""
    marked = [False] * len(lines)
    for start, end in ranges:
        for n in range(start, end):
            marked[n] = True
    return "\n".join(line if marked[n] == inside else "" for n, line in enumerate(lines))


def parse_trace(text: str, *, file: str, fmt: str | None = None) -> Trace:
    """Read a recorded trace (see the module's docstring); every fault is an InputError
    naming the file and the line."""
    from shahrazad.invariants.structure import problems

    is_json = (fmt or Path(file).suffix.lstrip(".").lower()) == "json"
    kind = "json" if is_json else "toml"
    data = parse_json(text, file=file) if is_json else parse_toml(text, file=file)
    if not isinstance(data, dict):
        raise InputError("a trace is a table (a JSON object)", file=file, line=1)
    lines = text.splitlines()
    if data.get("schema", TRACE_SCHEMA) != TRACE_SCHEMA:
        raise InputError(f"schema {data['schema']!r} is not {TRACE_SCHEMA!r}", file=file,
                         line=_key_line(lines, "schema"))
    after = data.get("after")
    after_line = _key_line(lines, "after")
    if not isinstance(after, list) or not all(isinstance(a, dict) for a in after):
        raise InputError("a trace needs `after`, a list of tables: the engine's situation after "
                         "each event ([[after]] in TOML)" + ("" if after_line else "; none found"),
                         file=file, line=after_line or max(1, len(lines)))
    blocks = _json_after_blocks(text) if is_json else _after_blocks(lines)
    if len(blocks) != len(after):  # `after` written otherwise: no line is known inside
        blocks = [(len(lines), len(lines))] * len(after)
    main = {k: v for k, v in data.items() if k not in ("after", "schema")}
    scenario = read_scenario_data(main, file=file, text=_keep(lines, blocks, inside=False),
                                  fmt=kind, check=problems)
    events = scenario.events
    if len(after) != len(events):
        line = (events[len(after)].line if len(after) < len(events)
                else _block_line(blocks, len(events), after_line))
        raise InputError(f"the trace has {len(events)} event(s) and {len(after)} `after` "
                         "situation(s): one after each event", file=file, line=line)
    situations: list[Situation | None] = []
    refusals: list[str | None] = []
    block_lines: list[int | None] = []
    for number, (table, block) in enumerate(zip(after, blocks, strict=True), start=1):
        line = _block_line(blocks, number - 1, after_line)
        block_lines.append(line)
        if "refused" in table:
            reason = table["refused"]
            if set(table) != {"refused"} or not isinstance(reason, (str, bool)) or reason is False:
                raise InputError(f"after {number}: a refusal is `refused = \"why\"` (or true) "
                                 "and nothing else", file=file, line=line)
            situations.append(None)
            refusals.append(reason if isinstance(reason, str) else None)
            continue
        try:
            read = read_scenario_data(table, file=file, text=_keep(lines, [block], inside=True),
                                      fmt=kind)
        except InputError as err:
            raise InputError(f"after {number} (the engine's situation after event {number}): "
                             f"{err.message}", file=file, line=err.line or line) from None
        if read.events:
            raise InputError(f"after {number}: a situation after an event has no events of "
                             "its own", file=file, line=line)
        situations.append(read.situation)
        refusals.append(None)
    return Trace(scenario, situations, refusals, block_lines, file)


def _key_line(lines: list[str], key: str) -> int | None:
    pattern = re.compile(rf'^\s*"?{re.escape(key)}"?\s*[=:]|^\s*\[\[\s*{re.escape(key)}\s*\]\]')
    for number, line in enumerate(lines, start=1):
        if pattern.match(line):
            return number
    return None


def _block_line(blocks: list[tuple[int, int]], index: int, fallback: int | None) -> int | None:
    if index < len(blocks) and blocks[index][0] < blocks[index][1]:
        return blocks[index][0] + 1
    return fallback


def load_trace(path: str | Path) -> Trace:
    """Read the trace file at `path` (TOML, or JSON by its suffix; `-` is standard input,
    JSON when it starts with `{`)."""
    text = read_text(path)
    fmt = ("json" if text.lstrip().startswith("{") else "toml") if str(path) == STDIN else None
    return parse_trace(text, file=file_name(path), fmt=fmt)


def dump_trace(scenario: Scenario, after: Iterable[Situation | str | None],
               fmt: str = "toml") -> str:
    """A trace as TOML or JSON text, readable by `parse_trace`: the scenario, then the
    engine's situation after each event (a str or None: the engine refused it, why)."""
    import tomli_w

    data: dict[str, Any] = {"schema": TRACE_SCHEMA}
    data.update({k: v for k, v in scenario_data(scenario).items() if k != "schema"})
    tables: list[dict[str, Any]] = []
    for situation in after:
        if situation is None or isinstance(situation, str):
            tables.append({"refused": situation or True})
        else:
            tables.append({k: v for k, v in situation_data(situation).items() if k != "schema"})
    if fmt == "json":
        return json.dumps({**data, "after": tables}, indent=2, ensure_ascii=False) + "\n"
    # Each event an [[event]] table and each situation after it an [[after]] table, so
    # that errors and reports can name their lines; read back, it must be the same data.
    events = data.pop("event", [])
    parts = [tomli_w.dumps(data)]
    parts += ["[[event]]\n" + tomli_w.dumps(event) for event in events]
    for table in tables:
        text = tomli_w.dumps({"after": [table]})
        parts.append(text if text.startswith("[[after]]") else "[[after]]\n" + tomli_w.dumps(table))
    text = "\n".join(parts)
    whole = {**data, **({"event": events} if events else {}), "after": tables}
    if tomllib.loads(text) != whole:  # pragma: no cover - tomli_w wrote a table otherwise
        text = tomli_w.dumps(whole)
    return text


def record_trace(step: Step, scenario: Scenario, fmt: str = "toml") -> str:
    """Run an engine's step function on a scenario's events, each from the engine's own
    situation after the one before, and write what it did as a trace. An exception of the
    step function is recorded as a refusal (and the situation stays as it was)."""
    state = situation_data(scenario.situation)
    after: list[Situation | str | None] = []
    for event in scenario.events:
        try:
            state = step(state, event.as_data())
        except Exception as err:  # the engine refused the event
            after.append(f"{type(err).__name__}: {err}")
            continue
        after.append(read_scenario_data(state, file="<engine>", fmt="json").situation)
    return dump_trace(scenario, after, fmt)


# ---- conformance ----------------------------------------------------------------------------


@dataclass
class EventResult:
    """What `conform` found at one event."""

    index: int
    event: Event
    result: str  # "ok", "refused" (by both) or "diverges"
    outcomes: int
    branches: int


def conform_trace(trace: Trace, rulebook: Rulebook, *, edition: str | None = None,
                  limit: int | None = None) -> tuple[list[EventResult], Any]:
    """Check a trace event by event, up to its first divergence; the results and the
    divergence (a `shahrazad.model.outcomes.Divergence`, or None)."""
    from shahrazad.model.outcomes import DEFAULT_LIMIT, TooManyOutcomes, check_step

    results: list[EventResult] = []
    before = trace.scenario.situation
    for index, event in enumerate(trace.scenario.events, start=1):
        engine = trace.after[index - 1]
        try:
            found = check_step(before, event, engine, rulebook, index=index, edition=edition,
                               limit=limit or DEFAULT_LIMIT,
                               engine_refusal=trace.refusals[index - 1])
        except TooManyOutcomes as err:
            raise InputError(f"event {index} ({event.kind}): {err}", file=trace.file,
                             line=event.line) from None
        outcomes = found.outcomes
        allowed = len(outcomes.allowed) if outcomes else 0
        branches = outcomes.branches if outcomes else 0
        if found.divergence is not None:
            results.append(EventResult(index, event, "diverges", allowed, branches))
            return results, found.divergence
        results.append(EventResult(index, event, "ok" if engine is not None else "refused",
                                   allowed, branches))
        if engine is not None and found.matched is not None:
            # The engine's own situation goes on, with the model's counter for new names.
            before = engine.copy()
            before.serial = max(before.serial, found.matched.situation.serial)
    return results, None


# ---- the commands ---------------------------------------------------------------------------


@click.command()
@click.option("--count", type=click.IntRange(min=1), required=True,
              help="How many situations to write.")
@click.option("--seed", type=click.IntRange(min=0), required=True,
              help="The seed: the same seed writes the same files.")
@click.option("--out", "out", type=click.Path(file_okay=False), required=True,
              help="The folder to write situation-0001.json, ... into (made if need be).")
@click.option("--rulebook", "rulebook_path", type=click.Path(dir_okay=False), default=None,
              help="A rulebook TOML file instead of the official one.")
@click.option("--amendment", "amendments", type=click.Path(dir_okay=False), multiple=True,
              help="Apply this amendment file to the rulebook first (repeatable, in order).")
@click.option("--max-cards", type=click.IntRange(0, 12), default=6, show_default=True,
              help="At most this many cards in a situation (besides the subgames' creators).")
@click.option("--max-branches", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Leave out an event with more branches of random choices than this.")
def generate(count: int, seed: int, out: str, rulebook_path: str | None,
             amendments: tuple[str, ...], max_cards: int, max_branches: int) -> None:
    """Write legal situations, each with an event and every outcome the rules allow, as JSON
    for engines in any language (docs/engines.md)."""
    rulebook = options.rulebook(rulebook_path, amendments)
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise click.BadParameter(f"{out} is not a folder", param_hint="--out")
    cases, skipped = generate_cases(count, seed, rulebook, max_cards=max_cards,
                                    max_branches=max_branches,
                                    source="official" if rulebook_path is None else rulebook_path,
                                    amendments=amendments)
    paths = write_cases(cases, folder)
    left_out = ", ".join(f"{n} {why}" for why, n in sorted(skipped.items()))
    click.echo(f"Wrote {len(paths)} situation(s) to {out} (seed {seed}; rulebook "
               f"{options.rules_source(rulebook_path, amendments)}"
               + (f"; left out: {left_out}" if left_out else "") + ")")


@click.command()
@click.argument("trace", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--rulebook", "rulebook_path", type=click.Path(dir_okay=False), default=None,
              help="A rulebook TOML file instead of the official one (default: the one the "
                   "trace records, if any).")
@click.option("--amendment", "amendments", type=click.Path(dir_okay=False), multiple=True,
              help="Apply this amendment file to the rulebook first (repeatable, in order).")
@click.option("--edition", default=None, help="Cite CR numbers of this edition (YYYY-MM-DD).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
@options.OUTPUT
def conform(trace: str, rulebook_path: str | None, amendments: tuple[str, ...],
            edition: str | None, fmt: str, output: str | None) -> None:
    """Check an engine's recorded trace against the outcomes the rules allow; report the
    first divergence with its clause and CR number (exit 1), or that it conforms (exit 0)."""
    recorded = load_trace(trace)
    rulebook_path, amendments = options.scenario_rules(recorded.scenario, rulebook_path,
                                                       amendments)
    rulebook = options.rulebook(rulebook_path, amendments)
    edition = options.edition(rulebook, edition)
    results, divergence = conform_trace(recorded, rulebook, edition=edition)
    source = options.rules_source(rulebook_path, amendments)
    if fmt == "json":
        doc = {"schema": CONFORM_SCHEMA, "trace": recorded.file, "rulebook": source,
               "edition": edition, "conforms": divergence is None,
               "events": [{"event": r.index, "do": r.event.kind, "line": r.event.line,
                           "result": r.result, "outcomes": r.outcomes, "branches": r.branches}
                          for r in results],
               "divergence": divergence.as_data() if divergence is not None else None}
        options.emit(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", output)
    else:
        options.emit(_conform_text(recorded, source, edition, results, divergence), output)
    if divergence is not None:
        raise click.exceptions.Exit(EXIT_DIVERGES)


def _conform_text(recorded: Trace, source: str, edition: str, results: list[EventResult],
                  divergence: Any) -> str:
    title = f" — {recorded.scenario.title}" if recorded.scenario.title else ""
    lines = [f"Trace: {recorded.file}{title}",
             f"Rulebook: {source} (CR numbers of {edition})", ""]
    for r in results:
        at = f" (line {r.event.line})" if r.event.line else ""
        head = f"Event {r.index}{at}: {r.event.describe()}"
        if r.result == "ok":
            allowed = "the one outcome" if r.outcomes == 1 else \
                f"one of the {r.outcomes} outcomes"
            lines.append(f"{head}: ok, {allowed} the rules allow")
        elif r.result == "refused":
            lines.append(f"{head}: ok, refused by the rules and by the engine")
        else:
            lines.append(f"{head}: DIVERGES")
            lines.append(f"  first difference: {divergence.subject}")
            lines += ["  " + line for line in divergence.describe().splitlines()[1:]]
    total = len(recorded.scenario.events)
    lines.append("")
    if divergence is None:
        lines.append(f"The engine conforms: {total} event(s), each an outcome the rules allow.")
    else:
        if divergence.event < total:
            lines.append(f"Events {divergence.event + 1} to {total} not checked.")
        lines.append(f"The engine diverges at {divergence.summary()}.")
    return "\n".join(lines) + "\n"


COMMANDS: list[click.Command] = [generate, conform]
