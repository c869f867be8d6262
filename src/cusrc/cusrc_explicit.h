/* cusrc_explicit: the text gpulint appends to a source file so that
 * libclang shows the bodies of its explicit instantiations (see the .c). */
#ifndef GPULINT_CUSRC_EXPLICIT_H
#define GPULINT_CUSRC_EXPLICIT_H

#include <stddef.h>

#define CUSRC_EXPLICIT_FN "gpulint_explicit_instantiations_"

/* A function naming every explicit instantiation of a free function in the
 * source text buf (caller frees); NULL when there is none. */
char *cusrc_explicit_refs(const char *buf, size_t size);

#endif
