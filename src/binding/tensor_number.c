/* Tensor arithmetic from Python: operators, in-place forms, comparisons and
 * the NumPy-named binary functions (pyasc.add(a, b, out=None), ...). */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

void asc_py_int_limits(asc_dtype d, long long *lo, long long *hi) {
  static const long long lows[ASC_DTYPE_COUNT] = {
      [ASC_INT8] = -128,       [ASC_UINT8] = 0,  [ASC_INT16] = -32768, [ASC_INT32] = -2147483648LL,
      [ASC_INT64] = LLONG_MIN, [ASC_UINT16] = 0, [ASC_UINT32] = 0,     [ASC_UINT64] = 0};
  /* uint64's top is capped at LLONG_MAX here: callers that reach past it
   * (scalar_tensor) ask Python for the unsigned value. */
  static const long long highs[ASC_DTYPE_COUNT] = {[ASC_INT8] = 127,
                                                   [ASC_UINT8] = 255,
                                                   [ASC_INT16] = 32767,
                                                   [ASC_INT32] = 2147483647LL,
                                                   [ASC_INT64] = LLONG_MAX,
                                                   [ASC_UINT16] = 65535,
                                                   [ASC_UINT32] = 4294967295LL,
                                                   [ASC_UINT64] = LLONG_MAX};
  *lo = lows[d];
  *hi = highs[d];
}

/* Whether x fits integer dtype d. */
static bool int_fits(long long x, asc_dtype d) {
  long long lo, hi;
  asc_py_int_limits(d, &lo, &hi);
  return x >= lo && x <= hi;
}

/* Whether Python int obj fits uint64 (all of it, past LLONG_MAX too);
 * *value gets it. Returns 0 with OverflowError set, as NumPy 2, if not. */
static bool int_fits_u64(PyObject *obj, uint64_t *value) {
  unsigned long long u = PyLong_AsUnsignedLongLong(obj);
  if (u == (unsigned long long)-1 && PyErr_Occurred()) {
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return false;
    PyErr_Clear();
    PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for uint64", obj);
    return false;
  }
  *value = u;
  return true;
}

/* Writes a Python scalar into a new 0-d tensor of dtype. Integers must fit
 * the dtype (NumPy 2 raises OverflowError otherwise). */
static int scalar_tensor(PyObject *obj, asc_dtype dtype, asc_tensor *out) {
  union {
    uint8_t b;
    int8_t i8;
    uint8_t u8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint64_t u64;
    uint16_t h;
    float f;
    double d;
    float c64[2]; /* real, imaginary */
    double c128[2];
  } v;
  if (asc_dtype_is_complex(dtype)) {
    Py_complex c = PyComplex_AsCComplex(obj);
    if (c.real == -1.0 && PyErr_Occurred()) return -1;
    if (dtype == ASC_COMPLEX64)
      v.c64[0] = (float)c.real, v.c64[1] = (float)c.imag;
    else
      v.c128[0] = c.real, v.c128[1] = c.imag;
  } else if (asc_dtype_is_float(dtype)) {
    double d = PyFloat_AsDouble(obj);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    if (dtype == ASC_FLOAT16)
      v.h = asc_double_to_half(d);
    else if (dtype == ASC_BFLOAT16)
      v.h = asc_float_to_bfloat((float)d);
    else if (dtype == ASC_FLOAT32)
      v.f = (float)d;
    else
      v.d = d;
  } else if (dtype == ASC_BOOL) {
    int truth = PyObject_IsTrue(obj);
    if (truth < 0) return -1;
    v.b = (uint8_t)truth;
  } else if (dtype == ASC_UINT64 && !int_fits_u64(obj, &v.u64)) {
    return -1;
  } else if (dtype != ASC_UINT64) {
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (overflow || !int_fits(x, dtype)) {
      PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for %s", obj,
                   asc_dtype_name(dtype));
      return -1;
    }
    switch (dtype) {
      case ASC_INT8:
        v.i8 = (int8_t)x;
        break;
      case ASC_UINT8:
        v.u8 = (uint8_t)x;
        break;
      case ASC_INT16:
      case ASC_UINT16: /* the same bits */
        v.i16 = (int16_t)(uint16_t)x;
        break;
      case ASC_UINT32:
        v.i32 = (int32_t)(uint32_t)x;
        break;
      case ASC_INT32:
        v.i32 = (int32_t)x;
        break;
      default:
        v.i64 = x;
        break;
    }
  }
  asc_status st = asc_tensor_scalar(asc_device_current(), dtype, &v, out);
  if (st) asc_py_raise(st);
  return st ? -1 : 0;
}

int asc_py_operand(PyObject *obj, const asc_tensor *other, asc_tensor *out) {
  if (AscTensor_Check(obj)) {
    asc_tensor_share(&((TensorObject *)obj)->t, out);
    return 0;
  }
  asc_scalar_kind kind;
  if (PyBool_Check(obj))
    kind = ASC_SCALAR_BOOL;
  else if (PyLong_Check(obj))
    kind = ASC_SCALAR_INT;
  else if (PyFloat_Check(obj) && !PyObject_CheckBuffer(obj)) /* np.float64 is strong */
    kind = ASC_SCALAR_FLOAT;
  else if (PyComplex_Check(obj) && !PyObject_CheckBuffer(obj)) /* so is np.complex128 */
    kind = ASC_SCALAR_COMPLEX;
  else if (PyObject_CheckBuffer(obj) || PyList_Check(obj) || PyTuple_Check(obj) ||
           PyObject_HasAttrString(obj, "__array_interface__") ||
           PyObject_HasAttrString(obj, "__dlpack__"))
    return asc_py_as_tensor(obj, ASC_DTYPE_COUNT, out);
  else
    return 1;
  asc_dtype dtype = other ? asc_dtype_weak_scalar(other->dtype, kind)
                          : (kind == ASC_SCALAR_COMPLEX ? ASC_COMPLEX128
                             : kind == ASC_SCALAR_FLOAT ? ASC_FLOAT64
                             : kind == ASC_SCALAR_INT   ? ASC_INT64
                                                        : ASC_BOOL);
  return scalar_tensor(obj, dtype, out);
}

/* NumPy 2 compares integers exactly with any Python int, even one the
 * tensor's dtype cannot hold (uint8 < 300 is all True); logical ops only
 * ask whether it is zero. Such an int becomes a strong int64, or beyond
 * int64 a float64 past every int64 (+-2^64). Returns 1 when obj needs none
 * of this and is an ordinary operand. */
static int exact_int_operand(asc_binary_op op, PyObject *obj, const asc_tensor *other,
                             asc_tensor *out) {
  if (op < ASC_OP_EQ || op > ASC_OP_LOGICAL_XOR || !other || !asc_dtype_is_integer(other->dtype) ||
      !PyLong_Check(obj) || PyBool_Check(obj))
    return 1;
  int overflow;
  long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (v == -1 && PyErr_Occurred()) return -1;
  if (!overflow && int_fits(v, other->dtype)) return 1;
  uint64_t u;
  if (overflow > 0 && other->dtype == ASC_UINT64 && int_fits_u64(obj, &u)) return 1;
  PyErr_Clear();
  if (!overflow) return scalar_tensor(obj, ASC_INT64, out);
  PyObject *beyond = PyFloat_FromDouble(overflow > 0 ? 0x1p64 : -0x1p64);
  int rc = beyond ? scalar_tensor(beyond, ASC_FLOAT64, out) : -1;
  Py_XDECREF(beyond);
  return rc;
}

/* Resolves obj to op's operand: a Tensor is borrowed (the caller's reference
 * keeps it alive, and the GIL is held for the whole operation), anything
 * else converts into *tmp, which the caller releases. */
static int binary_operand(asc_binary_op op, PyObject *obj, const asc_tensor *other, asc_tensor *tmp,
                          const asc_tensor **operand) {
  int rc = exact_int_operand(op, obj, other, tmp);
  if (rc == 1 && AscTensor_Check(obj)) {
    *operand = &((TensorObject *)obj)->t;
    return 0;
  }
  if (rc == 1) rc = asc_py_operand(obj, other, tmp);
  *operand = tmp;
  return rc;
}

int asc_py_binary_scalar(asc_binary_op op, PyObject *obj, asc_dtype other, asc_tensor *out) {
  asc_tensor like; /* only its dtype is read */
  like.storage = NULL;
  like.dtype = other;
  like.ndim = 0;
  out->storage = NULL;
  int rc = exact_int_operand(op, obj, &like, out);
  return rc == 1 ? asc_py_operand(obj, &like, out) : rc;
}

/* Computes op(a, b) into *out (new, or the given out tensor). Returns
 * Py_NotImplemented for operands that are not array-like. */
static PyObject *apply_binary(asc_binary_op op, PyObject *a, PyObject *b, PyObject *out_obj) {
  const asc_tensor *ta = asc_py_tensor_of(a), *tb = asc_py_tensor_of(b), *x, *y;
  /* Only storage marks a tensor as held: zeroing the whole structs (shape
   * and strides, 272 bytes each) costs more than the rest of a small op. */
  asc_tensor xs, ys;
  xs.storage = ys.storage = NULL;
  int rc = binary_operand(op, a, tb, &xs, &x);
  if (rc) return rc > 0 ? Py_NewRef(Py_NotImplemented) : NULL;
  rc = binary_operand(op, b, ta ? ta : x, &ys, &y);
  if (rc) {
    asc_tensor_release(&xs);
    return rc > 0 ? Py_NewRef(Py_NotImplemented) : NULL;
  }
  asc_tensor result;
  result.storage = NULL;
  if (out_obj) asc_tensor_share(&((TensorObject *)out_obj)->t, &result);
  asc_status st = asc_binary(op, x, y, &result);
  asc_tensor_release(&xs);
  asc_tensor_release(&ys);
  return asc_py_result(st, &result, out_obj);
}

#define NUMBER_OP(NAME, OP)                                      \
  static PyObject *nb_##NAME(PyObject *a, PyObject *b) {         \
    return apply_binary(OP, a, b, NULL);                         \
  }                                                              \
  static PyObject *nb_inplace_##NAME(PyObject *a, PyObject *b) { \
    return apply_binary(OP, a, b, a);                            \
  }
NUMBER_OP(add, ASC_OP_ADD)
NUMBER_OP(sub, ASC_OP_SUB)
NUMBER_OP(mul, ASC_OP_MUL)
NUMBER_OP(truediv, ASC_OP_DIV)
NUMBER_OP(floordiv, ASC_OP_FLOOR_DIV)
NUMBER_OP(mod, ASC_OP_MOD)
NUMBER_OP(and, ASC_OP_BITWISE_AND)
NUMBER_OP(or, ASC_OP_BITWISE_OR)
NUMBER_OP(xor, ASC_OP_BITWISE_XOR)
NUMBER_OP(lshift, ASC_OP_LEFT_SHIFT)
NUMBER_OP(rshift, ASC_OP_RIGHT_SHIFT)

static PyObject *nb_pow(PyObject *a, PyObject *b, PyObject *mod) {
  if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED;
  return apply_binary(ASC_OP_POW, a, b, NULL);
}

static PyObject *nb_inplace_pow(PyObject *a, PyObject *b, PyObject *mod) {
  if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED;
  return apply_binary(ASC_OP_POW, a, b, a);
}

static PyObject *nb_divmod(PyObject *a, PyObject *b) {
  PyObject *q = apply_binary(ASC_OP_FLOOR_DIV, a, b, NULL);
  if (!q || q == Py_NotImplemented) return q;
  PyObject *r = apply_binary(ASC_OP_MOD, a, b, NULL);
  if (!r) {
    Py_DECREF(q);
    return NULL;
  }
  return Py_BuildValue("(NN)", q, r);
}

/* Truth and conversions follow NumPy: only single-element tensors. */
static PyObject *single_item(PyObject *self, const char *what) {
  TensorObject *t = (TensorObject *)self;
  if (asc_tensor_numel(&t->t) != 1) {
    if (!strcmp(what, "bool"))
      return asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                              "the truth value of a tensor with %lld elements is ambiguous; use "
                              "any() or all()",
                              (long long)asc_tensor_numel(&t->t));
    PyErr_Format(PyExc_TypeError, "only tensors of size 1 can be converted to Python %s", what);
    return NULL;
  }
  return PyObject_CallMethod(self, "item", NULL);
}

static int nb_bool(PyObject *self) {
  PyObject *item = single_item(self, "bool");
  if (!item) return -1;
  int truth = PyObject_IsTrue(item);
  Py_DECREF(item);
  return truth;
}

static PyObject *nb_int(PyObject *self) {
  PyObject *item = single_item(self, "int");
  if (!item) return NULL;
  Py_SETREF(item, PyNumber_Long(item));
  return item;
}

static PyObject *nb_float(PyObject *self) {
  PyObject *item = single_item(self, "float");
  if (!item) return NULL;
  Py_SETREF(item, PyNumber_Float(item));
  return item;
}

static PyObject *nb_index(PyObject *self) {
  TensorObject *t = (TensorObject *)self;
  if (t->t.ndim != 0 || !asc_dtype_is_integer(t->t.dtype)) {
    PyErr_SetString(PyExc_TypeError,
                    "only integer scalar tensors can be converted to a scalar index");
    return NULL;
  }
  return single_item(self, "int");
}

PyNumberMethods asc_py_tensor_as_number = {
    .nb_add = nb_add,
    .nb_subtract = nb_sub,
    .nb_multiply = nb_mul,
    .nb_remainder = nb_mod,
    .nb_divmod = nb_divmod,
    .nb_power = nb_pow,
    .nb_negative = asc_py_tensor_negative,
    .nb_positive = asc_py_tensor_positive,
    .nb_absolute = asc_py_tensor_absolute,
    .nb_bool = nb_bool,
    .nb_invert = asc_py_tensor_invert,
    .nb_lshift = nb_lshift,
    .nb_rshift = nb_rshift,
    .nb_and = nb_and,
    .nb_xor = nb_xor,
    .nb_or = nb_or,
    .nb_int = nb_int,
    .nb_float = nb_float,
    .nb_inplace_add = nb_inplace_add,
    .nb_inplace_subtract = nb_inplace_sub,
    .nb_inplace_multiply = nb_inplace_mul,
    .nb_inplace_remainder = nb_inplace_mod,
    .nb_inplace_power = nb_inplace_pow,
    .nb_inplace_lshift = nb_inplace_lshift,
    .nb_inplace_rshift = nb_inplace_rshift,
    .nb_inplace_and = nb_inplace_and,
    .nb_inplace_xor = nb_inplace_xor,
    .nb_inplace_or = nb_inplace_or,
    .nb_floor_divide = nb_floordiv,
    .nb_true_divide = nb_truediv,
    .nb_inplace_floor_divide = nb_inplace_floordiv,
    .nb_inplace_true_divide = nb_inplace_truediv,
    .nb_index = nb_index,
    .nb_matrix_multiply = asc_py_matmul_operator,
    .nb_inplace_matrix_multiply = asc_py_matmul_inplace,
};

PyObject *asc_py_tensor_richcompare(PyObject *a, PyObject *b, int op) {
  static const asc_binary_op ops[] = {
      [Py_LT] = ASC_OP_LT, [Py_LE] = ASC_OP_LE, [Py_EQ] = ASC_OP_EQ,
      [Py_NE] = ASC_OP_NE, [Py_GT] = ASC_OP_GT, [Py_GE] = ASC_OP_GE};
  return apply_binary(ops[op], a, b, NULL);
}

/* pyasc.add(x, y, out=None) and friends. */
static PyObject *binary_function(asc_binary_op op, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames) {
  static const char *const names[] = {"x", "y", "out", NULL};
  PyObject *a[3] = {NULL, NULL, NULL};
  if (asc_py_parse(asc_binary_op_name(op), args, nargs, kwnames, names, 2, a)) return NULL;
  PyObject *out = a[2];
  if (asc_py_parse_out(asc_binary_op_name(op), &out)) return NULL;
  if (!AscTensor_Check(a[0]) && !AscTensor_Check(a[1])) {
    /* Neither is a tensor: both become tensors (scalars with default dtypes). */
    asc_tensor x;
    int rc = asc_py_operand(a[0], NULL, &x);
    if (rc)
      return rc > 0 ? PyErr_Format(PyExc_TypeError, "%s: unsupported operand %R",
                                   asc_binary_op_name(op), a[0])
                    : NULL;
    PyObject *tx = asc_py_tensor_wrap(&x);
    if (!tx) return NULL;
    PyObject *result = apply_binary(op, tx, a[1], out);
    Py_DECREF(tx);
    return result;
  }
  PyObject *result = apply_binary(op, a[0], a[1], out);
  if (result == Py_NotImplemented) {
    Py_DECREF(result);
    return PyErr_Format(PyExc_TypeError, "%s: unsupported operand types %.100s and %.100s",
                        asc_binary_op_name(op), Py_TYPE(a[0])->tp_name, Py_TYPE(a[1])->tp_name);
  }
  return result;
}

#define BINARY_FUNCTION(NAME, OP)                                                     \
  static PyObject *fn_##NAME(PyObject *self, PyObject *const *args, Py_ssize_t nargs, \
                             PyObject *kwnames) {                                     \
    (void)self;                                                                       \
    return binary_function(OP, args, nargs, kwnames);                                 \
  }
BINARY_FUNCTION(add, ASC_OP_ADD)
BINARY_FUNCTION(subtract, ASC_OP_SUB)
BINARY_FUNCTION(multiply, ASC_OP_MUL)
BINARY_FUNCTION(divide, ASC_OP_DIV)
BINARY_FUNCTION(floor_divide, ASC_OP_FLOOR_DIV)
BINARY_FUNCTION(remainder, ASC_OP_MOD)
BINARY_FUNCTION(power, ASC_OP_POW)
BINARY_FUNCTION(maximum, ASC_OP_MAXIMUM)
BINARY_FUNCTION(minimum, ASC_OP_MINIMUM)
BINARY_FUNCTION(equal, ASC_OP_EQ)
BINARY_FUNCTION(not_equal, ASC_OP_NE)
BINARY_FUNCTION(less, ASC_OP_LT)
BINARY_FUNCTION(less_equal, ASC_OP_LE)
BINARY_FUNCTION(greater, ASC_OP_GT)
BINARY_FUNCTION(greater_equal, ASC_OP_GE)
BINARY_FUNCTION(logical_and, ASC_OP_LOGICAL_AND)
BINARY_FUNCTION(logical_or, ASC_OP_LOGICAL_OR)
BINARY_FUNCTION(logical_xor, ASC_OP_LOGICAL_XOR)
BINARY_FUNCTION(bitwise_and, ASC_OP_BITWISE_AND)
BINARY_FUNCTION(bitwise_or, ASC_OP_BITWISE_OR)
BINARY_FUNCTION(bitwise_xor, ASC_OP_BITWISE_XOR)
BINARY_FUNCTION(left_shift, ASC_OP_LEFT_SHIFT)
BINARY_FUNCTION(right_shift, ASC_OP_RIGHT_SHIFT)
BINARY_FUNCTION(atan2, ASC_OP_ATAN2)
BINARY_FUNCTION(copysign, ASC_OP_COPYSIGN)
BINARY_FUNCTION(hypot, ASC_OP_HYPOT)
BINARY_FUNCTION(logaddexp, ASC_OP_LOGADDEXP)
BINARY_FUNCTION(nextafter, ASC_OP_NEXTAFTER)

#define ENTRY(NAME)                                                          \
  {                                                                          \
    .ml_name = #NAME, .ml_meth = (PyCFunction)(void (*)(void))fn_##NAME,     \
    .ml_flags = METH_FASTCALL | METH_KEYWORDS,                               \
    .ml_doc = ASC_DOC(#NAME "($module, x, y, out=None)", ASC_DOCTEXT_##NAME) \
  }

PyMethodDef asc_py_binary_functions[] = {
    ENTRY(add),
    ENTRY(subtract),
    ENTRY(multiply),
    ENTRY(divide),
    ENTRY(floor_divide),
    ENTRY(remainder),
    ENTRY(power),
    ENTRY(maximum),
    ENTRY(minimum),
    ENTRY(equal),
    ENTRY(not_equal),
    ENTRY(less),
    ENTRY(less_equal),
    ENTRY(greater),
    ENTRY(greater_equal),
    ENTRY(logical_and),
    ENTRY(logical_or),
    ENTRY(logical_xor),
    ENTRY(bitwise_and),
    ENTRY(bitwise_or),
    ENTRY(bitwise_xor),
    ENTRY(left_shift),
    ENTRY(right_shift),
    ENTRY(atan2),
    {.ml_name = "arctan2",
     .ml_meth = (PyCFunction)(void (*)(void))fn_atan2,
     .ml_flags = METH_FASTCALL | METH_KEYWORDS,
     .ml_doc = ASC_DOC("arctan2($module, x, y, out=None)", ASC_DOCTEXT_arctan2)},
    ENTRY(copysign),
    ENTRY(hypot),
    ENTRY(logaddexp),
    ENTRY(nextafter),
    {NULL, NULL, 0, NULL},
};
