/* cusrc_none: the source front end of a gpulint built without libclang (the
 * GPU machine has no libclang-dev). The entry points exist so that callers
 * need no #ifdefs; parsing says plainly why it cannot be done. */
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc.h"

bool cusrc_available(void)
{
    return false;
}

bool cusrc_backend_version(char *buf, size_t n)
{
    (void)buf;
    (void)n;
    return false;
}

cusrc_ctx *cusrc_ctx_new(void)
{
    return NULL;
}

void cusrc_ctx_free(cusrc_ctx *ctx)
{
    (void)ctx;
}

bool cusrc_parse(cusrc_ctx *ctx, const cusrc_options *opts, cusrc_unit *out, char **err)
{
    (void)ctx;
    (void)opts;
    memset(out, 0, sizeof *out);
    if (err)
        *err = xstrdup("gpulint was built without libclang: source analysis is not available "
                       "(install libclang-dev and rebuild, or pass --ptxas-log)");
    return false;
}
