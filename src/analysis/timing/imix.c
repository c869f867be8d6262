/* imix: classify PTX and SASS opcodes and count a kernel's static mix.
 *
 * The FLOP weights are Nsight Compute's: its flop counts are
 * sass_thread_inst_executed_op_{fadd,fmul} + 2 x op_ffma per precision
 * (the "SOL FP32/FP64" and roofline sections), so a SASS FFMA is 2 and a
 * FADD or FMUL 1, per lane. PTX is one step before ptxas, which may still
 * fuse, split or fold; a figure from PTX says so. */
#include "analysis/timing/imix.h"

#include "analysis/timing/ptxop.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const class_names[IMIX_N_CLASSES] = {
    [IMIX_FP32_ADD] = "fp32_add",
    [IMIX_FP32_MUL] = "fp32_mul",
    [IMIX_FP32_FMA] = "fp32_fma",
    [IMIX_FP64_ADD] = "fp64_add",
    [IMIX_FP64_MUL] = "fp64_mul",
    [IMIX_FP64_FMA] = "fp64_fma",
    [IMIX_FP16_ADD] = "fp16_add",
    [IMIX_FP16_MUL] = "fp16_mul",
    [IMIX_FP16_FMA] = "fp16_fma",
    [IMIX_TENSOR] = "tensor",
    [IMIX_SPECIAL] = "special",
    [IMIX_LD_SHARED] = "shared_load",
    [IMIX_ST_SHARED] = "shared_store",
    [IMIX_LD_GLOBAL] = "global_load",
    [IMIX_ST_GLOBAL] = "global_store",
    [IMIX_LD_GENERIC] = "generic_load",
    [IMIX_ST_GENERIC] = "generic_store",
    [IMIX_LD_LOCAL] = "local_load",
    [IMIX_ST_LOCAL] = "local_store",
    [IMIX_LD_CONST] = "constant_load",
    [IMIX_ATOM_SHARED] = "shared_atomic",
    [IMIX_ATOM_GLOBAL] = "global_atomic",
    [IMIX_CP_ASYNC] = "async_copy",
    [IMIX_TMA] = "tma",
    [IMIX_MBARRIER] = "mbarrier",
    [IMIX_SHUFFLE] = "shuffle",
    [IMIX_VOTE] = "vote",
    [IMIX_BARRIER] = "barrier",
    [IMIX_BRANCH] = "branch",
    [IMIX_CALL] = "call",
    [IMIX_OTHER] = "other",
};

uint32_t imix_reg_hash(const char *name, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    return h ? h : 1;
}

const char *imix_class_name(imix_class c)
{
    return c < IMIX_N_CLASSES ? class_names[c] : "?";
}

int imix_width_bits(int w)
{
    return w >= 0 && w < IMIX_N_WIDTHS ? 8 << w : 0;
}

const char *imix_precision_name(int p)
{
    static const char *const names[] = {"fp16", "fp32", "fp64"};
    return p >= 0 && p < IMIX_N_PRECISIONS ? names[p] : "?";
}

/* ---- opcodes ---- */

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static imix_op op_of(imix_class c, int width, int lanes)
{
    return (imix_op){.cls = c, .width_bits = width, .lanes = lanes};
}

static int ptx_access_bits(const ptxop *s)
{
    int vec = 1, bits = 0;
    for (int i = 1; i < s->n; i++) {
        if (strcmp(s->p[i], "v2") == 0)
            vec = 2;
        else if (strcmp(s->p[i], "v4") == 0)
            vec = 4;
        else if (strcmp(s->p[i], "v8") == 0)
            vec = 8;
        else if (ptxop_type_bits(s->p[i]))
            bits = ptxop_type_bits(s->p[i]);
    }
    return vec * bits;
}

/* The precision of a PTX arithmetic opcode: -1 = not floating point; lanes
 * 2 for the packed types. */
static int ptx_precision(const ptxop *s, int *lanes)
{
    *lanes = 1;
    if (ptxop_has(s, "f32"))
        return IMIX_P_FP32;
    if (ptxop_has(s, "f64"))
        return IMIX_P_FP64;
    if (ptxop_has(s, "f16x2") || ptxop_has(s, "bf16x2")) {
        *lanes = 2;
        return IMIX_P_FP16;
    }
    if (ptxop_has(s, "f16") || ptxop_has(s, "bf16"))
        return IMIX_P_FP16;
    return -1;
}

static const imix_class arith[IMIX_N_PRECISIONS][3] = {
    [IMIX_P_FP16] = {IMIX_FP16_ADD, IMIX_FP16_MUL, IMIX_FP16_FMA},
    [IMIX_P_FP32] = {IMIX_FP32_ADD, IMIX_FP32_MUL, IMIX_FP32_FMA},
    [IMIX_P_FP64] = {IMIX_FP64_ADD, IMIX_FP64_MUL, IMIX_FP64_FMA},
};

static imix_op classify_ptx(const ptxop *s)
{
    const char *m = s->p[0];
    int lanes;
    if (ptxop_is(s, "ld") || ptxop_is(s, "ldu") || ptxop_is(s, "st")) {
        bool load = m[0] == 'l';
        int bits = ptx_access_bits(s);
        for (int i = 1; i < s->n; i++) {
            if (starts(s->p[i], "shared"))
                return op_of(load ? IMIX_LD_SHARED : IMIX_ST_SHARED, bits, 0);
            if (strcmp(s->p[i], "global") == 0)
                return op_of(load ? IMIX_LD_GLOBAL : IMIX_ST_GLOBAL, bits, 0);
            if (strcmp(s->p[i], "local") == 0)
                return op_of(load ? IMIX_LD_LOCAL : IMIX_ST_LOCAL, bits, 0);
            if (strcmp(s->p[i], "const") == 0 || strcmp(s->p[i], "param") == 0)
                return op_of(IMIX_LD_CONST, bits, 0);
        }
        return op_of(load ? IMIX_LD_GENERIC : IMIX_ST_GENERIC, bits, 0);
    }
    if (ptxop_is(s, "atom") || ptxop_is(s, "red")) {
        for (int i = 1; i < s->n; i++)
            if (starts(s->p[i], "shared"))
                return op_of(IMIX_ATOM_SHARED, 0, 0);
        return op_of(IMIX_ATOM_GLOBAL, 0, 0);
    }
    if (ptxop_is(s, "cp") && ptxop_has(s, "async"))
        return op_of(ptxop_has(s, "bulk") ? IMIX_TMA : IMIX_CP_ASYNC, 0, 0);
    if (ptxop_is(s, "mbarrier") || (ptxop_is(s, "fence") && ptxop_has(s, "mbarrier_init")))
        return op_of(IMIX_MBARRIER, 0, 0);
    if (ptxop_is(s, "tcgen05") && ptxop_has(s, "mma"))
        return op_of(IMIX_TENSOR, 0, 0);
    /* wgmma.fence, .commit_group and .wait_group order the MMAs; only
     * wgmma.mma_async is one */
    if (ptxop_is(s, "mma") ||
        ((ptxop_is(s, "wgmma") || ptxop_is(s, "wmma")) && s->n > 1 && starts(s->p[1], "mma")))
        return op_of(IMIX_TENSOR, 0, 0);
    if (ptxop_is(s, "shfl"))
        return op_of(IMIX_SHUFFLE, 0, 0);
    if (ptxop_is(s, "vote") || ptxop_is(s, "match") || ptxop_is(s, "redux"))
        return op_of(IMIX_VOTE, 0, 0);
    if (ptxop_is(s, "bar") || ptxop_is(s, "barrier"))
        return op_of(IMIX_BARRIER, 0, 0);
    if (ptxop_is(s, "bra") || ptxop_is(s, "brx") || ptxop_is(s, "ret") || ptxop_is(s, "exit"))
        return op_of(IMIX_BRANCH, 0, 0);
    if (ptxop_is(s, "call"))
        return op_of(IMIX_CALL, 0, 0);
    int p = ptx_precision(s, &lanes);
    if (p >= 0) {
        if (ptxop_is(s, "add") || ptxop_is(s, "sub"))
            return op_of(arith[p][0], 0, lanes);
        if (ptxop_is(s, "mul"))
            return op_of(arith[p][1], 0, lanes);
        if (ptxop_is(s, "fma") || ptxop_is(s, "mad"))
            return op_of(arith[p][2], 0, lanes);
        if (ptxop_is(s, "div") || ptxop_is(s, "rcp") || ptxop_is(s, "sqrt") ||
            ptxop_is(s, "rsqrt") || ptxop_is(s, "ex2") || ptxop_is(s, "lg2") ||
            ptxop_is(s, "sin") || ptxop_is(s, "cos") || ptxop_is(s, "tanh"))
            return op_of(IMIX_SPECIAL, 0, lanes);
    }
    return op_of(IMIX_OTHER, 0, 0);
}

static int sass_access_bits(const ptxop *s)
{
    if (ptxop_has(s, "U8") || ptxop_has(s, "S8"))
        return 8;
    if (ptxop_has(s, "U16") || ptxop_has(s, "S16"))
        return 16;
    if (ptxop_has(s, "64"))
        return 64;
    if (ptxop_has(s, "128"))
        return 128;
    return 32;
}

static imix_op classify_sass(const ptxop *s)
{
    static const struct {
        const char *mnemonic;
        imix_class cls;
        int lanes;
    } arith_ops[] = {
        {"FADD", IMIX_FP32_ADD, 1},  {"FMUL", IMIX_FP32_MUL, 1},  {"FFMA", IMIX_FP32_FMA, 1},
        {"FADD2", IMIX_FP32_ADD, 2}, {"FMUL2", IMIX_FP32_MUL, 2}, {"FFMA2", IMIX_FP32_FMA, 2},
        {"DADD", IMIX_FP64_ADD, 1},  {"DMUL", IMIX_FP64_MUL, 1},  {"DFMA", IMIX_FP64_FMA, 1},
        {"HADD2", IMIX_FP16_ADD, 2}, {"HMUL2", IMIX_FP16_MUL, 2}, {"HFMA2", IMIX_FP16_FMA, 2},
    };
    for (size_t i = 0; i < sizeof arith_ops / sizeof arith_ops[0]; i++)
        if (ptxop_is(s, arith_ops[i].mnemonic))
            return op_of(arith_ops[i].cls, 0, arith_ops[i].lanes);
    static const struct {
        const char *mnemonic;
        imix_class cls;
    } memory_ops[] = {
        {"LDS", IMIX_LD_SHARED},  {"STS", IMIX_ST_SHARED}, {"LDG", IMIX_LD_GLOBAL},
        {"STG", IMIX_ST_GLOBAL},  {"LD", IMIX_LD_GENERIC}, {"ST", IMIX_ST_GENERIC},
        {"LDL", IMIX_LD_LOCAL},   {"STL", IMIX_ST_LOCAL},  {"LDSM", IMIX_LD_SHARED},
        {"STSM", IMIX_ST_SHARED},
    };
    for (size_t i = 0; i < sizeof memory_ops / sizeof memory_ops[0]; i++) {
        if (!ptxop_is(s, memory_ops[i].mnemonic))
            continue;
        int bits = sass_access_bits(s);
        /* LDSM.16.M88.4: four 8x8 matrices, 4 registers (128 bits) a thread */
        if (ptxop_is(s, "LDSM") || ptxop_is(s, "STSM")) {
            const char *last = s->p[s->n - 1];
            bits = strcmp(last, "4") == 0 ? 128 : strcmp(last, "2") == 0 ? 64 : 32;
        }
        return op_of(memory_ops[i].cls, bits, 0);
    }
    const char *m = s->p[0];
    if (ptxop_is(s, "LDC") || ptxop_is(s, "ULDC"))
        return op_of(IMIX_LD_CONST, 0, 0);
    if (ptxop_is(s, "ATOMS"))
        return op_of(IMIX_ATOM_SHARED, 0, 0);
    if (ptxop_is(s, "ATOMG") || ptxop_is(s, "ATOM") || ptxop_is(s, "RED") || ptxop_is(s, "REDG") ||
        ptxop_is(s, "REDUX"))
        return ptxop_is(s, "REDUX") ? op_of(IMIX_VOTE, 0, 0) : op_of(IMIX_ATOM_GLOBAL, 0, 0);
    if (ptxop_is(s, "LDGSTS"))
        return op_of(IMIX_CP_ASYNC, 0, 0);
    if (ptxop_is(s, "UBLKCP") || starts(m, "UTMA"))
        return op_of(IMIX_TMA, 0, 0);
    if (ptxop_is(s, "SYNCS"))
        return op_of(IMIX_MBARRIER, 0, 0);
    if (strstr(m, "MMA")) /* HMMA, IMMA, DMMA, BMMA, HGMMA, QGMMA ... */
        return op_of(IMIX_TENSOR, 0, 0);
    if (ptxop_is(s, "MUFU"))
        return op_of(IMIX_SPECIAL, 0, 1);
    if (ptxop_is(s, "SHFL"))
        return op_of(IMIX_SHUFFLE, 0, 0);
    if (ptxop_is(s, "VOTE") || ptxop_is(s, "VOTEU") || ptxop_is(s, "MATCH"))
        return op_of(IMIX_VOTE, 0, 0);
    if (ptxop_is(s, "BAR"))
        return op_of(IMIX_BARRIER, 0, 0);
    if (ptxop_is(s, "BRA") || ptxop_is(s, "BRX") || ptxop_is(s, "JMP") || ptxop_is(s, "JMX") ||
        ptxop_is(s, "EXIT") || ptxop_is(s, "RET"))
        return op_of(IMIX_BRANCH, 0, 0);
    if (ptxop_is(s, "CALL"))
        return op_of(IMIX_CALL, 0, 0);
    return op_of(IMIX_OTHER, 0, 0);
}

imix_op imix_classify(imix_level level, const char *op)
{
    ptxop s;
    ptxop_split(op, &s);
    return level == IMIX_PTX ? classify_ptx(&s) : classify_sass(&s);
}

/* ---- the mix ---- */

static int width_index(int bits)
{
    switch (bits) {
    case 8:
        return IMIX_W8;
    case 16:
        return IMIX_W16;
    case 64:
        return IMIX_W64;
    case 128:
        return IMIX_W128;
    default:
        return IMIX_W32;
    }
}

static int precision_of(imix_class c)
{
    if (c >= IMIX_FP32_ADD && c <= IMIX_FP32_FMA)
        return IMIX_P_FP32;
    if (c >= IMIX_FP64_ADD && c <= IMIX_FP64_FMA)
        return IMIX_P_FP64;
    if (c >= IMIX_FP16_ADD && c <= IMIX_FP16_FMA)
        return IMIX_P_FP16;
    return -1;
}

/* Widths matter where a thread's access meets banks or sectors. */
static bool is_memory(imix_class c)
{
    return c >= IMIX_LD_SHARED && c <= IMIX_ST_LOCAL;
}

double imix_op_flops(imix_op op)
{
    if (precision_of(op.cls) < 0)
        return 0;
    bool fma = op.cls == IMIX_FP16_FMA || op.cls == IMIX_FP32_FMA || op.cls == IMIX_FP64_FMA;
    return (fma ? 2.0 : 1.0) * op.lanes;
}

void imix_count(imix_level level, const imix_insn *insns, size_t n, imix *out)
{
    memset(out, 0, sizeof *out);
    out->level = level;
    out->n_insns = n;
    for (size_t i = 0; i < n; i++) {
        imix_op op = insns[i].move ? op_of(IMIX_OTHER, 0, 0) : imix_classify(level, insns[i].op);
        out->moves += insns[i].move;
        out->count[op.cls]++;
        if (is_memory(op.cls) && op.width_bits)
            out->width[op.cls][width_index(op.width_bits)]++;
        if (op.cls == IMIX_TENSOR) {
            int type = -1;
            double f = imix_tensor_flops(level, insns[i].op, &type);
            if (f > 0 && type >= 0)
                out->tensor_flops[type] += f;
            else
                out->tensor_unknown++;
        }
        int p = precision_of(op.cls);
        if (p >= 0) {
            out->flops[p] += imix_op_flops(op);
            if (insns[i].guarded)
                out->guarded_flops[p] += imix_op_flops(op);
        }
        if (op.cls == IMIX_BRANCH) {
            /* a branch to itself is SASS's end-of-function spin, not a loop */
            if (insns[i].target >= 0 && (size_t)insns[i].target < i)
                out->backward_branches++;
            if (insns[i].guarded)
                out->guarded_branches++;
        }
    }
}

/* ---- tensor shapes ---- */

const char *imix_tensor_type_name(int t)
{
    static const char *const names[] = {"fp16", "bf16", "tf32", "fp64", "fp8", "int8"};
    return t >= 0 && t < IMIX_N_TENSOR_TYPES ? names[t] : "?";
}

/* The inputs' type from the opcode's type parts (PTX lists D, A, B[, C];
 * SASS the accumulator, then A/B where they are not half). An opcode that
 * names only accumulators multiplies halves: wmma .f32.f32, HMMA.F32;
 * IMMA multiplies 8-bit integers, DMMA doubles, QGMMA 8-bit floats. */
static int tensor_type(const ptxop *s)
{
    static const struct {
        const char *part;
        int type;
    } named[] = {
        {"bf16", IMIX_T_BF16}, {"BF16", IMIX_T_BF16}, {"tf32", IMIX_T_TF32}, {"TF32", IMIX_T_TF32},
        {"e4m3", IMIX_T_FP8},  {"e5m2", IMIX_T_FP8},  {"E4M3", IMIX_T_FP8},  {"E5M2", IMIX_T_FP8},
        {"s8", IMIX_T_INT8},   {"u8", IMIX_T_INT8},   {"S8", IMIX_T_INT8},   {"U8", IMIX_T_INT8},
        {"f16", IMIX_T_FP16},  {"F16", IMIX_T_FP16},
    };
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
        if (ptxop_has(s, named[k].part))
            return named[k].type;
    const char *m = s->p[0];
    if (!strcmp(m, "DMMA") || ptxop_has(s, "f64"))
        return IMIX_T_FP64;
    if (!strcmp(m, "IMMA"))
        return IMIX_T_INT8;
    if (!strcmp(m, "QGMMA"))
        return IMIX_T_FP8;
    if (!strcmp(m, "HMMA") || !strcmp(m, "HGMMA") || !strcmp(m, "wmma") || !strcmp(m, "mma"))
        return IMIX_T_FP16;
    return -1;
}

/* "m16n8k16" -> 16, 8, 16. */
static bool ptx_shape(const ptxop *s, long *m, long *n, long *k)
{
    for (int i = 1; i < s->n; i++)
        if (sscanf(s->p[i], "m%ldn%ldk%ld", m, n, k) == 3)
            return true;
    return false;
}

/* SASS: "64x128x16" (HGMMA), or digits: "16816" is m16 n8 k16, "1688"
 * m16 n8 k8, "884" m8 n8 k4 (m is 16 or 8, n one digit, the rest k). */
static bool sass_shape(const ptxop *s, long *m, long *n, long *k)
{
    for (int i = 1; i < s->n; i++) {
        const char *p = s->p[i];
        if (sscanf(p, "%ldx%ldx%ld", m, n, k) == 3)
            return true;
        size_t len = strlen(p);
        if (len < 3 || len > 5 || strspn(p, "0123456789") != len)
            continue;
        size_t mlen = p[0] == '1' && p[1] == '6' ? 2 : 1;
        *m = mlen == 2 ? 16 : p[0] - '0';
        *n = p[mlen] - '0';
        *k = strtol(p + mlen + 1, NULL, 10);
        return *m > 0 && *n > 0 && *k > 0;
    }
    return false;
}

double imix_tensor_flops(imix_level level, const char *op, int *type)
{
    ptxop s;
    ptxop_split(op, &s);
    long m = 0, n = 0, k = 0;
    bool shaped = level == IMIX_PTX ? ptx_shape(&s, &m, &n, &k) : sass_shape(&s, &m, &n, &k);
    *type = tensor_type(&s);
    if (!shaped || *type < 0)
        return 0;
    double flops = 2.0 * (double)m * (double)n * (double)k;
    /* a warpgroup's instruction, issued by each of its four warps */
    if (level == IMIX_PTX ? ptxop_is(&s, "wgmma") : strstr(s.p[0], "GMMA") != NULL)
        flops /= 4;
    return flops;
}

/* ---- against the source ---- */

static bool same(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

imix_verdict imix_check(const imix *m, int precision, double source_flops, bool calls)
{
    if (precision < 0 || precision >= IMIX_N_PRECISIONS || calls || isnan(source_flops))
        return IMIX_NOT_COMPARABLE;
    double code = m->flops[precision];
    if (source_flops > 0 && code == 0)
        return IMIX_NO_CODE;
    if (source_flops == 0 && code > 0)
        return m->guarded_flops[precision] == code || m->backward_branches || m->guarded_branches
                   ? IMIX_NOT_COMPARABLE
                   : IMIX_NO_SOURCE;
    if (m->backward_branches)
        return IMIX_NOT_COMPARABLE;
    /* Loop-free code runs each instruction at most once per thread. */
    if (source_flops > code && !same(source_flops, code))
        return IMIX_SOURCE_ABOVE;
    if (same(source_flops, code))
        return IMIX_AGREE;
    if (m->guarded_branches || m->guarded_flops[precision] > 0)
        return IMIX_WITHIN;
    return IMIX_SOURCE_BELOW;
}

const char *imix_verdict_name(imix_verdict v)
{
    static const char *const names[] = {
        [IMIX_AGREE] = "agree",
        [IMIX_WITHIN] = "within",
        [IMIX_SOURCE_ABOVE] = "source_above_code",
        [IMIX_SOURCE_BELOW] = "source_below_code",
        [IMIX_NO_CODE] = "no_code",
        [IMIX_NO_SOURCE] = "no_source",
        [IMIX_NOT_COMPARABLE] = "not_comparable",
    };
    return v <= IMIX_NOT_COMPARABLE ? names[v] : "?";
}
