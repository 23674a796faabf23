"""Docstrings of matmul and of the index functions nonzero, argwhere and
add_at (src/binding/tensor_linalg.c, src/binding/tensor_index.c).

Each entry names its parameters, what it returns and an example whose
output is what NumPy gives for the same call. tools/gen_docstrings.py
renders them; docs/contributing.md ("Docstrings") describes the fields.
"""

A = ">>> a = pyasc.asarray([[1, 2], [3, 4]])\n"
X = ">>> x = pyasc.asarray([[0, 3], [4, 0]])\n"
_x = ("x", "Tensor or array_like", "The input.")

ENTRIES = [
    {"name": "matmul", "summary": "Matrix product of two tensors, x1 @ x2.", "method": True,
     "self_param": "x1",
     "details": "NumPy's matmul: a 1-d operand is a row vector on the left, a column\n"
                "vector on the right (its axis is dropped from the result), and leading\n"
                "axes are batches, broadcast together.",
     "params": [("x1, x2", "Tensor or array_like", "The operands, each at least 1-d."),
                ("out", "Tensor, optional",
                 "A tensor of the result's shape and dtype to write the result into;\n"
                 "it is also returned.")],
     "method_params": [("other", "Tensor or array_like", "The right operand."),
                       ("out", "Tensor, optional", "As for pyasc.matmul.")],
     "returns": ("Tensor", "The product, in the dtype x1's and x2's promote to."),
     "notes": ("float32 and float64 use BLAS; float16 and bfloat16 accumulate in\n"
               "float32; integers wrap around on overflow."),
     "raises": [("InvalidValueError", "If an operand is 0-d, the inner lengths differ, or the\n"
                                      "batch axes do not broadcast.")],
     "example": (A + ">>> pyasc.matmul(a, a)\nTensor([[ 7, 10],\n        [15, 22]], dtype=int64)\n"
                 ">>> pyasc.matmul(a, pyasc.asarray([1, 1]))\nTensor([3, 7], dtype=int64)"),
     "method_example": (A + ">>> a.matmul(pyasc.asarray([1, 1]))\n"
                        "Tensor([3, 7], dtype=int64)")},
    {"name": "nonzero", "summary": "The indices of x's non-zero elements, one tensor per axis.",
     "method": True,
     "details": "As NumPy's nonzero: the indices are in C order. x is read on the host\n"
                "(after waiting for its stream).",
     "params": [_x],
     "returns": ("tuple of Tensor", "x.ndim int64 tensors: the k-th holds the k-th index of\n"
                                    "each non-zero element."),
     "raises": [("InvalidValueError", "If x is 0-d (as NumPy 2): use x.reshape(1).")],
     "example": (X + ">>> pyasc.nonzero(x)\n"
                 "(Tensor([0, 1], dtype=int64), Tensor([1, 0], dtype=int64))"),
     "method_example": (X + ">>> x.nonzero()\n"
                        "(Tensor([0, 1], dtype=int64), Tensor([1, 0], dtype=int64))")},
    {"name": "argwhere", "summary": "The indices of x's non-zero elements, one row per element.",
     "params": [_x],
     "returns": ("Tensor", "int64, of shape (count, x.ndim), the rows in C order (NumPy's\n"
                           "argwhere)."),
     "example": X + ">>> pyasc.argwhere(x).tolist()\n[[0, 1], [1, 0]]"},
    {"name": "add_at", "summary": "Adds b to a at indices, in place, counting repeated indices "
                                  "each time.",
     "details": "NumPy's np.add.at: where a plain a[indices] += b adds once to an element\n"
                "indexed twice, add_at adds every value. Bool accumulates as logical or.",
     "params": [("a", "Tensor", "The tensor to add into."),
                ("indices", "index key", "Any key a[...] accepts (ints, slices, index arrays)."),
                ("b", "scalar or Tensor or array_like",
                 "The values, broadcast to a[indices]'s shape and cast to a's dtype\n"
                 "(under same_kind rules).")],
     "returns": ("None", "a is changed in place."),
     "raises": [("IndexOutOfRangeError", "If an index is out of range."),
                ("DTypeError", "If b's dtype does not cast to a's under same_kind rules.")],
     "example": (">>> t = pyasc.zeros(4)\n>>> pyasc.add_at(t, [0, 0, 2], 1.0)\n>>> t\n"
                 "Tensor([2., 0., 1., 0.], dtype=float64)")},
]
