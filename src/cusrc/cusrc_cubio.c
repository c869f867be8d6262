/* cusrc_cubio: CUB's BlockLoad::Load and BlockStore::Store, whose bodies
 * are a library's and not walked, as the global accesses they make: each
 * thread's ITEMS items of the block's tile at the positions the algorithm
 * arranges them in (CUB's documentation of BlockLoadAlgorithm and
 * BlockStoreAlgorithm, and cub/block/block_load.cuh, block_store.cuh):
 *   DIRECT, VECTORIZE           blocked: rank * ITEMS + k
 *   STRIPED, TRANSPOSE          striped: k * THREADS + rank
 *   WARP_TRANSPOSE(_TIMESLICED) warp-striped: a warp's 32 * ITEMS items,
 *                               lane + 32 k from its start
 * With a count of valid items, items at or past it are not touched. The
 * transposes exchange the items through the caller's TempStorage in
 * shared memory, which has no site here; the counts say so. */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_walk.h"

/* A tile of more items than this per thread is not emitted item by item. */
#define CUBIO_MAX_ITEMS 64

typedef enum { ARR_BLOCKED, ARR_STRIPED, ARR_WARP_STRIPED } arrangement;

typedef struct tile_shape {
    int64_t threads, items; /* BLOCK_DIM_X * _Y * _Z, ITEMS_PER_THREAD */
    int64_t dim_x, dim_y;
    arrangement arr;
    bool exchange; /* through shared memory */
    bool vectorize;
} tile_shape;

/* The name of the enumerator whose value the algorithm parameter holds:
 * read from the class template's own parameter, not from numbers. */
static char *algorithm_name(CXCursor cls, unsigned index, long long value)
{
    CXCursor tmpl = clang_getSpecializedCursorTemplate(cls);
    if (clang_Cursor_isNull(tmpl))
        return NULL;
    cnode *tree = cn_build(tmpl);
    unsigned seen = 0;
    char *name = NULL;
    for (int i = 0; i < tree->n_kids && !name; i++) {
        cnode *k = tree->kids[i];
        if (k->kind != CXCursor_TemplateTypeParameter &&
            k->kind != CXCursor_NonTypeTemplateParameter)
            continue;
        if (seen++ != index)
            continue;
        CXCursor en = clang_getTypeDeclaration(clang_getCursorType(k->cur));
        if (en.kind != CXCursor_EnumDecl)
            break;
        cnode *et = cn_build(en);
        for (int j = 0; j < et->n_kids && !name; j++)
            if (et->kids[j]->kind == CXCursor_EnumConstantDecl &&
                clang_getEnumConstantDeclValue(et->kids[j]->cur) == value)
                name = cn_spelling(et->kids[j]->cur);
        cn_free(et);
    }
    cn_free(tree);
    return name;
}

static bool tile_of(CXCursor cls, const char *prefix, tile_shape *s)
{
    int n = clang_Cursor_getNumTemplateArguments(cls);
    if (n < 3)
        return false;
    for (int i = 1; i < n; i++)
        if (clang_Cursor_getTemplateArgumentKind(cls, (unsigned)i) !=
            CXTemplateArgumentKind_Integral)
            return false;
    s->dim_x = clang_Cursor_getTemplateArgumentValue(cls, 1);
    s->items = clang_Cursor_getTemplateArgumentValue(cls, 2);
    s->dim_y = n > 4 ? clang_Cursor_getTemplateArgumentValue(cls, 4) : 1;
    int64_t dim_z = n > 5 ? clang_Cursor_getTemplateArgumentValue(cls, 5) : 1;
    s->threads = s->dim_x * s->dim_y * dim_z;
    if (s->dim_x <= 0 || s->dim_y <= 0 || dim_z <= 0 || s->items <= 0 || s->items > CUBIO_MAX_ITEMS)
        return false;
    char *algo =
        n > 3 ? algorithm_name(cls, 3, clang_Cursor_getTemplateArgumentValue(cls, 3)) : NULL;
    /* The algorithm defaults to DIRECT in both classes. */
    const char *a = algo ? algo + strlen(prefix) : "DIRECT";
    bool ok = !algo || !strncmp(algo, prefix, strlen(prefix));
    s->exchange = false;
    s->vectorize = false;
    if (ok && !strcmp(a, "DIRECT")) {
        s->arr = ARR_BLOCKED;
    } else if (ok && !strcmp(a, "VECTORIZE")) {
        s->arr = ARR_BLOCKED;
        s->vectorize = true;
    } else if (ok && !strcmp(a, "STRIPED")) {
        s->arr = ARR_STRIPED;
    } else if (ok && !strcmp(a, "TRANSPOSE")) {
        s->arr = ARR_STRIPED;
        s->exchange = true;
    } else if (ok && (!strcmp(a, "WARP_TRANSPOSE") || !strcmp(a, "WARP_TRANSPOSE_TIMESLICED"))) {
        /* CUB asserts the block is whole warps. */
        s->arr = ARR_WARP_STRIPED;
        s->exchange = true;
        ok = s->threads % 32 == 0;
    } else {
        ok = false;
    }
    free(algo);
    return ok;
}

/* The thread's rank in the block as CUB computes it from its
 * BLOCK_DIM_X and BLOCK_DIM_Y. */
static expr *linear_rank(const tile_shape *s)
{
    expr *r = expr_builtin_sym(SYM_TID_X);
    if (s->dim_y > 1 || s->threads > s->dim_x) {
        expr *yz =
            expr_binary(OP_ADD, expr_builtin_sym(SYM_TID_Y),
                        expr_binary(OP_MUL, expr_builtin_sym(SYM_TID_Z), expr_const(s->dim_y)));
        r = expr_binary(OP_ADD, r, expr_binary(OP_MUL, yz, expr_const(s->dim_x)));
    }
    return r;
}

/* The index, in items from the tile's start, of item k of this thread. */
static expr *item_index(const tile_shape *s, int64_t k)
{
    expr *rank = linear_rank(s);
    switch (s->arr) {
    case ARR_BLOCKED:
        return expr_binary(OP_ADD, expr_binary(OP_MUL, rank, expr_const(s->items)), expr_const(k));
    case ARR_STRIPED:
        return expr_binary(OP_ADD, expr_const(k * s->threads), rank);
    case ARR_WARP_STRIPED: {
        expr *warp = expr_binary(OP_DIV, expr_clone(rank), expr_const(32));
        expr *lane = expr_binary(OP_MOD, rank, expr_const(32));
        return expr_binary(OP_ADD, expr_binary(OP_MUL, warp, expr_const(32 * s->items)),
                           expr_binary(OP_ADD, lane, expr_const(32 * k)));
    }
    }
    return expr_unknown("arrangement");
}

/* Items per vector of a VECTORIZE tile without a valid count: a load
 * moves the thread's items as 4, 2 or 1 words of T's own width (words
 * dividing the items' total, InternalLoadDirectBlockedVectorized), a
 * store as CubVector<T, VEC> with VEC = min(4, ITEMS) when that is a power
 * of two dividing ITEMS (StoreDirectBlockedVectorized). The load checks
 * the pointer's alignment at run time and falls back to scalar loads;
 * cudaMalloc's alignment and whole tiles pass it, which is assumed. */
static int64_t vector_items(const tile_shape *s, bool store)
{
    if (store) {
        int64_t max = s->items < 4 ? s->items : 4;
        return ((max - 1) & max) == 0 && s->items % max == 0 ? max : 1;
    }
    return s->items % 4 == 0 ? 4 : s->items % 2 == 0 ? 2 : 1;
}

void cub_note_shared(walker *w, cnode *call, CXCursor def)
{
    cusrc_counts *c = &w->u->variants[w->variant].counts;
    if (c->shared_missing)
        return;
    src_loc l = {0};
    cn_loc(w->t, call->cur, &l);
    char *q = call_qualified_name(def);
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "line %d: the shared-memory traffic of '%s' is not counted", l.line, q);
    c->shared_missing = sbuf_take(&b);
    free(q);
    free(l.file);
}

bool cub_block_io(walker *w, cnode *call, CXCursor def)
{
    char *q = call_qualified_name(def);
    bool load = !strcmp(q, "cub::BlockLoad::Load");
    bool store = !strcmp(q, "cub::BlockStore::Store");
    bool ctor = def.kind == CXCursor_Constructor && (!strcmp(q, "cub::BlockLoad::BlockLoad") ||
                                                     !strcmp(q, "cub::BlockStore::BlockStore"));
    free(q);
    if (ctor)
        return true; /* binds the TempStorage: moves nothing */
    if (!load && !store)
        return false;
    tile_shape s;
    if (!tile_of(clang_getCursorSemanticParent(def), load ? "BLOCK_LOAD_" : "BLOCK_STORE_", &s))
        return false;
    /* Expression kid 0 is the callee; the arguments follow. */
    int nargs = cn_n_expr_kids(call) - 1;
    cnode *ptr = nargs >= 2 ? cn_expr_kid(call, 1) : NULL;
    cnode *valid = nargs >= 3 ? cn_expr_kid(call, 3) : NULL;
    /* An iterator's loads are its operator's: only a raw pointer is placed. */
    CXType pt = ptr ? clang_getCanonicalType(clang_getCursorType(cn_strip(ptr)->cur)) : (CXType){0};
    if (!ptr || pt.kind != CXType_Pointer)
        return false;
    int64_t width = cn_type_size(clang_getPointeeType(pt));
    if (width <= 0)
        return false;
    int64_t vec = s.vectorize && !valid ? vector_items(&s, store) : 1;
    int64_t piece = vec * width > 16 ? 16 : vec * width;
    lref r = {SP_NONE, -1, NULL, NULL, NULL};
    wk_resolve_pointer(w, ptr, &r, 0);
    expr *bound = valid ? x_expr(w->f, valid) : NULL;
    for (int64_t k = 0; k < s.items; k += vec) {
        expr *idx = item_index(&s, k);
        if (bound)
            wk_push_guard(w, expr_binary(OP_LT, expr_clone(idx), expr_clone(bound)));
        for (int64_t p = 0; p < vec * width; p += piece) {
            lref at = {r.space, r.array, xstrdup_null(r.base),
                       r.off ? expr_binary(OP_ADD, expr_clone(r.off),
                                           expr_binary(OP_ADD,
                                                       expr_binary(OP_MUL, expr_clone(idx),
                                                                   expr_const(width)),
                                                       expr_const(p)))
                             : NULL,
                       xstrdup_null(r.why)};
            wk_emit_access_at(w, ptr, &at, piece, store);
        }
        if (bound)
            wk_pop_guard(w);
        expr_free(idx);
    }
    expr_free(bound);
    wk_lref_free(&r);
    if (s.exchange)
        cub_note_shared(w, call, def);
    return true;
}
