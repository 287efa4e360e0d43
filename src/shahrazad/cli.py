"""The `shahrazad` command line.

Every user error (a malformed file, an event the situation does not allow, an unknown
option) is one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from threading import Lock
from typing import TYPE_CHECKING, Any, TypeVar

import click

from shahrazad.invariants.structure import problems
from shahrazad.model.choices import SeededChooser, enumerate_outcomes
from shahrazad.model.errors import IllegalEvent, InputError, ShahrazadError, did_you_mean
from shahrazad.model.inputs import STDIN
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.scenario import Scenario, load_scenario, situation_data

from .options import (
    AMENDMENTS,
    CACHE,
    NO_CACHE,
    OFFICIAL,
    OUTPUT,
    RULEBOOK,
)
from .options import edition as _edition
from .options import emit as _emit
from .options import load_rules as _rules
from .options import result_cache as _cache
from .options import rulebook as _rulebook
from .options import scenario_rules as _scenario_rules
from .report import simulate as report

if TYPE_CHECKING:
    from shahrazad.proofs.solving.cache import ResultCache
    from shahrazad.proofs.solving.obligations import Result

FC = TypeVar("FC", bound=Callable[..., Any] | click.Command)  # what click's decorators take

EXIT_BAD_INPUT = 2
EXIT_UNDECIDED = 3


class _Seconds(click.ParamType):  # type: ignore[type-arg]
    """A time limit: a finite number of seconds above zero (nan, inf and 0 are refused)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"{value!r} is not a finite number of seconds above 0", param, ctx)
        return seconds


SECONDS = _Seconds()


def _unknown_name(name: str, known: Any, what: str, hint: str, see: str) -> click.BadParameter:
    """A mistyped name: the error says which known name is closest ("did you mean")."""
    guess = did_you_mean(name, known) or f" (see {see})"
    return click.BadParameter(f"no {what} {name!r}{guess}", param_hint=hint)


def _check_invariants(names: tuple[str, ...]) -> None:
    from shahrazad.invariants.catalog import CATALOG

    known = {inv.id for inv in CATALOG}
    for name in names:
        if name not in known:
            raise _unknown_name(name, known, "invariant", "--only", "shahrazad invariants")


def _run(scenario: Scenario, rulebook: Rulebook, seed: int | None, edition: str | None,
         upto: int | None = None) -> tuple[Interpreter, Any]:
    interpreter = Interpreter(rulebook, SeededChooser(seed), edition)
    events = scenario.events if upto is None else scenario.events[:upto]
    state = scenario.situation.copy()
    trace = []
    for index, event in enumerate(events, start=1):
        try:
            outcome = interpreter.step(state, event, index)
        except IllegalEvent as err:
            raise InputError(f"event {index} ({event.kind}): {err}", file=scenario.file,
                             line=event.line) from None
        state = outcome.situation
        trace.extend(outcome.trace)
    return interpreter, (state, trace)


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """`--version`: this package's version, the z3 it proves with and the cvc5 that
    `--confirm cvc5` asks."""
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import version

    import z3

    from . import __version__

    click.echo(f"shahrazad, version {__version__} (z3 {z3.get_version_string()}; "
               f"cvc5 {version('cvc5')} for --confirm)")
    ctx.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_print_version, help="Show the version of shahrazad and of z3, and exit.")
def cli() -> None:
    """shahrazad: the Magic subgame (CR 728) and restart (CR 726) rules, executable."""


@cli.command()
@click.argument("scenario", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
@OUTPUT
@click.option("--seed", type=int, default=None,
              help="Seed for shuffles and random starting players (default: the scenario's, or 0).")
@RULEBOOK
@AMENDMENTS
@OFFICIAL
@click.option("--edition", default=None, help="Cite CR numbers of this edition (YYYY-MM-DD).")
@click.option("--outcomes", is_flag=True,
              help="Also count the distinct outcomes over every random choice (small scenarios).")
def simulate(scenario: str, fmt: str, output: str | None, seed: int | None,
             rulebook_path: str | None, amendments: tuple[str, ...], official: bool,
             edition: str | None, outcomes: bool) -> None:
    """Run a scenario's events and print the trace, each step citing its rule. The scenario
    runs under the rules it records (a counterexample's rulebook and amendments), unless
    --rulebook or --amendment say otherwise. SCENARIO `-` is standard input."""
    sc = load_scenario(scenario, check=problems)
    rulebook_path, amendments = _scenario_rules(sc, rulebook_path, amendments, official)
    rulebook = _rulebook(rulebook_path, amendments)
    edition = _edition(rulebook, edition)
    seed = seed if seed is not None else (sc.seed if sc.seed is not None else 0)
    _, (final, trace) = _run(sc, rulebook, seed, edition)
    source = "official" if rulebook_path is None else rulebook_path
    if amendments:
        source += " amended by " + ", ".join(amendments)
    counted = _count_outcomes(sc, rulebook, edition) if outcomes else None
    if fmt == "json":
        doc = report.simulate_json(sc.file, source, edition, seed, sc.events, trace, final)
        if counted is not None:
            doc["outcomes"] = counted
        _emit(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", output)
        return
    text = report.simulate_text(sc.file, sc.title, source, edition, seed, sc.events, trace, final)
    if counted is not None:
        text += (f"\nPossible outcomes over every random choice: {counted['distinct']} distinct "
                 f"situations from {counted['branches']} branches\n")
    _emit(text, output)


def _count_outcomes(sc: Scenario, rulebook: Rulebook, edition: str) -> dict[str, int]:
    def run(chooser: Any) -> str:
        interpreter = Interpreter(rulebook, chooser, edition)
        final = interpreter.run(sc.situation, sc.events).situation
        return json.dumps(situation_data(final), sort_keys=True)

    try:
        results = list(enumerate_outcomes(run, limit=20_000))
    except OverflowError:
        raise InputError("more than 20000 possible outcomes; --outcomes is for small scenarios",
                         file=sc.file) from None
    return {"branches": len(results), "distinct": len(set(results))}


@cli.command()
@click.argument("scenario", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--after", type=int, default=None,
              help="Draw the situation after event N (default: before any event).")
@click.option("--format", "fmt", type=click.Choice(["dot", "svg", "png"]), default="dot",
              show_default=True)
@OUTPUT
@click.option("--seed", type=int, default=None)
@RULEBOOK
@AMENDMENTS
@OFFICIAL
def graph(scenario: str, after: int | None, fmt: str, output: str | None, seed: int | None,
          rulebook_path: str | None, amendments: tuple[str, ...], official: bool) -> None:
    """Draw the game tree, its zones and where each card is (after event N under the rules
    the scenario records, unless --rulebook or --amendment say otherwise)."""
    from shahrazad.model.graph import render, to_dot

    sc = load_scenario(scenario, check=problems)
    rulebook = _rulebook(*_scenario_rules(sc, rulebook_path, amendments, official))
    if after is not None and not 0 <= after <= len(sc.events):
        raise click.BadParameter(f"the scenario has {len(sc.events)} events", param_hint="--after")
    seed = seed if seed is not None else (sc.seed if sc.seed is not None else 0)
    _, (state, _) = _run(sc, rulebook, seed, None, upto=after or 0)
    title = f"{Path(sc.file).name}: " + (f"after event {after}" if after else "before any event")
    try:
        data = render(to_dot(state, title), fmt)
    except RuntimeError as err:
        raise InputError(str(err)) from None
    if output and output != "-":
        try:
            Path(output).write_bytes(data)
        except OSError as err:
            raise InputError(f"cannot write: {err.strerror}", file=output) from None
    else:
        sys.stdout.buffer.write(data)


REPORTS = ("text", "json", "junit", "sarif", "markdown", "github")


def _report_file(flag: str, dest: str, help: str) -> Callable[[FC], FC]:
    return click.option(flag, dest, type=click.Path(dir_okay=False, allow_dash=True), default=None,
                        help=f"Also write {help} to this file (`-`: standard output).")


@cli.command()
@RULEBOOK
@AMENDMENTS
@click.option("--format", "fmt", type=click.Choice(REPORTS), default="text", show_default=True,
              help="The report on standard output (or -o): github is workflow annotations "
              "(::error file=...,line=...::) for GitHub Actions.")
@OUTPUT
@_report_file("--json", "json_file", "the JSON document (shahrazad.verify/1)")
@_report_file("--junit-xml", "junit_file", "the JUnit XML report")
@_report_file("--sarif", "sarif_file", "the SARIF 2.1.0 report")
@_report_file("--markdown", "markdown_file", "the Markdown report")
@click.option("--only", "only", multiple=True, help="Only this invariant id (repeatable).")
@click.option("--timeout", type=SECONDS, default=5.0, show_default=True,
              help="Seconds per solver call before an obligation is unknown.")
@click.option("--bound", type=click.IntRange(min=1), default=3, show_default=True,
              help="Objects, players and games in the finite universes of bounded checks; "
              "an invariant that counts cards is checked up to at least one more than the "
              "rules' own numbers (8 for the seven-card rules).")
@click.option("--no-minimise", is_flag=True, help="Show counterexamples as found.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Processes to prove in (default: one per core).")
@click.option("--explain-dir", type=click.Path(file_okay=False), default=None,
              help="Write each counterexample there: its scenario (.toml, recording the "
                   "rulebook and amendments, so that `simulate` replays it under them) and "
                   "pictures of the situation before and after (.dot, and .svg with Graphviz).")
@click.option("--confirm", type=click.Choice(["cvc5"]), default=None,  # proofs.solving.confirm.SOLVERS
              help="Decide each of z3's proofs again with this second solver: proved only "
              "when both find it unsatisfiable; unknown when the second gives up; a fault "
              "when they disagree.")
@CACHE
@NO_CACHE
def verify(rulebook_path: str | None, amendments: tuple[str, ...], fmt: str,
           output: str | None, json_file: str | None, junit_file: str | None,
           sarif_file: str | None, markdown_file: str | None, only: tuple[str, ...],
           timeout: float, bound: int, no_minimise: bool, jobs: int | None, explain_dir: str | None,
           confirm: str | None, cache_dir: str | None, no_cache: bool) -> None:
    """Prove every invariant of the catalog at every event, for any number of cards,
    players and nested games. One proof run writes any set of reports (--format on
    standard output or -o, plus --json, --junit-xml, --sarif, --markdown files). Exit 0 all
    proved, 1 refuted, 3 unknown (or amendments that change nothing the model can see)."""
    cache = _start_workers(jobs, cache_dir, no_cache, "verify")
    from shahrazad.proofs.solving.obligations import worst
    from shahrazad.proofs.verdicts.run import verify as run_verify

    from .report.explain import write_explanations

    targets = _report_targets(fmt, output, {"json": json_file, "junit": junit_file,
                                            "sarif": sarif_file, "markdown": markdown_file})
    to_stdout = [kind for kind, target in targets.items() if target == "-"]
    if explain_dir is not None:
        if STDIN in (rulebook_path, *amendments):
            raise click.BadParameter("a counterexample records the rules it was found under; "
                                     "give the rulebook and amendments as files, not standard "
                                     "input", param_hint="--explain-dir")
        _writable_folder(explain_dir)
    rulebook, loaded = _rules(rulebook_path, amendments)
    _check_invariants(only)
    started = time.perf_counter()
    with _Progress("proving") as progress:
        results = run_verify(rulebook, list(only) or None, timeout=timeout, bound=bound,
                             jobs=jobs or os.cpu_count() or 1, minimise_cex=not no_minimise,
                             progress=progress, confirm=confirm, cache=cache)
    code = worst(r.status for r in results).exit_code
    flag = ""
    effect = None
    if amendments and code == 0:
        # Everything proved: is there anything the amendments change that the model sees?
        from shahrazad.proofs.analyses.semantic import semantic_diff, unseen

        from .report.semantic import diff_json, undecided_line, unseen_line

        with _Progress("comparing with the rules before the amendments") as progress:
            diff = semantic_diff(_rulebook(rulebook_path), rulebook, timeout=timeout,
                                 jobs=jobs or os.cpu_count() or 1, progress=progress)
        effect = diff_json(diff)
        if unseen(diff):
            flag, code = unseen_line(diff), 3
        elif any(d.status == "unknown" for d in diff):
            flag, code = undecided_line(diff), 3
    wall = time.perf_counter() - started
    if explain_dir is not None:
        write_explanations(results, Path(explain_dir), rulebook_path, list(amendments))
    _emit_all({target: _verify_report(kind, results, rulebook, rulebook_path, loaded, wall,
                                      flag, effect, code)
               for kind, target in targets.items()})
    if flag and not {"text", "markdown"} & set(to_stdout):
        click.echo(f"shahrazad: {flag}", err=True)
    raise click.exceptions.Exit(code)


REPORT_FLAGS = {"json": "--json", "junit": "--junit-xml", "sarif": "--sarif",
                "markdown": "--markdown"}


def _report_targets(fmt: str, output: str | None,
                    files: dict[str, str | None]) -> dict[str, str]:
    """Where each report of a run goes (`-`: standard output), checked before any work: a
    report asked for twice, two reports for one file or for standard output, a file that
    cannot be written. The --format report goes to standard output unless -o says
    otherwise, or another report asked for standard output and --format was not given."""
    asked = {kind: target for kind, target in files.items() if target is not None}
    targets: dict[str, str] = {}
    fmt_given = click.get_current_context().get_parameter_source("fmt") not in (
        click.core.ParameterSource.DEFAULT, None)
    if output is not None or fmt_given or "-" not in asked.values():
        targets[fmt] = output or "-"
    for kind, target in asked.items():
        if kind in targets and targets[kind] != target:
            raise click.BadParameter(f"the {kind} report is asked for twice",
                                     param_hint=REPORT_FLAGS[kind])
        targets[kind] = target
    to_stdout = [kind for kind, target in targets.items() if target == "-"]
    if len(to_stdout) > 1:
        raise click.BadParameter(f"only one report can go to standard output, not "
                                 f"{' and '.join(to_stdout)}; give the others a file",
                                 param_hint="-o")
    seen: dict[str, str] = {}
    for kind, target in targets.items():
        if target == "-":
            continue
        key = os.path.abspath(target)
        if key in seen:
            raise click.BadParameter(f"the {seen[key]} and {kind} reports would both be "
                                     f"written to {target}", param_hint=REPORT_FLAGS.get(kind, "-o"))
        seen[key] = kind
        _writable_file(target)
    return targets


def _writable_file(path: str) -> None:
    """InputError unless `path` can be written as a file (its folder exists)."""
    target = Path(path)
    if target.is_dir():
        raise InputError("is a folder, not a file", file=path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise InputError("cannot write: no such folder, or not writable", file=path)


def _writable_folder(path: str) -> None:
    """Make the folder `path` (and its parents); InputError when that is not possible."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(f"cannot make the folder: {err.strerror}", file=path) from None


def _emit_all(reports: dict[str, str]) -> None:
    """Write every report, or none: the files are written beside their targets first and
    only renamed into place when all were written (standard output comes last)."""
    staged: list[tuple[Path, Path]] = []
    try:
        for target, text in reports.items():
            if target == "-":
                continue
            final = Path(target)
            temporary = final.with_name(f".{final.name}.shahrazad-tmp")
            temporary.write_text(text, encoding="utf-8")
            staged.append((temporary, final))
    except OSError as err:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        raise InputError(f"cannot write: {err.strerror}", file=str(err.filename)) from None
    for temporary, final in staged:
        temporary.replace(final)
    if "-" in reports:
        click.echo(reports["-"], nl=False)


def _verify_report(kind: str, results: list[Any], rulebook: Rulebook, rulebook_path: str | None,
                   amendments: list[Any], wall: float, flag: str, effect: Any,
                   code: int) -> str:
    """One report of a verification, as text."""
    source = rulebook_path or "official"
    names = [a.file for a in amendments]
    if kind == "json":
        from .report.jsondoc import verify_json

        document = verify_json(results, source, names, wall)
        if effect is not None:
            document["amendment-effect"] = effect
            document["exit-code"] = code
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if kind == "junit":
        from .report.junit import verify_junit

        return verify_junit(results, rulebook, amendments, wall, unseen=flag or None)
    if kind == "sarif":
        from .report.sarif import verify_sarif

        return verify_sarif(results, rulebook, amendments, wall, unseen=flag or None)
    if kind == "github":
        from .report.github import verify_github

        return verify_github(results, rulebook, amendments, unseen=flag or None)
    if kind == "markdown":
        from .report.markdown import verify_markdown

        text = verify_markdown(results, source, names, wall)
        return text + (f"\n{flag}\n" if flag else "")
    from .report.text import verify_text

    return verify_text(results, source, names, wall, flag)


@cli.command()
@RULEBOOK
@AMENDMENTS
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@OUTPUT
@click.option("--timeout", type=SECONDS, default=5.0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=None)
@click.option("--clause", "clauses", multiple=True, help="Only this clause (repeatable).")
@click.option("--removals-only", is_flag=True, help="Only remove each clause; change nothing.")
@click.option("--every", is_flag=True, help="List every change, the caught ones too.")
def protection(rulebook_path: str | None, amendments: tuple[str, ...], fmt: str,
               output: str | None, timeout: float, jobs: int | None,
               clauses: tuple[str, ...], removals_only: bool, every: bool) -> None:
    """Remove each clause, and change each parameter of each of its steps (destination,
    whose, position, face, mark, selection, numbers, choices), one at a time: which
    invariant breaks? A change that alters what happens while no invariant breaks is a gap
    of the catalog, shown with a situation where it shows. Exit 0 when nothing is a gap, 1
    when something is, 3 when the solver could not decide."""
    from shahrazad.proofs.analyses.protection import protection as run
    from shahrazad.report.protection import exit_code, protection_json, protection_text

    rulebook = _rulebook(rulebook_path, amendments)
    for name in clauses:
        if name not in rulebook.names():
            raise _unknown_name(name, rulebook.names(), "clause", "--clause", "shahrazad rules")
    with _Progress("changing clauses") as progress:
        found = run(rulebook, timeout=timeout, jobs=jobs or os.cpu_count() or 1,
                    with_changes=not removals_only, only=list(clauses) or None,
                    progress=progress)
    if fmt == "json":
        _emit(json.dumps(protection_json(found), indent=2, ensure_ascii=False) + "\n", output)
    else:
        _emit(protection_text(found, rulebook, every), output)
    raise click.exceptions.Exit(exit_code(found))


@cli.command("check-rules")
@RULEBOOK
@AMENDMENTS
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@OUTPUT
@click.option("--timeout", type=SECONDS, default=5.0, show_default=True)
def check_rules_command(rulebook_path: str | None, amendments: tuple[str, ...], fmt: str,
                        output: str | None, timeout: float) -> None:
    """Checks on the rules themselves: permissions and prohibitions that contradict each
    other, dead clauses, vacuous invariants, cards without a destination. Each finding of
    the last three comes with a scenario. Exit 0 none, 1 findings, 3 unknown."""
    from shahrazad.model.scenario import dump_scenario, scenario_data
    from shahrazad.proofs.analyses.rules_check import check_rules

    rulebook = _rulebook(rulebook_path, amendments)
    with _Progress("checking the rules") as progress:
        found = check_rules(rulebook, timeout=timeout, progress=progress)
    if fmt == "json":
        _emit(json.dumps({"schema": "shahrazad.check-rules/1", "checks": [
            {"check": f.check, "subject": f.subject, "status": f.status, "detail": f.detail,
             "scenario": scenario_data(f.scenario) if f.scenario and f.status != "ok" else None}
            for f in found]}, indent=2, ensure_ascii=False) + "\n", output)
    else:
        lines = []
        for f in found:
            if f.status == "ok":
                continue
            lines.append(f"{f.status.upper()}: {f.check}: {f.subject}: {f.detail}")
            if f.scenario is not None:
                lines.append("  " + dump_scenario(f.scenario).replace("\n", "\n  ").rstrip())
        counts = {s: sum(f.status == s for f in found) for s in ("ok", "finding", "unknown",
                                                                   "fault")}
        lines.append(f"{len(found)} checks: "
                     + ", ".join(f"{n} {s}" for s, n in counts.items() if n))
        _emit("\n".join(lines) + "\n", output)
    statuses = {f.status for f in found}
    raise click.exceptions.Exit(1 if "finding" in statuses else
                                3 if statuses & {"unknown", "fault"} else 0)


@cli.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False),
                default="examples/history")
@click.option("--format", "fmt", type=click.Choice(["markdown", "json"]), default="markdown",
              show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the report there (the links are made relative to its folder).")
@click.option("--counterexamples", type=click.Path(file_okay=False), default=None,
              help="Write each broken promise's reaching trace there "
                   "(default: FOLDER/counterexamples).")
@click.option("--archive", type=click.Path(exists=True, file_okay=False), default=None,
              help="The rule-text archive (../shared/rules/history): name the wordings its "
                   "CHANGES files list that no file encodes yet.")
@click.option("--timeout", type=SECONDS, default=5.0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=None)
def history(folder: str, fmt: str, output: str | None, counterexamples: str | None,
            archive: str | None, timeout: float, jobs: int | None) -> None:
    """The rules' past wordings (amendments with their dates and sentences, see
    docs/amendments.md), each verified and diffed against the one before: the table of
    docs/history.md. Exit 1 if a wording breaks a promise, 3 if something is undecided."""
    from shahrazad.model.amendment import archived, load_history
    from shahrazad.proofs.analyses.history import check_history

    from .report.history import counterexample_files, history_json, history_markdown

    wordings = load_history(folder)
    if not wordings:
        raise InputError("no wording file (*.toml with a [wording] table) here", file=folder)
    with _Progress("checking wordings") as progress:
        checked = check_history(wordings, timeout=timeout, jobs=jobs or os.cpu_count() or 1,
                                progress=progress)
    files = counterexample_files(checked, Path(counterexamples or Path(folder) /
                                               "counterexamples"))
    where = Path(output).parent if output else Path.cwd()
    text = (json.dumps(history_json(checked, files), indent=2, ensure_ascii=False) + "\n"
            if fmt == "json" else history_markdown(checked, files, where,
                                                    archived(archive) if archive else None))
    _emit(text, output)
    undecided = any(c.unknown or c.faults or any(d.status == "unknown" for d in c.diff or [])
                    for c in checked)
    raise click.exceptions.Exit(1 if any(c.broken for c in checked) else 3 if undecided else 0)


@cli.command("check-references")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@OUTPUT
def check_references_command(paths: tuple[str, ...], fmt: str, output: str | None) -> None:
    """Cross-references in rule texts (files, or folders searched for .txt in UTF-8, UTF-16
    or Windows-1252, and rulesraker .json): each must point to a rule that exists, the right
    one, with the right title; a range of sub-rules must not stop short. Exit 0 none wrong,
    1 otherwise, 2 if no rule text was found."""
    from shahrazad.references import scan

    def count(n: int, what: str) -> str:
        return f"{n:,} {what}{'' if n == 1 else 's'}"

    refs = scan(list(paths))
    if refs.rules == 0:
        raise InputError(f"no rule text found ({count(refs.files, '.txt or .json file')} read, "
                         "none with a numbered rule)", file=", ".join(paths))
    if fmt == "json":
        _emit(json.dumps({"schema": "shahrazad.references/1", "files": refs.files,
                          "rules": refs.rules, "unrecognised": refs.unrecognised,
                          "findings": [{"file": f.file, "line": f.line,
                                        "problem": f.problem, "text": f.text}
                                       for f in refs.findings]},
                         indent=2, ensure_ascii=False) + "\n", output)
    else:
        unrecognised = (f" ({count(refs.unrecognised, 'file')} not recognised)"
                        if refs.unrecognised else "")
        _emit("".join(f.describe() + "\n" for f in refs.findings)
              + f"checked {count(refs.rules, 'rule')} in {count(refs.files, 'file')}"
              f"{unrecognised}; {count(len(refs.findings), 'finding')}\n", output)
    raise click.exceptions.Exit(1 if refs.findings else 0)


def _start_workers(jobs: int | None, cache_dir: str | None, no_cache: bool,
                   command: str, always: bool = False) -> ResultCache | None:
    """The cache of proofs the options name; with none (a cold run, which needs workers),
    or `always`, the worker processes of `command` are started at once, so that their
    start overlaps the command's own (`proofs.solving.pool.start`)."""
    cache = _cache(cache_dir, no_cache)
    if cache is None or always:
        from shahrazad.proofs.solving.pool import IMPORTS, start

        start(jobs or os.cpu_count() or 1, IMPORTS[command])
    return cache


def _stderr_is_terminal() -> bool:
    """Whether standard error is a terminal (not a pipe, a file, or closed: `2>&-`)."""
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (ValueError, OSError):
        return False


class _Progress:
    """Progress of a long command on standard error, with rich: what it is doing, a bar,
    done/total, the time so far and the item just decided. Only on a terminal (nothing in a
    pipe or a CI log, where the reports say it all); rich honours NO_COLOR. The bar is
    wiped at the end."""

    def __init__(self, doing: str) -> None:
        self.doing = doing
        # rich's console on standard error, made only for a terminal: elsewhere (a pipe, a CI
        # log) rich is not even imported, some 30 ms of the command's own CPU while its
        # workers prove.
        self.console: Any = None
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> _Progress:
        if self.console is None:
            if not _stderr_is_terminal():
                return self
            from rich.console import Console

            self.console = Console(stderr=True)
        # rich's is_terminal is also true under FORCE_COLOR: on standard error, ask it too.
        on_stderr = self.console.file is sys.stderr
        if self.console.is_terminal and (not on_stderr or sys.stderr.isatty()):
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self.bar = Progress(TextColumn("{task.description}"), BarColumn(),
                                MofNCompleteColumn(), TimeElapsedColumn(),
                                TextColumn("{task.fields[item]}"), console=self.console,
                                transient=True)
            self.bar.start()
        return self

    def __call__(self, done: int, total: int, item: Any) -> None:
        if self.bar is None:
            return
        if self.task is None:
            self.task = self.bar.add_task(self.doing, total=total, item="")
        self.bar.update(self.task, completed=done, total=total, item=_label(item))

    def __exit__(self, *_: object) -> None:
        if self.bar is not None:
            self.bar.stop()


class _Tally:
    """Several parts of one command, each reporting its progress (done, total, item) from
    its own thread, as one bar: the parts' counts added up."""

    def __init__(self, progress: Callable[[int, int, Any], None], **totals: int) -> None:
        self.progress = progress
        self.totals = totals
        self.done = dict.fromkeys(totals, 0)
        self.lock = Lock()

    def part(self, name: str) -> Callable[[int, int, Any], None]:
        def report(done: int, _: int, item: Any) -> None:
            with self.lock:
                self.done[name] = done
                self.progress(sum(self.done.values()), sum(self.totals.values()), item)
        return report


def _label(item: Any) -> str:
    """What a progress line names: an obligation, a clause's change, an event, a wording."""
    if hasattr(item, "obligation"):
        return f"{item.status.value} {item.obligation.name}"
    for attribute in ("clause", "event", "wording", "name", "subject"):
        value = getattr(item, attribute, None)
        if isinstance(value, str):
            return value
        if value is not None and isinstance(getattr(value, "name", None), str):
            return str(value.name)
    return ""


@cli.command()
@click.argument("amendment", type=click.Path(dir_okay=False))
@click.option("--against", "rulebook_path", type=click.Path(dir_okay=False), default=None,
              help="The rulebook the amendment changes (default: the official one).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@OUTPUT
@click.option("--only", "only", multiple=True,
              help="Only this invariant id (repeatable): the semantic diff still covers every "
              "changed event.")
@click.option("--timeout", type=SECONDS, default=5.0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=None)
@CACHE
@NO_CACHE
def amend(amendment: str, rulebook_path: str | None, fmt: str, output: str | None,
          only: tuple[str, ...], timeout: float, jobs: int | None, cache_dir: str | None,
          no_cache: bool) -> None:
    """What an amendment changes: where the amended rules behave differently, event by event
    (a semantic diff, each difference with a reached situation and both outcomes side by
    side), and the invariants it breaks and repairs, each with a replayed scenario. Exit 1
    if it breaks anything; 3 if the model sees no difference at all, or cannot decide."""
    # Even a warm run compares the rulebooks in workers, beside the proofs, in one pool.
    cache = _start_workers(jobs, cache_dir, no_cache, "amend", always=True)
    from shahrazad.invariants.catalog import EVENTS
    from shahrazad.model.amendment import load_amendment
    from shahrazad.model.scenario import scenario_data
    from shahrazad.proofs.analyses.semantic import semantic_diff, unseen
    from shahrazad.proofs.solving.obligations import Status, obligations
    from shahrazad.proofs.solving.pool import cancel
    from shahrazad.proofs.verdicts.run import decide

    from .report.explain import explain
    from .report.semantic import diff_json, diff_text

    base = _rulebook(rulebook_path)
    loaded = load_amendment(amendment)
    amended = loaded.apply(base)
    _check_invariants(only)
    workers = jobs or os.cpu_count() or 1
    # An event's transition depends only on that event's clauses: where the amendment
    # leaves them as they were, every verdict there is the base rulebook's, and neither
    # rulebook is asked (`verify` answers for the base rulebook's own verdicts).
    changed = {event for event in EVENTS if base.on(event) != amended.on(event)}
    todo = [ob for ob in obligations(list(only) or None) if ob.event in changed]
    with _Progress("proving both rulebooks, comparing them event by event") as progress, \
            ThreadPoolExecutor(max_workers=1) as beside:
        tally = _Tally(progress, proofs=2 * len(todo), events=len(changed))
        # The comparison goes to the workers beside the proofs, not after them: one event's
        # comparison alone would keep one worker busy while the others wait.
        comparing = beside.submit(semantic_diff, base, amended, timeout=timeout, jobs=workers,
                                  progress=tally.part("events"))
        try:
            found, redone = decide([(base, todo), (amended, todo)], timeout=timeout,
                                   jobs=workers, progress=tally.part("proofs"), cache=cache)
        except BaseException:  # interrupted, or a bug: the comparison stops waiting too
            cancel()
            raise
        diff = comparing.result()
    after, changes = _verdict_changes(found, redone)
    summary = {"replaces": [c.name for c in loaded.replace], "removes": loaded.remove,
               "adds": [a[0].name for a in loaded.add]}
    if fmt == "json":
        _emit(json.dumps({"schema": "shahrazad.amend/1", "amendment": loaded.file,
                          "title": loaded.title, **summary, "only": list(only), "changes": [
                              {"change": k, "invariant": r.obligation.invariant.id,
                               "event": r.obligation.event, "status": r.status.value,
                               "counterexample": scenario_data(r.counterexample)
                               if r.counterexample else None} for k, r in changes],
                          "expected-breaks": loaded.breaks,
                          "semantic-diff": diff_json(diff, bool(changes))},
                         indent=2, ensure_ascii=False) + "\n", output)
    else:
        lines = [f"{loaded.title}\n  replaces: {', '.join(summary['replaces']) or '-'}; "
                 f"removes: {', '.join(loaded.remove) or '-'}; adds: "
                 f"{', '.join(summary['adds']) or '-'}\n"]
        lines += diff_text(diff, rulebook_path or "the official rules", bool(changes))
        if not changes and not unseen(diff):
            lines.append("\nchanges no verdict of the catalog"
                         + (f" (of {', '.join(only)})" if only else ""))
        for kind, r in changes:
            lines.append(f"\n{kind.upper()}: {r.obligation.name}")
            if r.status == Status.REFUTED:
                lines += explain(r)
        missing = [b for b in loaded.breaks if (not only or b in only) and
                   not any(r.obligation.invariant.id == b and k == "breaks" for k, r in changes)]
        if missing:
            lines.append(f"\nexpected to break but does not: {', '.join(missing)}")
        _emit("\n".join(lines) + "\n", output)
    if any(k == "breaks" for k, _ in changes):
        raise click.exceptions.Exit(1)
    undecided = any(d.status == "unknown" for d in diff) or any(
        r.status in (Status.UNKNOWN, Status.FAULT) for r in after)
    raise click.exceptions.Exit(3 if (unseen(diff) and not changes) or undecided else 0)


def _verdict_changes(found: list[Result], redone: list[Result],
                     ) -> tuple[list[Result], list[tuple[str, Result]]]:
    """The amended rulebook's results (`redone`, the base rulebook's `found`), and each
    obligation whose verdict the amendment changes: "breaks", "repairs", or old -> new."""
    from shahrazad.proofs.solving.obligations import Status

    before = {r.obligation.name: r for r in found}
    again = {r.obligation.name: r for r in redone}
    after = [again.get(r.obligation.name, r) for r in found]
    changes = []
    for r in after:
        old = before[r.obligation.name].status
        if old != r.status:
            kind = ("breaks" if r.status == Status.REFUTED else
                    "repairs" if old == Status.REFUTED and r.status == Status.PROVED else
                    f"{old.value} -> {r.status.value}")
            changes.append((kind, r))
    return after, changes


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text",
              show_default=True)
@OUTPUT
def invariants(fmt: str, output: str | None) -> None:
    """List the invariant catalog: id, statement, clauses, events, and the formula."""
    from shahrazad.invariants.catalog import CATALOG

    from .report.catalog import invariants_markdown

    if fmt == "markdown":
        _emit(invariants_markdown(CATALOG), output)
        return

    if fmt == "json":
        _emit(json.dumps({"schema": "shahrazad.invariants/1", "invariant": [
            {"id": i.id, "kind": i.kind, "statement": i.statement, "clauses": list(i.clauses),
             "events": list(i.events), "bounded": i.bounded, "formula": str(i.term)}
            for i in CATALOG]}, indent=2, ensure_ascii=False) + "\n", output)
        return
    _emit("".join(f"{inv.id}{' (bounded)' if inv.bounded else ''}  [{', '.join(inv.clauses)}]"
                  f"\n  {inv.statement}\n  at: {', '.join(inv.events)}\n  {inv.term}\n\n"
                  for inv in CATALOG), output)


@cli.command()
@RULEBOOK
@AMENDMENTS
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@OUTPUT
def rules(rulebook_path: str | None, amendments: tuple[str, ...], fmt: str,
          output: str | None) -> None:
    """List the rulebook's clauses (as amended): stable name, CR number per edition,
    summary, steps."""
    rulebook = _rulebook(rulebook_path, amendments)
    if fmt == "json":
        _emit(json.dumps({"schema": "shahrazad.rulebook/1", **rulebook.as_data()}, indent=2)
              + "\n", output)
        return
    lines = [f"{rulebook.title} ({len(rulebook)} clauses; editions "
             f"{', '.join(rulebook.editions)})"
             + (f", amended by {', '.join(amendments)}" if amendments else "")]
    for clause in rulebook:
        numbers = " / ".join(f"{clause.cr[e]} ({e})" for e in sorted(clause.cr))
        lines.append(f"\n{clause.name}  [{numbers}]  on {clause.on}\n  {clause.summary}")
        lines += [f"    - {step.describe()}" for step in clause.steps]
    _emit("\n".join(lines) + "\n", output)


def _engine_commands() -> None:
    """The engine authors' commands (`generate`, `conform`) live in `engine_kit`."""
    from .engine_kit import COMMANDS

    for command in COMMANDS:
        cli.add_command(command)


_engine_commands()


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    from shahrazad.proofs.solving.pool import stop

    try:
        code = cli.main(args=argv, prog_name="shahrazad", standalone_mode=False)
        if isinstance(code, int):
            return code
    except click.exceptions.Exit as done:
        return int(done.exit_code)
    except click.ClickException as err:
        click.echo(f"shahrazad: {err.format_message()}", err=True)
        return EXIT_BAD_INPUT
    except click.exceptions.Abort:
        click.echo("shahrazad: aborted", err=True)
        return EXIT_BAD_INPUT
    except ShahrazadError as err:
        click.echo(f"shahrazad: {err}", err=True)
        return EXIT_BAD_INPUT
    except Exception as err:  # a bug of this tool: say so in one line, decide nothing
        if os.environ.get("SHAHRAZAD_DEBUG"):
            raise
        click.echo(f"shahrazad: internal error, a bug of this tool ({type(err).__name__}: "
                   f"{err}); set SHAHRAZAD_DEBUG=1 for the traceback", err=True)
        return EXIT_UNDECIDED
    finally:
        stop()  # the workers a command started (`_start_workers`), if any
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
