"""The kernel language API by API: one small @pyasc.jit kernel per API (or
per API family, with the API itself passed as a ConstExpr so that each API
still gets its own specialisation), launched over several blocks and checked
against NumPy for float16, float32 and int32 where the API allows them.

float16 results must be bit-exact with NumPy's float16 arithmetic: NumPy and
the simulated vector unit both compute in float32 and round once per
instruction. int32 add/sub/mul wrap around like NumPy's int32 arrays.

Kernels live at module level and share one cache directory for the session,
so each specialisation is compiled once.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import pyasc as asc
from kernel_cache import kernel_cache_dir

CACHE = kernel_cache_dir("pyasc-kernel-api-")  # mode 0700

BLOCKS = 4
TILE = 64
N = 2 * TILE  # elements per block: two tiles
FLOAT_DTYPES = [np.float16, np.float32]
ALL_DTYPES = [np.float16, np.float32, np.int32]


def jit(fn):
    return asc.jit(fn, cache_dir=CACHE)


def run(kernel, *args, blocks=BLOCKS):
    kernel[blocks](*args)
    asc.synchronize()


def rng(seed=0):
    return np.random.default_rng(seed)


def random(dtype, size, seed=0, low=-4.0, high=4.0):
    """Values of dtype; floats away from zero so that no sign-of-zero or
    division question arises."""
    g = rng(seed)
    if np.issubdtype(dtype, np.integer):
        return g.integers(-1000, 1000, size=size).astype(dtype)
    mag = g.uniform(0.125, max(abs(low), abs(high)), size=size)
    sign = np.where(g.random(size) < 0.5, -1.0, 1.0) if low < 0 else 1.0
    return (mag * sign).astype(dtype)


def assert_same(actual, expected):
    """Same dtype and values; for floats value equality is bit equality
    apart from the sign of zero (inputs avoid NaN)."""
    assert actual.dtype == expected.dtype
    np.testing.assert_array_equal(actual, expected)


# --- device functions shared by the kernels ---------------------------------------------------


@jit
def block_gm(addr: asc.GlobalAddress, n: int):
    """This block's n elements of addr."""
    g = asc.GlobalTensor()
    g.set_global_buffer(addr + asc.get_block_idx() * n, n)
    return g


# --- get_block_idx / get_block_num ------------------------------------------------------------


@jit
def block_info_kernel(out: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    i = asc.get_block_idx()
    g.set_value(2 * i, i)
    g.set_value(2 * i + 1, asc.get_block_num())


@pytest.mark.parametrize("dtype", [np.int32, np.float32])
@pytest.mark.parametrize("blocks", [1, 3, 8])
def test_get_block_idx_and_num(dtype, blocks):
    out = np.full(2 * blocks, -1, dtype)
    run(block_info_kernel, out, blocks=blocks)
    expected = np.stack([np.arange(blocks), np.full(blocks, blocks)], axis=1).ravel()
    assert_same(out, expected.astype(dtype))


# --- GlobalTensor -----------------------------------------------------------------------------


@jit
def global_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, info: asc.GlobalAddress, n: int):
    i = asc.get_block_idx()
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x + i * n, n)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z + i * n)  # without a length: get_size() is 0
    ig = asc.GlobalTensor()
    ig.set_global_buffer(info + i * 4, 4)
    ig.set_value(0, xg.get_size())
    ig.set_value(1, zg.get_size())
    ig.set_value(2, xg[3:].get_size())
    ig.set_value(3, asc.get_block_num())
    for j in range(n):
        # g[j] is a view starting at element j, like g[j:]
        zg[j].set_value(0, xg.get_value(j) + xg[j:].get_value(0))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_global_tensor(dtype):
    n = 10
    x = random(dtype, BLOCKS * n)
    z = np.zeros_like(x)
    info = np.full(BLOCKS * 4, -1, np.int32)
    run(global_kernel, x, z, info, n)
    assert_same(z, x + x)
    np.testing.assert_array_equal(info.reshape(BLOCKS, 4), [[n, 0, n - 3, BLOCKS]] * BLOCKS)


# --- LocalTensor ------------------------------------------------------------------------------


@jit
def local_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, bits: asc.GlobalAddress,
                 info: asc.GlobalAddress, n: asc.ConstExpr[int], pos: asc.ConstExpr):
    xg = block_gm(x, n)
    zg = block_gm(z, n)
    ratio = x.dtype.sizeof() // bits.dtype.sizeof()
    bg = block_gm(bits, n * ratio)
    ig = block_gm(info, 8)
    t = asc.LocalTensor(x.dtype, pos, 256, n)
    asc.data_copy(t, xg, n)
    for j in range(n):
        t.set_value(j, t.get_value(j) * 2)
    tail = t[4:]
    ig.set_value(0, t.get_size())
    ig.set_value(1, t.get_length())
    ig.set_value(2, tail.get_size())
    ig.set_value(3, tail.get_length())
    ig.set_value(4, t.get_position())
    r = t.reinterpret_cast(bits.dtype)
    ig.set_value(5, r.get_size())
    ig.set_value(6, r.get_length())
    asc.data_copy(zg, t, n)
    asc.data_copy(bg, r, n * ratio)
    # a view's first element is t[4] (a one-element data_copy would move no
    # whole 32-byte block: the MTE rounds it down to nothing)
    zg.set_value(n - 1, tail.get_value(0))


@pytest.mark.parametrize("dtype,bits,pos", [
    (np.float16, np.int8, asc.TPosition.VECCALC),
    (np.float32, np.int16, asc.TPosition.VECIN),
    (np.float32, np.int16, asc.TPosition.VECOUT),
    (np.float32, np.int16, asc.TPosition.VECCALC),
    (np.int32, np.float32, asc.TPosition.VECCALC),
])
def test_local_tensor(dtype, bits, pos):
    n = 16
    size, bsize = np.dtype(dtype).itemsize, np.dtype(bits).itemsize
    x = random(dtype, BLOCKS * n)
    z = np.zeros_like(x)
    b = np.zeros(BLOCKS * n * size // bsize, bits)
    info = np.full(BLOCKS * 8, -1, np.int32)
    run(local_kernel, x, z, b, info, n, pos)
    doubled = (x * dtype(2)).astype(dtype)
    expected = doubled.copy().reshape(BLOCKS, n)
    expected[:, n - 1] = expected[:, 4]
    assert_same(z, expected.ravel())
    assert_same(b, doubled.view(bits))
    row = [n, n * size, n - 4, (n - 4) * size, int(pos), n * size // bsize, n * size, -1]
    np.testing.assert_array_equal(info.reshape(BLOCKS, 8), [row] * BLOCKS)


# --- TPipe, TQue, TBuf ------------------------------------------------------------------------


@jit
def queue_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                 info: asc.GlobalAddress, n: asc.ConstExpr[int]):
    xg = block_gm(x, n)
    yg = block_gm(y, n)
    zg = block_gm(z, 2 * n)
    ig = block_gm(info, 10)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 2)
    pipe.init_buffer(q, 2, n * x.dtype.sizeof())
    ig.set_value(0, q.has_tensor_in_que())
    ig.set_value(1, q.vacant_in_que())
    a = q.alloc_tensor(x.dtype)
    b = q.alloc_tensor(x.dtype)
    asc.data_copy(a, xg, n)
    asc.data_copy(b, yg, n)
    q.enque(a)
    ig.set_value(2, q.has_tensor_in_que())
    ig.set_value(3, q.vacant_in_que())
    q.enque(b)
    ig.set_value(4, q.has_tensor_in_que())
    ig.set_value(5, q.vacant_in_que())
    first = q.deque(x.dtype)  # FIFO: a
    second = q.deque(x.dtype)
    ig.set_value(6, q.has_tensor_in_que())
    ig.set_value(7, first.get_size())
    asc.data_copy(zg, first, n)
    asc.data_copy(zg[n:], second, n)
    q.free_tensor(first)
    q.free_tensor(second)
    # Freed buffers can be allocated again, round after round.
    out = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(out, 1, n * x.dtype.sizeof())
    for i in range(3):
        t = out.alloc_tensor(x.dtype)
        asc.duplicate(t, i, n)
        out.enque(t)
        t = out.deque(x.dtype)
        ig.set_value(8, t.get_value(0))
        out.free_tensor(t)
    ig.set_value(9, out.vacant_in_que())


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_tque(dtype):
    n = 32
    x, y = random(dtype, BLOCKS * n, 1), random(dtype, BLOCKS * n, 2)
    z = np.zeros(2 * BLOCKS * n, dtype)
    info = np.full(BLOCKS * 10, -1, np.int32)
    run(queue_kernel, x, y, z, info, n)
    expected = np.concatenate([x.reshape(BLOCKS, n), y.reshape(BLOCKS, n)], axis=1).ravel()
    assert_same(z, expected)
    np.testing.assert_array_equal(info.reshape(BLOCKS, 10),
                                  [[0, 1, 1, 1, 1, 0, 0, n, 2, 1]] * BLOCKS)


@jit
def tbuf_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, info: asc.GlobalAddress,
                n: asc.ConstExpr[int], how: asc.ConstExpr[str]):
    xg = block_gm(x, n)
    zg = block_gm(z, 3 * n)
    ig = block_gm(info, 6)
    size = x.dtype.sizeof()
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 2 * n * size)
    whole = buf.get(x.dtype)
    first = buf.get(x.dtype, n)
    second = buf.get_with_offset(n, n * size, x.dtype)
    docs_order = buf.get_with_offset(x.dtype, n, n * size)  # the docs' example order
    ig.set_value(0, whole.get_size())
    ig.set_value(1, first.get_size())
    ig.set_value(2, second.get_size())
    ig.set_value(3, docs_order.get_length())
    asc.duplicate(first, 3, n)
    asc.data_copy(second, xg, n)
    asc.data_copy(zg, whole, 2 * n)  # the views alias one buffer: [3...3, x]
    if how == "reset":
        pipe.reset()
    else:
        pipe.destroy()
    # The pipe starts again at the bottom of the UB: the new buffer is the old one.
    again = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(again, n * size)
    t = again.get(x.dtype)
    ig.set_value(4, t.get_size())
    asc.data_copy(zg[2 * n:], t, n)


@pytest.mark.parametrize("dtype,how", [(np.float16, "reset"), (np.float32, "reset"),
                                       (np.int32, "reset"), (np.float32, "destroy")])
def test_tbuf_and_pipe_reset(dtype, how):
    n = 32
    x = random(dtype, BLOCKS * n)
    z = np.zeros(3 * BLOCKS * n, dtype)
    info = np.full(BLOCKS * 6, -1, np.int32)
    run(tbuf_kernel, x, z, info, n, how)
    xb = x.reshape(BLOCKS, n)
    expected = np.concatenate([np.full((BLOCKS, n), 3, dtype), xb, np.full((BLOCKS, n), 3, dtype)],
                              axis=1)
    assert_same(z, expected.ravel())
    size = np.dtype(dtype).itemsize
    np.testing.assert_array_equal(info.reshape(BLOCKS, 6), [[2 * n, n, n, n * size, n, -1]] *
                                  BLOCKS)


# --- data movement ----------------------------------------------------------------------------


@jit
def move_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tile: asc.ConstExpr[int]):
    xg = block_gm(x, n)
    zg = block_gm(z, n)
    size = x.dtype.sizeof()
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, tile)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, tile * size, tile)
    c = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 2 * tile * size, tile)
    for i in range(n // tile):
        asc.data_copy(a, xg[i * tile:], tile)  # GM -> UB
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.data_copy(b, a, tile)  # UB -> UB
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.copy(c, b, tile)  # vector copy
        asc.set_flag(asc.HardEvent.V_MTE3, event_id=1)
        asc.wait_flag(asc.HardEvent.V_MTE3, 1)
        asc.data_copy(zg[i * tile:], c, tile)  # UB -> GM
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


@pytest.mark.parametrize("dtype", ALL_DTYPES + [np.int8])
def test_data_copy_copy_and_flags(dtype):
    x = random(dtype, BLOCKS * N) if dtype != np.int8 else \
        rng().integers(-128, 128, BLOCKS * N).astype(np.int8)
    z = np.zeros_like(x)
    run(move_kernel, x, z, N, TILE)
    assert_same(z, x)
    ir = move_kernel.compile(x, z, N, TILE).ir_text
    assert "set_flag(" in ir and "{4}" in ir  # HardEvent.MTE2_V
    assert "wait_flag(" in ir and "{7}" in ir  # HardEvent.V_MTE3
    assert "pipe_barrier() {1}" in ir and "pipe_barrier() {6}" in ir


@jit
def duplicate_kernel(z: asc.GlobalAddress, n: int, value, tile: asc.ConstExpr[int]):
    zg = block_gm(z, n)
    c = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 0, tile)
    asc.duplicate(c, value + asc.get_block_idx() * 2, tile)
    for i in range(n // tile):
        asc.data_copy(zg[i * tile:], c, tile)


@pytest.mark.parametrize("dtype,value", [(np.float16, 1.25), (np.float16, 0.1),
                                         (np.float32, -2.5), (np.float32, 1e-3), (np.int32, 7),
                                         (np.int32, -(2**31))])
def test_duplicate(dtype, value):
    z = np.zeros(BLOCKS * N, dtype)
    run(duplicate_kernel, z, N, value, TILE)
    expected = [np.full(N, np.array(value + 2 * b).astype(np.float32).astype(dtype)
                        if dtype == np.float16 else np.array(value + 2 * b).astype(dtype))
                for b in range(BLOCKS)]
    assert_same(z, np.concatenate(expected))


# --- vector arithmetic ------------------------------------------------------------------------


@jit
def binary_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                  op: asc.ConstExpr, tile: asc.ConstExpr[int]):
    xg = block_gm(x, n)
    yg = block_gm(y, n)
    zg = block_gm(z, n)
    size = x.dtype.sizeof()
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, tile)
    yl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, tile * size, tile)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 2 * tile * size, tile)
    for i in range(n // tile):
        asc.data_copy(xl, xg[i * tile:], tile)
        asc.data_copy(yl, yg[i * tile:], tile)
        op(zl, xl, yl, tile)
        asc.data_copy(zg[i * tile:], zl, tile)


BINARY = {"add": (asc.add, np.add), "sub": (asc.sub, np.subtract), "mul": (asc.mul, np.multiply),
          "div": (asc.div, np.divide), "max": (asc.max, np.maximum),
          "min": (asc.min, np.minimum)}


def binary_inputs(dtype):
    if dtype == np.int32:  # the whole range: add, sub and mul wrap around
        g = rng(3)
        x = g.integers(-(2**31), 2**31, BLOCKS * N, dtype=np.int64).astype(np.int32)
        y = g.integers(-(2**31), 2**31, BLOCKS * N, dtype=np.int64).astype(np.int32)
        x[:4] = [2**31 - 1, -(2**31), 2**31 - 1, 65536]
        y[:4] = [1, -1, 2**31 - 1, 65536]
        return x, y
    return random(dtype, BLOCKS * N, 1), random(dtype, BLOCKS * N, 2)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", list(BINARY))
def test_binary(name, dtype):
    api, ref = BINARY[name]
    x, y = binary_inputs(dtype)
    z = np.zeros_like(x)
    if name == "div" and dtype == np.int32:
        with pytest.raises(asc.CompileError, match=r"div does not support int32"):
            binary_kernel.compile(x, y, z, N, api, TILE)
        return
    run(binary_kernel, x, y, z, N, api, TILE)
    with np.errstate(over="ignore"):
        assert_same(z, ref(x, y))
    if dtype == np.int32 and name in ("add", "sub", "mul"):
        wrapped = {"add": [-(2**31), 2**31 - 1], "sub": [2**31 - 2, -(2**31) + 1],
                   "mul": [2**31 - 1, -(2**31)]}[name]
        assert list(z[:2]) == wrapped


@jit
def scalar_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, scalar,
                  op: asc.ConstExpr, tile: asc.ConstExpr[int]):
    xg = block_gm(x, n)
    zg = block_gm(z, n)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, tile)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 4096, tile)
    for i in range(n // tile):
        asc.data_copy(xl, xg[i * tile:], tile)
        op(zl, xl, scalar, tile)
        asc.data_copy(zg[i * tile:], zl, tile)


SCALAR = {"adds": (asc.adds, np.add), "muls": (asc.muls, np.multiply),
          "maxs": (asc.maxs, np.maximum), "mins": (asc.mins, np.minimum)}


@pytest.mark.parametrize("dtype,scalar", [(np.float16, 1.5), (np.float16, -0.1),
                                          (np.float32, 0.3), (np.int32, 2**30 + 7)])
@pytest.mark.parametrize("name", list(SCALAR))
def test_scalar_ops(name, dtype, scalar):
    api, ref = SCALAR[name]
    x = random(dtype, BLOCKS * N)
    if dtype == np.int32:
        x[:2] = [2**31 - 1, -(2**31)]
    z = np.zeros_like(x)
    run(scalar_kernel, x, z, N, scalar, api, TILE)
    # The scalar takes the tensor's dtype first (float32 on the way to float16).
    s = np.array(scalar).astype(np.float32).astype(dtype) if dtype == np.float16 else \
        np.array(scalar).astype(dtype)
    with np.errstate(over="ignore"):
        assert_same(z, ref(x, s))


@jit
def unary_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, op: asc.ConstExpr,
                 tile: asc.ConstExpr[int]):
    xg = block_gm(x, n)
    zg = block_gm(z, n)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, tile)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 4096, tile)
    for i in range(n // tile):
        asc.data_copy(xl, xg[i * tile:], tile)
        op(zl, xl, tile)
        asc.data_copy(zg[i * tile:], zl, tile)


# Reference in float64, rounded to float32 (what the vector unit computes),
# then once more to float16 for float16 tensors.
UNARY = {"exp": (asc.exp, np.exp, True), "ln": (asc.ln, np.log, True),
         "abs": (asc.abs, np.abs, False), "sqrt": (asc.sqrt, np.sqrt, True),
         "rsqrt": (asc.rsqrt, lambda v: 1 / np.sqrt(v.astype(np.float32)), True),
         "reciprocal": (asc.reciprocal, lambda v: 1 / v, True),
         "relu": (asc.relu, lambda v: np.maximum(v, v.dtype.type(0)), False)}
POSITIVE = ("ln", "sqrt", "rsqrt")


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", list(UNARY))
def test_unary(name, dtype):
    api, ref, float_only = UNARY[name]
    x = random(dtype, BLOCKS * N, low=0.0 if name in POSITIVE else -4.0)
    z = np.zeros_like(x)
    if float_only and dtype == np.int32:
        with pytest.raises(asc.CompileError, match=rf"{name} does not support int32"):
            unary_kernel.compile(x, z, N, api, TILE)
        return
    run(unary_kernel, x, z, N, api, TILE)
    if dtype == np.int32:
        assert_same(z, ref(x).astype(np.int32))
    elif name in ("exp", "ln"):
        # libm's expf/logf: within one float32 ulp of the exact value
        exact = ref(x.astype(np.float64))
        if dtype == np.float32:
            np.testing.assert_allclose(z, exact, rtol=2.5e-7)
        else:
            assert_same(z, exact.astype(np.float32).astype(np.float16))
    else:
        assert_same(z, ref(x.astype(np.float32)).astype(np.float32).astype(dtype))


def test_unary_int32_relu_and_abs_edges():
    x = np.array([-(2**31), -5, 0, 7, 2**31 - 1] * (BLOCKS * N // 5 + 1), np.int32)[:BLOCKS * N]
    z = np.zeros_like(x)
    run(unary_kernel, x, z, N, asc.abs, TILE)
    assert_same(z, np.abs(x))  # abs(INT32_MIN) wraps to itself, as in NumPy
    run(unary_kernel, x, z, N, asc.relu, TILE)
    assert_same(z, np.maximum(x, 0))


@pytest.mark.parametrize("kernel,args,api,dtype", [
    ("binary", (asc.add,), "add", np.float64),
    ("binary", (asc.mul,), "mul", np.int8),
    ("scalar", (2, asc.adds), "adds", np.int8),
    ("unary", (asc.relu,), "relu", np.int16),
    ("unary", (asc.abs,), "abs", np.float64),
    ("move", (), "copy", np.float64),
])
def test_unsupported_dtype_names_the_api(kernel, args, api, dtype):
    x = np.zeros(BLOCKS * N, dtype)
    call = {"binary": lambda: binary_kernel.compile(x, x, x, N, *args, TILE),
            "scalar": lambda: scalar_kernel.compile(x, x, N, *args, TILE),
            "unary": lambda: unary_kernel.compile(x, x, N, *args, TILE),
            "move": lambda: move_kernel.compile(x, x, N, TILE)}[kernel]
    with pytest.raises(asc.CompileError, match=rf"{api} does not support "
                                               rf"{np.dtype(dtype).name} tensors \(supported: "):
        call()


# --- control flow on run-time values ----------------------------------------------------------


@jit
def control_kernel(out: asc.GlobalAddress, n: int):
    g = block_gm(out, 8)
    b = asc.get_block_idx()
    i = 0
    total = 0
    while i < n:
        total += i
        i += 1
    g.set_value(0, total)
    acc = 0
    for j in range(n, 0, -2):
        acc = acc * 10 + j
    g.set_value(1, acc)
    if b % 2 == 0:
        v = 100
    else:
        v = -100
    g.set_value(2, v)
    g.set_value(3, (b - 7) // 2)  # run-time integers divide as in PyAsc (C): truncating
    g.set_value(4, (b - 7) % 3)
    g.set_value(5, 1 if b > 1 else 2)
    g.set_value(6, min(n, b) + abs(b - 2))
    g.set_value(7, b < n and not b == 1)


def test_run_time_control_flow():
    out = np.full(BLOCKS * 8, -1, np.int64)
    run(control_kernel, out, 5)
    expected = [[10, 531, 100 if b % 2 == 0 else -100, int((b - 7) / 2), math.fmod(b - 7, 3),
                 1 if b > 1 else 2, min(5, b) + abs(b - 2), int(b < 5 and not b == 1)]
                for b in range(BLOCKS)]
    np.testing.assert_array_equal(out.reshape(BLOCKS, 8), expected)


# --- printf -----------------------------------------------------------------------------------


@jit
def printf_kernel(n: int, f: float):
    asc.printf("block %d of %d: n=%d f=%.2f\n", asc.get_block_idx(), asc.get_block_num(), n, f)
    if asc.get_block_idx() == 0:
        asc.printf("100%% done, %s\n", "text")
        print("print", n, f)


def test_printf(capfd):
    capfd.readouterr()
    run(printf_kernel, 42, 2.5, blocks=3)
    out = capfd.readouterr().out.splitlines()
    expected = {f"block {b} of 3: n=42 f=2.50" for b in range(3)}
    assert expected <= set(out)
    assert "100% done, text" in out
    assert "print 42 2.5" in out
    assert len(out) == 5


# --- launch arguments: pyasc.Tensor, NumPy, torch; specialisation -----------------------------


def _torch():
    try:
        import torch
    except ImportError:  # pip install torch==2.13.0 to run these
        pytest.fail("torch is not installed: pip install torch==2.13.0")
    return torch


def test_numpy_arguments_are_written_in_place():
    x, y = random(np.float32, BLOCKS * N, 1), random(np.float32, BLOCKS * N, 2)
    z = np.zeros_like(x)
    before = z.ctypes.data
    run(binary_kernel, x, y, z, N, asc.add, TILE)
    assert z.ctypes.data == before
    assert_same(z, x + y)


def test_pyasc_tensor_arguments_are_written_in_place():
    x, y = random(np.float32, BLOCKS * N, 1), random(np.float32, BLOCKS * N, 2)
    tx, ty = asc.asarray(x), asc.asarray(y)
    tz = asc.zeros(BLOCKS * N, dtype=asc.float32)
    run(binary_kernel, tx, ty, tz, N, asc.add, TILE)
    assert_same(tz.numpy(), x + y)
    run(binary_kernel, tz, ty, tz, N, asc.sub, TILE)  # z -= y in place
    assert_same(tz.numpy(), (x + y) - y)


def test_torch_arguments_are_written_in_place():
    torch = _torch()
    x, y = random(np.float32, BLOCKS * N, 1), random(np.float32, BLOCKS * N, 2)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)
    tz = torch.zeros(BLOCKS * N, dtype=torch.float32)
    ptr = tz.data_ptr()
    run(binary_kernel, tx, ty, tz, N, asc.mul, TILE)
    assert tz.data_ptr() == ptr
    assert_same(tz.numpy(), x * y)
    # x.dtype follows the argument: a float16 torch tensor gives float16 code.
    hx, hy = torch.from_numpy(x.astype(np.float16)), torch.from_numpy(y.astype(np.float16))
    hz = torch.zeros(BLOCKS * N, dtype=torch.float16)
    run(binary_kernel, hx, hy, hz, N, asc.add, TILE)
    assert_same(hz.numpy(), x.astype(np.float16) + y.astype(np.float16))
    assert "GlobalAddress<float16>" in binary_kernel.compile(hx, hy, hz, N, asc.add, TILE).ir_text


def test_specialisation_per_dtype():
    x32, y32 = random(np.float32, BLOCKS * N, 1), random(np.float32, BLOCKS * N, 2)
    x16, y16 = x32.astype(np.float16), y32.astype(np.float16)
    z32, z16 = np.zeros_like(x32), np.zeros_like(x16)
    run(binary_kernel, x32, y32, z32, N, asc.max, TILE)
    run(binary_kernel, x16, y16, z16, N, asc.max, TILE)
    assert_same(z32, np.maximum(x32, y32))
    assert_same(z16, np.maximum(x16, y16))
    k32 = binary_kernel.compile(x32, y32, z32, N, asc.max, TILE)
    k16 = binary_kernel.compile(x16, y16, z16, N, asc.max, TILE)
    assert k32 is not k16
    assert "GlobalAddress<float32>" in k32.ir_text and "float16" not in k32.ir_text
    assert "GlobalAddress<float16>" in k16.ir_text
    # The same types again: the same specialisation.
    assert binary_kernel.compile(x32, y32, z32, 2 * N, asc.max, TILE) is k32


def test_specialisation_per_constexpr_value():
    x = random(np.float32, BLOCKS * N)
    z = np.zeros_like(x)
    k64 = move_kernel.compile(x, z, N, 64)
    k32 = move_kernel.compile(x, z, N, 32)
    assert k64 is not k32
    assert "const 64 : int" in k64.ir_text and "const 64 : int" not in k32.ir_text
    for tile in (64, 32):
        z[:] = 0
        run(move_kernel, x, z, N, tile)
        assert_same(z, x)


def test_launch_on_tensors_is_asynchronous():
    x, y = random(np.float32, BLOCKS * N, 1), random(np.float32, BLOCKS * N, 2)
    z = np.zeros_like(x)
    xt, yt, zt = asc.from_numpy(x), asc.from_numpy(y), asc.from_numpy(z)  # share memory
    binary_kernel.compile(xt, yt, zt, N, asc.add, TILE)  # no compile inside the timed window
    s = asc.Stream()
    try:
        asc.testing.spin(200, stream=s)
        binary_kernel[BLOCKS, s](xt, yt, zt, N, asc.add, TILE)
        assert not z.any()  # queued behind the spin, not run yet
        s.synchronize()
        assert_same(z, x + y)
    finally:
        s.destroy()


def test_launch_on_numpy_arrays_is_complete_at_return():
    x, y = random(np.float32, BLOCKS * N, 1), random(np.float32, BLOCKS * N, 2)
    z = np.zeros_like(x)
    binary_kernel.compile(x, y, z, N, asc.add, TILE)
    s = asc.Stream()
    try:
        asc.testing.spin(200, stream=s)
        binary_kernel[BLOCKS, s](x, y, z, N, asc.add, TILE)
        assert_same(z, x + y)  # waited for the spin and the kernel
    finally:
        s.destroy()


def test_launch_argument_errors():
    x = random(np.float32, BLOCKS * N)
    with pytest.raises(TypeError, match="missing 1 required argument: .tile."):
        binary_kernel[BLOCKS](x, x, x, N, asc.add)
    with pytest.raises(TypeError, match="core_num must be an int"):
        binary_kernel[1.5](x, x, x, N, asc.add, TILE)
    with pytest.raises(TypeError, match="cannot pass"):
        binary_kernel[BLOCKS](x, x, "z", N, asc.add, TILE)
    with pytest.raises(TypeError, match=r"binary_kernel\[core_num\]"):
        binary_kernel(x, x, x, N, asc.add, TILE)
    with pytest.raises(asc.InvalidValueError, match="core count"):
        binary_kernel[0](x, x, x, N, asc.add, TILE)
