/* cmd_warps: `gpulint warps`, how the threads of a launch fall into warps
 * (analysis/warpmap): warps per block and in the grid, the lanes each warp
 * uses, which threads each holds, and the warp slots a partial warp wastes.
 * Textbook questions ("two blocks of 40 threads: how many warps?") without
 * a kernel or a dummy condition. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "analysis/warpmap.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "util/sbuf.h"
#include "util/units.h"

static void idx_text(sbuf *b, const int64_t t[3], const int64_t block[3])
{
    if (block[1] == 1 && block[2] == 1)
        sbuf_addf(b, "%lld", (long long)t[0]);
    else if (block[2] == 1)
        sbuf_addf(b, "(%lld,%lld)", (long long)t[0], (long long)t[1]);
    else
        sbuf_addf(b, "(%lld,%lld,%lld)", (long long)t[0], (long long)t[1], (long long)t[2]);
}

static void print_text(const warpmap *m, bool explain)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "launch: grid %lldx%lldx%lld x block %lldx%lldx%lld (%lld threads per block)\n",
              (long long)m->grid[0], (long long)m->grid[1], (long long)m->grid[2],
              (long long)m->block[0], (long long)m->block[1], (long long)m->block[2],
              (long long)m->threads_per_block);
    sbuf_addf(&b, "warps per block: %d\n", m->warps_per_block);
    sbuf_addf(&b, "warps in the grid: %lld\n", (long long)m->warps_in_grid);
    sbuf_addf(&b, "lanes used: %lld of %lld (%.1f%%)\n", (long long)m->threads_in_grid,
              (long long)m->lanes_in_grid, 100.0 * m->lane_use);
    sbuf_add(&b, "\nwarp  lanes  threads (x fastest)\n");
    for (int w = 0; w < m->warps_per_block; w++) {
        const warpmap_warp *x = &m->warps[w];
        sbuf_addf(&b, "%4d  %5d  ", w, x->lanes);
        idx_text(&b, x->first, m->block);
        sbuf_add(&b, " .. ");
        idx_text(&b, x->last, m->block);
        if (x->lanes < WARPMAP_WARP)
            sbuf_addf(&b, "  (%d lanes idle)", WARPMAP_WARP - x->lanes);
        sbuf_addc(&b, '\n');
    }
    if (explain) {
        sbuf_add(&b, "\nhow:\n");
        sbuf_add(&b, "  A block's threads are numbered x fastest: linear id = x");
        if (m->block[1] > 1 || m->block[2] > 1)
            sbuf_addf(&b, " + y * %lld", (long long)m->block[0]);
        if (m->block[2] > 1)
            sbuf_addf(&b, " + z * %lld", (long long)(m->block[0] * m->block[1]));
        sbuf_add(&b, ".\n");
        sbuf_addf(&b,
                  "  Each 32 consecutive ids are one warp: ceil(%lld / 32) = %d warp%s per "
                  "block, x %lld block%s = %lld.\n",
                  (long long)m->threads_per_block, m->warps_per_block,
                  m->warps_per_block == 1 ? "" : "s", (long long)m->blocks,
                  m->blocks == 1 ? "" : "s", (long long)m->warps_in_grid);
        if (m->threads_per_block % WARPMAP_WARP)
            sbuf_addf(&b,
                      "  The last warp of each block holds %lld threads: its other %lld lanes "
                      "sit idle but still take warp slots (a block size that is a multiple of 32 "
                      "wastes none).\n",
                      (long long)(m->threads_per_block % WARPMAP_WARP),
                      (long long)(WARPMAP_WARP - m->threads_per_block % WARPMAP_WARP));
        if (m->rows_split)
            sbuf_add(&b, "  Some warps hold threads of more than one row (y or z): a branch or "
                         "an access that depends on y splits them.\n");
    }
    fputs(sbuf_str(&b), stdout);
    sbuf_free(&b);
}

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
    else
        print_text(&m, explain);
    return EXIT_OK;
}
