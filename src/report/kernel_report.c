/* kernel_report: tables and JSON for compiled kernels. */
#include "report/kernel_report.h"

#include <stdio.h>
#include <string.h>

#include "report/occ_report.h"
#include "util/jsontext.h"
#include "util/units.h"

#define BOLD "\033[1m"
#define RESET "\033[0m"

/* Display width of UTF-8 text: count code points, not bytes. */
static int text_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xc0) != 0x80)
            w++;
    return w;
}

static void add_padded(sbuf *o, const char *s, int width, bool right)
{
    int pad = width - text_width(s);
    if (right)
        for (int i = 0; i < pad; i++)
            sbuf_addc(o, ' ');
    sbuf_add(o, s);
    if (!right)
        for (int i = 0; i < pad; i++)
            sbuf_addc(o, ' ');
}

/* Long template signatures are cut in the middle of the parameter list. */
static void short_name(const char *name, int width, char *buf, size_t n)
{
    if (text_width(name) <= width || width < 8) {
        snprintf(buf, n, "%s", name);
        return;
    }
    snprintf(buf, n, "%.*s...", width - 3, name);
}

static const char *bytes_cell(int64_t v, char *buf, size_t n)
{
    if (v <= 0)
        snprintf(buf, n, "0");
    else
        snprintf(buf, n, "%lld", (long long)v);
    return buf;
}

static const char *pct_cell(const occ_result *r, char *buf, size_t n)
{
    if (r->blocks_per_sm == 0)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.1f%%", r->occupancy * 100.0);
    return buf;
}

typedef struct table {
    int n_cols;
    const char *head[12];
    bool right[12];
    int width[12];
} table;

static void measure(table *t, int col, const char *cell)
{
    int w = text_width(cell);
    if (w > t->width[col])
        t->width[col] = w;
}

static void emit_row(sbuf *o, const table *t, char cells[][160], bool bold, bool color)
{
    if (bold && color)
        sbuf_add(o, BOLD);
    for (int c = 0; c < t->n_cols; c++) {
        if (c)
            sbuf_add(o, "  ");
        add_padded(o, cells[c], c + 1 == t->n_cols && !t->right[c] ? 0 : t->width[c], t->right[c]);
    }
    if (bold && color)
        sbuf_add(o, RESET);
    sbuf_addc(o, '\n');
}

/* Findings about a kernel point at its definition. */
static const char *kernel_row_file(const kernel_row *r)
{
    return r->def_file ? r->def_file : r->file;
}

static void resource_table(sbuf *o, const kernel_row *rows, int n, const kernel_report_style *st)
{
    table t = {
        8,
        {"kernel", "line", "regs", "smem B", "stack B", "spill st/ld B", "barriers", "max block"},
        {false, true, true, true, true, true, true, true},
        {0}};
    char cells[12][160];
    for (int c = 0; c < t.n_cols; c++)
        measure(&t, c, t.head[c]);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            for (int c = 0; c < t.n_cols; c++)
                snprintf(cells[c], sizeof cells[c], "%s", t.head[c]);
            emit_row(o, &t, cells, true, st->color);
        }
        for (int i = 0; i < n; i++) {
            const kernel_row *r = &rows[i];
            char b1[48], b2[48];
            short_name(r->demangled, st->name_width, cells[0], sizeof cells[0]);
            if (r->line && r->def_file)
                snprintf(cells[1], sizeof cells[1], "%s:%d", r->def_file, r->line);
            else if (r->line)
                snprintf(cells[1], sizeof cells[1], "%d", r->line);
            else
                snprintf(cells[1], sizeof cells[1], "-");
            snprintf(cells[2], sizeof cells[2], "%d", r->ptx->registers);
            snprintf(cells[3], sizeof cells[3], "%s",
                     bytes_cell(r->ptx->static_smem, b1, sizeof b1));
            snprintf(cells[4], sizeof cells[4], "%s", bytes_cell(r->ptx->stack, b1, sizeof b1));
            if (r->ptx->spill_stores || r->ptx->spill_loads)
                snprintf(cells[5], sizeof cells[5], "%s/%s",
                         bytes_cell(r->ptx->spill_stores, b1, sizeof b1),
                         bytes_cell(r->ptx->spill_loads, b2, sizeof b2));
            else
                snprintf(cells[5], sizeof cells[5], "-");
            snprintf(cells[6], sizeof cells[6], "%d", r->ptx->barriers);
            if (!r->arch)
                snprintf(cells[7], sizeof cells[7], "?");
            else if (r->eval->max_block == 0)
                snprintf(cells[7], sizeof cells[7], "none");
            else
                snprintf(cells[7], sizeof cells[7], "%d", r->eval->max_block);
            if (pass == 0)
                for (int c = 0; c < t.n_cols; c++)
                    measure(&t, c, cells[c]);
            else
                emit_row(o, &t, cells, false, st->color);
        }
    }
}

static void occupancy_table(sbuf *o, const kernel_row *rows, int n, const kernel_report_style *st)
{
    bool launch = n > 0 && rows[0].eval->has_launch;
    table t;
    if (launch)
        t = (table){6,
                    {"kernel", "block", "blocks/SM", "warps/SM", "occupancy", "limited by"},
                    {false, true, true, true, true, false},
                    {0}};
    else
        t = (table){7,
                    {"kernel", "best block", "occupancy", "128", "256", "512", "1024"},
                    {false, true, true, true, true, true, true},
                    {0}};
    char cells[12][160];
    for (int c = 0; c < t.n_cols; c++)
        measure(&t, c, t.head[c]);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            for (int c = 0; c < t.n_cols; c++)
                snprintf(cells[c], sizeof cells[c], "%s", t.head[c]);
            emit_row(o, &t, cells, true, st->color);
        }
        for (int i = 0; i < n; i++) {
            const kernel_row *r = &rows[i];
            if (!r->arch)
                continue;
            const kernel_eval *e = r->eval;
            short_name(r->demangled, st->name_width, cells[0], sizeof cells[0]);
            if (launch) {
                snprintf(cells[1], sizeof cells[1], "%d", e->launch.threads_per_block);
                snprintf(cells[2], sizeof cells[2], "%d", e->occ.blocks_per_sm);
                snprintf(cells[3], sizeof cells[3], "%d/%d", e->occ.warps_per_sm,
                         e->occ.max_warps_per_sm);
                pct_cell(&e->occ, cells[4], sizeof cells[4]);
                sbuf lim;
                sbuf_init(&lim);
                if (e->occ.failure != OCC_OK)
                    sbuf_add(&lim, "cannot launch");
                else
                    occ_limiters_text(&lim, e->occ.limiters);
                snprintf(cells[5], sizeof cells[5], "%s", sbuf_str(&lim));
                sbuf_free(&lim);
            } else {
                if (e->best_block)
                    snprintf(cells[1], sizeof cells[1], "%d", e->best_block);
                else
                    snprintf(cells[1], sizeof cells[1], "none");
                pct_cell(&e->best, cells[2], sizeof cells[2]);
                for (int k = 0; k < KERNEL_EVAL_COMMON; k++)
                    pct_cell(&e->common[k], cells[3 + k], sizeof cells[3 + k]);
            }
            if (pass == 0)
                for (int c = 0; c < t.n_cols; c++)
                    measure(&t, c, cells[c]);
            else
                emit_row(o, &t, cells, false, st->color);
        }
    }
}

void kernel_report_findings(const kernel_row *rows, int n, finding_list *out)
{
    for (int i = 0; i < n; i++) {
        const kernel_row *r = &rows[i];
        if (!r->arch)
            continue;
        const kernel_eval *e = r->eval;
        json_t *who =
            json_pack("{s:o, s:s}", "kernel", json_text(r->ptx->name), "arch", r->arch->name);
        if (r->ptx->spill_stores || r->ptx->spill_loads)
            findings_add(out, "gpulint-spills", SEV_WARNING, kernel_row_file(r), r->line, r->column,
                         json_deep_copy(who),
                         "'%s' spills %lld bytes to local memory and reloads %lld bytes on %s",
                         r->demangled, (long long)r->ptx->spill_stores,
                         (long long)r->ptx->spill_loads, r->arch->name);
        if (e->has_launch && e->occ.failure != OCC_OK) {
            findings_add(out, "gpulint-launch", SEV_ERROR, kernel_row_file(r), r->line, r->column,
                         json_deep_copy(who), "'%s' cannot launch with %d threads on %s: %s",
                         r->demangled, e->launch.threads_per_block, r->arch->name,
                         occ_failure_reason(e->occ.failure));
        } else if (e->has_launch && e->n_advice > 0) {
            sbuf m;
            sbuf_init(&m);
            sbuf_addf(&m, "'%s' at %d threads reaches %.1f%% occupancy on %s, limited by ",
                      r->demangled, e->launch.threads_per_block, e->occ.occupancy * 100.0,
                      r->arch->name);
            occ_limiters_text(&m, e->occ.limiters);
            sbuf_add(&m, "; ");
            for (int k = 0; k < e->n_advice; k++) {
                if (k)
                    sbuf_add(&m, "; or ");
                occ_advice_text(&m, &e->advice[k], &e->launch);
            }
            json_t *d = json_deep_copy(who);
            json_object_set_new(d, "occupancy", json_real(e->occ.occupancy));
            findings_add(out, "gpulint-occupancy", SEV_NOTE, kernel_row_file(r), r->line, r->column,
                         d, "%s", sbuf_str(&m));
            sbuf_free(&m);
        }
        json_decref(who);
    }
}

void kernel_report_text(sbuf *out, const char *heading, const kernel_row *rows, int n,
                        const kernel_report_style *style)
{
    if (style->color)
        sbuf_addf(out, BOLD "%s" RESET "\n\n", heading);
    else
        sbuf_addf(out, "%s\n\n", heading);
    resource_table(out, rows, n, style);
    for (int i = 0; i < n; i++) {
        const kernel_row *r = &rows[i];
        if (!r->has_declared_smem || r->declared_smem == r->ptx->static_smem)
            continue;
        /* ptxas allocates what the compiled code keeps: arrays never read
         * are dropped, small ones may live in registers, and alignment pads. */
        sbuf_addf(out, "note: %s declares %lld B of __shared__ per block; ptxas allocates %lld B\n",
                  r->demangled, (long long)r->declared_smem, (long long)r->ptx->static_smem);
    }
    bool any_arch = false;
    for (int i = 0; i < n; i++)
        any_arch |= rows[i].arch != NULL;
    if (any_arch) {
        sbuf_addc(out, '\n');
        if (!rows[0].eval->has_launch)
            sbuf_add(out, "occupancy by block size (no --block given: the best size, then "
                          "common sizes)\n");
        occupancy_table(out, rows, n, style);
    }
}

json_t *kernel_report_json(const kernel_row *r)
{
    json_t *o = json_object();
    const ptxas_kernel *k = r->ptx;
    json_object_set_new(o, "name", json_text(k->name));
    json_object_set_new(o, "demangled", json_text(r->demangled));
    json_object_set_new(o, "arch", json_text(k->arch));
    json_object_set_new(o, "registers", json_integer(k->registers));
    json_object_set_new(o, "static_smem", json_integer(k->static_smem));
    if (r->has_declared_smem)
        json_object_set_new(o, "declared_smem", json_integer(r->declared_smem));
    json_object_set_new(o, "stack", json_integer(k->stack));
    json_object_set_new(o, "spill_stores", json_integer(k->spill_stores));
    json_object_set_new(o, "spill_loads", json_integer(k->spill_loads));
    json_object_set_new(o, "barriers", json_integer(k->barriers));
    json_object_set_new(o, "file", r->file ? json_text(r->file) : json_null());
    json_object_set_new(o, "line", r->line ? json_integer(r->line) : json_null());
    json_object_set_new(o, "column", r->column ? json_integer(r->column) : json_null());
    if (r->def_file)
        json_object_set_new(o, "defined_in", json_text(r->def_file));
    if (!r->arch) {
        json_object_set_new(o, "occupancy", json_null());
        return o;
    }
    const kernel_eval *e = r->eval;
    json_object_set_new(o, "max_block_size", json_integer(e->max_block));
    json_object_set_new(o, "occupancy",
                        e->has_launch ? occ_json(r->arch, &e->res, &e->launch, &e->occ)
                                      : json_null());
    if (e->has_launch) {
        json_t *adv = json_array();
        for (int i = 0; i < e->n_advice; i++) {
            sbuf b;
            sbuf_init(&b);
            occ_advice_text(&b, &e->advice[i], &e->launch);
            json_array_append_new(adv, json_text(sbuf_str(&b)));
            sbuf_free(&b);
        }
        json_object_set_new(o, "advice", adv);
    }
    json_t *best = json_object();
    json_object_set_new(best, "threads_per_block", json_integer(e->best_block));
    json_object_set_new(best, "occupancy", json_real(e->best.occupancy));
    json_object_set_new(o, "best_block", best);
    json_t *by = json_object();
    for (int i = 0; i < KERNEL_EVAL_COMMON; i++) {
        char key[16];
        snprintf(key, sizeof key, "%d", kernel_eval_common_blocks[i]);
        json_object_set_new(by, key, json_real(e->common[i].occupancy));
    }
    json_object_set_new(o, "occupancy_by_block", by);
    return o;
}
