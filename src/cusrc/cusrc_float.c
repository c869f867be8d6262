/* cusrc_float: host floating-point sizes computed as the program computes
 * them. `float t = log((float)n) / log((float)b); unsigned pass =
 * (unsigned)t;` is a count of passes: each operation is rounded to its own
 * type and each math call is the C library's function of that type (logf
 * for a float, log for a double), the one the host code calls, so that
 * a truncation lands where the program's does. Device code is left out:
 * its math functions are not the C library's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

bool x_rounding_call(const char *name, bool *up)
{
    static const char *const ups[] = {"ceil", "ceilf", "__builtin_ceil", "__builtin_ceilf", NULL};
    static const char *const downs[] = {"floor", "floorf", "__builtin_floor", "__builtin_floorf",
                                        NULL};
    *up = cn_name_in(name, ups);
    return *up || cn_name_in(name, downs);
}

/* A floating-point expression of constants, computed as the compiled code
 * computes it: each operation rounded to its own type (float or double).
 * Host code sizes grids this way: `(size_t)(ceil((float)M) / (float)256)`. */
/* A host call of the C library's math (log, pow, fabs...) on constants:
 * the function of the call's type, as the host code calls it (std::log of
 * a float is logf). */
static bool host_libm(fn_ctx *f, cnode *call, const char *name, int kind, int depth, double *v)
{
    static const char *const one[] = {"log", "log10", "exp", "exp2", "fabs", "log2", NULL};
    char base[16];
    size_t len = strlen(name);
    if (len == 0 || len >= sizeof base)
        return false;
    memcpy(base, name, len + 1);
    if (kind == 2 && base[len - 1] == 'f')
        base[len - 1] = 0; /* logf called by its own name */
    bool pow2 = !strcmp(base, "pow");
    int nargs = cn_n_expr_kids(call) - 1;
    if ((!pow2 && !cn_name_in(base, one)) || nargs != (pow2 ? 2 : 1))
        return false;
    double a, b = 0;
    if (!x_float_value(f, cn_expr_kid(call, 1), depth + 1, &a) ||
        (pow2 && !x_float_value(f, cn_expr_kid(call, 2), depth + 1, &b)))
        return false;
    bool fl = kind == 2;
    if (pow2)
        *v = fl ? powf((float)a, (float)b) : pow(a, b);
    else if (!strcmp(base, "log"))
        *v = fl ? logf((float)a) : log(a);
    else if (!strcmp(base, "log10"))
        *v = fl ? log10f((float)a) : log10(a);
    else if (!strcmp(base, "log2"))
        *v = fl ? log2f((float)a) : log2(a);
    else if (!strcmp(base, "exp"))
        *v = fl ? expf((float)a) : exp(a);
    else if (!strcmp(base, "exp2"))
        *v = fl ? exp2f((float)a) : exp2(a);
    else
        *v = fabs(a);
    return true;
}

/* Whether a constructor of the field's class names it in its initializer
 * list, or may (one defined in another file). */
typedef struct ctor_scan {
    CXCursor field;
    bool named;
} ctor_scan;

static enum CXChildVisitResult names_field(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    ctor_scan *s = data;
    if (c.kind == CXCursor_MemberRef && clang_equalCursors(clang_getCursorReferenced(c), s->field))
        s->named = true;
    return s->named ? CXChildVisit_Break : CXChildVisit_Continue;
}

static enum CXChildVisitResult ctor_names(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    ctor_scan *s = data;
    if (c.kind != CXCursor_Constructor)
        return CXChildVisit_Continue;
    CXCursor def = clang_getCursorDefinition(c);
    if (clang_Cursor_isNull(def))
        s->named = true;
    else
        clang_visitChildren(def, names_field, s);
    return s->named ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* A const field's in-class initializer (`const float hi = 69.12;`): the
 * field's value in every object, since a const member is set only by a
 * constructor's initializer list or this, and no constructor names it. */
static bool const_field(fn_ctx *f, CXCursor field, int depth, double *v)
{
    if (field.kind != CXCursor_FieldDecl || !clang_isConstQualifiedType(clang_getCursorType(field)))
        return false;
    ctor_scan s = {field, false};
    clang_visitChildren(clang_getCursorSemanticParent(field), ctor_names, &s);
    if (s.named)
        return false;
    cnode *tree = cn_build(field), *init = cn_field_init(tree);
    bool ok = init && x_float_value(f, init, depth + 1, v);
    cn_free(tree);
    return ok;
}

/* Whether the object whose member n reads got its const members from its
 * class: *this while a constructor call is followed, or a local built by
 * a constructor other than a copy (`Params p;`, `Params p(argc, argv)`)
 * or by empty braces. A brace list on an aggregate (`Params p{2.0f}`)
 * sets members in order, and a copy holds another object's. */
static bool initialised_by_class(fn_ctx *f, cnode *n)
{
    cnode *base = n->n_kids ? cn_strip(n->kids[0]) : NULL;
    if (!base || base->kind == CXCursor_CXXThisExpr)
        return f->t->constructing > 0;
    var_info *v =
        base->kind == CXCursor_DeclRefExpr ? fn_var(f, clang_getCursorReferenced(base->cur)) : NULL;
    if (!v || v->is_param)
        return false;
    cnode *init = cn_strip(v->init);
    if (!init)
        return true;
    if (init->kind == CXCursor_InitListExpr)
        return init->n_kids == 0;
    CXCursor ctor = clang_getCursorReferenced(init->cur);
    return init->kind == CXCursor_CallExpr && ctor.kind == CXCursor_Constructor &&
           !clang_CXXConstructor_isCopyConstructor(ctor) &&
           !clang_CXXConstructor_isMoveConstructor(ctor);
}

bool x_float_value(fn_ctx *f, cnode *n, int depth, double *out)
{
    n = cn_strip(n);
    if (!n || depth > 16)
        return false;
    CXType t = clang_getCursorType(n->cur);
    int kind = cn_float_kind(t);
    if (kind == 0 && cn_type_is_integral(t)) {
        int64_t i;
        bool ok = x_int_constant(f, n, &i);
        if (ok)
            *out = (double)i;
        return ok;
    }
    if (kind < 2)
        return false;
    double v = 0, w = 0;
    switch (n->kind) {
    case CXCursor_FloatingLiteral: {
        CXEvalResult r = clang_Cursor_Evaluate(n->cur);
        bool ok = r && clang_EvalResult_getKind(r) == CXEval_Float;
        if (ok)
            v = clang_EvalResult_getAsDouble(r);
        if (r)
            clang_EvalResult_dispose(r);
        if (!ok)
            return false;
        break;
    }
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
        if (!x_float_value(f, cn_expr_kid(n, cn_n_expr_kids(n) - 1), depth + 1, &v))
            return false;
        break;
    case CXCursor_DeclRefExpr: {
        CXCursor ref = clang_getCursorReferenced(n->cur);
        if (ref.kind == CXCursor_ParmDecl) {
            for (bind_frame *fr = f->bindings; fr; fr = fr->up)
                for (int i = 0; i < fr->n; i++)
                    if (fr->b[i].has_fvalue && clang_equalCursors(fr->b[i].parm, ref)) {
                        *out = fr->b[i].fvalue;
                        return true;
                    }
            return false;
        }
        /* A local set once (`double gb = atof(argv[2]);`): its initializer. */
        var_info *lv = f->device ? NULL : fn_var(f, ref);
        if (!lv || lv->is_param || lv->addr_taken || lv->n_assigns || !lv->init ||
            !x_float_value(f, lv->init, depth + 1, &v))
            return false;
        break;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(n->cur);
        if ((k != CXUnaryOperator_Minus && k != CXUnaryOperator_Plus) || n->n_kids != 1 ||
            !x_float_value(f, n->kids[0], depth + 1, &v))
            return false;
        if (k == CXUnaryOperator_Minus)
            v = -v;
        break;
    }
    case CXCursor_MemberRefExpr:
        if (f->device || !initialised_by_class(f, n) ||
            !const_field(f, clang_getCursorReferenced(n->cur), depth, &v))
            return false;
        break;
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(n->cur);
        if (n->n_kids != 2 || !x_float_value(f, n->kids[0], depth + 1, &v) ||
            !x_float_value(f, n->kids[1], depth + 1, &w))
            return false;
        if (kind == 2) { /* float operands: the operation is done in float */
            v = (float)v;
            w = (float)w;
        }
        if (k == CXBinaryOperator_Add)
            v = v + w;
        else if (k == CXBinaryOperator_Sub)
            v = v - w;
        else if (k == CXBinaryOperator_Mul)
            v = v * w;
        else if (k == CXBinaryOperator_Div && w != 0)
            v = v / w;
        else
            return false;
        break;
    }
    case CXCursor_CallExpr: {
        char *name = cn_spelling(clang_getCursorReferenced(n->cur));
        static const char *const floats[] = {"atof", "strtod", "strtof", "stof", "stod", NULL};
        int k = f->t->run_args && cn_name_in(name, floats) && cn_n_expr_kids(n) >= 2
                    ? x_argv_index(f, cn_expr_kid(n, 1), 0)
                    : 0;
        if (k > 0 && k <= f->t->n_run_args) {
            free(name);
            v = strtod(f->t->run_args[k - 1], NULL);
            break;
        }
        if (!f->device && host_libm(f, n, name, kind, depth, &v)) {
            free(name);
            break;
        }
        bool up, round = x_rounding_call(name, &up);
        bool root = !strcmp(name, "sqrt") || !strcmp(name, "sqrtf");
        bool lg2 = !strcmp(name, "log2") || !strcmp(name, "log2f") || !strcmp(name, "__log2f") ||
                   !strcmp(name, "__nv_fast_log2f") || !strcmp(name, "__nv_log2f") ||
                   !strcmp(name, "__nv_log2");
        free(name);
        if ((!round && !root && !lg2) || cn_n_expr_kids(n) != 2 ||
            !x_float_value(f, cn_expr_kid(n, 1), depth + 1, &v))
            return false;
        if (lg2) {
            /* Exact only for a power of two (MUFU.LG2 and log2f return the
             * integer there); any other value is left unknown. */
            int e;
            if (!(v > 0) || frexp(v, &e) != 0.5)
                return false;
            v = e - 1;
            break;
        }
        v = root ? sqrt(v) : up ? ceil(v) : floor(v);
        break;
    }
    default:
        return false;
    }
    *out = kind == 2 ? (double)(float)v : v;
    return isfinite(*out);
}

/* (int)x of a constant floating-point x: truncation, as C converts. */
bool x_truncated_float(fn_ctx *f, cnode *kid, int64_t *out)
{
    double v;
    cnode *k = cn_strip(kid);
    if (!k || !cn_float_kind(clang_getCursorType(k->cur)) || !x_float_value(f, k, 0, &v) ||
        fabs(v) >= 9.0e15)
        return false;
    *out = (int64_t)v;
    return true;
}

/* An integer operand of a double expression: a constant float_value
 * computes exactly, or the integer under the conversions (`(double)rows`). */
static expr *int_operand(fn_ctx *f, cnode *n)
{
    double v;
    if (x_float_value(f, n, 0, &v))
        return v == floor(v) && fabs(v) < 9.0e15 ? expr_const((int64_t)v) : NULL;
    for (int d = 0; (n = cn_strip(n)) && d < 8; d++) {
        if (cn_type_is_integral(clang_getCursorType(n->cur)))
            return f->t->obj_eval->value_of(f, n);
        if (n->kind != CXCursor_CStyleCastExpr && n->kind != CXCursor_CXXStaticCastExpr &&
            n->kind != CXCursor_CXXFunctionalCastExpr)
            return NULL;
        n = cn_expr_kid(n, cn_n_expr_kids(n) - 1);
    }
    return NULL;
}

/* ceil((double)n / 128.0) of a runtime n, the part float_value cannot
 * compute: only a double quotient becomes integer division, since a double
 * holds the quotient of two 32-bit sizes closely enough that its ceiling is
 * the integer one; a float does not (ceil(16777217.0f / 1) is 16777216),
 * and the value stays unknown. */
expr *x_rounded_quotient(fn_ctx *f, cnode *arg, bool up)
{
    cnode *q = cn_strip(arg);
    if (!q || cn_float_kind(clang_getCursorType(q->cur)) != 3)
        return NULL;
    if (q->kind != CXCursor_BinaryOperator || q->n_kids != 2 ||
        clang_getCursorBinaryOperatorKind(q->cur) != CXBinaryOperator_Div)
        return int_operand(f, q); /* ceil of an integer is itself */
    expr *a = int_operand(f, q->kids[0]);
    expr *b = a ? int_operand(f, q->kids[1]) : NULL;
    if (!a || !b) {
        expr_free(a);
        return NULL;
    }
    /* Sizes are not negative: floor is C's division, ceil rounds up. */
    expr *num = up ? expr_binary(OP_SUB, expr_binary(OP_ADD, a, expr_clone(b)), expr_const(1)) : a;
    return expr_binary(OP_DIV, num, b);
}

bool x_float_param(fn_ctx *f, CXCursor parm, cnode *arg, double *out)
{
    int kind = cn_float_kind(clang_getCursorType(parm));
    double v;
    if (f->device || kind < 2 || !x_float_value(f, arg, 0, &v))
        return false;
    *out = kind == 2 ? (double)(float)v : v;
    return true;
}

bool x_int_constant(fn_ctx *f, cnode *n, int64_t *out)
{
    expr *e = f->t->obj_eval->value_of(f, n), *s = expr_simplify(e);
    bool ok = s->kind == EX_CONST;
    if (ok)
        *out = s->value;
    expr_free(e);
    expr_free(s);
    return ok;
}
