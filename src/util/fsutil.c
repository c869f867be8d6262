/* fsutil: nftw without following links. */
#include "util/fsutil.h"

#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

bool fsutil_exe_dir(char *buf, size_t n)
{
    if (n < 2)
        return false;
    ssize_t len = readlink("/proc/self/exe", buf, n - 1);
    if (len <= 0)
        return false;
    buf[len] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return false;
    *slash = '\0';
    return true;
}
