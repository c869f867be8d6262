/* cmd_warps: `gpulint warps`, how the threads of a launch fall into warps
 * (analysis/calc/warpmap): warps per block and in the grid, the lanes each warp
 * uses, which threads each holds, and the warp slots a partial warp wastes.
 * Textbook questions ("two blocks of 40 threads: how many warps?") without
 * a kernel or a dummy condition. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "analysis/calc/warpmap.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "util/sbuf.h"
#include "util/units.h"

static json_t *dims(const int64_t d[3])
{
    return json_pack("[I, I, I]", (json_int_t)d[0], (json_int_t)d[1], (json_int_t)d[2]);
}

static void print_json(const warpmap *m)
{
    json_t *warps = json_array();
    for (int w = 0; w < m->warps_per_block; w++) {
        const warpmap_warp *x = &m->warps[w];
        json_array_append_new(warps, json_pack("{s:i, s:i, s:o, s:o}", "warp", w, "lanes", x->lanes,
                                               "first_thread", dims(x->first), "last_thread",
                                               dims(x->last)));
    }
    cli_put_json(json_pack(
        "{s:o, s:o, s:I, s:i, s:I, s:I, s:I, s:f, s:b, s:o}", "block", dims(m->block), "grid",
        dims(m->grid), "threads_per_block", (json_int_t)m->threads_per_block, "warps_per_block",
        m->warps_per_block, "warps_in_grid", (json_int_t)m->warps_in_grid, "threads_in_grid",
        (json_int_t)m->threads_in_grid, "lanes_in_grid", (json_int_t)m->lanes_in_grid, "lane_use",
        m->lane_use, "warps_span_rows", m->rows_split, "warps", warps));
}

int cmd_warps(int argc, char **argv)
{
    const char *block = NULL, *grid = "1", *format = "text";
    bool explain = false, help = false;
    const opt_spec specs[] = {
        {"block", 'b', OPT_STRING, &block, NULL, "XxYxZ", "block shape, e.g. 40 or 16x16"},
        {"grid", 'g', OPT_STRING, &grid, NULL, "XxYxZ", "grid shape (default 1)"},
        {"explain", 'e', OPT_FLAG, &explain, NULL, NULL, "show the worked steps"},
        {"format", 'f', OPT_STRING, &format, NULL, "text|json", "output format"},
        {"help", 'h', OPT_FLAG, &help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    int done = opt_parse_command("warps", specs, argc, argv,
                                 "gpulint warps --block XxYxZ [--grid XxYxZ] [--explain] "
                                 "[--format text|json]",
                                 &help, &format);
    if (done >= 0)
        return done;
    if (!block)
        return diag_error(EXIT_USAGE, "--block XxYxZ is required");
    int b3[3], g3[3];
    if (!units_parse_dim3(block, b3))
        return diag_error(EXIT_USAGE, "invalid --block '%s': expected N, XxY or XxYxZ", block);
    if (!units_parse_dim3(grid, g3))
        return diag_error(EXIT_USAGE, "invalid --grid '%s': expected N, XxY or XxYxZ", grid);
    int64_t bl[3] = {b3[0], b3[1], b3[2]}, gr[3] = {g3[0], g3[1], g3[2]};
    warpmap m;
    char why[256];
    if (!warpmap_compute(bl, gr, &m, why, sizeof why))
        return diag_error(EXIT_USAGE, "%s", why);
    if (strcmp(format, "json") == 0)
        print_json(&m);
    else {
        sbuf b;
        sbuf_init(&b);
        warpmap_text(&b, &m, explain);
        fputs(sbuf_str(&b), stdout);
        sbuf_free(&b);
    }
    return EXIT_OK;
}
