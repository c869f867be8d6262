/* target_opts: the --arch/--gpu/--machine/--models options every targeted
 * command takes, and the request they make of target/. */
#ifndef GPULINT_TARGET_OPTS_H
#define GPULINT_TARGET_OPTS_H

#include "cli/opt.h"
#include "target/target.h"

typedef struct target_opts {
    opt_list archs;
    const char *gpu;
    const char *machine;
    const char *models_dir; /* --models DIR */
} target_opts;

/* Option table entries every targeted command includes. */
#define TARGET_OPTIONS(t)                                                                          \
    {"arch",                                                                                       \
     'a',                                                                                          \
     OPT_LIST,                                                                                     \
     &(t)->archs,                                                                                  \
     NULL,                                                                                         \
     "ARCH",                                                                                       \
     "target compute capability: sm_90, 90 or 9.0 (repeatable)"},                                  \
        {"gpu",                                                                                    \
         'g',                                                                                      \
         OPT_STRING,                                                                               \
         &(t)->gpu,                                                                                \
         NULL,                                                                                     \
         "ID",                                                                                     \
         "target a product model, e.g. h100-sxm ('gpulint models' lists them)"},                   \
        {"machine",                                                                                \
         0,                                                                                        \
         OPT_STRING,                                                                               \
         &(t)->machine,                                                                            \
         NULL,                                                                                     \
         "SPEC|FILE",                                                                              \
         "hypothetical SM: \"threads/sm=2048,regs/sm=65536,smem/sm=48K,granularity=none\" "        \
         "or an arch model file"},                                                                 \
    {                                                                                              \
        "models", 0, OPT_STRING, &(t)->models_dir, NULL, "DIR",                                    \
            "models directory (default: the bundled one; env GPULINT_MODELS)"                      \
    }

/* A view of the options (valid while o is). */
static inline target_request target_request_of(const target_opts *o)
{
    return (target_request){o->archs.v, o->archs.n, o->gpu, o->machine, o->models_dir};
}

#endif
