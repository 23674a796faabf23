/* The one function through which user text enters generated C
 * (ir_buf_c_string): every byte value and every trigraph survives a round
 * trip through the C compiler byte for byte, and the literal holds nothing
 * but letters, digits and three-digit octal escapes. */
#include "../../src/compiler/ir_internal.h"
#include "asc_test.h"

#include <sys/wait.h>
#include <unistd.h>

typedef struct sample {
  char bytes[300];
  size_t n;
} sample;

/* Every byte alone, each followed by a digit (an escape must not swallow
 * it), all 256 in one string, and the trigraphs with what follows them. */
static size_t make_samples(sample *s) {
  size_t count = 0;
  for (int c = 0; c < 256; c++) {
    s[count].bytes[0] = (char)c;
    s[count].bytes[1] = '7';
    s[count++].n = 2;
  }
  for (int c = 0; c < 256; c++) s[count].bytes[c] = (char)c;
  s[count++].n = 256;
  /* "?\?" keeps this file's own literals free of trigraphs */
  static const char *const trigraphs[] = {
      "?\?/", "?\?=",   "?\?'",   "?\?(",  "?\?)",    "?\?!",         "?\?<",    "?\?>",
      "?\?-", "?\?/\"", "?\?/\n", "\\\"x", "a\r\nb?", "?\?\?/?\?\?/", "%s%n%%d", "*/ /* //"};
  for (size_t i = 0; i < sizeof trigraphs / sizeof trigraphs[0]; i++) {
    s[count].n = strlen(trigraphs[i]);
    memcpy(s[count++].bytes, trigraphs[i], strlen(trigraphs[i]));
  }
  return count;
}

static bool only_safe_characters(const char *lit, size_t len) {
  if (len < 2 || lit[0] != '"' || lit[len - 1] != '"') return false;
  for (size_t i = 1; i + 1 < len; i++) {
    char c = lit[i];
    if (c == '\\') {
      for (int d = 1; d <= 3; d++)
        if (i + (size_t)d + 1 >= len || lit[i + d] < '0' || lit[i + d] > '7') return false;
      i += 3;
    } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
      return false;
    }
  }
  return true;
}

static void test_literals_hold_only_letters_digits_and_octal_escapes(void **state) {
  (void)state;
  static sample samples[600];
  size_t count = make_samples(samples);
  for (size_t i = 0; i < count; i++) {
    ir_buf b = {0};
    ir_buf_c_string(&b, samples[i].bytes, samples[i].n);
    assert_false(b.failed);
    assert_true(only_safe_characters(b.data, b.len));
    free(b.data);
  }
}

static void test_every_byte_and_trigraph_round_trips_through_the_compiler(void **state) {
  (void)state;
  static sample samples[600];
  size_t count = make_samples(samples);
  ir_buf prog = {0};
  ir_buf_printf(&prog, "#include <stdio.h>\nstatic const char *const s[] = {\n");
  for (size_t i = 0; i < count; i++) {
    ir_buf_c_string(&prog, samples[i].bytes, samples[i].n);
    ir_buf_printf(&prog, ",\n");
  }
  ir_buf_printf(&prog, "};\nstatic const unsigned long n[] = {");
  for (size_t i = 0; i < count; i++) ir_buf_printf(&prog, "%zu,", samples[i].n);
  ir_buf_printf(&prog,
                "};\nint main(void) {\n  for (unsigned long i = 0; i < sizeof n / sizeof n[0]; "
                "i++) fwrite(s[i], 1, n[i], stdout);\n  return 0;\n}\n");
  assert_false(prog.failed);
  char dir[] = "/tmp/asc-escape-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char src[64], exe[64], cmd[256];
  snprintf(src, sizeof src, "%s/t.c", dir);
  snprintf(exe, sizeof exe, "%s/t", dir);
  FILE *f = fopen(src, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(prog.data, 1, prog.len, f), prog.len);
  fclose(f);
  free(prog.data);
  /* -std=c11 turns trigraphs on: the case the escaping must survive. */
  snprintf(cmd, sizeof cmd, "cc -std=c11 -Wall -Werror -o %s %s", exe, src);
  assert_int_equal(system(cmd), 0);
  FILE *out = popen(exe, "r");
  assert_non_null(out);
  for (size_t i = 0; i < count; i++) {
    char got[300];
    assert_int_equal(fread(got, 1, samples[i].n, out), samples[i].n);
    assert_memory_equal(got, samples[i].bytes, samples[i].n);
  }
  assert_int_equal(fgetc(out), EOF);
  assert_int_equal(pclose(out), 0);
  unlink(exe);
  unlink(src);
  rmdir(dir);
}

static void test_safe_names_keep_only_identifier_characters(void **state) {
  (void)state;
  ir_buf b = {0};
  ir_buf_safe_name(&b, "../../x/k */ ?\?/\n\xff_9", 64, NULL);
  ir_buf_printf(&b, "|");
  ir_buf_safe_name(&b, "", 64, NULL);
  ir_buf_printf(&b, "|");
  ir_buf_safe_name(&b, "abcdef", 3, NULL);
  ir_buf_printf(&b, "|");
  ir_buf_safe_name(&b, "k.py\\-", 64, ".-");
  assert_false(b.failed);
  assert_string_equal(b.data, "______x_k__________9|kernel|abc|k.py_-");
  free(b.data);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_literals_hold_only_letters_digits_and_octal_escapes),
      cmocka_unit_test(test_every_byte_and_trigraph_round_trips_through_the_compiler),
      cmocka_unit_test(test_safe_names_keep_only_identifier_characters),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
