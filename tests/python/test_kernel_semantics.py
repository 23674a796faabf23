"""Scalar semantics that PyAsc fixes and Python does not: `/` and `//` on
run-time integers truncate toward zero and `%` takes the dividend's sign (C
division, as PyAsc lowers them); compile-time values follow Python; kernels
need their source."""

import subprocess
import sys

import numpy as np

import pyasc as asc


@asc.jit
def divide(x: asc.GlobalAddress, n: int, d: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, n / d)      # int / int: integer division, as in PyAsc
    g.set_value(1, n / 4.0)    # a float operand keeps true division
    g.set_value(2, n // d)
    g.set_value(3, 7 / 2)      # compile-time constants follow Python


@asc.jit
def signed_division(x: asc.GlobalAddress, n: int, d: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, n / d)
    g.set_value(1, n // d)
    g.set_value(2, n % d)
    g.set_value(3, -7 // 2)    # constants: Python's floor division
    g.set_value(4, -7 % 2)


def test_run_time_integer_division_truncates_like_pyasc():
    x = np.zeros(5, np.int64)
    signed_division[1](x, -7, 2)
    asc.synchronize()
    assert x.tolist() == [-3, -3, -1, -4, 1]


def test_integer_true_division_is_integer_division():
    x = np.zeros(4, np.float32)
    divide[1](x, 10, 4)
    asc.synchronize()
    assert x.tolist() == [2.0, 2.5, 2.0, 3.5]


def test_kernel_without_source_is_a_compile_error():
    code = ("import numpy as np, pyasc as asc\n"
            "@asc.jit\n"
            "def k(x: asc.GlobalAddress):\n"
            "    pass\n"
            "try:\n"
            "    k[1](np.zeros(2))\n"
            "except asc.CompileError as e:\n"
            "    print('CompileError:', e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "CompileError: cannot read the source of 'k'" in out.stdout


@asc.jit
def big_local(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 32 * 1024)  # 128 KiB
    asc.duplicate(t, 1.0, 8)


def test_resizing_the_unified_buffer_rebuilds_kernels():
    x = np.zeros(8, np.float32)
    ub = asc.get_device_properties().ub_size
    big_local[1](x)  # fits 192 KiB
    asc.synchronize()
    asc.configure_device(ub_size=64 * 1024)
    try:
        try:
            big_local[1](x)  # the same argument types: a new build, checked against 64 KiB
            raise AssertionError("the kernel was not rebuilt for the smaller UB")
        except asc.CompileError as exc:
            assert "65536-byte Unified Buffer" in str(exc)
    finally:
        asc.configure_device(ub_size=ub)
    big_local[1](x)
    asc.synchronize()
