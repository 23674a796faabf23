/* Tensor creation with NumPy semantics: fills, ranges, identity matrices,
 * joining tensors (concatenate, stack) and seeded random numbers.
 *
 * Functions that make a tensor allocate *out on the current stream of
 * `device`; the caller owns it. The work runs asynchronously on that stream,
 * like every tensor operation. */
#ifndef ASC_OPS_CREATE_H
#define ASC_OPS_CREATE_H

#include "asc/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- fills ---------------------------------------------------------------- */
/* t[...] = value, converted to t's dtype as a cast does (NaN or out of range
 * to an integer gives NumPy's result). t may have any strides. */
asc_status asc_fill(const asc_tensor *t, double value);
/* The same for an integer value: exact for every int64. */
asc_status asc_fill_int(const asc_tensor *t, int64_t value);

/* --- ranges --------------------------------------------------------------- */
/* NumPy arange over integers: start, start + step, ... up to but excluding
 * stop; exact, wrapping in narrow dtypes. step 0 is ASC_ERR_INVALID_VALUE. */
asc_status asc_arange_int(int device, asc_dtype dtype, int64_t start, int64_t stop, int64_t step,
                          asc_tensor *out);
/* NumPy arange over floats: ceil((stop - start) / step) elements; element i
 * is start + i * delta in dtype's arithmetic, where delta is
 * dtype(start + step) - dtype(start), as NumPy computes it. */
asc_status asc_arange(int device, asc_dtype dtype, double start, double stop, double step,
                      asc_tensor *out);
/* NumPy linspace: num values from start to stop (included when endpoint),
 * computed in float64 with NumPy's formula, the endpoint exact; integer
 * dtypes take the floor. */
asc_status asc_linspace(int device, asc_dtype dtype, double start, double stop, int64_t num,
                        bool endpoint, asc_tensor *out);
/* NumPy eye: an n x m matrix with ones on diagonal k (k > 0 above the main
 * diagonal), zeros elsewhere. */
asc_status asc_eye(int device, asc_dtype dtype, int64_t n, int64_t m, int64_t k, asc_tensor *out);

/* --- joining -------------------------------------------------------------- */
/* NumPy concatenate along axis (negative counts from the end): the inputs
 * agree in every other dimension; the result dtype promotes all inputs.
 * out->storage NULL allocates; otherwise out receives the result (same_kind
 * casting) and may overlap the inputs. */
asc_status asc_concatenate(int n, const asc_tensor *const *xs, int axis, asc_tensor *out);
/* NumPy stack: inputs of one shape joined along a new axis (0..ndim). */
asc_status asc_stack(int n, const asc_tensor *const *xs, int axis, asc_tensor *out);

/* --- random numbers ------------------------------------------------------- */
/* A counter-based generator (Philox4x32-10, see docs/random.md): the key is
 * the seed and every call draws from its own counter range, so results
 * depend only on the seed and the sequence of calls, never on how the work
 * is split among threads. A generator is a plain value; calls on one
 * generator from several threads need the caller's lock. */
typedef struct asc_generator {
  uint64_t seed;  /* the Philox key */
  uint64_t calls; /* the counter range of the next call */
} asc_generator;

void asc_generator_init(asc_generator *g, uint64_t seed);
/* One Philox4x32-10 block: 4 words from a 4-word counter and a 2-word key. */
void asc_philox4x32(const uint32_t counter[4], const uint32_t key[2], uint32_t out[4]);
/* Uniform on [0, 1) with 24 (float32) or 53 (float64) random bits. */
asc_status asc_random_uniform(asc_generator *g, int device, asc_dtype dtype, int ndim,
                              const int64_t *shape, asc_tensor *out);
/* Standard normal (Box-Muller); float32 or float64. */
asc_status asc_random_normal(asc_generator *g, int device, asc_dtype dtype, int ndim,
                             const int64_t *shape, asc_tensor *out);
/* Uniform integers in [low, high] (both included), unbiased by rejection;
 * dtype is an integer dtype or bool and must hold low and high. */
asc_status asc_random_integers(asc_generator *g, int device, asc_dtype dtype, int64_t low,
                               int64_t high, int ndim, const int64_t *shape, asc_tensor *out);

#ifdef __cplusplus
}
#endif
#endif
