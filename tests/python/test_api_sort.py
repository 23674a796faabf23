"""sort32, sort, mrg_sort, mrg_sort4, get_mrg_sort_result, rp_sort16,
proposal_concat/extract and get_sort_len/offset against NumPy models of
their hardware semantics (descending, stable), in plain and checked mode,
with their errors and their Ascend C forms (checked with g++)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import CACHE, jit, launch, local, modes, store
from test_ascendc import assert_valid_cpp


N = 8192  # elements of each UB operand (32 KiB of float32)


def pairs_model(scores, index, groups):
    """(score, index) sort elements: each group sorted descending, stable."""
    out = []
    for g in np.split(np.arange(len(scores)), groups):
        order = sorted(g, key=lambda i: -float(scores[i]))  # sorted() is stable
        out += [(scores[i], index[i]) for i in order]
    return out


def decode_pairs(y, dtype, n):
    """n sort elements from the raw UB words of y (any dtype)."""
    raw = y.view(np.uint8)[:n * 8].reshape(n, 8)
    score = raw[:, :np.dtype(dtype).itemsize].copy().view(dtype).reshape(-1)
    index = raw[:, 4:].copy().view(np.uint32).reshape(-1)
    pad = raw[:, 2:4] if np.dtype(dtype).itemsize == 2 else np.zeros((n, 2), np.uint8)
    return list(zip(score, index)), pad


# --- sort32 / sort -----------------------------------------------------------------------------

@jit
def sort_kernel(x: asc.GlobalAddress, idx: asc.GlobalAddress, y: asc.GlobalAddress, repeat: int,
                which: asc.ConstExpr[int]):
    src = local(x, 0, 2048)
    index = local(idx, 8192, 2048)
    dst = local(y, 16384, 4 * 8192 // 4 if y.dtype == asc.float32 else 8192)
    tmp = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 65536, 8192)
    if which == 0:
        asc.sort32(dst, src, index, repeat)
    elif which == 1:
        asc.sort(dst, src, index, tmp, repeat)
    else:
        asc.sort(dst, src, index, tmp, repeat_time=repeat, is_full_sort=True)
    store(y, dst, 4 * 8192 // 4 if y.dtype == asc.float32 else 8192)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("which", [0, 1, 2])
@pytest.mark.parametrize("repeat", [0, 1, 3, 64])
def test_sort32_and_sort(dtype, which, repeat):
    rng = np.random.default_rng(repeat)
    n = 32 * repeat
    x = rng.integers(-20, 20, 2048).astype(dtype)  # many equal scores: stability shows
    x[:4] = [np.inf, -np.inf, 0, -0.0]
    idx = rng.permutation(2048).astype(np.int32)
    size = 8192 if dtype == np.float16 else 8192
    for kernel in modes(sort_kernel):
        y = np.full(size, 7, dtype)
        launch(kernel, x, idx, y, repeat, which)
        got, pad = decode_pairs(y, dtype, n)
        want = pairs_model(x[:n], idx[:n].view(np.uint32), 1 if which == 2 and n else
                           max(repeat, 1)) if n else []
        assert [(float(s), int(i)) for s, i in got] == [(float(s), int(i)) for s, i in want]
        assert not pad.any()
        # nothing past the n sort elements is written
        rest = y.view(np.uint8)[n * 8:]
        assert (rest == np.full(size, 7, dtype).view(np.uint8)[n * 8:]).all()


@pytest.mark.parametrize("repeat, message", [(256, "repeat_time 256 is outside"),
                                             (-1, "repeat_time -1 is outside")])
def test_sort32_repeat_range(repeat, message):
    x = np.zeros(2048, np.float32)
    with pytest.raises(asc.KernelError, match=message) as info:
        launch(sort_kernel, x, np.zeros(2048, np.int32), np.zeros(8192, np.float32), repeat, 0)
    assert "test_api_sort.py" in str(info.value)


def test_sort32_past_the_tensor_is_an_error_in_checked_mode():
    x = np.zeros(2048, np.float32)
    with pytest.raises(asc.KernelError, match="sort32"):
        launch(modes(sort_kernel)[1], x, np.zeros(2048, np.int32), np.zeros(8192, np.float32),
               65, 0)


def test_sort_needs_float_scores_and_int32_indices():
    @jit
    def bad(x: asc.GlobalAddress, i: asc.GlobalAddress):
        a = local(x, 0, 64)
        b = local(i, 1024, 64)
        asc.sort32(a, a, b, 1)

    with pytest.raises(asc.CompileError, match="sort32 does not support a int32 dst"):
        launch(bad, np.zeros(64, np.int32), np.zeros(64, np.int32))
    with pytest.raises(asc.CompileError, match="src1"):
        launch(bad, np.zeros(64, np.float32), np.zeros(64, np.float32))


# --- mrg_sort / mrg_sort4 / get_mrg_sort_result ---------------------------------------------

@jit
def merge_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, r: asc.GlobalAddress,
                 l1: int, l2: int, l3: int, l4: int, valid: int, repeat: int,
                 form: asc.ConstExpr[int], susp: asc.ConstExpr[bool]):
    src = local(x, 0, 4096)
    dst = local(y, 32768, 4096)
    per = asc.get_sort_offset(l1 + l2 + l3 + l4, dtype=x.dtype)
    unit = 8  # elements of a region proposal
    if form != 2:
        unit = asc.get_sort_offset(1, x.dtype)
    q1 = src[0]
    q2 = src[l1 * unit]
    q3 = src[(l1 + l2) * unit]
    q4 = src[(l1 + l2 + l3) * unit]
    if form == 0:
        asc.mrg_sort(dst, asc.MrgSortSrcList(q1, q2, q3, q4), [l1, l2, l3, l4], [0, 0, 0, 0],
                     valid, repeat, susp)
    elif form == 1:
        asc.mrg_sort(dst, asc.MrgSortSrcList(x.dtype, q1, q2, q3, q4),
                     asc.MrgSort4Info([l1, l2, l3, l4], susp, valid, repeat))
    else:
        asc.mrg_sort4(dst, asc.MrgSortSrcList(q1, q2, q3, q4),
                      asc.MrgSort4Info([l1, l2, l3, l4], if_exhausted_suspension=susp,
                                       valid_bit=valid, repeat_times=repeat))
    a, b, c, d = asc.get_mrg_sort_result()
    g = asc.GlobalTensor()
    g.set_global_buffer(r, 5)
    g.set_value(0, a)
    g.set_value(1, b)
    g.set_value(2, c)
    g.set_value(3, d)
    g.set_value(4, per)
    store(y, dst, 4096)


def sorted_queue(rng, n, dtype, first_index):
    scores = np.sort(rng.integers(-9, 9, n).astype(dtype))[::-1]
    return [(s, first_index + i) for i, s in enumerate(scores)]


def encode(elements, dtype, proposals):
    """Sort elements (or region proposals, score at element 4) as raw bytes."""
    out = bytearray()
    for s, i in elements:
        if proposals:
            p = np.zeros(8, dtype)
            p[4], p[5] = s, i % 64
            out += p.tobytes()
        else:
            e = bytearray(8)
            e[:np.dtype(dtype).itemsize] = np.array([s], dtype).tobytes()
            e[4:] = np.array([i], np.uint32).tobytes()
            out += e
    return bytes(out)


def merge_model(queues, susp):
    """Merged elements and the count taken from each queue."""
    at, out = [0] * len(queues), []
    while True:
        heads = [(q, queues[q][at[q]]) for q in range(len(queues)) if at[q] < len(queues[q])]
        if not heads or susp and len(heads) < len(queues):
            return out, at
        q, e = max(heads, key=lambda h: (float(h[1][0]), -h[0]))  # the earlier queue on ties
        out.append(e)
        at[q] += 1


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("form", [0, 1, 2])
@pytest.mark.parametrize("lengths, valid, susp", [
    ((5, 7, 3, 9), 15, False), ((5, 7, 3, 9), 15, True), ((4, 0, 6, 0), 7, False),
    ((16, 16, 0, 0), 3, False), ((1, 30, 2, 0), 7, True), ((0, 3, 0, 0), 3, True),
    ((4095 // 16, 100, 50, 25), 15, False)])
def test_merge_sorts(dtype, form, lengths, valid, susp):
    proposals = form == 2
    rng = np.random.default_rng(sum(lengths) + form)
    nq = {3: 2, 7: 3, 15: 4}[valid]
    lens = list(lengths[:nq]) + [0] * (4 - nq)
    queues, start = [], 0
    for q in range(nq):
        queues.append(sorted_queue(rng, lens[q], dtype, start))
        start += lens[q]
    size = 8 * np.dtype(dtype).itemsize if proposals else 8
    raw = encode([e for q in queues for e in q], dtype, proposals)
    x = np.zeros(4096, dtype)
    x.view(np.uint8)[:len(raw)] = np.frombuffer(raw, np.uint8)
    want, taken = merge_model(queues, susp)
    for kernel in modes(merge_kernel):
        y = np.full(4096, 3, dtype)
        r = np.full(5, -1, np.int64)
        launch(kernel, x, y, r, *lens, valid, 1, form, susp)
        assert list(r[:4]) == taken + [0] * (4 - nq)
        assert r[4] == sum(lens) * 8 // np.dtype(dtype).itemsize
        got = y.view(np.uint8)[:len(want) * size].tobytes()
        assert got == encode(want, dtype, proposals)
        assert (y.view(np.uint8)[len(want) * size:] ==
                np.full(4096, 3, dtype).view(np.uint8)[len(want) * size:]).all()


def test_merge_repeats_step_by_the_queues_total():
    dtype = np.float32
    rng = np.random.default_rng(5)
    lens = [3, 4, 0, 0]
    blocks, want = [], []
    for r in range(3):
        qs = [sorted_queue(rng, n, dtype, 100 * r + 10 * q) for q, n in enumerate(lens[:2])]
        blocks += qs[0] + qs[1]
        want += merge_model(qs, False)[0]
    x = np.zeros(4096, dtype)
    raw = encode(blocks, dtype, False)
    x.view(np.uint8)[:len(raw)] = np.frombuffer(raw, np.uint8)
    for kernel in modes(merge_kernel):
        y = np.zeros(4096, dtype)
        launch(kernel, x, y, np.zeros(5, np.int64), *lens, 3, 3, 0, False)
        assert y.view(np.uint8)[:len(want) * 8].tobytes() == encode(want, dtype, False)


@pytest.mark.parametrize("lens, valid, repeat, message", [
    ((1, 1, 1, 1), 5, 1, "valid_bit 5 must be 3, 7 or 15"),
    ((1, 1, 1, 1), 15, 0, "repeat_time 0 is outside \\[1, 255\\]"),
    ((1, 1, 1, 1), 15, 256, "repeat_time 256 is outside"),
    ((4096, 1, 1, 1), 15, 1, "element length 4096 of queue 1 is outside \\[0, 4095\\]"),
    ((1, -1, 1, 1), 15, 1, "element length -1 of queue 2"),
])
def test_merge_errors_name_the_line(lens, valid, repeat, message):
    x = np.zeros(4096, np.float32)
    with pytest.raises(asc.KernelError, match=message) as info:
        launch(merge_kernel, x, x.copy(), np.zeros(5, np.int64), *lens, valid, repeat, 0, False)
    assert "test_api_sort.py" in str(info.value)


def test_merge_rejects_overlapping_dst():
    @jit
    def bad(x: asc.GlobalAddress):
        a = local(x, 0, 256)
        asc.mrg_sort(a[8], asc.MrgSortSrcList(a, a[64]), [8, 8], [0, 0], 3, 1)

    with pytest.raises(asc.KernelError, match="dst overlaps src1"):
        launch(bad, np.zeros(256, np.float32))


def test_merge_argument_errors():
    @jit
    def bad_list(x: asc.GlobalAddress):
        a = local(x, 0, 256)
        asc.mrg_sort(a, [a, a], [8, 8], [0, 0], 3, 1)

    with pytest.raises(asc.CompileError, match="sort_list must be a pyasc.MrgSortSrcList"):
        launch(bad_list, np.zeros(256, np.float32))

    @jit
    def bad_info(x: asc.GlobalAddress):
        a = local(x, 0, 256)
        asc.mrg_sort4(a, asc.MrgSortSrcList(a, a), asc.MrgSort4Info(8))

    with pytest.raises(asc.CompileError, match="element_lengths must be a list"):
        launch(bad_info, np.zeros(256, np.float32))


# --- rp_sort16, proposal_concat / proposal_extract ------------------------------------------

@jit
def proposal_kernel(x: asc.GlobalAddress, p: asc.GlobalAddress, y: asc.GlobalAddress,
                    repeat: int, mode: int, which: asc.ConstExpr[int]):
    flat = local(x, 0, 512)
    props = local(p, 4096, 4096)
    out = local(y, 32768, 4096)
    if which == 0:
        asc.rp_sort16(out, props, repeat)
    elif which == 1:
        asc.proposal_concat(props, flat, repeat_time=repeat, mode_number=mode)
        asc.copy(out, props, 64, 4096 // 64, asc.CopyRepeatParams(1, 1, 8, 8)) \
            if x.dtype == asc.float32 else asc.data_copy(out, props, 4096)
    else:
        asc.proposal_extract(out, props, repeat, mode)
    store(y, out, 4096)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("repeat", [0, 1, 4])
def test_rp_sort16(dtype, repeat):
    rng = np.random.default_rng(repeat)
    p = rng.integers(-5, 5, 4096).astype(dtype)
    for kernel in modes(proposal_kernel):
        y = np.full(4096, 9, dtype)
        launch(kernel, np.zeros(512, dtype), p, y, repeat, 0, 0)
        want = np.full(4096, 9, dtype)
        props = p[:repeat * 128].reshape(-1, 16, 8)
        for r in range(repeat):
            order = sorted(range(16), key=lambda i: -float(props[r, i, 4]))
            want[r * 128:(r + 1) * 128] = props[r, order].reshape(-1)
        np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("repeat, mode", [(0, 0), (1, 4), (3, 5), (2, 0), (32, 3)])
def test_proposal_concat_and_extract(dtype, repeat, mode):
    x = np.arange(512).astype(dtype)
    p = (np.arange(4096) % 1000).astype(dtype)
    for kernel in modes(proposal_kernel):
        y = np.full(4096, 9, dtype)
        launch(kernel, x, p, y, repeat, mode, 1)
        want = p.copy().reshape(-1, 8)
        want[:16 * repeat, mode] = x[:16 * repeat]
        np.testing.assert_array_equal(y, want.reshape(-1))
        y = np.full(4096, 9, dtype)
        launch(kernel, x, p, y, repeat, mode, 2)
        want = np.full(4096, 9, dtype)
        want[:16 * repeat] = p.reshape(-1, 8)[:16 * repeat, mode]
        np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("repeat, mode, message", [
    (1, 6, "mode_number 6 is outside \\[0, 5\\]"), (1, -1, "mode_number -1"),
    (256, 0, "repeat_time 256 is outside \\[0, 255\\]")])
def test_proposal_errors(repeat, mode, message):
    x = np.zeros(512, np.float16)
    with pytest.raises(asc.KernelError, match=message):
        launch(proposal_kernel, x, np.zeros(4096, np.float16), np.zeros(4096, np.float16),
               repeat, mode, 2)


# --- get_sort_len / get_sort_offset -------------------------------------------------------

@jit
def len_kernel(y: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(y, 4)
    g.set_value(0, asc.get_sort_len(n))
    g.set_value(1, asc.get_sort_offset(n))
    g.set_value(2, asc.get_sort_len(n, dtype=asc.float16))
    g.set_value(3, asc.get_sort_offset(elem_offset=n, dtype=asc.float16))


@pytest.mark.parametrize("n", [0, 1, 100, (1 << 31)])
def test_get_sort_len_and_offset(n):
    for kernel in modes(len_kernel):
        y = np.zeros(4, np.int64)
        launch(kernel, y, n)
        assert list(y) == [(n * 2) % (1 << 32), (n * 2) % (1 << 32), (n * 4) % (1 << 32),
                           (n * 4) % (1 << 32)]


def test_get_sort_len_dtype_errors():
    @jit
    def k(y: asc.GlobalAddress, which: asc.ConstExpr[int]):
        g = asc.GlobalTensor()
        g.set_global_buffer(y, 1)
        if which == 0:
            g.set_value(0, asc.get_sort_len(4, dtype=asc.int32))
        else:
            g.set_value(0, asc.get_sort_offset(4, dtype=7))

    with pytest.raises(asc.CompileError, match="the sort dtype must be float16 or float32"):
        launch(k, np.zeros(1, np.int64), 0)
    with pytest.raises(asc.CompileError, match="expected a dtype such as pyasc.float32"):
        launch(k, np.zeros(1, np.int64), 1)


def test_get_sort_len_rejects_non_uint32():
    with pytest.raises(asc.KernelError, match="get_sort_len: -1 is not a uint32 value"):
        launch(len_kernel, np.zeros(4, np.int64), -1)


# --- Ascend C -----------------------------------------------------------------------------

def test_ascendc_forms_compile():
    x = np.zeros(2048, np.float16)
    src = sort_kernel.ascendc(x, np.zeros(2048, np.int32), np.zeros(8192, np.float16), 4, 0)
    assert "AscendC::Sort32(" in src
    assert_valid_cpp(src)
    src = sort_kernel.ascendc(x, np.zeros(2048, np.int32), np.zeros(8192, np.float16), 4, 2)
    assert "AscendC::Sort<half, true>(" in src
    assert_valid_cpp(src)
    x = np.zeros(4096, np.float32)
    for form in (0, 1, 2):
        src = merge_kernel.ascendc(x, x.copy(), np.zeros(5, np.int64), 1, 2, 3, 4, 15, 1, form,
                                   True)
        assert ("AscendC::MrgSort4(" if form == 2 else "AscendC::MrgSort(") in src
        assert "AscendC::GetMrgSortResult(" in src and "GetSortOffset<float>" in src
        assert_valid_cpp(src)
    x = np.zeros(512, np.float16)
    for which, api in ((0, "RpSort16"), (1, "ProposalConcat"), (2, "ProposalExtract")):
        src = proposal_kernel.ascendc(x, np.zeros(4096, np.float16), np.zeros(4096, np.float16),
                                      1, 4, which)
        assert f"AscendC::{api}(" in src
        assert_valid_cpp(src)
    assert_valid_cpp(len_kernel.ascendc(np.zeros(4, np.int64), 3))


# --- the static synchronisation check sees what these APIs write --------------------------

@jit
def sync_kernel(x: asc.GlobalAddress, i: asc.GlobalAddress, y: asc.GlobalAddress,
                which: asc.ConstExpr[int], synced: asc.ConstExpr[bool]):
    src = local(x, 0, 64)
    index = local(i, 1024, 64)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2048, 128)
    tmp = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 4096, 128)
    g = asc.GlobalTensor()
    g.set_global_buffer(y, 128)
    if which == 0:
        asc.sort(dst, src, index, tmp, 2, True)
    else:
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.compare(src, src, asc.CMPMODE.LT, 64, asc.BinaryRepeatParams())
        asc.set_cmp_mask(src)
    if synced:
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(g, tmp if which == 0 else src, 64)


def test_sync_check_sees_sort_write_its_tmp():
    kernel = asc.jit(sync_kernel.fn, cache_dir=CACHE, verify_sync=True)
    args = (np.zeros(64, np.float32), np.zeros(64, np.int32), np.zeros(128, np.float32))
    launch(kernel, *args, 0, True)
    with pytest.raises(asc.CompileError, match="read-after-write.*sort"):
        launch(kernel, *args, 0, False)


def test_sync_check_knows_the_register_forms_only_read():
    kernel = asc.jit(sync_kernel.fn, cache_dir=CACHE, verify_sync=True)
    args = (np.zeros(64, np.float32), np.zeros(64, np.int32), np.zeros(128, np.float32))
    launch(kernel, *args, 1, False)  # reads on V, then a read on MTE3: no hazard
