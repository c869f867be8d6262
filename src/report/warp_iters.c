/* warp_iters: a loop's iterations per warp as JSON and words (see
 * warp_iters.h). */
#include "report/warp_iters.h"

void warp_iters_json(json_t *o, const divcount_classes *s, bool counted)
{
    bool agree = divcount_classes_agree(s);
    json_object_set_new(o, "iterations_uniform_per_warp",
                        agree ? json_integer(s->c[0].uniform) : json_null());
    json_object_set_new(o, "iterations_divergent_per_warp",
                        agree ? json_integer(s->c[0].divergent) : json_null());
    json_t *arr = json_array();
    for (int i = 0; i < s->n; i++) {
        const divcount_class *c = &s->c[i];
        json_array_append_new(
            arr, json_pack("{s:I, s:I, s:o, s:[I, I, I], s:i}", "uniform", (json_int_t)c->uniform,
                           "divergent", (json_int_t)c->divergent, "warps",
                           counted ? json_integer(c->warps) : json_null(), "first_block",
                           (json_int_t)c->block[0], (json_int_t)c->block[1],
                           (json_int_t)c->block[2], "first_warp", c->warp));
    }
    json_object_set_new(o, "iterations_per_warp", arr);
    json_object_set_new(o, "iterations_per_warp_complete", json_boolean(!s->more));
}

static void block_text(sbuf *out, const json_t *b)
{
    json_int_t x = json_integer_value(json_array_get(b, 0)),
               y = json_integer_value(json_array_get(b, 1)),
               z = json_integer_value(json_array_get(b, 2));
    if (y == 0 && z == 0)
        sbuf_addf(out, "%lld", (long long)x);
    else
        sbuf_addf(out, "(%lld, %lld, %lld)", (long long)x, (long long)y, (long long)z);
}

bool warp_iters_text(sbuf *out, const json_t *o, long long warps)
{
    const json_t *u = json_object_get(o, "iterations_uniform_per_warp");
    const json_t *classes = json_object_get(o, "iterations_per_warp");
    if (!classes)
        return false;
    if (json_is_integer(u)) {
        const json_t *d = json_object_get(o, "iterations_divergent_per_warp");
        sbuf_addf(out, "%lld uniform, %lld divergent", (long long)json_integer_value(u),
                  (long long)json_integer_value(d));
        if (warps == 1)
            sbuf_add(out, " in its one warp");
        else
            sbuf_addf(out, " in each of the %lld warps", warps);
        return true;
    }
    sbuf_add(out, "warps differ: ");
    size_t i;
    const json_t *c;
    json_array_foreach(classes, i, c)
    {
        const json_t *n = json_object_get(c, "warps");
        sbuf_addf(out, i ? "; %lld + %lld" : "%lld uniform + %lld divergent",
                  (long long)json_integer_value(json_object_get(c, "uniform")),
                  (long long)json_integer_value(json_object_get(c, "divergent")));
        if (json_is_integer(n))
            sbuf_addf(out, " in %lld warp%s", (long long)json_integer_value(n),
                      json_integer_value(n) == 1 ? "" : "s");
        sbuf_add(out, " (first: block ");
        block_text(out, json_object_get(c, "first_block"));
        sbuf_addf(out, ", warp %lld)",
                  (long long)json_integer_value(json_object_get(c, "first_warp")));
    }
    if (!json_is_true(json_object_get(o, "iterations_per_warp_complete")))
        sbuf_add(out, "; and others");
    return true;
}
