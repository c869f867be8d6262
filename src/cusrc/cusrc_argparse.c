/* cusrc_argparse: the value a host local has after main hands its address
 * to a function that reads the program's options (`parseCommandline(argc,
 * argv, &size)`): which call that is, its run on --run-args
 * (cusrc_argrun), and why there is no value where there is none. */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

/* The calls below n that take v's address, in order (at most max). */
static int address_calls(const cnode *n, const var_info *v, cnode **out, int n_out, int max)
{
    if (n->kind == CXCursor_UnaryOperator && n->n_kids == 1 &&
        clang_getCursorUnaryOperatorKind(n->cur) == CXUnaryOperator_AddrOf) {
        cnode *k = cn_strip(n->kids[0]);
        if (k && k->kind == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(k->cur), v->decl)) {
            const cnode *p = n->parent;
            while (p && (p->kind == CXCursor_UnexposedExpr || p->kind == CXCursor_CStyleCastExpr ||
                         p->kind == CXCursor_ParenExpr))
                p = p->parent;
            if (n_out < max)
                out[n_out] = p && p->kind == CXCursor_CallExpr ? (cnode *)p : NULL;
            return n_out + 1;
        }
    }
    for (int i = 0; i < n->n_kids; i++)
        n_out = address_calls(n->kids[i], v, out, n_out, max);
    return n_out;
}

/* Each address of v handed to a call that cannot reach use (an arm
 * --run-args leaves out: lud's `create_matrix_from_file(&m, file,
 * &matrix_dim)` runs only with -i). */
bool x_address_unused_at(fn_ctx *f, const var_info *v, const cnode *use)
{
    if (f->device || !use || !v->addr_taken || v->is_param || !f->root)
        return false;
    cnode *calls[8];
    int n = address_calls(f->root, v, calls, 0, 8);
    if (n > 8)
        return false;
    for (int i = 0; i < n; i++)
        if (!calls[i] || x_may_reach(calls[i], use, f->root, f->t->obj_eval->arm, f))
            return false;
    return true;
}

/* The calls that hand v on: its address, or v to a reference that is not
 * const (at most max; the count, which may be more). */
static int handing_calls(fn_ctx *f, var_info *v, cnode **out, int max)
{
    int n = v->addr_taken ? address_calls(f->root, v, out, 0, max) : 0;
    if (!x_ref_call_reaching(f, v, NULL, NULL))
        return n;
    if (v->n_ref_calls > 4) /* more than the memo keeps */
        return max + 1;
    for (int i = 0; i < v->n_ref_calls; i++, n++)
        if (n < max)
            out[n] = v->ref_calls[i];
    return n;
}

/* The call that sets v before use from the command line: the one call
 * handed &v that may reach use, given argv, running every time before it
 * (*only false where another call handed &v may reach use too). */
static cnode *find_parser(fn_ctx *f, var_info *v, cnode *use, bool *only)
{
    cnode *calls[8];
    int n = handing_calls(f, v, calls, 8);
    *only = n <= 8;
    if (n > 8)
        return NULL;
    x_arm_fn arm = f->t->obj_eval->arm;
    cnode *parser = NULL;
    for (int i = 0; i < n; i++) {
        if (!calls[i]) {
            *only = false; /* the address goes somewhere other than a call */
            return NULL;
        }
        if (use && !x_may_reach(calls[i], use, f->root, arm, f))
            continue;
        if (!x_passes_argv(calls[i]) || parser) {
            *only = false;
            return NULL;
        }
        parser = calls[i];
    }
    if (parser && use &&
        (cn_spelled_at(parser->cur) >= cn_spelled_at(use->cur) ||
         !x_dominates(parser, use, arm, f)))
        return NULL;
    return parser;
}

static CXCursor parser_def(fn_ctx *f, cnode *parser)
{
    return cn_definition(f->t, clang_getCursorReferenced(parser->cur));
}

/* The parser call that sets v before use, with its body in this unit
 * (*def): both the value and the field paths run it. */
static cnode *runnable_parser(fn_ctx *f, var_info *v, cnode *use, CXCursor *def)
{
    bool only;
    cnode *parser = find_parser(f, v, use, &only);
    if (!parser)
        return NULL;
    *def = parser_def(f, parser);
    if (clang_Cursor_isNull(*def) || def->kind != CXCursor_FunctionDecl)
        return NULL;
    return parser;
}

expr *x_parsed_value(fn_ctx *f, var_info *v, cnode *use)
{
    if (f->device || !f->t->run_args || v->is_param || v->n_assigns || v->n_member_assigns ||
        !cn_type_is_integral(clang_getCursorType(v->decl)) ||
        (!v->addr_taken && !x_ref_call_reaching(f, v, NULL, NULL)))
        return NULL;
    CXCursor def;
    cnode *parser = runnable_parser(f, v, use, &def);
    if (!parser)
        return NULL;
    /* The uses its value reaches find the same call: run it once. */
    if (v->parsed_by != parser) {
        v->parsed_by = parser;
        v->parsed = x_run_arg_parser(f, parser, def, v->decl, NULL, x_argv_before(f->root, parser),
                                     &v->parsed_value, &v->parsed_written, NULL)
                        ? 1
                        : 2;
    }
    if (v->parsed != 1)
        return NULL;
    if (v->parsed_written)
        return expr_const(v->parsed_value);
    if (!v->init)
        return NULL;
    expr *e = f->t->obj_eval->value_of(f, v->init);
    expr *s = e ? expr_simplify(e) : NULL;
    expr_free(e);
    if (s && s->kind == EX_CONST)
        return s;
    expr_free(s);
    return NULL;
}

bool x_parsed_why(fn_ctx *f, var_info *v, const char *field, const char *shown, sbuf *out)
{
    cnode *calls[8], *parser = NULL, *other = NULL;
    int n = f->device || v->is_param ? 0 : handing_calls(f, v, calls, 8);
    bool elsewhere = n > 8; /* an address kept, not handed to a call */
    for (int i = 0; i < n && i < 8; i++) {
        if (calls[i] && !parser && x_passes_argv(calls[i]))
            parser = calls[i];
        else if (!calls[i])
            elsewhere = true;
        else if (!other)
            other = calls[i];
    }
    if (!parser)
        return false;
    char *callee = cn_ref_name(parser->cur);
    src_loc at = {0};
    cn_loc(f->t, parser->cur, &at);
    sbuf_addf(out, "depends on '%s', which '%s' (line %d) sets from the command line", shown,
              callee, at.line);
    free(callee);
    free(at.file);
    if (other || elsewhere) {
        char *o = other ? cn_ref_name(other->cur) : NULL;
        src_loc oat = {0};
        if (other)
            cn_loc(f->t, other->cur, &oat);
        if (o && o[0])
            sbuf_addf(out, " and '%s' (line %d) may change", o, oat.line);
        else
            sbuf_addf(out, " and more code may change");
        free(o);
        free(oat.file);
        if (f->t->run_args)
            return true;
    }
    CXCursor def = parser_def(f, parser);
    if (!f->t->run_args) {
        sbuf_addf(out, " (--run-args gives the program's arguments)");
        return true;
    }
    sbuf why;
    sbuf_init(&why);
    int64_t value;
    bool written = false;
    if (clang_Cursor_isNull(def) || def.kind != CXCursor_FunctionDecl)
        sbuf_addf(&why, "its body is not in this file");
    else if (v->n_assigns || (!field && v->n_member_assigns))
        sbuf_addf(&why, "'%s' is also assigned in %s", v->name, f->name);
    else if (x_run_arg_parser(f, parser, def, v->decl, field, x_argv_before(f->root, parser),
                              &value, &written, &why))
        sbuf_addf(&why, "%s, and no constant value of '%s' holds before the call",
                  written ? "what it leaves does not reach this use" : "it leaves it unset", shown);
    char *text = sbuf_take(&why);
    sbuf_addf(out, ", which gpulint could not run on --run-args: %s", text);
    free(text);
    return true;
}

expr *x_parsed_field(fn_ctx *f, var_info *v, const char *field, cnode *use)
{
    if (f->device || !f->t->run_args || v->is_param || !v->addr_taken || v->n_assigns ||
        clang_getCanonicalType(clang_getCursorType(v->decl)).kind != CXType_Record ||
        x_fields_alias(f, v))
        return NULL;
    CXCursor def;
    cnode *parser = runnable_parser(f, v, use, &def);
    if (!parser)
        return NULL;
    /* An assignment of the field after the call that may reach use holds
     * instead of what the run leaves. */
    unsigned at = cn_spelled_at(parser->cur);
    for (int i = 0; i < v->n_member_assigns; i++) {
        cnode *m = v->member_assigns[i];
        char *name = cn_spelling(cn_strip(m->kids[0])->cur);
        bool same = !strcmp(name, field);
        free(name);
        if (same && cn_spelled_at(m->cur) > at &&
            x_may_reach(m, use, f->root, f->t->obj_eval->arm, f))
            return NULL;
    }
    int64_t value = 0;
    bool written = false;
    if (!x_run_arg_parser(f, parser, def, v->decl, field, x_argv_before(f->root, parser), &value,
                          &written, NULL))
        return NULL;
    cnode *a = written ? parser : x_member_set_at(f, v, field, parser);
    expr *e = written ? expr_const(value)
              : a     ? f->t->obj_eval->value_of(f, cn_assign_rhs(a))
                      : NULL;
    expr *s = e ? expr_simplify(e) : NULL;
    expr_free(e);
    if (!s || s->kind != EX_CONST) {
        expr_free(s);
        return NULL;
    }
    if (f->record) {
        /* Listed where it was set: the parser's call, or the assignment. */
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "%s.%s", v->name, field);
        char *path = sbuf_take(&b);
        cusrc_size_from from = {path, s->value, f->name, {0}, false};
        cn_loc(f->t, a->cur, &from.loc);
        folded_add(f->record, &from);
        free(from.loc.file);
        free(path);
    }
    return s;
}
