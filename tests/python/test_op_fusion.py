"""The operator compiler (docs/op-compiler.md): fused kernels against eager
execution and NumPy, fallbacks with explain(), the per-signature cache,
the disk cache across processes, and error paths."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc
from test_ascendc import assert_valid_cpp

F16, F32, I16, I32 = np.float16, np.float32, np.int16, np.int32


@pytest.fixture(autouse=True)
def launch_every_size(monkeypatch):
    """Small groups normally run their operations eagerly: here every group
    launches its kernel, so that small cases test the kernels."""
    monkeypatch.setenv("PYASC_OP_FUSE_MIN", "0")

# --- random expression graphs ---------------------------------------------------

#: operations whose fused form is bit-exact with eager, by dtype family.
FLOAT_OPS = ("add", "sub", "mul", "div", "neg", "abs", "relu", "max", "min")
INT_OPS = ("add", "sub", "mul", "neg", "abs", "max", "min", "relu")


def _eval(expr, env):
    """Evaluates an expression tree with pyasc operators and functions (traced
    as it is: the fuser sees what eager runs)."""
    if isinstance(expr, str):
        return env[expr]
    if not isinstance(expr, tuple):
        return expr
    op, *args = expr
    vals = [_eval(a, env) for a in args]
    if op == "add":
        return vals[0] + vals[1]
    if op == "sub":
        return vals[0] - vals[1]
    if op == "mul":
        return vals[0] * vals[1]
    if op == "div":
        return vals[0] / vals[1]
    if op == "neg":
        return -vals[0]
    if op == "abs":
        return abs(vals[0])
    if op == "max":
        return pyasc.maximum(vals[0], vals[1])
    if op == "min":
        return pyasc.minimum(vals[0], vals[1])
    if op == "relu":
        return pyasc.relu(vals[0])
    if op == "exp":
        return pyasc.exp(vals[0])
    if op == "log":
        return pyasc.log(vals[0])
    if op == "sqrt":
        return pyasc.sqrt(vals[0])
    raise AssertionError(op)


def _np_pick(a, b, keep_a):
    """NumPy's maximum/minimum by their definition, ``a if keep_a(a, b) or
    isnan(a) else b``: np.maximum's SIMD loops may return either of two
    equal zeros."""
    if np.result_type(a, b).kind != "f":
        return np.maximum(a, b) if keep_a is np.greater_equal else np.minimum(a, b)
    return np.where(keep_a(a, b) | np.isnan(a), a, b)


def _numpy_eval(expr, env):
    if isinstance(expr, str):
        return env[expr]
    if not isinstance(expr, tuple):
        return expr
    op, *args = expr
    v = [_numpy_eval(a, env) for a in args]
    table = {"add": lambda: v[0] + v[1], "sub": lambda: v[0] - v[1], "mul": lambda: v[0] * v[1],
             "div": lambda: v[0] / v[1], "neg": lambda: -v[0], "abs": lambda: abs(v[0]),
             "max": lambda: _np_pick(v[0], v[1], np.greater_equal),
             "min": lambda: _np_pick(v[0], v[1], np.less_equal),
             "relu": lambda: np.maximum(v[0], 0) if v[0].dtype.kind == "i"
             else np.where(v[0] > 0, v[0], np.where(np.isnan(v[0]), v[0], 0)).astype(v[0].dtype)}
    with np.errstate(all="ignore"):
        return table[op]()


def _expressions(ops, leaves, constants):
    binary = [o for o in ops if o in ("add", "sub", "mul", "div", "max", "min")]
    unary = [o for o in ops if o not in binary]

    def extend(children):
        return st.one_of(
            st.tuples(st.sampled_from(binary), children, children),
            st.tuples(st.sampled_from(unary), children),
        )

    base = st.one_of(st.sampled_from(leaves), constants)
    return st.recursive(base, extend, max_leaves=6).filter(
        lambda e: isinstance(e, tuple) and _every_op_uses_input(e))


def _uses_input(expr):
    if isinstance(expr, str):
        return True
    return isinstance(expr, tuple) and any(_uses_input(a) for a in expr[1:])


def _every_op_uses_input(expr):
    """Operations on Python numbers alone would make pyasc constants of
    their own dtype (not traced): every operation here has a tensor operand."""
    if not isinstance(expr, tuple):
        return True
    return _uses_input(expr) and all(_every_op_uses_input(a) for a in expr[1:])


@st.composite
def _cases(draw):
    family = draw(st.sampled_from(["float", "int"]))
    dtypes = (F16, F32) if family == "float" else (I16, I32)
    shape = tuple(draw(st.lists(st.integers(1, 37), min_size=1, max_size=3)))
    arrays = {}
    for name in ("x", "y", "z"):
        dtype = draw(st.sampled_from(dtypes))
        pattern = draw(st.sampled_from(["full", "full", "scalar", "row", "col"]))
        if pattern == "full":
            s = shape
        elif pattern == "scalar":
            s = ()
        elif pattern == "row":
            s = shape[-1:]
        else:
            s = shape[:-1] + (1,) if len(shape) > 1 else (1,)
        seed = draw(st.integers(0, 2**32 - 1))
        rng = np.random.default_rng(seed)
        if family == "float":
            a = (rng.standard_normal(s) * 4).astype(dtype)
        else:
            a = rng.integers(-300, 300, s).astype(dtype)
        arrays[name] = a
    if family == "float":
        consts = st.sampled_from([0.5, 2.0, -1.25, 3.0, 0.1, 7])
        ops = FLOAT_OPS
    else:
        consts = st.integers(-9, 9)
        ops = INT_OPS
    expr = draw(_expressions(ops, ["x", "y", "z"], consts))
    return expr, arrays


def _make_op(expr, name="fz_fused_case"):
    def body(x, y, z):
        return _eval(expr, {"x": x, "y": y, "z": z})

    body.__name__ = name
    return pyasc.op(name=name, overwrite=True)(body)


def _same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype, a.shape, b.shape)
    if a.dtype.kind == "f":
        np.testing.assert_array_equal(a, b)  # NaNs compare equal here, whatever their sign
    else:
        assert np.array_equal(a, b)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_cases())
def test_random_graphs_fused_eager_numpy(case):
    expr, arrays = case
    op = _make_op(expr)
    fused = op(**arrays).numpy()
    eager = op.fn(**{k: pyasc.asarray(v) for k, v in arrays.items()}).numpy()
    _same(fused, eager)
    _same(fused, np.asarray(_numpy_eval(expr, arrays)))
    text = op.explain(**arrays)
    assert "runs eagerly" not in text and "fused kernel" in text, text
    again = op(**arrays).numpy()  # the cached signature: same kernels, same answer
    _same(again, fused)


# --- floats with ulp bounds ------------------------------------------------------


def _ulps(a, b):
    """Distance in units in the last place, per element (NaN vs NaN: 0)."""
    kind = {2: np.int16, 4: np.int32}[a.dtype.itemsize]
    ia = a.view(kind).astype(np.int64)
    ib = b.view(kind).astype(np.int64)
    sign = np.int64(1) << (8 * a.dtype.itemsize - 1)
    ia = np.where(ia < 0, -(ia + sign), ia)  # sign-magnitude -> ordered
    ib = np.where(ib < 0, -(ib + sign), ib)
    both_nan = np.isnan(a) & np.isnan(b)
    return np.where(both_nan, 0, np.abs(ia - ib))


@pytest.mark.parametrize("dtype", [F32, F16])
@pytest.mark.parametrize("fn", ["exp", "log", "sqrt"])
def test_transcendental_within_documented_ulps(fn, dtype):
    """exp/log/sqrt: the kernel runtime's libm and eager's SLEEF differ by
    at most 1 ulp (docs/op-compiler.md); the ops around them are exact."""
    rng = np.random.default_rng(5)
    x = (np.abs(rng.standard_normal(4099)) * 5 + 1e-3).astype(dtype)
    op = _make_op((fn, ("mul", "x", 0.5)), name=f"fz_ulp_{fn}")
    fused = op(x, x, x).numpy()
    eager = op.fn(pyasc.asarray(x), x, x).numpy()
    assert fused.dtype == eager.dtype == dtype
    assert _ulps(fused, eager).max() <= 1
    assert "fused_fz_ulp" in op.explain(x, x, x)


# --- what fuses, and what does not ----------------------------------------------


def test_library_call_between_fused_groups():
    @pyasc.op(name="fz_mm_between", overwrite=True)
    def mm(x, w):
        return pyasc.matmul(x * 2.0, w) + 1.0

    x = np.random.default_rng(0).standard_normal((5, 8)).astype(F32)
    w = np.random.default_rng(1).standard_normal((8, 3)).astype(F32)
    text = mm.explain(x, w)
    assert text.count("kernel over") == 2 and "eager matmul" in text, text
    _same(mm(x, w).numpy(), mm.fn(pyasc.asarray(x), pyasc.asarray(w)).numpy())


def test_mixed_dtypes_cast_inside_the_kernel():
    @pyasc.op(name="fz_mixed_cast", overwrite=True)
    def mixed(h, f, i, j):
        return (h + f) * 2.0, (i * j - 3).astype(pyasc.float32), (f + 1.0).astype(pyasc.float16)

    rng = np.random.default_rng(2)
    h = rng.standard_normal(300).astype(F16)
    f = rng.standard_normal(300).astype(F32)
    i = rng.integers(-9, 9, 300).astype(I16)
    j = rng.integers(-9, 9, 300).astype(I32)
    got = mixed(h, f, i, j)
    want = mixed.fn(*(pyasc.asarray(a) for a in (h, f, i, j)))
    assert "runs eagerly" not in mixed.explain(h, f, i, j)
    for a, b in zip(got, want):
        _same(a.numpy(), b.numpy())


def test_data_dependent_if_falls_back_with_reason():
    @pyasc.op(name="fz_data_if", overwrite=True)
    def data_if(x):
        if x.sum() > 0:
            return x * 2.0
        return -x

    for x in (np.ones(4, F32), -np.ones(4, F32)):
        _same(data_if(x).numpy(), data_if.fn(pyasc.asarray(x)).numpy())
    text = data_if.explain(np.ones(4, F32))
    assert "runs eagerly" in text and "bool() needs a concrete value" in text, text
    with pytest.raises(pyasc.UnsupportedError, match="no fused kernel"):
        data_if.ascendc(np.ones(4, F32))


def test_unsupported_op_and_dtype_run_eagerly_with_reason():
    @pyasc.op(name="fz_partly", overwrite=True)
    def partly(x):
        return pyasc.sigmoid(x) + 1.0  # float32 sigmoid computes in float64: no kernel form

    x = np.linspace(-2, 2, 50).astype(F32)
    text = partly.explain(x)
    assert "eager sigmoid" in text and "kernel over [50]" in text, text
    _same(partly(x).numpy(), partly.fn(pyasc.asarray(x)).numpy())
    x64 = x.astype(np.float64)
    text = partly.explain(x64)
    assert "0 fused kernel" in text and "add on float64" in text, text
    _same(partly(x64).numpy(), partly.fn(pyasc.asarray(x64)).numpy())


def test_inplace_operator_falls_back_and_keeps_eager_semantics():
    @pyasc.op(name="fz_inplace_op", overwrite=True)
    def inplace_op(x):
        x += 1.0
        return x * 2.0

    x = pyasc.asarray(np.zeros(8, F32))
    out = inplace_op(x)
    assert np.array_equal(x.numpy(), np.ones(8, F32))  # the caller's tensor was written
    assert np.array_equal(out.numpy(), np.full(8, 2, F32))
    assert "in-place operator" in inplace_op.explain(x)


def test_ascendc_of_the_fused_operator():
    @pyasc.op(name="fz_axpb", overwrite=True)
    def axpb(x, y):
        return (x + y) * 2.0

    x = np.ones(1000, F32)
    src = axpb.ascendc(x, x)
    assert 'extern "C" __global__ __aicore__ void fused_fz_axpb_0' in src
    for call in ("AscendC::DataCopy", "AscendC::Add", "AscendC::Muls", "SetFlag"):
        assert call in src


def test_small_groups_run_their_operations_eagerly(monkeypatch):
    monkeypatch.setenv("PYASC_OP_FUSE_MIN", "100")

    @pyasc.op(name="fz_small", overwrite=True)
    def small(x, y):
        return (x + y) * 2.0

    x = np.arange(99, dtype=F32)
    assert "not launched: 99 elements < PYASC_OP_FUSE_MIN=100" in small.explain(x, x)
    _same(small(x, x).numpy(), (x + x) * F32(2))
    assert "AscendC::Muls" in small.ascendc(x, x)  # built on demand, from the IR only
    x = np.arange(100, dtype=F32)
    assert "not launched" not in small.explain(x, x)
    _same(small(x, x).numpy(), (x + x) * F32(2))


def test_ascendc_of_casts_scalars_and_rows_is_valid_cpp():
    @pyasc.op(name="fz_cpp", overwrite=True)
    def cpp(x, h, row, s):
        y = (x + row) * s - 0.5
        return pyasc.exp(y).astype(pyasc.float16) + h, abs(y)

    args = (np.ones((4, 32), F32), np.ones((4, 32), F16), np.ones(32, F32), 2.0)
    src = cpp.ascendc(*args)
    assert "AscendC::Cast" in src and "GetValue(0)" in src and "AscendC::Exp" in src
    assert_valid_cpp(src)


def test_ascendc_of_an_operator_with_two_kernels_is_one_valid_cpp_text():
    @pyasc.op(name="fz_two", overwrite=True)
    def two(x, col, w):
        return (((x + col) * 2.0) @ w + col) * 0.5

    args = (np.ones((64, 64), F32), np.ones((64, 1), F32), np.ones((64, 64), F32))
    src = two.ascendc(*args)
    # both kernels use the same scalar helpers: joined, each must be defined once
    assert src.count('extern "C"') == 2 and src.count("PYASC_HELPER_pyasc_floordiv") >= 4
    assert_valid_cpp(src)


def test_views_and_noncontiguous_inputs():
    @pyasc.op(name="fz_views", overwrite=True)
    def views(x, y):
        return x.T * y + 1.0

    base = np.arange(60, dtype=F32).reshape(6, 10)
    y = pyasc.asarray(np.arange(60, dtype=F32).reshape(10, 6))[::-1]
    got = views(base, y).numpy()
    want = views.fn(pyasc.asarray(base), y).numpy()
    _same(got, want)
    _same(got, base.T * y.numpy() + F32(1))


@pytest.mark.parametrize("shape,row", [((7, 32), (32,)), ((1000, 48), (1, 48)),
                                       ((3, 5, 16), (16,)), ((4, 20), (20,)),
                                       ((3, 5, 16), (5, 16))])
def test_row_broadcast_in_the_kernel_or_by_a_copy(shape, row):
    @pyasc.op(name="fz_bias", overwrite=True)
    def bias(x, b):
        return (x + b) * b - 1.0

    rng = np.random.default_rng(4)
    x = rng.standard_normal(shape).astype(F32)
    b = rng.standard_normal(row).astype(F32)
    _same(bias(x, b).numpy(), bias.fn(pyasc.asarray(x), pyasc.asarray(b)).numpy())
    _same(bias(x, b).numpy(), (x + b) * b - F32(1))
    in_kernel = np.prod(row) % 16 == 0  # whole 32-byte blocks: repeated through the tiles
    text = bias.explain(x, b)
    assert ("broadcast in the kernel" in text) == in_kernel, text
    assert ("by one eager copy" in text) == (not in_kernel), text


def test_empty_and_zero_dim_shapes():
    @pyasc.op(name="fz_tiny", overwrite=True)
    def tiny(x, y):
        return x * y - 2.0

    for shape in [(0,), (), (1,), (3, 0)]:
        x = np.full(shape, 3, F32)
        _same(tiny(x, x).numpy(), tiny.fn(pyasc.asarray(x), pyasc.asarray(x)).numpy())


def test_large_input_spans_many_blocks_and_a_tail():
    @pyasc.op(name="fz_large", overwrite=True)
    def large(x, y):
        return (x - y) * y

    rng = np.random.default_rng(3)
    n = 3 * 8192 * 7 + 13
    x, y = rng.standard_normal(n).astype(F32), rng.standard_normal(n).astype(F32)
    _same(large(x, y).numpy(), (x - y) * y)


# --- the per-signature cache --------------------------------------------------------


def test_signature_cache_reuse_and_new_signatures():
    traced = []

    @pyasc.op(name="fz_counted", overwrite=True)
    def counted(x, y, scale: float = 2.0):
        traced.append(1)
        return x * scale + y

    x = np.ones(10, F32)
    counted(x, x)
    counted(x, x)
    counted(x, x, scale=2.0)
    assert len(counted._specs) == 2  # the keyword is a different call layout
    n = len(traced)
    counted(x, x, scale=3.0)  # an attribute value is part of the signature
    counted(np.ones(11, F32), x[:1])  # so is every shape
    counted(x.astype(F16), x.astype(F16))  # and every dtype
    assert len(counted._specs) == 5
    assert len(traced) == n + 3  # each new signature traced once
    assert np.array_equal(counted(x, x, scale=3.0).numpy(), np.full(10, 4, F32))
    assert len(traced) == n + 3


def test_python_scalar_inputs_are_values_not_signatures():
    @pyasc.op(name="fz_scalar_in", overwrite=True)
    def scalar_in(x, s):
        return x - s

    x = np.arange(5, dtype=F16)
    assert np.array_equal(scalar_in(x, 0.1).numpy(), x - F16(0.1))
    assert np.array_equal(scalar_in(x, 2.5).numpy(), x - F16(2.5))
    assert len(scalar_in._specs) == 1
    with pytest.raises(OverflowError, match="scalar_in: input 's'"):
        scalar_in(np.arange(3, dtype=np.int8), 1000)
    with pytest.raises(OverflowError, match="scalar_in: input 's'"):
        scalar_in(np.arange(3, dtype=np.int8), 1000)


def test_two_python_scalars_take_the_dtype_eager_gives_them():
    @pyasc.op(name="fz_two_scalars", overwrite=True)
    def two(x, a, b):
        return (x + b) * a

    x = np.arange(6, dtype=I32)
    big = 2**31 - 1  # int32 next to x: x + big wraps, as in eager
    for _ in range(2):  # the first call, then the cached signature
        got = two(x, 1.5, big)
        want = two.fn(pyasc.asarray(x), pyasc.Tensor(1.5), pyasc.Tensor(big, dtype=pyasc.int32))
        _same(got.numpy(), want.numpy())
        assert got.dtype == pyasc.float64


def test_errors_are_those_of_eager_calls():
    @pyasc.op(name="fz_checked_op", inputs={"x": pyasc.TensorSpec(dtypes=(pyasc.float32,),
                                                               shape=("N",)),
                                         "y": pyasc.TensorSpec(shape=("N",))}, overwrite=True)
    def checked_op(x, y):
        return x + y

    x = np.ones(4, F32)
    checked_op(x, x)
    with pytest.raises(pyasc.DTypeError, match="input 'x' has dtype float16"):
        checked_op(x.astype(F16), x)
    with pytest.raises(pyasc.InvalidValueError, match="N=4"):
        checked_op(x, np.ones(5, F32))
    with pytest.raises(pyasc.DTypeError, match="missing a required argument"):
        checked_op(x)
    with pytest.raises(pyasc.DTypeError, match="must be a Tensor"):
        checked_op(x, "text")

    @pyasc.op(name="fz_bad_broadcast", overwrite=True)
    def bad_broadcast(x, y):
        return x * y

    with pytest.raises(pyasc.InvalidValueError) as fused:
        bad_broadcast(np.ones(3, F32), np.ones(4, F32))
    with pytest.raises(pyasc.InvalidValueError) as eager:
        bad_broadcast.fn(pyasc.asarray(np.ones(3, F32)), pyasc.asarray(np.ones(4, F32)))
    assert str(fused.value) == str(eager.value)


def test_output_specs_checked_for_compiled_signatures():
    @pyasc.op(name="fz_out_checked", outputs={"z": pyasc.TensorSpec(dtypes=(pyasc.float16,))},
              overwrite=True)
    def out_checked(x):
        return x + 1.0

    assert out_checked(np.ones(3, F16)).dtype == pyasc.float16
    with pytest.raises(pyasc.DTypeError, match="output 'z' has dtype float32"):
        out_checked(np.ones(3, F32))
    with pytest.raises(pyasc.DTypeError, match="output 'z' has dtype float32"):
        out_checked(np.ones(3, F32))  # a failing signature is not cached


def test_eager_signature_checks_value_dependent_outputs_on_every_call():
    @pyasc.op(name="fz_positive", inputs={"x": pyasc.TensorSpec(shape=("N",))},
              outputs={"y": pyasc.TensorSpec(shape=("N",))}, overwrite=True)
    def positive(x):
        if float(x.sum()) > 0:
            return x
        return x[:2]

    assert "runs eagerly" in positive.explain(np.ones(4, F32))
    assert positive(np.ones(4, F32)).shape == (4,)
    with pytest.raises(pyasc.InvalidValueError, match="output 'y' has shape"):
        positive(-np.ones(4, F32))  # the same signature, a shorter result


def test_compile_switch_off_runs_eagerly(monkeypatch):
    monkeypatch.setenv("PYASC_OP_COMPILE", "0")

    @pyasc.op(name="fz_switched", overwrite=True)
    def switched(x):
        return x * 2.0

    assert "PYASC_OP_COMPILE=0" in switched.explain(np.ones(2, F32))
    assert np.array_equal(switched(np.ones(2, F32)).numpy(), np.full(2, 2, F32))


_CHILD = textwrap.dedent("""
    import numpy as np, pyasc

    @pyasc.op
    def cross_process(x, y):
        return (x + y) * 3.0 - x

    x = np.arange(100, dtype=np.float32)
    print(cross_process.explain(x, x))
    assert np.array_equal(cross_process(x, x).numpy(), (x + x) * np.float32(3) - x)
""")


def test_disk_cache_reused_by_a_fresh_process(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    env = dict(os.environ, PYASC_CACHE_DIR=str(cache))
    first = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                           text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert "fused_cross_process_0, built" in first.stdout
    assert any(p.name.startswith("fused_cross_process_0-") for p in cache.iterdir())
    second = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                            text=True, timeout=120)
    assert second.returncode == 0, second.stderr
    assert "fused_cross_process_0, disk cache" in second.stdout, second.stdout
