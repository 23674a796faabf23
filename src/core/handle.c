/* Generation-checked handle tables (see handle.h). */
#include "handle.h"

#include <stdlib.h>

#define NO_SLOT UINT32_MAX
#define GENERATION_MASK 0xffffffu

void asc_ref_init(asc_ref *ref, void (*destroy)(asc_ref *)) {
  atomic_init(&ref->count, 1);
  ref->destroy = destroy;
}

void asc_ref_retain(asc_ref *ref) {
  atomic_fetch_add_explicit(&ref->count, 1, memory_order_relaxed);
}

void asc_ref_release(asc_ref *ref) {
  if (atomic_fetch_sub_explicit(&ref->count, 1, memory_order_acq_rel) == 1) ref->destroy(ref);
}

void asc_handle_table_init(asc_handle_table *table, uint8_t tag, const char *kind) {
  pthread_mutex_init(&table->lock, NULL);
  table->slots = NULL;
  table->capacity = 0;
  table->free_head = NO_SLOT;
  table->live = 0;
  table->tag = tag;
  table->kind = kind;
}

static uint64_t encode(const asc_handle_table *table, uint32_t index, uint32_t generation) {
  return ((uint64_t)table->tag << 56) | ((uint64_t)(generation & GENERATION_MASK) << 32) |
         (uint64_t)(index + 1);
}

/* Returns the slot of a live handle or NULL. Caller holds the lock. */
static asc_handle_slot *find_slot(asc_handle_table *table, uint64_t handle) {
  uint32_t index = (uint32_t)(handle & 0xffffffffu) - 1;
  if ((uint8_t)(handle >> 56) != table->tag || index >= table->capacity) return NULL;
  asc_handle_slot *slot = &table->slots[index];
  if (!slot->obj || (slot->generation & GENERATION_MASK) != ((handle >> 32) & GENERATION_MASK))
    return NULL;
  return slot;
}

static asc_status grow(asc_handle_table *table) {
  uint32_t capacity = table->capacity ? table->capacity * 2 : 16;
  if (capacity > (1u << 30))
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "too many live %ss", table->kind);
  asc_handle_slot *slots = realloc(table->slots, capacity * sizeof *slots);
  if (!slots) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot grow the %s table", table->kind);
  for (uint32_t i = table->capacity; i < capacity; i++) {
    slots[i].obj = NULL;
    slots[i].generation = 0;
    slots[i].next_free = i + 1 < capacity ? i + 1 : table->free_head;
  }
  table->free_head = table->capacity;
  table->slots = slots;
  table->capacity = capacity;
  return ASC_OK;
}

asc_status asc_handle_insert(asc_handle_table *table, asc_ref *obj, uint64_t *out) {
  pthread_mutex_lock(&table->lock);
  asc_status st = table->free_head == NO_SLOT ? grow(table) : ASC_OK;
  if (st == ASC_OK) {
    uint32_t index = table->free_head;
    asc_handle_slot *slot = &table->slots[index];
    table->free_head = slot->next_free;
    slot->obj = obj;
    table->live++;
    *out = encode(table, index, slot->generation);
  }
  pthread_mutex_unlock(&table->lock);
  return st;
}

static asc_status bad_handle(const asc_handle_table *table, uint64_t handle) {
  return asc_error(ASC_ERR_INVALID_HANDLE, "invalid %s handle 0x%llx (destroyed or never created)",
                   table->kind, (unsigned long long)handle);
}

asc_status asc_handle_get(asc_handle_table *table, uint64_t handle, asc_ref **out) {
  pthread_mutex_lock(&table->lock);
  asc_handle_slot *slot = find_slot(table, handle);
  if (slot) {
    asc_ref_retain(slot->obj);
    *out = slot->obj;
  }
  pthread_mutex_unlock(&table->lock);
  return slot ? ASC_OK : bad_handle(table, handle);
}

asc_status asc_handle_remove(asc_handle_table *table, uint64_t handle, asc_ref **out) {
  pthread_mutex_lock(&table->lock);
  asc_handle_slot *slot = find_slot(table, handle);
  if (slot) {
    *out = slot->obj;
    slot->obj = NULL;
    slot->generation++;
    slot->next_free = table->free_head;
    table->free_head = (uint32_t)(slot - table->slots);
    table->live--;
  }
  pthread_mutex_unlock(&table->lock);
  return slot ? ASC_OK : bad_handle(table, handle);
}

asc_status asc_handle_each(asc_handle_table *table, void (*fn)(asc_ref *obj, void *user),
                           void *user) {
  pthread_mutex_lock(&table->lock);
  uint32_t count = 0;
  asc_ref **objs = table->live ? malloc(table->live * sizeof *objs) : NULL;
  if (table->live && !objs) {
    pthread_mutex_unlock(&table->lock);
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot list %ss", table->kind);
  }
  for (uint32_t i = 0; i < table->capacity; i++) {
    if (!table->slots[i].obj) continue;
    asc_ref_retain(table->slots[i].obj);
    objs[count++] = table->slots[i].obj;
  }
  pthread_mutex_unlock(&table->lock);
  for (uint32_t i = 0; i < count; i++) fn(objs[i], user);
  free(objs);
  return ASC_OK;
}

void asc_handle_table_clear(asc_handle_table *table) {
  pthread_mutex_lock(&table->lock);
  uint32_t count = 0;
  asc_ref **objs = table->live ? malloc(table->live * sizeof *objs) : NULL;
  for (uint32_t i = 0; i < table->capacity; i++) {
    asc_handle_slot *slot = &table->slots[i];
    if (!slot->obj) continue;
    if (objs) objs[count++] = slot->obj;
    slot->obj = NULL;
    slot->generation++;
    slot->next_free = table->free_head;
    table->free_head = i;
  }
  table->live = 0;
  pthread_mutex_unlock(&table->lock);
  /* Released outside the lock: destructors may use other tables. */
  for (uint32_t i = 0; i < count; i++) asc_ref_release(objs[i]);
  free(objs);
}

void asc_handle_table_destroy(asc_handle_table *table) {
  asc_handle_table_clear(table);
  free(table->slots);
  table->slots = NULL;
  table->capacity = 0;
  table->free_head = NO_SLOT;
  pthread_mutex_destroy(&table->lock);
}

void asc_handle_table_lock(asc_handle_table *table) {
  pthread_mutex_lock(&table->lock);
}

void asc_handle_table_unlock(asc_handle_table *table) {
  pthread_mutex_unlock(&table->lock);
}
