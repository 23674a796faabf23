"""leaky_relu(A @ B + bias) in the shape of PyAsc's matmul_leakyrelu
tutorial: asc.adv.Matmul computes each base block into the Unified Buffer
(`with mm.iterate() as count:`), the vector unit applies leaky_relu, and a
strided data_copy puts the block at its place in C."""

from typing import Tuple

import numpy as np

import asc
import asc.lib.host as host
import asc.lib.runtime as rt


@asc.jit
def matmul_leakyrelu_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                            bias: asc.GlobalAddress, alpha: float, tiling: asc.adv.TCubeTiling,
                            workspace: asc.GlobalAddress) -> None:
    off_a, off_b, off_c, off_bias = block_offsets(tiling)
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    bias_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a + off_a)
    b_gm.set_global_buffer(b + off_b)
    c_gm.set_global_buffer(c + off_c)
    bias_gm.set_global_buffer(bias + off_bias)
    size = tiling.base_m * tiling.base_n * c.dtype.sizeof()
    pipe = asc.TPipe()
    out_queue = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=out_queue, num=1, len=size)
    mm = asc.adv.Matmul(
        a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype),
        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype),
        c=asc.adv.MatmulType(asc.TPosition.VECCALC, asc.CubeFormat.ND, c_gm.dtype),
        bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bias_gm.dtype),
    )
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    mm.set_bias(bias_gm)
    with mm.iterate() as count:
        out = out_queue.alloc_tensor(c.dtype)
        mm.get_tensor_c(out, en_sequential_write=True)
        asc.leaky_relu(out, out, alpha, count=tiling.base_m * tiling.base_n)
        out_queue.enque(out)
        out = out_queue.deque(c.dtype)
        rounds_m = tiling.single_core_m // tiling.base_m
        start = count % rounds_m * tiling.base_m * tiling.n + count // rounds_m * tiling.base_n
        block = asc.property(asc.DEFAULT_C0_SIZE)
        params = asc.DataCopyParams(
            block_count=tiling.base_m,
            block_len=tiling.base_n * c.dtype.sizeof() // block,
            src_stride=0,
            dst_stride=(tiling.n - tiling.base_n) * c.dtype.sizeof() // block,
        )
        asc.data_copy(c_gm[start:], out, repeat_params=params)
        out_queue.free_tensor(out)
    mm.end()
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


@asc.jit
def block_offsets(tiling: asc.adv.TCubeTiling) -> Tuple[int, int, int, int]:
    idx = asc.get_block_idx()
    m_blocks = tiling.m.ceildiv(tiling.single_core_m)
    m_idx = idx % m_blocks
    n_idx = idx // m_blocks
    off_a = m_idx * tiling.single_core_m * tiling.k_a
    off_b = n_idx * tiling.single_core_n
    off_c = m_idx * tiling.single_core_m * tiling.n + n_idx * tiling.single_core_n
    return off_a, off_b, off_c, n_idx * tiling.single_core_n


def make_tiling(m: int, n: int, k: int, cores: int = 2) -> asc.adv.TCubeTiling:
    """Up to `cores` AIVs (two a group), base blocks of 256 x 128. The
    kernel, like the tutorial's, needs an even core count and each core's
    share of M and N to split into whole base blocks."""
    tiler = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    tiler.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    tiler.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    tiler.set_c_type(host.TPosition.VECCALC, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    tiler.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    tiler.set_dim(cores)
    tiler.set_org_shape(m, n, k)
    tiler.set_shape(m, n, k)
    tiler.enable_bias(True)
    tiler.set_traverse(host.MatrixTraverse.FIRSTM)
    tiler.set_fix_split(256, 128, -1)
    tiler.set_buffer_space(-1, -1, -1)
    tiling = asc.adv.TCubeTiling()
    if tiler.get_tiling(tiling) == -1:
        raise RuntimeError("no tiling for this shape")
    tiling.step_n = 1  # the kernel places block `count` M first: B's L1 window one block wide
    return tiling


def matmul_leakyrelu(a: np.ndarray, b: np.ndarray, bias: np.ndarray, alpha: float,
                     tiling: asc.adv.TCubeTiling) -> np.ndarray:
    c = np.zeros((tiling.m, tiling.n), np.float32)
    workspace = np.zeros(1024, np.uint8)
    matmul_leakyrelu_kernel[(tiling.used_core_num + 1) // 2, rt.current_stream()](  # groups
        a, b, c, bias, alpha, tiling, workspace)
    return c


if __name__ == "__main__":
    m, n, k = 1024, 512, 256
    rng = np.random.default_rng(0)
    a = rng.integers(-5, 5, (m, k)).astype(np.float16)
    b = rng.integers(-5, 5, (k, n)).astype(np.float16)
    bias = rng.integers(-5, 5, n).astype(np.float32)
    c = matmul_leakyrelu(a, b, bias, 0.001, make_tiling(m, n, k))
    x = a.astype(np.float32) @ b.astype(np.float32) + bias
    ref = np.where(x >= 0, x, x * np.float32(0.001))
    assert np.allclose(c, ref, rtol=1e-6, atol=1e-6), float(np.abs(c - ref).max())
    print("matmul_leakyrelu: max |c - ref| =", float(np.abs(c - ref).max()))
