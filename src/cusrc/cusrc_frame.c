/* cusrc_frame: the calls a walk is inside: which function a call names and
 * whether gpulint walks it (a project function, a library's, an intrinsic),
 * the memory a helper's pointer and reference parameters were bound to at
 * the call, and the chain of calls for messages. It walks nothing: the
 * walkers below it in cusrc_walk.h's order (cusrc_lref, cusrc_site) ask it
 * about the frame they are in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_walk.h"

bool call_is_reference(CXType t)
{
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    return k == CXType_LValueReference || k == CXType_RValueReference;
}

static bool is_function_kind(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod ||
           k == CXCursor_ConversionFunction || k == CXCursor_Constructor ||
           k == CXCursor_FunctionTemplate;
}

/* "tile::load", "Packed::payload": the name with its namespaces and classes. */
char *call_qualified_name(CXCursor c)
{
    char *name = cn_spelling(c);
    for (CXCursor p = clang_getCursorSemanticParent(c); !clang_Cursor_isNull(p);
         p = clang_getCursorSemanticParent(p)) {
        enum CXCursorKind k = p.kind;
        if (k != CXCursor_Namespace && k != CXCursor_StructDecl && k != CXCursor_ClassDecl &&
            k != CXCursor_ClassTemplate && k != CXCursor_UnionDecl)
            break;
        /* CCCL's versioned inline namespace (cub::CUB_300001_SM_900) is
         * not part of the name a user writes. */
        if (k == CXCursor_Namespace && clang_Cursor_isInlineNamespace(p))
            continue;
        char *pn = cn_spelling(p);
        if (!pn[0]) {
            free(pn);
            break; /* anonymous namespace or lambda class */
        }
        char *q = xmalloc(strlen(pn) + strlen(name) + 3);
        sprintf(q, "%s::%s", pn, name);
        free(pn);
        free(name);
        name = q;
    }
    return name;
}

/* The outermost namespace of c, "" when none. */
static char *top_namespace(CXCursor c)
{
    char *top = xstrdup("");
    for (CXCursor p = clang_getCursorSemanticParent(c); !clang_Cursor_isNull(p);
         p = clang_getCursorSemanticParent(p)) {
        if (p.kind == CXCursor_TranslationUnit)
            break;
        if (p.kind == CXCursor_Namespace) {
            free(top);
            top = cn_spelling(p);
        }
    }
    return top;
}

/* A constructor or destructor the compiler declared (cuda-samples'
 * `SharedMemory<T>()` has none written): no body anywhere, as it does
 * nothing beyond what the members' own do. clang places such a
 * declaration at its class's name. */
static bool implicit_member(CXCursor fn)
{
    if (fn.kind != CXCursor_Constructor && fn.kind != CXCursor_Destructor)
        return false;
    CXCursor cls = clang_getCursorSemanticParent(fn);
    return !clang_Cursor_isNull(cls) &&
           clang_equalLocations(clang_getCursorLocation(fn), clang_getCursorLocation(cls));
}

callee_kind call_classify(cusrc_tu *t, cnode *call, CXCursor *def_out)
{
    CXCursor fn = clang_getCursorReferenced(call->cur);
    if (clang_Cursor_isNull(fn) || !is_function_kind(fn.kind))
        return CALLEE_NONE;
    if (cn_has_attr(fn, CXCursor_CUDAGlobalAttr))
        return CALLEE_NONE; /* a launch from the device: not this kernel's work */
    CXCursor def = clang_getCursorDefinition(fn);
    bool project = cn_in_main(t, fn) || cn_in_user_header(t, fn);
    if (clang_Cursor_isNull(def)) {
        /* The compiler's own builtins (INFINITY is __builtin_inff()) have no
         * body anywhere and no location, which reads as the main file. */
        char *name = cn_spelling(fn);
        bool builtin = !strncmp(name, "__builtin_", 10);
        free(name);
        if (!project || builtin || implicit_member(fn))
            return CALLEE_NONE;
        *def_out = fn;
        return CALLEE_OPAQUE;
    }
    if (!cn_in_main(t, def) && !cn_in_user_header(t, def)) {
        char *ns = top_namespace(def);
        bool lib = !strcmp(ns, "cub") || !strcmp(ns, "thrust") || !strcmp(ns, "cutlass") ||
                   !strcmp(ns, "cute");
        free(ns);
        *def_out = def;
        return lib ? CALLEE_LIBRARY : CALLEE_NONE;
    }
    /* A defaulted copy or move assignment copies the struct's bytes (one
     * load and one store of the whole struct, in the pieces nvcc uses), not
     * its fields one by one. */
    if (def.kind == CXCursor_CXXMethod && clang_CXXMethod_isDefaulted(def) &&
        (clang_CXXMethod_isCopyAssignmentOperator(def) ||
         clang_CXXMethod_isMoveAssignmentOperator(def)))
        return CALLEE_NONE;
    *def_out = def;
    return CALLEE_WALK;
}

bool call_arg_by_reference(walker *w, cnode *call, cnode *arg)
{
    /* Only a call that is walked reads its reference arguments in its body;
     * a constructor taking `const T &` copies (a load here), and a
     * library's by-reference read is still a read here. */
    CXCursor def = clang_getNullCursor();
    if (call_classify(w->t, call, &def) != CALLEE_WALK || def.kind == CXCursor_Constructor)
        return false;
    cnode *args[CALL_MAX_PARAMS];
    int np = cn_call_args(call, def, args, CALL_MAX_PARAMS);
    for (int i = 0; i < np; i++)
        if (args[i] && cn_strip(args[i]) == cn_strip(arg))
            return call_is_reference(
                clang_getCursorType(clang_Cursor_getArgument(def, (unsigned)i)));
    return false;
}

bool call_bound_ptr(walker *w, CXCursor parm, lref *out)
{
    if (!w->calls)
        return false;
    call_frame *fr = w->calls;
    for (int i = 0; i < fr->n_ptrs; i++) {
        if (!clang_equalCursors(fr->ptrs[i].parm, parm))
            continue;
        const lref *at = &fr->ptrs[i].at;
        out->space = at->space;
        out->array = at->array;
        free(out->base);
        out->base = xstrdup_null(at->base);
        expr_free(out->off);
        out->off = at->off ? expr_clone(at->off) : NULL;
        if (at->why && !out->why)
            out->why = xstrdup(at->why);
        return true;
    }
    return false;
}

char *call_chain(walker *w)
{
    if (!w->calls)
        return NULL;
    call_frame *order[CALL_MAX_DEPTH + 1];
    int n = 0;
    for (call_frame *fr = w->calls; fr && n <= CALL_MAX_DEPTH; fr = fr->up)
        order[n++] = fr;
    sbuf b;
    sbuf_init(&b);
    for (int i = n - 1; i >= 0; i--) {
        const call_frame *fr = order[i];
        bool same = fr->call_file && w->t->path && strcmp(fr->call_file, w->t->path) == 0;
        sbuf_addf(&b, "%s%s (called at %s%s%d)", i == n - 1 ? "" : " -> ", fr->name,
                  same            ? "line "
                  : fr->call_file ? fr->call_file
                                  : "",
                  same ? "" : ":", fr->call_line);
    }
    return sbuf_take(&b);
}
