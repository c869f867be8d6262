/* cusrc_sweep: launches inside loops that sweep a size. A benchmark's main
 * runs `for (int C = 32; C <= 512; C *= 4) k<<<C / 32, 256>>>(..., C);`:
 * one launch site, four configurations. Where a launch's grid, block,
 * shared memory or arguments read the counter of a loop around its call
 * whose values are constants, the launch becomes one launch per value,
 * each run once per trip of that loop (where its reach allows the value),
 * with the value named among its sizes (`C = 128`). */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"
#include "cusrc/cusrc_scan.h"

#define SWEEP_MAX 64 /* more values than this stay one symbolic launch */
/* Thread blocks of the launches a triangular nest is sized for at a call
 * site, the first outer values first: each sized launch is analysed in
 * full (a bitonic sort of 2^25 keys has 325 launches of 131,072 blocks,
 * about half a second apiece), so past these the inner counter stays a
 * name, as in a loop gpulint cannot walk. */
#define NEST_BLOCKS (INT64_C(1) << 18)

static bool value_uses(const cusrc_value *v, const char *name)
{
    return v->present && !v->known && v->e && expr_uses_name(v->e, name);
}

static bool launch_uses(const cusrc_launch *l, const char *name)
{
    cusrc_value *v[CUSRC_LAUNCH_VALUES];
    cusrc_launch_values(l, v);
    for (size_t i = 0; i < CUSRC_LAUNCH_VALUES; i++)
        if (value_uses(v[i], name))
            return true;
    for (int a = 0; a < l->n_args; a++)
        if (value_uses(&l->args[a], name))
            return true;
    return false;
}

static void value_bind(cusrc_value *v, const expr_env *env)
{
    if (!v->present || v->known || !v->e)
        return;
    expr *b = expr_bind(v->e, env), *s = expr_simplify(b);
    expr_free(b);
    expr_free(v->e);
    v->e = s;
    if (s->kind == EX_CONST) {
        v->known = true;
        v->stepped = true;
        v->value = s->value;
        free(v->why);
        v->why = NULL;
    }
}

static void launch_bind(cusrc_launch *l, const expr_env *env)
{
    cusrc_value *v[CUSRC_LAUNCH_VALUES];
    cusrc_launch_values(l, v);
    for (size_t i = 0; i < CUSRC_LAUNCH_VALUES; i++)
        value_bind(v[i], env);
    for (int a = 0; a < l->n_args; a++)
        value_bind(&l->args[a], env);
    if (l->reach) {
        expr *b = expr_bind(l->reach, env), *s = expr_simplify(b);
        expr_free(b);
        expr_free(l->reach);
        l->reach = s;
    }
}

static void add_size(cusrc_launch *l, const char *name, int64_t value, const char *fn,
                     const src_loc *at)
{
    folded_list into = {l->sizes_from, l->n_sizes_from, l->n_sizes_from};
    cusrc_size_from s = {(char *)name, value, (char *)fn, *at, true};
    folded_add(&into, &s);
    l->sizes_from = into.v;
    l->n_sizes_from = into.n;
}

static const char *value_role(int k)
{
    return k < 3 ? "grid size" : k < 6 ? "block size" : "dynamic shared memory size";
}

static void say_between(cusrc_value *v, const char *role, const host_loop *lp, int line,
                        int64_t between, int64_t from, int64_t to)
{
    if (!value_uses(v, lp->var))
        return;
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b,
              "%s depends on '%s', the counter of the loop at line %d: %lld launches with "
              "%s from %lld to %lld, not sized one by one (the loop's first and last "
              "launches are)",
              role, lp->var, line, (long long)between, lp->var, (long long)from, (long long)to);
    free(v->why);
    v->why = sbuf_take(&b);
}

/* A sweep of more values than SWEEP_MAX (a wavefront's `for (blk = 1;
 * blk <= 1024; blk++) k<<<blk, 16>>>`): its first and last launches are
 * sized like a short sweep's, and the launches between stay one launch
 * that reads the counter, run as many times as there are values between,
 * so that a count of launches or a total never drops them. */
static cusrc_launch between_launch(const cusrc_launch *orig, const host_loops *others, int at,
                                   const host_loop *lp, int line, int64_t between, int64_t from,
                                   int64_t to)
{
    cusrc_launch copy;
    cusrc_launch_copy(&copy, orig);
    /* One call path: launches of several paths merge after the scan
     * (scan_merge_launches), each path's runs already set. */
    cusrc_path *p = &copy.paths[0];
    if (at < p->n) {
        expr *rest = host_loops_runs(others, copy.reach);
        expr *runs = expr_binary(OP_MUL, expr_const(between), rest);
        expr_free(p->runs[at]);
        p->runs[at] = expr_simplify(runs);
        expr_free(runs);
    }
    copy.between = (struct cusrc_between){xstrdup(lp->var), from, to, between};
    cusrc_value *v[CUSRC_LAUNCH_VALUES];
    cusrc_launch_values(&copy, v);
    for (int k = 0; k < CUSRC_LAUNCH_VALUES; k++)
        say_between(v[k], value_role(k), lp, line, between, from, to);
    for (int a = 0; a < copy.n_args; a++)
        say_between(&copy.args[a], "kernel argument", lp, line, between, from, to);
    return copy;
}

static void put_launch(cusrc_tu *t, size_t *slot, int *made, const char *usr, cusrc_launch l)
{
    cusrc_unit *u = t->u;
    if ((*made)++ > 0) {
        GROW(u->launches, u->n_launches, t->cap_launches);
        t->launch_usr = xrealloc(t->launch_usr, t->cap_launches * sizeof *t->launch_usr);
        *slot = u->n_launches++;
        t->launch_usr[*slot] = xstrdup_null(usr);
    }
    u->launches[*slot] = l;
}

/* The launch at index i as one launch per value of loop j (its index
 * among the path's functions: at). */
static void split(cusrc_tu *t, size_t i, const host_loops *here, int j, int at, const char *fn)
{
    const host_loop *lp = &here->v[j];
    cusrc_unit *u = t->u;
    int64_t vals[SWEEP_MAX], between = 0, first = 0, last = 0, all = 0;
    int n = host_loop_values(lp, vals, SWEEP_MAX);
    if (n < 0) {
        all = host_loop_span(lp, u->launches[i].reach, &first, &last);
        if (all < 0)
            return;
        n = 0;
        if (all >= 1)
            vals[n++] = first;
        if (all >= 2)
            vals[n++] = last;
        between = all - n;
    }
    if (n <= 0)
        return;
    /* The other loops still count their trips. */
    host_loops others = *here;
    others.n = 0;
    for (int k = 0; k < here->n; k++)
        if (k != j)
            others.v[others.n++] = here->v[k];
    src_loc loop_at = {0};
    cn_loc(t, lp->loop->cur, &loop_at);
    cusrc_launch orig = u->launches[i];
    char *usr = t->launch_usr[i];
    size_t slot = i;
    int made = 0;
    for (int k = 0; k < n; k++) {
        expr_env env;
        expr_env_init(&env);
        expr_env_set(&env, lp->var, vals[k]);
        /* The locals stepped beside the counter, on the same trip (the
         * first and last of a long sweep's). */
        int64_t trip = between > 0 && k == 1 ? all - 1 : k, cv[HOST_COMP_MAX];
        bool has[HOST_COMP_MAX];
        for (int c = 0; c < lp->n_comp; c++)
            if ((has[c] = host_comp_value(&lp->comp[c], trip, &cv[c])))
                expr_env_set(&env, lp->comp[c].name, cv[c]);
        if (orig.reach && cusrc_truth(orig.reach, &env) == 0)
            continue;
        cusrc_launch copy;
        cusrc_launch_copy(&copy, &orig);
        launch_bind(&copy, &env);
        cusrc_path *p = &copy.paths[0];
        if (at < p->n) {
            expr_free(p->runs[at]);
            /* An inner loop's trips may read this counter (a triangular
             * nest): for this copy, its value. */
            expr *runs = host_loops_runs(&others, copy.reach), *bound = expr_bind(runs, &env);
            p->runs[at] = expr_simplify(bound);
            expr_free(runs);
            expr_free(bound);
            if (p->runs[at]->kind == EX_CONST) {
                free(p->why[at]);
                p->why[at] = NULL;
            }
        }
        add_size(&copy, lp->var, vals[k], fn, &loop_at);
        for (int c = 0; c < lp->n_comp; c++)
            if (has[c] && launch_uses(&orig, lp->comp[c].name))
                add_size(&copy, lp->comp[c].name, cv[c], fn, &loop_at);
        put_launch(t, &slot, &made, usr, copy);
        if (k == 0 && between > 0) {
            int64_t step = lp->step;
            put_launch(t, &slot, &made, usr,
                       between_launch(&orig, &others, at, lp, loop_at.line, between, first + step,
                                      last - step));
        }
    }
    free(loop_at.file);
    if (made == 0) {
        /* No value reaches it: it never runs. */
        memmove(&u->launches[i], &u->launches[i + 1],
                (u->n_launches - i - 1) * sizeof *u->launches);
        memmove(&t->launch_usr[i], &t->launch_usr[i + 1],
                (u->n_launches - i - 1) * sizeof *t->launch_usr);
        u->n_launches--;
        free(usr);
    }
    cusrc_launch_free(&orig);
}

/* The thread blocks of a launch, 1 for each size not known, at most one
 * more than NEST_BLOCKS (no product overflows). */
static int64_t launch_blocks(const cusrc_launch *l)
{
    const cusrc_value *d[3] = {&l->grid.x, &l->grid.y, &l->grid.z};
    int64_t blocks = 1;
    for (int k = 0; k < 3; k++)
        if (d[k]->present && d[k]->known && d[k]->value > 0)
            blocks = d[k]->value > NEST_BLOCKS / blocks ? NEST_BLOCKS + 1 : blocks * d[k]->value;
    return blocks;
}

/* Whether the launch reads the counter of a loop whose range reads name
 * (the inner loop of a triangular nest): split by name first. */
static bool range_reads(const host_loops *here, const cusrc_launch *l, const char *name)
{
    for (int k = 0; k < here->n; k++) {
        const host_loop *in = &here->v[k];
        if (!in->walkable && in->var && in->start_e && launch_uses(l, in->var) &&
            (expr_uses_name(in->start_e, name) || expr_uses_name(in->bound_e, name)))
            return true;
    }
    return false;
}

/* The loops around l once the counters a sweep bound it to (its sizes
 * from fn) are given: loop j made walkable for them first, then the loops
 * neither j nor bound; false when j's range is still not known. */
static bool given_loops(const host_loops *here, int j, const cusrc_launch *l, const char *fn,
                        host_loops *out)
{
    expr_env env;
    expr_env_init(&env);
    bool bound[HOST_LOOPS_MAX] = {false};
    for (int k = 0; k < here->n; k++)
        for (int z = 0; k != j && here->v[k].var && z < l->n_sizes_from; z++) {
            const cusrc_size_from *sz = &l->sizes_from[z];
            if (!strcmp(sz->name, here->v[k].var) && sz->function && !strcmp(sz->function, fn)) {
                expr_env_set(&env, sz->name, sz->value);
                bound[k] = true;
            }
        }
    *out = *here;
    out->n = 1;
    if (!host_loop_given(&here->v[j], &env, &out->v[0]))
        return false;
    for (int k = 0; k < here->n; k++)
        if (k != j && !bound[k])
            out->v[out->n++] = here->v[k];
    return true;
}

void sweep_launches(scan_state *s, fn_ctx *f, cnode *call, size_t first)
{
    cusrc_tu *t = s->t;
    if (t->u->n_launches == first)
        return;
    host_loops here;
    host_loops_of(f, call, &here);
    int at = (s->from ? s->from->n_path : 0) + s->depth;
    for (int j = 0; j < here.n; j++) {
        if (!here.v[j].walkable || !here.v[j].var)
            continue;
        /* The launches a split adds come after end: the copies bound to a
         * value no longer read the counter, and a long sweep's launch
         * between its first and last still does, and is not split again. */
        size_t end = t->u->n_launches;
        for (size_t i = first; i < end; i++) {
            bool comp = false;
            for (int c = 0; c < here.v[j].n_comp; c++)
                comp |= launch_uses(&t->u->launches[i], here.v[j].comp[c].name);
            if (!comp && !launch_uses(&t->u->launches[i], here.v[j].var) &&
                !range_reads(&here, &t->u->launches[i], here.v[j].var))
                continue;
            size_t before = t->u->n_launches;
            split(t, i, &here, j, at, f->name);
            if (t->u->n_launches < before) {
                i--;
                end--;
            }
        }
    }
    /* Then loops whose range reads the counters split above (`for (stage
     * = step; stage >= 0; stage--)` in a loop over step: a bitonic
     * sort's): each launch bound to them, by the values it has there. */
    int64_t sized = 0;
    for (int j = 0; j < here.n; j++) {
        if (here.v[j].walkable || !here.v[j].var || !here.v[j].start_e)
            continue;
        size_t end = t->u->n_launches;
        for (size_t i = first; i < end; i++) {
            host_loops given;
            int64_t vals[SWEEP_MAX];
            if (!launch_uses(&t->u->launches[i], here.v[j].var) ||
                !given_loops(&here, j, &t->u->launches[i], f->name, &given))
                continue;
            int n = host_loop_values(&given.v[0], vals, SWEEP_MAX);
            int64_t blocks = n > 0 ? n * launch_blocks(&t->u->launches[i]) : 0;
            if (n < 0 || sized + blocks > NEST_BLOCKS)
                continue;
            sized += blocks;
            size_t before = t->u->n_launches;
            split(t, i, &given, 0, at, f->name);
            if (t->u->n_launches < before) {
                i--;
                end--;
            }
        }
    }
    host_loops_free(&here);
}
