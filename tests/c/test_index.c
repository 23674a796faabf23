/* Advanced indexing in libasc (asc/ops_index.h): gathers, scatters and
 * nonzero on strided tensors against results computed here element by
 * element, and the checks on malformed keys. */
#include "asc/ops_index.h"
#include "asc_test.h"

/* A new int32 tensor of shape (rows, cols) holding base + i. */
static asc_tensor iota(int64_t rows, int64_t cols, int32_t base) {
  asc_tensor t;
  int64_t shape[2] = {rows, cols};
  assert_ok(asc_tensor_empty(0, ASC_INT32, 2, shape, &t));
  int32_t *p = asc_tensor_data(&t);
  for (int64_t i = 0; i < rows * cols; i++) p[i] = base + (int32_t)i;
  return t;
}

/* A new 1-d int64 tensor holding values. */
static asc_tensor index_of(int n, const int64_t *values) {
  asc_tensor t;
  int64_t shape[1] = {n};
  assert_ok(asc_tensor_empty(0, ASC_INT64, 1, shape, &t));
  memcpy(asc_tensor_data(&t), values, (size_t)n * sizeof *values);
  return t;
}

static int32_t at(const asc_tensor *t, int64_t i, int64_t j) {
  const int32_t *base = asc_tensor_data(t);
  return base[i * t->strides[0] + j * t->strides[1]];
}

/* x.T[:, [2, -1, 0]] on a 3x4 x: rows of the transpose picked by columns. */
static void test_gather_on_a_transposed_view(void **state) {
  (void)state;
  asc_tensor x = iota(3, 4, 10), xt, out;
  assert_ok(asc_tensor_permute(&x, NULL, &xt)); /* (4, 3), strides (1, 4) */
  int64_t cols[] = {2, -1, 0};
  asc_tensor idx = index_of(3, cols);
  asc_adv_index key[] = {{.index = &idx, .axis = 1, .label = 1}};
  assert_ok(asc_index_gather(&xt, 1, key, true, &out));
  assert_ok(asc_stream_synchronize(ASC_STREAM_CURRENT));
  assert_int_equal(out.ndim, 2);
  assert_int_equal(out.shape[0], 4);
  assert_int_equal(out.shape[1], 3);
  for (int64_t i = 0; i < 4; i++)
    for (int64_t j = 0; j < 3; j++) {
      int64_t c = cols[j] < 0 ? cols[j] + 3 : cols[j];
      assert_int_equal(at(&out, i, j), at(&xt, i, c));
    }
  asc_tensor_release(&out);
  asc_tensor_release(&idx);
  asc_tensor_release(&xt);
  asc_tensor_release(&x);
}

/* x[[0, 2], [3, 1]] with and without in_place (one shape either way:
 * B is all of the result), and the axes of a separated key going first. */
static void test_gather_points_and_layouts(void **state) {
  (void)state;
  asc_tensor x = iota(3, 4, 0), out;
  int64_t r[] = {0, 2}, c[] = {3, 1};
  asc_tensor ri = index_of(2, r), ci = index_of(2, c);
  asc_adv_index key[] = {{.index = &ri, .axis = 0, .label = 0},
                         {.index = &ci, .axis = 1, .label = 1}};
  assert_ok(asc_index_gather(&x, 2, key, true, &out));
  assert_ok(asc_stream_synchronize(ASC_STREAM_CURRENT));
  const int32_t *p = asc_tensor_data(&out);
  assert_int_equal(out.ndim, 1);
  assert_int_equal(p[0], 3);
  assert_int_equal(p[1], 9);
  asc_tensor_release(&out);
  /* rows only, not in place: B first, the columns after */
  int ndim;
  int64_t shape[ASC_MAX_DIMS];
  asc_adv_index cols_only[] = {{.index = &ci, .axis = 1, .label = 1}};
  assert_ok(asc_index_shape(&x, 1, cols_only, false, &ndim, shape));
  assert_int_equal(ndim, 2);
  assert_int_equal(shape[0], 2); /* B */
  assert_int_equal(shape[1], 3); /* the rows */
  asc_tensor_release(&ri);
  asc_tensor_release(&ci);
  asc_tensor_release(&x);
}

static void test_scatter_last_wins_and_accumulate_adds(void **state) {
  (void)state;
  asc_tensor x = iota(1, 6, 0), row, values;
  assert_ok(asc_tensor_select(&x, 0, 0, &row)); /* 1-d view of 6 */
  int64_t pos[] = {1, 4, 1, 1};
  int32_t vals[] = {100, 200, 300, 400};
  asc_tensor idx = index_of(4, pos);
  int64_t vshape[1] = {4};
  assert_ok(asc_tensor_empty(0, ASC_INT32, 1, vshape, &values));
  memcpy(asc_tensor_data(&values), vals, sizeof vals);
  asc_adv_index key[] = {{.index = &idx, .axis = 0, .label = 0}};
  assert_ok(asc_index_scatter(&row, 1, key, true, &values, 0));
  assert_ok(asc_stream_synchronize(ASC_STREAM_CURRENT));
  const int32_t *p = asc_tensor_data(&row);
  int32_t want[] = {0, 400, 2, 3, 200, 5};
  for (int i = 0; i < 6; i++) assert_int_equal(p[i], want[i]);
  assert_ok(asc_index_scatter(&row, 1, key, true, &values, ASC_INDEX_ACCUMULATE));
  assert_ok(asc_stream_synchronize(ASC_STREAM_CURRENT));
  int32_t added[] = {0, 400 + 100 + 300 + 400, 2, 3, 400, 5};
  for (int i = 0; i < 6; i++) assert_int_equal(p[i], added[i]);
  asc_tensor_release(&values);
  asc_tensor_release(&idx);
  asc_tensor_release(&row);
  asc_tensor_release(&x);
}

static void test_nonzero_of_a_strided_view(void **state) {
  (void)state;
  asc_tensor x = iota(4, 5, -7), view, nz;
  /* x[::2, ::-2]: rows 0 and 2, columns 4, 2, 0 */
  asc_tensor rows;
  assert_ok(asc_tensor_slice(&x, 0, 0, 2, 2, &rows));
  assert_ok(asc_tensor_slice(&rows, 1, 4, -2, 3, &view));
  assert_ok(asc_stream_synchronize(ASC_STREAM_CURRENT));
  assert_ok(asc_nonzero(&view, &nz));
  int64_t count = 0;
  const int64_t *coords = asc_tensor_data(&nz);
  for (int64_t i = 0; i < 2; i++)
    for (int64_t j = 0; j < 3; j++)
      if (at(&view, i, j) != 0) {
        assert_true(count < nz.shape[1]);
        assert_int_equal(coords[count], i);
        assert_int_equal(coords[nz.shape[1] + count], j);
        count++;
      }
  assert_int_equal(nz.shape[0], 2);
  assert_int_equal(nz.shape[1], count);
  asc_tensor_release(&nz);
  asc_tensor_release(&view);
  asc_tensor_release(&rows);
  asc_tensor_release(&x);
}

static void test_malformed_keys_are_refused(void **state) {
  (void)state;
  asc_tensor x = iota(3, 4, 0), out = {0}, fidx;
  int64_t good[] = {0}, bad[] = {5};
  asc_tensor gi = index_of(1, good), bi = index_of(1, bad);
  asc_adv_index none[1] = {{.index = &gi, .axis = 0, .label = 0}};
  assert_error(asc_index_gather(&x, 0, none, true, &out), ASC_ERR_INVALID_VALUE, "advanced");
  asc_adv_index unsorted[] = {{.index = &gi, .axis = 1, .label = 1},
                              {.index = &gi, .axis = 0, .label = 0}};
  assert_error(asc_index_gather(&x, 2, unsorted, false, &out), ASC_ERR_INVALID_VALUE, "axis");
  asc_adv_index beyond[] = {{.index = &gi, .axis = 2, .label = 2}};
  assert_error(asc_index_gather(&x, 1, beyond, false, &out), ASC_ERR_INVALID_VALUE, "axis");
  asc_adv_index out_of_range[] = {{.index = &bi, .axis = 0, .label = 7}};
  assert_error(asc_index_gather(&x, 1, out_of_range, true, &out), ASC_ERR_INDEX,
               "index 5 is out of bounds for axis 7 with size 3");
  int64_t one = 1;
  assert_ok(asc_tensor_empty(0, ASC_FLOAT32, 1, &one, &fidx));
  asc_adv_index floats[] = {{.index = &fidx, .axis = 0, .label = 0}};
  assert_error(asc_index_gather(&x, 1, floats, true, &out), ASC_ERR_INDEX, "integer");
  asc_tensor scalar;
  int32_t v = 1;
  assert_ok(asc_tensor_scalar(0, ASC_INT32, &v, &scalar));
  assert_error(asc_nonzero(&scalar, &out), ASC_ERR_INVALID_VALUE, "0-d");
  assert_null(out.storage);
  asc_tensor_release(&scalar);
  asc_tensor_release(&fidx);
  asc_tensor_release(&gi);
  asc_tensor_release(&bi);
  asc_tensor_release(&x);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ASC_TEST(test_gather_on_a_transposed_view),
      ASC_TEST(test_gather_points_and_layouts),
      ASC_TEST(test_scatter_last_wins_and_accumulate_adds),
      ASC_TEST(test_nonzero_of_a_strided_view),
      ASC_TEST(test_malformed_keys_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
