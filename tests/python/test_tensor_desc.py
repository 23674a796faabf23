"""TensorDesc / ListTensorDesc (rt/tensor_desc.h, lowering_desc.py) and
pyasc.tensor_list, the host side that lays a list of tensors out in memory:
a kernel walks the list, reads each tensor's dim, index and shape, and
reaches its data, in plain and checked mode; malformed lists and pointers to
memory the launch was not given are errors or empty, never host memory."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import asc
import pyasc
from kernel_cache import kernel_cache_dir
from pyasc import _C

CACHE = kernel_cache_dir("pyasc-tensor-desc-")

MODES = (False, True)  # plain, checked


def jit(fn):
    return pyasc.jit(fn, cache_dir=CACHE)


def variant(kernel, checked):
    return pyasc.jit(kernel.fn, cache_dir=CACHE, debug=checked) if checked else kernel


def test_tensor_list_layout():
    a = np.zeros((2, 3), np.int32)
    b = np.zeros(5, np.float32)
    words = pyasc.tensor_list([a, b]).view(np.uint64)
    p = 8 * (1 + (1 + 2) + (1 + 1))  # header word, then per tensor its word and shape
    assert words[0] == p
    assert list(words[1:4]) == [0 << 32 | 2, 2, 3] and list(words[4:6]) == [1 << 32 | 1, 5]
    assert list(words[p // 8:]) == [a.__array_interface__["data"][0],
                                    b.__array_interface__["data"][0]]
    with pytest.raises(TypeError, match="tensor_list takes pyasc.Tensor or numpy.ndarray"):
        pyasc.tensor_list([[1, 2]])


@jit
def k_walk(lst: pyasc.GlobalAddress, out: pyasc.GlobalAddress, a: pyasc.GlobalAddress,
           which: pyasc.ConstExpr[int], at: pyasc.ConstExpr[int]):
    o = pyasc.GlobalTensor()
    o.set_global_buffer(out)
    lists = asc.ListTensorDesc(data=lst, length=0xffffffff, shape_size=0xffffffff)
    o.set_value(0, lists.get_size())
    d = asc.TensorDesc(dtype=asc.float32)
    d.set_shape_addr(0)
    lists.get_desc(d, index=which)
    o.set_value(1, d.get_dim())
    o.set_value(2, d.get_index())
    o.set_value(3, d.get_shape(0))
    o.set_value(4, d.get_shape(d.get_dim() - 1))
    o.set_value(5, d.get_data_obj().get_value(at))
    g = asc.GlobalTensor()
    g.set_global_buffer(lists.get_data_ptr(index=which, dtype=asc.float32))
    o.set_value(6, g.get_value(at))


@pytest.mark.parametrize("checked", MODES)
def test_a_kernel_walks_a_list_of_arrays_and_tensors(checked):
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 3
    t = pyasc.asarray(np.arange(10, dtype=np.float32)) + 0.5  # device memory
    lst = pyasc.tensor_list([a, t])
    for which, at, want in ((0, 7, (3, 0, 2, 4, a.ravel()[7])), (1, 4, (1, 1, 10, 10, 4.5))):
        out = np.zeros(7, np.float64)
        variant(k_walk, checked)[1](lst, out, a, which, at)
        dim, index, first, last, value = want
        np.testing.assert_array_equal(out, [2, dim, index, first, last, value, value])


def test_pointers_outside_the_launch_reach_no_memory():
    a = np.arange(8, dtype=np.float32) + 1
    lst = pyasc.tensor_list([a])
    out = np.full(7, -1, np.float64)
    other = np.zeros(8, np.float32)  # a is not an argument of this launch
    k_walk[1](lst, out, other, 0, 3)
    assert out[5] == 0 and out[6] == 0  # read as zeros, as GM outside an argument
    with pytest.raises(pyasc.KernelError, match="outside the argument"):
        variant(k_walk, True)[1](lst, out, other, 0, 3)


def test_list_errors_name_the_line():
    a = np.zeros(4, np.float32)
    lst = pyasc.tensor_list([a])
    out = np.zeros(7, np.float64)
    with pytest.raises(pyasc.KernelError, match=r"test_tensor_desc.py:\d+: ListTensorDesc.get_desc:"
                                                r" index 1 is outside the list's 1 tensors"):
        k_walk[1](lst, out, a, 1, 0)
    bad = lst.copy().view(np.int64)
    bad[0] = 12  # a pointer offset inside the descriptors
    with pytest.raises(pyasc.KernelError, match="pointer offset 12 is not a multiple of 8"):
        k_walk[1](bad, out, a, 0, 0)
    bad[0] = 1 << 20  # the pointers would be read as descriptors
    with pytest.raises(pyasc.KernelError, match="descriptors overrun its pointer offset 1048576"):
        k_walk[1](bad, out, a, 0, 0)


@jit
def k_bounded(lst: pyasc.GlobalAddress, out: pyasc.GlobalAddress, length: int, count: int):
    o = pyasc.GlobalTensor()
    o.set_global_buffer(out)
    lists = asc.ListTensorDesc()
    lists.init(lst, length, shape_size=count)
    o.set_value(0, lists.get_size())


def test_length_and_shape_size_bound_the_list():
    lst = pyasc.tensor_list([np.zeros(3, np.int8), np.zeros((1, 1), np.int8)])
    out = np.zeros(1, np.int64)
    k_bounded[1](lst, out, lst.nbytes, 2)
    assert out[0] == 2
    with pytest.raises(pyasc.KernelError, match="shape_size 3 does not match the 2 tensors"):
        k_bounded[1](lst, out, lst.nbytes, 3)
    with pytest.raises(pyasc.KernelError, match="outside its 16 bytes"):
        k_bounded[1](lst, out, 16, 2)


@jit
def k_misuse(lst: pyasc.GlobalAddress, which: pyasc.ConstExpr[int]):
    d = asc.TensorDesc()
    if which == 0:
        asc.ListTensorDesc().get_desc(d, 0)
    else:
        asc.ListTensorDesc(lst).get_desc(3, 0)


def test_misuse_is_a_compile_error():
    with pytest.raises(pyasc.CompileError, match="desc must be a TensorDesc, not int 3"):
        k_misuse[1](np.zeros(4, np.int64), 1)


@pytest.mark.parametrize("checked", MODES)
def test_a_list_without_data_stops_the_kernel(checked):
    """Ascend C's default ListTensorDesc has a null data pointer: get_desc
    would read address 0, which here stops the kernel in either mode."""
    with pytest.raises(pyasc.KernelError, match=r"test_tensor_desc.py:\d+: ListTensorDesc.get_desc: "
                                                "the tensor list's address is outside its "
                                                "argument"):
        variant(k_misuse, checked)[1](np.zeros(4, np.int64), 0)


@jit
def k_bytes(lst: pyasc.GlobalAddress, out: pyasc.GlobalAddress, a: pyasc.GlobalAddress):
    o = pyasc.GlobalTensor()
    o.set_global_buffer(out)
    lists = asc.ListTensorDesc()
    o.set_value(0, lists.get_size())  # Ascend C's default list holds no tensors
    lists = asc.ListTensorDesc(data=lst, length=0xffffffff, shape_size=0xffffffff)
    o.set_value(1, lists.get_size())
    d = asc.TensorDesc(dtype=asc.int32)
    lists.get_desc(d, index=1)
    o.set_value(2, d.get_dim())
    o.set_value(3, d.get_index())
    o.set_value(4, d.get_shape(1))
    o.set_value(5, d.get_data_obj().get_value(5))


@pytest.mark.parametrize("checked", MODES)
def test_any_global_address_holds_a_list(checked):
    """Ascend C takes the list as `__gm__ void *`: a uint8 (or float) view of
    the words reads the same list."""
    a = np.arange(12, dtype=np.int32).reshape(3, 4) * 7
    words = pyasc.tensor_list([np.zeros(2, np.int32), a])
    for view in (words.view(np.uint8), words.view(np.float64)):
        out = np.zeros(6, np.int64)
        variant(k_bytes, checked)[1](view, out, a)
        np.testing.assert_array_equal(out, [0, 2, a.ndim, 1, a.shape[1], a.ravel()[5]])


@jit
def k_unset(out: pyasc.GlobalAddress, what: pyasc.ConstExpr[int]):
    o = pyasc.GlobalTensor()
    o.set_global_buffer(out)
    d = asc.TensorDesc()
    d.set_shape_addr(0)
    o.set_value(0, d.get_dim())
    o.set_value(1, d.get_index())
    if what == 1:
        o.set_value(2, d.get_shape(0))
    elif what == 2:
        o.set_value(3, d.get_data_obj().get_value(3))
    elif what == 3:
        g = asc.GlobalTensor()
        g.set_global_buffer(d.get_data_ptr())
        o.set_value(4, g.get_value(0))


def test_an_unfilled_tensor_desc_is_ascend_cs_default():
    """TensorDesc's constructor leaves dim 0, index 0, no shape and a null
    data pointer: reads through it give zeros by default, errors in checked
    mode."""
    for what in (0, 1, 2, 3):
        out = np.full(5, -1, np.float64)
        k_unset[1](out, what)
        want = np.full(5, -1.0)
        want[:2] = 0
        if what:
            want[what + 1] = 0
        np.testing.assert_array_equal(out, want)
    out = np.zeros(5, np.float64)
    variant(k_unset, True)[1](out, 0)
    with pytest.raises(pyasc.KernelError, match="TensorDesc.get_shape: offset 0 is outside the "
                                                "tensor's 0 dimensions"):
        variant(k_unset, True)[1](out, 1)
    for what in (2, 3):
        with pytest.raises(pyasc.KernelError, match="outside the argument"):
            variant(k_unset, True)[1](out, what)


def test_ascend_c_of_an_unfilled_desc():
    src = k_unset.ascendc(np.zeros(5, np.float64), 1)
    assert "pyasc_d.GetShape((uint32_t)0)" in src
    src = k_unset.ascendc(np.zeros(5, np.float64), 3)
    assert "AscendC::TensorDesc<float>().GetDataPtr()" in src


def test_ascend_c_form():
    a = np.zeros(8, np.float32)
    src = k_walk.ascendc(pyasc.tensor_list([a]), np.zeros(7, np.float64), a, 0, 3)
    assert "AscendC::ListTensorDesc((__gm__ void *)" in src
    assert ".GetDataPtr<float>((uint32_t)0)" in src and "pyasc_d.GetShape((uint32_t)0)" in src


@jit
def k_poison(a: pyasc.GlobalAddress, b: pyasc.GlobalAddress, c: pyasc.GlobalAddress,
             d: pyasc.GlobalAddress):
    pass


@jit
def k_scalars(lst: pyasc.GlobalAddress, out: pyasc.GlobalAddress, x: int, y: float, z: int):
    o = pyasc.GlobalTensor()
    o.set_global_buffer(out)
    lists = asc.ListTensorDesc(data=lst, length=0xffffffff, shape_size=0xffffffff)
    g = asc.GlobalTensor()
    g.set_global_buffer(lists.get_data_ptr(index=0, dtype=asc.float32))
    o.set_value(0, g.get_value(0))
    g.set_value(1, 99.0)


def poisoned_launch(kernel, lst, out, value):
    """A launch with many large arrays leaves their lengths where the next
    launch packs its scalar arguments; that launch passes `value` as ints."""
    big = np.zeros(1 << 16, np.uint8)
    k_poison[1](big, big, big, big)
    kernel[1](lst, out, value, 0.0, value)


@pytest.mark.parametrize("checked", MODES)
def test_an_int_argument_equal_to_a_pointer_is_not_memory(checked):
    victim = np.arange(8, dtype=np.float32) + 1  # host memory no launch was given
    lst = pyasc.tensor_list([victim])
    addr = victim.__array_interface__["data"][0]
    out = np.full(1, -1, np.float32)
    for _ in range(3):
        if checked:
            with pytest.raises(pyasc.KernelError, match="outside the argument"):
                poisoned_launch(variant(k_scalars, True), lst, out, addr)
        else:
            poisoned_launch(k_scalars, lst, out, addr)
            assert out[0] == 0  # read as zeros
        np.testing.assert_array_equal(victim, np.arange(8, dtype=np.float32) + 1)


ZERO_POINTER = textwrap.dedent('''
    import sys
    import numpy as np
    import pyasc
    sys.path.insert(0, {here!r})
    import test_tensor_desc as t
    lst = pyasc.tensor_list([np.zeros(4, np.float32)]).view(np.uint64)
    lst[-1] = 0  # the data pointer
    out = np.full(1, -1, np.float32)
    t.poisoned_launch(t.k_scalars, lst, out, 0)
    assert out[0] == 0, out
    try:
        t.poisoned_launch(t.variant(t.k_scalars, True), lst, out, 0)
    except pyasc.KernelError as exc:
        assert "outside the argument" in str(exc), exc
    else:
        raise AssertionError("checked mode said nothing")
    print("ok")
''')


def test_a_zero_data_pointer_reaches_no_memory():
    here = os.path.dirname(os.path.abspath(__file__))
    proc = subprocess.run([sys.executable, "-c", ZERO_POINTER.format(here=here)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", (proc.returncode, proc.stderr)


def test_a_signature_must_agree_with_the_kernels_parameters():
    compiled = k_scalars.compile(pyasc.tensor_list([np.zeros(1, np.float32)]),
                                 np.zeros(1, np.float32), 1, 0.0, 1)
    with pytest.raises(pyasc.CompileError, match="signature 'aaaaa' does not match the "
                                                 "kernel's parameters 'aaifi'"):
        _C.jit_build(compiled.c_source, "k", "aaaaa", cache_dir=CACHE)
