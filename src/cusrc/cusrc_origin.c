/* cusrc_origin: why a host value is not a constant, the sentence the
 * sizes block prints for it: a parameter, the command line, a call that
 * may change it, an address passed elsewhere, more than one assignment.
 * The first reason found wins: it is the one the user most likely wants
 * to hear about. */
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

void x_note_origin(fn_ctx *f, var_info *v, const char *shown)
{
    if (f->device || f->origin.len)
        return;
    if (v && v->is_param) {
        CXCursor owner = clang_getCursorSemanticParent(v->decl);
        char *on = cn_spelling(owner);
        bool lambda = owner.kind == CXCursor_CXXMethod && !strcmp(on, "operator()");
        sbuf_addf(&f->origin, "depends on '%s', a parameter of %s'%s'", shown,
                  lambda ? "a lambda in " : "",
                  lambda  ? f->name
                  : on[0] ? on
                          : f->name);
        free(on);
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
