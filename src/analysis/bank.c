/* bank: the shared-memory bank model. Shared memory is 32 banks of 4-byte
 * words, word w in bank w % 32; one wavefront serves at most one word per
 * bank. Lanes reading the same word share it (broadcast), so what costs is
 * the number of *distinct* words that fall in one bank. Wider accesses are
 * split: 8-byte accesses are processed a half-warp at a time and 16-byte
 * ones a quarter-warp at a time (so 32 lanes x 8 bytes need at least 2
 * wavefronts and x 16 bytes 4), which is what Nsight Compute's
 * l1tex__data_pipe_lsu_wavefronts_mem_shared counters show on sm_70 to
 * sm_90 (measured on an H100; see kernels/bank_probe.cu). */
#include "analysis/bank.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t bank_word_of(int64_t addr)
{
    int64_t q = addr / BANK_WORD_BYTES;
    return addr % BANK_WORD_BYTES < 0 ? q - 1 : q;
}

int bank_of(int64_t addr)
{
    int64_t b = bank_word_of(addr) % BANK_COUNT;
    return (int)(b < 0 ? b + BANK_COUNT : b);
}

int bank_ideal(int width)
{
    int n = (width * LANES_WARP + 127) / 128;
    return n < 1 ? 1 : n;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Sorts words[0..n) and counts the distinct ones into per-bank counts. */
static int count_distinct(int64_t *words, int n, int banks[BANK_COUNT])
{
    qsort(words, (size_t)n, sizeof *words, cmp_i64);
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && words[i] == words[i - 1])
            continue;
        int64_t b = words[i] % BANK_COUNT;
        banks[b < 0 ? b + BANK_COUNT : b]++;
        distinct++;
    }
    return distinct;
}

bool bank_request_eval(const int64_t addr[LANES_WARP], uint32_t active, int width,
                       bank_request *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16) {
        snprintf(why, why_size,
                 "an access of %d bytes per lane is not a shared-memory access "
                 "width (1, 2, 4, 8 or 16)",
                 width);
        return false;
    }
    int words_per_lane = width <= BANK_WORD_BYTES ? 1 : width / BANK_WORD_BYTES;
    out->groups = width <= 4 ? 1 : width / 4;
    out->group_lanes = LANES_WARP / out->groups;
    int64_t all[LANES_WARP * 4];
    int n_all = 0;
    for (int g = 0; g < out->groups; g++) {
        int64_t words[LANES_WARP * 4];
        int n = 0;
        for (int l = g * out->group_lanes; l < (g + 1) * out->group_lanes; l++) {
            if (!(active >> l & 1))
                continue;
            if (addr[l] % width != 0) {
                snprintf(why, why_size,
                         "lane %d's address %lld is not a multiple of the access width %d "
                         "(a misaligned shared-memory access faults)",
                         l, (long long)addr[l], width);
                return false;
            }
            for (int k = 0; k < words_per_lane; k++)
                words[n++] = all[n_all++] = bank_word_of(addr[l]) + k;
        }
        if (n == 0)
            continue;
        out->ideal++;
        count_distinct(words, n, out->group_banks[g]);
        int most = 0;
        for (int b = 0; b < BANK_COUNT; b++)
            if (out->group_banks[g][b] > most)
                most = out->group_banks[g][b];
        out->group_wavefronts[g] = most;
        out->wavefronts += most;
    }
    out->distinct_words = count_distinct(all, n_all, out->banks);
    return true;
}

typedef struct bank_ctx {
    int width;
    bank_result *out;
} bank_ctx;

static bool on_request(const lanes_visit *v, int64_t m[LANES_METRICS], char *why, size_t why_size,
                       void *p)
{
    bank_ctx *ctx = p;
    bank_request req;
    if (!bank_request_eval(v->value, v->active, ctx->width, &req, why, why_size))
        return false;
    m[0] = req.wavefronts;
    bank_result *r = ctx->out;
    if (!v->probe && (r->requests == 0 || req.wavefronts > r->worst)) {
        r->worst = req.wavefronts;
        r->worst_warp = v->warp;
        r->worst_iteration = v->iteration;
        r->worst_active = v->active;
        memcpy(r->worst_addr, v->value, sizeof r->worst_addr);
        memcpy(r->worst_tid, v->tid, sizeof r->worst_tid);
        r->worst_req = req;
    }
    if (!v->probe)
        r->requests++;
    return true;
}

bool bank_analyze(const mem_access *a, const int64_t block[3], const expr_env *env,
                  bank_result *out)
{
    memset(out, 0, sizeof *out);
    out->width = a->width;
    out->ideal = bank_ideal(a->width);
    if (a->why_not) {
        snprintf(out->reason, sizeof out->reason, "%s", a->why_not);
        return false;
    }
    if (!a->byte_offset) {
        snprintf(out->reason, sizeof out->reason, "the index is not known");
        return false;
    }
    bank_ctx ctx = {.width = a->width, .out = out};
    lanes_job job = {
        .what = "index",
        .value = a->byte_offset,
        .guard = a->guard,
        .loops = a->loops,
        .n_loops = a->n_loops,
        .block = {block[0], block[1], block[2]},
        .env = env,
        .fn = on_request,
        .ctx = &ctx,
    };
    lanes_result lr;
    bool ok = lanes_run(&job, &lr);
    out->warps = lr.warps;
    if (!ok) {
        snprintf(out->reason, sizeof out->reason, "%s", lr.why);
        out->worst = 0;
        out->requests = 0;
        return false;
    }
    if (lr.visits == 0) {
        snprintf(out->reason, sizeof out->reason,
                 "no lane of the block reaches the access with this block shape");
        return false;
    }
    out->analyzed = true;
    out->worst = (int)lr.worst[0];
    out->requests = lr.visits;
    out->average = (double)lr.sum[0] / (double)lr.visits;
    out->degree = (double)out->worst / out->ideal;
    out->assumed = lr.n_assumed > 0 || lr.bound_sampled || lr.guard_assumed || lr.loop_capped;
    out->capped = lr.loop_capped;
    snprintf(out->note, sizeof out->note, "%s", lr.note);
    return true;
}
