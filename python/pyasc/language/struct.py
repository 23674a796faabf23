"""User structs passed to kernels (PyAsc's ``asc.language.core.struct``).

A class deriving from :class:`Struct` declares typed fields::

    class Tiling(Struct):
        block_length = Field(pyasc.int32, default=0)
        scale = Field("float32", default=1.0)

An instance is built on the host (``Tiling(block_length=128)``) and passed to
a kernel like any argument; inside the kernel ``tiling.block_length`` reads a
field and ``tiling.block_length = v`` assigns one. A field holds what its C
type would: assigning 2**31 to an int32 field wraps, as PyAsc's packed bytes
do. The launch passes each field as one scalar argument (see
``pyasc.language.jit``); :meth:`Struct.pack` gives PyAsc's byte layout.
"""

from __future__ import annotations

import struct as _bytes
from typing import Any, ClassVar, Iterator

import numpy as np

#: Field dtypes PyAsc accepts: name -> (struct format, size, kernel kind).
_FIELD_TYPES = {
    "int1": ("?", 1, "bool"),
    "bool": ("?", 1, "bool"),
    "int8": ("b", 1, "int"),
    "int16": ("h", 2, "int"),
    "int32": ("i", 4, "int"),
    "int64": ("q", 8, "int"),
    "uint8": ("B", 1, "int"),
    "uint16": ("H", 2, "int"),
    "uint32": ("I", 4, "int"),
    "uint64": ("Q", 8, "int"),
    "float32": ("f", 4, "float"),
    "float64": ("d", 8, "float"),
}
#: PyAsc's spellings of the same types.
_ALIASES = {"bool_": "bool", "int_": "int32", "float_": "float32", "half": "float16",
            "double": "float64", "bit": "int1"}

missing = object()


def field_type_name(dtype: Any) -> str:
    """The canonical name of a field dtype (a pyasc dtype, DataType or str);
    TypeError for types a struct field cannot hold."""
    name = dtype if isinstance(dtype, str) else getattr(dtype, "name", None)
    if not isinstance(name, str):
        raise TypeError(f"a struct field's dtype must be a dtype such as pyasc.int32, not "
                        f"{dtype!r}")
    name = _ALIASES.get(name, name)
    if name not in _FIELD_TYPES:
        raise TypeError(f"a struct field cannot hold {name} (supported: "
                        f"{', '.join(sorted(_FIELD_TYPES))})")
    return name


def wrap_value(type_name: str, value: Any, what: str) -> bool | int | float:
    """value as a field of that type holds it: integers wrap to the width,
    floats round to the precision (as ctypes would store them)."""
    fmt, size, kind = _FIELD_TYPES[type_name]
    if kind == "bool":
        return bool(value)
    if kind == "int":
        if isinstance(value, float) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{what} is an {type_name} field: expected an int, got "
                            f"{type(value).__name__}")
        bits = 8 * size
        wrapped = int(value) % (1 << bits)
        return wrapped - (1 << bits) if fmt.islower() and wrapped >= 1 << (bits - 1) else wrapped
    if not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(value, bool):
        raise TypeError(f"{what} is a {type_name} field: expected a number, got "
                        f"{type(value).__name__}")
    return float(np.float32(value)) if type_name == "float32" else float(value)


class BaseField:
    """A declared member of a :class:`Struct`."""

    def __init__(self, default: Any = missing, name: str | None = None) -> None:
        self.default = default
        self.name = name

    def ir_name(self, default: str) -> str:
        """The member's name in emitted source (``name`` overrides the
        attribute's)."""
        return default if self.name is None else self.name


class Field(BaseField):
    """A scalar member: ``Field(dtype, default=..., name=None, enum=None)``."""

    def __init__(self, dtype: Any, default: Any = missing, name: str | None = None,
                 enum: str | None = None) -> None:
        super().__init__(default, name)
        self.type_name = field_type_name(dtype)
        self.dtype = dtype
        self.enum_name = enum

    @property
    def kind(self) -> str:
        """The kernel value kind of the field: int, float or bool."""
        return _FIELD_TYPES[self.type_name][2]

    def convert(self, value: Any, what: str) -> Any:
        """value as the field stores it."""
        return wrap_value(self.type_name, value, what)


class StructField(BaseField):
    """A member that is itself a :class:`Struct` (default: the struct's
    defaults)."""

    def __init__(self, struct_cls: type, default: Any = None, name: str | None = None) -> None:
        if not (isinstance(struct_cls, type) and issubclass(struct_cls, Struct)):
            raise TypeError(f"StructField needs a Struct subclass, not {struct_cls!r}")
        super().__init__(default, name)
        self.struct_cls = struct_cls

    def convert(self, value: Any, what: str) -> Any:
        if not isinstance(value, self.struct_cls):
            raise TypeError(f"{what} holds a {self.struct_cls.__name__}, not "
                            f"{type(value).__name__}")
        return value


class Struct:
    """Base of user structs passed to kernels (see the module docstring)."""

    struct_fields: ClassVar[dict[str, BaseField]]
    struct_pack: ClassVar[int]

    def __init_subclass__(cls, pack: int = 8, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.struct_fields = {n: v for n, v in vars(cls).items() if isinstance(v, BaseField)}
        if not cls.struct_fields:
            raise TypeError(f"Struct '{cls.__name__}' must have at least one field")
        if "dtype" in cls.struct_fields:
            # a launch reads `arg.dtype` to tell arrays apart; a field may still be
            # called dtype in emitted source: other = Field(..., name="dtype")
            raise TypeError(f"Struct '{cls.__name__}': a field cannot be called 'dtype' (launches "
                            "read arguments' dtype); name it otherwise and pass name='dtype'")
        if pack not in (1, 2, 4, 8, 16):
            raise ValueError(f"Struct '{cls.__name__}': pack must be 1, 2, 4, 8 or 16")
        cls.struct_pack = pack

    def __init__(self, **fields: Any) -> None:
        values: dict[str, Any] = {}
        object.__setattr__(self, "_values", values)
        for name in fields:
            if name not in self.struct_fields:
                raise TypeError(f"{type(self).__name__} does not have a field '{name}'")
        for name, f in self.struct_fields.items():
            if name in fields:
                value = fields[name]
            elif isinstance(f, StructField):
                value = f.default if f.default is not None else f.struct_cls()
            elif f.default is missing:
                raise TypeError(f"{type(self).__name__} does not have a default value for "
                                f"'{name}'")
            else:
                value = f.default
            values[name] = f.convert(value, f"{type(self).__name__}.{name}")

    def __getattribute__(self, name: str) -> Any:
        if not name.startswith("_") and name in type(self).struct_fields:
            return object.__getattribute__(self, "_values")[name]
        return object.__getattribute__(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        f = type(self).struct_fields.get(name)
        if f is None:
            raise AttributeError(f"{type(self).__name__} does not have a field '{name}'")
        self._values[name] = f.convert(value, f"{type(self).__name__}.{name}")

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={v!r}" for n, v in self._values.items())
        return f"{type(self).__name__}({inner})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._values == self._values  # type: ignore

    __hash__ = None  # type: ignore[assignment]  # mutable

    @classmethod
    def get_field(cls, name: str) -> BaseField:
        """The declared field called name (AttributeError if none)."""
        f = cls.struct_fields.get(name)
        if f is None:
            raise AttributeError(f"{cls.__name__} does not have a field '{name}'")
        return f

    @classmethod
    def leaves(cls, prefix: str = "") -> Iterator[tuple[str, Field]]:
        """(path, Field) of every scalar member, nested structs flattened
        with ``_`` (``tile_tile_length``), in declaration order."""
        for name, f in cls.struct_fields.items():
            if isinstance(f, StructField):
                yield from f.struct_cls.leaves(f"{prefix}{name}_")
            else:
                yield f"{prefix}{name}", f  # type: ignore[misc]

    def flatten(self) -> list:
        """The scalar members' values in :meth:`leaves` order."""
        out: list = []
        for name, f in self.struct_fields.items():
            value = self._values[name]
            out.extend(value.flatten() if isinstance(f, StructField) else [value])
        return out

    @classmethod
    def unflatten(cls, values: Iterator[Any]) -> "Struct":
        """The struct whose :meth:`flatten` values are the next of
        ``values`` (a launch passes a struct as those values)."""
        return cls(**{name: f.struct_cls.unflatten(values) if isinstance(f, StructField)
                      else next(values) for name, f in cls.struct_fields.items()})

    @classmethod
    def by_name(cls) -> dict[str, type]:
        """Every subclass of this class, by its name (what Ascend C calls the
        struct's type)."""
        out: dict[str, type] = {}
        for sub in cls.__subclasses__():
            out[sub.__name__] = sub
            out.update(sub.by_name())
        return out

    @classmethod
    def _layout(cls) -> tuple[int, int]:
        """(size, alignment) of the packed C struct."""
        offset, align = 0, 1
        for _name, f in cls.struct_fields.items():
            size, a = f.struct_cls._layout() if isinstance(f, StructField) else \
                (_FIELD_TYPES[f.type_name][1],) * 2  # type: ignore[attr-defined]
            a = min(a, cls.struct_pack)
            offset = -(-offset // a) * a + size
            align = max(align, a)
        return -(-offset // align) * align, align

    def pack(self) -> bytes:
        """The struct's bytes as PyAsc hands them to the device (C layout,
        ``#pragma pack(pack)``, little-endian)."""
        out = bytearray()
        for name, f in self.struct_fields.items():
            value = self._values[name]
            if isinstance(f, StructField):
                data, a = value.pack(), f.struct_cls._layout()[1]
            else:
                fmt, a, _kind = _FIELD_TYPES[f.type_name]  # type: ignore[attr-defined]
                data = _bytes.pack("<" + fmt, value)
            a = min(a, self.struct_pack)
            out += b"\0" * (-len(out) % a)
            out += data
        size, _ = self._layout()
        return bytes(out.ljust(size, b"\0"))


__all__ = ["BaseField", "Field", "StructField", "Struct"]
