/* cusrc_int: internals shared by the libclang half of the source front end
 * (cusrc.c drives, cusrc_ast.c holds the cursor tree and variable tables,
 * cusrc_eval.c turns expressions into expr trees, cusrc_stmt.c and the
 * walkers of cusrc_walk.h walk kernel bodies). libclang gives no parent links and visits through
 * callbacks, so each function we look at is first copied into a small tree of cnodes that can be
 * walked both ways. */
#ifndef GPULINT_CUSRC_INT_H
#define GPULINT_CUSRC_INT_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cusrc/cusrc.h"
#include "util/sbuf.h"

/* Deeper nesting than this is cut off (and said so) rather than recursed
 * into: a generated file must not overflow the stack. */
#define CN_MAX_DEPTH 400
#define X_MAX_DEPTH 120

typedef struct cnode {
    CXCursor cur;
    enum CXCursorKind kind;
    struct cnode *parent;
    struct cnode **kids;
    int n_kids;
    int idx; /* position among the parent's kids */
} cnode;

/* What one local variable or parameter of the function does. */
typedef struct var_info {
    CXCursor decl;
    unsigned hash;
    char *name;
    bool is_param;
    bool is_shared;   /* __shared__ */
    bool addr_taken;  /* an address of it may be written through (not only lent for reading) */
    cnode *decl_node; /* the VarDecl or ParmDecl */
    cnode *init;      /* initialiser expression, NULL when none */
    cnode **assigns;  /* =, op=, ++, -- with the variable itself as target */
    int n_assigns;
    cnode **member_assigns; /* v.x = ... (dim3, launch configs) */
    int n_member_assigns;
    struct cnode *loop; /* the loop statement that steps it, NULL if none */
    int visiting;       /* recursion guard while substituting */
    int uniform;        /* memo: 0 unknown, 1 same in every lane, 2 not */
    int aliased;        /* memo (cusrc_object): 0 unknown, 1 fields safe to follow, 2 not */
    int escapes;        /* memo (x_fields_escape): 0 unknown, 1 no, 2 yes */
    int parsed;         /* memo (x_parsed_value): 1 ran, 2 could not, of the call parsed_by */
    struct cnode *parsed_by;
    /* memo (x_ref_calls): the calls v is handed to by a reference that is
     * not const and may change it (more than 4: n_ref_calls 5, the first 4) */
    bool ref_scanned;
    int n_ref_calls;
    cnode *ref_calls[4];
    bool parsed_written;
    int64_t parsed_value;
    /* The value the loop that steps it leaves it with (a kernel's counting
     * loop, `while (n >> bits) bits++;`), NULL when it is not known. */
    struct expr *exit_value;
} var_info;

typedef struct cusrc_tu cusrc_tu;

/* What a kernel's counts count, per thread. */
enum {
    CNT_FP16,
    CNT_FP32,
    CNT_FP64,
    CNT_TR32,
    CNT_TR64,
    CNT_TENSOR,
    CNT_GLD,
    CNT_GST,
    CNT_GACC,
    CNT_N
};

/* One loop being walked (kernel bodies). */
typedef struct loop_frame {
    cnode *stmt;
    var_info *var;         /* the counter, NULL when none was recognised */
    loop_ctx ctx;          /* owned */
    expr *trips;           /* trip count, owned */
    int64_t direct[CNT_N]; /* operation counts directly in the body */
    expr *nested[CNT_N];   /* counts of nested loops (already multiplied), owned */
    int guards_at_entry;   /* the walker's guards when the loop began */
    /* Work that no iteration changes, done once before the loop when it
     * runs at all (the compiler hoists it): FLOPs of loop-invariant
     * expressions, loads of an element the loop keeps in a register. */
    int64_t once[CNT_N];
    /* Global elements in registers when the loop began (walker.avail): a
     * load the loop hoists of one of them is no load at all. Owned. */
    char **entry_avail;
    int n_entry_avail;
    /* Elements of __restrict__ pointers the loop keeps in registers and
     * stores once after it (LLVM's scalar promotion). Owned. */
    char **sunk;
    int n_sunk;
} loop_frame;

/* Parameters of a function expanded at a call site (small helpers in
 * expressions, launch wrappers called from main): their values there. */
/* Host variables folded into constants while a value was computed (see
 * cusrc_size_from). */
typedef struct folded_list {
    cusrc_size_from *v;
    int n, cap;
} folded_list;

void folded_add(folded_list *l, const cusrc_size_from *s); /* copies; once per variable */
void folded_free(folded_list *l);

/* The integer fields a host object is known to hold (cusrc_object):
 * paths relative to the object ("p_.row_count_"), each a constant. */
typedef struct obj_fields {
    struct obj_field {
        char *path;
        int64_t value;
    } * v;
    int n, cap;
} obj_fields;

#define BIND_MAX_FIELDS 16
/* The parameters a call across units binds (Fortran-style drivers pass
 * forty pointers: HeCBench ccsd-trpdrv). */
#define XCALL_MAX_ARGS 64
typedef struct param_binding {
    CXCursor parm;
    expr *value;
    char *origin;       /* why the value is not constant, in the caller's words */
    folded_list folded; /* the caller's constants the value was computed from */
    /* A struct passed by value or reference: the integer fields the
     * caller set to constants before the call (`domain.nx = N;`). */
    struct {
        char *name;
        int64_t value;
    } fields[BIND_MAX_FIELDS];
    int n_fields;
    /* An object (or a pointer or reference to one) built by a constructor
     * the caller ran: the fields it holds (cusrc_object). */
    obj_fields obj;
    /* A function the argument names (`launch(kernel<3>, n)`): a helper
     * that launches its parameter launches this (kind FunctionDecl, else
     * none). */
    CXCursor fn;
    /* A floating-point parameter handed a host constant (`i4_ceiling(a /
     * b)` with a = 2.0, b = 1.0): its value, rounded to the parameter's
     * type (cusrc_float). */
    bool has_fvalue;
    double fvalue;
    /* The argument is main's argv (`driver(argv)`): the parameter's
     * elements are the program's arguments too. */
    bool argv;
} param_binding;

typedef struct bind_frame {
    param_binding *b;
    int n;
    struct bind_frame *up;
    /* A method entered on an object: the fields *this holds (has_self with
     * self NULL: an object gpulint could not follow). */
    bool has_self;
    const obj_fields *self;
} bind_frame;

/* The integer fields of a device object a method is walked on, as its
 * constructor's member initialisers set them (cusrc_selfval.c). */
#define SELF_MAX_FIELDS 16
typedef struct self_vals {
    int n;
    char *name[SELF_MAX_FIELDS];
    expr *value[SELF_MAX_FIELDS];
} self_vals;

/* A function being looked at: the tree, its variables and, in kernel
 * bodies, the loops around the current point. */
typedef struct fn_ctx {
    cusrc_tu *t;
    cnode *root; /* FunctionDecl / FunctionTemplate node */
    char *name;
    bool device;  /* a kernel body: builtins mean the thread */
    bool generic; /* a template pattern: template parameters stay symbolic */
    var_info *vars;
    size_t n_vars, cap_vars;
    loop_frame **loops; /* active loops, outermost first */
    int n_loops, cap_loops;
    sbuf origin; /* host values: why the first runtime symbol is not constant */
    int depth;
    struct bind_frame *bindings; /* parameters of an inlined helper being expanded */
    /* A method walked at its call on a struct the kernel takes by value: the
     * parameter's name, whose fields its members read through this are. */
    const char *this_path;
    /* A method walked on a device object built where it is called: the
     * fields its constructor set, NULL when none is known. */
    const self_vals *self;
    long budget;         /* translation steps left for the current expression: substituting
                            `int b = a + a; int c = b + b; ...` doubles at each step */
    folded_list *record; /* host: where constants folded now are noted, NULL: nowhere */
} fn_ctx;

/* What a cudaFuncSetAttribute(kernel, attribute, value) in the file sets. */
typedef enum optin_kind {
    OPTIN_SMEM,        /* cudaFuncAttributeMaxDynamicSharedMemorySize */
    OPTIN_CLUSTER_X,   /* cudaFuncAttributeRequiredClusterWidth */
    OPTIN_CLUSTER_Y,   /* ...Height */
    OPTIN_CLUSTER_Z,   /* ...Depth */
    OPTIN_NONPORTABLE, /* cudaFuncAttributeNonPortableClusterSizeAllowed */
} optin_kind;

typedef struct optin_rec {
    optin_kind kind;
    char *usr;         /* kernel template or kernel */
    char *mangled;     /* of the instantiation, NULL when not known */
    cusrc_value bytes; /* the value set (bytes for OPTIN_SMEM) */
} optin_rec;

typedef struct pending_variant {
    size_t kernel;
    CXCursor cur; /* definition to walk (instantiation, kernel or template) */
    char *mangled;
    bool generic;
} pending_variant;

struct cusrc_tu {
    CXTranslationUnit tu;
    CXFile main_file;
    const char *path; /* as the user gave it */
    cusrc_unit *u;
    size_t cap_kernels, cap_variants, cap_launches, cap_arrays, cap_accesses, cap_branches,
        cap_ignores, cap_notes;
    CXCursor *kernel_cur; /* definition cursor of each kernel (template for templated ones) */
    pending_variant *pend;
    size_t n_pend, cap_pend;
    optin_rec *optins;
    size_t n_optins, cap_optins;
    char **launch_usr;              /* parallel to launches: USR of the callee's template/kernel */
    const struct const_tab *consts; /* the main file's named constants (cusrc.c) */
    unsigned appended_line;         /* first line gpulint appended to the main file, 0: none */
    math_mode math;                 /* cusrc_options.math */
    const char *const *run_args;    /* cusrc_options.run_args */
    int n_run_args;
    const cusrc_xcalls *calls;   /* cusrc_options.calls */
    cusrc_xcalls *collect_calls; /* cusrc_options.collect_calls */
    /* The files whose text cn_text slices: libclang's lookup of a file's
     * buffer is slow in a large unit (it was 40% of OneFlow's analysis). */
    struct tu_file_text {
        CXFile file;
        const char *buf;
        size_t size;
    } file_text[16];
    int n_file_text, next_file_text;
    /* File-scope variables host code read, and their values (cusrc_global). */
    struct global_memo {
        char *usr;
        expr *value; /* NULL: a run-time value */
        int line;
        bool in_main; /* set in main, else its initializer */
    } * globals;
    size_t n_globals, cap_globals;
    /* Per class: the fields a method other than a constructor may write
     * (cusrc_object). */
    struct class_memo {
        char *usr;
        char **fields;
        int n;
        bool escapes; /* a method hands `this` on: any field may change */
        /* Set by setters whose every call cusrc_object runs: an object's
         * own there, written for anyone who does not run them. */
        char **set_fields;
        int n_set, cap_set;
    } * classes;
    size_t n_classes, cap_classes;
    const struct x_obj_eval *obj_eval; /* cusrc_eval's entry points, for cusrc_object */
    int constructing;                  /* constructors being run, nested (cusrc_object) */
    /* The program's other units (cusrc_sibling): parsed on demand, by
     * cusrc.c's parse, which it installs here (files do not call each
     * other round a circle: tests/file_cycles.py). */
    const cusrc_options *opts;
    CXIndex index;
    CXTranslationUnit (*parse_other)(cusrc_tu *t, const cusrc_sibling *s);
    struct sibling_tu *sibs; /* one per opts->siblings, NULL until a lookup */
    struct sib_answer {
        char *usr;
        CXCursor def; /* null: no unit gives one */
    } * sib_answers;
    int n_sib_answers, cap_sib_answers;
    /* Functions of the main file whose address its code takes (a table
     * of launchers, a callback), found once (cusrc_origin). */
    struct fn_address {
        char *usr;
        char *file; /* the first place: a header's name, NULL for the file itself */
        int line;
        char *holder; /* the variable it initialises there, NULL: none */
    } * fn_addrs;
    int n_fn_addrs, cap_fn_addrs;
    bool fn_addrs_read;
};

/* ---- cusrc_sibling.c ---- */
/* decl's definition: this unit's, else one another unit of the program
 * gives (same USR: external linkage), parsed the first time it is needed;
 * a null cursor where neither has it. */
CXCursor cn_definition(cusrc_tu *t, CXCursor decl);
/* fn on every function definition of the main file and the project's
 * headers, then of the other units parsed so far, each built. */
typedef void (*x_definition_fn)(void *ctx, CXCursor def, cnode *tree);
void x_each_definition(cusrc_tu *t, x_definition_fn fn, void *ctx);
void sibling_free(cusrc_tu *t);

/* ---- cusrc_ast.c ---- */
cnode *cn_build(CXCursor c);
void cn_free(cnode *n);
/* The operator of a binary or compound assignment; *ok false for one with
 * none. */
expr_op cn_binop(enum CXBinaryOperatorKind k, bool *ok);
cnode *cn_strip(cnode *n);       /* parens, implicit casts, wrappers with one expression kid */
cnode *cn_strip_casts(cnode *n); /* also explicit casts */
/* The call n is handed to as an argument (through parentheses, implicit
 * conversions and casts), with its callee and n's parameter slot; NULL when
 * n is no argument or the callee declares no parameter for it. */
cnode *cn_arg_call(const cnode *n, CXCursor *callee, int *slot);
/* Does the parameter point to const (`cudaMemcpy`'s source only reads)? */
bool cn_param_reads_only(CXCursor callee, int slot);
/* Is the address `&v` (addrof) lent only for reading: to a parameter that
 * points to const, or (host) to a function defined here that only reads
 * through it? */
bool cn_lent_for_reading(const cnode *addrof, bool host);
bool cn_inside(const cnode *n, const cnode *anc); /* n is anc or lies below it */
bool cn_is_expr(const cnode *n);
int cn_n_expr_kids(const cnode *n);
cnode *cn_expr_kid(const cnode *n, int i); /* i-th kid that is an expression */
char *cx_str(CXString s);                  /* takes ownership of s */
char *cn_spelling(CXCursor c);
char *cn_type_spelling(CXType t);
char *cn_ref_name(CXCursor c); /* spelling of the referenced declaration, "" */
/* A call of a block-wide barrier: __syncthreads and its _count, _and, _or. */
bool cn_is_barrier_call(const cnode *n);
/* k<<<...>>>(...): libclang shows the callee, then the configuration call
 * (__cudaPushCallConfiguration); its kid index, or 0 for any other node. */
int cn_chevron_config(const cnode *n);
bool cn_is_comparison(const cnode *n); /* <, >, <=, >=, ==, != */
/* The initializer of a field declared with one in its class (`int n =
 * 1024;`), from cn_build of the FieldDecl; NULL when it has none. */
cnode *cn_field_init(const cnode *decl);
bool cn_in_main(cusrc_tu *t, CXCursor c);
/* Does n assign, step or call anything? */
bool cn_changes(const cnode *n);
/* Is a loop below root around n? */
bool cn_in_loop(const cnode *n, const cnode *root);
/* A chain of member accesses `a.b.c` down from its root, every step a
 * field of a member object (not through a pointer, which reads memory),
 * except a first `->` on a pointer variable or `this`. *root: the
 * DeclRefExpr or CXXThisExpr at the bottom, NULL for an implicit this.
 * Returns "b.c" relative to the root, NULL where n is no such chain
 * (caller frees). */
char *cn_member_chain(cnode *n, cnode **root);
/* The field directly on `this` an lvalue chain rooted at this starts
 * from (`n_`, `this->dims.x` -> "dims"); NULL otherwise (caller frees). */
char *cn_this_field(cnode *n);
/* In a header of the project (included, not a system or toolkit header):
 * kernels defined there are compiled into the file that includes them. */
bool cn_in_user_header(cusrc_tu *t, CXCursor c);
void cn_loc(cusrc_tu *t, CXCursor c, src_loc *out);
/* The offset of c's spelling in the file that spells it (0: none). */
unsigned cn_spelled_at(CXCursor c);
/* The first and last lines c spans in the file it is expanded in; false
 * where its ends lie in different files. */
bool cn_line_span(CXCursor c, int *first, int *last);
char *cn_text(cusrc_tu *t, CXCursor c); /* source text of the cursor's extent */
/* clang_getFileContents, remembered per file (libclang's lookup is slow). */
const char *cn_file_contents(cusrc_tu *t, CXFile f, size_t *size);
char *cn_text_trunc(cusrc_tu *t, CXCursor c, size_t max);
int cn_tokens(cusrc_tu *t, CXCursor c, char ***out); /* token spellings; free with cn_free_tokens */
void cn_free_tokens(char **toks, int n);
bool cn_has_attr(CXCursor c, enum CXCursorKind attr);
int64_t cn_type_size(CXType t); /* bytes, -1 when not known */
/* Whether decl is a pointer, counting a parameter written as an array;
 * its pointee in *pointee (may be NULL). */
bool cn_is_array_type(CXType t); /* any of clang's four array kinds */
bool cn_decl_pointer(CXCursor decl, CXType *pointee);
bool cn_type_is_integral(CXType t);
int cn_float_kind(CXType t); /* 0 not floating, 1 half/bf16, 2 float, 3 double */
bool cn_name_in(const char *s, const char *const *list); /* s is one of list, NULL-ended */
bool cn_is_dim3(CXType t);

void fn_init(fn_ctx *f, cusrc_tu *t, cnode *root, bool device);
void fn_free(fn_ctx *f);
var_info *fn_var(fn_ctx *f, CXCursor decl); /* NULL when not a local/parameter */
cnode *fn_member_assign(var_info *v, const char *field, int *count);
cnode *cn_assign_rhs(cnode *a);
/* The argument node of each parameter of def at call (NULL for a default
 * argument); returns the number of parameters, -1 when more than max. */
int cn_call_args(cnode *call, CXCursor def, cnode **out, int max);
/* threadIdx.x and friends: n is a member of one of the builtin variables. */
bool cn_builtin_member(cusrc_tu *t, cnode *n, expr_builtin *out);
cnode *fn_var_init(cnode *vardecl);

/* ---- cusrc_object.c ---- */
/* The evaluator's entry points cusrc_object and cusrc_fields call back
 * (cusrc_eval.c calls those files, not the other way round): x_expr,
 * x_bind_arg_nodes, x_unbind, and its test of a host if's arms (an
 * x_arm_fn: -1 for an arm a constant condition leaves out, 1 taken). */
typedef struct x_obj_eval {
    expr *(*value_of)(fn_ctx *f, cnode *n);
    int (*bind)(fn_ctx *f, cnode *call, CXCursor def, cnode **args, int np, param_binding *out);
    void (*unbind)(param_binding *b, int n);
    int (*arm)(void *ctx, const cnode *ifstmt, const cnode *arm);
    expr *(*value_at)(fn_ctx *f, var_info *v, cnode *use);
} x_obj_eval;
extern const x_obj_eval x_obj_evaluator;
void obj_free(obj_fields *o);
/* The fields of the object an expression names (a local built by a
 * constructor, `new T(...)`, a copy, a method's returned member, this);
 * false when it names none gpulint can follow. */
bool x_object(fn_ctx *f, cnode *n, obj_fields *out);
/* Can v's fields be written through another name in f: its address handed
 * to a pointer that is not to const, a pointer or reference made from it,
 * returned? (A reference argument is x_field_changer's, per call.) */
bool x_fields_escape(fn_ctx *f, var_info *v);
/* The same, leaving out `&v` (a pointer or reference made from v,
 * returned). */
bool x_fields_alias(fn_ctx *f, var_info *v);
/* A host read of an object's field (`p.rows`, `rows_` in a method, `d->n`)
 * where the object is known and holds a constant there; NULL otherwise. */
expr *x_object_field(fn_ctx *f, cnode *member);
/* Whether a method of cls other than a constructor may write field. */
bool x_class_field_written(cusrc_tu *t, CXCursor cls, const char *field);
/* Whether running def (a method or constructor, as instantiated) may
 * write field of this: its body and the methods of this it calls. */
bool x_method_writes_field(CXCursor def, const char *field, int depth);

/* cusrc_selfval.c: the fields of the object a device method call is made
 * on, where a constructor in the caller's sight built it (false: none);
 * whether a call is made on `this` (the caller's own fields hold); the
 * value of a field of *this read by member, NULL when not known. */
bool x_self_vals(fn_ctx *f, cnode *call, CXCursor method, self_vals *out);
void x_self_free(self_vals *s);
bool x_self_inherits(cnode *call);
expr *x_self_field(const fn_ctx *f, cnode *member);
/* A call of a method that returns one expression (`int rows() const
 * { return rows_; }`) on a known object; NULL otherwise. */
expr *x_method_value(fn_ctx *f, cnode *call, CXCursor method);
/* The object a member call is made on, for the frame that walks the
 * method (has_self set, *out filled where known). */
bool x_call_object(fn_ctx *f, cnode *call, obj_fields *out);
void object_memo_free(cusrc_tu *t);

/* cusrc_setcall.c: methods that only set fields of this (`void
 * set_npart(int N) { npart_ = N; }`, and setters that call them), and
 * whether each is called only where cusrc_object runs it. */
typedef struct x_setter {
    CXCursor m;
    char *usr;
    char **fields; /* the fields of this it sets */
    int n;
    bool elsewhere; /* called on something other than a local or this in a constructor */
    bool any;       /* not a setter: a method no unit read defines; any call is elsewhere */
} x_setter;
/* The method a call on this (implicit or `this->`) names; null otherwise. */
CXCursor x_call_on_this(const cnode *call);
bool x_is_setter(cusrc_tu *t, CXCursor m);
/* Its fields (caller frees each and the array); -1 when m is no setter. */
int x_setter_fields(cusrc_tu *t, CXCursor m, char ***fields);
/* Sets elsewhere on each setter some call in the units read leaves unfollowed. */
void x_setter_calls(cusrc_tu *t, x_setter *setters, int n);

/* ---- cusrc_eval.c ---- */
expr *x_expr(fn_ctx *f, cnode *n);
/* v's value where loop is entered: the loop's own steps (`c += 4 *
 * blockDim.x` in its increment) run after entry and do not reach it;
 * NULL where no one definition does. */
expr *x_value_entering(fn_ctx *f, var_info *v, cnode *loop);
/* Component 0..2 of a dim3-valued expression. */
expr *x_dim3(fn_ctx *f, cnode *n, int comp);
bool x_is_per_lane(fn_ctx *f, const expr *e);
/* cusrc_origin.c: the line of n; f->origin's sentence for why v (shown
 * as shown; NULL: not a variable) is not constant, where none is yet. */
int x_node_line(fn_ctx *f, cnode *n);
void x_note_origin(fn_ctx *f, var_info *v, const char *shown);
void origin_memo_free(cusrc_tu *t);
/* Does the file or a header of the project take fn's address (not only
 * call it)? */
bool x_fn_address_taken(cusrc_tu *t, CXCursor fn);
/* Binds the parameters of def to the arguments of call (translated in f);
 * returns how many, -1 when there are more than max. Free with x_unbind. */
/* The same for arguments already found (a constructor's: libclang lists
 * them as the call's expression kids); args[i] NULL: a default argument. */
int x_bind_arg_nodes(fn_ctx *f, cnode *call, CXCursor def, cnode **args, int np,
                     param_binding *out);
int x_bind_args(fn_ctx *f, cnode *call, CXCursor def, param_binding *out, int max);
/* The function n names: `k`, `&k`, `k<3>`, or a parameter a caller bound
 * to one; false where n names none. */
bool x_named_function(const fn_ctx *f, cnode *n, CXCursor *fn);
/* b's fields (b->parm a struct or a reference to one) from the struct
 * variable arg names at call. */
void x_bind_fields(fn_ctx *f, cnode *call, cnode *arg, param_binding *b);
/* cusrc_fields.c: the assignment of local struct v's field that holds at
 * use, NULL where none can be shown; a struct parameter's field as the
 * call bound it, NULL where it did not or the function may change it. */
cnode *x_member_set_before(fn_ctx *f, var_info *v, const char *field, cnode *use);
/* The same where v's address is handed on: the caller has shown that
 * those it reaches do not write the field before use. */
cnode *x_member_set_at(fn_ctx *f, var_info *v, const char *field, cnode *use);
/* No assignment of v's field may reach use, and nothing else may change
 * it before (v's initializer holds it there). */
bool x_member_unset_at(fn_ctx *f, var_info *v, const char *field, cnode *use);
/* The constant a field's default member initializer gives it (`struct Box
 * { int x0 = 0, nx = 0; };`) at use, where nothing assigns the field
 * before, no call handed v writes it, v is declared without an initializer
 * of its own and its type has no constructor but the compiler's (which
 * runs those initializers and nothing else); NULL otherwise. */
expr *x_default_field(fn_ctx *f, var_info *v, const char *field, cnode *use);
expr *x_param_field(fn_ctx *f, var_info *v, const char *field, const cnode *use);
/* `*p` for pointer parameter p, which the caller handed an integer local's
 * address (x_bind_fields) and this function only reads through: the
 * local's value at the call; NULL otherwise. */
expr *x_pointee(fn_ctx *f, var_info *v);
bool x_pointee_only_read(cnode *root, CXCursor parm);
void x_unbind(param_binding *b, int n);
/* `p->x` of a kernel's parameter that points to a const struct (or of a
 * helper's parameter handed it), as a name; NULL for any other member
 * (caller frees). */
char *x_param_pointee_path(const fn_ctx *f, cnode *member);
/* Whether parameter parm points to a const struct. */
bool x_const_struct_pointer(CXCursor parm);
/* The value an assignment (=, op=, ++, --) gives v, in terms of v. */
expr *x_assign_value(fn_ctx *f, var_info *v, cnode *assign);
/* The value v has at use (host: through its reaching definition, a
 * guarding if, or the loop that computes it); NULL when it has none. */
expr *x_value_at(fn_ctx *f, var_info *v, cnode *use);
/* "p.a.b" for a `.` chain from a struct parameter (or this in a method
 * called on one), which reads no memory; NULL at `->` or anything else. */
char *x_member_path(const fn_ctx *f, cnode *n, int depth);
bool x_const(fn_ctx *f, cnode *n, int64_t *out); /* libclang's own constant evaluation */
/* cusrc_table.c: arr[i] of a host array set by its initializer and only
 * read: its elements (how many; 0 when not such an array), and the one
 * idx selects (takes idx; NULL when out of range). */
#define HOST_TABLE_MAX 64
int host_table(fn_ctx *f, cnode *n, int64_t vals[HOST_TABLE_MAX]);
expr *host_table_pick(const int64_t *vals, int m, expr *idx);
/* `for (int b : sizes)` over such an array, over a braced list of
 * constants or over a const container a list sets: the values b takes,
 * in order (how many; 0 when the loop is not one of these). */
int host_range_values(fn_ctx *f, cnode *loop, int64_t vals[HOST_TABLE_MAX]);
expr *x_conj(expr *a, expr *b); /* a && b, either may be NULL */

/* ---- cusrc_reach.c ---- */
/* The definition of v (its VarDecl node or an assignment) that reaches use;
 * NULL when no single one can be shown to. */
/* arm (may be NULL): of an if statement's arm, -1 when it never runs, 1
 * when it always does (its condition a constant), 0 when that is not
 * known. An assignment in an arm that never runs is no definition; an arm
 * that always runs is no condition. */
typedef int (*x_arm_fn)(void *ctx, const cnode *ifstmt, const cnode *arm);
/* cusrc_args.c: main's arguments on the host, and an if's arms. */
bool x_refs_argv(fn_ctx *f, cnode *n, int depth);
int x_argv_index(fn_ctx *f, cnode *n, int depth);
/* n names main's argv, or a parameter a caller handed main's argv. */
bool x_names_main_argv(const fn_ctx *f, cnode *n);
/* The value a C library call (atoi and kin, strtol with a constant base,
 * std::stoi) gives main's argv[K] where --run-args gave the arguments. */
bool x_argv_int(fn_ctx *f, cnode *call, const char *name, int64_t *out, expr **unknown);
int x_if_arm(const cnode *ifstmt, const cnode *arm, const cnode **cond);
cnode *x_reaching_def(var_info *v, cnode *use, x_arm_fn arm, void *ctx);
bool x_entry_reaches(var_info *v, cnode *use, x_arm_fn arm, void *ctx);
/* cusrc_refparam.c: can fn change what its i-th parameter, a reference
 * that is not const, names (assign it or a field, take its address, hand
 * it on to one that may)? True where its body is not seen. */
bool x_ref_param_may_change(CXCursor fn, int i);
/* Can call, a call of method m on an object, change the object: m is not
 * const, and is not a getter of one field whose result the call's user
 * only reads (`Index_t n = domain.numElem();` with `Index_t &numElem()`). */
bool x_method_call_changes(const cnode *call, CXCursor m);
/* The field a method's body only returns (`Index_t &numElem() { return
 * m_numElem; }`), NULL for any other method (caller frees). */
char *x_getter_field(CXCursor m);
/* Assignment a may run before use, below scope: it is not in an arm that
 * never runs, and it ends before use or a loop below scope holds both. */
bool x_may_reach(const cnode *a, const cnode *use, const cnode *scope, x_arm_fn arm, void *ctx);
/* d runs every time use does, before it (nothing conditional between). */
bool x_dominates(const cnode *d, const cnode *use, x_arm_fn arm, void *ctx);
/* The first call below n, spelled between offsets from and to, that lets
 * its callee change the fields of struct v (v by a reference that is not
 * const to a callee that may write through it, or a method that is not
 * const on v); NULL when none does. */
const cnode *x_field_changer(const cnode *n, const var_info *v, unsigned from, unsigned to);
/* The same, leaving out v's own methods (cusrc_object judges what they
 * write per class). */
const cnode *x_arg_changer(const cnode *n, const var_info *v, unsigned from, unsigned to);
/* cusrc_setter.c: the constant a call that fills local struct v by
 * reference (`set_params(params, n)` assigning `p.n = n;`) leaves in its
 * field at use; NULL where none can be shown. */
expr *x_setter_field(fn_ctx *f, var_info *v, const char *field, cnode *use);
/* Every call before use that may change v's fields leaves `field` alone
 * (a dispatcher handing v on by reference to functions that read it). */
bool x_changers_leave_field(fn_ctx *f, var_info *v, const char *field, cnode *use);
/* The first of the calls in f that hand v to a reference that is not
 * const and may change it (`parse(argc, argv, n)` into `int &n`) that may
 * run before use (any, where use is NULL); NULL where there is none. */
cnode *x_ref_call_reaching(fn_ctx *f, var_info *v, cnode *use, x_arm_fn arm);
cnode *x_defining_loop(var_info *v, cnode *use, x_arm_fn arm, void *ctx);
/* use reads the counter v after the loop that steps it (v->loop), with
 * the value that loop left: the loop runs every time use does, and no
 * other assignment of v lies between them. */
bool x_after_loop(const var_info *v, const cnode *use);
/* The same for a loop that goes on with the counter (`for (; col < D; col
 * += b)` after the unrolled loop that left it): its own steps ignored. */
bool x_after_loop_into(const var_info *v, const cnode *use, const cnode *next_loop);
/* cusrc_bisect.c: the most passes of a binary search's loop (two locals
 * bounding an interval, one moved to its midpoint in each arm of an if),
 * as a sum over the interval's width; NULL for any other loop. */
expr *x_bisection_trips(fn_ctx *f, cnode *loop, cnode *cond);
/* cusrc_bcast.c: a __shared__ scalar read after the barrier that follows
 * the one `if (threadIdx.x == 0) s = e;` storing it: e, where e is the
 * same for every thread of the block; NULL otherwise. */
expr *x_shared_broadcast(fn_ctx *f, var_info *v, cnode *use);
/* ---- cusrc_value.c ---- */
/* Evaluates n into v (e, known, value, text, why); role names it in why. */
void x_value(fn_ctx *f, cnode *n, const char *role, cusrc_value *v);
void x_value_dim3(fn_ctx *f, cnode *n, const char *role, cusrc_dim3 *d);
/* ---- cusrc_helper.c ---- */
/* The value a host helper of several statements (tree: its definition
 * def, built; body: its compound statement) returns at call; NULL where
 * it returns otherwise than by early `if (c) return x;` and a last
 * statement that returns (a return, or an if/else of such), or the value
 * is not known. */
expr *x_helper_value(fn_ctx *f, cnode *call, CXCursor def, cnode *tree, cnode *body);
/* n, an expression of def's body (or with block, a block of it evaluated
 * as x_helper_value does), with def's parameters bound to call's
 * arguments; NULL where the value has an unknown part. */
expr *x_callee_value(fn_ctx *f, cnode *call, CXCursor def, cnode *tree, cnode *n, bool block);
/* A body of ifs and returns alone (a clamp: `if (x > hi) return hi; else
 * if (x < lo) return lo; else return x;`) as nested choices, each
 * condition and returned expression evaluated by value in f, whose
 * bindings hold the call's arguments; NULL for any other body. */
expr *x_choice_value(fn_ctx *f, cnode *body, expr *(*value)(fn_ctx *f, cnode *n));

/* ---- cusrc_elems.c ---- */
/* The value of a host array's element read at a constant index (`local[0]`
 * of `size_t local[2] = {16, 16};` and its element assignments), where the
 * array is only read and written element by element; NULL otherwise. */
expr *x_host_element(fn_ctx *f, cnode *subscript);

/* ---- cusrc_float.c ---- */
/* n's value where it folds to an integer constant (through the evaluator
 * t->obj_eval names). */
bool x_int_constant(fn_ctx *f, cnode *n, int64_t *out);
/* ceil/floor and their float and builtin names; *up for ceil. */
bool x_rounding_call(const char *name, bool *up);
/* A floating-point expression of host constants, each operation rounded
 * to its type; false where a part is not a constant. */
bool x_float_value(fn_ctx *f, cnode *n, int depth, double *out);
/* (int)x of such a constant x: truncation, as C converts. */
bool x_truncated_float(fn_ctx *f, cnode *kid, int64_t *out);
/* ceil((double)n / 128.0) of a runtime n as integer division, or NULL. */
expr *x_rounded_quotient(fn_ctx *f, cnode *arg, bool up);
/* The value a floating-point parameter parm takes from a host call's
 * argument arg, where it is a constant. */
bool x_float_param(fn_ctx *f, CXCursor parm, cnode *arg, double *out);
/* ---- cusrc_induct.c ---- */
/* How far one move a (`+= by`, by taken) has advanced a value at use:
 * once where a runs once before use, passes * by in a loop that moves it
 * each pass; NULL where gpulint cannot say. local_decl: the declaration
 * of the local moved, NULL for a parameter; by_varies: by differs
 * between lanes, which only a move made once may. */
expr *x_loop_move(fn_ctx *f, cnode *a, cnode *use, expr *by, const cnode *local_decl,
                  bool by_varies);
typedef struct x_induct_eval {
    expr *(*value_of)(fn_ctx *f, cnode *n);     /* x_expr */
    bool (*per_lane)(fn_ctx *f, const expr *e); /* x_is_per_lane */
} x_induct_eval;
/* A kernel's local that differs between lanes and is only moved by steps
 * the same in every lane (`idx += plane` in a loop): its start plus the
 * moves made at use; NULL where one of them cannot be placed. */
expr *x_advanced_local(fn_ctx *f, var_info *v, cnode *use, const x_induct_eval *ev);
/* ---- cusrc_hostrun.c ---- */
/* v's value after loop, where the loop only assigns locals whose values
 * before it are known: run as the program runs it. NULL otherwise (with
 * the reason in f->origin). The evaluator's entry points come as pointers
 * (cusrc_eval.c calls this file, not the other way round). */
typedef struct x_loop_eval {
    expr *(*value_at)(fn_ctx *f, var_info *v, cnode *use); /* x_value_at */
    expr *(*value_of)(fn_ctx *f, cnode *n);                /* x_expr */
    expr *(*assigned)(fn_ctx *f, var_info *v, cnode *a);   /* x_assign_value */
} x_loop_eval;
expr *x_run_host_loop(fn_ctx *f, var_info *v, cnode *loop, const x_loop_eval *ev);
/* The if whose arms choose v's value at use (`if (w == h) bx = ...; else
 * bx = ...;`, `if (bytes < n * k) n = bytes / k;`): it runs every time use
 * does, holds the last assignment of v before use, and nothing between it
 * and use assigns v; NULL where there is none. *before_reaches: whether v's
 * value before the if may stand (false in a loop, where it may be last
 * trip's). */
cnode *x_choosing_if(var_info *v, cnode *use, x_arm_fn arm, void *ctx, bool *before_reaches);
/* What an arm of such an if makes v: 0 nothing (the value before the if),
 * 1 the assignment *def that always runs in it and comes last, 2 the if
 * *def the arm is (`else if`), -1 something gpulint cannot follow (an
 * assignment in a loop or under a condition of the arm). */
int x_arm_def(const var_info *v, const cnode *arm, cnode **def);

/* ---- cusrc_argrun.c ---- */
/* Does n name main's argc (pos 0) or argv (pos 1)? */
bool x_main_param(const cnode *n, int pos);
/* Is call handed main's argv? */
bool x_passes_argv(const cnode *call);
/* A call before `call` below n that is handed argv too and may run
 * getopt, whose place in argv is global; NULL where there is none. */
const cnode *x_argv_before(const cnode *n, const cnode *call);
/* Runs def, called at call in f, on --run-args: argc and argv as main's,
 * the caller's integer locals handed by address as cells. True where it
 * ran to its end, with *written (and *value) for the local decl (its
 * field `field` where that is not NULL: a struct written through); why (may
 * be NULL) says where it stopped otherwise. earlier: a call handed argv
 * before this one that may have run getopt (NULL: none), whose place in
 * argv the run cannot know. */
bool x_run_arg_parser(fn_ctx *f, cnode *call, CXCursor def, CXCursor decl, const char *field,
                      const cnode *earlier, int64_t *value, bool *written, sbuf *why);

/* Runs loop, a statement of main that calls getopt or reads argv (its
 * option loop: `for (i = 1; i < argc; i++) if (!strcmp(argv[i], "-n"))
 * n = atoi(argv[++i]);`), on --run-args: 1 where it ran to its end, with *written (and *value)
 * where it assigned the local decl; 0 where it stopped (why says where); -1 where loop is no option
 * loop of main. */
int x_run_main_options(fn_ctx *f, cnode *loop, CXCursor decl, int64_t *value, bool *written,
                       sbuf *why);

/* The integer fields of `this` a constructor's run reads and writes. */
typedef struct x_arg_fields {
    bool (*get)(void *ctx, const char *field, int64_t *value);
    void (*set)(void *ctx, const char *field, int64_t value);
    void *ctx;
} x_arg_fields;
/* Runs stmt, a statement of constructor f whose parameters argc_parm (may
 * be null) and argv_parm hold main's argc and argv, on --run-args, this's
 * fields through fields; true where it ran to its end. */
bool x_run_arg_stmt(fn_ctx *f, cnode *stmt, CXCursor argc_parm, CXCursor argv_parm,
                    const cnode *earlier, const x_arg_fields *fields);

/* ---- cusrc_argparse.c ---- */
/* v's value at use where main hands &v, with argc and argv, to a function
 * that reads the program's options, run on --run-args; NULL where there is
 * no such call or it cannot be run. */
expr *x_parsed_value(fn_ctx *f, var_info *v, cnode *use);
/* Whether no address of v that may change it is taken on a path that
 * reaches use (each lent for reading, or in an arm left out). */
bool x_address_unused_at(fn_ctx *f, const var_info *v, const cnode *use);
/* Why v, or its field `field` (not NULL), shown as `shown`, has no value,
 * where main hands &v to such a call (into out, in note_origin's words);
 * false where it does not. */
bool x_parsed_why(fn_ctx *f, var_info *v, const char *field, const char *shown, sbuf *out);
/* Field `field` of local struct v at use where main hands &v, with argc and
 * argv, to such a function (`parse(argc, argv, &opts)` writing
 * `opts->nx`): what the run writes, else the assignment before the call. */
expr *x_parsed_field(fn_ctx *f, var_info *v, const char *field, cnode *use);

/* ---- cusrc_devprop.c ---- */
/* n (a member expression on the host) as "cudaDeviceProp.<field>" where
 * its base is a cudaDeviceProp; NULL otherwise. */
expr *x_device_prop(fn_ctx *f, cnode *n);
/* prop.maxGridSize[0]: "cudaDeviceProp.maxGridSize[0]"; NULL otherwise. */
expr *x_device_prop_element(fn_ctx *f, cnode *n);
/* v as "cudaDeviceProp.<field>" where cudaDeviceGetAttribute(&v,
 * cudaDevAttrX, dev) fills it; NULL otherwise. */
expr *x_device_attribute(fn_ctx *f, const var_info *v);

/* ---- cusrc_cg.c ---- */
/* A cooperative_groups type: 'b' thread_block, 'g' grid_group, 't'
 * thread_block_tile<N> (*tile = N), 0 anything else. */
char x_cg_kind(CXType t, int64_t *tile);
/* A cooperative group's method called on a group (thread_rank, size,
 * num_threads, meta_group_rank...) as an expr; NULL when it is not one gpulint knows. */
expr *x_cg_value(cnode *n, const char *method);

/* ---- cusrc_stmt.c ---- */
void body_analyse(cusrc_tu *t, size_t variant, CXCursor fn);

/* ---- cusrc_folded.c ---- */
/* Notes v in f->record where e, its value, is a constant (host integers). */
void folded_note(fn_ctx *f, var_info *v, const expr *e, const cnode *set);

/* ---- cusrc_global.c ---- */
/* Where the file sets a file-scope variable host code reads once before
 * main calls anything (see cusrc_global.c): the expression (*value; in
 * main when *in_main, else the initializer), inside the tree returned,
 * which the caller frees; NULL when it is a run-time value. */
cnode *global_site(cusrc_tu *t, CXCursor var, cnode **value, bool *in_main);
/* Whether a function of the main file assigns to a member of var
 * (`grid.x = n`) or assigns it through an operator (`grid = dim3(n)`). */
bool global_object_written(cusrc_tu *t, CXCursor var);
/* An integer file-scope variable this unit declares `extern` and neither
 * defines nor writes, whose defining unit gave its value (t->calls) and
 * no unit writes elsewhere: the value and where it is set. */
bool global_from_units(cusrc_tu *t, CXCursor var, int64_t *value, src_loc *at);
/* Calls back for each file-scope variable with external linkage that a
 * function of the main file writes and this unit does not define. */
void global_extern_writes(cusrc_tu *t, void (*found)(void *ctx, CXCursor var), void *ctx);

/* ---- cusrc_eval.c (file-scope values) ---- */
/* A file-scope variable's value where the file sets it once for all the
 * host code (cusrc_global), evaluated where it is set; remembered per
 * variable. NULL: a run-time value. */
expr *x_file_global(cusrc_tu *t, CXCursor var, int *line, bool *in_main);

/* ---- cusrc_xglobal.c ---- */
/* Adds to t->collect_calls the values of the integer file-scope variables
 * the main file defines and the extern ones it writes. */
void xglobal_collect(cusrc_tu *t);

/* ---- cusrc_tu.c (growth of the unit's arrays) ---- */
/* Room for one more element of arr (n used of cap). */
#define GROW(arr, n, cap)                                                                          \
    do {                                                                                           \
        if ((n) == (cap)) {                                                                        \
            (cap) = (cap) ? (cap)*2 : 8;                                                           \
            (arr) = xrealloc((arr), (cap) * sizeof *(arr));                                        \
        }                                                                                          \
    } while (0)

size_t tu_add_array(cusrc_tu *t);
size_t tu_add_access(cusrc_tu *t);
void access_free(mem_access *a); /* what a site owns */
size_t tu_add_branch(cusrc_tu *t);
void tu_note(cusrc_tu *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* cusrc_decls.c: the declarations clang's CUDA headers lack, as an unsaved
 * file to hand to every parse, -include'd by its path. */
extern const char cusrc_decls_path[];
struct CXUnsavedFile cusrc_decls_file(void);

/* cusrc_pch.c: the path of a precompiled header of the implicit CUDA
 * headers for exactly these arguments, built if missing; NULL when there is
 * no cache directory or it cannot be built. The caller frees it. */
char *cusrc_pch_get(CXIndex index, const char *const *args, int n_args);

#endif
