"""The `shahrazad` command line.

Every user error (a malformed file, an event the situation does not allow, an unknown
option) is one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from model.choices import SeededChooser, enumerate_outcomes
from model.errors import IllegalEvent, InputError, ShahrazadError
from model.interpreter import Interpreter
from model.rulebook import Rulebook, load_rulebook
from model.scenario import Scenario, load_scenario, situation_data

from . import report

EXIT_BAD_INPUT = 2


def _rulebook(path: str | None) -> Rulebook:
    return load_rulebook(path)


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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="shahrazad")
def cli() -> None:
    """shahrazad: the Magic subgame (CR 728) and restart (CR 726) rules, executable."""


@cli.command()
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
@click.option("--seed", type=int, default=None,
              help="Seed for shuffles and random starting players (default: the scenario's, or 0).")
@click.option("--rulebook", "rulebook_path", type=click.Path(dir_okay=False), default=None,
              help="A rulebook TOML file instead of the official one.")
@click.option("--edition", default=None, help="Cite CR numbers of this edition (YYYY-MM-DD).")
@click.option("--outcomes", is_flag=True,
              help="Also count the distinct outcomes over every random choice (small scenarios).")
def simulate(scenario: str, fmt: str, seed: int | None, rulebook_path: str | None,
             edition: str | None, outcomes: bool) -> None:
    """Run a scenario's events and print the trace, each step citing its rule."""
    rulebook = _rulebook(rulebook_path)
    sc = load_scenario(scenario)
    edition = _edition(rulebook, edition)
    seed = seed if seed is not None else (sc.seed if sc.seed is not None else 0)
    _, (final, trace) = _run(sc, rulebook, seed, edition)
    source = "official" if rulebook_path is None else rulebook_path
    counted = _count_outcomes(sc, rulebook, edition) if outcomes else None
    if fmt == "json":
        doc = report.simulate_json(scenario, source, edition, seed, sc.events, trace, final)
        if counted is not None:
            doc["outcomes"] = counted
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    text = report.simulate_text(scenario, sc.title, source, edition, seed, sc.events, trace, final)
    if counted is not None:
        text += (f"\nPossible outcomes over every random choice: {counted['distinct']} distinct "
                 f"situations from {counted['branches']} branches\n")
    click.echo(text, nl=False)


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


def _edition(rulebook: Rulebook, edition: str | None) -> str:
    if edition is None:
        return rulebook.default_edition
    if edition not in rulebook.editions:
        raise click.BadParameter(f"{edition!r} is not one of {', '.join(rulebook.editions)}",
                                 param_hint="--edition")
    return edition


@cli.command()
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option("--after", type=int, default=None,
              help="Draw the situation after event N (default: before any event).")
@click.option("--format", "fmt", type=click.Choice(["dot", "svg", "png"]), default="dot",
              show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write to this file (default: standard output).")
@click.option("--seed", type=int, default=None)
@click.option("--rulebook", "rulebook_path", type=click.Path(dir_okay=False), default=None)
def graph(scenario: str, after: int | None, fmt: str, output: str | None, seed: int | None,
          rulebook_path: str | None) -> None:
    """Draw the game tree, its zones and where each card is."""
    from model.graph import render, to_dot

    rulebook = _rulebook(rulebook_path)
    sc = load_scenario(scenario)
    if after is not None and not 0 <= after <= len(sc.events):
        raise click.BadParameter(f"the scenario has {len(sc.events)} events", param_hint="--after")
    seed = seed if seed is not None else (sc.seed if sc.seed is not None else 0)
    _, (state, _) = _run(sc, rulebook, seed, None, upto=after or 0)
    title = f"{Path(scenario).name}: " + (f"after event {after}" if after else "before any event")
    try:
        data = render(to_dot(state, title), fmt)
    except RuntimeError as err:
        raise InputError(str(err)) from None
    if output:
        Path(output).write_bytes(data)
    else:
        sys.stdout.buffer.write(data)


@cli.command()
@click.option("--rulebook", "rulebook_path", type=click.Path(dir_okay=False), default=None)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def rules(rulebook_path: str | None, fmt: str) -> None:
    """List the rulebook's clauses: stable name, CR number per edition, summary, steps."""
    rulebook = _rulebook(rulebook_path)
    if fmt == "json":
        click.echo(json.dumps({"schema": "shahrazad.rulebook/1", **rulebook.as_data()}, indent=2))
        return
    click.echo(f"{rulebook.title} ({len(rulebook)} clauses; editions {', '.join(rulebook.editions)})")
    for clause in rulebook:
        numbers = " / ".join(f"{clause.cr[e]} ({e})" for e in sorted(clause.cr))
        click.echo(f"\n{clause.name}  [{numbers}]  on {clause.on}\n  {clause.summary}")
        for step in clause.steps:
            click.echo(f"    - {step.describe()}")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    try:
        cli.main(args=argv, prog_name="shahrazad", standalone_mode=False)
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
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
