"""What the cube and Matmul test files share: the host tiling of a plain
GM x GM -> GM matmul, its NumPy reference, and the device functions of
their kernel skeletons (global tensors, a registered GM Matmul, the five
cube queues, one 32 x 32 float16 tile loaded into L0A/L0B)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Optional

import numpy as np

import asc
from asc.lib import host

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import matmul_cube_only  # noqa: E402

# appended: bench's module names must not shadow the tests'
sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))
from cube_gm import gm_abc  # noqa: E402,F401  (bench/cube_gm.py)


def workspace(size: int = 1024) -> np.ndarray:
    """A zeroed byte buffer for register_matmul's workspace argument."""
    return np.zeros(size, np.uint8)


def plain_tiling(m: int, n: int, k: int, bias: bool = False) -> asc.adv.TCubeTiling:
    """matmul_cube_only's host tiling for one core."""
    return matmul_cube_only.make_tiling(m, n, k, cores=1, bias=bias)


def ref_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A @ B in float32, the result a float32 Matmul gives for small integers."""
    return a.astype(np.float32) @ b.astype(np.float32)


def gm_tiler(m: int, n: int, k: int, a_type: Any = host.DataType.DT_FLOAT16,
             c_type: Any = host.DataType.DT_FLOAT, *, trans_b: bool = False,
             bias_type: Optional[Any] = None, dim: int = 1) -> Any:
    """A MultiCoreMatmulTiling with A, B (of a_type) and C (and the bias when
    bias_type is given) in GM, shaped m x n x k over dim cores, its buffer
    space left to the platform; the caller adds its own settings and calls
    take_tiling."""
    tiler = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    tiler.set_a_type(host.TPosition.GM, host.CubeFormat.ND, a_type, False)
    tiler.set_b_type(host.TPosition.GM, host.CubeFormat.ND, a_type, trans_b)
    tiler.set_c_type(host.TPosition.GM, host.CubeFormat.ND, c_type)
    if bias_type is not None:
        tiler.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, bias_type)
    tiler.set_dim(dim)
    tiler.set_org_shape(m, n, k)
    tiler.set_shape(m, n, k)
    tiler.enable_bias(bias_type is not None)
    tiler.set_buffer_space(-1, -1, -1)
    return tiler


def take_tiling(tiler: Any) -> asc.adv.TCubeTiling:
    """The TCubeTiling the tiler computes; it must find one."""
    tiling = asc.adv.TCubeTiling()
    assert tiler.get_tiling(tiling) != -1
    return tiling


@asc.jit
def gm_abc_sized(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                 n: asc.ConstExpr[int]):
    """Global tensors of n elements over a, b and c."""
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a, n)
    b_gm.set_global_buffer(b, n)
    c_gm.set_global_buffer(c, n)
    return a_gm, b_gm, c_gm


@asc.jit
def gm_matmul(pipe, workspace, tiling, a_gm, b_gm, c_gm):
    """A Matmul of ND tensors in GM of a_gm's, b_gm's and c_gm's dtypes,
    registered with pipe, workspace and tiling."""
    mm = asc.adv.Matmul(
        a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype),
        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype),
        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype),
    )
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    return mm


@asc.jit
def square_matmul(a_gm):
    """An unregistered Matmul of ND A and B in GM of a_gm's dtype and a
    float32 C, for the kernels that only check a call's errors."""
    mm = asc.adv.Matmul(
        a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype),
        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype),
        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32),
    )
    return mm


@asc.jit
def gm_matmul_bias(pipe, workspace, tiling, a_gm, b_gm, c_gm, bias_gm):
    """gm_matmul with a bias in GM of bias_gm's dtype."""
    mm = asc.adv.Matmul(
        a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype),
        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype),
        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype),
        bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bias_gm.dtype),
    )
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    return mm


@asc.jit(matmul_cube_only=True)
def offset_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                  places: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                  workspace: asc.GlobalAddress):
    """C = A @ B by the with-form of iterate; block i's get_offset_c
    (offset, row, col, height, width) into places[5 * i:]."""
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    p_gm = asc.GlobalTensor()
    p_gm.set_global_buffer(places)
    pipe = asc.TPipe()
    mm = gm_matmul(pipe, workspace, tiling, a_gm, b_gm, c_gm)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    with mm.iterate() as count:
        mm.get_tensor_c(c_gm)
        at = mm.get_offset_c()
        p_gm.set_value(count * 5, at.offset)
        p_gm.set_value(count * 5 + 1, at.row)
        p_gm.set_value(count * 5 + 2, at.col)
        p_gm.set_value(count * 5 + 3, at.height)
        p_gm.set_value(count * 5 + 4, at.width)


@asc.jit
def cube_queues(pipe, a1: asc.ConstExpr[int], b1: asc.ConstExpr[int], a2: asc.ConstExpr[int],
                b2: asc.ConstExpr[int], co1: asc.ConstExpr[int]):
    """The A1, B1, A2, B2 and CO1 queues (depth 1) with buffers of the given
    byte sizes in pipe."""
    q_a1 = asc.TQue(asc.TPosition.A1, 1)
    q_b1 = asc.TQue(asc.TPosition.B1, 1)
    q_a2 = asc.TQue(asc.TPosition.A2, 1)
    q_b2 = asc.TQue(asc.TPosition.B2, 1)
    q_c = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q_a1, 1, a1)
    pipe.init_buffer(q_b1, 1, b1)
    pipe.init_buffer(q_a2, 1, a2)
    pipe.init_buffer(q_b2, 1, b2)
    pipe.init_buffer(q_c, 1, co1)
    return q_a1, q_b1, q_a2, q_b2, q_c


@asc.jit
def load_tile_32(a_gm, b_gm, q_a1, q_b1, q_a2, q_b2):
    """A (32 x 32 float16, ND in GM) into L0A and B into L0B through L1, as
    mmad takes them; returns the L0A and L0B tensors."""
    a1 = q_a1.alloc_tensor(asc.float16)
    b1 = q_b1.alloc_tensor(asc.float16)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0))
    a2 = q_a2.alloc_tensor(asc.float16)
    b2 = q_b2.alloc_tensor(asc.float16)
    for i in range(2):
        asc.load_data(a2[i * 512:], a1, asc.LoadData2DParams(i, 2, 2, 0, 0, False))
        asc.load_data(b2[i * 512:], b1, asc.LoadData2DParams(i, 2, 2, 0, 0, True))
    return a2, b2


@asc.jit
def img2col_queues(pipe, l1: asc.ConstExpr[int], l0a: asc.ConstExpr[int],
                   l0b: asc.ConstExpr[int], l0c: asc.ConstExpr[int]):
    """The A1, A2, B2 and CO1 queues (depth 1) of an img2col kernel with
    buffers of the given byte sizes in pipe."""
    q1 = asc.TQue(asc.TPosition.A1, 1)
    qa = asc.TQue(asc.TPosition.A2, 1)
    qb = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q1, 1, l1)
    pipe.init_buffer(qa, 1, l0a)
    pipe.init_buffer(qb, 1, l0b)
    pipe.init_buffer(qc, 1, l0c)
    return q1, qa, qb, qc


@asc.jit
def mmad_to_gm(out_gm, qa, qb, qc, a2, b2, m, n, k):
    """out_gm (m x n, ND) = L0A (m x k) @ L0B, each step ordered by its
    queue: the read-back of what a test loaded into L0A or L0B."""
    qa.enque(a2)
    qb.enque(b2)
    a2 = qa.deque(a2.dtype)
    b2 = qb.deque(b2.dtype)
    c1 = qc.alloc_tensor(out_gm.dtype)
    asc.mmad(c1, a2, b2, asc.MmadParams(m, n, k))
    qc.enque(c1)
    c1 = qc.deque(out_gm.dtype)
    asc.fixpipe(out_gm, c1, asc.FixpipeParamsV220(n, m, m, n))


@asc.jit
def l1_and_l0a(pipe, dtype):
    """A 4096-byte A1 tensor and a 4096-byte A2 tensor of dtype, from queues
    in pipe, for the img2col kernels that only check a load's errors."""
    q1 = asc.TQue(asc.TPosition.A1, 1)
    qa = asc.TQue(asc.TPosition.A2, 1)
    pipe.init_buffer(q1, 1, 4096)
    pipe.init_buffer(qa, 1, 4096)
    a1 = q1.alloc_tensor(dtype)
    a2 = qa.alloc_tensor(dtype)
    return a1, a2


def to_nz(x: np.ndarray, c0: int = 16) -> np.ndarray:
    """NZ layout: column blocks of c0, rows padded to 16, one after another."""
    rows, cols = x.shape
    r16, cb = -(-rows // 16) * 16, -(-cols // c0)
    padded = np.zeros((r16, cb * c0), x.dtype)
    padded[:rows, :cols] = x
    return np.ascontiguousarray(padded.reshape(r16, cb, c0).transpose(1, 0, 2)).reshape(-1)
