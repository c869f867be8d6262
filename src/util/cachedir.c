/* cachedir: the cache root (see cachedir.h). */
#include "util/cachedir.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "util/sbuf.h"

bool cachedir_make(const char *path)
{
    return mkdir(path, 0755) == 0 || errno == EEXIST;
}

char *cachedir_path(const char *sub)
{
    sbuf b;
    sbuf_init(&b);
    const char *own = getenv("GPULINT_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (own) {
        if (!own[0]) {
            sbuf_free(&b);
            return NULL;
        }
        sbuf_add(&b, own);
    } else if (xdg && xdg[0]) {
        sbuf_addf(&b, "%s", xdg);
        if (!cachedir_make(sbuf_str(&b)))
            goto fail;
        sbuf_add(&b, "/gpulint");
    } else if (home && home[0]) {
        sbuf_addf(&b, "%s/.cache", home);
        if (!cachedir_make(sbuf_str(&b)))
            goto fail;
        sbuf_add(&b, "/gpulint");
    } else {
        goto fail;
    }
    if (!cachedir_make(sbuf_str(&b)))
        goto fail;
    if (sub) {
        sbuf_addf(&b, "/%s", sub);
        if (!cachedir_make(sbuf_str(&b)))
            goto fail;
    }
    return sbuf_take(&b);
fail:
    sbuf_free(&b);
    return NULL;
}
