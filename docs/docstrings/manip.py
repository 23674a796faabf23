"""Docstrings of the shape functions (src/binding/tensor_manip.c).

Each entry names its parameters, what it returns and an example whose
output is what NumPy gives for the same call. tools/gen_docstrings.py
renders them with TEMPLATE; docs/contributing.md ("Docstrings") describes
the fields.
"""

X = ">>> x = pyasc.asarray([[1, 2, 3], [4, 5, 6]])\n"
_x = ("x", "Tensor or array_like",
      "The input. A Python scalar, list or NumPy array is converted as\n"
      "pyasc.asarray converts it.")
_axes = ("axis", "None or int or tuple of int, optional",
         "The axes: None (the default) for every axis; a negative axis counts\nfrom the end.")
_AXIS_RANGE = ("IndexOutOfRangeError", "If an axis is out of range for x.")
_arrays = ("*arrays", "Tensor or array_like", "The inputs.")

TEMPLATE = {"raises": [_AXIS_RANGE]}

ENTRIES = [
    {"name": "flip", "summary": "Reverses the order of the elements along the given axes.",
     "method": True, "params": [_x, _axes],
     "returns": ("Tensor", "A view of x (negative strides, no copy)."),
     "example": X + ">>> pyasc.flip(x, axis=1).tolist()\n[[3, 2, 1], [6, 5, 4]]",
     "method_example": X + ">>> x.flip().tolist()\n[[6, 5, 4], [3, 2, 1]]"},
    {"name": "squeeze", "summary": "Removes axes of length 1.", "method": True,
     "params": [_x, ("axis", "None or int or tuple of int, optional",
                     "The axes to remove, each of length 1; None (the default) for every\n"
                     "axis of length 1.")],
     "returns": ("Tensor", "A view of x without those axes."),
     "raises": [_AXIS_RANGE, ("InvalidValueError", "If a given axis's length is not 1.")],
     "example": (">>> x = pyasc.zeros((1, 3, 1))\n>>> pyasc.squeeze(x).shape\n(3,)\n"
                 ">>> pyasc.squeeze(x, axis=0).shape\n(3, 1)"),
     "method_example": ">>> pyasc.zeros((1, 3, 1)).squeeze().shape\n(3,)"},
    {"name": "expand_dims", "summary": "Inserts axes of length 1.",
     "params": [_x, ("axis", "int or tuple of int, optional",
                     "The positions of the new axes in the result (0 by default).")],
     "returns": ("Tensor", "A view of x with the new axes."),
     "example": (">>> x = pyasc.asarray([1, 2])\n>>> pyasc.expand_dims(x, 0).shape\n(1, 2)\n"
                 ">>> pyasc.expand_dims(x, (0, 2)).shape\n(1, 2, 1)")},
    {"name": "moveaxis", "summary": "Moves axes to new positions; the others keep their order.",
     "params": [_x, ("source", "int or tuple of int", "The axes to move."),
                ("destination", "int or tuple of int",
                 "Their positions in the result, as many as source.")],
     "returns": ("Tensor", "A view of x with its axes reordered."),
     "raises": [_AXIS_RANGE, ("InvalidValueError", "If source and destination differ in length "
                                                   "or repeat an axis.")],
     "example": ">>> pyasc.moveaxis(pyasc.zeros((2, 3, 4)), 0, -1).shape\n(3, 4, 2)"},
    {"name": "roll", "summary": "Shifts elements along an axis, those past the end coming back "
                                "at the start.",
     "params": [_x, ("shift", "int or tuple of int",
                     "How far to shift; with a tuple, one shift per axis (shifts on one\n"
                     "axis add up)."),
                ("axis", "None or int or tuple of int, optional",
                 "The axes; None (the default) rolls the flattened x and keeps its\nshape.")],
     "returns": ("Tensor", "A copy of x, rolled."),
     "example": (">>> pyasc.roll(pyasc.arange(5), 2)\nTensor([3, 4, 0, 1, 2], dtype=int64)\n"
                 + X + ">>> pyasc.roll(x, 1, axis=1).tolist()\n[[3, 1, 2], [6, 4, 5]]")},
    {"name": "repeat", "summary": "Repeats each element of x.", "method": True,
     "params": [_x, ("repeats", "int or sequence of int or Tensor",
                     "How many times: one count for all, or one per element along axis\n"
                     "(none negative)."),
                ("axis", "int, optional",
                 "The axis to repeat along; None (the default) repeats the elements\n"
                 "of the flattened x.")],
     "returns": ("Tensor", "A new tensor, longer along axis."),
     "raises": [_AXIS_RANGE, ("InvalidValueError", "If a count is negative, or there are not "
                                                   "as many counts as elements.")],
     "example": (">>> pyasc.repeat(pyasc.asarray([1, 2]), 2)\nTensor([1, 1, 2, 2], dtype=int64)\n"
                 + X + ">>> pyasc.repeat(x, [1, 2], axis=0).tolist()\n"
                 "[[1, 2, 3], [4, 5, 6], [4, 5, 6]]"),
     "method_example": (">>> pyasc.asarray([1, 2]).repeat(2)\n"
                        "Tensor([1, 1, 2, 2], dtype=int64)")},
    {"name": "tile", "summary": "Repeats the whole of x along each axis.",
     "params": [_x, ("reps", "int or tuple of int",
                     "How many times along each axis; the shorter of x's shape and reps\n"
                     "is padded with leading ones.")],
     "returns": ("Tensor", "A new tensor."),
     "raises": [("InvalidValueError", "If a count is negative.")],
     "example": (">>> x = pyasc.asarray([1, 2])\n>>> pyasc.tile(x, 2)\n"
                 "Tensor([1, 2, 1, 2], dtype=int64)\n>>> pyasc.tile(x, (2, 1)).tolist()\n"
                 "[[1, 2], [1, 2]]")},
    *({"name": name, "summary": f"The {part} triangle of a matrix: elements {side} a diagonal "
                                "zeroed.",
       "params": [("x", "Tensor or array_like",
                   "At least 2-d; the last two axes are the matrices."),
                  ("k", "int, optional",
                   "The diagonal: 0 (the default) the main one, positive above it.")],
       "returns": ("Tensor", f"A copy of x with the elements {side} diagonal k zeroed."),
       "raises": [("InvalidValueError", "If x has fewer than 2 dimensions.")],
       "example": ">>> m = pyasc.arange(1, 10).reshape(3, 3)\n" + example}
      for name, part, side, example in (
          ("tril", "lower", "above",
           ">>> pyasc.tril(m).tolist()\n[[1, 0, 0], [4, 5, 0], [7, 8, 9]]"),
          ("triu", "upper", "below",
           ">>> pyasc.triu(m, 1).tolist()\n[[0, 2, 3], [0, 0, 6], [0, 0, 0]]"))),
    {"name": "diff", "summary": "The n-th discrete difference along an axis.",
     "details": "out[i] = x[i + 1] - x[i], applied n times. Bool inputs give\n"
                "x[i + 1] != x[i], as NumPy.",
     "params": [_x, ("n", "int, optional", "How many times to take the difference (1)."),
                ("axis", "int, optional", "The axis (the last by default)."),
                ("prepend, append", "scalar or array_like, optional",
                 "Values joined to x along axis first (a scalar is broadcast).")],
     "returns": ("Tensor", "The differences, n shorter than x along axis."),
     "raises": [_AXIS_RANGE, ("InvalidValueError", "If n is negative.")],
     "example": (">>> x = pyasc.asarray([1, 4, 9, 16])\n>>> pyasc.diff(x)\n"
                 "Tensor([3, 5, 7], dtype=int64)\n>>> pyasc.diff(x, n=2)\n"
                 "Tensor([2, 2], dtype=int64)")},
    {"name": "count_nonzero", "summary": "The number of non-zero elements over the given axes.",
     "details": "NaN counts as non-zero; a complex number counts unless both parts are\nzero.",
     "params": [_x, _axes, ("keepdims", "bool, optional",
                            "If true, the reduced axes stay with length 1.")],
     "returns": ("Tensor", "int64 counts, with the reduced axes removed."),
     "example": (">>> x = pyasc.asarray([[0, 1, 2], [3, 0, 0]])\n>>> pyasc.count_nonzero(x)\n"
                 "Tensor(3, dtype=int64)\n>>> pyasc.count_nonzero(x, axis=0)\n"
                 "Tensor([1, 1, 1], dtype=int64)")},
    {"name": "broadcast_to", "summary": "x broadcast to a shape.",
     "params": [_x, ("shape", "int or tuple of int", "The shape, by NumPy's broadcasting rules.")],
     "returns": ("Tensor", "A read-only view of x (no copy)."),
     "raises": [("InvalidValueError", "If x does not broadcast to shape.")],
     "example": (">>> pyasc.broadcast_to(pyasc.asarray([1, 2, 3]), (2, 3)).tolist()\n"
                 "[[1, 2, 3], [1, 2, 3]]")},
    {"name": "broadcast_arrays", "summary": "The arrays broadcast to their common shape.",
     "params": [_arrays],
     "returns": ("tuple of Tensor", "Views of the arrays, one per array, of the common shape."),
     "raises": [("InvalidValueError", "If the shapes do not broadcast together.")],
     "example": (">>> a, b = pyasc.broadcast_arrays([[1], [2]], [10, 20, 30])\n"
                 ">>> a.tolist(), b.tolist()\n"
                 "([[1, 1, 1], [2, 2, 2]], [[10, 20, 30], [10, 20, 30]])")},
    {"name": "unstack", "summary": "Splits x into its slices along an axis.",
     "params": [_x, ("axis", "int, optional", "The axis (0 by default).")],
     "returns": ("tuple of Tensor", "Views of x, one per position along axis (which they lack)."),
     "example": (X + ">>> [t.tolist() for t in pyasc.unstack(x, axis=1)]\n"
                 "[[1, 4], [2, 5], [3, 6]]")},
    {"name": "meshgrid", "summary": "Coordinate tensors from coordinate vectors.",
     "params": [("*arrays", "Tensor or array_like",
                 "The coordinate vectors x1, x2, ... (each is flattened)."),
                ("indexing", "{'xy', 'ij'}, optional",
                 "'xy' (the default, as NumPy) swaps the first two axes of the\n"
                 "result's shape; 'ij' does not.")],
     "returns": ("tuple of Tensor",
                 "One tensor per input, each of shape (len(x1), len(x2), ...), the first\n"
                 "two swapped for 'xy'; fresh copies."),
     "raises": [("InvalidValueError", "If indexing is neither 'xy' nor 'ij'.")],
     "example": (">>> X, Y = pyasc.meshgrid([1, 2, 3], [10, 20])\n>>> X.tolist()\n"
                 "[[1, 2, 3], [1, 2, 3]]\n>>> Y.tolist()\n[[10, 10, 10], [20, 20, 20]]")},
]
