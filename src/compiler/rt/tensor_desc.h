/* --- tensor lists (api_table.def "tensor lists") -----------------------------------------
 * ListTensorDesc reads a list of tensors that the host laid out in global
 * memory as Ascend C does, in little-endian uint64 words:
 *   word 0             P, the byte offset of the data pointers from the start
 *   words 1 .. P/8-1   per tensor: (index << 32 | dim), then its dim shape values
 *   from byte P        one data pointer per tensor
 * (pyasc.tensor_list builds it). `length` bounds the bytes read when it is not
 * 0xffffffff; `shape_size`, when not 0xffffffff, is the number of pointers.
 * A data pointer becomes an address only if it lies in one of the launch's
 * array arguments or in a live device allocation (a pyasc.Tensor); any other
 * value gives an address with no memory behind it (reads give zeros, checked
 * mode reports accesses), so a list never lets a kernel reach memory it was
 * not given. A device tensor's pointer is tagged with its allocation: after
 * that tensor is freed it reaches nothing (checked mode: use after free).
 * A malformed list is an error naming the line. */
#define ASC_K_LTD_ALL 0xffffffffLL
#define ASC_K_TAG_SHIFT 48 /* asc/mem.h ASC_MEM_TAG_SHIFT */

static inline int asc_k_ltd_word(asc_k_ctx *k, asc_k_addr a, int64_t length, int64_t at,
                                 uint64_t *w, const char *api, int line) {
  if (!a.base || a.lead < 0 || a.lead > a.n)
    return asc_k_fail(k, line, "%s: the tensor list's address is outside its argument", api);
  int64_t lim = asc_k_sub(a.n, a.lead);
  if (length != ASC_K_LTD_ALL && length < lim) lim = length;
  if (at < 0 || at % 8 || asc_k_add(at, 8) > lim)
    return asc_k_fail(k, line,
                      "%s: the tensor list's word at byte %lld is outside its %lld bytes (a "
                      "malformed list, or length too small)",
                      api, (long long)at, (long long)lim);
  memcpy(w, a.base + a.lead + at, 8);
  return 0;
}
/* The list's pointer offset and tensor count; *desc (if not NULL) the byte
 * offset of tensor index's descriptor word. */
static inline int asc_k_ltd_walk(asc_k_ctx *k, asc_k_addr a, int64_t length, int64_t shape_size,
                                 int64_t index, int64_t *ptrs, int64_t *count, int64_t *desc,
                                 const char *api, int line) {
  if (length < 0 || length > ASC_K_LTD_ALL || shape_size < 0 || shape_size > ASC_K_LTD_ALL)
    return asc_k_fail(k, line, "%s: length and shape_size must be uint32 values", api);
  uint64_t p;
  if (asc_k_ltd_word(k, a, length, 0, &p, api, line)) return 1;
  if (p < 8 || p % 8 || p > (uint64_t)INT32_MAX)
    return asc_k_fail(k, line,
                      "%s: the list's pointer offset %llu is not a multiple of 8 past "
                      "its header",
                      api, (unsigned long long)p);
  int64_t n = 0, at = 8;
  while (at < (int64_t)p) {
    uint64_t d;
    if (asc_k_ltd_word(k, a, length, at, &d, api, line)) return 1;
    if (n == index && desc) *desc = at;
    int64_t dim = (int64_t)(d & 0xffffffffu);
    at = asc_k_add(at, asc_k_mul(asc_k_add(dim, 1), 8));
    n++;
  }
  if (at != (int64_t)p)
    return asc_k_fail(k, line, "%s: the list's descriptors overrun its pointer offset %llu", api,
                      (unsigned long long)p);
  if (shape_size != ASC_K_LTD_ALL && shape_size != n)
    return asc_k_fail(k, line, "%s: shape_size %lld does not match the %lld tensors of the list",
                      api, (long long)shape_size, (long long)n);
  if (index >= n || (desc && index < 0))
    return asc_k_fail(k, line, "%s: index %lld is outside the list's %lld tensors", api,
                      (long long)index, (long long)n);
  *ptrs = (int64_t)p;
  *count = n;
  return 0;
}
static inline int asc_k_ltd_init(asc_k_ctx *k, asc_k_addr a, int64_t length, int64_t shape_size,
                                 int line) {
  int64_t p, n;
  return asc_k_ltd_walk(k, a, length, shape_size, -1, &p, &n, NULL, "ListTensorDesc.init", line);
}
static inline int asc_k_ltd_get_size(asc_k_ctx *k, int64_t *r, asc_k_addr a, int64_t length,
                                     int64_t shape_size, int line) {
  int64_t p;
  return asc_k_ltd_walk(k, a, length, shape_size, -1, &p, r, NULL, "ListTensorDesc.get_size", line);
}
static inline int asc_k_ltd_get_desc(asc_k_ctx *k, asc_k_addr a, int64_t length, int64_t shape_size,
                                     int64_t index, int line) {
  int64_t p, n, d;
  return asc_k_ltd_walk(k, a, length, shape_size, index, &p, &n, &d, "ListTensorDesc.get_desc",
                        line);
}
/* The one provenance check for a pointer a kernel forms from data (today a
 * tensor list's data pointer): the memory behind ptr is an address argument
 * of the launch that holds it (the launcher keeps a length only for those:
 * a scalar argument's value is never memory, jit.c) or a live device
 * allocation (a pyasc.Tensor). Anything else, 0 included, gives an address
 * with no memory behind it. A device address carries its allocation's tag
 * (asc/mem.h asc_mem_tag, set by pyasc.tensor_list): once that allocation
 * is freed the address reaches nothing, even when a later allocation holds
 * the same block, and *freed is set (use after free). */
static inline asc_k_addr asc_k_resolve(const asc_k_ctx *k, uint64_t ptr, int *freed) {
  asc_k_addr r = {NULL, 0, 0};
  uintptr_t p = (uintptr_t)ptr;
  *freed = 0;
  if (!p) return r;
  for (int i = 0; i < k->sys.nargs; i++) {
    const asc_k_arg *arg = &k->sys.args[i];
    uintptr_t base = (uintptr_t)arg->v.p;
    if (base && arg->n > 0 && p >= base && p - base < (uintptr_t)arg->n) {
      r.base = arg->v.p, r.n = arg->n, r.lead = (int64_t)(p - base);
      return r;
    }
  }
  char *base;
  int64_t n;
  int found = k->sys.launch && k->sys.launch->lookup ? k->sys.launch->lookup(ptr, &base, &n) : 0;
  if (found > 0) {
    /* the tag sits above any address the lookup gives back */
    r.base = base;
    r.n = n;
    r.lead = (int64_t)((p & ((1ull << ASC_K_TAG_SHIFT) - 1)) - (uintptr_t)base);
  }
  *freed = found < 0;
  return r;
}
static inline int asc_k_ltd_get_data_ptr(asc_k_ctx *k, asc_k_addr *r, asc_k_addr a, int64_t length,
                                         int64_t shape_size, int64_t index, int64_t dtype,
                                         int line) {
  (void)dtype;
  int64_t p, n, d;
  uint64_t ptr;
  int freed;
  if (asc_k_ltd_walk(k, a, length, shape_size, index, &p, &n, &d, "get_data_ptr", line) ||
      asc_k_ltd_word(k, a, length, asc_k_add(p, asc_k_mul(index, 8)), &ptr, "get_data_ptr", line))
    return 1;
  *r = asc_k_resolve(k, ptr, &freed);
#if ASC_K_CHECKED
  if (freed)
    return asc_k_fail(k, line,
                      "get_data_ptr: use after free: tensor %lld's data pointer 0x%llx names a "
                      "device allocation freed since the list was made (its memory may belong "
                      "to another tensor now)",
                      (long long)index, (unsigned long long)ptr);
#endif
  return 0;
}
/* TensorDesc: what = 0 dim, 1 index, 2 shape[offset]. */
static inline int asc_k_td_info(asc_k_ctx *k, int64_t *r, asc_k_addr a, int64_t length,
                                int64_t shape_size, int64_t index, int64_t offset, int what,
                                int line) {
  static const char *const apis[] = {"TensorDesc.get_dim", "TensorDesc.get_index",
                                     "TensorDesc.get_shape"};
  int64_t p, n, d;
  uint64_t w;
  if (asc_k_ltd_walk(k, a, length, shape_size, index, &p, &n, &d, apis[what], line) ||
      asc_k_ltd_word(k, a, length, d, &w, apis[what], line))
    return 1;
  int64_t dim = (int64_t)(w & 0xffffffffu);
  if (what == 0) {
    *r = dim;
    return 0;
  }
  if (what == 1) {
    *r = (int64_t)(w >> 32);
    return 0;
  }
  if (offset < 0 || offset >= dim)
    return asc_k_fail(k, line, "%s: offset %lld is outside the tensor's %lld dimensions",
                      apis[what], (long long)offset, (long long)dim);
  if (asc_k_ltd_word(k, a, length, asc_k_add(d, asc_k_mul(offset + 1, 8)), &w, apis[what], line))
    return 1;
  *r = (int64_t)w;
  return 0;
}
static inline int asc_k_td_get_dim(asc_k_ctx *k, int64_t *r, asc_k_addr a, int64_t length,
                                   int64_t shape_size, int64_t index, int line) {
  return asc_k_td_info(k, r, a, length, shape_size, index, 0, 0, line);
}
static inline int asc_k_td_get_index(asc_k_ctx *k, int64_t *r, asc_k_addr a, int64_t length,
                                     int64_t shape_size, int64_t index, int line) {
  return asc_k_td_info(k, r, a, length, shape_size, index, 0, 1, line);
}
static inline int asc_k_td_get_shape(asc_k_ctx *k, int64_t *r, asc_k_addr a, int64_t length,
                                     int64_t shape_size, int64_t index, int64_t offset, int line) {
  return asc_k_td_info(k, r, a, length, shape_size, index, offset, 2, line);
}
/* A TensorDesc that no ListTensorDesc.get_desc filled has dim 0 and no shape
 * (Ascend C's constructor): reading a shape is outside its dimensions, an
 * error in checked mode; the device reads no list, here 0. */
static inline int asc_k_td_unset_shape(asc_k_ctx *k, int64_t *r, int64_t offset, int line) {
  *r = 0;
#if ASC_K_CHECKED
  return asc_k_fail(k, line,
                    "TensorDesc.get_shape: offset %lld is outside the tensor's 0 dimensions (no "
                    "ListTensorDesc.get_desc filled this TensorDesc)",
                    (long long)offset);
#else
  (void)k, (void)offset, (void)line;
  return 0;
#endif
}
/* Its data pointer is null: an address with no memory behind it. */
static inline int asc_k_td_unset_data_ptr(asc_k_ctx *k, asc_k_addr *r, int64_t dtype, int line) {
  (void)dtype, (void)line;
  int freed;
  *r = asc_k_resolve(k, 0, &freed);
  return 0;
}
