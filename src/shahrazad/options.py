"""What the commands share: the rules a command runs under (a rulebook file, amendments
in order, or those a scenario records), the edition it cites, where its report goes, the
cache of proofs it may answer from, and the options that say so. `shahrazad.cli` and
`shahrazad.engine_kit` both use them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from shahrazad.model.errors import InputError
from shahrazad.model.inputs import STDIN_NAME
from shahrazad.model.rulebook import Rulebook, load_rulebook, official
from shahrazad.model.scenario import Scenario

if TYPE_CHECKING:
    from shahrazad.proofs.solving.cache import ResultCache


def load_rules(path: str | None, amendments: tuple[str, ...] = ()) -> tuple[Rulebook, list[Any]]:
    """The rulebook at `path` (the official one by default) with the amendments applied in
    order, and the amendments as loaded."""
    from shahrazad.model.amendment import load_amendment

    # The official rules are read once per process: the prover compares other rulebooks
    # with them (`official`), and would read them again.
    rulebook = official() if path is None else load_rulebook(path)
    loaded = []
    for amendment in amendments:
        loaded.append(load_amendment(amendment))
        rulebook = loaded[-1].apply(rulebook)
    return rulebook, loaded


def rulebook(path: str | None, amendments: tuple[str, ...] = ()) -> Rulebook:
    """The rulebook at `path` (the official one by default), with amendments applied in order."""
    return load_rules(path, amendments)[0]


def rules_source(path: str | None, amendments: tuple[str, ...] = ()) -> str:
    """How a report names the rules: `official` or the rulebook file, `amended by` ..."""
    source = "official" if path is None else path
    if amendments:
        source += " amended by " + ", ".join(amendments)
    return source


def scenario_rules(sc: Scenario, rulebook_path: str | None, amendments: tuple[str, ...],
                   official: bool = False) -> tuple[str | None, tuple[str, ...]]:
    """The rules to run a scenario under: those given on the command line, else those the
    scenario records (a counterexample found under an amended rulebook replays under it),
    unless `official`. Recorded paths are relative to the scenario's folder (as written,
    symbolic links not followed: `report.explain.record_rules` records them so)."""
    if (official or rulebook_path is not None or amendments
            or (sc.rulebook is None and not sc.amendments)):
        return rulebook_path, amendments
    folder = Path.cwd() if sc.file == STDIN_NAME else Path(sc.file).parent

    def find(recorded: str) -> str:
        return os.path.normpath(folder / recorded)

    return (find(sc.rulebook) if sc.rulebook else None,
            tuple(find(a) for a in sc.amendments))


def edition(rulebook: Rulebook, edition: str | None) -> str:
    """The edition whose CR numbers a report cites: the one asked for, else the rulebook's
    default; a usage error (exit 2) for one the rulebook does not know."""
    if edition is None:
        return rulebook.default_edition
    if edition not in rulebook.editions:
        raise click.BadParameter(f"{edition!r} is not one of {', '.join(rulebook.editions)}",
                                 param_hint="--edition")
    return edition


def emit(text: str, output: str | None) -> None:
    """The command's report: to standard output, or to the file `output` (`-`: standard
    output)."""
    if output is None or output == "-":
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot write: {err.strerror}", file=output) from None


OUTPUT = click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
                      default=None, help="Write the report to this file (default, or `-`: "
                      "standard output).")
RULEBOOK = click.option("--rulebook", "rulebook_path", type=click.Path(dir_okay=False,
                        allow_dash=True), default=None,
                        help="A rulebook TOML file instead of the official one (`-`: standard "
                        "input).")
AMENDMENTS = click.option("--amendment", "amendments", type=click.Path(dir_okay=False,
                          allow_dash=True), multiple=True,
                          help="Apply this amendment file to the rulebook first (repeatable, "
                          "in order).")


OFFICIAL = click.option("--official", is_flag=True,
                        help="Run under the official rules, not those the scenario records.")


CACHE_VARIABLE = "SHAHRAZAD_CACHE"
CACHE = click.option("--cache", "cache_dir", type=click.Path(), metavar="DIR", envvar=CACHE_VARIABLE,
                     default=None, show_envvar=True,
                     help="Keep each proof in this folder (made if need be), and answer "
                     "from it every proof whose rules, invariant, prover, z3 and options are "
                     "unchanged: a warm run, which the reports count apart. Refutations, "
                     "unknowns and faults are always decided afresh (docs/cache.md).")
NO_CACHE = click.option("--no-cache", is_flag=True,
                        help=f"A cold run: no cache, even if {CACHE_VARIABLE} names one.")


def result_cache(folder: str | None, no_cache: bool) -> ResultCache | None:
    """The cache of proofs that --cache (or SHAHRAZAD_CACHE) names, unless --no-cache; a
    usage error (exit 2) for a folder that cannot be made or written."""
    if no_cache or not folder:
        return None
    from shahrazad.proofs.solving.cache import CacheError, ResultCache

    try:
        return ResultCache(folder)
    except CacheError as err:
        ctx = click.get_current_context(silent=True)
        source = ctx.get_parameter_source("cache_dir") if ctx is not None else None
        hint = CACHE_VARIABLE if source == click.core.ParameterSource.ENVIRONMENT else "--cache"
        raise click.BadParameter(str(err), param_hint=hint) from None
