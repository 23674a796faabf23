/* Small element-wise programs (asc/program.h) against the eager operations
 * they stand for (asc_binary, asc_unary, asc_cast), byte for byte: run on
 * the calling thread, queued behind a held stream, with broadcast and
 * scalar inputs; inputs a program declines; malformed programs. */
#include <math.h>

#include "asc/program.h"
#include "asc_test.h"

/* A new float tensor of shape holding values[i % nvalues], in dtype. */
static asc_tensor filled(asc_dtype dtype, int ndim, const int64_t *shape, const double *values,
                         int nvalues) {
  asc_tensor f64, t = {0};
  assert_ok(asc_tensor_empty(0, ASC_FLOAT64, ndim, shape, &f64));
  double *p = asc_tensor_data(&f64);
  for (int64_t i = 0; i < asc_tensor_numel(&f64); i++) p[i] = values[i % nvalues];
  assert_ok(asc_cast(&f64, dtype, &t));
  asc_tensor_release(&f64);
  return t;
}

static void assert_same(const asc_tensor *a, const asc_tensor *b) {
  assert_ok(asc_stream_synchronize(ASC_STREAM_CURRENT));
  assert_int_equal(a->dtype, b->dtype);
  assert_int_equal(a->ndim, b->ndim);
  assert_memory_equal(a->shape, b->shape, (size_t)a->ndim * sizeof *a->shape);
  assert_true(asc_tensor_is_contiguous(a) && asc_tensor_is_contiguous(b));
  size_t bytes = (size_t)asc_tensor_numel(a) * asc_dtype_size(a->dtype);
  assert_memory_equal(asc_tensor_data(a), asc_tensor_data(b), bytes);
}

static const double special[] = {NAN, INFINITY, -INFINITY, 0.0,   -0.0,  1e30, -3.5, 0.25,
                                 2.0, -1.0,     7.0,       1e-30, 65504, -0.5, 3.0,  1.5};

/* exp(x * y) - cast(x, float64) / 3 (a float16 x, a float32 y): the casts
 * promotion asks for, a weak-looking constant of dtype float16 and a unary
 * maths loop, against the eager operations. */
static void check_chain(const asc_tensor *x, const asc_tensor *y, const asc_tensor *three,
                        bool queued) {
  asc_prog *p;
  int64_t shape[2] = {4, 4};
  int rx, ry, rc, m, e, c, d, r;
  assert_ok(asc_prog_new(2, shape, &p));
  assert_ok(asc_prog_input(p, x->dtype, x->ndim, x->shape, &rx));
  assert_ok(asc_prog_input(p, y->dtype, y->ndim, y->shape, &ry));
  assert_ok(asc_prog_const(p, three, &rc));
  assert_ok(asc_prog_binary(p, ASC_OP_MUL, rx, ry, &m));
  assert_ok(asc_prog_unary(p, ASC_UNARY_EXP, m, &e));
  assert_ok(asc_prog_cast(p, rx, ASC_FLOAT64, &c));
  assert_ok(asc_prog_binary(p, ASC_OP_DIV, c, rc, &d));
  assert_ok(asc_prog_binary(p, ASC_OP_SUB, e, d, &r));
  assert_ok(asc_prog_output(p, m));
  assert_ok(asc_prog_output(p, r));
  assert_int_equal(asc_prog_outputs(p), 2);
  assert_int_equal(asc_prog_instructions(p), 8); /* + casts of x (twice), three and e */
  asc_test_gate *g = asc_test_gate_get(0);
  if (queued) assert_ok(asc_test_gate_enqueue(ASC_STREAM_CURRENT, g));
  const asc_tensor *ins[2] = {x, y};
  asc_tensor outs[2];
  bool declined;
  assert_ok(asc_prog_run(p, ins, 2, outs, &declined));
  assert_false(declined);
  asc_prog_release(p); /* a queued run holds its own reference */
  if (queued) asc_test_gate_open(g);
  asc_tensor wm = {0}, we = {0}, wc = {0}, wd = {0}, wr = {0};
  assert_ok(asc_binary(ASC_OP_MUL, x, y, &wm));
  assert_ok(asc_unary(ASC_UNARY_EXP, &wm, &we));
  assert_ok(asc_cast(x, ASC_FLOAT64, &wc));
  assert_ok(asc_binary(ASC_OP_DIV, &wc, three, &wd));
  assert_ok(asc_binary(ASC_OP_SUB, &we, &wd, &wr));
  assert_same(&outs[0], &wm);
  assert_same(&outs[1], &wr);
  asc_tensor *all[] = {&wm, &we, &wc, &wd, &wr, &outs[0], &outs[1]};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) asc_tensor_release(all[k]);
}

static void test_chain_equals_eager_inline_and_queued(void **state) {
  (void)state;
  int64_t shape[2] = {4, 4}, row = 4;
  asc_tensor x = filled(ASC_FLOAT16, 2, shape, special, 16);
  double ys[] = {0.5, -2.0, 3.25, 1e-3};
  asc_tensor y = filled(ASC_FLOAT32, 1, &row, ys, 4); /* a row: expanded first */
  uint16_t three_h = 0x4200;                          /* 3.0 in float16 */
  asc_tensor three;
  assert_ok(asc_tensor_scalar(0, ASC_FLOAT16, &three_h, &three));
  check_chain(&x, &y, &three, false);
  check_chain(&x, &y, &three, true);
  asc_tensor_release(&three);
  asc_tensor_release(&y);
  asc_tensor_release(&x);
}

/* int32 and bool results, a 0-d input read as a scalar, an integer loop
 * that fails (a negative power): the run fails as the eager one does. */
static void test_integers_scalars_and_failures(void **state) {
  (void)state;
  int64_t n = 8;
  double xs[] = {-3, 5, 7, 0, 2, -1, 9, 4};
  asc_tensor x = filled(ASC_INT32, 1, &n, xs, 8), k, bad;
  int32_t two = 2, minus = -1;
  assert_ok(asc_tensor_scalar(0, ASC_INT32, &two, &k));
  assert_ok(asc_tensor_scalar(0, ASC_INT32, &minus, &bad));
  asc_prog *p;
  int rx, rk, pw, lt;
  assert_ok(asc_prog_new(1, &n, &p));
  assert_ok(asc_prog_input(p, ASC_INT32, 1, &n, &rx));
  assert_ok(asc_prog_input(p, ASC_INT32, 0, NULL, &rk));
  assert_ok(asc_prog_binary(p, ASC_OP_POW, rx, rk, &pw));
  assert_ok(asc_prog_binary(p, ASC_OP_LT, pw, rx, &lt));
  assert_ok(asc_prog_output(p, pw));
  assert_ok(asc_prog_output(p, lt));
  const asc_tensor *ins[2] = {&x, &k};
  asc_tensor outs[2], wp = {0}, wl = {0};
  bool declined;
  assert_ok(asc_prog_run(p, ins, 2, outs, &declined));
  assert_false(declined);
  assert_ok(asc_binary(ASC_OP_POW, &x, &k, &wp));
  assert_ok(asc_binary(ASC_OP_LT, &wp, &x, &wl));
  assert_same(&outs[0], &wp);
  assert_same(&outs[1], &wl);
  for (int j = 0; j < 2; j++) asc_tensor_release(&outs[j]);
  ins[1] = &bad;
  asc_status st = asc_prog_run(p, ins, 2, outs, &declined);
  if (st == ASC_OK) { /* reported by the stream, as eager failures are */
    for (int j = 0; j < 2; j++) asc_tensor_release(&outs[j]);
    st = asc_stream_synchronize(ASC_STREAM_CURRENT);
  }
  assert_int_not_equal(st, ASC_OK);
  assert_contains(asc_last_error(), "negative integer powers");
  asc_clear_error();
  asc_prog_release(p);
  asc_tensor *all[] = {&x, &k, &bad, &wp, &wl};
  for (size_t j = 0; j < sizeof all / sizeof *all; j++) asc_tensor_release(all[j]);
}

/* Another dtype, another shape, a strided view: declined, nothing made. */
static void test_declines_inputs_that_do_not_fit(void **state) {
  (void)state;
  int64_t n = 8, half = 4;
  asc_tensor x = filled(ASC_FLOAT32, 1, &n, special, 16), strided = {0}, other = {0};
  assert_ok(asc_tensor_slice(&x, 0, 0, 2, 4, &strided));
  assert_ok(asc_cast(&x, ASC_FLOAT64, &other));
  asc_prog *p;
  int rx, ry;
  assert_ok(asc_prog_new(1, &half, &p));
  assert_ok(asc_prog_input(p, ASC_FLOAT32, 1, &half, &rx));
  assert_ok(asc_prog_unary(p, ASC_UNARY_SIN, rx, &ry));
  assert_ok(asc_prog_output(p, ry));
  asc_tensor outs[1];
  bool declined;
  const asc_tensor *ins[1] = {&strided};
  assert_ok(asc_prog_run(p, ins, 1, outs, &declined));
  assert_true(declined);
  ins[0] = &x;
  assert_ok(asc_prog_run(p, ins, 1, outs, &declined));
  assert_true(declined);
  ins[0] = &other;
  assert_ok(asc_prog_run(p, ins, 1, outs, &declined));
  assert_true(declined);
  assert_ok(asc_prog_run(p, ins, 0, outs, &declined));
  assert_true(declined);
  asc_prog_release(p);
  asc_tensor_release(&other);
  asc_tensor_release(&strided);
  asc_tensor_release(&x);
}

static void test_malformed_programs_are_refused(void **state) {
  (void)state;
  int64_t n = 4, five = 5;
  asc_prog *p;
  int r, s;
  assert_ok(asc_prog_new(1, &n, &p));
  assert_error(asc_prog_input(p, ASC_FLOAT32, 1, &five, &r), ASC_ERR_INVALID_VALUE, "broadcast");
  assert_ok(asc_prog_input(p, ASC_FLOAT32, 1, &n, &r));
  assert_error(asc_prog_binary(p, ASC_OP_ADD, r, 7, &s), ASC_ERR_INVALID_VALUE, "register");
  assert_error(asc_prog_binary(p, ASC_OP_BITWISE_AND, r, r, &s), ASC_ERR_TYPE, "bitwise_and");
  assert_error(asc_prog_output(p, r), ASC_ERR_INVALID_VALUE, "output");
  assert_ok(asc_prog_unary(p, ASC_UNARY_NEGATIVE, r, &s));
  assert_ok(asc_prog_output(p, s));
  assert_error(asc_prog_output(p, s), ASC_ERR_INVALID_VALUE, "output");
  asc_tensor vec;
  assert_ok(asc_tensor_empty(0, ASC_FLOAT32, 1, &n, &vec));
  assert_error(asc_prog_const(p, &vec, &s), ASC_ERR_INVALID_VALUE, "one element");
  asc_tensor_release(&vec);
  asc_prog_release(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ASC_TEST(test_chain_equals_eager_inline_and_queued),
      ASC_TEST(test_integers_scalars_and_failures),
      ASC_TEST(test_declines_inputs_that_do_not_fit),
      ASC_TEST(test_malformed_programs_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
