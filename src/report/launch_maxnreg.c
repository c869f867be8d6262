/* launch_maxnreg: setmaxnreg at a launch; see the header. */
#include "report/launch_maxnreg.h"

#include <string.h>

#include "analysis/occupancy/occ_maxnreg.h"
#include "util/sbuf.h"

static void counts(const ptx_function *f, int *raise, int *n_raise, int *lower, int *n_lower)
{
    *n_raise = *n_lower = 0;
    int n = f->n_maxnreg < PTX_MAX_MAXNREG ? f->n_maxnreg : PTX_MAX_MAXNREG;
    for (int i = 0; i < n; i++) {
        if (f->maxnreg[i].raise)
            raise[(*n_raise)++] = f->maxnreg[i].regs;
        else
            lower[(*n_lower)++] = f->maxnreg[i].regs;
    }
}

bool launch_maxnreg_check(const launch_maxnreg_in *in, json_t *launch_json, finding_list *findings)
{
    const ptx_function *f = kernel_ptx_function(in->code, in->mangled, in->arch->name, NULL);
    if (!f || !f->n_maxnreg)
        return false;
    int raise[PTX_MAX_MAXNREG], lower[PTX_MAX_MAXNREG], n_raise, n_lower;
    counts(f, raise, &n_raise, lower, &n_lower);
    occ_maxnreg m;
    occ_maxnreg_compute(
        in->arch, &(occ_maxnreg_in){in->launch_regs, in->threads, raise, lower, n_raise, n_lower},
        &m);
    json_t *o = json_pack("{s:i, s:i, s:i, s:i}", "reserved", m.reserved, "warpgroups",
                          m.warpgroups, "raise_to", m.raise_to, "lower_to", m.lower_to);
    json_object_set_new(o, "most_raised",
                        m.most_raised >= 0 ? json_integer(m.most_raised) : json_null());
    json_object_set_new(launch_json, "setmaxnreg", o);
    const cusrc_launch *l = in->launch;
    sbuf s;
    sbuf_init(&s);
    sbuf_addf(&s, "'%s' changes its warpgroups' registers at run time (setmaxnreg in its PTX:",
              in->kernel);
    if (m.lower_to)
        sbuf_addf(&s, " down to %d", m.lower_to);
    if (m.raise_to)
        sbuf_addf(&s, "%s up to %d", m.lower_to ? "," : "", m.raise_to);
    sbuf_addf(&s, "); the launch reserves %d a thread for all %d threads, what occupancy counts",
              m.reserved, in->threads);
    finding_severity sev = SEV_NOTE;
    if (m.bad_count) {
        sev = SEV_ERROR;
        sbuf_addf(&s,
                  "; %d is not a register count setmaxnreg takes (a multiple of %d from %d to "
                  "%d)",
                  m.bad_count, MAXNREG_STEP, MAXNREG_MIN, MAXNREG_MAX);
    } else if (m.most_raised == 0) {
        sev = SEV_ERROR;
        sbuf_addf(&s,
                  "; no warpgroup can be granted %d: the block's pool holds %d x %d registers "
                  "and %s, so setmaxnreg.inc waits forever",
                  m.raise_to, m.reserved, in->threads,
                  m.lower_to ? "lowering the others does not free enough"
                             : "nothing lowers its count to free any");
    } else if (m.most_raised > 0 && m.raise_to > m.reserved) {
        sbuf_addf(&s,
                  "; at most %d of the block's %d warpgroups can hold %d at once, the others "
                  "at %d",
                  m.most_raised, m.warpgroups, m.raise_to, m.lower_to ? m.lower_to : m.reserved);
    } else if (!m.warpgroups) {
        sbuf_addf(&s, "; the block is not whole warpgroups of %d threads", MAXNREG_WARPGROUP);
    }
    findings_add(findings, "gpulint-setmaxnreg", sev, in->file, l->loc.line, l->loc.column, NULL,
                 "%s", sbuf_str(&s));
    sbuf_free(&s);
    return true;
}
