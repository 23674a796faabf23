"""Docstrings of sorting, searching, unique and the cumulative scans
(src/binding/tensor_sort.c).

Each entry names its parameters, what it returns and an example whose
output is what NumPy gives for the same call (descending= and
include_initial= by their definitions). tools/gen_docstrings.py renders
them with TEMPLATE; docs/contributing.md ("Docstrings") describes the fields.
"""

_x = ("x", "Tensor or array_like",
      "The input. A Python scalar, list or NumPy array is converted as\n"
      "pyasc.asarray converts it.")
_sort_params = [
    _x,
    ("axis", "int or None, optional",
     "The axis to sort along: the last by default; None sorts the flattened x."),
    ("kind", "str, optional", "Accepted for NumPy's sake: every sort is stable."),
    ("order", "None", "Structured dtypes are not supported: anything but None is refused."),
    ("descending", "bool, optional", "Sort from the largest (False by default)."),
    ("stable", "bool, optional", "Accepted (True): every sort is stable."),
]
_SORT_NOTES = ("Equal elements keep their order, also with descending=True. NaN sorts\n"
               "last, also when descending; complex values sort by real part, then\n"
               "imaginary part, as NumPy's. The result is a new tensor, for the Tensor\n"
               "method too (NumPy's ndarray.sort sorts in place).")
_SORT_RAISES = [("IndexOutOfRangeError", "If axis is out of range for x."),
                ("UnsupportedError", "If order is given.")]
# what sort and argsort share
_SORTING = {"method": True, "params": _sort_params, "notes": _SORT_NOTES, "raises": _SORT_RAISES,
            "method_raises": _SORT_RAISES}
_UNIQUE = ("Of the flattened x, in sorted order. NaNs are distinct, as the Array API\n"
           "says (each counts once); -0.0 and 0.0 are one value. Waits for x: the\n"
           "result's size depends on its values.")
_SCAN_DTYPES = ("Bool and signed integers accumulate in int64, unsigned ones in uint64,\n"
                "floats and complex in their own dtype (rounded at each step, as NumPy).")
_scan_dtype = ("dtype", "dtype, optional", "The dtype to accumulate and return in.")
_api_axis = ("axis", "int, optional",
             "The axis to accumulate along; it may be left out only for 0-d and 1-d\nx.")
_numpy_axis = ("axis", "int, optional",
               "The axis to accumulate along; None (the default) for the flattened x.")
_init = ("include_initial", "bool, optional",
         "If true, the result starts with the empty {what} ({initial}), one longer\n"
         "along axis.")

X = ">>> x = pyasc.asarray([3, 1, 2, 1])\n"
TEMPLATE = {"fields": ("what", "initial")}

ENTRIES = [
    {"name": "sort", "summary": "A sorted copy of x.", **_SORTING,
     "returns": ("Tensor", "x's elements sorted along axis, in x's dtype."),
     "example": (X + ">>> pyasc.sort(x)\nTensor([1, 1, 2, 3], dtype=int64)\n"
                 ">>> pyasc.sort(x, descending=True)\nTensor([3, 2, 1, 1], dtype=int64)"),
     "method_example": X + ">>> x.sort()\nTensor([1, 1, 2, 3], dtype=int64)"},
    {"name": "argsort", "summary": "The indices that sort x.", **_SORTING,
     "returns": ("Tensor", "int64 indices along axis: x taken at them along axis is sorted."),
     "example": X + ">>> pyasc.argsort(x)\nTensor([1, 3, 2, 0], dtype=int64)",
     "method_example": X + ">>> x.argsort()\nTensor([1, 3, 2, 0], dtype=int64)"},
    {"name": "searchsorted", "summary": "Where to insert values into a sorted 1-d tensor to keep "
                                        "it sorted.",
     "params": [("x1", "Tensor or array_like", "1-d, sorted ascending (unless sorter is given)."),
                ("x2", "Tensor or array_like or scalar", "The values to insert."),
                ("side", "{'left', 'right'}, optional",
                 "For a value equal to elements of x1: the first place ('left', the\n"
                 "default) or the last ('right')."),
                ("sorter", "Tensor or array_like, optional",
                 "Indices that sort x1 (as argsort gives); x1[sorter] is searched.")],
     "returns": ("Tensor", "int64 indices into x1, of x2's shape."),
     "notes": "Compared in the promoted dtype; NaN sorts last, as in sort.",
     "raises": [("InvalidValueError", "If side is neither 'left' nor 'right', or x1 is not\n1-d.")],
     "example": (">>> x1 = pyasc.asarray([1, 2, 3, 5])\n"
                 ">>> pyasc.searchsorted(x1, pyasc.asarray([0, 3, 4, 6]))\n"
                 "Tensor([0, 2, 3, 4], dtype=int64)\n"
                 ">>> pyasc.searchsorted(x1, pyasc.asarray([3]), side='right')\n"
                 "Tensor([3], dtype=int64)")},
    *({"name": name, "summary": summary, "params": [_x], "details": _UNIQUE, "returns": returns,
       "example": X + example}
      for name, summary, returns, example in (
          ("unique_values", "The unique elements of x.",
           ("Tensor", "The unique elements, 1-d, sorted."),
           ">>> pyasc.unique_values(x)\nTensor([1, 2, 3], dtype=int64)"),
          ("unique_counts", "The unique elements of x and how often each occurs.",
           ("UniqueCountsResult", "A named tuple (values, counts): the sorted unique elements and "
                                  "their int64 counts."),
           ">>> values, counts = pyasc.unique_counts(x)\n>>> values, counts\n"
           "(Tensor([1, 2, 3], dtype=int64), Tensor([2, 1, 1], dtype=int64))"),
          ("unique_inverse", "The unique elements of x and where each element of x is among them.",
           ("UniqueInverseResult", "A named tuple (values, inverse_indices): the sorted unique "
                                   "elements and, of x's shape, the int64 index into values of "
                                   "each element."),
           ">>> r = pyasc.unique_inverse(x)\n>>> r.inverse_indices\n"
           "Tensor([2, 0, 1, 0], dtype=int64)"),
          ("unique_all", "The unique elements of x with their first indices, inverse and counts.",
           ("UniqueAllResult", "A named tuple (values, indices, inverse_indices, counts): the "
                               "sorted unique elements, the index of each one's first occurrence, "
                               "the inverse (as unique_inverse) and the counts, all int64 but "
                               "values."),
           ">>> r = pyasc.unique_all(x)\n>>> r.values, r.indices\n"
           "(Tensor([1, 2, 3], dtype=int64), Tensor([1, 2, 0], dtype=int64))"))),
    {"name": "unique", "summary": "The sorted unique elements of x, as NumPy's unique.",
     "details": "Of the flattened x, or with axis, of the subarrays along axis (compared\n"
                "whole, in NumPy's order). With equal_nan (NumPy's default) all NaNs\n"
                "are one value.",
     "params": [_x,
                ("return_index", "bool, optional",
                 "Also return the index of each unique value's first occurrence."),
                ("return_inverse", "bool, optional",
                 "Also return, of x's shape, each element's index into the values."),
                ("return_counts", "bool, optional", "Also return how often each value occurs."),
                ("axis", "int or None, optional",
                 "The axis whose subarrays are compared; None (the default) for the\n"
                 "elements of the flattened x."),
                ("equal_nan", "bool, optional", "Whether all NaNs are one value (True)."),
                ("sorted", "bool, optional", "Accepted: the values are always sorted.")],
     "returns": ("Tensor or tuple of Tensor",
                 "The unique values (subarrays, with axis); with any return_* flag, a\n"
                 "tuple of the values and the asked-for int64 tensors, in the order of\n"
                 "the flags."),
     "raises": [("IndexOutOfRangeError", "If axis is out of range for x.")],
     "example": (X + ">>> pyasc.unique(x)\nTensor([1, 2, 3], dtype=int64)\n"
                 ">>> pyasc.unique(x, return_counts=True)\n"
                 "(Tensor([1, 2, 3], dtype=int64), Tensor([2, 1, 1], dtype=int64))\n"
                 ">>> pyasc.unique(pyasc.asarray([[1, 2], [1, 2], [3, 4]]), axis=0).tolist()\n"
                 "[[1, 2], [3, 4]]")},
    *({"name": f"cumulative_{short}",
       "summary": f"Cumulative {what} along an axis (the Array API's).", "what": what,
       "initial": initial, "params": [_x, _api_axis, _scan_dtype, _init],
       "details": _SCAN_DTYPES,
       "returns": ("Tensor",
                   f"The running {what}s, of x's shape (one longer with include_initial)."),
       "raises": [("InvalidValueError", "If axis is left out for x of 2 or more dimensions.")],
       "example": example}
      for short, what, initial, example in (
          ("sum", "sum", "0", ">>> x = pyasc.asarray([1, 2, 3])\n>>> pyasc.cumulative_sum(x)\n"
                              "Tensor([1, 3, 6], dtype=int64)\n"
                              ">>> pyasc.cumulative_sum(x, include_initial=True)\n"
                              "Tensor([0, 1, 3, 6], dtype=int64)"),
          ("prod", "product", "1", ">>> pyasc.cumulative_prod(pyasc.asarray([1, 2, 3]))\n"
                                   "Tensor([1, 2, 6], dtype=int64)"))),
    *({"name": f"cum{short}", "summary": f"Cumulative {what} along an axis (NumPy's cum{short}).",
       "method": True, "params": [_x, _numpy_axis, _scan_dtype], "details": _SCAN_DTYPES,
       "returns": ("Tensor", f"The running {what}s: of x's shape, or 1-d for axis None."),
       "raises": [("IndexOutOfRangeError", "If axis is out of range for x.")],
       "example": example,
       "method_example": f">>> pyasc.asarray([1, 2, 3, 4]).cum{short}()\n{running}"}
      for short, what, running, example in (
          ("sum", "sum", "Tensor([ 1,  3,  6, 10], dtype=int64)",
           ">>> x = pyasc.asarray([[1, 2], [3, 4]])\n>>> pyasc.cumsum(x)\n"
           "Tensor([ 1,  3,  6, 10], dtype=int64)\n>>> pyasc.cumsum(x, axis=0).tolist()\n"
           "[[1, 2], [4, 6]]"),
          ("prod", "product", "Tensor([ 1,  2,  6, 24], dtype=int64)",
           ">>> pyasc.cumprod(pyasc.asarray([1, 2, 3, 4]))\n"
           "Tensor([ 1,  2,  6, 24], dtype=int64)"))),
]
