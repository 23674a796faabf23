"""The timing model for Ascend C kernels (docs/perf-model.md, "Ascend C").

A Python kernel's emitted Ascend C (``kernel.ascendc(*args)``), run through
pyasc.ascendc.load inside ``pyasc.profile()``, runs the runtime's profiled
table, whose entries charge what the Python kernel's profiled build charges
for the same APIs. So the two profiles agree:

* every pipe but the scalar unit is busy exactly as long (the same charges
  for the same copies, vector instructions, mmads, fixpipes and the adv
  Matmul's internal pipes, ordered by the same flags and queues);
* the scalar unit is busy less in the Ascend C run: the Python kernel's
  build charges an instruction for each of its scalar IR ops (index
  arithmetic, the loops' tests and steps), the C++ kernel's own arithmetic
  runs outside the table, unseen. Pipe instructions start when the scalar
  unit has issued them, so Task Duration differs by that scalar time at
  most: well under 1 % here.

An L2 cache hint (SetL2CacheHint, which the emitted Ascend C now carries)
changes the modelled time of the Ascend C run as of the Python kernel's.

Outside ``pyasc.profile()`` an Ascend C launch records nothing and runs the
unprofiled build. A ``.asc`` program's launches are profiled through
``PYASC_PROFILE_OUT`` (``python -m pyasc prof PROGRAM``).
"""

from __future__ import annotations

import csv
import importlib
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import pyasc
from pyasc.profiler import PIPES, LaunchRecord, read_launches

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

_modules: dict[str, ModuleType] = {}


def _module(path: str) -> ModuleType:
    if path not in _modules:
        spec = importlib.util.spec_from_file_location(f"pyasc_pf_ascendc_{Path(path).stem}",
                                                      ROOT / path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _modules[path] = module
    return _modules[path]


def _ints(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """Small integers as half: every product and sum is exact."""
    return rng.integers(-3, 4, shape).astype(np.float16)


def _case(name: str) -> tuple[Any, int, list, set[int]]:
    """(kernel, blocks, Python args, indices of the ConstExpr args) of a case."""
    rng = np.random.default_rng(sum(map(ord, name)))
    if name == "vadd":
        n = 8 * 2048
        x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
        return _module("examples/vadd.py").vadd_kernel, 8, [x, y, np.zeros_like(x), 2048], set()
    if name == "vadd_framework":  # TQue hand-overs
        n = 8 * 4 * 2048
        x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
        return (_module("examples/vadd_framework.py").vadd_kernel, 8,
                [x, y, np.zeros_like(x), n // 8, 2048], {4})
    if name == "add_double_buffered":  # bench/perf_model_add.py's case 4, 96 rows
        pa = _module("bench/perf_model_add.py")
        rows = 96
        x = rng.standard_normal((rows, pa.N), dtype=np.float32).astype(np.float16)
        y = rng.standard_normal((rows, pa.N), dtype=np.float32).astype(np.float16)
        return (pa.add_kernel, pa.CORES,
                [x, y, np.zeros_like(x), rows, pa.N, pa.LARGE_LEN, 4], {5, 6})
    if name.startswith("reread"):  # "reread_hint": the input bypasses the L2
        n = 48 * 8192
        x = rng.random(n, dtype=np.float32)
        return reread_kernel, 48, [x, np.zeros_like(x), 8192, int(name == "reread_hint")], {2, 3}
    if name == "matmul_basic":  # the cube's basic APIs: loads, mmad, fixpipe
        m, n, k = 200, 300, 150
        a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
        return (_module("examples/matmul_basic.py").matmul_basic_kernel, 4,
                [a, b, np.zeros((m, n), np.float32), m, n, k, 0, 16], {6, 7})
    if name == "matmul_mix":  # the adv Matmul in a mixed kernel
        mx = _module("examples/matmul_mix.py")
        m, n, k = 256, 512, 128
        a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
        return (mx.matmul_kernel, 4,
                [a, b, np.zeros((m, n), np.float32), mx.make_tiling(m, n, k, cores=8),
                 np.zeros(1024, np.uint8), False, False], {5, 6})
    raise KeyError(name)


@pyasc.jit
def reread_kernel(x: pyasc.GlobalAddress, z: pyasc.GlobalAddress, tile: pyasc.ConstExpr[int],
                  hint: pyasc.ConstExpr[int]) -> None:
    """Each block reads its tile twice (the second read hits the L2 unless
    the hint keeps the tile out of it), then writes it to z."""
    off = pyasc.get_block_idx() * tile
    xg = pyasc.GlobalTensor()
    zg = pyasc.GlobalTensor()
    xg.set_global_buffer(x + off, tile)
    zg.set_global_buffer(z + off, tile)
    if hint:
        xg.set_l2_cache_hint(pyasc.CacheMode.CACHE_MODE_DISABLE)
    ub = pyasc.LocalTensor(pyasc.float32, pyasc.TPosition.VECCALC, 0, tile)
    pyasc.data_copy(ub, xg, tile)
    pyasc.pipe_barrier(pyasc.PipeID.PIPE_ALL)
    pyasc.data_copy(ub, xg, tile)
    pyasc.set_flag(pyasc.HardEvent.MTE2_MTE3, 0)
    pyasc.wait_flag(pyasc.HardEvent.MTE2_MTE3, 0)
    pyasc.data_copy(zg, ub, tile)


def _copies(args: list) -> list:
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _profiles(name: str) -> tuple[LaunchRecord, LaunchRecord, Any]:
    """The Python kernel's and its Ascend C's LaunchRecords (after checking
    that both computed the same arrays), and the Ascend C kernel."""
    kernel, blocks, args, constexpr = _case(name)
    cxx = pyasc.ascendc.load(kernel.ascendc(*args), kernel.__name__)
    py_args, cxx_args = _copies(args), _copies(args)
    with pyasc.profile() as prof:
        kernel[blocks](*py_args)
        cxx[blocks](*[a for i, a in enumerate(cxx_args) if i not in constexpr])
    arrays = [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]
    for i in arrays:
        assert py_args[i].tobytes() == cxx_args[i].tobytes(), (name, i)
    assert any(not np.array_equal(py_args[i], args[i]) for i in arrays)
    assert len(prof.launches) == 2
    return prof.launches[0], prof.launches[1], cxx


CASES = ["vadd", "vadd_framework", "add_double_buffered", "matmul_basic", "matmul_mix",
         "reread", "reread_hint"]


@pytest.mark.parametrize("name", CASES)
def test_ascendc_profile_matches_the_python_kernels(name):
    py, cc, _ = _profiles(name)
    assert cc.name == py.name and cc.block_num == py.block_num
    assert [(b.block_idx, b.core_kind, b.wave) for b in cc.blocks] == \
        [(b.block_idx, b.core_kind, b.wave) for b in py.blocks]
    busy = [p for p in PIPES if p != "scalar"]
    assert any(py.pipe_time_us[p] > 0 for p in busy)
    for p in busy:  # the same charges, to the cycle
        assert cc.pipe_time_us[p] == pytest.approx(py.pipe_time_us[p], rel=1e-9, abs=1e-9), p
    for pb, cb in zip(py.blocks, cc.blocks):
        for p in busy:
            assert cb.busy[p] == pytest.approx(pb.busy[p], rel=1e-9, abs=1e-9), (p, pb.block_idx)
    # the C++ kernel's own scalar arithmetic is not seen: less scalar work,
    # and a Task Duration that differs by a fraction of it
    assert 0 < cc.pipe_time_us["scalar"] <= py.pipe_time_us["scalar"]
    gaps = [pb.busy["scalar"] - cb.busy["scalar"] for pb, cb in zip(py.blocks, cc.blocks)]
    assert min(gaps) >= 0
    assert abs(cc.cycles - py.cycles) <= max(gaps) + 1e-6
    assert cc.task_duration_us == pytest.approx(py.task_duration_us, rel=0.01)


def test_an_l2_hint_in_ascendc_changes_the_model_as_in_python():
    """With the hint the second read misses the L2 and waits for HBM again:
    more MTE2 time, in both runs alike."""
    py, cc, _ = _profiles("reread")
    py_hint, cc_hint, _ = _profiles("reread_hint")
    assert py_hint.pipe_time_us["mte2"] > 1.2 * py.pipe_time_us["mte2"]
    assert cc_hint.pipe_time_us["mte2"] == pytest.approx(py_hint.pipe_time_us["mte2"], rel=1e-9)
    assert cc.pipe_time_us["mte2"] == pytest.approx(py.pipe_time_us["mte2"], rel=1e-9)


def test_ascendc_records_show_like_a_jit_kernels(tmp_path):
    py, cc, _ = _profiles("vadd")
    prof = pyasc.profile()
    prof.launches = [py, cc]
    rows = prof.rows()
    assert rows[1][0] == rows[2][0] == "vadd_kernel" and rows[1][1] == rows[2][1] == "8"
    # the vector pipes' columns agree (aiv_vec, aiv_mte2, aiv_mte3 times)
    for col in ("aiv_vec_time(us)", "aiv_mte2_time(us)", "aiv_mte3_time(us)"):
        i = rows[0].index(col)
        assert rows[1][i] == rows[2][i] and float(rows[2][i]) > 0, col
    assert "vadd_kernel" in prof.table(file=open(tmp_path / "table.txt", "w"))
    prof.export_csv(str(tmp_path / "p.csv"))
    with open(tmp_path / "p.csv", encoding="utf-8") as f:
        assert list(csv.reader(f)) == rows
    prof.export_chrome_trace(str(tmp_path / "t.json"))
    events = json.loads((tmp_path / "t.json").read_text())["traceEvents"]
    spans = [e for e in events if e["ph"] == "X" and e["pid"] == 1]
    assert {e["name"] for e in spans} >= {"vec", "mte2", "mte3", "scalar"}


def test_ascendc_outside_profile_records_nothing():
    kernel, blocks, args, _ = _case("vadd")
    cxx = pyasc.ascendc.load(kernel.ascendc(*args), kernel.__name__)
    with pyasc.profile() as prof:
        pass
    z = np.zeros_like(args[0])
    cxx[blocks](args[0], args[1], z, args[3])
    assert np.array_equal(z, args[0] + args[1])
    assert prof.launches == []
    # the unprofiled build carries no timing model at all
    with pytest.raises(pyasc.InvalidValueError, match="not built with profiling"):
        cxx.native(False).profile_records()
    with pyasc.profile() as prof:
        cxx[blocks](args[0], args[1], z, args[3])
    assert len(prof.launches) == 1 and prof.launches[0].task_duration_us > 0
    assert cxx.native(False, profiled=True) is not cxx.native(False)


def test_an_asc_programs_launches_are_profiled(tmp_path):
    """`python -m pyasc prof PROGRAM`: a .asc program's kernel launches run on
    the profiled table (PYASC_PROFILE_OUT), and their records equal those of
    the same kernel loaded with pyasc.ascendc.load, to the cycle."""
    drv = importlib.import_module("test_asc_driver")
    (tmp_path / "add.asc").write_text(drv._add_source())
    built = drv._driver("add.asc", "-o", "add", "--npu-arch=dav-2201", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    out = tmp_path / "launches.jsonl"
    run, x, y, z = drv._run_add(tmp_path / "add", tmp_path, {"PYASC_PROFILE_OUT": str(out)})
    assert run.returncode == 0 and "launch 0 sync 0" in run.stdout, run.stderr
    np.testing.assert_allclose(z, (x.astype(np.float64) + y) * 0.5, rtol=1e-6, atol=1e-6)
    (prog,) = read_launches(str(out)).launches
    assert prog.name == "axpy_custom" and prog.block_num == 8 and len(prog.blocks) == 8
    kernel_text = drv._add_source().split("static std::vector<float> load")[0].replace(
        '#include "acl/acl.h"', "")
    kernel = pyasc.ascendc.load(kernel_text, "axpy_custom")
    zz = np.zeros_like(x)
    with pyasc.profile() as prof:
        kernel[8](x, y, zz, x.size, 0.5)
    (loaded,) = prof.launches
    assert prog.cycles == pytest.approx(loaded.cycles, rel=1e-12)
    for p in PIPES:
        assert prog.pipe_time_us[p] == pytest.approx(loaded.pipe_time_us[p], rel=1e-12), p
    assert prog.pipe_time_us["mte2"] > 0 and prog.pipe_time_us["vec"] > 0
    # the command line runs the program and prints the table
    x.tofile(tmp_path / "x.bin")
    cli = subprocess.run([sys.executable, "-m", "pyasc", "prof", "./add", "x.bin", "y.bin",
                          "z.bin"], cwd=tmp_path, capture_output=True, text=True, check=False,
                         timeout=300)
    assert cli.returncode == 0, cli.stderr
    assert "launch 0 sync 0" in cli.stdout and "1 launch(es)" in cli.stdout
    assert f"{prog.task_duration_us:.3f}" in cli.stdout
    # without the variable the program records nothing
    out.unlink()
    run, *_ = drv._run_add(tmp_path / "add", tmp_path)
    assert run.returncode == 0 and not out.exists()


class _ProfilePairs:
    """A launch hook (pyasc.language.jit.set_launch_hook) inside a
    pyasc.profile(): each launch first runs the kernel's emitted Ascend C on
    copies of its arguments, then the Python kernel runs as usual, so that
    their records follow each other; ``pairs`` holds the Ascend C record's
    index of each launch (none for a kernel whose Ascend C the header cannot
    build yet: ``skipped``)."""

    def __init__(self, prof: pyasc.profiler.Profile) -> None:
        self.prof = prof
        self.pairs: list[int] = []
        self.skipped: list[str] = []
        self._built: dict[str, Any] = {}

    def __call__(self, compiled: Any, name: str, runtime: tuple, core_num: int,
                 stream: Any) -> bool:
        roundtrip = importlib.import_module("ascendc_roundtrip")
        source = compiled.ascendc_source
        if source not in self._built:
            try:
                self._built[source] = pyasc.ascendc.load(source,
                                                         roundtrip._NAME.search(source)[1])
            except pyasc.CompileError:
                self._built[source] = None
        if self._built[source] is None:
            self.skipped.append(name)
            return False
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in runtime]
        args = roundtrip.ascendc_arguments(source, tuple(copies))
        assert args is not None, name
        self.pairs.append(len(self.prof.launches))
        self._built[source][core_num, stream](*args)
        return False


def _paired_profiles(*runs: Any) -> tuple[pyasc.profiler.Profile, _ProfilePairs]:
    """Runs each callable (other tests' launches) with _ProfilePairs."""
    from pyasc.language import jit as pyasc_jit
    with pyasc.profile() as prof:
        hook = _ProfilePairs(prof)
        pyasc_jit.set_launch_hook(hook)
        try:
            for run in runs:
                run()
        finally:
            pyasc_jit.set_launch_hook(None)
    assert len(prof.launches) == 2 * len(hook.pairs) + len(hook.skipped)
    return prof, hook


def _assert_pairs_agree(prof: pyasc.profiler.Profile, hook: _ProfilePairs) -> set[str]:
    """Every pair's pipes but the scalar unit agree; the pipes they used."""
    busy = [p for p in PIPES if p != "scalar"]
    for i in hook.pairs:
        cc, py = prof.launches[i], prof.launches[i + 1]
        assert cc.name == py.name
        for p in busy:
            assert cc.pipe_time_us[p] == pytest.approx(py.pipe_time_us[p], rel=1e-9, abs=1e-9), \
                (py.name, p)
        assert cc.task_duration_us == pytest.approx(py.task_duration_us, rel=0.01), py.name
    return {p for i in hook.pairs for p in busy if prof.launches[i].pipe_time_us[p] > 0}


def test_vector_forms_of_vec_more_profile_like_the_python_kernels():
    """Transpose, Gather, Gatherb, Brcb and Sort32 (the table's vec_more
    forms): test_api_*'s kernels, each launch's Ascend C beside it."""
    more = importlib.import_module("test_api_more")
    sort = importlib.import_module("test_api_sort")
    gm = importlib.import_module("test_api_gather_mask")
    prof, hook = _paired_profiles(
        lambda: more.test_transpose_16x16(np.float16, 0),
        lambda: more.test_gather_and_scatter_count_forms(np.float16, 100),
        lambda: more.test_brcb(np.float32, 3, 1, 8),
        lambda: sort.test_sort32_and_sort(np.float32, 0, 3),
        lambda: gm.test_gatherb(np.float16, 3, 1, 8))
    assert len(hook.pairs) >= 5
    assert "vec" in _assert_pairs_agree(prof, hook)


def test_more_cube_forms_profile_like_the_python_kernels():
    """DataCopy from L0C (CO12), LoadDataWithTranspose, the sparse
    LoadDataWithSparse and MmadWithSparse: test_cube_*'s kernels, each
    launch's Ascend C profiled beside it."""
    co12 = importlib.import_module("test_cube_co12")
    load_t = importlib.import_module("test_cube_load_transpose")
    sparse = importlib.import_module("test_cube_sparse")
    prof, hook = _paired_profiles(
        co12.test_no_quant_float32, co12.test_f322f16, co12.test_nz_output,
        lambda: load_t.test_load_data_with_transpose_matmul(True),
        lambda: load_t.test_load_data_with_transpose_int8(32, 64, 32),
        lambda: sparse.test_sparse_matmul_exact(sparse.plain_kernel, 20, 30, 72))
    assert len(hook.pairs) >= 6 and not hook.skipped
    assert {"mac", "mte1", "fixpipe"} <= _assert_pairs_agree(prof, hook)


def test_matmul_members_profile_like_the_python_kernels():
    """The adv Matmul's batch forms (IterateBatch, IterateNBatch with
    GetBatchTensorC), quantised outputs, A/B from LocalTensors and a
    MatmulConfig with scalar operands: test_matmul_*'s kernels, each
    launch's Ascend C beside it."""
    batch = importlib.import_module("test_matmul_batch")
    local = importlib.import_module("test_matmul_local")
    forms = importlib.import_module("test_upstream_forms_matmul")
    prof, hook = _paired_profiles(
        lambda: batch.test_iterate_batch_matches_numpy(3, 3, 0, 0),
        batch.test_iterate_n_batch_through_the_workspace,
        lambda: batch.test_dequant_int8_to_half(True),
        lambda: local.test_local_operands_equal_numpy(sorted(local.CASES)[0]),
        lambda: forms.test_config_and_scalar_operands(0))
    assert len(hook.pairs) >= 5 and not hook.skipped
    assert {"mac", "mte2", "fixpipe"} <= _assert_pairs_agree(prof, hook)
