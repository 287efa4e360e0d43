"""Reading input files (scenarios, rulebooks, amendments) as data, with one-line errors.

Input files are parsed, never executed nor unpickled. Every fault becomes an InputError
naming the file and, where it can be known, the line.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from .errors import InputError

STDIN = "-"  # as a file name: standard input, as in most command-line tools
STDIN_NAME = "<stdin>"  # what errors call it
_stdin: tuple[object, str] | None = None  # standard input can be read once: its text, kept


def read_text(path: str | Path) -> str:
    """The file's text (`-`: standard input); InputError if it cannot be read or is not
    UTF-8."""
    global _stdin
    if str(path) == STDIN:
        if _stdin is None or _stdin[0] is not sys.stdin:
            try:
                _stdin = (sys.stdin, sys.stdin.buffer.read().decode("utf-8"))
            except UnicodeDecodeError:
                raise InputError("not UTF-8 text", file=STDIN_NAME) from None
        return _stdin[1]
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", file=str(path)) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", file=str(path)) from None


def file_name(path: str | Path) -> str:
    """How errors and reports name a file given as `path`."""
    return STDIN_NAME if str(path) == STDIN else str(path)


def toml_error_line(err: tomllib.TOMLDecodeError, text: str) -> tuple[int | None, str]:
    """The line a TOML error is at, and its message without the position."""
    message = str(err)
    m = re.search(r"\(at line (\d+), column \d+\)", message)
    if m:
        return int(m.group(1)), message.replace(m.group(0), "").strip()
    if "end of document" in message:
        return max(1, len(text.splitlines())), message.replace("(at end of document)", "").strip()
    return None, message


DEEPEST = 64  # no input file of ours nests lists or tables deeper than a few levels
LONGEST_NUMBER = 30  # digits: no number of ours has more (2**63 has 19)


def parse_toml(text: str, *, file: str) -> dict[str, Any]:
    """TOML text as data; InputError naming the line of a syntax error, of lists or tables
    nested deeper than any file of ours needs, or of a number with too many digits."""
    _refuse_extremes(text, file)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line, message = toml_error_line(err, text)
        raise InputError(f"not valid TOML: {message}", file=file, line=line) from None
    except (ValueError, RecursionError) as err:  # what the checks above did not foresee
        raise InputError(f"not valid TOML: {err}", file=file) from None


def parse_json(text: str, *, file: str) -> Any:
    """JSON text as data, with the same refusals as `parse_toml`."""
    _refuse_extremes(text, file)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"not valid JSON: {err.msg}", file=file, line=err.lineno) from None
    except (ValueError, RecursionError) as err:
        raise InputError(f"not valid JSON: {err}", file=file) from None


def _refuse_extremes(text: str, file: str) -> None:
    """One linear pass: brackets nested deeper than DEEPEST outside strings, or a run of
    more than LONGEST_NUMBER digits outside strings, is refused at its line."""
    depth, line, quote, escaped, digits = 0, 1, "", False, 0
    for char in text:
        if char == "\n":
            line += 1
        if quote:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote or char == "\n":
                quote = ""
            continue
        if char.isdigit():
            digits += 1
            if digits > LONGEST_NUMBER:
                raise InputError(f"a number with more than {LONGEST_NUMBER} digits; no count, "
                                 "seed or id serial is that large", file=file, line=line)
            continue
        digits = 0
        if char in "\"'":
            quote = char
        elif char == "#":
            quote = "\n"  # a TOML comment runs to the end of its line
        elif char in "[{":
            depth += 1
            if depth > DEEPEST:
                raise InputError(f"lists or tables nested more than {DEEPEST} levels deep",
                                 file=file, line=line)
        elif char in "]}":
            depth = max(0, depth - 1)
