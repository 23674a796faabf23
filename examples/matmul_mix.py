"""C = A @ B with asc.adv.Matmul in a mixed (vector + cube) kernel, in the
shape of PyAsc's matmul_mix tutorial: a launch of groups (one AIC, two AIVs)
where each AIV drives the Matmul; the host tiling spreads the output over
the AIVs. fp16 inputs, float32 result; A and B may be given transposed."""

from typing import Tuple

import numpy as np

import asc
import asc.lib.host as host
import asc.lib.runtime as rt

USE_CORE_NUM = 48


@asc.jit
def matmul_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                  tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress,
                  trans_a: asc.ConstExpr[bool], trans_b: asc.ConstExpr[bool]) -> None:
    off_a, off_b, off_c, tail_m, tail_n = block_offsets(tiling, trans_a, trans_b)
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a + off_a)
    b_gm.set_global_buffer(b + off_b)
    c_gm.set_global_buffer(c + off_c)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(
        a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype, trans_a),
        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype, trans_b),
        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype),
    )
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    if asc.get_block_idx() < tiling.used_core_num:
        mm.set_tensor_a(a_gm, trans_a)
        mm.set_tensor_b(b_gm, trans_b)
        mm.set_tail(tail_m, tail_n)
        mm.iterate_all(c_gm)
        mm.end()
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


@asc.jit
def block_offsets(tiling: asc.adv.TCubeTiling, trans_a: bool,
                  trans_b: bool) -> Tuple[int, int, int, int, int]:
    """This core's part of A, B and C, and its size at the matrix's edges."""
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
    tail_m = tiling.m - m_idx * tiling.single_core_m
    if tail_m >= tiling.single_core_m:
        tail_m = tiling.single_core_m
    tail_n = tiling.n - n_idx * tiling.single_core_n
    if tail_n >= tiling.single_core_n:
        tail_n = tiling.single_core_n
    return off_a, off_b, off_c, tail_m, tail_n


def make_tiling(m: int, n: int, k: int, cores: int = USE_CORE_NUM, trans_a: bool = False,
                trans_b: bool = False, in_type: int = host.DataType.DT_FLOAT16) -> asc.adv.TCubeTiling:
    """The host tiling over `cores` AIVs (two per group of a mixed launch)."""
    tiler = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    tiler.set_a_type(host.TPosition.GM, host.CubeFormat.ND, in_type, trans_a)
    tiler.set_b_type(host.TPosition.GM, host.CubeFormat.ND, in_type, trans_b)
    tiler.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    tiler.set_dim(cores)
    tiler.set_org_shape(m, n, k)
    tiler.set_shape(m, n, k)
    tiler.enable_bias(False)
    tiler.set_buffer_space(-1, -1, -1)
    tiling = asc.adv.TCubeTiling()
    if tiler.get_tiling(tiling) == -1:
        raise RuntimeError("no tiling for this shape")
    return tiling


def matmul(a: np.ndarray, b: np.ndarray, tiling: asc.adv.TCubeTiling, trans_a: bool = False,
           trans_b: bool = False) -> np.ndarray:
    """op(a) @ op(b) in float32, op transposing the stored matrix if asked."""
    c = np.zeros((tiling.m, tiling.n), np.float32)
    workspace = np.zeros(1024, np.uint8)
    groups = (tiling.used_core_num + 1) // 2  # AIVs past used_core_num skip the Matmul
    matmul_kernel[groups, rt.current_stream()](a, b, c, tiling, workspace, trans_a, trans_b)
    return c


if __name__ == "__main__":
    m, n, k = 512, 1024, 512
    rng = np.random.default_rng(0)
    a = rng.integers(-5, 5, (m, k)).astype(np.float16)
    b = rng.integers(-5, 5, (k, n)).astype(np.float16)
    c = matmul(a, b, make_tiling(m, n, k))
    assert np.array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    print("matmul_mix: exact on", (m, n, k))
