"""A tensor list's pointer to a pyasc.Tensor that has been freed (issue 21):
the caching allocator hands the freed block to the next allocation of its
size class, so the stale address points into a live, unrelated tensor. The
pointer carries its allocation's tag (asc/mem.h asc_mem_tag): a kernel that
uses it reaches nothing, whatever holds the block now. Default mode reads
zeros and drops writes; checked mode stops at get_data_ptr's line naming the
use after free."""

from __future__ import annotations

import numpy as np
import pytest

import asc
import pyasc
from kernel_cache import kernel_cache_dir
from pyasc import _C

CACHE = kernel_cache_dir("pyasc-use-after-free-")
TAG_SHIFT = 48
UAF = r"test_use_after_free.py:\d+: get_data_ptr: use after free: tensor \d+'s data pointer"


def jit(fn):
    return pyasc.jit(fn, cache_dir=CACHE)


def variant(kernel, checked):
    return pyasc.jit(kernel.fn, cache_dir=CACHE, debug=True) if checked else kernel


@jit
def k_fill(lst: pyasc.GlobalAddress, count: pyasc.ConstExpr[int], n: int, value: float):
    """Writes value to the first n float32 of each of the list's tensors."""
    lists = asc.ListTensorDesc(data=lst, length=0xffffffff, shape_size=0xffffffff)
    for j in range(count):
        g = asc.GlobalTensor()
        g.set_global_buffer(lists.get_data_ptr(index=j, dtype=asc.float32))
        for i in range(n):
            g.set_value(i, value)


@jit
def k_read(lst: pyasc.GlobalAddress, out: pyasc.GlobalAddress, which: pyasc.ConstExpr[int],
           n: int):
    """Copies the first n float32 of tensor `which` of the list to out."""
    o = pyasc.GlobalTensor()
    o.set_global_buffer(out)
    lists = asc.ListTensorDesc(data=lst, length=0xffffffff, shape_size=0xffffffff)
    g = asc.GlobalTensor()
    g.set_global_buffer(lists.get_data_ptr(index=which, dtype=asc.float32))
    for i in range(n):
        o.set_value(i, g.get_value(i))


@jit
def k_read_arg(lst: pyasc.GlobalAddress, out: pyasc.GlobalAddress, arg: pyasc.GlobalAddress,
               n: int):
    """k_read of tensor 0, with `arg` (the memory the list points to) given
    to the launch."""
    o = pyasc.GlobalTensor()
    o.set_global_buffer(out)
    lists = asc.ListTensorDesc(data=lst, length=0xffffffff, shape_size=0xffffffff)
    g = asc.GlobalTensor()
    g.set_global_buffer(lists.get_data_ptr(index=0, dtype=asc.float32))
    for i in range(n):
        o.set_value(i, g.get_value(i))


def dev(x):
    """x in memory of the caching allocator (pyasc.asarray alone may keep a
    small array's host memory)."""
    return pyasc.asarray(x).clone()


def words_of(tensors):
    """The list's words as a plain array: unlike pyasc.tensor_list's result
    it does not keep the tensors alive."""
    return np.array(pyasc.tensor_list(tensors)).view(np.int64)


def stale_list(nbytes, dtype=np.float32, reuse_dtype=None):
    """A list holding the address of a freed tensor, and the live tensor
    that the allocator gave the freed block to (filled with 1, 2, ...)."""
    a = dev(np.full(nbytes // np.dtype(dtype).itemsize, 7, dtype))
    a_ptr = a.data_ptr
    words = words_of([a])
    del a
    reuse = np.dtype(reuse_dtype or dtype)
    b = dev(np.arange(1, nbytes // reuse.itemsize + 1).astype(reuse))
    assert b.data_ptr == a_ptr  # the reuse that makes the pointer dangerous
    return words, b


@pytest.mark.parametrize("checked", (False, True))
@pytest.mark.parametrize("n", (1, 24, 1000, 16384))
def test_a_write_through_a_freed_tensors_pointer_leaves_its_new_owner_alone(checked, n):
    words, b = stale_list(4 * n)
    want = np.arange(1, n + 1, dtype=np.float32)
    if checked:
        with pytest.raises(pyasc.KernelError, match=UAF):
            variant(k_fill, True)[1](words, 1, n, -5.0)
    else:
        k_fill[1](words, 1, n, -5.0)
    pyasc.synchronize()
    np.testing.assert_array_equal(b.numpy(), want)


@pytest.mark.parametrize("checked", (False, True))
def test_a_read_through_a_freed_tensors_pointer_sees_nothing_of_its_new_owner(checked):
    n = 64
    words, b = stale_list(4 * n)
    out = np.full(n, -1, np.float32)
    if checked:
        with pytest.raises(pyasc.KernelError, match=UAF):
            variant(k_read, True)[1](words, out, 0, n)
    else:
        k_read[1](words, out, 0, n)
        np.testing.assert_array_equal(out, np.zeros(n, np.float32))  # GM with nothing behind it
    np.testing.assert_array_equal(b.numpy(), np.arange(1, n + 1, dtype=np.float32))


@pytest.mark.parametrize("checked", (False, True))
@pytest.mark.parametrize("reuse", (np.int32, np.int8, np.float16))
def test_a_block_reused_by_another_dtype_is_not_reached(checked, reuse):
    n = 256
    words, b = stale_list(4 * n, np.float32, reuse)
    before = b.numpy().copy()
    if checked:
        with pytest.raises(pyasc.KernelError, match=UAF):
            variant(k_fill, True)[1](words, 1, n, 3.0)
    else:
        k_fill[1](words, 1, n, 3.0)
    np.testing.assert_array_equal(b.numpy(), before)


@pytest.mark.parametrize("checked", (False, True))
def test_several_stale_pointers_beside_a_live_one(checked):
    n = 32
    live = dev(np.zeros(n, np.float32))
    a1 = dev(np.zeros(n, np.float32))
    a2 = dev(np.zeros(2 * n, np.float32))
    ptrs = (a1.data_ptr, a2.data_ptr)
    words = words_of([live, a1, a2])
    del a1, a2
    b1 = dev(np.arange(n, dtype=np.float32))
    b2 = dev(np.arange(2 * n, dtype=np.float32))
    assert {b1.data_ptr, b2.data_ptr} == set(ptrs)
    if checked:
        # the live tensor comes first: it is written before the stale one stops the kernel
        with pytest.raises(pyasc.KernelError, match=UAF.replace(r"\d+'s", "1's")):
            variant(k_fill, True)[1](words, 3, n, 9.0)
    else:
        k_fill[1](words, 3, n, 9.0)
    np.testing.assert_array_equal(live.numpy(), np.full(n, 9, np.float32))
    np.testing.assert_array_equal(b1.numpy(), np.arange(n, dtype=np.float32))
    np.testing.assert_array_equal(b2.numpy(), np.arange(2 * n, dtype=np.float32))


@pytest.mark.parametrize("checked", (False, True))
def test_a_view_of_a_freed_tensor_cached_but_not_reused_reaches_nothing(checked):
    n = 40
    a = dev(np.arange(2 * n, dtype=np.float32))
    view = a[n:]  # an interior address, tagged with a's allocation
    words = words_of([view])
    block = view.data_ptr
    del a, view
    pyasc.synchronize()
    out = np.full(n, -1, np.float32)
    if checked:
        with pytest.raises(pyasc.KernelError, match=UAF):
            variant(k_read, True)[1](words, out, 0, n)
    else:
        k_read[1](words, out, 0, n)
        np.testing.assert_array_equal(out, np.zeros(n, np.float32))
    b = dev(np.ones(2 * n, np.float32))  # takes the cached block: the stale view points into it
    assert b.data_ptr + 4 * n == block
    k_fill[1](words, 1, n, 8.0)
    np.testing.assert_array_equal(b.numpy(), np.ones(2 * n, np.float32))


@pytest.mark.parametrize("checked", (False, True))
def test_a_pointer_to_memory_returned_to_the_backend_reaches_nothing(checked):
    n = 4096
    a = dev(np.zeros(n, np.float32))
    words = words_of([a])
    del a
    pyasc.synchronize()
    pyasc.memory.empty_cache()
    out = np.full(n, -1, np.float32)
    if checked:
        with pytest.raises(pyasc.KernelError, match=UAF):
            variant(k_read, True)[1](words, out, 0, n)
    else:
        k_read[1](words, out, 0, n)
        np.testing.assert_array_equal(out, np.zeros(n, np.float32))


@pytest.mark.parametrize("checked", (False, True))
def test_live_tensors_views_and_device_copies_of_the_list_still_work(checked):
    n = 48
    base = dev(np.zeros(2 * n, np.float32))
    view = base[n:]  # an interior pointer: tagged with the block it lies in
    other = dev(np.arange(n, dtype=np.float32) * 0.5)
    lst = pyasc.tensor_list([view, other])
    variant(k_fill, checked)[1](lst, 1, n, 4.0)
    want = np.concatenate([np.zeros(n), np.full(n, 4.0)]).astype(np.float32)
    np.testing.assert_array_equal(base.numpy(), want)
    out = np.zeros(n, np.float32)
    device_words = dev(np.asarray(lst))  # the list itself in device memory
    variant(k_read, checked)[1](device_words, out, 1, n)
    np.testing.assert_array_equal(out, np.arange(n, dtype=np.float32) * 0.5)


@pytest.mark.parametrize("checked", (False, True))
def test_a_made_up_tag_reaches_nothing_not_even_an_argument(checked):
    n = 16
    arg = np.arange(n, dtype=np.float32) + 1  # an argument of the launch, so reachable untagged
    words = words_of([arg])
    p = int(words[0]) // 8
    out = np.full(n, -1, np.float32)
    k_read_arg[1](words, out, arg, n)  # untagged: the argument's memory
    np.testing.assert_array_equal(out, arg)
    words[p] |= 0x1234 << TAG_SHIFT  # no allocation ever had this address and tag
    out[:] = -1
    if checked:
        with pytest.raises(pyasc.KernelError, match=UAF):
            variant(k_read_arg, True)[1](words, out, arg, n)
    else:
        k_read_arg[1](words, out, arg, n)
        np.testing.assert_array_equal(out, np.zeros(n, np.float32))


def test_the_list_holds_tagged_device_addresses_and_raw_host_ones():
    t = dev(np.zeros(8, np.float32))
    h = np.zeros(8, np.float32)
    words = words_of([t, h]).view(np.uint64)
    p = int(words[0]) // 8
    tagged, host = int(words[p]), int(words[p + 1])
    assert tagged & ((1 << TAG_SHIFT) - 1) == t.data_ptr and tagged >> TAG_SHIFT != 0
    assert host == h.__array_interface__["data"][0]
    assert _C._tagged_address(host) == host  # not device memory: no tag
    t_ptr, t_tag = t.data_ptr, tagged >> TAG_SHIFT
    del t
    again = dev(np.ones(8, np.float32))  # t's block, a new allocation
    assert again.data_ptr == t_ptr
    assert _C._tagged_address(again.data_ptr) >> TAG_SHIFT not in (0, t_tag)
    with pytest.raises(TypeError, match="ptr must be an int"):
        _C._tagged_address(1.5)
