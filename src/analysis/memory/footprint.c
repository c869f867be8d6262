/* footprint: each site's addresses come from analysis/symbolic/affbox as images of
 * boxes; each image is drawn into a bitset of the array's granularity (the
 * gcd of widths, strides and offsets) by shift-and-or, and an array's bits
 * are the union over its sites: exact, overlaps included. A byte counts as
 * read from DRAM when no site writes it, or when every store to the array
 * is read at the same place first by the same thread. */
#include "analysis/memory/footprint.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/affbox.h"
#include "analysis/symbolic/blockperm.h"

#include "util/sbuf.h"

/* A bitset of at most 2^28 bits (32 MB) per array: a 1 GB float array at
 * 4-byte granularity. Past it the array's figure comes from one site. */
#define FP_MAX_BITS ((int64_t)1 << 28)

/* ---- images ---- */

typedef struct image {
    affbox_image im;
    bool is_store;
} image;

static int64_t gcd64(int64_t a, int64_t b)
{
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* set |= set << shift, over nbits bits of which only the first hi may be
 * set: the words past the shifted copy's top stay as they are, so a set
 * that grows by doubling costs its final size, not nbits a doubling. */
static void shift_or(uint64_t *w, int64_t nbits, int64_t hi, int64_t shift)
{
    int64_t nw = (nbits + 63) / 64, q = shift / 64;
    int64_t top = (hi + shift + 63) / 64;
    int r = (int)(shift % 64);
    for (int64_t i = (top < nw ? top : nw) - 1; i >= q; i--) {
        uint64_t v = w[i - q] << r;
        if (r && i - q - 1 >= 0)
            v |= w[i - q - 1] >> (64 - r);
        w[i] |= v;
    }
    if (nbits % 64)
        w[nw - 1] &= ((uint64_t)1 << (nbits % 64)) - 1;
}

/* The union of shifts 0, step, ..., (count - 1) * step; *hi bounds the set
 * bits before and after. */
static void spread(uint64_t *w, int64_t nbits, int64_t *hi, int64_t step, int64_t count)
{
    int64_t have = 1;
    while (have < count) {
        int64_t add = have <= count - have ? have : count - have;
        /* [0, have) | [add, add + have) = [0, have + add) when add <= have. */
        shift_or(w, nbits, *hi, step * add);
        *hi = *hi + step * add < nbits ? *hi + step * add : nbits;
        have += add;
    }
}

static void or_at(uint64_t *dst, const uint64_t *src, int64_t nbits, int64_t at)
{
    int64_t nw = (nbits + 63) / 64, q = at / 64;
    int r = (int)(at % 64);
    for (int64_t i = 0; i < nw; i++) {
        dst[q + i] |= src[i] << r;
        if (r)
            dst[q + i + 1] |= src[i] >> (64 - r);
    }
}

static int64_t popcount_bits(const uint64_t *w, int64_t nwords)
{
    int64_t n = 0;
    for (int64_t i = 0; i < nwords; i++)
        n += __builtin_popcountll(w[i]);
    return n;
}

/* The first set bit at or after bit i; nbits when none. */
static int64_t next_set(const uint64_t *w, int64_t nbits, int64_t i)
{
    while (i < nbits) {
        uint64_t word = w[i / 64] >> (i % 64);
        if (word)
            return i + __builtin_ctzll(word) < nbits ? i + __builtin_ctzll(word) : nbits;
        i = (i / 64 + 1) * 64;
    }
    return nbits;
}

/* The first clear bit at or after bit i; nbits when none. */
static int64_t next_clear(const uint64_t *w, int64_t nbits, int64_t i)
{
    while (i < nbits) {
        uint64_t word = ~w[i / 64] >> (i % 64);
        if (word)
            return i + __builtin_ctzll(word) < nbits ? i + __builtin_ctzll(word) : nbits;
        i = (i / 64 + 1) * 64;
    }
    return nbits;
}

/* The fewest 32-byte windows that cover the bytes of the set bits (bit i:
 * bytes [i * g, i * g + g)). DRAM moves whole 32-byte sectors, and however
 * an array is aligned its bytes need at least this many: two bytes 32 or
 * more apart never share one. Windows start at a set bit's first byte and
 * skip bits they reach only in part, so the count may be low, never high. */
static int64_t cover32(const uint64_t *w, int64_t nbits, int64_t g)
{
    int64_t n = 0, skip = (32 + g - 1) / g;
    /* A run of set bits takes its windows back to back. */
    for (int64_t i = next_set(w, nbits, 0); i < nbits;) {
        int64_t k = next_clear(w, nbits, i), c = (k - i + skip - 1) / skip;
        n += c;
        i = next_set(w, nbits, i + c * skip);
    }
    return n;
}

static int64_t floor_div(int64_t byte, int64_t size)
{
    return byte >= 0 ? byte / size : -((-byte + size - 1) / size);
}

/* The blocks of size bytes (of the array, byte 0 aligned) that hold a set
 * bit's bytes, bit 0 at byte lo. Runs of bits come in order: a block is
 * counted when it is past the last one counted. */
static int64_t aligned_blocks(const uint64_t *w, int64_t nbits, int64_t g, int64_t lo, int64_t size)
{
    int64_t n = 0, last = INT64_MIN;
    /* A run of set bits is one range of bytes. */
    for (int64_t i = next_set(w, nbits, 0); i < nbits;) {
        int64_t k = next_clear(w, nbits, i);
        int64_t b0 = floor_div(lo + i * g, size), b1 = floor_div(lo + k * g - 1, size);
        if (b1 > last) {
            n += b1 - (b0 > last ? b0 : last + 1) + 1;
            last = b1;
        }
        i = next_set(w, nbits, k);
    }
    return n;
}

/* Whether a bit of w is set among the bits of bytes [b0, b1) (bit 0 at
 * byte lo). */
static bool any_in(const uint64_t *w, int64_t nbits, int64_t g, int64_t lo, int64_t b0, int64_t b1)
{
    int64_t i = floor_div(b0 - lo, g), k = floor_div(b1 - 1 - lo, g) + 1;
    i = i < 0 ? 0 : i;
    k = k > nbits ? nbits : k;
    return i < k && next_set(w, k, i) < k; /* scans bits [i, k) only */
}

/* The 32-byte sectors (byte 0 aligned) the stores write in part and the
 * launch does not read, and the 128-byte lines that hold them. Runs of set
 * bits are separated by a clear bit, so only a run's first and last
 * sectors can be partial: where the run starts or ends inside them. A
 * sector the launch also reads comes from DRAM with the read. */
static void partial_writes(const uint64_t *wr, const uint64_t *rd, int64_t nbits, int64_t g,
                           int64_t lo, int64_t *sectors, int64_t *lines)
{
    int64_t last = INT64_MIN, last_line = INT64_MIN;
    *sectors = *lines = 0;
    for (int64_t i = next_set(wr, nbits, 0); i < nbits;) {
        int64_t k = next_clear(wr, nbits, i), b0 = lo + i * g, b1 = lo + k * g;
        int64_t ends[2] = {b0 % 32 ? floor_div(b0, 32) : INT64_MIN,
                           b1 % 32 ? floor_div(b1 - 1, 32) : INT64_MIN};
        for (int e = 0; e < 2; e++) {
            int64_t sec = ends[e];
            if (sec == INT64_MIN || sec <= last ||
                any_in(rd, nbits, g, lo, sec * 32, sec * 32 + 32))
                continue;
            last = sec;
            (*sectors)++;
            *lines += floor_div(sec, 4) != last_line;
            last_line = floor_div(sec, 4);
        }
        i = next_set(wr, nbits, k);
    }
}

/* The site's bytes as bits of g bytes each, from bit 0 at im->base. */
static uint64_t *draw(const affbox_image *im, int64_t g, int64_t *nbits)
{
    *nbits = im->span / g;
    uint64_t *w = xcalloc((size_t)((*nbits + 63) / 64) + 1, sizeof *w);
    w[0] = 1;
    int64_t hi = 1;
    for (int i = 0; i < im->n; i++)
        spread(w, *nbits, &hi, im->coef[i] / g, im->count[i]);
    spread(w, *nbits, &hi, 1, im->width / g);
    return w;
}

/* The sectors a site's image fills at the least, as bits of 32 bytes from
 * bit 0 at the sector of im->base; NULL where its terms are not one
 * contiguous run (the terms of smallest coefficient, each step no longer
 * than the run so far) repeated at multiples of 32 bytes. An array too
 * long to draw byte by byte is drawn so: each run takes ceil(run / 32)
 * sectors, what it needs however the array is aligned. */
static uint64_t *draw_sectors(const affbox_image *im, int64_t *nbits)
{
    int order[AFFBOX_MAX_TERMS];
    for (int i = 0; i < im->n; i++) {
        int j = i;
        for (; j > 0 && im->coef[order[j - 1]] > im->coef[i]; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    int64_t run = im->width;
    int t = 0;
    for (; t < im->n && im->coef[order[t]] <= run; t++) {
        int64_t reach;
        if (__builtin_mul_overflow(im->coef[order[t]], im->count[order[t]] - 1, &reach) ||
            __builtin_add_overflow(run, reach, &run))
            return NULL;
    }
    for (int k = t; k < im->n; k++)
        if (im->coef[order[k]] % 32)
            return NULL;
    *nbits = im->span / 32 + 2;
    uint64_t *w = xcalloc((size_t)((*nbits + 63) / 64) + 1, sizeof *w);
    w[0] = 1;
    int64_t hi = 1;
    spread(w, *nbits, &hi, 1, (run + 31) / 32);
    for (int k = t; k < im->n; k++)
        spread(w, *nbits, &hi, im->coef[order[k]] / 32, im->count[order[k]]);
    return w;
}

/* ---- arrays ---- */

typedef struct arr_acc {
    const char *name;
    image *ims;
    int n_ims, cap;
    int width_gcd;
    int n_sites, n_left_out;
    int n_partial;          /* sites followed in part */
    int n_stores_uncertain; /* stores not followed in full: a read may be hidden */
    int n_stores_unread;    /* followed stores no read of the place precedes */
} arr_acc;

static void site_why(sbuf *why, const mem_access *a, const char *reason)
{
    if (why->len)
        return;
    if (a->loc.line)
        sbuf_addf(why, "%s (line %d): %s", a->text ? a->text : a->base, a->loc.line, reason);
    else
        sbuf_addf(why, "%s: %s", a->base, reason);
}

static bool same_expr(const expr *a, const expr *b)
{
    if (!a || !b)
        return a == b;
    char *x = expr_to_string(a), *y = expr_to_string(b);
    bool same = strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

static bool same_place(const mem_access *a, const mem_access *b)
{
    if (a->width != b->width || a->n_loops != b->n_loops || !same_expr(a->guard, b->guard) ||
        !same_expr(a->byte_offset, b->byte_offset))
        return false;
    for (int i = 0; i < a->n_loops; i++) {
        const loop_ctx *x = &a->loops[i], *y = &b->loops[i];
        if (!x->var || !y->var || strcmp(x->var, y->var) != 0 || !same_expr(x->init, y->init) ||
            !same_expr(x->cond, y->cond) || !same_expr(x->next, y->next))
            return false;
    }
    return true;
}

/* The thread reads the bytes of store si before writing them: a load of the
 * same place (offset, guard, loops) in an earlier statement or in the same
 * one (an assignment's right side, and a compound assignment's read, are
 * sequenced before its write). Then every written byte is read first, by
 * whichever thread writes it. */
static bool read_first(const footprint_site *sites, size_t n, size_t si)
{
    const mem_access *s = sites[si].access;
    for (size_t i = 0; i < n; i++) {
        const mem_access *l = sites[i].access;
        if (l && !l->is_store && l->space == SPACE_GLOBAL && sites[i].array &&
            strcmp(sites[i].array, sites[si].array) == 0 && l->stmt <= s->stmt && same_place(l, s))
            return true;
    }
    return false;
}

static arr_acc *array_for(arr_acc **arrs, size_t *n, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*arrs)[i].name, name) == 0)
            return &(*arrs)[i];
    *arrs = xrealloc(*arrs, (*n + 1) * sizeof **arrs);
    arr_acc *a = &(*arrs)[(*n)++];
    memset(a, 0, sizeof *a);
    a->name = name;
    return a;
}

/* The terms of a and b, as sets of (coefficient, count). */
static bool same_terms(const affbox_image *a, const affbox_image *b)
{
    if (a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++) {
        int k = 0;
        while (k < b->n && (b->coef[k] != a->coef[i] || b->count[k] != a->count[i]))
            k++;
        if (k == b->n)
            return false;
    }
    return true;
}

/* The images with images of the same terms whose bytes at each point meet
 * (a struct's fields copied one by one: offsets 0, 4, ..., 32 of a 36-byte
 * element) joined into one of the joint width: the same union, in runs
 * draw_sectors can draw. *n in, the joined count out. */
static image *join_fields(const arr_acc *acc, int *n)
{
    image *m = xmalloc((size_t)(acc->n_ims ? acc->n_ims : 1) * sizeof *m);
    int k = 0;
    bool *used = xcalloc((size_t)acc->n_ims + 1, sizeof *used);
    for (int i = 0; i < acc->n_ims; i++) {
        if (used[i])
            continue;
        image cur = acc->ims[i];
        used[i] = true;
        for (bool grew = true; grew;) {
            grew = false;
            for (int j = 0; j < acc->n_ims; j++) {
                const image *o = &acc->ims[j];
                int64_t end = cur.im.base + cur.im.width, oend = o->im.base + o->im.width;
                if (used[j] || o->is_store != cur.is_store || !same_terms(&o->im, &cur.im) ||
                    o->im.base > end || oend < cur.im.base)
                    continue;
                int64_t lo = o->im.base < cur.im.base ? o->im.base : cur.im.base;
                int64_t hi = oend > end ? oend : end;
                if (hi - lo > INT32_MAX)
                    continue;
                int64_t last = cur.im.base + cur.im.span > o->im.base + o->im.span
                                   ? cur.im.base + cur.im.span
                                   : o->im.base + o->im.span;
                cur.im.base = lo;
                cur.im.width = (int)(hi - lo);
                cur.im.span = last - lo;
                used[j] = grew = true;
            }
        }
        m[k++] = cur;
    }
    free(used);
    *n = k;
    return m;
}

/* An array whose images span more than FP_MAX_BITS of their grain (a
 * softmax over 50,257 words of 1,024 steps and 8 rows: 412 M floats), drawn
 * in 32-byte sectors where it spans at most FP_MAX_BITS of them: *lo
 * rounded down to a sector, *nbits sectors, the read and written bitsets
 * out. An image that is not runs at multiples of 32 bytes (one element a
 * row of such a softmax) is left out, counted in *skipped; false where
 * none is drawn. */
static bool draw_wide(const arr_acc *acc, int64_t *lo, int64_t hi, int64_t *nbits, uint64_t **rd,
                      uint64_t **wr, int *skipped)
{
    int64_t lo32 = floor_div(*lo, 32) * 32, nb = (hi - lo32 + 31) / 32 + 2;
    if (nb > FP_MAX_BITS)
        return false;
    size_t nw = (size_t)((nb + 63) / 64) + 2;
    uint64_t *r = xcalloc(nw, sizeof *r), *w = xcalloc(nw, sizeof *w);
    int n_ims;
    image *ims = join_fields(acc, &n_ims);
    *skipped = 0;
    for (int i = 0; i < n_ims; i++) {
        int64_t n = 0;
        uint64_t *bits = draw_sectors(&ims[i].im, &n);
        int64_t at = floor_div(ims[i].im.base, 32) - lo32 / 32;
        if (!bits && n_ims > 1 && ++*skipped < n_ims)
            continue;
        if (!bits || at < 0 || at + n > nb) {
            free(bits);
            free(r);
            free(w);
            free(ims);
            return false;
        }
        or_at(ims[i].is_store ? w : r, bits, n, at);
        free(bits);
    }
    free(ims);
    *lo = lo32;
    *nbits = nb;
    *rd = r;
    *wr = w;
    return true;
}

/* The estimate's copy of a gather (access_gather_estimate) freed, and
 * the site counted as covered where it was placed. */
static void gather_done(mem_access *copy, bool placed, const mem_access *a, footprint *out,
                        sbuf *covered)
{
    access_bound_free(copy);
    if (!placed)
        return;
    out->n_covered++;
    site_why(covered, a, "an index read from memory, taken to step one element from lane to lane");
}

/* Union of the array's images: read, write and both, in bytes. */
static void array_union(const arr_acc *acc, footprint_array *out)
{
    out->name = xstrdup(acc->name);
    out->n_sites = acc->n_sites;
    out->n_left_out = acc->n_left_out;
    out->n_partial = acc->n_partial;
    if (!acc->n_ims)
        return;
    int64_t lo = acc->ims[0].im.base, hi = lo + acc->ims[0].im.span;
    int64_t g = acc->width_gcd;
    for (int i = 0; i < acc->n_ims; i++) {
        const affbox_image *im = &acc->ims[i].im;
        lo = im->base < lo ? im->base : lo;
        hi = im->base + im->span > hi ? im->base + im->span : hi;
        for (int t = 0; t < im->n; t++)
            g = gcd64(g, im->coef[t]);
    }
    for (int i = 0; i < acc->n_ims; i++)
        g = gcd64(g, acc->ims[i].im.base - lo);
    int64_t nbits = (hi - lo) / g;
    uint64_t *rd = NULL, *wr = NULL;
    int skipped = 0;
    if (nbits > FP_MAX_BITS && draw_wide(acc, &lo, hi, &nbits, &rd, &wr, &skipped)) {
        g = 32;
        out->n_left_out += skipped;
    } else if (nbits > FP_MAX_BITS) {
        /* Too wide to draw: the widest single image that fits, a lower bound. */
        out->n_left_out = acc->n_sites;
        for (int i = 0; i < acc->n_ims; i++) {
            const affbox_image *im = &acc->ims[i].im;
            bool store = acc->ims[i].is_store;
            int64_t gi = acc->width_gcd, nb;
            for (int t = 0; t < im->n; t++)
                gi = gcd64(gi, im->coef[t]);
            if (im->span / gi > FP_MAX_BITS ||
                (!store && acc->n_stores_unread + acc->n_stores_uncertain))
                continue; /* too wide, or its bytes may be written first */
            uint64_t *w = draw(im, gi, &nb);
            int64_t bytes = popcount_bits(w, (nb + 63) / 64) * gi;
            free(w);
            int64_t *slot = store ? &out->write_bytes : &out->read_bytes;
            *slot = bytes > *slot ? bytes : *slot;
            out->bytes = bytes > out->bytes ? bytes : out->bytes;
        }
        out->read_sectors = (out->read_bytes + 31) / 32;
        out->read_blocks64 = (out->read_bytes + 63) / 64;
        out->write_sectors = (out->write_bytes + 31) / 32;
        return;
    }
    size_t nw = (size_t)((nbits + 63) / 64) + 2;
    if (!rd) {
        rd = xcalloc(nw, sizeof *rd);
        wr = xcalloc(nw, sizeof *wr);
        for (int i = 0; i < acc->n_ims; i++) {
            int64_t nb;
            uint64_t *w = draw(&acc->ims[i].im, g, &nb);
            or_at(acc->ims[i].is_store ? wr : rd, w, nb, (acc->ims[i].im.base - lo) / g);
            free(w);
        }
    }
    out->write_bytes = popcount_bits(wr, (int64_t)nw) * g;
    out->write_sectors = aligned_blocks(wr, nbits, g, lo, 32);
    partial_writes(wr, rd, nbits, g, lo, &out->partial_write_sectors, &out->partial_write_lines);
    out->read_blocks64 = aligned_blocks(rd, nbits, g, lo, 64);
    int64_t both = 0, overlap = 0;
    for (size_t i = 0; i < nw; i++) {
        both += __builtin_popcountll(rd[i] | wr[i]);
        overlap += __builtin_popcountll(rd[i] & wr[i]);
        rd[i] &= ~wr[i];
    }
    /* Bytes read and written, not at a place the thread reads first: they
     * may be read before the write, or not; counted as not read. */
    out->reads_uncertain = acc->n_stores_uncertain || (acc->n_stores_unread && overlap);
    /* A store not followed may write what is read before the read. Where
     * every store is read first, no byte is written before it is read. */
    if (acc->n_stores_uncertain) {
        memset(rd, 0, nw * sizeof *rd);
    } else if (!acc->n_stores_unread) {
        for (size_t i = 0; i < nw; i++) /* every write's place is read */
            rd[i] |= wr[i];
    }
    out->read_bytes = popcount_bits(rd, (int64_t)nw) * g;
    out->read_sectors = cover32(rd, nbits, g);
    out->bytes = both * g;
    free(rd);
    free(wr);
}

/* bid NULL: every block of the grid; else that block alone, or its warp
 * number `warp` alone (-1: the whole block), a row of 32 threads of x
 * where blockDim.x is a multiple of 32: walked as the first warp's lanes
 * with the thread indices moved to its own. */
static void compute(const footprint_site *sites, size_t n, const int64_t grid[3],
                    const int64_t block[3], const expr_env *env, const int64_t *bid,
                    const int64_t *span, int warp, bool cover, footprint *out)
{
    /* With span, the blocks bid to bid + span - 1: their indices walked
     * from 0, moved by bid, while gridDim keeps the launch's. */
    const int64_t *range = span ? span : grid;
    const int64_t lanes[3] = {32, 1, 1};
    const int64_t *threads = warp >= 0 ? lanes : block;
    int64_t moved[3] = {0, 0, 0};
    if (warp >= 0) {
        int64_t rows = block[0] / 32;
        moved[0] = 32 * (warp % rows);
        moved[1] = (warp / rows) % block[1];
        moved[2] = warp / (rows * block[1]);
    }
    memset(out, 0, sizeof *out);
    expr_env local;
    expr_env_bind_launch(&local, env, grid, block);
    expr_env_set_builtin(&local, SYM_WARP_SIZE, 32);
    for (int d = 0; d < 3; d++) {
        local.has_builtin[SYM_TID_X + d] = false;
        local.has_builtin[SYM_BID_X + d] = false;
        if (bid && !span)
            expr_env_set_builtin(&local, (expr_builtin)(SYM_BID_X + d), bid[d]);
    }
    arr_acc *arrs = NULL;
    size_t n_arrs = 0;
    sbuf why, covered;
    sbuf_init(&why);
    sbuf_init(&covered);
    for (size_t i = 0; i < n; i++) {
        const mem_access *a = sites[i].access;
        if (!a || a->space != SPACE_GLOBAL || !sites[i].array)
            continue;
        arr_acc *acc = array_for(&arrs, &n_arrs, sites[i].array);
        acc->n_sites++;
        out->n_sites++;
        affbox_image ims[AFFBOX_MAX_BOXES];
        int n_ims = 0;
        bool partial = false, ok = false;
        /* A site the front end could not place (a pointer the kernel moves)
         * has an offset that is not its address: left out, as traffic does. */
        const char *reason = a->why_not;
        /* An estimate places a gather as access_gather_estimate does. */
        mem_access gather;
        bool gathered = cover && access_gather_estimate(a, &gather);
        if (gathered)
            reason = NULL;
        if (!reason) {
            mem_access b;
            access_bind(gathered ? &gather : a, &local, &b);
            access_shift_threads(&b, moved);
            if (span)
                access_shift_blocks(&b, bid);
            ok = affbox_images(&b, range, threads, ims, &n_ims, &partial, &reason);
            /* Blocks that take their tiles in another order touch what the
             * plain order touches, where the order is a permutation. */
            if (!ok && !bid && blockperm_rewrite(&b, grid)) {
                const char *first = reason;
                ok = affbox_images(&b, grid, threads, ims, &n_ims, &partial, &reason);
                if (!ok)
                    reason = first;
            }
            const char *uncut;
            /* Bands that keep the rows a condition holds for over the whole
             * band are a subset; the estimate takes the rows it holds for
             * anywhere in a band, a superset as close. */
            if (ok && cover && partial && reason && !strcmp(reason, AFFBOX_BANDED)) {
                affbox_image wide[AFFBOX_MAX_BOXES];
                int n_wide = 0;
                bool wide_partial = false;
                if (affbox_cover(&b, range, threads, wide, &n_wide, &wide_partial, &uncut) &&
                    !wide_partial) {
                    memcpy(ims, wide, (size_t)n_wide * sizeof *wide);
                    n_ims = n_wide;
                    partial = false;
                    out->n_covered++;
                    site_why(&covered, a,
                             "a condition around it bounds two indices at once; "
                             "the rows it holds for in each band counted");
                }
            }
            if (!ok && cover && affbox_cover(&b, range, threads, ims, &n_ims, &partial, &uncut)) {
                /* Counted by the box around it: no longer a bound either way. */
                ok = true;
                out->n_covered++;
                char r[256];
                snprintf(r, sizeof r, "%s; the box of its indices counted", reason);
                site_why(&covered, a, r);
            }
            access_bound_free(&b);
        }
        if (gathered)
            gather_done(&gather, ok, a, out, &covered);
        /* A store whose place the thread reads first cannot hide a read,
         * followed or not; any other store must be followed in full. */
        bool twin = a->is_store && read_first(sites, n, i);
        if (!ok || partial) {
            acc->n_stores_uncertain += a->is_store && !twin;
            site_why(&why, a, reason);
        }
        if (!ok) {
            acc->n_left_out++;
            out->n_left_out++;
            continue;
        }
        acc->n_partial += partial;
        out->n_partial += partial;
        acc->n_stores_unread += a->is_store && !twin;
        acc->width_gcd = (int)gcd64(acc->width_gcd, a->width);
        for (int k = 0; k < n_ims; k++) {
            if (acc->n_ims == acc->cap) {
                acc->cap = acc->cap ? 2 * acc->cap : 4;
                acc->ims = xrealloc(acc->ims, (size_t)acc->cap * sizeof *acc->ims);
            }
            acc->ims[acc->n_ims++] = (image){ims[k], a->is_store};
        }
    }
    out->arrays = xcalloc(n_arrs ? n_arrs : 1, sizeof *out->arrays);
    out->n_arrays = n_arrs;
    for (size_t i = 0; i < n_arrs; i++) {
        footprint_array *fa = &out->arrays[i];
        array_union(&arrs[i], fa);
        if (fa->n_left_out > arrs[i].n_left_out) {
            bool one = fa->n_left_out == arrs[i].n_sites;
            site_why(&why, &(mem_access){.base = (char *)fa->name},
                     one ? "the array spans more than 2^28 of its elements: one site's bytes "
                           "counted"
                         : "the array spans more than 2^28 of its elements: a site whose runs "
                           "are not whole sectors left out");
            out->n_left_out += one ? 0 : fa->n_left_out - arrs[i].n_left_out;
        }
        if (fa->reads_uncertain)
            site_why(&why, &(mem_access){.base = (char *)fa->name},
                     "bytes it reads and writes, at places not read first, count as not read");
        out->read_bytes += fa->read_bytes;
        out->read_sectors += fa->read_sectors;
        out->read_blocks64 += fa->read_blocks64;
        out->write_sectors += fa->write_sectors;
        out->partial_write_sectors += fa->partial_write_sectors;
        out->partial_write_lines += fa->partial_write_lines;
        out->write_bytes += fa->write_bytes;
        out->bytes += fa->bytes;
        free(arrs[i].ims);
    }
    free(arrs);
    out->why = why.len ? sbuf_take(&why) : NULL;
    out->covered = covered.len ? sbuf_take(&covered) : NULL;
    sbuf_free(&why);
    sbuf_free(&covered);
}

void footprint_compute(const footprint_site *sites, size_t n, const int64_t grid[3],
                       const int64_t block[3], const expr_env *env, footprint *out)
{
    compute(sites, n, grid, block, env, NULL, NULL, -1, false, out);
}

void footprint_cover(const footprint_site *sites, size_t n, const int64_t grid[3],
                     const int64_t block[3], const expr_env *env, footprint *out)
{
    compute(sites, n, grid, block, env, NULL, NULL, -1, true, out);
}

void footprint_of_block(const footprint_site *sites, size_t n, const int64_t grid[3],
                        const int64_t block[3], const expr_env *env, const int64_t bid[3],
                        bool cover, footprint *out)
{
    compute(sites, n, grid, block, env, bid, NULL, -1, cover, out);
}

void footprint_of_blocks(const footprint_site *sites, size_t n, const int64_t grid[3],
                         const int64_t block[3], const expr_env *env, const int64_t first[3],
                         const int64_t span[3], footprint *out)
{
    compute(sites, n, grid, block, env, first, span, -1, false, out);
}

bool footprint_of_warp(const footprint_site *sites, size_t n, const int64_t grid[3],
                       const int64_t block[3], const expr_env *env, const int64_t bid[3], int warp,
                       bool cover, footprint *out)
{
    if (block[0] % 32 != 0 || warp < 0 || warp >= block[0] / 32 * block[1] * block[2]) {
        memset(out, 0, sizeof *out);
        return false;
    }
    compute(sites, n, grid, block, env, bid, NULL, warp, cover, out);
    return true;
}

void footprint_free(footprint *f)
{
    for (size_t i = 0; i < f->n_arrays; i++)
        free(f->arrays[i].name);
    free(f->arrays);
    free(f->why);
    free(f->covered);
    memset(f, 0, sizeof *f);
}
