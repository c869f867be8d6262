/* siblings: the program's other units as libclang sees them (siblings.h). */
#include "run/siblings.h"

#include <stdlib.h>
#include <string.h>

#include "input/compdb.h"
#include "util/diag.h"

cusrc_sibling *siblings_of(const pipeline_opts *o, const compdb *db, const char *file, int *n)
{
    *n = 0;
    size_t total = db ? db->n_units + db->n_host : 0;
    cusrc_sibling *sib = xcalloc(total + 1, sizeof *sib);
    char *self = realpath(file, NULL);
    int n_user = db && db->path ? o->n_extra : 0;
    for (size_t i = 0; i < total; i++) {
        const compdb_unit *u = i < db->n_units ? &db->units[i] : &db->host[i - db->n_units];
        if (self && !strcmp(u->file, self))
            continue;
        char **all = xcalloc((size_t)(u->n_args + n_user) + 1, sizeof *all);
        for (int k = 0; k < u->n_args; k++)
            all[k] = u->args[k];
        for (int k = 0; k < n_user; k++)
            all[u->n_args + k] = o->extra[k];
        const char **args = xcalloc((size_t)(u->n_args + n_user) + 2, sizeof *args);
        sib[(*n)++] =
            (cusrc_sibling){u->file, args, cusrc_clang_args(all, u->n_args + n_user, args)};
        free(all);
    }
    free(self);
    return sib;
}

void siblings_free(cusrc_sibling *sib, int n)
{
    for (int i = 0; i < n; i++)
        free((void *)sib[i].args);
    free(sib);
}
