/* Tensors: strided views of reference-counted device storage.
 *
 * An asc_tensor is a small value (dtype, shape, strides, offset) plus one
 * reference to its storage. Functions that fill an `asc_tensor *out` give
 * the caller that reference; the caller drops it with asc_tensor_release.
 * Views share storage without copying. Operations on tensors run on the
 * calling thread's current stream, in stream order, and may still be running
 * when they return: read values on the host only after a synchronisation. */
#ifndef ASC_TENSOR_H
#define ASC_TENSOR_H

#include <stdbool.h>
#include <stdint.h>

#include "asc/dtype.h"
#include "asc/runtime.h"
#include "asc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ASC_MAX_DIMS 16
/* The most bytes one tensor may span: sizes, strides in bytes and offsets
 * of any valid view then stay far from int64 overflow. */
#define ASC_MAX_TENSOR_BYTES ((int64_t)1 << 62)

typedef struct asc_storage asc_storage;

typedef struct asc_tensor {
  asc_storage *storage; /* one reference, owned by whoever holds this struct */
  asc_dtype dtype;
  int ndim;
  int64_t shape[ASC_MAX_DIMS];
  int64_t strides[ASC_MAX_DIMS]; /* in elements; may be 0 (broadcast) or negative */
  int64_t offset;                /* in elements from the storage's base */
} asc_tensor;

/* --- storage ------------------------------------------------------------ */
/* New device memory from the caching allocator, for use on `stream`. */
asc_status asc_storage_new(int device, size_t nbytes, asc_stream_t stream, asc_storage **out);
/* Adopts memory someone else owns (a NumPy array, a DLPack producer):
 * `release(ctx)` runs once when the last reference goes, on any thread. */
asc_status asc_storage_wrap(int device, void *data, size_t nbytes, void (*release)(void *ctx),
                            void *ctx, asc_storage **out);
void asc_storage_retain(asc_storage *storage);
void asc_storage_release(asc_storage *storage);
/* For work queued on `stream` that uses the storage's data: memory from the
 * caching allocator gets the stream recorded on its block and only the
 * record (the struct, for asc_storage_poison) is held, so that when the last
 * tensor goes the block returns to the cache at once, stream-ordered (the
 * same stream reuses it after this work, others once they pass it);
 * borrowed memory is held whole. Returns whether it held the whole storage;
 * pass that to asc_storage_release_queued when the work is done. */
bool asc_storage_retain_queued(asc_storage *storage, asc_stream_t stream);
void asc_storage_release_queued(asc_storage *storage, bool whole);
/* The same for a launch's n storages (n <= 32; NULLs are skipped), from a
 * launch's keep hook: returns the mask of those held whole, for
 * asc_storages_release_queued. */
uint32_t asc_storages_retain_queued(asc_storage *const *storages, int n, asc_stream_t stream);
void asc_storages_release_queued(asc_storage *const *storages, int n, uint32_t whole);
void *asc_storage_data(const asc_storage *storage);
size_t asc_storage_nbytes(const asc_storage *storage);
int asc_storage_device(const asc_storage *storage);
/* Marks the storage as holding no valid data: the operation `what` (static)
 * that would have written it was skipped after an earlier error on its
 * stream, or failed. The mark stays; the first one is kept. Any thread. */
void asc_storage_poison(asc_storage *storage, const char *what, bool skipped);
/* ASC_OK, or ASC_ERR_DEVICE saying why the storage holds no valid data. */
asc_status asc_storage_check_valid(const asc_storage *storage);
/* Marks memory lent read-only (a read-only buffer, a non-writeable NumPy
 * array, a read-only DLPack tensor): every operation that would write to a
 * view of it fails. Call before sharing the storage; it is never cleared. */
void asc_storage_set_readonly(asc_storage *storage);
bool asc_storage_readonly(const asc_storage *storage); /* false for NULL */

/* --- shapes ------------------------------------------------------------- */
/* Validates a shape for dtype: at most ASC_MAX_DIMS axes, none negative,
 * the non-empty ones spanning at most ASC_MAX_TENSOR_BYTES (else
 * ASC_ERR_OUT_OF_MEMORY). *nbytes (may be NULL) gets the byte size. */
asc_status asc_check_shape(int ndim, const int64_t *shape, asc_dtype dtype, size_t *nbytes);
/* Element count; INT64_MAX if it overflows (never for a checked shape). */
int64_t asc_shape_numel(int ndim, const int64_t *shape);

/* --- tensors ------------------------------------------------------------ */
/* A new C-contiguous tensor with uninitialised elements on the current
 * stream of `device`. */
asc_status asc_tensor_empty(int device, asc_dtype dtype, int ndim, const int64_t *shape,
                            asc_tensor *out);
/* A new 0-d tensor holding *value (asc_dtype_size(dtype) bytes). Its
 * element lives in the storage record itself, outside the caching
 * allocator: a Python scalar operand costs one malloc. */
asc_status asc_tensor_scalar(int device, asc_dtype dtype, const void *value, asc_tensor *out);
/* Drops t's storage reference and clears t (safe on a cleared tensor). */
void asc_tensor_release(asc_tensor *t);
/* *out becomes another reference to the same view. */
void asc_tensor_share(const asc_tensor *t, asc_tensor *out);
int64_t asc_tensor_numel(const asc_tensor *t);
int asc_tensor_device(const asc_tensor *t);
/* Address of the element at index (0, ..., 0). */
void *asc_tensor_data(const asc_tensor *t);
bool asc_tensor_is_contiguous(const asc_tensor *t);
/* Validates that every element of the view lies inside its storage. */
asc_status asc_tensor_check(const asc_tensor *t);
/* asc_storage_check_valid of t's storage (ASC_OK for a cleared tensor).
 * Call after waiting for the work that writes t: the mark is set when the
 * stream skips that work. */
asc_status asc_tensor_check_valid(const asc_tensor *t);
/* For an input of an operation about to be queued on the current stream:
 * asc_tensor_check_valid, except that while the failure behind the mark
 * still waits to be reported there, the operation may be queued (it is
 * skipped, and that failure is reported first). */
asc_status asc_tensor_check_input(const asc_tensor *t);
/* ASC_ERR_INVALID_VALUE, naming `what`, if t's memory is read-only. */
asc_status asc_tensor_check_writable(const asc_tensor *t, const char *what);

/* --- views (no copy) ------------------------------------------------------ */
/* NumPy reshape: one -1 is inferred; a view when the strides allow it,
 * otherwise a contiguous copy (enqueued). */
asc_status asc_tensor_reshape(const asc_tensor *t, int ndim, const int64_t *shape, asc_tensor *out);
/* Like reshape but fails with ASC_ERR_INVALID_VALUE instead of copying. */
asc_status asc_tensor_view(const asc_tensor *t, int ndim, const int64_t *shape, asc_tensor *out);
/* axes: a permutation of 0..ndim-1; NULL reverses the axes (.T). */
asc_status asc_tensor_permute(const asc_tensor *t, const int *axes, asc_tensor *out);
asc_status asc_tensor_transpose(const asc_tensor *t, int axis0, int axis1, asc_tensor *out);
/* NumPy broadcast_to. */
asc_status asc_tensor_expand(const asc_tensor *t, int ndim, const int64_t *shape, asc_tensor *out);
/* t[..., start:stop:step, ...] on one axis; start/stop already clamped as
 * Python's slice.indices does, `length` the resulting extent. */
asc_status asc_tensor_slice(const asc_tensor *t, int axis, int64_t start, int64_t step,
                            int64_t length, asc_tensor *out);
/* t[..., index, ...]: removes the axis; negative index counts from the end. */
asc_status asc_tensor_select(const asc_tensor *t, int axis, int64_t index, asc_tensor *out);
/* Inserts a length-1 axis at position `axis` (0..ndim). */
asc_status asc_tensor_unsqueeze(const asc_tensor *t, int axis, asc_tensor *out);
/* A complex tensor's memory as its real dtype with a last axis of 2 (real,
 * imaginary), like torch.view_as_real; ASC_ERR_TYPE for a real dtype,
 * ASC_ERR_INVALID_VALUE at ASC_MAX_DIMS axes. */
asc_status asc_tensor_view_real(const asc_tensor *t, asc_tensor *out);
/* The inverse: a float32/float64 tensor whose last axis is 2 with stride 1
 * and whose other strides and offset are even, as complex64/complex128. */
asc_status asc_tensor_view_complex(const asc_tensor *t, asc_tensor *out);
/* A contiguous tensor with t's values: t itself (shared) when it already is. */
asc_status asc_tensor_contiguous(const asc_tensor *t, asc_tensor *out);
/* NumPy broadcasting of two shapes. */
asc_status asc_broadcast_shapes(int ndim_a, const int64_t *a, int ndim_b, const int64_t *b,
                                int *ndim_out, int64_t *out);

#ifdef __cplusplus
}
#endif
#endif
