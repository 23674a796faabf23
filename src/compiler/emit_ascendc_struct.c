/* Ascend C of Struct parameters. PyAsc passes a Struct argument as one GM pointer to its packed
 * bytes; the simulator's launch flattens it into scalar parameters that carry their member path
 * (asc_ir_set_member). The Ascend C kernel takes the struct whole, as PyAsc's does, copies it out
 * of GM and reads each member into the flattened parameter's name, so the body is the same either
 * way. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_ascendc.h"

typedef struct {
  char buf[512];
  char *parts[AC_MAX_PARTS];
  int n;
} ac_path;

static const char *const scalar_ctypes[][2] = {
    {"int1", "bool"},       {"bool", "bool"},       {"int8", "int8_t"},   {"int16", "int16_t"},
    {"int32", "int32_t"},   {"int64", "int64_t"},   {"uint8", "uint8_t"}, {"uint16", "uint16_t"},
    {"uint32", "uint32_t"}, {"uint64", "uint64_t"}, {"float32", "float"}, {"float64", "double"}};

static bool usable_name(const ac_emitter *e, const char *s) {
  return ac_is_identifier(s) && strlen(s) < AC_NAME - 8 && !ac_reserved(s) && !ac_helper_name(s) &&
         strcmp(s, e->kernel_name);
}

/* Splits "param/Type@pack/field/.../scalar"; false (e->st set) when malformed. */
static bool parse_path(ac_emitter *e, const char *path, ac_path *p) {
  size_t len = strlen(path);
  p->n = 0;
  if (len >= sizeof p->buf) {
    ac_fail(e, NULL, ASC_ERR_UNSUPPORTED, "struct member path too long");
    return false;
  }
  memcpy(p->buf, path, len + 1);
  for (char *c = p->buf, *start = p->buf;; c++)
    if (*c == '/' || !*c) {
      bool end = !*c;
      *c = 0;
      if (p->n == AC_MAX_PARTS) { /* nested too deeply: refused below */
        p->n = 0;
        break;
      }
      p->parts[p->n++] = start;
      start = c + 1;
      if (end) break;
    }
  bool ok = p->n >= 4 && p->n % 2 == 0 && usable_name(e, p->parts[0]);
  for (int i = 1; ok && i < p->n - 1; i += 2) {
    char *at = strchr(p->parts[i], '@');
    ok = at && usable_name(e, p->parts[i + 1]);
    if (ok) {
      *at = 0;
      int pack = atoi(at + 1);
      ok = usable_name(e, p->parts[i]) &&
           (pack == 1 || pack == 2 || pack == 4 || pack == 8 || pack == 16);
    }
  }
  if (!ok)
    ac_fail(e, NULL, ASC_ERR_UNSUPPORTED,
            "a struct parameter's member path '%s' does not name C++ identifiers (struct, field "
            "and parameter names must be identifiers that are not C++ keywords)",
            path);
  return ok;
}

static const char *scalar_ctype(const char *name) {
  for (size_t i = 0; i < sizeof scalar_ctypes / sizeof scalar_ctypes[0]; i++)
    if (!strcmp(scalar_ctypes[i][0], name)) return scalar_ctypes[i][1];
  return NULL;
}

static int struct_index(ac_emitter *e, ac_structs *s, const char *type_at) {
  const char *at = type_at + strlen(type_at) + 1; /* parse_path cut "Type@pack" at the @ */
  int pack = atoi(at);
  for (int i = 0; i < s->nstructs; i++)
    if (!strcmp(s->structs[i].name, type_at)) {
      if (s->structs[i].pack != pack) break;
      return i;
    }
  for (int i = 0; i < s->nstructs; i++)
    if (!strcmp(s->structs[i].name, type_at)) {
      ac_fail(e, NULL, ASC_ERR_UNSUPPORTED, "two struct types named %s", type_at);
      return -1;
    }
  if (s->nstructs == AC_MAX_STRUCTS) {
    ac_fail(e, NULL, ASC_ERR_UNSUPPORTED, "more than %d struct types", AC_MAX_STRUCTS);
    return -1;
  }
  ac_struct *t = &s->structs[s->nstructs];
  snprintf(t->name, sizeof t->name, "%s", type_at);
  t->pack = pack;
  t->n = 0;
  return s->nstructs++;
}

static void add_member(ac_emitter *e, ac_struct *t, const char *field, int sub, const char *ctype) {
  for (int i = 0; i < t->n; i++)
    if (!strcmp(t->fields[i], field)) {
      if (t->sub[i] != sub || (ctype && strcmp(t->ctype[i], ctype)))
        ac_fail(e, NULL, ASC_ERR_UNSUPPORTED, "two struct types named %s with different members",
                t->name);
      return;
    }
  if (t->n == AC_MAX_MEMBERS) {
    ac_fail(e, NULL, ASC_ERR_UNSUPPORTED, "struct %s has more than %d members", t->name,
            AC_MAX_MEMBERS);
    return;
  }
  snprintf(t->fields[t->n], AC_NAME, "%s", field);
  t->sub[t->n] = sub;
  t->ctype[t->n++] = ctype;
}

/* A name no value, struct or earlier struct parameter uses. */
static void fresh_name(ac_emitter *e, const ac_structs *s, int upto, const char *base, char *out) {
  for (int n = 1;; n++) {
    if (n == 1)
      snprintf(out, AC_NAME, "%s", base);
    else
      snprintf(out, AC_NAME, "%s_%d", base, n);
    bool taken = ac_name_taken(e, out);
    for (int i = 0; i < s->nstructs; i++) taken |= !strcmp(s->structs[i].name, out);
    for (int i = 0; i < upto; i++)
      taken |=
          s->root_of[i] == i && (!strcmp(s->addr_name[i], out) || !strcmp(s->local_name[i], out));
    if (!taken) return;
  }
}

void ac_collect_structs(ac_emitter *e, ac_structs *s) {
  const asc_ir_module *m = e->m;
  s->nstructs = 0;
  for (int i = 0; i < m->nparams && !e->st; i++) {
    s->root_of[i] = -1;
    const char *path = m->values[m->params[i]].member;
    ac_path p;
    if (!path || !parse_path(e, path, &p)) continue;
    const char *ctype = scalar_ctype(p.parts[p.n - 1]);
    if (!ctype) {
      ac_fail(e, NULL, ASC_ERR_UNSUPPORTED, "struct member type %s", p.parts[p.n - 1]);
      return;
    }
    int parent = -1;
    for (int k = 1; k < p.n - 1 && !e->st; k += 2) {
      int idx = struct_index(e, s, p.parts[k]);
      if (idx < 0) return;
      if (parent >= 0)
        add_member(e, &s->structs[parent], p.parts[k - 1], idx, NULL);
      else
        s->root_struct[i] = idx;
      parent = idx;
    }
    if (!e->st) add_member(e, &s->structs[parent], p.parts[p.n - 2], -1, ctype);
    for (int j = 0; j < i && s->root_of[i] < 0; j++) {
      ac_path q;
      if (s->root_of[j] == j && parse_path(e, m->values[m->params[j]].member, &q) &&
          !strcmp(q.parts[0], p.parts[0]))
        s->root_of[i] = j;
    }
    if (s->root_of[i] < 0) {
      s->root_of[i] = i;
      char base[AC_NAME];
      snprintf(base, sizeof base, "%s_addr", p.parts[0]);
      fresh_name(e, s, i, base, s->addr_name[i]);
      fresh_name(e, s, i, p.parts[0], s->local_name[i]);
    }
  }
}

/* Tiling structs Ascend C declares itself (kernel_tiling/kernel_tiling.h),
 * with the members pyasc's structs of the same name have: not redefined. */
static bool ascendc_declares(const char *name) {
  static const char *const known[] = {"TCubeTiling", "RmsNormTiling", "SoftMaxTiling"};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (!strcmp(known[i], name)) return true;
  return false;
}

void ac_emit_struct_def(ac_emitter *e, ir_buf *b, ac_structs *s, int i) {
  ac_struct *t = &s->structs[i];
  if (t->emitted) return;
  t->emitted = true;
  if (ascendc_declares(t->name)) return;
  for (int j = 0; j < t->n; j++)
    if (t->sub[j] >= 0) ac_emit_struct_def(e, b, s, t->sub[j]);
  ir_buf_printf(b, "#pragma pack(push, %d)\nstruct %s {\n", t->pack, t->name);
  for (int j = 0; j < t->n; j++)
    ir_buf_printf(b, "    %s %s;\n", t->sub[j] >= 0 ? s->structs[t->sub[j]].name : t->ctype[j],
                  t->fields[j]);
  ir_buf_printf(b, "};\n#pragma pack(pop)\n\n");
}

/* The struct copies and each flattened parameter read from its member. */
void ac_emit_struct_prologue(ac_emitter *e, ir_buf *b, const ac_structs *s) {
  const asc_ir_module *m = e->m;
  for (int i = 0; i < m->nparams; i++) {
    if (s->root_of[i] != i) continue;
    const char *local = s->local_name[i];
    ir_buf_printf(b, "    %s %s;\n", s->structs[s->root_struct[i]].name, local);
    ir_buf_printf(b,
                  "    for (uint32_t i = 0; i < sizeof(%s); ++i) {\n"
                  "        reinterpret_cast<uint8_t *>(&%s)[i] = %s[i];\n    }\n",
                  local, local, s->addr_name[i]);
  }
  for (int i = 0; i < m->nparams; i++) {
    if (s->root_of[i] < 0) continue;
    uint32_t v = m->params[i];
    ac_path p;
    if (!parse_path(e, m->values[v].member, &p)) return;
    asc_ir_kind kind = (asc_ir_kind)ac_type_of(e, v).kind;
    const char *type = kind == ASC_IR_FLOAT ? "float" : kind == ASC_IR_BOOL ? "bool" : "int64_t";
    ir_buf_printf(b, "    %s %s = static_cast<%s>(%s", type, e->values[v].name, type,
                  s->local_name[s->root_of[i]]);
    for (int k = 2; k < p.n - 1; k += 2) ir_buf_printf(b, ".%s", p.parts[k]);
    ir_buf_printf(b, ");\n");
  }
}

void ac_emit_signature(ac_emitter *e, ir_buf *b, const ac_structs *s) {
  const asc_ir_module *m = e->m;
  ir_buf_printf(b, "extern \"C\" __global__ __aicore__ void %s(", e->kernel_name);
  for (int i = 0; i < m->nparams; i++) {
    uint32_t v = m->params[i];
    if (s->root_of[i] >= 0) {
      if (s->root_of[i] == i) ir_buf_printf(b, "%sGM_ADDR %s", i ? ", " : "", s->addr_name[i]);
      continue;
    }
    asc_ir_kind kind = (asc_ir_kind)ac_type_of(e, v).kind;
    const char *type = kind == ASC_IR_ADDR    ? "GM_ADDR"
                       : kind == ASC_IR_FLOAT ? "float"
                       : kind == ASC_IR_BOOL  ? "bool"
                                              : "int64_t";
    if (kind != ASC_IR_ADDR && kind != ASC_IR_FLOAT && kind != ASC_IR_BOOL && kind != ASC_IR_INT)
      ac_fail(e, NULL, ASC_ERR_UNSUPPORTED,
              "kernel parameter '%s' is a %s, which Ascend C kernels "
              "cannot take",
              m->values[v].name, ir_kind_name(kind));
    ir_buf_printf(b, "%s%s %s", i ? ", " : "", type, e->values[v].name);
  }
  ir_buf_printf(b, ")\n{\n");
}
