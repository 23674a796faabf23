/* pyasc._C.OpProgram: a chain of element-wise operations that an operator
 * (pyasc.op) runs in one call (asc/program.h), with its eager steps as the
 * fallback for calls whose inputs the program does not take. */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include <string.h>

#include "asc/program.h"

typedef struct {
  PyObject_HEAD vectorcallfunc vectorcall;
  asc_prog *prog;     /* owned */
  PyObject *fallback; /* the same operations, eagerly */
  int single;         /* returns its one output itself, not in a tuple */
} OpProgramObject;

/* The operations a program runs, by their pyasc names. */
typedef enum prog_kind {
  KIND_NONE,
  KIND_BINARY,
  KIND_UNARY,
  KIND_CAST,
  KIND_WHERE,
  KIND_CLIP
} prog_kind;

static const char *const aliases[][2] = {{"divide", "true_divide"}, {"abs", "absolute"}};

static prog_kind lookup(const char *name, int *op) {
  for (size_t k = 0; k < sizeof aliases / sizeof *aliases; k++)
    if (!strcmp(name, aliases[k][0])) name = aliases[k][1];
  if (!strcmp(name, "astype")) return KIND_CAST;
  if (!strcmp(name, "where")) return KIND_WHERE;
  if (!strcmp(name, "clip")) return KIND_CLIP;
  for (*op = 0; *op < ASC_BINARY_OP_COUNT; ++*op)
    if (!strcmp(name, asc_binary_op_name((asc_binary_op)*op))) return KIND_BINARY;
  for (*op = 0; *op < ASC_UNARY_OP_COUNT; ++*op)
    if (!strcmp(name, asc_unary_op_name((asc_unary_op)*op))) return KIND_UNARY;
  return KIND_NONE;
}

/* A sequence of ints as a shape: 0, or -1 with an exception. */
static int parse_shape(PyObject *obj, int *ndim, int64_t *shape) {
  PyObject *seq = PySequence_Fast(obj, "OpProgram: a shape is a sequence of ints");
  if (!seq) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  int rc = n > ASC_MAX_DIMS ? -1 : 0;
  if (rc) PyErr_SetString(PyExc_ValueError, "OpProgram: too many dimensions");
  for (Py_ssize_t k = 0; !rc && k < n; k++) {
    shape[k] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, k));
    rc = shape[k] == -1 && PyErr_Occurred() ? -1 : 0;
  }
  *ndim = (int)n;
  Py_DECREF(seq);
  return rc;
}

/* Raises for a failed status: 0 or -1. */
static int check(asc_status st) {
  if (st) asc_py_raise(st);
  return st ? -1 : 0;
}

static int add_inputs(asc_prog *prog, PyObject *inputs, int *regs, Py_ssize_t *nvalues) {
  PyObject *seq = PySequence_Fast(inputs, "OpProgram: inputs is a sequence");
  if (!seq) return -1;
  int rc = 0;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  for (Py_ssize_t k = 0; !rc && k < n; k++) {
    PyObject *dtype_obj, *shape_obj;
    asc_dtype dtype;
    int ndim;
    int64_t shape[ASC_MAX_DIMS];
    rc = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, k), "OO", &dtype_obj, &shape_obj) ? 0 : -1;
    if (!rc) rc = asc_py_dtype(dtype_obj, &dtype);
    if (!rc) rc = parse_shape(shape_obj, &ndim, shape);
    if (!rc) rc = check(asc_prog_input(prog, dtype, ndim, shape, &regs[k]));
  }
  *nvalues = n;
  Py_DECREF(seq);
  return rc;
}

/* An operand: ("an int", the index of a value) or a 1-tuple holding a
 * Python number, converted next to `other` as the eager operation does. */
static int operand(asc_prog *prog, PyObject *obj, const int *regs, Py_ssize_t nvalues, int op,
                   PyObject *other, int *reg) {
  if (PyLong_CheckExact(obj)) {
    Py_ssize_t k = PyLong_AsSsize_t(obj);
    if (k < 0 || k >= nvalues) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "OpProgram: no such value");
      return -1;
    }
    *reg = regs[k];
    return 0;
  }
  PyObject *value =
      PyTuple_Check(obj) && PyTuple_GET_SIZE(obj) == 1 ? PyTuple_GET_ITEM(obj, 0) : NULL;
  bool number =
      value && (PyFloat_CheckExact(value) || PyLong_CheckExact(value) || PyBool_Check(value));
  if (!number || !other || !PyLong_CheckExact(other)) {
    asc_py_raise_msg(ASC_ERR_UNSUPPORTED, "OpProgram: unsupported operand");
    return -1;
  }
  int other_reg;
  if (operand(prog, other, regs, nvalues, op, NULL, &other_reg)) return -1;
  asc_tensor t;
  int rc = asc_py_binary_scalar((asc_binary_op)op, value, asc_prog_dtype(prog, other_reg), &t);
  if (rc > 0) asc_py_raise_msg(ASC_ERR_UNSUPPORTED, "OpProgram: unsupported operand");
  if (rc) return -1;
  rc = check(asc_prog_const(prog, &t, reg));
  asc_tensor_release(&t);
  return rc;
}

/* The Python number in a 1-tuple operand (None too when `none`), or NULL. */
static PyObject *number_of(PyObject *obj, bool none) {
  PyObject *v = PyTuple_Check(obj) && PyTuple_GET_SIZE(obj) == 1 ? PyTuple_GET_ITEM(obj, 0) : NULL;
  if (v &&
      (PyFloat_CheckExact(v) || PyLong_CheckExact(v) || PyBool_Check(v) || (none && v == Py_None)))
    return v;
  return NULL;
}

/* A Python number operand of where or clip as a constant, converted as the
 * eager call converts it: weakly against dtype ref (ASC_DTYPE_COUNT: on its
 * own). */
static int number_const(asc_prog *prog, PyObject *value, asc_dtype ref, int *reg) {
  asc_tensor other = {0}, t = {0};
  other.dtype = ref;
  int rc = asc_py_operand(value, ref == ASC_DTYPE_COUNT ? NULL : &other, &t);
  if (rc > 0) asc_py_raise_msg(ASC_ERR_UNSUPPORTED, "OpProgram: unsupported operand");
  if (rc) return -1;
  rc = check(asc_prog_const(prog, &t, reg));
  asc_tensor_release(&t);
  return rc;
}

/* The three operands of where or clip: values' registers in reg[k], the
 * Python numbers (None included for clip's bounds) in num[k]; -1 with an
 * exception for anything else. */
static int three_operands(asc_prog *prog, PyObject *args, const int *regs, Py_ssize_t nvalues,
                          bool none, int *reg, PyObject **num) {
  for (int k = 0; k < 3; k++) {
    PyObject *obj = PyTuple_GET_ITEM(args, k);
    num[k] = NULL;
    if (PyLong_CheckExact(obj)) {
      if (operand(prog, obj, regs, nvalues, 0, NULL, &reg[k])) return -1;
      continue;
    }
    if (!(num[k] = number_of(obj, none && k > 0))) {
      asc_py_raise_msg(ASC_ERR_UNSUPPORTED, "OpProgram: unsupported operand");
      return -1;
    }
  }
  return 0;
}

/* where(cond, x, y) as _C.where converts it: the condition on its own, x
 * and y against each other. */
static int add_where(asc_prog *prog, PyObject *args, const int *regs, Py_ssize_t nvalues,
                     int *out) {
  int r[3];
  PyObject *num[3];
  if (three_operands(prog, args, regs, nvalues, false, r, num)) return -1;
  if (num[0] && number_const(prog, num[0], ASC_DTYPE_COUNT, &r[0])) return -1;
  asc_dtype ref = ASC_DTYPE_COUNT;
  for (int k = 1; k < 3; k++)
    if (!num[k])
      ref = ref == ASC_DTYPE_COUNT ? asc_prog_dtype(prog, r[k])
                                   : asc_dtype_promote(ref, asc_prog_dtype(prog, r[k]));
  for (int k = 1; k < 3; k++)
    if (num[k] && number_const(prog, num[k], ref, &r[k])) return -1;
  return check(asc_prog_where(prog, r[0], r[1], r[2], out));
}

/* clip(x, lo, hi) as _C.clip converts it: a Python-int bound beyond an
 * integer x's range is dropped, numbers are weak against x and the tensor
 * bounds, and one bound is maximum or minimum, none positive. */
static int add_clip(asc_prog *prog, PyObject *args, const int *regs, Py_ssize_t nvalues, int *out) {
  int r[3];
  PyObject *num[3];
  if (three_operands(prog, args, regs, nvalues, true, r, num)) return -1;
  if (num[0] && number_const(prog, num[0], ASC_DTYPE_COUNT, &r[0])) return -1;
  const asc_dtype x = asc_prog_dtype(prog, r[0]);
  bool present[3] = {true, true, true};
  asc_dtype ref = x;
  for (int k = 1; k < 3; k++) {
    if (!num[k]) {
      ref = asc_dtype_promote(ref, asc_prog_dtype(prog, r[k]));
      continue;
    }
    int moot = num[k] == Py_None ? 1 : asc_py_clip_bound_moot(x, num[k], k == 2);
    if (moot < 0) return -1;
    present[k] = !moot;
  }
  for (int k = 1; k < 3; k++)
    if (num[k] && present[k] && number_const(prog, num[k], ref, &r[k])) return -1;
  if (present[1] && present[2]) return check(asc_prog_clip(prog, r[0], r[1], r[2], out));
  if (present[1]) return check(asc_prog_binary(prog, ASC_OP_MAXIMUM, r[0], r[1], out));
  if (present[2]) return check(asc_prog_binary(prog, ASC_OP_MINIMUM, r[0], r[2], out));
  return check(asc_prog_unary(prog, ASC_UNARY_POSITIVE, r[0], out));
}

static int add_node(asc_prog *prog, PyObject *node, int *regs, Py_ssize_t nvalues) {
  const char *name;
  PyObject *args, *dtype_obj;
  if (!PyArg_ParseTuple(node, "sO!O", &name, &PyTuple_Type, &args, &dtype_obj)) return -1;
  int op = 0, a, b;
  prog_kind kind = lookup(name, &op);
  Py_ssize_t n = PyTuple_GET_SIZE(args);
  const Py_ssize_t arity = kind == KIND_BINARY                       ? 2
                           : kind == KIND_WHERE || kind == KIND_CLIP ? 3
                                                                     : 1;
  if (kind == KIND_NONE || n != arity) {
    asc_py_raise_msg(ASC_ERR_UNSUPPORTED, "OpProgram: '%s' is not an operation of programs", name);
    return -1;
  }
  int *out = &regs[nvalues];
  if (kind == KIND_WHERE) return add_where(prog, args, regs, nvalues, out);
  if (kind == KIND_CLIP) return add_clip(prog, args, regs, nvalues, out);
  if (kind == KIND_BINARY) {
    PyObject *x = PyTuple_GET_ITEM(args, 0), *y = PyTuple_GET_ITEM(args, 1);
    if (operand(prog, x, regs, nvalues, op, y, &a) || operand(prog, y, regs, nvalues, op, x, &b))
      return -1;
    return check(asc_prog_binary(prog, (asc_binary_op)op, a, b, out));
  }
  if (operand(prog, PyTuple_GET_ITEM(args, 0), regs, nvalues, op, NULL, &a)) return -1;
  if (kind == KIND_UNARY) return check(asc_prog_unary(prog, (asc_unary_op)op, a, out));
  asc_dtype dtype;
  if (asc_py_dtype(dtype_obj, &dtype)) return -1;
  return check(asc_prog_cast(prog, a, dtype, out));
}

static int add_nodes(asc_prog *prog, PyObject *nodes, int *regs, Py_ssize_t *nvalues) {
  PyObject *seq = PySequence_Fast(nodes, "OpProgram: nodes is a sequence");
  if (!seq) return -1;
  int rc = 0;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (*nvalues + n > ASC_PROG_MAX_REGS) {
    asc_py_raise_msg(ASC_ERR_UNSUPPORTED, "OpProgram: too many operations");
    rc = -1;
  }
  for (Py_ssize_t k = 0; !rc && k < n; k++, ++*nvalues)
    rc = add_node(prog, PySequence_Fast_GET_ITEM(seq, k), regs, *nvalues);
  Py_DECREF(seq);
  return rc;
}

static int add_outputs(asc_prog *prog, PyObject *outputs, const int *regs, Py_ssize_t nvalues) {
  PyObject *seq = PySequence_Fast(outputs, "OpProgram: outputs is a sequence");
  if (!seq) return -1;
  int rc = PySequence_Fast_GET_SIZE(seq) ? 0 : -1;
  if (rc) PyErr_SetString(PyExc_ValueError, "OpProgram: a program has outputs");
  for (Py_ssize_t k = 0; !rc && k < PySequence_Fast_GET_SIZE(seq); k++) {
    Py_ssize_t v = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(seq, k));
    if ((v < 0 || v >= nvalues) && !PyErr_Occurred())
      PyErr_SetString(PyExc_ValueError, "OpProgram: no such value");
    rc = PyErr_Occurred() ? -1 : check(asc_prog_output(prog, regs[v]));
  }
  Py_DECREF(seq);
  return rc;
}

static PyObject *opp_call(OpProgramObject *self, PyObject *const *args, size_t nargsf,
                          PyObject *kwnames);

static PyObject *opp_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"shape", "inputs", "nodes", "outputs", "fallback", "single", NULL};
  PyObject *shape_obj, *inputs, *nodes, *outputs, *fallback;
  int single = 0, ndim;
  int64_t shape[ASC_MAX_DIMS];
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOO|p", names, &shape_obj, &inputs, &nodes,
                                   &outputs, &fallback, &single) ||
      parse_shape(shape_obj, &ndim, shape))
    return NULL;
  asc_prog *prog;
  if (check(asc_prog_new(ndim, shape, &prog))) return NULL;
  int regs[ASC_PROG_MAX_REGS];
  Py_ssize_t nvalues = 0;
  if (add_inputs(prog, inputs, regs, &nvalues) || add_nodes(prog, nodes, regs, &nvalues) ||
      add_outputs(prog, outputs, regs, nvalues)) {
    asc_prog_release(prog);
    return NULL;
  }
  OpProgramObject *self = (OpProgramObject *)type->tp_alloc(type, 0);
  if (!self) {
    asc_prog_release(prog);
    return NULL;
  }
  self->vectorcall = (vectorcallfunc)opp_call;
  self->prog = prog;
  self->fallback = Py_NewRef(fallback);
  self->single = single && asc_prog_outputs(prog) == 1;
  return (PyObject *)self;
}

static PyObject *wrap_outputs(OpProgramObject *self, asc_tensor *outs) {
  int n = asc_prog_outputs(self->prog);
  if (self->single) return asc_py_tensor_wrap(&outs[0]);
  PyObject *tuple = PyTuple_New(n);
  for (int k = 0; k < n; k++) {
    PyObject *t = tuple ? asc_py_tensor_wrap(&outs[k]) : NULL;
    if (!t) {
      for (int j = tuple ? k + 1 : k; j < n; j++) asc_tensor_release(&outs[j]);
      Py_XDECREF(tuple);
      return NULL;
    }
    PyTuple_SET_ITEM(tuple, k, t);
  }
  return tuple;
}

/* Tensors of the declared dtypes and shapes run the program; anything else
 * (a view that is not contiguous, a NumPy array) runs the fallback. */
static PyObject *opp_call(OpProgramObject *self, PyObject *const *args, size_t nargsf,
                          PyObject *kwnames) {
  Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  const asc_tensor *ins[ASC_PROG_MAX_IO];
  bool declined = kwnames || !self->prog || n != asc_prog_inputs(self->prog);
  for (Py_ssize_t k = 0; k < n && !declined; k++) {
    declined = Py_TYPE(args[k]) != &AscTensor_Type;
    if (!declined) ins[k] = &((TensorObject *)args[k])->t;
  }
  asc_tensor outs[ASC_PROG_MAX_IO];
  asc_status st = declined ? ASC_OK : asc_prog_run(self->prog, ins, (int)n, outs, &declined);
  if (declined) {
    if (!self->fallback) return asc_py_uninitialised("OpProgram");
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
  }
  if (st) return asc_py_raise(st);
  return wrap_outputs(self, outs);
}

static int opp_traverse(OpProgramObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->fallback);
  return 0;
}

static int opp_clear(OpProgramObject *self) {
  Py_CLEAR(self->fallback);
  return 0;
}

static void opp_dealloc(OpProgramObject *self) {
  PyObject_GC_UnTrack(self);
  opp_clear(self);
  asc_prog_release(self->prog);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *opp_covers(PyObject *cls, PyObject *name) {
  (void)cls;
  const char *text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
  if (!text) return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "a str is needed");
  int op;
  return PyBool_FromLong(lookup(text, &op) != KIND_NONE);
}

static PyObject *opp_get_instructions(OpProgramObject *self, void *closure) {
  (void)closure;
  return self->prog ? PyLong_FromLong(asc_prog_instructions(self->prog))
                    : asc_py_uninitialised("OpProgram");
}

static PyObject *opp_get_fallback(OpProgramObject *self, void *closure) {
  (void)closure;
  return self->fallback ? Py_NewRef(self->fallback) : asc_py_uninitialised("OpProgram");
}

static PyMethodDef opp_methods[] = {
    {"covers", (PyCFunction)opp_covers, METH_O | METH_CLASS,
     ASC_DOC("covers($cls, name, /)",
             "Whether operations named name (as pyasc.trace records them) run in programs.")},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef opp_getset[] = {
    {"instructions", (getter)opp_get_instructions, NULL,
     "The number of instructions: one per operation and per cast of an operand.", NULL},
    {"fallback", (getter)opp_get_fallback, NULL, "The same operations, run eagerly.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject AscOpProgram_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc._C.OpProgram",
    .tp_basicsize = sizeof(OpProgramObject),
    .tp_dealloc = (destructor)opp_dealloc,
    .tp_vectorcall_offset = offsetof(OpProgramObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc =
        "OpProgram(shape, inputs, nodes, outputs, fallback, single=False): element-wise "
        "operations over one shape run in one call into C, with eager rounding. inputs: "
        "(dtype, shape) per input; nodes: (name, operands, dtype or None), an operand the "
        "index of a value (the inputs, then the nodes) or a 1-tuple holding a Python "
        "number; outputs: the values returned. Called with the input tensors; calls with "
        "anything else, or views that are not contiguous, run fallback.",
    .tp_traverse = (traverseproc)opp_traverse,
    .tp_clear = (inquiry)opp_clear,
    .tp_methods = opp_methods,
    .tp_getset = opp_getset,
    .tp_new = opp_new,
};

int asc_py_op_program_init(PyObject *module) {
  if (PyType_Ready(&AscOpProgram_Type) < 0) return -1;
  return PyModule_AddObjectRef(module, "OpProgram", (PyObject *)&AscOpProgram_Type);
}
