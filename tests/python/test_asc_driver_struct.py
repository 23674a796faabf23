"""A kernel parameter that is a struct passed by value (a tiling, as CANN's
examples pass theirs): through a ``.asc`` launch (``python -m pyasc
asc-compile``) it travels as a copy of its bytes taken at the launch, and
through ``pyasc.ascendc.load`` as an array holding its bytes; results
compared with NumPy."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None, reason="no C++ compiler")

KERNEL = r"""
struct Tiling {
    uint32_t perBlock;
    float scale;
    int32_t shift[3];
};

// z[i] = x[i] * scale + shift[block % 3] over each block's perBlock elements
__global__ __aicore__ void scale_shift(GM_ADDR x, GM_ADDR z, Tiling t)
{
    AscendC::GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + t.perBlock * AscendC::GetBlockIdx(), t.perBlock);
    zg.SetGlobalBuffer((__gm__ float *)z + t.perBlock * AscendC::GetBlockIdx(), t.perBlock);
    for (uint32_t i = 0; i < t.perBlock; ++i)
        zg.SetValue(i, xg.GetValue(i) * t.scale + (float)t.shift[AscendC::GetBlockIdx() % 3]);
}
"""

PROGRAM = r"""
#include <cstdio>
#include "acl/acl.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
""" + KERNEL + r"""
int main()
{
    const uint32_t blocks = 4, per = 8, n = blocks * per;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    float xh[n], zh[n];
    for (uint32_t i = 0; i < n; ++i) xh[i] = (float)i - 10.0f;
    void *x = nullptr, *z = nullptr;
    aclrtMalloc(&x, sizeof xh, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&z, sizeof zh, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, sizeof xh, xh, sizeof xh, ACL_MEMCPY_HOST_TO_DEVICE);
    Tiling t{per, 0.5f, {1, -2, 3}};
    scale_shift<<<blocks, nullptr, stream>>>((uint8_t *)x, (uint8_t *)z, t);
    t.scale = 100.0f;  // the launch took its copy already
    int rc = aclrtSynchronizeStream(stream);
    aclrtMemcpy(zh, sizeof zh, z, sizeof zh, ACL_MEMCPY_DEVICE_TO_HOST);
    for (uint32_t i = 0; i < n; ++i) printf("%.3f\n", zh[i]);
    aclrtFree(x);
    aclrtFree(z);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return rc;
}
"""


def _expected(blocks: int, per: int) -> np.ndarray:
    x = np.arange(blocks * per, dtype=np.float64) - 10.0
    shift = np.repeat(np.array([1, -2, 3, 1])[:blocks], per)
    return x * 0.5 + shift


def test_a_struct_passed_by_value_in_a_launch(tmp_path: Path) -> None:
    (tmp_path / "tiling.asc").write_text(PROGRAM)
    built = subprocess.run([sys.executable, "-m", "pyasc", "asc-compile", "tiling.asc", "-o",
                            "tiling"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    run = subprocess.run([str(tmp_path / "tiling")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    got = np.array([float(v) for v in run.stdout.split()])
    np.testing.assert_array_equal(got, _expected(4, 8))


SOURCE = '#include "kernel_operator.h"\n' + KERNEL


def test_a_struct_parameter_takes_an_array_of_its_bytes_from_python() -> None:
    tiling = np.zeros(1, [("perBlock", "<u4"), ("scale", "<f4"), ("shift", "<i4", (3,))])
    tiling[0] = (8, 0.5, (1, -2, 3))
    x = np.arange(32, dtype=np.float32) - 10
    z = np.zeros_like(x)
    pyasc.ascendc.load(SOURCE, "scale_shift")[4](x, z, tiling.view(np.uint8))
    np.testing.assert_array_equal(z, _expected(4, 8))


def test_a_struct_parameter_with_too_few_bytes_is_an_error() -> None:
    kernel = pyasc.ascendc.load(SOURCE, "scale_shift")
    with pytest.raises(pyasc.KernelError, match="struct parameter passed by value"):
        kernel[1](np.zeros(8, np.float32), np.zeros(8, np.float32), np.zeros(4, np.uint8))
