"""Prints per-file pass/fail/skip/error counts from pytest JUnit XML files
(tools/upstream-suite.sh), and a total line.
usage: python tools/upstream_counts.py REPORT.xml..."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict


def outcome(case: ET.Element) -> str:
    """passed, failed, error or skipped, as pytest reports one test case."""
    for kind in ("failure", "error", "skipped"):
        if case.find(kind) is not None:
            return {"failure": "failed"}.get(kind, kind)
    return "passed"


def tally(paths: list[str]) -> dict[str, Counter]:
    """Counts per test file over the reports."""
    files: dict[str, Counter] = defaultdict(Counter)
    for path in paths:
        for case in ET.parse(path).iter("testcase"):
            # xunit1 reports carry the file; a collection error has none.
            name = case.get("file") or case.get("classname", "?").replace(".", "/") + ".py"
            files[name][outcome(case)] += 1
    return files


def main(paths: list[str]) -> int:
    """Prints the table; returns 1 when anything failed or errored."""
    files = tally(paths)
    total: Counter = Counter()
    for name in sorted(files):
        c = files[name]
        total.update(c)
        print(f"{name:70} {c['passed']:4} passed {c['failed']:3} failed "
              f"{c['error']:3} errors {c['skipped']:3} skipped")
    print(f"upstream: {total['passed']} passed, {total['failed'] + total['error']} failed, "
          f"{total['skipped']} skipped")
    return 1 if total["failed"] or total["error"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
