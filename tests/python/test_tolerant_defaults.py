"""A program that runs on the NPU runs here, safely; checked mode reports
what is a bug in it, naming the Python line.

By default, as on the device: global memory read outside its argument
returns unspecified values (zeros here) and writes there are dropped (host
memory outside the argument is never touched); set_global_buffer takes any
length; mask bits beyond a repeat's elements are ignored; a tensor dequeued
from one TQue may be enqueued into another. Each kernel runs next to
sentinel arrays that must come back unchanged, and results are compared with
NumPy on the in-range part. Also: TBuf.alloc_tensor/free_tensor and PyAsc's
copy(dst, src, mask, repeat_time, CopyRepeatParams).
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import pyasc as asc
from kernel_cache import kernel_cache_dir

CACHE = kernel_cache_dir("pyasc-tolerant-")

TILE = 512


def lines(fn) -> dict[str, int]:
    """Line numbers of the `# [name]` markers in a kernel's source."""
    src, first = inspect.getsourcelines(fn)
    return {t.split("# [")[1].split("]")[0]: first + i for i, t in enumerate(src) if "# [" in t}


def both(fn):
    """fn as a default-mode and a checked-mode kernel."""
    return {False: asc.jit(fn, cache_dir=CACHE), True: asc.jit(fn, cache_dir=CACHE, debug=True)}


class Sentinels:
    """Arrays passed next to the real arguments; none may change."""

    def __init__(self):
        self.lo = np.full(1024, 11, np.int32)
        self.hi = np.full(1024, 13, np.int32)

    def check(self):
        np.testing.assert_array_equal(self.lo, 11)
        np.testing.assert_array_equal(self.hi, 13)


def launch(kernel, blocks, *args):
    kernel[blocks](*args)
    asc.synchronize()


def fails_at(fn, marker: str, words: str, kernel, blocks, *args):
    """The checked kernel fails at fn's marked line with words in the
    message; "a|b" accepts either marker and its words (blocks run in any
    order, and the first failure is reported)."""
    with pytest.raises(asc.KernelError) as info:
        launch(kernel, blocks, *args)
    message = str(info.value)
    where = [f"{inspect.getsourcefile(fn)}:{lines(fn)[m]}: {w}"
             for m, w in zip(marker.split("|"), words.split("|"))]
    assert any(w in message for w in where), message


def data(dtype, n, seed):
    g = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.integer):
        return g.integers(-100, 100, n).astype(dtype)
    return g.uniform(-4, 4, n).astype(dtype)


# --- whole tiles past the argument's end --------------------------------------------------------


def tiles(x: asc.GlobalAddress, z: asc.GlobalAddress, lo: asc.GlobalAddress,
          hi: asc.GlobalAddress, n: int, sized: asc.ConstExpr[bool]):
    """z = 2 * x in whole TILE-element tiles, however long x is."""
    ntiles = (n + TILE - 1) // TILE
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    if sized:
        xg.set_global_buffer(x, ntiles * TILE)  # [sized]
    else:
        xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    pipe = asc.TPipe()
    inq = asc.TQue(asc.TPosition.VECIN, 1)
    outq = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(inq, 1, TILE * x.dtype.sizeof())
    pipe.init_buffer(outq, 1, TILE * x.dtype.sizeof())
    for i in range(ntiles):
        a = inq.alloc_tensor(x.dtype)
        asc.data_copy(a, xg[i * TILE:], TILE)  # [read]
        inq.enque(a)
        b = inq.deque(x.dtype)
        c = outq.alloc_tensor(x.dtype)
        asc.muls(c, b, 2, TILE)
        outq.enque(c)
        inq.free_tensor(b)
        d = outq.deque(x.dtype)
        asc.data_copy(zg[i * TILE:], d, TILE)  # [write]
        outq.free_tensor(d)


TILES = both(tiles)


@pytest.mark.parametrize("sized", [False, True], ids=["unsized", "sized"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32])
@pytest.mark.parametrize("n", [1, 1000, 9999, 1024])
def test_whole_tiles_past_the_end(n, dtype, sized):
    x = data(dtype, n, n)
    z = np.zeros(n, dtype)
    s = Sentinels()
    launch(TILES[False], 1, x, z, s.lo, s.hi, n, sized)
    s.check()
    np.testing.assert_array_equal(z, x * dtype(2))
    if n % TILE == 0:  # nothing past the end: checked mode agrees
        launch(TILES[True], 1, x, z, s.lo, s.hi, n, sized)
        return
    marker, words = ("sized", "set_global_buffer: ") if sized else \
        ("read", "data_copy: global memory access")
    fails_at(tiles, marker, words, TILES[True], 1, x, z, s.lo, s.hi, n, sized)
    s.check()


# --- other global memory accesses ---------------------------------------------------------------


def gm_access(x: asc.GlobalAddress, z: asc.GlobalAddress, lo: asc.GlobalAddress,
              hi: asc.GlobalAddress, k: int, case: asc.ConstExpr[str]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    if case == "params_in":
        asc.data_copy(t, xg, asc.DataCopyParams(3, 2, 1, 0))  # [params_in]
        asc.data_copy(zg, t, 48)
    if case == "params_out":
        asc.duplicate(t, 7.0, 64)
        asc.data_copy(zg, t, asc.DataCopyParams(3, 2, 0, 1))  # [params_out]
    if case == "pad_in":
        asc.data_copy_pad(t, xg[k:], asc.DataCopyParams(1, 32, 0, 0),  # [pad_in]
                          asc.DataCopyPadParams(False, 0, 0, 0))
        asc.data_copy(zg, t, 8)
    if case == "pad_out":
        asc.duplicate(t, 7.0, 64)
        asc.data_copy_pad(zg[k:], t, asc.DataCopyParams(1, 32, 0, 0))  # [pad_out]
    if case == "get":
        zg.set_value(0, xg.get_value(k))  # [get]
    if case == "set":
        xg.set_value(k, 9.0)  # [set]


GM = both(gm_access)


def gm_expected(case, k, x, z):
    """(x, z) after the default-mode kernel (x has 40 elements, z 40 or 48)."""
    x, z = x.copy(), z.copy()
    if case == "params_in":  # bursts of 16 from x[0], x[24] and x[48] (past the end: zeros)
        z[:] = np.concatenate([x[0:16], x[24:40], np.zeros(16, np.float32)])
    elif case == "params_out":  # bursts to z[0], z[24] and z[48] (z has 40: dropped)
        z[0:16] = 7.0
        z[24:40] = 7.0
    elif case == "pad_in":
        row = np.zeros(8, np.float32)
        inside = x[max(k, 0):k + 8]
        row[max(-k, 0):max(-k, 0) + inside.size] = inside
        z[0:8] = row
    elif case == "pad_out":
        z[max(k, 0):k + 8] = 7.0
    elif case == "get":
        z[0] = x[k] if 0 <= k < x.size else 0.0
    return x, z


@pytest.mark.parametrize("case, k", [
    ("params_in", 0), ("params_out", 0), ("pad_in", 36), ("pad_in", -3), ("pad_out", 44),
    ("pad_out", 42), ("get", 40), ("get", -1), ("get", 1 << 40), ("set", 40), ("set", -1),
    ("set", 1 << 40),
])
def test_global_memory_outside_the_argument(case, k):
    x = data(np.float32, 40, 1)
    z = np.full(40 if case == "params_out" else 48, -5.0, np.float32)
    s = Sentinels()
    x0, z0 = x.copy(), z.copy()
    launch(GM[False], 1, x, z, s.lo, s.hi, k, case)
    s.check()
    ex, ez = gm_expected(case, k, x0, z0)
    np.testing.assert_array_equal(x, ex)
    np.testing.assert_array_equal(z, ez)
    api = {"params_in": "data_copy", "params_out": "data_copy", "pad_in": "data_copy_pad",
           "pad_out": "data_copy_pad", "get": "get_value", "set": "set_value"}[case]
    fails_at(gm_access, case, f"{api}: global memory access", GM[True], 1, x0.copy(), z0.copy(),
             s.lo, s.hi, k, case)
    s.check()


# --- masks beyond a repeat, over many blocks -------------------------------------------------


def vadd_bits(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
              lo: asc.GlobalAddress, hi: asc.GlobalAddress, block_length: int,
              tile: asc.ConstExpr[int], tiles: int):
    """PyAsc's vadd with a full two-word mask: 16 blocks, so the last ones
    start past the end of short arguments."""
    offset = asc.get_block_idx() * block_length
    xg = asc.GlobalTensor()
    yg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + offset)
    yg.set_global_buffer(y + offset)
    zg.set_global_buffer(z + offset)
    pipe = asc.TPipe()
    qx = asc.TQue(asc.TPosition.VECIN, 1)
    qy = asc.TQue(asc.TPosition.VECIN, 1)
    qz = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(qx, 1, tile * x.dtype.sizeof())
    pipe.init_buffer(qy, 1, tile * x.dtype.sizeof())
    pipe.init_buffer(qz, 1, tile * x.dtype.sizeof())
    for i in range(tiles):
        a = qx.alloc_tensor(x.dtype)
        b = qy.alloc_tensor(x.dtype)
        asc.data_copy(a, xg[i * tile:], tile)  # [read]
        asc.data_copy(b, yg[i * tile:], tile)
        qx.enque(a)
        qy.enque(b)
        a = qx.deque(x.dtype)
        b = qy.deque(x.dtype)
        c = qz.alloc_tensor(x.dtype)
        asc.add(c, a, b, mask=[2**64 - 1, 2**64 - 1], repeat_times=1,  # [add]
                repeat_params=asc.BinaryRepeatParams(1, 1, 1, 8, 8, 8))
        qz.enque(c)
        qx.free_tensor(a)
        qy.free_tensor(b)
        c = qz.deque(x.dtype)
        asc.data_copy(zg[i * tile:], c, tile)
        qz.free_tensor(c)


VADD = both(vadd_bits)


@pytest.mark.parametrize("dtype, n", [(np.float32, 1000), (np.float32, 1), (np.float32, 9999),
                                      (np.float16, 2048), (np.int32, 8192), (np.int32, 1000),
                                      (np.int16, 8192)])
def test_full_masks_on_every_dtype(dtype, n):
    """64 tile elements: 64 per repeat for 32-bit types (the mask's high word
    is beyond a repeat), 128 for 16-bit ones (past the 64-element buffer,
    inside the Unified Buffer)."""
    blocks, tile = 16, 64
    block_length = (n + blocks - 1) // blocks
    ntiles = (block_length + tile - 1) // tile
    x, y = data(dtype, n, 2), data(dtype, n, 3)
    z = np.zeros(n, dtype)
    s = Sentinels()
    launch(VADD[False], blocks, x, y, z, s.lo, s.hi, block_length, tile, ntiles)
    s.check()
    np.testing.assert_array_equal(z, x + y)
    words = "add: the mask list has bits beyond element 64" if np.dtype(dtype).itemsize == 4 \
        else "add: src0 accesses 128 elements"
    marker = "add"
    if blocks * ntiles * tile > n:  # some block reads past the end first
        marker, words = "add|read", words + "|data_copy: global memory access"
    fails_at(vadd_bits, marker, words, VADD[True], blocks, x, y, z, s.lo, s.hi, block_length,
             tile, ntiles)
    s.check()


# --- a tensor passed from one queue to another ------------------------------------------------


def requeue(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int],
            case: asc.ConstExpr[str]):
    """VECIN queue -> deque -> compute in place -> enque into the VECOUT
    queue -> deque -> copy out -> free through either queue."""
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    zg.set_global_buffer(z, n)
    pipe = asc.TPipe()
    inq = asc.TQue(asc.TPosition.VECIN, 1)
    outq = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(inq, 1, n * x.dtype.sizeof())
    pipe.init_buffer(outq, 1, n * x.dtype.sizeof())
    for i in range(3):
        a = inq.alloc_tensor(x.dtype)
        asc.data_copy(a, xg, n)
        inq.enque(a)
        b = inq.deque(x.dtype)
        asc.adds(b, b, 1.0, n)
        outq.enque(b)
        if case == "twice":
            outq.enque(b)  # [twice]
        c = outq.deque(x.dtype)
        asc.data_copy(zg, c, n)
        if case == "free_in":
            inq.free_tensor(c)
        else:
            outq.free_tensor(c)
        xg = zg


REQUEUE = both(requeue)


@pytest.mark.parametrize("debug", [False, True], ids=["default", "checked"])
@pytest.mark.parametrize("case", ["free_in", "free_out"])
def test_a_dequeued_tensor_may_be_enqueued_into_another_queue(case, debug):
    x = data(np.float32, 64, 4)
    z = np.zeros(64, np.float32)
    launch(REQUEUE[debug], 1, x, z, 64, case)
    one = np.float32(1)
    np.testing.assert_array_equal(z, x + one + one + one)


@pytest.mark.parametrize("debug", [False, True], ids=["default", "checked"])
def test_enqueueing_one_buffer_twice_is_still_an_error(debug):
    fails_at(requeue, "twice", "enque: the tensor's buffer is already enqueued", REQUEUE[debug], 1,
             np.zeros(64, np.float32), np.zeros(64, np.float32), 64, "twice")


# --- TBuf.alloc_tensor / free_tensor ------------------------------------------------------------


def tbuf_alloc(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    zg.set_global_buffer(z, n)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, n * x.dtype.sizeof())
    t = buf.alloc_tensor(x.dtype)
    asc.data_copy(t, xg, t.get_size())
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.muls(t, t, 3.0, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, t, n)
    buf.free_tensor(t)
    u = buf.alloc_tensor(x.dtype)  # the same whole buffer again
    zg.set_value(0, u.get_value(1))


TBUF = both(tbuf_alloc)


@pytest.mark.parametrize("debug", [False, True], ids=["default", "checked"])
def test_tbuf_alloc_tensor_is_the_whole_buffer(debug):
    x = data(np.float32, 256, 5)
    z = np.zeros(256, np.float32)
    launch(TBUF[debug], 1, x, z, 256)
    expected = x * np.float32(3)
    expected[0] = expected[1]
    np.testing.assert_array_equal(z, expected)


def test_tbuf_alloc_tensor_in_ascend_c():
    source = TBUF[False].ascendc(np.zeros(256, np.float32), np.zeros(256, np.float32), 256)
    assert ".AllocTensor<float>()" in source
    assert ".FreeTensor(" in source


# --- copy(dst, src, mask, repeat_time, CopyRepeatParams) ---------------------------------------


def copy_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, prm: asc.GlobalAddress,
                form: asc.ConstExpr[int]):
    n = 4096 // x.dtype.sizeof()
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    pg = asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    zg.set_global_buffer(z, n)
    pg.set_global_buffer(prm, 8)
    src = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    dst = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 4096, n)
    asc.data_copy(src, xg, n)
    asc.data_copy(dst, zg, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    params = asc.CopyRepeatParams(pg.get_value(3), pg.get_value(4), pg.get_value(5),
                                  pg.get_value(6))
    if form == BITS:
        asc.copy(dst, src, [pg.get_value(0), pg.get_value(1)], pg.get_value(2), params)
    elif form == LENGTH:
        asc.copy(dst, src, pg.get_value(0), repeat_time=pg.get_value(2), repeat_params=params)
    else:  # counter mode: for copy, the count is per repeat
        asc.set_mask_count()
        asc.copy(dst, src, pg.get_value(0), pg.get_value(2), params)
        asc.set_mask_norm()
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, dst, n)


LENGTH, BITS, COUNTER = range(3)
COPY = both(copy_kernel)


def copy_model(x, z, m0, m1, rep, dst_blk, src_blk, dst_rep, src_rep, form):
    """NumPy: element idx of repeat r moves between
    (r * rep_size + idx // per_block * blk_stride) data blocks + idx % per_block."""
    es = x.itemsize
    per_rep, epb = 256 // es, 32 // es
    if form == BITS:
        mask = m0 | m1 << 64
        lanes = [i for i in range(per_rep) if mask >> i & 1]
    else:
        lanes = list(range(min(m0, per_rep)))
    out = z.copy()
    for r in range(rep):
        for i in lanes:
            d = (r * dst_rep * 32 + i // epb * dst_blk * 32) // es + i % epb
            s = (r * src_rep * 32 + i // epb * src_blk * 32) // es + i % epb
            out[d] = x[s]
    return out


COPY_CASES = [
    # m0, m1, repeat, dst_stride, src_stride, dst_repeat_size, src_repeat_size, form
    (64, 0, 4, 1, 1, 8, 8, LENGTH),  # PyAsc's test_copy
    (37, 0, 3, 2, 1, 16, 8, LENGTH),
    (200, 0, 2, 1, 2, 8, 16, LENGTH),  # a length beyond a repeat: the whole repeat
    (0xF0F0_0000_FFFF_0001, 0x8000_0000_0000_0001, 2, 1, 1, 9, 8, BITS),
    (2**64 - 1, 2**64 - 1, 1, 1, 1, 8, 8, BITS),  # bits beyond a 32-bit repeat: ignored
    (40, 0, 3, 1, 1, 10, 8, COUNTER),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int16, np.int32])
@pytest.mark.parametrize("case", COPY_CASES, ids=lambda c: f"{c[:3]}-{c[3:7]}")
def test_copy_with_copy_repeat_params(case, dtype):
    m0, m1, rep, db, sb, dr, sr, form = case
    n = 4096 // np.dtype(dtype).itemsize
    x = data(dtype, n, 6)
    z = data(dtype, n, 7)
    prm = np.array([m0, m1, rep, db, sb, dr, sr, 0], np.uint64).view(np.int64)
    out = z.copy()
    launch(COPY[False], 1, x, out, prm, form)
    expected = copy_model(x, z, m0, m1, rep, db, sb, dr, sr, form)
    np.testing.assert_array_equal(out.view(f"u{x.itemsize}"), expected.view(f"u{x.itemsize}"))
    beyond = m1 != 0 and x.itemsize == 4 if form == BITS else m0 > 256 // x.itemsize
    if beyond:  # checked mode reports mask bits beyond a repeat
        with pytest.raises(asc.KernelError, match="copy: "):
            launch(COPY[True], 1, x, z.copy(), prm, form)
    else:
        checked_out = z.copy()
        launch(COPY[True], 1, x, checked_out, prm, form)
        np.testing.assert_array_equal(checked_out.view(f"u{x.itemsize}"),
                                      expected.view(f"u{x.itemsize}"))


def test_copy_in_ascend_c():
    x = np.zeros(1024, np.float32)
    prm = np.zeros(8, np.int64)
    source = COPY[False].ascendc(x, x, prm, LENGTH)
    assert "AscendC::Copy(" in source and "AscendC::CopyRepeatParams(" in source
    source = COPY[False].ascendc(x, x, prm, BITS)
    assert "AscendC::Copy(" in source and "uint64_t pyasc_mask[2]" in source


# --- duplicate's mask forms ----------------------------------------------------------------------


def dup_kernel(z: asc.GlobalAddress, prm: asc.GlobalAddress, bits: asc.ConstExpr[bool]):
    n = 4096 // z.dtype.sizeof()
    zg = asc.GlobalTensor()
    pg = asc.GlobalTensor()
    zg.set_global_buffer(z, n)
    pg.set_global_buffer(prm, 8)
    t = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 0, n)
    asc.data_copy(t, zg, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    if bits:
        asc.duplicate(t, 5, [pg.get_value(0), pg.get_value(1)], pg.get_value(2),  # [dup]
                      pg.get_value(3), pg.get_value(4))
    else:
        asc.duplicate(t, 5, pg.get_value(0), pg.get_value(2), pg.get_value(3), pg.get_value(4))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, t, n)


DUP = both(dup_kernel)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int16, np.int32])
@pytest.mark.parametrize("case", [
    # m0, m1, repeat_times, dst_block_stride, dst_repeat_stride, bits
    (2**64 - 1, 2**64 - 1, 1, 1, 1, True),  # PyAsc's test_common_api
    (0x0F0F_0000_0000_00FF, 0x1, 3, 2, 16, True),
    (37, 0, 2, 1, 8, False),
], ids=lambda c: f"{c[:3]}-{c[3:5]}")
def test_duplicate_mask_forms(case, dtype):
    m0, m1, rep, blk, rep_stride, bits = case
    n = 4096 // np.dtype(dtype).itemsize
    z = data(dtype, n, 8)
    prm = np.array([m0, m1, rep, blk, rep_stride, 0, 0, 0], np.uint64).view(np.int64)
    out = z.copy()
    launch(DUP[False], 1, out, prm, bits)
    per_rep, epb = 256 // z.itemsize, 32 // z.itemsize
    mask = m0 | m1 << 64 if bits else (1 << m0) - 1
    expected = z.copy()
    for r in range(rep):
        for i in (i for i in range(per_rep) if mask >> i & 1):
            expected[(r * rep_stride * 32 + i // epb * blk * 32) // z.itemsize + i % epb] = 5
    np.testing.assert_array_equal(out, expected)
    if bits and m1 and z.itemsize == 4:  # bits beyond a 32-bit repeat
        fails_at(dup_kernel, "dup", "duplicate: the mask list has bits beyond element 64",
                 DUP[True], 1, z.copy(), prm, bits)
    else:
        checked_out = z.copy()
        launch(DUP[True], 1, checked_out, prm, bits)
        np.testing.assert_array_equal(checked_out, expected)


def test_duplicate_mask_form_in_ascend_c():
    source = DUP[False].ascendc(np.zeros(1024, np.float32), np.zeros(8, np.int64), True)
    assert "AscendC::Duplicate(" in source and "pyasc_mask" in source


# --- compile-time errors of the new forms ---------------------------------------------------------


def bad_forms(x: asc.GlobalAddress, case: asc.ConstExpr[str]):
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    u = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 256, 64)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 256)
    if case == "params":
        asc.copy(u, t, 64, 1, asc.BinaryRepeatParams())
    if case == "dtype":
        asc.copy(u, t, 64, 1, asc.CopyRepeatParams(1, 1, 8, 8))
    if case == "free":
        buf.free_tensor(3)
    if case == "dup_mask":
        asc.duplicate(t, 1.0, [1, 2, 3], 1, 1, 8)


@pytest.mark.parametrize("case, dtype, words", [
    ("params", np.float32, "copy repeat_params must be a pyasc.CopyRepeatParams"),
    ("dtype", np.int8, "copy.l0 does not support int8"),
    ("free", np.float32, "free_tensor tensor must be a LocalTensor"),
    ("dup_mask", np.float32, "a bit-mask list has 1 or 2 words"),
])
def test_new_forms_reject_wrong_arguments_at_compile_time(case, dtype, words):
    kernel = asc.jit(bad_forms, cache_dir=CACHE)
    with pytest.raises(asc.CompileError, match=words):
        kernel.compile(np.zeros(64, dtype), case)
