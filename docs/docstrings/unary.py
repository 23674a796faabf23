"""Docstrings of the element-wise functions of one tensor (src/binding/tensor_unary.c).

Each entry: name, a one-line summary, the maths (details), the example's
input (a Python list) and output (what NumPy gives for that input, printed
as a Tensor at 4 decimals), and `result`, what the returned tensor holds.
tools/gen_docstrings.py renders them with TEMPLATE; docs/contributing.md
("Docstrings") describes the fields.
"""

# What each kind of function returns, by the dtype rule it follows.
FLOAT = ("{maths_short}, element by element. Float inputs keep their dtype; bool and "
         "integer inputs give float64, as NumPy.")
SAME = "{maths_short}, element by element, in x's dtype."
BOOL = "{maths_short}, element by element, as bool."

TEMPLATE = {
    "fields": ("input", "output", "result", "maths_short"),
    "method": True,
    "self_param": "x",
    "details": "{details_text}",
    "params": [
        ("x", "Tensor or array_like",
         "The input. A Python scalar, list or NumPy array is converted as\n"
         "pyasc.asarray converts it."),
        ("out", "Tensor, optional",
         "A tensor of the result's shape and dtype to write the result into;\n"
         "it is also returned."),
    ],
    "returns": ("Tensor", "{result}"),
    "raises": [
        ("TypeError", "If x is not a tensor, a number or a (nested) sequence of numbers."),
        ("DTypeError", "If the function is not defined for x's dtype, or out's dtype cannot\n"
                       "hold the result."),
        ("InvalidValueError", "If out's shape is not the result's."),
    ],
    "example": ">>> x = pyasc.asarray({input})\n>>> pyasc.{name}(x)\n{output}",
    "method_raises": None,  # set below: the function's, but for x's conversion
    "method_example": ">>> x = pyasc.asarray({input})\n>>> x.{name}()\n{output}",
    "details_text": "",
}


TEMPLATE["method_raises"] = TEMPLATE["raises"][1:]


_INTEGERS_KEPT = "Integers are returned unchanged."


def _e(name: str, summary: str, maths: str, result: str, inp: str, out: str,
       details: str = "") -> dict[str, str]:
    return {"name": name, "summary": summary, "maths_short": maths, "result": result,
            "input": inp, "output": out, "details_text": details}


F3 = "[0.0, 0.5, 1.0]"


def _f3(name: str, summary: str, values: str) -> dict[str, str]:
    """A float function name(x), its example over F3 (values: the float64 result's)."""
    return _e(name, summary, f"{name}(x)", FLOAT, F3, f"Tensor([{values}], dtype=float64)")


ENTRIES = [
    _e("negative", "Numerical negative, -x.", "-x", SAME, "[1, -2, 0]",
       "Tensor([-1,  2,  0], dtype=int64)", "Not defined for bool (use logical_not)."),
    _e("positive", "Numerical positive, +x: a copy of x.", "+x", SAME, "[1.5, -2.0]",
       "Tensor([ 1.5, -2. ], dtype=float64)", "Not defined for bool."),
    _e("abs", "Absolute value, |x|.", "|x|", SAME, "[-1.5, 0.0, 2.0]",
       "Tensor([1.5, 0. , 2. ], dtype=float64)",
       "For complex x the result is the modulus, in the matching real dtype."),
    {"name": "absolute", "alias_of": "abs"},
    _e("logical_not", "Logical not: True where x is zero.", "x == 0", BOOL, "[0, 1, 2]",
       "Tensor([ True, False, False], dtype=bool)"),
    _e("invert", "Bitwise not, ~x, of integers and bools.", "~x", SAME, "[0, 1, -2]",
       "Tensor([-1, -2,  1], dtype=int64)", "For bool it is the logical not."),
    {"name": "bitwise_not", "alias_of": "invert"},
    {"name": "bitwise_invert", "alias_of": "invert"},
    _e("sign", "The sign of x: -1, 0 or 1.", "sign(x)", SAME, "[-2.5, 0.0, 3.0]",
       "Tensor([-1.,  0.,  1.], dtype=float64)", "NaN stays NaN."),
    _e("exp", "The exponential, e**x.", "e**x", FLOAT, F3,
       "Tensor([1.    , 1.6487, 2.7183], dtype=float64)"),
    _e("exp2", "Two to the power x, 2**x.", "2**x", FLOAT, "[0.0, 1.0, 3.0]",
       "Tensor([1., 2., 8.], dtype=float64)"),
    _e("log", "Natural logarithm, ln(x).", "ln(x)", FLOAT, "[1.0, 2.0, 10.0]",
       "Tensor([0.    , 0.6931, 2.3026], dtype=float64)",
       "log(0) is -inf and a negative x gives NaN, as NumPy (without its warning)."),
    _e("log2", "Base-2 logarithm.", "log2(x)", FLOAT, "[1.0, 2.0, 8.0]",
       "Tensor([0., 1., 3.], dtype=float64)"),
    _e("log10", "Base-10 logarithm.", "log10(x)", FLOAT, "[1.0, 10.0, 1000.0]",
       "Tensor([0., 1., 3.], dtype=float64)"),
    _e("log1p", "log(1 + x), accurate for x near 0.", "log(1 + x)", FLOAT, F3,
       "Tensor([0.    , 0.4055, 0.6931], dtype=float64)"),
    _e("expm1", "exp(x) - 1, accurate for x near 0.", "exp(x) - 1", FLOAT, F3,
       "Tensor([0.    , 0.6487, 1.7183], dtype=float64)"),
    _e("sqrt", "Square root.", "sqrt(x)", FLOAT, "[0.0, 4.0, 2.0]",
       "Tensor([0.    , 2.    , 1.4142], dtype=float64)", "A negative x gives NaN."),
    _e("rsqrt", "Reciprocal square root, 1 / sqrt(x).", "1 / sqrt(x)", FLOAT, "[1.0, 4.0, 16.0]",
       "Tensor([1.  , 0.5 , 0.25], dtype=float64)", "Not a NumPy function (torch.rsqrt)."),
    _e("reciprocal", "Reciprocal, 1 / x.", "1 / x", SAME, "[1.0, 2.0, 4.0]",
       "Tensor([1.  , 0.5 , 0.25], dtype=float64)",
       "Integers keep their dtype and truncate, as NumPy's reciprocal."),
    _f3("sin", "Trigonometric sine, x in radians.", "0.    , 0.4794, 0.8415"),
    _f3("cos", "Trigonometric cosine, x in radians.", "1.    , 0.8776, 0.5403"),
    _f3("tan", "Trigonometric tangent, x in radians.", "0.    , 0.5463, 1.5574"),
    _e("asin", "Inverse sine, in radians in [-pi/2, pi/2].", "arcsin(x)", FLOAT, F3,
       "Tensor([0.    , 0.5236, 1.5708], dtype=float64)", "Outside [-1, 1] it is NaN."),
    {"name": "arcsin", "alias_of": "asin"},
    _e("acos", "Inverse cosine, in radians in [0, pi].", "arccos(x)", FLOAT, F3,
       "Tensor([1.5708, 1.0472, 0.    ], dtype=float64)", "Outside [-1, 1] it is NaN."),
    {"name": "arccos", "alias_of": "acos"},
    _e("atan", "Inverse tangent, in radians in (-pi/2, pi/2).", "arctan(x)", FLOAT, F3,
       "Tensor([0.    , 0.4636, 0.7854], dtype=float64)"),
    {"name": "arctan", "alias_of": "atan"},
    _f3("sinh", "Hyperbolic sine.", "0.    , 0.5211, 1.1752"),
    _f3("cosh", "Hyperbolic cosine.", "1.    , 1.1276, 1.5431"),
    _f3("tanh", "Hyperbolic tangent.", "0.    , 0.4621, 0.7616"),
    _e("asinh", "Inverse hyperbolic sine.", "arcsinh(x)", FLOAT, F3,
       "Tensor([0.    , 0.4812, 0.8814], dtype=float64)"),
    {"name": "arcsinh", "alias_of": "asinh"},
    _e("acosh", "Inverse hyperbolic cosine.", "arccosh(x)", FLOAT, "[1.0, 2.0, 10.0]",
       "Tensor([0.    , 1.317 , 2.9932], dtype=float64)", "Below 1 it is NaN."),
    {"name": "arccosh", "alias_of": "acosh"},
    _e("atanh", "Inverse hyperbolic tangent.", "arctanh(x)", FLOAT, "[0.0, 0.5, -0.5]",
       "Tensor([ 0.    ,  0.5493, -0.5493], dtype=float64)",
       "At -1 and 1 it is -inf and inf; outside [-1, 1] it is NaN."),
    {"name": "arctanh", "alias_of": "atanh"},
    _e("sigmoid", "The logistic sigmoid, 1 / (1 + exp(-x)).", "1 / (1 + exp(-x))", FLOAT,
       "[0.0, 2.0, -2.0]", "Tensor([0.5   , 0.8808, 0.1192], dtype=float64)",
       "Not a NumPy function (scipy.special.expit, torch.sigmoid)."),
    _e("relu", "Rectified linear unit, maximum(x, 0).", "maximum(x, 0)", SAME,
       "[-1.0, 0.0, 2.5]", "Tensor([0. , 0. , 2.5], dtype=float64)",
       "Not a NumPy function (torch.relu)."),
    _e("gelu", "Gaussian error linear unit, x/2 * (1 + erf(x / sqrt(2))).",
       "x/2 * (1 + erf(x / sqrt(2)))", FLOAT, "[-1.0, 0.0, 1.0]",
       "Tensor([-0.1587,  0.    ,  0.8413], dtype=float64)",
       "The exact form, not the tanh approximation. Not a NumPy function\n"
       "(torch.nn.functional.gelu)."),
    _e("erf", "The error function, 2/sqrt(pi) * integral of exp(-t**2) from 0 to x.", "erf(x)",
       FLOAT, "[0.0, 0.5, 1.0]", "Tensor([0.    , 0.5205, 0.8427], dtype=float64)",
       "Not a NumPy function (scipy.special.erf, math.erf)."),
    _e("floor", "Rounds down: the largest whole number not above x.", "floor(x)", SAME,
       "[-1.5, 0.5, 2.0]", "Tensor([-2.,  0.,  2.], dtype=float64)",
       _INTEGERS_KEPT),
    _e("ceil", "Rounds up: the smallest whole number not below x.", "ceil(x)", SAME,
       "[-1.5, 0.5, 2.0]", "Tensor([-1.,  1.,  2.], dtype=float64)",
       _INTEGERS_KEPT),
    _e("trunc", "Rounds towards zero.", "trunc(x)", SAME, "[-1.5, 0.5, 2.7]",
       "Tensor([-1.,  0.,  2.], dtype=float64)", _INTEGERS_KEPT),
    _e("rint", "Rounds to the nearest whole number, halves to even.", "rint(x)", FLOAT,
       "[0.5, 1.5, -2.7]", "Tensor([ 0.,  2., -3.], dtype=float64)"),
    _e("isnan", "True where x is NaN.", "isnan(x)", BOOL, "[1.0, float('nan'), float('inf')]",
       "Tensor([False,  True, False], dtype=bool)", "Integers and bools are never NaN."),
    _e("isinf", "True where x is infinite (positive or negative).", "isinf(x)", BOOL,
       "[1.0, float('nan'), -float('inf')]", "Tensor([False, False,  True], dtype=bool)"),
    _e("isfinite", "True where x is neither infinite nor NaN.", "isfinite(x)", BOOL,
       "[1.0, float('nan'), float('inf')]", "Tensor([ True, False, False], dtype=bool)"),
    _e("square", "The square, x * x.", "x * x", SAME, "[-2, 0, 3]",
       "Tensor([4, 0, 9], dtype=int64)"),
    _e("signbit", "True where x's sign bit is set.", "signbit(x)", BOOL, "[-1.0, -0.0, 2.0]",
       "Tensor([ True,  True, False], dtype=bool)", "-0.0 and a negative NaN count as negative."),
    _e("conj", "Complex conjugate.", "conj(x)", SAME, "[1+2j, 3-1j]",
       "Tensor([1.-2.j, 3.+1.j], dtype=complex128)", "Real numbers are returned unchanged."),
    {"name": "conjugate", "alias_of": "conj"},
    _e("real", "The real part of x.", "Re(x)", "The real part of each element: complex64 gives\n"
       "float32, complex128 float64, and real dtypes are kept.", "[1+2j, 3-1j]",
       "Tensor([1., 3.], dtype=float64)"),
    _e("imag", "The imaginary part of x.", "Im(x)", "The imaginary part of each element, in the\n"
       "matching real dtype (zeros of x's dtype for real x).", "[1+2j, 3-1j]",
       "Tensor([ 2., -1.], dtype=float64)"),
]
for _entry in ENTRIES:
    if _entry["name"] in ("real", "imag"):  # attributes of a Tensor, as NumPy's
        _entry["method"] = False

_X = TEMPLATE["params"][0]
_OUT = TEMPLATE["params"][1]
ENTRIES += [
    {"name": "round", "summary": "Rounds to the nearest whole number, halves to even.",
     "details_text": "Integers are returned unchanged; floats keep their dtype.",
     "params": [_X, ("decimals", "int, optional",
                     "Only 0 (the default) is supported."), _OUT],
     "result": "x rounded, element by element, in x's dtype.",
     "raises": TEMPLATE["raises"] + [("UnsupportedError", "If decimals is not 0.")],
     "method_raises": TEMPLATE["method_raises"] + [("UnsupportedError", "If decimals is not 0.")],
     "input": "[0.5, 1.5, 2.5, -0.5]", "output": "Tensor([ 0.,  2.,  2., -0.], dtype=float64)"},
    {"name": "where", "summary": "Elements of x where condition is true, else of y.",
     "method": False,
     "details_text": "With condition alone, where(condition) is nonzero(condition), as NumPy.",
     "params": [
         ("condition", "Tensor or array_like", "Tested for truth (non-zero); broadcast with x and y."),
         ("x, y", "Tensor or array_like, optional",
          "The values to choose from: both or neither. Their dtypes promote\n"
          "together as NumPy's do (a Python scalar is weak, NEP 50)."),
     ],
     "returns": ("Tensor or tuple of Tensor",
                 "The chosen values, of the broadcast shape and x's and y's promoted\n"
                 "dtype; or, with condition alone, a tuple of int64 index tensors, one\n"
                 "per dimension."),
     "raises": [("InvalidValueError", "If only one of x and y is given, or the shapes do not\n"
                 "broadcast.")],
     "example": ">>> c = pyasc.asarray([True, False, True])\n"
                ">>> pyasc.where(c, pyasc.asarray([1, 2, 3]), 0)\n"
                "Tensor([1, 0, 3], dtype=int64)\n"
                ">>> pyasc.where(pyasc.asarray([0, 3, 0, 1]))\n"
                "(Tensor([1, 3], dtype=int64),)"},
    {"name": "clip", "summary": "Limits the values of x to the interval [lo, hi].",
     "method": True,
     "details_text": "As NumPy's clip: NaN propagates, and a bound of None is no bound.\n"
                     "NumPy's a_min/a_max and min/max keywords are accepted for lo/hi.",
     "params": [
         _X,
         ("lo, hi", "scalar or Tensor or array_like, optional",
          "The lower and upper bounds, broadcast with x; None for none. A Python\n"
          "int beyond an integer x's range cannot bind and is dropped."),
         _OUT,
         ("a_min, a_max, min, max", "optional", "Other names of lo and hi."),
     ],
     "result": "x clipped, element by element, in x's dtype promoted with the bounds'.",
     "raises": [("TypeError", "If a bound is given twice (lo and a_min, say)."),
                ("InvalidValueError", "If the shapes do not broadcast.")],
     "method_raises": [("TypeError", "If a bound is given twice (lo and a_min, say)."),
                       ("InvalidValueError", "If the shapes do not broadcast.")],
     "input": "[-2, 0, 5, 9]",
     "example": ">>> x = pyasc.asarray({input})\n>>> pyasc.clip(x, 0, 4)\n{output}",
     "method_example": ">>> x = pyasc.asarray({input})\n>>> x.clip(0, 4)\n{output}",
     "output": "Tensor([0, 0, 4, 4], dtype=int64)"},
]
