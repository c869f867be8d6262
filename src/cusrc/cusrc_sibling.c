/* cusrc_sibling: definitions the program's other units give. A class's
 * constructor in its own file (LULESH's `Domain::Domain` in lulesh-init.cu,
 * called as `new Domain(..., opts.nx, ...)` in lulesh.cu), an option parser
 * in a utility file: the launch's unit declares them and the sizes are
 * set there. Such a unit is parsed only when a definition is asked for,
 * only if its text names the function, and at most SIBLING_MAX_PARSED of
 * them per unit, so a project's units do not all parse each other; of a
 * large project, only SIBLING_MAX_READ units are read at all, those in
 * the unit's own directory first. Each answer is kept: a constructor is
 * asked for at every object it builds. */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"
#include "util/fileio.h"

#define SIBLING_MAX_PARSED 4
#define SIBLING_MAX_READ 64
#define SIBLING_MAX_BYTES (8u << 20)

struct sibling_tu {
    bool candidate; /* among the SIBLING_MAX_READ this unit may read */
    bool tried;     /* its text was read */
    CXTranslationUnit tu;
    char *text;
    size_t len;
    char **usr; /* its function definitions, by USR */
    CXCursor *def;
    int n, cap;
};

static bool is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Does text name fn followed by '(' (a definition's or a call's)? */
static bool names(const char *text, const char *fn)
{
    size_t n = strlen(fn);
    for (const char *p = text; n && (p = strstr(p, fn)) != NULL; p += n) {
        const char *q = p + n;
        while (*q == ' ' || *q == '\t' || *q == '\n')
            q++;
        if (*q == '(' && (p == text || !is_ident(p[-1])))
            return true;
    }
    return false;
}

static enum CXChildVisitResult list_defs(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct sibling_tu *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec)
        return CXChildVisit_Recurse;
    if ((k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
         k == CXCursor_Destructor) &&
        clang_isCursorDefinition(c) && clang_getCursorLinkage(c) == CXLinkage_External) {
        GROW(s->usr, s->n, s->cap);
        s->def = xrealloc(s->def, (size_t)s->cap * sizeof *s->def);
        s->usr[s->n] = cx_str(clang_getCursorUSR(c));
        s->def[s->n++] = c;
    }
    return CXChildVisit_Continue;
}

static int parsed_count(const cusrc_tu *t)
{
    int n = 0;
    for (int i = 0; i < t->opts->n_siblings; i++)
        n += t->sibs[i].tu != NULL;
    return n;
}

/* Sibling i's definitions, parsing it if its text names fn. */
static bool open_sibling(cusrc_tu *t, int i, const char *fn)
{
    struct sibling_tu *s = &t->sibs[i];
    if (!s->tried) {
        s->tried = true;
        if (fileio_read(t->opts->siblings[i].file, SIBLING_MAX_BYTES, &s->text, &s->len) !=
            FILEIO_OK)
            s->text = NULL;
    }
    if (s->tu)
        return true;
    if (!s->text || !names(s->text, fn) || parsed_count(t) >= SIBLING_MAX_PARSED)
        return false;
    s->tu = t->parse_other(t, &t->opts->siblings[i]);
    if (s->tu)
        clang_visitChildren(clang_getTranslationUnitCursor(s->tu), list_defs, s);
    return s->tu != NULL;
}

static bool same_dir(const char *a, const char *b)
{
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
    size_t la = sa ? (size_t)(sa - a) : 0, lb = sb ? (size_t)(sb - b) : 0;
    return la == lb && !strncmp(a, b, la);
}

/* The units this one may read: its directory's first, up to the cap. */
static void choose_candidates(cusrc_tu *t)
{
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < t->opts->n_siblings && n < SIBLING_MAX_READ; i++)
            if (!t->sibs[i].candidate &&
                (pass == 1 || same_dir(t->opts->siblings[i].file, t->path))) {
                t->sibs[i].candidate = true;
                n++;
            }
}

static CXCursor find_definition(cusrc_tu *t, CXCursor decl, const char *usr)
{
    CXCursor def = clang_getNullCursor();
    char *fn = cn_spelling(decl);
    for (int i = 0; i < t->opts->n_siblings && clang_Cursor_isNull(def); i++)
        if (t->sibs[i].candidate && open_sibling(t, i, fn))
            for (int k = 0; k < t->sibs[i].n && clang_Cursor_isNull(def); k++)
                if (!strcmp(t->sibs[i].usr[k], usr))
                    def = t->sibs[i].def[k];
    free(fn);
    return def;
}

CXCursor cn_definition(cusrc_tu *t, CXCursor decl)
{
    CXCursor def = clang_getCursorDefinition(decl);
    if (!clang_Cursor_isNull(def) || !t->opts || !t->opts->n_siblings ||
        clang_getCursorLinkage(decl) != CXLinkage_External ||
        clang_Location_isInSystemHeader(clang_getCursorLocation(decl)))
        return def;
    if (!t->sibs) {
        t->sibs = xcalloc((size_t)t->opts->n_siblings, sizeof *t->sibs);
        choose_candidates(t);
    }
    char *usr = cx_str(clang_getCursorUSR(decl));
    for (int i = 0; i < t->n_sib_answers; i++)
        if (!strcmp(t->sib_answers[i].usr, usr)) {
            free(usr);
            return t->sib_answers[i].def;
        }
    def = find_definition(t, decl, usr);
    GROW(t->sib_answers, t->n_sib_answers, t->cap_sib_answers);
    t->sib_answers[t->n_sib_answers++] = (struct sib_answer){usr, def};
    return def;
}

static void sibling_visit_parsed(cusrc_tu *t, CXCursorVisitor visit, CXClientData data)
{
    for (int i = 0; t->sibs && i < t->opts->n_siblings; i++)
        if (t->sibs[i].tu)
            clang_visitChildren(clang_getTranslationUnitCursor(t->sibs[i].tu), visit, data);
}

typedef struct each_def {
    cusrc_tu *t;
    x_definition_fn fn;
    void *ctx;
} each_def;

static enum CXChildVisitResult definitions(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    each_def *e = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!cn_in_main(e->t, c) && !cn_in_user_header(e->t, c))
        return CXChildVisit_Continue;
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_ClassDecl ||
        k == CXCursor_StructDecl || k == CXCursor_ClassTemplate)
        return CXChildVisit_Recurse;
    if ((k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
         k == CXCursor_Constructor || k == CXCursor_Destructor) &&
        clang_isCursorDefinition(c)) {
        cnode *tree = cn_build(c);
        e->fn(e->ctx, c, tree);
        cn_free(tree);
    }
    return CXChildVisit_Continue;
}

void x_each_definition(cusrc_tu *t, x_definition_fn fn, void *ctx)
{
    each_def e = {t, fn, ctx};
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), definitions, &e);
    sibling_visit_parsed(t, definitions, &e);
}

void sibling_free(cusrc_tu *t)
{
    for (int i = 0; i < t->n_sib_answers; i++)
        free(t->sib_answers[i].usr);
    free(t->sib_answers);
    t->sib_answers = NULL;
    t->n_sib_answers = t->cap_sib_answers = 0;
    if (!t->sibs)
        return;
    for (int i = 0; i < t->opts->n_siblings; i++) {
        struct sibling_tu *s = &t->sibs[i];
        /* Every unit whose text was read decided what was found. */
        if (s->tried) {
            t->u->siblings_read =
                xrealloc(t->u->siblings_read, (t->u->n_siblings_read + 1) * sizeof(char *));
            t->u->siblings_read[t->u->n_siblings_read++] = xstrdup(t->opts->siblings[i].file);
        }
        for (int k = 0; k < s->n; k++)
            free(s->usr[k]);
        free(s->usr);
        free(s->def);
        free(s->text);
        if (s->tu)
            clang_disposeTranslationUnit(s->tu);
    }
    free(t->sibs);
    t->sibs = NULL;
}
