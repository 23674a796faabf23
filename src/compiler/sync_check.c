/* Static synchronisation check (@pyasc.jit(verify_sync=True)): finds pipe
 * hazards in the IR without running the kernel, with the model of checked
 * mode (asc_kernel_rt.h): per-pipe vector clocks, set_flag/wait_flag and
 * pipe_barrier(PIPE_ALL) as ordering points, TQue enque/deque and
 * free_tensor/alloc_tensor ordering everything issued before them.
 *
 * It reports only what it can prove, so every report is a real bug:
 *  - LocalTensors are known by a root (the Unified Buffer for explicit
 *    LocalTensors, the TBuf, or one alloc_tensor/deque) and a start offset
 *    that is a constant or one symbolic value times a scale plus a
 *    constant. Two accesses overlap for sure when their starts are the same
 *    expression (counts are assumed positive) or their constant ranges
 *    intersect; anything else is assumed not to overlap.
 *  - Symbolic values are numbered by structure (value numbering), so
 *    `t[buf_id * n:]` written twice is the same range; a loop's induction
 *    variable is a fresh symbol in every analysed iteration.
 *  - Loops are analysed twice, which exposes hazards between one
 *    iteration and the next (a loop is assumed to run at least twice unless
 *    its trip count is a smaller constant). Branches are merged
 *    conservatively: clocks take the most ordered side, only accesses made
 *    on both sides remain.
 *  - Ops whose operands are (dst, src..., count) with count in elements
 *    have exact ranges (count_form below); other vector ops are taken to
 *    write operand 0 and read their other LocalTensors over a positive but
 *    unknown length. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sync_model.h"

enum {
  P_S = SYNC_P_S,
  P_V = SYNC_P_V,
  P_MTE1 = SYNC_P_MTE1,
  P_MTE2 = SYNC_P_MTE2,
  P_MTE3 = SYNC_P_MTE3,
  P_M = SYNC_P_M,
  P_FIX = SYNC_P_FIX,
  NPIPES = SYNC_NPIPES
};
static const char *const pipe_names[NPIPES] = {"S", "V", "MTE1", "MTE2", "MTE3", "M", "FIX"};
/* HardEvent value -> (source, destination), as in asc_kernel_rt.h. */
static const unsigned char events[][2] = {
    {P_MTE2, P_MTE1}, {P_MTE1, P_MTE2}, {P_MTE1, P_M},    {P_M, P_MTE1},   {P_MTE2, P_V},
    {P_V, P_MTE2},    {P_MTE3, P_V},    {P_V, P_MTE3},    {P_M, P_V},      {P_V, P_M},
    {P_V, P_V},       {P_MTE3, P_MTE1}, {P_MTE1, P_MTE3}, {P_MTE1, P_V},   {P_MTE2, P_M},
    {P_M, P_MTE2},    {P_V, P_MTE1},    {P_M, P_FIX},     {P_FIX, P_M},    {P_MTE3, P_MTE2},
    {P_MTE2, P_MTE3}, {P_S, P_V},       {P_V, P_S},       {P_S, P_MTE2},   {P_MTE2, P_S},
    {P_S, P_MTE3},    {P_MTE3, P_S},    {P_MTE2, P_FIX},  {P_FIX, P_MTE2}, {P_FIX, P_S},
    {P_M, P_S},       {P_FIX, P_MTE3},  {P_MTE1, P_FIX},  {P_FIX, P_MTE1}, {P_FIX, P_FIX}};
#define NEVENTS ((int)(sizeof events / sizeof events[0]))
#define PIPE_ALL SYNC_PIPE_ALL
#define MAX_LOOP_DEPTH 8
#define MAX_RECORDS 512

/* sym * scale + c bytes; sym 0: the constant c. */
typedef struct form {
  uint32_t sym;
  int64_t scale, c;
} form;

typedef struct tensor {
  uint32_t root; /* 0: unknown, never overlaps */
  form start;
} tensor;

typedef struct record {
  uint32_t root;
  form start, len;
  bool len_known;
  bool write;
  unsigned char pipe;
  uint32_t epoch, line;
  const char *api;
  const ir_op *op;
  uint32_t vc[NPIPES]; /* what its pipe had learned by then: a flag set right after it */
} record;

typedef struct flag {
  int event;
  uint32_t id; /* value number of the event id */
  uint32_t vc[NPIPES];
} flag;

typedef struct que_snap {
  uint32_t que;
  uint32_t vc[NPIPES];
} que_snap;

/* What the analysis knows at one point of the program. */
typedef struct state {
  uint32_t vc[NPIPES][NPIPES];
  record *recs;
  int nrecs;
  flag *flags;
  int nflags;
  que_snap *ques;
  int nques;
  uint32_t *var_vn;  /* per variable: value number of its content, 0 unknown */
  uint32_t *var_val; /* per variable: the value stored, 0 unknown */
} state;

/* Value numbering: structurally equal expressions get equal numbers. */
typedef struct vn_entry {
  int64_t code, a, b, c;
  bool is_const;
  int64_t value;
} vn_entry;

typedef struct checker {
  const asc_ir_module *m;
  uint32_t *vn;      /* per value: its current value number */
  tensor *tensors;   /* per LocalTensor value: where it points */
  vn_entry *entries; /* [0] unused */
  uint32_t nentries, cap_entries;
  uint32_t *table; /* open addressing over entries */
  uint32_t table_size;
  int loop_depth;
  bool oom;
  sync_hazard_fn hazard; /* NULL: report the first hazard */
  void *ctx;
} checker;

enum { VN_CONST = -1, VN_PARAM = -2, VN_FRESH = -3, VN_TBUF = -4, VN_FCONST = -5 };

/* --- value numbers ----------------------------------------------------------- */

static uint64_t vn_hash(int64_t code, int64_t a, int64_t b, int64_t c) {
  uint64_t h = 1469598103934665603ull;
  int64_t parts[4] = {code, a, b, c};
  for (int i = 0; i < 4; i++) h = (h ^ (uint64_t)parts[i]) * 1099511628211ull;
  return h;
}

static bool grow_table(checker *k) {
  uint32_t size = k->table_size ? k->table_size * 2 : 1024;
  uint32_t *table = calloc(size, sizeof *table);
  if (!table) return false;
  for (uint32_t i = 1; i < k->nentries; i++) {
    const vn_entry *e = &k->entries[i];
    if (e->code == VN_FRESH) continue;
    uint32_t h = (uint32_t)vn_hash(e->code, e->a, e->b, e->c) & (size - 1);
    while (table[h]) h = (h + 1) & (size - 1);
    table[h] = i;
  }
  free(k->table);
  k->table = table;
  k->table_size = size;
  return true;
}

static uint32_t add_entry(checker *k, vn_entry e) {
  if (k->nentries == k->cap_entries) {
    uint32_t cap = k->cap_entries ? k->cap_entries * 2 : 256;
    vn_entry *grown = realloc(k->entries, cap * sizeof *grown);
    if (!grown) {
      k->oom = true;
      return 0;
    }
    k->entries = grown;
    k->cap_entries = cap;
  }
  k->entries[k->nentries] = e;
  return k->nentries++;
}

static uint32_t fresh(checker *k) {
  if (k->nentries == 0) add_entry(k, (vn_entry){0, 0, 0, 0, false, 0});
  return add_entry(k, (vn_entry){VN_FRESH, 0, 0, 0, false, 0});
}

static uint32_t intern(checker *k, int64_t code, int64_t a, int64_t b, int64_t c, bool is_const,
                       int64_t value) {
  if (k->nentries == 0) add_entry(k, (vn_entry){0, 0, 0, 0, false, 0});
  if ((k->nentries + 1) * 2 > k->table_size && !grow_table(k)) {
    k->oom = true;
    return 0;
  }
  uint32_t h = (uint32_t)vn_hash(code, a, b, c) & (k->table_size - 1);
  for (; k->table[h]; h = (h + 1) & (k->table_size - 1)) {
    const vn_entry *e = &k->entries[k->table[h]];
    if (e->code == code && e->a == a && e->b == b && e->c == c) return k->table[h];
  }
  uint32_t id = add_entry(k, (vn_entry){code, a, b, c, is_const, value});
  if (id) k->table[h] = id;
  return id;
}

static uint32_t vn_const(checker *k, int64_t v) {
  return intern(k, VN_CONST, v, 0, 0, true, v);
}

static bool const_of(const checker *k, uint32_t vn, int64_t *out) {
  if (!vn || vn >= k->nentries || !k->entries[vn].is_const) return false;
  *out = k->entries[vn].value;
  return true;
}

static uint32_t value_vn(checker *k, uint32_t value) {
  if (!k->vn[value]) k->vn[value] = fresh(k);
  return k->vn[value];
}

static form form_of(const checker *k, uint32_t vn, int64_t scale) {
  int64_t c;
  if (const_of(k, vn, &c)) return (form){0, 0, c * scale};
  return (form){vn, scale, 0};
}

/* start + off elements of esize bytes. */
static form form_add(checker *k, form start, uint32_t off_vn, int64_t esize) {
  form off = form_of(k, off_vn, esize);
  if (!off.sym) return (form){start.sym, start.scale, start.c + off.c};
  if (!start.sym) return (form){off.sym, off.scale, start.c};
  return (form){fresh(k), 1, 0}; /* two symbols: unknown, matches nothing */
}

static bool form_eq(form a, form b) {
  return a.sym == b.sym && a.scale == b.scale && a.c == b.c;
}

/* --- states -------------------------------------------------------------------- */

static bool state_init(state *s, uint32_t nvalues) {
  memset(s, 0, sizeof *s);
  s->recs = malloc(MAX_RECORDS * sizeof *s->recs);
  s->flags = malloc(NEVENTS * 8 * sizeof *s->flags);
  s->ques = malloc(64 * sizeof *s->ques);
  s->var_vn = calloc(nvalues, sizeof *s->var_vn);
  s->var_val = calloc(nvalues, sizeof *s->var_val);
  return s->recs && s->flags && s->ques && s->var_vn && s->var_val;
}

static void state_free(state *s) {
  free(s->recs);
  free(s->flags);
  free(s->ques);
  free(s->var_vn);
  free(s->var_val);
}

static bool state_copy(state *dst, const state *src, uint32_t nvalues) {
  if (!state_init(dst, nvalues)) return false;
  memcpy(dst->vc, src->vc, sizeof dst->vc);
  memcpy(dst->recs, src->recs, (size_t)src->nrecs * sizeof *src->recs);
  dst->nrecs = src->nrecs;
  memcpy(dst->flags, src->flags, (size_t)src->nflags * sizeof *src->flags);
  dst->nflags = src->nflags;
  memcpy(dst->ques, src->ques, (size_t)src->nques * sizeof *src->ques);
  dst->nques = src->nques;
  memcpy(dst->var_vn, src->var_vn, nvalues * sizeof *src->var_vn);
  memcpy(dst->var_val, src->var_val, nvalues * sizeof *src->var_val);
  return true;
}

static void vc_max(uint32_t *a, const uint32_t *b) {
  for (int i = 0; i < NPIPES; i++)
    if (b[i] > a[i]) a[i] = b[i];
}

static bool record_eq(const record *a, const record *b) {
  return a->root == b->root && form_eq(a->start, b->start) && form_eq(a->len, b->len) &&
         a->len_known == b->len_known && a->write == b->write && a->pipe == b->pipe &&
         a->epoch == b->epoch && a->line == b->line && a->op == b->op;
}

/* The conservative merge of insert_sync: what is ordered on both paths
 * (pipes' own clocks: the later, so epochs stay unique), flags and queue
 * snapshots pending on both, accesses made on either. */
static void state_merge_union(state *a, const state *b, uint32_t nvalues) {
  for (int p = 0; p < NPIPES; p++)
    for (int q = 0; q < NPIPES; q++)
      if (p == q ? b->vc[p][q] > a->vc[p][q] : b->vc[p][q] < a->vc[p][q]) a->vc[p][q] = b->vc[p][q];
  for (int j = 0; j < b->nrecs && a->nrecs < MAX_RECORDS; j++) {
    bool both = false;
    for (int i = 0; i < a->nrecs && !both; i++) both = record_eq(&a->recs[i], &b->recs[j]);
    if (!both) a->recs[a->nrecs++] = b->recs[j];
  }
  int n = 0;
  for (int i = 0; i < a->nflags; i++)
    for (int j = 0; j < b->nflags; j++)
      if (a->flags[i].event == b->flags[j].event && a->flags[i].id == b->flags[j].id) {
        flag f = a->flags[i];
        for (int p = 0; p < NPIPES; p++)
          if (b->flags[j].vc[p] < f.vc[p]) f.vc[p] = b->flags[j].vc[p];
        a->flags[n++] = f;
        break;
      }
  a->nflags = n;
  n = 0;
  for (int i = 0; i < a->nques; i++)
    for (int j = 0; j < b->nques; j++)
      if (a->ques[i].que == b->ques[j].que) {
        que_snap q = a->ques[i];
        for (int p = 0; p < NPIPES; p++)
          if (b->ques[j].vc[p] < q.vc[p]) q.vc[p] = b->ques[j].vc[p];
        a->ques[n++] = q;
        break;
      }
  a->nques = n;
  for (uint32_t v = 0; v < nvalues; v++) {
    if (a->var_vn[v] != b->var_vn[v]) a->var_vn[v] = 0;
    if (a->var_val[v] != b->var_val[v]) a->var_val[v] = 0;
  }
}

/* a := the state after either a or b: the most ordered clocks, pending
 * flags and queue snapshots of both, accesses made on both. */
static void state_merge(state *a, const state *b, uint32_t nvalues) {
  for (int p = 0; p < NPIPES; p++) vc_max(a->vc[p], b->vc[p]);
  int n = 0;
  for (int i = 0; i < a->nrecs; i++) {
    bool both = false;
    for (int j = 0; j < b->nrecs && !both; j++) both = record_eq(&a->recs[i], &b->recs[j]);
    if (both) a->recs[n++] = a->recs[i];
  }
  a->nrecs = n;
  for (int j = 0; j < b->nflags; j++) {
    int i = 0;
    while (i < a->nflags &&
           !(a->flags[i].event == b->flags[j].event && a->flags[i].id == b->flags[j].id))
      i++;
    if (i == a->nflags) {
      if (a->nflags == NEVENTS * 8) continue;
      a->flags[a->nflags++] = b->flags[j];
    } else {
      vc_max(a->flags[i].vc, b->flags[j].vc);
    }
  }
  for (int j = 0; j < b->nques; j++) {
    int i = 0;
    while (i < a->nques && a->ques[i].que != b->ques[j].que) i++;
    if (i == a->nques) {
      if (a->nques == 64) continue;
      a->ques[a->nques++] = b->ques[j];
    } else {
      vc_max(a->ques[i].vc, b->ques[j].vc);
    }
  }
  for (uint32_t v = 0; v < nvalues; v++) {
    if (a->var_vn[v] != b->var_vn[v]) a->var_vn[v] = 0;
    if (a->var_val[v] != b->var_val[v]) a->var_val[v] = 0;
  }
}

static void snapshot(const state *s, uint32_t out[NPIPES]) {
  memset(out, 0, NPIPES * sizeof *out);
  for (int p = 0; p < NPIPES; p++) vc_max(out, s->vc[p]);
}

static void learn_all(state *s, const uint32_t in[NPIPES]) {
  for (int p = 0; p < NPIPES; p++) vc_max(s->vc[p], in);
}

/* --- accesses -------------------------------------------------------------------- */

/* Whether two ranges of one root overlap for sure (lengths positive). */
static bool overlap(const record *a, const record *b) {
  if (a->root != b->root || !a->root) return false;
  if (form_eq(a->start, b->start)) return true;
  if (a->start.sym != b->start.sym || a->start.scale != b->start.scale) return false;
  /* same symbol: compare constant parts */
  bool a_len = a->len_known && !a->len.sym, b_len = b->len_known && !b->len.sym;
  if (a_len && a->start.c <= b->start.c && b->start.c < a->start.c + a->len.c) return true;
  if (b_len && b->start.c <= a->start.c && a->start.c < b->start.c + b->len.c) return true;
  return false;
}

/* Whether two ranges of one root may overlap: all but those the model
 * proves disjoint (constant lengths, starts differing by a constant).
 * insert_sync orders these too, as a missed hazard would be a bug. */
static bool may_overlap(const record *a, const record *b) {
  if (a->root != b->root || !a->root) return false;
  if (a->start.sym != b->start.sym || a->start.scale != b->start.scale) return true;
  if (!a->len_known || a->len.sym || !b->len_known || b->len.sym) return true;
  return a->start.c < b->start.c + b->len.c && b->start.c < a->start.c + a->len.c;
}

static asc_status report(const record *now, const record *before, const char *operand) {
  bool war = now->write && !before->write;
  const char *kind = war          ? "write-after-read"
                     : now->write ? "write-after-write"
                                  : "read-after-write";
  int ev = sync_event_of(before->pipe, now->pipe);
  char fix[200];
  if (ev >= 0)
    snprintf(fix, sizeof fix,
             "set_flag(HardEvent.%s_%s, id) after line %u and wait_flag(HardEvent.%s_%s, id) "
             "before line %u",
             pipe_names[before->pipe], pipe_names[now->pipe], ASC_IR_LINE(before->line),
             pipe_names[before->pipe], pipe_names[now->pipe], ASC_IR_LINE(now->line));
  else
    snprintf(fix, sizeof fix, "pipe_barrier(PipeID.PIPE_ALL) between line %u and line %u",
             ASC_IR_LINE(before->line), ASC_IR_LINE(now->line));
  return asc_error(ASC_ERR_COMPILE,
                   "line %u: %s: missing synchronisation (%s): %s %s on pipe %s UB memory that %s "
                   "%s on pipe %s at line %u, and nothing orders the two; add %s",
                   now->line, now->api, kind, operand, now->write ? "writes" : "reads",
                   pipe_names[now->pipe], before->api, before->write ? "wrote" : "read",
                   pipe_names[before->pipe], ASC_IR_LINE(before->line), fix);
}

static asc_status access(checker *k, state *s, const ir_op *op, int pipe, uint32_t value,
                         form offset, uint32_t count_vn, int64_t esize, bool exact, bool write,
                         const char *operand) {
  const tensor *t = &k->tensors[value];
  record now = {.root = t->root,
                .write = write,
                .pipe = (unsigned char)pipe,
                .epoch = ++s->vc[pipe][pipe],
                .line = op->loc.line,
                .api = ir_op_defs[op->code].name,
                .op = op};
  memcpy(now.vc, s->vc[pipe], sizeof now.vc);
  now.start = t->start;
  if (offset.sym && now.start.sym)
    now.start = (form){fresh(k), 1, 0};
  else if (offset.sym)
    now.start = (form){offset.sym, offset.scale, now.start.c + offset.c};
  else
    now.start.c += offset.c;
  now.len_known = exact && count_vn;
  if (now.len_known) now.len = form_of(k, count_vn, esize);
  if (!now.root) return ASC_OK;
  for (int i = s->nrecs - 1; i >= 0; i--) {
    const record *r = &s->recs[i];
    if (r->pipe == pipe || (!write && !r->write)) continue;
    if (!(k->hazard ? may_overlap(&now, r) : overlap(&now, r))) continue;
    if (s->vc[pipe][r->pipe] >= r->epoch) continue;
    if (!k->hazard) return report(&now, r, operand);
    asc_status st = k->hazard(k->ctx, &(sync_hazard){r->op, op, r->pipe, pipe});
    if (st) return st;
    vc_max(s->vc[pipe], r->vc); /* as if a flag set after r were waited for now */
  }
  /* An exact rewrite of the same range supersedes the records it was
   * checked against. */
  if (write) {
    int n = 0;
    for (int i = 0; i < s->nrecs; i++) {
      const record *r = &s->recs[i];
      bool same = r->root == now.root && form_eq(r->start, now.start) && form_eq(r->len, now.len) &&
                  r->len_known == now.len_known;
      if (!same) s->recs[n++] = *r;
    }
    s->nrecs = n;
  }
  if (s->nrecs == MAX_RECORDS) {
    memmove(s->recs, s->recs + 1, (MAX_RECORDS - 1) * sizeof *s->recs);
    s->nrecs--;
  }
  s->recs[s->nrecs++] = now;
  return ASC_OK;
}

/* Vector instructions whose operands are (dst, src..., count in elements),
 * so their ranges are exact. */
static bool count_form(const char *name) {
  static const char *const names[] = {
      "copy", "duplicate", "add", "sub", "mul", "div",  "max",   "min",        "adds", "muls",
      "maxs", "mins",      "exp", "ln",  "abs", "sqrt", "rsqrt", "reciprocal", "relu", NULL};
  for (int i = 0; names[i]; i++)
    if (!strcmp(names[i], name)) return true;
  return false;
}

static asc_ir_kind kind_of(const checker *k, uint32_t v) {
  return k->m->values[v].type.kind;
}

/* adv library ops write more than operand 0: softmax its sum and max,
 * extract its indices, and every one its shared tmp buffer (the last
 * operand when it is a LocalTensor after scalars; ir_ops.c's layout). */
static bool adv_writes(const checker *k, const ir_op *op, const char *name, int i) {
  if (!strcmp(name, "sort")) return i == 3; /* its tmp (rt/sort.h) */
  if (strncmp(name, "adv.", 4)) return false;
  if ((!strcmp(name, "adv.softmax") && i <= 2) || (!strcmp(name, "adv.extract") && i == 1))
    return true;
  return i == op->noperands - 1 && i > 0 && kind_of(k, op->operands[i - 1]) != ASC_IR_LOCAL;
}
/* Layout ops (rt/layout.h) that write more than operand 0: trans_data_to_5hd
 * its whole dst list, transpose.ext and bilinear_interpolation their tmp. */
static bool layout_writes(const ir_op *op, const char *name, int i) {
  return (!strcmp(name, "trans_data_to_5hd") && i < 16) ||
         (!strcmp(name, "transpose.ext") && i == 2) ||
         (!strcmp(name, "bilinear_interpolation") && i == op->noperands - 1);
}
static int64_t esize_of(const checker *k, uint32_t v) {
  return (int64_t)asc_dtype_size((asc_dtype)k->m->values[v].type.dtype);
}

static asc_status memory_op(checker *k, state *s, const ir_op *op, const char *name) {
  const uint32_t *o = op->operands;
  form none = {0, 0, 0};
  /* data_copy(dst, src, count) and its other forms (params, pad), whose
   * lengths are taken as unknown */
  if (!strncmp(name, "data_copy", 9) && op->noperands >= 2) {
    bool dst_local = kind_of(k, o[0]) == ASC_IR_LOCAL, src_local = kind_of(k, o[1]) == ASC_IR_LOCAL;
    bool exact = !strcmp(name, "data_copy");
    uint32_t n = exact ? value_vn(k, o[2]) : 0;
    int64_t es = esize_of(k, o[0]);
    if (dst_local && src_local) {
      asc_status st = access(k, s, op, P_V, o[1], none, n, es, exact, false, "src");
      return st ? st : access(k, s, op, P_V, o[0], none, n, es, exact, true, "dst");
    }
    if (dst_local) return access(k, s, op, P_MTE2, o[0], none, n, es, exact, true, "dst");
    return src_local ? access(k, s, op, P_MTE3, o[1], none, n, es, exact, false, "src") : ASC_OK;
  }
  if (!strcmp(name, "local.get_value") || !strcmp(name, "local.set_value")) {
    int64_t es = esize_of(k, o[0]);
    return access(k, s, op, P_S, o[0], form_of(k, value_vn(k, o[1]), es), vn_const(k, 1), es, true,
                  name[6] == 's', "the element");
  }
  if (ir_op_defs[op->code].pipe != IR_PIPE_V || !op->noperands || kind_of(k, o[0]) != ASC_IR_LOCAL)
    return ASC_OK;
  uint32_t last = o[op->noperands - 1];
  bool exact = count_form(name) && kind_of(k, last) == ASC_IR_INT;
  uint32_t n = exact ? value_vn(k, last) : 0;
  static const char *const srcs[] = {"src0", "src1", "src2", "src3"};
  int nsrc = 0;
  for (int i = 1; i < op->noperands; i++)
    if (kind_of(k, o[i]) == ASC_IR_LOCAL) nsrc++;
  for (int i = 1, j = 0; i < op->noperands; i++) {
    if (kind_of(k, o[i]) != ASC_IR_LOCAL) continue;
    const char *operand = nsrc == 1 ? "src" : srcs[j < 4 ? j : 3];
    j++;
    bool w = adv_writes(k, op, name, i) || layout_writes(op, name, i);
    asc_status st =
        access(k, s, op, P_V, o[i], none, n, esize_of(k, o[i]), exact, w, w ? "output" : operand);
    if (st) return st;
  }
  /* the CMPMASK register forms only read their operand 0 (rt/mask_bits.h) */
  bool reads0 = !strcmp(name, "compare.reg") || !strcmp(name, "set_cmp_mask");
  return access(k, s, op, P_V, o[0], none, n, esize_of(k, o[0]), exact, !reads0,
                reads0 ? "src0" : "dst");
}

/* --- ordering points and views ------------------------------------------------ */

static que_snap *que_of(state *s, uint32_t que) {
  for (int i = 0; i < s->nques; i++)
    if (s->ques[i].que == que) return &s->ques[i];
  if (s->nques == 64) return NULL;
  que_snap *q = &s->ques[s->nques++];
  q->que = que;
  memset(q->vc, 0, sizeof q->vc);
  return q;
}

static void set_flag(checker *k, state *s, const ir_op *op) {
  int ev = (int)op->iattrs[0];
  if (ev < 0 || ev >= NEVENTS) return;
  uint32_t id = value_vn(k, op->operands[0]);
  int i = 0;
  while (i < s->nflags && !(s->flags[i].event == ev && s->flags[i].id == id)) i++;
  if (i == s->nflags) {
    if (s->nflags == NEVENTS * 8) return;
    s->nflags++;
  }
  s->flags[i].event = ev;
  s->flags[i].id = id;
  memcpy(s->flags[i].vc, s->vc[events[ev][0]], sizeof s->flags[i].vc);
}

/* The matching set_flag by event and id; an id the analysis cannot match
 * is taken to be any pending flag of that event (fewer reports). */
static void wait_flag(checker *k, state *s, const ir_op *op) {
  int ev = (int)op->iattrs[0];
  if (ev < 0 || ev >= NEVENTS) return;
  uint32_t id = value_vn(k, op->operands[0]), *dst = s->vc[events[ev][1]];
  for (int i = 0; i < s->nflags; i++)
    if (s->flags[i].event == ev && s->flags[i].id == id) {
      vc_max(dst, s->flags[i].vc);
      s->flags[i] = s->flags[--s->nflags];
      return;
    }
  for (int i = 0; i < s->nflags; i++)
    if (s->flags[i].event == ev) vc_max(dst, s->flags[i].vc);
}

static void sync_op(checker *k, state *s, const ir_op *op, const char *name) {
  if (!strcmp(name, "set_flag"))
    set_flag(k, s, op);
  else if (!strcmp(name, "wait_flag"))
    wait_flag(k, s, op);
  else if (!strcmp(name, "pipe_barrier") && op->iattrs[0] == PIPE_ALL) {
    uint32_t all[NPIPES];
    snapshot(s, all);
    learn_all(s, all);
  } else if (!strcmp(name, "que.enque") || !strcmp(name, "que.free_tensor")) {
    que_snap *q = que_of(s, op->operands[0]);
    uint32_t all[NPIPES];
    snapshot(s, all);
    if (q) vc_max(q->vc, all);
  } else if (!strncmp(name, "que.deque", 9) || !strncmp(name, "que.alloc_tensor", 16)) {
    que_snap *q = que_of(s, op->operands[0]);
    if (q) learn_all(s, q->vc);
  }
}

/* Value numbers and tensor roots of an op's result. */
static void define(checker *k, state *s, const ir_op *op, const char *name) {
  uint32_t r = op->result;
  const uint32_t *o = op->operands;
  if (!r) return;
  tensor *t = &k->tensors[r];
  switch (op->code) {
    case IR_CONST_INT:
    case IR_CONST_BOOL:
      k->vn[r] = vn_const(k, op->ival);
      return;
    case IR_CONST_FLOAT: {
      int64_t bits;
      memcpy(&bits, &op->fval, sizeof bits);
      k->vn[r] = intern(k, VN_FCONST, bits, 0, 0, false, 0);
      return;
    }
    case IR_VAR:
      return;
    case IR_LOAD:
      if (!s->var_vn[o[0]]) s->var_vn[o[0]] = fresh(k);
      k->vn[r] = s->var_vn[o[0]];
      *t = s->var_val[o[0]] ? k->tensors[s->var_val[o[0]]] : (tensor){0, {0, 0, 0}};
      return;
    default:
      break;
  }
  int64_t a = 0, b = 0;
  if (!strcmp(name, "local.new")) {
    *t = (tensor){1, form_of(k, value_vn(k, o[0]), 1)}; /* 1: the Unified Buffer */
  } else if (!strcmp(name, "local.slice")) {
    *t = (tensor){k->tensors[o[0]].root,
                  form_add(k, k->tensors[o[0]].start, value_vn(k, o[1]), esize_of(k, o[0]))};
  } else if (!strcmp(name, "local.reinterpret_cast") || !strcmp(name, "local.set_size") ||
             !strcmp(name, "local.set_buffer_len")) {
    *t = k->tensors[o[0]];
  } else if (!strcmp(name, "local.set_addr_with_offset")) { /* src's place plus offset */
    *t = (tensor){k->tensors[o[1]].root,
                  form_add(k, k->tensors[o[1]].start, value_vn(k, o[2]), esize_of(k, o[1]))};
  } else if (!strcmp(name, "tbuf.get") || !strcmp(name, "tbuf.get_with_offset") ||
             !strcmp(name, "tbuf.alloc_tensor")) {
    uint32_t root = intern(k, VN_TBUF, o[0], 0, 0, false, 0);
    form start = name[8] == '_' ? form_of(k, value_vn(k, o[2]), 1) : (form){0, 0, 0};
    *t = (tensor){root, start};
  } else if (!strncmp(name, "que.alloc_tensor", 16) || !strncmp(name, "que.deque", 9)) {
    *t = (tensor){fresh(k), {0, 0, 0}}; /* which buffer: unknown */
  } else {
    *t = (tensor){0, {0, 0, 0}};
  }
  bool pure = !strncmp(name, "arith.", 6) || !strcmp(name, "get_block_idx") ||
              !strcmp(name, "get_block_num");
  if (!pure) {
    k->vn[r] = fresh(k);
    return;
  }
  uint32_t x = op->noperands > 0 ? value_vn(k, o[0]) : 0;
  uint32_t y = op->noperands > 1 ? value_vn(k, o[1]) : 0;
  uint32_t z = op->noperands > 2 ? value_vn(k, o[2]) : 0;
  if (const_of(k, x, &a) && const_of(k, y, &b) && op->noperands == 2) {
    if (!strcmp(name, "arith.add")) {
      k->vn[r] = vn_const(k, (int64_t)((uint64_t)a + (uint64_t)b));
      return;
    }
    if (!strcmp(name, "arith.mul")) {
      k->vn[r] = vn_const(k, (int64_t)((uint64_t)a * (uint64_t)b));
      return;
    }
  }
  /* arith ops read their operand kinds from the op code: x, y, z suffice */
  k->vn[r] = intern(k, op->code, x, y, z, false, 0);
}

/* --- control flow ------------------------------------------------------------- */

static asc_status run_region(checker *k, state *s, const ir_region *r);

static asc_status branch(checker *k, state *s, const ir_region *region, state *out) {
  if (!state_copy(out, s, k->m->nvalues)) return asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory");
  return region ? run_region(k, out, region) : ASC_OK;
}

static asc_status run_if(checker *k, state *s, const ir_op *op) {
  state a, b;
  asc_status st = branch(k, s, op->regions[0], &a);
  if (!st)
    st = branch(k, s, op->nregions > 1 ? op->regions[1] : NULL, &b);
  else
    memset(&b, 0, sizeof b);
  if (!st) {
    (k->hazard ? state_merge_union : state_merge)(&a, &b, k->m->nvalues);
    state_free(s);
    *s = a;
  } else {
    state_free(&a);
  }
  state_free(&b);
  return st;
}

/* A for loop's constant trip count, capped at 2; -1 when not constant. */
static int loop_trips(checker *k, const ir_op *op) {
  int64_t start, stop, step;
  if (op->code != IR_FOR || !const_of(k, value_vn(k, op->operands[0]), &start) ||
      !const_of(k, value_vn(k, op->operands[1]), &stop) ||
      !const_of(k, value_vn(k, op->operands[2]), &step) || step == 0)
    return -1;
  int64_t trips = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                           : (start > stop ? (start - stop - step - 1) / -step : 0);
  return trips < 2 ? (int)trips : 2;
}

/* Iterations to analyse: a constant trip count below 2 caps them. */
static int loop_iterations(checker *k, const ir_op *op) {
  int trips = loop_trips(k, op);
  return trips < 0 ? 2 : trips;
}

/* insert_sync's view of the state after a loop: a trip count not known
 * may also be 0 or 1, so what holds after the loop must hold on those
 * paths too. `before` is the state before the first iteration. */
static void loop_exit_union(checker *k, const ir_op *op, state *last, const state *before,
                            const state *first, int made) {
  if (!k->hazard || loop_trips(k, op) >= 0) return;
  state_merge_union(last, before, k->m->nvalues);
  if (made == 2) state_merge_union(last, first, k->m->nvalues);
}

static asc_status iterate(checker *k, state *s, const ir_op *op) {
  if (op->code == IR_FOR) {
    k->vn[op->result] = fresh(k); /* a new iteration, a new induction value */
    return run_region(k, s, op->regions[0]);
  }
  asc_status st = run_region(k, s, op->regions[0]);
  return st ? st : run_region(k, s, op->regions[1]);
}

/* Twice through the body (once when nested deeply, or as often as a
 * constant trip count below 2 says). A loop is taken to run that often:
 * its hazards between iterations and after it are reported on that
 * assumption, as a kernel's loops are written to run. */
static asc_status run_loop(checker *k, state *s, const ir_op *op) {
  int n = loop_iterations(k, op);
  if (k->loop_depth >= MAX_LOOP_DEPTH && n > 1) n = 1;
  if (op->code == IR_WHILE && n > 0) {
    asc_status st = run_region(k, s, op->regions[0]); /* the first test */
    if (st) return st;
  }
  if (n == 0) return ASC_OK;
  state after[2];
  int made = 0;
  asc_status st = ASC_OK;
  k->loop_depth++;
  const state *from = s;
  for (int i = 0; i < n && !st; i++) {
    st = branch(k, (state *)from, NULL, &after[i]);
    made++;
    if (!st) st = iterate(k, &after[i], op);
    from = &after[i];
  }
  k->loop_depth--;
  if (!st) { /* after the loop: as after its last analysed iteration */
    loop_exit_union(k, op, &after[made - 1], s, &after[0], made);
    state last = after[made - 1];
    after[made - 1] = *s;
    *s = last;
  }
  for (int i = 0; i < made; i++) state_free(&after[i]);
  return st;
}

static asc_status run_op(checker *k, state *s, const ir_op *op) {
  if (op->dead) return ASC_OK;
  if (k->oom) return asc_error(ASC_ERR_OUT_OF_MEMORY, "verify_sync: out of memory");
  switch (op->code) {
    case IR_FOR:
    case IR_WHILE:
      return run_loop(k, s, op);
    case IR_IF:
      return run_if(k, s, op);
    case IR_STORE:
      s->var_vn[op->operands[0]] = value_vn(k, op->operands[1]);
      s->var_val[op->operands[0]] =
          kind_of(k, op->operands[1]) == ASC_IR_LOCAL ? op->operands[1] : 0;
      return ASC_OK;
    default:
      break;
  }
  const char *name = ir_op_defs[op->code].name;
  asc_status st = memory_op(k, s, op, name);
  if (st) return st;
  sync_op(k, s, op, name);
  define(k, s, op, name);
  return ASC_OK;
}

static asc_status run_region(checker *k, state *s, const ir_region *r) {
  for (int i = 0; r && i < r->n; i++) {
    asc_status st = run_op(k, s, r->ops[i]);
    if (st) return st;
  }
  return ASC_OK;
}

int sync_event_pipes(int ev, int *src, int *dst) {
  if (ev < 0 || ev >= NEVENTS) return 1;
  *src = events[ev][0];
  *dst = events[ev][1];
  return 0;
}

void sync_position_pipes(int64_t pos, int *src, int *dst) {
  static const int fill[][2] = {
      {SYNC_P_S, SYNC_P_S},       /* GM */
      {SYNC_P_MTE2, SYNC_P_MTE1}, /* A1 */
      {SYNC_P_MTE1, SYNC_P_M},    /* A2 */
      {SYNC_P_MTE2, SYNC_P_MTE1}, /* B1 */
      {SYNC_P_MTE1, SYNC_P_M},    /* B2 */
      {SYNC_P_MTE2, SYNC_P_MTE1}, /* C1 */
      {SYNC_P_MTE1, SYNC_P_M},    /* C2 */
      {SYNC_P_M, SYNC_P_FIX},     /* CO1 */
      {SYNC_P_FIX, SYNC_P_MTE3},  /* CO2 */
      {SYNC_P_MTE2, SYNC_P_V},    /* VECIN */
      {SYNC_P_V, SYNC_P_MTE3},    /* VECOUT */
      {SYNC_P_V, SYNC_P_V},       /* VECCALC */
  };
  int i = pos >= 0 && pos < (int64_t)(sizeof fill / sizeof fill[0]) ? (int)pos : 0;
  *src = fill[i][0];
  *dst = fill[i][1];
}

int sync_event_of(int src, int dst) {
  for (int e = 0; e < NEVENTS; e++)
    if (events[e][0] == src && events[e][1] == dst) return e;
  return -1;
}

asc_status asc_ir_check_sync(const asc_ir_module *m) {
  return sync_analyse(m, NULL, NULL);
}

asc_status sync_analyse(const asc_ir_module *m, sync_hazard_fn fn, void *ctx) {
  asc_status ready = ir_ready(m, "check_sync");
  if (ready) return ready;
  checker k = {.m = m,
               .vn = calloc(m->nvalues, sizeof(uint32_t)),
               .tensors = calloc(m->nvalues, sizeof(tensor)),
               .hazard = fn,
               .ctx = ctx};
  state s;
  memset(&s, 0, sizeof s);
  bool ok = k.vn && k.tensors && state_init(&s, m->nvalues);
  asc_status st = ok ? ASC_OK : asc_error(ASC_ERR_OUT_OF_MEMORY, "verify_sync: out of memory");
  if (ok) {
    fresh(&k); /* value number 1 stands for the Unified Buffer as a root */
    for (int i = 0; i < m->nparams; i++)
      k.vn[m->params[i]] = intern(&k, VN_PARAM, m->params[i], 0, 0, false, 0);
    st = run_region(&k, &s, m->body);
  }
  state_free(&s);
  free(k.vn);
  free(k.tensors);
  free(k.entries);
  free(k.table);
  return st;
}
