/* The pipe model of the static synchronisation check (sync_check.c), shared
 * with the pass that inserts the synchronisation it finds missing
 * (insert_sync.c): one analysis, two uses. */
#ifndef ASC_COMPILER_SYNC_MODEL_H
#define ASC_COMPILER_SYNC_MODEL_H

#include "ir_internal.h"

/* The pipes the model orders (PipeID's values up to FIX). */
enum {
  SYNC_P_S,
  SYNC_P_V,
  SYNC_P_MTE1,
  SYNC_P_MTE2,
  SYNC_P_MTE3,
  SYNC_P_M,
  SYNC_P_FIX,
  SYNC_NPIPES
};
/* PipeID.PIPE_ALL: the pipe_barrier that orders every pipe. */
#define SYNC_PIPE_ALL 6

/* The HardEvent value whose flag is set on pipe src and waited for on pipe
 * dst; -1 when there is none (only a barrier orders the two). */
int sync_event_of(int src, int dst);
/* The pipes HardEvent ev orders: 0 and *src, *dst; 1 for no such event. */
int sync_event_pipes(int ev, int *src, int *dst);

/* Which pipe fills a buffer at TPosition pos and which one drains it (the
 * timing model's TQue hand-overs: emit_c_perf.c, ascendc_rt_perf.h); an
 * unknown position is GM's (the scalar unit's). */
void sync_position_pipes(int64_t pos, int *src, int *dst);

/* One missing ordering: `now` (on pipe dst) touches UB memory that `before`
 * (on pipe src) touched, and nothing orders the two. */
typedef struct sync_hazard {
  const ir_op *before, *now;
  int src, dst;
} sync_hazard;

/* Called for every hazard found; the analysis then goes on as if `now` had
 * waited for `before`. A non-OK status stops the analysis with it. */
typedef asc_status (*sync_hazard_fn)(void *ctx, const sync_hazard *h);

/* Runs the analysis of asc_ir_check_sync over m, giving every hazard to fn
 * (with fn NULL the first one is the ASC_ERR_COMPILE of asc_ir_check_sync). */
asc_status sync_analyse(const asc_ir_module *m, sync_hazard_fn fn, void *ctx);

#endif
