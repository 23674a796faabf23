/* Runtime start-up and teardown, and the device API. */
#include <pthread.h>
#include <stdatomic.h>

#include "asc/mem.h"
#include "runtime.h"

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool ready;
static const asc_backend *backend;
static _Thread_local int current_device;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* fork() takes every runtime lock in one fixed order (outer to inner:
 * init, default streams, allocator, handle tables, backend), so that the
 * child sees consistent state; the child then restarts threads on demand. */
static void fork_prepare(void) {
  pthread_mutex_lock(&init_lock);
  asc_rt_streams_at_fork(ASC_FORK_PREPARE);
  asc_mem_at_fork(ASC_FORK_PREPARE);
  if (backend && backend->at_fork) backend->at_fork(ASC_FORK_PREPARE);
}

static void fork_after(asc_fork_phase phase) {
  if (backend && backend->at_fork) backend->at_fork(phase);
  asc_mem_at_fork(phase);
  asc_rt_streams_at_fork(phase);
  pthread_mutex_unlock(&init_lock);
}

static void fork_parent(void) {
  fork_after(ASC_FORK_PARENT);
}

static void fork_child(void) {
  fork_after(ASC_FORK_CHILD);
}

static void register_fork_handlers(void) {
  (void)pthread_atfork(fork_prepare, fork_parent, fork_child);
}

asc_status asc_rt_ready(void) {
  if (atomic_load_explicit(&ready, memory_order_acquire)) return ASC_OK;
  pthread_once(&atfork_once, register_fork_handlers);
  pthread_mutex_lock(&init_lock);
  asc_status st = ASC_OK;
  if (!atomic_load(&ready)) {
    const asc_backend *b = asc_cpu_backend();
    st = b->init();
    if (st == ASC_OK) {
      backend = b;
      asc_rt_streams_init();
      atomic_store_explicit(&ready, true, memory_order_release);
    }
  }
  pthread_mutex_unlock(&init_lock);
  return st;
}

asc_status asc_init(void) {
  return asc_rt_ready();
}

const asc_backend *asc_rt_backend(void) {
  return backend;
}

const asc_backend *asc_hal_backend(void) {
  return asc_rt_ready() == ASC_OK ? backend : NULL;
}

asc_status asc_shutdown(void) {
  pthread_mutex_lock(&init_lock);
  if (atomic_load(&ready)) {
    for (int d = 0; d < backend->device_count(); d++) (void)asc_device_synchronize(d);
    asc_mem_shutdown();
    asc_rt_streams_shutdown();
    backend->shutdown();
    atomic_store(&ready, false);
  }
  pthread_mutex_unlock(&init_lock);
  asc_clear_error();
  return ASC_OK;
}

asc_status asc_rt_check_device(int device) {
  asc_status st = asc_rt_ready();
  if (st) return st;
  int count = backend->device_count();
  if (device < 0 || device >= count)
    return asc_error(ASC_ERR_INVALID_VALUE, "device %d does not exist (%d device%s)", device, count,
                     count == 1 ? "" : "s");
  return ASC_OK;
}

asc_status asc_device_count(int *out) {
  asc_status st = asc_rt_ready();
  if (st == ASC_OK) *out = backend->device_count();
  return st;
}

asc_status asc_device_get_props(int device, asc_device_props *out) {
  asc_status st = asc_rt_check_device(device);
  return st ? st : backend->get_props(device, out);
}

asc_status asc_device_set_props(int device, const asc_device_props *props) {
  asc_status st = asc_rt_check_device(device);
  return st ? st : backend->set_props(device, props);
}

asc_status asc_device_set(int device) {
  asc_status st = asc_rt_check_device(device);
  if (st == ASC_OK) current_device = device;
  return st;
}

int asc_device_current(void) {
  return current_device;
}
