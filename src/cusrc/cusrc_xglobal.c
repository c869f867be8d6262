/* cusrc_xglobal: what a unit of a project tells the others about its
 * file-scope integers (cusrc_xglobal in cusrc.h): the value of each one it
 * defines with external linkage, where the unit sets it once for all its
 * code, and each `extern` one it writes, which no unit's value then
 * holds for. Read with the calls into other units, before they run. */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

static cusrc_xglobal *add(cusrc_xcalls *out, CXCursor var)
{
    GROW(out->g, out->n_g, out->cap_g);
    cusrc_xglobal *g = &out->g[out->n_g++];
    memset(g, 0, sizeof *g);
    g->usr = cx_str(clang_getCursorUSR(var));
    g->name = cn_spelling(var);
    return g;
}

static void written_extern(void *ctx, CXCursor var)
{
    cusrc_xcalls *out = ((cusrc_tu *)ctx)->collect_calls;
    char *usr = cx_str(clang_getCursorUSR(var));
    bool listed = false;
    for (size_t i = 0; i < out->n_g && !listed; i++)
        listed = !out->g[i].known && !strcmp(out->g[i].usr, usr);
    free(usr);
    if (!listed)
        add(out, var);
}

static enum CXChildVisitResult each_var(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    cusrc_tu *t = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!cn_in_main(t, c))
        return CXChildVisit_Continue;
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec)
        return CXChildVisit_Recurse;
    if (k != CXCursor_VarDecl || !clang_isCursorDefinition(c) ||
        clang_getCursorLinkage(c) != CXLinkage_External ||
        !cn_type_is_integral(clang_getCursorType(c)))
        return CXChildVisit_Continue;
    int line;
    bool in_main;
    expr *e = x_file_global(t, c, &line, &in_main);
    if (e && e->kind == EX_CONST) {
        cusrc_xglobal *g = add(t->collect_calls, c);
        g->known = true;
        g->value = e->value;
        g->loc.file = xstrdup(t->path);
        g->loc.line = line;
    }
    expr_free(e);
    return CXChildVisit_Continue;
}

void xglobal_collect(cusrc_tu *t)
{
    if (!t->collect_calls)
        return;
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), each_var, t);
    global_extern_writes(t, written_extern, t);
}
