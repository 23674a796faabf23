/* A profiled kernel's records (rt/perf_model.h, docs/perf-model.md) as
 * Python objects, for CompiledKernel.profile_reset/profile_records (ir.c). */
#include "binding.h"

#include "../compiler/rt/perf_model.h"
#include "asc/jit.h"

PyObject *asc_py_profile_reset(asc_jit_kernel *k, PyObject *n) {
  long long count = PyLong_AsLongLong(n);
  if (count == -1 && PyErr_Occurred()) return NULL;
  asc_status st = asc_jit_profile_reset(k, count);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

/* One block's record as (block_idx, core_kind, sub_block, wave, cores,
 * clock_mhz, launch_us, end_cycles, busy_cycles[7], spans[(pipe, start,
 * end, line)]). */
static PyObject *pf_record(const asc_pf_record *r) {
  PyObject *busy = PyTuple_New(ASC_PF_NPIPES), *spans = PyList_New(r->nspans);
  for (int p = 0; busy && p < ASC_PF_NPIPES; p++)
    PyTuple_SET_ITEM(busy, p, PyFloat_FromDouble(r->busy[p]));
  for (int i = 0; spans && i < r->nspans; i++) {
    const asc_pf_span *s = &r->spans[i];
    PyList_SET_ITEM(spans, i,
                    Py_BuildValue("(iddi)", s->pipe, (double)s->start, (double)s->end, s->line));
  }
  if (!busy || !spans || PyErr_Occurred()) {
    Py_XDECREF(busy);
    Py_XDECREF(spans);
    return NULL;
  }
  return Py_BuildValue("(LiiiidddNN)", (long long)r->block_idx, r->core_kind, r->sub_block, r->wave,
                       r->cores, r->clock_mhz, r->launch_us, r->end, busy, spans);
}

PyObject *asc_py_profile_records(const asc_jit_kernel *k) {
  const asc_pf_record *recs;
  int64_t n;
  asc_status st = asc_jit_profile_records(k, &recs, &n);
  if (st) return asc_py_raise(st);
  PyObject *out = PyList_New(0);
  for (int64_t i = 0; out && i < n; i++) {
    if (!recs[i].used) continue;
    PyObject *item = pf_record(&recs[i]);
    if (!item || PyList_Append(out, item)) {
      Py_XDECREF(item);
      Py_CLEAR(out);
      break;
    }
    Py_DECREF(item);
  }
  return out;
}
