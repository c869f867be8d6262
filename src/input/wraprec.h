/* wraprec: what `gpulint wrap` learns from one nvcc command of a real build
 * and keeps for `gpulint --from DIR`: the command's working directory,
 * source and output, and the ptxas -v lines it printed. A record is a
 * small JSON file, "<output>.gpulint.json" beside the object or a file of
 * its own in a chosen directory; it holds the raw log, so the report is
 * made later with the models, targets and thresholds of that day. */
#ifndef GPULINT_WRAPREC_H
#define GPULINT_WRAPREC_H

#include <stdbool.h>
#include <stddef.h>

#define WRAPREC_SUFFIX ".gpulint.json"

typedef struct wraprec {
    char *path;      /* the record file (set by the loader) */
    char *directory; /* the command's working directory */
    char **sources;  /* absolute; the .cu/.ptx inputs of the command */
    int n_sources;
    char *output; /* absolute; NULL when the command names none */
    char *log;    /* the ptxas -v lines, as printed */
} wraprec;

/* What an nvcc command line says, for wrap: which word is nvcc (after any
 * launchers such as ccache), whether it already asks ptxas for -v, its
 * inputs and output. Pure; paths stay as written. */
typedef struct wraprec_cmd {
    int nvcc;     /* index of nvcc in argv, -1 when the command is not nvcc */
    bool verbose; /* -Xptxas -v, --ptxas-options=-v, --resource-usage ... */
    const char **sources;
    int n_sources;
    const char *output; /* NULL = none given */
    bool compile_only;  /* -c / --compile / -dc / -cubin / -ptx ...: one output per input */
} wraprec_cmd;

void wraprec_read_command(char *const *argv, int argc, wraprec_cmd *cmd);
void wraprec_cmd_free(wraprec_cmd *cmd);

/* Whether a line of nvcc's standard error belongs to ptxas -v's report
 * (and is hidden when wrap asked for it). */
bool wraprec_is_log_line(const char *line, size_t len);

/* Where the record of w goes: beside its output, or in dir (NULL = beside)
 * under a name made unique by the output's absolute path. NULL when w has
 * neither output nor source. Caller frees. */
char *wraprec_path_for(const wraprec *w, const char *dir);

/* Writes w to path atomically (a temporary file renamed over it), so a
 * reader never sees half a record. False with a reason in err. */
bool wraprec_write(const char *path, const wraprec *w, char *err, size_t errlen);

/* A record's text into w (path not set). False when it is not a record. */
bool wraprec_parse(const char *text, size_t len, wraprec *w);
void wraprec_free(wraprec *w);

/* Every *.gpulint.json under dir (symbolic links not followed), sorted by
 * source then output. A file that is not a record is named in bad[] (the
 * caller reports it) and left out. Returns false with err when dir cannot
 * be read at all. */
typedef struct wraprec_set {
    wraprec *recs;
    size_t n;
    char **bad;
    size_t n_bad;
} wraprec_set;
bool wraprec_load_tree(const char *dir, wraprec_set *set, char *err, size_t errlen);
void wraprec_set_free(wraprec_set *set);

#endif
