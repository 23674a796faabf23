"""AscendC::Std (include/ascendc/kernel_operator/std.h), Ascend C's type traits as CANN's
utils/std has them: half is a floating type, bfloat16_t and pointers are not; an
integral_constant counts as integral; is_one_of, is_one_of_value and is_constant; tuple, get,
forward and the rest of its utilities, max and min of two types. Checked at
compile time in a kernel built by pyasc.ascendc.load, and by the values it writes."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

SRC = r"""
#include "kernel_operator.h"
namespace S = AscendC::Std;

static_assert(S::is_floating_point_v<half> && S::is_floating_point_v<const volatile float>);
static_assert(!S::is_floating_point_v<bfloat16_t> && !S::is_floating_point_v<float *>);
static_assert(S::is_integral_v<S::integral_constant<int, 3>> && !S::is_integral_v<wchar_t>);
static_assert(S::is_same_v<S::remove_cvref_t<const int &>, int>);
static_assert(S::is_one_of_v<half, float, half> && !S::is_one_of_v<int, float, half>);
static_assert(S::is_one_of_value_v<int, 4, 1, 2, 4> && !S::is_one_of_value_v<int, 5, 1, 2, 4>);
static_assert(S::is_constant<7, const S::integral_constant<int, 7> &>::value);
static_assert(!S::is_constant<7, S::integral_constant<int, 6>>::value);
// tuples, utilities and CANN's two-type max/min (matmul_l2cache's L2 cache optimiser)
static_assert(S::get<1>(S::make_tuple(1, 2.5f, 'c')) == 2.5f);
static_assert(S::tuple_size_v<S::tuple<int64_t, int64_t, int64_t>> == 3);
static_assert(S::is_same_v<S::tuple_element_t<2, S::tuple<int, float, char>>, char>);
static_assert(S::max(3, 4.5) == 4.5 && S::min(3, 4.5) == 3 && S::max(int64_t{7}, 2) == 7);
template <size_t I, typename T>
constexpr decltype(auto) at(T &&t) { return S::get<I>(S::forward<T>(t)); }
static_assert(at<0>(S::tuple<int64_t, int64_t>{5, 6}) == 5);

extern "C" __global__ __aicore__ void traits(GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 4);
    o.SetValue(0, S::is_floating_point<half>::value);
    o.SetValue(1, S::is_integral<bool>::value);
    o.SetValue(2, S::is_integral<float>::value);
    o.SetValue(3, S::is_pointer<S::add_pointer_t<int>>::value);
}
"""


def test_std_type_traits_follow_cann():
    out = np.full(4, -1, np.int32)
    pyasc.ascendc.load(SRC, "traits")[1](out)
    np.testing.assert_array_equal(out, [1, 1, 0, 1])
