/* cusrc_args: what main's arguments decide on the host: whether an
 * expression reads argv, which argv[K] a conversion reads, and which arm
 * of an if whose condition they make constant runs (--run-args), and the
 * compile-time constants these read (libclang's evaluation). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

/* Does the subtree read main's argv (directly or through locals set from it)? */
bool x_refs_argv(fn_ctx *f, cnode *n, int depth)
{
    if (!n || depth > 6)
        return false;
    if (n->kind == CXCursor_DeclRefExpr) {
        CXCursor r = clang_getCursorReferenced(n->cur);
        if (r.kind == CXCursor_ParmDecl) {
            char *s = cn_spelling(r);
            bool a = strcmp(s, "argv") == 0;
            free(s);
            if (a || x_names_main_argv(f, n))
                return true;
        }
        var_info *v = fn_var(f, r);
        if (v && !v->is_param && !v->visiting) {
            v->visiting++;
            bool a = x_refs_argv(f, v->init, depth + 1);
            for (int i = 0; !a && i < v->n_assigns; i++)
                a = x_refs_argv(f, v->assigns[i], depth + 1);
            v->visiting--;
            if (a)
                return true;
        }
    }
    for (int i = 0; i < n->n_kids; i++)
        if (x_refs_argv(f, n->kids[i], depth))
            return true;
    return false;
}

bool x_names_main_argv(const fn_ctx *f, cnode *n)
{
    n = cn_strip_casts(n);
    if (!n || n->kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor r = clang_getCursorReferenced(n->cur);
    if (r.kind != CXCursor_ParmDecl)
        return false;
    char *name = cn_spelling(r), *owner = cn_spelling(clang_getCursorSemanticParent(r));
    bool is_argv = !strcmp(name, "argv") && !strcmp(owner, "main");
    free(name);
    free(owner);
    for (const bind_frame *fr = f->bindings; fr && !is_argv; fr = fr->up)
        for (int i = 0; i < fr->n; i++)
            if (clang_equalCursors(fr->b[i].parm, r))
                return fr->b[i].argv;
    return is_argv;
}

/* main's argv[K] with K a constant, under the conversions a call makes of
 * it (std::string(argv[1]) for stoi): K, or 0 when n is not one. */
int x_argv_index(fn_ctx *f, cnode *n, int depth)
{
    n = cn_strip_casts(n);
    if (!n || depth > 4)
        return 0;
    if (n->kind != CXCursor_ArraySubscriptExpr || cn_n_expr_kids(n) != 2) {
        /* a conversion: one expression inside, and what the constructor
         * of std::string leaves to its defaults (the allocator) */
        int kids = cn_n_expr_kids(n);
        for (int i = 1; i < kids; i++) {
            char *text = cn_text(f->t, cn_expr_kid(n, i)->cur);
            bool given = text && text[0];
            free(text);
            if (given)
                return 0;
        }
        return kids >= 1 && n->kind != CXCursor_DeclRefExpr
                   ? x_argv_index(f, cn_expr_kid(n, 0), depth + 1)
                   : 0;
    }
    cnode *base = cn_strip_casts(cn_expr_kid(n, 0));
    if (!base || base->kind != CXCursor_DeclRefExpr)
        return 0;
    int64_t k;
    if (!x_names_main_argv(f, base) || !x_const(f, cn_expr_kid(n, 1), &k) || k < 1 || k > 1000)
        return 0;
    return (int)k;
}

/* Which arm of an if statement `arm` is (0 then, 1 else, -1 neither or
 * the condition), and its condition: [cond, then] or [cond, then, else]; an
 * init statement or a condition variable before them is a declaration,
 * and such an if is left alone (-1). */
int x_if_arm(const cnode *ifstmt, const cnode *arm, const cnode **cond)
{
    if (ifstmt->kind != CXCursor_IfStmt || ifstmt->n_kids < 2)
        return -1;
    int ci = ifstmt->n_kids >= 3 ? ifstmt->n_kids - 3 : 0;
    *cond = ifstmt->kids[ci];
    if ((*cond)->kind == CXCursor_DeclStmt || (*cond)->kind == CXCursor_VarDecl)
        return -1;
    return arm == ifstmt->kids[ci + 1]                                ? 0
           : (ci + 2 < ifstmt->n_kids && arm == ifstmt->kids[ci + 2]) ? 1
                                                                      : -1;
}

bool x_const(fn_ctx *f, cnode *n, int64_t *out)
{
    (void)f;
    if (!n || !cn_is_expr(n))
        return false;
    CXType t = clang_getCursorType(n->cur);
    if (!cn_type_is_integral(t))
        return false;
    CXEvalResult r = clang_Cursor_Evaluate(n->cur);
    if (!r)
        return false;
    bool ok = false;
    if (clang_EvalResult_getKind(r) == CXEval_Int) {
        if (clang_EvalResult_isUnsignedInt(r)) {
            unsigned long long u = clang_EvalResult_getAsUnsigned(r);
            if (u <= (unsigned long long)INT64_MAX) {
                *out = (int64_t)u;
                ok = true;
            }
        } else {
            *out = (int64_t)clang_EvalResult_getAsLongLong(r);
            ok = true;
        }
    }
    clang_EvalResult_dispose(r);
    return ok;
}

/* An argument the call leaves to its default (std::stoi's base): no text
 * of its own in the source. */
static bool default_arg(fn_ctx *f, cnode *arg)
{
    char *text = cn_text(f->t, arg->cur);
    bool none = !text || !text[0];
    free(text);
    return none;
}

/* The value a C library call gives main's argv[K] where the user passed
 * the program's arguments (--run-args): atoi and its kin, strtol with a
 * constant base, std::stoi; as an integer. False when the call is none of
 * them or reads no argv[K]; *unknown then explains a K past the arguments. */
bool x_argv_int(fn_ctx *f, cnode *call, const char *name, int64_t *out, expr **unknown)
{
    static const char *const ints[] = {"atoi",    "atol",     "atoll", "strtol", "strtoll",
                                       "strtoul", "strtoull", "stoi",  "stol",   "stoll",
                                       "stoul",   "stoull",   NULL};
    int nargs = cn_n_expr_kids(call) - 1, k;
    if (!f->t->run_args || nargs < 1 || !cn_name_in(name, ints) ||
        !(k = x_argv_index(f, cn_expr_kid(call, 1), 0)))
        return false;
    if (k > f->t->n_run_args) {
        char why[96];
        snprintf(why, sizeof why, "argv[%d], past the %d arguments --run-args gives", k,
                 f->t->n_run_args);
        *unknown = expr_unknown(why);
        return false;
    }
    int64_t base = 10;
    if (!strncmp(name, "strto", 5) && (nargs < 3 || !x_const(f, cn_expr_kid(call, 3), &base)))
        return false;
    if (!strncmp(name, "sto", 3) && nargs >= 3 && !x_const(f, cn_expr_kid(call, 3), &base) &&
        !default_arg(f, cn_expr_kid(call, 3)))
        return false;
    if (base < 0 || base == 1 || base > 36)
        return false;
    errno = 0;
    *out = strtoll(f->t->run_args[k - 1], NULL, (int)base);
    return errno == 0;
}
