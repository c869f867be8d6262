/* pipes: the SM pipe each instruction issues to (see pipes.h).
 *
 * Which SASS opcode runs where is Nsight Compute's documentation of its
 * pipe metrics (sm__inst_executed_pipe_*); which SASS a PTX instruction
 * becomes is what ptxas 13.0 makes for sm_90, read from the HeCBench
 * listings (tests/data/hecbench/sass) and the probes of tests/data/
 * xuprobe: cvt.rn.f32.s32 is I2FP on the ALU pipe, cvt.rzi.s32.f32 F2I on
 * XU, a 32-bit division by a register IMADs and integer adds once its
 * divisor's reciprocal is made, an IEEE single division two XU
 * instructions, a 64-bit division three. */
#include "analysis/timing/pipes.h"

#include "analysis/timing/ptxop.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *const names[PIPES_N] = {"alu", "fma_heavy",        "fp64",
                                           "xu",  "alu_or_fma_heavy", "other"};

const char *pipes_name(pipes_pipe p)
{
    return p >= 0 && p < PIPES_N ? names[p] : "?";
}

static bool in_list(const char *word, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(word, *list) == 0)
            return true;
    return false;
}

/* ---- SASS ---- */

static pipes_pipe sass_pipe(const char *op)
{
    static const char *const alu[] = {
        "IADD3", "ISETP", "LOP3",  "SHF",  "SEL",    "IABS", "IMNMX", "FSETP",     "FMNMX",
        "PRMT",  "MOV",   "LEA",   "FSEL", "FSET",   "ISET", "I2FP",  "BMSK",      "SGXT",
        "P2R",   "R2P",   "PLOP3", "IADD", "VIMNMX", "FCHK", "F2FP",  "VIADDMNMX", NULL};
    static const char *const heavy[] = {"IMAD", "IMUL", "IDP", "VIADD", NULL};
    static const char *const fp64[] = {"DFMA", "DADD", "DMUL", "DSETP", "DMNMX", NULL};
    static const char *const xu[] = {"MUFU", "F2I", "I2F",  "F2F", "FRND",
                                     "POPC", "FLO", "BREV", NULL};
    /* ptxas's register move through the FMA-heavy pipe */
    if (strncmp(op, "HFMA2.MMA", 9) == 0)
        return PIPES_FMA_HEAVY;
    ptxop s;
    ptxop_split(op, &s);
    const char *base = s.p[0];
    if (in_list(base, heavy))
        return PIPES_FMA_HEAVY;
    if (in_list(base, alu))
        return PIPES_ALU;
    if (in_list(base, fp64))
        return PIPES_FP64;
    if (in_list(base, xu))
        return PIPES_XU;
    return PIPES_OTHER;
}

/* ---- PTX ---- */

/* The widest kind among the opcode's type words (f64 over float over int). */
static ptxop_kind op_kind(const ptxop *s)
{
    ptxop_kind k = PTXOP_NONE;
    for (int i = 1; i < s->n; i++) {
        ptxop_kind t = ptxop_type_kind(s->p[i]);
        if (t > k)
            k = t;
    }
    return k;
}

static bool is64(const char *t)
{
    return strcmp(t, "s64") == 0 || strcmp(t, "u64") == 0 || strcmp(t, "b64") == 0;
}

/* cvt.RND.DTYPE.ATYPE: the last two words. */
static pipes_pipe cvt_pipe(const ptxop *s)
{
    if (s->n < 3)
        return PIPES_OTHER;
    const char *d = s->p[s->n - 2], *a = s->p[s->n - 1];
    ptxop_kind kd = ptxop_type_kind(d), ka = ptxop_type_kind(a);
    if (kd == PTXOP_F64 || ka == PTXOP_F64)
        return PIPES_XU;
    if (kd == PTXOP_FLOAT && ka == PTXOP_FLOAT) /* to an integral value (FRND), else F2FP */
        return strcmp(d, a) == 0 ? PIPES_XU : PIPES_ALU;
    if (kd == PTXOP_INT && ka == PTXOP_FLOAT)
        return PIPES_XU; /* F2I */
    if (kd == PTXOP_FLOAT && ka == PTXOP_INT)
        return is64(a) ? PIPES_XU : PIPES_ALU; /* I2F.S64, I2FP */
    return kd == PTXOP_INT && ka == PTXOP_INT ? PIPES_ALU : PIPES_OTHER;
}

static pipes_pipe ptx_pipe(const ptxop *s)
{
    static const char *const logic[] = {
        "and", "or",  "xor",  "not",   "cnot", "shl",  "shr",   "shf",      "lop3", "prmt",
        "bfe", "bfi", "bmsk", "szext", "selp", "slct", "testp", "copysign", NULL};
    static const char *const compare[] = {"setp", "set", "min", "max", NULL};
    static const char *const adds[] = {"add", "sub", "addc", "subc", "abs", "neg", NULL};
    static const char *const muls[] = {"mul", "mad", "mul24", "mad24", "fma", "madc", NULL};
    static const char *const xu[] = {"popc", "clz", "brev", "bfind", NULL};
    const char *m = s->p[0];
    ptxop_kind k = op_kind(s);
    /* a 32-bit add or left shift: IADD3 or IMAD.IADD, SHF or IMAD.SHL */
    bool narrow = s->n > 1 && !is64(s->p[s->n - 1]);
    if (narrow && k == PTXOP_INT &&
        (strcmp(m, "add") == 0 || strcmp(m, "sub") == 0 || strcmp(m, "neg") == 0 ||
         strcmp(m, "shl") == 0))
        return PIPES_ALU_OR_HEAVY;
    if (in_list(m, logic))
        return PIPES_ALU;
    if (in_list(m, xu))
        return PIPES_XU;
    if (strcmp(m, "dp4a") == 0 || strcmp(m, "dp2a") == 0)
        return PIPES_FMA_HEAVY;
    if (strcmp(m, "cvt") == 0)
        return cvt_pipe(s);
    if (in_list(m, compare))
        return k == PTXOP_F64 ? PIPES_FP64 : PIPES_ALU;
    /* a float's add runs at the full FMA rate; its abs and neg fold into
     * the operands of the instruction that reads them */
    if (in_list(m, adds))
        return k == PTXOP_F64 ? PIPES_FP64 : k == PTXOP_INT ? PIPES_ALU : PIPES_OTHER;
    if (in_list(m, muls))
        return k == PTXOP_F64 ? PIPES_FP64 : k == PTXOP_INT ? PIPES_FMA_HEAVY : PIPES_OTHER;
    return PIPES_OTHER;
}

/* Split n between the ALU and FMA-heavy pipes: ptxas's integer sequences
 * (a division and its reciprocal) are IMADs and adds, compares and selects
 * in about equal numbers (mask's upperMaskKernel). */
static void integer_sequence(double n, double out[PIPES_N])
{
    out[PIPES_ALU] += n / 2;
    out[PIPES_FMA_HEAVY] += n / 2;
}

void pipes_add_divisor_setup(double count, double out[PIPES_N])
{
    double xu = fmin(3, count); /* I2F.RP, MUFU.RCP, F2I */
    out[PIPES_XU] += xu;
    integer_sequence(count - xu, out);
}

void pipes_add(imix_level level, const char *op, double count, double out[PIPES_N])
{
    if (level == IMIX_SASS) {
        out[sass_pipe(op)] += count;
        return;
    }
    ptxop s;
    ptxop_split(op, &s);
    const char *m = s.p[0];
    ptxop_kind k = op_kind(&s);
    bool special = strcmp(m, "rcp") == 0 || strcmp(m, "sqrt") == 0 || strcmp(m, "rsqrt") == 0 ||
                   strcmp(m, "ex2") == 0 || strcmp(m, "lg2") == 0 || strcmp(m, "sin") == 0 ||
                   strcmp(m, "cos") == 0 || strcmp(m, "tanh") == 0;
    bool divide = strcmp(m, "div") == 0 || strcmp(m, "rem") == 0;
    if (special || (divide && k != PTXOP_INT)) {
        /* MUFU (two for an IEEE single division: the reciprocal and its
         * check), the rest FFMAs or DFMAs */
        double xu = fmin(count, divide && k == PTXOP_FLOAT && strstr(op, ".rn.") ? 2 : 1);
        out[PIPES_XU] += xu;
        out[k == PTXOP_F64 ? PIPES_FP64 : PIPES_OTHER] += count - xu;
        return;
    }
    if (strcmp(m, "clz") == 0) {
        /* FLO, and an add for 31 minus its result */
        double xu = fmin(1, count);
        out[PIPES_XU] += xu;
        out[PIPES_ALU] += count - xu;
        return;
    }
    if ((strcmp(m, "min") == 0 || strcmp(m, "max") == 0) && k == PTXOP_F64) {
        /* a DSETP, the rest integer tests and selects for NaNs, evenly
         * on the two integer pipes (tests/data/pipeprobe) */
        double fp64 = fmin(1, count);
        out[PIPES_FP64] += fp64;
        integer_sequence(count - fp64, out);
        return;
    }
    if (strcmp(m, "mul") == 0 && k == PTXOP_INT && s.n > 2 && strcmp(s.p[1], "lo") == 0 &&
        is64(s.p[s.n - 1])) {
        /* IMAD.WIDE.U32 and two IMADs for the cross products, an IADD3 to
         * sum the high words (tests/data/pipeprobe, sass.txt) */
        double alu = fmin(1, count / 4);
        out[PIPES_ALU] += alu;
        out[PIPES_FMA_HEAVY] += count - alu;
        return;
    }
    if (divide && k == PTXOP_INT) {
        /* a 64-bit division makes its reciprocal with three XU instructions */
        double xu = s.n > 1 && is64(s.p[s.n - 1]) ? fmin(3, count) : 0;
        out[PIPES_XU] += xu;
        integer_sequence(count - xu, out);
        return;
    }
    out[ptx_pipe(&s)] += count;
}

double pipes_issue_clocks(const double insts[PIPES_N], const double clocks[PIPES_N])
{
    double on[PIPES_N], total = 0;
    for (int p = 0; p < PIPES_N; p++) {
        on[p] = insts[p] > 0 ? insts[p] : 0;
        total += on[p];
    }
    if (!(total > 0))
        return 1;
    double a = on[PIPES_ALU], h = on[PIPES_FMA_HEAVY], e = on[PIPES_ALU_OR_HEAVY];
    if (fabs(a - h) >= e)
        on[a < h ? PIPES_ALU : PIPES_FMA_HEAVY] += e;
    else
        on[PIPES_ALU] = on[PIPES_FMA_HEAVY] = (a + h + e) / 2;
    on[PIPES_ALU_OR_HEAVY] = 0;
    double waits = 1, bound = 1;
    for (int p = 0; p < PIPES_N; p++) {
        if (!(clocks[p] > 1) || !(on[p] > 0))
            continue;
        double f = on[p] / total;
        bound = fmax(bound, f * clocks[p]);
        waits += (clocks[p] - 1) * f * f;
    }
    return fmax(waits, bound);
}
