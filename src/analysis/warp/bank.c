/* bank: the shared-memory bank model. Shared memory is 32 banks of 4-byte
 * words, word w in bank w % 32; one wavefront serves at most one word per
 * bank. Lanes reading the same word share it (broadcast), so what costs is
 * the number of *distinct* words that fall in one bank. Wider accesses are
 * split: 8-byte accesses are processed a half-warp at a time and 16-byte
 * ones a quarter-warp at a time (so 32 lanes x 8 bytes need at least 2
 * wavefronts and x 16 bytes 4).
 *
 * Two exceptions for 8- and 16-byte requests whose lanes repeat addresses,
 * found by measuring (ncu, l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld
 * per request, H100 80GB HBM3, driver 580.159.04, CUDA 13.0): the probe
 * kernels in kernels/bank_probe.cu plus about 500 random index patterns,
 * all of which this model reproduces. They are inferred rules, not
 * documented behaviour:
 *   - lane pairs: when every pair of lanes 2i, 2i+1 reads the same address
 *     (the whole warp; inactive lanes do not break it), the pair acts as
 *     one lane: 8-byte requests are then processed as one group of 16 such
 *     lanes, 16-byte ones as two groups (one per half-warp). All lanes on
 *     one 8-byte element: 1 wavefront; on one 16-byte element: 2. If even
 *     one pair differs, the plain half-/quarter-warp rule applies, also to
 *     a half-warp whose lanes all read one address.
 *   - 16-byte pairs of neighbours: when every pair 2i, 2i+1 reads two
 *     consecutive elements (e, e + 1) and every four lanes 4k..4k+3 read at
 *     most two distinct elements, each half-warp is one group.
 * In a group, the cost is the largest number of distinct words in a bank. */
#include "analysis/warp/bank.h"

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

/* Sorts words[0..n) and counts the distinct ones into per-bank counts;
 * returns how many there are. */
static int count_distinct(int64_t *words, int n, int banks[BANK_COUNT])
{
    lanes_sort(words, n);
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

static bool both_active(uint32_t active, int a, int b)
{
    return (active >> a & 1) && (active >> b & 1);
}

/* Every active pair of lanes 2i, 2i+1 reads one address. */
static bool lane_pairs_equal(const int64_t *addr, uint32_t active)
{
    for (int i = 0; i < LANES_WARP; i += 2)
        if (both_active(active, i, i + 1) && addr[i] != addr[i + 1])
            return false;
    return true;
}

/* 16-byte: every pair reads (e, e + 1) and every four lanes at most two
 * distinct elements; inactive lanes do not break it. */
static bool neighbour_pairs(const int64_t *addr, uint32_t active)
{
    int64_t prev = 0; /* element pair of the quad's first pair, as its even address */
    bool have_prev = false;
    for (int i = 0; i < LANES_WARP; i += 2) {
        if (i % 4 == 0)
            have_prev = false;
        bool a0 = active >> i & 1, a1 = active >> (i + 1) & 1;
        if (!a0 && !a1)
            continue;
        if (a0 && a1 && addr[i + 1] != addr[i] + 16)
            return false;
        int64_t even = a0 ? addr[i] : addr[i + 1] - 16;
        if (have_prev && even != prev)
            return false;
        prev = even;
        have_prev = true;
    }
    return true;
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
    for (int l = 0; l < LANES_WARP; l++)
        if ((active >> l & 1) && addr[l] % width != 0) {
            snprintf(why, why_size,
                     "lane %d's address %lld is not a multiple of the access width %d "
                     "(a misaligned shared-memory access faults)",
                     l, (long long)addr[l], width);
            return false;
        }
    int words_per_lane = width <= BANK_WORD_BYTES ? 1 : width / BANK_WORD_BYTES;
    out->groups = width <= 4 ? 1 : width / 4;
    if (width > 4 && lane_pairs_equal(addr, active)) {
        out->groups = width == 8 ? 1 : 2;
        out->merged = BANK_MERGE_LANE_PAIRS;
    } else if (width == 16 && neighbour_pairs(addr, active)) {
        out->groups = 2;
        out->merged = BANK_MERGE_NEIGHBOUR_PAIRS;
    }
    out->group_lanes = LANES_WARP / out->groups;
    int64_t all[LANES_WARP * 4];
    int n_all = 0;
    for (int g = 0; g < out->groups; g++) {
        int64_t words[LANES_WARP * 4];
        int n = 0;
        for (int l = g * out->group_lanes; l < (g + 1) * out->group_lanes; l++) {
            if (!(active >> l & 1))
                continue;
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
    /* The last request: one whose lanes all moved by the same multiple of
     * 128 bytes (32 banks of 4 bytes) meets the same banks the same way. */
    bool have_last;
    uint32_t last_active;
    int64_t last_addr[LANES_WARP];
    bank_request last;
} bank_ctx;

static bool on_request(const lanes_visit *v, int64_t m[LANES_METRICS], char *why, size_t why_size,
                       void *p)
{
    bank_ctx *ctx = p;
    bank_request req;
    if (ctx->have_last && v->active == ctx->last_active &&
        lanes_moved_by(ctx->last_addr, v->value, v->active, 128))
        req = ctx->last;
    else if (!bank_request_eval(v->value, v->active, ctx->width, &req, why, why_size))
        return false;
    ctx->have_last = true;
    ctx->last_active = v->active;
    memcpy(ctx->last_addr, v->value, sizeof ctx->last_addr);
    ctx->last = req;
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
        r->requests += v->repeat;
    return true;
}

bool bank_analyze(const mem_access *a, const int64_t block[3], const expr_env *env,
                  bank_result *out)
{
    memset(out, 0, sizeof *out);
    out->width = a->width;
    out->ideal = bank_ideal(a->width);
    bank_ctx ctx = {.width = a->width, .out = out};
    lanes_result lr;
    bool ok =
        lanes_run_access(a, block, env, on_request, &ctx, &lr, out->reason, sizeof out->reason);
    out->warps = lr.warps;
    if (!ok) {
        out->worst = 0;
        out->requests = 0;
        out->unreached = lr.ok && lr.visits == 0;
        return false;
    }
    out->analyzed = true;
    out->worst = (int)lr.worst[0];
    out->requests = lr.visits;
    out->total = lr.sum[0];
    out->average = (double)lr.sum[0] / (double)lr.visits;
    /* A request whose lanes repeat addresses can need fewer wavefronts than
     * a full warp of distinct elements (an 8-byte broadcast takes 1): the
     * ideal is then what that request needs without conflicts. */
    if (out->worst_req.ideal >= 1 && out->worst_req.ideal < out->ideal)
        out->ideal = out->worst_req.ideal;
    out->degree = (double)out->worst / out->ideal;
    out->assumed = lr.n_assumed > 0 || lr.bound_sampled || lr.guard_assumed || lr.loop_capped;
    out->capped = lr.loop_capped;
    out->guard_assumed = lr.guard_assumed;
    out->bound_sampled = lr.bound_sampled;
    snprintf(out->note, sizeof out->note, "%s", lr.note);
    return true;
}
