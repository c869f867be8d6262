/* cusrc_ops: what one operation of a kernel body costs: the FLOPs of an
 * arithmetic operator, a division, a math-library call (as nvcc compiles
 * it: analysis/timing/mathcost), the tensor FLOPs and fragment traffic of a
 * wmma call, a cooperative-group reduction. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_walk.h"

/* ---- operation counts ---- */

bool wk_in_list(const char *s, const char *const *l)
{
    for (; *l; l++)
        if (strcmp(s, *l) == 0)
            return true;
    return false;
}

static const char *const transcendental[] = {
    "exp",         "expf",       "exp2",       "exp2f",      "exp10",      "exp10f",
    "expm1",       "expm1f",     "log",        "logf",       "log2",       "log2f",
    "log10",       "log10f",     "log1p",      "log1pf",     "sin",        "sinf",
    "cos",         "cosf",       "tan",        "tanf",       "sincos",     "sincosf",
    "sinpi",       "sinpif",     "cospi",      "cospif",     "asin",       "asinf",
    "acos",        "acosf",      "atan",       "atanf",      "atan2",      "atan2f",
    "sinh",        "sinhf",      "cosh",       "coshf",      "tanh",       "tanhf",
    "asinh",       "asinhf",     "acosh",      "acoshf",     "atanh",      "atanhf",
    "pow",         "powf",       "sqrt",       "sqrtf",      "rsqrt",      "rsqrtf",
    "cbrt",        "cbrtf",      "rcbrt",      "rcbrtf",     "erf",        "erff",
    "erfc",        "erfcf",      "erfinv",     "erfinvf",    "lgamma",     "lgammaf",
    "tgamma",      "tgammaf",    "hypot",      "hypotf",     "__expf",     "__exp10f",
    "__logf",      "__log2f",    "__log10f",   "__sinf",     "__cosf",     "__tanf",
    "__sincosf",   "__powf",     "__fsqrt_rn", "__fsqrt_rz", "__fsqrt_ru", "__fsqrt_rd",
    "__frsqrt_rn", "__dsqrt_rn", "__dsqrt_rz", "__dsqrt_ru", "__dsqrt_rd", "hexp",
    "hexp2",       "hexp10",     "hlog",       "hlog2",      "hlog10",     "hsin",
    "hcos",        "hsqrt",      "hrsqrt",     "hrcp",       "h2exp",      "h2exp2",
    "h2log",       "h2log2",     "h2sin",      "h2cos",      "h2sqrt",     "h2rsqrt",
    "h2rcp",       "htanh",      "h2tanh",     NULL};

static const char *const fma_names[] = {
    "fma",        "fmaf",           "__fmaf_rn",      "__fmaf_rz",      "__fmaf_ru",
    "__fmaf_rd",  "__fmaf_ieee_rn", "__fmaf_ieee_rz", "__fmaf_ieee_ru", "__fmaf_ieee_rd",
    "__fma_rn",   "__fma_rz",       "__fma_ru",       "__fma_rd",       "__hfma",
    "__hfma_sat", "__hfma_relu",    "__hfma2",        "__hfma2_sat",    "__hfma2_relu",
    NULL};

static const char *const arith_names[] = {
    "__fadd_rn", "__fadd_rz", "__fadd_ru",  "__fadd_rd",   "__fsub_rn",   "__fsub_rz",
    "__fsub_ru", "__fsub_rd", "__fmul_rn",  "__fmul_rz",   "__fmul_ru",   "__fmul_rd",
    "__fdiv_rn", "__fdiv_rz", "__fdiv_ru",  "__fdiv_rd",   "__fdividef",  "__frcp_rn",
    "__dadd_rn", "__dadd_rz", "__dadd_ru",  "__dadd_rd",   "__dsub_rn",   "__dsub_rz",
    "__dsub_ru", "__dsub_rd", "__dmul_rn",  "__dmul_rz",   "__dmul_ru",   "__dmul_rd",
    "__ddiv_rn", "__ddiv_rz", "__ddiv_ru",  "__ddiv_rd",   "__hadd",      "__hsub",
    "__hmul",    "__hdiv",    "__hadd_sat", "__hsub_sat",  "__hmul_sat",  "__hadd2",
    "__hsub2",   "__hmul2",   "__h2div",    "__hadd2_sat", "__hsub2_sat", "__hmul2_sat",
    NULL};

static int float_cat(int kind)
{
    return kind == 1 ? CNT_FP16 : kind == 3 ? CNT_FP64 : CNT_FP32;
}

/* Lanes of a packed half type: __half2, __nv_bfloat162. */
static int packed_lanes(CXType t)
{
    char *s = cn_type_spelling(clang_getCanonicalType(t));
    int n = (strstr(s, "half2") || strstr(s, "bfloat162")) ? 2 : 1;
    free(s);
    return n;
}

/* M, N, K from "nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float>". */
static bool fragment_shape(CXType t, int64_t mnk[3])
{
    char *s = cn_type_spelling(clang_getCanonicalType(clang_getNonReferenceType(t)));
    char *p = strstr(s, "fragment<");
    bool ok = false;
    if (p) {
        p = strchr(p, ',');
        int i = 0;
        while (p && i < 3) {
            char *end;
            long long v = strtoll(p + 1, &end, 10);
            if (end == p + 1)
                break;
            mnk[i++] = v;
            p = strchr(end, ',');
        }
        ok = i == 3;
    }
    free(s);
    return ok;
}

/* The byte offset, from a 16 x 16 tile's first element, of the row lane
 * (threadIdx's rank in the block, mod 32) hands ldmatrix: ptxas loads a
 * 16 x 16 fragment of 16-bit elements from shared memory with one
 * LDSM.16.M88.4 (MT88 for B; kernels/gemm.cu's gemm_wmma,
 * tests/data/timeprobe/h200/gemm), four 8 x 8 matrices whose eight
 * 16-byte rows the four quarter-warps give: rows 0-7 and 8-15 of the first
 * eight columns, then of the next eight (the PTX ISA, "ldmatrix"). Each
 * matrix is one wavefront when its rows fall in distinct banks: the bank
 * model's quarter-warp groups of a 16-byte access. */
/* threadIdx's rank in the block, mod 32: the lane of a warp. */
static expr *lane_of_thread(void)
{
    expr *yz =
        expr_binary(OP_ADD, expr_builtin_sym(SYM_TID_Y),
                    expr_binary(OP_MUL, expr_builtin_sym(SYM_TID_Z), expr_builtin_sym(SYM_BDIM_Y)));
    expr *rank = expr_binary(OP_ADD, expr_builtin_sym(SYM_TID_X),
                             expr_binary(OP_MUL, yz, expr_builtin_sym(SYM_BDIM_X)));
    return expr_binary(OP_MOD, rank, expr_const(32));
}

static expr *ldmatrix_row_offset(expr *ldm)
{
    expr *lane = lane_of_thread();
    expr *row = expr_binary(
        OP_ADD, expr_binary(OP_MOD, expr_clone(lane), expr_const(8)),
        expr_binary(OP_MUL, expr_const(8),
                    expr_binary(OP_MOD, expr_binary(OP_DIV, expr_clone(lane), expr_const(8)),
                                expr_const(2))));
    expr *col = expr_binary(OP_MUL, expr_const(8), expr_binary(OP_DIV, lane, expr_const(16)));
    return expr_binary(OP_MUL, expr_const(2),
                       expr_binary(OP_ADD, expr_binary(OP_MUL, row, ldm), col));
}

/* The byte offset, from a 16 x 16 float tile's first element, of the two
 * floats a lane stores with one STG.E.64 at (half, col_half): ptxas stores
 * a 16 x 16 float accumulator row-major as four such stores a lane, rows
 * lane / 4 and lane / 4 + 8, columns 2 (lane % 4) and that + 8 (the
 * mma.sync m16n8k16 accumulator layout; gemm_wmma's SASS in
 * tests/data/timeprobe/h200/gemm: +0x20000, eight rows of 4096 floats,
 * and +0x20, eight columns). */
static expr *accumulator_offset(expr *ldm, int half, int col_half)
{
    expr *lane = lane_of_thread();
    expr *row = expr_binary(OP_ADD, expr_binary(OP_DIV, expr_clone(lane), expr_const(4)),
                            expr_const(8 * half));
    expr *col = expr_binary(
        OP_ADD, expr_binary(OP_MUL, expr_const(2), expr_binary(OP_MOD, lane, expr_const(4))),
        expr_const(8 * col_half));
    return expr_binary(OP_MUL, expr_const(4),
                       expr_binary(OP_ADD, expr_binary(OP_MUL, row, ldm), col));
}

/* wmma::load_matrix_sync / store_matrix_sync: the bytes of the fragment's
 * tile, per thread, when the pointer is global memory; a 16 x 16 x 16
 * fragment of 16-bit operands loaded from shared memory is the ldmatrix
 * ptxas makes of it, one 16-byte shared load a lane, and a 16 x 16 float
 * accumulator stored row-major to global memory the four 8-byte stores a
 * lane it makes of that. */
static void count_wmma_io(walker *w, cnode *call, bool store)
{
    cnode *frag = cn_expr_kid(call, store ? 2 : 1);
    cnode *ptr = cn_expr_kid(call, store ? 1 : 2);
    if (!frag || !ptr)
        return;
    char *s = cn_type_spelling(clang_getCanonicalType(
        clang_getNonReferenceType(clang_getCursorType(cn_strip(frag)->cur))));
    int64_t mnk[3];
    bool ok = fragment_shape(clang_getCursorType(cn_strip(frag)->cur), mnk);
    int64_t rows = 0, cols = 0;
    if (ok && strstr(s, "matrix_a"))
        rows = mnk[0], cols = mnk[2];
    else if (ok && strstr(s, "matrix_b"))
        rows = mnk[2], cols = mnk[1];
    else if (ok && strstr(s, "accumulator"))
        rows = mnk[0], cols = mnk[1];
    bool operand = ok && !strstr(s, "accumulator");
    int64_t es = 0;
    const char *elem = s;
    /* The element type is the fifth argument: after the fourth comma. */
    for (int c = 0; c < 4 && elem; c++) {
        elem = strchr(elem, ',');
        if (elem)
            elem++;
    }
    if (elem) {
        if (strstr(elem, "half") == elem + 1 || strstr(elem, "__half") == elem + 1 ||
            strstr(elem, "bfloat16"))
            es = 2;
        else if (!strncmp(elem, " float", 6) || strstr(elem, "tf32") || !strncmp(elem, " int", 4))
            es = 4;
        else if (!strncmp(elem, " double", 7))
            es = 8;
        else if (strstr(elem, "char"))
            es = 1;
    }
    free(s);
    if (!rows || !es)
        return;
    lref r = {SP_NONE, -1, NULL, NULL, NULL};
    wk_resolve_pointer(w, ptr, &r, 0);
    cnode *ld = cn_expr_kid(call, 3);
    if (r.space == SP_SHARED && !store && operand && es == 2 && rows == 16 && cols == 16 && ld &&
        r.off) {
        r.off = expr_binary(OP_ADD, r.off, ldmatrix_row_offset(x_expr(w->f, ld)));
        wk_emit_access_at(w, ptr, &r, 16, false);
        return;
    }
    cnode *layout = store ? cn_expr_kid(call, 4) : NULL;
    char *lt = layout ? cn_text_trunc(w->t, layout->cur, 80) : NULL;
    bool row_major = lt && strstr(lt, "mem_row_major");
    free(lt);
    if (r.space == SP_GLOBAL && store && !operand && es == 4 && rows == 16 && cols == 16 && ld &&
        r.off && row_major) {
        expr *ldm = x_expr(w->f, ld);
        for (int h = 0; h < 2; h++)
            for (int c = 0; c < 2; c++) {
                lref q = {r.space, r.array, xstrdup_null(r.base),
                          expr_binary(OP_ADD, expr_clone(r.off),
                                      accumulator_offset(expr_clone(ldm), h, c)),
                          xstrdup_null(r.why)};
                wk_emit_access_at(w, ptr, &q, 8, true);
            }
        expr_free(ldm);
        wk_lref_free(&r);
        return;
    }
    if (r.space == SP_GLOBAL) {
        wk_add_count(w, store ? CNT_GST : CNT_GLD, rows * cols * es / 32);
        wk_add_count(w, CNT_GACC, 1); /* one wmma load/store per thread */
        cusrc_counts *c = &w->u->variants[w->variant].counts;
        if (!c->unsited_global) {
            src_loc l = {0};
            cn_loc(w->t, call->cur, &l);
            sbuf b;
            sbuf_init(&b);
            sbuf_addf(&b, "line %d: wmma::%s moves global memory gpulint does not place", l.line,
                      store ? "store_matrix_sync" : "load_matrix_sync");
            c->unsited_global = sbuf_take(&b);
            free(l.file);
        }
    }
    wk_lref_free(&r);
}

/* cg::reduce(tile, v, cg::plus<float>()): a tree of log2(N) steps, one
 * addition per thread per step (a shuffle and an FADD each, as the
 * toolkit's cooperative_groups/details/reduce.h does it for floating point);
 * less/greater are comparisons, not floating-point work. */
static void count_cg_reduce(walker *w, cnode *n)
{
    cnode *tile = cn_expr_kid(n, 1), *op = cn_expr_kid(n, 3);
    if (!tile || !op)
        return;
    int64_t size = 0;
    if (x_cg_kind(clang_getCursorType(cn_strip(tile)->cur), &size) != 't')
        return;
    char *os = cn_type_spelling(clang_getCanonicalType(clang_getCursorType(cn_strip(op)->cur)));
    int steps = 0;
    while (size > 1 && (1LL << steps) < size)
        steps++;
    const char *plus = strstr(os, "cooperative_groups::") ? strstr(os, "plus<") : NULL;
    if (steps && plus) {
        if (!strncmp(plus, "plus<float>", 11))
            wk_add_count(w, CNT_FP32, steps);
        else if (!strncmp(plus, "plus<double>", 12))
            wk_add_count(w, CNT_FP64, steps);
        else if (strstr(plus, "half") || strstr(plus, "bfloat16"))
            wk_add_count(w, CNT_FP16, steps);
    }
    free(os);
}

/* The first call whose FLOPs are not exact, in the kernel's counts
 * (cusrc_counts.flops_estimate). */
static void note_flops(walker *w, cnode *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void note_flops(walker *w, cnode *at, const char *fmt, ...)
{
    cusrc_counts *k = &w->u->variants[w->variant].counts;
    if (k->flops_estimate || w->no_flops)
        return;
    src_loc l = {0};
    cn_loc(w->t, at->cur, &l);
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "line %d: ", l.line);
    va_list ap;
    va_start(ap, fmt);
    sbuf_vaddf(&b, fmt, ap);
    va_end(ap);
    k->flops_estimate = sbuf_take(&b);
    free(l.file);
}

/* A division or a math call counted as the instructions nvcc compiles it
 * into (analysis/timing/mathcost). False when gpulint has no measurement. */
static bool count_compiled(walker *w, cnode *at, const char *op, bool fp64)
{
    math_cost c;
    if (!mathcost_find(op, fp64, w->t->math, &c))
        return false;
    wk_add_count(w, CNT_FP32, (int64_t)floor(c.fp32_lo));
    wk_add_count(w, CNT_FP64, (int64_t)floor(c.fp64_lo));
    if (c.fp32_hi > c.fp32_lo || c.fp64_hi > c.fp64_lo) {
        bool p64 = c.fp64_hi > 0;
        double lo = p64 ? c.fp64_lo : c.fp32_lo, hi = p64 ? c.fp64_hi : c.fp32_hi;
        note_flops(w, at,
                   "%s runs %g to %g FP%d FLOPs depending on its argument (measured); "
                   "counted as %g",
                   op, lo, hi, p64 ? 64 : 32, floor(lo));
    }
    return true;
}

/* The name a call's table row has: exp() on a float is expf. */
static bool count_math_call(walker *w, cnode *n, const char *name, int fk)
{
    if (fk == 1)
        return false; /* half and bfloat16: not measured */
    if (fk == 2) {
        size_t len = strlen(name);
        char f[64];
        if (len + 2 <= sizeof f && (len == 0 || name[len - 1] != 'f')) {
            snprintf(f, sizeof f, "%sf", name);
            if (count_compiled(w, n, f, false))
                return true;
        }
    }
    return count_compiled(w, n, name, fk == 3);
}

static void count_call(walker *w, cnode *n)
{
    CXCursor fn = clang_getCursorReferenced(n->cur);
    if (clang_Cursor_isNull(fn))
        return;
    char *name = cn_spelling(fn);
    CXType rt = clang_getCursorType(n->cur);
    int fk = cn_float_kind(rt);
    if (strcmp(name, "reduce") == 0) {
        count_cg_reduce(w, n);
    } else if (strcmp(name, "load_matrix_sync") == 0 || strcmp(name, "store_matrix_sync") == 0) {
        count_wmma_io(w, n, name[0] == 's');
    } else if (strcmp(name, "mma_sync") == 0) {
        cnode *d = cn_expr_kid(n, 1);
        int64_t mnk[3];
        if (d && fragment_shape(clang_getCursorType(cn_strip(d)->cur), mnk))
            wk_add_count(w, CNT_TENSOR, 2 * mnk[0] * mnk[1] * mnk[2] / 32);
    } else if (wk_in_list(name, fma_names)) {
        cnode *a = cn_expr_kid(n, 1);
        int k = fk ? fk : (a ? cn_float_kind(clang_getCursorType(a->cur)) : 2);
        wk_add_count(w, float_cat(k ? k : 2), 2 * packed_lanes(rt));
    } else if (wk_in_list(name, arith_names)) {
        if (!count_math_call(w, n, name, fk))
            wk_add_count(w, float_cat(fk ? fk : 2), packed_lanes(rt));
    } else if (wk_in_list(name, transcendental)) {
        wk_add_count(w, fk == 3 ? CNT_TR64 : CNT_TR32, packed_lanes(rt));
        if (!count_math_call(w, n, name, fk))
            note_flops(w, n,
                       "the instructions %s compiles into are not measured (analysis/mathcost): "
                       "its FADD/FMUL/FFMA are not in the FLOPs",
                       name);
    } else if (strncmp(name, "operator", 8) == 0 && fk == 1) {
        const char *op = name + 8;
        if (!strcmp(op, "+") || !strcmp(op, "-") || !strcmp(op, "*") || !strcmp(op, "/") ||
            !strcmp(op, "+=") || !strcmp(op, "-=") || !strcmp(op, "*=") || !strcmp(op, "/="))
            if (cn_n_expr_kids(n) >= 2)
                wk_add_count(w, CNT_FP16, packed_lanes(rt));
    }
    free(name);
}

/* A floating-point expression the compiler folds to a constant:
 * `sqrtf(2.0f / M_PI)` in a GELU is one number in the PTX, not a division
 * and a square root per element. Literals, const variables initialised by
 * such expressions, arithmetic on them and math functions of them (nvcc
 * folds sqrtf, expf... of constants). */
bool wk_folds(walker *w, cnode *n, int depth)
{
    n = cn_strip_casts(n);
    if (!n || depth > 24)
        return false;
    switch (n->kind) {
    case CXCursor_FloatingLiteral:
    case CXCursor_IntegerLiteral:
        return true;
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(n->cur);
        if (d.kind == CXCursor_EnumConstantDecl || d.kind == CXCursor_NonTypeTemplateParameter)
            return true;
        if (d.kind != CXCursor_VarDecl || !clang_isConstQualifiedType(clang_getCursorType(d)))
            return false;
        var_info *v = fn_var(w->f, d);
        if (v && v->init)
            return !v->n_assigns && wk_folds(w, v->init, depth + 1);
        /* A namespace-scope constant: clang's own evaluation decides. */
        CXEvalResult r = clang_Cursor_Evaluate(n->cur);
        bool c = r && (clang_EvalResult_getKind(r) == CXEval_Float ||
                       clang_EvalResult_getKind(r) == CXEval_Int);
        if (r)
            clang_EvalResult_dispose(r);
        return c;
    }
    case CXCursor_UnaryOperator:
        return n->n_kids == 1 &&
               clang_getCursorUnaryOperatorKind(n->cur) != CXUnaryOperator_Deref &&
               wk_folds(w, n->kids[0], depth + 1);
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(n->cur);
        return n->n_kids == 2 && k < CXBinaryOperator_Assign &&
               wk_folds(w, n->kids[0], depth + 1) && wk_folds(w, n->kids[1], depth + 1);
    }
    case CXCursor_CallExpr: {
        char *name = cn_ref_name(n->cur);
        bool math = wk_in_list(name, transcendental) || wk_in_list(name, fma_names);
        free(name);
        if (!math)
            return false;
        for (int i = 1; i < cn_n_expr_kids(n); i++)
            if (!wk_folds(w, cn_expr_kid(n, i), depth + 1))
                return false;
        return cn_n_expr_kids(n) > 1;
    }
    default:
        return false;
    }
}

/* A float or double division as nvcc compiles it: 1 / b is a reciprocal,
 * a power-of-two divisor a multiplication, another constant divisor still
 * the full division (IEEE rounding keeps it), else the division. */
static bool count_division(walker *w, cnode *n, enum CXBinaryOperatorKind k, int fk)
{
    cnode *num = n->n_kids == 2 ? n->kids[0] : NULL, *den = n->n_kids == 2 ? n->kids[1] : NULL;
    if (!num || !den)
        return false;
    bool fp64 = fk == 3;
    if (k == CXBinaryOperator_Div && wk_folds(w, num, 0)) {
        CXEvalResult r = clang_Cursor_Evaluate(cn_strip_casts(num)->cur);
        bool one = r && clang_EvalResult_getKind(r) == CXEval_Float
                       ? clang_EvalResult_getAsDouble(r) == 1.0
                       : r && clang_EvalResult_getKind(r) == CXEval_Int &&
                             clang_EvalResult_getAsLongLong(r) == 1;
        if (r)
            clang_EvalResult_dispose(r);
        if (one)
            return count_compiled(w, n, "rcp", fp64);
    }
    if (!wk_folds(w, den, 0))
        return count_compiled(w, n, "div", fp64);
    CXEvalResult r = clang_Cursor_Evaluate(cn_strip_casts(den)->cur);
    double v = 0;
    if (r && clang_EvalResult_getKind(r) == CXEval_Float)
        v = clang_EvalResult_getAsDouble(r);
    else if (r && clang_EvalResult_getKind(r) == CXEval_Int)
        v = (double)clang_EvalResult_getAsLongLong(r);
    if (r)
        clang_EvalResult_dispose(r);
    int e;
    if (v != 0 && fabs(frexp(v, &e)) == 0.5)
        return false; /* exact reciprocal: one multiplication */
    return count_compiled(w, n, "div_const", fp64);
}

void wk_count_ops(walker *w, cnode *n)
{
    switch (n->kind) {
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(n->cur);
        bool arith = k == CXBinaryOperator_Add || k == CXBinaryOperator_Sub ||
                     k == CXBinaryOperator_Mul || k == CXBinaryOperator_Div ||
                     k == CXBinaryOperator_AddAssign || k == CXBinaryOperator_SubAssign ||
                     k == CXBinaryOperator_MulAssign || k == CXBinaryOperator_DivAssign;
        int fk = cn_float_kind(clang_getCursorType(n->cur));
        if (n->kind == CXCursor_CompoundAssignOperator && n->n_kids == 2) {
            /* `f += d` with a double d adds in double, then converts. */
            int rk = cn_float_kind(clang_getCursorType(cn_strip(n->kids[1])->cur));
            if (rk > fk)
                fk = rk;
        }
        bool div = k == CXBinaryOperator_Div || k == CXBinaryOperator_DivAssign;
        if (arith && fk && !(div && fk != 1 && count_division(w, n, k, fk)))
            wk_add_count(w, float_cat(fk), 1);
        break;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(n->cur);
        if ((k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec ||
             k == CXUnaryOperator_PreInc || k == CXUnaryOperator_PreDec)) {
            int fk = cn_float_kind(clang_getCursorType(n->cur));
            if (fk)
                wk_add_count(w, float_cat(fk), 1);
        }
        break;
    }
    case CXCursor_CallExpr:
        count_call(w, n);
        break;
    default:
        break;
    }
}

bool wk_pure_call(cnode *n)
{
    char *name = cn_ref_name(n->cur);
    bool pure = name && (wk_in_list(name, transcendental) || wk_in_list(name, fma_names) ||
                         wk_in_list(name, arith_names));
    free(name);
    return pure;
}

bool wk_load_intrinsic(cnode *n)
{
    static const char *const loads[] = {"__ldg",  "__ldcg", "__ldca", "__ldcs",
                                        "__ldlu", "__ldcv", NULL};
    char *name = cn_ref_name(n->cur);
    bool load = name && wk_in_list(name, loads);
    free(name);
    return load;
}

cnode *wk_assign_target(cnode *n)
{
    switch (n->kind) {
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(n->cur);
        return k >= CXBinaryOperator_Assign && k != CXBinaryOperator_Comma && n->n_kids == 2
                   ? n->kids[0]
                   : NULL;
    }
    case CXCursor_CompoundAssignOperator:
        return n->n_kids == 2 ? n->kids[0] : NULL;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(n->cur);
        bool step = k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec ||
                    k == CXUnaryOperator_PreInc || k == CXUnaryOperator_PreDec;
        return step && n->n_kids == 1 ? n->kids[0] : NULL;
    }
    default:
        return NULL;
    }
}

/* A subscript of a pointer declared __restrict__: only it reaches the
 * element, so no other pointer's load or store can change it. */
bool wk_restrict_element(const cnode *t)
{
    if (!t || t->kind != CXCursor_ArraySubscriptExpr || t->n_kids != 2)
        return false;
    const cnode *b = cn_strip_casts((cnode *)t->kids[0]);
    if (!b || b->kind != CXCursor_DeclRefExpr)
        return false;
    CXType pt = clang_getCanonicalType(clang_getCursorType(clang_getCursorReferenced(b->cur)));
    return pt.kind == CXType_Pointer && clang_isRestrictQualifiedType(pt);
}

/* What `a[i][j]` subscripts (`a`), through at most eight subscripts; t
 * itself where it is no subscript. */
cnode *wk_subscript_base(cnode *t)
{
    cnode *b = t;
    for (int depth = 0; b && b->kind == CXCursor_ArraySubscriptExpr && b->n_kids == 2 && depth < 8;
         depth++)
        b = cn_strip_casts(b->kids[0]);
    return b;
}

/* An element of an array the function declares for each thread
 * (`Real_t hourgam[8][4];`: not static, not __shared__): no object a
 * __restrict__ pointer reaches, so a store to it changes none of that
 * pointer's elements (C11 6.7.3.1). lulesh's fb (HeCBench, fitting half)
 * fills such an array in a loop over four modes that reads x8n[i3 + j]
 * each pass; ptxas loads them once (115 load requests a warp measured,
 * not the 288 of one each pass). */
bool wk_thread_array_element(cnode *t)
{
    cnode *b = wk_subscript_base(t);
    if (b == t || !b || b->kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor d = clang_getCursorReferenced(b->cur);
    if (d.kind != CXCursor_VarDecl || !cn_is_array_type(clang_getCursorType(d)))
        return false;
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(d);
    enum CXCursorKind owner = clang_getCursorSemanticParent(d).kind;
    return sc != CX_SC_Static && sc != CX_SC_Extern && !cn_has_attr(d, CXCursor_CUDASharedAttr) &&
           (owner == CXCursor_FunctionDecl || owner == CXCursor_FunctionTemplate ||
            owner == CXCursor_CXXMethod);
}
