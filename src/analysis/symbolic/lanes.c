/* lanes: per-lane, per-warp, per-iteration evaluation shared by the bank,
 * coalescing and divergence models. Loops are followed in SIMT lockstep:
 * every lane of a warp runs iteration k together, and a lane whose loop
 * condition turned false sits out the remaining iterations (which is what
 * the hardware does until the warp reconverges after the loop). */
#include "analysis/symbolic/lanes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

typedef expr_sym_ref unknown_sym;

/* The requests one pass of a loop body made, in order. */
typedef struct recorded_visit {
    uint32_t active;
    int64_t value[LANES_WARP];
} recorded_visit;

typedef struct recording {
    bool on;
    recorded_visit *v;
    size_t n, cap;
} recording;

typedef struct walker {
    const lanes_job *job;
    lanes_result *res;
    expr *guard;                   /* unknown symbols replaced by EX_UNKNOWN */
    expr *conds[ACCESS_MAX_LOOPS]; /* likewise */
    /* Private copies of the value and the loops' starts and steps; all
     * these trees have their names aliased (expr_alias_names). */
    expr *value;
    expr *inits[ACCESS_MAX_LOOPS], *nexts[ACCESS_MAX_LOOPS];
    expr_env *env; /* one per lane */
    lanes_visit visit;
    long warp_visits;
    /* The current warp's requests and metric sums (lanes_result.busiest). */
    long warp_requests;
    int64_t warp_sum[LANES_METRICS];
    bool failed;
    /* Loops whose counter nothing inside them reads: every iteration walks
     * the same inner requests, so the first iteration's are recorded and
     * replayed for the others (see walk). */
    bool invariant[ACCESS_MAX_LOOPS];
    recording rec[ACCESS_MAX_LOOPS];
    /* The innermost loop, where the value is affine in its counter and the
     * guard does not read it: its requests are stepped by addition (see
     * walk_affine). */
    bool affine_last;
    /* An unknown the step of a counted loop reads: its trip count then
     * depends on it (at 0 the loop never ends), so the run stops once a
     * lane enters the loop, with what re-running would have found. */
    const char *step_unknown[ACCESS_MAX_LOOPS];
} walker;

static void setf(char *dst, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void setf(char *dst, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, size, fmt, ap);
    va_end(ap);
}

static void appendf(char *dst, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void appendf(char *dst, size_t size, const char *fmt, ...)
{
    size_t len = strlen(dst);
    if (len + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst + len, size - len, fmt, ap);
    va_end(ap);
}

static bool fail(walker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(walker *w, const char *fmt, ...)
{
    if (!w->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->res->why, sizeof w->res->why, fmt, ap);
        va_end(ap);
    }
    w->failed = true;
    w->res->ok = false;
    return false;
}

void lanes_thread_index(const int64_t block[3], int64_t linear, int64_t tid[3])
{
    tid[0] = linear % block[0];
    tid[1] = linear / block[0] % block[1];
    tid[2] = linear / (block[0] * block[1]);
}

static const char *status_text(expr_status s)
{
    switch (s) {
    case EXPR_DIV_ZERO:
        return "division by zero";
    case EXPR_OVERFLOW:
        return "integer overflow";
    case EXPR_BAD_SHIFT:
        return "shift count out of range";
    default:
        return "cannot be evaluated";
    }
}

/* ---- which symbols are unknown ---- */

/* The environment every lane starts from: the caller's constants plus what
 * the block shape fixes. */
static void base_env(const lanes_job *job, expr_env *env)
{
    if (job->env)
        *env = *job->env;
    else
        expr_env_init(env);
    expr_env_set_builtin(env, SYM_BDIM_X, job->block[0]);
    expr_env_set_builtin(env, SYM_BDIM_Y, job->block[1]);
    expr_env_set_builtin(env, SYM_BDIM_Z, job->block[2]);
    expr_env_set_builtin(env, SYM_WARP_SIZE, LANES_WARP);
    expr_env_set_builtin(env, SYM_TID_X, 0);
    expr_env_set_builtin(env, SYM_TID_Y, 0);
    expr_env_set_builtin(env, SYM_TID_Z, 0);
}

static bool sym_bound(const expr *e, const expr_env *env)
{
    int64_t v;
    return expr_eval(e, env, &v, NULL) == EXPR_OK;
}

/* Copy of e in which every symbol unbound in env becomes an EX_UNKNOWN
 * node named after it, so evaluation reports it (and && || ?: still
 * short-circuit around it). */
static expr *mark_unknowns(const expr *e, const expr_env *env)
{
    if (!e)
        return NULL;
    if (e->kind == EX_SYM && !sym_bound(e, env))
        return expr_unknown(e->builtin == SYM_NAMED ? e->name : expr_builtin_name(e->builtin));
    if (e->kind == EX_SUM) {
        /* Its counter is its own: unknown only for what it reads outside. */
        const char *free_name = expr_first_unbound(e, env);
        return free_name ? expr_unknown(free_name) : expr_clone(e);
    }
    expr *n = expr_clone(e);
    expr_free(n->a);
    expr_free(n->b);
    expr_free(n->c);
    n->a = mark_unknowns(e->a, env);
    n->b = mark_unknowns(e->b, env);
    n->c = mark_unknowns(e->c, env);
    return n;
}

static void bind_unknown(expr_env *env, const unknown_sym *u, int64_t v)
{
    if (u->builtin != SYM_NAMED)
        expr_env_set_builtin(env, u->builtin, v);
    else
        expr_env_set(env, u->name, v);
}

bool lanes_expr_per_lane(const expr *e, const loop_ctx *loops, int n_loops)
{
    if (!e)
        return false;
    if (expr_uses_builtin(e, SYM_TID_X) || expr_uses_builtin(e, SYM_TID_Y) ||
        expr_uses_builtin(e, SYM_TID_Z))
        return true;
    /* Counters are resolved innermost-last, so a counter may depend only on
     * those outside it. */
    for (int i = 0; i < n_loops; i++) {
        if (!loops[i].var || !expr_uses_name(e, loops[i].var))
            continue;
        if (lanes_expr_per_lane(loops[i].init, loops, i) ||
            lanes_expr_per_lane(loops[i].next, loops, i))
            return true;
    }
    return false;
}

/* ---- the walk ---- */

/* The lanes of mask that pass the job's guard, in *active. */
static bool guard_mask(walker *w, uint32_t mask, uint32_t *active_out)
{
    lanes_result *res = w->res;
    if (!w->guard) {
        *active_out = mask;
        return true;
    }
    int64_t gs[LANES_WARP];
    uint32_t unknown, fine = expr_eval_lanes_unknown(w->guard, w->env, mask, gs, &unknown);
    uint32_t active = 0;
    for (int l = 0; l < LANES_WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        int64_t g = gs[l];
        const char *why = NULL;
        /* A lane that fails is evaluated again alone, for how: for an
         * unknown's name only while the note still needs one. */
        bool noted = res->guard_assumed || w->visit.probe;
        expr_status s = fine >> l & 1               ? EXPR_OK
                        : unknown >> l & 1 && noted ? EXPR_UNBOUND
                                                    : expr_eval(w->guard, &w->env[l], &g, &why);
        if (s == EXPR_UNKNOWN || s == EXPR_UNBOUND) {
            /* A guard on an unknown value is almost always a bounds check,
             * true for every lane but those past the end of the data. */
            if (!res->guard_assumed && !w->visit.probe)
                appendf(res->note, sizeof res->note,
                        "%sthe guard depends on '%s' whose value is unknown: every lane is taken "
                        "as active",
                        res->note[0] ? "; " : "", why ? why : "?");
            res->guard_assumed = true;
            g = 1;
        } else if (s != EXPR_OK) {
            return fail(w, "the guard: %s in lane %d of warp %d", status_text(s), l, w->visit.warp);
        }
        if (g)
            active |= 1u << l;
    }
    *active_out = active;
    return true;
}

static bool emit(walker *w, uint32_t mask)
{
    const lanes_job *job = w->job;
    lanes_result *res = w->res;
    uint32_t active = 0;
    w->visit.active = 0;
    if (!guard_mask(w, mask, &active))
        return false;
    if (!active)
        return true;
    if (w->warp_visits >= LANES_MAX_VISITS_PER_WARP) {
        res->loop_capped = true;
        return true;
    }
    lanes_visit *v = &w->visit;
    v->active = active;
    uint32_t fine = expr_eval_lanes(w->value, w->env, active, v->value);
    for (int l = 0; l < LANES_WARP; l++) {
        if (!(active >> l & 1)) {
            v->value[l] = 0;
            continue;
        }
        if (fine >> l & 1)
            continue;
        const char *why = NULL;
        expr_status s = expr_eval(w->value, &w->env[l], &v->value[l], &why);
        if (s == EXPR_UNKNOWN || s == EXPR_UNBOUND)
            return fail(w, "%s cannot be evaluated: %s", job->what, why ? why : "unknown");
        if (s != EXPR_OK)
            return fail(w, "%s: %s in lane %d of warp %d", job->what, status_text(s), l, v->warp);
    }
    return true;
}

/* The request in w->visit, standing for `repeat` requests from iteration
 * `iteration` on (see lanes_visit.repeat). */
static bool visit_n(walker *w, long iteration, long repeat)
{
    lanes_visit *v = &w->visit;
    int64_t m[LANES_METRICS] = {0};
    char why[LANES_WHY_MAX] = "";
    for (int d = 0; d < w->job->n_loops; d++) {
        recording *r = &w->rec[d];
        if (!r->on)
            continue;
        if (r->n == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 64;
            r->v = xrealloc(r->v, r->cap * sizeof *r->v);
        }
        r->v[r->n].active = v->active;
        memcpy(r->v[r->n].value, v->value, sizeof v->value);
        r->n++;
    }
    v->iteration = iteration;
    v->repeat = repeat;
    if (!w->job->fn(v, m, why, sizeof why, w->job->ctx))
        return fail(w, "%s", why[0] ? why : "the request could not be analysed");
    lanes_result *res = w->res;
    for (int i = 0; i < LANES_METRICS; i++) {
        if (res->visits == 0 || m[i] > res->worst[i])
            res->worst[i] = m[i];
        res->sum[i] += m[i] * repeat;
        w->warp_sum[i] += m[i] * repeat;
    }
    res->visits += repeat;
    w->warp_requests += repeat;
    return true;
}

static bool visit(walker *w)
{
    return visit_n(w, w->warp_visits++, 1);
}

static bool eval_loop_part(walker *w, const loop_ctx *L, const expr *e, const char *part, int lane,
                           int64_t *out)
{
    const char *why = NULL;
    expr_status s = expr_eval(e, &w->env[lane], out, &why);
    if (s == EXPR_OK)
        return true;
    if (s == EXPR_UNBOUND || s == EXPR_UNKNOWN)
        return fail(w, "the %s of loop '%s' (line %d) depends on '%s' whose value is unknown", part,
                    L->var, L->loc.line, why ? why : "?");
    return fail(w, "the %s of loop '%s' (line %d): %s in lane %d of warp %d", part, L->var,
                L->loc.line, status_text(s), lane, w->visit.warp);
}

static bool set_var(walker *w, const loop_ctx *L, int lane, int64_t v)
{
    if (!expr_env_set(&w->env[lane], L->var, v))
        return fail(w, "too many symbols to evaluate %s", w->job->what);
    return true;
}

/* Loop d's start or step (e) in every lane of mask, set as its counter. */
static bool set_loop_part(walker *w, const loop_ctx *L, const expr *e, const char *part,
                          uint32_t mask)
{
    int64_t xs[LANES_WARP];
    uint32_t fine = expr_eval_lanes(e, w->env, mask, xs);
    int slot = -1; /* where the last lane keeps the counter: likely the next's too */
    for (int l = 0; l < LANES_WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        /* A lane that fails is evaluated again alone, for how. */
        if (!(fine >> l & 1) && !eval_loop_part(w, L, e, part, l, &xs[l]))
            return false;
        expr_env *en = &w->env[l];
        if (slot >= 0 && slot < en->n_named && en->names[slot] == L->var) {
            en->values[slot] = xs[l];
            continue;
        }
        if (!set_var(w, L, l, xs[l]))
            return false;
        slot = expr_env_find(en, L->var);
    }
    return true;
}

/* One lane's loop condition: 1, 0, or -1 when it rests on an unknown. */
static int eval_cond(walker *w, int d, int lane, bool *ok)
{
    const loop_ctx *L = &w->job->loops[d];
    int64_t c;
    const char *why = NULL;
    expr_status s = expr_eval(w->conds[d], &w->env[lane], &c, &why);
    *ok = true;
    if (s == EXPR_UNKNOWN || s == EXPR_UNBOUND)
        return -1;
    if (s != EXPR_OK) {
        *ok = fail(w, "the condition of loop '%s' (line %d): %s in lane %d of warp %d", L->var,
                   L->loc.line, status_text(s), lane, w->visit.warp);
        return 0;
    }
    return c != 0;
}

static bool walk(walker *w, int d, uint32_t mask);

/* expr_uses_name on a possibly aliased tree. */
static bool is_var(const expr *e, const char *var)
{
    return e && e->kind == EX_SYM && e->builtin == SYM_NAMED && e->name &&
           strcmp(e->name, var) == 0;
}

/* The trip count of `for (v = x; v OP E; v += S)` (E and S not reading v)
 * without running it: what the step-by-step count gives, capped the same
 * way. False when the loop is not of that shape, a value is not known, or
 * the arithmetic could overflow: then the loop is stepped. */
/* Loop d's trips are taken in full (see lanes_job.uncapped_trips): the
 * innermost loop's, and an invariant loop's whose requests are replayed. */
static bool uncapped(const walker *w, int d)
{
    const lanes_job *job = w->job;
    return job->uncapped_trips &&
           (d == job->n_loops - 1 || (job->counts_mod_128 && w->invariant[d]));
}

static bool closed_form_trips(walker *w, int d, int lane, int64_t x, int64_t *trips)
{
    const char *var = w->job->loops[d].var;
    const expr *c = w->conds[d], *n = w->nexts[d];
    if (!c || c->kind != EX_BINARY || !n || n->kind != EX_BINARY)
        return false;
    expr_op op = c->op;
    const expr *bound;
    if (is_var(c->a, var) && !expr_uses_name(c->b, var))
        bound = c->b;
    else if (is_var(c->b, var) && !expr_uses_name(c->a, var)) {
        bound = c->a; /* E > v is v < E */
        static const expr_op mirror[][2] = {
            {OP_LT, OP_GT}, {OP_GT, OP_LT}, {OP_LE, OP_GE}, {OP_GE, OP_LE}, {OP_NE, OP_NE}};
        bool found = false;
        for (size_t i = 0; i < sizeof mirror / sizeof mirror[0] && !found; i++)
            if (mirror[i][0] == op) {
                op = mirror[i][1];
                found = true;
            }
        if (!found)
            return false;
    } else
        return false;
    if (op != OP_LT && op != OP_LE && op != OP_GT && op != OP_GE && op != OP_NE)
        return false;
    const expr *step_e;
    bool minus = n->op == OP_SUB;
    if ((n->op == OP_ADD || minus) && is_var(n->a, var) && !expr_uses_name(n->b, var))
        step_e = n->b;
    else if (n->op == OP_ADD && is_var(n->b, var) && !expr_uses_name(n->a, var))
        step_e = n->a;
    else
        return false;
    int64_t e, s;
    if (expr_eval(bound, &w->env[lane], &e, NULL) != EXPR_OK ||
        expr_eval(step_e, &w->env[lane], &s, NULL) != EXPR_OK)
        return false;
    if (minus) {
        if (s == INT64_MIN)
            return false;
        s = -s;
    }
    /* Counting up to E (<, <=) or down to E (>, >=); != only where the
     * steps land on E. */
    int64_t gap, t;
    bool up = op == OP_LT || op == OP_LE || (op == OP_NE && s > 0);
    if (up ? __builtin_sub_overflow(e, x, &gap) : __builtin_sub_overflow(x, e, &gap))
        return false;
    int64_t stride = up ? s : -s;
    if (s == 0 || stride <= 0) {
        /* Never moves toward E: runs not at all or past any cap. */
        bool enters = op == OP_LT   ? x < e
                      : op == OP_LE ? x <= e
                      : op == OP_GT ? x > e
                      : op == OP_GE ? x >= e
                                    : x != e;
        if (enters)
            return false;
        *trips = 0;
        return true;
    }
    if (op == OP_NE) {
        if (gap < 0 || gap % stride)
            return false;
        t = gap / stride;
    } else if (op == OP_LE || op == OP_GE) {
        t = gap < 0 ? 0 : gap / stride + 1;
    } else {
        t = gap <= 0 ? 0 : (gap - 1) / stride + 1;
    }
    /* The stepped count stops at the cap, and so does this; the last value
     * the counter takes must fit as it does when stepped. */
    if (t > LANES_MAX_ITER && !uncapped(w, d)) {
        w->res->loop_capped = true;
        t = LANES_MAX_ITER;
    }
    int64_t last;
    if (__builtin_mul_overflow(t, s, &last) || __builtin_add_overflow(x, last, &last))
        return false;
    *trips = t;
    return true;
}

static bool fail_step_unknown(walker *w, int d)
{
    return fail(w, "%s depends on '%s' whose value is unknown", w->job->what, w->step_unknown[d]);
}

static bool count_trips(walker *w, int d, uint32_t mask)
{
    const loop_ctx *L = &w->job->loops[d];
    lanes_visit *v = &w->visit;
    /* Only the lanes that pass the ifs around the loop reach it. */
    if (!guard_mask(w, mask, &mask))
        return false;
    if (!mask)
        return true;
    for (int l = 0; l < LANES_WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        int64_t x, trips = 0;
        if (!eval_loop_part(w, L, w->inits[d], "start", l, &x) || !set_var(w, L, l, x))
            return false;
        if (w->step_unknown[d]) {
            bool ok;
            int c = eval_cond(w, d, l, &ok);
            if (!ok)
                return false;
            if (c > 0)
                return fail_step_unknown(w, d);
        }
        if (closed_form_trips(w, d, l, x, &trips)) {
            w->res->steps++;
            v->value[l] = trips;
            continue;
        }
        for (;;) {
            w->res->steps++;
            bool ok;
            int c = eval_cond(w, d, l, &ok);
            if (!ok)
                return false;
            if (c < 0) {
                const char *why = NULL;
                int64_t dummy;
                expr_eval(w->conds[d], &w->env[l], &dummy, &why);
                return fail(w,
                            "the trip count of loop '%s' (line %d) depends on '%s' whose value "
                            "is unknown",
                            L->var, L->loc.line, why ? why : "?");
            }
            if (!c)
                break;
            if (trips >= LANES_MAX_ITER) {
                w->res->loop_capped = true;
                break;
            }
            trips++;
            if (!eval_loop_part(w, L, w->nexts[d], "step", l, &x) || !set_var(w, L, l, x))
                return false;
        }
        v->value[l] = trips;
    }
    v->active = mask;
    for (int l = 0; l < LANES_WARP; l++)
        if (!(mask >> l & 1))
            v->value[l] = 0;
    return visit(w);
}

/* The request a recording holds, as the next visit. */
static void replayed(walker *w, const recorded_visit *rv)
{
    w->visit.active = rv->active;
    memcpy(w->visit.value, rv->value, sizeof w->visit.value);
}

/* Whether a loop is recording its body's requests: a recording replays one
 * visit per request, so no visit may then stand for several. */
static bool any_recording(const walker *w)
{
    for (int d = 0; d < w->job->n_loops; d++)
        if (w->rec[d].on)
            return true;
    return false;
}

/* One iteration of loop d for the lanes in mask. Where nothing inside the
 * loop reads its counter, an iteration with the same lanes as the recorded
 * one makes the same requests: they are replayed, not re-evaluated (the
 * expressions inside see the same values, so they would give the same
 * numbers and fail the same way). */
static bool walk_body(walker *w, int d, uint32_t mask, bool *recorded, uint32_t *recorded_mask)
{
    recording *r = &w->rec[d];
    if (!w->invariant[d])
        return walk(w, d + 1, mask);
    if (*recorded && mask == *recorded_mask) {
        for (size_t i = 0; i < r->n; i++) {
            if (w->warp_visits >= LANES_MAX_VISITS_PER_WARP) {
                w->res->loop_capped = true;
                return true;
            }
            replayed(w, &r->v[i]);
            if (!visit(w))
                return false;
        }
        return true;
    }
    r->n = 0;
    r->on = true;
    bool ok = walk(w, d + 1, mask);
    r->on = false;
    *recorded = ok;
    *recorded_mask = mask;
    return ok;
}

static void note_capped(walker *w, const loop_ctx *L, long it)
{
    if (!w->res->loop_capped && !w->visit.probe)
        appendf(w->res->note, sizeof w->res->note,
                "%sloop '%s' (line %d) was followed for %ld iterations only",
                w->res->note[0] ? "; " : "", L->var, L->loc.line, it);
    w->res->loop_capped = true;
}

/* One lane's entry to the affine loop: its trip count (LANES_MAX_ITER + 1
 * where the cap cuts it), step, first value and change per iteration.
 * False where any of them is not known this way; the env is left as found. */
static bool affine_lane(walker *w, int d, int l, int64_t *trips, int64_t *step, int64_t *v0,
                        int64_t *dv)
{
    expr_env *en = &w->env[l];
    int h = expr_env_find(en, w->job->loops[d].var);
    if (h < 0)
        return false;
    int64_t x0 = en->values[h], t, x1, v1, last, vlast, want;
    bool capped = w->res->loop_capped;
    w->res->loop_capped = false;
    bool known = closed_form_trips(w, d, l, x0, &t);
    bool cut = w->res->loop_capped;
    w->res->loop_capped = capped;
    *trips = cut ? LANES_MAX_ITER + 1 : t;
    *dv = 0;
    if (!known || expr_eval(w->nexts[d], en, &x1, NULL) != EXPR_OK ||
        __builtin_sub_overflow(x1, x0, step))
        return false;
    if (t == 0)
        return true;
    if (expr_eval(w->value, en, v0, NULL) != EXPR_OK)
        return false;
    if (t == 1)
        return true;
    /* The second iteration gives the change; the last must fail nowhere
     * and lie on the line (every node of an affine tree peaks at an end). */
    en->values[h] = x1;
    bool ok =
        expr_eval(w->value, en, &v1, NULL) == EXPR_OK && !__builtin_sub_overflow(v1, *v0, dv) &&
        !__builtin_mul_overflow(t - 1, *step, &last) && !__builtin_add_overflow(x0, last, &last);
    if (ok) {
        en->values[h] = last;
        ok = expr_eval(w->value, en, &vlast, NULL) == EXPR_OK &&
             !__builtin_mul_overflow(t - 1, *dv, &want) &&
             !__builtin_add_overflow(*v0, want, &want) && want == vlast;
    }
    en->values[h] = x0;
    return ok;
}

/* The iterations of an affine innermost loop that every lane of mask
 * runs, where the job's counts repeat every 128 bytes and the active lanes
 * move alike: one period of requests, each standing for the iterations
 * 128 bytes apart (visit_n's repeat), in the order the step-by-step walk
 * makes them, with the same caps (none may fall inside). 1: walked up to
 * *it, with *guarded known; 0: failed; -1: not this way, nothing changed. */
static int walk_period(walker *w, uint32_t mask, const int64_t *trips, const int64_t *v0,
                       const int64_t *dv, uint32_t *guarded, long *it)
{
    const lanes_job *job = w->job;
    if (!job->counts_mod_128 || !mask || any_recording(w))
        return -1;
    int64_t common = INT64_MAX;
    for (int l = 0; l < LANES_WARP; l++)
        if (mask >> l & 1 && trips[l] < common)
            common = trips[l];
    if (common < 2 || common > LANES_MAX_ITER ||
        common > LANES_MAX_VISITS_PER_WARP - w->warp_visits)
        return -1;
    if (!guard_mask(w, mask, guarded))
        return 0;
    uint32_t active = mask & *guarded;
    if (!active) {
        *it = (long)common; /* iterations without a request */
        return 1;
    }
    int first = __builtin_ctz(active);
    for (int l = first + 1; l < LANES_WARP; l++)
        if (active >> l & 1 && dv[l] != dv[first])
            return -1;
    /* Lanes moved by D make the same counts again once D * k is a
     * multiple of 128: every 128 / gcd(D mod 128, 128) iterations. */
    int64_t r = ((dv[first] % 128) + 128) % 128, g = 128;
    for (int64_t a = r; a;) {
        int64_t t = g % a;
        g = a;
        a = t;
    }
    int64_t period = 128 / g;
    if (period >= common)
        return -1;
    lanes_visit *v = &w->visit;
    long base = w->warp_visits;
    for (int64_t k = 0; k < period; k++) {
        for (int l = 0; l < LANES_WARP; l++)
            v->value[l] = active >> l & 1 ? v0[l] + k * dv[l] : 0;
        v->active = active;
        if (!visit_n(w, base + (long)k, (long)((common - 1 - k) / period + 1)))
            return 0;
    }
    w->warp_visits = base + (long)common;
    *it = (long)common;
    return 1;
}

/* The innermost loop where affine_last holds, stepped by addition: the
 * requests the step-by-step walk makes (the same lanes, values, caps and
 * notes) without evaluating the trees per iteration. 1: walked, 0: failed
 * (as the walk fails), -1: not known this way, nothing changed. */
static int walk_affine(walker *w, int d, uint32_t mask)
{
    int64_t trips[LANES_WARP] = {0}, step[LANES_WARP], v0[LANES_WARP], dv[LANES_WARP];
    for (int l = 0; l < LANES_WARP; l++)
        if (mask >> l & 1 && !affine_lane(w, d, l, &trips[l], &step[l], &v0[l], &dv[l]))
            return -1;
    const loop_ctx *L = &w->job->loops[d];
    lanes_visit *v = &w->visit;
    uint32_t guarded = 0;
    bool guard_known = false;
    long it = 0;
    int batched = walk_period(w, mask, trips, v0, dv, &guarded, &it);
    if (batched == 0)
        return 0;
    guard_known = batched > 0;
    for (;; it++) {
        uint32_t cur = 0;
        for (int l = 0; l < LANES_WARP; l++)
            if (mask >> l & 1 && trips[l] > it)
                cur |= 1u << l;
        if (!cur)
            break;
        if (it >= LANES_MAX_ITER || w->warp_visits >= LANES_MAX_VISITS_PER_WARP) {
            note_capped(w, L, it);
            break;
        }
        /* The guard does not read the counter: its lanes are the first
         * iteration's, less those that left the loop. */
        if (!guard_known && !guard_mask(w, cur, &guarded))
            return 0;
        guard_known = true;
        uint32_t active = cur & guarded;
        v->active = 0;
        if (!active)
            continue;
        if (w->warp_visits >= LANES_MAX_VISITS_PER_WARP) {
            w->res->loop_capped = true;
            continue;
        }
        for (int l = 0; l < LANES_WARP; l++)
            v->value[l] = active >> l & 1 ? v0[l] + it * dv[l] : 0;
        v->active = active;
        if (!visit(w))
            return 0;
    }
    /* Each counter where stepping leaves it. */
    for (int l = 0; l < LANES_WARP; l++)
        if (mask >> l & 1) {
            expr_env *en = &w->env[l];
            int h = expr_env_find(en, L->var);
            en->values[h] += (trips[l] < it ? trips[l] : it) * step[l];
        }
    return 1;
}

/* A loop nothing inside reads the counter of, with each lane's trip count
 * in closed form, for a job whose fn counts repeats (counts_mod_128): the
 * iterations after the first of a run with the same lanes replay the same
 * requests, so each is visited once standing for the run (visit_n's
 * repeat), in the step-by-step walk's order, with its caps (none may fall
 * inside a run). 1: walked; 0: failed; -1: not this way, nothing changed. */
static int walk_invariant(walker *w, int d, uint32_t mask)
{
    const lanes_job *job = w->job;
    if (!job->counts_mod_128 || !w->invariant[d] || w->step_unknown[d] || any_recording(w))
        return -1;
    const loop_ctx *L = &job->loops[d];
    int64_t trips[LANES_WARP] = {0}, step[LANES_WARP] = {0};
    int slot[LANES_WARP];
    bool capped = w->res->loop_capped, known = true;
    for (int l = 0; l < LANES_WARP && known; l++) {
        if (!(mask >> l & 1))
            continue;
        expr_env *en = &w->env[l];
        slot[l] = expr_env_find(en, L->var);
        int64_t x0 = slot[l] >= 0 ? en->values[slot[l]] : 0, x1;
        w->res->loop_capped = false;
        known = slot[l] >= 0 && closed_form_trips(w, d, l, x0, &trips[l]) && !w->res->loop_capped &&
                (trips[l] == 0 || (expr_eval(w->nexts[d], en, &x1, NULL) == EXPR_OK &&
                                   !__builtin_sub_overflow(x1, x0, &step[l])));
    }
    w->res->loop_capped = capped;
    if (!known)
        return -1;
    recording *r = &w->rec[d];
    bool recorded = false, free_runs = uncapped(w, d);
    uint32_t recorded_mask = 0;
    for (long it = 0;;) {
        uint32_t cur = 0;
        int64_t run_end = INT64_MAX;
        for (int l = 0; l < LANES_WARP; l++)
            if (mask >> l & 1 && trips[l] > it) {
                cur |= 1u << l;
                if (trips[l] < run_end)
                    run_end = trips[l];
            }
        if (!cur)
            break;
        if (!free_runs && (it >= LANES_MAX_ITER || w->warp_visits >= LANES_MAX_VISITS_PER_WARP)) {
            note_capped(w, L, it);
            break;
        }
        if (!walk_body(w, d, cur, &recorded, &recorded_mask))
            return 0;
        long k = (long)(run_end - it - 1), n = (long)r->n;
        if (!(recorded && recorded_mask == cur) ||
            (!free_runs && (run_end > LANES_MAX_ITER ||
                            (n > 0 && k > (LANES_MAX_VISITS_PER_WARP - w->warp_visits) / n))))
            k = 0; /* the next iteration is walked as the step-by-step walk does */
        if (k > 0 && n > 0) {
            long base = w->warp_visits;
            for (long i = 0; i < n; i++) {
                replayed(w, &r->v[i]);
                if (!visit_n(w, base + i, k))
                    return 0;
            }
            /* A free run costs its n visits, not the k x n it stands for. */
            w->warp_visits = base + (free_runs ? n : k * n);
        }
        for (int l = 0; l < LANES_WARP; l++)
            if (cur >> l & 1)
                w->env[l].values[slot[l]] += (k + 1) * step[l];
        it += k + 1;
    }
    return 1;
}

static bool walk(walker *w, int d, uint32_t mask)
{
    const lanes_job *job = w->job;
    if (d == job->n_loops) {
        if (!emit(w, mask))
            return false;
        return w->visit.active ? visit(w) : true;
    }
    const loop_ctx *L = &job->loops[d];
    if (!L->var || !L->init || !L->cond || !L->next)
        return fail(w,
                    "the loop at line %d could not be followed (its start, condition or step "
                    "is not a simple expression)",
                    L->loc.line);
    if (job->last_loop_trips && d == job->n_loops - 1)
        return count_trips(w, d, mask);
    if (!set_loop_part(w, L, w->inits[d], "start", mask))
        return false;
    if (w->affine_last && d == job->n_loops - 1 && !w->step_unknown[d]) {
        int walked = walk_affine(w, d, mask);
        if (walked >= 0)
            return walked;
    }
    int walked = walk_invariant(w, d, mask);
    if (walked >= 0)
        return walked;
    uint32_t alive = mask, recorded_mask = 0;
    bool recorded = false;
    for (long it = 0;; it++) {
        uint32_t cur = 0;
        bool sampled = false, entered = false;
        int64_t cs[LANES_WARP];
        uint32_t unknown, fine = expr_eval_lanes_unknown(w->conds[d], w->env, alive, cs, &unknown);
        for (int l = 0; l < LANES_WARP; l++) {
            if (!(alive >> l & 1))
                continue;
            bool ok = true;
            /* A lane resting on an unknown is -1, as eval_cond gives it. */
            int c = fine >> l & 1 ? cs[l] != 0 : unknown >> l & 1 ? -1 : eval_cond(w, d, l, &ok);
            if (!ok)
                return false;
            entered |= c > 0;
            if (c < 0) {
                sampled = true;
                c = it < LANES_UNKNOWN_BOUND_ITER;
            }
            if (c)
                cur |= 1u << l;
        }
        if (sampled && !w->res->bound_sampled && !w->visit.probe)
            appendf(w->res->note, sizeof w->res->note,
                    "%sthe bound of loop '%s' (line %d) is unknown: its first %d iterations were "
                    "analysed",
                    w->res->note[0] ? "; " : "", L->var, L->loc.line, LANES_UNKNOWN_BOUND_ITER);
        if (sampled)
            w->res->bound_sampled = true;
        if (!cur)
            break;
        /* With a known bound the unknown step decides the trip count; with
         * an unknown bound the iterations are sampled anyway. */
        if (it == 0 && entered && w->step_unknown[d])
            return fail_step_unknown(w, d);
        if (it >= LANES_MAX_ITER || w->warp_visits >= LANES_MAX_VISITS_PER_WARP) {
            note_capped(w, L, it);
            break;
        }
        if (!walk_body(w, d, cur, &recorded, &recorded_mask))
            return false;
        if (!set_loop_part(w, L, w->nexts[d], "step", cur))
            return false;
        alive = cur;
    }
    return true;
}

/* One pass over every warp of the block with the unknowns bound as given. */
static bool run_once(walker *w, const unknown_sym *unk, const int64_t *unk_val, int n_unk,
                     bool probe)
{
    const lanes_job *job = w->job;
    lanes_result *res = w->res;
    int64_t threads = job->block[0] * job->block[1] * job->block[2];
    int warps = (int)((threads + LANES_WARP - 1) / LANES_WARP);
    expr_env start;
    base_env(job, &start);
    for (int i = 0; i < n_unk; i++)
        bind_unknown(&start, &unk[i], unk_val[i]);
    res->warps = warps;
    w->visit.probe = probe;
    for (int wp = 0; wp < warps; wp++) {
        uint32_t exists = 0;
        w->visit.warp = wp;
        w->warp_visits = 0;
        w->warp_requests = 0;
        memset(w->warp_sum, 0, sizeof w->warp_sum);
        for (int l = 0; l < LANES_WARP; l++) {
            int64_t linear = (int64_t)wp * LANES_WARP + l;
            int64_t *t = w->visit.tid[l];
            w->env[l] = start;
            if (linear >= threads) {
                t[0] = t[1] = t[2] = 0;
                continue;
            }
            exists |= 1u << l;
            lanes_thread_index(job->block, linear, t);
            expr_env_set_builtin(&w->env[l], SYM_TID_X, t[0]);
            expr_env_set_builtin(&w->env[l], SYM_TID_Y, t[1]);
            expr_env_set_builtin(&w->env[l], SYM_TID_Z, t[2]);
        }
        if (!walk(w, 0, exists))
            return false;
        if (w->warp_requests > res->busiest_requests)
            res->busiest_requests = w->warp_requests;
        for (int i = 0; i < LANES_METRICS; i++)
            if (w->warp_sum[i] > res->busiest_sum[i])
                res->busiest_sum[i] = w->warp_sum[i];
    }
    return true;
}

static void reset_counts(lanes_result *r)
{
    r->visits = 0;
    r->busiest_requests = 0;
    memset(r->worst, 0, sizeof r->worst);
    memset(r->sum, 0, sizeof r->sum);
    memset(r->busiest_sum, 0, sizeof r->busiest_sum);
}

/* The job's block and loops are usable; else res->why says why not. */
static bool check_job(const lanes_job *job, const char *what, lanes_result *res)
{
    for (int i = 0; i < 3; i++)
        if (job->block[i] < 1) {
            setf(res->why, sizeof res->why, "block dimension %d is %lld; it must be at least 1", i,
                 (long long)job->block[i]);
            return false;
        }
    int64_t threads = job->block[0] * job->block[1] * job->block[2];
    if (job->block[0] > LANES_MAX_THREADS || job->block[1] > LANES_MAX_THREADS ||
        job->block[2] > LANES_MAX_THREADS || threads > LANES_MAX_THREADS) {
        setf(res->why, sizeof res->why,
             "a block of %lldx%lldx%lld threads cannot launch (at most %d)",
             (long long)job->block[0], (long long)job->block[1], (long long)job->block[2],
             LANES_MAX_THREADS);
        return false;
    }
    if (job->n_loops < 0 || job->n_loops > ACCESS_MAX_LOOPS ||
        (job->last_loop_trips && job->n_loops < 1) || (!job->value && !job->last_loop_trips)) {
        setf(res->why, sizeof res->why, "%s is missing", what);
        return false;
    }
    return true;
}

/* Unknowns: symbols neither the caller, the block shape, the lane nor a
 * loop counter gives a value to. Those in the value and in loop starts and
 * steps are bound to 0 in probe_env and checked by re-running with other
 * values; those in guards and loop bounds are left unknown (see emit,
 * walk). False when there are too many. */
static bool find_unknowns(const lanes_job *job, walker *w, expr_env *probe_env, unknown_sym *unk,
                          int *n_unk)
{
    base_env(job, probe_env);
    for (int i = 0; i < job->n_loops; i++)
        if (job->loops[i].var)
            expr_env_set(probe_env, job->loops[i].var, 0);
    bool too_many = false;
    if (!job->last_loop_trips)
        expr_unbound_syms(job->value, probe_env, unk, n_unk, LANES_MAX_ASSUMED, &too_many);
    for (int i = 0; i < job->n_loops; i++) {
        expr_unbound_syms(job->loops[i].init, probe_env, unk, n_unk, LANES_MAX_ASSUMED, &too_many);
        expr_unbound_syms(job->loops[i].next, probe_env, unk, n_unk, LANES_MAX_ASSUMED, &too_many);
    }
    if (too_many)
        return false;
    for (int i = 0; i < *n_unk; i++)
        bind_unknown(probe_env, &unk[i], 0);
    w->guard = mark_unknowns(job->guard, probe_env);
    for (int i = 0; i < job->n_loops; i++)
        w->conds[i] = mark_unknowns(job->loops[i].cond, probe_env);
    return true;
}

/* Whether e is affine in var in every lane: var, a term without it, and
 * sums, differences, negations, products with a term without it, shifts by
 * such a term and a ?: whose condition does not read it, of those. Every
 * node of such a tree is affine too, so its extremes over an interval of
 * var are at the interval's ends. */
static bool affine_in(const expr *e, const char *var)
{
    if (!e || !expr_uses_name(e, var))
        return true;
    switch (e->kind) {
    case EX_SYM:
        return true;
    case EX_UNARY:
        return e->op == OP_NEG && affine_in(e->a, var);
    case EX_BINARY:
        switch (e->op) {
        case OP_ADD:
        case OP_SUB:
            return affine_in(e->a, var) && affine_in(e->b, var);
        case OP_MUL:
            return (!expr_uses_name(e->a, var) && affine_in(e->b, var)) ||
                   (!expr_uses_name(e->b, var) && affine_in(e->a, var));
        case OP_SHL:
            return !expr_uses_name(e->b, var) && affine_in(e->a, var);
        default:
            return false;
        }
    case EX_COND:
        return !expr_uses_name(e->a, var) && affine_in(e->b, var) && affine_in(e->c, var);
    default:
        return false;
    }
}

/* What is the same in every lane and iteration (the caller's constants, the
 * block shape) is folded into private copies once; the lane, the loop
 * counters and the unknowns being probed stay symbols. */
static void fold_constants(const lanes_job *job, walker *w, expr_env *probe_env)
{
    expr_env fixed;
    base_env(job, &fixed);
    fixed.has_builtin[SYM_TID_X] = fixed.has_builtin[SYM_TID_Y] = false;
    fixed.has_builtin[SYM_TID_Z] = false;
    for (int i = 0; i < job->n_loops; i++)
        if (job->loops[i].var)
            expr_env_unset(&fixed, job->loops[i].var);
    w->value = expr_bind(job->value, &fixed);
    for (int i = 0; i < job->n_loops; i++) {
        w->inits[i] = expr_bind(job->loops[i].init, &fixed);
        w->nexts[i] = expr_bind(job->loops[i].next, &fixed);
        expr *c = expr_bind(w->conds[i], &fixed);
        expr_free(w->conds[i]);
        w->conds[i] = c;
    }
    expr *g = expr_bind(w->guard, &fixed);
    expr_free(w->guard);
    w->guard = g;
    /* probe_env holds every name a lane's env will, by the same pointers:
     * lookups then compare pointers (the walk's hot path). */
    expr_alias_names(w->guard, probe_env);
    expr_alias_names(w->value, probe_env);
    for (int i = 0; i < job->n_loops; i++) {
        expr_alias_names(w->conds[i], probe_env);
        expr_alias_names(w->inits[i], probe_env);
        expr_alias_names(w->nexts[i], probe_env);
    }
    for (int d = 0; d < job->n_loops; d++) {
        const char *var = job->loops[d].var;
        bool read = !var || (job->last_loop_trips && d == job->n_loops - 1) ||
                    expr_uses_name(w->value, var) || expr_uses_name(w->guard, var);
        for (int e = d + 1; e < job->n_loops && !read; e++)
            read = !job->loops[e].var || strcmp(job->loops[e].var, var) == 0 ||
                   expr_uses_name(w->conds[e], var) || expr_uses_name(w->inits[e], var) ||
                   expr_uses_name(w->nexts[e], var);
        w->invariant[d] = !read;
    }
    int last = job->n_loops - 1;
    w->affine_last = last >= 0 && !job->last_loop_trips && !w->invariant[last] &&
                     job->loops[last].var && affine_in(w->value, job->loops[last].var) &&
                     !expr_uses_name(w->guard, job->loops[last].var);
}

static bool uses_unknown(const expr *e, const unknown_sym *u)
{
    return u->builtin != SYM_NAMED ? expr_uses_builtin(e, u->builtin) : expr_uses_name(e, u->name);
}

static void find_step_unknowns(const lanes_job *job, walker *w, const unknown_sym *unk, int n_unk)
{
    for (int d = 0; d < job->n_loops; d++) {
        const char *var = job->loops[d].var;
        if (!var || !w->conds[d] || !expr_uses_name(w->conds[d], var))
            continue;
        for (int i = 0; i < n_unk && !w->step_unknown[d]; i++)
            if (uses_unknown(w->nexts[d], &unk[i]))
                w->step_unknown[d] = unk[i].name;
    }
}

/* Runs the walk with the unknowns at 0, then each unknown at other values:
 * a result that moves depends on it. */
static bool probe_unknowns(walker *w, const unknown_sym *unk, int n_unk, const char *what,
                           lanes_result *res)
{
    int64_t vals[LANES_MAX_ASSUMED] = {0};
    bool ok = run_once(w, unk, vals, n_unk, false);
    for (int i = 0; ok && i < n_unk; i++) {
        lanes_result base = *res, trial;
        for (size_t p = 0; ok && p < EXPR_N_PROBES; p++) {
            memset(&trial, 0, sizeof trial);
            trial.ok = true;
            w->res = &trial;
            w->failed = false;
            vals[i] = expr_probe_values[p];
            bool same = run_once(w, unk, vals, n_unk, true) && trial.visits == base.visits &&
                        memcmp(trial.worst, base.worst, sizeof trial.worst) == 0 &&
                        memcmp(trial.sum, base.sum, sizeof trial.sum) == 0;
            w->res = res;
            if (!same) {
                setf(res->why, sizeof res->why, "%s depends on '%s' whose value is unknown", what,
                     unk[i].name);
                res->ok = false;
                ok = false;
            }
        }
        vals[i] = 0;
        if (ok) {
            snprintf(res->assumed[res->n_assumed], sizeof res->assumed[0], "%s", unk[i].name);
            res->n_assumed++;
        }
    }
    if (ok && n_unk > 0) {
        char names[LANES_NOTE_MAX] = "";
        for (int i = 0; i < res->n_assumed; i++)
            appendf(names, sizeof names, "%s'%s'", i ? ", " : "", res->assumed[i]);
        char tail[LANES_NOTE_MAX];
        snprintf(tail, sizeof tail, "%s", res->note);
        setf(res->note, sizeof res->note,
             "%s %s unknown and taken as 0: %s the same for every lane of a warp, and other "
             "values give the same result%s%s",
             names, res->n_assumed > 1 ? "are" : "is", res->n_assumed > 1 ? "they are" : "it is",
             tail[0] ? "; " : "", tail);
    }
    return ok;
}

static void walker_free(walker *w, int n_loops)
{
    expr_free(w->guard);
    expr_free(w->value);
    for (int i = 0; i < n_loops; i++) {
        expr_free(w->conds[i]);
        expr_free(w->inits[i]);
        expr_free(w->nexts[i]);
    }
    for (int d = 0; d < n_loops; d++)
        free(w->rec[d].v);
    free(w->env);
}

bool lanes_run(const lanes_job *job, lanes_result *res)
{
    memset(res, 0, sizeof *res);
    res->ok = true;
    walker w = {.job = job, .res = res};
    const char *what = job->what ? job->what : "expression";
    if (!check_job(job, what, res)) {
        res->ok = false;
        return false;
    }
    expr_env probe_env;
    unknown_sym unk[LANES_MAX_ASSUMED];
    int n_unk = 0;
    if (!find_unknowns(job, &w, &probe_env, unk, &n_unk)) {
        setf(res->why, sizeof res->why, "%s depends on more than %d values that are unknown", what,
             LANES_MAX_ASSUMED);
        res->ok = false;
        return false;
    }
    fold_constants(job, &w, &probe_env);
    find_step_unknowns(job, &w, unk, n_unk);
    w.env = xcalloc(LANES_WARP, sizeof *w.env);
    lanes_job named = *job;
    named.what = what;
    w.job = &named;
    bool ok = probe_unknowns(&w, unk, n_unk, what, res);
    if (!ok)
        reset_counts(res);
    walker_free(&w, job->n_loops);
    res->ok = ok;
    return ok;
}

bool lanes_run_access(const mem_access *a, const int64_t block[3], const expr_env *env, lanes_fn fn,
                      void *ctx, lanes_result *res, char *why, size_t why_size)
{
    memset(res, 0, sizeof *res);
    if (a->why_not) {
        snprintf(why, why_size, "%s", a->why_not);
        return false;
    }
    if (!a->byte_offset) {
        snprintf(why, why_size, "the index is not known");
        return false;
    }
    lanes_job job = {
        .what = "index",
        .value = a->byte_offset,
        .guard = a->guard,
        .loops = a->loops,
        .n_loops = a->n_loops,
        .block = {block[0], block[1], block[2]},
        .env = env,
        .fn = fn,
        .ctx = ctx,
        .counts_mod_128 = true, /* its callers: the bank and coalescing counts */
    };
    if (!lanes_run(&job, res)) {
        snprintf(why, why_size, "%s", res->why);
        return false;
    }
    if (res->visits == 0) {
        snprintf(why, why_size, "no lane of the block reaches the access with this block shape");
        return false;
    }
    return true;
}

void lanes_sort(int64_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        int64_t x = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

bool lanes_moved_by(const int64_t prev[LANES_WARP], const int64_t cur[LANES_WARP], uint32_t active,
                    int64_t unit)
{
    if (!active)
        return false;
    int first = __builtin_ctz(active);
    int64_t d;
    if (__builtin_sub_overflow(cur[first], prev[first], &d) || d % unit != 0)
        return false;
    for (int l = first + 1; l < LANES_WARP; l++) {
        int64_t dl;
        if (active >> l & 1 && (__builtin_sub_overflow(cur[l], prev[l], &dl) || dl != d))
            return false;
    }
    return true;
}
