/* cusrc_probe: prints what the source front end finds in a .cu file, for
 * debugging it and for writing test expectations.
 *   cusrc_probe FILE.cu [-p BUILD_DIR] [--arch sm_90] [clang args...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusrc/cusrc.h"
#include "input/compdb.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE.cu [-p DIR] [--arch sm_XX] [clang args...]\n", argv[0]);
        return 2;
    }
    cusrc_options o = {0};
    o.file = argv[1];
    const char *db_dir = NULL;
    char arch[32];
    compdb db = {0};
    const compdb_unit *unit = NULL;
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "-p") && i + 1 < argc)
            db_dir = argv[i + 1];
    if (db_dir) {
        char dberr[512];
        if (compdb_load(db_dir, &db, dberr, sizeof dberr) != COMPDB_OK) {
            fprintf(stderr, "%s\n", dberr);
            return 1;
        }
        unit = compdb_find(&db, o.file);
    }
    const char **extra = calloc((size_t)argc + (unit ? (size_t)unit->n_args : 0), sizeof *extra);
    int n = unit ? cusrc_clang_args(unit->args, unit->n_args, extra) : 0;
    if (unit && cusrc_arch_of(unit->args, unit->n_args, arch))
        o.arch = arch;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-p") && i + 1 < argc)
            i++;
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
    compdb_free(&db);
    cusrc_ctx_free(ctx);
    return rc;
}
