"""PyAsc's launch semantics: keyword arguments, launches on memory pyasc does
not own that are complete at return, @jit options, DRY_RUN, and exits with
work still queued."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pyasc as asc
from pyasc.language.options import CodegenOptions, CompileOptions, KernelType, LaunchOptions

torch = pytest.importorskip("torch")

BLOCKS = 8
N = 64  # elements per block


@asc.jit
def scaled_add(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
               scale: float = 1.0):
    off = asc.get_block_idx() * n
    xg, yg, zg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x + off, n)
    yg.set_global_buffer(y + off, n)
    zg.set_global_buffer(z + off, n)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    yl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, n * 4, n)
    asc.data_copy(xl, xg, n)
    asc.data_copy(yl, yg, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(xl, xl, scale, n)
    asc.add(xl, xl, yl, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, xl, n)


@asc.jit
def trap_in_block(x: asc.GlobalAddress, bad_block: int):
    if asc.get_block_idx() == bad_block:
        asc.trap()


def _operands(i: int):
    x = np.full(BLOCKS * N, float(i), np.float32)
    y = np.arange(BLOCKS * N, dtype=np.float32)
    return x, y, np.zeros_like(x)


def test_result_is_ready_at_return_on_numpy_arrays_1000_times():
    wrong = 0
    for i in range(1000):
        x, y, z = _operands(i)
        scaled_add[BLOCKS, asc.current_stream()](x, y, z, N)
        wrong += not np.array_equal(z, x + y)
    assert wrong == 0


def test_result_is_ready_at_return_on_torch_tensors_1000_times():
    wrong = 0
    for i in range(1000):
        x, y, z = (torch.from_numpy(a) for a in _operands(i))
        scaled_add[BLOCKS, asc.current_stream()](x, y, z, N, 2.0)
        wrong += not torch.equal(z, 2 * x + y)
    assert wrong == 0


def test_numpy_launch_waits_for_earlier_work_on_its_stream():
    x, y, z = _operands(3)
    scaled_add.compile(x, y, z, N)
    s = asc.Stream()
    try:
        asc.testing.spin(100, stream=s)
        scaled_add[BLOCKS, s](x, y, z, N)
        assert np.array_equal(z, x + y)
    finally:
        s.destroy()


def test_kernel_error_on_numpy_arguments_raises_at_the_call():
    x = np.zeros(8, np.float32)
    with pytest.raises(asc.KernelError, match="trap"):
        trap_in_block[BLOCKS](x, 5)
    asc.current_stream().synchronize()  # reported once, at the call: nothing left
    trap_in_block[BLOCKS](x, BLOCKS)  # no block traps: the stream is usable


def test_kernel_error_on_tensors_stays_asynchronous():
    t = asc.zeros(8, asc.float32)
    s = asc.Stream()
    try:
        trap_in_block[BLOCKS, s](t, 2)  # returns before the error is known
        with pytest.raises(asc.KernelError, match="trap"):
            s.synchronize()
    finally:
        s.destroy()


def test_keyword_arguments_bind_by_parameter_name():
    x, y, z = _operands(1)
    scaled_add[BLOCKS](z=z, y=y, x=x, n=N, scale=3.0)
    assert np.array_equal(z, 3 * x + y)
    z[:] = 0
    scaled_add[BLOCKS](x, y, z, n=N)  # scale: its default
    assert np.array_equal(z, x + y)


@pytest.mark.parametrize("args, kwargs, message", [
    ((), {"y": 0, "z": 0, "n": N}, "missing a required argument: 'x'"),
    ((None, None, None), {"n": N, "bogus": 1}, "unexpected keyword argument 'bogus'"),
    ((None, None, None, N), {"n": N}, "multiple values for argument 'n'"),
    ((None,) * 6, {}, "too many positional arguments"),
    ((None, None, None, N), {"core_num": 2}, "'core_num': launch options go in kernel"),
    ((None, None, None, N), {"stream": None}, "'stream': launch options go in kernel"),
    ((None, None, None, N), {"opt_level": 9}, "opt_level must be 0, 1, 2, 3 or None"),
    ((None, None, None, N), {"kernel_type": 1}, "kernel_type must be a KernelType"),
])
def test_bad_launch_arguments_are_type_errors(args, kwargs, message):
    x, y, z = _operands(0)
    args = tuple(a if a is not None else arr for a, arr in zip(args, (x, y, z, N, 1.0, 1.0)))
    with pytest.raises(TypeError, match=message):
        scaled_add[BLOCKS](*args, **kwargs)
    assert not z.any()


@asc.jit
def past_the_end(x: asc.GlobalAddress, n: int):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    asc.data_copy(xl, xg, n)  # n elements of a shorter argument


def test_compile_options_at_the_launch_apply_to_that_launch(capfd):
    """PyAsc's launcher takes CodegenOptions/CompileOptions fields as call
    keywords, over the @jit ones: debug=True checks this launch only."""
    x = np.zeros(8, np.float32)
    past_the_end[1](x, 64)  # tolerant by default: reads past the end are unspecified
    with pytest.raises(asc.KernelError, match="64 elements exceed the 32 bytes left"):
        past_the_end[1](x, 64, debug=True)
    past_the_end[1](x, 64)  # the kernel's own options are unchanged
    assert past_the_end.with_options(debug=True) is past_the_end.with_options(debug=True)
    capfd.readouterr()
    xs, ys, zs = _operands(3)
    scaled_add[BLOCKS](xs, ys, zs, N, 2.0, print_ir_before_all=True, always_compile=True,
                       opt_level=1, kernel_type=KernelType.AIV_ONLY)
    assert "scaled_add" in capfd.readouterr().err
    assert np.array_equal(zs, 2 * xs + ys)


def test_launch_grid_is_launch_options():
    """kernel[n], kernel[(n,)] and kernel[n, stream] as LaunchOptions(*grid)."""
    for grid in (BLOCKS, (BLOCKS,), (BLOCKS, None)):
        x, y, z = _operands(4)
        scaled_add[grid](x, y, z, N)
        assert np.array_equal(z, x + y)
    with pytest.raises(TypeError, match=r"kernel\[core_num\]"):
        scaled_add[BLOCKS, None, 3]


def test_upstream_options_are_accepted():
    options = dict(capture_exceptions=False, ir_multithreading=False, debug=False,
                   strip_loc=True, verify_sync=False, print_ir_before_all=False, run_passes=True,
                   kernel_type=KernelType.AIV_ONLY, opt_level=2, auto_sync=True,
                   auto_sync_log="", bisheng_options=("-O2",), always_compile=False,
                   matmul_cube_only=False, insert_sync=None)
    kernel = asc.jit(**options)(scaled_add.fn)
    assert kernel.compile_options.kernel_type is KernelType.AIV_ONLY
    assert kernel.codegen_options == CodegenOptions(capture_exceptions=False,
                                                    ir_multithreading=False)
    x, y, z = _operands(2)
    kernel[BLOCKS](x, y, z, N)
    assert np.array_equal(z, x + y)


def test_option_classes_have_upstreams_fields():
    assert [f for f in CodegenOptions.__dataclass_fields__] == ["capture_exceptions",
                                                                 "ir_multithreading"]
    assert set(CompileOptions.__dataclass_fields__) >= {
        "debug", "strip_loc", "verify_sync", "print_ir_before_all", "run_passes", "kernel_type",
        "opt_level", "auto_sync", "auto_sync_log", "bisheng_options", "always_compile",
        "matmul_cube_only", "insert_sync"}
    assert LaunchOptions(8, None).core_num == 8


@pytest.mark.parametrize("options, message", [
    ({"optlevel": 3}, "unknown option 'optlevel'"),
    ({"foo": 1, "bar": 2}, "unknown options 'bar', 'foo'"),
    ({"opt_level": 7}, "opt_level must be"),
    ({"kernel_type": 1}, "kernel_type must be a KernelType"),
    ({"bisheng_options": "-O2"}, "bisheng_options must be a sequence of str"),
])
def test_bad_options_are_type_errors(options, message):
    with pytest.raises(TypeError, match=message):
        asc.jit(**options)(scaled_add.fn)


def test_a_parameter_may_share_an_option_name():
    """Options are given to @jit only, so a launch keyword always names a
    parameter (PyAsc, which also takes options at launch, refuses these)."""
    def k(x: asc.GlobalAddress, debug: int):
        if debug == 1:
            asc.trap()

    kernel = asc.jit(k)
    kernel[1](np.zeros(8, np.float32), debug=0)
    with pytest.raises(asc.KernelError, match="trap"):
        kernel[1](np.zeros(8, np.float32), debug=1)


def test_print_ir_before_all_prints_the_ir(capfd):
    kernel = asc.jit(print_ir_before_all=True, always_compile=True)(trap_in_block.fn)
    kernel[1](np.zeros(8, np.float32), 1)
    assert "trap" in capfd.readouterr().err


def test_dry_run_builds_but_does_not_launch(monkeypatch):
    x, y, z = _operands(5)
    kernel = asc.jit(scaled_add.fn)
    monkeypatch.setenv("DRY_RUN", "1")
    kernel[BLOCKS](x, y, z, N)
    assert not z.any() and kernel._cache  # built, not run
    kernel[BLOCKS](x, y, z, N)  # the fast path honours it too
    assert not z.any()
    monkeypatch.delenv("DRY_RUN")
    kernel[BLOCKS](x, y, z, N)
    assert np.array_equal(z, x + y)


# A program that ends right after launching: on torch tensors (the last
# launches), and on pyasc Tensors sharing torch's memory on a busy stream,
# where the queued launches hold the last references to that memory.
_EXIT_CHILD = """\
import gc
import torch
gc.freeze()  # the exit under test is pyasc's: spare the collector torch's modules
import pyasc as asc

@asc.jit
def copy(x: asc.GlobalAddress, y: asc.GlobalAddress, n: int):
    xg, yg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x + asc.get_block_idx() * n, n)
    yg.set_global_buffer(y + asc.get_block_idx() * n, n)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    asc.data_copy(xl, xg, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(yg, xl, n)

side = asc.Stream()
xt, yt = asc.from_dlpack(torch.ones(8 * 64)), asc.from_dlpack(torch.zeros(8 * 64))
asc.testing.spin(10, stream=side)
for _ in range(4):
    copy[8, side](xt, yt, 64)  # Tensors: asynchronous, behind the spin
del xt, yt  # the queued launches hold the last references to torch's memory
x, y = torch.ones(8 * 64), torch.zeros(8 * 64)
for _ in range(4):
    copy[8, asc.current_stream()](x, y, 64)  # torch tensors
# the program ends at once
"""


def _exit_children(tmp_path, runs: int) -> None:
    """runs fresh interpreters that exit right after launching, four at a
    time; each costs about 1 s of CPU, mostly importing torch."""
    child = tmp_path / "exit_child.py"
    child.write_text(_EXIT_CHILD)
    env = dict(os.environ)
    pending = [[sys.executable, str(child)] for _ in range(runs)]
    running: list[subprocess.Popen] = []
    results: list[tuple[int, str]] = []
    while pending or running:
        while pending and len(running) < 4:
            running.append(subprocess.Popen(pending.pop(), stdout=subprocess.DEVNULL,
                                            stderr=subprocess.PIPE, text=True, env=env))
        done = running.pop(0)
        _, err = done.communicate(timeout=120)
        results.append((done.returncode, err))
    failures = [(rc, err[-300:]) for rc, err in results if rc != 0 or err]
    assert failures == [], f"{len(failures)} of {runs} runs failed; first: {failures[:1]}"


def test_exit_with_launches_on_torch_tensors_pending(tmp_path):
    """Fresh processes exit right after launching; before the fix every one
    of them aborted with "terminate called without an active exception"
    (a stream thread ran torch's deleter while the interpreter finalised).
    Children forked from one interpreter do not reproduce it, so these are
    separate interpreters."""
    _exit_children(tmp_path, 4)


@pytest.mark.slow
@pytest.mark.long
def test_exit_with_launches_on_torch_tensors_pending_100_runs(tmp_path):
    """The same, 100 times (about 170 s on two cores): the long tier's."""
    _exit_children(tmp_path, 100)


def test_uncollected_error_is_printed_at_exit(run_python):
    here = os.path.dirname(os.path.abspath(__file__))
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {here!r})
        import pyasc as asc
        from test_asc_launch import trap_in_block
        t = asc.zeros(8, asc.float32)
        trap_in_block[8](t, 3)  # asynchronous: nobody synchronises
    """)
    result = run_python("-c", code)
    assert "never collected before exit" in result.stderr
    assert "trap" in result.stderr
    assert result.returncode == 0  # the exit status stays the program's (see pyasc._exit)
