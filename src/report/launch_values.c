/* launch_values: a launch's values as numbers: its constants, its
 * expressions evaluated with --define, and the bindings its kernel's
 * parameters take from it (integer arguments by name, and the fields of
 * struct arguments the caller set). */
#include <string.h>

#include "report/launch_values.h"

/* A parameter whose value the index and trip-count expressions can use: an
 * integer (pointers, references and floating-point values are not). */
bool param_bindable(const cusrc_param *p)
{
    static const char *const not_integer[] = {"*",    "&",      "[",     "float",  "double",
                                              "half", "bfloat", "__nv_", "struct", "dim3"};
    if (!p->name || !p->name[0] || !p->type)
        return false;
    for (size_t i = 0; i < sizeof not_integer / sizeof *not_integer; i++)
        if (strstr(p->type, not_integer[i]))
            return false;
    return true;
}

/* A value of the launch: its constant, or its expression evaluated with the
 * user's --define values (`transpose<<<grid, threads>>>(out, in, size_x,
 * size_y)` with --define size_x=1024), or with none where it needs none (a
 * size the front end carried through a caller's call, not folded). */
bool launch_value(const cusrc_value *v, const kroof_defines *defines, int64_t *out)
{
    if (v->known) {
        *out = v->value;
        return true;
    }
    if (!v->e)
        return false;
    expr_env env;
    expr_env_init(&env);
    kroof_defines_bind(defines, &env);
    return expr_eval(v->e, &env, out, NULL) == EXPR_OK;
}

bool dim3_with_defines(const cusrc_dim3 *d, const kroof_defines *defines, int64_t out[3])
{
    return d->present && launch_value(&d->x, defines, &out[0]) &&
           launch_value(&d->y, defines, &out[1]) && launch_value(&d->z, defines, &out[2]);
}

/* The launch's integer arguments by parameter name, where they are
 * constants or --define gives their value (none without a launch). */
void launch_constants(const cusrc_kernel *k, const cusrc_launch *l, const kroof_defines *defines,
                      kroof_defines *out)
{
    memset(out, 0, sizeof *out);
    for (int a = 0; l && a < l->n_args && a < k->n_params && out->n < EXPR_MAX_BINDINGS; a++) {
        int64_t v;
        if (param_bindable(&k->params[a]) && launch_value(&l->args[a], defines, &v)) {
            out->names[out->n] = k->params[a].name;
            out->values[out->n++] = v;
        }
    }
    for (int a = 0; l && a < l->n_arg_fields && out->n < EXPR_MAX_BINDINGS; a++) {
        out->names[out->n] = l->arg_fields[a].name;
        out->values[out->n++] = l->arg_fields[a].value;
    }
}
