/* pyasc.Generator: seeded random tensors from the Philox4x32-10 generator
 * in libasc (docs/random.md). The GIL serialises calls on one generator,
 * which is all the state it has. */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

#include "asc/ops_create.h"

typedef struct {
  PyObject_HEAD asc_generator g;
} GeneratorObject;

#define ALGORITHM "Philox4x32-10"

/* A non-negative int below 2**64. */
static int parse_u64(PyObject *obj, const char *what, uint64_t *out) {
  if (!PyIndex_Check(obj) || PyBool_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(obj)->tp_name);
    return -1;
  }
  PyObject *index = PyNumber_Index(obj);
  unsigned long long v = index ? PyLong_AsUnsignedLongLong(index) : (unsigned long long)-1;
  Py_XDECREF(index);
  if (v == (unsigned long long)-1 && PyErr_Occurred()) {
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
    PyErr_Clear();
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "%s must be a non-negative integer below 2**64", what);
    return -1;
  }
  *out = v;
  return 0;
}

/* A seed: such an int, or None for one from the operating system. */
static int parse_seed(PyObject *obj, uint64_t *seed) {
  if (obj && obj != Py_None) return parse_u64(obj, "seed", seed);
  PyObject *os = PyImport_ImportModule("os");
  PyObject *bytes = os ? PyObject_CallMethod(os, "urandom", "i", 8) : NULL;
  Py_XDECREF(os);
  if (!bytes) return -1;
  memcpy(seed, PyBytes_AS_STRING(bytes), sizeof *seed);
  Py_DECREF(bytes);
  return 0;
}

static PyObject *generator_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"seed", NULL};
  PyObject *seed_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:Generator", names, &seed_obj)) return NULL;
  uint64_t seed;
  if (parse_seed(seed_obj, &seed)) return NULL;
  GeneratorObject *self = (GeneratorObject *)type->tp_alloc(type, 0);
  if (self) asc_generator_init(&self->g, seed);
  return (PyObject *)self;
}

static PyObject *generator_repr(GeneratorObject *self) {
  return PyUnicode_FromFormat("Generator(" ALGORITHM ", seed=%llu)",
                              (unsigned long long)self->g.seed);
}

static int parse_dtype(PyObject *obj, asc_dtype fallback, asc_dtype *dtype) {
  *dtype = fallback;
  return obj && obj != Py_None ? asc_py_dtype(obj, dtype) : 0;
}

typedef asc_status (*float_fn)(asc_generator *g, int device, asc_dtype dtype, int ndim,
                               const int64_t *shape, asc_tensor *out);

/* random/standard_normal(size=None, dtype=float64). */
static PyObject *floats(GeneratorObject *self, const char *fname, float_fn fn,
                        PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  static const char *const names[] = {"size", "dtype", NULL};
  PyObject *a[2] = {NULL, NULL};
  int ndim;
  int64_t shape[ASC_MAX_DIMS];
  asc_dtype dtype;
  if (asc_py_parse(fname, args, nargs, kwnames, names, 0, a) || asc_py_shape(a[0], &ndim, shape) ||
      parse_dtype(a[1], ASC_FLOAT64, &dtype))
    return NULL;
  asc_tensor t;
  asc_status st = fn(&self->g, asc_device_current(), dtype, ndim, shape, &t);
  return st ? asc_py_raise(st) : asc_py_tensor_wrap(&t);
}

static PyObject *generator_random(GeneratorObject *self, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames) {
  return floats(self, "random", asc_random_uniform, args, nargs, kwnames);
}

static PyObject *generator_standard_normal(GeneratorObject *self, PyObject *const *args,
                                           Py_ssize_t nargs, PyObject *kwnames) {
  return floats(self, "standard_normal", asc_random_normal, args, nargs, kwnames);
}

/* An int bound as int64; out of that range it is out of bounds for any
 * dtype we have. */
static int parse_bound(PyObject *obj, const char *which, asc_dtype dtype, int64_t *out) {
  PyObject *index = PyNumber_Index(obj);
  if (!index) return -1;
  int overflow;
  long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (v == -1 && PyErr_Occurred()) return -1;
  if (overflow) {
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "%s is out of bounds for %s", which,
                     asc_dtype_name(dtype));
    return -1;
  }
  *out = v;
  return 0;
}

/* integers(low, high=None, size=None, dtype=int64, endpoint=False):
 * [low, high), or [0, low) without high, or [low, high] with endpoint. */
static PyObject *generator_integers(GeneratorObject *self, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames) {
  static const char *const names[] = {"low", "high", "size", "dtype", "endpoint", NULL};
  PyObject *a[5] = {NULL, NULL, NULL, NULL, NULL};
  int ndim;
  int64_t shape[ASC_MAX_DIMS];
  asc_dtype dtype;
  if (asc_py_parse("integers", args, nargs, kwnames, names, 1, a) ||
      asc_py_shape(a[2], &ndim, shape) || parse_dtype(a[3], ASC_INT64, &dtype))
    return NULL;
  int endpoint = a[4] ? PyObject_IsTrue(a[4]) : 0;
  if (endpoint < 0) return NULL;
  bool no_high = !a[1] || a[1] == Py_None;
  PyObject *high_obj = no_high ? a[0] : a[1];
  /* The inclusive upper bound, in Python arithmetic: high may be 2**63. */
  PyObject *one = PyLong_FromLong(1), *high_incl = NULL;
  if (one) {
    PyObject *high_index = PyNumber_Index(high_obj);
    high_incl = !high_index || endpoint ? high_index : PyNumber_Subtract(high_index, one);
    if (high_index && !endpoint) Py_DECREF(high_index);
    Py_DECREF(one);
  }
  if (!high_incl) return NULL;
  int64_t low = 0, high;
  int rc = no_high ? 0 : parse_bound(a[0], "low", dtype, &low);
  if (!rc) rc = parse_bound(high_incl, "high", dtype, &high);
  Py_DECREF(high_incl);
  if (rc) return NULL;
  if (low > high)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, no_high    ? "high <= 0"
                                                   : endpoint ? "low > high"
                                                              : "low >= high");
  asc_tensor t;
  asc_status st =
      asc_random_integers(&self->g, asc_device_current(), dtype, low, high, ndim, shape, &t);
  return st ? asc_py_raise(st) : asc_py_tensor_wrap(&t);
}

static PyObject *get_seed(GeneratorObject *self, void *closure) {
  (void)closure;
  return PyLong_FromUnsignedLongLong(self->g.seed);
}

/* state: {"bit_generator", "seed", "counter"}; assigning it back resumes
 * the sequence exactly. */
static PyObject *get_state(GeneratorObject *self, void *closure) {
  (void)closure;
  return Py_BuildValue("{s:s,s:K,s:K}", "bit_generator", ALGORITHM, "seed",
                       (unsigned long long)self->g.seed, "counter",
                       (unsigned long long)self->g.calls);
}

static int set_state(GeneratorObject *self, PyObject *value, void *closure) {
  (void)closure;
  if (!value || !PyDict_Check(value)) {
    PyErr_SetString(PyExc_TypeError, "state must be a dict as returned by Generator.state");
    return -1;
  }
  PyObject *seed = PyDict_GetItemString(value, "seed");
  PyObject *counter = PyDict_GetItemString(value, "counter");
  PyObject *algorithm = PyDict_GetItemString(value, "bit_generator");
  if (!seed || !counter || !algorithm || !PyUnicode_Check(algorithm) ||
      PyUnicode_CompareWithASCIIString(algorithm, ALGORITHM)) {
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "state is not a " ALGORITHM " generator state");
    return -1;
  }
  uint64_t s, c;
  if (parse_u64(seed, "seed", &s) || parse_u64(counter, "counter", &c)) return -1;
  self->g.seed = s;
  self->g.calls = c;
  return 0;
}

static PyGetSetDef generator_getset[] = {
    {"seed", (getter)get_seed, NULL, "The seed: the Philox key.", NULL},
    {"state", (getter)get_state, (setter)set_state,
     "The generator's state as a dict; assign a saved one to replay its numbers.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

#define METHOD(NAME, DOC) \
  { #NAME, (PyCFunction)(void (*)(void))generator_##NAME, METH_FASTCALL | METH_KEYWORDS, DOC }

static PyMethodDef generator_methods[] = {
    METHOD(random, ASC_DOC("random($self, size=None, dtype=None)", ASC_DOCTEXT_Generator_random)),
    METHOD(standard_normal, ASC_DOC("standard_normal($self, size=None, dtype=None)",
                                    ASC_DOCTEXT_Generator_standard_normal)),
    METHOD(integers,
           ASC_DOC("integers($self, low, high=None, size=None, dtype=None, endpoint=False)",
                   ASC_DOCTEXT_Generator_integers)),
    {NULL, NULL, 0, NULL},
};

PyTypeObject AscGenerator_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc.Generator",
    .tp_basicsize = sizeof(GeneratorObject),
    .tp_repr = (reprfunc)generator_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = ASC_DOC("Generator(seed=None)", ASC_DOCTEXT_Generator),
    .tp_methods = generator_methods,
    .tp_getset = generator_getset,
    .tp_new = generator_new,
};

int asc_py_random_init(PyObject *module) {
  if (PyType_Ready(&AscGenerator_Type) < 0) return -1;
  return PyModule_AddObjectRef(module, "Generator", (PyObject *)&AscGenerator_Type);
}
