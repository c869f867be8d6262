/* cusrc_folded: the host variables whose constant values a launch's sizes
 * were computed from, noted as the front end folds them (for the report's
 * "B = 4, from main at line 76"; cusrc_launch.sizes_from). */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

void folded_add(folded_list *l, const cusrc_size_from *s)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->v[i].name, s->name) && !strcmp(l->v[i].function, s->function) &&
            l->v[i].loc.line == s->loc.line)
            return;
    GROW(l->v, l->n, l->cap);
    cusrc_size_from *d = &l->v[l->n++];
    d->name = xstrdup(s->name);
    d->value = s->value;
    d->function = xstrdup(s->function);
    d->loc.file = xstrdup_null(s->loc.file);
    d->loc.line = s->loc.line;
    d->loc.column = s->loc.column;
    d->stepped = s->stepped;
}

void folded_free(folded_list *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->v[i].name);
        free(l->v[i].function);
        free(l->v[i].loc.file);
    }
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* A host variable that came out a constant: noted where the caller asked
 * (a launch's sizes, an argument bound at a call), for the report's
 * "B = 4, from main at line 76". */
void folded_note(fn_ctx *f, var_info *v, const expr *e, const cnode *set)
{
    if (!f->record || f->device || v->is_param ||
        !cn_type_is_integral(clang_getCursorType(v->decl)))
        return;
    expr *s = e->kind == EX_CONST ? NULL : expr_simplify(e);
    const expr *c = s ? s : e;
    if (c->kind == EX_CONST) {
        cusrc_size_from from = {v->name, c->value, f->name, {0}, false};
        cn_loc(f->t, set ? set->cur : v->decl, &from.loc);
        folded_add(f->record, &from);
        free(from.loc.file);
    }
    expr_free(s);
}
