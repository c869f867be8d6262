/* gbuf: regenerable device buffers and result checks (see gbuf.h). */
#include "verify/gbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpurt.h"
#include "util/sbuf.h"

/* splitmix64's i-th output for a seed: any element in O(1). */
static uint64_t bits(uint64_t seed, int64_t i)
{
    uint64_t x = seed + (uint64_t)i * 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint16_t gbuf_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int exp = (int)((x >> 23) & 0xff) - 127 + 15;
    uint32_t man = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff) /* inf, nan */
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
    if (exp >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (exp <= 0) { /* subnormal half or zero */
        if (exp < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        int shift = 14 - exp;
        uint32_t half = man >> shift, rest = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rest > mid || (rest == mid && (half & 1)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = ((uint32_t)exp << 10) | (man >> 13), rest = man & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
        half++; /* may carry into the exponent, which is right */
    return (uint16_t)(sign | half);
}

float gbuf_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    int exp = (h >> 10) & 0x1f;
    uint32_t man = h & 0x3ffu, x;
    if (exp == 0) {
        if (!man) {
            x = sign;
        } else { /* subnormal: normalise */
            exp = 1;
            while (!(man & 0x400u)) {
                man <<= 1;
                exp--;
            }
            man &= 0x3ffu;
            x = sign | ((uint32_t)(exp - 15 + 127) << 23) | (man << 13);
        }
    } else if (exp == 31) {
        x = sign | 0x7f800000u | (man << 13);
    } else {
        x = sign | ((uint32_t)(exp - 15 + 127) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

double gbuf_value(const gbuf *b, int64_t i)
{
    uint64_t r = bits(b->seed, i);
    const vbuffer *s = b->spec;
    switch (s->init) {
    case VI_ZERO:
    case VI_CYCLE: /* filled as a whole by fill_cycle */
        return 0;
    case VI_SMALL:
        return (double)(r % 16);
    case VI_MATRIX:
        /* Multiples of 2^-9 in [-1, 1): exact in fp16, so every precision
         * sees the same matrix. */
        return -1.0 + (double)(r >> 54) / 512.0;
    case VI_RAND:
        break;
    }
    switch (s->type) {
    case VT_F32:
        return 1.0 + (double)(r >> 40) / 16777216.0;
    case VT_F64:
        return 1.0 + (double)(r >> 11) / 9007199254740992.0;
    case VT_F16:
        return 1.0 + (double)(r >> 54) / 1024.0;
    case VT_I32:
        return (double)(r % 1000);
    case VT_U64:
        return (double)(r >> 11);
    case VT_U8:
        return (double)(r & 255);
    }
    return 0;
}

/* The value as the buffer holds it: rounded to its element type. */
static double stored(const gbuf *b, int64_t i)
{
    double v = gbuf_value(b, i);
    switch (b->spec->type) {
    case VT_F32:
        return (float)v;
    case VT_F16:
        return gbuf_half_to_float(gbuf_float_to_half((float)v));
    default:
        return v;
    }
}

static void store(const gbuf *b, void *host, size_t k, int64_t i)
{
    double v = gbuf_value(b, i);
    switch (b->spec->type) {
    case VT_F32: {
        float f = (float)v;
        memcpy((char *)host + 4 * k, &f, 4);
        break;
    }
    case VT_F64:
        memcpy((char *)host + 8 * k, &v, 8);
        break;
    case VT_F16: {
        uint16_t h = gbuf_float_to_half((float)v);
        memcpy((char *)host + 2 * k, &h, 2);
        break;
    }
    case VT_I32: {
        int32_t x = (int32_t)v;
        memcpy((char *)host + 4 * k, &x, 4);
        break;
    }
    case VT_U64: {
        uint64_t x = b->spec->init == VI_RAND ? bits(b->seed, i) : (uint64_t)v;
        memcpy((char *)host + 8 * k, &x, 8);
        break;
    }
    case VT_U8:
        ((unsigned char *)host)[k] = (unsigned char)v;
        break;
    }
}

void gbuf_cycle_fill(uint32_t *next, int64_t words, uint64_t seed)
{
    /* Sattolo's shuffle: every permutation it makes is a single cycle, so
     * a chain started anywhere visits every line before it comes back.
     * Line 0's successor is random too: a chain started at word 0 meets no
     * pattern a prefetcher could use. */
    int64_t lines = words / 32;
    uint32_t *perm = xmalloc((size_t)lines * sizeof *perm);
    for (int64_t i = 0; i < lines; i++)
        perm[i] = (uint32_t)i;
    for (int64_t i = lines - 1; i > 0; i--) {
        int64_t j = (int64_t)(bits(seed, i) % (uint64_t)i); /* j < i: Sattolo */
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    memset(next, 0, (size_t)words * sizeof *next);
    for (int64_t i = 0; i < lines; i++)
        next[i * 32] = perm[i] * 32u;
    free(perm);
}

static bool fill_cycle(gbuf *b, char *err, size_t errlen)
{
    uint32_t *next = xmalloc(b->bytes);
    gbuf_cycle_fill(next, b->spec->count, b->seed);
    bool ok = gpurt_to_device(b->dev, next, b->bytes, err, errlen);
    free(next);
    return ok;
}

bool gbuf_create(gbuf *b, const vbuffer *spec, uint64_t seed, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->spec = spec;
    b->seed = seed;
    size_t esz = vtype_size(spec->type);
    b->bytes = (size_t)spec->count * esz;
    if (!gpurt_alloc(&b->dev, b->bytes, err, errlen))
        return false;
    if (spec->init == VI_ZERO)
        return gpurt_memset(b->dev, 0, b->bytes, err, errlen);
    if (spec->init == VI_CYCLE)
        return fill_cycle(b, err, errlen);
    const size_t chunk = 4u << 20; /* elements */
    void *host = xmalloc(chunk * esz);
    bool ok = true;
    for (int64_t i0 = 0; ok && i0 < spec->count; i0 += (int64_t)chunk) {
        size_t n = (size_t)(spec->count - i0) < chunk ? (size_t)(spec->count - i0) : chunk;
        for (size_t k = 0; k < n; k++)
            store(b, host, k, i0 + (int64_t)k);
        ok = gpurt_to_device((char *)b->dev + (size_t)i0 * esz, host, n * esz, err, errlen);
    }
    free(host);
    return ok;
}

bool gbuf_keep(gbuf *b, char *err, size_t errlen)
{
    if (b->pristine)
        return true;
    return gpurt_alloc(&b->pristine, b->bytes, err, errlen) &&
           gpurt_device_copy(b->pristine, b->dev, b->bytes, err, errlen);
}

bool gbuf_restore(gbuf *b, char *err, size_t errlen)
{
    return !b->pristine || gpurt_device_copy(b->dev, b->pristine, b->bytes, err, errlen);
}

void gbuf_free(gbuf *b)
{
    gpurt_free(b->dev);
    gpurt_free(b->pristine);
    memset(b, 0, sizeof *b);
}

/* ---------------------------------------------------------------- checks */

static bool device_value(const gbuf *b, int64_t i, double *out, char *why, size_t whylen)
{
    size_t esz = vtype_size(b->spec->type);
    unsigned char raw[8];
    if (!gpurt_to_host(raw, (const char *)b->dev + (size_t)i * esz, esz, why, whylen))
        return false;
    switch (b->spec->type) {
    case VT_F32: {
        float f;
        memcpy(&f, raw, 4);
        *out = f;
        break;
    }
    case VT_F64:
        memcpy(out, raw, 8);
        break;
    case VT_F16: {
        uint16_t h;
        memcpy(&h, raw, 2);
        *out = gbuf_half_to_float(h);
        break;
    }
    case VT_I32: {
        int32_t x;
        memcpy(&x, raw, 4);
        *out = x;
        break;
    }
    case VT_U64: {
        uint64_t x;
        memcpy(&x, raw, 8);
        *out = (double)x;
        break;
    }
    case VT_U8:
        *out = raw[0];
        break;
    }
    return true;
}

/* Indices spread over [0, n): the ends and a stride that visits every
 * region (a bug in one block's tile shows). */
static int64_t sample(int64_t n, int k, int count)
{
    if (k == 0)
        return 0;
    if (k == count - 1)
        return n - 1;
    uint64_t r = (uint64_t)k * 0x9e3779b97f4a7c15ull;
    return (int64_t)(r % (uint64_t)n);
}

bool gbuf_check(const vresult_check *c, gbuf *bufs, char *why, size_t whylen)
{
    gbuf *x = &bufs[c->buf[0]], *y = &bufs[c->buf[1]], *z = &bufs[c->buf[2]];
    switch (c->fn) {
    case VR_NONE:
        return true;
    case VR_ADD:
    case VR_COPY:
    case VR_TRANSPOSE: {
        gbuf *out = c->fn == VR_ADD ? z : y;
        int64_t n = out->spec->count;
        for (int k = 0; k < 2048; k++) {
            int64_t i = sample(n, k, 2048), src = i;
            if (c->fn == VR_TRANSPOSE) /* out[col * N + row] = in[row * N + col] */
                src = (i % c->n) * c->n + i / c->n;
            double want = c->fn == VR_ADD ? (double)((float)stored(x, i) + (float)stored(y, i))
                                          : stored(x, src);
            double got;
            if (!device_value(out, i, &got, why, whylen))
                return false;
            if (got != want) {
                snprintf(why, whylen, "wrong result: %s[%lld] = %.9g, expected %.9g",
                         out->spec->name, (long long)i, got, want);
                return false;
            }
        }
        return true;
    }
    case VR_REDUCE: {
        int64_t want = 0;
        for (int64_t i = 0; i < x->spec->count; i++)
            want += (int64_t)gbuf_value(x, i);
        if (c->n > y->spec->count) {
            snprintf(why, whylen, "reduce: %lld partial sums in a buffer of %lld", (long long)c->n,
                     (long long)y->spec->count);
            return false;
        }
        int32_t *part = xcalloc((size_t)c->n, sizeof *part);
        bool ok = gpurt_to_host(part, y->dev, (size_t)c->n * 4, why, whylen);
        int64_t got = 0;
        for (int64_t i = 0; ok && i < c->n; i++)
            got += part[i];
        free(part);
        if (ok && got != want) {
            snprintf(why, whylen,
                     "wrong result: the %lld partial sums add up to %lld, expected %lld",
                     (long long)c->n, (long long)got, (long long)want);
            ok = false;
        }
        return ok;
    }
    case VR_GEMM:
    case VR_GEMM16: {
        int64_t n = c->n;
        for (int k = 0; k < 48; k++) {
            int64_t e = sample(n * n, k, 48), row = e / n, col = e % n;
            double ref = 0, mag = 0;
            for (int64_t t = 0; t < n; t++) {
                double p = stored(x, row * n + t) * stored(y, t * n + col);
                ref += p;
                mag += fabs(p);
            }
            double got;
            if (!device_value(z, e, &got, why, whylen))
                return false;
            /* fp32 accumulation of n products: error within n x 2^-24 of
             * the sum of magnitudes, with room for the order of adds. */
            if (!(fabs(got - ref) <= 1e-4 * mag + 1e-6)) {
                snprintf(why, whylen, "wrong result: c[%lld][%lld] = %.7g, expected %.7g",
                         (long long)row, (long long)col, got, ref);
                return false;
            }
        }
        return true;
    }
    }
    return true;
}
