/* Sorting: sort32, sort, mrg_sort / mrg_sort4, rp_sort16, proposal_concat,
 * proposal_extract and the merge-sort result registers.
 *
 * Two element layouts, as on the hardware:
 * - the Atlas A2 sort element (sort32, sort, mrg_sort): 8 bytes, the score
 *   (float16 or float32) in the low bytes, 2 bytes of zeros after a float16
 *   score, and a uint32 index in bytes 4..7;
 * - the region proposal (rp_sort16, mrg_sort4, proposal_concat/extract):
 *   8 elements of T (x1, y1, x2, y2, score, label, 2 reserved), the score
 *   element 4.
 * Sorts are descending by score and stable: of equal scores the earlier
 * element (or the earlier queue's) comes first. A NaN score compares below
 * every number. One function per API row (api_table.def), called as
 * fn(k, operands..., [attributes...,] element size of operand 0, [&result,]
 * line). */

typedef struct asc_k_sort_fmt {
  int64_t size;  /* bytes of one element */
  int64_t score; /* byte offset of its score */
  int64_t es;    /* bytes of the score: 2 float16, 4 float32 */
} asc_k_sort_fmt;

static inline double asc_k_sort_score(const asc_k_sort_fmt *f, const char *elem) {
  double s = asc_k_ld(f->es == 2 ? ASC_K_DT_FLOAT16 : ASC_K_DT_FLOAT32, elem + f->score);
  return s != s ? -INFINITY : s;
}

/* Stable descending merge sort of n elements at p (scratch: n elements). */
static inline void asc_k_sort_elems(const asc_k_sort_fmt *f, char *p, char *scratch, int64_t n) {
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t i = lo, j = mid, o = lo;
      while (i < mid || j < hi) {
        int take_right = i >= mid || (j < hi && asc_k_sort_score(f, p + j * f->size) >
                                                    asc_k_sort_score(f, p + i * f->size));
        int64_t from = take_right ? j++ : i++;
        memcpy(scratch + o++ * f->size, p + from * f->size, (size_t)f->size);
      }
    }
    memcpy(p, scratch, (size_t)(n * f->size));
  }
}

static inline int asc_k_sort_repeat(asc_k_ctx *k, int64_t repeat, int64_t lo, int64_t hi,
                                    const char *api, int line) {
  if (repeat < lo || repeat > hi)
    return asc_k_fail(k, line, "%s: repeat_time %lld is outside [%lld, %lld]", api,
                      (long long)repeat, (long long)lo, (long long)hi);
  return 0;
}

/* Scores and uint32 indices into sort elements, 32 per repeat, each repeat
 * sorted (full: all of them, as one list). */
static inline int asc_k_sort_pairs(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, asc_k_lt idx,
                                   asc_k_lt tmp, int use_tmp, int64_t repeat, int full, int64_t es,
                                   const char *api, int line) {
  if (asc_k_sort_repeat(k, repeat, 0, 255, api, line)) return 1;
  if (!repeat) return 0;
  int64_t n = repeat * 32, out = n * 8 / es;
  if (asc_k_ub_use(k, ASC_K_V, src, n, es, ASC_K_READ, api, "src0", line) ||
      asc_k_ub_use(k, ASC_K_V, idx, n, 4, ASC_K_READ, api, "src1", line) ||
      (use_tmp && asc_k_ub_use(k, ASC_K_V, tmp, out, es, ASC_K_WRITE, api, "tmp", line)) ||
      asc_k_ub_use(k, ASC_K_V, dst, out, es, ASC_K_WRITE, api, "dst", line))
    return 1;
  asc_k_sort_fmt f = {8, 0, es};
  /* at most 255 * 32 elements of 8 bytes twice: 130560 bytes, off the stack */
  char *buf = malloc((size_t)(2 * n * 8));
  if (!buf) return asc_k_fail(k, line, "%s: out of host memory", api);
  for (int64_t i = 0; i < n; i++) {
    char *e = buf + i * 8;
    memset(e, 0, 8);
    memcpy(e, k->ub + src.off + i * es, (size_t)es);
    memcpy(e + 4, k->ub + idx.off + i * 4, 4);
  }
  if (full)
    asc_k_sort_elems(&f, buf, buf + n * 8, n);
  else
    for (int64_t r = 0; r < repeat; r++) asc_k_sort_elems(&f, buf + r * 256, buf + n * 8, 32);
  if (use_tmp) memcpy(k->ub + tmp.off, buf, (size_t)(n * 8));
  memcpy(k->ub + dst.off, buf, (size_t)(n * 8));
  free(buf);
  return 0;
}

static inline int asc_k_sort32(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src0, asc_k_lt src1,
                               int64_t repeat, int dt, int line) {
  int64_t es = asc_k_dt_size(dt);
  return asc_k_sort_pairs(k, dst, src0, src1, dst, 0, repeat, 0, es, "sort32", line);
}

static inline int asc_k_sort(asc_k_ctx *k, asc_k_lt dst, asc_k_lt concat, asc_k_lt index,
                             asc_k_lt tmp, int64_t repeat, int64_t full, int dt, int line) {
  int64_t es = asc_k_dt_size(dt);
  return asc_k_sort_pairs(k, dst, concat, index, tmp, 1, repeat, (int)full, es, "sort", line);
}

/* Merges the valid queues (valid_bit 0b11, 0b111 or 0b1111) of lengths
 * len[] elements, repeat times (each repeat's queues and output follow the
 * previous repeat's, the sum of the valid lengths further on). With
 * exhausted suspension a repeat stops once a queue runs out; the elements
 * taken from each queue are kept for get_mrg_sort_result. */
static inline int asc_k_merge(asc_k_ctx *k, const asc_k_sort_fmt *f, asc_k_lt dst,
                              const asc_k_lt *src, const int64_t *len, int64_t valid,
                              int64_t repeat, int64_t susp, int64_t es, const char *api, int line) {
  static const char *const names[] = {"src1", "src2", "src3", "src4"};
  if (valid != 3 && valid != 7 && valid != 15)
    return asc_k_fail(k, line, "%s: valid_bit %lld must be 3, 7 or 15 (2, 3 or 4 queues)", api,
                      (long long)valid);
  if (asc_k_sort_repeat(k, repeat, 1, 255, api, line)) return 1;
  int nq = valid == 3 ? 2 : valid == 7 ? 3 : 4;
  int64_t total = 0, per = f->size / es; /* elements of T per sort element */
  for (int q = 0; q < nq; q++) {
    if (len[q] < 0 || len[q] > 4095)
      return asc_k_fail(k, line, "%s: element length %lld of queue %d is outside [0, 4095]", api,
                        (long long)len[q], q + 1);
    total += len[q];
  }
  for (int q = 0; q < nq; q++)
    if (asc_k_ub_use(k, ASC_K_V, src[q], ((repeat - 1) * total + len[q]) * per, es, ASC_K_READ, api,
                     names[q], line))
      return 1;
  if (asc_k_ub_use(k, ASC_K_V, dst, repeat * total * per, es, ASC_K_WRITE, api, "dst", line))
    return 1;
  for (int q = 0; q < nq; q++) {
    int64_t a = src[q].off, b = dst.off;
    if (a < b + repeat * total * f->size && b < a + ((repeat - 1) * total + len[q]) * f->size)
      return asc_k_fail(k, line, "%s: dst overlaps %s (not supported by the instruction)", api,
                        names[q]);
  }
  char *out = malloc((size_t)(total * f->size) + 1);
  if (!out) return asc_k_fail(k, line, "%s: out of host memory", api);
  for (int64_t r = 0; r < repeat; r++) {
    int64_t at[4] = {0, 0, 0, 0}, n = 0;
    for (;;) {
      int best = -1, done = 0;
      double bs = 0;
      for (int q = 0; q < nq; q++) {
        if (at[q] >= len[q]) {
          done = 1;
          continue;
        }
        double s = asc_k_sort_score(f, k->ub + src[q].off + (r * total + at[q]) * f->size);
        if (best < 0 || s > bs) best = q, bs = s;
      }
      if (best < 0 || (susp && done)) break;
      memcpy(out + n++ * f->size, k->ub + src[best].off + (r * total + at[best]) * f->size,
             (size_t)f->size);
      at[best]++;
    }
    memcpy(k->ub + dst.off + r * total * f->size, out, (size_t)(n * f->size));
    for (int q = 0; q < 4; q++) k->sr.mrg[q] = q < nq ? at[q] : 0;
  }
  free(out);
  return 0;
}

/* mrg_sort (Atlas A2 sort elements) and mrg_sort4 (region proposals):
 * (dst, src1..src4, len1..len4, valid_bit, repeat, exhausted suspension). */
static inline int asc_k_mrg_sort_any(asc_k_ctx *k, int proposals, asc_k_lt dst, asc_k_lt s1,
                                     asc_k_lt s2, asc_k_lt s3, asc_k_lt s4, int64_t l1, int64_t l2,
                                     int64_t l3, int64_t l4, int64_t valid, int64_t repeat,
                                     int64_t susp, int64_t es, int line) {
  asc_k_lt src[4] = {s1, s2, s3, s4};
  int64_t len[4] = {l1, l2, l3, l4};
  asc_k_sort_fmt f = proposals ? (asc_k_sort_fmt){8 * es, 4 * es, es} : (asc_k_sort_fmt){8, 0, es};
  return asc_k_merge(k, &f, dst, src, len, valid, repeat, susp, es,
                     proposals ? "mrg_sort4" : "mrg_sort", line);
}
static inline int asc_k_mrg_sort(asc_k_ctx *k, asc_k_lt dst, asc_k_lt s1, asc_k_lt s2, asc_k_lt s3,
                                 asc_k_lt s4, int64_t l1, int64_t l2, int64_t l3, int64_t l4,
                                 int64_t valid, int64_t repeat, int64_t susp, int dt, int line) {
  int64_t es = asc_k_dt_size(dt);
  return asc_k_mrg_sort_any(k, 0, dst, s1, s2, s3, s4, l1, l2, l3, l4, valid, repeat, susp, es,
                            line);
}
static inline int asc_k_mrg_sort4(asc_k_ctx *k, asc_k_lt dst, asc_k_lt s1, asc_k_lt s2, asc_k_lt s3,
                                  asc_k_lt s4, int64_t l1, int64_t l2, int64_t l3, int64_t l4,
                                  int64_t valid, int64_t repeat, int64_t susp, int dt, int line) {
  int64_t es = asc_k_dt_size(dt);
  return asc_k_mrg_sort_any(k, 1, dst, s1, s2, s3, s4, l1, l2, l3, l4, valid, repeat, susp, es,
                            line);
}

/* get_mrg_sort_result: queue `which`'s element count of the last merge. */
static inline int asc_k_mrg_sort_result(asc_k_ctx *k, int64_t which, int dt, int64_t *out,
                                        int line) {
  (void)line, (void)dt;
  *out = k->sr.mrg[which & 3];
  return 0;
}

/* rp_sort16: 16 region proposals per repeat, sorted by score. */
static inline int asc_k_rp_sort16(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int64_t repeat, int dt,
                                  int line) {
  int64_t es = asc_k_dt_size(dt);
  if (asc_k_sort_repeat(k, repeat, 0, 255, "rp_sort16", line)) return 1;
  if (!repeat) return 0;
  int64_t n = repeat * 16 * 8;
  if (asc_k_ub_use(k, ASC_K_V, src, n, es, ASC_K_READ, "rp_sort16", "src", line) ||
      asc_k_ub_use(k, ASC_K_V, dst, n, es, ASC_K_WRITE, "rp_sort16", "dst", line))
    return 1;
  asc_k_sort_fmt f = {8 * es, 4 * es, es};
  char *buf = malloc((size_t)(2 * n * es));
  if (!buf) return asc_k_fail(k, line, "rp_sort16: out of host memory");
  memcpy(buf, k->ub + src.off, (size_t)(n * es));
  for (int64_t r = 0; r < repeat; r++)
    asc_k_sort_elems(&f, buf + r * 16 * f.size, buf + n * es, 16);
  memcpy(k->ub + dst.off, buf, (size_t)(n * es));
  free(buf);
  return 0;
}

/* proposal_concat (extract = 0) writes src[16r + i] into element `mode` of
 * proposal 16r + i of dst; proposal_extract (1) reads it back out. */
static inline int asc_k_proposal_move(asc_k_ctx *k, int extract, asc_k_lt dst, asc_k_lt src,
                                      int64_t repeat, int64_t mode, int64_t es, int line) {
  const char *api = extract ? "proposal_extract" : "proposal_concat";
  if (asc_k_sort_repeat(k, repeat, 0, 255, api, line)) return 1;
  if (mode < 0 || mode > 5)
    return asc_k_fail(k, line, "%s: mode_number %lld is outside [0, 5]", api, (long long)mode);
  if (!repeat) return 0;
  int64_t n = repeat * 16;
  asc_k_lt props = extract ? src : dst, flat = extract ? dst : src;
  if (asc_k_ub_use(k, ASC_K_V, src, extract ? n * 8 : n, es, ASC_K_READ, api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, dst, extract ? n : n * 8, es, ASC_K_WRITE, api, "dst", line))
    return 1;
  for (int64_t i = 0; i < n; i++)
    asc_k_move_elem(k->ub + props.off + (i * 8 + mode) * es, k->ub + flat.off + i * es, es,
                    !extract);
  return 0;
}
static inline int asc_k_proposal_concat(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int64_t repeat,
                                        int64_t mode, int dt, int line) {
  int64_t es = asc_k_dt_size(dt);
  return asc_k_proposal_move(k, 0, dst, src, repeat, mode, es, line);
}
static inline int asc_k_proposal_extract(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int64_t repeat,
                                         int64_t mode, int dt, int line) {
  int64_t es = asc_k_dt_size(dt);
  return asc_k_proposal_move(k, 1, dst, src, repeat, mode, es, line);
}

/* get_sort_len / get_sort_offset: elements of T spanned by n sort
 * elements (GetSortLen<T>, GetSortOffset<T>); T's size is the attribute. */
static inline int asc_k_sort_span(asc_k_ctx *k, const char *api, int64_t n, int64_t tsize,
                                  int64_t *out, int line) {
  if (n < 0 || n > UINT32_MAX)
    return asc_k_fail(k, line, "%s: %lld is not a uint32 value", api, (long long)n);
  *out = (int64_t)(uint32_t)(n * 8 / tsize);
  return 0;
}
static inline int asc_k_sort_len(asc_k_ctx *k, int64_t n, int64_t tsize, int dt, int64_t *out,
                                 int line) {
  (void)dt;
  return asc_k_sort_span(k, "get_sort_len", n, tsize, out, line);
}
static inline int asc_k_sort_offset(asc_k_ctx *k, int64_t n, int64_t tsize, int dt, int64_t *out,
                                    int line) {
  (void)dt;
  return asc_k_sort_span(k, "get_sort_offset", n, tsize, out, line);
}
