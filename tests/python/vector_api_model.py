"""Helpers and the reference model of the vector APIs' mask/repeat (level-0)
addressing, shared by test_kernel_api_ext.py and test_kernel_api_cast_reduce.py:
which (repeat, element) pairs an instruction touches and where each lies
(docs/kernel-reference.md §0.4).
"""

from __future__ import annotations

import numpy as np

import pyasc as asc
from kernel_api_helpers import CACHE, jit

UBB = 8192  # bytes of each UB operand region


def checked(kernel):
    """kernel's checked-mode variant (@pyasc.jit(debug=True))."""
    return asc.jit(kernel.fn, cache_dir=CACHE, debug=True)


def launch(kernel, *args, blocks=1):
    kernel[blocks](*args)
    asc.synchronize()


def rng(seed):
    return np.random.default_rng(seed)


def values(dtype, n, seed=0, positive=False):
    g = rng(seed)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return g.integers(max(info.min, -30000), min(info.max, 30000), n).astype(dtype)
    mag = g.uniform(0.125, 4.0, n)
    sign = 1.0 if positive else np.where(g.random(n) < 0.5, -1.0, 1.0)
    return (mag * sign).astype(dtype)


def signed(word):
    """A uint64 mask word as the int64 a kernel's int parameter carries."""
    return word - (1 << 64) if word >= 1 << 63 else word


def bits_equal(actual, expected):
    """Equal bit patterns (NaN payloads included)."""
    assert actual.dtype == expected.dtype
    a = actual.view(f"u{actual.itemsize}")
    e = expected.view(f"u{expected.itemsize}")
    bad = np.nonzero(a != e)[0]
    assert bad.size == 0, (f"{bad.size} elements differ, first at {bad[0]}: "
                           f"{actual[bad[0]]!r} != {expected[bad[0]]!r}")


# --- the reference model of the mask/repeat addressing --------------------------------------

V_CONT, V_BITS, V_COUNTER, V_REG_BITS, V_REG_COUNTER, V_COUNT, V_REG_LEN = range(7)
VARIANTS = {"continuous": V_CONT, "bits": V_BITS, "counter": V_COUNTER,
            "register_bits": V_REG_BITS, "register_counter": V_REG_COUNTER, "count": V_COUNT,
            "register_length": V_REG_LEN}


def selected(per_rep, variant, m0, m1, rep):
    """(repeat, element) pairs an instruction touches, in order."""
    if variant in (V_COUNTER, V_REG_COUNTER, V_COUNT):
        i = np.arange(m0)
        return i // per_rep, i % per_rep
    if variant in (V_CONT, V_REG_LEN):
        bits = (1 << m0) - 1
    else:
        bits = m0 | m1 << 64
    lanes = [i for i in range(per_rep) if bits >> i & 1]
    r = np.repeat(np.arange(rep), len(lanes))
    return r, np.tile(np.array(lanes, dtype=np.int64), rep)


def element(itemsize, blk, rep_stride, r, idx):
    """The element index of (r, idx) for an operand (docs §0.4)."""
    epb = 32 // itemsize
    return (r * rep_stride * 32 + (idx // epb) * blk * 32) // itemsize + idx % epb


@jit
def load(addr: asc.GlobalAddress, pos: asc.ConstExpr[int], at: asc.ConstExpr[int]):
    """UBB bytes of addr into the UB at byte `at`."""
    n = UBB // addr.dtype.sizeof()
    g = asc.GlobalTensor()
    g.set_global_buffer(addr, n)
    t = asc.LocalTensor(addr.dtype, pos, at, n)
    asc.data_copy(t, g, n)
    return t


@jit
def store(addr: asc.GlobalAddress, t):
    n = UBB // addr.dtype.sizeof()
    g = asc.GlobalTensor()
    g.set_global_buffer(addr, n)
    asc.data_copy(g, t, n)


@jit
def params(prm: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(prm, 16)
    return g
