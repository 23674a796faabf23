"""Mmad with m = 1 as CANN documents it (GEMV): A's K elements lie one after
another in L0A (a 1 x 256 half vector is one 16 x 16 fractal's bytes, loaded
by one load_data), not as row 0 of 16-row fractals; C keeps each 1 x 16
piece in its L0C fractal. Against NumPy."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import pyasc as asc
from pyasc import jit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cube_helpers import gm_abc, img2col_queues  # noqa: E402
from test_cube_img2col import zn_image  # noqa: E402


@jit
def gemv_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, out: asc.GlobalAddress, n: int,
                k: int):
    """out (1 x n) = a (k elements, as they lie) @ B (k x n, L0B's image)."""
    a_gm, b_gm, out_gm = gm_abc(a, b, out)
    pipe = asc.TPipe()
    _, qa, qb, qc = img2col_queues(pipe, 4096, 16384, 32768, 16384)
    a2 = qa.alloc_tensor(a.dtype)
    b2 = qb.alloc_tensor(b.dtype)
    c0 = 32 // a.dtype.sizeof()
    asc.load_data(a2, a_gm, asc.LoadData2DParams(0, (k + 16 * c0 - 1) // (16 * c0), 1, 0, 0,
                                                 False))
    asc.load_data(b2, b_gm, asc.LoadData2DParams(0, n * k // (16 * c0), 1, 0, 0, False))
    qa.enque(a2)
    qb.enque(b2)
    a2 = qa.deque(a.dtype)
    b2 = qb.deque(b.dtype)
    c1 = qc.alloc_tensor(asc.float32)
    asc.mmad(c1, a2, b2, asc.MmadParams(1, n, k))
    qc.enque(c1)
    c1 = qc.deque(asc.float32)
    asc.fixpipe(out_gm, c1, asc.FixpipeParamsV220(n, 1, 16, n))


@pytest.mark.parametrize("dtype, k", [(np.float16, 256), (np.float16, 512), (np.float32, 128)])
def test_m1_reads_a_as_a_contiguous_vector(dtype, k):
    rng = np.random.default_rng(k)
    n = 32
    a = (rng.integers(-8, 9, k) / 4).astype(dtype)
    b = (rng.integers(-8, 9, (k, n)) / 8).astype(dtype)
    out = np.zeros((1, n), np.float32)
    gemv_kernel[1](a, zn_image(b, 32 // np.dtype(dtype).itemsize), out, n, k)
    np.testing.assert_array_equal(out[0], a.astype(np.float32) @ b.astype(np.float32))
