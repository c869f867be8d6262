/* roofline_mix: parts of a workload at several rates into one speedup. */
#include "cli/roofline_mix.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mixprec.h"
#include "cli/cli.h"
#include "util/sbuf.h"

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

int roofline_mix(const opt_list *mix, double target, bool explain, bool json)
{
    mixprec_part parts[MIXPREC_MAX_PARTS];
    int n = 0;
    for (int i = 0; i < mix->n; i++) {
        if (n == MIXPREC_MAX_PARTS)
            return diag_error(EXIT_USAGE, "--mix: at most %d parts", MIXPREC_MAX_PARTS);
        if (!parse_part(mix->v[i], &parts[n++]))
            return diag_error(
                EXIT_USAGE, "--mix '%s': expected FRACTION@RATE, e.g. 0.7@3 or 70%%@3", mix->v[i]);
    }
    double speedup;
    char why[128];
    if (!mixprec_speedup(parts, n, &speedup, why, sizeof why))
        return diag_error(EXIT_USAGE, "--mix: %s", why);
    /* The target moves time to the fastest part's rate. */
    double fast = parts[0].rate;
    for (int i = 1; i < n; i++)
        fast = parts[i].rate > fast ? parts[i].rate : fast;
    double need = 0;
    bool reachable = target > 0 && mixprec_fraction_for(target, fast, &need);
    if (json) {
        json_t *ps = json_array();
        for (int i = 0; i < n; i++)
            json_array_append_new(
                ps, json_pack("{s:f, s:f}", "fraction", parts[i].fraction, "rate", parts[i].rate));
        json_t *o = json_pack("{s:o, s:f}", "parts", ps, "speedup", speedup);
        if (target > 0)
            json_object_set_new(o, "target",
                                json_pack("{s:f, s:f, s:o}", "speedup", target, "rate", fast,
                                          "fraction_needed",
                                          reachable ? json_real(need) : json_null()));
        cli_put_json(o);
        return EXIT_OK;
    }
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "parts:");
    for (int i = 0; i < n; i++)
        sbuf_addf(&b, "%s %.4g%% of the time at %.4gx", i ? "," : "", 100 * parts[i].fraction,
                  parts[i].rate);
    sbuf_addf(&b, "\nspeedup: %.4gx\n", speedup);
    if (explain) {
        sbuf_add(&b, "  A part holding fraction f of the time, run r times faster, takes f/r "
                     "(Amdahl):\n  speedup = 1 / (");
        double t = 0;
        for (int i = 0; i < n; i++) {
            sbuf_addf(&b, "%s%.4g/%.4g", i ? " + " : "", parts[i].fraction, parts[i].rate);
            t += parts[i].fraction / parts[i].rate;
        }
        sbuf_addf(&b, ") = 1 / %.6g = %.4gx\n", t, speedup);
    }
    if (target > 0) {
        if (reachable) {
            sbuf_addf(&b, "for %.4gx: %.4g%% of the time at %.4gx, the rest at 1x\n", target,
                      100 * need, fast);
            if (explain)
                sbuf_addf(&b,
                          "  1 / ((1 - x) + x/%.4g) = %.4g  =>  x = (1 - 1/%.4g) / (1 - "
                          "1/%.4g) = %.4g\n",
                          fast, target, target, fast, need);
        } else
            sbuf_addf(&b, "for %.4gx: out of reach: even all of the time at %.4gx gives %.4gx\n",
                      target, fast, fast);
    }
    fputs(sbuf_str(&b), stdout);
    sbuf_free(&b);
    return EXIT_OK;
}
