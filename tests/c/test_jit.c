/* Launching built kernels (asc_jit_build, asc_jit_launch): an argument is
 * what the kernel declares it to be, whatever else the caller's memory
 * held, so the runtime's pointer resolution (rt/tensor_desc.h
 * asc_k_resolve) never takes a number for memory the launch was given. */
#include <ftw.h>
#include <stdlib.h>
#include <unistd.h>

#include "asc/jit.h"
#include "asc_test.h"

extern const char asc_kernel_rt_source[]; /* libasc's kernel runtime, as kernels include it */

/* Writes into args[0] (int64 words) what resolving args[1]'s value, 0,
 * and a byte of args[0] gives, and the lengths the kernel saw. */
static const char probe_entry[] =
    "const char asc_kernel_params[] = \"aii\";\n"
    "int asc_kernel_entry(asc_k_ctx *k, const asc_k_arg *args) {\n"
    "  int64_t *out = (int64_t *)(void *)args[0].v.p;\n"
    "  int freed;\n"
    "  asc_k_addr r = asc_k_resolve(k, (uint64_t)args[1].v.i, &freed);\n"
    "  out[0] = r.base != NULL || freed;\n"
    "  out[1] = args[1].n;\n"
    "  out[2] = args[2].n;\n"
    "  out[3] = asc_k_resolve(k, 0, &freed).base != NULL || freed;\n"
    "  r = asc_k_resolve(k, (uint64_t)(uintptr_t)args[0].v.p + 8, &freed);\n"
    "  out[4] = r.base == args[0].v.p && r.lead == 8 && r.n == args[0].n;\n"
    "  return 0;\n"
    "}\n";

static char g_cache[64];

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}

static int cache_setup(void **state) {
  snprintf(g_cache, sizeof g_cache, "/tmp/asc-test-jit-XXXXXX");
  if (!mkdtemp(g_cache)) return -1;
  return asc_test_setup(state);
}

static int cache_teardown(void **state) {
  int rc = asc_test_teardown(state);
  nftw(g_cache, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  return rc;
}

static asc_jit_kernel *build(const char *entry, const char *name) {
  size_t n = strlen(asc_kernel_rt_source) + strlen(entry) + 128;
  char *source = malloc(n);
  assert_non_null(source);
  snprintf(source, n, "static const char *const asc_k_files[] = {\"test_jit.c\"};\n%s\n%s",
           asc_kernel_rt_source, entry);
  asc_jit_options options = {g_cache, NULL, false, NULL, false};
  asc_jit_kernel *k = NULL;
  bool hit;
  assert_ok(asc_jit_build(source, name, &options, &k, &hit));
  free(source);
  return k;
}

static void test_a_scalar_argument_is_never_memory(void **state) {
  (void)state;
  asc_jit_kernel *k = build(probe_entry, "probe");
  assert_string_equal(asc_jit_params(k), "aii");
  static int64_t victim[16]; /* host memory the launch was not given */
  int64_t out[8] = {0};
  asc_stream_t stream;
  assert_ok(asc_stream_create(0, &stream));
  asc_jit_arg args[3];
  memset(args, 0x5a, sizeof args); /* what a caller's stack may hold */
  args[0].v.p = out;
  args[0].n = sizeof out;
  args[1].v.i = (int64_t)(uintptr_t)victim; /* an int equal to an address ... */
  args[1].n = sizeof victim;                /* ... with a stale length beside it */
  args[2].v.i = 0;
  args[2].n = (int64_t)1 << 40;
  assert_ok(asc_jit_launch(k, stream, 1, args, 3, NULL, 0));
  assert_ok(asc_stream_synchronize(stream));
  assert_int_equal(out[0], 0); /* not resolved */
  assert_int_equal(out[1], 0); /* the kernel sees no length for scalars */
  assert_int_equal(out[2], 0);
  assert_int_equal(out[3], 0); /* 0 is never memory */
  assert_int_equal(out[4], 1); /* an address argument still is */
  assert_ok(asc_stream_destroy(stream));
  asc_jit_release(k);
}

static void test_arguments_must_match_the_declared_parameters(void **state) {
  (void)state;
  asc_jit_kernel *k = build(probe_entry, "probe");
  int64_t out[8];
  asc_stream_t stream;
  assert_ok(asc_stream_create(0, &stream));
  asc_jit_arg args[3] = {{.v.p = out, .n = sizeof out}, {.v.i = 1}, {.v.i = 2}};
  assert_error(asc_jit_launch(k, stream, 1, args, 2, NULL, 0), ASC_ERR_INVALID_VALUE,
               "takes 3 arguments, got 2");
  args[0].n = -8;
  assert_error(asc_jit_launch(k, stream, 1, args, 3, NULL, 0), ASC_ERR_INVALID_VALUE,
               "argument 0 of kernel probe is an address of -8 bytes");
  args[0].v.p = NULL;
  args[0].n = 8;
  assert_error(asc_jit_launch(k, stream, 1, args, 3, NULL, 0), ASC_ERR_INVALID_VALUE,
               "an address of 8 bytes");
  asc_jit_release(k);
  /* A library that does not say what its parameters are takes none. */
  k = build(
      "int asc_kernel_entry(asc_k_ctx *k, const asc_k_arg *a) { (void)k, (void)a; "
      "return 0; }\n",
      "undeclared");
  assert_null(asc_jit_params(k));
  assert_error(asc_jit_launch(k, stream, 1, args, 1, NULL, 0), ASC_ERR_INVALID_VALUE,
               "does not declare its parameters");
  assert_ok(asc_jit_launch(k, stream, 1, NULL, 0, NULL, 0));
  assert_ok(asc_stream_synchronize(stream));
  assert_ok(asc_stream_destroy(stream));
  asc_jit_release(k);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_a_scalar_argument_is_never_memory, cache_setup,
                                      cache_teardown),
      cmocka_unit_test_setup_teardown(test_arguments_must_match_the_declared_parameters,
                                      cache_setup, cache_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
