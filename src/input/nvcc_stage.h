/* nvcc_stage: everything gpulint hands nvcc, made safe for nvcc's shell.
 *
 * nvcc runs its sub-steps (gcc -E, cicc, ptxas, fatbinary) through `sh -c`,
 * pasting the source name, its directory (for a relative name), -D and -I
 * values and $TMPDIR into the command text with uneven quoting: `-DA=$(x)`
 * becomes `-D "A=$(x)"`, live. So nothing a user or a repository chose may
 * reach nvcc's argv or environment as text. A stage is a private directory
 * with a safe name that holds
 *   src/gpulint.cu  a copy of the source whose first line is
 *                   `#line 1 "<the user's path>"`, so diagnostics and
 *                   __FILE__ name the user's file;
 *   inc             a symlink to the source's directory, passed as
 *                   `-Xcompiler -iquote`, so quoted includes (also "../x.h")
 *                   resolve where they did;
 *   pN              symlinks for -I/-isystem/-L/-include paths that hold
 *                   characters the shell would read;
 *   defs.h          #define/#undef for -D/-U values that hold them;
 *   tmp/            nvcc's TMPDIR and its output.
 * Any other argument must consist of shell-inert characters or it is
 * refused. nvcc itself, the host compiler and the environment are trusted. */
#ifndef GPULINT_NVCC_STAGE_H
#define GPULINT_NVCC_STAGE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum nvstage_status {
    NVSTAGE_OK = 0,
    NVSTAGE_REFUSED, /* an argument that cannot be passed safely */
    NVSTAGE_IO,      /* the private directory could not be made */
} nvstage_status;

typedef struct nvstage_map {
    char *staged; /* a prefix that appears in nvcc's output */
    char *user;   /* what the user knows it as */
} nvstage_map;

typedef struct nvstage {
    char *dir;    /* the private directory (safe characters only) */
    char *source; /* dir/src/gpulint.<ext> */
    char *tmpdir; /* dir/tmp: nvcc's TMPDIR */
    char *output; /* dir/tmp/out.fatbin */
    char *deps;   /* dir/tmp/deps.d: nvcc's -MD list of what the source read */
    char **args;  /* safe replacements of the extra arguments, then the stage's own */
    int n_args;
    nvstage_map *maps;
    size_t n_maps;
    /* The user's path can name the source in PTX: cicc copies the #line
     * name into `.file` unescaped, and a quote or a backslash there stops
     * ptxas. False: no -lineinfo. */
    bool path_in_ptx;
} nvstage;

/* True when no byte of s means anything to sh inside or outside double
 * quotes: ASCII letters, digits, "_-./=,:+@%" and bytes >= 0x80. */
bool nvstage_inert(const char *s);

/* Makes the stage for one source file (path as the user gave it, and its
 * text) and the extra nvcc arguments (after "--" or from a compilation
 * database). `what` names their origin in errors ("nvcc argument"). On
 * failure err holds one line and the directory is gone. */
nvstage_status nvstage_prepare(nvstage *st, const char *path, const char *text, size_t len,
                               char *const *extra, int n_extra, const char *what, char *err,
                               size_t errlen);

/* nvcc's output with the stage's paths turned back into the user's
 * (caller frees). */
char *nvstage_unmap(const nvstage *st, const char *text);

/* The environment for nvcc: environ with TMPDIR set to the stage's tmp/
 * (caller frees with nvstage_env_free). */
char **nvstage_env(const nvstage *st);
void nvstage_env_free(char **env);

/* Removes the directory (never following its symlinks) and frees. */
void nvstage_free(nvstage *st);

/* A new private directory PREFIXxxxxxx under $TMPDIR when that name is
 * inert (else /tmp): nvcc's shell may see paths inside it. */
char *nvstage_temp_dir(const char *prefix, char *err, size_t errlen);

#endif
