/* expr: construction, evaluation, folding and printing of the integer
 * expression trees that carry index expressions, conditions and launch
 * configurations from the front end to the analyses. Pure: no I/O, no
 * globals. Values are int64 with C semantics; every arithmetic step is
 * checked so that an overflow is reported rather than silently wrapped
 * into a plausible-looking address. */
#include "analysis/symbolic/expr.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

static expr *node(expr_kind kind)
{
    expr *e = xcalloc(1, sizeof *e);
    e->kind = kind;
    return e;
}

expr *expr_const(int64_t v)
{
    expr *e = node(EX_CONST);
    e->value = v;
    return e;
}

expr *expr_builtin_sym(expr_builtin b)
{
    expr *e = node(EX_SYM);
    e->builtin = b;
    return e;
}

expr *expr_named(const char *name)
{
    expr *e = node(EX_SYM);
    e->builtin = SYM_NAMED;
    e->name = xstrdup(name ? name : "");
    return e;
}

expr *expr_unknown(const char *reason)
{
    expr *e = node(EX_UNKNOWN);
    e->name = xstrdup(reason ? reason : "unknown expression");
    return e;
}

expr *expr_unary(expr_op op, expr *a)
{
    expr *e = node(EX_UNARY);
    e->op = op;
    e->a = a;
    return e;
}

expr *expr_binary(expr_op op, expr *a, expr *b)
{
    expr *e = node(EX_BINARY);
    e->op = op;
    e->a = a;
    e->b = b;
    return e;
}

expr *expr_cond(expr *c, expr *t, expr *f)
{
    expr *e = node(EX_COND);
    e->a = c;
    e->b = t;
    e->c = f;
    return e;
}

expr *expr_loop_sum(const char *counter, expr *init, expr *cond, expr *next, expr *body)
{
    expr *e = node(EX_SUM);
    e->name = xstrdup(counter ? counter : "");
    e->a = init;
    e->b = cond;
    e->c = next;
    e->d = body;
    return e;
}

/* e's own fields, without children or lookup caches. */
static expr *copy_node(const expr *e)
{
    expr *n = node(e->kind);
    n->op = e->op;
    n->builtin = e->builtin;
    n->value = e->value;
    n->name = xstrdup_null(e->name);
    return n;
}

expr *expr_clone(const expr *e)
{
    if (!e)
        return NULL;
    expr *n = copy_node(e);
    n->a = expr_clone(e->a);
    n->b = expr_clone(e->b);
    n->c = expr_clone(e->c);
    n->d = expr_clone(e->d);
    return n;
}

bool expr_equal(const expr *a, const expr *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->op != b->op || a->builtin != b->builtin || a->value != b->value ||
        (a->name != b->name && (!a->name || !b->name)) || (a->name && strcmp(a->name, b->name)))
        return false;
    return expr_equal(a->a, b->a) && expr_equal(a->b, b->b) && expr_equal(a->c, b->c) &&
           expr_equal(a->d, b->d);
}

void expr_free(expr *e)
{
    if (!e)
        return;
    expr_free(e->a);
    expr_free(e->b);
    expr_free(e->c);
    expr_free(e->d);
    free(e->name);
    free(e);
}

/* ---- environment ---- */

void expr_env_init(expr_env *env)
{
    memset(env, 0, sizeof *env);
}

void expr_env_set_builtin(expr_env *env, expr_builtin b, int64_t v)
{
    if (b <= SYM_NAMED || b >= SYM_BUILTIN_COUNT)
        return;
    env->has_builtin[b] = true;
    env->builtin[b] = v;
}

void expr_env_bind_launch(expr_env *env, const expr_env *from, const int64_t grid[3],
                          const int64_t block[3])
{
    if (from)
        *env = *from;
    else
        expr_env_init(env);
    for (int d = 0; d < 3; d++) {
        expr_env_set_builtin(env, (expr_builtin)(SYM_BDIM_X + d), block[d]);
        expr_env_set_builtin(env, (expr_builtin)(SYM_GDIM_X + d), grid[d]);
    }
}

static int env_find(const expr_env *env, const char *name)
{
    /* The same pointer is the same name: the walk sets its loop counters
     * with the strings it first set them with. */
    for (int i = 0; i < env->n_named; i++)
        if (env->names[i] == name)
            return i;
    for (int i = 0; i < env->n_named; i++)
        if (strcmp(env->names[i], name) == 0)
            return i;
    return -1;
}

int expr_env_find(const expr_env *env, const char *name)
{
    return env_find(env, name);
}

bool expr_env_set(expr_env *env, const char *name, int64_t v)
{
    int i = env_find(env, name);
    if (i >= 0) {
        env->values[i] = v;
        return true;
    }
    if (env->n_named >= EXPR_MAX_BINDINGS)
        return false;
    env->names[env->n_named] = name;
    env->values[env->n_named] = v;
    env->n_named++;
    return true;
}

void expr_env_unset(expr_env *env, const char *name)
{
    int i = env_find(env, name);
    if (i < 0)
        return;
    for (int j = i + 1; j < env->n_named; j++) {
        env->names[j - 1] = env->names[j];
        env->values[j - 1] = env->values[j];
    }
    env->n_named--;
}

static bool env_lookup(const expr_env *env, const expr *e, int64_t *out)
{
    if (e->builtin != SYM_NAMED) {
        if (e->builtin >= SYM_BUILTIN_COUNT || !env || !env->has_builtin[e->builtin])
            return false;
        *out = env->builtin[e->builtin];
        return true;
    }
    if (!env)
        return false;
    /* The slot where the name was last found, else a search (by the aliased
     * pointer first when there is one: see expr_alias_names). */
    int h = e->slot_hint;
    if (h >= env->n_named || (env->names[h] != e->alias && strcmp(env->names[h], e->name) != 0)) {
        h = env_find(env, e->alias ? e->alias : e->name);
        if (h < 0)
            return false;
        ((expr *)e)->slot_hint = h; /* the cache only; the tree is unchanged */
    }
    *out = env->values[h];
    return true;
}

/* ---- evaluation ---- */

static expr_status fail(expr_status s, const char *what, const char **why)
{
    if (why)
        *why = what;
    return s;
}

static expr_status apply_binary(expr_op op, int64_t a, int64_t b, int64_t *out, const char **why)
{
    switch (op) {
    case OP_ADD:
        if (__builtin_add_overflow(a, b, out))
            return fail(EXPR_OVERFLOW, "integer overflow in +", why);
        return EXPR_OK;
    case OP_SUB:
        if (__builtin_sub_overflow(a, b, out))
            return fail(EXPR_OVERFLOW, "integer overflow in -", why);
        return EXPR_OK;
    case OP_MUL:
        if (__builtin_mul_overflow(a, b, out))
            return fail(EXPR_OVERFLOW, "integer overflow in *", why);
        return EXPR_OK;
    case OP_DIV:
    case OP_MOD:
        if (b == 0)
            return fail(EXPR_DIV_ZERO, op == OP_DIV ? "division by zero" : "modulo by zero", why);
        /* INT64_MIN / -1 does not fit; C leaves INT64_MIN % -1 undefined too. */
        if (a == INT64_MIN && b == -1)
            return fail(EXPR_OVERFLOW, "integer overflow in / or %", why);
        *out = op == OP_DIV ? a / b : a % b;
        return EXPR_OK;
    case OP_SHL:
        if (b < 0 || b >= 64)
            return fail(EXPR_BAD_SHIFT, "shift count out of range", why);
        /* Defined as a * 2^b (what the hardware computes for a negative a);
         * a shifted-out bit is an overflow rather than C's undefined
         * behaviour. */
        if (b == 63) {
            if (a != 0 && a != -1)
                return fail(EXPR_OVERFLOW, "integer overflow in <<", why);
            *out = a == 0 ? 0 : INT64_MIN;
        } else if (__builtin_mul_overflow(a, (int64_t)1 << b, out)) {
            return fail(EXPR_OVERFLOW, "integer overflow in <<", why);
        }
        return EXPR_OK;
    case OP_SHR:
        if (b < 0 || b >= 64)
            return fail(EXPR_BAD_SHIFT, "shift count out of range", why);
        /* Arithmetic shift for negative values, as gcc, clang and nvcc do. */
        *out = a >> b;
        return EXPR_OK;
    case OP_AND:
        *out = a & b;
        return EXPR_OK;
    case OP_OR:
        *out = a | b;
        return EXPR_OK;
    case OP_XOR:
        *out = a ^ b;
        return EXPR_OK;
    case OP_LT:
        *out = a < b;
        return EXPR_OK;
    case OP_LE:
        *out = a <= b;
        return EXPR_OK;
    case OP_GT:
        *out = a > b;
        return EXPR_OK;
    case OP_GE:
        *out = a >= b;
        return EXPR_OK;
    case OP_EQ:
        *out = a == b;
        return EXPR_OK;
    case OP_NE:
        *out = a != b;
        return EXPR_OK;
    case OP_LAND:
        *out = a && b;
        return EXPR_OK;
    case OP_LOR:
        *out = a || b;
        return EXPR_OK;
    case OP_MIN:
        *out = a < b ? a : b;
        return EXPR_OK;
    case OP_MAX:
        *out = a > b ? a : b;
        return EXPR_OK;
    case OP_NEG:
    case OP_NOT:
    case OP_BNOT:
        break;
    }
    return fail(EXPR_UNKNOWN, "bad binary operator", why);
}

static expr_status apply_unary(expr_op op, int64_t a, int64_t *out, const char **why)
{
    switch (op) {
    case OP_NEG:
        if (a == INT64_MIN)
            return fail(EXPR_OVERFLOW, "integer overflow in unary -", why);
        *out = -a;
        return EXPR_OK;
    case OP_NOT:
        *out = !a;
        return EXPR_OK;
    case OP_BNOT:
        *out = ~a;
        return EXPR_OK;
    default:
        return fail(EXPR_UNKNOWN, "bad unary operator", why);
    }
}

static expr_status eval_sum(const expr *e, const expr_env *env, int64_t *out, const char **why);

expr_status expr_eval(const expr *e, const expr_env *env, int64_t *out, const char **why)
{
    int64_t a, b;
    expr_status s;
    if (!e)
        return fail(EXPR_UNKNOWN, "missing expression", why);
    switch (e->kind) {
    case EX_CONST:
        *out = e->value;
        return EXPR_OK;
    case EX_SYM:
        if (!env_lookup(env, e, out))
            return fail(EXPR_UNBOUND,
                        e->builtin == SYM_NAMED ? e->name : expr_builtin_name(e->builtin), why);
        return EXPR_OK;
    case EX_UNKNOWN:
        return fail(EXPR_UNKNOWN, e->name, why);
    case EX_UNARY:
        if ((s = expr_eval(e->a, env, &a, why)) != EXPR_OK)
            return s;
        return apply_unary(e->op, a, out, why);
    case EX_BINARY:
        if ((s = expr_eval(e->a, env, &a, why)) != EXPR_OK)
            return s;
        /* && and || short-circuit as in C: `i < n && a[i] / d` must not fail
         * on the right when the left already decides. */
        if (e->op == OP_LAND && !a) {
            *out = 0;
            return EXPR_OK;
        }
        if (e->op == OP_LOR && a) {
            *out = 1;
            return EXPR_OK;
        }
        if ((s = expr_eval(e->b, env, &b, why)) != EXPR_OK)
            return s;
        return apply_binary(e->op, a, b, out, why);
    case EX_COND:
        if ((s = expr_eval(e->a, env, &a, why)) != EXPR_OK)
            return s;
        return expr_eval(a ? e->b : e->c, env, out, why);
    case EX_SUM:
        return eval_sum(e, env, out, why);
    }
    return fail(EXPR_UNKNOWN, "bad expression node", why);
}

/* env with the counter of sum e set; false when the table is full. */
static bool env_with_counter(expr_env *local, const expr_env *env, const expr *e, int64_t v)
{
    if (env)
        *local = *env;
    else
        expr_env_init(local);
    return expr_env_set(local, e->name, v);
}

static expr_status eval_sum(const expr *e, const expr_env *env, int64_t *out, const char **why)
{
    int64_t v, go, w, total = 0;
    expr_status s;
    if ((s = expr_eval(e->a, env, &v, why)) != EXPR_OK)
        return s;
    /* On the stack (about 1 KB): a sum nests only as deep as the source's
     * loops, and a count evaluates its sums once per thread sampled. */
    expr_env local;
    if (!env_with_counter(&local, env, e, v))
        return fail(EXPR_UNKNOWN, "too many names bound to sum a loop", why);
    int slot = expr_env_find(&local, e->name);
    for (int64_t step = 0;; step++) {
        local.values[slot] = v;
        if ((s = expr_eval(e->b, &local, &go, why)) != EXPR_OK)
            break;
        if (!go) {
            *out = total;
            break;
        }
        if (step == EXPR_SUM_MAX_STEPS) {
            s = fail(EXPR_UNKNOWN,
                     "a loop whose work changes with its counter runs more than 65536 times", why);
            break;
        }
        if ((s = expr_eval(e->d, &local, &w, why)) != EXPR_OK)
            break;
        if (__builtin_add_overflow(total, w, &total)) {
            s = fail(EXPR_OVERFLOW, "overflow", why);
            break;
        }
        if ((s = expr_eval(e->c, &local, &v, why)) != EXPR_OK)
            break;
    }
    return s;
}

/* ---- evaluation, 32 lanes at once ---- */

#define EACH_LANE(l, m)                                                                            \
    for (uint32_t m_ = (m), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)

/* The common operators without a failure to tell, or with overflow the
 * only one, lane by lane in a tight loop; the rest through apply_binary.
 * Lanes that fail as EXPR_UNKNOWN go into *unk. */
static uint32_t binary_lanes(expr_op op, const int64_t *a, const int64_t *b, uint32_t mask,
                             int64_t *out, uint32_t *unk)
{
    uint32_t ok = 0;
    switch (op) {
    case OP_ADD:
        EACH_LANE(l, mask)
        ok |= (uint32_t)!__builtin_add_overflow(a[l], b[l], &out[l]) << l;
        return ok;
    case OP_SUB:
        EACH_LANE(l, mask)
        ok |= (uint32_t)!__builtin_sub_overflow(a[l], b[l], &out[l]) << l;
        return ok;
    case OP_MUL:
        EACH_LANE(l, mask)
        ok |= (uint32_t)!__builtin_mul_overflow(a[l], b[l], &out[l]) << l;
        return ok;
    case OP_LT:
        EACH_LANE(l, mask)
        out[l] = a[l] < b[l];
        return mask;
    case OP_LE:
        EACH_LANE(l, mask)
        out[l] = a[l] <= b[l];
        return mask;
    case OP_GT:
        EACH_LANE(l, mask)
        out[l] = a[l] > b[l];
        return mask;
    case OP_GE:
        EACH_LANE(l, mask)
        out[l] = a[l] >= b[l];
        return mask;
    case OP_EQ:
        EACH_LANE(l, mask)
        out[l] = a[l] == b[l];
        return mask;
    case OP_NE:
        EACH_LANE(l, mask)
        out[l] = a[l] != b[l];
        return mask;
    default:
        EACH_LANE(l, mask)
        {
            expr_status s = apply_binary(op, a[l], b[l], &out[l], NULL);
            ok |= (uint32_t)(s == EXPR_OK) << l;
            *unk |= (uint32_t)(s == EXPR_UNKNOWN) << l;
        }
        return ok;
    }
}

/* The lanes that succeed; *unk gets those that fail as expr_eval would
 * with EXPR_UNBOUND or EXPR_UNKNOWN (the rest fail on arithmetic). */
static uint32_t eval_lanes(const expr *e, const expr_env *envs, uint32_t mask, int64_t *out,
                           uint32_t *unk)
{
    if (!mask)
        return 0;
    if (!e) {
        *unk |= mask;
        return 0;
    }
    int64_t a[32], b[32];
    uint32_t ok = 0, ok_a, need;
    switch (e->kind) {
    case EX_CONST:
        EACH_LANE(l, mask)
        out[l] = e->value;
        return mask;
    case EX_SYM:
        if (e->builtin == SYM_NAMED && envs && e->alias) {
            /* Lanes' envs are built alike: the slot one lane found serves
             * the next, checked by the name's pointer. */
            int h = e->slot_hint;
            EACH_LANE(l, mask)
            {
                const expr_env *en = &envs[l];
                if (h < en->n_named && en->names[h] == e->alias) {
                    out[l] = en->values[h];
                    ok |= 1u << l;
                } else if (env_lookup(en, e, &out[l])) {
                    ok |= 1u << l;
                    h = e->slot_hint;
                }
            }
        } else {
            EACH_LANE(l, mask)
            ok |= (uint32_t)env_lookup(envs ? &envs[l] : NULL, e, &out[l]) << l;
        }
        *unk |= mask & ~ok;
        return ok;
    case EX_UNKNOWN:
        *unk |= mask;
        return 0;
    case EX_UNARY:
        ok_a = eval_lanes(e->a, envs, mask, a, unk);
        EACH_LANE(l, ok_a)
        {
            expr_status s = apply_unary(e->op, a[l], &out[l], NULL);
            ok |= (uint32_t)(s == EXPR_OK) << l;
            *unk |= (uint32_t)(s == EXPR_UNKNOWN) << l;
        }
        return ok;
    case EX_BINARY:
        ok_a = eval_lanes(e->a, envs, mask, a, unk);
        need = ok_a;
        if (e->op == OP_LAND || e->op == OP_LOR) {
            /* The lanes the left side decides are done: && false, || true. */
            bool decides = e->op == OP_LOR;
            EACH_LANE(l, ok_a)
            if ((a[l] != 0) == decides) {
                out[l] = decides;
                ok |= 1u << l;
                need &= ~(1u << l);
            }
        }
        uint32_t ok_b = eval_lanes(e->b, envs, need, b, unk);
        return ok | binary_lanes(e->op, a, b, ok_b, out, unk);
    case EX_COND:
        ok_a = eval_lanes(e->a, envs, mask, a, unk);
        uint32_t then = 0;
        EACH_LANE(l, ok_a)
        then |= (uint32_t)(a[l] != 0) << l;
        ok = eval_lanes(e->b, envs, then, out, unk);
        uint32_t ok_c = eval_lanes(e->c, envs, ok_a & ~then, b, unk);
        EACH_LANE(l, ok_c)
        out[l] = b[l];
        return ok | ok_c;
    case EX_SUM:
        EACH_LANE(l, mask)
        {
            expr_status s = expr_eval(e, envs ? &envs[l] : NULL, &out[l], NULL);
            ok |= (uint32_t)(s == EXPR_OK) << l;
            *unk |= (uint32_t)(s == EXPR_UNBOUND || s == EXPR_UNKNOWN) << l;
        }
        return ok;
    }
    *unk |= mask;
    return 0;
}

uint32_t expr_eval_lanes(const expr *e, const expr_env *envs, uint32_t mask, int64_t out[32])
{
    uint32_t unk = 0;
    return e ? eval_lanes(e, envs, mask, out, &unk) : 0;
}

uint32_t expr_eval_lanes_unknown(const expr *e, const expr_env *envs, uint32_t mask,
                                 int64_t out[32], uint32_t *unknown)
{
    *unknown = 0;
    uint32_t ok = eval_lanes(e, envs, mask, out, unknown);
    *unknown &= mask & ~ok;
    return ok;
}

void expr_alias_names(expr *e, const expr_env *env)
{
    if (!e || !env)
        return;
    if (e->kind == EX_SYM && e->builtin == SYM_NAMED) {
        int i = env_find(env, e->name);
        e->alias = i >= 0 ? env->names[i] : NULL;
        e->slot_hint = i >= 0 ? i : 0;
    }
    expr_alias_names(e->a, env);
    expr_alias_names(e->b, env);
    expr_alias_names(e->c, env);
    expr_alias_names(e->d, env);
}

/* ---- queries ---- */

bool expr_uses_builtin(const expr *e, expr_builtin b)
{
    if (!e)
        return false;
    if (e->kind == EX_SYM && e->builtin == b && b != SYM_NAMED)
        return true;
    return expr_uses_builtin(e->a, b) || expr_uses_builtin(e->b, b) || expr_uses_builtin(e->c, b) ||
           expr_uses_builtin(e->d, b);
}

/* e with the symbol that is builtin b (b not SYM_NAMED) or named name read
 * as that symbol + by. */
static expr *shift_symbol(const expr *e, expr_builtin b, const char *name, int64_t by)
{
    if (!e)
        return NULL;
    if (e->kind == EX_SYM && e->builtin == b &&
        (b != SYM_NAMED || (name && strcmp(e->name, name) == 0)))
        return expr_binary(OP_ADD, copy_node(e), expr_const(by));
    expr *n = copy_node(e);
    n->a = shift_symbol(e->a, b, name, by);
    n->b = shift_symbol(e->b, b, name, by);
    n->c = shift_symbol(e->c, b, name, by);
    n->d = shift_symbol(e->d, b, name, by);
    return n;
}

expr *expr_substitute_name(const expr *e, const char *name, const expr *rep)
{
    if (!e)
        return NULL;
    if (e->kind == EX_SYM && e->builtin == SYM_NAMED && strcmp(e->name, name) == 0)
        return expr_clone(rep);
    expr *n = expr_clone(e);
    /* A loop sum's own counter shadows the name: only its start sees it. */
    bool shadowed = e->kind == EX_SUM && strcmp(e->name, name) == 0;
    expr_free(n->a);
    n->a = expr_substitute_name(e->a, name, rep);
    if (shadowed)
        return n;
    expr_free(n->b);
    expr_free(n->c);
    expr_free(n->d);
    n->b = expr_substitute_name(e->b, name, rep);
    n->c = expr_substitute_name(e->c, name, rep);
    n->d = expr_substitute_name(e->d, name, rep);
    return n;
}

expr *expr_shift_name(const expr *e, const char *name, int64_t by)
{
    return shift_symbol(e, SYM_NAMED, name, by);
}

expr *expr_shift_builtin(const expr *e, expr_builtin b, int64_t by)
{
    return b == SYM_NAMED ? expr_clone(e) : shift_symbol(e, b, NULL, by);
}

bool expr_uses_thread_index(const expr *e)
{
    static const expr_builtin index[] = {SYM_TID_X, SYM_TID_Y, SYM_TID_Z,
                                         SYM_BID_X, SYM_BID_Y, SYM_BID_Z};
    for (size_t i = 0; e && i < sizeof index / sizeof *index; i++)
        if (expr_uses_builtin(e, index[i]))
            return true;
    return false;
}

bool expr_uses_name(const expr *e, const char *name)
{
    if (!e)
        return false;
    if (e->kind == EX_SYM && e->builtin == SYM_NAMED && strcmp(e->name, name) == 0)
        return true;
    return expr_uses_name(e->a, name) || expr_uses_name(e->b, name) || expr_uses_name(e->c, name) ||
           expr_uses_name(e->d, name);
}

const char *expr_first_unbound(const expr *e, const expr_env *env)
{
    if (!e)
        return NULL;
    if (e->kind == EX_SYM) {
        int64_t v;
        if (!env_lookup(env, e, &v))
            return e->builtin == SYM_NAMED ? e->name : expr_builtin_name(e->builtin);
        return NULL;
    }
    const char *n = expr_first_unbound(e->a, env);
    if (e->kind == EX_SUM) {
        /* The counter is bound inside the loop (to any value: names only). */
        expr_env local;
        if (!n && !env_with_counter(&local, env, e, 0))
            n = e->name;
        for (const expr *k = e->b; !n && k; k = k == e->b ? e->c : k == e->c ? e->d : NULL)
            n = expr_first_unbound(k, &local);
        return n;
    }
    if (!n)
        n = expr_first_unbound(e->b, env);
    if (!n)
        n = expr_first_unbound(e->c, env);
    return n;
}

const int64_t expr_probe_values[EXPR_N_PROBES] = {1, 7, 32};

void expr_unbound_syms(const expr *e, const expr_env *env, expr_sym_ref *out, int *n, int max,
                       bool *overflow)
{
    if (!e)
        return;
    int64_t v;
    if (e->kind == EX_SYM && expr_eval(e, env, &v, NULL) != EXPR_OK) {
        const char *name = e->builtin == SYM_NAMED ? e->name : expr_builtin_name(e->builtin);
        for (int i = 0; i < *n; i++)
            if (strcmp(out[i].name, name) == 0)
                return;
        if (*n >= max) {
            *overflow = true;
            return;
        }
        out[*n].builtin = e->builtin;
        out[*n].name = name;
        (*n)++;
        return;
    }
    expr_unbound_syms(e->a, env, out, n, max, overflow);
    if (e->kind == EX_SUM) {
        expr_env local;
        if (env_with_counter(&local, env, e, 0)) {
            expr_unbound_syms(e->b, &local, out, n, max, overflow);
            expr_unbound_syms(e->c, &local, out, n, max, overflow);
            expr_unbound_syms(e->d, &local, out, n, max, overflow);
        }
        return;
    }
    expr_unbound_syms(e->b, env, out, n, max, overflow);
    expr_unbound_syms(e->c, env, out, n, max, overflow);
}

/* ---- simplification ---- */

static bool is_const(const expr *e, int64_t v)
{
    return e && e->kind == EX_CONST && e->value == v;
}

/* Takes ownership of e; returns the node that replaces it. */
static expr *fold(expr *e)
{
    if (!e)
        return NULL;
    e->a = fold(e->a);
    e->b = fold(e->b);
    e->c = fold(e->c);
    e->d = fold(e->d);
    int64_t v;
    switch (e->kind) {
    case EX_SUM:
        /* Nothing left to bind: the loop's total. */
        if (!expr_first_unbound(e, NULL) && expr_eval(e, NULL, &v, NULL) == EXPR_OK) {
            expr_free(e);
            return expr_const(v);
        }
        return e;
    case EX_UNARY:
    case EX_BINARY:
        /* A subtree that evaluates without any binding is a constant. When
         * evaluation fails (division by zero) the tree is kept so that the
         * error shows up where the value is actually needed. */
        if ((!e->a || e->a->kind == EX_CONST) && (!e->b || e->b->kind == EX_CONST) &&
            expr_eval(e, NULL, &v, NULL) == EXPR_OK) {
            expr_free(e);
            return expr_const(v);
        }
        break;
    case EX_COND:
        if (e->a->kind == EX_CONST) {
            expr *keep = e->a->value ? e->b : e->c;
            if (e->a->value)
                e->b = NULL;
            else
                e->c = NULL;
            expr_free(e);
            return keep;
        }
        return e;
    default:
        return e;
    }
    if (e->kind != EX_BINARY)
        return e;
    /* Identities that never change the value nor hide an error. x * 0 is not
     * folded: x may be unbound, and the analyses must hear about it. */
    expr *keep = NULL;
    switch (e->op) {
    case OP_ADD:
    case OP_OR:
    case OP_XOR:
        if (is_const(e->a, 0))
            keep = e->b, e->b = NULL;
        else if (is_const(e->b, 0))
            keep = e->a, e->a = NULL;
        break;
    case OP_SUB:
    case OP_SHL:
    case OP_SHR:
        if (is_const(e->b, 0))
            keep = e->a, e->a = NULL;
        break;
    case OP_MUL:
        if (is_const(e->a, 1))
            keep = e->b, e->b = NULL;
        else if (is_const(e->b, 1))
            keep = e->a, e->a = NULL;
        break;
    case OP_DIV:
        if (is_const(e->b, 1))
            keep = e->a, e->a = NULL;
        break;
    case OP_LAND:
        /* C: false && x is 0 without evaluating x. */
        if (is_const(e->a, 0)) {
            expr_free(e);
            return expr_const(0);
        }
        break;
    case OP_LOR:
        if (e->a && e->a->kind == EX_CONST && e->a->value != 0) {
            expr_free(e);
            return expr_const(1);
        }
        break;
    default:
        break;
    }
    if (keep) {
        expr_free(e);
        return keep;
    }
    return e;
}

expr *expr_simplify(const expr *e)
{
    return fold(expr_clone(e));
}

static expr *substitute(const expr *e, const expr_env *env)
{
    if (!e)
        return NULL;
    int64_t v;
    if (e->kind == EX_SYM && env_lookup(env, e, &v))
        return expr_const(v);
    expr *n = copy_node(e);
    n->a = substitute(e->a, env);
    if (e->kind == EX_SUM && env && expr_env_find(env, e->name) >= 0) {
        /* The loop's own counter shadows a binding of the same name. */
        expr_env inner = *env;
        expr_env_unset(&inner, e->name);
        n->b = substitute(e->b, &inner);
        n->c = substitute(e->c, &inner);
        n->d = substitute(e->d, &inner);
        return n;
    }
    n->b = substitute(e->b, env);
    n->c = substitute(e->c, env);
    n->d = substitute(e->d, env);
    return n;
}

expr *expr_bind(const expr *e, const expr_env *env)
{
    return fold(substitute(e, env));
}

/* ---- printing ---- */

/* C precedence levels, higher binds tighter. */
enum { PREC_COND = 3, PREC_UNARY = 14, PREC_PRIMARY = 16 };

static int binary_prec(expr_op op)
{
    switch (op) {
    case OP_MUL:
    case OP_DIV:
    case OP_MOD:
        return 13;
    case OP_ADD:
    case OP_SUB:
        return 12;
    case OP_SHL:
    case OP_SHR:
        return 11;
    case OP_LT:
    case OP_LE:
    case OP_GT:
    case OP_GE:
        return 10;
    case OP_EQ:
    case OP_NE:
        return 9;
    case OP_AND:
        return 8;
    case OP_XOR:
        return 7;
    case OP_OR:
        return 6;
    case OP_LAND:
        return 5;
    case OP_LOR:
        return 4;
    case OP_MIN:
    case OP_MAX:
        return PREC_PRIMARY; /* printed as calls */
    default:
        return PREC_UNARY;
    }
}

static const char *op_text(expr_op op)
{
    static const char *const t[] = {
        [OP_NEG] = "-",  [OP_NOT] = "!",   [OP_BNOT] = "~",  [OP_ADD] = "+",  [OP_SUB] = "-",
        [OP_MUL] = "*",  [OP_DIV] = "/",   [OP_MOD] = "%",   [OP_SHL] = "<<", [OP_SHR] = ">>",
        [OP_AND] = "&",  [OP_OR] = "|",    [OP_XOR] = "^",   [OP_LT] = "<",   [OP_LE] = "<=",
        [OP_GT] = ">",   [OP_GE] = ">=",   [OP_EQ] = "==",   [OP_NE] = "!=",  [OP_LAND] = "&&",
        [OP_LOR] = "||", [OP_MIN] = "min", [OP_MAX] = "max",
    };
    return (unsigned)op < sizeof t / sizeof t[0] && t[op] ? t[op] : "?";
}

static int prec_of(const expr *e)
{
    switch (e->kind) {
    case EX_CONST:
        return e->value < 0 ? PREC_UNARY : PREC_PRIMARY;
    case EX_UNARY:
        return PREC_UNARY;
    case EX_BINARY:
        return binary_prec(e->op);
    case EX_COND:
        return PREC_COND;
    default:
        return PREC_PRIMARY;
    }
}

static bool is_bitwise_or_shift(const expr *e)
{
    return e->kind == EX_BINARY && (e->op == OP_AND || e->op == OP_OR || e->op == OP_XOR ||
                                    e->op == OP_SHL || e->op == OP_SHR);
}

static void print(sbuf *b, const expr *e);

static void print_child(sbuf *b, const expr *parent, const expr *child, bool right)
{
    if (!child) {
        sbuf_add(b, "<null>");
        return;
    }
    int pp = prec_of(parent), cp = prec_of(child);
    bool paren = cp < pp || (right && cp == pp);
    /* Not needed by C, but `a + b << 2` and `x & y + 1` are easy to misread
     * (gcc's -Wparentheses agrees): bracket a different operator inside a
     * bitwise or shift one. */
    if (!paren && parent->kind == EX_BINARY && child->kind == EX_BINARY &&
        (is_bitwise_or_shift(parent) || is_bitwise_or_shift(child)) && child->op != parent->op &&
        cp != PREC_PRIMARY)
        paren = true;
    /* `- -x` must not become `--x`; `!~x` and `-!x` need nothing. */
    if (parent->kind == EX_UNARY && parent->op == OP_NEG &&
        ((child->kind == EX_UNARY && child->op == OP_NEG) ||
         (child->kind == EX_CONST && child->value < 0)))
        paren = true;
    if (paren)
        sbuf_addc(b, '(');
    print(b, child);
    if (paren)
        sbuf_addc(b, ')');
}

static void print(sbuf *b, const expr *e)
{
    switch (e->kind) {
    case EX_CONST:
        sbuf_addf(b, "%" PRId64, e->value);
        return;
    case EX_SYM:
        sbuf_add(b, e->builtin == SYM_NAMED ? e->name : expr_builtin_name(e->builtin));
        return;
    case EX_UNKNOWN:
        sbuf_addf(b, "<unknown: %s>", e->name);
        return;
    case EX_UNARY:
        sbuf_add(b, op_text(e->op));
        print_child(b, e, e->a, false);
        return;
    case EX_BINARY:
        if (e->op == OP_MIN || e->op == OP_MAX) {
            sbuf_addf(b, "%s(", op_text(e->op));
            if (e->a)
                print(b, e->a);
            sbuf_add(b, ", ");
            if (e->b)
                print(b, e->b);
            sbuf_addc(b, ')');
            return;
        }
        print_child(b, e, e->a, false);
        sbuf_addf(b, " %s ", op_text(e->op));
        print_child(b, e, e->b, true);
        return;
    case EX_COND:
        /* The condition binds tighter than ?:, the false arm may itself be
         * a ?: (right-associative); bracket nested ?: elsewhere. */
        print_child(b, e, e->a, true);
        sbuf_add(b, " ? ");
        print_child(b, e, e->b, true);
        sbuf_add(b, " : ");
        if (e->c && e->c->kind == EX_COND)
            print(b, e->c);
        else
            print_child(b, e, e->c, false);
        return;
    case EX_SUM: {
        /* As the loop reads: sum(n = 0; n < N; n = n + 1: body). */
        const expr *part[4] = {e->a, e->b, e->c, e->d};
        static const char *const sep[4] = {"; ", "; ", ": ", ")"};
        sbuf_addf(b, "sum(%s = ", e->name);
        for (int i = 0; i < 4; i++) {
            if (i == 2)
                sbuf_addf(b, "%s = ", e->name);
            if (part[i])
                print(b, part[i]);
            sbuf_add(b, sep[i]);
        }
        return;
    }
    }
}

char *expr_to_string(const expr *e)
{
    sbuf b;
    sbuf_init(&b);
    if (e)
        print(&b, e);
    else
        sbuf_add(&b, "<null>");
    return sbuf_take(&b);
}

static const char *const builtin_names[SYM_BUILTIN_COUNT] = {
    [SYM_NAMED] = NULL,          [SYM_TID_X] = "threadIdx.x",  [SYM_TID_Y] = "threadIdx.y",
    [SYM_TID_Z] = "threadIdx.z", [SYM_BDIM_X] = "blockDim.x",  [SYM_BDIM_Y] = "blockDim.y",
    [SYM_BDIM_Z] = "blockDim.z", [SYM_BID_X] = "blockIdx.x",   [SYM_BID_Y] = "blockIdx.y",
    [SYM_BID_Z] = "blockIdx.z",  [SYM_GDIM_X] = "gridDim.x",   [SYM_GDIM_Y] = "gridDim.y",
    [SYM_GDIM_Z] = "gridDim.z",  [SYM_WARP_SIZE] = "warpSize",
};

const char *expr_builtin_name(expr_builtin b)
{
    if (b <= SYM_NAMED || b >= SYM_BUILTIN_COUNT)
        return "?";
    return builtin_names[b];
}

bool expr_builtin_from_name(const char *s, expr_builtin *out)
{
    if (!s)
        return false;
    for (int i = SYM_NAMED + 1; i < SYM_BUILTIN_COUNT; i++)
        if (strcmp(s, builtin_names[i]) == 0) {
            *out = (expr_builtin)i;
            return true;
        }
    return false;
}

const expr *expr_first_unknown(const expr *e)
{
    if (!e)
        return NULL;
    if (e->kind == EX_UNKNOWN)
        return e;
    const expr *r = expr_first_unknown(e->a);
    if (!r)
        r = expr_first_unknown(e->b);
    if (!r)
        r = expr_first_unknown(e->c);
    if (!r)
        r = expr_first_unknown(e->d);
    return r;
}
