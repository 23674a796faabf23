/* Internal runtime interface shared by the runtime's files. */
#ifndef ASC_RUNTIME_INTERNAL_H
#define ASC_RUNTIME_INTERNAL_H

#include "../core/handle.h"
#include "asc/runtime.h"

#define ASC_MAX_DEVICES 64

typedef struct asc_stream_obj {
  asc_ref ref; /* first: the handle table stores &ref */
  int device;
  bool is_default;
  uint64_t handle;
  void *impl; /* the backend's stream */
} asc_stream_obj;

/* Initialises on first use; every public entry point calls this first. */
asc_status asc_rt_ready(void);
const asc_backend *asc_rt_backend(void);
asc_status asc_rt_check_device(int device);
/* Resolves a handle (ASC_STREAM_CURRENT included) to a new reference. */
asc_status asc_rt_stream_get(asc_stream_t stream, asc_stream_obj **out);
static inline void asc_rt_stream_put(asc_stream_obj *s) {
  asc_ref_release(&s->ref);
}
static inline void asc_rt_stream_retain(asc_stream_obj *s) {
  asc_ref_retain(&s->ref);
}

/* Implemented in mem_cache.c: returns every block to the backend. */
void asc_mem_shutdown(void);
/* fork(): PREPARE takes the module's locks, PARENT and CHILD release them. */
void asc_mem_at_fork(asc_fork_phase phase);
/* Implemented in stream.c. */
void asc_rt_streams_init(void);
void asc_rt_streams_shutdown(void);
void asc_rt_streams_at_fork(asc_fork_phase phase);

#endif
