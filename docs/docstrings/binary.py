"""Docstrings of the element-wise functions of two tensors (src/binding/tensor_number.c).

Each entry: name, a one-line summary, the maths (maths_short), `result`
(what the returned tensor holds), the example's inputs x and y (Python
lists or scalars) and output (what NumPy gives for them, printed as a
Tensor at 4 decimals). tools/gen_docstrings.py renders them with TEMPLATE;
docs/contributing.md ("Docstrings") describes the fields.
"""

_PROMOTED = ("in the dtype x's and y's promote to (NumPy's rules; a Python scalar is weak "
             "next to a tensor, NEP 50).")
ARITH = "{maths_short}, element by element, " + _PROMOTED
FLOAT = ("{maths_short}, element by element, " + _PROMOTED + " Bool and integer operands "
         "give float64.")
BOOL = "{maths_short}, element by element, as bool."
INTEGER = ("{maths_short}, element by element, " + _PROMOTED + " Integers and bools only.")

TEMPLATE = {
    "fields": ("x", "y", "output", "result", "maths_short", "details_text"),
    "details": "{details_text}",
    "details_text": "",
    "params": [
        ("x, y", "Tensor or array_like",
         "The operands, broadcast together. A Python scalar, list or NumPy\n"
         "array is converted as pyasc.asarray converts it."),
        ("out", "Tensor, optional",
         "A tensor of the result's shape and dtype to write the result into;\n"
         "it is also returned."),
    ],
    "returns": ("Tensor", "{result}"),
    "raises": [
        ("TypeError", "If an operand is not a tensor, a number or a (nested) sequence of\n"
                      "numbers."),
        ("DTypeError", "If the function is not defined for the operands' dtypes."),
        ("InvalidValueError", "If the shapes do not broadcast, or out's shape is not the\n"
                              "result's."),
    ],
    "example": (">>> x = pyasc.asarray({x})\n>>> y = pyasc.asarray({y})\n"
                ">>> pyasc.{name}(x, y)\n{output}"),
}


def _e(name: str, summary: str, maths: str, result: str, x: str, y: str, out: str,
       details: str = "") -> dict[str, str]:
    return {"name": name, "summary": summary, "maths_short": maths, "result": result, "x": x,
            "y": y, "output": out, "details_text": details}


ENTRIES = [
    _e("add", "Sum, x + y.", "x + y", ARITH, "[1, 2, 3]", "[10, 20, 30]",
       "Tensor([11, 22, 33], dtype=int64)"),
    _e("subtract", "Difference, x - y.", "x - y", ARITH, "[1.0, 2.0]", "[0.5, 4.0]",
       "Tensor([ 0.5, -2. ], dtype=float64)", "Not defined for two bools."),
    _e("multiply", "Product, x * y.", "x * y", ARITH, "[[1, 2], [3, 4]]", "[10, 100]",
       "Tensor([[ 10, 200],\n        [ 30, 400]], dtype=int64)"),
    _e("divide", "True division, x / y.", "x / y", FLOAT, "[1, 2, 3]", "[2, 2, 0]",
       "Tensor([0.5, 1. , inf], dtype=float64)",
       "Division by zero gives inf or NaN, as NumPy (without its warning)."),
    _e("floor_divide", "Floor division, x // y.", "floor(x / y)", ARITH, "[7, -7, 7]",
       "[2, 2, -2]", "Tensor([ 3, -4, -4], dtype=int64)",
       "Rounds towards negative infinity, as Python's //. An integer division\n"
       "by zero gives 0, as NumPy."),
    _e("remainder", "Remainder of floor division, x % y.", "x - floor(x / y) * y", ARITH,
       "[7, -7, 7]", "[2, 2, -2]", "Tensor([ 1,  1, -1], dtype=int64)",
       "The result has the sign of y, as Python's %."),
    _e("power", "x raised to the power y, x ** y.", "x ** y", ARITH, "[2, 3, 4]", "[3, 2, 0]",
       "Tensor([8, 9, 1], dtype=int64)"),
    _e("maximum", "The larger of x and y.", "max(x, y)", ARITH, "[1.0, 5.0, float('nan')]",
       "[3.0, 2.0, 0.0]", "Tensor([ 3.,  5., nan], dtype=float64)", "A NaN in either propagates."),
    _e("minimum", "The smaller of x and y.", "min(x, y)", ARITH, "[1.0, 5.0, float('nan')]",
       "[3.0, 2.0, 0.0]", "Tensor([ 1.,  2., nan], dtype=float64)", "A NaN in either propagates."),
    *(_e(name, f"x {op} y.", f"x {op} y", BOOL, "[1, 2, 3]", y, f"Tensor([{values}], dtype=bool)")
      for name, op, y, values in (("equal", "==", "[1, 0, 3]", " True, False,  True"),
                                  ("not_equal", "!=", "[1, 0, 3]", "False,  True, False"),
                                  ("less", "<", "2", " True, False, False"),
                                  ("less_equal", "<=", "2", " True,  True, False"),
                                  ("greater", ">", "2", "False, False,  True"),
                                  ("greater_equal", ">=", "2", "False,  True,  True"))),
    _e("logical_and", "Logical and: True where both x and y are non-zero.", "x and y", BOOL,
       "[True, True, False]", "[1, 0, 0]", "Tensor([ True, False, False], dtype=bool)"),
    _e("logical_or", "Logical or: True where x or y is non-zero.", "x or y", BOOL,
       "[True, True, False]", "[1, 0, 0]", "Tensor([ True,  True, False], dtype=bool)"),
    _e("logical_xor", "Logical exclusive or: True where exactly one of x, y is non-zero.",
       "bool(x) != bool(y)", BOOL, "[True, True, False]", "[1, 0, 0]",
       "Tensor([False,  True, False], dtype=bool)"),
    *(_e(f"bitwise_{name}", f"Bitwise {word}, x {op} y.", f"x {op} y", INTEGER, "[12, 10]",
         "[10, 6]", f"Tensor([{values}], dtype=int64)")
      for name, word, op, values in (("and", "and", "&", "8, 2"), ("or", "or", "|", "14, 14"),
                                     ("xor", "exclusive or", "^", " 6, 12"))),
    _e("left_shift", "Shifts the bits of x left by y, x << y.", "x << y", INTEGER, "[1, 3]",
       "[4, 1]", "Tensor([16,  6], dtype=int64)"),
    _e("right_shift", "Shifts the bits of x right by y, x >> y.", "x >> y", INTEGER,
       "[16, -8]", "[2, 1]", "Tensor([ 4, -4], dtype=int64)",
       "Signed integers shift arithmetically (the sign is kept)."),
    _e("atan2", "arctan(x / y), in the quadrant the signs of x and y give.",
       "atan2(x, y)", FLOAT, "[1.0, 1.0, -1.0]", "[1.0, -1.0, -1.0]",
       "Tensor([ 0.7854,  2.3562, -2.3562], dtype=float64)",
       "As NumPy's arctan2(x1, x2): the angle of the point whose ordinate is x\n"
       "and abscissa y, in radians in [-pi, pi]."),
    {"name": "arctan2", "alias_of": "atan2",
     "example": (">>> x = pyasc.asarray({x})\n>>> y = pyasc.asarray({y})\n"
                 ">>> pyasc.arctan2(x, y)\n{output}")},
    _e("copysign", "The magnitude of x with the sign of y.", "copysign(x, y)", FLOAT,
       "[1.0, -2.0, 3.0]", "[-1.0, 1.0, -0.0]", "Tensor([-1.,  2., -3.], dtype=float64)"),
    _e("hypot", "The hypotenuse, sqrt(x**2 + y**2), without overflow or underflow.",
       "sqrt(x**2 + y**2)", FLOAT, "[3.0, 5.0]", "[4.0, 12.0]",
       "Tensor([ 5., 13.], dtype=float64)"),
    _e("logaddexp", "log(exp(x) + exp(y)), without overflow.", "log(exp(x) + exp(y))", FLOAT,
       "[0.0, 1.0]", "[0.0, 2.0]", "Tensor([0.6931, 2.3133], dtype=float64)"),
    _e("nextafter", "The next value of x's dtype after x, towards y.", "nextafter(x, y)", ARITH,
       "[1.0, 1.0]", "[2.0, 0.0]", "Tensor([1., 1.], dtype=float64)",
       "The step is one unit in the last place of x."),
]
ENTRIES[-1]["example"] = (">>> x = pyasc.asarray({x})\n>>> y = pyasc.asarray({y})\n"
                          ">>> (pyasc.nextafter(x, y) - x).tolist()\n"
                          "[2.220446049250313e-16, -1.1102230246251565e-16]")
