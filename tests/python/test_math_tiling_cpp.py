"""The maths library's host queries in CANN's C++ tiling header
(include/ascendc/tiling/math_tiling.h): ``AscendC::GetXxxMaxMinTmpSize`` and
``GetXxxTmpBufferFactorSize`` give the sizes CANN's asc-devkit computes
(impl/adv_api/tiling/math and activation), worked out here by hand for each
form of floor, and leave their outputs alone for an empty shape."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from host_program import run_host_program

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
  SIZES(Sigmoid, ({100}), 2, false);
  SIZES(GeGLU, ({100}), 2, false);
  SIZES(Fmod, ({1000}), 4, false);
  SIZES(Fmod, ({1000}), 2, false);
  {
    ge::Shape shape(std::vector<int64_t>{1000});
    uint32_t maxValue = 0, minValue = 0, live = 7, extra = 7;
    AscendC::GetGeluMaxMinTmpSize(shape, 2, maxValue, minValue);
    std::printf("Gelu %u %u %u %u\n", maxValue, minValue, AscendC::GetGeluMaxTmpSize(shape, 4),
                AscendC::GetGeluMinTmpSize(shape, 4));
    AscendC::GetClampMaxMinTmpSize(shape, 2, false, maxValue, minValue);
    AscendC::GetClampTmpBufferFactorSize(2, live, extra);
    std::printf("Clamp %u %u %u %u\n", maxValue, minValue, live, extra);
    AscendC::GetClampMaxMinTmpSize(ge::Shape(std::vector<int64_t>{10}), 4, false, maxValue,
                                   minValue);
    AscendC::GetSwishTmpSize(shape, 4, false, live, extra);
    std::printf("Clamp %u %u %u %u\n", maxValue, minValue, live, extra);
    AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape(std::vector<int64_t>{1008}), 2, maxValue,
                                         minValue);
    AscendC::GetAscendQuantTmpBufferFactorSize(live, extra);
    std::printf("AscendQuant %u %u %u %u\n", maxValue, minValue, live, extra);
    maxValue = minValue = 7;  // 100 halves are not 32-byte aligned: refused
    AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape(std::vector<int64_t>{100}), 2, maxValue,
                                         minValue);
    std::printf("AscendQuant %u %u %u %u\n", maxValue, minValue, live, extra);
    AscendC::GetSumMaxMinTmpSize(5000, 4, false, maxValue, minValue);
    AscendC::GetSumMaxMinTmpSize(100, 2, false, live, extra);
    std::printf("Sum %u %u %u %u\n", maxValue, minValue, live, extra);
    AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape(std::vector<int64_t>{128, 32}), 4, maxValue,
                                           minValue);
    std::printf("AscendDequant %u %u 0 0\n", maxValue, minValue);
    const ge::Shape src(std::vector<int64_t>{8, 64}), one(std::vector<int64_t>{1});
    AscendC::GetSelectMaxMinTmpSize(src, one, 4, ge::Shape(std::vector<int64_t>{8, 64}), 1, false,
                                    maxValue, minValue);
    AscendC::GetSelectMaxMinTmpSize(one, src, 4, ge::Shape(std::vector<int64_t>{8, 96}), 1, false,
                                    live, extra);
    std::printf("Select %u %u %u %u\n", maxValue, minValue, live, extra);
    const ge::Shape rows(std::vector<int64_t>{32, 136});
    AscendC::GetReduceMaxMaxMinTmpSize(rows, ge::DT_FLOAT, AscendC::ReducePattern::RA, true, false,
                                       maxValue, minValue);
    AscendC::GetReduceMinMaxMinTmpSize(rows, ge::DT_FLOAT16, AscendC::ReducePattern::AR, true,
                                       false, live, extra);
    std::printf("ReduceMax %u %u %u %u\n", maxValue, minValue, live, extra);
    AscendC::GetReduceMaxMaxMinTmpSize(ge::Shape(std::vector<int64_t>{4, 8}), ge::DT_FLOAT,
                                       AscendC::ReducePattern::AR, true, false, maxValue, minValue);
    AscendC::GetReduceMaxMaxMinTmpSize(rows, ge::DT_FLOAT, AscendC::ReducePattern::AR, true, true,
                                       live, extra);
    std::printf("ReduceMax %u %u %u %u\n", maxValue, minValue, live, extra);
    maxValue = minValue = 7;  // isSrcInnerPad false is refused on dav-2201
    AscendC::GetReduceMaxMaxMinTmpSize(rows, ge::DT_FLOAT, AscendC::ReducePattern::AR, false,
                                       false, maxValue, minValue);
    std::printf("ReduceMax %u %u 0 0\n", maxValue, minValue);
    AscendC::GetDropOutMaxMinTmpSize(ge::Shape(std::vector<int64_t>{4, 256}), 4, false, maxValue,
                                     minValue);
    std::printf("DropOut %u %u %u 0\n", maxValue, minValue,
                AscendC::GetDropOutMaxTmpSize(ge::Shape(std::vector<int64_t>{8}), 2, false));
    const ge::Shape kn(std::vector<int64_t>{8, 128}), perN(std::vector<int64_t>{1, 128});
    AscendC::GetAscendAntiQuantMaxMinTmpSize(kn, perN, false, ge::DT_INT8, ge::DT_BF16, maxValue,
                                             minValue);
    AscendC::GetAscendAntiQuantMaxMinTmpSize(kn, perN, false, ge::DT_INT8, ge::DT_FLOAT16, live,
                                             extra);
    std::printf("AscendAntiQuant %u %u %u %u\n", maxValue, minValue, live, extra);
    AscendC::GetAscendAntiQuantMaxMinTmpSize(kn, ge::Shape(std::vector<int64_t>{1}), false,
                                             ge::DT_INT8, ge::DT_BF16, maxValue, minValue);
    AscendC::GetAscendAntiQuantMaxMinTmpSize(kn, perN, true, ge::DT_INT8, ge::DT_BF16, live,
                                             extra);
    std::printf("AscendAntiQuant %u %u %u %u\n", maxValue, minValue, live, extra);
  }
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
    # Ascend C's own APIs: Sigmoid one buffer, GeGLU 4 half ones, Fmod Trunc's and 6 more
    # for half
    ("Sigmoid", 256, 256, 1, 0),
    ("GeGLU", 4 * 256, 4 * 256, 4, 0),
    ("Fmod", 4000, 256, 1, 0),
    ("Fmod", 8 * 2000, 8 * 256, 8, 0),
    # Gelu: 3 float32 buffers for either type; Clamp a byte an element, at least 128 (half)
    # or 64 (float); Swish none
    ("Gelu", 3 * 4000, 768, 3 * 4000, 768),
    ("Clamp", 1000, 128, 1, 0),
    ("Clamp", 64, 64, 0, 0),
    # AscendQuant: 2 bytes an element, in 32-byte blocks, at least 512; an unaligned input
    # refused
    ("AscendQuant", 2016, 512, 2, 0),
    ("AscendQuant", 7, 7, 2, 0),
    # Sum: a value per repeat in 32-byte blocks: 79 floats -> 80, 1 half -> 16
    ("Sum", 80 * 4, 80 * 4, 32, 32),
    # AscendDequant: float copies of a repeat, the scale (inner + a block) and all rows or one
    ("AscendDequant", (64 + 128 * 32 + 40) * 4, (64 + 32 + 40) * 4, 0, 0),
    # Select: 512 elements in half-width blocks and 512 more; a longer mask row adds the mask
    ("Select", 512 * 2 + 512, 512 * 2 + 512, 512 * 2 + 512 + 512, 512 * 2 + 512 + 512),
    # ReduceMax/Min: RA a 32-byte-aligned row (136 floats) for the power of two below 32 rows
    # (16); AR a repeat a row past a repeat's elements (136 halves > 128)
    ("ReduceMax", 16 * 544, 16 * 544, 32 * 128 * 2, 32 * 128 * 2),
    # a row within a block needs nothing; reusing the source, nothing either
    ("ReduceMax", 0, 0, 0, 0),
    ("ReduceMax", 7, 7, 0, 0),
    # DropOut: two floats an element, at least two repeats
    ("DropOut", 2 * 1024 * 4, 512, 512, 0),
    # AscendAntiQuant: bfloat16 per channel the scale and offset in float and 64 floats a row
    # (8 rows); half output nothing
    ("AscendAntiQuant", (128 * 2 + 64 * 8) * 4, (128 * 2 + 64 * 8) * 4, 0, 0),
    # per tensor (one scale) the source in float, at least 1 KiB; transposed 80 floats a scale
    ("AscendAntiQuant", 1024 * 4, 1024, 80 * 128 * 4, 80 * 128 * 4),
]


def test_math_tmp_sizes_follow_cann(tmp_path: Path) -> None:
    run = run_host_program(tmp_path, "math_sizes", PROGRAM)
    got = [tuple(line.split()) for line in run.stdout.splitlines()]
    assert got == [tuple(str(v) for v in row) for row in EXPECTED]
