"""Runs pytest on test files with every kernel launch also run as its own
emitted Ascend C on the simulator (tests/python/ascendc_roundtrip.py), and
prints how many launches matched bit for bit, which kernels did not, and
which the simulator's kernel_operator.h cannot build yet.

Usage: PYTHONPATH=build/dev/stage python tools/ascendc_roundtrip.py \\
           tests/python/test_kernel_api.py [pytest options]
Exit status: pytest's, or 1 if any kernel mismatched.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "python"))
from ascendc_roundtrip import RoundTrip  # noqa: E402


class Plugin:
    """Installs the hook before every test (a test may replace it)."""

    def __init__(self) -> None:
        self.roundtrip = RoundTrip()

    def pytest_runtest_setup(self, item: Any) -> None:
        self.roundtrip.install()

    def pytest_sessionfinish(self, session: Any) -> None:
        self.roundtrip.uninstall()


def main() -> int:
    plugin = Plugin()
    rc = pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]], plugins=[plugin])
    print(plugin.roundtrip.report())
    return int(rc) or (1 if plugin.roundtrip.mismatched else 0)


if __name__ == "__main__":
    sys.exit(main())
