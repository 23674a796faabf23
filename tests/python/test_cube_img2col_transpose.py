"""LoadData3DParamsV2's en_transpose into L0A as CANN documents it for A2:
the whole destination matrix is transposed (each fractal and its place
among the others), for 2-byte (16 x 16 fractals) and 4-byte (16 x 8) data.
The setup is CANN's mmad_load3dv2 example's: A^T (K x M) lies in L1 as NZ,
read as a feature map of one row of K positions with M channels, loaded
transposed into L0A as A; then C = A @ B against NumPy.

Into L0B the load transposes each fractal only, whatever en_transpose says:
B (K x N) in L1 as NZ, read as K positions of N channels, is B in L0B."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import pyasc as asc
from pyasc import jit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cube_helpers import gm_abc, img2col_queues, mmad_to_gm  # noqa: E402
from test_cube_img2col import nz_image, zn_image, zz_image  # noqa: E402

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


@jit
def b_into_l0b(a: asc.GlobalAddress, b: asc.GlobalAddress, out: asc.GlobalAddress, m: int,
               n: int, k: int, kpad: int, npad: int, afrac: int, l0b: asc.ConstExpr[int]):
    """out (m x n) = A @ B, A as L0A's image, B (kpad x npad, padded) given
    as NZ in GM and loaded into L0B with en_transpose set as CANN's
    example sets it; L0B's tensor has l0b bytes."""
    a_gm, b_gm, out_gm = gm_abc(a, b, out)
    pipe = asc.TPipe()
    q1, qa, qb, qc = img2col_queues(pipe, L1_BYTES, L0_BYTES, l0b, L0C_BYTES)
    b1 = q1.alloc_tensor(b.dtype)
    c0 = 32 // b.dtype.sizeof()
    rows = kpad * npad // c0
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, rows, c0, 0, c0, rows, 1, 0))
    q1.enque(b1)
    b1 = q1.deque(b.dtype)
    a2 = qa.alloc_tensor(a.dtype)
    b2 = qb.alloc_tensor(b.dtype)
    # positions: the kpad rows of B; channels: its npad columns
    asc.load_data(b2, b1, asc.LoadData3DParamsV2([0, 0, 0, 0], 1, kpad, npad, npad, kpad, 0, 0,
                                                 1, 1, 1, 1, 1, 1, True, 0))
    asc.load_data(a2, a_gm, asc.LoadData2DParams(0, afrac, 1, 0, 0, False))
    mmad_to_gm(out_gm, qa, qb, qc, a2, b2, m, n, k)


B_INTO_L0B_CHECKED = asc.jit(b_into_l0b.fn, debug=True)


def _b_into_l0b(dtype, c0, l0b=L0_BYTES, checked=False):
    """CANN's mmad_load3dv2 shapes: N = 70 channels (72 for float32, whose
    last fractal of each row of L0B is half written), K = 40 positions;
    the kernel's result and A @ B."""
    rng = np.random.default_rng(42)
    m, n, k = 32, 70, 40
    kpad, npad = (k + 15) // 16 * 16, (n + c0 - 1) // c0 * c0
    a = (rng.integers(-8, 9, (m, k)) / 4).astype(dtype)
    b = (rng.integers(-8, 9, (k, n)) / 8).astype(dtype)
    a_pad = np.zeros((m, (k + c0 - 1) // c0 * c0), dtype)  # as mmad reads L0A
    a_pad[:m, :k] = a
    b_pad = np.zeros((kpad, npad), dtype)
    b_pad[:k, :n] = b
    out = np.zeros((m, n), np.float32)
    kernel = B_INTO_L0B_CHECKED if checked else b_into_l0b
    kernel[1](zz_image(a_pad, c0), nz_image(b_pad, c0), out, m, n, k, kpad, npad,
              a_pad.size // (16 * c0), l0b)
    return out, a.astype(np.float32) @ b.astype(np.float32)


@pytest.mark.parametrize("dtype, c0", [(np.float16, 16), (np.float32, 8)])
def test_load_into_l0b_keeps_b(dtype, c0):
    np.testing.assert_array_equal(*_b_into_l0b(dtype, c0))


def test_float_l0b_tensor_sized_as_cann_sizes_it():
    """CANN's example sizes the float32 L0B tensor k (48) x n aligned to 8
    (72) = 13824 bytes; the load writes 6 rows of 5 fractals, the last half
    written (15104 bytes). The default mode runs it as the hardware does;
    checked mode reports it."""
    np.testing.assert_array_equal(*_b_into_l0b(np.float32, 8, l0b=48 * 72 * 4))
    with pytest.raises(asc.KernelError, match=r"img2col writes 15104 bytes from byte 0 past its "
                                              r"destination \(13824 bytes\)"):
        _b_into_l0b(np.float32, 8, l0b=48 * 72 * 4, checked=True)
