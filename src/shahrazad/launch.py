"""The `shahrazad` console script: `shahrazad.cli.main`, with the proof workers started first.

`verify` and `amend` decide their obligations in spawned worker processes (`proofs.pool`),
each of which takes about a third of a second to start and to import z3 and the prover.
When the command line is a cold `verify` or `amend` (no cache of proofs, so workers will
be needed), the first worker is started here, before the command line module is imported,
so that its start overlaps the command's own instead of following it. The arguments are
only glanced at: the command line proper reads and checks them, and a wrong guess costs
or saves one worker's start, never an answer.
"""

from __future__ import annotations

import os
import sys

PROVING = ("verify", "amend")


def workers_wanted(args: list[str]) -> int | None:
    """How many jobs a cold `verify` or `amend` in `args` will run; None for any other
    command, for help, or when a cache of proofs may answer without workers."""
    if not args or args[0] not in PROVING or "-h" in args or "--help" in args:
        return None
    cached = os.environ.get("SHAHRAZAD_CACHE") or any(
        arg == "--cache" or arg.startswith("--cache=") for arg in args)
    if cached and "--no-cache" not in args:
        return None
    jobs = os.cpu_count() or 1
    for index, arg in enumerate(args):
        value = (arg.partition("=")[2] if arg.startswith("--jobs=") else
                 args[index + 1] if arg == "--jobs" and index + 1 < len(args) else "")
        if value.isdecimal() and value.isascii() and int(value) >= 1:
            jobs = int(value)
    return jobs


def main() -> int:
    """Entry point of the console script; returns the exit code."""
    jobs = workers_wanted(sys.argv[1:])
    if jobs is not None:
        from shahrazad.proofs.pool import start

        start(jobs)
    from shahrazad.cli import main as command_line

    return command_line()
