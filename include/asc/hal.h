/* Hardware abstraction layer: the interface every device kind implements.
 *
 * The runtime (streams, events, caching allocator, launch) talks to devices
 * only through asc_backend. Backend objects (streams, events) are opaque
 * pointers owned by the backend; the runtime wraps them in checked handles. */
#ifndef ASC_HAL_H
#define ASC_HAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ASC_NAME_MAX 64

/* What a device looks like to a kernel. Sizes are bytes. */
typedef struct asc_device_props {
  char name[ASC_NAME_MAX];
  char backend[16];
  int ai_core_count;   /* vector (AIV) cores: logical blocks run on these */
  int cube_core_count; /* cube (AIC) cores */
  size_t ub_size;      /* Unified Buffer per core */
  size_t l1_size;
  size_t l0a_size;
  size_t l0b_size;
  size_t l0c_size;
  size_t data_block_size; /* unit of GM<->UB transfers */
  size_t global_mem_size;
  int worker_threads; /* host threads that execute blocks (cpu only) */
  bool host_visible;  /* device pointers are host addresses */
} asc_device_props;

/* Where a kernel block runs: its logical index and its private scratch. */
typedef struct asc_block_ctx {
  uint32_t block_idx;
  uint32_t block_num;
  int device;
  void *ub; /* Unified Buffer arena of ub_reach bytes, private to the block */
  size_t ub_size;
  /* bytes of the arena: asc_ub_reach(ub_size); 0 (a caller that predates
   * it) means ub_size */
  size_t ub_reach;
  const asc_device_props *props;
} asc_block_ctx;

/* The UB address space a block may use in default mode: the smallest power
 * of two at least ub_size (256 KiB for the 910B's 192 KiB). The hardware
 * does not check that a TPipe buffer ends inside the physical UB and what
 * it does past it is not documented; this reach is the simulator's choice,
 * so that such a kernel runs, while checked mode reports the overflow
 * (docs/kernel-reference-semantics.md). ub_size is at most 1 GiB (asc_device_props'
 * validation), so the result cannot overflow. */
static inline size_t asc_ub_reach(size_t ub_size) {
  size_t r = 1;
  while (r < ub_size) r <<= 1;
  return r;
}

/* A compiled kernel entry point; called once per logical block. A failure
 * returns a status (message via asc_error) and cancels unstarted blocks. */
typedef asc_status (*asc_kernel_fn)(const asc_block_ctx *ctx, const void *args);

/* A kernel launch: fn over nblocks logical blocks. args (args_size bytes)
 * is copied at launch, so the caller may reuse it at once. If release is
 * set it runs exactly once with the copy after the last block (or when the
 * launch is skipped or fails to enqueue), so the copy may own references. */
typedef struct asc_launch_desc {
  asc_kernel_fn fn;
  uint32_t nblocks;
  const void *args;
  size_t args_size;
  void (*release)(void *args);
  const char *name; /* static; names the kernel in error messages */
  uint32_t flags;   /* ASC_LAUNCH_* */
  /* May be NULL. Runs (before release) when the kernel did not complete:
   * skipped after an earlier failure on its stream, or failed itself, so
   * that what it would have written can be marked invalid. */
  void (*failed)(void *args, bool skipped);
  /* May be NULL. Runs on the backend's copy of args when the launch is
   * queued, that is when it may run after asc_launch_ex returns: the copy
   * must then hold references of its own to what the caller holds for the
   * call (release drops them). A launch run before the return needs none. */
  void (*keep)(void *args);
} asc_launch_desc;

/* Small single-block work may run on the launching thread when its stream
 * is idle: same order, no hand-off to the stream's thread. */
#define ASC_LAUNCH_INLINE_OK 1u
/* Blocks wait for each other (SyncAll): every block runs at once, each on a
 * thread of its own; more blocks than ai_core_count is an error, since on
 * hardware the later waves would never start. */
#define ASC_LAUNCH_ALL_LIVE 2u
/* The caller synchronises the stream right after this launch (a launch on
 * memory pyasc does not own): when the stream is idle the launch runs on
 * the calling thread whatever its block count, with the device's helper
 * threads, and spares the hand-off to the stream's thread and back. */
#define ASC_LAUNCH_CALLER_WAITS 4u

/* Host work run in stream order. `run` may fail with asc_error; `release`
 * (may be NULL) runs exactly once afterwards, even when `run` was skipped
 * because an earlier task on the stream failed. */
typedef struct asc_task {
  asc_status (*run)(void *user);
  void (*release)(void *user);
  void *user;
  const char *what; /* static description used in error messages */
  /* May be NULL: runs before release when `run` was skipped or failed. */
  void (*failed)(void *user, bool skipped);
} asc_task;

typedef enum asc_memcpy_kind {
  ASC_MEMCPY_HOST_TO_DEVICE,
  ASC_MEMCPY_DEVICE_TO_HOST,
  ASC_MEMCPY_DEVICE_TO_DEVICE,
  ASC_MEMCPY_HOST_TO_HOST,
} asc_memcpy_kind;

typedef struct asc_backend asc_backend;

/* The phases of fork(): before it in the parent, then after it in each process. */
typedef enum asc_fork_phase { ASC_FORK_PREPARE, ASC_FORK_PARENT, ASC_FORK_CHILD } asc_fork_phase;

/* One device kind. Every function returns a status and sets the message. A
 * backend stream runs its tasks in FIFO order; `tick` numbers enqueued work
 * so that the allocator can ask "has the stream passed this point yet". */
struct asc_backend {
  const char *name;
  asc_status (*init)(void); /* reads configuration; idempotent */
  void (*shutdown)(void);   /* stops worker threads; init may follow */
  int (*device_count)(void);
  asc_status (*get_props)(int device, asc_device_props *out);
  asc_status (*set_props)(int device, const asc_device_props *props);

  asc_status (*mem_alloc)(int device, size_t nbytes, void **out);
  asc_status (*mem_free)(int device, void *ptr, size_t nbytes); /* nbytes as allocated */
  asc_status (*memcpy_sync)(int device, void *dst, const void *src, size_t nbytes,
                            asc_memcpy_kind kind);
  asc_status (*memset_sync)(int device, void *dst, int value, size_t nbytes);
  asc_status (*memcpy_async)(void *stream, void *dst, const void *src, size_t nbytes,
                             asc_memcpy_kind kind);
  asc_status (*memset_async)(void *stream, void *dst, int value, size_t nbytes);

  /* Streams: create, then shutdown (drain, stop accepting work), then free. */
  asc_status (*stream_create)(int device, void **out);
  asc_status (*stream_shutdown)(void *stream);
  void (*stream_free)(void *stream);
  asc_status (*stream_enqueue)(void *stream, const asc_task *task);
  asc_status (*stream_synchronize)(void *stream); /* reports deferred errors */
  /* As stream_synchronize, but gives up after timeout_ns (< 0: never) with
   * ASC_ERR_NOT_READY, leaving the work running and its errors kept. */
  asc_status (*stream_synchronize_for)(void *stream, int64_t timeout_ns);
  bool (*stream_error_pending)(void *stream); /* a failure not yet reported */
  asc_status (*stream_query)(void *stream);   /* ASC_OK or ASC_ERR_NOT_READY */
  uint64_t (*stream_tick)(void *stream);      /* work enqueued so far */
  bool (*stream_reached)(void *stream, uint64_t tick);
  asc_status (*stream_wait_event)(void *stream, void *event);

  asc_status (*event_create)(void **out);
  void (*event_free)(void *event);
  asc_status (*event_record)(void *event, void *stream);
  asc_status (*event_synchronize)(void *event);
  asc_status (*event_synchronize_for)(void *event, int64_t timeout_ns); /* see above */
  asc_status (*event_query)(void *event);
  asc_status (*event_elapsed_ms)(void *start, void *end, double *out_ms);

  /* Runs a kernel asynchronously on stream (see asc_launch_desc). */
  asc_status (*launch)(void *stream, const asc_launch_desc *launch);

  /* fork() support: PREPARE takes every backend lock, PARENT releases
   * them, CHILD leaves a backend whose threads are restarted on demand. */
  void (*at_fork)(asc_fork_phase phase);
};

/* The backend that serves every device (the embedded cpu simulator unless a
 * future build registers another); never NULL after a successful init. */
const asc_backend *asc_hal_backend(void);

/* The embedded simulated AI-core device. */
const asc_backend *asc_cpu_backend(void);

#ifdef __cplusplus
}
#endif
#endif
