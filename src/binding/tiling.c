/* Host matmul tiling from Python (PyAsc's asc.lib.host): PlatformAscendC,
 * MatmulApiTiling, MultiCoreMatmulTiling, BatchMatmulTiling. The algorithm
 * is src/tiling/tiling.c; this file only converts arguments. Setters return
 * 0 as Ascend C's do; where Ascend C returns -1, these raise the pyasc
 * exception for the status with libasc's message. */
#include "binding.h"

/* ---- PlatformAscendC ---------------------------------------------------- */

typedef struct {
  PyObject_HEAD int device;
  asc_device_props props; /* as the device was when the platform was taken */
} PlatformObject;

static PyTypeObject Platform_Type;

/* Ascend C's CoreMemType values that name a per-core buffer here. */
enum { MEM_L0_A = 0, MEM_L0_B = 1, MEM_L0_C = 2, MEM_L1 = 3, MEM_L2 = 4, MEM_UB = 5, MEM_HBM = 6 };

/* The system workspace Ascend C's library APIs reserve (16 MiB on 910B). */
#define LIB_API_WORKSPACE (16u * 1024u * 1024u)

/* A new platform object for a device (None: the current one). */
static PyObject *make_platform(PyObject *device_obj) {
  int device;
  if (asc_py_device(device_obj, &device)) return NULL;
  PlatformObject *p = PyObject_New(PlatformObject, &Platform_Type);
  if (!p) return NULL;
  p->device = device;
  asc_status st = asc_device_get_props(device, &p->props);
  if (st) {
    Py_DECREF(p);
    return asc_py_raise(st);
  }
  return (PyObject *)p;
}

static PyObject *get_ascendc_platform(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *names[] = {"device", NULL};
  PyObject *device_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:get_ascendc_platform", names, &device_obj))
    return NULL;
  return make_platform(device_obj);
}

static PyObject *platform_core_num_aiv(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyLong_FromLong(((PlatformObject *)self)->props.ai_core_count);
}

static PyObject *platform_core_num_aic(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyLong_FromLong(((PlatformObject *)self)->props.cube_core_count);
}

static PyObject *platform_mem_size(PyObject *self, PyObject *arg) {
  const asc_device_props *p = &((PlatformObject *)self)->props;
  long type = PyLong_AsLong(arg);
  if (type == -1 && PyErr_Occurred()) return NULL;
  switch (type) {
    case MEM_L0_A:
      return PyLong_FromSize_t(p->l0a_size);
    case MEM_L0_B:
      return PyLong_FromSize_t(p->l0b_size);
    case MEM_L0_C:
      return PyLong_FromSize_t(p->l0c_size);
    case MEM_L1:
      return PyLong_FromSize_t(p->l1_size);
    case MEM_UB:
      return PyLong_FromSize_t(p->ub_size);
    case MEM_HBM:
      return PyLong_FromSize_t(p->global_mem_size);
    case MEM_L2:
      return asc_py_raise_msg(ASC_ERR_UNSUPPORTED, "the simulated device has no L2 cache size");
    default:
      return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "unknown CoreMemType %ld", type);
  }
}

static PyObject *platform_soc_version(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyUnicode_FromString(((PlatformObject *)self)->props.name);
}

static PyObject *platform_workspace(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  return PyLong_FromUnsignedLong(LIB_API_WORKSPACE);
}

static PyObject *platform_repr(PyObject *self) {
  const PlatformObject *p = (const PlatformObject *)self;
  return PyUnicode_FromFormat("PlatformAscendC(device=%d, name='%s', aic=%d, aiv=%d)", p->device,
                              p->props.name, p->props.cube_core_count, p->props.ai_core_count);
}

static PyMethodDef platform_methods[] = {
    {"get_core_num", platform_core_num_aiv, METH_NOARGS,
     ASC_DOC("get_core_num($self)",
             "Returns int. Cores a kernel's blocks run on: the vector (AIV) cores, as on Ascend "
             "C's separated architecture.")},
    {"get_core_num_aic", platform_core_num_aic, METH_NOARGS,
     ASC_DOC("get_core_num_aic($self)", "Returns int. Cube (AIC) cores.")},
    {"get_core_num_aiv", platform_core_num_aiv, METH_NOARGS,
     ASC_DOC("get_core_num_aiv($self)", "Returns int. Vector (AIV) cores.")},
    {"get_core_mem_size", platform_mem_size, METH_O,
     ASC_DOC(
         "get_core_mem_size($self, mem_type)",
         "Returns int. Bytes of a core's L0_A, L0_B, L0_C, L1 or UB, or of global memory (HBM).")},
    {"get_soc_version", platform_soc_version, METH_NOARGS,
     ASC_DOC("get_soc_version($self)", "Returns str. The device's name.")},
    {"get_lib_api_work_space_size", platform_workspace, METH_NOARGS,
     ASC_DOC("get_lib_api_work_space_size($self)",
             "Returns int. Global-memory workspace bytes Ascend C's library APIs need (16 MiB, as "
             "on 910B).")},
    {NULL, NULL, 0, NULL},
};

static PyObject *platform_device(PyObject *self, void *closure) {
  (void)closure;
  return PyLong_FromLong(((PlatformObject *)self)->device);
}

static PyGetSetDef platform_getset[] = {
    {"device", platform_device, NULL, "the device index", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject Platform_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc.host.PlatformAscendC",
    .tp_basicsize = sizeof(PlatformObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc =
        "A device's cores and buffer sizes as host tiling sees them (Ascend C's "
        "platform_ascendc::PlatformAscendC). Get one with get_ascendc_platform(); it "
        "describes the device as it was then.",
    .tp_methods = platform_methods,
    .tp_getset = platform_getset,
    .tp_repr = platform_repr,
};

/* ---- the tiling classes ------------------------------------------------- */

typedef struct {
  PyObject_HEAD asc_tiling_ctx ctx;
} TilingObject;

static PyTypeObject TilingBase_Type, MatmulApiTiling_Type, MultiCore_Type, Batch_Type;

#define CTX(self) (&((TilingObject *)(self))->ctx)

/* 0 for success, as Ascend C's setters return; raises on failure. */
static PyObject *status_result(asc_status st) {
  return st ? asc_py_raise(st) : PyLong_FromLong(0);
}

static int tiling_init(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"platform", NULL};
  PyObject *platform = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:MatmulApiTiling", names, &platform)) return -1;
  PyObject *owned = NULL;
  if (platform == Py_None) {
    owned = make_platform(Py_None);
    if (!owned) return -1;
    platform = owned;
  } else if (!PyObject_TypeCheck(platform, &Platform_Type)) {
    PyErr_Format(PyExc_TypeError, "%s() takes a PlatformAscendC (get_ascendc_platform()), not %s",
                 Py_TYPE(self)->tp_name, Py_TYPE(platform)->tp_name);
    return -1;
  }
  asc_tiling_kind kind = PyObject_TypeCheck(self, &MultiCore_Type) ? ASC_TILING_MULTI_CORE
                         : PyObject_TypeCheck(self, &Batch_Type)   ? ASC_TILING_BATCH
                                                                   : ASC_TILING_SINGLE_CORE;
  asc_status st = asc_tiling_init(CTX(self), kind, &((PlatformObject *)platform)->props);
  Py_XDECREF(owned);
  if (st) {
    asc_py_raise(st);
    return -1;
  }
  return 0;
}

static PyObject *set_operand(PyObject *self, PyObject *args, PyObject *kwargs,
                             asc_tiling_operand_id which, const char *format) {
  static char *names[] = {"pos", "type", "data_type", "is_trans", NULL};
  static char *names3[] = {"pos", "type", "data_type", NULL};
  int pos, fmt, dtype, trans = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, which <= ASC_TILING_B ? names : names3,
                                   &pos, &fmt, &dtype, &trans))
    return NULL;
  return status_result(asc_tiling_set_type(CTX(self), which, pos, fmt, dtype, trans));
}

static PyObject *set_a_type(PyObject *self, PyObject *args, PyObject *kwargs) {
  return set_operand(self, args, kwargs, ASC_TILING_A, "iii|p:set_a_type");
}
static PyObject *set_b_type(PyObject *self, PyObject *args, PyObject *kwargs) {
  return set_operand(self, args, kwargs, ASC_TILING_B, "iii|p:set_b_type");
}
static PyObject *set_c_type(PyObject *self, PyObject *args, PyObject *kwargs) {
  return set_operand(self, args, kwargs, ASC_TILING_C, "iii:set_c_type");
}
static PyObject *set_bias_type(PyObject *self, PyObject *args, PyObject *kwargs) {
  return set_operand(self, args, kwargs, ASC_TILING_BIAS, "iii:set_bias_type");
}

/* The setters that take one size per axis (M, N, K) and pass them on;
 * -1 for an optional one not given. */
typedef asc_status (*mnk_setter)(asc_tiling_ctx *, int64_t, int64_t, int64_t);
static PyObject *set_mnk(PyObject *self, PyObject *args, PyObject *kwargs, const char *format,
                         char **names, mnk_setter set) {
  long long v[3] = {-1, -1, -1};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, names, &v[0], &v[1], &v[2])) return NULL;
  return status_result(set(CTX(self), v[0], v[1], v[2]));
}

/* The setters that take a maximum and a minimum per axis (-1: free). */
typedef asc_status (*range_setter)(asc_tiling_ctx *, const int64_t[3], const int64_t[3]);
static PyObject *set_range(PyObject *self, PyObject *args, PyObject *kwargs, const char *format,
                           char **names, range_setter set) {
  long long v[6] = {-1, -1, -1, -1, -1, -1};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, names, &v[0], &v[1], &v[2], &v[3], &v[4],
                                   &v[5]))
    return NULL;
  int64_t max[3] = {v[0], v[1], v[2]}, min[3] = {v[3], v[4], v[5]};
  return status_result(set(CTX(self), max, min));
}

static PyObject *set_shape(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"m", "n", "k", NULL};
  return set_mnk(self, args, kwargs, "LLL:set_shape", names, asc_tiling_set_shape);
}

static PyObject *set_org_shape(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names3[] = {"org_m_in", "org_n_in", "org_k_in", NULL};
  static char *names4[] = {"org_m_in", "org_n_in", "org_ka_in", "org_kb_in", NULL};
  long long m, n, ka, kb = -1;
  Py_ssize_t given = PyTuple_GET_SIZE(args) + (kwargs ? PyDict_GET_SIZE(kwargs) : 0);
  int ok =
      given == 4 || (kwargs && PyDict_GetItemString(kwargs, "org_ka_in"))
          ? PyArg_ParseTupleAndKeywords(args, kwargs, "LLLL:set_org_shape", names4, &m, &n, &ka,
                                        &kb)
          : PyArg_ParseTupleAndKeywords(args, kwargs, "LLL:set_org_shape", names3, &m, &n, &ka);
  if (!ok) return NULL;
  if (kb == -1) kb = ka;
  return status_result(asc_tiling_set_org_shape(CTX(self), m, n, ka, kb));
}

static PyObject *set_fix_split(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"base_m_in", "base_n_in", "base_k_in", NULL};
  return set_mnk(self, args, kwargs, "|LLL:set_fix_split", names, asc_tiling_set_fix_split);
}

static PyObject *set_split_range(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"max_base_m", "max_base_n", "max_base_k", "min_base_m",
                          "min_base_n", "min_base_k", NULL};
  return set_range(self, args, kwargs, "|LLLLLL:set_split_range", names,
                   asc_tiling_set_split_range);
}

static PyObject *set_buffer_space(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"l1_size", "l0_c_size", "ub_size", "bt_size", NULL};
  long long l1 = -1, l0c = -1, ub = -1, bt = -1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|LLLL:set_buffer_space", names, &l1, &l0c, &ub,
                                   &bt))
    return NULL;
  return status_result(asc_tiling_set_buffer_space(CTX(self), l1, l0c, ub, bt));
}

static PyObject *enable_bias(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"is_bias_in", NULL};
  int on = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:enable_bias", names, &on)) return NULL;
  return status_result(asc_tiling_enable_bias(CTX(self), on));
}

static PyObject *set_traverse(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"traverse", NULL};
  int traverse;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i:set_traverse", names, &traverse)) return NULL;
  return status_result(asc_tiling_set_traverse(CTX(self), traverse));
}

static PyObject *set_double_buffer(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"a", "b", "c", "bias", "trans_nd2nz", "trans_nz2nd", NULL};
  int a, b, c, bias, nd2nz = 1, nz2nd = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "pppp|pp:set_double_buffer", names, &a, &b, &c,
                                   &bias, &nd2nz, &nz2nd))
    return NULL;
  return status_result(asc_tiling_set_double_buffer(CTX(self), a, b, c, bias));
}

static PyObject *set_layout(PyObject *self, PyObject *args, PyObject *kwargs, int which,
                            const char *format) {
  static char *names[] = {"b", "s", "n", "g", "d", NULL};
  long long v[5];
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, names, &v[0], &v[1], &v[2], &v[3], &v[4]))
    return NULL;
  int64_t values[5] = {v[0], v[1], v[2], v[3], v[4]};
  return status_result(asc_tiling_set_layout(CTX(self), which, values));
}

static PyObject *set_a_layout(PyObject *self, PyObject *args, PyObject *kwargs) {
  return set_layout(self, args, kwargs, 0, "LLLLL:set_a_layout");
}
static PyObject *set_b_layout(PyObject *self, PyObject *args, PyObject *kwargs) {
  return set_layout(self, args, kwargs, 1, "LLLLL:set_b_layout");
}
static PyObject *set_c_layout(PyObject *self, PyObject *args, PyObject *kwargs) {
  return set_layout(self, args, kwargs, 2, "LLLLL:set_c_layout");
}

static PyObject *set_batch_num(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"batch", NULL};
  long long batch;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "L:set_batch_num", names, &batch)) return NULL;
  return status_result(asc_tiling_set_batch_num(CTX(self), batch));
}

static PyObject *set_batch_info(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"batch_a", "batch_b", "m", "n", "k", NULL};
  long long ba, bb, m, n, k;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LLLLL:set_batch_info_for_normal", names, &ba, &bb,
                                   &m, &n, &k))
    return NULL;
  return status_result(asc_tiling_set_batch_info(CTX(self), ba, bb, m, n, k));
}

/* An enum argument in [0, count): the value is kept by the caller. */
static PyObject *enum_setting(PyObject *args, PyObject *kwargs, const char *format, char **names,
                              int count, const char *what) {
  int value;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, names, &value)) return NULL;
  if (value < 0 || value >= count)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "unknown %s %d", what, value);
  return PyLong_FromLong(0);
}

/* Quantisation and HF32 change the kernel's arithmetic, not its tiling. */
static PyObject *set_dequant_type(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *names[] = {"dequant_type", NULL};
  return enum_setting(args, kwargs, "i:set_dequant_type", names, 2, "DequantType");
}

static PyObject *set_mad_type(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *names[] = {"mad_type", NULL};
  return enum_setting(args, kwargs, "i:set_mad_type", names, 3, "MatrixMadType");
}

static PyObject *set_sparse(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *names[] = {"is_sparce_in", NULL};
  int sparse = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:set_sparse", names, &sparse)) return NULL;
  asc_status st = asc_tiling_set_sparse(CTX(self), sparse != 0);
  if (st) return asc_py_raise(st);
  return PyLong_FromLong(0);
}

/* set_matmul_config_params(config_params) or (mm_config_type=1,
 * enable_l1_cache_ub=False, schedule_type=0, traverse=0, en_vec_nd2nz=False):
 * only the traversal bears on this tiling; an L1 cache of UB data is not
 * supported. */
static PyObject *set_matmul_config_params(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"mm_config_type", "enable_l1_cache_ub", "schedule_type",
                          "traverse",       "en_vec_nd2nz",       NULL};
  static char *obj_names[] = {"config_params", NULL};
  int mm_type = 1, l1_cache_ub = 0, schedule = 0, traverse = 0, nd2nz = 0;
  PyObject *first = PyTuple_GET_SIZE(args) == 1 ? PyTuple_GET_ITEM(args, 0)
                    : kwargs                    ? PyDict_GetItemString(kwargs, "config_params")
                                                : NULL;
  if (first && !PyLong_Check(first)) {
    PyObject *cfg;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:set_matmul_config_params", obj_names, &cfg))
      return NULL;
    PyObject *vals[5] = {NULL};
    int *dst[5] = {&mm_type, &l1_cache_ub, &schedule, &traverse, &nd2nz};
    int failed = 0;
    for (int i = 0; i < 5 && !failed; i++) {
      vals[i] = PyObject_GetAttrString(cfg, names[i]);
      long v = vals[i] ? PyLong_AsLong(vals[i]) : -1;
      failed = !vals[i] || (v == -1 && PyErr_Occurred());
      *dst[i] = (int)v;
      Py_XDECREF(vals[i]);
    }
    if (failed) return NULL;
  } else if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|ipiip:set_matmul_config_params", names,
                                          &mm_type, &l1_cache_ub, &schedule, &traverse, &nd2nz)) {
    return NULL;
  }
  if (l1_cache_ub)
    return asc_py_raise_msg(ASC_ERR_UNSUPPORTED, "enable_l1_cache_ub is not supported");
  if (schedule < 0 || schedule > 1)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "unknown ScheduleType %d", schedule);
  asc_status st = asc_tiling_set_traverse(CTX(self), traverse);
  if (st) return asc_py_raise(st);
  Py_RETURN_NONE;
}

/* Computes the tiling and stores every TCubeTiling field in `tiling` by
 * its Python name (a pyasc TCubeTiling struct, or any object with those
 * attributes). */
static PyObject *get_tiling(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"tiling", NULL};
  PyObject *target;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:get_tiling", names, &target)) return NULL;
  asc_tcube_tiling t;
  asc_status st = asc_tiling_matmul_get(CTX(self), &t);
  if (st) return asc_py_raise(st);
  for (size_t i = 0; i < asc_tiling_tcube_field_count; i++) {
    const asc_tcube_field *f = &asc_tiling_tcube_fields[i];
    int32_t v;
    memcpy(&v, (const char *)&t + f->offset, sizeof v);
    PyObject *value = PyLong_FromLong(v);
    if (!value) return NULL;
    int rc = PyObject_SetAttrString(target, f->py_name, value);
    Py_DECREF(value);
    if (rc < 0) return NULL;
  }
  return PyLong_FromLong(0);
}

/* After get_tiling: the computed value; before: the fixed one, or -1. */
static PyObject *get_base(PyObject *self, int axis) {
  const asc_tiling_ctx *c = CTX(self);
  if (c->has_result)
    return PyLong_FromLong(axis == 0   ? c->result.baseM
                           : axis == 1 ? c->result.baseN
                                       : c->result.baseK);
  return PyLong_FromLong(axis == 0 ? c->base_m : axis == 1 ? c->base_n : c->base_k);
}
static PyObject *get_base_m(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return get_base(self, 0);
}
static PyObject *get_base_n(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return get_base(self, 1);
}
static PyObject *get_base_k(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return get_base(self, 2);
}

#define KW (PyCFunction)(void (*)(void))
#define KWF METH_VARARGS | METH_KEYWORDS

static PyMethodDef base_methods[] = {
    {"set_a_type", KW set_a_type, KWF,
     ASC_DOC("set_a_type($self, pos, type, data_type, is_trans = False)",
             "Returns int. Where A lives, its format, element type and whether it is stored "
             "transposed (K x M).")},
    {"set_b_type", KW set_b_type, KWF,
     ASC_DOC("set_b_type($self, pos, type, data_type, is_trans=False)",
             "Returns int. As set_a_type, for B (transposed: N x K).")},
    {"set_c_type", KW set_c_type, KWF,
     ASC_DOC("set_c_type($self, pos, type, data_type)",
             "Returns int. Where C goes and its element type; a C in a vector position "
             "(VECIN/VECOUT/VECCALC) must fit baseM x baseN in the Unified Buffer.")},
    {"set_bias_type", KW set_bias_type, KWF,
     ASC_DOC("set_bias_type($self, pos, type, data_type)",
             "Returns int. The bias row's position and type.")},
    {"set_shape", KW set_shape, KWF,
     ASC_DOC("set_shape($self, m, n, k)",
             "Returns int. The part of the matmul to compute (default: the original shape).")},
    {"set_org_shape", KW set_org_shape, KWF,
     ASC_DOC("set_org_shape($self, org_m_in, org_n_in, org_k_in, org_kb_in=-1)",
             "Returns int. The full matrices' sizes (default: the shape).")},
    {"set_fix_split", KW set_fix_split, KWF,
     ASC_DOC("set_fix_split($self, base_m_in=-1, base_n_in=-1, base_k_in=-1)",
             "Returns int. Fixes baseM/baseN (-1: chosen; multiples of 16). A fixed baseK is "
             "checked against L0A/L0B but, as in Ascend C, does not steer the search.")},
    {"set_split_range", KW set_split_range, KWF,
     ASC_DOC("set_split_range($self, max_base_m=-1, max_base_n=-1, max_base_k=-1, min_base_m=-1, "
             "min_base_n=-1, min_base_k=-1)",
             "Returns int. Checked and stored; as in Ascend C's search, the base sizes do not "
             "depend on it.")},
    {"set_buffer_space", KW set_buffer_space, KWF,
     ASC_DOC("set_buffer_space($self, l1_size=-1, l0_c_size=-1, ub_size=-1, bt_size=-1)",
             "Returns int. Bytes of L1, L0C, the Unified Buffer and the BiasTable the matmul may "
             "use (-1: the device's).")},
    {"enable_bias", KW enable_bias, KWF,
     ASC_DOC("enable_bias($self, is_bias_in=False)",
             "Returns int. Whether a bias row is added (as in the kernel).")},
    {"set_bias", KW enable_bias, KWF,
     ASC_DOC("set_bias($self, is_bias_in=False)", "Returns int. Same as enable_bias.")},
    {"set_traverse", KW set_traverse, KWF,
     ASC_DOC("set_traverse($self, traverse)",
             "Returns int. FIRSTM: walk along M first (iterateOrder 0); FIRSTN: along N first "
             "(iterateOrder 1).")},
    {"set_double_buffer", KW set_double_buffer, KWF,
     ASC_DOC("set_double_buffer($self, a, b, c, bias, trans_nd2nz=True, trans_nz2nd=True)",
             "Returns int. Accepted and, as in Ascend C, ignored: the search decides the double "
             "buffers (dbL0A/B/C, depthA1/B1).")},
    {"set_a_layout", KW set_a_layout, KWF,
     ASC_DOC("set_a_layout($self, b, s, n, g, d)",
             "Returns int. A's BSNGD layout axes (copied into the tiling).")},
    {"set_b_layout", KW set_b_layout, KWF,
     ASC_DOC("set_b_layout($self, b, s, n, g, d)", "Returns int. B's layout axes.")},
    {"set_c_layout", KW set_c_layout, KWF,
     ASC_DOC("set_c_layout($self, b, s, n, g, d)",
             "Returns int. C's layout axes (B, S1, N, G, S2).")},
    {"set_batch_num", KW set_batch_num, KWF,
     ASC_DOC("set_batch_num($self, batch)",
             "Returns int. The most batches one multi-batch call computes.")},
    {"set_batch_info_for_normal", KW set_batch_info, KWF,
     ASC_DOC("set_batch_info_for_normal($self, batch_a, batch_b, m, n, k)",
             "Returns int. Batch counts of A and B and the per-batch shape.")},
    {"set_dequant_type", KW set_dequant_type, KWF,
     ASC_DOC("set_dequant_type($self, dequant_type)",
             "Returns int. Checked and accepted; quantisation does not change the tiling.")},
    {"set_mad_type", KW set_mad_type, KWF,
     ASC_DOC("set_mad_type($self, mad_type)",
             "Returns int. Checked and accepted; the mad mode does not change the tiling.")},
    {"set_sparse", KW set_sparse, KWF,
     ASC_DOC(
         "set_sparse($self, is_sparce_in=False)",
         "Returns int (0). True: B is 4:2 structured sparse with its index beside it; L1 sizes B "
         "at 5/8 and baseK becomes a multiple of 64.")},
    {"set_matmul_config_params", KW set_matmul_config_params, KWF,
     ASC_DOC("set_matmul_config_params($self, config_params=None, mm_config_type=1, "
             "enable_l1_cache_ub=False, schedule_type=None, traverse=None, en_vec_nd2nz=False)",
             "Returns None. Only the traversal affects this tiling; enable_l1_cache_ub=True is not "
             "supported.")},
    {"get_tiling", KW get_tiling, KWF,
     ASC_DOC("get_tiling($self, tiling)",
             "Returns int. Computes the tiling and stores every field in tiling; returns 0. Raises "
             "(InvalidValueError, DTypeError, UnsupportedError) with the reason when no tiling "
             "fits, where Ascend C returns -1.")},
    {"get_base_m", get_base_m, METH_NOARGS,
     ASC_DOC("get_base_m($self)", "Returns int. baseM of the last tiling.")},
    {"get_base_n", get_base_n, METH_NOARGS,
     ASC_DOC("get_base_n($self)", "Returns int. baseN of the last tiling.")},
    {"get_base_k", get_base_k, METH_NOARGS,
     ASC_DOC("get_base_k($self)", "Returns int. baseK of the last tiling.")},
    {NULL, NULL, 0, NULL},
};

static PyObject *set_dim(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"dim", NULL};
  long long dim;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "L:set_dim", names, &dim)) return NULL;
  return status_result(asc_tiling_set_dim(CTX(self), dim));
}

static PyObject *set_single_shape(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"single_m_in", "single_n_in", "single_k_in", NULL};
  return set_mnk(self, args, kwargs, "|LLL:set_single_shape", names, asc_tiling_set_single_shape);
}

static PyObject *set_single_range(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"max_m", "max_n", "max_k", "min_m", "min_n", "min_k", NULL};
  return set_range(self, args, kwargs, "|LLLLLL:set_single_range", names,
                   asc_tiling_set_single_range);
}

static PyObject *set_align_split(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"align_m", "align_n", "align_k", NULL};
  return set_mnk(self, args, kwargs, "LLL:set_align_split", names, asc_tiling_set_align_split);
}

static PyObject *enable_split_k(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"flag", NULL};
  int flag;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "p:enable_multi_core_split_k", names, &flag))
    return NULL;
  asc_status st = asc_tiling_enable_split_k(CTX(self), flag != 0);
  if (st) return asc_py_raise(st);
  Py_RETURN_NONE;
}

static PyObject *get_core_num(PyObject *self, PyObject *noargs) {
  (void)noargs;
  const asc_tiling_ctx *c = CTX(self);
  if (!c->has_result) Py_RETURN_NONE;
  if (c->kind == ASC_TILING_BATCH)
    return Py_BuildValue("(iiiii)", c->result.usedCoreNum, c->m_dim, c->n_dim, 1, 1);
  return Py_BuildValue("(iii)", c->result.usedCoreNum, c->m_dim, c->n_dim);
}

static PyObject *get_single_shape(PyObject *self, PyObject *noargs) {
  (void)noargs;
  const asc_tiling_ctx *c = CTX(self);
  if (!c->has_result) Py_RETURN_NONE;
  return Py_BuildValue("(iii)", c->result.singleCoreM, c->result.singleCoreN,
                       c->result.singleCoreK);
}

static PyMethodDef multi_core_methods[] = {
    {"set_dim", KW set_dim, KWF,
     ASC_DOC("set_dim($self, dim)",
             "Returns int. Cores the output may be spread over (1..65535; default 1). The tiling "
             "uses at most dim of them: usedCoreNum.")},
    {"set_single_shape", KW set_single_shape, KWF,
     ASC_DOC("set_single_shape($self, single_m_in=-1, single_n_in=-1, single_k_in=-1)",
             "Returns int. Fixes the per-core shape; usedCoreNum is then the number of per-core "
             "blocks.")},
    {"set_single_range", KW set_single_range, KWF,
     ASC_DOC("set_single_range($self, max_m=-1, max_n=-1, max_k=-1, min_m=-1, min_n=-1, min_k=-1)",
             "Returns int. Checked and stored; as in Ascend C's search on a 910B-class core, "
             "the per-core shape does not depend on it.")},
    {"set_align_split", KW set_align_split, KWF,
     ASC_DOC("set_align_split($self, align_m, align_n, align_k)",
             "Returns int. Checked and stored; as in Ascend C's search (without B in TSCM), "
             "the per-core shape does not depend on it.")},
    {"enable_multi_core_split_k", KW enable_split_k, KWF,
     ASC_DOC("enable_multi_core_split_k($self, flag)",
             "Returns None. Lets the core search split K over cores too (singleCoreK < K); "
             "the cores then add their parts of C atomically.")},
    {"get_core_num", get_core_num, METH_NOARGS,
     ASC_DOC("get_core_num($self)",
             "Returns (dim, m_dim, n_dim) | None. Cores used, and along M and N, of the last "
             "tiling (None before get_tiling).")},
    {"get_single_shape", get_single_shape, METH_NOARGS,
     ASC_DOC("get_single_shape($self)",
             "Returns (m, n, k) | None. The per-core shape of the last tiling.")},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef batch_methods[] = {
    {"get_core_num", get_core_num, METH_NOARGS,
     ASC_DOC("get_core_num($self)",
             "Returns (dim, m_dim, n_dim, batch_core_m, batch_core_n) | None. Cores of the last "
             "tiling (batches are not spread over cores: batch_core_m = batch_core_n = 1).")},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TilingBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc.host.MatmulApiTilingBase",
    .tp_basicsize = sizeof(TilingObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "What MatmulApiTiling, MultiCoreMatmulTiling and BatchMatmulTiling share.",
    .tp_methods = base_methods,
    .tp_init = tiling_init,
    .tp_new = PyType_GenericNew,
};

static PyTypeObject MatmulApiTiling_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc.host.MatmulApiTiling",
    .tp_basicsize = sizeof(TilingObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc =
        "MatmulApiTiling(platform=None)\n\nTiling of a matmul computed by one core "
        "(Ascend C's matmul_tiling::MatmulApiTiling). platform: get_ascendc_platform() "
        "(None: the current device's).",
};

static PyTypeObject MultiCore_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc.host.MultiCoreMatmulTiling",
    .tp_basicsize = sizeof(TilingObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc =
        "MultiCoreMatmulTiling(platform=None)\n\nTiling of a matmul whose M and N are "
        "spread over up to set_dim() cores (Ascend C's MultiCoreMatmulTiling).",
    .tp_methods = multi_core_methods,
};

static PyTypeObject Batch_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc.host.BatchMatmulTiling",
    .tp_basicsize = sizeof(TilingObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc =
        "BatchMatmulTiling(platform=None)\n\nTiling of a batched matmul on one core "
        "(Ascend C's BatchMatmulTiling): singleBatchM/N batches share L1.",
    .tp_methods = batch_methods,
};

static PyObject *tiling_fields(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  PyObject *out = PyTuple_New((Py_ssize_t)asc_tiling_tcube_field_count);
  if (!out) return NULL;
  for (size_t i = 0; i < asc_tiling_tcube_field_count; i++) {
    PyObject *pair = Py_BuildValue("(ss)", asc_tiling_tcube_fields[i].py_name,
                                   asc_tiling_tcube_fields[i].c_name);
    if (!pair) {
      Py_DECREF(out);
      return NULL;
    }
    PyTuple_SET_ITEM(out, (Py_ssize_t)i, pair);
  }
  return out;
}

/* The SoftMax family's kinds by the name Python passes, in asc_softmax_kind's order. */
static const char *const softmax_kinds[] = {"softmax", "flash", "grad"};

static int softmax_kind(const char *name, asc_softmax_kind *kind) {
  for (size_t i = 0; i < sizeof softmax_kinds / sizeof softmax_kinds[0]; i++)
    if (!strcmp(name, softmax_kinds[i])) {
      *kind = (asc_softmax_kind)i;
      return 0;
    }
  PyErr_Format(PyExc_ValueError, "softmax kind must be 'softmax', 'flash' or 'grad', not '%s'",
               name);
  return -1;
}

static PyObject *softmax_tmp_size(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *names[] = {"kind", "m", "k", "type_size", "flag", NULL};
  const char *name;
  long long m, k;
  int type_size, flag;
  asc_softmax_kind kind;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "sLLip:softmax_tmp_size", names, &name, &m, &k,
                                   &type_size, &flag) ||
      softmax_kind(name, &kind))
    return NULL;
  uint32_t most = 0, least = 0;
  asc_status st = asc_tiling_softmax_tmp_size(kind, m, k, type_size, flag, &most, &least);
  if (st) return asc_py_raise(st);
  return Py_BuildValue("(kk)", (unsigned long)most, (unsigned long)least);
}

static PyObject *softmax_tiling(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *names[] = {"kind", "m", "k", "type_size", "work", "flag", NULL};
  const char *name;
  long long m, k, work;
  int type_size, flag;
  asc_softmax_kind kind;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "sLLiLp:softmax_tiling", names, &name, &m, &k,
                                   &type_size, &work, &flag) ||
      softmax_kind(name, &kind))
    return NULL;
  if (work < 0 || work > UINT32_MAX)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                            "softmax tiling: localWorkSpaceSize %lld is not a uint32", work);
  asc_softmax_tiling t;
  asc_status st = asc_tiling_softmax(kind, m, k, type_size, (uint32_t)work, flag, &t);
  if (st) return asc_py_raise(st);
  const uint32_t *v = &t.srcM;
  const size_t n = sizeof t / sizeof t.srcM;
  PyObject *out = PyTuple_New((Py_ssize_t)n);
  for (size_t i = 0; out && i < n; i++) {
    PyObject *item = PyLong_FromUnsignedLong(v[i]);
    if (!item)
      Py_CLEAR(out);
    else
      PyTuple_SET_ITEM(out, (Py_ssize_t)i, item);
  }
  return out;
}

static PyMethodDef tiling_functions[] = {
    {"get_ascendc_platform", KW get_ascendc_platform, KWF,
     ASC_DOC("get_ascendc_platform($module, device=None)",
             "Returns PlatformAscendC. The device's cores and buffer sizes for host tiling "
             "(default: the current device).")},
    {"tiling_fields", tiling_fields, METH_NOARGS,
     ASC_DOC("tiling_fields($module)",
             "Returns tuple[(python_name, ascend_c_name), ...]. TCubeTiling's members in order, as "
             "libasc fills them.")},
    {"softmax_tmp_size", KW softmax_tmp_size, KWF,
     ASC_DOC("softmax_tmp_size($module, kind, m, k, type_size, flag)",
             "Returns (max, min). Shared tmp bytes of the SoftMax API kind ('softmax', 'flash' "
             "or 'grad'; flag its isUpdate or isFront) for m rows of k elements, as CANN's "
             "GetSoftMaxMaxTmpSize / GetSoftMaxMinTmpSize compute them.")},
    {"softmax_tiling", KW softmax_tiling, KWF,
     ASC_DOC("softmax_tiling($module, kind, m, k, type_size, work, flag)",
             "Returns tuple[int, ...]. SoftMaxTiling's 16 members in Ascend C's order for work "
             "bytes of shared tmp buffer (CANN's SoftMaxTilingFunc and its Flash and Grad "
             "forms).")},
    {NULL, NULL, 0, NULL},
};

int asc_py_tiling_init(PyObject *module) {
  MatmulApiTiling_Type.tp_base = &TilingBase_Type;
  MultiCore_Type.tp_base = &TilingBase_Type;
  Batch_Type.tp_base = &TilingBase_Type;
  PyTypeObject *types[] = {&Platform_Type, &TilingBase_Type, &MatmulApiTiling_Type, &MultiCore_Type,
                           &Batch_Type};
  const char *names[] = {"PlatformAscendC", "MatmulApiTilingBase", "MatmulApiTiling",
                         "MultiCoreMatmulTiling", "BatchMatmulTiling"};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    if (PyType_Ready(types[i]) < 0) return -1;
    if (PyModule_AddObjectRef(module, names[i], (PyObject *)types[i]) < 0) return -1;
  }
  return PyModule_AddFunctions(module, tiling_functions);
}
