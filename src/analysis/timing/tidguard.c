/* tidguard: the warps that take each way of a branch on the thread index
 * (see tidguard.h). */
#include "analysis/timing/tidguard.h"

#include <string.h>

#define TG_MAX_NODES 24
#define TG_MAX_THREADS 1024

typedef enum {
    TG_TID_X,
    TG_LANE,
    TG_CONST,
    TG_ADD,
    TG_SUB,
    TG_MUL,
    TG_AND,
    TG_OR,
    TG_XOR,
    TG_SHL,
    TG_SHR
} tg_kind;

typedef struct {
    tg_kind kind;
    int64_t value; /* TG_CONST */
    int a, b;      /* operands' nodes */
} tg_node;

typedef struct {
    const imix_insn *insns;
    size_t n;
    tg_node node[TG_MAX_NODES];
    int n_nodes;
} tg_tree;

static bool op_is(const char *op, const char *m)
{
    return strncmp(op, m, strlen(m)) == 0;
}

/* The one instruction that writes reg, unguarded; -1 where none or several
 * do (a loop's counter, a value set in two arms). */
static long unique_def(const tg_tree *t, uint32_t reg)
{
    long at = -1;
    for (size_t i = 0; i < t->n; i++)
        for (int d = 0; d < IMIX_DST && t->insns[i].dst[d]; d++)
            if (t->insns[i].dst[d] == reg) {
                if (at >= 0 || t->insns[i].guarded || d > 0)
                    return -1;
                at = (long)i;
            }
    return at;
}

static int n_src(const imix_insn *in)
{
    int k = 0;
    while (k < IMIX_SRC && in->src[k])
        k++;
    return k;
}

static int leaf(tg_tree *t, tg_kind kind, int64_t value)
{
    if (t->n_nodes == TG_MAX_NODES)
        return -1;
    t->node[t->n_nodes] = (tg_node){kind, value, -1, -1};
    return t->n_nodes++;
}

static int build(tg_tree *t, uint32_t reg, int depth);

static int binary(tg_tree *t, tg_kind kind, const imix_insn *in, int depth)
{
    int ns = n_src(in), a, b;
    if (ns == 2) {
        a = build(t, in->src[0], depth + 1);
        b = build(t, in->src[1], depth + 1);
    } else if (ns == 1 && in->has_imm && kind != TG_SUB) {
        /* The immediate is the second operand: LLVM puts an operation's
         * constant on the right, and a shift's amount is its second. */
        a = build(t, in->src[0], depth + 1);
        b = leaf(t, TG_CONST, in->imm);
    } else {
        return -1;
    }
    if (a < 0 || b < 0 || t->n_nodes == TG_MAX_NODES)
        return -1;
    t->node[t->n_nodes] = (tg_node){kind, 0, a, b};
    return t->n_nodes++;
}

static int build(tg_tree *t, uint32_t reg, int depth)
{
    static const struct {
        const char *op;
        tg_kind kind;
    } ops[] = {{"add.s", TG_ADD},   {"add.u", TG_ADD},     {"sub.s", TG_SUB}, {"sub.u", TG_SUB},
               {"mul.lo.", TG_MUL}, {"mul.wide.", TG_MUL}, {"and.b", TG_AND}, {"or.b", TG_OR},
               {"xor.b", TG_XOR},   {"shl.b", TG_SHL},     {"shr.u", TG_SHR}, {"shr.b", TG_SHR},
               {"shr.s", TG_SHR}};
    if (depth > 12)
        return -1;
    if (reg == imix_reg_hash("tid.x", 5))
        return leaf(t, TG_TID_X, 0);
    if (reg == imix_reg_hash("laneid", 6))
        return leaf(t, TG_LANE, 0);
    long at = unique_def(t, reg);
    if (at < 0)
        return -1;
    const imix_insn *in = &t->insns[at];
    int ns = n_src(in);
    if (op_is(in->op, "mov.") || op_is(in->op, "cvt.u") || op_is(in->op, "cvt.s")) {
        if (ns == 1)
            return build(t, in->src[0], depth + 1);
        return ns == 0 && in->has_imm && op_is(in->op, "mov.") ? leaf(t, TG_CONST, in->imm) : -1;
    }
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (op_is(in->op, ops[k].op))
            return binary(t, ops[k].kind, in, depth);
    return -1;
}

static int64_t eval(const tg_tree *t, int k, int64_t tid_x, int64_t lane)
{
    const tg_node *n = &t->node[k];
    switch (n->kind) {
    case TG_TID_X:
        return tid_x;
    case TG_LANE:
        return lane;
    case TG_CONST:
        return n->value;
    default:
        break;
    }
    int64_t a = eval(t, n->a, tid_x, lane), b = eval(t, n->b, tid_x, lane);
    switch (n->kind) {
    case TG_ADD:
        return a + b;
    case TG_SUB:
        return a - b;
    case TG_MUL:
        return a * b;
    case TG_AND:
        return a & b;
    case TG_OR:
        return a | b;
    case TG_XOR:
        return a ^ b;
    case TG_SHL:
        return b >= 0 && b < 63 ? (int64_t)((uint64_t)a << b) : 0;
    default: /* TG_SHR: the index and what is made of it are not negative */
        return b >= 0 && b < 63 ? a >> b : 0;
    }
}

/* -1, 0 or 1 as a is below, at or above b, compared as PTX type type
 * compares them ("u32": unsigned, the low 32 bits); 2 for a type it does
 * not know. */
static int order(const char *type, int64_t a, int64_t b)
{
    if (!strcmp(type, "u32") || !strcmp(type, "b32"))
        return (uint32_t)a < (uint32_t)b ? -1 : (uint32_t)a > (uint32_t)b;
    if (!strcmp(type, "s32"))
        return (int32_t)a < (int32_t)b ? -1 : (int32_t)a > (int32_t)b;
    if (!strcmp(type, "u64") || !strcmp(type, "b64"))
        return (uint64_t)a < (uint64_t)b ? -1 : (uint64_t)a > (uint64_t)b;
    if (!strcmp(type, "s64"))
        return a < b ? -1 : a > b;
    return 2;
}

/* setp's comparison and operand type: "setp.gt.u32". */
static bool compare(const char *op, int64_t a, int64_t b, bool *out)
{
    const char *cmp = op + 5, *type = strchr(cmp, '.');
    if (!type)
        return false;
    int o = order(type + 1, a, b);
    if (o == 2)
        return false;
    /* lo, ls, hi and hs are the unsigned names of lt, le, gt and ge. */
    static const char *const names[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
    const bool holds[] = {o == 0, o != 0, o<0, o <= 0, o> 0, o >= 0, o<0, o <= 0, o> 0, o >= 0};
    size_t len = (size_t)(type - cmp);
    for (int k = 0; k < 10; k++)
        if (strlen(names[k]) == len && !strncmp(cmp, names[k], len)) {
            *out = holds[k];
            return true;
        }
    return false;
}

bool tidguard_shares(const imix_insn *insns, size_t n, size_t at, const int64_t block[3],
                     double *taken, double *through)
{
    if (!block || at >= n || !insns[at].guarded || !insns[at].src[0])
        return false;
    int64_t bx = block[0], threads = block[0] * block[1] * block[2];
    if (bx <= 0 || block[1] <= 0 || block[2] <= 0 || threads > TG_MAX_THREADS)
        return false;
    tg_tree t = {.insns = insns, .n = n};
    long def = unique_def(&t, insns[at].src[0]);
    if (def < 0)
        return false;
    const imix_insn *setp = &insns[def];
    /* A comparison alone: no second predicate out, no predicate folded in
     * (`setp.lt.and.s32`). */
    if (!op_is(setp->op, "setp.") || setp->dst[1] || strstr(setp->op, ".and.") ||
        strstr(setp->op, ".or.") || strstr(setp->op, ".xor."))
        return false;
    int ns = n_src(setp), a = -1, b = -1;
    if (ns == 2) {
        a = build(&t, setp->src[0], 0);
        b = build(&t, setp->src[1], 0);
    } else if (ns == 1 && setp->has_imm) {
        a = build(&t, setp->src[0], 0);
        b = leaf(&t, TG_CONST, setp->imm);
    }
    if (a < 0 || b < 0)
        return false;
    int64_t warps = (threads + 31) / 32, n_taken = 0, n_through = 0;
    for (int64_t w = 0; w < warps; w++) {
        bool any_taken = false, any_through = false;
        for (int64_t lin = w * 32; lin < threads && lin < (w + 1) * 32; lin++) {
            bool p;
            if (!compare(setp->op, eval(&t, a, lin % bx, lin % 32), eval(&t, b, lin % bx, lin % 32),
                         &p))
                return false;
            if (p != insns[at].guard_negated)
                any_taken = true;
            else
                any_through = true;
        }
        n_taken += any_taken;
        n_through += any_through;
    }
    *taken = (double)n_taken / (double)warps;
    *through = (double)n_through / (double)warps;
    return true;
}
