"""The console script starts the first proof worker only for a cold `verify` or `amend`."""

from __future__ import annotations

import os

import pytest

from shahrazad.launch import workers_wanted

CORES = os.cpu_count() or 1


@pytest.fixture(autouse=True)
def _no_cache_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SHAHRAZAD_CACHE", raising=False)


@pytest.mark.parametrize(("args", "jobs"), [
    (["verify"], CORES),
    (["amend", "a.toml", "--jobs", "3"], 3),
    (["verify", "--jobs=1", "--only", "x"], 1),
    (["verify", "--jobs", "0"], CORES),        # refused later by the command line proper
    (["verify", "--jobs"], CORES),
    (["verify", "--jobs", "²"], CORES),        # a digit to Python, no number to int()
    (["verify", "--cache", "d", "--no-cache"], CORES),
    (["verify", "--cache", "d"], None),        # a warm run may need no worker
    (["verify", "--cache=d"], None),
    (["verify", "--help"], None),
    (["simulate", "s.toml"], None),
    (["--version"], None),
    ([], None),
])
def test_which_command_lines_start_a_worker(args: list[str], jobs: int | None) -> None:
    assert workers_wanted(args) == jobs


def test_the_cache_variable_counts_as_a_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHAHRAZAD_CACHE", "/somewhere")
    assert workers_wanted(["verify"]) is None
    assert workers_wanted(["verify", "--no-cache"]) == CORES
