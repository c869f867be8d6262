/* occ_curves: occupancy as one resource of a launch varies, the others
 * held: the three curves of `--plot` and of the web page's calculator. */
#include "analysis/occupancy/occ_curves.h"

static double occ_pct(const gpu_arch *a, const occ_kernel *k, const occ_launch *l)
{
    occ_result r;
    occ_compute(a, k, l, &r);
    return r.occupancy * 100;
}

/* Threads per block: every multiple of the warp size. */
void occ_curve_threads(const gpu_arch *arch, const occ_kernel *k, const occ_launch *l, occ_curve *c)
{
    for (int t = arch->warp_size; t <= arch->max_threads_per_block && c->n < OCC_MAX_SAMPLES;
         t += arch->warp_size) {
        occ_launch ll = *l;
        ll.threads_per_block = t;
        c->x[c->n] = t;
        c->y[c->n++] = occ_pct(arch, k, &ll);
    }
}

/* Registers per thread: 0 .. the per-thread maximum. */
void occ_curve_registers(const gpu_arch *arch, const occ_kernel *k, const occ_launch *l,
                         occ_curve *c)
{
    for (int r = 0; r <= arch->max_regs_per_thread && c->n < OCC_MAX_SAMPLES; r++) {
        occ_kernel kk = *k;
        kk.regs_per_thread = r;
        c->x[c->n] = r;
        c->y[c->n++] = occ_pct(arch, &kk, l);
    }
}

/* Shared memory per block (static + dynamic): 0 .. what a block may have
 * with the opt-in attribute; returns that maximum. */
int64_t occ_curve_smem(const gpu_arch *arch, const occ_kernel *k, const occ_launch *l, occ_curve *c)
{
    int64_t smax = arch->smem_per_block_optin > arch->smem_per_block ? arch->smem_per_block_optin
                                                                     : arch->smem_per_block;
    int64_t used = k->static_smem + l->dynamic_smem;
    if (used > smax)
        smax = used;
    if (smax <= 0)
        smax = 48 * 1024;
    int64_t step = arch->smem_alloc_unit > 0 ? arch->smem_alloc_unit : 256;
    while (smax / step >= OCC_MAX_SAMPLES - 1)
        step *= 2;
    for (int64_t b = 0; b <= smax && c->n < OCC_MAX_SAMPLES; b += step) {
        occ_kernel kk = *k;
        occ_launch ll = *l;
        kk.static_smem = b < k->static_smem ? b : k->static_smem;
        ll.dynamic_smem = b - kk.static_smem;
        if (kk.static_smem + ll.dynamic_smem > arch->smem_per_block) {
            ll.smem_optin = true;
            ll.max_dynamic_smem =
                ll.dynamic_smem > l->max_dynamic_smem ? ll.dynamic_smem : l->max_dynamic_smem;
        }
        c->x[c->n] = (double)b;
        c->y[c->n++] = occ_pct(arch, &kk, &ll);
    }
    return smax;
}
