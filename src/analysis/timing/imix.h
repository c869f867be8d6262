/* imix: the static instruction mix of one compiled kernel, read from its
 * PTX or SASS (input/ptx, input/sass), and what it says about the source's
 * counts. Static: every instruction of the code once, whatever the trip
 * counts; the dynamic counts stay the source analysis' job. Pure. */
#ifndef GPULINT_IMIX_H
#define GPULINT_IMIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum imix_level { IMIX_PTX, IMIX_SASS } imix_level;

/* One instruction as a reader found it. */
typedef struct imix_insn {
    char op[64];    /* opcode with its modifiers: "fma.rn.f32", "LDS.U.128"; cut to fit */
    int file, line; /* source position (PTX .loc, SASS //## File); 0 = unknown */
    /* SASS -gi: the outermost frame of an inlined helper's instruction, the
     * kernel's own line that reached it (= file, line outside helpers); 0 = not given. */
    int outer_file, outer_line;
    bool guarded;       /* under a predicate (@%p1, @!P0; @PT is not a guard) */
    bool guard_negated; /* PTX: the predicate taken negated (@!%p1); its register is src[0] */
    int32_t target;     /* a branch's target instruction (n = the end); -1 = none or unknown */
    bool move;          /* arithmetic opcode used as a register move (HFMA2.MMA R, -RZ, RZ, c) */
    /* PTX: an instruction ptxas makes no SASS of: a copy of a register or
     * an immediate (renamed away, or folded into its reader's operand),
     * a conversion of a generic address to a global one (the same bits). */
    bool folded;
    bool folded_literal; /* folded, and what it copies is a literal */
    bool literal;        /* PTX: has a float literal operand (0f..., 0d...) */
    /* PTX: how many float literals it reads, and the bits of the first
     * two (0f literals widened to their 32 bits), for what ptxas must
     * make to hold them (analysis/timing/icount). */
    unsigned char n_literals;
    bool rare_path; /* PTX: on a math function's path for rare arguments */
    bool literal_f64[2];
    bool literal_last[2]; /* the last operand (an fma's addend) */
    uint64_t literal_bits[2];
    /* PTX: a hash of the operands after the destination, as written
     * (`[%rd6+4]`), to tell a repeated load; 0: none. */
    uint32_t args;
    /* PTX: the registers it writes and reads, as hashes of their names (0:
     * none; the first IMIX_DST and IMIX_SRC), for the dependent-issue
     * chain (analysis/timing/depchain). */
    uint32_t dst[4], src[8];
    /* PTX: its last integer immediate operand (`add.s32 %r9, %r9, 16`), for
     * the step a compiled loop's counter takes. */
    bool has_imm;
    int64_t imm;
    /* PTX: a memory operand's register and offset (`[%r5+12]`); 0: none. */
    uint32_t addr_base;
    int64_t addr_offset;
    /* PTX: an atomic ptxas makes one reduction a warp (analysis/timing/aggatom). */
    bool aggregated;
    /* PTX: the bytes of a vector load ptxas unpacks (analysis/timing/byteunpack). */
    unsigned char unpacked;
} imix_insn;
enum { IMIX_DST = 4, IMIX_SRC = 8 };

/* The hash dst and src hold for a PTX register or special register named
 * name[0..n) without its '%' ("r12", "tid.x"): FNV-1a, never 0 (kept for
 * "none"). Readers only ask whether two operands name the same register,
 * and a function's few hundred names do not collide in 32 bits in
 * practice. */
uint32_t imix_reg_hash(const char *name, size_t n);

typedef enum imix_class {
    IMIX_FP32_ADD,
    IMIX_FP32_MUL,
    IMIX_FP32_FMA,
    IMIX_FP64_ADD,
    IMIX_FP64_MUL,
    IMIX_FP64_FMA,
    IMIX_FP16_ADD, /* half and bfloat16, scalar or packed (lanes say which) */
    IMIX_FP16_MUL,
    IMIX_FP16_FMA,
    IMIX_TENSOR,  /* mma, wmma, wgmma / HMMA, IMMA, HGMMA ... */
    IMIX_SPECIAL, /* MUFU and PTX's approximate and IEEE divisions, roots, exponentials */
    IMIX_LD_SHARED,
    IMIX_ST_SHARED,
    IMIX_LD_GLOBAL,
    IMIX_ST_GLOBAL,
    IMIX_LD_GENERIC, /* no state space: global or shared, decided at run time */
    IMIX_ST_GENERIC,
    IMIX_LD_LOCAL, /* spills and local arrays */
    IMIX_ST_LOCAL,
    IMIX_LD_CONST,
    IMIX_ATOM_SHARED,
    IMIX_ATOM_GLOBAL, /* global or generic atomics and reductions */
    IMIX_CP_ASYNC,    /* cp.async / LDGSTS: a thread's copy global -> shared */
    IMIX_TMA,         /* cp.async.bulk[.tensor] / UTMALDG, UTMASTG, UBLKCP: the copy engine */
    IMIX_MBARRIER,    /* mbarrier.* / SYNCS.*: the barriers async copies arrive on */
    IMIX_SHUFFLE,
    IMIX_VOTE,
    IMIX_BARRIER,
    IMIX_BRANCH,
    IMIX_CALL,
    IMIX_OTHER,
    IMIX_N_CLASSES
} imix_class;

/* Widths of memory instructions, in bits per thread. */
enum { IMIX_W8, IMIX_W16, IMIX_W32, IMIX_W64, IMIX_W128, IMIX_N_WIDTHS };

typedef struct imix_op {
    imix_class cls;
    int width_bits; /* memory classes: bits one thread moves; 0 otherwise */
    int lanes;      /* arithmetic: values per instruction (2 for f16x2, FFMA2) */
} imix_op;

imix_op imix_classify(imix_level level, const char *op);
/* The FLOPs one thread's instruction of this kind does (FMA 2, add and
 * mul 1, each lane of a packed one); 0 for anything else. */
double imix_op_flops(imix_op op);
const char *imix_class_name(imix_class c);
int imix_width_bits(int width_index);

/* Tensor FLOPs by the inputs' type: what the roofline's tensor ceilings
 * are per (fp16_tensor, bf16_tensor, ...). */
enum {
    IMIX_T_FP16,
    IMIX_T_BF16,
    IMIX_T_TF32,
    IMIX_T_FP64,
    IMIX_T_FP8,
    IMIX_T_INT8,
    IMIX_N_TENSOR_TYPES
};
const char *imix_tensor_type_name(int t); /* "fp16", "bf16", ... */
/* One warp's FLOPs of a tensor instruction, from the shape its opcode
 * names (mma m16n8k16: 2 x 16 x 8 x 16; a warpgroup's wgmma m64nNk16
 * split over its four warps; SASS HMMA.16816, HGMMA.64x128x16); *type
 * its inputs'. 0 when the opcode names no shape gpulint can read
 * (tcgen05.mma takes its shape from a descriptor at run time). */
double imix_tensor_flops(imix_level level, const char *op, int *type);

/* FLOP precisions, in kroof's order. */
enum { IMIX_P_FP16, IMIX_P_FP32, IMIX_P_FP64, IMIX_N_PRECISIONS };
const char *imix_precision_name(int p);

typedef struct imix {
    imix_level level;
    size_t n_insns;
    size_t count[IMIX_N_CLASSES];
    size_t width[IMIX_N_CLASSES][IMIX_N_WIDTHS];
    size_t backward_branches; /* loops the compiler kept */
    size_t guarded_branches;
    size_t moves; /* HFMA2.MMA moves: in OTHER here, Nsight Compute counts them as HFMA */
    /* FLOPs of one pass through every instruction, as Nsight Compute
     * weighs them (an FMA is 2, an add or multiply 1, per lane). */
    double flops[IMIX_N_PRECISIONS];
    double guarded_flops[IMIX_N_PRECISIONS]; /* of those, under a predicate */
    /* Tensor FLOPs of one pass, a warp, by input type; tensor instructions
     * whose shape the opcode does not give are counted apart. */
    double tensor_flops[IMIX_N_TENSOR_TYPES];
    size_t tensor_unknown;
} imix;

void imix_count(imix_level level, const imix_insn *insns, size_t n, imix *out);

/* A kernel's code against the source's per-thread FLOPs of one precision. */
typedef enum imix_verdict {
    IMIX_AGREE,          /* loop-free code holds exactly the source's count */
    IMIX_WITHIN,         /* the source's count fits the code (guards, loops) */
    IMIX_SOURCE_ABOVE,   /* the source counts more than loop-free code can run */
    IMIX_SOURCE_BELOW,   /* every instruction runs once, and the source counts fewer */
    IMIX_NO_CODE,        /* the source counts work of a precision the code never does */
    IMIX_NO_SOURCE,      /* the code does work of a precision the source never counts */
    IMIX_NOT_COMPARABLE, /* loops or calls: a static count says nothing of the dynamic one */
} imix_verdict;

/* source_flops: per thread, NAN = unknown. calls: the code calls functions
 * whose instructions are not in `m`. */
imix_verdict imix_check(const imix *m, int precision, double source_flops, bool calls);
const char *imix_verdict_name(imix_verdict v);

#endif
