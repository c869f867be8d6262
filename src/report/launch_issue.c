/* launch_issue: a launch's warp instructions (see launch_issue.h). */
#include "report/launch_issue.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/timing/icount.h"
#include "util/jsontext.h"
#include "util/sbuf.h"

static const char *const kind_names[ICOUNT_KINDS] = {"ldg", "stg",       "lds",    "sts",  "loop",
                                                     "arm", "looplines", "branch", "atomg"};

json_t *launch_issue_sites_json(const kroof *k)
{
    json_t *a = json_array();
    for (size_t i = 0; i < k->n_issue_sites; i++) {
        const icount_site *s = &k->issue_sites[i];
        json_array_append_new(a, json_pack("[o, i, s, f, i, f, f, i]", json_text(s->file), s->line,
                                           kind_names[s->kind], s->execs,
                                           s->merged > 1 ? s->merged : 1, s->iter_flops, s->step,
                                           s->last_line));
    }
    return a;
}

/* The code's file a source path names: the same path, or one that ends
 * in the other at a '/' (the front end's "k.cu" against nvdisasm's
 * "/home/u/src/k.cu", or a listing recorded elsewhere). */
static bool same_file(const char *src, const char *code)
{
    if (!src || !code)
        return false;
    while (!strncmp(src, "./", 2))
        src += 2;
    while (!strncmp(code, "./", 2))
        code += 2;
    size_t a = strlen(src), b = strlen(code);
    const char *longer = a >= b ? src : code, *shorter = a >= b ? code : src;
    size_t d = a >= b ? a - b : b - a;
    return strcmp(longer + d, shorter) == 0 && (d == 0 || longer[d - 1] == '/');
}

typedef struct code_fn {
    imix_level level;
    const imix_insn *insns;
    size_t n;
    const char *(*path)(const void *owner, int index);
    const void *owner;
    int n_files;
    int sm; /* PTX: its .target's number (90 for sm_90a); 0 = not given */
} code_fn;

static const char *sass_path(const void *owner, int index)
{
    return sass_file_path(owner, index);
}

static const char *ptx_path(const void *owner, int index)
{
    return ptx_file_path(owner, index);
}

/* SASS is what runs; PTX is before ptxas expands, merges and unrolls. */
static bool find_code(const code_listing *c, const char *mangled, const char *arch, code_fn *out)
{
    if (c->has_sass) {
        const sass_function *f = sass_find(&c->sass, mangled, arch);
        if (!f)
            f = sass_find(&c->sass, mangled, NULL);
        if (f) {
            *out = (code_fn){
                IMIX_SASS, f->insns, f->n_insns, sass_path, &c->sass, (int)c->sass.n_files, 0};
            return true;
        }
    }
    const ptx_module *m = NULL;
    const ptx_function *f = kernel_ptx_function(c, mangled, arch, &m);
    if (!f)
        return false;
    int files = 0;
    for (size_t k = 0; k < m->n_files; k++)
        if (m->files[k].index > files)
            files = m->files[k].index;
    int sm = !strncmp(m->target, "sm_", 3) ? atoi(m->target + 3) : 0;
    *out = (code_fn){IMIX_PTX, f->insns, f->n_insns, ptx_path, m, files, sm};
    return true;
}

/* The code's index of a source file; 0 = not in the code. */
static int code_file(const code_fn *fn, const char *path)
{
    for (int f = 1; f <= fn->n_files; f++)
        if (same_file(path, fn->path(fn->owner, f)))
            return f;
    return 0;
}

/* A load phase entry whose loop body holds nothing back ("free_body") gets
 * "unrolled": how many iterations' copies of it nvcc put in one pass of
 * its loop, which the time model takes as in flight together. */
static void add_unrolled(json_t *roof, const json_t *sites, const code_fn *fn)
{
    size_t p, i, j;
    json_t *ph, *ld;
    const json_t *s;
    json_array_foreach(json_object_get(roof, "load_phases"), p, ph) json_array_foreach(ph, i, ld)
    {
        if (!json_is_true(json_object_get(ld, "free_body")))
            continue;
        int line = (int)json_integer_value(json_object_get(ld, "line"));
        const char *path = json_string_value(json_object_get(ld, "file"));
        size_t on_line = 0;
        json_array_foreach(sites, j, s)
        {
            const char *kind = json_string_value(json_array_get(s, 2));
            if (!kind || strcmp(kind, "ldg") || json_integer_value(json_array_get(s, 1)) != line)
                continue;
            const char *file = json_string_value(json_array_get(s, 0));
            if (!path)
                path = file; /* the unit's own file */
            on_line += file && path && !strcmp(file, path);
        }
        int f = path ? code_file(fn, path) : 0;
        double u = f ? icount_unrolled(fn->level, fn->insns, fn->n, f, line, on_line) : 1;
        if (u > 1)
            json_object_set_new(ld, "unrolled", json_real(u));
    }
}

static void set_reason(json_t *roof, const char *why)
{
    json_object_set_new(roof, "issue", json_pack("{s:s}", "reason", why));
}

void launch_issue_add(json_t *roof, const code_listing *code, const char *mangled, const char *arch,
                      double warps, const int64_t block[3])
{
    if (!roof)
        return;
    const json_t *sites = json_object_get(roof, LAUNCH_ISSUE_SITES);
    code_fn fn;
    if (!code || (!code->has_sass && !code->n_ptx)) {
        set_reason(roof, "no compiled code was read (gpulint's own nvcc run keeps the PTX; "
                         "--sass gives a SASS listing)");
        return;
    }
    if (!mangled || !find_code(code, mangled, arch, &fn)) {
        set_reason(roof, "the kernel is not in the compiled code read");
        return;
    }
    add_unrolled(roof, sites, &fn);
    size_t n = json_array_size(sites), used = 0, i;
    icount_anchor *a = xcalloc(n ? n : 1, sizeof *a);
    const json_t *s;
    json_array_foreach(sites, i, s)
    {
        const char *file = json_string_value(json_array_get(s, 0));
        const char *kind = json_string_value(json_array_get(s, 2));
        int k = 0;
        while (k < ICOUNT_KINDS && kind && strcmp(kind_names[k], kind))
            k++;
        int f = code_file(&fn, file);
        if (k == ICOUNT_KINDS || !f)
            continue;
        /* PTX holds the source's scalar loads where ptxas merges them. */
        json_int_t merged = json_integer_value(json_array_get(s, 4));
        double execs = json_number_value(json_array_get(s, 3)) *
                       (fn.level == IMIX_PTX && merged > 1 ? (double)merged : 1);
        a[used++] = (icount_anchor){f,
                                    (int)json_integer_value(json_array_get(s, 1)),
                                    (icount_kind)k,
                                    execs,
                                    json_number_value(json_array_get(s, 5)),
                                    json_number_value(json_array_get(s, 6)),
                                    (int)json_integer_value(json_array_get(s, 7)),
                                    (int)merged};
    }
    icount r;
    bool ok = icount_compute_in(fn.level, fn.insns, fn.n, a, used, warps, block, fn.sm, &r);
    free(a);
    if (!ok) {
        set_reason(roof, r.why);
        return;
    }
    json_t *o = json_object();
    json_object_set_new(o, "warp_instructions", json_integer((json_int_t)(r.warp_insts + 0.5)));
    json_object_set_new(o, "level", json_text(fn.level == IMIX_SASS ? "sass" : "ptx"));
    json_object_set_new(o, "guessed_share",
                        json_real(r.warp_insts > 0 ? r.guessed / r.warp_insts : 0));
    /* What the time model takes: a guessed block may not run at all. */
    json_object_set_new(o, "placed_warp_instructions",
                        json_integer((json_int_t)(r.warp_insts - r.guessed + 0.5)));
    if (r.placed_chain_cycles > 0)
        json_object_set_new(o, "placed_chain_cycles", json_real(r.placed_chain_cycles));
    json_t *pipes = json_object();
    for (int p = 0; p < PIPES_OTHER; p++)
        json_object_set_new(pipes, pipes_name(p),
                            json_integer((json_int_t)(r.placed_pipes[p] + 0.5)));
    json_object_set_new(o, "placed_pipe_instructions", pipes);
    if (r.local_load_bytes > 0 || r.local_store_bytes > 0) {
        json_object_set_new(o, "local_load_bytes", json_real(r.local_load_bytes));
        json_object_set_new(o, "local_store_bytes", json_real(r.local_store_bytes));
    }
    json_object_set_new(o, "blocks", json_integer((json_int_t)r.blocks));
    json_object_set_new(o, "blocks_placed", json_integer((json_int_t)r.placed));
    json_object_set_new(o, "label", json_text("estimate"));
    json_t *tensor = json_object();
    for (int t = 0; t < IMIX_N_TENSOR_TYPES; t++)
        if (r.tensor_flops[t] > 0)
            json_object_set_new(tensor, imix_tensor_type_name(t), json_real(r.tensor_flops[t]));
    if (json_object_size(tensor) || r.tensor_unknown > 0) {
        /* the tensor FLOPs as compiled: every MMA the code runs, by shape */
        json_object_set_new(o, "tensor_flops", tensor);
        json_object_set_new(o, "tensor_instructions_without_shape",
                            json_integer((json_int_t)(r.tensor_unknown + 0.5)));
    } else {
        json_decref(tensor);
    }
    json_object_set_new(roof, "issue", o);
}

void launch_issue_strip(json_t *roofline)
{
    size_t i;
    json_t *e;
    json_array_foreach(roofline, i, e) json_object_del(e, LAUNCH_ISSUE_SITES);
}
