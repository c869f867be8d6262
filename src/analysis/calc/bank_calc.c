/* bank_calc: `gpulint bank` as a calculator: a stride, or a shared array's
 * declaration and an access, over a block; the analysis (bank.c) and its
 * words. Shared by the command line and the web page, so both answer an
 * exercise with the same text. */
#include "analysis/calc/bank_calc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/errmsg.h"
#include "util/units.h"
#include "util/order.h"

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a < 0 ? -a : a;
}

/* "0, 2, 4, 6, ..., 30": a lane list short enough for a sentence. */
static void add_lane_list(sbuf *b, const int *lanes, int n)
{
    for (int i = 0; i < n; i++) {
        if (n > 6 && i == 4) {
            sbuf_add(b, ", ...");
            i = n - 1;
        }
        sbuf_addf(b, "%s%d", i ? ", " : "", lanes[i]);
    }
}

static void add_word_list(sbuf *b, const int64_t *words, int n)
{
    for (int i = 0; i < n; i++) {
        if (n > 6 && i == 4) {
            sbuf_add(b, ", ...");
            i = n - 1;
        }
        sbuf_addf(b, "%s%lld", i ? ", " : "", (long long)words[i]);
    }
}

/* Distinct words of bank `bank` touched by the lanes [lo, hi) of the
 * worst request, sorted; returns the count. */
static int bank_words(const bank_result *r, int bank, int lo, int hi, int64_t *out)
{
    int n = 0;
    int per_lane = r->width <= BANK_WORD_BYTES ? 1 : r->width / BANK_WORD_BYTES;
    for (int l = lo; l < hi; l++) {
        if (!(r->worst_active >> l & 1))
            continue;
        for (int k = 0; k < per_lane; k++) {
            int64_t w = bank_word_of(r->worst_addr[l]) + k;
            int64_t b = w % BANK_COUNT;
            if ((b < 0 ? b + BANK_COUNT : b) != bank)
                continue;
            bool dup = false;
            for (int i = 0; i < n && !dup; i++)
                dup = out[i] == w;
            if (!dup)
                out[n++] = w;
        }
    }
    qsort(out, (size_t)n, sizeof *out, order_i64);
    return n;
}

static void add_verdict(sbuf *b, const bank_result *r)
{
    if (r->worst <= r->ideal) {
        bool broadcast = r->worst_req.distinct_words ==
                             (r->width <= BANK_WORD_BYTES ? 1 : r->width / BANK_WORD_BYTES) &&
                         __builtin_popcount(r->worst_active) > 1;
        sbuf_add(b, !broadcast                    ? "no bank conflict"
                    : r->width <= BANK_WORD_BYTES ? "no bank conflict (broadcast: every lane "
                                                    "accesses the same word)"
                                                  : "no bank conflict (broadcast: every lane "
                                                    "accesses the same element)");
    } else if (r->worst % r->ideal == 0) {
        sbuf_addf(b, "%d-way bank conflict", r->worst / r->ideal);
    } else {
        sbuf_addf(b, "bank conflict: %.2fx the ideal number of wavefronts", r->degree);
    }
}

static void add_access_line(sbuf *b, const bank_case *c)
{
    if (c->stride_mode) {
        sbuf_addf(b,
                  "access: lane i accesses element %lld*i of a%s %d-byte array (byte offset "
                  "%lld*i)\n",
                  (long long)c->stride, c->elem == 8 ? "n" : "", c->elem,
                  (long long)(c->stride * c->elem));
        return;
    }
    sbuf_addf(b, "access: %s in %s %s", c->access_text, c->decl.type, c->decl.name);
    for (int i = 0; i < c->decl.n_dims; i++)
        if (c->decl.dims[i])
            sbuf_addf(b, "[%lld]", (long long)c->decl.dims[i]);
        else
            sbuf_add(b, "[]");
    expr *s = expr_simplify(c->offset);
    char *t = expr_to_string(s);
    sbuf_addf(b, " (%d bytes per lane, byte offset %s)\n", c->decl.elem_size, t);
    free(t);
    expr_free(s);
}

/* The sentence that says why, from the worst request. */
static void add_why(sbuf *b, const bank_case *c, const bank_result *r)
{
    const bank_request *q = &r->worst_req;
    int active = __builtin_popcount(r->worst_active);
    int per_lane = r->width <= BANK_WORD_BYTES ? 1 : r->width / BANK_WORD_BYTES;
    sbuf_add(b, "why: ");
    if (q->distinct_words == per_lane && active > 1) {
        sbuf_addf(b, "every active lane accesses the same %s, ",
                  per_lane == 1   ? "word"
                  : r->width == 8 ? "8-byte element"
                                  : "16-byte element");
        if (q->wavefronts == 1)
            sbuf_add(b, "which one wavefront broadcasts to all of them.\n");
        else
            sbuf_addf(b, "which is broadcast once to each of the %d lane groups: %d wavefronts.\n",
                      q->groups, q->wavefronts);
        return;
    }
    if (c->stride_mode && c->elem == BANK_WORD_BYTES && c->stride > 0) {
        int64_t g = gcd64(c->stride, BANK_COUNT);
        sbuf_addf(b,
                  "lane i's word is %lld*i and its bank (%lld*i) mod 32; gcd(%lld, 32) = %lld, "
                  "so the 32 lanes land in 32/%lld = %lld bank%s with %lld different word%s "
                  "each",
                  (long long)c->stride, (long long)c->stride, (long long)c->stride, (long long)g,
                  (long long)g, (long long)(BANK_COUNT / g), BANK_COUNT / g == 1 ? "" : "s",
                  (long long)g, g == 1 ? "" : "s");
        if (g == 1) {
            sbuf_add(b, ": no two lanes share a bank.\n");
            return;
        }
        sbuf_add(b, ": ");
    }
    /* The busiest bank of the costliest lane group. */
    int group = 0;
    for (int g = 1; g < q->groups; g++)
        if (q->group_wavefronts[g] > q->group_wavefronts[group])
            group = g;
    int bank = 0;
    for (int k = 1; k < BANK_COUNT; k++)
        if (q->group_banks[group][k] > q->group_banks[group][bank])
            bank = k;
    int lo = group * q->group_lanes, hi = lo + q->group_lanes;
    int most = q->group_banks[group][bank];
    if (r->worst <= r->ideal) {
        bool shared = q->distinct_words < active * per_lane;
        sbuf_addf(b, "no bank holds more than one distinct word%s%s.\n",
                  q->groups > 1 ? " within a lane group" : "",
                  shared ? "; lanes on the same word share it (broadcast)" : "");
        return;
    }
    int lanes[LANES_WARP], n = 0;
    for (int l = lo; l < hi; l++) {
        if (!(r->worst_active >> l & 1))
            continue;
        for (int k = 0; k < per_lane; k++)
            if (bank_of(r->worst_addr[l] + k * BANK_WORD_BYTES) == bank) {
                lanes[n++] = l;
                break;
            }
    }
    int64_t words[LANES_WARP * 4];
    int nw = bank_words(r, bank, lo, hi, words);
    sbuf_add(b, n == 1 ? "lane " : "lanes ");
    add_lane_list(b, lanes, n);
    sbuf_addf(b, " fall in bank %d at %d different words (", bank, nw);
    add_word_list(b, words, nw);
    sbuf_addf(b, "); a bank delivers one word per wavefront, so bank %d alone needs %d", bank,
              most);
    if (q->groups > 1)
        sbuf_addf(b, " for lanes %d-%d", lo, hi - 1);
    sbuf_add(b, ".\n");
}

static void add_explain(sbuf *b, const bank_case *c, const bank_result *r)
{
    const bank_request *q = &r->worst_req;
    int per_lane = r->width <= BANK_WORD_BYTES ? 1 : r->width / BANK_WORD_BYTES;
    sbuf_add(b, "\nShared memory has 32 banks of 4-byte words: word = byte offset / 4, bank = "
                "word mod 32.\n");
    sbuf_add(b, "Lanes on the same word are served together (broadcast); distinct words in one "
                "bank take one wavefront each.\n");
    if (r->width > BANK_WORD_BYTES)
        sbuf_addf(b,
                  "%d-byte accesses are served %s at a time (%d lanes), so a full warp of "
                  "distinct elements needs at least %d wavefronts.\n",
                  r->width, r->width == 8 ? "a half-warp" : "a quarter-warp",
                  r->width == 8 ? 16 : 8, bank_ideal(r->width));
    if (q->merged == BANK_MERGE_LANE_PAIRS)
        sbuf_addf(b,
                  "Here every pair of lanes 2i, 2i+1 accesses one address, so each pair counts "
                  "as one lane and %s is served as one group (measured on an H100).\n",
                  q->groups == 1 ? "the whole warp" : "each half-warp");
    else if (q->merged == BANK_MERGE_NEIGHBOUR_PAIRS)
        sbuf_add(b, "Here every pair of lanes accesses two neighbouring elements and every four "
                    "lanes at most two, so each half-warp is served as one group (measured on an "
                    "H100).\n");
    int64_t first = (int64_t)r->worst_warp * LANES_WARP;
    int64_t threads = c->block[0] * c->block[1] * c->block[2];
    int64_t last = first + LANES_WARP - 1 < threads ? first + LANES_WARP - 1 : threads - 1;
    sbuf_addf(b, "\nworst request: warp %d (threads %lld..%lld)", r->worst_warp, (long long)first,
              (long long)last);
    if (r->requests > 1)
        sbuf_addf(b, "; of the %ld requests analysed, the first that needs %d wavefront%s",
                  r->requests, r->worst, r->worst == 1 ? "" : "s");
    sbuf_add(b, "\n\n");
    sbuf_addf(b, "%4s  %-12s %12s %9s  %5s\n", "lane", "thread", "byte offset", "word", "bank");
    for (int l = 0; l < LANES_WARP; l++) {
        if (!(r->worst_active >> l & 1))
            continue;
        char thread[72], word[48], bank[16];
        snprintf(thread, sizeof thread, "(%lld,%lld,%lld)", (long long)r->worst_tid[l][0],
                 (long long)r->worst_tid[l][1], (long long)r->worst_tid[l][2]);
        int64_t w = bank_word_of(r->worst_addr[l]);
        int b0 = bank_of(r->worst_addr[l]);
        if (per_lane == 1) {
            snprintf(word, sizeof word, "%lld", (long long)w);
            snprintf(bank, sizeof bank, "%d", b0);
        } else {
            snprintf(word, sizeof word, "%lld-%lld", (long long)w, (long long)(w + per_lane - 1));
            snprintf(bank, sizeof bank, "%d-%d", b0,
                     bank_of(r->worst_addr[l] + (per_lane - 1) * BANK_WORD_BYTES));
        }
        sbuf_addf(b, "%4d  %-12s %12lld %9s  %5s\n", l, thread, (long long)r->worst_addr[l], word,
                  bank);
    }
    for (int g = 0; g < q->groups; g++) {
        int lo = g * q->group_lanes, hi = lo + q->group_lanes;
        if (q->groups > 1)
            sbuf_addf(b, "\nlanes %d-%d: distinct words per bank", lo, hi - 1);
        else
            sbuf_add(b, "\ndistinct words per bank");
        sbuf_add(b, " (banks not listed hold none)\n");
        for (int k = 0; k < BANK_COUNT; k++) {
            int n = q->group_banks[g][k];
            if (!n)
                continue;
            int64_t words[LANES_WARP * 4];
            int nw = bank_words(r, k, lo, hi, words);
            sbuf_addf(b, "  bank %2d: %d word%s (", k, n, n == 1 ? "" : "s");
            add_word_list(b, words, nw);
            sbuf_add(b, ")\n");
        }
        if (q->groups > 1)
            sbuf_addf(b, "  -> %d wavefront%s\n", q->group_wavefronts[g],
                      q->group_wavefronts[g] == 1 ? "" : "s");
    }
    sbuf_add(b, "\n");
    if (q->groups > 1) {
        sbuf_add(b, "wavefronts: ");
        for (int g = 0; g < q->groups; g++)
            sbuf_addf(b, "%s%d", g ? " + " : "", q->group_wavefronts[g]);
        sbuf_addf(b, " = %d (ideal %d)\n", q->wavefronts, r->ideal);
    } else {
        sbuf_addf(b, "wavefronts: the busiest bank holds %d distinct word%s -> %d (ideal %d)\n",
                  q->wavefronts, q->wavefronts == 1 ? "" : "s", q->wavefronts, r->ideal);
    }
    add_why(b, c, r);
}

void bank_calc_text(sbuf *out, const bank_calc *bc, bool explain)
{
    const bank_case *c = &bc->c;
    const bank_result *r = &bc->r;
    sbuf *bp = out;
    add_access_line(bp, c);
    sbuf_addf(bp, "block: %lldx%lldx%lld (%d warp%s)\n", (long long)c->block[0],
              (long long)c->block[1], (long long)c->block[2], c->warps, c->warps == 1 ? "" : "s");
    if (explain)
        add_explain(bp, c, r);
    sbuf_addf(bp, "wavefronts per request: %d (ideal %d", r->worst, r->ideal);
    if (r->requests > 1)
        sbuf_addf(bp, ", average %.4g over %ld requests", r->average, r->requests);
    sbuf_add(bp, ")\nresult: ");
    add_verdict(bp, r);
    sbuf_add(bp, "\n");
    if (r->note[0])
        sbuf_addf(bp, "note: %s\n", r->note);
}

/* Out-of-range subscripts are legal C with undefined results; say so
 * rather than analyse silently. Returns a note or "" into buf. */
static void check_bounds(const bank_case *c, const cexpr_access *a, char *buf, size_t size)
{
    buf[0] = '\0';
    expr_env env;
    expr_env_init(&env);
    expr_env_set_builtin(&env, SYM_BDIM_X, c->block[0]);
    expr_env_set_builtin(&env, SYM_BDIM_Y, c->block[1]);
    expr_env_set_builtin(&env, SYM_BDIM_Z, c->block[2]);
    expr_env_set_builtin(&env, SYM_WARP_SIZE, LANES_WARP);
    int64_t threads = c->block[0] * c->block[1] * c->block[2];
    for (int64_t t = 0; t < threads; t++) {
        int64_t tid[3];
        lanes_thread_index(c->block, t, tid);
        expr_env_set_builtin(&env, SYM_TID_X, tid[0]);
        expr_env_set_builtin(&env, SYM_TID_Y, tid[1]);
        expr_env_set_builtin(&env, SYM_TID_Z, tid[2]);
        for (int k = 0; k < a->n_idx; k++) {
            int64_t v;
            if (expr_eval(a->idx[k], &env, &v, NULL) != EXPR_OK)
                continue;
            if (v < 0 || (c->decl.dims[k] && v >= c->decl.dims[k])) {
                snprintf(buf, size,
                         "subscript %d is %lld for thread (%lld,%lld,%lld), outside [0, %lld): "
                         "the block reaches past the array",
                         k + 1, (long long)v, (long long)tid[0], (long long)tid[1],
                         (long long)tid[2], (long long)c->decl.dims[k]);
                return;
            }
        }
    }
}

bool bank_calc_run(const bank_calc_in *in, bank_calc *out, char *msg, size_t n)
{
    *out = (bank_calc){0};
    bool by_decl = in->decl || in->access;
    if (in->seen_stride && by_decl)
        return errmsg_set(msg, n, "give --stride, or --decl with --access, not both");
    if (!in->seen_stride && !by_decl)
        return errmsg_set(msg, n, "--stride N (or --decl DECL --access EXPR) is required");
    if (by_decl && (!in->decl || !in->access))
        return errmsg_set(msg, n, "--decl and --access go together");
    if (by_decl && in->seen_elem)
        return errmsg_set(
            msg, n, "--elem applies to --stride; with --decl the element type gives the size");
    if (in->elem != 1 && in->elem != 2 && in->elem != 4 && in->elem != 8 && in->elem != 16)
        return errmsg_set(msg, n,
                          "invalid --elem %d: shared-memory accesses are 1, 2, 4, 8 or 16 bytes",
                          in->elem);
    bank_case *cp = &out->c;
    *cp = (bank_case){.stride_mode = !by_decl, .stride = in->stride, .elem = in->elem};
    int dims[3] = {32, 1, 1};
    if (in->block && !units_parse_dim3(in->block, dims))
        return errmsg_set(msg, n, "invalid --block '%s': expected N, XxY or XxYxZ", in->block);
    for (int i = 0; i < 3; i++)
        cp->block[i] = dims[i];
    int64_t threads = cp->block[0] * cp->block[1] * cp->block[2];
    if (threads > LANES_MAX_THREADS)
        return errmsg_set(msg, n, "--block %s has %lld threads; a block has at most %d", in->block,
                          (long long)threads, LANES_MAX_THREADS);
    cp->warps = (int)((threads + LANES_WARP - 1) / LANES_WARP);

    char bounds_note[LANES_WHY_MAX] = "";
    if (cp->stride_mode) {
        /* lane i = the linear thread id, x fastest; terms of extents that
         * are 1 are left out so the printed offset stays readable. */
        expr *linear = expr_builtin_sym(SYM_TID_X);
        if (cp->block[1] > 1)
            linear = expr_binary(
                OP_ADD, linear,
                expr_binary(OP_MUL, expr_const(cp->block[0]), expr_builtin_sym(SYM_TID_Y)));
        if (cp->block[2] > 1)
            linear = expr_binary(OP_ADD, linear,
                                 expr_binary(OP_MUL, expr_const(cp->block[0] * cp->block[1]),
                                             expr_builtin_sym(SYM_TID_Z)));
        cp->offset = expr_binary(OP_MUL, linear, expr_const(cp->stride * cp->elem));
    } else {
        cexpr_error err;
        if (!cexpr_parse_decl(in->decl, &cp->decl, &err))
            return errmsg_set(msg, n, "--decl \"%s\": column %d: %s", in->decl, err.column,
                              err.msg);
        if (cp->decl.elem_size > 16 || (cp->decl.elem_size & (cp->decl.elem_size - 1)))
            return errmsg_set(msg, n,
                              "--decl: %d-byte elements are not a single shared-memory "
                              "access",
                              cp->decl.elem_size);
        if (!cexpr_parse_access(in->access, false, &out->acc, &err))
            return errmsg_set(msg, n, "--access \"%s\": column %d: %s", in->access, err.column,
                              err.msg);
        char why[LANES_WHY_MAX];
        cp->offset = cexpr_byte_offset(&cp->decl, &out->acc, why, sizeof why);
        if (!cp->offset) {
            cexpr_access_free(&out->acc);
            return errmsg_set(msg, n, "--access: %s", why);
        }
        cp->access_text = in->access;
        cp->elem = cp->decl.elem_size;
        check_bounds(cp, &out->acc, bounds_note, sizeof bounds_note);
    }

    mem_access m = {0};
    m.space = SPACE_SHARED;
    m.width = cp->elem;
    m.byte_offset = cp->offset;
    m.text = (char *)(cp->access_text ? cp->access_text : "");
    if (!bank_analyze(&m, cp->block, NULL, &out->r))
        return errmsg_set(msg, n, "cannot analyse the access: %s", out->r.reason);
    if (bounds_note[0]) {
        size_t len = strlen(out->r.note);
        snprintf(out->r.note + len, sizeof out->r.note - len, "%s%s", len ? "; " : "", bounds_note);
    }
    return true;
}

void bank_calc_free(bank_calc *bc)
{
    expr_free(bc->c.offset);
    bc->c.offset = NULL;
    cexpr_access_free(&bc->acc);
}
