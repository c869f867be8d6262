/* cmd_bank: `gpulint bank`, the shared-memory bank-conflict calculator for
 * exercises and quick checks: either lane i accessing element i * stride of
 * an array, or a declaration plus a subscript expression over threadIdx,
 * evaluated for every warp of a block by the same model the source
 * analysis uses (analysis/bank). --explain shows the lanes of the worst
 * warp, their banks and words, and why the count comes out as it does. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bank.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "input/cexpr.h"
#include "util/sbuf.h"
#include "util/units.h"

typedef struct bank_args {
    int stride, elem;
    bool seen_stride, seen_elem;
    const char *block, *decl, *access, *format;
    bool explain, help;
} bank_args;

/* What is being analysed, in the user's terms. */
typedef struct bank_case {
    bool stride_mode;
    int64_t stride;
    int elem;
    cexpr_decl decl;
    const char *access_text;
    int64_t block[3];
    int warps;
    expr *offset;
} bank_case;

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

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
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
    qsort(out, (size_t)n, sizeof *out, cmp_i64);
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

static void print_text(const bank_case *c, const bank_result *r, bool explain)
{
    sbuf b;
    sbuf_init(&b);
    add_access_line(&b, c);
    sbuf_addf(&b, "block: %lldx%lldx%lld (%d warp%s)\n", (long long)c->block[0],
              (long long)c->block[1], (long long)c->block[2], c->warps, c->warps == 1 ? "" : "s");
    if (explain)
        add_explain(&b, c, r);
    sbuf_addf(&b, "wavefronts per request: %d (ideal %d", r->worst, r->ideal);
    if (r->requests > 1)
        sbuf_addf(&b, ", average %.4g over %ld requests", r->average, r->requests);
    sbuf_add(&b, ")\nresult: ");
    add_verdict(&b, r);
    sbuf_add(&b, "\n");
    if (r->note[0])
        sbuf_addf(&b, "note: %s\n", r->note);
    fputs(sbuf_str(&b), stdout);
    sbuf_free(&b);
}

static void print_json(const bank_case *c, const bank_result *r, bool explain)
{
    json_t *o = json_object();
    json_object_set_new(o, "wavefronts", json_integer(r->worst));
    json_object_set_new(o, "ideal_wavefronts", json_integer(r->ideal));
    json_object_set_new(o, "degree", json_real(r->degree));
    json_object_set_new(o, "average_wavefronts", json_real(r->average));
    json_t *banks = json_array();
    for (int k = 0; k < BANK_COUNT; k++)
        json_array_append_new(banks, json_integer(r->worst_req.banks[k]));
    json_object_set_new(o, "banks", banks);
    json_object_set_new(o, "width", json_integer(r->width));
    json_object_set_new(o, "block",
                        json_pack("[III]", (json_int_t)c->block[0], (json_int_t)c->block[1],
                                  (json_int_t)c->block[2]));
    json_object_set_new(o, "warps", json_integer(c->warps));
    json_object_set_new(o, "requests", json_integer(r->requests));
    json_object_set_new(o, "worst_warp", json_integer(r->worst_warp));
    expr *s = expr_simplify(c->offset);
    char *t = expr_to_string(s);
    json_object_set_new(o, "byte_offset", json_string(t));
    free(t);
    expr_free(s);
    if (c->stride_mode) {
        json_object_set_new(o, "stride", json_integer(c->stride));
        json_object_set_new(o, "elem", json_integer(c->elem));
    } else {
        json_object_set_new(o, "access", json_string(c->access_text));
    }
    if (r->note[0])
        json_object_set_new(o, "note", json_string(r->note));
    if (explain) {
        json_t *lanes = json_array();
        for (int l = 0; l < LANES_WARP; l++) {
            if (!(r->worst_active >> l & 1))
                continue;
            json_array_append_new(lanes, json_pack("{s:i, s:[III], s:I, s:I, s:i}", "lane", l,
                                                   "thread", (json_int_t)r->worst_tid[l][0],
                                                   (json_int_t)r->worst_tid[l][1],
                                                   (json_int_t)r->worst_tid[l][2], "byte_offset",
                                                   (json_int_t)r->worst_addr[l], "word",
                                                   (json_int_t)bank_word_of(r->worst_addr[l]),
                                                   "bank", bank_of(r->worst_addr[l])));
        }
        json_object_set_new(o, "lanes", lanes);
        json_t *groups = json_array();
        const bank_request *q = &r->worst_req;
        for (int g = 0; g < q->groups; g++) {
            json_t *gb = json_array();
            for (int k = 0; k < BANK_COUNT; k++)
                json_array_append_new(gb, json_integer(q->group_banks[g][k]));
            json_array_append_new(groups,
                                  json_pack("{s:[ii], s:i, s:o}", "lanes", g * q->group_lanes,
                                            (g + 1) * q->group_lanes - 1, "wavefronts",
                                            q->group_wavefronts[g], "banks", gb));
        }
        json_object_set_new(o, "groups", groups);
    }
    cli_put_json(o);
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

int cmd_bank(int argc, char **argv)
{
    bank_args a = {.format = "text", .elem = 4};
    const opt_spec specs[] = {
        {"stride", 's', OPT_INT, &a.stride, &a.seen_stride, "N",
         "lane i accesses element i*N (in elements)"},
        {"elem", 'e', OPT_INT, &a.elem, &a.seen_elem, "BYTES",
         "element size with --stride: 1, 2, 4, 8 or 16 (default 4)"},
        {"decl", 'd', OPT_STRING, &a.decl, NULL, "DECL",
         "shared array, e.g. \"float tile[32][33]\""},
        {"access", 'a', OPT_STRING, &a.access, NULL, "EXPR",
         "element access, e.g. \"tile[threadIdx.x][threadIdx.y]\""},
        {"block", 'b', OPT_STRING, &a.block, NULL, "XxYxZ", "block shape (default 32: one warp)"},
        {"explain", 'x', OPT_FLAG, &a.explain, NULL, NULL,
         "show every lane of the worst warp, its bank and word"},
        {"format", 'f', OPT_STRING, &a.format, NULL, "text|json", "output format"},
        {"help", 'h', OPT_FLAG, &a.help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    int done = opt_parse_command("bank", specs, argc, argv,
                                 "gpulint bank --stride N [--elem 4|8|16] [--block XxY] "
                                 "[--explain] [--format text|json]\n"
                                 "       gpulint bank --decl \"float tile[32][33]\" --access "
                                 "\"tile[threadIdx.x][threadIdx.y]\" [--block 32x8] [--explain]",
                                 &a.help, &a.format);
    if (done >= 0)
        return done;
    bool by_decl = a.decl || a.access;
    if (a.seen_stride && by_decl)
        return diag_error(EXIT_USAGE, "give --stride, or --decl with --access, not both");
    if (!a.seen_stride && !by_decl)
        return diag_error(EXIT_USAGE, "--stride N (or --decl DECL --access EXPR) is required");
    if (by_decl && (!a.decl || !a.access))
        return diag_error(EXIT_USAGE, "--decl and --access go together");
    if (by_decl && a.seen_elem)
        return diag_error(EXIT_USAGE, "--elem applies to --stride; with --decl the element type "
                                      "gives the size");
    if (a.elem != 1 && a.elem != 2 && a.elem != 4 && a.elem != 8 && a.elem != 16)
        return diag_error(EXIT_USAGE,
                          "invalid --elem %d: shared-memory accesses are 1, 2, 4, 8 "
                          "or 16 bytes",
                          a.elem);

    bank_case c = {.stride_mode = !by_decl, .stride = a.stride, .elem = a.elem};
    int dims[3] = {32, 1, 1};
    if (a.block && !units_parse_dim3(a.block, dims))
        return diag_error(EXIT_USAGE, "invalid --block '%s': expected N, XxY or XxYxZ", a.block);
    for (int i = 0; i < 3; i++)
        c.block[i] = dims[i];
    int64_t threads = c.block[0] * c.block[1] * c.block[2];
    if (threads > LANES_MAX_THREADS)
        return diag_error(EXIT_USAGE, "--block %s has %lld threads; a block has at most %d",
                          a.block, (long long)threads, LANES_MAX_THREADS);
    c.warps = (int)((threads + LANES_WARP - 1) / LANES_WARP);

    cexpr_access acc = {0};
    char bounds_note[LANES_WHY_MAX] = "";
    if (c.stride_mode) {
        /* lane i = the linear thread id, x fastest; terms of extents that
         * are 1 are left out so the printed offset stays readable. */
        expr *linear = expr_builtin_sym(SYM_TID_X);
        if (c.block[1] > 1)
            linear = expr_binary(
                OP_ADD, linear,
                expr_binary(OP_MUL, expr_const(c.block[0]), expr_builtin_sym(SYM_TID_Y)));
        if (c.block[2] > 1)
            linear = expr_binary(OP_ADD, linear,
                                 expr_binary(OP_MUL, expr_const(c.block[0] * c.block[1]),
                                             expr_builtin_sym(SYM_TID_Z)));
        c.offset = expr_binary(OP_MUL, linear, expr_const(c.stride * c.elem));
    } else {
        cexpr_error err;
        if (!cexpr_parse_decl(a.decl, &c.decl, &err))
            return diag_error(EXIT_USAGE, "--decl \"%s\": column %d: %s", a.decl, err.column,
                              err.msg);
        if (c.decl.elem_size > 16 || (c.decl.elem_size & (c.decl.elem_size - 1)))
            return diag_error(EXIT_USAGE,
                              "--decl: %d-byte elements are not a single shared-memory "
                              "access",
                              c.decl.elem_size);
        if (!cexpr_parse_access(a.access, false, &acc, &err))
            return diag_error(EXIT_USAGE, "--access \"%s\": column %d: %s", a.access, err.column,
                              err.msg);
        char why[LANES_WHY_MAX];
        c.offset = cexpr_byte_offset(&c.decl, &acc, why, sizeof why);
        if (!c.offset) {
            cexpr_access_free(&acc);
            return diag_error(EXIT_USAGE, "--access: %s", why);
        }
        c.access_text = a.access;
        c.elem = c.decl.elem_size;
        check_bounds(&c, &acc, bounds_note, sizeof bounds_note);
    }

    mem_access m = {0};
    m.space = SPACE_SHARED;
    m.width = c.elem;
    m.byte_offset = c.offset;
    m.text = (char *)(c.access_text ? c.access_text : "");
    bank_result r;
    bool ok = bank_analyze(&m, c.block, NULL, &r);
    int rc = EXIT_OK;
    if (!ok) {
        rc = diag_error(EXIT_USAGE, "cannot analyse the access: %s", r.reason);
    } else {
        if (bounds_note[0]) {
            size_t len = strlen(r.note);
            snprintf(r.note + len, sizeof r.note - len, "%s%s", len ? "; " : "", bounds_note);
        }
        if (strcmp(a.format, "json") == 0)
            print_json(&c, &r, a.explain);
        else
            print_text(&c, &r, a.explain);
    }
    expr_free(c.offset);
    cexpr_access_free(&acc);
    return rc;
}
