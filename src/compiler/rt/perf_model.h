/* The timing model of a profiled kernel (docs/perf-model.md): per-pipe
 * clocks of one simulated AI core, charged from one table of hardware
 * parameters. Only profiled builds carry the kernel part of this text
 * (emit_c.c appends it after the runtime and defines ASC_K_PROFILE; Ascend
 * C's profiled tables include it, ascendc_rt_perf.h), so an unprofiled
 * kernel is the same C as without it. jit.c includes it for the
 * record type and the table alone.
 *
 * Pipes are the checker's (rt/core.h): ASC_K_S, V, MTE1, MTE2, MTE3, M, FIX.
 * Each pipe keeps a clock, in cycles: when its last instruction ends. An
 * instruction starts when its pipe is free and the scalar unit has issued
 * it; pipes run concurrently and wait for each other only at the program's
 * synchronisation: wait_flag(SRC_DST) moves DST's clock to the time
 * set_flag(SRC_DST) saw on SRC; a TQue carries its producer's time from
 * enque to deque (first in, first out) and its consumer's from free_tensor
 * to the alloc_tensor that reuses the buffer (round-robin, as on the chip);
 * pipe_barrier(PIPE_ALL) and sync_all bring every pipe to the latest. HBM
 * traffic (reads, and dirty lines a write-back L2 evicts) shares the chip's
 * bandwidth among the cores of the launch that run at once. The host side
 * (python/pyasc/profiler.py) sums the blocks' records into waves. */
#ifndef ASC_PF_TABLE
#define ASC_PF_TABLE

#include <stddef.h>
#include <stdint.h>

/* --- the table --------------------------------------------------------------
 * One set of parameters for every program; sources in docs/perf-model.md. */
#define ASC_PF_CLOCK_MHZ 1850.0  /* Atlas A2 (Ascend 910B1) AI core clock */
#define ASC_PF_AIV_CORES 48      /* vector cores (AIV) */
#define ASC_PF_AIC_CORES 24      /* cube cores (AIC) */
#define ASC_PF_VEC_BYTES 256.0   /* bytes of one operand a vector repeat reads per cycle */
#define ASC_PF_UB_GROUPS 16      /* UB bank groups (3 banks of 128 rows each) */
#define ASC_PF_UB_ROW 32         /* bytes of a bank row; consecutive rows in consecutive groups */
#define ASC_PF_VEC_STARTUP 20.0  /* cycles before a vector instruction's first repeat */
#define ASC_PF_CUBE_FRACTAL 16   /* the cube multiplies 16x16 by 16x16 (fp16) per cycle */
#define ASC_PF_CUBE_STARTUP 20.0 /* cycles before an mmad's first fractal */
#define ASC_PF_GM_BYTES_PER_S 1.49e12 /* chip-wide HBM bandwidth a streaming read achieves */
#define ASC_PF_L2_BYTES (192.0 * 1024 * 1024) /* the chip's L2 cache, shared by all cores */
#define ASC_PF_L2_BYTES_PER_S 5e12            /* the L2's peak bandwidth, shared by all cores */
#define ASC_PF_L2_LINE 512                    /* bytes of an L2 line (estimate) */
#define ASC_PF_L2_WAYS 16                     /* lines of a set (estimate) */
#define ASC_PF_MTE_PORT 128.0                 /* bytes per cycle one MTE moves on its own */
#define ASC_PF_GM_LATENCY 200.0               /* cycles from a GM copy's issue to its first data */
#define ASC_PF_BURST 1.73         /* MTE cycles per burst (a row) of a GM copy, beside its bytes */
#define ASC_PF_LOCAL_BYTES 256.0  /* bytes per cycle of L1/L0/UB-internal moves (MTE1) */
#define ASC_PF_ISSUE 1.0          /* scalar cycles per instruction issued */
#define ASC_PF_SCALAR_UB 10.0     /* scalar cycles of a get_value/set_value on the UB */
#define ASC_PF_LAUNCH_US 3.0      /* task launch and completion, per launch */
#define ASC_PF_MM_INIT_US 1.886   /* a Matmul's scalar set-up (init), constant tiling */
#define ASC_PF_MM_TILING_US 0.954 /* ... more with a runtime TCubeTiling */
#define ASC_PF_MM_ITER_US 0.299   /* the Matmul API's scalar work per base block, constant tiling */
#define ASC_PF_MM_ITER_TILING_US 0.397 /* ... more with a runtime TCubeTiling */
#define ASC_PF_UNIT_BYTES 512          /* L0C bytes per unit flag: MMAD/FIXPIPE hand-over grain */

/* --- what a block reports ---------------------------------------------------- */
#define ASC_PF_NPIPES 7
#define ASC_PF_MAX_SPANS 1024
typedef struct asc_pf_span {
  float start, end; /* cycles from the block's start */
  int32_t pipe;     /* ASC_K_S ... ASC_K_FIX */
  int32_t line;     /* the source location of the span's first instruction */
} asc_pf_span;
typedef struct asc_pf_record {
  int64_t block_idx;
  int32_t core_kind; /* 0 AIV, 1 AIC */
  int32_t sub_block; /* the AIV's index in a mixed group, else 0 */
  int32_t used;      /* 1 once the block finished */
  int32_t nspans;    /* spans kept (ASC_PF_MAX_SPANS at most; later ones merge) */
  int32_t wave;      /* the blocks run in waves of as many as the chip has cores */
  int32_t cores;     /* ... that many */
  double clock_mhz;  /* the table's clock and launch overhead, for the host's sums */
  double launch_us;
  double end; /* cycles: the block's last pipe clock */
  double busy[ASC_PF_NPIPES];
  asc_pf_span spans[ASC_PF_MAX_SPANS];
} asc_pf_record;
#endif /* ASC_PF_TABLE */

#if defined(ASC_K_PROFILE) && !defined(ASC_PF_KERNEL)
#define ASC_PF_KERNEL
/* --- the kernel's side ---------------------------------------------------- */
#define ASC_PF_NEVENTS 64
#define ASC_PF_NIDS 8
#define ASC_PF_MAX_QUES 32
#define ASC_PF_CAL 32      /* busy intervals of a core's bandwidth share kept */
#define ASC_PF_HINTS 16    /* arguments with an L2 cache hint */
#define ASC_PF_MM_SLOTS 16 /* L1 chunks of one Matmul operand the model tracks */
#define ASC_PF_DEVS 32     /* arguments given device addresses of their own */

/* The pipes' hand-overs inside a Matmul object (asc_pf_mm_block): when
 * MTE1 last read each L1 chunk slot of A and B (a load into the slot
 * waits for it), when each chunk arrived, when the cube last read each
 * L0A/L0B half, and when FIXPIPE last emptied L0C. One per core: a
 * kernel's Matmul objects share it. */
typedef struct asc_pf_mm {
  double l1_free[2][ASC_PF_MM_SLOTS], l1_ready[2][ASC_PF_MM_SLOTS];
  double l0_free[2], c_free;
  /* the unit flag's finer hand-over: when the block's last mmad started and
   * how long it ran, when FIXPIPE started on L0C and how long a unit took */
  double mm_start, mm_dur, fix_start, fix_unit;
  int64_t loads[2], cur[2], steps;
} asc_pf_mm;

/* A TQue as the hardware runs it: a FIFO of enqueued buffers, and buffers
 * handed out round-robin, so that alloc_tensor number n takes the buffer
 * free_tensor number n - nbuf gave back. Times only: the simulator's own
 * choice of buffer does not matter. */
typedef struct asc_pf_que {
  const void *q;
  int src, dst;                  /* the pipe that fills its buffers, the one that drains them */
  double enq[ASC_K_MAX_DEPTH];   /* the producer's clock at each queued enque */
  double freed[ASC_K_MAX_DEPTH]; /* the consumer's clock at the last frees */
  int enq_head, enq_n;
  int64_t nalloc, nfree;
} asc_pf_que;

typedef struct asc_pf {
  double clk[ASC_PF_NPIPES];
  double flag[ASC_PF_NEVENTS][ASC_PF_NIDS];
  /* this core's share of the GM bandwidth (bytes per cycle) and when it is
   * busy: sorted, disjoint intervals, those before the scalar unit dropped */
  double share;
  int64_t at_once; /* blocks of the launch that run at once (groups, in a mixed launch) */
  double cal_s[ASC_PF_CAL], cal_e[ASC_PF_CAL];
  int ncal;
  /* this core's share of the L2 and of its bandwidth (bytes per cycle):
   * a set-associative cache of its lines, l2_sets sets of ASC_PF_L2_WAYS
   * tags ((line + 1) << 1 | dirty, 0: empty), most recently used first, so
   * the last goes out; NULL when it could not be allocated (all misses) */
  double l2_share;
  uint64_t *l2;
  int64_t l2_sets;
  uint64_t l2_mask; /* l2_sets - 1 when that is a power of two (a mask for the modulo), else 0 */
  /* set_l2_cache_hint: the argument (its first byte) and its CacheMode */
  const char *hint_base[ASC_PF_HINTS];
  int hint_mode[ASC_PF_HINTS], nhints;
  /* the arguments in the order the block first copied them: argument i
   * sits at device address (i + 1) << 40 (see asc_pf_dev) */
  const char *dev_base[ASC_PF_DEVS];
  int ndevs;
  int nques;
  asc_pf_mm mm;
  asc_pf_record *rec;
  asc_pf_que ques[ASC_PF_MAX_QUES]; /* last: begin clears what comes before */
} asc_pf;

/* The launch's records, one per block (three per group in a mixed kernel):
 * made by asc_kernel_pf_reset before a launch, read after it (jit.c). */
static asc_pf_record *asc_pf_records;
static int64_t asc_pf_nrecords;
static _Thread_local asc_pf *asc_pf_cur;

int asc_kernel_pf_reset(int64_t n);
int asc_kernel_pf_reset(int64_t n) {
  free(asc_pf_records);
  asc_pf_records = n > 0 ? calloc((size_t)n, sizeof *asc_pf_records) : NULL;
  asc_pf_nrecords = asc_pf_records ? n : 0;
  return n > 0 && !asc_pf_records;
}
const asc_pf_record *asc_kernel_pf_records(int64_t *n);
const asc_pf_record *asc_kernel_pf_records(int64_t *n) {
  *n = asc_pf_nrecords;
  return asc_pf_records;
}

/* How many blocks run at once: cores of the block's kind, or groups. */
static inline int64_t asc_pf_cores(const asc_k_ctx *k) {
  return k->mixed || k->core_kind ? ASC_PF_AIC_CORES : ASC_PF_AIV_CORES;
}
static inline int asc_pf_begin(asc_k_ctx *k, asc_pf *pf) {
  memset(pf, 0, offsetof(asc_pf, ques)); /* queues are cleared as they are made */
  /* a mixed launch of N groups: its AICs are blocks 0..N-1, its AIVs 0..2N-1 */
  int64_t slot = k->mixed && !k->core_kind ? k->block_num + k->block_idx : k->block_idx;
  pf->rec = slot >= 0 && slot < asc_pf_nrecords ? &asc_pf_records[slot] : NULL;
  if (pf->rec) memset(pf->rec, 0, sizeof *pf->rec);
  /* the cores of the launch that run at once share the chip's bandwidth:
   * blocks of one core, or groups of an AIC and two AIVs (rt/mix.h) */
  int64_t cores = asc_pf_cores(k);
  int64_t active = k->block_num < cores ? k->block_num : cores;
  if (active < 1) active = 1;
  pf->at_once = active;
  if (k->mixed) active *= 3;
  pf->share = ASC_PF_GM_BYTES_PER_S / (ASC_PF_CLOCK_MHZ * 1e6) / (double)active;
  pf->l2_share = ASC_PF_L2_BYTES_PER_S / (ASC_PF_CLOCK_MHZ * 1e6) / (double)active;
  pf->l2_sets = (int64_t)(ASC_PF_L2_BYTES / (double)active) / ASC_PF_L2_LINE / ASC_PF_L2_WAYS;
  if (pf->l2_sets < 1) pf->l2_sets = 1;
  if ((pf->l2_sets & (pf->l2_sets - 1)) == 0) pf->l2_mask = (uint64_t)pf->l2_sets - 1;
  pf->l2 = calloc((size_t)pf->l2_sets * ASC_PF_L2_WAYS, sizeof *pf->l2);
  asc_pf_cur = pf;
  return 0;
}
static inline void asc_pf_end(asc_k_ctx *k, asc_pf *pf) {
  asc_pf_cur = NULL;
  free(pf->l2); /* what is still dirty is written back after the task: not charged */
  pf->l2 = NULL;
  asc_pf_record *r = pf->rec;
  if (!r) return;
  r->block_idx = k->block_idx;
  r->core_kind = k->core_kind;
  r->sub_block = (int32_t)k->sub_block_idx;
  r->used = 1;
  int64_t cores = asc_pf_cores(k);
  r->cores = (int32_t)cores;
  r->wave = (int32_t)((k->mixed && !k->core_kind ? k->block_idx / 2 : k->block_idx) / cores);
  r->clock_mhz = ASC_PF_CLOCK_MHZ;
  r->launch_us = ASC_PF_LAUNCH_US;
  for (int p = 0; p < ASC_PF_NPIPES; p++)
    if (pf->clk[p] > r->end) r->end = pf->clk[p];
  if (r->nspans < ASC_PF_MAX_SPANS &&
      pf->clk[ASC_K_S] > 0) { /* the scalar unit issues throughout */
    asc_pf_span s = {0, (float)pf->clk[ASC_K_S], ASC_K_S, 0};
    r->spans[r->nspans++] = s;
  }
}

/* Pipe p ran from start to end: its clock, busy time and the timeline. */
static inline void asc_pf_run(asc_pf *pf, int p, double start, double end, int line) {
  pf->clk[p] = end;
  asc_pf_record *r = pf->rec;
  if (!r) return;
  r->busy[p] += end - start;
  asc_pf_span *last = NULL;
  for (int i = r->nspans - 1; i >= 0 && i >= r->nspans - ASC_PF_NPIPES; i--)
    if (r->spans[i].pipe == p) {
      last = &r->spans[i];
      break;
    }
  /* back-to-back work of a pipe is one span; when the log is full, the
   * pipe's last span grows to cover the rest */
  if (last && ((double)last->end >= start - 0.5 || r->nspans == ASC_PF_MAX_SPANS)) {
    last->end = (float)end;
    return;
  }
  if (r->nspans == ASC_PF_MAX_SPANS) return;
  asc_pf_span s = {(float)start, (float)end, p, line};
  r->spans[r->nspans++] = s;
}
/* The scalar unit issues n instructions (or works n cycles). */
static inline void asc_pf_s(asc_pf *pf, double n) {
  pf->clk[ASC_K_S] += n;
  if (pf->rec) pf->rec->busy[ASC_K_S] += n;
}
/* An instruction of `cycles` on pipe p, issued by the scalar unit. */
static inline void asc_pf_op(asc_pf *pf, int p, double cycles, int line) {
  asc_pf_s(pf, ASC_PF_ISSUE);
  if (p == ASC_K_S) {
    asc_pf_s(pf, cycles);
    return;
  }
  double start = pf->clk[p] > pf->clk[ASC_K_S] ? pf->clk[p] : pf->clk[ASC_K_S];
  asc_pf_run(pf, p, start, start + cycles, line);
}
/* A vector instruction over `bytes` of each of its nsrc source operands. */
static inline void asc_pf_vec(asc_pf *pf, int64_t bytes, int nsrc, int64_t a, int64_t b, int line) {
  if (bytes < 0) bytes = 0;
  double repeats = (double)((bytes + (int64_t)ASC_PF_VEC_BYTES - 1) / (int64_t)ASC_PF_VEC_BYTES);
  /* two sources read in the same cycle when their 256-B windows fall in
   * different bank groups: 32-B rows go round the groups, so only windows
   * half the round (256 B) apart miss each other */
  int64_t round = ASC_PF_UB_GROUPS * ASC_PF_UB_ROW, shift = (b - a) % round;
  int apart = nsrc == 2 && a >= 0 && b >= 0 && (shift + round) % round == round / 2;
  double per = nsrc <= 1 || apart ? 1 : (double)nsrc;
  asc_pf_op(pf, ASC_K_V, ASC_PF_VEC_STARTUP + repeats * per, line);
}
/* Moves d cycles of data through the core's bandwidth share from `first`
 * on, in the gaps its other transfers leave; returns when the last byte
 * moved. Transfers that overlap in time share the bandwidth, whatever
 * order the program issued them in. */
static inline double asc_pf_channel(asc_pf *pf, double first, double d) {
  double ps[ASC_PF_CAL + 1], pe[ASC_PF_CAL + 1], t = first, left = d;
  int np = 0;
  for (int i = 0; i < pf->ncal && left > 0; i++) {
    if (pf->cal_e[i] <= t) continue;
    if (pf->cal_s[i] > t) {
      double use = pf->cal_s[i] - t < left ? pf->cal_s[i] - t : left;
      ps[np] = t;
      pe[np++] = t + use;
      left -= use;
    }
    t = pf->cal_e[i] > t ? pf->cal_e[i] : t;
  }
  if (left > 0 || np == 0) {
    ps[np] = t;
    pe[np++] = t + (left > 0 ? left : 0);
  }
  double end = pe[np - 1];
  /* merge the pieces in (both lists are sorted), drop what the scalar unit
   * has passed, and keep at most ASC_PF_CAL intervals (the earliest merge) */
  double ms[2 * ASC_PF_CAL + 1], me[2 * ASC_PF_CAL + 1];
  int n = 0, i = 0, j = 0;
  while (i < pf->ncal || j < np) {
    int old = j == np || (i < pf->ncal && pf->cal_s[i] <= ps[j]);
    double s0 = old ? pf->cal_s[i] : ps[j], e0 = old ? pf->cal_e[i++] : pe[j++];
    if (e0 < pf->clk[ASC_K_S]) continue;
    if (n && s0 <= me[n - 1]) {
      if (e0 > me[n - 1]) me[n - 1] = e0;
    } else {
      ms[n] = s0;
      me[n++] = e0;
    }
  }
  int skip = n > ASC_PF_CAL ? n - ASC_PF_CAL : 0;
  if (skip) me[skip] = me[skip] > me[skip - 1] ? me[skip] : me[skip - 1], ms[skip] = ms[0];
  for (int k = skip; k < n; k++) {
    pf->cal_s[k - skip] = ms[k];
    pf->cal_e[k - skip] = me[k];
  }
  pf->ncal = n - skip;
  return end;
}
/* set_l2_cache_hint(mode, rw) on a GlobalTensor of the argument at base. */
static inline void asc_pf_l2_hint(asc_pf *pf, const char *base, int64_t mode, int64_t rw) {
  asc_pf_s(pf, ASC_PF_ISSUE);
  (void)rw;
  int i = 0;
  while (i < pf->nhints && pf->hint_base[i] != base) i++;
  if (i == ASC_PF_HINTS) return;
  pf->hint_base[i] = base;
  pf->hint_mode[i] = (int)mode;
  if (i == pf->nhints) pf->nhints++;
}
/* One L2 line of this core's share: a hit returns 1 (and marks it used,
 * dirty if written); a miss allocates it unless alloc is 0, evicting the
 * set's least recently used line, whose bytes go back to HBM if dirty
 * (added to *back). Sets are picked by a hash of the line, as hardware
 * spreads power-of-two strides over its sets. */
_Static_assert(ASC_PF_L2_WAYS % 4 == 0, "asc_pf_l2_line tests four ways at a time");
static inline int asc_pf_l2_line(asc_pf *pf, uint64_t line, int write, int alloc, double *back) {
  if (!pf->l2) return 0;
  /* consecutive lines in consecutive sets (a copy walks memory in order),
   * higher address bits folded in so that large strides spread */
  uint64_t h = line ^ (line >> 10) ^ (line >> 20);
  const uint64_t set = pf->l2_mask ? h & pf->l2_mask : h % (uint64_t)pf->l2_sets;
  /* a set's ways in the order of their last use (128 B): a used line moves
   * to the front, so the least recently used is the last, found without a
   * scan (the lookups are the profiled build's main cost on long copies) */
  uint64_t *way = pf->l2 + (int64_t)set * ASC_PF_L2_WAYS;
  const uint64_t key = (line + 1) << 1, dirty = (uint64_t)(write != 0);
  /* four ways a test: a miss, the common case of a long copy, takes four
   * branches rather than sixteen */
  int w = 0;
  while (w < ASC_PF_L2_WAYS &&
         ((way[w] & ~(uint64_t)1) != key) & ((way[w + 1] & ~(uint64_t)1) != key) &
             ((way[w + 2] & ~(uint64_t)1) != key) & ((way[w + 3] & ~(uint64_t)1) != key))
    w += 4;
  while (w < ASC_PF_L2_WAYS && (way[w] & ~(uint64_t)1) != key) w++;
  int hit = w < ASC_PF_L2_WAYS;
  if (!hit && !alloc) return 0;
  uint64_t t = hit ? way[w] | dirty : key | dirty;
  if (!hit) {
    w = ASC_PF_L2_WAYS - 1;
    if (way[w] & 1) *back += ASC_PF_L2_LINE;
  }
  for (; w > 0; w--) way[w] = way[w - 1]; /* a call to memmove cost as much as the rest */
  way[0] = t;
  return hit;
}
/* rows of rowbytes, stride bytes apart from addr, through the L2: returns
 * the bytes a read fetches from HBM (a line that misses comes whole when
 * the L2 allocates it, else only the bytes asked for); dirty evictions are
 * added to *back.
 *
 * A read's row that crosses line boundaries it need not cross (it starts
 * off a line) costs HBM a line for each such piece, unless the piece's
 * line missed and was fetched anyway: the row's extra pieces, at most its
 * pieces that hit. CANN's data_copy example (Atlas A2, 48 and 24 cores
 * reading a half matrix tile by tile) measures it: rows of 2,046 bytes at
 * 24,574-byte strides (five pieces, the boundary line shared with the
 * next tile) take 1.28 times the MTE2 time of 2,048-byte rows at 24,576;
 * rows of 510 bytes 1.97 times that of 512-byte rows; rows of 128 bytes
 * on 128-byte offsets cross nothing. */
static inline double asc_pf_l2_touch(asc_pf *pf, uint64_t addr, int64_t rows, int64_t rowbytes,
                                     int64_t stride, int write, int alloc, double *back) {
  double fetch = 0;
  const int64_t fewest = (rowbytes + ASC_PF_L2_LINE - 1) / ASC_PF_L2_LINE;
  for (int64_t r = 0; r < rows; r++) {
    uint64_t a = addr + (uint64_t)(r * stride), e = a + (uint64_t)rowbytes;
    int64_t pieces = 0, hits = 0;
    for (uint64_t l = a / ASC_PF_L2_LINE; l * ASC_PF_L2_LINE < e; l++, pieces++) {
      uint64_t lo = l * ASC_PF_L2_LINE > a ? l * ASC_PF_L2_LINE : a;
      uint64_t hi = (l + 1) * ASC_PF_L2_LINE < e ? (l + 1) * ASC_PF_L2_LINE : e;
      if (asc_pf_l2_line(pf, l, write, alloc, back))
        hits++;
      else
        fetch += alloc ? (double)ASC_PF_L2_LINE : (double)(hi - lo);
    }
    if (!write && pieces > fewest)
      fetch += (double)(pieces - fewest < hits ? pieces - fewest : hits) * ASC_PF_L2_LINE;
  }
  return fetch;
}
/* The address the L2 sees for addr in the argument at base: the argument's
 * place on the device rather than the host's, so that the sets a copy
 * falls in, and so its modelled time, are the same on every run. Each
 * argument starts at a 1 TiB boundary plus a few hundred lines of its own
 * (as allocations land at unrelated places); past ASC_PF_DEVS arguments
 * the host's address is used. */
static inline uint64_t asc_pf_dev(asc_pf *pf, const char *base, const char *addr) {
  if (!base || addr < base) return (uint64_t)(uintptr_t)addr;
  int i = 0;
  while (i < pf->ndevs && pf->dev_base[i] != base) i++;
  if (i == ASC_PF_DEVS) return (uint64_t)(uintptr_t)addr;
  if (i == pf->ndevs) pf->dev_base[pf->ndevs++] = base;
  return ((uint64_t)(i + 1) << 40) + (uint64_t)i * 613 * ASC_PF_L2_LINE + (uint64_t)(addr - base);
}
/* A GM <-> UB/L1 copy on pipe p (MTE2 in, MTE3 and FIX out) of rows of
 * rowbytes, stride bytes apart from addr, in the argument at base, that
 * `sharers` cores of the wave read at about the same time. Every byte
 * passes the L2 at the core's share of its bandwidth; HBM moves what reads
 * miss (a line the sharers fetch once, each charged its part) and the
 * dirty lines the L2 evicts. Writes land in the L2 (write-back); reads
 * allocate there unless the argument's hint is CACHE_MODE_DISABLE. The
 * copy moves in `bursts` bursts (its rows, or DataCopyParams' blockCount),
 * each BURST cycles of the MTE beside its bytes. */
static inline void asc_pf_copy(asc_pf *pf, int p, const char *base, const char *addr, int64_t rows,
                               int64_t rowbytes, int64_t stride, int64_t bursts, double sharers,
                               int line) {
  if (rows < 0 || rowbytes < 0) rows = rowbytes = 0;
  if (bursts < 0) bursts = 0;
  asc_pf_s(pf, ASC_PF_ISSUE);
  int mode = 0; /* CACHE_MODE_NORMAL */
  for (int i = 0; i < pf->nhints; i++)
    if (pf->hint_base[i] == base) mode = pf->hint_mode[i];
  int read = p == ASC_K_MTE2;
  double bytes = (double)rows * (double)rowbytes, back = 0;
  double fetch = asc_pf_l2_touch(pf, asc_pf_dev(pf, base, addr), rows, rowbytes, stride, !read,
                                 !read || mode != 1, &back);
  double hbm = (read ? fetch / (sharers > 1 ? sharers : 1) : 0) + back;
  double start = pf->clk[p] > pf->clk[ASC_K_S] ? pf->clk[p] : pf->clk[ASC_K_S];
  double first = start + ASC_PF_GM_LATENCY;
  double end = first + (double)bursts * ASC_PF_BURST + bytes / ASC_PF_MTE_PORT;
  double l2_end = first + bytes / pf->l2_share, ch_end = asc_pf_channel(pf, first, hbm / pf->share);
  if (l2_end > end) end = l2_end;
  asc_pf_run(pf, p, start, ch_end > end ? ch_end : end, line);
}
/* rows of rowbytes, stride bytes apart, each a burst, read by `sharers` cores */
static inline void asc_pf_gm2ds(asc_pf *pf, int p, const char *base, const char *addr, int64_t rows,
                                int64_t rowbytes, int64_t stride, double sharers, int line) {
  asc_pf_copy(pf, p, base, addr, rows, rowbytes, stride, rows, sharers, line);
}
static inline void asc_pf_gm2d(asc_pf *pf, int p, const char *base, const char *addr, int64_t rows,
                               int64_t rowbytes, int64_t stride, int line) {
  asc_pf_copy(pf, p, base, addr, rows, rowbytes, stride, rows, 1, line);
}
/* Nd2Nz from GM on MTE2: nd matrices, nd_stride bytes apart, of rows of
 * rowbytes, stride bytes apart. */
static inline void asc_pf_nd2nz(asc_pf *pf, const char *base, const char *addr, int64_t nd,
                                int64_t rows, int64_t rowbytes, int64_t nd_stride, int64_t stride,
                                int line) {
  if (nd > 65535) nd = 65535; /* ndNum is 16 bits: the runtime rejects more */
  for (int64_t i = 0; i < nd; i++)
    asc_pf_gm2d(pf, ASC_K_MTE2, base, addr + i * nd_stride, rows, rowbytes, stride, line);
}
/* A contiguous copy of `bytes` at addr. */
static inline void asc_pf_gm(asc_pf *pf, int p, int64_t bytes, const char *base, const char *addr,
                             int line) {
  asc_pf_gm2d(pf, p, base, addr, 1, bytes, 0, line);
}
/* DataCopy's count form between GM and a local buffer: count elements of
 * es bytes, in whole 32-B blocks. */
static inline void asc_pf_copy_count(asc_pf *pf, int p, int64_t count, int64_t es, const char *base,
                                     const char *addr, int line) {
  asc_pf_gm(pf, p, count * es / 32 * 32, base, addr, line);
}
/* DataCopy with DataCopyParams between GM and a local buffer: bc bursts of
 * bl 32-B blocks, gap blocks apart on the GM side. */
static inline void asc_pf_copy_blocks(asc_pf *pf, int p, const char *base, const char *addr,
                                      int64_t bc, int64_t bl, int64_t gap, int line) {
  asc_pf_gm2d(pf, p, base, addr, bc, bl * 32, (bl + gap) * 32, line);
}
/* DataCopyPad between GM and the UB: bc bursts of bl bytes, gap bytes
 * apart on the GM side. */
static inline void asc_pf_copy_pad(asc_pf *pf, int p, const char *base, const char *addr,
                                   int64_t bc, int64_t bl, int64_t gap, int line) {
  asc_pf_gm2d(pf, p, base, addr, bc, bl, bl + gap, line);
}
/* A move inside the core (L1 -> L0A/L0B, UB <-> L1): MTE1's rate. */
static inline void asc_pf_local(asc_pf *pf, int p, int64_t bytes, int line) {
  asc_pf_op(pf, p, (double)(bytes > 0 ? bytes : 0) / ASC_PF_LOCAL_BYTES, line);
}
/* mmad of an m x k by k x n product: 16x16x16 fractals, one a cycle. */
static inline double asc_pf_mmad_cycles(int64_t m, int64_t n, int64_t kk) {
  const int64_t f = ASC_PF_CUBE_FRACTAL;
  double fr = (double)((m + f - 1) / f) * (double)((n + f - 1) / f) * (double)((kk + f - 1) / f);
  return ASC_PF_CUBE_STARTUP + (fr > 0 ? fr : 0);
}
static inline void asc_pf_mmad(asc_pf *pf, int64_t m, int64_t n, int64_t kk, int line) {
  asc_pf_op(pf, ASC_K_M, asc_pf_mmad_cycles(m, n, kk), line);
}
/* get_value/set_value on the UB (or GM) by the scalar unit. */
static inline void asc_pf_scalar_mem(asc_pf *pf) {
  asc_pf_s(pf, ASC_PF_ISSUE + ASC_PF_SCALAR_UB);
}

/* set_flag(SRC_DST, id) / wait_flag: the event's pipes come from the
 * compiler (sync_check.c's table). */
static inline void asc_pf_set_flag(asc_pf *pf, int ev, int64_t id, int src) {
  asc_pf_s(pf, ASC_PF_ISSUE);
  if (ev < 0 || ev >= ASC_PF_NEVENTS || id < 0 || id >= ASC_PF_NIDS) return;
  double t = pf->clk[src] > pf->clk[ASC_K_S] ? pf->clk[src] : pf->clk[ASC_K_S];
  pf->flag[ev][id] = t;
}
static inline void asc_pf_wait_flag(asc_pf *pf, int ev, int64_t id, int dst) {
  asc_pf_s(pf, ASC_PF_ISSUE);
  if (ev < 0 || ev >= ASC_PF_NEVENTS || id < 0 || id >= ASC_PF_NIDS) return;
  if (pf->flag[ev][id] > pf->clk[dst]) pf->clk[dst] = pf->flag[ev][id];
}
/* pipe_barrier(PIPE_ALL), sync_all: every pipe waits for all. */
static inline void asc_pf_barrier_all(asc_pf *pf) {
  double t = 0;
  for (int p = 0; p < ASC_PF_NPIPES; p++)
    if (pf->clk[p] > t) t = pf->clk[p];
  for (int p = 0; p < ASC_PF_NPIPES; p++) pf->clk[p] = t;
}

/* TQue: a queue at a position hands buffers from pipe src to pipe dst. */
static inline void asc_pf_que_new(asc_pf *pf, const void *q, int src, int dst) {
  /* a queue made again (Ascend C's TQueBind after its TQue base) takes the new pipes */
  for (int i = 0; i < pf->nques; i++)
    if (pf->ques[i].q == q) {
      pf->ques[i].src = src;
      pf->ques[i].dst = dst;
      return;
    }
  if (pf->nques < ASC_PF_MAX_QUES) {
    asc_pf_que *e = &pf->ques[pf->nques++];
    memset(e, 0, sizeof *e);
    e->q = q;
    e->src = src;
    e->dst = dst;
  }
}
/* what: 0 enque, 1 deque, 2 free_tensor, 3 alloc_tensor */
static inline void asc_pf_qop(asc_pf *pf, const asc_k_que *q, int what) {
  asc_pf_s(pf, ASC_PF_ISSUE);
  asc_pf_que *e = NULL;
  for (int i = 0; i < pf->nques && !e; i++)
    if (pf->ques[i].q == (const void *)q) e = &pf->ques[i];
  if (!e) return;
  double *c_src = &pf->clk[e->src], *c_dst = &pf->clk[e->dst], s = pf->clk[ASC_K_S];
  if (what == 0 && e->enq_n < ASC_K_MAX_DEPTH)
    e->enq[(e->enq_head + e->enq_n++) % ASC_K_MAX_DEPTH] = *c_src > s ? *c_src : s;
  if (what == 1 && e->enq_n > 0) {
    double t = e->enq[e->enq_head];
    e->enq_head = (e->enq_head + 1) % ASC_K_MAX_DEPTH;
    e->enq_n--;
    if (t > *c_dst) *c_dst = t;
  }
  if (what == 2) e->freed[e->nfree++ % ASC_K_MAX_DEPTH] = *c_dst > s ? *c_dst : s;
  if (what == 3) {
    int64_t n = e->nalloc++, k = q->nbuf > 0 ? q->nbuf : 1, back = n - k;
    if (back >= 0 && back < e->nfree && back >= e->nfree - ASC_K_MAX_DEPTH) {
      double t = e->freed[back % ASC_K_MAX_DEPTH];
      if (t > *c_src) *c_src = t;
    }
  }
}

#ifdef ASC_K_CUBE
/* --- asc.adv.Matmul (rt/cube_matmul.h) ------------------------------------
 * The object's internal instructions, charged as the Matmul API issues
 * them on the chip: per base block (tm x tn) and K step of base_k, MTE2
 * brings A's and B's next chunk (step_ka, step_kb base K blocks: one GM
 * copy each) into L1, MTE1 moves the step's A and B tiles to L0A/L0B, the
 * cube multiplies them into L0C, and after the block's last step FIXPIPE
 * writes the tile out. The hand-overs are the hardware's buffers: L1 holds
 * depth_a1 / step_ka chunks of A (depth_b1 / step_kb of B), so a load waits
 * for MTE1 to finish the chunk that used its slot that many loads ago (one
 * chunk: no overlap of loads and compute, two: double buffering); L0A/L0B
 * hold two steps (ping-pong) when two tiles fit their 64 KiB, and L0C one
 * block: a block's first mmad waits for FIXPIPE to empty it. With the
 * config's unit flag the cube and FIXPIPE hand L0C over 512 bytes at a
 * time instead: FIXPIPE starts on a block once the last mmad has made its
 * first unit, and the next block's first mmad once FIXPIPE has read one.
 * The API's own scalar work is charged where it holds the pipes up: its
 * set-up before the first copy (init) and its work per base block. */
static inline void asc_pf_mm_init(asc_pf *pf, const asc_k_matmul *mm) {
  asc_pf_s(pf,
           (ASC_PF_MM_INIT_US + (mm->const_tiling ? 0 : ASC_PF_MM_TILING_US)) * ASC_PF_CLOCK_MHZ);
}
/* L0C units (ASC_PF_UNIT_BYTES of float32/int32 results) of a tm x tn block */
static inline double asc_pf_mm_units(int64_t tm, int64_t tn) {
  const int64_t bytes = (tm + 15) / 16 * 16 * ((tn + 15) / 16 * 16) * 4;
  return bytes > ASC_PF_UNIT_BYTES ? (double)((bytes + ASC_PF_UNIT_BYTES - 1) / ASC_PF_UNIT_BYTES)
                                   : 1.0;
}
static inline void asc_pf_wait(asc_pf *pf, int p, double t) {
  if (t > pf->clk[p]) pf->clk[p] = t;
}
/* The L1 chunk of operand w (0 A, 1 B) a K step at kq needs, loaded if it
 * starts a chunk: rows x (its K span) elements of es bytes from GM. */
static inline void asc_pf_mm_load(asc_pf *pf, const asc_k_matmul *mm, int w, int64_t kq, int64_t k0,
                                  int64_t x0, int64_t rows, int es, int line) {
  asc_pf_mm *s = &pf->mm;
  const int64_t st = w ? mm->step_kb : mm->step_ka, depth = w ? mm->depth_b1 : mm->depth_a1;
  if (kq % st) return;
  int64_t slots = depth / st;
  slots = slots < 1 ? 1 : slots > ASC_PF_MM_SLOTS ? ASC_PF_MM_SLOTS : slots;
  const int slot = (int)(s->loads[w]++ % slots);
  s->cur[w] = slot;
  const int64_t span = mm->sk - k0 < st * mm->bk ? mm->sk - k0 : st * mm->bk;
  const asc_k_mm_in *in = w ? &mm->b : &mm->a;
  asc_pf_wait(pf, ASC_K_MTE2, s->l1_free[w][slot]);
  /* the stored matrix: A is m x ka (ka x m transposed), B kb x n (n x kb);
   * the chunk is rows x span of the (transposed) operand: rows of span
   * elements when K runs along the stored rows, else span rows */
  const int trans = w ? !mm->b_trans : mm->a_trans;
  const int64_t ld = mm->ld[w] ? mm->ld[w]
                     : w       ? (mm->b_trans ? mm->kb : mm->n)
                     : trans   ? mm->m
                               : mm->ka;
  const int nz = w ? mm->b_nz : mm->a_nz;
  /* The launch's blocks tile C's M x N by the single-core shape and run
   * the same K loop at about the same time: the cores along N read the
   * same rows of A, those along M the same columns of B, and a line one of
   * them fetches from HBM is in the shared L2 for the others. */
  const int64_t along_n = mm->sn > 0 ? mm->n / mm->sn + (mm->n % mm->sn != 0) : 1;
  const int64_t along_m = mm->sm > 0 ? mm->m / mm->sm + (mm->m % mm->sm != 0) : 1;
  const int64_t a_sh = along_n < pf->at_once ? along_n : pf->at_once;
  const int64_t fit = pf->at_once / (a_sh > 0 ? a_sh : 1);
  const int64_t b_sh = along_m < fit ? along_m : fit;
  const double sharers = (double)(w ? b_sh : a_sh);
  if (in->local || in->scalar) /* already in the core: a local move */
    asc_pf_local(pf, ASC_K_MTE2, rows * span * es, line);
  else if (nz) /* fractals: taken as one run */
    asc_pf_gm2ds(pf, ASC_K_MTE2, in->g.base, in->g.base + in->g.lead, 1, rows * span * es, 0,
                 sharers, line);
  else if (trans)
    asc_pf_gm2ds(pf, ASC_K_MTE2, in->g.base, in->g.base + in->g.lead + (k0 * ld + x0) * es, span,
                 rows * es, ld * es, sharers, line);
  else
    asc_pf_gm2ds(pf, ASC_K_MTE2, in->g.base, in->g.base + in->g.lead + (x0 * ld + k0) * es, rows,
                 span * es, ld * es, sharers, line);
  s->l1_ready[w][slot] = pf->clk[ASC_K_MTE2];
}
/* One base block of tm x tn over the single-core K. */
static inline void asc_pf_mm_block(asc_pf *pf, const asc_k_matmul *mm, int64_t m0, int64_t n0,
                                   int64_t tm, int64_t tn, int line) {
  asc_pf_mm *s = &pf->mm;
  const int es = asc_kc_esize((asc_kc_type)mm->in_type), c0 = asc_kc_c0((asc_kc_type)mm->in_type);
  const int64_t kc = (mm->bk + c0 - 1) / c0 * c0;
  const int64_t a_tile = (tm + 15) / 16 * 16 * kc * es, b_tile = (tn + 15) / 16 * 16 * kc * es;
  const int l0_halves = 2 * a_tile <= 65536 && 2 * b_tile <= 65536 ? 2 : 1;
  asc_pf_s(pf, (ASC_PF_MM_ITER_US + (mm->const_tiling ? 0 : ASC_PF_MM_ITER_TILING_US)) *
                   ASC_PF_CLOCK_MHZ);
  for (int64_t kq = 0, k0 = 0; k0 < mm->sk; kq++, k0 += mm->bk) {
    const int64_t kk = mm->sk - k0 < mm->bk ? mm->sk - k0 : mm->bk;
    asc_pf_mm_load(pf, mm, 0, kq, k0, m0, tm, es, line);
    asc_pf_mm_load(pf, mm, 1, kq, k0, n0, tn, es, line);
    const int half = (int)(s->steps++ % l0_halves);
    asc_pf_wait(pf, ASC_K_MTE1, s->l1_ready[0][s->cur[0]]);
    asc_pf_wait(pf, ASC_K_MTE1, s->l1_ready[1][s->cur[1]]);
    asc_pf_wait(pf, ASC_K_MTE1, s->l0_free[half]);
    asc_pf_local(pf, ASC_K_MTE1, a_tile, line);
    asc_pf_local(pf, ASC_K_MTE1, b_tile, line);
    s->l1_free[0][s->cur[0]] = s->l1_free[1][s->cur[1]] = pf->clk[ASC_K_MTE1];
    asc_pf_wait(pf, ASC_K_M, pf->clk[ASC_K_MTE1]);
    const double dur = asc_pf_mmad_cycles(tm, tn, kk);
    if (k0 == 0 && mm->unit_flag) {
      /* each unit is written after FIXPIPE read the last block's: the
       * mmad starts after FIXPIPE's first unit, ends after its last */
      const double first = s->fix_start + s->fix_unit;
      const double last = s->c_free - dur * (1 - 1 / asc_pf_mm_units(tm, tn));
      asc_pf_wait(pf, ASC_K_M, first > last ? first : last);
    } else if (k0 == 0) {
      asc_pf_wait(pf, ASC_K_M, s->c_free);
    }
    s->mm_start = pf->clk[ASC_K_M] > pf->clk[ASC_K_S] + ASC_PF_ISSUE
                      ? pf->clk[ASC_K_M]
                      : pf->clk[ASC_K_S] + ASC_PF_ISSUE;
    s->mm_dur = dur;
    asc_pf_op(pf, ASC_K_M, dur, line);
    s->l0_free[half] = pf->clk[ASC_K_M];
  }
}
/* get_tensor_c: FIXPIPE writes the block (tm x tn of es bytes) once the
 * cube is done with it, to C at addr in the argument at base (ND: at its
 * place, rows N apart; NZ: one run) or to the UB (base NULL); L0C is free
 * again after. */
static inline void asc_pf_mm_out(asc_pf *pf, const asc_k_matmul *mm, const char *base,
                                 const char *addr, int es, int line) {
  asc_pf_mm *s = &pf->mm;
  const double units = asc_pf_mm_units(mm->cur_tm, mm->cur_tn);
  /* unit flag: FIXPIPE takes each unit as the last mmad makes it; msprof
   * counts its wait for them as FIXPIPE time, and so does the model */
  asc_pf_wait(pf, ASC_K_FIX, mm->unit_flag ? s->mm_start + s->mm_dur / units : pf->clk[ASC_K_M]);
  const double t0 = pf->clk[ASC_K_FIX] > pf->clk[ASC_K_S] + ASC_PF_ISSUE
                        ? pf->clk[ASC_K_FIX]
                        : pf->clk[ASC_K_S] + ASC_PF_ISSUE;
  const int64_t ld = mm->ld[2] ? mm->ld[2] : mm->kc ? mm->kc : mm->n;
  if (base && !mm->c_nz)
    asc_pf_gm2d(pf, ASC_K_FIX, base, addr + (mm->cur_m0 * ld + mm->cur_n0) * es, mm->cur_tm,
                mm->cur_tn * es, ld * es, line);
  else if (base)
    asc_pf_gm(pf, ASC_K_FIX, mm->cur_tm * mm->cur_tn * es, base, addr, line);
  else
    asc_pf_local(pf, ASC_K_FIX, mm->cur_tm * mm->cur_tn * es, line);
  s->fix_start = t0;
  s->fix_unit = (pf->clk[ASC_K_FIX] - t0) / units;
  /* its last unit leaves after the mmad made it */
  if (mm->unit_flag && pf->clk[ASC_K_M] + s->fix_unit > pf->clk[ASC_K_FIX])
    asc_pf_run(pf, ASC_K_FIX, pf->clk[ASC_K_FIX], pf->clk[ASC_K_M] + s->fix_unit, line);
  s->c_free = pf->clk[ASC_K_FIX];
}
/* iterate(): the block it computed, if any. */
static inline void asc_pf_mm_iterate(asc_pf *pf, const asc_k_matmul *mm, int more, int line) {
  asc_pf_s(pf, ASC_PF_ISSUE);
  if (more && mm->have_block)
    asc_pf_mm_block(pf, mm, mm->cur_m0, mm->cur_n0, mm->cur_tm, mm->cur_tn, line);
}
/* iterate_all(c): every block of the single-core shape, each written out. */
static inline void asc_pf_mm_all(asc_pf *pf, asc_k_matmul *mm, const char *base, const char *addr,
                                 int es, int line) {
  asc_pf_s(pf, ASC_PF_ISSUE);
  if (mm->bm <= 0 || mm->bn <= 0) return;
  const int64_t m00 = mm->cur_m0, n00 = mm->cur_n0, tm0 = mm->cur_tm, tn0 = mm->cur_tn;
  const int64_t mb = (mm->sm + mm->bm - 1) / mm->bm, nb = (mm->sn + mm->bn - 1) / mm->bn;
  for (int64_t at = 0; at < mb * nb; at++) { /* the blocks in iterate()'s order */
    int64_t i, j;
    asc_k_mm_order(mm->order, mb, nb, mm->order ? mm->step_m : mm->step_n, at, &i, &j);
    mm->cur_m0 = i * mm->bm, mm->cur_n0 = j * mm->bn;
    mm->cur_tm = mm->sm - mm->cur_m0 < mm->bm ? mm->sm - mm->cur_m0 : mm->bm;
    mm->cur_tn = mm->sn - mm->cur_n0 < mm->bn ? mm->sn - mm->cur_n0 : mm->bn;
    asc_pf_mm_block(pf, mm, mm->cur_m0, mm->cur_n0, mm->cur_tm, mm->cur_tn, line);
    asc_pf_mm_out(pf, mm, base, addr, es, line);
  }
  mm->cur_m0 = m00, mm->cur_n0 = n00, mm->cur_tm = tm0, mm->cur_tn = tn0;
}
#endif /* ASC_K_CUBE */
#endif /* ASC_K_PROFILE */
