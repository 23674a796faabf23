/* Seeded random numbers from the Philox4x32-10 counter-based generator
 * (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as 1, 2,
 * 3", SC'11). Every element is a pure function of (seed, call, index), so
 * parallel blocks need no shared state and the numbers do not depend on the
 * block split. docs/random.md documents the bit layout. */
#include <math.h>
#include <string.h>

#include "asc/ops_create.h"
#include "index_kernel.h"

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u /* golden ratio */
#define PHILOX_W1 0xBB67AE85u /* sqrt(3) - 1 */

/* Element indices use the low 48 bits of the counter's first half; the top
 * 16 number the rejection-sampling attempts of asc_random_integers. */
#define INDEX_BITS 48
#define MAX_ATTEMPTS ((uint32_t)1 << 16)

static inline void philox_rounds(uint32_t c[4], uint32_t k0, uint32_t k1) {
  for (int r = 0; r < 10; r++) {
    if (r) {
      k0 += PHILOX_W0;
      k1 += PHILOX_W1;
    }
    uint64_t p0 = (uint64_t)PHILOX_M0 * c[0], p1 = (uint64_t)PHILOX_M1 * c[2];
    uint32_t x0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0;
    uint32_t x2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1;
    c[0] = x0;
    c[1] = (uint32_t)p1;
    c[2] = x2;
    c[3] = (uint32_t)p0;
  }
}

void asc_philox4x32(const uint32_t counter[4], const uint32_t key[2], uint32_t out[4]) {
  memcpy(out, counter, 4 * sizeof *out);
  philox_rounds(out, key[0], key[1]);
}

void asc_generator_init(asc_generator *g, uint64_t seed) {
  g->seed = seed;
  g->calls = 0;
}

typedef struct random_ctx {
  asc_dtype dtype;
  uint32_t key[2];
  uint32_t call[2];
  uint64_t low, range, mask; /* integers: low + [0, range], drawn under mask */
} random_ctx;

/* The 4 words of counter block `group` of this call. */
static inline void block_words(const random_ctx *c, uint64_t group, uint32_t w[4]) {
  w[0] = (uint32_t)group;
  w[1] = (uint32_t)(group >> 32);
  w[2] = c->call[0];
  w[3] = c->call[1];
  philox_rounds(w, c->key[0], c->key[1]);
}

/* Blocks first .. first + LANES - 1 in lockstep: one Philox is a chain of
 * dependent multiplies, LANES independent ones keep the multipliers busy
 * (and let the compiler vectorise). */
#define LANES 16

typedef struct lanes {
  int64_t first; /* the first block held, or -1 */
  uint32_t w[4][LANES];
} lanes;

static void lanes_fill(const random_ctx *c, lanes *l, int64_t first) {
  uint32_t x0[LANES], x1[LANES], x2[LANES], x3[LANES];
  for (int j = 0; j < LANES; j++) {
    uint64_t group = (uint64_t)first + (uint64_t)j;
    x0[j] = (uint32_t)group;
    x1[j] = (uint32_t)(group >> 32);
    x2[j] = c->call[0];
    x3[j] = c->call[1];
  }
  uint32_t k0 = c->key[0], k1 = c->key[1];
  for (int r = 0; r < 10; r++) {
    if (r) {
      k0 += PHILOX_W0;
      k1 += PHILOX_W1;
    }
    for (int j = 0; j < LANES; j++) {
      uint64_t p0 = (uint64_t)PHILOX_M0 * x0[j], p1 = (uint64_t)PHILOX_M1 * x2[j];
      x0[j] = (uint32_t)(p1 >> 32) ^ x1[j] ^ k0;
      x1[j] = (uint32_t)p1;
      x2[j] = (uint32_t)(p0 >> 32) ^ x3[j] ^ k1;
      x3[j] = (uint32_t)p0;
    }
  }
  memcpy(l->w[0], x0, sizeof x0);
  memcpy(l->w[1], x1, sizeof x1);
  memcpy(l->w[2], x2, sizeof x2);
  memcpy(l->w[3], x3, sizeof x3);
  l->first = first;
}

/* Word r of block `group` (attempt 0). */
static inline uint32_t word(const random_ctx *c, lanes *l, int64_t group, int r) {
  if (l->first < 0 || group < l->first || group >= l->first + LANES) lanes_fill(c, l, group);
  return l->w[r][group - l->first];
}

static inline uint64_t join53(uint32_t hi, uint32_t lo) {
  return (((uint64_t)hi << 32) | lo) >> 11;
}

/* Element i of float64 takes words 2(i%2), 2(i%2)+1 of block i/2; of
 * float32, word i%4 of block i/4. */
static asc_status uniform_loop(char *out, int64_t first, int64_t n, const void *ctx) {
  const random_ctx *c = ctx;
  lanes l = {.first = -1};
  for (int64_t k = 0; k < n; k++) {
    int64_t i = first + k;
    if (c->dtype == ASC_FLOAT64) {
      int r = (int)(i & 1) * 2;
      uint64_t bits = join53(word(c, &l, i >> 1, r), word(c, &l, i >> 1, r + 1));
      ((double *)out)[k] = (double)bits * 0x1p-53;
    } else {
      ((float *)out)[k] = (float)(word(c, &l, i >> 2, (int)(i & 3)) >> 8) * 0x1p-24f;
    }
  }
  return ASC_OK;
}

/* Box-Muller on a pair of uniforms u1 in (0, 1], u2 in [0, 1): element 2p
 * is r cos(2 pi u2), element 2p+1 is r sin(2 pi u2), r = sqrt(-2 ln u1).
 * float64 pairs take a whole block (53-bit uniforms from words 0,1 and
 * 2,3); float32 pairs take half a block (32-bit uniforms). */
static asc_status normal_loop(char *out, int64_t first, int64_t n, const void *ctx) {
  const random_ctx *c = ctx;
  lanes l = {.first = -1};
  for (int64_t k = 0; k < n; k++) {
    int64_t i = first + k;
    double u1, u2;
    if (c->dtype == ASC_FLOAT64) {
      int64_t g = i >> 1;
      u1 = (double)(join53(word(c, &l, g, 0), word(c, &l, g, 1)) + 1) * 0x1p-53;
      u2 = (double)join53(word(c, &l, g, 2), word(c, &l, g, 3)) * 0x1p-53;
    } else {
      int64_t g = i >> 2;
      int p = (int)((i >> 1) & 1) * 2;
      u1 = ((double)word(c, &l, g, p) + 1.0) * 0x1p-32;
      u2 = (double)word(c, &l, g, p + 1) * 0x1p-32;
    }
    double radius = sqrt(-2.0 * log(u1)), theta = 2.0 * M_PI * u2;
    double z = radius * ((i & 1) ? sin(theta) : cos(theta));
    if (c->dtype == ASC_FLOAT64)
      ((double *)out)[k] = z;
    else
      ((float *)out)[k] = (float)z;
  }
  return ASC_OK;
}

/* The first candidate within range among the 4 words of a block: four
 * 32-bit ones for ranges below 2^32, else two 64-bit ones (words 0,1 and
 * 2,3), each masked. */
static bool accept(const random_ctx *c, const uint32_t w[4], uint64_t *v) {
  bool wide = c->range > UINT32_MAX;
  for (int r = 0; r < 4; r += wide ? 2 : 1) {
    uint64_t x = (wide ? ((uint64_t)w[r] << 32 | w[r + 1]) : w[r]) & c->mask;
    if (x <= c->range) {
      *v = c->low + x;
      return true;
    }
  }
  return false;
}

/* Element i tries block (i, attempt 0), then (i, 1), ...: the attempt goes
 * to the top bits of the block number. */
static asc_status draw_integer(const random_ctx *c, lanes *l, int64_t i, uint64_t *v) {
  uint32_t w[4] = {word(c, l, i, 0), word(c, l, i, 1), word(c, l, i, 2), word(c, l, i, 3)};
  for (uint32_t attempt = 1; !accept(c, w, v); attempt++) {
    if (attempt == MAX_ATTEMPTS)
      return asc_error(ASC_ERR_INTERNAL, "integers: rejection sampling did not terminate");
    block_words(c, (uint64_t)i | ((uint64_t)attempt << INDEX_BITS), w);
  }
  return ASC_OK;
}

static asc_status integers_loop(char *out, int64_t first, int64_t n, const void *ctx) {
  const random_ctx *c = ctx;
  size_t size = asc_dtype_size(c->dtype);
  lanes l = {.first = -1};
  for (int64_t k = 0; k < n; k++) {
    uint64_t v = c->low;
    if (c->range) {
      asc_status st = draw_integer(c, &l, first + k, &v);
      if (st) return st;
    }
    switch (size) {
      case 1:
        ((uint8_t *)out)[k] = (uint8_t)v;
        break;
      case 2:
        ((uint16_t *)out)[k] = (uint16_t)v;
        break;
      case 4:
        ((uint32_t *)out)[k] = (uint32_t)v;
        break;
      default:
        ((uint64_t *)out)[k] = v;
        break;
    }
  }
  return ASC_OK;
}

/* Allocates the result, launches the loop on this call's counter range and
 * moves the generator past it. */
static asc_status generate(asc_generator *g, int device, random_ctx *c, asc_index_loop loop,
                           const char *name, int ndim, const int64_t *shape, asc_tensor *out) {
  if (!g) return asc_error(ASC_ERR_INVALID_VALUE, "%s: NULL generator", name);
  asc_tensor t;
  asc_status st = asc_tensor_empty(device, c->dtype, ndim, shape, &t);
  if (st) return st;
  if (asc_tensor_numel(&t) >= ((int64_t)1 << INDEX_BITS)) {
    asc_tensor_release(&t);
    return asc_error(ASC_ERR_UNSUPPORTED, "%s: at most 2^%d elements per call", name, INDEX_BITS);
  }
  c->key[0] = (uint32_t)g->seed;
  c->key[1] = (uint32_t)(g->seed >> 32);
  c->call[0] = (uint32_t)g->calls;
  c->call[1] = (uint32_t)(g->calls >> 32);
  asc_index_kernel kernel = {.loop = loop, .ctx = c, .ctx_size = sizeof *c, .name = name};
  st = asc_index_launch(&kernel, &t);
  if (st) {
    asc_tensor_release(&t);
    return st;
  }
  g->calls++;
  *out = t;
  return ASC_OK;
}

static asc_status check_float(asc_dtype dtype, const char *name) {
  if (dtype == ASC_FLOAT32 || dtype == ASC_FLOAT64) return ASC_OK;
  return asc_error(ASC_ERR_TYPE, "%s: unsupported dtype %s (float32 or float64)", name,
                   asc_dtype_name(dtype));
}

asc_status asc_random_uniform(asc_generator *g, int device, asc_dtype dtype, int ndim,
                              const int64_t *shape, asc_tensor *out) {
  asc_status st = check_float(dtype, "random");
  if (st) return st;
  random_ctx c = {.dtype = dtype};
  return generate(g, device, &c, uniform_loop, "random", ndim, shape, out);
}

asc_status asc_random_normal(asc_generator *g, int device, asc_dtype dtype, int ndim,
                             const int64_t *shape, asc_tensor *out) {
  asc_status st = check_float(dtype, "standard_normal");
  if (st) return st;
  random_ctx c = {.dtype = dtype};
  return generate(g, device, &c, normal_loop, "standard_normal", ndim, shape, out);
}

/* The range [min, max] a dtype holds. */
static void dtype_bounds(asc_dtype dtype, int64_t *min, int64_t *max) {
  size_t bits = 8 * asc_dtype_size(dtype);
  if (dtype == ASC_BOOL) {
    *min = 0;
    *max = 1;
  } else if (!asc_dtype_is_signed(dtype)) {
    *min = 0; /* low and high are int64: uint64 draws below 2^63 */
    *max = bits >= 64 ? INT64_MAX : (int64_t)((UINT64_C(1) << bits) - 1);
  } else {
    *max = (int64_t)((UINT64_C(1) << (bits - 1)) - 1);
    *min = -*max - 1;
  }
}

asc_status asc_random_integers(asc_generator *g, int device, asc_dtype dtype, int64_t low,
                               int64_t high, int ndim, const int64_t *shape, asc_tensor *out) {
  if (!asc_dtype_valid(dtype) || asc_dtype_is_float(dtype) || asc_dtype_is_complex(dtype))
    return asc_error(ASC_ERR_TYPE, "integers: unsupported dtype %s (an integer dtype or bool)",
                     asc_dtype_name(dtype));
  int64_t min, max;
  dtype_bounds(dtype, &min, &max);
  if (low < min || low > max)
    return asc_error(ASC_ERR_INVALID_VALUE, "low is out of bounds for %s", asc_dtype_name(dtype));
  if (high < min || high > max)
    return asc_error(ASC_ERR_INVALID_VALUE, "high is out of bounds for %s", asc_dtype_name(dtype));
  if (low > high) return asc_error(ASC_ERR_INVALID_VALUE, "low > high");
  random_ctx c = {.dtype = dtype, .low = (uint64_t)low};
  c.range = (uint64_t)high - (uint64_t)low;
  c.mask = c.range;
  for (int s = 1; s < 64; s *= 2) c.mask |= c.mask >> s;
  return generate(g, device, &c, integers_loop, "integers", ndim, shape, out);
}
