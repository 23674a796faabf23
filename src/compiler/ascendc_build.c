/* Ascend C source built for the simulated cores (asc_ascendc_build): the
 * user's C++ and an entry that unpacks the launcher's arguments into the
 * kernel function's parameters (kernel_operator.h PYASC_SIM_ENTRY), built by
 * jit.c as C++ with kernel_operator.h beside it.
 *
 * The user's text is compiled as it is; it reaches the disk only as the
 * content of a build's source file in the kernel cache (never in a file
 * name). The file name the user gave enters the text only as an escaped
 * string literal of a #line directive, so that compiler errors and the
 * runtime's messages name the user's file and lines. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/jit.h"
#include "asc/status.h"
#include "ir_internal.h"

static bool ident_start(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
static bool ident_char(unsigned char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

/* Whether name is a C++ identifier of at most 64 bytes. */
static bool valid_name(const char *name) {
  size_t n = strlen(name);
  if (n == 0 || n > 64 || !ident_start((unsigned char)name[0])) return false;
  for (size_t i = 1; i < n; i++)
    if (!ident_char((unsigned char)name[i])) return false;
  return true;
}

/* Whether name occurs in text as a whole identifier. */
static bool mentions(const char *text, const char *name) {
  size_t n = strlen(name);
  for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
    bool before = p > text && ident_char((unsigned char)p[-1]);
    bool after = ident_char((unsigned char)p[n]);
    if (!before && !after) return true;
  }
  return false;
}

asc_status asc_ascendc_build(const char *source, const char *file, const char *kernel, bool checked,
                             const asc_jit_options *options, asc_jit_kernel **out,
                             bool *cache_hit) {
  if (!source || !kernel || !out)
    return asc_error(ASC_ERR_INVALID_VALUE, "asc_ascendc_build: NULL argument");
  if (!valid_name(kernel))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "Ascend C kernel name '%.80s' is not a C++ identifier (letters, digits and "
                     "'_', at most 64, not starting with a digit)",
                     kernel);
  if (!file || !*file) file = "<string>";
  if (!mentions(source, kernel))
    return asc_error(ASC_ERR_INVALID_VALUE, "%.200s defines no kernel function '%s'", file, kernel);
  ir_buf b = {0};
  ir_buf_printf(&b, "/* Ascend C kernel %s, built by pyasc for the simulated cores */\n", kernel);
  /* SyncAll's blocks meet: the launch must run them together (jit.c) */
  ir_buf_printf(&b, "#define PYASC_SIM_CHECKED %d\n#define PYASC_SIM_ALL_LIVE %d\n",
                checked ? 1 : 0, mentions(source, "SyncAll") ? 1 : 0);
  /* The cube's table for a source that names a cube API or position. A
   * Matmul runs on groups of an AIC and two AIVs, the basic APIs on one
   * core with the AIC's buffers (as emit_c.c runs Python kernels), and a
   * cube-only source on one AIC per block (kernel_operator.h entry.h). */
  static const char *const cube_names[] = {
      "Mmad", "LoadData", "Fixpipe", "Nd2NzParams", "Nz2NdParamsFull", "A1", "A2", "B1",
      "B2",   "C1",       "C2",      "CO1"};
  bool matmul = mentions(source, "Matmul") || mentions(source, "REGIST_MATMUL_OBJ");
  bool cube = matmul;
  for (size_t i = 0; i < sizeof cube_names / sizeof cube_names[0]; i++)
    cube = cube || mentions(source, cube_names[i]);
  int group = !cube ? 0 : mentions(source, "ASCENDC_CUBE_ONLY") ? 2 : matmul ? 1 : 0;
  ir_buf_printf(&b, "#define PYASC_SIM_CUBE %d\n#define PYASC_SIM_GROUP %d\n", cube ? 1 : 0, group);
  ir_buf_printf(&b, "#include \"kernel_operator.h\"\n#line 1 ");
  ir_buf_c_string(&b, file, strlen(file));
  ir_buf_printf(&b, "\n%s\n#line 1 ", source);
  static const char entry[] = "<pyasc: the kernel's entry>";
  ir_buf_c_string(&b, entry, sizeof entry - 1);
  ir_buf_printf(&b, "\nPYASC_SIM_ENTRY(%s)\n", kernel);
  char *text = NULL;
  asc_status st = ir_buf_finish(&b, &text);
  if (st) return st;
  asc_jit_options o = {0};
  if (options) o = *options;
  o.cxx = true;
  o.compiler = NULL; /* $PYASC_CXX or c++ */
  st = asc_jit_build(text, kernel, &o, out, cache_hit);
  free(text);
  return st;
}
