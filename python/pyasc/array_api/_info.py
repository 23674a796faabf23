"""The Array API's inspection namespace: what pyasc's devices and dtypes are."""

from __future__ import annotations

from typing import Any

from pyasc import _C
from pyasc.array_api import _dtypes as d


class Info:
    """__array_namespace_info__(): capabilities, devices and dtypes."""

    def capabilities(self) -> dict[str, Any]:
        """Boolean indexing and data-dependent shapes are supported; at most
        16 dimensions."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 16}

    def default_device(self) -> str:
        """The current simulated device, e.g. 'cpu:0'."""
        return f"cpu:{_C.current_device()}"

    def devices(self) -> list[str]:
        """Every simulated device."""
        return [f"cpu:{i}" for i in range(_C.device_count())]

    def default_dtypes(self, *, device: Any = None) -> dict[str, _C.dtype]:
        """The dtypes creation functions use: float64, complex128, int64 and
        int64 for indices (the same on every device)."""
        del device
        return {"real floating": d.float64, "complex floating": d.complex128,
                "integral": d.int64, "indexing": d.int64}

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, _C.dtype]:
        """The standard's dtypes pyasc has, by name, of a kind or kinds."""
        del device
        names = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float32", "float64", "complex64", "complex128"]
        found = {n: getattr(d, n) for n in names}
        if kind is None:
            return found
        return {n: t for n, t in found.items() if d.isdtype(t, kind)}


def __array_namespace_info__() -> Info:
    """The inspection namespace."""
    return Info()
