"""Docstrings of the reductions and softmax (src/binding/tensor_reduce.c).

Each entry: name, a one-line summary, the maths and dtype rule (details),
its parameters (one of the blocks below) and an example over X, the 2 x 3
matrix of 1..6, whose outputs are what NumPy gives, printed at 4 decimals.
tools/gen_docstrings.py renders them with TEMPLATE; docs/contributing.md
("Docstrings") describes the fields.
"""

X = "[[1, 2, 3], [4, 5, 6]]"
_x = ("x", "Tensor or array_like",
      "The input. A Python scalar, list or NumPy array is converted as\n"
      "pyasc.asarray converts it.")
_axis = ("axis", "None or int or tuple of int, optional",
         "The axes to reduce: None (the default) for all of them; a negative\n"
         "axis counts from the end.")
_dtype = ("dtype", "dtype, optional", "The dtype to compute and return in.")
_out = ("out", "Tensor, optional",
        "A tensor of the result's shape to write the result into (in any\n"
        "dtype: values are cast as NumPy's reductions cast them); it is also\n"
        "returned.")
_keepdims = ("keepdims", "bool, optional",
             "If true, the reduced axes stay in the result with length 1, so that\n"
             "it broadcasts against x.")
_ddof = ("ddof", "int, optional",
         "Delta degrees of freedom: the divisor is max(n - ddof, 0) (0 by\n"
         "default; 1 gives the unbiased variance).")
SUM_PARAMS = [_x, _axis, _dtype, _out, _keepdims]
MOMENT_PARAMS = [_x, _axis, _dtype, _out, _ddof, _keepdims]
PLAIN_PARAMS = [_x, _axis, _out, _keepdims]
ARG_PARAMS = [_x, ("axis", "None or int, optional",
                   "The axis to search along; None (the default) for the index into\n"
                   "the flattened x."), _out, _keepdims]
SOFTMAX_PARAMS = [_x, ("axis", "int, optional", "The axis to normalise along (the last by default)."),
                  ("out", "Tensor, optional",
                   "A tensor of x's shape and the result's dtype to write the\n"
                   "result into; it is also returned.")]

_RAISES = [
    ("DTypeError", "If x does not convert to a tensor of a dtype pyasc has (strings,\n"
                   "objects)."),
    ("IndexOutOfRangeError", "If an axis is out of range for x."),
]
_EMPTY = [("InvalidValueError", "If a reduction is over zero elements.")]

TEMPLATE = {
    "fields": ("what", "result", "output", "axis_output", "details_text", "call", "compare",
               "method_call", "method_output"),
    "method": True,
    "details": "{details_text}",
    "details_text": "",
    "returns": ("Tensor", "{result}"),
    "result": "The {what}, with the reduced axes removed (kept with length 1 if keepdims).",
    "raises": _RAISES,
    "method_raises": _RAISES[1:],
    "call": "axis=0",
    # the examples: over X (compared to a number, for any and all), the
    # method's along the function's second call's axis unless given
    "compare": "",
    "example": (">>> x = pyasc.asarray(" + X + "){compare}\n>>> pyasc.{name}(x)\n{output}\n"
                ">>> pyasc.{name}(x, {call})\n{axis_output}"),
    "method_call": "{call}",
    "method_output": "{axis_output}",
    "method_example": (">>> x = pyasc.asarray(" + X + "){compare}\n>>> x.{name}({method_call})\n"
                       "{method_output}"),
}
# the functions that raise on a reduction over zero elements
_RAISES_EMPTY = {"raises": _RAISES + _EMPTY, "method_raises": _RAISES[1:] + _EMPTY}

_SUM = ("As NumPy, bool and integer inputs give int64 (uint8 too, where NumPy\n"
        "gives uint64, which pyasc does not have).")
_MEAN = "Bool and integer inputs give float64; float16 accumulates in float32."
_MOMENT = ("Two passes, the mean first. Bool and integer inputs give float64; a\n"
           "given dtype must be a float dtype. An empty reduction gives NaN (NumPy\n"
           "also warns; pyasc does not).")
_EXTREME = "x's dtype is kept, and a NaN propagates."
_ARG = ("The index of the first occurrence; a NaN counts as the extreme (the\n"
        "first NaN wins).")
_SOFTMAX = ("Numerically stable: the maximum along axis is subtracted first.\n"
            "float16 and bfloat16 compute in float32. Float inputs keep their\n"
            "dtype; bool and integers take the dtype NumPy's exp gives them.")

ENTRIES = [
    {"name": "sum", "summary": "Sum of the elements over the given axes.", "params": SUM_PARAMS,
     "details_text": "Floats are summed pairwise. " + _SUM, "what": "sums",
     "output": "Tensor(21, dtype=int64)", "axis_output": "Tensor([5, 7, 9], dtype=int64)"},
    {"name": "prod", "summary": "Product of the elements over the given axes.",
     "params": SUM_PARAMS, "details_text": _SUM, "what": "products",
     "output": "Tensor(720, dtype=int64)", "axis_output": "Tensor([ 4, 10, 18], dtype=int64)"},
    {"name": "mean", "summary": "Arithmetic mean over the given axes.", "params": SUM_PARAMS,
     "details_text": _MEAN, "what": "means",
     "output": "Tensor(3.5, dtype=float64)", "axis_output": "Tensor([2.5, 3.5, 4.5], dtype=float64)"},
    {"name": "var", "summary": "Variance over the given axes, mean((x - x.mean())**2).",
     "params": MOMENT_PARAMS, "details_text": _MOMENT, "what": "variances",
     "output": "Tensor(2.9167, dtype=float64)",
     "axis_output": "Tensor([2.25, 2.25, 2.25], dtype=float64)"},
    {"name": "std", "summary": "Standard deviation over the given axes, sqrt(var(x)).",
     "params": MOMENT_PARAMS, "details_text": _MOMENT, "what": "standard deviations",
     "output": "Tensor(1.7078, dtype=float64)",
     "axis_output": "Tensor([1.5, 1.5, 1.5], dtype=float64)"},
    *({"name": name, "summary": f"{extreme} over the given axes.", "params": PLAIN_PARAMS,
       "details_text": _EXTREME, **_RAISES_EMPTY, "what": what,
       "output": f"Tensor({output}, dtype=int64)",
       "axis_output": f"Tensor({axis_output}, dtype=int64)"}
      for name, extreme, what, output, axis_output in (
          ("max", "Maximum", "maxima", 6, "[4, 5, 6]"),
          ("min", "Minimum", "minima", 1, "[1, 2, 3]"))),
    {"name": "amax", "alias_of": "max", "method": False},
    {"name": "amin", "alias_of": "min", "method": False},
    *({"name": name, "summary": f"Index of the {extreme} along an axis.", "params": ARG_PARAMS,
       "details_text": _ARG, **_RAISES_EMPTY, "call": "axis=1",
       "result": "int64 indices, with axis removed (kept with length 1 if keepdims).",
       "output": f"Tensor({output}, dtype=int64)",
       "axis_output": f"Tensor({axis_output}, dtype=int64)"}
      for name, extreme, output, axis_output in (
          ("argmax", "maximum", 5, "[2, 2]"),
          ("argmin", "minimum", 0, "[0, 0]"))),
    *({"name": name, "summary": f"Whether {which} element is true over the given axes.",
       "params": PLAIN_PARAMS, "details_text": "An element is true when non-zero (NaN is true).",
       "result": "bool, with the reduced axes removed (kept with length 1 if keepdims).",
       "compare": f" > {than}", "output": f"Tensor({output}, dtype=bool)",
       "axis_output": "Tensor([False,  True,  True], dtype=bool)", "method_call": "axis=1",
       "method_output": "Tensor([False,  True], dtype=bool)"}
      for name, which, than, output in (("any", "any", 4, True), ("all", "every", 1, False))),
    # the examples: each row of a 2 x 3 matrix, the method's over the first
    *({"name": name, "summary": summary, "params": SOFTMAX_PARAMS, "details_text": _SOFTMAX,
       "result": result,
       "example": (">>> x = pyasc.asarray([[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]])\n"
                   f">>> pyasc.{name}(x)\nTensor([{first},\n        {second}], dtype=float64)"),
       "method_example": (">>> x = pyasc.asarray([0.0, 1.0, 2.0])\n"
                          f">>> x.{name}()\nTensor({first}, dtype=float64)")}
      for name, summary, result, first, second in (
          ("softmax", "Softmax along an axis, exp(x) / sum(exp(x)).",
           "The softmax of x, of x's shape; along axis it sums to 1.",
           "[0.09  , 0.2447, 0.6652]", "[0.3333, 0.3333, 0.3333]"),
          ("log_softmax", "Log of the softmax along an axis, x - log(sum(exp(x))).",
           "log(softmax(x)), of x's shape, computed without forming softmax(x).",
           "[-2.4076, -1.4076, -0.4076]", "[-1.0986, -1.0986, -1.0986]"))),
]
