/* ptxcost: SASS warp instructions per PTX instruction (see ptxcost.h). */
#include "analysis/timing/ptxcost.h"

#include <stdbool.h>
#include <string.h>

/* (K = 48 - K = 16) / 32 of each probe's smsp__inst_executed
 * (tests/data/ptxprobe/ncu.csv; scripts/ptxprobe/table.py). Only the
 * instructions that are not one to one: add.s64 and other chains ptxas
 * folds measure below their real cost and stay at 1. */
static const struct {
    const char *op;
    double sass;
} measured[] = {
    {"div.s32", 12},       {"div.u32", 9},        {"rem.s32", 10},          {"rem.u32", 8},
    {"div.s64", 88},       {"div.u64", 74},       {"rem.s64", 80},          {"rem.u64", 70},
    {"mul.lo.s64", 4},     {"shl.b64", 2},        {"shr.s64", 2},           {"div.rn.f32", 8},
    {"div.rn.ftz.f32", 8}, {"div.full.f32", 3},   {"div.approx.f32", 2},    {"rcp.rn.f32", 8},
    {"rcp.approx.f32", 7}, {"sqrt.rn.f32", 8},    {"sqrt.approx.f32", 4},   {"rsqrt.approx.f32", 4},
    {"lg2.approx.f32", 4}, {"sin.approx.f32", 2}, {"cos.approx.f32", 2},    {"div.rn.f64", 14},
    {"rcp.rn.f64", 9},     {"sqrt.rn.f64", 16},   {"rsqrt.approx.f64", 12},
};

/* Per copy of each probe's smsp__inst_executed with a separator ptxas
 * cannot fold into the chain (tests/data/pipeprobe; scripts/pipeprobe/
 * table.py): selp.f64 is its pair with setp.lt.f64 (3) less the DSETP;
 * the 64-bit integer probes less their separator's two LOP3s (sass.txt):
 * min.s64 two ISETPs and two SELs, setp.lt.s64 + selp.s64 the same. */
static const struct {
    const char *op;
    double sass;
} measured_pipeprobe[] = {
    {"bfe.u32", 2}, {"bfe.s32", 2}, {"clz.b32", 2},  {"min.f64", 8},
    {"max.f64", 8}, {"min.s64", 4}, {"selp.f64", 2}, {"selp.s64", 2},
};

/* Where the PTX type's width decides, not the name: SEL and ISETP take
 * 32 bits, so a 64-bit integer select is two SELs and a 64-bit integer
 * compare an ISETP and its .EX (selp.s64, setp.lt.s64 measured; the other
 * comparisons and spellings of the type are the same instructions). */
static double by_width(const char *op)
{
    size_t n = strlen(op);
    bool int64 = n > 4 && (!strcmp(op + n - 4, ".s64") || !strcmp(op + n - 4, ".u64") ||
                           !strcmp(op + n - 4, ".b64"));
    if (int64 && (!strncmp(op, "selp.", 5) || !strncmp(op, "setp.", 5)))
        return 2;
    return 1;
}

double ptxcost_sass_per_ptx(const char *op)
{
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++)
        if (!strcmp(op, measured[i].op))
            return measured[i].sass;
    for (size_t i = 0; i < sizeof measured_pipeprobe / sizeof measured_pipeprobe[0]; i++)
        if (!strcmp(op, measured_pipeprobe[i].op))
            return measured_pipeprobe[i].sass;
    return by_width(op);
}

double ptxcost_f64_pair_moves(int sm)
{
    return sm >= 120 ? 1 : 2;
}

bool ptxcost_f64_literal_fits(uint64_t bits)
{
    return (bits & 0xffffffffu) == 0;
}
