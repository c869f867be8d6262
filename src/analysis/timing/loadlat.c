/* loadlat: the phases of a launch's global loads (see loadlat.h). */
#include "analysis/timing/loadlat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/affbox.h"
#include "analysis/symbolic/exprpoly.h"
#include "analysis/memory/footprint.h"
#include "util/sbuf.h"

/* Sites in the same innermost loop (or both outside loops, in the same
 * helper call) run in the same body. */
static bool same_body(const mem_access *a, const mem_access *b)
{
    if (a->n_loops != b->n_loops)
        return false;
    if ((a->via == NULL) != (b->via == NULL) || (a->via && strcmp(a->via, b->via) != 0))
        return false;
    if (a->n_loops == 0)
        return true;
    return loop_same(&a->loops[a->n_loops - 1], &b->loops[b->n_loops - 1]);
}

/* The sectors of one site alone: over the grid, over one interior block
 * and over each warp of that block, summed (-1 when a warp is not a row of
 * the block). False when the footprint cannot follow it. cover: a site under
 * a condition on data (or on two indices at once) counted by its box, as
 * the estimates count it. */
static bool site_sectors(const mem_access *a, const int64_t grid[3], const int64_t block[3],
                         const expr_env *env, bool cover, int64_t out[3], char *why,
                         size_t why_size)
{
    footprint_site s = {.access = a, .array = a->base ? a->base : "?"};
    footprint fp[3] = {{0}};
    int64_t mid[3] = {grid[0] / 2, grid[1] / 2, grid[2] / 2};
    if (cover)
        footprint_cover(&s, 1, grid, block, env, &fp[0]);
    else
        footprint_compute(&s, 1, grid, block, env, &fp[0]);
    footprint_of_block(&s, 1, grid, block, env, mid, cover, &fp[1]);
    bool ok = true;
    for (int i = 0; i < 2; i++) {
        if (ok && (fp[i].n_left_out > 0 || fp[i].n_partial > 0)) {
            ok = false;
            snprintf(why, why_size, "%s", fp[i].why ? fp[i].why : "its footprint is partial");
        }
        out[i] = fp[i].read_sectors;
        footprint_free(&fp[i]);
    }
    /* Every warp of the block, not the first alone: a warp a condition on
     * the thread index keeps out (`if (threadIdx.x >= 256)`) asks for
     * nothing, the others for their whole loop. Where a later warp's
     * indices cannot be followed, each warp is taken as the first, or,
     * where the first asks for nothing, the block's sectors as new to
     * one warp each (-1). */
    out[2] = -1;
    if (!ok || block[0] % 32 != 0)
        return ok;
    int64_t warps = block[0] / 32 * block[1] * block[2], first = 0, sum = 0;
    for (int64_t w = 0; w < warps && sum >= 0; w++) {
        footprint one;
        footprint_of_warp(&s, 1, grid, block, env, mid, (int)w, cover, &one);
        if (one.n_left_out > 0 || one.n_partial > 0) {
            if (w == 0) {
                ok = false;
                snprintf(why, why_size, "%s", one.why ? one.why : "its footprint is partial");
            }
            sum = -1;
        } else {
            first = w == 0 ? one.read_sectors : first;
            sum += one.read_sectors;
        }
        footprint_free(&one);
    }
    if (ok)
        out[2] = sum >= 0 ? sum : first > 0 ? first * warps : -1;
    return ok;
}

/* Names the site's index, guard and loop bounds read that env does not
 * bind and that are no loop counter of its own: kernel parameters a
 * launch passes from host code gpulint cannot evaluate. */
enum { MAX_UNKNOWNS = 4 };

static bool is_counter(const mem_access *a, const char *name)
{
    for (int i = 0; i < a->n_loops; i++)
        if (a->loops[i].var && strcmp(a->loops[i].var, name) == 0)
            return true;
    return false;
}

/* The names a site reads that no launch binds, its loop counters aside. */
static void unknowns_in(const expr *e, const mem_access *a, const expr_env *env,
                        expr_sym_ref out[MAX_UNKNOWNS], int *n, bool *overflow)
{
    /* Room for the loop counters too, which are set aside below. */
    expr_sym_ref found[MAX_UNKNOWNS + ACCESS_MAX_LOOPS];
    int k = 0;
    expr_unbound_syms(e, env, found, &k, MAX_UNKNOWNS + ACCESS_MAX_LOOPS, overflow);
    for (int i = 0; i < k; i++) {
        if (found[i].builtin != SYM_NAMED || is_counter(a, found[i].name))
            continue;
        bool seen = false;
        for (int j = 0; j < *n; j++)
            seen = seen || strcmp(out[j].name, found[i].name) == 0;
        if (seen)
            continue;
        if (*n == MAX_UNKNOWNS)
            *overflow = true;
        else
            out[(*n)++] = found[i];
    }
}

/* site_sectors where the site reads names no launch binds: run again with
 * each of them bound to the values analysis/symbolic/lanes probes with, and take the
 * counts where every run agrees (they do not depend on those names, as a
 * base offset of a multiple of the sector does not). */
static bool probed_sectors(const mem_access *a, const int64_t grid[3], const int64_t block[3],
                           const expr_env *env, bool cover, int64_t out[3], char *why,
                           size_t why_size)
{
    expr_sym_ref names[MAX_UNKNOWNS];
    int n = 0;
    bool overflow = false;
    unknowns_in(a->byte_offset, a, env, names, &n, &overflow);
    unknowns_in(a->guard, a, env, names, &n, &overflow);
    for (int i = 0; i < a->n_loops; i++) {
        unknowns_in(a->loops[i].init, a, env, names, &n, &overflow);
        unknowns_in(a->loops[i].cond, a, env, names, &n, &overflow);
        unknowns_in(a->loops[i].next, a, env, names, &n, &overflow);
    }
    if (n == 0 || overflow)
        return false;
    for (size_t p = 0; p < EXPR_N_PROBES; p++) {
        expr_env bound = *env;
        for (int i = 0; i < n; i++)
            if (!expr_env_set(&bound, names[i].name, expr_probe_values[p]))
                return false;
        int64_t got[3];
        if (!site_sectors(a, grid, block, &bound, cover, got, why, why_size))
            return false;
        if (p > 0 && memcmp(got, out, sizeof got) != 0) {
            snprintf(why, why_size,
                     "%s (line %d): its footprint depends on '%s', whose value "
                     "is not known",
                     a->text ? a->text : "?", a->loc.line, names[0].name);
            return false;
        }
        memcpy(out, got, sizeof got);
    }
    return true;
}

/* The iterations of a's loops down to its innermost barrier loop, 0 when
 * there is none or one of them cannot be counted; *stored: the block
 * stores to a's array inside that loop. */
static double lockstep_of(const mem_access *a, const mem_access *const *sites, size_t n,
                          const expr_env *env, bool *stored)
{
    *stored = false;
    int b = -1;
    for (int i = 0; i < a->n_loops; i++)
        if (a->loops[i].barrier)
            b = i;
    if (b < 0)
        return 0;
    double iterations = 1;
    for (int i = 0; i <= b; i++) {
        int64_t trips = affbox_loop_trips(&a->loops[i], env, INT64_C(1) << 40);
        if (trips <= 0)
            return 0;
        iterations *= trips;
    }
    for (size_t i = 0; i < n && !*stored; i++) {
        const mem_access *s = sites[i];
        if (!s->is_store || s->space != SPACE_GLOBAL || !s->base || !a->base ||
            strcmp(s->base, a->base) != 0 || s->n_loops <= b)
            continue;
        *stored = loop_same(&s->loops[b], &a->loops[b]);
    }
    return iterations;
}

static double clamp01(double x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* Whether s runs before a, all of it: an earlier statement in no loop
 * that a is in too (a loop around both would run s's later iterations
 * after a). */
static bool wholly_before(const mem_access *s, const mem_access *a)
{
    if (s->stmt >= a->stmt || s->space != SPACE_GLOBAL || !s->base || !a->base ||
        strcmp(s->base, a->base) != 0)
        return false;
    if (s->n_loops == 0 || a->n_loops == 0)
        return true;
    return !loop_same(&s->loops[0], &a->loops[0]);
}

/* Whether store s writes where every load of its array in its body reads,
 * the same iteration's element (`x[i] += 1`), in a loop whose step is a
 * constant and moves it by whole elements: ptxas then tells the unrolled
 * copies' addresses apart (one base register, offsets a constant apart)
 * and issues the later copies' loads before the earlier copies' stores.
 * scripts/timeprobe/warpguard.cu's wg_lower on an H200: 16 LDGs, then the
 * FADDs and STGs, 32 us for the block-stride loop that wg_upper, whose
 * runtime stride nvcc does not unroll, takes 161 us for
 * (tests/data/timeprobe/h200/warpguard). */
static bool in_place(const mem_access *s, const mem_access *const *sites, size_t n)
{
    /* A step the compiler knows: copies a runtime stride apart (a
     * grid-stride loop's) may be the same address, for all ptxas can tell. */
    const loop_ctx *loop = &s->loops[s->n_loops - 1];
    int64_t step;
    if (!loop->var || !loop->next)
        return false;
    expr *counter = expr_named(loop->var);
    bool known = exprpoly_const_difference(loop->next, counter, &step) && step != 0;
    expr_free(counter);
    if (!known)
        return false;
    /* Each iteration a new element, a whole one past the last: an element
     * every iteration reads and writes (`acc[o] += ...` in a k loop) is
     * the next iteration's load, which waits for the store. */
    int64_t moved;
    expr *next = s->byte_offset ? expr_shift_name(s->byte_offset, loop->var, step) : NULL;
    bool apart = next && exprpoly_const_difference(next, s->byte_offset, &moved) &&
                 (moved >= s->width || moved <= -s->width);
    expr_free(next);
    if (!apart)
        return false;
    bool loaded = false;
    for (size_t i = 0; i < n; i++) {
        const mem_access *l = sites[i];
        if (l->is_store || l->space != SPACE_GLOBAL || !same_body(l, s) || !l->base ||
            strcmp(l->base, s->base) != 0)
            continue;
        int64_t d;
        if (!l->byte_offset || !exprpoly_const_difference(s->byte_offset, l->byte_offset, &d) ||
            d != 0 || l->width != s->width)
            return false;
        loaded = true;
    }
    return loaded;
}

/* loadlat_load.free_body: nothing in a's innermost loop body holds a later
 * iteration's loads back (a global store, which may alias them, unless it
 * writes a's array in place; a barrier). */
static bool free_body_of(const mem_access *a, const mem_access *const *sites, size_t n)
{
    if (a->n_loops == 0 || a->loops[a->n_loops - 1].barrier)
        return false;
    for (size_t i = 0; i < n; i++) {
        const mem_access *s = sites[i];
        if (!s->is_store || s->space != SPACE_GLOBAL || !same_body(s, a))
            continue;
        if (!s->base || !a->base || strcmp(s->base, a->base) != 0 || !in_place(s, sites, n))
            return false;
    }
    return true;
}

/* loadlat_load.together: a free body's loop that nvcc unrolls in full (its
 * trips known without the launch's names, at most LOADLAT_UNROLLED): the
 * iterations' loads are issued together. */
static double together_of(const mem_access *a, bool free_body)
{
    if (!free_body)
        return 1;
    int64_t trips = affbox_loop_trips(&a->loops[a->n_loops - 1], NULL, LOADLAT_UNROLLED + 1);
    return trips < 2 || trips > LOADLAT_UNROLLED ? 1 : (double)trips;
}

/* loadlat_load.seen_share: of the bytes a's block reads through a, the
 * share the same block touched in statements wholly before it, from the
 * footprints of one interior block (|A n B| = |A| + |B| - |A u B|); where
 * a footprint cannot be followed, from the boxes around the sites (an
 * estimate, as the counts take a guard on data: passing), else 0. At most
 * MAX_BEFORE earlier sites, the nearest. */
enum { MAX_BEFORE = 16 };

static bool overlap_share(footprint_site *s, size_t k, const int64_t grid[3],
                          const int64_t block[3], const expr_env *env, bool cover, double *share)
{
    int64_t mid[3] = {grid[0] / 2, grid[1] / 2, grid[2] / 2};
    footprint before = {0}, both = {0}, alone = {0};
    footprint_of_block(s, k, grid, block, env, mid, cover, &before);
    footprint_of_block(s, k + 1, grid, block, env, mid, cover, &both);
    footprint_of_block(&s[k], 1, grid, block, env, mid, cover, &alone);
    bool ok = before.n_left_out == 0 && before.n_partial == 0 && both.n_left_out == 0 &&
              both.n_partial == 0 && alone.n_left_out == 0 && alone.n_partial == 0 &&
              alone.bytes > 0;
    if (ok)
        *share = clamp01((double)(before.bytes + alone.bytes - both.bytes) / (double)alone.bytes);
    footprint_free(&before);
    footprint_free(&both);
    footprint_free(&alone);
    return ok;
}

static double seen_share(const mem_access *a, const mem_access *const *sites, size_t n,
                         const int64_t grid[3], const int64_t block[3], const expr_env *env)
{
    footprint_site s[MAX_BEFORE + 1];
    size_t k = 0;
    for (size_t i = n; i-- > 0 && k < MAX_BEFORE;)
        if (wholly_before(sites[i], a))
            s[k++] = (footprint_site){.access = sites[i], .array = a->base};
    if (k == 0)
        return 0;
    s[k] = (footprint_site){.access = a, .array = a->base};
    double share = 0;
    if (!overlap_share(s, k, grid, block, env, false, &share))
        overlap_share(s, k, grid, block, env, true, &share);
    return share;
}

/* A loop that may leave early (a search's `break`) taken as running in
 * full, as the request counts take it: which loads go out together does
 * not depend on when the loop ends, and the sectors of the full run are
 * the estimate of where their data come from. */
static bool full_run_sectors(const mem_access *a, const int64_t grid[3], const int64_t block[3],
                             const expr_env *env, bool cover, int64_t out[3])
{
    mem_access full = *a;
    bool leaves = false;
    for (int i = 0; i < full.n_loops; i++) {
        leaves |= full.loops[i].leaves_early;
        full.loops[i].leaves_early = false;
    }
    char why[128];
    return leaves && (site_sectors(&full, grid, block, env, cover, out, why, sizeof why) ||
                      probed_sectors(&full, grid, block, env, cover, out, why, sizeof why));
}

/* The sectors the three ways above find, the first that follows the
 * site; cover: each by the box around it (the estimate's count of a
 * site under a condition on data: a warp waits on the loads the counts
 * take it to make). */
static bool placed_sectors(const mem_access *a, const int64_t grid[3], const int64_t block[3],
                           const expr_env *env, bool cover, int64_t out[3], char *why,
                           size_t why_size)
{
    char scratch[128];
    if (!why) {
        why = scratch;
        why_size = sizeof scratch;
    }
    return site_sectors(a, grid, block, env, cover, out, why, why_size) ||
           probed_sectors(a, grid, block, env, cover, out, why, why_size) ||
           full_run_sectors(a, grid, block, env, cover, out);
}

/* Whether e holds a value read by the load whose text is `text`. */
static bool reads_value_of(const expr *e, const char *text)
{
    if (!e || !text)
        return false;
    size_t n;
    const char *read = access_read_text(e, &n);
    if (read)
        return strlen(text) == n && strncmp(read, text, n) == 0;
    return reads_value_of(e->a, text) || reads_value_of(e->b, text) || reads_value_of(e->c, text) ||
           reads_value_of(e->d, text);
}

/* Whether gather sites[i]'s address waits on the data of a load of the
 * same body's current phase (an earlier site whose phase_of is `phase`):
 * an index read from memory (`t = target[i]; input[i * kdim + t]`,
 * lulesh's `x[elemToNode[0]]`) cannot go out until that load's data are
 * back, so it opens the next phase. */
static bool waits_on_phase(const mem_access *const *sites, size_t i, const int *phase_of, int phase)
{
    const mem_access *a = sites[i];
    if (!a->index_from_data)
        return false;
    for (size_t j = 0; j < i; j++)
        if (phase_of[j] == phase && same_body(sites[j], a) &&
            reads_value_of(a->byte_offset, sites[j]->text))
            return true;
    return false;
}

/* Phase numbers: a load opens a new phase in its body when it is the
 * body's first, when a store of an earlier statement came since the
 * body's last phase began, or when its index waits on a load of the
 * phase (waits_on_phase). */
static void number_phases(const mem_access *const *sites, size_t n, loadlat *out)
{
    typedef struct body {
        const mem_access *first;
        int phase;
        long store_stmt; /* a store since the phase began; -1: none */
    } body;
    body *bodies = xcalloc(n ? n : 1, sizeof *bodies);
    int *phase_of = xcalloc(n ? n : 1, sizeof *phase_of);
    size_t n_bodies = 0, k = 0;
    for (size_t i = 0; i < n; i++) {
        const mem_access *a = sites[i];
        phase_of[i] = -1;
        if (a->space != SPACE_GLOBAL)
            continue;
        size_t b = 0;
        while (b < n_bodies && !same_body(bodies[b].first, a))
            b++;
        if (b == n_bodies)
            bodies[n_bodies++] = (body){.first = a, .phase = -1, .store_stmt = -1};
        if (a->is_store) {
            if (bodies[b].store_stmt < 0)
                bodies[b].store_stmt = a->stmt;
            continue;
        }
        if (bodies[b].phase < 0 || (bodies[b].store_stmt >= 0 && bodies[b].store_stmt < a->stmt) ||
            waits_on_phase(sites, i, phase_of, bodies[b].phase)) {
            bodies[b].phase = out->n_phases++;
            bodies[b].store_stmt = -1;
        }
        phase_of[i] = bodies[b].phase;
        out->loads[k++].phase = bodies[b].phase;
    }
    free(phase_of);
    free(bodies);
}

/* A load's requests over the grid (t) and its sectors (placed_sectors's
 * three); a gather (access.h) as the estimates place it. False, with why,
 * where it cannot be placed. */
static bool load_placed(const mem_access *a, traffic_memo *memo, const int64_t grid[3],
                        const int64_t block[3], const expr_env *env, traffic_site_total *t,
                        int64_t sectors[3], char *why, size_t why_size)
{
    mem_access g;
    bool gathered = access_gather_estimate(a, &g);
    const mem_access *s = gathered ? &g : a;
    char walk[128] = "";
    bool ok = !s->why_not &&
              (gathered ? traffic_site(s, block, env, grid, t, walk, sizeof walk)
                        : traffic_site_memo(memo, a, block, env, grid, t, walk, sizeof walk));
    if (!ok)
        snprintf(why, why_size, "%s (line %d): %s", a->text ? a->text : "?", a->loc.line,
                 s->why_not ? s->why_not : walk);
    else if (!placed_sectors(s, grid, block, env, false, sectors, why, why_size) &&
             !placed_sectors(s, grid, block, env, true, sectors, NULL, 0))
        ok = false;
    if (gathered)
        access_bound_free(&g);
    return ok;
}

void loadlat_compute(const mem_access *const *sites, size_t n, const int64_t grid[3],
                     const int64_t block[3], const expr_env *env, traffic_memo *memo, loadlat *out)
{
    memset(out, 0, sizeof *out);
    /* Bound as traffic_compute binds them, so that its memo serves. */
    expr_env local;
    expr_env_bind_launch(&local, env, grid, block);
    env = &local;
    for (size_t i = 0; i < n; i++)
        out->n += sites[i]->space == SPACE_GLOBAL && !sites[i]->is_store;
    out->loads = xcalloc(out->n ? out->n : 1, sizeof *out->loads);
    number_phases(sites, n, out);
    double blocks = (double)grid[0] * (double)grid[1] * (double)grid[2];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const mem_access *a = sites[i];
        if (a->space != SPACE_GLOBAL || a->is_store)
            continue;
        loadlat_load *l = &out->loads[k++];
        l->access = a;
        traffic_site_total t;
        char why[128];
        int64_t sectors[3];
        if (!load_placed(a, memo, grid, block, env, &t, sectors, why, sizeof why)) {
            snprintf(out->why, sizeof out->why, "%s", why);
            return;
        }
        l->requests = t.requests;
        bool stored;
        l->lockstep = lockstep_of(a, sites, n, env, &stored);
        l->restored_share = stored && l->lockstep > 1 ? (l->lockstep - 1) / l->lockstep : 0;
        l->seen_share = seen_share(a, sites, n, grid, block, env);
        l->free_body = free_body_of(a, sites, n);
        l->together = together_of(a, l->free_body);
        l->busiest_requests = t.busiest_warp_requests;
        l->lines = t.lines;
        if (t.units <= 0)
            continue;
        double units = (double)t.units, in_blocks = blocks * (double)sectors[1];
        double new_sectors = sectors[2] < 0 ? in_blocks : blocks * (double)sectors[2];
        l->new_share = clamp01(new_sectors / units);
        l->first_share = in_blocks > 0 ? clamp01((double)sectors[0] / in_blocks) : 1;
    }
    out->ok = true;
}

void loadlat_free(loadlat *l)
{
    free(l->loads);
    memset(l, 0, sizeof *l);
}
