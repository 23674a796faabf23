/* insert_sync (@pyasc.jit(insert_sync=...)): adds the set_flag/wait_flag
 * pairs a kernel lacks, so that kernels written without them (PyAsc's
 * LocalTensorAuto kernels) are correct on an NPU, whose pipes run
 * concurrently.
 *
 * The hazards are those of the static sync check (sync_model.h): each is a
 * producer op on one pipe and a consumer op on another. A flag pair is
 * placed in the innermost region holding both, around the ops of that
 * region that contain them, so that every set_flag executed is waited for
 * exactly once, whatever the branches and trip counts:
 *  - producer before consumer: set_flag after the producer's op, wait_flag
 *    before the consumer's (lifted out of loops and branches);
 *  - consumer before producer (a hazard carried by a loop into its next
 *    iteration): wait_flag before the consumer's op and set_flag after the
 *    producer's, with one set_flag before the innermost loop around that
 *    region (the first iteration's wait) and one wait_flag after it (the
 *    last iteration's set).
 * Pairs of one event in one region merge when one placement orders both:
 * a set later on the producer pipe covers earlier producers, an earlier
 * wait covers later consumers. Event ids are the lowest ones the kernel
 * leaves free; pairs whose windows do not overlap share one. Where no
 * HardEvent links the two pipes, or the ids run out, a
 * pipe_barrier(PIPE_ALL) before the consumer orders them instead.
 *
 * A kernel without hazards is left exactly as it was. The result is
 * re-verified and re-checked; a hazard left over is an internal error. */
#include <stdlib.h>
#include <string.h>

#include "sync_model.h"

#define IS_MAX_IDS 8     /* EVENT_ID0 .. EVENT_ID7 */
#define IS_MAX_EVENTS 64 /* above every HardEvent value */
#define IS_MAX_ROUNDS 4

/* The ops from the function body down to one op: reg[i]->ops[idx[i]]. */
typedef struct is_path {
  ir_region *reg[IR_MAX_DEPTH + 1];
  int idx[IR_MAX_DEPTH + 1];
  int n;
} is_path;

/* One flag pair: set after region->ops[set_after], wait before
 * region->ops[wait_before]; loop-carried ones (loop_region set) also set
 * before and wait after loop_region->ops[loop]. */
typedef struct is_window {
  int event, id; /* id -1: not assigned yet */
  ir_region *region;
  int set_after, wait_before;
  ir_region *loop_region;
  int loop;
  asc_ir_loc set_loc, wait_loc;
} is_window;

typedef struct is_barrier {
  ir_region *region;
  int before;
  asc_ir_loc loc;
} is_barrier;

/* An op to place at region slot `slot` (before the op now there). */
typedef struct is_insertion {
  ir_region *region;
  int slot, order, seq;
  ir_op *op;
} is_insertion;

typedef struct is_pass {
  asc_ir_module *m;
  is_window *wins;
  int nwins, cap_wins;
  is_barrier *bars;
  int nbars, cap_bars;
  is_insertion *ins;
  int nins, cap_ins;
  unsigned char used[IS_MAX_EVENTS][IS_MAX_IDS]; /* ids the kernel's own flags take */
  uint32_t ids[IS_MAX_IDS];                      /* this round's id constants */
  int code_set, code_wait, code_barrier;
  int inserted;
} is_pass;

static asc_status is_oom(void) {
  return asc_error(ASC_ERR_OUT_OF_MEMORY, "insert_sync: out of memory");
}

/* Grows *items (of size bytes each) to hold one more; false on OOM. */
static bool is_grow(void **items, int n, int *cap, size_t size) {
  if (n < *cap) return true;
  int grown_cap = *cap ? *cap * 2 : 16;
  void *grown = realloc(*items, (size_t)grown_cap * size);
  if (!grown) return false;
  *items = grown;
  *cap = grown_cap;
  return true;
}

/* --- where ops are ------------------------------------------------------------- */

static bool is_find(ir_region *r, const ir_op *target, is_path *p, int depth) {
  if (!r || depth > IR_MAX_DEPTH) return false;
  for (int i = 0; i < r->n; i++) {
    p->reg[depth] = r;
    p->idx[depth] = i;
    if (r->ops[i] == target) {
      p->n = depth + 1;
      return true;
    }
    for (int j = 0; j < r->ops[i]->nregions; j++)
      if (is_find(r->ops[i]->regions[j], target, p, depth + 1)) return true;
  }
  return false;
}

/* Depth of the innermost region holding both ops. */
static int is_common(const is_path *a, const is_path *b) {
  int j = 0;
  while (j + 1 < a->n && j + 1 < b->n && a->reg[j + 1] == b->reg[j + 1]) j++;
  return j;
}

/* Depth of the innermost loop op around region depth j; -1 if none. */
static int is_enclosing_loop(const is_path *p, int j) {
  for (int t = j - 1; t >= 0; t--) {
    int code = p->reg[t]->ops[p->idx[t]]->code;
    if (code == IR_FOR || code == IR_WHILE) return t;
  }
  return -1;
}

/* --- collecting the pairs ------------------------------------------------------ */

static asc_status is_add_barrier(is_pass *p, ir_region *region, int before, asc_ir_loc loc) {
  for (int i = 0; i < p->nbars; i++)
    if (p->bars[i].region == region && p->bars[i].before == before) return ASC_OK;
  if (!is_grow((void **)&p->bars, p->nbars, &p->cap_bars, sizeof *p->bars)) return is_oom();
  p->bars[p->nbars++] = (is_barrier){region, before, loc};
  return ASC_OK;
}

/* Folds w into a pair of the same event, region and loop when one
 * placement orders both (latest set, earliest wait); true if it did. */
static bool is_merge(is_pass *p, const is_window *w) {
  for (int i = 0; i < p->nwins; i++) {
    is_window *o = &p->wins[i];
    if (o->event != w->event || o->region != w->region || o->loop_region != w->loop_region ||
        o->loop != w->loop)
      continue;
    int set = o->set_after > w->set_after ? o->set_after : w->set_after;
    int wait = o->wait_before < w->wait_before ? o->wait_before : w->wait_before;
    if (!w->loop_region && set >= wait) continue; /* no slot between all producers and consumers */
    if (set != o->set_after) o->set_loc = w->set_loc;
    if (wait != o->wait_before) o->wait_loc = w->wait_loc;
    o->set_after = set;
    o->wait_before = wait;
    return true;
  }
  return false;
}

static asc_status is_add_window(is_pass *p, const is_window *w) {
  if (is_merge(p, w)) return ASC_OK;
  if (!is_grow((void **)&p->wins, p->nwins, &p->cap_wins, sizeof *p->wins)) return is_oom();
  p->wins[p->nwins++] = *w;
  return ASC_OK;
}

static asc_status is_on_hazard(void *ctx, const sync_hazard *h) {
  is_pass *p = ctx;
  is_path a, b;
  if (!is_find(p->m->body, h->before, &a, 0) || !is_find(p->m->body, h->now, &b, 0))
    return asc_error(ASC_ERR_INTERNAL, "insert_sync: a hazard's op is not in the function");
  int j = is_common(&a, &b), event = sync_event_of(h->src, h->dst);
  int set_after = a.idx[j], wait_before = b.idx[j], loop = -1;
  if (set_after > wait_before) loop = is_enclosing_loop(&a, j);
  if (event < 0 || event >= IS_MAX_EVENTS || set_after == wait_before ||
      (set_after > wait_before && loop < 0))
    return is_add_barrier(p, b.reg[b.n - 1], b.idx[b.n - 1], h->now->loc);
  is_window w = {.event = event,
                 .id = -1,
                 .region = a.reg[j],
                 .set_after = set_after,
                 .wait_before = wait_before,
                 .loop_region = loop >= 0 ? a.reg[loop] : NULL,
                 .loop = loop >= 0 ? a.idx[loop] : 0,
                 .set_loc = h->before->loc,
                 .wait_loc = h->now->loc};
  return is_add_window(p, &w);
}

/* --- event ids ------------------------------------------------------------------- */

/* The ids the kernel's own flags take; one the pass cannot read takes all. */
static void is_scan_ids(is_pass *p, const ir_region *r) {
  for (int i = 0; r && i < r->n; i++) {
    const ir_op *op = r->ops[i];
    if (!op->dead && (op->code == p->code_set || op->code == p->code_wait) && op->niattrs > 0 &&
        op->iattrs[0] >= 0 && op->iattrs[0] < IS_MAX_EVENTS) {
      const ir_op *def = p->m->values[op->operands[0]].def;
      bool known = def && def->code == IR_CONST_INT && def->ival >= 0 && def->ival < IS_MAX_IDS;
      for (int id = 0; id < IS_MAX_IDS; id++)
        if (!known || def->ival == id) p->used[op->iattrs[0]][id] = 1;
    }
    for (int j = 0; j < op->nregions; j++) is_scan_ids(p, op->regions[j]);
  }
}

/* Whether w may take id: the pairs on it are all forward pairs of w's
 * region whose windows do not overlap w's. */
static bool is_id_free(const is_pass *p, const is_window *w, int id) {
  if (p->used[w->event][id]) return false;
  for (int i = 0; i < p->nwins; i++) {
    const is_window *o = &p->wins[i];
    if (o == w || o->event != w->event || o->id != id) continue;
    if (w->loop_region || o->loop_region || o->region != w->region) return false;
    if (!(o->wait_before <= w->set_after || w->wait_before <= o->set_after)) return false;
  }
  return true;
}

/* Ids for this round's pairs; a pair left without one becomes a barrier
 * before its consumer (which orders its producer too). */
static asc_status is_assign_ids(is_pass *p) {
  for (int i = 0; i < p->nwins; i++) {
    is_window *w = &p->wins[i];
    for (int id = 0; id < IS_MAX_IDS && w->id < 0; id++)
      if (is_id_free(p, w, id)) w->id = id;
    if (w->id >= 0) continue;
    asc_status st = is_add_barrier(p, w->region, w->wait_before, w->wait_loc);
    if (st) return st;
  }
  return ASC_OK;
}

/* --- new ops ---------------------------------------------------------------------- */

static asc_status is_place(is_pass *p, ir_region *region, int slot, int order, ir_op *op) {
  if (!is_grow((void **)&p->ins, p->nins, &p->cap_ins, sizeof *p->ins)) {
    free(op);
    return is_oom();
  }
  p->ins[p->nins] = (is_insertion){region, slot, order, p->nins, op};
  p->nins++;
  return ASC_OK;
}

static asc_status is_sync_op(is_pass *p, int code, int64_t attr, uint32_t id, asc_ir_loc loc,
                             ir_region *region, int slot, int order) {
  ir_op *op = calloc(1, sizeof *op);
  if (!op) return is_oom();
  op->code = code;
  op->loc = loc;
  op->iattrs[0] = attr;
  op->niattrs = 1;
  if (id) {
    op->operands[0] = id;
    op->noperands = 1;
  }
  p->inserted++;
  return is_place(p, region, slot, order, op);
}

/* The constant of event id `id`, made at the top of the body once a round. */
static asc_status is_id_value(is_pass *p, int id, uint32_t *out) {
  if (!p->ids[id]) {
    ir_op *op = calloc(1, sizeof *op);
    if (!op) return is_oom();
    op->code = IR_CONST_INT;
    op->ival = id;
    op->loc = p->m->body->n ? p->m->body->ops[0]->loc : (asc_ir_loc){0, 0};
    asc_status st = ir_new_value(p->m, (asc_ir_type){ASC_IR_INT, 0, 0, 0}, op, &op->result);
    if (st) {
      free(op);
      return st;
    }
    uint32_t result = op->result;
    st = is_place(p, p->m->body, 0, -1, op); /* frees op on failure */
    if (st) {
      p->m->values[result].def = NULL;
      return st;
    }
    p->ids[id] = result;
  }
  *out = p->ids[id];
  return ASC_OK;
}

/* Order within a slot: id constants, sets, waits, barriers. */
enum { IS_SET, IS_WAIT, IS_BARRIER };

static asc_status is_window_ops(is_pass *p, const is_window *w) {
  uint32_t id = 0;
  asc_status st = is_id_value(p, w->id, &id);
  if (!st)
    st = is_sync_op(p, p->code_set, w->event, id, w->set_loc, w->region, w->set_after + 1, IS_SET);
  if (!st)
    st = is_sync_op(p, p->code_wait, w->event, id, w->wait_loc, w->region, w->wait_before, IS_WAIT);
  if (st || !w->loop_region) return st;
  asc_ir_loc loc = w->loop_region->ops[w->loop]->loc;
  st = is_sync_op(p, p->code_set, w->event, id, loc, w->loop_region, w->loop, IS_SET);
  return st ? st
            : is_sync_op(p, p->code_wait, w->event, id, loc, w->loop_region, w->loop + 1, IS_WAIT);
}

static asc_status is_make_ops(is_pass *p) {
  asc_status st = ASC_OK;
  for (int i = 0; i < p->nwins && !st; i++)
    if (p->wins[i].id >= 0) st = is_window_ops(p, &p->wins[i]);
  for (int i = 0; i < p->nbars && !st; i++)
    st = is_sync_op(p, p->code_barrier, SYNC_PIPE_ALL, 0, p->bars[i].loc, p->bars[i].region,
                    p->bars[i].before, IS_BARRIER);
  return st;
}

/* --- applying them ------------------------------------------------------------------ */

static int is_cmp(const void *x, const void *y) {
  const is_insertion *a = x, *b = y;
  if (a->region != b->region) return (uintptr_t)a->region < (uintptr_t)b->region ? -1 : 1;
  if (a->slot != b->slot) return a->slot < b->slot ? -1 : 1;
  if (a->order != b->order) return a->order < b->order ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Drops the prepared ops (on failure): their values lose their definition. */
static void is_drop(is_pass *p) {
  for (int i = 0; i < p->nins; i++) {
    if (p->ins[i].op->result) p->m->values[p->ins[i].op->result].def = NULL;
    free(p->ins[i].op);
  }
  p->nins = 0;
}

/* The new op array of the region of ins[0..n) (all for it), or NULL. */
static ir_op **is_merged_ops(const is_insertion *ins, int n) {
  const ir_region *r = ins[0].region;
  if (r->n > INT32_MAX - n) return NULL;
  ir_op **ops = malloc((size_t)(r->n + n) * sizeof *ops);
  if (!ops) return NULL;
  int k = 0, j = 0;
  for (int i = 0; i <= r->n; i++) {
    for (; j < n && ins[j].slot == i; j++) ops[k++] = ins[j].op;
    if (i < r->n) ops[k++] = r->ops[i];
  }
  return ops;
}

/* Places every prepared op, all or none: the new arrays are made before
 * any region changes. */
static asc_status is_apply(is_pass *p) {
  qsort(p->ins, (size_t)p->nins, sizeof *p->ins, is_cmp);
  int ngroups = 0;
  for (int i = 0; i < p->nins; i++) ngroups += !i || p->ins[i].region != p->ins[i - 1].region;
  ir_op ***arrays = calloc((size_t)ngroups + 1, sizeof *arrays);
  bool ok = arrays != NULL;
  for (int i = 0, g = 0; ok && i < p->nins; g++) {
    int j = i;
    while (j < p->nins && p->ins[j].region == p->ins[i].region) j++;
    ok = (arrays[g] = is_merged_ops(p->ins + i, j - i)) != NULL;
    i = j;
  }
  if (!ok) {
    for (int g = 0; arrays && g < ngroups; g++) free(arrays[g]);
    free(arrays);
    is_drop(p);
    return is_oom();
  }
  for (int i = 0, g = 0; i < p->nins; g++) {
    int j = i;
    while (j < p->nins && p->ins[j].region == p->ins[i].region) j++;
    ir_region *r = p->ins[i].region;
    free(r->ops);
    r->ops = arrays[g];
    r->n = r->cap = r->n + (j - i);
    i = j;
  }
  free(arrays);
  p->nins = 0;
  return ASC_OK;
}

/* --- the pass -------------------------------------------------------------------------- */

static void is_reset(is_pass *p) {
  p->nwins = p->nbars = 0;
  memset(p->ids, 0, sizeof p->ids);
  memset(p->used, 0, sizeof p->used);
}

/* One round: the hazards left, then the ops that order them. *found: how
 * many pairs and barriers it added. */
static asc_status is_round(is_pass *p, int *found) {
  is_reset(p);
  asc_status st = sync_analyse(p->m, is_on_hazard, p);
  *found = p->nwins + p->nbars;
  if (st || !*found) return st;
  is_scan_ids(p, p->m->body);
  st = is_assign_ids(p);
  if (!st) st = is_make_ops(p);
  if (st) {
    is_drop(p);
    return st;
  }
  st = is_apply(p);
  return st ? st : asc_ir_verify(p->m);
}

asc_status asc_ir_insert_sync(asc_ir_module *m, int *inserted) {
  asc_status st = ir_ready(m, "insert_sync");
  if (st) return st;
  is_pass p = {.m = m,
               .code_set = ir_find_op("set_flag"),
               .code_wait = ir_find_op("wait_flag"),
               .code_barrier = ir_find_op("pipe_barrier")};
  if (p.code_set < 0 || p.code_wait < 0 || p.code_barrier < 0)
    return asc_error(ASC_ERR_INTERNAL, "insert_sync: the sync ops are not in the op table");
  int found = 1;
  for (int round = 0; round < IS_MAX_ROUNDS && found && !st; round++) st = is_round(&p, &found);
  free(p.wins);
  free(p.bars);
  free(p.ins);
  if (inserted) *inserted = p.inserted;
  if (st) return st;
  st = asc_ir_check_sync(m);
  if (st)
    return asc_error(ASC_ERR_INTERNAL,
                     "insert_sync: the inserted synchronisation is incomplete: %s",
                     asc_last_error());
  return ASC_OK;
}
