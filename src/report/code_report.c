/* code_report: the compiled code's mix as JSON and text, and its check
 * against the source's FLOPs. SASS is what runs, so it is used where it is
 * there; PTX is one step before ptxas (which still fuses, merges scalar
 * loads into wider ones and folds), and every figure says its level. */
#include "report/code_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/imix.h"
#include "util/jsontext.h"
#include "util/units.h"

void code_listing_free(code_listing *c)
{
    for (size_t i = 0; i < c->n_ptx; i++)
        ptx_module_free(&c->ptx[i]);
    free(c->ptx);
    if (c->has_sass)
        sass_listing_free(&c->sass);
    free(c->sass_origin);
    free(c->why_no_sass);
    memset(c, 0, sizeof *c);
}

static json_t *mix_json(const imix *m)
{
    json_t *mix = json_object(), *widths = json_object();
    for (int c = 0; c < IMIX_N_CLASSES; c++) {
        if (!m->count[c] || c == IMIX_OTHER)
            continue;
        json_object_set_new(mix, imix_class_name(c), json_integer((json_int_t)m->count[c]));
        json_t *w = json_object();
        for (int k = 0; k < IMIX_N_WIDTHS; k++)
            if (m->width[c][k]) {
                char bits[8];
                snprintf(bits, sizeof bits, "%d", imix_width_bits(k));
                json_object_set_new(w, bits, json_integer((json_int_t)m->width[c][k]));
            }
        if (json_object_size(w))
            json_object_set_new(widths, imix_class_name(c), w);
        else
            json_decref(w);
    }
    json_t *flops = json_object();
    for (int p = 0; p < IMIX_N_PRECISIONS; p++)
        json_object_set_new(flops, imix_precision_name(p), json_real(m->flops[p]));
    json_t *o = json_pack("{s:I, s:o, s:o, s:o, s:I, s:I, s:I}", "instructions",
                          (json_int_t)m->n_insns, "mix", mix, "widths", widths, "static_flops",
                          flops, "loops", (json_int_t)m->backward_branches, "guarded_branches",
                          (json_int_t)m->guarded_branches, "moves", (json_int_t)m->moves);
    if (m->count[IMIX_TENSOR]) {
        /* a warp's tensor FLOPs in one pass through the code, by the shapes
         * the opcodes name; those that name none are counted apart */
        json_t *tensor = json_object();
        for (int t = 0; t < IMIX_N_TENSOR_TYPES; t++)
            if (m->tensor_flops[t] > 0)
                json_object_set_new(tensor, imix_tensor_type_name(t),
                                    json_real(m->tensor_flops[t]));
        json_object_set_new(o, "static_tensor_flops", tensor);
        json_object_set_new(o, "tensor_without_shape", json_integer((json_int_t)m->tensor_unknown));
    }
    return o;
}

static const char *level_name(imix_level l)
{
    return l == IMIX_SASS ? "SASS" : "PTX";
}

static void add_note(json_t *notes, const char *kernel, imix_level level, const char *what)
{
    char text[640];
    snprintf(text, sizeof text, "'%s': %s (%s)", kernel, what, level_name(level));
    json_array_append_new(notes, json_text(text));
}

/* What the source's counts cannot hold: the copy engine's bulk copies
 * (TMA) move global memory no thread's access names, and an MMA whose
 * shape its opcode does not give (tcgen05.mma: a descriptor) has no FLOP
 * count. */
static void async_notes(const imix *m, const char *kernel, json_t *notes)
{
    char what[400];
    if (m->count[IMIX_TMA]) {
        snprintf(what, sizeof what,
                 "%zu bulk cop%s through the copy engine (TMA: cp.async.bulk) move%s global "
                 "memory that no access of the source names: the requested and DRAM bytes leave "
                 "%s out",
                 m->count[IMIX_TMA], m->count[IMIX_TMA] == 1 ? "y" : "ies",
                 m->count[IMIX_TMA] == 1 ? "s" : "", m->count[IMIX_TMA] == 1 ? "it" : "them");
        add_note(notes, kernel, m->level, what);
    }
    if (m->tensor_unknown) {
        snprintf(what, sizeof what,
                 "%zu tensor instruction%s no shape gpulint reads (a descriptor gives it at run "
                 "time): %s FLOPs are not counted",
                 m->tensor_unknown, m->tensor_unknown == 1 ? " names" : "s name",
                 m->tensor_unknown == 1 ? "its" : "their");
        add_note(notes, kernel, m->level, what);
    }
}

/* Where the code contradicts the source's per-thread count, say which
 * way; "within" and "not comparable" say nothing wrong and stay quiet. */
static json_t *checks_json(const imix *m, const char *kernel, const double *src, json_t *notes)
{
    json_t *checks = json_array();
    bool calls = m->count[IMIX_CALL] > 0;
    for (int p = 0; p < IMIX_N_PRECISIONS; p++) {
        double s = src[p];
        imix_verdict v = imix_check(m, p, s, calls);
        json_array_append_new(
            checks, json_pack("{s:s, s:o, s:f, s:s}", "precision", imix_precision_name(p),
                              "source_per_thread", isnan(s) ? json_null() : json_real(s),
                              "code_static", m->flops[p], "verdict", imix_verdict_name(v)));
        const char *pn = imix_precision_name(p);
        double code = m->flops[p];
        char what[512];
        switch (v) {
        case IMIX_NO_CODE:
            snprintf(what, sizeof what,
                     "the source counts %g %s FLOP per thread, but the compiled code has no %s "
                     "add, multiply or FMA: that count is wrong for this kernel",
                     s, pn, pn);
            break;
        case IMIX_SOURCE_ABOVE:
            snprintf(what, sizeof what,
                     "the source counts %g %s FLOP per thread, more than the loop-free compiled "
                     "code holds (%g, each instruction run at most once): the compiler folded or "
                     "simplified work the count includes",
                     s, pn, code);
            break;
        case IMIX_SOURCE_BELOW:
            snprintf(what, sizeof what,
                     "the source counts %g %s FLOP per thread, fewer than the compiled code runs "
                     "in every thread (%g: no guard, no loop): the count misses work",
                     s, pn, code);
            break;
        case IMIX_NO_SOURCE:
            snprintf(what, sizeof what,
                     "the compiled code does %g %s FLOP in every thread that the source counts "
                     "do not include",
                     code, pn);
            break;
        default:
            continue;
        }
        add_note(notes, kernel, m->level, what);
    }
    return checks;
}

const ptx_function *kernel_ptx_function(const code_listing *c, const char *mangled,
                                        const char *arch, const ptx_module **module)
{
    const ptx_function *last = NULL;
    const ptx_module *last_module = NULL;
    for (size_t i = 0; c && mangled && i < c->n_ptx; i++) {
        const ptx_module *m = &c->ptx[i];
        const ptx_function *f = ptx_find(m, mangled);
        if (!f)
            continue;
        last = f;
        last_module = m;
        if (!arch || !m->target[0] || !strncmp(m->target, arch, strlen(arch)))
            break;
    }
    if (module)
        *module = last_module;
    return last;
}

/* {"raise": [232], "lower": [40]}: each count once, in the PTX's order
 * (null for an operand that is not an immediate). */
static json_t *maxnreg_json(const ptx_function *f)
{
    json_t *raise = json_array(), *lower = json_array();
    int n = f->n_maxnreg < PTX_MAX_MAXNREG ? f->n_maxnreg : PTX_MAX_MAXNREG;
    for (int i = 0; i < n; i++) {
        json_t *to = f->maxnreg[i].raise ? raise : lower;
        json_t *v = f->maxnreg[i].regs >= 0 ? json_integer(f->maxnreg[i].regs) : json_null();
        bool seen = false;
        for (size_t k = 0; k < json_array_size(to) && !seen; k++)
            seen = json_equal(json_array_get(to, k), v);
        if (seen)
            json_decref(v);
        else
            json_array_append_new(to, v);
    }
    return json_pack("{s:o, s:o}", "raise", raise, "lower", lower);
}

json_t *code_kernel_json(const code_listing *c, const char *mangled, const char *kernel,
                         const char *arch, const double *src_flops, json_t *notes)
{
    const imix_insn *insns = NULL;
    size_t n = 0;
    imix_level level = IMIX_SASS;
    const char *origin = NULL, *why_no_sass = c->why_no_sass;
    char missing[160];
    const sass_function *sf = c->has_sass ? sass_find(&c->sass, mangled, arch) : NULL;
    if (c->has_sass && !sf) {
        snprintf(missing, sizeof missing, "the listing of %s has no code for this kernel and %s",
                 c->sass_origin, arch ? arch : "its arch");
        why_no_sass = missing;
    }
    if (sf) {
        insns = sf->insns;
        n = sf->n_insns;
        origin = c->sass_origin;
    } else {
        for (size_t i = 0; i < c->n_ptx && !insns; i++) {
            if (arch && strcmp(c->ptx[i].target, arch) != 0)
                continue;
            const ptx_function *pf = ptx_find(&c->ptx[i], mangled);
            if (pf && pf->is_entry) {
                insns = pf->insns;
                n = pf->n_insns;
                level = IMIX_PTX;
                origin = "nvcc --keep";
            }
        }
    }
    if (!origin)
        return NULL;
    imix m;
    imix_count(level, insns, n, &m);
    json_t *o = mix_json(&m);
    json_object_set_new(o, "level", json_string(level == IMIX_SASS ? "sass" : "ptx"));
    json_object_set_new(o, "from", json_text(origin));
    if (level == IMIX_PTX && why_no_sass)
        json_object_set_new(o, "why_no_sass", json_text(why_no_sass));
    if (src_flops)
        json_object_set_new(o, "checks", checks_json(&m, kernel, src_flops, notes));
    if (notes)
        async_notes(&m, kernel, notes);
    const ptx_function *pf = kernel_ptx_function(c, mangled, arch, NULL);
    if (pf && pf->n_maxnreg)
        json_object_set_new(o, "setmaxnreg", maxnreg_json(pf));
    return o;
}

static void add_mix(sbuf *out, const json_t *mix, const json_t *widths, const char *cls,
                    const char *label, bool *first)
{
    json_int_t n = json_integer_value(json_object_get(mix, cls));
    if (!n)
        return;
    sbuf_addf(out, "%s%lld %s", *first ? "" : ", ", (long long)n, label);
    *first = false;
    const json_t *w = json_object_get(widths, cls);
    if (json_object_size(w) == 0 || (json_object_size(w) == 1 && json_object_get(w, "32")))
        return;
    const char *bits;
    json_t *count;
    bool first_w = true;
    sbuf_add(out, " (");
    json_object_foreach((json_t *)w, bits, count)
    {
        sbuf_addf(out, "%s%lld x %s-bit", first_w ? "" : ", ", (long long)json_integer_value(count),
                  bits);
        first_w = false;
    }
    sbuf_add(out, ")");
}

void code_kernel_text(sbuf *out, const char *kernel, const char *arch, const json_t *code)
{
    const json_t *mix = json_object_get(code, "mix"), *widths = json_object_get(code, "widths");
    const char *level = json_string_value(json_object_get(code, "level"));
    sbuf_addf(out, "  %s  %s  %s, %lld instructions", kernel, arch ? arch : "?",
              level && strcmp(level, "sass") == 0 ? "SASS" : "PTX",
              (long long)json_integer_value(json_object_get(code, "instructions")));
    json_int_t loops = json_integer_value(json_object_get(code, "loops"));
    if (loops)
        sbuf_addf(out, ", %lld loop%s", (long long)loops, loops == 1 ? "" : "s");
    else
        sbuf_add(out, ", loop-free");
    static const struct {
        const char *cls, *label;
    } shown[] = {
        {"fp32_fma", "FP32 FMA"},
        {"fp32_add", "FP32 add"},
        {"fp32_mul", "FP32 mul"},
        {"fp64_fma", "FP64 FMA"},
        {"fp64_add", "FP64 add"},
        {"fp64_mul", "FP64 mul"},
        {"fp16_fma", "FP16 FMA"},
        {"fp16_add", "FP16 add"},
        {"fp16_mul", "FP16 mul"},
        {"tensor", "tensor"},
        {"special", "special"},
        {"shared_load", "shared ld"},
        {"shared_store", "shared st"},
        {"global_load", "global ld"},
        {"global_store", "global st"},
        {"generic_load", "generic ld"},
        {"generic_store", "generic st"},
        {"local_load", "local ld"},
        {"local_store", "local st"},
        {"shared_atomic", "shared atomic"},
        {"global_atomic", "global atomic"},
        {"async_copy", "async copy"},
        {"tma", "TMA copy"},
        {"mbarrier", "mbarrier"},
        {"shuffle", "shuffle"},
        {"barrier", "barrier"},
        {"call", "call"},
    };
    bool first = true;
    sbuf_add(out, ": ");
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
        add_mix(out, mix, widths, shown[i].cls, shown[i].label, &first);
    if (first)
        sbuf_add(out, "no arithmetic or memory instructions");
    const json_t *tf = json_object_get(code, "static_tensor_flops");
    if (tf) {
        const char *type;
        const json_t *v;
        const char *sep = "; tensor FLOPs a warp a pass: ";
        json_object_foreach((json_t *)tf, type, v)
        {
            char num[32];
            sbuf_addf(out, "%s%s %s", sep,
                      units_fmt_si(json_number_value(v), "FLOP", num, sizeof num), type);
            sep = ", ";
        }
        json_int_t unknown = json_integer_value(json_object_get(code, "tensor_without_shape"));
        if (unknown)
            sbuf_addf(out,
                      "%s%lld tensor instruction%s without a shape gpulint reads (not counted)",
                      sep, (long long)unknown, unknown == 1 ? "" : "s");
    }
    const json_t *mx = json_object_get(code, "setmaxnreg");
    if (mx) {
        sbuf_add(out, "; setmaxnreg");
        const char *dirs[2] = {"lower", "raise"}, *words[2] = {"down to", "up to"};
        const char *sep = " ";
        for (int d = 0; d < 2; d++) {
            const json_t *list = json_object_get(mx, dirs[d]);
            for (size_t k = 0; k < json_array_size(list); k++) {
                const json_t *v = json_array_get(list, k);
                if (k)
                    sbuf_add(out, ", ");
                else
                    sbuf_addf(out, "%s%s ", sep, words[d]);
                sep = ", ";
                if (json_is_integer(v))
                    sbuf_addf(out, "%lld", (long long)json_integer_value(v));
                else
                    sbuf_add(out, "(not a constant)");
            }
        }
    }
    sbuf_add(out, "\n");
}
