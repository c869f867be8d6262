/* occ_explain: an occupancy result in words: the worked steps a student
 * would write (--explain), the limiters and the advice as sentences. Pure
 * (records in, text out), so that the command line and the web page give the
 * same words. */
#include "analysis/calc/occ_explain.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/units.h"

void occ_limiters_text(sbuf *out, unsigned limiters)
{
    static const char *const words[] = {"warps", "registers", "shared memory", "blocks",
                                        "barriers"};
    bool first = true;
    for (int i = 0; i < 5; i++)
        if (limiters & (1u << i)) {
            sbuf_addf(out, "%s%s", first ? "" : ", ", words[i]);
            first = false;
        }
    if (first)
        sbuf_add(out, "-");
}

void occ_advice_text(sbuf *out, const occ_advice *adv, const occ_launch *l)
{
    switch (adv->kind) {
    case OCC_ADVICE_NONE:
        return;
    case OCC_ADVICE_REGISTERS:
        sbuf_addf(out,
                  "cap registers at %lld with `__launch_bounds__(%d, %d)` or "
                  "`-maxrregcount=%lld`",
                  (long long)adv->value, l->threads_per_block, adv->min_blocks_per_sm,
                  (long long)adv->value);
        break;
    case OCC_ADVICE_BLOCK:
        sbuf_addf(out, "use %lld-thread blocks", (long long)adv->value);
        break;
    case OCC_ADVICE_SMEM:
        sbuf_addf(out, "use at most %lld bytes of shared memory per block", (long long)adv->value);
        break;
    case OCC_ADVICE_CARVEOUT:
        sbuf_addf(out, "set cudaFuncAttributePreferredSharedMemoryCarveout to %lld",
                  (long long)adv->value);
        break;
    }
    sbuf_addf(out, " -> %.1f%%", adv->new_occupancy * 100.0);
}

gpu_arch occ_textbook_variant(const gpu_arch *a)
{
    gpu_arch t = *a;
    t.reg_alloc_unit = 0;
    t.smem_alloc_unit = 0;
    t.sub_partitions = 1;
    t.launch_check_sub_partitions = 0;
    t.smem_reserved_per_block = 0;
    return t;
}

static void kib(sbuf *out, int64_t bytes)
{
    char buf[48];
    sbuf_add(out, units_fmt_bytes(bytes, buf, sizeof buf));
}

static const char *min_or_none(int v, char *buf, size_t n)
{
    if (v == OCC_UNLIMITED)
        return "no limit";
    snprintf(buf, n, "%d", v);
    return buf;
}

static void explain_warps(sbuf *o, const gpu_arch *a, const occ_launch *l, const occ_result *r)
{
    sbuf_addf(o, "1. Warps\n");
    sbuf_addf(o, "   warps per block      = ceil(%d threads / %d) = %d\n", l->threads_per_block,
              a->warp_size, r->warps_per_block);
    if (l->threads_per_block % a->warp_size)
        sbuf_addf(o, "                          (the last warp has %d idle lanes)\n",
                  a->warp_size - l->threads_per_block % a->warp_size);
    sbuf_addf(o, "   max warps per SM     = %d threads / %d = %d\n", a->max_threads_per_sm,
              a->warp_size, r->max_warps_per_sm);
    if (l->threads_per_block > a->max_threads_per_block)
        sbuf_addf(o, "   a block may have at most %d threads: cannot launch\n",
                  a->max_threads_per_block);
    else
        sbuf_addf(o, "   blocks by warps      = floor(%d / %d) = %d\n", r->max_warps_per_sm,
                  r->warps_per_block, r->limit_warps);
}

static void explain_registers(sbuf *o, const gpu_arch *a, const occ_kernel *k, const occ_launch *l,
                              const occ_result *r)
{
    char buf[32];
    sbuf_addf(o, "\n2. Registers (%d per thread)\n", k->regs_per_thread);
    if (k->regs_per_thread > a->max_regs_per_thread) {
        sbuf_addf(o, "   a thread may have at most %d registers: cannot launch\n",
                  a->max_regs_per_thread);
        return;
    }
    if (k->regs_per_thread == 0) {
        sbuf_addf(o, "   no registers: registers do not limit the block count\n");
        return;
    }
    if (a->reg_alloc_unit <= 0) {
        sbuf_addf(o, "   registers per block  = %d x %d threads = %lld (no allocation units)\n",
                  k->regs_per_thread, l->threads_per_block, (long long)r->regs_per_block_allocated);
        if (r->regs_per_block_allocated > a->regs_per_block) {
            sbuf_addf(o, "   above the %d registers a block may use: cannot launch\n",
                      a->regs_per_block);
            return;
        }
        sbuf_addf(o, "   blocks by registers  = floor(%d / %lld) = %s\n", a->regs_per_sm,
                  (long long)r->regs_per_block_allocated,
                  min_or_none(r->limit_registers, buf, sizeof buf));
        return;
    }
    sbuf_addf(o, "   registers per warp   = %d x %d lanes = %d\n", k->regs_per_thread, a->warp_size,
              r->regs_per_warp);
    sbuf_addf(o, "   allocated per warp   = %d rounded up to a multiple of %d = %d\n",
              r->regs_per_warp, a->reg_alloc_unit, r->regs_per_warp_allocated);
    sbuf_addf(o, "   per block            = %d x %d warps = %lld", r->regs_per_warp_allocated,
              r->warps_per_block, (long long)r->regs_per_block_allocated);
    if (r->regs_per_block_launch_check != r->regs_per_block_allocated)
        sbuf_addf(o, " (the launch check counts %lld: warps rounded up to %d sub-partitions)",
                  (long long)r->regs_per_block_launch_check,
                  a->launch_check_sub_partitions > a->sub_partitions
                      ? a->launch_check_sub_partitions
                      : a->sub_partitions);
    sbuf_addc(o, '\n');
    if (r->limit_registers == 0) {
        sbuf_addf(o,
                  "   above the %d registers a block may use: cannot launch (\"too many "
                  "resources requested for launch\")\n",
                  a->regs_per_block);
        return;
    }
    if (a->sub_partitions > 1) {
        sbuf_addf(o, "   the SM's %d registers are split over %d sub-partitions: %d each\n",
                  a->regs_per_sm, a->sub_partitions, r->regs_per_sub_partition);
        sbuf_addf(o, "   warps per sub-part.  = floor(%d / %d) = %d, so %d warps per SM\n",
                  r->regs_per_sub_partition, r->regs_per_warp_allocated, r->warps_per_sub_partition,
                  r->warps_per_sub_partition * a->sub_partitions);
        sbuf_addf(o, "   blocks by registers  = floor(%d / %d) = %d\n",
                  r->warps_per_sub_partition * a->sub_partitions, r->warps_per_block,
                  r->limit_registers);
    } else {
        int warps = a->regs_per_sm / r->regs_per_warp_allocated;
        sbuf_addf(o, "   warps per SM         = floor(%d / %d) = %d\n", a->regs_per_sm,
                  r->regs_per_warp_allocated, warps);
        sbuf_addf(o, "   blocks by registers  = floor(%d / %d) = %d\n", warps, r->warps_per_block,
                  r->limit_registers);
    }
}

static void explain_smem(sbuf *o, const gpu_arch *a, const occ_kernel *k, const occ_launch *l,
                         const occ_result *r)
{
    char buf[32];
    sbuf_addf(o, "\n3. Shared memory\n");
    sbuf_addf(o, "   per block            = %lld static + %lld dynamic", (long long)k->static_smem,
              (long long)l->dynamic_smem);
    if (a->smem_reserved_per_block)
        sbuf_addf(o, " + %lld reserved by the driver", (long long)a->smem_reserved_per_block);
    sbuf_addf(o, " = %lld B\n", (long long)r->smem_per_block_requested);
    if (a->smem_alloc_unit > 0)
        sbuf_addf(o, "   allocated            = rounded up to a multiple of %d = %lld B\n",
                  a->smem_alloc_unit, (long long)r->smem_per_block_allocated);
    sbuf_addf(o, "   per-block limit      = ");
    kib(o, r->smem_per_block_limit);
    sbuf_addf(o, "%s\n",
              r->smem_per_block_limit > a->smem_per_block + a->smem_reserved_per_block
                  ? " (opted in with cudaFuncAttributeMaxDynamicSharedMemorySize)"
                  : (a->smem_per_block_optin > a->smem_per_block
                         ? " (more needs cudaFuncAttributeMaxDynamicSharedMemorySize)"
                         : ""));
    if (r->failure == OCC_FAIL_SMEM_PER_BLOCK || r->failure == OCC_FAIL_DYNAMIC_ATTRIBUTE) {
        sbuf_addf(o, "   the block does not fit: cannot launch\n");
        return;
    }
    if (a->n_carveouts) {
        sbuf_addf(o, "   carveout             = ");
        if (l->carveout_percent < 0)
            sbuf_addf(o, "default: the largest, ");
        else
            sbuf_addf(o, "%d%% of %lld B, rounded up to a supported size: ", l->carveout_percent,
                      (long long)a->smem_per_sm);
        kib(o, r->smem_carveout_preferred);
        if (r->smem_per_sm_used != r->smem_carveout_preferred) {
            sbuf_add(o, "; too small for one block, so the driver uses ");
            kib(o, r->smem_per_sm_used);
        }
        sbuf_addc(o, '\n');
    } else {
        sbuf_addf(o, "   shared memory per SM = ");
        kib(o, r->smem_per_sm_used);
        sbuf_add(o, " (dedicated; no carveout)\n");
    }
    if (r->smem_per_block_allocated > 0)
        sbuf_addf(o, "   blocks by smem       = floor(%lld / %lld) = %s\n",
                  (long long)r->smem_per_sm_used, (long long)r->smem_per_block_allocated,
                  min_or_none(r->limit_smem, buf, sizeof buf));
    else
        sbuf_addf(o, "   no shared memory: it does not limit the block count\n");
}

static void explain_textbook_gap(sbuf *o, const gpu_arch *a, const occ_kernel *k,
                                 const occ_launch *l, const occ_result *r)
{
    if (a->reg_alloc_unit <= 0 && a->smem_alloc_unit <= 0 && a->smem_reserved_per_block == 0)
        return;
    gpu_arch t = occ_textbook_variant(a);
    occ_result tr;
    occ_compute(&t, k, l, &tr);
    if (tr.blocks_per_sm == r->blocks_per_sm)
        return;
    sbuf_addf(o, "\nWhy per-thread textbook arithmetic gives a different answer:\n");
    sbuf_addf(o, "   without allocation units it would be %d blocks (%.1f%%), but %s has %d.\n",
              tr.blocks_per_sm, tr.occupancy * 100.0, a->name, r->blocks_per_sm);
    if (tr.limit_registers != r->limit_registers && a->reg_alloc_unit > 0 &&
        k->regs_per_thread > 0) {
        double exact = (double)a->regs_per_sm / ((double)k->regs_per_thread * l->threads_per_block);
        sbuf_addf(o,
                  "   registers: %d / (%d x %d) = %.2f -> %d blocks, but the hardware gives "
                  "registers to whole warps in units of %d (%d x %d = %d -> %d)",
                  a->regs_per_sm, k->regs_per_thread, l->threads_per_block, exact,
                  tr.limit_registers, a->reg_alloc_unit, k->regs_per_thread, a->warp_size,
                  r->regs_per_warp, r->regs_per_warp_allocated);
        if (a->sub_partitions > 1)
            sbuf_addf(o, " from %d separate sub-partition register files", a->sub_partitions);
        sbuf_addf(o, ", so only %d blocks fit.\n", r->limit_registers);
    }
    if (tr.limit_smem != r->limit_smem && r->limit_smem < tr.blocks_per_sm) {
        sbuf_addf(o, "   shared memory: ");
        if (a->smem_reserved_per_block)
            sbuf_addf(o, "the driver reserves %lld B per block, ",
                      (long long)a->smem_reserved_per_block);
        if (a->smem_alloc_unit > 0)
            sbuf_addf(o, "allocations are rounded up to %d B, ", a->smem_alloc_unit);
        if (tr.limit_smem == OCC_UNLIMITED)
            sbuf_addf(o, "so shared memory limits the SM to %d blocks.\n", r->limit_smem);
        else
            sbuf_addf(o, "so %d blocks fit instead of %d.\n", r->limit_smem, tr.limit_smem);
    }
}

void occ_explain(sbuf *o, const gpu_arch *a, const occ_kernel *k, const occ_launch *l,
                 const occ_result *r)
{
    char buf[32];
    sbuf_addf(o, "Occupancy of a %d-thread block on %s%s%s%s\n\n", l->threads_per_block, a->name,
              a->family[0] ? " (" : "", a->family, a->family[0] ? ")" : "");
    if (r->failure == OCC_FAIL_BAD_INPUT) {
        sbuf_addf(o, "invalid input: %s\n", occ_failure_reason(r->failure));
        return;
    }
    explain_warps(o, a, l, r);
    explain_registers(o, a, k, l, r);
    explain_smem(o, a, k, l, r);
    sbuf_addf(o, "\n4. Blocks\n   an SM holds at most %d blocks\n", a->max_blocks_per_sm);
    if (a->barrier_slots_per_block > 0 && k->barriers > 0)
        sbuf_addf(o,
                  "\n5. Barriers (%d per block)\n   the SM has %d x %d = %d barrier slots -> "
                  "floor(%d / %d) = %d blocks\n",
                  k->barriers, a->barrier_slots_per_block, a->max_blocks_per_sm,
                  r->barrier_slots_per_sm, r->barrier_slots_per_sm, k->barriers, r->limit_barriers);
    if (r->failure != OCC_OK) {
        sbuf_addf(o, "\nResult: cannot launch: %s\n", occ_failure_reason(r->failure));
        return;
    }
    sbuf_addf(o, "\nResult\n   blocks per SM        = min(warps %s, ",
              min_or_none(r->limit_warps, buf, sizeof buf));
    sbuf_addf(o, "registers %s, ", min_or_none(r->limit_registers, buf, sizeof buf));
    sbuf_addf(o, "shared memory %s, ", min_or_none(r->limit_smem, buf, sizeof buf));
    sbuf_addf(o, "blocks %d", r->limit_blocks);
    if (r->limit_barriers != OCC_UNLIMITED)
        sbuf_addf(o, ", barriers %d", r->limit_barriers);
    sbuf_addf(o, ") = %d\n", r->blocks_per_sm);
    sbuf_addf(o, "   active warps         = %d x %d = %d of %d\n", r->blocks_per_sm,
              r->warps_per_block, r->warps_per_sm, r->max_warps_per_sm);
    sbuf_addf(o, "   occupancy            = %d / %d = %.1f%%\n", r->warps_per_sm,
              r->max_warps_per_sm, r->occupancy * 100.0);
    sbuf_add(o, "   limited by           ");
    occ_limiters_text(o, r->limiters);
    sbuf_addc(o, '\n');
    explain_textbook_gap(o, a, k, l, r);
}

static void not_given_note(sbuf *b, const char *not_given, const char *indent)
{
    if (not_given)
        sbuf_addf(b, "%snot given: %s, taken as 0 so that %s not limit\n", indent, not_given,
                  strstr(not_given, " and ") ? "they do" : "it does");
}

static void summary(sbuf *b, const occ_answer *in)
{
    const occ_kernel *k = in->k;
    const occ_launch *l = in->l;
    const occ_result *r = in->r;
    sbuf_addf(b,
              "%s: %d threads/block, %d registers/thread, %lld B static + %lld B dynamic "
              "shared memory\n",
              in->label, l->threads_per_block, k->regs_per_thread, (long long)k->static_smem,
              (long long)l->dynamic_smem);
    not_given_note(b, in->regs_given ? NULL : in->not_given, "  ");
    sbuf_addf(b, "  blocks/SM        %d\n", r->blocks_per_sm);
    sbuf_addf(b, "  warps/SM         %d of %d\n", r->warps_per_sm, r->max_warps_per_sm);
    sbuf_addf(b, "  occupancy        %.1f%%\n", r->occupancy * 100.0);
    sbuf_add(b, "  limited by       ");
    occ_limiters_text(b, r->limiters);
    sbuf_addf(b, "\n  blocks allowed   warps %d, registers ", r->limit_warps);
    if (r->limit_registers == OCC_UNLIMITED)
        sbuf_add(b, "any");
    else
        sbuf_addf(b, "%d", r->limit_registers);
    sbuf_add(b, ", shared memory ");
    if (r->limit_smem == OCC_UNLIMITED)
        sbuf_add(b, "any");
    else
        sbuf_addf(b, "%d", r->limit_smem);
    sbuf_addf(b, ", blocks %d", r->limit_blocks);
    if (r->limit_barriers != OCC_UNLIMITED)
        sbuf_addf(b, ", barriers %d", r->limit_barriers);
    sbuf_addc(b, '\n');
    occ_advice adv[4];
    int n = occ_advise(in->arch, k, l, r, adv, 4);
    for (int i = 0; i < n; i++) {
        sbuf_add(b, i == 0 ? "  to raise it      " : "                   or ");
        occ_advice_text(b, &adv[i], l);
        sbuf_addc(b, '\n');
    }
}

void occ_answer_text(sbuf *b, const occ_answer *in)
{
    if (!in->explain) {
        summary(b, in);
        return;
    }
    not_given_note(b, in->not_given, "");
    /* Every compiled kernel holds some registers (ptxas reports at least a
     * handful), so on a real GPU the answer is a ceiling. */
    if (!in->regs_given && in->real_gpu)
        sbuf_add(b, "a compiled kernel uses registers: this is the most the block "
                    "size allows; give --regs from `nvcc -Xptxas -v` for the exact "
                    "answer\n");
    occ_explain(b, in->arch, in->k, in->l, in->r);
}
