/* roofline_mix: `gpulint roofline --mix --format json` (analysis/calc/mix_calc
 * has the calculator and its words). */
#include "cli/roofline_mix.h"

#include <jansson.h>

#include "cli/cli.h"

void roofline_mix_json(const mix_calc *m)
{
    json_t *ps = json_array();
    for (int i = 0; i < m->n; i++)
        json_array_append_new(ps, json_pack("{s:f, s:f}", "fraction", m->parts[i].fraction, "rate",
                                            m->parts[i].rate));
    json_t *o = json_pack("{s:o, s:f}", "parts", ps, "speedup", m->speedup);
    if (m->target > 0)
        json_object_set_new(o, "target",
                            json_pack("{s:f, s:f, s:o}", "speedup", m->target, "rate", m->fast,
                                      "fraction_needed",
                                      m->reachable ? json_real(m->need) : json_null()));
    cli_put_json(o);
}
