/* cusrc_tu: the unit being built, grown one array, access, branch or note
 * at a time, by the driver (cusrc.c) and the body walkers (cusrc_walk.h). */
#include <stdarg.h>
#include <string.h>

#include "cusrc/cusrc_int.h"

size_t tu_add_array(cusrc_tu *t)
{
    cusrc_unit *u = t->u;
    if (u->n_arrays == t->cap_arrays) {
        t->cap_arrays = t->cap_arrays ? t->cap_arrays * 2 : 8;
        u->arrays = xrealloc(u->arrays, t->cap_arrays * sizeof *u->arrays);
        u->array_info = xrealloc(u->array_info, t->cap_arrays * sizeof *u->array_info);
    }
    memset(&u->arrays[u->n_arrays], 0, sizeof *u->arrays);
    memset(&u->array_info[u->n_arrays], 0, sizeof *u->array_info);
    return u->n_arrays++;
}

size_t tu_add_access(cusrc_tu *t)
{
    cusrc_unit *u = t->u;
    GROW(u->accesses, u->n_accesses, t->cap_accesses);
    memset(&u->accesses[u->n_accesses], 0, sizeof *u->accesses);
    return u->n_accesses++;
}

size_t tu_add_branch(cusrc_tu *t)
{
    cusrc_unit *u = t->u;
    GROW(u->branches, u->n_branches, t->cap_branches);
    memset(&u->branches[u->n_branches], 0, sizeof *u->branches);
    return u->n_branches++;
}

void tu_note(cusrc_tu *t, const char *fmt, ...)
{
    cusrc_unit *u = t->u;
    GROW(u->notes, u->n_notes, t->cap_notes);
    sbuf b;
    sbuf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sbuf_vaddf(&b, fmt, ap);
    va_end(ap);
    u->notes[u->n_notes++] = sbuf_take(&b);
}
