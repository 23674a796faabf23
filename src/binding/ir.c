/* pyasc._C.IRBuilder: the kernel IR builder for the Python front end
 * (built kernels and their launches: kernel.c). */
#include "binding.h"

#include <structmember.h> /* after binding.h, whose Python.h must come first */
/* binding.h first: Python.h must precede system headers. */
#include "asc/ir.h"
#include "asc/jit.h"

static const char *const kind_names[ASC_IR_KIND_COUNT] = {
    "void", "bool", "int", "float", "addr", "global", "local", "pipe", "que", "tbuf"};

typedef struct {
  PyObject_HEAD asc_ir_module *m;
} BuilderObject;

static int parse_kind(PyObject *obj, asc_ir_kind *out) {
  const char *name = PyUnicode_AsUTF8(obj);
  if (!name) return -1;
  for (int i = 0; i < ASC_IR_KIND_COUNT; i++)
    if (!strcmp(name, kind_names[i])) {
      *out = (asc_ir_kind)i;
      return 0;
    }
  PyErr_Format(PyExc_ValueError, "unknown IR kind '%s'", name);
  return -1;
}

/* A type from (kind, dtype or None, position, depth). */
static int parse_type(PyObject *obj, asc_ir_type *t) {
  PyObject *kind, *dtype = Py_None;
  int position = 0, depth = 0;
  if (!PyTuple_Check(obj)) { /* PyArg_ParseTuple takes only a tuple (else SystemError) */
    PyErr_Format(PyExc_TypeError,
                 "an IR type is a tuple (kind, dtype, position, depth), not %.100s",
                 Py_TYPE(obj)->tp_name);
    return -1;
  }
  if (!PyArg_ParseTuple(obj, "O|Oii:type", &kind, &dtype, &position, &depth)) return -1;
  asc_ir_kind k;
  asc_dtype d = ASC_FLOAT32;
  if (parse_kind(kind, &k) || (dtype != Py_None && asc_py_dtype(dtype, &d))) return -1;
  if (position < 0 || position > 255 || depth < 0 || depth > 255) {
    PyErr_Format(PyExc_ValueError, "IR type position/depth out of range: %d, %d", position, depth);
    return -1;
  }
  t->kind = (uint8_t)k;
  t->dtype = (uint8_t)d;
  t->position = (uint8_t)position;
  t->depth = (uint8_t)depth;
  return 0;
}

static PyObject *type_tuple(asc_ir_type t) {
  PyObject *dtype = (t.kind == ASC_IR_ADDR || t.kind == ASC_IR_GLOBAL || t.kind == ASC_IR_LOCAL)
                        ? asc_py_dtype_object((asc_dtype)t.dtype)
                        : Py_NewRef(Py_None);
  return Py_BuildValue("(sNii)", kind_names[t.kind], dtype, t.position, t.depth);
}

static PyObject *value_or_none(asc_status st, uint32_t v) {
  if (st) return asc_py_raise(st);
  return v ? PyLong_FromUnsignedLong(v) : Py_NewRef(Py_None);
}

static int as_value(PyObject *obj, uint32_t *v) {
  unsigned long x = PyLong_AsUnsignedLong(obj);
  if (x == (unsigned long)-1 && PyErr_Occurred()) return -1;
  *v = (uint32_t)x;
  return 0;
}

static int builder_init(BuilderObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"name", "file", NULL};
  const char *name, *file;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ss:IRBuilder", names, &name, &file)) return -1;
  if (self->m) asc_ir_free(self->m);
  self->m = NULL;
  asc_status st = asc_ir_new(name, file, &self->m);
  if (st) asc_py_raise(st);
  return st ? -1 : 0;
}

static void builder_dealloc(BuilderObject *self) {
  asc_ir_free(self->m);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *b_param(BuilderObject *self, PyObject *args) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  const char *name;
  PyObject *type;
  if (!PyArg_ParseTuple(args, "sO:param", &name, &type)) return NULL;
  asc_ir_type t;
  uint32_t v = 0;
  if (parse_type(type, &t)) return NULL;
  asc_status st = asc_ir_param(self->m, name, t, &v);
  return value_or_none(st, v);
}

static PyObject *b_const(BuilderObject *self, PyObject *value) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  uint32_t v = 0;
  asc_status st;
  if (PyBool_Check(value))
    st = asc_ir_const_bool(self->m, value == Py_True, &v);
  else if (PyLong_Check(value)) {
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (x == -1 && PyErr_Occurred()) return NULL;
    if (overflow)
      return asc_py_raise_msg(ASC_ERR_COMPILE, "integer constant %R does not fit in 64 bits",
                              value);
    st = asc_ir_const_int(self->m, x, &v);
  } else if (PyFloat_Check(value))
    st = asc_ir_const_float(self->m, PyFloat_AS_DOUBLE(value), &v);
  else
    return asc_py_raise_msg(ASC_ERR_COMPILE, "cannot use %R as a kernel constant", value);
  return value_or_none(st, v);
}

static PyObject *b_var(BuilderObject *self, PyObject *args) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  const char *name;
  PyObject *type;
  if (!PyArg_ParseTuple(args, "sO:var", &name, &type)) return NULL;
  asc_ir_type t;
  uint32_t v = 0;
  if (PyLong_Check(type)) {
    uint32_t like;
    if (as_value(type, &like)) return NULL;
    t = asc_ir_type_of(self->m, like);
  } else if (parse_type(type, &t)) {
    return NULL;
  }
  asc_status st = asc_ir_var(self->m, name, t, &v);
  return value_or_none(st, v);
}

static PyObject *b_load(BuilderObject *self, PyObject *var) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  uint32_t x, v = 0;
  if (as_value(var, &x)) return NULL;
  asc_status st = asc_ir_load(self->m, x, &v);
  return value_or_none(st, v);
}

static PyObject *b_store(BuilderObject *self, PyObject *args) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  unsigned long var, value;
  if (!PyArg_ParseTuple(args, "kk:store", &var, &value)) return NULL;
  asc_status st = asc_ir_store(self->m, (uint32_t)var, (uint32_t)value);
  return value_or_none(st, 0);
}

static PyObject *b_op(BuilderObject *self, PyObject *args) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  const char *name, *sattr = NULL;
  PyObject *operands, *iattrs = NULL;
  if (!PyArg_ParseTuple(args, "sO|Oz:op", &name, &operands, &iattrs, &sattr)) return NULL;
  uint32_t ops[40]; /* IR_MAX_OPERANDS */
  int64_t attrs[8];
  Py_ssize_t n = PySequence_Size(operands), na = iattrs ? PySequence_Size(iattrs) : 0;
  if (n < 0 || na < 0) return NULL;
  if (n > 40 || na > 8) return asc_py_raise_msg(ASC_ERR_COMPILE, "%s: too many arguments", name);
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *item = PySequence_GetItem(operands, i);
    int rc = item ? as_value(item, &ops[i]) : -1;
    Py_XDECREF(item);
    if (rc) return NULL;
  }
  for (Py_ssize_t i = 0; i < na; i++) {
    PyObject *item = PySequence_GetItem(iattrs, i);
    attrs[i] = item ? PyLong_AsLongLong(item) : -1;
    Py_XDECREF(item);
    if (attrs[i] == -1 && PyErr_Occurred()) return NULL;
  }
  uint32_t v = 0;
  asc_status st = asc_ir_op(self->m, name, (int)n, ops, (int)na, attrs, sattr, &v);
  return value_or_none(st, v);
}

static PyObject *b_for_begin(BuilderObject *self, PyObject *args) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  unsigned long a, b, c;
  if (!PyArg_ParseTuple(args, "kkk:for_begin", &a, &b, &c)) return NULL;
  uint32_t iv = 0;
  asc_status st = asc_ir_for_begin(self->m, (uint32_t)a, (uint32_t)b, (uint32_t)c, &iv);
  return value_or_none(st, iv);
}

static PyObject *b_for_end(BuilderObject *self, PyObject *n) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  (void)n;
  asc_status st = asc_ir_for_end(self->m);
  return value_or_none(st, 0);
}
static PyObject *b_while_begin(BuilderObject *self, PyObject *n) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  (void)n;
  asc_status st = asc_ir_while_begin(self->m);
  return value_or_none(st, 0);
}
static PyObject *b_while_body(BuilderObject *self, PyObject *cond) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  uint32_t c;
  if (as_value(cond, &c)) return NULL;
  asc_status st = asc_ir_while_body(self->m, c);
  return value_or_none(st, 0);
}
static PyObject *b_while_end(BuilderObject *self, PyObject *n) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  (void)n;
  asc_status st = asc_ir_while_end(self->m);
  return value_or_none(st, 0);
}
static PyObject *b_if_begin(BuilderObject *self, PyObject *cond) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  uint32_t c;
  if (as_value(cond, &c)) return NULL;
  asc_status st = asc_ir_if_begin(self->m, c);
  return value_or_none(st, 0);
}
static PyObject *b_else(BuilderObject *self, PyObject *n) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  (void)n;
  asc_status st = asc_ir_else(self->m);
  return value_or_none(st, 0);
}
static PyObject *b_if_end(BuilderObject *self, PyObject *n) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  (void)n;
  asc_status st = asc_ir_if_end(self->m);
  return value_or_none(st, 0);
}
static PyObject *b_finish(BuilderObject *self, PyObject *n) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  (void)n;
  asc_status st = asc_ir_finish(self->m);
  return value_or_none(st, 0);
}
static PyObject *b_verify(BuilderObject *self, PyObject *n) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  (void)n;
  asc_status st = asc_ir_verify(self->m);
  return value_or_none(st, 0);
}

static PyObject *b_fold(BuilderObject *self, PyObject *n) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  (void)n;
  int folded = 0;
  asc_status st = asc_ir_fold(self->m, &folded);
  return st ? asc_py_raise(st) : PyLong_FromLong(folded);
}

static PyObject *b_check_ub(BuilderObject *self, PyObject *size) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  unsigned long long ub = PyLong_AsUnsignedLongLong(size);
  if (ub == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
  asc_status st = asc_ir_check_ub(self->m, ub);
  return value_or_none(st, 0);
}

static PyObject *text_result(asc_status st, char *text) {
  if (st) return asc_py_raise(st);
  PyObject *s = PyUnicode_FromString(text);
  free(text);
  return s;
}

static PyObject *b_text(BuilderObject *self, PyObject *n) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  (void)n;
  char *text = NULL;
  asc_status st = asc_ir_print(self->m, &text);
  return text_result(st, text);
}

static PyObject *b_emit_c(BuilderObject *self, PyObject *args, PyObject *kwargs) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  static char *names[] = {"checked", "profiled", NULL};
  int checked = 0, profiled = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|pp:emit_c", names, &checked, &profiled))
    return NULL;
  char *text = NULL;
  asc_status st = profiled  ? asc_ir_emit_c_profiled(self->m, checked, &text)
                  : checked ? asc_ir_emit_c_checked(self->m, &text)
                            : asc_ir_emit_c(self->m, &text);
  return text_result(st, text);
}

static PyObject *b_check_sync(BuilderObject *self, PyObject *n) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  (void)n;
  return value_or_none(asc_ir_check_sync(self->m), 0);
}

static PyObject *b_insert_sync(BuilderObject *self, PyObject *n) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  (void)n;
  int inserted = 0;
  asc_status st = asc_ir_insert_sync(self->m, &inserted);
  return st ? asc_py_raise(st) : PyLong_FromLong(inserted);
}

static PyObject *b_emit_ascendc(BuilderObject *self, PyObject *n) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  (void)n;
  char *text = NULL;
  asc_status st = asc_ir_emit_ascendc(self->m, &text);
  return text_result(st, text);
}

static PyObject *b_name(BuilderObject *self, PyObject *args) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  unsigned long value;
  const char *name;
  if (!PyArg_ParseTuple(args, "ks:name", &value, &name)) return NULL;
  asc_status st = asc_ir_set_name(self->m, (uint32_t)value, name);
  return value_or_none(st, 0);
}

static PyObject *b_member(BuilderObject *self, PyObject *args) {
  unsigned long value;
  const char *path;
  if (!PyArg_ParseTuple(args, "ks:member", &value, &path)) return NULL;
  asc_status st = asc_ir_set_member(self->m, (uint32_t)value, path);
  return value_or_none(st, 0);
}

static PyObject *b_type_of(BuilderObject *self, PyObject *value) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  uint32_t v;
  if (as_value(value, &v)) return NULL;
  return type_tuple(asc_ir_type_of(self->m, v));
}

static PyObject *b_file_index(BuilderObject *self, PyObject *file) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  const char *path = PyUnicode_AsUTF8(file);
  if (!path) return NULL;
  uint32_t index = 0;
  asc_status st = asc_ir_file_index(self->m, path, &index);
  return st ? asc_py_raise(st) : PyLong_FromUnsignedLong(index);
}

static PyObject *b_set_loc(BuilderObject *self, PyObject *args) {
  if (!self->m) return asc_py_uninitialised("IRBuilder");
  unsigned int line, col;
  if (!PyArg_ParseTuple(args, "II:set_loc", &line, &col)) return NULL;
  asc_ir_loc loc = {line, col};
  asc_ir_set_loc(self->m, loc);
  Py_RETURN_NONE;
}

#define M(name, fn, flags, doc) \
  { name, (PyCFunction)(fn), flags, doc }
static PyMethodDef builder_methods[] = {
    M("param", b_param, METH_VARARGS, ASC_DOC("param($self, name, type, /)", "-> value")),
    M("const", b_const, METH_O, ASC_DOC("const($self, value, /)", "A bool|int|float -> value")),
    M("var", b_var, METH_VARARGS,
      ASC_DOC("var($self, name, type, /)",
              "A variable of type (or of the type of a value to copy).")),
    M("load", b_load, METH_O, ASC_DOC("load($self, variable, /)", "-> value")),
    M("store", b_store, METH_VARARGS, ASC_DOC("store($self, variable, value, /)", "")),
    M("op", b_op, METH_VARARGS,
      ASC_DOC("op($self, name, operands, iattrs=(), sattr=None, /)", "-> value or None")),
    M("for_begin", b_for_begin, METH_VARARGS,
      ASC_DOC("for_begin($self, start, stop, step, /)", "-> induction value")),
    M("for_end", b_for_end, METH_NOARGS, ASC_DOC("for_end($self, /)", "")),
    M("while_begin", b_while_begin, METH_NOARGS, ASC_DOC("while_begin($self, /)", "")),
    M("while_body", b_while_body, METH_O, ASC_DOC("while_body($self, condition, /)", "")),
    M("while_end", b_while_end, METH_NOARGS, ASC_DOC("while_end($self, /)", "")),
    M("if_begin", b_if_begin, METH_O, ASC_DOC("if_begin($self, condition, /)", "")),
    M("else_", b_else, METH_NOARGS, ASC_DOC("else_($self, /)", "")),
    M("if_end", b_if_end, METH_NOARGS, ASC_DOC("if_end($self, /)", "")),
    M("finish", b_finish, METH_NOARGS, ASC_DOC("finish($self, /)", "")),
    M("verify", b_verify, METH_NOARGS, ASC_DOC("verify($self, /)", "Verifies the finished IR.")),
    M("fold", b_fold, METH_NOARGS,
      ASC_DOC("fold($self, /)", "Constant folding; returns the number of folded ops.")),
    M("check_ub", b_check_ub, METH_O,
      ASC_DOC("check_ub($self, ub_size, /)", "The Unified Buffer budget.")),
    M("text", b_text, METH_NOARGS, ASC_DOC("text($self, /)", "The IR's textual form.")),
    {"emit_c", (PyCFunction)(void (*)(void))b_emit_c, METH_VARARGS | METH_KEYWORDS,
     ASC_DOC("emit_c($self, /, checked=False, profiled=False)",
             "C source for the simulated cores (checked: with the debug checks; profiled: "
             "with the timing model's accounting, docs/perf-model.md).")},
    M("check_sync", b_check_sync, METH_NOARGS,
      ASC_DOC("check_sync($self, /)",
              "Static check for missing synchronisation between pipes (CompileError).")),
    M("insert_sync", b_insert_sync, METH_NOARGS,
      ASC_DOC("insert_sync($self, /)",
              "Adds the missing synchronisation between pipes; returns the number of sync ops "
              "added.")),
    M("emit_ascendc", b_emit_ascendc, METH_NOARGS,
      ASC_DOC("emit_ascendc($self, /)", "Ascend C (C++) source for a real NPU.")),
    M("name", b_name, METH_VARARGS,
      ASC_DOC("name($self, value, name, /)", "The Python name of a value, for emitted source.")),
    M("member", b_member, METH_VARARGS,
      ASC_DOC("member($self, param, path, /)",
              "The struct member a flattened parameter comes from.")),
    M("type_of", b_type_of, METH_O,
      ASC_DOC("type_of($self, value, /)", "-> (kind, dtype, position, depth)")),
    M("set_loc", b_set_loc, METH_VARARGS,
      ASC_DOC("set_loc($self, line, col, /)",
              "Location of the next ops (line may carry a file index, see file_index).")),
    M("file_index", b_file_index, METH_O,
      ASC_DOC("file_index($self, path, /)",
              "The file's index (an int) in the IR's file table (0: the kernel's); locations "
              "carry it in the bits of `line` above the 20th.")),
    {NULL, NULL, 0, NULL},
};

PyTypeObject AscIRBuilder_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc._C.IRBuilder",
    .tp_basicsize = sizeof(BuilderObject),
    .tp_dealloc = (destructor)builder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "IRBuilder(name, file): builds one kernel's IR in libasc.",
    .tp_methods = builder_methods,
    .tp_init = (initproc)builder_init,
    .tp_new = PyType_GenericNew,
};

int asc_py_ir_init(PyObject *module) {
  if (PyType_Ready(&AscIRBuilder_Type) < 0) return -1;
  return PyModule_AddObjectRef(module, "IRBuilder", (PyObject *)&AscIRBuilder_Type);
}
