"""Seeded random numbers: pyasc.Generator (Philox4x32-10) and the global
rand/randn/randint.

The bit-exact tests recompute the documented layout (docs/random.md) with an
independent pure-Python Philox4x32-10, itself checked against the Random123
known-answer vectors. The distribution tests use fixed seeds, so they are
deterministic; their bounds are chi-square quantiles at p = 1e-6 on either
side (too uniform fails as well as too lumpy), computed here without scipy.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import pyasc

MASK = 0xFFFFFFFF
M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85


def philox(ctr, key):
    """Philox4x32-10 (Salmon et al., SC'11), written from the paper."""
    c = list(ctr)
    k0, k1 = key
    for r in range(10):
        if r:
            k0, k1 = (k0 + W0) & MASK, (k1 + W1) & MASK
        p0, p1 = M0 * c[0], M1 * c[2]
        c = [((p1 >> 32) ^ c[1] ^ k0) & MASK, p1 & MASK, ((p0 >> 32) ^ c[3] ^ k1) & MASK, p0 & MASK]
    return c


def block(seed, call, index, attempt=0):
    """The 4 words of counter block `index` of generator call `call`."""
    key = (seed & MASK, seed >> 32)
    idx = index | (attempt << 48)
    return philox([idx & MASK, idx >> 32, call & MASK, call >> 32], key)


def test_reference_philox_known_answers():
    # Random123's kat_vectors for philox4x32-10: counter, key -> output.
    assert philox([0, 0, 0, 0], [0, 0]) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    assert philox([MASK] * 4, [MASK, MASK]) == [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]
    assert philox([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0]) == [
        0xD16CFE09,
        0x94FDCCEB,
        0x5001E420,
        0x24126EA1,
    ]


SEED = 0x0123456789ABCDEF


def test_raw_words_follow_the_documented_layout():
    g = pyasc.Generator(SEED)
    # Range 2**32 - 1: every 32-bit word is accepted, element i is word 0 of block i.
    w = g.integers(0, 2**32, size=64).numpy()
    assert w.tolist() == [block(SEED, 0, i)[0] for i in range(64)]
    # The full int64 range: words 0 and 1 of block i, offset by -2**63.
    v = g.integers(-(2**63), 2**63, size=16).numpy()
    want = []
    for i in range(16):
        b = block(SEED, 1, i)
        x = ((b[0] << 32) | b[1]) - 2**63
        want.append(x)
    assert v.tolist() == want
    # The counter's high word numbers calls beyond 2**32.
    g.state = {"bit_generator": "Philox4x32-10", "seed": SEED, "counter": 2**32 + 5}
    w = g.integers(0, 2**32, size=8).numpy()
    assert w.tolist() == [block(SEED, 2**32 + 5, i)[0] for i in range(8)]
    assert g.state["counter"] == 2**32 + 6


def test_uniform_bits():
    g = pyasc.Generator(SEED)
    x = g.random(11).numpy()
    want = []
    for i in range(11):
        b = block(SEED, 0, i // 2)
        r = 2 * (i % 2)
        want.append((((b[r] << 32) | b[r + 1]) >> 11) * 2.0**-53)
    assert x.dtype == np.float64 and x.tolist() == want
    y = g.random(11, dtype=pyasc.float32).numpy()
    want = [(block(SEED, 1, i // 4)[i % 4] >> 8) * 2.0**-24 for i in range(11)]
    assert y.dtype == np.float32 and y.tolist() == want


def _box_muller(u1, u2, second):
    r = math.sqrt(-2.0 * math.log(u1))
    t = 2.0 * math.pi * u2
    return r * (math.sin(t) if second else math.cos(t))


def test_normal_formula():
    g = pyasc.Generator(SEED)
    z = g.standard_normal(9).numpy()
    want = []
    for i in range(9):
        b = block(SEED, 0, i // 2)
        u1 = ((((b[0] << 32) | b[1]) >> 11) + 1) * 2.0**-53
        u2 = (((b[2] << 32) | b[3]) >> 11) * 2.0**-53
        want.append(_box_muller(u1, u2, i % 2))
    np.testing.assert_allclose(z, want, rtol=1e-13, atol=1e-15)
    z32 = g.standard_normal(9, dtype="float32").numpy()
    want = []
    for i in range(9):
        b = block(SEED, 1, i // 4)
        p = 2 * ((i >> 1) & 1)
        want.append(_box_muller((b[p] + 1) * 2.0**-32, b[p + 1] * 2.0**-32, i % 2))
    assert z32.dtype == np.float32
    np.testing.assert_allclose(z32, np.float32(want), rtol=2e-7, atol=1e-7)


def test_integers_rejection_layout():
    """[0, 3): range 2 under mask 3; a candidate word w & 3 == 3 is rejected.
    Candidates are words 0..3 of block (i, attempt 0), then of attempt 1 ..."""
    g = pyasc.Generator(SEED)
    n = 1500
    x = g.integers(0, 3, size=n).numpy()
    want, retried = [], 0
    for i in range(n):
        attempt = 0
        while True:
            vals = [w & 3 for w in block(SEED, 0, i, attempt) if w & 3 <= 2]
            if vals:
                want.append(vals[0])
                break
            attempt += 1
        retried += attempt > 0
    assert retried > 0  # the case of four rejections was exercised
    assert x.tolist() == want


# --- determinism -----------------------------------------------------------------------


def _draws(seed):
    g = pyasc.Generator(seed)
    return [
        g.random(300_000).numpy(),
        g.random((700, 500), dtype="float32").numpy(),
        g.standard_normal(300_001).numpy(),
        g.standard_normal((3, 100_000), dtype="float32").numpy(),
        g.integers(-5, 1000, size=300_000).numpy(),
        g.integers(0, 2**40, size=(2, 150_000), dtype="int64").numpy(),
    ]


def test_same_seed_same_numbers_for_any_worker_count():
    props = pyasc.get_device_properties()
    try:
        pyasc.configure_device(worker_threads=1)
        one = _draws(7)
        pyasc.configure_device(worker_threads=2)
        two = _draws(7)
    finally:
        pyasc.configure_device(worker_threads=props.worker_threads)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)
    again = _draws(7)
    for a, b in zip(one, again):
        np.testing.assert_array_equal(a, b)


def test_seeds_and_calls_differ():
    a = pyasc.Generator(1).random(1000).numpy()
    b = pyasc.Generator(2).random(1000).numpy()
    assert np.mean(a == b) < 0.01
    g = pyasc.Generator(1)
    first, second = g.random(1000).numpy(), g.random(1000).numpy()
    np.testing.assert_array_equal(first, a)
    assert np.mean(first == second) < 0.01
    # Seeds differing in the high word only.
    c = pyasc.Generator(1 + 2**32).random(1000).numpy()
    assert np.mean(a == c) < 0.01
    # No seed: one from the OS, so two generators differ.
    assert pyasc.Generator().seed != pyasc.Generator().seed


def test_state_round_trip():
    g = pyasc.Generator(99)
    g.random(5)
    saved = g.state
    assert saved == {"bit_generator": "Philox4x32-10", "seed": 99, "counter": 1}
    x = g.standard_normal(20).numpy()
    g.state = saved
    np.testing.assert_array_equal(g.standard_normal(20).numpy(), x)
    with pytest.raises(TypeError):
        g.state = 5
    with pytest.raises(pyasc.InvalidValueError):
        g.state = {"bit_generator": "MT19937", "seed": 1, "counter": 0}
    with pytest.raises(pyasc.InvalidValueError):
        g.state = {"bit_generator": "Philox4x32-10", "seed": -1, "counter": 0}


# --- distributions -------------------------------------------------------------------------


def _chi2_bounds(dof, z=4.753):
    """Wilson-Hilferty quantiles of chi-square(dof) at p = 1e-6 on each side."""
    c = 2.0 / (9.0 * dof)
    return dof * (1 - c - z * math.sqrt(c)) ** 3, dof * (1 - c + z * math.sqrt(c)) ** 3


def _check_chi2(counts, probs):
    n = counts.sum()
    expected = n * np.asarray(probs)
    assert expected.min() >= 5  # the chi-square approximation holds
    stat = float(((counts - expected) ** 2 / expected).sum())
    lo, hi = _chi2_bounds(len(counts) - 1)
    assert lo < stat < hi, (stat, lo, hi)


N = 100_000


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_uniform_distribution(dtype):
    x = pyasc.Generator(2024).random(N, dtype=dtype).numpy().astype(np.float64)
    assert x.min() >= 0.0 and x.max() < 1.0
    bits = 24 if dtype == "float32" else 53
    assert np.all(x * 2.0**bits == np.floor(x * 2.0**bits))  # multiples of 2**-bits
    sd = math.sqrt(1 / 12)
    assert abs(x.mean() - 0.5) < 5 * sd / math.sqrt(N)
    assert abs(x.var() - 1 / 12) < 5 * math.sqrt(1 / 180 / N)  # var of (x - 1/2)**2 is 1/180
    counts = np.histogram(x, bins=50, range=(0, 1))[0]
    _check_chi2(counts, [1 / 50] * 50)
    # Neighbours are uncorrelated.
    assert abs(np.corrcoef(x[:-1], x[1:])[0, 1]) < 5 / math.sqrt(N)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_normal_distribution(dtype):
    z = pyasc.Generator(31337).standard_normal(N, dtype=dtype).numpy().astype(np.float64)
    assert np.isfinite(z).all()
    assert abs(z.mean()) < 5 / math.sqrt(N)
    assert abs(z.var() - 1) < 5 * math.sqrt(2 / N)
    edges = [-math.inf, -3, -2.5, -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5, 3, math.inf]
    cdf = [0.5 * (1 + math.erf(e / math.sqrt(2))) if math.isfinite(e) else float(e > 0)
           for e in edges]
    probs = np.diff(cdf)
    counts = np.histogram(z, bins=edges)[0]
    _check_chi2(counts, probs)
    # The two halves of each Box-Muller pair are independent.
    assert abs(np.corrcoef(z[0::2], z[1::2])[0, 1]) < 5 / math.sqrt(N / 2)
    assert abs(np.mean(z**4) - 3) < 0.1  # kurtosis of a normal


def test_integers_distribution_and_bounds():
    g = pyasc.Generator(5)
    x = g.integers(3, 13, size=N).numpy()
    assert x.dtype == np.int64 and x.min() == 3 and x.max() == 12
    _check_chi2(np.bincount(x - 3, minlength=10), [0.1] * 10)
    y = g.integers(10, size=(50, 40)).numpy()  # [0, 10)
    assert y.shape == (50, 40) and set(np.unique(y)) == set(range(10))
    e = g.integers(-2, 2, size=5000, endpoint=True).numpy()
    assert set(np.unique(e)) == {-2, -1, 0, 1, 2}
    big = g.integers(0, 2**40 + 7, size=N).numpy()
    assert big.min() >= 0 and big.max() < 2**40 + 7
    assert abs(big.mean() / 2**40 - 0.5) < 0.01
    full = g.integers(-(2**63), 2**63, size=1000).numpy()
    assert (full < 0).any() and (full > 0).any()
    assert g.integers(7, 8, size=10).tolist() == [7] * 10  # a range of one value
    assert g.integers(-3, -3, size=4, endpoint=True).tolist() == [-3] * 4


@pytest.mark.parametrize(
    "dtype,low,high",
    [("int8", -128, 128), ("uint8", 0, 256), ("int16", -300, 300), ("int32", -(2**31), 2**31),
     ("bool", 0, 2)],
)
def test_integers_dtypes(dtype, low, high):
    x = pyasc.Generator(11).integers(low, high, size=20_000, dtype=dtype)
    assert x.dtype == pyasc.dtype(dtype)
    v = x.numpy().astype(np.int64)
    assert v.min() >= low and v.max() < high
    if high - low <= 600:
        assert len(np.unique(v)) == high - low  # every value drawn


# --- API -------------------------------------------------------------------------------------


def test_shapes_and_dtypes():
    g = pyasc.Generator(0)
    assert g.random().shape == () and g.random().dtype == pyasc.float64
    assert g.random(5).shape == (5,)
    assert g.random((2, 0, 3)).shape == (2, 0, 3)
    assert g.standard_normal([3, 4], dtype=np.float32).dtype == pyasc.float32
    assert g.integers(5).shape == ()
    assert g.integers(5, size=(2, 2), dtype=pyasc.int16).dtype == pyasc.int16
    assert repr(g) == "Generator(Philox4x32-10, seed=0)"


def test_global_generator_and_helpers():
    pyasc.manual_seed(123)
    a = pyasc.rand(2, 3)
    b = pyasc.randn((4,))
    c = pyasc.randint(10, size=5)
    d = pyasc.randint(-5, 5, (2, 2), dtype="int8")
    assert a.shape == (2, 3) and a.dtype == pyasc.float64
    assert b.shape == (4,) and c.shape == (5,) and d.dtype == pyasc.int8
    g = pyasc.manual_seed(123)
    assert g is pyasc.random.default_generator()
    np.testing.assert_array_equal(pyasc.rand(2, 3).numpy(), a.numpy())
    np.testing.assert_array_equal(pyasc.randn(4).numpy(), b.numpy())
    np.testing.assert_array_equal(pyasc.randint(10, size=5).numpy(), c.numpy())
    np.testing.assert_array_equal(pyasc.randint(-5, 5, (2, 2), dtype="int8").numpy(), d.numpy())
    own = pyasc.Generator(123)
    np.testing.assert_array_equal(pyasc.rand(2, 3, generator=own).numpy(), a.numpy())
    assert pyasc.rand(3, dtype="float32").dtype == pyasc.float32
    rng = pyasc.random.default_rng(123)
    assert isinstance(rng, pyasc.Generator) and rng.seed == 123
    assert pyasc.random.default_rng(rng) is rng
    np.testing.assert_array_equal(rng.random((2, 3)).numpy(), a.numpy())


def test_errors():
    g = pyasc.Generator(0)
    with pytest.raises(pyasc.DTypeError, match="float32 or float64"):
        g.random(3, dtype="int32")
    with pytest.raises(pyasc.DTypeError):
        g.standard_normal(3, dtype="float16")
    with pytest.raises(pyasc.DTypeError):
        g.integers(0, 5, dtype="float32")
    with pytest.raises(pyasc.InvalidValueError, match="low >= high"):
        g.integers(5, 3)
    with pytest.raises(pyasc.InvalidValueError, match="low > high"):
        g.integers(5, 3, endpoint=True)
    with pytest.raises(pyasc.InvalidValueError, match="high <= 0"):
        g.integers(0)
    with pytest.raises(pyasc.InvalidValueError, match="high is out of bounds for int8"):
        g.integers(300, dtype="int8")
    with pytest.raises(pyasc.InvalidValueError, match="low is out of bounds for uint8"):
        g.integers(-1, 5, dtype="uint8")
    with pytest.raises(pyasc.InvalidValueError, match="high is out of bounds"):
        g.integers(0, 2**64 + 1)
    with pytest.raises(pyasc.InvalidValueError, match="negative dimensions"):
        g.random((2, -1))
    with pytest.raises(TypeError):
        g.random("abc")
    with pytest.raises(TypeError):
        g.integers(1.5)
    with pytest.raises(pyasc.InvalidValueError, match="non-negative"):
        pyasc.Generator(-1)
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.Generator(2**64)
    with pytest.raises(TypeError):
        pyasc.Generator(1.5)
    with pytest.raises(TypeError):
        pyasc.manual_seed("x")
    assert g.state["counter"] == 0  # failed calls consume no numbers
