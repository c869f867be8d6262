/* coalesce: the global-memory sector model. Since Maxwell the L1/L2 move
 * global data in 32-byte sectors, and a warp's request costs one sector per
 * distinct 32-byte-aligned block any active lane touches; the bytes the
 * lanes did not ask for are wasted bandwidth. Offsets are taken from a base
 * that is 256-byte aligned, which is what cudaMalloc guarantees (CUDA C++
 * Programming Guide, "Device Memory Accesses"); a base pointer offset by a
 * non-multiple of 32 bytes would touch more sectors than reported. */
#include "analysis/warp/coalesce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The L1's cycles for one global load request, from
 * scripts/timeprobe/l1lines.cu on an H200 (tests/data/timeprobe/h200/
 * l1lines): the tag stage looks up four of its lines a clock (Nsight
 * Compute's l1tex__t_set_accesses, 8 a request of 32 lines), and the data
 * stage reads one 4-byte word a bank a clock from each of 32 banks, the
 * bank being the word's place in its 128-byte line, so lines whose words
 * fall in the same bank take a clock each. 32 lanes each in its own line
 * at a 128-byte stride: 32 cycles (all in bank 0); at 132 bytes: 8 (the
 * tag stage). Set conflicts the probe also saw (up to 3 cycles more at
 * some strides: 392 bytes took 11 where this says 8) follow the L1's set
 * hash, which is not published, and are left out. */
static int request_wavefronts(const int64_t *starts, int n, int width, int lines)
{
    int in_bank[32] = {0}, worst = (lines + 3) / 4;
    int64_t last_line[32];
    for (int b = 0; b < 32; b++)
        last_line[b] = INT64_MIN;
    for (int i = 0; i < n; i++) {
        if (i > 0 && starts[i] == starts[i - 1])
            continue;
        int64_t line = starts[i] >> 7;
        int first = (int)((starts[i] & 127) >> 2), words = width < 4 ? 1 : width / 4;
        for (int b = first; b < first + words; b++)
            if (last_line[b] != line) {
                last_line[b] = line;
                if (++in_bank[b] > worst)
                    worst = in_bank[b];
            }
    }
    return worst;
}

bool coalesce_request_eval(const int64_t addr[LANES_WARP], uint32_t active, int width,
                           coalesce_request *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16) {
        snprintf(why, why_size,
                 "an access of %d bytes per lane is not a global-memory access width "
                 "(1, 2, 4, 8 or 16)",
                 width);
        return false;
    }
    int64_t starts[LANES_WARP];
    int n = 0;
    for (int l = 0; l < LANES_WARP; l++) {
        if (!(active >> l & 1))
            continue;
        if (addr[l] % width != 0) {
            snprintf(why, why_size,
                     "lane %d's address %lld is not a multiple of the access width %d "
                     "(a misaligned global-memory access faults)",
                     l, (long long)addr[l], width);
            return false;
        }
        starts[n++] = addr[l];
    }
    /* Sorted starts give their sectors and 128-byte lines in order too (an
     * aligned access of at most 16 bytes never straddles a sector). Lanes
     * that ask for the same address are served once (a broadcast): the
     * bytes asked for are the distinct ones, as aligned accesses of one
     * width either coincide or do not overlap. */
    lanes_sort(starts, n);
    _Static_assert(COALESCE_SECTOR == 32, "sectors and lines by shifts");
    int run = 0;
    for (int i = 0; i < n; i++) {
        /* >> floors for negative offsets too (an arithmetic shift, as gcc
         * and clang do). */
        int64_t sector = starts[i] >> 5, prev = i ? starts[i - 1] >> 5 : 0;
        if (i == 0 || sector != prev) {
            out->sectors++;
            if (i > 0 && sector != prev + 1) {
                out->run_sectors += run < 4 ? 4 : run;
                run = 0;
            }
            run++;
        }
        if (i == 0 || sector >> 2 != prev >> 2)
            out->lines++;
        if (i == 0 || starts[i] != starts[i - 1])
            out->bytes += width;
    }
    if (run > 0)
        out->run_sectors += run < 4 ? 4 : run;
    out->ideal = (int)((out->bytes + COALESCE_SECTOR - 1) / COALESCE_SECTOR);
    out->wavefronts = request_wavefronts(starts, n, width, out->lines);
    return true;
}

typedef struct coalesce_ctx {
    int width;
    coalesce_result *out;
    /* The last request: one whose lanes all moved by the same multiple of
     * 128 bytes touches as many sectors and lines (a loop striding whole
     * rows), and is not evaluated again. */
    bool have_last;
    uint32_t last_active;
    int64_t last_addr[LANES_WARP];
    coalesce_request last;
    bool have_addr; /* addr: the one address every request so far was at */
    int64_t addr;
} coalesce_ctx;

/* Whether every active lane of v is at the address the requests before
 * were all at (the first request sets it). */
static bool at_one_address(coalesce_ctx *ctx, const lanes_visit *v)
{
    if (v->repeat > 1)
        return false;
    for (int l = 0; l < LANES_WARP; l++) {
        if (!(v->active >> l & 1))
            continue;
        if (!ctx->have_addr) {
            ctx->have_addr = true;
            ctx->addr = v->value[l];
        } else if (v->value[l] != ctx->addr) {
            return false;
        }
    }
    return true;
}

static bool moved_by_lines(const coalesce_ctx *ctx, const lanes_visit *v)
{
    return ctx->have_last && v->active == ctx->last_active &&
           lanes_moved_by(ctx->last_addr, v->value, v->active, 128);
}

static bool on_request(const lanes_visit *v, int64_t m[LANES_METRICS], char *why, size_t why_size,
                       void *p)
{
    coalesce_ctx *ctx = p;
    coalesce_request req;
    if (moved_by_lines(ctx, v))
        req = ctx->last;
    else if (!coalesce_request_eval(v->value, v->active, ctx->width, &req, why, why_size))
        return false;
    ctx->have_last = true;
    ctx->last_active = v->active;
    memcpy(ctx->last_addr, v->value, sizeof ctx->last_addr);
    ctx->last = req;
    m[0] = req.sectors;
    m[1] = req.bytes;
    m[2] = req.ideal;
    m[3] = req.lines;
    m[4] = req.run_sectors;
    m[5] = req.wavefronts;
    coalesce_result *r = ctx->out;
    if (v->probe)
        return true;
    if (r->requests == 0 || req.sectors > r->worst_sectors) {
        r->worst_sectors = req.sectors;
        r->worst_ideal = req.ideal;
        r->worst_efficiency = (double)req.bytes / ((double)req.sectors * COALESCE_SECTOR);
        r->worst_warp = v->warp;
        r->worst_iteration = v->iteration;
        r->worst_active = v->active;
        memcpy(r->worst_addr, v->value, sizeof r->worst_addr);
    }
    r->requests += v->repeat;
    r->lane_ops += (int64_t)__builtin_popcount(v->active) * v->repeat;
    if (r->one_address && !at_one_address(ctx, v))
        r->one_address = false;
    return true;
}

static const char alignment_note[] =
    "offsets are taken from a 256-byte-aligned base pointer (as cudaMalloc returns)";

bool coalesce_analyze(const mem_access *a, const int64_t block[3], const expr_env *env,
                      coalesce_result *out)
{
    memset(out, 0, sizeof *out);
    out->width = a->width;
    out->ideal_sectors = (a->width * LANES_WARP + COALESCE_SECTOR - 1) / COALESCE_SECTOR;
    coalesce_ctx ctx = {.width = a->width, .out = out};
    out->one_address = true;
    lanes_result lr;
    bool ok =
        lanes_run_access(a, block, env, on_request, &ctx, &lr, out->reason, sizeof out->reason);
    out->warps = lr.warps;
    if (!ok) {
        out->unreached = lr.ok && lr.visits == 0;
        out->requests = 0;
        out->worst_sectors = 0;
        return false;
    }
    out->analyzed = true;
    out->one_address = out->one_address && out->requests > 0;
    out->requests = lr.visits;
    out->busiest_requests = lr.busiest_requests;
    out->worst_sectors = (int)lr.worst[0];
    out->total_sectors = lr.sum[0];
    out->total_lines = lr.sum[3];
    out->total_run_sectors = lr.sum[4];
    out->total_wavefronts = lr.sum[5];
    out->average_sectors = (double)lr.sum[0] / (double)lr.visits;
    out->efficiency = (double)lr.sum[1] / ((double)lr.sum[0] * COALESCE_SECTOR);
    out->assumed = true;
    out->capped = lr.loop_capped;
    out->guard_assumed = lr.guard_assumed;
    out->bound_sampled = lr.bound_sampled;
    snprintf(out->note, sizeof out->note, "%s%s%.680s", alignment_note, lr.note[0] ? "; " : "",
             lr.note);
    return true;
}

bool coalesce_analyze_reached(const mem_access *a, const int64_t block[3], const int64_t grid[3],
                              const expr_env *env, coalesce_result *out)
{
    bool ok = coalesce_analyze(a, block, env, out);
    if (ok || !out->unreached || !env || !grid)
        return ok;
    static const expr_builtin bid[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    for (int k = 0; k < 2; k++) {
        expr_env moved = *env;
        for (int d = 0; d < 3; d++)
            if (moved.has_builtin[bid[d]])
                expr_env_set_builtin(&moved, bid[d], k == 0 ? grid[d] / 2 : grid[d] - 1);
        coalesce_result again;
        if (coalesce_analyze(a, block, &moved, &again)) {
            *out = again;
            return true;
        }
    }
    return false;
}
