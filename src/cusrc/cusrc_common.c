/* cusrc_common: the half of the source front end that does not need
 * libclang: freeing a unit, the debug listing, and small lookups for the
 * consumers. Built in every configuration so that code holding a unit
 * compiles the same on machines without libclang. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc.h"
#include "util/sbuf.h"

static void loc_free(src_loc *l)
{
    free(l->file);
}

static void value_free(cusrc_value *v)
{
    expr_free(v->e);
    free(v->text);
    free(v->why);
}

static void dim3_free(cusrc_dim3 *d)
{
    value_free(&d->x);
    value_free(&d->y);
    value_free(&d->z);
    free(d->text);
}

static void targs_free(cusrc_targ *a, int n)
{
    for (int i = 0; i < n; i++) {
        free(a[i].param);
        free(a[i].type_name);
        free(a[i].text);
    }
    free(a);
}

static void loops_free(loop_ctx *l, int n)
{
    for (int i = 0; i < n; i++) {
        free(l[i].var);
        expr_free(l[i].init);
        expr_free(l[i].cond);
        expr_free(l[i].next);
        loc_free(&l[i].loc);
    }
}

void access_free(mem_access *a)
{
    free(a->kernel);
    free(a->base);
    expr_free(a->byte_offset);
    expr_free(a->guard);
    loops_free(a->loops, a->n_loops);
    free(a->text);
    free(a->why_not);
    free(a->via);
    loc_free(&a->loc);
    memset(a, 0, sizeof *a);
}

static void counts_free(cusrc_counts *c)
{
    expr_free(c->flops_fp16);
    expr_free(c->flops_fp32);
    expr_free(c->flops_fp64);
    expr_free(c->transcendental_fp32);
    expr_free(c->transcendental_fp64);
    expr_free(c->tensor_flops);
    expr_free(c->gmem_load_bytes);
    expr_free(c->gmem_store_bytes);
    expr_free(c->gmem_accesses);
    for (int i = 0; i < c->n_arms; i++) {
        free(c->arm_names[i]);
        expr_free(c->arm_conds[i]);
    }
    free(c->arm_names);
    free(c->arm_conds);
    free(c->incomplete);
    free(c->unsited_global);
    free(c->flops_estimate);
    free(c->shared_missing);
}

void cusrc_launch_free(cusrc_launch *l)
{
    free(l->kernel_name);
    free(l->mangled);
    targs_free(l->targs, l->n_targs);
    free(l->targs_text);
    dim3_free(&l->grid);
    dim3_free(&l->block);
    dim3_free(&l->cluster);
    value_free(&l->smem);
    for (int a = 0; a < l->n_args; a++)
        value_free(&l->args[a]);
    free(l->args);
    for (int a = 0; a < l->n_arg_fields; a++)
        free(l->arg_fields[a].name);
    free(l->arg_fields);
    free(l->stream);
    free(l->function);
    value_free(&l->optin_bytes);
    free(l->text);
    free(l->pointer);
    free(l->why_not);
    expr_free(l->reach);
    free(l->via);
    free(l->between.var);
    for (int i = 0; l->paths && i < l->call_paths; i++) {
        for (int k = 0; k < l->paths[i].n; k++) {
            free(l->paths[i].fn[k]);
            expr_free(l->paths[i].runs[k]);
            free(l->paths[i].why[k]);
        }
        free(l->paths[i].fn);
        free(l->paths[i].why);
        free(l->paths[i].runs);
    }
    free(l->paths);
    for (int i = 0; i < l->n_sizes_from; i++) {
        free(l->sizes_from[i].name);
        free(l->sizes_from[i].function);
        loc_free(&l->sizes_from[i].loc);
    }
    free(l->sizes_from);
    loc_free(&l->loc);
}

void cusrc_unit_free(cusrc_unit *u)
{
    if (!u)
        return;
    for (size_t i = 0; i < u->n_kernels; i++) {
        cusrc_kernel *k = &u->kernels[i];
        free(k->name);
        free(k->qualified);
        free(k->usr);
        for (int j = 0; j < k->n_tparams; j++)
            free(k->tparams[j]);
        free(k->tparams);
        free(k->tparam_is_type);
        for (int j = 0; j < k->n_params; j++) {
            free(k->params[j].name);
            free(k->params[j].type);
        }
        free(k->params);
        free(k->mangled);
        free(k->launch_bounds.text);
        free(k->cluster_dims.text);
        free(k->annotation);
        free(k->note);
        loc_free(&k->loc);
    }
    free(u->kernels);
    for (size_t i = 0; i < u->n_variants; i++) {
        cusrc_variant *v = &u->variants[i];
        free(v->name);
        free(v->mangled);
        targs_free(v->targs, v->n_targs);
        free(v->launch_bounds.text);
        counts_free(&v->counts);
    }
    free(u->variants);
    for (size_t i = 0; i < u->n_launches; i++)
        cusrc_launch_free(&u->launches[i]);
    free(u->launches);
    for (size_t i = 0; i < u->n_arrays; i++) {
        free(u->arrays[i].name);
        loc_free(&u->arrays[i].loc);
        free(u->array_info[i].type);
        for (int d = 0; d < ACCESS_MAX_DIMS; d++)
            expr_free(u->array_info[i].dims[d]);
        free(u->array_info[i].why);
    }
    free(u->arrays);
    free(u->array_info);
    for (size_t i = 0; i < u->n_accesses; i++)
        access_free(&u->accesses[i]);
    free(u->accesses);
    for (size_t i = 0; i < u->n_branches; i++) {
        branch_site *b = &u->branches[i];
        free(b->kernel);
        expr_free(b->cond);
        expr_free(b->guard);
        loops_free(b->loops, b->n_loops);
        free(b->text);
        free(b->why_not);
        free(b->via);
        loc_free(&b->loc);
    }
    free(u->branches);
    for (size_t i = 0; i < u->n_ignores; i++) {
        free(u->ignores[i].file);
        free(u->ignores[i].check);
    }
    free(u->ignores);
    for (size_t i = 0; i < u->n_notes; i++)
        free(u->notes[i]);
    free(u->notes);
    for (size_t i = 0; i < u->n_siblings_read; i++)
        free(u->siblings_read[i]);
    free(u->siblings_read);
    for (size_t i = 0; i < u->n_includes_read; i++)
        free(u->includes_read[i]);
    free(u->includes_read);
    for (int i = 0; i < u->n_args; i++)
        free(u->args[i]);
    free(u->args);
    free(u->file);
    memset(u, 0, sizeof *u);
}

/* ---- lookups ---- */

const cusrc_kernel *cusrc_find_kernel(const cusrc_unit *u, const char *name)
{
    for (size_t i = 0; i < u->n_kernels; i++)
        if (strcmp(u->kernels[i].name, name) == 0 || strcmp(u->kernels[i].qualified, name) == 0)
            return &u->kernels[i];
    return NULL;
}

const cusrc_variant *cusrc_launch_variant(const cusrc_unit *u, const cusrc_launch *l)
{
    if (l->variant < 0 || (size_t)l->variant >= u->n_variants)
        return NULL;
    return &u->variants[l->variant];
}

const char *cusrc_launch_kind_name(cusrc_launch_kind k)
{
    switch (k) {
    case CUSRC_LAUNCH_CHEVRON:
        return "<<<>>>";
    case CUSRC_LAUNCH_API:
        return "cudaLaunchKernel";
    case CUSRC_LAUNCH_API_EX:
        return "cudaLaunchKernelEx";
    case CUSRC_LAUNCH_COOPERATIVE:
        return "cudaLaunchCooperativeKernel";
    }
    return "?";
}

bool cusrc_is_ignored(const cusrc_unit *u, const char *file, int line, const char *check)
{
    for (size_t i = 0; i < u->n_ignores; i++) {
        const cusrc_ignore *g = &u->ignores[i];
        if (g->target_line != line || (file && strcmp(g->file, file) != 0))
            continue;
        if (!strcmp(g->check, "all") || !strcmp(g->check, check))
            return true;
        /* "bank-conflict" also names "gpulint-bank-conflict". */
        if (!strncmp(check, "gpulint-", 8) && !strcmp(g->check, check + 8))
            return true;
    }
    return false;
}

/* ---- dump ---- */

static void add_expr(sbuf *o, const expr *e)
{
    if (!e) {
        sbuf_add(o, "-");
        return;
    }
    char *s = expr_to_string(e);
    sbuf_add(o, s);
    free(s);
}

static void dump_value(sbuf *o, const char *label, const cusrc_value *v)
{
    sbuf_addf(o, "%s=", label);
    if (!v->present && !v->known) {
        sbuf_add(o, "-");
        return;
    }
    if (v->known)
        sbuf_addf(o, "%lld", (long long)v->value);
    else {
        sbuf_addc(o, '{');
        add_expr(o, v->e);
        sbuf_addc(o, '}');
    }
}

static void dump_dim3(sbuf *o, const char *label, const cusrc_dim3 *d)
{
    sbuf_addf(o, " %s=", label);
    if (!d->present) {
        sbuf_add(o, "-");
        return;
    }
    const cusrc_value *c[3] = {&d->x, &d->y, &d->z};
    for (int i = 0; i < 3; i++) {
        if (i)
            sbuf_addc(o, 'x');
        if (c[i]->known)
            sbuf_addf(o, "%lld", (long long)c[i]->value);
        else {
            sbuf_addc(o, '{');
            add_expr(o, c[i]->e);
            sbuf_addc(o, '}');
        }
    }
}

static void dump_loops(sbuf *o, const loop_ctx *l, int n)
{
    for (int i = 0; i < n; i++) {
        sbuf_addf(o, "\n      loop@%d %s: init=", l[i].loc.line, l[i].var ? l[i].var : "?");
        add_expr(o, l[i].init);
        sbuf_add(o, " cond=");
        add_expr(o, l[i].cond);
        sbuf_add(o, " next=");
        add_expr(o, l[i].next);
    }
}

static void dump_attributes(sbuf *o, const cusrc_kernel *k)
{
    if (k->launch_bounds.present)
        sbuf_addf(o, "  __launch_bounds__(%s) = %lld, %lld, %lld\n",
                  k->launch_bounds.text ? k->launch_bounds.text : "",
                  (long long)k->launch_bounds.max_threads, (long long)k->launch_bounds.min_blocks,
                  (long long)k->launch_bounds.max_cluster);
    if (k->cluster_dims.present)
        sbuf_addf(o, "  __cluster_dims__(%s) = %lld, %lld, %lld\n",
                  k->cluster_dims.text ? k->cluster_dims.text : "",
                  (long long)k->cluster_dims.dims[0], (long long)k->cluster_dims.dims[1],
                  (long long)k->cluster_dims.dims[2]);
}

void cusrc_dump(const cusrc_unit *u, sbuf *o)
{
    sbuf_addf(o, "file %s (parse %.3fs, analysis %.3fs, %d errors)\n", u->file ? u->file : "?",
              u->parse_seconds, u->analyse_seconds, u->n_errors);
    for (size_t i = 0; i < u->n_notes; i++)
        sbuf_addf(o, "note: %s\n", u->notes[i]);
    for (size_t i = 0; i < u->n_kernels; i++) {
        const cusrc_kernel *k = &u->kernels[i];
        sbuf_addf(o, "kernel %s (%s) at %d:%d%s", k->name, k->qualified, k->loc.line, k->loc.column,
                  k->templated ? " template<" : "");
        for (int j = 0; j < k->n_tparams; j++)
            sbuf_addf(o, "%s%s%s", j ? ", " : "", k->tparam_is_type[j] ? "typename " : "",
                      k->tparams[j]);
        if (k->templated)
            sbuf_addc(o, '>');
        sbuf_add(o, "\n  params:");
        for (int j = 0; j < k->n_params; j++)
            sbuf_addf(o, " [%s %s]", k->params[j].type, k->params[j].name);
        sbuf_addc(o, '\n');
        if (k->mangled)
            sbuf_addf(o, "  mangled %s\n", k->mangled);
        dump_attributes(o, k);
        if (k->annotation)
            sbuf_addf(o, "  annotation: %s\n", k->annotation);
        if (k->note)
            sbuf_addf(o, "  note: %s\n", k->note);
        for (size_t v = k->first_variant; v < k->first_variant + k->n_variants; v++) {
            const cusrc_variant *var = &u->variants[v];
            sbuf_addf(o, "  variant %s%s mangled=%s static_smem=%lld", var->name,
                      var->generic ? " (generic)" : "", var->mangled ? var->mangled : "-",
                      (long long)var->static_smem);
            if (var->launch_bounds.present)
                sbuf_addf(o, " launch_bounds=%lld,%lld,%lld",
                          (long long)var->launch_bounds.max_threads,
                          (long long)var->launch_bounds.min_blocks,
                          (long long)var->launch_bounds.max_cluster);
            sbuf_addc(o, '\n');
            const cusrc_counts *c = &var->counts;
            sbuf_add(o, "    counts fp32=");
            add_expr(o, c->flops_fp32);
            sbuf_add(o, " fp64=");
            add_expr(o, c->flops_fp64);
            sbuf_add(o, " fp16=");
            add_expr(o, c->flops_fp16);
            sbuf_add(o, " tr32=");
            add_expr(o, c->transcendental_fp32);
            sbuf_add(o, " tr64=");
            add_expr(o, c->transcendental_fp64);
            sbuf_add(o, " tensor=");
            add_expr(o, c->tensor_flops);
            sbuf_add(o, " ld=");
            add_expr(o, c->gmem_load_bytes);
            sbuf_add(o, " st=");
            add_expr(o, c->gmem_store_bytes);
            if (c->incomplete)
                sbuf_addf(o, " INCOMPLETE(%d): %s", c->n_incomplete, c->incomplete);
            sbuf_addc(o, '\n');
            for (size_t a = var->first_array; a < var->first_array + var->n_arrays; a++) {
                const smem_array *s = &u->arrays[a];
                sbuf_addf(o, "    smem[%zu] %s %s", a, u->array_info[a].type, s->name);
                if (s->dynamic)
                    sbuf_add(o, "[] (dynamic)");
                for (int d = 0; d < s->n_dims; d++) {
                    sbuf_addc(o, '[');
                    add_expr(o, u->array_info[a].dims[d]);
                    sbuf_addc(o, ']');
                }
                sbuf_addf(o, " elem=%d at %d:%d", s->elem_size, s->loc.line, s->loc.column);
                if (u->array_info[a].why)
                    sbuf_addf(o, " (%s)", u->array_info[a].why);
                sbuf_addc(o, '\n');
            }
            for (size_t a = var->first_access; a < var->first_access + var->n_accesses; a++) {
                const mem_access *m = &u->accesses[a];
                sbuf_addf(
                    o,
                    "    %s %s %d:%d %s w=%d off=", m->space == SPACE_SHARED ? "shared" : "global",
                    m->is_store ? "store" : "load ", m->loc.line, m->loc.column, m->text, m->width);
                add_expr(o, m->byte_offset);
                if (m->guard) {
                    sbuf_add(o, " guard=");
                    add_expr(o, m->guard);
                }
                if (m->why_not)
                    sbuf_addf(o, " WHY_NOT: %s", m->why_not);
                if (m->via)
                    sbuf_addf(o, " VIA: %s", m->via);
                dump_loops(o, m->loops, m->n_loops);
                sbuf_addc(o, '\n');
            }
            for (size_t b = var->first_branch; b < var->first_branch + var->n_branches; b++) {
                const branch_site *s = &u->branches[b];
                static const char *const kinds[] = {"if", "loop", "ternary", "switch"};
                sbuf_addf(o, "    branch %s %d:%d (%s) cond=", kinds[s->kind], s->loc.line,
                          s->loc.column, s->text);
                add_expr(o, s->cond);
                if (s->why_not)
                    sbuf_addf(o, " WHY_NOT: %s", s->why_not);
                if (s->via)
                    sbuf_addf(o, " VIA: %s", s->via);
                dump_loops(o, s->loops, s->n_loops);
                sbuf_addc(o, '\n');
            }
        }
    }
    for (size_t i = 0; i < u->n_launches; i++) {
        const cusrc_launch *l = &u->launches[i];
        sbuf_addf(o, "launch %s %s", cusrc_launch_kind_name(l->kind),
                  l->kernel_name ? l->kernel_name : "?");
        if (l->n_targs) {
            sbuf_addc(o, '<');
            for (int j = 0; j < l->n_targs; j++)
                sbuf_addf(o, "%s%s", j ? ", " : "", l->targs[j].text);
            sbuf_addc(o, '>');
        }
        sbuf_addf(o, " at %d:%d in %s variant=%ld", l->loc.line, l->loc.column,
                  l->function ? l->function : "?", l->variant);
        dump_dim3(o, "grid", &l->grid);
        dump_dim3(o, "block", &l->block);
        sbuf_addc(o, ' ');
        dump_value(o, "smem", &l->smem);
        if (l->smem_optin) {
            sbuf_addc(o, ' ');
            dump_value(o, "optin", &l->optin_bytes);
        }
        if (l->cluster.present) {
            dump_dim3(o, "cluster", &l->cluster);
            sbuf_addf(o, " from=%s%s", l->cluster_from,
                      l->cluster_nonportable ? " nonportable" : "");
        }
        if (l->pointer)
            sbuf_addf(o, " through=%s", l->pointer);
        if (l->why_not)
            sbuf_addf(o, " WHY_NOT: %s", l->why_not);
        sbuf_addc(o, '\n');
        const cusrc_value *vals[] = {&l->grid.x,  &l->grid.y,  &l->grid.z, &l->block.x,
                                     &l->block.y, &l->block.z, &l->smem};
        for (size_t j = 0; j < sizeof vals / sizeof vals[0]; j++)
            if (vals[j]->why)
                sbuf_addf(o, "  why: %s\n", vals[j]->why);
    }
    for (size_t i = 0; i < u->n_ignores; i++)
        sbuf_addf(o, "ignore %s at line %d (comment on %d)\n", u->ignores[i].check,
                  u->ignores[i].target_line, u->ignores[i].line);
}

/* ---- nvcc's arguments as libclang's ---- */

static bool is_rdc(const char *a, const char *next)
{
    if (!strcmp(a, "-dc") || !strcmp(a, "--device-c") || !strcmp(a, "-rdc=true") ||
        !strcmp(a, "--relocatable-device-code=true"))
        return true;
    return next && (!strcmp(a, "-rdc") || !strcmp(a, "--relocatable-device-code")) &&
           !strcmp(next, "true");
}

/* nvcc's flag spellings: "-ftz=true", "--ftz=true", "-ftz true". */
static bool flag_is(char *const *a, int n, int i, const char *name, const char *value)
{
    const char *s = a[i];
    if (s[0] == '-' && s[1] == '-')
        s++;
    size_t k = strlen(name);
    if (strncmp(s, name, k) != 0)
        return false;
    if (s[k] == '=')
        return !strcmp(s + k + 1, value);
    return s[k] == '\0' && i + 1 < n && !strcmp(a[i + 1], value);
}

math_mode cusrc_math_mode(char *const *a, int n)
{
    bool fast = false, approx = false, ftz = false;
    for (int i = 0; i < n; i++) {
        if (!strcmp(a[i], "--use_fast_math") || !strcmp(a[i], "-use_fast_math"))
            fast = true;
        else if (flag_is(a, n, i, "-prec-div", "false") || flag_is(a, n, i, "-prec-sqrt", "false"))
            approx = true;
        else if (flag_is(a, n, i, "-ftz", "true"))
            ftz = true;
    }
    return fast ? MATH_FAST : approx ? MATH_APPROX : ftz ? MATH_FTZ : MATH_DEFAULT;
}

/* nvcc's -I/-D/-U/-std/-include/-isystem mean the same to clang; the rest
 * (-Xptxas, --use_fast_math, ...) does not, so only those travel, and
 * relocatable device code (device-side launches) becomes -fgpu-rdc. */
int cusrc_clang_args(char *const *extra, int n_extra, const char **out)
{
    int n = 0;
    bool rdc = false;
    for (int i = 0; i < n_extra; i++)
        rdc = rdc || is_rdc(extra[i], i + 1 < n_extra ? extra[i + 1] : NULL);
    if (rdc)
        out[n++] = "-fgpu-rdc";
    for (int i = 0; i < n_extra; i++) {
        const char *a = extra[i];
        bool takes_next = strcmp(a, "-I") == 0 || strcmp(a, "-D") == 0 || strcmp(a, "-U") == 0 ||
                          strcmp(a, "-isystem") == 0 || strcmp(a, "-include") == 0;
        if (takes_next && i + 1 < n_extra) {
            out[n++] = a;
            out[n++] = extra[++i];
        } else if (strncmp(a, "-I", 2) == 0 || strncmp(a, "-D", 2) == 0 ||
                   strncmp(a, "-U", 2) == 0 || strncmp(a, "-std=", 5) == 0) {
            out[n++] = a;
        }
    }
    return n;
}

bool cusrc_arch_of(char *const *nvcc_args, int n, char arch[32])
{
    for (int i = 0; i < n; i++) {
        const char *a = nvcc_args[i], *v = NULL;
        if (!strncmp(a, "-arch=", 6))
            v = a + 6;
        else if (!strcmp(a, "-gencode") && i + 1 < n && strstr(nvcc_args[i + 1], "code=sm_"))
            v = strstr(nvcc_args[i + 1], "code=sm_") + 5;
        if (v && !strncmp(v, "sm_", 3)) {
            snprintf(arch, 32, "sm_%.*s", (int)strspn(v + 3, "0123456789"), v + 3);
            return true;
        }
    }
    return false;
}

/* 1 true, 0 false, -1 not known: && and || decide where one side does
 * (`which == 0 && threads == 512` is false with threads=256 alone). */
int cusrc_truth(const expr *e, const expr_env *env)
{
    int64_t v;
    if (expr_eval(e, env, &v, NULL) == EXPR_OK)
        return v != 0;
    if (e->kind == EX_UNARY && e->op == OP_NOT) {
        int a = cusrc_truth(e->a, env);
        return a < 0 ? -1 : !a;
    }
    if (e->kind == EX_BINARY && (e->op == OP_LAND || e->op == OP_LOR)) {
        int a = cusrc_truth(e->a, env), b = cusrc_truth(e->b, env);
        int decides = e->op == OP_LOR; /* the value that decides alone */
        if (a == decides || b == decides)
            return decides;
        return a < 0 || b < 0 ? -1 : !decides;
    }
    return -1;
}

size_t cusrc_drop_unreached(cusrc_unit *u, const expr_env *env)
{
    size_t kept = 0, dropped = 0;
    int *lines = NULL, n_lines = 0;
    sbuf which;
    sbuf_init(&which);
    for (size_t i = 0; i < u->n_launches; i++) {
        cusrc_launch *l = &u->launches[i];
        if (l->reach && cusrc_truth(l->reach, env) == 0) {
            /* Each instantiation of a template function has its copy. */
            bool seen = false;
            for (int j = 0; j < n_lines && !seen; j++)
                seen = lines[j] == l->loc.line;
            if (!seen) {
                lines = xrealloc(lines, (size_t)(n_lines + 1) * sizeof *lines);
                lines[n_lines++] = l->loc.line;
                if (n_lines <= 3)
                    sbuf_addf(&which, "%s'%s' (line %d)", n_lines > 1 ? ", " : "",
                              l->text ? l->text : "?", l->loc.line);
            }
            dropped++;
            if (l->variant >= 0 && (size_t)l->variant < u->n_variants)
                u->variants[l->variant].n_unreached++;
            cusrc_launch_free(l);
            continue;
        }
        u->launches[kept++] = *l;
    }
    u->n_launches = kept;
    if (dropped) {
        sbuf note;
        sbuf_init(&note);
        sbuf_addf(&note,
                  "%zu launch%s never run%s with these values (the if or switch around %s is "
                  "false) and %s not analysed: %s%s",
                  dropped, dropped == 1 ? "" : "es", dropped == 1 ? "s" : "",
                  dropped == 1 ? "it" : "them", dropped == 1 ? "is" : "are", which.data,
                  n_lines > 3 ? ", ..." : "");
        u->notes = xrealloc(u->notes, (u->n_notes + 1) * sizeof *u->notes);
        u->notes[u->n_notes++] = sbuf_take(&note);
    }
    sbuf_free(&which);
    free(lines);
    return dropped;
}

void cusrc_xcalls_free(cusrc_xcalls *x)
{
    if (!x)
        return;
    for (size_t c = 0; c < x->n; c++) {
        cusrc_xcall *v = &x->v[c];
        free(v->usr);
        free(v->callee);
        loc_free(&v->loc);
        free(v->text);
        for (int i = 0; i < v->n_args; i++) {
            free(v->args[i].why);
            free(v->args[i].text);
            free(v->args[i].expr);
            for (int k = 0; k < v->args[i].n_fields; k++)
                free(v->args[i].fields[k].name);
            free(v->args[i].fields);
        }
        free(v->args);
        for (int i = 0; i < v->n_folded; i++) {
            free(v->folded[i].name);
            free(v->folded[i].function);
            loc_free(&v->folded[i].loc);
        }
        free(v->folded);
        for (int i = 0; i < v->n_path; i++) {
            free(v->fn[i]);
            free(v->why[i]);
        }
        free(v->fn);
        free(v->runs);
        free(v->why);
        for (int i = 0; i < v->n_self; i++)
            free(v->self[i].name);
        free(v->self);
    }
    free(x->v);
    for (size_t i = 0; i < x->n_g; i++) {
        free(x->g[i].usr);
        free(x->g[i].name);
        loc_free(&x->g[i].loc);
    }
    free(x->g);
    memset(x, 0, sizeof *x);
}

static void value_copy(cusrc_value *to, const cusrc_value *from)
{
    *to = *from;
    to->e = from->e ? expr_clone(from->e) : NULL;
    to->text = xstrdup_null(from->text);
    to->why = xstrdup_null(from->why);
}

static void dim3_copy(cusrc_dim3 *to, const cusrc_dim3 *from)
{
    to->present = from->present;
    value_copy(&to->x, &from->x);
    value_copy(&to->y, &from->y);
    value_copy(&to->z, &from->z);
    to->text = xstrdup_null(from->text);
}

static void loc_copy(src_loc *to, const src_loc *from)
{
    *to = *from;
    to->file = xstrdup_null(from->file);
}

void cusrc_launch_values(const cusrc_launch *l, cusrc_value *out[CUSRC_LAUNCH_VALUES])
{
    cusrc_launch *w = (cusrc_launch *)l;
    cusrc_value *v[CUSRC_LAUNCH_VALUES] = {&w->grid.x,  &w->grid.y,  &w->grid.z, &w->block.x,
                                           &w->block.y, &w->block.z, &w->smem};
    memcpy(out, v, sizeof v);
}

void cusrc_launch_copy(cusrc_launch *to, const cusrc_launch *l)
{
    *to = *l;
    to->kernel_name = xstrdup_null(l->kernel_name);
    to->mangled = xstrdup_null(l->mangled);
    to->targs = l->n_targs ? xcalloc((size_t)l->n_targs, sizeof *to->targs) : NULL;
    for (int i = 0; i < l->n_targs; i++) {
        to->targs[i] = l->targs[i];
        to->targs[i].param = xstrdup_null(l->targs[i].param);
        to->targs[i].type_name = xstrdup_null(l->targs[i].type_name);
        to->targs[i].text = xstrdup_null(l->targs[i].text);
    }
    to->targs_text = xstrdup_null(l->targs_text);
    dim3_copy(&to->grid, &l->grid);
    dim3_copy(&to->block, &l->block);
    dim3_copy(&to->cluster, &l->cluster);
    value_copy(&to->smem, &l->smem);
    to->stream = xstrdup_null(l->stream);
    to->args = l->n_args ? xcalloc((size_t)l->n_args, sizeof *to->args) : NULL;
    for (int a = 0; a < l->n_args; a++)
        value_copy(&to->args[a], &l->args[a]);
    to->arg_fields =
        l->n_arg_fields ? xcalloc((size_t)l->n_arg_fields, sizeof *to->arg_fields) : NULL;
    for (int a = 0; a < l->n_arg_fields; a++) {
        to->arg_fields[a].name = xstrdup(l->arg_fields[a].name);
        to->arg_fields[a].value = l->arg_fields[a].value;
    }
    to->function = xstrdup_null(l->function);
    value_copy(&to->optin_bytes, &l->optin_bytes);
    to->text = xstrdup_null(l->text);
    to->pointer = xstrdup_null(l->pointer);
    to->why_not = xstrdup_null(l->why_not);
    to->reach = l->reach ? expr_clone(l->reach) : NULL;
    to->via = xstrdup_null(l->via);
    to->between.var = xstrdup_null(l->between.var);
    to->paths = l->call_paths ? xcalloc((size_t)l->call_paths, sizeof *to->paths) : NULL;
    for (int i = 0; i < l->call_paths; i++) {
        const cusrc_path *p = &l->paths[i];
        cusrc_path *q = &to->paths[i];
        q->n = p->n;
        q->fn = xcalloc((size_t)p->n + 1, sizeof *q->fn);
        q->runs = xcalloc((size_t)p->n + 1, sizeof *q->runs);
        q->why = xcalloc((size_t)p->n + 1, sizeof *q->why);
        for (int k = 0; k < p->n; k++) {
            q->fn[k] = xstrdup_null(p->fn[k]);
            q->runs[k] = p->runs[k] ? expr_clone(p->runs[k]) : NULL;
            q->why[k] = xstrdup_null(p->why[k]);
        }
    }
    to->sizes_from =
        l->n_sizes_from ? xcalloc((size_t)l->n_sizes_from, sizeof *to->sizes_from) : NULL;
    for (int i = 0; i < l->n_sizes_from; i++) {
        to->sizes_from[i] = l->sizes_from[i];
        to->sizes_from[i].name = xstrdup_null(l->sizes_from[i].name);
        to->sizes_from[i].function = xstrdup_null(l->sizes_from[i].function);
        loc_copy(&to->sizes_from[i].loc, &l->sizes_from[i].loc);
    }
    loc_copy(&to->loc, &l->loc);
}
