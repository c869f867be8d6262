/* cachedir: where gpulint keeps what it can rebuild (precompiled headers,
 * built reference kernels): $GPULINT_CACHE_DIR (empty: no cache), else
 * $XDG_CACHE_HOME/gpulint, else ~/.cache/gpulint. */
#ifndef GPULINT_CACHEDIR_H
#define GPULINT_CACHEDIR_H

#include <stdbool.h>

/* The cache root, or root/sub when sub is not NULL, created if missing
 * (caller frees). NULL when there is no cache or it cannot be created. */
char *cachedir_path(const char *sub);

/* mkdir that accepts an existing directory. */
bool cachedir_make(const char *path);

#endif
