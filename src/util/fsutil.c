/* fsutil: nftw without following links. */
#include "util/fsutil.h"

#include <ftw.h>
#include <stdio.h>

static int remove_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(p); /* FTW_PHYS: a symlink is removed, never what it points to */
    return 0;
}

void fsutil_remove_tree(const char *dir)
{
    if (dir && *dir)
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
