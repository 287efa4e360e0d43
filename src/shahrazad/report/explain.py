"""Counterexamples explained: in words (the invariant, the witness that breaks it, the
clause steps that acted, the situation before and after), for the text, JUnit and Markdown
reports and `shahrazad amend`; and as files (`verify --explain-dir`): the scenario, and
pictures of the situation before and after the event."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from shahrazad.model.inputs import STDIN
from shahrazad.model.scenario import Scenario
from shahrazad.proofs.solving.obligations import Result, Status

from .simulate import situation_text


def explain(result: Result) -> list[str]:
    """A refuted obligation in words: what broke, which steps acted, before and after."""
    inv = result.obligation.invariant
    lines = [f"  broken: {inv.statement}"]
    if inv.clauses:
        lines.append(f"  clauses that should keep it: {', '.join(inv.clauses)}")
    if inv.rules:
        lines.append(f"  rules that state it: CR {', '.join(inv.rules)}")
    replay = result.replay
    if replay is not None and replay.witness:
        lines.append("  witness: " + ", ".join(f"{k} = {v}" for k, v in replay.witness.items()))
    if result.counterexample is not None:
        lines.append("  before:")
        lines += ["  " + line for line in situation_text(result.counterexample.situation)]
        lines.append(f"  event: {result.counterexample.events[0].describe()}")
    if replay is not None and replay.outcome is not None:
        lines.append("  steps that acted:")
        for step in replay.outcome.trace:
            if step.changes:
                lines.append("    " + step.describe().replace("\n", "\n    "))
        lines.append("  after:")
        lines += ["  " + line for line in situation_text(replay.outcome.situation)]
    return lines


def record_rules(scenario: Scenario, folder: Path, rulebook: str | None,
                 amendments: Sequence[str]) -> Scenario:
    """The scenario, recording the rulebook and amendment files it runs under, as paths
    relative to `folder` (where it is written). Standard input (`-`) cannot be recorded."""

    def relative(path: str) -> str:
        return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(folder))).as_posix()

    return replace(scenario, rulebook=relative(rulebook) if rulebook not in (None, STDIN) else None,
                   amendments=[relative(a) for a in amendments if a != STDIN])


def write_explanations(results: list[Result], folder: Path, rulebook: str | None = None,
                       amendments: Sequence[str] = ()) -> list[Path]:
    """For each counterexample: the scenario, its reaching trace (`STEM.trace.toml`, from a
    game's beginning), and pictures before and after the event. Both scenarios record the
    rulebook and amendments they were found under, so that `shahrazad simulate` replays
    them under the same rules."""
    from shahrazad.model.graph import render, to_dot
    from shahrazad.model.scenario import write_scenario

    def recorded(scenario: Scenario) -> Scenario:
        return record_rules(scenario, folder, rulebook, amendments)

    written: list[Path] = []
    folder.mkdir(parents=True, exist_ok=True)
    for r in results:
        if r.counterexample is None or r.status not in (Status.REFUTED, Status.FAULT):
            continue
        stem = f"{r.obligation.invariant.id}@{r.obligation.event}"
        path = folder / f"{stem}.toml"
        write_scenario(recorded(r.counterexample), path)
        written.append(path)
        if r.trace is not None:
            trace_path = folder / f"{stem}.trace.toml"
            write_scenario(recorded(r.trace), trace_path)
            written.append(trace_path)
        states = [("before", r.counterexample.situation)]
        if r.replay is not None and r.replay.outcome is not None:
            states.append(("after", r.replay.outcome.situation))
        for when, situation in states:
            dot = to_dot(situation, f"{stem}: {when} {r.counterexample.events[0].describe()}")
            for fmt in ("dot", "svg"):
                try:
                    data = render(dot, fmt)
                except RuntimeError:
                    continue  # no Graphviz: the .dot file is there
                target = folder / f"{stem}.{when}.{fmt}"
                target.write_bytes(data)
                written.append(target)
    return written
