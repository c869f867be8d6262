/* launch_values: a launch's values as numbers: its constants, its
 * expressions evaluated with --define, and the bindings its kernel's
 * parameters take from it (integer arguments by name, and the fields of
 * struct arguments the caller set). */
#include <string.h>

#include "report/launch_values.h"
#include "util/jsontext.h"

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

/* A --define of a name the source sets to another value: the launch's
 * constant argument, a caller's struct field, or a host variable its sizes
 * were followed to. The --define would win in the kernel's counts while the
 * grid kept the source's value, so the mix would be a plausible wrong
 * number; the CLI refuses it with both places. */
static void add_conflict(json_t **out, const char *name, int64_t define, int64_t value,
                         const cusrc_launch *l, const char *file)
{
    if (define == value)
        return;
    if (!*out)
        *out = json_array();
    json_t *c = json_pack("{s:s, s:I, s:I, s:o, s:i}", "name", name, "define", (json_int_t)define,
                          "value", (json_int_t)value, "launch_file",
                          json_text(l->loc.file ? l->loc.file : file), "launch_line", l->loc.line);
    for (int i = 0; i < l->n_sizes_from; i++) {
        const cusrc_size_from *sf = &l->sizes_from[i];
        if (strcmp(sf->name, name) || sf->value != value)
            continue;
        json_object_set_new(c, "file", json_text(sf->loc.file ? sf->loc.file : file));
        json_object_set_new(c, "line", json_integer(sf->loc.line));
        json_object_set_new(c, "function", json_text(sf->function));
        break;
    }
    json_array_append_new(*out, c);
}

json_t *launch_define_conflicts(const cusrc_kernel *k, const cusrc_launch *l,
                                const kroof_defines *user, const char *file)
{
    json_t *out = NULL;
    for (int d = 0; user && d < user->n; d++) {
        const char *name = user->names[d];
        int64_t w = user->values[d];
        size_t before = out ? json_array_size(out) : 0;
        /* A host loop's counter (or what a sweep computed from it) holds
         * one trip's value, not the only one the source sets: a --define
         * of it picks a trip for the counts (polybench's `i` of 1..254). */
        for (int a = 0; a < l->n_args && a < k->n_params; a++)
            if (param_bindable(&k->params[a]) && l->args[a].known && !l->args[a].stepped &&
                !strcmp(k->params[a].name, name))
                add_conflict(&out, name, w, l->args[a].value, l, file);
        for (int a = 0; a < l->n_arg_fields; a++)
            if (!strcmp(l->arg_fields[a].name, name))
                add_conflict(&out, name, w, l->arg_fields[a].value, l, file);
        for (int i = 0; i < l->n_sizes_from && (out ? json_array_size(out) : 0) == before; i++)
            if (!strcmp(l->sizes_from[i].name, name) && !l->sizes_from[i].stepped)
                add_conflict(&out, name, w, l->sizes_from[i].value, l, file);
    }
    return out;
}
