"""Property tests of the img2col loads (load_data with LoadData3DParamsV1,
V2 and V2Pro) and of AIPP (load_image_to_local) with parameters drawn by hypothesis,
every one a run-time argument of one kernel (nothing is rebuilt per
example):

- geometries in the documented ranges give the NumPy model's matrix;
- hostile parameters (zero, negative, huge sizes, strides and pads) never
  crash the process and never write outside the output argument: the
  launch raises a pyasc error naming the line, or runs with its writes
  kept inside the argument, as on the device.

Bounded for make test (max_examples); the ASan+UBSan pass runs a sample of
them (tests/python/conftest.py).
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc as asc
import test_api_aipp as aipp
from test_cube_img2col import ACC, C0, CONV_V2, REGS, _fm, img2col, out_size, zn_image

SETTINGS = settings(max_examples=40, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def geometries(draw):
    """(c1, h, w, pads, stride, kernel, dilation) with at least one output."""
    c1 = draw(st.integers(1, 2))
    kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    dh, dw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    h = draw(st.integers(dh * (kh - 1) + 1, 9))
    w = draw(st.integers(dw * (kw - 1) + 1, 9))
    pads = tuple(draw(st.integers(0, 2)) for _ in range(4))
    stride = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    return c1, h, w, pads, stride, (kh, kw), (dh, dw)


@SETTINGS
@given(geometries(), st.sampled_from([np.float16, np.int8]), st.integers(0, 7))
def test_img2col_geometries_match_the_model(geo, dtype, pad):
    c1, h, w, pads, stride, kernel, dil = geo
    c0 = C0[dtype]
    fm = _fm(np.random.default_rng(h * 16 + w), dtype, c1, h, w)
    ho, wo = out_size(h, w, pads, stride, kernel, dil)
    mext = (ho * wo + 15) // 16 * 16
    kext = min(2 * c0, c1 * kernel[0] * kernel[1] * c0)
    block = img2col(fm, pads, stride, kernel, dil, pad, mext)[:, :kext]
    out = np.zeros((mext, kext), ACC[dtype])
    CONV_V2[1](fm.ravel(), zn_image(np.eye(kext, dtype=dtype), c0), out, c1 * h * w, h, w,
               c1 * c0, kernel[0], kernel[1], stride[0], stride[1], dil[0], dil[1], *pads, mext,
               kext, 0, 0, kext, pad, False, 0)
    np.testing.assert_array_equal(out, block.astype(ACC[dtype]))


HOSTILE = st.one_of(st.integers(-3, 70), st.sampled_from([-(1 << 31), (1 << 16) - 1, 1 << 16,
                                                          (1 << 31) - 1, 1 << 40, -(1 << 62)]))


#: a valid load of the 4 x 4 map (h, w, c, kh, kw, sh, sw, dh, dw, pads, mext,
#: kext, m0, k0), whose fields the hostile test replaces a few at a time
VALID = (4, 4, 16, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 16, 32, 0, 0)


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, len(VALID) - 1), HOSTILE), min_size=1, max_size=3))
def test_img2col_hostile_parameters_fail_cleanly(changes):
    """One to three of h, w, c, kh, kw, strides, dilations, pads, mext, kext,
    m0 and k0 hostile in a valid load: a pyasc error naming the line, or a
    run whose writes keep to the output argument."""
    dtype = np.float16
    fm = _fm(np.random.default_rng(0), dtype, 1, 4, 4)
    other = zn_image(np.eye(32, dtype=dtype), 16)
    guard = np.full(64 * 64 + 256, 7.0, np.float32)  # the output with 128 guard floats each side
    out = guard[128:-128]
    p = list(VALID)
    for index, value in changes:
        p[index] = value
    h, w, c, kh, kw, sh, sw, dh, dw, pl, pr, pt, pb, mext, kext, m0, k0 = p
    try:
        CONV_V2[1](fm.ravel(), other, out, 16, h, w, c, kh, kw, sh, sw, dh, dw, pl, pr, pt, pb,
                   mext, kext, m0, k0, 32, 0, False, 0)
    except (asc.KernelError, asc.InvalidValueError) as err:
        assert "test_cube_img2col.py:" in str(err) or "kernel" in str(err), err
    assert (guard[:128] == 7.0).all() and (guard[-128:] == 7.0).all()


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, len(VALID) - 1), HOSTILE), min_size=1, max_size=3))
def test_img2col_v2pro_hostile_parameters_fail_cleanly(changes):
    """The same fields reaching the load through V2Pro's packed registers
    (ext and cfg words built from them, a V2 load first): an error at the
    line, or writes kept to the output argument."""
    fm = _fm(np.random.default_rng(1), np.float16, 1, 4, 4)
    other = zn_image(np.eye(32, dtype=np.float16), 16)
    guard = np.full(64 * 64 + 256, 7.0, np.float32)
    out = guard[128:-128]
    p = list(VALID)
    for index, value in changes:
        p[index] = value
    h, w, c, kh, kw, sh, sw, dh, dw, pl, pr, pt, pb, mext, kext, m0, k0 = p
    try:
        CONV_V2[1](fm.ravel(), other, out, 16, h, w, c, kh, kw, sh, sw, dh, dw, pl, pr, pt, pb,
                   mext, kext, m0, k0, 32, 0, False, 1)
    except (asc.KernelError, asc.InvalidValueError, OverflowError) as err:
        assert "test_cube_img2col.py:" in str(err) or "kernel" in str(err) or \
            isinstance(err, OverflowError), err
    assert (guard[:128] == 7.0).all() and (guard[-128:] == 7.0).all()


#: a valid V1 load of a 2 x 6 x 7 map (c1, fw, fh, lw, lh, kw, kh, sw, sh, pl, pt,
#: jump, mode, times), whose fields the hostile test replaces a few at a time
VALID_V1 = (1, 1, 0, -1, -1, 3, 2, 2, 1, 1, 1, 1, 0, 4)
V1_NAMES = ("c1", "fw", "fh", "lw", "lh", "kw", "kh", "sw", "sh", "pl", "pt", "jump", "mode",
            "times")


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, len(VALID_V1) - 1), HOSTILE), min_size=1, max_size=3))
def test_img2col_v1_hostile_parameters_fail_cleanly(changes):
    """One to three hostile fields of a valid LoadData3DParamsV1 load: an
    error at the line, or writes kept to the output argument."""
    dtype, c0 = np.float16, 16
    fm = _fm(np.random.default_rng(21), dtype, 2, 6, 7)
    args = dict(zip(V1_NAMES, VALID_V1), boundary=0, rep_times=1, rep_stride=0, rep_mode=0)
    for index, value in changes:
        args[V1_NAMES[index]] = value
    guard = np.full(16 * 64 + 256, 7.0, np.float32)
    out = guard[128:-128]
    try:
        REGS[1](fm.ravel(), zn_image(np.eye(64, dtype=dtype), c0), out, 2 * 6 * 7, 6, 7,
                *args.values(), 16, 64, 64, 0, 16, 0)
    except (asc.KernelError, asc.InvalidValueError, OverflowError) as err:
        assert "test_cube_img2col.py:" in str(err) or "kernel" in str(err) or \
            isinstance(err, OverflowError), err
    assert (guard[:128] == 7.0).all() and (guard[-128:] == 7.0).all()


# --- AIPP: load_image_to_local with hostile crop windows and paddings -------

AIPP_FIELDS = ("horiz_size", "vert_size", "horiz_start_pos", "vert_start_pos", "top", "bot",
               "left", "right", "padding_mode", "is_single_line_copy", "c_padding_mode")


@settings(SETTINGS, max_examples=20)  # each example makes its image: about 0.5 s
@given(st.sampled_from(list(aipp.FORMATS)), st.booleans(),
       st.lists(st.tuples(st.sampled_from(AIPP_FIELDS), HOSTILE), min_size=1, max_size=3))
def test_aipp_hostile_crop_windows_fail_cleanly_or_match_the_model(fmt, int8, changes):
    """One to three crop or padding fields hostile in a valid AIPP
    configuration: a KernelError at the line, or the NumPy model's image
    with nothing written past it."""
    cfg = aipp.case(fmt, int8, 1)
    for name, value in changes:
        cfg[name] = int(np.clip(value, -(1 << 31), (1 << 31) - 1))  # the int32 fields' range
    try:
        c, img, uv = aipp.run(fmt, int8, cfg)
    except asc.KernelError as err:
        assert "test_api_aipp.py:" in str(err), err
        return
    want = aipp.model(fmt, int8, img, uv, cfg)
    np.testing.assert_array_equal(c[:want.size].astype(np.float64), want)
    assert not np.any(c[want.size:])
