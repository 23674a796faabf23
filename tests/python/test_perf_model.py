"""The timing model (docs/perf-model.md) through pyasc.profile: records,
costs against the documented table computed here, overlap from double
buffering, unchanged results, and nothing changed when profiling is off."""

import csv
import importlib.util
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest

import pyasc as asc
from pyasc.__main__ import main as pyasc_main
from pyasc.language import jit as asc_jit
from pyasc.language.options import KernelType

from cube_helpers import gm_abc

# The table of docs/perf-model.md, restated: the test computes costs itself.
MHZ = 1850.0
GM_BYTES_PER_CYCLE = 1.49e12 / (MHZ * 1e6)
MTE_PORT = 128.0
L2_BYTES_PER_CYCLE = 5e12 / (MHZ * 1e6)
GM_LATENCY = 200.0
BURST = 1.73  # MTE cycles per burst (a row, or a DataCopyParams block)
VEC_STARTUP = 20.0
AIV_CORES = 48
L2_LINE = 512  # a read that misses fetches whole lines from HBM


def _moved(nbytes, l2_rate, bursts=1):
    """A GM copy's cycles when neither HBM nor a miss binds: the latency,
    then the slower of the MTE (a cost per burst, the bytes at its port)
    and the core's share of the L2's bandwidth."""
    return GM_LATENCY + max(bursts * BURST + nbytes / MTE_PORT, nbytes / l2_rate)


def _miss_cycles(nbytes, rate):
    """The cycles a read of nbytes that misses the L2 may take at rate
    bytes/cycle: its lines come whole, nbytes / L2_LINE of them, or one
    more when the buffer does not start on a line."""
    lines = nbytes // L2_LINE
    return [GM_LATENCY + n * L2_LINE / rate for n in (lines, lines + 1)]


@asc.jit
def copy_in(x: asc.GlobalAddress, n: asc.ConstExpr[int]) -> None:
    gm = asc.GlobalTensor()
    gm.set_global_buffer(x, n)
    ub = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, n)
    asc.data_copy(ub, gm, n)


@asc.jit
def copy_out(z: asc.GlobalAddress, n: asc.ConstExpr[int]) -> None:
    gm = asc.GlobalTensor()
    gm.set_global_buffer(z + asc.get_block_idx() * n, n)
    ub = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 0, n)
    asc.duplicate(ub, 1.5, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(gm, ub, n)


@asc.jit
def add_tiles(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
              tile: asc.ConstExpr[int], tiles: asc.ConstExpr[int],
              double: asc.ConstExpr[bool]) -> None:
    """z = x + y over each block's tiles, one buffer set or two (ping-pong)."""
    start = asc.get_block_idx() * tile * tiles
    xg = asc.GlobalTensor()
    yg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + start, tile * tiles)
    yg.set_global_buffer(y + start, tile * tiles)
    zg.set_global_buffer(z + start, tile * tiles)
    ub = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 0, 6 * tile)
    nbuf = 2 if double else 1
    for e in range(nbuf):
        asc.set_flag(asc.HardEvent.V_MTE2, e)
        asc.set_flag(asc.HardEvent.MTE3_V, e)
    for i in range(tiles):
        e = i % nbuf
        b = e * 3 * tile
        asc.wait_flag(asc.HardEvent.V_MTE2, e)
        asc.data_copy(ub[b:], xg[i * tile:], tile)
        asc.data_copy(ub[b + tile:], yg[i * tile:], tile)
        asc.set_flag(asc.HardEvent.MTE2_V, e)
        asc.wait_flag(asc.HardEvent.MTE2_V, e)
        asc.wait_flag(asc.HardEvent.MTE3_V, e)
        asc.add(ub[b + 2 * tile:], ub[b:], ub[b + tile:], tile)
        asc.set_flag(asc.HardEvent.V_MTE2, e)
        asc.set_flag(asc.HardEvent.V_MTE3, e)
        asc.wait_flag(asc.HardEvent.V_MTE3, e)
        asc.data_copy(zg[i * tile:], ub[b + 2 * tile:], tile)
        asc.set_flag(asc.HardEvent.MTE3_V, e)
    for e in range(nbuf):
        asc.wait_flag(asc.HardEvent.V_MTE2, e)
        asc.wait_flag(asc.HardEvent.MTE3_V, e)


@asc.jit
def add_queued(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
               tile: asc.ConstExpr[int], tiles: asc.ConstExpr[int],
               depth: asc.ConstExpr[int]) -> None:
    """z = x + y through TQue buffers (depth 1: one buffer set, 2: two)."""
    start = asc.get_block_idx() * tile * tiles
    xg = asc.GlobalTensor()
    yg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + start)
    yg.set_global_buffer(y + start)
    zg.set_global_buffer(z + start)
    pipe = asc.TPipe()
    qx = asc.TQue(asc.TPosition.VECIN, depth)
    qy = asc.TQue(asc.TPosition.VECIN, depth)
    qz = asc.TQue(asc.TPosition.VECOUT, depth)
    pipe.init_buffer(qx, depth, tile * 2)
    pipe.init_buffer(qy, depth, tile * 2)
    pipe.init_buffer(qz, depth, tile * 2)
    for i in range(tiles):
        xl = qx.alloc_tensor(asc.float16)
        yl = qy.alloc_tensor(asc.float16)
        asc.data_copy(xl, xg[i * tile:], tile)
        asc.data_copy(yl, yg[i * tile:], tile)
        qx.enque(xl)
        qy.enque(yl)
        xv = qx.deque(asc.float16)
        yv = qy.deque(asc.float16)
        zl = qz.alloc_tensor(asc.float16)
        asc.add(zl, xv, yv, tile)
        qz.enque(zl)
        qx.free_tensor(xv)
        qy.free_tensor(yv)
        zv = qz.deque(asc.float16)
        asc.data_copy(zg[i * tile:], zv, tile)
        qz.free_tensor(zv)


@asc.jit(kernel_type=KernelType.MIX_AIC_1_2)
def mixed_rows(out: asc.GlobalAddress) -> None:
    """Each core of a mixed launch writes its row: AICs first, then AIVs."""
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    row = asc.get_block_idx()
    if asc.ascend_is_aiv():
        row = asc.get_block_num() + asc.get_block_idx()
    g.set_value(row, row + 1)


def _operands(blocks, tile, tiles, seed=0):
    rng = np.random.default_rng(seed)
    n = blocks * tile * tiles
    x = rng.standard_normal(n).astype(np.float16)
    y = rng.standard_normal(n).astype(np.float16)
    return x, y, np.zeros(n, np.float16)


def _run_add(blocks, tile, tiles, double):
    x, y, z = _operands(blocks, tile, tiles)
    with asc.profile() as prof:
        add_tiles[blocks, asc.current_stream()](x, y, z, tile, tiles, double)
    np.testing.assert_array_equal(z, (x + y).astype(np.float16))
    return prof


def test_launch_record_fields():
    prof = _run_add(4, 1024, 4, True)
    assert len(prof.launches) == 1
    rec = prof.launches[0]
    assert rec.name == "add_tiles" and rec.block_num == 4 and len(rec.blocks) == 4
    keys = {"scalar", "vec", "mac", "mte1", "mte2", "mte3", "fixpipe"}
    assert set(rec.pipe_time_us) == keys and set(rec.pipe_ratio) == keys
    assert rec.pipe_time_us["mac"] == 0 and rec.pipe_time_us["mte2"] > 0
    assert rec.pipe_time_us["vec"] > 0 and rec.pipe_time_us["mte3"] > 0
    # four blocks fit on the chip at once: one wave, the slowest block's cycles
    assert rec.cycles == max(b.cycles for b in rec.blocks)
    assert rec.task_duration_us > rec.cycles / MHZ
    for p in keys:
        assert 0 <= rec.pipe_ratio[p] <= 1
    text = prof.table(file=io.StringIO())
    assert "Task Duration(us)" in text and "aiv_mte2_time(us)" in text
    header, row = prof.rows()
    assert row[header.index("Block Dim")] == "4"
    assert float(row[header.index("aiv_vec_time(us)")]) == pytest.approx(
        rec.pipe_time_us["vec"], abs=1e-3)  # every block is an AIV
    assert row[header.index("aic_mac_time(us)")] == ""  # no cube cores


@pytest.mark.parametrize("blocks", [1, AIV_CORES])
def test_copy_costs_what_the_table_says(blocks):
    n = 8192  # halves: 16 KiB
    x = np.ones(n * blocks, np.float16)
    with asc.profile() as prof:
        copy_in[blocks, asc.current_stream()](x, n)
    share = GM_BYTES_PER_CYCLE / blocks
    port = _moved(2 * n, L2_BYTES_PER_CYCLE / blocks)
    for b in prof.launches[0].blocks:
        want = [max(port, hbm) for hbm in _miss_cycles(2 * n, share)]
        assert any(b.busy["mte2"] == pytest.approx(w, rel=1e-9) for w in want)
        assert b.busy["vec"] == 0 and b.busy["mte3"] == 0


def test_writes_land_in_the_l2():
    """48 cores share the HBM, but a write that fits the core's part of the
    (write-back) L2 costs no HBM bandwidth: it moves at the core's share of
    the L2's."""
    n = 8192
    z = np.zeros(n * AIV_CORES, np.float16)
    with asc.profile() as prof:
        copy_out[AIV_CORES, asc.current_stream()](z, n)
    np.testing.assert_array_equal(z, np.full_like(z, 1.5))
    for b in prof.launches[0].blocks:
        want = _moved(2 * n, L2_BYTES_PER_CYCLE / AIV_CORES)
        assert b.busy["mte3"] == pytest.approx(want, rel=1e-9)


@pytest.mark.parametrize("tile", [4096, 2176])
def test_vector_add_costs_a_cycle_per_repeat_unless_banks_conflict(tile):
    """x and y lie tile halves apart: 8 KiB puts their 256-B windows in the
    same UB bank groups (a cycle per source and repeat), 4352 B half a round
    of the 16 groups of 32-B rows apart (one cycle per repeat)."""
    rec = _run_add(1, tile, 2, False).launches[0]
    repeats = math.ceil(tile * 2 / 256)
    per = 1 if (tile * 2 // 32) % 16 == 8 else 2
    assert rec.blocks[0].busy["vec"] == pytest.approx(2 * (VEC_STARTUP + per * repeats))


def test_double_buffering_overlaps_copies_and_compute():
    single = _run_add(2, 4096, 8, False).launches[0]
    double = _run_add(2, 4096, 8, True).launches[0]
    assert double.task_duration_us < single.task_duration_us
    # the same work on each pipe, only overlapped
    for p in ("vec", "mte2", "mte3"):
        assert double.pipe_time_us[p] == pytest.approx(single.pipe_time_us[p])


def test_tque_double_buffering_overlaps():
    """TQue hand-overs order the pipes: a depth-2 queue lets the next tile's
    copies run while the vector unit adds; each pipe does the same work."""
    recs = {}
    for depth in (1, 2):
        x, y, z = _operands(2, 2048, 8, seed=depth)
        with asc.profile() as prof:
            add_queued[2, asc.current_stream()](x, y, z, 2048, 8, depth)
        np.testing.assert_array_equal(z, (x + y).astype(np.float16))
        recs[depth] = prof.launches[0]
    assert recs[2].task_duration_us < recs[1].task_duration_us
    for p in ("vec", "mte2", "mte3"):
        assert recs[2].pipe_time_us[p] == pytest.approx(recs[1].pipe_time_us[p])
    # depth 1: a tile's copies in wait for the add before them to free the
    # buffers (only the copy out overlaps the next tile's copies in)
    block = recs[1].blocks[0]
    assert block.cycles >= block.busy["mte2"] + block.busy["vec"]
    block = recs[2].blocks[0]
    assert block.cycles < block.busy["mte2"] + block.busy["vec"]


def test_blocks_beyond_the_cores_run_in_waves():
    rec = _run_add(AIV_CORES + 2, 512, 1, False).launches[0]
    waves = {}
    for b in rec.blocks:
        waves.setdefault(b.wave, []).append(b.cycles)
    assert sorted(waves) == [0, 1] and len(waves[1]) == 2
    assert rec.cycles == pytest.approx(max(waves[0]) + max(waves[1]))


def test_mixed_groups_run_in_waves_of_the_aic_count():
    groups = 26  # 24 AICs, each with two AIVs: two waves
    out = np.zeros(3 * groups, np.int32)
    with asc.profile() as prof:
        mixed_rows[groups, asc.current_stream()](out)
    np.testing.assert_array_equal(out, np.arange(1, 3 * groups + 1))
    rec = prof.launches[0]
    aic = sorted((b.block_idx, b.wave) for b in rec.blocks if b.core_kind == "aic")
    aiv = sorted((b.block_idx, b.wave) for b in rec.blocks if b.core_kind == "aiv")
    assert aic == [(i, i // 24) for i in range(groups)]
    assert aiv == [(i, i // 2 // 24) for i in range(2 * groups)]


def test_chrome_trace_has_a_span_per_busy_pipe_and_block(tmp_path):
    prof = _run_add(3, 1024, 4, True)
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    events = json.loads(path.read_text())["traceEvents"]
    spans = {(e["tid"] // 16, e["name"]) for e in events if e["ph"] == "X"}
    for block in range(3):
        for pipe in ("scalar", "vec", "mte2", "mte3"):
            assert (block, pipe) in spans
    assert all(e["dur"] >= 0 for e in events if e["ph"] == "X")


def test_profiling_off_records_nothing_and_keeps_the_c_source():
    x, y, z = _operands(2, 1024, 2)
    args = (x, y, z, 1024, 2, True)
    before = add_tiles.compile(*args).c_source
    prof = _run_add(2, 1024, 2, True)
    add_tiles[2, asc.current_stream()](x, y, z, 1024, 2, True)  # after the block
    assert len(prof.launches) == 1
    np.testing.assert_array_equal(z, (x + y).astype(np.float16))
    after = add_tiles.compile(*args).c_source
    assert after == before and "ASC_K_PROFILE" not in after and "asc_pf_" not in after
    assert "#define ASC_K_PROFILE 1" in add_tiles._compile(args, True).c_source


SCRIPT = """
import sys
import numpy as np
import pyasc as asc

@asc.jit
def twice(x: asc.GlobalAddress, n: asc.ConstExpr[int]) -> None:
    gm = asc.GlobalTensor()
    gm.set_global_buffer(x, n)
    ub = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, n)
    asc.data_copy(ub, gm, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.muls(ub, ub, 2.0, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(gm, ub, n)

x = np.arange(64, dtype=np.float32)
for _ in range(int(sys.argv[1])):
    twice[1, asc.current_stream()](x, 64)
assert np.array_equal(x, np.arange(64, dtype=np.float32) * 2 ** int(sys.argv[1]))
sys.exit(3)
"""


def test_cli_profiles_a_whole_script(tmp_path, capsys):
    script = tmp_path / "twice.py"
    script.write_text(SCRIPT)
    trace = tmp_path / "t.json"
    assert pyasc_main(["prof", "--trace", str(trace), str(script), "2"]) == 3
    out = capsys.readouterr().out
    assert "2 launch(es)" in out and out.count("twice") == 2
    assert json.loads(trace.read_text())["traceEvents"]
    assert pyasc_main(["prof", str(tmp_path / "missing.py")]) == 2


def test_a_launch_hook_takes_launches_before_the_profiler():
    from_hook = []
    x, y, z = _operands(1, 1024, 1)
    asc_jit.set_launch_hook(lambda kernel, name, args, core_num, stream:
                            from_hook.append(name) or True)
    try:
        with asc.profile() as prof:
            add_tiles[1, asc.current_stream()](x, y, z, 1024, 1, False)
    finally:
        asc_jit.set_launch_hook(None)
    assert from_hook == ["add_tiles"] and prof.launches == [] and not z.any()


def test_csv_has_the_table_rows(tmp_path):
    prof = _run_add(2, 1024, 2, False)
    path = tmp_path / "summary.csv"
    prof.export_csv(str(path))
    with open(path, newline="") as f:
        assert list(csv.reader(f)) == prof.rows()


def _example(name):
    path = Path(__file__).resolve().parents[2] / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"perf_model_example_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cube_time_is_a_cycle_per_fractal():
    """examples/matmul_basic.py on 4 cores: the mmads' cycles add up to one
    per 16x16x16 fractal of the product, plus each mmad's start-up."""
    m, n, k = 256, 256, 128
    rng = np.random.default_rng(1)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    with asc.profile() as prof:
        c = _example("matmul_basic").matmul_basic(a, b)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-3,
                               atol=1e-2)
    rec = prof.launches[0]
    fractals = (m // 16) * (n // 16) * (k // 16)
    mac = sum(blk.busy["mac"] for blk in rec.blocks)
    assert fractals <= mac <= fractals * 1.1
    header, row = prof.rows()
    assert float(row[header.index("aic_mac_time(us)")]) == pytest.approx(
        mac / len(rec.blocks) / MHZ, abs=1e-3)


def test_records_of_a_kernel_built_without_profiling_are_an_error():
    x, y, z = _operands(1, 1024, 1)
    args = (x, y, z, 1024, 1, False)
    plain = add_tiles.compile(*args).native
    for call in (lambda: plain.profile_reset(1), plain.profile_records):
        with pytest.raises(asc.Error, match="not built with profiling"):
            call()
    with pytest.raises(asc.Error, match="records"):
        add_tiles._compile(args, True).native.profile_reset(0)


@asc.jit
def read_twice(x: asc.GlobalAddress, n: asc.ConstExpr[int]) -> None:
    gm = asc.GlobalTensor()
    gm.set_global_buffer(x + asc.get_block_idx() * n, n)
    ub = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, n)
    asc.data_copy(ub, gm, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(ub, gm, n)


def test_a_second_read_hits_the_l2():
    """48 cores: the first read of 16 KiB comes from HBM at the core's share
    of the HBM, the second from the L2 at its share of 5 TB/s."""
    n = 8192
    x = np.ones(n * AIV_CORES, np.float16)
    with asc.profile() as prof:
        read_twice[AIV_CORES, asc.current_stream()](x, n)
    first = _miss_cycles(2 * n, GM_BYTES_PER_CYCLE / AIV_CORES)
    second = _moved(2 * n, L2_BYTES_PER_CYCLE / AIV_CORES)
    for b in prof.launches[0].blocks:
        assert any(b.busy["mte2"] == pytest.approx(f + second, rel=1e-9) for f in first)


@asc.jit
def copy_in_bursts(x: asc.GlobalAddress, n: asc.ConstExpr[int],
                   count: asc.ConstExpr[int]) -> None:
    """n halves in `count` bursts of equal length (DataCopyParams)."""
    gm = asc.GlobalTensor()
    gm.set_global_buffer(x, n)
    ub = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, n)
    asc.data_copy(ub, gm, asc.DataCopyParams(count, n * 2 // 32 // count, 0, 0))


@pytest.mark.parametrize("count", [1, 64])
def test_each_burst_of_a_copy_costs_the_mte(count):
    """One core, 16 KiB in 1 or 64 bursts: the MTE's port binds (one core
    has the whole L2 and HBM), and each burst adds BURST cycles."""
    n = 8192
    x = np.arange(n).astype(np.float16)
    with asc.profile() as prof:
        copy_in_bursts[1, asc.current_stream()](x, n, count)
    (blk,) = prof.launches[0].blocks
    want = GM_LATENCY + count * BURST + 2 * n / MTE_PORT
    assert blk.busy["mte2"] == pytest.approx(want, rel=1e-9)


# --- asc.adv.Matmul's internal pipes -------------------------------------------

@asc.jit(matmul_cube_only=True)
def mm_blocks(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
              tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress) -> None:
    """C = A @ B^T, block i taking single_core_m rows of A and C."""
    if asc.ascend_is_aic():
        row = asc.get_block_idx() * tiling.single_core_m
        a_gm, b_gm, c_gm = gm_abc(a + row * tiling.k_a, b, c + row * tiling.n)
        pipe = asc.TPipe()
        mm = asc.adv.Matmul(
            a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16, False),
            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16, True),
            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32),
        )
        asc.adv.register_matmul(pipe, workspace, mm, tiling)
        mm.set_tensor_a(a_gm, False)
        mm.set_tensor_b(b_gm, True)
        mm.iterate_all(c_gm)
        mm.end()


@asc.jit(matmul_cube_only=True)
def mm_each(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
            tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress) -> None:
    """mm_blocks on one core, a base block at a time (iterate, get_tensor_c)."""
    if asc.ascend_is_aic():
        a_gm, b_gm, c_gm = gm_abc(a, b, c)
        pipe = asc.TPipe()
        mm = asc.adv.Matmul(
            a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16, False),
            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16, True),
            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32),
        )
        asc.adv.register_matmul(pipe, workspace, mm, tiling)
        mm.set_tensor_a(a_gm, False)
        mm.set_tensor_b(b_gm, True)
        with mm.iterate():
            mm.get_tensor_c(c_gm)
        mm.end()


def _mm_tiling(blocks, m, n, k, base=(128, 256, 64), l1=(1, 1, 1, 1)):
    t = asc.adv.TCubeTiling()
    t.used_core_num = blocks
    t.m, t.n, t.k_a, t.k_b = m, n, k, k
    t.single_core_m, t.single_core_n, t.single_core_k = m // blocks, n, k
    t.base_m, t.base_n, t.base_k = base
    t.depth_a1, t.depth_b1, t.step_k_a, t.step_k_b = l1
    t.step_m = t.step_n = 1
    return t


def _run_mm(blocks, m, n, k, kernel=mm_blocks, **tiling):
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (n, k)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    with asc.profile() as prof:
        kernel[blocks, asc.current_stream()](a, b, c, _mm_tiling(blocks, m, n, k, **tiling),
                                             np.zeros(1024, np.uint8))
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32).T, rtol=1e-3,
                               atol=1e-3)
    return prof.launches[0]


def test_matmul_charges_its_loads_mmads_and_fixpipes():
    """One core: 2 base blocks of 128 x 256, 4 K steps of 64 each. The
    cube: a start-up and a cycle per 16^3 fractal per step; MTE1: both
    tiles to L0 at LOCAL_BYTES a cycle; MTE2: a GM copy per tile and step
    at the MTE's port rate and a burst per row (one core's shares of the
    HBM and the L2 are wider, even for the whole lines a first read
    fetches); FIXPIPE: one float32 128 x 256 write (128 rows) per base
    block."""
    rec = _run_mm(1, 128, 512, 256)
    steps, a_tile, b_tile = 2 * 4, 128 * 64 * 2, 256 * 64 * 2
    want = {"mac": steps * (20 + 8 * 16 * 4),
            "mte1": steps * (a_tile + b_tile) / 256,
            "mte2": steps * (2 * GM_LATENCY + (128 + 256) * BURST + (a_tile + b_tile) / MTE_PORT),
            "fixpipe": 2 * (GM_LATENCY + 128 * BURST + 128 * 256 * 4 / MTE_PORT)}
    assert len(rec.blocks) == 1
    for blk in rec.blocks:
        for pipe, cycles in want.items():
            assert blk.busy[pipe] == pytest.approx(cycles, rel=1e-9), pipe


def test_matmul_operands_read_by_several_cores_come_from_hbm_once():
    """24 cores, each 128 rows of A and all of B (one 128 x 256 block, one
    K step of 64): A's rows are each core's own, and their first read from
    HBM at the core's share binds; B's columns are read by all 24 at about
    the same time, so each core pays a 24th of their HBM fetch, and its 256
    rows at the MTE bind (without the sharing B's fetch would, at 809
    cycles)."""
    blocks, hbm = 24, GM_BYTES_PER_CYCLE / 24
    rec = _run_mm(blocks, blocks * 128, 256, 64)
    l2 = L2_BYTES_PER_CYCLE / blocks
    a_bytes, b_bytes = 128 * 64 * 2, 256 * 64 * 2
    a_port = 128 * BURST + a_bytes / MTE_PORT
    b_port = 256 * BURST + b_bytes / MTE_PORT
    want = []
    for a_lines in (a_bytes // L2_LINE, a_bytes // L2_LINE + 1):
        for b_lines in (b_bytes // L2_LINE, b_bytes // L2_LINE + 1):
            a = max(a_port, a_bytes / l2, a_lines * L2_LINE / hbm)
            b = max(b_port, b_bytes / l2, b_lines * L2_LINE / hbm / blocks)
            want.append(2 * GM_LATENCY + a + b)
    assert b_bytes / hbm > b_port  # the sharing decides B's cost
    assert len(rec.blocks) == blocks
    for blk in rec.blocks:
        assert any(blk.busy["mte2"] == pytest.approx(w, rel=1e-9) for w in want), blk.busy["mte2"]


def test_matmul_iterate_and_get_tensor_c_cost_what_iterate_all_does():
    whole = _run_mm(1, 128, 512, 256)
    each = _run_mm(1, 128, 512, 256, kernel=mm_each)
    for pipe in ("mac", "mte1", "mte2", "fixpipe"):
        assert each.blocks[0].busy[pipe] == pytest.approx(whole.blocks[0].busy[pipe], rel=1e-9)
    assert each.cycles == pytest.approx(whole.cycles, rel=1e-3)


def test_matmul_l1_double_buffer_overlaps_loads_and_the_cube():
    """depth_a1 = depth_b1 = 2 with steps of 1: the next K step's loads go
    to the other L1 buffer while the cube works, so the block takes less
    time for the same work on each pipe."""
    single = _run_mm(1, 128, 256, 1024)
    double = _run_mm(1, 128, 256, 1024, l1=(2, 2, 1, 1))
    for pipe in ("mac", "mte1", "mte2", "fixpipe"):
        assert double.pipe_time_us[pipe] == pytest.approx(single.pipe_time_us[pipe])
    assert double.cycles < single.cycles
    blk = single.blocks[0]  # one buffer: a step's load waits for the step before it
    assert blk.cycles >= blk.busy["mte2"] + blk.busy["mte1"]


# --- pyasc.testing.do_bench and pyasc.autotune -----------------------------------

def test_do_bench_reports_the_modelled_time_beside_the_host_time():
    x, y, z = _operands(2, 1024, 4)
    run = lambda: add_tiles[2, asc.current_stream()](x, y, z, 1024, 4, True)  # noqa: E731
    res = asc.testing.do_bench(run, warmup=0, rep=2, quantiles=[0.5])
    with asc.profile() as prof:
        run()
    assert res.device_us == pytest.approx(prof.launches[0].task_duration_us)
    assert res.launches == 1 and res.host_ms > 0 and len(res.host_quantiles) == 1
    np.testing.assert_array_equal(z, (x + y).astype(np.float16))
    with pytest.raises(ValueError, match="return_mode"):
        asc.testing.do_bench(run, return_mode="best")
    with pytest.raises(ValueError, match="quantiles"):
        asc.testing.do_bench(run, quantiles=[2])


def _tuned_add():
    return asc.autotune(configs=[asc.Config({"tile": 1024, "double": False}),
                                 asc.Config({"tile": 1024, "double": True}, block_num=2)],
                        key=["tiles"])(add_tiles)


def test_autotune_picks_the_config_the_model_finds_fastest():
    tuned = _tuned_add()
    x, y, z = _operands(2, 1024, 4, seed=5)
    tuned[2, asc.current_stream()](x, y, z, tiles=4)
    np.testing.assert_array_equal(z, (x + y).astype(np.float16))
    (key, timings), = tuned.timings.items()
    us = {str(cfg): t for cfg, t in timings}
    # double buffering overlaps the copies and the adds: the model's pick
    assert us["tile=1024, double=True, block_num=2"] < us["tile=1024, double=False"]
    assert tuned.best_config == min(timings, key=lambda ct: ct[1])[0]
    assert tuned.best_config.kwargs == {"tile": 1024, "double": True}
    # the trial launches ran on copies: z was written once, by the chosen config
    with asc.profile() as prof:
        tuned[2, asc.current_stream()](x, y, np.zeros_like(z), tiles=4)
    assert len(prof.launches) == 1 and tuned.cache[key] is tuned.best_config


def test_autotune_caches_per_shape_and_key():
    tuned = _tuned_add()
    for tiles in (2, 2, 4):
        x, y, z = _operands(2, 1024, tiles, seed=tiles)
        tuned[2, asc.current_stream()](x, y, z, tiles=tiles)
        np.testing.assert_array_equal(z, (x + y).astype(np.float16))
    assert len(tuned.cache) == 2 and len(tuned.timings) == 2
    with pytest.raises(ValueError, match="not parameters"):
        asc.autotune(configs=[asc.Config({})], key=["nope"])(add_tiles)
    with pytest.raises(ValueError, match="at least one"):
        asc.autotune(configs=[])(add_tiles)
