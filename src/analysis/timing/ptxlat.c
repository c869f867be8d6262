/* ptxlat: the latency of a PTX instruction on sm_90 (see ptxlat.h). */
#include "analysis/timing/ptxlat.h"

#include <string.h>

/* (cycles(K = 48) - cycles(K = 16)) / 32, rounded, from
 * tests/data/latprobe/h200/run.txt (scripts/latprobe). The probes of
 * add.u32, add.s64 and min.s32 are not here: ptxas folds their chains two
 * copies to an instruction (IADD3, VIMNMX3), so they measure half an
 * instruction's latency; those instructions take the integer pipe's 4
 * clocks that shl.b32 (SHF) and max.f32 (FMNMX), which do not fold, show. */
static const struct {
    const char *op;
    double cycles;
} measured[] = {
    {"mad.lo.s32", 4},        {"mul.lo.s32", 4},      {"shl.b32", 4},
    {"mul.wide.u32", 4},      {"div.s32", 62},        {"div.u32", 59},
    {"rem.s32", 62},          {"rem.u32", 57},        {"div.s64", 337},
    {"div.u64", 308},         {"rem.s64", 337},       {"rem.u64", 307},
    {"mul.lo.s64", 17},       {"shl.b64", 6},         {"shr.s64", 8},
    {"add.f32", 4},           {"mul.f32", 4},         {"fma.rn.f32", 4},
    {"max.f32", 4},           {"div.rn.f32", 44},     {"div.rn.ftz.f32", 44},
    {"div.full.f32", 12},     {"div.approx.f32", 8},  {"rcp.rn.f32", 64},
    {"rcp.approx.f32", 41},   {"sqrt.rn.f32", 42},    {"sqrt.approx.f32", 39},
    {"rsqrt.approx.f32", 39}, {"ex2.approx.f32", 17}, {"lg2.approx.f32", 39},
    {"sin.approx.f32", 23},   {"cos.approx.f32", 23}, {"tanh.approx.f32", 17},
    {"add.f64", 8},           {"mul.f64", 8},         {"fma.rn.f64", 8},
    {"div.rn.f64", 111},      {"rcp.rn.f64", 60},     {"sqrt.rn.f64", 79},
    {"rsqrt.approx.f64", 54},
};

/* Measured by the probe's sequences and pointer chases, not one entry of
 * the table: a compare and a select (8 together), a float-int round trip
 * (cvt.rn.f32.s32 and cvt.rzi.s32.f32, 23 together), a load from shared
 * memory (23) and from global memory that L1 holds (34). */
enum { SETP = 4, CVT_FLOAT = 11, LD_SHARED = 23, LD_L1 = 34, ALU = 4 };

static bool starts(const char *op, const char *m)
{
    size_t k = strlen(m);
    return !strncmp(op, m, k) && (op[k] == '\0' || op[k] == '.');
}

static bool has(const char *op, const char *part)
{
    return strstr(op, part) != NULL;
}

/* The type suffix a PTX opcode ends with: ".f64", ".f32", ".s32" ... */
static const char *type_of(const char *op)
{
    const char *dot = strrchr(op, '.');
    return dot ? dot : "";
}

static bool int_type(const char *t)
{
    return t[1] == 's' || t[1] == 'u' || t[1] == 'b';
}

static double memory(const char *op)
{
    if (has(op, ".shared"))
        return LD_SHARED;
    if (has(op, ".param"))
        return 0; /* a constant-bank operand of the instructions that use it */
    /* global, local, const and generic loads, atomics: an L1 hit. An
     * atomic waits for L2 and a miss for L2 or DRAM: the latency term
     * counts those waits, the chain only what L1 gives. */
    return LD_L1;
}

/* What an instruction the probe did not measure is taken as. */
static double taken_as(const char *op)
{
    const char *t = type_of(op);
    if (starts(op, "ld") || starts(op, "ldu") || starts(op, "atom") || starts(op, "ldmatrix"))
        return memory(op);
    if (starts(op, "shfl") || starts(op, "vote") || starts(op, "match") || starts(op, "redux"))
        return LD_SHARED; /* the shuffle probe's chain was dropped by ptxas: as shared memory */
    if (starts(op, "setp") || starts(op, "set") || starts(op, "selp") || starts(op, "slct"))
        return SETP;
    if (starts(op, "cvt")) {
        /* two types, the destination's first: int to int is a move or a
         * shift, anything with a float one a conversion unit's trip */
        const char *a = strchr(op + 3, '.');
        bool ints = a && (a[1] == 's' || a[1] == 'u') && int_type(t) && !has(op, ".f");
        return ints ? ALU : CVT_FLOAT;
    }
    /* ptxas renames most moves away; branches, barriers and stores write
     * no register a later instruction waits for */
    if (starts(op, "mov") || starts(op, "bra") || starts(op, "ret") || starts(op, "exit") ||
        starts(op, "bar") || starts(op, "st") || starts(op, "red"))
        return 0;
    if (!strcmp(t, ".f64")) {
        if (starts(op, "div"))
            return 111;
        if (starts(op, "rcp"))
            return 60;
        if (starts(op, "sqrt"))
            return 79;
        return 8;
    }
    if (!strcmp(t, ".f32")) {
        /* .ftz forms of the approximations are the bare MUFU the
         * non-.ftz ones wrap in denormal scaling: as ex2.approx.f32 */
        if ((starts(op, "rcp") || starts(op, "sqrt") || starts(op, "rsqrt") || starts(op, "lg2")) &&
            has(op, ".approx") && has(op, ".ftz"))
            return 17;
        if (starts(op, "div"))
            return has(op, ".approx") ? 8 : has(op, ".full") ? 12 : 44;
        if (starts(op, "rcp"))
            return has(op, ".approx") ? 41 : 64;
        if (starts(op, "sqrt"))
            return has(op, ".approx") ? 39 : 42;
        if (starts(op, "rsqrt") || starts(op, "lg2"))
            return 39;
        if (starts(op, "ex2") || starts(op, "tanh"))
            return 17;
        if (starts(op, "sin") || starts(op, "cos"))
            return 23;
        return 4;
    }
    if (starts(op, "div") || starts(op, "rem"))
        return has(t, "64") ? 337 : 62;
    if (has(t, "64") && (starts(op, "mul") || starts(op, "mad")) && !has(op, ".wide"))
        return 17;
    if (has(t, "64") && (starts(op, "shl") || starts(op, "shr")))
        return 8;
    return ALU; /* the FMA, IMAD and integer pipes' latency: most other arithmetic */
}

double ptxlat_cycles(const char *op, bool *measured_out)
{
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++)
        if (!strcmp(op, measured[i].op)) {
            if (measured_out)
                *measured_out = true;
            return measured[i].cycles;
        }
    if (measured_out)
        *measured_out = false;
    return taken_as(op);
}

/* Where ptxas's sequence for op branches to a slow path, read from the
 * probe's SASS (tests/data/latprobe/h200/sass.txt.gz): clocks from the
 * sequence's start to its branch. div.rn.f32 runs MUFU.RCP, FCHK and its
 * FFMAs, then branches; rcp.rn.f32 and sqrt.rn.f32 test the operand's
 * range first (three and two integer instructions); the FP64 ones branch
 * after their DFMA chain; a 64-bit integer division calls a routine. */
static const struct {
    const char *op;
    double cycles;
} branches[] = {
    {"div.rn.f32", 40},  {"div.rn.ftz.f32", 40}, {"rcp.rn.f32", 12},  {"sqrt.rn.f32", 8},
    {"div.rn.f64", 103}, {"rcp.rn.f64", 52},     {"sqrt.rn.f64", 71}, {"rsqrt.approx.f64", 46},
    {"div.s64", 337},    {"div.u64", 308},       {"rem.s64", 337},    {"rem.u64", 307},
};

double ptxlat_branch_at(const char *op)
{
    for (size_t i = 0; i < sizeof branches / sizeof branches[0]; i++)
        if (!strcmp(op, branches[i].op))
            return branches[i].cycles;
    return 0;
}
