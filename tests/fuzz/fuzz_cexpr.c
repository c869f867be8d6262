/* fuzz_cexpr: libFuzzer harness for the command-line expression parser.
 * Whatever the user types after --access or --decl must parse or be
 * refused cleanly; a parsed expression must print as text that parses back
 * to the same value, evaluation must never trap (overflow and division
 * by zero are statuses, not crashes), and evaluating 32 lanes at once must
 * agree with evaluating each alone. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbolic/cexpr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void bind(expr_env *env, int64_t seed)
{
    expr_env_init(env);
    for (int b = SYM_NAMED + 1; b < SYM_BUILTIN_COUNT; b++)
        expr_env_set_builtin(env, (expr_builtin)b, (seed + b) % 37);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > CEXPR_MAX_LEN + 16)
        return 0;
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';

    cexpr_error err;
    expr *e = cexpr_parse(s, false, &err);
    if (!e && (err.msg[0] == '\0' || err.column < 1))
        __builtin_trap(); /* every refusal says where and why */
    if (e) {
        expr_env env;
        bind(&env, (int64_t)size);
        int64_t v, w;
        expr_status st = expr_eval(e, &env, &v, NULL);
        char *text = expr_to_string(e);
        expr *again = cexpr_parse(text, false, &err);
        /* Printed text must parse, unless the brackets it adds for clarity
         * take it past the nesting or the length limit. */
        if (!again && !strstr(err.msg, "nested too deeply") && !strstr(err.msg, "longer than"))
            __builtin_trap();
        if (!again) {
            free(text);
            expr_free(e);
            goto decl;
        }
        if (expr_eval(again, &env, &w, NULL) != st || (st == EXPR_OK && v != w))
            __builtin_trap();
        /* The 32 lanes at once give each lane's value, or fail where it
         * fails alone. */
        expr_env *lanes = malloc(32 * sizeof *lanes);
        if (lanes) {
            for (int l = 0; l < 32; l++)
                bind(&lanes[l], (int64_t)size + l);
            int64_t out[32];
            uint32_t unknown, fine = expr_eval_lanes_unknown(e, lanes, 0xffffffffu, out, &unknown);
            for (int l = 0; l < 32; l++) {
                int64_t one;
                expr_status st1 = expr_eval(e, &lanes[l], &one, NULL);
                bool ok = st1 == EXPR_OK;
                bool unk = st1 == EXPR_UNBOUND || st1 == EXPR_UNKNOWN;
                if (ok != (bool)(fine >> l & 1) || unk != (bool)(unknown >> l & 1) ||
                    (ok && one != out[l]))
                    __builtin_trap();
            }
            free(lanes);
        }
        expr *simple = expr_simplify(e);
        if (st == EXPR_OK && (expr_eval(simple, &env, &w, NULL) != EXPR_OK || v != w))
            __builtin_trap(); /* folding keeps the value */
        expr_free(simple);
        expr_free(again);
        free(text);
        expr_free(e);
    }

decl:;
    cexpr_decl d;
    if (cexpr_parse_decl(s, &d, &err) && (d.n_dims < 1 || d.elem_size < 1))
        __builtin_trap();
    cexpr_access a;
    if (cexpr_parse_access(s, true, &a, &err)) {
        char why[128];
        expr *off = cexpr_byte_offset(&d, &a, why, sizeof why);
        expr_free(off);
        cexpr_access_free(&a);
    }
    free(s);
    return 0;
}
