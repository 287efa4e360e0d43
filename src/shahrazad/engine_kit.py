"""Engine authors' commands (`generate`, `conform`); being written (issue 11)."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []
