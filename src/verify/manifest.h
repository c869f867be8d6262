/* manifest: what `gpulint verify` runs, read from the reference-kernel
 * directory: verify.ini (groups of kernels, their buffers, arguments and
 * how each is measured) and the integer #defines of verify.h, which size
 * the buffers (the kernels include the same header, so a size lives in one
 * place). Pure parsing: the caller reads the files. */
#ifndef GPULINT_VERIFY_MANIFEST_H
#define GPULINT_VERIFY_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VMAN_NAME_MAX 64
#define VMAN_MAX_BUFFERS 8
#define VMAN_MAX_ARGS 8
#define VMAN_MAX_SIZES 64

/* The checks verify reports, in report order. */
typedef enum vcheck {
    VCHECK_OCCUPANCY,
    VCHECK_BANK,
    VCHECK_COALESCING,
    VCHECK_DIVERGENCE,
    VCHECK_ROOFLINE,
    VCHECK_TIME, /* rows of the roofline kernels: the predicted time */
    VCHECK_COUNT
} vcheck;

/* How a kernel line is measured. */
typedef enum vkind {
    VK_RESIDENCY, /* occupancy: blocks per SM from residency records */
    VK_CYCLES,    /* bank: clock64 cycles per shared request */
    VK_SECTORS,   /* coalescing: DRAM bytes per warp request */
    VK_LANES,     /* divergence: lane counters */
    VK_TWINS,     /* divergence: divergent against converged time */
    VK_CEILING,   /* a roof of the device */
    VK_TIME,      /* roofline and ladders: time against the bound */
    VK_TIMING,    /* calibration: a run of a probe of a [timing] constant */
} vkind;

typedef enum vtype { VT_F32, VT_F64, VT_F16, VT_I32, VT_U64, VT_U8 } vtype;
/* VI_CYCLE (i32 only): one random cycle through the buffer's 128-byte
 * lines, the first word of each line holding the next line's first word's
 * index (a dependent-load chain). */
typedef enum vinit { VI_ZERO, VI_RAND, VI_SMALL, VI_MATRIX, VI_CYCLE } vinit;

typedef struct vbuffer {
    char name[VMAN_NAME_MAX];
    vtype type;
    int64_t count;
    vinit init;
} vbuffer;

typedef struct varg {
    int buffer; /* index into the group's buffers, or -1 for a scalar */
    vtype type; /* scalars: f32, f64, i32, u64 */
    double value;
} varg;

/* Result checks: add(a,b,c) c = a + b; copy(in,out); transpose(in,out,N);
 * reduce(in,out,COUNT) the COUNT partial sums add up to the input's sum;
 * gemm / gemm16(a,b,c,N) sampled elements against double precision. */
typedef enum vresult {
    VR_NONE,
    VR_ADD,
    VR_COPY,
    VR_TRANSPOSE,
    VR_REDUCE,
    VR_GEMM,
    VR_GEMM16
} vresult;

typedef struct vresult_check {
    vresult fn;
    int buf[3]; /* buffer indices */
    int64_t n;  /* N or COUNT */
} vresult_check;

typedef struct vgroup {
    char name[VMAN_NAME_MAX];   /* "bank", "ladder gemm" */
    char ladder[VMAN_NAME_MAX]; /* "gemm" for ladder groups, else "" */
    char file[VMAN_NAME_MAX];   /* "bank.cu" */
    char nvcc[256];             /* extra nvcc arguments, space-separated */
    char book[160];             /* ladders: where the book's times come from */
    vcheck check;
    vbuffer buffers[VMAN_MAX_BUFFERS];
    int n_buffers;
} vgroup;

typedef struct vcase {
    int group;
    int line; /* in verify.ini */
    vkind kind;
    char kernel[VMAN_NAME_MAX];
    char reference[VMAN_NAME_MAX]; /* VK_TWINS: the converged twin */
    char ceiling[VMAN_NAME_MAX];   /* VK_CEILING: dram, fp32, fp16_tensor, ... */
    char constant[VMAN_NAME_MAX];  /* VK_TIMING: the [timing] key it measures */
    varg args[VMAN_MAX_ARGS];
    int n_args;
    int block;            /* VK_RESIDENCY */
    int64_t dynamic_smem; /* VK_RESIDENCY */
    int carveout;         /* -1: the driver's default */
    int cluster;          /* VK_RESIDENCY: blocks per cluster of a cluster launch, 0 = none */
    bool nonportable;     /* ... with cudaFuncAttributeNonPortableClusterSizeAllowed */
    bool calibrate;
    double calibrate_value; /* the count the calibration pattern has for certain */
    bool sparse;
    bool scattered;     /* coalescing: time bounds the sectors from above only (DRAM rows) */
    bool straddles;     /* coalescing: the same, from lines per request (the L2) */
    bool floor;         /* bank: the cheapest request of its width */
    int64_t grid;       /* a 1-D grid when no launch site gives one (ceilings) */
    int64_t threads;    /* its block */
    int blocks_per_sm;  /* VK_TIMING: a grid of this many blocks per SM of the device */
    bool alone;         /* VK_TIMING: shared memory enough that one block fills an SM */
    bool has_work;      /* VK_TIMING: work= given (the slope's abscissa) */
    double book_ms;     /* ladders: the seed's time for this step, 0 = none */
    int min_cc;         /* 10 x major + minor the kernel needs, 0 = any */
    int64_t requests;   /* VK_SECTORS */
    int64_t compulsory; /* VK_TIME: bytes; 0 = not given */
    int64_t work;       /* VK_CEILING: bytes or FLOPs; VK_TIMING: steps, bytes, blocks */
    int restore;        /* buffer index, -1 = none */
    vresult_check result;
    char step[192];
} vcase;

typedef struct vsize {
    char name[VMAN_NAME_MAX];
    int64_t value;
} vsize;

typedef struct vmanifest {
    vgroup *groups;
    int n_groups;
    vcase *cases;
    int n_cases;
    vsize sizes[VMAN_MAX_SIZES];
    int n_sizes;
} vmanifest;

typedef struct vman_error {
    const char *file; /* "verify.ini" or "verify.h" */
    int line;
    char message[256];
} vman_error;

/* The integer #defines of verify.h ("#define NAME EXPR", EXPR over earlier
 * names); other lines are ignored. */
bool vman_parse_sizes(const char *text, size_t len, vmanifest *m, vman_error *err);
/* verify.ini, after the sizes. */
bool vman_parse(const char *text, size_t len, vmanifest *m, vman_error *err);
void vman_free(vmanifest *m);

/* An expression over the sizes ("2*VEC_N"). */
bool vman_eval(const vmanifest *m, const char *text, int64_t *out, char *why, size_t why_len);

const char *vcheck_name(vcheck c); /* "occupancy", "bank", ... (JSON names) */
bool vcheck_from_name(const char *s, vcheck *out);
/* The [timing] keys [calibration] may measure (verify/vcalibrate.c derives
 * each); NULL-terminated. */
extern const char *const vman_timing_constants[];
size_t vtype_size(vtype t);
const char *vtype_name(vtype t);

#endif
