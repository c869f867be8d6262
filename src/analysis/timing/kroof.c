/* kroof: per-launch FLOP and byte totals and their roofline bound (see kroof.h). */
#include "analysis/timing/kroof.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/gridcls.h"
#include "analysis/symbolic/gridsum.h"
#include "analysis/timing/roofline.h"
#include "util/sbuf.h"

/* No launch is shorter than an empty kernel: the least one took on cards
 * of the product (its launch_floor_ns) is a term of the floor. */
static double launch_floor(const gpu_product *product)
{
    return product->launch_floor_ns > 0 ? product->launch_floor_ns * 1e-9 : 0;
}

/* Tensor work is assumed FP16-in/FP32-accumulate: wmma's common case. */

static const model_precision prec_ceiling[4] = {PREC_FP16, PREC_FP32, PREC_FP64, PREC_FP16_TENSOR};

static expr *clone_or_zero(const expr *e)
{
    return e ? expr_clone(e) : expr_const(0);
}

/* Per-thread count times the launch's threads, folded. Takes per_thread. */
static expr *scaled(expr *per_thread, const expr *threads)
{
    expr *e = threads ? expr_binary(OP_MUL, per_thread, expr_clone(threads)) : per_thread;
    expr *s = expr_simplify(e);
    expr_free(e);
    return s;
}

/* Most evaluations a thread-dependent count may take (blocks x threads). */
#define KROOF_MAX_EVALS (1 << 22)

/* One block's threads, summed (a gridcls_fn). */
typedef struct thread_sum {
    const expr *per;
    expr_env env;
    int64_t block[3];
} thread_sum;

static bool sum_block(const int64_t bid[3], int64_t m[GRIDCLS_METRICS], char *why, size_t why_size,
                      void *ctx)
{
    thread_sum *ts = ctx;
    const expr_builtin bidx[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    for (int i = 0; i < 3; i++)
        expr_env_set_builtin(&ts->env, bidx[i], bid[i]);
    int64_t threads = ts->block[0] * ts->block[1] * ts->block[2];
    for (int64_t t = 0; t < threads; t++) {
        expr_env_set_builtin(&ts->env, SYM_TID_X, t % ts->block[0]);
        expr_env_set_builtin(&ts->env, SYM_TID_Y, t / ts->block[0] % ts->block[1]);
        expr_env_set_builtin(&ts->env, SYM_TID_Z, t / (ts->block[0] * ts->block[1]));
        int64_t v;
        if (expr_eval(ts->per, &ts->env, &v, NULL) != EXPR_OK ||
            __builtin_add_overflow(m[0], v, &m[0])) {
            snprintf(why, why_size, "the count cannot be evaluated for every thread");
            return false;
        }
    }
    return true;
}

void kroof_defines_bind(const kroof_defines *d, expr_env *env)
{
    for (int i = 0; d && i < d->n; i++)
        expr_env_set(env, d->names[i], d->values[i]);
}

/* The sum of ts->per over the launch's threads; NULL when a thread's count
 * cannot be evaluated. */
static expr *sum_threads(thread_sum *ts, const int64_t grid[3], const bool uses[3], bool per_block,
                         int64_t walk_blocks, int64_t blocks, int64_t threads)
{
    int64_t total = 0;
    char why[192];
    if (threads * walk_blocks > KROOF_MAX_EVALS) {
        gridcls_result gr;
        if (!gridcls_sum(grid, uses, GRIDCLS_METRICS, sum_block, ts, &gr, why, sizeof why))
            return NULL;
        if (!gr.uniform)
            return expr_unknown("the count differs between interior blocks of a grid too "
                                "large to sum block by block");
        return expr_const(gr.sum[0]);
    }
    for (int64_t b = 0; b < walk_blocks; b++) {
        int64_t bid[3] = {b % grid[0], b / grid[0] % grid[1], b / (grid[0] * grid[1])};
        int64_t m[GRIDCLS_METRICS] = {0};
        if (!sum_block(bid, m, why, sizeof why, ts) || __builtin_add_overflow(total, m[0], &total))
            return NULL;
    }
    if (!per_block && __builtin_mul_overflow(total, blocks, &total))
        return expr_unknown("the total overflows 64 bits");
    return expr_const(total);
}

/* A count that varies with the thread (a per-lane trip count, an arm only
 * some threads take) is summed over every thread of the launch instead of
 * multiplied by the thread count: block by block while that stays small,
 * else by block class (gridcls: first, interior, last). */
static expr *sum_over_threads(const expr *per, const kroof_input *in, const kroof_defines *defs)
{
    int64_t grid[3];
    thread_sum ts = {.per = per};
    if (!in->dims_known)
        return expr_unknown("the count depends on the thread index and the launch size is "
                            "not constant");
    memcpy(grid, in->grid, sizeof grid);
    memcpy(ts.block, in->block, sizeof ts.block);
    int64_t threads = ts.block[0] * ts.block[1] * ts.block[2];
    int64_t blocks = grid[0] * grid[1] * grid[2];
    bool uses[3] = {expr_uses_builtin(per, SYM_BID_X), expr_uses_builtin(per, SYM_BID_Y),
                    expr_uses_builtin(per, SYM_BID_Z)};
    bool per_block = uses[0] || uses[1] || uses[2];
    int64_t walk_blocks = per_block ? blocks : 1;
    expr_env_init(&ts.env);
    kroof_defines_bind(defs, &ts.env);
    const expr_builtin bdim[3] = {SYM_BDIM_X, SYM_BDIM_Y, SYM_BDIM_Z};
    const expr_builtin gdim[3] = {SYM_GDIM_X, SYM_GDIM_Y, SYM_GDIM_Z};
    for (int i = 0; i < 3; i++) {
        expr_env_set_builtin(&ts.env, bdim[i], ts.block[i]);
        expr_env_set_builtin(&ts.env, gdim[i], grid[i]);
    }
    expr_env_set_builtin(&ts.env, SYM_WARP_SIZE, 32);
    /* What every thread shares (the --define values, the launch's shape) is
     * folded once; the walk evaluates only what the indices change. */
    expr *folded = expr_bind(per, &ts.env);
    ts.per = folded;
    expr *result = NULL;
    int64_t each, total;
    if (!expr_uses_thread_index(folded)) {
        /* Folded to the same count for every thread (an arm weighed 0, a
         * precision the kernel does not use): no walk. */
        if (expr_eval(folded, &ts.env, &each, NULL) == EXPR_OK &&
            !__builtin_mul_overflow(each, threads, &total) &&
            !__builtin_mul_overflow(total, blocks, &total))
            result = expr_const(total);
    } else if (gridsum_separable(folded, grid, ts.block, &total)) {
        /* Exact, and without visiting each thread: a bounds check is a
         * product of per-dimension counts. */
        result = expr_const(total);
    } else {
        result = sum_threads(&ts, grid, uses, per_block, walk_blocks, blocks, threads);
    }
    expr_free(folded);
    return result ? result : expr_clone(per); /* unknown names stay visible */
}

/* Each "taken_A<n>" weight of an arm becomes its condition as 0 or 1 where
 * the launch lets it be evaluated thread by thread (its size constant,
 * every other name bound); else 1, the arm counted for every thread as
 * before. */
typedef struct arm_env {
    const kroof_counts *counts;
    expr_env check; /* every name but the indices bound: what an arm may read */
    bool launch_known;
    bool every_thread; /* an arm was counted for every thread */
    /* A lower count: an arm whose condition cannot be evaluated is counted
     * for no thread (it may never run), not for every one. */
    bool lower;
    bool *assumed; /* per arm: counted for every thread, its condition not evaluated */
} arm_env;

static expr *with_arms(const expr *e, arm_env *a)
{
    if (!e)
        return NULL;
    const kroof_counts *c = a->counts;
    if (e->kind == EX_SYM && e->builtin == SYM_NAMED && e->name &&
        strncmp(e->name, "taken_A", 7) == 0) {
        for (int i = 0; i < c->n_arms; i++)
            if (strcmp(c->arm_names[i], e->name) == 0) {
                /* A condition the instantiation decides (`M == 2` with M a
                 * template argument) needs no launch: its arm runs for
                 * every thread or for none. */
                expr *decided = c->arm_conds[i] ? expr_simplify(c->arm_conds[i]) : NULL;
                if (decided && decided->kind == EX_CONST) {
                    expr *w = expr_const(decided->value != 0);
                    expr_free(decided);
                    return w;
                }
                expr_free(decided);
                if (a->launch_known && c->arm_conds[i] &&
                    !expr_first_unbound(c->arm_conds[i], &a->check))
                    return expr_cond(expr_clone(c->arm_conds[i]), expr_const(1), expr_const(0));
                if (a->lower)
                    return expr_const(0);
                a->every_thread = true;
                if (a->assumed)
                    a->assumed[i] = true;
                return expr_const(1);
            }
    }
    switch (e->kind) {
    case EX_UNARY:
        return expr_unary(e->op, with_arms(e->a, a));
    case EX_BINARY:
        return expr_binary(e->op, with_arms(e->a, a), with_arms(e->b, a));
    case EX_COND:
        return expr_cond(with_arms(e->a, a), with_arms(e->b, a), with_arms(e->c, a));
    case EX_SUM:
        return expr_loop_sum(e->name, with_arms(e->a, a), with_arms(e->b, a), with_arms(e->c, a),
                             with_arms(e->d, a));
    default:
        return expr_clone(e);
    }
}

/* The loop on a line, as the sites saw it (the first one listed). */
static const loop_ctx *loop_on_line(const kroof_input *in, int line)
{
    for (size_t i = 0; i < in->n_loops; i++)
        if (in->loops[i]->loc.line == line)
            return in->loops[i];
    return NULL;
}

/* Trip count of a loop whose bounds are the same for every thread (a
 * reduction's `for (s = 1; s < blockDim.x; s *= 2)`), by running it with the
 * launch's block and grid; -1 when it depends on the lane or is unknown. */
static int64_t uniform_trips(const loop_ctx *L, expr_env *env)
{
    if (!L || !L->init || !L->cond || !L->next)
        return -1;
    static const expr_builtin lane_dep[] = {SYM_TID_X, SYM_TID_Y, SYM_TID_Z};
    for (size_t i = 0; i < 3; i++)
        if (expr_uses_builtin(L->init, lane_dep[i]) || expr_uses_builtin(L->cond, lane_dep[i]) ||
            expr_uses_builtin(L->next, lane_dep[i]))
            return -1;
    int64_t var, c, trips = 0;
    const char *why;
    if (expr_eval(L->init, env, &var, &why) != EXPR_OK)
        return -1;
    for (; trips < 1000000; trips++) {
        expr_env_set(env, L->var, var);
        if (expr_eval(L->cond, env, &c, &why) != EXPR_OK) {
            trips = -1;
            break;
        }
        if (!c)
            break;
        if (expr_eval(L->next, env, &var, &why) != EXPR_OK) {
            trips = -1;
            break;
        }
    }
    expr_env_unset(env, L->var);
    return trips >= 1000000 ? -1 : trips;
}

/* Bind every "trips_L<line>" the counts use whose loop can be run. */
static void bind_trips(const kroof_input *in, expr *const *counts, int n, kroof_defines *defs)
{
    expr_env env;
    expr_env_init(&env);
    kroof_defines_bind(defs, &env);
    if (in->has_launch && in->dims_known) {
        const expr_builtin bdim[3] = {SYM_BDIM_X, SYM_BDIM_Y, SYM_BDIM_Z};
        const expr_builtin gdim[3] = {SYM_GDIM_X, SYM_GDIM_Y, SYM_GDIM_Z};
        for (int i = 0; i < 3; i++) {
            expr_env_set_builtin(&env, bdim[i], in->block[i]);
            expr_env_set_builtin(&env, gdim[i], in->grid[i]);
        }
    }
    expr_env_set_builtin(&env, SYM_WARP_SIZE, 32);
    for (int i = 0; i < n; i++) {
        for (int guard = 0; guard < 16; guard++) {
            const char *name = expr_first_unbound(counts[i], &env);
            int line;
            if (!name || sscanf(name, "trips_L%d", &line) != 1 || defs->n >= EXPR_MAX_BINDINGS)
                break;
            int64_t t = uniform_trips(loop_on_line(in, line), &env);
            if (t < 0)
                break;
            defs->names[defs->n] = name;
            defs->values[defs->n++] = t;
            expr_env_set(&env, name, t);
        }
    }
}

/* Per-thread count -> launch total. Takes per_thread. */
static expr *launch_total(expr *per_thread, const expr *threads, const kroof_input *in,
                          const kroof_defines *defs)
{
    if (in->has_launch && expr_uses_thread_index(per_thread)) {
        expr *t = sum_over_threads(per_thread, in, defs);
        expr_free(per_thread);
        return t;
    }
    return scaled(per_thread, threads);
}

/* A count's launch total with its arms' conditions; where that total
 * cannot be formed (a trip count or a size unknown), the total with every
 * arm counted, as an upper bound would be. */
static expr *arms_total(const expr *per_thread, arm_env *arms, const expr *threads,
                        const kroof_input *in, const kroof_defines *defs)
{
    arm_env exact = *arms;
    expr *t = launch_total(with_arms(per_thread, &exact), threads, in, defs);
    if (t->kind == EX_CONST || !arms->launch_known) {
        arms->every_thread |= exact.every_thread;
        return t;
    }
    expr_free(t);
    arm_env every = *arms;
    every.launch_known = false;
    t = launch_total(with_arms(per_thread, &every), threads, in, defs);
    arms->every_thread |= every.every_thread;
    return t;
}

/* The front end's per-thread counts -> the launch's totals, with every arm
 * weighted where the launch lets it be; sets upper_bound. Takes threads. */
static void count_totals(const kroof_input *in, const kroof_defines *defs, kroof_branches branches,
                         expr *threads, kroof *k)
{
    const kroof_counts *c = &in->counts;
    expr *per[8] = {
        clone_or_zero(c->flops[0]),
        clone_or_zero(c->flops[1]),
        clone_or_zero(c->flops[2]),
        clone_or_zero(c->flops[3]),
        expr_binary(OP_ADD, clone_or_zero(c->load_bytes), clone_or_zero(c->store_bytes)),
        expr_binary(OP_ADD, clone_or_zero(c->transcendental_fp32),
                    clone_or_zero(c->transcendental_fp64)),
        clone_or_zero(c->accesses),
        clone_or_zero(c->store_bytes)};
    /* The trip counts the launch determines are bound first, so that a
     * thread-by-thread sum of the arms can read them. */
    kroof_defines bound = {0};
    if (defs)
        bound = *defs;
    arm_env arms = {.counts = c};
    expr *every[8];
    for (int i = 0; i < 8; i++)
        every[i] = with_arms(per[i], &arms);
    /* bound borrows its names from the every[] trees: they live until
     * the totals are made. */
    bind_trips(in, every, 8, &bound);
    /* Which arm conditions can be evaluated: every name bound but the
     * thread and block indices, which the sum over threads sets. */
    arms.every_thread = false;
    arms.assumed = c->n_arms ? xcalloc((size_t)c->n_arms, sizeof *arms.assumed) : NULL;
    arms.launch_known = in->has_launch && in->dims_known;
    expr_env_init(&arms.check);
    for (int i = 0; i < bound.n; i++)
        expr_env_set(&arms.check, bound.names[i], bound.values[i]);
    for (int b = SYM_NAMED + 1; b < SYM_BUILTIN_COUNT; b++)
        expr_env_set_builtin(&arms.check, (expr_builtin)b, 0);
    expr **total[8] = {&k->flops[0], &k->flops[1],       &k->flops[2], &k->flops[3],
                       &k->bytes,    &k->transcendental, &k->accesses, &k->store_bytes};
    for (int i = 0; i < 8; i++) {
        *total[i] = arms_total(per[i], &arms, threads, in, &bound);
        if (i < 4) {
            /* The FLOPs every run does: arms that may not run left out. */
            arm_env lower = arms;
            lower.lower = true;
            k->flops_lower[i] = arms_total(per[i], &lower, threads, in, &bound);
        }
        expr_free(per[i]);
    }
    for (int i = 0; i < 8; i++)
        expr_free(every[i]);
    /* An if that is not a bounds check makes the counts an upper bound
     * only where one of its arms had to be counted for every thread. */
    k->upper_bound = !branches.others_uniform ||
                     (!branches.ifs_uniform && (arms.every_thread || c->n_unweighted_arms));
    /* The conditions counted as true for every thread (a bounds check
     * against a size with no value): the counts are upper values there,
     * and the sizes block names what they read. */
    for (int i = 0; arms.assumed && i < c->n_arms; i++)
        if (arms.assumed[i] && c->arm_conds[i]) {
            expr *cond = expr_clone(c->arm_conds[i]);
            k->assumed = k->assumed ? expr_binary(OP_LAND, k->assumed, cond) : cond;
        }
    free(arms.assumed);
}

/* What stopped the counts: the name evaluation met first, except that a
 * thread index left in a count means its sum over the threads could not
 * be taken; where an unbound loop trip count is what stopped it, that
 * loop is the reason to give, not the index (which has no value to bind). */
static char *unbound_reason(expr *const *counts, int n, const expr_env *env, const char *why)
{
    expr_builtin b;
    bool index = why && expr_builtin_from_name(why, &b) &&
                 ((b >= SYM_TID_X && b <= SYM_TID_Z) || (b >= SYM_BID_X && b <= SYM_BID_Z));
    for (int i = 0; index && i < n; i++) {
        expr_sym_ref syms[16];
        int ns = 0;
        bool overflow = false;
        if (!counts[i])
            continue;
        expr_unbound_syms(counts[i], env, syms, &ns, 16, &overflow);
        for (int j = 0; j < ns; j++) {
            int line;
            if (syms[j].builtin == SYM_NAMED && syms[j].name &&
                sscanf(syms[j].name, "trips_L%d", &line) == 1) {
                char buf[160];
                snprintf(buf, sizeof buf,
                         "the trip count of the loop at line %d, which gpulint cannot write as an "
                         "expression",
                         line);
                return xstrdup(buf);
            }
        }
    }
    return xstrdup(why ? why : "a value is unknown");
}

/* Evaluates the totals with --define and the trip counts the launch
 * determines; false (k->unbound set) when a name has no value. */
static bool evaluate(const kroof_input *in, const kroof_defines *defs, const expr *threads,
                     kroof *k)
{
    kroof_defines all = {0};
    if (defs)
        all = *defs;
    expr *counts[8] = {k->flops[0], k->flops[1],       k->flops[2], k->flops[3],
                       k->bytes,    k->transcendental, k->accesses, k->store_bytes};
    if (!k->annotated)
        bind_trips(in, counts, k->store_bytes ? 8 : 7, &all);
    expr_env env;
    expr_env_init(&env);
    for (int i = 0; i < all.n; i++)
        expr_env_set(&env, all.names[i], all.values[i]);
    k->known = true;
    const char *why = NULL;
    int64_t val;
    for (int i = 0; i < 4 && k->known; i++) {
        k->known = expr_eval(k->flops[i], &env, &val, &why) == EXPR_OK;
        k->flops_value[i] = (double)val;
    }
    if (k->known) {
        k->known = expr_eval(k->bytes, &env, &val, &why) == EXPR_OK;
        k->bytes_value = (double)val;
    }
    if (k->known && k->store_bytes && expr_eval(k->store_bytes, &env, &val, &why) == EXPR_OK) {
        k->store_bytes_known = true;
        k->store_bytes_value = (double)val;
    }
    if (k->known && expr_eval(k->transcendental, &env, &val, &why) == EXPR_OK)
        k->transcendental_value = (double)val;
    k->flops_lower_known = !k->annotated;
    for (int i = 0; i < 4 && k->flops_lower_known; i++) {
        const char *ignored_why = NULL;
        if (!k->flops_lower[i] || expr_eval(k->flops_lower[i], &env, &val, &ignored_why) != EXPR_OK)
            k->flops_lower_known = false;
        else
            k->flops_lower_value[i] = (double)val;
    }
    const char *ignored = NULL;
    if (k->accesses && expr_eval(k->accesses, &env, &val, &ignored) == EXPR_OK) {
        k->accesses_known = true;
        k->accesses_value = (double)val;
    }
    if (threads && expr_eval(threads, &env, &val, &ignored) == EXPR_OK && val > 0) {
        k->threads_known = true;
        k->threads_value = (double)val;
    }
    if (!k->known)
        k->unbound = unbound_reason(counts, 5, &env, why);
    return k->known;
}

/* The FLOPs of precision i every run does, at least; -1 where that is not
 * known (a switch's arms or a loop that may leave early counted as if they
 * all ran). An annotation states the counts. */
static double flops_floor(const kroof *k, int i)
{
    if (k->annotated)
        return k->flops_value[i];
    return k->flops_lower_known ? k->flops_lower_value[i] : -1;
}

/* The roofline bound of evaluated counts on a product: the FLOPs at each
 * precision's peak and the compulsory DRAM bytes at the peak bandwidth, the
 * larger of which no run can beat. Requested bytes bound nothing: the
 * caches serve re-reads. */
static void bound(const gpu_product *product, kroof *k)
{
    if (!product || k->per_thread) {
        k->no_product = !product;
        k->why_no_bound =
            xstrdup(!product ? "no product model (use --gpu)" : "no launch: counts are per thread");
        return;
    }
    roof_ceilings bw;
    const char *w = NULL;
    if (!roofline_ceilings(product, PREC_FP32, ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &bw, &w) ||
        bw.bandwidth.used <= 0) {
        k->why_no_bound = xstrdup(w ? w : "no bandwidth for this product");
        return;
    }
    double total = 0, t_compute = 0, t_lower = 0;
    bool lower_ok = true;
    for (int i = 0; i < 4; i++) {
        double lower = flops_floor(k, i);
        lower_ok &= lower >= 0;
        if (k->flops_value[i] <= 0 && lower <= 0)
            continue;
        roof_ceilings c;
        if (!roofline_ceilings(product, prec_ceiling[i], ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &c,
                               &w) ||
            c.flops.used <= 0) {
            k->why_no_bound = xstrdup(w ? w : "no compute ceiling for a precision in use");
            return;
        }
        t_compute += k->flops_value[i] / c.flops.used;
        /* The pipes of two precisions can work at once: the floor takes
         * the slowest alone. */
        t_lower = fmax(t_lower, lower > 0 ? lower / c.flops.used : 0);
        total += k->flops_value[i];
    }
    /* L1: its data stage returns at most one 128-byte wavefront per SM per
     * clock, so the sectors the loads request take at least sectors / 4
     * clocks (Nsight Compute's l1tex peak rates, recorded in
     * tests/data/timeprobe). Requests and shared wavefronts are left out:
     * ptxas merges neighbouring accesses into wider ones (fewer requests)
     * and keeps shared values in registers where the source reads them
     * again, and neither is modelled for shared memory. Spread evenly over
     * the SMs at the boost clock, a bound. */
    double l1_cycles = 0;
    if (k->has_traffic)
        l1_cycles = (double)k->certain_units[TRAFFIC_LOAD] / 4.0;
    if (!k->has_compulsory && (!lower_ok || t_lower <= 0) && l1_cycles <= 0) {
        sbuf s;
        sbuf_init(&s);
        sbuf_addf(&s, "no floating-point work, and the DRAM footprint is not known (%s)",
                  k->why_no_compulsory ? k->why_no_compulsory : "?");
        k->why_no_bound = sbuf_take(&s);
        return;
    }
    /* DRAM reads whole 32-byte sectors; at the end of the launch the L2
     * holds at most its capacity of what was written, the rest went to DRAM
     * during it. */
    double dram = 0;
    if (k->has_compulsory)
        dram = 32 * k->compulsory_read_sectors +
               fmax(0, k->compulsory_write - (double)product->l2_bytes);
    k->compute_time = t_compute;
    /* The floor takes each resource's lower count (docs/roofline.md, "Lower,
     * estimate, upper"): a label on one count never removes its term. */
    k->compute_time_lower = lower_ok ? t_lower : 0;
    k->memory_time = dram / bw.bandwidth.used;
    k->l1_time = l1_cycles / ((double)product->sm_count * product->boost_clock_mhz * 1e6);
    k->launch_time = launch_floor(product);
    k->min_time =
        fmax(fmax(fmax(k->compute_time_lower, k->memory_time), k->l1_time), k->launch_time);
    if (k->min_time <= 0) {
        k->why_no_bound =
            xstrdup(!lower_ok ? "the FLOPs every run does are not known and no byte must reach "
                                "DRAM"
                              : "no FLOPs and no byte that must reach DRAM");
        return;
    }
    k->has_bound = true;
    k->memory_bound = k->has_compulsory && k->memory_time >= k->compute_time;
    k->l1_bound = k->l1_time > fmax(k->memory_time, k->upper_bound ? 0 : k->compute_time);
    double moved = 32 * k->compulsory_read_sectors + k->compulsory_write;
    k->ai = !k->has_compulsory ? NAN : moved > 0 ? total / moved : INFINITY;
    k->attainable = k->min_time > 0 ? total / k->min_time : 0;
}

/* Counts not all known still bound the time by those that are: the
 * compulsory DRAM bytes, L1's certain load sectors and the FLOPs every run
 * does, each a lower count (docs/roofline.md, "Lower, estimate, upper").
 * A floor with no estimate beside it. */
static void floor_from_known(const gpu_product *product, kroof *k)
{
    roof_ceilings bw;
    const char *w = NULL;
    if (!product || k->per_thread ||
        !roofline_ceilings(product, PREC_FP32, ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &bw, &w) ||
        bw.bandwidth.used <= 0)
        return;
    double t_lower = 0;
    for (int i = 0; i < 4 && !k->annotated; i++) {
        double lower = flops_floor(k, i);
        roof_ceilings c;
        if (lower > 0 &&
            roofline_ceilings(product, prec_ceiling[i], ROOF_CLOCK_BOOST, ROOF_PREFER_AUTO, &c,
                              &w) &&
            c.flops.used > 0)
            t_lower = fmax(t_lower, lower / c.flops.used);
    }
    double dram = k->has_compulsory ? 32 * k->compulsory_read_sectors +
                                          fmax(0, k->compulsory_write - (double)product->l2_bytes)
                                    : 0;
    double l1_cycles = k->has_traffic ? (double)k->certain_units[TRAFFIC_LOAD] / 4.0 : 0;
    k->compute_time_lower = t_lower;
    k->memory_time = dram / bw.bandwidth.used;
    k->l1_time = l1_cycles / ((double)product->sm_count * product->boost_clock_mhz * 1e6);
    k->launch_time = launch_floor(product);
    k->min_time = fmax(fmax(fmax(t_lower, k->memory_time), k->l1_time), k->launch_time);
    k->floor_only = k->min_time > 0;
}

/* Of a struct's k pieces' store sectors, those L1 merges before L2:
 * stored back to back, a warp's pieces write the same sectors in part,
 * and L2 takes l1_store_merge[k - 1] sectors for each one the struct
 * fills, not k (scripts/timeprobe/fillprobe.cu: a copy of k-word structs,
 * lts__t_sectors_op_write against the copy of whole words). */
static double merged_store_sectors(const traffic *t, const gpu_product *product)
{
    double merged = 0;
    for (int pieces = 2; product && pieces <= TRAFFIC_MAX_PIECES; pieces++)
        if (pieces <= product->n_store_merge && t->piece_store_units[pieces] > 0)
            merged += (double)t->piece_store_units[pieces] *
                      (1 - product->l1_store_merge[pieces - 1] / pieces);
    return merged;
}

/* Every store sector (L1 writes through). An atomic's sectors go to L2
 * with its request, as a store's do; its rate there is taken as a
 * write's (not probed apart). */
static void l2_writes(const traffic *t, const gpu_product *product, kroof *k)
{
    k->l2_write_sectors = (double)t->units[TRAFFIC_STORE] + (double)t->units[TRAFFIC_ATOMIC] -
                          merged_store_sectors(t, product);
    k->l2_partial_write_sectors = (double)t->partial_store_units;
    k->l2_shared_partial_write_sectors = (double)t->shared_partial_store_units;
}

/* The sectors L2 serves when each block reads per_block of them: at most
 * the load sectors L1 is asked for, at least the compulsory reads DRAM
 * must supply (where those are no more than L1's). */
static double l2_reads(const kroof_input *in, const kroof *k, double per_block)
{
    double blocks = (double)in->grid[0] * (double)in->grid[1] * (double)in->grid[2];
    double loads = (double)in->traffic->units[TRAFFIC_LOAD];
    double floor = k->has_compulsory ? k->compulsory_read_sectors : 0;
    return fmax(fmin(blocks * per_block, loads), fmin(floor, loads));
}

/* L1 is write-through for global stores, so every store sector goes to
 * L2. A load sector reaches L2 when L1 does not hold it: taken here as once
 * per block for each sector the block covers (the block's warps run
 * together and L1 keeps what they share), and again where a later loop
 * reads what an earlier one swept out of L1 (analysis/memory/l1reuse), never more
 * often than L1 is asked for it and never less often than DRAM must supply
 * it. Reuse between the blocks of an SM and other lines L1 evicts before
 * their reuse are not modelled: an estimate. */
static void l2_estimate(const kroof_input *in, const gpu_product *product, kroof *k)
{
    double blocks = (double)in->grid[0] * (double)in->grid[1] * (double)in->grid[2];
    k->has_l2 = true;
    k->l2_read_sectors =
        l2_reads(in, k, (double)in->block_read_sectors + (double)in->block_reread_sectors);
    l2_writes(in->traffic, product, k);
    /* The re-reads as they count: what the reads hold past once per block
     * (the cap at the sectors L1 is asked for may cut them). */
    double again = fmin(blocks * (double)in->block_reread_sectors,
                        k->l2_read_sectors - blocks * (double)in->block_read_sectors);
    if (again > 0 && in->block_reread_why) {
        k->l2_reread_sectors = again;
        k->l2_reread_why = xstrdup(in->block_reread_why);
    }
}

/* Where a site's addresses cannot be followed (an index read from memory,
 * a gather) the block's footprint is not known; the block's reads are
 * taken as the DRAM estimate places such a site, once per block, no more
 * than the load sectors L1 is asked for. The writes are every store
 * sector, as above. lulesh's integrateStress and hgc (HeCBench, fitting
 * half) gather their nodes and store 8 bytes in each of 32 sectors a
 * request: L2, not DRAM, is then what they wait on. */
static void l2_unfollowed(const kroof_input *in, const gpu_product *product, kroof *k)
{
    k->has_l2 = true;
    k->l2_reads_unfollowed = true;
    k->l2_read_sectors = l2_reads(in, k, (double)in->block_cover_sectors);
    l2_writes(in->traffic, product, k);
}

/* Of the sectors L2 serves beyond a first read, the share a working set
 * larger than L2 brings from DRAM again: 1 - L2 / what the launch reads. */
static double capacity_rereads(double sectors_beyond, double bytes_read, double l2)
{
    if (!(bytes_read > l2 && l2 > 0))
        return 0;
    return 32 * fmax(0, sectors_beyond) * (1 - l2 / bytes_read);
}

/* A halo a block shares with its neighbour along dimension d is read
 * again by that neighbour after the blocks launched between them (1 along
 * x, a row of blocks along y, a plane along z) have read their own bytes:
 * the reuse distance. It comes from DRAM again with the chance that L2
 * let it go in between, 1 - L2 / distance, as capacity_rereads takes it
 * with the whole footprint as the distance (no fitted constant). Sets
 * k->halo_l2_sectors, the L2 re-reads so placed; returns the DRAM bytes. */
static double halo_rereads(const kroof_input *in, kroof *k, double bytes_read, double l2)
{
    double blocks = (double)in->grid[0] * (double)in->grid[1] * (double)in->grid[2];
    double beyond = fmin(k->l2_read_sectors, blocks * (double)in->block_read_sectors) -
                    (double)in->estimate_read_sectors - (double)in->share_l2_rereads;
    double per_block = blocks > 0 ? bytes_read / blocks : 0, stride = 1, dram = 0;
    for (int d = 0; d < 3 && beyond > 0 && l2 > 0; stride *= (double)in->grid[d], d++) {
        double pairs = blocks * (double)(in->grid[d] - 1) / (double)in->grid[d];
        double sectors = fmin(beyond, (double)in->halo_sectors[d] * pairs);
        double distance = stride * per_block;
        if (sectors <= 0)
            continue;
        beyond -= sectors;
        k->halo_l2_sectors += sectors;
        if (distance > l2)
            dram += 32 * sectors * (1 - l2 / distance);
    }
    return dram;
}

/* A sector stored in part that L2 does not hold: L2 brings the rest of
 * it from DRAM, 32 bytes, except in about l2_partial_lines_retained
 * lines it keeps such sectors in, and writes the sector back
 * (scripts/timeprobe/coldpartial.cu, caches flushed: 97% of 8.4 M such
 * sectors read back over 256 MiB, 66% of 0.5 M over 16 MiB, none of 5,243
 * lines). The writes are then at least those sectors, whatever the L2
 * keeps of whole ones. */
static void partial_fill(const kroof_input *in, const gpu_product *product, kroof *k)
{
    double lines = (double)in->estimate_partial_write_lines;
    double kept = product->l2_partial_lines_retained;
    if (kept <= 0 || lines <= kept)
        return;
    double fill = 32.0 * (double)in->estimate_partial_write_sectors * (1 - kept / lines);
    k->dram_estimate_partial_fill = fill;
    k->dram_estimate_read += fill;
    k->dram_estimate_write = fmax(k->dram_estimate_write, fill);
}

/* DRAM fetches 64 bytes for a lone 32-byte sector (a gather every 64 bytes
 * or more reads 64 bytes a load: scripts/timeprobe/dramprobe.cu). Panels
 * that blocks share come again as analysis/memory/l2share counts them (which
 * blocks read them at about the same time). Other sectors L2 serves again
 * (the L2 estimate's reads past the footprint) come from DRAM again once
 * the data read outgrows the L2: each with the chance that it was evicted,
 * 1 - L2 / footprint, as under random replacement with reuse spread over
 * the footprint (no fitted constant; reuse close in time hits more often,
 * so this errs high where reuse is close). Writes reach DRAM a
 * dirty 32-byte sector at a time, and only once the L2 lets them go: at
 * the end of a launch it still holds about l2_write_retained_bytes of them
 * (the same probe's copies), written back after the launch. */
static void dram_estimate(const kroof_input *in, const gpu_product *product, kroof *k)
{
    if (!in->has_footprint || !product)
        return;
    k->has_dram_estimate = true;
    k->dram_estimate_low = in->estimate_missed;
    k->dram_estimate_covered = xstrdup_null(in->estimate_covered);
    k->dram_estimate_why = xstrdup_null(in->estimate_why);
    double bytes_read = (double)in->estimate_read, l2 = (double)product->l2_bytes;
    double halo = k->has_l2 ? halo_rereads(in, k, bytes_read, l2) : 0;
    double past = k->l2_read_sectors - (double)in->estimate_read_sectors - k->halo_l2_sectors;
    if (k->has_l2)
        k->dram_estimate_rereads = halo + capacity_rereads(past, bytes_read, l2);
    if (in->n_share > 0 && k->has_l2) {
        k->share_rereads_without =
            halo + capacity_rereads(past - (double)in->share_l2_rereads, bytes_read, l2);
        k->share_read_without =
            64.0 * (double)in->estimate_read_blocks64 + k->share_rereads_without;
        k->n_share = in->n_share;
        k->share = xmalloc(in->n_share * sizeof *k->share);
        memcpy(k->share, in->share, in->n_share * sizeof *k->share);
        k->share_names = xcalloc(in->n_share, sizeof *k->share_names);
        for (size_t i = 0; i < in->n_share; i++)
            k->share_names[i] = xstrdup(in->share_names[i]);
    }
    k->dram_estimate_read = 64.0 * (double)in->estimate_read_blocks64 + k->dram_estimate_rereads;
    k->dram_estimate_write =
        fmax(0, 32.0 * (double)in->estimate_write_sectors - product->l2_write_retained_bytes);
    partial_fill(in, product, k);
    if (k->estimate_from_requested) {
        k->dram_estimate_low = false;
        k->dram_estimate_read = 32 * k->time_read_sectors;
        k->dram_estimate_write = fmax(0, k->time_write - product->l2_write_retained_bytes);
    }
}

/* Where no global site's footprint could be followed, the footprint is
 * 0 bytes, a lower bound and no estimate: an estimate of 0 would drop the
 * DRAM term from the predicted time. Where no global site's lanes could
 * be walked either (every index holds a value with no number: a stride
 * read at run time), the bytes the threads request, each read or written
 * once, are the estimate: no reuse between threads, every load in whole
 * sectors. Sites whose lanes were walked but whose union is no box are
 * windows and triangles that overlap, threads re-reading each other's
 * bytes: the bytes they request are no estimate of DRAM's, and there is
 * none. Counts that may miss code give none either. */
static void requested_estimate(const kroof_input *in, kroof *k)
{
    const traffic *t = in->traffic;
    if (!k->compulsory_why || in->estimate_sites == 0 ||
        in->estimate_left_out < in->estimate_sites || !k->known || !k->store_bytes_known ||
        in->incomplete || k->annotated ||
        (t &&
         t->requests[TRAFFIC_LOAD] + t->requests[TRAFFIC_STORE] + t->requests[TRAFFIC_ATOMIC] > 0))
        return;
    double store = k->store_bytes_value, load = fmax(0, k->bytes_value - store);
    if (load + store <= 0)
        return;
    k->estimate_from_requested = true;
    k->time_read_sectors = fmax(k->time_read_sectors, ceil(load / 32));
    k->time_write = fmax(k->time_write, store);
}

void kroof_compute(const kroof_input *in, const kroof_defines *defs, const gpu_product *product,
                   kroof_branches branches, kroof *k)
{
    memset(k, 0, sizeof *k);
    k->kernel = in->kernel;
    k->file = in->file;
    k->line = in->line;
    expr *threads = in->has_launch ? expr_clone(in->threads) : NULL;
    k->per_thread = threads == NULL;
    k->upper_bound = !branches.ifs_uniform || !branches.others_uniform;
    if (in->annotated_flops && in->annotated_bytes) {
        /* An annotation states the whole kernel's counts, not per thread. */
        k->annotated = true;
        k->per_thread = false;
        k->upper_bound = false;
        k->flops[1] = expr_clone(in->annotated_flops);
        for (int i = 0; i < 4; i++)
            if (i != 1)
                k->flops[i] = expr_const(0);
        k->bytes = expr_clone(in->annotated_bytes);
        k->transcendental = expr_const(0);
        expr_free(threads);
        threads = NULL;
    } else {
        count_totals(in, defs, branches, threads, k);
    }
    bool known = evaluate(in, defs, threads, k);
    expr_free(threads);
    k->has_compulsory = in->has_footprint;
    if (in->has_footprint) {
        k->compulsory_read = (double)in->footprint_read;
        k->compulsory_write = (double)in->footprint_write;
        k->compulsory_read_sectors = (double)in->footprint_read_sectors;
        k->compulsory_why = xstrdup_null(in->footprint_why);
        /* A lower bound never sets the estimate: the time takes the
         * footprint with every site the estimate counts. */
        k->time_read_sectors = k->compulsory_read_sectors;
        k->time_write = k->compulsory_write;
        if (k->compulsory_why) {
            k->time_read_sectors = fmax(k->time_read_sectors, (double)in->estimate_read_sectors);
            k->time_write = fmax(k->time_write, (double)in->estimate_write);
        }
        requested_estimate(in, k);
    } else {
        k->why_no_compulsory =
            xstrdup(in->why_no_footprint ? in->why_no_footprint : "the launch's size is not known");
    }
    if (in->traffic) {
        k->has_traffic = true;
        for (int i = 0; i < TRAFFIC_KINDS; i++) {
            k->requests[i] = in->traffic->requests[i];
            k->units[i] = in->traffic->units[i];
            k->lines[i] = in->traffic->lines[i];
            k->run_sectors[i] = in->traffic->run_sectors[i];
            k->wavefronts[i] = in->traffic->wavefronts[i];
            k->busiest_requests[i] = in->traffic->busiest_requests[i];
            k->certain_requests[i] = in->traffic->certain_requests[i];
            k->certain_units[i] = in->traffic->certain_units[i];
        }
        k->one_address_atomics = in->traffic->one_address_atomics;
        k->one_address_float_atomics = in->traffic->one_address_float_atomics;
        k->traffic_why = xstrdup_null(in->traffic->why);
        k->traffic_estimated = in->traffic->n_estimated > 0;
        /* Code the front end could not read may access memory too. */
        if (!k->traffic_why && in->incomplete && !k->annotated)
            k->traffic_why = xstrdup(in->incomplete);
        if (!k->traffic_why && in->shared_missing)
            k->traffic_why = xstrdup(in->shared_missing);
    }
    /* A site left out of the L1 sums would be missing here too. */
    bool l2_sums = in->traffic && in->traffic->n_left_out == 0 && in->dims_known;
    if (l2_sums && in->has_block_footprint)
        l2_estimate(in, product, k);
    if (in->flops_estimate && !k->annotated)
        k->flops_estimate = xstrdup(in->flops_estimate);
    /* A switch's arms are counted for every thread, and a loop that may
     * leave early for all its trips: then no count is known to be a lower
     * one. */
    bool leaves = false;
    for (size_t i = 0; i < in->n_loops; i++)
        leaves |= in->loops[i]->leaves_early;
    k->trips_at_most = in->counts.n_trips_at_most > 0 && !k->annotated;
    if (!branches.others_uniform || leaves || k->trips_at_most)
        k->flops_lower_known = false;
    if (in->incomplete && !k->annotated) {
        /* Counts that may miss code are lower bounds: the floor still
         * holds (from the lower counts), an estimate would not. */
        k->incomplete = xstrdup(in->incomplete);
        k->also_over = k->upper_bound || k->assumed; /* missed code and over-counted arms */
        k->upper_bound = false;
    } else {
        dram_estimate(in, product, k);
    }
    /* After the DRAM estimate, which must not take these reads as ones
     * L2 could serve again from DRAM. */
    if (l2_sums && !in->has_block_footprint && in->has_block_cover)
        l2_unfollowed(in, product, k);
    if (known)
        bound(product, k);
    else
        floor_from_known(product, k);
}

void kroof_free(kroof *k)
{
    for (int i = 0; i < 4; i++) {
        expr_free(k->flops[i]);
        expr_free(k->flops_lower[i]);
    }
    expr_free(k->transcendental);
    expr_free(k->bytes);
    expr_free(k->store_bytes);
    expr_free(k->accesses);
    expr_free(k->assumed);
    free(k->unbound);
    free(k->why_no_bound);
    free(k->dram_estimate_covered);
    free(k->dram_estimate_why);
    free(k->incomplete);
    free(k->flops_estimate);
    free(k->issue_sites);
    free(k->compulsory_why);
    free(k->why_no_compulsory);
    free(k->traffic_why);
    free(k->l2_reread_why);
    for (size_t i = 0; i < k->n_share; i++)
        free(k->share_names[i]);
    free(k->share_names);
    free(k->share);
    loadlat_free(&k->lat);
    memset(k, 0, sizeof *k);
}

double kroof_total_flops(const kroof *k)
{
    return k->flops_value[0] + k->flops_value[1] + k->flops_value[2] + k->flops_value[3];
}
