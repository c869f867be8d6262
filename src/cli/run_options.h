/* run_options: the options of a run over many files (-j, --timeout,
 * --shard, --no-cache), shared by `gpulint FILE.cu` and `gpulint check`. */
#ifndef GPULINT_RUN_OPTIONS_H
#define GPULINT_RUN_OPTIONS_H

#include "cli/opt.h"
#include "run/pipeline.h"

#define PIPELINE_RUN_OPTIONS(p)                                                                    \
    {"jobs",                                                                                       \
     'j',                                                                                          \
     OPT_INT,                                                                                      \
     &(p)->jobs,                                                                                   \
     &(p)->seen_jobs,                                                                              \
     "N",                                                                                          \
     "files analysed at once (default: one per core)"},                                            \
        {"timeout",                                                                                \
         0,                                                                                        \
         OPT_INT,                                                                                  \
         &(p)->timeout_s,                                                                          \
         &(p)->seen_timeout,                                                                       \
         "SEC",                                                                                    \
         "give up on a file after SEC seconds (default 600; 0 = never)"},                          \
        {"shard",                                                                                  \
         0,                                                                                        \
         OPT_STRING,                                                                               \
         &(p)->shard,                                                                              \
         NULL,                                                                                     \
         "K/N",                                                                                    \
         "only the files of shard K of N (1 <= K <= N; the same split on every machine)"},         \
    {                                                                                              \
        "no-cache", 0, OPT_FLAG, &(p)->no_cache, NULL, NULL,                                       \
            "neither use nor keep cached results of unchanged files ($GPULINT_CACHE_DIR)"          \
    }

#endif
