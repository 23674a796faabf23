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

/* Whether text sets or waits a cross-core flag of mode 0, written as
 * CrossCoreSetFlag<0, ...> or CrossCoreWaitFlag<0...> (a mode given any
 * other way is taken for 1 or 2). */
static bool mode0_flags(const char *text) {
  static const char *const names[] = {"CrossCoreSetFlag", "CrossCoreWaitFlag"};
  for (int i = 0; i < 2; i++)
    for (const char *p = strstr(text, names[i]); p; p = strstr(p + 1, names[i])) {
      const char *q = p + strlen(names[i]);
      while (*q == ' ' || *q == '\t') q++;
      if (*q++ != '<') continue;
      while (*q == ' ' || *q == '\t') q++;
      if (*q != '0') continue;
      q++;
      while (*q == ' ' || *q == '\t') q++;
      if (*q == ',' || *q == '>') return true;
    }
  return false;
}

void asc_ascendc_traits(const char *source, int *live, int *cube, int *group) {
  /* The cube's table for a source that names a cube API or position, or
   * core kinds. A Matmul, the core kinds or the cross-core flags make a
   * mixed kernel: groups of an AIC and two AIVs (group 1), unless the
   * source is cube-only (2: one AIC per block) or AIV-only (3: one AIV per
   * block); the basic cube APIs alone run one core per block with the AIC's
   * buffers (0), as emit_c.c runs Python kernels (kernel_operator.h
   * entry.h). */
  static const char *const cube_names[] = {"Mmad",
                                           "LoadData",
                                           "Fixpipe",
                                           "Nd2NzParams",
                                           "Nz2NdParamsFull",
                                           "A1",
                                           "A2",
                                           "B1",
                                           "B2",
                                           "C1",
                                           "C2",
                                           "CO1",
                                           "L1",
                                           "L0A",
                                           "L0B",
                                           "L0C",
                                           "SetAippFunctions",
                                           "LoadImageToLocal",
                                           "SetLoadDataBoundary",
                                           "SetLoadDataPaddingValue",
                                           "SetLoadDataRepeat"};
  static const char *const mix_names[] = {"Matmul",
                                          "REGIST_MATMUL_OBJ",
                                          "ASCEND_IS_AIC",
                                          "ASCEND_IS_AIV",
                                          "g_coreType",
                                          "CrossCoreSetFlag",
                                          "CrossCoreWaitFlag",
                                          "KERNEL_TYPE_MIX_AIC_1_2",
                                          "KERNEL_TYPE_MIX_AIC_1_1",
                                          "__mix__"};
  bool mixed = false, uses_cube = false;
  for (size_t i = 0; i < sizeof mix_names / sizeof mix_names[0]; i++)
    mixed = mixed || mentions(source, mix_names[i]);
  for (size_t i = 0; i < sizeof cube_names / sizeof cube_names[0]; i++)
    uses_cube = uses_cube || mentions(source, cube_names[i]);
  /* ASCENDC_CUBE_ONLY counts where the launch is written, past the
   * source's #ifs (kernel_operator.h PYASC_SIM_KERNEL_GROUP): group is the
   * kernel's without it, and a source that names it gets the cube. A
   * kernel declared mixed (__mix__, KERNEL_TYPE_MIX_AIC_*) is group 4: a
   * mixed one whatever ASCENDC_CUBE_ONLY says (that picks the AIC's own
   * Matmul, CANN's matmul_fused_manual) */
  const bool cube_only_named = mentions(source, "ASCENDC_CUBE_ONLY");
  const bool aiv_only = mentions(source, "KERNEL_TYPE_AIV_ONLY");
  const bool declared_mix = mentions(source, "__mix__") ||
                            mentions(source, "KERNEL_TYPE_MIX_AIC_1_1") ||
                            mentions(source, "KERNEL_TYPE_MIX_AIC_1_2");
  int g = mentions(source, "KERNEL_TYPE_AIC_ONLY") ? 2
          : aiv_only                               ? (mixed ? 3 : 0)
          : declared_mix                           ? 4
          : mixed                                  ? 1
                                                   : 0;
  /* SyncAll's blocks meet, and so do the cores of a mode-0 cross-core flag:
   * the launch must run them together (jit.c asc_kernel_all_live: 1, or the
   * cores mode 0 spans: 2 groups, 3 AIVs, 4 AICs) */
  const int spans = g == 2 || (cube_only_named && g != 4) ? 4 : g == 1 || g == 4 ? 2 : 3;
  *live = mode0_flags(source) ? spans : mentions(source, "SyncAll") ? 1 : 0;
  *cube = uses_cube || g || cube_only_named ? 1 : 0;
  *group = g;
}

asc_status asc_ascendc_build(const char *source, const char *file, const char *kernel, bool checked,
                             const asc_jit_options *options, asc_jit_kernel **out,
                             bool *cache_hit) {
  return asc_ascendc_build_mode(source, file, kernel, checked, false, options, out, cache_hit);
}

asc_status asc_ascendc_build_mode(const char *source, const char *file, const char *kernel,
                                  bool checked, bool profiled, const asc_jit_options *options,
                                  asc_jit_kernel **out, bool *cache_hit) {
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
  int live = 0, cube = 0, group = 0;
  asc_ascendc_traits(source, &live, &cube, &group);
  ir_buf_printf(&b,
                "#define PYASC_SIM_CHECKED %d\n#define PYASC_SIM_ALL_LIVE %d\n"
                "#define PYASC_SIM_CUBE %d\n#define PYASC_SIM_GROUP %d\n",
                checked && !profiled ? 1 : 0, live, cube, group);
  /* a profiled build is a library of its own (its source differs), whose
   * slot gets the profiled table (jit.c) */
  if (profiled) ir_buf_printf(&b, "#define PYASC_SIM_PROFILED 1\n");
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
