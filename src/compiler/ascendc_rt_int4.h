/* Part of ascendc_rt.c, included only from it: the int4b_t forms of the
 * Ascend C header (PYASC_SIM_VEC_INT4, rt/int4.h). v[0] is the form (ASC_K_I4_*):
 * NEW v buf (-1 the UB, else 0 L1, 1 L0A, 2 L0B, 3 L0C), addr, len, out the tensor;
 * SLICE t[0], v offset, out the tensor; REINTERPRET t[0], v bits before and after, out the
 * tensor; GET t[0], v index, out the value; SET t[0], v index, value; CAST t dst, src, v dst's
 * and src's dtype, RoundMode, mask kind, mask words, repeat, isSetMask, then
 * UnaryRepeatParams' 4 strides; PHY_ADDR t[0], v offset, out the UB byte address;
 * GM_OFFSET v elements, what (0 an offset, 1 a size: rounded up, 2 a DataCopy count), out
 * the bytes. */
static int sim_int4(asc_k_ctx *k, const int64_t *v, const pyasc_sim_lt *t, int64_t *out,
                    const char *file, int line) {
  int L = at(file, line);
  asc_k_lt r = {0, 0};
  switch (v[0]) {
    case ASC_K_I4_NEW: {
      pyasc_sim_lt p = {0, 0};
      if (v[3] < 0) return asc_k_fail(k, L, "LocalTensor: negative size %lld", (long long)v[3]);
      int rc;
      if (v[1] < 0) {
        rc = sim_local_new(k, &p, v[2], asc_k_i4_bytes(v[3]), 1, file, line);
      } else {
#ifdef ASC_K_CUBE
        rc = sim_cube_local_new(k, &p, (int)v[1], v[2], asc_k_i4_bytes(v[3]), 1, file, line);
#else
        rc = asc_k_fail(k, L, "the cube: no cube table for this kernel");
#endif
      }
      out[0] = p.off, out[1] = v[3];
      return rc;
    }
    case ASC_K_I4_SLICE:
      if (asc_k_i4_slice(k, lt_in(t[0]), v[1], &r, L)) return 1;
      out[0] = r.off, out[1] = r.len;
      return 0;
    case ASC_K_I4_REINTERPRET:
      if (asc_k_i4_reinterpret(k, lt_in(t[0]), v[1], v[2], &r, L)) return 1;
      out[0] = r.off, out[1] = r.len;
      return 0;
    case ASC_K_I4_GET:
      return asc_k_i4_access(k, lt_in(t[0]), v[1], 0, out, L);
    case ASC_K_I4_SET: {
      int64_t x = v[2];
      return asc_k_i4_access(k, lt_in(t[0]), v[1], 1, &x, L);
    }
    case ASC_K_I4_CAST:
      return asc_k_i4_cast(k, lt_in(t[0]), lt_in(t[1]), (int)v[1], (int)v[2], (int)v[3], (int)v[4],
                           (uint64_t)v[5], (uint64_t)v[6], v[7], v[8] != 0, v + 9, L);
    case ASC_K_I4_PHY_ADDR:
      if (asc_k_i4_even(k, v[1], "GetPhyAddr", "offset", L)) return 1;
      return asc_k_local_phy_addr(k, asc_k_i4_view(lt_in(t[0])), v[1] / 2, 1, out, L);
    case ASC_K_I4_GM_OFFSET:
      if (v[1] < 0)
        return asc_k_fail(k, L, "int4b_t: negative element count %lld", (long long)v[1]);
      if (v[2] != 1 && asc_k_i4_even(k, v[1], v[2] ? "DataCopy" : "GlobalTensor[]",
                                     v[2] ? "count" : "offset", L))
        return 1;
      out[0] = asc_k_i4_bytes(v[1]);
      return 0;
    default:
      return asc_k_fail(k, L, "int4b_t: unknown form %lld", (long long)v[0]);
  }
}
