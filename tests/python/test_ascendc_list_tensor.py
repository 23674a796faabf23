"""Ascend C's ListTensorDesc and TensorDesc on the simulated cores
(kernel_operator_list_tensor_intf.h, include/ascendc/kernel_operator/list_tensor.h): a kernel
of our own walks a list laid out by pyasc.tensor_list (the layout CANN's hosts build), reads
each tensor's dim, index and shape, and reaches its data through GetDataPtr and GetDataObj,
against NumPy; pointers to memory the launch was not given reach nothing."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

# out: the list's size, then the dim, index, first and last shape values of tensor `which`,
# its element `at` through GetDataObj and through GetDataPtr, and the object's size.
WALK_SRC = r"""
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void walk(GM_ADDR lst, GM_ADDR out, GM_ADDR a, uint32_t which,
                                           uint32_t at, uint32_t length)
{
    GlobalTensor<double> o;
    o.SetGlobalBuffer((__gm__ double *)out);
    ListTensorDesc lists((__gm__ void *)lst, length);
    o.SetValue(0, lists.GetSize());
    uint64_t shape[8] = {0};
    TensorDesc<float> d;
    d.SetShapeAddr(shape);
    lists.GetDesc(d, which);
    o.SetValue(1, d.GetDim());
    o.SetValue(2, d.GetIndex());
    o.SetValue(3, shape[0]);
    o.SetValue(4, d.GetShape(d.GetDim() - 1));
    GlobalTensor<float> obj = d.GetDataObj();
    o.SetValue(5, obj.GetValue(at));
    GlobalTensor<float> g;
    g.SetGlobalBuffer(lists.GetDataPtr<float>(which));
    o.SetValue(6, g.GetValue(at));
    o.SetValue(7, obj.GetSize());
    o.SetValue(8, d.GetDataPtr() == lists.GetDataPtr<float>(which));
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_a_kernel_walks_a_list_of_arrays_and_device_tensors(debug):
    kernel = pyasc.ascendc.load(WALK_SRC, "walk", debug=debug)
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 3
    t = pyasc.asarray(np.arange(10, dtype=np.float32)) + 0.5  # device memory, no argument
    lst = pyasc.tensor_list([a, t])
    for which, at, want in ((0, 7, (3, 0, 2, 4, a.ravel()[7], 24)),
                            (1, 4, (1, 1, 10, 10, 4.5, 10))):
        out = np.zeros(9, np.float64)
        kernel[1](lst, out, a, which, at, lst.nbytes)
        dim, index, first, last, value, size = want
        np.testing.assert_array_equal(out, [2, dim, index, first, last, value, value, size, 1])


def test_pointers_outside_the_launch_reach_nothing_and_errors_name_the_line():
    a = np.arange(8, dtype=np.float32) + 1
    lst = pyasc.tensor_list([a])
    other = np.zeros(8, np.float32)  # a is no argument of this launch
    out = np.full(9, -1, np.float64)
    pyasc.ascendc.load(WALK_SRC, "walk")[1](lst, out, other, 0, 3, 0xffffffff)
    assert out[5] == 0 and out[6] == 0 and out[8] == 1  # null: reads give zeros
    # checked mode: at GetDataObj's line, the null pointer holds none of the 8 elements
    with pytest.raises(pyasc.KernelError,
                       match=r"<string>:21: set_global_buffer: 8 elements exceed the 0 bytes"):
        pyasc.ascendc.load(WALK_SRC, "walk", debug=True)[1](lst, out, other, 0, 3, 0xffffffff)
    kernel = pyasc.ascendc.load(WALK_SRC, "walk")
    with pytest.raises(pyasc.KernelError,
                       match=r"<string>:\d+: ListTensorDesc.get_desc: index 1 is outside the "
                             r"list's 1 tensors"):
        kernel[1](lst, out, a, 1, 0, 0xffffffff)
    with pytest.raises(pyasc.KernelError, match="outside its 16 bytes"):
        kernel[1](lst, out, a, 0, 0, 16)
