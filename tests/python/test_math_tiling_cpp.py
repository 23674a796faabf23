"""The maths library's host queries in CANN's C++ tiling header
(include/ascendc/tiling/math_tiling.h): ``AscendC::GetXxxMaxMinTmpSize`` and
``GetXxxTmpBufferFactorSize`` give the sizes CANN's asc-devkit computes
(impl/adv_api/tiling/math), worked out here by hand for each form of floor,
and leave their outputs alone for an empty shape."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("c++") is None, reason="no C++ compiler")

PROGRAM = r"""
#include <cstdio>
#include <vector>
#include "tiling/tiling_api.h"

#define SIZES(API, DIMS, TYPE_SIZE, REUSE)                                         \
  do {                                                                           \
    ge::Shape shape(std::vector<int64_t> DIMS);                                  \
    uint32_t maxValue = 7, minValue = 7, live = 7, extra = 7;                    \
    AscendC::Get##API##MaxMinTmpSize(shape, TYPE_SIZE, REUSE, maxValue, minValue); \
    AscendC::Get##API##TmpBufferFactorSize(TYPE_SIZE, live, extra);              \
    std::printf("%s %u %u %u %u\n", #API, maxValue, minValue, live, extra);      \
  } while (0)

int main() {
  SIZES(Acosh, ({8192}), 4, false);
  SIZES(Acosh, ({8192}), 2, false);
  SIZES(Acosh, ({10}), 4, false);
  SIZES(Ceil, ({100}), 2, false);
  SIZES(Ceil, ({1000}), 4, false);
  SIZES(Xor, ({100}), 2, false);
  SIZES(Sign, ({2, 5}), 4, false);
  SIZES(Cos, ({1000}), 4, true);
  SIZES(Cos, ({1000}), 4, false);
  SIZES(Lgamma, ({10}), 2, false);
  SIZES(Frac, ({512}), 4, false);
  SIZES(Axpy, ({512}), 2, false);
  SIZES(Atan, ({0}), 4, false);
  return 0;
}
"""

#: API, then maxValue, minValue, maxLiveNodeCount, extraBuf, by CANN's formulas
EXPECTED = [
    # max(factor * count, 256) * typeSize; float 1, half 2
    ("Acosh", 8192 * 4, 256, 1, 0),
    ("Acosh", 2 * 8192 * 2, 512, 2, 0),
    ("Acosh", 256 * 4, 256, 1, 0),  # the floor in elements, not bytes
    # factor * max(count * typeSize, 256); half 2, float 1
    ("Ceil", 2 * 256, 512, 2, 0),
    ("Ceil", 1000 * 4, 256, 1, 0),
    # factor * count * typeSize, no floor: below the minimum for small inputs
    ("Xor", 100 * 2, 256, 1, 0),
    ("Sign", 3 * 10 * 4, 3 * 256, 3, 0),
    # float: 2 reusing the source, 3 not (the factor query assumes not)
    ("Cos", 2 * 4000, 512, 3, 0),
    ("Cos", 3 * 4000, 768, 3, 0),
    ("Lgamma", 26 * 256, 26 * 256, 26, 0),
    ("Frac", 0, 0, 0, 0),
    ("Axpy", 4 * 1024, 1024, 4, 0),
    # an empty shape: CANN's host assertion returns before writing
    ("Atan", 7, 7, 5, 0),
]


def test_math_tmp_sizes_follow_cann(tmp_path: Path) -> None:
    src = tmp_path / "math_sizes.asc"
    src.write_text(PROGRAM)
    build = subprocess.run([sys.executable, "-m", "pyasc", "asc-compile", str(src), "-o",
                            str(tmp_path / "math_sizes"), "-Wall", "-Wextra", "-Werror"],
                           capture_output=True, text=True, check=False)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(tmp_path / "math_sizes")], capture_output=True, text=True,
                         check=False, timeout=60)
    assert run.returncode == 0, run.stderr
    got = [tuple(line.split()) for line in run.stdout.splitlines()]
    assert got == [tuple(str(v) for v in row) for row in EXPECTED]
