/* opt: the option parser every subcommand shares (after git's
 * parse-options): a table of specs, "--name value" and "--name=value",
 * short aliases, "--" ending options (the rest is passed through), and one
 * clear error line for anything malformed. */
#ifndef GPULINT_OPT_H
#define GPULINT_OPT_H

#include <stdbool.h>
#include <stdint.h>

typedef enum opt_type {
    OPT_FLAG,    /* bool */
    OPT_STRING,  /* const char * */
    OPT_TEXT,    /* const char *, may be empty (a list of words that may have none) */
    OPT_LIST,    /* opt_list: repeatable, and comma-separated values are split */
    OPT_INT,     /* int, >= 0 */
    OPT_BYTES,   /* int64_t, "48K" */
    OPT_SI,      /* double, "10T" */
    OPT_PERCENT, /* double, "50%" */
    OPT_END
} opt_type;

#define OPT_LIST_MAX 64
typedef struct opt_list {
    int n;
    const char *v[OPT_LIST_MAX];
} opt_list;

typedef struct opt_spec {
    const char *long_name; /* without "--" */
    char short_name;       /* 0 = none */
    opt_type type;
    void *dest;
    bool *seen;      /* optional: set when given */
    const char *arg; /* "N", "FILE" for help */
    const char *help;
} opt_spec;

#define OPT_ERR_MAX 256
typedef struct opt_result {
    int n_positional;
    char **positional; /* points into argv */
    int n_passthrough; /* after "--" */
    char **passthrough;
    char error[OPT_ERR_MAX];
} opt_result;

/* argv[0] is the subcommand's name. Returns false and fills res->error on a
 * bad command line. positional/passthrough arrays are malloc'd: opt_free. */
bool opt_parse(const opt_spec *specs, int argc, char **argv, opt_result *res);
void opt_free(opt_result *res);
/* Help text for a spec table, into stdout. */
void opt_usage(const char *usage_line, const opt_spec *specs);
/* The start of a subcommand that takes options but no file arguments:
 * parses argv, answers --help (*help, set through specs) with the usage,
 * and refuses a positional argument or a *format other than text and json
 * (format may be NULL) with one error line. Returns -1 for the command to go
 * on, else the exit code it should return. */
int opt_parse_command(const char *name, const opt_spec *specs, int argc, char **argv,
                      const char *usage_line, const bool *help, const char *const *format);

#endif
