/* check_rules: the policy of `gpulint check`: thresholds on each kernel's
 * resources, and regressions against a report recorded earlier (the
 * baseline). Pure: kernels and a parsed baseline in, violations out, so CI
 * policy is unit-testable without nvcc or files. */
#ifndef GPULINT_CHECK_RULES_H
#define GPULINT_CHECK_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/check/baseline.h"

/* One compiled kernel as the rules see it (a view: nothing is owned). */
typedef struct check_kernel {
    const char *name;      /* mangled, as ptxas prints it: with arch, the baseline key */
    const char *demangled; /* full signature */
    const char *arch;      /* the log's arch string, e.g. "sm_90a" */
    int registers;
    int64_t stack;            /* "N bytes stack frame" */
    int64_t cumulative_stack; /* -rdc's "cumulative stack size", -1 = not printed */
    int64_t spill_stores, spill_loads;
    /* Occupancy exists only when the arch has a model. With --block it is
     * at that size (launch_given); otherwise at the kernel's best size. */
    bool has_occupancy;
    bool launch_given;
    int block;                  /* threads per block; 0 = no size launches */
    double occupancy;           /* 0..1 */
    const char *launch_failure; /* why --block cannot launch; NULL when it can */
} check_kernel;

typedef struct check_limits {
    int max_regs; /* -1 = no limit */
    bool no_spills;
    int64_t max_stack;    /* -1 = no limit */
    double min_occupancy; /* percent 0..100; < 0 = no limit */
} check_limits;

#define CHECK_LIMITS_NONE ((check_limits){-1, false, -1, -1.0})

typedef enum check_kind {
    CHECK_MAX_REGS,
    CHECK_SPILLS,
    CHECK_MAX_STACK,
    CHECK_MIN_OCCUPANCY,
    CHECK_OCCUPANCY_UNKNOWN, /* note: --min-occupancy, but the arch has no model */
    CHECK_REGRESSED_REGISTERS,
    CHECK_REGRESSED_SPILLS,
    CHECK_REGRESSED_STACK,
    CHECK_REGRESSED_OCCUPANCY,
    CHECK_NOT_IN_BASELINE, /* note */
} check_kind;

typedef struct check_violation {
    size_t kernel; /* index into the kernels given to check_run */
    check_kind kind;
    bool is_error; /* notes never fail the check */
    char *message; /* "kernel 'gemm' uses 168 registers (limit 128)" */
} check_violation;

typedef struct check_result {
    check_violation *v;
    size_t n;
    size_t n_errors;
} check_result;

/* Applies the limits to every kernel and, with a baseline (NULL = none),
 * compares each kernel with the baseline's entry for the same (arch, name).
 * name_arch: say the arch in messages (several arches are being checked). */
void check_run(const check_kernel *kernels, size_t n, const check_limits *lim, const baseline *base,
               bool name_arch, check_result *out);
void check_result_free(check_result *r);

/* "gpulint-max-regs", ... (the tag at the end of each line). */
const char *check_rule_id(check_kind kind);

/* "void ns::gemm<64>(float*, int)" -> "ns::gemm<64>": what users call the
 * kernel, without the return type and parameter list. */
void check_display_name(const char *demangled, char *buf, size_t n);

#endif
