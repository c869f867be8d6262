/* vecmerge: neighbouring shared loads ptxas issues as one (see vecmerge.h). */
#include "analysis/warp/vecmerge.h"

#include <stdint.h>
#include <string.h>

#include "analysis/symbolic/affbox.h"

enum { MAX_SYMS = 16, MAX_TRIPS = 64 };

/* The names a site's address reads besides loop d's counter: what ptxas
 * does not know when it compiles (warpSize it does). */
static int free_syms(const mem_access *a, int d, expr_sym_ref syms[MAX_SYMS])
{
    expr_env none;
    expr_env_init(&none);
    expr_env_set_builtin(&none, SYM_WARP_SIZE, 32);
    int n = 0;
    bool overflow = false;
    expr_unbound_syms(a->byte_offset, &none, syms, &n, MAX_SYMS, &overflow);
    if (overflow)
        return -1;
    const char *var = a->loops[d].var;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!(syms[i].builtin == SYM_NAMED && !strcmp(syms[i].name, var)))
            syms[k++] = syms[i];
    return k;
}

static void set_sym(expr_env *env, const expr_sym_ref *s, int64_t v)
{
    if (s->builtin == SYM_NAMED)
        expr_env_set(env, s->name, v);
    else
        expr_env_set_builtin(env, s->builtin, v);
}

/* The address at counter value i, the other names at vals. */
static bool address_at(const mem_access *a, int d, const expr_sym_ref *syms, int n,
                       const int64_t *vals, int64_t i, int64_t *out)
{
    expr_env env;
    expr_env_init(&env);
    expr_env_set_builtin(&env, SYM_WARP_SIZE, 32);
    for (int k = 0; k < n; k++)
        set_sym(&env, &syms[k], vals[k]);
    if (!expr_env_set(&env, a->loops[d].var, i))
        return false;
    return expr_eval(a->byte_offset, &env, out, NULL) == EXPR_OK;
}

/* Loop d's iterations: its counter's values, consecutive. */
typedef struct trips {
    int d;
    int64_t first;
    int n;
} trips;

/* At one assignment of the names: the first iteration's address a
 * multiple of the group's bytes, and each iteration's one width past the
 * one before. */
static bool fits(const mem_access *a, const expr_sym_ref *syms, int n, const int64_t *vals, trips t,
                 int group)
{
    int64_t at0, at;
    if (!address_at(a, t.d, syms, n, vals, t.first, &at0) || at0 % (a->width * group) != 0)
        return false;
    for (int i = 1; i < t.n; i++)
        if (!address_at(a, t.d, syms, n, vals, t.first + i, &at) ||
            at - at0 != (int64_t)i * a->width)
            return false;
    return true;
}

/* Zero, each name alone at 1, all at 1, all at 3, and all different. */
static bool fits_everywhere(const mem_access *a, trips t, int group)
{
    expr_sym_ref syms[MAX_SYMS];
    int n = free_syms(a, t.d, syms);
    if (n < 0)
        return false;
    int64_t vals[MAX_SYMS] = {0};
    if (!fits(a, syms, n, vals, t, group))
        return false;
    for (int k = 0; k < n; k++) {
        vals[k] = 1;
        bool ok = fits(a, syms, n, vals, t, group);
        vals[k] = 0;
        if (!ok)
            return false;
    }
    for (int pass = 0; pass < 3; pass++) {
        for (int k = 0; k < n; k++)
            vals[k] = pass == 0 ? 1 : pass == 1 ? 3 : k + 2;
        if (!fits(a, syms, n, vals, t, group))
            return false;
    }
    return true;
}

/* Loop d, when its counter steps by one through a constant count of
 * values that no guard or early exit cuts: how many; else 0. */
static int steady_trips(const mem_access *a, int d, int64_t *first)
{
    const loop_ctx *l = &a->loops[d];
    if (!l->var || l->leaves_early || l->barrier || (a->guard && expr_uses_name(a->guard, l->var)))
        return 0;
    int64_t values[MAX_TRIPS + 1];
    int n = affbox_loop_values(l, NULL, values, MAX_TRIPS);
    for (int i = 1; i < n; i++)
        if (values[i] != values[0] + i)
            return 0;
    *first = values[0];
    return n;
}

int vecmerge_group(const mem_access *a, int *level)
{
    *level = -1;
    if (a->space != SPACE_SHARED || a->is_store || a->why_not || !a->byte_offset ||
        (a->width != 4 && a->width != 8))
        return 1;
    /* From the innermost loop out, while the loops inside are constant
     * (unrolled in full, their copies side by side): the first along
     * which the address moves a width a step. */
    for (int d = a->n_loops - 1; d >= 0; d--) {
        int64_t first;
        int n = steady_trips(a, d, &first);
        if (n == 1) /* one pass: straight code */
            continue;
        if (n < 2)
            return 1;
        for (int group = 16 / a->width; group >= 2; group /= 2)
            if (n % group == 0 && fits_everywhere(a, (trips){d, first, n}, group)) {
                *level = d;
                return group;
            }
    }
    return 1;
}

void vecmerge_site(const mem_access *a, int group, int level, mem_access *out)
{
    *out = *a;
    loop_ctx *l = &out->loops[level];
    out->width = a->width * group;
    l->next = expr_binary(OP_ADD, expr_named(l->var), expr_const(group));
}

void vecmerge_free(mem_access *merged, int level)
{
    expr_free(merged->loops[level].next);
    merged->loops[level].next = NULL;
}
