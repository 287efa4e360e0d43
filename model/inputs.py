"""Reading input files (scenarios, rulebooks, amendments) as data, with one-line errors.

Input files are parsed, never executed nor unpickled. Every fault becomes an InputError
naming the file and, where it can be known, the line.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from .errors import InputError


def read_text(path: str | Path) -> str:
    """The file's text; InputError if it cannot be read or is not UTF-8."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", file=str(path)) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", file=str(path)) from None


def toml_error_line(err: tomllib.TOMLDecodeError, text: str) -> tuple[int | None, str]:
    """The line a TOML error is at, and its message without the position."""
    message = str(err)
    m = re.search(r"\(at line (\d+), column \d+\)", message)
    if m:
        return int(m.group(1)), message.replace(m.group(0), "").strip()
    if "end of document" in message:
        return max(1, len(text.splitlines())), message.replace("(at end of document)", "").strip()
    return None, message


def parse_toml(text: str, *, file: str) -> dict[str, Any]:
    """TOML text as data; InputError naming the line of a syntax error."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line, message = toml_error_line(err, text)
        raise InputError(f"not valid TOML: {message}", file=file, line=line) from None
