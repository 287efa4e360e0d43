"""Errors a user can cause, each said in one line that names the file and line.

`InputError` covers malformed scenario, rulebook and amendment files; `IllegalEvent` an
event that the situation does not allow (ending a subgame when none runs, say). The CLI
turns both into one line on stderr and exit code 2; neither ever shows a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches


class ShahrazadError(Exception):
    """Base of every error the tool reports to a user in one line."""


class InputError(ShahrazadError):
    """A file that is not what its format says: names the file, the line and the fault."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None):
        self.file = file
        self.line = line
        # One line, always: a value quoted from the file may hold line breaks.
        message = message.replace("\r", "\\r").replace("\n", "\\n")
        self.message = message
        where = ""
        if file is not None:
            where = f"{file}:{line}: " if line is not None else f"{file}: "
        super().__init__(f"{where}{message}")


class IllegalEvent(ShahrazadError):
    """An event the current situation does not allow; `rule` cites why, where one does."""

    def __init__(self, message: str, *, rule: str | None = None):
        self.rule = rule
        self.message = message
        super().__init__(f"{message} ({rule})" if rule else message)


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`; did you mean 'X'?` for the known name closest to a mistyped one, or ""."""
    close = get_close_matches(name, sorted(known), n=1, cutoff=0.8)
    return f"; did you mean {close[0]!r}?" if close else ""
