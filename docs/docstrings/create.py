"""Docstrings of the creation functions (src/binding/tensor_create.c).

Each entry names its parameters, what it returns and an example whose
output is what NumPy gives (the same call on np), printed as a Tensor.
tools/gen_docstrings.py renders them with TEMPLATE; docs/contributing.md
("Docstrings") describes the fields.
"""

_shape = ("shape", "int or sequence of int", "The shape of the new tensor.")
_dtype64 = ("dtype", "dtype, optional",
            "The element type (a pyasc dtype, a NumPy dtype or its name); float64\n"
            "by default.")
_x = ("x", "Tensor or array_like", "The tensor whose shape (and dtype) the new tensor takes.")
_dtype_like = ("dtype", "dtype, optional", "The element type; x's by default.")
_fill = ("fill_value", "scalar or array_like",
         "The value of every element (broadcast to shape if an array).")
_arrays = ("arrays", "sequence of Tensor or array_like",
           "The tensors to join, converted as pyasc.asarray converts them.")
_join_out = ("out", "Tensor, optional",
             "A tensor of the result's shape to write the result into; it is also\nreturned.")
_join_dtype = ("dtype", "dtype, optional",
               "The result's element type; by default the arrays' dtypes promoted\ntogether.")

_BAD_SHAPE = [("InvalidValueError", "If a dimension is negative."),
              ("DTypeError", "If dtype is not a dtype pyasc has.")]

_UNSET = ("Tensor", "The tensor; its elements are whatever the memory held.")
_X22 = ">>> x = pyasc.asarray([[1, 2], [3, 4]])\n"

TEMPLATE = {"raises": _BAD_SHAPE}

ENTRIES = [
    {"name": "empty", "summary": "A new tensor of the given shape, its elements not initialised.",
     "params": [_shape, _dtype64], "returns": _UNSET,
     "example": ">>> pyasc.empty((2, 3)).shape\n(2, 3)"},
    *({"name": name, "summary": f"A new tensor of the given shape, filled with {name}.",
       "params": [_shape, _dtype64], "returns": ("Tensor", f"A tensor of {name}."),
       "example": example}
      for name, example in (
          ("zeros", ">>> pyasc.zeros((2, 3))\n"
                    "Tensor([[0., 0., 0.],\n        [0., 0., 0.]], dtype=float64)"),
          ("ones", ">>> pyasc.ones(3, dtype=pyasc.int32)\nTensor([1, 1, 1], dtype=int32)"))),
    {"name": "full", "summary": "A new tensor of the given shape, filled with fill_value.",
     "params": [_shape, _fill,
                ("dtype", "dtype, optional",
                 "The element type; by default fill_value's (bool, int64 or float64\n"
                 "for a Python scalar).")],
     "returns": ("Tensor", "A tensor of fill_value."),
     "raises": _BAD_SHAPE + [("InvalidValueError", "If fill_value does not broadcast to shape.")],
     "example": ">>> pyasc.full((2, 2), 7)\nTensor([[7, 7],\n        [7, 7]], dtype=int64)"},
    {"name": "empty_like", "summary": "A new tensor of x's shape and dtype, not initialised.",
     "params": [_x, _dtype_like], "returns": _UNSET,
     "example": _X22 + ">>> pyasc.empty_like(x).shape\n(2, 2)"},
    *({"name": f"{what}_like", "summary": f"A new tensor of {what} with x's shape and dtype.",
       "params": [_x, _dtype_like], "returns": ("Tensor", f"A tensor of {what}."),
       "example": _X22 + example}
      for what, example in (
          ("zeros", ">>> pyasc.zeros_like(x)\nTensor([[0, 0],\n        [0, 0]], dtype=int64)"),
          ("ones", ">>> pyasc.ones_like(x, dtype=pyasc.float32)\n"
                   "Tensor([[1., 1.],\n        [1., 1.]], dtype=float32)"))),
    {"name": "full_like", "summary": "A new tensor of fill_value with x's shape and dtype.",
     "params": [_x, _fill, _dtype_like], "returns": ("Tensor", "A tensor of fill_value."),
     "example": (_X22 + ">>> pyasc.full_like(x, 9)\n"
                 "Tensor([[9, 9],\n        [9, 9]], dtype=int64)")},
    {"name": "arange", "summary": "Evenly spaced values in the half-open interval [start, stop).",
     "details": "Called as arange(stop), arange(start, stop) or arange(start, stop, step),\n"
                "as NumPy's arange.",
     "params": [("start", "number", "The first value (0 when only stop is given)."),
                ("stop", "number, optional", "The end of the interval, not included."),
                ("step", "number, optional", "The spacing of the values (1 by default)."),
                ("dtype", "dtype, optional",
                 "The element type; int64 when the arguments are all integers, else\n"
                 "float64.")],
     "returns": ("Tensor", "The values start, start + step, ... below stop (above it for a\n"
                           "negative step)."),
     "raises": [("InvalidValueError", "If step is 0."),
                ("DTypeError", "If dtype is not a dtype pyasc has.")],
     "example": (">>> pyasc.arange(5)\nTensor([0, 1, 2, 3, 4], dtype=int64)\n"
                 ">>> pyasc.arange(1, 2, 0.25)\nTensor([1.  , 1.25, 1.5 , 1.75], dtype=float64)")},
    {"name": "linspace", "summary": "num evenly spaced values from start to stop.",
     "params": [("start", "number", "The first value."),
                ("stop", "number", "The last value, when endpoint is true."),
                ("num", "int, optional", "How many values (50 by default)."),
                ("endpoint", "bool, optional",
                 "Whether stop is the last value (the default) or just beyond it."),
                ("dtype", "dtype, optional", "The element type; float64 by default.")],
     "returns": ("Tensor", "The num values, by NumPy's formula."),
     "raises": [("InvalidValueError", "If num is negative."),
                ("DTypeError", "If dtype is not a dtype pyasc has.")],
     "example": (">>> pyasc.linspace(0, 1, 5)\n"
                 "Tensor([0.  , 0.25, 0.5 , 0.75, 1.  ], dtype=float64)")},
    {"name": "eye", "summary": "A matrix with ones on a diagonal and zeros elsewhere.",
     "params": [("N", "int", "The number of rows."),
                ("M", "int, optional", "The number of columns (N by default)."),
                ("k", "int, optional",
                 "The diagonal: 0 (the default) the main one, positive above it,\n"
                 "negative below."),
                _dtype64],
     "returns": ("Tensor", "The N x M matrix."),
     "example": (">>> pyasc.eye(3, k=1)\nTensor([[0., 1., 0.],\n        [0., 0., 1.],\n"
                 "        [0., 0., 0.]], dtype=float64)")},
    {"name": "concatenate", "summary": "Joins tensors along an existing axis.",
     "params": [_arrays,
                ("axis", "int or None, optional",
                 "The axis to join along (0 by default); None flattens the arrays\nfirst."),
                _join_out, _join_dtype],
     "returns": ("Tensor", "The joined tensor."),
     "raises": [("InvalidValueError", "If the arrays differ in number of dimensions, or in a\n"
                                      "length other than axis's, or there are none."),
                ("IndexOutOfRangeError", "If axis is out of range.")],
     "example": (_X22 + ">>> pyasc.concatenate([x, x])\n"
                 "Tensor([[1, 2],\n        [3, 4],\n        [1, 2],\n        [3, 4]], dtype=int64)\n"
                 ">>> pyasc.concatenate([x, x], axis=None)\n"
                 "Tensor([1, 2, 3, 4, 1, 2, 3, 4], dtype=int64)")},
    {"name": "stack", "summary": "Joins tensors of one shape along a new axis.",
     "params": [_arrays, ("axis", "int, optional",
                          "Where the new axis goes in the result (0 by default)."),
                _join_out, _join_dtype],
     "returns": ("Tensor", "The stacked tensor, with one more dimension than the arrays."),
     "raises": [("InvalidValueError", "If the arrays' shapes differ, or there are none."),
                ("IndexOutOfRangeError", "If axis is out of range.")],
     "example": (">>> pyasc.stack([pyasc.asarray([1, 2]), pyasc.asarray([3, 4])], axis=1)\n"
                 "Tensor([[1, 3],\n        [2, 4]], dtype=int64)")},
    {"name": "fill", "function": False, "method": True, "summary": "Sets every element of the tensor to value, in place.",
     "params": [("value", "scalar", "The value, converted to the tensor's dtype.")],
     "returns": ("None", "The tensor is changed in place."),
     "raises": [("OverflowError", "If value is an int the tensor's dtype cannot hold.")],
     "example": ">>> t = pyasc.zeros(3)\n>>> t.fill(2)\n>>> t\nTensor([2., 2., 2.], dtype=float64)"},
]
