/* Runtime for kernels compiled for the simulated AI cores. Generated C
 * includes this text verbatim, so it depends on nothing but libc.
 *
 * A block runs with a private Unified Buffer (k->ub, k->ub_reach bytes:
 * default mode lets a kernel go past the physical k->ub_size, as the NPU
 * does; see asc_k_ub_end). GlobalTensors are byte offsets into their
 * argument's memory; LocalTensors are byte offsets into the UB. Every API
 * call checks the ranges it touches: the UB always (an error naming the
 * source line), global memory as the device does by
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

/* float32 maths a launcher lends its blocks (rt/vmath.h): dst[i] = f(src[i])
 * for n values, dst equal to src or apart from it. */
typedef void (*asc_k_vmath_fn)(float *dst, const float *src, int64_t n);
enum { /* the table's order: jit.c maps each to libasc's function */
       ASC_K_VM_EXP,
       ASC_K_VM_LOG,
       ASC_K_VM_SQRT,
       ASC_K_VM_SIN,
       ASC_K_VM_COS,
       ASC_K_VM_TAN,
       ASC_K_VM_TANH,
       ASC_K_VM_ERF,
       ASC_K_VM_COUNT
};

/* The vector mask register (see "API coverage" below). */
typedef struct asc_k_vmask {
  int counter;   /* set_mask_count(): the low word is an element count */
  uint64_t m[2]; /* element bits of a repeat, low word first */
} asc_k_vmask;

/* rt/fwk.h's state of a block: the atomic store mode, set_pad_value, user tags. */
#define ASC_K_MAX_TAGS 64
typedef struct asc_k_fwk {
  int atomic_type; /* AtomicDtype, 0: off */
  int atomic_op;   /* 0 sum, 1 max, 2 min */
  int pad_set;
  double pad_value;
  int ntags;
  int64_t tag_off[ASC_K_MAX_TAGS], tag_val[ASC_K_MAX_TAGS];
} asc_k_fwk;
/* What the blocks of one launch share for inter-block synchronisation
 * (rt/system.h) and the one deadlock detector of every wait (rt/wait.h):
 * the launcher (jit_launch.c) owns it; blocks update it with atomics.
 * state[i]: 0 block i not started, 1 running, 2 finished. The cores of a
 * launch have slots 3 * block + c (c: 0 a block's only core or its AIC,
 * 1 and 2 its AIVs; rt/mix.h): cstate[slot] (ASC_K_CORE_*), and while a
 * core waits, what it waits for (wdesc, wa, wb: rt/wait.h). */
#define ASC_K_REPORT_MAX 560 /* bytes of asc_k_launch.report */
#define ASC_K_WHY_MAX 400    /* bytes of asc_k_launch.why */
typedef struct asc_k_launch {
  int64_t nblocks;
  int capacity; /* blocks that can run at once (the device's worker threads) */
  int running;  /* blocks started and not finished */
  int waiting;  /* unused */
  int failed;   /* a block failed: its unstarted successors never run */
  unsigned char *state;
  unsigned char *cstate; /* 3 * nblocks */
  /* Every change that can end a wait (a flag write, a sync_all arrival, a
   * cross-core set, a core's end) bumps epoch (from 1), then wakes the
   * sleepers; seen[slot] is the epoch at which the core last found its
   * wait unsatisfied, 0 while it does not wait. */
  int64_t epoch;
  int64_t *seen;              /* 3 * nblocks */
  int64_t *wdesc, *wa, *wb;   /* 3 * nblocks each */
  int64_t sync_arrivals[2];   /* sync_all arrivals so far: AIV (or every core), AIC */
  int sleepers;               /* cores in sleep */
  int deadlock, report_ready; /* the detector's report, written once */
  char *report;               /* ASC_K_REPORT_MAX bytes, valid once report_ready */
  int why_ready;              /* the first failed block's message */
  char *why;                  /* ASC_K_WHY_MAX bytes, valid once why_ready is 2 */
  /* POSIX services the launcher lends (kernels are strict C11): the
   * monotonic clock in ns, a pause of a spinning wait, a sleep of at most
   * 20 ms unless epoch changes from the given one, and the sleepers' wake. */
  int64_t (*clock_ns)(void);
  void (*pause)(unsigned spins);
  void (*sleep)(struct asc_k_launch *launch, int64_t epoch);
  void (*wake)(struct asc_k_launch *launch);
  /* The live device allocation holding ptr: 1 and its memory; 0 none; -1
   * ptr carries the tag of an allocation freed since (use after free). */
  int (*lookup)(uint64_t ptr, char **base, int64_t *n);
  /* rt/mix.h's launch-wide mode-0 cross-core flags: made by the first
   * block that needs them, freed by board_free when the launch ends. */
  void *board;
  void (*board_free)(void *board);
  /* rt/pool.h's buffers of the cores blocks add, reused by later blocks:
   * made by the first block that hands one back, freed by pool_free when
   * the launch ends. */
  void *pool;
  void (*pool_free)(void *pool);
  /* asc_k_poll: the caller's cancel flag (non-zero: stop; NULL: none), a
   * look for cancellation (non-zero: stop; NULL: none), and the watchdog's
   * limit on a block's run in ns (0: none) */
  const int *cancel;
  int (*check)(struct asc_k_launch *launch);
  int64_t timeout_ns;
} asc_k_launch;

/* Makes obj launch-wide at *slot (board, pool) unless another block was
 * first, with *free_slot the function that frees it when the launch ends:
 * returns the object that holds the slot (obj freed by free_fn if it
 * lost). */
static void *asc_k_launch_publish(void **slot, void (**free_slot)(void *), void *obj,
                                  void (*free_fn)(void *)) __attribute__((unused));
static void *asc_k_launch_publish(void **slot, void (**free_slot)(void *), void *obj,
                                  void (*free_fn)(void *)) {
  void *expected = NULL;
  if (!__atomic_compare_exchange_n(slot, &expected, obj, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    free_fn(obj);
    return expected;
  }
  *free_slot = free_fn; /* read when the launch ends, after every block */
  return obj;
}

/* A block's system registers (rt/system.h). */
typedef struct asc_k_sysreg {
  char *ws_base; /* set_sys_workspace: an address, as asc_k_addr (defined below) */
  int64_t ws_n, ws_lead;
  char *hccl_base[2]; /* set_hccl_context, per communication domain */
  int64_t hccl_n[2], hccl_lead[2];
  int64_t pre_waits; /* wait_pre_block calls made so far */
  int64_t syncs;     /* sync_all calls made so far */
  int64_t slot;      /* the core's slot in asc_k_launch (3 * block + core) */
  /* check_local_memory_ia's 4 registers: trapped accesses (bits: scalar
   * read, write, vector read, write, MTE read, write) of UB bytes [lo, hi) */
  int ia_on;
  unsigned char ia_flags[4];
  int64_t ia_lo[4], ia_hi[4];
  const struct asc_k_arg *args; /* the launch's arguments (rt/tensor_desc.h) */
  int nargs;
  asc_k_launch *launch; /* NULL when the block runs alone */
} asc_k_sysreg;
/* Special registers of the sort, compare and gather_mask units (rt/sort.h,
 * rt/mask_bits.h): merge-sort counts, the 128-bit CMPMASK, rsvdCnt. */
typedef struct asc_k_sregs {
  int64_t mrg[4];
  unsigned char cmp[16];
  int64_t rsvd;
  /* DEQSCALE (rt/deq.h): the scalar scale, 9-bit offset and sign mode,
   * the 16 groups of the vector form, and fixpipe's pre-quant scalar */
  float deq;
  int32_t deq_off;
  int deq_sign;
  float vdeq[16];
  int32_t vdeq_off[16];
  unsigned char vdeq_sign[16];
  uint64_t fpq;
} asc_k_sregs;

typedef struct asc_k_ctx {
  char *ub;
  int64_t ub_size;  /* the physical UB: platform numbers, checked mode's bounds */
  int64_t ub_reach; /* bytes at ub: default mode's bounds (asc_k_ub_end) */
  int64_t block_idx;
  int64_t block_num;
  int status; /* 0 ok, 1 kernel error */
  char msg[768];
  struct asc_k_chk *chk; /* checked mode's state, owned by the kernel's entry */
  asc_k_vmask vm;        /* set by the kernel's first statement */
  void *cube;            /* the block's AIC buffers (rt/cube.h), NULL if unused */
  /* the core it runs on (rt/mix.h): kind 0 AIV, 1 AIC; in a mixed
   * kernel's group (mixed != 0) the AIVs are sub-blocks 0 and 1 */
  int core_kind;
  int mixed;
  int64_t sub_block_idx, sub_block_num;
  void *group;   /* rt/mix.h's flags of the core's group, NULL if unused */
  asc_k_fwk fwk; /* rt/fwk.h; the launch clears its counters */
  /* every block of the launch runs at once (sync_all, mode-0 flags) */
  int all_live;
  asc_k_sysreg sys; /* zeroed by the launcher, which may set sys.launch */
  asc_k_sregs sr;   /* zeroed with vm */
  /* ASC_K_VM_COUNT functions (rt/vmath.h); NULL: the C library's */
  const asc_k_vmath_fn *vmath;
  /* asc_k_poll: calls since the last look, and when the block started (ns,
   * for the watchdog); the launcher zeroes both */
  uint32_t ticks;
  int64_t t0;
  /* an Ascend C kernel's own entry, which each core of its group runs
   * (ascendc_rt_cube.h); NULL for kernels written in Python */
  int (*ext_run)(void *k, const void *args);
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
  /* TPipe.alloc_event_id: the allocated ids of each HardEvent, a bit each */
  uint8_t event_ids[64];
  /* a TBufPool (rt/fwk.h) when pool is set: it hands out [base, end) */
  int pool;
  int64_t base, end;
  int bufs, max_bufs; /* buffers handed out; at most max_bufs if not 0 */
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

/* Called on every iteration of a kernel's loops and every turn of a
 * spinning wait: every 1024th call, a launch cancelled by its caller (Ctrl-C
 * during a synchronous launch) or running past its watchdog
 * (PYASC_KERNEL_TIMEOUT_MS) stops at line. Cheap: a counter, then a
 * relaxed load. */
static inline int asc_k_poll_slow(asc_k_ctx *k, int line, const char *where) {
  struct asc_k_launch *L = k->sys.launch;
  if (!L) return 0;
  if ((L->cancel && __atomic_load_n(L->cancel, __ATOMIC_RELAXED)) || (L->check && L->check(L)))
    return asc_k_fail(k, line, "interrupted (KeyboardInterrupt) in %s", where);
  if (L->timeout_ns > 0 && L->clock_ns) {
    int64_t now = L->clock_ns();
    if (!k->t0) k->t0 = now;
    if (now - k->t0 > L->timeout_ns)
      return asc_k_fail(k, line,
                        "the kernel ran longer than PYASC_KERNEL_TIMEOUT_MS=%lld and was stopped "
                        "in %s (an endless loop?)",
                        (long long)(L->timeout_ns / 1000000), where);
  }
  return 0;
}
static inline int asc_k_poll(asc_k_ctx *k, int line) {
  if (__builtin_expect((++k->ticks & 1023u) != 0, 1)) return 0;
  return asc_k_poll_slow(k, line, "the loop at this line");
}

/* A float scalar as an integer (int(x), a float stored to an integer
 * tensor or field): truncated toward zero and saturated to int64, NaN 0, as
 * the vector Cast saturates (rt/vector.h asc_k_cast_store). A plain C cast
 * of a double outside int64's range is undefined behaviour. */
static inline int64_t asc_k_f2i(double x) {
  if (x != x) return 0;
  if (x >= 0x1p63) return INT64_MAX;
  if (x < -0x1p63) return INT64_MIN;
  return (int64_t)x;
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

/* The end of the UB bytes a kernel may address. The NPU does not check
 * that a TPipe buffer or a tensor ends inside the physical UB, so default
 * mode lets it reach past it, up to k->ub_reach (asc_ub_reach in asc/hal.h:
 * the arena holds that much, apart from the cube's buffers and the other
 * cores' UBs); checked mode reports the overflow as the bug it is. */
static inline int64_t asc_k_ub_end(const asc_k_ctx *k) {
#if ASC_K_CHECKED
  return k->ub_size;
#else
  return k->ub_reach;
#endif
}
/* For a UB bounds error: how far default mode's reach went, or "". */
static inline const char *asc_k_reach_note(const asc_k_ctx *k, char *buf, size_t size) {
  buf[0] = '\0';
  if (asc_k_ub_end(k) > k->ub_size)
    snprintf(buf, size, " (or the %lld bytes default mode lets a kernel reach)",
             (long long)asc_k_ub_end(k));
  return buf;
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
#ifdef ASC_K_CUBE
/* cube unit: the checker's shadow also covers the AIC's L1, L0A, L0B and
 * L0C (768 KiB after the UB, see rt/cube.h), which M and FIX read too */
#define ASC_K_UB_PIPES 7
#define ASC_K_CUBE_SHADOW (768 * 1024)
#else
#define ASC_K_UB_PIPES 5
#define ASC_K_CUBE_SHADOW 0
#endif
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
  int64_t ngran = (k->ub_size + ASC_K_CUBE_SHADOW + ASC_K_GRAN - 1) / ASC_K_GRAN;
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
  /* cube unit: shadow bytes past the UB are the AIC's buffers */
  const char *where = "UB";
  int64_t base = 0;
  if (ASC_K_CUBE_SHADOW && off >= k->ub_size) {
    static const char *const bufs[] = {"L1", "L0A", "L0B", "L0C"};
    static const int64_t starts[] = {0, 512 * 1024, 576 * 1024, 640 * 1024, 768 * 1024};
    int b = 0;
    while (b < 3 && off - k->ub_size >= starts[b + 1]) b++;
    where = bufs[b];
    base = k->ub_size + starts[b];
  }
  off -= base, end -= base, lo -= base, hi -= base;
  return asc_k_fail(k, line,
                    "%s: missing synchronisation (%s): %s %s %s bytes [%lld, %lld) on pipe %s, "
                    "but %s at line %d %s bytes [%lld, %lld) on pipe %s and nothing orders that "
                    "before this; add %s",
                    api,
                    other_read ? "write-after-read"
                    : write    ? "write-after-write"
                               : "read-after-write",
                    operand, write ? "writes" : "reads", where, (long long)off, (long long)end,
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
