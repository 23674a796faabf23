"""Front-end errors: every construct the kernel language does not support
raises pyasc.CompileError pointing at the offending file:line:column, with
the source line, a caret under the column, and a message saying what is not
supported and what to write instead.

Each kernel below marks its offending line with `# ERR`; the expected line
number comes from inspect, never from a hard-coded number.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import jit


X = np.zeros(256, np.float32)
MODULE_CONST = 4


def marked_line(fn, marker="# ERR") -> tuple[str, int, str]:
    """(file, line number, text) of the marked line in fn's source."""
    fn = getattr(fn, "fn", fn)
    lines, first = inspect.getsourcelines(fn)
    hits = [i for i, text in enumerate(lines) if marker in text]
    assert len(hits) == 1, f"{fn.__name__} must mark exactly one line with {marker}"
    return inspect.getsourcefile(fn), first + hits[0], lines[hits[0]].rstrip("\n")


def assert_located(message: str, fn, hint: str) -> None:
    """message names fn's marked line as file:line:col, shows the line with
    a caret under that column (on a non-blank character), and matches hint."""
    file, line, text = marked_line(fn)
    match = re.search(re.escape(f"{file}:{line}:") + r"(\d+): ", message)
    assert match, f"expected {file}:{line}: in\n{message}"
    col = int(match.group(1))
    shown = message.splitlines()
    assert any(s.strip() == text.strip() for s in shown), f"source line missing:\n{message}"
    carets = [s for s in shown if s.strip() == "^"]
    assert len(carets) == 1, message
    # The caret sits under column col of the shown line (both indented alike).
    source_row = next(s for s in shown if s.strip() == text.strip())
    pad = len(source_row) - len(text)
    assert carets[0].index("^") - pad == col - 1, message
    assert not text[col - 1].isspace(), message
    assert re.search(hint, message, re.S), f"hint {hint!r} missing in\n{message}"


def compile_error(kernel, *args) -> str:
    with pytest.raises(asc.CompileError) as info:
        kernel.compile(*args)
    return str(info.value)


def check(kernel, hint, *args, where=None):
    assert_located(compile_error(kernel, *(args or (X,))), where or kernel, hint)


# --- statements -------------------------------------------------------------------------------


@jit
def k_break(x: asc.GlobalAddress):
    for i in range(4):
        break  # ERR


@jit
def k_continue(x: asc.GlobalAddress):
    for i in range(4):
        continue  # ERR


@jit
def k_while_true(x: asc.GlobalAddress):
    while True:  # ERR
        pass


@jit
def k_try(x: asc.GlobalAddress):
    try:  # ERR
        pass
    except ValueError:
        pass


@jit
def k_with(x: asc.GlobalAddress):
    with open("f"):  # ERR
        pass


@jit
def k_nested_def(x: asc.GlobalAddress):
    def helper():  # ERR
        pass


@jit
def k_import(x: asc.GlobalAddress):
    import math  # ERR  # noqa: F401


@jit
def k_global(x: asc.GlobalAddress):
    global MODULE_CONST  # ERR


def make_nonlocal_kernel():
    count = 0

    @jit
    def k_nonlocal(x: asc.GlobalAddress):
        nonlocal count  # ERR
        count = 1

    return k_nonlocal


k_nonlocal = make_nonlocal_kernel()


@jit
def k_del(x: asc.GlobalAddress):
    n = 1
    del n  # ERR


@jit
def k_return_not_last(x: asc.GlobalAddress):
    return  # ERR
    asc.get_block_idx()


@jit
def k_return_value(x: asc.GlobalAddress):
    n = asc.get_block_idx()
    return n  # ERR


@jit
def helper_returning_in_branch(n: int):
    if n > 0:
        return n  # ERR
    return 0


@jit
def k_return_in_run_time_if(x: asc.GlobalAddress, n: int):
    helper_returning_in_branch(n)


@pytest.mark.parametrize("kernel,hint", [
    (k_break, r"break is not supported in kernels: .*condition"),
    (k_continue, r"continue is not supported in kernels: use an if"),
    (k_while_true, r"while condition must depend on run-time values.*for i in range"),
    (k_try, r"try/except is not supported in kernels: .*(check|test)"),
    (k_with, r"cannot call function .open. inside a kernel"),
    (k_nested_def, r"nested functions are not supported: .*@pyasc.jit"),
    (k_import, r"import is not supported in kernels: import at module level"),
    (k_global, r"global is not supported in kernels: .*"),
    (k_nonlocal, r"nonlocal is not supported in kernels: .*"),
    (k_del, r"del is not supported in kernels: .*"),
    (k_return_not_last, r"return is only supported as the last statement: use if/else"),
    (k_return_value, r"a kernel cannot return a value: write results to a GlobalTensor"),
], ids=lambda v: getattr(v, "__name__", None))
def test_unsupported_statements(kernel, hint):
    check(kernel, hint)


def test_return_inside_a_run_time_if_of_a_device_function():
    message = compile_error(k_return_in_run_time_if, X, 3)
    assert_located(message, helper_returning_in_branch,
                   r"return inside a run-time if or loop is not supported: assign")


# --- expressions ------------------------------------------------------------------------------


@jit
def k_list_comp(x: asc.GlobalAddress):
    v = [i for i in range(4)]  # ERR


@jit
def k_dict_comp(x: asc.GlobalAddress):
    v = {i: i for i in range(4)}  # ERR


@jit
def k_set_comp(x: asc.GlobalAddress):
    v = {i for i in range(4)}  # ERR


@jit
def k_lambda(x: asc.GlobalAddress):
    f = lambda v: v  # ERR  # noqa: E731


@jit
def k_fstring(x: asc.GlobalAddress):
    asc.printf(f"{asc.get_block_idx()}")  # ERR


def plain_python(v):
    return v


@jit
def k_call_python(x: asc.GlobalAddress):
    plain_python(1)  # ERR


@jit
def k_star_args(x: asc.GlobalAddress):
    args = (1, 2)
    asc.printf("%d %d\n", *args)  # ERR


@jit
def k_undefined(x: asc.GlobalAddress):
    n = undefined_name + 1  # ERR  # noqa: F821


@jit
def k_tensor_arith(x: asc.GlobalAddress):
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    u = t + 1  # ERR


@jit
def k_range_float(x: asc.GlobalAddress):
    for i in range(2.5):  # ERR
        pass


@jit
def k_assert_run_time(x: asc.GlobalAddress):
    assert asc.get_block_idx() == 0  # ERR


@jit
def k_assert_constexpr(x: asc.GlobalAddress, tile: asc.ConstExpr[int]):
    assert tile % 32 == 0, "tile must be a multiple of 32"  # ERR


@pytest.mark.parametrize("kernel,hint", [
    (k_list_comp, r"list comprehensions are not supported in kernels: use a for loop"),
    (k_dict_comp, r"dict comprehensions are not supported in kernels: use a for loop"),
    (k_set_comp, r"set comprehensions are not supported in kernels: use a for loop"),
    (k_lambda, r"lambda is not supported in kernels: use a @pyasc.jit function"),
    (k_fstring, r"f-strings are not supported in kernels: use printf\(format, \.\.\.\)"),
    (k_call_python, r"cannot call function 'plain_python' inside a kernel: .*@pyasc.jit"),
    (k_star_args, r"\*args and \*\*kwargs are not supported in kernel calls: .*one by one"),
    (k_undefined, r"name 'undefined_name' is not defined: .*"),
    (k_tensor_arith, r"cannot apply '\+' to a LocalTensor: .*pyasc.adds\(dst, src, scalar"),
    (k_range_float, r"range\(\) arguments must be integers: .*int\("),
    (k_assert_run_time, r"assert needs a compile-time condition.*use an if"),
], ids=lambda v: getattr(v, "__name__", None))
def test_unsupported_expressions(kernel, hint):
    check(kernel, hint)


def test_failing_assert_on_a_constexpr():
    check(k_assert_constexpr, r"AssertionError: tile must be a multiple of 32", X, 48)
    k_assert_constexpr.compile(X, 64)  # passes for a good value


# --- API misuse -------------------------------------------------------------------------------


@jit
def k_wrong_dtype(x: asc.GlobalAddress):
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    asc.exp(t, t, 64)  # ERR


@jit
def k_wrong_position(x: asc.GlobalAddress):
    a = asc.LocalTensor(x.dtype, asc.TPosition.A1, 0, 64)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 256, 64)
    asc.add(b, a, b, 64)  # ERR


@jit
def k_mixed_dtypes(x: asc.GlobalAddress):
    a = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 64)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 256, 64)
    asc.add(b, a, b, 64)  # ERR


@jit
def k_second_pipe(x: asc.GlobalAddress):
    pipe = asc.TPipe()
    other = asc.TPipe()  # ERR


@jit
def k_global_before_buffer(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    v = g.get_value(0)  # ERR


@jit
def k_global_copy_before_buffer(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    asc.data_copy(t, g, 64)  # ERR


@jit
def k_too_many_args(x: asc.GlobalAddress):
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    asc.add(t, t, t, 64, 1, 2, True, 0)  # ERR


@jit
def k_missing_arg(x: asc.GlobalAddress):
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    asc.data_copy(t, t)  # ERR


@jit
def k_bad_keyword(x: asc.GlobalAddress):
    asc.set_flag(asc.HardEvent.MTE2_V, ident=0)  # ERR


@jit
def k_flag_not_event(x: asc.GlobalAddress):
    asc.set_flag(3, 0)  # ERR


@jit
def k_que_depth_run_time(x: asc.GlobalAddress, depth: int):
    q = asc.TQue(asc.TPosition.VECIN, depth)  # ERR


@jit
def k_printf_count(x: asc.GlobalAddress):
    asc.printf("%d %d\n", asc.get_block_idx())  # ERR


@jit
def k_printf_str_conv(x: asc.GlobalAddress):
    asc.printf("%d\n", "text")  # ERR


@jit
def k_global_sub_addr(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x - 1)  # ERR


@jit
def k_slice_with_stop(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    h = g[0:4]  # ERR


@jit
def k_vector_on_global(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    asc.add(g, g, g, 64)  # ERR


@jit
def k_reassign_kind(x: asc.GlobalAddress, n: int):
    v = 1
    if n > 0:
        v = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)  # ERR


@pytest.mark.parametrize("kernel,hint,args", [
    (k_wrong_dtype, r"exp does not support int32 tensors.*float16, float32",
     (np.zeros(64, np.int32),)),
    (k_wrong_position, r"add: operand 2 is a LocalTensor at TPosition.A1; vector instructions "
                       r"need VECIN, VECOUT or VECCALC", ()),
    (k_mixed_dtypes, r"add: operand 2 is float16 but the destination is float32", ()),
    (k_second_pipe, r"a kernel has exactly one TPipe; pass it to device functions", ()),
    (k_global_before_buffer, r"GlobalTensor.get_value: call set_global_buffer first", ()),
    (k_global_copy_before_buffer, r"data_copy src must be a GlobalTensor or a LocalTensor, not a "
                                  r"GlobalTensor without memory \(call set_global_buffer first\)",
     ()),
    (k_too_many_args, r"add\(\) takes at most 7 arguments \(8 given\)", ()),
    (k_missing_arg, r"data_copy\(\) missing required argument 'count' \(signature: "
                    r"data_copy\(dst, src, count\)\)", ()),
    (k_bad_keyword, r"set_flag\(\) got an unexpected keyword argument 'ident'", ()),
    (k_flag_not_event, r"set_flag: event must be a pyasc.HardEvent member", ()),
    (k_que_depth_run_time, r"TQue depth must be a compile-time constant", (X, 2)),
    (k_printf_count, r"printf: the format has more conversions than the 1 arguments", ()),
    (k_printf_str_conv, r"printf: the str argument 'text' needs a %s conversion", ()),
    (k_global_sub_addr, r"a GlobalAddress only supports \+ offset", ()),
    (k_slice_with_stop, r"tensor slices take an offset only: write t\[offset:\]", ()),
    (k_vector_on_global, r"add dst must be a LocalTensor, not a GlobalTensor", ()),
    (k_reassign_kind, r"'v' holds a int and cannot be assigned a LocalTensor", (X, 1)),
], ids=lambda v: getattr(v, "__name__", None))
def test_api_misuse(kernel, hint, args):
    check(kernel, hint, *args)


# --- errors inside device functions point into the device function ----------------------------


@jit
def device_with_error(t: asc.LocalTensor):
    asc.relu(t, t, 2.5)  # ERR


@jit
def k_calls_bad_device(x: asc.GlobalAddress):
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    device_with_error(t)


@jit
def device_constexpr(n: asc.ConstExpr[int]):
    asc.printf("%d\n", n)


@jit
def k_constexpr_from_run_time(x: asc.GlobalAddress, n: int):
    device_constexpr(n)  # ERR


def test_error_in_device_function_points_into_it():
    check(k_calls_bad_device, r"relu: argument 3 must be an int, not float",
          where=device_with_error)


def test_run_time_value_for_a_constexpr_parameter():
    check(k_constexpr_from_run_time, r"device_constexpr\(\): parameter 'n' is a ConstExpr but got "
                                     r"a run-time value", X, 5)


def test_kernel_builtins_outside_kernels():
    with pytest.raises(TypeError, match="only be called inside a @pyasc.jit kernel"):
        asc.data_copy(1, 2, 3)
    with pytest.raises(TypeError, match="only be created inside a @pyasc.jit kernel"):
        asc.TPipe()


# --- device functions from another module -----------------------------------------------------

HELPER_MODULE = '''
import pyasc as asc


@asc.jit
def wrong_dtype(t: asc.LocalTensor):
    asc.exp(t, t, 8)  # ERR


@asc.jit
def deque_empty(q: asc.TQue, dtype: asc.ConstExpr):
    t = q.deque(dtype)  # ERR
    q.free_tensor(t)


@asc.jit
def big_buffer(pipe: asc.TPipe, buf: asc.TBuf):
    pipe.init_buffer(buf, 300 * 1024)  # ERR
'''


@pytest.fixture(scope="module")
def helper_module(tmp_path_factory):
    import importlib.util

    path = tmp_path_factory.mktemp("helpers") / "kernel_helpers.py"
    path.write_text(HELPER_MODULE)
    spec = importlib.util.spec_from_file_location("kernel_helpers", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_op_error_in_a_device_function_from_another_module(helper_module):
    @jit
    def k_cross_dtype(x: asc.GlobalAddress):
        t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 8)
        helper_module.wrong_dtype(t)

    check(k_cross_dtype, r"exp does not support int32 tensors", np.zeros(8, np.int32),
          where=helper_module.wrong_dtype)


def test_pass_error_in_a_device_function_from_another_module(helper_module):
    @jit
    def k_cross_ub(x: asc.GlobalAddress):
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        helper_module.big_buffer(pipe, buf)

    check(k_cross_ub, r"Unified Buffer budget exceeded", where=helper_module.big_buffer)


def test_kernel_error_in_a_device_function_from_another_module(helper_module):
    @jit
    def k_cross_deque(x: asc.GlobalAddress):
        pipe = asc.TPipe()
        q = asc.TQue(asc.TPosition.VECIN, 1)
        pipe.init_buffer(q, 1, 256)
        helper_module.deque_empty(q, x.dtype)

    file, line, _ = marked_line(helper_module.deque_empty)
    with pytest.raises(asc.KernelError) as info:
        k_cross_deque[2](X)
        asc.synchronize()
    assert f"{file}:{line}: deque on an empty queue" in str(info.value)
