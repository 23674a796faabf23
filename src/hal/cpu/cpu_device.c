/* The embedded cpu device: a simulated Ascend 910B-class AI-core chip whose
 * global memory is host memory and whose cores are host threads. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu.h"

#define MAX_DEVICES 64

typedef struct cpu_device {
  asc_device_props props;
  atomic_size_t used_bytes; /* backend memory held, against global_mem_size */
  cpu_pool *pool;
} cpu_device;

/* Guards device configuration and pool creation; memory counters are atomic. */
static pthread_mutex_t devices_lock = PTHREAD_MUTEX_INITIALIZER;
static cpu_device devices[MAX_DEVICES];
static int device_count;
/* Bumped under devices_lock whenever any device's properties may change
 * (init, set_props), so that a thread may reuse its last copy without the
 * lock: every small launch reads them. Starts at 1: an empty cache never
 * matches. */
static atomic_uint_fast64_t props_version = 1;
static _Thread_local struct {
  uint_fast64_t version;
  int device;
  asc_device_props props;
} props_cache;

static size_t physical_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : (size_t)8 << 30;
}

static int online_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

static asc_device_props default_props(int index) {
  asc_device_props p;
  memset(&p, 0, sizeof p);
  snprintf(p.name, sizeof p.name, "Ascend910B-sim:%d", index);
  snprintf(p.backend, sizeof p.backend, "cpu");
  p.ai_core_count = 48;
  p.cube_core_count = 24;
  p.ub_size = 192 * 1024;
  p.l1_size = 512 * 1024;
  p.l0a_size = 64 * 1024;
  p.l0b_size = 64 * 1024;
  p.l0c_size = 128 * 1024;
  p.data_block_size = 32;
  size_t hbm = (size_t)64 << 30, host = physical_memory();
  p.global_mem_size = host < hbm ? host : hbm;
  p.worker_threads = online_cores();
  p.host_visible = true;
  return p;
}

/* Parses "196608", "192K", "64M", "2G" (binary multiples). */
static asc_status parse_size(const char *var, const char *text, size_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  unsigned shift = 0;
  if (*end == 'K' || *end == 'k')
    shift = 10, end++;
  else if (*end == 'M' || *end == 'm')
    shift = 20, end++;
  else if (*end == 'G' || *end == 'g')
    shift = 30, end++;
  if (errno || end == text || *end || text[0] < '0' || text[0] > '9' || v > (SIZE_MAX >> shift))
    return asc_error(ASC_ERR_INVALID_VALUE, "%s='%s' is not a byte count (e.g. 196608, 192K, 2G)",
                     var, text);
  *out = (size_t)v << shift;
  return ASC_OK;
}

static asc_status env_size(const char *var, size_t *field) {
  const char *text = getenv(var);
  return text ? parse_size(var, text, field) : ASC_OK;
}

static asc_status env_int(const char *var, int *field) {
  size_t v = (size_t)*field;
  asc_status st = env_size(var, &v);
  if (st == ASC_OK && v > INT_MAX) st = asc_error(ASC_ERR_INVALID_VALUE, "%s is too large", var);
  if (st == ASC_OK) *field = (int)v;
  return st;
}

static asc_status validate_props(const asc_device_props *p) {
  if (p->ai_core_count < 1 || p->ai_core_count > 65535)
    return asc_error(ASC_ERR_INVALID_VALUE, "ai_core_count must be in [1, 65535], got %d",
                     p->ai_core_count);
  if (p->cube_core_count < 0 || p->cube_core_count > 65535)
    return asc_error(ASC_ERR_INVALID_VALUE, "cube_core_count must be in [0, 65535], got %d",
                     p->cube_core_count);
  if (p->data_block_size != 32)
    return asc_error(ASC_ERR_INVALID_VALUE, "data_block_size must be 32 bytes, got %zu",
                     p->data_block_size);
  const size_t limit = (size_t)1 << 30;
  const size_t sizes[] = {p->ub_size, p->l1_size, p->l0a_size, p->l0b_size, p->l0c_size};
  const char *names[] = {"ub_size", "l1_size", "l0a_size", "l0b_size", "l0c_size"};
  for (int i = 0; i < 5; i++)
    if (sizes[i] == 0 || sizes[i] % p->data_block_size || sizes[i] > limit)
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "%s must be a positive multiple of %zu bytes up to 1 GiB, got %zu", names[i],
                       p->data_block_size, sizes[i]);
  if (p->worker_threads < 1 || p->worker_threads > 1024)
    return asc_error(ASC_ERR_INVALID_VALUE, "worker_threads must be in [1, 1024], got %d",
                     p->worker_threads);
  if (p->global_mem_size == 0)
    return asc_error(ASC_ERR_INVALID_VALUE, "global_mem_size must be positive");
  return ASC_OK;
}

static asc_status env_props(asc_device_props *p) {
  asc_status st = ASC_OK;
  if (!st) st = env_int("PYASC_CPU_AI_CORES", &p->ai_core_count);
  if (!st) st = env_int("PYASC_CPU_CUBE_CORES", &p->cube_core_count);
  if (!st) st = env_size("PYASC_CPU_UB_SIZE", &p->ub_size);
  if (!st) st = env_size("PYASC_CPU_L1_SIZE", &p->l1_size);
  if (!st) st = env_size("PYASC_CPU_L0A_SIZE", &p->l0a_size);
  if (!st) st = env_size("PYASC_CPU_L0B_SIZE", &p->l0b_size);
  if (!st) st = env_size("PYASC_CPU_L0C_SIZE", &p->l0c_size);
  if (!st) st = env_size("PYASC_CPU_MEMORY", &p->global_mem_size);
  if (!st) st = env_int("PYASC_CPU_WORKERS", &p->worker_threads);
  if (!st && validate_props(p))
    st = asc_error(ASC_ERR_INVALID_VALUE, "PYASC_CPU_*: %s", asc_last_error());
  return st;
}

static asc_status cpu_init(void) {
  int count = 1;
  asc_status st = env_int("PYASC_CPU_DEVICES", &count);
  if (st) return st;
  if (count < 1 || count > MAX_DEVICES)
    return asc_error(ASC_ERR_INVALID_VALUE, "PYASC_CPU_DEVICES must be in [1, %d], got %d",
                     MAX_DEVICES, count);
  pthread_mutex_lock(&devices_lock);
  for (int i = 0; i < count && !st; i++) {
    devices[i].props = default_props(i);
    atomic_store(&devices[i].used_bytes, 0);
    st = env_props(&devices[i].props);
  }
  atomic_fetch_add(&props_version, 1);
  if (!st) device_count = count;
  pthread_mutex_unlock(&devices_lock);
  return st;
}

static void cpu_shutdown(void) {
  pthread_mutex_lock(&devices_lock);
  for (int i = 0; i < device_count; i++) {
    if (devices[i].pool) cpu_pool_destroy(devices[i].pool);
    devices[i].pool = NULL;
  }
  device_count = 0;
  pthread_mutex_unlock(&devices_lock);
}

static int cpu_device_count(void) {
  return device_count;
}

static asc_status check_device(int device) {
  if (device < 0 || device >= device_count)
    return asc_error(ASC_ERR_INVALID_VALUE, "device %d does not exist (%d cpu device%s)", device,
                     device_count, device_count == 1 ? "" : "s");
  return ASC_OK;
}

asc_status cpu_device_props(int device, asc_device_props *out) {
  asc_status st = check_device(device);
  if (st) return st;
  if (props_cache.version == atomic_load_explicit(&props_version, memory_order_acquire) &&
      props_cache.device == device) {
    *out = props_cache.props;
    return ASC_OK;
  }
  pthread_mutex_lock(&devices_lock);
  *out = devices[device].props;
  props_cache.version = atomic_load_explicit(&props_version, memory_order_relaxed);
  props_cache.device = device;
  props_cache.props = *out;
  pthread_mutex_unlock(&devices_lock);
  return ASC_OK;
}

static asc_status cpu_set_props(int device, const asc_device_props *props) {
  asc_status st = check_device(device);
  if (!st) st = validate_props(props);
  if (st) return st;
  pthread_mutex_lock(&devices_lock);
  asc_device_props *p = &devices[device].props;
  /* Identity fields stay the backend's. */
  char name[ASC_NAME_MAX], backend[16];
  memcpy(name, p->name, sizeof name);
  memcpy(backend, p->backend, sizeof backend);
  *p = *props;
  memcpy(p->name, name, sizeof name);
  memcpy(p->backend, backend, sizeof backend);
  p->host_visible = true;
  atomic_fetch_add(&props_version, 1);
  pthread_mutex_unlock(&devices_lock);
  return ASC_OK;
}

asc_status cpu_device_pool(int device, cpu_pool **out) {
  asc_status st = check_device(device);
  if (st) return st;
  pthread_mutex_lock(&devices_lock);
  if (!devices[device].pool) st = cpu_pool_create(&devices[device].pool);
  *out = devices[device].pool;
  pthread_mutex_unlock(&devices_lock);
  return st;
}

static void cpu_at_fork(asc_fork_phase phase) {
  if (phase == ASC_FORK_PREPARE) pthread_mutex_lock(&devices_lock);
  for (int i = 0; i < device_count; i++)
    if (devices[i].pool) cpu_pool_at_fork(devices[i].pool, phase);
  if (phase == ASC_FORK_CHILD)
    for (int i = 0; i < device_count; i++) devices[i].pool = NULL; /* made again on demand */
  cpu_streams_at_fork(phase);
  cpu_arenas_at_fork(phase);
  if (phase != ASC_FORK_PREPARE) pthread_mutex_unlock(&devices_lock);
}

static size_t round_alloc(size_t nbytes) {
  return nbytes ? (nbytes + 63) & ~(size_t)63 : 64;
}

static asc_status cpu_mem_alloc(int device, size_t nbytes, void **out) {
  asc_status st = check_device(device);
  if (st) return st;
  if (nbytes > SIZE_MAX - 64)
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate %zu bytes", nbytes);
  size_t size = round_alloc(nbytes);
  cpu_device *d = &devices[device];
  size_t used = atomic_fetch_add(&d->used_bytes, size);
  if (used + size > d->props.global_mem_size || used + size < used) {
    atomic_fetch_sub(&d->used_bytes, size);
    return asc_error(ASC_ERR_OUT_OF_MEMORY,
                     "device %d: %zu bytes requested, %zu of %zu bytes of global memory in use",
                     device, nbytes, used, d->props.global_mem_size);
  }
  void *p = aligned_alloc(64, size);
  if (!p) {
    atomic_fetch_sub(&d->used_bytes, size);
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "device %d: host allocation of %zu bytes failed",
                     device, size);
  }
  *out = p;
  return ASC_OK;
}

static asc_status cpu_mem_free(int device, void *ptr, size_t nbytes) {
  asc_status st = check_device(device);
  if (st) return st;
  free(ptr);
  atomic_fetch_sub(&devices[device].used_bytes, round_alloc(nbytes));
  return ASC_OK;
}

static asc_status cpu_memcpy_sync(int device, void *dst, const void *src, size_t nbytes,
                                  asc_memcpy_kind kind) {
  (void)device, (void)kind;
  if (nbytes) memmove(dst, src, nbytes);
  return ASC_OK;
}

static asc_status cpu_memset_sync(int device, void *dst, int value, size_t nbytes) {
  (void)device;
  if (nbytes) memset(dst, value, nbytes);
  return ASC_OK;
}

typedef struct copy_job {
  void *dst;
  const void *src;
  size_t nbytes;
  int value; /* memset value; -1 for a copy */
} copy_job;

static asc_status run_copy(void *user) {
  copy_job *job = user;
  if (job->value < 0)
    memmove(job->dst, job->src, job->nbytes);
  else
    memset(job->dst, job->value, job->nbytes);
  return ASC_OK;
}

static asc_status enqueue_copy(void *stream, copy_job job, const char *what) {
  copy_job *heap = malloc(sizeof *heap);
  if (!heap) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot queue %s", what);
  *heap = job;
  asc_task task = {.run = run_copy, .release = free, .user = heap, .what = what};
  asc_status st = cpu_stream_enqueue(stream, &task);
  if (st) free(heap);
  return st;
}

static asc_status cpu_memcpy_async(void *stream, void *dst, const void *src, size_t nbytes,
                                   asc_memcpy_kind kind) {
  (void)kind;
  return enqueue_copy(stream, (copy_job){dst, src, nbytes, -1}, "memcpy_async");
}

static asc_status cpu_memset_async(void *stream, void *dst, int value, size_t nbytes) {
  return enqueue_copy(stream, (copy_job){dst, NULL, nbytes, value & 0xff}, "memset_async");
}

static const asc_backend cpu_backend = {
    .name = "cpu",
    .init = cpu_init,
    .shutdown = cpu_shutdown,
    .device_count = cpu_device_count,
    .get_props = cpu_device_props,
    .set_props = cpu_set_props,
    .mem_alloc = cpu_mem_alloc,
    .mem_free = cpu_mem_free,
    .memcpy_sync = cpu_memcpy_sync,
    .memset_sync = cpu_memset_sync,
    .memcpy_async = cpu_memcpy_async,
    .memset_async = cpu_memset_async,
    .stream_create = cpu_stream_create,
    .stream_shutdown = cpu_stream_shutdown,
    .stream_free = cpu_stream_free,
    .stream_enqueue = cpu_stream_enqueue,
    .stream_synchronize = cpu_stream_synchronize,
    .stream_synchronize_for = cpu_stream_synchronize_for,
    .stream_error_pending = cpu_stream_error_pending,
    .stream_query = cpu_stream_query,
    .stream_tick = cpu_stream_tick,
    .stream_reached = cpu_stream_reached,
    .stream_wait_event = cpu_stream_wait_event,
    .event_create = cpu_event_create,
    .event_free = cpu_event_free,
    .event_record = cpu_event_record,
    .event_synchronize = cpu_event_synchronize,
    .event_synchronize_for = cpu_event_synchronize_for,
    .event_query = cpu_event_query,
    .event_elapsed_ms = cpu_event_elapsed_ms,
    .launch = cpu_launch,
    .at_fork = cpu_at_fork,
};

const asc_backend *asc_cpu_backend(void) {
  return &cpu_backend;
}
