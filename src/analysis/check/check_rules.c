/* check_rules: thresholds and baseline regressions for `gpulint check`. */
#include "analysis/check/check_rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

/* Reports store occupancy with 6 significant digits (0.666667 for 2/3), so
 * a recomputed value may differ from the recorded one in the 7th digit. One
 * warp of 64 is 0.0156, far above this. */
#define OCC_EPS 1e-5

const char *check_rule_id(check_kind kind)
{
    switch (kind) {
    case CHECK_MAX_REGS:
        return "gpulint-max-regs";
    case CHECK_SPILLS:
        return "gpulint-spills";
    case CHECK_MAX_STACK:
        return "gpulint-max-stack";
    case CHECK_MIN_OCCUPANCY:
    case CHECK_OCCUPANCY_UNKNOWN:
        return "gpulint-min-occupancy";
    case CHECK_REGRESSED_REGISTERS:
    case CHECK_REGRESSED_SPILLS:
    case CHECK_REGRESSED_STACK:
    case CHECK_REGRESSED_OCCUPANCY:
    case CHECK_NOT_IN_BASELINE:
        return "gpulint-regression";
    }
    return "gpulint";
}

void check_display_name(const char *demangled, char *buf, size_t n)
{
    size_t len = strlen(demangled);
    size_t end = len;
    /* Drop the parameter list: the parenthesis matching the final ')'. */
    if (len && demangled[len - 1] == ')') {
        int depth = 0;
        for (size_t i = len; i-- > 0;) {
            if (demangled[i] == ')')
                depth++;
            else if (demangled[i] == '(' && --depth == 0) {
                end = i;
                break;
            }
        }
    }
    /* Drop the return type that template instances carry ("void "): the
     * last space outside <>, () and [] ends it. */
    size_t start = 0;
    int depth = 0;
    for (size_t i = 0; i < end; i++) {
        char c = demangled[i];
        if (c == '<' || c == '(' || c == '[')
            depth++;
        else if ((c == '>' || c == ')' || c == ']') && depth > 0)
            depth--;
        else if (c == ' ' && depth == 0)
            start = i + 1;
    }
    if (start >= end) /* nothing sensible left: show it whole */
        start = 0, end = len;
    snprintf(buf, n, "%.*s", (int)(end - start), demangled + start);
}

static void add(check_result *r, size_t *cap, size_t kernel, check_kind kind, bool is_error,
                const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void add(check_result *r, size_t *cap, size_t kernel, check_kind kind, bool is_error,
                const char *fmt, ...)
{
    if (r->n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        r->v = xrealloc(r->v, *cap * sizeof *r->v);
    }
    sbuf b;
    sbuf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sbuf_vaddf(&b, fmt, ap);
    va_end(ap);
    r->v[r->n++] = (check_violation){kernel, kind, is_error, sbuf_take(&b)};
    if (is_error)
        r->n_errors++;
}

/* "kernel 'gemm<64>'" or "kernel 'gemm<64>' on sm_80". */
static void subject(const check_kernel *k, bool name_arch, char *buf, size_t n)
{
    char name[512];
    check_display_name(k->demangled ? k->demangled : k->name, name, sizeof name);
    if (name_arch)
        snprintf(buf, n, "kernel '%s' on %s", name, k->arch);
    else
        snprintf(buf, n, "kernel '%s'", name);
}

/* The stack the kernel really needs: with -rdc ptxas also prints the
 * cumulative size including callees, which is what a launch reserves. */
static int64_t stack_need(const check_kernel *k, bool *cumulative)
{
    *cumulative = k->cumulative_stack > k->stack;
    return *cumulative ? k->cumulative_stack : k->stack;
}

static void thresholds(const check_kernel *k, size_t i, const char *who, const check_limits *lim,
                       check_result *r, size_t *cap)
{
    if (lim->max_regs >= 0 && k->registers > lim->max_regs)
        add(r, cap, i, CHECK_MAX_REGS, true, "%s uses %d registers (limit %d)", who, k->registers,
            lim->max_regs);
    if (lim->no_spills && (k->spill_stores > 0 || k->spill_loads > 0))
        add(r, cap, i, CHECK_SPILLS, true,
            "%s spills registers to local memory: %lld bytes stored, %lld bytes loaded "
            "(limit: no spills)",
            who, (long long)k->spill_stores, (long long)k->spill_loads);
    bool cumulative;
    int64_t stack = stack_need(k, &cumulative);
    if (lim->max_stack >= 0 && stack > lim->max_stack)
        add(r, cap, i, CHECK_MAX_STACK, true, "%s uses %lld bytes of stack%s (limit %lld)", who,
            (long long)stack, cumulative ? " including its callees" : "",
            (long long)lim->max_stack);
    if (lim->min_occupancy < 0)
        return;
    if (!k->has_occupancy) {
        add(r, cap, i, CHECK_OCCUPANCY_UNKNOWN, false,
            "occupancy of %s is not checked: no model for %s", who, k->arch);
        return;
    }
    double pct = k->occupancy * 100.0;
    if (pct + OCC_EPS * 100.0 >= lim->min_occupancy)
        return;
    if (k->launch_given && k->launch_failure)
        add(r, cap, i, CHECK_MIN_OCCUPANCY, true,
            "%s cannot launch with %d threads per block: %s (limit %g%% occupancy)", who, k->block,
            k->launch_failure, lim->min_occupancy);
    else if (k->launch_given)
        add(r, cap, i, CHECK_MIN_OCCUPANCY, true,
            "%s reaches %.1f%% occupancy with %d threads per block (limit %g%%)", who, pct,
            k->block, lim->min_occupancy);
    else if (k->block == 0)
        add(r, cap, i, CHECK_MIN_OCCUPANCY, true,
            "%s cannot launch with any block size (limit %g%% occupancy)", who, lim->min_occupancy);
    else
        add(r, cap, i, CHECK_MIN_OCCUPANCY, true,
            "%s reaches at most %.1f%% occupancy, at its best block size of %d threads "
            "(limit %g%%)",
            who, pct, k->block, lim->min_occupancy);
}

static void regressions(const check_kernel *k, size_t i, const char *who, const baseline *base,
                        check_result *r, size_t *cap)
{
    const baseline_kernel *b = baseline_find(base, k->arch, k->name);
    if (!b) {
        add(r, cap, i, CHECK_NOT_IN_BASELINE, false,
            "%s is not in the baseline; nothing to compare it with", who);
        return;
    }
    if (k->registers > b->registers)
        add(r, cap, i, CHECK_REGRESSED_REGISTERS, true,
            "%s uses %d registers, up from %d in the baseline", who, k->registers, b->registers);
    if (k->spill_stores > b->spill_stores || k->spill_loads > b->spill_loads) {
        if (b->spill_stores == 0 && b->spill_loads == 0)
            add(r, cap, i, CHECK_REGRESSED_SPILLS, true,
                "%s now spills registers: %lld bytes stored, %lld bytes loaded (none in the "
                "baseline)",
                who, (long long)k->spill_stores, (long long)k->spill_loads);
        else
            add(r, cap, i, CHECK_REGRESSED_SPILLS, true,
                "%s spills more: %lld bytes stored, %lld bytes loaded, up from %lld and %lld "
                "in the baseline",
                who, (long long)k->spill_stores, (long long)k->spill_loads,
                (long long)b->spill_stores, (long long)b->spill_loads);
    }
    /* The report records the stack frame, so that is what is compared. */
    if (k->stack > b->stack)
        add(r, cap, i, CHECK_REGRESSED_STACK, true,
            "%s has a %lld-byte stack frame, up from %lld in the baseline", who,
            (long long)k->stack, (long long)b->stack);
    if (!k->has_occupancy)
        return;
    /* Like for like: the same block size, or best against best. A size the
     * baseline never recorded cannot be compared. */
    double was;
    if (k->launch_given) {
        if (!baseline_occupancy_at(b, k->block, &was) || k->occupancy + OCC_EPS >= was)
            return;
        if (k->launch_failure)
            add(r, cap, i, CHECK_REGRESSED_OCCUPANCY, true,
                "%s can no longer launch with %d threads per block (%s); the baseline reached "
                "%.1f%%",
                who, k->block, k->launch_failure, was * 100.0);
        else
            add(r, cap, i, CHECK_REGRESSED_OCCUPANCY, true,
                "occupancy of %s with %d threads per block dropped to %.1f%%, from %.1f%% in "
                "the baseline",
                who, k->block, k->occupancy * 100.0, was * 100.0);
    } else if (b->has_best && k->occupancy + OCC_EPS < b->best_occupancy) {
        add(r, cap, i, CHECK_REGRESSED_OCCUPANCY, true,
            "best occupancy of %s dropped to %.1f%% (at %d threads per block), from %.1f%% "
            "(at %d) in the baseline",
            who, k->occupancy * 100.0, k->block, b->best_occupancy * 100.0, b->best_block);
    }
}

void check_run(const check_kernel *kernels, size_t n, const check_limits *lim, const baseline *base,
               bool name_arch, check_result *out)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0;
    for (size_t i = 0; i < n; i++) {
        const check_kernel *k = &kernels[i];
        char who[600];
        subject(k, name_arch, who, sizeof who);
        thresholds(k, i, who, lim, out, &cap);
        if (base)
            regressions(k, i, who, base, out, &cap);
    }
}

void check_result_free(check_result *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i].message);
    free(r->v);
    memset(r, 0, sizeof *r);
}
