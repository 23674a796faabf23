/* fp16 matmul M x N x K on the simulated cube (src/compiler/rt/cube.h), as
 * a hand-written basic-API kernel does it: per output tile of 128 x 256,
 * A and B panels ND -> NZ into L1, then per K step of 64 load_data into
 * L0A/L0B (B transposed per fractal), mmad accumulating in L0C, and one
 * fixpipe fp32 -> fp16 to global memory. Tiles are spread over `threads`
 * simulated AI cores (one host thread each).
 *
 * Usage: asc_bench_cube [M N K [threads]]; prints GFLOP/s (2*M*N*K/time)
 * and the largest error against a float32 reference on a few rows. */
static const char *const asc_k_files[] = {"bench_cube"};
#define ASC_K_CUBE 1 /* the cube unit of the runtime */
#include "../src/compiler/asc_kernel_rt.h"
#include "../src/compiler/rt/cube.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

enum { BM = 128, BN = 256, BK = 64 };

typedef struct job {
  int64_t m, n, k;
  const uint16_t *a, *b;
  uint16_t *c;
  atomic_long next; /* next tile to claim */
  atomic_int failed;
  char msg[256];
} job;

static int64_t min64(int64_t x, int64_t y) {
  return x < y ? x : y;
}

static int run_tile(asc_kc_core *core, job *j, int64_t ti, int64_t tj, asc_kc_err *e) {
  const int64_t m0 = ti * BM, n0 = tj * BN, tm = min64(BM, j->m - m0), tn = min64(BN, j->n - n0);
  const int64_t m1 = asc_kc_ceil16(tm), n1 = asc_kc_ceil16(tn);
  const int64_t kpad = (j->k + 15) / 16 * 16;
  asc_kc_span l1a, l1b, l0a, l0b, l0c;
  if (asc_kc_span_at(core, ASC_KC_L1, 0, &l1a, e) ||
      asc_kc_span_at(core, ASC_KC_L1, 256 * 1024, &l1b, e) ||
      asc_kc_span_at(core, ASC_KC_L0A, 0, &l0a, e) ||
      asc_kc_span_at(core, ASC_KC_L0B, 0, &l0b, e) || asc_kc_span_at(core, ASC_KC_L0C, 0, &l0c, e))
    return -1;
  for (int64_t k0 = 0; k0 < j->k; k0 += 512) {
    /* L1 holds a 128 x 512 A panel and a 512 x 256 B panel (256 KiB each) */
    const int64_t tk = min64(512, j->k - k0), k1p = (tk + 15) / 16;
    asc_kc_span ga = {(char *)(j->a + m0 * j->k + k0), (j->m - m0) * j->k * 2 - k0 * 2};
    asc_kc_span gb = {(char *)(j->b + k0 * j->n + n0), (j->k - k0) * j->n * 2 - n0 * 2};
    asc_kc_nd2nz pa = {1, tm, tk, 0, j->k, m1 * 16, 1, 0};
    asc_kc_nd2nz pb = {1, tk, tn, 0, j->n, k1p * 16, 1, 0};
    if (asc_kc_nd2nz_copy(l1a, ga, ASC_KC_F16, &pa, e) ||
        asc_kc_nd2nz_copy(l1b, gb, ASC_KC_F16, &pb, e))
      return -1;
    for (int64_t kk = 0; kk < tk; kk += BK) {
      const int64_t sk = min64(BK, tk - kk), sk1 = (sk + 15) / 16, kb0 = kk / 16;
      for (int64_t i = 0; i < m1; i++) {
        asc_kc_load2d p = {kb0 * m1 + i, sk1, m1, 0, 0};
        asc_kc_span d = {l0a.p + i * sk1 * 512, l0a.n - i * sk1 * 512};
        if (asc_kc_load_data_2d(d, l1a, ASC_KC_F16, &p, e)) return -1;
      }
      for (int64_t q = 0; q < sk1; q++) {
        asc_kc_load2d p = {kb0 + q, n1, k1p, 0, 1};
        asc_kc_span d = {l0b.p + q * n1 * 512, l0b.n - q * n1 * 512};
        if (asc_kc_load_data_2d(d, l1b, ASC_KC_F16, &p, e)) return -1;
      }
      asc_kc_mmad mp = {tm, tn, sk, k0 == 0 && kk == 0, 0};
      asc_kc_span none = {NULL, 0};
      if (asc_kc_mmad_run(core, l0c, l0a, l0b, none, ASC_KC_F16, &mp, e)) return -1;
    }
  }
  (void)kpad;
  asc_kc_fixpipe fp = {tn, tm, m1 * 16, j->n, ASC_KC_F322F16, 1.0f, 0, 0, 0};
  asc_kc_span gc = {(char *)(j->c + m0 * j->n + n0), (j->m - m0) * j->n * 2 - n0 * 2},
              none = {NULL, 0};
  return asc_kc_fixpipe_run(gc, l0c, none, ASC_KC_F16, ASC_KC_F32, &fp, e);
}

static void *worker(void *arg) {
  job *j = arg;
  asc_kc_core core;
  asc_kc_err e = {{0}};
  if (asc_kc_core_init(&core, &e)) {
    atomic_store(&j->failed, 1);
    return NULL;
  }
  const int64_t tiles_n = (j->n + BN - 1) / BN, tiles = (j->m + BM - 1) / BM * tiles_n;
  for (;;) {
    int64_t t = atomic_fetch_add(&j->next, 1);
    if (t >= tiles || atomic_load(&j->failed)) break;
    if (run_tile(&core, j, t / tiles_n, t % tiles_n, &e)) {
      if (!atomic_exchange(&j->failed, 1)) snprintf(j->msg, sizeof j->msg, "%s", e.msg);
      break;
    }
  }
  asc_kc_core_free(&core);
  return NULL;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  int64_t m = 1024, n = 1024, k = 1024;
  int threads = 1;
  if (argc >= 4) {
    m = atoll(argv[1]);
    n = atoll(argv[2]);
    k = atoll(argv[3]);
  }
  if (argc >= 5) threads = atoi(argv[4]);
  if (m <= 0 || n <= 0 || k <= 0 || m > 16384 || n > 16384 || k > 16384 || threads <= 0 ||
      threads > 256) {
    fprintf(stderr, "usage: asc_bench_cube [M N K [threads]] (1..16384, threads 1..256)\n");
    return 2;
  }
  uint16_t *a = malloc((size_t)(m * k) * 2), *b = malloc((size_t)(k * n) * 2),
           *c = malloc((size_t)(m * n) * 2);
  if (!a || !b || !c) return 1;
  for (int64_t i = 0; i < m * k; i++) a[i] = asc_k_f2h((float)((i * 7 % 17) - 8) / 16);
  for (int64_t i = 0; i < k * n; i++) b[i] = asc_k_f2h((float)((i * 5 % 13) - 6) / 16);
  double best = 1e30;
  for (int rep = 0; rep < 3; rep++) {
    job j = {m, n, k, a, b, c, 0, 0, ""};
    pthread_t th[256];
    double t0 = now();
    for (int t = 0; t < threads; t++) pthread_create(&th[t], NULL, worker, &j);
    for (int t = 0; t < threads; t++) pthread_join(th[t], NULL);
    double dt = now() - t0;
    if (atomic_load(&j.failed)) {
      fprintf(stderr, "cube matmul failed: %s\n", j.msg);
      return 1;
    }
    if (dt < best) best = dt;
  }
  /* check a few rows against a float32 reference rounded to fp16 */
  double maxerr = 0;
  for (int64_t i = 0; i < m; i += m / 4 + 1)
    for (int64_t jn = 0; jn < n; jn++) {
      float ref = 0;
      for (int64_t q = 0; q < k; q++) ref += asc_k_h2f(a[i * k + q]) * asc_k_h2f(b[q * n + jn]);
      double err = fabs((double)asc_k_h2f(c[i * n + jn]) - (double)asc_k_h2f(asc_k_f2h(ref)));
      if (err > maxerr) maxerr = err;
    }
  printf("cube fp16 matmul %lldx%lldx%lld threads=%d: %.3f ms, %.2f GFLOP/s, max error %.3g\n",
         (long long)m, (long long)n, (long long)k, threads, best * 1e3,
         2.0 * (double)m * (double)n * (double)k / best / 1e9, maxerr);
  free(a);
  free(b);
  free(c);
  return 0;
}
