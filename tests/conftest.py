"""Test settings. On CI (the CI variable set), Hypothesis runs derandomized, so that a run
is reproducible; elsewhere it explores new examples each time. Under the mutation run
(`tools/mutate.py` sets SHAHRAZAD_MUTATION) a failure is a kill: it is not shrunk."""

from __future__ import annotations

import os

import pytest
from hypothesis import Phase, settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.register_profile("mutation", derandomize=True,
                          phases=[Phase.explicit, Phase.reuse, Phase.generate])
settings.load_profile("mutation" if os.environ.get("SHAHRAZAD_MUTATION")
                      else "ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _no_cache_of_proofs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A developer's SHAHRAZAD_CACHE would make the tests' runs warm runs (docs/cache.md):
    every test runs cold unless it sets a cache itself."""
    monkeypatch.delenv("SHAHRAZAD_CACHE", raising=False)
