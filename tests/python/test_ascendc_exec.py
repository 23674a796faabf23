"""Ascend C run on the simulated cores (pyasc.ascendc, include/ascendc).

* the emitter verified by execution: each example kernel's Ascend C
  (``kernel.ascendc(...)``) is built with pyasc.ascendc.load and run on the
  same inputs as the Python kernel; every array must come out bit for bit
  equal (the same runtime runs both, so a difference is a bug in the
  emitter, the header or the runtime);
* Ascend C written by hand as a CANN user writes it, checked against NumPy;
* checked mode through the C++ API, at the user's line;
* error paths: a C++ compile error names the user's file and line, a bad
  kernel name, a wrong argument count.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import pyasc
from pyasc.language import jit as pyasc_jit

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

_modules: dict[str, object] = {}


def example(name: str):
    if name not in _modules:
        spec = importlib.util.spec_from_file_location(f"pyasc_exec_example_{name}",
                                                      EXAMPLES / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _modules[name] = module
    return _modules[name]


def _case(name: str, rng: np.random.Generator):
    """(kernel, blocks, Python args, which of them are ConstExpr) of an example."""
    if name in ("vadd", "add_asc", "broken_sync"):
        n = 8 * 2048
        x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
        return example(name).vadd_kernel, 8, [x, y, np.zeros(n, np.float32), 2048], set()
    if name == "vadd_framework":
        n = 8 * 4 * 2048
        x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
        return (example(name).vadd_kernel, 8, [x, y, np.zeros(n, np.float32), n // 8, 2048], {4})
    if name == "scale_relu":
        n = 8 * 4096
        x = (rng.standard_normal(n) * 4).astype(np.float16)
        return (example(name).scale_relu_kernel, 8,
                [x, np.zeros(n, np.float16), n // 8, 1.37, -0.21, 1024], {5})
    if name.startswith("leaky_relu_fp16"):
        mode = int(name.rsplit("_", 1)[1]) if name.count("_") > 2 else 1
        n = 4 * 4096
        x = (rng.standard_normal(n) * 100).astype(np.float16)
        return (example("leaky_relu_fp16").leaky_relu_kernel, 4,
                [x, np.zeros(n, np.float16), n // 4, 0.1, 1024, mode], {4, 5})
    if name == "softmax":
        x = (rng.standard_normal((64, 1000)) * 3).astype(np.float32)
        return (example(name).softmax_kernel, 8, [x, np.zeros_like(x), 64, 8, 1000], {4})
    raise KeyError(name)


ROUND_TRIP = ["vadd", "add_asc", "vadd_framework", "scale_relu", "leaky_relu_fp16",
              "leaky_relu_fp16_mode_4", "leaky_relu_fp16_mode_5", "softmax"]


@pytest.mark.parametrize("name", ROUND_TRIP)
def test_emitted_ascendc_runs_bit_for_bit_like_the_python_kernel(name):
    rng = np.random.default_rng(sum(map(ord, name)))
    kernel, blocks, args, constexpr = _case(name, rng)
    source = kernel.ascendc(*args)
    cxx = pyasc.ascendc.load(source, kernel.__name__)
    py_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    kernel[blocks](*py_args)
    cxx_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    cxx[blocks](*[a for i, a in enumerate(cxx_args) if i not in constexpr])
    arrays = [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]
    for i in arrays:
        assert py_args[i].tobytes() == cxx_args[i].tobytes(), (name, i)
    # and the Python kernel did its job (the comparison is not of two no-ops)
    assert any(not np.array_equal(py_args[i], args[i]) for i in arrays)


def _same_run(kernel, args, constexpr, blocks=1, cxx=None):
    """Runs kernel and its Ascend C (built once, or cxx) on copies of args:
    the arrays each wrote, and the Ascend C kernel."""
    if cxx is None:
        cxx = pyasc.ascendc.load(kernel.ascendc(*args), kernel.__name__)
    py_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    cxx_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    kernel[blocks](*py_args)
    cxx[blocks](*[a for i, a in enumerate(cxx_args) if i not in constexpr])
    return py_args, cxx_args, cxx


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int16])
@pytest.mark.parametrize("family", [0, 1, 2], ids=["binary", "scalar", "unary"])
def test_emitted_mask_forms_run_bit_for_bit_like_the_python_kernel(family, dtype):
    """test_kernel_api_ext's vector kernel: every op of a family in every
    mask form (continuous and bit masks, counter mode, the mask register with
    isSetMask false, repeats and block/repeat strides) is in one Ascend C
    source, whose run must match the Python kernel's for each case."""
    ext = importlib.import_module("test_kernel_api_ext")
    ops = ext.FAMILIES[family][2 if dtype == np.int16 else 1]
    per_rep = 256 // np.dtype(dtype).itemsize
    n = ext.UBB // np.dtype(dtype).itemsize
    cxx = None
    for k, fn in enumerate(ops):
        for case, variant, m0, m1, rep, strides in ext.cases(per_rep, family == 0):
            scalar = {"shift_left": 3, "shift_right": 2, "leaky_relu": 0.375}.get(fn.__name__,
                                                                                -1.25)
            if dtype == np.int16 and fn.__name__ not in ("shift_left", "shift_right"):
                scalar = -7
            positive = family == 2 and fn.__name__ in ("ln", "sqrt", "rsqrt")
            prm = np.zeros(16, np.uint64)
            prm[:5] = [k, variant, m0 % (1 << 64), m1, rep]
            prm[5:5 + len(strides)] = strides
            args = [ext.values(dtype, n, k, positive), ext.values(dtype, n, k + 1),
                    ext.values(dtype, n, k + 2), prm.view(np.int64), scalar, family]
            py, cc, cxx = _same_run(ext.vector_kernel, args, {5}, cxx=cxx)
            assert py[2].tobytes() == cc[2].tobytes(), (fn.__name__, case)
            if rep or variant in (ext.V_COUNTER, ext.V_REG_COUNTER, ext.V_COUNT):
                assert not np.array_equal(py[2], args[2]), (fn.__name__, case)


@pytest.mark.parametrize("dtype", [np.float32, np.int16])
def test_emitted_data_copy_params_runs_bit_for_bit_like_the_python_kernel(dtype):
    ext = importlib.import_module("test_kernel_api_ext")
    n = ext.UBB // np.dtype(dtype).itemsize
    cxx = None
    for p in [(1, 4, 0, 0, 1, 4, 0, 0, 1, 4, 0, 0), (3, 2, 1, 0, 3, 2, 0, 2, 2, 4, 0, 3),
              (5, 1, 2, 3, 2, 9, 1, 1, 4, 3, 2, 0)]:
        args = [ext.values(dtype, n, 5), ext.values(dtype, n, 6), np.array(p + (0,) * 4, np.int64)]
        py, cc, cxx = _same_run(ext.copy_params_kernel, args, set(), cxx=cxx)
        assert py[1].tobytes() == cc[1].tobytes(), p
        assert not np.array_equal(py[1], args[1])


def _check_cases(kernel, cases, outputs, constexpr=frozenset()):
    """Each case's args through kernel and its Ascend C (built once): the
    arrays at `outputs` bit for bit equal, and changed by the kernel."""
    cxx = None
    for args in cases:
        py, cc, cxx = _same_run(kernel, args, constexpr, cxx=cxx)
        for i in outputs:
            assert py[i].tobytes() == cc[i].tobytes(), (kernel.__name__, args[-6:], i)
        assert any(not np.array_equal(py[i], args[i]) for i in outputs), args[-6:]


@pytest.mark.parametrize("ext_form", [0, 1], ids=["DataCopyParams", "DataCopyExtParams"])
def test_emitted_data_copy_pad_runs_bit_for_bit_like_the_python_kernel(ext_form):
    ext = importlib.import_module("test_kernel_api_ext")
    x, z = ext.values(np.float16, ext.UBB // 2, 7), ext.values(np.float16, ext.UBB // 2, 8)
    cases = [[x, z, np.array(p + (0,) * 4, np.int64), 2.5, ext_form]
             for p in [(3, 20, 6, 0, 1, 2, 3, 20, 0, 2, 1, 3), (4, 2, 0, 1, 1, 0, 16, 14, 1, 0, 7, 0),
                       (2, 62, 2, 2, 0, 5, 5, 30, 0, 4, 0, 5)]]
    _check_cases(ext.copy_pad_kernel, cases, [1], {4})


@pytest.mark.parametrize("src", ["float16", "bfloat16", "float32", "int8", "int16", "int32"])
def test_emitted_cast_runs_bit_for_bit_like_the_python_kernel(src):
    """Cast between every pair of dtypes in every RoundMode, on edge values."""
    ext = importlib.import_module("test_kernel_api_cast_reduce")
    with np.errstate(over="ignore", invalid="ignore"):
        x = ext.cast_inputs(src)
        raw = ext.to_bits(src, x)
    buf = np.zeros(ext.UBB, np.uint8)
    buf[:raw.nbytes] = raw.view(np.uint8)
    si = ext.CAST_NAMES.index(src)
    cases = [[buf, np.full(ext.UBB, 0xA5, np.uint8), si * 6 + di, mode, x.size]
             for di in range(6) if di != si for mode in range(7)]
    _check_cases(ext.cast_kernel, cases, [1])


def test_emitted_cast_mask_forms_run_bit_for_bit_like_the_python_kernel():
    ext = importlib.import_module("test_kernel_api_cast_reduce")
    x = ext.values(np.float32, 2048, 9) * np.float32(1000.3)
    cases = [[x, ext.values(np.float16, 4096, 10), ext.values(np.float32, 2048, 11), m, r]
             for m, r in ((45, 3), (64, 2), (7, 5))]
    _check_cases(ext.cast_mask_kernel, cases, [1, 2])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int32])
def test_emitted_compare_runs_bit_for_bit_like_the_python_kernel(dtype):
    ext = importlib.import_module("test_kernel_api_cast_reduce")
    per_rep = 256 // np.dtype(dtype).itemsize
    x, y = ext.cmp_inputs(dtype, 1), ext.cmp_inputs(dtype, 2)
    s = 0.5 if dtype != np.int32 else 1.0
    m1 = 0xFFFF_0000_0000_0001 if per_rep > 64 else 0
    cases = [[x, y, ext.rng(mode).integers(0, 256, ext.UBB, dtype=np.uint8), s, form, mode,
              5 * per_rep, ext.signed(m0), ext.signed(m1), rep]
             for mode in range(6)
             for form, m0, rep in ((0, 0, 0), (1, 29, 3), (2, 0x8000_0000_FFFF_000F, 2),
                                   (3, 0, 0), (4, per_rep, 4))]
    _check_cases(ext.compare_kernel, cases, [2])


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_emitted_select_runs_bit_for_bit_like_the_python_kernel(dtype):
    ext = importlib.import_module("test_kernel_api_cast_reduce")
    per_rep = 256 // np.dtype(dtype).itemsize
    n = ext.UBB // np.dtype(dtype).itemsize
    x, y = ext.values(dtype, n, 12), ext.values(dtype, n, 13)
    mask = ext.rng(14).integers(0, 256, ext.UBB, dtype=np.uint8)
    cases = [[x, y, ext.values(dtype, n, 15), mask, -0.75, form, count, m0, rep]
             for form, count, m0, rep in ((0, 3 * per_rep + 7, 0, 0), (1, 200, 0, 0),
                                          (2, 333, 0, 0), (3, 0, 50, 3), (4, 0, per_rep, 2),
                                          (5, 0, 0xF0F0_0F0F, 4))]
    _check_cases(ext.select_kernel, cases, [2])


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_emitted_reductions_run_bit_for_bit_like_the_python_kernel(dtype):
    """ReduceSum/Max/Min (count and mask forms), WholeReduce* in every
    ReduceOrder, BlockReduce*, PairReduceSum."""
    ext = importlib.import_module("test_kernel_api_cast_reduce")
    n = ext.UBB // np.dtype(dtype).itemsize
    x = ext.values(dtype, n, 16) * dtype(30)
    x[100] = x[700] = dtype(110.5)
    cases = []
    for p in ext.REDUCE_CASES:
        p = list(p)
        if dtype == np.float32 and p[3]:
            p[3] = 0
        if dtype == np.float32:
            p[2] &= (1 << 64) - 1 if p[0] not in (3, 5, 6, 7, 9, 11, 12) else 0xFFFF
            p[2] = min(p[2], 64) if p[0] in (3, 5, 6, 7, 9, 11, 12) else p[2]
        prm = np.zeros(16, np.uint64)
        prm[:9] = p
        cases.append([x, ext.values(dtype, n, 17), prm.view(np.int64)])
    _check_cases(ext.reduce_kernel, cases, [1])


def test_round_trip_outputs_match_numpy_for_vadd_and_softmax():
    rng = np.random.default_rng(7)
    kernel, blocks, args, _ = _case("vadd", rng)
    cxx = pyasc.ascendc.load(kernel.ascendc(*args), kernel.__name__)
    cxx[blocks](*args)
    np.testing.assert_array_equal(args[2], args[0] + args[1])
    kernel, blocks, args, constexpr = _case("softmax", rng)
    cxx = pyasc.ascendc.load(kernel.ascendc(*args), kernel.__name__)
    cxx[blocks](*[a for i, a in enumerate(args) if i not in constexpr])
    x = args[0].astype(np.float64)
    ref = np.exp(x - x.max(1, keepdims=True))
    ref /= ref.sum(1, keepdims=True)
    np.testing.assert_allclose(args[1], ref, rtol=2e-6, atol=1e-7)


# --- hand-written Ascend C ------------------------------------------------------------------

VADD_CUSTOM = r"""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength,
                                uint32_t tileNum)
    {
        blockLength = totalLength / AscendC::GetBlockNum();
        this->tileNum = tileNum;
        tileLength = blockLength / tileNum / BUFFER_NUM;
        xGm.SetGlobalBuffer((__gm__ half *)x + blockLength * AscendC::GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + blockLength * AscendC::GetBlockIdx(), blockLength);
        zGm.SetGlobalBuffer((__gm__ half *)z + blockLength * AscendC::GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        int32_t loopCount = tileNum * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
        AscendC::DataCopy(xLocal, xGm[progress * tileLength], tileLength);
        AscendC::DataCopy(yLocal, yGm[progress * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        AscendC::LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        AscendC::Add(zLocal, xLocal, yLocal, tileLength);
        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        AscendC::LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
        AscendC::DataCopy(zGm[progress * tileLength], zLocal, tileLength);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> yGm;
    AscendC::GlobalTensor<half> zGm;
    uint32_t blockLength;
    uint32_t tileNum;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                 uint32_t totalLength, uint32_t tileNum)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelAdd op;
    op.Init(x, y, z, totalLength, tileNum);
    op.Process();
}
"""


def _half_add(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """float16 addition as the vector unit does it: exact in float32, one rounding."""
    return (x.astype(np.float32) + y.astype(np.float32)).astype(np.float16)


def test_hand_written_add_custom_matches_numpy(tmp_path):
    path = tmp_path / "add_custom.cpp"
    path.write_text(VADD_CUSTOM, encoding="utf-8")
    k = pyasc.ascendc.load(path, "add_custom")
    rng = np.random.default_rng(3)
    n = 8 * 2048
    x = (rng.standard_normal(n) * 50).astype(np.float16)
    y = (rng.standard_normal(n) * 50).astype(np.float16)
    z = np.zeros(n, np.float16)
    k[8](x, y, z, n, 8)
    assert z.tobytes() == _half_add(x, y).tobytes()


def test_hand_written_kernel_from_text_with_pyasc_tensors_and_a_stream():
    k = pyasc.ascendc.load(VADD_CUSTOM, "add_custom")
    n = 4 * 2048
    x = np.linspace(-8, 8, n).astype(np.float16)
    y = np.full(n, 0.5, np.float16)
    tx, ty, tz = pyasc.Tensor(x), pyasc.Tensor(y), pyasc.zeros(n, dtype=pyasc.float16)
    k[4, pyasc.current_stream()](tx, ty, tz, n, 4)
    assert tz.numpy().tobytes() == _half_add(x, y).tobytes()


# The calling convention of the Ascend C that Huawei's PyAsc generates: an
# FFTS address appended as the last argument and set first
# (set_ffts_base_addr), typed pointers, GetBlockIdx as a value.
PYASC_STYLE = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void scale(__gm__ float* x, __gm__ float* y, int32_t n,
                                            __gm__ uint64_t* ffts_addr) {
  set_ffts_base_addr(*ffts_addr);
  int32_t offset = static_cast<int32_t>(AscendC::GetBlockIdx()) * n;
  AscendC::GlobalTensor<float> xg;
  xg.SetGlobalBuffer(x + offset, n);
  AscendC::GlobalTensor<float> yg;
  yg.SetGlobalBuffer(y + offset, n);
  AscendC::LocalTensor<float> t = AscendC::LocalTensor<float>(AscendC::TPosition::VECIN, 0, n);
  AscendC::DataCopy(t, xg, n);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
  AscendC::Muls(t, t, 3.0f, n);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
  AscendC::DataCopy(yg, t, n);
}
"""


def test_pyasc_generated_calling_convention_runs():
    """Huawei PyAsc's output sets the FFTS base address from an extra last
    argument before anything else (checked here with a kernel written in
    that style; its tutorials' own output ran bit for bit too, see
    docs/ascendc.md)."""
    k = pyasc.ascendc.load(PYASC_STYLE, "scale")
    x = np.linspace(-4, 4, 4 * 256).astype(np.float32)
    y = np.zeros_like(x)
    k[4](x, y, 256, np.zeros(1, np.uint64))
    np.testing.assert_array_equal(y, x * np.float32(3.0))


SCALARS = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scalars(GM_ADDR out, int32_t n, float a, half h, bool neg)
{
    GlobalTensor<float> outGm;
    outGm.SetGlobalBuffer((__gm__ float *)out, 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, neg ? -a : a, 8);
    t.SetValue(1, static_cast<float>(n));
    t.SetValue(2, static_cast<float>(h));
    t.SetValue(3, static_cast<float>(GetBlockNum()));
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    DataCopy(outGm, t, 8);
}
"""


def test_scalar_parameters_of_every_kind_reach_the_kernel():
    k = pyasc.ascendc.load(SCALARS, "scalars")
    out = np.zeros(8, np.float32)
    k[1](out, -7, 2.5, 0.333, True)
    h = float(np.float16(0.333))  # half rounds to nearest even, as numpy does
    np.testing.assert_array_equal(out, np.array([-2.5, -7, h, 1, -2.5, -2.5, -2.5, -2.5],
                                                np.float32))


# --- checked mode and errors ----------------------------------------------------------------

RACE = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void race(GM_ADDR x, GM_ADDR z)
{
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    zGm.SetGlobalBuffer((__gm__ float *)z, 64);
    LocalTensor<float> a(TPosition::VECIN, 0, 64);
    LocalTensor<float> b(TPosition::VECOUT, 256, 64);
    DataCopy(a, xGm, 64);
    Abs(b, a, 64);
    DataCopy(zGm, b, 64);
}
"""


def test_checked_mode_reports_a_missing_sync_at_the_users_line():
    x = np.arange(-32, 32, dtype=np.float32)
    z = np.zeros_like(x)
    pyasc.ascendc.load(RACE, "race", debug=False)[1](x, z)  # the simulator runs in order
    np.testing.assert_array_equal(z, np.abs(x))
    k = pyasc.ascendc.load(RACE, "race", debug=True)
    with pytest.raises(pyasc.KernelError) as e:
        k[1](x, np.zeros_like(x))
    text = str(e.value)
    assert "<string>:11:" in text and "missing synchronisation" in text, text


def test_out_of_range_access_names_the_users_file_and_line(tmp_path):
    src = ('#include "kernel_operator.h"\n'
           'extern "C" __global__ __aicore__ void over(GM_ADDR x) {\n'
           "    AscendC::LocalTensor<float> t(AscendC::TPosition::VECIN, 0, 16);\n"
           "    AscendC::GlobalTensor<float> g;\n"
           "    g.SetGlobalBuffer((__gm__ float *)x, 16);\n"
           "    AscendC::DataCopy(t, g, 1 << 20);\n"
           "}\n")
    path = tmp_path / "over.cpp"
    path.write_text(src, encoding="utf-8")
    with pytest.raises(pyasc.KernelError) as e:
        pyasc.ascendc.load(path, "over")[1](np.zeros(16, np.float32))
    assert f"{path}:6:" in str(e.value), str(e.value)


def test_compile_error_names_the_users_file_and_line(tmp_path):
    path = tmp_path / "broken.cpp"
    path.write_text('#include "kernel_operator.h"\n\n'
                    'extern "C" __global__ __aicore__ void broken(GM_ADDR x) {\n'
                    "    AscendC::Add(undeclared_name);\n"
                    "}\n", encoding="utf-8")
    with pytest.raises(pyasc.CompileError) as e:
        pyasc.ascendc.load(path, "broken")
    assert f"{path}:4:" in str(e.value) and "undeclared_name" in str(e.value), str(e.value)


def test_compile_error_in_text_names_string_and_line():
    with pytest.raises(pyasc.CompileError) as e:
        pyasc.ascendc.load('#include "kernel_operator.h"\n'
                           'extern "C" __global__ __aicore__ void k(GM_ADDR x) { int y = ; }\n',
                           "k")
    assert "<string>:2:" in str(e.value), str(e.value)


@pytest.mark.parametrize("name", ["", "1abc", "a-b", "add_custom; int x", "x" * 65])
def test_a_kernel_name_that_is_no_identifier_is_refused(name):
    with pytest.raises(pyasc.InvalidValueError, match="not a C\\+\\+ identifier"):
        pyasc.ascendc.load(VADD_CUSTOM, name)


def test_a_kernel_name_not_in_the_source_is_refused():
    with pytest.raises(pyasc.InvalidValueError, match="no kernel function 'add'"):
        pyasc.ascendc.load(VADD_CUSTOM, "add")


def test_a_file_name_with_quotes_and_newlines_stays_a_name(tmp_path):
    path = tmp_path / 'we"ird\\name\n.cpp'
    path.write_text('#include "kernel_operator.h"\n'
                    'extern "C" __global__ __aicore__ void k(GM_ADDR x) { int y = ; }\n',
                    encoding="utf-8")
    with pytest.raises(pyasc.CompileError) as e:
        pyasc.ascendc.load(path, "k")
    assert "we\"ird\\name\n.cpp:2:" in str(e.value), str(e.value)


def test_wrong_argument_count_and_kinds_are_refused():
    k = pyasc.ascendc.load(VADD_CUSTOM, "add_custom")
    x = np.zeros(2048, np.float16)
    with pytest.raises(TypeError, match="takes 5 runtime arguments, got 4"):
        k[1](x, x, x, 2048)
    with pytest.raises(TypeError, match="must be an int"):
        k[1](x, x, x, 2048, "eight")
    with pytest.raises(TypeError):
        k["one"]
    with pytest.raises(pyasc.InvalidValueError, match="core count"):
        k[0](x, x, x, 2048, 1)


def test_broken_sync_example_is_caught_in_checked_mode_on_both_sides():
    """examples/broken_sync.py misses a wait_flag: the Python kernel (debug)
    and its Ascend C in checked mode both stop with the same report, the
    latter at the Ascend C line of the Add."""
    kernel, blocks, args, _ = _case("broken_sync", np.random.default_rng(2))
    source = kernel.ascendc(*args)
    with pytest.raises(pyasc.KernelError) as py:
        kernel[blocks](*args)
    cxx = pyasc.ascendc.load(source, kernel.__name__, debug=True)
    with pytest.raises(pyasc.KernelError) as cc:
        cxx[blocks](*args)
    add_line = next(i for i, line in enumerate(source.splitlines(), 1) if "AscendC::Add(" in line)
    assert f"<string>:{add_line}: add: missing synchronisation (read-after-write)" in str(cc.value)
    assert "add: missing synchronisation (read-after-write)" in str(py.value)


INT64_ELEMENTS = r"""#include "kernel_operator.h"
extern "C" __global__ __aicore__ void inc64(GM_ADDR x)
{
    AscendC::GlobalTensor<int64_t> g;
    g.SetGlobalBuffer((__gm__ int64_t *)x, 4);
    AscendC::LocalTensor<int64_t> t(AscendC::TPosition::VECCALC, 0, 4);
    for (int i = 0; i < 4; i++) t.SetValue(i, g.GetValue(i) + 1);
    for (int i = 0; i < 4; i++) g.SetValue(i, t.GetValue(i) ^ 0x100);
}
"""


def test_int64_elements_keep_all_64_bits():
    x = np.array([2**62 + 1, -2**63, 2**53 + 1, -7], np.int64)
    expected = (x + 1) ^ 0x100
    pyasc.ascendc.load(INT64_ELEMENTS, "inc64")[1](x)
    np.testing.assert_array_equal(x, expected)


QUEUE_MISUSE = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void misuse(GM_ADDR x)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    q.EnQue(t);
    LocalTensor<float> a = q.DeQue<float>();
    LocalTensor<float> b = q.DeQue<float>();
}
"""


def test_a_queue_misuse_is_reported_at_the_users_line():
    with pytest.raises(pyasc.KernelError, match=r"<string>:11: deque on an empty queue"):
        pyasc.ascendc.load(QUEUE_MISUSE, "misuse")[1](np.zeros(64, np.float32))


ATOMIC_SYNC = r"""#include "kernel_operator.h"
using namespace AscendC;

// Each block adds its row into out[] with atomic adds; after SyncAll,
// block 0 copies the sum into total[] (all blocks' adds are done by then).
extern "C" __global__ __aicore__ void rows_sum(GM_ADDR x, GM_ADDR out, GM_ADDR total)
{
    GlobalTensor<float> xGm, outGm, totalGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 64, 64);
    outGm.SetGlobalBuffer((__gm__ float *)out, 64);
    totalGm.SetGlobalBuffer((__gm__ float *)total, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<float> row = buf.GetWithOffset<float>(64, 256);
    TEventID id = pipe.AllocEventID<HardEvent::MTE2_MTE3>();  // CANN's int8_t
    DataCopy(row, xGm, 64);
    SetFlag<HardEvent::MTE2_MTE3>(id);
    WaitFlag<HardEvent::MTE2_MTE3>(id);
    pipe.ReleaseEventID<HardEvent::MTE2_MTE3>(id);
    SetAtomicAdd<float>();
    DataCopy(outGm, row, 64);
    SetAtomicNone();
    SyncAll();
    if (GetBlockIdx() == 0) {
        LocalTensor<float> t = buf.Get<float>(64);
        DataCopy(t, outGm, 64);
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(totalGm, t, 64);
    }
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_atomic_add_sync_all_event_ids_and_get_with_offset(debug):
    x = np.arange(4 * 64, dtype=np.float32).reshape(4, 64) / 8
    out = np.full(64, 0.5, np.float32)
    total = np.zeros(64, np.float32)
    pyasc.ascendc.load(ATOMIC_SYNC, "rows_sum", debug=debug)[4](x, out, total)
    expected = np.float32(0.5) + x[0] + x[1] + x[2] + x[3]  # exact in float32
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(total, expected)


def test_event_ids_run_out_at_the_users_line():
    src = ('#include "kernel_operator.h"\n'
           'extern "C" __global__ __aicore__ void ids(GM_ADDR x) {\n'
           "    AscendC::TPipe pipe;\n"
           "    for (int i = 0; i < 9; i++)\n"
           "        pipe.AllocEventID<AscendC::HardEvent::V_S>();\n"
           "}\n")
    with pytest.raises(pyasc.KernelError, match=r"<string>:5: alloc_event_id: all 8 event ids"):
        pyasc.ascendc.load(src, "ids")[1](np.zeros(8, np.float32))


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float16])
def test_emitted_atomic_stores_run_bit_for_bit_like_the_python_kernel(dtype):
    """test_api_atomic's kernel: 8 blocks combine into one output with atomic
    add (DataCopy, DataCopyParams, DataCopyPad), max and min. The blocks run
    in any order, so the values are small integers, whose sums are exact
    (float16 rounds each atomic add: other values would depend on the order)."""
    atomic = importlib.import_module("test_api_atomic")
    n = atomic.N
    rng = np.random.default_rng(5)
    for mode in range(5):
        x = rng.integers(-100, 100, 8 * n).astype(dtype)
        y = rng.integers(-100, 100, n).astype(dtype)
        args = [x, y, mode, n]
        py, cc, _ = _same_run(atomic.atomic_kernel, args, {2, 3}, blocks=8)
        assert py[1].tobytes() == cc[1].tobytes(), mode
        assert not np.array_equal(py[1], y)


HEADER_DIR = Path(__file__).resolve().parents[2] / "include" / "ascendc"


@pytest.mark.parametrize("name", ["vadd", "vadd_framework", "scale_relu", "softmax",
                                  "leaky_relu_fp16", "broken_sync"])
def test_golden_files_compile_against_the_simulators_header_without_warnings(name):
    """The golden Ascend C of test_ascendc.py, against include/ascendc with
    -Wall -Wextra, and the kernel entry."""
    golden = Path(__file__).resolve().parent / "golden" / f"{name}.ascendc.cpp"
    text = golden.read_text(encoding="utf-8")
    kernel = text.split('extern "C" __global__ __aicore__ void ', 1)[1].split("(", 1)[0]
    proc = subprocess.run([shutil.which("g++") or "c++", "-std=c++17", "-fsyntax-only", "-Wall",
                           "-Wextra", "-I", str(HEADER_DIR), "-x", "c++", "-"],
                          input=text + f"\nPYASC_SIM_ENTRY({kernel})\n", text=True,
                          capture_output=True, timeout=120, check=False)
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr


def test_torch_tensors_are_kernel_arguments():
    torch = pytest.importorskip("torch")
    k = pyasc.ascendc.load(VADD_CUSTOM, "add_custom")
    x = torch.linspace(-4, 4, 2048, dtype=torch.float16)
    y = torch.full((2048,), 0.25, dtype=torch.float16)
    z = torch.zeros(2048, dtype=torch.float16)
    k[1](x, y, z, 2048, 1)
    assert z.numpy().tobytes() == _half_add(x.numpy(), y.numpy()).tobytes()


def test_the_round_trip_hook_checks_launches_and_finds_a_difference(monkeypatch):
    """tests/python/ascendc_roundtrip.py (tools/ascendc_roundtrip.py's hook):
    a launch is run as Ascend C too and matches; an Ascend C that computes
    something else is reported as a mismatch."""
    roundtrip = importlib.import_module("ascendc_roundtrip")
    kernel, blocks, args, _ = _case("vadd", np.random.default_rng(4))
    hook = roundtrip.RoundTrip()
    hook.install()
    try:
        kernel[blocks](*args)
        assert hook.matched == {kernel.__name__: 1} and not hook.mismatched
        np.testing.assert_array_equal(args[2], args[0] + args[1])
        wrong = kernel.ascendc(*args).replace("AscendC::Add(", "AscendC::Sub(")
        monkeypatch.setattr(pyasc_jit.CompiledKernel, "ascendc_source",
                            property(lambda self: wrong))
        kernel[blocks](*args)
        assert kernel.__name__ in hook.mismatched
    finally:
        hook.uninstall()


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_compare_and_select_register_forms_run_as_ascendc(dtype):
    """The CMPMASK register (SetCmpMask, GetCmpMask) and the register forms
    of Compare and Select: test_api_gather_mask's and
    test_upstream_forms_basic's kernels, each launch also run as its Ascend
    C (ascendc_roundtrip.py), and their own NumPy checks."""
    roundtrip = importlib.import_module("ascendc_roundtrip")
    gm = importlib.import_module("test_api_gather_mask")
    forms = importlib.import_module("test_upstream_forms_basic")
    hook = roundtrip.RoundTrip()
    hook.install()
    try:
        for mode, list_mask, mask in [(0, False, 64), (2, False, 64), (1, False, 5),
                                      (3, True, 0b1011), (4, True, (1 << 63) | 1)]:
            gm.test_compare_register_form_and_get_cmp_mask(dtype, mode, list_mask, mask)
        gm.test_set_cmp_mask_feeds_select()
        forms.test_compare_and_select_register_forms_by_keyword(True)
    finally:
        hook.uninstall()
    assert not hook.mismatched and not hook.unsupported and not hook.no_form, hook.report()
    assert sum(hook.matched.values()) >= 7, hook.report()
