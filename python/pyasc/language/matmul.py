"""``asc.adv.Matmul`` in kernels: PyAsc's high-level matrix multiplication
on one AI core's cube (``MatmulType``, ``MatmulConfig``, ``register_matmul``
and the object's methods). Each method lowers to one ``matmul.*`` IR op;
the work is ``asc_k_mm_*`` in ``src/compiler/rt/cube.h``: base blocks of
the tiling's ``base_m x base_n``, K in steps of ``base_k``, through L1,
L0A/L0B and L0C as the basic APIs would go.

``with mm.iterate() as count:`` runs its body once per base block, count
being the block's index in the tiling's order (iterate_order, step_m,
step_n: see asc_k_mm_order), as PyAsc's with-form does."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pyasc import _C
from pyasc.language import core
from pyasc.language.ir.args import bind, dtype_code, expect
from pyasc.language.ir.values import KernelStruct, Val, describe
from pyasc.language.cube import CubeFormat
from pyasc.language.matmul_config import COMPILE_TIME as _CONFIG_CALLS
from pyasc.language.matmul_config import MatmulConfig
from pyasc.language.matmul_static import MatmulApiStaticTiling, get_matmul_api_tiling

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

#: TCubeTiling fields matmul.init takes, in order.
_TILING_FIELDS = ("m", "n", "k_a", "k_b", "single_core_m", "single_core_n", "single_core_k",
                  "base_m", "base_n", "base_k")
#: TCubeTiling's layout axes matmul.layout takes (BSNGD/SBNGD/BNGS1S2 operands), in order.
_LAYOUT_FIELDS = tuple(f"{x}_layout_info_{axis}" for x, axes in
                       (("a", "bsngd"), ("b", "bsngd"), ("c", ("b", "s1", "n", "g", "s2")))
                       for axis in axes)
#: LayoutMode values with batch axes (iterate_batch reads the tiling's layout axes).
_AXIS_LAYOUTS = (2, 3, 4)  # BSNGD, SBNGD, BNGS1S2


@dataclass(frozen=True)
class MatmulType:
    """Where an operand lives and how (PyAsc's ``MatmulType(position, format,
    dtype, is_trans=False, layout=LayoutMode.NONE)``). A compile-time value."""

    position: Any = core.TPosition.GM
    format: Any = CubeFormat.ND
    dtype: Any = None
    is_trans: bool = False
    layout: Any = 0  # LayoutMode: NONE, NORMAL, BSNGD, SBNGD, BNGS1S2


@dataclass(frozen=True)
class MatrixOffset:
    """``Matmul.get_offset_c()``'s result: the current block's place in C
    (offset in elements, row, col) and its size (height x width)."""

    kernel_compile_time = True  # a name may be bound to one
    offset: Any
    row: Any
    col: Any
    height: Any
    width: Any



def _atomic(gen: CodeGenerator, node: ast.AST, value: Any, api: str) -> bool:
    """Whether en_atomic asks for atomic writes (a runtime value may)."""
    if isinstance(value, Val):
        gen.check_int(node, value, f"Matmul.{api} en_atomic")
        return True
    if not isinstance(value, int) or not 0 <= value <= 3:
        raise gen.error(node, f"Matmul.{api}: en_atomic must be 0 (none), 1 (add), 2 (max) or "
                              f"3 (min), not {value!r}")
    return bool(value)


def _dtype_code(gen: CodeGenerator, node: ast.AST, dtype: Any, what: str) -> int:
    if dtype is None:
        raise gen.error(node, f"Matmul: {what}'s MatmulType needs a dtype")
    return dtype_code(gen, node, dtype)


class _Method:
    """A bound Matmul method inside a kernel."""

    def __init__(self, obj: "KernelMatmul", name: str) -> None:
        self.obj, self.name = obj, name

    def kernel_call(self, gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
        return getattr(self.obj, "_" + self.name)(gen, node, args, kwargs)


class _Iterate:
    """``mm.iterate()`` used as a with-context: a loop over base blocks."""

    def __init__(self, obj: "KernelMatmul") -> None:
        self.obj = obj

    def kernel_enter(self, gen: CodeGenerator, node: ast.With) -> Any:
        gen.ir(node, gen.builder.while_begin)
        more = gen.op(node, "matmul.iterate", [self.obj.handle])
        gen.ir(node, gen.builder.while_body, more.id)
        gen.rt_depth += 1
        return gen.op(node, "matmul.count", [self.obj.handle])

    def kernel_exit(self, gen: CodeGenerator, node: ast.With) -> None:
        gen.rt_depth -= 1
        gen.ir(node, gen.builder.while_end)


class KernelMatmul:
    """An ``asc.adv.Matmul`` object inside a kernel: the IR object and its
    operand types. A compile-time object."""

    kernel_compile_time = True  # a name may be bound to one in branches
    METHODS = ("init", "set_tensor_a", "set_tensor_b", "set_bias", "set_tail", "set_org_shape",
               "set_single_shape", "iterate", "iterate_all", "get_tensor_c", "end",
               "set_quant_vector", "iterate_batch", "disable_bias", "wait_iterate_all",
               "wait_get_tensor_c", "async_get_tensor_c", "set_workspace", "set_hf32",
               "set_batch_num", "wait_iterate_batch", "set_quant_scalar", "set_self_define_data",
               "set_user_def_info", "set_sparse_index", "iterate_n_batch", "get_batch_tensor_c",
               "get_offset_c")

    def __init__(self, handle: Val, types: dict) -> None:
        self.handle = handle
        self.types = types

    def __getattr__(self, name: str) -> Any:
        if name in KernelMatmul.METHODS:
            return _Method(self, name)
        raise AttributeError(name)

    # --- methods ----------------------------------------------------------------
    def _init(self, gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
        (tiling,) = bind(gen, node, "Matmul.init", ("tiling",), args, kwargs)
        return init(gen, node, self, tiling)

    def _set_tensor(self, gen, node, args, kwargs, which: int, api: str) -> Any:
        first = args[0] if args else kwargs.get("scalar")
        if which < 2 and (isinstance(first, (int, float)) and not isinstance(first, bool) or
                          isinstance(first, Val) and first.kind in ("int", "float")):
            # PyAsc's set_tensor_a/b(scalar): every element of A (B) is the scalar
            (value,) = bind(gen, node, api, ("scalar",), args, kwargs)
            if pyasc_dtype_name(self.types["ab"[which]].dtype) not in ("float16", "bfloat16"):
                raise gen.error(node, f"Matmul.{api}(scalar): A and B must be float16 or "
                                      f"bfloat16, not {self.types['ab'[which]].dtype}")
            return gen.op(node, "matmul.set_scalar", [self.handle, value], (which,))
        names = ("tensor", "is_trans") if which < 2 else ("tensor",)
        values = bind(gen, node, api, names, args, kwargs, {"is_trans": None})
        t = self.types.get(("a", "b", "bias")[which])
        local = t is not None and _position_code(t.position) != 0
        if t is None and isinstance(values[0], Val) and values[0].kind == "local":
            local = True  # no bias MatmulType: a bias in the Unified Buffer
        where = ("local", "a LocalTensor") if local else ("global", "a GlobalTensor")
        if not isinstance(values[0], Val) or values[0].kind != where[0]:
            raise gen.error(node, f"Matmul.{api}: its MatmulType's position "
                                  f"{_position_name(t)} takes {where[1]}, not "
                                  f"{describe(values[0])}")
        trans = values[1] if which < 2 else False
        if trans is None:
            trans = bool(self.types["ab"[which] if which < 2 else "a"].is_trans)
        op = "matmul.set_tensor.local" if local else "matmul.set_tensor"
        return gen.op(node, op, [self.handle, values[0], trans], (which,))

    def _set_tensor_a(self, gen, node, args, kwargs):
        return self._set_tensor(gen, node, args, kwargs, 0, "set_tensor_a")

    def _set_tensor_b(self, gen, node, args, kwargs):
        return self._set_tensor(gen, node, args, kwargs, 1, "set_tensor_b")

    def _set_bias(self, gen, node, args, kwargs):
        return self._set_tensor(gen, node, args, kwargs, 2, "set_bias")

    def _shape(self, gen, node, args, kwargs, api: str, org: int, names: tuple) -> Any:
        values = bind(gen, node, api, names, args, kwargs, {n: -1 for n in names})
        for v, n in zip(values, names):
            gen.check_int(node, v, f"Matmul.{api} {n}")
        values = list(values) + [-1] * (4 - len(values))
        return gen.op(node, "matmul.shape", [self.handle, *values], (org,))

    def _set_tail(self, gen, node, args, kwargs):
        return self._shape(gen, node, args, kwargs, "set_tail", 0, ("tail_m", "tail_n", "tail_k"))

    def _set_single_shape(self, gen, node, args, kwargs):
        return self._shape(gen, node, args, kwargs, "set_single_shape", 0,
                           ("single_m", "single_n", "single_k"))

    def _set_org_shape(self, gen, node, args, kwargs):
        if len(args) > 4 or "org_kc" in kwargs:  # the 5-argument form: C's row length too
            names = ("org_m", "org_n", "org_ka", "org_kb", "org_kc")
            values = bind(gen, node, "Matmul.set_org_shape", names, args, kwargs,
                          {"org_kb": None, "org_kc": 0})
            for v, n in zip(values, names):
                if v is not None:
                    gen.check_int(node, v, f"Matmul.set_org_shape {n}")
            m, n_, ka, kb, kc = values
            return gen.op(node, "matmul.org_shape.kc",
                          [self.handle, m, n_, ka, ka if kb is None else kb, kc])
        return self._shape(gen, node, args, kwargs, "set_org_shape", 1,
                           ("org_m", "org_n", "org_ka", "org_kb"))

    def _iterate(self, gen, node, args, kwargs):
        bind(gen, node, "Matmul.iterate", ("en_partial_sum",), args, kwargs,
                    {"en_partial_sum": False})
        return _Iterate(self)

    def _iterate_all(self, gen, node, args, kwargs):
        names = ("tensor", "en_atomic", "en_sequential_write", "wait_iterate_all", "fake_msg",
                 "sync")
        c, atomic, seq, _wait, fake, _sync = bind(
            gen, node, "Matmul.iterate_all", names, args, kwargs,
            {"en_atomic": 0, "en_sequential_write": False, "wait_iterate_all": False,
             "fake_msg": False, "sync": True})
        # sync=False with wait_iterate_all: the simulator finishes at once either way
        for value, what in ((seq, "en_sequential_write"), (fake, "fake_msg")):
            if isinstance(value, Val) or value:
                raise gen.error(node, f"Matmul.iterate_all: {what} is not simulated (pass "
                                      "False: C is written at each block's place)")
        if isinstance(c, Val) and c.kind == "local":  # all of C into the LocalTensor
            if _atomic(gen, node, atomic, "iterate_all"):
                raise gen.error(node, "Matmul.iterate_all: en_atomic needs C in a GlobalTensor")
            return gen.op(node, "matmul.iterate_all.ub", [self.handle, c])
        expect(gen, node, c, ("global",), "Matmul.iterate_all tensor")
        if _atomic(gen, node, atomic, "iterate_all"):
            return gen.op(node, "matmul.iterate_all.atomic", [self.handle, c, atomic])
        return gen.op(node, "matmul.iterate_all", [self.handle, c])

    def _get_tensor_c(self, gen, node, args, kwargs):
        c, atomic, _seq, _sync, extra = bind(
            gen, node, "Matmul.get_tensor_c",
            ("tensor", "en_atomic", "en_sequential_write", "sync", "optional_tensor"), args,
            kwargs, {"en_atomic": 0, "en_sequential_write": False, "sync": True,
                     "optional_tensor": None})
        expect(gen, node, c, ("global", "local"), "Matmul.get_tensor_c tensor")
        if extra is not None:  # the block to GM and to a LocalTensor (VECIN) at once
            if c.kind != "global" or not (isinstance(extra, Val) and extra.kind == "local"):
                raise gen.error(node, "Matmul.get_tensor_c: with optional_tensor, tensor must be "
                                      "a GlobalTensor and optional_tensor a LocalTensor")
            if _atomic(gen, node, atomic, "get_tensor_c"):
                raise gen.error(node, "Matmul.get_tensor_c: en_atomic with optional_tensor is "
                                      "not simulated")
            return gen.op(node, "matmul.get_tensor_c.both", [self.handle, c, extra])
        if _atomic(gen, node, atomic, "get_tensor_c"):
            if c.kind != "global":
                raise gen.error(node, "Matmul.get_tensor_c: en_atomic needs C in a GlobalTensor")
            return gen.op(node, "matmul.get_tensor_c.atomic", [self.handle, c, atomic])
        return gen.op(node, "matmul.get_tensor_c", [self.handle, c])

    def _end(self, gen, node, args, kwargs):
        bind(gen, node, "Matmul.end", (), args, kwargs)
        return gen.op(node, "matmul.end", [self.handle])

    def _flag(self, gen, node, args, kwargs, api: str, which: int) -> Any:
        bind(gen, node, f"Matmul.{api}", (), args, kwargs)
        return gen.op(node, "matmul.flag", [self.handle], (which,))

    def _disable_bias(self, gen, node, args, kwargs):
        return self._flag(gen, node, args, kwargs, "disable_bias", 0)

    def _wait_iterate_all(self, gen, node, args, kwargs):
        return self._flag(gen, node, args, kwargs, "wait_iterate_all", 1)

    def _wait_get_tensor_c(self, gen, node, args, kwargs):
        return self._flag(gen, node, args, kwargs, "wait_get_tensor_c", 2)

    def _async_get_tensor_c(self, gen, node, args, kwargs):
        (c,) = bind(gen, node, "Matmul.async_get_tensor_c", ("c",), args, kwargs)
        expect(gen, node, c, ("local",), "Matmul.async_get_tensor_c c")
        return gen.op(node, "matmul.async_get_tensor_c", [self.handle, c])

    def _set_workspace(self, gen, node, args, kwargs):
        addr, size = bind(gen, node, "Matmul.set_workspace", ("addr", "size"), args, kwargs,
                              {"size": None})
        if isinstance(addr, Val) and addr.kind == "addr":
            # (address, size in bytes): the workspace is that many bytes there
            if size is None:
                raise gen.error(node, "Matmul.set_workspace: an address needs its size in bytes")
            gen.check_int(node, size, "Matmul.set_workspace size")
            itemsize = _C.dtype(addr.dtype).itemsize
            count = size // itemsize if not isinstance(size, Val) else \
                gen.op(node, "arith.floordiv", [size, itemsize])
            addr = gen.op(node, "global.new", [addr, count])
        elif size is not None:
            raise gen.error(node, "Matmul.set_workspace: a GlobalTensor brings its own size "
                                  "(pass size only with an address)")
        expect(gen, node, addr, ("global",), "Matmul.set_workspace addr")
        return gen.op(node, "matmul.set_workspace", [self.handle, addr])

    def _set_hf32(self, gen, node, args, kwargs):
        enable, mode = bind(gen, node, "Matmul.set_hf32", ("enable_hf32", "trans_mode"), args,
                                kwargs, {"enable_hf32": False, "trans_mode": 0})
        gen.check_int(node, mode, "Matmul.set_hf32 trans_mode")
        # HF32 rounds float32 inputs; the simulated Matmul takes fp16/bf16/int8 only,
        # which it leaves as they are
        return gen.op(node, "matmul.set_hf32", [self.handle, enable, mode])

    def _set_quant_vector(self, gen, node, args, kwargs):
        (vec,) = bind(gen, node, "Matmul.set_quant_vector", ("quant_vector",), args, kwargs)
        expect(gen, node, vec, ("global",), "Matmul.set_quant_vector quant_vector")
        name = getattr(vec.dtype, "name", str(vec.dtype))
        if name != "uint64":
            raise gen.error(node, f"Matmul.set_quant_vector: the vector holds uint64 (a float32's "
                                  f"bits in the low half), not {name}")
        return gen.op(node, "matmul.quant_vector", [self.handle, vec])

    def _set_quant_scalar(self, gen, node, args, kwargs):
        (bits,) = bind(gen, node, "Matmul.set_quant_scalar", ("quant_scalar",), args,
                              kwargs)
        gen.check_int(node, bits, "Matmul.set_quant_scalar quant_scalar")
        return gen.op(node, "matmul.quant_scalar", [self.handle, bits])

    def _set_batch_num(self, gen, node, args, kwargs):
        ba, bb = bind(gen, node, "Matmul.set_batch_num", ("batch_a", "batch_b"), args,
                             kwargs)
        gen.check_int(node, ba, "Matmul.set_batch_num batch_a")
        gen.check_int(node, bb, "Matmul.set_batch_num batch_b")
        return gen.op(node, "matmul.batch_num", [self.handle, ba, bb])

    def _iterate_batch(self, gen, node, args, kwargs):
        # two forms: (tensor, batch_a, batch_b, en_sequential_write, ...) and
        # set_batch_num's (tensor, en_partial_sum, en_atomic, en_sequential_write, ...)
        second = "en_atomic" in kwargs or (len(args) > 1 and isinstance(args[1], bool)) or (
            "batch_a" not in kwargs and len(args) < 2 and "en_partial_sum" in kwargs)
        if second:
            names = ("tensor", "en_partial_sum", "en_atomic", "en_sequential_write",
                     "matrix_stride_a", "matrix_stride_b", "matrix_stride_c", "sync")
            defaults = {"en_partial_sum": False, "en_atomic": 0, "en_sequential_write": False,
                        "matrix_stride_a": 0, "matrix_stride_b": 0, "matrix_stride_c": 0,
                        "sync": True}
        else:
            names = ("tensor", "batch_a", "batch_b", "en_sequential_write", "matrix_stride_a",
                     "matrix_stride_b", "matrix_stride_c", "en_partial_sum", "en_atomic", "sync",
                     "wait_iterate_batch")
            defaults = {"en_sequential_write": False, "matrix_stride_a": 0, "matrix_stride_b": 0,
                        "matrix_stride_c": 0, "en_partial_sum": False, "en_atomic": 0,
                        "sync": True, "wait_iterate_batch": None}
        v = dict(zip(names, bind(gen, node, "Matmul.iterate_batch", names, args, kwargs,
                                     defaults)))
        c = v["tensor"]
        if isinstance(c, Val) and c.kind == "local":
            raise gen.error(node, "Matmul.iterate_batch: C in a LocalTensor is not supported "
                                  "(pass a GlobalTensor)")
        expect(gen, node, c, ("global",), "Matmul.iterate_batch tensor")
        for key in ("en_partial_sum", "en_atomic", "en_sequential_write", "sync"):
            if isinstance(v[key], Val):
                raise gen.error(node, f"Matmul.iterate_batch {key} must be a compile-time "
                                      f"constant")
        # the simulator runs the batch at once: accumulation, atomics and
        # sequential writes (C rows block by block) would change results
        if v["en_partial_sum"] or v["en_atomic"] or v["en_sequential_write"]:
            raise gen.error(node, "Matmul.iterate_batch: en_partial_sum, en_atomic and "
                                  "en_sequential_write are not simulated (leave them False/0)")
        strides = [v["matrix_stride_a"], v["matrix_stride_b"]]
        for n, x in zip(("matrix_stride_a", "matrix_stride_b", "matrix_stride_c"),
                        (*strides, v["matrix_stride_c"])):
            gen.check_int(node, x, f"Matmul.iterate_batch {n}")
        if second:
            return gen.op(node, "matmul.iterate_batch.n", [self.handle, c, *strides])
        for n in ("batch_a", "batch_b"):
            gen.check_int(node, v[n], f"Matmul.iterate_batch {n}")
        return gen.op(node, "matmul.iterate_batch", [self.handle, c, v["batch_a"], v["batch_b"],
                                                     *strides])

    def _iterate_n_batch(self, gen, node, args, kwargs):
        names = ("batch_loop", "batch_a", "batch_b", "en_sequential_write", "matrix_stride_a",
                 "matrix_stride_b", "matrix_stride_c", "sync", "wait_iterate_batch")
        v = dict(zip(names, bind(gen, node, "Matmul.iterate_n_batch", names, args, kwargs,
                                     {"matrix_stride_a": 0, "matrix_stride_b": 0,
                                      "matrix_stride_c": 0, "sync": True,
                                      "wait_iterate_batch": False})))
        for n in names[:7]:
            if n != "en_sequential_write":
                gen.check_int(node, v[n], f"Matmul.iterate_n_batch {n}")
        if isinstance(v["en_sequential_write"], Val) or v["en_sequential_write"]:
            raise gen.error(node, "Matmul.iterate_n_batch: en_sequential_write is not simulated "
                                  "(pass False)")
        return gen.op(node, "matmul.iterate_n_batch",
                      [self.handle, v["batch_loop"], v["batch_a"], v["batch_b"],
                       v["matrix_stride_a"], v["matrix_stride_b"]])

    def _get_batch_tensor_c(self, gen, node, args, kwargs):
        if not args or not (isinstance(args[0], Val) and args[0].kind == "local"):
            if "tensor" not in kwargs:  # the form that returns the results as a GlobalTensor
                names = ("batch_a", "batch_b", "en_sequential_write", "sync")
                ba, bb, seq, _sync = bind(gen, node, "Matmul.get_batch_tensor_c", names, args,
                                          kwargs, {"en_sequential_write": False, "sync": True})
                gen.check_int(node, ba, "Matmul.get_batch_tensor_c batch_a")
                gen.check_int(node, bb, "Matmul.get_batch_tensor_c batch_b")
                if isinstance(seq, Val) or seq:
                    raise gen.error(node, "Matmul.get_batch_tensor_c: en_sequential_write is "
                                          "reserved (pass False)")
                code = _dtype_code(gen, node, self.types["c"].dtype, "c")
                return gen.op(node, "matmul.get_batch_tensor_c.gm", [self.handle, ba, bb],
                              (code,))
        names = ("tensor", "batch_a", "batch_b", "en_sequential_write", "sync")
        t, ba, bb, _seq, _sync = bind(gen, node, "Matmul.get_batch_tensor_c", names, args,
                                          kwargs, {"en_sequential_write": False, "sync": True})
        expect(gen, node, t, ("local",), "Matmul.get_batch_tensor_c tensor")
        gen.check_int(node, ba, "Matmul.get_batch_tensor_c batch_a")
        gen.check_int(node, bb, "Matmul.get_batch_tensor_c batch_b")
        return gen.op(node, "matmul.get_batch_tensor_c", [self.handle, t, ba, bb])

    def _get_offset_c(self, gen, node, args, kwargs):
        bind(gen, node, "Matmul.get_offset_c", (), args, kwargs)
        return MatrixOffset(*(gen.op(node, f"matmul.offset_c.{f}", [self.handle])
                              for f in ("offset", "row", "col", "height", "width")))

    def _wait_iterate_batch(self, gen, node, args, kwargs):
        bind(gen, node, "Matmul.wait_iterate_batch", (), args, kwargs)
        # iterate_batch is synchronous here: there is nothing to wait for
        return gen.op(node, "matmul.wait_iterate_batch", [self.handle])

    def _set_self_define_data(self, gen, node, args, kwargs):
        (data,) = bind(gen, node, "Matmul.set_self_define_data", ("data_ptr",), args, kwargs)
        # callback data: the simulated Matmul has no callbacks (MatmulCallBackFunc)
        if isinstance(data, Val) and data.kind == "global":
            return gen.op(node, "matmul.self_define_data.g", [self.handle, data])
        if isinstance(data, Val) and data.kind == "addr":  # PyAsc's GlobalAddress form
            return gen.op(node, "matmul.self_define_data.a", [self.handle, data])
        gen.check_int(node, data, "Matmul.set_self_define_data data_ptr")
        return gen.op(node, "matmul.self_define_data", [self.handle, data])

    def _set_user_def_info(self, gen, node, args, kwargs):
        (ptr,) = bind(gen, node, "Matmul.set_user_def_info", ("tiling_ptr",), args, kwargs)
        expect(gen, node, ptr, ("global", "addr"), "Matmul.set_user_def_info tiling_ptr")
        if ptr.kind == "addr":  # PyAsc's GlobalAddress form
            return gen.op(node, "matmul.user_def_info.a", [self.handle, ptr])
        return gen.op(node, "matmul.user_def_info", [self.handle, ptr])

    def _set_sparse_index(self, gen, node, args, kwargs):
        (idx,) = bind(gen, node, "Matmul.set_sparse_index", ("index_global",), args, kwargs)
        expect(gen, node, idx, ("global",), "Matmul.set_sparse_index index_global")
        name = getattr(idx.dtype, "name", str(idx.dtype))
        if name != "uint8":
            raise gen.error(node, f"Matmul.set_sparse_index: the index holds uint8, not {name}")
        if int(getattr(gen, "core_mode", 0)) != 1:
            raise gen.error(node, "Matmul.set_sparse_index is for cube-only kernels "
                                  "(@asc.jit(matmul_cube_only=True))")
        return gen.op(node, "matmul.sparse_index", [self.handle, idx])


#: Where an A, B or bias operand may be, as matmul.new's 3-bit position
#: codes (flags bits 15, 18, 21): GM; the Unified Buffer's VECIN, VECOUT,
#: VECCALC (a LocalTensor of a queue or buffer, ND or NZ); L1, Ascend C's
#: TSCM, which PyAsc's TPosition spells A1/B1 (NZ, placed there by the
#: kernel). C keeps its own rule (GM or UB).
_POSITIONS = {core.TPosition.GM: 0, core.TPosition.VECIN: 1, core.TPosition.VECOUT: 2,
              core.TPosition.VECCALC: 3, core.TPosition.A1: 4, core.TPosition.B1: 4}
_L1 = 4


def pyasc_dtype_name(dtype: Any) -> str:
    """A dtype's name ('' for none)."""
    return "" if dtype is None else _C.dtype(dtype).name


def _position_code(position: Any) -> int:
    """An operand position's code (0 GM; -1: not one an operand takes)."""
    try:
        return _POSITIONS.get(core.TPosition(int(position)), -1)
    except (TypeError, ValueError):
        return -1


def _position_name(t: Any) -> str:
    if t is None:  # no bias MatmulType: GM, as Ascend C's default
        return "TPosition.GM"
    try:
        return f"TPosition.{core.TPosition(int(t.position)).name}"
    except (TypeError, ValueError):
        return repr(t.position)


def _operand_position(gen: CodeGenerator, node: ast.AST, name: str, t: MatmulType) -> int:
    """The position code of operand `name` (C: 0, checked by its own rule)."""
    if name == "c":
        return 0
    code = _position_code(t.position)
    if code < 0 or (name == "bias" and code == _L1):
        where = "GM or the Unified Buffer (VECIN, VECOUT, VECCALC)"
        if name != "bias":
            where += ", or L1 (A1/B1: Ascend C's TSCM)"
        raise gen.error(node, f"Matmul: {name}'s MatmulType position {_position_name(t)} is not "
                              f"one it takes: {where}")
    if code == _L1 and int(t.format) != CubeFormat.NZ:
        raise gen.error(node, f"Matmul: {name} in L1 ({_position_name(t)}, Ascend C's TSCM) "
                              f"must be CubeFormat.NZ")
    return code


def make_matmul(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> KernelMatmul:
    """``asc.adv.Matmul(a, b, c, bias=None, config=None)``; PyAsc names the
    config ``matmul_config`` and takes a ``matmul_policy`` (the default, 0,
    only: a policy chooses how blocks are scheduled, which the simulator
    fixes)."""
    if "matmul_config" in kwargs:
        if "config" in kwargs:
            raise gen.error(node, "Matmul() got both config and matmul_config")
        kwargs = {("config" if k == "matmul_config" else k): v for k, v in kwargs.items()}
    a, b, c, bias, config, policy = bind(gen, node, "Matmul", ("a", "b", "c", "bias", "config",
                                                               "matmul_policy"),
                                         args, kwargs, {"bias": None, "config": None,
                                                        "matmul_policy": 0})
    if policy not in (0, None) or isinstance(policy, bool):
        raise gen.error(node, f"Matmul: only the default matmul_policy (0) is simulated, not "
                              f"{describe(policy)}")
    # a full constant tiling (the single-core shape fixed at compile time)
    # spares the Matmul's scalar set-up work: the timing model charges less
    const_tiling = (isinstance(config, MatmulApiStaticTiling) and
                    min(config.single_core_m, config.single_core_n, config.single_core_k) > 0)
    if isinstance(config, MatmulApiStaticTiling):
        config = config.cfg  # the shapes come from register_matmul's TCubeTiling
    if config is not None and not isinstance(config, MatmulConfig):
        raise gen.error(node, f"Matmul: config must be an asc.adv.MatmulConfig or "
                              f"MatmulApiStaticTiling, not {describe(config)}")
    types = {}
    for name, t in (("a", a), ("b", b), ("c", c), ("bias", bias)):
        if t is None and name == "bias":
            continue
        if not isinstance(t, MatmulType):
            raise gen.error(node, f"Matmul: {name} must be an asc.adv.MatmulType, not "
                                  f"{describe(t)}")
        types[name] = t
    for name, t in types.items():
        allowed = (0, 1) if name == "bias" else (0, 1, *_AXIS_LAYOUTS)
        if int(t.layout) not in allowed:
            raise gen.error(node, f"Matmul: {name}'s LayoutMode {t.layout!r} is not simulated "
                                  f"(A/B/C: NONE, NORMAL, BSNGD, SBNGD or BNGS1S2; bias: NONE "
                                  f"or NORMAL)")
    in_code = _dtype_code(gen, node, a.dtype, "a")
    if _dtype_code(gen, node, b.dtype, "b") != in_code:
        raise gen.error(node, "Matmul: a and b must have one dtype")
    c_code = _dtype_code(gen, node, c.dtype, "c")
    pos = {name: _operand_position(gen, node, name, t) for name, t in types.items()}
    ub = [name for name in ("a", "b", "bias") if 0 < pos.get(name, 0) < _L1]
    if ub and int(getattr(gen, "core_mode", 0)) == 1:
        raise gen.error(node, f"Matmul: {ub[0]} in the Unified Buffer needs an AIV: a cube-only "
                              f"kernel has none (put it in L1, TPosition.A1/B1, or in GM)")
    c_ub = int(c.position) != int(core.TPosition.GM)
    flags = (int(int(a.format) == CubeFormat.NZ) | int(int(b.format) == CubeFormat.NZ) << 1 |
             int(int(c.format) == CubeFormat.NZ) << 2 | int(bool(a.is_trans)) << 3 |
             int(bool(b.is_trans)) << 4 | int(c_ub) << 5 | int(a.layout) << 6 |
             int(b.layout) << 9 | int(c.layout) << 12 | pos["a"] << 15 | pos["b"] << 18 |
             pos.get("bias", 0) << 21 |
             # Ascend C's default config (CFG_NORM) has en_unit_flag on, as MatmulConfig's
             int(config is None or bool(config.en_unit_flag)) << 24 | int(const_tiling) << 25 |
             int(config is not None and bool(config.is_enable_channel_split)) << 28)
    handle = gen.op(node, "matmul.new", [], (0, in_code, c_code, flags))
    return KernelMatmul(handle, types)


def init(gen: CodeGenerator, node: ast.AST, mm: Any, tiling: Any) -> Any:
    """Matmul.init(tiling): the shapes of a TCubeTiling struct."""
    if not isinstance(mm, KernelMatmul):
        raise gen.error(node, f"expected an asc.adv.Matmul, not {describe(mm)}")
    if not isinstance(tiling, KernelStruct) or tiling.cls.__name__ != "TCubeTiling":
        raise gen.error(node, f"the tiling must be an asc.adv.TCubeTiling, not {describe(tiling)}")
    values = [gen.read(node, tiling.fields[f]) for f in _TILING_FIELDS]
    done = gen.op(node, "matmul.init", [mm.handle, *values])
    order = [gen.read(node, tiling.fields[f]) for f in ("iterate_order", "step_m", "step_n",
                                                          "depth_a1", "depth_b1", "step_k_a",
                                                          "step_k_b")]
    gen.op(node, "matmul.schedule", [mm.handle, *order])
    if any(int(mm.types[x].layout) in _AXIS_LAYOUTS for x in "abc"):
        axes = [gen.read(node, tiling.fields[f]) for f in _LAYOUT_FIELDS]
        gen.op(node, "matmul.layout", [mm.handle, *axes])
    return done


def register_matmul(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    """``asc.adv.register_matmul(pipe, workspace, matmul, tiling=None)``."""
    _pipe, _ws, mm, tiling = bind(gen, node, "register_matmul",
                                         ("pipe", "workspace", "matmul", "tiling"), args, kwargs,
                                         {"tiling": None})
    if tiling is None:
        if not isinstance(mm, KernelMatmul):
            raise gen.error(node, f"expected an asc.adv.Matmul, not {describe(mm)}")
        return None  # init(tiling) follows
    return init(gen, node, mm, tiling)


class Matmul:
    """``asc.adv.Matmul(a=MatmulType, b=..., c=..., bias=None)``: the
    high-level matmul of one core (inside kernels only)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("asc.adv.Matmul can only be created inside a @pyasc.jit kernel")

    @staticmethod
    def kernel_call(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
        return make_matmul(gen, node, args, kwargs)


def _host_method(name: str) -> Any:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"asc.adv.Matmul.{name} can only be called inside a @pyasc.jit kernel")

    method.__name__ = name
    method.__doc__ = f"Matmul.{name}: inside kernels only (see pyasc.language.matmul)."
    return method


for _name in KernelMatmul.METHODS:  # the names the front end serves, for help() and coverage
    setattr(Matmul, _name, _host_method(_name))


class _RegisterMatmul:
    """``asc.adv.register_matmul(pipe, workspace, matmul, tiling)``."""

    __name__ = "register_matmul"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("asc.adv.register_matmul can only be called inside a @pyasc.jit kernel")

    def kernel_call(self, gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
        return register_matmul(gen, node, args, kwargs)


register_matmul_api = _RegisterMatmul()


def call(gen: CodeGenerator, node: ast.Call, func: Any, args: list, kwargs: dict) -> Any:
    """The Matmul construct func stands for, or NOT_HANDLED."""
    if func is MatmulType or func is get_matmul_api_tiling or func in _CONFIG_CALLS:
        for value in (*args, *kwargs.values()):
            if isinstance(value, Val):
                raise gen.error(node, f"{func.__name__}: arguments must be compile-time "
                                      f"constants, not {describe(value)}")
        try:
            return func(*args, **kwargs)
        except (TypeError, ValueError) as exc:
            raise gen.error(node, f"{func.__name__}: {exc}") from None
    if func is Matmul or isinstance(func, (_Method, _RegisterMatmul)):
        return func.kernel_call(gen, node, args, kwargs)
    return NOT_HANDLED


NOT_HANDLED = object()
