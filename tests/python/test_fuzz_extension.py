"""A bounded fuzz suite of the extension: random calls of pyasc._C's tensor
functions and pyasc.Tensor's methods and operators with hostile arguments.

Every call must return or raise an ordinary exception: never crash the
process, never raise SystemError (a C function that failed without setting
an error, or set one and returned a value), never pyasc.InternalError, never
RecursionError. Nothing else is asserted: the other suites check results.

The number of calls is bounded: PYASC_FUZZ_CALLS (default 24000) is split
over the tests below. Examples are derandomised unless PYASC_FUZZ_SEED is
set; PYASC_FUZZ_TRACE=1 prints each call before it runs, to find the one
that crashed the process. The whole run is under a 64 MiB device memory
limit, so that a valid but huge size fails instead of filling the host.
"""

from __future__ import annotations

import inspect
import math
import mmap
import operator
import os
import sys
import time
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import pyasc
from pyasc import _C, memory

CALLS = int(os.environ.get("PYASC_FUZZ_CALLS", "24000"))
BATCH = 64  # calls per Hypothesis example: drawing is the slow part
TRACE = os.environ.get("PYASC_FUZZ_TRACE") == "1"
SEED = os.environ.get("PYASC_FUZZ_SEED")
MEMORY_LIMIT = 64 << 20

# --- the argument pool --------------------------------------------------------------------------


class BadIndex:
    """An int-like whose conversion fails."""

    def __index__(self) -> int:
        raise ValueError("no index")


class HugeIndex:
    """An int-like beyond 64 bits."""

    def __index__(self) -> int:
        return 2**70


class BadSequence:
    """A sequence whose items fail."""

    def __len__(self) -> int:
        return 3

    def __getitem__(self, i: int) -> Any:
        raise RuntimeError("no item")


class BadArray:
    """An array-like whose NumPy conversion fails."""

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("no array")


class BadDLPack:
    """A DLPack producer that returns garbage."""

    def __dlpack__(self, **kwargs: Any) -> Any:
        return 7

    def __dlpack_device__(self) -> Any:
        return ("cpu", 0)


WRAPS = 6148914691236517206  # 3 * WRAPS == 2 modulo 2**64
INTS = [0, 1, 2, 3, -1, -2, -3, 7, 2**31, 2**32, 2**62, 2**63 - 1, 2**63, -(2**63),
        -(2**63) - 1, 2**64, 10**30, True, False, HugeIndex(), BadIndex(), np.int64(-1), WRAPS,
        3 * WRAPS, 2**61 + 1]
FLOATS = [0.0, -0.0, 1.5, -2.5, math.nan, math.inf, -math.inf, 1e308, 5e-324, np.float32(2)]
SHAPES = [(), (2, 3), (3, 2), (-1,), (6,), (1, 6), (2**62, 2**62), (0, 5), (1,) * 17, (3, 2**63),
          [2, -1], (0,), (2**31, 0), (1, 1, 1), (4, 3), (BadIndex(),), (2.0, 3), "23"]
MISC = [None, "", "float32", "cpu", "cpu:1", "bogus", b"\x01\x02\x03",
        bytearray(b"\x00" * 8), [], [1, 2, 3], [[1, 2], [3, 4]], [[1], [2, 3]], [1.5, None],
        [[[]]], [2**64], slice(None, None, -1), slice(2**63, None, 2**62), slice(1, None, 0),
        Ellipsis, range(3), {"a": 1}, object(), BadSequence(), BadArray(), BadDLPack(), 1 + 2j,
        (slice(None), None, 0), (Ellipsis, -1), (0, 0, 0)]


def unaligned() -> np.ndarray:
    raw = np.zeros(6 * 8 + 1, dtype=np.uint8)
    return raw[1:].view(np.float64).reshape(2, 3)


def readonly(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def numpy_pool() -> list[Any]:
    return [np.arange(4.0), readonly(np.arange(6, dtype=np.int32).reshape(2, 3)), unaligned(),
            np.arange(12.0).reshape(3, 4)[:, ::2], np.array(2.5), np.float64(2.0), np.int8(-3),
            np.zeros((0, 3), np.float32), np.array([1 + 1j]), np.array([object()]),
            np.zeros(2, dtype=[("a", "i4"), ("b", "f8")]), np.arange(4, dtype=np.uint16),
            np.array([True, False]), np.float16([1.5, -2])]


def tensor_pool() -> list[Any]:
    base = pyasc.arange(6.0).reshape(2, 3)
    return [pyasc.zeros(()), base, base.T, base[:, ::-1], pyasc.arange(6, dtype=pyasc.int32),
            pyasc.asarray([True, False, True]), pyasc.ones(3, dtype=pyasc.float16),
            pyasc.ones(3, dtype=pyasc.bfloat16), pyasc.zeros((0, 3)),
            pyasc.ones(1).broadcast_to(4, 3), pyasc.from_numpy(unaligned()),
            pyasc.from_numpy(readonly(np.arange(3.0))), pyasc.asarray(b"\x01\x02"),
            pyasc.arange(4, dtype=pyasc.uint8), pyasc.full((2, 2), -7, dtype=pyasc.int64)]


DTYPES = [pyasc.float32, pyasc.float64, pyasc.int8, pyasc.bool_, pyasc.bfloat16, pyasc.float16,
          pyasc.uint8, np.float64, np.dtype("complex128"), int, float, bool, str]


def make_pool() -> list[list[Any]]:
    """Argument categories; an argument is drawn by category weight first."""
    return [tensor_pool(), INTS, numpy_pool(), FLOATS, SHAPES, DTYPES, MISC]


# Percent of arguments from each category of make_pool(), in order.
WEIGHTS = [35, 22, 10, 8, 10, 8, 7]
CUMULATIVE = [sum(WEIGHTS[: i + 1]) for i in range(len(WEIGHTS))]


def pick(pool: list[list[Any]], x: int) -> Any:
    """Argument number x: its category from x % 100, its item from the rest."""
    r = x % 100
    category = next(i for i, c in enumerate(CUMULATIVE) if r < c)
    items = pool[category]
    return items[(x // 100) % len(items)]


KWARGS = ["axis", "axis", "out", "out", "dtype", "dtype", "keepdims", "ddof", "raw", "copy",
          "device", "decimals", "endpoint", "size", "k", "nbytes", "offset", "high",
          "max_version", "bogus"]

# --- the targets --------------------------------------------------------------------------------

# Excluded: device and stream configuration, allocator settings, the
# testing hooks and the hooks other modules install (global state other
# suites own: a fuzzed set_launch_hooked(True) kept one worker's kernels off
# the fast path, a fuzzed _set_array_importer(bool) made asarray call bool),
# and the kernel compiler.
EXCLUDED = {"configure_device", "set_device", "set_stream", "set_memory_limit", "set_caching",
            "empty_cache", "reset_peak_memory_stats", "jit_build", "jit_cache_dir",
            "_testing_fail", "_testing_spin", "_vector_isa", "init_error", "libasc_version",
            "synchronize", "set_launch_hooked", "_set_array_importer"}

MODULE_FUNCTIONS = sorted(
    name for name in dir(_C)
    if not name.startswith("__") and name not in EXCLUDED
    and callable(getattr(_C, name)) and not isinstance(getattr(_C, name), type)
)

TENSOR_METHODS = sorted(
    name for name in dir(_C.Tensor)
    if (not name.startswith("__") or name in ("__dlpack__", "__array__", "__dlpack_device__"))
    and callable(getattr(_C.Tensor, name))
)
TENSOR_PROPERTIES = sorted(
    name for name in dir(_C.Tensor)
    if not name.startswith("_") and not callable(getattr(_C.Tensor, name))
)

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
          operator.mod, operator.pow, operator.matmul, operator.and_, operator.or_, operator.xor,
          operator.lshift, operator.rshift, operator.lt, operator.le, operator.eq, operator.ne,
          operator.gt, operator.ge, operator.iadd, operator.isub, operator.imul,
          operator.itruediv, operator.ifloordiv, operator.imod, operator.ipow, operator.imatmul,
          operator.iand, operator.ior, operator.ixor, operator.ilshift, operator.irshift,
          operator.getitem, operator.delitem, divmod, np.add, np.maximum, np.concatenate]
UNARY = [operator.neg, operator.pos, operator.abs, operator.invert, bool, int, float, len, list,
         repr, str, np.asarray, memoryview, np.sum, np.exp]
# (operator, its number of operands); the first operand is always a tensor.
OPERATORS: list[tuple[Callable[..., Any], int]] = (
    [(fn, 2) for fn in BINARY] * 2 + [(fn, 1) for fn in UNARY] + [(operator.setitem, 3)] * 8
)

CLASSES = [_C.Tensor, _C.dtype, _C.Generator]


def arity(fn: Any, bound: bool) -> tuple[int, int]:
    """(required, most) positional arguments, read from the text signature
    (inspect.signature); ``bound`` drops a method's self. (0, 4) when it
    has none."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return 0, 4
    if bound and params:
        params = params[1:]
    required = most = 0
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            return required, 4
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            break
        most += 1
        required += p.default is p.empty
    return required, max(most, required)


def fit(values: tuple, spec: tuple[int, int], pad: list) -> tuple:
    """The drawn arguments cut or padded (with tensors) to a count the
    target accepts, so that most calls get past argument parsing."""
    required, most = spec
    n = required + len(values) % (most - required + 1)
    return (values + tuple(pad[k % len(pad)] for k in range(n)))[:n]


def describe(value: Any) -> str:
    """A short text for value, even when its repr fails (a deferred error)."""
    if isinstance(value, pyasc.Tensor):
        return f"Tensor(shape={value.shape}, strides={value.strides}, dtype={value.dtype})"
    try:
        return repr(value)[:100]
    except Exception as e:  # noqa: BLE001
        return f"<{type(value).__name__}: repr raised {e!r}>"


def check_outcome(fn: Any, args: tuple, kwargs: dict) -> Any:
    """Calls fn(*args, **kwargs): any return, or an ordinary exception
    (then None is returned)."""
    if TRACE:
        print(f"CALL {fn!r} {[describe(a) for a in args]} {kwargs.keys()}", file=sys.stderr,
              flush=True)
    try:
        return fn(*args, **kwargs)
    except (SystemError, pyasc.InternalError, RecursionError) as e:
        text = f"{fn!r}({', '.join(map(describe, args))}, **{list(kwargs)}) raised {e!r}"
        raise AssertionError(text) from e
    except Exception:  # noqa: BLE001 - any ordinary error is an acceptable answer
        return None


def settle() -> None:
    """Reports (and so clears) any deferred device error of the batch."""
    try:
        pyasc.synchronize()
    except pyasc.Error:
        pass


def fuzz_settings(share: float) -> Callable[[Any], Any]:
    examples = max(1, int(CALLS * share) // BATCH)

    def wrap(test: Any) -> Any:
        test = settings(max_examples=examples, deadline=None, database=None,
                        derandomize=SEED is None, print_blob=True,
                        suppress_health_check=list(HealthCheck))(test)
        return seed(int(SEED))(test) if SEED is not None else test

    return wrap


@pytest.fixture(autouse=True)
def bounded_memory():
    """Valid but huge sizes fail fast instead of exhausting the host."""
    memory.set_memory_limit(MEMORY_LIMIT)
    yield
    settle()


@pytest.fixture(scope="module")
def rate():
    """Measures calls per second across the module (printed with -s)."""
    counter = {"calls": 0, "seconds": 0.0}
    yield counter
    if counter["seconds"]:
        print(f"\nfuzz: {counter['calls']} calls in {counter['seconds']:.1f} s "
              f"({counter['calls'] / counter['seconds']:.0f} calls/s)")


CALL_BYTES = 20


def decode(blob: bytes) -> list[tuple[int, tuple[int, ...], tuple[tuple[str, int], ...]]]:
    """Calls from raw bytes, CALL_BYTES each: a target (2 bytes), an
    argument count, four argument numbers for pick() (3 bytes each), and a
    keyword (name byte, 3-byte value) that one call in three uses."""
    calls = []
    for at in range(0, len(blob) - CALL_BYTES + 1, CALL_BYTES):
        c = blob[at: at + CALL_BYTES]
        args = tuple(int.from_bytes(c[3 + 3 * k: 6 + 3 * k], "little") for k in range(c[2] % 5))
        kw = ((KWARGS[c[16] % len(KWARGS)], int.from_bytes(c[17:20], "little")),)
        calls.append((int.from_bytes(c[0:2], "little"), args, kw if c[15] % 3 == 0 else ()))
    return calls


# Hypothesis seeds a real PRNG per example: its own byte strings lean to
# zeros (one call repeated), and drawing each number costs more than the
# call. A failure reports the seed; PYASC_FUZZ_TRACE=1 then names the call.
batch = st.randoms(use_true_random=True).map(lambda r: decode(r.randbytes(BATCH * CALL_BYTES)))


KEEP_RESULTS = 12  # tensors a batch made, reused by its later calls
KEEP_SIZE = 4096  # larger results (huge broadcast views) would make calls slow


def keep(pool: list[list[Any]], base: int, result: Any) -> None:
    """Chains calls: a small tensor result joins the tensor pool, so that
    the views and results of hostile calls meet hostile calls too."""
    if not isinstance(result, pyasc.Tensor):
        return
    try:
        size = result.size
        valid = size >= 0 and all(n >= 0 for n in result.shape)
    except Exception as e:  # noqa: BLE001
        raise AssertionError(f"a result's size cannot be read: {e!r}") from e
    if not valid:
        raise AssertionError(f"a result has an impossible size: {describe(result)}")
    if size > KEEP_SIZE:
        return
    tensors = pool[0]
    if len(tensors) - base >= KEEP_RESULTS:
        del tensors[base]
    tensors.append(result)


def run_batch(calls: list, targets: list, receiver: Callable[..., tuple], counter: dict) -> None:
    pool = make_pool()
    base = len(pool[0])
    start = time.perf_counter()
    for target, args, kwargs in calls:
        fn = targets[target % len(targets)]
        values = tuple(pick(pool, i) for i in args)
        fn, values, keywords = receiver(pool, target, fn, values)
        kw = {name: pick(pool, i) for name, i in kwargs} if keywords else {}
        keep(pool, base, check_outcome(fn, values, kw))
    settle()
    counter["calls"] += len(calls)
    counter["seconds"] += time.perf_counter() - start


def as_function(pool: list, target: int, fn: Any, values: tuple) -> tuple:
    return fn, fit(values, FUNCTION_ARITY[fn], pool[0]), True


def as_method(pool: list, target: int, name: str, values: tuple) -> tuple:
    """name becomes a bound method of a tensor from the pool."""
    receiver = pool[0][target % len(pool[0])]
    if name in TENSOR_PROPERTIES:
        return getattr, (receiver, name), False
    return getattr(receiver, name), fit(values, METHOD_ARITY[name], pool[0]), True


def with_tensor_first(pool: list, target: int, op: tuple, values: tuple) -> tuple:
    """Operators: the first operand is a tensor from the pool, the others
    drawn (a tensor when too few were)."""
    fn, arity = op
    tensors = pool[0]
    others = (values + tuple(tensors[(target >> k) % len(tensors)] for k in range(4)))[: arity - 1]
    return fn, (tensors[target % len(tensors)],) + others, False


FUNCTIONS = [getattr(_C, n) for n in MODULE_FUNCTIONS] + CLASSES
FUNCTION_ARITY = {fn: arity(fn, False) for fn in FUNCTIONS}
METHOD_ARITY = {name: arity(getattr(_C.Tensor, name), True) for name in TENSOR_METHODS}


@fuzz_settings(0.35)
@given(batch)
def test_module_functions_survive_hostile_arguments(rate, calls):
    run_batch(calls, FUNCTIONS, as_function, rate)


@fuzz_settings(0.35)
@given(batch)
def test_tensor_methods_survive_hostile_arguments(rate, calls):
    run_batch(calls, TENSOR_METHODS + TENSOR_PROPERTIES, as_method, rate)


@fuzz_settings(0.3)
@given(batch)
def test_operators_and_indexing_survive_hostile_operands(rate, calls):
    run_batch(calls, OPERATORS, with_tensor_first, rate)


def test_the_fuzz_targets_cover_the_extension():
    """The suite really reaches the tensor API: a rename must not empty it."""
    for name in ["zeros", "asarray", "from_numpy", "from_dlpack", "sum", "matmul", "where",
                 "concatenate", "memcpy", "alloc", "arange", "eye", "linspace"]:
        assert name in MODULE_FUNCTIONS
    for name in ["reshape", "view", "broadcast_to", "transpose", "fill", "numpy", "__dlpack__",
                 "astype", "to", "item", "sum"]:
        assert name in TENSOR_METHODS
    assert {"shape", "strides", "T"} <= set(TENSOR_PROPERTIES)


def test_read_only_mmap_in_the_pool_is_never_written():
    """A PROT_READ page faults on any write: every write path must refuse it."""
    m = mmap.mmap(-1, 64, prot=mmap.PROT_READ)
    try:
        t = pyasc.from_numpy(np.frombuffer(m, dtype=np.float32))
        for fn, args in [(t.fill, (1.0,)), (operator.iadd, (t, 1)), (operator.setitem, (t, 0, 2)),
                         (pyasc.add, (t, t)), (pyasc.exp, (t,)), (pyasc.sum, (t,))]:
            kwargs = {"out": t} if fn in (pyasc.add, pyasc.exp) else {}
            check_outcome(fn, args, kwargs)
        assert t.tolist() == [0.0] * 16
        del t
    finally:
        settle()
