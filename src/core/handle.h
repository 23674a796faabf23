/* Handle tables: map 64-bit handles to reference-counted objects.
 *
 * A handle packs a slot index with a generation count, so a destroyed or
 * forged handle is detected instead of dereferenced. Lookups take a
 * reference that the caller drops with asc_ref_release. */
#ifndef ASC_CORE_HANDLE_H
#define ASC_CORE_HANDLE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "asc/status.h"

/* Embedded as the first member of every handle-managed object. */
typedef struct asc_ref {
  atomic_int count;
  void (*destroy)(struct asc_ref *self); /* runs when count reaches zero */
} asc_ref;

void asc_ref_init(asc_ref *ref, void (*destroy)(asc_ref *));
void asc_ref_retain(asc_ref *ref);
void asc_ref_release(asc_ref *ref);

typedef struct asc_handle_slot {
  asc_ref *obj;
  uint32_t generation;
  uint32_t next_free;
} asc_handle_slot;

typedef struct asc_handle_table {
  pthread_mutex_t lock;
  asc_handle_slot *slots;
  uint32_t capacity;
  uint32_t free_head; /* UINT32_MAX: none */
  uint32_t live;
  uint8_t tag;      /* distinguishes stream handles from event handles */
  const char *kind; /* "stream", "event": for error messages */
} asc_handle_table;

void asc_handle_table_init(asc_handle_table *table, uint8_t tag, const char *kind);
/* Drops the table's reference to every live object. */
void asc_handle_table_clear(asc_handle_table *table);
void asc_handle_table_destroy(asc_handle_table *table);
/* fork(): before it takes the table's lock; after it, in either process,
 * releases it (the table itself stays valid in the child). */
void asc_handle_table_lock(asc_handle_table *table);
void asc_handle_table_unlock(asc_handle_table *table);

/* Stores obj (taking over one reference) and returns its handle. */
asc_status asc_handle_insert(asc_handle_table *table, asc_ref *obj, uint64_t *out);
/* Returns a new reference to the handle's object in *out. */
asc_status asc_handle_get(asc_handle_table *table, uint64_t handle, asc_ref **out);
/* Unmaps the handle and returns the table's reference in *out. */
asc_status asc_handle_remove(asc_handle_table *table, uint64_t handle, asc_ref **out);
/* Calls fn with a new reference to every live object (fn releases it).
 * Objects are collected under the lock and visited outside it. */
asc_status asc_handle_each(asc_handle_table *table, void (*fn)(asc_ref *obj, void *user),
                           void *user);

#endif
