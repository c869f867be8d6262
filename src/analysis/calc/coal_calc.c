/* coal_calc: `gpulint coalesce` as a calculator: a stride or an element
 * index over a block; the analysis (coalesce.c) and its words, shared by
 * the command line and the web page. */
#include "analysis/calc/coal_calc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/errmsg.h"
#include "util/units.h"

static void access_line(sbuf *b, const coal_case *c)
{
    if (c->access) {
        expr *s = expr_simplify(c->bytes);
        char *t = expr_to_string(s);
        sbuf_addf(b, "access: element %s of a %d-byte array", c->access, c->elem);
        if (c->offset)
            sbuf_addf(b, ", %lld element%s further", (long long)c->offset,
                      c->offset == 1 ? "" : "s");
        sbuf_addf(b, " (byte offset %s)\n", t);
        free(t);
        expr_free(s);
        return;
    }
    sbuf_addf(b, "access: lane i reads element %lld*i", (long long)c->stride);
    if (c->offset)
        sbuf_addf(b, " + %lld", (long long)c->offset);
    sbuf_addf(b, " of a %d-byte array (byte offset %lld*i", c->elem,
              (long long)(c->stride * c->elem));
    if (c->offset)
        sbuf_addf(b, " + %lld", (long long)(c->offset * c->elem));
    sbuf_add(b, ")\n");
}

static void verdict(sbuf *b, const coalesce_result *r)
{
    if (r->worst_sectors <= r->worst_ideal)
        sbuf_add(b, "coalesced: every request touches no more sectors than its bytes need");
    else
        sbuf_addf(b, "uncoalesced: the worst request touches %.2gx the sectors its bytes need",
                  (double)r->worst_sectors / r->worst_ideal);
}

/* The worst warp, lane by lane, and the sectors it touches. */
static void explain(sbuf *b, const coalesce_result *r)
{
    sbuf_addf(b,
              "\nA warp's request is served in 32-byte sectors: sector = byte address / 32, "
              "counted from\nthe array's base (cudaMalloc aligns it to 256 bytes). Ideal: the "
              "same bytes packed,\nceil(active lanes x %d / 32) sectors.\n",
              r->width);
    sbuf_addf(b, "\nworst request: warp %d", r->worst_warp);
    if (r->worst_iteration > 0)
        sbuf_addf(b, ", iteration %ld", r->worst_iteration);
    sbuf_add(b, "\n\nlane   byte address   sector\n");
    int64_t sectors[LANES_WARP * 2];
    int n = 0;
    for (int l = 0; l < LANES_WARP; l++) {
        if (!(r->worst_active >> l & 1))
            continue;
        int64_t a = r->worst_addr[l];
        /* A wide access may end in the next sector: count both ends. */
        int64_t s0 = a / COALESCE_SECTOR, s1 = (a + r->width - 1) / COALESCE_SECTOR;
        sbuf_addf(b, "%4d %14lld   %lld", l, (long long)a, (long long)s0);
        if (s1 != s0)
            sbuf_addf(b, "-%lld", (long long)s1);
        sbuf_addc(b, '\n');
        for (int64_t s = s0; s <= s1; s++) {
            bool seen = false;
            for (int k = 0; k < n && !seen; k++)
                seen = sectors[k] == s;
            if (!seen && n < LANES_WARP * 2)
                sectors[n++] = s;
        }
    }
    sbuf_addf(b, "\nsectors touched: %d (", n);
    for (int k = 0; k < n; k++) {
        if (n > 10 && k == 4) {
            sbuf_add(b, ", ...");
            k = n - 2;
            continue;
        }
        sbuf_addf(b, "%s%lld", k ? ", " : "", (long long)sectors[k]);
    }
    sbuf_addf(b, "), ideal %d: %d of the %d bytes moved are asked for\n", r->worst_ideal,
              __builtin_popcount(r->worst_active) * r->width, n * COALESCE_SECTOR);
}

void coal_calc_text(sbuf *out, const coal_calc *cc, bool want_explain)
{
    const coal_case *c = &cc->c;
    const coalesce_result *r = &cc->r;
    access_line(out, c);
    sbuf_addf(out, "block: %lldx%lldx%lld (%d warp%s)\n", (long long)c->block[0],
              (long long)c->block[1], (long long)c->block[2], r->warps, r->warps == 1 ? "" : "s");
    if (want_explain)
        explain(out, r);
    sbuf_addf(out, "%ssectors per request: worst %d (ideal %d), average %.2f over %ld request%s\n",
              want_explain ? "\n" : "", r->worst_sectors, r->worst_ideal, r->average_sectors,
              r->requests, r->requests == 1 ? "" : "s");
    sbuf_addf(out, "bytes used: %.1f%% of those moved (worst request %.1f%%)\n",
              100 * r->efficiency, 100 * r->worst_efficiency);
    if (r->note[0])
        sbuf_addf(out, "note: %s\n", r->note);
    sbuf_add(out, "result: ");
    verdict(out, r);
    sbuf_addc(out, '\n');
}

static bool element_index(const coal_case *c, expr **out, char *msg, size_t n)
{
    if (c->access) {
        cexpr_error err;
        expr *e = cexpr_parse(c->access, false, &err);
        if (!e)
            return errmsg_set(msg, n, "--access \"%s\": column %d: %s", c->access, err.column,
                              err.msg);
        *out = c->offset ? expr_binary(OP_ADD, e, expr_const(c->offset)) : e;
        return true;
    }
    expr *linear = expr_builtin_sym(SYM_TID_X);
    if (c->block[1] > 1)
        linear =
            expr_binary(OP_ADD, linear,
                        expr_binary(OP_MUL, expr_const(c->block[0]), expr_builtin_sym(SYM_TID_Y)));
    if (c->block[2] > 1)
        linear = expr_binary(OP_ADD, linear,
                             expr_binary(OP_MUL, expr_const(c->block[0] * c->block[1]),
                                         expr_builtin_sym(SYM_TID_Z)));
    expr *e = expr_binary(OP_MUL, linear, expr_const(c->stride));
    *out = c->offset ? expr_binary(OP_ADD, e, expr_const(c->offset)) : e;
    return true;
}

bool coal_calc_run(const coal_calc_in *in, coal_calc *out, char *msg, size_t n)
{
    *out = (coal_calc){0};
    if (in->seen_stride && in->access)
        return errmsg_set(msg, n, "give --stride or --access, not both");
    if (!in->seen_stride && !in->access)
        return errmsg_set(msg, n, "--stride N (or --access EXPR) is required");
    if (in->elem != 1 && in->elem != 2 && in->elem != 4 && in->elem != 8 && in->elem != 16)
        return errmsg_set(
            msg, n, "invalid --elem %d: a lane loads or stores 1, 2, 4, 8 or 16 bytes", in->elem);
    coal_case *c = &out->c;
    *c = (coal_case){
        .access = in->access, .stride = in->stride, .offset = in->offset, .elem = in->elem};
    int dims[3] = {32, 1, 1};
    if (in->block && !units_parse_dim3(in->block, dims))
        return errmsg_set(msg, n, "invalid --block '%s': expected N, XxY or XxYxZ", in->block);
    for (int i = 0; i < 3; i++)
        c->block[i] = dims[i];
    int64_t threads = c->block[0] * c->block[1] * c->block[2];
    if (threads > LANES_MAX_THREADS)
        return errmsg_set(msg, n, "--block %s has %lld threads; a block has at most %d", in->block,
                          (long long)threads, LANES_MAX_THREADS);
    expr *index = NULL;
    if (!element_index(c, &index, msg, n))
        return false;
    c->bytes = expr_binary(OP_MUL, index, expr_const(c->elem));
    mem_access m = {0};
    m.space = SPACE_GLOBAL;
    m.width = c->elem;
    m.byte_offset = c->bytes;
    m.text = (char *)(in->access ? in->access : "");
    if (!coalesce_analyze(&m, c->block, NULL, &out->r) || !out->r.analyzed)
        return errmsg_set(msg, n, "cannot analyse the access: %s", out->r.reason);
    return true;
}

void coal_calc_free(coal_calc *cc)
{
    expr_free(cc->c.bytes);
    cc->c.bytes = NULL;
}
