"""Fixpipe's NZ output as CANN documents it for FixpipeParamsV220: an NZ
destination's column blocks lie dst_stride 32-byte blocks apart whatever the
element size, and int8 output merges pairs of 16-column fractals into
16 x 32 ones, the last staying 16 wide when their count is odd (Int8
Channel Merge). The reference places each element by those rules in a byte
buffer with NumPy."""

import numpy as np
import pytest

import pyasc
import pyasc as asc
from cube_helpers import cube_queues, gm_abc_sized, load_tile_32

Q = asc.QuantModes
OUT_BYTES = 8192


@asc.jit
def nz_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
              c_len: asc.ConstExpr[int], n_size: asc.ConstExpr[int],
              dst_stride: asc.ConstExpr[int], quant: asc.ConstExpr[int],
              split: asc.ConstExpr[bool] = False):
    """C = A (32 x 32, fp16) @ B, n_size columns of it to c (c_len
    elements of its dtype) as NZ (split: FixpipeParamsV220's is_channel_split)."""
    a_gm, b_gm, _ = gm_abc_sized(a, b, c, 1024)
    c_gm = asc.GlobalTensor()
    c_gm.set_global_buffer(c, c_len)
    pipe = asc.TPipe()
    q_a1, q_b1, q_a2, q_b2, q_c = cube_queues(pipe, 2048, 2048, 2048, 2048, 4096)
    a2, b2 = load_tile_32(a_gm, b_gm, q_a1, q_b1, q_a2, q_b2)
    c1 = q_c.alloc_tensor(asc.float32)
    asc.mmad(c1, a2, b2, asc.MmadParams(32, 32, 32))
    asc.fixpipe(c_gm, c1, asc.FixpipeParamsV220(n_size, 32, 32, dst_stride, quant, 0.5,
                                                is_channel_split=split), 1)


def _want(res: np.ndarray, n_size: int, dst_stride: int, dtype) -> np.ndarray:
    """The bytes CANN's NZ rules give for res[:, :n_size] in dtype."""
    out = np.zeros(OUT_BYTES, np.uint8)
    es = np.dtype(dtype).itemsize
    n16 = -(-n_size // 16)
    for n in range(n_size):
        c0 = 32 if es == 1 else 16
        blk, width, col = n // c0, c0, n % c0
        if es == 1 and n16 % 2 and n >= (n16 - 1) * 16:
            blk, width, col = (n16 - 1) // 2, 16, n - (n16 - 1) * 16
        for m in range(32):
            at = blk * dst_stride * 32 + (m * width + col) * es
            out[at:at + es] = np.frombuffer(np.array([res[m, n]], dtype).tobytes(), np.uint8)
    return out


@pytest.mark.parametrize("n_size", [16, 32])
@pytest.mark.parametrize("kind", ["float32", "float16", "int8"])
def test_nz_blocks_are_dst_stride_32_byte_blocks_apart(kind, n_size):
    rng = np.random.default_rng(5)
    a = (rng.integers(-8, 9, (32, 32)) / 4).astype(np.float16)
    b = (rng.integers(-8, 9, (32, 32)) / 8).astype(np.float16)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    es = np.dtype(kind).itemsize
    c0 = 32 if es == 1 else 16
    # the least stride for 32 rows of one column block, then 3 blocks more
    stride = 32 * c0 * es // 32 + 3
    quant = {"float32": Q.NoQuant, "float16": Q.F322F16, "int8": Q.QF322B8_PRE}[kind]
    res = ref.astype(np.float16) if kind == "float16" else ref
    if kind == "int8":
        res = np.clip(np.rint(ref * np.float32(0.5)), -128, 127).astype(np.int8)
        assert (np.abs(res) > 1).any()
    c = np.zeros(OUT_BYTES // es, kind)
    nz_kernel[1](a, b, c, c.size, n_size, stride, int(quant))
    np.testing.assert_array_equal(c.view(np.uint8), _want(res, n_size, stride, kind))


def test_nz_stride_below_a_column_block_is_an_error():
    a = np.zeros((32, 32), np.float16)
    c = np.zeros(OUT_BYTES // 4, np.float32)
    # 32 float rows of 64 bytes need 64 blocks, as CANN's example computes
    with pytest.raises(pyasc.KernelError, match="NZ dst_stride 63"):
        nz_kernel[1](a, a, c, c.size, 32, 63, int(Q.NoQuant))


def test_channel_split_puts_a_float_nz_output_in_16_by_8_fractals():
    """CANN's isChannelSplit: float32 NZ column blocks of 8 (32 bytes a row), dst_stride
    32-byte blocks apart, here 32 rows and 2 blocks more."""
    rng = np.random.default_rng(6)
    a = (rng.integers(-8, 9, (32, 32)) / 4).astype(np.float16)
    b = (rng.integers(-8, 9, (32, 32)) / 8).astype(np.float16)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    c = np.zeros(OUT_BYTES // 4, np.float32)
    nz_kernel[1](a, b, c, c.size, 32, 34, int(Q.NoQuant), True)
    want = np.zeros(OUT_BYTES // 4, np.float32)
    for blk in range(4):
        at = blk * 34 * 8
        want[at:at + 32 * 8] = ref[:, blk * 8:(blk + 1) * 8].reshape(-1)
    np.testing.assert_array_equal(c, want)
    src = nz_kernel.ascendc(a, b, c, c.size, 32, 34, int(Q.NoQuant), True)
    assert "p.isChannelSplit = true;" in src
