/* exitcode: gpulint's documented exit statuses (README "Exit codes").
 * Scripts depend on these; never renumber. */
#ifndef GPULINT_EXITCODE_H
#define GPULINT_EXITCODE_H

enum {
    EXIT_OK = 0,
    EXIT_CHECK_FAILED = 1, /* check: a threshold was crossed or a regression found */
    EXIT_COMPILE = 2,      /* nvcc rejected the source (its diagnostics are shown) */
    EXIT_USAGE = 3,        /* unknown option, missing or malformed value */
    EXIT_INPUT = 4,        /* unreadable, empty or binary input; no kernels found */
    EXIT_MODEL = 5,        /* unknown arch/GPU name, broken model file */
    EXIT_TOOL = 6,         /* nvcc not found or could not be run */
    EXIT_NO_DEVICE = 7,    /* devices/verify: no GPU or driver */
    EXIT_LAUNCH = 8,       /* the requested configuration cannot launch */
    EXIT_TIMEOUT = 9,      /* a file took longer than --timeout */
    EXIT_INTERNAL = 70,    /* a bug in gpulint */
};

#endif
