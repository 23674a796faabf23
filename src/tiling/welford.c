/* Host tiling of Ascend C's Welford APIs: see include/asc/tiling.h.
 *
 * On a 910B-class core (dav-2201), as CANN's asc-devkit computes them
 * (impl/adv_api/tiling/normalization/): WelfordUpdate works a number of
 * 256-byte repeats at a time, each holding its float copies of the source
 * (3 for half data, 2 for float, 1 when the source may be overwritten), and
 * WelfordFinalize keeps four 64-float rows (two for the partial sums, two
 * for a piece's mean and variance), or two of abLength floats for the
 * pieces when abLength is longer than one row. */
#include "asc/tiling.h"

#include <stddef.h>

enum {
  WF_REPEAT_BYTES = 256,
  WF_REPEAT_FLOATS = WF_REPEAT_BYTES / 4,
  WF_BLOCK_FLOATS = 32 / 4,
};

static asc_status wf_store(uint64_t max_bytes, uint64_t min_bytes, const char *name,
                           uint32_t *max_out, uint32_t *min_out) {
  if (max_bytes > UINT32_MAX)
    return asc_error(ASC_ERR_INVALID_VALUE, "%s: %llu bytes of tmp buffer do not fit in uint32",
                     name, (unsigned long long)max_bytes);
  if (max_out) *max_out = (uint32_t)max_bytes;
  if (min_out) *min_out = (uint32_t)min_bytes;
  return ASC_OK;
}

asc_status asc_tiling_welford_update_tmp_size(int64_t rn, int64_t ab, int32_t type_size,
                                              bool reuse_source, uint32_t *max_bytes,
                                              uint32_t *min_bytes) {
  static const char name[] = "GetWelfordUpdateMaxMinTmpSize";
  if (type_size != 2 && type_size != 4)
    return asc_error(ASC_ERR_INVALID_VALUE, "%s: the source is half or float, not %d bytes", name,
                     (int)type_size);
  if (rn <= 0 || ab <= 0 || rn > UINT32_MAX || ab > UINT32_MAX)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s: the shape [rnLength, abLength] = [%lld, %lld] is not positive", name,
                     (long long)rn, (long long)ab);
  /* the float copies of a repeat the API keeps */
  const uint64_t copies = type_size == 2 ? 3 : reuse_source ? 1 : 2;
  const uint64_t min = copies * WF_REPEAT_BYTES;
  /* rn and ab are under 2^32, so their product is under 2^64 */
  const uint64_t elements = (uint64_t)rn * (uint64_t)ab;
  const uint64_t repeats = elements / WF_REPEAT_FLOATS + (elements % WF_REPEAT_FLOATS != 0);
  if (repeats > UINT32_MAX / min)
    return asc_error(ASC_ERR_INVALID_VALUE, "%s: %llu elements need more than 4 GiB of tmp buffer",
                     name, (unsigned long long)elements);
  return wf_store(repeats * min, min, name, max_bytes, min_bytes);
}

asc_status asc_tiling_welford_finalize_tmp_size(int64_t ab, uint32_t *max_bytes,
                                                uint32_t *min_bytes) {
  static const char name[] = "GetWelfordFinalizeMaxMinTmpSize";
  if (ab <= 0 || ab % WF_BLOCK_FLOATS != 0 || ab > UINT32_MAX)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s: abLength %lld is not a positive whole number of 32-byte blocks of float",
                     name, (long long)ab);
  const uint64_t min = 4u * WF_REPEAT_FLOATS * 4u;
  const uint64_t max =
      ab <= WF_REPEAT_FLOATS ? min : (2u * WF_REPEAT_FLOATS + 2u * (uint64_t)ab) * 4u;
  return wf_store(max, min, name, max_bytes, min_bytes);
}
