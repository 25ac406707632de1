/* TPC assembler / disassembler library. Table-driven from tpc_isa_gen.h. */
#include "tpcasm_lib.h"
#include "tpc_isa_gen.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXSYM 1024
#define MAXTOK 64

typedef struct {
  char name[64];
  int64_t value;
  int is_label;
} sym_t;

typedef struct {
  const char *fname;
  int line;
  char *err;
  size_t errlen;
  sym_t sym[MAXSYM];
  int nsym;
  int pass;
  uint32_t nb;
} asm_t;

static int fail(asm_t *a, const char *fmt, ...)
{
  va_list ap;
  int n;
  if (a->err[0])
    return -1;
  n = snprintf(a->err, a->errlen, "%s:%d: ", a->fname, a->line);
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < a->errlen)
    vsnprintf(a->err + n, a->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

static sym_t *lookup(asm_t *a, const char *name)
{
  int i;
  for (i = 0; i < a->nsym; i++)
    if (!strcmp(a->sym[i].name, name))
      return &a->sym[i];
  return NULL;
}

static int define(asm_t *a, const char *name, int64_t v, int is_label)
{
  sym_t *s = lookup(a, name);
  if (s) {
    if (a->pass == 2 && s->is_label && is_label)
      return 0;
    return fail(a, "symbol '%s' defined twice", name);
  }
  if (a->nsym >= MAXSYM)
    return fail(a, "too many symbols");
  if (strlen(name) >= sizeof(a->sym[0].name))
    return fail(a, "symbol name too long");
  strcpy(a->sym[a->nsym].name, name);
  a->sym[a->nsym].value = v;
  a->sym[a->nsym].is_label = is_label;
  a->nsym++;
  return 0;
}

static char *trim(char *s)
{
  char *e;
  while (isspace((unsigned char)*s))
    s++;
  e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1]))
    *--e = 0;
  return s;
}

static int is_ident(const char *s)
{
  if (!(isalpha((unsigned char)*s) || *s == '_'))
    return 0;
  for (s++; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_'))
      return 0;
  return 1;
}

/* expression: term (('+'|'-'|'*') term)*, term = number | symbol | f32(x) | -term */
static int eval(asm_t *a, const char *text, int64_t *out, int allow_fwd)
{
  char buf[256], *p, *q;
  int64_t acc = 0, v;
  char op = '+';
  if (strlen(text) >= sizeof(buf))
    return fail(a, "expression too long");
  strcpy(buf, text);
  p = trim(buf);
  if (!*p)
    return fail(a, "missing operand");
  if (!strncmp(p, "f32(", 4)) {
    float f;
    uint32_t bits;
    char *end;
    q = strrchr(p, ')');
    if (!q || q[1])
      return fail(a, "bad f32() constant '%s'", text);
    *q = 0;
    f = strtof(p + 4, &end);
    if (end == p + 4 || *trim(end))
      return fail(a, "bad f32() constant '%s'", text);
    memcpy(&bits, &f, 4);
    *out = bits;
    return 0;
  }
  while (*p) {
    int neg = 0;
    char tok[128];
    size_t n = 0;
    while (isspace((unsigned char)*p))
      p++;
    while (*p == '-') {
      neg = !neg;
      p++;
      while (isspace((unsigned char)*p))
        p++;
    }
    while (*p && (isalnum((unsigned char)*p) || *p == '_') && n < sizeof(tok) - 1)
      tok[n++] = *p++;
    tok[n] = 0;
    if (!n)
      return fail(a, "bad expression '%s'", text);
    if (isdigit((unsigned char)tok[0])) {
      char *end;
      v = (int64_t)strtoull(tok, &end, 0);
      if (*end)
        return fail(a, "bad number '%s'", tok);
    } else {
      sym_t *s = lookup(a, tok);
      if (!s) {
        if (allow_fwd && a->pass == 1)
          v = 0;
        else
          return fail(a, "undefined symbol '%s'", tok);
      } else {
        v = s->value;
      }
    }
    if (neg)
      v = -v;
    acc = op == '+' ? acc + v : op == '-' ? acc - v : acc * v;
    while (isspace((unsigned char)*p))
      p++;
    if (!*p)
      break;
    if (*p != '+' && *p != '-' && *p != '*')
      return fail(a, "bad expression '%s'", text);
    op = *p++;
  }
  *out = acc;
  return 0;
}

static int reg(asm_t *a, const char *t, const char *prefix, int max, uint32_t *out)
{
  size_t n = strlen(prefix);
  char *end;
  long v;
  if (strncmp(t, prefix, n) || !isdigit((unsigned char)t[n]))
    return fail(a, "expected %s register, got '%s'", prefix, t);
  v = strtol(t + n, &end, 10);
  if (*end || v < 0 || v >= max)
    return fail(a, "bad %s register '%s'", prefix, t);
  *out = (uint32_t)v;
  return 0;
}

static uint64_t put(uint64_t w, int lo, int width, uint64_t v)
{
  uint64_t m = ((width == 64) ? ~0ull : ((1ull << width) - 1ull)) << lo;
  return (w & ~m) | ((v << lo) & m);
}

static int find_dt(const char *s)
{
  int i;
  for (i = 0; i < TPC_NDT; i++)
    if (!strcmp(tpc_dtype_info[i].name, s))
      return i;
  return -1;
}

static int find_cc(const char *s)
{
  int i;
  for (i = 0; i < 8; i++)
    if (!strcmp(tpc_cond_name[i], s))
      return i;
  return -1;
}

static const tpc_insn_info_t *find_insn(const char *name)
{
  int i;
  for (i = 0; i < TPC_NINSN; i++)
    if (!strcmp(tpc_insn_info[i].name, name))
      return &tpc_insn_info[i];
  return NULL;
}

typedef struct {
  const tpc_insn_info_t *in;
  uint64_t w;
  int dest_cls; /* 0 none, 1 s, 2 p, 3 v, 4 vp, 5 i */
  uint32_t dest;
  char text[160];
} slotins_t;

/* parse one slot instruction */
static int parse_insn(asm_t *a, char *text, slotins_t *si)
{
  char *p = trim(text), *mn, *ops, *tok[8], *lp;
  char parts[8][32];
  int np = 0, ntok = 0, i, k, dt = -1, cc = -1, srct = -1, part = -1, sat = 0, sr = 0;
  const tpc_insn_info_t *in = NULL;
  uint64_t w = 0;
  uint32_t r;
  int64_t v;
  memset(si, 0, sizeof(*si));
  snprintf(si->text, sizeof(si->text), "%s", p);
  /* scalar predicate */
  if (*p == '(') {
    char *e = strchr(p, ')');
    int neg = 0;
    char *q;
    if (!e)
      return fail(a, "missing ')' in predicate");
    *e = 0;
    q = trim(p + 1);
    if (*q == '!') {
      neg = 1;
      q = trim(q + 1);
    }
    if (reg(a, q, "p", 8, &r))
      return -1;
    w = put(w, TPC_F_SP_LO, TPC_F_SP_W, r);
    w = put(w, TPC_F_SPN_LO, TPC_F_SPN_W, (uint64_t)neg);
    p = trim(e + 1);
  }
  /* lane predicate */
  lp = strchr(p, '@');
  if (lp) {
    *lp = 0;
    lp = trim(lp + 1);
  }
  mn = p;
  while (*p && !isspace((unsigned char)*p))
    p++;
  if (*p)
    *p++ = 0;
  ops = trim(p);
  /* split mnemonic on dots */
  {
    char *s = mn, *d;
    while (s && np < 8) {
      d = strchr(s, '.');
      if (d)
        *d = 0;
      if (strlen(s) >= sizeof(parts[0]))
        return fail(a, "bad mnemonic");
      strcpy(parts[np++], s);
      s = d ? d + 1 : NULL;
    }
  }
  k = 1;
  if (np >= 2) {
    char two[72];
    snprintf(two, sizeof(two), "%s.%s", parts[0], parts[1]);
    in = find_insn(two);
    if (in)
      k = 2;
  }
  if (!in)
    in = find_insn(parts[0]);
  if (!in)
    return fail(a, "unknown instruction '%s'", parts[0]);
  for (i = k; i < np; i++) {
    const char *sfx = parts[i];
    int t = find_dt(sfx), c = find_cc(sfx);
    if (t >= 0 && (in->mods & TPC_MOD_TYPE) && dt < 0)
      dt = t;
    else if (t >= 0 && (in->mods & TPC_MOD_SRCT) && srct < 0)
      srct = t;
    else if (c >= 0 && (in->mods & TPC_MOD_COND) && cc < 0)
      cc = c;
    else if (sfx[0] == 'p' && sfx[1] >= '0' && sfx[1] <= '3' && !sfx[2] && (in->mods & TPC_MOD_PART) && part < 0)
      part = sfx[1] - '0';
    else if (!strcmp(sfx, "sat") && (in->mods & TPC_MOD_SAT) && !sat)
      sat = 1;
    else if (!strcmp(sfx, "sr") && (in->mods & TPC_MOD_SR) && !sr)
      sr = 1;
    else
      return fail(a, "'%s' does not take suffix '.%s'", in->name, sfx);
  }
  if ((in->mods & TPC_MOD_TYPE) && dt < 0)
    return fail(a, "'%s' needs a type suffix", in->name);
  if (dt >= 0 && !((in->types >> dt) & 1u))
    return fail(a, "'%s' does not support type .%s", in->name, tpc_dtype_info[dt].name);
  if ((in->mods & TPC_MOD_COND) && cc < 0)
    return fail(a, "'%s' needs a condition suffix", in->name);
  if ((in->mods & TPC_MOD_SRCT) && srct < 0)
    return fail(a, "'%s' needs a source type suffix", in->name);
  w = put(w, TPC_F_OP_LO, TPC_F_OP_W, in->opcode);
  if (dt >= 0)
    w = put(w, TPC_F_DT_LO, TPC_F_DT_W, (uint64_t)dt);
  {
    uint64_t fn = 0;
    if (cc >= 0)
      fn |= (uint64_t)cc;
    if (srct >= 0)
      fn |= (uint64_t)srct;
    if (part >= 0)
      fn |= (uint64_t)part << 4;
    fn |= (uint64_t)sat << 6;
    fn |= (uint64_t)sr << 7;
    w = put(w, TPC_F_FN_LO, TPC_F_FN_W, fn);
  }
  if (lp) {
    int neg = 0;
    if (!in->lanepred)
      return fail(a, "'%s' takes no lane predicate", in->name);
    if (*lp == '!') {
      neg = 1;
      lp = trim(lp + 1);
    }
    if (reg(a, lp, "vp", 8, &r))
      return -1;
    w = put(w, TPC_F_VP_LO, TPC_F_VP_W, r);
    w = put(w, TPC_F_VPN_LO, TPC_F_VPN_W, (uint64_t)neg);
  }
  /* operands */
  if (*ops) {
    char *s = ops;
    while (s && ntok < 8) {
      char *c = strchr(s, ',');
      if (c)
        *c = 0;
      tok[ntok++] = trim(s);
      s = c ? c + 1 : NULL;
    }
  }
  if (ntok != in->nops)
    return fail(a, "'%s' takes %d operand(s), got %d", in->name, in->nops, ntok);
  for (i = 0; i < ntok; i++) {
    const char *t = tok[i];
    switch (in->ops[i]) {
    case TPC_OPK_VD: case TPC_OPK_VA: case TPC_OPK_VB: case TPC_OPK_VC:
      if (reg(a, t, "v", 32, &r))
        return -1;
      w = in->ops[i] == TPC_OPK_VD ? put(w, TPC_F_RD_LO, 5, r) : in->ops[i] == TPC_OPK_VA ? put(w, TPC_F_RA_LO, 5, r)
        : in->ops[i] == TPC_OPK_VB ? put(w, TPC_F_RB_LO, 5, r) : put(w, TPC_F_RC_LO, 5, r);
      if (in->ops[i] == TPC_OPK_VD) {
        si->dest_cls = 3;
        si->dest = r;
      }
      break;
    case TPC_OPK_VSB:
      if (t[0] == 's') {
        if (reg(a, t, "s", 32, &r))
          return -1;
        w = put(w, TPC_F_FN_LO + 7, 1, 1);
      } else if (reg(a, t, "v", 32, &r)) {
        return -1;
      }
      w = put(w, TPC_F_RB_LO, 5, r);
      break;
    case TPC_OPK_SD: case TPC_OPK_SA: case TPC_OPK_SB:
      if (reg(a, t, "s", 32, &r))
        return -1;
      w = in->ops[i] == TPC_OPK_SD ? put(w, TPC_F_RD_LO, 5, r) : in->ops[i] == TPC_OPK_SA ? put(w, TPC_F_RA_LO, 5, r)
        : put(w, TPC_F_RB_LO, 5, r);
      if (in->ops[i] == TPC_OPK_SD && r) {
        si->dest_cls = 1;
        si->dest = r;
      }
      break;
    case TPC_OPK_PD: case TPC_OPK_PA: case TPC_OPK_PB:
      if (reg(a, t, "p", 8, &r))
        return -1;
      w = in->ops[i] == TPC_OPK_PD ? put(w, TPC_F_RD_LO, 5, r) : in->ops[i] == TPC_OPK_PA ? put(w, TPC_F_RA_LO, 5, r)
        : put(w, TPC_F_RB_LO, 5, r);
      if (in->ops[i] == TPC_OPK_PD && r) {
        si->dest_cls = 2;
        si->dest = r;
      }
      break;
    case TPC_OPK_VPD: case TPC_OPK_VPA: case TPC_OPK_VPB: case TPC_OPK_VPC:
      if (reg(a, t, "vp", 8, &r))
        return -1;
      w = in->ops[i] == TPC_OPK_VPD ? put(w, TPC_F_RD_LO, 5, r) : in->ops[i] == TPC_OPK_VPA ? put(w, TPC_F_RA_LO, 5, r)
        : in->ops[i] == TPC_OPK_VPB ? put(w, TPC_F_RB_LO, 5, r) : put(w, TPC_F_RC_LO, 5, r);
      if (in->ops[i] == TPC_OPK_VPD && r) {
        si->dest_cls = 4;
        si->dest = r;
      }
      break;
    case TPC_OPK_ID: case TPC_OPK_IA:
      if (reg(a, t, "i", 8, &r))
        return -1;
      w = in->ops[i] == TPC_OPK_ID ? put(w, TPC_F_RD_LO, 5, r) : put(w, TPC_F_RA_LO, 5, r);
      if (in->ops[i] == TPC_OPK_ID) {
        si->dest_cls = 5;
        si->dest = r;
      }
      break;
    case TPC_OPK_T:
      if (reg(a, t, "t", 8, &r))
        return -1;
      w = put(w, TPC_F_RC_LO, 5, r);
      break;
    case TPC_OPK_DIM: case TPC_OPK_LANE:
      if (eval(a, t, &v, 0))
        return -1;
      if (in->ops[i] == TPC_OPK_DIM && (v < 0 || v > 4))
        return fail(a, "dimension %lld out of range 0..4", (long long)v);
      if (in->ops[i] == TPC_OPK_LANE && (v < 0 || v >= tpc_dtype_info[dt].lanes))
        return fail(a, "lane %lld out of range for .%s", (long long)v, tpc_dtype_info[dt].name);
      w = put(w, TPC_F_RB_LO, 5, (uint64_t)v);
      break;
    case TPC_OPK_IMM:
      if (eval(a, t, &v, 0))
        return -1;
      if (v < -32768 || v > 32767)
        return fail(a, "immediate %lld does not fit in 16 signed bits", (long long)v);
      w = put(w, TPC_F_IMM_LO, 16, (uint64_t)v);
      break;
    case TPC_OPK_IMM32:
      if (eval(a, t, &v, 0))
        return -1;
      if (v < -2147483648LL || v > 4294967295LL)
        return fail(a, "immediate %lld does not fit in 32 bits", (long long)v);
      w = put(w, TPC_F_IMM32_LO, 32, (uint64_t)v);
      break;
    case TPC_OPK_TGT:
      if (eval(a, t, &v, 1))
        return -1;
      if (a->pass == 2 && (v < 0 || v >= (int64_t)a->nb))
        return fail(a, "branch target %lld outside the program (%u bundles)", (long long)v, a->nb);
      w = put(w, TPC_F_IMM32_LO, 32, (uint64_t)v);
      break;
    default:
      return fail(a, "internal: operand kind");
    }
  }
  si->in = in;
  si->w = w;
  return 0;
}

/* parse a bundle line body (already stripped of label and comment) */
static int parse_bundle(asm_t *a, char *body, tpc_bundle_t *b)
{
  char *p = trim(body), *parts[8];
  int n = 0, i, j, s;
  slotins_t si[8];
  int used[4] = {0, 0, 0, 0}, owner[4] = {-1, -1, -1, -1};
  size_t L = strlen(p);
  int braces = 0;
  memset(b, 0, sizeof(*b));
  if (*p == '{') {
    braces = 1;
    if (L < 2 || p[L - 1] != '}')
      return fail(a, "missing '}'");
    p[L - 1] = 0;
    p = trim(p + 1);
  }
  while (p && n < 8) {
    char *c = strchr(p, ';');
    if (c)
      *c = 0;
    parts[n++] = trim(p);
    p = c ? c + 1 : NULL;
  }
  if (p)
    return fail(a, "too many slots in one bundle");
  for (i = 0; i < n; i++) {
    if (!*parts[i])
      return fail(a, "empty slot");
    if (parse_insn(a, parts[i], &si[i]))
      return -1;
  }
  /* positional form { load ; scalar ; vector ; store } (what tpcdis prints): used when
   * there are four entries and each is allowed in its position; otherwise the slots are
   * assigned automatically */
  int positional = braces && n == 4;
  for (s = 0; positional && s < 4; s++)
    if (strcmp(si[s].in->name, "nop") && !((si[s].in->slots >> s) & 1u))
      positional = 0;
  for (s = 0; positional && s < 4; s++)
    if (strcmp(si[s].in->name, "nop")) {
      used[s] = 1;
      owner[s] = s;
    }
  /* slot assignment: most constrained first */
  for (int pass = 1; pass <= 4 && !positional; pass++)
    for (i = 0; i < n; i++) {
      int cnt = __builtin_popcount(si[i].in->slots);
      static const int pref[4] = {TPC_SLOT_LOAD, TPC_SLOT_STORE, TPC_SLOT_SCALAR, TPC_SLOT_VECTOR};
      if (cnt != pass)
        continue;
      if (!strcmp(si[i].in->name, "nop"))
        continue;
      for (j = 0; j < 4; j++) {
        s = pref[j];
        if ((si[i].in->slots >> s) & 1u && !used[s]) {
          used[s] = 1;
          owner[s] = i;
          break;
        }
      }
      if (j == 4)
        return fail(a, "no free slot for '%s' (slots taken by other instructions of the bundle)", si[i].text);
    }
  for (s = 0; s < 4; s++)
    if (owner[s] >= 0)
      b->w[s] = si[owner[s]].w;
  /* write conflicts */
  for (i = 0; i < 4; i++)
    for (j = i + 1; j < 4; j++) {
      slotins_t *x, *y;
      if (owner[i] < 0 || owner[j] < 0)
        continue;
      x = &si[owner[i]];
      y = &si[owner[j]];
      if (x->dest_cls && x->dest_cls == y->dest_cls && x->dest == y->dest)
        return fail(a, "'%s' and '%s' write the same register in one bundle", x->text, y->text);
    }
  return 0;
}

static char *strip_comment(char *l)
{
  char *c = strchr(l, '#'), *d = strstr(l, "//");
  if (d && (!c || d < c))
    c = d;
  if (c)
    *c = 0;
  return l;
}

static int run_pass(asm_t *a, const char *src, tpc_bundle_t *out)
{
  const char *p = src;
  char line[1024];
  a->line = 0;
  a->nb = a->pass == 2 ? a->nb : 0;
  uint32_t idx = 0;
  while (*p) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char *l, *colon;
    a->line++;
    if (n >= sizeof(line))
      return fail(a, "line too long");
    memcpy(line, p, n);
    line[n] = 0;
    p += n + (e ? 1 : 0);
    l = trim(strip_comment(line));
    if (!*l)
      continue;
    if (!strncmp(l, ".equ", 4) && isspace((unsigned char)l[4])) {
      char *nm = trim(l + 4), *c = strchr(nm, ',');
      int64_t v;
      if (!c)
        return fail(a, ".equ needs NAME, value");
      *c = 0;
      nm = trim(nm);
      if (!is_ident(nm))
        return fail(a, "bad constant name '%s'", nm);
      if (eval(a, c + 1, &v, 0))
        return -1;
      if (a->pass == 1 && define(a, nm, v, 0))
        return -1;
      continue;
    }
    if (l[0] == '.')
      return fail(a, "unknown directive '%s'", l);
    /* labels */
    while ((colon = strchr(l, ':')) != NULL) {
      char *nm;
      *colon = 0;
      nm = trim(l);
      if (!is_ident(nm)) {
        *colon = ':';
        break;
      }
      if (a->pass == 1 && define(a, nm, idx, 1))
        return -1;
      l = trim(colon + 1);
    }
    if (!*l)
      continue;
    if (a->pass == 2) {
      if (parse_bundle(a, l, &out[idx]))
        return -1;
    } else {
      tpc_bundle_t tmp;
      if (parse_bundle(a, l, &tmp))
        return -1;
    }
    idx++;
  }
  a->nb = idx;
  return 0;
}

int tpcasm_assemble(const char *src, const char *fname, const tpcasm_def_t *defs, int ndefs,
                    tpc_bundle_t **out, uint32_t *n, char *err, size_t errlen)
{
  asm_t *a = calloc(1, sizeof(asm_t));
  tpc_bundle_t *b;
  int i;
  if (!a)
    return -1;
  a->fname = fname;
  a->err = err;
  a->errlen = errlen;
  err[0] = 0;
  a->pass = 1;
  for (i = 0; i < ndefs; i++)
    if (define(a, defs[i].name, defs[i].value, 0)) {
      free(a);
      return -1;
    }
  if (run_pass(a, src, NULL)) {
    free(a);
    return -1;
  }
  if (a->nb == 0) {
    a->line = 0;
    fail(a, "empty program");
    free(a);
    return -1;
  }
  b = calloc(a->nb, sizeof(*b));
  a->pass = 2;
  if (!b || run_pass(a, src, b)) {
    free(b);
    free(a);
    return -1;
  }
  *out = b;
  *n = a->nb;
  free(a);
  return 0;
}

int tpcasm_assemble_file(const char *path, const tpcasm_def_t *defs, int ndefs,
                         tpc_bundle_t **out, uint32_t *n, char *err, size_t errlen)
{
  FILE *f = fopen(path, "rb");
  char *src;
  long len;
  int r;
  if (!f) {
    snprintf(err, errlen, "%s: cannot open", path);
    return -1;
  }
  fseek(f, 0, SEEK_END);
  len = ftell(f);
  fseek(f, 0, SEEK_SET);
  src = malloc((size_t)len + 1);
  if (!src || fread(src, 1, (size_t)len, f) != (size_t)len) {
    fclose(f);
    free(src);
    snprintf(err, errlen, "%s: read error", path);
    return -1;
  }
  src[len] = 0;
  fclose(f);
  r = tpcasm_assemble(src, path, defs, ndefs, out, n, err, errlen);
  free(src);
  return r;
}

/* ------------------------------------------------------------------ disassembler */
static uint32_t fld(uint64_t w, int lo, int wd) { return (uint32_t)((w >> lo) & ((1ull << wd) - 1ull)); }

int tpcdis_slot(int slot, uint64_t w, char *buf, size_t len)
{
  const tpc_insn_info_t *in = NULL;
  int i, n = 0;
  uint32_t dt = fld(w, TPC_F_DT_LO, 4), fn = fld(w, TPC_F_FN_LO, 8);
  char tmp[200];
  for (i = 0; i < TPC_NINSN; i++)
    if ((tpc_insn_info[i].slots >> slot) & 1u && tpc_insn_info[i].opcode == fld(w, 0, 8))
      in = &tpc_insn_info[i];
  if (!in || (w & ~in->used) || (in->types && !((in->types >> dt) & 1u)) ||
      ((in->mods & TPC_MOD_SRCT) && (fn & 15u) >= TPC_NDT)) {
    snprintf(buf, len, ".illegal 0x%016llx", (unsigned long long)w);
    return -1;
  }
  tmp[0] = 0;
  if (fld(w, TPC_F_SP_LO, 3) || fld(w, TPC_F_SPN_LO, 1))
    n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "(%sp%u) ", fld(w, TPC_F_SPN_LO, 1) ? "!" : "",
                  fld(w, TPC_F_SP_LO, 3));
  n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%s", in->name);
  if (in->mods & TPC_MOD_TYPE)
    n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, ".%s", tpc_dtype_info[dt].name);
  if (in->mods & TPC_MOD_COND)
    n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, ".%s", tpc_cond_name[fn & 7u]);
  if (in->mods & TPC_MOD_SRCT)
    n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, ".%s", tpc_dtype_info[fn & 15u].name);
  if ((in->mods & TPC_MOD_PART) && ((fn >> 4) & 3u))
    n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, ".p%u", (fn >> 4) & 3u);
  if ((in->mods & TPC_MOD_SAT) && ((fn >> 6) & 1u))
    n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, ".sat");
  if ((in->mods & TPC_MOD_SR) && ((fn >> 7) & 1u))
    n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, ".sr");
  for (i = 0; i < in->nops; i++) {
    uint32_t rd = fld(w, TPC_F_RD_LO, 5), ra = fld(w, TPC_F_RA_LO, 5), rb = fld(w, TPC_F_RB_LO, 5),
             rc = fld(w, TPC_F_RC_LO, 5);
    const char *sep = i ? ", " : " ";
    switch (in->ops[i]) {
    case TPC_OPK_VD: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%sv%u", sep, rd); break;
    case TPC_OPK_VA: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%sv%u", sep, ra); break;
    case TPC_OPK_VB: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%sv%u", sep, rb); break;
    case TPC_OPK_VC: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%sv%u", sep, rc); break;
    case TPC_OPK_VSB: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%s%c%u", sep, (fn >> 7) & 1u ? 's' : 'v', rb); break;
    case TPC_OPK_SD: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%ss%u", sep, rd); break;
    case TPC_OPK_SA: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%ss%u", sep, ra); break;
    case TPC_OPK_SB: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%ss%u", sep, rb); break;
    case TPC_OPK_PD: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%sp%u", sep, rd); break;
    case TPC_OPK_PA: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%sp%u", sep, ra); break;
    case TPC_OPK_PB: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%sp%u", sep, rb); break;
    case TPC_OPK_VPD: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%svp%u", sep, rd); break;
    case TPC_OPK_VPA: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%svp%u", sep, ra); break;
    case TPC_OPK_VPB: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%svp%u", sep, rb); break;
    case TPC_OPK_VPC: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%svp%u", sep, rc); break;
    case TPC_OPK_ID: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%si%u", sep, rd); break;
    case TPC_OPK_IA: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%si%u", sep, ra); break;
    case TPC_OPK_T: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%st%u", sep, rc); break;
    case TPC_OPK_DIM: case TPC_OPK_LANE: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%s%u", sep, rb); break;
    case TPC_OPK_IMM: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%s%d", sep, (int)(int16_t)fld(w, TPC_F_IMM_LO, 16)); break;
    case TPC_OPK_IMM32: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%s0x%08x", sep, fld(w, 32, 32)); break;
    case TPC_OPK_TGT: n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%s%u", sep, fld(w, 32, 32)); break;
    default: break;
    }
  }
  if (in->lanepred && (fld(w, TPC_F_VP_LO, 3) || fld(w, TPC_F_VPN_LO, 1)))
    n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, " @%svp%u", fld(w, TPC_F_VPN_LO, 1) ? "!" : "",
                  fld(w, TPC_F_VP_LO, 3));
  snprintf(buf, len, "%s", tmp);
  return 0;
}

int tpcdis_bundle(const tpc_bundle_t *b, char *buf, size_t len)
{
  int s, bad = 0;
  size_t n = 0;
  char one[220];
  n += (size_t)snprintf(buf, len, "{ ");
  for (s = 0; s < 4; s++) {
    if (b->w[s] == 0)
      snprintf(one, sizeof(one), "nop");
    else if (tpcdis_slot(s, b->w[s], one, sizeof(one)))
      bad++;
    n += (size_t)snprintf(buf + n, len > n ? len - n : 0, "%s%s", s ? " ; " : "", one);
  }
  snprintf(buf + n, len > n ? len - n : 0, " }");
  return bad;
}
