/* Indexing with NumPy's rules. Basic indices (integers, slices with any
 * step, Ellipsis, None) give views. A key holding an integer or boolean
 * array (a pyasc.Tensor, a NumPy array, a Python list) or a Python bool is
 * advanced: its integers count as advanced indices too, boolean arrays
 * become the coordinates of their true elements, the result is a copy
 * gathered by asc_index_gather, and assignment scatters with
 * asc_index_scatter. Index arrays are read on the host: those that are
 * pyasc tensors wait for the current stream first. Also pyasc.nonzero,
 * argwhere and add_at. */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

#include "asc/ops_index.h"

/* More items than this cannot index any tensor (ASC_MAX_DIMS axes). */
#define MAX_ITEMS (4 * ASC_MAX_DIMS)

typedef enum item_kind {
  IT_NONE,
  IT_ELLIPSIS,
  IT_SLICE,
  IT_INT,  /* an integer, or a 0-d integer array */
  IT_BOOL, /* a Python bool, or a 0-d boolean array */
  IT_INTS, /* an integer array */
  IT_MASK, /* a boolean array */
} item_kind;

typedef struct key_item {
  item_kind kind;
  PyObject *obj;    /* borrowed: the key's item */
  Py_ssize_t value; /* IT_INT */
  bool truth;       /* IT_BOOL */
  asc_tensor t;     /* IT_INTS, IT_MASK: one reference */
  bool on_device;   /* t is a pyasc.Tensor's: wait for its stream before reading */
} key_item;

typedef struct parsed_key {
  int n;
  int advanced; /* items of kind IT_BOOL, IT_INTS, IT_MASK */
  key_item items[MAX_ITEMS];
} parsed_key;

static void key_release(parsed_key *k) {
  for (int i = 0; i < k->n; i++) asc_tensor_release(&k->items[i].t);
  k->n = 0;
}

static PyObject *invalid_index(PyObject *item) {
  PyErr_Format(PyExc_IndexError,
               "only integers, slices (`:`), ellipsis (`...`), None and integer or boolean arrays "
               "are valid indices, not %.100s",
               Py_TYPE(item)->tp_name);
  return NULL;
}

static bool is_array_like(PyObject *item) {
  if (PyBytes_Check(item) || PyByteArray_Check(item) || PyUnicode_Check(item)) return false;
  return AscTensor_Check(item) || PyList_Check(item) || PyTuple_Check(item) ||
         PyObject_CheckBuffer(item) || PyObject_HasAttrString(item, "__array__") ||
         PyObject_HasAttrString(item, "__array_interface__") ||
         PyObject_HasAttrString(item, "__dlpack__");
}

/* An array-like item as a tensor, classified by its dtype and rank. */
static int classify_array(PyObject *item, key_item *it) {
  if (asc_py_as_tensor(item, ASC_DTYPE_COUNT, &it->t)) {
    /* what NumPy cannot make a numeric array of (strings, objects) */
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      invalid_index(item);
    }
    return -1;
  }
  it->on_device = AscTensor_Check(item);
  const asc_tensor *t = &it->t;
  if ((PyList_Check(item) || PyTuple_Check(item)) && asc_tensor_numel(t) == 0 &&
      !asc_dtype_is_integer(t->dtype) && t->dtype != ASC_BOOL) {
    /* [] is an empty integer index, as in NumPy (which makes it float64) */
    asc_tensor empty;
    asc_status st = asc_tensor_empty(asc_tensor_device(t), ASC_INT64, t->ndim, t->shape, &empty);
    if (st) {
      asc_py_raise(st);
      return -1;
    }
    asc_tensor_release(&it->t);
    it->t = empty;
  }
  if (t->dtype == ASC_BOOL) {
    it->kind = t->ndim ? IT_MASK : IT_BOOL;
    if (t->ndim == 0) {
      int truth = PyObject_IsTrue(item);
      if (truth < 0) return -1;
      it->truth = truth;
    }
    return 0;
  }
  if (!asc_dtype_is_integer(t->dtype)) {
    PyErr_Format(PyExc_IndexError,
                 "arrays used as indices must be of integer (or boolean) type, not %s",
                 asc_dtype_name(t->dtype));
    return -1;
  }
  if (t->ndim) {
    it->kind = IT_INTS;
    return 0;
  }
  /* A 0-d integer array is an integer (a view when the key is basic). */
  it->kind = IT_INT;
  it->value = PyNumber_AsSsize_t(item, PyExc_IndexError);
  return it->value == -1 && PyErr_Occurred() ? -1 : 0;
}

static int classify(PyObject *item, key_item *it) {
  it->obj = item;
  it->t.storage = NULL;
  it->on_device = false;
  if (item == Py_None) {
    it->kind = IT_NONE;
  } else if (item == Py_Ellipsis) {
    it->kind = IT_ELLIPSIS;
  } else if (PySlice_Check(item)) {
    it->kind = IT_SLICE;
  } else if (PyBool_Check(item)) {
    it->kind = IT_BOOL;
    it->truth = item == Py_True;
  } else if (PyLong_Check(item)) {
    it->kind = IT_INT;
    it->value = PyNumber_AsSsize_t(item, PyExc_IndexError);
    if (it->value == -1 && PyErr_Occurred()) return -1;
  } else if (is_array_like(item)) {
    return classify_array(item, it);
  } else if (PyIndex_Check(item) && !PyFloat_Check(item)) {
    it->kind = IT_INT;
    it->value = PyNumber_AsSsize_t(item, PyExc_IndexError);
    if (it->value == -1 && PyErr_Occurred()) return -1;
  } else {
    invalid_index(item);
    return -1;
  }
  return 0;
}

static int parse_key(PyObject *key, parsed_key *k) {
  k->n = 0;
  k->advanced = 0;
  PyObject *items = PyTuple_Check(key) ? Py_NewRef(key) : PyTuple_Pack(1, key);
  if (!items) return -1;
  Py_ssize_t n = PyTuple_GET_SIZE(items);
  if (n > MAX_ITEMS) {
    Py_DECREF(items);
    PyErr_Format(PyExc_IndexError, "too many indices for array: %zd were given", n);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    key_item *it = &k->items[k->n];
    if (classify(PyTuple_GET_ITEM(items, i), it)) {
      /* the item's own tensor, if it got one before failing */
      asc_tensor_release(&it->t);
      key_release(k);
      Py_DECREF(items);
      return -1;
    }
    k->n++;
    k->advanced += it->kind == IT_BOOL || it->kind == IT_INTS || it->kind == IT_MASK;
  }
  Py_DECREF(items);
  return 0;
}

/* Axes the key consumes; -1 with IndexError for two ellipses or too many. */
static int consumed_axes(const parsed_key *k, int ndim) {
  int consumed = 0, ellipses = 0;
  for (int i = 0; i < k->n; i++) {
    const key_item *it = &k->items[i];
    if (it->kind == IT_ELLIPSIS)
      ellipses++;
    else if (it->kind == IT_MASK)
      consumed += it->t.ndim;
    else if (it->kind == IT_INT || it->kind == IT_INTS || it->kind == IT_SLICE)
      consumed++;
  }
  if (ellipses > 1) {
    asc_py_raise_msg(ASC_ERR_INDEX, "an index can only have a single ellipsis ('...')");
    return -1;
  }
  if (consumed > ndim) {
    asc_py_raise_msg(ASC_ERR_INDEX,
                     "too many indices for array: array is %d-dimensional, but %d were indexed",
                     ndim, consumed);
    return -1;
  }
  return consumed;
}

/* What applying a key leaves: the view of the basic indices and, for an
 * advanced key, the advanced indices on its axes. */
typedef struct applied {
  asc_tensor view;
  int nadv;
  asc_adv_index adv[ASC_MAX_DIMS];
  asc_tensor held[ASC_MAX_DIMS]; /* the index tensors made here */
  bool in_place;
  bool unique; /* no element is indexed twice: the only advanced items are one mask and ints */
} applied;

static void applied_release(applied *a) {
  asc_tensor_release(&a->view);
  for (int i = 0; i < a->nadv; i++) asc_tensor_release(&a->held[i]);
  a->nadv = 0;
}

/* Records index tensor t (taken over) for axis of the view. */
static int add_adv(applied *a, asc_tensor *t, int axis, int label) {
  if (a->nadv >= ASC_MAX_DIMS) {
    asc_tensor_release(t);
    asc_py_raise_msg(ASC_ERR_INDEX, "too many advanced indices (at most %d)", ASC_MAX_DIMS);
    return -1;
  }
  a->held[a->nadv] = *t;
  a->adv[a->nadv] = (asc_adv_index){.index = &a->held[a->nadv], .axis = axis, .label = label};
  a->nadv++;
  return 0;
}

/* The coordinates of mask's true elements, one index tensor per axis. */
static int add_mask(applied *a, key_item *it, int dim, int xaxis) {
  const asc_tensor *m = &it->t;
  /* NumPy lets a mask axis of length 0 stand for any axis: it selects
   * nothing either way. */
  for (int j = 0; j < m->ndim; j++)
    if (m->shape[j] != a->view.shape[dim + j] && m->shape[j] != 0) {
      asc_py_raise_msg(ASC_ERR_INDEX,
                       "boolean index did not match indexed array along axis %d; size of axis is "
                       "%lld but size of corresponding boolean axis is %lld",
                       xaxis + j, (long long)a->view.shape[dim + j], (long long)m->shape[j]);
      return -1;
    }
  if (it->on_device && asc_py_sync_tensor_for_host(m)) return -1;
  asc_tensor nz;
  asc_status st = asc_nonzero(m, &nz);
  for (int j = 0; !st && j < m->ndim; j++) {
    asc_tensor row;
    st = asc_tensor_select(&nz, 0, j, &row);
    if (!st && add_adv(a, &row, dim + j, xaxis + j)) {
      asc_tensor_release(&nz);
      return -1;
    }
  }
  asc_tensor_release(&nz);
  if (st) asc_py_raise(st);
  return st ? -1 : 0;
}

/* The end of a function that built *t for its caller: *t becomes *out
 * (the caller releases it) and 0 is returned when st is ASC_OK; otherwise
 * *t is released and st raised (-1). */
static int hand_over(asc_status st, asc_tensor *t, asc_tensor *out) {
  if (st) {
    asc_tensor_release(t);
    asc_py_raise(st);
    return -1;
  }
  *out = *t;
  return 0;
}

/* An index tensor holding the one integer v (0-d), or for a bool the
 * coordinates of a new length-1 axis: [0] if true, [] if false. */
static int scalar_index(const asc_tensor *x, int64_t v, int bool_truth, asc_tensor *out) {
  asc_tensor s, u = {0};
  asc_status st = asc_tensor_scalar(asc_tensor_device(x), ASC_INT64, &v, &s);
  if (st) {
    asc_py_raise(st);
    return -1;
  }
  if (bool_truth < 0) {
    *out = s;
    return 0;
  }
  st = asc_tensor_unsqueeze(&s, 0, &u);
  asc_tensor_release(&s);
  if (!st && !bool_truth) {
    st = asc_tensor_slice(&u, 0, 0, 1, 0, &s);
    asc_tensor_release(&u);
    u = s;
  }
  return hand_over(st, &u, out);
}

/* Applies one item; dim and xaxis advance over the view's and x's axes. */
static int apply_item(applied *a, key_item *it, int ndim, int consumed, int *dim, int *xaxis,
                      bool advanced) {
  asc_tensor next = {0}, index;
  asc_status st = ASC_OK;
  switch (it->kind) {
    case IT_ELLIPSIS:
      *dim += ndim - consumed;
      *xaxis += ndim - consumed;
      return 0;
    case IT_NONE:
      st = asc_tensor_unsqueeze(&a->view, (*dim)++, &next);
      break;
    case IT_SLICE: {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(it->obj, &start, &stop, &step) < 0) return -1;
      Py_ssize_t length =
          PySlice_AdjustIndices((Py_ssize_t)a->view.shape[*dim], &start, &stop, step);
      st = asc_tensor_slice(&a->view, (*dim)++, start, step, length, &next);
      (*xaxis)++;
      break;
    }
    case IT_INT:
      if (!advanced) {
        st = asc_tensor_select(&a->view, *dim, it->value, &next);
        (*xaxis)++;
        break;
      }
      /* NumPy checks an integer even where the indices broadcast to nothing */
      if (it->value < -a->view.shape[*dim] || it->value >= a->view.shape[*dim]) {
        asc_py_raise_msg(ASC_ERR_INDEX, "index %zd is out of bounds for axis %d with size %lld",
                         it->value, *xaxis, (long long)a->view.shape[*dim]);
        return -1;
      }
      if (scalar_index(&a->view, it->value, -1, &index) || add_adv(a, &index, (*dim)++, (*xaxis)++))
        return -1;
      return 0;
    case IT_BOOL:
      st = asc_tensor_unsqueeze(&a->view, *dim, &next);
      if (st) break;
      asc_tensor_release(&a->view);
      a->view = next;
      if (scalar_index(&a->view, 0, it->truth, &index) || add_adv(a, &index, (*dim)++, *xaxis))
        return -1;
      return 0;
    case IT_INTS:
      asc_tensor_share(&it->t, &index);
      if (add_adv(a, &index, (*dim)++, (*xaxis)++)) return -1;
      return 0;
    case IT_MASK:
      if (add_mask(a, it, *dim, *xaxis)) return -1;
      *dim += it->t.ndim;
      *xaxis += it->t.ndim;
      return 0;
  }
  if (st) {
    asc_py_raise(st);
    return -1;
  }
  asc_tensor_release(&a->view);
  a->view = next;
  return 0;
}

/* Applies key to t: the view of its basic indices, and the advanced ones. */
static int apply_key(const asc_tensor *t, parsed_key *k, applied *a) {
  a->nadv = 0;
  a->in_place = true;
  a->unique = false;
  int consumed = consumed_axes(k, t->ndim);
  if (consumed < 0) return -1;
  bool advanced = k->advanced > 0;
  if (advanced) {
    /* wait once for the stream that writes the index tensors */
    for (int i = 0; i < k->n; i++)
      if (k->items[i].on_device && k->items[i].kind == IT_INTS) {
        if (asc_py_sync_tensor_for_host(&k->items[i].t)) return -1;
      }
    /* NumPy: B replaces the advanced indices in place when they are
     * adjacent in the key (integers count), else it goes first. */
    int first = -1, last = -1, count = 0;
    for (int i = 0; i < k->n; i++) {
      item_kind kind = k->items[i].kind;
      if (kind == IT_INT || kind == IT_BOOL || kind == IT_INTS || kind == IT_MASK) {
        if (first < 0) first = i;
        last = i;
        count++;
      }
    }
    a->in_place = last - first + 1 == count;
    /* a mask's coordinates are distinct; integers pick one position */
    int masks = 0, others = 0;
    for (int i = 0; i < k->n; i++) {
      masks += k->items[i].kind == IT_MASK;
      others += k->items[i].kind == IT_INTS || k->items[i].kind == IT_BOOL;
    }
    a->unique = masks == 1 && others == 0;
  }
  asc_tensor_share(t, &a->view);
  int dim = 0, xaxis = 0;
  for (int i = 0; i < k->n; i++)
    if (apply_item(a, &k->items[i], t->ndim, consumed, &dim, &xaxis, advanced)) {
      applied_release(a);
      return -1;
    }
  return 0;
}

/* The fast path of a basic key (integers, slices, None, one Ellipsis):
 * 0 with the view in *out, -1 with an error, 1 (nothing set) for any other
 * key, which parse_key and apply_key then handle (and report). */
static int basic_view(const asc_tensor *t, PyObject *key, asc_tensor *out) {
  bool tuple = PyTuple_Check(key);
  Py_ssize_t n = tuple ? PyTuple_GET_SIZE(key) : 1;
  PyObject *const *items = tuple ? PySequence_Fast_ITEMS(key) : &key;
  if (n > MAX_ITEMS) return 1;
  Py_ssize_t values[MAX_ITEMS];
  int consumed = 0, ellipses = 0;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *item = items[i];
    if (item == Py_None) continue;
    if (item == Py_Ellipsis) {
      ellipses++;
      continue;
    }
    consumed++;
    if (PySlice_Check(item)) continue;
    if (PyBool_Check(item) || AscTensor_Check(item) || PyList_Check(item) || PyTuple_Check(item) ||
        !PyIndex_Check(item))
      return 1;
    values[i] = PyNumber_AsSsize_t(item, PyExc_IndexError);
    if (values[i] == -1 && PyErr_Occurred()) {
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) return -1;
      PyErr_Clear(); /* an array: an advanced index */
      return 1;
    }
  }
  if (ellipses > 1 || consumed > t->ndim) return 1;
  asc_tensor view;
  asc_tensor_share(t, &view);
  asc_status st = ASC_OK;
  for (Py_ssize_t i = 0, dim = 0; i < n && !st; i++) {
    PyObject *item = items[i];
    asc_tensor next;
    if (item == Py_Ellipsis) {
      dim += t->ndim - consumed;
      continue;
    } else if (item == Py_None) {
      st = asc_tensor_unsqueeze(&view, (int)dim++, &next);
    } else if (PySlice_Check(item)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(item, &start, &stop, &step) < 0) {
        asc_tensor_release(&view);
        return -1;
      }
      Py_ssize_t length = PySlice_AdjustIndices((Py_ssize_t)view.shape[dim], &start, &stop, step);
      st = asc_tensor_slice(&view, (int)dim++, start, step, length, &next);
    } else {
      st = asc_tensor_select(&view, (int)dim, values[i], &next);
    }
    if (!st) {
      asc_tensor_release(&view);
      view = next;
    }
  }
  return hand_over(st, &view, out);
}

/* a from key: the basic fast path, else the key parsed and applied. */
static int index_key(const asc_tensor *t, PyObject *key, applied *a) {
  a->nadv = 0;
  a->in_place = true;
  a->unique = false;
  int rc = basic_view(t, key, &a->view);
  if (rc <= 0) return rc;
  parsed_key k;
  if (parse_key(key, &k)) return -1;
  rc = apply_key(t, &k, a);
  key_release(&k);
  return rc;
}

static PyObject *tensor_subscript(PyObject *self, PyObject *key) {
  applied a;
  if (index_key(&((TensorObject *)self)->t, key, &a)) return NULL;
  if (!a.nadv) return asc_py_tensor_wrap(&a.view);
  asc_tensor out;
  asc_status st = asc_index_gather(&a.view, a.nadv, a.adv, a.in_place, &out);
  applied_release(&a);
  return st ? asc_py_raise(st) : asc_py_tensor_wrap(&out);
}

/* x[key] = value, or with accumulate x[key] += value with repeated indices
 * each adding (add_at). */
static int assign(PyObject *self, PyObject *key, PyObject *value, bool accumulate) {
  applied a;
  if (index_key(&((TensorObject *)self)->t, key, &a)) return -1;
  asc_tensor source;
  /* A scalar takes the destination's dtype, as in NumPy assignment. */
  int rc = asc_py_operand(value, &a.view, &source);
  if (rc) {
    applied_release(&a);
    if (rc > 0)
      PyErr_Format(PyExc_TypeError, "cannot assign %.100s to a tensor", Py_TYPE(value)->tp_name);
    return -1;
  }
  asc_status st;
  if (accumulate && !asc_can_cast_same_kind(source.dtype, a.view.dtype)) {
    st = asc_error(ASC_ERR_TYPE, "add_at: cannot cast %s values to the %s tensor (same_kind)",
                   asc_dtype_name(source.dtype), asc_dtype_name(a.view.dtype));
  } else if (a.nadv) {
    unsigned flags = (accumulate ? ASC_INDEX_ACCUMULATE : 0) | (a.unique ? ASC_INDEX_UNIQUE : 0);
    st = asc_index_scatter(&a.view, a.nadv, a.adv, a.in_place, &source, flags);
  } else if (accumulate) {
    asc_tensor out;
    asc_tensor_share(&a.view, &out);
    st = asc_binary(ASC_OP_ADD, &a.view, &source, &out);
    asc_tensor_release(&out);
  } else {
    st = asc_copy(&source, &a.view);
  }
  asc_tensor_release(&source);
  applied_release(&a);
  if (st) asc_py_raise(st);
  return st ? -1 : 0;
}

static int tensor_ass_subscript(PyObject *self, PyObject *key, PyObject *value) {
  if (!value) {
    PyErr_SetString(PyExc_TypeError, "tensor elements cannot be deleted");
    return -1;
  }
  return assign(self, key, value, false);
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

/* value in t: NumPy's (t == value).any(). */
static int tensor_contains(PyObject *self, PyObject *value) {
  PyObject *equal = PyObject_RichCompare(self, value, Py_EQ);
  if (!equal) return -1;
  PyObject *found = PyObject_CallMethod(equal, "any", NULL);
  Py_DECREF(equal);
  if (!found) return -1;
  int truth = PyObject_IsTrue(found);
  Py_DECREF(found);
  return truth;
}

PyMappingMethods asc_py_tensor_as_mapping = {
    .mp_length = tensor_length,
    .mp_subscript = tensor_subscript,
    .mp_ass_subscript = tensor_ass_subscript,
};

PySequenceMethods asc_py_tensor_as_sequence = {
    .sq_length = tensor_length,
    .sq_item = tensor_item_at,
    .sq_contains = tensor_contains,
};

/* --- nonzero, argwhere, add_at ---------------------------------------------- */

/* asc_nonzero of an array-like, waiting for a pyasc tensor's stream. */
static int nonzero_of(PyObject *obj, asc_tensor *nz, int *ndim) {
  asc_tensor x;
  if (asc_py_as_tensor(obj, ASC_DTYPE_COUNT, &x)) return -1;
  if (AscTensor_Check(obj) && asc_py_sync_tensor_for_host(&x)) {
    asc_tensor_release(&x);
    return -1;
  }
  *ndim = x.ndim;
  asc_status st = x.ndim ? asc_nonzero(&x, nz) : ASC_OK;
  if (!st && !x.ndim) {
    /* argwhere's (n, 0) answer for a 0-d x: n is whether it is true */
    int truth = PyObject_IsTrue(obj);
    int64_t shape[2] = {0, truth > 0};
    if (truth < 0) {
      asc_tensor_release(&x);
      return -1;
    }
    st = asc_tensor_empty(asc_tensor_device(&x), ASC_INT64, 2, shape, nz);
  }
  asc_tensor_release(&x);
  if (st) asc_py_raise(st);
  return st ? -1 : 0;
}

PyObject *asc_py_nonzero(PyObject *obj) {
  asc_tensor nz;
  int ndim;
  if (nonzero_of(obj, &nz, &ndim)) return NULL;
  if (ndim == 0) {
    asc_tensor_release(&nz);
    return asc_py_raise_msg(
        ASC_ERR_INVALID_VALUE,
        "nonzero of a 0-d tensor is not allowed: use x.reshape(1) (as NumPy 2)");
  }
  PyObject *result = PyTuple_New(ndim);
  for (int j = 0; result && j < ndim; j++) {
    asc_tensor row;
    asc_status st = asc_tensor_select(&nz, 0, j, &row);
    PyObject *item = st ? asc_py_raise(st) : asc_py_tensor_wrap(&row);
    if (!item)
      Py_CLEAR(result);
    else
      PyTuple_SET_ITEM(result, j, item);
  }
  asc_tensor_release(&nz);
  return result;
}

static PyObject *fn_nonzero(PyObject *self, PyObject *x) {
  (void)self;
  return asc_py_nonzero(x);
}

static PyObject *fn_argwhere(PyObject *self, PyObject *x) {
  (void)self;
  asc_tensor nz, out;
  int ndim;
  if (nonzero_of(x, &nz, &ndim)) return NULL;
  asc_status st = asc_tensor_permute(&nz, NULL, &out);
  asc_tensor_release(&nz);
  return st ? asc_py_raise(st) : asc_py_tensor_wrap(&out);
}

static PyObject *fn_add_at(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"a", "indices", "b", NULL};
  PyObject *a[3] = {NULL, NULL, NULL};
  if (asc_py_parse("add_at", args, nargs, kwnames, names, 3, a)) return NULL;
  if (!AscTensor_Check(a[0]))
    return PyErr_Format(PyExc_TypeError,
                        "add_at: a must be a pyasc.Tensor (it is changed in "
                        "place), not %.100s",
                        Py_TYPE(a[0])->tp_name);
  if (assign(a[0], a[1], a[2], true)) return NULL;
  Py_RETURN_NONE;
}

static PyObject *tensor_nonzero(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return asc_py_nonzero(self);
}

static PyMethodDef functions[] = {
    {"nonzero", (PyCFunction)fn_nonzero, METH_O,
     ASC_DOC("nonzero($module, x, /)", ASC_DOCTEXT_nonzero)},
    {"argwhere", (PyCFunction)fn_argwhere, METH_O,
     ASC_DOC("argwhere($module, x, /)", ASC_DOCTEXT_argwhere)},
    {"add_at", (PyCFunction)(void (*)(void))fn_add_at, METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("add_at($module, a, indices, b)", ASC_DOCTEXT_add_at)},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef methods[] = {
    {"nonzero", (PyCFunction)tensor_nonzero, METH_NOARGS,
     ASC_DOC("nonzero($self, /)", ASC_METHDOC_nonzero)},
    {NULL, NULL, 0, NULL},
};

int asc_py_index_init(PyObject *module) {
  if (PyModule_AddFunctions(module, functions) < 0) return -1;
  return asc_py_tensor_add_methods(methods);
}
