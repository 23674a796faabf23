"""AIPP image loads: set_aipp_functions + load_image_to_local against a NumPy
model written from the documented formulas (crop, channel swaps,
colour-space conversion, data-type conversion, padding, channel padding),
for every AippInputFormat, int8 and float16 outputs, plain and checked
mode; their errors name the line; the Ascend C compiles against kernel_operator.h.

L1 is read back through the cube: the loaded image, seen as rows of 32
bytes, is A (M x C0) in L1's NZ layout with one column block; A @ I goes
through L0A/L0B/L0C and fixpipe to global memory, so C's elements are L1's
(float16 -> float32 and int8 -> int32 are exact)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from cube_helpers import cube_queues
from kernel_api_helpers import CACHE, jit
from test_ascendc import assert_valid_cpp

F = asc.AippInputFormat
M = 256  # rows of 32 bytes read back: 8 KiB of L1
#: the integer (I) and float (F) configuration slots the kernel reads
I_NAMES = ("padding_mode", "is_swap_rb", "is_swap_uv", "is_swap_ax", "is_single_line_copy",
           "mean0", "mean1", "mean2", "dtc_round_mode", "c_padding_mode", "is_enable_csc",
           *(f"m{r}{c}" for r in range(3) for c in range(3)), "bin0", "bin1", "bin2",
           "bout0", "bout1", "bout2",
           "horiz_size", "vert_size", "horiz_start_pos", "vert_start_pos", "src_horiz_size",
           "top", "bot", "left", "right")
F_NAMES = ("pv0", "pv1", "pv2", "pv3", "min0", "min1", "min2", "var0", "var1", "var2", "cpad")


@jit
def aipp_kernel(img: asc.GlobalAddress, uv: asc.GlobalAddress, eye: asc.GlobalAddress,
                icfg: asc.GlobalAddress, fcfg: asc.GlobalAddress, c: asc.GlobalAddress,
                fmt: asc.ConstExpr[int], c0: asc.ConstExpr[int], explicit: asc.ConstExpr[int]):
    """The image through the AIPP into A1 (a TQue's tensor, or with explicit
    an explicit LocalTensor at A1 address 0, or at `explicit` bytes past
    L1's end when negative), then C = A @ I to global memory."""
    out_t = asc.int8 if c0 == 32 else asc.float16
    acc_t = asc.int32 if c0 == 32 else asc.float32
    img_gm = asc.GlobalTensor()
    img_gm.set_global_buffer(img)
    uv_gm = asc.GlobalTensor()
    uv_gm.set_global_buffer(uv)
    eye_gm = asc.GlobalTensor()
    eye_gm.set_global_buffer(eye, c0 * c0)
    ic = asc.GlobalTensor()
    ic.set_global_buffer(icfg, 40)
    fc = asc.GlobalTensor()
    fc.set_global_buffer(fcfg, 11)
    c_gm = asc.GlobalTensor()
    c_gm.set_global_buffer(c, M * c0)
    config = asc.AippParams(
        out_t,
        asc.AippPaddingParams(ic.get_value(0), fc.get_value(0), fc.get_value(1), fc.get_value(2),
                              fc.get_value(3)),
        asc.AippSwapParams(ic.get_value(1), ic.get_value(2), ic.get_value(3)),
        asc.AippSingleLineParams(ic.get_value(4)),
        asc.AippDataTypeConvParams(ic.get_value(5), ic.get_value(6), ic.get_value(7),
                                   fc.get_value(4), fc.get_value(5), fc.get_value(6),
                                   fc.get_value(7), fc.get_value(8), fc.get_value(9),
                                   ic.get_value(8)),
        asc.AippChannelPaddingParams(ic.get_value(9), fc.get_value(10)),
        asc.AippColorSpaceConvParams(ic.get_value(10), ic.get_value(11), ic.get_value(12),
                                     ic.get_value(13), ic.get_value(14), ic.get_value(15),
                                     ic.get_value(16), ic.get_value(17), ic.get_value(18),
                                     ic.get_value(19), ic.get_value(20), ic.get_value(21),
                                     ic.get_value(22), ic.get_value(23), ic.get_value(24),
                                     ic.get_value(25)))
    if fmt == 0:
        asc.set_aipp_functions(img_gm, uv_gm, fmt, config)
    else:
        asc.set_aipp_functions(img_gm, fmt, config)
    pipe = asc.TPipe()
    q_a1, q_b1, q_a2, q_b2, q_c = cube_queues(pipe, M * 32, 2048, M * 32, 2048, M * c0 * 4)
    if explicit == 1:
        a1 = asc.LocalTensor(out_t, asc.TPosition.A1, 0, M * 32 // out_t.sizeof())
    elif explicit < 0:
        a1 = asc.LocalTensor(out_t, asc.TPosition.A1, 512 * 1024 - explicit, 64)
    else:
        a1 = q_a1.alloc_tensor(out_t)
    asc.load_image_to_local(a1, asc.LoadImageToLocalParams(
        ic.get_value(26), ic.get_value(27), ic.get_value(28), ic.get_value(29), ic.get_value(30),
        ic.get_value(31), ic.get_value(32), ic.get_value(33), ic.get_value(34)))
    b1 = q_b1.alloc_tensor(out_t)
    asc.data_copy(b1, eye_gm, asc.Nd2NzParams(1, c0, c0, 0, c0, c0, 1, 0))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    a2 = q_a2.alloc_tensor(out_t)
    b2 = q_b2.alloc_tensor(out_t)
    for i in range(M // 16):
        asc.load_data(a2[i * 512 // out_t.sizeof():], a1, asc.LoadData2DParams(i, 1, M // 16, 0, 0,
                                                                                False))
    if c0 == 16:
        asc.load_data(b2, b1, asc.LoadData2DParams(0, 1, 1, 0, 0, True))
    else:
        asc.load_data(b2, b1, asc.LoadData2DParams(0, 2, 1, 0, 0, False))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    c1 = q_c.alloc_tensor(acc_t)
    asc.mmad(c1, a2, b2, asc.MmadParams(M, c0, c0))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.fixpipe(c_gm, c1, asc.FixpipeParamsV220(c0, M, M, c0))


# --- the NumPy model ---------------------------------------------------------------------------


def model(fmt: int, int8: bool, img: np.ndarray, uv: np.ndarray, cfg: dict) -> np.ndarray:
    """L1's elements after load_image_to_local, from the documented formulas."""
    w = cfg["src_horiz_size"]
    rows = 1 if cfg["is_single_line_copy"] else cfg["vert_size"]
    rr = np.arange(cfg["vert_start_pos"], cfg["vert_start_pos"] + rows)[:, None]
    cc = np.arange(cfg["horiz_start_pos"], cfg["horiz_start_pos"] + cfg["horiz_size"])[None, :]
    if fmt == F.YUV420SP_U8:
        y, uvp = img.reshape(-1, w), uv.reshape(-1, w)
        u, v = uvp[rr // 2, cc // 2 * 2], uvp[rr // 2, cc // 2 * 2 + 1]
        if cfg["is_swap_uv"]:
            u, v = v, u
        px = np.stack([y[rr, cc], u, v], -1)
    elif fmt == F.XRGB8888_U8:
        p = img.reshape(-1, w, 4)[rr, cc]
        if cfg["is_swap_rb"]:
            p = p[..., [0, 3, 2, 1]]
        if cfg["is_swap_ax"]:
            p = p[..., [1, 2, 3, 0]]
        px = p[..., :3]
    elif fmt == F.RGB888_U8:
        px = img.reshape(-1, w, 3)[rr, cc]
        if cfg["is_swap_rb"]:
            px = px[..., ::-1]
    else:
        px = img.reshape(-1, w)[rr, cc][..., None]
    px = px.astype(np.int64)
    ch = px.shape[-1]
    if cfg["is_enable_csc"]:
        mat = np.array([[cfg[f"m{r}{c}"] for c in range(3)] for r in range(3)], np.int64)
        bias_in = np.array([cfg[f"bin{i}"] for i in range(3)], np.int64)
        bias_out = np.array([cfg[f"bout{i}"] for i in range(3)], np.int64)
        acc = np.einsum("ij,hwj->hwi", mat, px - bias_in)
        px = np.clip(np.floor_divide(acc, 256) + bias_out, 0, 255)
    mean = np.array([cfg[f"mean{i}"] for i in range(ch)], np.int64)
    if int8:
        out = np.clip(px - mean, -128, 127).astype(np.float64)
    else:
        h = np.float16
        t = (px - mean).astype(h)
        t = t - np.array([cfg[f"min{i}"] for i in range(ch)], np.float32).astype(h)
        out = (t * np.array([cfg[f"var{i}"] for i in range(ch)], np.float32).astype(h))
        out = out.astype(np.float64)
    pads = ((cfg["top"], cfg["bot"]), (cfg["left"], cfg["right"]), (0, 0))
    if cfg["padding_mode"] == 1:
        out = np.pad(out, pads, mode="edge")
    else:
        full = np.empty((rows + cfg["top"] + cfg["bot"], out.shape[1] + cfg["left"] +
                         cfg["right"], ch))
        full[...] = [cfg[f"pv{i}"] for i in range(ch)]
        full[cfg["top"]:cfg["top"] + rows, cfg["left"]:cfg["left"] + out.shape[1]] = out
        out = full
    c0 = 4 if cfg["c_padding_mode"] else (32 if int8 else 16)
    res = np.full(out.shape[:2] + (c0,), float(cfg["cpad"]))
    res[..., :ch] = out
    return res.reshape(-1)


# --- cases --------------------------------------------------------------------------------------

BASE = dict.fromkeys(I_NAMES + F_NAMES, 0)
BASE.update(var0=1.0, var1=1.0, var2=1.0)
#: YUV -> RGB (BT.601, 8 fractional bits) and RGB -> YUV matrices
YUV2RGB = dict(m00=256, m01=0, m02=359, m10=256, m11=-88, m12=-183, m20=256, m21=454, m22=0,
               bin1=128, bin2=128, is_enable_csc=1)
RGB2YUV = dict(m00=77, m01=150, m02=29, m10=-43, m11=-85, m12=128, m20=128, m21=-107,
               m22=-21, bout1=128, bout2=128, is_enable_csc=1)


def case(fmt: int, int8: bool, variant: int) -> dict:
    """A configuration: variant 0 swaps, CSC (3-channel formats), constant
    left/right padding, 32-byte channel padding; variant 1 row/column-copy
    padding on all sides, 4-channel padding, single line or not."""
    cfg = dict(BASE)
    cfg.update(horiz_size=10, vert_size=6, horiz_start_pos=2, vert_start_pos=2,
               src_horiz_size=16)
    if variant == 0:
        cfg.update(is_swap_rb=1, is_swap_uv=1, is_swap_ax=1, left=3, right=2, pv0=5, pv1=-7,
                   pv2=9, cpad=-3 if int8 else 0.5)
        if fmt == F.YUV420SP_U8:
            cfg.update(YUV2RGB)
        elif fmt == F.RGB888_U8:
            cfg.update(RGB2YUV)
    else:
        cfg.update(padding_mode=1, top=2, bot=1, left=1, right=3, c_padding_mode=1, cpad=7,
                   is_swap_ax=1)
        if fmt == F.XRGB8888_U8:
            cfg.update(is_single_line_copy=1)
    if int8:
        cfg.update(mean0=100, mean1=20, mean2=200)
    else:
        cfg.update(mean0=128, mean1=64, mean2=32, min0=-1.5, min1=0.25, min2=3.0,
                   var0=1 / 128, var1=0.0078125, var2=0.01)
    return cfg


def run(fmt: int, int8: bool, cfg: dict, debug: bool = False, explicit: int = 0,
        uv_len: int = 0) -> tuple:
    rng = np.random.default_rng(fmt * 7 + int8)
    h, w = 12, cfg["src_horiz_size"]
    bpp = {F.YUV420SP_U8: 1, F.XRGB8888_U8: 4, F.RGB888_U8: 3, F.YUV400_U8: 1}[fmt]
    img = rng.integers(0, 256, h * w * bpp, dtype=np.uint8)
    uv = rng.integers(0, 256, uv_len or h // 2 * w, dtype=np.uint8)
    c0 = 32 if int8 else 16
    eye = np.eye(c0, dtype=np.int8 if int8 else np.float16)
    icfg = np.array([cfg[n] for n in I_NAMES] + [0] * (40 - len(I_NAMES)), np.int32)
    fcfg = np.array([cfg[n] for n in F_NAMES], np.float32)
    c = np.zeros(M * c0, np.int32 if int8 else np.float32)
    k = asc.jit(aipp_kernel.fn, cache_dir=CACHE, debug=True) if debug else aipp_kernel
    k[1](img, uv, eye, icfg, fcfg, c, int(fmt), c0, explicit)
    return c, img, uv


FORMATS = [F.YUV420SP_U8, F.XRGB8888_U8, F.RGB888_U8, F.YUV400_U8]


@pytest.mark.parametrize("variant", [0, 1])
@pytest.mark.parametrize("int8", [True, False], ids=["int8", "fp16"])
@pytest.mark.parametrize("fmt", FORMATS, ids=[f.name for f in FORMATS])
def test_formats_against_numpy(fmt, int8, variant):
    cfg = case(fmt, int8, variant)
    c, img, uv = run(fmt, int8, cfg)
    want = model(fmt, int8, img, uv, cfg)
    np.testing.assert_array_equal(c[:want.size].astype(np.float64), want)
    assert not np.any(c[want.size:])  # nothing written past the padded image


@pytest.mark.parametrize("fmt", [F.YUV420SP_U8, F.XRGB8888_U8], ids=["YUV420SP", "XRGB"])
def test_checked_mode(fmt):
    cfg = case(fmt, False, 0)
    c, img, uv = run(fmt, False, cfg, debug=True)
    want = model(fmt, False, img, uv, cfg)
    np.testing.assert_array_equal(c[:want.size].astype(np.float64), want)


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_explicit_a1_local_tensor(debug):
    """The documented example's form: an explicit LocalTensor at A1 (the
    AIC's L1, not the Unified Buffer) as dst."""
    cfg = case(F.RGB888_U8, False, 1)
    c, img, uv = run(F.RGB888_U8, False, cfg, debug, explicit=1)
    want = model(F.RGB888_U8, False, img, uv, cfg)
    np.testing.assert_array_equal(c[:want.size].astype(np.float64), want)


def test_explicit_a1_past_l1_is_refused():
    with pytest.raises(asc.KernelError, match="load_image_to_local: dst: offset 524320 is "
                                              "outside L1") as info:
        run(F.RGB888_U8, False, case(F.RGB888_U8, False, 1), explicit=-32)
    assert "test_api_aipp.py:" in str(info.value)


def test_no_swap_keeps_channels():
    """XRGB without swaps keeps X, R, G (the 4th channel drops); int8
    saturates pixel - mean (mean 0) at 127."""
    cfg = dict(BASE, horiz_size=4, vert_size=2, src_horiz_size=4, var0=1.0, var1=1.0, var2=1.0)
    c, img, _ = run(F.XRGB8888_U8, True, cfg)
    got = c[:8 * 32].reshape(8, 32)[:, :3]
    np.testing.assert_array_equal(got, np.minimum(img[:32].reshape(8, 4)[:, :3], 127))


# --- errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("changes,message", [
    (dict(horiz_start_pos=1), "horiz_start_pos must be even"),
    (dict(vert_size=4096), "vert_size is 4096, not in \\[2, 4095\\]"),
    (dict(right=33), "right_pad_size is 33, not in \\[0, 32\\]"),
    (dict(top=1), "constant padding \\(padding_mode 0\\) pads left and right only"),
    (dict(horiz_size=16), "columns 2..17 lie outside the 16-pixel source width"),
    (dict(vert_size=12), "rows 2..13 of the image lie outside its global memory"),
    (dict(padding_mode=2), "padding_mode 2 \\(block copy\\) is not simulated"),
    (dict(is_swap_rb=2), "is_swap_rb is 2, not an integer in \\[0, 1\\]"),
    (dict(mean0=256), "dtc_mean is 256"),
    (dict(m11=40000), "a csc_matrix entry is 40000"),
    (dict(pv0=200), "a padding_value is 200, not an integer in \\[-128, 127\\]"),
], ids=lambda x: str(x)[:24])
def test_runtime_errors_name_the_line(changes, message):
    cfg = case(F.RGB888_U8, True, 0)
    cfg.update(changes)
    with pytest.raises(asc.KernelError, match=message) as info:
        run(F.RGB888_U8, True, cfg)
    assert "test_api_aipp.py:" in str(info.value)


def test_writing_past_its_l1_tensor_is_reported_in_checked_mode():
    """The image lands in L1 past the tensor: the hardware writes on into
    L1, so the default mode does; checked mode holds it to the tensor."""
    cfg = case(F.RGB888_U8, True, 0)
    cfg.update(horiz_size=16, horiz_start_pos=0, left=32, right=32, vert_size=10)
    with pytest.raises(asc.KernelError, match="needs 25600 bytes") as info:
        run(F.RGB888_U8, True, cfg, debug=True)
    assert "test_api_aipp.py:" in str(info.value)
    run(F.RGB888_U8, True, cfg)


@pytest.mark.parametrize("uv_len,ok", [(59, False), (60, True)])
def test_uv_plane_bound_covers_the_last_pair(uv_len, ok):
    """An odd crop width ending on an even column still reads that pixel's
    V byte: 60 bytes of UV plane are needed, 59 are refused."""
    cfg = dict(case(F.YUV420SP_U8, True, 0), horiz_size=9)
    if ok:
        c, img, uv = run(F.YUV420SP_U8, True, cfg, uv_len=uv_len)
        want = model(F.YUV420SP_U8, True, img, np.pad(uv, (0, 96 - uv_len)), cfg)
        np.testing.assert_array_equal(c[:want.size].astype(np.float64), want)
    else:
        with pytest.raises(asc.KernelError, match="rows 2..7 of the image lie outside"):
            run(F.YUV420SP_U8, True, cfg, uv_len=uv_len)


def test_yuv400_refuses_csc():
    cfg = dict(case(F.YUV400_U8, True, 0), is_enable_csc=1)
    with pytest.raises(asc.KernelError, match="YUV400_U8 has one channel"):
        run(F.YUV400_U8, True, cfg)


@jit
def misuse_kernel(img: asc.GlobalAddress, case: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(img)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.A1, 1)
    pipe.init_buffer(q, 1, 4096)
    a1 = q.alloc_tensor(asc.float16)
    params = asc.LoadImageToLocalParams(4, 4, 0, 0, 4)
    if case == 0:
        asc.load_image_to_local(a1, params)  # no set_aipp_functions
    elif case == 1:
        asc.set_aipp_functions(g, asc.AippInputFormat.RGB888_U8, asc.AippParams(asc.int8))
        asc.load_image_to_local(a1, params)
    elif case == 2:
        asc.set_aipp_functions(g[1:], asc.AippInputFormat.XRGB8888_U8,
                               asc.AippParams(asc.float16))
    elif case == 3:
        asc.set_aipp_functions(g[1:], g, asc.AippInputFormat.YUV420SP_U8,
                               asc.AippParams(asc.float16))


@pytest.mark.parametrize("case,message", [
    (0, "call set_aipp_functions first"),
    (1, "dst's dtype differs from the AippParams dtype"),
    (2, "src0 must be 4-byte aligned"),
    (3, "src0 must be 2-byte aligned"),
])
def test_state_and_alignment_errors(case, message):
    with pytest.raises(asc.KernelError, match=message) as info:
        misuse_kernel[1](np.zeros(4096, np.uint8), case)
    assert "test_api_aipp.py:" in str(info.value)


@jit
def compile_error_kernel(img: asc.GlobalAddress, case: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(img)
    cfg = asc.AippParams(asc.float16)
    if case == 0:
        asc.set_aipp_functions(g, asc.AippInputFormat.YUV420SP_U8, cfg)
    elif case == 1:
        asc.set_aipp_functions(g, g, asc.AippInputFormat.RGB888_U8, cfg)
    elif case == 2:
        asc.set_aipp_functions(g, 3, cfg)
    elif case == 3:
        asc.set_aipp_functions(g, asc.AippInputFormat.RGB888_U8, asc.AippParams(asc.float32))
    elif case == 4:
        t = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 1024)
        asc.load_image_to_local(t, asc.LoadImageToLocalParams())
    elif case == 5:
        t = asc.LocalTensor(asc.float32, asc.TPosition.A1, 0, 1024)
        asc.load_image_to_local(t, asc.LoadImageToLocalParams())
    elif case == 6:
        t = asc.LocalTensor(asc.float16, asc.TPosition.A1, 0, 1024)
        asc.load_image_to_local(t, asc.DataCopyParams())
    elif case == 7:
        asc.set_aipp_functions(g, asc.AippInputFormat.RGB888_U8,
                               asc.AippParams(asc.int8, swap_params=asc.AippPaddingParams()))
    else:
        asc.AippSwapParams(is_swap_rb="yes")


@pytest.mark.parametrize("case,message", [
    (0, "YUV420SP_U8 takes src0 and src1"),
    (1, "YUV420SP_U8 takes src0 and src1"),
    (2, "input_format must be a pyasc.AippInputFormat"),
    (3, "AippParams dtype must be pyasc.int8 or pyasc.float16"),
    (4, "it must be at A1 or B1"),
    (5, "dst is float32; it must be int8 or float16"),
    (6, "load_data_params must be a pyasc.LoadImageToLocalParams"),
    (7, "swap_params must be a pyasc.AippSwapParams"),
    (8, "is_swap_rb must be a number"),
])
def test_compile_errors(case, message):
    with pytest.raises(asc.CompileError, match=message) as info:
        compile_error_kernel[1](np.zeros(64, np.uint8), case)
    assert "test_api_aipp.py" in str(info.value)


# --- Ascend C ------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt,c0", [(F.YUV420SP_U8, 16), (F.RGB888_U8, 32)])
def test_ascendc_passes_gxx(fmt, c0):
    args = (np.zeros(256, np.uint8), np.zeros(128, np.uint8),
            np.zeros(c0 * c0, np.int8 if c0 == 32 else np.float16), np.zeros(40, np.int32),
            np.zeros(11, np.float32), np.zeros(M * c0, np.int32 if c0 == 32 else np.float32),
            int(fmt), c0, 0)
    src = aipp_kernel.ascendc(*args)
    assert "AscendC::SetAippFunctions(" in src and "AscendC::LoadImageToLocal(" in src
    assert ("AscendC::AippInputFormat::YUV420SP_U8" in src) == (fmt == F.YUV420SP_U8)
    assert "pyasc_aipp.cscParams.cscBiasOut2 = " in src
    assert "pyasc_load.rightPadSize = " in src
    assert_valid_cpp(src)
