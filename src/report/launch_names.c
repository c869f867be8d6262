/* launch_names: the names a launch's sizes and counts read (grid, block,
 * shared memory, and the kernel's FLOP and byte totals, a kernel
 * parameter read as the argument the launch passes), which of them the
 * user bound and which still have no value, with what the front end knows
 * of where each comes from. The sizes block and --defines' check of
 * unknown names read these. */
#include "report/launch_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAMES_MAX 64

typedef struct name_set {
    const char *name[NAMES_MAX];
    int n;
} name_set;

static void add_name(name_set *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->name[i], name))
            return;
    if (s->n < NAMES_MAX)
        s->name[s->n++] = name;
}

static void add_syms(name_set *s, const expr *e)
{
    if (!e)
        return;
    expr_env none;
    expr_env_init(&none);
    expr_sym_ref refs[NAMES_MAX];
    int n = 0;
    bool overflow = false;
    expr_unbound_syms(e, &none, refs, &n, NAMES_MAX, &overflow);
    for (int i = 0; i < n; i++)
        if (refs[i].builtin == SYM_NAMED && refs[i].name)
            add_name(s, refs[i].name);
}

static void add_value(name_set *s, const cusrc_value *v)
{
    if (v->present && !v->known)
        add_syms(s, v->e);
}

/* The argument a kernel parameter takes at this launch, or NULL. */
static const cusrc_value *arg_of(const cusrc_kernel *k, const cusrc_launch *l, const char *name)
{
    for (int a = 0; a < l->n_args && a < k->n_params; a++)
        if (k->params[a].name && !strcmp(k->params[a].name, name))
            return &l->args[a];
    return NULL;
}

/* A struct argument's field the caller set ("domain.nx"). */
static bool field_of(const cusrc_launch *l, const char *name)
{
    for (int a = 0; a < l->n_arg_fields; a++)
        if (!strcmp(l->arg_fields[a].name, name))
            return true;
    return false;
}

/* A field the kernel reads of one of its parameters (`p.n` of a struct
 * it takes by value, `prop->width` through a pointer to a const struct). */
static bool param_field(const cusrc_kernel *k, const char *name)
{
    for (int a = 0; a < k->n_params; a++) {
        const char *p = k->params[a].name;
        size_t n = p ? strlen(p) : 0;
        if (n && !strncmp(name, p, n) && (name[n] == '.' || !strncmp(name + n, "->", 2)))
            return true;
    }
    return false;
}

/* Names the front end makes for its own bookkeeping: a loop's trip count
 * it could not write as an expression, the weight of a branch's arm. */
static bool internal_name(const char *name)
{
    return !strncmp(name, "trips_L", 7) || !strncmp(name, "taken_A", 7);
}

static void add_counts(name_set *s, const cusrc_kernel *kn, const cusrc_launch *l, const kroof *k)
{
    name_set in_counts = {0};
    for (int i = 0; i < 4; i++)
        add_syms(&in_counts, k->flops[i]);
    add_syms(&in_counts, k->bytes);
    for (int i = 0; i < in_counts.n; i++) {
        const char *name = in_counts.name[i];
        const cusrc_value *arg = arg_of(kn, l, name);
        if ((arg && arg->known) || field_of(l, name))
            continue;
        if (arg && arg->e)
            add_syms(s, arg->e);
        else if (!internal_name(name))
            add_name(s, name);
    }
    /* A check taken as passing (`i < n`, n an argument with no value)
     * leaves the counts upper values: the argument's sizes are named too
     * (a device loop's counter in it, `threadIdx.x < w`, is no size). */
    name_set checks = {0};
    add_syms(&checks, k->assumed);
    for (int i = 0; i < checks.n; i++) {
        const cusrc_value *arg = arg_of(kn, l, checks.name[i]);
        if (arg && !arg->known && arg->e)
            add_syms(s, arg->e);
        else if (!arg && param_field(kn, checks.name[i]) && !field_of(l, checks.name[i]))
            add_name(s, checks.name[i]); /* `w < prop->width`: --define binds it */
    }
    /* A trip count stays unknown only when nothing else is missing. */
    if (!k->known && k->unbound && internal_name(k->unbound))
        add_name(s, k->unbound);
}

/* What the front end says of where the name comes from: the reason given
 * for the first of the launch's values that depends on it. */
static const char *origin_of(const cusrc_launch *l, const char *name)
{
    char quoted[256];
    snprintf(quoted, sizeof quoted, "'%s'", name);
    cusrc_value *vals[CUSRC_LAUNCH_VALUES];
    cusrc_launch_values(l, vals);
    for (int i = 0; i < CUSRC_LAUNCH_VALUES; i++)
        if (vals[i]->why && strstr(vals[i]->why, quoted))
            return vals[i]->why;
    for (int a = 0; a < l->n_args; a++)
        if (l->args[a].why && strstr(l->args[a].why, quoted))
            return l->args[a].why;
    return NULL;
}

/* Does why quote name, or its last field (`'multiProcessorCount'` for
 * cudaDeviceProp.multiProcessorCount)? */
static bool names_field(const char *why, const char *name)
{
    const char *dot = strrchr(name, '.');
    char quoted[256];
    snprintf(quoted, sizeof quoted, "'%s'", dot ? dot + 1 : name);
    return strstr(why, quoted) != NULL;
}

/* Where no reason names it: the reason of the first launch value whose
 * expression holds it (`waves`, in a block computed from thread_m, whose
 * reason is thread_m's loop). */
static const char *origin_through(const cusrc_launch *l, const char *name)
{
    cusrc_value *vals[CUSRC_LAUNCH_VALUES];
    cusrc_launch_values(l, vals);
    for (int i = 0; i < CUSRC_LAUNCH_VALUES; i++) {
        if (!vals[i]->why || vals[i]->known)
            continue;
        name_set in = {0};
        add_syms(&in, vals[i]->e);
        for (int k = 0; k < in.n; k++)
            if (!strcmp(in.name[k], name))
                return vals[i]->why;
    }
    return NULL;
}

json_t *launch_names_json(const cusrc_kernel *kn, const cusrc_launch *l, const kroof *k,
                          const kroof_defines *user)
{
    name_set s = {0};
    json_t *params = json_array();
    for (int i = 0; i < kn->n_params; i++)
        if (kn->params[i].name && kn->params[i].name[0])
            json_array_append_new(params, json_string(kn->params[i].name));
    if (!l)
        return json_pack("{s:o}", "params", params);
    cusrc_value *vals[CUSRC_LAUNCH_VALUES];
    cusrc_launch_values(l, vals);
    for (int i = 0; i < CUSRC_LAUNCH_VALUES; i++)
        add_value(&s, vals[i]);
    add_counts(&s, kn, l, k);
    const char *loop_fn[NAMES_MAX] = {0};
    /* How many times the loops around the calls that lead to it run it. */
    name_set counted = {0};
    const char *loop_why[NAMES_MAX] = {0};
    for (int p = 0; l->paths && p < l->call_paths; p++)
        for (int i = 0; i < l->paths[p].n; i++) {
            int before = counted.n;
            add_syms(&counted, l->paths[p].runs[i]);
            for (int c = before; c < counted.n; c++) {
                add_name(&s, counted.name[c]);
                loop_fn[c] = l->paths[p].fn[i];
                loop_why[c] = l->paths[p].why[i];
            }
        }
    /* A name in the condition the launch runs under decides whether it
     * does (--define may bind it); it sizes nothing. */
    name_set reach = {0};
    add_syms(&reach, l->reach);
    json_t *reads = json_array(), *unknown = json_array(), *origins = json_object();
    for (int i = 0; i < s.n; i++) {
        json_array_append_new(reads, json_string(s.name[i]));
        bool bound = false;
        for (int d = 0; user && d < user->n && !bound; d++)
            bound = !strcmp(user->names[d], s.name[i]);
        if (bound)
            continue;
        json_array_append_new(unknown, json_string(s.name[i]));
        const char *why = origin_of(l, s.name[i]);
        int line;
        const char *in_fn = NULL, *loop = NULL;
        for (int c = 0; c < counted.n && !in_fn; c++)
            if (!strcmp(counted.name[c], s.name[i])) {
                in_fn = loop_fn[c];
                loop = loop_why[c];
            }
        if (why)
            json_object_set_new(origins, s.name[i], json_string(why));
        else if (in_fn)
            json_object_set_new(origins, s.name[i],
                                json_sprintf("how many launches: a loop in '%s' around the call "
                                             "runs %s%s",
                                             in_fn,
                                             loop ? "a count that "
                                                  : "a count gpulint "
                                                    "cannot compute",
                                             loop ? loop : ""));
        else if (sscanf(s.name[i], "trips_L%d", &line) == 1)
            json_object_set_new(
                origins, s.name[i],
                json_sprintf("the trip count of the loop at line %d, which gpulint cannot write "
                             "as an expression",
                             line));
        else if ((why = origin_through(l, s.name[i])) != NULL)
            json_object_set_new(origins, s.name[i],
                                names_field(why, s.name[i])
                                    ? json_string(why)
                                    : json_sprintf("reached through another name: %s", why));
    }
    json_t *decides = json_array();
    for (int i = 0; i < reach.n; i++)
        json_array_append_new(decides, json_string(reach.name[i]));
    return json_pack("{s:o, s:o, s:o, s:o, s:o}", "reads", reads, "unknown", unknown, "origins",
                     origins, "reach", decides, "params", params);
}

void launch_device_props_json(json_t *sizes_from, const cusrc_launch *l, const kroof_defines *all,
                              const kroof_defines *user, const char *model)
{
    name_set s = {0};
    cusrc_value *vals[CUSRC_LAUNCH_VALUES];
    cusrc_launch_values(l, vals);
    for (int i = 0; i < CUSRC_LAUNCH_VALUES; i++)
        if (!vals[i]->known)
            add_syms(&s, vals[i]->e);
    for (int d = 0; all && d < all->n; d++) {
        bool given = false, read = false;
        for (int u = 0; user && u < user->n && !given; u++)
            given = !strcmp(user->names[u], all->names[d]);
        for (int i = 0; i < s.n && !read; i++)
            read = !strcmp(s.name[i], all->names[d]);
        if (read && !given)
            json_array_append_new(sizes_from,
                                  json_pack("{s:s, s:I, s:s}", "name", all->names[d], "value",
                                            (json_int_t)all->values[d], "model", model));
    }
}
