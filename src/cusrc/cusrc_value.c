/* cusrc_value: a host value with its explanation, as a launch's report
 * shows it: the number where the expression folds to one, else the
 * expression and why it is not constant (the first unknown part, or the
 * origin the evaluator noted: the command line, a field, a loop). */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

static void finish_value(fn_ctx *f, expr *e, const char *role, cusrc_value *v)
{
    expr *s = expr_simplify(e);
    expr_free(e);
    v->present = true;
    v->e = s;
    if (s->kind == EX_CONST) {
        v->known = true;
        v->value = s->value;
        return;
    }
    sbuf b;
    sbuf_init(&b);
    const expr *u = expr_first_unknown(s);
    if (u)
        sbuf_addf(&b, "%s is not a compile-time constant: %s", role, u->name ? u->name : "unknown");
    else if (f->origin.len)
        sbuf_addf(&b, "%s %s", role, sbuf_str(&f->origin));
    else
        sbuf_addf(&b, "%s is not a compile-time constant", role);
    v->why = sbuf_take(&b);
}

void x_value(fn_ctx *f, cnode *n, const char *role, cusrc_value *v)
{
    memset(v, 0, sizeof *v);
    f->origin.len = 0;
    if (f->origin.data)
        f->origin.data[0] = '\0';
    v->text = cn_text(f->t, n->cur);
    finish_value(f, x_expr(f, n), role, v);
}

void x_value_dim3(fn_ctx *f, cnode *n, const char *role, cusrc_dim3 *d)
{
    memset(d, 0, sizeof *d);
    d->present = true;
    d->text = cn_text(f->t, n->cur);
    cusrc_value *c[3] = {&d->x, &d->y, &d->z};
    for (int i = 0; i < 3; i++) {
        f->origin.len = 0;
        if (f->origin.data)
            f->origin.data[0] = '\0';
        finish_value(f, x_dim3(f, n, i), role, c[i]);
    }
    /* Component texts where the source spells them out: dim3(16, 16). */
    cnode *c0 = cn_strip(n);
    if (c0 && c0->kind == CXCursor_CXXFunctionalCastExpr)
        c0 = cn_strip(cn_expr_kid(c0, cn_n_expr_kids(c0) - 1));
    if (c0 && (c0->kind == CXCursor_CallExpr || c0->kind == CXCursor_InitListExpr) &&
        (c0->kind == CXCursor_InitListExpr ||
         clang_getCursorReferenced(c0->cur).kind == CXCursor_Constructor)) {
        int na = cn_n_expr_kids(c0);
        cnode *a0 = na ? cn_strip(cn_expr_kid(c0, 0)) : NULL;
        if (!(na == 1 && a0 && cn_is_dim3(clang_getCursorType(a0->cur))))
            for (int i = 0; i < na && i < 3; i++)
                c[i]->text = cn_text(f->t, cn_expr_kid(c0, i)->cur);
    }
}
