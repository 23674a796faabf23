"""The IR passes driven directly through pyasc._C.IRBuilder: verification
of scopes, constant folding (arithmetic and variables stored once from a
constant), and the Unified Buffer budget (compile-time errors, run-time
check marks)."""

from __future__ import annotations

import re

import pytest

import pyasc as asc
from pyasc import _C


def builder(line=1):
    b = _C.IRBuilder("k", "/src/k.py")
    b.set_loc(line, 1)
    return b


def finished(b):
    b.finish()
    b.verify()
    return b


def const_lines(text: str) -> dict[int, str]:
    """Value number -> printed constant (e.g. '42 : int')."""
    return {int(m.group(1)): m.group(2) for m in re.finditer(r"%(\d+) = const (.*?)  @", text)}


# --- verify -----------------------------------------------------------------------------------


def test_verify_accepts_well_scoped_ir():
    b = builder()
    zero, four, one = b.const(0), b.const(4), b.const(1)
    iv = b.for_begin(zero, four, one)
    b.op("arith.add", [iv, one])
    b.for_end()
    b.op("arith.add", [zero, one])
    finished(b)
    assert "for %" in b.text()


def test_verify_rejects_a_loop_value_used_after_the_loop():
    b = builder()
    zero, four, one = b.const(0), b.const(4), b.const(1)
    iv = b.for_begin(zero, four, one)
    inner = b.op("arith.add", [iv, one])
    b.for_end()
    b.set_loc(7, 5)
    b.op("arith.mul", [inner, one])
    b.finish()
    with pytest.raises(asc.CompileError, match=rf"line 7: arith.mul uses %{inner} outside the "
                                               r"scope that defines it"):
        b.verify()


def test_verify_rejects_the_induction_variable_after_the_loop():
    b = builder()
    zero, four, one = b.const(0), b.const(4), b.const(1)
    iv = b.for_begin(zero, four, one)
    b.for_end()
    b.set_loc(9, 1)
    b.op("arith.neg", [iv])
    b.finish()
    with pytest.raises(asc.CompileError, match=rf"line 9: arith.neg uses %{iv} outside"):
        b.verify()


def test_verify_rejects_a_then_value_used_in_else():
    b = builder()
    cond = b.const(True)
    b.if_begin(cond)
    then_value = b.op("arith.neg", [b.const(3)])
    b.else_()
    b.set_loc(4, 2)
    b.op("arith.neg", [then_value])
    b.if_end()
    b.finish()
    with pytest.raises(asc.CompileError, match=rf"line 4: arith.neg uses %{then_value} outside"):
        b.verify()


def test_builder_checks_operand_types_and_structure():
    b = builder()
    x = b.param("x", ("addr", asc.float32))
    with pytest.raises(asc.CompileError, match="arith.add: argument 1 must be a number, not "
                                               "GlobalAddress"):
        b.op("arith.add", [x, b.const(1)])
    with pytest.raises(asc.CompileError, match="unknown operation 'no.such'"):
        b.op("no.such", [])
    with pytest.raises(asc.CompileError, match="add takes 4 arguments, got 1"):
        b.op("add", [b.const(1)])
    b.for_begin(b.const(0), b.const(2), b.const(1))
    with pytest.raises(asc.InternalError, match="unclosed control flow"):
        b.finish()


# --- fold -------------------------------------------------------------------------------------


def test_fold_constant_arithmetic():
    b = builder()
    n = b.param("n", ("int",))
    six, seven = b.const(6), b.const(7)
    product = b.op("arith.mul", [six, seven])  # 42
    plus = b.op("arith.add", [product, b.const(1)])  # 43
    floor = b.op("arith.floordiv", [b.const(-7), b.const(2)])  # PyAsc (C, truncating): -3
    mod = b.op("arith.mod", [b.const(-7), b.const(2)])  # PyAsc (C): -1
    half = b.op("arith.mul", [b.const(1.5), b.const(2)])  # 3.0
    less = b.op("arith.lt", [six, seven])  # true
    by_zero = b.op("arith.floordiv", [six, b.const(0)])  # left for run time
    dynamic = b.op("arith.add", [n, six])  # not constant
    finished(b)
    assert b.fold() == 6
    consts = const_lines(b.text())
    assert consts[product] == "42 : int" and consts[plus] == "43 : int"
    assert consts[floor] == "-3 : int" and consts[mod] == "-1 : int"
    assert consts[half] == "3 : float" and consts[less] == "true : bool"
    assert by_zero not in consts and dynamic not in consts
    assert b.fold() == 0  # nothing left


def test_fold_forwards_variables_stored_once_from_a_constant():
    b = builder()
    five = b.const(5)
    once = b.var("once", five)
    twice = b.var("twice", five)
    in_loop = b.var("in_loop", five)
    b.store(once, five)
    b.store(twice, five)
    b.store(twice, b.const(6))
    read_once = b.load(once)
    sum_once = b.op("arith.add", [read_once, b.const(1)])
    read_twice = b.load(twice)
    iv = b.for_begin(b.const(0), b.const(3), b.const(1))
    b.store(in_loop, iv)
    b.for_end()
    read_loop = b.load(in_loop)
    finished(b)
    assert b.fold() == 2  # the load of `once`, then the add that used it
    consts = const_lines(b.text())
    assert consts[read_once] == "5 : int" and consts[sum_once] == "6 : int"
    assert read_twice not in consts and read_loop not in consts


def test_fold_does_not_forward_a_store_after_a_load():
    b = builder()
    v = b.var("v", b.const(0))
    early = b.load(v)
    b.store(v, b.const(3))
    finished(b)
    assert b.fold() == 0
    assert early not in const_lines(b.text())


@asc.jit
def folded_kernel(x: asc.GlobalAddress, debug: asc.ConstExpr[bool]):
    n = 4
    if debug:  # decided at compile time: with debug False, n is stored once
        n = 8
    g = asc.GlobalTensor()
    g.set_global_buffer(x, n * 8)


def test_kernels_are_folded_by_the_front_end():
    from pyasc.language.codegen import CodeGenerator

    def ir(debug):
        specs = [("addr", asc.float32), ("const", debug)]
        return CodeGenerator(folded_kernel.fn, specs, 192 * 1024).compile().text()

    text = ir(False)
    assert 'var "n" : int' in text and "store(" in text
    assert "load(" not in text and "arith.mul" not in text
    assert re.search(r"%(\d+) = const 32 : int.*global.new\(%\d+, %\1\)", text, re.S)
    assert "arith.mul" in ir(True)  # stored twice: left to run time


# --- check_ub ---------------------------------------------------------------------------------


def ub_module(addr_const: bool, len_value: int = 16, *, loop_init: bool = False,
              pipe_bytes: int = 1024):
    b = builder()
    x = b.param("x", ("addr", asc.float32))
    n = b.param("n", ("int",))
    b.set_loc(3, 5)
    addr = b.const(0) if addr_const else n
    b.op("local.new", [addr, b.const(len_value)], (8, 9))  # float32 at VECIN
    pipe = b.op("pipe.new", [])
    que = b.op("que.new", [], (9, 2))
    b.set_loc(6, 5)
    if loop_init:
        b.for_begin(b.const(0), n, b.const(1))
        b.op("pipe.init_buffer", [pipe, que, b.const(2), b.const(pipe_bytes)])
        b.for_end()
    else:
        b.op("pipe.init_buffer", [pipe, que, b.const(2), b.const(pipe_bytes)])
    del x
    return finished(b)


def test_check_ub_marks_run_time_sizes():
    b = ub_module(addr_const=False)
    b.fold()
    b.check_ub(192 * 1024)
    text = b.text()
    assert re.search(r"local.new\(.*\) \{8, 9\} : LocalTensor<float32, VECIN> !ub_check", text)
    assert not re.search(r"pipe.init_buffer\(.*!ub_check", text)


def test_check_ub_leaves_known_sizes_unmarked():
    b = ub_module(addr_const=True)
    b.check_ub(192 * 1024)
    assert "!ub_check" not in b.text()


def test_check_ub_marks_buffers_initialised_in_loops():
    b = ub_module(addr_const=True, loop_init=True)
    b.check_ub(192 * 1024)
    assert re.search(r"pipe.init_buffer\(.*\) !ub_check", b.text())


def test_check_ub_rejects_known_sizes_over_the_budget():
    # past default mode's reach (the next power of two, 256 KiB): wrong in both modes
    b = ub_module(addr_const=True, pipe_bytes=140 * 1024)
    with pytest.raises(asc.CompileError, match=r"line 6: Unified Buffer budget exceeded: the "
                                               r"TPipe buffers need 286720 bytes so far but the "
                                               r"UB holds 196608 \(or the 262144 bytes default "
                                               r"mode lets a kernel reach\)"):
        b.check_ub(192 * 1024)
    b = ub_module(addr_const=True, len_value=1 << 20)
    with pytest.raises(asc.CompileError, match=r"line 3: LocalTensor bytes \[0, 4194304\) fall "
                                               r"outside the 196608-byte Unified Buffer"):
        b.check_ub(192 * 1024)
    # 32-byte rounding counts: 2 x 33 bytes take 128 bytes (a 64-byte UB reaches no further)
    b = ub_module(addr_const=True, pipe_bytes=33)
    with pytest.raises(asc.CompileError, match=r"need 128 bytes so far but the UB holds 64$"):
        b.check_ub(64)


def test_check_ub_leaves_sizes_within_the_reach_to_run_time():
    """Past the physical UB but within the reach: default mode runs them as
    the NPU does and checked mode reports them, both at run time."""
    b = ub_module(addr_const=True, pipe_bytes=100 * 1024)  # 204800 bytes
    b.check_ub(192 * 1024)
    assert re.search(r"pipe.init_buffer\(.*\) !ub_check", b.text())
    b = ub_module(addr_const=True, len_value=50000)  # 200000 bytes
    b.check_ub(192 * 1024)
    assert re.search(r"local.new\(.*!ub_check", b.text())
