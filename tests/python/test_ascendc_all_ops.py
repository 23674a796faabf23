"""Every op of the API table (src/compiler/api_table.def) has an Ascend C
form, and one module using them all compiles against the simulator's
kernel_operator.h."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import pyasc as asc
from pyasc import _C
from test_ascendc import assert_valid_cpp

def ir_ops() -> list[tuple[str, str, int]]:
    """The API table's ops (src/compiler/api_table.def): name, operand
    letters, attribute count."""
    ops = [(r["op"], r["operands"], r["niattrs"]) for r in _C.api_table() if r["op"]]
    assert len(ops) > 60, "could not read the API table"
    return ops


F32_CODE, F16_CODE, I16_CODE, I32_CODE, U8_CODE, I8_CODE = 8, 6, 3, 4, 2, 1
VECCALC = 11


def attr_variants(name: str, niattrs: int) -> list[list[int]]:
    """Attributes to build op with: for mask forms both mask kinds, with and
    without is_set_mask."""
    special = {"local.new": [[F32_CODE, VECCALC]], "que.new": [[VECCALC, 2]],
               "tbuf.new": [[VECCALC]], "set_flag": [[4]], "wait_flag": [[4]],
               "pipe_barrier": [[1]], "local.reinterpret_cast": [[I32_CODE]],
               "cast": [[1]], "compare": [[0]], "compare_scalar": [[5]], "select": [[0]],
               "selects": [[1]], "set_vector_mask": [[F32_CODE, 0, 0], [F16_CODE, 1, 1]],
               # system and hardware: MemDsbT, (CacheLine, DcciDst), is_aiv_only, the index
               "data_sync_barrier": [[0], [3]], "data_cache_clean_and_invalid": [[0, 2], [1, 0]],
               "ib_set": [[1]], "ib_wait": [[1]], "get_hccl_context": [[1]],
               "set_hccl_context": [[0]], "transpose.ext": [[11], [12]],
               "trans_data_to_5hd": [[0, 1]], "bilinear_interpolation": [[0], [1]],
               # the address forms: the halves and the addresses' element dtype
               "trans_data_to_5hd.addrs": [[0, 1, F16_CODE]],
               "trans_data_to_5hd.addr_tensor": [[1, 0, F32_CODE]],
               "gather.l0": [[0], [1]], "scatter.l0": [[0], [1]]}
    # fwk/core: atomic modes [dtype, AtomicDtype, op], TBufPool [position, buf_id_size]
    special.update({f"atomic.{op}": [[F32_CODE, 1, 0]]
                    for op in ("add", "max", "min", "type", "none", "config")})
    special["bufpool.new"] = [[VECCALC, 4]]
    special["quebind.new"] = [[VECCALC, 2, 0, VECCALC]]  # GM -> VECCALC
    # sort, gather_mask, CMPMASK, scalar bits (lowering_sort.py)
    special.update({"sort": [[1]], "get_mrg_sort_result": [[2]], "get_sort_len": [[4]],
                    "get_sort_offset": [[2]], "select.reg": [[0]],
                    "scalar_get_count_of_value": [[1]], "scalar_get_sff_value": [[0]],
                    "scalar_cast": [[F16_CODE, 6]], "scalar_cast.int": [[I32_CODE, 4]]})
    special["data_copy.slice"] = [[1]]  # one SliceInfo dimension per side
    if name in special:
        return special[name]
    if name.endswith(".l0") and niattrs == 3:
        mode = {"cast.l0": 3, "selects.l0": 1, "compare.l0": 2, "compare_scalar.l0": 4}.get(name, 0)
        return [[0, 1, mode], [1, 0, mode]]
    if name.endswith(".l0") and niattrs == 2:  # reduce_*.l0: mask kind, cal_index
        return [[0, 0], [1, 1]]
    if niattrs == 3:  # whole/block/pair reductions: mask kind, is_set_mask, order
        return [[0, 1, 0], [1, 0, 1]]
    return [[F32_CODE] * niattrs]


# dtypes of an op's LocalTensors, tried in turn until the op's checks accept them
LOCAL_DTYPES = [[F32_CODE] * 4, [I16_CODE] * 4, [U8_CODE, F32_CODE, F32_CODE, F32_CODE],
                [F32_CODE, U8_CODE, F32_CODE, F32_CODE], [F16_CODE, F32_CODE] + [F32_CODE] * 2,
                [F32_CODE, F32_CODE, I32_CODE, F32_CODE],
                # adv library: a uint8 shared tmp buffer after the tensors, quant's int8
                # dst, extract's int32 indices
                [F32_CODE, F32_CODE, U8_CODE], [F32_CODE] * 3 + [U8_CODE],
                [I16_CODE] * 3 + [U8_CODE], [F32_CODE] * 4 + [U8_CODE],
                [I8_CODE, F32_CODE, U8_CODE], [F32_CODE, I32_CODE, F32_CODE],
                [I32_CODE] * 4,  # sync_all's and the inter-block sync ops' int32 workspaces
                [F16_CODE] * 32,  # trans_data_to_5hd's two lists
                [F16_CODE, F16_CODE, I32_CODE, F16_CODE, U8_CODE],  # bilinear_interpolation
                # mrg_sort's five tensors, mul_cast's int8 dst
                [F32_CODE] * 5, [I8_CODE, F16_CODE, F16_CODE],
                # set_deq_scale's uint64 vdeq (ASC_UINT64 is 12), cast_deq, add_deq_relu
                [12], [I8_CODE, I16_CODE], [F16_CODE, I32_CODE, I32_CODE],
                [12, 12]]  # trans_data_to_5hd's two uint64 address tensors


# cube unit: the positions and dtypes each cube op's LocalTensors need
A1, A2, B2, CO1 = 1, 2, 4, 7
I8_CODE = 1
CUBE_LOCALS = {"cube.load_data": [(F16_CODE, A2), (F16_CODE, A1)],
               "cube.load_data.gm": [(F16_CODE, B2)],
               "cube.load_data_t": [(F16_CODE, A2), (F16_CODE, A1)],
               "cube.mmad": [(F32_CODE, CO1), (F16_CODE, A2), (F16_CODE, B2)],
               "cube.mmad.bias": [(F32_CODE, CO1), (F16_CODE, A2), (F16_CODE, B2),
                                  (F32_CODE, A1)],
               "cube.fixpipe": [(F32_CODE, CO1), (F32_CODE, A1)], "cube.co12": [(F32_CODE, CO1)],
               "cube.nd2nz": [(F16_CODE, A1)], "cube.nz2nd": [(F16_CODE, VECCALC)],
               "cube.nd2nz_pad": [(F16_CODE, A1), (F16_CODE, VECCALC)],
               "cube.load_sparse": [(I8_CODE, B2), (I8_CODE, 3), (U8_CODE, 3)],  # 3: B1
               "cube.mmad_sparse": [(I32_CODE, CO1), (I8_CODE, A2), (I8_CODE, B2)],
               "cube.cross_set": [], "cube.cross_wait": [], "cube.set_hf32_mode": [],
               "cube.set_hf32_trans_mode": [], "cube.set_mm_layout_transform": [],
               "cube.aipp_set": [], "cube.aipp_load": [(F16_CODE, A1)]}
CUBE_LOCALS.update({name: [(F16_CODE, A2), (F16_CODE, A1)] for name in (  # img2col loads
    "cube.load3d_v2", "cube.load3d_v1", "cube.load3d_v2pro", "cube.load2d_v2")})
CUBE_LOCALS.update({"cube.load2d_v2.gm": [(F16_CODE, A2)], "cube.set_l3d_boundary": [],
                    "cube.set_l3d_pad": [], "cube.set_l3d_repeat": []})


def build_cube_op(b: _C.IRBuilder, name: str, sig: str, params: dict) -> None:
    locs = iter(CUBE_LOCALS[name])
    operands = []
    for i, c in enumerate(sig.replace("?", "")):
        if c == "L" or (c == "M" and name == "cube.mmad.bias"):
            dtype, pos = next(locs)
            operands.append(b.op("local.new", [b.const(0), b.const(64)], [dtype, pos]))
        elif c in "GM":
            dtype = F32_CODE if name == "cube.fixpipe" else F16_CODE
            operands.append(b.op("global.new", [b.op("addr.offset", [params["A16"], b.const(0)]),
                                                params["I"]]))
        elif name == "cube.fixpipe" and i == 6:
            operands.append(b.const(1))  # QuantModes.F322F16 needs a constant
        elif name == "cube.fixpipe" and i == 8:
            operands.append(b.const(0.5))
        else:
            operands.append(params[c])
    attrs = [1] if name == "cube.fixpipe" else [9, 2] if name.startswith("cube.cross") else []
    if name == "cube.aipp_set":  # RGB888_U8, one plane, float16 output
        attrs = [4, 1, F16_CODE]
    if name == "cube.co12":
        attrs = [1, 0]  # QuantModes.F322F16, ND out
    if name == "cube.fixpipe":  # fp32 L0C -> fp16 GM
        operands[0] = b.op("global.new", [params["A16"], params["I"]])
    b.op(name, operands, attrs)


#: Matmul ops whose GlobalTensor has its own dtype (the quant vector, the sparse index)
# A and B are half (matmul.new's attributes): set_tensor (A) takes half tensors
MATMUL_GLOBALS = {"matmul.quant_vector": "AU64", "matmul.sparse_index": "AU8",
                  "matmul.set_tensor": "A16"}


def build_matmul_op(b: _C.IRBuilder, name: str, sig: str, params: dict) -> None:
    """asc.adv.Matmul's ops on one object (cube unit)."""
    if "MM" not in params:
        params["MM"] = b.op("matmul.new", [], [0, F16_CODE, F32_CODE, 0])
    if name == "matmul.new":
        return
    operands = [params["MM"]]
    for c in sig[1:].replace("?", ""):
        if c == "L":  # a C block in the Unified Buffer, or A for set_tensor.local
            dtype = F16_CODE if name == "matmul.set_tensor.local" else F32_CODE
            operands.append(b.op("local.new", [b.const(0), b.const(64)], [dtype, VECCALC]))
            continue
        addr = params[MATMUL_GLOBALS.get(name, "A")]
        operands.append(b.op("global.new", [addr, params["I"]]) if c in "GM" else params[c])
    attrs = [0] if name in ("matmul.set_tensor", "matmul.set_tensor.local", "matmul.shape",
                            "matmul.flag", "matmul.set_scalar") else []
    if name == "matmul.get_batch_tensor_c.gm":  # C's dtype
        attrs = [F32_CODE]
    b.op(name, operands, attrs)


BLOCK_SYNC = ("ib_set", "ib_wait", "notify_next_block", "wait_pre_block")


def build_op(b: _C.IRBuilder, name: str, sig: str, attrs: list[int], params: dict) -> None:
    if name.startswith("matmul."):
        return build_matmul_op(b, name, sig, params)
    if name.startswith("cube."):
        return build_cube_op(b, name, sig, params)
    letters = sig.replace("?", "").replace("*", "").replace("+", "")
    last_error = None
    for dtypes in LOCAL_DTYPES:
        if letters.count("L") + letters.startswith("M") > len(dtypes):
            continue  # a combination for fewer tensors
        operands, nlocal = [], 0
        for i, c in enumerate(letters):
            if c == "L" or (c == "M" and i == 0):
                operands.append(b.op("local.new", [b.const(1024 * nlocal), b.const(64)],
                                     [dtypes[nlocal], VECCALC]))
                nlocal += 1
            elif c == "A" and name.startswith(("ltd.", "td.")):
                operands.append(params["A64"])  # a tensor list: 64-bit words
            elif c in "GM":
                # sync_all's and the inter-block sync ops' int32 GM workspace
                addr = params["A32"] if name in BLOCK_SYNC or name == "sync_all.soft" else params["A"]
                operands.append(b.op("global.new", [addr, params["I"]]))
            else:
                operands.append(params[c])
        if name == "data_copy.slice":  # dst's and src's SliceInfo fields
            operands += [params["I"]] * 10
        if name == "printf":
            operands = [params["I"], params["N"]]
        if name == "bufpool.init":  # a TPipe's InitBufPool(pool, len, shared pool)
            operands = [params["P"], b.op("bufpool.new", [], [VECCALC, 4]), params["I"],
                        b.op("bufpool.new", [], [VECCALC, 4])]
        if name == "arith.pow":  # a float exponent has no Ascend C form
            operands = [params["N"], params["I"]]
        try:
            b.op(name, operands, attrs, "%d %f\n" if name == "printf" else None)
            return
        except asc.CompileError as exc:
            last_error = exc
    raise AssertionError(f"cannot build {name}: {last_error}")


def ops_module(keep: Callable[[str], bool]) -> tuple[str, list[str]]:
    """The Ascend C of one module using every op of the API table that keep(name)
    accepts, and the names of the ops used."""
    b = _C.IRBuilder("all_ops", "/src/all_ops.py")
    b.set_loc(1, 1)
    params = {"I": b.param("n", ("int",)), "B": b.param("flag", ("bool",)),
              "N": b.param("s", ("float",)), "A": b.param("x", ("addr", asc.float32)),
              "A16": b.param("h", ("addr", asc.float16)), "A32": b.param("w", ("addr", asc.int32)),
              "A64": b.param("lst", ("addr", asc.int64)),
              "AU64": b.param("qv", ("addr", asc.uint64)), "AU8": b.param("si", ("addr", asc.uint8))}
    params["P"] = b.op("pipe.new", [])
    params["Q"] = b.op("que.new", [], [VECCALC, 2])
    params["T"] = b.op("tbuf.new", [], [VECCALC])
    names = []
    for line, (name, sig, niattrs) in enumerate(ir_ops(), start=2):
        b.set_loc(line, 1)
        if not keep(name):
            continue
        if name in ("matmul.count", "matmul.init"):  # test_matmul_count_is_unsupported
            names.append(name)
            continue
        for attrs in attr_variants(name, niattrs):
            build_op(b, name, sig, attrs, params)
        if name == "data_copy_pad":  # UB -> GM: no padding operands
            b.op(name, [b.op("global.new", [params["A"], params["I"]]),
                        b.op("local.new", [b.const(0), b.const(64)], [F32_CODE, VECCALC])] +
                 [params["I"]] * 4)
        names.append(name)
    b.finish()
    b.verify()
    return b.emit_ascendc(), names  # UnsupportedError names an op without a mapping


def test_every_ir_op_has_an_ascendc_mapping():
    """One module using every op of the API table; an op added there without
    its Ascend C columns (src/compiler/api_table.def) fails here, and the
    output must compile against the simulator's kernel_operator.h."""
    source, names = ops_module(lambda name: True)
    assert "pyasc_mask" in source and "<float, false>" in source  # both mask kinds, isSetMask
    assert_valid_cpp(source)
    assert len(names) == len(set(names))


def test_a_missing_mapping_is_reported_not_skipped():
    """The message names the op and where to add it (checked with an op of
    the table whose Ascend C form depends on its operands)."""
    b = _C.IRBuilder("k", "/src/k.py")
    b.set_loc(5, 1)
    s = b.param("s", ("float",))
    b.op("arith.pow", [s, s])
    b.finish()
    with pytest.raises(asc.UnsupportedError, match=r"line 5: arith.pow: a float exponent"):
        b.emit_ascendc()


def test_matmul_count_is_unsupported():
    """The with-form's count has no Ascend C form yet: an UnsupportedError
    naming the line, not wrong C++ (cube unit)."""
    b = _C.IRBuilder("count", "/src/count.py")
    b.set_loc(7, 1)
    mm = b.op("matmul.new", [], [0, F16_CODE, F32_CODE, 0])
    b.op("matmul.count", [mm])
    b.finish()
    b.verify()
    with pytest.raises(asc.UnsupportedError, match="line 7: Matmul.iterate's count"):
        b.emit_ascendc()


def test_matmul_init_needs_the_tiling_parameter():
    """init from loose integers (not a TCubeTiling parameter's members) has
    no Ascend C form; the examples' golden files show the real one."""
    b = _C.IRBuilder("init", "/src/init.py")
    b.set_loc(9, 1)
    n = b.param("n", ("int",))
    mm = b.op("matmul.new", [], [0, F16_CODE, F32_CODE, 0])
    b.op("matmul.init", [mm] + [n] * 10)
    b.finish()
    b.verify()
    with pytest.raises(asc.UnsupportedError, match="line 9: Matmul.init: Ascend C needs"):
        b.emit_ascendc()
