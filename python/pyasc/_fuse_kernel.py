"""Fused groups as kernels: IR through ``pyasc._C.IRBuilder``, the same C
emitter, compiler and kernel cache (memory and disk) as ``@pyasc.jit``.

A group's kernel (docs/op-compiler.md) takes its inputs' and outputs'
global addresses, the element count ``n`` and the block length ``blen``.
Block ``b`` walks elements ``[b * blen, min((b + 1) * blen, n))`` in tiles
of ``T`` elements: each full input is copied into the Unified Buffer, the
group's operations run tile to tile with vector instructions (scalar
inputs are read once per block; Python numbers are constants), and each
output tile is copied back. Copies move whole 32-byte blocks, as the
hardware does: the last tile's copy is rounded up, reading zeros and
dropping writes past the end of the global memory it addresses.
"""

from __future__ import annotations

import math
import re
import threading
from dataclasses import dataclass
from typing import Any, Callable

from pyasc import _C
from pyasc import trace as _trace
from pyasc.language.core import TPosition
from pyasc.language.names.dtypes import DTYPE_CODES
from pyasc._fuse_plan import (COMPARISONS, MAX_SLOTS, MIRRORED, VIA_F32, Group, column_width,
                              segment_width)

_VECCALC = int(TPosition.VECCALC)
_ALIGN = 16  # elements: 32 bytes of 2-byte dtypes, 64 of 4-byte ones
_SLOT_BYTES = 4  # a slot holds a tile of any fusible dtype (at most 4 bytes each)
_CAST_NONE, _CAST_RINT = 0, 1
#: maths through the adv API (Ascend C's Sin, Tanh, ...: the same SLEEF
#: functions as eager in the kernel runtime, rt/adv_math.h)
_ADV_UNARY = {"sin": "adv.sin", "cos": "adv.cos", "tan": "adv.tan", "tanh": "adv.tanh",
              "erf": "adv.erf"}
_UNARY = {"exp": "exp", "log": "ln", "sqrt": "sqrt", "abs": "abs", "reciprocal": "reciprocal",
          "relu": "relu"}
_BINARY = {"add": "add", "subtract": "sub", "multiply": "mul", "divide": "div",
           "maximum": "max", "minimum": "min"}
_WITH_SCALAR = {"add": "adds", "multiply": "muls", "maximum": "maxs", "minimum": "mins"}
#: float operations built from compare and select so that NaN propagates
_NAN_KEEPING = frozenset({"maximum", "minimum", "relu"})


@dataclass
class FusedKernel:
    """One group's built kernel: its name, tile length, C and Ascend C
    sources, the loaded native kernel and where it came from ("built",
    "disk cache" or "memory"), and the C of its build with the timing model
    (``pyasc.profile``), built on first use by :meth:`profiled`."""

    name: str
    tile: int
    c_source: str
    ascendc: str
    native: Any
    origin: str
    signature: str
    align: int = _ALIGN
    profiled_source: str = ""

    def profiled(self) -> Any:
        """The native kernel with the timing model compiled in (built once
        per source, on the first launch inside ``pyasc.profile``)."""
        if not self.profiled_source:
            raise _C.InternalError(f"{self.name}: no profiled source")
        with _lock:
            found = _profiled.get(self.profiled_source)
        if found is None:
            found, _hit = _C.jit_build(self.profiled_source, self.name, self.signature)
            with _lock:
                _profiled[self.profiled_source] = found
        return found


def grid(n: int, tile: int, align: int = _ALIGN) -> tuple[int, int]:
    """Blocks and block length for ``n`` elements: at most one block per AI
    core, at least one tile (and 4096 elements) per block, block lengths a
    multiple of ``align`` (whole 32-byte blocks, so that blocks never share
    one; whole rows for kernels that repeat a row through their tiles)."""
    if n == 0:
        return 0, align
    blocks = max(1, min(cores(), -(-n // max(tile, 4096))))
    blen = -(-(-(-n // blocks)) // align) * align
    return -(-n // blen), blen


class _Emitter:
    """Builds a group's IR; in ``dry`` mode it only counts the Unified
    Buffer slots the group needs (no builder is made)."""

    def __init__(self, group: Group, name: str, tile: int, dry: bool) -> None:
        self.group = group
        self.tile = tile
        self.dry = dry
        self.b = None if dry else _C.IRBuilder(name, "<pyasc.op>")
        self.free: list[int] = []
        self.pinned: set[int] = set()  # slots holding a row for the whole kernel
        self.nslots = 0
        self.locals: dict[tuple[int, Any], int] = {}
        self.counter = 0

    # --- IR helpers (dry mode returns fresh numbers) ---------------------------
    def op(self, name: str, operands: list[int], iattrs: tuple[int, ...] = ()) -> int:
        if self.b is None:
            self.counter += 1
            return self.counter
        vid = self.b.op(name, operands, iattrs)
        return -1 if vid is None else vid

    def const(self, value: int | float) -> int:
        return self.counter if self.b is None else self.b.const(value)

    def named(self, vid: int, name: str) -> int:
        """Gives an IR value a name for the Ascend C (names made here only)."""
        if self.b is not None:
            self.b.name(vid, name)
        return vid

    def alloc(self) -> int:
        if self.free:
            return self.free.pop()
        self.nslots += 1
        return self.nslots - 1

    def local(self, slot: int, dtype: Any) -> int:
        dtype = _stored(dtype)  # bool tiles hold bytes 0/1
        key = (slot, dtype)
        if key not in self.locals:
            offset = self.const(slot * self.tile * _SLOT_BYTES)
            self.locals[key] = self.named(
                self.op("local.new", [offset, self.const(self.tile)],
                        (DTYPE_CODES[dtype.name], _VECCALC)), f"ub{slot}_{dtype.name}")
        return self.locals[key]

    # --- the kernel -------------------------------------------------------------
    def build(self) -> None:
        if self.group.reduce is not None:
            self.build_reduce()
            return
        g, b = self.group, self.b
        params = [self._param(f"in{i}", ("addr", _stored(v.dtype)))
                  for i, v in enumerate(g.inputs)]
        outs = [self._param(f"out{j}", ("addr", _stored(n.dtype))) for j, n in enumerate(g.outputs)]
        n = self._param("n", ("int",))
        blen = self._param("blen", ("int",))
        start = self.named(self.op("arith.mul", [self.op("get_block_idx", []), blen]), "start")
        end = self.named(self.op("arith.min", [self.op("arith.add", [start, blen]), n]), "end")
        env: dict[int, tuple[str, int, Any]] = {}
        full: list[tuple[int, int, Any]] = []
        rows: list[tuple[int, int, Any, int]] = []
        columns: list[tuple[int, int, Any, int]] = []
        for i, (p, v, kind) in enumerate(zip(params, g.inputs, g.kinds)):
            if kind == "scalar":
                gm = self.op("global.new", [p, self.const(1)])
                value = self.op("global.get_value", [gm, self.const(0)])
                env[id(v)] = ("scalar", self.named(value, f"in{i}_value"), v.dtype)
            elif kind == "row":
                size = row_length(v)
                gm = self.named(self.op("global.new", [p, self.const(size)]), f"in{i}_gm")
                rows.append((id(v), gm, v.dtype, size))
            elif kind == "column":
                width = column_width(tuple(v.shape), g.shape)
                gm = self.named(self.op("global.new", [p, self.const(row_length(v))]),
                                f"in{i}_gm")
                columns.append((id(v), gm, v.dtype, width))
            else:
                gm = self.named(self.op("global.new", [p, n]), f"in{i}_gm")
                full.append((id(v), gm, v.dtype))
        gouts = [self.named(self.op("global.new", [p, n]), f"out{j}_gm")
                 for j, p in enumerate(outs)]
        last = self._last_uses()
        for vid, _, dtype in full + [c[:3] for c in columns]:  # live from the loop's start
            env[vid] = ("tile", self.alloc(), dtype)
        for vid, _, dtype in full + [c[:3] for c in columns]:
            self.local(env[vid][1], dtype)
        for vid, gm, dtype, size in rows:  # filled once: tiles start on row boundaries
            slot = self.alloc()
            self.pinned.add(slot)
            env[vid] = ("tile", slot, dtype)
            dst = self.local(slot, dtype)
            at = self._for(self.const(0), self.const(self.tile), self.const(size))
            self.op("data_copy", [self.op("local.slice", [dst, at]), gm, self.const(size)])
            self._end_for()
        iv = self.named(self._for(start, end, self.const(self.tile)), "offset")
        cnt = self.op("arith.min", [self.const(self.tile), self.op("arith.sub", [end, iv])])
        cnt_al = self._load_tiles(iv, cnt, full, env)
        for vid, gm, dtype, width in columns:  # tiles and blocks start on row boundaries
            dst = self.local(env[vid][1], dtype)
            w = self.const(width)
            at = self._for(self.const(0), cnt, w)
            row = self.op("arith.floordiv", [self.op("arith.add", [iv, at]), w])
            value = self.op("global.get_value", [gm, row])
            self.op("duplicate", [self.op("local.slice", [dst, at]), value, w])
            self._end_for()
        out_index = {id(node): j for j, node in enumerate(g.outputs)}
        for i, node in enumerate(g.nodes):
            self._node(i, node, env, last, cnt_al)
            j = out_index.get(id(node))
            assert node.output is not None
            if j is not None:
                self._write_out(gouts[j], iv, env[id(node.output)], cnt_al)
            if last.get(id(node.output), -1) <= i and env[id(node.output)][0] == "tile":
                self._release(env, node.output)
        self._end_for()
        if b is not None:
            b.finish()

    def build_reduce(self) -> None:
        """A group ending in a reduction: block ``b`` walks its range
        ``[start, end)`` in segments of ``seg`` elements (a row for the
        last axis, the whole range for all axes), each in tiles; the
        reduced value of each tile is folded into an accumulator tile lane
        by lane (the tile's real count only), whose lanes are halved to 16
        by vector operations and those 16 combined by scalar ones; the
        segment's value goes to ``out[s // seg]``."""
        g = self.group
        red = g.reduce
        assert red is not None
        src = red.inputs[0]
        dtype = red.dtype
        params = [self._param(f"in{i}", ("addr", _stored(v.dtype)))
                  for i, v in enumerate(g.inputs)]
        outs = [self._param(f"out{j}", ("addr", _stored(n.dtype))) for j, n in enumerate(g.outputs)]
        red_name = f"out{len(outs)}"  # the reduction's values, after the chain's outputs
        outp = self._param(red_name, ("addr", _stored(dtype)))
        n = self._param("n", ("int",))
        blen = self._param("blen", ("int",))
        seg = self._param("seg", ("int",))
        start = self.named(self.op("arith.mul", [self.op("get_block_idx", []), blen]), "start")
        end = self.named(self.op("arith.min", [self.op("arith.add", [start, blen]), n]), "end")
        env: dict[int, tuple[str, int, Any]] = {}
        full: list[tuple[int, int, Any]] = []
        segments: list[tuple[int, int, Any, int, int]] = []
        for i, (p, v, kind) in enumerate(zip(params, g.inputs, g.kinds)):
            if kind == "scalar":
                gm = self.op("global.new", [p, self.const(1)])
                value = self.op("global.get_value", [gm, self.const(0)])
                env[id(v)] = ("scalar", self.named(value, f"in{i}_value"), v.dtype)
            elif kind == "segment":
                gm = self.named(self.op("global.new", [p, self.const(row_length(v))]),
                                f"in{i}_gm")
                width = segment_width(tuple(v.shape), g.shape)
                segments.append((id(v), gm, v.dtype, width, i))
            else:  # "full" or "expand" (copied to the group's shape first)
                gm = self.named(self.op("global.new", [p, n]), f"in{i}_gm")
                full.append((id(v), gm, v.dtype))
        gouts = [self.named(self.op("global.new", [p, n]), f"out{j}_gm")
                 for j, p in enumerate(outs)]
        nout = self.op("arith.floordiv", [self.op("arith.add", [n, self.op(
            "arith.sub", [seg, self.const(1)])]), seg])
        gout = self.named(self.op("global.new", [outp, nout]), f"{red_name}_gm")
        acc_slot = self.alloc()
        self.pinned.add(acc_slot)
        acc = self.named(self.local(acc_slot, dtype), "acc")
        # float max/min: the vector unit drops NaN, so a second accumulator
        # sums, per lane, -0.0 where a value is a number and the value where
        # it is NaN; x + that is x bit for bit, or NaN
        nans = dtype.is_floating_point and red.op in ("max", "min")
        if nans:
            zero_slot, nan_slot, mask_slot, pick_slot = (self.alloc() for _ in range(4))
            self.pinned |= {zero_slot, nan_slot, mask_slot, pick_slot}
            zeros = self.named(self.local(zero_slot, dtype), "neg_zeros")
            nan_acc = self.named(self.local(nan_slot, dtype), "nan_acc")
            mask = self.local(mask_slot, _C.uint8)
            pick = self.local(pick_slot, dtype)
            self.op("duplicate", [zeros, self.const(-0.0), self.const(self.tile)])
        last = self._last_uses()
        last[id(src)] = len(g.nodes)  # read by the fold after the tile's last operation
        for vid, _, vdtype in full:
            env[vid] = ("tile", self.alloc(), vdtype)
            self.local(env[vid][1], vdtype)
        s = self.named(self._for(start, end, seg), "seg_start")
        seg_end = self.op("arith.min", [self.op("arith.add", [s, seg]), end])
        for vid, gm, vdtype, width, i in segments:  # constant along the row
            at = self.op("arith.floordiv", [s, self.const(width)])
            value = self.named(self.op("global.get_value", [gm, at]), f"in{i}_value")
            env[vid] = ("scalar", value, vdtype)
        self.op("duplicate", [acc, self.const(_INIT[red.op](dtype)), self.const(self.tile)])
        if nans:
            self.op("copy", [nan_acc, zeros, self.const(self.tile)])
        iv = self.named(self._for(s, seg_end, self.const(self.tile)), "offset")
        cnt = self.named(self.op("arith.min", [self.const(self.tile),
                                               self.op("arith.sub", [seg_end, iv])]), "valid")
        cnt_al = self._load_tiles(iv, cnt, full, env)
        free_before = list(self.free)
        out_index = {id(node): j for j, node in enumerate(g.outputs)}
        for i, node in enumerate(g.nodes):
            self._node(i, node, env, last, cnt_al)
            assert node.output is not None
            j = out_index.get(id(node))
            if j is not None:  # whole tiles of a row (the planner's ESCAPE_ROW_UNIT)
                self._write_out(gouts[j], iv, env[id(node.output)], cnt_al)
            if last.get(id(node.output), -1) <= i and node.output is not src:
                self._release(env, node.output)
        kind, slot, have = env[id(src)]
        fold = _FOLD[red.op]
        value = self.local(slot, have)
        self.op(fold, [acc, acc, value, cnt])  # only the tile's real lanes
        if nans:
            self.op("compare", [mask, value, value, cnt_al], (COMPARISONS["equal"],))
            self.op("select", [pick, mask, zeros, value, cnt_al], (2,))
            self.op("add", [nan_acc, nan_acc, pick, cnt])
        self.free = free_before  # the next tile reuses the same slots
        self._end_for()
        result = self._fold_lanes(acc, fold, _SCALAR[red.op])
        if nans:
            result = self.op("arith.add", [result, self._fold_lanes(nan_acc, "add", "arith.add")])
        index = self.op("arith.floordiv", [s, seg])
        self.op("global.set_value", [gout, index, result])
        self._end_for()
        if self.b is not None:
            self.b.finish()

    def _load_tiles(self, iv: int, cnt: int, full: list[tuple[int, int, Any]],
                    env: dict[int, tuple[str, int, Any]]) -> int:
        """Copies the tile at ``iv`` of each full input into its slot, ``cnt``
        elements rounded up to the group's count unit (whole 32-byte blocks
        or compare repeats; past the end they read zeros), and returns that
        rounded count, the one the tile's operations take."""
        unit = count_unit(self.group)
        rounded = self.op("arith.add", [cnt, self.const(unit - 1)])
        cnt_al = self.named(self.op("arith.mul", [self.op("arith.floordiv",
                                                          [rounded, self.const(unit)]),
                                                  self.const(unit)]), "count")
        for vid, gm, dtype in full:
            dst = self.local(env[vid][1], dtype)
            self.op("data_copy", [dst, self.op("global.slice", [gm, iv]), cnt_al])
        return cnt_al

    def _write_out(self, gout: int, iv: int, held: tuple[str, int, Any], cnt: int) -> None:
        """Copies a value's tile to its global output at ``iv`` (a bool
        value is held, and written, as uint8 0/1)."""
        _, slot, dtype = held
        self.op("data_copy", [self.op("global.slice", [gout, iv]), self.local(slot, dtype), cnt])

    def _fold_lanes(self, acc: int, fold: str, scalar: str) -> int:
        """The accumulator's lanes folded into one scalar: halved by vector
        operations down to 16 lanes (slices stay on 32-byte blocks), those
        combined pairwise as scalars."""
        width = self.tile
        while width > _ALIGN:
            width //= 2
            self.op(fold, [acc, acc, self.op("local.slice", [acc, self.const(width)]),
                           self.const(width)])
        lanes = [self.op("local.get_value", [acc, self.const(j)]) for j in range(_ALIGN)]
        while len(lanes) > 1:
            half = len(lanes) // 2
            lanes = [self.op(scalar, [lanes[j], lanes[j + half]]) for j in range(half)]
        return lanes[0]

    def _param(self, name: str, type_: tuple[Any, ...]) -> int:
        return self.const(0) if self.b is None else self.b.param(name, type_)

    def _for(self, start: int, stop: int, step: int) -> int:
        return self.const(0) if self.b is None else self.b.for_begin(start, stop, step)

    def _end_for(self) -> None:
        if self.b is not None:
            self.b.for_end()

    def _last_uses(self) -> dict[int, int]:
        last: dict[int, int] = {}
        for i, node in enumerate(self.group.nodes):
            for a in node.inputs:
                if isinstance(a, _trace.Value):
                    last[id(a)] = i
        return last

    def _release(self, env: dict[int, tuple[str, int, Any]], value: _trace.Value) -> None:
        kind, slot, _ = env[id(value)]
        if kind == "tile" and slot not in self.free and slot not in self.pinned:
            self.free.append(slot)

    def _compare(self, i: int, node: _trace.Node, env: dict[int, tuple[str, int, Any]],
                 last: dict[int, int], cnt: int) -> None:
        """A comparison: a bit mask from compare, 1/0 selected by it in
        float16 and cast to uint8, the bytes of a bool tensor."""
        op, operands = node.op, list(node.inputs)
        if not isinstance(operands[0], _trace.Value):  # 2 < x is x > 2
            op, operands = MIRRORED[op], operands[::-1]
        first = operands[0]
        kind, ref, dtype = env[id(first)]
        mask = self.alloc()
        mask_t = self.local(mask, _C.uint8)
        mode = COMPARISONS[op]
        other = operands[1]
        if isinstance(other, _trace.Value) and env[id(other)][0] == "tile":
            b = self.local(env[id(other)][1], dtype)
            self.op("compare", [mask_t, self.local(ref, dtype), b, cnt], (mode,))
        else:
            scalar = (env[id(other)][1] if isinstance(other, _trace.Value)
                      else self.const(_rounded(other, dtype)))
            self.op("compare_scalar", [mask_t, self.local(ref, dtype), scalar, cnt], (mode,))
        for a in node.inputs:
            if isinstance(a, _trace.Value) and last.get(id(a)) == i and env[id(a)][0] == "tile":
                self._release(env, a)
        ones, picked = self.alloc(), self.alloc()
        ones_t, picked_t = self.local(ones, _C.float16), self.local(picked, _C.float16)
        self.op("duplicate", [ones_t, self.const(1.0), cnt])
        self.op("selects", [picked_t, mask_t, ones_t, self.const(0.0), cnt], (1,))
        self.free += [mask, ones]
        slot = self.alloc()
        self.op("cast", [self.local(slot, _C.uint8), picked_t, cnt], (_CAST_NONE,))
        self.free.append(picked)
        assert node.output is not None
        env[id(node.output)] = ("tile", slot, _C.uint8)

    def _where(self, i: int, node: _trace.Node, env: dict[int, tuple[str, int, Any]],
               last: dict[int, int], cnt: int) -> None:
        """where(cond, a, b): the bool bytes back to a bit mask (cast to
        float16, compare with 0), then select."""
        cond, a, b = node.inputs
        dtype = node.dtype
        as_half = self.alloc()
        half_t = self.local(as_half, _C.float16)
        self.op("cast", [half_t, self.local(env[id(cond)][1], _C.uint8), cnt], (_CAST_NONE,))
        mode = COMPARISONS["not_equal"]
        picks = []
        for p in (a, b):
            if isinstance(p, _trace.Value):
                kind, ref, _ = env[id(p)]
                picks.append((kind, self.local(ref, dtype) if kind == "tile" else ref))
            else:
                picks.append(("scalar", self.const(_rounded(p, dtype))))
        if picks[0][0] == "scalar" and picks[1][0] == "tile":  # select b where cond is 0
            picks, mode = picks[::-1], COMPARISONS["equal"]
        mask = self.alloc()
        mask_t = self.local(mask, _C.uint8)
        self.op("compare_scalar", [mask_t, half_t, self.const(0.0), cnt], (mode,))
        self.free.append(as_half)
        temps = [mask]
        if picks[0][0] == "scalar":
            tmp = self.alloc()
            temps.append(tmp)
            dst = self.local(tmp, dtype)
            self.op("duplicate", [dst, picks[0][1], cnt])
            picks[0] = ("tile", dst)
        for v in node.inputs:
            if isinstance(v, _trace.Value) and last.get(id(v)) == i and env[id(v)][0] == "tile":
                self._release(env, v)
        slot = self.alloc()
        dst = self.local(slot, dtype)
        if picks[1][0] == "scalar":
            self.op("selects", [dst, mask_t, picks[0][1], picks[1][1], cnt], (1,))
        else:
            self.op("select", [dst, mask_t, picks[0][1], picks[1][1], cnt], (2,))
        self.free += [t for t in temps if t != slot]
        assert node.output is not None
        env[id(node.output)] = ("tile", slot, dtype)

    def _operands(self, node: _trace.Node, env: dict[int, tuple[str, int, Any]], dtype: Any,
                  temps: list[int], cnt: int) -> list[tuple[str, int]]:
        """node's operands in ``dtype``: ("tile", local id), cast into a new
        slot (listed in ``temps``) when promotion converts it, or ("scalar",
        IR value)."""
        srcs: list[tuple[str, int]] = []
        for a in node.inputs:
            if a is None:
                continue
            if isinstance(a, _trace.Value):
                kind, ref, have = env[id(a)]
                if kind == "scalar":
                    srcs.append(("scalar", ref))
                elif have != dtype:
                    tmp = self.alloc()
                    temps.append(tmp)
                    dst = self.local(tmp, dtype)
                    mode = _CAST_NONE if _exact(have, dtype) else _CAST_RINT
                    self.op("cast", [dst, self.local(ref, have), cnt], (mode,))
                    srcs.append(("tile", dst))
                else:
                    srcs.append(("tile", self.local(ref, have)))
            else:  # a Python number takes the operation's dtype first (NEP 50)
                srcs.append(("scalar", self.const(_rounded(a, node.dtype))))
        return srcs

    def _nan_keeping(self, i: int, node: _trace.Node, env: dict[int, tuple[str, int, Any]],
                     last: dict[int, int], cnt: int, srcs: list[tuple[str, int]],
                     temps: list[int]) -> None:
        """Float maximum, minimum and relu as eager computes them (NumPy's
        ``x >= y or isnan(x) ? x : y``; relu ``x > 0 or isnan(x) ? x : +0``),
        from compare and select rather than the vector unit's max/min, which
        drop NaN and pick either zero: a mask of the comparison selects x or
        the other operand, then a mask of x == x puts x's NaNs back."""
        dtype = node.dtype
        if node.op == "relu":
            srcs = srcs + [("scalar", self.const(0.0))]
        (k0, a), (k1, b) = srcs
        mode = COMPARISONS["less_equal" if node.op == "minimum" else "greater_equal"]
        if k0 == "scalar" and k1 == "scalar":  # the planner never fuses this: an internal error
            raise _C.InternalError("pyasc.op fuser: maximum/minimum of two scalars")
        if k0 == "scalar":  # c op x: x wins where c loses, that is where x beats c strictly
            (k0, a), (k1, b) = (k1, b), (k0, a)
            mode = COMPARISONS["less" if node.op == "minimum" else "greater"]
        if node.op == "relu":  # -0 is not above 0: relu gives +0, as eager
            mode = COMPARISONS["greater"]
        mask = self.alloc()
        mask_t = self.local(mask, _C.uint8)
        picked = self.alloc()
        picked_t = self.local(picked, dtype)
        if k1 == "scalar":
            self.op("compare_scalar", [mask_t, a, b, cnt], (mode,))
            self.op("selects", [picked_t, mask_t, a, b, cnt], (1,))
        else:
            self.op("compare", [mask_t, a, b, cnt], (mode,))
            self.op("select", [picked_t, mask_t, a, b, cnt], (2,))
        self.op("compare", [mask_t, a, a, cnt], (COMPARISONS["equal"],))  # 0 where a is NaN
        for v in node.inputs:
            if isinstance(v, _trace.Value) and last.get(id(v)) == i and env[id(v)][0] == "tile":
                self._release(env, v)
        slot = self.alloc()
        self.op("select", [self.local(slot, dtype), mask_t, picked_t, a, cnt], (2,))
        self.free += [t for t in temps + [mask, picked] if t != slot]
        assert node.output is not None
        env[id(node.output)] = ("tile", slot, dtype)

    def _node(self, i: int, node: _trace.Node, env: dict[int, tuple[str, int, Any]],
              last: dict[int, int], cnt: int) -> None:
        if node.op in COMPARISONS:
            self._compare(i, node, env, last, cnt)
            return
        if node.op == "where":
            self._where(i, node, env, last, cnt)
            return
        # bfloat16 computes in float32; the result is cast back below
        dtype = _C.float32 if node.dtype in VIA_F32 else node.dtype
        temps: list[int] = []
        srcs = self._operands(node, env, dtype, temps, cnt)
        if node.op in _NAN_KEEPING and dtype.is_floating_point:
            self._nan_keeping(i, node, env, last, cnt, srcs, temps)
            return
        op = node.op
        if op == "subtract" and dtype.is_floating_point and srcs[1][0] == "scalar" \
                and not isinstance(node.inputs[1], _trace.Value):
            # x - c is x + (-c) exactly in IEEE arithmetic; c is already rounded
            op, srcs[1] = "add", ("scalar", self.const(-_rounded(node.inputs[1], node.dtype)))
        if op in _BINARY and op in _WITH_SCALAR and [k for k, _ in srcs].count("scalar") == 1:
            srcs.sort(key=lambda s: s[0] != "tile")  # commutative: the tile first
        elif op in _BINARY or op in _UNARY or op in _ADV_UNARY or op in ("astype", "positive",
                                                                          "negative"):
            for j, (k, ref) in enumerate(srcs):
                if k == "scalar":
                    tmp = self.alloc()
                    temps.append(tmp)
                    dst = self.local(tmp, dtype)
                    self.op("duplicate", [dst, ref, cnt])
                    srcs[j] = ("tile", dst)
        # operands read for the last time free their slots for the result
        for a in node.inputs:
            if isinstance(a, _trace.Value) and last.get(id(a)) == i and env[id(a)][0] == "tile":
                self._release(env, a)
        slot = self.alloc()
        dst = self.local(slot, dtype)
        refs = [r for _, r in srcs]
        if op in _UNARY:
            self.op(_UNARY[op], [dst, refs[0], cnt])
        elif op in _ADV_UNARY:  # no temp buffer (-1): Ascend C's form without one
            self.op(_ADV_UNARY[op], [dst, refs[0], cnt, self.const(-1)])
        elif op in _BINARY:
            if srcs[1][0] == "scalar":
                self.op(_WITH_SCALAR[op], [dst, refs[0], refs[1], cnt])
            else:
                self.op(_BINARY[op], [dst, refs[0], refs[1], cnt])
        elif op == "negative":
            self.op("muls", [dst, refs[0], self.const(-1.0 if dtype.is_floating_point else -1), cnt])
        elif op == "positive":
            self.op("copy", [dst, refs[0], cnt])
        elif op == "astype":
            self.op("copy", [dst, refs[0], cnt])  # the cast happened when reading the operand
        else:  # the planner's table and this one disagree: an internal error
            raise _C.InternalError(f"pyasc.op fuser: no kernel form for {op}")
        for tmp in temps:
            if tmp != slot:
                self.free.append(tmp)
        if node.dtype != dtype:  # rounded to bfloat16 once, as eager rounds each operation
            wide, slot = slot, self.alloc()
            self.op("cast", [self.local(slot, node.dtype), dst, cnt], (_CAST_RINT,))
            self.free.append(wide)
        assert node.output is not None
        env[id(node.output)] = ("tile", slot, node.dtype)


#: a reduction -> the vector operation that folds a tile into the
#: accumulator, the scalar one that combines its last lanes, and its
#: neutral value (the accumulator's start) per dtype.
_FOLD = {"sum": "add", "mean": "add", "max": "max", "min": "min"}
_SCALAR = {"sum": "arith.add", "mean": "arith.add", "max": "arith.max", "min": "arith.min"}
_INT_LIMITS = {"int16": (-(1 << 15), (1 << 15) - 1), "int32": (-(1 << 31), (1 << 31) - 1)}
#: a reduction's starting value for a dtype
_INIT: dict[str, Callable[[Any], float]] = {
    "sum": lambda dt: 0.0 if dt.is_floating_point else 0,
    "mean": lambda dt: 0.0,
    "max": lambda dt: -math.inf if dt.is_floating_point else _INT_LIMITS[dt.name][0],
    "min": lambda dt: math.inf if dt.is_floating_point else _INT_LIMITS[dt.name][1],
}


def reduce_tile(group: Group, tile: int) -> int:
    """The tile of a reducing group: a power of two (the accumulator's lanes
    halve), no longer than a row needs for last-axis reductions."""
    t = 1 << (max(tile, 1).bit_length() - 1)
    if group.reduce_mode == "last":
        need = max(count_unit(group), _ALIGN, 1 << max(0, group.width - 1).bit_length())
        t = min(t, need)
    return t


def count_unit(group: Group) -> int:
    """What a tile's element count is rounded up to: whole 32-byte blocks,
    or for a group with comparisons whole 256-byte repeats of the widest
    operand (compare's count form) and 32-byte blocks of its uint8 results."""
    masks = any(n.op in COMPARISONS or n.op == "where" or (
        n.op in _NAN_KEEPING and n.dtype.is_floating_point) for n in group.nodes) or (
        group.reduce is not None and group.reduce.op in ("max", "min")
        and group.reduce.dtype.is_floating_point)
    return 128 if masks else _ALIGN


def _stored(dtype: Any) -> Any:
    """The dtype a kernel writes for a result: bool results as uint8 0/1."""
    return _C.uint8 if dtype == _C.bool_ else dtype


def row_length(value: _trace.Value) -> int:
    """Elements of a row input (its shape without leading ones)."""
    size = 1
    for d in value.shape:
        size *= int(d)
    return size


def _exact(src: Any, dst: Any) -> bool:
    return (src, dst) in ((_C.float16, _C.float32), (_C.int16, _C.int32), (_C.int16, _C.float32),
                          (_C.bfloat16, _C.float32))


def _rounded(value: int | float, dtype: Any) -> int | float:
    """A Python number as eager holds it next to a ``dtype`` tensor (NEP 50:
    converted to ``dtype`` once), as an exact IR constant."""
    if dtype.is_floating_point:
        return float(_C.Tensor(value, dtype=dtype).item())
    return int(value)


_memory: dict[str, tuple[Any, str]] = {}  # C source -> (native kernel, Ascend C)
_profiled: dict[str, Any] = {}  # profiled C source -> native kernel (pyasc.profile)
_lock = threading.Lock()


def kernel_name(opname: str, index: int) -> str:
    """The kernel's name: the operator's, in [A-Za-z0-9_], and its group's index."""
    return f"fused_{re.sub(r'[^A-Za-z0-9_]', '_', opname)[:40]}_{index}"


def build(group: Group, name: str, ub_size: int, compile_native: bool = True) -> FusedKernel:
    """The group's kernel, built (or found in the memory or disk cache).
    Raises :class:`pyasc.UnsupportedError` when its live tiles do not fit
    in the Unified Buffer, and whatever the IR builder raises for a form
    it refuses (the caller then runs the group eagerly)."""
    dry = _Emitter(group, name, 16, dry=True)
    dry.build()
    slots = max(dry.nslots, 1)
    if slots > MAX_SLOTS:
        raise _C.UnsupportedError(f"{slots} live tiles do not fit in the Unified Buffer")
    budget = ub_size - 8192
    tile = min(8192, budget // (slots * _SLOT_BYTES) // _ALIGN * _ALIGN)
    align = count_unit(group)
    for v, kind in zip(group.inputs, group.kinds):
        if kind == "row":  # every row length divides the tile and the block length
            align = math.lcm(align, row_length(v))
        elif kind == "column":
            align = math.lcm(align, column_width(tuple(v.shape), group.shape))
    tile = tile // align * align
    if tile < max(256, align):
        raise _C.UnsupportedError(f"{slots} live tiles do not fit in the Unified Buffer")
    if group.reduce is not None:
        tile = reduce_tile(group, tile)
    em = _Emitter(group, name, tile, dry=False)
    em.build()
    assert em.b is not None
    em.b.insert_sync()
    source = em.b.emit_c(checked=False)
    profiled = em.b.emit_c(checked=False, profiled=True)
    signature = "a" * (len(group.inputs) + len(group.outputs)) + "ii"
    if group.reduce is not None:
        signature = "a" * (len(group.inputs) + len(group.outputs) + 1) + "iii"
    with _lock:
        found = _memory.get(source)
    if found is not None:
        return FusedKernel(name, tile, source, found[1], found[0], "memory", signature, align,
                           profiled)
    ascendc = em.b.emit_ascendc()
    if not compile_native:
        return FusedKernel(name, tile, source, ascendc, None, "not built", signature, align,
                           profiled)
    native, hit = _C.jit_build(source, name, signature)
    with _lock:
        _memory[source] = (native, ascendc)
    return FusedKernel(name, tile, source, ascendc, native, "disk cache" if hit else "built",
                       signature, align, profiled)


def cores() -> int:
    """Blocks a launch may use: the device's AI cores."""
    return int(_C.get_device_properties().ai_core_count)


__all__ = ["FusedKernel", "build", "cores", "grid", "kernel_name"]
