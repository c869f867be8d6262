/* expr: a small integer expression tree, the common language between the
 * libclang front end (which builds trees from index expressions, conditions
 * and launch configurations) and the pure analyses (which evaluate them per
 * lane, per warp, per loop iteration). Pure: no I/O, no globals. */
#ifndef GPULINT_EXPR_H
#define GPULINT_EXPR_H

#include <stdbool.h>
#include <stdint.h>

typedef enum expr_kind {
    EX_CONST,   /* value */
    EX_SYM,     /* a builtin (threadIdx.x ...) or a named value (loop counter, parameter) */
    EX_UNARY,   /* op a */
    EX_BINARY,  /* a op b */
    EX_COND,    /* a ? b : c */
    EX_UNKNOWN, /* something the front end could not express; reason in name */
    EX_SUM,     /* a loop's total: for (name = a; b; name = c) add d (see expr_loop_sum) */
} expr_kind;

typedef enum expr_builtin {
    SYM_NAMED = 0, /* not a builtin: look the name up */
    SYM_TID_X,
    SYM_TID_Y,
    SYM_TID_Z,
    SYM_BDIM_X,
    SYM_BDIM_Y,
    SYM_BDIM_Z,
    SYM_BID_X,
    SYM_BID_Y,
    SYM_BID_Z,
    SYM_GDIM_X,
    SYM_GDIM_Y,
    SYM_GDIM_Z,
    SYM_WARP_SIZE,
    SYM_BUILTIN_COUNT
} expr_builtin;

typedef enum expr_op {
    OP_NEG,
    OP_NOT,  /* logical ! */
    OP_BNOT, /* ~ */
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_MOD,
    OP_SHL,
    OP_SHR,
    OP_AND,
    OP_OR,
    OP_XOR,
    OP_LT,
    OP_LE,
    OP_GT,
    OP_GE,
    OP_EQ,
    OP_NE,
    OP_LAND,
    OP_LOR,
    OP_MIN, /* min(a, b), max(a, b): common in index code */
    OP_MAX,
} expr_op;

typedef struct expr {
    expr_kind kind;
    expr_op op;
    expr_builtin builtin;
    int64_t value;
    char *name;                 /* EX_SYM named symbol, EX_UNKNOWN reason, EX_SUM counter */
    struct expr *a, *b, *c, *d; /* d: EX_SUM's body only */
    /* Lookup cache of a named symbol, not part of its meaning: the env slot
     * where the name was last found. The per-lane walk evaluates the same
     * tree millions of times against envs laid out alike, so one string
     * comparison there usually replaces a scan of the whole table. */
    int slot_hint;
    /* Set by expr_alias_names on a private copy: the pointer the env will
     * hold for this name, so a lookup compares pointers, not strings. It
     * must outlive the tree. */
    const char *alias;
} expr;

/* Constructors (allocate; never return NULL). Ownership of children passes
 * to the new node. */
expr *expr_const(int64_t v);
expr *expr_builtin_sym(expr_builtin b);
expr *expr_named(const char *name);
expr *expr_unknown(const char *reason);
expr *expr_unary(expr_op op, expr *a);
expr *expr_binary(expr_op op, expr *a, expr *b);
expr *expr_cond(expr *c, expr *t, expr *f);
/* The sum of body over the values a loop's counter takes: counter = init;
 * while cond: add body, counter = next. For work that changes with an
 * outer loop's counter (a triangular loop's inner trip count), where
 * trips x body would leave the counter free. body, cond and next see the
 * counter; init does not. Evaluation runs the loop, at most
 * EXPR_SUM_MAX_STEPS iterations (else EXPR_UNKNOWN, with why). */
expr *expr_loop_sum(const char *counter, expr *init, expr *cond, expr *next, expr *body);
#define EXPR_SUM_MAX_STEPS (1 << 16)
expr *expr_clone(const expr *e);
/* The same tree: kinds, operators, symbols and constants (NULLs alike). */
bool expr_equal(const expr *a, const expr *b);
void expr_free(expr *e);

/* Values for symbols during evaluation. Named symbols are looked up by name
 * in a small table; unbound names make evaluation fail. */
#define EXPR_MAX_BINDINGS 64
typedef struct expr_env {
    bool has_builtin[SYM_BUILTIN_COUNT];
    int64_t builtin[SYM_BUILTIN_COUNT];
    int n_named;
    const char *names[EXPR_MAX_BINDINGS];
    int64_t values[EXPR_MAX_BINDINGS];
} expr_env;

void expr_env_init(expr_env *env);
void expr_env_set_builtin(expr_env *env, expr_builtin b, int64_t v);
/* env = from (NULL: empty) with blockDim and gridDim bound to the launch's
 * dimensions, which every index of the launch may read. */
void expr_env_bind_launch(expr_env *env, const expr_env *from, const int64_t grid[3],
                          const int64_t block[3]);
/* Sets or replaces; returns false when the table is full. name is borrowed. */
bool expr_env_set(expr_env *env, const char *name, int64_t v);
/* The slot of name in env's table (the same pointer first, then the same
 * text); -1 when it is not bound. */
int expr_env_find(const expr_env *env, const char *name);
void expr_env_unset(expr_env *env, const char *name);

typedef enum expr_status {
    EXPR_OK = 0,
    EXPR_UNBOUND,   /* a symbol has no value */
    EXPR_UNKNOWN,   /* the tree holds an EX_UNKNOWN node */
    EXPR_DIV_ZERO,  /* division or modulo by zero */
    EXPR_OVERFLOW,  /* result does not fit in int64 (checked on every step) */
    EXPR_BAD_SHIFT, /* negative or >= 64 shift count */
} expr_status;

/* C semantics on 64-bit signed integers (division truncates toward zero).
 * On failure *unbound_name (if not NULL) names the first unbound symbol or
 * the unknown node's reason. */
expr_status expr_eval(const expr *e, const expr_env *env, int64_t *out, const char **why);

/* expr_eval in each lane l of mask (bit l, l < 32) with envs[l], the tree
 * walked once for all of them: out[l] where it succeeds, and the lanes that
 * succeed as the result (those that fail give no value; expr_eval on the
 * lane tells how). The same values expr_eval gives, && || ?: short-circuit
 * lane by lane. */
uint32_t expr_eval_lanes(const expr *e, const expr_env *envs, uint32_t mask, int64_t out[32]);
/* The same, with the failing lanes whose expr_eval status would be
 * EXPR_UNBOUND or EXPR_UNKNOWN in *unknown (the others fail on arithmetic:
 * overflow, division by zero, a bad shift). */
uint32_t expr_eval_lanes_unknown(const expr *e, const expr_env *envs, uint32_t mask,
                                 int64_t out[32], uint32_t *unknown);

/* Points every named symbol of e that env binds at env's own name string
 * (see expr.alias). Evaluation results do not change; lookups in envs that
 * borrow the same strings skip the string comparisons. */
void expr_alias_names(expr *e, const expr_env *env);

/* True if the value can change with any of the given builtins (e.g. the
 * thread index). Named symbols listed in `lane_names` (per-lane locals the
 * front end resolved) count too. */
bool expr_uses_builtin(const expr *e, expr_builtin b);
bool expr_uses_name(const expr *e, const char *name);
/* Copy of e with builtin b read as b + by (a warp other than the first
 * evaluated over the first warp's lanes). */
expr *expr_shift_builtin(const expr *e, expr_builtin b, int64_t by);
/* The same for the named symbol name (a loop counter's next iteration). */
expr *expr_shift_name(const expr *e, const char *name, int64_t by);
/* Copy of e with the named symbol name replaced by rep (a loop sum's own
 * counter keeps its name inside the sum). */
expr *expr_substitute_name(const expr *e, const char *name, const expr *rep);
/* True if e holds a thread or block index (threadIdx, blockIdx): a count
 * that is one thread's, not yet summed over a launch. */
bool expr_uses_thread_index(const expr *e);
/* The first EX_UNKNOWN node of e (its reason), depth first; NULL when none. */
const expr *expr_first_unknown(const expr *e);
/* First unbound symbol in env, or NULL if all are bound. */
const char *expr_first_unbound(const expr *e, const expr_env *env);
/* A symbol e reads that env leaves without a value. */
typedef struct expr_sym_ref {
    expr_builtin builtin; /* SYM_NAMED for a named one */
    const char *name;     /* printable name, borrowed from e or a table */
} expr_sym_ref;
/* Adds each such symbol of e to out[0..*n) once; past max, sets
 * *overflow instead. */
void expr_unbound_syms(const expr *e, const expr_env *env, expr_sym_ref *out, int *n, int max,
                       bool *overflow);
/* The values analyses re-run with an unbound name bound to, to show that
 * a result does not depend on it: small, odd, and a multiple of the warp
 * size. */
#define EXPR_N_PROBES 3
extern const int64_t expr_probe_values[EXPR_N_PROBES];

/* Fold constant subtrees in place-copy: returns a new simplified tree. */
expr *expr_simplify(const expr *e);
/* Copy of e with every symbol env binds replaced by its value, then
 * simplified: for trees evaluated many times with those values fixed. */
expr *expr_bind(const expr *e, const expr_env *env);
/* C-like text ("threadIdx.x * 33 + j"), caller frees. */
char *expr_to_string(const expr *e);
const char *expr_builtin_name(expr_builtin b); /* "threadIdx.x" */
bool expr_builtin_from_name(const char *s, expr_builtin *out);

#endif
