/* Internal interface between the files of the cpu backend. */
#ifndef ASC_HAL_CPU_H
#define ASC_HAL_CPU_H

#include <pthread.h>
#include <stdatomic.h>

#include "asc/hal.h"

typedef struct cpu_stream cpu_stream;
typedef struct cpu_pool cpu_pool;

/* cpu_device.c */
asc_status cpu_device_props(int device, asc_device_props *out);
/* The device's block worker pool, created on first use. */
asc_status cpu_device_pool(int device, cpu_pool **out);

/* cpu_stream.c */
asc_status cpu_stream_create(int device, void **out);
asc_status cpu_stream_shutdown(void *stream);
void cpu_stream_free(void *stream);
asc_status cpu_stream_enqueue(void *stream, const asc_task *task);
/* Runs task on the calling thread, in stream order, if the stream has
 * nothing queued or running; false (nothing done) otherwise. A failure is
 * kept for the next synchronisation, as for queued work. */
bool cpu_stream_run_inline(void *stream, const asc_task *task);
asc_status cpu_stream_synchronize(void *stream);
asc_status cpu_stream_synchronize_for(void *stream, int64_t timeout_ns);
asc_status cpu_stream_query(void *stream);
bool cpu_stream_error_pending(void *stream);
uint64_t cpu_stream_tick(void *stream);
bool cpu_stream_reached(void *stream, uint64_t tick);
asc_status cpu_stream_wait_event(void *stream, void *event);
int cpu_stream_device(const cpu_stream *stream);
asc_status cpu_event_create(void **out);
void cpu_event_free(void *event);
asc_status cpu_event_record(void *event, void *stream);
asc_status cpu_event_synchronize(void *event);
asc_status cpu_event_synchronize_for(void *event, int64_t timeout_ns);
asc_status cpu_event_query(void *event);
asc_status cpu_event_elapsed_ms(void *start, void *end, double *out_ms);
/* Takes (PREPARE), releases (PARENT) or repairs (CHILD) every stream and event. */
void cpu_streams_at_fork(asc_fork_phase phase);

/* cpu_launch.c */
asc_status cpu_pool_create(cpu_pool **out);
void cpu_pool_destroy(cpu_pool *pool);
/* Takes (PREPARE) or releases (PARENT) the pool's lock; CHILD frees a pool
 * whose threads did not survive a fork. */
void cpu_pool_at_fork(cpu_pool *pool, asc_fork_phase phase);
/* PREPARE/PARENT: the arena list's lock; CHILD also frees the Unified
 * Buffer arenas of threads that did not survive the fork. */
void cpu_arenas_at_fork(asc_fork_phase phase);
asc_status cpu_launch(void *stream, const asc_launch_desc *launch);

#endif
