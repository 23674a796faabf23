/* --- the launch's pool of core buffers --------------------------------------
 * A block of a mixed or AIC launch adds cores the host thread running it
 * does not have: an AIC's cube buffers, the second AIV's Unified Buffer.
 * They come from a pool the launch keeps, so that a launch of many blocks
 * allocates them once per block running at a time, not once per block (a
 * 1024^3 adv.Matmul over 24 groups allocated and zeroed 60 MB). As the
 * buffers of a core on the NPU, a reused one holds what the block before
 * left: its contents at a block's start are unspecified (as alloc_tensor's
 * are); a new one is zeroed. Without a launch (NULL), or when the pool
 * cannot be made, each buffer is allocated and freed by itself. */

#include <pthread.h>

typedef enum asc_kp_kind { ASC_KP_UB, ASC_KP_CUBE } asc_kp_kind;

/* A buffer's header, 64 bytes before the payload the caller sees. */
typedef struct asc_kp_item {
  struct asc_kp_item *next; /* in the pool's idle list */
  asc_kp_kind kind;
  size_t size;
  void (*fini)(void *payload); /* frees what the payload owns (NULL: nothing) */
} asc_kp_item;
#define ASC_KP_HEADER 64
_Static_assert(sizeof(asc_kp_item) <= ASC_KP_HEADER, "the pool's header outgrew its room");

typedef struct asc_kp_pool {
  pthread_mutex_t mu;
  asc_kp_item *idle;
} asc_kp_pool;

static asc_kp_item *asc_kp_item_of(void *payload) {
  return (asc_kp_item *)(void *)((char *)payload - ASC_KP_HEADER);
}

static void asc_kp_item_free(asc_kp_item *it) {
  if (it->fini) it->fini((char *)it + ASC_KP_HEADER);
  free(it);
}

/* The launch's pool_free: every idle buffer (all are idle once the
 * launch's blocks have ended). */
static void asc_kp_pool_free(void *p) {
  asc_kp_pool *pool = (asc_kp_pool *)p;
  if (!pool) return;
  for (asc_kp_item *it = pool->idle, *next; it; it = next) {
    next = it->next;
    asc_kp_item_free(it);
  }
  pthread_mutex_destroy(&pool->mu);
  free(pool);
}

/* The launch's pool, made by the first block that gives a buffer back
 * (NULL: no launch, or out of memory). */
static asc_kp_pool *asc_kp_pool_get(asc_k_launch *s) {
  if (!s) return NULL;
  asc_kp_pool *pool = (asc_kp_pool *)__atomic_load_n(&s->pool, __ATOMIC_ACQUIRE);
  if (pool) return pool;
  pool = (asc_kp_pool *)calloc(1, sizeof *pool);
  if (!pool) return NULL;
  pthread_mutex_init(&pool->mu, NULL);
  return (asc_kp_pool *)asc_k_launch_publish(&s->pool, &s->pool_free, pool, asc_kp_pool_free);
}

/* A buffer of `kind` of at least `size` bytes (64-byte aligned) for a
 * block of launch s: an idle one of the pool (*fresh 0: it holds what its
 * last block left) or a new one, zeroed (*fresh 1; fresh may be NULL). fini frees what the
 * payload will own (NULL: nothing). NULL: out of host memory. The block
 * hands it back with asc_kp_give, or asc_kp_drop if it is not usable. */
static void *asc_kp_take(asc_k_launch *s, asc_kp_kind kind, size_t size,
                         void (*fini)(void *payload), int *fresh) __attribute__((unused));
static void *asc_kp_take(asc_k_launch *s, asc_kp_kind kind, size_t size,
                         void (*fini)(void *payload), int *fresh) {
  asc_kp_pool *pool = s ? (asc_kp_pool *)__atomic_load_n(&s->pool, __ATOMIC_ACQUIRE) : NULL;
  if (pool) {
    pthread_mutex_lock(&pool->mu);
    asc_kp_item **at = &pool->idle;
    while (*at && ((*at)->kind != kind || (*at)->size < size)) at = &(*at)->next;
    asc_kp_item *it = *at;
    if (it) *at = it->next;
    pthread_mutex_unlock(&pool->mu);
    if (it) {
      if (fresh) *fresh = 0;
      return (char *)it + ASC_KP_HEADER;
    }
  }
  if (size > SIZE_MAX - 2 * ASC_KP_HEADER) return NULL;
  const size_t bytes = (ASC_KP_HEADER + size + 63) / 64 * 64; /* aligned_alloc's multiple */
  asc_kp_item *it = (asc_kp_item *)aligned_alloc(64, bytes);
  if (!it) return NULL;
  memset(it, 0, bytes);
  it->kind = kind;
  it->size = size;
  it->fini = fini;
  if (fresh) *fresh = 1;
  return (char *)it + ASC_KP_HEADER;
}

/* Frees a buffer of asc_kp_take without pooling it (NULL: nothing). */
static void asc_kp_drop(void *payload) __attribute__((unused));
static void asc_kp_drop(void *payload) {
  if (payload) asc_kp_item_free(asc_kp_item_of(payload));
}

/* Hands a buffer of asc_kp_take back to launch s's pool for a later block
 * (freed when there is no pool; NULL: nothing). */
static void asc_kp_give(asc_k_launch *s, void *payload) __attribute__((unused));
static void asc_kp_give(asc_k_launch *s, void *payload) {
  if (!payload) return;
  asc_kp_pool *pool = asc_kp_pool_get(s);
  if (!pool) {
    asc_kp_drop(payload);
    return;
  }
  asc_kp_item *it = asc_kp_item_of(payload);
  pthread_mutex_lock(&pool->mu);
  it->next = pool->idle;
  pool->idle = it;
  pthread_mutex_unlock(&pool->mu);
}
