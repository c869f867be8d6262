/* cusrc_argrun: runs a host function that reads the program's options on
 * the arguments --run-args gives, as the program would: loops, ifs and
 * switches over argv's characters, strcmp, getopt, atoi, strtol, stores
 * through the pointers to the caller's integer locals (or a struct's
 * fields) it was handed, and the program's own helpers it calls with them
 * (LULESH's `StrToInt(argv[i+1], &(opts->nx))`). Anything else (a pointer
 * it was not handed, a helper defined elsewhere or calling itself, a loop
 * that runs too long) stops it, and it says where. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

/* An option loop runs once per argument; a parser that takes longer is
 * not one, and is not worth running. */
#define ARGRUN_MAX_STEPS 20000
#define ARGRUN_MAX_VARS 64
#define ARGRUN_MAX_CALLS 4 /* helpers inside helpers */

typedef enum { V_NONE, V_INT, V_STR, V_ARGV, V_CELL, V_REF, V_BUF, V_FIELD, V_PTR } vkind;

typedef struct val {
    vkind k;
    int64_t i;     /* V_INT; V_CELL (a pointer to it), V_REF (a reference): the cell */
    const char *s; /* V_STR: the string (argv's or a literal's), at offset i */
    /* V_FIELD: a pointer to field s of struct cell i; V_PTR: a pointer to
     * the run's variable i (a helper's `&endptr`). */
} val;

#define CELL_MAX_FIELDS 16

typedef struct cell {
    CXCursor var; /* the caller's local whose address was handed over */
    int64_t value;
    bool written;
    bool known; /* value holds the caller's before the call */
    /* A struct's: the integer fields written through it (`opts->nx = ...`). */
    bool is_struct;
    struct {
        char *name;
        int64_t value;
    } fields[CELL_MAX_FIELDS];
    int n_fields;
} cell;

typedef struct argrun {
    fn_ctx *f; /* the caller */
    const char **argv;
    int argc;
    struct {
        CXCursor decl;
        val v;
    } vars[ARGRUN_MAX_VARS];
    int n_vars;
    cell cells[8];
    int n_cells;
    char *lits[48]; /* string literals and field names read, owned */
    int n_lits;
    long steps;
    val ret;
    cnode *stop; /* the innermost expression or statement that could not run */
    /* getopt's state: the argument and the character it reads next, and
     * the option argument it found last. */
    int optind, optpos;
    const char *optarg;
    bool getopt_called;
    bool getopt_fresh;          /* no call handed argv before this one (and may have run getopt) */
    const x_arg_fields *fields; /* this's fields (a constructor's run), NULL: none */
    CXCursor calls[ARGRUN_MAX_CALLS]; /* the helpers running, innermost last */
    int n_calls;
    /* The helpers' bodies, built once and kept to the end: a run that
     * stops inside one says where. */
    struct helper_tree {
        CXCursor def;
        cnode *tree;
    } helpers[8];
    int n_helpers;
} argrun;

static val vint(int64_t i)
{
    return (val){V_INT, i, NULL};
}

static val *var_slot(argrun *r, CXCursor decl, bool make)
{
    for (int i = 0; i < r->n_vars; i++)
        if (clang_equalCursors(r->vars[i].decl, decl))
            return &r->vars[i].v;
    if (!make || r->n_vars == ARGRUN_MAX_VARS)
        return NULL;
    r->vars[r->n_vars].decl = decl;
    r->vars[r->n_vars].v = (val){V_NONE, 0, NULL};
    return &r->vars[r->n_vars++].v;
}

static bool eval(argrun *r, cnode *n, val *out);

static const char *str_at(const val *v)
{
    return v->k == V_STR && v->s ? v->s + v->i : NULL;
}

/* A plain "..." literal (its spelling, quotes and simple escapes); a
 * prefixed or raw one is not read. */
static bool literal_string(argrun *r, cnode *n, val *out)
{
    char *sp = cn_spelling(n->cur);
    size_t len = strlen(sp);
    bool ok = r->n_lits < 48 && len >= 2 && sp[0] == '"' && sp[len - 1] == '"';
    char *lit = ok ? xmalloc(len) : NULL;
    size_t k = 0;
    for (size_t i = 1; ok && i + 1 < len; i++) {
        char c = sp[i];
        if (c == '\\') {
            char e = sp[++i];
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e == '\\' || e == '"' || e == '\'' ? e : 0;
            ok = c != 0 && i + 1 < len;
        }
        lit[k++] = c;
    }
    free(sp);
    if (!ok) {
        free(lit);
        return false;
    }
    lit[k] = 0;
    r->lits[r->n_lits++] = lit;
    *out = (val){V_STR, 0, lit};
    return true;
}

/* POSIX getopt(argc, argv, optstring) as glibc runs it: arguments that
 * are not options are passed over (glibc moves them to the end), "--"
 * ends the options; returns the option's character, '?' for one not in
 * optstring or missing its argument (':' where optstring starts with
 * ':'), -1 at the end. */
static int run_getopt(argrun *r, const char *optstring)
{
    r->getopt_called = true;
    r->optarg = NULL;
    if (optstring[0] == '+' || optstring[0] == '-' || !r->getopt_fresh)
        return -2; /* POSIX order, "every argument", or a place another call moved */
    if (r->optpos == 0) {
        while (r->optind < r->argc) {
            const char *a = r->argv[r->optind];
            if (!strcmp(a, "--")) {
                r->optind++;
                return -1;
            }
            if (a[0] == '-' && a[1])
                break;
            r->optind++;
        }
        if (r->optind >= r->argc)
            return -1;
        r->optpos = 1;
    }
    const char *a = r->argv[r->optind];
    char c = a[r->optpos++];
    const char *spec = c != ':' ? strchr(optstring, c) : NULL;
    bool at_end = a[r->optpos] == 0;
    if (!spec || spec[1] != ':') {
        if (at_end) {
            r->optind++;
            r->optpos = 0;
        }
        return spec ? (unsigned char)c : '?';
    }
    if (!at_end) {
        r->optarg = a + r->optpos; /* -m8 */
        r->optind++;
    } else if (spec[2] == ':') {
        r->optind++; /* an optional argument is only ever attached */
    } else if (r->optind + 1 < r->argc) {
        r->optarg = r->argv[r->optind + 1];
        r->optind += 2;
    } else {
        r->optind++;
        r->optpos = 0;
        return optstring[0] == ':' ? ':' : '?';
    }
    r->optpos = 0;
    return (unsigned char)c;
}

/* Is an argument a long option ("--name"; a lone "--" ends the options)? */
static bool long_option_given(const argrun *r)
{
    for (int i = 1; i < r->argc; i++)
        if (r->argv[i][0] == '-' && r->argv[i][1] == '-' && r->argv[i][2])
            return true;
    return false;
}

typedef enum { F_NEXT, F_BREAK, F_CONT, F_RET, F_FAIL } flow;
static flow exec(argrun *r, cnode *s);
static int64_t as_type(CXType t, int64_t v);

/* The program's own function fn (defined in this unit, not a library's)
 * that call n makes: its body run with its parameters bound to the
 * arguments' values, as the program runs it. A reference parameter, a
 * helper already running (recursion) or one too deep stops the run. */
static bool run_helper(argrun *r, cnode *n, CXCursor def, val *out)
{
    cnode *args[8];
    int np = cn_call_args(n, def, args, 8);
    if (np < 0 || r->n_calls == ARGRUN_MAX_CALLS)
        return false;
    for (int i = 0; i < r->n_calls; i++)
        if (clang_equalCursors(r->calls[i], def))
            return false;
    val vals[8];
    for (int i = 0; i < np; i++) {
        CXType t =
            clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(def, (unsigned)i)));
        if (!args[i] || t.kind == CXType_LValueReference || t.kind == CXType_RValueReference ||
            !eval(r, args[i], &vals[i]))
            return false;
        if (vals[i].k == V_INT)
            vals[i].i = as_type(t, vals[i].i);
    }
    /* Bound after every argument is read: an argument may read a
     * parameter of the same name one level up. */
    for (int i = 0; i < np; i++) {
        val *slot = var_slot(r, clang_Cursor_getArgument(def, (unsigned)i), true);
        if (!slot)
            return false;
        *slot = vals[i];
    }
    cnode *tree = NULL;
    for (int i = 0; i < r->n_helpers && !tree; i++)
        if (clang_equalCursors(r->helpers[i].def, def))
            tree = r->helpers[i].tree;
    if (!tree) {
        if (r->n_helpers == 8)
            return false;
        tree = cn_build(def);
        r->helpers[r->n_helpers++] = (struct helper_tree){def, tree};
    }
    cnode *body = tree->n_kids ? tree->kids[tree->n_kids - 1] : NULL;
    val saved = r->ret;
    r->calls[r->n_calls++] = def;
    r->ret = vint(0);
    flow fl = body && body->kind == CXCursor_CompoundStmt ? exec(r, body) : F_FAIL;
    r->n_calls--;
    *out = r->ret;
    r->ret = saved;
    return fl == F_NEXT || fl == F_RET;
}

/* The program's own function a call names, where this unit defines it. */
static CXCursor own_helper(const cnode *n)
{
    CXCursor fn = clang_getCursorReferenced(n->cur);
    CXCursor def = clang_Cursor_isNull(fn) ? fn : clang_getCursorDefinition(fn);
    if (clang_Cursor_isNull(def) || clang_getCursorKind(def) != CXCursor_FunctionDecl ||
        clang_Location_isInSystemHeader(clang_getCursorLocation(def)))
        return clang_getNullCursor();
    return def;
}

/* strtol's end pointer: where the number it read ends in s. */
static bool set_end(argrun *r, const val *ptr, const val *str, const char *end)
{
    if (ptr->k == V_INT)
        return ptr->i == 0; /* no end pointer asked for */
    if (ptr->k != V_PTR)
        return false;
    r->vars[ptr->i].v = (val){V_STR, str->i + (end - str_at(str)), str->s};
    return true;
}

/* The C library calls an option parser makes: string tests and
 * conversions, and output that changes nothing it returns; and the
 * program's own helpers. */
static bool call(argrun *r, cnode *n, val *out)
{
    CXCursor helper = own_helper(n);
    if (!clang_Cursor_isNull(helper))
        return run_helper(r, n, helper, out);
    char *name = cn_ref_name(n->cur);
    int na = cn_n_expr_kids(n) - 1;
    val a[3] = {{V_NONE, 0, NULL}, {V_NONE, 0, NULL}, {V_NONE, 0, NULL}};
    bool ok = true;
    static const char *const quiet[] = {"printf",  "fprintf", "puts", "fputs",
                                        "putchar", "fflush",  NULL};
    static const char *const copies[] = {"strcpy",   "strncpy", "memcpy",
                                         "snprintf", "sprintf", NULL};
    *out = vint(0);
    /* Output: what it prints changes nothing, unless an argument does. */
    for (const char *const *q = quiet; *q; q++)
        if (!strcmp(name, *q)) {
            for (int i = 1; ok && i <= na; i++)
                ok = !cn_changes(cn_expr_kid(n, i));
            goto done;
        }
    for (int i = 0; i < na; i++)
        if (i < 3 ? !eval(r, cn_expr_kid(n, i + 1), &a[i]) : cn_changes(cn_expr_kid(n, i + 1)))
            ok = false; /* past the third, an argument only passes what it reads */
    for (const char *const *q = copies; *q; q++)
        if (!strcmp(name, *q)) {
            ok = ok && a[0].k == V_BUF; /* into a buffer nothing here reads */
            goto done;
        }
    const char *s0 = str_at(&a[0]), *s1 = str_at(&a[1]), *s2 = str_at(&a[2]);
    if (!ok) {
    } else if (!strcmp(name, "getopt") && na == 3 && a[0].k == V_INT && a[0].i == r->argc &&
               a[1].k == V_ARGV && s2) {
        int c = run_getopt(r, s2);
        *out = vint(c);
        ok = c != -2;
    } else if (!strcmp(name, "getopt_long") && na == 5 && a[0].k == V_INT && a[0].i == r->argc &&
               a[1].k == V_ARGV && s2 && !long_option_given(r)) {
        /* Given short options only, getopt_long parses as getopt does: its
         * table of long options is never read (the option index it
         * writes through its fifth argument stays unset). */
        int c = run_getopt(r, s2);
        *out = vint(c);
        ok = c != -2;
    } else if (!strcmp(name, "strcmp") && na == 2 && s0 && s1) {
        int c = strcmp(s0, s1);
        *out = vint((c > 0) - (c < 0));
    } else if (!strcmp(name, "strncmp") && na == 3 && s0 && s1 && a[2].k == V_INT) {
        int c = strncmp(s0, s1, (size_t)(a[2].i < 0 ? 0 : a[2].i));
        *out = vint((c > 0) - (c < 0));
    } else if (!strcmp(name, "strlen") && na == 1 && s0) {
        *out = vint((int64_t)strlen(s0));
    } else if ((!strcmp(name, "atoi") || !strcmp(name, "atol") || !strcmp(name, "atoll")) &&
               na == 1 && s0) {
        errno = 0;
        *out = vint(strtoll(s0, NULL, 10));
        /* atoi's int cannot hold more: the program's value is not this. */
        ok = errno == 0 && (strcmp(name, "atoi") || (out->i >= INT32_MIN && out->i <= INT32_MAX));
    } else if ((!strcmp(name, "strtol") || !strcmp(name, "strtoll")) && na == 3 && s0 &&
               a[2].k == V_INT && a[2].i >= 0 && a[2].i != 1 && a[2].i <= 36) {
        char *end = NULL;
        errno = 0;
        *out = vint(strtoll(s0, &end, (int)a[2].i));
        ok = errno == 0 && set_end(r, &a[1], &a[0], end);
    } else {
        ok = false; /* exit, a helper of the program's own: not followed */
    }
done:
    free(name);
    return ok;
}

/* The integer field `p->name` names through a struct the caller handed
 * over (*c its cell); NULL otherwise. */
static char *cell_field_name(argrun *r, cnode *n, cell **c)
{
    if (n->kind != CXCursor_MemberRefExpr || n->n_kids != 1 ||
        clang_getCursorReferenced(n->cur).kind != CXCursor_FieldDecl ||
        !cn_type_is_integral(clang_getCursorType(n->cur)))
        return NULL;
    cnode *base = cn_strip(n->kids[0]);
    val *p = base && base->kind == CXCursor_DeclRefExpr
                 ? var_slot(r, clang_getCursorReferenced(base->cur), false)
                 : NULL;
    if (!p || p->k != V_CELL || !r->cells[p->i].is_struct)
        return NULL;
    *c = &r->cells[p->i];
    return cn_spelling(n->cur);
}

static bool cell_field(cell *c, const char *name, bool make, int64_t **value)
{
    for (int i = 0; i < c->n_fields; i++)
        if (!strcmp(c->fields[i].name, name)) {
            *value = &c->fields[i].value;
            return true;
        }
    if (!make || c->n_fields == CELL_MAX_FIELDS)
        return false;
    c->fields[c->n_fields].name = xstrdup(name);
    *value = &c->fields[c->n_fields++].value;
    return true;
}

/* n as a field of this (`n_reps`, `this->n_reps`), an integer, where
 * the run has this's fields; NULL otherwise. */
static char *this_field_name(const argrun *r, cnode *n)
{
    if (!r->fields || n->kind != CXCursor_MemberRefExpr ||
        clang_getCursorReferenced(n->cur).kind != CXCursor_FieldDecl ||
        !cn_type_is_integral(clang_getCursorType(n->cur)))
        return NULL;
    cnode *base = n->n_kids ? cn_strip(n->kids[0]) : NULL;
    if (n->n_kids && (!base || base->kind != CXCursor_CXXThisExpr))
        return NULL;
    return cn_spelling(n->cur);
}

/* Assigns v to what target names: a local of the parser, or the caller's
 * local through the pointer it handed over (`*size = ...`), which takes
 * integers only. */
/* v converted to integer type t as the compiler converts it: wrapped to
 * t's width (gcc's rule for signed types too), bool to 0 or 1. */
static int64_t as_type(CXType t, int64_t v)
{
    t = clang_getCanonicalType(t);
    long long size = clang_Type_getSizeOf(t);
    if (t.kind == CXType_Bool)
        return v != 0;
    if (size <= 0 || size >= 8)
        return v;
    unsigned bits = (unsigned)size * 8;
    uint64_t u = (uint64_t)v & ((UINT64_C(1) << bits) - 1);
    bool is_signed = t.kind == CXType_Char_S || t.kind == CXType_SChar || t.kind == CXType_Short ||
                     t.kind == CXType_Int || t.kind == CXType_Long || t.kind == CXType_WChar;
    if (is_signed && (u >> (bits - 1)))
        return (int64_t)(u | ~((UINT64_C(1) << bits) - 1));
    return (int64_t)u;
}

static bool assign(argrun *r, cnode *target, val v)
{
    cnode *t = cn_strip_casts(target);
    if (t && v.k == V_INT)
        v.i = as_type(clang_getCursorType(t->cur), v.i);
    cell *c;
    char *through = t ? cell_field_name(r, t, &c) : NULL;
    if (through) {
        int64_t *at;
        bool ok = v.k == V_INT && cell_field(c, through, true, &at);
        if (ok)
            *at = v.i;
        free(through);
        return ok;
    }
    char *field = t ? this_field_name(r, t) : NULL;
    if (field) {
        if (v.k == V_INT)
            r->fields->set(r->fields->ctx, field, v.i);
        free(field);
        return v.k == V_INT;
    }
    if (t && t->kind == CXCursor_DeclRefExpr) {
        /* A local declared before the statement being run (a
         * constructor's `int opt;`) gets its slot at its first store. */
        CXCursor d = clang_getCursorReferenced(t->cur);
        enum CXCursorKind owner = clang_getCursorSemanticParent(d).kind;
        bool local = d.kind == CXCursor_VarDecl &&
                     (owner == CXCursor_FunctionDecl || owner == CXCursor_CXXMethod ||
                      owner == CXCursor_Constructor || owner == CXCursor_FunctionTemplate);
        val *slot = var_slot(r, d, local);
        if (slot && slot->k == V_REF) {
            if (v.k != V_INT)
                return false;
            r->cells[slot->i].value = v.i;
            r->cells[slot->i].written = true;
            return true;
        }
        if (slot)
            *slot = v;
        return slot != NULL;
    }
    val p;
    if (!t || t->kind != CXCursor_UnaryOperator || t->n_kids != 1 ||
        clang_getCursorUnaryOperatorKind(t->cur) != CXUnaryOperator_Deref ||
        !eval(r, t->kids[0], &p))
        return false;
    if (p.k == V_PTR) {
        r->vars[p.i].v = v;
        return v.k != V_NONE;
    }
    int64_t *at;
    if (p.k == V_FIELD)
        return v.k == V_INT && cell_field(&r->cells[p.i], p.s, true, &at) && (*at = v.i, true);
    if (p.k != V_CELL || v.k != V_INT)
        return false;
    r->cells[p.i].value = v.i;
    r->cells[p.i].written = true;
    return true;
}

static bool read_target(argrun *r, cnode *target, val *out)
{
    return eval(r, target, out) && out->k == V_INT;
}

static bool arith(enum CXBinaryOperatorKind k, int64_t a, int64_t b, int64_t *out)
{
    switch (k) {
    case CXBinaryOperator_Add:
    case CXBinaryOperator_AddAssign:
        *out = a + b;
        return true;
    case CXBinaryOperator_Sub:
    case CXBinaryOperator_SubAssign:
        *out = a - b;
        return true;
    case CXBinaryOperator_Mul:
    case CXBinaryOperator_MulAssign:
        *out = a * b;
        return true;
    case CXBinaryOperator_Div:
    case CXBinaryOperator_DivAssign:
        return b != 0 && (*out = a / b, true);
    case CXBinaryOperator_Rem:
    case CXBinaryOperator_RemAssign:
        return b != 0 && (*out = a % b, true);
    case CXBinaryOperator_LT:
        *out = a < b;
        return true;
    case CXBinaryOperator_GT:
        *out = a > b;
        return true;
    case CXBinaryOperator_LE:
        *out = a <= b;
        return true;
    case CXBinaryOperator_GE:
        *out = a >= b;
        return true;
    case CXBinaryOperator_EQ:
        *out = a == b;
        return true;
    case CXBinaryOperator_NE:
        *out = a != b;
        return true;
    case CXBinaryOperator_And:
    case CXBinaryOperator_AndAssign:
        *out = a & b;
        return true;
    case CXBinaryOperator_Or:
    case CXBinaryOperator_OrAssign:
        *out = a | b;
        return true;
    case CXBinaryOperator_Xor:
    case CXBinaryOperator_XorAssign:
        *out = a ^ b;
        return true;
    default:
        return false;
    }
}

static bool binary(argrun *r, cnode *n, val *out)
{
    enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(n->cur);
    val a, b;
    if (k == CXBinaryOperator_LAnd || k == CXBinaryOperator_LOr) {
        if (!eval(r, n->kids[0], &a) || a.k != V_INT)
            return false;
        if ((k == CXBinaryOperator_LAnd) != (a.i != 0)) {
            *out = vint(a.i != 0);
            return true;
        }
        if (!eval(r, n->kids[1], &b) || b.k != V_INT)
            return false;
        *out = vint(b.i != 0);
        return true;
    }
    if (!eval(r, n->kids[1], &b))
        return false;
    if (k == CXBinaryOperator_Assign) {
        *out = b;
        return assign(r, n->kids[0], b);
    }
    bool compound = n->kind == CXCursor_CompoundAssignOperator;
    if (compound ? !read_target(r, n->kids[0], &a) : !eval(r, n->kids[0], &a))
        return false;
    if (a.k == V_STR && b.k == V_INT &&
        (k == CXBinaryOperator_Add || k == CXBinaryOperator_AddAssign)) {
        *out = (val){V_STR, a.i + b.i, a.s}; /* argv[i] + 2: a pointer into it */
        return !compound || assign(r, n->kids[0], *out);
    }
    /* `optarg != NULL`: a string the run holds is never the null pointer
     * (optarg unset reads as 0). */
    if ((k == CXBinaryOperator_EQ || k == CXBinaryOperator_NE) &&
        ((a.k == V_STR && b.k == V_INT && b.i == 0) ||
         (b.k == V_STR && a.k == V_INT && a.i == 0))) {
        *out = vint(k == CXBinaryOperator_NE);
        return true;
    }
    /* `endptr != c`: two pointers into one string. */
    if ((k == CXBinaryOperator_EQ || k == CXBinaryOperator_NE) && a.k == V_STR && b.k == V_STR &&
        a.s == b.s) {
        *out = vint((a.i == b.i) == (k == CXBinaryOperator_EQ));
        return true;
    }
    int64_t v;
    if (a.k != V_INT || b.k != V_INT || !arith(k, a.i, b.i, &v))
        return false;
    *out = vint(v);
    return !compound || assign(r, n->kids[0], *out);
}

/* A char n reads, as the host compiler reads it (signed on x86-64). */
static int64_t char_value(const cnode *n, char c)
{
    enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(n->cur)).kind;
    return k == CXType_Char_S || k == CXType_SChar ? (int64_t)(signed char)c
                                                   : (int64_t)(unsigned char)c;
}

/* `&(opts->nx)`, a field of a struct the caller handed over, or `&end`,
 * a variable of the run's own: a pointer a helper stores through. */
static bool address(argrun *r, cnode *n, val *out)
{
    n = cn_strip(n);
    cell *c;
    char *field = n ? cell_field_name(r, n, &c) : NULL;
    if (field) {
        bool ok = r->n_lits < 48;
        if (ok) {
            r->lits[r->n_lits++] = field;
            *out = (val){V_FIELD, c - r->cells, field};
        } else
            free(field);
        return ok;
    }
    if (!n || n->kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor d = clang_getCursorReferenced(n->cur);
    for (int i = 0; d.kind == CXCursor_VarDecl && i < r->n_vars; i++)
        if (clang_equalCursors(r->vars[i].decl, d) && r->vars[i].v.k != V_REF) {
            *out = (val){V_PTR, i, NULL};
            return true;
        }
    return false;
}

static bool unary(argrun *r, cnode *n, val *out)
{
    enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(n->cur);
    val a;
    if (k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PreInc ||
        k == CXUnaryOperator_PostDec || k == CXUnaryOperator_PreDec) {
        if (!read_target(r, n->kids[0], &a))
            return false;
        int64_t d = k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PreInc ? 1 : -1;
        bool post = k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec;
        *out = vint(post ? a.i : a.i + d);
        return assign(r, n->kids[0], vint(a.i + d));
    }
    if (k == CXUnaryOperator_AddrOf)
        return address(r, n->kids[0], out);
    if (!eval(r, n->kids[0], &a))
        return false;
    switch (k) {
    case CXUnaryOperator_Minus:
        *out = vint(-a.i);
        return a.k == V_INT;
    case CXUnaryOperator_Plus:
        *out = a;
        return a.k == V_INT;
    case CXUnaryOperator_LNot:
        *out = vint(!a.i);
        return a.k == V_INT;
    case CXUnaryOperator_Not:
        *out = vint(~a.i);
        return a.k == V_INT;
    case CXUnaryOperator_Deref:
        if (a.k == V_CELL && (r->cells[a.i].written || r->cells[a.i].known)) {
            *out = vint(r->cells[a.i].value);
            return true;
        }
        if (a.k == V_FIELD) {
            int64_t *at;
            bool ok = cell_field(&r->cells[a.i], a.s, false, &at);
            *out = vint(ok ? *at : 0);
            return ok;
        }
        if (a.k == V_PTR) {
            *out = r->vars[a.i].v;
            return out->k != V_NONE;
        }
        if (a.k == V_STR) {
            *out = vint(char_value(n, str_at(&a)[0]));
            return true;
        }
        return false;
    default:
        return false;
    }
}

static bool subscript(argrun *r, cnode *n, val *out)
{
    val base, idx;
    if (n->n_kids != 2 || !eval(r, n->kids[0], &base) || !eval(r, n->kids[1], &idx) ||
        idx.k != V_INT)
        return false;
    if (base.k == V_ARGV) {
        if (idx.i < 0 || idx.i >= r->argc)
            return false; /* past argc: the program would read its NULL */
        *out = (val){V_STR, 0, r->argv[idx.i]};
        return true;
    }
    if (base.k == V_STR) {
        int64_t len = (int64_t)strlen(base.s);
        int64_t at = base.i + idx.i;
        if (at < 0 || at > len)
            return false;
        *out = vint(char_value(n, base.s[at]));
        return true;
    }
    return false;
}

static bool eval1(argrun *r, cnode *n, val *out);
static bool test(argrun *r, cnode *c, bool *yes);

static bool eval(argrun *r, cnode *n, val *out)
{
    bool ok = eval1(r, n, out);
    if (!ok && !r->stop)
        r->stop = n;
    return ok;
}

static bool eval1(argrun *r, cnode *n, val *out)
{
    if (!n || ++r->steps > ARGRUN_MAX_STEPS)
        return false;
    n = cn_strip_casts(n);
    if (!n)
        return false;
    switch (n->kind) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_CXXBoolLiteralExpr: /* a parser's `return true;` */
    case CXCursor_UnaryExpr: {        /* sizeof, alignof */
        int64_t v;
        if (!x_const(r->f, n, &v))
            return false;
        *out = vint(v);
        return true;
    }
    case CXCursor_StringLiteral:
        return literal_string(r, n, out);
    case CXCursor_GNUNullExpr:
    case CXCursor_CXXNullPtrLiteralExpr:
        *out = vint(0);
        return true;
    case CXCursor_DeclRefExpr: {
        val *v = var_slot(r, clang_getCursorReferenced(n->cur), false);
        if (v && v->k == V_REF) {
            cell *c = &r->cells[v->i];
            *out = vint(c->value);
            return c->written || c->known;
        }
        if (v && v->k != V_NONE) {
            *out = *v;
            return true;
        }
        char *name = cn_ref_name(n->cur);
        bool optarg = !strcmp(name, "optarg");
        free(name);
        if (optarg && r->getopt_called) {
            /* An option without its argument leaves optarg null. */
            *out = r->optarg ? (val){V_STR, 0, r->optarg} : vint(0);
            return true;
        }
        int64_t c;
        if (x_const(r->f, n, &c)) { /* an enum constant, a constexpr */
            *out = vint(c);
            return true;
        }
        return false;
    }
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
        return n->n_kids == 1 && eval(r, n->kids[0], out);
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
        return n->n_kids == 2 && binary(r, n, out);
    case CXCursor_UnaryOperator:
        return n->n_kids == 1 && unary(r, n, out);
    case CXCursor_ArraySubscriptExpr:
        return subscript(r, n, out);
    case CXCursor_ConditionalOperator: {
        bool yes;
        if (n->n_kids != 3 || !test(r, n->kids[0], &yes))
            return false;
        return eval(r, n->kids[yes ? 1 : 2], out);
    }
    case CXCursor_CallExpr:
        return call(r, n, out);
    case CXCursor_MemberRefExpr: {
        cell *c;
        char *through = cell_field_name(r, n, &c);
        if (through) {
            /* A field the parser has not written holds the caller's value,
             * which the run does not know. */
            int64_t *at;
            bool ok = cell_field(c, through, false, &at);
            free(through);
            if (ok)
                *out = vint(*at);
            return ok;
        }
        char *field = this_field_name(r, n);
        int64_t v = 0;
        bool ok = field && r->fields->get(r->fields->ctx, field, &v);
        free(field);
        *out = vint(v);
        return ok;
    }
    default:
        return false;
    }
}

static flow exec(argrun *r, cnode *s);

/* A condition: an integer, or a pointer (argv, an argument: never null). */
static bool test(argrun *r, cnode *c, bool *yes)
{
    val v;
    if (!eval(r, c, &v) || (v.k != V_INT && v.k != V_STR && v.k != V_ARGV))
        return false;
    *yes = v.k != V_INT || v.i != 0;
    return true;
}

static flow loop(argrun *r, cnode *cond, cnode *inc, cnode *body, bool test_first)
{
    for (;;) {
        bool go = true;
        if (test_first && cond && !test(r, cond, &go))
            return F_FAIL;
        if (!go)
            return F_NEXT;
        test_first = true;
        flow fl = exec(r, body);
        if (fl == F_BREAK)
            return F_NEXT;
        if (fl == F_RET || fl == F_FAIL)
            return fl;
        val ignored;
        if (inc && !eval(r, inc, &ignored))
            return F_FAIL;
        if (r->steps > ARGRUN_MAX_STEPS)
            return F_FAIL;
    }
}

/* The statement a chain of labels (`case 'a': case 'b': stmt`) labels. */
static cnode *labelled(cnode *s, cnode **label_of, val c, argrun *r, bool want_default)
{
    *label_of = NULL;
    for (; s && (s->kind == CXCursor_CaseStmt || s->kind == CXCursor_DefaultStmt);
         s = s->n_kids ? s->kids[s->n_kids - 1] : NULL) {
        if (*label_of)
            continue;
        int64_t v;
        if (s->kind == CXCursor_DefaultStmt
                ? want_default
                : (!want_default && x_const(r->f, s->kids[0], &v) && v == c.i))
            *label_of = s;
    }
    return s;
}

/* Does n hold a label of the switch around it (one not inside a switch of
 * its own)? */
static bool holds_label(const cnode *n)
{
    if (n->kind == CXCursor_CaseStmt || n->kind == CXCursor_DefaultStmt)
        return true;
    if (n->kind == CXCursor_SwitchStmt)
        return false;
    for (int i = 0; i < n->n_kids; i++)
        if (holds_label(n->kids[i]))
            return true;
    return false;
}

/* Are the switch's labels all at the top of its body, each a constant
 * gpulint reads (no `case 'a' ... 'z'`, no label inside a nested
 * statement), so that the one that matches is found? */
static bool plain_labels(argrun *r, const cnode *body)
{
    for (int i = 0; i < body->n_kids; i++) {
        const cnode *s = body->kids[i];
        for (; s && (s->kind == CXCursor_CaseStmt || s->kind == CXCursor_DefaultStmt);
             s = s->n_kids ? s->kids[s->n_kids - 1] : NULL) {
            int64_t v;
            if (s->kind == CXCursor_CaseStmt && (s->n_kids != 2 || !x_const(r->f, s->kids[0], &v)))
                return false;
        }
        if (s && holds_label(s))
            return false;
    }
    return true;
}

static flow run_switch(argrun *r, cnode *sw)
{
    val c;
    cnode *body = sw->n_kids == 2 ? sw->kids[1] : NULL;
    if (!body || body->kind != CXCursor_CompoundStmt || !plain_labels(r, body) ||
        !eval(r, sw->kids[0], &c) || c.k != V_INT)
        return F_FAIL;
    int from = -1;
    cnode *first = NULL, *hit;
    for (int pass = 0; pass < 2 && from < 0; pass++)
        for (int i = 0; i < body->n_kids && from < 0; i++) {
            cnode *s = labelled(body->kids[i], &hit, c, r, pass == 1);
            if (hit) {
                from = i;
                first = s;
            }
        }
    for (int i = from; i >= 0 && i < body->n_kids; i++) {
        cnode *hit2;
        cnode *s = i == from ? first : labelled(body->kids[i], &hit2, c, r, false);
        flow fl = s ? exec(r, s) : F_NEXT;
        if (fl == F_BREAK)
            return F_NEXT;
        if (fl != F_NEXT)
            return fl;
    }
    return F_NEXT;
}

static flow exec1(argrun *r, cnode *s);

static flow exec(argrun *r, cnode *s)
{
    flow fl = exec1(r, s);
    if (fl == F_FAIL && !r->stop)
        r->stop = s;
    return fl;
}

static flow exec1(argrun *r, cnode *s)
{
    if (!s || ++r->steps > ARGRUN_MAX_STEPS)
        return F_FAIL;
    val v;
    switch (s->kind) {
    case CXCursor_CompoundStmt:
        for (int i = 0; i < s->n_kids; i++) {
            flow fl = exec(r, s->kids[i]);
            if (fl != F_NEXT)
                return fl;
        }
        return F_NEXT;
    case CXCursor_NullStmt:
        return F_NEXT;
    case CXCursor_DeclStmt:
        for (int i = 0; i < s->n_kids; i++) {
            cnode *d = s->kids[i];
            val *slot = d->kind == CXCursor_VarDecl ? var_slot(r, d->cur, true) : NULL;
            cnode *init = d->kind == CXCursor_VarDecl ? fn_var_init(d) : NULL;
            /* A table set by a list (getopt_long's `struct option` array):
             * left unset, so that a read of it stops the run. */
            if (slot && init && init->kind == CXCursor_InitListExpr && !cn_changes(init))
                continue;
            if (!slot || (init && !eval(r, init, slot)))
                return F_FAIL;
            if (init && slot->k == V_INT)
                slot->i = as_type(clang_getCursorType(d->cur), slot->i);
        }
        return F_NEXT;
    case CXCursor_IfStmt: {
        bool yes;
        if (s->n_kids < 2 || s->n_kids > 3 || !test(r, s->kids[0], &yes))
            return F_FAIL;
        return yes ? exec(r, s->kids[1]) : s->n_kids == 3 ? exec(r, s->kids[2]) : F_NEXT;
    }
    case CXCursor_WhileStmt:
        return s->n_kids == 2 ? loop(r, s->kids[0], NULL, s->kids[1], true) : F_FAIL;
    case CXCursor_DoStmt:
        return s->n_kids == 2 ? loop(r, s->kids[1], NULL, s->kids[0], false) : F_FAIL;
    case CXCursor_ForStmt:
        /* libclang drops a for's missing parts: only the whole header or none. */
        if (s->n_kids == 4) {
            cnode *init = s->kids[0];
            if (init->kind == CXCursor_DeclStmt ? exec(r, init) != F_NEXT : !eval(r, init, &v))
                return F_FAIL;
            return loop(r, s->kids[1], s->kids[2], s->kids[3], true);
        }
        return s->n_kids == 1 ? loop(r, NULL, NULL, s->kids[0], true) : F_FAIL;
    case CXCursor_SwitchStmt:
        return run_switch(r, s);
    case CXCursor_BreakStmt:
        return F_BREAK;
    case CXCursor_ContinueStmt:
        return F_CONT;
    case CXCursor_ReturnStmt:
        r->ret = vint(0);
        if (s->n_kids == 1 && !eval(r, s->kids[0], &r->ret))
            return F_FAIL;
        return F_RET;
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt: {
        /* Reached by falling through: its labels change nothing. */
        cnode *hit;
        return exec(r, labelled(s, &hit, vint(0), r, false));
    }
    default:
        if (cn_is_expr(s))
            return eval(r, s, &v) ? F_NEXT : F_FAIL;
        return F_FAIL;
    }
}

bool x_main_param(const cnode *n, int pos)
{
    n = cn_strip_casts((cnode *)n);
    if (!n || n->kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor r = clang_getCursorReferenced(n->cur), owner = clang_getCursorSemanticParent(r);
    char *on = cn_spelling(owner);
    bool is_main = !strcmp(on, "main");
    free(on);
    return r.kind == CXCursor_ParmDecl && is_main &&
           clang_equalCursors(clang_Cursor_getArgument(owner, (unsigned)pos), r);
}

/* The cell of the caller's local n names (`&v` where by_ref is false, `v`
 * handed to a reference where it is true), made on first sight, seeded
 * with the value the caller gives it where that is a constant; -1 where n
 * is no such local. */
static int caller_cell(argrun *r, const cnode *n, bool by_ref)
{
    n = cn_strip_casts((cnode *)n);
    if (!by_ref) {
        if (!n || n->kind != CXCursor_UnaryOperator || n->n_kids != 1 ||
            clang_getCursorUnaryOperatorKind(n->cur) != CXUnaryOperator_AddrOf)
            return -1;
        n = cn_strip(n->kids[0]);
    }
    var_info *v = n && n->kind == CXCursor_DeclRefExpr
                      ? fn_var(r->f, clang_getCursorReferenced(n->cur))
                      : NULL;
    CXType t = v ? clang_getCanonicalType(clang_getCursorType(v->decl)) : (CXType){0};
    bool is_struct = v && !by_ref && t.kind == CXType_Record;
    if (!v || v->is_param || (!is_struct && !cn_type_is_integral(t)) || r->n_cells == 8)
        return -1;
    cell *c = &r->cells[r->n_cells];
    *c = (cell){.var = v->decl, .is_struct = is_struct};
    if (!is_struct && v->init && !v->n_assigns) {
        expr *e = r->f->t->obj_eval->value_of(r->f, v->init), *k = expr_simplify(e);
        c->known = k->kind == EX_CONST;
        c->value = c->known ? k->value : 0;
        expr_free(e);
        expr_free(k);
    }
    return r->n_cells++;
}

/* Is parameter i of def a reference that is not const? */
static bool mutable_ref(CXCursor def, int i)
{
    CXType t =
        clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(def, (unsigned)i)));
    return t.kind == CXType_LValueReference && !clang_isConstQualifiedType(clang_getPointeeType(t));
}

static argrun *argrun_new(fn_ctx *f, const cnode *earlier)
{
    argrun *r = xcalloc(1, sizeof *r);
    r->f = f;
    r->argc = f->t->n_run_args + 1;
    r->argv = xcalloc((size_t)r->argc, sizeof *r->argv);
    r->argv[0] = "a.out"; /* the program's name: no option parser compares it */
    for (int i = 1; i < r->argc; i++)
        r->argv[i] = f->t->run_args[i - 1];
    r->optind = 1;
    r->getopt_fresh = earlier == NULL;
    return r;
}

static void argrun_free(argrun *r)
{
    for (int i = 0; i < r->n_cells; i++)
        for (int k = 0; k < r->cells[i].n_fields; k++)
            free(r->cells[i].fields[k].name);
    for (int i = 0; i < r->n_lits; i++)
        free(r->lits[i]);
    for (int i = 0; i < r->n_helpers; i++)
        cn_free(r->helpers[i].tree);
    free(r->argv);
    free(r);
}

/* Where a run that did not end stopped, in the sizes block's words. */
static void say_stop(argrun *r, const cnode *earlier, bool had_body, sbuf *why)
{
    fn_ctx *f = r->f;

    if (r->steps > ARGRUN_MAX_STEPS)
        sbuf_addf(why, "it runs past %d steps", ARGRUN_MAX_STEPS);
    else if (r->getopt_called && earlier) {
        char *e = cn_ref_name(earlier->cur);
        src_loc at = {0};
        cn_loc(f->t, earlier->cur, &at);
        sbuf_addf(why, "its getopt may start where '%s' (line %d), handed argv before, left off", e,
                  at.line);
        free(e);
        free(at.file);
    } else if (r->stop && had_body) {
        src_loc at = {0};
        cn_loc(f->t, r->stop->cur, &at);
        char *text = cn_text_trunc(f->t, r->stop->cur, 60);
        /* In another unit's definition (cusrc_sibling): that file's line. */
        if (at.file && strcmp(at.file, f->t->path) != 0) {
            const char *base = strrchr(at.file, '/');
            sbuf_addf(why, "it stops at %s:%d ('%s')", base ? base + 1 : at.file, at.line,
                      text ? text : "");
        } else
            sbuf_addf(why, "it stops at line %d ('%s')", at.line, text ? text : "");
        free(text);
        free(at.file);
    } else
        sbuf_addf(why, "its arguments are not main's argc and argv and locals' addresses");
}

/* Is call handed main's argv? */
bool x_passes_argv(const cnode *call)
{
    for (int a = 0; a < cn_n_expr_kids(call); a++)
        if (x_main_param(cn_expr_kid(call, a), 1))
            return true;
    return false;
}

/* May fn (a function's definition cursor, or none) call getopt, itself or
 * through the functions it calls (depth levels down)? */
static bool may_getopt(CXCursor fn, int depth);

static bool calls_getopt(const cnode *n, int depth)
{
    if (n->kind == CXCursor_CallExpr) {
        char *name = cn_ref_name(n->cur);
        bool g = !strncmp(name, "getopt", 6);
        free(name);
        CXCursor callee = clang_getCursorReferenced(n->cur);
        /* The C library's other functions do not touch getopt's place. */
        bool library = !clang_Cursor_isNull(callee) &&
                       clang_Location_isInSystemHeader(clang_getCursorLocation(callee));
        if (g || (!library && !clang_Cursor_isNull(callee) &&
                  may_getopt(clang_getCursorDefinition(callee), depth + 1)))
            return true;
    }
    for (int i = 0; i < n->n_kids; i++)
        if (calls_getopt(n->kids[i], depth))
            return true;
    return false;
}

static bool may_getopt(CXCursor fn, int depth)
{
    if (clang_Cursor_isNull(fn) || fn.kind != CXCursor_FunctionDecl)
        return depth > 0; /* a callee without a body here could */
    if (depth > 4)
        return true;
    cnode *tree = cn_build(fn);
    bool g = tree && calls_getopt(tree, depth);
    cn_free(tree);
    return g;
}

const cnode *x_argv_before(const cnode *n, const cnode *call)
{
    if (n->kind == CXCursor_CallExpr && n != call && !cn_inside(call, n) &&
        cn_spelled_at(n->cur) < cn_spelled_at(call->cur) && x_passes_argv(n) &&
        may_getopt(clang_getCursorDefinition(clang_getCursorReferenced(n->cur)), 1))
        return n;
    for (int i = 0; i < n->n_kids; i++) {
        const cnode *c = x_argv_before(n->kids[i], call);
        if (c)
            return c;
    }
    return NULL;
}

bool x_run_arg_parser(fn_ctx *f, cnode *call, CXCursor def, CXCursor decl, const char *field,
                      const cnode *earlier, int64_t *value, bool *written, sbuf *why)
{
    cnode *args[16];
    int np = cn_call_args(call, def, args, 16);
    if (np < 2)
        return false;
    argrun *r = argrun_new(f, earlier);
    bool ok = true, argv_seen = false;
    for (int i = 0; i < np && ok; i++) {
        val *slot = var_slot(r, clang_Cursor_getArgument(def, (unsigned)i), true);
        int c;
        int64_t k;
        if (!slot || !args[i])
            ok = false;
        else if (x_main_param(args[i], 0))
            *slot = vint(r->argc);
        else if (x_main_param(args[i], 1)) {
            *slot = (val){V_ARGV, 0, NULL};
            argv_seen = true;
        } else if ((c = caller_cell(r, args[i], false)) >= 0)
            *slot = (val){V_CELL, c, NULL};
        else if (mutable_ref(def, i) && (c = caller_cell(r, args[i], true)) >= 0)
            *slot = (val){V_REF, c, NULL};
        else if (x_const(f, args[i], &k))
            *slot = vint(k);
        else if (clang_getCanonicalType(clang_getCursorType(args[i]->cur)).kind == CXType_Pointer)
            *slot = (val){V_BUF, 0, NULL}; /* a buffer (the file name): written, never read */
        /* anything else stays V_NONE: reading it stops the run */
    }
    cnode *body = NULL;
    cnode *tree = ok && argv_seen ? cn_build(def) : NULL;
    if (tree && tree->n_kids && tree->kids[tree->n_kids - 1]->kind == CXCursor_CompoundStmt)
        body = tree->kids[tree->n_kids - 1];
    flow fl = body ? exec(r, body) : F_FAIL;
    ok = fl == F_NEXT || fl == F_RET;
    if (!ok && why)
        say_stop(r, earlier, body != NULL, why);
    for (int i = 0; ok && i < r->n_cells; i++) {
        cell *c = &r->cells[i];
        int64_t *at;
        if (!clang_equalCursors(c->var, decl))
            continue;
        if (field ? c->is_struct && cell_field(c, field, false, &at) : c->written) {
            *written = true;
            *value = field ? *at : c->value;
        }
    }
    if (tree)
        cn_free(tree);
    argrun_free(r);
    return ok;
}

bool x_run_arg_stmt(fn_ctx *f, cnode *stmt, CXCursor argc_parm, CXCursor argv_parm,
                    const cnode *earlier, const x_arg_fields *fields)
{
    argrun *r = argrun_new(f, earlier);
    r->fields = fields;
    val *c = clang_Cursor_isNull(argc_parm) ? NULL : var_slot(r, argc_parm, true);
    val *v = var_slot(r, argv_parm, true);
    if (c)
        *c = vint(r->argc);
    if (v)
        *v = (val){V_ARGV, 0, NULL};
    flow fl = v ? exec(r, stmt) : F_FAIL;
    argrun_free(r);
    return fl == F_NEXT;
}

static bool reads_parm(const cnode *n, CXCursor parm)
{
    if (n->kind == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(n->cur), parm))
        return true;
    for (int i = 0; i < n->n_kids; i++)
        if (reads_parm(n->kids[i], parm))
            return true;
    return false;
}

int x_run_main_options(fn_ctx *f, cnode *loop, CXCursor decl, int64_t *value, bool *written,
                       sbuf *why)
{
    if (!f->name || strcmp(f->name, "main") != 0 ||
        clang_Cursor_getNumArguments(f->root->cur) < 2 ||
        !(calls_getopt(loop, 0) || reads_parm(loop, clang_Cursor_getArgument(f->root->cur, 1))))
        return -1;
    const cnode *earlier = x_argv_before(f->root, loop);
    argrun *r = argrun_new(f, earlier);
    val *c = var_slot(r, clang_Cursor_getArgument(f->root->cur, 0), true);
    val *v = var_slot(r, clang_Cursor_getArgument(f->root->cur, 1), true);
    bool ok = c && v;
    if (ok) {
        *c = vint(r->argc);
        *v = (val){V_ARGV, 0, NULL};
        ok = exec(r, loop) == F_NEXT;
    }
    val *out = ok ? var_slot(r, decl, false) : NULL;
    *written = out && out->k == V_INT;
    if (*written)
        *value = out->i;
    if (!ok && why)
        say_stop(r, earlier, true, why);
    /* Set to a string (`path = argv[i + 1]`): not the value it had
     * before, and not a number either. */
    if (ok && out && out->k != V_INT && out->k != V_NONE) {
        ok = false;
        if (why)
            sbuf_addf(why, "it sets the variable to a value that is not a number");
    }
    argrun_free(r);
    return ok;
}
