"""LoadData3DParamsV2's en_transpose into L0A as CANN documents it for A2:
the whole destination matrix is transposed (each fractal and its place
among the others), for 2-byte (16 x 16 fractals) and 4-byte (16 x 8) data.
The setup is CANN's mmad_load3dv2 example's: A^T (K x M) lies in L1 as NZ,
read as a feature map of one row of K positions with M channels, loaded
transposed into L0A as A; then C = A @ B against NumPy."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import pyasc as asc
from pyasc import jit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cube_helpers import gm_abc, img2col_queues, mmad_to_gm  # noqa: E402
from test_cube_img2col import nz_image, zn_image  # noqa: E402

L1_BYTES, L0_BYTES, L0C_BYTES = 128 * 1024, 64 * 1024, 128 * 1024


@jit
def transposed_a(at: asc.GlobalAddress, b: asc.GlobalAddress, out: asc.GlobalAddress, m: int,
                 n: int, k: int):
    """out (m x n) = A @ B, A^T (k x m) given as NZ in GM, B as L0B's image."""
    at_gm, b_gm, out_gm = gm_abc(at, b, out)
    pipe = asc.TPipe()
    q1, qa, qb, qc = img2col_queues(pipe, L1_BYTES, L0_BYTES, L0_BYTES, L0C_BYTES)
    a1 = q1.alloc_tensor(at.dtype)
    c0 = 32 // at.dtype.sizeof()
    rows = k * m // c0  # the NZ image as one column block of c0: copied as it is
    asc.data_copy(a1, at_gm, asc.Nd2NzParams(1, rows, c0, 0, c0, rows, 1, 0))
    q1.enque(a1)
    a1 = q1.deque(at.dtype)
    a2 = qa.alloc_tensor(at.dtype)
    b2 = qb.alloc_tensor(at.dtype)
    # positions: the k rows of A^T; channels: its m columns
    asc.load_data(a2, a1, asc.LoadData3DParamsV2([0, 0, 0, 0], 1, k, m, m, k, 0, 0, 1, 1, 1, 1,
                                                 1, 1, True, 0))
    asc.load_data(b2, b_gm, asc.LoadData2DParams(0, n * k // (16 * c0), 1, 0, 0, False))
    mmad_to_gm(out_gm, qa, qb, qc, a2, b2, m, n, k)


@pytest.mark.parametrize("dtype, c0", [(np.float16, 16), (np.float32, 8)])
def test_en_transpose_into_l0a_transposes_the_whole_matrix(dtype, c0):
    rng = np.random.default_rng(41)
    m, n, k = 32, 16, 48  # several fractals along both of A's axes
    a = (rng.integers(-8, 9, (m, k)) / 4).astype(dtype)
    b = (rng.integers(-8, 9, (k, n)) / 8).astype(dtype)
    out = np.zeros((m, n), np.float32)
    transposed_a[1](nz_image(a.T.copy(), c0), zn_image(b, c0), out, m, n, k)
    np.testing.assert_array_equal(out, a.astype(np.float32) @ b.astype(np.float32))
