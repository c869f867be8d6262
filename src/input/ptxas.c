/* ptxas: turn the resource-usage lines of `nvcc -Xptxas -v` (ptxas, nvlink,
 * NVRTC, nvJitLink) into one record per (arch, kernel).
 *
 * The log is a loose conversation rather than a grammar, so the parser is a
 * line-at-a-time state machine that looks for the `ptxas info :` /
 * `nvlink info :` / `info :` markers anywhere in a line (build tools prefix
 * them with timestamps, `1>`, progress counters ...). The facts it relies on,
 * all seen in real logs (tests/data/ptxas):
 *
 *  - ptxas prints one block per compiled module. `N bytes gmem` opens the
 *    block; the arch is only named later, by `Compiling entry function 'K'
 *    for 'sm_XX'`, so device functions listed before the first entry
 *    ("pending" below) learn their arch from it.
 *  - `Function properties for F` is followed by an unmarked line
 *    `N bytes stack frame, ...` (NVRTC prefixes it with `ptxas .`).
 *  - `Used N registers, ...` belongs to the last entry of the module, even
 *    when properties of called device functions were printed in between
 *    (CUDA 4-era logs do that).
 *  - nvlink (-rdc) prints `Function properties for 'K':` then `used N
 *    registers, ...`, suffixed by `(target: sm_XX)` since about CUDA 11;
 *    older nvlink and nvJitLink print no arch at all. Link numbers include
 *    callees, so they replace what ptxas said; they are applied after the
 *    whole log is read.
 *
 * Every scan is bounded by the line, and each byte is looked at a constant
 * number of times, so parsing is linear in the input. */
#include "input/ptxas.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

/* A flood of junk must not turn into a flood of allocations. */
#define MAX_WARNINGS 1000
/* Enough of an offending item to find it in the log. */
#define EXCERPT_MAX 64

enum field {
    F_REGS,
    F_SMEM,
    F_STACK,
    F_CUMSTACK,
    F_SPILL_ST,
    F_SPILL_LD,
    F_LMEM,
    F_BARRIERS,
    F_TEX,
    F_SURF,
    F_SAMP,
    F_GMEM,
    F_COUNT
};

/* Values with a bit per value saying whether the log printed it, so merges
 * and overrides only touch what was actually said. */
typedef struct res {
    int64_t v[F_COUNT];
    int64_t cmem[32];
    uint32_t set;
    uint32_t cmem_set;
} res;

typedef struct rec {
    char *name;
    uint64_t name_hash;
    char arch[16];
    bool is_entry;
    bool from_nvlink;
    bool dead; /* merged into `merged`, dropped from the output */
    int line;
    size_t merged;
    size_t name_next; /* next record with the same name, creation order */
    res r;
} rec;

typedef struct link_block {
    char *name;
    char arch[16];
    bool has_target;
    int line;
    res r;
} link_block;

typedef struct name_slot {
    uint64_t hash;
    size_t head, tail, cursor; /* record indices + 1; 0 = none */
} name_slot;

#define NONE ((size_t)-1)

typedef struct parser {
    rec *recs;
    size_t n_recs, cap_recs;
    size_t *table; /* (arch, name) -> record index + 1, open addressing */
    size_t table_cap;

    /* The module (one ptxas compilation) being read. */
    res mod;
    char mod_arch[16];
    bool mod_arch_known;
    size_t *pending; /* records named before the module's arch was */
    size_t n_pending, cap_pending;
    size_t cur_entry; /* receives `Used ...` lines */
    size_t props;     /* receives `... bytes stack frame` lines */

    link_block *links;
    size_t n_links, cap_links;
    res link_mod; /* `nvlink info : N bytes gmem` for link_mod_arch */
    char link_mod_arch[16];
    bool link_mod_valid;

    name_slot *names; /* built only when a link block names no arch */
    size_t names_cap, names_used;
    bool names_built;

    ptxas_log *out;
    size_t cap_warnings;
    bool warnings_capped;
} parser;

/* ---- small helpers ---------------------------------------------------- */

static bool is_space(char c)
{
    return c == ' ' || c == '\t';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_word(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static void trim(const char **b, const char **e)
{
    while (*b < *e && is_space(**b))
        (*b)++;
    while (*e > *b && is_space((*e)[-1]))
        (*e)--;
}

static bool starts_with(const char *b, const char *e, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(e - b) >= n && memcmp(b, lit, n) == 0;
}

/* `used` and `Used`: ptxas capitalises, nvlink does not. */
static bool starts_with_used(const char *b, const char *e)
{
    return e - b >= 5 && (b[0] == 'u' || b[0] == 'U') && memcmp(b + 1, "sed", 3) == 0 &&
           is_space(b[4]);
}

static bool equals(const char *b, const char *e, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(e - b) == n && memcmp(b, lit, n) == 0;
}

static const char *find(const char *b, const char *e, const char *lit)
{
    return memmem(b, (size_t)(e - b), lit, strlen(lit));
}

static uint64_t fnv(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

#define FNV_SEED 14695981039346656037ULL

static uint64_t key_hash(const char *arch, const char *name)
{
    uint64_t h = fnv(FNV_SEED, arch, strlen(arch));
    h = fnv(h, "\xff", 1); /* no name/arch split can collide with another */
    return fnv(h, name, strlen(name));
}

/* ---- warnings ---------------------------------------------------------- */

static void warn(parser *p, int line, const char *what, const char *b, const char *e)
{
    ptxas_log *o = p->out;
    if (p->warnings_capped)
        return;
    if (o->n_warnings == MAX_WARNINGS) {
        p->warnings_capped = true;
        what = "too many warnings; the rest were dropped";
        b = e = NULL;
    }
    sbuf s;
    sbuf_init(&s);
    sbuf_add(&s, what);
    if (b) {
        /* Quote a bounded, printable excerpt: the text may be binary junk
         * and ends up on a terminal. */
        sbuf_add(&s, " '");
        size_t n = (size_t)(e - b);
        for (size_t i = 0; i < n && i < EXCERPT_MAX; i++) {
            unsigned char c = (unsigned char)b[i];
            sbuf_addc(&s, c >= 0x20 && c < 0x7f ? (char)c : '?');
        }
        if (n > EXCERPT_MAX)
            sbuf_add(&s, "...");
        sbuf_addc(&s, '\'');
    }
    if (o->n_warnings == p->cap_warnings) {
        p->cap_warnings = p->cap_warnings ? 2 * p->cap_warnings : 8;
        o->warnings = xrealloc(o->warnings, p->cap_warnings * sizeof *o->warnings);
    }
    o->warnings[o->n_warnings].line = line;
    o->warnings[o->n_warnings].text = sbuf_take(&s);
    o->n_warnings++;
}

/* ---- records and the (arch, name) table -------------------------------- */

static size_t live(const parser *p, size_t i)
{
    while (i != NONE && p->recs[i].dead)
        i = p->recs[i].merged;
    return i;
}

static void table_put(parser *p, size_t idx);

static void table_grow(parser *p)
{
    size_t old_cap = p->table_cap;
    size_t *old = p->table;
    p->table_cap = old_cap ? 2 * old_cap : 64;
    p->table = xcalloc(p->table_cap, sizeof *p->table);
    for (size_t i = 0; i < old_cap; i++)
        if (old[i])
            table_put(p, old[i] - 1);
    free(old);
}

static void table_put(parser *p, size_t idx)
{
    const rec *r = &p->recs[idx];
    size_t mask = p->table_cap - 1;
    for (size_t s = key_hash(r->arch, r->name) & mask;; s = (s + 1) & mask) {
        if (!p->table[s]) {
            p->table[s] = idx + 1;
            return;
        }
    }
}

static void table_insert(parser *p, size_t idx)
{
    /* Keys are unique, so records bound the load; keep it under a half. */
    if (p->table_cap == 0 || 2 * (p->n_recs + 1) > p->table_cap)
        table_grow(p);
    table_put(p, idx);
}

static size_t table_find(const parser *p, const char *arch, const char *name)
{
    if (!p->table_cap)
        return NONE;
    size_t mask = p->table_cap - 1;
    for (size_t s = key_hash(arch, name) & mask; p->table[s]; s = (s + 1) & mask) {
        const rec *r = &p->recs[p->table[s] - 1];
        if (strcmp(r->arch, arch) == 0 && strcmp(r->name, name) == 0)
            return p->table[s] - 1;
    }
    return NONE;
}

static void res_clear(res *r)
{
    memset(r, 0, sizeof *r);
}

/* Values from `b` that were printed win over those in `a`. */
static void res_overlay(res *a, const res *b)
{
    for (int f = 0; f < F_COUNT; f++)
        if (b->set & (1u << f))
            a->v[f] = b->v[f];
    for (int i = 0; i < 32; i++)
        if (b->cmem_set & (1u << i))
            a->cmem[i] = b->cmem[i];
    a->set |= b->set;
    a->cmem_set |= b->cmem_set;
}

/* A fresh compilation: forget earlier numbers, inherit the module's
 * gmem and constant banks (they are the kernel's too). */
static void rec_reset(parser *p, rec *r)
{
    res_clear(&r->r);
    r->r.v[F_GMEM] = p->mod.v[F_GMEM];
    r->r.set = p->mod.set & (1u << F_GMEM);
    memcpy(r->r.cmem, p->mod.cmem, sizeof r->r.cmem);
    r->r.cmem_set = p->mod.cmem_set;
}

static size_t rec_new(parser *p, const char *name, size_t nlen, const char *arch, bool entry,
                      int line)
{
    if (p->n_recs == p->cap_recs) {
        p->cap_recs = p->cap_recs ? 2 * p->cap_recs : 16;
        p->recs = xrealloc(p->recs, p->cap_recs * sizeof *p->recs);
    }
    size_t idx = p->n_recs++;
    rec *r = &p->recs[idx];
    memset(r, 0, sizeof *r);
    r->name = xstrndup(name, nlen);
    /* A NUL inside the log would cut the name short; hash what is kept. */
    r->name_hash = fnv(FNV_SEED, r->name, strlen(r->name));
    snprintf(r->arch, sizeof r->arch, "%s", arch);
    r->is_entry = entry;
    r->line = line;
    r->merged = NONE;
    r->name_next = 0;
    rec_reset(p, r);
    return idx;
}

/* Give a pending record its arch; if that (arch, name) is already known
 * (the same function compiled again), the new numbers replace the old. */
static void rec_settle(parser *p, size_t idx, const char *arch)
{
    rec *r = &p->recs[idx];
    size_t j = table_find(p, arch, r->name);
    if (j == NONE) {
        snprintf(r->arch, sizeof r->arch, "%s", arch);
        table_insert(p, idx);
        return;
    }
    rec *old = &p->recs[j];
    old->r = r->r;
    old->is_entry = old->is_entry || r->is_entry;
    old->line = r->line;
    free(r->name);
    r->name = NULL;
    r->dead = true;
    r->merged = j;
}

static void flush_pending(parser *p, const char *arch)
{
    for (size_t i = 0; i < p->n_pending; i++)
        if (!p->recs[p->pending[i]].dead)
            rec_settle(p, p->pending[i], arch);
    p->n_pending = 0;
}

static void module_begin(parser *p)
{
    flush_pending(p, ""); /* never learnt their arch */
    res_clear(&p->mod);
    p->mod_arch_known = false;
    p->mod_arch[0] = '\0';
    p->cur_entry = p->props = NONE;
}

static void set_arch(parser *p, int line, char dst[16], const char *b, const char *e)
{
    size_t n = (size_t)(e - b);
    if (n >= 16) {
        warn(p, line, "arch name too long, truncated:", b, e);
        n = 15;
    }
    memcpy(dst, b, n);
    dst[n] = '\0';
}

/* A function was named: find or make its record. `arch` NULL = not known
 * yet in this module. */
static size_t name_function(parser *p, const char *name, size_t nlen, const char *arch, bool entry,
                            int line)
{
    if (!arch) {
        size_t idx = rec_new(p, name, nlen, "", entry, line);
        if (p->n_pending == p->cap_pending) {
            p->cap_pending = p->cap_pending ? 2 * p->cap_pending : 16;
            p->pending = xrealloc(p->pending, p->cap_pending * sizeof *p->pending);
        }
        p->pending[p->n_pending++] = idx;
        return idx;
    }
    char *tmp = xstrndup(name, nlen);
    size_t idx = table_find(p, arch, tmp);
    free(tmp);
    if (idx == NONE) {
        idx = rec_new(p, name, nlen, arch, entry, line);
        table_insert(p, idx);
        return idx;
    }
    rec *r = &p->recs[idx];
    if (entry || !r->is_entry) {
        /* Compiled again (another TU, another build in the same log). The
         * entry's own `Function properties` line lands in the last branch. */
        rec_reset(p, r);
        r->is_entry = r->is_entry || entry;
        r->line = line;
    }
    return idx;
}

/* ---- resource lists ------------------------------------------------------ */

/* "N" or "N+M" (pre-Fermi logs print static+param shared memory that way). */
static bool parse_number(const char **pb, const char *e, int64_t *out, bool *overflow)
{
    const char *b = *pb;
    int64_t total = 0;
    bool any = false;
    for (;;) {
        if (b >= e || !is_digit(*b))
            break;
        int64_t n = 0;
        while (b < e && is_digit(*b)) {
            int d = *b - '0';
            if (n > (INT64_MAX - d) / 10)
                *overflow = true;
            else
                n = n * 10 + d;
            b++;
        }
        if (total > INT64_MAX - n)
            *overflow = true;
        else
            total += n;
        any = true;
        if (b + 1 < e && *b == '+' && is_digit(b[1]))
            b++;
        else
            break;
    }
    *pb = b;
    *out = total;
    return any;
}

static void parse_item(parser *p, int line, const char *b, const char *e, res *dst)
{
    const char *ib = b, *ie = e;
    trim(&b, &e);
    if (b == e)
        return;
    if (starts_with_used(b, e)) {
        b += 4;
        while (b < e && is_space(*b))
            b++;
    }
    int64_t n;
    bool overflow = false;
    if (!parse_number(&b, e, &n, &overflow)) {
        warn(p, line, "unrecognised resource item", ib, ie);
        return;
    }
    while (b < e && is_space(*b))
        b++;

    int f = -1;
    bool is_int = false;
    if (equals(b, e, "registers") || equals(b, e, "register")) {
        f = F_REGS;
        is_int = true;
    } else if (equals(b, e, "barriers") || equals(b, e, "barrier")) {
        f = F_BARRIERS;
        is_int = true;
    } else if (equals(b, e, "textures") || equals(b, e, "texture")) {
        f = F_TEX;
        is_int = true;
    } else if (equals(b, e, "surfaces") || equals(b, e, "surface")) {
        f = F_SURF;
        is_int = true;
    } else if (equals(b, e, "samplers") || equals(b, e, "sampler")) {
        f = F_SAMP;
        is_int = true;
    } else if (equals(b, e, "bytes smem")) {
        f = F_SMEM;
    } else if (equals(b, e, "bytes lmem")) {
        f = F_LMEM;
    } else if (equals(b, e, "bytes gmem")) {
        f = F_GMEM;
    } else if (equals(b, e, "bytes stack frame") || equals(b, e, "stack")) {
        f = F_STACK; /* `N stack` is nvlink's, callees included */
    } else if (equals(b, e, "bytes spill stores")) {
        f = F_SPILL_ST;
    } else if (equals(b, e, "bytes spill loads")) {
        f = F_SPILL_LD;
    } else if (equals(b, e, "bytes cumulative stack size")) {
        f = F_CUMSTACK;
    } else if (starts_with(b, e, "bytes cmem[") && e[-1] == ']') {
        const char *q = b + strlen("bytes cmem[");
        int64_t bank;
        bool bad = false;
        const char *qe = q;
        if (!parse_number(&qe, e - 1, &bank, &bad) || qe != e - 1 || bad || bank >= 32) {
            warn(p, line, "unrecognised constant bank", ib, ie);
            return;
        }
        if (overflow) {
            warn(p, line, "number out of range", ib, ie);
            return;
        }
        dst->cmem[bank] = n;
        dst->cmem_set |= 1u << bank;
        return;
    } else {
        warn(p, line, "unrecognised resource item", ib, ie);
        return;
    }
    if (overflow || (is_int && n > INT_MAX)) {
        warn(p, line, "number out of range", ib, ie);
        return;
    }
    dst->v[f] = n;
    dst->set |= 1u << f;
}

static void parse_items(parser *p, int line, const char *b, const char *e, res *dst)
{
    while (b < e) {
        const char *c = memchr(b, ',', (size_t)(e - b));
        const char *ie = c ? c : e;
        parse_item(p, line, b, ie, dst);
        b = c ? c + 1 : e;
    }
}

/* ---- ptxas lines --------------------------------------------------------- */

/* `N bytes stack frame, ...`, wherever the number starts (NVRTC and build
 * tools put their own prefixes in front). */
static void stack_frame_line(parser *p, int line, const char *b, const char *e, const char *at)
{
    const char *s = at;
    while (s > b && is_space(s[-1]))
        s--;
    while (s > b && (is_digit(s[-1]) || s[-1] == '+'))
        s--;
    size_t t = live(p, p->props);
    if (t == NONE) {
        warn(p, line, "stack frame line without a function:", s, e);
        return;
    }
    parse_items(p, line, s, e, &p->recs[t].r);
}

/* Name after `Function properties for`: plain (ptxas), quoted with a
 * trailing colon (nvlink), or a demangled signature with spaces. */
static bool props_name(const char *b, const char *e, const char **nb, const char **ne)
{
    trim(&b, &e);
    if (e > b && e[-1] == ':')
        e--;
    if (e - b >= 2 && *b == '\'' && e[-1] == '\'') {
        b++;
        e--;
    }
    *nb = b;
    *ne = e;
    return b < e;
}

static void compiling_line(parser *p, int line, const char *b, const char *e)
{
    b += strlen("Compiling entry function");
    while (b < e && is_space(*b))
        b++;
    const char *nb, *ne;
    if (b < e && *b == '\'') {
        nb = b + 1;
        ne = memchr(nb, '\'', (size_t)(e - nb));
        if (!ne) {
            warn(p, line, "unterminated kernel name:", b, e);
            return;
        }
        b = ne + 1;
    } else {
        nb = b;
        while (b < e && !is_space(*b))
            b++;
        ne = b;
    }
    if (nb == ne) {
        warn(p, line, "entry function without a name:", b, e);
        return;
    }

    char arch[16];
    bool have_arch = false;
    const char *f = find(b, e, "for '");
    if (f) {
        const char *ab = f + 5;
        const char *ae = memchr(ab, '\'', (size_t)(e - ab));
        if (ae && ae > ab) {
            set_arch(p, line, arch, ab, ae);
            have_arch = true;
        }
    }
    if (have_arch) {
        if (!p->mod_arch_known) {
            flush_pending(p, arch);
            p->mod_arch_known = true;
        }
        memcpy(p->mod_arch, arch, sizeof arch);
    }
    size_t idx =
        name_function(p, nb, (size_t)(ne - nb), p->mod_arch_known ? p->mod_arch : NULL, true, line);
    p->cur_entry = p->props = idx;
}

static void ptxas_body(parser *p, int line, const char *b, const char *e)
{
    const char *at;
    if (starts_with(b, e, "Compiling entry function")) {
        compiling_line(p, line, b, e);
    } else if (starts_with(b, e, "Function properties for")) {
        const char *nb, *ne;
        if (!props_name(b + strlen("Function properties for"), e, &nb, &ne)) {
            warn(p, line, "function properties without a name:", b, e);
            return;
        }
        p->props = name_function(p, nb, (size_t)(ne - nb), p->mod_arch_known ? p->mod_arch : NULL,
                                 false, line);
    } else if (starts_with_used(b, e)) {
        size_t t = live(p, p->cur_entry != NONE ? p->cur_entry : p->props);
        if (t == NONE) {
            warn(p, line, "resource line without a function:", b, e);
            return;
        }
        parse_items(p, line, b, e, &p->recs[t].r);
    } else if (find(b, e, "bytes gmem")) {
        module_begin(p);
        parse_items(p, line, b, e, &p->mod);
    } else if ((at = find(b, e, "bytes stack frame")) != NULL) {
        stack_frame_line(p, line, b, e, at);
    }
    /* Anything else (compile time, register-limit notes, performance
     * advisories) says nothing about resources. */
}

/* ---- link lines (nvlink, nvJitLink, driver JIT) ------------------------------ */

static void link_body(parser *p, int line, const char *b, const char *e)
{
    char target[16] = "";
    bool has_target = false;
    const char *t = find(b, e, "(target:");
    if (t) {
        const char *ab = t + strlen("(target:");
        const char *ae = memchr(ab, ')', (size_t)(e - ab));
        if (ae) {
            trim(&ab, &ae);
            if (ab < ae) {
                set_arch(p, line, target, ab, ae);
                has_target = true;
            }
        }
        e = t;
        trim(&b, &e);
    }

    if (starts_with(b, e, "Compiling entry function")) {
        compiling_line(p, line, b, e);
    } else if (starts_with(b, e, "Function properties for")) {
        const char *nb, *ne;
        if (!props_name(b + strlen("Function properties for"), e, &nb, &ne)) {
            warn(p, line, "function properties without a name:", b, e);
            return;
        }
        if (p->n_links == p->cap_links) {
            p->cap_links = p->cap_links ? 2 * p->cap_links : 16;
            p->links = xrealloc(p->links, p->cap_links * sizeof *p->links);
        }
        link_block *l = &p->links[p->n_links++];
        memset(l, 0, sizeof *l);
        l->name = xstrndup(nb, (size_t)(ne - nb));
        memcpy(l->arch, target, sizeof target);
        l->has_target = has_target;
        l->line = line;
        if (p->link_mod_valid && strcmp(p->link_mod_arch, target) == 0) {
            l->r.v[F_GMEM] = p->link_mod.v[F_GMEM];
            l->r.set = p->link_mod.set & (1u << F_GMEM);
            memcpy(l->r.cmem, p->link_mod.cmem, sizeof l->r.cmem);
            l->r.cmem_set = p->link_mod.cmem_set;
        }
    } else if (starts_with_used(b, e)) {
        if (!p->n_links) {
            warn(p, line, "link resource line without a function:", b, e);
            return;
        }
        parse_items(p, line, b, e, &p->links[p->n_links - 1].r);
    } else if (find(b, e, "bytes gmem")) {
        res_clear(&p->link_mod);
        parse_items(p, line, b, e, &p->link_mod);
        memcpy(p->link_mod_arch, target, sizeof target);
        p->link_mod_valid = true;
    }
}

/* ---- markers ------------------------------------------------------------- */

enum marker { M_NONE, M_PTXAS, M_LINK };

/* Finds `<tool> info <spaces> :` anywhere in the line. Each `info` is
 * checked in constant time past its own spaces, so this stays linear. */
static enum marker find_marker(const char *b, const char *e, const char **body)
{
    const char *s = b;
    while (s < e) {
        const char *i = find(s, e, "info");
        if (!i)
            return M_NONE;
        s = i + 4;
        if (i > b && is_word(i[-1]))
            continue;
        const char *c = s;
        while (c < e && is_space(*c))
            c++;
        if (c >= e || *c != ':')
            continue;
        *body = c + 1;
        const char *w = i;
        while (w > b && is_space(w[-1]))
            w--;
        const char *we = w;
        while (w > b && is_word(w[-1]))
            w--;
        if (equals(w, we, "ptxas"))
            return M_PTXAS;
        /* nvlink, or bare `info :` from nvJitLink and the driver JIT. */
        return M_LINK;
    }
    return M_NONE;
}

static void handle_line(parser *p, int line, const char *b, const char *e)
{
    const char *body = NULL;
    enum marker m = find_marker(b, e, &body);
    if (m == M_NONE) {
        const char *at = find(b, e, "bytes stack frame");
        if (at)
            stack_frame_line(p, line, b, e, at);
        return;
    }
    const char *be = e;
    trim(&body, &be);
    if (m == M_PTXAS)
        ptxas_body(p, line, body, be);
    else
        link_body(p, line, body, be);
}

/* ---- after the last line: link overrides -------------------------------- */

/* Name -> records of that name. Chains live in rec.name_next; a slot
 * holds head, tail and the cursor of the next record an arch-less link
 * block gets, so growing the table must move slots, not rebuild them. */
static void names_rehash(parser *p, size_t cap)
{
    name_slot *old = p->names;
    size_t old_cap = p->names_cap;
    p->names = xcalloc(cap, sizeof *p->names);
    p->names_cap = cap;
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i].head)
            continue;
        size_t s = old[i].hash & (cap - 1);
        while (p->names[s].head)
            s = (s + 1) & (cap - 1);
        p->names[s] = old[i];
    }
    free(old);
}

static name_slot *names_find(const parser *p, const char *name, uint64_t h)
{
    if (!p->names_cap)
        return NULL;
    size_t mask = p->names_cap - 1;
    for (size_t s = h & mask; p->names[s].head; s = (s + 1) & mask) {
        if (p->names[s].hash == h && strcmp(p->recs[p->names[s].head - 1].name, name) == 0)
            return &p->names[s];
    }
    return NULL;
}

static void names_add(parser *p, size_t idx)
{
    if (2 * (p->names_used + 1) > p->names_cap)
        names_rehash(p, p->names_cap ? 2 * p->names_cap : 64);
    rec *r = &p->recs[idx];
    r->name_next = 0;
    name_slot *ns = names_find(p, r->name, r->name_hash);
    if (ns) {
        p->recs[ns->tail - 1].name_next = idx + 1;
        ns->tail = idx + 1;
        return;
    }
    size_t mask = p->names_cap - 1;
    size_t s = r->name_hash & mask;
    while (p->names[s].head)
        s = (s + 1) & mask;
    p->names[s].hash = r->name_hash;
    p->names[s].head = p->names[s].tail = p->names[s].cursor = idx + 1;
    p->names_used++;
}

static void names_build(parser *p)
{
    p->names_built = true;
    for (size_t i = 0; i < p->n_recs; i++)
        if (!p->recs[i].dead)
            names_add(p, i);
}

/* An arch-less link block names the same function once per arch, in the
 * order ptxas compiled them, so the k-th block for a name goes to the k-th
 * record of that name (wrapping when the same program is linked again). */
static size_t link_target(parser *p, const link_block *l)
{
    if (l->has_target) {
        size_t idx = table_find(p, l->arch, l->name);
        if (idx == NONE) {
            idx = rec_new(p, l->name, strlen(l->name), l->arch, true, l->line);
            table_insert(p, idx);
            if (p->names_built)
                names_add(p, idx);
        }
        return idx;
    }
    if (!p->names_built)
        names_build(p);
    name_slot *ns = names_find(p, l->name, fnv(FNV_SEED, l->name, strlen(l->name)));
    if (!ns) {
        size_t idx = rec_new(p, l->name, strlen(l->name), "", true, l->line);
        table_insert(p, idx);
        names_add(p, idx);
        return idx;
    }
    size_t idx = ns->cursor - 1;
    size_t next = p->recs[idx].name_next;
    ns->cursor = next ? next : ns->head;
    return idx;
}

static void apply_links(parser *p)
{
    res_clear(&p->mod); /* records made here belong to no ptxas module */
    for (size_t i = 0; i < p->n_links; i++) {
        link_block *l = &p->links[i];
        if (!l->name[0])
            continue;
        size_t idx = link_target(p, l); /* may grow p->recs */
        rec *r = &p->recs[idx];
        res_overlay(&r->r, &l->r);
        r->from_nvlink = true;
    }
}

/* ---- output -------------------------------------------------------------- */

static void emit(parser *p)
{
    ptxas_log *o = p->out;
    size_t n = 0;
    for (size_t i = 0; i < p->n_recs; i++)
        n += !p->recs[i].dead;
    o->kernels = xcalloc(n ? n : 1, sizeof *o->kernels);
    for (size_t i = 0; i < p->n_recs; i++) {
        rec *r = &p->recs[i];
        if (r->dead)
            continue;
        ptxas_kernel *k = &o->kernels[o->n_kernels++];
        const res *v = &r->r;
#define GET(f, dflt) ((v->set & (1u << (f))) ? v->v[f] : (dflt))
        k->name = r->name;
        r->name = NULL;
        memcpy(k->arch, r->arch, sizeof k->arch);
        k->is_entry = r->is_entry;
        k->registers = (int)GET(F_REGS, 0);
        k->static_smem = GET(F_SMEM, 0);
        k->stack = GET(F_STACK, 0);
        k->cumulative_stack = GET(F_CUMSTACK, -1);
        k->spill_stores = GET(F_SPILL_ST, 0);
        k->spill_loads = GET(F_SPILL_LD, 0);
        k->lmem = GET(F_LMEM, -1);
        k->barriers = (int)GET(F_BARRIERS, 0);
        k->textures = (int)GET(F_TEX, 0);
        k->surfaces = (int)GET(F_SURF, 0);
        k->samplers = (int)GET(F_SAMP, 0);
        k->gmem = GET(F_GMEM, 0);
#undef GET
        for (int b = 0; b < 32; b++)
            k->cmem[b] = (v->cmem_set & (1u << b)) ? v->cmem[b] : -1;
        k->from_nvlink = r->from_nvlink;
        k->line = r->line;
    }
}

bool ptxas_parse(const char *text, size_t len, ptxas_log *out)
{
    memset(out, 0, sizeof *out);
    parser p;
    memset(&p, 0, sizeof p);
    p.out = out;
    p.cur_entry = p.props = NONE;

    size_t pos = 0;
    int line = 0;
    while (pos < len) {
        size_t start = pos;
        while (pos < len && text[pos] != '\n' && text[pos] != '\r')
            pos++;
        size_t end = pos;
        if (pos < len)
            pos += (text[pos] == '\r' && pos + 1 < len && text[pos + 1] == '\n') ? 2 : 1;
        if (line < INT_MAX)
            line++;
        out->n_lines++;
        handle_line(&p, line, text + start, text + end);
    }
    flush_pending(&p, "");
    apply_links(&p);
    emit(&p);

    for (size_t i = 0; i < p.n_recs; i++)
        free(p.recs[i].name);
    for (size_t i = 0; i < p.n_links; i++)
        free(p.links[i].name);
    free(p.recs);
    free(p.table);
    free(p.pending);
    free(p.links);
    free(p.names);
    return true;
}

void ptxas_log_free(ptxas_log *log)
{
    if (!log)
        return;
    for (size_t i = 0; i < log->n_kernels; i++)
        free(log->kernels[i].name);
    for (size_t i = 0; i < log->n_warnings; i++)
        free(log->warnings[i].text);
    free(log->kernels);
    free(log->warnings);
    memset(log, 0, sizeof *log);
}

const ptxas_kernel *ptxas_find(const ptxas_log *log, const char *name, const char *arch)
{
    if (!log || !name)
        return NULL;
    for (size_t i = 0; i < log->n_kernels; i++) {
        const ptxas_kernel *k = &log->kernels[i];
        if (strcmp(k->name, name) == 0 && (!arch || strcmp(k->arch, arch) == 0))
            return k;
    }
    return NULL;
}

occ_kernel ptxas_occ_kernel(const ptxas_kernel *k)
{
    return (occ_kernel){
        .regs_per_thread = k->registers, .static_smem = k->static_smem, .barriers = k->barriers};
}
