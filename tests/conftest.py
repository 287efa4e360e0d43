"""Test settings. On CI (the CI variable set), Hypothesis runs derandomized, so that a run
is reproducible; elsewhere it explores new examples each time. Under the mutation run
(`tools/mutate.py` sets SHAHRAZAD_MUTATION) a failure is a kill: it is not shrunk."""

from __future__ import annotations

import os

from hypothesis import Phase, settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.register_profile("mutation", derandomize=True,
                          phases=[Phase.explicit, Phase.reuse, Phase.generate])
settings.load_profile("mutation" if os.environ.get("SHAHRAZAD_MUTATION")
                      else "ci" if os.environ.get("CI") else "dev")
