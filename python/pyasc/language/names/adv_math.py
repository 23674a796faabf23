"""The adv library's element-wise maths functions, in one list.

:data:`MATH_FUNCTIONS` is in the runtime's order: a name's index is its
function id (src/compiler/adv_math.def, which libasc gives as
``_C.adv_math_functions()``, and the ``ASC_K_ADV_*`` enum in
src/compiler/rt/adv_math.h); tests/python/test_tables.py fails when they
disagree."""

from __future__ import annotations

#: float32 intermediates per element of each adv maths API (pyasc's sizing of
#: the shared tmp buffer, :mod:`pyasc.language.adv_host`): the unary functions
#: in function-id order, then the binary ones.
MATH_TMP_BUFFERS = {
    "acos": 2, "acosh": 2, "asin": 2, "asinh": 3, "atan": 5, "atanh": 2, "ceil": 1, "cos": 3,
    "cosh": 2, "digamma": 7, "erf": 3, "erfc": 7, "exp": 3, "floor": 1, "frac": 1,
    "lgamma": 7, "log": 1, "round": 1, "sign": 2, "sin": 3, "sinh": 2, "tan": 4, "tanh": 2,
    "trunc": 1, "power": 6, "xor": 1, "axpy": 1,
}

#: the maths APIs of two operands.
BINARY = ("power", "xor", "axpy")

#: the runtime's unary maths functions, in function-id order.
MATH_FUNCTIONS = tuple(name for name in MATH_TMP_BUFFERS if name not in BINARY)

#: the unary functions of PyAsc's (dst, src, count, temp_buffer, is_reuse_source)
#: signature: all but exp, which also takes a Taylor level.
UNARY = tuple(name for name in MATH_FUNCTIONS if name != "exp")

__all__ = ["BINARY", "MATH_FUNCTIONS", "MATH_TMP_BUFFERS", "UNARY"]
