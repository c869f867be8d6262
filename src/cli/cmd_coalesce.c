/* cmd_coalesce: `gpulint coalesce`, the global-memory coalescing calculator
 * beside `gpulint bank`: lane i reading element i * stride (+ offset) of an
 * array, or an element index over threadIdx/blockIdx, evaluated for every
 * warp of a block by the model the source analysis uses (analysis/warp/coalesce).
 * --explain lists each lane's byte address and 32-byte sector in the worst
 * warp and the sectors it touches. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calc/coal_calc.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "analysis/symbolic/cexpr.h"
#include "util/sbuf.h"
#include "util/units.h"

typedef struct coal_args {
    int stride, elem, offset;
    bool seen_stride, seen_offset;
    const char *block, *access, *format;
    bool explain, help;
} coal_args;

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
    coal_calc_in in = {.seen_stride = a.seen_stride,
                       .stride = a.stride,
                       .offset = a.offset,
                       .elem = a.elem,
                       .access = a.access,
                       .block = a.block};
    coal_calc cc;
    char msg[512];
    int rc = EXIT_OK;
    if (!coal_calc_run(&in, &cc, msg, sizeof msg)) {
        rc = diag_error(EXIT_USAGE, "%s", msg);
    } else if (strcmp(a.format, "json") == 0) {
        print_json(&cc.c, &cc.r, a.explain);
    } else {
        sbuf b;
        sbuf_init(&b);
        coal_calc_text(&b, &cc, a.explain);
        fputs(sbuf_str(&b), stdout);
        sbuf_free(&b);
    }
    coal_calc_free(&cc);
    return rc;
}
