"""Counts what run_plugin.py saw (its results.*.json under UPA_OUT): tests
that passed on Huawei's Ascend C, failed on it, or had no Ascend C.
Usage: python summary.py UPA_OUT. Exit status 1 if any test failed."""

from __future__ import annotations

import glob
import json
import os
import sys


def main() -> int:
    out = sys.argv[1]
    results: dict[str, dict] = {}
    for path in sorted(glob.glob(os.path.join(out, "results.*.json"))):
        with open(path, encoding="utf-8") as f:
            results.update(json.load(f))
    ran = {k: v for k, v in results.items() if v["used"]}
    passed = [k for k, v in ran.items() if v["outcome"] == "passed"]
    failed = {k: v for k, v in results.items() if v["outcome"] != "passed"}
    none = [k for k, v in results.items() if not v["used"] and v["outcome"] == "passed"]
    for k, v in sorted(failed.items()):
        print(f"FAILED {k}: {v.get('why', v['outcome'])}")
    for k in sorted(none):
        print(f"no Ascend C from Huawei's PyAsc (passed on pyasc's own build): {k}")
    print(f"Huawei's Ascend C: {len(passed)} tests passed on it, {len(failed)} failed, "
          f"{len(none)} had none")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
