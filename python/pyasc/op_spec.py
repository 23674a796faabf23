"""What an operator declares about its inputs, outputs and attributes:
:class:`TensorSpec` (dtypes, rank, a shape pattern with symbolic sizes) and
:class:`Attr` (a typed scalar parameter), used by :func:`pyasc.op`
(python/pyasc/op.py)."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from types import EllipsisType
from typing import Any, NoReturn, TypeAlias

import numpy as np

from pyasc import _C

# --- dtype facts (promotion itself: pyasc._promotion) ----------------------


_KIND_RANK = {bool: 0, int: 1, float: 2}


def _dtype_rank(dtype: _C.dtype) -> int:
    """0 bool, 1 integer, 2 float: the kind order of weak-scalar promotion."""
    if dtype == _C.bool_:
        return 0
    return 2 if dtype.is_floating_point else 1


def _dtype_names(dtypes: Sequence[_C.dtype]) -> str:
    return ", ".join(d.name for d in dtypes)


# --- specs ------------------------------------------------------------------

#: One entry of a shape pattern (see TensorSpec.shape).
Dim: TypeAlias = int | str | None | EllipsisType


@dataclass(frozen=True)
class TensorSpec:
    """What an operator input or output may be.

    A spec with a shape pattern and no ``...`` fixes the rank; ``ndim`` then
    must agree with it.

    Parameters
    ----------
    dtypes : dtype or sequence of dtypes, optional
        The allowed dtypes (anything :class:`pyasc.dtype` accepts); ``None``
        allows every dtype.
    ndim : int or tuple of int, optional
        The allowed rank, or ranks; ``None`` allows any.
    shape : sequence, optional
        A pattern, one entry per dimension: an ``int`` must match exactly, a
        ``str`` names a symbolic size that must be the same everywhere the
        name appears in one call (across inputs and outputs), ``None``
        matches any size, and one ``...`` (``Ellipsis`` or ``"..."``)
        matches any number of dimensions: ``("M", "K")`` and ``("K", "N")``
        for a matmul.
    doc : str
        A description, listed by :meth:`Op.describe`.

    Raises
    ------
    InvalidValueError
        A malformed pattern or rank, or a rank the pattern contradicts.

    Examples
    --------
    >>> spec = pyasc.TensorSpec(dtypes=pyasc.float32, shape=("M", "K"))
    >>> spec.describe()
    'dtype float32, shape (M, K)'
    """

    dtypes: tuple[_C.dtype, ...] | None = None
    ndim: int | tuple[int, ...] | None = None
    shape: tuple[Dim, ...] | None = None
    doc: str = ""

    def __post_init__(self) -> None:
        if self.dtypes is not None:
            single = isinstance(self.dtypes, (str, type, _C.dtype, np.dtype))
            given = (self.dtypes,) if single else self.dtypes
            dtypes = tuple(_C.dtype(d) for d in given)
            if not dtypes:
                raise _C.InvalidValueError("TensorSpec: dtypes is empty; use None to allow any")
            object.__setattr__(self, "dtypes", dtypes)
        if self.ndim is not None:
            ranks = (self.ndim,) if isinstance(self.ndim, int) else tuple(self.ndim)
            bad = [r for r in ranks if isinstance(r, bool) or not isinstance(r, int) or r < 0]
            if not ranks or bad:
                raise _C.InvalidValueError(f"TensorSpec: ndim must be ints >= 0, not {self.ndim!r}")
            object.__setattr__(self, "ndim", ranks[0] if len(ranks) == 1 else ranks)
        if self.shape is not None:
            object.__setattr__(self, "shape", self._check_pattern(self.shape))
            fixed = self.fixed_ndim
            if fixed is not None and self.ndim is not None and fixed not in self.ranks:
                raise _C.InvalidValueError(
                    f"TensorSpec: shape {self.pattern_text()} has {fixed} dimensions "
                    f"but ndim is {self.ndim}"
                )

    @staticmethod
    def _check_pattern(shape: Sequence[Dim]) -> tuple[Dim, ...]:
        if isinstance(shape, (str, int)):
            raise _C.InvalidValueError(f"TensorSpec: shape must be a sequence, not {shape!r}")
        pattern = tuple(Ellipsis if d == "..." else d for d in shape)
        for d in pattern:
            ok = d is None or d is Ellipsis or (isinstance(d, str) and d.isidentifier())
            ok = ok or (isinstance(d, int) and not isinstance(d, bool) and d >= 0)
            if not ok:
                raise _C.InvalidValueError(
                    f"TensorSpec: shape entry {d!r} is not an int >= 0, a name, None or ..."
                )
        if pattern.count(Ellipsis) > 1:
            raise _C.InvalidValueError("TensorSpec: at most one ... in a shape")
        return pattern

    @property
    def ranks(self) -> tuple[int, ...] | None:
        """The allowed ranks as a tuple, or ``None``."""
        if self.ndim is None:
            return None
        return (self.ndim,) if isinstance(self.ndim, int) else self.ndim

    @property
    def fixed_ndim(self) -> int | None:
        """The rank the shape pattern fixes, if it does."""
        if self.shape is None or Ellipsis in self.shape:
            return None
        return len(self.shape)

    def pattern_text(self) -> str:
        """The shape pattern as text, e.g. ``(M, K)``.

        Returns
        -------
        str
            ``?`` for a size that may be anything, ``any`` without a pattern.

        Examples
        --------
        >>> pyasc.TensorSpec(shape=("B", ..., None, 3)).pattern_text()
        '(B, ..., ?, 3)'
        """
        if self.shape is None:
            return "any"
        items = ["..." if d is Ellipsis else "?" if d is None else str(d) for d in self.shape]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"

    def describe(self) -> str:
        """A one-line summary, as :meth:`Op.describe` lists it.

        Returns
        -------
        str
            The dtypes, rank and shape pattern, then the doc.

        Examples
        --------
        >>> pyasc.TensorSpec(ndim=(1, 2), doc="the rows").describe()
        'ndim (1, 2) - the rows'
        """
        parts = []
        if self.dtypes is not None:
            parts.append("dtype " + " | ".join(d.name for d in self.dtypes))
        if self.ndim is not None:
            parts.append(f"ndim {self.ndim}")
        if self.shape is not None:
            parts.append(f"shape {self.pattern_text()}")
        text = ", ".join(parts) or "any tensor"
        return f"{text} - {self.doc}" if self.doc else text

    def check(self, opname: str, role: str, t: _C.Tensor, dims: dict[str, tuple[int, str]]) -> None:
        """Checks tensor ``t`` against the spec, binding symbolic sizes.

        Parameters
        ----------
        opname, role : str
            The operator and the argument, for messages.
        t : Tensor
            The tensor to check.
        dims : dict
            Symbolic sizes bound so far: name -> (size, where it was bound);
            the sizes this tensor binds are added.

        Returns
        -------
        None

        Raises
        ------
        DTypeError
            A dtype the spec does not allow.
        InvalidValueError
            A rank or shape the spec does not allow; the message names the
            operator, ``role`` and the rule.

        Examples
        --------
        >>> spec = pyasc.TensorSpec(shape=("M", "K"))
        >>> dims = {}
        >>> spec.check("mm", "a", pyasc.zeros((2, 3)), dims)
        >>> dims
        {'M': (2, 'a'), 'K': (3, 'a')}
        """
        if self.dtypes is not None and t.dtype not in self.dtypes:
            raise _C.DTypeError(
                f"{opname}: {role} has dtype {t.dtype.name}, expected one of "
                f"{_dtype_names(self.dtypes)}"
            )
        ranks = self.ranks
        if ranks is not None and t.ndim not in ranks:
            want = ranks[0] if len(ranks) == 1 else "one of " + ", ".join(map(str, ranks))
            raise _C.InvalidValueError(f"{opname}: {role} has {t.ndim} dimensions, expected {want}")
        if self.shape is not None:
            self._match_shape(opname, role, tuple(t.shape), dims)

    def _match_shape(
        self, opname: str, role: str, shape: tuple[int, ...], dims: dict[str, tuple[int, str]]
    ) -> None:
        pattern = self.shape
        assert pattern is not None
        if Ellipsis in pattern:
            cut = pattern.index(Ellipsis)
            head, tail = pattern[:cut], pattern[cut + 1 :]
            if len(shape) < len(head) + len(tail):
                least = len(head) + len(tail)
                self._shape_error(opname, role, shape, f"at least {least} dimensions")
            pairs = list(zip(head, shape)) + list(zip(tail, shape[len(shape) - len(tail) :]))
        else:
            if len(shape) != len(pattern):
                self._shape_error(opname, role, shape, f"{len(pattern)} dimensions")
            pairs = list(zip(pattern, shape))
        bound: dict[str, tuple[int, str]] = {}
        for want, have in pairs:
            if want is None:
                continue
            if isinstance(want, int):
                if have != want:
                    self._shape_error(opname, role, shape, f"size {want} where it has {have}")
                continue
            seen = dims.get(want) or bound.get(want)
            if seen is not None and seen[0] != have:
                size, where = seen
                self._shape_error(opname, role, shape, f"{want}={size} (from {where}), got {have}")
            bound.setdefault(want, (have, role))
        for name, value in bound.items():
            dims.setdefault(name, value)

    def _shape_error(self, opname: str, role: str, shape: tuple[int, ...], why: str) -> NoReturn:
        raise _C.InvalidValueError(
            f"{opname}: {role} has shape {shape}, expected {self.pattern_text()}: {why}"
        )


class _Required:
    """Marker: the attribute has no default and must be given."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()

_ATTR_TYPES = (bool, int, float, str, _C.dtype)


@dataclass(frozen=True)
class Attr:
    """A typed scalar parameter of an operator.

    Parameters
    ----------
    type : type
        ``bool``, ``int``, ``float``, ``str`` or ``pyasc.dtype``.
    default : optional
        The value when the caller gives none; :data:`REQUIRED` (the
        default) makes the parameter mandatory.
    choices : tuple, optional
        If given, the only values allowed.
    min, max : float, optional
        Inclusive bounds for ``int`` and ``float``.
    doc : str
        A description, listed by :meth:`Op.describe`.

    Examples
    --------
    >>> pyasc.Attr(float, default=0.5, min=0.0, max=1.0).describe()
    'float = 0.5, >= 0.0, <= 1.0'

    Conversion: ``float`` accepts ints and floats (Python or NumPy) and gives
    a Python ``float``; ``int`` accepts anything with ``__index__`` (not
    floats, not bools) and gives an ``int``; ``bool`` accepts only bools;
    ``str`` only strings; ``pyasc.dtype`` anything :class:`pyasc.dtype`
    accepts. A value of the wrong type raises :class:`pyasc.DTypeError`, one
    outside ``choices``/``min``/``max`` :class:`pyasc.InvalidValueError`.
    """

    type: type
    default: Any = REQUIRED
    choices: tuple[Any, ...] | None = None
    min: float | None = None
    max: float | None = None
    doc: str = ""

    def __post_init__(self) -> None:
        if self.type not in _ATTR_TYPES:
            raise _C.DTypeError(
                f"Attr: type must be one of bool, int, float, str, pyasc.dtype, not {self.type!r}"
            )
        if (self.min is not None or self.max is not None) and self.type not in (int, float):
            raise _C.InvalidValueError("Attr: min/max apply to int and float attributes only")
        if self.choices is not None:
            choices = tuple(self.convert("Attr", "choices", c, False) for c in self.choices)
            object.__setattr__(self, "choices", choices)
        if self.default is not REQUIRED:
            object.__setattr__(self, "default", self.convert("Attr", "default", self.default))

    @property
    def required(self) -> bool:
        """True when the caller must give a value."""
        return self.default is REQUIRED

    def convert(self, opname: str, name: str, value: Any, check_range: bool = True) -> Any:
        """``value`` checked and converted to the attribute's type.

        Parameters
        ----------
        opname, name : str
            The operator and the attribute, for messages.
        value : object
            The caller's value.
        check_range : bool
            Whether ``choices``, ``min`` and ``max`` apply.

        Returns
        -------
        object
            The value as the attribute's type.

        Raises
        ------
        DTypeError
            A value of the wrong type.
        InvalidValueError
            A value outside ``choices``, ``min`` or ``max``.

        Examples
        --------
        >>> pyasc.Attr(float).convert("op", "alpha", np.int8(3))
        3.0
        """
        converted = self._convert_type(opname, name, value)
        if not check_range:
            return converted
        if self.choices is not None and converted not in self.choices:
            raise _C.InvalidValueError(
                f"{opname}: attribute '{name}' is {converted!r}, expected one of "
                + ", ".join(map(repr, self.choices))
            )
        if self.min is not None and converted < self.min:
            raise _C.InvalidValueError(
                f"{opname}: attribute '{name}' is {converted!r}, below the minimum {self.min!r}"
            )
        if self.max is not None and converted > self.max:
            raise _C.InvalidValueError(
                f"{opname}: attribute '{name}' is {converted!r}, above the maximum {self.max!r}"
            )
        return converted

    def _convert_type(self, opname: str, name: str, value: Any) -> Any:
        kind = self.type
        is_bool = isinstance(value, (bool, np.bool_))
        try:
            if kind is bool and is_bool:
                return bool(value)
            if kind is int and not is_bool and not isinstance(value, (float, np.floating)):
                return operator.index(value)
            real = isinstance(value, (int, float, np.integer, np.floating))
            if kind is float and real and not is_bool:
                return float(value)
            if kind is str and isinstance(value, str):
                return value
            if kind is _C.dtype:
                return _C.dtype(value)
        except (TypeError, _C.DTypeError):
            pass
        type_name = "pyasc.dtype" if kind is _C.dtype else kind.__name__
        raise _C.DTypeError(
            f"{opname}: attribute '{name}' expects {type_name}, got "
            f"{type(value).__name__} {value!r}"
        )

    def describe(self) -> str:
        """A one-line summary, as :meth:`Op.describe` lists it.

        Returns
        -------
        str
            The type, default, choices and bounds, then the doc.

        Examples
        --------
        >>> pyasc.Attr(str, default="sum", choices=("sum", "mean")).describe()
        "str = 'sum', one of 'sum', 'mean'"
        """
        text = "pyasc.dtype" if self.type is _C.dtype else self.type.__name__
        if not self.required:
            text += f" = {self.default!r}"
        if self.choices is not None:
            text += ", one of " + ", ".join(map(repr, self.choices))
        if self.min is not None:
            text += f", >= {self.min!r}"
        if self.max is not None:
            text += f", <= {self.max!r}"
        return f"{text} - {self.doc}" if self.doc else text
