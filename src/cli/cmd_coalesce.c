/* cmd_coalesce: `gpulint coalesce`, the global-memory coalescing calculator
 * beside `gpulint bank`: lane i reading element i * stride (+ offset) of an
 * array, or an element index over threadIdx/blockIdx, evaluated for every
 * warp of a block by the model the source analysis uses (analysis/coalesce).
 * --explain lists each lane's byte address and 32-byte sector in the worst
 * warp and the sectors it touches. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/coalesce.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "analysis/cexpr.h"
#include "util/sbuf.h"
#include "util/units.h"

typedef struct coal_args {
    int stride, elem, offset;
    bool seen_stride, seen_offset;
    const char *block, *access, *format;
    bool explain, help;
} coal_args;

/* What is analysed, in the user's terms. */
typedef struct coal_case {
    const char *access; /* --access, or NULL for --stride */
    int64_t stride, offset;
    int elem;
    int64_t block[3];
    expr *bytes; /* each lane's byte offset from the array's (aligned) base */
} coal_case;

static void access_line(sbuf *b, const coal_case *c)
{
    if (c->access) {
        expr *s = expr_simplify(c->bytes);
        char *t = expr_to_string(s);
        sbuf_addf(b, "access: element %s of a %d-byte array", c->access, c->elem);
        if (c->offset)
            sbuf_addf(b, ", %lld element%s further", (long long)c->offset,
                      c->offset == 1 ? "" : "s");
        sbuf_addf(b, " (byte offset %s)\n", t);
        free(t);
        expr_free(s);
        return;
    }
    sbuf_addf(b, "access: lane i reads element %lld*i", (long long)c->stride);
    if (c->offset)
        sbuf_addf(b, " + %lld", (long long)c->offset);
    sbuf_addf(b, " of a %d-byte array (byte offset %lld*i", c->elem,
              (long long)(c->stride * c->elem));
    if (c->offset)
        sbuf_addf(b, " + %lld", (long long)(c->offset * c->elem));
    sbuf_add(b, ")\n");
}

static void verdict(sbuf *b, const coalesce_result *r)
{
    if (r->worst_sectors <= r->worst_ideal)
        sbuf_add(b, "coalesced: every request touches no more sectors than its bytes need");
    else
        sbuf_addf(b, "uncoalesced: the worst request touches %.2gx the sectors its bytes need",
                  (double)r->worst_sectors / r->worst_ideal);
}

/* The worst warp, lane by lane, and the sectors it touches. */
static void explain(sbuf *b, const coalesce_result *r)
{
    sbuf_addf(b,
              "\nA warp's request is served in 32-byte sectors: sector = byte address / 32, "
              "counted from\nthe array's base (cudaMalloc aligns it to 256 bytes). Ideal: the "
              "same bytes packed,\nceil(active lanes x %d / 32) sectors.\n",
              r->width);
    sbuf_addf(b, "\nworst request: warp %d", r->worst_warp);
    if (r->worst_iteration > 0)
        sbuf_addf(b, ", iteration %ld", r->worst_iteration);
    sbuf_add(b, "\n\nlane   byte address   sector\n");
    int64_t sectors[LANES_WARP * 2];
    int n = 0;
    for (int l = 0; l < LANES_WARP; l++) {
        if (!(r->worst_active >> l & 1))
            continue;
        int64_t a = r->worst_addr[l];
        /* A wide access may end in the next sector: count both ends. */
        int64_t s0 = a / COALESCE_SECTOR, s1 = (a + r->width - 1) / COALESCE_SECTOR;
        sbuf_addf(b, "%4d %14lld   %lld", l, (long long)a, (long long)s0);
        if (s1 != s0)
            sbuf_addf(b, "-%lld", (long long)s1);
        sbuf_addc(b, '\n');
        for (int64_t s = s0; s <= s1; s++) {
            bool seen = false;
            for (int k = 0; k < n && !seen; k++)
                seen = sectors[k] == s;
            if (!seen && n < LANES_WARP * 2)
                sectors[n++] = s;
        }
    }
    sbuf_addf(b, "\nsectors touched: %d (", n);
    for (int k = 0; k < n; k++) {
        if (n > 10 && k == 4) {
            sbuf_add(b, ", ...");
            k = n - 2;
            continue;
        }
        sbuf_addf(b, "%s%lld", k ? ", " : "", (long long)sectors[k]);
    }
    sbuf_addf(b, "), ideal %d: %d of the %d bytes moved are asked for\n", r->worst_ideal,
              __builtin_popcount(r->worst_active) * r->width, n * COALESCE_SECTOR);
}

static void print_text(const coal_case *c, const coalesce_result *r, bool want_explain)
{
    sbuf b;
    sbuf_init(&b);
    access_line(&b, c);
    sbuf_addf(&b, "block: %lldx%lldx%lld (%d warp%s)\n", (long long)c->block[0],
              (long long)c->block[1], (long long)c->block[2], r->warps, r->warps == 1 ? "" : "s");
    if (want_explain)
        explain(&b, r);
    sbuf_addf(&b, "%ssectors per request: worst %d (ideal %d), average %.2f over %ld request%s\n",
              want_explain ? "\n" : "", r->worst_sectors, r->worst_ideal, r->average_sectors,
              r->requests, r->requests == 1 ? "" : "s");
    sbuf_addf(&b, "bytes used: %.1f%% of those moved (worst request %.1f%%)\n", 100 * r->efficiency,
              100 * r->worst_efficiency);
    if (r->note[0])
        sbuf_addf(&b, "note: %s\n", r->note);
    sbuf_add(&b, "result: ");
    verdict(&b, r);
    sbuf_addc(&b, '\n');
    fputs(sbuf_str(&b), stdout);
    sbuf_free(&b);
}

static void print_json(const coal_case *c, const coalesce_result *r, bool want_explain)
{
    expr *s = expr_simplify(c->bytes);
    char *t = expr_to_string(s);
    json_t *o = json_pack(
        "{s:s, s:i, s:[I, I, I], s:i, s:i, s:i, s:f, s:i, s:f, s:f, s:I, s:b, s:s}", "byte_offset",
        t, "elem", c->elem, "block", (json_int_t)c->block[0], (json_int_t)c->block[1],
        (json_int_t)c->block[2], "warps", r->warps, "worst_sectors", r->worst_sectors,
        "worst_ideal_sectors", r->worst_ideal, "average_sectors", r->average_sectors,
        "ideal_sectors", r->ideal_sectors, "efficiency", r->efficiency, "worst_efficiency",
        r->worst_efficiency, "requests", (json_int_t)r->requests, "coalesced",
        r->worst_sectors <= r->worst_ideal, "note", r->note);
    free(t);
    expr_free(s);
    if (c->access)
        json_object_set_new(o, "access", json_string(c->access));
    else
        json_object_set_new(o, "stride", json_integer(c->stride));
    json_object_set_new(o, "offset", json_integer(c->offset));
    if (want_explain) {
        json_t *lanes = json_array();
        for (int l = 0; l < LANES_WARP; l++)
            if (r->worst_active >> l & 1)
                json_array_append_new(lanes,
                                      json_pack("{s:i, s:I, s:I}", "lane", l, "address",
                                                (json_int_t)r->worst_addr[l], "sector",
                                                (json_int_t)(r->worst_addr[l] / COALESCE_SECTOR)));
        json_object_set_new(o, "worst_warp", json_integer(r->worst_warp));
        json_object_set_new(o, "lanes", lanes);
    }
    cli_put_json(o);
}

/* The lane's element index: i * stride + offset with i the linear thread
 * id (x fastest), or the --access expression (+ offset). */
static int element_index(const coal_args *a, const coal_case *c, expr **out)
{
    if (a->access) {
        cexpr_error err;
        expr *e = cexpr_parse(a->access, false, &err);
        if (!e)
            return diag_error(EXIT_USAGE, "--access \"%s\": column %d: %s", a->access, err.column,
                              err.msg);
        *out = c->offset ? expr_binary(OP_ADD, e, expr_const(c->offset)) : e;
        return EXIT_OK;
    }
    expr *linear = expr_builtin_sym(SYM_TID_X);
    if (c->block[1] > 1)
        linear =
            expr_binary(OP_ADD, linear,
                        expr_binary(OP_MUL, expr_const(c->block[0]), expr_builtin_sym(SYM_TID_Y)));
    if (c->block[2] > 1)
        linear = expr_binary(OP_ADD, linear,
                             expr_binary(OP_MUL, expr_const(c->block[0] * c->block[1]),
                                         expr_builtin_sym(SYM_TID_Z)));
    expr *e = expr_binary(OP_MUL, linear, expr_const(c->stride));
    *out = c->offset ? expr_binary(OP_ADD, e, expr_const(c->offset)) : e;
    return EXIT_OK;
}

static int check_args(const coal_args *a)
{
    if (a->seen_stride && a->access)
        return diag_error(EXIT_USAGE, "give --stride or --access, not both");
    if (!a->seen_stride && !a->access)
        return diag_error(EXIT_USAGE, "--stride N (or --access EXPR) is required");
    if (a->elem != 1 && a->elem != 2 && a->elem != 4 && a->elem != 8 && a->elem != 16)
        return diag_error(EXIT_USAGE,
                          "invalid --elem %d: a lane loads or stores 1, 2, 4, 8 or 16 bytes",
                          a->elem);
    return EXIT_OK;
}

int cmd_coalesce(int argc, char **argv)
{
    coal_args a = {.format = "text", .elem = 4};
    const opt_spec specs[] = {
        {"stride", 's', OPT_INT, &a.stride, &a.seen_stride, "N",
         "lane i accesses element i*N (in elements)"},
        {"elem", 'e', OPT_INT, &a.elem, NULL, "BYTES",
         "bytes per lane: 1, 2, 4, 8 or 16 (default 4; 16 = float4)"},
        {"offset", 'o', OPT_INT, &a.offset, &a.seen_offset, "N",
         "elements added to every lane's index (a misaligned start)"},
        {"access", 'a', OPT_STRING, &a.access, NULL, "EXPR",
         "element index over threadIdx/blockIdx/blockDim, e.g. "
         "\"blockIdx.x * blockDim.x + threadIdx.x * 2\""},
        {"block", 'b', OPT_STRING, &a.block, NULL, "XxYxZ", "block shape (default 32: one warp)"},
        {"explain", 'x', OPT_FLAG, &a.explain, NULL, NULL,
         "each lane's byte address and sector in the worst warp"},
        {"format", 'f', OPT_STRING, &a.format, NULL, "text|json", "output format"},
        {"help", 'h', OPT_FLAG, &a.help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    int done = opt_parse_command("coalesce", specs, argc, argv,
                                 "gpulint coalesce --stride N [--elem BYTES] [--offset N] "
                                 "[--block XxY] [--explain] [--format text|json]\n"
                                 "       gpulint coalesce --access EXPR [--elem BYTES] [--block "
                                 "XxY] [--explain]",
                                 &a.help, &a.format);
    if (done >= 0)
        return done;
    int rc = check_args(&a);
    if (rc != EXIT_OK)
        return rc;
    coal_case c = {.access = a.access, .stride = a.stride, .offset = a.offset, .elem = a.elem};
    int dims[3] = {32, 1, 1};
    if (a.block && !units_parse_dim3(a.block, dims))
        return diag_error(EXIT_USAGE, "invalid --block '%s': expected N, XxY or XxYxZ", a.block);
    for (int i = 0; i < 3; i++)
        c.block[i] = dims[i];
    int64_t threads = c.block[0] * c.block[1] * c.block[2];
    if (threads > LANES_MAX_THREADS)
        return diag_error(EXIT_USAGE, "--block %s has %lld threads; a block has at most %d",
                          a.block, (long long)threads, LANES_MAX_THREADS);
    expr *index = NULL;
    rc = element_index(&a, &c, &index);
    if (rc != EXIT_OK)
        return rc;
    c.bytes = expr_binary(OP_MUL, index, expr_const(c.elem));
    mem_access m = {0};
    m.space = SPACE_GLOBAL;
    m.width = c.elem;
    m.byte_offset = c.bytes;
    m.text = (char *)(a.access ? a.access : "");
    coalesce_result r;
    if (!coalesce_analyze(&m, c.block, NULL, &r) || !r.analyzed)
        rc = diag_error(EXIT_USAGE, "cannot analyse the access: %s", r.reason);
    else if (strcmp(a.format, "json") == 0)
        print_json(&c, &r, a.explain);
    else
        print_text(&c, &r, a.explain);
    expr_free(c.bytes);
    return rc;
}
