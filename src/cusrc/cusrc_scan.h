/* cusrc_scan: what the driver (cusrc.c), the kernels' declarations
 * (cusrc_kernels.c) and the launch search (cusrc_launch.c) share while one
 * translation unit is scanned. The order of calls: cusrc.c calls both,
 * cusrc_launch.c calls cusrc_kernels.c, never back. */
#ifndef GPULINT_CUSRC_SCAN_H
#define GPULINT_CUSRC_SCAN_H

#include "cusrc/cusrc_int.h"

/* Names of the main file's #defines and namespace-scope constants, for the
 * arguments of __launch_bounds__ (which libclang does not expose). */
typedef struct const_tab {
    char **names;
    char **bodies; /* macro bodies; NULL for evaluated constants */
    int64_t *values;
    size_t n, cap;
} const_tab;

typedef struct fn_list {
    CXCursor *c;
    size_t n, cap;
} fn_list;

/* Host calls followed from a launch's caller down to the launch: libraries
 * dispatch through several layers of templates (OneFlow's softmax: seven,
 * from its entry point through pack-size and column-count dispatchers to
 * the function that launches). */
#define SCAN_MAX_DEPTH 10

/* The loops of a host function around a call, innermost first: each one's
 * trip count (an unknown part where it cannot be written) and, for a for
 * over a constant range, the range, to walk. */
#define HOST_LOOPS_MAX 8
#define HOST_COMP_MAX 4 /* locals stepped beside a loop's counter */
typedef struct host_loop {
    expr *trips;
    char *var; /* the counter, when walkable */
    bool walkable, inclusive;
    int64_t start, bound, step;
    int64_t factor; /* > 1: stepped by this factor instead of step */
    bool shrinks;   /* divided by factor (i /= 2), not multiplied */
    cnode *loop;    /* the for statement */
    /* A range-for over constants (cusrc_table): the values in order,
     * n_values > 0; start/bound/step unused. */
    int n_values;
    int64_t values[HOST_TABLE_MAX];
    /* A stepped loop whose range reads names the loops around it set
     * (`for (stage = step; stage >= 0; stage--)` in a loop over step):
     * not walkable, var set; its first value and bound as written, for a
     * sweep that has bound those names (host_loop_given). */
    expr *start_e, *bound_e;
    /* Locals a walkable loop's comma increment steps beside its counter
     * (`log2N -= 2, N >>= 2`), from the values they hold where the loop
     * starts: trip k's value is the start stepped k times. */
    int n_comp;
    struct host_comp {
        char *name;
        int64_t start, by; /* by: added each trip, or the factor */
        bool factor, shrinks;
    } comp[HOST_COMP_MAX];
} host_loop;
typedef struct host_loops {
    int n;
    host_loop v[HOST_LOOPS_MAX];
    char *why; /* where a count that is not constant comes from, NULL */
} host_loops;
typedef struct scan_state {
    cusrc_tu *t;
    fn_list fns;     /* function definitions in the main file */
    fn_list kernels; /* kernel definitions (templates: the template) */
    const_tab consts;
    char **called; /* keys of main-file functions some main-file code calls */
    size_t n_called, cap_called;
    char *stack[SCAN_MAX_DEPTH];           /* functions being expanded, against recursion */
    const char *names[SCAN_MAX_DEPTH + 1]; /* their names, the scanned one first */
    /* The loops around the call in each function that expands the next
     * (host_loops_of), counted once the launch's reach is known. */
    host_loops loops[SCAN_MAX_DEPTH];
    /* What must hold at each expanded call for it to run (launch_reach of
     * the call in its caller, NULL = nothing known): a launch reached
     * through them runs only where all of them hold. */
    expr *reach[SCAN_MAX_DEPTH];
    int depth;
    /* Host calls whose callee the following cannot know (through a
     * function pointer, a virtual method, recursion): the first few, for
     * one note, and how many. */
    sbuf unfollowed;
    int n_unfollowed;
    int budget;            /* expansions left: a file of many wrappers stays fast */
    bool in_explicit_refs; /* visiting gpulint's appended function (cusrc_explicit.c) */
    /* The call from another unit the scanned function is followed from
     * (cusrc_xcall.c): its path comes before this unit's. */
    const cusrc_xcall *from;
    /* USRs of the kernels this unit declares and another defines: their
     * launches here go to that unit's report (cusrc_xlaunch.c). */
    char **foreign;
    size_t n_foreign, cap_foreign;
} scan_state;

/* ---- cusrc_hostloop.c ---- */
/* The loops around call in f (see host_loops). */
void host_loops_of(fn_ctx *f, cnode *call, host_loops *out);
/* How many times the loops run the call: the product of their trips, a
 * walkable loop whose counter the launch's reach reads counted value by
 * value (only where the reach can hold). */
expr *host_loops_runs(const host_loops *h, const expr *reach);
void host_loops_free(host_loops *h);
/* The counter values of a walkable loop into out, in order: how many, or
 * -1 when it is not walkable or runs more than max values. */
int host_loop_values(const host_loop *l, int64_t *out, int max);
/* A companion's value on trip number trip (0 the first); false where it
 * leaves int64. */
bool host_comp_value(const struct host_comp *c, int64_t trip, int64_t *out);
/* A loop whose range reads names (start_e, bound_e) made walkable where env
 * gives them values: *out shares l's pointers and is not freed. */
bool host_loop_given(const host_loop *l, const expr_env *env, host_loop *out);
/* A walkable loop stepped by a constant, walked value by value: how many
 * of its values reach allows (NULL: all), the first and the last of them
 * in *first and *last; -1 when it cannot be walked. */
int64_t host_loop_span(const host_loop *l, const expr *reach, int64_t *first, int64_t *last);

/* ---- cusrc_sweep.c ---- */
/* The launches made at call (those from index first on) that read the
 * counter of a loop around it with constant values: one per value. */
void sweep_launches(scan_state *s, fn_ctx *f, cnode *call, size_t first);

/* ---- cusrc_xcall.c ---- */
/* Notes a call to a host function this unit declares and does not define,
 * where the unit's calls are collected (cusrc_options.collect_calls). */
void xcall_collect(scan_state *s, fn_ctx *f, cnode *call, const expr *reach);
/* The bindings of def's parameters at a call another unit makes to it
 * (x_unbind frees them); how many. */
int xcall_bind(const cusrc_xcall *x, CXCursor def, param_binding *pb, int max);

/* ---- cusrc_xlaunch.c ---- */
/* This unit's launches of kernels another unit defines, noted where the
 * unit's calls are collected; the launches other units make of this
 * unit's kernels, added to its own. */
void xlaunch_collect(scan_state *s);
void xlaunch_add(scan_state *s);

/* ---- cusrc_kernels.c ---- */
/* Macros and constants of the main file (buf), for __launch_bounds__. */
void kern_tab_free(const_tab *t);
void kern_read_macros(const char *buf, size_t size, const_tab *tab);
/* clang_visitChildren over the unit: kernels, scanned functions (a scan_state). */
enum CXChildVisitResult kern_top_visit(CXCursor c, CXCursor parent, CXClientData data);
char *kern_mangling(CXCursor fn);
void kern_add(cusrc_tu *t, CXCursor c, const const_tab *consts);
long kern_by_usr(cusrc_tu *t, const char *usr);
void kern_fill_targs(cusrc_tu *t, CXCursor fn, long kernel, cusrc_targ **out, int *n_out);
/* A launch of fn: the instantiation it names becomes a variant to analyse. */
void kern_note_instantiation(cusrc_tu *t, CXCursor fn);
void kern_build_variants(cusrc_tu *t);
/* ---- cusrc_launch.c ---- */
/* Records the launches and opt-ins in fn's body, with binds for a wrapper
 * expanded at its call (NULL for a function scanned as written). */
bool scan_is_called(const scan_state *s, const char *key);
enum CXChildVisitResult scan_called_visit(CXCursor c, CXCursor parent, CXClientData data);
void scan_function(scan_state *s, CXCursor fn, bind_frame *binds);
/* Launches the scan found once per call path, merged where every value
 * is the same (the paths counted in call_paths). */
void scan_merge_launches(cusrc_tu *t);
/* The note on the calls that stopped the following (scan_state.unfollowed). */
void scan_note_unfollowed(scan_state *s);

/* cusrc_cluster.c: a cudaLaunchKernelEx's cluster from the clusterDim
 * its function sets in the attribute array of its configuration
 * (attrs_field: the configuration's attrs; NULL: not visible, any
 * clusterDim of the function); then, once the file is scanned, the
 * kernel's __cluster_dims__ and cudaFuncSetAttribute cluster attributes
 * (usr: the launched kernel's). */
void cluster_from_config(fn_ctx *f, cnode *attrs_field, cusrc_launch *l);
void cluster_bind(cusrc_tu *t, cusrc_launch *l, const char *usr);

#endif
