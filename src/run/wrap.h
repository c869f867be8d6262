/* wrap: gpulint as a compiler launcher inside the real build
 * (CMAKE_CUDA_COMPILER_LAUNCHER=gpulint;wrap, NVCC="gpulint wrap nvcc").
 * The build's own command runs unchanged but for -Xptxas -v where it is
 * absent; the lines that adds are kept out of the build's output and saved
 * as a record (input/wraprec) for `gpulint --from DIR`. Everything else
 * the compiler prints, its outputs and its exit status pass through. */
#ifndef GPULINT_WRAP_H
#define GPULINT_WRAP_H

/* Runs argv (argv[0] found on PATH, never through a shell) and returns the
 * status to exit with: the command's own, 128 + signal when a signal
 * ended it (after re-raising it where possible), 127 when it cannot be
 * started. record_dir: where records go, NULL = beside each object. */
int wrap_run(char *const *argv, int argc, const char *record_dir);

#endif
