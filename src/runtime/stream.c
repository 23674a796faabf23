/* Streams, events and launches: checked handles over the backend's objects. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime.h"

#define STREAM_TAG 0x53 /* 'S' */
#define EVENT_TAG 0x45  /* 'E' */

typedef struct asc_event_obj {
  asc_ref ref;
  void *impl;
} asc_event_obj;

static asc_handle_table streams;
static asc_handle_table events;
/* Default streams are created on first use under defaults_lock; once set,
 * every operation reads its device's without the lock (an atomic load). */
static pthread_mutex_t defaults_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic asc_stream_t default_streams[ASC_MAX_DEVICES];
static _Thread_local asc_stream_t current_streams[ASC_MAX_DEVICES];
/* Bumped by every init: a thread's current streams from before a shutdown
 * are forgotten (see thread_current_streams). */
static atomic_uint runtime_epoch;
static _Thread_local unsigned current_epoch;
static bool tables_ready; /* guarded by the runtime's init lock */

static asc_stream_t *thread_current_streams(void) {
  unsigned epoch = atomic_load(&runtime_epoch);
  if (current_epoch != epoch) {
    memset(current_streams, 0, sizeof current_streams);
    current_epoch = epoch;
  }
  return current_streams;
}

static void clear_defaults(void) {
  for (int d = 0; d < ASC_MAX_DEVICES; d++) atomic_store(&default_streams[d], 0);
}

void asc_rt_streams_init(void) {
  /* The tables outlive shutdown (which only clears them), so that slot
   * generations keep counting and no handle from before it comes back. */
  if (!tables_ready) {
    asc_handle_table_init(&streams, STREAM_TAG, "stream");
    asc_handle_table_init(&events, EVENT_TAG, "event");
    tables_ready = true;
  }
  clear_defaults();
  atomic_fetch_add(&runtime_epoch, 1);
}

void asc_rt_streams_shutdown(void) {
  asc_handle_table_clear(&events);
  asc_handle_table_clear(&streams);
  pthread_mutex_lock(&defaults_lock);
  clear_defaults();
  pthread_mutex_unlock(&defaults_lock);
}

void asc_rt_streams_at_fork(asc_fork_phase phase) {
  if (phase == ASC_FORK_PREPARE) {
    pthread_mutex_lock(&defaults_lock);
    if (tables_ready) {
      asc_handle_table_lock(&streams);
      asc_handle_table_lock(&events);
    }
    return;
  }
  /* Handles stay valid in the child; their streams restart their threads. */
  if (tables_ready) {
    asc_handle_table_unlock(&events);
    asc_handle_table_unlock(&streams);
  }
  pthread_mutex_unlock(&defaults_lock);
}

static void stream_obj_destroy(asc_ref *ref) {
  asc_stream_obj *s = (asc_stream_obj *)ref;
  const asc_backend *b = asc_rt_backend();
  (void)b->stream_shutdown(s->impl);
  b->stream_free(s->impl);
  free(s);
}

static asc_status new_stream(int device, bool is_default, asc_stream_t *out) {
  asc_stream_obj *s = calloc(1, sizeof *s);
  if (!s) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate a stream");
  asc_status st = asc_rt_backend()->stream_create(device, &s->impl);
  if (st) {
    free(s);
    return st;
  }
  asc_ref_init(&s->ref, stream_obj_destroy);
  s->device = device;
  s->is_default = is_default;
  st = asc_handle_insert(&streams, &s->ref, &s->handle);
  if (st)
    asc_ref_release(&s->ref);
  else
    *out = s->handle;
  return st;
}

asc_status asc_stream_create(int device, asc_stream_t *out) {
  asc_status st = asc_rt_check_device(device);
  return st ? st : new_stream(device, false, out);
}

asc_status asc_stream_default(int device, asc_stream_t *out) {
  asc_status st = asc_rt_check_device(device);
  if (st) return st;
  asc_stream_t stream = atomic_load_explicit(&default_streams[device], memory_order_acquire);
  if (stream) {
    *out = stream;
    return ASC_OK;
  }
  pthread_mutex_lock(&defaults_lock);
  stream = atomic_load_explicit(&default_streams[device], memory_order_relaxed);
  if (!stream && (st = new_stream(device, true, &stream)) == ASC_OK)
    atomic_store_explicit(&default_streams[device], stream, memory_order_release);
  *out = stream;
  pthread_mutex_unlock(&defaults_lock);
  return st;
}

asc_status asc_stream_current(int device, asc_stream_t *out) {
  asc_status st = asc_rt_check_device(device);
  if (st) return st;
  asc_stream_t current = thread_current_streams()[device];
  if (current) {
    *out = current;
    return ASC_OK;
  }
  return asc_stream_default(device, out);
}

asc_status asc_rt_stream_get(asc_stream_t stream, asc_stream_obj **out) {
  asc_status st = asc_rt_ready();
  if (st == ASC_OK && stream == ASC_STREAM_CURRENT)
    st = asc_stream_current(asc_device_current(), &stream);
  if (st) return st;
  asc_ref *ref;
  st = asc_handle_get(&streams, stream, &ref);
  if (st == ASC_OK) *out = (asc_stream_obj *)ref;
  return st;
}

asc_status asc_stream_set_current(asc_stream_t stream) {
  asc_stream_obj *s;
  asc_status st = asc_rt_stream_get(stream, &s);
  if (st) return st;
  thread_current_streams()[s->device] = s->handle;
  asc_rt_stream_put(s);
  return ASC_OK;
}

asc_status asc_stream_device(asc_stream_t stream, int *out) {
  asc_stream_obj *s;
  asc_status st = asc_rt_stream_get(stream, &s);
  if (st) return st;
  *out = s->device;
  asc_rt_stream_put(s);
  return ASC_OK;
}

asc_status asc_stream_destroy(asc_stream_t stream) {
  asc_stream_obj *s;
  asc_status st = asc_rt_stream_get(stream, &s);
  if (st) return st;
  if (s->is_default) {
    asc_rt_stream_put(s);
    return asc_error(ASC_ERR_INVALID_VALUE, "the default stream cannot be destroyed");
  }
  /* Drain first (the stream stops accepting work), so that a failure, such
   * as a task destroying its own stream, leaves the handle valid and usable.
   * Memory blocks may keep the object itself alive a while after. */
  st = asc_rt_backend()->stream_shutdown(s->impl);
  asc_stream_t handle = s->handle;
  asc_rt_stream_put(s); /* s may be gone after this: use `handle` */
  if (st) return st;
  asc_ref *ref;
  st = asc_handle_remove(&streams, handle, &ref);
  if (st) return st; /* another thread destroyed it first */
  asc_ref_release(ref);
  return ASC_OK;
}

asc_status asc_stream_synchronize(asc_stream_t stream) {
  return asc_stream_synchronize_for(stream, -1);
}

asc_status asc_stream_synchronize_for(asc_stream_t stream, int64_t timeout_ns) {
  asc_stream_obj *s;
  asc_status st = asc_rt_stream_get(stream, &s);
  if (st) return st;
  st = asc_rt_backend()->stream_synchronize_for(s->impl, timeout_ns);
  asc_rt_stream_put(s);
  return st;
}

asc_status asc_stream_query(asc_stream_t stream) {
  asc_stream_obj *s;
  asc_status st = asc_rt_stream_get(stream, &s);
  if (st) return st;
  st = asc_rt_backend()->stream_query(s->impl);
  asc_rt_stream_put(s);
  return st;
}

asc_status asc_stream_error_pending(asc_stream_t stream, bool *out) {
  asc_stream_obj *s;
  asc_status st = asc_rt_stream_get(stream, &s);
  if (st) return st;
  *out = asc_rt_backend()->stream_error_pending(s->impl);
  asc_rt_stream_put(s);
  return ASC_OK;
}

asc_status asc_stream_enqueue(asc_stream_t stream, const asc_task *task) {
  if (!task || !task->run)
    return asc_error(ASC_ERR_INVALID_VALUE, "enqueue: task has no run function");
  asc_stream_obj *s;
  asc_status st = asc_rt_stream_get(stream, &s);
  if (st) return st;
  st = asc_rt_backend()->stream_enqueue(s->impl, task);
  asc_rt_stream_put(s);
  return st;
}

typedef struct sync_state {
  int device;
  int64_t deadline_ns; /* < 0: none */
  bool not_ready;
  asc_status first;
  char message[1024];
} sync_state;

static int64_t monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sync_one(asc_ref *ref, void *user) {
  asc_stream_obj *s = (asc_stream_obj *)ref;
  sync_state *state = user;
  if (s->device == state->device) {
    int64_t left = -1;
    if (state->deadline_ns >= 0) {
      left = state->deadline_ns - monotonic_ns();
      if (left < 0) left = 0;
    }
    asc_status st = asc_rt_backend()->stream_synchronize_for(s->impl, left);
    if (st == ASC_ERR_NOT_READY)
      state->not_ready = true;
    else if (st && !state->first) {
      state->first = st;
      strncpy(state->message, asc_last_error(), sizeof state->message - 1);
    }
  }
  asc_ref_release(ref);
}

asc_status asc_device_synchronize(int device) {
  return asc_device_synchronize_for(device, -1);
}

asc_status asc_device_synchronize_for(int device, int64_t timeout_ns) {
  asc_status st = asc_rt_check_device(device);
  if (st) return st;
  sync_state state = {.device = device, .deadline_ns = -1, .first = ASC_OK};
  if (timeout_ns >= 0) state.deadline_ns = monotonic_ns() + timeout_ns;
  st = asc_handle_each(&streams, sync_one, &state);
  if (st) return st;
  /* An error already taken from a stream is reported even if another
   * stream is still busy: it would be lost otherwise. */
  if (state.first) return asc_error(state.first, "%s", state.message);
  return state.not_ready ? ASC_ERR_NOT_READY : ASC_OK;
}

/* --- events ------------------------------------------------------------- */

static void event_obj_destroy(asc_ref *ref) {
  asc_event_obj *e = (asc_event_obj *)ref;
  asc_rt_backend()->event_free(e->impl);
  free(e);
}

asc_status asc_event_create(asc_event_t *out) {
  asc_status st = asc_rt_ready();
  if (st) return st;
  asc_event_obj *e = calloc(1, sizeof *e);
  if (!e) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate an event");
  st = asc_rt_backend()->event_create(&e->impl);
  if (st) {
    free(e);
    return st;
  }
  asc_ref_init(&e->ref, event_obj_destroy);
  st = asc_handle_insert(&events, &e->ref, out);
  if (st) asc_ref_release(&e->ref);
  return st;
}

static asc_status event_get(asc_event_t event, asc_event_obj **out) {
  asc_status st = asc_rt_ready();
  asc_ref *ref = NULL;
  if (st == ASC_OK) st = asc_handle_get(&events, event, &ref);
  if (st == ASC_OK) *out = (asc_event_obj *)ref;
  return st;
}

asc_status asc_event_destroy(asc_event_t event) {
  asc_status st = asc_rt_ready();
  asc_ref *ref;
  if (st == ASC_OK) st = asc_handle_remove(&events, event, &ref);
  if (st == ASC_OK) asc_ref_release(ref);
  return st;
}

/* Event record and stream wait both take the event and the stream by handle
 * and hold both while the backend links them; only the direction differs. */
static asc_status event_with_stream(asc_event_t event, asc_stream_t stream, bool wait) {
  asc_event_obj *e;
  asc_status st = event_get(event, &e);
  if (st) return st;
  asc_stream_obj *s;
  st = asc_rt_stream_get(stream, &s);
  if (st == ASC_OK) {
    const asc_backend *be = asc_rt_backend();
    st = wait ? be->stream_wait_event(s->impl, e->impl) : be->event_record(e->impl, s->impl);
    asc_rt_stream_put(s);
  }
  asc_ref_release(&e->ref);
  return st;
}

asc_status asc_event_record(asc_event_t event, asc_stream_t stream) {
  return event_with_stream(event, stream, false);
}

asc_status asc_event_synchronize(asc_event_t event) {
  return asc_event_synchronize_for(event, -1);
}

asc_status asc_event_synchronize_for(asc_event_t event, int64_t timeout_ns) {
  asc_event_obj *e;
  asc_status st = event_get(event, &e);
  if (st) return st;
  st = asc_rt_backend()->event_synchronize_for(e->impl, timeout_ns);
  asc_ref_release(&e->ref);
  return st;
}

asc_status asc_event_query(asc_event_t event) {
  asc_event_obj *e;
  asc_status st = event_get(event, &e);
  if (st) return st;
  st = asc_rt_backend()->event_query(e->impl);
  asc_ref_release(&e->ref);
  return st;
}

asc_status asc_event_elapsed_ms(asc_event_t start, asc_event_t end, double *out_ms) {
  asc_event_obj *a, *b;
  asc_status st = event_get(start, &a);
  if (st) return st;
  st = event_get(end, &b);
  if (st == ASC_OK) {
    st = asc_rt_backend()->event_elapsed_ms(a->impl, b->impl, out_ms);
    asc_ref_release(&b->ref);
  }
  asc_ref_release(&a->ref);
  return st;
}

asc_status asc_stream_wait_event(asc_stream_t stream, asc_event_t event) {
  return event_with_stream(event, stream, true);
}

/* --- launch --------------------------------------------------------------- */

asc_status asc_launch(asc_stream_t stream, asc_kernel_fn fn, uint32_t nblocks, const void *args,
                      size_t args_size) {
  asc_stream_obj *s;
  asc_status st = asc_rt_stream_get(stream, &s);
  if (st) return st;
  asc_launch_desc desc = {.fn = fn, .nblocks = nblocks, .args = args, .args_size = args_size};
  st = asc_rt_backend()->launch(s->impl, &desc);
  asc_rt_stream_put(s);
  return st;
}

asc_status asc_launch_ex(asc_stream_t stream, const asc_launch_desc *launch) {
  if (!launch) return asc_error(ASC_ERR_INVALID_VALUE, "launch: descriptor is NULL");
  asc_stream_obj *s;
  asc_status st = asc_rt_stream_get(stream, &s);
  if (st) {
    /* Keep the promise that release runs once, even when nothing ran. */
    if (launch->release) launch->release((void *)launch->args);
    return st;
  }
  st = asc_rt_backend()->launch(s->impl, launch);
  asc_rt_stream_put(s);
  return st;
}
