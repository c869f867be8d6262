/* merge: reports of the same gpulint run split into shards (--shard K/N),
 * or of several runs over different files, folded into one: a JSON report
 * (what `gpulint FILE.cu --format json` writes; also a baseline for
 * `gpulint check`) or a SARIF log. Pure: JSON documents in, one out. */
#ifndef GPULINT_MERGE_H
#define GPULINT_MERGE_H

#include <jansson.h>
#include <stddef.h>

typedef enum merge_kind {
    MERGE_UNKNOWN = 0,
    MERGE_REPORT, /* gpulint's JSON report */
    MERGE_SARIF,  /* a SARIF 2.1.0 log from gpulint */
} merge_kind;

/* What kind of document doc is (MERGE_UNKNOWN: neither). */
merge_kind merge_kind_of(const json_t *doc);

/* Merges n documents of one kind in the order given: arrays are
 * concatenated, a kernel (file, name, arch) or finding seen before is kept
 * once. Reports must agree on gpulint's version and targets. Returns NULL
 * with one line in err (naming the input by its index, 0-based) when they
 * cannot be merged. */
json_t *merge_documents(json_t *const *docs, size_t n, merge_kind kind, char *err, size_t errlen,
                        size_t *bad_index);

#endif
