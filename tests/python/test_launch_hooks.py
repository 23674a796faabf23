"""PyAsc's test hooks: ``asc.runtime.launcher.Launcher.run``, which every
launch passes through while it is replaced (PyAsc's tests patch it to
compile without launching), and the ``MockTensor``/``MockValue``
placeholders of ``asc.runtime.jit`` that a kernel compiles for."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
import pytest

import asc
import pyasc
from asc.runtime import launcher
from asc.runtime.jit import MockTensor, MockValue

N = 64


@pyasc.jit
def scale_kernel(x: pyasc.GlobalAddress, z: pyasc.GlobalAddress, scale: float):
    xg, zg = pyasc.GlobalTensor(), pyasc.GlobalTensor()
    xg.set_global_buffer(x, N)
    zg.set_global_buffer(z, N)
    xl = pyasc.LocalTensor(x.dtype, pyasc.TPosition.VECIN, 0, N)
    pyasc.data_copy(xl, xg, N)
    pyasc.set_flag(pyasc.HardEvent.MTE2_V, 0)
    pyasc.wait_flag(pyasc.HardEvent.MTE2_V, 0)
    pyasc.muls(xl, xl, scale, N)
    pyasc.set_flag(pyasc.HardEvent.V_MTE3, 0)
    pyasc.wait_flag(pyasc.HardEvent.V_MTE3, 0)
    pyasc.data_copy(zg, xl, N)


def _operands():
    return np.arange(N, dtype=np.float32), np.zeros(N, np.float32)


def test_a_patched_run_sees_every_launch_and_nothing_runs():
    x, z = _operands()
    scale_kernel[1](x, z, 2.0)  # built and in the C fast path's table
    np.testing.assert_array_equal(z, x * 2)
    z[:] = 0
    with patch("asc.runtime.launcher.Launcher.run", return_value=None) as run:
        scale_kernel[1](x, z, 3.0)
        scale_kernel[4](x, z, 3.0)
        assert run.call_count == 2
        kernel, name, args = run.call_args.args
        assert name == "scale_kernel"
        assert kernel.signature == "aaf" and kernel.native is not None
        assert args[0] is x and args[1] is z and args[2] == 3.0
    np.testing.assert_array_equal(z, 0)  # nothing ran


def test_launches_run_again_once_the_patch_is_undone():
    x, z = _operands()
    with patch("asc.runtime.launcher.Launcher.run", return_value=None):
        scale_kernel[1](x, z, 5.0)
    assert launcher.Launcher.__dict__["run"] is launcher._OWN_RUN
    scale_kernel[1](x, z, 5.0)
    np.testing.assert_array_equal(z, x * 5)


def test_the_own_run_launches_with_its_options():
    x, z = _operands()
    with patch.object(launcher.Launcher, "run", autospec=True,
                      side_effect=launcher._OWN_RUN) as run:
        scale_kernel[1](x, z, 4.0)
        assert run.call_count == 1
        assert run.call_args.args[0].options == launcher.LaunchOptions(1, None)
    pyasc.synchronize()
    np.testing.assert_array_equal(z, x * 4)


def test_a_patched_launch_still_raises_compile_errors():
    @pyasc.jit
    def broken(x: pyasc.GlobalAddress):
        pyasc.no_such_api(x)

    with patch("asc.runtime.launcher.Launcher.run", return_value=None) as run:
        with pytest.raises(pyasc.CompileError, match="no_such_api"):
            broken[1](MockTensor(asc.float32))
        assert run.call_count == 0


def test_a_kernel_compiles_for_mock_tensors_and_values():
    @asc.jit
    def typed(x: asc.GlobalAddress, n: int, s: float):
        xg = asc.GlobalTensor()
        xg.set_global_buffer(x, n)
        xl = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 128)
        asc.data_copy(xl, xg, 128)
        asc.adds(xl, xl, s, 128)

    with patch("asc.runtime.launcher.Launcher.run", return_value=None) as run:
        typed[1](MockTensor(asc.float16), MockValue(asc.int32), MockValue(asc.float32))
        kernel = run.call_args.args[0]
        assert kernel.signature == "aif"
        assert "half" in kernel.ascendc_source


def test_a_mock_tensor_cannot_really_run():
    @asc.jit
    def touch(x: asc.GlobalAddress):
        xg = asc.GlobalTensor()
        xg.set_global_buffer(x, 8)

    with pytest.raises((TypeError, pyasc.Error)):
        touch[1](MockTensor(asc.float32))


def test_a_hook_left_behind_heals_at_the_next_launch():
    # The hook routed to while Launcher.run is the class's own (however it
    # came to be set) gives the launch back: it runs, and the C fast path
    # learns the kernel again.
    x, z = _operands()
    pyasc.language.jit.set_launch_hook(launcher._hooked_launch)
    scale_kernel[1](x, z, 6.0)
    np.testing.assert_array_equal(z, x * 6)
    assert pyasc.language.jit._launch_hook is None
    assert scale_kernel._dispatch.launch(1, None, x, z, 7.0) is True
    pyasc.synchronize()
    np.testing.assert_array_equal(z, x * 7)


def test_a_stale_fast_path_flag_heals_at_the_next_launch():
    x, z = _operands()
    scale_kernel[1](x, z, 2.0)
    pyasc._C.set_launch_hooked(True)  # no hook: only the C flag is stale
    scale_kernel[1](x, z, 8.0)
    np.testing.assert_array_equal(z, x * 8)
    assert scale_kernel._dispatch.launch(1, None, x, z, 9.0) is True
    pyasc.synchronize()
    np.testing.assert_array_equal(z, x * 9)
