/* cmd_merge: `gpulint merge`, one report from the shards of a CI matrix. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "report/merge.h"
#include "util/fileio.h"

#define MERGE_INPUT_MAX (1u << 30)

static json_t *load(const char *path, char *err, size_t errlen)
{
    char *text;
    size_t len;
    fileio_status st = fileio_read(path, MERGE_INPUT_MAX, &text, &len);
    if (st != FILEIO_OK) {
        snprintf(err, errlen, "%s: %s", path, fileio_status_text(st));
        return NULL;
    }
    json_error_t je;
    json_t *doc = json_loadb(text, len, 0, &je);
    free(text);
    if (!doc)
        snprintf(err, errlen, "%s:%d: not JSON: %s", path, je.line, je.text);
    return doc;
}

int cmd_merge(int argc, char **argv)
{
    const char *output = NULL;
    bool help = false;
    const opt_spec specs[] = {
        {"output", 'o', OPT_STRING, &output, NULL, "FILE", "write the merged report to FILE"},
        {"help", 'h', OPT_FLAG, &help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    opt_result res;
    if (!opt_parse(specs, argc, argv, &res)) {
        opt_free(&res);
        return diag_error(EXIT_USAGE, "%s", res.error);
    }
    if (help) {
        opt_free(&res);
        opt_usage("gpulint merge [-o FILE] REPORT.json|LOG.sarif...\n\nOne report from several: "
                  "the JSON reports (or SARIF logs) of --shard runs, in the order given.",
                  specs);
        return EXIT_OK;
    }
    if (res.n_positional == 0) {
        opt_free(&res);
        return diag_error(EXIT_USAGE, "merge: give the JSON reports or SARIF logs to merge");
    }
    size_t n = (size_t)res.n_positional;
    json_t **docs = calloc(n, sizeof *docs);
    char err[1024];
    int rc = EXIT_OK;
    merge_kind kind = MERGE_UNKNOWN;
    for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
        const char *path = res.positional[i];
        docs[i] = load(path, err, sizeof err);
        if (!docs[i]) {
            rc = diag_error(EXIT_INPUT, "%s", err);
            break;
        }
        merge_kind k = merge_kind_of(docs[i]);
        if (k == MERGE_UNKNOWN)
            rc = diag_error(EXIT_INPUT,
                            "%s: neither a gpulint JSON report nor a SARIF log from gpulint", path);
        else if (kind != MERGE_UNKNOWN && k != kind)
            rc = diag_error(EXIT_INPUT, "%s: a %s among %s; merge one kind", path,
                            k == MERGE_SARIF ? "SARIF log" : "JSON report",
                            kind == MERGE_SARIF ? "SARIF logs" : "JSON reports");
        kind = k;
    }
    json_t *out = NULL;
    if (rc == EXIT_OK) {
        size_t bad;
        out = merge_documents(docs, n, kind, err, sizeof err, &bad);
        if (!out)
            rc = diag_error(EXIT_INPUT, "%s: %s", res.positional[bad], err);
    }
    if (out) {
        FILE *f = output ? fopen(output, "w") : stdout;
        if (!f) {
            rc = diag_error(EXIT_INPUT, "%s: cannot write: %m", output);
        } else {
            /* As the report and SARIF writers print them, so a merge of
             * shards reads like one run's output. */
            if (kind == MERGE_REPORT)
                cli_json_exact_counts(out);
            json_dumpf(out, f,
                       JSON_INDENT(2) | (kind == MERGE_REPORT ? JSON_REAL_PRECISION(6) : 0));
            fputc('\n', f);
            if (output && fclose(f) != 0)
                rc = diag_error(EXIT_INPUT, "%s: cannot write: %m", output);
        }
        json_decref(out);
    }
    for (size_t i = 0; i < n; i++)
        json_decref(docs[i]);
    free(docs);
    opt_free(&res);
    return rc;
}
