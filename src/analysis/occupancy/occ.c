/* occ: theoretical occupancy engine. The rules are those of NVIDIA's
 * cuda_occupancy.h (CUDA 13.0); tests/unit/test_occ_nvidia.c checks every
 * compute capability the header knows against it. */
#include "analysis/occupancy/occ.h"

#include <limits.h>
#include <stddef.h>

static int64_t div_up(int64_t x, int64_t y)
{
    return (x + y - 1) / y;
}

static int64_t round_up(int64_t x, int64_t unit)
{
    return unit > 0 ? div_up(x, unit) * unit : x;
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

static int clamp_blocks(int64_t n)
{
    return n > OCC_UNLIMITED ? OCC_UNLIMITED : (int)n;
}

/* The smallest carveout that holds `bytes`, or -1 if none does. */
static int64_t carveout_at_least(const gpu_arch *a, int64_t bytes)
{
    for (int i = 0; i < a->n_carveouts; i++)
        if (a->carveouts[i] >= bytes)
            return a->carveouts[i];
    return -1;
}

/* Warps of a block fit the register file of an SM whose registers are split
 * over `parts` sub-partitions; returns the block count, 0 if none fits. */
static int reg_blocks(const gpu_arch *a, int64_t per_warp, int warps_per_block, int parts,
                      occ_result *r, bool record)
{
    int64_t per_block = per_warp * warps_per_block;
    /* The launch check assumes a block's warps are spread evenly over all
     * sub-partitions, so it rounds the warp count up to a multiple of them. */
    int64_t check = per_warp * round_up(warps_per_block, parts);
    if (record) {
        r->regs_per_block_allocated = per_block;
        r->regs_per_block_launch_check = check;
    }
    if (check > a->regs_per_block || per_block > a->regs_per_block)
        return 0;
    if (per_warp == 0)
        return OCC_UNLIMITED;
    int per_part = a->regs_per_sm / parts;
    int warps_per_part = (int)(per_part / per_warp);
    if (record) {
        r->regs_per_sub_partition = per_part;
        r->warps_per_sub_partition = warps_per_part;
    }
    return warps_per_part * parts / warps_per_block;
}

static int registers_limit(const gpu_arch *a, const occ_kernel *k, int warps_per_block, int threads,
                           occ_result *r)
{
    if (k->regs_per_thread > a->max_regs_per_thread)
        return 0;
    r->regs_per_warp = k->regs_per_thread * a->warp_size;
    if (a->reg_alloc_unit <= 0) {
        /* Textbook model: registers per thread times threads, no rounding. */
        int64_t per_block = (int64_t)k->regs_per_thread * threads;
        r->regs_per_warp_allocated = r->regs_per_warp;
        r->regs_per_block_allocated = per_block;
        r->regs_per_block_launch_check = per_block;
        if (per_block > a->regs_per_block)
            return 0;
        return per_block ? clamp_blocks(a->regs_per_sm / per_block) : OCC_UNLIMITED;
    }
    int64_t per_warp = round_up(r->regs_per_warp, a->reg_alloc_unit);
    r->regs_per_warp_allocated = (int)per_warp;
    int parts = a->sub_partitions > 0 ? a->sub_partitions : 1;
    int n = reg_blocks(a, per_warp, warps_per_block, parts, r, true);
    /* GP100 has 2 sub-partitions, but a kernel that cannot run on the other
     * Pascal parts (4) is refused there too (cuda_occupancy.h). */
    if (n > 0 && a->launch_check_sub_partitions > parts &&
        reg_blocks(a, per_warp, warps_per_block, a->launch_check_sub_partitions, r, false) == 0)
        n = 0;
    return n;
}

static int64_t preferred_carveout(const gpu_arch *a, int percent)
{
    if (a->n_carveouts == 0 || percent < 0)
        return a->smem_per_sm;
    int64_t want = (int64_t)percent * a->smem_per_sm / 100;
    int64_t c = carveout_at_least(a, want);
    return c < 0 ? a->smem_per_sm : c;
}

static int smem_limit(const gpu_arch *a, const occ_kernel *k, const occ_launch *l, occ_result *r)
{
    int64_t static_total, total;
    /* Sizes near INT64_MAX are typos, not shared memory: refuse them rather
     * than let the sum wrap around. */
    if (__builtin_add_overflow(k->static_smem, a->smem_reserved_per_block, &static_total) ||
        __builtin_add_overflow(static_total, l->dynamic_smem, &total) ||
        total > ((int64_t)1 << 40)) {
        r->smem_per_block_requested = INT64_MAX;
        r->failure = OCC_FAIL_SMEM_PER_BLOCK;
        return 0;
    }
    int64_t alloc = round_up(total, a->smem_alloc_unit);
    r->smem_per_block_requested = total;
    r->smem_per_block_allocated = alloc;
    r->smem_carveout_preferred = preferred_carveout(a, l->carveout_percent);

    int64_t block_limit = a->smem_per_block;
    /* Opting in raises the per-block ceiling only if the attribute's maximum
     * needs it; the driver's reserved bytes come on top (Ampere and later). */
    if (l->smem_optin && static_total + l->max_dynamic_smem > a->smem_per_block)
        block_limit = a->smem_per_block_optin;
    block_limit += a->smem_reserved_per_block;
    r->smem_per_block_limit = block_limit;

    if (l->smem_optin && l->dynamic_smem > l->max_dynamic_smem) {
        r->failure = OCC_FAIL_DYNAMIC_ATTRIBUTE;
        return 0;
    }
    if (alloc > block_limit) {
        r->failure = OCC_FAIL_SMEM_PER_BLOCK;
        return 0;
    }
    int64_t per_sm = r->smem_carveout_preferred;
    if (per_sm < alloc) {
        /* The carveout is a preference: the driver picks a larger one when a
         * single block would not fit otherwise. */
        per_sm = a->n_carveouts ? carveout_at_least(a, alloc) : a->smem_per_sm;
        if (per_sm < 0)
            per_sm = a->smem_per_sm;
    }
    r->smem_per_sm_used = per_sm;
    return alloc > 0 ? clamp_blocks(per_sm / alloc) : OCC_UNLIMITED;
}

static bool bad_input(const gpu_arch *a, const occ_kernel *k, const occ_launch *l)
{
    return a->warp_size <= 0 || a->max_threads_per_sm <= 0 || l->threads_per_block <= 0 ||
           k->regs_per_thread < 0 || k->static_smem < 0 || k->barriers < 0 || l->dynamic_smem < 0 ||
           l->carveout_percent > 100 || l->carveout_percent < -1 ||
           (l->smem_optin && l->max_dynamic_smem < 0);
}

bool occ_compute(const gpu_arch *a, const occ_kernel *k, const occ_launch *l, occ_result *r)
{
    *r = (occ_result){0};
    r->limit_warps = r->limit_registers = r->limit_smem = OCC_UNLIMITED;
    r->limit_blocks = r->limit_barriers = OCC_UNLIMITED;
    if (bad_input(a, k, l)) {
        r->failure = OCC_FAIL_BAD_INPUT;
        return false;
    }
    int threads = l->threads_per_block;
    int wpb = (int)div_up(threads, a->warp_size);
    r->warps_per_block = wpb;
    r->max_warps_per_sm = a->max_threads_per_sm / a->warp_size;

    r->limit_warps = threads > a->max_threads_per_block ? 0 : r->max_warps_per_sm / wpb;
    r->limit_registers = registers_limit(a, k, wpb, threads, r);
    r->limit_blocks = a->max_blocks_per_sm;
    r->limit_smem = smem_limit(a, k, l, r);

    int n = min_int(min_int(r->limit_registers, r->limit_smem),
                    min_int(r->limit_warps, r->limit_blocks));
    unsigned lim = 0;
    if (n == r->limit_warps)
        lim |= OCC_LIM_WARPS;
    if (n == r->limit_registers)
        lim |= OCC_LIM_REGISTERS;
    if (n == r->limit_smem)
        lim |= OCC_LIM_SMEM;
    if (n == r->limit_blocks)
        lim |= OCC_LIM_BLOCKS;

    /* Hopper and later hold block barriers in a per-SM pool sized by the
     * block limit; a block using b barriers takes b slots. */
    if (a->barrier_slots_per_block > 0 && k->barriers > 0) {
        r->barrier_slots_per_sm = a->barrier_slots_per_block * a->max_blocks_per_sm;
        r->limit_barriers = r->barrier_slots_per_sm / k->barriers;
        /* When barriers alone bind, the other resources no longer limit.
         * (cuda_occupancy.h keeps their bits; see test_occ_nvidia.c.) */
        if (r->limit_barriers < n)
            lim = OCC_LIM_BARRIERS;
        else if (r->limit_barriers == n)
            lim |= OCC_LIM_BARRIERS;
        n = min_int(n, r->limit_barriers);
    }
    if (a->max_barriers_per_block > 0 && k->barriers > a->max_barriers_per_block) {
        r->failure = OCC_FAIL_BARRIERS;
        n = 0;
    }

    if (n == 0) {
        if (r->failure == OCC_OK) {
            if (r->limit_warps == 0)
                r->failure = OCC_FAIL_THREADS;
            else if (k->regs_per_thread > a->max_regs_per_thread)
                r->failure = OCC_FAIL_REGS_PER_THREAD;
            else if (r->limit_registers == 0)
                r->failure = OCC_FAIL_REGS_PER_BLOCK;
            else
                r->failure = OCC_FAIL_SMEM_PER_BLOCK;
        }
        r->limiters = 0;
        return false;
    }
    r->limiters = lim;
    r->blocks_per_sm = n;
    r->warps_per_sm = n * wpb;
    r->occupancy = (double)r->warps_per_sm / r->max_warps_per_sm;
    return true;
}

int occ_max_block_for_registers(const gpu_arch *a, const occ_kernel *k)
{
    if (a->warp_size <= 0)
        return 0;
    for (int t = a->max_threads_per_block; t > 0;) {
        occ_result r = {0};
        int wpb = (int)div_up(t, a->warp_size);
        if (registers_limit(a, k, wpb, t, &r) > 0)
            return t;
        /* Step to the next lower multiple of the warp size. */
        t = (t % a->warp_size) ? t - t % a->warp_size : t - a->warp_size;
    }
    return 0;
}

int occ_best_block_size(const gpu_arch *a, const occ_kernel *k, const occ_launch *l,
                        occ_result *best)
{
    int best_threads = 0;
    occ_result cur;
    if (a->warp_size <= 0)
        return 0;
    for (int t = a->max_threads_per_block / a->warp_size * a->warp_size; t > 0; t -= a->warp_size) {
        occ_launch try = *l;
        try.threads_per_block = t;
        if (!occ_compute(a, k, &try, &cur))
            continue;
        if (best_threads == 0 || cur.warps_per_sm > best->warps_per_sm) {
            *best = cur;
            best_threads = t;
        }
    }
    return best_threads;
}

/* Capping registers: the smallest cap change that raises occupancy at all
 * (the largest cap that does), and, when it differs, the largest cap that
 * reaches the best occupancy registers alone can give. Returns how many. */
static int advise_registers(const gpu_arch *a, const occ_kernel *k, const occ_launch *l,
                            const occ_result *cur, occ_advice out[2])
{
    occ_advice first = {0}, best = {0};
    for (int regs = k->regs_per_thread - 1; regs >= 0; regs--) {
        occ_kernel kk = *k;
        kk.regs_per_thread = regs;
        occ_result r;
        if (!occ_compute(a, &kk, l, &r) || r.warps_per_sm <= cur->warps_per_sm)
            continue;
        occ_advice adv = {OCC_ADVICE_REGISTERS, regs, r.blocks_per_sm, r.occupancy};
        if (first.kind == OCC_ADVICE_NONE)
            first = adv;
        if (r.occupancy > best.new_occupancy + 1e-12)
            best = adv;
    }
    if (first.kind == OCC_ADVICE_NONE)
        return 0;
    out[0] = first;
    if (best.value == first.value)
        return 1;
    out[1] = best;
    return 2;
}

static bool advise_block(const gpu_arch *a, const occ_kernel *k, const occ_launch *l,
                         const occ_result *cur, occ_advice *out)
{
    occ_advice best = {0};
    int64_t best_dist = INT64_MAX;
    for (int t = a->warp_size; t <= a->max_threads_per_block; t += a->warp_size) {
        occ_launch ll = *l;
        ll.threads_per_block = t;
        occ_result r;
        if (!occ_compute(a, k, &ll, &r) || r.warps_per_sm <= cur->warps_per_sm)
            continue;
        int64_t dist =
            t > l->threads_per_block ? t - l->threads_per_block : l->threads_per_block - t;
        if (r.occupancy > best.new_occupancy + 1e-12 ||
            (r.occupancy > best.new_occupancy - 1e-12 && dist < best_dist)) {
            best = (occ_advice){OCC_ADVICE_BLOCK, t, r.blocks_per_sm, r.occupancy};
            best_dist = dist;
        }
    }
    *out = best;
    return best.kind != OCC_ADVICE_NONE;
}

/* Largest shared-memory footprint (static + dynamic) that still reaches the
 * best occupancy available by shrinking shared memory alone. */
static bool advise_smem(const gpu_arch *a, const occ_kernel *k, const occ_launch *l,
                        const occ_result *cur, occ_advice *out)
{
    if (!(cur->limiters & OCC_LIM_SMEM))
        return false;
    int64_t total = k->static_smem + l->dynamic_smem;
    int64_t step = a->smem_alloc_unit > 0 ? a->smem_alloc_unit : 1;
    occ_advice best = {0};
    /* Candidate sizes: each block count n fits when n * alloc <= carveout. */
    for (int n = cur->blocks_per_sm + 1; n <= cur->limit_blocks && n <= 1024; n++) {
        int64_t per_sm = preferred_carveout(a, l->carveout_percent);
        int64_t alloc = per_sm / n / step * step;
        int64_t bytes = alloc - a->smem_reserved_per_block;
        if (bytes < 0 || bytes >= total)
            continue;
        occ_kernel kk = *k;
        occ_launch ll = *l;
        kk.static_smem = bytes < k->static_smem ? bytes : k->static_smem;
        ll.dynamic_smem = bytes - kk.static_smem;
        occ_result r;
        if (occ_compute(a, &kk, &ll, &r) && r.warps_per_sm > cur->warps_per_sm &&
            r.occupancy > best.new_occupancy + 1e-12)
            best = (occ_advice){OCC_ADVICE_SMEM, bytes, r.blocks_per_sm, r.occupancy};
    }
    *out = best;
    return best.kind != OCC_ADVICE_NONE;
}

static bool advise_carveout(const gpu_arch *a, const occ_kernel *k, const occ_launch *l,
                            const occ_result *cur, occ_advice *out)
{
    if (l->carveout_percent < 0 || !(cur->limiters & OCC_LIM_SMEM))
        return false;
    for (int pct = l->carveout_percent + 1; pct <= 100; pct++) {
        occ_launch ll = *l;
        ll.carveout_percent = pct;
        occ_result r;
        if (occ_compute(a, k, &ll, &r) && r.warps_per_sm > cur->warps_per_sm) {
            *out = (occ_advice){OCC_ADVICE_CARVEOUT, pct, r.blocks_per_sm, r.occupancy};
            return true;
        }
    }
    return false;
}

int occ_advise(const gpu_arch *a, const occ_kernel *k, const occ_launch *l, const occ_result *cur,
               occ_advice *out, int max)
{
    occ_advice all[5];
    int n = 0;
    if (cur->blocks_per_sm == 0 || cur->occupancy >= 1.0)
        return 0;
    if (cur->limiters & OCC_LIM_REGISTERS)
        n += advise_registers(a, k, l, cur, &all[n]);
    if (advise_block(a, k, l, cur, &all[n]))
        n++;
    if (advise_smem(a, k, l, cur, &all[n]))
        n++;
    if (advise_carveout(a, k, l, cur, &all[n]))
        n++;
    /* Best first: highest resulting occupancy; stable among equals so that
     * the cheaper kinds listed first above stay ahead. */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && all[j].new_occupancy > all[j - 1].new_occupancy + 1e-12; j--) {
            occ_advice t = all[j];
            all[j] = all[j - 1];
            all[j - 1] = t;
        }
    int m = n < max ? n : max;
    for (int i = 0; i < m; i++)
        out[i] = all[i];
    return m;
}

const char *occ_limiter_name(occ_limiter lim)
{
    switch (lim) {
    case OCC_LIM_WARPS:
        return "warps";
    case OCC_LIM_REGISTERS:
        return "registers";
    case OCC_LIM_SMEM:
        return "shared_memory";
    case OCC_LIM_BLOCKS:
        return "blocks";
    case OCC_LIM_BARRIERS:
        return "barriers";
    }
    return "unknown";
}

const char *occ_failure_reason(occ_failure f)
{
    switch (f) {
    case OCC_OK:
        return "";
    case OCC_FAIL_BAD_INPUT:
        return "invalid launch parameters";
    case OCC_FAIL_THREADS:
        return "block has more threads than the device allows per block";
    case OCC_FAIL_REGS_PER_THREAD:
        return "kernel uses more registers per thread than the architecture allows";
    case OCC_FAIL_REGS_PER_BLOCK:
        return "too many resources requested for launch: the block needs more registers "
               "than one block may have";
    case OCC_FAIL_SMEM_PER_BLOCK:
        return "block needs more shared memory than one block may have";
    case OCC_FAIL_DYNAMIC_ATTRIBUTE:
        return "dynamic shared memory exceeds the kernel's "
               "cudaFuncAttributeMaxDynamicSharedMemorySize";
    case OCC_FAIL_BARRIERS:
        return "kernel uses more named barriers than a block may have";
    }
    return "unknown";
}
