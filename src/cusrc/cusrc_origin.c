/* cusrc_origin: why a host value is not a constant, the sentence the
 * sizes block prints for it: a parameter (of a function the program calls
 * through a pointer, where it does), the command line, a call that may
 * change it, an address passed elsewhere, more than one assignment. The
 * first reason found wins: it is the one the user most likely wants to
 * hear about. */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

int x_node_line(fn_ctx *f, cnode *n)
{
    src_loc l = {0};
    cn_loc(f->t, n->cur, &l);
    free(l.file);
    return l.line;
}

/* ---- functions whose address is taken ---- */

typedef struct addr_walk {
    cusrc_tu *t;
    CXCursor up[2];  /* the parent and the grandparent of the node visited */
    CXCursor holder; /* the variable whose initializer holds it, or null */
} addr_walk;

static void note_address(addr_walk *w, CXCursor fn, CXCursor at)
{
    char *usr = cx_str(clang_getCursorUSR(fn));
    for (int i = 0; i < w->t->n_fn_addrs; i++)
        if (!strcmp(w->t->fn_addrs[i].usr, usr)) {
            free(usr);
            return;
        }
    src_loc l = {0};
    cn_loc(w->t, at, &l);
    const char *base = l.file ? strrchr(l.file, '/') : NULL;
    char *file = l.file && strcmp(l.file, w->t->path) ? xstrdup(base ? base + 1 : l.file) : NULL;
    free(l.file);
    GROW(w->t->fn_addrs, w->t->n_fn_addrs, w->t->cap_fn_addrs);
    w->t->fn_addrs[w->t->n_fn_addrs++] = (struct fn_address){
        usr, file, l.line, clang_Cursor_isNull(w->holder) ? NULL : cn_spelling(w->holder)};
}

static enum CXChildVisitResult addr_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    addr_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr || k == CXCursor_OverloadedDeclRef) {
        CXCursor r = clang_getCursorReferenced(c);
        enum CXCursorKind rk = clang_getCursorKind(r);
        /* A call names its callee through the function-to-pointer decay
         * (an unexposed expression) right below the call: anything else
         * takes the function's address. */
        bool callee = clang_getCursorKind(parent) == CXCursor_CallExpr ||
                      (clang_getCursorKind(parent) == CXCursor_UnexposedExpr &&
                       clang_getCursorKind(w->up[0]) == CXCursor_CallExpr &&
                       clang_equalCursors(clang_getCursorReferenced(w->up[0]), r));
        if ((rk == CXCursor_FunctionDecl || rk == CXCursor_CXXMethod) && !callee &&
            !cn_has_attr(r, CXCursor_CUDAGlobalAttr))
            note_address(w, r, c);
    }
    addr_walk inner = *w;
    inner.up[0] = parent;
    inner.up[1] = w->up[0];
    if (k == CXCursor_VarDecl)
        inner.holder = c;
    clang_visitChildren(c, addr_visit, &inner);
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult addr_top(CXCursor c, CXCursor parent, CXClientData data)
{
    addr_walk *w = data;
    if (!cn_in_main(w->t, c) && !cn_in_user_header(w->t, c))
        return CXChildVisit_Continue;
    return addr_visit(c, parent, w);
}

static const struct fn_address *address_taken(cusrc_tu *t, CXCursor fn)
{
    if (!t->fn_addrs_read) {
        t->fn_addrs_read = true;
        addr_walk w = {t, {clang_getNullCursor(), clang_getNullCursor()}, clang_getNullCursor()};
        clang_visitChildren(clang_getTranslationUnitCursor(t->tu), addr_top, &w);
    }
    char *usr = cx_str(clang_getCursorUSR(fn));
    const struct fn_address *hit = NULL;
    for (int i = 0; i < t->n_fn_addrs && !hit; i++)
        if (!strcmp(t->fn_addrs[i].usr, usr))
            hit = &t->fn_addrs[i];
    free(usr);
    return hit;
}

bool x_fn_address_taken(cusrc_tu *t, CXCursor fn)
{
    return address_taken(t, fn) != NULL;
}

void origin_memo_free(cusrc_tu *t)
{
    for (int i = 0; i < t->n_fn_addrs; i++) {
        free(t->fn_addrs[i].usr);
        free(t->fn_addrs[i].file);
        free(t->fn_addrs[i].holder);
    }
    free(t->fn_addrs);
    t->fn_addrs = NULL;
    t->n_fn_addrs = t->cap_fn_addrs = 0;
}

/* A parameter's sentence; where the program takes its function's address
 * (`runner table[] = {run1, run2};`), a call through that pointer is what
 * gpulint does not follow, and the sentence says so. */
static void param_origin(fn_ctx *f, var_info *v, const char *shown)
{
    CXCursor owner = clang_getCursorSemanticParent(v->decl);
    char *on = cn_spelling(owner);
    bool lambda = owner.kind == CXCursor_CXXMethod && !strcmp(on, "operator()");
    sbuf_addf(&f->origin, "depends on '%s', a parameter of %s'%s'", shown,
              lambda ? "a lambda in " : "",
              lambda  ? f->name
              : on[0] ? on
                      : f->name);
    const struct fn_address *a = lambda ? NULL : address_taken(f->t, owner);
    if (a) {
        if (a->file)
            sbuf_addf(&f->origin, ", whose address the program takes (%s:%d", a->file, a->line);
        else
            sbuf_addf(&f->origin, ", whose address the program takes (line %d", a->line);
        if (a->holder)
            sbuf_addf(&f->origin, ", in '%s'", a->holder);
        sbuf_addf(&f->origin, "): a call through a function pointer is not followed");
    }
    free(on);
}

void x_note_origin(fn_ctx *f, var_info *v, const char *shown)
{
    if (f->device || f->origin.len)
        return;
    if (v && v->is_param) {
        param_origin(f, v, shown);
        return;
    }
    if (v) {
        /* With the arguments given, a variable that is still not known is
         * held back by the command line only where it reads argv itself
         * (an argument past those given); else by what else it reads (a
         * count of random data beside an argument, a loop's `pos = end;`). */
        int from = f->t->run_args ? 6 : 0; /* x_refs_argv's last depth: argv itself */
        bool argv = x_refs_argv(f, v->init, from);
        for (int i = 0; !argv && i < v->n_assigns; i++)
            argv = x_refs_argv(f, v->assigns[i], from);
        for (int i = 0; !argv && i < v->n_member_assigns; i++)
            argv = x_refs_argv(f, v->member_assigns[i], from);
        bool again = v->n_assigns + (v->init ? 1 : 0) > 1;
        if (argv && !(again && f->t->run_args)) {
            sbuf_addf(&f->origin,
                      "comes from the command line (variable '%s'; --run-args gives the program's "
                      "arguments)",
                      shown);
            return;
        }
        cnode *ref = v->is_param ? NULL : x_ref_call_reaching(f, v, NULL, NULL);
        if (ref && !x_parsed_why(f, v, NULL, shown, &f->origin)) {
            char *callee = cn_ref_name(ref->cur);
            sbuf_addf(&f->origin, "depends on '%s', handed at line %d to '%s', which may change it",
                      shown, x_node_line(f, ref), callee);
            free(callee);
        }
        if (ref)
            return;
        if (v->addr_taken) {
            if (!x_parsed_why(f, v, NULL, shown, &f->origin))
                sbuf_addf(&f->origin, "depends on '%s', whose address is passed elsewhere", shown);
            return;
        }
        if (again) {
            sbuf_addf(&f->origin, "depends on '%s', which is assigned more than once (line %d)",
                      shown, x_node_line(f, v->assigns[0]));
            return;
        }
        cnode *src = v->init ? v->init : v->n_assigns ? v->assigns[0] : v->decl_node;
        if (src)
            sbuf_addf(&f->origin, "depends on '%s', computed at run time (line %d)", shown,
                      x_node_line(f, src));
        else
            sbuf_addf(&f->origin, "depends on '%s'", shown);
        return;
    }
    sbuf_addf(&f->origin, "depends on '%s', which is not a compile-time constant", shown);
}
