/* ptx: a line-at-a-time reader of the PTX NVVM writes.
 *
 * It relies on how NVVM lays PTX out (every kernels/ and tests/data/truth
 * file compiled by CUDA 12 and 13 does): directives and instructions start
 * their own line; a function is `.entry NAME(` or `.func [(ret)] NAME(`,
 * its parameters, then a body in braces; `.loc FILE LINE COL` (no
 * semicolon) sets the source position of what follows; labels stand alone
 * as `NAME:`; a call spreads over several lines up to its `;`. The
 * `.section .debug_*` blocks -lineinfo appends are skipped. Anything else
 * inside a body is counted as an instruction by its first word, so an
 * unexpected line costs one odd opcode, never the parse; the first one that
 * cannot be an opcode is reported. Linear in the input. */
#include "input/ptx.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/aggatom.h"
#include "analysis/timing/byteunpack.h"
#include "util/sbuf.h"

/* A module no sane compiler writes: stop growing there. */
#define MAX_INSNS (1u << 24)

typedef struct label {
    char *name;
    size_t at; /* instruction index it precedes */
} label;

typedef struct branch {
    char *label;
    size_t insn;
} branch;

typedef struct reader {
    ptx_module *m;
    size_t cap_functions;
    ptx_function *fn; /* the body being read, NULL outside */
    size_t cap_insns;
    int depth;                  /* braces inside the body */
    int section;                /* braces of a skipped .section, -1 = none */
    bool header;                /* between `.entry NAME(` and its `{` */
    bool continued;             /* an instruction runs on past this line */
    int file, line;             /* the last .loc */
    int outer_file, outer_line; /* its inlined_at, or file and line */
    label *labels;
    size_t n_labels, cap_labels;
    branch *branches;
    size_t n_branches, cap_branches;
    size_t total;
} reader;

static void problem(reader *r, int line, const char *what, const char *text, size_t n)
{
    if (r->m->problem_line)
        return;
    r->m->problem_line = line;
    snprintf(r->m->problem, sizeof r->m->problem, "%s: '%.*s'", what, (int)(n > 40 ? 40 : n), text);
}

static const char *skip_space(const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s))
        s++;
    return s;
}

static size_t word_len(const char *s, const char *end)
{
    size_t n = 0;
    while (s + n < end && !isspace((unsigned char)s[n]) && s[n] != ';' && s[n] != ',' &&
           s[n] != '(' && s[n] != ')')
        n++;
    return n;
}

/* The line is not NUL-terminated: every look stays before end. */
static bool starts(const char *s, const char *end, const char *prefix)
{
    size_t k = strlen(prefix);
    return (size_t)(end - s) >= k && memcmp(s, prefix, k) == 0;
}

/* A directive: the name, then a space or the end of the line. */
static bool directive(const char *s, const char *end, const char *name)
{
    size_t k = strlen(name);
    return starts(s, end, name) && (s + k == end || isspace((unsigned char)s[k]));
}

static bool has_word(const char *s, const char *end, const char *w)
{
    size_t k = strlen(w);
    for (const char *p = s; p + k <= end; p++)
        if (memcmp(p, w, k) == 0 && (p == s || isspace((unsigned char)p[-1])) &&
            (p + k == end || isspace((unsigned char)p[k]) || p[k] == '('))
            return true;
    return false;
}

static char *copy(const char *s, size_t n)
{
    char *c = xmalloc(n + 1);
    memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

/* `.extern .func f(...);` declares a function and has no body. */
static void drop_declaration(reader *r)
{
    free(r->fn->name);
    r->m->n_functions--;
    r->fn = NULL;
    r->header = false;
}

static void begin_function(reader *r, const char *s, const char *end, int line)
{
    bool entry = has_word(s, end, ".entry");
    const char *kw = NULL;
    for (const char *p = s; p < end && !kw; p++)
        if (starts(p, end, entry ? ".entry" : ".func"))
            kw = p;
    const char *p = skip_space(kw + (entry ? 6 : 5), end);
    if (p < end && *p == '(') { /* .func (.param .b32 retval) name( */
        int nest = 0;
        for (; p < end; p++) {
            nest += *p == '(';
            nest -= *p == ')';
            if (nest == 0) {
                p++;
                break;
            }
        }
        p = skip_space(p, end);
    }
    size_t n = word_len(p, end);
    if (n == 0) {
        problem(r, line, "a function without a name", s, (size_t)(end - s));
        return;
    }
    ptx_module *m = r->m;
    if (m->n_functions == r->cap_functions) {
        r->cap_functions = r->cap_functions ? 2 * r->cap_functions : 16;
        m->functions = xrealloc(m->functions, r->cap_functions * sizeof *m->functions);
    }
    ptx_function *f = &m->functions[m->n_functions++];
    memset(f, 0, sizeof *f);
    f->name = copy(p, n);
    f->is_entry = entry;
    f->line = line;
    r->fn = f;
    r->cap_insns = 0;
    r->header = true;
    r->depth = 0;
    r->file = r->line = r->outer_file = r->outer_line = 0;
    r->n_labels = r->n_branches = 0;
    if (memchr(s, '{', (size_t)(end - s))) {
        r->header = false;
        r->depth = 1;
    } else if (memchr(s, ';', (size_t)(end - s))) {
        drop_declaration(r);
    }
}

/* sm_80 and later: REDUX.SUM, which ptxas's aggregated atomics use. */
static bool has_redux(const char *target)
{
    int cc = 0;
    return sscanf(target, "sm_%d", &cc) == 1 && cc >= 80;
}

static void end_function(reader *r)
{
    ptx_function *f = r->fn;
    if (has_redux(r->m->target))
        aggatom_mark(f->insns, f->n_insns);
    byteunpack_mark(f->insns, f->n_insns);
    for (size_t b = 0; b < r->n_branches; b++) {
        for (size_t l = 0; l < r->n_labels; l++)
            if (strcmp(r->labels[l].name, r->branches[b].label) == 0) {
                f->insns[r->branches[b].insn].target = (int32_t)r->labels[l].at;
                break;
            }
    }
    for (size_t l = 0; l < r->n_labels; l++)
        free(r->labels[l].name);
    for (size_t b = 0; b < r->n_branches; b++)
        free(r->branches[b].label);
    r->n_labels = r->n_branches = 0;
    r->fn = NULL;
}

static void add_label(reader *r, const char *s, size_t n)
{
    if (r->n_labels == r->cap_labels) {
        r->cap_labels = r->cap_labels ? 2 * r->cap_labels : 32;
        r->labels = xrealloc(r->labels, r->cap_labels * sizeof *r->labels);
    }
    r->labels[r->n_labels++] = (label){.name = copy(s, n), .at = r->fn->n_insns};
}

static void add_maxnreg(ptx_function *f, const imix_insn *in, const char *arg, const char *end)
{
    if (f->n_maxnreg++ >= PTX_MAX_MAXNREG)
        return;
    ptx_maxnreg *m = &f->maxnreg[f->n_maxnreg - 1];
    m->raise = strncmp(in->op + 11, "inc", 3) == 0;
    m->file = in->file;
    m->line = in->line;
    m->regs = -1;
    long v = 0;
    const char *p = arg;
    while (p < end && *p >= '0' && *p <= '9' && v < 100000)
        v = v * 10 + (*p++ - '0');
    if (p > arg && p < end && (*p == ';' || *p == ' ' || *p == '\t'))
        m->regs = (int)v;
}

static bool reg_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

static bool op_starts(const char *op, const char *m)
{
    size_t k = strlen(m);
    return !strncmp(op, m, k) && (op[k] == '\0' || op[k] == '.');
}

/* Instructions whose first operand is read, not written (a store's
 * address, a barrier's id) or that name no registers the chain follows. */
static bool writes_first(const char *op)
{
    static const char *const none[] = {
        "st",        "red",     "bar",     "barrier",      "bra",        "brx",
        "ret",       "exit",    "call",    "prefetch",     "prefetchu",  "membar",
        "fence",     "trap",    "cp",      "stmatrix",     "setmaxnreg", "griddepcontrol",
        "nanosleep", "discard", "pmevent", "applypriority"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        if (op_starts(op, none[i]))
            return false;
    if (op_starts(op, "wmma") && strstr(op, ".store"))
        return false;
    if (op_starts(op, "wgmma") && !strstr(op, "mma_async"))
        return false;
    if (op_starts(op, "mbarrier") && (strstr(op, ".init") || strstr(op, ".inval") ||
                                      strstr(op, ".expect_tx") || strstr(op, ".complete_tx")))
        return false;
    return true;
}

/* A decimal or 0x hexadecimal integer, optionally negative, read no
 * further than end (the text is not NUL-terminated); returns where it
 * stops, p where there is none. Wraps rather than overflows. */
static const char *read_int(const char *p, const char *end, int64_t *v)
{
    const char *q = p;
    bool neg = q < end && *q == '-';
    q += neg;
    int base = 10;
    if (end - q > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X') &&
        isxdigit((unsigned char)q[2])) {
        base = 16;
        q += 2;
    }
    const char *digits = q;
    uint64_t u = 0;
    for (; q < end && (base == 16 ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q)); q++)
        u = u * (uint64_t)base + (uint64_t)(isdigit((unsigned char)*q)
                                                ? *q - '0'
                                                : (tolower((unsigned char)*q) - 'a' + 10));
    if (q == digits)
        return p;
    *v = (int64_t)(neg ? 0 - u : u);
    return q;
}

/* `%r5+12]`: the register and the offset of a memory operand. */
static void read_address(imix_insn *in, const char *p, const char *end)
{
    if (p >= end || *p != '%')
        return;
    const char *q = p + 1;
    while (q < end && reg_char(*q))
        q++;
    in->addr_base = imix_reg_hash(p + 1, (size_t)(q - p - 1));
    int64_t v;
    if (q < end && (*q == '+' || *q == '-') && read_int(q + (*q == '+'), end, &v) > q + 1)
        in->addr_offset = v;
}

/* The registers an instruction writes (its first operand, where it has
 * one) and reads (the rest, the guard too): every `%name` token. */
static void read_operands(imix_insn *in, const char *s, const char *end, const char *guard,
                          size_t guard_len)
{
    int nd = 0, ns = 0, depth = 0;
    bool first = writes_first(in->op);
    if (guard_len)
        in->src[ns++] = imix_reg_hash(guard, guard_len);
    if (op_starts(in->op, "call"))
        return;
    for (const char *p = s; p < end && *p != ';'; p++) {
        if (*p == '[' && depth == 0)
            read_address(in, p + 1, end);
        if (*p == '{' || *p == '[')
            depth++;
        else if ((*p == '}' || *p == ']') && depth > 0)
            depth--;
        else if (*p == ',' && depth == 0)
            first = false;
        else if (!first && depth == 0 && *p == '0' && end - p > 2 && (p[1] == 'f' || p[1] == 'd') &&
                 isxdigit((unsigned char)p[2]) && (p == s || !reg_char(p[-1]))) {
            in->literal = true; /* a float's bits */
            char hex[17] = {0};
            for (int k = 0; k < 16 && p + 2 + k < end && isxdigit((unsigned char)p[2 + k]); k++)
                hex[k] = p[2 + k];
            uint64_t bits = strtoull(hex, NULL, 16);
            bool f64 = p[1] == 'd';
            while (p + 1 < end && reg_char(p[1]))
                p++;
            if (in->n_literals < 2) {
                const char *q = p + 1;
                while (q < end && isspace((unsigned char)*q))
                    q++;
                in->literal_f64[in->n_literals] = f64;
                in->literal_bits[in->n_literals] = bits;
                in->literal_last[in->n_literals] = q == end || *q == ';';
            }
            if (in->n_literals < UCHAR_MAX)
                in->n_literals++;
        } else if (!first && depth == 0 && (isdigit((unsigned char)*p) || *p == '-') &&
                   (p == s || !reg_char(p[-1]))) {
            /* an integer immediate (0f / 0d are a float's bits) */
            int64_t v;
            const char *e = read_int(p, end, &v);
            if (e > p && (e == end || !reg_char(*e))) {
                in->imm = v;
                in->has_imm = true;
                p = e - 1;
            }
        } else if (*p == '%') {
            const char *q = p + 1;
            while (q < end && reg_char(*q))
                q++;
            uint32_t h = imix_reg_hash(p + 1, (size_t)(q - p - 1));
            if (first && nd < IMIX_DST)
                in->dst[nd++] = h;
            else if (!first && ns < IMIX_SRC)
                in->src[ns++] = h;
            p = q - 1;
        }
    }
}

/* PTX names for the SASS special registers (S2R, S2UR, CS2R) and the
 * launch's constant bank (LDC): a copy of one is an instruction. */
static bool special_register(const char *p, const char *end)
{
    static const char *const names[] = {
        "tid",         "ntid",       "ctaid",         "nctaid",
        "laneid",      "warpid",     "nwarpid",       "smid",
        "nsmid",       "gridid",     "lanemask",      "clock",
        "globaltimer", "pm",         "envreg",        "dynamic_smem",
        "total_smem",  "aggr_smem",  "reserved_smem", "is_explicit",
        "cluster",     "nclusterid", "clusterid",     "current_graph_exec"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        if ((size_t)(end - p) >= n && strncmp(p, names[i], n) == 0)
            return true;
    }
    return false;
}

/* Where the operands after the destination begin (past the first comma
 * outside braces), end where there is none. */
static const char *after_destination(const char *s, const char *end)
{
    int depth = 0;
    for (const char *p = s; p < end && *p != ';'; p++) {
        if (*p == '{')
            depth++;
        else if (*p == '}' && depth > 0)
            depth--;
        else if (*p == ',' && depth == 0)
            return skip_space(p + 1, end);
    }
    return end;
}

static uint32_t args_hash(const char *s, const char *end)
{
    uint32_t h = 2166136261u;
    bool any = false;
    for (const char *p = after_destination(s, end); p < end && *p != ';'; p++)
        if (!isspace((unsigned char)*p)) {
            h = (h ^ (unsigned char)*p) * 16777619u;
            any = true;
        }
    return any ? (h ? h : 1) : 0;
}

/* ptxas keeps no instruction for a copy of a virtual register or of an
 * immediate (the register is renamed; the immediate becomes its reader's
 * operand: langevin's eleven `mov.f32 %f, 0f...` are none of its SASS)
 * nor for cvta.to.global, whose generic and global addresses are the same
 * bits on every sm_ since Fermi. A copy of a special register, or of a
 * symbol's address, is an instruction. */
static bool folded_by_ptxas(const char *op, const char *s, const char *end)
{
    if (!strncmp(op, "cvta.to.global.", 15) || !strncmp(op, "cvta.global.", 12))
        return true;
    if (strncmp(op, "mov.", 4) != 0)
        return false;
    const char *p = after_destination(s, end);
    if (p < end && *p == '%')
        return !special_register(p + 1, end);
    return p < end && (*p == '{' || *p == '-' || isdigit((unsigned char)*p));
}

/* The CUDA math library's paths for arguments real data seldom has: the
 * Payne-Hanek reduction of sin and cos past 2^31 (double, a call of
 * __internal_trig_reduction_slowpathd) or 105615 (float, inline, reading
 * the table __cudart_i2opi_f). */
static bool names_rare_path(const char *s, const char *end)
{
    static const char *const names[] = {"slowpath", "__cudart_i2opi_"};
    for (const char *p = s; p < end; p++)
        for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
            size_t n = strlen(names[k]);
            if ((size_t)(end - p) >= n && !memcmp(p, names[k], n))
                return true;
        }
    return false;
}

/* An instruction line: [@[!]%p] op operands[;] */
static void add_insn(reader *r, const char *s, const char *end, int line)
{
    ptx_function *f = r->fn;
    bool guarded = false, negated = false;
    const char *guard = NULL;
    size_t guard_len = 0;
    if (*s == '@') {
        guarded = true;
        negated = s + 1 < end && s[1] == '!';
        guard = s + 1 + negated;
        guard_len = word_len(s, end) - (size_t)(guard - s);
        if (guard_len && *guard == '%')
            guard++, guard_len--;
        else
            guard_len = 0;
        s += word_len(s, end);
        s = skip_space(s, end);
    }
    size_t n = word_len(s, end);
    if (n == 0 || !isalpha((unsigned char)*s)) {
        problem(r, line, "not an instruction", s, (size_t)(end - s));
        return;
    }
    if (r->total >= MAX_INSNS) {
        problem(r, line, "too many instructions, the rest skipped", s, n);
        return;
    }
    if (f->n_insns == r->cap_insns) {
        r->cap_insns = r->cap_insns ? 2 * r->cap_insns : 64;
        f->insns = xrealloc(f->insns, r->cap_insns * sizeof *f->insns);
    }
    imix_insn *in = &f->insns[f->n_insns];
    memset(in, 0, sizeof *in);
    snprintf(in->op, sizeof in->op, "%.*s", (int)n, s);
    in->file = r->file;
    in->line = r->line;
    in->outer_file = r->outer_file;
    in->outer_line = r->outer_line;
    in->guarded = guarded;
    in->guard_negated = negated;
    in->target = -1;
    if (strncmp(in->op, "bra", 3) == 0 && (in->op[3] == '\0' || in->op[3] == '.')) {
        const char *t = skip_space(s + n, end);
        size_t tn = word_len(t, end);
        if (tn) {
            if (r->n_branches == r->cap_branches) {
                r->cap_branches = r->cap_branches ? 2 * r->cap_branches : 32;
                r->branches = xrealloc(r->branches, r->cap_branches * sizeof *r->branches);
            }
            r->branches[r->n_branches++] = (branch){.label = copy(t, tn), .insn = f->n_insns};
        }
    }
    if (strncmp(in->op, "setmaxnreg.", 11) == 0)
        add_maxnreg(f, in, skip_space(s + n, end), end);
    read_operands(in, s + n, end, guard, guard_len);
    in->folded = folded_by_ptxas(in->op, s + n, end);
    const char *from = after_destination(s + n, end);
    in->folded_literal = in->folded && !strncmp(in->op, "mov.", 4) && from < end &&
                         (*from == '-' || isdigit((unsigned char)*from));
    in->args = args_hash(s + n, end);
    in->rare_path = names_rare_path(s + n, end);
    f->n_insns++;
    r->total++;
    r->continued = !memchr(s, ';', (size_t)(end - s));
}

/* `.loc 1 74 41[, function_name ..., inlined_at 1 74 41]` */
static void read_loc(reader *r, const char *s, const char *end)
{
    char buf[192];
    size_t n = (size_t)(end - s) < sizeof buf - 1 ? (size_t)(end - s) : sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    int file, line;
    if (sscanf(buf, ".loc %d %d", &file, &line) == 2 && file >= 0 && line >= 0) {
        r->file = r->outer_file = file;
        r->line = r->outer_line = line;
    }
    /* One level: the line of the function the helper was inlined into. */
    const char *at = strstr(buf, "inlined_at ");
    if (at && sscanf(at, "inlined_at %d %d", &file, &line) == 2 && file >= 0 && line >= 0) {
        r->outer_file = file;
        r->outer_line = line;
    }
}

/* `.file 1 "/path/x.cu"[, mtime, size]` */
static void read_file_directive(reader *r, const char *s, const char *end, int line)
{
    const char *p = skip_space(s + 5, end), *after = p;
    /* The text need not end in a NUL: the index is read within the line. */
    long index = 0;
    while (after < end && *after >= '0' && *after <= '9' && index <= 1000000)
        index = index * 10 + (*after++ - '0');
    const char *q1 = memchr(after, '"', (size_t)(end - after));
    const char *q2 = q1 ? memchr(q1 + 1, '"', (size_t)(end - q1 - 1)) : NULL;
    if (after == p || !q2 || index < 0 || index > 1000000) {
        problem(r, line, "a .file directive without an index and a path", s, (size_t)(end - s));
        return;
    }
    ptx_module *m = r->m;
    m->files = xrealloc(m->files, (m->n_files + 1) * sizeof *m->files);
    m->files[m->n_files++] =
        (ptx_file){.index = (int)index, .path = copy(q1 + 1, (size_t)(q2 - q1 - 1))};
}

/* A body line may hold several statements and scope braces: nvcc writes
 * `{ .reg .b64 %tmp;` ... `cvta.shared.u64 %rd1, %tmp; }` and
 * `{  cvt.rn.f16.f32 %rs3, %f9;}` for its own conversions. A brace inside
 * an instruction (a vector operand) is the instruction's: it runs to its
 * ';', over several lines if need be. */
static void body_line(reader *r, const char *s, const char *end, int line)
{
    if (r->continued) {
        if (r->fn && r->fn->n_insns && names_rare_path(s, end))
            r->fn->insns[r->fn->n_insns - 1].rare_path = true;
        const char *semi = memchr(s, ';', (size_t)(end - s));
        if (!semi)
            return;
        r->continued = false;
        s = semi + 1;
    }
    while (r->fn && (s = skip_space(s, end)) < end) {
        if (*s == '{' || *s == '}') {
            r->depth += *s++ == '{' ? 1 : -1;
            if (r->depth <= 0)
                end_function(r);
            continue;
        }
        const char *semi = memchr(s, ';', (size_t)(end - s));
        const char *stop = semi ? semi + 1 : end;
        size_t n = word_len(s, end);
        const char *after = skip_space(s + n, end);
        if (*s == '.') {
            if (directive(s, end, ".loc"))
                read_loc(r, s, end);
            s = stop; /* .reg, .shared, .local, .pragma, .maxntid ... */
            continue;
        }
        if (n > 1 && s[n - 1] == ':') { /* a label */
            add_label(r, s, n - 1);
            s += n;
            continue;
        }
        if (n && after < end && *after == ':') { /* `prototype_0 : .callprototype ...;` */
            r->continued = !semi;
            s = stop;
            continue;
        }
        add_insn(r, s, stop, line);
        s = stop;
    }
}

static void top_line(reader *r, const char *s, const char *end, int line)
{
    if (r->section >= 0) {
        for (const char *p = s; p < end; p++) {
            r->section += *p == '{';
            r->section -= *p == '}';
        }
        if (r->section <= 0 && memchr(s, '}', (size_t)(end - s)))
            r->section = -1;
        return;
    }
    if (r->header) {
        if (*s == '{') {
            r->header = false;
            r->depth = 1;
        } else if (memchr(s, ';', (size_t)(end - s))) {
            drop_declaration(r); /* over several lines: `.extern .func f\n(...\n);` */
        }
        return;
    }
    if (directive(s, end, ".target")) {
        const char *p = skip_space(s + 7, end);
        snprintf(r->m->target, sizeof r->m->target, "%.*s", (int)word_len(p, end), p);
    } else if (directive(s, end, ".file")) {
        read_file_directive(r, s, end, line);
    } else if (directive(s, end, ".section")) {
        r->section = memchr(s, '{', (size_t)(end - s)) ? 1 : 0;
    } else if (has_word(s, end, ".entry") || has_word(s, end, ".func")) {
        begin_function(r, s, end, line);
    }
}

void ptx_parse(const char *text, size_t len, ptx_module *out)
{
    memset(out, 0, sizeof *out);
    reader r = {.m = out, .section = -1};
    const char *p = text, *end = text + len;
    int line = 0;
    bool in_comment = false;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        line++;
        const char *s = p, *e = eol;
        p = eol < end ? eol + 1 : end;
        if (in_comment) {
            const char *close = NULL;
            for (const char *q = s; q + 1 < e && !close; q++)
                if (q[0] == '*' && q[1] == '/')
                    close = q + 2;
            if (!close)
                continue;
            in_comment = false;
            s = close;
        }
        for (const char *q = s; q + 1 < e; q++) { /* comments end the line's text */
            if (q[0] == '/' && q[1] == '/') {
                e = q;
                break;
            }
            if (q[0] == '/' && q[1] == '*') {
                e = q;
                in_comment = true;
                for (const char *c = q + 2; c + 1 < eol; c++)
                    if (c[0] == '*' && c[1] == '/') {
                        in_comment = false;
                        break;
                    }
                break;
            }
        }
        s = skip_space(s, e);
        while (e > s && isspace((unsigned char)e[-1]))
            e--;
        if (s == e)
            continue;
        if (r.fn && !r.header)
            body_line(&r, s, e, line);
        else
            top_line(&r, s, e, line);
    }
    if (r.fn) {
        if (!r.header)
            problem(&r, line, "the last function has no closing brace", r.fn->name,
                    strlen(r.fn->name));
        end_function(&r);
    }
    free(r.labels);
    free(r.branches);
}

void ptx_module_free(ptx_module *m)
{
    for (size_t i = 0; i < m->n_functions; i++) {
        free(m->functions[i].name);
        free(m->functions[i].insns);
    }
    free(m->functions);
    for (size_t i = 0; i < m->n_files; i++)
        free(m->files[i].path);
    free(m->files);
    memset(m, 0, sizeof *m);
}

const ptx_function *ptx_find(const ptx_module *m, const char *name)
{
    for (size_t i = 0; i < m->n_functions; i++)
        if (strcmp(m->functions[i].name, name) == 0)
            return &m->functions[i];
    return NULL;
}

const char *ptx_file_path(const ptx_module *m, int index)
{
    for (size_t i = 0; i < m->n_files; i++)
        if (m->files[i].index == index)
            return m->files[i].path;
    return NULL;
}
