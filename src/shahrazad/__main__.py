"""`python -m shahrazad`: the same as the `shahrazad` console script."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
