/* mix_calc: `gpulint roofline --mix`, the mixed-precision speedup
 * calculator: parts of the time and their speed read from the user's words,
 * the speedup (analysis/calc/mixprec) and the share of the time a target needs,
 * in words shared by the command line and the web page. */
#include "analysis/calc/mix_calc.h"

#include <stdlib.h>

#include "util/errmsg.h"

static bool parse_part(const char *s, mixprec_part *p)
{
    char *end;
    p->fraction = strtod(s, &end);
    if (end == s)
        return false;
    if (*end == '%') {
        p->fraction /= 100;
        end++;
    }
    if (*end != '@')
        return false;
    const char *r = end + 1;
    p->rate = strtod(r, &end);
    if (end == r)
        return false;
    if (*end == 'x')
        end++;
    return *end == '\0';
}

bool mix_calc_run(const char *const *parts, int n, double target, mix_calc *m, char *msg,
                  size_t msg_size)
{
    m->n = 0;
    m->target = target;
    for (int i = 0; i < n; i++) {
        if (m->n == MIXPREC_MAX_PARTS)
            return errmsg_set(msg, msg_size, "--mix: at most %d parts", MIXPREC_MAX_PARTS);
        if (!parse_part(parts[i], &m->parts[m->n++]))
            return errmsg_set(msg, msg_size,
                              "--mix '%s': expected FRACTION@RATE, e.g. 0.7@3 or 70%%@3", parts[i]);
    }
    char why[128];
    if (!mixprec_speedup(m->parts, m->n, &m->speedup, why, sizeof why))
        return errmsg_set(msg, msg_size, "--mix: %s", why);
    /* The target moves time to the fastest part's rate. */
    m->fast = m->parts[0].rate;
    for (int i = 1; i < m->n; i++)
        m->fast = m->parts[i].rate > m->fast ? m->parts[i].rate : m->fast;
    m->need = 0;
    m->reachable = target > 0 && mixprec_fraction_for(target, m->fast, &m->need);
    return true;
}

void mix_calc_text(sbuf *b, const mix_calc *m, bool explain)
{
    sbuf_add(b, "parts:");
    for (int i = 0; i < m->n; i++)
        sbuf_addf(b, "%s %.4g%% of the time at %.4gx", i ? "," : "", 100 * m->parts[i].fraction,
                  m->parts[i].rate);
    sbuf_addf(b, "\nspeedup: %.4gx\n", m->speedup);
    if (explain) {
        sbuf_add(b, "  A part holding fraction f of the time, run r times faster, takes f/r "
                    "(Amdahl):\n  speedup = 1 / (");
        double t = 0;
        for (int i = 0; i < m->n; i++) {
            sbuf_addf(b, "%s%.4g/%.4g", i ? " + " : "", m->parts[i].fraction, m->parts[i].rate);
            t += m->parts[i].fraction / m->parts[i].rate;
        }
        sbuf_addf(b, ") = 1 / %.6g = %.4gx\n", t, m->speedup);
    }
    if (m->target > 0) {
        if (m->reachable) {
            sbuf_addf(b, "for %.4gx: %.4g%% of the time at %.4gx, the rest at 1x\n", m->target,
                      100 * m->need, m->fast);
            if (explain)
                sbuf_addf(b,
                          "  1 / ((1 - x) + x/%.4g) = %.4g  =>  x = (1 - 1/%.4g) / (1 - "
                          "1/%.4g) = %.4g\n",
                          m->fast, m->target, m->target, m->fast, m->need);
        } else
            sbuf_addf(b, "for %.4gx: out of reach: even all of the time at %.4gx gives %.4gx\n",
                      m->target, m->fast, m->fast);
    }
}
