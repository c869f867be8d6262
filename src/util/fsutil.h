/* fsutil: file-system chores shared by the stage, the kernel build and the
 * worker pool. */
#ifndef GPULINT_FSUTIL_H
#define GPULINT_FSUTIL_H

/* Removes a directory tree; symbolic links are removed, never followed. */
void fsutil_remove_tree(const char *dir);

#endif
