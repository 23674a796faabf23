/* A bounded fuzz of ACL's entry points (include/acl/acl.h): random calls with
 * hostile arguments (NULL, huge sizes, sizes past destMax or the allocation,
 * unknown kinds and policies, freed and interior pointers, destroyed and
 * made-up handles, a handle of one kind passed as another, double frees and
 * double destroys; launches of a kernel that touches nothing with bad
 * descriptions, counts and address arguments) against a model of what is
 * live. Every call returns a
 * known ACL code, an error (with a message) whenever the model knows an
 * argument is bad and success whenever it knows all are good; memory holds
 * exactly what the successful calls wrote. Host memory is the caller's to
 * keep valid (ACL cannot check a plain host pointer), so host-side
 * arguments are real host buffers, used within their bounds unless a
 * device-side check refuses the call first. */
#include "acl/acl.h"
#include "asc_test.h"
#include "ascendc/pyasc_sim_launch.h"

#define NBUF 10
#define NSTALE 8
#define NHANDLE 4
#define BUF_MAX 2048
#define OPS 20000
#define OPS_VALGRIND 2000

typedef enum { EXPECT_ANY, EXPECT_OK, EXPECT_FAIL } expect;

typedef enum { B_NONE, B_DEVICE, B_HOST_ACL, B_HOST_PLAIN } buf_kind;

typedef struct fuzz_buf {
  buf_kind kind;
  unsigned char *ptr;
  size_t size;
  unsigned char *shadow; /* what the buffer must hold */
} fuzz_buf;

typedef struct fuzz {
  uint64_t rng;
  fuzz_buf bufs[NBUF];
  void *stale[NSTALE]; /* freed device pointers, and destroyed handles below */
  aclrtStream streams[NHANDLE], dead_streams[NHANDLE];
  aclrtEvent events[NHANDLE], dead_events[NHANDLE];
  aclrtContext contexts[NHANDLE], dead_contexts[NHANDLE];
  bool device_set; /* the thread has a current device (ACL's, not libasc's) */
  aclrtContext current;
  int op;
  unsigned long checked_calls, failures;
  char message[1024]; /* the last failure's */
} fuzz;

static uint64_t next(fuzz *f) {
  f->rng ^= f->rng << 13;
  f->rng ^= f->rng >> 7;
  f->rng ^= f->rng << 17;
  return f->rng;
}

static uint64_t below(fuzz *f, uint64_t n) {
  return next(f) % n;
}

static bool known_code(aclError e) {
  static const aclError codes[] = {
      ACL_SUCCESS,
      ACL_ERROR_INVALID_PARAM,
      ACL_ERROR_UNINITIALIZE,
      ACL_ERROR_REPEAT_INITIALIZE,
      ACL_ERROR_INVALID_FILE,
      ACL_ERROR_REPEAT_FINALIZE,
      ACL_ERROR_BAD_ALLOC,
      ACL_ERROR_API_NOT_SUPPORT,
      ACL_ERROR_INVALID_DEVICE,
      ACL_ERROR_MEMORY_ADDRESS_UNALIGNED,
      ACL_ERROR_RESOURCE_NOT_MATCH,
      ACL_ERROR_INVALID_RESOURCE_HANDLE,
      ACL_ERROR_FEATURE_UNSUPPORTED,
      ACL_ERROR_STORAGE_OVER_LIMIT,
      ACL_ERROR_INTERNAL_ERROR,
      ACL_ERROR_FAILURE,
      ACL_ERROR_RT_FAILURE,
      ACL_ERROR_RT_PARAM_INVALID,
      ACL_ERROR_RT_INVALID_DEVICEID,
      ACL_ERROR_RT_CONTEXT_NULL,
      ACL_ERROR_RT_STREAM_CONTEXT,
      ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
      ACL_ERROR_RT_INVALID_MEMORY_TYPE,
      ACL_ERROR_RT_INVALID_HANDLE,
      ACL_ERROR_RT_INVALID_MALLOC_TYPE,
      ACL_ERROR_RT_WAIT_TIMEOUT,
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      ACL_ERROR_RT_MEMORY_ALLOCATION,
      ACL_ERROR_RT_MEMORY_FREE,
      ACL_ERROR_RT_NO_DEVICE,
      ACL_ERROR_RT_DEVICE_OOM,
      ACL_ERROR_RT_INTERNAL_ERROR,
      ACL_ERROR_RT_STREAM_NOT_COMPLETE,
      ACL_ERROR_RT_EVENT_NOT_COMPLETE,
      ACL_ERROR_RT_AICORE_EXCEPTION,
      ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
      ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
  };
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
    if (codes[i] == e) return true;
  return false;
}

/* Checks one call's result against the model; true when it succeeded. */
static bool outcome(fuzz *f, const char *call, aclError got, expect want) {
  f->checked_calls++;
  if (!known_code(got))
    fail_msg("op %d: %s returned %d, not an ACL code (%s)", f->op, call, got, aclGetRecentErrMsg());
  if (want == EXPECT_FAIL && got == ACL_SUCCESS)
    fail_msg("op %d: %s succeeded with an argument the model knows is bad", f->op, call);
  if (want == EXPECT_OK && got != ACL_SUCCESS)
    fail_msg("op %d: %s failed with %d (%s), though every argument is good", f->op, call, got,
             aclGetRecentErrMsg());
  if (got != ACL_SUCCESS) {
    const char *msg = aclGetRecentErrMsg(); /* which clears it, as CANN's does */
    if (!msg || !msg[0]) fail_msg("op %d: %s failed with %d and no message", f->op, call, got);
    snprintf(f->message, sizeof f->message, "%s", msg);
    f->failures++;
  }
  return got == ACL_SUCCESS;
}

/* --- the model's memory ----------------------------------------------------- */

/* The live buffer of kind `kind` (B_NONE: any) holding [p, p + n), or
 * NULL; p may be the buffer's end when n is 0. */
static fuzz_buf *holding(fuzz *f, const void *p, size_t n, buf_kind kind) {
  uintptr_t a = (uintptr_t)p;
  for (int i = 0; i < NBUF; i++) {
    fuzz_buf *b = &f->bufs[i];
    uintptr_t base = (uintptr_t)b->ptr;
    if (b->kind == B_NONE || (kind != B_NONE && b->kind != kind) || a < base || a - base > b->size)
      continue;
    if (n <= b->size - (a - base)) return b;
  }
  return NULL;
}

static fuzz_buf *device_holding(fuzz *f, const void *p, size_t n) {
  return holding(f, p, n, B_DEVICE);
}

static bool in_device(fuzz *f, uintptr_t p) {
  return device_holding(f, (const void *)p, 1) != NULL;
}

/* A host buffer (either kind) holding [p, p + n). */
static fuzz_buf *host_holding(fuzz *f, const void *p, size_t n) {
  fuzz_buf *b = holding(f, p, n, B_HOST_ACL);
  return b ? b : holding(f, p, n, B_HOST_PLAIN);
}

static unsigned char *shadow_of(fuzz_buf *b, const void *p) {
  return b->shadow + ((const unsigned char *)p - b->ptr);
}

static fuzz_buf *free_slot(fuzz *f) {
  for (int i = 0; i < NBUF; i++)
    if (f->bufs[i].kind == B_NONE) return &f->bufs[i];
  return NULL;
}

static fuzz_buf *pick_buf(fuzz *f, buf_kind kind) {
  int start = (int)below(f, NBUF);
  for (int i = 0; i < NBUF; i++) {
    fuzz_buf *b = &f->bufs[(start + i) % NBUF];
    if (b->kind == kind || (kind == B_NONE && b->kind != B_NONE)) return b;
  }
  return NULL;
}

static void adopt(fuzz *f, fuzz_buf *b, buf_kind kind, void *ptr, size_t size) {
  b->kind = kind;
  b->ptr = ptr;
  b->size = size;
  b->shadow = malloc(size);
  assert_non_null(b->shadow);
  /* Whatever the memory held, the model starts from a known fill. */
  for (size_t i = 0; i < size; i++) b->shadow[i] = (unsigned char)next(f);
  memcpy(ptr, b->shadow, size); /* device memory is host-visible */
}

static void forget(fuzz *f, fuzz_buf *b) {
  if (b->kind == B_DEVICE) f->stale[below(f, NSTALE)] = b->ptr;
  free(b->shadow);
  memset(b, 0, sizeof *b);
}

static void check_memory(fuzz *f) {
  for (int i = 0; i < NBUF; i++) {
    fuzz_buf *b = &f->bufs[i];
    if (b->kind == B_NONE || memcmp(b->ptr, b->shadow, b->size) == 0) continue;
    size_t at = 0;
    while (b->ptr[at] == b->shadow[at]) at++;
    fail_msg(
        "op %d: buffer %d (kind %d, %zu bytes) differs from the model at byte %zu: %u, not "
        "%u",
        f->op, i, (int)b->kind, b->size, at, b->ptr[at], b->shadow[at]);
  }
}

/* --- hostile arguments ------------------------------------------------------- */

static size_t any_size(fuzz *f) {
  /* Beyond any simulated device's memory, so never allocated. */
  static const size_t huge[] = {SIZE_MAX, SIZE_MAX / 2, (size_t)1 << 62, (size_t)1 << 50};
  switch (below(f, 8)) {
    case 0:
      return 0;
    case 1:
      return huge[below(f, sizeof huge / sizeof huge[0])];
    case 2:
      return 1 + below(f, 8);
    default:
      return below(f, BUF_MAX + 64);
  }
}

/* A pointer for a device-side argument: live memory (its start, inside,
 * its end, past it), a freed allocation's, a host buffer, NULL, or none. */
static void *any_device_ptr(fuzz *f) {
  static int local;
  fuzz_buf *b;
  switch (below(f, 10)) {
    case 0:
      return NULL;
    case 1:
      return f->stale[below(f, NSTALE)];
    case 2:
      return (void *)(uintptr_t)(below(f, 2) ? UINTPTR_MAX - 7 : 0x1000);
    case 3:
      return &local;
    case 4:
      if ((b = pick_buf(f, B_NONE))) return b->ptr; /* maybe host memory: the wrong kind */
      return NULL;
    default:
      if (!(b = pick_buf(f, B_DEVICE))) return NULL;
      switch (below(f, 4)) {
        case 0:
          return b->ptr + below(f, b->size + 1);
        case 1:
          return b->ptr + b->size + below(f, 64);
        default:
          return b->ptr;
      }
  }
}

/* A pointer for a host-side argument: a host buffer (start or inside), live
 * device memory (the wrong kind), or NULL; never memory ACL cannot check. */
static void *any_host_ptr(fuzz *f) {
  fuzz_buf *b;
  switch (below(f, 6)) {
    case 0:
      return NULL;
    case 1:
      if ((b = pick_buf(f, B_DEVICE))) return b->ptr + below(f, b->size);
      return NULL;
    default:
      if (!(b = pick_buf(f, below(f, 2) ? B_HOST_ACL : B_HOST_PLAIN))) return NULL;
      return b->ptr + (below(f, 3) ? 0 : below(f, b->size));
  }
}

#define pick(f, array, dead)                      \
  (below(f, 8) == 0   ? NULL                      \
   : below(f, 4) == 0 ? (dead)[below(f, NHANDLE)] \
                      : (array)[below(f, NHANDLE)])

/* A handle of the wrong kind or made up, some of the time. */
static void *mangle(fuzz *f, void *h) {
  switch (below(f, 12)) {
    case 0:
      return f->streams[below(f, NHANDLE)];
    case 1:
      return f->events[below(f, NHANDLE)];
    case 2:
      return f->contexts[below(f, NHANDLE)];
    case 3:
      return (void *)(uintptr_t)next(f);
    case 4:
      /* another generation of the same slot: stale, never a live one */
      return h ? (void *)((uintptr_t)h ^ ((uintptr_t)1 << 32)) : h;
    default:
      return h;
  }
}

static int slot_of(void *const *array, const void *h) {
  for (int i = 0; h && i < NHANDLE; i++)
    if (array[i] == h) return i;
  return -1;
}

static void bury(void **array, void **dead, int i) {
  dead[i] = array[i];
  array[i] = NULL;
}

/* --- calls --------------------------------------------------------------------- */

static aclrtMemcpyKind any_copy_kind(fuzz *f) {
  if (below(f, 10) == 0) return (aclrtMemcpyKind)(below(f, 2) ? 8 + (int)below(f, 100) : -1);
  return (aclrtMemcpyKind)below(f, 8);
}

static void fuzz_memcpy(fuzz *f, bool async) {
  aclrtMemcpyKind kind = any_copy_kind(f);
  bool dst_dev = false, src_dev = false,
       known = (unsigned)kind <= ACL_MEMCPY_INTER_DEVICE_TO_DEVICE;
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      dst_dev = true;
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      src_dev = true;
      break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
      dst_dev = src_dev = true;
      break;
    default:
      break;
  }
  void *dst, *src;
  if (kind == ACL_MEMCPY_DEFAULT) {
    /* The direction comes from the addresses: only ones the model can
     * classify (live device memory inside an allocation, host buffers). */
    fuzz_buf *b = pick_buf(f, B_DEVICE);
    dst = b && below(f, 2) ? b->ptr + below(f, b->size) : any_host_ptr(f);
    b = pick_buf(f, B_DEVICE);
    src = b && below(f, 2) ? b->ptr + below(f, b->size) : any_host_ptr(f);
    dst_dev = in_device(f, (uintptr_t)dst);
    src_dev = in_device(f, (uintptr_t)src);
  } else {
    dst = dst_dev ? any_device_ptr(f) : any_host_ptr(f);
    src = src_dev ? any_device_ptr(f) : any_host_ptr(f);
  }
  size_t count = any_size(f);
  size_t dest_max = below(f, 6) == 0 ? any_size(f) : count + below(f, 2) * below(f, 16);
  aclrtStream stream = async ? mangle(f, pick(f, f->streams, f->dead_streams)) : NULL;
  bool early = !dst || !src || count > dest_max || !known;
  bool device_ok =
      (!dst_dev || device_holding(f, dst, count)) && (!src_dev || device_holding(f, src, count));
  if (!early && device_ok) {
    /* Every check on the device sides passes: the host sides are read or
     * written, so they stay inside their buffers. */
    for (int side = 0; side < 2; side++) {
      void *p = side ? src : dst;
      fuzz_buf *hb = (side ? src_dev : dst_dev) ? NULL : host_holding(f, p, 0);
      if (hb && count > hb->size - (size_t)((unsigned char *)p - hb->ptr))
        count = hb->size - (size_t)((unsigned char *)p - hb->ptr);
    }
  }
  fuzz_buf *db = dst_dev ? device_holding(f, dst, count) : host_holding(f, dst, count);
  fuzz_buf *sb = src_dev ? device_holding(f, src, count) : host_holding(f, src, count);
  /* A host side must not be device memory (at either end of the range). */
  bool host_bad = false;
  for (int side = 0; side < 2 && count; side++) {
    uintptr_t p = (uintptr_t)(side ? src : dst);
    if (!(side ? src_dev : dst_dev) && p && (in_device(f, p) || in_device(f, p + count - 1)))
      host_bad = true;
  }
  if (!early && !host_bad && db && sb && db == sb) {
    uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    if (count && d < s + count && s < d + count) return; /* overlapping: memcpy's undefined case */
  }
  bool stream_bad = async && (stream ? slot_of(f->streams, stream) < 0 : !f->device_set);
  bool bad = early || (dst_dev && !db) || (src_dev && !sb) || host_bad || stream_bad;
  aclError got = async ? aclrtMemcpyAsync(dst, dest_max, src, count, kind, stream)
                       : aclrtMemcpy(dst, dest_max, src, count, kind);
  if (!outcome(f, async ? "aclrtMemcpyAsync" : "aclrtMemcpy", got, bad ? EXPECT_FAIL : EXPECT_OK))
    return;
  if (async) outcome(f, "aclrtSynchronizeStream", aclrtSynchronizeStream(stream), EXPECT_OK);
  if (count && db && sb) memmove(shadow_of(db, dst), shadow_of(sb, src), count);
}

static void fuzz_memset(fuzz *f, bool async) {
  void *p = below(f, 3) ? any_device_ptr(f) : any_host_ptr(f);
  size_t count = any_size(f), max = below(f, 6) == 0 ? any_size(f) : count + below(f, 8);
  int32_t value = (int32_t)next(f);
  aclrtStream stream = async ? mangle(f, pick(f, f->streams, f->dead_streams)) : NULL;
  /* Device memory when its first byte is; else only aclrtMallocHost blocks. */
  fuzz_buf *b =
      in_device(f, (uintptr_t)p) ? device_holding(f, p, count) : holding(f, p, count, B_HOST_ACL);
  bool stream_bad = async && (stream ? slot_of(f->streams, stream) < 0 : !f->device_set);
  bool bad = !p || count > max || !b || stream_bad;
  aclError got =
      async ? aclrtMemsetAsync(p, max, value, count, stream) : aclrtMemset(p, max, value, count);
  if (!outcome(f, async ? "aclrtMemsetAsync" : "aclrtMemset", got, bad ? EXPECT_FAIL : EXPECT_OK))
    return;
  if (async) outcome(f, "aclrtSynchronizeStream", aclrtSynchronizeStream(stream), EXPECT_OK);
  if (b) memset(shadow_of(b, p), (unsigned char)value, count);
}

static void fuzz_alloc(fuzz *f) {
  fuzz_buf *slot = free_slot(f);
  if (!slot) slot = pick_buf(f, B_NONE);
  if (slot->kind == B_DEVICE) {
    outcome(f, "aclrtFree", aclrtFree(slot->ptr), EXPECT_OK);
    forget(f, slot);
  } else if (slot->kind == B_HOST_ACL) {
    outcome(f, "aclrtFreeHost", aclrtFreeHost(slot->ptr), EXPECT_OK);
    forget(f, slot);
  } else if (slot->kind == B_HOST_PLAIN) {
    free(slot->ptr);
    forget(f, slot);
  }
  void *ptr = NULL;
  void **out = below(f, 10) ? &ptr : NULL;
  size_t size = any_size(f);
  switch (below(f, 3)) {
    case 0: {
      /* Host blocks stay small: a huge one is the C library's affair. */
      if (size > BUF_MAX) size = 1 + size % BUF_MAX;
      if (outcome(f, "aclrtMallocHost", aclrtMallocHost(out, size),
                  !out || !size ? EXPECT_FAIL : EXPECT_OK))
        adopt(f, slot, B_HOST_ACL, ptr, size);
      return;
    }
    case 1:
      ptr = malloc(size % BUF_MAX + 1);
      assert_non_null(ptr);
      adopt(f, slot, B_HOST_PLAIN, ptr, size % BUF_MAX + 1);
      return;
    default: {
      unsigned policy = below(f, 4) ? (unsigned)below(f, 8) : (unsigned)next(f);
      const unsigned flags = ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH |
                             ACL_MEM_ACCESS_USER_SPACE_READONLY;
      bool policy_bad =
          (policy & 0xffu) > ACL_MEM_MALLOC_HUGE1G_ONLY_P2P || (policy & ~0xffu & ~flags);
      expect want = !out || !size || policy_bad || !f->device_set ? EXPECT_FAIL
                    : size > BUF_MAX + 64                         ? EXPECT_FAIL
                                                                  : EXPECT_OK;
      if (outcome(f, "aclrtMalloc", aclrtMalloc(out, size, (aclrtMemMallocPolicy)policy), want))
        adopt(f, slot, B_DEVICE, ptr, size);
    }
  }
}

static void fuzz_free(fuzz *f) {
  bool host = below(f, 3) == 0;
  void *p = host ? any_host_ptr(f) : any_device_ptr(f);
  fuzz_buf *b = p ? holding(f, p, 0, B_NONE) : NULL;
  bool exact = b && b->ptr == p;
  if (host) {
    if (outcome(f, "aclrtFreeHost", aclrtFreeHost(p),
                exact && b->kind == B_HOST_ACL ? EXPECT_OK : EXPECT_FAIL))
      forget(f, b);
  } else if (outcome(f, "aclrtFree", aclrtFree(p),
                     exact && b->kind == B_DEVICE ? EXPECT_OK : EXPECT_FAIL)) {
    forget(f, b);
  }
}

static void fuzz_stream(fuzz *f) {
  aclrtStream s = mangle(f, pick(f, f->streams, f->dead_streams));
  int live = slot_of(f->streams, s);
  bool default_ok = !s && f->device_set;
  int32_t timeout = below(f, 4) ? -1 : (int32_t)below(f, 5) - 3;
  switch (below(f, 4)) {
    case 0: {
      int i = (int)below(f, NHANDLE);
      if (f->streams[i]) {
        outcome(f, "aclrtDestroyStream", aclrtDestroyStream(f->streams[i]), EXPECT_OK);
        bury(f->streams, f->dead_streams, i);
      }
      aclrtStream made = NULL;
      aclrtStream *out = below(f, 8) ? &made : NULL;
      if (outcome(f, "aclrtCreateStream", aclrtCreateStream(out),
                  out && f->device_set ? EXPECT_OK : EXPECT_FAIL))
        f->streams[i] = made;
      return;
    }
    case 1:
      if (outcome(f, "aclrtDestroyStream", aclrtDestroyStream(s),
                  live >= 0 ? EXPECT_OK : EXPECT_FAIL))
        bury(f->streams, f->dead_streams, live);
      return;
    case 2:
      outcome(f, "aclrtSynchronizeStreamWithTimeout", aclrtSynchronizeStreamWithTimeout(s, timeout),
              timeout < -1 || (live < 0 && !default_ok) ? EXPECT_FAIL
              : timeout < 0                             ? EXPECT_OK
                                                        : EXPECT_ANY); /* may time out */
      return;
    default: {
      aclrtEvent e = mangle(f, pick(f, f->events, f->dead_events));
      outcome(f, "aclrtStreamWaitEvent", aclrtStreamWaitEvent(s, e),
              slot_of(f->events, e) < 0 || (live < 0 && !default_ok) ? EXPECT_FAIL : EXPECT_ANY);
    }
  }
}

static void fuzz_event(fuzz *f) {
  aclrtEvent e = mangle(f, pick(f, f->events, f->dead_events));
  bool live = slot_of(f->events, e) >= 0;
  switch (below(f, 6)) {
    case 0: {
      int i = (int)below(f, NHANDLE);
      if (f->events[i]) {
        outcome(f, "aclrtDestroyEvent", aclrtDestroyEvent(f->events[i]), EXPECT_OK);
        bury(f->events, f->dead_events, i);
      }
      aclrtEvent made = NULL;
      aclrtEvent *out = below(f, 8) ? &made : NULL;
      uint32_t flag = below(f, 3) ? ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE : (uint32_t)next(f);
      bool flag_bad = flag & ~(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE);
      if (outcome(f, "aclrtCreateEventWithFlag", aclrtCreateEventWithFlag(out, flag),
                  !out || flag_bad ? EXPECT_FAIL : EXPECT_OK))
        f->events[i] = made;
      return;
    }
    case 1:
      if (outcome(f, "aclrtDestroyEvent", aclrtDestroyEvent(e), live ? EXPECT_OK : EXPECT_FAIL))
        bury(f->events, f->dead_events, slot_of(f->events, e));
      return;
    case 2: {
      aclrtStream s = mangle(f, pick(f, f->streams, f->dead_streams));
      bool stream_ok = s ? slot_of(f->streams, s) >= 0 : f->device_set;
      outcome(f, "aclrtRecordEvent", aclrtRecordEvent(e, s),
              live && stream_ok ? EXPECT_OK : EXPECT_FAIL);
      return;
    }
    case 3: {
      int32_t timeout = below(f, 3) ? -1 : (int32_t)below(f, 5) - 3;
      outcome(f, "aclrtSynchronizeEventWithTimeout", aclrtSynchronizeEventWithTimeout(e, timeout),
              live && timeout >= -1 ? EXPECT_ANY : EXPECT_FAIL);
      return;
    }
    case 4: {
      aclrtEventStatus st;
      aclrtEventRecordedStatus rst;
      bool with = below(f, 6) != 0;
      aclError got = below(f, 2) ? aclrtQueryEvent(e, with ? &st : NULL)
                                 : aclrtQueryEventStatus(e, with ? &rst : NULL);
      outcome(f, "aclrtQueryEvent", got, live && with ? EXPECT_OK : EXPECT_FAIL);
      return;
    }
    default: {
      float ms = 0;
      aclrtEvent e2 = mangle(f, pick(f, f->events, f->dead_events));
      bool with = below(f, 6) != 0;
      outcome(f, "aclrtEventElapsedTime", aclrtEventElapsedTime(with ? &ms : NULL, e, e2),
              live && with && slot_of(f->events, e2) >= 0 ? EXPECT_ANY : EXPECT_FAIL);
    }
  }
}

static void fuzz_device(fuzz *f) {
  static const int32_t ids[] = {0, 0, 0, 1, -1, INT32_MAX, INT32_MIN, 7};
  int32_t id = ids[below(f, sizeof ids / sizeof ids[0])];
  switch (below(f, 8)) {
    case 0:
      if (outcome(f, "aclrtSetDevice", aclrtSetDevice(id), id == 0 ? EXPECT_OK : EXPECT_FAIL)) {
        f->device_set = true;
        f->current = NULL;
      }
      return;
    case 1:
      /* Rare: it waits for the device and leaves the thread without one. */
      if (below(f, 4)) return;
      if (outcome(f, "aclrtResetDevice", aclrtResetDevice(id), id == 0 ? EXPECT_OK : EXPECT_FAIL))
        f->device_set = false, f->current = NULL;
      return;
    case 2: {
      int32_t d = -1;
      bool with = below(f, 6) != 0;
      outcome(f, "aclrtGetDevice", aclrtGetDevice(with ? &d : NULL),
              with && f->device_set ? EXPECT_OK : EXPECT_FAIL);
      if (with && f->device_set) assert_int_equal(d, 0);
      return;
    }
    case 3: {
      int32_t timeout = below(f, 3) ? -1 : (int32_t)below(f, 5) - 3;
      outcome(f, "aclrtSynchronizeDeviceWithTimeout", aclrtSynchronizeDeviceWithTimeout(timeout),
              timeout < -1 || !f->device_set ? EXPECT_FAIL
              : timeout < 0                  ? EXPECT_OK
                                             : EXPECT_ANY); /* may time out */
      return;
    }
    case 4: {
      size_t fr, total;
      int attr = below(f, 4) ? (int)below(f, 10) : (int)next(f);
      bool with = below(f, 6) != 0 && below(f, 6) != 0;
      outcome(f, "aclrtGetMemInfo",
              aclrtGetMemInfo((aclrtMemAttr)attr, with || below(f, 2) ? &fr : NULL,
                              with ? &total : NULL),
              with && (unsigned)attr <= ACL_HBM_MEM_P2P_HUGE1G && f->device_set ? EXPECT_ANY
                                                                                : EXPECT_FAIL);
      return;
    }
    case 5: {
      int64_t value;
      bool with = below(f, 6) != 0;
      outcome(
          f, "aclGetDeviceCapability",
          aclGetDeviceCapability((uint32_t)id, (aclDeviceInfo)below(f, 5), with ? &value : NULL),
          with && id == 0 ? EXPECT_ANY : EXPECT_FAIL);
      return;
    }
    default: {
      uint32_t n = 0;
      bool with = below(f, 6) != 0;
      outcome(f, "aclrtGetDeviceCount", aclrtGetDeviceCount(with ? &n : NULL),
              with ? EXPECT_OK : EXPECT_FAIL);
      if (with) assert_int_equal(n, 1);
    }
  }
}

static void fuzz_context(fuzz *f) {
  aclrtContext c = mangle(f, pick(f, f->contexts, f->dead_contexts));
  int live = slot_of(f->contexts, c);
  switch (below(f, 4)) {
    case 0: {
      int i = (int)below(f, NHANDLE);
      if (f->contexts[i]) {
        outcome(f, "aclrtDestroyContext", aclrtDestroyContext(f->contexts[i]), EXPECT_OK);
        if (f->current == f->contexts[i]) f->device_set = false, f->current = NULL;
        bury(f->contexts, f->dead_contexts, i);
      }
      aclrtContext made = NULL;
      int32_t id = below(f, 4) ? 0 : (int32_t)below(f, 3) - 1;
      aclrtContext *out = below(f, 8) ? &made : NULL;
      if (outcome(f, "aclrtCreateContext", aclrtCreateContext(out, id),
                  out && id == 0 ? EXPECT_OK : EXPECT_FAIL)) {
        f->contexts[i] = made;
        f->device_set = true;
        f->current = made;
      }
      return;
    }
    case 1:
      if (outcome(f, "aclrtDestroyContext", aclrtDestroyContext(c),
                  live >= 0 ? EXPECT_OK : EXPECT_FAIL)) {
        if (f->current == c) f->device_set = false, f->current = NULL;
        bury(f->contexts, f->dead_contexts, live);
      }
      return;
    case 2:
      if (outcome(f, "aclrtSetCurrentContext", aclrtSetCurrentContext(c),
                  live >= 0 ? EXPECT_OK : EXPECT_ANY)) {
        f->device_set = true;
        f->current = c;
      }
      return;
    default: {
      aclrtContext got = NULL;
      bool with = below(f, 6) != 0;
      outcome(f, "aclrtGetCurrentContext", aclrtGetCurrentContext(with ? &got : NULL),
              with ? EXPECT_ANY : EXPECT_FAIL);
    }
  }
}

/* A kernel that touches nothing: only the launch's checks are fuzzed. */
static int noop_entry(void *k, const void *args) {
  (void)k, (void)args;
  return 0;
}

static const pyasc_sim_api *noop_table;

static void fuzz_launch(fuzz *f) {
  /* Static: the launch keeps the parameter string, not a copy. */
  static const char *const params[] = {
      NULL,
      "",
      "a",
      "ai",
      "aaf",
      "ib",
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"};
  static const int nargs_of[] = {-1, 0, 1, 2, 3, 65, 1000, 2, 3};
  static const uint32_t dims[] = {1, 2, 8, 0, 65536, UINT32_MAX};
  pyasc_sim_kernel kernel = {"fuzz_noop", noop_entry, params[below(f, 7)], &noop_table, 0, 0};
  switch (below(f, 16)) {
    case 0:
      kernel.name = NULL;
      break;
    case 1:
      kernel.entry = NULL;
      break;
    case 2:
      kernel.table = NULL;
      break;
    case 3:
      kernel.all_live = (int)below(f, 6) - 1;
      break;
    default:
      break;
  }
  const pyasc_sim_kernel *kp = below(f, 10) ? &kernel : NULL;
  uint32_t dim = dims[below(f, 6) ? below(f, 3) : below(f, 6)];
  int nargs = nargs_of[below(f, 9)];
  if (kernel.params && below(f, 2)) nargs = (int)strlen(kernel.params); /* often the right count */
  pyasc_sim_arg args[3];
  bool args_bad = false;
  for (int i = 0; i < 3; i++) {
    memset(&args[i], 0, sizeof args[i]);
    bool address = kernel.params && (size_t)i < strlen(kernel.params) && kernel.params[i] == 'a';
    if (address) {
      args[i].v.p = any_device_ptr(f);
      if (i < nargs && args[i].v.p && !in_device(f, (uintptr_t)args[i].v.p)) args_bad = true;
    } else {
      args[i].v.i = (int64_t)next(f);
    }
  }
  const pyasc_sim_arg *ap = below(f, 10) ? args : NULL;
  aclrtStream stream = mangle(f, pick(f, f->streams, f->dead_streams));
  bool stream_bad = stream ? slot_of(f->streams, stream) < 0 : !f->device_set;
  size_t declared = kernel.params ? strlen(kernel.params) : 0;
  bool bad = !kp || !kernel.name || !kernel.entry || !kernel.table || nargs < 0 || nargs > 64 ||
             (nargs && !ap) || stream_bad || dim == 0 || dim > 65535 || declared > 64 ||
             (!kernel.params && nargs) || (kernel.params && declared != (size_t)nargs) || args_bad;
  aclError got = pyasc_sim_launch(kp, dim, stream, ap, nargs);
  if (outcome(f, "pyasc_sim_launch", got,
              bad               ? EXPECT_FAIL
              : kernel.all_live ? EXPECT_ANY /* cores that synchronise must all fit */
                                : EXPECT_OK))
    outcome(f, "aclrtSynchronizeStream", aclrtSynchronizeStream(stream), EXPECT_OK);
  else if (kp && kernel.name && kernel.entry && kernel.table && nargs > 0 && nargs <= 64 && !ap)
    assert_contains(f->message, "arguments in a NULL array");
}

static void fuzz_run(uint64_t seed, int ops) {
  fuzz *f = calloc(1, sizeof *f);
  assert_non_null(f);
  f->rng = seed;
  assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
  f->device_set = true;
  for (f->op = 0; f->op < ops; f->op++) {
    switch (below(f, 12)) {
      case 0:
      case 1:
        fuzz_memcpy(f, below(f, 3) == 0);
        break;
      case 2:
        fuzz_memset(f, below(f, 3) == 0);
        break;
      case 3:
      case 4:
        fuzz_alloc(f);
        break;
      case 5:
        fuzz_free(f);
        break;
      case 6:
        fuzz_stream(f);
        break;
      case 7:
        fuzz_event(f);
        break;
      case 8:
        fuzz_context(f);
        break;
      case 9:
        if (below(f, 8) == 0)
          fuzz_launch(f); /* rarer: a failed launch prints why */
        else
          fuzz_device(f);
        break;
      default:
        fuzz_memcpy(f, false);
        break;
    }
    if (f->op % 64 == 0) check_memory(f);
  }
  check_memory(f);
  /* Every call's kind ran, and the bad arguments were refused. */
  assert_true(f->failures > (unsigned long)ops / 10);
  assert_true(f->checked_calls - f->failures > (unsigned long)ops / 10);
  for (int i = 0; i < NBUF; i++) {
    fuzz_buf *b = &f->bufs[i];
    if (b->kind == B_DEVICE) assert_int_equal(aclrtFree(b->ptr), ACL_SUCCESS);
    if (b->kind == B_HOST_ACL) assert_int_equal(aclrtFreeHost(b->ptr), ACL_SUCCESS);
    if (b->kind == B_HOST_PLAIN) free(b->ptr);
    free(b->shadow);
  }
  for (int i = 0; i < NHANDLE; i++) {
    if (f->streams[i]) assert_int_equal(aclrtDestroyStream(f->streams[i]), ACL_SUCCESS);
    if (f->events[i]) assert_int_equal(aclrtDestroyEvent(f->events[i]), ACL_SUCCESS);
    if (f->contexts[i]) assert_int_equal(aclrtDestroyContext(f->contexts[i]), ACL_SUCCESS);
  }
  asc_mem_stats s;
  assert_int_equal(asc_mem_get_stats(0, &s), ASC_OK);
  assert_int_equal(s.allocated_bytes, 0); /* every refused call left nothing behind */
  free(f);
}

static int acl_setup(void **state) {
  asc_test_setup(state);
  return aclInit(NULL) == ACL_SUCCESS ? 0 : -1;
}

static int acl_teardown(void **state) {
  aclError err = aclFinalize();
  return asc_test_teardown(state) == 0 && err == ACL_SUCCESS ? 0 : -1;
}

static int fuzz_ops(void) {
  return asc_test_under_valgrind() ? OPS_VALGRIND : OPS;
}

static void test_fuzz_seed_1(void **state) {
  (void)state;
  fuzz_run(0x9e3779b97f4a7c15ull, fuzz_ops());
}

static void test_fuzz_seed_2(void **state) {
  (void)state;
  fuzz_run(0x2545f4914f6cdd1dull, fuzz_ops());
}

static void test_fuzz_seed_3(void **state) {
  (void)state;
  fuzz_run(0xd1b54a32d192ed03ull, fuzz_ops());
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_fuzz_seed_1, acl_setup, acl_teardown),
      cmocka_unit_test_setup_teardown(test_fuzz_seed_2, acl_setup, acl_teardown),
      cmocka_unit_test_setup_teardown(test_fuzz_seed_3, acl_setup, acl_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
