/* Basic indexing with NumPy semantics: integers, slices (any step),
 * Ellipsis and None; every result is a view. Assignment copies into it. */
#include "binding.h"

static int is_index_item(PyObject *item) {
  return item == Py_None || item == Py_Ellipsis || PySlice_Check(item) ||
         (PyIndex_Check(item) && !PyBool_Check(item));
}

/* Applies key to t, producing the view in *out. */
static int apply_index(const asc_tensor *t, PyObject *key, asc_tensor *out) {
  PyObject *items = PyTuple_Check(key) ? Py_NewRef(key) : PyTuple_Pack(1, key);
  if (!items) return -1;
  Py_ssize_t n = PyTuple_GET_SIZE(items);
  int consumed = 0, ellipses = 0;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *item = PyTuple_GET_ITEM(items, i);
    if (!is_index_item(item)) {
      Py_DECREF(items);
      PyErr_Format(PyExc_IndexError,
                   "only integers, slices (:), ellipsis (...) and None are valid indices, not "
                   "%.100s (advanced indexing is not supported)",
                   Py_TYPE(item)->tp_name);
      return -1;
    }
    if (item == Py_Ellipsis)
      ellipses++;
    else if (item != Py_None)
      consumed++;
  }
  if (ellipses > 1 || consumed > t->ndim) {
    Py_DECREF(items);
    asc_py_raise_msg(ASC_ERR_INDEX,
                     ellipses > 1 ? "an index can only have a single ellipsis ('...')"
                                  : "too many indices: the tensor is %d-dimensional but %d were "
                                    "indexed",
                     t->ndim, consumed);
    return -1;
  }
  asc_tensor view;
  asc_tensor_share(t, &view);
  int dim = 0;
  asc_status st = ASC_OK;
  for (Py_ssize_t i = 0; i < n && !st; i++) {
    PyObject *item = PyTuple_GET_ITEM(items, i);
    asc_tensor next;
    if (item == Py_Ellipsis) {
      dim += t->ndim - consumed;
      continue;
    } else if (item == Py_None) {
      st = asc_tensor_unsqueeze(&view, dim++, &next);
    } else if (PySlice_Check(item)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(item, &start, &stop, &step) < 0) {
        asc_tensor_release(&view);
        Py_DECREF(items);
        return -1;
      }
      Py_ssize_t length = PySlice_AdjustIndices((Py_ssize_t)view.shape[dim], &start, &stop, step);
      st = asc_tensor_slice(&view, dim++, start, step, length, &next);
    } else {
      Py_ssize_t index = PyNumber_AsSsize_t(item, PyExc_IndexError);
      if (index == -1 && PyErr_Occurred()) {
        asc_tensor_release(&view);
        Py_DECREF(items);
        return -1;
      }
      st = asc_tensor_select(&view, dim, index, &next);
    }
    if (!st) {
      asc_tensor_release(&view);
      view = next;
    }
  }
  Py_DECREF(items);
  if (st) {
    asc_tensor_release(&view);
    asc_py_raise(st);
    return -1;
  }
  *out = view;
  return 0;
}

static PyObject *tensor_subscript(PyObject *self, PyObject *key) {
  asc_tensor view;
  if (apply_index(&((TensorObject *)self)->t, key, &view)) return NULL;
  return asc_py_tensor_wrap(&view);
}

static int tensor_ass_subscript(PyObject *self, PyObject *key, PyObject *value) {
  if (!value) {
    PyErr_SetString(PyExc_TypeError, "tensor elements cannot be deleted");
    return -1;
  }
  asc_tensor view, source;
  if (apply_index(&((TensorObject *)self)->t, key, &view)) return -1;
  /* A scalar takes the destination's dtype, as in NumPy assignment. */
  int rc = asc_py_operand(value, &view, &source);
  if (rc) {
    asc_tensor_release(&view);
    if (rc > 0)
      PyErr_Format(PyExc_TypeError, "cannot assign %.100s to a tensor", Py_TYPE(value)->tp_name);
    return -1;
  }
  asc_status st = asc_copy(&source, &view);
  asc_tensor_release(&source);
  asc_tensor_release(&view);
  if (st) asc_py_raise(st);
  return st ? -1 : 0;
}

static Py_ssize_t tensor_length(PyObject *self) {
  const asc_tensor *t = &((TensorObject *)self)->t;
  if (t->ndim == 0) {
    PyErr_SetString(PyExc_TypeError, "len() of a 0-d tensor");
    return -1;
  }
  return (Py_ssize_t)t->shape[0];
}

/* For iteration: t[i] along the first axis. */
static PyObject *tensor_item_at(PyObject *self, Py_ssize_t index) {
  const asc_tensor *t = &((TensorObject *)self)->t;
  if (t->ndim == 0) {
    PyErr_SetString(PyExc_TypeError, "iteration over a 0-d tensor");
    return NULL;
  }
  if (index < 0 || index >= t->shape[0]) {
    PyErr_SetString(PyExc_IndexError, "index out of range");
    return NULL;
  }
  asc_tensor view;
  asc_status st = asc_tensor_select(t, 0, index, &view);
  return st ? asc_py_raise(st) : asc_py_tensor_wrap(&view);
}

PyMappingMethods asc_py_tensor_as_mapping = {
    .mp_length = tensor_length,
    .mp_subscript = tensor_subscript,
    .mp_ass_subscript = tensor_ass_subscript,
};

PySequenceMethods asc_py_tensor_as_sequence = {
    .sq_length = tensor_length,
    .sq_item = tensor_item_at,
};
