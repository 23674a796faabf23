/* Runtime for kernels compiled for the simulated AI cores. Generated C
 * includes this text verbatim, so it depends on nothing but libc.
 *
 * A block runs with a private Unified Buffer (k->ub). GlobalTensors are
 * byte offsets into their argument's memory; LocalTensors are byte offsets
 * into the UB. Every API call checks the ranges it touches: the UB always
 * (an error naming the source line), global memory as the device does by
 * default (outside the argument: reads give zeros, writes are dropped) and
 * as an error in checked mode. Nothing touches memory it does not own. The including source
 * defines asc_k_files, the Python files that `line` arguments index: the
 * low 20 bits are the line, the bits above index asc_k_files. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ASC_K_CHECKED
#define ASC_K_CHECKED 0 /* see "checked mode" below */
#endif

struct asc_k_chk;

/* The vector mask register (see "API coverage" below). */
typedef struct asc_k_vmask {
  int counter;   /* set_mask_count(): the low word is an element count */
  uint64_t m[2]; /* element bits of a repeat, low word first */
} asc_k_vmask;

typedef struct asc_k_ctx {
  char *ub;
  int64_t ub_size;
  int64_t block_idx;
  int64_t block_num;
  int status; /* 0 ok, 1 kernel error */
  char msg[768];
  struct asc_k_chk *chk; /* checked mode's state, owned by the kernel's entry */
  asc_k_vmask vm;        /* set by the kernel's first statement */
  void *cube;            /* the block's AIC buffers (rt/cube.h), NULL if unused */
} asc_k_ctx;

typedef struct asc_k_arg {
  union {
    int64_t i;
    double f;
    char *p;
  } v;
  int64_t n; /* bytes of the argument's memory */
} asc_k_arg;

/* Global memory is addressed by a byte offset into its argument, kept as
 * an integer: a pointer is formed only for bytes a check placed inside the
 * argument (see "size arithmetic" below). */
typedef struct asc_k_addr {
  char *base;   /* the argument's first byte */
  int64_t n;    /* bytes of the argument */
  int64_t lead; /* bytes from base to this address (any value; ASC_K_FAR) */
} asc_k_addr;

typedef struct asc_k_gt {
  char *base;
  int64_t n;
  int64_t lead;
  int64_t size; /* elements given to set_global_buffer, -1 if none */
  int64_t skip; /* elements from set_global_buffer's start to this view */
} asc_k_gt;

typedef struct asc_k_lt {
  int64_t off; /* bytes into the UB */
  int64_t len; /* elements */
} asc_k_lt;

#define ASC_K_MAX_QUES 32
struct asc_k_que;
typedef struct asc_k_pipe {
  int64_t cursor; /* next free UB byte */
  int nques;
  /* queues with buffers: a tensor may pass from one queue to another (the
   * hardware's queues only carry addresses) */
  struct asc_k_que *ques[ASC_K_MAX_QUES];
} asc_k_pipe;

#define ASC_K_MAX_DEPTH 8
/* A queued buffer: the queue that owns it and its index there. */
typedef struct asc_k_qent {
  struct asc_k_que *owner;
  int i;
} asc_k_qent;
typedef struct asc_k_que {
  int depth;
  int nbuf;
  int64_t buf_len; /* bytes per buffer */
  int64_t buf_off[ASC_K_MAX_DEPTH];
  unsigned char state[ASC_K_MAX_DEPTH];   /* 0 free, 1 allocated, 2 queued, 3 dequeued */
  struct asc_k_que *via[ASC_K_MAX_DEPTH]; /* the queue a buffer was last dequeued from */
  asc_k_qent ring[ASC_K_MAX_DEPTH];
  int head, count;
  asc_k_pipe *pipe; /* the kernel's TPipe, NULL if it has none */
#if ASC_K_CHECKED
  /* per buffer: what enque (free_tensor) saw, for deque (alloc_tensor) */
  uint32_t chk_vc[ASC_K_MAX_DEPTH][7];
#endif
} asc_k_que;

typedef struct asc_k_tbuf {
  int64_t off, len; /* bytes */
} asc_k_tbuf;

#define ASC_K_LINE(loc) ((int)((unsigned)(loc)&0xfffffu))
#define ASC_K_FILE(loc) (asc_k_files[(unsigned)(loc) >> 20])

static int asc_k_fail(asc_k_ctx *k, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), unused));
static int asc_k_fail(asc_k_ctx *k, int line, const char *fmt, ...) {
  int n = snprintf(k->msg, sizeof k->msg, "%s:%d: ", ASC_K_FILE(line), ASC_K_LINE(line));
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(k->msg + n, sizeof k->msg - (size_t)n, fmt, ap);
  va_end(ap);
  k->status = 1;
  return 1;
}

/* --- size arithmetic ---------------------------------------------------------
 * Every size and offset the runtime derives from kernel values goes through
 * these, so no overflow is left for the C compiler to assume away. A result
 * that does not fit in int64_t is ASC_K_FAR, and FAR stays FAR through
 * further arithmetic: it is negative, so every range check rejects it, and
 * global memory treats it as outside the argument. */
#define ASC_K_FAR INT64_MIN
static inline int64_t asc_k_add(int64_t a, int64_t b) {
  int64_t r;
  if (a == ASC_K_FAR || b == ASC_K_FAR || __builtin_add_overflow(a, b, &r)) return ASC_K_FAR;
  return r;
}
static inline int64_t asc_k_sub(int64_t a, int64_t b) {
  int64_t r;
  if (a == ASC_K_FAR || b == ASC_K_FAR || __builtin_sub_overflow(a, b, &r)) return ASC_K_FAR;
  return r;
}
static inline int64_t asc_k_mul(int64_t a, int64_t b) {
  int64_t r;
  if (a == 0 || b == 0) return 0; /* FAR stands for a number too large, times 0 */
  if (a == ASC_K_FAR || b == ASC_K_FAR || __builtin_mul_overflow(a, b, &r)) return ASC_K_FAR;
  return r;
}
/* a + b * c */
static inline int64_t asc_k_madd(int64_t a, int64_t b, int64_t c) {
  return asc_k_add(a, asc_k_mul(b, c));
}
/* Whether bytes [lo, lo + len) lie inside [0, size). */
static inline int asc_k_span_in(int64_t lo, int64_t len, int64_t size) {
  return lo >= 0 && len >= 0 && lo <= size && len <= size - lo;
}

/* --- checked mode ------------------------------------------------------------
 * Kernels built with @pyasc.jit(debug=True) or PYASC_DEBUG=1 define
 * ASC_K_CHECKED 1 before this text; otherwise every check of this section
 * compiles away and the kernel runs as fast as before. On top of the
 * always-on bounds checks (UB size), checked mode stops the kernel when:
 *  - a GlobalTensor access leaves its argument or the length given to
 *    set_global_buffer (set_global_buffer itself, if the length does not
 *    fit in the argument);
 *  - a vector mask has bits beyond a repeat's elements (a length outside
 *    [1, elements per repeat], or no bits);
 *  - a LocalTensor access leaves the tensor's own extent (its length);
 *  - a GM<->UB data_copy is not whole 32-byte blocks at an aligned UB address;
 *  - an explicit LocalTensor overlaps another one or a TPipe buffer;
 *  - two pipes touch the same UB bytes with nothing ordering them. Every
 *    32-byte UB block remembers its last write (pipe, line, API) and the
 *    last read by each pipe since; every pipe P keeps a vector clock
 *    vc[P][Q], how much of pipe Q's work P is known to come after. Program
 *    order covers a pipe's own work. set_flag(SRC_DST) snapshots vc[SRC],
 *    wait_flag merges it into vc[DST] (so orderings compose);
 *    pipe_barrier(PIPE_ALL) merges everything into every pipe; a TQue
 *    buffer carries everything issued before enque to deque, and before
 *    free_tensor to the next alloc_tensor. An access not covered is a
 *    missing synchronisation, reported with both lines and the HardEvent;
 *  - wait_flag finds no pending set_flag (real hardware would hang).
 * Cost: a shadow record per 32-byte UB block (about 100 bytes, allocated
 * per block run) and, per UB access, a walk over the blocks it touches.
 *
 * Plugging in a new API:
 *  - touch the UB only through asc_k_ub_use(k, pipe, tensor, count, esize,
 *    ASC_K_READ or ASC_K_WRITE, api, operand, line): the bounds check
 *    always, the extent and hazard checks in checked mode. Use the pipe
 *    the instruction runs on (vector instructions ASC_K_V) and check the
 *    sources before the destination;
 *  - touch GM only through asc_k_gm_range (the checks) and then
 *    asc_k_gm_read/asc_k_gm_write (clipped to the argument);
 *  - a new ordering point (a framework call that synchronises) snapshots
 *    with asc_k_chk_snapshot and merges with asc_k_chk_learn_all;
 *  - ops that only make views (slices) are checked by the emitter:
 *    emit_c.c, emit_checks(). */
/* Pipes as the checker numbers them: those that touch the UB first. */
enum { ASC_K_S, ASC_K_V, ASC_K_MTE1, ASC_K_MTE2, ASC_K_MTE3, ASC_K_M, ASC_K_FIX, ASC_K_NPIPES };
#define ASC_K_UB_PIPES 5
enum { ASC_K_READ, ASC_K_WRITE };

#if ASC_K_CHECKED
#define ASC_K_GRAN 32 /* the data block: the unit MTEs move */
#define ASC_K_NEVENTS 35
#define ASC_K_NEVENT_IDS 8
#define ASC_K_MAX_ALLOCS 128

typedef struct asc_k_site {
  uint32_t epoch; /* the pipe's instruction count at the access; 0: none */
  uint32_t line;
  uint32_t seq; /* program order over all pipes, to report the latest conflict */
  const char *api;
} asc_k_site;

typedef struct asc_k_gran {
  asc_k_site w;                 /* the last write */
  asc_k_site r[ASC_K_UB_PIPES]; /* the last read by each pipe since */
  unsigned char w_pipe;
} asc_k_gran;

typedef struct asc_k_flag {
  uint32_t vc[ASC_K_NPIPES];
  int set;
} asc_k_flag;

enum { ASC_K_ALLOC_LOCAL, ASC_K_ALLOC_QUE, ASC_K_ALLOC_TBUF };
typedef struct asc_k_alloc {
  int64_t lo, hi; /* UB bytes */
  int line, kind;
} asc_k_alloc;

struct asc_k_chk {
  uint32_t vc[ASC_K_NPIPES][ASC_K_NPIPES];
  asc_k_flag flags[ASC_K_NEVENTS][ASC_K_NEVENT_IDS];
  asc_k_alloc allocs[ASC_K_MAX_ALLOCS]; /* live UB allocations */
  int nallocs;
  uint32_t seq;
  int64_t ngran;
  asc_k_gran gran[];
};

static const char *const asc_k_pipe_names[ASC_K_NPIPES] = {"S",    "V", "MTE1", "MTE2",
                                                           "MTE3", "M", "FIX"};
/* HardEvent value -> (source pipe, destination pipe). */
static const unsigned char asc_k_events[ASC_K_NEVENTS][2] = {
    {ASC_K_MTE2, ASC_K_MTE1}, {ASC_K_MTE1, ASC_K_MTE2}, {ASC_K_MTE1, ASC_K_M},
    {ASC_K_M, ASC_K_MTE1},    {ASC_K_MTE2, ASC_K_V},    {ASC_K_V, ASC_K_MTE2},
    {ASC_K_MTE3, ASC_K_V},    {ASC_K_V, ASC_K_MTE3},    {ASC_K_M, ASC_K_V},
    {ASC_K_V, ASC_K_M},       {ASC_K_V, ASC_K_V},       {ASC_K_MTE3, ASC_K_MTE1},
    {ASC_K_MTE1, ASC_K_MTE3}, {ASC_K_MTE1, ASC_K_V},    {ASC_K_MTE2, ASC_K_M},
    {ASC_K_M, ASC_K_MTE2},    {ASC_K_V, ASC_K_MTE1},    {ASC_K_M, ASC_K_FIX},
    {ASC_K_FIX, ASC_K_M},     {ASC_K_MTE3, ASC_K_MTE2}, {ASC_K_MTE2, ASC_K_MTE3},
    {ASC_K_S, ASC_K_V},       {ASC_K_V, ASC_K_S},       {ASC_K_S, ASC_K_MTE2},
    {ASC_K_MTE2, ASC_K_S},    {ASC_K_S, ASC_K_MTE3},    {ASC_K_MTE3, ASC_K_S},
    {ASC_K_MTE2, ASC_K_FIX},  {ASC_K_FIX, ASC_K_MTE2},  {ASC_K_FIX, ASC_K_S},
    {ASC_K_M, ASC_K_S},       {ASC_K_FIX, ASC_K_MTE3},  {ASC_K_MTE1, ASC_K_FIX},
    {ASC_K_FIX, ASC_K_MTE1},  {ASC_K_FIX, ASC_K_FIX}};

static inline int asc_k_chk_begin(asc_k_ctx *k) {
  int64_t ngran = (k->ub_size + ASC_K_GRAN - 1) / ASC_K_GRAN;
  k->chk = calloc(1, sizeof(struct asc_k_chk) + (size_t)ngran * sizeof(asc_k_gran));
  if (!k->chk) return asc_k_fail(k, 0, "checked mode: no memory for the Unified Buffer shadow");
  k->chk->ngran = ngran;
  return 0;
}
static inline void asc_k_chk_end(asc_k_ctx *k) {
  free(k->chk);
  k->chk = NULL;
}

/* Everything issued so far, on any pipe. */
static inline void asc_k_chk_snapshot(const asc_k_ctx *k, uint32_t out[ASC_K_NPIPES]) {
  for (int q = 0; q < ASC_K_NPIPES; q++) {
    uint32_t m = 0;
    for (int p = 0; p < ASC_K_NPIPES; p++)
      if (k->chk->vc[p][q] > m) m = k->chk->vc[p][q];
    out[q] = m;
  }
}
static inline void asc_k_chk_learn(asc_k_ctx *k, int pipe, const uint32_t in[ASC_K_NPIPES]) {
  for (int q = 0; q < ASC_K_NPIPES; q++)
    if (in[q] > k->chk->vc[pipe][q]) k->chk->vc[pipe][q] = in[q];
}
static inline void asc_k_chk_learn_all(asc_k_ctx *k, const uint32_t in[ASC_K_NPIPES]) {
  for (int p = 0; p < ASC_K_NPIPES; p++) asc_k_chk_learn(k, p, in);
}

static inline int asc_k_event_of(int src, int dst) {
  for (int e = 0; e < ASC_K_NEVENTS; e++)
    if (asc_k_events[e][0] == src && asc_k_events[e][1] == dst) return e;
  return -1;
}

/* The missing-synchronisation report: the blocks from g on that share the
 * conflicting access, clipped to this access. */
static inline int asc_k_chk_report(asc_k_ctx *k, int pipe, int64_t off, int64_t bytes, int write,
                                   const char *api, const char *operand, int line, int64_t g,
                                   int other, const asc_k_site *s, int other_read) {
  struct asc_k_chk *c = k->chk;
  int64_t h = g + 1, end = off + bytes;
  while (h * ASC_K_GRAN < end &&
         (other_read ? c->gran[h].r[other].epoch == s->epoch
                     : c->gran[h].w.epoch == s->epoch && c->gran[h].w_pipe == other))
    h++;
  int64_t lo = g * ASC_K_GRAN > off ? g * ASC_K_GRAN : off;
  int64_t hi = h * ASC_K_GRAN < end ? h * ASC_K_GRAN : end;
  char fix[160];
  if (asc_k_event_of(other, pipe) >= 0)
    snprintf(fix, sizeof fix,
             "set_flag(HardEvent.%s_%s, id) after line %d and wait_flag(HardEvent.%s_%s, id) "
             "before line %d",
             asc_k_pipe_names[other], asc_k_pipe_names[pipe], ASC_K_LINE(s->line),
             asc_k_pipe_names[other], asc_k_pipe_names[pipe], ASC_K_LINE(line));
  else
    snprintf(fix, sizeof fix, "pipe_barrier(PipeID.PIPE_ALL) between line %d and line %d",
             ASC_K_LINE(s->line), ASC_K_LINE(line));
  return asc_k_fail(k, line,
                    "%s: missing synchronisation (%s): %s %s UB bytes [%lld, %lld) on pipe %s, "
                    "but %s at line %d %s bytes [%lld, %lld) on pipe %s and nothing orders that "
                    "before this; add %s",
                    api,
                    other_read ? "write-after-read"
                    : write    ? "write-after-write"
                               : "read-after-write",
                    operand, write ? "writes" : "reads", (long long)off, (long long)end,
                    asc_k_pipe_names[pipe], s->api, ASC_K_LINE(s->line),
                    other_read ? "read" : "wrote", (long long)lo, (long long)hi,
                    asc_k_pipe_names[other], fix);
}

/* One access of pipe `pipe` to UB bytes [off, off + bytes), in range. */
static inline int asc_k_chk_hazard(asc_k_ctx *k, int pipe, int64_t off, int64_t bytes, int write,
                                   const char *api, const char *operand, int line) {
  struct asc_k_chk *c = k->chk;
  if (bytes <= 0) return 0;
  uint32_t *seen = c->vc[pipe];
  asc_k_site site = {++seen[pipe], (uint32_t)line, ++c->seq, api};
  int64_t g1 = (off + bytes + ASC_K_GRAN - 1) / ASC_K_GRAN;
  for (int64_t g = off / ASC_K_GRAN; g < g1; g++) {
    asc_k_gran *s = &c->gran[g];
    /* Of several unordered accesses, report the latest: ordering after it
     * usually orders after the others too. */
    const asc_k_site *worst = NULL;
    int other = 0;
    if (s->w.epoch && s->w_pipe != pipe && seen[s->w_pipe] < s->w.epoch)
      worst = &s->w, other = s->w_pipe;
    for (int q = 0; write && q < ASC_K_UB_PIPES; q++)
      if (q != pipe && s->r[q].epoch && seen[q] < s->r[q].epoch &&
          (!worst || s->r[q].seq > worst->seq))
        worst = &s->r[q], other = q;
    if (worst)
      return asc_k_chk_report(k, pipe, off, bytes, write, api, operand, line, g, other, worst,
                              worst != &s->w);
    if (write) {
      /* Later accesses ordered after this write are ordered after the
       * reads it was checked against: forget them. */
      for (int q = 0; q < ASC_K_UB_PIPES; q++) s->r[q].epoch = 0;
      s->w = site;
      s->w_pipe = (unsigned char)pipe;
    } else {
      s->r[pipe] = site;
    }
  }
  return 0;
}

static inline int asc_k_chk_extent(asc_k_ctx *k, asc_k_lt t, int64_t count, int64_t esize,
                                   const char *api, const char *operand, int line) {
  if (count <= t.len || count == 0) return 0;
  if (t.len < 0)
    return asc_k_fail(k, line,
                      "%s: %s is a view starting %lld elements past the end of its LocalTensor "
                      "(a slice beyond its extent)",
                      api, operand, (long long)asc_k_sub(0, t.len));
  return asc_k_fail(k, line,
                    "%s: %s accesses %lld elements (UB bytes [%lld, %lld)) but the LocalTensor "
                    "holds only %lld (bytes [%lld, %lld))",
                    api, operand, (long long)count, (long long)t.off,
                    (long long)asc_k_madd(t.off, count, esize), (long long)t.len, (long long)t.off,
                    (long long)asc_k_madd(t.off, t.len, esize));
}

/* GM<->UB data_copy moves whole data blocks between aligned addresses. */
static inline int asc_k_chk_blocks(asc_k_ctx *k, asc_k_lt t, int64_t count, int64_t esize,
                                   int line) {
  int64_t bytes = asc_k_mul(count, esize);
  if (bytes % ASC_K_GRAN)
    return asc_k_fail(k, line,
                      "data_copy: %lld elements are %lld bytes, not whole 32-byte data blocks; "
                      "use data_copy_pad for lengths that are not a multiple of 32 bytes",
                      (long long)count, (long long)bytes);
  if (t.off % ASC_K_GRAN)
    return asc_k_fail(k, line,
                      "data_copy: the LocalTensor starts at UB byte %lld, which is not 32-byte "
                      "aligned; use an aligned tensor (or data_copy_pad)",
                      (long long)t.off);
  return 0;
}

static inline const char *asc_k_alloc_name(int kind) {
  return kind == ASC_K_ALLOC_LOCAL ? "LocalTensor"
         : kind == ASC_K_ALLOC_QUE ? "TQue buffer"
                                   : "TBuf";
}

/* A new live UB allocation. A LocalTensor made again at the same line
 * replaces its earlier self (loops re-create tensors). */
static inline int asc_k_chk_alloc(asc_k_ctx *k, int64_t lo, int64_t hi, int kind, const char *api,
                                  int line) {
  struct asc_k_chk *c = k->chk;
  if (hi <= lo) return 0;
  int same = -1;
  for (int i = 0; i < c->nallocs; i++) {
    const asc_k_alloc *a = &c->allocs[i];
    if (kind == ASC_K_ALLOC_LOCAL && a->kind == ASC_K_ALLOC_LOCAL && a->line == line) {
      same = i;
      continue;
    }
    if (a->lo < hi && lo < a->hi)
      return asc_k_fail(k, line,
                        "%s: the %s at UB bytes [%lld, %lld) overlaps the %s at bytes [%lld, "
                        "%lld) from line %d; live Unified Buffer allocations must not overlap",
                        api, asc_k_alloc_name(kind), (long long)lo, (long long)hi,
                        asc_k_alloc_name(a->kind), (long long)a->lo, (long long)a->hi,
                        ASC_K_LINE(a->line));
  }
  if (same < 0 && c->nallocs < ASC_K_MAX_ALLOCS) same = c->nallocs++;
  if (same >= 0) {
    asc_k_alloc a = {lo, hi, line, kind};
    c->allocs[same] = a;
  }
  return 0;
}

/* LocalTensor(dtype, pos, addr, len): aligned, and overlapping nothing. */
static inline int asc_k_chk_local_new(asc_k_ctx *k, asc_k_lt t, int64_t esize, int line) {
  if (t.off % ASC_K_GRAN)
    return asc_k_fail(k, line, "LocalTensor: UB address %lld is not 32-byte aligned",
                      (long long)t.off);
  if (t.len < 0) return asc_k_fail(k, line, "LocalTensor: negative length %lld", (long long)t.len);
  return asc_k_chk_alloc(k, t.off, asc_k_madd(t.off, t.len, esize), ASC_K_ALLOC_LOCAL,
                         "LocalTensor", line);
}

/* TPipe.reset/destroy: the pipe's buffers are gone. */
static inline void asc_k_chk_pipe_reset(asc_k_ctx *k) {
  struct asc_k_chk *c = k->chk;
  int n = 0;
  for (int i = 0; i < c->nallocs; i++)
    if (c->allocs[i].kind == ASC_K_ALLOC_LOCAL) c->allocs[n++] = c->allocs[i];
  c->nallocs = n;
}

static inline asc_k_flag *asc_k_chk_flag(asc_k_ctx *k, int64_t event, int64_t id, const char *api,
                                         int line) {
  if (event < 0 || event >= ASC_K_NEVENTS) {
    asc_k_fail(k, line, "%s: unknown HardEvent %lld", api, (long long)event);
    return NULL;
  }
  if (id < 0 || id >= ASC_K_NEVENT_IDS) {
    asc_k_fail(k, line, "%s(HardEvent.%s_%s, %lld): event ids are 0 to %d", api,
               asc_k_pipe_names[asc_k_events[event][0]], asc_k_pipe_names[asc_k_events[event][1]],
               (long long)id, ASC_K_NEVENT_IDS - 1);
    return NULL;
  }
  return &k->chk->flags[event][id];
}
static inline int asc_k_chk_set_flag(asc_k_ctx *k, int64_t event, int64_t id, int line) {
  asc_k_flag *f = asc_k_chk_flag(k, event, id, "set_flag", line);
  if (!f) return 1;
  memcpy(f->vc, k->chk->vc[asc_k_events[event][0]], sizeof f->vc);
  f->set = 1;
  return 0;
}
static inline int asc_k_chk_wait_flag(asc_k_ctx *k, int64_t event, int64_t id, int line) {
  asc_k_flag *f = asc_k_chk_flag(k, event, id, "wait_flag", line);
  if (!f) return 1;
  const char *src = asc_k_pipe_names[asc_k_events[event][0]];
  const char *dst = asc_k_pipe_names[asc_k_events[event][1]];
  if (!f->set)
    return asc_k_fail(k, line,
                      "wait_flag(HardEvent.%s_%s, %lld) has no matching set_flag before it: real "
                      "hardware would wait here forever (deadlock); add set_flag(HardEvent.%s_%s, "
                      "%lld) before it",
                      src, dst, (long long)id, src, dst, (long long)id);
  asc_k_chk_learn(k, asc_k_events[event][1], f->vc);
  f->set = 0;
  return 0;
}
static inline int asc_k_chk_barrier(asc_k_ctx *k, int64_t pipe_id, int line) {
  if (pipe_id == 0) /* PipeID.PIPE_S */
    return asc_k_fail(k, line,
                      "pipe_barrier(PipeID.PIPE_S) is a hardware error: the scalar pipe is "
                      "already in order");
  if (pipe_id == 6) { /* PipeID.PIPE_ALL */
    uint32_t all[ASC_K_NPIPES];
    asc_k_chk_snapshot(k, all);
    asc_k_chk_learn_all(k, all);
  }
  return 0; /* one pipe's barrier: its own work is in order already */
}
#endif /* ASC_K_CHECKED */

/* --- float16 / bfloat16 ---------------------------------------------------- */
static inline float asc_k_h2f(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu, u;
  float f;
  if (exp == 0x1f)
    u = sign | 0x7f800000u | (mant << 13);
  else if (exp == 0) {
    f = (float)mant * 5.9604644775390625e-8f;
    return sign ? -f : f;
  } else
    u = sign | ((exp + 112) << 23) | (mant << 13);
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline uint16_t asc_k_f2h(float value) {
  uint32_t x;
  memcpy(&x, &value, sizeof x);
  uint32_t sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
  if (a > 0x7f800000u) {
    uint32_t nan = 0x7c00u + ((a & 0x7fffffu) >> 13);
    return (uint16_t)(sign | (nan == 0x7c00u ? nan + 1 : nan));
  }
  if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);
  if (a < 0x38800000u) {
    float s;
    memcpy(&s, &a, sizeof s);
    return (uint16_t)(sign | (uint32_t)nearbyintf(s * 16777216.0f));
  }
  a += 0xfffu + ((a >> 13) & 1u);
  return (uint16_t)(sign | ((a - 0x38000000u) >> 13));
}

/* --- scalar arithmetic ------------------------------------------------------
 * Run-time integers divide as in PyAsc (and C): `/` and `//` truncate toward
 * zero and `%` takes the dividend's sign; compile-time values were folded by
 * Python already. Division by zero stops the kernel; INT64_MIN / -1 wraps. */
static inline int asc_k_floordiv(asc_k_ctx *k, int64_t a, int64_t b, int64_t *r, int line) {
  if (b == 0) return asc_k_fail(k, line, "integer division or modulo by zero");
  *r = b == -1 ? (int64_t)(0 - (uint64_t)a) : a / b;
  return 0;
}
static inline int asc_k_mod(asc_k_ctx *k, int64_t a, int64_t b, int64_t *r, int line) {
  if (b == 0) return asc_k_fail(k, line, "integer division or modulo by zero");
  *r = b == -1 ? 0 : a % b;
  return 0;
}
static inline double asc_k_fmod(double a, double b) {
  double m = fmod(a, b);
  if (m != 0 && ((b < 0) != (m < 0))) m += b;
  return m;
}
static inline int64_t asc_k_ipow(int64_t base, int64_t e) {
  uint64_t r = 1, b = (uint64_t)base;
  while (e > 0) {
    if (e & 1) r *= b;
    b *= b;
    e >>= 1;
  }
  return (int64_t)r;
}

/* --- global memory -----------------------------------------------------------
 * A GM access outside its argument is no error by default, as on the device:
 * a read there returns unspecified values (zeros here, deterministically) and
 * a write there is dropped, so that host memory beyond the argument is never
 * touched. Checked mode reports such an access as the bug it is, and also one
 * that leaves the length given to set_global_buffer. */
static inline asc_k_addr asc_k_addr_offset(asc_k_addr a, int64_t elements, int64_t size) {
  a.lead = asc_k_madd(a.lead, elements, size);
  return a;
}
static inline int asc_k_global_new(asc_k_ctx *k, asc_k_gt *g, asc_k_addr a, int64_t size,
                                   int64_t esize, int line) {
#if ASC_K_CHECKED
  if (a.lead == ASC_K_FAR || a.lead > a.n)
    return asc_k_fail(k, line, "set_global_buffer: address is past the end of its argument");
  if (a.lead < 0)
    return asc_k_fail(k, line,
                      "set_global_buffer: address is %lld bytes before the start of its argument",
                      (long long)-a.lead);
  int64_t bytes = asc_k_mul(size, esize);
  if (size >= 0 && (bytes < 0 || bytes > a.n - a.lead))
    return asc_k_fail(k, line,
                      "set_global_buffer: %lld elements exceed the %lld bytes left in the argument",
                      (long long)size, (long long)(a.n - a.lead));
#else
  (void)k, (void)esize, (void)line;
#endif
  g->base = a.base;
  g->n = a.n;
  g->lead = a.lead;
  g->size = size < 0 ? -1 : size;
  g->skip = 0;
  return 0;
}
static inline asc_k_gt asc_k_global_slice(asc_k_gt g, int64_t off, int64_t esize) {
  g.lead = asc_k_madd(g.lead, off, esize);
  g.skip = asc_k_add(g.skip, off);
  return g;
}
/* get_size: the elements from this view to set_global_buffer's end. */
static inline int64_t asc_k_global_size(asc_k_gt g) {
  if (g.size < 0) return 0;
  int64_t left = asc_k_sub(g.size, g.skip);
  return left < 0 ? 0 : left;
}
/* The checks before an access of count elements at element offset off of
 * g: a negative count always fails; checked mode also fails outside the
 * argument and outside set_global_buffer's length. */
static inline int asc_k_gm_range(asc_k_ctx *k, const asc_k_gt *g, int64_t off, int64_t count,
                                 int64_t esize, const char *api, int line) {
  if (count < 0)
    return asc_k_fail(k, line, "%s: negative element count %lld", api, (long long)count);
#if ASC_K_CHECKED
  if (!asc_k_span_in(asc_k_madd(g->lead, off, esize), asc_k_mul(count, esize), g->n))
    return asc_k_fail(k, line,
                      "%s: global memory access of %lld elements at offset %lld is outside the "
                      "argument (%lld bytes left)",
                      api, (long long)count, (long long)off, (long long)asc_k_sub(g->n, g->lead));
  int64_t first = asc_k_add(g->skip, off), end = asc_k_add(first, count);
  if (g->size >= 0 && (first < 0 || end < 0 || end > g->size))
    return asc_k_fail(k, line,
                      "%s: global memory elements [%lld, %lld) are outside the %lld elements "
                      "bound by set_global_buffer (this view starts at element %lld of them)",
                      api, (long long)first, (long long)end, (long long)g->size,
                      (long long)g->skip);
#else
  (void)g, (void)off, (void)esize;
#endif
  return 0;
}
/* The part of bytes [at, at + bytes) of g's argument inside it, as
 * [*lo, *hi); 0 if none. bytes is at most a UB span. */
static inline int asc_k_gm_clip(const asc_k_gt *g, int64_t at, int64_t bytes, int64_t *lo,
                                int64_t *hi) {
  int64_t end = asc_k_add(at, bytes);
  if (at == ASC_K_FAR || end == ASC_K_FAR || at >= g->n || end <= 0 || bytes <= 0) return 0;
  *lo = at < 0 ? 0 : at;
  *hi = end > g->n ? g->n : end;
  return 1;
}
/* Reads bytes [at, at + bytes) of the argument (at counted from its start)
 * into dst; bytes outside it read as zeros. */
static inline void asc_k_gm_read(const asc_k_gt *g, int64_t at, char *dst, int64_t bytes) {
  int64_t lo, hi;
  if (!asc_k_gm_clip(g, at, bytes, &lo, &hi)) {
    if (bytes > 0) memset(dst, 0, (size_t)bytes);
    return;
  }
  memset(dst, 0, (size_t)(lo - at));
  memcpy(dst + (lo - at), g->base + lo, (size_t)(hi - lo));
  memset(dst + (hi - at), 0, (size_t)(at + bytes - hi));
}
static inline void asc_k_store_gm(char *dst, const char *src, size_t n);
/* Writes src to bytes [at, at + bytes) of the argument; what falls
 * outside it is dropped. */
static inline void asc_k_gm_write(const asc_k_gt *g, int64_t at, const char *src, int64_t bytes) {
  int64_t lo, hi;
  if (asc_k_gm_clip(g, at, bytes, &lo, &hi))
    asc_k_store_gm(g->base + lo, src + (lo - at), (size_t)(hi - lo));
}

/* --- the Unified Buffer ---------------------------------------------------- */
static inline int asc_k_ub_range(asc_k_ctx *k, asc_k_lt t, int64_t count, int64_t esize,
                                 const char *api, int line) {
#if ASC_K_CHECKED
  if (count >= 0 && asc_k_chk_extent(k, t, count, esize, api, "an operand", line)) return 1;
#endif
  if (count < 0 || !asc_k_span_in(t.off, asc_k_mul(count, esize), k->ub_size))
    return asc_k_fail(k, line,
                      "%s: %lld elements at UB byte %lld overrun the %lld-byte Unified Buffer", api,
                      (long long)count, (long long)t.off, (long long)k->ub_size);
  return 0;
}
/* An instruction on `pipe` reading or writing count elements of t; see
 * "checked mode" above. */
static inline int asc_k_ub_use(asc_k_ctx *k, int pipe, asc_k_lt t, int64_t count, int64_t esize,
                               int write, const char *api, const char *operand, int line) {
#if ASC_K_CHECKED
  if (count >= 0 && asc_k_chk_extent(k, t, count, esize, api, operand, line)) return 1;
  if (asc_k_ub_range(k, t, count, esize, api, line)) return 1;
  return asc_k_chk_hazard(k, pipe, t.off, count * esize, write, api, operand, line);
#else
  (void)pipe, (void)write, (void)operand;
  return asc_k_ub_range(k, t, count, esize, api, line);
#endif
}
/* get_value/set_value: index i inside the tensor (checked mode). */
static inline int asc_k_index_check(asc_k_ctx *k, asc_k_lt t, int64_t i, const char *api,
                                    int line) {
#if ASC_K_CHECKED
  if (i >= t.len)
    return asc_k_fail(k, line, "%s: index %lld is outside the LocalTensor's %lld elements", api,
                      (long long)i, (long long)(t.len > 0 ? t.len : 0));
#else
  (void)k, (void)t, (void)i, (void)api, (void)line;
#endif
  return 0;
}
static inline asc_k_lt asc_k_local_new(int64_t addr, int64_t len) {
  asc_k_lt t = {addr, len};
  return t;
}
static inline int asc_k_local_check(asc_k_ctx *k, asc_k_lt t, int64_t esize, int line) {
  if (t.off < 0 || t.len < 0 || t.off > k->ub_size || t.len > (k->ub_size - t.off) / esize)
    return asc_k_fail(k, line,
                      "LocalTensor: %lld elements at UB byte %lld fall outside the %lld-byte "
                      "Unified Buffer",
                      (long long)t.len, (long long)t.off, (long long)k->ub_size);
  return 0;
}
static inline asc_k_lt asc_k_local_slice(asc_k_lt t, int64_t off, int64_t esize) {
  asc_k_lt r = {asc_k_madd(t.off, off, esize), asc_k_sub(t.len, off)};
  return r;
}
/* reinterpret_cast: the same bytes as elements of another size. */
static inline asc_k_lt asc_k_local_cast(asc_k_lt t, int64_t from, int64_t to) {
  int64_t bytes = asc_k_mul(t.len, from);
  asc_k_lt r = {t.off, bytes == ASC_K_FAR ? ASC_K_FAR : bytes / to};
  return r;
}

/* --- TPipe, TQue, TBuf --------------------------------------------------------- */
static inline int asc_k_pipe_take(asc_k_ctx *k, asc_k_pipe *p, int64_t bytes, int64_t *off,
                                  const char *api, int line) {
  int64_t aligned = asc_k_mul(asc_k_add(bytes, 31) / 32, 32);
  if (bytes < 0 || !asc_k_span_in(p->cursor, aligned, k->ub_size))
    return asc_k_fail(k, line,
                      "%s: Unified Buffer overflow: %lld more bytes at byte %lld exceed the "
                      "%lld-byte UB",
                      api, (long long)aligned, (long long)p->cursor, (long long)k->ub_size);
  *off = p->cursor;
  p->cursor += aligned;
  return 0;
}
/* TPipe.reset/destroy: the pipe's buffers are gone. */
static inline void asc_k_pipe_reset(asc_k_pipe *p) {
  p->cursor = 0;
  p->nques = 0;
}
static inline int asc_k_init_buffer(asc_k_ctx *k, asc_k_pipe *p, asc_k_que *q, int64_t num,
                                    int64_t len, int line) {
  if (num < 1 || num > ASC_K_MAX_DEPTH)
    return asc_k_fail(k, line, "init_buffer: buffer count must be in [1, %d], got %lld",
                      ASC_K_MAX_DEPTH, (long long)num);
  int known = 0;
  for (int j = 0; j < p->nques; j++) known |= p->ques[j] == q;
  if (!known) {
    if (p->nques == ASC_K_MAX_QUES)
      return asc_k_fail(k, line, "init_buffer: more than %d queues in one TPipe", ASC_K_MAX_QUES);
    p->ques[p->nques++] = q;
  }
  q->pipe = p;
  q->nbuf = (int)num;
  q->buf_len = len;
  q->head = q->count = 0;
  for (int i = 0; i < q->nbuf; i++) {
    q->state[i] = 0;
    q->via[i] = NULL;
    if (asc_k_pipe_take(k, p, len, &q->buf_off[i], "init_buffer", line)) return 1;
#if ASC_K_CHECKED
    memset(q->chk_vc[i], 0, sizeof q->chk_vc[i]);
    if (asc_k_chk_alloc(k, q->buf_off[i], p->cursor, ASC_K_ALLOC_QUE, "init_buffer", line))
      return 1;
#endif
  }
  return 0;
}
static inline int asc_k_init_tbuf(asc_k_ctx *k, asc_k_pipe *p, asc_k_tbuf *b, int64_t len,
                                  int line) {
  b->len = len;
#if ASC_K_CHECKED
  if (asc_k_pipe_take(k, p, len, &b->off, "init_buffer", line)) return 1;
  return asc_k_chk_alloc(k, b->off, p->cursor, ASC_K_ALLOC_TBUF, "init_buffer", line);
#else
  return asc_k_pipe_take(k, p, len, &b->off, "init_buffer", line);
#endif
}
/* TBuf.get(dtype[, len]) (len < 0: the whole buffer), get_with_offset and
 * alloc_tensor (the whole buffer; its free_tensor does nothing). */
static inline int asc_k_tbuf_get(asc_k_ctx *k, const asc_k_tbuf *b, int64_t len, int64_t esize,
                                 asc_k_lt *t, int line) {
  t->off = b->off;
  t->len = len < 0 ? b->len / esize : len;
#if ASC_K_CHECKED
  int64_t bytes = asc_k_mul(len, esize);
  if (len >= 0 && (bytes < 0 || bytes > b->len))
    return asc_k_fail(k, line, "TBuf.get: %lld elements exceed the %lld-byte buffer",
                      (long long)len, (long long)b->len);
#else
  (void)k, (void)line;
#endif
  return 0;
}
static inline int asc_k_tbuf_get_with_offset(asc_k_ctx *k, const asc_k_tbuf *b, int64_t size,
                                             int64_t offset, int64_t esize, asc_k_lt *t, int line) {
  t->off = asc_k_add(b->off, offset);
  t->len = size;
#if ASC_K_CHECKED
  int64_t end = asc_k_madd(offset, size, esize);
  if (offset < 0 || offset % 32 || size < 0 || end < 0 || end > b->len)
    return asc_k_fail(k, line,
                      "TBuf.get_with_offset: %lld elements at byte %lld leave the %lld-byte "
                      "buffer (the offset must be a multiple of 32)",
                      (long long)size, (long long)offset, (long long)b->len);
#else
  (void)k, (void)esize, (void)line;
#endif
  return 0;
}
static inline int asc_k_alloc_tensor(asc_k_ctx *k, asc_k_que *q, asc_k_lt *t, int64_t esize,
                                     int line) {
  if (!q->nbuf)
    return asc_k_fail(k, line, "alloc_tensor: the queue has no buffers (call init_buffer)");
  for (int i = 0; i < q->nbuf; i++)
    if (q->state[i] == 0) {
      q->state[i] = 1;
      q->via[i] = NULL;
      t->off = q->buf_off[i];
      t->len = q->buf_len / esize;
#if ASC_K_CHECKED
      asc_k_chk_learn_all(k, q->chk_vc[i]);
#endif
      return 0;
    }
  return asc_k_fail(k, line,
                    "alloc_tensor: all %d buffers of the queue are in use; free_tensor one first "
                    "(real hardware would hang here)",
                    q->nbuf);
}
static inline int asc_k_find_buffer(const asc_k_que *q, asc_k_lt t) {
  for (int i = 0; i < q->nbuf; i++)
    if (q->buf_off[i] == t.off) return i;
  return -1;
}
/* The queue buffer at t's address: this queue's, else another queue's of
 * the pipe (a tensor dequeued from one queue may be enqueued into another,
 * as the hardware's queues pass addresses). */
static inline asc_k_qent asc_k_locate(asc_k_que *q, asc_k_lt t) {
  asc_k_qent e = {q, asc_k_find_buffer(q, t)};
  for (int j = 0; e.i < 0 && q->pipe && j < q->pipe->nques; j++) {
    e.owner = q->pipe->ques[j];
    e.i = asc_k_find_buffer(e.owner, t);
  }
  return e;
}
static inline int asc_k_enque(asc_k_ctx *k, asc_k_que *q, asc_k_lt t, int line) {
  asc_k_qent e = asc_k_locate(q, t);
  if (e.i < 0)
    return asc_k_fail(k, line,
                      "enque: the tensor is not a TQue buffer (enque takes tensors from "
                      "alloc_tensor or deque)");
  unsigned char st = e.owner->state[e.i];
  if (st == 0 || st == 2)
    return asc_k_fail(k, line, "enque: the tensor's buffer is %s",
                      st == 2 ? "already enqueued" : "free (free_tensor came before enque)");
  if (q->count >= q->depth)
    return asc_k_fail(k, line, "enque: the queue already holds its depth of %d tensors", q->depth);
  e.owner->state[e.i] = 2;
  q->ring[(q->head + q->count++) % ASC_K_MAX_DEPTH] = e;
#if ASC_K_CHECKED
  asc_k_chk_snapshot(k, e.owner->chk_vc[e.i]);
#endif
  return 0;
}
static inline int asc_k_deque(asc_k_ctx *k, asc_k_que *q, asc_k_lt *t, int64_t esize, int line) {
  if (q->count == 0)
    return asc_k_fail(k, line, "deque on an empty queue (real hardware would hang here)");
  asc_k_qent e = q->ring[q->head];
  q->head = (q->head + 1) % ASC_K_MAX_DEPTH;
  q->count--;
  e.owner->state[e.i] = 3;
  e.owner->via[e.i] = q;
  t->off = e.owner->buf_off[e.i];
  t->len = e.owner->buf_len / esize;
#if ASC_K_CHECKED
  asc_k_chk_learn_all(k, e.owner->chk_vc[e.i]);
#endif
  return 0;
}
/* free_tensor through the queue that owns the buffer or the one it was
 * dequeued from; through any other queue of the pipe the buffer is freed
 * too (as on the device) but checked mode reports it. */
static inline int asc_k_free_tensor(asc_k_ctx *k, asc_k_que *q, asc_k_lt t, int line) {
  asc_k_qent e = asc_k_locate(q, t);
  unsigned char st = e.i < 0 ? 0 : e.owner->state[e.i];
  if (e.i < 0 || st == 0 || st == 2 || (ASC_K_CHECKED && e.owner != q && e.owner->via[e.i] != q))
    return asc_k_fail(k, line,
                      "free_tensor: the tensor is not one this queue handed out (or it is "
                      "already free or still queued)");
  e.owner->state[e.i] = 0;
  e.owner->via[e.i] = NULL;
#if ASC_K_CHECKED
  asc_k_chk_snapshot(k, e.owner->chk_vc[e.i]);
#endif
  return 0;
}

/* --- data movement --------------------------------------------------------- */
static inline int asc_k_copy_gm_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_gt src, int64_t count,
                                   int64_t esize, int line) {
  if (asc_k_gm_range(k, &src, 0, count, esize, "data_copy", line)) return 1;
#if ASC_K_CHECKED
  if (asc_k_chk_blocks(k, dst, count, esize, line)) return 1;
#endif
  if (asc_k_ub_use(k, ASC_K_MTE2, dst, count, esize, ASC_K_WRITE, "data_copy", "dst", line))
    return 1;
  asc_k_gm_read(&src, src.lead, k->ub + dst.off, count * esize);
  return 0;
}
/* UB -> GM copies of whole tiles bypass the cache (streaming stores), as
 * the hardware's MTE3 writes global memory without reading it first. */
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
static inline void asc_k_store_gm(char *dst, const char *src, size_t n) {
  size_t head = (16 - ((uintptr_t)dst & 15)) & 15;
  if (n < 4096 || head > n) {
    memcpy(dst, src, n);
    return;
  }
  memcpy(dst, src, head);
  size_t i = head;
  for (; i + 64 <= n; i += 64)
    for (int j = 0; j < 64; j += 16)
      _mm_stream_si128((__m128i *)(dst + i + j), _mm_loadu_si128((const __m128i *)(src + i + j)));
  _mm_sfence();
  memcpy(dst + i, src + i, n - i);
}
#else
static inline void asc_k_store_gm(char *dst, const char *src, size_t n) {
  memcpy(dst, src, n);
}
#endif

static inline int asc_k_copy_ub_gm(asc_k_ctx *k, asc_k_gt dst, asc_k_lt src, int64_t count,
                                   int64_t esize, int line) {
  if (asc_k_gm_range(k, &dst, 0, count, esize, "data_copy", line)) return 1;
#if ASC_K_CHECKED
  if (asc_k_chk_blocks(k, src, count, esize, line)) return 1;
#endif
  if (asc_k_ub_use(k, ASC_K_MTE3, src, count, esize, ASC_K_READ, "data_copy", "src", line))
    return 1;
  asc_k_gm_write(&dst, dst.lead, k->ub + src.off, count * esize);
  return 0;
}
static inline int asc_k_copy_ub_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int64_t count,
                                   int64_t esize, const char *api, int line) {
  /* UB -> UB runs on the vector unit (MTE1 feeds the cube from L1). */
  if (asc_k_ub_use(k, ASC_K_V, src, count, esize, ASC_K_READ, api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, dst, count, esize, ASC_K_WRITE, api, "dst", line))
    return 1;
  memmove(k->ub + dst.off, k->ub + src.off, (size_t)(count * esize));
  return 0;
}

/* --- element access ------------------------------------------------------ */
#define ASC_K_ACCESS(SUFFIX, T, LOAD, STORE, CT)                                                  \
  static inline int asc_k_gget_##SUFFIX(asc_k_ctx *k, asc_k_gt g, int64_t i, CT *out, int line) { \
    if (asc_k_gm_range(k, &g, i, 1, (int64_t)sizeof(T), "get_value", line)) return 1;             \
    T v;                                                                                          \
    asc_k_gm_read(&g, asc_k_madd(g.lead, i, (int64_t)sizeof(T)), (char *)&v, (int64_t)sizeof v);  \
    *out = (CT)LOAD(v);                                                                           \
    return 0;                                                                                     \
  }                                                                                               \
  static inline int asc_k_gset_##SUFFIX(asc_k_ctx *k, asc_k_gt g, int64_t i, CT x, int line) {    \
    if (asc_k_gm_range(k, &g, i, 1, (int64_t)sizeof(T), "set_value", line)) return 1;             \
    T v = STORE(x);                                                                               \
    asc_k_gm_write(&g, asc_k_madd(g.lead, i, (int64_t)sizeof(T)), (const char *)&v,               \
                   (int64_t)sizeof v);                                                            \
    return 0;                                                                                     \
  }                                                                                               \
  static inline int asc_k_lget_##SUFFIX(asc_k_ctx *k, asc_k_lt t, int64_t i, CT *out, int line) { \
    asc_k_lt at = {asc_k_madd(t.off, i, (int64_t)sizeof(T)), asc_k_sub(t.len, i)};                \
    if (i < 0 || asc_k_index_check(k, t, i, "get_value", line) ||                                 \
        asc_k_ub_use(k, ASC_K_S, at, 1, (int64_t)sizeof(T), ASC_K_READ, "get_value",              \
                     "the element", line)) {                                                      \
      if (!k->status) asc_k_fail(k, line, "get_value: negative index %lld", (long long)i);        \
      return 1;                                                                                   \
    }                                                                                             \
    T v;                                                                                          \
    memcpy(&v, k->ub + at.off, sizeof v);                                                         \
    *out = (CT)LOAD(v);                                                                           \
    return 0;                                                                                     \
  }                                                                                               \
  static inline int asc_k_lset_##SUFFIX(asc_k_ctx *k, asc_k_lt t, int64_t i, CT x, int line) {    \
    asc_k_lt at = {asc_k_madd(t.off, i, (int64_t)sizeof(T)), asc_k_sub(t.len, i)};                \
    if (i < 0 || asc_k_index_check(k, t, i, "set_value", line) ||                                 \
        asc_k_ub_use(k, ASC_K_S, at, 1, (int64_t)sizeof(T), ASC_K_WRITE, "set_value",             \
                     "the element", line)) {                                                      \
      if (!k->status) asc_k_fail(k, line, "set_value: negative index %lld", (long long)i);        \
      return 1;                                                                                   \
    }                                                                                             \
    T v = STORE(x);                                                                               \
    memcpy(k->ub + at.off, &v, sizeof v);                                                         \
    return 0;                                                                                     \
  }

#define ASC_K_ID(x) (x)
#define ASC_K_H2F(x) asc_k_h2f(x)
#define ASC_K_F2H(x) asc_k_f2h((float)(x))
#define ASC_K_BF2F(x) ((float)0 + asc_k_bf2f(x))
static inline float asc_k_bf2f(uint16_t b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline uint16_t asc_k_f2bf(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(((u >> 16) & 0x8000u) | 0x7fc0u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
#define ASC_K_F2BF(x) asc_k_f2bf((float)(x))

ASC_K_ACCESS(float16, uint16_t, ASC_K_H2F, ASC_K_F2H, double)
ASC_K_ACCESS(bfloat16, uint16_t, asc_k_bf2f, ASC_K_F2BF, double)
ASC_K_ACCESS(float32, float, ASC_K_ID, (float), double)
ASC_K_ACCESS(float64, double, ASC_K_ID, (double), double)
ASC_K_ACCESS(int8, int8_t, ASC_K_ID, (int8_t), int64_t)
ASC_K_ACCESS(uint8, uint8_t, ASC_K_ID, (uint8_t), int64_t)
ASC_K_ACCESS(int16, int16_t, ASC_K_ID, (int16_t), int64_t)
ASC_K_ACCESS(int32, int32_t, ASC_K_ID, (int32_t), int64_t)
ASC_K_ACCESS(int64, int64_t, ASC_K_ID, (int64_t), int64_t)
ASC_K_ACCESS(bool, uint8_t, ASC_K_ID, (uint8_t) !!, int64_t)

/* --- vector instructions --------------------------------------------------- */
/* float16 computes in float32 and rounds once per instruction, as the
 * hardware's vector unit does. */
#define ASC_K_VBINARY(NAME, SUFFIX, T, CT, LOAD, STORE, EXPR)                                  \
  static inline int asc_k_##NAME##_##SUFFIX(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, asc_k_lt b,  \
                                            int64_t n, int line) {                             \
    if (asc_k_ub_use(k, ASC_K_V, a, n, (int64_t)sizeof(T), ASC_K_READ, #NAME, "src0", line) || \
        asc_k_ub_use(k, ASC_K_V, b, n, (int64_t)sizeof(T), ASC_K_READ, #NAME, "src1", line) || \
        asc_k_ub_use(k, ASC_K_V, d, n, (int64_t)sizeof(T), ASC_K_WRITE, #NAME, "dst", line))   \
      return 1;                                                                                \
    T *o = (T *)(k->ub + d.off);                                                               \
    const T *xs = (const T *)(k->ub + a.off), *ys = (const T *)(k->ub + b.off);                \
    for (int64_t i = 0; i < n; i++) {                                                          \
      CT x = LOAD(xs[i]), y = LOAD(ys[i]);                                                     \
      o[i] = STORE(EXPR);                                                                      \
    }                                                                                          \
    return 0;                                                                                  \
  }
#define ASC_K_VSCALAR(NAME, SUFFIX, T, CT, LOAD, STORE, EXPR)                                 \
  static inline int asc_k_##NAME##_##SUFFIX(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, double sv,  \
                                            int64_t n, int line) {                            \
    if (asc_k_ub_use(k, ASC_K_V, a, n, (int64_t)sizeof(T), ASC_K_READ, #NAME, "src", line) || \
        asc_k_ub_use(k, ASC_K_V, d, n, (int64_t)sizeof(T), ASC_K_WRITE, #NAME, "dst", line))  \
      return 1;                                                                               \
    T *o = (T *)(k->ub + d.off);                                                              \
    const T *xs = (const T *)(k->ub + a.off);                                                 \
    const T st = STORE(sv); /* the scalar takes the tensor's type first */                    \
    const CT y = LOAD(st);                                                                    \
    for (int64_t i = 0; i < n; i++) {                                                         \
      CT x = LOAD(xs[i]);                                                                     \
      o[i] = STORE(EXPR);                                                                     \
    }                                                                                         \
    return 0;                                                                                 \
  }
#define ASC_K_VUNARY(NAME, SUFFIX, T, CT, LOAD, STORE, EXPR)                                  \
  static inline int asc_k_##NAME##_##SUFFIX(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, int64_t n,  \
                                            int line) {                                       \
    if (asc_k_ub_use(k, ASC_K_V, a, n, (int64_t)sizeof(T), ASC_K_READ, #NAME, "src", line) || \
        asc_k_ub_use(k, ASC_K_V, d, n, (int64_t)sizeof(T), ASC_K_WRITE, #NAME, "dst", line))  \
      return 1;                                                                               \
    T *o = (T *)(k->ub + d.off);                                                              \
    const T *xs = (const T *)(k->ub + a.off);                                                 \
    for (int64_t i = 0; i < n; i++) {                                                         \
      CT x = LOAD(xs[i]);                                                                     \
      o[i] = STORE(EXPR);                                                                     \
    }                                                                                         \
    return 0;                                                                                 \
  }

/* Integer vector arithmetic wraps, as the hardware does. */
#define ASC_K_WRAP(T, e) ((T)(uint64_t)(e))

#define ASC_K_FLOAT_FAMILY(SUFFIX, T, LOAD, STORE)                    \
  ASC_K_VBINARY(add, SUFFIX, T, float, LOAD, STORE, x + y)            \
  ASC_K_VBINARY(sub, SUFFIX, T, float, LOAD, STORE, x - y)            \
  ASC_K_VBINARY(mul, SUFFIX, T, float, LOAD, STORE, x *y)             \
  ASC_K_VBINARY(div, SUFFIX, T, float, LOAD, STORE, x / y)            \
  ASC_K_VBINARY(max, SUFFIX, T, float, LOAD, STORE, x > y ? x : y)    \
  ASC_K_VBINARY(min, SUFFIX, T, float, LOAD, STORE, x < y ? x : y)    \
  ASC_K_VSCALAR(adds, SUFFIX, T, float, LOAD, STORE, x + y)           \
  ASC_K_VSCALAR(muls, SUFFIX, T, float, LOAD, STORE, x *y)            \
  ASC_K_VSCALAR(maxs, SUFFIX, T, float, LOAD, STORE, x > y ? x : y)   \
  ASC_K_VSCALAR(mins, SUFFIX, T, float, LOAD, STORE, x < y ? x : y)   \
  ASC_K_VUNARY(exp, SUFFIX, T, float, LOAD, STORE, expf(x))           \
  ASC_K_VUNARY(ln, SUFFIX, T, float, LOAD, STORE, logf(x))            \
  ASC_K_VUNARY(abs, SUFFIX, T, float, LOAD, STORE, fabsf(x))          \
  ASC_K_VUNARY(sqrt, SUFFIX, T, float, LOAD, STORE, sqrtf(x))         \
  ASC_K_VUNARY(rsqrt, SUFFIX, T, float, LOAD, STORE, 1.0f / sqrtf(x)) \
  ASC_K_VUNARY(reciprocal, SUFFIX, T, float, LOAD, STORE, 1.0f / x)   \
  ASC_K_VUNARY(relu, SUFFIX, T, float, LOAD, STORE, x > 0 ? x : 0.0f)

ASC_K_FLOAT_FAMILY(float16, uint16_t, ASC_K_H2F, ASC_K_F2H)
ASC_K_FLOAT_FAMILY(float32, float, ASC_K_ID, ASC_K_ID)

#define ASC_K_INT_FAMILY(SUFFIX, T)                                                                \
  ASC_K_VBINARY(add, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID,                                       \
                ASC_K_WRAP(T, (uint64_t)x + (uint64_t)y))                                          \
  ASC_K_VBINARY(sub, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID,                                       \
                ASC_K_WRAP(T, (uint64_t)x - (uint64_t)y))                                          \
  ASC_K_VBINARY(mul, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID,                                       \
                ASC_K_WRAP(T, (uint64_t)x *(uint64_t)y))                                           \
  ASC_K_VBINARY(max, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID, (T)(x > y ? x : y))                   \
  ASC_K_VBINARY(min, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID, (T)(x < y ? x : y))                   \
  ASC_K_VSCALAR(adds, SUFFIX, T, int64_t, ASC_K_ID, (T), ASC_K_WRAP(T, (uint64_t)x + (uint64_t)y)) \
  ASC_K_VSCALAR(muls, SUFFIX, T, int64_t, ASC_K_ID, (T), ASC_K_WRAP(T, (uint64_t)x *(uint64_t)y))  \
  ASC_K_VSCALAR(maxs, SUFFIX, T, int64_t, ASC_K_ID, (T), (T)(x > y ? x : y))                       \
  ASC_K_VSCALAR(mins, SUFFIX, T, int64_t, ASC_K_ID, (T), (T)(x < y ? x : y))                       \
  ASC_K_VUNARY(abs, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID,                                        \
               ASC_K_WRAP(T, x < 0 ? 0 - (uint64_t)x : (uint64_t)x))                               \
  ASC_K_VUNARY(relu, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID, (T)(x > 0 ? x : 0))

ASC_K_INT_FAMILY(int16, int16_t)
ASC_K_INT_FAMILY(int32, int32_t)

#define ASC_K_DUPLICATE(SUFFIX, T, STORE)                                                          \
  static inline int asc_k_duplicate_##SUFFIX(asc_k_ctx *k, asc_k_lt d, double v, int64_t n,        \
                                             int line) {                                           \
    if (asc_k_ub_use(k, ASC_K_V, d, n, (int64_t)sizeof(T), ASC_K_WRITE, "duplicate", "dst", line)) \
      return 1;                                                                                    \
    T *o = (T *)(k->ub + d.off);                                                                   \
    const T x = STORE(v);                                                                          \
    for (int64_t i = 0; i < n; i++) o[i] = x;                                                      \
    return 0;                                                                                      \
  }
ASC_K_DUPLICATE(float16, uint16_t, ASC_K_F2H)
ASC_K_DUPLICATE(float32, float, (float))
ASC_K_DUPLICATE(int8, int8_t, (int8_t))
ASC_K_DUPLICATE(uint8, uint8_t, (uint8_t))
ASC_K_DUPLICATE(int16, int16_t, (int16_t))
ASC_K_DUPLICATE(int32, int32_t, (int32_t))

/* --- API coverage: level-0 forms, cast, compare/select, reductions ---------------
 * The vector APIs' mask/repeat forms (docs/kernel-language.md §0.4), the
 * APIs added with them, and the count forms of those that have no
 * per-dtype family above. One element-wise executor serves them all:
 * operand j's element idx of repeat r lives at
 *   off_j + (r * rep_j + (idx / (32 / size_j)) * blk_j) * 32 + (idx % (32 / size_j)) * size_j
 * and takes part iff the mask selects (r, idx). A count form is counter
 * mode with the count as mask and contiguous strides. Elements per repeat
 * are 256 bytes of the widest operand. Unselected destination elements are
 * left unchanged. Like the families above, float16/bfloat16 compute in
 * float32 and round once per instruction; integers wrap.
 * Checked mode: every operand's touched span goes through asc_k_ub_use
 * (sources first, then the destination) on the vector pipe. */
enum { /* asc_dtype's order */
       ASC_K_DT_BOOL,
       ASC_K_DT_INT8,
       ASC_K_DT_UINT8,
       ASC_K_DT_INT16,
       ASC_K_DT_INT32,
       ASC_K_DT_INT64,
       ASC_K_DT_FLOAT16,
       ASC_K_DT_BFLOAT16,
       ASC_K_DT_FLOAT32,
       ASC_K_DT_FLOAT64
};
static inline int64_t asc_k_dt_size(int dt) {
  static const unsigned char sizes[] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8};
  return dt >= 0 && dt <= ASC_K_DT_FLOAT64 ? sizes[dt] : 1;
}
static inline int asc_k_dt_float(int dt) {
  return dt >= ASC_K_DT_FLOAT16;
}

static inline double asc_k_ld(int dt, const char *p) {
  switch (dt) {
    case ASC_K_DT_INT8: {
      int8_t v;
      memcpy(&v, p, 1);
      return v;
    }
    case ASC_K_DT_BOOL:
    case ASC_K_DT_UINT8: {
      uint8_t v;
      memcpy(&v, p, 1);
      return v;
    }
    case ASC_K_DT_INT16: {
      int16_t v;
      memcpy(&v, p, 2);
      return v;
    }
    case ASC_K_DT_INT32: {
      int32_t v;
      memcpy(&v, p, 4);
      return v;
    }
    case ASC_K_DT_INT64: {
      int64_t v;
      memcpy(&v, p, 8);
      return (double)v;
    }
    case ASC_K_DT_FLOAT16: {
      uint16_t v;
      memcpy(&v, p, 2);
      return asc_k_h2f(v);
    }
    case ASC_K_DT_BFLOAT16: {
      uint16_t v;
      memcpy(&v, p, 2);
      return asc_k_bf2f(v);
    }
    case ASC_K_DT_FLOAT32: {
      float v;
      memcpy(&v, p, 4);
      return v;
    }
    default: {
      double v;
      memcpy(&v, p, 8);
      return v;
    }
  }
}
static inline int64_t asc_k_ldi(int dt, const char *p) {
  if (dt == ASC_K_DT_INT64) {
    int64_t v;
    memcpy(&v, p, 8);
    return v;
  }
  return (int64_t)asc_k_ld(dt, p);
}
/* A float value rounded once to dt (exact when dt holds it). */
static inline void asc_k_stf(int dt, char *p, double x) {
  switch (dt) {
    case ASC_K_DT_FLOAT16: {
      uint16_t v = asc_k_f2h((float)x);
      memcpy(p, &v, 2);
      break;
    }
    case ASC_K_DT_BFLOAT16: {
      uint16_t v = asc_k_f2bf((float)x);
      memcpy(p, &v, 2);
      break;
    }
    case ASC_K_DT_FLOAT32: {
      float v = (float)x;
      memcpy(p, &v, 4);
      break;
    }
    case ASC_K_DT_FLOAT64:
      memcpy(p, &x, 8);
      break;
    default:
      break;
  }
}
/* An integer wrapped to dt's width. */
static inline void asc_k_sti(int dt, char *p, int64_t x) {
  switch (dt) {
    case ASC_K_DT_INT8:
    case ASC_K_DT_UINT8:
    case ASC_K_DT_BOOL: {
      uint8_t v = (uint8_t)(uint64_t)x;
      memcpy(p, &v, 1);
      break;
    }
    case ASC_K_DT_INT16: {
      uint16_t v = (uint16_t)(uint64_t)x;
      memcpy(p, &v, 2);
      break;
    }
    case ASC_K_DT_INT32: {
      uint32_t v = (uint32_t)(uint64_t)x;
      memcpy(p, &v, 4);
      break;
    }
    case ASC_K_DT_INT64:
      memcpy(p, &x, 8);
      break;
    default:
      asc_k_stf(dt, p, (double)x);
  }
}

/* --- the mask register ----------------------------------------------------------- */
static inline void asc_k_vm_init(asc_k_ctx *k) {
  k->vm.counter = 0;
  k->vm.m[0] = k->vm.m[1] = ~(uint64_t)0;
}
static inline int asc_k_set_mask_mode(asc_k_ctx *k, int counter) {
  k->vm.counter = counter;
  return 0;
}
static inline int asc_k_reset_mask(asc_k_ctx *k) {
  k->vm.m[0] = k->vm.m[1] = ~(uint64_t)0;
  return 0;
}
/* Bits for the first n elements of a repeat. */
static inline void asc_k_mask_first(int64_t n, uint64_t m[2]) {
  m[0] = n >= 64 ? ~(uint64_t)0 : n <= 0 ? 0 : (((uint64_t)1 << n) - 1);
  m[1] = n >= 128 ? ~(uint64_t)0 : n <= 64 ? 0 : (((uint64_t)1 << (n - 64)) - 1);
}
/* set_vector_mask: form 0 (length) or 1 (mask_high, mask_low), MaskMode
 * NORMAL (0) or COUNTER (1); the register keeps bits, counter mode reads
 * its low word as the element count. */
static inline int asc_k_set_vector_mask(asc_k_ctx *k, int form, int dt, int mode, int64_t a,
                                        int64_t b, int line) {
  int64_t per_rep = 256 / asc_k_dt_size(dt);
  if (form == 0) {
    /* By default a length beyond a repeat selects the whole repeat, as the
     * hardware keeps only a repeat's bits; checked mode reports it. */
    if (mode == 0 && (ASC_K_CHECKED || a < 0) && (a < 0 || a > per_rep))
      return asc_k_fail(k, line,
                        "set_vector_mask: length %lld is outside [0, %lld] for %d-bit data",
                        (long long)a, (long long)per_rep, (int)(8 * asc_k_dt_size(dt)));
    if (a < 0) return asc_k_fail(k, line, "set_vector_mask: negative count %lld", (long long)a);
    if (mode == 0)
      asc_k_mask_first(a, k->vm.m);
    else
      k->vm.m[0] = (uint64_t)a, k->vm.m[1] = 0;
    return 0;
  }
  /* Bits beyond a repeat's elements are ignored (checked mode reports them). */
  if (ASC_K_CHECKED && a != 0 && (mode == 1 || per_rep <= 64))
    return asc_k_fail(k, line, "set_vector_mask: mask_high must be 0 %s (got %lld)",
                      mode == 1 ? "in counter mode" : "for 32-bit data", (long long)a);
  k->vm.m[0] = (uint64_t)b;
  k->vm.m[1] = mode == 1 || per_rep <= 64 ? 0 : (uint64_t)a;
  return 0;
}

/* Which (repeat, element) pairs an instruction touches. */
typedef struct asc_k_sel {
  int counter;
  int64_t count; /* counter mode: elements over the whole instruction */
  uint64_t m[2]; /* normal mode: per-repeat element bits */
  int64_t nrep, per_rep;
} asc_k_sel;

static inline int asc_k_sel_on(const asc_k_sel *s, int64_t r, int64_t idx) {
  if (s->counter) return r * s->per_rep + idx < s->count;
  return (int)((s->m[idx >> 6] >> (idx & 63)) & 1u);
}

/* kind 0: continuous mask m0; kind 1: bit list [m0, m1] (low word first);
 * kind 2: count form (m0 elements, contiguous). max_rep < 0: no limit. */
static inline int asc_k_sel_make(asc_k_ctx *k, asc_k_sel *s, int kind, uint64_t m0, uint64_t m1,
                                 int64_t repeat, int set_mask, int64_t per_rep, int64_t max_rep,
                                 const char *api, int line) {
  s->per_rep = per_rep;
  s->counter = kind == 2 || k->vm.counter;
  if (kind == 2) {
    if ((int64_t)m0 < 0) return asc_k_fail(k, line, "%s: negative count %lld", api, (long long)m0);
    s->count = (int64_t)m0;
  } else if (s->counter) {
    int64_t c = set_mask ? (int64_t)m0 : (int64_t)k->vm.m[0];
    if (c < 0)
      return asc_k_fail(k, line, "%s: negative counter-mode count %lld", api, (long long)c);
    s->count = c;
  }
  if (s->counter) {
    /* more elements than UB bytes cannot all be in range (and would take
     * ages to walk) */
    if (s->count > k->ub_size)
      return asc_k_fail(k, line, "%s: %lld elements exceed the %lld-byte Unified Buffer", api,
                        (long long)s->count, (long long)k->ub_size);
    s->nrep = s->count / per_rep + (s->count % per_rep != 0);
    s->m[0] = s->m[1] = ~(uint64_t)0;
    return 0;
  }
  if (repeat < 0 || (max_rep >= 0 && repeat > max_rep))
    return asc_k_fail(k, line, "%s: repeat times %lld is outside [0, %lld]", api, (long long)repeat,
                      (long long)max_rep);
  s->nrep = repeat;
  if (!set_mask) {
    s->m[0] = k->vm.m[0];
    s->m[1] = per_rep > 64 ? k->vm.m[1] : 0;
  } else if (kind == 0) {
    /* By default the hardware's reading: the mask is a uint64 and a length
     * beyond a repeat selects the whole repeat; 0 selects nothing. Checked
     * mode reports lengths outside [1, elements per repeat]. */
    if (ASC_K_CHECKED && ((int64_t)m0 < 1 || (int64_t)m0 > per_rep))
      return asc_k_fail(k, line, "%s: mask %lld is outside [1, %lld] for this data type", api,
                        (long long)(int64_t)m0, (long long)per_rep);
    asc_k_mask_first(m0 > (uint64_t)per_rep ? per_rep : (int64_t)m0, s->m);
  } else {
    /* Bits beyond a repeat's elements are ignored, as by the hardware;
     * checked mode reports them, and a mask that selects nothing. */
    uint64_t keep[2];
    asc_k_mask_first(per_rep, keep);
    if (ASC_K_CHECKED && ((m0 & ~keep[0]) || (m1 & ~keep[1])))
      return asc_k_fail(k, line, "%s: the mask list has bits beyond element %lld of a repeat", api,
                        (long long)per_rep);
    if (ASC_K_CHECKED && !m0 && !m1)
      return asc_k_fail(k, line, "%s: the mask selects no element", api);
    s->m[0] = m0 & keep[0];
    s->m[1] = m1 & keep[1];
  }
  return 0;
}

/* --- the element-wise executor ------------------------------------------------------ */
enum {
  ASC_K_VOP_add,
  ASC_K_VOP_sub,
  ASC_K_VOP_mul,
  ASC_K_VOP_div,
  ASC_K_VOP_max,
  ASC_K_VOP_min,
  ASC_K_VOP_bitwise_and,
  ASC_K_VOP_bitwise_or,
  ASC_K_VOP_fused_mul_add,
  ASC_K_VOP_mul_add_dst,
  ASC_K_VOP_adds,
  ASC_K_VOP_muls,
  ASC_K_VOP_maxs,
  ASC_K_VOP_mins,
  ASC_K_VOP_leaky_relu,
  ASC_K_VOP_shift_left,
  ASC_K_VOP_shift_right,
  ASC_K_VOP_axpy,
  ASC_K_VOP_exp,
  ASC_K_VOP_ln,
  ASC_K_VOP_abs,
  ASC_K_VOP_sqrt,
  ASC_K_VOP_rsqrt,
  ASC_K_VOP_reciprocal,
  ASC_K_VOP_relu,
  ASC_K_VOP_bitwise_not,
  ASC_K_VOP_cast,
  ASC_K_VOP_compare,
  ASC_K_VOP_compare_scalar,
  ASC_K_VOP_select,
  ASC_K_VOP_selects,
  ASC_K_VOP_copy,
  ASC_K_VOP_duplicate
};

static inline float asc_k_vf(int op, float x, float y, float d) {
  switch (op) {
    case ASC_K_VOP_add:
    case ASC_K_VOP_adds:
      return x + y;
    case ASC_K_VOP_sub:
      return x - y;
    case ASC_K_VOP_mul:
    case ASC_K_VOP_muls:
      return x * y;
    case ASC_K_VOP_div:
      return x / y;
    case ASC_K_VOP_max:
    case ASC_K_VOP_maxs:
      return x > y ? x : y;
    case ASC_K_VOP_min:
    case ASC_K_VOP_mins:
      return x < y ? x : y;
    case ASC_K_VOP_fused_mul_add: {
      float p = x * d;
      return p + y;
    }
    case ASC_K_VOP_mul_add_dst:
    case ASC_K_VOP_axpy: {
      float p = x * y;
      return p + d;
    }
    case ASC_K_VOP_leaky_relu:
      return x >= 0.0f ? x : x * y;
    case ASC_K_VOP_exp:
      return expf(x);
    case ASC_K_VOP_ln:
      return logf(x);
    case ASC_K_VOP_abs:
      return fabsf(x);
    case ASC_K_VOP_sqrt:
      return sqrtf(x);
    case ASC_K_VOP_rsqrt:
      return 1.0f / sqrtf(x);
    case ASC_K_VOP_reciprocal:
      return 1.0f / x;
    case ASC_K_VOP_relu:
      return x > 0 ? x : 0.0f;
    default:
      return x;
  }
}
/* Shifts by a count outside [0, bits) give 0 (left) or the sign (right);
 * right shifts of signed types are arithmetic. */
static inline int64_t asc_k_vi(int op, int64_t x, int64_t y, int64_t d, int bits) {
  (void)d;
  switch (op) {
    case ASC_K_VOP_add:
    case ASC_K_VOP_adds:
      return (int64_t)((uint64_t)x + (uint64_t)y);
    case ASC_K_VOP_sub:
      return (int64_t)((uint64_t)x - (uint64_t)y);
    case ASC_K_VOP_mul:
    case ASC_K_VOP_muls:
      return (int64_t)((uint64_t)x * (uint64_t)y);
    case ASC_K_VOP_max:
    case ASC_K_VOP_maxs:
      return x > y ? x : y;
    case ASC_K_VOP_min:
    case ASC_K_VOP_mins:
      return x < y ? x : y;
    case ASC_K_VOP_bitwise_and:
      return x & y;
    case ASC_K_VOP_bitwise_or:
      return x | y;
    case ASC_K_VOP_bitwise_not:
      return ~x;
    case ASC_K_VOP_abs:
      return x < 0 ? (int64_t)(0 - (uint64_t)x) : x;
    case ASC_K_VOP_relu:
      return x > 0 ? x : 0;
    case ASC_K_VOP_shift_left:
      return y < 0 || y >= bits ? 0 : (int64_t)((uint64_t)x << y);
    case ASC_K_VOP_shift_right:
      return y < 0 || y >= bits ? (x < 0 ? -1 : 0) : x >> y;
    default:
      return x;
  }
}

/* --- cast: RoundMode CAST_NONE 0, RINT 1, FLOOR 2, CEIL 3, ROUND 4, TRUNC 5, ODD 6 --- */
static inline double asc_k_round_int(double n, int mode) {
  switch (mode) {
    case 2:
      return floor(n);
    case 3:
      return ceil(n);
    case 4:
      return round(n); /* half away from zero */
    case 5:
      return trunc(n);
    case 6: { /* to odd: truncate, and make an inexact even result odd */
      double t = trunc(n);
      if (t != n && fmod(t, 2.0) == 0.0) t += n > 0 ? 1.0 : -1.0;
      return t;
    }
    default:
      return nearbyint(n); /* half to even; NONE rounds like RINT */
  }
}
/* x rounded to a binary format with `mant` fraction bits and normal
 * exponents [emin, emax]. Overflow goes to infinity when the mode rounds
 * that way (RINT, ROUND, NONE, CEIL up, FLOOR down), else to the largest
 * finite value. */
static inline double asc_k_round_fmt(double x, int mode, int mant, int emin, int emax) {
  if (x != x || x == 0 || isinf(x)) return x;
  int e;
  frexp(x, &e);
  e -= 1;
  if (e < emin) e = emin;
  double q = ldexp(1.0, e - mant);
  double r = asc_k_round_int(x / q, mode) * q;
  double maxv = ldexp(2.0 - ldexp(1.0, -mant), emax);
  if (fabs(r) > maxv) {
    int to_inf = mode <= 1 || mode == 4 || (mode == 3 && x > 0) || (mode == 2 && x < 0);
    r = to_inf ? copysign((double)INFINITY, x) : copysign(maxv, x);
  }
  return r == 0 ? copysign(0.0, x) : r;
}
/* Float -> integer saturates; NaN gives 0. Integer -> integer saturates. */
static inline void asc_k_cast_store(int dt, char *p, double x, int mode) {
  switch (dt) {
    case ASC_K_DT_FLOAT16:
      asc_k_stf(dt, p, asc_k_round_fmt(x, mode, 10, -14, 15));
      return;
    case ASC_K_DT_BFLOAT16:
      asc_k_stf(dt, p, asc_k_round_fmt(x, mode, 7, -126, 127));
      return;
    case ASC_K_DT_FLOAT32:
      asc_k_stf(dt, p, asc_k_round_fmt(x, mode, 23, -126, 127));
      return;
    case ASC_K_DT_FLOAT64:
      asc_k_stf(dt, p, x);
      return;
    default:
      break;
  }
  double lo = dt == ASC_K_DT_INT8    ? -128.0
              : dt == ASC_K_DT_INT16 ? -32768.0
              : dt == ASC_K_DT_INT32 ? -2147483648.0
                                     : 0.0;
  double hi = dt == ASC_K_DT_INT8    ? 127.0
              : dt == ASC_K_DT_INT16 ? 32767.0
              : dt == ASC_K_DT_INT32 ? 2147483647.0
                                     : 255.0;
  double r = x != x ? 0.0 : asc_k_round_int(x, mode);
  asc_k_sti(dt, p, (int64_t)(r < lo ? lo : r > hi ? hi : r));
}

/* A scalar operand in dtype dt's values (the scalar takes the tensor's type). */
static inline double asc_k_scalar_as(int dt, double v) {
  char tmp[8];
  if (asc_k_dt_float(dt)) {
    asc_k_stf(dt, tmp, v);
  } else {
    double c = v != v ? 0.0 : v < -9.2e18 ? -9.2e18 : v > 9.2e18 ? 9.2e18 : v;
    asc_k_sti(dt, tmp, (int64_t)c);
  }
  return asc_k_ld(dt, tmp);
}

/* One instruction of the executor: dst t[0] and nsrc tensor sources. */
typedef struct asc_k_vargs {
  int op, mode; /* mode: RoundMode (cast), CMPMODE (compare), SELMODE (select) */
  int nsrc;
  int dt[3];
  asc_k_lt t[3];
  int64_t blk[3], rep[3]; /* strides in data blocks */
  double scalar;
  asc_k_lt sel; /* select's bit mask */
  int sel_dt;
  int kind; /* see asc_k_sel_make */
  int64_t m0, m1, repeat;
  int set_mask;
  const char *api;
} asc_k_vargs;

/* ASC_K_FAR if it overflows (asc_k_vspans rejects that before any access). */
static inline int64_t asc_k_vaddr(const asc_k_vargs *A, int j, int64_t r, int64_t idx) {
  int64_t es = asc_k_dt_size(A->dt[j]), epb = 32 / es;
  int64_t blocks = asc_k_add(asc_k_mul(r, A->rep[j]), asc_k_mul(idx / epb, A->blk[j]));
  return asc_k_add(asc_k_madd(A->t[j].off, blocks, 32), idx % epb * es);
}
static inline int asc_k_vop_reads_dst(int op) {
  return op == ASC_K_VOP_fused_mul_add || op == ASC_K_VOP_mul_add_dst || op == ASC_K_VOP_axpy;
}
static inline int asc_k_vop_bits_dst(int op) {
  return op == ASC_K_VOP_compare || op == ASC_K_VOP_compare_scalar;
}
static inline int asc_k_vop_cmp(int mode, double x, double y) {
  switch (mode) {
    case 0:
      return x < y;
    case 1:
      return x > y;
    case 2:
      return x == y;
    case 3:
      return x <= y;
    case 4:
      return x >= y;
    default:
      return x != y;
  }
}
static inline int asc_k_bit(const char *base, int64_t i) {
  return (base[i >> 3] >> (i & 7)) & 1;
}

/* Bounds (and in checked mode extents and hazards) of every touched span. */
static inline int asc_k_vspans(asc_k_ctx *k, const asc_k_vargs *A, const asc_k_sel *s, int line) {
  static const char *const names[] = {"dst", "src0", "src1"};
  int bits_dst = asc_k_vop_bits_dst(A->op),
      sel_tensor = A->op == ASC_K_VOP_select || A->op == ASC_K_VOP_selects;
  int64_t hi[3] = {0, 0, 0}, bit_hi = -1, sel_hi = -1;
  int any = 0;
  for (int64_t r = 0; r < s->nrep; r++)
    for (int64_t idx = 0; idx < s->per_rep; idx++) {
      if (!asc_k_sel_on(s, r, idx)) continue;
      any = 1;
      for (int j = 0; j <= A->nsrc; j++) {
        int64_t end = asc_k_add(asc_k_vaddr(A, j, r, idx), asc_k_dt_size(A->dt[j]));
        if (end < 0)
          return asc_k_fail(k, line, "%s: %s's addresses (strides) leave the Unified Buffer",
                            A->api, names[j]);
        if (end > hi[j]) hi[j] = end;
      }
      if (r * s->per_rep + idx > bit_hi) bit_hi = r * s->per_rep + idx;
      int64_t sb = A->mode == 0 ? idx : r * s->per_rep + idx;
      if (sb > sel_hi) sel_hi = sb;
    }
  if (!any) return 0;
  for (int j = 1; j <= A->nsrc; j++) {
    int64_t es = asc_k_dt_size(A->dt[j]);
    if (asc_k_ub_use(k, ASC_K_V, A->t[j], (hi[j] - A->t[j].off) / es, es, ASC_K_READ, A->api,
                     names[j], line))
      return 1;
  }
  if (sel_tensor) {
    int64_t es = asc_k_dt_size(A->sel_dt);
    if (asc_k_ub_use(k, ASC_K_V, A->sel, ((sel_hi >> 3) + es) / es, es, ASC_K_READ, A->api,
                     "sel_mask", line))
      return 1;
  }
  int64_t es = asc_k_dt_size(A->dt[0]);
  int64_t n = bits_dst ? ((bit_hi >> 3) + es) / es : (hi[0] - A->t[0].off) / es;
  if (asc_k_vop_reads_dst(A->op) &&
      asc_k_ub_use(k, ASC_K_V, A->t[0], n, es, ASC_K_READ, A->api, "dst", line))
    return 1;
  return asc_k_ub_use(k, ASC_K_V, A->t[0], n, es, ASC_K_WRITE, A->api, "dst", line);
}

static inline int asc_k_vrun(asc_k_ctx *k, const asc_k_vargs *A, int line) {
  int bits_dst = asc_k_vop_bits_dst(A->op), reads_dst = asc_k_vop_reads_dst(A->op);
  int64_t widest = bits_dst ? 1 : asc_k_dt_size(A->dt[0]);
  for (int j = 1; j <= A->nsrc; j++)
    if (asc_k_dt_size(A->dt[j]) > widest) widest = asc_k_dt_size(A->dt[j]);
  for (int j = 0; j <= A->nsrc; j++)
    if (A->blk[j] < 0 || A->rep[j] < 0)
      return asc_k_fail(k, line, "%s: negative block or repeat stride", A->api);
  if (bits_dst && A->kind == 2 && asc_k_mul(A->m0, asc_k_dt_size(A->dt[1])) % 256)
    return asc_k_fail(k, line, "%s: %lld elements are not a multiple of 256 bytes", A->api,
                      (long long)A->m0);
  asc_k_sel s;
  int kind = A->kind, set_mask = A->set_mask, counter = k->vm.counter;
  uint64_t m0 = (uint64_t)A->m0;
  if (A->op == ASC_K_VOP_copy && counter && kind != 2) {
    /* Copy's counter mode counts elements per repeat; repeat_time applies */
    if (!set_mask) m0 = k->vm.m[0];
    kind = 0, set_mask = 1, k->vm.counter = 0;
  }
  int bad = asc_k_sel_make(k, &s, kind, m0, (uint64_t)A->m1, A->repeat, set_mask, 256 / widest, 255,
                           A->api, line);
  k->vm.counter = counter;
  if (bad || asc_k_vspans(k, A, &s, line)) return 1;
  char *ub = k->ub;
  int dd = A->dt[0], ds = A->nsrc ? A->dt[1] : dd;
  int fl = asc_k_dt_float(dd), bits = (int)(8 * asc_k_dt_size(ds));
  double sc = asc_k_scalar_as(ds, A->scalar);
  char sc_raw[8];
  asc_k_stf(dd, sc_raw, sc);
  if (!asc_k_dt_float(dd)) asc_k_sti(dd, sc_raw, (int64_t)sc);
  int64_t es = asc_k_dt_size(dd);
  for (int64_t r = 0; r < s.nrep; r++)
    for (int64_t idx = 0; idx < s.per_rep; idx++) {
      if (!asc_k_sel_on(&s, r, idx)) continue;
      const char *pa = A->nsrc > 0 ? ub + asc_k_vaddr(A, 1, r, idx) : NULL;
      const char *pb = A->nsrc > 1 ? ub + asc_k_vaddr(A, 2, r, idx) : NULL;
      if (bits_dst) {
        int64_t bit = r * s.per_rep + idx;
        double y = pb ? asc_k_ld(ds, pb) : sc;
        char *byte = ub + A->t[0].off + (bit >> 3);
        if (asc_k_vop_cmp(A->mode, asc_k_ld(ds, pa), y))
          *byte = (char)(*byte | (1 << (bit & 7)));
        else
          *byte = (char)(*byte & ~(1 << (bit & 7)));
        continue;
      }
      char *pd = ub + asc_k_vaddr(A, 0, r, idx);
      if (A->op == ASC_K_VOP_select || A->op == ASC_K_VOP_selects) {
        int64_t sb = A->mode == 0 ? idx : r * s.per_rep + idx;
        const char *pick = asc_k_bit(ub + A->sel.off, sb) ? pa : pb ? pb : sc_raw;
        memmove(pd, pick, (size_t)es);
      } else if (A->op == ASC_K_VOP_copy) {
        memmove(pd, pa, (size_t)es); /* bits as they are */
      } else if (A->op == ASC_K_VOP_duplicate) {
        memmove(pd, sc_raw, (size_t)es);
      } else if (A->op == ASC_K_VOP_cast) {
        asc_k_cast_store(dd, pd, asc_k_ld(ds, pa), A->mode);
      } else if (fl) {
        float x = pa ? (float)asc_k_ld(ds, pa) : 0.0f;
        float y = pb ? (float)asc_k_ld(ds, pb) : (float)sc;
        float d = reads_dst ? (float)asc_k_ld(dd, pd) : 0.0f;
        asc_k_stf(dd, pd, asc_k_vf(A->op, x, y, d));
      } else {
        int64_t x = pa ? asc_k_ldi(ds, pa) : 0, y = pb ? asc_k_ldi(ds, pb) : (int64_t)sc;
        int64_t d = reads_dst ? asc_k_ldi(dd, pd) : 0;
        asc_k_sti(dd, pd, asc_k_vi(A->op, x, y, d, bits));
      }
    }
  return 0;
}

/* --- reductions (float16, float32) ----------------------------------------------------
 * Sums add adjacent pairs level by level (a binary tree over the lanes of a
 * repeat or data block; an absent lane passes its partner up unchanged).
 * float16 partial sums round to float16 and saturate at +-65504. Max/min
 * take the first extreme value in lane order; a NaN wins over numbers. */
static inline float asc_k_rsum(int dt, float a, float b) {
  float s = a + b;
  if (dt == ASC_K_DT_FLOAT16) {
    s = asc_k_h2f(asc_k_f2h(s));
    if (s > 65504.0f)
      s = 65504.0f;
    else if (s < -65504.0f)
      s = -65504.0f;
  }
  return s;
}
/* Tree sum of v[0..n), n a power of two; on[i] says lane i takes part. */
static inline int asc_k_tree_sum(int dt, float *v, unsigned char *on, int64_t n, float *out) {
  for (int64_t w = n; w > 1; w /= 2)
    for (int64_t i = 0; i < w / 2; i++) {
      int a = on[2 * i], b = on[2 * i + 1];
      v[i] = a && b ? asc_k_rsum(dt, v[2 * i], v[2 * i + 1]) : a ? v[2 * i] : v[2 * i + 1];
      on[i] = (unsigned char)(a || b);
    }
  *out = v[0];
  return on[0];
}
static inline int asc_k_better(int what, float v, float best) {
  if (v != v) return best == best;
  return what == 1 ? v > best : v < best;
}
/* A sequence summed as the same tree, without storing it: a stack of
 * partial sums by level. */
typedef struct asc_k_seqtree {
  float v[64];
  int level[64];
  int n;
} asc_k_seqtree;
static inline void asc_k_seqtree_push(int dt, asc_k_seqtree *t, float x) {
  int lv = 0;
  while (t->n && t->level[t->n - 1] == lv) {
    x = asc_k_rsum(dt, t->v[--t->n], x);
    lv++;
  }
  t->v[t->n] = x;
  t->level[t->n++] = lv;
}
static inline float asc_k_seqtree_end(int dt, asc_k_seqtree *t) {
  float x = t->v[--t->n];
  while (t->n) x = asc_k_rsum(dt, t->v[--t->n], x);
  return x;
}
static inline void asc_k_store_index(int dt, char *p, int64_t index) {
  if (dt == ASC_K_DT_FLOAT16) {
    uint16_t v = (uint16_t)index;
    memcpy(p, &v, 2);
  } else {
    uint32_t v = (uint32_t)index;
    memcpy(p, &v, 4);
  }
}

/* reduce_sum/max/min (what 0/1/2). kind 2: the count form over m0
 * elements, repeats of 256 bytes summed in sequence; kind 0/1: mask
 * forms, repeat r at src + r * src_rep_stride data blocks, repeat results
 * summed as a tree. dst[0] = value; with cal_index (max/min) dst[1] holds
 * the value's element index in src in dst's dtype bits. */
static inline int asc_k_reduce(asc_k_ctx *k, int what, int dt, asc_k_lt dst, asc_k_lt src, int kind,
                               int64_t m0, int64_t m1, int64_t repeat, int64_t src_rep,
                               int cal_index, const char *api, int line) {
  int64_t es = asc_k_dt_size(dt), per_rep = 256 / es;
  asc_k_sel s;
  int counter = k->vm.counter; /* these APIs program the mask themselves */
  k->vm.counter = 0;
  int bad =
      asc_k_sel_make(k, &s, kind, (uint64_t)m0, (uint64_t)m1, repeat, 1, per_rep, -1, api, line);
  k->vm.counter = counter;
  if (bad) return 1;
  if (kind == 2) src_rep = 8;
  if (src_rep < 0) return asc_k_fail(k, line, "%s: negative src_rep_stride", api);
  int64_t hi = 0;
  for (int64_t r = 0; r < s.nrep; r++)
    for (int64_t idx = per_rep - 1; idx >= 0; idx--)
      if (asc_k_sel_on(&s, r, idx)) {
        int64_t bytes = asc_k_mul(r, asc_k_mul(src_rep, 32));
        if (bytes < 0) return asc_k_fail(k, line, "%s: src_rep_stride leaves the UB", api);
        int64_t end = bytes / es + idx + 1;
        if (end > hi) hi = end;
        break;
      }
  if (hi == 0) return asc_k_fail(k, line, "%s: no element to reduce", api);
  int nout = cal_index && what ? 2 : 1;
  if (asc_k_ub_use(k, ASC_K_V, src, hi, es, ASC_K_READ, api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, dst, nout, es, ASC_K_WRITE, api, "dst", line))
    return 1;
  const char *base = k->ub + src.off;
  float acc = 0.0f, lanes[128];
  unsigned char on[128];
  int64_t best_at = -1;
  asc_k_seqtree tree;
  tree.n = 0;
  for (int64_t r = 0; r < s.nrep; r++) {
    for (int64_t idx = 0; idx < per_rep; idx++) {
      int64_t at = asc_k_mul(r, asc_k_mul(src_rep, 32)) / es + idx; /* checked above if on */
      on[idx] = (unsigned char)asc_k_sel_on(&s, r, idx);
      lanes[idx] = on[idx] ? (float)asc_k_ld(dt, base + at * es) : 0.0f;
      if (what && on[idx] && (best_at < 0 || asc_k_better(what, lanes[idx], acc)))
        acc = lanes[idx], best_at = at;
    }
    float rv;
    if (what || !asc_k_tree_sum(dt, lanes, on, per_rep, &rv)) continue;
    if (kind != 2)
      asc_k_seqtree_push(dt, &tree, rv);
    else
      acc = r == 0 ? rv : asc_k_rsum(dt, acc, rv);
  }
  if (!what && kind != 2) acc = asc_k_seqtree_end(dt, &tree);
  char *out = k->ub + dst.off;
  asc_k_stf(dt, out, acc);
  if (nout == 2) asc_k_store_index(dt, out + es, best_at);
  return 0;
}

/* whole_reduce (shape 0), block_reduce (1), pair_reduce_sum (2). */
typedef struct asc_k_rargs {
  int what, shape, dt, order; /* order: ReduceOrder, whole_reduce_max/min */
  asc_k_lt dst, src;
  int kind;
  int64_t m0, m1, repeat, dst_rep, src_blk, src_rep;
  int set_mask;
  const char *api;
} asc_k_rargs;

static inline int asc_k_rrun(asc_k_ctx *k, const asc_k_rargs *R, int line) {
  int dt = R->dt;
  int64_t es = asc_k_dt_size(dt), epb = 32 / es, per_rep = 256 / es;
  asc_k_sel s;
  if (asc_k_sel_make(k, &s, R->kind, (uint64_t)R->m0, (uint64_t)R->m1, R->repeat, R->set_mask,
                     per_rep, 255, R->api, line))
    return 1;
  if (R->dst_rep < 0 || R->src_blk < 0 || R->src_rep < 0)
    return asc_k_fail(k, line, "%s: negative stride", R->api);
  int64_t gsize = R->shape == 0 ? per_rep : R->shape == 1 ? epb : 2, ngroups = per_rep / gsize;
  /* dst elements per result and per dst_rep_stride unit */
  int64_t width = 1, unit = R->shape == 0 ? 1 : ngroups;
  if (R->shape == 0 && R->what) width = R->order < 2 ? 2 : R->order == 2 ? 1 : 4 / es;
  if (R->shape == 0) unit = width;
  int64_t src_hi = 0, dst_hi = 0;
  for (int64_t r = 0; r < s.nrep; r++)
    for (int64_t idx = 0; idx < per_rep; idx++) {
      if (!asc_k_sel_on(&s, r, idx)) continue;
      int64_t blocks = asc_k_add(asc_k_mul(r, R->src_rep), asc_k_mul(idx / epb, R->src_blk));
      int64_t a = asc_k_mul(blocks, 32), d = asc_k_mul(asc_k_mul(r, R->dst_rep), unit);
      if (a < 0 || d < 0) return asc_k_fail(k, line, "%s: the strides leave the UB", R->api);
      a = a / es + idx % epb + 1;
      d += (idx / gsize) * width + width;
      if (a > src_hi) src_hi = a;
      if (d > dst_hi) dst_hi = d;
    }
  if (!src_hi) return 0;
  if (asc_k_ub_use(k, ASC_K_V, R->src, src_hi, es, ASC_K_READ, R->api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, R->dst, dst_hi, es, ASC_K_WRITE, R->api, "dst", line))
    return 1;
  const char *base = k->ub + R->src.off;
  for (int64_t r = 0; r < s.nrep; r++)
    for (int64_t g = 0; g < ngroups; g++) {
      float lanes[128], best = 0.0f;
      unsigned char on[128];
      int64_t best_at = -1;
      for (int64_t i = 0; i < gsize; i++) {
        int64_t idx = g * gsize + i;
        /* checked above if on */
        int64_t a =
            asc_k_mul(asc_k_add(asc_k_mul(r, R->src_rep), asc_k_mul(idx / epb, R->src_blk)), 32) /
                es +
            idx % epb;
        on[i] = (unsigned char)asc_k_sel_on(&s, r, idx);
        lanes[i] = on[i] ? (float)asc_k_ld(dt, base + a * es) : 0.0f;
        if (R->what && on[i] && (best_at < 0 || asc_k_better(R->what, lanes[i], best)))
          best = lanes[i], best_at = idx;
      }
      if (!R->what && !asc_k_tree_sum(dt, lanes, on, gsize, &best)) continue;
      if (R->what && best_at < 0) continue;
      char *out =
          k->ub + R->dst.off + asc_k_madd(asc_k_mul(asc_k_mul(r, R->dst_rep), unit), g, width) * es;
      if (!R->what || R->shape != 0 || R->order == 2)
        asc_k_stf(dt, out, best);
      else if (R->order == 0)
        asc_k_stf(dt, out, best), asc_k_store_index(dt, out + es, best_at);
      else if (R->order == 1)
        asc_k_store_index(dt, out, best_at), asc_k_stf(dt, out + es, best);
      else {
        uint32_t v = (uint32_t)best_at;
        memcpy(out, &v, 4);
      }
    }
  return 0;
}

/* --- data movement with parameters ------------------------------------------------------ */
/* data_copy(dst, src, DataCopyParams): block_count bursts of block_len
 * 32-byte blocks, src_stride/dst_stride blocks between bursts. dir: 0
 * GM->UB, 1 UB->GM, 2 UB->UB. */
static inline int asc_k_copy_params(asc_k_ctx *k, int dir, asc_k_lt lt_dst, asc_k_lt lt_src,
                                    asc_k_gt gt, int64_t bc, int64_t bl, int64_t ss, int64_t ds,
                                    int64_t es, int line) {
  if (bc < 0 || bl < 0 || ss < 0 || ds < 0)
    return asc_k_fail(k, line, "data_copy: DataCopyParams fields must not be negative");
  if (!bc || !bl) return 0;
  /* bursts start (bl + stride) blocks apart; a span is ASC_K_FAR if it overflows */
  int64_t src_step = asc_k_mul(asc_k_add(bl, ss), 32), dst_step = asc_k_mul(asc_k_add(bl, ds), 32),
          burst = asc_k_mul(bl, 32);
  int64_t src_span = asc_k_madd(burst, bc - 1, src_step),
          dst_span = asc_k_madd(burst, bc - 1, dst_step);
  int64_t src_n = src_span < 0 ? ASC_K_FAR : src_span / es,
          dst_n = dst_span < 0 ? ASC_K_FAR : dst_span / es;
  if (dir == 0) {
#if ASC_K_CHECKED
    if (src_n < 0 || asc_k_gm_range(k, &gt, 0, src_n, es, "data_copy", line) ||
        asc_k_chk_blocks(k, lt_dst, dst_n, es, line))
      return k->status ? 1
                       : asc_k_fail(k, line,
                                    "data_copy: global memory access outside the argument "
                                    "(the DataCopyParams span overflows)");
#endif
    if (asc_k_ub_use(k, ASC_K_MTE2, lt_dst, dst_n, es, ASC_K_WRITE, "data_copy", "dst", line))
      return 1;
  } else if (dir == 1) {
#if ASC_K_CHECKED
    if (dst_n < 0 || asc_k_gm_range(k, &gt, 0, dst_n, es, "data_copy", line) ||
        asc_k_chk_blocks(k, lt_src, src_n, es, line))
      return k->status ? 1
                       : asc_k_fail(k, line,
                                    "data_copy: global memory access outside the argument "
                                    "(the DataCopyParams span overflows)");
#endif
    if (asc_k_ub_use(k, ASC_K_MTE3, lt_src, src_n, es, ASC_K_READ, "data_copy", "src", line))
      return 1;
  } else if (asc_k_ub_use(k, ASC_K_V, lt_src, src_n, es, ASC_K_READ, "data_copy", "src", line) ||
             asc_k_ub_use(k, ASC_K_V, lt_dst, dst_n, es, ASC_K_WRITE, "data_copy", "dst", line)) {
    return 1;
  }
  /* The UB side's span passed its check, so its offsets fit; the GM side's
   * are checked per burst. */
  for (int64_t i = 0; i < bc; i++) {
    if (dir == 0)
      asc_k_gm_read(&gt, asc_k_madd(gt.lead, i, src_step), k->ub + lt_dst.off + i * dst_step,
                    burst);
    else if (dir == 1)
      asc_k_gm_write(&gt, asc_k_madd(gt.lead, i, dst_step), k->ub + lt_src.off + i * src_step,
                     burst);
    else
      memmove(k->ub + lt_dst.off + i * dst_step, k->ub + lt_src.off + i * src_step, (size_t)burst);
  }
  return 0;
}

/* data_copy_pad GM->UB: block_count rows of block_len bytes; GM rows
 * src_stride bytes apart (after each row), UB rows start on 32-byte
 * boundaries, dst_stride blocks apart (after the row rounded up to 32
 * bytes). With is_pad, left/right_padding elements of padding_value
 * surround each row in UB; bytes up to the next boundary are untouched. */
static inline int asc_k_copy_pad_gm_ub(asc_k_ctx *k, int dt, asc_k_lt dst, asc_k_gt src, int64_t bc,
                                       int64_t bl, int64_t ss, int64_t ds, int is_pad, int64_t lp,
                                       int64_t rp, double pv, int line) {
  int64_t es = asc_k_dt_size(dt);
  if (bc < 0 || bl < 0 || ss < 0 || ds < 0 || lp < 0 || rp < 0)
    return asc_k_fail(k, line, "data_copy_pad: parameters must not be negative");
  if (bl % es || ss % es)
    return asc_k_fail(k, line,
                      "data_copy_pad: block_len (%lld) and src_stride (%lld) are bytes and must "
                      "be whole %lld-byte elements",
                      (long long)bl, (long long)ss, (long long)es);
  if (!is_pad) lp = rp = 0;
  if (lp > 32 || rp > 32 || lp * es > 32 || rp * es > 32)
    return asc_k_fail(k, line, "data_copy_pad: padding of %lld/%lld elements exceeds 32 bytes",
                      (long long)lp, (long long)rp);
#if ASC_K_CHECKED
  if (dst.off % 32)
    return asc_k_fail(k, line,
                      "data_copy_pad: the LocalTensor starts at UB byte %lld, which is "
                      "not 32-byte aligned",
                      (long long)dst.off);
#endif
  if (!bc) return 0;
  int64_t n = bl / es, row = asc_k_mul(asc_k_add(lp + rp, n), es);
  int64_t ub_stride = asc_k_add(asc_k_mul(asc_k_add(row, 31) / 32, 32), asc_k_mul(ds, 32));
  int64_t gm_step = asc_k_add(bl, ss), ub_span = asc_k_madd(row, bc - 1, ub_stride);
  if (row < 0 || ub_stride < 0) ub_span = ASC_K_FAR;
#if ASC_K_CHECKED
  int64_t gm_span = asc_k_madd(bl, bc - 1, gm_step);
  if (gm_span < 0)
    return asc_k_fail(k, line,
                      "data_copy_pad: global memory access outside the argument (the "
                      "span overflows)");
  if (asc_k_gm_range(k, &src, 0, gm_span / es, es, "data_copy_pad", line)) return 1;
#endif
  if (asc_k_ub_use(k, ASC_K_MTE2, dst, ub_span < 0 ? ASC_K_FAR : ub_span / es, es, ASC_K_WRITE,
                   "data_copy_pad", "dst", line))
    return 1;
  char pad[8];
  asc_k_cast_store(dt, pad, pv, 1);
  for (int64_t i = 0; i < bc; i++) {
    char *d = k->ub + dst.off + i * ub_stride;
    for (int64_t j = 0; j < lp; j++) memcpy(d + j * es, pad, (size_t)es);
    asc_k_gm_read(&src, asc_k_madd(src.lead, i, gm_step), d + lp * es, bl);
    for (int64_t j = 0; j < rp; j++) memcpy(d + (lp + n + j) * es, pad, (size_t)es);
  }
  return 0;
}
/* data_copy_pad UB->GM: UB rows start on 32-byte boundaries, src_stride
 * blocks apart (after the rounded row); GM rows dst_stride bytes apart. */
static inline int asc_k_copy_pad_ub_gm(asc_k_ctx *k, int dt, asc_k_gt dst, asc_k_lt src, int64_t bc,
                                       int64_t bl, int64_t ss, int64_t ds, int line) {
  int64_t es = asc_k_dt_size(dt);
  if (bc < 0 || bl < 0 || ss < 0 || ds < 0)
    return asc_k_fail(k, line, "data_copy_pad: parameters must not be negative");
  if (bl % es || ds % es)
    return asc_k_fail(k, line,
                      "data_copy_pad: block_len (%lld) and dst_stride (%lld) are bytes and must "
                      "be whole %lld-byte elements",
                      (long long)bl, (long long)ds, (long long)es);
#if ASC_K_CHECKED
  if (src.off % 32)
    return asc_k_fail(k, line,
                      "data_copy_pad: the LocalTensor starts at UB byte %lld, which is "
                      "not 32-byte aligned",
                      (long long)src.off);
#endif
  if (!bc) return 0;
  int64_t ub_stride = asc_k_add(asc_k_mul(asc_k_add(bl, 31) / 32, 32), asc_k_mul(ss, 32));
  int64_t gm_step = asc_k_add(bl, ds), ub_span = asc_k_madd(bl, bc - 1, ub_stride);
#if ASC_K_CHECKED
  int64_t gm_span = asc_k_madd(bl, bc - 1, gm_step);
  if (gm_span < 0)
    return asc_k_fail(k, line,
                      "data_copy_pad: global memory access outside the argument (the "
                      "span overflows)");
  if (asc_k_gm_range(k, &dst, 0, gm_span / es, es, "data_copy_pad", line)) return 1;
#endif
  if (asc_k_ub_use(k, ASC_K_MTE3, src, ub_span < 0 ? ASC_K_FAR : ub_span / es, es, ASC_K_READ,
                   "data_copy_pad", "src", line))
    return 1;
  for (int64_t i = 0; i < bc; i++)
    asc_k_gm_write(&dst, asc_k_madd(dst.lead, i, gm_step), k->ub + src.off + i * ub_stride, bl);
  return 0;
}

/* --- debugging ------------------------------------------------------------------------- */
/* dump_tensor: one line per call, "[block B] dump_tensor desc=D WHAT<dtype>,
 * N elements: [v0, v1, ...]"; floats print with enough digits to read
 * back exactly. Written in chunks so that blocks rarely interleave. */
/* Elements come from p (UB), or from g's argument if g is not NULL (read as
 * asc_k_gm_read does: zeros outside it). */
static inline int asc_k_dump(asc_k_ctx *k, int dt, const char *p, const asc_k_gt *g, int64_t desc,
                             int64_t n, const char *what, const char *dtname) {
  char buf[4096];
  size_t len =
      (size_t)snprintf(buf, sizeof buf,
                       "[block %lld] dump_tensor desc=%lld %s<%s>, %lld "
                       "elements: [",
                       (long long)k->block_idx, (long long)desc, what, dtname, (long long)n);
  int digits = dt == ASC_K_DT_FLOAT16 ? 5 : dt == ASC_K_DT_BFLOAT16 ? 4 : 9;
  for (int64_t i = 0; i < n; i++) {
    if (len > sizeof buf - 64) {
      fwrite(buf, 1, len, stdout);
      len = 0;
    }
    const char *sep = i ? ", " : "";
    char gm[8];
    const char *e = gm;
    if (g)
      asc_k_gm_read(g, asc_k_madd(g->lead, i, asc_k_dt_size(dt)), gm, asc_k_dt_size(dt));
    else
      e = p + i * asc_k_dt_size(dt);
    if (asc_k_dt_float(dt))
      len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%.*g", sep, digits, asc_k_ld(dt, e));
    else
      len +=
          (size_t)snprintf(buf + len, sizeof buf - len, "%s%lld", sep, (long long)asc_k_ldi(dt, e));
  }
  len += (size_t)snprintf(buf + len, sizeof buf - len, "]\n");
  fwrite(buf, 1, len, stdout);
  fflush(stdout);
  return 0;
}
/* Debug reads: bounds (and extents in checked mode) but no pipe ordering. */
static inline int asc_k_dump_local(asc_k_ctx *k, int dt, asc_k_lt t, int64_t desc, int64_t n,
                                   const char *what, const char *dtname, int line) {
  if (n < 0) return asc_k_fail(k, line, "dump_tensor: negative dump_size %lld", (long long)n);
  if (asc_k_ub_range(k, t, n, asc_k_dt_size(dt), "dump_tensor", line)) return 1;
  return asc_k_dump(k, dt, k->ub + t.off, NULL, desc, n, what, dtname);
}
static inline int asc_k_dump_global(asc_k_ctx *k, int dt, asc_k_gt g, int64_t desc, int64_t n,
                                    const char *dtname, int line) {
  if (n < 0) return asc_k_fail(k, line, "dump_tensor: negative dump_size %lld", (long long)n);
  if (asc_k_gm_range(k, &g, 0, n, asc_k_dt_size(dt), "dump_tensor", line)) return 1;
  return asc_k_dump(k, dt, NULL, &g, desc, n, "GlobalTensor", dtname);
}
static inline int asc_k_trap(asc_k_ctx *k, int line) {
  return asc_k_fail(k, line, "trap(): the kernel stopped itself");
}
