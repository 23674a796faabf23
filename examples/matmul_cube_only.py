"""C = A @ B (+ bias) with asc.adv.Matmul on the cube alone, in the shape
of PyAsc's matmul_cube_only tutorial: the host tiling (asc.lib.host) cuts
the output over the cores, each core's Matmul walks its part in base
blocks; fp16 inputs, float32 result."""

from typing import Tuple

import numpy as np

import asc
import asc.lib.host as host
import asc.lib.runtime as rt

USE_CORE_NUM = 24
IS_TRANS_A = False
IS_TRANS_B = False
ENABLE_BIAS = True


@asc.jit(matmul_cube_only=True)
def matmul_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                  bias: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                  workspace: asc.GlobalAddress) -> None:
    if asc.ascend_is_aic():
        off_a, off_b, off_c, off_bias, tail_m, tail_n = block_offsets(tiling, IS_TRANS_A,
                                                                      IS_TRANS_B)
        a_gm = asc.GlobalTensor()
        b_gm = asc.GlobalTensor()
        c_gm = asc.GlobalTensor()
        bias_gm = asc.GlobalTensor()
        a_gm.set_global_buffer(a + off_a)
        b_gm.set_global_buffer(b + off_b)
        c_gm.set_global_buffer(c + off_c)
        bias_gm.set_global_buffer(bias + off_bias)
        pipe = asc.TPipe()
        mm = asc.adv.Matmul(
            a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype, IS_TRANS_A),
            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype, IS_TRANS_B),
            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype),
            bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bias_gm.dtype),
        )
        asc.adv.register_matmul(pipe, workspace, mm, tiling)
        if asc.get_block_idx() < tiling.used_core_num:
            mm.set_tensor_a(a_gm, IS_TRANS_A)
            mm.set_tensor_b(b_gm, IS_TRANS_B)
            if tiling.is_bias:
                mm.set_bias(bias_gm)
            mm.set_tail(tail_m, tail_n, tiling.k_a)
            mm.iterate_all(c_gm)
            mm.end()
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


@asc.jit
def block_offsets(tiling: asc.adv.TCubeTiling, trans_a: bool = False,
                  trans_b: bool = False) -> Tuple[int, int, int, int, int, int]:
    """Where this core's single_core_m x single_core_n part starts in A, B,
    C and the bias, and its size (smaller at the matrix's edges)."""
    idx = asc.get_block_idx()
    m_blocks = tiling.m.ceildiv(tiling.single_core_m)
    m_idx = idx % m_blocks
    n_idx = idx // m_blocks
    off_a = m_idx * tiling.single_core_m * tiling.k_a
    if trans_a:
        off_a = m_idx * tiling.single_core_m
    off_b = n_idx * tiling.single_core_n
    if trans_b:
        off_b = n_idx * tiling.single_core_n * tiling.k_b
    off_c = m_idx * tiling.single_core_m * tiling.n + n_idx * tiling.single_core_n
    off_bias = n_idx * tiling.single_core_n
    tail_m = tiling.m - m_idx * tiling.single_core_m
    if tail_m <= 0 or tail_m >= tiling.single_core_m:
        tail_m = tiling.single_core_m
    tail_n = tiling.n - n_idx * tiling.single_core_n
    if tail_n <= 0 or tail_n >= tiling.single_core_n:
        tail_n = tiling.single_core_n
    return off_a, off_b, off_c, off_bias, tail_m, tail_n


def make_tiling(m: int, n: int, k: int, cores: int = USE_CORE_NUM, bias: bool = ENABLE_BIAS,
                trans_a: bool = IS_TRANS_A, trans_b: bool = IS_TRANS_B,
                in_type: int = host.DataType.DT_FLOAT16) -> asc.adv.TCubeTiling:
    """The host tiling of an m x n x k matmul over `cores` cores."""
    tiler = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    tiler.set_a_type(host.TPosition.GM, host.CubeFormat.ND, in_type, trans_a)
    tiler.set_b_type(host.TPosition.GM, host.CubeFormat.ND, in_type, trans_b)
    tiler.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    tiler.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    tiler.set_dim(cores)
    tiler.set_org_shape(m, n, k)
    tiler.set_shape(m, n, k)
    tiler.enable_bias(bias)
    tiler.set_buffer_space(-1, -1, -1)
    tiling = asc.adv.TCubeTiling()
    if tiler.get_tiling(tiling) == -1:
        raise RuntimeError("no tiling for this shape")
    return tiling


def matmul(a: np.ndarray, b: np.ndarray, bias: np.ndarray, tiling: asc.adv.TCubeTiling) -> np.ndarray:
    """a @ b + bias (float32) on the simulated cube."""
    c = np.zeros((tiling.m, tiling.n), np.float32)
    workspace = np.zeros(1024, np.uint8)
    matmul_kernel[tiling.used_core_num, rt.current_stream()](a, b, c, bias, tiling, workspace)
    return c


if __name__ == "__main__":
    m, k, n = 128, 64, 3072
    rng = np.random.default_rng(0)
    a = rng.integers(-5, 5, (m, k)).astype(np.float16)
    b = rng.integers(-5, 5, (k, n)).astype(np.float16)
    bias = rng.integers(-5, 5, n).astype(np.float32)
    c = matmul(a, b, bias, make_tiling(m, n, k))
    ref = a.astype(np.float32) @ b.astype(np.float32) + bias
    assert np.array_equal(c, ref)
    print("matmul_cube_only: exact on", (m, k, n))
