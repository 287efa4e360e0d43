"""Cross-references in rule texts (proofs/references.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from shahrazad.proofs.references import check_references

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "rules"


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/rules is not beside the checkout")
def test_the_wrong_references_of_the_real_rules() -> None:
    """From February 2024 to February 2025 the English CR's restart rule cited itself (724)
    for subgames; the Italian translation of September 2025 cites 727 instead of 728."""
    found = check_references([SHARED])
    where = sorted((Path(f.file).name, f.line) for f in found)
    assert where == [
        ("004_c966f68ad3819fd4.txt", 15),
        ("restart_20240202.txt", 22), ("restart_20240308.txt", 22), ("restart_20240607.txt", 22),
        ("restart_20240730.txt", 22), ("restart_20241108.txt", 22), ("restart_20250207.txt", 22),
    ]
    assert all("for the subgames rule" in f.problem for f in found)


def _history(folder: Path, date: str, subgames: str, restart_cites: str) -> None:
    (folder / f"subgames_{date}.txt").write_text(
        f"RULE: {subgames}. Subgames\n\n{subgames}. Subgames\n\n"
        f"{subgames}.2. No other cards move, except as specified in rules {subgames}.2a–c.\n"
        f"{subgames}.2a One.\n{subgames}.2b Two.\n")
    (folder / f"restart_{date}.txt").write_text(
        "RULE: 700. Restarting the Game\n\n700.6. If a Magic subgame (see rule "
        f"{restart_cites}) is restarted, the main game is unaffected.\n")


def test_a_wrong_companion_and_a_missing_sub_rule(tmp_path: Path) -> None:
    _history(tmp_path, "20300101", "729", "728")
    found = check_references([tmp_path])
    problems = sorted(f.problem for f in found)
    assert problems == ["cites rule 729.2c, which this text does not have",
                        "rule 700.6 cites rule 728 for the subgames rule, which is rule 729 "
                        "in that edition"]


def test_right_references_are_quiet(tmp_path: Path) -> None:
    _history(tmp_path, "20300101", "729", "729")
    (tmp_path / "subgames_20300101.txt").write_text(
        "RULE: 729. Subgames\n\n729.2. Except as specified in rules 729.2a–b.\n729.2a A.\n"
        "729.2b B.\n")
    assert check_references([tmp_path]) == []
