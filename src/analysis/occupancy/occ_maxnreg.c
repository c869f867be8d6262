/* occ_maxnreg: the register pool of a warp-specialised block; see the header. */
#include "analysis/occupancy/occ_maxnreg.h"

#include <string.h>

static bool valid(int regs)
{
    return regs >= MAXNREG_MIN && regs <= MAXNREG_MAX && regs % MAXNREG_STEP == 0;
}

void occ_maxnreg_compute(const gpu_arch *a, const occ_maxnreg_in *in, occ_maxnreg *out)
{
    memset(out, 0, sizeof *out);
    out->most_raised = -1;
    /* A warp's registers come in units of reg_alloc_unit (256 = 8 a thread). */
    int unit = a->reg_alloc_unit > 0 && a->warp_size > 0 ? a->reg_alloc_unit / a->warp_size : 1;
    if (unit < 1)
        unit = 1;
    out->reserved = (in->launch_regs + unit - 1) / unit * unit;
    bool immediate = true;
    for (int i = 0; i < in->n_raise; i++) {
        int r = in->raise[i];
        immediate = immediate && r >= 0;
        if (r >= 0 && !valid(r) && !out->bad_count)
            out->bad_count = r;
        if (r > out->raise_to)
            out->raise_to = r;
    }
    for (int i = 0; i < in->n_lower; i++) {
        int r = in->lower[i];
        immediate = immediate && r >= 0;
        if (r >= 0 && !valid(r) && !out->bad_count)
            out->bad_count = r;
        if (r >= 0 && (!out->lower_to || r < out->lower_to))
            out->lower_to = r;
    }
    if (in->threads > 0 && in->threads % MAXNREG_WARPGROUP == 0)
        out->warpgroups = in->threads / MAXNREG_WARPGROUP;
    if (!out->warpgroups || !immediate || !out->raise_to)
        return;
    int others = out->lower_to ? out->lower_to : out->reserved;
    if (out->raise_to <= out->reserved) {
        out->most_raised = out->warpgroups; /* no more than the launch gave */
        return;
    }
    /* c x raise_to + (W - c) x others <= W x reserved */
    long room = (long)out->warpgroups * (out->reserved - others);
    long step = out->raise_to - others;
    long c = step > 0 ? room / step : 0;
    if (c < 0)
        c = 0;
    out->most_raised = c > out->warpgroups ? out->warpgroups : (int)c;
}
