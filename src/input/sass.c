/* sass: a line-at-a-time reader of SASS listings.
 *
 * cuobjdump -sass names each function `Function : NAME` under a
 * `code for sm_XX` (or `arch = sm_XX`) header; nvdisasm opens one with the
 * label `.text.NAME:`. Either way an instruction is
 *   <addr in a comment>  [{] [@[!]P0] OPCODE[.MODS] operands ;  [<encoding comment>]
 * and a line that is only an encoding comment is skipped. A branch names
 * its target by address (cuobjdump) or by a `.L_x_N` label (nvdisasm);
 * targets are resolved when the function ends. With -g or -gi nvdisasm
 * puts `//## File "PATH", line N` before the instructions of a line; -gi
 * adds `inlined at "PATH", line M` and prints a helper's frames innermost
 * first, so the first line of such a group is where the instruction was
 * written and the last is the kernel's own line that reached it. Linear
 * in the input. */
#include "input/sass.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

#define MAX_INSNS (1u << 24)

typedef struct pending {
    size_t insn;
    unsigned long addr; /* or: */
    char label[48];
} pending;

typedef struct reader {
    sass_listing *l;
    size_t cap_functions, cap_insns;
    sass_function *fn;
    char arch[16];
    unsigned long *addrs; /* of fn's instructions */
    pending *branches;
    size_t n_branches, cap_branches;
    struct {
        char name[48];
        size_t at;
    } * labels;
    size_t n_labels, cap_labels;
    size_t total;
    /* The position `//## File` lines give the next instructions. */
    int file, line, outer_file, outer_line;
    bool in_group; /* the last line read was a `//## File` line */
} reader;

static void problem(reader *r, int line, const char *what, const char *s, size_t n)
{
    if (r->l->problem_line)
        return;
    r->l->problem_line = line;
    snprintf(r->l->problem, sizeof r->l->problem, "%s: '%.*s'", what, (int)(n > 40 ? 40 : n), s);
}

static const char *skip_space(const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s))
        s++;
    return s;
}

static bool starts(const char *s, const char *end, const char *prefix)
{
    size_t k = strlen(prefix);
    return (size_t)(end - s) >= k && memcmp(s, prefix, k) == 0;
}

static void end_function(reader *r)
{
    sass_function *f = r->fn;
    if (!f)
        return;
    for (size_t b = 0; b < r->n_branches; b++) {
        const pending *p = &r->branches[b];
        int32_t target = -1;
        if (p->label[0]) {
            for (size_t i = 0; i < r->n_labels && target < 0; i++)
                if (strcmp(r->labels[i].name, p->label) == 0)
                    target = (int32_t)r->labels[i].at;
        } else {
            size_t lo = 0, hi = f->n_insns; /* addresses ascend */
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (r->addrs[mid] < p->addr)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo < f->n_insns && r->addrs[lo] == p->addr)
                target = (int32_t)lo;
        }
        f->insns[p->insn].target = target;
    }
    r->n_branches = r->n_labels = 0;
    r->fn = NULL;
}

static void begin_function(reader *r, const char *name, size_t n, int line)
{
    end_function(r);
    if (n == 0)
        return;
    sass_listing *l = r->l;
    if (l->n_functions == r->cap_functions) {
        r->cap_functions = r->cap_functions ? 2 * r->cap_functions : 16;
        l->functions = xrealloc(l->functions, r->cap_functions * sizeof *l->functions);
    }
    sass_function *f = &l->functions[l->n_functions++];
    memset(f, 0, sizeof *f);
    f->name = xmalloc(n + 1);
    memcpy(f->name, name, n);
    f->name[n] = '\0';
    snprintf(f->arch, sizeof f->arch, "%s", r->arch);
    f->line = line;
    r->fn = f;
    r->file = r->line = r->outer_file = r->outer_line = 0;
    r->cap_insns = 0;
    free(r->addrs);
    r->addrs = NULL;
}

static size_t token_len(const char *s, const char *end)
{
    size_t n = 0;
    while (s + n < end && !isspace((unsigned char)s[n]) && s[n] != ';' && s[n] != ',')
        n++;
    return n;
}

/* The branch target: the last operand that is an address or a label. */
static void note_target(reader *r, const char *ops, const char *end)
{
    pending p = {.insn = r->fn->n_insns};
    bool found = false;
    for (const char *s = skip_space(ops, end); s < end;) {
        size_t n = token_len(s, end);
        const char *t = s;
        size_t tn = n;
        if (tn > 3 && t[0] == '`' && t[1] == '(' && t[tn - 1] == ')') { /* nvdisasm: `(.L_x_0) */
            t += 2;
            tn -= 3;
        }
        if (n > 2 && s[0] == '0' && s[1] == 'x') {
            p.addr = strtoul(s, NULL, 16);
            p.label[0] = '\0';
            found = true;
        } else if (tn > 2 && t[0] == '.' && t[1] == 'L' && tn < sizeof p.label) {
            memcpy(p.label, t, tn);
            p.label[tn] = '\0';
            found = true;
        }
        s = skip_space(s + (n ? n : 1), end);
        while (s < end && (*s == ',' || *s == ';'))
            s = skip_space(s + 1, end);
    }
    if (!found)
        return;
    if (r->n_branches == r->cap_branches) {
        r->cap_branches = r->cap_branches ? 2 * r->cap_branches : 32;
        r->branches = xrealloc(r->branches, r->cap_branches * sizeof *r->branches);
    }
    r->branches[r->n_branches++] = p;
}

static void add_insn(reader *r, unsigned long addr, const char *s, const char *end, int line)
{
    s = skip_space(s, end);
    if (s < end && *s == '{') /* dual issue of older archs */
        s = skip_space(s + 1, end);
    for (const char *q = s; q < end; q++)
        if (*q == ';') {
            end = q;
            break;
        }
    bool guarded = false;
    if (s < end && *s == '@') {
        size_t g = token_len(s, end);
        /* @PT and @UPT are always true: no guard */
        guarded = !((g == 3 && memcmp(s, "@PT", 3) == 0) || (g == 4 && memcmp(s, "@UPT", 4) == 0));
        s = skip_space(s + g, end);
    }
    size_t n = token_len(s, end);
    if (n == 0 || !isupper((unsigned char)*s)) {
        problem(r, line, "not an instruction", s, (size_t)(end - s));
        return;
    }
    if (!r->fn) {
        problem(r, line, "an instruction outside any function", s, n);
        return;
    }
    if (r->total >= MAX_INSNS) {
        problem(r, line, "too many instructions, the rest skipped", s, n);
        return;
    }
    sass_function *f = r->fn;
    if (f->n_insns && addr <= r->addrs[f->n_insns - 1]) {
        problem(r, line, "addresses out of order", s, n);
        return;
    }
    if (f->n_insns == r->cap_insns) {
        r->cap_insns = r->cap_insns ? 2 * r->cap_insns : 64;
        f->insns = xrealloc(f->insns, r->cap_insns * sizeof *f->insns);
        r->addrs = xrealloc(r->addrs, r->cap_insns * sizeof *r->addrs);
    }
    imix_insn *in = &f->insns[f->n_insns];
    memset(in, 0, sizeof *in);
    snprintf(in->op, sizeof in->op, "%.*s", (int)n, s);
    in->guarded = guarded;
    in->target = -1;
    in->file = r->file;
    in->line = r->line;
    in->outer_file = r->outer_file;
    in->outer_line = r->outer_line;
    if (starts(s, end, "BRA") || starts(s, end, "JMP") || starts(s, end, "CALL"))
        note_target(r, s + n, end);
    /* ptxas moves constants with HFMA2.MMA Rd, -RZ, RZ, imm: no arithmetic */
    if (starts(s, end, "HFMA2")) {
        const char *ops = s + n;
        for (const char *q = ops; q + 7 <= end && !in->move; q++)
            in->move = memcmp(q, "-RZ, RZ", 7) == 0;
    }
    r->addrs[f->n_insns] = addr;
    f->n_insns++;
    r->total++;
}

static void add_label(reader *r, const char *s, size_t n)
{
    if (!r->fn || n >= sizeof r->labels[0].name)
        return;
    if (r->n_labels == r->cap_labels) {
        r->cap_labels = r->cap_labels ? 2 * r->cap_labels : 32;
        r->labels = xrealloc(r->labels, r->cap_labels * sizeof *r->labels);
    }
    memcpy(r->labels[r->n_labels].name, s, n);
    r->labels[r->n_labels].name[n] = '\0';
    r->labels[r->n_labels++].at = r->fn->n_insns;
}

static int file_index(sass_listing *l, const char *path, size_t n)
{
    for (size_t i = 0; i < l->n_files; i++)
        if (strlen(l->files[i]) == n && memcmp(l->files[i], path, n) == 0)
            return (int)i + 1;
    if (l->n_files >= 1u << 20)
        return 0;
    l->files = xrealloc(l->files, (l->n_files + 1) * sizeof *l->files);
    l->files[l->n_files] = xmalloc(n + 1);
    memcpy(l->files[l->n_files], path, n);
    l->files[l->n_files][n] = '\0';
    return (int)++l->n_files;
}

/* `//## File "PATH", line N[ inlined at "PATH", line M]` */
static void read_position(reader *r, const char *s, const char *end, int line)
{
    const char *q = skip_space(s + 9, end); /* past "//## File" */
    const char *close = q < end && *q == '"' ? memchr(q + 1, '"', (size_t)(end - q - 1)) : NULL;
    const char *n = close ? skip_space(close + 1, end) : end;
    if (n < end && *n == ',')
        n = skip_space(n + 1, end);
    if (!close || !starts(n, end, "line ") || n + 5 >= end || !isdigit((unsigned char)n[5])) {
        problem(r, line, "a //## File line without a path and a line", s, (size_t)(end - s));
        return;
    }
    long ln = 0;
    for (const char *d = n + 5; d < end && isdigit((unsigned char)*d) && ln < 1 << 30; d++)
        ln = 10 * ln + (*d - '0');
    int file = file_index(r->l, q + 1, (size_t)(close - q - 1));
    int at = ln > 0 && ln < 1 << 30 ? (int)ln : 0;
    if (!r->in_group) {
        r->file = file;
        r->line = at;
    }
    r->outer_file = file;
    r->outer_line = at;
    r->in_group = true;
}

static void read_line(reader *r, const char *s, const char *end, int line)
{
    if (starts(s, end, "//## File")) {
        read_position(r, s, end, line);
        return;
    }
    r->in_group = false;
    if (starts(s, end, "/*")) {
        const char *h = s + 2, *p = h;
        while (p < end && isxdigit((unsigned char)*p))
            p++;
        if (p == h || !starts(p, end, "*/"))
            return; /* an encoding or other comment */
        add_insn(r, strtoul(h, NULL, 16), p + 2, end, line);
        return;
    }
    if (starts(s, end, "Function :") || starts(s, end, "Function:")) {
        const char *name = skip_space(memchr(s, ':', (size_t)(end - s)) + 1, end);
        begin_function(r, name, token_len(name, end), line);
        return;
    }
    if (starts(s, end, "arch =") || starts(s, end, "code for ")) {
        const char *a = s;
        while (a < end && !starts(a, end, "sm_"))
            a++;
        if (a < end)
            snprintf(r->arch, sizeof r->arch, "%.*s", (int)token_len(a, end), a);
        return;
    }
    if (end > s && end[-1] == ':') {
        if (starts(s, end, ".text."))
            begin_function(r, s + 6, (size_t)(end - s - 7), line);
        else if (starts(s, end, ".L"))
            add_label(r, s, (size_t)(end - s - 1));
    }
}

void sass_parse(const char *text, size_t len, sass_listing *out)
{
    memset(out, 0, sizeof *out);
    reader r = {.l = out};
    const char *p = text, *end = text + len;
    int line = 0;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        line++;
        const char *s = skip_space(p, eol), *e = eol;
        p = eol < end ? eol + 1 : end;
        while (e > s && isspace((unsigned char)e[-1]))
            e--;
        if (s < e)
            read_line(&r, s, e, line);
    }
    end_function(&r);
    free(r.addrs);
    free(r.branches);
    free(r.labels);
}

void sass_listing_free(sass_listing *l)
{
    for (size_t i = 0; i < l->n_functions; i++) {
        free(l->functions[i].name);
        free(l->functions[i].insns);
    }
    free(l->functions);
    for (size_t i = 0; i < l->n_files; i++)
        free(l->files[i]);
    free(l->files);
    memset(l, 0, sizeof *l);
}

const char *sass_file_path(const sass_listing *l, int index)
{
    return index >= 1 && (size_t)index <= l->n_files ? l->files[index - 1] : NULL;
}

const sass_function *sass_find(const sass_listing *l, const char *name, const char *arch)
{
    for (size_t i = 0; i < l->n_functions; i++)
        if (strcmp(l->functions[i].name, name) == 0 &&
            (!arch || strcmp(l->functions[i].arch, arch) == 0))
            return &l->functions[i];
    return NULL;
}
