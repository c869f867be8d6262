/* cusrc_devprop: what a host program asks the device for, as names the run
 * binds from the model of --gpu (model_device_props): the fields of a
 * cudaDeviceProp that cudaGetDeviceProperties filled, and the locals
 * cudaDeviceGetAttribute filled, both as "cudaDeviceProp.<field>". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

/* A field of the cudaDeviceProp the host filled with
 * cudaGetDeviceProperties (`16 * prop.multiProcessorCount` blocks): one
 * name whatever the variable, "cudaDeviceProp.multiProcessorCount", which
 * the run binds from the model of --gpu (model_device_props). NULL when
 * n is not such a field. */
expr *x_device_prop(fn_ctx *f, cnode *n)
{
    if (f->device || n->n_kids < 1)
        return NULL;
    cnode *base = cn_strip(n->kids[0]);
    if (!base)
        return NULL;
    CXType bt = clang_getCanonicalType(clang_getCursorType(base->cur));
    if (bt.kind == CXType_Pointer)
        bt = clang_getCanonicalType(clang_getPointeeType(bt));
    CXString ts = clang_getTypeSpelling(bt);
    const char *t = clang_getCString(ts);
    bool prop = t && (!strcmp(t, "cudaDeviceProp") || !strcmp(t, "struct cudaDeviceProp"));
    clang_disposeString(ts);
    if (!prop)
        return NULL;
    char *field = cn_spelling(n->cur);
    char name[96];
    snprintf(name, sizeof name, "cudaDeviceProp.%s", field);
    if (!f->origin.len)
        sbuf_addf(&f->origin,
                  "depends on the GPU's '%s' (cudaDeviceProp), which the model of --gpu gives",
                  field);
    free(field);
    return expr_named(name);
}

/* cudaDevAttr* -> the cudaDeviceProp field that holds the same value. */
static const char *attribute_field(const char *attr)
{
    static const char *const map[][2] = {
        {"cudaDevAttrMultiProcessorCount", "multiProcessorCount"},
        {"cudaDevAttrMaxThreadsPerBlock", "maxThreadsPerBlock"},
        {"cudaDevAttrMaxThreadsPerMultiProcessor", "maxThreadsPerMultiProcessor"},
        {"cudaDevAttrMaxBlocksPerMultiprocessor", "maxBlocksPerMultiProcessor"},
        {"cudaDevAttrWarpSize", "warpSize"},
        {"cudaDevAttrMaxRegistersPerBlock", "regsPerBlock"},
        {"cudaDevAttrMaxRegistersPerMultiprocessor", "regsPerMultiprocessor"},
        {"cudaDevAttrMaxSharedMemoryPerBlock", "sharedMemPerBlock"},
        {"cudaDevAttrMaxSharedMemoryPerBlockOptin", "sharedMemPerBlockOptin"},
        {"cudaDevAttrMaxSharedMemoryPerMultiprocessor", "sharedMemPerMultiprocessor"},
        {"cudaDevAttrReservedSharedMemoryPerBlock", "reservedSharedMemPerBlock"},
        {"cudaDevAttrL2CacheSize", "l2CacheSize"},
        {"cudaDevAttrGlobalMemoryBusWidth", "memoryBusWidth"},
        {"cudaDevAttrComputeCapabilityMajor", "major"},
        {"cudaDevAttrComputeCapabilityMinor", "minor"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(attr, map[i][0]))
            return map[i][1];
    return NULL;
}

/* The first cudaDeviceGetAttribute(&v, cudaDevAttrX, dev) under n. */
static cnode *attribute_call(const var_info *v, cnode *n, int depth)
{
    if (!n || depth > CN_MAX_DEPTH)
        return NULL;
    if (n->kind == CXCursor_CallExpr) {
        char *name = cn_ref_name(n->cur);
        bool get = name && !strcmp(name, "cudaDeviceGetAttribute");
        free(name);
        cnode *dst = get ? cn_strip(cn_expr_kid(n, 1)) : NULL;
        if (dst && dst->kind == CXCursor_UnaryOperator && dst->n_kids == 1 &&
            clang_getCursorUnaryOperatorKind(dst->cur) == CXUnaryOperator_AddrOf) {
            cnode *r = cn_strip(dst->kids[0]);
            if (r && r->kind == CXCursor_DeclRefExpr &&
                clang_equalCursors(clang_getCursorReferenced(r->cur), v->decl))
                return n;
        }
    }
    for (int i = 0; i < n->n_kids; i++) {
        cnode *c = attribute_call(v, n->kids[i], depth + 1);
        if (c)
            return c;
    }
    return NULL;
}

/* A local the host fills with cudaDeviceGetAttribute(&sms,
 * cudaDevAttrMultiProcessorCount, dev): the same name as the
 * cudaDeviceProp field (x_device_prop), which the model of --gpu gives. NULL
 * when v is not filled so. */
expr *x_device_attribute(fn_ctx *f, const var_info *v)
{
    cnode *call = attribute_call(v, f->root, 0);
    cnode *attr = call ? cn_strip(cn_expr_kid(call, 2)) : NULL;
    if (!attr || attr->kind != CXCursor_DeclRefExpr)
        return NULL;
    char *an = cn_spelling(clang_getCursorReferenced(attr->cur));
    const char *field = attribute_field(an);
    free(an);
    if (!field)
        return NULL;
    char name[96];
    snprintf(name, sizeof name, "cudaDeviceProp.%s", field);
    if (!f->origin.len)
        sbuf_addf(&f->origin,
                  "depends on the GPU's '%s' (cudaDeviceGetAttribute), which the model of --gpu "
                  "gives",
                  field);
    return expr_named(name);
}

/* An element of a cudaDeviceProp array field the host reads at a constant
 * index (`prop.maxGridSize[0]`, the grid's largest x, which code clamps a
 * grid to): "cudaDeviceProp.maxGridSize[0]". NULL for anything else. */
expr *x_device_prop_element(fn_ctx *f, cnode *n)
{
    if (f->device || n->kind != CXCursor_ArraySubscriptExpr || n->n_kids != 2)
        return NULL;
    cnode *member = cn_strip(n->kids[0]);
    cnode *index = cn_strip(n->kids[1]);
    if (!member || member->kind != CXCursor_MemberRefExpr || !index)
        return NULL;
    CXEvalResult r = clang_Cursor_Evaluate(index->cur);
    bool integer = r && clang_EvalResult_getKind(r) == CXEval_Int;
    long long i = integer ? clang_EvalResult_getAsLongLong(r) : -1;
    if (r)
        clang_EvalResult_dispose(r);
    if (i < 0 || i > 2)
        return NULL;
    size_t mark = f->origin.len;
    expr *field = x_device_prop(f, member);
    if (!field)
        return NULL;
    char name[112];
    snprintf(name, sizeof name, "%s[%lld]", field->name, i);
    expr_free(field);
    if (f->origin.len > mark) {
        sbuf_truncate(&f->origin, mark);
        sbuf_addf(&f->origin,
                  "depends on the GPU's '%s' (cudaDeviceProp), which the model of --gpu gives",
                  name + strlen("cudaDeviceProp."));
    }
    return expr_named(name);
}
