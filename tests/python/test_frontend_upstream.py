"""PyAsc constructs the kernel front end accepts unchanged: user Structs as
kernel parameters, asc.range/static_range, property constants, ceildiv,
DataType and dtype spellings, LocalTensorAuto, asc.array, with-statements;
and launches whose argument dtypes contradict the kernel body (CompileError
naming the parameter). Each construct runs against NumPy; error cases check
file:line."""

from __future__ import annotations

import importlib.util
import struct as pystruct
from pathlib import Path

import numpy as np
import pytest

import pyasc as asc
from pyasc.language.struct import Field, Struct, StructField

from test_ascendc import assert_valid_cpp

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HERE = Path(__file__).resolve()


def line_of(text: str) -> int:
    """The line of this file that contains text (for file:line checks)."""
    for i, line in enumerate(HERE.read_text().splitlines(), 1):
        if text in line:
            return i
    raise AssertionError(text)


class Tiling(Struct):
    block_length = Field(asc.int32, default=0)
    tile_length = Field("int32", default=0)
    scale = Field(asc.float32, default=1.0)


class Inner(Struct):
    a = Field(asc.int16, default=1)


class Outer(Struct):
    inner = StructField(Inner)
    b = Field(asc.int64, default=2)
    flag = Field("bool", default=False)


# --- Struct on the host ------------------------------------------------------------------


def test_struct_fields_wrap_like_their_c_types():
    t = Tiling(block_length=2**31, scale=0.1)
    assert t.block_length == -2**31
    assert t.tile_length == 0
    assert t.scale == float(np.float32(0.1))
    t.tile_length = 2**32 + 5
    assert t.tile_length == 5
    o = Outer()
    o.inner.a = 70000
    assert o.inner.a == 70000 - 65536


def test_struct_pack_is_the_c_layout():
    o = Outer(inner=Inner(a=-2), b=7, flag=True)
    # int16 at 0, padding to 8, int64 at 8, bool at 16, size 24 (pack 8)
    assert o.pack() == pystruct.pack("<h6xq?7x", -2, 7, True)
    assert Tiling(block_length=3, tile_length=4, scale=2.0).pack() == \
        pystruct.pack("<iif", 3, 4, 2.0)


def test_struct_host_errors():
    with pytest.raises(TypeError, match="does not have a field 'nope'"):
        Tiling(nope=1)
    with pytest.raises(TypeError, match="int32 field: expected an int"):
        Tiling(block_length=1.5)
    with pytest.raises(AttributeError, match="does not have a field"):
        Tiling().other = 1
    with pytest.raises(TypeError, match="at least one field"):
        type("Empty", (Struct,), {})
    with pytest.raises(TypeError, match="cannot hold"):
        Field(asc.bfloat16)
    with pytest.raises(TypeError, match="cannot be called 'dtype'"):
        type("WithDtype", (Struct,), {"dtype": Field(asc.int32, default=0)})

    class NoDefault(Struct):
        n = Field(asc.int32)

    with pytest.raises(TypeError, match="no default value|does not have a default"):
        NoDefault()


# --- Struct as a kernel parameter --------------------------------------------------------


@asc.jit
def vadd_tiled(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
               tiling: Tiling):
    offset = asc.get_block_idx() * tiling.block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset, tiling.block_length)
    y_gm.set_global_buffer(y + offset, tiling.block_length)
    z_gm.set_global_buffer(z + offset, tiling.block_length)
    pipe = asc.TPipe()
    qx = asc.TQue(asc.TPosition.VECIN, 1)
    qy = asc.TQue(asc.TPosition.VECIN, 1)
    qz = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(qx, 1, tiling.tile_length * x.dtype.sizeof())
    pipe.init_buffer(qy, 1, tiling.tile_length * y.dtype.sizeof())
    pipe.init_buffer(qz, 1, tiling.tile_length * z.dtype.sizeof())
    for i in asc.range(tiling.block_length // tiling.tile_length):
        xl = qx.alloc_tensor(x.dtype)
        yl = qy.alloc_tensor(y.dtype)
        asc.data_copy(xl, x_gm[i * tiling.tile_length:], tiling.tile_length)
        asc.data_copy(yl, y_gm[i * tiling.tile_length:], tiling.tile_length)
        qx.enque(xl)
        qy.enque(yl)
        xl = qx.deque(x.dtype)
        yl = qy.deque(y.dtype)
        zl = qz.alloc_tensor(z.dtype)
        asc.add(zl, xl, yl, tiling.tile_length)
        asc.muls(zl, zl, tiling.scale, tiling.tile_length)
        qz.enque(zl)
        qx.free_tensor(xl)
        qy.free_tensor(yl)
        zl = qz.deque(z.dtype)
        asc.data_copy(z_gm[i * tiling.tile_length:], zl, tiling.tile_length)
        qz.free_tensor(zl)


@pytest.mark.parametrize("debug", [False, True])
def test_struct_parameter_runs(debug):
    rng = np.random.default_rng(1)
    x = rng.random(4 * 512, dtype=np.float32)
    y = rng.random(4 * 512, dtype=np.float32)
    z = np.zeros_like(x)
    kernel = asc.jit(vadd_tiled.fn, debug=debug)
    kernel[4](x, y, z, Tiling(block_length=512, tile_length=128, scale=2.0))
    asc.synchronize()
    np.testing.assert_allclose(z, (x + y) * 2.0, rtol=1e-6)
    # the same specialisation serves other field values
    kernel[4](x, y, z, Tiling(block_length=512, tile_length=256, scale=-1.0))
    asc.synchronize()
    np.testing.assert_allclose(z, -(x + y), rtol=1e-6)
    assert len(kernel._cache) == 1


@asc.jit
def struct_fields(z: asc.GlobalAddress, t: Tiling, o: Outer):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    n = t.block_length
    t.block_length = n * 2
    z_gm.set_value(0, t.block_length)
    if n > 10:
        t.block_length += 1
    z_gm.set_value(1, t.block_length)
    z_gm.set_value(2, o.inner.a + o.b)
    z_gm.set_value(3, 1 if o.flag else 0)
    local = Tiling(tile_length=n + 1)
    local.scale = 0.5
    z_gm.set_value(4, local.tile_length * local.scale)
    z_gm.set_value(5, local.block_length)


def test_struct_fields_read_and_assigned_in_kernels():
    z = np.zeros(8, np.int64)
    struct_fields[1](z, Tiling(block_length=2**32 + 20), Outer(inner=Inner(a=5), b=-9, flag=True))
    asc.synchronize()
    assert z[:6].tolist() == [40, 41, 5 - 9, 1, 10, 0]
    struct_fields[1](z, Tiling(block_length=3), Outer())
    asc.synchronize()
    assert z[:6].tolist() == [6, 6, 1 + 2, 0, 2, 0]


@asc.jit
def struct_bad_field(z: asc.GlobalAddress, t: Tiling):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    z_gm.set_value(0, t.no_such_field)


@asc.jit
def struct_float_into_int(z: asc.GlobalAddress, t: Tiling):
    t.block_length = t.scale


@asc.jit
def struct_rebind_in_loop(z: asc.GlobalAddress, n: int, o: Outer):
    for i in range(n):
        o.inner = Inner(a=i)


@asc.jit
def bump(t: Tiling, n: int):
    for i in range(n):
        t.scale = t.scale * 2


@asc.jit
def struct_assigned_in_loops(z: asc.GlobalAddress, n: int, t: Tiling):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    local = Tiling()
    for i in range(n):
        local.tile_length = i
        if i > 1:
            local.block_length += i
    bump(t, n)  # a device function assigns the parameter's field in its loop
    z_gm.set_value(0, local.tile_length)
    z_gm.set_value(1, local.block_length)
    z_gm.set_value(2, t.scale)


def test_struct_fields_assigned_in_run_time_loops():
    z = np.zeros(4, np.float32)
    struct_assigned_in_loops[1](z, 5, Tiling(scale=0.75))
    asc.synchronize()
    assert z[:3].tolist() == [4.0, 2 + 3 + 4, 0.75 * 32]


def test_struct_kernel_errors_point_at_the_line():
    z = np.zeros(4, np.int32)
    with pytest.raises(asc.CompileError, match=rf"{HERE.name}:{line_of('t.no_such_field)')}:"
                                               r"\d+: Tiling has no field 'no_such_field'"):
        struct_bad_field.compile(z, Tiling())
    with pytest.raises(asc.CompileError, match=rf":{line_of('t.block_length = t.scale')}:\d+: "
                                               r"Tiling.block_length is an integer field"):
        struct_float_into_int.compile(z, Tiling())
    with pytest.raises(asc.CompileError, match=rf":{line_of('o.inner = Inner(a=i)')}:\d+: "
                                               r"Outer.inner: a nested struct can only be "
                                               "replaced outside run-time"):
        struct_rebind_in_loop.compile(z, 3, Outer())


def test_struct_ascendc_takes_the_struct_whole():
    x = np.zeros(1024, np.float32)
    source = vadd_tiled.ascendc(x, x, x, Tiling(block_length=512, tile_length=128))
    # as PyAsc emits it: the packed struct, one GM pointer, a local copy
    assert "#pragma pack(push, 8)\nstruct Tiling {\n    int32_t block_length;\n" \
           "    int32_t tile_length;\n    float scale;\n};" in source
    assert "GM_ADDR z, GM_ADDR tiling_addr)" in source
    assert "static_cast<int64_t>(tiling.block_length)" in source
    assert_valid_cpp(source)
    nested = struct_fields.ascendc(np.zeros(8, np.int64), Tiling(), Outer())
    assert nested.index("struct Inner {") < nested.index("struct Outer {\n    Inner inner;")
    assert "static_cast<int64_t>(o.inner.a)" in nested
    assert_valid_cpp(nested)


class Keyword(Struct):
    new = Field(asc.int32, default=0)


@asc.jit
def keyword_field(z: asc.GlobalAddress, t: Keyword):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    z_gm.set_value(0, t.new)


def test_struct_field_named_like_a_cpp_keyword():
    z = np.zeros(4, np.int32)
    keyword_field[1](z, Keyword(new=9))  # the simulator runs it
    asc.synchronize()
    assert z[0] == 9
    with pytest.raises(asc.UnsupportedError, match="C\\+\\+ keywords"):
        keyword_field.ascendc(z, Keyword())


@asc.jit
def calls_open(z: asc.GlobalAddress):
    f = open("/nonexistent/pyasc-frontend-test")


def test_host_builtins_are_not_called_at_compile_time():
    with pytest.raises(asc.CompileError, match=rf":{line_of('f = open(')}:\d+: cannot call "
                                               "function 'open' inside a kernel"):
        calls_open.compile(np.zeros(4, np.int32))


# --- loops, properties, ceildiv, dtypes ---------------------------------------------------


@asc.jit
def loops_and_constants(z: asc.GlobalAddress, n: int):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    for i in asc.static_range(1, 7, 2):
        z_gm.set_value(i, i * 100)  # i is a compile-time int
    total = 0
    for j in asc.range(n):
        total += j
    z_gm.set_value(0, total)
    z_gm.set_value(2, asc.property(asc.TOTAL_UB_SIZE))
    z_gm.set_value(4, asc.property(asc.TOTAL_L1_SIZE) + asc.property(asc.TOTAL_L0C_SIZE))
    z_gm.set_value(6, asc.property(asc.TOTAL_L0A_SIZE) + asc.property(asc.TOTAL_L0B_SIZE))
    z_gm.set_value(7, asc.property(asc.DEFAULT_C0_SIZE))
    z_gm.set_value(8, asc.ceildiv(n, 4))
    z_gm.set_value(9, n.ceildiv(3))
    z_gm.set_value(10, asc.ceildiv(10, 4) + Tiling(tile_length=9).tile_length.ceildiv(4) - 3)
    z_gm.set_value(11, asc.DataType("int32").sizeof() + asc.half.sizeof() + asc.double.sizeof())


def test_loops_properties_and_ceildiv():
    z = np.zeros(12, np.int64)
    loops_and_constants[1](z, 10)
    asc.synchronize()
    props = asc.get_device_properties()
    # TOTAL_L1_SIZE: L1 less the 128 bytes CANN's Matmul server keeps
    expected = [45, 100, props.ub_size, 300, props.l1_size - 128 + props.l0c_size, 500,
                props.l0a_size + props.l0b_size, 32, 3, 4, 3, 4 + 2 + 8]
    assert z.tolist() == expected
    assert (props.l1_size, props.l0a_size, props.l0b_size, props.l0c_size) == \
        (512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024)
    assert "for" not in loops_and_constants.compile(z, 10).ir_text.split("for", 1)[0]


def test_host_names():
    assert asc.ceildiv(10, 4) == 3 and asc.ceildiv(8, 4) == 2
    assert asc.DataType("int32") is asc.int32 or asc.DataType("int32") == asc.int32
    assert asc.DataType("half") == asc.float16 and asc.DataType("float_") == asc.float32
    assert (asc.half, asc.float_, asc.int_, asc.double) == \
        (asc.float16, asc.float32, asc.int32, asc.float64)
    assert isinstance(asc.float32, asc.DataType)
    # CANN's TOTAL_L1_SIZE: L1 less the 128 bytes its Matmul server keeps
    assert asc.property(asc.TOTAL_L1_SIZE) == asc.get_device_properties().l1_size - 128
    assert asc.DataType("uint32") is asc.uint32 and asc.uint32.sizeof() == 4
    with pytest.raises(TypeError, match="unknown dtype"):
        asc.DataType("complex7")


@asc.jit
def static_range_runtime(z: asc.GlobalAddress, n: int):
    for i in asc.static_range(n):
        pass


def test_static_range_needs_constants():
    with pytest.raises(asc.CompileError, match=rf":{line_of('asc.static_range(n)')}:\d+: "
                                               "static_range\\(\\) bounds must be compile-time"):
        static_range_runtime.compile(np.zeros(4, np.int32), 3)


# --- LocalTensorAuto ------------------------------------------------------------------------


@asc.jit
def vadd_auto(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
              block_length: asc.ConstExpr[int], tile_length: asc.ConstExpr[int]):
    offset = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z + offset)
    for i in range(block_length // tile_length):
        x_local = asc.LocalTensorAuto(x.dtype, tile_length)
        y_local = asc.LocalTensorAuto(y.dtype, tile_length)
        asc.data_copy(x_local, x_gm[i * tile_length:], tile_length)
        asc.data_copy(y_local, y_gm[0:], tile_length)
        new_y = asc.LocalTensorAuto(y.dtype, (tile_length,))
        asc.duplicate(new_y, y_local.get_value(0), tile_length)
        z_local = asc.LocalTensorAuto(z.dtype, tile_length)
        asc.add(z_local, x_local, new_y, tile_length)
        asc.data_copy(z_gm[i * tile_length:], z_local, tile_length)


@pytest.mark.parametrize("debug", [False, True])
def test_local_tensor_auto_runs_synchronised(debug):
    rng = np.random.default_rng(2)
    x = rng.random(4 * 1024, dtype=np.float32)
    y = rng.random(4 * 1024, dtype=np.float32)
    z = np.zeros_like(x)
    kernel = asc.jit(vadd_auto.fn, debug=debug)
    kernel[4](x, y, z, 1024, 256)  # checked mode finds no missing synchronisation
    asc.synchronize()
    np.testing.assert_allclose(z, x + y[0], rtol=1e-6)
    assert "set_flag" in kernel.compile(x, y, z, 1024, 256).ir_text  # inserted by insert_sync
    assert_valid_cpp(kernel.ascendc(x, y, z, 1024, 256))


@asc.jit
def auto_before_pipe(x: asc.GlobalAddress):
    t = asc.LocalTensorAuto(x.dtype, 64)
    late_pipe = asc.TPipe()


@asc.jit
def auto_runtime_length(x: asc.GlobalAddress, z: asc.GlobalAddress, tiling: Tiling):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensorAuto(x.dtype, tiling.tile_length)  # placed at run time
    b = asc.LocalTensorAuto(x.dtype, (2, tiling.tile_length))
    c = asc.LocalTensorAuto(x.dtype, 64)  # after both
    for i in range(tiling.block_length // tiling.tile_length):
        asc.data_copy(a, x_gm[i * tiling.tile_length:], tiling.tile_length)
        asc.muls(b, a, 2.0, tiling.tile_length)
        asc.adds(b[tiling.tile_length:], a, 1.0, tiling.tile_length)
        asc.add(c, b, b[tiling.tile_length:], tiling.tile_length)
        asc.data_copy(z_gm[i * tiling.tile_length:], c, tiling.tile_length)


@pytest.mark.parametrize("debug", [False, True])
def test_local_tensor_auto_with_run_time_lengths(debug):
    x = np.arange(256, dtype=np.float32)
    z = np.zeros_like(x)
    kernel = asc.jit(auto_runtime_length.fn, debug=debug)
    kernel[1](x, z, Tiling(block_length=256, tile_length=40 + 24))
    asc.synchronize()
    np.testing.assert_array_equal(z, 3 * x + 1)
    if debug:  # a tile longer than c's 64 elements: checked mode catches the overrun
        with pytest.raises(asc.KernelError, match="add"):
            kernel[1](x, z, Tiling(block_length=256, tile_length=128))
            asc.synchronize()


@asc.jit
def auto_runtime_in_loop(x: asc.GlobalAddress, n: int):
    for i in range(n):
        t = asc.LocalTensorAuto(x.dtype, n)


@asc.jit
def auto_too_big(x: asc.GlobalAddress):
    t = asc.LocalTensorAuto(x.dtype, 1 << 20)


def test_local_tensor_auto_errors():
    x = np.zeros(64, np.float32)
    line = line_of("late_pipe = asc.TPipe()")
    with pytest.raises(asc.CompileError, match=rf":{line}"
                                               r":\d+: .*create the TPipe before"):
        auto_before_pipe.compile(x)
    with pytest.raises(asc.CompileError, match=rf":{line_of('t = asc.LocalTensorAuto(x.dtype, n)')}"
                                               r":\d+: .*outside run-time if/for/while"):
        auto_runtime_in_loop.compile(x, 4)
    with pytest.raises(asc.CompileError, match="more than the Unified Buffer"):
        auto_too_big.compile(x)


# --- asc.array and with ----------------------------------------------------------------------


@asc.jit
def arrays(z: asc.GlobalAddress, k: int):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    a = asc.array(asc.int32, 4, 7)
    b = asc.array(asc.float32, (1.5, 2.5))
    a[1] = 3
    for j in range(2):
        a[j + 2] = j * 10
    z_gm.set_value(0, a[0] + a[1])
    z_gm.set_value(1, a[k])
    z_gm.set_value(2, b[1] * 2)
    z_gm.set_value(3, len(a))


def test_array():
    z = np.zeros(4, np.float32)
    arrays[1](z, 3)
    asc.synchronize()
    assert z.tolist() == [10.0, 10.0, 5.0, 4.0]


@asc.jit
def array_out_of_range(z: asc.GlobalAddress):
    a = asc.array(asc.int32, 2)
    a[2] = 1


@asc.jit
def with_not_a_context(z: asc.GlobalAddress):
    with asc.TPipe() as p:
        pass


def test_array_and_with_errors():
    z = np.zeros(4, np.int32)
    with pytest.raises(asc.CompileError, match=rf":{line_of('a[2] = 1')}:\d+: array index 2 is "
                                               "out of range"):
        array_out_of_range.compile(z)
    with pytest.raises(asc.CompileError, match=rf":{line_of('with asc.TPipe() as p')}:\d+: "
                                               "a TPipe is not a context manager"):
        with_not_a_context.compile(z)


# --- type safety: argument dtypes that contradict the kernel -------------------------------


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"fe_upstream_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("debug", [False, True])
def test_vadd_with_a_float64_x_names_x(debug):
    kernel = asc.jit(load("vadd").vadd_kernel.fn, debug=debug)
    x = np.ones(8 * 2048, np.float64)
    y = np.ones(8 * 2048, np.float32)
    z = np.zeros_like(y)
    with pytest.raises(asc.CompileError, match=r"vadd.py:\d+:\d+: data_copy: destination is "
                                               r"float64 but source is float32 .*parameter 'x' "
                                               "contradicts the others"):
        kernel[8](x, y, z, 2048)
    assert not z.any()


def test_framework_deque_of_another_dtype_names_the_parameter():
    vf = load("vadd_framework")
    x = np.ones(8 * 2048 * 4, np.float32)
    y = np.ones(8 * 2048 * 4, np.float64)
    with pytest.raises(asc.CompileError, match=r"vadd_framework.py:\d+:\d+: deque\(float32\): "
                                               r"the queue holds float64 tensors .*parameter 'y'"):
        vf.vadd(x, y)


@asc.jit
def mixed_vector(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, 64)
    b = asc.LocalTensor(y.dtype, asc.TPosition.VECCALC, 512, 64)
    c = asc.LocalTensor(z.dtype, asc.TPosition.VECCALC, 1024, 64)
    asc.add(c, a, b, 64)


@asc.jit
def rebound_global(x: asc.GlobalAddress, y: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    if n > 0:
        g.set_global_buffer(y)


def test_mixed_dtypes_in_vector_ops_and_globals():
    f32 = np.zeros(64, np.float32)
    f16 = np.zeros(64, np.float16)
    mixed_vector.compile(f32, f32, f32)
    with pytest.raises(asc.CompileError, match=rf":{line_of('asc.add(c, a, b, 64)')}:\d+: add: "
                                               r"operand 3 is float16 .*parameter 'y'"):
        mixed_vector.compile(f32, f16, f32)
    rebound_global.compile(f32, f32, 1)
    with pytest.raises(asc.CompileError, match=rf":{line_of('g.set_global_buffer(y)')}:\d+: "
                                               "set_global_buffer: this GlobalTensor holds "
                                               "float32 and cannot be given a float16 address "
                                               "\\(the launch passed 'x' float32; 'y' float16\\)"):
        rebound_global.compile(f32, f16, 1)


# --- the IR's struct member paths -----------------------------------------------------------


@pytest.mark.parametrize("path, message", [
    ("t/Tiling@8/f", "does not name C\\+\\+ identifiers"),  # no scalar type
    ("t/Tiling@3/f/int32", "does not name C\\+\\+ identifiers"),  # bad pack
    ("t/Til ing@8/f/int32", "does not name C\\+\\+ identifiers"),
    ("t/Tiling@8/f\"; system(\"x/int32", "does not name C\\+\\+ identifiers"),
    ("t/Tiling@8/f/complex64", "struct member type complex64"),
    ("t/k@8/f/int32", "does not name C\\+\\+ identifiers"),  # the kernel's own name
])
def test_malformed_member_paths_are_refused(path, message):
    from pyasc import _C

    b = _C.IRBuilder("k", "/src/k.py")
    p = b.param("t_f", ("int",))
    b.member(p, path)
    b.finish()
    with pytest.raises(asc.UnsupportedError, match=message):
        b.emit_ascendc()


def test_member_needs_a_parameter():
    from pyasc import _C

    b = _C.IRBuilder("k", "/src/k.py")
    v = b.const(1)
    with pytest.raises(asc.Error, match="not a parameter"):
        b.member(v, "t/T@8/f/int32")


def test_two_struct_types_of_one_name_are_refused():
    from pyasc import _C

    b = _C.IRBuilder("k", "/src/k.py")
    b.member(b.param("a_f", ("int",)), "a/T@8/f/int32")
    b.member(b.param("b_f", ("int",)), "b/T@8/f/int64")
    b.finish()
    with pytest.raises(asc.UnsupportedError, match="two struct types named T"):
        b.emit_ascendc()


def test_member_paths_nested_too_deeply_are_refused():
    from pyasc import _C

    b = _C.IRBuilder("k", "/src/k.py")
    b.member(b.param("t_f", ("int",)), "t/" + "T@8/f/" * 20 + "int32")
    b.finish()
    with pytest.raises(asc.UnsupportedError, match="does not name C\\+\\+ identifiers"):
        b.emit_ascendc()


def test_star_import_keeps_the_builtins():
    namespace: dict = {}
    exec("from pyasc import *", namespace)
    assert "range" not in namespace and "property" not in namespace
    assert namespace["static_range"] is asc.static_range and namespace["Struct"] is Struct


@asc.jit
def numbers(z: asc.GlobalAddress, n: int, f: float, k: asc.ConstExpr[int]):
    asc.static_assert(k > 2, "k must exceed 2")
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    z_gm.set_value(0, asc.number(n, asc.float32) / 4)  # a float division
    z_gm.set_value(1, asc.number(f, asc.int32))
    z_gm.set_value(2, asc.number(300, asc.int8))  # wraps like an int8
    z_gm.set_value(3, asc.number(7, asc.float16) / 2)


def test_number_and_static_assert():
    z = np.zeros(4, np.float32)
    numbers[1](z, 5, 2.75, 3)
    asc.synchronize()
    assert z.tolist() == [1.25, 2.0, 44.0, 3.5]
    with pytest.raises(asc.CompileError, match=rf":{line_of('asc.static_assert(k > 2')}:\d+: "
                                               "AssertionError: k must exceed 2"):
        numbers.compile(z, 5, 2.75, 2)
    asc.static_assert(True)
    with pytest.raises(AssertionError, match="no"):
        asc.static_assert(1 > 2, "no")


class Section:
    """A kernel context object, as an API that opens a with-block provides."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def kernel_enter(self, gen, node):
        self.events.append(f"enter {node.lineno}")
        return 41

    def kernel_exit(self, gen, node):
        self.events.append("exit")
        gen.op(node, "pipe_barrier", [], (int(asc.PipeID.PIPE_ALL),))


SECTION = Section()


@asc.jit
def with_section(z: asc.GlobalAddress):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    with SECTION as value:
        z_gm.set_value(0, value + 1)


def test_with_lowers_through_the_context_object():
    z = np.zeros(2, np.int32)
    with_section[1](z)
    asc.synchronize()
    assert z[0] == 42
    assert SECTION.events == ["enter 5", "exit"]  # line 5 of the source, the decorator first
    assert "pipe_barrier" in with_section.compile(z).ir_text
