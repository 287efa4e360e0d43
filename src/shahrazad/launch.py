"""The `shahrazad` console script: `shahrazad.cli.main`, with the proof workers started first.

`verify` and `amend` decide their obligations in spawned worker processes (`proofs.solving.pool`),
each of which takes some 0.15 s to start and to import z3 and the prover (2026-12-03).
When the command line is a cold `verify` or `amend` (no cache of proofs, so workers will
be needed), the first worker is started here, before the command line module is imported,
so that its start overlaps the command's own instead of following it. The arguments are
only glanced at: the command line proper reads and checks them, and a wrong guess costs
or saves one worker's start, never an answer.

Once the command is done, the process ends at once (`end`): what is left then is the
interpreter freeing every object and module, some 25 ms for which a CI job or a rules
manager would wait (A/B of 20 pairs, 2026-12-02: `verify` 2.345 -> 2.319 s, `--version`
0.155 -> 0.131 s).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn

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
        from shahrazad.proofs.solving.pool import IMPORTS, start

        start(jobs, IMPORTS[sys.argv[1]])
    from shahrazad.cli import main as command_line

    code = command_line()
    if any(not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        return code  # a thread still at work: the interpreter waits for it, as ever
    if not _flushed():
        return code  # the report is not delivered: the interpreter's own exit says so
    end(code)


def end(code: int) -> NoReturn:
    """End the process with `code`, the command done, its output flushed and no thread but
    this one at work: the exit handlers run, as at any exit (multiprocessing's among them,
    which finalizes what its pools and queues left), then `os._exit`, skipping only the
    interpreter's freeing of its objects. The command's files are written and closed by
    then (`options.emit`, the reports, the cache's renames). The workers are gone already
    (`proofs.solving.pool.stop`, at the end of `cli.main`)."""
    atexit._run_exitfuncs()
    # 120: what the interpreter's exit gives when it cannot flush standard output.
    os._exit(code if _flushed() else 120)


def _flushed() -> bool:
    """Whether standard output and standard error could be flushed (not a closed pipe). A
    stream the process was started without (`2>&-`: Python's `sys.stderr` is None) has
    nothing to flush."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return False
    return True
