"""Test settings. On CI (the CI variable set), Hypothesis runs derandomized, so that a run
is reproducible; elsewhere it explores new examples each time."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
