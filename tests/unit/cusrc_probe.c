/* cusrc_probe: prints what the source front end finds in a .cu file, for
 * debugging it and for writing test expectations.
 *   cusrc_probe FILE.cu [-p BUILD_DIR] [--arch sm_90] [clang args...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE.cu [-p DIR] [--arch sm_XX] [clang args...]\n", argv[0]);
        return 2;
    }
    cusrc_options o = {0};
    o.file = argv[1];
    const char **extra = calloc((size_t)argc, sizeof *extra);
    int n = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-p") && i + 1 < argc)
            o.compdb_dir = argv[++i];
        else if (!strcmp(argv[i], "--arch") && i + 1 < argc)
            o.arch = argv[++i];
        else
            extra[n++] = argv[i];
    }
    o.args = extra;
    o.n_args = n;
    cusrc_ctx *ctx = cusrc_ctx_new();
    cusrc_unit u;
    char *err = NULL;
    int rc = 0;
    if (cusrc_parse(ctx, &o, &u, &err)) {
        sbuf b;
        sbuf_init(&b);
        cusrc_dump(&u, &b);
        fputs(sbuf_str(&b), stdout);
        sbuf_free(&b);
        cusrc_unit_free(&u);
    } else {
        fprintf(stderr, "cusrc_probe: %s\n", err);
        rc = 1;
    }
    free(err);
    free(extra);
    cusrc_ctx_free(ctx);
    return rc;
}
