/* fsutil: file-system chores shared by the stage, the kernel build and the
 * worker pool, and where the running binary lives. */
#ifndef GPULINT_FSUTIL_H
#define GPULINT_FSUTIL_H

#include <stdbool.h>
#include <stddef.h>

/* Removes a directory tree; symbolic links are removed, never followed. */
void fsutil_remove_tree(const char *dir);
/* The directory of the running gpulint (/proc/self/exe), where its data is
 * found relative to it; false when it cannot be read. */
bool fsutil_exe_dir(char *buf, size_t n);

#endif
