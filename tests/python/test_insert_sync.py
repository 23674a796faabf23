"""insert_sync: kernels written without set_flag/wait_flag get the flags a
compiler pass finds missing (src/compiler/insert_sync.c). Each kernel runs
against NumPy in plain and checked mode (debug=True stops a kernel whose
pipes are unordered, so it is the proof at run time), passes verify_sync
(the proof at compile time) and emits Ascend C with the flags. Correctly
synchronised kernels come out byte-identical; the flag counts of simple
shapes are those of a hand analysis."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from pyasc import _C
from pyasc.language.codegen import CodeGenerator

from test_ascendc import GOLDEN, assert_valid_cpp, example
import test_checked_mode as checked

N = 256  # elements per tile
VECIN = asc.TPosition.VECIN


@asc.jit
def vadd_straight(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, VECIN, 0, N)
    yl = asc.LocalTensor(x.dtype, VECIN, 4 * N, N)
    zl = asc.LocalTensor(x.dtype, VECIN, 8 * N, N)
    asc.data_copy(xl, x_gm, N)
    asc.data_copy(yl, y_gm, N)
    asc.add(zl, xl, yl, N)
    asc.data_copy(z_gm, zl, N)


@asc.jit
def vadd_tiles(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
               tiles: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, VECIN, 0, N)
    yl = asc.LocalTensor(x.dtype, VECIN, 4 * N, N)
    zl = asc.LocalTensor(x.dtype, VECIN, 8 * N, N)
    for i in range(tiles):
        asc.data_copy(xl, x_gm[i * N:], N)
        asc.data_copy(yl, y_gm[i * N:], N)
        asc.add(zl, xl, yl, N)
        asc.muls(zl, zl, 2.0, N)
        asc.data_copy(z_gm[i * N:], zl, N)


@asc.jit
def vadd_double_buffered(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                         tiles: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    for i in range(tiles):
        buf = i % 2
        xl = asc.LocalTensor(x.dtype, VECIN, buf * 12 * N, N)
        yl = asc.LocalTensor(x.dtype, VECIN, buf * 12 * N + 4 * N, N)
        zl = asc.LocalTensor(x.dtype, VECIN, buf * 12 * N + 8 * N, N)
        asc.data_copy(xl, x_gm[i * N:], N)
        asc.data_copy(yl, y_gm[i * N:], N)
        asc.add(zl, xl, yl, N)
        asc.data_copy(z_gm[i * N:], zl, N)


@asc.jit
def vadd_auto(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
              block_length: asc.ConstExpr[int], tile_length: asc.ConstExpr[int],
              tile_num: asc.ConstExpr[int]):
    """Upstream's insert_sync vadd: LocalTensorAuto, no flags, no option."""
    offset = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset)
    y_gm.set_global_buffer(y + offset)
    z_gm.set_global_buffer(z + offset)
    for i in range(tile_num):
        x_local = asc.LocalTensorAuto(x.dtype, tile_length)
        y_local = asc.LocalTensorAuto(y.dtype, tile_length)
        z_local = asc.LocalTensorAuto(z.dtype, tile_length)
        asc.data_copy(x_local, x_gm[i * tile_length:], tile_length)
        asc.data_copy(y_local, y_gm[i * tile_length:], tile_length)
        asc.add(z_local, x_local, y_local, tile_length)
        asc.data_copy(z_gm[i * tile_length:], z_local, tile_length)


@asc.jit
def vadd_auto_scalar(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                     tile_length: asc.ConstExpr[int], tile_num: asc.ConstExpr[int]):
    """Upstream's insert_sync vadd_scalar: a scalar UB read (pipe S) too."""
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    for i in range(tile_num):
        x_local = asc.LocalTensorAuto(x.dtype, tile_length)
        y_local = asc.LocalTensorAuto(y.dtype, tile_length)
        asc.data_copy(x_local, x_gm[i * tile_length:], tile_length)
        asc.data_copy(y_local, y_gm[0:], tile_length)
        new_y = asc.LocalTensorAuto(y.dtype, tile_length)
        asc.duplicate(new_y, y_local.get_value(0), tile_length)
        z_local = asc.LocalTensorAuto(z.dtype, tile_length)
        asc.add(z_local, x_local, new_y, tile_length)
        asc.data_copy(z_gm[i * tile_length:], z_local, tile_length)


@asc.jit
def vadd_branches(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, tiles: int,
                  mode: int):
    """Run-time while and if: flags must balance on every path, including
    loops that run 0 or 1 times."""
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, VECIN, 0, N)
    yl = asc.LocalTensor(x.dtype, VECIN, 4 * N, N)
    zl = asc.LocalTensor(x.dtype, VECIN, 8 * N, N)
    asc.data_copy(yl, y_gm, N)
    i = 0
    while i < tiles:
        asc.data_copy(xl, x_gm[i * N:], N)
        if mode > 0:
            asc.add(zl, xl, yl, N)
        else:
            asc.sub(zl, xl, yl, N)
        if i % 2 == 0:
            asc.data_copy(z_gm[i * N:], zl, N)
        else:
            asc.muls(zl, zl, 2.0, N)
            asc.data_copy(z_gm[i * N:], zl, N)
        i += 1
    asc.muls(yl, yl, 3.0, N)
    asc.data_copy(z_gm[tiles * N:], yl, N)


def branches_expected(x: np.ndarray, y: np.ndarray, tiles: int, mode: int) -> np.ndarray:
    out = np.zeros_like(x)
    for i in range(tiles):
        v = x[i * N:(i + 1) * N] + (y if mode > 0 else -y)
        out[i * N:(i + 1) * N] = v if i % 2 == 0 else v * 2
    out[tiles * N:(tiles + 1) * N] = y * 3
    return out


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("tiles", [0, 1, 4])
@pytest.mark.parametrize("mode", [1, -1])
def test_branches_and_run_time_trip_counts(tiles, mode, debug):
    rng = np.random.default_rng(3)
    x = rng.random(5 * N, dtype=np.float32)
    y = rng.random(N, dtype=np.float32)
    z = np.zeros_like(x)
    k = asc.jit(vadd_branches.fn, insert_sync=True, verify_sync=True, debug=debug)
    k[1](x, y, z, tiles, mode)
    asc.synchronize()
    np.testing.assert_allclose(z, branches_expected(x, y, tiles, mode), rtol=1e-6)
    assert_valid_cpp(k.ascendc(x, y, z, tiles, mode))


@asc.jit
def alternate(x: asc.GlobalAddress, z: asc.GlobalAddress, tiles: int):
    """Even iterations load, odd ones compute and store: the hazards between
    the two branches of one if, across iterations, have no place for a flag
    pair that every path balances, so barriers order them."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, VECIN, 0, N)
    zl = asc.LocalTensor(x.dtype, VECIN, 4 * N, N)
    for i in range(tiles):
        if i % 2 == 0:
            asc.data_copy(xl, x_gm[i * N:], N)
        else:
            asc.add(zl, xl, xl, N)
            asc.data_copy(z_gm[i * N:], zl, N)


@pytest.mark.parametrize("debug", [False, True])
def test_hazards_between_branches_get_barriers(debug):
    x = np.random.default_rng(4).random(6 * N, dtype=np.float32)
    z = np.zeros_like(x)
    k = asc.jit(alternate.fn, insert_sync=True, verify_sync=True, debug=debug)
    k[1](x, z, 6)
    asc.synchronize()
    expected = np.zeros_like(x)
    for i in range(1, 6, 2):
        expected[i * N:(i + 1) * N] = 2 * x[(i - 1) * N:i * N]
    np.testing.assert_allclose(z, expected)
    # a barrier before each branch's first access; V -> MTE3 in the odd
    # branch; MTE3 -> V into the next odd iteration, primed and drained
    assert flags(k.compile(x, z, 6).ir_text) == (3, 3, 2)


def data(n: int):
    rng = np.random.default_rng(7)
    return rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)


CASES = {
    "straight": (vadd_straight, N, 1, (), lambda x, y: x + y),
    "tiles": (vadd_tiles, 4 * N, 1, (4,), lambda x, y: (x + y) * 2),
    "double_buffered": (vadd_double_buffered, 6 * N, 1, (6,), lambda x, y: x + y),
    "auto": (vadd_auto, 8 * 1024, 4, (2048, 256, 8), lambda x, y: x + y),
    "auto_scalar": (vadd_auto_scalar, 4 * N, 1, (N, 4), lambda x, y: x + y[0]),
}


def flags(ir_text: str) -> tuple[int, int, int]:
    return (ir_text.count("set_flag("), ir_text.count("wait_flag("),
            ir_text.count("pipe_barrier("))


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("name", sorted(CASES))
def test_kernels_without_flags_run_synchronised(name, debug):
    kernel, n, blocks, extra, expected = CASES[name]
    x, y = data(n)
    z = np.zeros_like(x)
    options = {} if name.startswith("auto") else {"insert_sync": True}
    k = asc.jit(kernel.fn, debug=debug, verify_sync=True, **options)
    k[blocks](x, y, z, *extra)
    asc.synchronize()
    np.testing.assert_allclose(z, expected(x, y), rtol=1e-6)
    ir_text = k.compile(x, y, z, *extra).ir_text
    sets, waits, _ = flags(ir_text)
    assert sets == waits and sets > 0
    source = k.ascendc(x, y, z, *extra)
    assert source.count("AscendC::SetFlag<") == sets
    assert source.count("AscendC::WaitFlag<") == waits
    assert_valid_cpp(source)


def test_without_the_pass_checked_mode_and_verify_sync_find_the_hazards():
    """The kernels above do need the flags: without them both checks fail."""
    x, y = data(N)
    z = np.zeros_like(x)
    with pytest.raises(asc.CompileError, match="missing synchronisation"):
        asc.jit(vadd_straight.fn, verify_sync=True).compile(x, y, z)
    with pytest.raises(asc.Error, match="synchron"):
        asc.jit(vadd_straight.fn, debug=True)[1](x, y, z)
        asc.synchronize()


def test_flag_counts_straight_line():
    """MTE2 -> V (one pair after the second load covers both) and V -> MTE3."""
    x, y = data(N)
    ir_text = asc.jit(vadd_straight.fn, insert_sync=True).compile(x, y, np.zeros_like(x)).ir_text
    assert flags(ir_text) == (2, 2, 0)
    assert "set_flag(%" in ir_text and "{4}" in ir_text and "{7}" in ir_text  # MTE2_V, V_MTE3


def test_flag_counts_loop():
    """MTE2 -> V and V -> MTE3 in the body; the next iteration's loads after
    this one's add (V -> MTE2) and its add after this one's store
    (MTE3 -> V), each primed before the loop and drained after it."""
    x, y = data(4 * N)
    k = asc.jit(vadd_tiles.fn, insert_sync=True)
    ir_text = k.compile(x, y, np.zeros_like(x), 4).ir_text
    assert flags(ir_text) == (6, 6, 0)
    body = ir_text[ir_text.index("for "):]
    assert body.index("wait_flag") < body.index("data_copy")  # the first load waits
    after = ir_text[ir_text.index("\n  }"):]  # after the loop's closing brace
    assert after.count("wait_flag") == 2  # drained after the loop


def test_upstream_vadd_needs_no_option_and_no_barrier():
    """As in PyAsc, LocalTensorAuto turns insert_sync on; the pass replaces
    the front end's full barriers by flags."""
    x, y = data(8 * 1024)
    ir_text = vadd_auto.compile(x, y, np.zeros_like(x), 2048, 256, 8).ir_text
    assert flags(ir_text) == (6, 6, 0)


def test_insert_sync_false_leaves_auto_kernels_alone():
    x, y = data(8 * 1024)
    k = asc.jit(vadd_auto.fn, insert_sync=False)
    assert flags(k.compile(x, y, np.zeros_like(x), 2048, 256, 8).ir_text) == (0, 0, 0)


# --- correctly synchronised kernels are unchanged --------------------------------------------

F32 = np.zeros(8 * 2048, np.float32)
F16 = np.zeros(8 * 4096, np.float16)
SYNCED = {
    "vadd": ("vadd_kernel", (F32, F32, F32, 2048)),
    "vadd_framework": ("vadd_kernel", (F32, F32, F32, 4 * 2048, 2048)),
    "scale_relu": ("scale_relu_kernel", (F16, F16, 4096, 1.5, 0.25, 1024)),
    "softmax": ("softmax_kernel", (np.zeros((64, 1000), np.float32),) * 2 + (64, 8, 1000)),
    "leaky_relu_fp16": ("leaky_relu_kernel", (F16, F16, 4096, 0.1, 1024, 1)),
}


@pytest.mark.parametrize("name", sorted(SYNCED))
def test_synchronised_examples_are_unchanged(name):
    attr, args = SYNCED[name]
    kernel = asc.jit(getattr(example(name), attr).fn, insert_sync=True)
    assert kernel.ascendc(*args) == (GOLDEN / f"{name}.ascendc.cpp").read_text(encoding="utf-8")
    ir_golden = GOLDEN / f"{name}.ir"
    if ir_golden.exists():
        assert kernel.compile(*args).ir_text == ir_golden.read_text()


def test_broken_example_is_repaired():
    """examples/broken_sync.py forgets a flag: the pass adds what is missing."""
    kernel = asc.jit(example("broken_sync").vadd_kernel.fn, insert_sync=True, verify_sync=True,
                     debug=True)
    x, y = data(8 * 2048)
    z = np.zeros_like(x)
    kernel[8](x, y, z, 2048)
    asc.synchronize()
    np.testing.assert_allclose(z, x + y, rtol=1e-6)


# --- the checked-mode suite's kernels with a flag pair left out ------------------------------


#: Pairs the kernels place right after the producer (set_flag then wait_flag)
#: whose hazard reaches the next iteration: the pass waits before the next
#: iteration's consumer instead, priming the flag before the loop and
#: draining it after (one set_flag and one wait_flag more).
LOOP_CARRIED = {"mte3_mte2", "v_mte2"}


@pytest.mark.parametrize("bug", checked.STATIC)
def test_a_missing_pair_is_put_back(bug):
    """Each kernel of test_checked_mode that lacks one flag pair runs
    correctly in checked mode with the pass, which adds back just one pair;
    where the kernel's placement is the pass's, its Ascend C is the fixed
    kernel's byte for byte."""
    case = checked.CASES[bug]
    kernel, run = checked.FAMILIES[case.family]
    fixed = asc.jit(kernel.fn, insert_sync=True)
    repaired = asc.jit(kernel.fn, insert_sync=True, verify_sync=True, debug=True)
    z, expected = run(repaired, bug)
    np.testing.assert_allclose(z, expected, rtol=1e-6)
    args = checked.STATIC_ARGS[case.family]
    extra = 1 if bug in LOOP_CARRIED else 0
    sets, waits, barriers = flags(fixed.compile(*args(None)).ir_text)
    assert flags(repaired.compile(*args(bug)).ir_text) == (sets + extra, waits + extra, barriers)
    source = repaired.ascendc(*args(bug))
    if bug == "v_s":  # the kernel's own V_S pairs use id 0: the pass takes id 1
        assert "SetFlag<AscendC::HardEvent::V_S>(1)" in source
        source = source.replace("V_S>(1)", "V_S>(0)")
    if not extra:
        assert source == fixed.ascendc(*args(None))


@pytest.mark.parametrize("family", sorted(checked.FAMILIES))
def test_the_fixed_kernels_are_unchanged(family):
    args = checked.STATIC_ARGS[family](None)
    plain = asc.jit(checked.FAMILIES[family][0].fn, insert_sync=False)
    synced = asc.jit(checked.FAMILIES[family][0].fn, insert_sync=True)
    assert synced.compile(*args).ir_text == plain.compile(*args).ir_text
    assert synced.ascendc(*args) == plain.ascendc(*args)


# --- the pass on the IR builder: idempotence and errors ----------------------------------------


def ir_of(kernel, *args) -> _C.IRBuilder:
    """The verified, folded IR of kernel for args (what @jit builds), before
    any insert_sync."""
    specs, _ = asc.jit(kernel.fn)._specs(args)
    return CodeGenerator(kernel.fn, specs, asc.get_device_properties().ub_size).compile()


def test_the_pass_is_idempotent_and_counts_what_it_adds():
    x, y = data(4 * N)
    b = ir_of(vadd_tiles, x, y, np.zeros_like(x), 4)
    with pytest.raises(asc.CompileError, match="missing synchronisation"):
        b.check_sync()
    assert b.insert_sync() == 12
    text = b.text()
    b.check_sync()
    assert b.insert_sync() == 0
    assert b.text() == text


def test_the_pass_needs_a_finished_function():
    b = _C.IRBuilder("k", "k.py")
    b.const(1)
    with pytest.raises(asc.InternalError, match="insert_sync: the function is not finished"):
        b.insert_sync()
    with pytest.raises(asc.InternalError, match="not initialised"):
        _C.IRBuilder.__new__(_C.IRBuilder).insert_sync()


def test_the_pass_verifies_first():
    b = _C.IRBuilder("k", "k.py")
    b.set_loc(3, 1)
    zero, four, one = b.const(0), b.const(4), b.const(1)
    iv = b.for_begin(zero, four, one)
    b.for_end()
    b.op("arith.neg", [iv])
    b.finish()
    with pytest.raises(asc.CompileError, match="line 3: arith.neg uses"):
        b.insert_sync()
