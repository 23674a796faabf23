"""Docstrings of the Tensor's own methods and of asarray and from_numpy
(src/binding/tensor.c).

Each entry names its parameters, what it returns and an example whose
output is what NumPy gives for the same call on an ndarray.
tools/gen_docstrings.py renders them; docs/contributing.md ("Docstrings")
describes the fields.
"""

X = ">>> x = pyasc.arange(6)\n"
M = ">>> m = pyasc.arange(6).reshape(2, 3)\n"
_shape = ("*shape", "int or a sequence of int",
          "The new shape, as separate ints or one sequence; one length may be -1,\n"
          "worked out from the others.")
_axes = ("*axes", "int or a sequence of int, optional",
         "The new order of the axes, as separate ints or one sequence; none\n"
         "reverses them.")
_dtype = ("dtype", "dtype", "A pyasc dtype, a NumPy dtype or its name.")
_device = ("device", "str or int", "'cpu', 'cpu:N' or a device index.")
_VIEW = ("Tensor", "A view sharing the tensor's memory.")
_FLAT = ("Tensor", "1-d: a view when the strides allow one, else a copy.")
_BAD_DTYPE = ("DTypeError", "If dtype is not a dtype pyasc has.")
_BAD_DEVICE = ("InvalidValueError", "If the device does not exist.")

ENTRIES: list[dict] = [
    {"name": "reshape", "summary": "The tensor with a new shape.", "params": [_shape],
     "returns": ("Tensor", "A view when the strides allow one, else a copy."),
     "raises": [("InvalidValueError", "If the shape does not hold as many elements.")],
     "example": X + ">>> x.reshape(2, 3)\nTensor([[0, 1, 2],\n        [3, 4, 5]], dtype=int64)"},
    {"name": "view", "summary": "A view of the tensor with a new shape; never a copy.",
     "params": [_shape], "returns": _VIEW,
     "raises": [("InvalidValueError", "If the shape does not hold as many elements, or the\n"
                                      "strides allow no view (use reshape).")],
     "example": X + ">>> x.view(3, 2).shape\n(3, 2)"},
    {"name": "expand", "summary": "A view of the tensor broadcast to a shape.",
     "params": [("*shape", "int or a sequence of int", "The shape, by NumPy's broadcasting "
                                                       "rules.")],
     "returns": ("Tensor", "A read-only view (no copy), as NumPy's broadcast_to."),
     "raises": [("InvalidValueError", "If the tensor does not broadcast to shape.")],
     "example": (">>> pyasc.asarray([1, 2]).expand(2, 2)\n"
                 "Tensor([[1, 2],\n        [1, 2]], dtype=int64)")},
    {"name": "broadcast_to", "alias_of": "expand",
     "example": ">>> pyasc.asarray([1, 2]).broadcast_to((2, 2)).shape\n(2, 2)"},
    {"name": "transpose", "summary": "A view of the tensor with its axes permuted.",
     "params": [_axes], "returns": _VIEW,
     "raises": [("InvalidValueError", "If axes is not a permutation of the tensor's axes.")],
     "example": M + ">>> m.transpose().tolist()\n[[0, 3], [1, 4], [2, 5]]"},
    {"name": "permute", "alias_of": "transpose",
     "example": ">>> pyasc.zeros((2, 3, 4)).permute(2, 0, 1).shape\n(4, 2, 3)"},
    {"name": "swapaxes", "summary": "A view of the tensor with two axes exchanged.",
     "params": [("a, b", "int", "The axes.")], "returns": _VIEW,
     "raises": [("IndexOutOfRangeError", "If an axis is out of range.")],
     "example": ">>> pyasc.zeros((2, 3, 4)).swapaxes(0, 2).shape\n(4, 3, 2)"},
    {"name": "unsqueeze", "summary": "A view of the tensor with a new axis of length 1.",
     "params": [("axis", "int", "The new axis's position in the result.")], "returns": _VIEW,
     "raises": [("IndexOutOfRangeError", "If axis is out of range for the result.")],
     "example": ">>> pyasc.zeros((2, 3)).unsqueeze(1).shape\n(2, 1, 3)"},
    {"name": "flatten", "summary": "The tensor as one dimension.", "returns": _FLAT,
     "example": M + ">>> m.flatten()\nTensor([0, 1, 2, 3, 4, 5], dtype=int64)"},
    {"name": "ravel", "summary": "The tensor as one dimension (NumPy's ravel; flatten's twin).",
     "returns": _FLAT,
     "example": M + ">>> m.T.ravel()\nTensor([0, 3, 1, 4, 2, 5], dtype=int64)"},
    {"name": "contiguous", "summary": "The tensor in C (row-major) order.",
     "returns": ("Tensor", "The tensor itself when it is C-contiguous, else a contiguous copy."),
     "example": M + ">>> m.T.contiguous().is_contiguous()\nTrue"},
    {"name": "is_contiguous", "summary": "Whether the tensor is C-contiguous (row-major, no gaps).",
     "returns": ("bool", "True when its elements lie in C order without gaps."),
     "example": M + ">>> m.is_contiguous(), m.T.is_contiguous()\n(True, False)"},
    {"name": "copy", "summary": "A contiguous copy of the tensor.",
     "returns": ("Tensor", "A new tensor, its own memory."),
     "example": (M + ">>> c = m.copy()\n>>> c.fill(0)\n>>> m.tolist()\n"
                 "[[0, 1, 2], [3, 4, 5]]")},
    {"name": "clone", "alias_of": "copy",
     "example": ">>> pyasc.asarray([1, 2]).clone()\nTensor([1, 2], dtype=int64)"},
    {"name": "astype", "summary": "A copy of the tensor converted to dtype.", "params": [_dtype],
     "returns": ("Tensor", "A new tensor; floats converted to integers are truncated, as NumPy."),
     "raises": [_BAD_DTYPE],
     "example": (">>> pyasc.asarray([1.5, -2.5]).astype(pyasc.int32)\n"
                 "Tensor([ 1, -2], dtype=int32)")},
    {"name": "to", "summary": "The tensor with another dtype or on another device.",
     "details": "Called as to(dtype), to(device) or to(device=..., dtype=...).",
     "params": [("target", "dtype or str or int, optional", "A dtype or a device."),
                ("dtype", "dtype, optional", "The dtype."),
                ("device", "str or int, optional", "'cpu', 'cpu:N' or a device index.")],
     "returns": ("Tensor", "A copy when the dtype or the device changes, else the tensor itself."),
     "raises": [_BAD_DTYPE, _BAD_DEVICE],
     "example": ">>> pyasc.asarray([1, 2]).to(pyasc.float32)\nTensor([1., 2.], dtype=float32)"},
    {"name": "to_device", "summary": "The tensor on a device (the Array API's to_device).",
     "params": [_device, ("stream", "Stream, optional", "Accepted for the Array API's sake.")],
     "returns": ("Tensor", "The tensor itself when it is on device, else a copy."),
     "raises": [_BAD_DEVICE],
     "example": ">>> pyasc.asarray([1, 2]).to_device('cpu')\nTensor([1, 2], dtype=int64)"},
    {"name": "numpy", "summary": "A NumPy array sharing the tensor's memory.",
     "details": "Waits for the current stream first.",
     "params": [("raw", "bool, optional",
                 "For bfloat16 (which NumPy lacks): a uint16 view of the bits instead\n"
                 "of a float32 copy.")],
     "returns": ("numpy.ndarray", "The array: a view, but a float32 copy for bfloat16."),
     "example": ">>> pyasc.asarray([1.0, 2.0]).numpy()\narray([1., 2.])"},
    {"name": "tolist", "summary": "The elements as nested Python lists.",
     "returns": ("list or scalar", "Nested lists of Python scalars (a scalar for a 0-d tensor)."),
     "example": M + ">>> m.tolist()\n[[0, 1, 2], [3, 4, 5]]"},
    {"name": "item", "summary": "The only element of the tensor as a Python scalar.",
     "returns": ("bool or int or float or complex", "The element."),
     "raises": [("InvalidValueError", "If the tensor has more than one element.")],
     "example": ">>> pyasc.asarray([7]).item()\n7"},
    {"name": "asarray", "summary": "data as a tensor, sharing its memory where it can.",
     "params": [("data", "Tensor or array_like",
                 "A tensor, a NumPy array or any object with the buffer protocol or\n"
                 "DLPack, a Python scalar or a (nested) sequence."),
                ("dtype", "dtype, optional",
                 "The element type; by default data's (for Python data: bool, int64,\n"
                 "float64 or complex128, as NumPy).")],
     "returns": ("Tensor", "data itself or a view of its memory when its layout and dtype\n"
                           "allow, else a copy."),
     "raises": [_BAD_DTYPE, ("TypeError", "If data is not array-like.")],
     "example": (">>> pyasc.asarray([[1, 2], [3, 4]])\n"
                 "Tensor([[1, 2],\n        [3, 4]], dtype=int64)\n"
                 ">>> pyasc.asarray([1, 2], dtype=pyasc.float32)\n"
                 "Tensor([1., 2.], dtype=float32)")},
    {"name": "from_numpy", "summary": "A tensor sharing a NumPy array's memory (no copy).",
     "details": "Changes show both ways, and the array lives while the tensor does.\n"
                "Memory lent read-only (a non-writeable array, bytes) gives a read-only\n"
                "tensor: writing to it raises InvalidValueError.",
     "params": [("array", "numpy.ndarray or buffer", "The array whose memory to share.")],
     "returns": ("Tensor", "A tensor over the array's memory."),
     "raises": [("DTypeError", "If the memory cannot be shared (its dtype or layout).")],
     "example": (">>> a = np.array([1.0, 2.0])\n>>> t = pyasc.from_numpy(a)\n>>> a[0] = 5\n"
                 ">>> t\nTensor([5., 2.], dtype=float64)")},
]
for _entry in ENTRIES:  # Tensor methods, but for the two functions
    if _entry["name"] not in ("asarray", "from_numpy"):
        _entry.update(function=False, method=True)
