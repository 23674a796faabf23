/* The cube's SIMD mmad paths (AVX2, AVX-512: rt/cube_insn.h,
 * rt/cube_mmad512.h) against its portable one, byte for byte: the same
 * L0A, L0B, bias and old L0C give the same L0C. Inputs are random values
 * over wide exponent ranges (products that round, underflow to
 * subnormals, overflow to infinity in bf16 and fp32) with odd shapes,
 * K past the AVX-512 path's K chunk, all three starts (init, bias,
 * accumulate) and all four input types. The fast paths are compared on
 * the CPUs that have them; portable against portable would prove
 * nothing, so the AVX2 case needs AVX2 and the AVX-512 case AVX-512. */
static const char *const asc_k_files[] = {"test_cube_simd.py"};
#define ASC_K_CUBE 1 /* the cube unit of the runtime */
#include "../../src/compiler/asc_kernel_rt.h"
#include "../../src/compiler/rt/cube.h"
#include "asc_test.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next32(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}

/* A random finite value of type t as its bytes at p: fp16 any finite bit
 * pattern; bf16 and fp32 a random significand scaled by 2^[-140, 60). */
static void random_elem(char *p, asc_kc_type t) {
  uint32_t u = next32();
  if (t == ASC_KC_F16) {
    uint16_t h = (uint16_t)u;
    if (((h >> 10) & 0x1f) == 0x1f) h &= 0xbfff; /* no inf/NaN */
    memcpy(p, &h, 2);
  } else if (t == ASC_KC_S8) {
    *p = (char)u;
  } else {
    float f = ldexpf((float)(int32_t)(u | 1u) / 2147483648.0f, (int)(next32() % 200) - 140);
    if (t == ASC_KC_F32) {
      memcpy(p, &f, 4);
    } else {
      uint16_t h = asc_k_f2bf(f);
      memcpy(p, &h, 2);
    }
  }
}

static void fill(char *p, int64_t bytes, asc_kc_type t) {
  const int es = asc_kc_esize(t);
  for (int64_t i = 0; i + es <= bytes; i += es) random_elem(p + i, t);
}

/* L0C after one mmad on `core` (portable or not) from the given inputs. */
static void run_mmad(asc_kc_core *core, const char *a, const char *b, const char *c_old,
                     const char *bias, asc_kc_type t, const asc_kc_mmad *p, char *out) {
  asc_kc_err e = {{0}};
  asc_kc_span sa, sb, sc, sbias = {(char *)bias, ASC_KC_L0B_SIZE};
  assert_int_equal(asc_kc_span_at(core, ASC_KC_L0A, 0, &sa, &e), 0);
  assert_int_equal(asc_kc_span_at(core, ASC_KC_L0B, 0, &sb, &e), 0);
  assert_int_equal(asc_kc_span_at(core, ASC_KC_L0C, 0, &sc, &e), 0);
  memcpy(sa.p, a, ASC_KC_L0A_SIZE);
  memcpy(sb.p, b, ASC_KC_L0B_SIZE);
  memcpy(sc.p, c_old, ASC_KC_L0C_SIZE);
  if (asc_kc_mmad_run(core, sc, sa, sb, sbias, t, p, &e)) fail_msg("mmad: %s", e.msg);
  memcpy(out, sc.p, ASC_KC_L0C_SIZE);
}

/* Compares the portable mmad with SIMD level `level` over the shapes. */
static void compare_level(int level) {
  static const int64_t shapes[][3] = {{1, 1, 1},    {17, 33, 15},  {5, 100, 31},
                                      {31, 7, 129}, {48, 20, 300}, {16, 16, 256},
                                      {33, 47, 77}, {64, 64, 0},   {94, 40, 70}};
  static const asc_kc_type types[] = {ASC_KC_F16, ASC_KC_BF16, ASC_KC_S8, ASC_KC_F32};
  asc_kc_core slow, fast;
  asc_kc_err e = {{0}};
  assert_int_equal(asc_kc_core_init(&slow, &e), 0);
  assert_int_equal(asc_kc_core_init(&fast, &e), 0);
  slow.portable = 1;
  fast.portable = 0;
  fast.simd = level;
  char *a = malloc(ASC_KC_L0A_SIZE), *b = malloc(ASC_KC_L0B_SIZE), *c = malloc(ASC_KC_L0C_SIZE),
       *bias = malloc(ASC_KC_L0B_SIZE), *o1 = malloc(ASC_KC_L0C_SIZE),
       *o2 = malloc(ASC_KC_L0C_SIZE);
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
      for (int start = 0; start < 3; start++) {
        const asc_kc_type t = types[ti], ct = t == ASC_KC_S8 ? ASC_KC_S32 : ASC_KC_F32;
        fill(a, ASC_KC_L0A_SIZE, t);
        fill(b, ASC_KC_L0B_SIZE, t);
        fill(c, ASC_KC_L0C_SIZE, ct == ASC_KC_S32 ? ASC_KC_S8 : ASC_KC_F32);
        fill(bias, ASC_KC_L0B_SIZE, ct == ASC_KC_S32 ? ASC_KC_S8 : ASC_KC_F32);
        asc_kc_mmad p = {shapes[s][0], shapes[s][1], shapes[s][2], start == 0, start == 1};
        run_mmad(&slow, a, b, c, bias, t, &p, o1);
        run_mmad(&fast, a, b, c, bias, t, &p, o2);
        for (int64_t i = 0; i < ASC_KC_L0C_SIZE; i++)
          if (o1[i] != o2[i])
            fail_msg("level %d, type %d, m=%lld n=%lld k=%lld start %d: L0C byte %lld differs",
                     level, (int)t, (long long)p.m, (long long)p.n, (long long)p.k, start,
                     (long long)i);
      }
  free(a);
  free(b);
  free(c);
  free(bias);
  free(o1);
  free(o2);
  asc_kc_core_free(&slow);
  asc_kc_core_free(&fast);
}

static void test_avx2_matches_portable(void **state) {
  (void)state;
  if (asc_kc_simd_level() < 1) fail_msg("this CPU has no AVX2 mmad path to compare");
  compare_level(1);
}

static void test_avx512_matches_portable(void **state) {
  (void)state;
  if (asc_kc_simd_level() < 2) {
    print_message("no AVX-512 on this CPU: its mmad path cannot run here\n");
    return;
  }
  compare_level(2);
}

/* fixpipe fp32 -> ND fp16/bf16/fp32 (with and without relu) against the
 * element conversions it is defined by, on the SIMD and portable paths:
 * L0C holds a sweep of bit patterns over the whole fp32 range (NaNs,
 * infinities, subnormals, halfway cases of fp16 included) and an odd
 * m x n with a padded destination row. */
static void test_fixpipe_matches_conversions(void **state) {
  (void)state;
  enum { M = 37, N = 45, M16 = 48, LD = 50 };
  static float l0c[(N + 15) / 16 * M16 * 16];
  static uint32_t out[M * LD];
  const asc_kc_type types[] = {ASC_KC_F16, ASC_KC_BF16, ASC_KC_F32};
  const asc_kc_quant modes[] = {ASC_KC_F322F16, ASC_KC_F322BF16, ASC_KC_NO_QUANT};
  for (int round = 0; round < 40; round++) {
    for (size_t i = 0; i < sizeof l0c / sizeof l0c[0]; i++) {
      uint32_t u = round < 20 ? (uint32_t)(i * 2654435761u + (uint32_t)round * 97u) : next32();
      if (round % 4 == 1) u = (u & 0x80001fffu) | 0x33000000u | (u & 0x0f000000u); /* near fp16 */
      memcpy(&l0c[i], &u, 4);
    }
    for (int simd = 0; simd < 2; simd++)
      for (int ti = 0; ti < 3; ti++)
        for (int relu = 0; relu < 2; relu++) {
          if (simd)
            unsetenv("PYASC_CPU_SIMD");
          else
            setenv("PYASC_CPU_SIMD", "0", 1);
          asc_kc_err e = {{0}};
          asc_kc_fixpipe p = {N, M, M16, LD, modes[ti], 1.0f, relu, 0, 0};
          asc_kc_span d = {(char *)out, sizeof out}, s = {(char *)l0c, sizeof l0c},
                      none = {NULL, 0};
          memset(out, 0xAB, sizeof out);
          assert_int_equal(asc_kc_fixpipe_run(d, s, none, types[ti], ASC_KC_F32, &p, &e), 0);
          const int es = asc_kc_esize(types[ti]);
          for (int m = 0; m < M; m++)
            for (int n = 0; n < LD; n++) {
              const char *got = (const char *)out + (m * LD + n) * es;
              uint32_t want = 0xABABABABu; /* past n_size: untouched */
              if (n < N) {
                float f = l0c[((n / 16) * M16 + m) * 16 + n % 16];
                if (relu) f = f < 0 ? 0.0f : f;
                if (types[ti] == ASC_KC_F16)
                  want = asc_k_f2h(f);
                else if (types[ti] == ASC_KC_BF16)
                  want = asc_k_f2bf(f);
                else
                  memcpy(&want, &f, 4);
              }
              if (memcmp(got, &want, (size_t)es))
                fail_msg("fixpipe simd %d type %d relu %d: (%d, %d) differs", simd, (int)types[ti],
                         relu, m, n);
            }
        }
  }
  unsetenv("PYASC_CPU_SIMD");
}

/* PYASC_CPU_SIMD=0 makes every new core portable; avx2 caps it at AVX2. */
static void test_env_caps_level(void **state) {
  (void)state;
  asc_kc_core c;
  asc_kc_err e = {{0}};
  setenv("PYASC_CPU_SIMD", "0", 1);
  assert_int_equal(asc_kc_core_init(&c, &e), 0);
  assert_int_equal(c.portable, 1);
  assert_int_equal(c.simd, 0);
  asc_kc_core_free(&c);
  setenv("PYASC_CPU_SIMD", "avx2", 1);
  assert_int_equal(asc_kc_core_init(&c, &e), 0);
  assert_true(c.simd <= 1);
  asc_kc_core_free(&c);
  unsetenv("PYASC_CPU_SIMD");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_avx2_matches_portable),
      cmocka_unit_test(test_avx512_matches_portable),
      cmocka_unit_test(test_env_caps_level),
      cmocka_unit_test(test_fixpipe_matches_conversions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
