"""The adv library's element-wise maths functions, in one list.

:data:`MATH_FUNCTIONS` is in the runtime's order: a name's index is its
function id (src/compiler/adv_math.def, which libasc gives as
``_C.adv_math_functions()``, and the ``ASC_K_ADV_*`` enum in
src/compiler/rt/adv_math.h); tests/python/test_tables.py fails when they
disagree."""

from __future__ import annotations

#: The shared tmp buffer of each adv maths API as CANN's host queries size it
#: (include/ascendc/adv_math_tmp.def, which the C++ header and libasc include;
#: tests/python/test_tables.py compares the two): buffers of the input's type
#: per element for half, float and float reusing its source, and where the
#: 256-byte floor applies (:mod:`pyasc.language.adv_host`). The unary functions
#: in function-id order, then xor and axpy; power has sizes of its own.
MATH_TMP_FACTORS: dict[str, tuple[int, int, int, str]] = {
    "acos": (6, 2, 2, "repeat"), "acosh": (2, 1, 1, "elements"), "asin": (6, 2, 2, "repeat"),
    "asinh": (3, 3, 3, "repeat"), "atan": (12, 5, 5, "repeat"), "atanh": (4, 1, 1, "repeat"),
    "ceil": (2, 1, 1, "repeat"), "cos": (8, 3, 2, "repeat"), "cosh": (6, 2, 2, "repeat"),
    "digamma": (16, 7, 6, "repeat"), "erf": (8, 3, 3, "repeat"), "erfc": (16, 7, 7, "repeat"),
    "exp": (4, 3, 2, "float32"), "floor": (2, 0, 0, "repeat"), "frac": (4, 0, 0, "repeat"),
    "lgamma": (26, 8, 7, "repeat"), "log": (0, 0, 0, "repeat"), "round": (1, 1, 1, "repeat"),
    "sign": (3, 3, 3, "none"), "sin": (8, 3, 2, "repeat"), "sinh": (4, 1, 1, "repeat"),
    "tan": (10, 4, 4, "repeat"), "tanh": (4, 1, 1, "repeat"), "trunc": (2, 1, 1, "repeat"),
    "xor": (1, 1, 1, "none"), "axpy": (4, 1, 1, "repeat"),
}

#: the maths APIs of two operands.
BINARY = ("power", "xor", "axpy")

#: the runtime's unary maths functions, in function-id order.
MATH_FUNCTIONS = tuple(name for name in MATH_TMP_FACTORS if name not in BINARY)

#: every maths API with a shared tmp buffer query.
MATH_APIS = MATH_FUNCTIONS + BINARY

#: the unary functions of PyAsc's (dst, src, count, temp_buffer, is_reuse_source)
#: signature: all but exp, which also takes a Taylor level.
UNARY = tuple(name for name in MATH_FUNCTIONS if name != "exp")

__all__ = ["BINARY", "MATH_APIS", "MATH_FUNCTIONS", "MATH_TMP_FACTORS", "UNARY"]
