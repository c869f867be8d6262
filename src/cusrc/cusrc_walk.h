/* cusrc_walk: the kernel-body walker, in files by what they walk, each
 * calling only the ones listed before it:
 *   cusrc_frame.c  the calls being walked (which callee, bound parameters)
 *   cusrc_lref.c   declarations: where names, pointers and lvalues point
 *   cusrc_site.c   guards, per-loop counts, access and branch sites
 *   cusrc_ops.c    what an operation costs (FLOPs, math calls, wmma)
 *   cusrc_cubio.c  CUB's BlockLoad and BlockStore as the accesses they make
 *   cusrc_call.c   calls to __device__ functions, walked at the call site
 *   cusrc_expr.c   expressions: loads, stores, operations, calls
 *   cusrc_stmt.c   statements and loops; body_analyse is the entry
 * A call's arguments and the helper's body are expressions and statements:
 * cusrc_call.c walks them through the walker's walk_expr and walk_body,
 * which body_analyse sets, so no two files call each other. A helper's body
 * is walked with its own fn_ctx but the caller's loops, guards and counts,
 * so everything it does lands where the call stands. */
#ifndef GPULINT_CUSRC_WALK_H
#define GPULINT_CUSRC_WALK_H

#include "cusrc/cusrc_int.h"

typedef struct arr_ref {
    CXCursor decl;
    unsigned hash;
    size_t idx; /* into the unit's arrays */
} arr_ref;

typedef enum space_kind { SP_NONE, SP_SHARED, SP_GLOBAL } space_kind;

/* Where an lvalue or a pointer value points. */
typedef struct lref {
    space_kind space;
    long array; /* unit array index for shared */
    char *base; /* array or pointer name */
    expr *off;  /* bytes from the start of base */
    char *why;  /* why it could not be followed (space may still be known) */
} lref;

/* A pointer or reference parameter of a helper and the memory its argument
 * names at the call. */
typedef struct ptr_binding {
    CXCursor parm;
    lref at;
} ptr_binding;

/* One call being walked, innermost last. */
typedef struct call_frame {
    CXCursor def;
    char *name;    /* "tile::load" */
    int call_line; /* of the call, in the caller's file */
    char *call_file;
    ptr_binding *ptrs;
    int n_ptrs;
    fn_ctx *ctx; /* the helper's variables */
    /* A method called on a struct the kernel takes by value (`load.load<4>(...)`
     * on a `LOAD load` parameter): the parameter's name, which its members
     * read through `this` are fields of. NULL otherwise. */
    char *this_path;
    /* A method called on a struct the walked code holds in its own
     * variable (a local or a by-value parameter, `VecType a; a.load(..)`),
     * or on the same object through this: its members are registers. */
    bool this_local;
    /* A reference parameter whose fields the caller loads and stores whole
     * (call_vector_op_assign): the body's accesses through it are not its
     * own. Null otherwise. */
    CXCursor whole_param;
    struct call_frame *up;
} call_frame;

/* An element held in a register (walker.avail): the __restrict__ pointer
 * it is read through (a null cursor if none), and its node in the
 * kernel's tree (what its address reads, whatever its text spells). */
typedef struct avail_meta {
    CXCursor base;
    const struct cnode *node;
} avail_meta;

typedef struct vec_load {
    char *elem;               /* the element's text, `h[i * n + k]` */
    const struct cnode *node; /* the element in the kernel's tree */
    long site;                /* its load's index in the unit's accesses */
    int64_t field;            /* offset of the field that load read */
    int64_t size;             /* the element's bytes */
    /* Bytes of the element, modulo its size, that a store since may have
     * written (bit k: byte k): a field there cannot join the load. */
    uint32_t clobbered;
} vec_load;

typedef struct vec_store {
    char *elem;     /* the element's text */
    CXCursor base;  /* the __restrict__ pointer it is stored through, or null */
    long site;      /* the store's index in the unit's accesses */
    int64_t lo, hi; /* the bytes of the element its fields stored so far */
    int64_t size;   /* the element's bytes */
    /* The last access emitted: the next field's own store, while lo..hi
     * and it are no power of two together (a float4's z); -1: none. */
    long tail;
    int64_t tail_hi;
    /* Its assignment is still being walked: what the walk meets now (the
     * value stored) runs before the store. */
    bool fresh;
} vec_store;

typedef struct walker {
    /* The walkers above cusrc_call.c (cusrc_expr.c, cusrc_stmt.c). */
    void (*walk_expr)(struct walker *w, cnode *n);
    void (*walk_body)(struct walker *w, cnode *body); /* a function body; early exits end it */
    cusrc_tu *t;
    cusrc_unit *u;
    fn_ctx *f;         /* the function being walked: the kernel or a helper */
    fn_ctx kf;         /* the kernel's own */
    call_frame *calls; /* NULL in the kernel's own body */
    int n_calls;       /* depth of calls */
    long call_budget;  /* helper statements left to walk for this kernel */
    size_t variant;
    const char *kname;
    arr_ref *arrs;
    size_t n_arrs, cap_arrs;
    expr **guards;
    int n_guards, cap_guards;
    loop_frame root;   /* counts outside every loop */
    long work_events;  /* counted operations or bytes met so far (a branch's arms: none?) */
    int in_switch;     /* switch bodies around the statement being walked */
    bool in_atomic;    /* the sites being emitted are an atomic's two halves */
    bool atomic_sums;  /* and ptxas may sum its lanes (mem_access.atomic_sums) */
    bool atomic_float; /* and is of a float or double */
    long stmt_seq;     /* statements walked so far: program order */
    /* Common subexpressions: the side-effect-free floating-point operations
     * met so far in the statement being walked; a repeat of one is computed
     * once by the compiler and its FLOPs are not counted again (no_flops). */
    cnode **cse;
    int n_cse, cap_cse;
    int cse_off;  /* inside a conditional arm: neither recorded nor matched */
    int no_flops; /* inside a repeat */
    /* Loop-invariant work: the outermost loop around an expression whose
     * iterations do not change it; its FLOPs go to that loop's `once`
     * (the compiler computes it before the loop). NULL: none. */
    loop_frame *hoist;
    /* The value of the assignment being walked: it runs before the store. */
    struct cnode *assign_rhs;
    /* A global load of an element the loops from `load_hoist` in keep in a
     * register: the load runs once before them; its site keeps only the
     * loops outside (load_loops of them). NULL: none. */
    loop_frame *load_hoist;
    int load_loops;
    /* Where the hoisted load stays in loops unrolled in full (their
     * copies moved out with it): the innermost loops from load_unrolled
     * on, each copy a load. n_loops: none. */
    int load_unrolled;
    int64_t load_copies;
    /* Counters of loops unrolled in full that invariant_in takes as
     * constants: each copy of their body has its own value. */
    const var_info *unrolled_vars[4];
    int n_unrolled_vars;
    /* Global elements whose values are in registers: loaded or stored
     * since control last branched, with nothing written since that could
     * change them (another store, a variable, a call). nvcc loads such an
     * element again from no memory. */
    char **avail;
    struct avail_meta *avail_meta; /* what each one reads through */
    int n_avail, cap_avail;
    /* The next statement walked is an arm of an if: it starts with what
     * the condition left in registers, not afresh. */
    bool arm_keeps_avail;
    /* Elements of vector-like records (float2, double4) a field of which
     * was loaded since control last branched, with nothing written since:
     * a load of another field joins that load (cusrc_expr.c). */
    struct vec_load *vec;
    int n_vec, cap_vec;
    /* Elements of vector-like records a field of which was stored since
     * control last branched, with nothing since that may read or write it:
     * a store to the next field joins that store (cusrc_expr.c). */
    struct vec_store *vst;
    int n_vst, cap_vst;
    int vst_tail_of; /* the vst the next store recorded is the tail of; -1 none */
    /* Helpers found to write no memory or not (call_pure). */
    struct helper_purity {
        CXCursor def;
        bool by_ref; /* writes through its first parameter allowed */
        bool named;  /* writes to variables of file scope allowed */
        bool pure;
    } pure_seen[32];
    int n_pure_seen;
    /* avail as a loop statement found it, for the loop's frame. */
    char **entry_avail;
    int n_entry_avail;
    /* The last global store (its site's index) and its element, while
     * nothing has read memory since it ran: a store to the same element
     * makes it dead (nvcc drops it). -1: none. pending_store: the store of
     * the assignment being walked, which runs after its right side. */
    long last_store, pending_store;
    char *last_store_text, *pending_text;
    /* The __restrict__ pointer each goes through (null: none): a load
     * through another one cannot read it, and leaves it dead-able. */
    CXCursor last_store_base, pending_base;
} walker;

/* Deeper call chains than this are not followed (and said so). */
#define CALL_MAX_DEPTH 16
#define CALL_MAX_PARAMS 32

/* ---- cusrc_frame.c ---- */
typedef enum callee_kind {
    CALLEE_NONE,    /* not a function call gpulint walks (intrinsic, builtin, kernel) */
    CALLEE_WALK,    /* a project function with a body: walk it */
    CALLEE_OPAQUE,  /* a project function without a body here */
    CALLEE_LIBRARY, /* a template library's device code (CUB, Thrust, CUTLASS, CuTe) */
} callee_kind;
callee_kind call_classify(cusrc_tu *t, cnode *call, CXCursor *def_out);
bool call_is_reference(CXType t);
char *call_qualified_name(CXCursor c); /* "tile::load", "Packed::payload" */
/* The memory a pointer or reference parameter of the helper being walked
 * was bound to; false when parm is not bound. */
bool call_bound_ptr(walker *w, CXCursor parm, lref *out);
/* Is the argument `arg` of `call` passed by reference (no load at the call)? */
bool call_arg_by_reference(walker *w, cnode *call, cnode *arg);
/* "tile::load (line 44) → tile::fma4 (line 12)", NULL in the kernel's own body. */
char *call_chain(walker *w);

/* ---- cusrc_lref.c ---- */
void wk_lref_free(lref *r);
/* Whether call is a method call on a struct the walked code holds by
 * value (its local or by-value parameter), or through this on one. */
bool wk_method_on_local_object(walker *w, cnode *call, CXCursor def);
void wk_resolve_pointer(walker *w, cnode *n, lref *r, int depth);
void wk_resolve_lvalue(walker *w, cnode *n, lref *r, int depth);
long wk_register_array(walker *w, CXCursor decl, cnode *declnode);
bool wk_is_builtin_var_name(const char *s);

/* ---- cusrc_site.c ---- */
/* A frame's counts set aside while an arm's are gathered. */
typedef struct arm_saved {
    int64_t direct[CNT_N];
    expr *nested[CNT_N];
} arm_saved;
void wk_push_guard(walker *w, expr *g);
void wk_pop_guard(walker *w);
loop_frame *wk_count_frame(walker *w);
void wk_add_count(walker *w, int cat, int64_t n);
expr *wk_frame_total(loop_frame *fr, int cat);
void wk_arm_begin(walker *w, arm_saved *saved);
void wk_arm_end(walker *w, arm_saved *saved, const expr *cond);
void wk_emit_access_at(walker *w, cnode *n, lref *r, int64_t width, bool is_store);
/* The access n names, as the pieces the compiler moves it in (a struct
 * copy: several); returns how many accesses were recorded. */
int wk_emit_access(walker *w, cnode *n, bool is_store);
/* atomicAdd / atomicSub of an integer (32 or 64 bits: atomprobe's one_u64) whose result nothing
 * reads: ptxas sums a warp's lanes where their address is the same (mem_access.atomic_sums). */
bool wk_atomic_sums_lanes(const char *name, cnode *call);
/* Whether the atomic call's value is a float or a double. */
bool wk_atomic_is_float(cnode *call);
void wk_emit_access_ptr(walker *w, cnode *ptr, int64_t width, bool is_store);
void wk_emit_branch(walker *w, branch_kind kind, cnode *cond, cnode *at, expr *ce);
void wk_branch_arm(walker *w, size_t branch, int arm, cnode *s);
/* The counts of this variant miss code; the first reason is kept. */
void wk_incomplete(walker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- cusrc_ops.c ---- */
bool wk_in_list(const char *s, const char *const *l);
bool wk_pure_call(cnode *n);      /* a math function without side effects */
bool wk_load_intrinsic(cnode *n); /* __ldg and the other cache-hint loads */
/* What an assignment, compound assignment, ++ or -- writes; NULL otherwise. */
cnode *wk_assign_target(cnode *n);
bool wk_restrict_element(const cnode *t); /* a subscript of a __restrict__ pointer */
cnode *wk_subscript_base(cnode *t);       /* a[i][j] -> a */
bool wk_thread_array_element(cnode *t);   /* of an array each thread declares */
bool wk_folds(walker *w, cnode *n, int depth);
void wk_count_ops(walker *w, cnode *n);

/* ---- cusrc_cubio.c ---- */
/* A call of cub::BlockLoad::Load or BlockStore::Store (or their
 * constructors) recorded as its global accesses; false when def is
 * neither, or its tile cannot be placed (an iterator, an unknown
 * algorithm): then it is a call the counts miss. */
bool cub_block_io(walker *w, cnode *call, CXCursor def);
/* The first CUB call of the variant whose shared-memory traffic has no
 * site: the counts say so ("line 14: the shared-memory traffic of
 * 'cub::BlockReduce::Sum' is not counted"). */
void cub_note_shared(walker *w, cnode *call, CXCursor def);

/* ---- cusrc_call.c ---- */
/* Walks a call to a __device__ function of the project at its call site
 * (arguments first, then the body with the parameters bound). False when
 * the call is not one to walk (an intrinsic, a library function). */
bool call_walk(walker *w, cnode *call);
/* Whether a call writes no memory (but through the reference parameter
 * `ref` of its callee, where not null) and calls nothing that may: a math
 * function, a CUDA make_ or constructor, or a helper of the project whose
 * body writes only its locals (helper_math.h's vector operators). LLVM
 * inlines such a call and keeps values in registers across it. */
bool call_pure(walker *w, cnode *call, CXCursor ref);
/* `out[i] -= v` through a helper's `operator-=(float4 &a, float4 b)` on a
 * global element of a vector-like record, the operator writing nothing but
 * a: the element is loaded and stored whole at the call (param0: a). */
bool call_vector_op_assign(walker *w, cnode *call, CXCursor *param0);
/* A compound assignment operator on a local (`t -= h[k] * s[j]` with
 * helper_math's float4 operators) that writes nothing but that local
 * through its reference parameter: the local (the elements in registers
 * stay but those whose address reads it), else a null cursor. */
CXCursor call_local_op_assign(walker *w, cnode *call);

/* ---- cusrc_expr.c ---- */
void wk_walk_expr(walker *w, cnode *n);
void wk_walk_kids(walker *w, cnode *n);
int wk_load_loops(walker *w, cnode *n, int *unrolled);
/* cusrc_licm: the loops, counted from the outermost, an element's load or
 * store stays in (*unrolled: where the innermost ones it stays in, unrolled
 * in full, begin); the outermost loop a pure expression can be computed
 * before (NULL: none). */
int wk_element_loops(walker *w, cnode *n, bool store, int *unrolled);
loop_frame *wk_hoist_target(walker *w, cnode *n);
/* The bytes an access moves (0: not known); whether n names memory (an
 * element, a dereference, a field of one). */
int64_t wk_access_width(const cnode *s);
bool wk_is_memory_lvalue(walker *w, cnode *n);
void wk_avail_clear(walker *w);
/* The elements in registers, copied (wk_avail_restore puts a copy back
 * in their place; wk_avail_free frees it). An if's condition runs before
 * either arm: what it loaded each arm has. */
typedef struct avail_saved {
    char **texts;
    struct avail_meta *meta;
    int n;
} avail_saved;
void wk_avail_save(const walker *w, avail_saved *out);
void wk_avail_restore(walker *w, const avail_saved *saved);
void wk_avail_free(avail_saved *saved);

/* ---- cusrc_stmt.c ---- */
void wk_walk_body(walker *w, cnode *body); /* a function body; early exits end it */

#endif
