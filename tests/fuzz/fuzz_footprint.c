/* fuzz_footprint: differential harness for analysis/symbolic/affbox and
 * analysis/memory/footprint. The input is a small launch (6 header bytes: grid,
 * block, width, whether there is a loop) and text lines: a load's offset
 * and guard, a store's offset and guard, and a loop (start, condition,
 * step in the counter k) around both. A brute force runs every thread
 * through the loop and marks the bytes each site touches. Where footprint
 * claims its figures exact they must equal the brute force's; where it
 * labels them lower bounds they must not exceed it; it must never trap. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/memory/footprint.h"
#include "analysis/symbolic/cexpr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SPAN (1 << 17)
#define ORIGIN (1 << 16)
#define MAX_TRIPS 64

typedef struct truth {
    unsigned char *bytes[2]; /* read, written */
    bool valid;              /* every evaluation succeeded and stayed in SPAN */
} truth;

static void mark(const mem_access *a, expr_env *env, truth *t)
{
    int64_t g = 1, off, v, c;
    const loop_ctx *l = a->n_loops ? &a->loops[0] : NULL;
    if (l && expr_eval(l->init, env, &v, NULL) != EXPR_OK) {
        t->valid = false;
        return;
    }
    for (int trip = 0; t->valid; trip++) {
        if (l) {
            expr_env_set(env, "k", v);
            if (expr_eval(l->cond, env, &c, NULL) != EXPR_OK || trip > MAX_TRIPS) {
                t->valid = false;
                break;
            }
            if (!c)
                break;
        }
        if (a->guard && expr_eval(a->guard, env, &g, NULL) != EXPR_OK) {
            t->valid = false;
            break;
        }
        if (g) {
            if (expr_eval(a->byte_offset, env, &off, NULL) != EXPR_OK || off < -ORIGIN ||
                off + a->width + ORIGIN > SPAN) {
                t->valid = false;
                break;
            }
            memset(t->bytes[a->is_store] + off + ORIGIN, 1, (size_t)a->width);
        }
        if (!l)
            break;
        if (expr_eval(l->next, env, &v, NULL) != EXPR_OK)
            t->valid = false;
    }
    expr_env_unset(env, "k");
}

static void brute(const mem_access *s, int n, const int64_t g[3], const int64_t b[3], truth *t)
{
    expr_env env;
    expr_env_init(&env);
    for (int d = 0; d < 3; d++) {
        expr_env_set_builtin(&env, (expr_builtin)(SYM_BDIM_X + d), b[d]);
        expr_env_set_builtin(&env, (expr_builtin)(SYM_GDIM_X + d), g[d]);
    }
    expr_env_set_builtin(&env, SYM_WARP_SIZE, 32);
    for (int i = 0; i < n && t->valid; i++)
        for (int64_t by = 0; by < g[1]; by++)
            for (int64_t bx = 0; bx < g[0]; bx++)
                for (int64_t ty = 0; ty < b[1]; ty++)
                    for (int64_t tx = 0; tx < b[0] && t->valid; tx++) {
                        expr_env_set_builtin(&env, SYM_BID_X, bx);
                        expr_env_set_builtin(&env, SYM_BID_Y, by);
                        expr_env_set_builtin(&env, SYM_BID_Z, 0);
                        expr_env_set_builtin(&env, SYM_TID_X, tx);
                        expr_env_set_builtin(&env, SYM_TID_Y, ty);
                        expr_env_set_builtin(&env, SYM_TID_Z, 0);
                        mark(&s[i], &env, t);
                    }
}

static bool same(const expr *a, const expr *b)
{
    if (!a || !b)
        return a == b;
    char *x = expr_to_string(a), *y = expr_to_string(b);
    bool eq = !strcmp(x, y);
    free(x);
    free(y);
    return eq;
}

static char *line(const char **p, const char *end)
{
    const char *s = *p, *e = memchr(s, '\n', (size_t)(end - s));
    if (!e)
        e = end;
    *p = e < end ? e + 1 : end;
    char *out = malloc((size_t)(e - s) + 1);
    memcpy(out, s, (size_t)(e - s));
    out[e - s] = '\0';
    return out;
}

static expr *parse(const char *s)
{
    cexpr_error err;
    return s[0] ? cexpr_parse(s, true, &err) : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6 || size > 2048)
        return 0;
    const int64_t grid[3] = {1 + data[0] % 3, 1 + data[1] % 2, 1};
    const int64_t block[3] = {1 + data[2] % 32, 1 + data[3] % 4, 1};
    int width = 1 << (data[4] % 4);
    bool has_loop = data[5] & 1;
    const char *p = (const char *)data + 6, *end = (const char *)data + size;
    char *text[7];
    for (int i = 0; i < 7; i++)
        text[i] = line(&p, end);
    mem_access s[2];
    memset(s, 0, sizeof s);
    bool ok = true;
    for (int i = 0; i < 2; i++) {
        s[i].space = SPACE_GLOBAL;
        s[i].base = "a";
        s[i].text = text[2 * i];
        s[i].width = width;
        s[i].is_store = i == 1;
        s[i].stmt = i + 1;
        s[i].loc.line = i + 1;
        s[i].byte_offset = parse(text[2 * i]);
        s[i].guard = parse(text[2 * i + 1]);
        ok &= s[i].byte_offset != NULL && (!text[2 * i + 1][0] || s[i].guard);
        if (has_loop) {
            s[i].n_loops = 1;
            s[i].loops[0].var = "k";
            s[i].loops[0].init = parse(text[4]);
            s[i].loops[0].cond = parse(text[5]);
            s[i].loops[0].next = parse(text[6]);
            ok &= s[i].loops[0].init && s[i].loops[0].cond && s[i].loops[0].next;
        }
    }
    if (ok) {
        footprint_site fs[2] = {{&s[0], "a"}, {&s[1], "a"}};
        footprint f;
        footprint_compute(fs, 2, grid, block, NULL, &f);
        truth t = {{calloc(SPAN, 1), calloc(SPAN, 1)}, true};
        brute(s, 2, grid, block, &t);
        if (t.valid) {
            /* The same place (as printed): the store's bytes are read first. */
            bool twin = same(s[0].byte_offset, s[1].byte_offset) && same(s[0].guard, s[1].guard);
            int64_t r = 0, w = 0, rw = 0, dram = 0, windows = 0, next = -1;
            for (int i = 0; i < SPAN; i++) {
                bool rd = t.bytes[0][i], wr = t.bytes[1][i];
                r += rd;
                w += wr;
                rw += rd || wr;
                bool from_dram = twin ? rd || wr : rd && !wr;
                dram += from_dram;
                if (from_dram && i >= next) {
                    windows++;
                    next = i + 32;
                }
            }
            if (f.write_bytes > w || f.bytes > rw || f.read_bytes > r)
                __builtin_trap(); /* more than any thread touches */
            if (!f.why && (f.write_bytes != w || f.bytes != rw || f.read_bytes != dram ||
                           f.read_sectors != windows))
                __builtin_trap(); /* labelled exact, and it is not */
            if (f.read_sectors * 32 < f.read_bytes || f.read_sectors > f.read_bytes)
                __builtin_trap();
        }
        /* The estimate's cover holds every byte a thread touches, and is
         * the footprint where it covered nothing. */
        footprint c;
        footprint_cover(fs, 2, grid, block, NULL, &c);
        if (t.valid && c.n_left_out == 0 && c.n_partial == 0) {
            int64_t rw = 0;
            for (int i = 0; i < SPAN; i++)
                rw += t.bytes[0][i] || t.bytes[1][i];
            if (c.bytes < rw)
                __builtin_trap();
        }
        if (c.n_covered == 0 &&
            (c.bytes != f.bytes || c.read_bytes != f.read_bytes || c.write_bytes != f.write_bytes))
            __builtin_trap();
        footprint_free(&c);
        free(t.bytes[0]);
        free(t.bytes[1]);
        footprint_free(&f);
    }
    for (int i = 0; i < 2; i++) {
        expr_free(s[i].byte_offset);
        expr_free(s[i].guard);
        for (int l = 0; l < s[i].n_loops; l++) {
            expr_free(s[i].loops[l].init);
            expr_free(s[i].loops[l].cond);
            expr_free(s[i].loops[l].next);
        }
    }
    for (int i = 0; i < 7; i++)
        free(text[i]);
    return 0;
}
