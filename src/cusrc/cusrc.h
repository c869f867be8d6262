/* cusrc: the libclang source front end. Reads one .cu file the way the
 * device compiler sees it and hands the analyses plain data: the kernels,
 * every launch site with its configuration evaluated where it is a
 * compile-time constant, the __shared__ arrays, every shared and global
 * memory access and every branch inside the kernels (index and condition
 * expressions as expr trees), and per-thread operation counts for the
 * roofline. The analyses never see libclang.
 *
 * Built without libclang, cusrc_parse() exists and fails with "built without
 * libclang"; everything else (freeing, dumping) works.
 *
 * Parsing. clang -x cuda --cuda-device-only with the toolkit's headers
 * (plus include/cccl, as nvcc.profile adds it), -nocudalib, the target arch,
 * then the compilation database's -I/-D/-U/-include/-std (nvcc or clang
 * commands; other flags are dropped) and the caller's arguments. Files with
 * errors are analysed as far as clang recovers (unit->notes, kernel->note).
 *
 * Templates. libclang exposes the body of every instantiation the file
 * uses, with the template arguments substituted. A templated kernel
 * therefore gets one *variant* per distinct instantiation that the file
 * names (launches `k<64, 8><<<...>>>`, deduced launches, cudaLaunchKernel,
 * cudaFuncSetAttribute, function pointers): its arrays, accesses and
 * branches are those of the instantiation, with constants folded. Only when
 * the file names no instantiation (libclang does not show explicit
 * instantiations) is the template itself analysed once, as a *generic*
 * variant in which the template parameters stay named symbols (bind them in
 * an expr_env by the names in cusrc_kernel.tparams); extents that depend on
 * them are then -1 in smem_array.dims and kept as trees in cusrc_array_info.
 *
 * Values. Folded to constants: literals, #defines, const/constexpr
 * variables, enumerators, template arguments, sizeof, constexpr calls,
 * arithmetic, dim3(x, y, z) and dim3 variables (constructor, member
 * assignments), locals set once (`int tid = threadIdx.x; int i = ... + tid;`
 * reads as the formula), locals reassigned in straight-line code (the value
 * of the last assignment before the use), small helpers of the form
 * `return <expr>;` with their arguments bound, and host functions called
 * from the file (launch wrappers are followed from each call with its
 * arguments, so `void run(int n) { k<<<(n + 255) / 256, 256>>>(); }` called
 * as run(1 << 20) gives grid 4096; each call gives its own launch).
 *
 * Symbols that may appear in the trees:
 *   builtins   threadIdx/blockIdx/blockDim/gridDim .x/.y/.z and warpSize;
 *   named      kernel parameters ("n", "p.stride" for a struct field of a
 *              parameter), loop counters (loop_ctx.var), template
 *              parameters (generic variants only), locals that are
 *              reassigned with a value that is the same in every lane
 *              (e.g. an offset advanced by a constant in a loop), and, on
 *              the host side, runtime variables of the launching function
 *              (with cusrc_value.why saying where they come from: argv, a
 *              parameter, a computation);
 *              "trips_L<line>" stands for the unknown trip count of the loop
 *              on that line in the operation counts.
 * Anything else becomes EX_UNKNOWN with the reason in expr.name, and the
 * site's why_not says why it cannot be analysed (a value read from memory,
 * a reassigned per-thread variable, a pointer that is reassigned...).
 *
 * Sites (access.h). mem_access.kernel and branch_site.kernel are the
 * variant's name. Accesses: every read and write of a __shared__ variable
 * (arrays, scalars, through pointers set once from it: `float *p =
 * &tile[r][0]`, `float *b = smem + 256`, casts) and of global memory
 * through kernel pointer parameters, pointer fields of struct parameters
 * and __device__ arrays; `x op= y`, ++, atomic*(&x, ...) give a load and a
 * store; __ldg(&x) a load. byte_offset is in bytes from the array's (or
 * pointer's) start, width the bytes one thread moves (16 for float4).
 * Guards: the conjunction of enclosing if conditions (negated in else
 * arms), of the left side of && / || and of ?: conditions, and of
 * `if (c) return;` / `continue;` / `break;` above the site (!c; for return
 * to the end of the kernel, for continue and break to the end of the loop
 * body); switch cases do not add guards. Loops: for, while and do loops
 * whose counter is recognised give loop_ctx{var, init (value on entry),
 * cond, next (the value after one step, in terms of var)}; others give a
 * loop_ctx with NULL members. Branch sites: if (cond), ?:, switch (cond is
 * the controlling value) and loops (cond is the continuation condition and
 * the loop's own context is the last of branch_site.loops).
 *
 * Calls (cusrc_call.c). A call to a __device__ function of the project
 * (main file or a project header: free functions, methods, operators,
 * conversions, templates, constructors) is walked at its call site: value
 * parameters bound to the caller's argument expressions, pointer and
 * reference parameters to the memory their arguments name, inside the
 * caller's loops and guards, to a depth of 16 and within a budget per
 * kernel. Its sites carry `via` (the call chain); locals that would clash
 * with a caller's name become "helper::name". Cooperative groups'
 * thread_rank/meta_group_rank/size... are their values in the built-in
 * indices; cg::reduce counts its additions. Calls not followed (recursion,
 * a body in another file, CUB/Thrust/CUTLASS/CuTe, the budget) and memory
 * reached through a pointer that cannot be placed are named in
 * cusrc_counts.incomplete. clang's CUDA headers lack some intrinsics
 * (__stcs, __ldlu...): cusrc_decls.c declares them for libclang only.
 *
 * Not followed: accesses through pointers that are reassigned, loop
 * counters also stepped inside the loop body (the loop's next is then
 * NULL). Across translation units, calls from the project's host units,
 * main's unit and the units a chain of such calls passes through into
 * functions defined here are followed (cusrc_xcall.c, run/xcalls.c), and
 * so are their launches of kernels defined here (cusrc_xlaunch.c). */
#ifndef GPULINT_CUSRC_H
#define GPULINT_CUSRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"
#include "analysis/symbolic/expr.h"
#include "analysis/timing/mathcost.h"
#include "util/sbuf.h"

/* ---- input ---- */

/* A call from one translation unit of a project to a host function it
 * declares and does not define (`run(size)` in main.cpp, `run` in the
 * kernels' file): found by the scan of the calling unit (collect_calls),
 * handed to the scan of the others (calls), where the callee, if it is
 * defined there and called by nothing of its own file, is followed from
 * each such call with the constant arguments bound. */
typedef struct cusrc_xarg {
    bool known;
    int64_t value;
    char *why;  /* !known: where the caller's value comes from */
    char *text; /* a launch's value as written, NULL where not carried */
    /* !known: the value in the caller's names where it has no unknown part
     * ("n / 256"), for --define to bind; else NULL. */
    char *expr;
    /* A struct argument: the integer fields the caller set to constants. */
    int n_fields;
    struct cusrc_xfield {
        char *name;
        int64_t value;
    } * fields;
} cusrc_xarg;

typedef struct cusrc_xcall {
    char *usr;    /* the callee's USR: the same in every unit that declares it */
    char *callee; /* its name, for messages */
    src_loc loc;  /* the call */
    int n_args;
    cusrc_xarg *args;
    int n_folded;
    struct cusrc_size_from *folded; /* the caller's constants the arguments were computed from */
    int n_path; /* the functions from the one scanned as written to the caller */
    char **fn;
    int64_t *runs; /* how many times each makes the next call (the last: this one), -1 unknown */
    char **why;    /* where an unknown count comes from, else NULL */
    /* A method called on an object the caller knows (`sim.Start()`): the
     * integer fields the object holds at the call. */
    bool has_self;
    int n_self;
    struct cusrc_xfield *self;
    /* A launch of a kernel the caller's unit declares and does not define
     * (usr: the kernel's; callee: its name): args[0..XLAUNCH_CONFIG-1] are
     * the grid's x, y and z, the block's, and the dynamic shared memory;
     * the kernel's arguments follow. text: the launch as written. */
    bool launch;
    int kind; /* a cusrc_launch_kind */
    char *text;
} cusrc_xcall;
#define XLAUNCH_CONFIG 7

/* A file-scope integer variable of the program as one unit sees it: the
 * unit that defines it gives its value where the unit sets it once for all
 * its code (cusrc_global's rule), and a unit that writes it through an
 * `extern` declaration says so (known false): then no unit's value holds.
 * A unit that only declares it reads the defining unit's value
 * (`extern size_t even_sites_on_node;` in the kernels' file). */
typedef struct cusrc_xglobal {
    char *usr; /* the same in every unit for a variable with external linkage */
    char *name;
    bool known;
    int64_t value;
    src_loc loc; /* where the value is set */
} cusrc_xglobal;

typedef struct cusrc_xcalls {
    cusrc_xcall *v;
    size_t n, cap;
    cusrc_xglobal *g;
    size_t n_g, cap_g;
} cusrc_xcalls;

void cusrc_xcalls_free(cusrc_xcalls *x);

/* Another unit of the same program: the file and its compiler arguments
 * (libclang's, as cusrc_clang_args gives them). */
typedef struct cusrc_sibling {
    const char *file;
    const char *const *args;
    int n_args;
} cusrc_sibling;

typedef struct cusrc_options {
    const char *file;        /* the .cu file */
    const char *const *args; /* extra compiler arguments (-I, -D, -std=...), may be NULL */
    int n_args;
    const char *cuda_home; /* NULL = the configured default (/usr/local/cuda) */
    const char *arch;      /* "sm_90", "sm_90a", "compute_80"; NULL = sm_90 */
    math_mode math;        /* what nvcc's flags make of divisions and math calls */
    /* The program's own arguments (argv[1], ...) where the user gave them
     * (--run-args): main's reads of them (atoi(argv[1]), argc) become those
     * values. run_args NULL: not given, and they stay run-time values. */
    const char *const *run_args;
    int n_run_args;
    /* Calls into this file from the project's other units (NULL: none). */
    const cusrc_xcalls *calls;
    /* Where to add the calls this file makes to functions it does not
     * define (NULL: not collected). */
    cusrc_xcalls *collect_calls;
    /* The program's other units, where a function this file declares and
     * does not define may be defined (a constructor, an option parser):
     * parsed when a size needs that definition (cusrc_sibling.c). */
    const cusrc_sibling *siblings;
    int n_siblings;
} cusrc_options;

/* ---- output ---- */

/* A value of a launch configuration (one dim3 component, the dynamic smem
 * size, an opt-in size). */
typedef struct cusrc_value {
    bool present; /* written in the source (or implied: dim3's missing components = 1) */
    bool known;   /* value holds the compile-time constant */
    int64_t value;
    expr *e;      /* the expression: EX_CONST when known; else named symbols for
                     runtime variables of the launching function, EX_UNKNOWN parts */
    char *text;   /* source text ("(n + 255) / 256"), NULL when implied */
    char *why;    /* when !known: one sentence, e.g. "block size comes from argv
                     (variable 'threads')" */
    bool stepped; /* known once a sweep bound a host loop's counter: one trip's value */
} cusrc_value;

typedef struct cusrc_dim3 {
    bool present;
    cusrc_value x, y, z;
    char *text; /* the whole argument as written ("grid", "dim3(16, 16)") */
} cusrc_dim3;

/* One template argument of an instantiation. */
typedef struct cusrc_targ {
    char *param; /* template parameter name; NULL when not known */
    bool is_type;
    int64_t value;     /* non-type arguments */
    char *type_name;   /* type arguments: "float" */
    int64_t type_size; /* sizeof the type argument, -1 when not known */
    char *text;        /* rendering: "64", "float" */
} cusrc_targ;

typedef struct cusrc_launch_bounds {
    bool present;
    int64_t max_threads; /* -1 when not evaluated */
    int64_t min_blocks;  /* -1 when absent or not evaluated */
    int64_t max_cluster; /* -1 when absent or not evaluated */
    char *text;          /* "256, 2" */
} cusrc_launch_bounds;

/* __cluster_dims__(x, y, z) on a kernel: it always launches in clusters. */
typedef struct cusrc_cluster_dims {
    bool present;
    int64_t dims[3]; /* -1 where not constant; 1 where not given */
    char *text;      /* "2, 1, 1" */
} cusrc_cluster_dims;

typedef struct cusrc_param {
    char *name;           /* "" when unnamed */
    char *type;           /* spelling: "const float *" */
    int64_t pointee_size; /* for pointers: sizeof the pointee; -1 otherwise or unknown */
} cusrc_param;

typedef struct cusrc_kernel {
    char *name;      /* spelling: "transpose" */
    char *qualified; /* "ns::transpose" */
    char *usr;       /* libclang USR: stable identity across declarations */
    bool templated;
    int n_tparams;
    char **tparams; /* template parameter names, in order */
    bool *tparam_is_type;
    int n_params;
    cusrc_param *params;
    char *mangled; /* non-templated kernels: as ptxas prints it; templated: NULL
                      (see the variants) */
    cusrc_launch_bounds launch_bounds;
    cusrc_cluster_dims cluster_dims;
    char *annotation; /* text after "gpulint:" of the comment lines directly above
                         ("flops=2*N bytes=8*N"), NULL when none */
    char *note;       /* when the kernel's own code had compile errors: the first one */
    src_loc loc;      /* the name in the definition */
    size_t first_variant, n_variants; /* into cusrc_unit.variants */
} cusrc_kernel;

/* Per thread, for the roofline (#4). Each is a tree that may hold named
 * symbols (kernel parameters in loop bounds, "trips_L<line>" for loops whose
 * trip count could not be expressed); never NULL. Conventions: add, sub,
 * mul, div = 1, fma()/fmaf()/__fma_rn = 2 (so `a*b + c` and `x += a*b` are
 * 2 either way), half2/bfloat162 operations count both lanes; both arms of
 * every branch are counted (an upper bound); loops multiply by their trip
 * count. A division and a math-library call count the FLOPs of the
 * instructions nvcc compiles them into (analysis/timing/mathcost: an IEEE float
 * division is 10, expf 10, sqrtf 6), in the precision those instructions
 * run in. Transcendentals (expf, __expf, sqrtf, rsqrtf, sinf, powf, ...) are
 * counted apart from the flops. Global bytes are the widths of the global
 * accesses (a compound assignment loads and stores). Tensor Core work is
 * 2*m*n*k per wmma::mma_sync per warp, stored per thread (divided by 32). */
typedef struct cusrc_counts {
    expr *flops_fp16;
    expr *flops_fp32;
    expr *flops_fp64;
    expr *transcendental_fp32; /* calls; fp16 ones count as fp32 */
    expr *transcendental_fp64;
    expr *tensor_flops;
    expr *gmem_load_bytes;
    expr *gmem_store_bytes;
    expr *gmem_accesses; /* global loads and stores a thread issues */
    int n_unknown_trips; /* loops whose trip count is a "trips_L<line>" symbol */
    int n_trips_at_most; /* loops counted at the most passes they make (a binary search) */
    /* The work of an if's arm (or of what follows an early exit) is
     * weighted by a symbol "taken_A<n>": 1 where arm_conds[n] holds for the
     * thread, else 0. An arm whose condition the front end could not
     * express has arm_conds[n] NULL (n_unweighted_arms counts them): its
     * work is counted for every thread in an upper count, for none in a
     * lower one. */
    int n_arms;
    int n_unweighted_arms;
    char **arm_names;
    expr **arm_conds;
    /* Non-NULL when the counts miss code that runs: a call gpulint does not
     * follow (no body, recursion, a library function, the budget), memory
     * reached through a pointer it cannot place. The first reason, and how
     * many more. The counts are then lower bounds of the work. */
    char *incomplete;
    int n_incomplete;
    /* Non-NULL when global memory is counted without an access site (a
     * wmma::store_matrix_sync to global memory): what the sites cover is
     * then not all the kernel touches. The first such call. */
    char *unsited_global;
    /* Non-NULL when a call's instructions depend on its argument (sinf's
     * range reduction, erff's two polynomials: counted at the least
     * measured, rounded down) or were never measured (lgammaf, the half
     * intrinsics: not counted): the first such call. */
    char *flops_estimate;
    /* Non-NULL when shared memory is used without an access site (a CUB
     * block collective's TempStorage): the shared wavefronts are then at
     * least what the sites give. The first such call. */
    char *shared_missing;
} cusrc_counts;

/* One analysed body: a non-templated kernel, one instantiation of a
 * templated one, or (when none is known) the template itself. */
typedef struct cusrc_variant {
    size_t kernel; /* index into cusrc_unit.kernels */
    char *name;    /* "transpose", "gemm<64, 64, 8>": equals mem_access.kernel and
                      branch_site.kernel */
    char *mangled; /* as ptxas prints it; NULL for a generic variant */
    bool generic;  /* template parameters stay named symbols */
    int n_targs;
    cusrc_targ *targs;   /* the instantiation's arguments (empty when generic) */
    int64_t static_smem; /* bytes of its static __shared__ arrays, -1 if any is unknown */
    cusrc_launch_bounds launch_bounds; /* evaluated with the instantiation's arguments */
    size_t first_array, n_arrays;      /* into cusrc_unit.arrays / array_info */
    size_t first_access, n_accesses;   /* into cusrc_unit.accesses */
    size_t first_branch, n_branches;   /* into cusrc_unit.branches */
    cusrc_counts counts;
    /* Launches of it that cusrc_drop_unreached removed (never run with the
     * --define values). */
    int n_unreached;
} cusrc_variant;

/* What smem_array (access.h) cannot hold. Parallel to cusrc_unit.arrays. */
typedef struct cusrc_array_info {
    size_t variant;
    char *type;                  /* element type spelling: "float" */
    expr *dims[ACCESS_MAX_DIMS]; /* the extents as trees (EX_CONST when known) */
    char *why;                   /* non-NULL when the size is not fully known */
} cusrc_array_info;

typedef enum cusrc_launch_kind {
    CUSRC_LAUNCH_CHEVRON,     /* k<<<grid, block, smem, stream>>>(...) */
    CUSRC_LAUNCH_API,         /* cudaLaunchKernel(k, grid, block, args, smem, stream) */
    CUSRC_LAUNCH_API_EX,      /* cudaLaunchKernelEx(&config, k, ...) */
    CUSRC_LAUNCH_COOPERATIVE, /* cudaLaunchCooperativeKernel(...) */
} cusrc_launch_kind;

/* A host variable whose constant value a launch's sizes were computed
 * from, where the source sets it: `int B = 4;` in main. */
typedef struct cusrc_size_from {
    char *name;
    int64_t value;
    char *function; /* the function the variable belongs to */
    src_loc loc;    /* its declaration */
    /* A host loop's counter (or a local stepped beside it) a sweep bound
     * to one trip's value: the source gives it many values, not this one. */
    bool stepped;
} cusrc_size_from;

/* One call path from a function scanned as written down to a launch:
 * the functions, outermost first, and how many times each makes the next
 * call (the last: the launch) per call of it, from the loops around that
 * call ("L" for a loop over L layers; EX_CONST 1 outside loops). */
typedef struct cusrc_path {
    int n;
    char **fn;
    expr **runs;
    char **why; /* where a count that is not constant comes from, else NULL */
} cusrc_path;

typedef struct cusrc_launch {
    cusrc_launch_kind kind;
    char *kernel_name; /* the callee as written, without template arguments */
    long kernel;       /* index into cusrc_unit.kernels; -1 when not a kernel of this file */
    long variant;      /* index into cusrc_unit.variants; -1 when not known */
    char *mangled;     /* of the launched (instantiated) kernel, NULL when not known */
    int n_targs;
    cusrc_targ *targs; /* explicit or deduced template arguments */
    char *targs_text;  /* as written between < and > ("T, 4"), NULL when deduced/none */
    cusrc_dim3 grid, block;
    cusrc_value smem; /* dynamic shared memory; known 0 when not given */
    char *stream;     /* stream argument text, NULL when not given */
    /* The kernel's arguments in order (chevron and cudaLaunchKernelEx
     * launches; none for cudaLaunchKernel's void** array): each known when
     * it is a compile-time constant at the launch. */
    int n_args;
    cusrc_value *args;
    /* Integer fields of struct arguments that the caller set to constants
     * before the launch, by the kernel's name for them ("domain.nx"). */
    int n_arg_fields;
    struct cusrc_arg_field {
        char *name;
        int64_t value;
    } * arg_fields;
    char *function; /* the enclosing function ("main") */
    /* A cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, N)
     * for the same kernel (instantiation) appears somewhere in the file. */
    bool smem_optin;
    cusrc_value optin_bytes;
    /* Thread-block clusters: the dimensions (cluster.present when set) and
     * where they were set: "__cluster_dims__",
     * "cudaLaunchAttributeClusterDimension" or
     * "cudaFuncAttributeRequiredClusterWidth". cluster_nonportable: a
     * cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1)
     * appears in the file. */
    cusrc_dim3 cluster;
    const char *cluster_from;
    bool cluster_nonportable;
    char *text; /* the launch as written (truncated to 200 characters) */
    /* Launched through a function pointer that may hold several kernels
     * (each gets a launch with this configuration): the pointer's name. */
    char *pointer;
    char *why_not; /* set when the launch itself could not be understood */
    /* A condition the launch runs under (the if and switch around it in
     * its function), in the function's names; NULL when none is known. */
    expr *reach;
    /* The functions from the one scanned as written down to the launch
     * ("main > forward > layernorm_forward"), and how many call paths
     * reach this site with the same values (merged into this one launch;
     * its reach is where any of them runs). */
    char *via;
    /* Of a loop that sweeps more values than are sized one by one: this
     * launch stands for those between its first and last (var NULL when
     * it is not such a launch). */
    struct cusrc_between {
        char *var;
        int64_t from, to, launches;
    } between;
    int call_paths;
    cusrc_path *paths; /* call_paths of them */
    /* The constants the launch's values were computed from, along the
     * call chain, outermost first (empty when it uses none). */
    int n_sizes_from;
    cusrc_size_from *sizes_from;
    src_loc loc;
} cusrc_launch;

/* `// gpulint: ignore <check>`: suppress findings of `check` ("all" when none
 * given) on `target_line`: the comment's own line when code precedes it, else
 * the next line that holds code. */
typedef struct cusrc_ignore {
    char *file;
    int line;
    int target_line;
    char *check;
} cusrc_ignore;

typedef struct cusrc_unit {
    char *file;
    cusrc_kernel *kernels;
    size_t n_kernels;
    cusrc_variant *variants;
    size_t n_variants;
    cusrc_launch *launches;
    size_t n_launches;
    smem_array *arrays;
    cusrc_array_info *array_info; /* parallel to arrays */
    size_t n_arrays;
    mem_access *accesses;
    size_t n_accesses;
    branch_site *branches;
    size_t n_branches;
    cusrc_ignore *ignores;
    size_t n_ignores;
    /* "could not analyse: file:line:col: <first error> (and N more errors)" and
     * other remarks on what was not understood; never fatal. */
    char **notes;
    size_t n_notes;
    int n_errors; /* error diagnostics of the parse */
    /* The other units whose text the analysis read for a definition: a
     * result kept in a cache holds while they are unchanged. */
    char **siblings_read;
    size_t n_siblings_read;
    /* Every file libclang read for this unit and the siblings it parsed
     * (their includes, device side, as it parses): with nvcc's own list,
     * what a kept result depends on. Real paths, each once. */
    char **includes_read;
    size_t n_includes_read;
    char **args; /* the compiler arguments libclang was given */
    int n_args;
    double parse_seconds, analyse_seconds;
} cusrc_unit;

/* ---- API ---- */

/* Reused across files so libclang's setup is paid once. */
typedef struct cusrc_ctx cusrc_ctx;

/* True when gpulint was built with libclang. */
bool cusrc_available(void);

/* libclang's version ("22.1.0") into buf; false without libclang. */
bool cusrc_backend_version(char *buf, size_t n);

/* nvcc arguments (as given after "--" or kept from a compilation database
 * by input/compdb) into the clang arguments that mean the same: -I, -D, -U,
 * -isystem, -include, -std=; relocatable device code becomes -fgpu-rdc.
 * out holds n + 1 entries; returns how many were written. */
int cusrc_clang_args(char *const *nvcc_args, int n, const char **out);

/* The first real arch nvcc_args compile for (-arch=sm_80, -gencode
 * arch=compute_80,code=sm_80) into arch; false when they name none. */
bool cusrc_arch_of(char *const *nvcc_args, int n, char arch[32]);

/* What nvcc_args make of divisions and math calls: --use_fast_math,
 * -prec-div=false or -prec-sqrt=false, -ftz=true, else the default. */
math_mode cusrc_math_mode(char *const *nvcc_args, int n);

/* NULL without libclang (cusrc_parse then fails with the reason). */
cusrc_ctx *cusrc_ctx_new(void);
void cusrc_ctx_free(cusrc_ctx *ctx);

/* Parses and analyses opts->file into *out (zeroed first). Returns false
 * with a sentence in *err (caller frees) only when nothing could be read:
 * no libclang, a missing file, a compilation database without the file's
 * directory, libclang refusing the arguments. A file with compile errors
 * succeeds: what could be found is there and unit->notes says what was
 * not. ctx may be NULL (a temporary one is made). */
bool cusrc_parse(cusrc_ctx *ctx, const cusrc_options *opts, cusrc_unit *out, char **err);

void cusrc_unit_free(cusrc_unit *u);
void cusrc_launch_free(cusrc_launch *l);
/* A deep copy of l into *to. */
void cusrc_launch_copy(cusrc_launch *to, const cusrc_launch *l);
/* The values that size a launch: grid x y z, block x y z, dynamic shared
 * memory, in that order. Like strchr, const in and writable out: the
 * caller holds l as it may change it. */
enum { CUSRC_LAUNCH_VALUES = 7 };
void cusrc_launch_values(const cusrc_launch *l, cusrc_value *out[CUSRC_LAUNCH_VALUES]);
/* Removes the launches whose reach is false in env (the --define values;
 * constants need none), with a note naming them. Returns how many. */
size_t cusrc_drop_unreached(cusrc_unit *u, const expr_env *env);
/* Whether a condition holds in env: 1, 0, or -1 when not known (&& and ||
 * decided by one side where it decides). */
int cusrc_truth(const expr *e, const expr_env *env);

/* A human-readable listing of everything found, for debugging and tests. */
void cusrc_dump(const cusrc_unit *u, sbuf *out);

/* Helpers for the consumers. */
const cusrc_kernel *cusrc_find_kernel(const cusrc_unit *u, const char *name);
/* The variant a launch runs, or NULL. */
const cusrc_variant *cusrc_launch_variant(const cusrc_unit *u, const cusrc_launch *l);
const char *cusrc_launch_kind_name(cusrc_launch_kind k);
/* True when `check` on file:line is suppressed by a gpulint: ignore comment. */
bool cusrc_is_ignored(const cusrc_unit *u, const char *file, int line, const char *check);

#endif
