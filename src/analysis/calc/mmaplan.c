/* mmaplan: fragment tiling and the roofline of a Tensor Core GEMM. */
#include "analysis/calc/mmaplan.h"

#include <stdio.h>
#include <string.h>

/* PTX ISA 8.x, "Matrix shape" tables of mma.sync (and wmma): the shapes an
 * instruction exists for, whatever the type. */
static const mma_shape shapes[] = {
    {8, 8, 4, "m8n8k4"},       {8, 8, 16, "m8n8k16"},     {8, 8, 32, "m8n8k32"},
    {8, 8, 128, "m8n8k128"},   {16, 8, 4, "m16n8k4"},     {16, 8, 8, "m16n8k8"},
    {16, 8, 16, "m16n8k16"},   {16, 8, 32, "m16n8k32"},   {16, 8, 64, "m16n8k64"},
    {16, 8, 128, "m16n8k128"}, {16, 8, 256, "m16n8k256"}, {16, 16, 16, "m16n16k16"},
    {32, 8, 16, "m32n8k16"},   {8, 32, 16, "m8n32k16"},   {16, 16, 8, "m16n16k8"},
};

bool mmaplan_shape(const char *name, mma_shape *out)
{
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (strcmp(name, shapes[i].name) == 0) {
            *out = shapes[i];
            return true;
        }
    return false;
}

const char *mmaplan_shape_list(void)
{
    static char buf[256];
    if (!buf[0])
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            size_t len = strlen(buf);
            snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "", shapes[i].name);
        }
    return buf;
}

/* The WMMA fragments CUDA 13.0's crt/mma.h declares, per Tensor Core type.
 * Every fragment holds its share of the matrix once except __half's A and
 * B, which hold 16 elements per lane for every shape (the Volta-era layout
 * WMMA kept: a 16 x 16 A is 8 elements per lane, each held by 2 lanes).
 * tests/wmma_fragments.py compiles mma.h and checks these. */
static const struct {
    const char *precision;
    const char *shape;
} wmma_fragments[] = {
    {"fp16-tensor", "m16n16k16"}, {"fp16-tensor", "m32n8k16"}, {"fp16-tensor", "m8n32k16"},
    {"bf16-tensor", "m16n16k16"}, {"bf16-tensor", "m32n8k16"}, {"bf16-tensor", "m8n32k16"},
    {"int8-tensor", "m16n16k16"}, {"int8-tensor", "m32n8k16"}, {"int8-tensor", "m8n32k16"},
    {"tf32-tensor", "m16n16k8"},  {"fp64-tensor", "m8n8k4"},
};
#define WMMA_HALF_OPERAND_ELEMS 16

void mmaplan_lanes(const mma_shape *s, const char *precision, int in_elem, mma_lanes *out)
{
    memset(out, 0, sizeof *out);
    const int64_t size[3] = {(int64_t)s->m * s->k, (int64_t)s->k * s->n, (int64_t)s->m * s->n};
    out->accumulator_bytes = precision && strcmp(precision, "fp64-tensor") == 0 ? 8 : 4;
    for (int i = 0; i < 3; i++) {
        out->elems[i] = (int)((size[i] + 31) / 32);
        int bytes = i < 2 ? in_elem : out->accumulator_bytes;
        out->regs[i] = (int)(((int64_t)out->elems[i] * bytes + 3) / 4);
    }
    if (!precision)
        return;
    for (size_t i = 0; i < sizeof wmma_fragments / sizeof wmma_fragments[0]; i++)
        if (strcmp(precision, wmma_fragments[i].precision) == 0 &&
            strcmp(s->name, wmma_fragments[i].shape) == 0) {
            bool half = strcmp(precision, "fp16-tensor") == 0;
            for (int j = 0; j < 3; j++)
                out->wmma_elems[j] = half && j < 2 ? WMMA_HALF_OPERAND_ELEMS : out->elems[j];
        }
}

bool mmaplan_compute(const int64_t dims[3], const mma_shape *s, int in_elem, int out_elem,
                     double peak, double bandwidth, double measured, mmaplan *o)
{
    memset(o, 0, sizeof *o);
    const int edge[3] = {s->m, s->n, s->k};
    if (in_elem < 1 || out_elem < 1 || !(peak > 0) || !(bandwidth > 0))
        return false;
    o->util_total = 1;
    for (int i = 0; i < 3; i++) {
        if (dims[i] < 1)
            return false;
        o->dims[i] = dims[i];
        o->frags[i] = (dims[i] + edge[i] - 1) / edge[i];
        o->util[i] = (double)dims[i] / (double)(o->frags[i] * edge[i]);
        o->util_total *= o->util[i];
    }
    double m = (double)dims[0], n = (double)dims[1], k = (double)dims[2];
    o->flops = 2 * m * n * k;
    o->bytes = in_elem * (m * k + k * n) + out_elem * m * n;
    o->ai = o->flops / o->bytes;
    o->peak = peak;
    o->bandwidth = bandwidth;
    o->effective_peak = peak * o->util_total;
    o->attainable = o->ai * bandwidth < o->effective_peak ? o->ai * bandwidth : o->effective_peak;
    o->memory_bound = o->ai * bandwidth < o->effective_peak;
    o->time_compute = o->flops / o->effective_peak;
    o->time_memory = o->bytes / bandwidth;
    o->min_time = o->time_compute > o->time_memory ? o->time_compute : o->time_memory;
    o->bandwidth_needed = o->bytes / o->time_compute;
    if (measured > 0) {
        o->measured = measured;
        o->of_peak = measured / peak;
        o->of_attainable = measured / o->attainable;
    }
    return true;
}
