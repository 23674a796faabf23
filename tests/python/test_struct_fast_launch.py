"""Kernels with Struct parameters launch through the C fast path once built
(src/binding/ir.c: the dispatcher keys a Struct by its type and passes its
members as flatten() gives them, read at every launch)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from pyasc.language.struct import Field, Struct, StructField

N = 64


class Inner(Struct):
    offset = Field(asc.int16, default=0)


class Params(Struct):
    n = Field(asc.int32, default=N)
    scale = Field(asc.float32, default=1.0)
    inner = StructField(Inner)
    on = Field("bool", default=True)


class OtherParams(Struct):
    n = Field(asc.int32, default=N)


@asc.jit
def scaled(x: asc.GlobalAddress, z: asc.GlobalAddress, p: Params) -> None:
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x, p.n)
    zg.set_global_buffer(z, p.n)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, p.n)
    asc.data_copy(t, xg, p.n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if p.on:
        asc.muls(t, t, p.scale, p.n)
    asc.adds(t, t, p.inner.offset, p.n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, t, p.n)


def test_struct_launches_take_the_fast_path_with_fresh_member_values(monkeypatch):
    x = np.arange(N, dtype=np.float32)
    z = np.zeros_like(x)
    scaled[1](x, z, Params(scale=2.0))  # builds; the dispatcher learns the kernel
    np.testing.assert_array_equal(z, 2 * x)

    def no_python_launch(*args, **kwargs):
        raise AssertionError("the Python launch path ran")

    monkeypatch.setattr(type(scaled), "compile", no_python_launch)
    for scale, offset, on in ((3.0, 0, True), (0.5, 7, True), (9.0, -2, False)):
        p = Params(scale=scale, inner=Inner(offset=offset), on=on)
        assert scaled._dispatch.launch(1, None, x, z, p) is True
        np.testing.assert_array_equal(z, (scale * x if on else x) + offset)
        z[:] = 0
        scaled[1](x, z, p)  # the ordinary launch reaches the same path
        np.testing.assert_array_equal(z, (scale * x if on else x) + offset)


def test_a_struct_of_another_type_is_not_mistaken_for_a_built_one():
    x = np.arange(N, dtype=np.float32)
    scaled[1](x, np.zeros_like(x), Params())
    assert scaled._dispatch.launch(1, None, x, np.zeros_like(x), OtherParams()) is False
    with pytest.raises(TypeError):
        scaled[1](x, np.zeros_like(x), object())


def test_unflatten_inverts_flatten_and_by_name_finds_subclasses():
    """Struct.unflatten rebuilds a struct, nested ones included, from the
    values flatten() gives (what a launch passes); Struct.by_name finds a
    struct type by its name (as Ascend C names it in a kernel signature)."""
    p = Params(n=7, scale=2.5, inner=Inner(offset=-3), on=False)
    values = iter(p.flatten() + ["rest"])
    q = Params.unflatten(values)
    assert q == p and q.pack() == p.pack()
    assert next(values) == "rest"  # exactly its own values taken
    names = Struct.by_name()
    assert names["Params"] is Params and names["Inner"] is Inner
    assert "TCubeTiling" in names
