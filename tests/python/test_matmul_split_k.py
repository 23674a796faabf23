"""K split over cores: MultiCoreMatmulTiling.enable_multi_core_split_k lets
the host tiling cut K too; each core's Matmul adds its part of C into
zeroed global memory (iterate_all / get_tensor_c with en_atomic=1), as
upstream documents. Against NumPy, with the tiling's invariants."""

from __future__ import annotations

from typing import Tuple

import numpy as np
import pytest

import asc
import pyasc
from asc.lib import host

from cube_helpers import (gm_matmul_bias, gm_tiler, ref_matmul, square_matmul, take_tiling,
                          workspace)


@asc.jit
def split_offsets(tiling: asc.adv.TCubeTiling) -> Tuple[int, int, int, int, int, int, int]:
    """Block i's (m, n, k) part: M fastest, then N, then K."""
    idx = asc.get_block_idx()
    m_blocks = tiling.m.ceildiv(tiling.single_core_m)
    n_blocks = tiling.n.ceildiv(tiling.single_core_n)
    m_idx = idx % m_blocks
    n_idx = idx // m_blocks % n_blocks
    k_idx = idx // (m_blocks * n_blocks)
    off_a = m_idx * tiling.single_core_m * tiling.k_a + k_idx * tiling.single_core_k
    off_b = k_idx * tiling.single_core_k * tiling.n + n_idx * tiling.single_core_n
    off_c = m_idx * tiling.single_core_m * tiling.n + n_idx * tiling.single_core_n
    tail_m = min(tiling.single_core_m, tiling.m - m_idx * tiling.single_core_m)
    tail_n = min(tiling.single_core_n, tiling.n - n_idx * tiling.single_core_n)
    tail_k = min(tiling.single_core_k, tiling.k_a - k_idx * tiling.single_core_k)
    return off_a, off_b, off_c, tail_m, tail_n, tail_k, k_idx


@asc.jit(matmul_cube_only=True)
def split_k_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                   bias: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                   workspace: asc.GlobalAddress, with_form: asc.ConstExpr[bool]):
    off_a, off_b, off_c, tail_m, tail_n, tail_k, k_idx = split_offsets(tiling)
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    bias_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a + off_a)
    b_gm.set_global_buffer(b + off_b)
    c_gm.set_global_buffer(c + off_c)
    bias_gm.set_global_buffer(bias)
    pipe = asc.TPipe()
    mm = gm_matmul_bias(pipe, workspace, tiling, a_gm, b_gm, c_gm, bias_gm)
    if asc.get_block_idx() < tiling.used_core_num:
        mm.set_tensor_a(a_gm)
        mm.set_tensor_b(b_gm)
        if k_idx == 0:  # one part of K carries the bias
            mm.set_bias(bias_gm[off_c % tiling.n:])
        mm.set_tail(tail_m, tail_n, tail_k)
        if with_form:
            with mm.iterate() as count:
                mm.get_tensor_c(c_gm, en_atomic=1)
        else:
            mm.iterate_all(c_gm, en_atomic=1)
        mm.end()


def _tiling(m: int, n: int, k: int, dim: int, split: bool) -> asc.adv.TCubeTiling:
    tiler = gm_tiler(m, n, k, bias_type=host.DataType.DT_FLOAT, dim=dim)
    tiler.enable_multi_core_split_k(split)
    return take_tiling(tiler)


def _k_parts(t) -> int:
    return -(-t.k_a // t.single_core_k)


@pytest.mark.parametrize("m,n,k,dim", [(32, 32, 2048, 8), (40, 24, 1000, 6), (64, 64, 4096, 24),
                                       (200, 72, 640, 12)])
def test_split_k_tiling_covers_k(m, n, k, dim):
    plain = _tiling(m, n, k, dim, False)
    assert plain.single_core_k == k
    t = _tiling(m, n, k, dim, True)
    parts = _k_parts(t)
    assert t.used_core_num == (-(-m // t.single_core_m)) * (-(-n // t.single_core_n)) * parts
    assert t.used_core_num <= dim
    assert t.single_core_k % 16 == 0 or t.single_core_k == k
    assert (parts - 1) * t.single_core_k < k <= parts * t.single_core_k


# Shapes where Ascend C's search does split K (with a narrow N it keeps the last
# candidate of its core search, which leaves K whole: 32 x 32 x 2048 on 8 cores).
@pytest.mark.parametrize("m,n,k,dim,form", [(16, 24, 1000, 6, True), (40, 256, 640, 12, False),
                                            (40, 256, 1000, 8, False)])
def test_split_k_matmul_matches_numpy(m, n, k, dim, form):
    tiling = _tiling(m, n, k, dim, True)
    assert _k_parts(tiling) > 1  # K is really split
    rng = np.random.default_rng(m + k)
    a = (rng.integers(-8, 9, (m, k)) / 4).astype(np.float16)
    b = (rng.integers(-8, 9, (k, n)) / 8).astype(np.float16)
    bias = rng.integers(-5, 5, n).astype(np.float32)
    c = np.zeros((m, n), np.float32)  # zeroed first, as upstream requires
    split_k_kernel[tiling.used_core_num](a, b, c, bias, tiling, workspace(), form)
    np.testing.assert_array_equal(c, ref_matmul(a, b) + bias)


def test_atomic_adds_onto_what_is_there():
    """en_atomic=1 adds: C not zeroed keeps its old values in the sum."""
    m, n, k = 32, 32, 256
    tiling = _tiling(m, n, k, 1, False)
    a = np.ones((m, k), np.float16)
    b = np.ones((k, n), np.float16)
    c = np.full((m, n), 5, np.float32)
    split_k_kernel[1](a, b, c, np.zeros(n, np.float32), tiling, workspace(), False)
    np.testing.assert_array_equal(c, np.full((m, n), 5 + k, np.float32))


@asc.jit(matmul_cube_only=True)
def bad_atomic(a: asc.GlobalAddress, tiling: asc.adv.TCubeTiling):
    a_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    mm = square_matmul(a_gm)
    mm.init(tiling)
    mm.iterate_all(a_gm, en_atomic=7)


def test_bad_en_atomic_is_a_compile_error():
    with pytest.raises(pyasc.CompileError, match="en_atomic must be 0"):
        bad_atomic[1](np.zeros(16, np.float16), _tiling(16, 16, 16, 1, False))


def test_atomic_ascendc_form():
    tiling = _tiling(32, 32, 2048, 8, True)
    src = split_k_kernel.ascendc(np.zeros((32, 2048), np.float16), np.zeros((2048, 32), np.float16),
                                 np.zeros((32, 32), np.float32), np.zeros(32, np.float32), tiling,
                                 workspace(), False)
    assert "IterateAll(" in src and "static_cast<uint8_t>(1)" in src
