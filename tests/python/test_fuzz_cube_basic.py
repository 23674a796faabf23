"""Property tests of the basic cube APIs with parameters drawn by hypothesis,
every one a run-time argument of one kernel (nothing is rebuilt per example):
load_data (LoadData2DParams), mmad (MmadParams) and fixpipe
(FixpipeParamsV220) of a 32 x 32 fp16 tile.

- The valid parameters give NumPy's product.
- One to three hostile fields (zero, negative, huge) never crash the process
  and never write outside the output argument: the launch raises a pyasc
  error naming the line, or runs with its writes kept inside the output, as
  on the device (guard floats on both sides are checked).

Bounded for make test (max_examples); the ASan+UBSan pass runs a sample of
them (tests/python/conftest.py).
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc as asc
from cube_helpers import cube_queues, gm_abc_sized

SETTINGS = settings(max_examples=40, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@asc.jit
def tile_fuzz_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                     ld_start: int, ld_repeat: int, ld_stride: int, ld_gap: int, m: int, n: int,
                     k: int, fp_n: int, fp_m: int, fp_src_stride: int, fp_dst_stride: int):
    """C (32 x 32 float32) = A @ B with every load_data, mmad and fixpipe
    field from the arguments (the valid ones: 0, 2, 2, 0, 32 x 3, 32 x 4)."""
    a_gm, b_gm, c_gm = gm_abc_sized(a, b, c, 1024)
    pipe = asc.TPipe()
    q_a1, q_b1, q_a2, q_b2, q_c = cube_queues(pipe, 2048, 2048, 2048, 2048, 4096)
    a1 = q_a1.alloc_tensor(asc.float16)
    b1 = q_b1.alloc_tensor(asc.float16)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0))
    a2 = q_a2.alloc_tensor(asc.float16)
    b2 = q_b2.alloc_tensor(asc.float16)
    for i in range(2):
        asc.load_data(a2[i * 512:], a1,
                      asc.LoadData2DParams(ld_start + i, ld_repeat, ld_stride, 0, ld_gap, False))
        asc.load_data(b2[i * 512:], b1, asc.LoadData2DParams(i, 2, 2, 0, 0, True))
    c1 = q_c.alloc_tensor(asc.float32)
    asc.mmad(c1, a2, b2, asc.MmadParams(m, n, k))
    asc.fixpipe(c_gm, c1, asc.FixpipeParamsV220(fp_n, fp_m, fp_src_stride, fp_dst_stride), 0)


#: the valid fields, in the kernel's order
VALID = (0, 2, 2, 0, 32, 32, 32, 32, 32, 32, 32)
HOSTILE = st.one_of(st.integers(-3, 70), st.sampled_from([-(1 << 31), (1 << 16) - 1, 1 << 16,
                                                          (1 << 31) - 1, 1 << 40, -(1 << 62)]))


def _inputs():
    rng = np.random.default_rng(5)
    a = rng.integers(-4, 4, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 4, (32, 32)).astype(np.float16)
    return a, b


def test_valid_fields_give_the_product():
    a, b = _inputs()
    c = np.zeros((32, 32), np.float32)
    tile_fuzz_kernel[1](a, b, c, *VALID)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, len(VALID) - 1), HOSTILE), min_size=1, max_size=3))
def test_hostile_fields_fail_cleanly(changes):
    a, b = _inputs()
    guard = np.full(32 * 32 + 256, 7.0, np.float32)  # the output with 128 guard floats each side
    out = guard[128:-128]
    p = list(VALID)
    for index, value in changes:
        p[index] = value
    try:
        tile_fuzz_kernel[1](a, b, out, *p)
    except (asc.KernelError, asc.InvalidValueError) as err:
        assert "test_fuzz_cube_basic.py:" in str(err) or "kernel" in str(err), err
    assert (guard[:128] == 7.0).all() and (guard[-128:] == 7.0).all()
