/* compiled: what nvcc made of one file and what gpulint reads of it (its
 * log, its -MD list, the PTX it kept, cuobjdump's SASS), taken from a
 * finished nvcc stage or from the cache. The compile depends on the file,
 * its includes, its nvcc arguments, nvcc and the archs, not on the
 * analysis options, so a run with another --gpu, --define, --clock or
 * --block reuses it instead of compiling again. Internal to run/. */
#ifndef GPULINT_COMPILED_H
#define GPULINT_COMPILED_H

#include <stdbool.h>
#include <stddef.h>

#include "input/nvcc_stage.h"
#include "report/code_report.h"

typedef struct compiled {
    char *log;       /* nvcc's output, the stage's paths turned into the user's */
    char *deps;      /* nvcc's -MD list, likewise; NULL: none (nothing is cached) */
    char *stage_dir; /* the stage it was compiled in: its paths in deps are
                      * gpulint's own (defs.h), not the user's */
    char **ptx;      /* the text of each PTX file nvcc kept */
    size_t n_ptx;
    char *sass;        /* cuobjdump -sass's listing; NULL: none run */
    char *why_no_sass; /* when cuobjdump was wanted and gave nothing: why */
} compiled;

/* After nvcc succeeded on the stage: log is its output in the user's paths
 * (taken over). keep_ptx: nvcc kept the PTX in the stage's tmp/;
 * cuobjdump: the tool to list the SASS with, NULL = do not (--sass). */
void compiled_from_stage(compiled *c, const nvstage *st, char *log, bool keep_ptx,
                         const char *cuobjdump);

/* The cache (run/unitcache): an entry under key, used only while every
 * file the compile read hashes as it did. */
bool compiled_lookup(const char *cache_dir, const char *key, compiled *c);
void compiled_store(const char *cache_dir, const char *key, const compiled *c);

/* The listing the analyses read: the PTX, and the SASS from sass_text
 * (--sass's listing, named sass_origin) or else from c. */
void compiled_listing(const compiled *c, const char *sass_text, size_t sass_len,
                      const char *sass_origin, code_listing *code);

void compiled_free(compiled *c);

#endif
