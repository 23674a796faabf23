"""Checked mode (@pyasc.jit(debug=True) / PYASC_DEBUG=1) and the static
synchronisation check (@pyasc.jit(verify_sync=True)) against a suite of
seeded bugs.

Every kernel family below takes a ConstExpr `bug`: None is the correct
kernel, anything else plants one bug. Lines are found by markers, never
hard-coded: a `# [name]` comment names its line, and each case says at
which marked line checked mode must stop and which other marked line its
message must name. Checked mode must catch every bug with the right lines;
the fixed kernels must pass it with NumPy's results; unchecked mode must
still run the kernels whose bugs only real hardware would notice."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import pyasc as asc
from pyasc.language.codegen import CodeGenerator
from kernel_cache import kernel_cache_dir

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
BLOCKS = 2


@pytest.fixture(scope="module", autouse=True)
def cache_dir():
    """The module's kernel cache (kernel_cache.py), and no PYASC_DEBUG from the caller."""
    directory = kernel_cache_dir("pyasc-checked-")
    saved = {k: os.environ.get(k) for k in ("PYASC_CACHE_DIR", "PYASC_DEBUG")}
    os.environ["PYASC_CACHE_DIR"] = directory
    os.environ.pop("PYASC_DEBUG", None)
    yield directory
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


# --- the kernel families ---------------------------------------------------------------------------


@asc.jit
def pipeline(x: asc.GlobalAddress, z: asc.GlobalAddress, block_length: int,
             tile: asc.ConstExpr[int], bug: asc.ConstExpr[str]):
    """z = 2 * x through one TBuf, tile by tile (scale_relu's shape)."""
    offset = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset, block_length)
    z_gm.set_global_buffer(z + offset, block_length)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, tile * x.dtype.sizeof())
    t = buf.get(x.dtype)
    for i in range(block_length // tile):
        asc.data_copy(t, x_gm[i * tile:], tile)  # [copy_in]
        if bug != "mte2_v":
            asc.set_flag(asc.HardEvent.MTE2_V, 0)
            asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.muls(t, t, 2.0, tile)  # [compute]
        if bug != "v_mte3":
            asc.set_flag(asc.HardEvent.V_MTE3, 0)
            asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[i * tile:], t, tile)  # [copy_out]
        if bug != "mte3_mte2":
            asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
            asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)


def run_pipeline(kernel, bug):
    tile, tiles = 64, 3
    x = np.arange(BLOCKS * tile * tiles, dtype=np.float32) - 100
    z = np.zeros_like(x)
    kernel[BLOCKS](x, z, tile * tiles, tile, bug)
    asc.synchronize()
    return z, 2 * x


@asc.jit
def tile_sum(x: asc.GlobalAddress, z: asc.GlobalAddress, tile: asc.ConstExpr[int],
             tiles: asc.ConstExpr[int], bug: asc.ConstExpr[str]):
    """z[block] = the sum of the block's tiles of x, in an accumulator."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * tile * tiles, tile * tiles)
    z_gm.set_global_buffer(z + asc.get_block_idx() * tile, tile)
    acc = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, tile)
    x_in = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, tile * x.dtype.sizeof(), tile)
    asc.duplicate(acc, 0.0, tile)
    for i in range(tiles):
        asc.data_copy(x_in, x_gm[i * tile:], tile)  # [load]
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.add(acc, acc, x_in, tile)  # [accumulate]
        if bug != "v_mte2":
            asc.set_flag(asc.HardEvent.V_MTE2, 0)
            asc.wait_flag(asc.HardEvent.V_MTE2, 0)
    if bug != "v_mte3_tail":
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, acc, tile)  # [store]


def run_tile_sum(kernel, bug):
    tile, tiles = 32, 3
    x = np.arange(BLOCKS * tile * tiles, dtype=np.float32) % 7
    z = np.zeros(BLOCKS * tile, np.float32)
    kernel[BLOCKS](x, z, tile, tiles, bug)
    asc.synchronize()
    return z, x.reshape(BLOCKS, tiles, tile).sum(axis=1).ravel()


@asc.jit
def scalar_mix(z: asc.GlobalAddress, n: asc.ConstExpr[int], bug: asc.ConstExpr[str]):
    """Scalar and vector work on one LocalTensor: [6, 2, 20, 2, 2, ...]."""
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z + asc.get_block_idx() * n, n)
    t = asc.LocalTensor(z.dtype, asc.TPosition.VECCALC, 0, n)
    asc.duplicate(t, 1.0, n)
    asc.set_flag(asc.HardEvent.V_S, 0)
    asc.wait_flag(asc.HardEvent.V_S, 0)
    t.set_value(0, 5.0)  # [poke]
    if bug != "s_v":
        asc.set_flag(asc.HardEvent.S_V, 0)
        asc.wait_flag(asc.HardEvent.S_V, 0)
    asc.adds(t, t, 1.0, n)  # [vector]
    if bug != "v_s":
        asc.set_flag(asc.HardEvent.V_S, 0)
        asc.wait_flag(asc.HardEvent.V_S, 0)
    v = t.get_value(1)  # [peek]
    t.set_value(2, v * 10)
    asc.set_flag(asc.HardEvent.S_MTE3, 0)
    asc.wait_flag(asc.HardEvent.S_MTE3, 0)
    asc.data_copy(z_gm, t, n)


def run_scalar_mix(kernel, bug):
    n = 64
    z = np.zeros(BLOCKS * n, np.float32)
    kernel[BLOCKS](z, n, bug)
    asc.synchronize()
    expected = np.full((BLOCKS, n), 2, np.float32)
    expected[:, 0], expected[:, 2] = 6, 20
    return z, expected.ravel()


@asc.jit
def gm_bounds(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int],
              bug: asc.ConstExpr[str]):
    """z = x per block, through the UB; the arrays have spare room after
    the blocks, so the bugs stay inside the arguments."""
    offset = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset, n)
    z_gm.set_global_buffer(z + offset, n)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    asc.data_copy(t, x_gm[8 if bug == "gm_read" else 0:], n)  # [read]
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm[8 if bug == "gm_write" else 0:], t, n)  # [write]
    if bug == "gm_set_value":
        z_gm.set_value(n, 1.0)  # [poke]
    if bug == "gm_before_start":
        asc.data_copy(t, x_gm[-8:], 8)  # [before]


def run_gm_bounds(kernel, bug):
    n = 64
    x = np.arange(BLOCKS * n + 2 * n, dtype=np.float32)
    z = np.zeros_like(x)
    kernel[BLOCKS](x, z, n, bug)
    asc.synchronize()
    expected = np.where(np.arange(x.size) < BLOCKS * n, x, 0)
    return z, expected


@asc.jit
def ub_extent(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int],
              bug: asc.ConstExpr[str]):
    """z = 3 * x through two TBufs."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * n, n)
    z_gm.set_global_buffer(z + asc.get_block_idx() * n, n)
    pipe = asc.TPipe()
    buf_a = asc.TBuf(asc.TPosition.VECIN)
    buf_b = asc.TBuf(asc.TPosition.VECOUT)
    pipe.init_buffer(buf_a, n * x.dtype.sizeof())
    pipe.init_buffer(buf_b, n * x.dtype.sizeof())
    a = buf_a.get(x.dtype, 2 * n if bug == "tbuf_len" else n)  # [get]
    b = buf_b.get(x.dtype)
    asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if bug == "index_beyond":
        asc.set_flag(asc.HardEvent.MTE2_S, 0)
        asc.wait_flag(asc.HardEvent.MTE2_S, 0)
        asc.printf("%f\n", a.get_value(n))  # [index]
    asc.muls(b, a[n // 2 if bug == "slice_beyond" else 0:], 3.0, n)  # [slice]
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, n)


def run_ub_extent(kernel, bug):
    n = 64
    x = np.linspace(-4, 4, BLOCKS * n, dtype=np.float32)
    z = np.zeros_like(x)
    kernel[BLOCKS](x, z, n, bug)
    asc.synchronize()
    return z, x * np.float32(3)


@asc.jit
def alignment(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int],
              bug: asc.ConstExpr[str]):
    """z = x through the UB with data_copy."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * n, n)
    z_gm.set_global_buffer(z + asc.get_block_idx() * n, n)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n + 8)
    count = n - 1 if bug == "copy_len" else n
    start = 3 if bug == "copy_addr" else 0
    asc.data_copy(t[start:], x_gm, count)  # [copy]
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, t[start:], count)


def run_alignment(kernel, bug):
    n = 64
    x = np.arange(BLOCKS * n, dtype=np.float32) + 1
    z = np.zeros_like(x)
    kernel[BLOCKS](x, z, n, bug)
    asc.synchronize()
    return z, x


@asc.jit
def overlap(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int],
            bug: asc.ConstExpr[str]):
    """z = x + 1 with explicit LocalTensors."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * n, n)
    z_gm.set_global_buffer(z + asc.get_block_idx() * n, n)
    if bug == "queue_overlap":
        pipe = asc.TPipe()
        que = asc.TQue(asc.TPosition.VECIN, 1)
        pipe.init_buffer(que, 1, n * x.dtype.sizeof())  # [queue]
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)  # [first]
    b_addr = n * x.dtype.sizeof() // (2 if bug == "explicit_overlap" else 1)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, b_addr, n)  # [second]
    asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(b, a, 1.0, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, n)


def run_overlap(kernel, bug):
    n = 64
    x = np.arange(BLOCKS * n, dtype=np.float32)
    z = np.zeros_like(x)
    kernel[BLOCKS](x, z, n, bug)
    asc.synchronize()
    return z, x + 1


@asc.jit
def framework(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int], length: int,
              bug: asc.ConstExpr[str]):
    """z = x through a TQue (its enque/deque order MTE2 before MTE3)."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * n, n)
    z_gm.set_global_buffer(z + asc.get_block_idx() * n, n)
    pipe = asc.TPipe()
    que = asc.TQue(asc.TPosition.VECIN, 2)
    pipe.init_buffer(que, 2, length * 1024 if bug == "ub_overflow" else length)  # [init]
    t = que.alloc_tensor(x.dtype)
    asc.data_copy(t, x_gm, n)
    que.enque(t)
    u = que.deque(x.dtype)
    if bug == "deque_empty":
        u = que.deque(x.dtype)  # [deque]
    asc.data_copy(z_gm, u, n)
    que.free_tensor(u)
    if bug == "double_free":
        que.free_tensor(u)  # [free]
    if bug == "unmatched_wait":
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 3)  # [wait]


def run_framework(kernel, bug):
    n = 64
    x = np.arange(BLOCKS * n, dtype=np.float32) * 0.5
    z = np.zeros_like(x)
    kernel[BLOCKS](x, z, n, n * 4, bug)
    asc.synchronize()
    return z, x


FAMILIES = {"pipeline": (pipeline, run_pipeline), "tile_sum": (tile_sum, run_tile_sum),
            "scalar_mix": (scalar_mix, run_scalar_mix), "gm_bounds": (gm_bounds, run_gm_bounds),
            "ub_extent": (ub_extent, run_ub_extent), "alignment": (alignment, run_alignment),
            "overlap": (overlap, run_overlap), "framework": (framework, run_framework)}


@dataclass
class Case:
    family: str
    at: str  # the marked line checked mode stops at
    other: str | None  # a marked line the message must name
    words: tuple[str, ...]  # must appear in the message
    sync: bool = False  # a pipe hazard: unchecked mode runs it correctly


CASES = {
    # missing synchronisation
    "mte2_v": Case("pipeline", "compute", "copy_in",
                   ("muls", "read-after-write", "HardEvent.MTE2_V", "MTE2", "UB bytes [0, 256)"),
                   sync=True),
    "v_mte3": Case("pipeline", "copy_out", "compute",
                   ("data_copy", "read-after-write", "HardEvent.V_MTE3"), sync=True),
    "mte3_mte2": Case("pipeline", "copy_in", "copy_out",
                      ("data_copy", "write-after-read", "HardEvent.MTE3_MTE2"), sync=True),
    "v_mte2": Case("tile_sum", "load", "accumulate",
                   ("data_copy", "write-after-read", "HardEvent.V_MTE2"), sync=True),
    "v_mte3_tail": Case("tile_sum", "store", "accumulate",
                        ("data_copy", "read-after-write", "HardEvent.V_MTE3"), sync=True),
    "s_v": Case("scalar_mix", "vector", "poke",
                ("adds", "read-after-write", "HardEvent.S_V", "set_value"), sync=True),
    "v_s": Case("scalar_mix", "peek", "vector",
                ("get_value", "read-after-write", "HardEvent.V_S", "adds"), sync=True),
    "unmatched_wait": Case("framework", "wait", None,
                           ("wait_flag(HardEvent.MTE3_MTE2, 3)", "deadlock"), sync=True),
    # global memory
    "gm_read": Case("gm_bounds", "read", None,
                    ("data_copy", "elements [8, 72)", "64 elements bound by set_global_buffer")),
    "gm_write": Case("gm_bounds", "write", None,
                     ("data_copy", "elements [8, 72)", "set_global_buffer")),
    "gm_set_value": Case("gm_bounds", "poke", None, ("set_value", "set_global_buffer")),
    # the Unified Buffer
    "slice_beyond": Case("ub_extent", "slice", None,
                         ("muls", "src accesses 64 elements", "holds only 32")),
    "index_beyond": Case("ub_extent", "index", None, ("get_value", "index 64", "64 elements")),
    "tbuf_len": Case("ub_extent", "get", None, ("TBuf.get", "128 elements", "256-byte")),
    "ub_overflow": Case("framework", "init", None, ("init_buffer", "Unified Buffer overflow")),
    "copy_len": Case("alignment", "copy", None, ("data_copy", "252 bytes", "data_copy_pad")),
    "copy_addr": Case("alignment", "copy", None,
                      ("data_copy", "UB byte 12", "not 32-byte aligned", "data_copy_pad")),
    "explicit_overlap": Case("overlap", "second", "first",
                             ("LocalTensor", "bytes [128, 384)", "bytes [0, 256)")),
    "queue_overlap": Case("overlap", "first", "queue", ("LocalTensor", "TQue buffer")),
    # queue misuse
    "deque_empty": Case("framework", "deque", None, ("deque on an empty queue",)),
    "double_free": Case("framework", "free", None, ("free_tensor",)),
}

ALWAYS_CHECKED = {"ub_overflow", "deque_empty", "double_free"}


def marks(fn) -> dict[str, int]:
    """`# [name]` markers of fn's source -> absolute line numbers."""
    lines, first = inspect.getsourcelines(fn)
    found = {}
    for i, text in enumerate(lines):
        if "#" in text:
            for m in re.finditer(r"\[(\w+)\]", text.split("#", 1)[1]):
                found[m.group(1)] = first + i
    return found


def variant(family: str, debug: bool):
    """A fresh JITFunction for the family's kernel with debug set."""
    kernel, _ = FAMILIES[family]
    return asc.jit(kernel.fn, debug=debug)


_checked = {name: variant(name, True) for name in FAMILIES}
_unchecked = {name: variant(name, False) for name in FAMILIES}


def device_still_works():
    z, expected = run_pipeline(_unchecked["pipeline"], None)
    np.testing.assert_array_equal(z, expected)


def test_there_are_enough_seeded_bugs():
    assert len(CASES) >= 15
    for case in CASES.values():  # every marker a case names exists
        fn = FAMILIES[case.family][0].fn
        assert case.at in marks(fn)
        assert case.other is None or case.other in marks(fn)


@pytest.mark.parametrize("bug", sorted(CASES))
def test_checked_mode_catches_the_bug(bug):
    case = CASES[bug]
    kernel, run = FAMILIES[case.family]
    where = marks(kernel.fn)
    file = inspect.getsourcefile(kernel.fn)
    with pytest.raises(asc.KernelError) as info:
        run(_checked[case.family], bug)
    message = str(info.value)
    assert f"{kernel.__name__}: block " in message
    assert re.search(rf"block \d of {BLOCKS}: ", message), message
    assert f"{file}:{where[case.at]}: " in message, message
    if case.other is not None:
        assert f"line {where[case.other]}" in message, message
    for word in case.words:
        assert word in message, message
    device_still_works()


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_fixed_kernels_pass_checked_mode(family):
    z, expected = FAMILIES[family][1](_checked[family], None)
    np.testing.assert_array_equal(z, expected)


@pytest.mark.parametrize("bug", sorted(b for b, c in CASES.items() if c.sync))
def test_unchecked_mode_runs_hazards(bug):
    """The simulator runs in program order: without checks the hazards
    go unnoticed and the results are right (real hardware may differ)."""
    case = CASES[bug]
    z, expected = FAMILIES[case.family][1](_unchecked[case.family], bug)
    np.testing.assert_array_equal(z, expected)


@pytest.mark.parametrize("bug", ["gm_read", "slice_beyond", "copy_addr"])
def test_unchecked_mode_runs_what_only_checked_mode_rejects(bug):
    case = CASES[bug]
    FAMILIES[case.family][1](_unchecked[case.family], bug)  # no error


@pytest.mark.parametrize("bug", sorted(ALWAYS_CHECKED))
def test_unchecked_mode_still_rejects_unsafe_bugs(bug):
    case = CASES[bug]
    kernel = FAMILIES[case.family][0]
    with pytest.raises(asc.KernelError, match=rf":{marks(kernel.fn)[case.at]}: "):
        FAMILIES[case.family][1](_unchecked[case.family], bug)
    device_still_works()


def test_global_slices_before_the_argument_read_zeros_unless_checked():
    """Block 0 reads before the argument: by default it reads zeros there, as
    the device reads unspecified values and host memory is not touched;
    checked mode reports it. There block 1 also reads before its own
    set_global_buffer view, and whichever block fails first is reported."""
    z, expected = run_gm_bounds(_unchecked["gm_bounds"], "gm_before_start")
    np.testing.assert_array_equal(z, expected)
    where = marks(gm_bounds.fn)["before"]
    expected_message = r"(outside the argument|outside the 64 elements bound by set_global_buffer)"
    with pytest.raises(asc.KernelError, match=rf":{where}: data_copy: .*{expected_message}"):
        run_gm_bounds(_checked["gm_bounds"], "gm_before_start")
    device_still_works()


# --- modes, keys and sources ----------------------------------------------------------------------


def test_debug_option_selects_a_checked_variant():
    x = np.zeros(BLOCKS * 64, np.float32)
    checked = _checked["alignment"].compile(x, x, 64, None)
    unchecked = _unchecked["alignment"].compile(x, x, 64, None)
    assert "#define ASC_K_CHECKED 1" in checked.c_source
    assert "#define ASC_K_CHECKED 1" not in unchecked.c_source
    assert "asc_k_chk_local_new" in checked.c_source
    assert "asc_k_chk_" not in unchecked.c_source.split("int asc_kernel_entry")[1]
    assert checked.native.path != unchecked.native.path  # separate disk cache entries


def test_pyasc_debug_environment(monkeypatch):
    kernel = asc.jit(alignment.fn)
    x = np.zeros(BLOCKS * 64, np.float32)
    monkeypatch.delenv("PYASC_DEBUG", raising=False)
    plain = kernel.compile(x, x, 64, None)
    monkeypatch.setenv("PYASC_DEBUG", "1")
    assert kernel.checked_mode()
    checked = kernel.compile(x, x, 64, None)
    assert checked is not plain and "ASC_K_CHECKED 1" in checked.c_source
    with pytest.raises(asc.KernelError, match="data_copy_pad"):
        run_alignment(kernel, "copy_len")
    monkeypatch.setenv("PYASC_DEBUG", "0")
    assert kernel.compile(x, x, 64, None) is plain  # the in-memory key holds the mode
    monkeypatch.setenv("PYASC_DEBUG", "1")
    assert not asc.jit(alignment.fn, debug=False).checked_mode()  # the option wins


# --- the examples -----------------------------------------------------------------------------------


def load_example(name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"pyasc_checked_example_{name}",
                                                  EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_examples_run_clean_in_checked_mode(monkeypatch):
    monkeypatch.setenv("PYASC_DEBUG", "1")
    rng = np.random.default_rng(1)
    x = rng.random(8 * 2048, dtype=np.float32)
    y = rng.random(8 * 2048, dtype=np.float32)
    vadd = load_example("vadd")
    np.testing.assert_array_equal(vadd.vadd(x, y), x + y)
    assert "ASC_K_CHECKED 1" in vadd.vadd_kernel.compile(x, y, x, 2048).c_source
    framework = load_example("vadd_framework")
    z = framework.vadd(x, y, core_num=4, tile_length=1024)
    asc.synchronize()
    np.testing.assert_array_equal(z, x + y)
    scale_relu = load_example("scale_relu")
    h = (rng.standard_normal(8 * 2048) * 4).astype(np.float16)
    np.testing.assert_array_equal(scale_relu.scale_relu(h, 1.5, 0.25, tile=512).view(np.uint16),
                                  scale_relu.reference(h, 1.5, 0.25).view(np.uint16))
    softmax = load_example("softmax")
    m = rng.standard_normal((19, 100)).astype(np.float32)
    np.testing.assert_allclose(softmax.softmax(m), softmax.reference(m), rtol=2e-6, atol=1e-9)


def test_broken_sync_example_reports_both_lines():
    proc = subprocess.run([sys.executable, str(EXAMPLES / "broken_sync.py")], capture_output=True,
                          text=True, env=dict(os.environ), cwd=str(EXAMPLES), timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    source = (EXAMPLES / "broken_sync.py").read_text().splitlines()
    copy_line = next(i + 1 for i, s in enumerate(source) if "data_copy(x_local" in s)
    add_line = next(i + 1 for i, s in enumerate(source) if "asc.add(" in s)
    assert f"broken_sync.py:{add_line}: add: missing synchronisation" in proc.stdout
    assert f"data_copy at line {copy_line}" in proc.stdout
    assert "HardEvent.MTE2_V" in proc.stdout


# --- the static check ---------------------------------------------------------------------------------

STATIC = ["mte2_v", "v_mte3", "mte3_mte2", "v_mte2", "v_mte3_tail", "s_v", "v_s"]


def static_check(kernel, *args):
    """What @pyasc.jit(verify_sync=True) runs before building, without
    building: the IR and check_sync, errors located like the compiler's."""
    fn = asc.jit(kernel.fn, verify_sync=True)
    specs, _ = fn._specs(args)
    gen = CodeGenerator(kernel.fn, specs, asc.get_device_properties().ub_size)
    builder = gen.compile()
    gen.ir(gen.scope.node, builder.check_sync)


STATIC_ARGS = {
    "pipeline": lambda bug: (np.zeros(8, np.float32),) * 2 + (192, 64, bug),
    "tile_sum": lambda bug: (np.zeros(8, np.float32),) * 2 + (32, 3, bug),
    "scalar_mix": lambda bug: (np.zeros(8, np.float32), 64, bug),
    "gm_bounds": lambda bug: (np.zeros(8, np.float32),) * 2 + (64, bug),
    "ub_extent": lambda bug: (np.zeros(8, np.float32),) * 2 + (64, bug),
    "alignment": lambda bug: (np.zeros(8, np.float32),) * 2 + (64, bug),
    "overlap": lambda bug: (np.zeros(8, np.float32),) * 2 + (64, bug),
    "framework": lambda bug: (np.zeros(8, np.float32),) * 2 + (64, 256, bug),
}


@pytest.mark.parametrize("bug", STATIC)
def test_verify_sync_proves_missing_synchronisation(bug):
    case = CASES[bug]
    kernel = FAMILIES[case.family][0]
    where = marks(kernel.fn)
    file = inspect.getsourcefile(kernel.fn)
    with pytest.raises(asc.CompileError) as info:
        static_check(kernel, *STATIC_ARGS[case.family](bug))
    message = str(info.value)
    assert message.startswith(f"{file}:{where[case.at]}:"), message
    assert f"line {where[case.other]}" in message, message
    for word in case.words[:3]:
        assert word in message, message


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_verify_sync_accepts_the_fixed_kernels(family):
    static_check(FAMILIES[family][0], *STATIC_ARGS[family](None))


def test_verify_sync_accepts_the_examples():
    f32 = np.zeros(8, np.float32)
    f16 = np.zeros(8, np.float16)
    static_check(load_example("vadd").vadd_kernel, f32, f32, f32, 2048)
    static_check(load_example("vadd_framework").vadd_kernel, f32, f32, f32, 8192, 2048)
    static_check(load_example("scale_relu").scale_relu_kernel, f16, f16, 4096, 1.5, 0.25, 1024)
    static_check(load_example("softmax").softmax_kernel, f32, f32, 37, 5, 300)


def test_verify_sync_option_on_the_broken_example():
    broken = load_example("broken_sync")
    kernel = asc.jit(broken.vadd_kernel.fn, verify_sync=True)
    x = np.zeros(8 * 2048, np.float32)
    with pytest.raises(asc.CompileError, match=r"broken_sync.py:\d+:\d+: add: missing "
                                               r"synchronisation \(read-after-write\).*MTE2_V"):
        kernel.compile(x, x, x, 2048)
    good = asc.jit(load_example("vadd").vadd_kernel.fn, verify_sync=True)
    assert good.compile(x, x, x, 2048).native is not None


def test_verify_sync_is_conservative_across_branches():
    """A hazard on one side of a run-time branch only is not proven."""
    @asc.jit
    def branchy(x: asc.GlobalAddress, flag: int):
        x_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x, 64)
        t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
        asc.data_copy(t, x_gm, 64)
        if flag > 0:
            asc.set_flag(asc.HardEvent.MTE2_V, 0)
            asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.adds(t, t, 1.0, 64)

    static_check(branchy, np.zeros(64, np.float32), 1)


@asc.jit
def reuse(x: asc.GlobalAddress, z: asc.GlobalAddress, tiles: asc.ConstExpr[int]):
    """One buffer, copied in and out per tile with no MTE3 -> MTE2 order."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 64 * tiles)
    z_gm.set_global_buffer(z, 64 * tiles)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    for i in range(tiles):
        asc.data_copy(t, x_gm[i * 64:], 64)  # [refill]
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.data_copy(z_gm[i * 64:], t, 64)  # [drain]


def test_verify_sync_uses_constant_trip_counts():
    """A hazard between iterations needs two of them."""
    x = np.zeros(64 * 2, np.float32)
    static_check(reuse, x, x, 1)
    where = marks(reuse.fn)
    with pytest.raises(asc.CompileError, match=rf":{where['refill']}:\d+: data_copy: missing "
                                               rf"synchronisation \(write-after-read\).*line "
                                               rf"{where['drain']}.*MTE3_MTE2"):
        static_check(reuse, x, x, 2)
