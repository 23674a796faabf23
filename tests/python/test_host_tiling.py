"""Host matmul tiling (pyasc.host, PyAsc's asc.lib.host): hand-computed
tilings, a property test that every tiling fits every buffer and covers the
matmul, the call sequences of PyAsc's matmul tutorials (03, 04, 05) and of
its host unit tests, error cases, and the TCubeTiling struct as a kernel
argument."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc as asc
import pyasc.host as host
from pyasc.language.adv_tiling import TCubeTiling

DT = host.DataType
POS = host.TPosition
FMT = host.CubeFormat
#: bits of an element (DT_INT4: two a byte)
BITS = {DT.DT_FLOAT16: 16, DT.DT_BF16: 16, DT.DT_FLOAT: 32, DT.DT_INT8: 8, DT.DT_INT32: 32,
        DT.DT_INT4: 4}
#: (A/B type, C type, bias type) per input type the property test draws.
TYPES = {
    DT.DT_FLOAT16: (DT.DT_FLOAT, DT.DT_FLOAT),
    DT.DT_BF16: (DT.DT_FLOAT, DT.DT_FLOAT),
    DT.DT_FLOAT: (DT.DT_FLOAT, DT.DT_FLOAT),
    DT.DT_INT8: (DT.DT_INT32, DT.DT_INT32),
    DT.DT_INT4: (DT.DT_INT32, DT.DT_INT32),
}


def make(cls=host.MatmulApiTiling, dtype=DT.DT_FLOAT16, c=DT.DT_FLOAT, shape=None,
         trans_a=False, trans_b=False):
    t = cls(host.get_ascendc_platform())
    t.set_a_type(POS.GM, FMT.ND, dtype, trans_a)
    t.set_b_type(POS.GM, FMT.ND, dtype, trans_b)
    t.set_c_type(POS.GM, FMT.ND, c)
    if shape is not None:
        t.set_shape(*shape)
    return t


def tile(t) -> TCubeTiling:
    out = TCubeTiling()
    assert t.get_tiling(out) == 0
    return out


# --- the struct ------------------------------------------------------------------------

#: PyAsc's TCubeTiling members in order (asc.language.adv.tiling), with the
#: Ascend C member names.
UPSTREAM_FIELDS = [
    ("used_core_num", "usedCoreNum"), ("m", "M"), ("n", "N"), ("k_a", "Ka"), ("k_b", "Kb"),
    ("single_core_m", "singleCoreM"), ("single_core_n", "singleCoreN"),
    ("single_core_k", "singleCoreK"), ("base_m", "baseM"), ("base_n", "baseN"),
    ("base_k", "baseK"), ("depth_a1", "depthA1"), ("depth_b1", "depthB1"),
    ("step_m", "stepM"), ("step_n", "stepN"), ("is_bias", "isBias"),
    ("trans_length", "transLength"), ("iterate_order", "iterateOrder"),
    ("share_mode", "shareMode"), ("share_l1_size", "shareL1Size"),
    ("share_l0c_size", "shareL0CSize"), ("share_ub_size", "shareUbSize"),
    ("batch_m", "batchM"), ("batch_n", "batchN"), ("single_batch_m", "singleBatchM"),
    ("single_batch_n", "singleBatchN"), ("step_k_a", "stepKa"), ("step_k_b", "stepKb"),
    ("depth_a_l1_cache_ub", "depthAL1CacheUB"), ("depth_b_l1_cache_ub", "depthBL1CacheUB"),
    ("db_l0a", "dbL0A"), ("db_l0b", "dbL0B"), ("db_l0c", "dbL0C"),
    *[(f"{o.lower()}_layout_info_{a.lower()}", f"{o}LayoutInfo{a}")
      for o, axes in (("A", "BSNGD"), ("B", "BSNGD")) for a in axes],
    *[(f"c_layout_info_{a.lower()}", f"CLayoutInfo{a}") for a in ("B", "S1", "N", "G", "S2")],
    ("batch_num", "BatchNum"),
]


def test_tcube_tiling_has_upstreams_fields_in_order():
    assert [(n, f.name) for n, f in TCubeTiling.leaves()] == UPSTREAM_FIELDS
    assert all(f.type_name == "int32" for _, f in TCubeTiling.leaves())
    assert TCubeTiling().pack() == bytes(4 * len(UPSTREAM_FIELDS))
    assert host.TCubeTiling is TCubeTiling


# --- hand-computed tilings ---------------------------------------------------------------


# The exact tilings (Ascend C's choices, traced by hand) are in test_tiling_cann.py.


def test_smaller_l1_means_fewer_k_steps():
    t = make(shape=(1024, 1024, 1024))
    t.set_buffer_space(64 * 1024)
    r = tile(t)
    assert r.share_l1_size <= 64 * 1024
    assert r.step_k_a < 5


def test_single_precision_and_transposes_fit():
    r = tile(make(dtype=DT.DT_FLOAT, shape=(1024, 1024, 1024), trans_a=True, trans_b=True))
    assert r.base_m * r.base_k * 4 * r.db_l0a <= 64 * 1024
    assert r.base_k % 16 == 0


def test_batch_fields():
    t = make(host.BatchMatmulTiling)
    t.set_batch_info_for_normal(3, 3, 32, 256, 64)
    r = tile(t)
    assert (r.batch_m, r.batch_n, r.single_batch_m, r.single_batch_n) == (3, 3, 3, 3)
    assert r.batch_num == 3
    assert t.get_core_num() == (1, 1, 1, 1, 1)
    # batches that do not fit L1 together are halved: 8 x 32 KiB of A and
    # 8 x 64 KiB of B do not fit 512 KiB, 4 and 4 do
    t.set_batch_info_for_normal(8, 8, 128, 256, 128)
    r = tile(t)
    assert (r.single_batch_m, r.single_batch_n, r.batch_num) == (4, 4, 8)
    # one batch that does not fit L1 whole is computed block by block
    t.set_batch_info_for_normal(8, 8, 512, 512, 512)
    assert (tile(t).single_batch_m, tile(t).single_batch_n) == (1, 1)


# --- every tiling fits and covers (property) ---------------------------------------------


def check_tiling(r, *, m, n, k, dim, dtype, bias, trans_a, trans_b, props):
    """What every tiling of the search guarantees (see docs/host-tiling.md)."""
    bits = BITS[dtype]
    k_align = 256 // bits  # C0: 32 bytes of K
    # fractal-aligned base blocks
    assert r.base_m % 16 == 0 and r.base_n % 16 == 0 and r.base_k % k_align == 0
    assert r.db_l0a in (1, 2) and r.db_l0b in (1, 2) and r.db_l0c == 1
    # the L0 buffers
    assert r.base_m * r.base_k * bits // 8 * r.db_l0a <= props.l0a_size
    assert r.base_n * r.base_k * bits // 8 * r.db_l0b <= props.l0b_size
    assert r.base_m * r.base_n * 4 * r.db_l0c <= props.l0c_size
    assert r.share_l0c_size == r.base_m * r.base_n * 4
    # L1: the cached A and B blocks and one bias row; K steps nest
    assert r.step_k_a >= 1 and r.step_k_b >= 1 and r.step_m >= 1 and r.step_n >= 1
    assert max(r.step_k_a, r.step_k_b) % min(r.step_k_a, r.step_k_b) == 0
    assert r.depth_a1 in (r.step_m * r.step_k_a, 2 * r.step_m * r.step_k_a)
    if dtype != DT.DT_FLOAT:  # float B may lower depthB1 to fit L1
        assert r.depth_b1 in (r.step_n * r.step_k_b, 2 * r.step_n * r.step_k_b)
    bias_bytes = r.base_n * 4 if bias else 0
    l1 = (r.depth_a1 * r.base_m * r.base_k + r.depth_b1 * r.base_n * r.base_k) * bits // 8 + bias_bytes
    assert l1 == r.share_l1_size <= props.l1_size
    if bias:
        assert r.base_n * 4 <= 1024  # the BiasTable
    # the original shape, and per-core tiles that cover it exactly
    assert (r.m, r.n, r.k_a, r.k_b, r.is_bias) == (m, n, k, k, int(bias))
    assert r.single_core_k == k

    def up(v, a):
        return -(-v // a) * a
    assert 1 <= r.single_core_m <= up(m, 16) and 1 <= r.single_core_n <= up(n, 16)
    m_cores, n_cores = math.ceil(m / r.single_core_m), math.ceil(n / r.single_core_n)
    assert r.used_core_num == m_cores * n_cores <= dim


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=st.integers(1, 4096), n=st.integers(1, 4096), k=st.integers(1, 4096),
       dim=st.integers(1, 24), dtype=st.sampled_from(sorted(TYPES)), bias=st.booleans(),
       trans_a=st.booleans(), trans_b=st.booleans(), multi=st.booleans())
def test_every_tiling_fits_and_covers(m, n, k, dim, dtype, bias, trans_a, trans_b, multi):
    c, bias_type = TYPES[dtype]
    cls = host.MultiCoreMatmulTiling if multi else host.MatmulApiTiling
    t = make(cls, dtype, c, (m, n, k), trans_a, trans_b)
    t.set_bias_type(POS.GM, FMT.ND, bias_type)
    t.set_org_shape(m, n, k)
    t.enable_bias(bias)
    if multi:
        t.set_dim(dim)
    r = tile(t)
    check_tiling(r, m=m, n=n, k=k, dim=dim if multi else 1, dtype=dtype, bias=bias,
                 trans_a=trans_a, trans_b=trans_b, props=asc.get_device_properties())
    assert (t.get_base_m(), t.get_base_n(), t.get_base_k()) == (r.base_m, r.base_n, r.base_k)


@pytest.mark.parametrize("n,k,dim", [(32, 64, 1), (4096, 1000, 24), (200, 8192, 8)])
def test_gemv_vector_a_fits_and_covers(n, k, dim):
    """A GEMV's A (1 x K, CubeFormat.VECTOR) is tiled as any A that is not ND."""
    t = make(host.MultiCoreMatmulTiling, shape=(1, n, k))
    t.set_a_type(POS.GM, FMT.VECTOR, DT.DT_FLOAT16)
    t.set_org_shape(1, n, k)
    t.set_dim(dim)
    r = tile(t)
    check_tiling(r, m=1, n=n, k=k, dim=dim, dtype=DT.DT_FLOAT16, bias=False, trans_a=False,
                 trans_b=False, props=asc.get_device_properties())


# --- PyAsc's tutorials and host tests, as written there -----------------------------------


def tutorial_03_generate_tiling(m, n, k):  # 03_matmul_mix
    matmul_tiling = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    matmul_tiling.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    matmul_tiling.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    matmul_tiling.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    matmul_tiling.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    matmul_tiling.set_dim(48)
    matmul_tiling.set_org_shape(m, n, k)
    matmul_tiling.set_shape(m, n, k)
    matmul_tiling.enable_bias(False)
    matmul_tiling.set_buffer_space(-1, -1, -1)
    tiling = TCubeTiling()
    matmul_tiling.get_tiling(tiling)
    return tiling


def tutorial_04_generate_tiling(m, n, k):  # 04_matmul_cube_only
    matmul_tiling = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    matmul_tiling.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    matmul_tiling.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    matmul_tiling.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    matmul_tiling.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    matmul_tiling.set_dim(24)
    matmul_tiling.set_org_shape(m, n, k)
    matmul_tiling.set_shape(m, n, k)
    matmul_tiling.enable_bias(True)
    matmul_tiling.set_buffer_space(-1, -1, -1)
    tiling = TCubeTiling()
    matmul_tiling.get_tiling(tiling)
    return tiling


def tutorial_05_generate_tiling(m, n, k):  # 05_matmul_leakyrelu
    matmul_tiling = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    matmul_tiling.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    matmul_tiling.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    matmul_tiling.set_c_type(host.TPosition.VECCALC, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    matmul_tiling.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    matmul_tiling.set_dim(2)
    matmul_tiling.set_org_shape(m, n, k)
    matmul_tiling.set_shape(m, n, k)
    matmul_tiling.enable_bias(True)
    matmul_tiling.set_traverse(host.MatrixTraverse.FIRSTM)
    matmul_tiling.set_fix_split(256, 128, -1)
    matmul_tiling.set_buffer_space(-1, -1, -1)
    tiling = TCubeTiling()
    matmul_tiling.get_tiling(tiling)
    return tiling


def tutorial_offsets(tiling, block_idx):
    """The tutorials' calc_offsets: which output tile a block computes."""
    m_single_blocks = -(-tiling.m // tiling.single_core_m)
    m_index, n_index = block_idx % m_single_blocks, block_idx // m_single_blocks
    tail_m = min(tiling.m - m_index * tiling.single_core_m, tiling.single_core_m)
    tail_n = min(tiling.n - n_index * tiling.single_core_n, tiling.single_core_n)
    return m_index * tiling.single_core_m, n_index * tiling.single_core_n, tail_m, tail_n


@pytest.mark.parametrize("generate,shape,dim", [
    (tutorial_03_generate_tiling, (512, 1024, 512), 48),
    (tutorial_04_generate_tiling, (512, 1024, 512), 24),
    (tutorial_05_generate_tiling, (1024, 640, 256), 2),
])
def test_tutorials_blocks_cover_the_output_once(generate, shape, dim):
    m, n, k = shape
    tiling = generate(m, n, k)
    assert 1 <= tiling.used_core_num <= dim
    covered = np.zeros((m, n), dtype=np.int32)
    for block in range(tiling.used_core_num):
        r0, c0, tm, tn = tutorial_offsets(tiling, block)
        assert tm > 0 and tn > 0
        covered[r0:r0 + tm, c0:c0 + tn] += 1
    assert (covered == 1).all()
    check_tiling(tiling, m=m, n=n, k=k, dim=dim, dtype=DT.DT_FLOAT16, bias=bool(tiling.is_bias),
                 trans_a=False, trans_b=False, props=asc.get_device_properties())


def test_tutorial_05_rounds_fit_its_unified_buffer():
    tiling = tutorial_05_generate_tiling(1024, 640, 256)
    assert (tiling.base_m, tiling.base_n) == (256, 128)
    # the kernel allocates base_m * base_n float32 in UB and walks single_core_m // base_m rows
    assert tiling.base_m * tiling.base_n * 4 <= asc.get_device_properties().ub_size
    assert tiling.single_core_m % tiling.base_m == 0


@pytest.mark.parametrize("cls", [host.MatmulApiTiling, host.MultiCoreMatmulTiling,
                                 host.BatchMatmulTiling])
def test_upstream_host_unit_tests(cls):
    platform = host.PlatformAscendCManager.get_instance("Ascend910B1")
    t = cls(platform)
    t.set_shape(32, 32, 32)
    assert t.get_tiling(TCubeTiling()) == 0
    assert t.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT, False) == 0
    assert t.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT, False) == 0
    assert t.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT) == 0
    assert t.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT) == 0
    assert t.set_buffer_space(-1, -1, -1) == 0
    assert t.set_traverse(host.MatrixTraverse.FIRSTM) == 0
    assert t.set_mad_type(host.MatrixMadType.NORMAL) == 0
    assert t.set_split_range(32, 32, 32, 16, 16, 16) == 0
    assert t.set_double_buffer(True, True, True, True, True) == 0
    assert t.set_dequant_type(host.DequantType.SCALAR) == 0
    assert t.set_sparse(False) == 0
    assert t.enable_bias(True) == 0
    assert t.set_matmul_config_params(1, False, host.ScheduleType.OUTER_PRODUCT,
                                      host.MatrixTraverse.FIRSTM) is None
    assert t.set_matmul_config_params(host.MatmulConfigParams(
        1, False, host.ScheduleType.OUTER_PRODUCT, host.MatrixTraverse.FIRSTM, False)) is None
    assert t.get_tiling(TCubeTiling()) == 0

    t = cls(platform)
    assert t.set_org_shape(32, 16, 8, 4) == 0
    r = tile(t)
    assert (r.m, r.n, r.k_a, r.k_b) == (32, 16, 8, 4)
    t = cls(platform)
    assert t.set_shape(32, 16, 8) == 0
    assert t.set_fix_split(32, 16, 8) == 0
    assert (t.get_base_m(), t.get_base_n(), t.get_base_k()) == (32, 16, 8)
    r = tile(t)
    assert (r.m, r.n, r.k_a, r.k_b, r.base_m, r.base_n, r.base_k) == (32, 16, 8, 8, 32, 16, 8)
    for setter, prefix, names in ((t.set_a_layout, "a", "bsngd"), (t.set_b_layout, "b", "bsngd"),
                                  (t.set_c_layout, "c", ("b", "s1", "n", "g", "s2"))):
        assert setter(2, 32, 1, 3, 64) == 0
        r = tile(t)
        assert [getattr(r, f"{prefix}_layout_info_{a}") for a in names] == [2, 32, 1, 3, 64]
    assert t.set_batch_num(3) == 0
    assert tile(t).batch_num == 3


def test_upstream_multi_core_unit_tests():
    platform = host.get_ascendc_platform()
    t = host.MultiCoreMatmulTiling(platform)
    t.set_shape(32, 16, 8)
    assert t.get_core_num() is None and t.get_single_shape() is None
    assert t.set_dim(1) == 0
    assert tile(t).used_core_num == 1
    assert t.get_core_num() == (1, 1, 1)
    t = host.MultiCoreMatmulTiling(platform)
    t.set_shape(32, 32, 32)
    assert t.set_single_shape(32, 16, 8) == 0
    r = tile(t)
    assert (r.single_core_m, r.single_core_n, r.single_core_k) == (32, 16, 8)
    assert t.get_single_shape() == (32, 16, 8)
    assert t.set_single_range(32, 32, 32, 16, 16, 16) == 0
    assert t.set_align_split(32, 32, 32) == 0
    assert t.enable_multi_core_split_k(True) is None


def test_platform_reports_the_device():
    props = asc.get_device_properties()
    p = host.get_ascendc_platform()
    assert p.get_core_num_aic() == props.cube_core_count
    assert p.get_core_num_aiv() == p.get_core_num() == props.ai_core_count
    mem = host.CoreMemType
    assert [p.get_core_mem_size(x) for x in (mem.L0_A, mem.L0_B, mem.L0_C, mem.L1, mem.UB)] == \
        [props.l0a_size, props.l0b_size, props.l0c_size, props.l1_size, props.ub_size]
    assert p.get_soc_version() == props.name
    with pytest.raises(asc.UnsupportedError, match="L2"):
        p.get_core_mem_size(mem.L2)
    with pytest.raises(asc.InvalidValueError, match="CoreMemType"):
        p.get_core_mem_size(99)


def test_platform_follows_configured_buffers():
    props = asc.get_device_properties()
    try:
        asc.configure_device(l0c_size=64 * 1024)
        r = tile(make(host.MatmulApiTiling, shape=(1024, 1024, 1024)))
        assert r.base_m * r.base_n * 4 * r.db_l0c <= 64 * 1024
    finally:
        asc.configure_device(l0c_size=props.l0c_size)


# --- errors ------------------------------------------------------------------------------


@pytest.mark.parametrize("shape,match", [
    ((0, 16, 16), r"M=0 must be in \[1, 2147483647\]"),
    ((16, -3, 16), "N=-3"),
    ((16, 16, 2**31), "int32"),
])
def test_bad_dimensions(shape, match):
    t = make()
    with pytest.raises(asc.InvalidValueError, match=match):
        t.set_shape(*shape)
    with pytest.raises(asc.InvalidValueError, match="org"):
        t.set_org_shape(*shape)


def test_no_shape():
    with pytest.raises(asc.InvalidValueError, match="no shape"):
        make().get_tiling(TCubeTiling())


@pytest.mark.parametrize("a,b,c,bias,match", [
    (DT.DT_FLOAT16, DT.DT_INT8, DT.DT_FLOAT, None, "A is DT_FLOAT16 but B is DT_INT8"),
    (DT.DT_INT8, DT.DT_INT8, DT.DT_FLOAT, None, "DT_INT8 inputs cannot produce a DT_FLOAT C"),
    (DT.DT_FLOAT, DT.DT_FLOAT, DT.DT_FLOAT, DT.DT_FLOAT16, "cannot take a DT_FLOAT16 bias"),
    (DT.DT_INT32, DT.DT_INT32, DT.DT_INT32, None, "does not multiply DT_INT32"),
])
def test_type_combinations(a, b, c, bias, match):
    t = host.MatmulApiTiling()
    t.set_a_type(POS.GM, FMT.ND, a)
    t.set_b_type(POS.GM, FMT.ND, b)
    t.set_c_type(POS.GM, FMT.ND, c)
    t.set_shape(64, 64, 64)
    if bias is not None:
        t.set_bias_type(POS.GM, FMT.ND, bias)
        t.enable_bias(True)
    with pytest.raises(asc.DTypeError, match=match):
        t.get_tiling(TCubeTiling())
    if bias is not None:  # the same types without the bias are fine
        t.enable_bias(False)
        assert t.get_tiling(TCubeTiling()) == 0


def test_bad_types_positions_formats():
    t = make(shape=(64, 64, 64))
    with pytest.raises(asc.DTypeError, match="DataType 11 is not a cube-unit type"):
        t.set_a_type(POS.GM, FMT.ND, DT.DT_DOUBLE)
    with pytest.raises(asc.UnsupportedError, match="TSCM"):
        t.set_b_type(POS.TSCM, FMT.ND, DT.DT_FLOAT16)
    with pytest.raises(asc.InvalidValueError, match="TPosition 2"):
        t.set_a_type(POS.A2, FMT.ND, DT.DT_FLOAT16)
    with pytest.raises(asc.UnsupportedError, match="B in CubeFormat 7"):
        t.set_b_type(POS.GM, FMT.VECTOR, DT.DT_FLOAT16)
    with pytest.raises(asc.UnsupportedError, match="bias in CubeFormat 1"):
        t.set_bias_type(POS.GM, FMT.NZ, DT.DT_FLOAT)
    t.set_a_type(POS.GM, FMT.NZ, DT.DT_FLOAT16)
    t.set_shape(60, 64, 64)
    with pytest.raises(asc.InvalidValueError, match="NZ A needs M a multiple of 16"):
        t.get_tiling(TCubeTiling())
    with pytest.raises(TypeError):
        host.MatmulApiTiling("Ascend910B1")
    with pytest.raises(TypeError):
        t.set_sparse(True, False)


def test_set_sparse_changes_the_tiling_and_can_be_undone():
    """set_sparse(True) rounds baseK to a multiple of 64; False gives back the dense tiling."""
    def tiling(sparse: bool | None) -> TCubeTiling:
        t = make(shape=(16, 16, 16))
        if sparse is not None:
            assert t.set_sparse(sparse) == 0
        r = TCubeTiling()
        assert t.get_tiling(r) == 0
        return r
    dense, sparse = tiling(None), tiling(True)
    assert dense.base_k == 16 and sparse.base_k == 64
    assert sparse.base_k % 64 == 0
    undone = tiling(False)
    assert [getattr(undone, f) for f in ("base_m", "base_n", "base_k", "depth_a1", "depth_b1")] == \
        [getattr(dense, f) for f in ("base_m", "base_n", "base_k", "depth_a1", "depth_b1")]
    # a context set sparse after a first tiling tiles anew
    t = make(shape=(16, 16, 16))
    r = TCubeTiling()
    assert t.get_tiling(r) == 0 and r.base_k == 16
    assert t.set_sparse(True) == 0
    assert t.get_tiling(r) == 0 and r.base_k == 64


def test_impossible_buffers_name_the_buffer():
    t = make(shape=(1024, 1024, 1024))
    with pytest.raises(asc.InvalidValueError, match="l1_size=1073741824 .*device"):
        t.set_buffer_space(2**30)
    with pytest.raises(asc.InvalidValueError, match="l0_c_size=0"):
        t.set_buffer_space(-1, 0)
    t.set_buffer_space(1000)
    with pytest.raises(asc.InvalidValueError, match="L1"):
        t.get_tiling(TCubeTiling())
    t.set_buffer_space(-1)
    t.set_fix_split(512, 512, -1)
    with pytest.raises(asc.InvalidValueError, match=r"L0C \(baseM\*baseN\*4\*dbL0C\)"):
        t.get_tiling(TCubeTiling())
    t.set_fix_split(-1, -1, -1)
    assert t.get_tiling(TCubeTiling()) == 0  # the context still works after errors


def test_an_l1_too_small_for_one_k_step_is_refused_not_a_crash():
    """A transposed float A over a small L1 left a K step of 0, which the L1 search then divided
    by (SIGFPE in the user's process); now the tiling is refused."""
    t = host.MatmulApiTiling()
    t.set_a_type(POS.GM, FMT.ND, DT.DT_FLOAT, True)
    t.set_b_type(POS.GM, FMT.ND, DT.DT_FLOAT, False)
    t.set_shape(64, 2, 32)
    t.set_org_shape(65535, 1024, 1048576)
    t.set_buffer_space(1024, 1024, 196608, 1024)
    with pytest.raises(asc.InvalidValueError, match="no tiling fits: .*zero L1 step"):
        t.get_tiling(TCubeTiling())


def test_split_range_is_checked():
    t = make(shape=(1024, 1024, 1024))
    with pytest.raises(asc.InvalidValueError, match="max_base_m=16 is below min_base_m=32"):
        t.set_split_range(16, -1, -1, 32, -1, -1)
    # Ascend C's search does not consult the split range: the tiling is the one without it
    plain = tile(t)
    assert t.set_split_range(64, 64, 32) == 0
    assert tile(t) == plain


def test_shape_beyond_original_and_bad_dim():
    t = make(host.MultiCoreMatmulTiling, shape=(64, 64, 64))
    t.set_org_shape(32, 64, 64)
    with pytest.raises(asc.InvalidValueError, match="exceeds the original shape"):
        t.get_tiling(TCubeTiling())
    for dim in (0, 65536):
        with pytest.raises(asc.InvalidValueError, match="dim="):
            t.set_dim(dim)
    t.set_org_shape(64, 64, 64)
    t.set_single_shape(128, -1, -1)
    with pytest.raises(asc.InvalidValueError, match="single-core shape"):
        t.get_tiling(TCubeTiling())


def test_failed_tiling_leaves_the_struct_and_state_alone():
    t = make(shape=(64, 64, 64))
    good = tile(t)
    t.set_fix_split(4096, -1, -1)
    out = TCubeTiling(base_m=7)
    with pytest.raises(asc.InvalidValueError):
        t.get_tiling(out)
    assert out == TCubeTiling(base_m=7)
    assert t.get_base_m() == 4096  # no tiling since the change: the fixed value
    t.set_fix_split(-1, -1, -1)
    assert tile(t) == good


def test_get_tiling_needs_the_fields():
    t = make(shape=(64, 64, 64))
    with pytest.raises(AttributeError):
        t.get_tiling(object())
    with pytest.raises(TypeError):
        t.get_tiling()


# --- the struct as a kernel argument ----------------------------------------------------


@asc.jit
def scale_by_tiling(x: asc.GlobalAddress, z: asc.GlobalAddress, tiling: TCubeTiling):
    offset = asc.get_block_idx() * tiling.base_n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset, tiling.base_n)
    z_gm.set_global_buffer(z + offset, tiling.base_n)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, tiling.base_n * x.dtype.sizeof())
    xl = q.alloc_tensor(x.dtype)
    asc.data_copy(xl, x_gm, tiling.base_n)
    asc.muls(xl, xl, tiling.single_core_k * 1.0, tiling.base_n)
    asc.data_copy(z_gm, xl, tiling.base_n)
    q.free_tensor(xl)


def test_tiling_struct_is_a_kernel_argument():
    t = make(host.MultiCoreMatmulTiling, shape=(64, 256, 48))
    t.set_dim(4)
    t.set_fix_split(-1, 64, -1)
    tiling = tile(t)
    assert (tiling.used_core_num, tiling.base_n, tiling.single_core_k) == (4, 64, 48)
    x = np.arange(4 * 64, dtype=np.float32)
    z = np.zeros_like(x)
    scale_by_tiling[tiling.used_core_num](x, z, tiling)
    asc.synchronize()
    np.testing.assert_array_equal(z, x * 48)


def test_int32_extremes_do_not_overflow():
    big = 2**31 - 1
    t = make(host.MultiCoreMatmulTiling, shape=(big, big, big))
    t.set_dim(24)
    t.enable_bias(True)
    check_tiling(tile(t), m=big, n=big, k=big, dim=24, dtype=DT.DT_FLOAT16, bias=True,
                 trans_a=False, trans_b=False, props=asc.get_device_properties())
    t.set_fix_split(big - 15, -1, -1)
    with pytest.raises(asc.InvalidValueError, match="L0A"):
        t.get_tiling(TCubeTiling())
    t.set_fix_split(-1, -1, -1)
    t.set_single_shape(1, 1, 1)  # a fixed per-core shape: usedCoreNum is set_dim's
    r = tile(t)
    assert (r.used_core_num, r.single_core_m, r.single_core_n, r.single_core_k) == (24, 1, 1, 1)
    b = make(host.BatchMatmulTiling)
    b.set_batch_info_for_normal(big, big, big, big, big)
    r = tile(b)
    assert (r.batch_m, r.single_batch_m, r.single_batch_n) == (big, 1, 1)
    with pytest.raises(asc.InvalidValueError, match="batch_a=0"):
        b.set_batch_info_for_normal(0, 1, 16, 16, 16)
    assert tile(b) == r  # the failed call changed nothing


def test_uninitialised_object_is_an_error_not_a_crash():
    t = host.MatmulApiTiling.__new__(host.MatmulApiTiling)
    with pytest.raises(asc.InvalidValueError, match="not initialised"):
        t.get_tiling(TCubeTiling())
    with pytest.raises(TypeError):
        host.PlatformAscendC()


def test_set_shape_minus_one_takes_the_original_axis():
    """Ascend C's SetShape(-1, -1, K) (CANN's matmul_constant_tiling): an axis given as -1 is
    left to the original shape, as if set_shape had not named it."""
    def tiled(shape):
        t = make(host.MultiCoreMatmulTiling)
        t.set_org_shape(128, 3072, 64)
        if shape:
            t.set_shape(*shape)
        t.set_dim(8)
        return tile(t)
    open_axes, org_only = tiled((-1, -1, 64)), tiled(None)
    assert [getattr(open_axes, f) for f, _ in UPSTREAM_FIELDS] == \
        [getattr(org_only, f) for f, _ in UPSTREAM_FIELDS]
    assert open_axes.used_core_num == 8
    t = make()
    t.set_shape(-1, 64, 64)
    with pytest.raises(asc.InvalidValueError, match="-1 takes the original shape's axis"):
        t.get_tiling(TCubeTiling())
    with pytest.raises(asc.InvalidValueError, match=r"M=-2 must be in \[1"):
        make().set_shape(-2, 64, 64)
