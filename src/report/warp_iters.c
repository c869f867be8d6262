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

/* The JSON back into classes, so that the words are divcount's own. */
bool warp_iters_text(sbuf *out, const json_t *o, long long warps)
{
    const json_t *classes = json_object_get(o, "iterations_per_warp");
    if (!json_is_array(classes))
        return false;
    divcount_classes s = {.n = 0};
    bool counted = true;
    size_t i;
    const json_t *c;
    json_array_foreach(classes, i, c)
    {
        if (s.n == DIVCOUNT_MAX_CLASSES)
            break;
        divcount_class *d = &s.c[s.n++];
        const json_t *n = json_object_get(c, "warps"), *b = json_object_get(c, "first_block");
        d->uniform = json_integer_value(json_object_get(c, "uniform"));
        d->divergent = json_integer_value(json_object_get(c, "divergent"));
        d->warps = json_is_integer(n) ? json_integer_value(n) : 0;
        counted &= json_is_integer(n);
        for (int k = 0; k < 3; k++)
            d->block[k] = json_integer_value(json_array_get(b, (size_t)k));
        d->warp = (int)json_integer_value(json_object_get(c, "first_warp"));
    }
    s.more = !json_is_true(json_object_get(o, "iterations_per_warp_complete"));
    divcount_classes_text(out, &s, counted, warps);
    return true;
}
