"""Every mutant of `tools/mutants.toml` still applies: its file exists and its snippet
occurs there exactly once (`tools/mutate.py` refuses it otherwise, and a mutation run would
stop there). Moving or reformatting code must carry the mutants along."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_mutant_snippet_occurs_once_in_its_file() -> None:
    mutants = tomllib.loads((ROOT / "tools" / "mutants.toml").read_text())["mutant"]
    assert mutants
    stale = []
    for mutant in mutants:
        path = ROOT / mutant["file"]
        count = path.read_text().count(mutant["old"]) if path.is_file() else -1
        if count != 1:
            stale.append(f"{mutant['id']}: {mutant['file']} ({'missing' if count < 0 else count})")
    assert stale == []
