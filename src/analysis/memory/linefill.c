/* linefill: lines filled by sibling sites together (see linefill.h). */
#include "analysis/memory/linefill.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/exprpoly.h"
#include "analysis/symbolic/gridcls.h"
#include "analysis/symbolic/lanes.h"
#include "util/sbuf.h"
#include "util/order.h"

/* Siblings further apart than this are other rows: they share no line. */
#define LINEFILL_MAX_APART 1024

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_place(const mem_access *a, const mem_access *b)
{
    if (b->space != SPACE_GLOBAL || b->atomic || b->is_store != a->is_store || b->why_not ||
        b->index_from_data || b->width != a->width || b->in_switch != a->in_switch ||
        !same_text(a->base, b->base) || !same_text(a->via, b->via) || b->n_loops != a->n_loops)
        return false;
    if ((a->guard || b->guard) && (!a->guard || !b->guard || !expr_equal(a->guard, b->guard)))
        return false;
    for (int l = 0; l < a->n_loops; l++)
        if (!loop_same(&a->loops[l], &b->loops[l]))
            return false;
    return true;
}

int linefill_siblings(const mem_access *const *sites, size_t n, size_t i,
                      int64_t apart[LINEFILL_MAX_SIBLINGS])
{
    const mem_access *a = sites[i];
    int k = 0;
    if (a->space != SPACE_GLOBAL || a->atomic || a->why_not || a->index_from_data ||
        !a->byte_offset || a->width <= 0)
        return 0;
    for (size_t j = 0; j < n && k < LINEFILL_MAX_SIBLINGS; j++) {
        int64_t d;
        if (j == i || !sites[j]->byte_offset || !same_place(a, sites[j]) ||
            !exprpoly_const_difference(sites[j]->byte_offset, a->byte_offset, &d) || d == 0 ||
            d % a->width != 0 || d > LINEFILL_MAX_APART || d < -LINEFILL_MAX_APART)
            continue;
        bool seen = false;
        for (int m = 0; m < k && !seen; m++)
            seen = apart[m] == d;
        if (!seen)
            apart[k++] = d;
    }
    return k;
}

typedef struct fill_walk {
    const int64_t *apart;
    int n_apart;
    long visits;
    bool enough;
    double sectors, runs;
    int64_t *starts; /* LANES_WARP * (n_apart + 1) */
} fill_walk;

/* Strictly the sectors over the lines' sectors: a run that crosses into a
 * line by alignment alone does not fill it here (ace's `k - 1` and
 * `k + 1` beside a half-line row), as coalesce_request_eval's run sectors
 * take it to for one site. */
static bool on_union(const lanes_visit *v, int64_t m[LANES_METRICS], char *why, size_t why_size,
                     void *p)
{
    (void)m, (void)why, (void)why_size;
    fill_walk *w = p;
    if (v->probe)
        return true;
    if (w->visits++ >= LINEFILL_MAX_VISITS) {
        w->enough = true;
        return false;
    }
    int n = 0;
    for (int l = 0; l < LANES_WARP; l++)
        if (v->active >> l & 1) {
            w->starts[n++] = v->value[l] >> 5;
            for (int k = 0; k < w->n_apart; k++)
                w->starts[n++] = (v->value[l] + w->apart[k]) >> 5;
        }
    qsort(w->starts, (size_t)n, sizeof *w->starts, order_i64);
    int64_t sectors = 0, lines = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && w->starts[i] == w->starts[i - 1])
            continue;
        sectors++;
        if (i == 0 || w->starts[i] >> 2 != w->starts[i - 1] >> 2)
            lines++;
    }
    w->sectors += (double)sectors * (double)v->repeat;
    w->runs += 4.0 * (double)lines * (double)v->repeat;
    return true;
}

bool linefill_share(const mem_access *a, const int64_t *apart, int n_apart, const int64_t grid[3],
                    const int64_t block[3], const expr_env *env, double *share)
{
    expr_env interior = *env;
    static const expr_builtin bid[3] = {SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    for (int d = 0; d < 3; d++)
        expr_env_set_builtin(&interior, bid[d], gridcls_interior(grid[d]));
    fill_walk w = {.apart = apart, .n_apart = n_apart};
    w.starts = xmalloc(sizeof *w.starts * LANES_WARP * (size_t)(n_apart + 1));
    lanes_result lr;
    char why[LANES_WHY_MAX];
    bool ok = lanes_run_access(a, block, &interior, on_union, &w, &lr, why, sizeof why) || w.enough;
    free(w.starts);
    if (!ok || w.runs <= 0)
        return false;
    *share = w.sectors / w.runs;
    return true;
}
