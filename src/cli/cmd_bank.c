/* cmd_bank: `gpulint bank`, the shared-memory bank-conflict calculator for
 * exercises and quick checks: either lane i accessing element i * stride of
 * an array, or a declaration plus a subscript expression over threadIdx,
 * evaluated for every warp of a block by the same model the source
 * analysis uses (analysis/warp/bank). --explain shows the lanes of the worst
 * warp, their banks and words, and why the count comes out as it does. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calc/bank_calc.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "analysis/symbolic/cexpr.h"
#include "util/sbuf.h"
#include "util/units.h"

typedef struct bank_args {
    int stride, elem;
    bool seen_stride, seen_elem;
    const char *block, *decl, *access, *format;
    bool explain, help;
} bank_args;

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
    bank_calc_in in = {.seen_stride = a.seen_stride,
                       .seen_elem = a.seen_elem,
                       .stride = a.stride,
                       .elem = a.elem,
                       .decl = a.decl,
                       .access = a.access,
                       .block = a.block};
    bank_calc bc;
    char err[512];
    int rc = EXIT_OK;
    if (!bank_calc_run(&in, &bc, err, sizeof err)) {
        rc = diag_error(EXIT_USAGE, "%s", err);
    } else if (strcmp(a.format, "json") == 0) {
        print_json(&bc.c, &bc.r, a.explain);
    } else {
        sbuf b;
        sbuf_init(&b);
        bank_calc_text(&b, &bc, a.explain);
        fputs(sbuf_str(&b), stdout);
        sbuf_free(&b);
    }
    bank_calc_free(&bc);
    return rc;
}
