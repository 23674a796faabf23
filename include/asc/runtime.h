/* Runtime: devices, streams, events and kernel launch over the HAL.
 *
 * Streams and events are handles (never raw pointers), so a destroyed or
 * made-up handle is reported as ASC_ERR_INVALID_HANDLE instead of crashing.
 * All functions are thread-safe. The current device and the current stream
 * are per calling thread, as in CUDA and Ascend CL. */
#ifndef ASC_RUNTIME_H
#define ASC_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "asc/hal.h"
#include "asc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t asc_stream_t;
typedef uint64_t asc_event_t;

/* Stands for the calling thread's current stream on its current device. */
#define ASC_STREAM_CURRENT ((asc_stream_t)0)

/* Initialises the runtime (idempotent; every call below does it lazily).
 * Fails with ASC_ERR_INVALID_VALUE if a PYASC_CPU_* variable is malformed. */
asc_status asc_init(void);

/* Synchronises and destroys everything libasc created (streams, events,
 * cached memory, worker threads). Outstanding handles become invalid. Meant
 * for process teardown and leak-checked tests; init may run again after. */
asc_status asc_shutdown(void);

/* --- devices ------------------------------------------------------------ */
asc_status asc_device_count(int *out);
asc_status asc_device_get_props(int device, asc_device_props *out);
/* Reconfigures a device (core count, buffer sizes, worker threads). Work
 * already enqueued keeps the properties it was launched with. */
asc_status asc_device_set_props(int device, const asc_device_props *props);
asc_status asc_device_set(int device); /* for the calling thread */
int asc_device_current(void);
/* Waits for all streams of the device; returns the first deferred error. */
asc_status asc_device_synchronize(int device);
/* The *_synchronize_for forms give up after timeout_ns (< 0: never) with
 * ASC_ERR_NOT_READY, leaving the work running and its errors kept for a
 * later synchronisation (an error already taken is returned at once), so
 * that a caller can wait in slices and stay interruptible. */
asc_status asc_device_synchronize_for(int device, int64_t timeout_ns);

/* --- streams ------------------------------------------------------------ */
asc_status asc_stream_create(int device, asc_stream_t *out);
/* Waits for the stream's queued work, then invalidates the handle. The
 * default stream cannot be destroyed. Must not be called from a task
 * running on the same stream. */
asc_status asc_stream_destroy(asc_stream_t stream);
asc_status asc_stream_default(int device, asc_stream_t *out);
/* The calling thread's current stream on `device` (default stream unless
 * set with asc_stream_set_current). */
asc_status asc_stream_current(int device, asc_stream_t *out);
asc_status asc_stream_set_current(asc_stream_t stream);
asc_status asc_stream_device(asc_stream_t stream, int *out);
/* Waits for queued work. An error raised by earlier asynchronous work on
 * this stream is returned here (once) and cleared. */
asc_status asc_stream_synchronize(asc_stream_t stream);
asc_status asc_stream_synchronize_for(asc_stream_t stream, int64_t timeout_ns);
asc_status asc_stream_query(asc_stream_t stream); /* ASC_OK or ASC_ERR_NOT_READY */
/* *out: whether a failure of earlier work waits to be reported (the next
 * synchronize will return it). Takes nothing away. */
asc_status asc_stream_error_pending(asc_stream_t stream, bool *out);
asc_status asc_stream_enqueue(asc_stream_t stream, const asc_task *task);
asc_status asc_stream_wait_event(asc_stream_t stream, asc_event_t event);

/* --- events ------------------------------------------------------------- */
asc_status asc_event_create(asc_event_t *out);
asc_status asc_event_destroy(asc_event_t event);
asc_status asc_event_record(asc_event_t event, asc_stream_t stream);
asc_status asc_event_synchronize(asc_event_t event);
asc_status asc_event_synchronize_for(asc_event_t event, int64_t timeout_ns);
asc_status asc_event_query(asc_event_t event); /* ASC_OK or ASC_ERR_NOT_READY */
/* Milliseconds between two completed events. */
asc_status asc_event_elapsed_ms(asc_event_t start, asc_event_t end, double *out_ms);

/* --- kernel launch ------------------------------------------------------ */
/* Runs fn over nblocks logical blocks on stream, asynchronously. */
asc_status asc_launch(asc_stream_t stream, asc_kernel_fn fn, uint32_t nblocks, const void *args,
                      size_t args_size);
/* The general form: see asc_launch_desc for release and name. */
asc_status asc_launch_ex(asc_stream_t stream, const asc_launch_desc *launch);

/* --- test support ------------------------------------------------------- */
/* Enqueues a task that keeps `blocks` blocks busy on the CPU for `ms` each
 * (a real kernel launch of a spinning kernel). */
asc_status asc_testing_spin(asc_stream_t stream, double ms, uint32_t blocks);
/* Enqueues a task that fails with `status` and `message`, to exercise
 * deferred error reporting. */
asc_status asc_testing_fail(asc_stream_t stream, asc_status status, const char *message);

#ifdef __cplusplus
}
#endif
#endif
