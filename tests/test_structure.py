"""The structure of a situation is stated once (the catalog, read by
`invariants.structure`), and the scenario reader, which sits below the catalog, uses it
when it is handed the check."""

from __future__ import annotations

import pytest
from shahrazad.invariants.catalog import STRUCTURE
from shahrazad.invariants.structure import catalog_problems, problems
from shahrazad.model.errors import InputError
from shahrazad.model.scenario import parse_scenario

OUTSIDE_AMONG_OTHERS = """\
players = ["Ann", "Bob"]
[[game]]
id = "main"
[[card]]
id = "c1"
owner = "Ann"
at = "outside/Bob"
"""

TOKEN_OUTSIDE = """\
players = ["Ann", "Bob"]
[[game]]
id = "main"
[[card]]
id = "c1"
owner = "Ann"
at = "main/library/Ann"
[[object]]
id = "tok"
kind = "token"
controller = "Ann"
at = "main/battlefield"
"""


def test_reader_without_a_check_reads_what_the_format_allows() -> None:
    parse_scenario(OUTSIDE_AMONG_OTHERS, file="r8.toml")


def test_reader_with_the_check_refuses_at_the_line_of_the_fault() -> None:
    with pytest.raises(InputError) as err:
        parse_scenario(OUTSIDE_AMONG_OTHERS, file="r8.toml", check=problems)
    assert err.value.file == "r8.toml" and err.value.line == 5
    assert "outside the game among Bob's cards" in str(err.value)


def test_catalog_faults_name_the_invariant_its_witness_and_its_rules() -> None:
    situation = parse_scenario(TOKEN_OUTSIDE, file="t.toml", check=problems).situation
    situation.move("tok", situation.outside("Ann"))
    found = catalog_problems(situation)
    assert found and found[0].startswith("structure.only-cards-outside [o = tok]: ")
    assert "CR 400.11" in found[0]
    assert problems(situation) == found


def test_every_structure_invariant_cites_a_rule() -> None:
    """A structural fault always says which rule makes the situation impossible; only the
    model's own sentinels (no game, no player, no object) have none."""
    missing = [inv.id for inv in STRUCTURE if not inv.rules]
    assert missing == ["structure.sentinels"]


